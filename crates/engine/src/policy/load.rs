//! Reading a policy document (JSON or YAML) into a validated [`Policy`],
//! collecting every problem with its JSON pointer.

use std::collections::HashMap;
use std::path::Path;

use palisade_protocol::{Mode, Severity, Stage};
use serde_json::{Map, Value};

mod compose;
mod locate;
use super::kinds::Compiled;
use super::{Check, CheckKind, CheckType, OnError, OnFail, Policy};
use crate::error::PolicyErrors;
use crate::limits::*;

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
    from_path_text(path).map(|(policy, _)| policy)
}

/// The policy file at `path` and the text it was read from.
pub(super) fn from_path_text(path: &Path) -> Result<(Policy, String), PolicyErrors> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        PolicyErrors::one(
            "",
            format!("cannot read policy file `{}`: {e}", path.display()),
        )
    })?;
    let (value, placed) = parse_placed(path, &text)?;
    let policy = compose::resolve(value, Some(path))
        .and_then(|composed| from_composed(&composed))
        .map_err(placed)?;
    Ok((policy, text))
}

/// A policy file's text parsed, and what places its problems in it.
fn parse_placed<'a>(
    path: &'a Path,
    text: &'a str,
) -> Result<(Value, impl Fn(PolicyErrors) -> PolicyErrors + 'a), PolicyErrors> {
    let value = parse(path, text).map_err(|e| place(path, text, None, e))?;
    let document = value.clone();
    Ok((value, move |e| place(path, text, Some(&document), e)))
}

/// Gives each of `errors` its place in the file at `path`, whose text
/// `text` was read as `document`.
fn place(path: &Path, text: &str, document: Option<&Value>, errors: PolicyErrors) -> PolicyErrors {
    let found = locate::positions(text);
    let file = path.display().to_string();
    let places = errors
        .errors
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut place = locate::place(&file, &found, document, &e.pointer);
            // A syntax error carries its own position.
            if let Some(p) = errors.place(i).and_then(|p| p.position) {
                place.position = Some(p);
            }
            place
        })
        .collect();
    errors.placed(places)
}

/// Where the warnings of the policy file at `path` are: one place each.
/// Empty when the file cannot be read or parsed again.
pub(super) fn places_of(path: &Path, problems: &[crate::PolicyError]) -> Vec<crate::Place> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let Ok(document) = parse(path, &text) else {
        return Vec::new();
    };
    let found = locate::positions(&text);
    let file = path.display().to_string();
    problems
        .iter()
        .map(|p| locate::place(&file, &found, Some(&document), &p.pointer))
        .collect()
}

/// The effective policy of the file at `path` (its `extends` resolved), as
/// a document, once it is known to be valid.
pub(super) fn effective_document(path: &Path) -> Result<Value, PolicyErrors> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        PolicyErrors::one(
            "",
            format!("cannot read policy file `{}`: {e}", path.display()),
        )
    })?;
    let (value, placed) = parse_placed(path, &text)?;
    let composed = compose::resolve(value, Some(path)).map_err(&placed)?;
    from_composed(&composed).map_err(&placed)?;
    Ok(composed.document)
}

/// A policy file's text as JSON values, by the file's extension.
pub(super) fn parse(path: &Path, text: &str) -> Result<Value, PolicyErrors> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("yaml" | "yml") => parse_yaml(text),
        Some("json") => parse_json(text),
        _ => Err(PolicyErrors::one(
            "",
            format!(
                "cannot tell the format of `{}`: name it `.json`, `.yaml` or `.yml`",
                path.display()
            ),
        )),
    }
}

/// Reads a composed document, its problems told where they were written.
fn from_composed(composed: &compose::Composed) -> Result<Policy, PolicyErrors> {
    read(&composed.document, false).map_err(|e| {
        PolicyErrors::new(
            e.errors
                .into_iter()
                .map(|e| compose::relocate(e, &composed.origins))
                .collect(),
        )
    })
}

fn parse_json(text: &str) -> Result<Value, PolicyErrors> {
    check_size(text)?;
    let value: Value = serde_json::from_str(text).map_err(|e| {
        PolicyErrors::syntax(&format!("invalid JSON: {e}"), Some((e.line(), e.column())))
    })?;
    if let Some(r) = crate::input::dupkeys::find_repeated(text) {
        return Err(repeated(
            text,
            r.pointer,
            &r.key,
            format!("key `{}` appears more than once in this object", r.key),
        ));
    }
    Ok(value)
}

fn parse_yaml(text: &str) -> Result<Value, PolicyErrors> {
    check_size(text)?;
    let value: Value = serde_yaml_ng::from_str(text).map_err(|e| {
        let position = e.location().map(|l| (l.line(), l.column()));
        PolicyErrors::syntax(&format!("invalid YAML: {e}"), position)
    })?;
    if let Some(r) =
        crate::input::dupkeys::find_repeated_in(serde_yaml_ng::Deserializer::from_str(text))
    {
        return Err(repeated(
            text,
            r.pointer,
            &r.key,
            format!("key `{}` appears more than once in this mapping", r.key),
        ));
    }
    Ok(value)
}

/// A key repeated in the object at `pointer` of `text`: told at the
/// object, placed where the key is repeated.
fn repeated(text: &str, pointer: String, key: &str, message: String) -> PolicyErrors {
    let position = locate::positions(text)
        .get(&locate::member(&pointer, key))
        .copied();
    PolicyErrors::one(pointer, message).placed(vec![crate::Place {
        file: String::new(),
        position,
        check: None,
    }])
}

pub(super) fn from_json_str(text: &str) -> Result<Policy, PolicyErrors> {
    from_composed(&compose::resolve(parse_json(text)?, None)?)
}

pub(super) fn from_yaml_str(text: &str) -> Result<Policy, PolicyErrors> {
    from_composed(&compose::resolve(parse_yaml(text)?, None)?)
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

/// Reads the embedded default policy, whose text a test reads as any
/// other (its size, repeated keys, every glob parsed and every set built):
/// its globs are parsed when their sets are built.
pub(super) fn embedded(text: &str) -> Result<Policy, PolicyErrors> {
    let value: Value = serde_json::from_str(text)
        .map_err(|e| PolicyErrors::one("", format!("invalid JSON: {e}")))?;
    read(&value, true)
}

pub(super) fn from_value(value: &Value) -> Result<Policy, PolicyErrors> {
    from_composed(&compose::resolve(value.clone(), None)?)
}

fn read(value: &Value, known: bool) -> Result<Policy, PolicyErrors> {
    let mut cx = Reader {
        known,
        ..Reader::default()
    };
    let policy = cx.policy(value);
    if cx.errors.is_empty() {
        Ok(policy)
    } else {
        Err(PolicyErrors::new(cx.errors))
    }
}

use super::read::{Reader, child, index, json_type, misspelt_field, one_of, quoted, unknown_value};

impl Reader {
    fn policy(&mut self, value: &Value) -> Policy {
        let mut policy = Policy {
            mode: Mode::Active,
            checks: Vec::new(),
            compiled: Vec::new(),
            known_to_build: false,
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
                    misspelt_field(key, ["mode", "checks", "extends", "disable"]).unwrap_or_else(
                        || {
                            format!(
                                "unknown field `{key}`; a policy has `mode`, `checks`, `extends` and `disable`"
                            )
                        },
                    ),
                );
            }
        }
        if let Some(mode) = obj.get("mode") {
            match mode.as_str() {
                Some("active") => policy.mode = Mode::Active,
                Some("advisory") => policy.mode = Mode::Advisory,
                _ => self.err(
                    "/mode",
                    unknown_value("mode", mode, &["active", "advisory"]),
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
            if let Some((check, compiled)) = check {
                policy.checks.push(check);
                policy.compiled.push(compiled);
            }
        }
        // A flow check's `sensitive` names checks of the same policy.
        for (i, check) in policy.checks.iter().enumerate() {
            let CheckKind::Flow { sensitive, .. } = &check.kind else {
                continue;
            };
            for (j, id) in sensitive.iter().enumerate() {
                if ids.contains_key(id) {
                    continue;
                }
                let known: Vec<&str> = ids.keys().map(String::as_str).collect();
                let near = palisade_protocol::suggest::closest(id, known.iter().copied())
                    .map(|n| format!("; did you mean `{n}`?"))
                    .unwrap_or_default();
                let at = ids
                    .iter()
                    .find(|(k, _)| **k == check.id)
                    .map_or(i, |(_, &p)| p);
                self.err(
                    format!("/checks/{at}/sensitive/{j}"),
                    format!("no check has the id `{id}`{near}"),
                );
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
    fn check(
        &mut self,
        ptr: &str,
        i: usize,
        value: &Value,
    ) -> (Option<String>, Option<(Check, Compiled)>) {
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
                    unknown_value("check type", other, &type_names),
                );
                None
            }
        };
        let type_fields: Vec<&str> = check_type.map_or_else(Vec::new, |t| t.fields().collect());
        for key in obj.keys() {
            let key = key.as_str();
            if COMMON_FIELDS.contains(&key) || type_fields.contains(&key) {
                continue;
            }
            match check_type {
                Some(t) => self.err(
                    child(ptr, key),
                    misspelt_field(key, COMMON_FIELDS.iter().chain(&type_fields).copied())
                        .unwrap_or_else(|| {
                            format!(
                                "unknown field `{key}` for type `{t}`; its own fields are {}",
                                one_of(&type_fields)
                            )
                        }),
                ),
                // Without a type, only a field no type has is surely wrong.
                None if !CheckType::ALL.iter().any(|t| t.fields().any(|f| f == key)) => {
                    let all = CheckType::ALL.iter().flat_map(|t| t.fields());
                    self.err(
                        child(ptr, key),
                        misspelt_field(key, COMMON_FIELDS.iter().copied().chain(all))
                            .unwrap_or_else(|| format!("unknown field `{key}`")),
                    );
                }
                None => {}
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
            None => check_type.map_or(OnFail::Block, CheckType::default_on_fail),
            Some(v) => match v.as_str().and_then(OnFail::from_name) {
                Some(f) => f,
                None => {
                    let all: Vec<&str> = OnFail::ALL.iter().map(|f| f.as_str()).collect();
                    self.err(child(ptr, "on_fail"), unknown_value("on_fail", v, &all));
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
                    self.err(child(ptr, "severity"), unknown_value("severity", v, &all));
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
        let (when, when_compiled) = obj
            .get("when")
            .and_then(|v| self.cel(&child(ptr, "when"), "when", v))
            .unzip();
        let stages = self.stages(obj, ptr, check_type);
        let compiled = check_type.and_then(|t| (super::kinds::spec(t).read)(self, obj, ptr));
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
        let (Some(id), Some((kind, form))) = (id.clone(), compiled) else {
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
        let compiled = Compiled {
            when: when_compiled,
            form,
        };
        (Some(check.id.clone()), Some((check, compiled)))
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
                None => this.err(p, unknown_value("stage", v, &all)),
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The embedded default policy's JSON form is its YAML, value for
    /// value, and loads to the same checks.
    #[test]
    fn the_default_policy_json_is_its_yaml() {
        let yaml: Value = serde_yaml_ng::from_str(crate::DEFAULT_POLICY).unwrap();
        let json: Value = serde_json::from_str(crate::DEFAULT_POLICY_JSON).unwrap();
        assert!(
            yaml == json,
            "src/default_policy.json is stale: run `cargo xtask generate`"
        );
        // Read as any policy (its size, repeated keys, every glob parsed),
        // the JSON gives what the YAML gives.
        let from_yaml = from_yaml_str(crate::DEFAULT_POLICY).unwrap();
        let from_json = from_json_str(crate::DEFAULT_POLICY_JSON).unwrap();
        assert_eq!(format!("{from_yaml:?}"), format!("{from_json:?}"));
        // Embedded, the same checks, known to build (their globs parsed
        // when their sets are built).
        let embedded = Policy::default_policy().unwrap();
        assert!(embedded.known_to_build && !from_json.known_to_build);
        assert_eq!(
            format!("{:?}", embedded.checks()),
            format!("{:?}", from_json.checks())
        );
    }

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
