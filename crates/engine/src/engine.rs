//! [`Engine`]: a policy compiled into per-stage matchers, ready to evaluate.

use std::collections::HashMap;

use palisade_protocol::{CheckRequest, Stage, pointer};

use std::sync::Arc;

use crate::error::{PolicyError, PolicyErrors, RequestError};
use crate::policy::kinds::Form;
use crate::policy::{CheckKind, Policy};
use crate::ratelimit::{Clock, Limiter, SystemClock};
use crate::scan::stream::StreamAutomaton;
use crate::scan::{MatcherBuilder, StageMatcher};
use crate::tools::{ToolMatcher, ToolMatcherBuilder};

/// Position of a stage in [`Stage::ALL`].
pub(crate) fn stage_index(stage: Stage) -> usize {
    Stage::ALL.iter().position(|s| *s == stage).unwrap_or(0)
}

/// What one stage evaluates.
#[derive(Clone, Debug)]
pub(crate) struct StageData {
    /// Checks that run at this stage (enabled), in policy order.
    pub(crate) checks: Vec<u32>,
    pub(crate) matcher: Option<StageMatcher>,
    pub(crate) tools: Option<ToolMatcher>,
    /// Built on first use by [`Engine::stream`].
    pub(crate) stream: std::sync::OnceLock<Result<StreamAutomaton, String>>,
}

/// A compiled policy. Cheap to share between threads (`Engine: Send + Sync`);
/// evaluation never fails because of the policy.
///
/// ```
/// use palisade_engine::Engine;
/// use palisade_protocol::{CheckRequest, DecisionKind};
/// use serde_json::json;
///
/// let engine = Engine::from_json_str(r#"{"checks": [
///   {"id": "sql-drop", "stage": "tool_use", "type": "regex", "patterns": ["(?i)drop\\s+table"]}
/// ]}"#)?;
/// let request = CheckRequest::tool_use("sql_query", json!({"query": "DROP TABLE users"}));
/// let decision = engine.evaluate(&request)?;
/// assert_eq!(decision.decision, DecisionKind::Block);
/// assert_eq!(decision.violations[0].location.as_ref().unwrap().field, "/tool/arguments/query");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Engine {
    pub(crate) policy: Policy,
    pub(crate) stages: Vec<StageData>,
    pub(crate) ids: HashMap<String, u32>,
    /// Per check (policy order): a rate limit's counters.
    pub(crate) limiters: Vec<Option<Arc<Limiter>>>,
    pub(crate) clock: Arc<dyn Clock>,
}

impl Engine {
    /// Builds the engine of a policy: the stage matchers are joined from
    /// what the policy's checks compiled to when it was read.
    ///
    /// Fails only when a stage's combined automaton exceeds its size limit.
    pub fn new(policy: Policy) -> Result<Self, PolicyErrors> {
        let mut errors = Vec::new();
        let mut stages = Vec::with_capacity(Stage::ALL.len());
        for &stage in Stage::ALL {
            let mut checks = Vec::new();
            let mut matcher = MatcherBuilder::default();
            let mut has_text = false;
            let mut tools = ToolMatcherBuilder::default();
            for (ci, (check, compiled)) in (0u32..).zip(policy.checks.iter().zip(&policy.compiled))
            {
                if !check.enabled || !check.stages.contains(&stage) {
                    continue;
                }
                checks.push(ci);
                match &compiled.form {
                    Form::Text(texts) => {
                        for text in texts.iter() {
                            matcher.add(ci, text);
                        }
                        has_text = true;
                    }
                    Form::Tools(globs) => {
                        for glob in globs.iter() {
                            tools.add_glob(ci, glob.clone());
                        }
                    }
                    Form::Whole(_) | Form::Async => {}
                }
            }
            let matcher = if has_text {
                match matcher.build() {
                    Ok(m) => Some(m),
                    Err(e) => {
                        errors.push(PolicyError::new("/checks", format!("stage `{stage}`: {e}")));
                        None
                    }
                }
            } else {
                None
            };
            let tools = tools.build().unwrap_or_else(|e| {
                errors.push(PolicyError::new("/checks", format!("stage `{stage}`: {e}")));
                None
            });
            // Streams are scanned at these stages: a policy whose stream
            // automaton cannot be built is refused now, not when a stream starts.
            let stream = std::sync::OnceLock::new();
            if matcher.is_some() && matches!(stage, Stage::Input | Stage::Output) {
                let built = StreamAutomaton::build(&checks, &policy.compiled);
                if let Err(e) = &built {
                    errors.push(PolicyError::new("/checks", format!("stage `{stage}`: {e}")));
                }
                let _ = stream.set(built);
            }
            stages.push(StageData {
                checks,
                matcher,
                tools,
                stream,
            });
        }
        if !errors.is_empty() {
            return Err(PolicyErrors { errors });
        }
        let ids = (0u32..)
            .zip(&policy.checks)
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        // Counters are the engine's: each engine counts afresh.
        let limiters = policy
            .checks
            .iter()
            .map(|c| match c.kind {
                CheckKind::RateLimit {
                    max, window_secs, ..
                } => Some(Arc::new(Limiter::new(max, window_secs))),
                _ => None,
            })
            .collect();
        Ok(Self {
            policy,
            stages,
            ids,
            limiters,
            clock: Arc::new(SystemClock),
        })
    }

    /// Parses, validates and compiles a JSON policy.
    pub fn from_json_str(text: &str) -> Result<Self, PolicyErrors> {
        Self::new(Policy::from_json_str(text)?)
    }

    /// The embedded [`DEFAULT_POLICY`](crate::DEFAULT_POLICY), compiled.
    pub fn default_policy() -> Result<Self, PolicyErrors> {
        Self::from_yaml_str(crate::DEFAULT_POLICY)
    }

    /// Parses, validates and compiles a YAML policy.
    pub fn from_yaml_str(text: &str) -> Result<Self, PolicyErrors> {
        Self::new(Policy::from_yaml_str(text)?)
    }

    /// Reads, validates and compiles a policy file (`.json`, `.yaml`, `.yml`).
    pub fn from_path(path: impl AsRef<std::path::Path>) -> Result<Self, PolicyErrors> {
        Self::new(Policy::from_path(path)?)
    }

    /// Uses `clock` for rate limits instead of the system clock.
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// The policy this engine evaluates.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The checks a request selects at its stage, in policy order, and how
    /// many there are; `checks` restrictions are resolved against the policy.
    /// The checks that run for a request at its stage: [`Engine::selected`]
    /// with every `when` evaluated.
    #[expect(
        clippy::indexing_slicing,
        reason = "check and stage indices come from the policy this engine was built from; each table holds one entry per check or stage"
    )]
    pub(crate) fn active(
        &self,
        request: &CheckRequest,
        stage: Stage,
    ) -> Result<Vec<bool>, RequestError> {
        let mut active = self.selected(request, stage)?;
        let mut bindings = None;
        for (c, on) in active.iter_mut().enumerate() {
            if !*on {
                continue;
            }
            if let Some(when) = &self.policy.compiled[c].when {
                let b = bindings
                    .get_or_insert_with(|| crate::condition::Bindings::for_request(request));
                *on = when.holds(b);
            }
        }
        Ok(active)
    }

    #[expect(
        clippy::indexing_slicing,
        reason = "check and stage indices come from the policy this engine was built from; each table holds one entry per check or stage"
    )]
    pub(crate) fn selected(
        &self,
        request: &CheckRequest,
        stage: Stage,
    ) -> Result<Vec<bool>, RequestError> {
        let mut active = vec![false; self.policy.checks.len()];
        let data = &self.stages[stage_index(stage)];
        if request.restricts_checks() {
            let mut wanted = vec![false; self.policy.checks.len()];
            let mut problems = Vec::new();
            for (i, id) in request.checks.iter().flatten().enumerate() {
                match self.ids.get(id) {
                    Some(&c) => wanted[c as usize] = true,
                    None => {
                        let mut p = String::from("/checks");
                        pointer::push_index(&mut p, i);
                        problems.push(palisade_protocol::Problem {
                            pointer: p,
                            message: format!(
                                "unknown check id `{id}`; the policy has no such check"
                            ),
                        });
                    }
                }
            }
            if !problems.is_empty() {
                return Err(RequestError::Invalid(problems));
            }
            for &c in &data.checks {
                active[c as usize] = wanted[c as usize];
            }
        } else {
            for &c in &data.checks {
                active[c as usize] = true;
            }
        }
        Ok(active)
    }
}
