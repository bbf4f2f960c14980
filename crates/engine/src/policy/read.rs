//! Reading a check's fields: each reader reports a problem at the field's
//! pointer, with what was wrong and what is allowed, and keeps going so that
//! every problem of a policy is reported at once.

use std::sync::Arc;

use palisade_protocol::pointer;
use serde_json::{Map, Value};

use crate::condition::Condition;
use crate::error::PolicyError;
use crate::limits::*;

/// Reads a policy's fields, collecting the problems.
#[derive(Default)]
pub(crate) struct Reader {
    /// Every problem so far, in document order.
    pub(crate) errors: Vec<PolicyError>,
    /// Entries read over all lists (bounded by [`MAX_ENTRIES_TOTAL`]).
    pub(crate) total_entries: usize,
    /// The policy is the embedded default one, whose globs are known to
    /// parse (the tests build its every set): they are parsed when their
    /// sets are built rather than when they are read.
    pub(crate) known: bool,
}

/// What kind of JSON value `v` is, for messages: `null`, `a boolean`,
/// `a number`, `a string`, `an array` or `an object`.
///
/// ```
/// assert_eq!(palisade_engine::json_type(&serde_json::json!([1])), "an array");
/// ```
pub fn json_type(v: &Value) -> &'static str {
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
pub(crate) fn quoted(v: &Value) -> String {
    match v {
        Value::String(s) => format!("`{s}`"),
        other => other.to_string(),
    }
}

pub(crate) fn child(ptr: &str, key: &str) -> String {
    let mut p = ptr.to_owned();
    pointer::push(&mut p, key);
    p
}

pub(crate) fn index(ptr: &str, i: usize) -> String {
    let mut p = ptr.to_owned();
    pointer::push_index(&mut p, i);
    p
}

/// What to say of an unknown name `v` of a kind `what` (`check type`,
/// `stage`) that must be one of `known`: the closest known name when one is
/// near, then all of them.
///
/// ```text
/// unknown check type `regx`; did you mean `regex`? Expected one of `regex`, …
/// ```
pub(crate) fn unknown_value(what: &str, v: &Value, known: &[&str]) -> String {
    match v
        .as_str()
        .and_then(|s| palisade_protocol::suggest::closest(s, known.iter().copied()))
    {
        Some(near) => format!(
            "unknown {what} {}; did you mean `{near}`? Expected one of {}",
            quoted(v),
            one_of(known)
        ),
        None => format!(
            "unknown {what} {}; expected one of {}",
            quoted(v),
            one_of(known)
        ),
    }
}

/// `unknown field `on_fial`; did you mean `on_fail`?` when a field of
/// `known` is near `key`; else `None`.
pub(crate) fn misspelt_field<'a>(
    key: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    palisade_protocol::suggest::closest(key, known)
        .map(|near| format!("unknown field `{key}`; did you mean `{near}`?"))
}

pub(crate) fn one_of(values: &[&str]) -> String {
    values
        .iter()
        .map(|v| format!("`{v}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Reader {
    pub(crate) fn err(&mut self, pointer: impl Into<String>, message: impl Into<String>) {
        self.errors.push(PolicyError::new(pointer, message));
    }

    pub(crate) fn text(
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
    pub(crate) fn required_text(
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

    pub(crate) fn boolean(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
    ) -> Option<bool> {
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

    /// The tool globs at `key`, parsed; every glob that does not parse is
    /// reported at its own pointer.
    pub(crate) fn globs(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
        globs: &[String],
    ) -> Option<Vec<globset::Glob>> {
        self.each_compiled(obj, ptr, key, globs, crate::tools::parse_glob)
    }

    /// A CEL expression at `ptr` (the field `key`): a string within
    /// [`MAX_EXPR_BYTES`], and what it compiles to.
    pub(crate) fn cel(
        &mut self,
        ptr: &str,
        key: &str,
        v: &Value,
    ) -> Option<(String, Arc<dyn Condition>)> {
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
            Ok(compiled) => Some((expr.clone(), compiled)),
            Err(e) => {
                self.err(ptr, e);
                None
            }
        }
    }

    /// Checks each entry of the list at `key` on its own and reports a bad
    /// one at its own pointer (`/checks/0/paths/3`). `entries` are the
    /// list's valid entries, as [`Self::entries`] read them.
    pub(crate) fn each_entry(
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

    /// Compiles each entry of the list at `key` on its own: all of them when
    /// every one compiles, else `None` with each bad one reported at its own
    /// pointer.
    pub(crate) fn each_compiled<T>(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
        entries: &[String],
        compile: impl Fn(&str) -> Result<T, String>,
    ) -> Option<Vec<T>> {
        let list = child(ptr, key);
        let positions = valid_positions(obj.get(key));
        let mut out = Vec::with_capacity(entries.len());
        let mut ok = true;
        for (j, entry) in entries.iter().enumerate() {
            match compile(entry) {
                Ok(t) => out.push(t),
                Err(e) => {
                    ok = false;
                    self.err(index(&list, positions.get(j).copied().unwrap_or(j)), e);
                }
            }
        }
        ok.then_some(out)
    }

    /// Reports every name of `names` that is not in `known`.
    pub(crate) fn known_names(
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
                return Ok(());
            }
            Err(
                match palisade_protocol::suggest::closest(n, known.iter().copied()) {
                    Some(near) => format!(
                        "unknown {what} `{n}`; did you mean `{near}`? Known: {}",
                        one_of(known)
                    ),
                    None => format!("unknown {what} `{n}`; known: {}", one_of(known)),
                },
            )
        });
    }

    /// A list of strings that may be absent (empty then).
    pub(crate) fn optional_entries(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
    ) -> Vec<String> {
        if obj.contains_key(key) {
            self.entries(obj, ptr, key)
        } else {
            Vec::new()
        }
    }

    /// A required whole number from 1 to `max`.
    pub(crate) fn count(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
        max: u64,
    ) -> Option<u64> {
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

    pub(crate) fn entries(
        &mut self,
        obj: &Map<String, Value>,
        ptr: &str,
        key: &str,
    ) -> Vec<String> {
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
            // Built only for an error: a list may hold 100,000 entries.
            let iptr = || index(&eptr, i);
            match item.as_str() {
                None => self.err(
                    iptr(),
                    format!("entries must be strings, not {}", json_type(item)),
                ),
                Some("") => self.err(iptr(), "entries must not be empty"),
                Some(s) if s.len() > MAX_ENTRY_BYTES => self.err(
                    iptr(),
                    format!("entry is {} bytes; the limit is {MAX_ENTRY_BYTES}", s.len()),
                ),
                Some(s) => out.push(s.to_owned()),
            }
        }
        out
    }
}

/// The indices of the entries [`Reader::entries`] keeps from a list: its
/// non-empty strings within the size limit.
pub(crate) fn valid_positions(list: Option<&Value>) -> Vec<usize> {
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
