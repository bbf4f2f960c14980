//! The guard's config: the sections of the service config (SPEC §7) a
//! [`crate::Guard`] uses — the LLM service, MCP servers, budgets, the audit
//! log and `strict_requests`. The sections only a server reads (listen
//! address, tenants, keys, rate limits, circuit breaker, limits) belong to
//! `palisade-transport`'s `ServiceConfig`, which reads the same file.
//!
//! JSON or YAML (by file extension), every section optional, validated as a
//! whole: every problem is reported at once with the JSON pointer of the
//! offending value, and an invalid config is never half-used.
//!
//! ```
//! use palisade_checks::GuardConfig;
//!
//! let config = GuardConfig::from_yaml_str(
//!     "llm: { base_url: 'http://127.0.0.1:9000/v1', model: gpt-4o-mini }\n\
//!      mcp_servers:\n  guard: { command: python3, args: [guard.py] }\n\
//!      budgets: { request_ms: 2000 }\n",
//! )?;
//! assert_eq!(config.budgets.request_ms, 2000);
//! assert_eq!(config.budgets.call_ms, 10_000);
//! assert!(config.mcp_servers["guard"].command.is_some());
//! # Ok::<(), palisade_checks::ConfigErrors>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::audit::Durability;

/// What a [`crate::Guard`] is configured with: the guard's sections of the
/// service config.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct GuardConfig {
    /// The OpenAI-compatible service behind `llm_judge` and `moderation`.
    pub llm: Option<LlmConfig>,
    /// MCP guardrail servers by name (`mcp` checks name one in `server`).
    #[serde(default)]
    pub mcp_servers: BTreeMap<String, McpServerConfig>,
    /// Time and size budgets of async checks.
    #[serde(default)]
    pub budgets: Budgets,
    /// The audit log.
    pub audit: Option<AuditConfig>,
    /// Refuse requests with members protocol v1 does not define (by
    /// default they are allowed and reported as `request.unknown_field`
    /// warnings).
    #[serde(default)]
    pub strict_requests: bool,
}

impl GuardConfig {
    /// The config's top-level sections, in the order they are documented.
    pub const SECTIONS: &'static [&'static str] =
        &["llm", "mcp_servers", "budgets", "audit", "strict_requests"];
}

/// An OpenAI-compatible chat-completions service.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct LlmConfig {
    /// Base URL; requests go to `{base_url}/chat/completions`.
    pub base_url: String,
    /// Model name sent with every request.
    pub model: String,
    /// Environment variable holding the API key (sent as a bearer token).
    pub api_key_env: Option<String>,
    /// Per-call timeout in milliseconds (default: `budgets.call_ms`).
    pub timeout_ms: Option<u64>,
}

/// One MCP server: a command started once over stdio, or a streamable-HTTP URL.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct McpServerConfig {
    /// The program to start (stdio transport).
    pub command: Option<String>,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Extra environment variables for it.
    #[serde(default)]
    pub env: BTreeMap<String, String>,
    /// The server's streamable-HTTP endpoint.
    pub url: Option<String>,
}

/// Time and size budgets of async checks (SPEC §5).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
#[non_exhaustive]
pub struct Budgets {
    /// All async checks of one request share this many milliseconds
    /// (lowered by the request's `options.timeoutMs`).
    pub request_ms: u64,
    /// Each call's own timeout, in milliseconds.
    pub call_ms: u64,
    /// At most this many calls per check type and request; the rest are
    /// skipped with a `fail_open` warning.
    pub max_calls_per_type: usize,
    /// Bytes of content sent to the LLM judge.
    pub judge_content_bytes: usize,
    /// Bytes of content sent to moderation.
    pub moderation_content_bytes: usize,
    /// Bytes of content sent to MCP guardrails.
    pub mcp_content_bytes: usize,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets {
            request_ms: 10_000,
            call_ms: 10_000,
            max_calls_per_type: 4,
            judge_content_bytes: 2_000,
            moderation_content_bytes: 4_000,
            mcp_content_bytes: 2_000,
        }
    }
}

/// The audit log.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct AuditConfig {
    /// The JSON-lines file.
    pub path: PathBuf,
    /// `fsync` (default) or `buffered`.
    #[serde(default)]
    pub durability: Durability,
}

/// One problem of a config: where it is (a JSON pointer, `""` for the
/// document) and what is wrong and allowed. The same shape as a policy's
/// and a request's problems.
pub type ConfigError = palisade_protocol::Problem;

/// Every problem of a config.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct ConfigErrors {
    /// The problems, in document order.
    pub errors: Vec<ConfigError>,
}

impl ConfigErrors {
    /// One problem.
    pub fn one(pointer: impl Into<String>, message: impl Into<String>) -> Self {
        ConfigErrors {
            errors: vec![ConfigError {
                pointer: pointer.into(),
                message: message.into(),
            }],
        }
    }
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl GuardConfig {
    /// Reads a config file ([`read_path`]); relative paths in it (the audit
    /// log, MCP server commands given as paths) are resolved against the
    /// file's directory. A service config file's server sections are not
    /// the guard's: read such a file with `palisade-transport`'s
    /// `ServiceConfig`.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Self, ConfigErrors> {
        let path = path.as_ref();
        let mut config = Self::from_value(read_path(path)?)?;
        if let Some(dir) = path.parent() {
            config.resolve_paths(dir);
        }
        Ok(config)
    }

    /// Parses and validates a JSON config.
    pub fn from_json_str(text: &str) -> Result<Self, ConfigErrors> {
        Self::from_value(parse_json(text)?)
    }

    /// Parses and validates a YAML config.
    pub fn from_yaml_str(text: &str) -> Result<Self, ConfigErrors> {
        Self::from_value(parse_yaml(text)?)
    }

    /// Reads and validates the guard's sections from a parsed document.
    pub fn from_value(value: serde_json::Value) -> Result<Self, ConfigErrors> {
        let config: GuardConfig = section(value)?;
        let errors = config.problems();
        if errors.is_empty() {
            Ok(config)
        } else {
            Err(ConfigErrors { errors })
        }
    }

    /// Makes relative file paths relative to `dir`: the audit log, and an
    /// MCP server command given as a path (`./guard`, `bin/guard`; a bare
    /// name is looked up on `PATH`).
    pub fn resolve_paths(&mut self, dir: &Path) {
        if let Some(a) = &mut self.audit
            && a.path.is_relative()
        {
            a.path = dir.join(&a.path);
        }
        for server in self.mcp_servers.values_mut() {
            if let Some(c) = &mut server.command
                && c.contains('/')
                && Path::new(c.as_str()).is_relative()
            {
                *c = dir.join(c.as_str()).to_string_lossy().into_owned();
            }
        }
    }

    /// What the types cannot say: every problem of the guard's sections,
    /// with its pointer.
    pub fn problems(&self) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        let mut err = |pointer: String, message: String| {
            errors.push(ConfigError { pointer, message });
        };
        if let Some(llm) = &self.llm {
            if !is_http_url(&llm.base_url) {
                err(
                    "/llm/base_url".into(),
                    format!("`{}` is not an http:// or https:// URL", llm.base_url),
                );
            }
            if llm.model.trim().is_empty() {
                err("/llm/model".into(), "`model` is empty".into());
            }
            if llm.timeout_ms == Some(0) {
                err(
                    "/llm/timeout_ms".into(),
                    "`timeout_ms` must be at least 1".into(),
                );
            }
        }
        for (name, server) in &self.mcp_servers {
            let ptr = format!("/mcp_servers/{}", escape(name));
            match (&server.command, &server.url) {
                (Some(_), Some(_)) => err(
                    ptr,
                    "give either `command` (stdio) or `url` (streamable HTTP), not both".into(),
                ),
                (None, None) => err(
                    ptr,
                    "missing `command` (a program to start, spoken to over stdio) or `url` (a streamable-HTTP endpoint)".into(),
                ),
                (Some(c), None) if c.trim().is_empty() => {
                    err(format!("{ptr}/command"), "`command` is empty".into())
                }
                (None, Some(u)) if !is_http_url(u) => err(
                    format!("{ptr}/url"),
                    format!("`{u}` is not an http:// or https:// URL"),
                ),
                _ => {}
            }
        }
        let b = &self.budgets;
        for (key, value) in [
            ("request_ms", b.request_ms as usize),
            ("call_ms", b.call_ms as usize),
            ("max_calls_per_type", b.max_calls_per_type),
            ("judge_content_bytes", b.judge_content_bytes),
            ("moderation_content_bytes", b.moderation_content_bytes),
            ("mcp_content_bytes", b.mcp_content_bytes),
        ] {
            if value == 0 {
                err(
                    format!("/budgets/{key}"),
                    format!("`{key}` must be at least 1"),
                );
            }
        }
        errors
    }
}

/// A config document: YAML for `.yaml`/`.yml`, JSON for `.json`, as a JSON
/// value (an empty YAML document is an empty mapping).
pub fn read_path(path: &Path) -> Result<serde_json::Value, ConfigErrors> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        ConfigErrors::one(
            "",
            format!("cannot read config file `{}`: {e}", path.display()),
        )
    })?;
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("yaml" | "yml") => parse_yaml(&text),
        Some("json") => parse_json(&text),
        _ => Err(ConfigErrors::one(
            "",
            format!(
                "cannot tell the format of `{}`: name it `.json`, `.yaml` or `.yml`",
                path.display()
            ),
        )),
    }
}

/// A JSON config document.
pub fn parse_json(text: &str) -> Result<serde_json::Value, ConfigErrors> {
    let de = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| shape_error(&e))
}

/// A YAML config document (empty: an empty mapping).
pub fn parse_yaml(text: &str) -> Result<serde_json::Value, ConfigErrors> {
    if text.trim().is_empty() {
        return Ok(serde_json::Value::Object(serde_json::Map::new()));
    }
    let de = serde_yaml_ng::Deserializer::from_str(text);
    let value: serde_json::Value =
        serde_path_to_error::deserialize(de).map_err(|e| shape_error(&e))?;
    Ok(match value {
        // A document of only comments.
        serde_json::Value::Null => serde_json::Value::Object(serde_json::Map::new()),
        other => other,
    })
}

/// Reads a config section (or a whole config) into `T`; a value of the
/// wrong shape is an error at its JSON pointer, in the config's words.
pub fn section<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, ConfigErrors> {
    serde_path_to_error::deserialize(value).map_err(|e| shape_error(&e))
}

fn is_http_url(s: &str) -> bool {
    let rest = s
        .strip_prefix("http://")
        .or_else(|| s.strip_prefix("https://"));
    rest.is_some_and(|r| !r.is_empty() && !r.starts_with('/'))
}

/// A JSON pointer token.
fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// A deserialization error as a config error at its pointer.
fn shape_error<E: fmt::Display>(e: &serde_path_to_error::Error<E>) -> ConfigErrors {
    let mut pointer = String::new();
    for segment in e.path().iter() {
        use serde_path_to_error::Segment;
        match segment {
            Segment::Seq { index } => pointer.push_str(&format!("/{index}")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                pointer.push('/');
                pointer.push_str(&escape(key));
            }
            Segment::Unknown => {}
        }
    }
    let mut message = e.inner().to_string();
    // serde_yaml_ng starts with the path it already gave.
    if let Some((head, rest)) = message.split_once(": ")
        && !head.contains(' ')
        && head.contains(['.', '['])
    {
        message = rest.to_owned();
    }
    // Speak of the config, not of the types that read it.
    for (from, to) in [
        ("struct GuardConfig", "a mapping of config sections"),
        ("struct ServiceConfig", "a mapping of config sections"),
        ("struct ServerSections", "a mapping of config sections"),
        ("u64", "a whole number"),
        ("u32", "a whole number"),
        ("usize", "a whole number"),
        ("f64", "a number"),
    ] {
        message = message.replace(from, to);
    }
    if let Some(i) = message.find("expected struct ") {
        let start = i + "expected ".len();
        let end = message[i + 16..]
            .find(|c: char| !c.is_alphanumeric())
            .map_or(message.len(), |j| i + 16 + j);
        message.replace_range(start..end, "a mapping");
    }
    ConfigErrors::one(
        pointer,
        palisade_protocol::suggest::with_suggestion(&message),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guard_sections_load_and_are_checked() {
        let c = GuardConfig::from_yaml_str(
            "llm: { base_url: 'http://127.0.0.1:9000/v1', model: m }\naudit: { path: a.jsonl }\n",
        )
        .unwrap();
        assert_eq!(c.budgets.mcp_content_bytes, 2_000);
        assert_eq!(c.audit.unwrap().durability, Durability::Fsync);
        let e = GuardConfig::from_yaml_str("llm: { base_url: 'ftp://x', model: m }\n").unwrap_err();
        assert_eq!(e.errors[0].pointer, "/llm/base_url");
        // A server's section is not the guard's.
        let e = GuardConfig::from_yaml_str("listen: '127.0.0.1:1'\n").unwrap_err();
        assert!(e.to_string().contains("unknown field `listen`"), "{e}");
        assert!(GuardConfig::from_yaml_str("# nothing\n").is_ok());
    }
}
