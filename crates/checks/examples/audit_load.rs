//! Load for the audit log: `audit_load <path> [workers]` records decisions
//! from many concurrent tasks (32 by default) into the log at `<path>`
//! (durability `fsync`) until it is killed or its stdout is closed. Each
//! receipt id is printed on its own line only once its record is
//! acknowledged, so whatever a reader has seen must be in the log.

use std::error::Error;
use std::io::Write;
use std::sync::Arc;

use palisade_checks::audit::{AuditRecord, AuditSink, Durability, JsonlAudit};
use palisade_protocol::{CheckRequest, Decision};

type BoxError = Box<dyn Error + Send + Sync>;

#[tokio::main]
async fn main() -> Result<(), BoxError> {
    let mut args = std::env::args().skip(1);
    let (Some(path), workers) = (args.next(), args.next()) else {
        return Err("usage: audit_load <path> [workers]".into());
    };
    let workers: usize = match workers {
        Some(n) => n.parse().map_err(|e| format!("workers `{n}`: {e}"))?,
        None => 32,
    };
    let audit = Arc::new(JsonlAudit::open(&path, Durability::Fsync).await?);
    let mut tasks = tokio::task::JoinSet::new();
    for worker in 0..workers {
        let audit = Arc::clone(&audit);
        tasks.spawn(async move { run(worker, &audit).await });
    }
    // The first task to fail (a closed stdout, a write error) ends the run.
    while let Some(done) = tasks.join_next().await {
        done??;
    }
    Ok(())
}

async fn run(worker: usize, audit: &JsonlAudit) -> Result<(), BoxError> {
    let request = CheckRequest::input("load").with_agent_id(format!("worker-{worker}"));
    for i in 0u64.. {
        let receipt = format!("w{worker}-{i}");
        let mut decision = Decision::allow(format!("req-{worker}-{i}"));
        decision.receipt_id = Some(receipt.clone());
        audit
            .record(AuditRecord::new(&request, &decision, Some("load")))
            .await?;
        let mut out = std::io::stdout().lock();
        writeln!(out, "{receipt}")?;
        out.flush()?;
    }
    Ok(())
}
