//! Streamable HTTP: Host/Origin checks, bearer auth, limits, timeouts and
//! parse errors, and the gallery binary served with `--http` (`common::http`).

use crate::common;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use codeagent::server::http::{BearerToken, HttpOptions};
use codeagent_test_support as support;
use hyper::StatusCode;
use serde_json::{Value, json};
use tokio::net::TcpStream;

use common::http::*;
use common::*;

// ===========================================================================
// Security
// ===========================================================================

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_foreign_host_is_403() {
    bounded(async {
        let served = endpoint().await;
        let discover = modern(1, "server/discover", json!({}));
        let port = served.addr.port();
        let malformed = [
            format!("127.0.0.1:{port}@evil.example"),
            format!("user@127.0.0.1:{port}"),
            format!("127.0.0.1:{port}/evil"),
            format!("localhost:{port}x"),
        ];
        let foreign = ["evil.example.com", "evil.example.com:80", "127.0.0.1.evil.example.com"];
        for host in foreign.iter().map(|host| host.to_string()).chain(malformed) {
            let response = modern_post(served.addr, &discover).header("host", host.clone()).send().await;
            let error = expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2026).await;
            assert!(error["error"]["message"].as_str().unwrap().contains("Host"), "{error}");
        }
        let response = post(served.addr).header("host", "evil.example.com").json(&initialize_request(V2025_11)).send();
        let response = response.await;
        assert!(response.header("mcp-session-id").is_none(), "no session for a refused request");
        expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2025_11).await;
        let response = get(served.addr).header("host", "evil.example.com").send().await;
        assert_eq!(response.status, StatusCode::FORBIDDEN);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_foreign_origin_is_403() {
    bounded(async {
        let served = endpoint().await;
        let discover = modern(1, "server/discover", json!({}));
        let malformed = ["http://localhost@evil.example", "http://127.0.0.1:1@evil.example", "http://localhost/x"];
        let foreign = ["http://evil.example.com", "https://evil.example.com:8443", "null", "file://localhost"];
        for origin in foreign.into_iter().chain(malformed) {
            let response = modern_post(served.addr, &discover).header("origin", origin).send().await;
            let error = expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2026).await;
            assert!(error["error"]["message"].as_str().unwrap().contains("Origin"), "{error}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_loopback_hosts_and_origins_are_allowed() {
    bounded(async {
        let served = endpoint().await;
        let port = served.addr.port();
        let discover = modern(1, "server/discover", json!({}));
        for host in [format!("127.0.0.1:{port}"), format!("localhost:{port}"), "localhost".to_owned()] {
            let response = modern_post(served.addr, &discover).header("host", &host).send().await;
            assert_eq!(response.status, StatusCode::OK, "Host: {host}");
            check_result(V2026, "DiscoverResult", &response.json().await);
        }
        for origin in [format!("http://localhost:{port}"), format!("http://127.0.0.1:{port}")] {
            let response = modern_post(served.addr, &discover).header("origin", &origin).send().await;
            assert_eq!(response.status, StatusCode::OK, "Origin: {origin}");
        }
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_custom_host_allow_list() {
    bounded(async {
        let served = start(server(), HttpOptions::new().with_allow_hosts(["mcp.example.com"])).await;
        let discover = modern(1, "server/discover", json!({}));
        let response = modern_post(served.addr, &discover).header("host", "mcp.example.com").send().await;
        assert_eq!(response.status, StatusCode::OK);
        let response = modern_post(served.addr, &discover)
            .header("host", "mcp.example.com:443")
            .header("origin", "https://mcp.example.com")
            .send()
            .await;
        assert_eq!(response.status, StatusCode::OK);
        // The list replaces the loopback default.
        let response = modern_post(served.addr, &discover).send().await;
        expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2026).await;
        let response = modern_post(served.addr, &discover)
            .header("host", "mcp.example.com")
            .header("origin", "http://evil.example.com")
            .send()
            .await;
        expect_error(response, StatusCode::FORBIDDEN, INVALID_REQUEST, Value::Null, V2026).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_bearer_token() {
    bounded(async {
        let served = start(server(), HttpOptions::new().with_authorizer(BearerToken::new("s3cret"))).await;
        let discover = modern(1, "server/discover", json!({}));
        let response = modern_post(served.addr, &discover).send().await;
        assert_eq!(response.header("www-authenticate"), Some("Bearer"));
        expect_error(response, StatusCode::UNAUTHORIZED, INVALID_REQUEST, Value::Null, V2026).await;
        for wrong in ["Bearer wrong", "Bearer s3cre", "Basic czNjcmV0", "s3cret"] {
            let response = modern_post(served.addr, &discover).header("authorization", wrong).send().await;
            assert_eq!(response.status, StatusCode::UNAUTHORIZED, "Authorization: {wrong}");
            assert!(response.header("www-authenticate").is_some_and(|value| value.starts_with("Bearer")));
            expect_error(response, StatusCode::UNAUTHORIZED, INVALID_REQUEST, Value::Null, V2026).await;
        }
        let response = modern_post(served.addr, &discover).header("authorization", "Bearer s3cret").send().await;
        assert_eq!(response.status, StatusCode::OK);
        check_result(V2026, "DiscoverResult", &response.json().await);
        // Legacy requests and GET streams pass the same hook.
        let response = post(served.addr).json(&initialize_request(V2025_11)).send().await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
        let response = get(served.addr).header("Mcp-Session-Id", "whatever").send().await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_body_over_the_limit_is_413() {
    bounded(async {
        let served = start(server(), HttpOptions::new().with_body_limit(2048)).await;
        let small = modern(1, "tools/call", json!({"name": "forecast", "arguments": {"city": "x".repeat(100)}}));
        let response = modern_post(served.addr, &small).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let large = modern(2, "tools/call", json!({"name": "forecast", "arguments": {"city": "x".repeat(4096)}}));
        let response = modern_post(served.addr, &large).send().await;
        let error = expect_error(response, StatusCode::PAYLOAD_TOO_LARGE, INVALID_REQUEST, Value::Null, V2026).await;
        assert!(error["error"]["message"].as_str().unwrap().contains("2048"), "{error}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_a_declared_body_over_the_limit_is_refused_before_it_is_sent() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    bounded(async {
        let served = start(server(), HttpOptions::new().with_body_limit(2048)).await;
        let mut stream = TcpStream::connect(served.addr).await.unwrap();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nExpect: 100-continue\r\nContent-Length: {}\r\n\r\n",
            20 << 20
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        // No byte of the 20 MiB body is sent: the answer must come anyway.
        let mut answer = vec![0; 4096];
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut answer)).await.unwrap().unwrap();
        let answer = String::from_utf8_lossy(&answer[..read]);
        assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
        assert!(!answer.contains("100 Continue"), "{answer}");
        assert!(answer.contains("2048"), "{answer}");
    })
    .await;
}

/// Reads from `stream` until the server closes it; what it sent, and how long that took.
async fn until_closed(stream: &mut TcpStream, limit: Duration) -> (String, Duration) {
    use tokio::io::AsyncReadExt;
    let started = Instant::now();
    let mut received = Vec::new();
    let mut buffer = [0; 1024];
    loop {
        match tokio::time::timeout(limit.saturating_sub(started.elapsed()), stream.read(&mut buffer)).await {
            Ok(Ok(0) | Err(_)) => break,
            Ok(Ok(read)) => received.extend_from_slice(&buffer[..read]),
            Err(_) => panic!("the connection was still open after {limit:?}"),
        }
    }
    (String::from_utf8_lossy(&received).into_owned(), started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_slow_clients_are_cut_off() {
    use tokio::io::AsyncWriteExt;
    bounded(async {
        let options = HttpOptions::new()
            .with_header_timeout(Duration::from_millis(500))
            .with_body_timeout(Duration::from_millis(500));
        let served = start(server(), options).await;
        // Sends nothing at all.
        let mut silent = TcpStream::connect(served.addr).await.unwrap();
        let (_, after) = until_closed(&mut silent, Duration::from_secs(5)).await;
        assert!(after >= Duration::from_millis(400), "closed after {after:?}");
        // Trickles its headers, one byte every 100 ms.
        let mut trickle = TcpStream::connect(served.addr).await.unwrap();
        let head = b"POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n";
        let started = Instant::now();
        for byte in head {
            if trickle.write_all(&[*byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            if started.elapsed() > Duration::from_secs(5) {
                panic!("still accepting header bytes after 5 s");
            }
        }
        let (_, _) = until_closed(&mut trickle, Duration::from_secs(5)).await;
        // Sends its headers, then trickles the body: 408 for the body.
        let mut body = TcpStream::connect(served.addr).await.unwrap();
        let head = "POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
                    Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{";
        body.write_all(head.as_bytes()).await.unwrap();
        let (answer, _) = until_closed(&mut body, Duration::from_secs(5)).await;
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        // A client that keeps up is served.
        let response = post(served.addr).json(&initialize_request(V2025_11)).send().await;
        assert_eq!(response.status, StatusCode::OK);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_non_json_content_type_is_415() {
    bounded(async {
        let served = endpoint().await;
        let discover = modern(1, "server/discover", json!({}));
        for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
            let response = modern_post(served.addr, &discover).header("content-type", content_type).send().await;
            expect_error(response, StatusCode::UNSUPPORTED_MEDIA_TYPE, INVALID_REQUEST, Value::Null, V2026).await;
        }
        let response = modern_post(served.addr, &discover).without("content-type").send().await;
        expect_error(response, StatusCode::UNSUPPORTED_MEDIA_TYPE, INVALID_REQUEST, Value::Null, V2026).await;
        let response =
            modern_post(served.addr, &discover).header("content-type", "application/json; charset=utf-8").send().await;
        assert_eq!(response.status, StatusCode::OK);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_request_timeout_is_an_internal_error_naming_it() {
    bounded(async {
        let options = HttpOptions::new().with_request_timeout(Duration::from_millis(300));
        let served = start(server(), options).await;
        // Legacy, answered as JSON.
        let session = open_session(served.addr, V2025_11).await;
        let call =
            request(1, "tools/call", json!({"name": "wait", "arguments": {"key": "timeout-legacy", "ms": 20_000}}));
        let started = Instant::now();
        let response = session.post().header("accept", "application/json").json(&call).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let message = response.json().await;
        assert!(started.elapsed() < Duration::from_secs(5), "answered when the timeout expired");
        assert_eq!(message["id"], 1);
        assert_eq!(check_error(V2025_11, &message), INTERNAL_ERROR);
        assert!(message["error"]["message"].as_str().unwrap().contains("timed out"), "{message}");
        // Modern, answered on the call's SSE stream.
        let call =
            modern(2, "tools/call", json!({"name": "wait", "arguments": {"key": "timeout-modern", "ms": 20_000}}));
        let (_, message) = modern_post(served.addr, &call).send().await.exchange().await;
        assert_eq!(message["id"], 2);
        assert_eq!(check_error(V2026, &message), INTERNAL_ERROR);
        assert!(message["error"]["message"].as_str().unwrap().contains("timed out"), "{message}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn security_invalid_json_is_400_parse_error() {
    bounded(async {
        let served = endpoint().await;
        let response = post(served.addr)
            .header("MCP-Protocol-Version", "2026-07-28")
            .header("Mcp-Method", "tools/list")
            .bytes(&b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": "[..])
            .send()
            .await;
        expect_error(response, StatusCode::BAD_REQUEST, PARSE_ERROR, Value::Null, V2026).await;
    })
    .await;
}

// ===========================================================================
// The gallery's --http entry point
// ===========================================================================

/// A child process killed when dropped.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for `child` to exit, for at most `limit`; kills it past that.
async fn wait_for_exit(mut child: std::process::Child, limit: Duration) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("waiting for a child") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the child process did not finish within {limit:?}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The gallery example binary, next to this test's binary
/// (`target/<profile>/examples/gallery`). `cargo test` builds examples, but
/// `cargo test --test server` does not: build it (a no-op when fresh).
async fn gallery_binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).expect("target/<profile>/deps/<test>");
    let binary = profile_dir.join("examples").join(format!("gallery{}", std::env::consts::EXE_SUFFIX));
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| option_env!("CARGO").unwrap_or("cargo").to_owned());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let mut build = std::process::Command::new(cargo);
    build.args(["build", "--quiet", "--example", "gallery", "--manifest-path", manifest]);
    if profile_dir.file_name().is_some_and(|name| name == "release") {
        build.arg("--release");
    }
    let child = build.spawn().expect("running cargo build --example gallery");
    let status = wait_for_exit(child, Duration::from_secs(600)).await;
    assert!(status.success(), "cargo build --example gallery failed: {status}");
    assert!(binary.is_file(), "no gallery binary at {}", binary.display());
    binary
}

/// The gallery serving `--http` on a free loopback port, with `token` as its
/// `CODEAGENT_HTTP_TOKEN` (or none), once it listens.
async fn gallery_on_http(binary: &std::path::Path, token: Option<&str>) -> (Child, SocketAddr) {
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
        probe.local_addr().unwrap().port()
    };
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let mut command = std::process::Command::new(binary);
    command.args(["--http", &addr.to_string()]).env_remove("CODEAGENT_HTTP_TOKEN");
    if let Some(token) = token {
        command.env("CODEAGENT_HTTP_TOKEN", token);
    }
    let mut gallery = Child(
        command
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("starting the gallery"),
    );
    let deadline = Instant::now() + WAIT;
    while TcpStream::connect(addr).await.is_err() {
        if let Some(status) = gallery.0.try_wait().unwrap() {
            panic!("the gallery exited before listening: {status}");
        }
        assert!(Instant::now() < deadline, "the gallery did not listen on {addr} within {WAIT:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (gallery, addr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gallery_serves_http_with_the_http_flag() {
    // Building the example may take a while; the timeout covers it separately.
    let binary = gallery_binary().await;
    bounded(async {
        let (mut gallery, addr) = gallery_on_http(&binary, None).await;

        // Legacy: a session, its listing and a call.
        let response = post(addr).json(&initialize_request(V2025_11)).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let id = response.header("mcp-session-id").expect("a session").to_owned();
        let init = response.json().await;
        support::assert_valid(V2025_11.as_str(), "InitializeResult", &init["result"]);
        assert_eq!(init["result"]["serverInfo"]["name"], "codeagent-gallery");
        let session = Session { addr, id, version: V2025_11 };
        let listing = session.post().json(&request(1, "tools/list", json!({}))).send().await.json().await;
        support::assert_valid(V2025_11.as_str(), "ListToolsResult", &listing["result"]);
        let names = tool_names(&listing);
        for tool in ["add", "greet", "count_with_progress", "slow"] {
            assert!(names.contains(&tool), "{tool} in {names:?}");
        }
        let call = request(2, "tools/call", json!({"name": "add", "arguments": {"a": 2, "b": 3}}));
        let (_, sum) = session.post().json(&call).send().await.exchange().await;
        support::assert_valid(V2025_11.as_str(), "CallToolResult", &sum["result"]);
        assert_eq!(first_text(&sum), "5");

        // Modern: stateless listing and call.
        let response = modern_post(addr, &modern(3, "tools/list", json!({}))).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let (_, listing) = response.exchange().await;
        support::assert_valid(V2026.as_str(), "ListToolsResult", &listing["result"]);
        assert!(tool_names(&listing).contains(&"add"));
        let call = modern(4, "tools/call", json!({"name": "add", "arguments": {"a": 20, "b": 22}}));
        let response = modern_post(addr, &call).send().await;
        assert_eq!(response.status, StatusCode::OK);
        let (_, sum) = response.exchange().await;
        support::assert_valid(V2026.as_str(), "CallToolResult", &sum["result"]);
        assert_eq!(sum["result"]["resultType"], "complete");
        assert_eq!(first_text(&sum), "42");

        // Bound to loopback: only localhost Host headers.
        let response =
            modern_post(addr, &modern(5, "server/discover", json!({}))).header("host", "evil.example.com").send().await;
        assert_eq!(response.status, StatusCode::FORBIDDEN);
        assert!(gallery.0.try_wait().unwrap().is_none(), "the gallery is still serving");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_command_line_reads_the_state_key_and_refuses_a_short_one() {
    let binary = gallery_binary().await;
    bounded(async {
        let run = |key: &str| {
            std::process::Command::new(&binary)
                .args(["--http", "127.0.0.1:0"])
                .env("CODEAGENT_STATE_KEY", key)
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("starting the gallery")
                .wait_with_output()
                .expect("the gallery's output")
        };
        let output = run("too-short");
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("CODEAGENT_STATE_KEY") && stderr.contains("at least 32"), "{stderr}");
        // A good key first, a short one second: the second is refused by position.
        let output = run(&format!("{},short", "k".repeat(32)));
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("state key 2 is 5 bytes"), "{output:?}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gallery_refuses_a_reachable_address_without_authorization() {
    let binary = gallery_binary().await;
    bounded(async {
        let refused = std::process::Command::new(&binary)
            .args(["--http", "0.0.0.0:0"])
            .env_remove("CODEAGENT_HTTP_TOKEN")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("starting the gallery");
        let output = refused.wait_with_output().expect("the gallery's output");
        assert_eq!(output.status.code(), Some(2), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("0.0.0.0:0") && stderr.contains("CODEAGENT_HTTP_TOKEN"), "{stderr}");
        assert!(stderr.contains("--allow-unauthenticated"), "{stderr}");
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gallery_requires_the_bearer_token_it_is_given() {
    let binary = gallery_binary().await;
    bounded(async {
        let (_gallery, addr) = gallery_on_http(&binary, Some("s3cret")).await;
        let response = post(addr).json(&initialize_request(V2025_11)).send().await;
        assert_eq!(response.status, StatusCode::UNAUTHORIZED);
        let response =
            post(addr).header("Authorization", "Bearer s3cret").json(&initialize_request(V2025_11)).send().await;
        assert_eq!(response.status, StatusCode::OK);
    })
    .await;
}
