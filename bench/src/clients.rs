//! The MCP clients of the client benchmark (`src/bin/client_bench.rs`)
//! behind one call of `add`: codeagent's (`codeagent::client`) and rmcp
//! 3.11's, each connected over stdio (the server its child process) or over
//! Streamable HTTP, speaking the protocol era asked for.
//!
//! Each client is set up the way its documentation does it: codeagent's with
//! `Client::builder()`, rmcp's with `ServiceExt::serve` on a `ClientConfig`
//! (legacy `initialize`) or `ClientServiceExt::serve_with_lifecycle`
//! (`server/discover`, 2026-07-28), over `TokioChildProcess` or
//! `StreamableHttpClientTransport::from_uri`. [`Library::RmcpPooled`] is
//! rmcp's HTTP transport over a `reqwest::Client` that keeps its connections
//! (rmcp's own default client opens one per request).

use std::path::Path;

use codeagent::client::{Client, Protocol};
use rmcp::model::{CallToolRequestParams, ClientConfig, ProtocolVersion as RmcpVersion};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, Peer, RoleClient, RunningService};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ServiceExt, object};

/// Which client library.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    /// `codeagent::client::Client`.
    Codeagent,
    /// rmcp's client as it ships.
    Rmcp,
    /// rmcp's HTTP transport over a pooling `reqwest::Client` (HTTP only).
    RmcpPooled,
}

impl Library {
    /// Its name in the tables.
    pub fn name(self) -> &'static str {
        match self {
            Library::Codeagent => "codeagent",
            Library::Rmcp => "rmcp",
            Library::RmcpPooled => "rmcp-pool",
        }
    }
}

/// Which protocol era the client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Era {
    /// 2025-11-25: `initialize`, then sessions over HTTP.
    Legacy,
    /// 2026-07-28: `server/discover`, then self-contained requests.
    Modern,
}

impl Era {
    /// The protocol version both clients are told to speak.
    pub fn version(self) -> &'static str {
        match self {
            Era::Legacy => "2025-11-25",
            Era::Modern => "2026-07-28",
        }
    }

    fn codeagent(self) -> Protocol {
        Protocol::Only(match self {
            Era::Legacy => codeagent::ProtocolVersion::V2025_11_25,
            Era::Modern => codeagent::ProtocolVersion::V2026_07_28,
        })
    }

    fn rmcp(self) -> RmcpVersion {
        match self {
            Era::Legacy => RmcpVersion::V_2025_11_25,
            Era::Modern => RmcpVersion::V_2026_07_28,
        }
    }
}

/// Where the server is.
#[derive(Clone, Copy, Debug)]
pub enum Target<'a> {
    /// A server program the client starts and speaks to over stdio.
    Stdio(&'a Path),
    /// A Streamable HTTP endpoint.
    Http(&'a str),
}

/// A handle that calls `add`: cheap to clone, one per concurrent caller.
#[derive(Clone)]
pub enum Caller {
    /// codeagent's client.
    Codeagent(Client),
    /// rmcp's peer of a running client service.
    Rmcp(Peer<RoleClient>),
}

impl Caller {
    /// Calls `add {a, b}` and checks the answer: a text block holding `a + b`.
    pub async fn add(&self, a: i64, b: i64) -> Result<(), String> {
        let text = match self {
            Caller::Codeagent(client) => {
                let output = client
                    .call("add", serde_json::json!({ "a": a, "b": b }))
                    .await
                    .map_err(|error| format!("codeagent: add({a}, {b}): {error}"))?;
                if output.is_error() {
                    return Err(format!("codeagent: add({a}, {b}) is an error: {}", output.raw()));
                }
                output.text()
            }
            Caller::Rmcp(peer) => {
                let params = CallToolRequestParams::new("add").with_arguments(object!({ "a": a, "b": b }));
                let result = peer.call_tool(params).await.map_err(|error| format!("rmcp: add({a}, {b}): {error}"))?;
                if result.is_error == Some(true) {
                    return Err(format!("rmcp: add({a}, {b}) is an error: {result:?}"));
                }
                let texts: Vec<&str> =
                    result.content.iter().filter_map(|block| block.as_text()).map(|text| text.text.as_str()).collect();
                texts.join("\n")
            }
        };
        if text.trim().parse::<i64>() == Ok(a + b) {
            Ok(())
        } else {
            Err(format!("add({a}, {b}) answered `{text}`, not {}", a + b))
        }
    }
}

/// An open connection of one client to the server.
pub struct Connection {
    caller: Caller,
    /// The rmcp service, kept running until [`close`](Connection::close).
    service: Option<RunningService<RoleClient, ClientConfig>>,
    /// The protocol version the handshake settled on.
    version: String,
}

impl Connection {
    /// Connects `library` to `target` in `era`; `RUST_LOG` and
    /// `CODEAGENT_LOG` of a stdio server are set to `error`.
    pub async fn open(library: Library, era: Era, target: Target<'_>) -> Result<Connection, String> {
        let connection = match library {
            Library::Codeagent => {
                let builder = Client::builder().protocol(era.codeagent());
                let client = match target {
                    Target::Stdio(program) => builder.stdio(server_command(program)).await,
                    Target::Http(url) => builder.http(url).await,
                }
                .map_err(|error| format!("codeagent: connecting: {error}"))?;
                let version = client.protocol_version().as_str().to_owned();
                Connection { caller: Caller::Codeagent(client), service: None, version }
            }
            Library::Rmcp | Library::RmcpPooled => {
                let service = match target {
                    Target::Stdio(program) => {
                        if library == Library::RmcpPooled {
                            return Err("rmcp-pool is an HTTP client only".into());
                        }
                        let transport = TokioChildProcess::new(server_command(program))
                            .map_err(|error| format!("rmcp: starting {}: {error}", program.display()))?;
                        serve_rmcp(era, transport).await?
                    }
                    Target::Http(url) if library == Library::Rmcp => {
                        serve_rmcp(era, StreamableHttpClientTransport::from_uri(url)).await?
                    }
                    Target::Http(url) => {
                        let config = StreamableHttpClientTransportConfig::with_uri(url);
                        let transport = StreamableHttpClientTransport::with_client(reqwest::Client::new(), config);
                        serve_rmcp(era, transport).await?
                    }
                };
                let version = service
                    .peer()
                    .peer_info()
                    .map(|info| info.protocol_version.as_str().to_owned())
                    .unwrap_or_default();
                Connection { caller: Caller::Rmcp(service.peer().clone()), service: Some(service), version }
            }
        };
        if connection.version != era.version() {
            return Err(format!("asked for {}, the handshake settled on {}", era.version(), connection.version));
        }
        Ok(connection)
    }

    /// A handle to call `add` with.
    pub fn caller(&self) -> Caller {
        self.caller.clone()
    }

    /// The protocol version spoken.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Closes the connection (a stdio server is stopped).
    pub async fn close(self) {
        match (self.caller, self.service) {
            (Caller::Codeagent(client), _) => client.close(),
            (_, Some(service)) => {
                let _ = service.cancel().await;
            }
            (Caller::Rmcp(_), None) => {}
        }
    }
}

/// rmcp's client service over `transport`: the legacy `initialize` of a
/// `ClientConfig` naming the version, or `server/discover` for 2026-07-28.
async fn serve_rmcp<T, E, A>(era: Era, transport: T) -> Result<RunningService<RoleClient, ClientConfig>, String>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let info = ClientConfig::default().with_protocol_version(era.rmcp());
    let served = match era {
        Era::Legacy => info.serve(transport).await,
        Era::Modern => {
            let lifecycle = ClientLifecycleMode::Discover { preferred_versions: vec![era.rmcp()] };
            info.serve_with_lifecycle(transport, lifecycle).await
        }
    };
    served.map_err(|error| format!("rmcp: connecting: {error}"))
}

/// The command starting a stdio server, its logging turned down.
fn server_command(program: &Path) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(program);
    command.env("RUST_LOG", "error").env("CODEAGENT_LOG", "error");
    command
}
