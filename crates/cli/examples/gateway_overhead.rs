//! What `palisade mcp-proxy` adds to an MCP server's round trip: the same
//! server (the `mcp_upstream` example) asked directly and through the
//! proxy, one `tools/call` of `echo` at a time over stdio, with 1 KB of
//! text in the call and the same 1 KB back (as text and as structured
//! content). Prints the percentiles of each and what the proxy added.
//!
//! ```text
//! gateway_overhead PALISADE MCP_UPSTREAM [CALLS]
//! ```
//!
//! docs/PERFORMANCE.md ("The MCP gateway") has the figures and how to
//! reproduce them.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Calls made before measuring (process warm-up, allocator, caches).
const WARM_UP: usize = 200;

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn start(program: &str, args: &[&str]) -> Result<Self, String> {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut server = Server {
            child,
            stdin,
            stdout,
        };
        server.ask(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "gateway_overhead", "version": "1"}}}),
        )?;
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(server)
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        writeln!(self.stdin, "{message}").map_err(|e| e.to_string())?;
        self.stdin.flush().map_err(|e| e.to_string())
    }

    /// One request and its answer (messages without an id are skipped).
    fn ask(&mut self, message: &Value) -> Result<Value, String> {
        self.send(message)?;
        let mut line = String::new();
        loop {
            line.clear();
            if self
                .stdout
                .read_line(&mut line)
                .map_err(|e| e.to_string())?
                == 0
            {
                return Err("the server closed its output".to_owned());
            }
            let answer: Value = serde_json::from_str(&line).map_err(|e| e.to_string())?;
            if answer.get("id") == message.get("id") {
                return Ok(answer);
            }
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Round-trip times of `calls` echo calls of 1 KB.
fn measure(server: &mut Server, calls: usize) -> Result<Vec<Duration>, String> {
    // Words, as a model's text would be: 1,024 bytes.
    let text: String = "the quick brown fox jumps over the lazy dog "
        .repeat(24)
        .chars()
        .take(1024)
        .collect();
    let mut times = Vec::with_capacity(calls);
    for i in 0..WARM_UP + calls {
        let call = json!({"jsonrpc": "2.0", "id": i + 1, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": text}}});
        let started = Instant::now();
        let answer = server.ask(&call)?;
        let took = started.elapsed();
        if answer["result"]["structuredContent"]["echo"] != json!(text) {
            return Err(format!("unexpected answer: {answer}"));
        }
        if i >= WARM_UP {
            times.push(took);
        }
    }
    times.sort();
    Ok(times)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let at = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(at).copied().unwrap_or_default()
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(palisade), Some(upstream)) = (args.first(), args.get(1)) else {
        eprintln!("usage: gateway_overhead PALISADE MCP_UPSTREAM [CALLS]");
        return ExitCode::from(2);
    };
    let calls: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(5000);
    let run = || -> Result<(), String> {
        let mut direct = Server::start(upstream, &[])?;
        let direct_times = measure(&mut direct, calls)?;
        drop(direct);
        let mut proxied = Server::start(
            palisade,
            &["mcp-proxy", "--no-pins", "--name", "bench", "--", upstream],
        )?;
        let proxied_times = measure(&mut proxied, calls)?;
        println!("{calls} calls each, after {WARM_UP} to warm up; microseconds per round trip");
        println!("{:>10} {:>10} {:>10} {:>10}", "", "p50", "p90", "p99");
        for (name, t) in [("direct", &direct_times), ("proxied", &proxied_times)] {
            println!(
                "{name:>10} {:>10.0} {:>10.0} {:>10.0}",
                us(percentile(t, 0.5)),
                us(percentile(t, 0.9)),
                us(percentile(t, 0.99))
            );
        }
        println!(
            "{:>10} {:>10.0} {:>10.0} {:>10.0}",
            "added",
            us(percentile(&proxied_times, 0.5)) - us(percentile(&direct_times, 0.5)),
            us(percentile(&proxied_times, 0.9)) - us(percentile(&direct_times, 0.9)),
            us(percentile(&proxied_times, 0.99)) - us(percentile(&direct_times, 0.99))
        );
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
