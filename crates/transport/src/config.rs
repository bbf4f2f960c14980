//! The service config (SPEC §7): one file (YAML or JSON) holding the
//! server's sections — the listen address, the default policy, tenants, API
//! keys, rate limits, the circuit breaker and request limits — and the
//! guard's ([`palisade_checks::GuardConfig`]: the LLM service, MCP servers,
//! budgets, the audit log, `strict_requests`).
//!
//! Every section is optional and the whole file is validated at once: every
//! problem is reported with the JSON pointer of the offending value, and an
//! invalid config is never half-used.
//!
//! ```
//! use palisade_transport::ServiceConfig;
//!
//! let config = ServiceConfig::from_yaml_str(
//!     "listen: '127.0.0.1:8700'\n\
//!      rate_limits: { per_agent: { requests: 100, per_secs: 60 } }\n\
//!      budgets: { request_ms: 2000 }\n",
//! )?;
//! assert_eq!(config.rate_limits.unwrap().per_agent.requests, 100);
//! assert_eq!(config.guard.budgets.request_ms, 2000);
//! # Ok::<(), palisade_checks::ConfigErrors>(())
//! ```

mod gateway;

pub use gateway::{GatewayConfig, GatewayServer, PoisonedTools, expand};

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use palisade_checks::config::{parse_json, parse_yaml, read_path, section};
use palisade_checks::{ConfigError, ConfigErrors, GuardConfig};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The whole service config: the server's sections and the guard's.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ServiceConfig {
    /// Address the HTTP service listens on (default `127.0.0.1:8700`).
    pub listen: Option<String>,
    /// The default tenant's policy file (else the embedded default policy).
    pub policy: Option<PathBuf>,
    /// Tenants by name, each with its own policy.
    pub tenants: BTreeMap<String, TenantConfig>,
    /// API keys of the HTTP service.
    pub keys: Vec<KeyConfig>,
    /// Per-agent request limits of the HTTP service.
    pub rate_limits: Option<RateLimits>,
    /// The circuit breaker of the HTTP service.
    pub circuit_breaker: Option<CircuitBreaker>,
    /// State shared by replicas (absent: in memory).
    pub state: Option<StateConfig>,
    /// OpenTelemetry traces (absent: as the `OTEL_*` environment variables
    /// say; without them, none).
    pub telemetry: Option<Telemetry>,
    /// Request limits of the HTTP service.
    pub limits: Limits,
    /// Whether the HTTP service serves the playground page at `/`
    /// (default `true`).
    pub playground: bool,
    /// The guard's sections: the LLM service, MCP servers, budgets, the
    /// audit log, `strict_requests`.
    pub guard: GuardConfig,
    /// The MCP gateway's upstream servers (SPEC §14).
    pub gateway: GatewayConfig,
    /// Approvals of asks (SPEC §15).
    pub approvals: ApprovalsConfig,
}

/// `approvals`: how long an approval lasts and where it is kept.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
#[non_exhaustive]
pub struct ApprovalsConfig {
    /// Seconds an approval can be answered and used after its ask
    /// (default 900).
    pub ttl_secs: u64,
    /// The file approvals are kept in (fsync'd), so that they survive a
    /// restart. Absent: next to the audit log (`audit.jsonl` →
    /// `audit.approvals.jsonl`); without an audit log, in memory only.
    /// With `state.redis` approvals are kept in Redis instead, shared by
    /// the replicas.
    pub path: Option<PathBuf>,
    /// The service's address as those who answer approvals reach it
    /// (`https://guard.example.com`): decisions then carry absolute
    /// approval URLs, and hooks' messages name it. Absent: the path
    /// (`/v1/approvals/ID`).
    pub base_url: Option<String>,
}

impl Default for ApprovalsConfig {
    fn default() -> Self {
        ApprovalsConfig {
            ttl_secs: 900,
            path: None,
            base_url: None,
        }
    }
}

impl ApprovalsConfig {
    /// The file approvals are kept in: `path`, else next to the audit log
    /// `audit` (its name's stem, then `.approvals.jsonl`).
    pub fn file(&self, audit: Option<&Path>) -> Option<PathBuf> {
        if let Some(p) = &self.path {
            return Some(p.clone());
        }
        let audit = audit?;
        let stem = audit.file_stem()?.to_string_lossy();
        Some(audit.with_file_name(format!("{stem}.approvals.jsonl")))
    }
}

impl Default for ServiceConfig {
    /// No config file: the embedded default policy for the default tenant,
    /// no keys, no limits beyond the body size, the playground on.
    fn default() -> Self {
        ServiceConfig {
            listen: None,
            policy: None,
            tenants: BTreeMap::new(),
            keys: Vec::new(),
            rate_limits: None,
            circuit_breaker: None,
            state: None,
            telemetry: None,
            limits: Limits::default(),
            playground: true,
            guard: GuardConfig::default(),
            gateway: GatewayConfig::default(),
            approvals: ApprovalsConfig::default(),
        }
    }
}

/// The server's sections, as the file spells them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ServerSections {
    listen: Option<String>,
    policy: Option<PathBuf>,
    #[serde(default)]
    tenants: BTreeMap<String, TenantConfig>,
    #[serde(default)]
    keys: Vec<KeyConfig>,
    rate_limits: Option<RateLimits>,
    circuit_breaker: Option<CircuitBreaker>,
    state: Option<StateConfig>,
    telemetry: Option<Telemetry>,
    #[serde(default)]
    limits: Limits,
    #[serde(default = "yes")]
    playground: bool,
    #[serde(default)]
    gateway: GatewayConfig,
    #[serde(default)]
    approvals: ApprovalsConfig,
}

fn yes() -> bool {
    true
}

/// Every top-level section, in the order the config is documented.
const SECTIONS: &[&str] = &[
    "listen",
    "policy",
    "tenants",
    "keys",
    "llm",
    "mcp_servers",
    "budgets",
    "rate_limits",
    "circuit_breaker",
    "state",
    "telemetry",
    "audit",
    "limits",
    "playground",
    "strict_requests",
    "gateway",
    "approvals",
];

/// `telemetry`: where the service sends its OpenTelemetry traces.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Telemetry {
    /// The OTLP/HTTP collector's base URL (`http://collector:4318`): spans
    /// are sent to its `/v1/traces`. Absent: `OTEL_EXPORTER_OTLP_ENDPOINT`
    /// (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), else
    /// `http://localhost:4318`.
    pub otlp_endpoint: Option<String>,
    /// The `service.name` of the spans. Absent: `OTEL_SERVICE_NAME`, else
    /// `palisade`.
    pub service_name: Option<String>,
}

/// State shared by replicas.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct StateConfig {
    /// The Redis server that holds it.
    pub redis: RedisState,
}

/// `state.redis`: where the shared state lives, and what a failure means.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct RedisState {
    /// `redis://[user:password@]host[:port][/db]`, `rediss://…` or
    /// `unix:///path`.
    pub url: String,
    /// Prefix of every key (default `palisade:`).
    #[serde(default = "default_prefix")]
    pub prefix: String,
    /// Most milliseconds to wait for Redis per operation (default 100).
    #[serde(default = "default_state_timeout")]
    pub timeout_ms: u64,
    /// What a request gets when Redis cannot answer (default `block`).
    #[serde(default)]
    pub on_error: StateOnError,
}

fn default_prefix() -> String {
    "palisade:".to_owned()
}

fn default_state_timeout() -> u64 {
    100
}

/// What a request gets when the shared state cannot be reached.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum StateOnError {
    /// It is decided without the rate limit and breaker, with a warning.
    Allow,
    /// It is refused with `state.unavailable` (the default).
    #[default]
    Block,
}

impl StateOnError {
    /// What a guard does with a flow session the shared state cannot read.
    pub(crate) fn for_sessions(self) -> palisade_checks::shared::OnStateError {
        match self {
            StateOnError::Allow => palisade_checks::shared::OnStateError::Allow,
            StateOnError::Block => palisade_checks::shared::OnStateError::Block,
        }
    }
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
    /// `guardrails:check`, `guardrails:approve` and/or `guardrails:admin`.
    pub scopes: Vec<String>,
}

/// The longest an approval may last: 30 days.
const MAX_APPROVAL_TTL_SECS: u64 = 30 * 24 * 3600;

/// The longest `gateway.idle_timeout_secs`: 7 days.
const MAX_IDLE_TIMEOUT_SECS: u64 = 7 * 24 * 3600;

/// The scopes a key can have.
pub const SCOPES: &[&str] = &["guardrails:check", "guardrails:approve", "guardrails:admin"];

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

impl ServiceConfig {
    /// Reads a config file: YAML for `.yaml`/`.yml`, JSON for `.json`.
    /// Relative paths in it (policies, the audit log, MCP server commands
    /// given as paths) are resolved against the file's directory.
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

    /// Reads and validates a parsed config document: the server's sections
    /// here, the guard's by [`GuardConfig`]; every problem of both is
    /// reported.
    pub fn from_value(value: Value) -> Result<Self, ConfigErrors> {
        let Value::Object(document) = value else {
            return Err(ConfigErrors::one(
                "",
                "the config must be a mapping of config sections",
            ));
        };
        let mut server = Map::new();
        let mut guard = Map::new();
        let mut errors = Vec::new();
        for (key, value) in document {
            if GuardConfig::SECTIONS.contains(&key.as_str()) {
                guard.insert(key, value);
            } else if SECTIONS.contains(&key.as_str()) {
                server.insert(key, value);
            } else {
                errors.push(ConfigError::new(
                    format!("/{}", key.replace('~', "~0").replace('/', "~1")),
                    format!(
                        "unknown field `{key}`{}, expected one of {}",
                        palisade_protocol::suggest::closest(&key, SECTIONS.iter().copied())
                            .map(|near| format!(" (did you mean `{near}`?)"))
                            .unwrap_or_default(),
                        // Every section, the guard's included, once.
                        SECTIONS
                            .iter()
                            .map(|s| format!("`{s}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
        let server: Option<ServerSections> = section(Value::Object(server))
            .map_err(|e| errors.extend(e.errors))
            .ok();
        // Read only: its problems are reported with the server's below.
        let guard: Option<GuardConfig> = section(Value::Object(guard))
            .map_err(|e| errors.extend(e.errors))
            .ok();
        let (Some(server), Some(guard), true) = (server, guard, errors.is_empty()) else {
            errors.sort_by_key(|e| order(&e.pointer));
            return Err(ConfigErrors { errors });
        };
        let config = ServiceConfig {
            listen: server.listen,
            policy: server.policy,
            tenants: server.tenants,
            keys: server.keys,
            rate_limits: server.rate_limits,
            circuit_breaker: server.circuit_breaker,
            state: server.state,
            telemetry: server.telemetry,
            limits: server.limits,
            playground: server.playground,
            guard,
            gateway: server.gateway,
            approvals: server.approvals,
        };
        let errors = config.problems();
        if errors.is_empty() {
            Ok(config)
        } else {
            Err(ConfigErrors { errors })
        }
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
        self.guard.resolve_paths(dir);
        if let Some(p) = &mut self.gateway.pins {
            fix(p);
        }
        if let Some(p) = &mut self.approvals.path {
            fix(p);
        }
    }

    /// What the types cannot say, in document order: the server's problems
    /// and the guard's.
    fn problems(&self) -> Vec<ConfigError> {
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
                    "`scopes` is empty; give any of `guardrails:check`, `guardrails:approve` and `guardrails:admin`".into(),
                );
            }
            for (j, s) in key.scopes.iter().enumerate() {
                if !SCOPES.contains(&s.as_str()) {
                    err(
                        format!("{ptr}/scopes/{j}"),
                        format!(
                            "unknown scope `{s}`; expected `guardrails:check`, `guardrails:approve` or `guardrails:admin`"
                        ),
                    );
                }
            }
        }
        if self.approvals.ttl_secs == 0 || self.approvals.ttl_secs > MAX_APPROVAL_TTL_SECS {
            err(
                "/approvals/ttl_secs".into(),
                format!(
                    "`ttl_secs` must be from 1 to {MAX_APPROVAL_TTL_SECS} (30 days); got {}",
                    self.approvals.ttl_secs
                ),
            );
        }
        if let Some(url) = &self.approvals.base_url {
            let scheme = url
                .strip_prefix("https://")
                .or_else(|| url.strip_prefix("http://"));
            let ok = scheme.is_some_and(|rest| {
                let host = rest.split('/').next().unwrap_or("");
                !host.is_empty()
                    && !rest.contains(['?', '#'])
                    && !rest.chars().any(|c| c.is_whitespace() || c.is_control())
            });
            if !ok {
                err(
                    "/approvals/base_url".into(),
                    format!(
                        "`base_url` must be an http:// or https:// address with a host and no query or fragment (`https://guard.example.com`); got {}",
                        serde_json::Value::String(url.clone())
                    ),
                );
            }
        }
        if let Some(idle) = self.gateway.idle_timeout_secs
            && !(1..=MAX_IDLE_TIMEOUT_SECS).contains(&idle)
        {
            err(
                "/gateway/idle_timeout_secs".into(),
                format!(
                    "`idle_timeout_secs` must be from 1 to {MAX_IDLE_TIMEOUT_SECS} (7 days); got {idle}"
                ),
            );
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
        if let Some(state) = &self.state {
            let url = &state.redis.url;
            if let Err(e) = redis::Client::open(url.as_str()) {
                err(
                    "/state/redis/url".into(),
                    format!(
                        "not a Redis URL (`redis://host:port`, `rediss://…`, `unix:///path`): {e}"
                    ),
                );
            }
            if state.redis.timeout_ms == 0 || state.redis.timeout_ms > 60_000 {
                err(
                    "/state/redis/timeout_ms".into(),
                    "`timeout_ms` must be from 1 to 60000".into(),
                );
            }
        }
        if let Some(t) = &self.telemetry {
            if let Some(url) = &t.otlp_endpoint
                && !(url.starts_with("http://") || url.starts_with("https://"))
            {
                err(
                    "/telemetry/otlp_endpoint".into(),
                    format!(
                        "`{url}` is not an http:// or https:// URL (the OTLP/HTTP collector, such as `http://localhost:4318`)"
                    ),
                );
            }
            if t.service_name
                .as_deref()
                .is_some_and(|n| n.trim().is_empty())
            {
                err(
                    "/telemetry/service_name".into(),
                    "`service_name` must not be empty".into(),
                );
            }
        }
        if self.limits.max_body_bytes == 0 {
            err(
                "/limits/max_body_bytes".into(),
                "`max_body_bytes` must be at least 1".into(),
            );
        }
        errors.extend(self.guard.problems());
        errors.sort_by_key(|e| order(&e.pointer));
        errors
    }
}

/// Where a pointer's section comes in the order problems are reported (a
/// stable sort keeps each section's problems in their own order).
fn order(pointer: &str) -> usize {
    const REPORTED: &[&str] = &[
        "listen",
        "policy",
        "tenants",
        "llm",
        "mcp_servers",
        "budgets",
        "keys",
        "rate_limits",
        "circuit_breaker",
        "state",
        "telemetry",
        "audit",
        "limits",
        "playground",
        "strict_requests",
    ];
    let top = pointer
        .trim_start_matches('/')
        .split('/')
        .next()
        .unwrap_or("");
    REPORTED
        .iter()
        .position(|s| *s == top)
        .unwrap_or(REPORTED.len())
}

#[cfg(test)]
mod tests {

    #[test]
    fn every_section_is_listed_once_the_guards_included() {
        for s in GuardConfig::SECTIONS {
            assert!(SECTIONS.contains(s), "{s}");
        }
        let mut seen = SECTIONS.to_vec();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), SECTIONS.len());
        let e = ServiceConfig::from_value(serde_json::json!({"stat": {}})).unwrap_err();
        let message = e.to_string();
        assert_eq!(message.matches("`llm`").count(), 1, "{message}");
        assert!(message.contains("did you mean `state`?"), "{message}");
    }

    use palisade_checks::audit::Durability;

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
    fn an_approvals_base_url_is_an_address() {
        for bad in [
            "guard.example.com",
            "ftp://guard.example.com",
            "https://",
            "https://guard.example.com/?x=1",
            "https://guard example.com",
        ] {
            let e = errors(&format!("approvals: {{ base_url: {bad:?} }}\n"));
            assert_eq!(e.len(), 1, "{bad}: {e:?}");
            assert_eq!(e[0].0, "/approvals/base_url");
            assert!(e[0].1.contains("http:// or https://"), "{e:?}");
        }
        let c = ServiceConfig::from_yaml_str(
            "approvals: { base_url: \"https://guard.example.com/palisade\" }\n",
        )
        .unwrap();
        assert_eq!(
            c.approvals.base_url.as_deref(),
            Some("https://guard.example.com/palisade")
        );
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
        assert_eq!(c.guard.mcp_servers.len(), 2);
        assert_eq!(c.guard.audit.unwrap().durability, Durability::Fsync);
        assert_eq!(c.guard.budgets.mcp_content_bytes, 2_000);
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
        assert_eq!(c.guard.audit.unwrap().path, dir.path().join("logs/a.jsonl"));
        let e = ServiceConfig::from_path(dir.path().join("svc.toml")).unwrap_err();
        assert!(e.to_string().contains("cannot read config file"), "{e}");
    }

    #[test]
    fn an_unknown_section_is_named_with_every_known_one() {
        let e = errors("listen: '127.0.0.1:1'\nbogus: 1\n");
        assert_eq!(e[0].0, "/bogus");
        assert!(
            e[0].1
                .contains("unknown field `bogus`, expected one of `listen`"),
            "{e:?}"
        );
        assert!(e[0].1.contains("`strict_requests`"), "{e:?}");
        let e = ServiceConfig::from_yaml_str("- a\n").unwrap_err();
        assert!(e.to_string().contains("mapping of config sections"), "{e}");
        assert_eq!(
            ServiceConfig::from_yaml_str("").unwrap(),
            ServiceConfig::default()
        );
    }

    #[test]
    fn the_gateway_s_idle_timeout_is_from_a_second_to_a_week() {
        for (yaml, ok) in [
            ("gateway: { idle_timeout_secs: 1 }\n", true),
            ("gateway: { idle_timeout_secs: 604800 }\n", true),
            ("gateway: { idle_timeout_secs: 0 }\n", false),
            ("gateway: { idle_timeout_secs: 604801 }\n", false),
        ] {
            match ServiceConfig::from_yaml_str(yaml) {
                Ok(c) => {
                    assert!(ok, "{yaml}");
                    assert!(c.gateway.idle_timeout_secs.is_some());
                }
                Err(e) => {
                    assert!(!ok, "{yaml}: {e}");
                    let e = &e.errors[0];
                    assert_eq!(e.pointer, "/gateway/idle_timeout_secs");
                    assert!(
                        e.message.contains("must be from 1 to 604800 (7 days)"),
                        "{}",
                        e.message
                    );
                }
            }
        }
    }
}
