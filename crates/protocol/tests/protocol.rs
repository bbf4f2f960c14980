//! Wire-format tests: fixtures from the specification and the pi protocol,
//! the committed JSON Schemas, validation and stage inference.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

#[path = "protocol/roundtrip.rs"]
mod roundtrip;
mod util;

use palisade_protocol::{
    Action, CheckRequest, Decision, DecisionKind, Finding, FindingAction, Location, ResourceKind,
    Stage,
};
use serde_json::{Value, json};
use util::{fixture, schema_validator};

#[test]
fn spec_request_round_trips() {
    let original = fixture("spec-request.json");
    let request: CheckRequest = serde_json::from_value(original.clone()).unwrap();
    assert_eq!(request.effective_stage(), Stage::ToolUse);
    assert_eq!(request.tool.as_ref().unwrap().name, "sql_query");
    assert_eq!(request.action.as_ref().unwrap().confidence, Some(0.85));
    assert_eq!(request.context_str("workspaceRoot"), Some("/repo"));
    request.validate().unwrap();
    assert_eq!(serde_json::to_value(&request).unwrap(), original);
}

#[test]
fn spec_decision_round_trips() {
    let original = fixture("spec-decision.json");
    let decision: Decision = serde_json::from_value(original.clone()).unwrap();
    assert_eq!(decision.decision, DecisionKind::Block);
    assert_eq!(
        decision.violations[0].location.as_ref().unwrap().end,
        Some(10)
    );
    assert_eq!(serde_json::to_value(&decision).unwrap(), original);
}

#[test]
fn pi_request_is_a_valid_request_as_it_stands() {
    let original = fixture("pi-request-mcp-write.json");
    let request: CheckRequest = serde_json::from_value(original.clone()).unwrap();
    assert_eq!(request.effective_stage(), Stage::Action);
    assert!(request.is_interactive());
    let action = request.action.as_ref().unwrap();
    assert_eq!(action.resource.as_ref().unwrap().kind, ResourceKind::File);
    assert_eq!(
        action.resource.as_ref().unwrap().resource_type.as_deref(),
        Some("mcp-tool")
    );
    assert_eq!(
        action.targets.as_ref().unwrap()[0].uri,
        "file:///repo/package.json"
    );
    request.validate().unwrap();
    assert_eq!(serde_json::to_value(&request).unwrap(), original);
}

#[test]
fn pi_decision_parses_and_gains_only_the_always_present_fields() {
    let original = fixture("pi-decision-ask.json");
    let decision: Decision = serde_json::from_value(original.clone()).unwrap();
    assert_eq!(decision.decision, DecisionKind::Ask);
    assert!(
        !decision.allowed,
        "allowed is derived from the kind when absent"
    );
    let mut expected = original;
    let obj = expected.as_object_mut().unwrap();
    obj.insert("allowed".into(), json!(false));
    obj.insert("violations".into(), json!([]));
    obj.insert("warnings".into(), json!([]));
    assert_eq!(serde_json::to_value(&decision).unwrap(), expected);

    let allow: Decision = serde_json::from_value(json!({
        "protocolVersion": "1", "requestId": "r", "decision": "allow"
    }))
    .unwrap();
    assert!(allow.allowed);
    let contradictory: Decision = serde_json::from_value(json!({
        "protocolVersion": "1", "requestId": "r", "decision": "block", "allowed": true
    }))
    .unwrap();
    assert!(
        !contradictory.allowed,
        "allowed follows the decision, never the other way"
    );
}

#[test]
fn unknown_fields_are_ignored() {
    let request: CheckRequest = serde_json::from_value(json!({
        "content": "hi", "futureField": {"x": 1},
        "tool": {"name": "t", "futureToolField": true},
        "agent": {"id": "a", "team": "blue"}
    }))
    .unwrap();
    assert_eq!(request.content.as_deref(), Some("hi"));
    let out = serde_json::to_value(&request).unwrap();
    assert!(out.get("futureField").is_none());
}

#[test]
fn wrong_types_and_values_are_rejected_by_serde() {
    for (body, needle) in [
        (json!({"stage": "bogus"}), "unknown variant `bogus`"),
        (json!({"content": 5}), "invalid type"),
        (json!({"tool": {"arguments": {}}}), "missing field `name`"),
        (
            json!({"action": {"stakes": "extreme"}}),
            "unknown variant `extreme`",
        ),
        (
            json!({"action": {"resource": {"kind": "disk"}}}),
            "unknown variant `disk`",
        ),
        (json!({"options": {"timeoutMs": -1}}), "invalid value"),
    ] {
        let err = serde_json::from_value::<CheckRequest>(body.clone())
            .unwrap_err()
            .to_string();
        assert!(err.contains(needle), "{body}: {err}");
    }
}

#[test]
fn validate_reports_every_problem_with_its_pointer() {
    let request: CheckRequest = serde_json::from_value(json!({
        "protocolVersion": "2",
        "requestId": "",
        "tool": {"name": ""},
        "action": {"confidence": 1.5, "targets": [{"uri": "/ok"}, {"uri": ""}], "description": " "},
        "checks": ["a", ""]
    }))
    .unwrap();
    let problems = request.validate().unwrap_err();
    let pointers: Vec<&str> = problems.iter().map(|p| p.pointer.as_str()).collect();
    assert_eq!(
        pointers,
        [
            "/protocolVersion",
            "/requestId",
            "/tool/name",
            "/action/confidence",
            "/action/targets/1/uri",
            "/action/description",
            "/checks/1"
        ]
    );
    assert!(problems[0].message.contains("`2`") && problems[0].message.contains("`1`"));
    assert!(problems[3].message.contains("between 0 and 1"));
    assert_eq!(
        problems[3].to_string(),
        "/action/confidence: confidence must be between 0 and 1, got 1.5"
    );
}

#[test]
fn negative_confidence_is_a_problem_and_bounds_are_fine() {
    for (c, ok) in [(-0.01, false), (0.0, true), (1.0, true), (1.0001, false)] {
        let r = CheckRequest::action(Action::described("x").with_confidence(c));
        assert_eq!(r.validate().is_ok(), ok, "confidence {c}");
    }
}

#[test]
fn stage_inference_follows_the_spec() {
    let cases = [
        (json!({}), Stage::Input),
        (json!({"content": "x"}), Stage::Input),
        (json!({"tool": {"name": "t"}}), Stage::ToolUse),
        (
            json!({"tool": {"name": "t", "arguments": {}}}),
            Stage::ToolUse,
        ),
        (
            json!({"tool": {"name": "t", "output": "r"}}),
            Stage::ToolOutput,
        ),
        (
            json!({"tool": {"name": "t", "output": null}}),
            Stage::ToolUse,
        ),
        (
            json!({"tool": {"name": "t", "error": "boom"}}),
            Stage::ToolOutput,
        ),
        (
            json!({"tool": {"name": "t", "output": "r"}, "action": {}}),
            Stage::Action,
        ),
        (json!({"action": {"description": "d"}}), Stage::Action),
        (
            json!({"stage": "output", "tool": {"name": "t"}}),
            Stage::Output,
        ),
    ];
    for (body, stage) in cases {
        let r: CheckRequest = serde_json::from_value(body.clone()).unwrap();
        assert_eq!(r.effective_stage(), stage, "{body}");
    }
}

#[test]
fn builders_make_the_common_cases_short() {
    let r = CheckRequest::tool_use("bash", json!({"command": "ls"})).with_request_id("r1");
    assert_eq!(
        serde_json::to_value(&r).unwrap(),
        json!({"requestId": "r1", "stage": "tool_use", "tool": {"name": "bash", "arguments": {"command": "ls"}}})
    );
    let a = CheckRequest::action(
        Action::new("write", ResourceKind::File).with_target("file:///repo/.env"),
    )
    .with_context("cwd", "/repo")
    .interactive(true);
    assert_eq!(
        serde_json::to_value(&a).unwrap(),
        json!({
            "stage": "action",
            "action": {"operation": "write", "resource": {"kind": "file"},
                       "targets": [{"uri": "file:///repo/.env"}]},
            "context": {"cwd": "/repo"},
            "options": {"interactive": true}
        })
    );
    let d = Decision::allow("r1");
    assert_eq!(
        serde_json::to_value(&d).unwrap(),
        json!({"protocolVersion": "1", "requestId": "r1", "decision": "allow", "allowed": true,
               "violations": [], "warnings": []})
    );
    let f = Finding::new("sql-drop", "regex", FindingAction::Block).with_location(Location::span(
        "/tool/arguments/query",
        0,
        10,
    ));
    assert_eq!(f.reason_code, "guardrail.regex");
}

#[test]
fn set_kind_keeps_allowed_consistent() {
    let mut d = Decision::allow("r");
    for kind in DecisionKind::ALL {
        d.set_kind(*kind);
        assert_eq!(
            d.allowed,
            matches!(kind, DecisionKind::Allow | DecisionKind::Modify)
        );
    }
}

#[test]
fn schemas_accept_the_examples() {
    let request = schema_validator("check-request.v1.json");
    for name in ["spec-request.json", "pi-request-mcp-write.json"] {
        let doc = fixture(name);
        let errors: Vec<String> = request.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
    let decision = schema_validator("decision.v1.json");
    let doc = fixture("spec-decision.json");
    let errors: Vec<String> = decision.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let generated = serde_json::to_value(Decision::allow("x")).unwrap();
    assert!(decision.is_valid(&generated));
}

fn with(mut doc: Value, pointer: &str, value: Value) -> Value {
    *doc.pointer_mut(pointer).unwrap() = value;
    doc
}

#[test]
fn request_schema_rejects_broken_variants() {
    let validator = schema_validator("check-request.v1.json");
    let base = fixture("spec-request.json");
    let mut no_tool_name = base.clone();
    no_tool_name["tool"].as_object_mut().unwrap().remove("name");
    let broken = [
        ("wrong stage", with(base.clone(), "/stage", json!("bogus"))),
        (
            "confidence 1.5",
            with(base.clone(), "/action/confidence", json!(1.5)),
        ),
        (
            "confidence -1",
            with(base.clone(), "/action/confidence", json!(-1)),
        ),
        ("missing tool name", no_tool_name),
        (
            "empty tool name",
            with(base.clone(), "/tool/name", json!("")),
        ),
        (
            "wrong stakes",
            with(base.clone(), "/action/stakes", json!("extreme")),
        ),
        (
            "wrong resource kind",
            with(base.clone(), "/action/resource/kind", json!("disk")),
        ),
        (
            "content not a string",
            with(base.clone(), "/content", json!(42)),
        ),
        (
            "checks not strings",
            with(base.clone(), "/checks", json!([1])),
        ),
        (
            "timeout negative",
            with(base, "/options/timeoutMs", json!(-5)),
        ),
    ];
    for (what, doc) in broken {
        assert!(!validator.is_valid(&doc), "schema accepted {what}");
    }
}

#[test]
fn decision_schema_rejects_broken_variants() {
    let validator = schema_validator("decision.v1.json");
    let base = fixture("spec-decision.json");
    let mut no_allowed = base.clone();
    no_allowed.as_object_mut().unwrap().remove("allowed");
    let broken = [
        (
            "wrong decision",
            with(base.clone(), "/decision", json!("maybe")),
        ),
        (
            "wrong severity",
            with(base.clone(), "/violations/0/severity", json!("huge")),
        ),
        (
            "wrong finding action",
            with(base.clone(), "/violations/0/action", json!("explode")),
        ),
        ("missing allowed", no_allowed),
        ("null message", with(base, "/message", Value::Null)),
    ];
    for (what, doc) in broken {
        assert!(!validator.is_valid(&doc), "schema accepted {what}");
    }
}
