//! Tool pins (SPEC §14): a fingerprint of every tool definition an
//! upstream server showed, kept on first sight in a JSON file, so that a
//! definition that changes later (a "rug pull") is held until a person
//! approves it (`palisade mcp pins approve`).
//!
//! The fingerprint covers everything the model reads of a tool except its
//! name: a tool renamed with the same definition is the same tool (its pin
//! follows it, and a held definition stays held under any name), and a
//! new tool that copies a pinned tool's definition while that tool is
//! still listed is flagged.
//!
//! Several processes may share the file: each change is read, made and
//! written back (through a temporary file renamed over it) under a lock
//! file, so that no writer loses another's pins. With `state.redis`
//! ([`PinStore::redis`]) the same document lives in Redis instead, for
//! replicas on several machines: each change is written only if no other
//! replica wrote since it was read, else made again on what it wrote.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Why the pins could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PinsError {
    /// The file could not be read, written or locked.
    #[error("pins file `{path}`: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a pins file.
    #[error("pins file `{path}` is not valid: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The pins in the shared state (Redis) could not be read or written.
    #[error("pins in the shared state: {0}")]
    Shared(String),
}

/// The pins file's contents.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct PinFile {
    /// The file format's version (1).
    #[serde(default = "one")]
    pub version: u32,
    /// Pins by upstream server name.
    #[serde(default)]
    pub servers: BTreeMap<String, ServerPins>,
}

fn one() -> u32 {
    1
}

/// One upstream server's pins.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct ServerPins {
    /// The trusted definition of each tool, by tool name.
    #[serde(default)]
    pub tools: BTreeMap<String, Pin>,
    /// Changed definitions waiting for approval, by tool name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub pending: BTreeMap<String, Pin>,
}

/// A pinned definition.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Pin {
    /// SHA-256 of the definition without its name (hex).
    pub fingerprint: String,
    /// When it was first seen (seconds since the Unix epoch).
    pub seen: u64,
}

/// What the pins say of one listed tool.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PinVerdict {
    /// The definition is the pinned one.
    Trusted,
    /// The tool was never seen: now pinned.
    FirstSeen,
    /// The pinned definition of tool `from`, under a new name (and `from`
    /// no longer listed): the pin follows it.
    Renamed {
        /// The tool's former name.
        from: String,
    },
    /// The definition changed since it was pinned: held until approved.
    Changed,
    /// The definition is a changed one waiting for approval (under this or
    /// another name): still held.
    Held {
        /// The name it waits under.
        name: String,
    },
    /// A copy of listed tool `of`'s pinned definition under another name.
    Copy {
        /// The tool it copies.
        of: String,
    },
}

impl PinVerdict {
    /// Whether the tool is hidden for it.
    pub fn holds(&self) -> bool {
        matches!(
            self,
            PinVerdict::Changed | PinVerdict::Held { .. } | PinVerdict::Copy { .. }
        )
    }

    /// Why the tool is hidden, for the model and the log.
    pub fn reason(&self, tool: &str, server: &str) -> String {
        match self {
            PinVerdict::Changed => format!(
                "the definition of tool `{tool}` of server `{server}` changed since it was approved; \
                 it stays hidden until someone runs `palisade mcp pins approve --name {server} {tool}`"
            ),
            PinVerdict::Held { name } => format!(
                "tool `{tool}` of server `{server}` has the changed definition of tool `{name}`, which \
                 waits for approval (`palisade mcp pins approve --name {server} {name}`)"
            ),
            PinVerdict::Copy { of } => format!(
                "tool `{tool}` of server `{server}` copies the definition of its tool `{of}` under another name"
            ),
            PinVerdict::Trusted => format!("tool `{tool}` of server `{server}` is pinned"),
            PinVerdict::FirstSeen => format!("tool `{tool}` of server `{server}` is new"),
            PinVerdict::Renamed { from } => {
                format!("tool `{tool}` of server `{server}` is tool `{from}` renamed")
            }
        }
    }
}

/// The fingerprint of a tool definition: SHA-256 (hex) of its canonical
/// JSON (keys sorted) without `name` and `_meta`.
pub fn fingerprint(tool: &Value) -> String {
    let mut text = String::new();
    match tool {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map
                .keys()
                .filter(|k| *k != "name" && *k != "_meta")
                .collect();
            keys.sort();
            text.push('{');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    text.push(',');
                }
                canonical(&Value::String((*key).clone()), &mut text);
                text.push(':');
                if let Some(v) = map.get(*key) {
                    canonical(v, &mut text);
                }
            }
            text.push('}');
        }
        other => canonical(other, &mut text),
    }
    hex::encode(Sha256::digest(text.as_bytes()))
}

fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*key).clone()).to_string());
                out.push(':');
                if let Some(v) = map.get(*key) {
                    canonical(v, out);
                }
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// The pins file of one process.
#[derive(Debug)]
pub struct Pins {
    path: PathBuf,
    /// One change at a time within the process (the lock file orders
    /// processes).
    lock: std::sync::Mutex<()>,
}

impl Pins {
    /// The pins kept in `path`.
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Pins {
            path: path.into(),
            lock: std::sync::Mutex::new(()),
        }
    }

    /// `$XDG_STATE_HOME/palisade/pins.json`, else
    /// `~/.local/state/palisade/pins.json`; `None` without either variable.
    pub fn default_path() -> Option<PathBuf> {
        if let Some(state) = std::env::var_os("XDG_STATE_HOME").filter(|s| !s.is_empty()) {
            return Some(PathBuf::from(state).join("palisade/pins.json"));
        }
        let home = std::env::var_os("HOME").filter(|s| !s.is_empty())?;
        Some(PathBuf::from(home).join(".local/state/palisade/pins.json"))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's contents (empty when there is no file yet).
    pub fn read(&self) -> Result<PinFile, PinsError> {
        match std::fs::read(&self.path) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|_| PinsError::Invalid {
                    path: self.path.clone(),
                    message: "it is not UTF-8".to_owned(),
                })?;
                // Repeated keys would let two readers see two different pins.
                palisade_engine::parse_json(&text).map_err(|e| PinsError::Invalid {
                    path: self.path.clone(),
                    message: e.to_string(),
                })?;
                serde_json::from_str(&text).map_err(|e| PinsError::Invalid {
                    path: self.path.clone(),
                    message: e.to_string(),
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(PinFile {
                version: 1,
                servers: BTreeMap::new(),
            }),
            Err(source) => Err(PinsError::Io {
                path: self.path.clone(),
                source,
            }),
        }
    }

    /// Reads the file, lets `change` change it, and writes it back when it
    /// changed, all under the lock.
    pub fn update<T>(&self, change: impl FnOnce(&mut PinFile) -> T) -> Result<T, PinsError> {
        let _one = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        let _file_lock = FileLock::take(&self.path)?;
        let mut file = self.read()?;
        let before = file.clone();
        let out = change(&mut file);
        if file != before {
            self.write(&file)?;
        }
        Ok(out)
    }

    fn write(&self, file: &PinFile) -> Result<(), PinsError> {
        let io = |source| PinsError::Io {
            path: self.path.clone(),
            source,
        };
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let mut text = serde_json::to_string_pretty(file).map_err(|e| PinsError::Invalid {
            path: self.path.clone(),
            message: e.to_string(),
        })?;
        text.push('\n');
        let temp = self
            .path
            .with_extension(format!("json.{}.tmp", std::process::id()));
        std::fs::write(&temp, text).map_err(io)?;
        std::fs::rename(&temp, &self.path).map_err(io)
    }

    /// Judges the tools one `tools/list` answer of `server` shows (name and
    /// fingerprint each, in order), pinning what is new: one verdict each.
    pub fn judge(
        &self,
        server: &str,
        tools: &[(String, String)],
    ) -> Result<Vec<PinVerdict>, PinsError> {
        let now = now();
        self.update(|file| {
            let pins = file.servers.entry(server.to_owned()).or_default();
            judge(pins, tools, now)
        })
    }

    /// Approves the changed definitions waiting under `tools` (all of the
    /// server's when empty): the names approved.
    pub fn approve(&self, server: &str, tools: &[String]) -> Result<Vec<String>, PinsError> {
        self.update(|file| approve(file, server, tools))
    }

    /// Forgets a server's pins (every server's when `None`): whether there
    /// were any.
    pub fn reset(&self, server: Option<&str>) -> Result<bool, PinsError> {
        self.update(|file| reset(file, server))
    }
}

fn approve(file: &mut PinFile, server: &str, tools: &[String]) -> Vec<String> {
    let Some(pins) = file.servers.get_mut(server) else {
        return Vec::new();
    };
    let names: Vec<String> = pins
        .pending
        .keys()
        .filter(|k| tools.is_empty() || tools.contains(k))
        .cloned()
        .collect();
    for name in &names {
        if let Some(pin) = pins.pending.remove(name) {
            pins.tools.insert(name.clone(), pin);
        }
    }
    names
}

fn reset(file: &mut PinFile, server: Option<&str>) -> bool {
    match server {
        Some(server) => file.servers.remove(server).is_some(),
        None => {
            let any = !file.servers.is_empty();
            file.servers.clear();
            any
        }
    }
}

/// How many times a change to the shared pins is made again when other
/// replicas wrote in between.
const SHARED_ATTEMPTS: usize = 16;

/// Where the gateway keeps pins: a file, or the shared state (Redis) that
/// replicas of `palisade serve` share.
#[derive(Debug)]
#[non_exhaustive]
pub enum PinStore {
    /// A JSON file ([`Pins`]).
    File(Pins),
    /// One document in Redis (`state.redis`).
    Shared(Box<SharedPins>),
}

/// Pins in Redis: the pins file's document under the key
/// `{prefix}doc:{len}:gateway-pins` (fields `v`, its version, and `s`).
pub struct SharedPins {
    state: crate::state::Shared,
    url: String,
}

impl std::fmt::Debug for SharedPins {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedPins").finish_non_exhaustive()
    }
}

/// The document's name in the shared state.
const DOC: &str = "gateway-pins";

impl PinStore {
    /// Pins in the Redis of `state.redis` (connected on first use).
    pub fn redis(config: &crate::config::RedisState) -> Result<Self, PinsError> {
        let state = crate::state::Shared::new(config).map_err(|e| PinsError::Shared(e.0))?;
        // The URL without its password, for messages.
        let url = match config.url.split_once('@') {
            Some((scheme_user, host)) => match scheme_user.split_once("://") {
                Some((scheme, _)) => format!("{scheme}://…@{host}"),
                None => host.to_owned(),
            },
            None => config.url.clone(),
        };
        Ok(PinStore::Shared(Box::new(SharedPins { state, url })))
    }

    /// Where the pins are, for people.
    pub fn describe(&self) -> String {
        match self {
            PinStore::File(p) => format!("the pins file {}", p.path().display()),
            PinStore::Shared(s) => format!("the shared state at {}", s.url),
        }
    }

    /// Every server's pins.
    pub async fn read(&self) -> Result<PinFile, PinsError> {
        match self {
            PinStore::File(p) => p.read(),
            PinStore::Shared(s) => Ok(s.get().await?.1),
        }
    }

    /// Reads the pins, lets `change` change them and writes them back when
    /// it did; in Redis, made again on what another replica wrote meanwhile.
    pub async fn update<T>(
        &self,
        mut change: impl FnMut(&mut PinFile) -> T,
    ) -> Result<T, PinsError> {
        let s = match self {
            PinStore::File(p) => return p.update(change),
            PinStore::Shared(s) => s,
        };
        for _ in 0..SHARED_ATTEMPTS {
            let (version, mut file) = s.get().await?;
            let before = file.clone();
            let out = change(&mut file);
            if file == before {
                return Ok(out);
            }
            let text =
                serde_json::to_string(&file).map_err(|e| PinsError::Shared(e.to_string()))?;
            let written = s
                .state
                .doc_put(DOC, version, &text)
                .await
                .map_err(|e| PinsError::Shared(e.0))?;
            if written.is_some() {
                return Ok(out);
            }
        }
        Err(PinsError::Shared(format!(
            "other replicas changed the pins {SHARED_ATTEMPTS} times while this one tried"
        )))
    }

    /// As [`Pins::judge`].
    pub async fn judge(
        &self,
        server: &str,
        tools: &[(String, String)],
    ) -> Result<Vec<PinVerdict>, PinsError> {
        let now = now();
        self.update(|file| {
            let pins = file.servers.entry(server.to_owned()).or_default();
            judge(pins, tools, now)
        })
        .await
    }

    /// As [`Pins::approve`].
    pub async fn approve(&self, server: &str, tools: &[String]) -> Result<Vec<String>, PinsError> {
        self.update(|file| approve(file, server, tools)).await
    }

    /// As [`Pins::reset`].
    pub async fn reset(&self, server: Option<&str>) -> Result<bool, PinsError> {
        self.update(|file| reset(file, server)).await
    }
}

impl SharedPins {
    /// The document's version (0: none yet) and contents.
    async fn get(&self) -> Result<(u64, PinFile), PinsError> {
        let (version, text) = self
            .state
            .doc_get(DOC)
            .await
            .map_err(|e| PinsError::Shared(e.0))?;
        let Some(text) = text else {
            return Ok((
                version,
                PinFile {
                    version: 1,
                    servers: BTreeMap::new(),
                },
            ));
        };
        palisade_engine::parse_json(&text)
            .map_err(|e| PinsError::Shared(format!("the pins are not valid: {e}")))?;
        let file = serde_json::from_str(&text)
            .map_err(|e| PinsError::Shared(format!("the pins are not valid: {e}")))?;
        Ok((version, file))
    }
}

fn judge(pins: &mut ServerPins, tools: &[(String, String)], now: u64) -> Vec<PinVerdict> {
    let listed: HashSet<&str> = tools.iter().map(|(n, _)| n.as_str()).collect();
    let mut verdicts = Vec::with_capacity(tools.len());
    for (name, print) in tools {
        let pin = Pin {
            fingerprint: print.clone(),
            seen: now,
        };
        if let Some((waiting, _)) = pins.pending.iter().find(|(_, p)| p.fingerprint == *print) {
            verdicts.push(PinVerdict::Held {
                name: waiting.clone(),
            });
            continue;
        }
        if let Some(pinned) = pins.tools.get(name) {
            if pinned.fingerprint == *print {
                verdicts.push(PinVerdict::Trusted);
            } else {
                pins.pending.insert(name.clone(), pin);
                verdicts.push(PinVerdict::Changed);
            }
            continue;
        }
        let same = pins
            .tools
            .iter()
            .find(|(_, p)| p.fingerprint == *print)
            .map(|(n, _)| n.clone());
        match same {
            Some(of) if listed.contains(of.as_str()) => verdicts.push(PinVerdict::Copy { of }),
            Some(from) => {
                if let Some(old) = pins.tools.remove(&from) {
                    pins.tools.insert(name.clone(), old);
                }
                verdicts.push(PinVerdict::Renamed { from });
            }
            None => {
                pins.tools.insert(name.clone(), pin);
                verdicts.push(PinVerdict::FirstSeen);
            }
        }
    }
    verdicts
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `<file>.lock`, created exclusively, removed when dropped; a lock older
/// than a minute is a crashed process's and is taken over.
struct FileLock {
    path: PathBuf,
}

impl FileLock {
    fn take(file: &Path) -> Result<Self, PinsError> {
        let path = file.with_extension("json.lock");
        let io = |source| PinsError::Io {
            path: path.clone(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let started = std::time::Instant::now();
        loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(_) => return Ok(FileLock { path }),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let stale = std::fs::metadata(&path)
                        .and_then(|m| m.modified())
                        .ok()
                        .and_then(|t| t.elapsed().ok())
                        .is_some_and(|age| age > Duration::from_secs(60));
                    if stale || started.elapsed() > Duration::from_secs(10) {
                        let _ = std::fs::remove_file(&path);
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(e) => return Err(io(e)),
            }
        }
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn list(tools: &[(&str, &str)]) -> Vec<(String, String)> {
        tools
            .iter()
            .map(|(n, d)| {
                (
                    (*n).to_owned(),
                    fingerprint(&json!({"name": n, "description": d})),
                )
            })
            .collect()
    }

    #[test]
    fn fingerprints_ignore_the_name_and_key_order() {
        let a = json!({"name": "a", "description": "x", "inputSchema": {"type": "object", "properties": {}}});
        let b = json!({"inputSchema": {"properties": {}, "type": "object"}, "description": "x", "name": "b"});
        assert_eq!(fingerprint(&a), fingerprint(&b));
        let c = json!({"name": "a", "description": "y", "inputSchema": {"type": "object", "properties": {}}});
        assert_ne!(fingerprint(&a), fingerprint(&c));
    }

    #[test]
    fn a_rug_pull_is_held_under_any_name_until_approved() {
        let mut pins = ServerPins::default();
        assert_eq!(
            judge(&mut pins, &list(&[("add", "Adds.")]), 1),
            [PinVerdict::FirstSeen]
        );
        assert_eq!(
            judge(&mut pins, &list(&[("add", "Adds.")]), 2),
            [PinVerdict::Trusted]
        );
        assert_eq!(
            judge(&mut pins, &list(&[("add", "Adds. Evil.")]), 3),
            [PinVerdict::Changed]
        );
        // Renamed, the changed definition is still held.
        assert_eq!(
            judge(&mut pins, &list(&[("add2", "Adds. Evil.")]), 4),
            [PinVerdict::Held { name: "add".into() }]
        );
        pins.tools
            .insert("add".into(), pins.pending.remove("add").unwrap());
        assert_eq!(
            judge(&mut pins, &list(&[("add", "Adds. Evil.")]), 5),
            [PinVerdict::Trusted]
        );
    }

    #[test]
    fn a_rename_keeps_the_pin_and_a_copy_is_flagged() {
        let mut pins = ServerPins::default();
        judge(&mut pins, &list(&[("add", "Adds.")]), 1);
        assert_eq!(
            judge(&mut pins, &list(&[("sum", "Adds.")]), 2),
            [PinVerdict::Renamed { from: "add".into() }]
        );
        assert_eq!(
            judge(&mut pins, &list(&[("sum", "Adds."), ("plus", "Adds.")]), 3),
            [PinVerdict::Trusted, PinVerdict::Copy { of: "sum".into() }]
        );
    }

    #[test]
    fn the_file_round_trips_and_approves() {
        let dir = tempfile::tempdir().unwrap();
        let pins = Pins::at(dir.path().join("state/pins.json"));
        pins.judge("fs", &list(&[("read", "Reads.")])).unwrap();
        assert_eq!(
            pins.judge("fs", &list(&[("read", "Reads!")])).unwrap(),
            [PinVerdict::Changed]
        );
        assert_eq!(pins.approve("fs", &[]).unwrap(), ["read"]);
        assert_eq!(
            pins.judge("fs", &list(&[("read", "Reads!")])).unwrap(),
            [PinVerdict::Trusted]
        );
        assert!(pins.reset(Some("fs")).unwrap());
        assert!(pins.read().unwrap().servers.is_empty());
        std::fs::write(pins.path(), "{\"version\": 1, \"version\": 2}").unwrap();
        assert!(pins.read().is_err());
    }
}
