//! Streams a generated workload's `stream.txt` through the engine in 16-byte
//! deltas and prints, for each output-stage check, the index of the delta
//! after which it was first reported, next to the generator's oracle
//! (`expected_stream.json`), and the time per delta.
//!
//! ```sh
//! python3 ../shared/bench/gen_workload.py --out /tmp/wl
//! cargo run --release -p palisade-engine --example stream_workload -- /tmp/wl
//! ```

use std::collections::BTreeMap;
use std::error::Error;
use std::path::PathBuf;
use std::time::Instant;

use palisade_engine::Engine;
use palisade_protocol::{CheckRequest, Stage};

fn main() -> Result<(), Box<dyn Error>> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: stream_workload WORKLOAD_DIR")?,
    );
    let engine = Engine::from_path(dir.join("config.json"))?;
    let text = std::fs::read_to_string(dir.join("stream.txt"))?;
    let oracle: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("expected_stream.json"))?)?;
    // Log every hit, so the first report of each check is seen even after a block.
    let mut policy: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("config.json"))?)?;
    for check in policy["checks"].as_array_mut().ok_or("no checks")? {
        check["on_fail"] = "log".into();
    }
    let logging = Engine::from_json_str(&policy.to_string())?;

    // 16-byte deltas, each extended to the end of a character it cuts.
    let mut deltas: Vec<&str> = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let mut end = (start + 16).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        deltas.push(&text[start..end]);
        start = end;
    }
    // For each check, how many 16-byte deltas of the file arrived before it
    // was reported; a character cut by a delta is passed on once complete,
    // as a client reading bytes would.
    let mut first: BTreeMap<String, usize> = BTreeMap::new();
    let mut stream = logging.stream(&CheckRequest::new().with_stage(Stage::Output))?;
    let bytes = text.as_bytes();
    let mut sent = 0;
    for (i, chunk_end) in (16..bytes.len() + 16).step_by(16).enumerate() {
        let mut end = chunk_end.min(bytes.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        if end > sent
            && let Some(update) = stream.push(&text[sent..end])
        {
            for f in update.findings() {
                first.entry(f.check_id.clone()).or_insert(i + 1);
            }
        }
        sent = sent.max(end);
    }
    let last = stream.finish();
    for f in last.findings() {
        first.entry(f.check_id.clone()).or_insert(usize::MAX);
    }
    let mut mismatches = 0;
    for (id, expected) in oracle["first_fire_delta"]
        .as_object()
        .ok_or("no first_fire_delta")?
    {
        let got = first.get(id).copied();
        let same = got.map(|g| g as u64) == expected.as_u64();
        mismatches += usize::from(!same);
        println!(
            "{id}: reported after delta {}, oracle {expected}{}",
            got.map_or("never".to_owned(), |g| g.to_string()),
            if same { "" } else { "  MISMATCH" }
        );
    }

    // Timing with the workload's own policy, best of five.
    let mut best = f64::MAX;
    let mut best_whole = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        let mut s = engine.stream(&CheckRequest::new().with_stage(Stage::Output))?;
        for d in &deltas {
            let _ = s.push(d);
        }
        let _ = s.finish();
        best = best.min(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let _ = engine.evaluate(&CheckRequest::output(text.clone()))?;
        best_whole = best_whole.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{} deltas: {:.3} ms streamed ({:.3} µs per delta), {:.3} ms whole, ratio {:.2}",
        deltas.len(),
        best * 1e3,
        best * 1e6 / deltas.len() as f64,
        best_whole * 1e3,
        best / best_whole
    );
    if mismatches > 0 {
        return Err(format!("{mismatches} checks differ from the oracle").into());
    }
    Ok(())
}
