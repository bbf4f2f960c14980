//! The strings each stage scans (SPEC §4.1), each with its JSON pointer.

use palisade_protocol::{CheckRequest, Stage, pointer};
use serde_json::Value;

/// Where a scanned string lives, which decides whether it can be redacted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldKind {
    Content,
    /// A string leaf of `tool.arguments`.
    ArgString,
    /// An object key in `tool.arguments`.
    ArgKey,
    /// A number leaf of `tool.arguments`, scanned as its JSON text.
    ArgNumber,
    /// `tool.output` when it is a string.
    OutputText,
    OutputString,
    OutputKey,
    OutputNumber,
    ToolError,
    ToolName,
    /// `action.description`, `operation`, `resource.uri` or a target's `uri`.
    ActionText,
    /// A leaf of `action.attributes`.
    Attribute,
    /// An object key in `action.attributes`.
    AttributeKey,
    /// The request as a whole (conditions, rate limits): no location.
    Request,
    /// An argument named by a schema error (no span).
    Argument,
}

impl FieldKind {
    /// Whether the scanned string is an object key.
    pub(crate) fn is_key(self) -> bool {
        matches!(
            self,
            FieldKind::ArgKey | FieldKind::OutputKey | FieldKind::AttributeKey
        )
    }

    /// Whether `modified` can carry a redacted copy of this field.
    pub(crate) fn redactable(self) -> bool {
        matches!(
            self,
            FieldKind::Content
                | FieldKind::ArgString
                | FieldKind::ArgKey
                | FieldKind::ArgNumber
                | FieldKind::OutputText
                | FieldKind::OutputString
                | FieldKind::OutputKey
                | FieldKind::OutputNumber
        )
    }
}

#[derive(Clone, Copy)]
struct Kinds {
    string: FieldKind,
    key: FieldKind,
    number: FieldKind,
}

const ARGS: Kinds = Kinds {
    string: FieldKind::ArgString,
    key: FieldKind::ArgKey,
    number: FieldKind::ArgNumber,
};
const OUTPUT: Kinds = Kinds {
    string: FieldKind::OutputString,
    key: FieldKind::OutputKey,
    number: FieldKind::OutputNumber,
};
const ATTRS: Kinds = Kinds {
    string: FieldKind::Attribute,
    key: FieldKind::AttributeKey,
    number: FieldKind::Attribute,
};

/// The text a JSON number is scanned as: its digits when it is a whole
/// number, however written (`4.453371995239703e15` and `4453371995239703.0`
/// are `4453371995239703`, so a card number sent as a float is still seen),
/// else as serde_json prints it. Floats are whole-valued up to 2^53 exactly;
/// beyond that the digits would be invented, so they stay as printed.
pub(crate) fn number_text(n: &serde_json::Number) -> String {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    if n.is_f64()
        && let Some(f) = n.as_f64()
        && f.is_finite()
        && f.fract() == 0.0
        && f.abs() <= EXACT
    {
        #[allow(
            clippy::cast_possible_truncation,
            reason = "whole and within 2^53: the cast is exact"
        )]
        let i = f as i64;
        // `-0.0` is `0`.
        return i.to_string();
    }
    n.to_string()
}

/// Member names under which an object holds the name of its `value`
/// member: `{"name": "DB_PASSWORD", "value": "…"}` (Kubernetes `env`,
/// ECS task definitions), `{"Key": "…", "Value": "…"}` (tags, SSM),
/// `{"ParameterKey": "…", "ParameterValue": "…"}` (CloudFormation).
const NAME_MEMBERS: &[&str] = &[
    "name",
    "Name",
    "key",
    "Key",
    "ParameterKey",
    "ParameterName",
    "OptionName",
];

/// The members that hold the value named by one of [`NAME_MEMBERS`].
const VALUE_MEMBERS: &[&str] = &["value", "Value", "ParameterValue"];

/// Walks a JSON value; `name` is the member name a leaf's value is given
/// (its own member's, or for an array's items the array's).
fn walk(
    value: &Value,
    ptr: &mut String,
    kinds: Kinds,
    name: Option<&str>,
    f: &mut impl FnMut(&str, FieldKind, &str, Option<&str>),
) {
    match value {
        Value::String(s) => f(ptr, kinds.string, s, name),
        Value::Number(n) => {
            let text = number_text(n);
            f(ptr, kinds.number, &text, name);
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let len = ptr.len();
                pointer::push_index(ptr, i);
                walk(item, ptr, kinds, name, f);
                ptr.truncate(len);
            }
        }
        Value::Object(members) => {
            let named = NAME_MEMBERS
                .iter()
                .find_map(|k| members.get(*k).and_then(Value::as_str));
            for (key, item) in members {
                let len = ptr.len();
                pointer::push(ptr, key);
                f(ptr, kinds.key, key, None);
                let name = match named {
                    Some(n) if VALUE_MEMBERS.contains(&key.as_str()) => n,
                    _ => key.as_str(),
                };
                walk(item, ptr, kinds, Some(name), f);
                ptr.truncate(len);
            }
        }
        Value::Null | Value::Bool(_) => {}
    }
}

/// Calls `f(pointer, kind, text, name)` for every string the stage scans;
/// `name` is the JSON member name the string is the value of, if any.
pub(crate) fn for_each_string(
    request: &CheckRequest,
    stage: Stage,
    mut f: impl FnMut(&str, FieldKind, &str, Option<&str>),
) {
    let mut ptr = String::with_capacity(64);
    match stage {
        Stage::ToolUse => {
            if let Some(args) = request.tool.as_ref().and_then(|t| t.arguments.as_ref()) {
                ptr.push_str("/tool/arguments");
                walk(args, &mut ptr, ARGS, None, &mut f);
            }
        }
        Stage::ToolOutput => {
            if let Some(tool) = &request.tool {
                match &tool.output {
                    Some(Value::String(s)) => f("/tool/output", FieldKind::OutputText, s, None),
                    Some(other) => {
                        ptr.push_str("/tool/output");
                        walk(other, &mut ptr, OUTPUT, None, &mut f);
                    }
                    None => {}
                }
                if let Some(e) = &tool.error {
                    f("/tool/error", FieldKind::ToolError, e, None);
                }
            }
        }
        Stage::Action => {
            if let Some(action) = &request.action {
                if let Some(d) = &action.description {
                    f("/action/description", FieldKind::ActionText, d, None);
                }
                if let Some(o) = &action.operation {
                    f("/action/operation", FieldKind::ActionText, o, None);
                }
                if let Some(u) = action.resource.as_ref().and_then(|r| r.uri.as_ref()) {
                    f("/action/resource/uri", FieldKind::ActionText, u, None);
                }
                for (i, t) in action.targets.iter().flatten().enumerate() {
                    ptr.clear();
                    ptr.push_str("/action/targets");
                    pointer::push_index(&mut ptr, i);
                    ptr.push_str("/uri");
                    f(&ptr, FieldKind::ActionText, &t.uri, None);
                }
                if let Some(attrs) = &action.attributes {
                    ptr.clear();
                    ptr.push_str("/action/attributes");
                    for (key, item) in attrs {
                        let len = ptr.len();
                        pointer::push(&mut ptr, key);
                        f(&ptr, FieldKind::AttributeKey, key, None);
                        walk(item, &mut ptr, ATTRS, Some(key), &mut f);
                        ptr.truncate(len);
                    }
                }
            }
        }
        _ => {}
    }
    if let Some(content) = &request.content {
        f("/content", FieldKind::Content, content, None);
    }
}
