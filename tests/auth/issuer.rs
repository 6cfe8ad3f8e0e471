//! The real issuer: oauth2-mock-server driven by `tests/auth/issuer.mjs`
//! (installed by `bash tests/auth/install.sh`), one process per test.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::common::http::Call;

/// A running issuer.
pub(crate) struct Issuer {
    /// Its identifier, `http://127.0.0.1:PORT` (no trailing slash).
    pub(crate) url: String,
    addr: SocketAddr,
    _process: Child,
}

impl Issuer {
    /// Starts the issuer on a free port.
    pub(crate) async fn start() -> Issuer {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let script = root.join("tests/auth/issuer.mjs");
        assert!(
            root.join("tests/auth/node_modules/oauth2-mock-server").is_dir(),
            "the issuer is not installed: run `bash tests/auth/install.sh` (npm), then `cargo test --features auth --test auth -- --include-ignored`"
        );
        let mut process = Command::new("node")
            .arg(script)
            .arg("0")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("starting node tests/auth/issuer.mjs");
        let mut lines = BufReader::new(process.stdout.take().expect("piped stdout")).lines();
        let line = tokio::time::timeout(std::time::Duration::from_secs(20), lines.next_line())
            .await
            .expect("the issuer did not start within 20 s")
            .expect("reading the issuer's output")
            .expect("the issuer exited before listening");
        let url = line.strip_prefix("issuer ").unwrap_or_else(|| panic!("unexpected issuer output: {line}")).to_owned();
        let addr = url.trim_start_matches("http://").parse().expect("a socket address");
        Issuer { url, addr, _process: process }
    }

    async fn control(&self, path: &str, body: Value) -> Value {
        let response = Call::new(self.addr, hyper::Method::POST)
            .at_path(path)
            .header("content-type", "application/json")
            .json(&body)
            .send()
            .await;
        assert!(response.status.is_success(), "{path}: HTTP {}", response.status);
        response.json().await
    }

    /// A token the issuer signs, with `claims` set over its defaults (`iss`,
    /// `iat`, `exp` in an hour, `nbf`); a `null` claim is removed.
    pub(crate) async fn mint(&self, claims: Value) -> String {
        let answer = self.control("/test/mint", json!({ "claims": claims })).await;
        answer["token"].as_str().expect("a token").to_owned()
    }

    /// An opaque token the issuer's introspection describes with `claims`.
    pub(crate) async fn opaque(&self, claims: Value) -> String {
        let answer = self.control("/test/opaque", json!({ "claims": claims })).await;
        answer["token"].as_str().expect("a token").to_owned()
    }

    /// A new signing key, used from now on: its key id.
    pub(crate) async fn rotate(&self) -> String {
        self.control("/test/rotate", json!({})).await["kid"].as_str().expect("a kid").to_owned()
    }

    /// Registers the confidential client `id` with `secret`: its client
    /// credentials and token exchange requests must then present it.
    pub(crate) async fn client(&self, id: &str, secret: &str) {
        self.control("/test/client", json!({ "id": id, "secret": secret })).await;
    }

    /// How many token exchanges the issuer granted so far.
    pub(crate) async fn exchanges(&self) -> u64 {
        let answer: Value =
            Call::new(self.addr, hyper::Method::GET).at_path("/test/exchanges").send().await.json().await;
        answer["count"].as_u64().expect("a count")
    }

    /// The issuer's published keys.
    pub(crate) async fn jwks(&self) -> Value {
        Call::new(self.addr, hyper::Method::GET).at_path("/jwks").send().await.json().await
    }
}
