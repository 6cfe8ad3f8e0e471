//! Runs one of the provider checkers (`tests/providers/check_*.py`, which
//! validate JSON with the providers' own SDK types installed in `.venv` by
//! `bash tests/interop/install.sh`) over named JSON documents.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

/// Writes each `(file name, document)` into a scratch folder, runs `script`
/// on it with the venv's Python, asserts that it passed, and returns what it
/// printed.
pub(crate) fn check(script: &str, documents: &[(String, Value)]) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let venv = root.join(".venv");
    let python = if cfg!(windows) { venv.join("Scripts").join("python.exe") } else { venv.join("bin").join("python") };
    assert!(
        python.is_file(),
        "the venv interpreter {} is missing: run `bash tests/interop/install.sh` (it installs the pinned openai, \
         anthropic and google-genai packages into .venv), then `cargo test -- --include-ignored`",
        python.display()
    );
    let stem = script.trim_end_matches(".py");
    let folder =
        std::env::temp_dir().join(format!("codeagent-{stem}-{}-{:?}", std::process::id(), std::thread::current().id()));
    std::fs::create_dir_all(&folder).unwrap();
    for (name, document) in documents {
        std::fs::write(folder.join(name), serde_json::to_string_pretty(document).unwrap()).unwrap();
    }
    let output = Command::new(&python)
        .arg(root.join("tests/providers").join(script))
        .arg(&folder)
        .output()
        .expect("the checker runs");
    let _ = std::fs::remove_dir_all(&folder);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{script} failed:\n{stdout}\n{stderr}");
    stdout
}
