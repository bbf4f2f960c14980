//! Gemini CLI: `BeforeTool`, `AfterTool`, `BeforeAgent` (the prompt) and
//! `AfterModel` (each chunk of the model's streamed answer). It reads a
//! top-level `decision` (`deny`) and `reason`, a new tool input in
//! `hookSpecificOutput.tool_input` and a new response in
//! `hookSpecificOutput.llm_response`. It cannot ask in headless mode (it
//! waits forever), so `ask` is a deny; it cannot replace a tool's output,
//! so a redacted output is refused with the redacted text as the reason.

use palisade_protocol::Stage;
use serde_json::{Value, json};

use sha2::{Digest, Sha256};

use super::{Answer, HookCall, HookError, Host, Moment, Payload, Stream, Verdict, tool_request};

pub(super) fn read(p: &Payload<'_>) -> Result<HookCall, HookError> {
    let event = p.required_str("hook_event_name")?;
    let moment = match event {
        "BeforeTool" => Moment::BeforeTool,
        "AfterTool" => Moment::AfterTool,
        "BeforeAgent" => Moment::Prompt,
        "AfterModel" => Moment::ModelOutput,
        _ => Moment::Other,
    };
    let fail = |e: HookError| HookError {
        event: Some(event.to_owned()),
        ..e
    };
    let session = p.str("session_id").map_err(fail)?;
    let cwd = p.str("cwd").map_err(fail)?;
    let base = |stage| p.request(stage, session, cwd, None, false);
    let mut original = None;
    let mut stream = None;
    let requests = match moment {
        Moment::BeforeTool | Moment::AfterTool => {
            let name = p.required_str("tool_name").map_err(fail)?;
            let input = if moment == Moment::BeforeTool {
                p.required_arguments("tool_input")
            } else {
                p.arguments("tool_input")
            }
            .map_err(fail)?;
            if moment == Moment::BeforeTool {
                vec![tool_request(base(Stage::ToolUse), name, input, None)]
            } else {
                let mut r = tool_request(base(Stage::ToolOutput), name, input, None);
                let response = p.get("tool_response");
                if let Some(tool) = r.tool.as_mut() {
                    // `{llmContent, returnDisplay, error}`: what the model would see.
                    let content = response.and_then(|v| v.get("llmContent"));
                    tool.output = Some(content.or(response).cloned().unwrap_or(Value::Null));
                    tool.error = response
                        .and_then(|v| v.get("error"))
                        .filter(|e| !e.is_null())
                        .map(|e| match e.get("message").and_then(Value::as_str) {
                            Some(m) => m.to_owned(),
                            None => e.to_string(),
                        });
                }
                vec![r]
            }
        }
        Moment::Prompt => {
            let prompt = p.str("prompt").map_err(fail)?.unwrap_or_default();
            vec![base(Stage::Input).with_content(prompt)]
        }
        Moment::ModelOutput => {
            let response = p.get("llm_response").ok_or_else(|| {
                fail(HookError::new(
                    "`llm_response` is missing; AfterModel carries the model's response chunk",
                ))
            })?;
            let text = response_text(response).map_err(fail)?;
            original = Some(response.clone());
            // The chunks of one answer share the session and the model request.
            let mut h = Sha256::new();
            h.update(session.unwrap_or_default().as_bytes());
            h.update([0]);
            h.update(
                p.get("llm_request")
                    .map(Value::to_string)
                    .unwrap_or_default()
                    .as_bytes(),
            );
            stream = Some(Stream {
                key: hex::encode(h.finalize()),
                carried: 0,
            });
            vec![base(Stage::Output).with_content(text)]
        }
        _ => Vec::new(),
    };
    Ok(HookCall {
        host: Host::GeminiCli,
        event: event.to_owned(),
        moment,
        requests,
        original,
        stream,
    })
}

/// The text of a response chunk: its candidates' text parts (or `text`).
fn response_text(response: &Value) -> Result<String, HookError> {
    let mut out = String::new();
    match response.get("candidates") {
        None | Some(Value::Null) => {}
        Some(Value::Array(candidates)) => {
            for c in candidates {
                let parts = c.pointer("/content/parts").and_then(Value::as_array);
                for part in parts.into_iter().flatten() {
                    match part {
                        Value::String(s) => out.push_str(s),
                        other => {
                            if let Some(s) = other.get("text").and_then(Value::as_str) {
                                out.push_str(s);
                            }
                        }
                    }
                }
            }
        }
        Some(_) => {
            return Err(HookError::new("`llm_response.candidates` must be an array"));
        }
    }
    if out.is_empty()
        && let Some(text) = response.get("text").and_then(Value::as_str)
    {
        out.push_str(text);
    }
    Ok(out)
}

pub(super) fn answer(call: &HookCall, verdict: &Verdict) -> Answer {
    let deny = |why: &str| Answer::json(json!({"decision": "deny", "reason": why}));
    let cannot_ask =
        |why: &str| format!("{why} (Gemini CLI cannot ask the user here, so it is refused)");
    match (call.moment, verdict) {
        (Moment::Other | Moment::Permission | Moment::ReadFile, _) | (_, Verdict::Allow) => {
            Answer::silent()
        }
        (_, Verdict::Ask(why)) => deny(&cannot_ask(why)),
        (_, Verdict::Deny(why)) => deny(why),
        (Moment::BeforeTool, Verdict::Rewrite { value, .. }) if value.is_object() => {
            Answer::json(json!({"hookSpecificOutput": {
                "hookEventName": "BeforeTool",
                "tool_input": value,
            }}))
        }
        (
            Moment::ModelOutput,
            Verdict::Rewrite {
                value: Value::String(text),
                ..
            },
        ) => match &call.original {
            Some(original) => Answer::json(json!({"hookSpecificOutput": {
                "hookEventName": "AfterModel",
                "llm_response": rewritten(original, text),
            }})),
            None => deny("the response cannot be rewritten"),
        },
        (
            Moment::AfterTool,
            Verdict::Rewrite {
                value: Value::String(s),
                why,
                withheld: true,
            },
        ) => deny(&format!("{s} {why}")),
        (_, Verdict::Rewrite { value, why, .. }) => deny(&Verdict::deny_rewrite(why, value)),
    }
}

/// The response chunk with its text replaced: the first candidate holds the
/// new text as its one part, the others none.
fn rewritten(original: &Value, text: &str) -> Value {
    let mut out = original.clone();
    if let Some(obj) = out.as_object_mut() {
        obj.insert("text".into(), json!(text));
        let candidates = obj
            .entry("candidates")
            .or_insert_with(|| json!([{"content": {"role": "model", "parts": []}}]));
        if !candidates.is_array() || candidates.as_array().is_some_and(Vec::is_empty) {
            *candidates = json!([{"content": {"role": "model", "parts": []}}]);
        }
        if let Some(list) = candidates.as_array_mut() {
            for (i, c) in list.iter_mut().enumerate() {
                let parts = if i == 0 { json!([text]) } else { json!([]) };
                let content = json!({"role": "model", "parts": parts.clone()});
                match c.as_object_mut() {
                    Some(cobj) => match cobj.get_mut("content").and_then(Value::as_object_mut) {
                        Some(existing) => {
                            existing.insert("parts".into(), parts);
                        }
                        None => {
                            cobj.insert("content".into(), content);
                        }
                    },
                    None => *c = json!({ "content": content }),
                }
            }
        }
    }
    out
}
