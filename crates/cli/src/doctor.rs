//! `palisade doctor`: per host, whether Palisade's hooks are configured
//! (user and project scope), trusted where the host asks for trust, and
//! answering: the configured hook is run on a read of a private key, which
//! it must deny, and timed. A host found on this machine without them, an
//! event left unhooked, and pi without Palisade's extension each leave an
//! agent unprotected: each is reported and makes the exit code 1. The
//! host's MCP servers are listed as wrapped (run through `palisade
//! mcp-proxy`) or not; one not wrapped is a warning that leaves the exit
//! code alone, since the hooks still decide its calls and results.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context;
use palisade_transport::hooks::Host;
use serde_json::{Value, json};

use crate::install::{Scope, is_ours, ours_in, read_config, target};

/// Runs of the probe, of which the median is told.
const RUNS: usize = 5;

pub(crate) fn run() -> anyhow::Result<u8> {
    let root = std::env::current_dir().context("cannot read the current directory")?;
    let mut configured = 0;
    let mut broken = 0;
    for &host in Host::ALL {
        let mut lines = Vec::new();
        let mut handler = None;
        for (scope, label) in [(Scope::User, "user"), (Scope::Project, "project")] {
            let Ok(t) = target(host, scope, &root) else {
                continue;
            };
            let config = match read_config(&t.path, host) {
                Ok(c) => c.map,
                Err(e) => {
                    lines.push(format!("  {label}: {e:#}"));
                    broken += 1;
                    continue;
                }
            };
            let hooks = config.get("hooks").and_then(Value::as_object);
            let mut present = Vec::new();
            let mut missing = Vec::new();
            for (event, _) in t.events {
                let entries = hooks
                    .and_then(|h| h.get(*event))
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                if ours_in(entries, host) > 0 {
                    present.push(*event);
                    handler = handler.or_else(|| first_handler(entries, host));
                } else {
                    missing.push(*event);
                }
            }
            if present.is_empty() {
                continue;
            }
            let mut line = format!("  {label}: {} ({})", t.path.display(), present.join(", "));
            if !missing.is_empty() {
                // An event without the hook goes unchecked.
                broken += 1;
                line.push_str(&format!(
                    "; NOT hooked: {} (install again: palisade hooks install {host} --scope {label})",
                    missing.join(", ")
                ));
            }
            lines.push(line);
        }
        // MCP servers not wrapped are warnings only: the host's hooks
        // still decide their calls; what they miss is the judgement of
        // their tool definitions (docs/GATEWAY.md).
        let mcp = crate::wrap::doctor_lines(host, &root);
        if lines.is_empty() {
            if let Some(why) = crate::hosts::found(host) {
                broken += 1;
                say!("{host}");
                say!("  found: {why}");
                say!(
                    "  hooks: NONE, so its tool calls are not checked; install them: palisade hooks install {host}{}",
                    if host == Host::CopilotCli {
                        " --scope project"
                    } else {
                        ""
                    }
                );
            } else if !mcp.is_empty() {
                say!("{host}");
            }
            for l in &mcp {
                say!("{l}");
            }
            continue;
        }
        configured += 1;
        say!("{host}");
        for l in &lines {
            say!("{l}");
        }
        if host == Host::Codex {
            let (status, trusted) = crate::install::codex::status(&root);
            say!("  trusted: {status}");
            if !trusted {
                broken += 1;
            }
        }
        match handler.map(|h| probe(host, &h, &root)) {
            Some(Ok(took)) => say!(
                "  answering: yes; denies a read of ~/.ssh/id_rsa in {:.1} ms (median of {RUNS})",
                took.as_secs_f64() * 1000.0
            ),
            Some(Err(e)) => {
                broken += 1;
                say!("  answering: NO: {e:#}");
            }
            None => {}
        }
        for l in &mcp {
            say!("{l}");
        }
    }
    match pi(&root) {
        Pi::Absent => {}
        Pi::Protected => configured += 1,
        Pi::Unprotected => broken += 1,
        Pi::Broken => {
            configured += 1;
            broken += 1;
        }
    }
    if configured == 0 {
        say!(
            "No host has Palisade's hooks. Install them with `palisade hooks install HOST` (HOST: {}), or for every host found: palisade hooks install --all.",
            Host::names()
        );
        return Ok(1);
    }
    Ok(u8::from(broken > 0))
}

/// What `doctor` found of pi.
enum Pi {
    /// Neither pi nor the extension is here.
    Absent,
    /// The extension is installed and can start `palisade`.
    Protected,
    /// pi is here without the extension.
    Unprotected,
    /// The extension is installed but cannot start `palisade`.
    Broken,
}

/// pi: whether its settings load palisade-pi, and whether the extension
/// can start the binary it runs (`PALISADE_BIN`, else `palisade` on the PATH).
fn pi(root: &Path) -> Pi {
    let installed = crate::hosts::pi_extension(root);
    let found = crate::hosts::pi_found();
    if installed.is_empty() {
        let Some(why) = found else {
            return Pi::Absent;
        };
        say!("pi");
        say!("  found: {why}");
        say!(
            "  extension: NOT installed, so its tool calls are not checked; install it: pi install npm:palisade-pi (or pi install ./packages/palisade-pi from the Palisade repository)"
        );
        return Pi::Unprotected;
    }
    say!("pi");
    for (file, entry) in &installed {
        say!("  extension: {entry} in {}", file.display());
    }
    let bin = std::env::var("PALISADE_BIN").unwrap_or_else(|_| "palisade".to_owned());
    let resolved = if bin.contains('/') {
        Some(std::path::PathBuf::from(&bin)).filter(|p| p.is_file())
    } else {
        crate::hosts::on_path(&bin)
    };
    match resolved {
        Some(path) => {
            say!("  runs: {} events", path.display());
            Pi::Protected
        }
        None => {
            say!(
                "  runs: NOTHING: `{bin}` is not found, so the extension blocks every write and command; put palisade on the PATH or set PALISADE_BIN"
            );
            Pi::Broken
        }
    }
}

fn first_handler(entries: &[Value], host: Host) -> Option<Value> {
    entries.iter().find_map(|e| {
        let hs = e.get("hooks").and_then(Value::as_array);
        match hs {
            Some(hs) => hs.iter().find(|h| is_ours(h, host)).cloned(),
            None => is_ours(e, host).then(|| e.clone()),
        }
    })
}

/// A pre-tool payload of `host` reading a private key.
fn payload(host: Host, cwd: &Path) -> Value {
    let cwd = cwd.to_string_lossy();
    let key = "~/.ssh/id_rsa";
    match host {
        Host::ClaudeCode | Host::Codex => json!({
            "session_id": "palisade-doctor", "cwd": cwd, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": format!("cat {key}")},
        }),
        Host::GeminiCli => json!({
            "session_id": "palisade-doctor", "cwd": cwd, "hook_event_name": "BeforeTool",
            "tool_name": "read_file", "tool_input": {"file_path": key},
        }),
        Host::Cursor => json!({
            "conversation_id": "palisade-doctor", "hook_event_name": "beforeReadFile",
            "workspace_roots": [cwd], "file_path": key,
        }),
        Host::CopilotCli => json!({
            "timestamp": 0, "cwd": cwd, "toolName": "view", "toolArgs": json!({"path": key}).to_string(),
        }),
    }
}

/// Runs the configured handler on the probe payload; the median time.
fn probe(host: Host, handler: &Value, cwd: &Path) -> anyhow::Result<Duration> {
    let body = payload(host, cwd).to_string();
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let started = Instant::now();
        let (code, out) = match handler.get("url").and_then(Value::as_str) {
            Some(url) => post(url, &body)?,
            None => {
                let cmd = handler
                    .get("command")
                    .or_else(|| handler.get("bash"))
                    .and_then(Value::as_str)
                    .context("the hook has no command")?;
                run_command(cmd, &body, cwd)?
            }
        };
        times.push(started.elapsed());
        let denies = out.contains("deny") || out.contains("block");
        if !denies {
            anyhow::bail!(
                "the hook let a read of ~/.ssh/id_rsa through (exit {code}, output {:?})",
                out.trim()
            );
        }
    }
    times.sort();
    times.get(RUNS / 2).copied().context("no run")
}

fn run_command(cmd: &str, body: &str, cwd: &Path) -> anyhow::Result<(i32, String)> {
    let mut child = Command::new("sh")
        .args(["-c", cmd])
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot run `{cmd}`"))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(body.as_bytes())
            .with_context(|| format!("cannot write to `{cmd}`"))?;
    }
    let out = child
        .wait_with_output()
        .with_context(|| format!("`{cmd}` did not finish"))?;
    let code = out.status.code().unwrap_or(-1);
    if code != 0 && code != 2 {
        anyhow::bail!(
            "`{cmd}` exited with {code}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok((code, String::from_utf8_lossy(&out.stdout).into_owned()))
}

fn post(url: &str, body: &str) -> anyhow::Result<(i32, String)> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let mut request = reqwest::Client::new()
            .post(url)
            .header("content-type", "application/json")
            .body(body.to_owned())
            .timeout(Duration::from_secs(10));
        if let Ok(key) = std::env::var(crate::hook::KEY_ENV) {
            request = request.bearer_auth(key);
        }
        let response = request
            .send()
            .await
            .with_context(|| format!("{url} did not answer"))?;
        let status = response.status();
        let text = response.text().await.unwrap_or_default();
        if !status.is_success() {
            anyhow::bail!("{url} answered {status}: {text}");
        }
        Ok((0, text))
    })
}
