//! `cargo codeagent install HOST`: build the server in release and register
//! it with an MCP host, through the host's own `mcp add` when its CLI is
//! installed, else in its configuration file (JSON or TOML, the user's other
//! entries kept).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use serde_json::{Map, Value, json};

use crate::project::Project;
use crate::{Failure, ManifestArgs};

/// The hosts `install` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Host {
    /// Claude Code: `claude mcp add --scope user`, else `~/.claude.json`.
    ClaudeCode,
    /// Codex CLI: `codex mcp add`, else `$CODEX_HOME/config.toml` (`~/.codex/config.toml`).
    Codex,
    /// Gemini CLI: `gemini mcp add --scope user`, else `~/.gemini/settings.json`.
    Gemini,
    /// Cursor: `~/.cursor/mcp.json`.
    Cursor,
    /// VS Code: the user profile's `mcp.json`.
    Vscode,
    /// Claude Desktop: `claude_desktop_config.json` (local servers only).
    ClaudeDesktop,
}

impl Host {
    fn title(self) -> &'static str {
        match self {
            Host::ClaudeCode => "Claude Code",
            Host::Codex => "Codex CLI",
            Host::Gemini => "Gemini CLI",
            Host::Cursor => "Cursor",
            Host::Vscode => "VS Code",
            Host::ClaudeDesktop => "Claude Desktop",
        }
    }

    /// The host's own CLI, for those that have `mcp add`.
    fn cli(self) -> Option<&'static str> {
        match self {
            Host::ClaudeCode => Some("claude"),
            Host::Codex => Some("codex"),
            Host::Gemini => Some("gemini"),
            _ => None,
        }
    }
}

/// `install`'s arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  \
    cargo codeagent install claude-code\n  \
    cargo codeagent install vscode --name orders -- --tool-timeout 30\n  \
    cargo codeagent install cursor --http https://orders.example.com/mcp\n\n\
    Registering the same name again replaces its entry; the file's other entries are kept.")]
pub(crate) struct InstallArgs {
    /// The host to register the server with.
    #[arg(value_enum)]
    host: Host,
    /// The name the host knows the server by (default: the package's).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Register the remote server at URL (Streamable HTTP) instead of
    /// building this crate's.
    #[arg(long, value_name = "URL", conflicts_with = "command")]
    http: Option<String>,
    /// Register this program (an absolute path) instead of building the
    /// crate's server.
    #[arg(long, value_name = "PATH")]
    command: Option<PathBuf>,
    /// Write the host's configuration file even when its CLI is installed.
    #[arg(long)]
    config_only: bool,
    /// A variable the host sets for the server (`KEY=VALUE`); repeatable.
    #[arg(long = "env", short = 'e', value_name = "KEY=VALUE")]
    env: Vec<String>,
    #[command(flatten)]
    manifest: ManifestArgs,
    /// Arguments the host passes to the server (after `--`).
    #[arg(last = true, value_name = "SERVER ARGS")]
    server_args: Vec<String>,
}

/// What the host is to start or reach.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Entry {
    /// A program on this machine, spoken to over stdio.
    Stdio { command: String, args: Vec<String>, env: Vec<(String, String)> },
    /// A Streamable HTTP endpoint.
    Http { url: String },
}

/// Runs `install`.
pub(crate) fn run(args: InstallArgs) -> Result<ExitCode, Failure> {
    let env = args
        .env
        .iter()
        .map(|pair| match pair.split_once('=') {
            Some((key, value)) if !key.is_empty() => Ok((key.to_owned(), value.to_owned())),
            _ => Err(format!("--env `{pair}` is not KEY=VALUE")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let (name, entry) = match (&args.http, &args.command) {
        (Some(url), _) => {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!("--http `{url}` is not an http:// or https:// URL"));
            }
            if !env.is_empty() || !args.server_args.is_empty() {
                return Err("--env and server arguments are for a local server, not with --http".to_owned());
            }
            let name = match &args.name {
                Some(name) => name.clone(),
                None => Project::locate(&args.manifest, "release")
                    .map(|project| project.name)
                    .map_err(|problem| format!("{problem} (or name the server with --name)"))?,
            };
            (name, Entry::Http { url: url.clone() })
        }
        (None, Some(command)) => {
            let command = std::path::absolute(command)
                .map_err(|error| format!("cannot resolve --command {}: {error}", command.display()))?;
            if !command.is_file() {
                return Err(format!("--command {}: no such program", command.display()));
            }
            let name = match &args.name {
                Some(name) => name.clone(),
                None => command.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_default(),
            };
            let command = command.to_string_lossy().into_owned();
            (name, Entry::Stdio { command, args: args.server_args.clone(), env })
        }
        (None, None) => {
            let project = Project::locate(&args.manifest, "release")?;
            let binary = project.build_release()?;
            let name = args.name.clone().unwrap_or(project.name);
            let command = binary.to_string_lossy().into_owned();
            (name, Entry::Stdio { command, args: args.server_args.clone(), env })
        }
    };
    check_name(&name)?;
    if let (Host::ClaudeDesktop, Entry::Http { .. }) = (args.host, &entry) {
        return Err("Claude Desktop's configuration file takes local servers only: add a remote server in Claude \
                    Desktop under Settings > Connectors"
            .to_owned());
    }
    let cli = args
        .host
        .cli()
        .filter(|_| !args.config_only)
        .and_then(|program| find_program(program).map(|path| (program, path)));
    let report = match cli {
        Some((program, path)) => through_cli(args.host, program, &path, &name, &entry)?,
        None => {
            let home = home()?;
            let file = config_file(args.host, &home)?;
            let change = match args.host {
                Host::Codex => write_toml(&file, &name, &entry)?,
                host => write_json(&file, json_keys(host), &name, json_entry(host, &entry))?,
            };
            format!("{change} `{name}` in {}", file.display())
        }
    };
    out!("{}: {report}", args.host.title());
    match &entry {
        Entry::Stdio { command, args, .. } => {
            out!("  runs: {command}{}", args.iter().map(|arg| format!(" {arg}")).collect::<String>())
        }
        Entry::Http { url } => out!("  connects to: {url}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// A name every host takes as a server's key (and in its tools' names).
fn check_name(name: &str) -> Result<(), Failure> {
    let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        Ok(())
    } else {
        Err(format!("`{name}` is not a server name hosts take: use ASCII letters, digits, `-` and `_` (--name)"))
    }
}

/// `program` on `PATH`, if it is there.
fn find_program(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(format!("{program}{}", std::env::consts::EXE_SUFFIX)))
        .find(|candidate| candidate.is_file())
}

/// Registers through the host's own `mcp add`, after removing an entry of the
/// same name (so running it again replaces it).
fn through_cli(host: Host, program: &str, path: &Path, name: &str, entry: &Entry) -> Result<String, Failure> {
    let mut remove = Command::new(path);
    remove.args(["mcp", "remove"]);
    match host {
        Host::ClaudeCode | Host::Gemini => {
            remove.args(["--scope", "user", name]);
        }
        _ => {
            remove.arg(name);
        }
    }
    // Absent is fine: the add below reports what matters.
    let _ = remove.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status();

    let add_args = add_arguments(host, name, entry);
    let output = Command::new(path)
        .args(&add_args)
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("cannot run {}: {error}", path.display()))?;
    if !output.status.success() {
        return Err(format!(
            "`{program} {}` failed ({}): {}{}",
            add_args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim(),
            String::from_utf8_lossy(&output.stdout).trim()
        ));
    }
    Ok(format!("registered `{name}` with `{program} {}`", add_args[..2].join(" ")))
}

/// The arguments of the host's `mcp add` for `entry`.
fn add_arguments(host: Host, name: &str, entry: &Entry) -> Vec<String> {
    let mut args: Vec<String> = vec!["mcp".into(), "add".into()];
    match (host, entry) {
        (Host::ClaudeCode, Entry::Stdio { command, args: server_args, env }) => {
            // `--env` takes several values: the name goes before it, `--` ends it.
            args.extend(["--scope".into(), "user".into(), name.to_owned()]);
            for (key, value) in env {
                args.extend(["--env".into(), format!("{key}={value}")]);
            }
            args.extend(["--".into(), command.clone()]);
            args.extend(server_args.iter().cloned());
        }
        (Host::ClaudeCode, Entry::Http { url }) => {
            args.extend(["--scope", "user", "--transport", "http"].map(String::from));
            args.extend([name.to_owned(), url.clone()]);
        }
        (Host::Codex, Entry::Stdio { command, args: server_args, env }) => {
            for (key, value) in env {
                args.extend(["--env".into(), format!("{key}={value}")]);
            }
            args.extend([name.to_owned(), "--".into(), command.clone()]);
            args.extend(server_args.iter().cloned());
        }
        (Host::Codex, Entry::Http { url }) => {
            args.extend([name.to_owned(), "--url".into(), url.clone()]);
        }
        (_, Entry::Stdio { command, args: server_args, env }) => {
            // `--env` takes several values: the positionals go before it, `--` ends it.
            args.extend(["--scope".into(), "user".into(), name.to_owned(), command.clone()]);
            for (key, value) in env {
                args.extend(["--env".into(), format!("{key}={value}")]);
            }
            if !server_args.is_empty() {
                args.push("--".into());
                args.extend(server_args.iter().cloned());
            }
        }
        (_, Entry::Http { url }) => {
            args.extend(["--scope", "user", "--transport", "http"].map(String::from));
            args.extend([name.to_owned(), url.clone()]);
        }
    }
    args
}

/// The user's home directory.
fn home() -> Result<PathBuf, Failure> {
    let variable = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    match std::env::var_os(variable).filter(|home| !home.is_empty()) {
        Some(home) => Ok(PathBuf::from(home)),
        None => std::env::home_dir().ok_or_else(|| format!("cannot find the home directory (${variable} is not set)")),
    }
}

/// The directory of applications' per-user settings: `~/Library/Application
/// Support` (macOS), `%APPDATA%` (Windows), `$XDG_CONFIG_HOME` or `~/.config`.
fn app_config_dir(home: &Path) -> Result<PathBuf, Failure> {
    if cfg!(target_os = "macos") {
        Ok(home.join("Library").join("Application Support"))
    } else if cfg!(windows) {
        std::env::var_os("APPDATA").map(PathBuf::from).ok_or_else(|| "%APPDATA% is not set".to_owned())
    } else {
        Ok(std::env::var_os("XDG_CONFIG_HOME")
            .filter(|dir| !dir.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".config")))
    }
}

/// The host's configuration file.
fn config_file(host: Host, home: &Path) -> Result<PathBuf, Failure> {
    Ok(match host {
        Host::ClaudeCode => home.join(".claude.json"),
        Host::Codex => match std::env::var_os("CODEX_HOME").filter(|dir| !dir.is_empty()) {
            Some(dir) => PathBuf::from(dir).join("config.toml"),
            None => home.join(".codex").join("config.toml"),
        },
        Host::Gemini => home.join(".gemini").join("settings.json"),
        Host::Cursor => home.join(".cursor").join("mcp.json"),
        Host::Vscode => app_config_dir(home)?.join("Code").join("User").join("mcp.json"),
        Host::ClaudeDesktop => app_config_dir(home)?.join("Claude").join("claude_desktop_config.json"),
    })
}

/// The key of the servers' object in the host's JSON file.
fn json_keys(host: Host) -> &'static str {
    match host {
        Host::Vscode => "servers",
        _ => "mcpServers",
    }
}

/// The host's JSON entry for `entry`.
fn json_entry(host: Host, entry: &Entry) -> Value {
    match entry {
        Entry::Stdio { command, args, env } => {
            let env: Map<String, Value> =
                env.iter().map(|(key, value)| (key.clone(), Value::from(value.as_str()))).collect();
            let mut object = Map::new();
            if matches!(host, Host::ClaudeCode | Host::Vscode) {
                object.insert("type".into(), "stdio".into());
            }
            object.insert("command".into(), command.as_str().into());
            object.insert("args".into(), json!(args));
            if !env.is_empty() || host == Host::ClaudeCode {
                object.insert("env".into(), Value::Object(env));
            }
            Value::Object(object)
        }
        Entry::Http { url } => match host {
            Host::ClaudeCode | Host::Vscode => json!({"type": "http", "url": url}),
            Host::Gemini => json!({"httpUrl": url}),
            _ => json!({"url": url}),
        },
    }
}

/// What writing an entry changed.
#[derive(Debug, PartialEq, Eq)]
enum Change {
    Added,
    Replaced,
    Unchanged,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Change::Added => "added",
            Change::Replaced => "replaced",
            Change::Unchanged => "already had",
        })
    }
}

/// Sets `servers_key.name` to `entry` in the JSON file `file`, keeping the
/// rest of the file as it is: other keys in their order, the indentation,
/// and the comments and trailing commas of a JSONC file (VS Code's and
/// Cursor's allow them).
fn write_json(file: &Path, servers_key: &str, name: &str, entry: Value) -> Result<Change, Failure> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(format!("cannot read {}: {error}", file.display())),
    };
    let root = CstRootNode::parse(&text, &ParseOptions::default()).map_err(|error| {
        format!("{} is not JSON ({error}); add `{name}` under `{servers_key}` by hand: {entry}", file.display())
    })?;
    let object = match root.value() {
        None => root.object_value_or_set(),
        Some(_) => root.object_value().ok_or_else(|| format!("{} holds JSON that is not an object", file.display()))?,
    };
    let servers = match object.get(servers_key) {
        None => object.object_value_or_set(servers_key),
        Some(_) => object
            .object_value(servers_key)
            .ok_or_else(|| format!("`{servers_key}` in {} is not an object", file.display()))?,
    };
    let change = match servers.get(name) {
        None => {
            servers.append(name, cst_value(&entry));
            Change::Added
        }
        Some(old) if old.value().and_then(|value| value.to_serde_value()).as_ref() == Some(&entry) => {
            return Ok(Change::Unchanged);
        }
        Some(old) => {
            old.set_value(cst_value(&entry));
            Change::Replaced
        }
    };
    let mut written = root.to_string();
    if !written.ends_with('\n') {
        written.push('\n');
    }
    write_file(file, &written)?;
    Ok(change)
}

/// `value` as the JSONC editor takes it.
fn cst_value(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(flag) => CstInputValue::Bool(*flag),
        Value::Number(number) => CstInputValue::Number(number.to_string()),
        Value::String(text) => CstInputValue::String(text.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(cst_value).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(key, item)| (key.clone(), cst_value(item))).collect())
        }
    }
}

/// Sets `[mcp_servers.name]` in Codex's config.toml, keeping the rest of the
/// file (comments and layout) as it is.
fn write_toml(file: &Path, name: &str, entry: &Entry) -> Result<Change, Failure> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(format!("cannot read {}: {error}", file.display())),
    };
    let mut document: toml_edit::DocumentMut =
        text.parse().map_err(|error| format!("{} is not valid TOML: {error}", file.display()))?;
    let servers = document.entry("mcp_servers").or_insert_with(|| {
        let mut table = toml_edit::Table::new();
        table.set_implicit(true);
        toml_edit::Item::Table(table)
    });
    let Some(servers) = servers.as_table_mut() else {
        return Err(format!("`mcp_servers` in {} is not a table", file.display()));
    };
    let mut table = toml_edit::Table::new();
    match entry {
        Entry::Stdio { command, args, env } => {
            table.insert("command", toml_edit::value(command.as_str()));
            let mut list = toml_edit::Array::new();
            args.iter().for_each(|arg| list.push(arg.as_str()));
            table.insert("args", toml_edit::value(list));
            if !env.is_empty() {
                let mut inline = toml_edit::InlineTable::new();
                env.iter().for_each(|(key, value)| {
                    inline.insert(key, value.as_str().into());
                });
                table.insert("env", toml_edit::value(inline));
            }
        }
        Entry::Http { url } => {
            table.insert("url", toml_edit::value(url.as_str()));
        }
    }
    let rendered = |table: &toml_edit::Table| {
        table.iter().map(|(key, item)| format!("{key}={}", item.to_string().trim())).collect::<Vec<_>>()
    };
    let change = match servers.get(name).and_then(toml_edit::Item::as_table) {
        None if servers.contains_key(name) => Change::Replaced,
        None => Change::Added,
        Some(old) if rendered(old) == rendered(&table) => return Ok(Change::Unchanged),
        Some(_) => Change::Replaced,
    };
    servers.insert(name, toml_edit::Item::Table(table));
    write_file(file, &document.to_string())?;
    Ok(change)
}

/// Writes `text` to `file` through a temporary file beside it, so a failure
/// never leaves half a configuration.
fn write_file(file: &Path, text: &str) -> Result<(), Failure> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|error| format!("cannot create {}: {error}", dir.display()))?;
    }
    let temporary = file.with_extension(format!("codeagent-{}.tmp", std::process::id()));
    std::fs::write(&temporary, text).map_err(|error| format!("cannot write {}: {error}", temporary.display()))?;
    std::fs::rename(&temporary, file).map_err(|error| {
        let _ = std::fs::remove_file(&temporary);
        format!("cannot replace {}: {error}", file.display())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stdio() -> Entry {
        Entry::Stdio { command: "/bin/notes".into(), args: vec!["--tool-timeout".into(), "30".into()], env: vec![] }
    }

    #[test]
    fn the_json_file_keeps_other_entries_in_order_and_is_idempotent() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("sub").join("mcp.json");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, r#"{"zeta": 1, "mcpServers": {"other": {"command": "x"}}, "alpha": [true]}"#).unwrap();
        let entry = json_entry(Host::Cursor, &stdio());
        assert_eq!(write_json(&file, "mcpServers", "notes", entry.clone()).unwrap(), Change::Added);
        assert_eq!(write_json(&file, "mcpServers", "notes", entry).unwrap(), Change::Unchanged);
        let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let keys: Vec<&String> = written.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["zeta", "mcpServers", "alpha"]);
        assert_eq!(written["mcpServers"]["other"], json!({"command": "x"}));
        assert_eq!(written["mcpServers"]["notes"], json!({"command": "/bin/notes", "args": ["--tool-timeout", "30"]}));
        let http = json_entry(Host::Cursor, &Entry::Http { url: "https://x/mcp".into() });
        assert_eq!(write_json(&file, "mcpServers", "notes", http).unwrap(), Change::Replaced);
    }

    #[test]
    fn a_file_that_is_not_json_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mcp.json");
        std::fs::write(&file, "{ \"servers\": [1, ").unwrap();
        let error = write_json(&file, "servers", "notes", json!({})).unwrap_err();
        assert!(error.contains("is not JSON") && error.contains("by hand"), "{error}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "{ \"servers\": [1, ");
    }

    #[test]
    fn the_json_file_keeps_its_comments_and_layout() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("mcp.json");
        let mine = "{\n    // my servers\n    \"servers\": {\n        \"other\": { \"command\": \"x\" }, // theirs\n    },\n    \"inputs\": [],\n}\n";
        std::fs::write(&file, mine).unwrap();
        let entry = json_entry(Host::Vscode, &stdio());
        assert_eq!(write_json(&file, "servers", "notes", entry.clone()).unwrap(), Change::Added);
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.starts_with(
                "{\n    // my servers\n    \"servers\": {\n        \"other\": { \"command\": \"x\" }, // theirs\n"
            ),
            "{text}"
        );
        assert!(text.contains("        \"notes\": {\n            \"type\": \"stdio\",\n"), "{text}");
        assert!(text.ends_with("    \"inputs\": [],\n}\n"), "{text}");
        assert_eq!(write_json(&file, "servers", "notes", entry).unwrap(), Change::Unchanged);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "an unchanged entry leaves the file as it is");
    }

    #[test]
    fn the_toml_file_keeps_comments_and_other_servers() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config.toml");
        std::fs::write(&file, "# mine\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\" # theirs\n").unwrap();
        assert_eq!(write_toml(&file, "notes", &stdio()).unwrap(), Change::Added);
        assert_eq!(write_toml(&file, "notes", &stdio()).unwrap(), Change::Unchanged);
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.starts_with("# mine\nmodel = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\" # theirs\n"),
            "{text}"
        );
        assert!(
            text.contains("[mcp_servers.notes]\ncommand = \"/bin/notes\"\nargs = [\"--tool-timeout\", \"30\"]\n"),
            "{text}"
        );
        assert_eq!(write_toml(&file, "notes", &Entry::Http { url: "http://h/mcp".into() }).unwrap(), Change::Replaced);
        assert!(std::fs::read_to_string(&file).unwrap().contains("[mcp_servers.notes]\nurl = \"http://h/mcp\"\n"));
    }

    #[test]
    fn each_host_gets_its_own_shape() {
        let http = Entry::Http { url: "https://x/mcp".into() };
        assert_eq!(json_entry(Host::Gemini, &http), json!({"httpUrl": "https://x/mcp"}));
        assert_eq!(json_entry(Host::Vscode, &http), json!({"type": "http", "url": "https://x/mcp"}));
        assert_eq!(json_entry(Host::ClaudeCode, &stdio())["type"], "stdio");
        assert_eq!(json_keys(Host::Vscode), "servers");
        let add = add_arguments(Host::ClaudeCode, "notes", &stdio());
        assert_eq!(add, ["mcp", "add", "--scope", "user", "notes", "--", "/bin/notes", "--tool-timeout", "30"]);
        let add = add_arguments(Host::Codex, "notes", &http);
        assert_eq!(add, ["mcp", "add", "notes", "--url", "https://x/mcp"]);
        let add = add_arguments(Host::Gemini, "notes", &stdio());
        assert_eq!(add, ["mcp", "add", "--scope", "user", "notes", "/bin/notes", "--", "--tool-timeout", "30"]);
    }

    #[test]
    fn names_are_checked() {
        assert!(check_name("my_server-2").is_ok());
        assert!(check_name("my server").is_err());
        assert!(check_name("").is_err());
    }
}
