//! `addressed_instructions`: a string of a tool's output (or of the
//! model's answer) holds instructions addressed to the model — text that
//! speaks to the AI, the assistant or the agent and tells it to do
//! something other than the user's task — plainly, hidden in markup or
//! behind invisible characters, in English, German, French or Spanish
//! ([`crate::addressed_instructions`]; `docs/DETECTORS.md` §6).

use std::sync::Arc;

use palisade_protocol::Stage;
use serde_json::{Map, Value};

use super::{Context, Form, Found, Runs, Spec, Whole};
use crate::policy::read::Reader;
use crate::policy::{CheckKind, OnFail};

/// The `addressed_instructions` check type.
pub(super) const SPEC: Spec = Spec {
    name: "addressed_instructions",
    fields: &[],
    stages: &[Stage::ToolOutput, Stage::Output],
    runs: Runs::Engine,
    entry_field: None,
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "holds instructions addressed to the model",
    read,
    default_entries: Vec::new,
};

#[derive(Debug)]
struct Addressed;

impl Whole for Addressed {
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found> {
        let request = cx.request;
        let mut ptr = String::new();
        if cx.stage == Stage::ToolOutput
            && let Some(tool) = &request.tool
        {
            if let Some(output) = &tool.output {
                ptr.push_str("/tool/output");
                if let Some(found) = walk(output, &mut ptr, 0) {
                    return Some(found);
                }
            }
            if let Some(found) = tool.error.as_deref().and_then(|e| judge(e, "/tool/error")) {
                return Some(found);
            }
        }
        request
            .content
            .as_deref()
            .and_then(|c| judge(c, "/content"))
    }

    fn build(&self) -> Result<(), String> {
        crate::detect::addressed::groups()
            .map(|_| ())
            .ok_or_else(|| {
                "the built-in patterns of addressed instructions do not compile".to_owned()
            })
    }
}

/// How deep a structured output is read.
const MAX_DEPTH: usize = 64;

/// The first string of `value` (member names of 16 bytes or more too)
/// that holds addressed instructions.
fn walk(value: &Value, ptr: &mut String, depth: usize) -> Option<Found> {
    if depth > MAX_DEPTH {
        return None;
    }
    match value {
        Value::String(s) => judge(s, ptr),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            let len = ptr.len();
            palisade_protocol::pointer::push_index(ptr, i);
            let found = walk(item, ptr, depth + 1);
            ptr.truncate(len);
            found
        }),
        Value::Object(members) => members.iter().find_map(|(key, item)| {
            let len = ptr.len();
            palisade_protocol::pointer::push(ptr, key);
            let found = if key.len() >= 16 {
                judge(key, ptr)
            } else {
                None
            }
            .or_else(|| walk(item, ptr, depth + 1));
            ptr.truncate(len);
            found
        }),
        _ => None,
    }
}

fn judge(text: &str, ptr: &str) -> Option<Found> {
    crate::addressed_instructions(text).map(|hit| Found {
        pointer: ptr.to_owned(),
        detail: Some(hit.describe()),
        source: None,
        own_message: false,
    })
}

fn read(_: &mut Reader, _: &Map<String, Value>, _: &str) -> Option<(CheckKind, Form)> {
    Some((
        CheckKind::AddressedInstructions {},
        Form::Whole(Arc::new(Addressed)),
    ))
}
