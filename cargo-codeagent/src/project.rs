//! The crate a command works on: its package as `cargo metadata` describes
//! it, and its server binary built in release.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::{Failure, ManifestArgs};

/// The package whose server a command installs or bundles.
#[derive(Debug, Clone)]
pub(crate) struct Project {
    /// The package's name.
    pub(crate) name: String,
    /// The package's version.
    pub(crate) version: String,
    /// The package's description, if it has one.
    pub(crate) description: Option<String>,
    /// The package's authors (`Name <email>`).
    pub(crate) authors: Vec<String>,
    /// The package's repository URL, if any.
    pub(crate) repository: Option<String>,
    /// The package's homepage URL, if any.
    pub(crate) homepage: Option<String>,
    /// The package's SPDX license expression, if any.
    pub(crate) license: Option<String>,
    /// The directory of the package's Cargo.toml.
    pub(crate) dir: PathBuf,
    /// The package's Cargo.toml.
    pub(crate) manifest: PathBuf,
    /// The binary target that is the server.
    pub(crate) bin: String,
    /// The workspace's target directory.
    pub(crate) target_dir: PathBuf,
    /// The cargo profile the server is built with.
    pub(crate) profile: String,
}

/// The `cargo` that ran this program (cargo sets `CARGO` for its
/// subcommands), else the one on `PATH`.
pub(crate) fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

impl Project {
    /// The package `args` name, or the one of the Cargo.toml cargo finds
    /// from the current directory; built with `--profile`, or else with
    /// `default_profile`.
    pub(crate) fn locate(args: &ManifestArgs, default_profile: &str) -> Result<Project, Failure> {
        let manifest = match &args.manifest_path {
            Some(path) => path.clone(),
            None => {
                let output = cargo()
                    .args(["locate-project", "--message-format", "plain"])
                    .stderr(Stdio::piped())
                    .output()
                    .map_err(|error| format!("cannot run cargo: {error}"))?;
                if !output.status.success() {
                    return Err(format!(
                        "no Cargo.toml in this directory or above it (run this in your server's crate, or pass \
                         --manifest-path): {}",
                        String::from_utf8_lossy(&output.stderr).trim()
                    ));
                }
                PathBuf::from(String::from_utf8_lossy(&output.stdout).trim())
            }
        };
        let manifest = manifest
            .canonicalize()
            .map_err(|error| format!("cannot read the manifest {}: {error}", manifest.display()))?;
        let output = cargo()
            .args(["metadata", "--format-version", "1", "--no-deps", "--manifest-path"])
            .arg(&manifest)
            .stderr(Stdio::piped())
            .output()
            .map_err(|error| format!("cannot run cargo metadata: {error}"))?;
        if !output.status.success() {
            return Err(format!(
                "cargo metadata failed for {}: {}",
                manifest.display(),
                String::from_utf8_lossy(&output.stderr).trim()
            ));
        }
        let metadata: Value = serde_json::from_slice(&output.stdout)
            .map_err(|error| format!("cargo metadata printed something that is not JSON: {error}"))?;
        choose(&metadata, &manifest, args, default_profile)
    }

    /// Builds the server (in release unless `--profile` says otherwise) and
    /// gives its binary's path.
    pub(crate) fn build_release(&self) -> Result<PathBuf, Failure> {
        eprintln!("building {} ({} profile)...", self.name, self.profile);
        let status = cargo()
            .args(["build", "--profile", &self.profile, "--manifest-path"])
            .arg(&self.manifest)
            .args(["--package", &self.name, "--bin", &self.bin])
            .status()
            .map_err(|error| format!("cannot run cargo build: {error}"))?;
        if !status.success() {
            return Err(format!(
                "cargo build --profile {} of {} failed (its errors are above)",
                self.profile, self.name
            ));
        }
        let binary = self.binary();
        if !binary.is_file() {
            return Err(format!("cargo build succeeded but there is no binary at {}", binary.display()));
        }
        Ok(binary)
    }

    /// Where `cargo build` with this project's profile puts the server's binary.
    pub(crate) fn binary(&self) -> PathBuf {
        // The `dev` and `test` profiles build into debug/, the others into their own name.
        let dir = match self.profile.as_str() {
            "dev" | "test" => "debug",
            "bench" => "release",
            other => other,
        };
        self.target_dir.join(dir).join(format!("{}{}", self.bin, std::env::consts::EXE_SUFFIX))
    }
}

/// The package of `metadata` that `args` name (or that `manifest` is), and
/// its server binary, built with `--profile` or else `default_profile`.
fn choose(metadata: &Value, manifest: &Path, args: &ManifestArgs, default_profile: &str) -> Result<Project, Failure> {
    let packages = metadata["packages"].as_array().map(Vec::as_slice).unwrap_or_default();
    let package = match &args.package {
        Some(name) => packages.iter().find(|package| package["name"] == name.as_str()).ok_or_else(|| {
            let names: Vec<&str> = packages.iter().filter_map(|package| package["name"].as_str()).collect();
            format!("there is no package `{name}` in this workspace (its packages: {})", names.join(", "))
        })?,
        None => {
            let own = packages
                .iter()
                .find(|package| package["manifest_path"].as_str().is_some_and(|path| Path::new(path) == manifest));
            match own {
                Some(package) => package,
                None => {
                    let names: Vec<&str> = packages.iter().filter_map(|package| package["name"].as_str()).collect();
                    return Err(format!(
                        "{} is a workspace, not a package: name the server's package with -p (one of: {})",
                        manifest.display(),
                        names.join(", ")
                    ));
                }
            }
        }
    };
    let name = package["name"].as_str().unwrap_or_default().to_owned();
    let bins: Vec<&str> = package["targets"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|target| target["kind"].as_array().is_some_and(|kinds| kinds.iter().any(|kind| kind == "bin")))
        .filter_map(|target| target["name"].as_str())
        .collect();
    let bin = match (&args.bin, bins.as_slice()) {
        (Some(wanted), _) if bins.contains(&wanted.as_str()) => wanted.clone(),
        (Some(wanted), _) => {
            return Err(format!("package `{name}` has no binary `{wanted}` (its binaries: {})", bins.join(", ")));
        }
        (None, []) => {
            return Err(format!("package `{name}` has no binary: an MCP server needs a `src/main.rs` (or a [[bin]])"));
        }
        (None, [only]) => (*only).to_owned(),
        (None, several) if several.contains(&name.as_str()) => name.clone(),
        (None, several) => {
            return Err(format!(
                "package `{name}` has several binaries ({}): choose one with --bin",
                several.join(", ")
            ));
        }
    };
    let text = |key: &str| package[key].as_str().filter(|text| !text.trim().is_empty()).map(str::to_owned);
    Ok(Project {
        version: text("version").unwrap_or_else(|| "0.0.0".to_owned()),
        description: text("description"),
        authors: package["authors"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        repository: text("repository"),
        homepage: text("homepage"),
        license: text("license"),
        dir: manifest.parent().map(Path::to_path_buf).unwrap_or_default(),
        manifest: PathBuf::from(package["manifest_path"].as_str().unwrap_or_default()),
        target_dir: PathBuf::from(metadata["target_directory"].as_str().unwrap_or("target")),
        profile: args.profile.clone().unwrap_or_else(|| default_profile.to_owned()),
        name,
        bin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(package: Option<&str>, bin: Option<&str>) -> ManifestArgs {
        ManifestArgs { manifest_path: None, package: package.map(Into::into), bin: bin.map(Into::into), profile: None }
    }

    fn metadata() -> Value {
        json!({
            "target_directory": "/w/target",
            "packages": [
                {"name": "notes", "version": "0.2.0", "manifest_path": "/w/notes/Cargo.toml", "authors": ["Ada <ada@example.com>"],
                 "targets": [{"name": "notes", "kind": ["lib"]}, {"name": "notes", "kind": ["bin"]}, {"name": "seed", "kind": ["bin"]}]},
                {"name": "lib-only", "version": "0.1.0", "manifest_path": "/w/lib-only/Cargo.toml", "targets": [{"name": "lib_only", "kind": ["lib"]}]}
            ]
        })
    }

    #[test]
    fn chooses_the_package_of_the_manifest_and_its_binary_named_like_it() {
        let project = choose(&metadata(), Path::new("/w/notes/Cargo.toml"), &args(None, None), "release").unwrap();
        assert_eq!(
            (project.name.as_str(), project.bin.as_str(), project.version.as_str()),
            ("notes", "notes", "0.2.0")
        );
        assert_eq!(project.target_dir, Path::new("/w/target"));
        let seed = choose(&metadata(), Path::new("/w/notes/Cargo.toml"), &args(None, Some("seed")), "release").unwrap();
        assert_eq!(seed.bin, "seed");
    }

    #[test]
    fn names_what_is_missing() {
        let workspace = choose(&metadata(), Path::new("/w/Cargo.toml"), &args(None, None), "release").unwrap_err();
        assert!(workspace.contains("-p") && workspace.contains("notes, lib-only"), "{workspace}");
        let unknown =
            choose(&metadata(), Path::new("/w/Cargo.toml"), &args(Some("nope"), None), "release").unwrap_err();
        assert!(unknown.contains("no package `nope`"), "{unknown}");
        let no_bin =
            choose(&metadata(), Path::new("/w/Cargo.toml"), &args(Some("lib-only"), None), "release").unwrap_err();
        assert!(no_bin.contains("has no binary"), "{no_bin}");
        let wrong_bin =
            choose(&metadata(), Path::new("/w/Cargo.toml"), &args(Some("notes"), Some("x")), "release").unwrap_err();
        assert!(wrong_bin.contains("no binary `x`") && wrong_bin.contains("notes, seed"), "{wrong_bin}");
    }
}
