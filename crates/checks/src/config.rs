//! The service config (SPEC §7): the LLM service, MCP servers, budgets and
//! audit log a [`crate::Guard`] uses, and the sections the HTTP service
//! reads (tenants, keys, rate limits, circuit breaker, limits).
//!
//! JSON or YAML (by file extension), every section optional, validated as a
//! whole: every problem is reported at once with the JSON pointer of the
//! offending value, and an invalid config is never half-used.
//!
//! ```
//! use palisade_checks::ServiceConfig;
//!
//! let config = ServiceConfig::from_yaml_str(
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

/// The whole service config.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct ServiceConfig {
    /// Address the HTTP service listens on (default `127.0.0.1:8700`).
    pub listen: Option<String>,
    /// The default tenant's policy file (else the embedded default policy).
    pub policy: Option<PathBuf>,
    /// Tenants by name, each with its own policy.
    #[serde(default)]
    pub tenants: BTreeMap<String, TenantConfig>,
    /// API keys of the HTTP service.
    #[serde(default)]
    pub keys: Vec<KeyConfig>,
    /// The OpenAI-compatible service behind `llm_judge` and `moderation`.
    pub llm: Option<LlmConfig>,
    /// MCP guardrail servers by name (`mcp` checks name one in `server`).
    #[serde(default)]
    pub mcp_servers: BTreeMap<String, McpServerConfig>,
    /// Time and size budgets of async checks.
    #[serde(default)]
    pub budgets: Budgets,
    /// Per-agent request limits of the HTTP service.
    pub rate_limits: Option<RateLimits>,
    /// The circuit breaker of the HTTP service.
    pub circuit_breaker: Option<CircuitBreaker>,
    /// The audit log.
    pub audit: Option<AuditConfig>,
    /// Request limits of the HTTP service.
    #[serde(default)]
    pub limits: Limits,
    /// Refuse requests with members protocol v1 does not define (by
    /// default they are allowed and reported as `request.unknown_field`
    /// warnings).
    #[serde(default)]
    pub strict_requests: bool,
}

/// One tenant.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct TenantConfig {
    /// The tenant's policy file.
    pub policy: PathBuf,
}

/// One API key: stored as the SHA-256 of the key, or read from an
/// environment variable; bound to one tenant and its scopes.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct KeyConfig {
    /// A name for logs and audit.
    pub id: String,
    /// Lower-case hex SHA-256 of the key.
    pub sha256: Option<String>,
    /// The environment variable holding the key.
    pub env: Option<String>,
    /// The tenant the key belongs to.
    pub tenant: String,
    /// `guardrails:check` and/or `guardrails:admin`.
    pub scopes: Vec<String>,
}

/// The scopes a key can have.
pub const SCOPES: &[&str] = &["guardrails:check", "guardrails:admin"];

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

/// Per-agent request limits.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct RateLimits {
    /// Requests per (tenant, agent).
    pub per_agent: RateLimit,
}

/// A token bucket: `requests` per `per_secs`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct RateLimit {
    /// Bucket size.
    pub requests: u32,
    /// Refill period in seconds.
    pub per_secs: u64,
}

/// The circuit breaker (per tenant).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct CircuitBreaker {
    /// Rolling window in seconds.
    pub window_secs: u64,
    /// Fewest decisions in the window before the breaker can open.
    pub min_requests: u32,
    /// Share of blocked decisions (0 to 1) above which it opens.
    pub threshold: f64,
    /// Seconds it stays open before letting probes through.
    pub cooldown_secs: u64,
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

/// Request limits of the HTTP service.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
#[non_exhaustive]
pub struct Limits {
    /// Largest request body; bigger ones get 413.
    pub max_body_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body_bytes: 1024 * 1024,
        }
    }
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
    fn one(pointer: impl Into<String>, message: impl Into<String>) -> Self {
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

impl ServiceConfig {
    /// Reads a config file: YAML for `.yaml`/`.yml`, JSON for `.json`.
    /// Relative paths in it (policies, audit log) are resolved against the
    /// file's directory.
    pub fn from_path(path: impl AsRef<Path>) -> Result<Self, ConfigErrors> {
        let path = path.as_ref();
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
        let mut config = match ext.as_deref() {
            Some("yaml" | "yml") => Self::from_yaml_str(&text)?,
            Some("json") => Self::from_json_str(&text)?,
            _ => {
                return Err(ConfigErrors::one(
                    "",
                    format!(
                        "cannot tell the format of `{}`: name it `.json`, `.yaml` or `.yml`",
                        path.display()
                    ),
                ));
            }
        };
        if let Some(dir) = path.parent() {
            config.resolve_paths(dir);
        }
        Ok(config)
    }

    /// Parses and validates a JSON config.
    pub fn from_json_str(text: &str) -> Result<Self, ConfigErrors> {
        let de = &mut serde_json::Deserializer::from_str(text);
        let config: ServiceConfig =
            serde_path_to_error::deserialize(de).map_err(|e| shape_error(&e))?;
        config.validated()
    }

    /// Parses and validates a YAML config.
    pub fn from_yaml_str(text: &str) -> Result<Self, ConfigErrors> {
        let de = serde_yaml_ng::Deserializer::from_str(text);
        let config: ServiceConfig = match serde_path_to_error::deserialize(de) {
            Ok(c) => c,
            // An empty document is an empty config.
            Err(_) if text.trim().is_empty() => ServiceConfig::default(),
            Err(e) => return Err(shape_error(&e)),
        };
        config.validated()
    }

    /// Makes relative file paths relative to `dir`.
    fn resolve_paths(&mut self, dir: &Path) {
        let fix = |p: &mut PathBuf| {
            if p.is_relative() {
                *p = dir.join(&*p);
            }
        };
        if let Some(p) = &mut self.policy {
            fix(p);
        }
        for t in self.tenants.values_mut() {
            fix(&mut t.policy);
        }
        if let Some(a) = &mut self.audit {
            fix(&mut a.path);
        }
        // A command given as a path (`./guard`, `bin/guard`) is relative to
        // the config too; a bare name is looked up on `PATH`.
        for server in self.mcp_servers.values_mut() {
            if let Some(c) = &mut server.command
                && c.contains('/')
            {
                let mut p = PathBuf::from(&*c);
                fix(&mut p);
                *c = p.to_string_lossy().into_owned();
            }
        }
    }

    /// Checks what the types cannot say, collecting every problem.
    fn validated(self) -> Result<Self, ConfigErrors> {
        let mut errors = Vec::new();
        let mut err = |pointer: String, message: String| {
            errors.push(ConfigError { pointer, message });
        };
        if let Some(listen) = &self.listen
            && listen.parse::<std::net::SocketAddr>().is_err()
        {
            err(
                "/listen".into(),
                format!("`{listen}` is not an address and port such as `127.0.0.1:8700`"),
            );
        }
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
        for (i, key) in self.keys.iter().enumerate() {
            let ptr = format!("/keys/{i}");
            match (&key.sha256, &key.env) {
                (Some(_), Some(_)) => err(
                    ptr.clone(),
                    "give either `sha256` or `env`, not both".into(),
                ),
                (None, None) => err(
                    ptr.clone(),
                    "missing `sha256` (hex SHA-256 of the key) or `env` (a variable holding it)"
                        .into(),
                ),
                (Some(h), None) if h.len() != 64 || !h.bytes().all(|c| c.is_ascii_hexdigit()) => {
                    err(
                        format!("{ptr}/sha256"),
                        "`sha256` must be 64 hex digits".into(),
                    )
                }
                _ => {}
            }
            if !self.tenants.contains_key(&key.tenant) && key.tenant != "default" {
                err(
                    format!("{ptr}/tenant"),
                    format!(
                        "unknown tenant `{}`; tenants: `default`{}",
                        key.tenant,
                        self.tenants
                            .keys()
                            .map(|t| format!(", `{t}`"))
                            .collect::<String>()
                    ),
                );
            }
            if key.scopes.is_empty() {
                err(
                    format!("{ptr}/scopes"),
                    "`scopes` is empty; give `guardrails:check` and/or `guardrails:admin`".into(),
                );
            }
            for (j, s) in key.scopes.iter().enumerate() {
                if !SCOPES.contains(&s.as_str()) {
                    err(
                        format!("{ptr}/scopes/{j}"),
                        format!(
                            "unknown scope `{s}`; expected `guardrails:check` or `guardrails:admin`"
                        ),
                    );
                }
            }
        }
        if let Some(r) = &self.rate_limits {
            if r.per_agent.requests == 0 {
                err(
                    "/rate_limits/per_agent/requests".into(),
                    "`requests` must be at least 1".into(),
                );
            }
            if r.per_agent.per_secs == 0 {
                err(
                    "/rate_limits/per_agent/per_secs".into(),
                    "`per_secs` must be at least 1".into(),
                );
            }
        }
        if let Some(c) = &self.circuit_breaker {
            if !(c.threshold > 0.0 && c.threshold <= 1.0) {
                err(
                    "/circuit_breaker/threshold".into(),
                    "`threshold` is a share of blocked decisions: more than 0, at most 1".into(),
                );
            }
            if c.window_secs == 0 {
                err(
                    "/circuit_breaker/window_secs".into(),
                    "`window_secs` must be at least 1".into(),
                );
            }
        }
        if self.limits.max_body_bytes == 0 {
            err(
                "/limits/max_body_bytes".into(),
                "`max_body_bytes` must be at least 1".into(),
            );
        }
        if errors.is_empty() {
            Ok(self)
        } else {
            Err(ConfigErrors { errors })
        }
    }
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
        ("struct ServiceConfig", "a mapping of config sections"),
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
    ConfigErrors::one(pointer, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors(yaml: &str) -> Vec<(String, String)> {
        ServiceConfig::from_yaml_str(yaml)
            .unwrap_err()
            .errors
            .into_iter()
            .map(|e| (e.pointer, e.message))
            .collect()
    }

    #[test]
    fn the_spec_example_loads() {
        let yaml = r#"
listen: "127.0.0.1:8700"
policy: "policy.yaml"
tenants:
  acme: { policy: "policies/acme.yaml" }
keys:
  - { id: "ci",  sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", tenant: "acme", scopes: ["guardrails:check"] }
  - { id: "ops", env: "PALISADE_OPS_KEY",   tenant: "acme", scopes: ["guardrails:check", "guardrails:admin"] }
llm: { base_url: "http://127.0.0.1:9000/v1", model: "gpt-4o-mini", api_key_env: "OPENAI_API_KEY", timeout_ms: 10000 }
mcp_servers:
  guard:  { command: "python3", args: ["guard.py"] }
  remote: { url: "http://127.0.0.1:8000/mcp" }
budgets: { request_ms: 10000, call_ms: 10000, max_calls_per_type: 4, judge_content_bytes: 2000, moderation_content_bytes: 4000 }
rate_limits: { per_agent: { requests: 100, per_secs: 60 } }
circuit_breaker: { window_secs: 60, min_requests: 20, threshold: 0.5, cooldown_secs: 30 }
audit: { path: "audit.jsonl", durability: "fsync" }
limits: { max_body_bytes: 1048576 }
"#;
        let c = ServiceConfig::from_yaml_str(yaml).unwrap();
        assert_eq!(c.keys.len(), 2);
        assert_eq!(c.mcp_servers.len(), 2);
        assert_eq!(c.audit.unwrap().durability, Durability::Fsync);
        assert_eq!(c.budgets.mcp_content_bytes, 2_000);
    }

    #[test]
    fn every_problem_is_reported_with_its_pointer() {
        let e = errors(
            "llm: { base_url: 'ftp://x', model: '' }\n\
             mcp_servers:\n  a: {}\n  b: { command: x, url: 'http://h/mcp' }\n  c/d: { url: nope }\n\
             budgets: { call_ms: 0 }\n\
             keys:\n  - { id: k, sha256: abc, tenant: nobody, scopes: [guardrails:write] }\n",
        );
        let pointers: Vec<&str> = e.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(
            pointers,
            [
                "/llm/base_url",
                "/llm/model",
                "/mcp_servers/a",
                "/mcp_servers/b",
                "/mcp_servers/c~1d/url",
                "/budgets/call_ms",
                "/keys/0/sha256",
                "/keys/0/tenant",
                "/keys/0/scopes/0",
            ],
            "{e:#?}"
        );
    }

    #[test]
    fn unknown_fields_and_wrong_types_name_their_place() {
        let e = errors("budgets: { request_ms: 10, bogus: 1 }\n");
        assert_eq!(e[0].0, "/budgets/bogus");
        assert!(e[0].1.contains("unknown field `bogus`"), "{e:?}");
        let e = errors("llm: { base_url: 'http://x', model: m, timeout_ms: soon }\n");
        assert_eq!(e[0].0, "/llm/timeout_ms");
        let e =
            ServiceConfig::from_json_str(r#"{"audit": {"path": "a", "durability": "sometimes"}}"#)
                .unwrap_err();
        assert_eq!(e.errors[0].pointer, "/audit/durability");
    }

    #[test]
    fn relative_paths_follow_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("svc.yaml");
        std::fs::write(&file, "policy: p.yaml\naudit: { path: logs/a.jsonl }\n").unwrap();
        let c = ServiceConfig::from_path(&file).unwrap();
        assert_eq!(c.policy.unwrap(), dir.path().join("p.yaml"));
        assert_eq!(c.audit.unwrap().path, dir.path().join("logs/a.jsonl"));
        let e = ServiceConfig::from_path(dir.path().join("svc.toml")).unwrap_err();
        assert!(e.to_string().contains("cannot read config file"), "{e}");
    }
}
