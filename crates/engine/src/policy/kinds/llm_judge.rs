//! `llm_judge`: a utility LLM, given the prompt, says the request should be
//! blocked. Async: the runtime that holds the LLM client answers it.

use serde_json::{Map, Value, json};

use super::{Form, unknown};
use crate::limits::MAX_PROMPT_BYTES;
use crate::policy::CheckKind;
use crate::policy::read::Reader;

pub(super) const MESSAGE: &str = "the LLM judge says this breaks the policy";

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

pub(super) fn field(field: &str) -> (Value, bool) {
    match field {
        "prompt" => (
            json!({
                "description": "The instruction the judge applies.",
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_PROMPT_BYTES,
            }),
            true,
        ),
        _ => unknown(),
    }
}
