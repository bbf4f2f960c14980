//! `palisade check --config FILE`: requests decided by a `Guard`, so that
//! the policy's async checks call their services and every decision is
//! written to the audit log when the config has one.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, bail};
use futures::StreamExt;
use palisade_checks::audit::JsonlAudit;
use palisade_checks::{Guard, GuardError};
use palisade_engine::parse_request;
use palisade_protocol::Decision;
use palisade_transport::ServiceConfig;

use crate::CheckArgs;
use crate::check::{
    error_decision, flag_request, load_policy, open_input, print_decision, read_request,
};

/// Requests of a `--jsonl` batch decided at the same time (their async
/// checks overlap); decisions are still written in input order.
const IN_FLIGHT: usize = 64;

pub(crate) fn run(args: &CheckArgs, config_path: &Path) -> anyhow::Result<u8> {
    let config = ServiceConfig::from_path(config_path)
        .map_err(|errors| crate::serve::config_error(config_path, &errors))?;
    let policy = args.policy.clone().or_else(|| config.policy.clone());
    let engine = load_policy(policy.as_deref())?;
    if args.jsonl && flag_request(args)?.is_some() {
        bail!(
            "--jsonl reads requests from input; it cannot be combined with --stage/--tool/--args/--content"
        );
    }
    // A batch compiles every regex before its first request, as without
    // `--config`.
    if args.jsonl {
        engine.warm();
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .worker_threads(args.threads.unwrap_or(2).max(1))
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let mut guard = Guard::new(engine, &config.guard).map_err(|e| anyhow::anyhow!("{e}"))?;
        if let Some(audit) = &config.guard.audit {
            let log = JsonlAudit::open(&audit.path, audit.durability)
                .await
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            guard = guard.with_audit(Arc::new(log));
        }
        let result = if args.jsonl {
            batch(&guard, args).await
        } else {
            one(&guard, args).await
        };
        let closed = guard.shutdown().await;
        let code = result?;
        closed.map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(code)
    })
}

async fn one(guard: &Guard, args: &CheckArgs) -> anyhow::Result<u8> {
    let request = read_request(args)?;
    let decision = guard.check(&request).await.map_err(|e| match e {
        GuardError::Request(e) => anyhow::anyhow!("invalid request: {e}"),
        other => anyhow::anyhow!("{other}"),
    })?;
    print_decision(&decision)
}

async fn batch(guard: &Guard, args: &CheckArgs) -> anyhow::Result<u8> {
    let started = Instant::now();
    let input = BufReader::new(open_input(args)?);
    let mut lines = Vec::new();
    for line in input.lines() {
        lines.push(line.context("cannot read the requests")?);
    }
    let count = lines.len();
    let decisions = futures::stream::iter(lines)
        .map(|line| async move { decide(guard, &line).await })
        .buffered(IN_FLIGHT);
    futures::pin_mut!(decisions);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut kinds = crate::jsonl::Kinds::default();
    while let Some(decision) = decisions.next().await {
        let decision = decision?;
        kinds.count(decision.decision);
        serde_json::to_writer(&mut out, &decision).context("cannot write the decisions")?;
        out.write_all(b"\n").context("cannot write the decisions")?;
    }
    out.flush().context("cannot write the decisions")?;
    if args.stats {
        eprintln!(
            "requests: {count} ({} errors); wall {:.3} s",
            kinds.error,
            started.elapsed().as_secs_f64()
        );
        eprintln!("{}", kinds.line());
    }
    Ok(kinds.exit_code())
}

/// One line's decision; a malformed line gets an `error` decision, an
/// audit failure stops the batch.
async fn decide(guard: &Guard, line: &str) -> anyhow::Result<Decision> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let request = match parse_request(line) {
        Ok(r) => r,
        Err(e) => return Ok(error_decision(line, &e)),
    };
    match guard.check(&request).await {
        Ok(d) => Ok(d),
        Err(GuardError::Request(e)) => Ok(error_decision(line, &e)),
        Err(e) => Err(anyhow::anyhow!("{e}")),
    }
}
