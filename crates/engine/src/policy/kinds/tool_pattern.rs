//! `tool_pattern`: the tool's name matches any of the globs.

use palisade_protocol::Stage;
use serde_json::{Map, Value};

use super::{Field, Form, Runs, Spec, described_entries};
use crate::policy::read::Reader;
use crate::policy::{CheckKind, OnFail};

/// The `tool_pattern` check type.
pub(super) const SPEC: Spec = Spec {
    name: "tool_pattern",
    fields: FIELDS,
    stages: &[Stage::ToolUse],
    runs: Runs::Engine,
    entry_field: Some("tools"),
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "this tool is not allowed by policy",
    read,
    default_entries: Vec::new,
};

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let tools = r.entries(obj, ptr, "tools");
    let globs = r.globs(obj, ptr, "tools", &tools)?;
    Some((CheckKind::ToolPattern { tools }, Form::Tools(globs.into())))
}

/// The type's own fields.
const FIELDS: &[Field] = &[Field {
    name: "tools",
    required: true,
    schema: || described_entries("Tool-name globs (`*`, `?`, `[…]`)."),
}];
