//! Evaluates a workload's requests with one policy: a warm-up pass, then
//! `PASSES` timed passes, and prints the time of a pass. Made to be run
//! under a profiler or an instruction counter: the difference between a run
//! with `PASSES` = 2 and one with `PASSES` = 1 is one pass in the steady
//! state, without the start-up. It prints the mean pass and the fastest:
//! on a machine shared with other work, the fastest is the steadier figure.
//!
//! ```sh
//! python3 ../shared/bench/gen_workload.py --out /tmp/wl && python3 ../shared/bench/to_requests.py /tmp/wl
//! cargo build --release -p palisade-engine --example passes
//! target/release/examples/passes /tmp/wl/config.json /tmp/wl/requests.jsonl 5
//! valgrind --tool=cachegrind target/release/examples/passes /tmp/wl/config.json /tmp/wl/requests.jsonl 2
//! ```

use std::hint::black_box;
use std::time::Instant;

use palisade_engine::{Engine, parse_request};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: passes POLICY_JSON REQUESTS_JSONL PASSES";
    let (Some(policy), Some(requests), Some(passes)) = (args.next(), args.next(), args.next())
    else {
        return Err(usage.into());
    };
    let passes: u32 = passes
        .parse()
        .map_err(|e| format!("PASSES `{passes}`: {e}"))?;
    let text = std::fs::read_to_string(&policy).map_err(|e| format!("{policy}: {e}"))?;
    let engine = Engine::from_json_str(&text)?;
    let lines = std::fs::read_to_string(&requests).map_err(|e| format!("{requests}: {e}"))?;
    let requests = lines
        .lines()
        .map(parse_request)
        .collect::<Result<Vec<_>, _>>()?;
    engine.warm();
    for r in &requests {
        let _ = black_box(engine.evaluate(black_box(r)));
    }
    let start = Instant::now();
    let mut fastest = f64::INFINITY;
    for _ in 0..passes {
        let pass = Instant::now();
        for r in &requests {
            let _ = black_box(engine.evaluate(black_box(r)));
        }
        fastest = fastest.min(pass.elapsed().as_secs_f64() * 1000.0);
    }
    if passes > 0 {
        println!(
            "{} requests: {:.2} ms a pass, the fastest {fastest:.2} ms",
            requests.len(),
            start.elapsed().as_secs_f64() * 1000.0 / f64::from(passes)
        );
    }
    Ok(())
}
