//! `palisade check --jsonl`: one request per input line, one decision per
//! output line, in input order, evaluated on several threads.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use palisade_engine::{Engine, parse_request};
use palisade_protocol::{CheckRequest, Decision, DecisionKind};

use crate::CheckArgs;
use crate::check::{error_decision, open_input};

/// Input is handed to workers in blocks of about this many bytes, cut after a newline.
const BLOCK_BYTES: usize = 1 << 20;

#[derive(Default, Clone, Copy)]
struct Stats {
    requests: u64,
    errors: u64,
    input_bytes: u64,
    content_bytes: u64,
    parse: Duration,
    evaluate: Duration,
    write: Duration,
    /// Decisions by kind: allow, block, ask, modify, error.
    kinds: Kinds,
}

/// How many decisions of each kind a batch gave.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Kinds {
    pub(crate) allow: u64,
    pub(crate) block: u64,
    pub(crate) ask: u64,
    pub(crate) modify: u64,
    pub(crate) error: u64,
}

impl Kinds {
    pub(crate) fn count(&mut self, kind: DecisionKind) {
        match kind {
            DecisionKind::Allow => self.allow += 1,
            DecisionKind::Block => self.block += 1,
            DecisionKind::Ask => self.ask += 1,
            DecisionKind::Modify => self.modify += 1,
            DecisionKind::Error => self.error += 1,
        }
    }

    fn add(&mut self, o: &Kinds) {
        self.allow += o.allow;
        self.block += o.block;
        self.ask += o.ask;
        self.modify += o.modify;
        self.error += o.error;
    }

    /// The batch's exit code, as for one request: 2 when a line was not a
    /// valid request, else 1 when a request was blocked or asked, else 0.
    pub(crate) fn exit_code(&self) -> u8 {
        if self.error > 0 {
            2
        } else if self.block + self.ask > 0 {
            1
        } else {
            0
        }
    }

    /// `decisions: 3 allow, 1 block, 0 ask, 0 modify, 0 error`
    pub(crate) fn line(&self) -> String {
        format!(
            "decisions: {} allow, {} block, {} ask, {} modify, {} error",
            self.allow, self.block, self.ask, self.modify, self.error
        )
    }
}

impl Stats {
    fn add(&mut self, o: &Stats) {
        self.requests += o.requests;
        self.errors += o.errors;
        self.input_bytes += o.input_bytes;
        self.content_bytes += o.content_bytes;
        self.parse += o.parse;
        self.evaluate += o.evaluate;
        self.write += o.write;
        self.kinds.add(&o.kinds);
    }
}

/// The bytes of text a request asks to be scanned: `content`, tool
/// arguments and output, and the action's text fields.
fn content_bytes(r: &CheckRequest) -> u64 {
    fn json_len(v: &serde_json::Value) -> u64 {
        match v {
            serde_json::Value::String(s) => s.len() as u64,
            serde_json::Value::Array(a) => a.iter().map(json_len).sum(),
            serde_json::Value::Object(m) => {
                m.iter().map(|(k, v)| k.len() as u64 + json_len(v)).sum()
            }
            _ => 0,
        }
    }
    let mut n = r.content.as_ref().map_or(0, |c| c.len() as u64);
    if let Some(t) = &r.tool {
        n += t.arguments.as_ref().map_or(0, json_len) + t.output.as_ref().map_or(0, json_len);
    }
    if let Some(a) = &r.action {
        n += a.description.as_ref().map_or(0, |d| d.len() as u64);
        n += a
            .targets
            .iter()
            .flatten()
            .map(|t| t.uri.len() as u64)
            .sum::<u64>();
    }
    n
}

/// The lines of a block (split at each newline, found with `memchr`).
fn lines(block: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut start = 0;
    memchr::memchr_iter(b'\n', block)
        .chain(std::iter::once(block.len()))
        .map(move |end| {
            let line = block.get(start..end).unwrap_or_default();
            start = end + 1;
            line
        })
}

fn process(engine: &Engine, block: &[u8], out: &mut Vec<u8>, stats: &mut Stats) {
    // A block ends with a newline: the piece after it is not a line.
    let block = block.strip_suffix(b"\n").unwrap_or(block);
    for raw in lines(block) {
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        stats.requests += 1;
        stats.input_bytes += raw.len() as u64;
        let t0 = Instant::now();
        let decision = match std::str::from_utf8(raw) {
            Err(_) => {
                stats.parse += t0.elapsed();
                Decision::error(new_id(), "request.malformed", "line is not valid UTF-8")
            }
            Ok(line) => {
                let parsed = parse_request(line);
                let t1 = Instant::now();
                stats.parse += t1 - t0;
                let result = parsed.and_then(|r| {
                    stats.content_bytes += content_bytes(&r);
                    engine.evaluate(&r)
                });
                stats.evaluate += t1.elapsed();
                result.unwrap_or_else(|e| error_decision(line, &e))
            }
        };
        if decision.decision == DecisionKind::Error {
            stats.errors += 1;
        }
        stats.kinds.count(decision.decision);
        let t2 = Instant::now();
        // Serializing a Decision into memory cannot fail.
        let _ = serde_json::to_writer(&mut *out, &decision);
        out.push(b'\n');
        stats.write += t2.elapsed();
    }
}

fn memrchr_newline(block: &[u8]) -> Option<usize> {
    block.iter().rposition(|&b| b == b'\n')
}

/// A line longer than a block: read the rest of it.
fn continue_long_line(input: &mut impl BufRead, block: &mut Vec<u8>) -> anyhow::Result<()> {
    input
        .read_until(b'\n', block)
        .context("cannot read the requests")?;
    Ok(())
}

pub(crate) fn run(engine: &Engine, args: &CheckArgs) -> anyhow::Result<u8> {
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let started = Instant::now();
    let mut input = BufReader::with_capacity(1 << 20, open_input(args)?);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());

    let (work_tx, work_rx) = mpsc::sync_channel::<(u64, Vec<u8>)>(threads * 2);
    let work_rx = std::sync::Mutex::new(work_rx);
    let (done_tx, done_rx) = mpsc::sync_channel::<(u64, Vec<u8>)>(threads * 4);
    let mut totals = Stats::default();

    let outcome: anyhow::Result<()> = std::thread::scope(|scope| {
        let mut workers = Vec::new();
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let work_rx = &work_rx;
            workers.push(scope.spawn(move || {
                let mut stats = Stats::default();
                loop {
                    let next = match work_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => break,
                    };
                    let Ok((n, block)) = next else { break };
                    let mut buf = Vec::with_capacity(4096);
                    process(engine, &block, &mut buf, &mut stats);
                    if done_tx.send((n, buf)).is_err() {
                        break;
                    }
                }
                stats
            }));
        }
        drop(done_tx);

        let reader = scope.spawn(move || -> anyhow::Result<()> {
            let mut n = 0u64;
            let mut carry: Vec<u8> = Vec::new();
            loop {
                let mut block = std::mem::take(&mut carry);
                block.reserve(BLOCK_BYTES + 4096);
                let mut eof = false;
                while block.len() < BLOCK_BYTES {
                    let buf = input.fill_buf().context("cannot read the requests")?;
                    if buf.is_empty() {
                        eof = true;
                        break;
                    }
                    let take = buf.len();
                    block.extend_from_slice(buf);
                    input.consume(take);
                }
                if !eof {
                    // Keep the partial last line for the next block.
                    match memrchr_newline(&block) {
                        Some(i) => carry = block.split_off(i + 1),
                        None => continue_long_line(&mut input, &mut block)?,
                    }
                }
                if !block.is_empty() && work_tx.send((n, block)).is_err() {
                    return Ok(());
                }
                n += 1;
                if eof {
                    return Ok(());
                }
            }
        });

        let mut pending: BTreeMap<u64, Vec<u8>> = BTreeMap::new();
        let mut next = 0u64;
        let mut write_time = Duration::ZERO;
        let mut write_result = Ok(());
        for (n, buf) in done_rx.iter() {
            pending.insert(n, buf);
            while let Some(buf) = pending.remove(&next) {
                let t = Instant::now();
                if write_result.is_ok() {
                    write_result = out.write_all(&buf);
                }
                write_time += t.elapsed();
                next += 1;
            }
        }
        let t = Instant::now();
        if write_result.is_ok() {
            write_result = out.flush();
        }
        write_time += t.elapsed();
        totals.write += write_time;
        for w in workers {
            if let Ok(stats) = w.join() {
                totals.add(&stats);
            }
        }
        match reader.join() {
            Ok(r) => r?,
            Err(_) => anyhow::bail!("the reader thread failed"),
        }
        write_result.context("cannot write the decisions")?;
        Ok(())
    });
    outcome?;

    if args.stats {
        let wall = started.elapsed();
        let mb = |b: u64| b as f64 / 1e6;
        let rate = |b: u64, d: Duration| {
            if d.is_zero() {
                0.0
            } else {
                mb(b) / d.as_secs_f64()
            }
        };
        eprintln!(
            "requests: {} ({} errors); input {:.1} MB; content {:.1} MB",
            totals.requests,
            totals.errors,
            mb(totals.input_bytes),
            mb(totals.content_bytes)
        );
        eprintln!(
            "parse {:.3} s, evaluate {:.3} s, write {:.3} s (summed over {threads} thread{})",
            totals.parse.as_secs_f64(),
            totals.evaluate.as_secs_f64(),
            totals.write.as_secs_f64(),
            if threads == 1 { "" } else { "s" }
        );
        eprintln!(
            "evaluate: {:.0} MB/s of content per thread, {:.0} MB/s on {threads} thread{}; wall {:.3} s ({:.0} MB/s of input)",
            rate(totals.content_bytes, totals.evaluate),
            rate(totals.content_bytes, totals.evaluate) * threads as f64,
            if threads == 1 { "" } else { "s" },
            wall.as_secs_f64(),
            rate(totals.input_bytes, wall)
        );
        eprintln!(
            "literal scan: {} (PALISADE_SCAN)",
            palisade_engine::scan_path()
        );
        eprintln!("{}", totals.kinds.line());
    }
    Ok(totals.kinds.exit_code())
}

/// A fresh request id (UUID v7) for an answer to a request without one.
fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_split_as_a_slice_splits_them() {
        for block in [&b""[..], b"a", b"a\nb\r\n\nc", b"\n", b"\n\n{\"x\":1}\n"] {
            let expected: Vec<&[u8]> = block.split(|&b| b == b'\n').collect();
            assert_eq!(lines(block).collect::<Vec<_>>(), expected, "{block:?}");
        }
    }
}
