//! Helpers shared by the engine integration tests: compiling policies from
//! JSON values, and the invariants every decision must satisfy whatever the
//! policy and the request (SPEC §2.2, §4.2, §4.3).

use std::path::PathBuf;

use palisade_engine::{Engine, Policy, PolicyErrors};
use palisade_protocol::{Decision, DecisionKind, Finding, FindingAction, Mode};
use serde_json::Value;

/// The folder of YAML case files.
pub(crate) fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

/// Validates and compiles a policy given as a JSON value.
pub(crate) fn compile(policy: &Value) -> Result<Engine, PolicyErrors> {
    Engine::new(Policy::from_value(policy)?)
}

/// The check ids of some findings, in order.
pub(crate) fn ids(findings: &[Finding]) -> Vec<&str> {
    findings.iter().map(|f| f.check_id.as_str()).collect()
}

/// The decision the algebra of SPEC §4.2 gives for these findings: `block`
/// over `ask` over `modify` over `allow`.
pub(crate) fn kind_from_findings(decision: &Decision) -> DecisionKind {
    let has = |a: FindingAction| decision.findings().any(|f| f.action == a);
    if has(FindingAction::Block) {
        DecisionKind::Block
    } else if has(FindingAction::Ask) {
        DecisionKind::Ask
    } else if has(FindingAction::Redact) {
        DecisionKind::Modify
    } else {
        DecisionKind::Allow
    }
}

/// The decision as pretty JSON without the fields that change from run to
/// run, for failure reports.
pub(crate) fn show(decision: &Decision) -> String {
    let mut value = serde_json::to_value(decision).unwrap_or(Value::Null);
    if let Some(obj) = value.as_object_mut() {
        for key in ["requestId", "evaluatedAt", "durationUs", "provider"] {
            obj.remove(key);
        }
    }
    serde_json::to_string_pretty(&value).unwrap_or_default()
}

/// The texts a finding located at `pointer` may have matched in: the value
/// there (a string, or a number as its JSON text) and, inside a JSON
/// payload, the object key that ends the pointer.
fn texts_at(request: &Value, pointer: &str) -> Vec<String> {
    let mut out = Vec::new();
    match request.pointer(pointer) {
        Some(Value::String(s)) => out.push(s.clone()),
        Some(Value::Number(n)) => out.push(n.to_string()),
        _ => {}
    }
    let in_payload = ["/tool/arguments/", "/tool/output/", "/action/attributes/"]
        .iter()
        .any(|p| pointer.starts_with(p));
    if let (true, Some(i)) = (in_payload, pointer.rfind('/')) {
        let parent = &pointer[..i];
        if request.pointer(parent).is_some_and(Value::is_object) {
            out.push(pointer[i + 1..].replace("~1", "/").replace("~0", "~"));
        }
    }
    out
}

/// Every invariant a decision must satisfy, as a list of broken ones.
///
/// - `allowed` is true exactly for `allow` and `modify`;
/// - violations are `block`/`ask`, warnings are `warn`/`log`/`redact`;
/// - the decision is the one the findings give (block > ask > modify > allow);
/// - `modified` is present exactly with `modify`, and redaction changes
///   strings, never the number of values in the payload;
/// - in advisory mode every finding is `log` and the decision is `allow`;
/// - `reasonCode` of a finding is `guardrail.<type>`;
/// - without `options.interactive: true` there is no `ask`;
/// - no finding, and neither the decision's `message` nor `reasonCode`,
///   contains the text that was matched (SPEC §2.2).
pub(crate) fn invariants(mode: Mode, request: &Value, decision: &Decision) -> Vec<String> {
    let mut broken = Vec::new();
    let allowed = matches!(
        decision.decision,
        DecisionKind::Allow | DecisionKind::Modify
    );
    if decision.allowed != allowed {
        broken.push(format!(
            "`allowed` is {} with decision `{}`",
            decision.allowed, decision.decision
        ));
    }
    for f in &decision.violations {
        if !matches!(f.action, FindingAction::Block | FindingAction::Ask) {
            broken.push(format!(
                "violation `{}` has action `{}`",
                f.check_id, f.action
            ));
        }
    }
    for f in &decision.warnings {
        if !matches!(
            f.action,
            FindingAction::Warn
                | FindingAction::Log
                | FindingAction::Redact
                | FindingAction::FailOpen
        ) {
            broken.push(format!(
                "warning `{}` has action `{}`",
                f.check_id, f.action
            ));
        }
    }
    let algebra = kind_from_findings(decision);
    if decision.decision != algebra {
        broken.push(format!(
            "decision is `{}` but its findings give `{algebra}`",
            decision.decision
        ));
    }
    if decision.modified.is_some() != (decision.decision == DecisionKind::Modify) {
        broken.push(format!(
            "`modified` is {} with decision `{}`",
            if decision.modified.is_some() {
                "present"
            } else {
                "absent"
            },
            decision.decision
        ));
    }
    if decision.mode != Some(mode) {
        broken.push(format!(
            "decision mode is {:?}, the policy's is `{mode}`",
            decision.mode
        ));
    }
    if mode == Mode::Advisory {
        if decision.decision != DecisionKind::Allow {
            broken.push(format!(
                "advisory mode gave decision `{}`",
                decision.decision
            ));
        }
        for f in decision.findings() {
            if f.action != FindingAction::Log {
                broken.push(format!(
                    "advisory mode reported `{}` with action `{}`",
                    f.check_id, f.action
                ));
            }
        }
    }
    if let Some(modified) = &decision.modified {
        for (field, original) in [
            ("arguments", request.pointer("/tool/arguments")),
            ("output", request.pointer("/tool/output")),
        ] {
            let redacted = match field {
                "arguments" => modified.arguments.as_ref(),
                _ => modified.output.as_ref(),
            };
            if let (Some(original), Some(redacted)) = (original, redacted)
                && nodes(original) != nodes(redacted)
            {
                broken.push(format!(
                    "`modified.{field}` has {} JSON values where the request has {}: \
                     redaction lost or added members",
                    nodes(redacted),
                    nodes(original)
                ));
            }
        }
    }
    let interactive = request
        .pointer("/options/interactive")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if !interactive && decision.decision == DecisionKind::Ask {
        broken.push("decision `ask` on a request that is not interactive".to_owned());
    }
    for f in decision.findings() {
        // Findings about the request itself (`request.unknown_field`) come
        // from no check.
        if f.check_type == "request" {
            if f.check_id != "palisade/request" || !f.reason_code.starts_with("request.") {
                broken.push(format!(
                    "a request finding is `{}` / `{}`",
                    f.check_id, f.reason_code
                ));
            }
            continue;
        }
        // A condition that could not be evaluated is a warning of its
        // check, with a reason code of its own.
        if f.reason_code == "policy.condition_error" {
            if f.action != FindingAction::Warn || !decision.warnings.contains(f) {
                broken.push(format!(
                    "a condition error of `{}` is not a warning",
                    f.check_id
                ));
            }
            continue;
        }
        if f.reason_code != format!("guardrail.{}", f.check_type) {
            broken.push(format!(
                "finding `{}` has reasonCode `{}`",
                f.check_id, f.reason_code
            ));
        }
    }
    // `location.field` is left out: a pointer names the object keys on its
    // way, and a key can be what matched.
    let mut said = String::new();
    for f in decision.findings() {
        for text in [
            Some(f.check_id.as_str()),
            f.name.as_deref(),
            Some(f.check_type.as_str()),
            Some(f.reason_code.as_str()),
            f.message.as_deref(),
            f.suggestion.as_deref(),
        ]
        .into_iter()
        .flatten()
        {
            said.push_str(text);
            said.push('\n');
        }
    }
    said.push_str(decision.message.as_deref().unwrap_or(""));
    said.push_str(decision.reason_code.as_deref().unwrap_or(""));
    for f in decision.findings() {
        let Some(loc) = &f.location else { continue };
        let matched: Vec<String> = match (loc.start, loc.end) {
            (Some(start), Some(end)) => texts_at(request, &loc.field)
                .iter()
                .filter_map(|t| t.get(start..end).map(str::to_owned))
                .collect(),
            // Without a span nothing was matched as text (a tool name, an
            // argument that fails its schema): the pointer names the field.
            _ => Vec::new(),
        };
        for m in matched {
            // Very short matches occur in any English message by chance.
            if m.len() >= 4 && said.contains(&m) {
                broken.push(format!(
                    "the decision repeats the matched text {m:?} (finding `{}`)",
                    f.check_id
                ));
            }
        }
    }
    broken
}

/// How many JSON values a value holds, itself included.
fn nodes(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(nodes).sum(),
        Value::Object(members) => members.values().map(nodes).sum(),
        _ => 0,
    }
}
