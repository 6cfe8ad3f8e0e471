//! A gateway that acts for its caller (issue 36, item 5), end to end over
//! HTTP against the real issuer (`tests/auth/issuer.mjs`, which scripts RFC
//! 8693 token exchange on oauth2-mock-server's keys): a caller with token A
//! (for the gateway) calls a tool of a mounted protected server through the
//! gateway, and the mounted server sees a token issued for its own audience,
//! with the caller's subject (token exchange) or the gateway's client id
//! (client credentials), never A. Refusals fail closed, naming the reason.

use codeagent::Server;
use codeagent::client::{Client, Credential, OAuth};
use codeagent::prelude::*;
use codeagent::server::auth::ResourceServer;
use codeagent::server::http::HttpOptions;
use codeagent::server::middleware::{Caller, Next, Request};
use serde_json::{Value, json};

use crate::common::http::{Call, Endpoint, start_on};
use crate::issuer::Issuer;

const GATEWAY: &str = "gateway";
const SECRET: &str = "gateway-secret-7f3a";

/// What the token the mounted server verified says: subject, audience,
/// client and actor.
#[tool(read_only)]
fn token_seen(ctx: &Context) -> String {
    let Some(caller) = ctx.caller() else { return "nobody".to_owned() };
    json!({
        "sub": caller.subject(),
        "aud": caller.claim("aud"),
        "client_id": caller.claim("client_id"),
        "act": caller.claim("act"),
        "scopes": caller.scopes(),
    })
    .to_string()
}

/// A protected server whose tokens `issuer` issues for its own resource:
/// the endpoint and the resource.
async fn mounted_server(issuer: &Issuer) -> (Endpoint, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
    let auth = ResourceServer::new(&issuer.url, &resource).with_scopes_supported(["notes:read"]);
    let server = Server::new(Toolbox::new().tool(token_seen));
    (start_on(listener, server, HttpOptions::new().with_resource_server(auth)).await, resource)
}

/// A gateway mounting `mounted` (its URL) as `docs` with `oauth`, itself a
/// resource server of `issuer`: the endpoint, and its resource.
async fn gateway(issuer: &Issuer, mounted: &str, oauth: OAuth) -> (Endpoint, String) {
    let client = Client::builder().oauth(oauth).http(mounted).await.expect("the gateway connects as itself");
    let toolbox = Toolbox::new();
    toolbox.mount("docs", client).await.expect("mounting docs");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
    let auth = ResourceServer::new(&issuer.url, &resource);
    (start_on(listener, Server::new(toolbox), HttpOptions::new().with_resource_server(auth)).await, resource)
}

/// A caller's token for the gateway's resource.
async fn token_for(issuer: &Issuer, subject: &str, gateway_resource: &str) -> String {
    issuer.mint(json!({ "sub": subject, "aud": gateway_resource, "scope": "notes:read" })).await
}

/// What the mounted server saw when `token`'s holder called `docs_token_seen` through the gateway.
async fn seen_through(gateway: &Endpoint, token: &str) -> Value {
    let caller = Client::builder()
        .header("authorization", format!("Bearer {token}"))
        .http(&format!("http://{}/mcp", gateway.addr))
        .await
        .expect("the caller connects to the gateway");
    let output = caller.call("docs_token_seen", json!({})).await.expect("the call through the gateway");
    let raw = output.raw();
    assert_ne!(raw["isError"], true, "{raw}");
    let text = raw["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text: {raw}"));
    serde_json::from_str(text).unwrap_or_else(|_| panic!("not JSON: {text}"))
}

async fn issuer_with_gateway_client() -> Issuer {
    let issuer = Issuer::start().await;
    issuer.client(GATEWAY, SECRET).await;
    issuer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn a_gateway_exchanges_each_callers_token_for_one_of_the_mounted_server() {
    let issuer = issuer_with_gateway_client().await;
    let (mounted, mounted_resource) = mounted_server(&issuer).await;
    let oauth = OAuth::client_credentials(&issuer.url, GATEWAY, Credential::secret(SECRET)).token_exchange();
    let (gateway, gateway_resource) = gateway(&issuer, &mounted_resource, oauth).await;

    let alice = token_for(&issuer, "alice", &gateway_resource).await;
    let seen = seen_through(&gateway, &alice).await;
    assert_eq!(seen["sub"], "alice", "the caller's subject: {seen}");
    assert_eq!(seen["aud"], mounted_resource.as_str(), "issued for the mounted server, not the gateway: {seen}");
    assert_eq!(seen["act"], json!({ "sub": GATEWAY }), "the gateway acts for alice: {seen}");
    assert_eq!(seen["client_id"], GATEWAY);
    assert_eq!(seen["scopes"], json!(["notes:read"]));
    assert_eq!(issuer.exchanges().await, 1);

    // Alice's own token is not one the mounted server takes: it was never forwarded.
    let status = Call::new(mounted.addr, hyper::Method::POST)
        .at_path("/mcp")
        .header("authorization", format!("Bearer {alice}"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .json(&json!({ "jsonrpc": "2.0", "id": 1, "method": "ping" }))
        .send()
        .await
        .status;
    assert_eq!(status.as_u16(), 401, "the caller's token is for the gateway alone");

    // Kept per caller and server until it expires: alice again exchanges nothing.
    let again = seen_through(&gateway, &alice).await;
    assert_eq!(again["sub"], "alice");
    assert_eq!(issuer.exchanges().await, 1, "the exchanged token was kept for alice");

    // Another caller gets a token of their own.
    let bob = token_for(&issuer, "bob", &gateway_resource).await;
    let seen = seen_through(&gateway, &bob).await;
    assert_eq!(seen["sub"], "bob", "{seen}");
    assert_eq!(seen["aud"], mounted_resource.as_str());
    assert_eq!(issuer.exchanges().await, 2);
    drop(mounted);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn a_gateway_with_client_credentials_reaches_the_mounted_server_as_itself() {
    let issuer = issuer_with_gateway_client().await;
    let (_mounted, mounted_resource) = mounted_server(&issuer).await;
    let oauth = OAuth::client_credentials(&issuer.url, GATEWAY, Credential::secret(SECRET));
    let (gateway, gateway_resource) = gateway(&issuer, &mounted_resource, oauth).await;
    let alice = token_for(&issuer, "alice", &gateway_resource).await;
    let seen = seen_through(&gateway, &alice).await;
    assert_eq!(seen["sub"], GATEWAY, "the gateway's own identity: {seen}");
    assert_eq!(seen["client_id"], GATEWAY);
    assert_eq!(seen["aud"], mounted_resource.as_str(), "{seen}");
    assert_eq!(seen["act"], Value::Null);
    assert_eq!(issuer.exchanges().await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn token_exchange_fails_closed() {
    let issuer = issuer_with_gateway_client().await;
    let (_mounted, mounted_resource) = mounted_server(&issuer).await;

    // A wrong secret: the gateway cannot even list the mounted server.
    let wrong = OAuth::client_credentials(&issuer.url, GATEWAY, Credential::secret("not-the-secret")).token_exchange();
    let error = Client::builder().oauth(wrong).http(&mounted_resource).await.map(drop).unwrap_err().to_string();
    assert!(error.contains("invalid_client"), "{error}");
    assert!(!error.contains("not-the-secret"), "the secret is never shown: {error}");

    let oauth = OAuth::client_credentials(&issuer.url, GATEWAY, Credential::secret(SECRET)).token_exchange();
    assert!(!format!("{oauth:?}").contains(SECRET), "Debug redacts the secret");
    let (gateway, _) = gateway(&issuer, &mounted_resource, oauth).await;

    // A call with no verified caller (in process, no resource server): refused, never the gateway's identity.
    let result = gateway.toolbox.tools().call("docs_token_seen", json!({})).await.expect("a tool result");
    assert!(result.is_error(), "{}", result.value());
    assert!(result.value().contains("there is none"), "{}", result.value());

    // A caller whose identity a middleware set, without a verified token: refused as well.
    let server = Server::new(gateway.toolbox.clone()).with_middleware(|mut request: Request, next: Next| async move {
        request.set_caller(Caller::new("mallory"));
        next.run(request).await
    });
    let open = crate::common::http::start(server, HttpOptions::new()).await;
    let client = Client::builder().http(&format!("http://{}/mcp", open.addr)).await.expect("connecting");
    let output = client.call("docs_token_seen", json!({})).await.expect("a result");
    let text = output.raw().to_string();
    assert_eq!(output.raw()["isError"], true, "{text}");
    assert!(text.contains("mallory") && text.contains("came without an access token"), "{text}");
    assert_eq!(issuer.exchanges().await, 0, "nothing was exchanged");
}
