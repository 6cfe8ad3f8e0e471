//! `cargo codeagent`: create, inspect, install and bundle MCP servers made
//! with codeagent.
//!
//! Installed with `cargo install --path cargo-codeagent`, cargo runs it as
//! `cargo codeagent SUBCOMMAND`; it runs as `cargo-codeagent SUBCOMMAND` too.

/// `println!` that a closed standard output (`| head`) does not turn into a panic.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::print_out(&format!("{}\n", format_args!($($arg)*)))
    };
}

mod bundle;
mod dev;
mod icon;
mod inspect;
mod install;
mod new;
mod project;

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// What went wrong, as one sentence for the person at the terminal.
type Failure = String;

/// Create, inspect, install and bundle MCP servers made with codeagent.
#[derive(Debug, Parser)]
#[command(name = "cargo codeagent", bin_name = "cargo codeagent", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Create a crate with a first tool, a resource, a test through
    /// `codeagent::testing`, and a README.
    New(new::NewArgs),
    /// Serve the crate's server on stdio through a gateway that stays up,
    /// rebuilding and restarting it behind the gateway when its sources change.
    Dev(dev::DevArgs),
    /// List, call, read and get against any MCP server: a command line or a URL.
    Inspect(inspect::InspectArgs),
    /// Build the crate's server in release and register it with an MCP host.
    Install(install::InstallArgs),
    /// Package the crate's server as an MCP Bundle (.mcpb) and write a
    /// server.json for the MCP registry.
    Bundle(bundle::BundleArgs),
}

/// Where `cargo` left the crate's manifest to use.
#[derive(Debug, Clone, clap::Args)]
struct ManifestArgs {
    /// The crate's Cargo.toml (default: the one cargo finds from the current directory).
    #[arg(long, value_name = "PATH")]
    manifest_path: Option<PathBuf>,
    /// The package of the workspace whose server to use.
    #[arg(long, short = 'p', value_name = "NAME")]
    package: Option<String>,
    /// The binary of the package to use, when it has several.
    #[arg(long, value_name = "NAME")]
    bin: Option<String>,
    /// The cargo profile to build the server with (default: `release`;
    /// `dev` for `cargo codeagent dev`).
    #[arg(long, value_name = "PROFILE")]
    profile: Option<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(arguments(std::env::args_os()));
    let outcome = match cli.command {
        Command::New(args) => new::run(args),
        Command::Dev(args) => dev::run(args),
        Command::Inspect(args) => runtime().and_then(|runtime| runtime.block_on(inspect::run(args))),
        Command::Install(args) => install::run(args),
        Command::Bundle(args) => runtime().and_then(|runtime| runtime.block_on(bundle::run(args))),
    };
    match outcome {
        Ok(code) => code,
        Err(failure) => {
            eprintln!("error: {failure}");
            ExitCode::FAILURE
        }
    }
}

/// The command line without the `codeagent` cargo puts after the program
/// name when it runs `cargo codeagent ...`.
fn arguments(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    if args.get(1).is_some_and(|first| first == "codeagent") {
        args.remove(1);
    }
    args
}

/// Prints `text` on standard output; a reader that went away (`| head`) is
/// not an error.
pub(crate) fn print_out(text: &str) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush());
}

fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the async runtime: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn cargo_s_subcommand_word_is_dropped() {
        let args = arguments(["cargo-codeagent", "codeagent", "new", "x"].map(OsString::from));
        assert_eq!(args, ["cargo-codeagent", "new", "x"].map(OsString::from));
        let direct = arguments(["cargo-codeagent", "new", "codeagent"].map(OsString::from));
        assert_eq!(direct, ["cargo-codeagent", "new", "codeagent"].map(OsString::from));
    }
}
