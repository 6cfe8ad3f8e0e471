//! `cargo codeagent new NAME`: a crate with a first tool, a resource, a test
//! through `codeagent::testing`, and a README with its two commands.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::Failure;

/// The checkout this binary was built from: the `codeagent` crate is its root.
const CHECKOUT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

/// `new`'s arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "The crate depends on codeagent by path, on the checkout this cargo-codeagent was \
    built from, until a release is on crates.io; --path and --git choose another.\n\nExamples:\n  \
    cargo codeagent new orders\n  \
    cargo codeagent new orders --http\n  \
    cargo codeagent new orders --git https://example.invalid/codeagent --branch main")]
pub(crate) struct NewArgs {
    /// The crate's name (letters, digits, `-` and `_`); also its directory's.
    name: String,
    /// A server that serves Streamable HTTP on 127.0.0.1:8080 when run
    /// without arguments (stdio otherwise).
    #[arg(long)]
    http: bool,
    /// Where to create the crate's directory (default: the current directory).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// Depend on the codeagent checkout at PATH.
    #[arg(long, value_name = "PATH", conflicts_with = "git")]
    path: Option<PathBuf>,
    /// Depend on codeagent from the git repository at URL.
    #[arg(long, value_name = "URL")]
    git: Option<String>,
    /// With --git: the branch to use.
    #[arg(long, value_name = "BRANCH", requires = "git", conflicts_with = "rev")]
    branch: Option<String>,
    /// With --git: the commit to use.
    #[arg(long, value_name = "REV", requires = "git")]
    rev: Option<String>,
}

/// Where the new crate's `codeagent` comes from.
#[derive(Debug, Clone, PartialEq)]
enum Source {
    /// A checkout on this machine.
    Path(PathBuf),
    /// A git repository, at a branch or commit.
    Git { url: String, branch: Option<String>, rev: Option<String> },
}

impl Source {
    /// The dependency's keys in Cargo.toml, without the braces.
    fn keys(&self) -> String {
        match self {
            Source::Path(path) => format!("path = {}", toml_string(&path.to_string_lossy())),
            Source::Git { url, branch, rev } => {
                let mut keys = format!("git = {}", toml_string(url));
                if let Some(branch) = branch {
                    keys.push_str(&format!(", branch = {}", toml_string(branch)));
                }
                if let Some(rev) = rev {
                    keys.push_str(&format!(", rev = {}", toml_string(rev)));
                }
                keys
            }
        }
    }
}

/// Runs `new`.
pub(crate) fn run(args: NewArgs) -> Result<ExitCode, Failure> {
    check_name(&args.name)?;
    let source = match (&args.path, &args.git) {
        (_, Some(url)) => Source::Git { url: url.clone(), branch: args.branch.clone(), rev: args.rev.clone() },
        (Some(path), None) => Source::Path(checkout(path, "--path")?),
        (None, None) => {
            Source::Path(checkout(Path::new(CHECKOUT), "the checkout cargo-codeagent was built from").map_err(
                |problem| format!("{problem}; pass --path to a codeagent checkout, or --git with its repository's URL"),
            )?)
        }
    };
    let parent = match &args.dir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|error| format!("cannot read the current directory: {error}"))?,
    };
    let root = parent.join(&args.name);
    if root.exists() {
        return Err(format!("{} already exists: choose another name, or another place with --dir", root.display()));
    }
    let files = files(&args.name, args.http, &source);
    for (path, contents) in &files {
        let path = root.join(path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
        }
        std::fs::write(&path, contents).map_err(|error| format!("cannot write {}: {error}", path.display()))?;
    }
    // With a path dependency, the checkout's lock file: the versions it was
    // tested with, and nothing to resolve anew (cargo drops what is unused).
    if let Source::Path(checkout) = &source {
        let lock = checkout.join("Cargo.lock");
        if lock.is_file() {
            std::fs::copy(&lock, root.join("Cargo.lock"))
                .map_err(|error| format!("cannot copy {}: {error}", lock.display()))?;
        }
    }
    let dependency = match &source {
        Source::Path(path) => format!("codeagent at {}", path.display()),
        Source::Git { url, .. } => format!("codeagent from {url}"),
    };
    out!("created {} ({}, {dependency})", root.display(), if args.http { "Streamable HTTP" } else { "stdio" });
    out!("next:\n  cd {}\n  cargo test\n  cargo run{}", root.display(), if args.http { "" } else { " -- --list" });
    Ok(ExitCode::SUCCESS)
}

/// A crate name cargo takes, that is also a directory name everywhere.
fn check_name(name: &str) -> Result<(), Failure> {
    let valid = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && name.starts_with(|c: char| c.is_ascii_alphabetic());
    if !valid {
        return Err(format!(
            "`{name}` is not a crate name: use ASCII letters, digits, `-` and `_`, starting with a letter"
        ));
    }
    let ident = name.replace('-', "_");
    // The crate's own name is a path in its code (`{ident}::server()`).
    const RESERVED: [&str; 8] = ["codeagent", "core", "std", "alloc", "test", "tokio", "serde_json", "self"];
    if RESERVED.contains(&ident.as_str()) {
        return Err(format!("`{name}` is the name of a crate the new one uses: choose another"));
    }
    Ok(())
}

/// The canonical path of a codeagent checkout at `path`, checked.
fn checkout(path: &Path, what: &str) -> Result<PathBuf, Failure> {
    let manifest = path.join("Cargo.toml");
    let text = std::fs::read_to_string(&manifest)
        .map_err(|error| format!("{what} ({}) has no readable Cargo.toml: {error}", path.display()))?;
    if !text.lines().any(|line| line.trim() == "name = \"codeagent\"") {
        return Err(format!(
            "{what} ({}) is not a codeagent checkout (its Cargo.toml is not package `codeagent`)",
            path.display()
        ));
    }
    path.canonicalize().map_err(|error| format!("cannot resolve {}: {error}", path.display()))
}

/// A TOML basic string.
fn toml_string(text: &str) -> String {
    toml_edit::Value::from(text).to_string().trim().to_owned()
}

/// The new crate's files: (path in the crate, contents).
fn files(name: &str, http: bool, source: &Source) -> Vec<(&'static str, Vec<u8>)> {
    let ident = name.replace('-', "_");
    // A URI scheme takes no `_`.
    let scheme = name.replace('_', "-").to_ascii_lowercase();
    let keys = source.keys();
    let cargo_toml = format!(
        r#"[package]
name = "{name}"
version = "0.1.0"
edition = "2024"
description = "An MCP server made with codeagent."
publish = false

[dependencies]
codeagent = {{ {keys} }}
tokio = {{ version = "1", features = ["macros", "rt-multi-thread"] }}

[dev-dependencies]
# `codeagent::testing`: a client of the server in the same process, in any protocol version.
codeagent = {{ {keys}, features = ["testing"] }}
serde_json = "1"
"#
    );
    let lib = format!(
        r##"//! {name}: an MCP server made with codeagent.
//!
//! Each `#[tool]` function is a tool: its doc comment is the description a
//! model reads, its parameters' doc comments describe the arguments.

use codeagent::Server;
use codeagent::prelude::*;

/// Greet someone by name.
#[tool(read_only)]
pub fn greet(
    /// Who to greet.
    name: String,
) -> String {{
    format!("Hello, {{name}}!")
}}

/// What this server offers, as Markdown.
#[resource(uri = "{scheme}://about", title = "About {name}", mime_type = "text/markdown")]
pub fn about() -> String {{
    "# {name}\n\nAn MCP server made with codeagent.\n\n- `greet`: greet someone by name.\n".to_owned()
}}

/// The server: every tool and resource of this crate.
pub fn server() -> Server {{
    let toolbox = Toolbox::new().tool(greet).resource(about);
    Server::new(toolbox).with_name("{name}").with_version(env!("CARGO_PKG_VERSION"))
}}
"##
    );
    let main = if http {
        format!(
            r#"//! Serves {name} over Streamable HTTP at http://127.0.0.1:8080/mcp when run
//! without arguments; `-- --help` lists the others (stdio with `-- --stdio`).

#[tokio::main]
async fn main() -> std::process::ExitCode {{
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {{
        args = vec!["--http".into(), "127.0.0.1:8080".into()];
    }} else if args == ["--stdio"] {{
        args.clear();
    }}
    {ident}::server().run_with_args(args).await
}}
"#
        )
    } else {
        format!(
            r#"//! Serves {name} over MCP on stdio, what a host (Claude Code, VS Code, ...)
//! starts; `-- --help` lists the other ways (`--list`, `--call`, `--http`).

#[tokio::main]
async fn main() -> std::process::ExitCode {{
    {ident}::server().run().await
}}
"#
        )
    };
    let test = format!(
        r#"//! {name} through the real protocol: a client in the same process, in
//! every protocol version.

use codeagent::prelude::*;
use codeagent::testing;
use serde_json::json;

#[tokio::test]
async fn greet_answers_in_every_protocol_version() {{
    let server = {ident}::server();
    for &version in ProtocolVersion::ALL {{
        let client = testing::connect(&server, version).await;
        let output = client.call("greet", json!({{"name": "Ada"}})).await.unwrap();
        assert_eq!(output.result().value(), "Hello, Ada!", "{{version}}");
    }}
}}

#[tokio::test]
async fn the_about_resource_lists_the_tools() {{
    let client = testing::connect(&{ident}::server(), ProtocolVersion::LATEST).await;
    let read = client.read_resource("{scheme}://about").await.unwrap();
    let text = read.text().unwrap();
    assert!(text.contains("`greet`"), "{{text}}");
}}
"#
    );
    let (run, serving) = if http {
        (
            "cargo run",
            "serves MCP over Streamable HTTP at `http://127.0.0.1:8080/mcp` (`cargo run -- --stdio` for stdio)",
        )
    } else {
        (
            "cargo run",
            "serves MCP on stdio: what a host starts (`cargo run -- --list` and `cargo run -- --call greet '{\"name\": \"Ada\"}'` try it by hand)",
        )
    };
    let readme = format!(
        r##"# {name}

An MCP server made with [codeagent](https://example.invalid/codeagent): the tool
`greet` and the resource `{scheme}://about`, in `src/lib.rs`.

## The two commands

Run the server:

```sh
{run}
```

It {serving}.

Run the tests (through the real protocol, in every protocol version, with `codeagent::testing`):

```sh
cargo test
```

## Next

```sh
cargo codeagent inspect 'cargo run -q' list       # what a client sees
cargo codeagent install claude-code               # build in release and register it with a host
cargo codeagent bundle                            # an MCP Bundle (.mcpb) and a server.json
```
"##
    );
    let icon = crate::icon::png(name);
    vec![
        ("Cargo.toml", cargo_toml.into_bytes()),
        ("src/lib.rs", lib.into_bytes()),
        ("src/main.rs", main.into_bytes()),
        ("tests/server.rs", test.into_bytes()),
        ("README.md", readme.into_bytes()),
        (".gitignore", b"/target\n".to_vec()),
        ("icon.png", icon),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        for good in ["orders", "my-server", "my_server2"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in ["", "2fast", "a b", "../x", "codeagent", "tokio", "é"] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_dependency_follows_the_source() {
        let path = Source::Path(PathBuf::from("/src/code \"agent\""));
        assert_eq!(path.keys(), r#"path = '/src/code "agent"'"#);
        let git = Source::Git { url: "https://x/y".into(), branch: Some("main".into()), rev: None };
        assert_eq!(git.keys(), r#"git = "https://x/y", branch = "main""#);
        let files = files("my-server", false, &git);
        let cargo = String::from_utf8(files[0].1.clone()).unwrap();
        assert!(cargo.contains(r#"codeagent = { git = "https://x/y", branch = "main" }"#), "{cargo}");
        assert!(cargo.contains(r#"codeagent = { git = "https://x/y", branch = "main", features = ["testing"] }"#));
        let test = String::from_utf8(files[3].1.clone()).unwrap();
        assert!(test.contains("my_server::server()") && test.contains("my-server://about"), "{test}");
    }

    #[test]
    fn the_build_checkout_is_a_codeagent_checkout() {
        assert!(checkout(Path::new(CHECKOUT), "the checkout").is_ok());
        let error = checkout(Path::new(env!("CARGO_MANIFEST_DIR")), "--path").unwrap_err();
        assert!(error.contains("not a codeagent checkout"), "{error}");
    }
}
