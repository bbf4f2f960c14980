//! Cursor: `beforeShellExecution` (`command`, `cwd`), `beforeMCPExecution`
//! (`tool_name`, `tool_input`), `beforeReadFile` (`file_path`, `content`)
//! and `beforeSubmitPrompt` (`prompt`), with `conversation_id` and
//! `workspace_roots`. It reads `permission` (`allow`, `deny`, `ask`; only
//! `allow` and `deny` for file reads) with `user_message` and
//! `agent_message`, and `continue: false` for a prompt. It has no rewrite,
//! so a change the policy would make is refused, saying what it would be.
//!
//! A file read is two requests: the read itself (stage `tool_use`, the
//! path) and the content the model would get (stage `tool_output`).

use palisade_protocol::Stage;
use serde_json::{Value, json};

use super::{Answer, HookCall, HookError, Host, Moment, Payload, Verdict, tool_request};

/// The tool names the shell and file-read events are checked under.
const SHELL_TOOL: &str = "Shell";
const READ_TOOL: &str = "Read";

pub(super) fn read(p: &Payload<'_>) -> Result<HookCall, HookError> {
    let event = p.required_str("hook_event_name")?;
    let fail = |e: HookError| HookError {
        event: Some(event.to_owned()),
        ..e
    };
    let session = p.str("conversation_id").map_err(fail)?;
    let workspace = match p.get("workspace_roots") {
        None => None,
        Some(Value::Array(roots)) => roots.first().and_then(Value::as_str),
        Some(_) => {
            return Err(fail(HookError::new(
                "`workspace_roots` must be an array of paths",
            )));
        }
    };
    let cwd = p.str("cwd").map_err(fail)?.or(workspace);
    let base = |stage, interactive| p.request(stage, session, cwd, workspace, interactive);
    let (moment, requests) = match event {
        "beforeShellExecution" => {
            let command = p.required_str("command").map_err(fail)?;
            let mut args = json!({ "command": command });
            if let Some(cwd) = cwd {
                args["cwd"] = json!(cwd);
            }
            let r = tool_request(base(Stage::ToolUse, true), SHELL_TOOL, args, None);
            (Moment::BeforeTool, vec![r])
        }
        "beforeMCPExecution" | "preToolUse" => {
            let name = p.required_str("tool_name").map_err(fail)?;
            let input = p.required_arguments("tool_input").map_err(fail)?;
            let r = tool_request(base(Stage::ToolUse, true), name, input, None);
            (Moment::BeforeTool, vec![r])
        }
        "beforeReadFile" => {
            let path = p.required_str("file_path").map_err(fail)?;
            let read = tool_request(
                base(Stage::ToolUse, false),
                READ_TOOL,
                json!({ "file_path": path }),
                None,
            );
            let mut requests = vec![read];
            if let Some(content) = p.str("content").map_err(fail)? {
                let mut out = tool_request(
                    base(Stage::ToolOutput, false),
                    READ_TOOL,
                    json!({ "file_path": path }),
                    None,
                );
                if let Some(tool) = out.tool.as_mut() {
                    tool.output = Some(json!(content));
                }
                requests.push(out);
            }
            (Moment::ReadFile, requests)
        }
        "beforeSubmitPrompt" => {
            let prompt = p.str("prompt").map_err(fail)?.unwrap_or_default();
            (
                Moment::Prompt,
                vec![base(Stage::Input, false).with_content(prompt)],
            )
        }
        _ => (Moment::Other, Vec::new()),
    };
    Ok(HookCall {
        host: Host::Cursor,
        event: event.to_owned(),
        moment,
        requests,
        original: None,
        stream: None,
    })
}

pub(super) fn answer(call: &HookCall, verdict: &Verdict) -> Answer {
    let why = match verdict {
        Verdict::Allow => return Answer::silent(),
        Verdict::Ask(why) | Verdict::Deny(why) => why.clone(),
        Verdict::Rewrite { value, why, .. } => Verdict::deny_rewrite(why, value),
    };
    let permission = |permission: &str, why: &str| {
        Answer::json(json!({
            "permission": permission,
            "user_message": why,
            "agent_message": why,
        }))
    };
    match (call.moment, verdict) {
        (Moment::BeforeTool, Verdict::Ask(_)) => permission("ask", &why),
        (Moment::BeforeTool, _) => permission("deny", &why),
        (Moment::ReadFile, Verdict::Ask(_)) => permission(
            "deny",
            &format!("{why} (Cursor cannot ask before a file read, so it is refused)"),
        ),
        (Moment::ReadFile, _) => permission("deny", &why),
        (Moment::Prompt, _) => Answer::json(json!({
            "continue": false,
            "user_message": why,
        })),
        _ => Answer::silent(),
    }
}
