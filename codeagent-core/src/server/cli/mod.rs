//! The small command line every codeagent server gets from `run()`.

#[cfg(feature = "agent")]
mod agent;

use std::io::IsTerminal;
use std::process::ExitCode;

use serde_json::{Map, Value};

use super::{STATE_KEY_VAR, Server, StateKeys};
use crate::mcp::ProtocolVersion;
use crate::mcp::ToolDefinition;
use crate::provider::{self, NotStrict, Provider, Strictness};
use crate::toolbox::{InvalidCursor, Page};

const USAGE: &str = "\
usage: SERVER [--mount NAME=SERVER [--env KEY[=VALUE] ...] [--client-credentials ID[:SECRET_ENV] [--client-key PEM] [--token-exchange] [--issuer URL] [--scope S]] ...] [--skills DIR] [--tool-timeout SECS] [--log-requests] [--http ADDR [--ui] [--allow-unauthenticated] [--store URL] [--auth-issuer URL --auth-resource URL [--auth-scopes SCOPES] [--auth-dpop allowed|required [--auth-dpop-nonces]]] | --list [--protocol VERSION | --format FORMAT [--strict]] | --call NAME [ARGS_JSON]
              | --agent PROMPT --model PROVIDER:MODEL [--stream | --no-stream] | --help]

  (no flag)                    serve MCP on stdin/stdout (newline-delimited JSON-RPC)
  --http ADDR                  serve MCP over Streamable HTTP at http://ADDR/mcp (e.g. 127.0.0.1:8080)
  --http ADDR --ui             also serve the host page at http://ADDR/: try the tools in a browser
                               With CODEAGENT_HTTP_TOKEN set, every request must carry
                               `Authorization: Bearer <token>`. A non-loopback ADDR is refused
                               without it unless --allow-unauthenticated is given (for a proxy
                               in front that authorizes requests itself)
  --http ADDR --auth-issuer ISSUER_URL --auth-resource RESOURCE_URL [--auth-scopes 'a b']
                               an OAuth 2.1 resource server (needs the `auth` feature): tokens of
                               ISSUER_URL for RESOURCE_URL (this endpoint's public URL) are
                               required, tools with scopes need them (403 otherwise) and lists
                               show each token what it may use; --auth-scopes are advertised in
                               the resource metadata and the 401 challenge. A non-loopback ADDR
                               needs no --allow-unauthenticated with it
  --auth-dpop allowed|required [--auth-dpop-nonces]
                               with --auth-issuer: accept DPoP-bound tokens (RFC 9449) with their
                               proofs, beside bearer tokens (allowed) or alone (required); with
                               --auth-dpop-nonces proofs must carry a nonce the server hands out
                               (DPoP-Nonce). Used proofs and the nonce key go to --store when given
  --http ADDR --store redis://HOST:PORT
                               keep legacy sessions in Redis, so that several instances behind
                               one load balancer serve them (needs the `redis` feature)
  --list [--protocol VERSION]  print the tools/list result (default version: the latest)
  --list --format FORMAT [--strict]
                               print the tool definitions for an LLM API; FORMAT: openai,
                               openai-responses, anthropic or gemini; --strict: in the API's
                               strict form, failing (exit 2) when a tool has none
  --call NAME [ARGS_JSON]      run one tool and print its tool-result event JSON
  --agent PROMPT --model PROVIDER:MODEL [--stream | --no-stream]
                               let a model use the tools: PROVIDER is openai, openai-responses,
                               anthropic or gemini; prints each tool-result event as one JSON line
                               as its tool finishes, then the model's answer (streamed unless
                               --no-stream). Reads OPENAI_BASE_URL (with /v1) and OPENAI_API_KEY,
                               ANTHROPIC_BASE_URL (host root) and ANTHROPIC_API_KEY, GEMINI_BASE_URL
                               (with /v1beta) and GEMINI_API_KEY
  --mount NAME=SERVER          serve another MCP server's tools, resources
                               and prompts too, as NAME_tool, NAME+uri and NAME_prompt. SERVER is an
                               http(s):// URL (Streamable HTTP) or a command line (stdio; quote it:
                               --mount time='uvx mcp-server-time'). Repeatable. A command gets only
                               HOME, LOGNAME, PATH, SHELL, TERM and USER of this environment
  --env KEY | --env KEY=VALUE  after a --mount of a command: give it KEY of this environment, or
                               KEY=VALUE. Repeatable
  --client-credentials ID[:SECRET_ENV]
                               after a --mount of a URL that needs OAuth: reach it with a token of
                               the client credentials grant, as client ID, its secret read from the
                               environment variable SECRET_ENV (never from the command line), or
                               signed with --client-key PEM (private_key_jwt, an ES256 or RS256 key
                               in a PEM file). --issuer URL: the authorization server the
                               credentials are for (else the one the server's discovery names).
                               --scope 'a b': the scopes asked for (else the server's).
                               --token-exchange: a mounted tool, resource or prompt used by a
                               caller this server verified (--auth-issuer) is reached with the
                               caller's token exchanged for one of the mounted server (RFC 8693),
                               as client ID; other callers are refused. The caller's own token is
                               never forwarded
  --skills DIR                 serve the agent skills of DIR (each folder with a
                               SKILL.md) as the skills extension: skill:// resources, skills/list
                               and skills/get with each file's SHA-256 digest and size. DIR is read
                               once, at start; a malformed skill is an error naming its file
  --tool-timeout SECS          stop a tool call after SECS seconds (its result
                               is then a tool error naming the limit)
  --log-requests               log each request (method, tool, outcome,
                               duration) on standard error, in a span per request
  --help                       show this help

Flags may come in any order; --env and the credentials of a --mount follow it.";

/// What `--http` asked for.
#[derive(Debug, PartialEq)]
struct HttpCommand {
    address: std::net::SocketAddr,
    host_page: bool,
    unauthenticated: bool,
    /// The shared store's URL.
    store: Option<String>,
    /// `--auth-issuer`, `--auth-resource`, `--auth-scopes`.
    auth: Option<AuthFlags>,
}

/// What `--auth-issuer ISSUER --auth-resource RESOURCE [--auth-scopes "a b"]
/// [--auth-dpop allowed|required [--auth-dpop-nonces]]` asked for.
#[derive(Debug, Default, PartialEq)]
struct AuthFlags {
    issuer: String,
    resource: String,
    scopes: Vec<String>,
    /// `--auth-dpop`: whether DPoP is required (`None`: not accepted).
    dpop_required: Option<bool>,
    /// `--auth-dpop-nonces`.
    dpop_nonces: bool,
}

/// What the command line asked for.
#[derive(Debug, PartialEq)]
enum Command {
    Serve,
    Http(HttpCommand),
    List(ProtocolVersion),
    ListFor(Provider, Strictness),
    Call { name: String, arguments: Value },
    Agent { prompt: String, model: String, stream: bool },
    Help,
}

fn parse(args: &[String]) -> Result<Command, String> {
    let mut args = args.iter().map(String::as_str);
    let command = match args.next() {
        None => return Ok(Command::Serve),
        Some("--help" | "-h") => Command::Help,
        Some("--http") => {
            let address = args.next().ok_or("--http needs an address such as 127.0.0.1:8080")?;
            let address =
                address.parse().map_err(|_| format!("`{address}` is not an address such as 127.0.0.1:8080"))?;
            let mut http = HttpCommand { address, host_page: false, unauthenticated: false, store: None, auth: None };
            let (mut issuer, mut resource, mut scopes) = (None, None, None);
            let (mut dpop_required, mut dpop_nonces) = (None, false);
            while let Some(flag) = args.next() {
                match flag {
                    "--auth-dpop" => {
                        dpop_required = match args.next() {
                            Some("allowed") => Some(false),
                            Some("required") => Some(true),
                            _ => return Err("--auth-dpop needs `allowed` or `required`".to_owned()),
                        };
                    }
                    "--auth-dpop-nonces" => dpop_nonces = true,
                    "--auth-issuer" => issuer = Some(args.next().ok_or("--auth-issuer needs the issuer's URL")?),
                    "--auth-resource" => {
                        resource = Some(args.next().ok_or("--auth-resource needs this endpoint's public URL")?);
                    }
                    "--auth-scopes" => scopes = Some(args.next().ok_or("--auth-scopes needs scopes such as \"a b\"")?),
                    "--ui" => http.host_page = true,
                    "--allow-unauthenticated" => http.unauthenticated = true,
                    "--store" => {
                        let url = args.next().ok_or("--store needs a URL such as redis://127.0.0.1:6379")?;
                        http.store = Some(url.to_owned());
                    }
                    other => {
                        return Err(format!(
                            "unexpected argument `{other}` after --http ADDR (only --ui, --allow-unauthenticated, \
                             --store URL and --auth-issuer/--auth-resource/--auth-scopes/--auth-dpop/\
                             --auth-dpop-nonces may follow)"
                        ));
                    }
                }
            }
            http.auth = match (issuer, resource) {
                _ if dpop_nonces && dpop_required.is_none() => {
                    return Err("--auth-dpop-nonces goes with --auth-dpop allowed|required".to_owned());
                }
                (Some(issuer), Some(resource)) => Some(AuthFlags {
                    issuer: issuer.to_owned(),
                    resource: resource.to_owned(),
                    scopes: scopes.unwrap_or_default().split_whitespace().map(str::to_owned).collect(),
                    dpop_required,
                    dpop_nonces,
                }),
                (None, None) if scopes.is_none() && dpop_required.is_none() => None,
                _ => {
                    return Err(
                        "--auth-issuer and --auth-resource go together (--auth-scopes and --auth-dpop with them)"
                            .to_owned(),
                    );
                }
            };
            Command::Http(http)
        }
        Some("--list") => match (args.next(), args.next()) {
            (None, _) => Command::List(ProtocolVersion::LATEST),
            (Some("--protocol"), Some(version)) => Command::List(version.parse().map_err(|error| format!("{error}"))?),
            (Some("--protocol"), None) => return Err("--protocol needs a version such as 2025-06-18".into()),
            (Some("--format"), Some(format)) => {
                let provider = format.parse().map_err(|error| format!("{error}"))?;
                let strictness = match args.next() {
                    None => Strictness::Lenient,
                    Some("--strict") => Strictness::Strict,
                    Some(other) => return Err(format!("unexpected argument `{other}` after --format {format}")),
                };
                Command::ListFor(provider, strictness)
            }
            (Some("--format"), None) => {
                return Err("--format needs one of openai, openai-responses, anthropic, gemini".into());
            }
            (Some(other), _) => return Err(format!("unexpected argument `{other}` after --list")),
        },
        Some("--call") => {
            let name = args.next().ok_or("--call needs a tool name")?.to_owned();
            let arguments = match args.next() {
                None => Value::Object(Map::new()),
                Some(json) => {
                    serde_json::from_str(json).map_err(|error| format!("the arguments are not valid JSON: {error}"))?
                }
            };
            Command::Call { name, arguments }
        }
        Some("--agent") => {
            let prompt = args.next().ok_or("--agent needs a prompt")?.to_owned();
            let mut model = None;
            let mut stream = true;
            while let Some(option) = args.next() {
                match option {
                    "--model" => {
                        model = Some(args.next().ok_or("--model needs PROVIDER:MODEL, such as openai:gpt-4.1")?)
                    }
                    "--stream" => stream = true,
                    "--no-stream" => stream = false,
                    other => return Err(format!("unexpected argument `{other}` after --agent")),
                }
            }
            let model = model.ok_or("--agent needs --model PROVIDER:MODEL, such as openai:gpt-4.1")?.to_owned();
            Command::Agent { prompt, model, stream }
        }
        Some(other) => return Err(format!("unknown argument `{other}`")),
    };
    match args.next() {
        Some(extra) => Err(format!("unexpected argument `{extra}`")),
        None => Ok(command),
    }
}

/// Runs the command line; the process's exit code: 0 on success, 1 when the
/// tool called with `--call` failed or the `--agent` run failed (the model
/// unreachable, an HTTP error, the turn limit), 2 for a usage error, a failure
/// to serve, a tool `--list --format F --strict` cannot offer, or an `--agent`
/// run that cannot start (a bad `--model`, a missing key); one stderr line each.
pub(super) async fn run(server: Server, args: Vec<String>) -> ExitCode {
    install_logging();
    let (leading, args) = match split_leading(in_order(args)) {
        Ok(split) => split,
        Err(problem) => {
            eprintln!("error: {problem}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let command = match parse(&args) {
        Ok(command) => command,
        Err(problem) => {
            eprintln!("error: {problem}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    // The one place the library reads `CODEAGENT_STATE_KEY`: keys set there
    // sign and verify `requestState` (every instance behind one endpoint
    // needs the same), a bad one is refused before anything is served.
    let server = match StateKeys::from_env() {
        Ok(Some(keys)) => server.with_state_keys(keys),
        Ok(None) => server,
        Err(problem) => {
            eprintln!("error: {STATE_KEY_VAR}: {problem}");
            return ExitCode::from(2);
        }
    };
    let server = leading.middleware(server);
    let server = match &leading.skills {
        Some(dir) => match with_skills(server, dir) {
            Ok(server) => server,
            Err(problem) => {
                eprintln!("error: --skills {}: {problem}", dir.display());
                return ExitCode::from(2);
            }
        },
        None => server,
    };
    for flag in leading.mounts {
        if let Err(problem) = mount(&server, &flag).await {
            eprintln!("error: --mount {}: {}", flag.name, crate::log_text::escaped(&problem));
            return ExitCode::from(2);
        }
    }
    match execute(server, command).await {
        Ok(code) => code,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::from(2)
        }
    }
}

/// One `--mount NAME=SERVER` of a command line, with its `--env`s.
#[derive(Debug, Default, PartialEq)]
struct MountFlag {
    name: String,
    target: String,
    /// `--env KEY=VALUE` (a value) and `--env KEY` (`None`: this process's own).
    env: Vec<(String, Option<String>)>,
    /// `--client-credentials ID[:SECRET_ENV]`: the client id, and the
    /// variable holding its secret.
    client: Option<(String, Option<String>)>,
    /// `--client-key PEM_PATH`.
    client_key: Option<std::path::PathBuf>,
    /// `--token-exchange`.
    token_exchange: bool,
    /// `--issuer URL`.
    issuer: Option<String>,
    /// `--scope S` (repeatable, each a space-separated list).
    scopes: Vec<String>,
}

/// The `--mount`s of a command line.
type Mounts = Vec<MountFlag>;

/// The options that lead the command line, before its command.
#[derive(Debug, Default, PartialEq)]
struct Leading {
    /// The `--mount NAME=SERVER` pairs.
    mounts: Mounts,
    /// `--tool-timeout SECS`.
    tool_timeout: Option<std::time::Duration>,
    /// `--log-requests`.
    log_requests: bool,
    /// `--skills DIR`.
    skills: Option<std::path::PathBuf>,
}

impl Leading {
    /// `server` with the middleware the options ask for.
    fn middleware(&self, server: Server) -> Server {
        let server = if self.log_requests {
            server.with_middleware(super::trace::Trace::new()).with_middleware(super::middleware::RequestLog::new())
        } else {
            server
        };
        match self.tool_timeout {
            Some(limit) => server.with_middleware(super::middleware::Timeout::new(limit)),
            None => server,
        }
    }
}

/// How many values each flag takes; `--call` takes one and an optional
/// second (its arguments, JSON, which never starts with `--`).
fn arity(flag: &str) -> Option<usize> {
    Some(match flag {
        "--mount"
        | "--env"
        | "--client-credentials"
        | "--client-key"
        | "--issuer"
        | "--scope"
        | "--tool-timeout"
        | "--skills"
        | "--http"
        | "--auth-dpop"
        | "--auth-issuer"
        | "--auth-resource"
        | "--auth-scopes"
        | "--store"
        | "--protocol"
        | "--format"
        | "--model"
        | "--agent"
        | "--call" => 1,
        "--token-exchange"
        | "--log-requests"
        | "--ui"
        | "--allow-unauthenticated"
        | "--auth-dpop-nonces"
        | "--strict"
        | "--stream"
        | "--no-stream"
        | "--list"
        | "--help"
        | "-h" => 0,
        _ => return None,
    })
}

/// The flags that come before the command: what is served and how.
fn is_leading(flag: &str) -> bool {
    matches!(
        flag,
        "--mount"
            | "--env"
            | "--client-credentials"
            | "--client-key"
            | "--token-exchange"
            | "--issuer"
            | "--scope"
            | "--tool-timeout"
            | "--log-requests"
            | "--skills"
    )
}

/// The command line with its flags in the order the parser reads them, so
/// that a user may give them in any order: the serving options first (in
/// their order: a `--mount`'s `--env` and credentials still follow it), then
/// the command (`--http`, `--list`, `--call`, `--agent`, `--help`), then the
/// command's own options. `gallery --http 127.0.0.1:8080 --mount x=...` is
/// `gallery --mount x=... --http 127.0.0.1:8080`. A line with an unknown
/// flag or a flag missing its value is left as it is, for the parser to
/// name what is wrong.
fn in_order(args: Vec<String>) -> Vec<String> {
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut rest = args.iter().peekable();
    while let Some(flag) = rest.next() {
        let Some(count) = arity(flag) else { return args };
        let mut group = vec![flag.clone()];
        for _ in 0..count {
            match rest.next() {
                Some(value) => group.push(value.clone()),
                None => return args,
            }
        }
        if flag == "--call" && rest.peek().is_some_and(|next| !next.starts_with("--")) {
            group.extend(rest.next().cloned());
        }
        groups.push(group);
    }
    let (leading, others): (Vec<_>, Vec<_>) = groups.into_iter().partition(|group| is_leading(&group[0]));
    let (command, options): (Vec<_>, Vec<_>) = others
        .into_iter()
        .partition(|group| matches!(group[0].as_str(), "--http" | "--list" | "--call" | "--agent" | "--help" | "-h"));
    leading.into_iter().chain(command).chain(options).flatten().collect()
}

/// The options that lead the command line (`--mount`, `--tool-timeout`,
/// `--log-requests`), and the rest.
fn split_leading(args: Vec<String>) -> Result<(Leading, Vec<String>), String> {
    let mut leading = Leading::default();
    let mut rest = args.into_iter().peekable();
    loop {
        match rest.peek().map(String::as_str) {
            Some("--mount") => {
                rest.next();
                let pair = rest.next().ok_or("--mount needs NAME=SERVER, such as time='uvx mcp-server-time'")?;
                let (name, target) = pair
                    .split_once('=')
                    .filter(|(name, target)| !name.is_empty() && !target.trim().is_empty())
                    .ok_or_else(|| {
                        format!("--mount `{pair}`: expected NAME=SERVER, such as docs=http://127.0.0.1:9000/mcp")
                    })?;
                leading.mounts.push(MountFlag {
                    name: name.to_owned(),
                    target: target.to_owned(),
                    ..MountFlag::default()
                });
            }
            Some("--env") => {
                rest.next();
                let text = rest.next().ok_or("--env needs KEY or KEY=VALUE, such as --env GITHUB_TOKEN")?;
                let mount = leading
                    .mounts
                    .last_mut()
                    .ok_or_else(|| format!("--env `{text}` must follow the --mount whose server it is for"))?;
                let (key, value) = match text.split_once('=') {
                    Some((key, value)) => (key, Some(value.to_owned())),
                    None => (text.as_str(), None),
                };
                if key.is_empty() || key.contains('\0') || value.as_deref().is_some_and(|value| value.contains('\0')) {
                    return Err(format!("--env `{text}`: expected KEY or KEY=VALUE, such as --env GITHUB_TOKEN"));
                }
                mount.env.push((key.to_owned(), value));
            }
            Some(flag @ ("--client-credentials" | "--client-key" | "--token-exchange" | "--issuer" | "--scope")) => {
                let flag = flag.to_owned();
                rest.next();
                let mount = leading
                    .mounts
                    .last_mut()
                    .ok_or_else(|| format!("{flag} must follow the --mount NAME=URL whose server it is for"))?;
                let mut value = |what: &str| rest.next().ok_or_else(|| format!("{flag} needs {what}"));
                match flag.as_str() {
                    "--client-credentials" => {
                        let text = value("ID[:SECRET_ENV], such as gateway:GATEWAY_SECRET")?;
                        let (id, secret_env) = match text.split_once(':') {
                            Some((id, variable)) => (id, Some(variable.to_owned())),
                            None => (text.as_str(), None),
                        };
                        if id.is_empty() || secret_env.as_deref().is_some_and(str::is_empty) {
                            return Err(format!(
                                "--client-credentials `{text}`: expected ID or ID:SECRET_ENV (the name of the \
                                 environment variable holding the secret)"
                            ));
                        }
                        mount.client = Some((id.to_owned(), secret_env));
                    }
                    "--client-key" => mount.client_key = Some(value("the path of a PEM private key")?.into()),
                    "--token-exchange" => mount.token_exchange = true,
                    "--issuer" => mount.issuer = Some(value("the authorization server's issuer URL")?),
                    _ => {
                        mount.scopes.extend(value("scopes such as 'notes:read'")?.split_whitespace().map(str::to_owned))
                    }
                }
            }
            Some("--tool-timeout") => {
                rest.next();
                let text = rest.next().ok_or("--tool-timeout needs a number of seconds, such as 30")?;
                let seconds = text
                    .parse::<f64>()
                    .ok()
                    .filter(|seconds| seconds.is_finite() && *seconds > 0.0)
                    .ok_or_else(|| format!("--tool-timeout `{text}`: expected a positive number of seconds"))?;
                leading.tool_timeout = Some(std::time::Duration::from_secs_f64(seconds.min(1e9)));
            }
            Some("--log-requests") => {
                rest.next();
                leading.log_requests = true;
            }
            Some("--skills") => {
                rest.next();
                let dir = rest.next().ok_or("--skills needs a folder of skills, such as ./skills")?;
                leading.skills = Some(dir.into());
            }
            _ => return Ok((leading, rest.collect())),
        }
    }
}

/// `server` serving the skills of folder `dir`.
fn with_skills(server: Server, dir: &std::path::Path) -> Result<Server, String> {
    #[cfg(feature = "skills")]
    {
        let skills = crate::skills::Skills::from_dir(dir).map_err(|error| error.to_string())?;
        tracing::info!("serving {} skills from {}", skills.len(), dir.display());
        server.with_skills(skills).map_err(|error| error.to_string())
    }
    #[cfg(not(feature = "skills"))]
    {
        let _ = (server, dir);
        Err("serving skills needs the `skills` feature".to_owned())
    }
}

/// Connects to the server of `flag` (a command started with its `--env`s)
/// and mounts it into the server's toolbox under its name.
async fn mount(server: &Server, flag: &MountFlag) -> Result<(), String> {
    use crate::client::{Client, Handlers};
    let MountFlag { name, target, env, .. } = flag;
    let remote = target.trim_start().starts_with("http://") || target.trim_start().starts_with("https://");
    if remote && !env.is_empty() {
        return Err("--env gives variables to a command; this server is a URL".into());
    }
    let mut builder = Client::builder().handlers(Handlers::forward());
    if let Some(oauth) = mount_oauth(flag, remote).await? {
        builder = builder.oauth(oauth);
    }
    for (key, value) in env {
        builder = match value {
            Some(value) => builder.env(key, value),
            None => builder.inherit_env(key),
        };
    }
    let client = builder.connect(target).await.map_err(|error| error.to_string())?;
    let server_name = crate::log_text::escaped(client.server_name());
    tracing::info!("mounted `{server_name}` ({}) as {name}", client.protocol_version());
    server.toolbox().mount(name, client).await.map_err(|error| error.to_string())
}

/// The OAuth of a mount's `--client-credentials` and the flags with it,
/// if it has them; what is wrong with them otherwise.
async fn mount_oauth(flag: &MountFlag, remote: bool) -> Result<Option<crate::client::OAuth>, String> {
    use crate::client::{ClientKey, Credential, OAuth};
    let Some((client_id, secret_env)) = &flag.client else {
        if flag.client_key.is_some() || flag.token_exchange || flag.issuer.is_some() || !flag.scopes.is_empty() {
            return Err("--client-key, --token-exchange, --issuer and --scope go with --client-credentials \
                        ID[:SECRET_ENV]"
                .to_owned());
        }
        return Ok(None);
    };
    if !remote {
        return Err("--client-credentials is for a server reached at a URL; this one is a command".to_owned());
    }
    let credential = match (secret_env, &flag.client_key) {
        (Some(_), Some(_)) => {
            return Err("--client-credentials ID:SECRET_ENV and --client-key are two credentials: give one".to_owned());
        }
        (None, None) => {
            return Err(format!(
                "--client-credentials {client_id} needs a credential: ID:SECRET_ENV (the environment variable \
                 holding the secret) or --client-key PEM_PATH"
            ));
        }
        (Some(variable), None) => match std::env::var(variable) {
            Ok(secret) if !secret.trim().is_empty() => Credential::secret(secret.trim()),
            _ => {
                return Err(format!(
                    "the environment variable `{variable}` (the secret of --client-credentials {client_id}) is not \
                     set or is empty"
                ));
            }
        },
        (None, Some(path)) => {
            let pem =
                std::fs::read_to_string(path).map_err(|error| format!("--client-key {}: {error}", path.display()))?;
            let key = ClientKey::from_pem(&pem).map_err(|error| format!("--client-key {}: {error}", path.display()))?;
            Credential::private_key(key)
        }
    };
    let issuer = match &flag.issuer {
        Some(issuer) => issuer.clone(),
        None => {
            let issuer = OAuth::issuer_of(flag.target.trim()).await.map_err(|error| {
                format!("finding the issuer of {} (give it with --issuer URL): {error}", flag.target.trim())
            })?;
            tracing::info!(
                "--mount {}: the credentials of {client_id} are for `{}`, the issuer the server names",
                flag.name,
                crate::log_text::escaped(&issuer)
            );
            issuer
        }
    };
    let mut oauth = OAuth::client_credentials(issuer, client_id.clone(), credential);
    if !flag.scopes.is_empty() {
        oauth = oauth.scopes(flag.scopes.clone());
    }
    if flag.token_exchange {
        oauth = oauth.token_exchange();
    }
    Ok(Some(oauth))
}

/// Writes `text` and a newline to standard output; a closed pipe (`--list |
/// head`) is not a failure, any other error is returned rather than a panic.
fn print_out(text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|()| out.flush()) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

async fn execute(server: Server, command: Command) -> std::io::Result<ExitCode> {
    match command {
        Command::Help => print_out(USAGE)?,
        Command::Http(http) => return serve_http(&server, http).await,
        Command::List(version) => {
            let listing = full_listing(&server).map_err(std::io::Error::other)?.to_wire(version);
            print_out(&serde_json::to_string_pretty(&listing).map_err(std::io::Error::other)?)?;
        }
        Command::ListFor(provider, strictness) => match provider::tools(server.toolbox(), provider, strictness) {
            Ok(offered) => print_out(&serde_json::to_string_pretty(&offered.tools).map_err(std::io::Error::other)?)?,
            Err(refused) => {
                for NotStrict { tool, reason } in refused {
                    eprintln!("error: tool `{tool}` cannot be offered to {provider}: {reason}");
                }
                return Ok(ExitCode::from(2));
            }
        },
        Command::Call { name, arguments } => {
            let result = server.toolbox().tools().call(&name, arguments).await.map_err(std::io::Error::other)?;
            let failed = result.is_error();
            let event = result.into_event("cli", name);
            print_out(&serde_json::to_string_pretty(&event).map_err(std::io::Error::other)?)?;
            if failed {
                return Ok(ExitCode::FAILURE);
            }
        }
        Command::Agent { prompt, model, stream } => return Ok(run_agent(&server, prompt, &model, stream).await),
        Command::Serve => {
            if std::io::stdin().is_terminal() {
                let info = server.info();
                let exe = std::env::args().next().unwrap_or_else(|| "SERVER".into());
                eprintln!(
                    "{} {} is an MCP server with {} tools. It speaks JSON-RPC on stdin/stdout, so an MCP client \
                     (Claude Desktop, VS Code, ...) should start it.\nTry it by hand:\n  {exe} --list\n  {exe} --call NAME '{{\"arg\": 1}}'\n\
                     Waiting for MCP messages on stdin (Ctrl-D ends).",
                    info.name,
                    info.version,
                    server.toolbox().tools().len(),
                );
            }
            server.serve_stdio().await?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The environment variable holding the bearer token `--http` requires.
#[cfg(feature = "http")]
const TOKEN_VARIABLE: &str = "CODEAGENT_HTTP_TOKEN";

#[cfg(feature = "http")]
async fn serve_http(server: &Server, command: HttpCommand) -> std::io::Result<ExitCode> {
    let HttpCommand { address, host_page, unauthenticated, store, auth } = command;
    let mut options = super::http::HttpOptions::new();
    let authorizes = auth.is_some();
    let server = match auth {
        Some(auth) => match resource_server(server, auth, options) {
            Ok((server, with_auth)) => {
                options = with_auth;
                server
            }
            Err(problem) => {
                eprintln!("error: {problem}");
                return Ok(ExitCode::from(2));
            }
        },
        None => server.clone(),
    };
    let server = &server;
    if let Some(url) = store {
        match open_store(&url).await {
            Ok(store) => options = options.with_store(store),
            Err(problem) => {
                eprintln!("error: {problem}");
                return Ok(ExitCode::from(2));
            }
        }
    }
    if host_page {
        options = options.with_host_page();
    }
    let token = std::env::var(TOKEN_VARIABLE).ok().filter(|token| !token.trim().is_empty());
    match token {
        Some(token) => options = options.with_authorizer(super::http::BearerToken::new(token.trim())),
        None if !address.ip().is_loopback() && !unauthenticated && !authorizes => {
            eprintln!(
                "error: refusing to serve MCP on {address}, which other machines can reach, without authorization: \
                 set {TOKEN_VARIABLE} to a bearer token clients must send, or pass --allow-unauthenticated \
                 when a proxy in front authorizes requests"
            );
            return Ok(ExitCode::from(2));
        }
        None => {}
    }
    let options = if address.ip().is_loopback() { options } else { options.with_any_host() };
    // Bound first, so the banner names the real port of `127.0.0.1:0`.
    let listener = tokio::net::TcpListener::bind(address).await?;
    let address = listener.local_addr()?;
    eprintln!("{} {} serving MCP at http://{address}/mcp", server.info().name, server.info().version);
    if host_page {
        eprintln!("the host page is at http://{address}/");
    }
    server.serve_http_on(listener, options).await?;
    Ok(ExitCode::SUCCESS)
}

/// `server` as the OAuth 2.1 resource server `auth` describes: its lists
/// filtered by scope, and `options` checking tokens.
#[cfg(feature = "auth")]
fn resource_server(
    server: &Server,
    auth: AuthFlags,
    options: super::http::HttpOptions,
) -> Result<(Server, super::http::HttpOptions), String> {
    use super::auth::{DpopPolicy, ResourceServer, ScopeFilter};
    let mut resource_server = ResourceServer::new(auth.issuer, auth.resource).with_scopes_supported(auth.scopes);
    if let Some(required) = auth.dpop_required {
        let policy = if required { DpopPolicy::required() } else { DpopPolicy::allowed() };
        resource_server = resource_server.with_dpop(if auth.dpop_nonces { policy.with_nonces() } else { policy });
    }
    let filtered = server.clone().with_middleware(ScopeFilter::new(server.toolbox()));
    Ok((filtered, options.with_resource_server(resource_server)))
}

/// Without the `auth` feature there is no resource server.
#[cfg(all(feature = "http", not(feature = "auth")))]
fn resource_server(
    _: &Server,
    _: AuthFlags,
    _: super::http::HttpOptions,
) -> Result<(Server, super::http::HttpOptions), String> {
    Err("--auth-issuer: this server was built without the `auth` feature of codeagent".to_owned())
}

/// The store `--store URL` names.
#[cfg(feature = "http")]
async fn open_store(url: &str) -> Result<std::sync::Arc<dyn super::store::Store>, String> {
    if !(url.starts_with("redis://") || url.starts_with("rediss://")) {
        return Err(format!("--store `{url}`: the store is named by a URL such as redis://127.0.0.1:6379"));
    }
    #[cfg(feature = "redis")]
    {
        let store = super::store::RedisStore::connect(url).await.map_err(|error| format!("--store {url}: {error}"))?;
        Ok(std::sync::Arc::new(store))
    }
    #[cfg(not(feature = "redis"))]
    Err(format!("--store {url}: this server was built without the `redis` feature of codeagent"))
}

#[cfg(not(feature = "http"))]
async fn serve_http(_: &Server, _: HttpCommand) -> std::io::Result<ExitCode> {
    eprintln!("error: this server was built without the `http` feature of codeagent");
    Ok(ExitCode::from(2))
}

#[cfg(feature = "agent")]
async fn run_agent(server: &Server, prompt: String, model: &str, stream: bool) -> ExitCode {
    agent::run(server, prompt, model, stream).await
}

#[cfg(not(feature = "agent"))]
async fn run_agent(_: &Server, _: String, _: &str, _: bool) -> ExitCode {
    eprintln!("error: this server was built without the `agent` feature of codeagent");
    ExitCode::from(2)
}

/// Every page of the listing, as one page.
fn full_listing(server: &Server) -> Result<Page<ToolDefinition>, InvalidCursor> {
    let mut listing = server.toolbox().tools().list(None)?;
    while let Some(next) = listing.next_cursor.take() {
        let mut page = server.toolbox().tools().list(Some(&next))?;
        listing.items.append(&mut page.items);
        listing.next_cursor = page.next_cursor;
    }
    Ok(listing)
}

/// Logs go to standard error, at `info` unless `CODEAGENT_LOG` names a level;
/// a subscriber the program installed itself is left alone.
fn install_logging() {
    let level = std::env::var("CODEAGENT_LOG")
        .ok()
        .and_then(|level| level.parse::<tracing_subscriber::filter::LevelFilter>().ok())
        .unwrap_or(tracing_subscriber::filter::LevelFilter::INFO);
    let _ = tracing_subscriber::fmt().with_writer(std::io::stderr).with_max_level(level).try_init();
}

#[cfg(test)]
mod tests {
    use super::{AuthFlags, Command, HttpCommand, in_order, parse, split_leading};
    use crate::mcp::ProtocolVersion;
    use crate::provider::{Provider, Strictness};

    fn args(text: &[&str]) -> Vec<String> {
        text.iter().map(|arg| (*arg).to_owned()).collect()
    }

    #[test]
    fn mounts_lead_the_command_line() {
        let (leading, rest) =
            split_leading(args(&["--mount", "time=uvx mcp-server-time", "--mount", "web=http://h/mcp", "--list"]))
                .unwrap();
        let pairs: Vec<(&str, &str)> =
            leading.mounts.iter().map(|mount| (mount.name.as_str(), mount.target.as_str())).collect();
        assert_eq!(pairs, [("time", "uvx mcp-server-time"), ("web", "http://h/mcp")]);
        assert_eq!(rest, ["--list"]);
        assert!(split_leading(args(&["--mount"])).unwrap_err().contains("needs NAME=SERVER"));
        assert!(split_leading(args(&["--mount", "time"])).unwrap_err().contains("expected NAME=SERVER"));
        assert!(split_leading(args(&["--mount", "=x"])).unwrap_err().contains("expected NAME=SERVER"));
    }

    #[test]
    fn env_follows_its_mount() {
        let (leading, rest) = split_leading(args(&[
            "--mount",
            "gh=npx server-github",
            "--env",
            "GITHUB_TOKEN",
            "--env",
            "LOG=debug",
            "--env",
            "EMPTY=",
            "--mount",
            "time=uvx mcp-server-time",
            "--list",
        ]))
        .unwrap();
        assert_eq!(rest, ["--list"]);
        assert_eq!(
            leading.mounts[0].env,
            [
                ("GITHUB_TOKEN".to_owned(), None),
                ("LOG".to_owned(), Some("debug".to_owned())),
                ("EMPTY".to_owned(), Some(String::new()))
            ]
        );
        assert!(leading.mounts[1].env.is_empty());
        assert!(split_leading(args(&["--env", "A=b", "--list"])).unwrap_err().contains("must follow the --mount"));
        assert!(split_leading(args(&["--mount", "a=b", "--env"])).unwrap_err().contains("needs KEY or KEY=VALUE"));
        assert!(split_leading(args(&["--mount", "a=b", "--env", "=x"])).unwrap_err().contains("expected KEY"));
    }

    #[test]
    fn client_credentials_follow_their_mount() {
        let (leading, rest) = split_leading(args(&[
            "--mount",
            "docs=http://127.0.0.1:9000/mcp",
            "--client-credentials",
            "gateway:GATEWAY_SECRET",
            "--token-exchange",
            "--issuer",
            "https://id.example",
            "--scope",
            "notes:read notes:write",
            "--mount",
            "keyed=https://k.example/mcp",
            "--client-credentials",
            "agent",
            "--client-key",
            "key.pem",
            "--list",
        ]))
        .unwrap();
        assert_eq!(rest, ["--list"]);
        let docs = &leading.mounts[0];
        assert_eq!(docs.client, Some(("gateway".to_owned(), Some("GATEWAY_SECRET".to_owned()))));
        assert!(docs.token_exchange);
        assert_eq!(docs.issuer.as_deref(), Some("https://id.example"));
        assert_eq!(docs.scopes, ["notes:read", "notes:write"]);
        let keyed = &leading.mounts[1];
        assert_eq!(keyed.client, Some(("agent".to_owned(), None)));
        assert_eq!(keyed.client_key, Some(std::path::PathBuf::from("key.pem")));
        assert!(!keyed.token_exchange);
        let alone = split_leading(args(&["--token-exchange", "--list"])).unwrap_err();
        assert!(alone.contains("must follow the --mount"), "{alone}");
        let bad = split_leading(args(&["--mount", "a=http://h/mcp", "--client-credentials", "id:"])).unwrap_err();
        assert!(bad.contains("expected ID or ID:SECRET_ENV"), "{bad}");
        let bad = split_leading(args(&["--mount", "a=http://h/mcp", "--issuer"])).unwrap_err();
        assert!(bad.contains("--issuer needs"), "{bad}");
    }

    #[tokio::test]
    async fn client_credentials_of_a_mount_are_checked_before_use() {
        use super::{MountFlag, mount_oauth};
        let flag = |client: Option<(&str, Option<&str>)>| MountFlag {
            name: "docs".into(),
            target: "http://127.0.0.1:9/mcp".into(),
            client: client.map(|(id, env)| (id.to_owned(), env.map(str::to_owned))),
            issuer: Some("http://127.0.0.1:9".into()),
            ..MountFlag::default()
        };
        assert!(mount_oauth(&MountFlag { issuer: None, ..flag(None) }, true).await.unwrap().is_none());
        let lone = MountFlag { token_exchange: true, ..flag(None) };
        assert!(mount_oauth(&lone, true).await.unwrap_err().contains("go with --client-credentials"));
        let none = mount_oauth(&flag(Some(("gw", None))), true).await.unwrap_err();
        assert!(none.contains("needs a credential"), "{none}");
        let unset = mount_oauth(&flag(Some(("gw", Some("CODEAGENT_TEST_UNSET_SECRET")))), true).await.unwrap_err();
        assert!(unset.contains("`CODEAGENT_TEST_UNSET_SECRET`") && unset.contains("not set"), "{unset}");
        let command = mount_oauth(&flag(Some(("gw", Some("X")))), false).await.unwrap_err();
        assert!(command.contains("this one is a command"), "{command}");
        let both = MountFlag { client_key: Some("k.pem".into()), ..flag(Some(("gw", Some("X")))) };
        assert!(mount_oauth(&both, true).await.unwrap_err().contains("give one"));
        let missing = MountFlag { client_key: Some("/nonexistent/k.pem".into()), ..flag(Some(("gw", None))) };
        assert!(mount_oauth(&missing, true).await.unwrap_err().contains("--client-key /nonexistent/k.pem"));
    }

    #[test]
    fn middleware_options_lead_the_command_line() {
        let (leading, rest) =
            split_leading(args(&["--tool-timeout", "2.5", "--log-requests", "--mount", "a=b c", "--http", "x"]))
                .unwrap();
        assert_eq!(leading.tool_timeout, Some(std::time::Duration::from_millis(2500)));
        assert!(leading.log_requests);
        assert_eq!(leading.mounts.len(), 1);
        assert_eq!(rest, ["--http", "x"]);
        assert!(split_leading(args(&["--tool-timeout"])).unwrap_err().contains("needs a number of seconds"));
        for bad in ["0", "-1", "soon", "NaN", "inf"] {
            let problem = split_leading(args(&["--tool-timeout", bad])).unwrap_err();
            assert!(problem.contains("expected a positive number of seconds"), "{bad}: {problem}");
        }
    }

    #[test]
    fn flags_come_in_any_order() {
        let ordered = |line: &[&str]| in_order(args(line));
        assert_eq!(
            ordered(&["--http", "127.0.0.1:8080", "--mount", "x=http://h/mcp", "--ui"]),
            ["--mount", "x=http://h/mcp", "--http", "127.0.0.1:8080", "--ui"]
        );
        assert_eq!(
            ordered(&["--ui", "--log-requests", "--http", "127.0.0.1:8080", "--tool-timeout", "3"]),
            ["--log-requests", "--tool-timeout", "3", "--http", "127.0.0.1:8080", "--ui"]
        );
        assert_eq!(
            ordered(&["--mount", "a=b", "--http", "x", "--env", "K", "--skills", "s"]),
            ["--mount", "a=b", "--env", "K", "--skills", "s", "--http", "x"]
        );
        assert_eq!(
            ordered(&["--strict", "--format", "openai", "--list"]),
            ["--list", "--strict", "--format", "openai"]
        );
        assert_eq!(ordered(&["--call", "add", "{}", "--log-requests"]), ["--log-requests", "--call", "add", "{}"]);
        assert_eq!(ordered(&["--call", "add", "--log-requests"]), ["--log-requests", "--call", "add"]);
        assert_eq!(ordered(&["--model", "a:b", "--agent", "hi"]), ["--agent", "hi", "--model", "a:b"]);
        // Left as they are, for the parser to name what is wrong.
        assert_eq!(ordered(&["--ui", "--frob", "--http", "x"]), ["--ui", "--frob", "--http", "x"]);
        assert_eq!(ordered(&["--ui", "--http"]), ["--ui", "--http"]);

        let (leading, rest) =
            split_leading(in_order(args(&["--http", "127.0.0.1:9000", "--ui", "--mount", "x=http://h/mcp"]))).unwrap();
        assert_eq!(leading.mounts.len(), 1);
        let address = "127.0.0.1:9000".parse().unwrap();
        assert_eq!(
            parse(&rest),
            Ok(Command::Http(HttpCommand {
                address,
                host_page: true,
                unauthenticated: false,
                store: None,
                auth: None
            }))
        );
        let (_, rest) = split_leading(in_order(args(&["--ui", "--http"]))).unwrap();
        assert!(parse(&rest).unwrap_err().contains("unknown argument `--ui`"));
    }

    #[test]
    fn skills_lead_the_command_line() {
        let (leading, rest) = split_leading(args(&["--skills", "./skills", "--http", "x"])).unwrap();
        assert_eq!(leading.skills, Some(std::path::PathBuf::from("./skills")));
        assert_eq!(rest, ["--http", "x"]);
        assert!(split_leading(args(&["--skills"])).unwrap_err().contains("needs a folder of skills"));
    }

    #[test]
    fn parses_the_commands_and_refuses_the_rest() {
        assert_eq!(parse(&args(&[])), Ok(Command::Serve));
        let address = "127.0.0.1:9000".parse().unwrap();
        let http = |host_page, unauthenticated| {
            Ok(Command::Http(HttpCommand { address, host_page, unauthenticated, store: None, auth: None }))
        };
        assert_eq!(parse(&args(&["--http", "127.0.0.1:9000"])), http(false, false));
        assert_eq!(parse(&args(&["--http", "127.0.0.1:9000", "--ui"])), http(true, false));
        assert_eq!(parse(&args(&["--http", "127.0.0.1:9000", "--allow-unauthenticated", "--ui"])), http(true, true));
        assert!(parse(&args(&["--http", "127.0.0.1:9000", "--gui"])).unwrap_err().contains("`--gui` after --http"));
        let stored = parse(&args(&["--http", "127.0.0.1:9000", "--store", "redis://127.0.0.1:6379", "--ui"]));
        let store = Some("redis://127.0.0.1:6379".to_owned());
        assert_eq!(
            stored,
            Ok(Command::Http(HttpCommand { address, host_page: true, unauthenticated: false, store, auth: None }))
        );
        assert!(parse(&args(&["--http", "127.0.0.1:9000", "--store"])).unwrap_err().contains("--store needs a URL"));
        assert!(parse(&args(&["--http", "nowhere"])).unwrap_err().contains("not an address"));
        let flags = ["--http", "127.0.0.1:9000", "--auth-issuer", "https://id", "--auth-resource", "https://me/mcp"];
        let Ok(Command::Http(HttpCommand { auth: Some(auth), .. })) =
            parse(&args(&[&flags[..], &["--auth-scopes", "a b"]].concat()))
        else {
            panic!("the auth flags are not parsed");
        };
        assert_eq!(
            auth,
            AuthFlags {
                issuer: "https://id".into(),
                resource: "https://me/mcp".into(),
                scopes: vec!["a".into(), "b".into()],
                ..AuthFlags::default()
            }
        );
        let alone = parse(&args(&["--http", "127.0.0.1:9000", "--auth-issuer", "https://id"])).unwrap_err();
        assert!(alone.contains("go together"), "{alone}");
        let Ok(Command::Http(HttpCommand { auth: Some(auth), .. })) =
            parse(&args(&[&flags[..], &["--auth-dpop", "required", "--auth-dpop-nonces"]].concat()))
        else {
            panic!("the DPoP flags are not parsed");
        };
        assert_eq!((auth.dpop_required, auth.dpop_nonces), (Some(true), true));
        let bad = parse(&args(&[&flags[..], &["--auth-dpop", "sometimes"]].concat())).unwrap_err();
        assert!(bad.contains("`allowed` or `required`"), "{bad}");
        let bad = parse(&args(&[&flags[..], &["--auth-dpop-nonces"]].concat())).unwrap_err();
        assert!(bad.contains("goes with --auth-dpop"), "{bad}");
        let bad = parse(&args(&["--http", "127.0.0.1:9000", "--auth-dpop", "allowed"])).unwrap_err();
        assert!(bad.contains("go together"), "{bad}");
        assert_eq!(parse(&args(&["--list"])), Ok(Command::List(ProtocolVersion::LATEST)));
        assert_eq!(
            parse(&args(&["--list", "--protocol", "2025-03-26"])),
            Ok(Command::List(ProtocolVersion::V2025_03_26))
        );
        assert!(matches!(parse(&args(&["--call", "add", r#"{"a":1}"#])), Ok(Command::Call { .. })));
        assert!(parse(&args(&["--list", "--protocol", "1999-01-01"])).unwrap_err().contains("unsupported"));
        assert!(parse(&args(&["--call"])).is_err());
        assert!(parse(&args(&["--call", "add", "{"])).unwrap_err().contains("not valid JSON"));
        assert!(parse(&args(&["--frobnicate"])).unwrap_err().contains("unknown argument"));
    }

    #[test]
    fn parses_the_provider_formats_of_list() {
        assert_eq!(
            parse(&args(&["--list", "--format", "openai"])),
            Ok(Command::ListFor(Provider::OpenAiChat, Strictness::Lenient))
        );
        assert_eq!(
            parse(&args(&["--list", "--format", "openai-responses", "--strict"])),
            Ok(Command::ListFor(Provider::OpenAiResponses, Strictness::Strict))
        );
        assert_eq!(
            parse(&args(&["--list", "--format", "anthropic", "--strict"])),
            Ok(Command::ListFor(Provider::Anthropic, Strictness::Strict))
        );
        assert_eq!(
            parse(&args(&["--list", "--format", "gemini"])),
            Ok(Command::ListFor(Provider::Gemini, Strictness::Lenient))
        );
        assert!(parse(&args(&["--list", "--format", "mistral"])).unwrap_err().contains("unknown format `mistral`"));
        assert!(parse(&args(&["--list", "--format"])).unwrap_err().contains("--format needs"));
        assert!(parse(&args(&["--list", "--format", "openai", "--lax"])).unwrap_err().contains("`--lax`"));
        assert!(parse(&args(&["--list", "--strict"])).unwrap_err().contains("unexpected argument `--strict`"));
        assert!(parse(&args(&["--list", "--format", "openai", "--strict", "x"])).unwrap_err().contains("`x`"));
    }

    #[test]
    fn parses_agent_runs() {
        let agent = |prompt: &str, model: &str, stream| {
            Ok(Command::Agent { prompt: prompt.to_owned(), model: model.to_owned(), stream })
        };
        assert_eq!(parse(&args(&["--agent", "hi", "--model", "openai:gpt-4.1"])), agent("hi", "openai:gpt-4.1", true));
        assert_eq!(
            parse(&args(&["--agent", "hi", "--no-stream", "--model", "gemini:g"])),
            agent("hi", "gemini:g", false)
        );
        assert_eq!(parse(&args(&["--agent", "hi", "--model", "x:y", "--stream"])), agent("hi", "x:y", true));
        assert!(parse(&args(&["--agent"])).unwrap_err().contains("needs a prompt"));
        assert!(parse(&args(&["--agent", "hi"])).unwrap_err().contains("needs --model"));
        assert!(parse(&args(&["--agent", "hi", "--model"])).unwrap_err().contains("--model needs"));
        assert!(parse(&args(&["--agent", "hi", "--model", "a:b", "--fast"])).unwrap_err().contains("`--fast`"));
    }
}
