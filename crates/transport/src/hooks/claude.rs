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
            let input = p.arguments("tool_input").map_err(fail)?;
            let call_id = p.str("tool_use_id").map_err(fail)?;
            if moment == Moment::AfterTool {
                let mut r = tool_request(base(Stage::ToolOutput), name, input, call_id);
                let output = p
                    .get("tool_response")
                    .or_else(|| p.get("tool_output"))
                    .cloned()
                    .unwrap_or(Value::Null);
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
                    out["hookSpecificOutput"] = json!({
                        "hookEventName": "PostToolUse",
                        "updatedToolOutput": format!("This tool output was withheld. {why}"),
                    });
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
                let mut out = json!({"hookSpecificOutput": {
                    "hookEventName": "PostToolUse",
                    "updatedToolOutput": value,
                }});
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
