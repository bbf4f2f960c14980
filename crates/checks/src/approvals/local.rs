//! [`LocalApprovals`]: approvals in this process's memory, and — with a
//! path — in a journal file, so that they survive a restart.
//!
//! The journal is JSON lines, one [`Approval`] as it stands after each
//! change (the last line of an id wins), appended before the change is
//! answered; an answer and a use are synced (`fsync`) first too, a new
//! approval is not (lost with the machine, it costs a new ask). Opening it reads it back, drops what has
//! expired and writes the rest to a fresh file (synced, then renamed over
//! the old one), so that it never grows past the live approvals and the
//! changes since the start.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{
    Answer, AnswerError, Approval, ApprovalError, ApprovalState, ApprovalStore, Refusal, Taken,
};

/// Approvals by (tenant, id).
type ById = BTreeMap<(String, String), Approval>;

/// Approvals in memory, with an optional journal file.
#[derive(Debug)]
pub struct LocalApprovals {
    inner: tokio::sync::Mutex<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// By (tenant, id).
    approvals: ById,
    journal: Option<Journal>,
    /// Approvals made since expired ones were last dropped.
    since_sweep: usize,
}

/// The most approvals kept at once: past it, an ask gets none (and a
/// warning) until some expire.
const MAX_LIVE: usize = 100_000;

/// How many approvals are made between two sweeps of expired ones.
const SWEEP_EVERY: usize = 1024;

#[derive(Debug)]
struct Journal {
    path: PathBuf,
    file: Arc<std::sync::Mutex<std::fs::File>>,
}

impl LocalApprovals {
    /// Approvals in memory only: gone when the process ends.
    pub fn in_memory() -> Self {
        LocalApprovals {
            inner: tokio::sync::Mutex::new(Inner {
                approvals: BTreeMap::new(),
                journal: None,
                since_sweep: 0,
            }),
        }
    }

    /// Approvals kept in the journal at `path` too (created when absent),
    /// with those it holds that have not expired at `now_ms`.
    ///
    /// # Errors
    ///
    /// When the file cannot be read or rewritten, or a line of it (but a
    /// last line cut short by a crash) is not an approval.
    pub async fn open(path: impl AsRef<Path>, now_ms: u64) -> Result<Self, ApprovalError> {
        let path = path.as_ref().to_path_buf();
        let opening = path.clone();
        let (approvals, file) = tokio::task::spawn_blocking(move || open_journal(&opening, now_ms))
            .await
            .map_err(|e| ApprovalError(e.to_string()))??;
        Ok(LocalApprovals {
            inner: tokio::sync::Mutex::new(Inner {
                approvals,
                journal: Some(Journal {
                    path,
                    file: Arc::new(std::sync::Mutex::new(file)),
                }),
                since_sweep: 0,
            }),
        })
    }
}

fn io_error(path: &Path, what: &str, e: &std::io::Error) -> ApprovalError {
    ApprovalError(format!("cannot {what} `{}`: {e}", path.display()))
}

fn open_journal(path: &Path, now_ms: u64) -> Result<(ById, std::fs::File), ApprovalError> {
    let mut approvals = BTreeMap::new();
    match std::fs::read(path) {
        Ok(bytes) => {
            let complete = bytes
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |end| end + 1);
            let lines = bytes.get(..complete).unwrap_or_default();
            for (n, line) in lines.split(|&b| b == b'\n').enumerate() {
                if line.is_empty() {
                    continue;
                }
                let a: Approval = serde_json::from_slice(line).map_err(|e| {
                    ApprovalError(format!(
                        "`{}` line {}: not an approval: {e}",
                        path.display(),
                        n + 1
                    ))
                })?;
                approvals.insert((a.tenant.clone(), a.id.clone()), a);
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io_error(path, "read the approvals file", &e)),
    }
    approvals.retain(|_, a: &mut Approval| !a.expired(now_ms));
    // The live approvals, written to a fresh file that replaces the old
    // one only once it is synced.
    let mut fresh = path.as_os_str().to_owned();
    fresh.push(".new");
    let fresh = PathBuf::from(fresh);
    let mut text = Vec::new();
    for a in approvals.values() {
        serde_json::to_writer(&mut text, a).map_err(|e| ApprovalError(e.to_string()))?;
        text.push(b'\n');
    }
    let write = |p: &Path| -> std::io::Result<()> {
        let mut f = std::fs::File::create(p)?;
        f.write_all(&text)?;
        f.sync_all()
    };
    write(&fresh).map_err(|e| io_error(&fresh, "write the approvals file", &e))?;
    std::fs::rename(&fresh, path).map_err(|e| io_error(path, "replace the approvals file", &e))?;
    sync_parent(path);
    let file = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map_err(|e| io_error(path, "open the approvals file", &e))?;
    Ok((approvals, file))
}

#[cfg(unix)]
fn sync_parent(path: &Path) {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = std::fs::File::open(parent) {
        let _ = dir.sync_all();
    }
}

#[cfg(not(unix))]
fn sync_parent(_path: &Path) {}

impl Inner {
    /// Writes `approval` to the journal — synced when `sync` —, then keeps
    /// it.
    async fn keep(&mut self, approval: Approval, sync: bool) -> Result<(), ApprovalError> {
        if let Some(j) = &self.journal {
            let mut line =
                serde_json::to_vec(&approval).map_err(|e| ApprovalError(e.to_string()))?;
            line.push(b'\n');
            let file = j.file.clone();
            let path = j.path.clone();
            tokio::task::spawn_blocking(move || {
                let mut f = file
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                f.write_all(&line)
                    .and_then(|()| if sync { f.sync_data() } else { Ok(()) })
                    .map_err(|e| io_error(&path, "write the approvals file", &e))
            })
            .await
            .map_err(|e| ApprovalError(e.to_string()))??;
        }
        self.approvals
            .insert((approval.tenant.clone(), approval.id.clone()), approval);
        Ok(())
    }

    fn get(&self, tenant: &str, id: &str) -> Option<&Approval> {
        self.approvals.get(&(tenant.to_owned(), id.to_owned()))
    }
}

#[async_trait::async_trait]
impl ApprovalStore for LocalApprovals {
    async fn create(&self, approval: &Approval) -> Result<(), ApprovalError> {
        let mut inner = self.inner.lock().await;
        let now = approval.created_ms;
        // Expired approvals leave memory as new ones come.
        inner.since_sweep += 1;
        if inner.since_sweep >= SWEEP_EVERY || inner.approvals.len() >= MAX_LIVE {
            inner.approvals.retain(|_, a| !a.expired(now));
            inner.since_sweep = 0;
        }
        if inner.approvals.len() >= MAX_LIVE {
            return Err(ApprovalError(format!(
                "{MAX_LIVE} approvals are waiting or unused; no more are kept until some expire"
            )));
        }
        // Not synced: a pending approval lost with the machine costs a new
        // ask; its answer and its use are synced.
        inner.keep(approval.clone(), false).await
    }

    async fn get(&self, tenant: &str, id: &str) -> Result<Option<Approval>, ApprovalError> {
        Ok(self.inner.lock().await.get(tenant, id).cloned())
    }

    async fn answer(
        &self,
        tenant: &str,
        id: &str,
        answer: &Answer,
        now_ms: u64,
    ) -> Result<Approval, AnswerError> {
        let mut inner = self.inner.lock().await;
        let Some(a) = inner.get(tenant, id) else {
            return Err(AnswerError::Unknown(id.to_owned()));
        };
        if a.expired(now_ms) {
            return Err(AnswerError::NotPending {
                id: id.to_owned(),
                state: "expired",
            });
        }
        if a.state != ApprovalState::Pending {
            return Err(AnswerError::NotPending {
                id: id.to_owned(),
                state: a.state.as_str(),
            });
        }
        let mut a = a.clone();
        a.state = if answer.approve {
            ApprovalState::Approved
        } else {
            ApprovalState::Denied
        };
        a.answered_by = answer.by.clone();
        a.answered_ms = Some(now_ms);
        a.note = answer.note.clone();
        inner.keep(a.clone(), true).await?;
        Ok(a)
    }

    async fn take(
        &self,
        tenant: &str,
        id: &str,
        bound: &str,
        receipt: &str,
        now_ms: u64,
    ) -> Result<Taken, ApprovalError> {
        let mut inner = self.inner.lock().await;
        let Some(a) = inner.get(tenant, id) else {
            return Ok(Taken::Refused(Refusal::Unknown));
        };
        let refusal = match a.state {
            ApprovalState::Pending => Some(Refusal::Pending),
            ApprovalState::Denied => Some(Refusal::Denied),
            ApprovalState::Used => Some(Refusal::Used),
            ApprovalState::Approved if a.expired(now_ms) => Some(Refusal::Expired),
            ApprovalState::Approved if a.bound != bound => Some(Refusal::Mismatch),
            ApprovalState::Approved => None,
        };
        if let Some(r) = refusal {
            return Ok(Taken::Refused(r));
        }
        let before = a.clone();
        let mut used = a.clone();
        used.state = ApprovalState::Used;
        used.used_receipt = Some(receipt.to_owned());
        // Synced before the call is let through: after a crash the
        // approval is still used.
        inner.keep(used, true).await?;
        Ok(Taken::Used(Box::new(before)))
    }

    async fn list(&self, tenant: &str, now_ms: u64) -> Result<Vec<Approval>, ApprovalError> {
        let inner = self.inner.lock().await;
        let mut out: Vec<Approval> = inner
            .approvals
            .values()
            .filter(|a| a.tenant == tenant && !a.expired(now_ms))
            .cloned()
            .collect();
        out.sort_by(|a, b| (a.created_ms, &a.id).cmp(&(b.created_ms, &b.id)));
        Ok(out)
    }

    async fn find(
        &self,
        tenant: &str,
        bound: &str,
        now_ms: u64,
    ) -> Result<Option<String>, ApprovalError> {
        let inner = self.inner.lock().await;
        Ok(inner
            .approvals
            .values()
            .filter(|a| {
                a.tenant == tenant
                    && a.bound == bound
                    && a.state == ApprovalState::Approved
                    && !a.expired(now_ms)
            })
            .min_by_key(|a| a.created_ms)
            .map(|a| a.id.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palisade_protocol::Stage;

    fn approval(id: &str, expires_ms: u64) -> Approval {
        Approval {
            id: id.to_owned(),
            tenant: "acme".to_owned(),
            bound: "b".repeat(64),
            state: ApprovalState::Pending,
            created_ms: 1_000,
            expires_ms,
            receipt_id: format!("r-{id}"),
            request_id: "q".to_owned(),
            stage: Stage::ToolUse,
            tool: Some("bash".to_owned()),
            session_id: None,
            agent: None,
            checks: vec!["dangerous-commands".to_owned()],
            message: None,
            requested_by: Some("agent".to_owned()),
            answered_by: None,
            answered_ms: None,
            note: None,
            used_receipt: None,
        }
    }

    #[tokio::test]
    async fn a_journal_keeps_approvals_across_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("approvals.jsonl");
        let store = LocalApprovals::open(&path, 1_000).await.unwrap();
        store.create(&approval("a1", 10_000)).await.unwrap();
        store.create(&approval("gone", 2_000)).await.unwrap();
        let answer = Answer::new(true, Some("ops".into()), Some("ok".into()));
        store.answer("acme", "a1", &answer, 1_500).await.unwrap();
        drop(store);
        // A torn last line (a write cut short) is ignored.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"id\":\"to")
            .unwrap();
        let store = LocalApprovals::open(&path, 3_000).await.unwrap();
        assert_eq!(store.get("acme", "gone").await.unwrap(), None);
        let a1 = store.get("acme", "a1").await.unwrap().unwrap();
        assert_eq!(a1.state, ApprovalState::Approved);
        assert_eq!(a1.answered_by.as_deref(), Some("ops"));
        let bound = "b".repeat(64);
        assert_eq!(
            store.take("acme", "a1", &bound, "r2", 3_000).await.unwrap(),
            Taken::Used(Box::new(a1))
        );
        drop(store);
        let store = LocalApprovals::open(&path, 3_000).await.unwrap();
        assert_eq!(
            store.take("acme", "a1", &bound, "r3", 3_000).await.unwrap(),
            Taken::Refused(Refusal::Used)
        );
        // The rewritten journal holds the live approval only.
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
    }

    #[tokio::test]
    async fn take_refuses_what_does_not_apply() {
        let store = LocalApprovals::in_memory();
        let bound = "b".repeat(64);
        store.create(&approval("p", 5_000)).await.unwrap();
        let refused = |r| Ok(Taken::Refused(r));
        assert_eq!(
            store.take("acme", "p", &bound, "r", 2_000).await,
            refused(Refusal::Pending)
        );
        assert_eq!(
            store.take("other", "p", &bound, "r", 2_000).await,
            refused(Refusal::Unknown)
        );
        let yes = Answer::new(true, None, None);
        store.answer("acme", "p", &yes, 2_000).await.unwrap();
        assert!(matches!(
            store.answer("acme", "p", &yes, 2_000).await,
            Err(AnswerError::NotPending {
                state: "approved",
                ..
            })
        ));
        assert_eq!(
            store.take("acme", "p", &"c".repeat(64), "r", 2_000).await,
            refused(Refusal::Mismatch)
        );
        assert_eq!(
            store.take("acme", "p", &bound, "r", 5_000).await,
            refused(Refusal::Expired)
        );
        assert_eq!(
            store.find("acme", &bound, 2_000).await.unwrap().as_deref(),
            Some("p")
        );
        assert!(matches!(
            store.take("acme", "p", &bound, "r", 2_000).await,
            Ok(Taken::Used(_))
        ));
        assert_eq!(store.find("acme", &bound, 2_000).await.unwrap(), None);
        store.create(&approval("d", 5_000)).await.unwrap();
        store
            .answer("acme", "d", &Answer::new(false, None, None), 2_000)
            .await
            .unwrap();
        assert_eq!(
            store.take("acme", "d", &bound, "r", 2_000).await,
            refused(Refusal::Denied)
        );
        store.create(&approval("late", 3_000)).await.unwrap();
        assert!(matches!(
            store.answer("acme", "late", &yes, 3_000).await,
            Err(AnswerError::NotPending {
                state: "expired",
                ..
            })
        ));
    }
}
