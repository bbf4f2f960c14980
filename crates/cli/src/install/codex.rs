//! Codex's hook trust, through Codex itself: `codex app-server` (JSON-RPC
//! over stdio) lists the hooks with their trust status (`hooks/list`) and
//! records trust (`config/value/write` of `hooks.state."<key>".trusted_hash`).
//! Codex skips an untrusted hook without a word, so `hooks install codex`
//! trusts Palisade's hooks and `doctor` reports their status.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, bail};
use palisade_transport::hooks::Host;
use serde_json::{Value, json};

/// How long Codex gets to answer each call.
const TIMEOUT: Duration = Duration::from_secs(15);

/// The `codex` binary: `CODEX_BIN`, else `codex` on the PATH.
fn binary() -> String {
    std::env::var("CODEX_BIN")
        .ok()
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| "codex".to_owned())
}

/// A running `codex app-server`.
struct AppServer {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    next_id: u64,
}

impl AppServer {
    fn start(cwd: &Path) -> anyhow::Result<Self> {
        let bin = binary();
        let mut child = Command::new(&bin)
            .arg("app-server")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| {
                format!("cannot run `{bin} app-server` (set CODEX_BIN to Codex's binary)")
            })?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Self {
            child,
            stdin,
            lines,
            next_id: 1,
        };
        server.call(
            "initialize",
            json!({"clientInfo": {"name": "palisade", "version": env!("CARGO_PKG_VERSION")}}),
        )?;
        server.send(&json!({"jsonrpc": "2.0", "method": "initialized"}))?;
        Ok(server)
    }

    fn send(&mut self, message: &Value) -> anyhow::Result<()> {
        writeln!(self.stdin, "{message}").context("Codex's app-server closed its input")?;
        self.stdin
            .flush()
            .context("Codex's app-server closed its input")
    }

    /// One call; its `result`.
    fn call(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let line = self
                .lines
                .recv_timeout(TIMEOUT)
                .with_context(|| format!("Codex did not answer `{method}`"))?;
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("id").and_then(Value::as_u64) != Some(id) {
                continue;
            }
            if let Some(error) = message.get("error") {
                bail!("Codex refused `{method}`: {error}");
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }
}

impl Drop for AppServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Palisade's hooks as Codex lists them: key, current hash, trust status.
fn ours(server: &mut AppServer) -> anyhow::Result<Vec<(String, String, String)>> {
    let listed = server.call("hooks/list", json!({}))?;
    let mut out = Vec::new();
    for group in listed["data"].as_array().into_iter().flatten() {
        for hook in group["hooks"].as_array().into_iter().flatten() {
            let command = hook["command"].as_str().unwrap_or("");
            if !super::is_ours(&json!({ "command": command }), Host::Codex) {
                continue;
            }
            let field = |k: &str| hook[k].as_str().unwrap_or("").to_owned();
            out.push((field("key"), field("currentHash"), field("trustStatus")));
        }
    }
    Ok(out)
}

/// Records Codex's trust in Palisade's hooks; how many were newly trusted.
pub(crate) fn trust(cwd: &Path) -> anyhow::Result<usize> {
    let mut server = AppServer::start(cwd)?;
    let mut trusted = 0;
    for (key, hash, status) in ours(&mut server)? {
        if status == "trusted" || key.is_empty() || hash.is_empty() {
            continue;
        }
        let quoted = key.replace('\\', "\\\\").replace('"', "\\\"");
        server.call(
            "config/value/write",
            json!({
                "keyPath": format!("hooks.state.\"{quoted}\".trusted_hash"),
                "value": hash,
                "mergeStrategy": "replace",
            }),
        )?;
        trusted += 1;
    }
    Ok(trusted)
}

/// The trust status of Palisade's hooks, one line.
///
/// The flag is whether every hook is known to be trusted: Codex skips an
/// untrusted hook without a word, so a status that is not known leaves
/// Codex unprotected as far as anyone can tell.
pub(crate) fn status(cwd: &Path) -> (String, bool) {
    let listed = AppServer::start(cwd).and_then(|mut s| ours(&mut s));
    match listed {
        Err(e) => (
            format!(
                "unknown ({e:#}); Codex skips untrusted hooks without a word: check them in codex's /hooks"
            ),
            false,
        ),
        Ok(hooks) if hooks.is_empty() => (
            "NO: Codex lists none of Palisade's hooks; run `palisade hooks install codex` again"
                .to_owned(),
            false,
        ),
        Ok(hooks) => {
            let untrusted: Vec<&str> = hooks
                .iter()
                .filter(|(_, _, s)| s != "trusted")
                .map(|(k, _, _)| k.as_str())
                .collect();
            if untrusted.is_empty() {
                (format!("yes ({} hooks trusted)", hooks.len()), true)
            } else {
                (
                    format!(
                        "NO: Codex skips untrusted hooks ({}); run `palisade hooks install codex` again, or trust them in codex's /hooks",
                        untrusted.join(", ")
                    ),
                    false,
                )
            }
        }
    }
}
