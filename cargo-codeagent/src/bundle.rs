//! `cargo codeagent bundle`: the crate's server as an MCP Bundle (a
//! directory and its `.mcpb` zip: `manifest.json` with the tools the server
//! itself lists, the release binary, the icon), and a `server.json` for the
//! MCP registry (the `cargo` package, and the `mcpb` one with its SHA-256).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

use codeagent::client::Client;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::project::Project;
use crate::{Failure, ManifestArgs};

/// The MCP Bundle manifest version written.
const MANIFEST_VERSION: &str = "0.3";
/// The registry's `server.json` schema written against.
const SERVER_SCHEMA: &str = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

/// `bundle`'s arguments.
#[derive(Debug, clap::Args)]
#[command(after_help = "Writes, in --out (default: TARGET_DIR/mcpb):\n  \
    NAME/                   the bundle's directory: manifest.json, server/BINARY, icon.png\n  \
    NAME-VERSION.mcpb       the same as a zip, for Claude Desktop and `mcpb info`\n  \
    server.json             for the MCP registry: the cargo package and the .mcpb with its SHA-256\n\n\
    Check it with the official CLI: npx @anthropic-ai/mcpb validate DIR/NAME/manifest.json")]
pub(crate) struct BundleArgs {
    #[command(flatten)]
    manifest: ManifestArgs,
    /// The directory to write into (default: the workspace's target/mcpb).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// The bundle's icon, a PNG (default: icon.png beside Cargo.toml, else one made from the name).
    #[arg(long, value_name = "PATH")]
    icon: Option<PathBuf>,
    /// The author's name (default: the first of the package's `authors`, else `git config user.name`).
    #[arg(long, value_name = "NAME")]
    author: Option<String>,
    /// The server's name in the MCP registry, `NAMESPACE/NAME` (default:
    /// `io.github.OWNER/PACKAGE` from a GitHub `repository` in Cargo.toml).
    #[arg(long, value_name = "NAMESPACE/NAME")]
    registry_name: Option<String>,
    /// Where the .mcpb will be downloaded from (default: the GitHub release
    /// `vVERSION` of the `repository`); without one, server.json lists the cargo package only.
    #[arg(long, value_name = "URL")]
    bundle_url: Option<String>,
    /// Arguments the host passes to the server (after `--`).
    #[arg(last = true, value_name = "SERVER ARGS")]
    server_args: Vec<String>,
}

/// Runs `bundle`.
pub(crate) async fn run(args: BundleArgs) -> Result<ExitCode, Failure> {
    let project = Project::locate(&args.manifest, "release")?;
    // What the manifest and server.json need, checked before the build.
    let description = project.description.clone().ok_or_else(|| {
        format!("package `{}` has no description: add `description = \"...\"` to its Cargo.toml", project.name)
    })?;
    let author = author(&args, &project)?;
    let registry_name = match &args.registry_name {
        Some(name) => Some(check_registry_name(name)?),
        None => project
            .repository
            .as_deref()
            .and_then(github)
            .map(|(owner, _)| format!("io.github.{owner}/{}", project.name)),
    };
    if registry_name.is_some() {
        // server.json's own limit, checked before the build.
        server_json(&project, "a/b", &description, None, "")?;
    }
    let icon = match &args.icon {
        Some(path) => {
            Some(std::fs::read(path).map_err(|error| format!("cannot read --icon {}: {error}", path.display()))?)
        }
        None => std::fs::read(project.dir.join("icon.png")).ok(),
    };
    if let Some(bytes) = &icon
        && !bytes.starts_with(b"\x89PNG\r\n\x1a\n")
    {
        return Err("the icon is not a PNG file".to_owned());
    }
    let icon = icon.unwrap_or_else(|| crate::icon::png(&project.name));

    let binary = project.build_release()?;
    let tools = tools_of(&binary, &args.server_args).await?;

    let out = args.out.clone().unwrap_or_else(|| project.target_dir.join("mcpb"));
    let dir = out.join(&project.name);
    fresh_dir(&dir)?;
    let file_name = binary.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
    let entry_point = format!("server/{file_name}");
    let manifest = manifest(&project, &description, &author, &entry_point, &args.server_args, &tools);
    let manifest_text =
        serde_json::to_string_pretty(&manifest).map_err(|error| format!("cannot write JSON: {error}"))? + "\n";
    write(&dir.join("manifest.json"), manifest_text.as_bytes())?;
    std::fs::create_dir_all(dir.join("server"))
        .map_err(|error| format!("cannot create {}/server: {error}", dir.display()))?;
    std::fs::copy(&binary, dir.join(&entry_point))
        .map_err(|error| format!("cannot copy {} into the bundle: {error}", binary.display()))?;
    write(&dir.join("icon.png"), &icon)?;

    let archive = out.join(format!("{}-{}.mcpb", project.name, project.version));
    zip_dir(&dir, &archive)?;
    let bytes = std::fs::read(&archive).map_err(|error| format!("cannot read {}: {error}", archive.display()))?;
    let sha256 = hex(&Sha256::digest(&bytes));

    let count = match tools.len() {
        1 => "1 tool".to_owned(),
        n => format!("{n} tools"),
    };
    out!("bundle: {} ({count})", dir.display());
    out!("mcpb:   {} ({} bytes, sha256 {sha256})", archive.display(), bytes.len());
    match registry_name {
        Some(name) => {
            let archive_name = archive.file_name().map(|name| name.to_string_lossy().into_owned()).unwrap_or_default();
            let bundle_url = args.bundle_url.clone().or_else(|| {
                let (owner, repo) = github(project.repository.as_deref()?)?;
                Some(format!("https://github.com/{owner}/{repo}/releases/download/v{}/{archive_name}", project.version))
            });
            let server = server_json(&project, &name, &description, bundle_url.as_deref(), &sha256)?;
            let path = out.join("server.json");
            let text =
                serde_json::to_string_pretty(&server).map_err(|error| format!("cannot write JSON: {error}"))? + "\n";
            write(&path, text.as_bytes())?;
            out!("server.json: {}", path.display());
            if bundle_url.is_none() {
                out!("  (the cargo package only: pass --bundle-url with the .mcpb's download URL to list it too)");
            }
        }
        None => {
            out!("no server.json: pass --registry-name NAMESPACE/NAME (or set a GitHub `repository` in Cargo.toml)")
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The author: --author, the package's first, or git's user.name.
fn author(args: &BundleArgs, project: &Project) -> Result<Value, Failure> {
    if let Some(name) = &args.author {
        return Ok(json!({ "name": name }));
    }
    if let Some(first) = project.authors.first() {
        // `Name <email>`
        return Ok(match first.split_once('<') {
            Some((name, email)) if email.ends_with('>') && email.contains('@') => {
                json!({ "name": name.trim(), "email": email.trim_end_matches('>').trim() })
            }
            _ => json!({ "name": first.trim() }),
        });
    }
    let git = Command::new("git").args(["config", "user.name"]).current_dir(&project.dir).output();
    match git {
        Ok(output) if output.status.success() && !output.stdout.trim_ascii().is_empty() => {
            Ok(json!({ "name": String::from_utf8_lossy(output.stdout.trim_ascii()) }))
        }
        _ => Err(format!(
            "a bundle names its author: add `authors = [\"Name <email>\"]` to {}, or pass --author",
            project.manifest.display()
        )),
    }
}

/// `NAMESPACE/NAME` as the registry takes it.
fn check_registry_name(name: &str) -> Result<String, Failure> {
    let valid_part = |part: &str, extra: &[char]| {
        !part.is_empty()
            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-' || extra.contains(&c))
    };
    match name.split_once('/') {
        Some((namespace, server)) if valid_part(namespace, &[]) && valid_part(server, &['_']) && name.len() <= 200 => {
            Ok(name.to_owned())
        }
        _ => Err(format!(
            "--registry-name `{name}` is not NAMESPACE/NAME (a reverse-DNS namespace such as io.github.OWNER, one `/`)"
        )),
    }
}

/// (owner, repository) of a GitHub URL.
fn github(url: &str) -> Option<(String, String)> {
    let rest = url.strip_prefix("https://github.com/").or_else(|| url.strip_prefix("http://github.com/"))?;
    let mut parts = rest.trim_end_matches('/').trim_end_matches(".git").split('/');
    let (owner, repo) = (parts.next()?, parts.next()?);
    (!owner.is_empty() && !repo.is_empty()).then(|| (owner.to_owned(), repo.to_owned()))
}

/// The server's tools, as it lists them itself.
async fn tools_of(binary: &Path, server_args: &[String]) -> Result<Vec<Value>, Failure> {
    let mut command = tokio::process::Command::new(binary);
    command.args(server_args);
    let client = Client::builder()
        .client_info("cargo-codeagent", env!("CARGO_PKG_VERSION"))
        .timeout(Duration::from_secs(30))
        .stdio(command)
        .await
        .map_err(|error| format!("cannot start the built server to read its tools: {error}"))?;
    let listed = client.list_tools().await;
    let stderr = client.stderr();
    client.close();
    let tools = listed.map_err(|error| {
        format!(
            "the built server did not list its tools: {error}{}",
            stderr.map(|text| format!("\n{text}")).unwrap_or_default()
        )
    })?;
    Ok(tools
        .into_iter()
        .map(|tool| match tool.description.filter(|text| !text.trim().is_empty()) {
            Some(description) => json!({ "name": tool.name, "description": description }),
            None => json!({ "name": tool.name }),
        })
        .collect())
}

/// The bundle's manifest.json.
fn manifest(
    project: &Project,
    description: &str,
    author: &Value,
    entry_point: &str,
    server_args: &[String],
    tools: &[Value],
) -> Value {
    let mut args = vec![];
    args.extend(server_args.iter().cloned());
    let mut manifest = Map::new();
    manifest.insert("manifest_version".into(), MANIFEST_VERSION.into());
    manifest.insert("name".into(), project.name.as_str().into());
    manifest.insert("version".into(), project.version.as_str().into());
    manifest.insert("description".into(), description.into());
    manifest.insert("author".into(), author.clone());
    if let Some(url) = &project.repository {
        manifest.insert("repository".into(), json!({ "type": "git", "url": url }));
    }
    if let Some(url) = &project.homepage {
        manifest.insert("homepage".into(), url.as_str().into());
    }
    if let Some(license) = &project.license {
        manifest.insert("license".into(), license.as_str().into());
    }
    manifest.insert("icon".into(), "icon.png".into());
    manifest.insert(
        "server".into(),
        json!({
            "type": "binary",
            "entry_point": entry_point,
            "mcp_config": { "command": format!("${{__dirname}}/{entry_point}"), "args": args },
        }),
    );
    manifest.insert("tools".into(), Value::Array(tools.to_vec()));
    let platform = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        _ => "linux",
    };
    // The binary runs where it was built.
    manifest.insert("compatibility".into(), json!({ "platforms": [platform] }));
    Value::Object(manifest)
}

/// The registry's server.json: the crate on crates.io, and the bundle when
/// its download URL is known.
fn server_json(
    project: &Project,
    name: &str,
    description: &str,
    bundle_url: Option<&str>,
    sha256: &str,
) -> Result<Value, Failure> {
    if description.chars().count() > 100 {
        return Err(format!(
            "server.json takes a description of at most 100 characters; the package's has {} (shorten it in Cargo.toml)",
            description.chars().count()
        ));
    }
    let mut packages = vec![json!({
        "registryType": "cargo",
        "registryBaseUrl": "https://crates.io",
        "identifier": project.name,
        "version": project.version,
        "transport": { "type": "stdio" },
    })];
    if let Some(url) = bundle_url {
        packages.push(json!({
            "registryType": "mcpb",
            "identifier": url,
            "version": project.version,
            "fileSha256": sha256,
            "transport": { "type": "stdio" },
        }));
    }
    let mut server = Map::new();
    server.insert("$schema".into(), SERVER_SCHEMA.into());
    server.insert("name".into(), name.into());
    server.insert("description".into(), description.into());
    server.insert("version".into(), project.version.as_str().into());
    if let Some(url) = &project.repository {
        let source = if github(url).is_some() { "github" } else { "git" };
        server.insert("repository".into(), json!({ "url": url, "source": source }));
    }
    if let Some(url) = &project.homepage {
        server.insert("websiteUrl".into(), url.as_str().into());
    }
    server.insert("packages".into(), Value::Array(packages));
    Ok(Value::Object(server))
}

/// An empty `dir`, after removing the bundle an earlier run left there.
fn fresh_dir(dir: &Path) -> Result<(), Failure> {
    if dir.exists() {
        if !dir.join("manifest.json").is_file() {
            return Err(format!(
                "{} exists and is not a bundle this command wrote: move it, or choose --out",
                dir.display()
            ));
        }
        std::fs::remove_dir_all(dir)
            .map_err(|error| format!("cannot remove the old bundle {}: {error}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|error| format!("cannot create {}: {error}", dir.display()))
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    std::fs::write(path, bytes).map_err(|error| format!("cannot write {}: {error}", path.display()))
}

/// Zips the files of `dir` (the bundle's root at the archive's root), the
/// server executable.
fn zip_dir(dir: &Path, archive: &Path) -> Result<(), Failure> {
    let problem = |error: &dyn std::fmt::Display| format!("cannot write {}: {error}", archive.display());
    let file = std::fs::File::create(archive).map_err(|error| problem(&error))?;
    let mut zip = zip::ZipWriter::new(file);
    let mut files = Vec::new();
    collect(dir, &mut files)?;
    files.sort();
    for path in files {
        let relative = path.strip_prefix(dir).map_err(|error| problem(&error))?;
        let name = relative.components().map(|part| part.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        let executable = relative.starts_with("server");
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(if executable { 0o755 } else { 0o644 });
        zip.start_file(name, options).map_err(|error| problem(&error))?;
        let bytes = std::fs::read(&path).map_err(|error| format!("cannot read {}: {error}", path.display()))?;
        zip.write_all(&bytes).map_err(|error| problem(&error))?;
    }
    zip.finish().map_err(|error| problem(&error))?;
    Ok(())
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), Failure> {
    let entries = std::fs::read_dir(dir).map_err(|error| format!("cannot read {}: {error}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|error| format!("cannot read {}: {error}", dir.display()))?.path();
        if path.is_dir() { collect(&path, files)? } else { files.push(path) }
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project() -> Project {
        Project {
            name: "notes".into(),
            version: "0.2.0".into(),
            description: Some("Notes".into()),
            authors: vec![],
            repository: Some("https://github.com/ada/notes-server".into()),
            homepage: None,
            license: Some("MIT".into()),
            dir: PathBuf::from("/w"),
            manifest: PathBuf::from("/w/Cargo.toml"),
            bin: "notes".into(),
            target_dir: PathBuf::from("/w/target"),
            profile: "release".into(),
        }
    }

    #[test]
    fn the_manifest_runs_the_binary_from_the_bundle() {
        let tools = [json!({"name": "add", "description": "Add."})];
        let manifest = manifest(&project(), "Notes", &json!({"name": "Ada"}), "server/notes", &[], &tools);
        assert_eq!(manifest["manifest_version"], "0.3");
        assert_eq!(manifest["server"]["type"], "binary");
        assert_eq!(manifest["server"]["mcp_config"]["command"], "${__dirname}/server/notes");
        assert_eq!(manifest["tools"][0]["name"], "add");
        assert_eq!(manifest["repository"], json!({"type": "git", "url": "https://github.com/ada/notes-server"}));
    }

    #[test]
    fn server_json_lists_the_crate_and_the_bundle() {
        let sha = "a".repeat(64);
        let server =
            server_json(&project(), "io.github.ada/notes", "Notes", Some("https://x/notes.mcpb"), &sha).unwrap();
        assert_eq!(server["packages"][0]["registryType"], "cargo");
        assert_eq!(server["packages"][1]["registryType"], "mcpb");
        assert_eq!(server["packages"][1]["fileSha256"], sha.as_str());
        assert_eq!(server["repository"]["source"], "github");
        let long = "x".repeat(101);
        assert!(server_json(&project(), "a/b", &long, None, &sha).unwrap_err().contains("at most 100"));
    }

    #[test]
    fn registry_names_and_github_urls() {
        assert_eq!(github("https://github.com/ada/notes.git"), Some(("ada".into(), "notes".into())));
        assert_eq!(github("https://gitlab.com/ada/notes"), None);
        assert!(check_registry_name("io.github.ada/notes_2").is_ok());
        assert!(check_registry_name("notes").is_err());
        assert!(check_registry_name("a/b/c").is_err());
    }
}
