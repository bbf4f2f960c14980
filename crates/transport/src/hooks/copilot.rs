//! GitHub Copilot CLI: its payloads carry no event name, so the event is
//! told by shape: `toolName` and `toolArgs` (a JSON string) before a tool,
//! plus `toolResult` after it, `prompt` for a submitted prompt. Only the
//! pre-tool answer is obeyed: `permissionDecision: "deny"` with
//! `permissionDecisionReason`. Copilot CLI cannot ask from a hook or take
//! a rewritten call, so both are refused, saying why; after a tool and on
//! a prompt it reads no answer, so those are checked (and audited) only.

use palisade_protocol::Stage;
use serde_json::{Value, json};

use super::{Answer, HookCall, HookError, Host, Moment, Payload, Verdict, tool_request};

pub(super) fn read(p: &Payload<'_>) -> Result<HookCall, HookError> {
    let named = p
        .str("hook_event_name")?
        .or(p.str("hookEventName")?)
        .map(str::to_owned);
    let event = match named {
        Some(name) => name,
        None if p.get("toolName").is_some() && p.get("toolResult").is_some() => {
            "postToolUse".to_owned()
        }
        None if p.get("toolName").is_some() => "preToolUse".to_owned(),
        None if p.get("prompt").is_some() => "userPromptSubmitted".to_owned(),
        None => "unknown".to_owned(),
    };
    let fail = |e: HookError| HookError {
        event: Some(event.clone()),
        ..e
    };
    let cwd = p.str("cwd").map_err(fail)?;
    let session = p.str("sessionId").map_err(fail)?;
    let base = |stage| p.request(stage, session, cwd, None, false);
    let (moment, requests) = match event.as_str() {
        "preToolUse" | "postToolUse" => {
            let name = p.required_str("toolName").map_err(fail)?;
            let args = if event == "preToolUse" {
                p.required_arguments("toolArgs")
            } else {
                p.arguments("toolArgs")
            }
            .map_err(fail)?;
            if event == "preToolUse" {
                let r = tool_request(base(Stage::ToolUse), name, args, None);
                (Moment::BeforeTool, vec![r])
            } else {
                let mut r = tool_request(base(Stage::ToolOutput), name, args, None);
                let result = p.get("toolResult");
                if let Some(tool) = r.tool.as_mut() {
                    let text = result.and_then(|v| v.get("textResultForLlm"));
                    tool.output = Some(text.or(result).cloned().unwrap_or(Value::Null));
                }
                (Moment::AfterTool, vec![r])
            }
        }
        "userPromptSubmitted" => {
            let prompt = p.str("prompt").map_err(fail)?.unwrap_or_default();
            (
                Moment::Prompt,
                vec![base(Stage::Input).with_content(prompt)],
            )
        }
        _ => (Moment::Other, Vec::new()),
    };
    Ok(HookCall {
        host: Host::CopilotCli,
        event,
        moment,
        requests,
        original: None,
        stream: None,
    })
}

pub(super) fn answer(call: &HookCall, verdict: &Verdict) -> Answer {
    if call.moment != Moment::BeforeTool {
        return Answer::silent();
    }
    let why = match verdict {
        Verdict::Allow => return Answer::silent(),
        Verdict::Deny(why) => why.clone(),
        Verdict::Ask(why) => {
            format!("{why} (Copilot CLI cannot ask the user from a hook, so it is refused)")
        }
        Verdict::Rewrite { value, why, .. } => Verdict::deny_rewrite(why, value),
    };
    Answer::json(json!({
        "permissionDecision": "deny",
        "permissionDecisionReason": why,
    }))
}
