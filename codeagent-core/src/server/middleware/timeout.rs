//! A time limit on tool calls, per tool.

use std::collections::HashMap;
use std::time::Duration;

use super::{BoxFuture, Middleware, Next, Request, Response};

/// How long a stopped handler may take to give up before its time-out
/// answer goes out anyway.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// Stops a `tools/call` that runs longer than its tool's limit and answers
/// it with a tool error result naming the limit, which the model can read
/// (`The tool \`slow\` timed out after 2 seconds`). The tool sees its
/// [`Context`](crate::toolbox::Context) cancelled and has a second to clean up.
///
/// ```
/// use std::time::Duration;
/// use codeagent_core::server::{Server, middleware::Timeout};
/// # let toolbox = codeagent_core::toolbox::Toolbox::new();
///
/// let limits = Timeout::new(Duration::from_secs(30)).tool("build", Duration::from_secs(600));
/// let server = Server::new(toolbox).with_middleware(limits);
/// # let _ = server;
/// ```
#[derive(Clone, Debug)]
pub struct Timeout {
    default: Option<Duration>,
    tools: HashMap<String, Duration>,
}

impl Timeout {
    /// At most `limit` for every tool (unless [`tool`](Timeout::tool) says otherwise).
    pub fn new(limit: Duration) -> Self {
        Timeout { default: Some(limit), tools: HashMap::new() }
    }

    /// No limit but those set with [`tool`](Timeout::tool).
    pub fn per_tool() -> Self {
        Timeout { default: None, tools: HashMap::new() }
    }

    /// At most `limit` for tool `name`.
    #[must_use]
    pub fn tool(mut self, name: impl Into<String>, limit: Duration) -> Self {
        self.tools.insert(name.into(), limit);
        self
    }

    /// The limit of tool `name`, if it has one.
    pub fn limit_of(&self, name: &str) -> Option<Duration> {
        self.tools.get(name).copied().or(self.default)
    }
}

impl Middleware for Timeout {
    fn handle<'a>(&'a self, request: Request, next: Next) -> BoxFuture<'a, Response> {
        let limit = (request.method() == "tools/call").then(|| request.name().and_then(|name| self.limit_of(name)));
        let Some(Some(limit)) = limit else { return Box::pin(next.run(request)) };
        Box::pin(async move {
            let stop = request.cancellation().clone();
            let version = request.protocol_version();
            let name = request.name().unwrap_or_default().to_owned();
            let mut handled = std::pin::pin!(next.run(request));
            tokio::select! {
                response = &mut handled => response,
                () = tokio::time::sleep(limit) => {
                    stop.cancel();
                    let _ = tokio::time::timeout(STOP_GRACE, handled).await;
                    Response::tool_error_in(version, format!("The tool `{name}` timed out after {}", seconds(limit)))
                }
            }
        })
    }
}

/// `limit` as people write it: `2 seconds`, `1.5 seconds`, `1 second`.
fn seconds(limit: Duration) -> String {
    let seconds = limit.as_secs_f64();
    if seconds == 1.0 { "1 second".to_owned() } else { format!("{seconds} seconds") }
}
