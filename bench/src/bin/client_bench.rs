//! Throughput, latency and CPU cost of a tool call through two MCP clients,
//! codeagent's (`codeagent::client`) and rmcp 3.11's, against the same server,
//! over stdio and over Streamable HTTP, side by side.
//!
//! For each transport, protocol era, in-flight level `K`, client and
//! repetition, the harness starts a fresh server (stdio: the client spawns
//! it as its child; HTTP: the harness starts it on a free loopback port and
//! the client connects to `http://ADDR/mcp`), connects the client in the era
//! asked for (legacy 2025-11-25 through `initialize`, or 2026-07-28 through
//! `server/discover`; a handshake settling on another version fails the
//! run), makes `--warmup` calls, then `--calls` calls of `add {a, b}` with
//! `K` of them in flight: `K` tasks of one runtime, each with its clone of
//! the client, calling one after the other. Every answer must be a text
//! block holding `a + b`; any error or wrong answer fails the run.
//!
//! Measured: calls per second over the measured calls, the latency of each
//! call (from the call to its checked answer; p50 and p99), the CPU time of
//! this process per call (the client, its runtime and the harness's
//! bookkeeping: the sum of /proc/self/task/*/schedstat before and after the
//! measured calls) and the server's CPU time per call (the same from the
//! server's /proc/PID/task/*).
//!
//! Clients: `codeagent` (`Client::builder().protocol(Protocol::Only(..))`,
//! `.stdio(command)` or `.http(url)`), `rmcp` (`ClientConfig` with the
//! version, `serve` for legacy or `serve_with_lifecycle(Discover)` for
//! 2026-07-28, over `TokioChildProcess` or
//! `StreamableHttpClientTransport::from_uri`) and, over HTTP unless
//! `--no-pool`, `rmcp-pool`: rmcp's HTTP transport over a
//! `reqwest::Client::new()`, which keeps its connections (rmcp's default
//! client opens a connection per request). `--clients` runs only those named.
//!
//! Clients run alternately (the first position rotates between repetitions
//! and levels); each cell is the median over repetitions. Before each run the
//! harness waits (up to `--wait-idle` seconds) until no compiler is running,
//! and measures a run again (twice at most) when one started during it.
//!
//! ```sh
//! client_bench [--calls N] [--warmup N] [--inflight 1,16] [--reps N]
//!              [--transports stdio,http] [--eras legacy,modern]
//!              [--clients codeagent,rmcp,rmcp-pool] [--no-pool]
//!              [--threads N] [--server PROGRAM] [--verbose] [--wait-idle SECS]
//! ```
//!
//! The server is codeagent's gallery example from the target directory this
//! binary lives in unless `--server` names another program, which must serve
//! stdio by default and Streamable HTTP at `/mcp` with `--http ADDR`, and
//! answer `add` with the sum as text. `--threads 1` (the default) runs the
//! clients on a current-thread tokio runtime, `--threads N` on N workers.

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use codeagent_bench::clients::{Caller, Connection, Era, Library, Target};
use codeagent_bench::{compiler_running, cpu_time_of, median, operands, percentile, wait_for_idle};

/// How the client reaches the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Transport {
    Stdio,
    Http,
}

impl Transport {
    fn name(self) -> &'static str {
        match self {
            Transport::Stdio => "stdio",
            Transport::Http => "http",
        }
    }
}

/// One client configuration under test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Contender {
    library: Library,
    era: Era,
}

struct Options {
    calls: u64,
    warmup: u64,
    inflight: Vec<u64>,
    reps: usize,
    transports: Vec<Transport>,
    eras: Vec<Era>,
    libraries: Vec<Library>,
    threads: usize,
    server: PathBuf,
    verbose: bool,
    wait_idle: Duration,
}

fn usage() -> ! {
    eprintln!(
        "usage: client_bench [--calls N] [--warmup N] [--inflight 1,16] [--reps N]\n\
         \x20                   [--transports stdio,http] [--eras legacy,modern]\n\
         \x20                   [--clients codeagent,rmcp,rmcp-pool] [--no-pool]\n\
         \x20                   [--threads N] [--server PROGRAM] [--verbose] [--wait-idle SECS]"
    );
    std::process::exit(2)
}

fn parse_options() -> Options {
    let dir = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)).unwrap_or_default();
    let mut options = Options {
        calls: 5_000,
        warmup: 500,
        inflight: vec![1, 16],
        reps: 5,
        transports: vec![Transport::Stdio, Transport::Http],
        eras: vec![Era::Legacy, Era::Modern],
        libraries: vec![Library::Codeagent, Library::Rmcp, Library::RmcpPooled],
        threads: 1,
        server: dir.join("examples").join("gallery"),
        verbose: false,
        wait_idle: Duration::from_secs(120),
    };
    let mut args = std::env::args().skip(1);
    let number = |value: Option<String>| -> u64 {
        value.and_then(|v| v.replace('_', "").parse().ok()).unwrap_or_else(|| usage())
    };
    let list = |value: Option<String>| -> Vec<String> {
        value.unwrap_or_else(|| usage()).split(',').map(|item| item.trim().to_owned()).collect()
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--calls" => options.calls = number(args.next()),
            "--warmup" => options.warmup = number(args.next()),
            "--reps" => options.reps = usize::try_from(number(args.next())).unwrap_or_else(|_| usage()),
            "--threads" => options.threads = usize::try_from(number(args.next())).unwrap_or_else(|_| usage()),
            "--inflight" => {
                options.inflight = list(args.next()).iter().map(|k| k.parse().unwrap_or_else(|_| usage())).collect();
            }
            "--transports" => {
                options.transports = list(args.next())
                    .iter()
                    .map(|name| match name.as_str() {
                        "stdio" => Transport::Stdio,
                        "http" => Transport::Http,
                        _ => usage(),
                    })
                    .collect();
            }
            "--eras" => {
                options.eras = list(args.next())
                    .iter()
                    .map(|name| match name.as_str() {
                        "legacy" => Era::Legacy,
                        "modern" => Era::Modern,
                        _ => usage(),
                    })
                    .collect();
            }
            "--clients" => {
                options.libraries = list(args.next())
                    .iter()
                    .map(|name| match name.as_str() {
                        "codeagent" => Library::Codeagent,
                        "rmcp" => Library::Rmcp,
                        "rmcp-pool" => Library::RmcpPooled,
                        _ => usage(),
                    })
                    .collect();
            }
            "--no-pool" => options.libraries.retain(|library| *library != Library::RmcpPooled),
            "--server" => options.server = PathBuf::from(args.next().unwrap_or_else(|| usage())),
            "--verbose" | "-v" => options.verbose = true,
            "--wait-idle" => options.wait_idle = Duration::from_secs(number(args.next())),
            _ => usage(),
        }
    }
    if options.calls == 0
        || options.reps == 0
        || options.threads == 0
        || options.inflight.is_empty()
        || options.inflight.contains(&0)
        || options.transports.is_empty()
        || options.eras.is_empty()
        || options.libraries.is_empty()
    {
        usage();
    }
    if !options.server.exists() {
        eprintln!("client_bench: no server at {} (build it first: bench/client.sh)", options.server.display());
        std::process::exit(2);
    }
    options
}

/// The clients measured over `transport`, era by era.
fn contenders(options: &Options, transport: Transport) -> Vec<Contender> {
    let mut contenders = Vec::new();
    for &era in &options.eras {
        for &library in &options.libraries {
            // rmcp-pool is rmcp's HTTP transport over another HTTP client.
            if library != Library::RmcpPooled || transport == Transport::Http {
                contenders.push(Contender { library, era });
            }
        }
    }
    contenders
}

/// A server over HTTP, started by the harness; killed when dropped.
struct HttpServer {
    child: Child,
    addr: SocketAddr,
}

impl HttpServer {
    fn start(program: &Path, verbose: bool) -> Result<HttpServer, String> {
        let addr = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map_err(|error| format!("no free port: {error}"))?;
        let child = Command::new(program)
            .args(["--http", &addr.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(if verbose { Stdio::inherit() } else { Stdio::null() })
            .env("RUST_LOG", "error")
            .env("CODEAGENT_LOG", "error")
            .spawn()
            .map_err(|error| format!("starting {}: {error}", program.display()))?;
        let mut server = HttpServer { child, addr };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(addr).is_err() {
            if let Ok(Some(status)) = server.child.try_wait() {
                return Err(format!("the server exited before serving: {status}"));
            }
            if Instant::now() >= deadline {
                return Err(format!("the server did not listen on {addr} within 10 s"));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(server)
    }

    fn url(&self) -> String {
        format!("http://{}/mcp", self.addr)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The live (not zombie) child processes of this process.
fn live_children() -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    let mut children: Vec<u32> = tasks
        .flatten()
        .filter_map(|task| std::fs::read_to_string(task.path().join("children")).ok())
        .flat_map(|list| list.split_whitespace().filter_map(|pid| pid.parse().ok()).collect::<Vec<u32>>())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(')').is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X']))
            })
        })
        .collect();
    children.sort_unstable();
    children.dedup();
    children
}

/// Waits (up to 5 s) until no child process of this one is alive: the stdio
/// server of the last run is gone before the next starts.
fn wait_for_children() {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !live_children().is_empty() {
        if Instant::now() >= deadline {
            eprintln!("client_bench: warning: server processes still running: {:?}", live_children());
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Makes `count` calls (ids from `first`) with `inflight` in flight; the
/// latency of each in nanoseconds and the wall time of them all.
async fn calls(caller: &Caller, first: u64, count: u64, inflight: u64) -> Result<(Vec<u64>, Duration), String> {
    let next = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..inflight.min(count) {
        let caller = caller.clone();
        let next = Arc::clone(&next);
        tasks.spawn(async move {
            let mut latencies = Vec::new();
            loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= count {
                    return Ok::<_, String>(latencies);
                }
                let (a, b) = operands(first + index);
                let sent = Instant::now();
                caller.add(a, b).await?;
                latencies.push(u64::try_from(sent.elapsed().as_nanos()).unwrap_or(u64::MAX));
            }
        });
    }
    let mut latencies = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok(Ok(some)) => latencies.extend(some),
            Ok(Err(problem)) => return Err(problem),
            Err(error) => return Err(format!("a calling task failed: {error}")),
        }
    }
    let elapsed = started.elapsed();
    if latencies.len() as u64 != count {
        return Err(format!("{} of {count} calls answered", latencies.len()));
    }
    Ok((latencies, elapsed))
}

/// One measurement.
#[derive(Clone, Copy, Debug)]
struct Sample {
    calls_per_second: f64,
    p50_us: f64,
    p99_us: f64,
    client_cpu_us_per_call: Option<f64>,
    server_cpu_us_per_call: Option<f64>,
}

/// How long one run's calls may take before the run fails.
const RUN_DEADLINE: Duration = Duration::from_secs(120);

async fn measure_on(
    contender: Contender,
    target: Target<'_>,
    server_pid: Option<u32>,
    inflight: u64,
    options: &Options,
) -> Result<Sample, String> {
    let connection = Connection::open(contender.library, contender.era, target).await?;
    let caller = connection.caller();
    // The stdio server is the client's child, the only one alive.
    let server_pid = server_pid.or_else(|| match live_children().as_slice() {
        [pid] => Some(*pid),
        _ => None,
    });
    let outcome = async {
        let caller = &caller;
        let run = |first: u64, count: u64| async move {
            tokio::time::timeout(RUN_DEADLINE, calls(caller, first, count, inflight))
                .await
                .map_err(|_| format!("{count} calls took longer than {} s", RUN_DEADLINE.as_secs()))?
        };
        if options.warmup > 0 {
            run(1, options.warmup).await?;
        }
        let client_before = cpu_time_of(std::process::id());
        let server_before = server_pid.and_then(cpu_time_of);
        let (mut latencies, elapsed) = run(1 + options.warmup, options.calls).await?;
        let client_after = cpu_time_of(std::process::id());
        let server_after = server_pid.and_then(cpu_time_of);
        let per_call = |before: Option<Duration>, after: Option<Duration>| {
            before
                .zip(after)
                .map(|(before, after)| after.saturating_sub(before).as_secs_f64() * 1e6 / options.calls as f64)
        };
        latencies.sort_unstable();
        Ok(Sample {
            calls_per_second: options.calls as f64 / elapsed.as_secs_f64(),
            p50_us: percentile(&latencies, 0.50),
            p99_us: percentile(&latencies, 0.99),
            client_cpu_us_per_call: per_call(client_before, client_after),
            server_cpu_us_per_call: per_call(server_before, server_after),
        })
    }
    .await;
    connection.close().await;
    outcome
}

fn runtime(threads: usize) -> tokio::runtime::Runtime {
    let mut builder = if threads == 1 {
        tokio::runtime::Builder::new_current_thread()
    } else {
        let mut builder = tokio::runtime::Builder::new_multi_thread();
        builder.worker_threads(threads);
        builder
    };
    builder.enable_all().build().expect("a tokio runtime")
}

/// One run: a fresh server, a fresh runtime, the client connected anew.
fn measure(contender: Contender, transport: Transport, inflight: u64, options: &Options) -> Result<Sample, String> {
    let outcome = match transport {
        Transport::Stdio => {
            let target = Target::Stdio(&options.server);
            runtime(options.threads).block_on(measure_on(contender, target, None, inflight, options))
        }
        Transport::Http => {
            let server = HttpServer::start(&options.server, options.verbose)?;
            let url = server.url();
            let pid = Some(server.child.id());
            runtime(options.threads).block_on(measure_on(contender, Target::Http(&url), pid, inflight, options))
        }
    };
    wait_for_children();
    outcome
}

/// [`measure`], run again (twice at most) when a compiler started during a
/// run that began on a quiet machine; also whether a compiler ran during the
/// run kept.
fn measure_quietly(
    contender: Contender,
    transport: Transport,
    inflight: u64,
    options: &Options,
) -> Result<(Sample, bool), String> {
    let mut attempt = 0;
    loop {
        let quiet = wait_for_idle(options.wait_idle);
        let sample = measure(contender, transport, inflight, options)?;
        attempt += 1;
        let noisy = !quiet || compiler_running();
        if !noisy || !quiet || attempt == 3 {
            return Ok((sample, noisy));
        }
        eprintln!(
            "a compiler started during a run of {} {} over {} at K={inflight}; measuring again",
            contender.library.name(),
            contender.era.version(),
            transport.name()
        );
    }
}

/// The medians of one client's samples.
#[derive(Clone, Copy, Debug)]
struct Medians {
    calls_per_second: f64,
    p50_us: f64,
    p99_us: f64,
    client_cpu_us_per_call: Option<f64>,
    server_cpu_us_per_call: Option<f64>,
}

fn medians(samples: &[Sample]) -> Option<Medians> {
    if samples.is_empty() {
        return None;
    }
    let optional = |values: Vec<f64>| if values.is_empty() { None } else { Some(median(values)) };
    Some(Medians {
        calls_per_second: median(samples.iter().map(|s| s.calls_per_second).collect()),
        p50_us: median(samples.iter().map(|s| s.p50_us).collect()),
        p99_us: median(samples.iter().map(|s| s.p99_us).collect()),
        client_cpu_us_per_call: optional(samples.iter().filter_map(|s| s.client_cpu_us_per_call).collect()),
        server_cpu_us_per_call: optional(samples.iter().filter_map(|s| s.server_cpu_us_per_call).collect()),
    })
}

fn cpu_text(cpu: Option<f64>) -> String {
    cpu.map_or_else(|| "n/a".to_owned(), |cpu| format!("{cpu:.1}"))
}

/// One measured cell: the transport, the level, the client.
type Cell = (Transport, u64, Contender);

fn main() {
    let options = parse_options();
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    eprintln!(
        "client_bench: {} calls per run after {} warm-up calls, in flight {:?}, {} repetitions, {} client runtime thread(s), {} cores",
        options.calls, options.warmup, options.inflight, options.reps, options.threads, cores
    );
    eprintln!("  server: {}", options.server.display());
    let cells: Vec<Cell> = options
        .transports
        .iter()
        .flat_map(|&transport| {
            let contenders = contenders(&options, transport);
            options.inflight.iter().flat_map(move |&inflight| {
                contenders.clone().into_iter().map(move |contender| (transport, inflight, contender))
            })
        })
        .collect();
    let mut samples = vec![Vec::<Sample>::new(); cells.len()];
    let mut noisy = 0;
    let mut failed = false;
    for rep in 0..options.reps {
        for &transport in &options.transports {
            let contenders = contenders(&options, transport);
            for (level, &inflight) in options.inflight.iter().enumerate() {
                for turn in 0..contenders.len() {
                    let contender = contenders[(turn + rep + level) % contenders.len()];
                    let index = cells
                        .iter()
                        .position(|cell| *cell == (transport, inflight, contender))
                        .expect("every cell is listed");
                    let name = contender.library.name();
                    let version = contender.era.version();
                    match measure_quietly(contender, transport, inflight, &options) {
                        Ok((sample, was_noisy)) => {
                            noisy += usize::from(was_noisy);
                            if options.verbose {
                                eprintln!(
                                    "rep {rep} {:<5} {version} K={inflight:<3} {name:<9} {:>8.0} calls/s  p50 {:>8.1} µs  p99 {:>8.1} µs  client {:>6} µs/call  server {:>6} µs/call{}",
                                    transport.name(),
                                    sample.calls_per_second,
                                    sample.p50_us,
                                    sample.p99_us,
                                    cpu_text(sample.client_cpu_us_per_call),
                                    cpu_text(sample.server_cpu_us_per_call),
                                    if was_noisy { "  (noisy)" } else { "" }
                                );
                            }
                            samples[index].push(sample);
                        }
                        Err(problem) => {
                            eprintln!("FAILED rep {rep} {} {version} K={inflight} {name}: {problem}", transport.name());
                            failed = true;
                        }
                    }
                }
            }
        }
        eprintln!("repetition {} of {} done", rep + 1, options.reps);
    }
    if noisy > 0 {
        eprintln!("{noisy} runs were measured while a compiler ran");
    }

    let result = |transport: Transport, inflight: u64, contender: Contender| {
        let index = cells.iter().position(|cell| *cell == (transport, inflight, contender))?;
        medians(&samples[index])
    };
    for &transport in &options.transports {
        let contenders = contenders(&options, transport);
        println!();
        println!("### {}", transport.name());
        println!();
        println!(
            "| client | protocol | in flight | calls/s | p50 (µs) | p99 (µs) | client CPU (µs/call) | server CPU (µs/call) |"
        );
        println!("|---|---|---:|---:|---:|---:|---:|---:|");
        for &era in &options.eras {
            for &inflight in &options.inflight {
                for &contender in contenders.iter().filter(|contender| contender.era == era) {
                    let name = contender.library.name();
                    let Some(m) = result(transport, inflight, contender) else {
                        println!("| {name} | {} | {inflight} | FAILED | | | | |", era.version());
                        continue;
                    };
                    println!(
                        "| {name} | {} | {inflight} | {:.0} | {:.1} | {:.1} | {} | {} |",
                        era.version(),
                        m.calls_per_second,
                        m.p50_us,
                        m.p99_us,
                        cpu_text(m.client_cpu_us_per_call),
                        cpu_text(m.server_cpu_us_per_call)
                    );
                }
            }
        }
        println!();
        for &era in &options.eras {
            for &inflight in &options.inflight {
                let ours = result(transport, inflight, Contender { library: Library::Codeagent, era });
                for theirs in [Library::Rmcp, Library::RmcpPooled] {
                    let contender = Contender { library: theirs, era };
                    if !contenders.contains(&contender) {
                        continue;
                    }
                    let (Some(ours), Some(other)) = (ours, result(transport, inflight, contender)) else {
                        continue;
                    };
                    let cpu = ours
                        .client_cpu_us_per_call
                        .zip(other.client_cpu_us_per_call)
                        .map(|(a, b)| format!("; client CPU {a:.1} vs {b:.1} µs/call, ratio {:.2}", a / b))
                        .unwrap_or_default();
                    println!(
                        "{:<5} {} in-flight {inflight}: codeagent {:.0} calls/s, {} {:.0} calls/s, ratio {:.2}{cpu}",
                        transport.name(),
                        era.version(),
                        ours.calls_per_second,
                        theirs.name(),
                        other.calls_per_second,
                        ours.calls_per_second / other.calls_per_second
                    );
                }
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
}
