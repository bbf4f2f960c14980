//! The tamper-evident audit log: one hash-chained JSON line per decision,
//! made durable by group commit before the decision is answered.
//!
//! # Line format
//!
//! The log is a file of lines, each one compact JSON object ended by `\n`:
//!
//! ```text
//! {"time":"…","receiptId":"…",…,"payloadSha256":"…","seq":7,"prev":"<64 hex>","hash":"<64 hex>"}
//! ```
//!
//! - first the [`AuditRecord`] members, in declaration order (`tenant` and
//!   `agent` omitted when absent);
//! - `seq`: the record's number, 1 on the first line and one more on each
//!   following line;
//! - `prev`: the previous line's `hash`; 64 `0` digits on the first line;
//! - `hash`: always the last member. Let *B* be the line's bytes up to, not
//!   including, the `,"hash":"` that starts the last member (so *B* ends with
//!   the closing quote of `prev`). Then `hash` is the lowercase hex SHA-256 of
//!   the 64 ASCII digits of `prev`, followed by *B*, followed by `}` — that
//!   is, of `prev` and the line as a JSON object without its `hash` member.
//!
//! Hashes are computed over the bytes as written, never over a
//! re-serialization, so [`verify`] does not depend on how a JSON library
//! orders or escapes members.
//!
//! # What verification proves
//!
//! [`verify`] reads the log from the start and stops at the first line that
//! is not JSON, whose `hash` does not match its bytes, whose `seq` does not
//! follow the previous line's, or whose `prev` is not the previous line's
//! `hash`. So any edit, reordering, insertion or deletion of a line is found,
//! except one: deleting whole lines at the *end* leaves a shorter, valid
//! chain, and so does rewriting every line from some point on (the chain
//! has no secret key). To detect those, compare the report's record count and
//! last hash with a head recorded elsewhere (a previous report, a copy).
//!
//! A last line without its `\n` is a write cut short by a crash. It was never
//! acknowledged, so [`verify`] reports its length instead of failing, and
//! [`JsonlAudit::open`] truncates it before continuing the chain.
//!
//! # Durability
//!
//! [`JsonlAudit`] writes from one dedicated thread, so that `fsync` never
//! blocks the async runtime. Records queued while a write is in progress are
//! written together by the next single `write` and made durable by one
//! `fsync` (group commit). [`AuditSink::record`] returns only after its batch
//! is written (and, with [`Durability::Fsync`], synced to the disk).
//!
//! A failed write or sync fails every record of its batch, and the log then
//! refuses every later record ([`AuditError::Failed`]): part of the batch may
//! be on the disk, so it can no longer vouch for its chain. Reopening the
//! log continues from what the file holds. Conversely, a crash can leave
//! complete records of a batch that was never acknowledged: the log may hold
//! records of decisions that were never answered, never the reverse.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use palisade_protocol::{CheckRequest, Decision, DecisionKind, Stage};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::sync::{mpsc, oneshot};

/// The `prev` of the first line: 64 zero digits.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// The start of every line's last member.
const HASH_KEY: &[u8] = b",\"hash\":\"";

/// The length of `,"hash":"<64 hex>"}` at the end of every line.
const SUFFIX_LEN: usize = HASH_KEY.len() + 64 + 2;

/// At most this many queued records are written by one group commit.
const MAX_BATCH: usize = 1024;

/// Records waiting for the writer before [`AuditSink::record`] waits too.
const QUEUE: usize = 8192;

/// How far the log is made durable before a record is acknowledged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Durability {
    /// Every group commit is synced to the disk (`fsync`) before its records
    /// are acknowledged: an acknowledged record survives a power loss.
    #[default]
    Fsync,
    /// Records are acknowledged once written to the operating system: they
    /// survive a crash of the process but not of the machine.
    /// [`AuditSink::flush`] still syncs to the disk.
    Buffered,
}

/// What the audit log says about one decision.
///
/// Serialized with camelCase names in this field order; the log adds `seq`,
/// `prev` and `hash` after them (see the [module docs](self)). It never holds
/// the evaluated payload, only its hash.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuditRecord {
    /// When the record was made (RFC 3339, UTC).
    pub time: String,
    /// The decision's receipt id, which the answer carries as `receiptId`.
    pub receipt_id: String,
    /// The tenant whose policy decided.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tenant: Option<String>,
    /// The agent on whose behalf the check was made (its id, else its name).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agent: Option<String>,
    /// The MCP server the MCP gateway decided for (`context.mcpServer`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub mcp_server: Option<String>,
    /// The request's id, as echoed in the decision.
    pub request_id: String,
    /// The stage the request was evaluated at.
    pub stage: Stage,
    /// The answer.
    pub decision: DecisionKind,
    /// Ids of the checks with a finding: violations, then warnings, each id
    /// once, in that order.
    pub checks: Vec<String>,
    /// How many checks were evaluated.
    pub evaluated: u32,
    /// Evaluation time in microseconds.
    pub duration_us: u64,
    /// Lowercase hex SHA-256 of the evaluated payload (see [`payload_sha256`]).
    pub payload_sha256: String,
    /// The approval this decision asks for (its `approval.id`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub approval: Option<String>,
    /// The approval the request named (or, from a hook, that was found for
    /// its call): used, or why it did not apply.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub approval_use: Option<ApprovalUse>,
}

/// The approval a decision used or tried.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalUse {
    /// The approval's id.
    pub id: String,
    /// `used`, or the reasonCode of the finding saying why it did not
    /// apply (`approval.mismatch`, `approval.used`, …).
    pub result: String,
    /// With `used`: the receipt id of the decision that asked.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub origin: Option<String>,
}

/// A person's answer to an approval, as the audit log keeps it: a line of
/// its own, linked to the receipt of the decision that asked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRecord {
    /// When the record was made (RFC 3339, UTC).
    pub time: String,
    /// This record's own receipt id.
    pub receipt_id: String,
    /// The tenant.
    pub tenant: String,
    /// `approval.approved` or `approval.denied`.
    pub event: String,
    /// The approval's id.
    pub approval: String,
    /// The receipt id of the decision that asked.
    pub origin: String,
    /// That decision's request id.
    pub request_id: String,
    /// What the approval is bound to.
    pub bound: String,
    /// The API key that answered.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub by: Option<String>,
    /// The note given with the answer.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub note: Option<String>,
}

impl AuditRecord {
    /// The record of `decision`, made for `request`, at the current time.
    ///
    /// The receipt id is the decision's `receiptId` when it has one, else a
    /// fresh UUID v7. The tenant is `tenant` when given (the one a transport
    /// took from credentials), else the request's own. A decision without
    /// `evaluated` or `durationUs` records 0.
    pub fn new(request: &CheckRequest, decision: &Decision, tenant: Option<&str>) -> Self {
        let mut checks: Vec<String> = Vec::new();
        for finding in decision.findings() {
            if !checks.contains(&finding.check_id) {
                checks.push(finding.check_id.clone());
            }
        }
        let agent = request
            .agent
            .as_ref()
            .and_then(|a| a.id.as_ref().or(a.name.as_ref()))
            .cloned();
        Self {
            time: humantime::format_rfc3339_millis(SystemTime::now()).to_string(),
            receipt_id: decision
                .receipt_id
                .clone()
                .unwrap_or_else(|| uuid::Uuid::now_v7().to_string()),
            tenant: tenant.map(str::to_owned).or_else(|| request.tenant.clone()),
            agent,
            mcp_server: request
                .context
                .as_ref()
                .and_then(|c| c.get("mcpServer"))
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned),
            request_id: decision.request_id.clone(),
            stage: request.effective_stage(),
            decision: decision.decision,
            checks,
            evaluated: decision.evaluated.unwrap_or(0),
            duration_us: decision.duration_us.unwrap_or(0),
            payload_sha256: payload_sha256(request),
            approval: decision.approval.as_ref().map(|a| a.id.clone()),
            approval_use: None,
        }
    }
}

/// Lowercase hex SHA-256 of the payload a request is evaluated on.
///
/// The payload depends on the request's effective stage:
///
/// | stage | payload |
/// |---|---|
/// | `input`, `output` | `content` (a JSON string, or `null` when absent) |
/// | `tool_use` | `{"arguments": …, "name": …}` from `tool` (`null` without a tool) |
/// | `tool_output` | `{"content": …, "tool": …}`: `content` when present, and the whole `tool` object as on the wire (`null` when absent) |
/// | `action` | the `action` object as on the wire (`null` when absent) |
/// | a stage added later | the whole request as on the wire |
///
/// The payload is hashed as compact JSON with the members of every object
/// sorted by name, so the same request always has the same hash however its
/// members were ordered when it arrived.
pub fn payload_sha256(request: &CheckRequest) -> String {
    let mut hasher = HashWriter(Sha256::new());
    let written = match request.effective_stage() {
        Stage::Input | Stage::Output => {
            serde_json::to_writer(&mut hasher, &request.content.as_deref())
        }
        Stage::ToolUse => {
            let payload = request.tool.as_ref().map(|tool| ToolCall {
                arguments: tool.arguments.as_ref(),
                name: &tool.name,
            });
            write_canonical(&mut hasher, &payload)
        }
        Stage::ToolOutput => write_canonical(
            &mut hasher,
            &ToolResult {
                content: request.content.as_deref(),
                tool: request.tool.as_ref(),
            },
        ),
        Stage::Action => write_canonical(&mut hasher, &request.action),
        _ => write_canonical(&mut hasher, request),
    };
    // Writing into a hash cannot fail, and these types serialize to JSON
    // without error (their maps have string keys); were that to change, the
    // record would carry the hash of the empty payload, never the payload.
    if written.is_err() {
        hasher = HashWriter(Sha256::new());
    }
    hex::encode(hasher.0.finalize())
}

/// The payload at stage `tool_use`.
#[derive(Serialize)]
struct ToolCall<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments: Option<&'a Value>,
    name: &'a str,
}

/// The payload at stage `tool_output`.
#[derive(Serialize)]
struct ToolResult<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<&'a str>,
    tool: Option<&'a palisade_protocol::Tool>,
}

/// Writes `value` as compact JSON with every object's members sorted.
fn write_canonical<T: Serialize>(out: &mut HashWriter, value: &T) -> serde_json::Result<()> {
    let mut value = serde_json::to_value(value)?;
    sort_members(&mut value);
    serde_json::to_writer(out, &value)
}

fn sort_members(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.sort_keys();
            map.values_mut().for_each(sort_members);
        }
        Value::Array(items) => items.iter_mut().for_each(sort_members),
        _ => {}
    }
}

/// Feeds serialized bytes straight into a hash, without a buffer.
struct HashWriter(Sha256);

impl Write for HashWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Where decisions are recorded before they are answered.
#[async_trait::async_trait]
pub trait AuditSink: Send + Sync + 'static {
    /// Appends the record; returns once it is durable as the sink's
    /// durability promises. An error means the decision must not be answered.
    async fn record(&self, record: AuditRecord) -> Result<(), AuditError>;

    /// Appends the record of a person's answer to an approval, as
    /// [`AuditSink::record`] does a decision's.
    async fn record_approval(&self, record: ApprovalRecord) -> Result<(), AuditError>;

    /// Waits until everything recorded before the call is written and synced
    /// to the disk.
    async fn flush(&self) -> Result<(), AuditError>;
}

/// Why an audit record could not be written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuditError {
    /// The log could not be opened or read.
    #[error("cannot open the audit log `{path}`: {error}")]
    Open {
        /// The log's path.
        path: PathBuf,
        /// The cause (part of the message, so not also a source).
        error: io::Error,
    },
    /// The log's last record is not one this log can continue.
    #[error("cannot continue the audit log `{path}`: {reason}")]
    Corrupt {
        /// The log's path.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Writing or syncing a batch of records failed.
    #[error("cannot write the audit log `{path}`: {error}")]
    Write {
        /// The log's path.
        path: PathBuf,
        /// The cause (part of the message, so not also a source).
        error: io::Error,
    },
    /// An earlier write failed, so the log refuses every later record: after
    /// a partial write it can no longer vouch for its chain.
    #[error("the audit log `{path}` refuses records since a write failed: {cause}")]
    Failed {
        /// The log's path.
        path: PathBuf,
        /// The first failure.
        cause: String,
    },
    /// The log's writer has stopped.
    #[error("the audit log `{path}` is closed")]
    Closed {
        /// The log's path.
        path: PathBuf,
    },
    /// A record could not be serialized.
    #[error("cannot serialize an audit record: {0}")]
    Serialize(serde_json::Error),
}

/// An [`AuditSink`] appending to a JSON-lines file (see the [module docs](self)).
///
/// One process at a time may write a log: two writers would fork its chain.
/// Dropping the handle lets the writer finish what is queued, then stop.
#[derive(Debug)]
pub struct JsonlAudit {
    tx: mpsc::Sender<Message>,
    path: Arc<Path>,
}

impl JsonlAudit {
    /// Opens the log at `path` (creating it when absent) and starts its
    /// writer thread.
    ///
    /// An existing log's chain is continued from its last complete line,
    /// which must be a valid record. A last line without its `\n` was never
    /// acknowledged and is truncated away. Must be called inside a tokio
    /// runtime.
    ///
    /// # Errors
    ///
    /// [`AuditError::Open`] when the file cannot be opened, read or
    /// truncated; [`AuditError::Corrupt`] when its last line is not a valid
    /// record (the file is left untouched).
    pub async fn open(path: impl AsRef<Path>, durability: Durability) -> Result<Self, AuditError> {
        let path: Arc<Path> = Arc::from(path.as_ref());
        let opening = Arc::clone(&path);
        let (file, head) = tokio::task::spawn_blocking(move || open_log(&opening))
            .await
            .map_err(|e| AuditError::Open {
                path: path.to_path_buf(),
                error: io::Error::other(e.to_string()),
            })??;
        let (tx, rx) = mpsc::channel(QUEUE);
        let writer = Writer {
            file,
            path: Arc::clone(&path),
            durability,
            seq: head.seq,
            hash: head.hash,
            dirty: false,
            failed: None,
            buf: Vec::new(),
        };
        std::thread::Builder::new()
            .name("palisade-audit".to_owned())
            .spawn(move || writer.run(rx))
            .map_err(|error| AuditError::Open {
                path: path.to_path_buf(),
                error,
            })?;
        Ok(Self { tx, path })
    }

    /// The log's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn closed(&self) -> AuditError {
        AuditError::Closed {
            path: self.path.to_path_buf(),
        }
    }

    async fn send(&self, make: impl FnOnce(Ack) -> Message) -> Result<(), AuditError> {
        let (ack, done) = oneshot::channel();
        self.tx.send(make(ack)).await.map_err(|_| self.closed())?;
        done.await.map_err(|_| self.closed())?
    }
}

#[async_trait::async_trait]
impl AuditSink for JsonlAudit {
    async fn record(&self, record: AuditRecord) -> Result<(), AuditError> {
        self.append(&record).await
    }

    async fn record_approval(&self, record: ApprovalRecord) -> Result<(), AuditError> {
        self.append(&record).await
    }

    async fn flush(&self) -> Result<(), AuditError> {
        self.send(|ack| Message::Flush { ack }).await
    }
}

impl JsonlAudit {
    async fn append<T: Serialize + Sync>(&self, record: &T) -> Result<(), AuditError> {
        // Serializing here spreads the work over the callers; the writer only
        // chains and hashes.
        let mut body = serde_json::to_vec(record).map_err(AuditError::Serialize)?;
        if body.pop() != Some(b'}') {
            return Err(AuditError::Serialize(serde::ser::Error::custom(
                "a record did not serialize to a JSON object",
            )));
        }
        self.send(|ack| Message::Record { body, ack }).await
    }
}

type Ack = oneshot::Sender<Result<(), AuditError>>;

#[derive(Debug)]
enum Message {
    /// A serialized record without its closing `}`.
    Record { body: Vec<u8>, ack: Ack },
    /// Sync everything written so far.
    Flush { ack: Ack },
}

impl Message {
    fn ack(self) -> Ack {
        match self {
            Self::Record { ack, .. } | Self::Flush { ack } => ack,
        }
    }
}

/// The chain's end: the last record's number and hash.
struct Head {
    seq: u64,
    hash: String,
}

/// The writer thread's state: it alone owns the file and the chain.
struct Writer {
    file: File,
    path: Arc<Path>,
    durability: Durability,
    seq: u64,
    hash: String,
    /// Written since the last sync.
    dirty: bool,
    /// The first write error; once set, every record is refused.
    failed: Option<String>,
    buf: Vec<u8>,
}

impl Writer {
    fn run(mut self, mut rx: mpsc::Receiver<Message>) {
        let mut batch = Vec::new();
        while let Some(first) = rx.blocking_recv() {
            batch.push(first);
            while batch.len() < MAX_BATCH {
                match rx.try_recv() {
                    Ok(message) => batch.push(message),
                    Err(_) => break,
                }
            }
            self.commit(&mut batch);
        }
        if self.dirty
            && self.failed.is_none()
            && let Err(e) = self.file.sync_data()
        {
            tracing::error!(path = %self.path.display(), error = %e, "cannot sync the audit log on close");
        }
    }

    /// Writes a batch with one write, syncs when needed, then answers every
    /// message of the batch.
    fn commit(&mut self, batch: &mut Vec<Message>) {
        if let Some(cause) = &self.failed {
            for message in batch.drain(..) {
                let _ = message.ack().send(Err(AuditError::Failed {
                    path: self.path.to_path_buf(),
                    cause: cause.clone(),
                }));
            }
            return;
        }
        self.buf.clear();
        let mut sync = self.durability == Durability::Fsync;
        let mut acks = Vec::with_capacity(batch.len());
        for message in batch.drain(..) {
            match message {
                Message::Record { body, ack } => {
                    self.append(&body);
                    acks.push(ack);
                }
                Message::Flush { ack } => {
                    sync = true;
                    acks.push(ack);
                }
            }
        }
        match self.write(sync) {
            Ok(()) => {
                for ack in acks {
                    let _ = ack.send(Ok(()));
                }
            }
            Err(e) => {
                tracing::error!(path = %self.path.display(), error = %e, "audit log write failed; refusing further records");
                let cause = e.to_string();
                for ack in acks {
                    let _ = ack.send(Err(AuditError::Write {
                        path: self.path.to_path_buf(),
                        error: io::Error::new(e.kind(), cause.clone()),
                    }));
                }
                self.failed = Some(cause);
            }
        }
    }

    /// Chains one record onto the buffer: `body` is its JSON without the
    /// closing `}`.
    fn append(&mut self, body: &[u8]) {
        let seq = self.seq + 1;
        let start = self.buf.len();
        self.buf.extend_from_slice(body);
        self.buf.extend_from_slice(b",\"seq\":");
        self.buf.extend_from_slice(seq.to_string().as_bytes());
        self.buf.extend_from_slice(b",\"prev\":\"");
        self.buf.extend_from_slice(self.hash.as_bytes());
        self.buf.push(b'"');
        let hash = line_hash(&self.hash, &self.buf[start..]);
        self.buf.extend_from_slice(HASH_KEY);
        self.buf.extend_from_slice(hash.as_bytes());
        self.buf.extend_from_slice(b"\"}\n");
        self.seq = seq;
        self.hash = hash;
    }

    fn write(&mut self, sync: bool) -> io::Result<()> {
        if !self.buf.is_empty() {
            self.file.write_all(&self.buf)?;
            self.dirty = true;
        }
        if sync && self.dirty {
            self.file.sync_data()?;
            self.dirty = false;
        }
        Ok(())
    }
}

/// A line's hash: SHA-256 of `prev` and the line without its `hash` member,
/// where `body` is the line up to the `,"hash":"` of that member.
fn line_hash(prev: &str, body: &[u8]) -> String {
    let mut hasher = Sha256::new();
    hasher.update(prev.as_bytes());
    hasher.update(body);
    hasher.update(b"}");
    hex::encode(hasher.finalize())
}

/// Opens the log for appending and finds the end of its chain, truncating a
/// torn last line.
fn open_log(path: &Path) -> Result<(File, Head), AuditError> {
    let open_error = |error| AuditError::Open {
        path: path.to_path_buf(),
        error,
    };
    let existed = path.try_exists().map_err(open_error)?;
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .open(path)
        .map_err(open_error)?;
    if !existed {
        sync_parent(path);
    }
    let len = file.metadata().map_err(open_error)?.len();
    let tail = read_tail(&mut file, len).map_err(open_error)?;
    let corrupt = |reason: String| AuditError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let head = match &tail.last_line {
        Some(line) => {
            let parsed = parse_line(line).map_err(|reason| {
                corrupt(format!("its last line is not a valid record: {reason}"))
            })?;
            Head {
                seq: parsed.seq,
                hash: parsed.hash,
            }
        }
        None => Head {
            seq: 0,
            hash: GENESIS_HASH.to_owned(),
        },
    };
    if tail.complete_len < len {
        // Only cut what looks like a record cut short: never a file that is
        // not an audit log.
        if tail.last_line.is_none() && !tail.torn_start.starts_with(b"{\"time\":") {
            return Err(corrupt("it does not start with an audit record".to_owned()));
        }
        file.set_len(tail.complete_len).map_err(open_error)?;
        file.sync_all().map_err(open_error)?;
        tracing::warn!(
            path = %path.display(),
            bytes = len - tail.complete_len,
            "truncated an incomplete last line of the audit log (a write cut short, never acknowledged)"
        );
    }
    Ok((file, head))
}

/// Makes a new log's directory entry durable.
#[cfg(unix)]
fn sync_parent(path: &Path) {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Err(e) = File::open(parent).and_then(|dir| dir.sync_all()) {
        tracing::warn!(path = %parent.display(), error = %e, "cannot sync the audit log's directory");
    }
}

#[cfg(not(unix))]
fn sync_parent(_path: &Path) {}

/// The end of a log file.
struct Tail {
    /// Bytes up to and including the last `\n`.
    complete_len: u64,
    /// The last complete line, without its `\n`.
    last_line: Option<Vec<u8>>,
    /// The first bytes after the last `\n` (empty without a torn line).
    torn_start: Vec<u8>,
}

/// Reads the file backwards until the last complete line is found.
fn read_tail(file: &mut File, len: u64) -> io::Result<Tail> {
    const CHUNK: u64 = 64 * 1024;
    let mut start = len;
    let mut buf: Vec<u8> = Vec::new();
    loop {
        let last_newline = buf.iter().rposition(|&b| b == b'\n');
        let found = match last_newline {
            Some(end) => match buf[..end].iter().rposition(|&b| b == b'\n') {
                Some(before) => Some((end, before + 1)),
                None if start == 0 => Some((end, 0)),
                None => None,
            },
            None if start == 0 => {
                let torn_start = buf.iter().take(16).copied().collect();
                return Ok(Tail {
                    complete_len: 0,
                    last_line: None,
                    torn_start,
                });
            }
            None => None,
        };
        if let Some((end, line_start)) = found {
            return Ok(Tail {
                complete_len: start + end as u64 + 1,
                last_line: Some(buf[line_start..end].to_vec()),
                torn_start: buf[end + 1..].iter().take(16).copied().collect(),
            });
        }
        let from = start.saturating_sub(CHUNK);
        let mut chunk = vec![0; usize::try_from(start - from).map_err(io::Error::other)?];
        file.seek(SeekFrom::Start(from))?;
        file.read_exact(&mut chunk)?;
        chunk.extend_from_slice(&buf);
        buf = chunk;
        start = from;
    }
}

/// The chain members of one line whose own hash is correct.
#[derive(Debug)]
struct Parsed {
    seq: u64,
    prev: String,
    hash: String,
}

/// Checks one line (without its `\n`) on its own: JSON, hash last, hash
/// matching its bytes.
fn parse_line(line: &[u8]) -> Result<Parsed, String> {
    #[derive(Deserialize)]
    struct Members {
        seq: u64,
        prev: String,
        hash: String,
    }
    let members: Members = serde_json::from_slice(line).map_err(|e| {
        let message = e.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(message.as_str(), |(m, _)| m);
        match e.classify() {
            serde_json::error::Category::Data => format!("not an audit record: {message}"),
            _ => format!("not JSON: {message} (column {})", e.column()),
        }
    })?;
    if !is_hash(members.hash.as_bytes()) {
        return Err("`hash` is not 64 lowercase hex digits".to_owned());
    }
    if !is_hash(members.prev.as_bytes()) {
        return Err("`prev` is not 64 lowercase hex digits".to_owned());
    }
    let len = line.len();
    let suffix_ok = len >= SUFFIX_LEN
        && line[len - SUFFIX_LEN..].starts_with(HASH_KEY)
        && line[len - 66..len - 2] == *members.hash.as_bytes()
        && line.ends_with(b"\"}");
    if !suffix_ok {
        return Err("`hash` is not the line's last member".to_owned());
    }
    if line_hash(&members.prev, &line[..len - SUFFIX_LEN]) != members.hash {
        return Err("hash mismatch (the line was changed after it was written)".to_owned());
    }
    Ok(Parsed {
        seq: members.seq,
        prev: members.prev,
        hash: members.hash,
    })
}

fn is_hash(s: &[u8]) -> bool {
    s.len() == 64 && s.iter().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The result of verifying a whole log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// How many records the chain holds.
    pub records: u64,
    /// The last record's hash ([`GENESIS_HASH`] for an empty log): compare it
    /// with a head recorded elsewhere to detect lines deleted at the end.
    pub last_hash: String,
    /// The length of a last line cut short by a crash (never acknowledged,
    /// not part of the chain); 0 when the log ends with `\n`.
    pub torn_tail_bytes: u64,
    /// How many approval links were checked: asks, answers and uses of
    /// approvals, each linked to the receipt of the decision that asked.
    pub approval_links: u64,
    /// Answers and uses whose ask or answer is not in this log (another
    /// replica's log holds it, or the log was started after it).
    pub approval_links_elsewhere: u64,
}

impl std::fmt::Display for VerifyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = if self.records == 1 { "" } else { "s" };
        write!(
            f,
            "{} record{s}, last hash {}",
            self.records, self.last_hash
        )?;
        if self.approval_links > 0 {
            let s = if self.approval_links == 1 { "" } else { "s" };
            write!(f, ", {} approval link{s}", self.approval_links)?;
        }
        Ok(())
    }
}

/// Why a log failed verification.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// The file could not be read.
    #[error("cannot read `{path}`: {error}")]
    Io {
        /// The file's path.
        path: PathBuf,
        /// The cause (part of the message, so not also a source).
        error: io::Error,
    },
    /// The chain breaks at a line.
    #[error("line {line}: {reason}")]
    Invalid {
        /// The first bad line, counted from 1.
        line: u64,
        /// What is wrong with it, such as `hash mismatch`.
        reason: String,
    },
}

/// Verifies the log at `path` from its first line to its last (see the
/// [module docs](self) for what this proves).
///
/// # Errors
///
/// [`VerifyError::Invalid`] at the first line that breaks the chain;
/// [`VerifyError::Io`] when the file cannot be read.
pub fn verify(path: impl AsRef<Path>) -> Result<VerifyReport, VerifyError> {
    let path = path.as_ref();
    let io_error = |error| VerifyError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut reader = BufReader::with_capacity(256 * 1024, File::open(path).map_err(io_error)?);
    let mut line = Vec::new();
    let mut number: u64 = 0;
    let mut seq: u64 = 0;
    let mut hash = GENESIS_HASH.to_owned();
    let mut torn_tail_bytes = 0;
    let mut links = Links::default();
    loop {
        line.clear();
        let read = reader.read_until(b'\n', &mut line).map_err(io_error)?;
        if read == 0 {
            break;
        }
        if line.pop() != Some(b'\n') {
            torn_tail_bytes = read as u64;
            break;
        }
        number += 1;
        let invalid = |reason| VerifyError::Invalid {
            line: number,
            reason,
        };
        let parsed = parse_line(&line).map_err(invalid)?;
        if parsed.seq != seq + 1 {
            return Err(invalid(if number == 1 {
                format!(
                    "seq {} on the first line, expected 1 (the log does not start with its first record)",
                    parsed.seq
                )
            } else if parsed.seq > seq + 1 {
                format!(
                    "seq {} follows {seq} (a record is missing or out of order)",
                    parsed.seq
                )
            } else {
                format!(
                    "seq {} follows {seq} (a record is repeated or out of order)",
                    parsed.seq
                )
            }));
        }
        if parsed.prev != hash {
            return Err(invalid(if number == 1 {
                "`prev` of the first record is not 64 zeros".to_owned()
            } else {
                format!("`prev` does not match line {}'s hash", number - 1)
            }));
        }
        seq = parsed.seq;
        hash = parsed.hash;
        if memchr_approval(&line) {
            links.line(number, &line).map_err(invalid)?;
        }
    }
    Ok(VerifyReport {
        records: number,
        last_hash: hash,
        torn_tail_bytes,
        approval_links: links.checked,
        approval_links_elsewhere: links.elsewhere,
    })
}

/// Whether a line may carry an approval link (most lines do not, and are
/// not parsed a second time).
fn memchr_approval(line: &[u8]) -> bool {
    const NEEDLE: &[u8] = b"\"approval";
    line.windows(NEEDLE.len()).any(|w| w == NEEDLE)
}

/// The approval links of a log, checked as its lines are read: every
/// approval is asked once, answered at most once — by a record whose
/// `origin` is the asking decision's receipt — and used at most once, only
/// after it was approved, by a decision whose `approvalUse.origin` is that
/// receipt.
#[derive(Default)]
struct Links {
    /// Approval id → the receipt of the decision that asked, and its line.
    asked: std::collections::HashMap<String, (String, u64)>,
    /// Approval id → approved (else denied), and the line.
    answered: std::collections::HashMap<String, (bool, u64)>,
    /// Approval id → the line that used it.
    used: std::collections::HashMap<String, u64>,
    checked: u64,
    elsewhere: u64,
}

impl Links {
    fn line(&mut self, number: u64, line: &[u8]) -> Result<(), String> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Members {
            receipt_id: Option<String>,
            event: Option<String>,
            approval: Option<String>,
            origin: Option<String>,
            approval_use: Option<ApprovalUse>,
        }
        let m: Members = serde_json::from_slice(line)
            .map_err(|e| format!("an approval link cannot be read: {e}"))?;
        match (m.event.as_deref(), m.approval) {
            (Some(event @ ("approval.approved" | "approval.denied")), Some(id)) => {
                self.checked += 1;
                let origin = m.origin.unwrap_or_default();
                match self.asked.get(&id) {
                    Some((receipt, at)) if *receipt != origin => {
                        return Err(format!(
                            "the answer to approval `{id}` links to receipt `{origin}`, but line {at} asked for it with receipt `{receipt}`"
                        ));
                    }
                    Some(_) => {}
                    None => self.elsewhere += 1,
                }
                if let Some((_, at)) = self.answered.get(&id) {
                    return Err(format!("approval `{id}` was answered already on line {at}"));
                }
                self.answered
                    .insert(id, (event == "approval.approved", number));
            }
            (Some(other), _) => {
                return Err(format!("unknown event `{other}`"));
            }
            (None, Some(id)) => {
                self.checked += 1;
                if let Some((_, at)) = self.asked.get(&id) {
                    return Err(format!(
                        "approval `{id}` was asked for already on line {at}"
                    ));
                }
                self.asked
                    .insert(id, (m.receipt_id.unwrap_or_default(), number));
            }
            (None, None) => {}
        }
        if let Some(u) = m.approval_use.filter(|u| u.result == "used") {
            self.checked += 1;
            let id = u.id;
            if let Some(at) = self.used.get(&id) {
                return Err(format!(
                    "approval `{id}` was used already on line {at}: an approval lets its call through once"
                ));
            }
            let origin = u.origin.unwrap_or_default();
            match self.asked.get(&id) {
                Some((receipt, at)) if *receipt != origin => {
                    return Err(format!(
                        "the use of approval `{id}` links to receipt `{origin}`, but line {at} asked for it with receipt `{receipt}`"
                    ));
                }
                _ => {}
            }
            match self.answered.get(&id) {
                Some((false, at)) => {
                    return Err(format!("approval `{id}` is used, but line {at} denied it"));
                }
                Some((true, _)) => {}
                None => self.elsewhere += 1,
            }
            self.used.insert(id, number);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palisade_protocol::{Finding, FindingAction};
    use serde_json::json;

    #[test]
    fn genesis_is_64_zeros() {
        assert!(is_hash(GENESIS_HASH.as_bytes()));
        assert!(GENESIS_HASH.bytes().all(|b| b == b'0'));
    }

    #[test]
    fn line_hash_of_a_known_line() {
        // sha256 of GENESIS_HASH followed by {"a":1,"seq":1,"prev":"<GENESIS_HASH>"}
        let body = format!("{{\"a\":1,\"seq\":1,\"prev\":\"{GENESIS_HASH}\"");
        assert_eq!(
            line_hash(GENESIS_HASH, body.as_bytes()),
            "09e6ffc130324bce13c97b6b631a0fd7355049f9dd2432e945c0ecb07d2cbd76"
        );
    }

    #[test]
    fn appended_lines_parse_and_chain() {
        let dir = tempfile::tempdir().unwrap();
        let file = File::create(dir.path().join("log")).unwrap();
        let mut writer = Writer {
            file,
            path: Arc::from(dir.path()),
            durability: Durability::Fsync,
            seq: 0,
            hash: GENESIS_HASH.to_owned(),
            dirty: false,
            failed: None,
            buf: Vec::new(),
        };
        writer.append(b"{\"a\":1");
        writer.append(b"{\"a\":2");
        let text = String::from_utf8(writer.buf.clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            format!(
                "{{\"a\":1,\"seq\":1,\"prev\":\"{GENESIS_HASH}\",\"hash\":\"09e6ffc130324bce13c97b6b631a0fd7355049f9dd2432e945c0ecb07d2cbd76\"}}"
            )
        );
        let first = parse_line(lines[0].as_bytes()).unwrap();
        let second = parse_line(lines[1].as_bytes()).unwrap();
        assert_eq!((first.seq, second.seq), (1, 2));
        assert_eq!(second.prev, first.hash);
        assert_eq!(writer.hash, second.hash);
    }

    #[test]
    fn parse_line_names_what_is_wrong() {
        let line = format!(
            "{{\"a\":1,\"seq\":1,\"prev\":\"{GENESIS_HASH}\",\"hash\":\"09e6ffc130324bce13c97b6b631a0fd7355049f9dd2432e945c0ecb07d2cbd76\"}}"
        );
        assert!(parse_line(line.as_bytes()).is_ok());
        let edited = line.replace("\"a\":1", "\"a\":2");
        assert!(
            parse_line(edited.as_bytes())
                .unwrap_err()
                .starts_with("hash mismatch")
        );
        assert!(
            parse_line(b"{\"a\":")
                .unwrap_err()
                .starts_with("not JSON: ")
        );
        assert!(parse_line(b"").unwrap_err().starts_with("not JSON: "));
        assert!(
            parse_line(b"{\"a\":1}")
                .unwrap_err()
                .starts_with("not an audit record: ")
        );
        let reordered = format!(
            "{{\"seq\":1,\"hash\":\"09e6ffc130324bce13c97b6b631a0fd7355049f9dd2432e945c0ecb07d2cbd76\",\"prev\":\"{GENESIS_HASH}\"}}"
        );
        assert_eq!(
            parse_line(reordered.as_bytes()).unwrap_err(),
            "`hash` is not the line's last member"
        );
        let upper = line.replace("09e6ff", "09E6FF");
        assert_eq!(
            parse_line(upper.as_bytes()).unwrap_err(),
            "`hash` is not 64 lowercase hex digits"
        );
    }

    #[test]
    fn payload_hash_of_text_is_the_hash_of_its_json_string() {
        // sha256 of the 7 bytes "hello" including the quotes
        let request = CheckRequest::input("hello");
        assert_eq!(
            payload_sha256(&request),
            "5aa762ae383fbb727af3c7a36d4940a5b8c40a989452d2304fc958ff3f354e7a"
        );
        assert_eq!(
            payload_sha256(&CheckRequest::output("hello")),
            payload_sha256(&request)
        );
    }

    #[test]
    fn payload_hash_does_not_depend_on_member_order() {
        let a: CheckRequest = serde_json::from_str(
            r#"{"stage":"tool_use","tool":{"name":"sql","arguments":{"query":"x","db":{"b":1,"a":2}}}}"#,
        )
        .unwrap();
        let b: CheckRequest = serde_json::from_str(
            r#"{"tool":{"arguments":{"db":{"a":2,"b":1},"query":"x"},"name":"sql"},"stage":"tool_use"}"#,
        )
        .unwrap();
        assert_eq!(payload_sha256(&a), payload_sha256(&b));
        let c = CheckRequest::tool_use("sql", json!({"query": "y", "db": {"a": 2, "b": 1}}));
        assert_ne!(payload_sha256(&a), payload_sha256(&c));
    }

    #[test]
    fn payload_hash_covers_what_each_stage_evaluates() {
        // Fields a stage does not evaluate do not change its hash.
        let base = CheckRequest::input("hello");
        assert_eq!(
            payload_sha256(&base),
            payload_sha256(&base.clone().with_request_id("r").with_tenant("t"))
        );
        let call = CheckRequest::tool_use("sh", json!({"cmd": "ls"}));
        let mut with_call_id = call.clone();
        if let Some(tool) = with_call_id.tool.as_mut() {
            tool.call_id = Some("c1".to_owned());
        }
        assert_eq!(payload_sha256(&call), payload_sha256(&with_call_id));
        // The tool's result is part of a tool_output payload.
        let out_a = CheckRequest::tool_output("sh", json!("a"));
        let out_b = CheckRequest::tool_output("sh", json!("b"));
        assert_ne!(payload_sha256(&out_a), payload_sha256(&out_b));
        let action_a = CheckRequest::action(palisade_protocol::Action::new(
            "write",
            palisade_protocol::ResourceKind::File,
        ));
        let action_b = CheckRequest::action(palisade_protocol::Action::new(
            "read",
            palisade_protocol::ResourceKind::File,
        ));
        assert_ne!(payload_sha256(&action_a), payload_sha256(&action_b));
    }

    #[test]
    fn record_takes_its_fields_from_the_decision() {
        let request = CheckRequest::output("the key is sk-live-abcdef")
            .with_request_id("req-1")
            .with_tenant("from-request")
            .with_agent_id("emerson");
        let mut decision = Decision::block("req-1", "guardrail.regex", "blocked");
        decision.violations = vec![
            Finding::new("b", "regex", FindingAction::Block),
            Finding::new("a", "regex", FindingAction::Block),
        ];
        decision.warnings = vec![
            Finding::new("b", "regex", FindingAction::Warn),
            Finding::new("c", "pii", FindingAction::Redact),
        ];
        decision.evaluated = Some(4);
        decision.duration_us = Some(37);
        decision.receipt_id = Some("receipt-1".to_owned());

        let record = AuditRecord::new(&request, &decision, Some("acme"));
        assert_eq!(record.receipt_id, "receipt-1");
        assert_eq!(record.tenant.as_deref(), Some("acme"));
        assert_eq!(record.agent.as_deref(), Some("emerson"));
        assert_eq!(record.request_id, "req-1");
        assert_eq!(record.stage, Stage::Output);
        assert_eq!(record.decision, DecisionKind::Block);
        assert_eq!(record.checks, ["b", "a", "c"]);
        assert_eq!((record.evaluated, record.duration_us), (4, 37));
        assert_eq!(record.payload_sha256, payload_sha256(&request));
        assert_eq!(record.time.len(), "2026-02-04T21:00:00.000Z".len());

        let json = serde_json::to_string(&record).unwrap();
        assert!(!json.contains("sk-live"), "{json}");
        assert!(json.starts_with("{\"time\":"), "{json}");
        assert!(json.ends_with(&format!(
            "\"payloadSha256\":\"{}\"}}",
            record.payload_sha256
        )));

        // Without a tenant parameter the request's own is recorded; without
        // a receipt id a UUID v7 is made.
        decision.receipt_id = None;
        let record = AuditRecord::new(&request, &decision, None);
        assert_eq!(record.tenant.as_deref(), Some("from-request"));
        let receipt = uuid::Uuid::parse_str(&record.receipt_id).unwrap();
        assert_eq!(receipt.get_version_num(), 7);
    }

    #[test]
    fn read_tail_finds_the_last_complete_line_across_chunks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        let long = "x".repeat(200_000);
        std::fs::write(&path, format!("a\n{long}\nlast\ntorn")).unwrap();
        let mut file = File::open(&path).unwrap();
        let len = file.metadata().unwrap().len();
        let tail = read_tail(&mut file, len).unwrap();
        assert_eq!(tail.last_line.as_deref(), Some(&b"last"[..]));
        assert_eq!(tail.complete_len, len - 4);
        assert_eq!(tail.torn_start, b"torn");

        std::fs::write(&path, format!("{long}\n")).unwrap();
        let mut file = File::open(&path).unwrap();
        let len = file.metadata().unwrap().len();
        let tail = read_tail(&mut file, len).unwrap();
        assert_eq!(tail.last_line.map(|l| l.len()), Some(200_000));
        assert_eq!(tail.complete_len, len);

        std::fs::write(&path, "no newline").unwrap();
        let mut file = File::open(&path).unwrap();
        let tail = read_tail(&mut file, 10).unwrap();
        assert_eq!((tail.complete_len, tail.last_line), (0, None));
    }
}
