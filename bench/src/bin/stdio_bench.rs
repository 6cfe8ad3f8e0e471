//! Throughput and latency of MCP servers over stdio, side by side.
//!
//! For each server, in-flight level and repetition, the harness spawns the
//! server, performs the MCP handshake (`initialize` for 2025-06-18, then
//! `notifications/initialized`), warms up, then sends `--requests` calls of
//! `tools/call add {a, b}` keeping exactly `K` requests in flight: a writer
//! thread sends whenever a slot is free, a reader thread matches each
//! response to its id, checks that the text is `a + b` and records the
//! latency from the write of the request to the read of its response. A run
//! fails on any wrong, unknown, duplicated or missing response.
//!
//! Servers run alternately (the first position rotates between repetitions
//! and levels); each cell of the table is the median over repetitions. With
//! a server named `codeagent` and one named `baseline`, a line per level then
//! gives codeagent over the baseline: throughput, and the server CPU per call
//! (the baseline's over codeagent's, above 1 better as for throughput).
//!
//! The machine may be shared: before each run the harness waits (up to
//! `--wait-idle` seconds, 120 by default) until no compiler is running, and
//! a run during which one started is measured again (twice at most).
//!
//! ```sh
//! stdio_bench [--requests N] [--warmup N] [--inflight 1,16,64,256] [--reps N]
//!             [--server NAME=COMMAND [ARGS...]]... [--no-baseline] [--no-pipes] [--verbose]
//!             [--wait-idle SECS]
//! ```
//!
//! Without `--server`, it runs codeagent's gallery example, the rmcp add
//! server (on `stdio()` and, unless `--no-pipes`, on `stdio_pipes()`) and a
//! hand-written baseline with no SDK, all from the target directory this
//! binary lives in.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

use codeagent_bench::{
    Response, check, compiler_running, cpu_time_of, median, operands, own_cpu_time, percentile, wait_for_idle,
};

/// One server under test: a name for the table and the command starting it.
#[derive(Clone, Debug)]
struct ServerSpec {
    name: String,
    program: PathBuf,
    args: Vec<String>,
}

struct Options {
    requests: u64,
    warmup: u64,
    inflight: Vec<u64>,
    reps: usize,
    servers: Vec<ServerSpec>,
    verbose: bool,
    /// How long to wait for running compilers to finish before each run.
    wait_idle: Duration,
}

fn usage() -> ! {
    eprintln!(
        "usage: stdio_bench [--requests N] [--warmup N] [--inflight 1,16,64,256] [--reps N]\n\
         \x20                  [--server NAME=COMMAND [ARGS...]]... [--no-baseline] [--no-pipes] [--verbose] [--wait-idle SECS]"
    );
    std::process::exit(2)
}

fn parse_options() -> Options {
    let mut options = Options {
        requests: 20_000,
        warmup: 2_000,
        inflight: vec![1, 16, 64, 256],
        reps: 5,
        servers: Vec::new(),
        verbose: false,
        wait_idle: Duration::from_secs(120),
    };
    let mut baseline = true;
    let mut pipes = true;
    let mut args = std::env::args().skip(1);
    let number = |value: Option<String>| -> u64 {
        value.and_then(|v| v.replace('_', "").parse().ok()).unwrap_or_else(|| usage())
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--requests" => options.requests = number(args.next()),
            "--warmup" => options.warmup = number(args.next()),
            "--reps" => options.reps = usize::try_from(number(args.next())).unwrap_or_else(|_| usage()),
            "--inflight" => {
                let list = args.next().unwrap_or_else(|| usage());
                options.inflight = list.split(',').map(|k| k.trim().parse().unwrap_or_else(|_| usage())).collect();
            }
            "--server" => {
                let spec = args.next().unwrap_or_else(|| usage());
                let (name, command) = spec.split_once('=').unwrap_or_else(|| usage());
                let mut words = command.split_whitespace().map(str::to_owned);
                let program = PathBuf::from(words.next().unwrap_or_else(|| usage()));
                options.servers.push(ServerSpec { name: name.to_owned(), program, args: words.collect() });
            }
            "--no-baseline" => baseline = false,
            "--no-pipes" => pipes = false,
            "--verbose" | "-v" => options.verbose = true,
            "--wait-idle" => options.wait_idle = Duration::from_secs(number(args.next())),
            _ => usage(),
        }
    }
    if options.requests == 0 || options.reps == 0 || options.inflight.contains(&0) {
        usage();
    }
    if options.servers.is_empty() {
        let dir = std::env::current_exe().ok().and_then(|exe| exe.parent().map(Path::to_path_buf)).unwrap_or_default();
        let spec = |name: &str, program: PathBuf, args: &[&str]| ServerSpec {
            name: name.to_owned(),
            program,
            args: args.iter().map(|arg| (*arg).to_owned()).collect(),
        };
        options.servers.push(spec("codeagent", dir.join("examples").join("gallery"), &[]));
        options.servers.push(spec("rmcp", dir.join("rmcp_add_server"), &[]));
        if pipes {
            options.servers.push(spec("rmcp-pipes", dir.join("rmcp_add_server"), &["--pipes"]));
        }
        if baseline {
            options.servers.push(spec("baseline", dir.join("baseline_add_server"), &[]));
        }
    }
    for server in &options.servers {
        if server.program.components().count() > 1 && !server.program.exists() {
            eprintln!(
                "stdio_bench: {} not found at {} (build it first: bench/run.sh)",
                server.name,
                server.program.display()
            );
            std::process::exit(2);
        }
    }
    options
}

fn write_call(buffer: &mut Vec<u8>, id: u64) {
    let (a, b) = operands(id);
    let _ = writeln!(
        buffer,
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"add","arguments":{{"a":{a},"b":{b}}}}}}}"#
    );
}

/// A running server with its pipes.
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Process {
    fn spawn(spec: &ServerSpec) -> std::io::Result<Process> {
        let mut child = Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .env("RUST_LOG", "error")
            .spawn()?;
        let stdin = child.stdin.take();
        let stdout = BufReader::with_capacity(256 * 1024, child.stdout.take().expect("piped stdout"));
        Ok(Process { child, stdin, stdout, next_id: 1 })
    }

    fn stdin(&mut self) -> &mut ChildStdin {
        self.stdin.as_mut().expect("stdin open")
    }

    /// `initialize` (2025-06-18) and `notifications/initialized`.
    fn handshake(&mut self) -> Result<(), String> {
        let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"stdio_bench","version":"0.0.0"}}}"#;
        writeln!(self.stdin(), "{initialize}").map_err(|error| format!("writing initialize: {error}"))?;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line).map_err(|error| format!("reading: {error}"))? == 0 {
                return Err("the server closed its output during the handshake".into());
            }
            let message: serde_json::Value =
                serde_json::from_str(&line).map_err(|error| format!("bad JSON during the handshake: {error}"))?;
            if message.get("id") == Some(&serde_json::Value::from(0)) {
                let version = message.pointer("/result/protocolVersion").and_then(serde_json::Value::as_str);
                if version != Some("2025-06-18") {
                    return Err(format!("initialize answered {}", line.trim()));
                }
                break;
            }
        }
        writeln!(self.stdin(), r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#)
            .map_err(|error| format!("writing initialized: {error}"))
    }

    /// Sends `count` calls keeping `inflight` in flight; the latencies in
    /// nanoseconds and the wall time from the first write to the last read.
    fn run(&mut self, count: u64, inflight: u64, deadline: Duration) -> Result<Run, String> {
        let first = self.next_id;
        self.next_id += count;
        let shared = Shared {
            credits: Mutex::new(inflight.min(count)),
            freed: Condvar::new(),
            abort: AtomicBool::new(false),
            sent_at: (0..count).map(|_| AtomicU64::new(0)).collect(),
        };
        let shared = &shared;
        let origin = Instant::now();
        let stdin = self.stdin.as_mut().expect("stdin open");
        let stdout = &mut self.stdout;
        let child = &mut self.child;
        std::thread::scope(|scope| {
            let (finished, finished_rx) = mpsc::channel::<()>();
            let writer = scope.spawn(move || write_calls(stdin, shared, origin, first, count));
            let reader = scope.spawn(move || {
                let outcome = read_responses(stdout, shared, origin, first, count);
                shared.abort_all();
                let _ = finished.send(());
                outcome
            });
            if finished_rx.recv_timeout(deadline).is_err() {
                let _ = child.kill();
                shared.abort_all();
            }
            let reading = reader.join().map_err(|_| "the reader panicked".to_owned())?;
            let writing = writer.join().map_err(|_| "the writer panicked".to_owned())?;
            let (latencies, last) = reading?;
            writing?;
            let start = shared.sent_at[0].load(Ordering::Relaxed);
            Ok(Run { latencies, elapsed: Duration::from_nanos(last - start) })
        })
    }

    /// Closes the server's input and waits for it to exit.
    fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
                _ => {
                    let _ = self.child.kill();
                    let _ = self.child.wait();
                    break;
                }
            }
        }
        let mut rest = Vec::new();
        let _ = self.stdout.read_to_end(&mut rest);
    }

    /// CPU time the server's live threads have used so far, from
    /// /proc/PID/task/*/schedstat (nanoseconds on the CPU).
    fn cpu_time(&self) -> Option<Duration> {
        cpu_time_of(self.child.id())
    }
}

struct Shared {
    credits: Mutex<u64>,
    freed: Condvar,
    abort: AtomicBool,
    sent_at: Vec<AtomicU64>,
}

impl Shared {
    fn abort_all(&self) {
        self.abort.store(true, Ordering::SeqCst);
        let _guard = self.credits.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        self.freed.notify_all();
    }
}

struct Run {
    latencies: Vec<u64>,
    elapsed: Duration,
}

fn nanos_since(origin: Instant) -> u64 {
    u64::try_from(origin.elapsed().as_nanos()).unwrap_or(u64::MAX)
}

fn write_calls(stdin: &mut ChildStdin, shared: &Shared, origin: Instant, first: u64, count: u64) -> Result<(), String> {
    let mut buffer = Vec::with_capacity(64 * 1024);
    let mut sent = 0;
    while sent < count {
        let grant = {
            let mut credits = shared.credits.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            while *credits == 0 && !shared.abort.load(Ordering::SeqCst) {
                credits = shared.freed.wait(credits).unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            if shared.abort.load(Ordering::SeqCst) {
                return Ok(());
            }
            let grant = (*credits).min(count - sent);
            *credits -= grant;
            grant
        };
        buffer.clear();
        for offset in sent..sent + grant {
            write_call(&mut buffer, first + offset);
        }
        let now = nanos_since(origin).max(1);
        for offset in sent..sent + grant {
            shared.sent_at[usize::try_from(offset).expect("fits")].store(now, Ordering::Relaxed);
        }
        if let Err(error) = stdin.write_all(&buffer) {
            if shared.abort.load(Ordering::SeqCst) {
                return Ok(());
            }
            return Err(format!("writing requests: {error}"));
        }
        sent += grant;
    }
    Ok(())
}

fn read_responses(
    stdout: &mut BufReader<ChildStdout>,
    shared: &Shared,
    origin: Instant,
    first: u64,
    count: u64,
) -> Result<(Vec<u64>, u64), String> {
    let mut latencies = Vec::with_capacity(usize::try_from(count).expect("fits"));
    let mut seen = vec![false; usize::try_from(count).expect("fits")];
    let mut line = Vec::with_capacity(512);
    let mut problems = Vec::new();
    let mut released = 0u64;
    let mut received = 0u64;
    let mut last = 0;
    while received < count {
        line.clear();
        match stdout.read_until(b'\n', &mut line) {
            Ok(0) => {
                return Err(format!("the server closed its output after {received} of {count} responses"));
            }
            Ok(_) => {}
            Err(error) => return Err(format!("reading responses: {error}")),
        }
        let now = nanos_since(origin);
        let response: Response<'_> = match serde_json::from_slice(&line) {
            Ok(response) => response,
            Err(error) => return Err(format!("a response is not JSON ({error}): {}", String::from_utf8_lossy(&line))),
        };
        let Some(id) = &response.id else {
            if response.method.is_none() {
                problems.push(format!("a message with neither id nor method: {}", String::from_utf8_lossy(&line)));
            }
            continue; // a notification
        };
        let Some(id) = id.as_u64().filter(|id| (first..first + count).contains(id)) else {
            return Err(format!("a response to an id never sent in this run: {id}"));
        };
        let slot = usize::try_from(id - first).expect("fits");
        if std::mem::replace(&mut seen[slot], true) {
            return Err(format!("a second response to id {id}"));
        }
        if let Some(problem) = check(id, &response) {
            problems.push(problem);
        }
        latencies.push(now.saturating_sub(shared.sent_at[slot].load(Ordering::Relaxed)));
        received += 1;
        last = now;
        // Hand the freed slots to the writer once everything already read is
        // processed, so a burst of responses costs one wake-up.
        if stdout.buffer().is_empty() || received == count {
            let freed = received - released;
            released = received;
            let mut credits = shared.credits.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            *credits += freed;
            shared.freed.notify_one();
        }
    }
    if !problems.is_empty() {
        return Err(format!("{} wrong responses, first: {}", problems.len(), problems[0]));
    }
    Ok((latencies, last))
}

/// One measurement: calls per second, p50 and p99 latency, server CPU per call.
#[derive(Clone, Copy, Debug)]
struct Sample {
    calls_per_second: f64,
    p50_us: f64,
    p99_us: f64,
    cpu_us_per_call: Option<f64>,
    harness_cpu_us_per_call: Option<f64>,
}

fn measure(spec: &ServerSpec, options: &Options, inflight: u64) -> Result<Sample, String> {
    let mut process = Process::spawn(spec).map_err(|error| format!("starting {}: {error}", spec.program.display()))?;
    let outcome = (|| {
        process.handshake()?;
        let deadline = Duration::from_secs(120);
        if options.warmup > 0 {
            process.run(options.warmup, inflight, deadline)?;
        }
        let cpu_before = process.cpu_time();
        let harness_before = own_cpu_time();
        let mut run = process.run(options.requests, inflight, deadline)?;
        let harness_after = own_cpu_time();
        let cpu_after = process.cpu_time();
        let per_call = |before: Option<Duration>, after: Option<Duration>| {
            before
                .zip(after)
                .map(|(before, after)| after.saturating_sub(before).as_secs_f64() * 1e6 / options.requests as f64)
        };
        run.latencies.sort_unstable();
        Ok(Sample {
            calls_per_second: options.requests as f64 / run.elapsed.as_secs_f64(),
            p50_us: percentile(&run.latencies, 0.50),
            p99_us: percentile(&run.latencies, 0.99),
            cpu_us_per_call: per_call(cpu_before, cpu_after),
            harness_cpu_us_per_call: per_call(harness_before, harness_after),
        })
    })();
    process.finish();
    outcome
}

/// [`measure`], run again (twice at most) when a compiler ran meanwhile.
fn measure_quietly(spec: &ServerSpec, options: &Options, inflight: u64) -> Result<Sample, String> {
    let mut attempt = 0;
    loop {
        wait_for_idle(options.wait_idle);
        let sample = measure(spec, options, inflight)?;
        attempt += 1;
        if !compiler_running() || attempt == 3 {
            return Ok(sample);
        }
        eprintln!("a compiler started during a run of {} at K={inflight}; measuring again", spec.name);
    }
}

fn main() {
    let options = parse_options();
    let cores = std::thread::available_parallelism().map_or(0, std::num::NonZero::get);
    eprintln!(
        "stdio_bench: {} calls per run after {} warm-up calls, in flight {:?}, {} repetitions, {} cores",
        options.requests, options.warmup, options.inflight, options.reps, cores
    );
    for server in &options.servers {
        eprintln!("  {:<11} {} {}", server.name, server.program.display(), server.args.join(" "));
    }
    // samples[level][server] = one sample per repetition
    let mut samples = vec![vec![Vec::<Sample>::new(); options.servers.len()]; options.inflight.len()];
    let mut failed = false;
    for rep in 0..options.reps {
        for (level, &inflight) in options.inflight.iter().enumerate() {
            let count = options.servers.len();
            for turn in 0..count {
                let index = (turn + rep + level) % count;
                let server = &options.servers[index];
                match measure_quietly(server, &options, inflight) {
                    Ok(sample) => {
                        if options.verbose {
                            eprintln!(
                                "rep {rep} K={inflight:<4} {:<11} {:>9.0} calls/s  p50 {:>8.1} µs  p99 {:>8.1} µs  cpu {:>6.2} µs/call (harness {:.2})",
                                server.name,
                                sample.calls_per_second,
                                sample.p50_us,
                                sample.p99_us,
                                sample.cpu_us_per_call.unwrap_or(f64::NAN),
                                sample.harness_cpu_us_per_call.unwrap_or(f64::NAN)
                            );
                        }
                        samples[level][index].push(sample);
                    }
                    Err(problem) => {
                        eprintln!("FAILED rep {rep} K={inflight} {}: {problem}", server.name);
                        failed = true;
                    }
                }
            }
        }
        eprintln!("repetition {} of {} done", rep + 1, options.reps);
    }

    println!();
    println!("| server | in flight | calls/s | p50 (µs) | p99 (µs) | server CPU (µs/call) |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut medians = vec![vec![None; options.servers.len()]; options.inflight.len()];
    let mut cpu_medians: Vec<Vec<Option<f64>>> = vec![vec![None; options.servers.len()]; options.inflight.len()];
    for (level, &inflight) in options.inflight.iter().enumerate() {
        for (index, server) in options.servers.iter().enumerate() {
            let runs = &samples[level][index];
            if runs.is_empty() {
                println!("| {} | {inflight} | FAILED | | | |", server.name);
                continue;
            }
            let rate = median(runs.iter().map(|s| s.calls_per_second).collect());
            let p50 = median(runs.iter().map(|s| s.p50_us).collect());
            let p99 = median(runs.iter().map(|s| s.p99_us).collect());
            let cpu: Vec<f64> = runs.iter().filter_map(|s| s.cpu_us_per_call).collect();
            let cpu_median = (!cpu.is_empty()).then(|| median(cpu));
            let cpu = cpu_median.map_or_else(|| "n/a".to_owned(), |cpu| format!("{cpu:.1}"));
            println!("| {} | {inflight} | {rate:.0} | {p50:.1} | {p99:.1} | {cpu} |", server.name);
            medians[level][index] = Some((rate, p50));
            cpu_medians[level][index] = cpu_median;
        }
    }
    let find = |name: &str| options.servers.iter().position(|server| server.name == name);
    if let (Some(ours), Some(theirs)) = (find("codeagent"), find("rmcp")) {
        let pipes = find("rmcp-pipes");
        println!();
        if pipes.is_some() {
            println!(
                "| in flight | codeagent / rmcp throughput | codeagent / rmcp-pipes throughput | rmcp p50 / codeagent p50 |"
            );
            println!("|---:|---:|---:|---:|");
        } else {
            println!("| in flight | codeagent / rmcp throughput | rmcp p50 / codeagent p50 |");
            println!("|---:|---:|---:|");
        }
        for (level, &inflight) in options.inflight.iter().enumerate() {
            let (Some((ours_rate, ours_p50)), Some((their_rate, their_p50))) =
                (medians[level][ours], medians[level][theirs])
            else {
                continue;
            };
            let via_pipes = pipes
                .and_then(|pipes| medians[level][pipes])
                .map(|(rate, _)| format!(" {:.2}x |", ours_rate / rate))
                .unwrap_or_default();
            println!("| {inflight} | {:.2}x |{via_pipes} {:.2}x |", ours_rate / their_rate, their_p50 / ours_p50);
        }
    }
    if let (Some(ours), Some(base)) = (find("codeagent"), find("baseline")) {
        println!();
        for (level, &inflight) in options.inflight.iter().enumerate() {
            let (Some((ours_rate, _)), Some((base_rate, _))) = (medians[level][ours], medians[level][base]) else {
                continue;
            };
            // Server CPU per call, baseline over codeagent: above 1 is faster, as for throughput.
            let cpu = match (cpu_medians[level][ours], cpu_medians[level][base]) {
                (Some(ours_cpu), Some(base_cpu)) => format!(
                    "; server CPU {ours_cpu:.2} vs {base_cpu:.2} µs/call, baseline / codeagent {:.2}x",
                    base_cpu / ours_cpu
                ),
                _ => String::new(),
            };
            println!(
                "in-flight {inflight}: codeagent / baseline throughput {:.2}x ({ours_rate:.0} vs {base_rate:.0} calls/s){cpu}",
                ours_rate / base_rate
            );
        }
    }
    if failed {
        std::process::exit(1);
    }
}
