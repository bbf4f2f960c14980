//! `palisade mcp wrap|unwrap HOST`: routes the MCP servers of a coding
//! agent's configuration through `palisade mcp-proxy`, and back.
//!
//! An edit touches the bytes of the server entries and no others, so the
//! rest of the file (other settings, comments, formatting) stays as it is.
//! A command server keeps its command in the proxy's arguments
//! (`palisade mcp-proxy --name NAME -- COMMAND ARGS...`, the command's own
//! text moved, not re-written), so unwrapping gives back the same bytes; a
//! URL server becomes `palisade mcp-proxy --upstream URL`, its headers
//! passed in environment variables of the entry (never on the command
//! line) and its original entry kept in `PALISADE_MCP_ENTRY`.

mod json;
mod toml;

use std::ops::Range;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use clap::Args as ClapArgs;
use palisade_transport::hooks::Host;
use serde_json::{Map, Value};

use crate::install::Scope;

/// The environment variable of a wrapped URL server's entry that holds
/// the entry as it was.
const ORIGINAL: &str = "PALISADE_MCP_ENTRY";

/// Arguments of `palisade mcp wrap|unwrap`.
#[derive(ClapArgs, Debug)]
pub(crate) struct WrapArgs {
    /// The host: claude-code, codex, gemini-cli, cursor or copilot-cli.
    pub(crate) host: String,
    /// `user` (the host's configuration in your home) or `project` (this directory's).
    #[arg(long, value_name = "SCOPE", default_value = "user")]
    pub(crate) scope: String,
    /// Print the change, write nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// wrap: the policy the proxy uses (else the embedded default policy).
    #[arg(long, value_name = "FILE")]
    pub(crate) policy: Option<PathBuf>,
    /// wrap: the service config the proxy uses (audit log, async checks).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// claude-code, user scope: only this project's servers in
    /// ~/.claude.json (`projects.PATH.mcpServers`), not the others'.
    #[arg(long, value_name = "PATH")]
    pub(crate) project: Option<PathBuf>,
}

/// One MCP server entry of a configuration file, located in its text.
#[derive(Debug)]
struct Entry {
    name: String,
    /// The project whose servers it is among (Claude Code's
    /// `projects.PATH.mcpServers`); `None`: the file's own `mcpServers`.
    project: Option<String>,
    /// The entry's value (an object or table).
    span: Range<usize>,
    /// What it means.
    value: Value,
    /// The `command` value.
    command: Option<Range<usize>>,
    args: Option<Args>,
    /// How an `args` member is added beside `command`.
    insert: Insert,
    /// TOML: each key of the entry and where `KEY = VALUE` is (`None`: not
    /// a plain value, such as a dotted key or a table of its own).
    fields: Vec<(String, Option<Range<usize>>)>,
    /// TOML: the entry's text a wrapped URL server keeps to give back: an
    /// inline table, or a table's lines up to the next table header.
    body: Option<Range<usize>>,
}

/// An `args` array.
#[derive(Debug)]
struct Args {
    key_start: usize,
    /// `[` to `]`.
    span: Range<usize>,
    items: Vec<Range<usize>>,
}

#[derive(Debug, Clone, Copy)]
enum Insert {
    /// `, "args": [...]` after the command's value.
    Json,
    /// `, args = [...]` after the command's value.
    TomlInline,
    /// `args = [...]` on the line after the command's.
    TomlLine,
    /// Not added: the entry's form does not allow it safely.
    Never,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Toml,
}

impl Format {
    fn quote(self, s: &str) -> String {
        match self {
            Self::Json => json::quote(s),
            Self::Toml => toml::quote(s),
        }
    }
}

/// Where a host keeps its MCP servers at a scope.
fn file(host: Host, scope: Scope, root: &Path) -> anyhow::Result<(PathBuf, Format)> {
    let home = || -> anyhow::Result<PathBuf> {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .context("HOME is not set, so the user's configuration cannot be found")
    };
    let env_dir = |var: &str| {
        std::env::var_os(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    Ok(match (host, scope) {
        (Host::ClaudeCode, Scope::User) => (
            env_dir("CLAUDE_CONFIG_DIR")
                .map_or_else(home, Ok)?
                .join(".claude.json"),
            Format::Json,
        ),
        (Host::ClaudeCode, Scope::Project) => (root.join(".mcp.json"), Format::Json),
        (Host::Cursor, Scope::User) => (home()?.join(".cursor/mcp.json"), Format::Json),
        (Host::Cursor, Scope::Project) => (root.join(".cursor/mcp.json"), Format::Json),
        (Host::GeminiCli, Scope::User) => (home()?.join(".gemini/settings.json"), Format::Json),
        (Host::GeminiCli, Scope::Project) => (root.join(".gemini/settings.json"), Format::Json),
        (Host::Codex, Scope::User) => (
            env_dir("CODEX_HOME")
                .map_or_else(|| home().map(|h| h.join(".codex")), Ok)?
                .join("config.toml"),
            Format::Toml,
        ),
        (Host::Codex, Scope::Project) => (root.join(".codex/config.toml"), Format::Toml),
        (Host::CopilotCli, Scope::User) => (
            env_dir("COPILOT_HOME")
                .map_or_else(|| home().map(|h| h.join(".copilot")), Ok)?
                .join("mcp-config.json"),
            Format::Json,
        ),
        (Host::CopilotCli, Scope::Project) => bail!(
            "Copilot CLI's servers of a repository (.mcp.json, .github/mcp.json) are not wrapped as copilot-cli; `palisade mcp wrap claude-code --scope project` wraps .mcp.json, which Copilot CLI reads too"
        ),
    })
}

/// The hosts whose MCP servers `wrap` rewrites.
const HOSTS: &[Host] = &[
    Host::ClaudeCode,
    Host::Codex,
    Host::GeminiCli,
    Host::Cursor,
    Host::CopilotCli,
];

/// What an entry is to the gateway.
#[derive(Debug, PartialEq, Eq)]
enum State {
    /// Already runs through `palisade mcp-proxy`.
    Wrapped,
    /// A command server.
    Command,
    /// A streamable-HTTP server.
    Url(String),
    /// Cannot be wrapped, and why.
    Other(String),
}

fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn is_wrapped(v: &Value) -> bool {
    let command = str_of(v, "command").unwrap_or("");
    let base = Path::new(command)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    (base == "palisade" || base == "palisade.exe")
        && v.get("args").and_then(|a| a.get(0)).and_then(Value::as_str) == Some("mcp-proxy")
}

fn state(host: Host, e: &Entry) -> State {
    let v = &e.value;
    if !v.is_object() {
        return State::Other("not an object".to_owned());
    }
    if is_wrapped(v) {
        return State::Wrapped;
    }
    if v.get("command").is_some() {
        if str_of(v, "command").is_none() || e.command.is_none() {
            return State::Other("`command` is not a string".to_owned());
        }
        if v.get("args").is_some()
            && (e.args.is_none()
                || !v["args"]
                    .as_array()
                    .is_some_and(|a| a.iter().all(Value::is_string)))
        {
            return State::Other("`args` is not a list of strings".to_owned());
        }
        if e.args.is_none() && matches!(e.insert, Insert::Never) {
            return State::Other(
                "its `command` is a dotted key; write the server as a table `[mcp_servers.NAME]`"
                    .to_owned(),
            );
        }
        return State::Command;
    }
    let url = match host {
        Host::ClaudeCode | Host::CopilotCli => match str_of(v, "type") {
            Some("sse") => {
                return State::Other(
                    "an SSE server: the gateway speaks streamable HTTP only".to_owned(),
                );
            }
            _ => str_of(v, "url"),
        },
        Host::GeminiCli => match (str_of(v, "httpUrl"), str_of(v, "url")) {
            (Some(u), _) => Some(u),
            (None, Some(_)) => {
                return State::Other(
                    "an SSE server (`url`): the gateway speaks streamable HTTP only".to_owned(),
                );
            }
            (None, None) => None,
        },
        Host::Codex if v.get("url").is_some() => return codex_url(e),
        _ => str_of(v, "url"),
    };
    match url {
        Some(u) => {
            let headers_ok = v.get("headers").is_none_or(|h| {
                h.as_object()
                    .is_some_and(|h| h.values().all(Value::is_string))
            });
            if headers_ok {
                State::Url(u.to_owned())
            } else {
                State::Other("`headers` is not an object of strings".to_owned())
            }
        }
        None => State::Other("neither `command` nor a URL".to_owned()),
    }
}

/// What a URL server of Codex's config is to the gateway: its fields
/// (`url`, `bearer_token_env_var`, `http_headers`, `env_http_headers`)
/// must be plain values in its own text, and it must not log in with
/// OAuth, which the proxy does not do.
fn codex_url(e: &Entry) -> State {
    let v = &e.value;
    let other = |why: &str| State::Other(why.to_owned());
    let Some(url) = str_of(v, "url") else {
        return other("`url` is not a string");
    };
    if let Some(k) = ["oauth", "oauth_resource", "scopes"]
        .into_iter()
        .find(|k| v.get(k).is_some())
    {
        return State::Other(format!(
            "it logs in with OAuth (`{k}`), which the proxy does not do"
        ));
    }
    if v.get("bearer_token").is_some() {
        return other(
            "an inline `bearer_token`, which Codex refuses; name its environment variable in `bearer_token_env_var`",
        );
    }
    if v.get("bearer_token_env_var")
        .is_some_and(|t| !t.as_str().is_some_and(is_var_name))
    {
        return other("`bearer_token_env_var` is not an environment variable's name");
    }
    for k in ["http_headers", "env_http_headers"] {
        let Some(h) = v.get(k) else { continue };
        let ok = h.as_object().is_some_and(|h| {
            h.values().all(|x| {
                x.as_str()
                    .is_some_and(|x| k == "http_headers" || is_var_name(x))
            })
        });
        if !ok {
            return State::Other(if k == "http_headers" {
                "`http_headers` is not a table of strings".to_owned()
            } else {
                "`env_http_headers` is not a table of environment variables' names".to_owned()
            });
        }
    }
    let inline = matches!(e.insert, Insert::TomlInline);
    if let Some((k, _)) = e.fields.iter().find(|(k, r)| {
        r.is_none()
            && (inline
                || [
                    "url",
                    "bearer_token_env_var",
                    "http_headers",
                    "env_http_headers",
                ]
                .contains(&k.as_str()))
    }) {
        return State::Other(format!(
            "its `{k}` is a dotted key or a table of its own; write it inline (`{k} = …`) to wrap it"
        ));
    }
    if e.body.is_none() {
        return other(
            "its form (dotted keys) is not wrapped; write the server as a table `[mcp_servers.NAME]`",
        );
    }
    State::Url(url.to_owned())
}

fn is_var_name(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A replacement of `range` of the original text.
type Edit = (Range<usize>, String);

/// The whole lines `r` is on, with the line end after it.
fn lines_of(text: &str, r: &Range<usize>) -> Range<usize> {
    let start = text[..r.start].rfind('\n').map_or(0, |i| i + 1);
    let end = text[r.end..]
        .find('\n')
        .map_or(text.len(), |i| r.end + i + 1);
    start..end
}

/// The edits that wrap a URL server of Codex: `palisade mcp-proxy
/// --upstream URL`, each header passed by `--header`, the token's and the
/// headers' environment variables forwarded by `env_vars`, a literal
/// header in `env`, and the entry as it was in `env.PALISADE_MCP_ENTRY`.
fn wrap_codex_url(text: &str, e: &Entry, url: &str, proxy: &[String], exe: &str) -> Vec<Edit> {
    let (Some(body), Some(old)) = (e.body.clone(), e.value.as_object()) else {
        return Vec::new();
    };
    let q = toml::quote;
    let mut args: Vec<String> = proxy.to_vec();
    args.extend(["--upstream".to_owned(), url.to_owned()]);
    let mut vars: Vec<String> = Vec::new();
    let mut env: Vec<(String, String)> = Vec::new();
    if let Some(tok) = str_of(&e.value, "bearer_token_env_var") {
        args.extend([
            "--header".to_owned(),
            format!("Authorization=Bearer ${{{tok}}}"),
        ]);
        vars.push(tok.to_owned());
    }
    if let Some(h) = old.get("env_http_headers").and_then(Value::as_object) {
        for (name, var) in h {
            let var = var.as_str().unwrap_or_default();
            args.extend(["--header".to_owned(), format!("{name}={var}")]);
            if !vars.iter().any(|v| v == var) {
                vars.push(var.to_owned());
            }
        }
    }
    if let Some(h) = old.get("http_headers").and_then(Value::as_object) {
        for (i, (name, value)) in h.iter().enumerate() {
            let var = format!("PALISADE_HEADER_{}", i + 1);
            args.extend(["--header".to_owned(), format!("{name}={var}")]);
            env.push((var, value.as_str().unwrap_or_default().to_owned()));
        }
    }
    env.push((ORIGINAL.to_owned(), text[body.clone()].to_owned()));
    let list = |items: &[String]| items.iter().map(|s| q(s)).collect::<Vec<_>>().join(", ");
    let env_text = env
        .iter()
        .map(|(k, v)| format!("{k} = {}", q(v)))
        .collect::<Vec<_>>()
        .join(", ");
    let mut new = vec![
        format!("command = {}", q(exe)),
        format!("args = [{}]", list(&args)),
    ];
    if !vars.is_empty() {
        new.push(format!("env_vars = [{}]", list(&vars)));
    }
    new.push(format!("env = {{ {env_text} }}"));
    let moved = [
        "url",
        "bearer_token_env_var",
        "http_headers",
        "env_http_headers",
    ];
    if matches!(e.insert, Insert::TomlInline) {
        for (k, r) in &e.fields {
            if let (false, Some(r)) = (moved.contains(&k.as_str()), r) {
                new.push(text[r.clone()].to_owned());
            }
        }
        return vec![(body, format!("{{ {} }}", new.join(", ")))];
    }
    let mut edits = Vec::new();
    for (k, r) in &e.fields {
        let (true, Some(r)) = (moved.contains(&k.as_str()), r) else {
            continue;
        };
        let line = lines_of(text, r);
        if k == "url" {
            let mut with = new.join("\n");
            if text[..line.end].ends_with('\n') {
                with.push('\n');
            }
            edits.push((line, with));
        } else {
            edits.push((line, String::new()));
        }
    }
    edits
}

/// The proxy's own arguments before the server's.
fn proxy_args(args: &WrapArgs, name: &str) -> anyhow::Result<Vec<String>> {
    let mut out = vec!["mcp-proxy".to_owned()];
    for (flag, path) in [("--policy", &args.policy), ("--config", &args.config)] {
        if let Some(p) = path {
            let p = std::path::absolute(p)
                .with_context(|| format!("cannot resolve {}", p.display()))?;
            out.push(flag.to_owned());
            out.push(p.to_string_lossy().into_owned());
        }
    }
    out.push("--name".to_owned());
    out.push(name.to_owned());
    Ok(out)
}

/// This binary, by absolute path, as hosts start it.
fn exe() -> anyhow::Result<String> {
    let exe = std::env::current_exe().context("cannot tell where this palisade binary is")?;
    Ok(exe.to_string_lossy().into_owned())
}

/// The edits that wrap a command server.
fn wrap_command(text: &str, e: &Entry, fmt: Format, proxy: &[String], exe: &str) -> Vec<Edit> {
    let Some(cmd) = e.command.clone() else {
        return Vec::new();
    };
    let mut elems: Vec<String> = proxy.iter().map(|s| fmt.quote(s)).collect();
    elems.push(fmt.quote("--"));
    elems.push(text[cmd.clone()].to_owned());
    let exe = fmt.quote(exe);
    let Some(a) = &e.args else {
        let list = elems.join(", ");
        return match e.insert {
            Insert::Json => vec![(cmd, format!("{exe}, \"args\": [{list}]"))],
            Insert::TomlInline => vec![(cmd, format!("{exe}, args = [{list}]"))],
            Insert::TomlLine => {
                let line = format!("args = [{list}]");
                let insert = match text[cmd.end..].find('\n') {
                    Some(i) => (cmd.end + i + 1, format!("{line}\n")),
                    None => (text.len(), format!("\n{line}")),
                };
                vec![(cmd, exe), (insert.0..insert.0, insert.1)]
            }
            Insert::Never => Vec::new(),
        };
    };
    let inner = a.span.start + 1;
    // The new elements go before the first one, parted as the list parts
    // its elements: one a line (at the first element's indentation) or
    // on one line. What stands between `[` and the first element (a
    // comment too) stays in front.
    let lead = match a.items.first() {
        Some(first) => &text[inner..first.start],
        None => &text[inner..a.span.end - 1],
    };
    let sep = match lead.rfind('\n') {
        Some(i) => {
            let indent: String = lead[i + 1..]
                .chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect();
            format!("\n{indent}")
        }
        None => " ".to_owned(),
    };
    let list = elems.join(&format!(",{sep}"));
    match a.items.first() {
        Some(first) => vec![
            (cmd, exe),
            (first.start..first.start, format!("{list},{sep}")),
        ],
        None => vec![(cmd, exe), (inner..inner, format!("{lead}{list}"))],
    }
}

/// The edit that wraps a URL server (JSON hosts).
fn wrap_url(
    host: Host,
    text: &str,
    e: &Entry,
    url: &str,
    proxy: &[String],
    exe: &str,
) -> anyhow::Result<Vec<Edit>> {
    let Some(old) = e.value.as_object() else {
        return Ok(Vec::new());
    };
    let mut args: Vec<Value> = proxy.iter().map(|s| Value::from(s.as_str())).collect();
    args.push("--upstream".into());
    args.push(url.into());
    let mut env = old
        .get("env")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(headers) = old.get("headers").and_then(Value::as_object) {
        for (i, (name, value)) in headers.iter().enumerate() {
            let var = format!("PALISADE_HEADER_{}", i + 1);
            args.push("--header".into());
            args.push(format!("{name}={var}").into());
            env.insert(var, value.clone());
        }
    }
    env.insert(ORIGINAL.to_owned(), text[e.span.clone()].into());
    let mut new = Map::new();
    new.insert("command".to_owned(), exe.into());
    new.insert("args".to_owned(), Value::Array(args));
    for (k, v) in old {
        if !["type", "url", "httpUrl", "headers", "env"].contains(&k.as_str()) {
            new.insert(k.clone(), v.clone());
        }
    }
    new.insert("env".to_owned(), Value::Object(env));
    if host == Host::CopilotCli {
        // Copilot CLI asks every entry for its type: now a command.
        new.insert("type".to_owned(), "local".into());
    }
    let line_start = text[..e.span.start].rfind('\n').map_or(0, |i| i + 1);
    let indent: String = text[line_start..e.span.start]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect();
    let pretty = serde_json::to_string_pretty(&Value::Object(new))?;
    Ok(vec![(
        e.span.clone(),
        pretty.replace('\n', &format!("\n{indent}")),
    )])
}

/// The edits that unwrap a wrapped entry; an error says why it cannot be.
fn unwrap_entry(text: &str, e: &Entry, fmt: Format) -> Result<Vec<Edit>, String> {
    if let Some(original) = e.value.get("env").and_then(|v| str_of(v, ORIGINAL)) {
        return match fmt {
            Format::Json => {
                if crate::install::jsonc::parse(original).is_err() {
                    return Err(format!("its `{ORIGINAL}` is not a JSON entry"));
                }
                Ok(vec![(e.span.clone(), original.to_owned())])
            }
            Format::Toml => {
                let (Some(body), inline) = (e.body.clone(), matches!(e.insert, Insert::TomlInline))
                else {
                    return Err("its form (dotted keys) is not the one wrap wrote".to_owned());
                };
                let probe = if inline {
                    format!("x = {original}\n")
                } else {
                    format!("[x]\n{original}")
                };
                if toml_edit::Document::parse(probe.as_str()).is_err() {
                    return Err(format!("its `{ORIGINAL}` is not a TOML entry"));
                }
                Ok(vec![(body, original.to_owned())])
            }
        };
    }
    let values: Vec<&str> = e.value["args"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let (Some(cmd), Some(a)) = (e.command.clone(), &e.args) else {
        return Err("it has no `args` list".to_owned());
    };
    let Some(k) = values.iter().position(|v| *v == "--") else {
        return Err("its arguments have no `--` before the server's command".to_owned());
    };
    if k + 1 >= a.items.len() || values.len() != a.items.len() {
        return Err("its arguments have no command after `--`".to_owned());
    }
    let command = text[a.items[k + 1].clone()].to_owned();
    let inner = a.span.start + 1;
    let Some(rest) = a.items.get(k + 2) else {
        // The server had no arguments: remove the `args` wrap added, when
        // it is still as written.
        let list = a.items[..=k + 1]
            .iter()
            .map(|r| &text[r.clone()])
            .collect::<Vec<_>>()
            .join(", ");
        let added = match e.insert {
            Insert::Json => Some(format!(", \"args\": [{list}]")),
            Insert::TomlInline => Some(format!(", args = [{list}]")),
            _ => None,
        };
        if let Some(added) = added
            && text[cmd.end..].starts_with(&added)
            && a.key_start > cmd.end
        {
            return Ok(vec![(cmd.start..cmd.end + added.len(), command)]);
        }
        if matches!(e.insert, Insert::TomlLine) {
            let line = format!("args = [{list}]");
            if let Some(i) = text[cmd.end..].find('\n') {
                let at = cmd.end + i + 1;
                if text[at..].starts_with(&format!("{line}\n")) {
                    return Ok(vec![
                        (cmd, command),
                        (at..at + line.len() + 1, String::new()),
                    ]);
                }
                // Added at the end of a file without a final newline.
                if text[at..] == line {
                    return Ok(vec![(cmd, command), (at - 1..text.len(), String::new())]);
                }
            }
        }
        return Ok(vec![
            (cmd, command),
            (inner..a.items[k + 1].end, String::new()),
        ]);
    };
    let lead = text[inner..a.items[0].start].to_owned();
    Ok(vec![(cmd, command), (inner..rest.start, lead)])
}

/// `text` with the edits made (ranges of the original, not overlapping).
fn apply(text: &str, edits: &mut [Edit]) -> String {
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = text.to_owned();
    for (range, with) in edits.iter() {
        out.replace_range(range.clone(), with);
    }
    out
}

/// The lines an entry's edits change, as `-`/`+` lines.
fn diff(text: &str, edits: &[Edit]) -> Vec<String> {
    let lo = edits.iter().map(|(r, _)| r.start).min().unwrap_or(0);
    let hi = edits.iter().map(|(r, _)| r.end).max().unwrap_or(0);
    let start = text[..lo].rfind('\n').map_or(0, |i| i + 1);
    let end = text[hi..].find('\n').map_or(text.len(), |i| hi + i);
    let chunk = &text[start..end];
    let mut shifted: Vec<Edit> = edits
        .iter()
        .map(|(r, s)| (r.start - start..r.end - start, s.clone()))
        .collect();
    let new = apply(chunk, &mut shifted);
    let line_no = text[..start].matches('\n').count() + 1;
    let mut out = vec![format!("  @@ line {line_no} @@")];
    out.extend(chunk.lines().map(|l| format!("  -{l}")));
    out.extend(new.lines().map(|l| format!("  +{l}")));
    out
}

fn host_of(name: &str) -> anyhow::Result<Host> {
    Host::from_name(name)
        .with_context(|| format!("unknown host `{name}`; expected one of {}", Host::names()))
}

fn scope_of(s: &str) -> anyhow::Result<Scope> {
    Ok(match s {
        "user" => Scope::User,
        "project" => Scope::Project,
        other => bail!("--scope: `{other}` is not a scope; expected user or project"),
    })
}

/// Reads a configuration file; `None` when it does not exist.
fn read(path: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(t) => Ok(Some(t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// The entries of a file; `projects`: those of Claude Code's projects in
/// `~/.claude.json` too.
fn entries(text: &str, fmt: Format, path: &Path, projects: bool) -> anyhow::Result<Vec<Entry>> {
    match fmt {
        Format::Json => json::entries(text, projects),
        Format::Toml => toml::entries(text),
    }
    .with_context(|| format!("{}: nothing written", path.display()))
}

/// Writes through a temporary file in the same directory, keeping the
/// file's permissions; a symbolic link is followed, not replaced.
fn write(path: &Path, text: &str) -> anyhow::Result<()> {
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let mut tmp = path.clone().into_os_string();
    tmp.push(".palisade-tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    if let Ok(meta) = std::fs::metadata(&path) {
        std::fs::set_permissions(&tmp, meta.permissions())
            .with_context(|| format!("cannot set the permissions of {}", tmp.display()))?;
    }
    std::fs::rename(&tmp, &path).with_context(|| format!("cannot replace {}", path.display()))
}

/// `palisade mcp wrap HOST` (`unwrap`: false) or `unwrap HOST`.
pub(crate) fn run(args: &WrapArgs, wrap: bool) -> anyhow::Result<u8> {
    let host = host_of(&args.host)?;
    let scope = scope_of(&args.scope)?;
    if !wrap && (args.policy.is_some() || args.config.is_some()) {
        bail!(
            "--policy and --config are options of wrap; unwrap restores the entries as they were"
        );
    }
    let root = std::env::current_dir().context("cannot read the current directory")?;
    let (path, fmt) = file(host, scope, &root)?;
    let projects = host == Host::ClaudeCode && scope == Scope::User;
    let only = match &args.project {
        Some(_) if !projects => bail!(
            "--project names a project of Claude Code's ~/.claude.json: it goes with claude-code and --scope user"
        ),
        Some(p) => Some(project_key(p)?),
        None => None,
    };
    let Some(text) = read(&path)? else {
        say!("{host}: {} does not exist; no MCP servers", path.display());
        return Ok(0);
    };
    let mut list = entries(&text, fmt, &path, projects)?;
    if let Some(only) = &only {
        list.retain(|e| e.project.as_deref() == Some(only.as_str()));
        if list.is_empty() {
            say!("{host}: {}", path.display());
            say!("  no MCP servers of the project {only}");
            return Ok(0);
        }
    }
    let exe = exe()?;
    let mut edits: Vec<Edit> = Vec::new();
    let mut lines = Vec::new();
    let verb = match (wrap, args.dry_run) {
        (true, false) => "wrapped",
        (true, true) => "would wrap",
        (false, false) => "unwrapped",
        (false, true) => "would unwrap",
    };
    for e in &list {
        let st = state(host, e);
        let mine = match (wrap, &st) {
            (true, State::Wrapped) => {
                lines.push(format!("  {}: already wrapped", label_of(e)));
                continue;
            }
            (true, State::Command) => {
                wrap_command(&text, e, fmt, &proxy_args(args, &e.name)?, &exe)
            }
            (true, State::Url(url)) if fmt == Format::Toml => {
                wrap_codex_url(&text, e, url, &proxy_args(args, &e.name)?, &exe)
            }
            (true, State::Url(url)) => {
                wrap_url(host, &text, e, url, &proxy_args(args, &e.name)?, &exe)?
            }
            (true, State::Other(why)) => {
                lines.push(format!("  {}: left as it is: {why}", label_of(e)));
                continue;
            }
            (false, State::Wrapped) => match unwrap_entry(&text, e, fmt) {
                Ok(edits) => edits,
                Err(why) => {
                    lines.push(format!("  {}: left as it is: {why}", label_of(e)));
                    continue;
                }
            },
            (false, _) => {
                lines.push(format!("  {}: not wrapped", label_of(e)));
                continue;
            }
        };
        if mine.is_empty() {
            continue;
        }
        lines.push(format!("  {}: {verb}", label_of(e)));
        if args.dry_run {
            lines.extend(diff(&text, &mine));
        }
        edits.extend(mine);
    }
    say!("{host}: {}", path.display());
    if list.is_empty() {
        say!("  no MCP servers");
    }
    for l in &lines {
        say!("{l}");
    }
    if edits.is_empty() {
        say!("  nothing to change");
        return Ok(0);
    }
    let new = apply(&text, &mut edits);
    // What was written must read back as the same kind of file.
    entries(&new, fmt, &path, projects).context("the edited file would not read back")?;
    if args.dry_run {
        say!("  dry run: nothing written");
    } else {
        write(&path, &new)?;
        if wrap {
            say!(
                "  restart {host} to use them; undo with: palisade mcp unwrap {host}{}{}",
                scope_flag(scope),
                only.as_ref()
                    .map(|p| format!(" --project {}", crate::install::quote(p)))
                    .unwrap_or_default()
            );
        }
    }
    Ok(0)
}

/// How an entry is named in what is printed: `NAME`, or `NAME (project
/// PATH)` for a server of one of Claude Code's projects.
fn label_of(e: &Entry) -> String {
    match &e.project {
        Some(p) => format!("{} (project {p})", e.name),
        None => e.name.clone(),
    }
}

/// The key Claude Code gives a project in `~/.claude.json`: its absolute
/// path, without a trailing slash.
fn project_key(p: &Path) -> anyhow::Result<String> {
    let abs = std::path::absolute(p).with_context(|| format!("cannot resolve {}", p.display()))?;
    let s = abs.to_string_lossy();
    let trimmed = s.trim_end_matches('/');
    Ok(if trimmed.is_empty() { "/" } else { trimmed }.to_owned())
}

fn scope_flag(scope: Scope) -> &'static str {
    match scope {
        Scope::User => "",
        Scope::Project => " --scope project",
    }
}

/// `palisade doctor`'s lines for a host's MCP servers, and how many are
/// not wrapped.
pub(crate) fn doctor_lines(host: Host, root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if !HOSTS.contains(&host) {
        return out;
    }
    for (scope, label) in [(Scope::User, "user"), (Scope::Project, "project")] {
        let Ok((path, fmt)) = file(host, scope, root) else {
            continue;
        };
        let text = match read(&path) {
            Ok(Some(t)) => t,
            Ok(None) => continue,
            Err(e) => {
                out.push(format!("  mcp servers ({label}): {e:#}"));
                continue;
            }
        };
        let projects = host == Host::ClaudeCode && scope == Scope::User;
        let list = match entries(&text, fmt, &path, projects) {
            Ok(l) => l,
            Err(_) => {
                out.push(format!(
                    "  mcp servers ({label}): {} cannot be read, so its servers are unknown",
                    path.display()
                ));
                continue;
            }
        };
        if list.is_empty() {
            continue;
        }
        let mut wrapped = Vec::new();
        let mut not = Vec::new();
        let mut cannot = Vec::new();
        for e in &list {
            match state(host, e) {
                State::Wrapped => wrapped.push(label_of(e)),
                State::Command | State::Url(_) => not.push(label_of(e)),
                State::Other(why) => cannot.push(format!("{} ({why})", label_of(e))),
            }
        }
        if !wrapped.is_empty() {
            out.push(format!(
                "  mcp servers ({label}: {}): wrapped: {}",
                path.display(),
                wrapped.join(", ")
            ));
        }
        if !not.is_empty() {
            out.push(format!(
                "  mcp servers ({label}: {}): warning: NOT wrapped: {}; their tool definitions are not judged (wrap them: palisade mcp wrap {host}{})",
                path.display(),
                not.join(", "),
                scope_flag(scope)
            ));
        }
        if !cannot.is_empty() {
            out.push(format!(
                "  mcp servers ({label}: {}): warning: NOT wrapped and not wrappable by palisade: {}",
                path.display(),
                cannot.join("; ")
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str, fmt: Format, host: Host) -> String {
        let proxy = vec!["mcp-proxy".to_owned(), "--name".to_owned(), "x".to_owned()];
        let list = entries(text, fmt, Path::new("f"), true).unwrap();
        let mut edits = Vec::new();
        for e in &list {
            match state(host, e) {
                State::Command => edits.extend(wrap_command(text, e, fmt, &proxy, "/bin/palisade")),
                State::Url(u) if fmt == Format::Toml => {
                    edits.extend(wrap_codex_url(text, e, &u, &proxy, "/bin/palisade"))
                }
                State::Url(u) => {
                    edits.extend(wrap_url(host, text, e, &u, &proxy, "/bin/palisade").unwrap())
                }
                _ => {}
            }
        }
        let wrapped = apply(text, &mut edits);
        let list = entries(&wrapped, fmt, Path::new("f"), true).unwrap();
        let mut edits = Vec::new();
        for e in &list {
            assert_eq!(state(host, e), State::Wrapped, "{wrapped}");
            edits.extend(unwrap_entry(&wrapped, e, fmt).unwrap());
        }
        let back = apply(&wrapped, &mut edits);
        assert_eq!(back, text, "wrapped:\n{wrapped}");
        wrapped
    }

    #[test]
    fn json_entries_of_every_shape_come_back_byte_for_byte() {
        for text in [
            r#"{"mcpServers":{"a":{"command":"npx","args":["-y","p"]}}}"#,
            "{\"mcpServers\": {\"a\": {\"command\": \"npx\", \"args\": [ \"-y\" ]}}}",
            "{\n  \"mcpServers\": {\n    \"a\": {\n      \"command\": \"npx\",\n      \"args\": [\n        \"-y\",\n        \"p\"\n      ]\n    }\n  }\n}\n",
            r#"{"mcpServers":{"a":{"command":"npx"}}}"#,
            r#"{"mcpServers":{"a":{"args":[],"command":"npx"}}}"#,
            r#"{"mcpServers":{"a":{"type":"http","url":"https://h/mcp","headers":{"A":"b"}}}}"#,
        ] {
            round_trip(text, Format::Json, Host::ClaudeCode);
        }
    }

    #[test]
    fn toml_entries_of_every_shape_come_back_byte_for_byte() {
        for text in [
            "[mcp_servers.a]\ncommand = 'npx' # c\nargs = [\"-y\", 'p'] # d\n",
            "[mcp_servers.a]\ncommand = \"npx\"\n",
            "[mcp_servers.a]\ncommand = \"npx\"",
            "[mcp_servers.a]\ncommand = \"npx\"\nargs = [\n  \"-y\",\n  \"p\",\n]\n[mcp_servers.a.env]\nX = \"1\"\n",
            "mcp_servers.a = { command = \"npx\" }\nmcp_servers.b = { command = \"b\", args = [ ] }\n",
            "[mcp_servers.r]\nurl = \"https://h/mcp\" # remote\nbearer_token_env_var = \"TOK\"\nenabled = true\n\n# next\n[other]\nx = 1\n",
            "[mcp_servers.r]\nenabled_tools = [\"a\"]\nurl = 'https://h/mcp'\nhttp_headers = { \"X-A\" = \"1\" }\nenv_http_headers = { \"X-B\" = \"B\" }\n[mcp_servers.r.tools.a]\napproval_mode = \"prompt\"\n",
            "[mcp_servers.r]\nurl = \"https://h/mcp\"",
            "mcp_servers.r = { url = \"https://h/mcp\", env_http_headers = { X = \"V\" }, enabled = false }\n",
        ] {
            round_trip(text, Format::Toml, Host::Codex);
        }
    }
}
