//! An open-loop load generator for `palisade serve`: 1 KB `tool_use`
//! checks at a fixed rate over a pool of keep-alive HTTP/1.1 connections.
//! Request `i` is due at `start + i / rate`. Two latencies are reported:
//! from the moment the request was sent, and from the moment it was due —
//! the second includes the wait for a free connection (so a slow answer
//! cannot hide the requests queued behind it) and the timer's slack (tokio's
//! timer has a 1 ms resolution, so requests leave up to 1 ms late).
//!
//! ```sh
//! target/release/palisade serve --listen 127.0.0.1:8711 &
//! cargo run --release -p palisade-transport --example load -- 127.0.0.1:8711 10000 10 32
//! ```
//!
//! Arguments: the service's address, requests per second, seconds,
//! connections, and what to send: `check` (default) or `hook`, a Claude
//! Code pre-tool hook payload to `POST /v1/hooks/claude-code`:
//!
//! ```sh
//! cargo run --release -p palisade-transport --example load -- 127.0.0.1:8711 1000 10 8 hook
//! ```

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a benchmark tool")]

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:8700".into());
    let rate: u64 = args
        .next()
        .map_or(10_000, |a| a.parse().expect("requests per second"));
    let secs: u64 = args.next().map_or(10, |a| a.parse().expect("seconds"));
    let connections: usize = args.next().map_or(32, |a| a.parse().expect("connections"));
    let hook = args.next().is_some_and(|a| a == "hook");
    let (path, body) = if hook {
        let body = serde_json::json!({
            "session_id": "3f1c", "transcript_path": "/home/dev/.claude/projects/app/3f1c.jsonl",
            "cwd": "/home/dev/app", "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "git status && cargo test", "description": "Run tests"},
            "tool_use_id": "toolu_01ABC"
        });
        ("/v1/hooks/claude-code", body.to_string())
    } else {
        let note = "x".repeat(900);
        let body = serde_json::json!({
            "tool": {"name": "bash", "arguments": {"command": "ls -la /srv/app", "note": note}}
        });
        ("/v1/check", body.to_string())
    };
    let request = Arc::new(
        format!(
            "POST {path} HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    );
    let total = rate * secs;
    let next = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let start = Instant::now() + Duration::from_millis(100);
    let interval_ns = 1_000_000_000 / rate.max(1);
    let mut workers = Vec::new();
    for _ in 0..connections {
        let (addr, request, next, errors) =
            (addr.clone(), request.clone(), next.clone(), errors.clone());
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut from_due = Vec::new();
            let mut stream = TcpStream::connect(&addr).await.unwrap();
            stream.set_nodelay(true).unwrap();
            let mut buf = vec![0u8; 64 * 1024];
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    break;
                }
                let due = start + Duration::from_nanos(i * interval_ns);
                tokio::time::sleep_until(due.into()).await;
                let sent = Instant::now();
                if stream.write_all(&request).await.is_err()
                    || !read_response(&mut stream, &mut buf).await
                {
                    errors.fetch_add(1, Ordering::Relaxed);
                    stream = TcpStream::connect(&addr).await.unwrap();
                    continue;
                }
                latencies.push(sent.elapsed());
                from_due.push(due.elapsed());
            }
            (latencies, from_due)
        }));
    }
    let mut all = Vec::with_capacity(total as usize);
    let mut all_due = Vec::with_capacity(total as usize);
    for w in workers {
        let (l, d) = w.await.unwrap();
        all.extend(l);
        all_due.extend(d);
    }
    let elapsed = start.elapsed();
    println!(
        "{total} requests at {rate}/s on {connections} connections over {:.1} s: {} ok, {} errors",
        elapsed.as_secs_f64(),
        all.len(),
        errors.load(Ordering::Relaxed),
    );
    println!("from sent: {}", summary(&mut all));
    println!("from due:  {}", summary(&mut all_due));
}

/// p50, p90, p99, p99.9 and max of latencies.
fn summary(l: &mut [Duration]) -> String {
    l.sort();
    let pct = |p: f64| {
        l.get(((l.len() as f64 * p) as usize).min(l.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
            .as_secs_f64()
            * 1e3
    };
    format!(
        "p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, p99.9 {:.3} ms, max {:.3} ms",
        pct(0.50),
        pct(0.90),
        pct(0.99),
        pct(0.999),
        l.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    )
}

/// Reads one HTTP/1.1 response (headers and a `content-length` body);
/// whether it was a 200.
async fn read_response(stream: &mut TcpStream, buf: &mut [u8]) -> bool {
    let mut have = 0;
    loop {
        let Ok(n) = stream.read(&mut buf[have..]).await else {
            return false;
        };
        if n == 0 {
            return false;
        }
        have += n;
        let text = &buf[..have];
        let Some(head_end) = text.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&text[..head_end]).to_ascii_lowercase();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        if have >= head_end + 4 + length {
            return head.starts_with("http/1.1 200");
        }
        if have == buf.len() {
            return false;
        }
    }
}
