//! What the default policy adds to a workload's own policy, measured so that
//! a change of the machine's speed cannot tell in the result: the workload's
//! requests are evaluated by the two engines in turn, pass after pass (the
//! order swapped every round), and each round gives one ratio of two passes
//! run next to each other.
//!
//! ```sh
//! python3 ../shared/bench/gen_workload.py --out /tmp/wl && python3 ../shared/bench/to_requests.py /tmp/wl
//! cargo run --release -p palisade-engine --example default_share -- /tmp/wl 21
//! ```
//!
//! Prints each round's ratio, then the medians of both engines' passes and
//! of the ratios, and the fastest pass of each.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use palisade_engine::{Engine, parse_request};
use palisade_protocol::CheckRequest;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .ok_or("usage: default_share WORKLOAD_DIR [ROUNDS]")?;
    let rounds: usize = match args.next() {
        Some(n) => n.parse().map_err(|e| format!("ROUNDS `{n}`: {e}"))?,
        None => 21,
    };
    if rounds == 0 {
        return Err("ROUNDS must be at least 1".into());
    }
    let dir = Path::new(&dir);
    let text = std::fs::read_to_string(dir.join("config.json"))
        .map_err(|e| format!("{}: {e}", dir.join("config.json").display()))?;
    let alone = Engine::from_json_str(&text)?;
    let with_default = Engine::from_json_str(&with_default_policy(&text)?)?;
    let lines = std::fs::read_to_string(dir.join("requests.jsonl"))
        .map_err(|e| format!("{}: {e}", dir.join("requests.jsonl").display()))?;
    let requests = lines
        .lines()
        .map(parse_request)
        .collect::<Result<Vec<_>, _>>()?;
    alone.warm();
    with_default.warm();
    // One pass each before timing: lazy DFA states, caches.
    pass(&alone, &requests);
    pass(&with_default, &requests);

    let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let (ta, tb) = if round % 2 == 0 {
            let ta = pass(&alone, &requests);
            (ta, pass(&with_default, &requests))
        } else {
            let tb = pass(&with_default, &requests);
            (pass(&alone, &requests), tb)
        };
        let ratio = tb.as_secs_f64() / ta.as_secs_f64();
        println!(
            "round {round:>2}: workload policy {:>7.2} ms, with the default policy {:>7.2} ms, {:+.1}%",
            ms(ta),
            ms(tb),
            (ratio - 1.0) * 100.0
        );
        a.push(ta);
        b.push(tb);
        ratios.push(ratio);
    }
    a.sort();
    b.sort();
    ratios.sort_by(f64::total_cmp);
    let mid = rounds / 2;
    let (Some(&ma), Some(&mb), Some(&mr)) = (a.get(mid), b.get(mid), ratios.get(mid)) else {
        unreachable!("at least one round");
    };
    println!(
        "{} requests, {rounds} rounds: median workload policy {:.2} ms, with the default policy {:.2} ms; median added {:+.1}% (rounds from {:+.1}% to {:+.1}%)",
        requests.len(),
        ms(ma),
        ms(mb),
        (mr - 1.0) * 100.0,
        (ratios.first().copied().unwrap_or(mr) - 1.0) * 100.0,
        (ratios.last().copied().unwrap_or(mr) - 1.0) * 100.0,
    );
    // Interference only adds time: the fastest passes are the least
    // disturbed.
    let (Some(&fa), Some(&fb)) = (a.first(), b.first()) else {
        unreachable!("at least one round");
    };
    println!(
        "fastest passes: workload policy {:.2} ms, with the default policy {:.2} ms, {:+.1}%",
        ms(fa),
        ms(fb),
        (fb.as_secs_f64() / fa.as_secs_f64() - 1.0) * 100.0
    );
    Ok(())
}

/// The workload's policy with the embedded default policy's checks appended
/// (as the engine bench's `evaluate/workload/default+default-policy`).
fn with_default_policy(text: &str) -> Result<String, Box<dyn std::error::Error>> {
    let mut policy: serde_json::Value = serde_json::from_str(text)?;
    let default: serde_json::Value = serde_yaml_ng::from_str(palisade_engine::DEFAULT_POLICY)?;
    let extra = default["checks"].as_array().cloned().unwrap_or_default();
    policy["checks"]
        .as_array_mut()
        .ok_or("config.json has no `checks` list")?
        .extend(extra);
    Ok(policy.to_string())
}

/// One pass over the requests.
fn pass(engine: &Engine, requests: &[CheckRequest]) -> Duration {
    let start = Instant::now();
    for r in requests {
        let _ = black_box(engine.evaluate(black_box(r)));
    }
    start.elapsed()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
