//! One module per check type. Each reads the type's own fields from a policy
//! and compiles them — once, while the policy is read: what it compiles is
//! what the engine evaluates — describes those fields for the policy schema,
//! and, for a check that looks at the request as a whole, evaluates it. The
//! type's name, field names, stages and flags are [`CheckType`]'s.
//!
//! Text checks (`regex`, `blocklist`, `secrets`, `pii`) compile to [`Text`]
//! pieces that the engine joins into one automaton per stage; `tool_pattern`
//! compiles to globs joined into one matcher per stage; the async types
//! compile to nothing (their services answer them).

mod addressed_instructions;
mod blocklist;
mod command;
mod condition;
mod files;
pub(crate) mod flow;
mod llm_judge;
mod mcp;
mod moderation;
mod path;
pub(crate) mod pii;
pub(crate) mod rate_limit;
mod recipients;
mod regex;
mod schema;
pub(crate) mod secrets;
mod tool_pattern;
mod workspace;

use std::fmt;
use std::sync::Arc;

use globset::Glob;
use palisade_protocol::{CheckRequest, Stage};
use serde_json::{Map, Value, json};

use super::read::Reader;
use super::{CheckKind, CheckType, OnFail};
use crate::condition::{Bindings, Condition};
use crate::limits::MAX_ENTRIES_PER_CHECK;
use crate::scan::{Detectors, Text};
use crate::time::window::Limiter;
use crate::tools::ToolMatcher;

pub use moderation::CATEGORIES as MODERATION_CATEGORIES;

/// A check compiled: what evaluation needs, made once when the policy is read.
#[derive(Clone, Debug)]
pub(crate) struct Compiled {
    /// The check's `when`.
    pub(crate) when: Option<Arc<dyn Condition>>,
    /// What the check's own fields compiled to.
    pub(crate) form: Form,
}

/// What a check's own fields compile to.
#[derive(Clone, Debug)]
pub(crate) enum Form {
    /// Pieces of the stage's text automaton.
    Text(Arc<[Text]>),
    /// Globs of the stage's tool-name matcher.
    Tools(Arc<[Glob]>),
    /// A test of the request as a whole.
    Whole(Arc<dyn Whole>),
    /// Nothing: a service answers the check.
    Async,
}

/// A check that tests the request as a whole rather than its strings.
pub(crate) trait Whole: fmt::Debug + Send + Sync {
    /// What the check finds first in the request, if anything.
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found>;

    /// Builds what the check defers until a stage that evaluates it is
    /// built (its glob sets: commands, paths, tools, a flow's sinks); an
    /// error says why it cannot be.
    fn build(&self) -> Result<(), String> {
        Ok(())
    }
}

/// What a [`Whole`] check is evaluated against.
#[derive(Debug)]
pub(crate) struct Context<'a> {
    /// The request.
    pub(crate) request: &'a CheckRequest,
    /// Its stage.
    pub(crate) stage: Stage,
    /// The request as CEL sees it, built on first use and shared by the
    /// stage's checks.
    bindings: Option<Bindings>,
    /// The counters of the rate limit being evaluated.
    pub(crate) limiter: Option<&'a Limiter>,
    /// Whether the rate limit being evaluated is over, as a runtime that
    /// keeps the counters elsewhere answered ([`crate::Engine::begin_with_limits`]).
    pub(crate) limit_over: Option<bool>,
    /// The request's session so far, for flow checks (absent without a
    /// `sessionId`, or before its first step).
    pub(crate) session: Option<&'a crate::flow::session::Session>,
    /// The engine clock's time.
    pub(crate) now_millis: u64,
    /// Whether a tool matcher names the request's tool, by matcher
    /// ([`ToolMatcher::key`]), as checks asked ([`Context::names`]).
    named: std::cell::RefCell<Vec<(usize, bool)>>,
    /// The expressions of the check being evaluated that could not be
    /// evaluated on this request, each with why.
    pub(crate) condition_errors: Vec<(String, String)>,
}

impl<'a> Context<'a> {
    pub(crate) fn new(request: &'a CheckRequest, stage: Stage, now_millis: u64) -> Self {
        Self {
            request,
            stage,
            bindings: None,
            limiter: None,
            limit_over: None,
            session: None,
            now_millis,
            named: std::cell::RefCell::new(Vec::new()),
            condition_errors: Vec::new(),
        }
    }

    /// Whether `tools` names the request's tool (`false` without one). The
    /// checks of a stage share matchers (the shell tools of `command` and
    /// file checks): the tool's name is matched once per matcher.
    pub(crate) fn names(&self, tools: &ToolMatcher) -> bool {
        let Some(tool) = &self.request.tool else {
            return false;
        };
        let key = tools.key();
        if let Some(&(_, named)) = self.named.borrow().iter().find(|&&(k, _)| k == key) {
            return named;
        }
        let named = tools.names(&tool.name);
        self.named.borrow_mut().push((key, named));
        named
    }

    /// The request as CEL sees it.
    pub(crate) fn bindings(&mut self) -> &Bindings {
        self.bindings
            .get_or_insert_with(|| Bindings::for_request(self.request))
    }
}

/// Where a [`Whole`] check found what it looks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// The JSON pointer of the field; empty for the request as a whole.
    pub(crate) pointer: String,
    /// What was found there, when the pointer alone does not say.
    pub(crate) detail: Option<String>,
    /// The earlier step of the session the finding's value came from.
    pub(crate) source: Option<palisade_protocol::Source>,
    /// Whether `detail` is the whole message when the check sets none of
    /// its own: it says why the check fired when that is not what the
    /// check's default message says (a path that cannot be resolved is
    /// not a protected file).
    pub(crate) own_message: bool,
}

impl Found {
    /// The request as a whole.
    pub(crate) fn request() -> Self {
        Self {
            pointer: String::new(),
            detail: None,
            source: None,
            own_message: false,
        }
    }
}

/// A check type, declared once in its module: everything the loader, the
/// policy schema, the evaluator and a runtime know of it.
#[derive(Clone, Copy)]
pub(crate) struct Spec {
    /// The type's name in a policy, such as `regex`.
    pub(crate) name: &'static str,
    /// Its own fields (the loader reads the common ones).
    pub(crate) fields: &'static [Field],
    /// The stages it runs at.
    pub(crate) stages: &'static [Stage],
    /// Where it runs.
    pub(crate) runs: Runs,
    /// Its list field whose entries each match on their own, if any.
    pub(crate) entry_field: Option<&'static str>,
    /// Whether a hit has a span of text to replace (`on_fail: redact`).
    pub(crate) can_redact: bool,
    /// What a hit does when the check gives no `on_fail`.
    pub(crate) default_on_fail: OnFail,
    /// A finding's message when the check gives none.
    pub(crate) message: &'static str,
    /// Reads and compiles the type's own fields; `None` when a problem was
    /// reported.
    pub(crate) read: ReadFn,
    /// The entries of [`Spec::entry_field`] when it is left out.
    pub(crate) default_entries: fn() -> Vec<String>,
}

/// How a type reads and compiles its own fields from a check's object at
/// a pointer.
pub(crate) type ReadFn = fn(&mut Reader, &Map<String, Value>, &str) -> Option<(CheckKind, Form)>;

/// Where a check type runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Runs {
    /// In the engine, deterministically.
    Engine,
    /// In a `Guard`, which calls a service, after the deterministic checks.
    Async,
}

/// One of a type's own fields.
#[derive(Clone, Copy)]
pub(crate) struct Field {
    /// Its name in a policy.
    pub(crate) name: &'static str,
    /// Whether a check of the type must give it.
    pub(crate) required: bool,
    /// Its JSON Schema, for `schemas/policy.v1.json`.
    pub(crate) schema: fn() -> Value,
}

/// The table of check types: each variant of [`CheckType`] (and of
/// [`CheckKind`], which has the same names) with the module that declares
/// it. Adding a type is its module and one line here.
macro_rules! check_types {
    ($($variant:ident => $module:ident,)*) => {
        /// Every type, in the order the policy reference lists them.
        pub(crate) const ALL: &[CheckType] = &[$(CheckType::$variant,)*];

        /// What a type is.
        pub(crate) const fn spec(ty: CheckType) -> &'static Spec {
            match ty {
                $(CheckType::$variant => &$module::SPEC,)*
            }
        }

        /// The type of a check.
        pub(crate) fn type_of(kind: &CheckKind) -> CheckType {
            match kind {
                $(CheckKind::$variant { .. } => CheckType::$variant,)*
            }
        }
    };
}

check_types! {
    Regex => regex,
    Blocklist => blocklist,
    ToolPattern => tool_pattern,
    Condition => condition,
    RateLimit => rate_limit,
    Schema => schema,
    Path => path,
    Workspace => workspace,
    Secrets => secrets,
    Pii => pii,
    Command => command,
    LlmJudge => llm_judge,
    Mcp => mcp,
    Moderation => moderation,
    Flow => flow,
    Recipients => recipients,
    AddressedInstructions => addressed_instructions,
}

/// A non-empty list of non-empty strings (the schema of most own fields).
pub(crate) fn entries() -> Value {
    json!({
        "type": "array",
        "minItems": 1,
        "maxItems": MAX_ENTRIES_PER_CHECK,
        "items": { "type": "string", "minLength": 1 },
    })
}

/// A non-empty list of non-empty strings, described.
fn described_entries(description: &str) -> Value {
    let mut schema = entries();
    if let Some(obj) = schema.as_object_mut() {
        obj.insert("description".into(), json!(description));
    }
    schema
}

/// A non-empty list of names from `names`.
fn names(names: &[&str], description: &str) -> Value {
    json!({
        "description": description,
        "type": "array",
        "minItems": 1,
        "items": { "enum": names },
    })
}

/// The text pieces of the built-in detectors `wanted` names (all of them
/// when it is empty); `parsed` holds their patterns, in `all`'s order.
fn detectors(
    kind: crate::detect::Kind,
    all: &'static [crate::detect::Detector],
    family: &'static Detectors,
    wanted: &[String],
) -> Arc<[Text]> {
    all.iter()
        .enumerate()
        .filter(|(_, d)| wanted.is_empty() || wanted.iter().any(|w| w == d.id))
        .map(|(index, detector)| Text::Detector {
            family,
            index,
            label: crate::detect::label(kind, index),
            validate: detector.validate,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::ToolMatcherBuilder;

    fn tools(globs: &[&str]) -> ToolMatcher {
        let mut b = ToolMatcherBuilder::default();
        for g in globs {
            b.add(0, g).unwrap();
        }
        b.finish().unwrap()
    }

    #[test]
    fn a_tool_is_matched_once_per_matcher_as_that_matcher_says() {
        let (shell, files) = (tools(&["bash*", "sh"]), tools(&["read_*"]));
        let line = r#"{"stage": "tool_use", "tool": {"name": "bash_exec"}}"#;
        let request = crate::parse_request(line).unwrap();
        let cx = Context::new(&request, Stage::ToolUse, 0);
        for _ in 0..2 {
            assert!(cx.names(&shell));
            assert!(!cx.names(&files));
            assert!(cx.names(&shell.clone()), "a clone is the same matcher");
        }
        assert_eq!(
            *cx.named.borrow(),
            [(shell.key(), true), (files.key(), false)]
        );

        let other = crate::parse_request(r#"{"stage": "tool_use", "tool": {"name": "read_file"}}"#)
            .unwrap();
        let cx = Context::new(&other, Stage::ToolUse, 0);
        assert!(!cx.names(&shell) && cx.names(&files));
        let none = crate::parse_request(r#"{"stage": "output", "content": "x"}"#).unwrap();
        assert!(!Context::new(&none, Stage::Output, 0).names(&shell));
    }
}
