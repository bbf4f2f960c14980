//! [`Engine`]: a policy compiled into per-stage matchers, ready to evaluate.

use std::collections::HashMap;

use palisade_protocol::{CheckRequest, Stage, pointer};

use std::sync::Arc;

use crate::condition::Condition;
use crate::error::{PolicyError, PolicyErrors, RequestError};
use crate::pattern;
use crate::policy::{CheckKind, Policy};
use crate::ratelimit::{Clock, Limiter, SystemClock};
use crate::scan::{MatcherBuilder, StageMatcher};
use crate::schema::ArgSchema;
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
    pub(crate) stream: std::sync::OnceLock<Result<crate::scan::stream::StreamAutomaton, String>>,
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
    /// Per check (policy order): what evaluation needs beyond the matchers.
    pub(crate) extras: Vec<Extra>,
    pub(crate) clock: Arc<dyn Clock>,
}

/// The compiled parts of one check that are not in a stage matcher.
#[derive(Clone, Debug, Default)]
pub(crate) struct Extra {
    /// The check's `when`.
    pub(crate) when: Option<Arc<dyn Condition>>,
    /// A `condition` check's expression.
    pub(crate) condition: Option<Arc<dyn Condition>>,
    /// A `rate_limit` check's counters.
    pub(crate) limiter: Option<Arc<Limiter>>,
    /// A `schema` check's tools and schema.
    pub(crate) schema: Option<(ToolMatcher, ArgSchema)>,
    /// A `path` or `workspace` check.
    pub(crate) files: Option<crate::file_check::FileCheck>,
    /// A `command` check.
    pub(crate) command: Option<crate::command_check::CommandCheck>,
}

impl Engine {
    /// Compiles a validated policy.
    ///
    /// Fails only when a combined automaton exceeds its size limit; the error
    /// names the check.
    pub fn new(policy: Policy) -> Result<Self, PolicyErrors> {
        let mut errors = Vec::new();
        let mut stages = Vec::with_capacity(Stage::ALL.len());
        for &stage in Stage::ALL {
            let mut checks = Vec::new();
            let mut matcher = MatcherBuilder::default();
            let mut has_text = false;
            let mut tools = ToolMatcherBuilder::default();
            for (i, check) in policy.checks.iter().enumerate() {
                if !check.enabled || !check.stages.contains(&stage) {
                    continue;
                }
                let ci = i as u32;
                checks.push(ci);
                let ptr = format!("/checks/{i}");
                match &check.kind {
                    CheckKind::Regex { patterns } => {
                        for (j, p) in patterns.iter().enumerate() {
                            match pattern::parse(p) {
                                Ok(hir) => matcher.add_pattern(ci, hir),
                                Err(e) => {
                                    errors.push(PolicyError::new(format!("{ptr}/patterns/{j}"), e))
                                }
                            }
                            has_text = true;
                        }
                    }
                    CheckKind::Blocklist {
                        words,
                        case_sensitive,
                        whole_words,
                    } => {
                        for w in words {
                            matcher.add_word(ci, w, *case_sensitive, *whole_words);
                        }
                        has_text = true;
                    }
                    CheckKind::ToolPattern { tools: globs } => {
                        for (j, g) in globs.iter().enumerate() {
                            if let Err(e) = tools.add(ci, g) {
                                errors.push(PolicyError::new(format!("{ptr}/tools/{j}"), e));
                            }
                        }
                    }
                    CheckKind::Secrets { detectors } => {
                        for (i, d) in crate::detect::SECRETS.iter().enumerate() {
                            if detectors.is_empty() || detectors.iter().any(|x| x == d.id) {
                                add_detector(
                                    &mut matcher,
                                    ci,
                                    crate::detect::Kind::Secret,
                                    i,
                                    d,
                                    &mut errors,
                                );
                            }
                        }
                        has_text = true;
                    }
                    CheckKind::Pii { entities } => {
                        for (i, d) in crate::detect::PII.iter().enumerate() {
                            if entities.is_empty() || entities.iter().any(|x| x == d.id) {
                                add_detector(
                                    &mut matcher,
                                    ci,
                                    crate::detect::Kind::Pii,
                                    i,
                                    d,
                                    &mut errors,
                                );
                            }
                        }
                        has_text = true;
                    }
                    CheckKind::Condition { .. }
                    | CheckKind::RateLimit { .. }
                    | CheckKind::Schema { .. }
                    | CheckKind::Path { .. }
                    | CheckKind::Workspace { .. }
                    | CheckKind::LlmJudge { .. }
                    | CheckKind::Mcp { .. }
                    | CheckKind::Moderation { .. }
                    | CheckKind::Command { .. } => {}
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
            stages.push(StageData {
                checks,
                matcher,
                tools,
                stream: std::sync::OnceLock::new(),
            });
        }
        if !errors.is_empty() {
            return Err(PolicyErrors { errors });
        }
        let ids = policy
            .checks
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i as u32))
            .collect();
        let mut extras = Vec::with_capacity(policy.checks.len());
        for (i, check) in policy.checks.iter().enumerate() {
            match compile_extra(check) {
                Ok(x) => extras.push(x),
                Err((field, e)) => {
                    errors.push(PolicyError::new(format!("/checks/{i}/{field}"), e));
                    extras.push(Extra::default());
                }
            }
        }
        let engine = Self {
            policy,
            stages,
            ids,
            extras,
            clock: Arc::new(SystemClock),
        };
        // Streams are scanned at these stages: a policy whose stream automaton
        // cannot be built is refused now, not when a stream starts.
        for stage in [Stage::Input, Stage::Output] {
            let data = &engine.stages[stage_index(stage)];
            if data.matcher.is_none() {
                continue;
            }
            let built =
                crate::scan::stream::StreamAutomaton::build(&data.checks, &engine.policy.checks);
            if let Err(e) = &built {
                errors.push(PolicyError::new("/checks", format!("stage `{stage}`: {e}")));
            }
            let _ = data.stream.set(built);
        }
        if !errors.is_empty() {
            return Err(PolicyErrors { errors });
        }
        Ok(engine)
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
            if let Some(when) = &self.extras[c].when {
                let b = bindings
                    .get_or_insert_with(|| crate::condition::Bindings::new(&request_json(request)));
                *on = when.holds(b);
            }
        }
        Ok(active)
    }

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

/// Compiles what a check needs beyond the stage matchers; errors name the field.
fn compile_extra(check: &crate::policy::Check) -> Result<Extra, (&'static str, String)> {
    let mut extra = Extra::default();
    if let Some(when) = &check.when {
        extra.when = Some(crate::condition::compile(when).map_err(|e| ("when", e))?);
    }
    match &check.kind {
        CheckKind::Condition { expr } => {
            extra.condition = Some(crate::condition::compile(expr).map_err(|e| ("expr", e))?);
        }
        CheckKind::RateLimit {
            max, window_secs, ..
        } => {
            extra.limiter = Some(Arc::new(Limiter::new(*max, *window_secs)));
        }
        CheckKind::Schema { tools, schema } => {
            let mut b = ToolMatcherBuilder::default();
            for g in tools {
                b.add(0, g).map_err(|e| ("tools", e))?;
            }
            let matcher = b
                .build()
                .map_err(|e| ("tools", e))?
                .ok_or(("tools", "no tools".to_owned()))?;
            let schema = crate::schema::compile(schema).map_err(|e| ("schema", e))?;
            extra.schema = Some((matcher, schema));
        }
        CheckKind::Path {
            paths,
            except,
            operations,
            tools,
            arguments,
        } => {
            let rules = crate::paths::PathRules::new(paths, except).map_err(|e| ("paths", e))?;
            extra.files = Some(crate::file_check::FileCheck::new(
                crate::file_check::Rule::Paths(Box::new(rules)),
                operations,
                tools,
                arguments,
            )?);
        }
        CheckKind::Command { commands, tools } => {
            extra.command = Some(crate::command_check::CommandCheck::new(commands, tools)?);
        }
        CheckKind::Workspace {
            operations,
            tools,
            arguments,
        } => {
            extra.files = Some(crate::file_check::FileCheck::new(
                crate::file_check::Rule::Workspace,
                operations,
                tools,
                arguments,
            )?);
        }
        _ => {}
    }
    Ok(extra)
}

/// The request as CEL sees it: the v1 JSON, with the stage filled in.
pub(crate) fn request_json(request: &CheckRequest) -> serde_json::Value {
    let mut v = serde_json::to_value(request).unwrap_or(serde_json::Value::Null);
    if let Some(obj) = v.as_object_mut() {
        obj.insert(
            "stage".into(),
            serde_json::Value::from(request.effective_stage().as_str()),
        );
        // The protocol's defaults, so that expressions see them (SPEC §2.1).
        if let Some(action) = obj.get_mut("action").and_then(|a| a.as_object_mut()) {
            action
                .entry("stakes")
                .or_insert_with(|| serde_json::Value::from("medium"));
        }
    }
    v
}

/// Adds a built-in detector's pattern to a stage matcher.
fn add_detector(
    matcher: &mut MatcherBuilder,
    check: u32,
    kind: crate::detect::Kind,
    index: usize,
    detector: &crate::detect::Detector,
    errors: &mut Vec<PolicyError>,
) {
    match pattern::parse(detector.pattern) {
        Ok(hir) => matcher.add_detector(
            check,
            hir,
            crate::detect::label(kind, index),
            detector.validate,
        ),
        Err(e) => errors.push(PolicyError::new(
            "/checks",
            format!("built-in detector `{}`: {e}", detector.id),
        )),
    }
}
