//! `llm_judge`: a utility LLM, given the prompt, says the request should be
//! blocked. Async: the runtime that holds the LLM client answers it.

use palisade_protocol::Stage;
use serde_json::{Map, Value, json};

use super::{Field, Form, Runs, Spec};
use crate::limits::MAX_PROMPT_BYTES;
use crate::policy::read::Reader;
use crate::policy::{CheckKind, OnFail};

/// The `llm_judge` check type.
pub(super) const SPEC: Spec = Spec {
    name: "llm_judge",
    fields: FIELDS,
    stages: &[
        Stage::Input,
        Stage::ToolUse,
        Stage::ToolOutput,
        Stage::Action,
    ],
    runs: Runs::Async,
    entry_field: None,
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "the LLM judge says this breaks the policy",
    read,
    default_entries: Vec::new,
};

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let prompt = r.required_text(
        obj,
        ptr,
        "prompt",
        MAX_PROMPT_BYTES,
        "the instruction the judge applies",
    )?;
    Some((CheckKind::LlmJudge { prompt }, Form::Async))
}

/// The type's own fields.
const FIELDS: &[Field] = &[Field {
    name: "prompt",
    required: true,
    schema: || {
        json!({
            "description": "The instruction the judge applies.",
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_PROMPT_BYTES,
        })
    },
}];
