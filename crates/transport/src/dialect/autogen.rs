//! The AutoGen `GuardrailProvider` mapping (SPEC §6, seed 004): a tool call
//! (`tool_name`, `args`, `agent_name`, `call_id`) is a v1 `tool_use`
//! request; the decision comes back as AutoGen's `GuardrailResult`:
//! `allow` → `allow`, `modify` → `modify` with the redacted arguments,
//! anything else → `deny` with the decision's message as the reason.

use palisade_protocol::{Agent, CheckRequest, Decision, DecisionKind};
use serde_json::{Map, Value};

use crate::wire::{AutogenDecision, AutogenEvaluate, AutogenResult};

/// The v1 request of an evaluation.
pub(crate) fn request(e: &AutogenEvaluate) -> CheckRequest {
    let mut request = CheckRequest::tool_use(e.tool_name.clone(), Value::Object(e.args.clone()));
    if let Some(tool) = request.tool.as_mut() {
        tool.call_id = e.call_id.clone();
    }
    request.request_id = e.call_id.clone();
    request.agent = e.agent_name.as_ref().map(|name| Agent {
        id: Some(name.clone()),
        name: Some(name.clone()),
        ..Agent::default()
    });
    request
}

/// The `GuardrailResult` of a decision.
pub(crate) fn result(d: &Decision) -> AutogenResult {
    let mut metadata = Map::new();
    if let Some(r) = &d.receipt_id {
        metadata.insert("receiptId".into(), Value::from(r.as_str()));
    }
    metadata.insert("requestId".into(), Value::from(d.request_id.as_str()));
    let mut checks: Vec<&str> = d.findings().map(|f| f.check_id.as_str()).collect();
    checks.dedup();
    metadata.insert("checkIds".into(), Value::from(checks));
    let (decision, modified_args) = match d.decision {
        DecisionKind::Allow => (AutogenDecision::Allow, None),
        DecisionKind::Modify => match d.modified.as_ref().and_then(|m| m.arguments.clone()) {
            Some(args) => (AutogenDecision::Modify, Some(args)),
            // A redaction outside the arguments cannot be applied by AutoGen.
            None => (AutogenDecision::Deny, None),
        },
        _ => (AutogenDecision::Deny, None),
    };
    let reason = match decision {
        AutogenDecision::Allow => None,
        _ => d
            .message
            .clone()
            .or_else(|| d.reason_code.clone())
            .or_else(|| Some("blocked by policy".to_owned())),
    };
    AutogenResult {
        decision,
        reason,
        modified_args,
        metadata,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use palisade_protocol::{Modified, Stage};
    use serde_json::json;

    #[test]
    fn a_tool_call_becomes_a_tool_use_request() {
        let e: AutogenEvaluate = serde_json::from_value(json!({
            "tool_name": "bash", "args": {"command": "ls"}, "agent_name": "coder", "call_id": "c1"
        }))
        .unwrap();
        let r = request(&e);
        assert_eq!(r.effective_stage(), Stage::ToolUse);
        let tool = r.tool.as_ref().unwrap();
        assert_eq!(tool.name, "bash");
        assert_eq!(tool.arguments, Some(json!({"command": "ls"})));
        assert_eq!(tool.call_id.as_deref(), Some("c1"));
        assert_eq!(r.request_id.as_deref(), Some("c1"));
        assert_eq!(r.agent.unwrap().id.as_deref(), Some("coder"));
        assert!(serde_json::from_value::<AutogenEvaluate>(json!({"args": {}})).is_err());
    }

    #[test]
    fn decisions_map_to_allow_modify_and_deny() {
        let allow = Decision::allow("r");
        assert_eq!(result(&allow).decision, AutogenDecision::Allow);
        assert_eq!(result(&allow).reason, None);
        let block = Decision::block("r", "guardrail.command", "Tool call blocked");
        let r = result(&block);
        assert_eq!(
            (r.decision, r.reason.as_deref()),
            (AutogenDecision::Deny, Some("Tool call blocked"))
        );
        let mut modify = Decision::allow("r");
        modify.set_kind(DecisionKind::Modify);
        modify.message = Some("redacted".into());
        modify.modified = Some(Modified {
            arguments: Some(json!({"key": "[REDACTED:aws_access_key_id]"})),
            ..Modified::default()
        });
        let r = result(&modify);
        assert_eq!(r.decision, AutogenDecision::Modify);
        assert_eq!(
            r.modified_args,
            Some(json!({"key": "[REDACTED:aws_access_key_id]"}))
        );
        let mut ask = Decision::allow("r");
        ask.set_kind(DecisionKind::Ask);
        assert_eq!(result(&ask).decision, AutogenDecision::Deny);
    }
}
