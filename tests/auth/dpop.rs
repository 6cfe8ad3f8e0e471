//! DPoP (RFC 9449) at the resource server, with proofs made by an independent
//! library (Python's joserfc, `tests/auth/dpop.py`) and tokens by the real
//! issuer: each probe refused by its exact status and challenge, in a
//! 2026-07-28 request and in a 2025-11-25 session; nonces; two instances
//! sharing a store; introspected tokens.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use codeagent::ProtocolVersion;
use codeagent::Server;
use codeagent::server::auth::{DpopPolicy, ResourceServer, ScopeFilter};
use codeagent::server::http::HttpOptions;
use codeagent::server::store::{MemoryStore, Store};
use codeagent::toolbox::Toolbox;
use hyper::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

use crate::common::http::{
    Call, Endpoint, Response, delete, get, initialize_request, modern, modern_post, post, request,
};
use crate::issuer::Issuer;

const ALGS: &str = "ES256 ES384 EdDSA RS256 PS256";

fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_secs() as i64
}

/// The proof maker: `tests/auth/dpop.py` on joserfc, one process per test.
struct Prover {
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    _process: Child,
}

impl Prover {
    fn start() -> Prover {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let python = root.join(".venv/bin/python");
        assert!(python.is_file(), "{} is missing: run `bash tests/auth/install.sh`", python.display());
        let mut process = Command::new(python)
            .arg(root.join("tests/auth/dpop.py"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("starting tests/auth/dpop.py");
        let stdin = process.stdin.take().expect("piped stdin");
        let lines = BufReader::new(process.stdout.take().expect("piped stdout")).lines();
        Prover { stdin, lines, _process: process }
    }

    async fn ask(&mut self, request: Value) -> Value {
        self.stdin.write_all(format!("{request}\n").as_bytes()).await.expect("writing to dpop.py");
        self.stdin.flush().await.expect("flushing dpop.py's input");
        let line = tokio::time::timeout(Duration::from_secs(30), self.lines.next_line())
            .await
            .expect("dpop.py answered within 30 s")
            .expect("reading dpop.py")
            .expect("dpop.py exited (is joserfc installed? bash tests/auth/install.sh)");
        let answer: Value = serde_json::from_str(&line).expect("dpop.py answers JSON");
        assert!(answer.get("error").is_none(), "dpop.py: {answer} (asked {request})");
        answer
    }

    /// A new key pair `name` of type `kty` (`EC`, `RSA`, `OKP`): its RFC 7638 thumbprint.
    async fn key(&mut self, name: &str, kty: &str) -> String {
        let answer = self.ask(json!({"op": "key", "name": name, "kty": kty})).await;
        answer["jkt"].as_str().expect("a thumbprint").to_owned()
    }

    /// A proof made with key `key` for `htm` at `htu` carrying `token`'s
    /// hash, with `extra` over it (see dpop.py).
    async fn proof(&mut self, key: &str, htm: &str, htu: &str, token: &str, extra: Value) -> String {
        let mut request = json!({"op": "proof", "key": key, "htm": htm, "htu": htu, "token": token});
        if let Value::Object(extra) = extra {
            request.as_object_mut().unwrap().extend(extra);
        }
        self.ask(request).await["proof"].as_str().expect("a proof").to_owned()
    }
}

/// A protected endpoint at `listener` whose resource identifier is
/// `resource`, with `auth` (the issuer's, made by `edit`).
async fn start(
    listener: tokio::net::TcpListener,
    issuer: &Issuer,
    resource: &str,
    edit: impl FnOnce(ResourceServer) -> ResourceServer,
    store: Option<Arc<dyn Store>>,
) -> Endpoint {
    let auth = edit(ResourceServer::new(&issuer.url, resource).with_scopes_supported(["sales:read", "sales:write"]));
    let toolbox = Toolbox::new().tool(crate::sales_total).tool(crate::delete_region).tool(crate::whoami);
    let server = Server::new(toolbox.clone()).with_middleware(ScopeFilter::new(&toolbox));
    let mut options = HttpOptions::new().with_resource_server(auth);
    if let Some(store) = store {
        options = options.with_store(store);
    }
    crate::common::http::start_on(listener, server, options).await
}

/// An endpoint with `edit`'s policy: it, its resource identifier (its URL).
async fn protected(issuer: &Issuer, edit: impl FnOnce(ResourceServer) -> ResourceServer) -> (Endpoint, String) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let resource = format!("http://{}/mcp", listener.local_addr().unwrap());
    (start(listener, issuer, &resource, edit, None).await, resource)
}

/// Every `WWW-Authenticate` header of a response, in order, and its status.
fn refused(response: &Response) -> (StatusCode, Vec<String>) {
    let challenges =
        response.headers.get_all("www-authenticate").iter().map(|value| value.to_str().unwrap().to_owned()).collect();
    (response.status, challenges)
}

/// The challenges of a server that takes what `schemes` names, each with its error.
struct Challenges {
    metadata: String,
}

impl Challenges {
    fn bearer(&self, error: Option<(&str, &str)>) -> String {
        let mut challenge = format!(r#"Bearer resource_metadata="{}", scope="sales:read sales:write""#, self.metadata);
        if let Some((code, description)) = error {
            challenge.push_str(&format!(r#", error="{code}", error_description="{description}""#));
        }
        challenge
    }

    fn dpop(&self, error: Option<(&str, &str)>) -> String {
        let mut challenge =
            format!(r#"DPoP resource_metadata="{}", scope="sales:read sales:write", algs="{ALGS}""#, self.metadata);
        if let Some((code, description)) = error {
            challenge.push_str(&format!(r#", error="{code}", error_description="{description}""#));
        }
        challenge
    }
}

/// How a request reaches the server in one era: a 2026-07-28 `tools/call`,
/// or the same call in a 2025-11-25 session opened with `opening`'s credentials.
#[derive(Clone)]
enum Era {
    Modern,
    Legacy { session: String },
}

impl Era {
    fn call(&self, addr: SocketAddr, tool: &str) -> Call {
        match self {
            Era::Modern => modern_post(addr, &modern(1, "tools/call", json!({"name": tool, "arguments": {}}))),
            Era::Legacy { session } => post(addr)
                .header("mcp-session-id", session.clone())
                .header("mcp-protocol-version", ProtocolVersion::V2025_11_25.as_str())
                .json(&request(2, "tools/call", json!({"name": tool, "arguments": {}}))),
        }
    }

    fn name(&self) -> &'static str {
        match self {
            Era::Modern => "2026-07-28",
            Era::Legacy { .. } => "2025-11-25 session",
        }
    }
}

fn with_dpop(call: Call, token: &str, proof: &str) -> Call {
    call.header("authorization", format!("DPoP {token}")).header("dpop", proof)
}

/// What the tool `whoami` answered.
async fn answered(response: Response) -> String {
    assert_eq!(response.status, StatusCode::OK);
    let (_, answer) = response.exchange().await;
    answer["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text in {answer}")).to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer and joserfc: run bash tests/auth/install.sh"]
async fn every_dpop_probe_gets_its_exact_refusal_in_both_eras() {
    let issuer = Issuer::start().await;
    let mut prover = Prover::start();
    let (endpoint, resource) = protected(&issuer, |auth| auth.with_dpop(DpopPolicy::allowed())).await;
    let addr = endpoint.addr;
    let expect = Challenges { metadata: format!("http://{addr}/.well-known/oauth-protected-resource/mcp") };
    let jkt = prover.key("ada", "EC").await;
    prover.key("mallory", "EC").await;
    let bound = issuer.mint(json!({"aud": resource, "sub": "ada", "scope": "sales:read", "cnf": {"jkt": jkt}})).await;
    let unbound = issuer.mint(json!({"aud": resource, "sub": "bob", "scope": "sales:read"})).await;
    let other = issuer.mint(json!({"aud": resource, "sub": "ada", "cnf": {"jkt": jkt}})).await;

    // No credentials: both schemes offered, DPoP with its algorithms.
    let response = Era::Modern.call(addr, "whoami").send().await;
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, vec![expect.bearer(None), expect.dpop(None)]));
    assert_eq!(response.header("dpop-nonce"), None, "no nonces unless asked for");

    // The legacy session, opened with DPoP (a POST proof of its own).
    let proof = prover.proof("ada", "POST", &resource, &bound, json!({})).await;
    let opening = with_dpop(post(addr), &bound, &proof).json(&initialize_request(ProtocolVersion::V2025_11_25));
    let response = opening.send().await;
    assert_eq!(response.status, StatusCode::OK);
    let session = response.header("mcp-session-id").expect("a session").to_owned();
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let proof = prover.proof("ada", "POST", &resource, &bound, json!({})).await;
    let response = with_dpop(post(addr), &bound, &proof)
        .header("mcp-session-id", session.clone())
        .header("mcp-protocol-version", ProtocolVersion::V2025_11_25.as_str())
        .json(&initialized)
        .send()
        .await;
    assert_eq!(response.status, StatusCode::ACCEPTED);

    for era in [Era::Modern, Era::Legacy { session: session.clone() }] {
        let name = era.name();
        // A valid proof passes; the tool sees who called.
        let proof = prover.proof("ada", "POST", &resource, &bound, json!({})).await;
        assert_eq!(answered(with_dpop(era.call(addr, "whoami"), &bound, &proof).send().await).await, "ada sales:read");
        // The same proof again: a replay.
        let response = with_dpop(era.call(addr, "whoami"), &bound, &proof).send().await;
        let description = "the DPoP proof was used before (its jti): make a new proof for every request";
        let expected = vec![expect.bearer(None), expect.dpop(Some(("invalid_dpop_proof", description)))];
        assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, expected), "{name}: replay");

        let mallory = prover.key("mallory", "EC").await;
        let probes = [
            (
                "wrong key",
                prover.proof("mallory", "POST", &resource, &bound, json!({})).await,
                bound.clone(),
                format!(
                    "the DPoP proof's key (thumbprint {mallory}) is not the key the token is bound to (cnf.jkt {jkt})"
                ),
            ),
            (
                "wrong htm",
                prover.proof("ada", "PUT", &resource, &bound, json!({})).await,
                bound.clone(),
                "the DPoP proof's htm `PUT` is not the request's method `POST`".to_owned(),
            ),
            (
                "wrong htu",
                prover.proof("ada", "POST", &format!("http://{addr}/other"), &bound, json!({})).await,
                bound.clone(),
                format!("the DPoP proof's htu `http://{addr}/other` is not this request's URL `{resource}`"),
            ),
            (
                "stale iat",
                prover.proof("ada", "POST", &resource, &bound, json!({"iat": now() - 600})).await,
                bound.clone(),
                "the DPoP proof was made 600 s ago (iat), more than the 60 s allowed".to_owned(),
            ),
            (
                "iat ahead",
                prover.proof("ada", "POST", &resource, &bound, json!({"iat": now() + 600})).await,
                bound.clone(),
                "the DPoP proof is dated 600 s ahead (iat), more than the 60 s allowed".to_owned(),
            ),
            (
                "no ath",
                prover.proof("ada", "POST", &resource, &bound, json!({"omit": ["ath"]})).await,
                bound.clone(),
                "the DPoP proof has no `ath` (the access token's hash)".to_owned(),
            ),
            (
                "another token's ath",
                prover.proof("ada", "POST", &resource, &other, json!({})).await,
                bound.clone(),
                "the DPoP proof's `ath` is not the hash of the access token sent with it".to_owned(),
            ),
            (
                "a private key in the header",
                prover.proof("ada", "POST", &resource, &bound, json!({"private_jwk": true})).await,
                bound.clone(),
                "the DPoP proof's jwk has the private member `d`: it must be a public key".to_owned(),
            ),
            (
                "another typ",
                prover.proof("ada", "POST", &resource, &bound, json!({"header": {"typ": "JWT"}})).await,
                bound.clone(),
                "the DPoP proof's `typ` is `JWT`, not `dpop+jwt`".to_owned(),
            ),
        ];
        for (probe, proof, token, description) in probes {
            let response = with_dpop(era.call(addr, "whoami"), &token, &proof).send().await;
            let (status, challenges) = refused(&response);
            // The clock may tick between making a proof and checking it: a stale proof may be
            // a second older, a proof from the future a second nearer.
            let shown = &challenges[1];
            let description = match probe {
                "stale iat" if shown.contains("made 601 s ago") => description.replace("600", "601"),
                "iat ahead" if shown.contains("dated 599 s ahead") => description.replace("600", "599"),
                _ => description,
            };
            let expected = vec![expect.bearer(None), expect.dpop(Some(("invalid_dpop_proof", &description)))];
            assert_eq!((status, challenges), (StatusCode::UNAUTHORIZED, expected), "{name}: {probe}");
        }

        // The bound token as a bearer token: refused in the Bearer challenge.
        let response = era.call(addr, "whoami").header("authorization", format!("Bearer {bound}")).send().await;
        let description = "the token is bound to a DPoP key (cnf.jkt): send it as `Authorization: DPoP <token>` with a proof made with that key";
        let expected = vec![expect.bearer(Some(("invalid_token", description))), expect.dpop(None)];
        assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, expected), "{name}: bound token as Bearer");
        // DPoP without a proof, and an unbound token with one.
        let response = era.call(addr, "whoami").header("authorization", format!("DPoP {bound}")).send().await;
        let description = "the request has no DPoP header (its proof)";
        let expected = vec![expect.bearer(None), expect.dpop(Some(("invalid_dpop_proof", description)))];
        assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, expected), "{name}: no proof");
        let proof = prover.proof("ada", "POST", &resource, &unbound, json!({})).await;
        let response = with_dpop(era.call(addr, "whoami"), &unbound, &proof).send().await;
        let description = "the token is not bound to a DPoP key (it has no cnf.jkt), so no proof can stand for it";
        let expected = vec![expect.bearer(None), expect.dpop(Some(("invalid_token", description)))];
        assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, expected), "{name}: unbound token as DPoP");
    }

    // The session was opened by ada: bob's (unbound, Bearer) token does not reach it.
    let legacy = Era::Legacy { session: session.clone() };
    let response = legacy.call(addr, "whoami").header("authorization", format!("Bearer {unbound}")).send().await;
    assert_eq!(response.status, StatusCode::NOT_FOUND);
    // But an unbound token is still a bearer token here (DPoP is allowed, not required).
    let response = Era::Modern.call(addr, "whoami").header("authorization", format!("Bearer {unbound}")).send().await;
    assert_eq!(answered(response).await, "bob sales:read");

    // RSA and Ed25519 keys too; GET and DELETE proofs name their methods.
    for kty in ["RSA", "OKP"] {
        let jkt = prover.key(kty, kty).await;
        let token = issuer.mint(json!({"aud": resource, "sub": kty, "scope": "sales:read", "cnf": {"jkt": jkt}})).await;
        let proof = prover.proof(kty, "POST", &resource, &token, json!({})).await;
        let response = with_dpop(Era::Modern.call(addr, "whoami"), &token, &proof).send().await;
        assert_eq!(answered(response).await, format!("{kty} sales:read"));
    }
    let proof = prover.proof("ada", "GET", &resource, &bound, json!({})).await;
    let stream = with_dpop(get(addr), &bound, &proof)
        .header("mcp-session-id", session.clone())
        .header("mcp-protocol-version", ProtocolVersion::V2025_11_25.as_str())
        .send()
        .await;
    assert_eq!(stream.status, StatusCode::OK, "GET with a GET proof");
    drop(stream);
    let proof = prover.proof("ada", "POST", &resource, &bound, json!({})).await;
    let response = with_dpop(delete(addr), &bound, &proof).header("mcp-session-id", session.clone()).send().await;
    let description = "the DPoP proof's htm `POST` is not the request's method `DELETE`";
    let expected = vec![expect.bearer(None), expect.dpop(Some(("invalid_dpop_proof", description)))];
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, expected));
    let proof = prover.proof("ada", "DELETE", &resource, &bound, json!({})).await;
    let response = with_dpop(delete(addr), &bound, &proof).header("mcp-session-id", session).send().await;
    assert_eq!(response.status, StatusCode::OK, "DELETE with a DELETE proof");

    // A normalised htu is the same URL: scheme and host case, the default port.
    let upper = resource.replace("http://", "HTTP://");
    let proof = prover.proof("ada", "POST", &format!("{upper}?q=1#f"), &bound, json!({})).await;
    assert_eq!(
        answered(with_dpop(Era::Modern.call(addr, "whoami"), &bound, &proof).send().await).await,
        "ada sales:read"
    );

    // The metadata advertises the algorithms; DPoP is not required.
    let metadata = get(addr).without("accept").at_path("/.well-known/oauth-protected-resource/mcp").send().await;
    let metadata = metadata.json().await;
    assert_eq!(metadata["dpop_signing_alg_values_supported"], json!(ALGS.split(' ').collect::<Vec<_>>()));
    assert_eq!(metadata.get("dpop_bound_access_tokens_required"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer and joserfc: run bash tests/auth/install.sh"]
async fn required_dpop_with_nonces_across_two_instances_sharing_a_store() {
    let issuer = Issuer::start().await;
    let mut prover = Prover::start();
    // Two instances behind one URL (as behind a load balancer): the first's.
    let (first, second) = (
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap(),
    );
    let resource = format!("http://{}/mcp", first.local_addr().unwrap());
    let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
    let policy = || DpopPolicy::required().with_nonces();
    let a = start(first, &issuer, &resource, |auth| auth.with_dpop(policy()), Some(Arc::clone(&store))).await;
    let b = start(second, &issuer, &resource, |auth| auth.with_dpop(policy()), Some(Arc::clone(&store))).await;
    let expect = Challenges { metadata: format!("http://{}/.well-known/oauth-protected-resource/mcp", a.addr) };
    let jkt = prover.key("ada", "EC").await;
    let reader = issuer.mint(json!({"aud": resource, "sub": "ada", "scope": "sales:read", "cnf": {"jkt": jkt}})).await;
    let unbound = issuer.mint(json!({"aud": resource, "sub": "bob", "scope": "sales:read"})).await;

    // No credentials: only the DPoP challenge, and a nonce to use.
    let response = Era::Modern.call(a.addr, "whoami").send().await;
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, vec![expect.dpop(None)]));
    let nonce = response.header("dpop-nonce").expect("a DPoP-Nonce").to_owned();

    // A bearer token is refused, in the DPoP challenge.
    let response = Era::Modern.call(a.addr, "whoami").header("authorization", format!("Bearer {unbound}")).send().await;
    let description =
        "this server accepts only DPoP-bound tokens: send `Authorization: DPoP <token>` with a DPoP proof";
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, vec![expect.dpop(Some(("invalid_token", description)))]));

    // The legacy session, opened with a nonce.
    let proof = prover.proof("ada", "POST", &resource, &reader, json!({"nonce": nonce})).await;
    let opening = with_dpop(post(a.addr), &reader, &proof).json(&initialize_request(ProtocolVersion::V2025_11_25));
    let response = opening.send().await;
    assert_eq!(response.status, StatusCode::OK);
    let session = response.header("mcp-session-id").expect("a session").to_owned();

    for era in [Era::Modern, Era::Legacy { session }] {
        let name = era.name();
        // Without a nonce, with one never handed out: use_dpop_nonce, and a fresh one.
        for (probe, extra, description) in [
            (
                "no nonce",
                json!({}),
                "this server requires a nonce in DPoP proofs: use the one its DPoP-Nonce header gives",
            ),
            (
                "a made-up nonce",
                json!({"nonce": "12.made-up"}),
                "the DPoP proof's nonce is not one this server handed out recently: use the one its DPoP-Nonce header gives",
            ),
        ] {
            let proof = prover.proof("ada", "POST", &resource, &reader, extra).await;
            let response = with_dpop(era.call(a.addr, "whoami"), &reader, &proof).send().await;
            let expected = vec![expect.dpop(Some(("use_dpop_nonce", description)))];
            assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, expected), "{name}: {probe}");
            assert!(response.header("dpop-nonce").is_some(), "{name}: {probe}: a fresh nonce");
        }
        // With a nonce handed out with an answer: accepted, and a fresh one with it...
        let proof = prover.proof("ada", "POST", &resource, &reader, json!({"nonce": nonce})).await;
        let response = with_dpop(era.call(a.addr, "whoami"), &reader, &proof).send().await;
        let next = response.header("dpop-nonce").expect("a nonce with the answer").to_owned();
        assert_eq!(answered(response).await, "ada sales:read");
        // ...and the next one, with the nonce it came with.
        let proof = prover.proof("ada", "POST", &resource, &reader, json!({"nonce": next})).await;
        assert_eq!(
            answered(with_dpop(era.call(a.addr, "whoami"), &reader, &proof).send().await).await,
            "ada sales:read"
        );
        // ...and the proof, replayed on the other instance, refused there.
        if matches!(era, Era::Modern) {
            let response = with_dpop(era.call(b.addr, "whoami"), &reader, &proof).send().await;
            let description = "the DPoP proof was used before (its jti): make a new proof for every request";
            let expected = vec![expect.dpop(Some(("invalid_dpop_proof", description)))];
            assert_eq!(
                refused(&response),
                (StatusCode::UNAUTHORIZED, expected),
                "{name}: replay on the other instance"
            );
            // A new proof with the first instance's nonce passes on the second.
            let proof = prover.proof("ada", "POST", &resource, &reader, json!({"nonce": nonce})).await;
            let response = with_dpop(era.call(b.addr, "whoami"), &reader, &proof).send().await;
            assert_eq!(answered(response).await, "ada sales:read", "{name}: the other instance's nonce");
        }
        // A scope the token lacks: 403 in the DPoP challenge.
        let proof = prover.proof("ada", "POST", &resource, &reader, json!({"nonce": nonce})).await;
        let call = match &era {
            Era::Modern => modern_post(
                a.addr,
                &modern(7, "tools/call", json!({"name": "delete_region", "arguments": {"region": "north"}})),
            ),
            Era::Legacy { session } => post(a.addr)
                .header("mcp-session-id", session.clone())
                .header("mcp-protocol-version", ProtocolVersion::V2025_11_25.as_str())
                .json(&request(7, "tools/call", json!({"name": "delete_region", "arguments": {"region": "north"}}))),
        };
        let response = with_dpop(call, &reader, &proof).send().await;
        let expected = format!(
            r#"DPoP resource_metadata="{}", scope="sales:write", algs="{ALGS}", error="insufficient_scope", error_description="the token lacks the scope sales:write""#,
            expect.metadata
        );
        assert_eq!(refused(&response), (StatusCode::FORBIDDEN, vec![expected]), "{name}: insufficient scope");
    }

    // The metadata says DPoP is required.
    let metadata = get(a.addr).without("accept").at_path("/.well-known/oauth-protected-resource/mcp").send().await;
    let metadata = metadata.json().await;
    assert_eq!(metadata["dpop_bound_access_tokens_required"], json!(true));
    assert_eq!(metadata["dpop_signing_alg_values_supported"], json!(ALGS.split(' ').collect::<Vec<_>>()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer and joserfc: run bash tests/auth/install.sh"]
async fn introspected_tokens_are_bound_too_and_bound_tokens_are_never_bearer_tokens() {
    let issuer = Issuer::start().await;
    let mut prover = Prover::start();
    let introspect = |auth: ResourceServer| {
        auth.with_introspection(format!("{}/introspect", issuer.url), "codeagent-server", "its-secret")
            .with_dpop(DpopPolicy::allowed())
    };
    let (endpoint, resource) = protected(&issuer, introspect).await;
    let addr = endpoint.addr;
    let expect = Challenges { metadata: format!("http://{addr}/.well-known/oauth-protected-resource/mcp") };
    let jkt = prover.key("grace", "EC").await;
    let mallory = prover.key("mallory", "EC").await;
    let bound =
        issuer.opaque(json!({"sub": "grace", "aud": resource, "scope": "sales:read", "cnf": {"jkt": jkt}})).await;

    let proof = prover.proof("grace", "POST", &resource, &bound, json!({})).await;
    assert_eq!(
        answered(with_dpop(Era::Modern.call(addr, "whoami"), &bound, &proof).send().await).await,
        "grace sales:read"
    );
    let proof = prover.proof("mallory", "POST", &resource, &bound, json!({})).await;
    let response = with_dpop(Era::Modern.call(addr, "whoami"), &bound, &proof).send().await;
    let description =
        format!("the DPoP proof's key (thumbprint {mallory}) is not the key the token is bound to (cnf.jkt {jkt})");
    let expected = vec![expect.bearer(None), expect.dpop(Some(("invalid_dpop_proof", &description)))];
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, expected));
    let response = Era::Modern.call(addr, "whoami").header("authorization", format!("Bearer {bound}")).send().await;
    assert_eq!(response.status, StatusCode::UNAUTHORIZED);

    // A server without DPoP refuses a bound token as a bearer token as well:
    // it is no bearer token anywhere.
    let (plain, resource) = protected(&issuer, |auth| auth).await;
    let jwt = issuer.mint(json!({"aud": resource, "sub": "grace", "cnf": {"jkt": jkt}})).await;
    let response = Era::Modern.call(plain.addr, "whoami").header("authorization", format!("Bearer {jwt}")).send().await;
    let metadata = format!("http://{}/.well-known/oauth-protected-resource/mcp", plain.addr);
    let description = "the token is bound to a DPoP key (cnf.jkt), and this server does not accept DPoP: a bound token is no bearer token";
    let expected = format!(
        r#"Bearer resource_metadata="{metadata}", scope="sales:read sales:write", error="invalid_token", error_description="{description}""#
    );
    assert_eq!(refused(&response), (StatusCode::UNAUTHORIZED, vec![expected]));
}
