//! `OAuth`: a codeagent server behind a bearer check answers 401 with a
//! challenge naming its resource metadata; the test's own authorization
//! server (metadata, registration, token endpoint) issues the token; a
//! person (the authorize closure) approves. The official suite's
//! authorization scenarios (tests/conformance) cover the rest of the spec.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::{get, post};
use codeagent::ProtocolVersion;
use codeagent::client::{Client, ClientError, OAuth, Protocol};
use codeagent::server::http::{HttpOptions, Unauthorized};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::own::server;

const TOKEN: &str = "tok-approved";

/// What the authorization server was sent.
#[derive(Default)]
struct Seen {
    registrations: Vec<Value>,
    token_requests: Vec<Vec<(String, String)>>,
}

fn json_answer(status: StatusCode, body: Value) -> (StatusCode, [(header::HeaderName, &'static str); 1], String) {
    (status, [(header::CONTENT_TYPE, "application/json")], body.to_string())
}

/// The codeagent server behind a bearer check (its URL), and the
/// authorization server for it (its URL, what it saw).
async fn protected() -> (String, String, Arc<Mutex<Seen>>) {
    let issuer_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://{}", issuer_listener.local_addr().unwrap());
    let server_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server_url = format!("http://{}/mcp", server_listener.local_addr().unwrap());

    let metadata_url = format!("{issuer}/resource-metadata");
    let options = HttpOptions::new().with_authorizer(move |headers: &HeaderMap| {
        let sent = headers.get(header::AUTHORIZATION).and_then(|value| value.to_str().ok());
        if sent == Some(&format!("Bearer {TOKEN}") as &str) {
            return Ok(());
        }
        let mut refused = Unauthorized::bearer("a token from the test issuer is needed");
        refused.challenge = Some(format!(r#"Bearer resource_metadata="{metadata_url}", scope="tools:call""#));
        Err(refused)
    });
    tokio::spawn(async move { server().serve_http_on(server_listener, options).await });

    let seen = Arc::new(Mutex::new(Seen::default()));
    let (registered, tokens) = (Arc::clone(&seen), Arc::clone(&seen));
    let resource =
        json!({ "resource": server_url, "authorization_servers": [issuer], "scopes_supported": ["tools:call"] });
    let metadata = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "registration_endpoint": format!("{issuer}/register"),
        "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "authorization_response_iss_parameter_supported": true,
    });
    let app = Router::new()
        .route("/resource-metadata", get(move || async move { json_answer(StatusCode::OK, resource) }))
        .route(
            "/.well-known/oauth-authorization-server",
            get(move || async move { json_answer(StatusCode::OK, metadata) }),
        )
        .route(
            "/register",
            post(move |body: String| async move {
                registered.lock().unwrap().registrations.push(serde_json::from_str(&body).unwrap_or(Value::Null));
                json_answer(StatusCode::CREATED, json!({ "client_id": "client-1" }))
            }),
        )
        .route(
            "/token",
            post(move |body: String| async move {
                let form: Vec<(String, String)> = form_pairs(&body);
                let approved = form.iter().any(|(key, value)| key == "code" && value == "code-1")
                    && form.iter().any(|(key, _)| key == "code_verifier");
                tokens.lock().unwrap().token_requests.push(form);
                if approved {
                    json_answer(
                        StatusCode::OK,
                        json!({ "access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600 }),
                    )
                } else {
                    json_answer(StatusCode::BAD_REQUEST, json!({ "error": "invalid_grant" }))
                }
            }),
        );
    tokio::spawn(async move { axum::serve(issuer_listener, app).await });
    (server_url, issuer, seen)
}

/// The `key=value` pairs of a form or a query.
pub(crate) fn form_pairs(text: &str) -> Vec<(String, String)> {
    text.split('&').filter_map(|pair| pair.split_once('=')).map(|(key, value)| (decode(key), decode(value))).collect()
}

fn decode(text: &str) -> String {
    let text = text.replace('+', " ");
    let mut bytes = Vec::new();
    let mut chars = text.bytes();
    while let Some(byte) = chars.next() {
        if byte == b'%' {
            let hex: Vec<u8> = chars.by_ref().take(2).collect();
            bytes.push(u8::from_str_radix(std::str::from_utf8(&hex).unwrap(), 16).unwrap());
        } else {
            bytes.push(byte);
        }
    }
    String::from_utf8(bytes).unwrap()
}

/// An approval: the authorization URL's `state` sent back with the code,
/// from `issuer` (or with the state changed, when `forge`).
fn approving(issuer: String, asked: Arc<Mutex<Vec<String>>>, forge: bool) -> OAuth {
    OAuth::new("http://127.0.0.1:9/callback", move |url: String| {
        asked.lock().unwrap().push(url.clone());
        let query = url.split_once('?').map(|(_, query)| query.to_owned()).unwrap_or_default();
        let state = form_pairs(&query).into_iter().find(|(key, _)| key == "state").map(|(_, value)| value);
        let state = if forge { "forged".to_owned() } else { state.unwrap_or_default() };
        let issuer = issuer.clone();
        async move { Ok(format!("http://127.0.0.1:9/callback?code=code-1&state={state}&iss={issuer}")) }
    })
    .client_name("codeagent-oauth-test")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_approves_once_and_every_request_carries_the_token() {
    for protocol in [Protocol::Negotiate, Protocol::Only(ProtocolVersion::V2025_11_25)] {
        let (url, issuer, seen) = protected().await;
        let asked = Arc::new(Mutex::new(Vec::new()));
        let oauth = approving(issuer, Arc::clone(&asked), false);
        let client = Client::builder().protocol(protocol).oauth(oauth.clone()).http(&url).await.unwrap();
        let output = client.call("add", json!({"a": 2, "b": 3})).await.unwrap();
        assert_eq!(output.result().value(), "5");
        client.list_tools().await.unwrap();
        assert_eq!(oauth.access_token().as_deref(), Some(TOKEN));

        // One approval, asked with PKCE, the resource and the challenge's scope.
        let asked = asked.lock().unwrap();
        assert_eq!(asked.len(), 1, "{protocol:?}: {asked:?}");
        let query = form_pairs(asked[0].split_once('?').unwrap().1);
        let field = |name: &str| query.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str());
        assert_eq!(field("client_id"), Some("client-1"));
        assert_eq!(field("code_challenge_method"), Some("S256"));
        assert_eq!(field("resource"), Some(url.as_str()));
        assert_eq!(field("scope"), Some("tools:call"));
        let seen = seen.lock().unwrap();
        assert_eq!(seen.registrations.len(), 1);
        assert_eq!(seen.registrations[0]["client_name"], "codeagent-oauth-test");
        assert_eq!(seen.registrations[0]["redirect_uris"], json!(["http://127.0.0.1:9/callback"]));
        assert_eq!(seen.token_requests.len(), 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_answer_and_a_missing_oauth_are_clear_errors() {
    let (url, issuer, seen) = protected().await;
    let oauth = approving(issuer, Arc::default(), true);
    let error = Client::builder().oauth(oauth).http(&url).await.unwrap_err();
    assert!(matches!(error, ClientError::Unauthorized { .. }), "{error}");
    assert!(error.to_string().contains("state"), "{error}");
    assert!(seen.lock().unwrap().token_requests.is_empty(), "the code of a forged answer is never exchanged");

    let error = Client::builder().http(&url).await.unwrap_err();
    assert!(matches!(error, ClientError::Unauthorized { .. }), "{error}");
    assert!(error.to_string().contains("401") && error.to_string().contains("OAuth"), "{error}");
}
