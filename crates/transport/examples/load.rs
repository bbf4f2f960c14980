//! An open-loop load generator for `palisade serve`: sends 1 KB `tool_use`
//! checks at a fixed rate (not as fast as answers come back), and reports
//! the latency of each from the moment it was due, so that a slow answer
//! cannot hide the requests that queue behind it.
//!
//! ```sh
//! target/release/palisade serve --listen 127.0.0.1:8711 &
//! cargo run --release -p palisade-transport --example load -- http://127.0.0.1:8711 10000 10
//! ```
//!
//! Arguments: the service's base URL, requests per second, seconds.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a benchmark tool")]

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Mutex;

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let base = args
        .next()
        .unwrap_or_else(|| "http://127.0.0.1:8700".into());
    let rate: u64 = args
        .next()
        .map_or(10_000, |a| a.parse().expect("requests per second"));
    let secs: u64 = args.next().map_or(10, |a| a.parse().expect("seconds"));
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(256)
        .build()
        .unwrap();
    let url = format!("{base}/v1/check");
    let note = "x".repeat(900);
    let body = serde_json::json!({
        "tool": {"name": "bash", "arguments": {"command": "ls -la /srv/app", "note": note}}
    })
    .to_string();
    let latencies = Arc::new(Mutex::new(Vec::with_capacity((rate * secs) as usize)));
    let errors = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let interval = Duration::from_nanos(1_000_000_000 / rate.max(1));
    let start = Instant::now();
    let total = rate * secs;
    let mut tasks = Vec::with_capacity(total as usize);
    for i in 0..total {
        let due = start + interval * i as u32;
        tokio::time::sleep_until(due.into()).await;
        let (client, url, body) = (client.clone(), url.clone(), body.clone());
        let (latencies, errors) = (latencies.clone(), errors.clone());
        tasks.push(tokio::spawn(async move {
            let ok = match client
                .post(&url)
                .header("content-type", "application/json")
                .body(body)
                .send()
                .await
            {
                Ok(r) => r.status().is_success() && r.bytes().await.is_ok(),
                Err(_) => false,
            };
            if ok {
                latencies.lock().await.push(due.elapsed());
            } else {
                errors.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let elapsed = start.elapsed();
    let mut l = latencies.lock().await.clone();
    l.sort();
    let pct = |p: f64| {
        l.get(((l.len() as f64 * p) as usize).min(l.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    println!(
        "sent {total} at {rate}/s over {:.1} s: {} ok, {} errors; latency p50 {:.3} ms, p90 {:.3} ms, p99 {:.3} ms, p99.9 {:.3} ms, max {:.3} ms",
        elapsed.as_secs_f64(),
        l.len(),
        errors.load(std::sync::atomic::Ordering::Relaxed),
        pct(0.50).as_secs_f64() * 1e3,
        pct(0.90).as_secs_f64() * 1e3,
        pct(0.99).as_secs_f64() * 1e3,
        pct(0.999).as_secs_f64() * 1e3,
        l.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
    );
}
