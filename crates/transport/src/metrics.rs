//! Service metrics in the Prometheus text format (`GET /metrics`):
//! decisions by tenant, stage and decision; findings by check and action;
//! async-check outcomes; decision latency; rate-limited requests; the
//! circuit breakers' states.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::time::Duration;

use palisade_protocol::{Decision, FindingAction, Stage};

/// Upper bounds of the latency histogram, in seconds.
const BUCKETS: &[f64] = &[
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

#[derive(Debug, Default)]
struct Inner {
    decisions: BTreeMap<(String, &'static str, String), u64>,
    findings: BTreeMap<(String, String, String), u64>,
    async_checks: BTreeMap<(String, String, &'static str), u64>,
    rate_limited: BTreeMap<String, u64>,
    latency_counts: Vec<u64>,
    latency_sum: f64,
    latency_n: u64,
    /// With shared state: whether its last operation succeeded, and how
    /// many failed.
    state: Option<(bool, u64)>,
}

/// The counters.
#[derive(Debug, Default)]
pub struct Metrics {
    inner: Mutex<Inner>,
}

impl Metrics {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Records how an operation on the shared state went.
    pub fn state_result(&self, ok: bool) {
        let mut m = self.lock();
        let (up, errors) = m.state.get_or_insert((true, 0));
        *up = ok;
        if !ok {
            *errors += 1;
        }
    }

    /// Counts one answered decision.
    pub fn decision(&self, tenant: &str, stage: Stage, d: &Decision, took: Duration) {
        let mut m = self.lock();
        *m.decisions
            .entry((tenant.to_owned(), stage.as_str(), d.decision.to_string()))
            .or_default() += 1;
        for f in d.findings() {
            *m.findings
                .entry((tenant.to_owned(), f.check_id.clone(), f.action.to_string()))
                .or_default() += 1;
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
                *m.async_checks
                    .entry((tenant.to_owned(), t.to_string(), outcome))
                    .or_default() += 1;
            }
        }
        if m.latency_counts.is_empty() {
            m.latency_counts = vec![0; BUCKETS.len()];
        }
        let secs = took.as_secs_f64();
        for (i, b) in BUCKETS.iter().enumerate() {
            if secs <= *b {
                m.latency_counts[i] += 1;
            }
        }
        m.latency_sum += secs;
        m.latency_n += 1;
    }

    /// Counts a request refused by its rate limit.
    pub fn rate_limited(&self, tenant: &str) {
        *self
            .lock()
            .rate_limited
            .entry(tenant.to_owned())
            .or_default() += 1;
    }

    /// The text exposition; `breakers` gives each tenant's breaker state
    /// (0 closed, 1 open, 2 half-open). With `Some(tenant)`, only that
    /// tenant's series (the latency histogram is the service's).
    pub fn render(&self, breakers: &[(String, u8)], only: Option<&str>) -> String {
        let m = self.lock();
        let shown = |tenant: &str| only.is_none_or(|o| o == tenant);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# HELP palisade_decisions_total Decisions answered, by tenant, stage and decision.\n# TYPE palisade_decisions_total counter"
        );
        for ((tenant, stage, decision), n) in m.decisions.iter().filter(|((t, ..), _)| shown(t)) {
            let _ = writeln!(
                out,
                "palisade_decisions_total{{tenant=\"{}\",stage=\"{stage}\",decision=\"{decision}\"}} {n}",
                escape(tenant)
            );
        }
        let _ = writeln!(
            out,
            "# HELP palisade_findings_total Findings reported, by check and action.\n# TYPE palisade_findings_total counter"
        );
        for ((tenant, check, action), n) in m.findings.iter().filter(|((t, ..), _)| shown(t)) {
            let _ = writeln!(
                out,
                "palisade_findings_total{{tenant=\"{}\",check=\"{}\",action=\"{action}\"}} {n}",
                escape(tenant),
                escape(check)
            );
        }
        let _ = writeln!(
            out,
            "# HELP palisade_async_check_outcomes_total Async checks that hit or failed, by type and outcome.\n# TYPE palisade_async_check_outcomes_total counter"
        );
        for ((tenant, t, outcome), n) in m.async_checks.iter().filter(|((x, ..), _)| shown(x)) {
            let _ = writeln!(
                out,
                "palisade_async_check_outcomes_total{{tenant=\"{}\",type=\"{t}\",outcome=\"{outcome}\"}} {n}",
                escape(tenant)
            );
        }
        let _ = writeln!(
            out,
            "# HELP palisade_rate_limited_total Requests refused by their rate limit, by tenant.\n# TYPE palisade_rate_limited_total counter"
        );
        for (tenant, n) in m.rate_limited.iter().filter(|(t, _)| shown(t)) {
            let _ = writeln!(
                out,
                "palisade_rate_limited_total{{tenant=\"{}\"}} {n}",
                escape(tenant)
            );
        }
        let _ = writeln!(
            out,
            "# HELP palisade_decision_duration_seconds Time to decide a request, audit included.\n# TYPE palisade_decision_duration_seconds histogram"
        );
        for (i, b) in BUCKETS.iter().enumerate() {
            let n = m.latency_counts.get(i).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "palisade_decision_duration_seconds_bucket{{le=\"{b}\"}} {n}"
            );
        }
        let _ = writeln!(
            out,
            "palisade_decision_duration_seconds_bucket{{le=\"+Inf\"}} {}\npalisade_decision_duration_seconds_sum {}\npalisade_decision_duration_seconds_count {}",
            m.latency_n, m.latency_sum, m.latency_n
        );
        let _ = writeln!(
            out,
            "# HELP palisade_circuit_breaker_state Circuit breaker state by tenant: 0 closed, 1 open, 2 half-open.\n# TYPE palisade_circuit_breaker_state gauge"
        );
        for (tenant, state) in breakers {
            let _ = writeln!(
                out,
                "palisade_circuit_breaker_state{{tenant=\"{}\"}} {state}",
                escape(tenant)
            );
        }
        if let Some((up, errors)) = m.state {
            let _ = writeln!(
                out,
                "# HELP palisade_state_up Whether the shared state (Redis) answered the last operation: 1 yes, 0 no.\n# TYPE palisade_state_up gauge\npalisade_state_up {}\n# HELP palisade_state_errors_total Operations on the shared state (Redis) that failed.\n# TYPE palisade_state_errors_total counter\npalisade_state_errors_total {errors}",
                u8::from(up)
            );
        }
        out
    }
}

/// A label value with `\`, `"` and line feeds escaped.
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
