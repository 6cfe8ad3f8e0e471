//! Each way a request is refused, by its exact status and challenge, and
//! the tokens that pass: in both eras, over Streamable HTTP.

use std::net::SocketAddr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::prelude::BASE64_URL_SAFE_NO_PAD;
use hyper::StatusCode;
use serde_json::{Value, json};

use crate::common::http::{Response, get, initialize_request, modern, modern_post, post, request};
use crate::issuer::Issuer;
use crate::protected;

const IGNORED: &str = "needs the issuer: run bash tests/auth/install.sh";

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() as i64
}

/// A 2026-07-28 `tools/call` of `tool` with `token` (none when `None`).
async fn call(addr: SocketAddr, tool: &str, arguments: Value, token: Option<&str>) -> Response {
    let message = modern(1, "tools/call", json!({"name": tool, "arguments": arguments}));
    let call = modern_post(addr, &message);
    match token {
        Some(token) => call.header("authorization", format!("Bearer {token}")).send().await,
        None => call.send().await,
    }
}

/// The challenge of a refused request, and its status.
fn refused(response: &Response) -> (StatusCode, String) {
    (response.status, response.header("www-authenticate").unwrap_or_default().to_owned())
}

/// The challenge of a `401` for a bad token: `description` in it.
fn invalid(metadata: &str, description: &str) -> String {
    format!(
        r#"Bearer resource_metadata="{metadata}", scope="sales:read sales:write", error="invalid_token", error_description="{description}""#
    )
}

/// A token with the header and claims given, signed with HMAC-SHA256 keyed
/// by `key`, or unsigned (`alg: none`) without a key.
fn forged(header: Value, claims: &Value, key: Option<&[u8]>) -> String {
    let encode = |value: &Value| BASE64_URL_SAFE_NO_PAD.encode(value.to_string());
    let message = format!("{}.{}", encode(&header), encode(claims));
    let signature = key.map(|key| BASE64_URL_SAFE_NO_PAD.encode(hmac_sha256::HMAC::mac(message.as_bytes(), key)));
    format!("{message}.{}", signature.unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn every_bad_token_gets_its_exact_401() {
    let _ = IGNORED;
    let issuer = Issuer::start().await;
    let (endpoint, resource) = protected(&issuer, Duration::from_secs(30)).await;
    let addr = endpoint.addr;
    let metadata = format!("http://{addr}/.well-known/oauth-protected-resource/mcp");

    // No token: the challenge names the metadata and the scopes, no error.
    let response = call(addr, "sales_total", json!({}), None).await;
    let expected = format!(r#"Bearer resource_metadata="{metadata}", scope="sales:read sales:write""#);
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, expected.clone()));
    // A token in the query string is no token.
    let good = issuer.mint(json!({"aud": resource, "sub": "ada", "scope": "sales:read"})).await;
    let message = modern(1, "tools/call", json!({"name": "sales_total", "arguments": {}}));
    let response = modern_post(addr, &message).at_path(&format!("/mcp?access_token={good}")).send().await;
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, expected));

    let cases = [
        ("Bearer not-a-jwt".to_owned(), "the token is not a signed JWT: InvalidToken"),
        (format!("Basic {good}"), "the Authorization header is not `Bearer <token>`"),
    ];
    for (header, description) in cases {
        let response = modern_post(addr, &message).header("authorization", header.clone()).send().await;
        assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, invalid(&metadata, description)), "{header}");
    }
    let issuer_slash = format!("{}/", issuer.url);
    let claims = [
        (json!({"aud": resource, "exp": now() - 3600, "iat": now() - 7200}), "the token has expired".to_owned()),
        (json!({"aud": resource, "nbf": now() + 3600}), "the token is not valid yet (nbf)".to_owned()),
        // RFC 8414 §3.3: the issuer compared exactly, so a trailing slash is another issuer.
        (json!({"aud": resource, "iss": issuer_slash}), format!("the token is not from `{}`", issuer.url)),
        (json!({"aud": "http://127.0.0.1:1/other"}), format!("the token is not for `{resource}` (aud)")),
        (json!({"aud": null}), "the token has no `aud` claim".to_owned()),
    ];
    for (claims, description) in claims {
        let token = issuer.mint(claims.clone()).await;
        let response = call(addr, "sales_total", json!({}), Some(&token)).await;
        assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, invalid(&metadata, &description)), "{claims}");
    }

    // Forgeries: unsigned, and HMAC keyed with the issuer's public key.
    let claims =
        json!({"iss": issuer.url, "aud": resource, "sub": "mallory", "exp": now() + 3600, "scope": "sales:write"});
    let none = forged(json!({"alg": "none", "typ": "JWT"}), &claims, None);
    let response = call(addr, "sales_total", json!({}), Some(&none)).await;
    let (status, challenge) = refused(&response);
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(
        challenge.contains(r#"error="invalid_token", error_description="the token is not a signed JWT"#),
        "{challenge}"
    );
    let jwks = issuer.jwks().await;
    let public_key = jwks["keys"][0].to_string();
    let hs256 = forged(json!({"alg": "HS256", "typ": "JWT", "kid": "key-1"}), &claims, Some(public_key.as_bytes()));
    let response = call(addr, "delete_region", json!({"region": "north"}), Some(&hs256)).await;
    let description = "tokens signed with HS256 are refused: the issuer signs with a private key";
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, invalid(&metadata, description)));

    // A good token passes; the tool sees who called.
    let response = call(addr, "whoami", json!({}), Some(&good)).await;
    assert_eq!(response.status, StatusCode::OK);
    let (_, answer) = response.exchange().await;
    assert_eq!(answer["result"]["content"][0]["text"], "ada sales:read", "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn scopes_are_required_per_tool_in_both_eras() {
    let issuer = Issuer::start().await;
    let (endpoint, resource) = protected(&issuer, Duration::from_secs(30)).await;
    let addr = endpoint.addr;
    let metadata = format!("http://{addr}/.well-known/oauth-protected-resource/mcp");
    let reader = issuer.mint(json!({"aud": resource, "sub": "ada", "scope": "sales:read"})).await;
    let writer = issuer.mint(json!({"aud": resource, "sub": "ada", "scope": "sales:read sales:write"})).await;
    let forbidden = format!(
        r#"Bearer resource_metadata="{metadata}", scope="sales:write", error="insufficient_scope", error_description="the token lacks the scope sales:write""#
    );

    // Each token is shown the tools it may call.
    for (token, expected) in
        [(&reader, vec!["sales_total", "whoami"]), (&writer, vec!["sales_total", "delete_region", "whoami"])]
    {
        let message = modern(3, "tools/list", json!({}));
        let response = modern_post(addr, &message).header("authorization", format!("Bearer {token}")).send().await;
        let (_, listing) = response.exchange().await;
        assert_eq!(crate::common::http::tool_names(&listing), expected);
    }

    // 2026-07-28.
    let response = call(addr, "delete_region", json!({"region": "north"}), Some(&reader)).await;
    assert_eq!(refused(&response), (StatusCode::FORBIDDEN, forbidden.clone()));
    let response = call(addr, "sales_total", json!({}), Some(&reader)).await;
    assert_eq!(response.status, StatusCode::OK);
    let response = call(addr, "delete_region", json!({"region": "north"}), Some(&writer)).await;
    assert_eq!(response.status, StatusCode::OK);
    let (_, answer) = response.exchange().await;
    assert_eq!(answer["result"]["content"][0]["text"], "deleted north", "{answer}");

    // Resources and prompts alike: listed and served to the writer only.
    for (method, params, listing, key) in [
        ("resources/read", json!({"uri": "sales://ledger"}), "resources/list", "resources"),
        ("prompts/get", json!({"name": "plan_deletion"}), "prompts/list", "prompts"),
    ] {
        let message = modern(4, method, params);
        let sent = |token: &str| modern_post(addr, &message).header("authorization", format!("Bearer {token}"));
        let response = sent(&reader).send().await;
        let (status, challenge) = refused(&response);
        assert_eq!(status, StatusCode::FORBIDDEN, "{method}");
        assert!(challenge.contains(r#"scope="sales:write", error="insufficient_scope""#), "{method}: {challenge}");
        assert_eq!(sent(&writer).send().await.status, StatusCode::OK, "{method}");
        let message = modern(5, listing, json!({}));
        for (token, shown) in [(&reader, 0), (&writer, 1)] {
            let response = modern_post(addr, &message).header("authorization", format!("Bearer {token}")).send().await;
            let (_, answer) = response.exchange().await;
            assert_eq!(answer["result"][key].as_array().map(Vec::len), Some(shown), "{listing}: {answer}");
        }
    }

    // A legacy session: opened with a token, each request checked again.
    let version = codeagent::ProtocolVersion::V2025_11_25;
    let bearer = |token: &str| format!("Bearer {token}");
    let response = post(addr).header("authorization", bearer(&reader)).json(&initialize_request(version)).send().await;
    assert_eq!(response.status, StatusCode::OK);
    let session = response.header("mcp-session-id").expect("a session").to_owned();
    let legacy = |token: &str, message: &Value| {
        post(addr)
            .header("authorization", bearer(token))
            .header("mcp-session-id", session.clone())
            .header("mcp-protocol-version", version.as_str())
            .json(message)
    };
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    assert_eq!(legacy(&reader, &initialized).send().await.status, StatusCode::ACCEPTED);
    let delete = request(2, "tools/call", json!({"name": "delete_region", "arguments": {"region": "south"}}));
    let response = legacy(&reader, &delete).send().await;
    assert_eq!(refused(&response), (StatusCode::FORBIDDEN, forbidden));
    let response = legacy(&writer, &delete).send().await;
    assert_eq!(response.status, StatusCode::OK);
    let (_, answer) = response.exchange().await;
    assert_eq!(answer["result"]["content"][0]["text"], "deleted south", "{answer}");
    // Without the token, the session's own id is not enough.
    let response = post(addr).header("mcp-session-id", session.clone()).json(&delete).send().await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    let response = get(addr).header("mcp-session-id", session).send().await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);
}

// A current-thread runtime, whose clock the test moves past the interval
// instead of waiting for it.
#[tokio::test]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn a_rotated_key_is_fetched_once_the_refetch_interval_passed() {
    let issuer = Issuer::start().await;
    let (endpoint, resource) = protected(&issuer, Duration::from_secs(10)).await;
    let addr = endpoint.addr;
    let first = issuer.mint(json!({"aud": resource, "sub": "ada"})).await;
    assert_eq!(call(addr, "sales_total", json!({}), Some(&first)).await.status, StatusCode::OK);

    let kid = issuer.rotate().await;
    let rotated = issuer.mint(json!({"aud": resource, "sub": "ada"})).await;
    // Within the interval the cached keys stand: the new key is not known yet.
    let response = call(addr, "sales_total", json!({}), Some(&rotated)).await;
    let (status, challenge) = refused(&response);
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let expected = format!("the token is signed with key `{kid}`, which the issuer does not publish");
    assert!(challenge.contains(&expected), "{challenge}");
    // The interval passes on the runtime's clock, paused only for that.
    tokio::time::pause();
    tokio::time::advance(Duration::from_secs(10)).await;
    tokio::time::resume();
    // After it, an unknown key id fetches the keys again: no restart needed.
    assert_eq!(call(addr, "sales_total", json!({}), Some(&rotated)).await.status, StatusCode::OK);
    assert_eq!(call(addr, "sales_total", json!({}), Some(&first)).await.status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn the_protected_resource_metadata_is_served_at_both_paths() {
    let issuer = Issuer::start().await;
    let (endpoint, resource) = protected(&issuer, Duration::from_secs(30)).await;
    let expected = json!({
        "resource": resource,
        "authorization_servers": [issuer.url],
        "bearer_methods_supported": ["header"],
        "scopes_supported": ["sales:read", "sales:write"],
    });
    for path in ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"] {
        let response = get(endpoint.addr).without("accept").at_path(path).send().await;
        assert_eq!(response.status, StatusCode::OK, "{path}");
        assert_eq!(response.content_type(), "application/json");
        assert_eq!(response.json().await, expected, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer: run bash tests/auth/install.sh"]
async fn opaque_tokens_are_checked_by_introspection() {
    use codeagent::Server;
    use codeagent::server::auth::ResourceServer;
    use codeagent::server::http::HttpOptions;
    use codeagent::toolbox::Toolbox;

    let issuer = Issuer::start().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
    let auth = ResourceServer::new(&issuer.url, &resource).with_introspection(
        format!("{}/introspect", issuer.url),
        "codeagent-server",
        "its-secret",
    );
    let toolbox = Toolbox::new().tool(crate::sales_total).tool(crate::delete_region).tool(crate::whoami);
    let options = HttpOptions::new().with_resource_server(auth);
    let endpoint = crate::common::http::start_on(listener, Server::new(toolbox), options).await;
    let addr = endpoint.addr;
    let metadata = format!("http://{addr}/.well-known/oauth-protected-resource/mcp");
    let challenge = |description: &str| {
        format!(r#"Bearer resource_metadata="{metadata}", error="invalid_token", error_description="{description}""#)
    };

    let good = issuer.opaque(json!({"sub": "grace", "aud": resource, "scope": "sales:write"})).await;
    let response = call(addr, "whoami", json!({}), Some(&good)).await;
    assert_eq!(response.status, StatusCode::OK);
    let (_, answer) = response.exchange().await;
    assert_eq!(answer["result"]["content"][0]["text"], "grace sales:write", "{answer}");
    assert_eq!(call(addr, "delete_region", json!({"region": "east"}), Some(&good)).await.status, StatusCode::OK);

    let response = call(addr, "whoami", json!({}), Some("opaque-never-issued")).await;
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, challenge("the token is not active")));
    let elsewhere = issuer.opaque(json!({"sub": "grace", "aud": "http://127.0.0.1:1/other"})).await;
    let response = call(addr, "whoami", json!({}), Some(&elsewhere)).await;
    let description = format!("the token is not for `{resource}` (aud)");
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, challenge(&description)));
    let reader = issuer.opaque(json!({"sub": "grace", "aud": resource, "scope": "sales:read"})).await;
    assert_eq!(
        call(addr, "delete_region", json!({"region": "east"}), Some(&reader)).await.status,
        StatusCode::FORBIDDEN
    );
}
