//! Service metrics (`GET /metrics`) kept and written by the Prometheus
//! project's client library (`prometheus-client`) in the OpenMetrics text
//! format: decisions by tenant, stage and decision; findings by check and
//! action; async-check outcomes; a decision-latency histogram; rate-limited
//! requests; the circuit breakers' states; the shared state's health; the
//! MCP gateway's decisions, tool definitions hidden or warned of, and
//! elicitation answers, by upstream server.

use std::time::Duration;

use palisade_protocol::{Decision, FindingAction, Stage};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// Upper bounds of the latency histogram, in seconds.
const BUCKETS: [f64; 16] = [
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

/// The media type of the exposition.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

type Labels<const N: usize> = [(&'static str, String); N];

/// The service's metrics, in a registry of their own (several services in
/// one process never share a series).
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    decisions: Family<Labels<3>, Counter>,
    findings: Family<Labels<3>, Counter>,
    async_checks: Family<Labels<3>, Counter>,
    condition_errors: Family<Labels<2>, Counter>,
    rate_limited: Family<Labels<1>, Counter>,
    latency: Histogram,
    breakers: Family<Labels<1>, Gauge>,
    gateway_decisions: Family<Labels<4>, Counter>,
    gateway_tools: Family<Labels<4>, Counter>,
    gateway_answers: Family<Labels<3>, Counter>,
    /// With shared state: whether its last operation succeeded, and how
    /// many failed.
    state: Option<(Gauge, Counter)>,
}

impl Metrics {
    /// The metrics of a service; `shared_state`: whether `state.redis` is
    /// configured (its two series are shown only then, starting up).
    pub fn new(shared_state: bool) -> Self {
        let mut registry = Registry::default();
        let decisions = Family::<Labels<3>, Counter>::default();
        registry.register(
            "palisade_decisions",
            "Decisions answered, by tenant, stage and decision",
            decisions.clone(),
        );
        let findings = Family::<Labels<3>, Counter>::default();
        registry.register(
            "palisade_findings",
            "Findings reported, by check and action",
            findings.clone(),
        );
        let async_checks = Family::<Labels<3>, Counter>::default();
        registry.register(
            "palisade_async_check_outcomes",
            "Async checks that hit or failed, by type and outcome",
            async_checks.clone(),
        );
        let condition_errors = Family::<Labels<2>, Counter>::default();
        registry.register(
            "palisade_condition_errors",
            "Conditions (a check's `condition` or `when`) that could not be evaluated on a request, by tenant and check",
            condition_errors.clone(),
        );
        let rate_limited = Family::<Labels<1>, Counter>::default();
        registry.register(
            "palisade_rate_limited",
            "Requests refused by their rate limit, by tenant",
            rate_limited.clone(),
        );
        let latency = Histogram::new(BUCKETS);
        registry.register(
            "palisade_decision_duration_seconds",
            "Time to decide a request, audit included",
            latency.clone(),
        );
        let breakers = Family::<Labels<1>, Gauge>::default();
        registry.register(
            "palisade_circuit_breaker_state",
            "Circuit breaker state by tenant: 0 closed, 1 open, 2 half-open",
            breakers.clone(),
        );
        let gateway_decisions = Family::<Labels<4>, Counter>::default();
        registry.register(
            "palisade_gateway_decisions",
            "Decisions of the MCP gateway, by tenant, upstream server, stage and decision (refusals of hidden and unknown tools included)",
            gateway_decisions.clone(),
        );
        let gateway_tools = Family::<Labels<4>, Counter>::default();
        registry.register(
            "palisade_gateway_tool_definitions",
            "Tool definitions the MCP gateway judged bad, by tenant, upstream server, reason code and what was done (hidden, warned)",
            gateway_tools.clone(),
        );
        let gateway_answers = Family::<Labels<3>, Counter>::default();
        registry.register(
            "palisade_gateway_elicitations",
            "Questions the MCP gateway asked the person at the client, by tenant, upstream server and answer (accept, decline, none)",
            gateway_answers.clone(),
        );
        let state = shared_state.then(|| {
            let up = Gauge::default();
            up.set(1);
            let errors = Counter::default();
            registry.register(
                "palisade_state_up",
                "Whether the shared state (Redis) answered the last operation: 1 yes, 0 no",
                up.clone(),
            );
            registry.register(
                "palisade_state_errors",
                "Operations on the shared state (Redis) that failed",
                errors.clone(),
            );
            (up, errors)
        });
        Metrics {
            registry,
            decisions,
            findings,
            async_checks,
            condition_errors,
            rate_limited,
            latency,
            breakers,
            gateway_decisions,
            gateway_tools,
            gateway_answers,
            state,
        }
    }

    /// Counts a decision of the MCP gateway for `upstream`.
    pub fn gateway_decision(&self, tenant: &str, upstream: &str, stage: Stage, d: &Decision) {
        self.gateway_decisions
            .get_or_create(&[
                ("tenant", tenant.to_owned()),
                ("upstream", upstream.to_owned()),
                ("stage", stage.as_str().to_owned()),
                ("decision", d.decision.to_string()),
            ])
            .inc();
    }

    /// Counts a tool definition judged bad (`done`: `hidden` or `warned`).
    pub fn gateway_tool(&self, tenant: &str, upstream: &str, reason: &str, done: &str) {
        self.gateway_tools
            .get_or_create(&[
                ("tenant", tenant.to_owned()),
                ("upstream", upstream.to_owned()),
                ("reason", reason.to_owned()),
                ("action", done.to_owned()),
            ])
            .inc();
    }

    /// Counts an answer to the gateway's question (`accept`, `decline`,
    /// `none` when none came or the client cannot be asked).
    pub fn gateway_elicitation(&self, tenant: &str, upstream: &str, answer: &str) {
        self.gateway_answers
            .get_or_create(&[
                ("tenant", tenant.to_owned()),
                ("upstream", upstream.to_owned()),
                ("answer", answer.to_owned()),
            ])
            .inc();
    }

    /// Records how an operation on the shared state went.
    pub fn state_result(&self, ok: bool) {
        if let Some((up, errors)) = &self.state {
            up.set(i64::from(ok));
            if !ok {
                errors.inc();
            }
        }
    }

    /// Counts one answered decision.
    pub fn decision(&self, tenant: &str, stage: Stage, d: &Decision, took: Duration) {
        let tenant = tenant.to_owned();
        self.decisions
            .get_or_create(&[
                ("tenant", tenant.clone()),
                ("stage", stage.as_str().to_owned()),
                ("decision", d.decision.to_string()),
            ])
            .inc();
        for f in d.findings() {
            // A rule that could not run is counted apart: its check did
            // not fire.
            if f.reason_code == "policy.condition_error" {
                self.condition_errors
                    .get_or_create(&[("tenant", tenant.clone()), ("check", f.check_id.clone())])
                    .inc();
                continue;
            }
            self.findings
                .get_or_create(&[
                    ("tenant", tenant.clone()),
                    ("check", f.check_id.clone()),
                    ("action", f.action.to_string()),
                ])
                .inc();
            // The async check types' findings say how their calls went.
            if let Some(t) = palisade_engine::CheckType::from_name(&f.check_type)
                .filter(|t| t.is_async())
                .map(|t| t.name())
            {
                let outcome = match f.action {
                    FindingAction::FailOpen => "failed_open",
                    // The engine's wording of a check that failed closed.
                    _ if f.message.as_deref().is_some_and(|m| {
                        m.contains("failed closed") || m.contains("fails closed")
                    }) =>
                    {
                        "failed_closed"
                    }
                    _ => "hit",
                };
                self.async_checks
                    .get_or_create(&[
                        ("tenant", tenant.clone()),
                        ("type", t.to_owned()),
                        ("outcome", outcome.to_owned()),
                    ])
                    .inc();
            }
        }
        self.latency.observe(took.as_secs_f64());
    }

    /// Counts a request refused by its rate limit.
    pub fn rate_limited(&self, tenant: &str) {
        self.rate_limited
            .get_or_create(&[("tenant", tenant.to_owned())])
            .inc();
    }

    /// The text exposition; `breakers` gives each tenant's breaker state
    /// (0 closed, 1 open, 2 half-open). With `Some(tenant)`, only that
    /// tenant's series (the latency histogram and the shared state's
    /// health are the service's). Within a metric its series are sorted, so
    /// two scrapes list them in the same order.
    pub fn render(&self, breakers: &[(String, u8)], only: Option<&str>) -> String {
        for (tenant, state) in breakers {
            self.breakers
                .get_or_create(&[("tenant", tenant.clone())])
                .set(i64::from(*state));
        }
        let mut text = String::new();
        if prometheus_client::encoding::text::encode(&mut text, &self.registry).is_err() {
            // Writing to a String cannot fail; an encoder error would be a
            // bug, and an empty exposition says so to the scraper.
            tracing::error!("the metrics could not be encoded");
            return "# EOF\n".to_owned();
        }
        let own = only.map(|t| format!("{{tenant=\"{}\"", escape(t)));
        let mut out = String::with_capacity(text.len());
        let mut series: Vec<&str> = Vec::new();
        let mut sorted = false;
        for line in text.lines() {
            if line.starts_with('#') {
                flush(&mut out, &mut series, sorted);
                if let Some(kind) = line.strip_prefix("# TYPE ") {
                    // A histogram's lines keep their order (buckets rising).
                    sorted = kind.ends_with(" counter") || kind.ends_with(" gauge");
                }
                out.push_str(line);
                out.push('\n');
                continue;
            }
            let shown = match &own {
                Some(own) => !line.contains("{tenant=\"") || line.contains(own.as_str()),
                None => true,
            };
            if shown {
                series.push(line);
            }
        }
        flush(&mut out, &mut series, sorted);
        out
    }
}

/// Appends the series lines gathered for one metric.
fn flush(out: &mut String, series: &mut Vec<&str>, sorted: bool) {
    if sorted {
        series.sort_unstable();
    }
    for line in series.drain(..) {
        out.push_str(line);
        out.push('\n');
    }
}

/// A label value as the exposition writes it (`\`, `"` and line feeds
/// escaped).
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decision(kind: &str) -> Decision {
        serde_json::from_value(serde_json::json!({
            "protocolVersion": "1", "decision": kind, "reasonCode": "x", "requestId": "r",
            "evaluatedRules": 1, "evaluationMs": 0.1
        }))
        .unwrap_or_else(|e| unreachable!("{e}"))
    }

    #[test]
    fn a_tenant_sees_its_series_and_the_service_wide_ones() {
        let m = Metrics::new(true);
        m.decision(
            "a\"b",
            Stage::Input,
            &decision("allow"),
            Duration::from_millis(1),
        );
        m.decision(
            "zeta",
            Stage::Input,
            &decision("block"),
            Duration::from_millis(1),
        );
        m.rate_limited("zeta");
        let all = m.render(&[("a\"b".into(), 1), ("zeta".into(), 0)], None);
        assert!(
            all.contains(
                "palisade_decisions_total{tenant=\"a\\\"b\",stage=\"input\",decision=\"allow\"} 1\n"
            ),
            "{all}"
        );
        assert!(
            all.contains("palisade_circuit_breaker_state{tenant=\"zeta\"} 0\n"),
            "{all}"
        );
        assert!(all.ends_with("# EOF\n"), "{all}");
        let own = m.render(&[("a\"b".into(), 1)], Some("a\"b"));
        assert!(!own.contains("zeta"), "{own}");
        assert!(
            own.contains("palisade_circuit_breaker_state{tenant=\"a\\\"b\"} 1\n"),
            "{own}"
        );
        assert!(
            own.contains("palisade_decision_duration_seconds_count 2\n"),
            "{own}"
        );
        assert!(own.contains("palisade_state_up 1\n"), "{own}");
    }

    #[test]
    fn series_are_sorted_and_buckets_rise() {
        let m = Metrics::new(false);
        for t in ["c", "a", "b"] {
            m.decision(
                t,
                Stage::Output,
                &decision("allow"),
                Duration::from_micros(300),
            );
        }
        let text = m.render(&[], None);
        let tenants: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("palisade_decisions_total"))
            .collect();
        let mut sorted = tenants.clone();
        sorted.sort_unstable();
        assert_eq!(tenants, sorted);
        assert_eq!(tenants.len(), 3);
        let les: Vec<f64> = text
            .lines()
            .filter_map(|l| l.strip_prefix("palisade_decision_duration_seconds_bucket{le=\""))
            .filter_map(|l| l.split('"').next())
            .filter(|v| *v != "+Inf")
            .map(|v| v.parse().unwrap_or(f64::NAN))
            .collect();
        assert_eq!(les, BUCKETS);
        assert!(
            text.contains("palisade_decision_duration_seconds_bucket{le=\"0.0005\"} 3\n"),
            "{text}"
        );
        assert!(
            !text.contains("palisade_state_up"),
            "no shared state configured: {text}"
        );
    }
}
