//! The tools every server test serves (`#[codeagent::tool]` functions, so
//! they live here, not in `codeagent-test-support`, which does not depend on
//! codeagent).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use codeagent::ask::Elicitation;
use codeagent::{Context, Json, ToolError, Toolbox};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Add two integers.
#[codeagent::tool(read_only, idempotent)]
pub fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

/// Greet someone.
#[codeagent::tool(title = "Greeting", read_only)]
pub fn greet(
    /// Who to greet.
    name: String,
) -> String {
    format!("Hello, {name}!")
}

/// A sum.
#[derive(Serialize, JsonSchema)]
pub struct Sum {
    /// The total.
    pub total: i64,
}

/// Sum integers, as structured output.
#[codeagent::tool(title = "Sum", read_only)]
pub fn sum(
    /// The integers.
    values: Vec<i64>,
) -> Json<Sum> {
    Json(Sum { total: values.iter().sum() })
}

/// Sleep `ms` milliseconds on the async runtime, then answer `n`.
#[codeagent::tool]
pub async fn nap(
    /// How long to sleep.
    ms: u64,
    /// What to answer.
    n: u64,
) -> u64 {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    n
}

/// Block the thread for `ms` milliseconds (a slow sync tool).
#[codeagent::tool]
pub fn block(
    /// How long to block.
    ms: u64,
) -> String {
    std::thread::sleep(Duration::from_millis(ms));
    format!("blocked {ms} ms")
}

/// What [`wait`] saw, per key: "cancelled" when `ctx.cancelled()` fired while
/// it waited, "dropped (cancelled)" / "dropped" when its future was dropped
/// with / without the cancellation signal set, "finished" when it ran out.
pub fn observations() -> &'static Mutex<HashMap<String, Vec<&'static str>>> {
    static OBSERVED: OnceLock<Mutex<HashMap<String, Vec<&'static str>>>> = OnceLock::new();
    OBSERVED.get_or_init(Mutex::default)
}

/// Wakes the tests waiting in [`observed_within`] and [`observed_until`].
fn observation_made() -> &'static tokio::sync::Notify {
    static MADE: OnceLock<tokio::sync::Notify> = OnceLock::new();
    MADE.get_or_init(tokio::sync::Notify::new)
}

pub fn observe(key: &str, what: &'static str) {
    observations().lock().unwrap().entry(key.to_owned()).or_default().push(what);
    observation_made().notify_waiters();
}

pub fn observed(key: &str) -> Vec<&'static str> {
    observations().lock().unwrap().get(key).cloned().unwrap_or_default()
}

/// What was observed under `key`, forgotten (so a test making many keys
/// keeps no record of each).
pub fn take_observed(key: &str) -> Vec<&'static str> {
    observations().lock().unwrap().remove(key).unwrap_or_default()
}

/// Waits until something was observed under `key`, for at most `limit`.
pub async fn observed_within(key: &str, limit: Duration) -> Vec<&'static str> {
    observed_until(key, limit, |seen| !seen.is_empty()).await
}

/// Waits until what was observed under `key` satisfies `done`, for at most
/// `limit`; returns what was observed by then.
pub async fn observed_until(key: &str, limit: Duration, done: impl Fn(&[&str]) -> bool) -> Vec<&'static str> {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        // Registered before looking, so an observation made in between wakes it.
        let made = observation_made().notified();
        let mut made = std::pin::pin!(made);
        made.as_mut().enable();
        let seen = observed(key);
        if done(&seen) {
            return seen;
        }
        if tokio::time::timeout_at(deadline, made).await.is_err() {
            return observed(key);
        }
    }
}

pub struct WaitGuard {
    pub key: String,
    pub ctx: Context,
    pub settled: bool,
}

impl Drop for WaitGuard {
    fn drop(&mut self) {
        if !self.settled {
            observe(&self.key, if self.ctx.is_cancelled() { "dropped (cancelled)" } else { "dropped" });
        }
    }
}

/// Report progress 1 (so the client knows it started), then wait `ms`
/// milliseconds or until cancelled, recording what happened under `key`.
#[codeagent::tool]
pub async fn wait(
    /// Where to record what happened.
    key: String,
    /// How long to wait.
    ms: u64,
    ctx: &Context,
) -> Result<String, ToolError> {
    let mut guard = WaitGuard { key: key.clone(), ctx: ctx.clone(), settled: false };
    ctx.progress(1.0, None, Some("started"));
    tokio::select! {
        () = tokio::time::sleep(Duration::from_millis(ms)) => {
            guard.settled = true;
            observe(&key, "finished");
            Ok(format!("waited {ms} ms"))
        }
        () = ctx.cancelled() => {
            guard.settled = true;
            observe(&key, "cancelled");
            Err(ToolError::new("cancelled"))
        }
    }
}

/// Log one message at each of debug, info, warning and error.
#[codeagent::tool]
pub async fn chatty(ctx: &Context) -> String {
    ctx.debug("a debug message");
    ctx.info("an info message");
    ctx.warning("a warning message");
    ctx.error("an error message");
    "logged".to_owned()
}

/// Report progress 1..=count, a little apart, then a stale value that must
/// be dropped, then answer.
#[codeagent::tool]
pub async fn steps(
    /// How many steps.
    count: u32,
    ctx: &Context,
) -> String {
    for step in 1..=count {
        tokio::time::sleep(Duration::from_millis(20)).await;
        ctx.progress(f64::from(step), Some(f64::from(count)), Some(&format!("step {step} of {count}")));
    }
    ctx.progress(1.0, Some(f64::from(count)), Some("going backwards"));
    format!("{count} steps")
}

/// Panic, synchronously.
#[codeagent::tool]
pub fn boom_sync() -> String {
    panic!("sync kaboom")
}

/// Panic, in an async tool.
#[codeagent::tool]
pub async fn boom_async() -> String {
    panic!("async kaboom")
}

/// Today's forecast for a city, as served from a cloud region.
#[codeagent::tool(read_only)]
pub fn forecast(
    /// The city.
    city: String,
    /// The region serving the request; HTTP clients mirror it into `Mcp-Param-Region`.
    #[schemars(extend("x-mcp-header" = "Region"))]
    region: Option<String>,
) -> String {
    format!("{city}: sunny (from {})", region.as_deref().unwrap_or("any region"))
}

/// A tool added while serving.
#[codeagent::tool]
pub fn late() -> String {
    "late".to_owned()
}

/// Another tool added while serving.
#[codeagent::tool]
pub fn later() -> String {
    "later".to_owned()
}

/// The toolbox of the stdio tests.
pub fn toolbox() -> Toolbox {
    Toolbox::new()
        .tool(add)
        .tool(greet)
        .tool(sum)
        .tool(nap)
        .tool(block)
        .tool(wait)
        .tool(chatty)
        .tool(steps)
        .tool(boom_sync)
        .tool(boom_async)
}

/// The toolbox of the HTTP tests.
pub fn http_toolbox() -> Toolbox {
    Toolbox::new().tool(add).tool(steps).tool(chatty).tool(forecast).tool(wait)
}

/// Every test tool but `late` and `later` (added while serving).
pub fn all_tools() -> Toolbox {
    resources(toolbox().tool(forecast))
}

/// A 1×1 PNG.
pub const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49,
    0x44, 0x41, 0x54, 0x78, 0xda, 0x63, 0xfc, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05, 0x05, 0x02, 0x00, 0x5f, 0xc8, 0xf1,
    0xd2, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// The test resources: a text file, a PNG, a template, and one that fails.
pub fn resources(toolbox: Toolbox) -> Toolbox {
    use codeagent::completion::Completer;
    use codeagent::prompts::{PromptArgument, PromptMessage, PromptSpec};
    use codeagent::resources::{Blob, ResourceSpec};
    use codeagent::toolbox::CacheHint;
    let spec = |uri: &str, name: &str| ResourceSpec::fixed(uri, name).unwrap();
    toolbox
        .resource(
            spec("file:///notes.txt", "notes")
                .with_title("Notes")
                .with_description("Plain text notes.")
                .with_mime_type("text/plain")
                .with_size(11)
                .serve(|_| async { "hello notes" }),
        )
        .resource(
            spec("file:///pixel.png", "pixel")
                .with_cache_hint(CacheHint::private(std::time::Duration::from_secs(60)))
                .serve(|_| async { Blob::new(PNG, "image/png") }),
        )
        .resource(spec("file:///broken", "broken").serve(|_| async { Err::<String, _>("the disk is gone") }))
        .resource(
            ResourceSpec::template("users://{id}/profile", "profile")
                .unwrap()
                .with_title("A user's profile")
                .with_mime_type("application/json")
                .with_completer("id", Completer::from_values(["ada", "alan", "grace"]))
                .serve(|read| async move { serde_json::json!({ "id": read.variable("id") }).to_string() }),
        )
        .prompt(
            PromptSpec::new("review")
                .with_title("Code review")
                .with_description("Review a file.")
                .with_argument(
                    PromptArgument::required("path")
                        .with_description("The file.")
                        .with_completer(Completer::from_values(["src/lib.rs", "src/main.rs", "README.md"])),
                )
                .with_argument(PromptArgument::optional("focus").with_description("What to look at."))
                .serve(|get| async move {
                    let focus = get.argument("focus").map(|focus| format!(", looking at {focus}")).unwrap_or_default();
                    vec![
                        PromptMessage::user(format!("Review {}{focus}.", get.argument("path").unwrap_or_default())),
                        PromptMessage::assistant("I will."),
                    ]
                }),
        )
        .prompt(
            PromptSpec::new("boom")
                .with_description("Panics.")
                .with_argument(
                    PromptArgument::optional("fuse")
                        .with_completer(Completer::new(|_, _| panic!("completer exploded"))),
                )
                .serve(|_| async {
                    if true {
                        panic!("prompt exploded");
                    }
                    "unreachable"
                }),
        )
}

/// Whether [`wait`]'s record shows it saw the client's cancellation, from
/// `ctx.cancelled()` or, when its future was dropped, from `ctx.is_cancelled()`.
pub fn saw_cancellation(seen: &[&str]) -> bool {
    seen == ["cancelled"] || seen == ["dropped (cancelled)"]
}

/// The form [`confirm`] asks for.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct Confirm {
    /// Go ahead?
    pub ok: bool,
}

/// Asks the person to confirm.
#[codeagent::tool]
pub async fn confirm(ctx: &Context) -> Result<String, ToolError> {
    Ok(match ctx.elicit::<Confirm>("Go ahead?").await? {
        Elicitation::Accepted(Confirm { ok }) => format!("ok: {ok}"),
        Elicitation::Declined => "declined".to_owned(),
        Elicitation::Cancelled => "cancelled".to_owned(),
    })
}
