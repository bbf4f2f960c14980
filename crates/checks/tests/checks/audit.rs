//! The audit log on real files: group commit under concurrency, tamper
//! detection at the exact line, reopening, torn tails, and a writer killed
//! with SIGKILL.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use palisade_checks::audit::{
    ApprovalRecord, ApprovalUse, AuditError, AuditRecord, AuditSink, Durability, GENESIS_HASH,
    JsonlAudit, VerifyError, VerifyReport, verify,
};
use palisade_protocol::{CheckRequest, Decision, DecisionKind, Finding, FindingAction};
use sha2::{Digest, Sha256};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(4)
        .enable_all()
        .build()
        .unwrap()
}

/// A blocked decision with a known receipt id.
fn record(receipt: &str) -> AuditRecord {
    let request = CheckRequest::tool_use("sql", serde_json::json!({"query": "DROP TABLE users"}))
        .with_request_id(format!("req-{receipt}"))
        .with_agent_id("emerson");
    let mut decision = Decision::block(format!("req-{receipt}"), "guardrail.regex", "no");
    decision.violations = vec![Finding::new("sql-drop", "regex", FindingAction::Block)];
    decision.receipt_id = Some(receipt.to_owned());
    decision.evaluated = Some(3);
    decision.duration_us = Some(12);
    AuditRecord::new(&request, &decision, Some("acme"))
}

/// Appends `count` records, one after the other, receipts `<prefix>-<i>`.
fn append(path: &Path, durability: Durability, prefix: &str, count: usize) {
    runtime().block_on(async {
        let audit = JsonlAudit::open(path, durability).await.unwrap();
        for i in 1..=count {
            audit
                .record(record(&format!("{prefix}-{i}")))
                .await
                .unwrap();
        }
        audit.flush().await.unwrap();
    });
}

fn lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn write_lines(path: &Path, lines: &[String]) {
    let mut text = lines.join("\n");
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

/// The first bad line and its reason.
fn failure(path: &Path) -> (u64, String) {
    match verify(path) {
        Err(VerifyError::Invalid { line, reason }) => (line, reason),
        other => panic!("expected a broken chain, got {other:?}"),
    }
}

fn receipts(path: &Path) -> Vec<String> {
    lines(path)
        .iter()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            value["receiptId"].as_str().unwrap().to_owned()
        })
        .collect()
}

/// A 20-record log and its lines.
fn small_log(dir: &Path) -> (PathBuf, Vec<String>) {
    let path = dir.join("small.jsonl");
    append(&path, Durability::Fsync, "r", 20);
    let lines = lines(&path);
    assert_eq!(lines.len(), 20);
    (path, lines)
}

#[test]
fn ten_thousand_concurrent_records_form_one_chain() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    runtime().block_on(async {
        let audit = Arc::new(JsonlAudit::open(&path, Durability::Fsync).await.unwrap());
        let tasks: Vec<_> = (0..10_000)
            .map(|i| {
                let audit = Arc::clone(&audit);
                tokio::spawn(async move { audit.record(record(&format!("c-{i}"))).await })
            })
            .collect();
        for task in tasks {
            task.await.unwrap().unwrap();
        }
    });
    assert_eq!(lines(&path).len(), 10_000);
    let report = verify(&path).unwrap();
    assert_eq!(report.records, 10_000);
    assert_eq!(report.torn_tail_bytes, 0);
    let mut counts: HashMap<String, usize> = HashMap::new();
    for receipt in receipts(&path) {
        *counts.entry(receipt).or_default() += 1;
    }
    assert_eq!(counts.len(), 10_000);
    assert!((0..10_000).all(|i| counts.get(&format!("c-{i}")) == Some(&1)));
}

#[test]
fn lines_hold_the_record_then_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let (path, lines) = small_log(dir.path());
    let first: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    let members = [
        "time",
        "receiptId",
        "tenant",
        "agent",
        "requestId",
        "stage",
        "decision",
        "checks",
        "evaluated",
        "durationUs",
        "payloadSha256",
        "seq",
        "prev",
        "hash",
    ];
    assert_eq!(first.as_object().unwrap().len(), members.len());
    let positions: Vec<usize> = members
        .iter()
        .map(|m| lines[0].find(&format!("\"{m}\":")).unwrap())
        .collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{}", lines[0]);
    assert!(lines[0].starts_with("{\"time\":\""), "{}", lines[0]);
    assert!(
        lines[0].contains(&format!(
            ",\"seq\":1,\"prev\":\"{GENESIS_HASH}\",\"hash\":\""
        )),
        "{}",
        lines[0]
    );
    assert_eq!(first["decision"], "block");
    assert_eq!(first["stage"], "tool_use");
    assert_eq!(first["checks"], serde_json::json!(["sql-drop"]));
    assert!(!lines.iter().any(|l| l.contains("DROP TABLE")));

    // The documented hash: SHA-256 of prev, then the line up to `,"hash":"`, then `}`.
    for line in &lines {
        let (body, hash) = line.rsplit_once(",\"hash\":\"").unwrap();
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut hasher = Sha256::new();
        hasher.update(value["prev"].as_str().unwrap());
        hasher.update(body);
        hasher.update("}");
        assert_eq!(format!("{}\"}}", hex::encode(hasher.finalize())), hash);
    }
    let report = verify(&path).unwrap();
    assert_eq!(
        report.to_string(),
        format!("20 records, last hash {}", report.last_hash)
    );
    let last: serde_json::Value = serde_json::from_str(&lines[19]).unwrap();
    assert_eq!(last["hash"], report.last_hash.as_str());
}

#[test]
fn an_edited_line_fails_at_that_line() {
    let dir = tempfile::tempdir().unwrap();
    let (_, original) = small_log(dir.path());
    let path = dir.path().join("edited.jsonl");
    for k in [1, 2, 10, 19, 20] {
        let mut lines = original.clone();
        let edited = lines[k - 1].replace("\"decision\":\"block\"", "\"decision\":\"allow\"");
        assert_ne!(edited, lines[k - 1]);
        lines[k - 1] = edited;
        write_lines(&path, &lines);
        let (line, reason) = failure(&path);
        assert_eq!(line, k as u64, "edit of line {k}: {reason}");
        assert!(reason.starts_with("hash mismatch"), "{reason}");
    }
}

#[test]
fn an_edited_line_with_a_recomputed_hash_breaks_the_next_link() {
    let dir = tempfile::tempdir().unwrap();
    let (_, original) = small_log(dir.path());
    let path = dir.path().join("rehashed.jsonl");
    for k in [1, 10, 19] {
        let mut lines = original.clone();
        lines[k - 1] = rehash(&lines[k - 1].replace("\"block\"", "\"allow\""));
        write_lines(&path, &lines);
        let (line, reason) = failure(&path);
        assert_eq!(line, k as u64 + 1, "{reason}");
        assert_eq!(reason, format!("`prev` does not match line {k}'s hash"));
    }
    // Rewriting the last line consistently leaves a valid chain: only a
    // known head (records, last hash) reveals it.
    let mut lines = original.clone();
    lines[19] = rehash(&lines[19].replace("\"block\"", "\"allow\""));
    write_lines(&path, &lines);
    let report = verify(&path).unwrap();
    assert_eq!(report.records, 20);
    assert_ne!(report.last_hash, head(&original));
}

/// The line with its hash recomputed by the documented rule.
fn rehash(line: &str) -> String {
    let (body, _) = line.rsplit_once(",\"hash\":\"").unwrap();
    let value: serde_json::Value = serde_json::from_str(line).unwrap();
    let mut hasher = Sha256::new();
    hasher.update(value["prev"].as_str().unwrap());
    hasher.update(body);
    hasher.update("}");
    format!("{body},\"hash\":\"{}\"}}", hex::encode(hasher.finalize()))
}

fn head(lines: &[String]) -> String {
    let last: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    last["hash"].as_str().unwrap().to_owned()
}

#[test]
fn a_deleted_line_fails_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let (_, original) = small_log(dir.path());
    let path = dir.path().join("deleted.jsonl");
    for k in [1, 2, 10, 19] {
        let mut lines = original.clone();
        lines.remove(k - 1);
        write_lines(&path, &lines);
        let (line, reason) = failure(&path);
        assert_eq!(line, k as u64, "deletion of line {k}: {reason}");
        let expected = if k == 1 {
            "seq 2 on the first line, expected 1 (the log does not start with its first record)"
                .to_owned()
        } else {
            format!(
                "seq {} follows {} (a record is missing or out of order)",
                k + 1,
                k - 1
            )
        };
        assert_eq!(reason, expected);
    }
    // Deleting the last line leaves a shorter valid chain: the report's head
    // is the previous line's, which differs from the known head.
    let mut lines = original.clone();
    lines.pop();
    write_lines(&path, &lines);
    let report = verify(&path).unwrap();
    assert_eq!(report.records, 19);
    assert_eq!(report.last_hash, head(&lines));
    assert_ne!(report.last_hash, head(&original));
}

#[test]
fn swapped_lines_fail_at_the_first_of_them() {
    let dir = tempfile::tempdir().unwrap();
    let (_, original) = small_log(dir.path());
    let path = dir.path().join("swapped.jsonl");
    for k in [1, 2, 10, 19] {
        let mut lines = original.clone();
        lines.swap(k - 1, k);
        write_lines(&path, &lines);
        let (line, reason) = failure(&path);
        assert_eq!(line, k as u64, "swap of lines {k} and {}: {reason}", k + 1);
        assert!(reason.starts_with(&format!("seq {} ", k + 1)), "{reason}");
    }
}

#[test]
fn an_inserted_copy_fails_at_the_copy() {
    let dir = tempfile::tempdir().unwrap();
    let (_, original) = small_log(dir.path());
    let path = dir.path().join("inserted.jsonl");
    // A copy of line k right after it.
    for k in [1, 10, 20] {
        let mut lines = original.clone();
        lines.insert(k, original[k - 1].clone());
        write_lines(&path, &lines);
        let (line, reason) = failure(&path);
        assert_eq!(line, k as u64 + 1, "copy of line {k}: {reason}");
        assert_eq!(
            reason,
            format!("seq {k} follows {k} (a record is repeated or out of order)")
        );
    }
    // A copy of line 5 at the start.
    let mut lines = original.clone();
    lines.insert(0, original[4].clone());
    write_lines(&path, &lines);
    assert_eq!(failure(&path).0, 1);
    // A copy of line 3 between lines 7 and 8.
    let mut lines = original.clone();
    lines.insert(7, original[2].clone());
    write_lines(&path, &lines);
    assert_eq!(failure(&path).0, 8);
}

#[test]
fn garbage_fails_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let (_, original) = small_log(dir.path());
    let path = dir.path().join("garbage.jsonl");
    let mut lines = original.clone();
    lines.insert(5, "not json".to_owned());
    write_lines(&path, &lines);
    let (line, reason) = failure(&path);
    assert_eq!(line, 6);
    assert!(reason.starts_with("not JSON: "), "{reason}");

    let mut lines = original.clone();
    lines.insert(5, String::new());
    write_lines(&path, &lines);
    assert_eq!(failure(&path).0, 6);

    let mut lines = original.clone();
    lines[7] = lines[7].replacen("{", "[", 1);
    write_lines(&path, &lines);
    assert_eq!(failure(&path).0, 8);
}

#[test]
fn reopening_continues_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    append(&path, Durability::Fsync, "first", 5);
    let after_five = verify(&path).unwrap();
    assert_eq!(after_five.records, 5);
    append(&path, Durability::Fsync, "second", 5);
    let report = verify(&path).unwrap();
    assert_eq!(report.records, 10);
    let lines = lines(&path);
    let sixth: serde_json::Value = serde_json::from_str(&lines[5]).unwrap();
    assert_eq!(sixth["seq"], 6);
    assert_eq!(sixth["prev"], after_five.last_hash.as_str());
    let expected: Vec<String> = (1..=5)
        .map(|i| format!("first-{i}"))
        .chain((1..=5).map(|i| format!("second-{i}")))
        .collect();
    assert_eq!(receipts(&path), expected);
}

#[test]
fn a_torn_tail_is_reported_then_truncated_on_open() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    append(&path, Durability::Fsync, "a", 5);
    let whole = std::fs::read(&path).unwrap();
    let half = &lines(&path)[2][..100];
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(half.as_bytes())
        .unwrap();

    let report = verify(&path).unwrap();
    assert_eq!(report.records, 5);
    assert_eq!(report.torn_tail_bytes, 100);

    append(&path, Durability::Fsync, "b", 5);
    let report = verify(&path).unwrap();
    assert_eq!((report.records, report.torn_tail_bytes), (10, 0));
    let after = std::fs::read(&path).unwrap();
    assert!(after.starts_with(&whole));
    assert_eq!(receipts(&path)[5], "b-1");
}

#[test]
fn a_log_holding_only_a_torn_line_starts_over() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    std::fs::write(&path, "{\"time\":\"2026-02-").unwrap();
    assert_eq!(
        verify(&path).unwrap(),
        VerifyReport {
            records: 0,
            last_hash: GENESIS_HASH.to_owned(),
            torn_tail_bytes: 17,
            approval_links: 0,
            approval_links_elsewhere: 0,
        }
    );
    append(&path, Durability::Fsync, "a", 2);
    assert_eq!(verify(&path).unwrap().records, 2);
}

#[test]
fn open_refuses_a_file_that_is_not_an_audit_log_and_leaves_it_alone() {
    let dir = tempfile::tempdir().unwrap();
    let rt = runtime();
    for text in ["hello\nworld\n", "a\nno newline", "no newline at all"] {
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, text).unwrap();
        let err = rt
            .block_on(JsonlAudit::open(&path, Durability::Fsync))
            .unwrap_err();
        assert!(matches!(err, AuditError::Corrupt { .. }), "{err}");
        assert!(
            err.to_string()
                .starts_with("cannot continue the audit log `"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}

#[test]
fn an_empty_or_missing_log() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.jsonl");
    match verify(&path) {
        Err(e @ VerifyError::Io { .. }) => {
            assert!(e.to_string().starts_with("cannot read `"), "{e}")
        }
        other => panic!("{other:?}"),
    }
    std::fs::write(&path, "").unwrap();
    let report = verify(&path).unwrap();
    assert_eq!(
        (report.records, report.last_hash.as_str()),
        (0, GENESIS_HASH)
    );
    append(&path, Durability::Fsync, "a", 1);
    assert_eq!(verify(&path).unwrap().records, 1);
}

#[test]
fn buffered_durability_writes_the_same_chain() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("buffered.jsonl");
    runtime().block_on(async {
        let audit = Arc::new(JsonlAudit::open(&path, Durability::Buffered).await.unwrap());
        let tasks: Vec<_> = (0..500)
            .map(|i| {
                let audit = Arc::clone(&audit);
                tokio::spawn(async move { audit.record(record(&format!("b-{i}"))).await })
            })
            .collect();
        for task in tasks {
            task.await.unwrap().unwrap();
        }
        // Acknowledged means written: readable before any flush.
        assert_eq!(verify(&path).unwrap().records, 500);
        audit.flush().await.unwrap();
    });
    append(&path, Durability::Buffered, "more", 3);
    assert_eq!(verify(&path).unwrap().records, 503);
}

#[test]
fn durability_reads_from_config_words() {
    let fsync: Durability = serde_json::from_str("\"fsync\"").unwrap();
    let buffered: Durability = serde_json::from_str("\"buffered\"").unwrap();
    assert_eq!((fsync, buffered), (Durability::Fsync, Durability::Buffered));
    assert_eq!(Durability::default(), Durability::Fsync);
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_fails_the_record_and_every_later_one() {
    // Every write to /dev/full fails with "no space left on device".
    let full = Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    runtime().block_on(async {
        let audit = JsonlAudit::open(full, Durability::Fsync).await.unwrap();
        let err = audit.record(record("x")).await.unwrap_err();
        assert!(matches!(err, AuditError::Write { .. }), "{err}");
        assert!(
            err.to_string()
                .starts_with("cannot write the audit log `/dev/full`: "),
            "{err}"
        );
        for _ in 0..3 {
            let err = audit.record(record("y")).await.unwrap_err();
            assert!(matches!(err, AuditError::Failed { .. }), "{err}");
        }
        assert!(matches!(
            audit.flush().await.unwrap_err(),
            AuditError::Failed { .. }
        ));
    });
}

/// Kills the child when the test ends, however it ends.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `target/<profile>/examples/audit_load`, built by `cargo test`.
fn audit_load() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap();
    let bin = profile_dir
        .join("examples")
        .join(format!("audit_load{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.is_file(),
        "{} is missing: run this test with `cargo test -p palisade-checks`, which builds the examples \
         (or build it first with `cargo build -p palisade-checks --example audit_load`)",
        bin.display()
    );
    bin
}

#[test]
fn every_acknowledged_record_survives_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("killed.jsonl");
    let child = Command::new(audit_load())
        .arg(&path)
        .arg("64")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = KillOnDrop(child);
    let mut stdout = BufReader::new(child.0.stdout.take().unwrap());
    let mut acknowledged: Vec<String> = Vec::new();
    let mut line = Vec::new();
    let read_ack = |stdout: &mut BufReader<_>, line: &mut Vec<u8>| -> Option<String> {
        line.clear();
        stdout.read_until(b'\n', line).unwrap();
        // A line cut short by the kill was not completely reported: skip it.
        line.pop().filter(|&b| b == b'\n')?;
        Some(String::from_utf8(line.clone()).unwrap())
    };
    while acknowledged.len() < 2_000 {
        match read_ack(&mut stdout, &mut line) {
            Some(id) => acknowledged.push(id),
            None => {
                let _ = child.0.wait();
                let mut stderr = String::new();
                if let Some(mut pipe) = child.0.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
                }
                panic!(
                    "audit_load stopped after {} records: {stderr}",
                    acknowledged.len()
                );
            }
        }
    }
    // SIGKILL: no chance to flush or finish a write.
    child.0.kill().unwrap();
    child.0.wait().unwrap();
    while let Some(id) = read_ack(&mut stdout, &mut line) {
        acknowledged.push(id);
    }

    let report = verify(&path).unwrap();
    let in_log: HashSet<String> = receipts_of_complete_lines(&path);
    assert_eq!(in_log.len() as u64, report.records);
    let missing: Vec<&String> = acknowledged
        .iter()
        .filter(|id| !in_log.contains(*id))
        .collect();
    assert!(
        missing.is_empty(),
        "acknowledged but not in the log: {missing:?}"
    );
    assert!(report.records >= acknowledged.len() as u64);

    // The log opens again and its chain goes on.
    append(&path, Durability::Fsync, "after", 1);
    let after = verify(&path).unwrap();
    assert_eq!(
        (after.records, after.torn_tail_bytes),
        (report.records + 1, 0)
    );
}

/// Receipt ids of the lines that end with `\n` (a torn tail is not part of the log).
fn receipts_of_complete_lines(path: &Path) -> HashSet<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let complete = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
    complete
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            value["receiptId"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn decisions_of_every_kind_are_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kinds.jsonl");
    runtime().block_on(async {
        let audit = JsonlAudit::open(&path, Durability::Fsync).await.unwrap();
        for (i, kind) in DecisionKind::ALL.iter().enumerate() {
            let request = CheckRequest::input("text").with_request_id(format!("k{i}"));
            let decision = Decision::new(format!("k{i}"), *kind);
            audit
                .record(AuditRecord::new(&request, &decision, None))
                .await
                .unwrap();
        }
    });
    let decisions: Vec<String> = lines(&path)
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["decision"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(decisions, ["allow", "block", "ask", "modify", "error"]);
    assert_eq!(verify(&path).unwrap().records, 5);
}

/// One step of an approval's life, as the log records it.
enum Step {
    /// A decision asking for approval `id`, with receipt `receipt`.
    Ask(&'static str, &'static str),
    /// An answer to `id` linked to `origin`, approved or not.
    Answer(&'static str, &'static str, bool),
    /// A decision using `id`, linked to `origin`.
    Use(&'static str, &'static str),
}

/// A log of these steps, chained as the writer chains any record; then
/// what `verify` says of it.
fn verify_steps(steps: &[Step]) -> Result<VerifyReport, VerifyError> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    runtime().block_on(async {
        let audit = JsonlAudit::open(&path, Durability::Buffered).await.unwrap();
        for (i, step) in steps.iter().enumerate() {
            match step {
                Step::Ask(id, receipt) => {
                    let mut r = record(receipt);
                    r.approval = Some((*id).to_owned());
                    audit.record(r).await.unwrap();
                }
                Step::Answer(id, origin, approved) => {
                    let event = if *approved {
                        "approval.approved"
                    } else {
                        "approval.denied"
                    };
                    let answer: ApprovalRecord = serde_json::from_value(serde_json::json!({
                        "time": "2026-11-28T12:00:00.000Z", "receiptId": format!("answer-{i}"),
                        "tenant": "acme", "event": event, "approval": id, "origin": origin,
                        "requestId": "req", "bound": "b", "by": "ops"
                    }))
                    .unwrap();
                    audit.record_approval(answer).await.unwrap();
                }
                Step::Use(id, origin) => {
                    let mut r = record(&format!("use-{i}"));
                    r.approval_use = Some(ApprovalUse {
                        id: (*id).to_owned(),
                        result: "used".to_owned(),
                        origin: Some((*origin).to_owned()),
                    });
                    audit.record(r).await.unwrap();
                }
            }
        }
        audit.flush().await.unwrap();
    });
    verify(&path)
}

fn invalid_at(result: Result<VerifyReport, VerifyError>) -> (u64, String) {
    match result {
        Err(VerifyError::Invalid { line, reason }) => (line, reason),
        other => panic!("{other:?}"),
    }
}

#[test]
fn verify_checks_the_links_of_approvals() {
    use Step::{Answer, Ask, Use};
    let report =
        verify_steps(&[Ask("a1", "r1"), Answer("a1", "r1", true), Use("a1", "r1")]).unwrap();
    assert_eq!(
        (
            report.records,
            report.approval_links,
            report.approval_links_elsewhere
        ),
        (3, 3, 0)
    );
    assert!(
        report.to_string().ends_with(", 3 approval links"),
        "{report}"
    );

    let (line, reason) = invalid_at(verify_steps(&[
        Ask("a1", "r1"),
        Answer("a1", "r1", true),
        Use("a1", "r1"),
        Use("a1", "r1"),
    ]));
    assert_eq!(line, 4);
    assert!(reason.contains("used already on line 3"), "{reason}");

    let (line, reason) = invalid_at(verify_steps(&[
        Ask("a1", "r1"),
        Answer("a1", "r1", false),
        Use("a1", "r1"),
    ]));
    assert_eq!(line, 3);
    assert!(reason.contains("line 2 denied it"), "{reason}");

    let (line, reason) = invalid_at(verify_steps(&[Ask("a1", "r1"), Answer("a1", "r9", true)]));
    assert_eq!(line, 2);
    assert!(reason.contains("links to receipt `r9`"), "{reason}");

    let (line, reason) = invalid_at(verify_steps(&[
        Ask("a1", "r1"),
        Answer("a1", "r1", true),
        Use("a1", "r2"),
    ]));
    assert_eq!(line, 3);
    assert!(
        reason.contains("use of approval `a1` links to receipt `r2`"),
        "{reason}"
    );

    let (_, reason) = invalid_at(verify_steps(&[
        Ask("a1", "r1"),
        Answer("a1", "r1", true),
        Answer("a1", "r1", true),
    ]));
    assert!(reason.contains("answered already"), "{reason}");

    // Asked or answered in another replica's log: a note, not an error.
    let report =
        verify_steps(&[Answer("a2", "r5", true), Use("a2", "r5"), Use("a3", "r6")]).unwrap();
    assert_eq!(
        (report.approval_links, report.approval_links_elsewhere),
        (3, 2)
    );
}
