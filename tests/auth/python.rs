//! The Python `mcp` client's own OAuth (`OAuthClientProvider`) against the
//! gallery as a resource server (`--auth-issuer`, built with the `auth`
//! feature: `cargo build --features auth --example gallery` first) and the
//! real issuer, in both eras: `tests/interop/python/test_oauth.py`.

use std::path::Path;
use std::time::Duration;

use crate::issuer::Issuer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs the issuer and the Python client: run bash tests/auth/install.sh and bash tests/interop/install.sh"]
async fn the_python_client_discovers_the_issuer_and_calls_the_gallery() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv/bin/python");
    // Beside this test's own binary (target/debug/deps/), so that CARGO_TARGET_DIR is followed.
    let exe = std::env::current_exe().expect("the test binary's path");
    let debug = exe.parent().and_then(Path::parent).expect("the test binary sits in <target>/debug/deps");
    let gallery = debug.join("examples/gallery");
    assert!(python.is_file(), "{} is missing: run `bash tests/interop/install.sh`", python.display());
    assert!(gallery.is_file(), "{} is missing: run `cargo build --features auth --example gallery`", gallery.display());
    let issuer = Issuer::start().await;
    let run = tokio::process::Command::new(python)
        .arg(root.join("tests/interop/python/test_oauth.py"))
        .arg(&gallery)
        .arg(&issuer.url)
        .current_dir(root)
        .kill_on_drop(true)
        .output();
    let output = tokio::time::timeout(Duration::from_secs(240), run).await.expect("the Python client ran over 240 s");
    let output = output.expect("running the Python client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let summary = stdout.lines().rev().find(|line| line.ends_with(" failed")).unwrap_or("no summary line");
    assert!(
        output.status.success(),
        "the Python OAuth client failed: {summary} (the FAIL lines above say what it saw)"
    );
    assert!(summary.ends_with(" 0 failed"), "{summary}");
}
