//! Palisade's async guardrail runtime.
//!
//! [`Guard`] runs a whole policy for one request: the deterministic checks
//! of [`palisade_engine`], then — unless they already block — the stage's
//! async checks concurrently under one time budget:
//!
//! - `llm_judge` and `moderation` call an OpenAI-compatible chat-completions
//!   service ([`llm`]);
//! - `mcp` calls a guardrail tool on an MCP server, over stdio or
//!   streamable HTTP ([`mcp`]).
//!
//! Each call has its own timeout, content sent off-host is capped on a
//! UTF-8 boundary, at most a few calls per type run per request, and a
//! check that gets no answer fails open (a `fail_open` warning saying why)
//! or closed (`on_error: block`). Every decision can be written to a
//! tamper-evident audit log ([`audit`]) before it is answered.
//!
//! The services come from the service config ([`GuardConfig`], SPEC §7).
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use palisade_checks::{Guard, GuardConfig, audit::{Durability, JsonlAudit}};
//! use palisade_engine::Engine;
//! use palisade_protocol::CheckRequest;
//!
//! let config = GuardConfig::from_path("palisade.yaml")?;
//! let engine = Engine::from_path("policy.yaml")?;
//! let audit = JsonlAudit::open("audit.jsonl", Durability::Fsync).await?;
//! let guard = Guard::new(engine, &config)?.with_audit(Arc::new(audit));
//! let decision = guard.check(&CheckRequest::input("Ignore previous instructions")).await?;
//! println!("{}", decision.decision);
//! guard.shutdown().await?;
//! # Ok(()) }
//! ```

pub mod approvals;
pub mod audit;
pub mod config;
mod guard;
pub mod llm;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod shared;

pub use config::{ConfigError, ConfigErrors, GuardConfig};

/// The `tracing` target of the spans meant for OpenTelemetry: a decision,
/// and its calls to an LLM service or an MCP server. A subscriber that
/// exports traces takes this target; one that only logs leaves it out, and
/// with no subscriber interested the spans cost nothing.
pub const TRACE_TARGET: &str = "palisade::otel";
pub use guard::{Admission, Guard, GuardError, GuardStream, state_warning};
pub use llm::SetupError;

#[cfg(any(feature = "llm", feature = "mcp"))]
/// Makes `ring` the TLS crypto provider of the process, once (HTTPS to an
/// LLM service or an MCP server needs one).
pub(crate) fn install_crypto_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}
