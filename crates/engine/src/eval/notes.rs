//! What a decision says about the request itself: members protocol v1 does
//! not define (`request.unknown_field` warnings), and a request that no
//! check looked at (`request.unchecked`).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use palisade_protocol::{
    CheckRequest, Decision, DecisionKind, Finding, FindingAction, Location, Severity, Stage,
};

/// The check id findings about the request carry: no check of a policy can
/// have it (ids do not hold `/`).
pub(crate) const REQUEST_CHECK: &str = "palisade/request";

/// The check type of findings about the request (not a check type).
pub(crate) const REQUEST_TYPE: &str = "request";

/// The members of each protocol object, from the generated JSON Schema of
/// the request: the schema is the one source of what v1 defines.
static MEMBERS: LazyLock<BTreeMap<String, Vec<String>>> = LazyLock::new(|| {
    let schema = serde_json::to_value(schemars::schema_for!(CheckRequest)).unwrap_or_default();
    let mut out = BTreeMap::new();
    let names = |v: &serde_json::Value| -> Vec<String> {
        v.get("properties")
            .and_then(|p| p.as_object())
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default()
    };
    out.insert(String::new(), names(&schema));
    if let Some(defs) = schema.get("$defs").and_then(|d| d.as_object()) {
        for (name, def) in defs {
            out.insert(name.clone(), names(def));
        }
    }
    out
});

/// The schema definition an object at `parent` (a pointer) is read as.
fn definition(parent: &str) -> Option<&'static str> {
    let parts: Vec<&str> = parent.split('/').skip(1).collect();
    Some(match parts.as_slice() {
        [] => "",
        ["tool"] => "Tool",
        ["agent"] => "Agent",
        ["caller"] => "Caller",
        ["options"] => "Options",
        ["action"] => "Action",
        ["action", "resource"] => "Resource",
        ["action", "targets", _] => "Target",
        _ => return None,
    })
}

/// The closest member name of the object, when one is a likely typo.
fn closest(parent: &str, key: &str) -> Option<String> {
    let known = MEMBERS.get(definition(parent)?)?;
    let folded = |s: &str| s.to_ascii_lowercase().replace(['_', '-'], "");
    let key_f = folded(key);
    known
        .iter()
        .map(|k| (distance(&folded(k), &key_f), k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4) && *d < k.len())
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k.clone())
}

/// Levenshtein distance, on characters.
#[expect(
    clippy::indexing_slicing,
    reason = "the edit-distance row has one entry per character of `b`, plus one"
)]
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

/// The member protocol v1 defines where `pointer` (an unknown member of a
/// request, as [`CheckRequest::unknown_fields`] lists them) is, whose name
/// is closest to it: `Some("content")` for `/contnt`.
pub fn closest_member(pointer: &str) -> Option<String> {
    let (parent, key) = pointer.rsplit_once('/').unwrap_or(("", pointer));
    closest(parent, &key.replace("~1", "/").replace("~0", "~"))
}

/// The warnings for the request's unknown members (never their values).
pub(crate) fn unknown_fields(request: &CheckRequest) -> Vec<Finding> {
    request
        .unknown_fields
        .iter()
        .map(|ptr| {
            let (parent, key) = ptr.rsplit_once('/').unwrap_or(("", ptr));
            let key = key.replace("~1", "/").replace("~0", "~");
            let within = if parent.is_empty() {
                "the request".to_owned()
            } else {
                format!("`{parent}`")
            };
            let mut message = format!(
                "`{key}` is not a member of {within} in protocol v1: it was not read, and no check saw it"
            );
            if let Some(k) = closest(parent, &key) {
                message.push_str(&format!("; did you mean `{k}`?"));
            }
            Finding {
                check_id: REQUEST_CHECK.to_owned(),
                name: Some("Request".to_owned()),
                check_type: REQUEST_TYPE.to_owned(),
                severity: Severity::Low,
                action: FindingAction::Warn,
                reason_code: "request.unknown_field".to_owned(),
                message: Some(message),
                suggestion: Some(
                    "Fix the member's name, or put data the protocol does not define in `context`."
                        .to_owned(),
                ),
                location: Some(Location {
                    field: ptr.clone(),
                    start: None,
                    end: None,
                }),
                source: None,
            }
        })
        .collect()
}

/// Says on an allowed decision that nothing looked at the request, and why.
pub(crate) fn unchecked(
    request: &CheckRequest,
    stage: Stage,
    evaluated: u32,
    decision: &mut Decision,
) {
    if decision.decision != DecisionKind::Allow {
        return;
    }
    let why = if evaluated == 0 {
        format!(
            "no check of the policy runs at the `{}` stage{}",
            stage.as_str(),
            if request.restricts_checks() {
                " among the checks the request names"
            } else {
                ""
            }
        )
    } else if !has_subject(request, stage) {
        format!(
            "the request holds nothing the `{}` stage reads ({})",
            stage.as_str(),
            reads(stage)
        )
    } else {
        return;
    };
    decision.reason_code = Some("request.unchecked".to_owned());
    decision.message = Some(format!("No check looked at this request: {why}."));
}

/// Whether the request holds what its stage reads.
fn has_subject(request: &CheckRequest, stage: Stage) -> bool {
    let content = request.content.as_deref().is_some_and(|c| !c.is_empty());
    match stage {
        Stage::Input | Stage::Output => content,
        Stage::ToolUse => content || request.tool.is_some(),
        Stage::ToolOutput => {
            content
                || request
                    .tool
                    .as_ref()
                    .is_some_and(|t| t.output.is_some() || t.error.is_some())
        }
        Stage::Action => content || request.action.is_some(),
        // A stage this version does not know: it reads something.
        _ => true,
    }
}

/// What a stage reads, for the message.
fn reads(stage: Stage) -> &'static str {
    match stage {
        Stage::Input | Stage::Output => "`content`",
        Stage::ToolUse => "`tool` or `content`",
        Stage::ToolOutput => "`tool.output`, `tool.error` or `content`",
        Stage::Action => "`action` or `content`",
        _ => "`content`",
    }
}

/// The reason code of a condition that could not be evaluated on a request.
pub(crate) const CONDITION_ERROR: &str = "policy.condition_error";

/// One warning per expression that could not be evaluated on the request
/// (a check's `condition`, or its `when`): the check, the expression and
/// why, so that a rule that cannot run is not mistaken for one that holds.
pub(crate) fn condition_errors(
    engine: &crate::Engine,
    errors: &[(usize, String, String)],
) -> Vec<Finding> {
    errors
        .iter()
        .filter_map(|(c, expr, why)| {
            let check = engine.policy().checks().get(*c)?;
            let is_when = check.when.as_deref() == Some(expr.as_str())
                && !matches!(&check.kind, crate::CheckKind::Condition { expr: e } if e == expr);
            let message = if is_when {
                format!(
                    "check `{}` did not run: its `when` `{expr}` cannot be evaluated on this request: {why}",
                    check.id
                )
            } else {
                format!(
                    "check `{}` did not fire: its condition `{expr}` cannot be evaluated on this request: {why}",
                    check.id
                )
            };
            Some(Finding {
                check_id: check.id.clone(),
                name: check.name.clone(),
                check_type: check.kind.type_name().to_owned(),
                severity: Severity::Low,
                action: FindingAction::Warn,
                reason_code: CONDITION_ERROR.to_owned(),
                message: Some(message),
                suggestion: Some(
                    "Write the expression for every request it may see: `has(…)` for a member a request may lack, `type(x) == list` for a value that may be a list."
                        .to_owned(),
                ),
                location: None,
                source: None,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_are_named() {
        assert_eq!(closest("/tool", "argumens").as_deref(), Some("arguments"));
        assert_eq!(closest("", "sesionId").as_deref(), Some("sessionId"));
        assert_eq!(closest("", "session_id").as_deref(), Some("sessionId"));
        assert_eq!(closest("/action/targets/0", "url").as_deref(), Some("uri"));
        assert_eq!(closest("", "tool_name"), None);
        assert_eq!(closest("/tool/arguments", "x"), None);
    }

    #[test]
    fn every_protocol_object_has_its_members() {
        assert!(MEMBERS[""].contains(&"tool".to_owned()));
        assert!(MEMBERS["Tool"].contains(&"arguments".to_owned()));
        assert!(MEMBERS["Target"].contains(&"uri".to_owned()));
        assert!(!MEMBERS[""].contains(&"unknownFields".to_owned()));
    }
}
