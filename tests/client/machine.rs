//! `OAuth` without a person: the client credentials grant with a private key
//! and DPoP against a codeagent server that wants DPoP-bound tokens and the
//! test's own authorization server (which asks for a DPoP nonce); what the
//! client sent (its client assertions and every DPoP proof) is then checked
//! by jwcrypto, a JOSE library no one here wrote (tests/client/verify_jose.py).
//! Also: a workload's JWT refused for good is not presented again, and
//! credentials for one issuer never reach another. The official suite's six
//! authorization extension scenarios (tests/conformance) cover the rest.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::{HeaderMap, StatusCode, header};
use axum::routing::{get, post};
use codeagent::client::{Assertion, Client, ClientError, ClientKey, Credential, OAuth};
use codeagent::server::http::{HttpOptions, Unauthorized};
use serde_json::{Value, json};
use tokio::net::TcpListener;

use crate::oauth::form_pairs;
use crate::own::server;

/// The test's RSA client key (also in the unit tests of `ClientKey`).
const CLIENT_KEY: &str = include_str!("../../codeagent-core/src/client/oauth/testdata/rsa-pkcs8.pem");
const TOKEN: &str = "tok-dpop-bound";
const NONCE: &str = "as-nonce-1";

/// A token request as the authorization server saw it.
struct TokenRequest {
    form: Vec<(String, String)>,
    dpop: Option<String>,
}

/// What the servers saw.
#[derive(Default)]
struct Seen {
    token_requests: Vec<TokenRequest>,
    /// The `DPoP` header of each MCP request that presented a token.
    resource_proofs: Vec<String>,
}

fn json_answer(status: StatusCode, body: Value, nonce: Option<&str>) -> axum::response::Response {
    let mut response = axum::response::Response::builder()
        .status(status)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CACHE_CONTROL, "no-store");
    if let Some(nonce) = nonce {
        response = response.header("dpop-nonce", nonce);
    }
    response.body(axum::body::Body::from(body.to_string())).unwrap()
}

fn field<'a>(form: &'a [(String, String)], name: &str) -> Option<&'a str> {
    form.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
}

/// A codeagent server accepting `Authorization: <scheme> TOKEN` (recording
/// the DPoP proofs), and an authorization server for it answering token
/// requests with `answer` (given the request, and how many came before).
/// Returns the server's URL, the issuer, and what they saw.
async fn protected(
    scheme: &'static str,
    metadata: Value,
    answer: impl Fn(&TokenRequest, usize) -> axum::response::Response + Clone + Send + Sync + 'static,
) -> (String, String, Arc<Mutex<Seen>>) {
    let issuer_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://{}", issuer_listener.local_addr().unwrap());
    let server_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server_url = format!("http://{}/mcp", server_listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Seen::default()));

    let metadata_url = format!("{issuer}/resource-metadata");
    let proofs = Arc::clone(&seen);
    let options = HttpOptions::new().with_authorizer(move |headers: &HeaderMap| {
        let sent = headers.get(header::AUTHORIZATION).and_then(|value| value.to_str().ok());
        let proof = headers.get("dpop").and_then(|value| value.to_str().ok());
        if sent == Some(&format!("{scheme} {TOKEN}") as &str) && (scheme == "Bearer" || proof.is_some()) {
            if let Some(proof) = proof {
                proofs.lock().unwrap().resource_proofs.push(proof.to_owned());
            }
            return Ok(());
        }
        let mut refused = Unauthorized::bearer("a token from the test issuer is needed");
        refused.challenge = Some(format!(r#"{scheme} resource_metadata="{metadata_url}", scope="tools:call""#));
        Err(refused)
    });
    tokio::spawn(async move { server().serve_http_on(server_listener, options).await });

    let resource =
        json!({ "resource": server_url, "authorization_servers": [issuer], "scopes_supported": ["tools:call"] });
    let mut metadata = metadata;
    metadata["issuer"] = json!(issuer);
    metadata["token_endpoint"] = json!(format!("{issuer}/token"));
    let tokens = Arc::clone(&seen);
    let app = Router::new()
        .route("/resource-metadata", get(move || async move { json_answer(StatusCode::OK, resource, None) }))
        .route(
            "/.well-known/oauth-authorization-server",
            get(move || async move { json_answer(StatusCode::OK, metadata, None) }),
        )
        .route(
            "/token",
            post(move |headers: HeaderMap, body: String| async move {
                let dpop = headers.get("dpop").and_then(|value| value.to_str().ok()).map(str::to_owned);
                let request = TokenRequest { form: form_pairs(&body), dpop };
                let mut seen = tokens.lock().unwrap();
                let response = answer(&request, seen.token_requests.len());
                seen.token_requests.push(request);
                response
            }),
        );
    tokio::spawn(async move { axum::serve(issuer_listener, app).await });
    (server_url, issuer, seen)
}

/// The Python with jwcrypto: `CODEAGENT_PYTHON`, else the interop venv.
fn python() -> PathBuf {
    std::env::var_os("CODEAGENT_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python"))
}

/// Runs the flow and returns what the client sent, as verify_jose.py reads it.
async fn client_credentials_with_a_private_key_and_dpop() -> Value {
    let metadata = json!({
        "grant_types_supported": ["client_credentials"],
        "token_endpoint_auth_methods_supported": ["private_key_jwt"],
        "token_endpoint_auth_signing_alg_values_supported": ["RS256", "ES256"],
        "dpop_signing_alg_values_supported": ["ES256"],
    });
    // The first token request is asked for a nonce; the next gets a DPoP-bound token.
    let answer = |request: &TokenRequest, before: usize| {
        if before == 0 {
            let error = json!({ "error": "use_dpop_nonce", "error_description": "a nonce is needed" });
            return json_answer(StatusCode::BAD_REQUEST, error, Some(NONCE));
        }
        assert!(request.dpop.is_some(), "a token request without a DPoP proof");
        let token = json!({ "access_token": TOKEN, "token_type": "DPoP", "expires_in": 300 });
        json_answer(StatusCode::OK, token, Some(NONCE))
    };
    let (url, issuer, seen) = protected("DPoP", metadata, answer).await;
    let key = ClientKey::from_pem(CLIENT_KEY).unwrap();
    let oauth = OAuth::client_credentials(&issuer, "reporting-agent", Credential::private_key(key)).dpop();
    let client = Client::builder().oauth(oauth.clone()).http(&url).await.unwrap();
    let output = client.call("add", json!({"a": 2, "b": 3})).await.unwrap();
    assert_eq!(output.result().value(), "5");
    client.list_tools().await.unwrap();
    assert_eq!(oauth.access_token().as_deref(), Some(TOKEN));
    let thumbprint = oauth.dpop_thumbprint().unwrap();

    let seen = seen.lock().unwrap();
    assert_eq!(seen.token_requests.len(), 2, "one request, then one more with the nonce");
    let token_endpoint = format!("{issuer}/token");
    let mut assertions = Vec::new();
    let mut proofs = Vec::new();
    for (index, request) in seen.token_requests.iter().enumerate() {
        let form = &request.form;
        assert_eq!(field(form, "grant_type"), Some("client_credentials"));
        assert_eq!(field(form, "resource"), Some(url.as_str()));
        assert_eq!(field(form, "scope"), Some("tools:call"));
        assert_eq!(
            field(form, "client_assertion_type"),
            Some("urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
        );
        assert!(field(form, "client_secret").is_none());
        assertions.push(field(form, "client_assertion").unwrap().to_owned());
        let nonce = (index == 1).then_some(NONCE);
        proofs.push(json!({ "jwt": request.dpop.clone().unwrap(), "method": "POST", "url": token_endpoint, "presents_token": false, "nonce": nonce }));
    }
    assert!(seen.resource_proofs.len() >= 3, "initialize, the call and the listing each carry a proof");
    for proof in &seen.resource_proofs {
        proofs.push(json!({ "jwt": proof, "method": "POST", "url": url, "presents_token": true, "nonce": null }));
    }
    json!({
        "client_key_pem": CLIENT_KEY,
        "client_id": "reporting-agent",
        "issuer": issuer,
        "assertion_alg": "RS256",
        "assertions": assertions,
        "access_token": TOKEN,
        "thumbprint": thumbprint,
        "proofs": proofs,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_credentials_with_a_private_key_get_a_dpop_bound_token() {
    let sent = client_credentials_with_a_private_key_and_dpop().await;
    // Fresh client assertions and proofs, each time.
    assert_ne!(sent["assertions"][0], sent["assertions"][1]);
    let proofs = sent["proofs"].as_array().unwrap();
    let mut unique: Vec<&Value> = proofs.iter().map(|proof| &proof["jwt"]).collect();
    unique.dedup();
    assert_eq!(unique.len(), proofs.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs jwcrypto: run bash tests/interop/install.sh (or set CODEAGENT_PYTHON)"]
async fn jwcrypto_verifies_the_client_assertions_and_dpop_proofs() {
    let python = python();
    assert!(python.is_file(), "{} is missing: run `bash tests/interop/install.sh`", python.display());
    let sent = client_credentials_with_a_private_key_and_dpop().await;
    let file = std::env::temp_dir().join(format!("codeagent-jose-{}.json", std::process::id()));
    std::fs::write(&file, sent.to_string()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/client/verify_jose.py");
    let output = tokio::process::Command::new(&python).arg(script).arg(&file).output().await.unwrap();
    std::fs::remove_file(&file).unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "jwcrypto refused what the client sent: {stderr}");
    let proofs = sent["proofs"].as_array().unwrap().len();
    assert!(stdout.contains(&format!("verified 2 assertions and {proofs} proofs")), "{stdout}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_workload_jwt_is_not_presented_again() {
    let metadata = json!({
        "grant_types_supported": ["urn:ietf:params:oauth:grant-type:jwt-bearer"],
        "token_endpoint_auth_methods_supported": ["none"],
    });
    let answer = |_: &TokenRequest, _: usize| {
        let error = json!({ "error": "invalid_grant", "error_description": "the assertion expired" });
        json_answer(StatusCode::BAD_REQUEST, error, None)
    };
    let (url, issuer, seen) = protected("Bearer", metadata, answer).await;
    let oauth = OAuth::workload_identity(&issuer, "ci-deployer", Assertion::fixed("eyJ.expired.jwt"));
    let error = Client::builder().oauth(oauth.clone()).http(&url).await.unwrap_err();
    assert!(matches!(error, ClientError::Unauthorized { .. }), "{error}");
    assert!(error.to_string().contains("invalid_grant") && error.to_string().contains("not retried"), "{error}");
    // Connecting again does not present it again.
    let error = Client::builder().oauth(oauth).http(&url).await.unwrap_err();
    assert!(error.to_string().contains("not presented again"), "{error}");
    let seen = seen.lock().unwrap();
    assert_eq!(seen.token_requests.len(), 1, "one token request, no retry");
    let form = &seen.token_requests[0].form;
    assert_eq!(field(form, "grant_type"), Some("urn:ietf:params:oauth:grant-type:jwt-bearer"));
    assert_eq!(field(form, "assertion"), Some("eyJ.expired.jwt"));
    assert_eq!(field(form, "client_id"), Some("ci-deployer"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_for_one_issuer_never_reach_another() {
    let metadata = json!({ "token_endpoint_auth_methods_supported": ["client_secret_basic"] });
    let answer = |_: &TokenRequest, _: usize| json_answer(StatusCode::OK, json!({ "access_token": TOKEN }), None);
    let (url, _issuer, seen) = protected("Bearer", metadata, answer).await;
    let oauth = OAuth::client_credentials("https://auth.example.com", "agent", Credential::secret("s3cret"));
    let error = Client::builder().oauth(oauth).http(&url).await.unwrap_err();
    let text = error.to_string();
    assert!(text.contains("https://auth.example.com") && text.contains("refused"), "{text}");
    assert!(!text.contains("s3cret"), "{text}");
    assert!(seen.lock().unwrap().token_requests.is_empty(), "the secret was never sent");
}
