//! How a client is made: its transport, protocol, handlers and limits.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::process::Command;
use tokio::sync::mpsc;

use super::handshake::{Protocol, handshake};
use super::http::{Http, HttpLimits};
use super::lines::{EnvVar, Lines};
use super::session::{Session, Settings};
use super::wire::{Inbound, Wire};
use super::{Client, ClientError, Handlers, OAuth};
use crate::toolbox::LogLevel;

/// How long a request waits for its answer unless told otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);
/// How many 2026-07-28 `input_required` rounds a request answers at most.
pub const DEFAULT_INPUT_ROUNDS: usize = 8;
/// The largest message a client reads unless told otherwise: 16 MiB, the
/// same as a codeagent server's own limit
/// ([`DEFAULT_MESSAGE_LIMIT`](crate::server::DEFAULT_MESSAGE_LIMIT)), so a
/// mounted server's answer that fits here can be served on. A JSON answer,
/// a line of a process's output and one event of a stream are each held
/// whole before they are parsed, so this bounds what one message of a
/// server costs the client.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 16 * 1024 * 1024;

/// Makes a [`Client`]: set what differs from the defaults, then connect with
/// [`stdio`](ClientBuilder::stdio), [`http`](ClientBuilder::http),
/// [`stream`](ClientBuilder::stream) or [`connect`](ClientBuilder::connect).
#[derive(Clone, Debug)]
#[must_use = "a builder connects nothing until one of its transports is called"]
pub struct ClientBuilder {
    handlers: Handlers,
    protocol: Protocol,
    client_info: Value,
    timeout: Duration,
    input_rounds: usize,
    headers: Vec<(String, String)>,
    log_level: Option<LogLevel>,
    oauth: Option<OAuth>,
    tasks: bool,
    max_message_size: usize,
    private_discovery: bool,
    env: Vec<EnvVar>,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder::new()
    }
}

impl ClientBuilder {
    /// The defaults: negotiate the version, no handlers, a timeout of
    /// [`DEFAULT_TIMEOUT`], named `codeagent`.
    pub fn new() -> ClientBuilder {
        ClientBuilder {
            handlers: Handlers::new(),
            protocol: Protocol::Negotiate,
            client_info: json!({ "name": "codeagent", "version": env!("CARGO_PKG_VERSION") }),
            timeout: DEFAULT_TIMEOUT,
            input_rounds: DEFAULT_INPUT_ROUNDS,
            headers: Vec::new(),
            log_level: None,
            oauth: None,
            tasks: false,
            max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
            private_discovery: false,
            env: Vec::new(),
        }
    }

    /// Authorizes with `oauth` when an HTTP server asks for it (a `401` or
    /// `403` with a `Bearer` challenge); see [`OAuth`].
    pub fn oauth(mut self, oauth: OAuth) -> Self {
        self.oauth = Some(oauth);
        self
    }

    /// The largest message read from the server, in bytes
    /// ([`DEFAULT_MAX_MESSAGE_SIZE`], 16 MiB, unless set): a JSON answer, a
    /// line of a process's output, one event of an event stream. A larger one
    /// is a [`ClientError::TooLarge`]: the answer is dropped (its request
    /// fails), a stream is closed and not resumed, and a process's connection
    /// ends. At most this much (plus a little) is held for any one message.
    pub fn max_message_size(mut self, bytes: usize) -> Self {
        self.max_message_size = bytes;
        self
    }

    /// Lets OAuth discovery (the protected resource metadata, the
    /// authorization server's metadata) and the flow's other requests
    /// (registration, token, an unattended authorization) reach private,
    /// loopback and link-local addresses when the server itself is on a
    /// public one. Off by default: for a remote server those requests reach
    /// only public addresses, IPv4 and IPv6 (IPv4-mapped included), by IP
    /// address or by name (a name is checked on the addresses it resolves
    /// to, when connecting), so a server cannot point this client at an
    /// internal service. A server on an internal address (an IP address,
    /// `localhost`, or a name resolving to one) is not limited.
    pub fn allow_private_discovery(mut self, allow: bool) -> Self {
        self.private_discovery = allow;
        self
    }

    /// Sets `key` to `value` in the environment of a server started by
    /// [`stdio`](ClientBuilder::stdio) or [`connect`](ClientBuilder::connect).
    /// A server process gets only [`INHERITED_ENV`](super::INHERITED_ENV)
    /// from this process's environment, the variables set on its `Command`,
    /// and those given here.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.env.push((key.into(), Some(value.into())));
        self
    }

    /// Passes this process's own `key` (when it is set) to a server started
    /// by [`stdio`](ClientBuilder::stdio) or [`connect`](ClientBuilder::connect):
    /// see [`env`](ClientBuilder::env).
    pub fn inherit_env(mut self, key: impl Into<String>) -> Self {
        self.env.push((key.into(), None));
        self
    }

    /// Answers the server's questions with `handlers` (and declares them).
    pub fn handlers(mut self, handlers: Handlers) -> Self {
        self.handlers = handlers;
        self
    }

    /// Which protocol version to speak.
    pub fn protocol(mut self, protocol: Protocol) -> Self {
        self.protocol = protocol;
        self
    }

    /// The client's name and version, as the server is told.
    pub fn client_info(mut self, name: &str, version: &str) -> Self {
        self.client_info = json!({ "name": name, "version": version });
        self
    }

    /// How long a request waits for its answer.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Declares the tasks extension (`io.modelcontextprotocol/tasks`): a tool
    /// the server runs as a task is polled to its end (`tasks/get`, at the
    /// interval the server asks), its questions answered by the handlers
    /// (`tasks/update`), and [`call`](super::Client::call) returns its result
    /// as if it had come at once. A task that fails is a
    /// [`ClientError::Rpc`](super::ClientError::Rpc) with its error; dropping
    /// the call, or its timeout passing, cancels the task (`tasks/cancel`).
    /// Without it, a tool that runs only as a task is refused (`-32021`).
    pub fn tasks(mut self) -> Self {
        self.tasks = true;
        self
    }

    /// How many 2026-07-28 `input_required` rounds one request answers.
    pub fn input_rounds(mut self, rounds: usize) -> Self {
        self.input_rounds = rounds;
        self
    }

    /// Sends header `name: value` with every HTTP request (a token, say).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// The least severe level of log messages wanted (2026-07-28: sent with
    /// every request; legacy: `logging/setLevel` after the handshake).
    pub fn log_level(mut self, level: LogLevel) -> Self {
        self.log_level = Some(level);
        self
    }

    /// Starts `command` and speaks to it over its stdin and stdout; its
    /// stderr is kept ([`Client::stderr`]). The process gets a minimal
    /// environment: [`INHERITED_ENV`](super::INHERITED_ENV) from this
    /// process's (`HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`), what
    /// `command` sets itself, and [`env`](ClientBuilder::env) and
    /// [`inherit_env`](ClientBuilder::inherit_env); no token or key of this
    /// process reaches it unless given.
    pub async fn stdio(self, command: Command) -> Result<Client, ClientError> {
        let (inbox, inbound) = mpsc::unbounded_channel();
        let wire = Lines::spawn(command, &self.env, self.max_message_size, inbox)?;
        self.finish(Box::new(wire), inbound).await
    }

    /// Speaks Streamable HTTP to the endpoint `url` (`http://` or `https://`).
    pub async fn http(self, url: &str) -> Result<Client, ClientError> {
        let (inbox, inbound) = mpsc::unbounded_channel();
        let limits = HttpLimits { message: self.max_message_size, private_discovery: self.private_discovery };
        let wire = Http::new(url, &self.headers, self.oauth.clone(), limits, inbox)?;
        self.finish(Box::new(wire), inbound).await
    }

    /// Speaks newline-delimited JSON over `reader` and `writer`: a server in
    /// the same process ([`Server::serve`](crate::server::Server::serve) over
    /// a `tokio::io::duplex`), a socket, a pipe.
    pub async fn stream<R, W>(self, reader: R, writer: W) -> Result<Client, ClientError>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (inbox, inbound) = mpsc::unbounded_channel();
        let wire = Lines::over(reader, writer, self.max_message_size, inbox);
        self.finish(Box::new(wire), inbound).await
    }

    /// Connects to `target`: an `http://` or `https://` URL, else a command
    /// line (words split on spaces; quotes group them).
    pub async fn connect(self, target: &str) -> Result<Client, ClientError> {
        let target = target.trim();
        if target.starts_with("http://") || target.starts_with("https://") {
            return self.http(target).await;
        }
        let words = split_command(target)?;
        let Some((program, args)) = words.split_first() else {
            return Err(ClientError::Invalid("the server's command line is empty".into()));
        };
        let mut command = Command::new(program);
        command.args(args);
        self.stdio(command).await
    }

    async fn finish(
        self,
        wire: Box<dyn Wire>,
        inbound: mpsc::UnboundedReceiver<Inbound>,
    ) -> Result<Client, ClientError> {
        let settings = Settings {
            client_info: self.client_info,
            timeout: self.timeout,
            input_rounds: self.input_rounds,
            log_level: self.log_level,
            tasks: self.tasks,
        };
        let session = Session::start(wire, inbound, self.handlers, settings);
        let negotiated = match handshake(&session, self.protocol).await {
            Ok(negotiated) => negotiated,
            Err(error) => {
                session.shut();
                return Err(error);
            }
        };
        let version = negotiated.version;
        let _ = session.negotiated.set(negotiated);
        if !version.is_modern() {
            // Server-initiated requests and notifications (legacy HTTP) come on
            // the GET stream: open before the first request, so none is lost.
            session.wire().open_events(version).await;
        }
        let client = Client::from_session(session);
        let has_logging = client.server_capabilities().logging.is_some();
        if let (Some(level), false, true) = (self.log_level, client.protocol_version().is_modern(), has_logging) {
            client.set_log_level(level).await?;
        }
        Ok(client)
    }
}

/// The words of a command line: split on whitespace, `'…'` and `"…"` keeping
/// spaces, `\` escaping the next character outside single quotes.
fn split_command(line: &str) -> Result<Vec<String>, ClientError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(open), c) if c == open => quote = None,
            (Some('"') | None, '\\') => {
                word.extend(chars.next());
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(open) = quote {
        return Err(ClientError::Invalid(format!("the command line `{line}` has an unclosed {open}")));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::split_command;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(split_command("npx -y pkg").unwrap(), ["npx", "-y", "pkg"]);
        assert_eq!(
            split_command(r#"python -c 'print(1 + 2)' "a b" c\ d"#).unwrap(),
            ["python", "-c", "print(1 + 2)", "a b", "c d"]
        );
        assert_eq!(split_command("  ").unwrap(), Vec::<String>::new());
        assert!(split_command("echo 'open").is_err());
    }
}
