//! `cargo xtask alternate`: wall times of whole processes, run in turn.
//!
//! Two builds measured one after the other see the machine at two different
//! moments, and its speed drifts; run in turn, process by process, both see
//! the same moments. Each command runs `runs` times (after ten warm-up
//! rounds), its standard input read from a file, its output discarded; the
//! 50th and 90th percentiles of each command's wall times are printed.

use std::fs::File;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context, Result, bail};

pub(crate) const USAGE: &str =
    "cargo xtask alternate [--runs N] [--input FILE] -- COMMAND [ARG…] -- COMMAND [ARG…] …";

/// Warm-up rounds, not counted.
const WARMUP: usize = 10;

pub(crate) fn run(args: &[&str]) -> Result<()> {
    let mut runs = 300usize;
    let mut input = None;
    let mut rest = args;
    loop {
        match rest {
            ["--runs", n, tail @ ..] => {
                runs = n
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .with_context(|| format!("--runs `{n}`: a whole number above 0"))?;
                rest = tail;
            }
            ["--input", file, tail @ ..] => {
                input = Some(*file);
                rest = tail;
            }
            ["--", ..] => break,
            _ => bail!("usage: {USAGE}"),
        }
    }
    let commands: Vec<&[&str]> = rest
        .split(|a| *a == "--")
        .filter(|c| !c.is_empty())
        .collect();
    if commands.is_empty() {
        bail!("no command to run; usage: {USAGE}");
    }
    let mut times = vec![Vec::with_capacity(runs); commands.len()];
    for round in 0..WARMUP + runs {
        for (command, times) in commands.iter().zip(&mut times) {
            let (program, args) = command.split_first().context("an empty command")?;
            let stdin = match input {
                Some(path) => {
                    Stdio::from(File::open(path).with_context(|| format!("--input {path}"))?)
                }
                None => Stdio::null(),
            };
            let start = Instant::now();
            let status = Command::new(program)
                .args(args)
                .stdin(stdin)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .with_context(|| format!("running `{program}`"))?;
            let elapsed = start.elapsed();
            if status.code().is_none() {
                bail!("`{}` ended by a signal", command.join(" "));
            }
            if round >= WARMUP {
                times.push(elapsed.as_secs_f64() * 1e3);
            }
        }
    }
    for (command, mut times) in commands.iter().zip(times) {
        times.sort_by(f64::total_cmp);
        let at = |q: usize| {
            times
                .get((times.len() - 1) * q / 100)
                .copied()
                .unwrap_or_default()
        };
        println!(
            "p50 {:>7.2} ms  p90 {:>7.2} ms  {}",
            at(50),
            at(90),
            command.join(" ")
        );
    }
    Ok(())
}
