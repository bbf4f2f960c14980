//! `tool_pattern`: the tool's name matches any of the globs.

use serde_json::{Map, Value};

use super::{Form, described_entries, unknown};
use crate::policy::CheckKind;
use crate::policy::read::Reader;

pub(super) const MESSAGE: &str = "this tool is not allowed by policy";

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let tools = r.entries(obj, ptr, "tools");
    let globs = r.globs(obj, ptr, "tools", &tools)?;
    Some((CheckKind::ToolPattern { tools }, Form::Tools(globs.into())))
}

pub(super) fn field(field: &str) -> (Value, bool) {
    match field {
        "tools" => (
            described_entries("Tool-name globs (`*`, `?`, `[…]`)."),
            true,
        ),
        _ => unknown(),
    }
}
