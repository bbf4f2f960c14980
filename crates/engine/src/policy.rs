//! The policy format: what checks exist, where they run and what a hit does.
//!
//! A [`Policy`] that exists is valid: it is only made by the loaders here,
//! which report every problem at once and never return half a policy.

mod json_schema;
pub(crate) mod kinds;
mod lint;
mod load;
pub(crate) mod read;

use palisade_protocol::{FindingAction, Mode, Severity, Stage};

pub use json_schema::{SCHEMA_ID, json_schema};
pub use kinds::MODERATION_CATEGORIES;

/// A validated policy, compiled: reading a policy compiles its patterns,
/// globs, expressions and schemas, and an [`Engine`](crate::Engine) is built
/// from those.
#[derive(Clone, Debug)]
pub struct Policy {
    pub(crate) mode: Mode,
    pub(crate) checks: Vec<Check>,
    /// Per check, in policy order: what it compiled to.
    pub(crate) compiled: Vec<kinds::Compiled>,
    /// Every stage of the policy is known to build: it is the embedded
    /// default policy, which tests build whole. A lazy engine
    /// ([`Engine::lazy`](crate::Engine::lazy)) of such a policy builds each
    /// glob set when a request first asks it, not with its stage.
    pub(crate) known_to_build: bool,
}

/// Two policies are equal when they say the same (what they compiled to
/// follows from that).
impl PartialEq for Policy {
    fn eq(&self, other: &Self) -> bool {
        self.mode == other.mode && self.checks == other.checks
    }
}

/// One validated check.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Check {
    /// Stable, unique id (default `<type>-<index>`).
    pub id: String,
    /// Human-readable name.
    pub name: Option<String>,
    /// The stages the check runs at, in the order given.
    pub stages: Vec<Stage>,
    /// What the check matches.
    pub kind: CheckKind,
    /// What a hit does.
    pub on_fail: OnFail,
    /// How serious a hit is.
    pub severity: Severity,
    /// The finding's message.
    pub message: Option<String>,
    /// How to resolve a hit.
    pub suggestion: Option<String>,
    /// Text shown instead of blocked output, or the redaction placeholder.
    pub replacement: Option<String>,
    /// Whether the check runs at all.
    pub enabled: bool,
    /// What a failing async check does (`allow`: fail open).
    pub on_error: OnError,
    /// A CEL condition that must hold for the check to run.
    pub when: Option<String>,
}

/// What a check matches.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CheckKind {
    /// Any of the patterns matches any scanned string.
    Regex {
        /// Regular expressions (Rust `regex` syntax).
        patterns: Vec<String>,
    },
    /// Any of the words or phrases occurs in any scanned string.
    Blocklist {
        /// Words and phrases, matched as substrings.
        words: Vec<String>,
        /// Match case exactly (default: ASCII letters match either case, other letters by Unicode simple case folding).
        case_sensitive: bool,
        /// Only match when no word character touches either end of the occurrence.
        whole_words: bool,
    },
    /// The tool's name matches any of the globs.
    ToolPattern {
        /// Globs over the tool name (`*`, `?`, `[…]`).
        tools: Vec<String>,
    },
    /// A CEL expression over the request is true.
    Condition {
        /// The expression.
        expr: String,
    },
    /// More than `max` requests in `window_secs` for one key.
    RateLimit {
        /// Requests allowed in the window.
        max: u32,
        /// The window's length in seconds.
        window_secs: u64,
        /// What the key is made of (`tenant`, `agent`, `session`, `tool`); empty: one key for all.
        per: Vec<String>,
    },
    /// A file target matches the path rules, for the listed operations.
    Path {
        /// Globs of protected paths.
        paths: Vec<String>,
        /// Globs that are not protected even when `paths` match (they win).
        except: Vec<String>,
        /// Operations the rule applies to (empty: all).
        operations: Vec<String>,
        /// At `tool_use`: the tools whose arguments name files (empty: every tool).
        tools: Vec<String>,
        /// At `tool_use`: the argument names that hold paths (empty: the usual ones).
        arguments: Vec<String>,
    },
    /// A file target resolves outside the workspace root.
    Workspace {
        /// Operations the rule applies to (empty: `write` and `delete`).
        operations: Vec<String>,
        /// At `tool_use`: the tools whose arguments name files (empty: every tool).
        tools: Vec<String>,
        /// At `tool_use`: the argument names that hold paths (empty: the usual ones).
        arguments: Vec<String>,
    },
    /// A command in a shell line matches a pattern.
    Command {
        /// Patterns over a command's words (empty: the built-in dangerous set).
        commands: Vec<String>,
        /// At `tool_use`: the tools whose arguments are shell lines (empty: the usual shell tools).
        tools: Vec<String>,
    },
    /// A built-in credential detector fires.
    Secrets {
        /// Detector ids (empty: every built-in secret detector).
        detectors: Vec<String>,
    },
    /// A built-in personal-data detector fires.
    Pii {
        /// Entities (empty: all of them).
        entities: Vec<String>,
    },
    /// A utility LLM, given the prompt, says the request should be blocked.
    LlmJudge {
        /// The instruction the judge applies (`Block requests to delete data.`).
        prompt: String,
    },
    /// An external MCP guardrail tool says the request should be blocked.
    Mcp {
        /// The server's name in the service config's `mcp_servers`.
        server: String,
        /// The tool to call.
        tool: String,
    },
    /// A moderation model scores a requested category at or above the threshold.
    Moderation {
        /// Categories (empty: all of [`MODERATION_CATEGORIES`]).
        categories: Vec<String>,
        /// Score from 0 to 100 at which a category counts.
        threshold: u8,
    },
    /// A matching tool's arguments do not validate against a JSON Schema.
    Schema {
        /// Globs over the tool name.
        tools: Vec<String>,
        /// The JSON Schema for the arguments.
        schema: serde_json::Value,
    },
    /// A session flow rule: a sink (a tool call or action that acts
    /// outside) carries a value that only untrusted content supplied
    /// (`provenance`), or comes after sensitive content (`taint`).
    Flow {
        /// `provenance` or `taint`.
        rule: String,
        /// Globs of the sink tools (empty: the built-in list).
        tools: Vec<String>,
        /// Command patterns that make a shell line a sink (empty: none).
        commands: Vec<String>,
        /// Resource kinds of the actions that are sinks (`network`, …).
        actions: Vec<String>,
        /// Globs of the argument names whose whole value is compared
        /// (empty: the built-in list).
        arguments: Vec<String>,
        /// Globs of the tools whose outputs count as the user's own.
        trusted_tools: Vec<String>,
        /// Where an untrusted value counts: `text` (free text) or `any`.
        from: String,
        /// The shortest value compared, in characters of its compact form.
        min_length: u64,
        /// `taint`: the ids of the checks whose findings are sensitive.
        sensitive: Vec<String>,
        /// `taint`: only when the sink carries the sensitive content.
        carry: bool,
        /// `provenance`: the account of a bill the user asked to pay counts
        /// as the user's.
        documents: bool,
        /// `provenance`: the effect categories (`send`, `delete`, …) whose
        /// calls after untrusted text need a request of the user asking
        /// for them (empty: none).
        intent: Vec<String>,
        /// `provenance`: after a tool output holding instructions
        /// addressed to the agent, every call of a side effect is judged,
        /// asked for by the user or not.
        instructions: bool,
    },
    /// A sending tool's recipient, address or account argument names one
    /// that `deny` matches, or that no `allow` entry of its kind matches.
    Recipients {
        /// Address globs and account patterns that may receive.
        allow: Vec<String>,
        /// Address globs and account patterns that may not receive.
        deny: Vec<String>,
        /// Globs of the sending tools (empty: the flow rule's sink tools).
        tools: Vec<String>,
        /// Globs of the recipient argument names (empty: the built-in list).
        arguments: Vec<String>,
    },
    /// A scanned string holds instructions addressed to the model
    /// ([`crate::addressed_instructions`]).
    AddressedInstructions {},
}

/// A check type: what a policy's `type` names, with what the type takes
/// (its own fields), where it runs (its stages) and how (in the engine, or
/// as an async check a runtime calls a service for). The loader, the policy
/// schema and the evaluator all read these answers from here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum CheckType {
    /// `regex`.
    Regex,
    /// `blocklist`.
    Blocklist,
    /// `tool_pattern`.
    ToolPattern,
    /// `condition`.
    Condition,
    /// `rate_limit`.
    RateLimit,
    /// `schema`.
    Schema,
    /// `path`.
    Path,
    /// `workspace`.
    Workspace,
    /// `secrets`.
    Secrets,
    /// `pii`.
    Pii,
    /// `command`.
    Command,
    /// `llm_judge`.
    LlmJudge,
    /// `mcp`.
    Mcp,
    /// `moderation`.
    Moderation,
    /// `flow`.
    Flow,
    /// `recipients`.
    Recipients,
    /// `addressed_instructions`.
    AddressedInstructions,
}

/// Every answer here comes from the type's declaration in its module
/// (`policy/kinds/`): one table, `kinds::check_types!`, lists them.
impl CheckType {
    /// Every type, in the order the policy reference lists them.
    pub const ALL: &'static [CheckType] = kinds::ALL;

    /// The type's name in a policy, such as `regex`.
    pub const fn name(self) -> &'static str {
        kinds::spec(self).name
    }

    /// The type a policy names; `None` for a name no type has.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.name() == name)
    }

    /// The fields of this type, besides those every check has.
    pub fn fields(self) -> impl Iterator<Item = &'static str> {
        kinds::spec(self).fields.iter().map(|f| f.name)
    }

    /// The stages the type runs at.
    pub const fn stages(self) -> &'static [Stage] {
        kinds::spec(self).stages
    }

    /// Whether the check calls a service and so runs in a `Guard`, after
    /// the deterministic checks (`llm_judge`, `mcp`, `moderation`); only
    /// these take `on_error`.
    pub fn is_async(self) -> bool {
        kinds::spec(self).runs == kinds::Runs::Async
    }

    /// The list field of a check of this type whose entries each match on
    /// their own: `patterns`, `words`, `tools` (`tool_pattern`), `paths`,
    /// `commands`, `detectors`, `entities`, `categories`. Tools that name
    /// the shell or file tools a check looks at are not such a field.
    ///
    /// ```
    /// use palisade_engine::CheckType;
    /// assert_eq!(CheckType::Blocklist.entry_field(), Some("words"));
    /// assert_eq!(CheckType::Condition.entry_field(), None);
    /// ```
    pub const fn entry_field(self) -> Option<&'static str> {
        kinds::spec(self).entry_field
    }

    /// The entries a check of this type has when its [`entry_field`](Self::entry_field)
    /// is left out: every detector id for `secrets`, every entity for
    /// `pii`, every built-in dangerous command (as `@id`) for `command`,
    /// every category for `moderation`; none for the others, whose list is
    /// required.
    ///
    /// ```
    /// use palisade_engine::CheckType;
    /// assert!(CheckType::Command.default_entries().contains(&"@rm-recursive-force".to_owned()));
    /// assert!(CheckType::Secrets.default_entries().contains(&"aws_access_key_id".to_owned()));
    /// ```
    pub fn default_entries(self) -> Vec<String> {
        (kinds::spec(self).default_entries)()
    }

    /// Whether a hit has a span of text to replace (`on_fail: redact`).
    pub const fn can_redact(self) -> bool {
        kinds::spec(self).can_redact
    }

    /// What a hit does when the check gives no `on_fail`: `ask` for a
    /// `flow` rule (a human can tell whether the user meant the value; an
    /// `ask` is a `block` where nobody can be asked), `block` otherwise.
    pub const fn default_on_fail(self) -> OnFail {
        kinds::spec(self).default_on_fail
    }

    /// A finding's message when a check of this type gives none.
    pub(crate) const fn default_message(self) -> &'static str {
        kinds::spec(self).message
    }
}

impl std::fmt::Display for CheckType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl CheckKind {
    /// The check's type.
    pub fn check_type(&self) -> CheckType {
        kinds::type_of(self)
    }

    /// The type's name in a policy, such as `regex`.
    pub fn type_name(&self) -> &'static str {
        self.check_type().name()
    }

    /// Whether the check calls a service and so runs in a `Guard`, after
    /// the deterministic checks (`llm_judge`, `mcp`, `moderation`).
    pub fn is_async(&self) -> bool {
        self.check_type().is_async()
    }
}

/// What an async check does when its service fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum OnError {
    /// Fail open: the request goes on, with a `fail_open` warning (the default).
    #[default]
    Allow,
    /// Fail closed: the request is blocked with reason `guardrail.check_failed`.
    Block,
}

/// What a hit does to the decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[non_exhaustive]
pub enum OnFail {
    /// Block the request (the default).
    #[default]
    Block,
    /// Ask a human; blocks when the request is not interactive.
    Ask,
    /// Replace the matched text and let the request through as `modify`.
    Redact,
    /// Report a warning.
    Warn,
    /// Only record the hit.
    Log,
}

impl OnFail {
    /// Every value.
    pub const ALL: &'static [OnFail] = &[
        OnFail::Block,
        OnFail::Ask,
        OnFail::Redact,
        OnFail::Warn,
        OnFail::Log,
    ];

    /// The value's spelling in a policy.
    pub fn as_str(self) -> &'static str {
        match self {
            OnFail::Block => "block",
            OnFail::Ask => "ask",
            OnFail::Redact => "redact",
            OnFail::Warn => "warn",
            OnFail::Log => "log",
        }
    }

    pub(crate) fn from_name(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.as_str() == s)
    }

    /// The finding action a hit gets in a mode (advisory turns everything into `log`).
    pub fn effective(self, mode: Mode) -> FindingAction {
        if mode == Mode::Advisory {
            return FindingAction::Log;
        }
        match self {
            OnFail::Block => FindingAction::Block,
            OnFail::Ask => FindingAction::Ask,
            OnFail::Redact => FindingAction::Redact,
            OnFail::Warn => FindingAction::Warn,
            OnFail::Log => FindingAction::Log,
        }
    }
}

impl Policy {
    /// The text pieces of the checks `checks` names (indices into
    /// [`Policy::checks`]), each with its index: what a stage scans.
    pub(crate) fn texts<'a>(
        &'a self,
        checks: &'a [u32],
    ) -> impl Iterator<Item = (u32, &'a [crate::scan::Text])> + 'a {
        checks
            .iter()
            .filter_map(|&c| match &self.compiled.get(c as usize)?.form {
                kinds::Form::Text(texts) => Some((c, &texts[..])),
                _ => None,
            })
    }

    /// The policy's mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The checks, in policy order.
    pub fn checks(&self) -> &[Check] {
        &self.checks
    }

    /// Parses and validates a JSON policy.
    pub fn from_json_str(text: &str) -> Result<Self, crate::PolicyErrors> {
        load::from_json_str(text)
    }

    /// The embedded [`DEFAULT_POLICY`](crate::DEFAULT_POLICY), parsed and
    /// validated.
    ///
    /// ```
    /// use palisade_engine::{Engine, Policy};
    ///
    /// let engine = Engine::new(Policy::default_policy()?)?;
    /// # let _ = engine;
    /// # Ok::<(), palisade_engine::PolicyErrors>(())
    /// ```
    pub fn default_policy() -> Result<Self, crate::PolicyErrors> {
        let mut policy = load::embedded(crate::DEFAULT_POLICY_JSON)?;
        policy.known_to_build = true;
        Ok(policy)
    }

    /// Parses and validates a YAML policy.
    pub fn from_yaml_str(text: &str) -> Result<Self, crate::PolicyErrors> {
        load::from_yaml_str(text)
    }

    /// Validates a policy already parsed into JSON values.
    pub fn from_value(value: &serde_json::Value) -> Result<Self, crate::PolicyErrors> {
        load::from_value(value)
    }

    /// Reads a policy file: YAML for `.yaml`/`.yml`, JSON for `.json`.
    pub fn from_path(path: impl AsRef<std::path::Path>) -> Result<Self, crate::PolicyErrors> {
        load::from_path(path.as_ref())
    }

    /// The effective policy of a policy file, as a document: its
    /// `extends` resolved (the extended checks, replaced by id, added to,
    /// less those disabled), once the whole is known to be valid. What
    /// `palisade policy show` prints.
    pub fn effective_document(
        path: impl AsRef<std::path::Path>,
    ) -> Result<serde_json::Value, crate::PolicyErrors> {
        load::effective_document(path.as_ref())
    }

    /// The places in the policy file at `path` of `problems` found in it
    /// (its [`warnings`](Policy::warnings)): one each, in order; empty when
    /// the file cannot be read or parsed again.
    pub fn places(
        path: impl AsRef<std::path::Path>,
        problems: &[crate::PolicyError],
    ) -> Vec<crate::Place> {
        load::places_of(path.as_ref(), problems)
    }

    /// Reads a policy file as [`Policy::from_path`] does, and returns the
    /// text it was read from too (what a service shows as the policy in
    /// force: exactly the file that was loaded, comments included).
    pub fn from_path_with_text(
        path: impl AsRef<std::path::Path>,
    ) -> Result<(Self, String), crate::PolicyErrors> {
        load::from_path_text(path.as_ref())
    }
}
