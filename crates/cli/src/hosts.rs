//! Which coding agents are on this machine, and whether pi has Palisade's
//! extension: what `palisade doctor` and `palisade hooks install --all` go by.
//! A host is *found* when its command is on the `PATH` or its own folder of
//! user configuration exists; either means it may run here unprotected.

use std::path::{Path, PathBuf};

use palisade_transport::hooks::Host;
use serde_json::Value;

/// The commands a host is started by.
fn commands(host: Host) -> &'static [&'static str] {
    match host {
        Host::ClaudeCode => &["claude"],
        Host::Codex => &["codex"],
        Host::GeminiCli => &["gemini"],
        Host::Cursor => &["cursor-agent"],
        Host::CopilotCli => &["copilot"],
    }
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

fn env_dir(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The host's folder of user configuration.
fn config_dir(host: Host) -> Option<PathBuf> {
    match host {
        Host::ClaudeCode => env_dir("CLAUDE_CONFIG_DIR").or_else(|| Some(home()?.join(".claude"))),
        Host::Codex => env_dir("CODEX_HOME").or_else(|| Some(home()?.join(".codex"))),
        Host::GeminiCli => Some(home()?.join(".gemini")),
        Host::Cursor => Some(home()?.join(".cursor")),
        Host::CopilotCli => env_dir("COPILOT_HOME").or_else(|| Some(home()?.join(".copilot"))),
    }
}

/// `name` as an executable file on the `PATH`.
pub(crate) fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        path.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        path.is_file()
    }
}

/// Why `host` counts as found here (`None`: it is not).
pub(crate) fn found(host: Host) -> Option<String> {
    if let Some(path) = commands(host).iter().find_map(|c| on_path(c)) {
        return Some(format!("{} on the PATH", path.display()));
    }
    config_dir(host)
        .filter(|d| d.is_dir())
        .map(|d| format!("{} exists", d.display()))
}

/// pi's folder of user configuration (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`).
fn pi_dir() -> Option<PathBuf> {
    env_dir("PI_CODING_AGENT_DIR").or_else(|| Some(home()?.join(".pi/agent")))
}

/// Why pi counts as found here (`None`: it is not).
pub(crate) fn pi_found() -> Option<String> {
    if let Some(path) = on_path("pi") {
        return Some(format!("{} on the PATH", path.display()));
    }
    pi_dir()
        .filter(|d| d.is_dir())
        .map(|d| format!("{} exists", d.display()))
}

/// Where pi loads palisade-pi from: the settings file and its entry, for
/// the user's settings and the project's (`.pi/settings.json` under `root`).
pub(crate) fn pi_extension(root: &Path) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    let files = [
        pi_dir().map(|d| d.join("settings.json")),
        Some(root.join(".pi/settings.json")),
    ];
    for file in files.into_iter().flatten() {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let Ok(settings) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let base = file.parent().unwrap_or(Path::new("."));
        let packages = settings.get("packages").and_then(Value::as_array);
        let extensions = settings.get("extensions").and_then(Value::as_array);
        let entries = packages
            .into_iter()
            .chain(extensions)
            .flatten()
            .filter_map(|e| {
                e.as_str()
                    .or_else(|| e.get("source").and_then(Value::as_str))
            });
        for entry in entries {
            if is_palisade_pi(entry, base) {
                found.push((file.clone(), entry.to_owned()));
            }
        }
    }
    found
}

/// Whether a pi package source names palisade-pi: the npm package, or a
/// local folder whose `package.json` is palisade-pi's.
fn is_palisade_pi(source: &str, base: &Path) -> bool {
    let name = source.strip_prefix("npm:").unwrap_or(source);
    let name = name.split('@').next().unwrap_or(name);
    if name == "palisade-pi" {
        return true;
    }
    let path = match source.strip_prefix("~/") {
        Some(rest) => match home() {
            Some(h) => h.join(rest),
            None => return false,
        },
        None => base.join(source),
    };
    std::fs::read_to_string(path.join("package.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .is_some_and(|p| p.get("name").and_then(Value::as_str) == Some("palisade-pi"))
}
