//! OpenTelemetry traces of the service: a server span per HTTP request,
//! its parent taken from the request's W3C `traceparent` (and
//! `tracestate`), and under it one span per decision with what was decided
//! (below it, the decision's calls to an LLM service or an MCP server,
//! traced by `palisade-checks`).
//!
//! The spans are `tracing` spans of the target
//! [`TRACE_TARGET`](palisade_checks::TRACE_TARGET). They reach
//! OpenTelemetry through a `tracing-opentelemetry` layer that the program
//! installs (`palisade serve` does when traces are configured, see
//! docs/OPERATIONS.md); without a subscriber interested in that target no
//! span is made and nothing is computed for one.
//!
//! The decision span (`palisade.decision {stage}`) carries `palisade.tenant`,
//! `palisade.stage`, `palisade.decision`, `palisade.reason_code`,
//! `palisade.check_ids` (the checks that reported a finding),
//! `palisade.request_id`, `palisade.evaluated_rules`, `palisade.duration_ms`,
//! and the OpenTelemetry GenAI attributes the request gives:
//! `gen_ai.tool.name`, `gen_ai.tool.call.id`, `gen_ai.agent.id`,
//! `gen_ai.agent.name`, `gen_ai.conversation.id` (the `sessionId`), and
//! for the MCP gateway's requests `palisade.mcp.server` (the upstream
//! server, `context.mcpServer`).

use std::time::Duration;

#[cfg(feature = "http")]
use axum::{
    extract::{MatchedPath, Request},
    middleware::Next,
    response::Response,
};
#[cfg(feature = "http")]
use opentelemetry::propagation::Extractor;
use palisade_checks::TRACE_TARGET;
use palisade_protocol::{CheckRequest, Decision};
use tracing::Span;
use tracing::field::Empty;
use tracing_opentelemetry::OpenTelemetrySpanExt as _;

/// Whether traces are being taken (a subscriber wants [`TRACE_TARGET`]).
#[cfg(feature = "http")]
pub(crate) fn enabled() -> bool {
    tracing::enabled!(target: TRACE_TARGET, tracing::Level::INFO)
}

/// The headers of a request, read by the W3C trace-context propagator.
#[cfg(feature = "http")]
struct Headers<'a>(&'a axum::http::HeaderMap);

#[cfg(feature = "http")]
impl Extractor for Headers<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(axum::http::HeaderName::as_str).collect()
    }
}

/// Middleware: runs the request inside a server span (`POST /v1/check`)
/// whose parent is the caller's `traceparent`, and records the response's
/// status. Passes the request straight on when traces are off.
#[cfg(feature = "http")]
pub(crate) async fn http_span(request: Request, next: Next) -> Response {
    use tracing::Instrument as _;
    if !enabled() {
        return next.run(request).await;
    }
    let method = request.method().as_str().to_owned();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned());
    let span = tracing::info_span!(
        target: TRACE_TARGET,
        "http",
        "otel.name" = %match &route {
            Some(r) => format!("{method} {r}"),
            None => method.clone(),
        },
        "otel.kind" = "server",
        "otel.status_code" = Empty,
        "http.request.method" = %method,
        "http.route" = route.as_deref(),
        "url.path" = request.uri().path(),
        "http.response.status_code" = Empty,
    );
    // The propagator the program installed with its tracer (W3C trace
    // context for `palisade serve`); a request without a valid
    // `traceparent` starts a trace of its own.
    let parent =
        opentelemetry::global::get_text_map_propagator(|p| p.extract(&Headers(request.headers())));
    let _ = span.set_parent(parent);
    let response = next.run(request).instrument(span.clone()).await;
    let status = response.status();
    span.record("http.response.status_code", i64::from(status.as_u16()));
    if status.is_server_error() {
        span.record("otel.status_code", "ERROR");
    }
    response
}

/// A decision's span (disabled when traces are off), child of the current
/// span or of `parent`.
pub(crate) fn decision_span(tenant: &str, request: &CheckRequest, parent: Option<&Span>) -> Span {
    macro_rules! span {
        ($($parent:expr)?) => {
            tracing::info_span!(
                target: TRACE_TARGET,
                $(parent: $parent,)?
                "palisade.decision",
                "otel.name" = Empty,
                "otel.status_code" = Empty,
                "palisade.tenant" = Empty,
                "palisade.stage" = Empty,
                "palisade.decision" = Empty,
                "palisade.reason_code" = Empty,
                "palisade.request_id" = Empty,
                "palisade.evaluated_rules" = Empty,
                "palisade.duration_ms" = Empty,
                "gen_ai.tool.name" = Empty,
                "gen_ai.tool.call.id" = Empty,
                "gen_ai.agent.id" = Empty,
                "gen_ai.agent.name" = Empty,
                "gen_ai.conversation.id" = Empty,
                "palisade.mcp.server" = Empty,
                "error.type" = Empty,
            )
        };
    }
    let span = match parent {
        Some(p) => span!(p),
        None => span!(),
    };
    if span.is_disabled() {
        return span;
    }
    let stage = request.effective_stage();
    span.record("otel.name", format!("palisade.decision {stage}"));
    span.record("palisade.tenant", tenant);
    span.record("palisade.stage", stage.as_str());
    if let Some(tool) = &request.tool {
        span.record("gen_ai.tool.name", tool.name.as_str());
        if let Some(id) = &tool.call_id {
            span.record("gen_ai.tool.call.id", id.as_str());
        }
    }
    if let Some(agent) = &request.agent {
        if let Some(id) = &agent.id {
            span.record("gen_ai.agent.id", id.as_str());
        }
        if let Some(name) = &agent.name {
            span.record("gen_ai.agent.name", name.as_str());
        }
    }
    if let Some(session) = &request.session_id {
        span.record("gen_ai.conversation.id", session.as_str());
    }
    if let Some(server) = request
        .context
        .as_ref()
        .and_then(|c| c.get("mcpServer"))
        .and_then(serde_json::Value::as_str)
    {
        span.record("palisade.mcp.server", server);
    }
    span
}

/// Records what was decided on a decision's span.
pub(crate) fn record_decision(span: &Span, decision: &Decision, took: Duration) {
    if span.is_disabled() {
        return;
    }
    span.record("palisade.decision", decision.decision.to_string());
    if let Some(reason) = &decision.reason_code {
        span.record("palisade.reason_code", reason.as_str());
    }
    span.record("palisade.request_id", decision.request_id.as_str());
    if let Some(n) = decision.evaluated {
        span.record("palisade.evaluated_rules", i64::from(n));
    }
    span.record("palisade.duration_ms", took.as_secs_f64() * 1000.0);
    let mut ids: Vec<opentelemetry::StringValue> = Vec::new();
    for f in decision.findings() {
        if !ids.iter().any(|id| id.as_str() == f.check_id) {
            ids.push(f.check_id.clone().into());
        }
    }
    span.set_attribute(
        "palisade.check_ids",
        opentelemetry::Value::Array(opentelemetry::Array::String(ids)),
    );
}

/// Records that no decision could be answered (`kind`: why).
pub(crate) fn record_error(span: &Span, kind: &str) {
    if span.is_disabled() {
        return;
    }
    span.record("otel.status_code", "ERROR");
    span.record("error.type", kind);
}
