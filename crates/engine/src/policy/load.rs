//! Reading a policy document (JSON or YAML) into a validated [`Policy`],
//! collecting every problem with its JSON pointer.

use std::collections::HashMap;
use std::path::Path;

use palisade_protocol::{Mode, Severity, Stage, pointer};
use serde_json::{Map, Value};

use super::{Check, CheckKind, CheckType, OnError, OnFail, Policy};
use crate::error::{PolicyError, PolicyErrors};
use crate::limits::*;

/// The categories a `moderation` check can score.
pub const MODERATION_CATEGORIES: &[&str] = &[
    "hate",
    "harassment",
    "self_harm",
    "sexual",
    "violence",
    "illicit",
];

/// The keys a rate limit can count per.
pub(crate) const RATE_KEYS: &[&str] = &["tenant", "agent", "session", "tool"];

/// Largest `max` of a rate limit.
pub(crate) const MAX_RATE: u64 = 1_000_000;
/// Longest rate-limit window: one week.
pub(crate) const MAX_WINDOW_SECS: u64 = 7 * 24 * 3600;

/// The fields every check may have.
pub(crate) const COMMON_FIELDS: &[&str] = &[
    "id",
    "name",
    "stage",
    "type",
    "on_fail",
    "severity",
    "message",
    "suggestion",
    "replacement",
    "enabled",
    "on_error",
    "when",
];

pub(super) fn from_path(path: &Path) -> Result<Policy, PolicyErrors> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        PolicyErrors::one(
            "",
            format!("cannot read policy file `{}`: {e}", path.display()),
        )
    })?;
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("yaml" | "yml") => from_yaml_str(&text),
        Some("json") => from_json_str(&text),
        _ => Err(PolicyErrors::one(
            "",
            format!(
                "cannot tell the format of `{}`: name it `.json`, `.yaml` or `.yml`",
                path.display()
            ),
        )),
    }
}

pub(super) fn from_json_str(text: &str) -> Result<Policy, PolicyErrors> {
    check_size(text)?;
    let value: Value = serde_json::from_str(text)
        .map_err(|e| PolicyErrors::one("", format!("invalid JSON: {e}")))?;
    if let Some(r) = crate::dupkeys::find_repeated(text) {
        return Err(PolicyErrors::one(
            r.pointer,
            format!("key `{}` appears more than once in this object", r.key),
        ));
    }
    from_value(&value)
}

pub(super) fn from_yaml_str(text: &str) -> Result<Policy, PolicyErrors> {
    check_size(text)?;
    let value: Value = serde_yaml_ng::from_str(text)
        .map_err(|e| PolicyErrors::one("", format!("invalid YAML: {e}")))?;
    if let Some(r) = crate::dupkeys::find_repeated_in(serde_yaml_ng::Deserializer::from_str(text)) {
        return Err(PolicyErrors::one(
            r.pointer,
            format!("key `{}` appears more than once in this mapping", r.key),
        ));
    }
    from_value(&value)
}

fn check_size(text: &str) -> Result<(), PolicyErrors> {
    if text.len() > MAX_POLICY_BYTES {
        return Err(PolicyErrors::one(
            "",
            format!(
                "policy is {} bytes; the limit is {MAX_POLICY_BYTES}",
                text.len()
            ),
        ));
    }
    Ok(())
}

pub(super) fn from_value(value: &Value) -> Result<Policy, PolicyErrors> {
    let mut cx = Loader::default();
    let policy = cx.policy(value);
    if cx.errors.is_empty() {
        Ok(policy)
    } else {
        Err(PolicyErrors { errors: cx.errors })
    }
}

#[derive(Default)]
struct Loader {
    errors: Vec<PolicyError>,
    total_entries: usize,
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value as users wrote it: strings in backticks, anything else as JSON.
fn quoted(v: &Value) -> String {
    match v {
        Value::String(s) => format!("`{s}`"),
        other => other.to_string(),
    }
}

fn child(ptr: &str, key: &str) -> String {
    let mut p = ptr.to_owned();
    pointer::push(&mut p, key);
    p
}

fn index(ptr: &str, i: usize) -> String {
    let mut p = ptr.to_owned();
    pointer::push_index(&mut p, i);
    p
}

fn one_of(values: &[&str]) -> String {
    values
        .iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Loader {
    fn err(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.errors.push(PolicyError::new(pointer, message));
    }

    fn policy(&mut self, value: &Value) -> Policy {
        let mut policy = Policy {
            mode: Mode::Active,
            checks: Vec::new(),
        };
        let Some(obj) = value.as_object() else {
            self.err(
                "",
                format!("a policy must be an object, not {}", json_type(value)),
            );
            return policy;
        };
        for key in obj.keys() {
            if !matches!(key.as_str(), "mode" | "checks" | "$schema") {
                self.err(
                    child("", key),
                    format!("unknown field `{key}`; a policy has `mode` and `checks`"),
                );
            }
        }
        if let Some(mode) = obj.get("mode") {
            match mode.as_str() {
                Some("active") => policy.mode = Mode::Active,
                Some("advisory") => policy.mode = Mode::Advisory,
                _ => self.err(
                    "/mode",
                    format!(
                        "unknown mode {}; expected `active` or `advisory`",
                        quoted(mode)
                    ),
                ),
            }
        }
        // No `checks` is no checks: the seed's empty config (`{}`) runs
        // everything as before, allowing it.
        let Some(checks) = obj.get("checks") else {
            return policy;
        };
        let Some(items) = checks.as_array() else {
            self.err(
                "/checks",
                format!("`checks` must be an array, not {}", json_type(checks)),
            );
            return policy;
        };
        if items.len() > MAX_CHECKS {
            self.err(
                "/checks",
                format!(
                    "{} checks; a policy holds at most {MAX_CHECKS}",
                    items.len()
                ),
            );
            return policy;
        }
        let mut ids: HashMap<String, usize> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            let ptr = index("/checks", i);
            let (id, check) = self.check(&ptr, i, item);
            if let Some(id) = id {
                if let Some(first) = ids.get(&id) {
                    let explicit = item.get("id").is_some();
                    let (at, message) = if explicit {
                        (
                            child(&ptr, "id"),
                            format!("duplicate check id `{id}` (first used by /checks/{first})"),
                        )
                    } else {
                        (
                            ptr.clone(),
                            format!(
                                "this check's default id `{id}` is already used by /checks/{first}; give it an `id`"
                            ),
                        )
                    };
                    self.err(at, message);
                } else {
                    ids.insert(id, i);
                }
            }
            if let Some(check) = check {
                policy.checks.push(check);
            }
        }
        if self.total_entries > MAX_ENTRIES_TOTAL {
            self.err(
                "/checks",
                format!(
                    "{} entries over all checks; a policy holds at most {MAX_ENTRIES_TOTAL}",
                    self.total_entries
                ),
            );
        }
        policy
    }

    /// The check's id (when one can be told, for duplicate detection) and
    /// the check (when it has no problem).
    fn check(&mut self, ptr: &str, i: usize, value: &Value) -> (Option<String>, Option<Check>) {
        let Some(obj) = value.as_object() else {
            self.err(
                ptr,
                format!("a check must be an object, not {}", json_type(value)),
            );
            return (None, None);
        };
        let before = self.errors.len();
        let type_names: Vec<&str> = CheckType::ALL.iter().map(|t| t.name()).collect();
        let check_type = match obj.get("type") {
            None => {
                self.err(
                    ptr,
                    format!("missing field `type`; one of {}", one_of(&type_names)),
                );
                None
            }
            Some(Value::String(t)) if CheckType::from_name(t).is_some() => CheckType::from_name(t),
            Some(other) => {
                self.err(
                    child(ptr, "type"),
                    format!(
                        "unknown check type {}; expected one of {}",
                        quoted(other),
                        one_of(&type_names)
                    ),
                );
                None
            }
        };
        let type_fields = check_type.map_or(&[][..], CheckType::fields);
        if let Some(t) = check_type {
            for key in obj.keys() {
                if !COMMON_FIELDS.contains(&key.as_str()) && !type_fields.contains(&key.as_str()) {
                    self.err(
                        child(ptr, key),
                        format!(
                            "unknown field `{key}` for type `{t}`; its own fields are {}",
                            one_of(type_fields)
                        ),
                    );
                }
            }
        }
        let id = match obj.get("id") {
            None => check_type.map(|t| format!("{t}-{i}")),
            Some(v) => self.id(&child(ptr, "id"), v),
        };
        let name = self.text(obj, ptr, "name", MAX_TEXT_BYTES);
        let message = self.text(obj, ptr, "message", MAX_TEXT_BYTES);
        let suggestion = self.text(obj, ptr, "suggestion", MAX_TEXT_BYTES);
        let replacement = self.text(obj, ptr, "replacement", MAX_REPLACEMENT_BYTES);
        let enabled = self.boolean(obj, ptr, "enabled").unwrap_or(true);
        let on_fail = match obj.get("on_fail") {
            None => OnFail::Block,
            Some(v) => match v.as_str().and_then(OnFail::from_name) {
                Some(f) => f,
                None => {
                    let all: Vec<&str> = OnFail::ALL.iter().map(|f| f.as_str()).collect();
                    self.err(
                        child(ptr, "on_fail"),
                        format!(
                            "unknown on_fail {}; expected one of {}",
                            quoted(v),
                            one_of(&all)
                        ),
                    );
                    OnFail::Block
                }
            },
        };
        let severity = match obj.get("severity") {
            None => Severity::Medium,
            Some(v) => match v.as_str().and_then(Severity::from_wire) {
                Some(s) => s,
                None => {
                    let all: Vec<&str> = Severity::ALL.iter().map(|s| s.as_str()).collect();
                    self.err(
                        child(ptr, "severity"),
                        format!(
                            "unknown severity {}; expected one of {}",
                            quoted(v),
                            one_of(&all)
                        ),
                    );
                    Severity::Medium
                }
            },
        };
        let is_async = check_type.is_some_and(CheckType::is_async);
        let on_error = match obj.get("on_error") {
            None => OnError::Allow,
            Some(_) if !is_async => {
                self.err(
                    child(ptr, "on_error"),
                    "`on_error` applies only to async checks (`llm_judge`, `mcp`, `moderation`)",
                );
                OnError::Allow
            }
            Some(v) => match v.as_str() {
                Some("allow") => OnError::Allow,
                Some("block") => OnError::Block,
                _ => {
                    self.err(
                        child(ptr, "on_error"),
                        format!(
                            "unknown on_error {}; expected `allow` (fail open) or `block` (fail closed)",
                            quoted(v)
                        ),
                    );
                    OnError::Allow
                }
            },
        };
        let when = obj
            .get("when")
            .and_then(|v| self.cel(&child(ptr, "when"), "when", v));
        let stages = self.stages(obj, ptr, check_type);
        let kind = match check_type {
            Some(CheckType::Regex) => {
                let patterns = self.entries(obj, ptr, "patterns");
                for (j, p) in patterns.iter().enumerate() {
                    self.regex(&index(&child(ptr, "patterns"), j), p);
                }
                Some(CheckKind::Regex { patterns })
            }
            Some(CheckType::Blocklist) => {
                let words = self.entries(obj, ptr, "words");
                let case_sensitive = self.boolean(obj, ptr, "case_sensitive").unwrap_or(false);
                let whole_words = self.boolean(obj, ptr, "whole_words").unwrap_or(false);
                Some(CheckKind::Blocklist {
                    words,
                    case_sensitive,
                    whole_words,
                })
            }
            Some(CheckType::ToolPattern) => {
                let tools = self.entries(obj, ptr, "tools");
                self.globs(obj, ptr, &tools);
                Some(CheckKind::ToolPattern { tools })
            }
            Some(CheckType::Condition) => match obj.get("expr") {
                None => {
                    self.err(
                        ptr,
                        "missing field `expr` (a CEL expression over `request`)",
                    );
                    None
                }
                Some(v) => self
                    .cel(&child(ptr, "expr"), "expr", v)
                    .map(|expr| CheckKind::Condition { expr }),
            },
            Some(CheckType::RateLimit) => {
                let max = self.count(obj, ptr, "max", MAX_RATE);
                let window_secs = self.count(obj, ptr, "window_secs", MAX_WINDOW_SECS);
                let per = self.rate_keys(obj, ptr);
                match (max, window_secs) {
                    (Some(max), Some(window_secs)) => Some(CheckKind::RateLimit {
                        max: max as u32,
                        window_secs,
                        per,
                    }),
                    _ => None,
                }
            }
            Some(CheckType::Schema) => {
                let tools = self.entries(obj, ptr, "tools");
                self.globs(obj, ptr, &tools);
                match obj.get("schema") {
                    None => {
                        self.err(
                            ptr,
                            "missing field `schema` (a JSON Schema for the tool's arguments)",
                        );
                        None
                    }
                    Some(schema) if schema.to_string().len() > MAX_SCHEMA_BYTES => {
                        self.err(
                            child(ptr, "schema"),
                            format!(
                                "the schema is {} bytes of JSON; the limit is {MAX_SCHEMA_BYTES}",
                                schema.to_string().len()
                            ),
                        );
                        None
                    }
                    Some(schema) => match crate::schema::compile(schema) {
                        Ok(_) => Some(CheckKind::Schema {
                            tools,
                            schema: schema.clone(),
                        }),
                        Err(e) => {
                            self.err(child(ptr, "schema"), e);
                            None
                        }
                    },
                }
            }
            Some(CheckType::Path) => {
                let paths = self.entries(obj, ptr, "paths");
                let except = self.optional_entries(obj, ptr, "except");
                self.each_entry(obj, ptr, "paths", &paths, |p| {
                    crate::paths::PathRules::new(&[p.to_owned()], &[]).map(|_| ())
                });
                self.each_entry(obj, ptr, "except", &except, |p| {
                    crate::paths::PathRules::new(&[], &[p.to_owned()]).map(|_| ())
                });
                let (operations, tools, arguments) = self.file_fields(obj, ptr);
                Some(CheckKind::Path {
                    paths,
                    except,
                    operations,
                    tools,
                    arguments,
                })
            }
            Some(CheckType::Workspace) => {
                let (operations, tools, arguments) = self.file_fields(obj, ptr);
                Some(CheckKind::Workspace {
                    operations,
                    tools,
                    arguments,
                })
            }
            Some(CheckType::Command) => {
                let commands = self.optional_entries(obj, ptr, "commands");
                self.each_entry(obj, ptr, "commands", &commands, |c| {
                    crate::shell::CommandPatterns::new(&[c.to_owned()]).map(|_| ())
                });
                let tools = self.optional_entries(obj, ptr, "tools");
                self.globs(obj, ptr, &tools);
                Some(CheckKind::Command { commands, tools })
            }
            Some(CheckType::Secrets) => {
                let detectors = self.optional_entries(obj, ptr, "detectors");
                let known: Vec<&str> = crate::detect::SECRETS.iter().map(|d| d.id).collect();
                self.known_names(obj, ptr, "detectors", &detectors, &known, "detector");
                Some(CheckKind::Secrets { detectors })
            }
            Some(CheckType::LlmJudge) => {
                let prompt = self.required_text(
                    obj,
                    ptr,
                    "prompt",
                    MAX_PROMPT_BYTES,
                    "the instruction the judge applies",
                );
                prompt.map(|prompt| CheckKind::LlmJudge { prompt })
            }
            Some(CheckType::Mcp) => {
                let server = self.required_text(
                    obj,
                    ptr,
                    "server",
                    MAX_ID_BYTES,
                    "the name of a server in the service config's `mcp_servers`",
                );
                let tool =
                    self.required_text(obj, ptr, "tool", MAX_ID_BYTES, "the server's tool to call");
                match (server, tool) {
                    (Some(server), Some(tool)) => Some(CheckKind::Mcp { server, tool }),
                    _ => None,
                }
            }
            Some(CheckType::Moderation) => {
                let categories = self.optional_entries(obj, ptr, "categories");
                self.known_names(
                    obj,
                    ptr,
                    "categories",
                    &categories,
                    MODERATION_CATEGORIES,
                    "category",
                );
                let threshold = match obj.get("threshold") {
                    None => Some(50),
                    Some(v) => match v.as_u64() {
                        Some(t) if t <= 100 => Some(t as u8),
                        _ => {
                            self.err(
                                child(ptr, "threshold"),
                                format!(
                                    "`threshold` must be a whole number from 0 to 100, not {}",
                                    quoted(v)
                                ),
                            );
                            None
                        }
                    },
                };
                threshold.map(|threshold| CheckKind::Moderation {
                    categories,
                    threshold,
                })
            }
            Some(CheckType::Pii) => {
                let entities = self.optional_entries(obj, ptr, "entities");
                let mut known: Vec<&str> = crate::detect::PII.iter().map(|d| d.id).collect();
                known.dedup();
                self.known_names(obj, ptr, "entities", &entities, &known, "entity");
                Some(CheckKind::Pii { entities })
            }
            _ => None,
        };
        if on_fail == OnFail::Redact
            && let Some(t) = check_type
            && !t.can_redact()
        {
            self.err(
                child(ptr, "on_fail"),
                format!(
                    "`redact` needs matched text to redact, and type `{t}` matches none \
                     (use `block`, `ask`, `warn` or `log`)"
                ),
            );
        }
        if self.errors.len() > before {
            return (id, None);
        }
        let (Some(id), Some(kind)) = (id.clone(), kind) else {
            return (id, None);
        };
        let check = Check {
            id,
            name,
            stages,
            kind,
            on_fail,
            severity,
            message,
            suggestion,
            replacement,
            enabled,
            on_error,
            when,
        };
        (Some(check.id.clone()), Some(check))
    }

    fn id(&mut self, ptr: &str, v: &Value) -> Option<String> {
        let Some(id) = v.as_str() else {
            self.err(ptr, format!("`id` must be a string, not {}", json_type(v)));
            return None;
        };
        if id.is_empty() || id.len() > MAX_ID_BYTES {
            self.err(ptr, format!("`id` must be 1 to {MAX_ID_BYTES} bytes long"));
            return None;
        }
        if let Some(c) = id
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':')))
        {
            self.err(
                ptr,
                format!("`id` `{id}` contains {c:?}; ids use letters, digits and `_` `-` `.` `:`"),
            );
            return None;
        }
        Some(id.to_owned())
    }

    fn text(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
        max: usize,
    ) -> Option<String> {
        let v = obj.get(key)?;
        let Some(s) = v.as_str() else {
            self.err(
                child(ptr, key),
                format!("`{key}` must be a string, not {}", json_type(v)),
            );
            return None;
        };
        if s.len() > max {
            self.err(
                child(ptr, key),
                format!("`{key}` is {} bytes; the limit is {max}", s.len()),
            );
            return None;
        }
        Some(s.to_owned())
    }

    /// A required, non-empty string field of at most `max` bytes.
    fn required_text(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
        max: usize,
        what: &str,
    ) -> Option<String> {
        if !obj.contains_key(key) {
            self.err(ptr, format!("missing field `{key}` ({what})"));
            return None;
        }
        let text = self.text(obj, ptr, key, max)?;
        if text.trim().is_empty() {
            self.err(child(ptr, key), format!("`{key}` is empty; give {what}"));
            return None;
        }
        Some(text)
    }

    fn boolean(&mut self, obj: &Map<String, Value>, ptr: &str, key: &str) -> Option<bool> {
        let v = obj.get(key)?;
        match v.as_bool() {
            Some(b) => Some(b),
            None => {
                self.err(
                    child(ptr, key),
                    format!("`{key}` must be true or false, not {}", json_type(v)),
                );
                None
            }
        }
    }

    fn stages(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        check_type: Option<CheckType>,
    ) -> Vec<Stage> {
        let all: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
        let sptr = child(ptr, "stage");
        let Some(v) = obj.get("stage") else {
            self.err(
                ptr,
                format!(
                    "missing field `stage`; one of {} or a list of them",
                    one_of(&all)
                ),
            );
            return Vec::new();
        };
        // Each stage with the pointer it was written at.
        let mut stages: Vec<(Stage, String)> = Vec::new();
        let mut one =
            |this: &mut Self, p: String, v: &Value| match v.as_str().and_then(Stage::from_wire) {
                Some(s) => {
                    if !stages.iter().any(|(t, _)| *t == s) {
                        stages.push((s, p));
                    }
                }
                None => this.err(
                    p,
                    format!(
                        "unknown stage {}; expected one of {}",
                        quoted(v),
                        one_of(&all)
                    ),
                ),
            };
        match v {
            Value::Array(items) if items.is_empty() => {
                self.err(sptr.clone(), "`stage` must name at least one stage");
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    one(self, index(&sptr, i), item);
                }
            }
            other => one(self, sptr.clone(), other),
        }
        if let Some(t) = check_type {
            let allowed = t.stages();
            for (s, p) in &stages {
                if !allowed.contains(s) {
                    let names: Vec<&str> = allowed.iter().map(|s| s.as_str()).collect();
                    self.err(
                        p.clone(),
                        format!(
                            "type `{t}` does not run at stage `{s}`; it runs at {}",
                            one_of(&names)
                        ),
                    );
                }
            }
        }
        stages.into_iter().map(|(s, _)| s).collect()
    }

    /// Reports every tool glob that does not parse.
    fn globs(&mut self, obj: &Map<String, Value>, ptr: &str, tools: &[String]) {
        self.each_entry(obj, ptr, "tools", tools, crate::tools::validate_glob);
    }

    /// A CEL expression at `ptr` (the field `key`): a string within
    /// [`MAX_EXPR_BYTES`] that compiles.
    fn cel(&mut self, ptr: &str, key: &str, v: &Value) -> Option<String> {
        let Value::String(expr) = v else {
            self.err(
                ptr,
                format!(
                    "`{key}` must be a CEL expression (a string), not {}",
                    json_type(v)
                ),
            );
            return None;
        };
        if expr.len() > MAX_EXPR_BYTES {
            self.err(
                ptr,
                format!(
                    "the expression is {} bytes; the limit is {MAX_EXPR_BYTES}",
                    expr.len()
                ),
            );
            return None;
        }
        match crate::condition::compile(expr) {
            Ok(_) => Some(expr.clone()),
            Err(e) => {
                self.err(ptr, e);
                None
            }
        }
    }

    /// Checks each entry of the list at `key` on its own and reports a bad
    /// one at its own pointer (`/checks/0/paths/3`). `entries` are the
    /// list's valid entries, as [`Self::entries`] read them.
    fn each_entry(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
        entries: &[String],
        check: impl Fn(&str) -> Result<(), String>,
    ) {
        let list = child(ptr, key);
        let positions = valid_positions(obj.get(key));
        for (j, entry) in entries.iter().enumerate() {
            if let Err(e) = check(entry) {
                self.err(index(&list, positions.get(j).copied().unwrap_or(j)), e);
            }
        }
    }

    /// Reports every name of `names` that is not in `known`.
    fn known_names(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
        names: &[String],
        known: &[&str],
        what: &str,
    ) {
        self.each_entry(obj, ptr, key, names, |n| {
            if known.contains(&n) {
                Ok(())
            } else {
                Err(format!("unknown {what} `{n}`; known: {}", one_of(known)))
            }
        });
    }

    /// A list of strings that may be absent (empty then).
    fn optional_entries(&mut self, obj: &Map<String, Value>, ptr: &str, key: &str) -> Vec<String> {
        if obj.contains_key(key) {
            self.entries(obj, ptr, key)
        } else {
            Vec::new()
        }
    }

    /// `operations`, `tools` and `arguments` of the file checks.
    fn file_fields(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
    ) -> (Vec<String>, Vec<String>, Vec<String>) {
        let operations = self.optional_entries(obj, ptr, "operations");
        self.each_entry(obj, ptr, "operations", &operations, |op| {
            crate::paths::OperationSet::from_policy(&[op.to_owned()]).map(|_| ())
        });
        let tools = self.optional_entries(obj, ptr, "tools");
        self.globs(obj, ptr, &tools);
        let arguments = self.optional_entries(obj, ptr, "arguments");
        (operations, tools, arguments)
    }

    /// A required whole number from 1 to `max`.
    fn count(&mut self, obj: &Map<String, Value>, ptr: &str, key: &str, max: u64) -> Option<u64> {
        let Some(v) = obj.get(key) else {
            self.err(
                ptr,
                format!("missing field `{key}` (a whole number from 1 to {max})"),
            );
            return None;
        };
        match v.as_u64() {
            Some(n) if (1..=max).contains(&n) => Some(n),
            _ => {
                self.err(
                    child(ptr, key),
                    format!(
                        "`{key}` must be a whole number from 1 to {max}, not {}",
                        quoted(v)
                    ),
                );
                None
            }
        }
    }

    fn rate_keys(&mut self, obj: &Map<String, Value>, ptr: &str) -> Vec<String> {
        let Some(v) = obj.get("per") else {
            return Vec::new();
        };
        let pptr = child(ptr, "per");
        let Some(items) = v.as_array() else {
            self.err(
                pptr,
                format!(
                    "`per` must be a list of {}, not {}",
                    one_of(RATE_KEYS),
                    json_type(v)
                ),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(k) if RATE_KEYS.contains(&k) => {
                    if !out.iter().any(|o| o == k) {
                        out.push(k.to_owned());
                    }
                }
                _ => self.err(
                    index(&pptr, i),
                    format!(
                        "unknown key {}; a rate limit counts per {}",
                        quoted(item),
                        one_of(RATE_KEYS)
                    ),
                ),
            }
        }
        out
    }

    fn entries(&mut self, obj: &Map<String, Value>, ptr: &str, key: &str) -> Vec<String> {
        let eptr = child(ptr, key);
        let Some(v) = obj.get(key) else {
            self.err(
                ptr,
                format!("missing field `{key}` (a non-empty array of strings)"),
            );
            return Vec::new();
        };
        let Some(items) = v.as_array() else {
            self.err(
                eptr,
                format!("`{key}` must be an array of strings, not {}", json_type(v)),
            );
            return Vec::new();
        };
        if items.is_empty() {
            self.err(eptr, format!("`{key}` must not be empty"));
            return Vec::new();
        }
        if items.len() > MAX_ENTRIES_PER_CHECK {
            self.err(
                eptr,
                format!(
                    "{} entries; a check holds at most {MAX_ENTRIES_PER_CHECK}",
                    items.len()
                ),
            );
            return Vec::new();
        }
        self.total_entries += items.len();
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let iptr = index(&eptr, i);
            match item.as_str() {
                None => self.err(
                    iptr,
                    format!("entries must be strings, not {}", json_type(item)),
                ),
                Some("") => self.err(iptr, "entries must not be empty"),
                Some(s) if s.len() > MAX_ENTRY_BYTES => self.err(
                    iptr,
                    format!("entry is {} bytes; the limit is {MAX_ENTRY_BYTES}", s.len()),
                ),
                Some(s) => out.push(s.to_owned()),
            }
        }
        out
    }

    fn regex(&mut self, ptr: &str, pattern: &str) {
        if let Err(message) = crate::pattern::validate(pattern) {
            self.err(ptr, message);
        }
    }
}

/// The indices of the entries [`Loader::entries`] keeps from a list: its
/// non-empty strings within the size limit.
fn valid_positions(list: Option<&Value>) -> Vec<usize> {
    list.and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter(|(_, item)| {
                    item.as_str()
                        .is_some_and(|s| !s.is_empty() && s.len() <= MAX_ENTRY_BYTES)
                })
                .map(|(i, _)| i)
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_refused_in_json_and_yaml() {
        let e = from_json_str(r#"{"checks": [{"type": "regex", "stage": "input", "stage": "output", "patterns": ["x"]}]}"#)
            .unwrap_err();
        assert_eq!(e.errors[0].pointer, "/checks/0");
        assert!(
            e.errors[0]
                .message
                .contains("`stage` appears more than once"),
            "{e}"
        );
        let e = from_yaml_str(
            "checks:\n  - type: regex\n    stage: input\n    stage: output\n    patterns: [x]\n",
        )
        .unwrap_err();
        assert_eq!(e.errors[0].pointer, "/checks/0");
        assert!(
            e.to_string().contains("`stage` appears more than once"),
            "{e}"
        );
    }
}
