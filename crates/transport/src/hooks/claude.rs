//! Claude Code and Codex: the same payload (`hook_event_name`, `session_id`,
//! `cwd`, `tool_name`, `tool_input`, `tool_use_id`, `tool_response`,
//! `prompt`) and the same answer (`hookSpecificOutput.permissionDecision`
//! before a tool, `decision: "block"` elsewhere), with Codex's limits:
//! it cannot ask, `allow` is only read beside `updatedInput`, a deny needs
//! a reason, and a tool's output cannot be replaced.

use palisade_protocol::Stage;
use serde_json::{Value, json};

use super::{Answer, HookCall, HookError, Host, Moment, Payload, Verdict, tool_request};

pub(super) fn read(host: Host, p: &Payload<'_>) -> Result<HookCall, HookError> {
    let event = p.required_str("hook_event_name")?;
    let moment = match event {
        "PreToolUse" => Moment::BeforeTool,
        "PermissionRequest" => Moment::Permission,
        "PostToolUse" => Moment::AfterTool,
        "UserPromptSubmit" => Moment::Prompt,
        _ => Moment::Other,
    };
    let fail = |e: HookError| HookError {
        event: Some(event.to_owned()),
        ..e
    };
    let session = p.str("session_id").map_err(fail)?;
    let cwd = p.str("cwd").map_err(fail)?;
    // Claude Code asks in its own terminal; Codex ignores `ask`.
    let interactive = host == Host::ClaudeCode;
    let base = |stage| p.request(stage, session, cwd, None, interactive);
    let mut original = None;
    let requests = match moment {
        Moment::BeforeTool | Moment::Permission | Moment::AfterTool => {
            let name = p.required_str("tool_name").map_err(fail)?;
            let input = if moment == Moment::AfterTool {
                p.arguments("tool_input")
            } else {
                p.required_arguments("tool_input")
            }
            .map_err(fail)?;
            let call_id = p.str("tool_use_id").map_err(fail)?;
            if moment == Moment::AfterTool {
                let mut r = tool_request(base(Stage::ToolOutput), name, input, call_id);
                let output = p
                    .get("tool_response")
                    .or_else(|| p.get("tool_output"))
                    .cloned()
                    .unwrap_or(Value::Null);
                original = Some(output.clone());
                if let Some(tool) = r.tool.as_mut() {
                    tool.output = Some(output);
                }
                vec![r]
            } else {
                original = Some(input.clone());
                vec![tool_request(base(Stage::ToolUse), name, input, call_id)]
            }
        }
        Moment::Prompt => {
            let prompt = p.str("prompt").map_err(fail)?.unwrap_or_default();
            vec![base(Stage::Input).with_content(prompt)]
        }
        _ => Vec::new(),
    };
    Ok(HookCall {
        host,
        event: event.to_owned(),
        moment,
        requests,
        original,
        stream: None,
    })
}

pub(super) fn answer(call: &HookCall, verdict: &Verdict) -> Answer {
    let codex = call.host == Host::Codex;
    match call.moment {
        Moment::BeforeTool => {
            let pre = |decision: &str, why: &str| {
                json!({"hookSpecificOutput": {
                    "hookEventName": "PreToolUse",
                    "permissionDecision": decision,
                    "permissionDecisionReason": why,
                }})
            };
            match verdict {
                Verdict::Allow => Answer::silent(),
                Verdict::Ask(why) if !codex => Answer::json(pre("ask", why)),
                Verdict::Ask(why) => Answer::json(pre(
                    "deny",
                    &format!("{why} (Codex cannot ask the user, so it is refused)"),
                )),
                Verdict::Deny(why) => Answer::json(pre("deny", why)),
                Verdict::Rewrite { value, why, .. } if value.is_object() => {
                    let mut out = pre("allow", why);
                    out["hookSpecificOutput"]["updatedInput"] = value.clone();
                    Answer::json(out)
                }
                Verdict::Rewrite { value, why, .. } => {
                    Answer::json(pre("deny", &Verdict::deny_rewrite(why, value)))
                }
            }
        }
        Moment::Permission => {
            let deny = |why: &str| {
                Answer::json(json!({"hookSpecificOutput": {
                    "hookEventName": "PermissionRequest",
                    "decision": {"behavior": "deny", "message": why},
                }}))
            };
            match verdict {
                // The host is asking the user already.
                Verdict::Allow | Verdict::Ask(_) => Answer::silent(),
                Verdict::Deny(why) => deny(why),
                Verdict::Rewrite { value, why, .. } => deny(&Verdict::deny_rewrite(why, value)),
            }
        }
        Moment::AfterTool => match verdict {
            Verdict::Allow => Answer::silent(),
            Verdict::Ask(why) | Verdict::Deny(why) => {
                let mut out = json!({"decision": "block", "reason": why});
                if !codex {
                    let text = format!("This tool output was withheld. {why}");
                    out["hookSpecificOutput"] = updated_output(call, &withheld(call, &text));
                }
                Answer::json(out)
            }
            Verdict::Rewrite {
                value,
                why,
                withheld,
            } => {
                if codex {
                    // Codex cannot replace a tool's output: the model gets the reason instead.
                    let text = match (withheld, value) {
                        (true, Value::String(s)) => format!("{s} {why}"),
                        _ => Verdict::deny_rewrite(why, value),
                    };
                    return Answer::json(json!({"decision": "block", "reason": text}));
                }
                let value = match (withheld, value) {
                    (true, Value::String(text)) => self::withheld(call, text),
                    _ => value.clone(),
                };
                let mut out = json!({ "hookSpecificOutput": updated_output(call, &value) });
                if *withheld {
                    out["decision"] = json!("block");
                    out["reason"] = json!(why);
                }
                Answer::json(out)
            }
        },
        Moment::Prompt => match verdict {
            Verdict::Allow => Answer::silent(),
            Verdict::Ask(why) | Verdict::Deny(why) => {
                Answer::json(json!({"decision": "block", "reason": why}))
            }
            Verdict::Rewrite { value, why, .. } => Answer::json(json!({
                "decision": "block",
                "reason": Verdict::deny_rewrite(why, value),
            })),
        },
        Moment::ReadFile | Moment::ModelOutput | Moment::Other => Answer::silent(),
    }
}

/// `hookSpecificOutput` replacing a tool's output (for an MCP tool also
/// under the name older Claude Code versions read).
fn updated_output(call: &HookCall, value: &Value) -> Value {
    let mut out = json!({"hookEventName": "PostToolUse", "updatedToolOutput": value});
    let mcp = call
        .requests
        .first()
        .and_then(|r| r.tool.as_ref())
        .is_some_and(|t| t.name.starts_with("mcp__"));
    if mcp {
        out["updatedMCPToolOutput"] = value.clone();
    }
    out
}

/// Members of a tool's output that describe it rather than hold what it
/// returned (Claude Code reads a replacement only in the tool's own shape).
const STRUCTURAL: &[&str] = &[
    "type",
    "filePath",
    "file_path",
    "path",
    "mode",
    "kind",
    "status",
];

/// The tool's output in its own shape, every text it returned replaced by
/// `text` (a string output is `text` itself).
fn withheld(call: &HookCall, text: &str) -> Value {
    fn replace(v: &mut Value, text: &str, depth: usize) {
        match v {
            Value::String(s) if !s.is_empty() => *s = text.to_owned(),
            // Deeper than this, the whole part goes.
            Value::Object(_) | Value::Array(_) if depth >= 64 => {
                *v = Value::String(text.to_owned())
            }
            Value::Object(map) if depth < 64 => {
                for (k, child) in map.iter_mut() {
                    if !(child.is_string() && STRUCTURAL.contains(&k.as_str())) {
                        replace(child, text, depth + 1);
                    }
                }
            }
            Value::Array(items) if depth < 64 => {
                for child in items {
                    replace(child, text, depth + 1);
                }
            }
            _ => {}
        }
    }
    match &call.original {
        Some(original @ (Value::Object(_) | Value::Array(_))) => {
            let mut out = original.clone();
            replace(&mut out, text, 0);
            out
        }
        _ => Value::String(text.to_owned()),
    }
}
