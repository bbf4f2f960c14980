//! `palisade hooks install|uninstall HOST`: writes (or removes) Palisade's
//! hooks in a coding agent's own configuration file, merging with what is
//! there and never clobbering it, and prints what it changed.

pub(crate) mod codex;
pub(crate) mod jsonc;

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use palisade_transport::hooks::Host;
use serde_json::{Map, Value, json};

use crate::HooksArgs;

/// Seconds a host waits for the hook (the hook's own watchdog answers well before).
const TIMEOUT_SECS: u64 = 30;

/// Where a host keeps its hooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    User,
    Project,
}

/// One host's hook configuration file and the events Palisade hooks.
pub(crate) struct Target {
    pub(crate) path: PathBuf,
    /// The host's events, each with the matcher Palisade's entry uses.
    pub(crate) events: &'static [(&'static str, Option<&'static str>)],
}

fn home() -> anyhow::Result<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .context("HOME is not set, so the user's configuration cannot be found")
}

fn env_dir(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The configuration file of `host` at `scope` (`root`: the project's directory).
pub(crate) fn target(host: Host, scope: Scope, root: &Path) -> anyhow::Result<Target> {
    let user = |dir: &str| home().map(|h| h.join(dir));
    let (path, events): (PathBuf, &'static [(&str, Option<&str>)]) = match host {
        Host::ClaudeCode => (
            match scope {
                Scope::User => env_dir("CLAUDE_CONFIG_DIR")
                    .map_or_else(|| user(".claude"), Ok)?
                    .join("settings.json"),
                Scope::Project => root.join(".claude/settings.json"),
            },
            &[
                ("PreToolUse", Some("*")),
                ("PostToolUse", Some("*")),
                ("UserPromptSubmit", None),
            ],
        ),
        Host::Codex => (
            match scope {
                Scope::User => env_dir("CODEX_HOME")
                    .map_or_else(|| user(".codex"), Ok)?
                    .join("hooks.json"),
                Scope::Project => root.join(".codex/hooks.json"),
            },
            &[
                ("PreToolUse", Some("*")),
                ("PostToolUse", Some("*")),
                ("UserPromptSubmit", None),
            ],
        ),
        Host::GeminiCli => (
            match scope {
                Scope::User => user(".gemini")?.join("settings.json"),
                Scope::Project => root.join(".gemini/settings.json"),
            },
            &[
                ("BeforeTool", Some(".*")),
                ("AfterTool", Some(".*")),
                ("BeforeAgent", None),
                ("AfterModel", None),
            ],
        ),
        Host::Cursor => (
            match scope {
                Scope::User => user(".cursor")?.join("hooks.json"),
                Scope::Project => root.join(".cursor/hooks.json"),
            },
            &[
                ("beforeShellExecution", None),
                ("beforeMCPExecution", None),
                ("beforeReadFile", None),
                ("beforeSubmitPrompt", None),
            ],
        ),
        Host::CopilotCli => match scope {
            Scope::Project => (
                root.join(".github/hooks/palisade.json"),
                &[
                    ("preToolUse", None),
                    ("postToolUse", None),
                    ("userPromptSubmitted", None),
                ],
            ),
            Scope::User => bail!(
                "Copilot CLI reads hooks from the repository (.github/hooks/*.json); use --scope project"
            ),
        },
    };
    Ok(Target { path, events })
}

/// The command a host runs: this binary, by absolute path.
fn command(host: Host, args: &HooksArgs) -> anyhow::Result<String> {
    let exe = std::env::current_exe().context("cannot tell where this palisade binary is")?;
    let mut cmd = format!("{} hook {}", quote(&exe.to_string_lossy()), host.name());
    if let Some(url) = &args.server {
        cmd.push_str(&format!(" --server {}", quote(url)));
    }
    if let Some(policy) = &args.policy {
        let policy = std::path::absolute(policy)
            .with_context(|| format!("cannot resolve {}", policy.display()))?;
        cmd.push_str(&format!(" --policy {}", quote(&policy.to_string_lossy())));
    }
    if let Some(config) = &args.config {
        let config = std::path::absolute(config)
            .with_context(|| format!("cannot resolve {}", config.display()))?;
        cmd.push_str(&format!(" --config {}", quote(&config.to_string_lossy())));
    }
    Ok(cmd)
}

/// A word for `sh`, quoted when it needs to be.
pub(crate) fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-:+=@%,".contains(c))
    {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Palisade's handler for one event of `host`.
fn handler(host: Host, cmd: &str, args: &HooksArgs) -> Value {
    match host {
        Host::ClaudeCode => match &args.server {
            Some(url) => json!({
                "type": "http",
                "url": format!("{}/v1/hooks/claude-code", url.trim_end_matches('/')),
                "headers": {"Authorization": format!("Bearer ${}", crate::hook::KEY_ENV)},
                "allowedEnvVars": [crate::hook::KEY_ENV],
                "timeout": TIMEOUT_SECS,
                "onFailure": "block",
            }),
            None => json!({
                "type": "command", "command": cmd, "timeout": TIMEOUT_SECS, "onFailure": "block",
            }),
        },
        Host::Codex => json!({"type": "command", "command": cmd, "timeout": TIMEOUT_SECS}),
        Host::GeminiCli => json!({
            "type": "command", "name": "palisade", "command": cmd, "timeout": TIMEOUT_SECS * 1000,
        }),
        Host::Cursor => json!({ "command": cmd }),
        Host::CopilotCli => json!({"type": "command", "bash": cmd, "timeoutSec": TIMEOUT_SECS}),
    }
}

/// Whether a handler is Palisade's (any version, any path).
pub(crate) fn is_ours(handler: &Value, host: Host) -> bool {
    let text = |k: &str| handler.get(k).and_then(Value::as_str).unwrap_or("");
    let hook_word = format!(" hook {}", host.name());
    ["command", "bash"]
        .iter()
        .any(|k| text(k).contains("palisade") && text(k).contains(&hook_word))
        || text("url").ends_with(&format!("/v1/hooks/{}", host.name()))
}

/// The entries of one event: Claude Code, Codex and Gemini CLI group
/// handlers under a matcher; Cursor and Copilot CLI list them flat.
fn grouped(host: Host) -> bool {
    matches!(host, Host::ClaudeCode | Host::Codex | Host::GeminiCli)
}

/// A host's configuration file as read.
pub(crate) struct Config {
    /// What it holds (`{}` when absent).
    pub(crate) map: Map<String, Value>,
    /// Its text, when it is edited in place rather than written anew
    /// (Gemini CLI's settings, which may have comments).
    text: Option<(String, jsonc::Doc)>,
}

/// Reads a configuration file: `{}` when absent; an error (and no write)
/// when it is not a JSON object. Gemini CLI's settings are JSON with
/// comments, as Gemini CLI reads them.
pub(crate) fn read_config(path: &Path, host: Host) -> anyhow::Result<Config> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Config {
                map: Map::new(),
                text: None,
            });
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if host == Host::GeminiCli && !jsonc::blank_comments(&text).trim().is_empty() {
        return match jsonc::parse(&text) {
            Ok(doc) => match doc.value.clone() {
                Value::Object(map) => Ok(Config {
                    map,
                    text: Some((text, doc)),
                }),
                _ => bail!(
                    "{} is not a JSON object; it is left as it is",
                    path.display()
                ),
            },
            Err(e) => bail!(
                "{} is not valid JSON with comments ({e}); it is left as it is",
                path.display()
            ),
        };
    }
    if text.trim().is_empty() {
        return Ok(Config {
            map: Map::new(),
            text: None,
        });
    }
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(Config { map, text: None }),
        Ok(_) => bail!(
            "{} is not a JSON object; it is left as it is",
            path.display()
        ),
        Err(e) => bail!(
            "{} is not valid JSON ({e}); it is left as it is",
            path.display()
        ),
    }
}

/// The handlers of Palisade in one event's list, and whether any entry is malformed.
pub(crate) fn ours_in(entries: &[Value], host: Host) -> usize {
    entries
        .iter()
        .map(|e| {
            if grouped(host) {
                e.get("hooks")
                    .and_then(Value::as_array)
                    .map_or(0, |hs| hs.iter().filter(|h| is_ours(h, host)).count())
            } else {
                usize::from(is_ours(e, host))
            }
        })
        .sum()
}

/// Removes Palisade's handlers from one event's entries; gives how many.
fn remove_ours(entries: &mut Vec<Value>, host: Host) -> usize {
    let before = ours_in(entries, host);
    if grouped(host) {
        for e in entries.iter_mut() {
            if let Some(hs) = e.get_mut("hooks").and_then(Value::as_array_mut) {
                hs.retain(|h| !is_ours(h, host));
            }
        }
        // A group left empty by the removal goes too.
        entries.retain(|e| {
            e.get("hooks")
                .and_then(Value::as_array)
                .is_none_or(|hs| !hs.is_empty())
        });
    } else {
        entries.retain(|e| !is_ours(e, host));
    }
    before
}

/// The `hooks` object of a configuration, created when absent.
fn hooks_of<'a>(
    config: &'a mut Map<String, Value>,
    path: &Path,
) -> anyhow::Result<&'a mut Map<String, Value>> {
    let hooks = config
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()));
    hooks.as_object_mut().with_context(|| {
        format!(
            "{}: `hooks` is not an object; it is left as it is",
            path.display()
        )
    })
}

/// Writes the file through a temporary file in the same directory: anew,
/// or, for a file edited in place, its text with the values that changed
/// replaced (comments and formatting kept; an edit that would drop a
/// comment is refused and nothing is written).
fn write_config(path: &Path, config: &Config) -> anyhow::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let text = match &config.text {
        Some((text, doc)) => jsonc::edit(text, doc, &Value::Object(config.map.clone()))
            .map_err(|why| {
                anyhow::anyhow!(
                    "{}: {why}; its comments cannot be kept, so it is left as it is (move or remove those comments and run again)",
                    path.display()
                )
            })?,
        None => {
            let mut text = serde_json::to_string_pretty(&config.map)?;
            text.push('\n');
            text
        }
    };
    let tmp = path.with_extension("json.palisade-tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))
}

/// `palisade hooks install HOST`, or `--all`: every host found.
pub(crate) fn install(args: &HooksArgs) -> anyhow::Result<u8> {
    let scope = scope(args)?;
    let root = std::env::current_dir().context("cannot read the current directory")?;
    if !args.all {
        install_one(host(args)?, scope, args, &root)?;
        say!("check it with: palisade doctor");
        return Ok(0);
    }
    let mut found = 0;
    let mut failed = 0;
    for &host in Host::ALL {
        let Some(why) = crate::hosts::found(host) else {
            continue;
        };
        found += 1;
        if host == Host::CopilotCli && scope == Scope::User {
            say!(
                "{host}: found ({why}); it reads hooks from each repository only: run `palisade hooks install copilot-cli --scope project` in the repository"
            );
            continue;
        }
        if let Err(e) = install_one(host, scope, args, &root) {
            failed += 1;
            eprintln!("error: {host}: {e:#}");
        }
    }
    if let Some(why) = crate::hosts::pi_found() {
        found += 1;
        if crate::hosts::pi_extension(&root).is_empty() {
            say!(
                "pi: found ({why}); pi takes Palisade as an extension: pi install npm:palisade-pi (or pi install ./packages/palisade-pi from the Palisade repository)"
            );
        } else {
            say!("pi: found ({why}); Palisade's extension is installed");
        }
    }
    if found == 0 {
        bail!(
            "no coding agent found (looked for claude, codex, gemini, cursor-agent, copilot and pi on the PATH, and for ~/.claude, ~/.codex, ~/.gemini, ~/.cursor, ~/.copilot and ~/.pi/agent); name the host: palisade hooks install HOST"
        );
    }
    say!("check it with: palisade doctor");
    Ok(if failed > 0 { 2 } else { 0 })
}

/// Installs Palisade's hooks for one host and prints what changed.
fn install_one(host: Host, scope: Scope, args: &HooksArgs, root: &Path) -> anyhow::Result<()> {
    let t = target(host, scope, root)?;
    let cmd = command(host, args)?;
    let mut config = read_config(&t.path, host)?;
    if host == Host::Cursor || host == Host::CopilotCli {
        config.map.entry("version").or_insert(json!(1));
    }
    let hooks = hooks_of(&mut config.map, &t.path)?;
    let ours = handler(host, &cmd, args);
    let mut changes = Vec::new();
    for (event, matcher) in t.events {
        let list = hooks
            .entry(*event)
            .or_insert_with(|| Value::Array(Vec::new()));
        let Some(entries) = list.as_array_mut() else {
            bail!(
                "{}: `hooks.{event}` is not a list; it is left as it is",
                t.path.display()
            );
        };
        let replaced = remove_ours(entries, host) > 0;
        let entry = if grouped(host) {
            let mut group = json!({ "hooks": [ours.clone()] });
            if let Some(m) = matcher {
                group["matcher"] = json!(m);
            }
            group
        } else {
            ours.clone()
        };
        entries.push(entry);
        changes.push(format!(
            "  {} {event}",
            if replaced { "updated" } else { "added" }
        ));
    }
    write_config(&t.path, &config)?;
    say!("{}: {}", host, t.path.display());
    for c in &changes {
        say!("{c}");
    }
    match &args.server {
        Some(url) => say!("  asks the service at {url}"),
        None => say!("  runs: {cmd}"),
    }
    if host == Host::Codex {
        // Codex skips untrusted hooks silently: trust Palisade's through Codex.
        match codex::trust(root) {
            Ok(0) => say!("  Codex already trusts these hooks"),
            Ok(n) => say!(
                "  trusted in Codex ({n} hooks, recorded under hooks.state in its config.toml)"
            ),
            Err(e) => say!(
                "  NOT trusted yet ({e:#}): Codex skips untrusted hooks; start `codex`, open /hooks and trust Palisade's"
            ),
        }
    }
    Ok(())
}

/// `palisade hooks uninstall HOST`.
pub(crate) fn uninstall(args: &HooksArgs) -> anyhow::Result<u8> {
    if args.all {
        bail!("uninstall takes one host; --all installs only");
    }
    let (host, scope) = (host(args)?, scope(args)?);
    let root = std::env::current_dir().context("cannot read the current directory")?;
    let t = target(host, scope, &root)?;
    if !t.path.exists() {
        say!(
            "{}: {} does not exist; nothing to remove",
            host,
            t.path.display()
        );
        return Ok(0);
    }
    let mut config = read_config(&t.path, host)?;
    let hooks = hooks_of(&mut config.map, &t.path)?;
    let mut removed = 0;
    let events: Vec<String> = hooks.keys().cloned().collect();
    for event in events {
        let Some(entries) = hooks.get_mut(&event).and_then(Value::as_array_mut) else {
            continue;
        };
        let n = remove_ours(entries, host);
        if n > 0 {
            say!("  removed {event}");
            removed += n;
        }
        if entries.is_empty() {
            hooks.remove(&event);
        }
    }
    if removed == 0 {
        say!("{}: no Palisade hook in {}", host, t.path.display());
        return Ok(0);
    }
    if hooks.is_empty() {
        config.map.remove("hooks");
    }
    write_config(&t.path, &config)?;
    say!("{}: {} (Palisade's hooks removed)", host, t.path.display());
    Ok(0)
}

fn host(args: &HooksArgs) -> anyhow::Result<Host> {
    let name = args.host.as_deref().unwrap_or_default();
    Host::from_name(name)
        .with_context(|| format!("unknown host `{name}`; expected one of {}", Host::names()))
}

fn scope(args: &HooksArgs) -> anyhow::Result<Scope> {
    Ok(match args.scope.as_str() {
        "user" => Scope::User,
        "project" => Scope::Project,
        other => bail!("--scope: `{other}` is not a scope; expected user or project"),
    })
}
