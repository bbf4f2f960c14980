//! Decision tests of the engine: the YAML case files of `tests/cases` (see
//! `engine/fixtures.rs` for their format), and matrices built here over every
//! check type × every stage it supports × every `on_fail` × both modes, held
//! to the decision algebra of SPEC §4.2 and §4.3.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

#[path = "engine/detectors.rs"]
mod detectors;
#[path = "engine/fixtures.rs"]
mod fixtures;
#[path = "engine/limits.rs"]
mod limits;
#[path = "engine/policy_schema.rs"]
mod policy_schema;
#[path = "engine/properties.rs"]
mod properties;
#[path = "engine/sessions.rs"]
mod sessions;
mod util;

use palisade_engine::{OnFail, default_ask_replacement, default_replacement, parse_request};
use palisade_protocol::{Decision, DecisionKind, FindingAction, Location, Mode, Stage};
use serde_json::{Value, json};
use util::{compile, ids, invariants};

/// The text every text check of the matrices looks for.
const TOKEN: &str = "31337";

/// A check type of this version, with a check of it that matches [`TOKEN`]
/// (or, for `tool_pattern`, the tool name `run_31337`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Type {
    Regex,
    Blocklist,
    ToolPattern,
}

impl Type {
    const ALL: [Type; 3] = [Type::Regex, Type::Blocklist, Type::ToolPattern];

    fn name(self) -> &'static str {
        match self {
            Type::Regex => "regex",
            Type::Blocklist => "blocklist",
            Type::ToolPattern => "tool_pattern",
        }
    }

    /// The stages SPEC §3 lets the type run at.
    fn stages(self) -> &'static [Stage] {
        match self {
            Type::Regex | Type::Blocklist => Stage::ALL,
            Type::ToolPattern => &[Stage::ToolUse],
        }
    }

    fn on_fails(self) -> Vec<OnFail> {
        OnFail::ALL
            .iter()
            .copied()
            .filter(|f| !(self == Type::ToolPattern && *f == OnFail::Redact))
            .collect()
    }

    fn default_message(self) -> &'static str {
        match self {
            Type::Regex => "matched a blocked pattern",
            Type::Blocklist => "contains a blocked phrase",
            Type::ToolPattern => "this tool is not allowed by policy",
        }
    }

    fn check(
        self,
        id: &str,
        stage: Stage,
        on_fail: OnFail,
        replacement: Option<&str>,
    ) -> serde_json::Map<String, Value> {
        let mut check = json!({
            "id": id,
            "type": self.name(),
            "stage": stage.as_str(),
            "on_fail": on_fail.as_str(),
        });
        let own = match self {
            Type::Regex => ("patterns", json!(["3133[0-9]"])),
            Type::Blocklist => ("words", json!([TOKEN])),
            Type::ToolPattern => ("tools", json!(["run_*"])),
        };
        check[own.0] = own.1;
        if let Some(r) = replacement {
            check["replacement"] = json!(r);
        }
        match check {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }
}

/// One place a stage scans, with a request that has [`TOKEN`] there and
/// nowhere else that stage scans. The tool is always named `run_31337`, which
/// no text check may see.
struct Spot {
    stage: Stage,
    what: &'static str,
    request: Value,
    pointer: &'static str,
    /// The matched bytes; `None` for a tool name, which is located as a whole.
    span: Option<(usize, usize)>,
    /// `modified` when the match is replaced by the placeholder given;
    /// `None` when the field cannot be redacted.
    redacted: Option<fn(&str) -> Value>,
}

fn tool_use(arguments: Value) -> Value {
    json!({"stage": "tool_use", "tool": {"name": "run_31337", "arguments": arguments}})
}

fn tool_output(output: Value) -> Value {
    json!({"stage": "tool_output", "tool": {"name": "run_31337", "output": output}})
}

fn action(action: Value) -> Value {
    json!({"stage": "action", "action": action})
}

/// Every kind of place SPEC §4.1 scans, at every stage.
fn text_spots() -> Vec<Spot> {
    vec![
        Spot {
            stage: Stage::Input,
            what: "content",
            request: json!({"stage": "input", "content": "say 31337 now"}),
            pointer: "/content",
            span: Some((4, 9)),
            redacted: Some(|p| json!({"content": format!("say {p} now")})),
        },
        Spot {
            stage: Stage::Output,
            what: "content",
            request: json!({"stage": "output", "content": "say 31337 now"}),
            pointer: "/content",
            span: Some((4, 9)),
            redacted: Some(|p| json!({"content": format!("say {p} now")})),
        },
        Spot {
            stage: Stage::ToolUse,
            what: "argument string",
            request: tool_use(json!({"cmd": "echo 31337", "n": 1})),
            pointer: "/tool/arguments/cmd",
            span: Some((5, 10)),
            redacted: Some(|p| json!({"arguments": {"cmd": format!("echo {p}"), "n": 1}})),
        },
        Spot {
            stage: Stage::ToolUse,
            what: "string in a nested array",
            request: tool_use(json!({"list": ["ok", ["x 31337"]]})),
            pointer: "/tool/arguments/list/1/0",
            span: Some((2, 7)),
            redacted: Some(|p| json!({"arguments": {"list": ["ok", [format!("x {p}")]]}})),
        },
        Spot {
            stage: Stage::ToolUse,
            what: "object key",
            request: tool_use(json!({"k31337": true})),
            pointer: "/tool/arguments/k31337",
            span: Some((1, 6)),
            redacted: Some(|p| json!({"arguments": {format!("k{p}"): true}})),
        },
        Spot {
            stage: Stage::ToolUse,
            what: "number leaf",
            request: tool_use(json!({"n": 9_313_377})),
            pointer: "/tool/arguments/n",
            span: Some((1, 6)),
            redacted: Some(|p| json!({"arguments": {"n": format!("9{p}7")}})),
        },
        Spot {
            stage: Stage::ToolUse,
            what: "content",
            request: json!({"stage": "tool_use", "tool": {"name": "run_31337", "arguments": {}},
                            "content": "note 31337"}),
            pointer: "/content",
            span: Some((5, 10)),
            redacted: Some(|p| json!({"content": format!("note {p}")})),
        },
        Spot {
            stage: Stage::ToolOutput,
            what: "output string",
            request: tool_output(json!("got 31337")),
            pointer: "/tool/output",
            span: Some((4, 9)),
            redacted: Some(|p| json!({"output": format!("got {p}")})),
        },
        Spot {
            stage: Stage::ToolOutput,
            what: "string leaf of JSON output",
            request: tool_output(json!({"rows": [{"v": "a31337"}]})),
            pointer: "/tool/output/rows/0/v",
            span: Some((1, 6)),
            redacted: Some(|p| json!({"output": {"rows": [{"v": format!("a{p}")}]}})),
        },
        Spot {
            stage: Stage::ToolOutput,
            what: "key of JSON output",
            request: tool_output(json!({"31337": null})),
            pointer: "/tool/output/31337",
            span: Some((0, 5)),
            redacted: Some(|p| json!({"output": {p: null}})),
        },
        Spot {
            stage: Stage::ToolOutput,
            what: "number leaf of JSON output",
            request: tool_output(json!([1, 313_370])),
            pointer: "/tool/output/1",
            span: Some((0, 5)),
            redacted: Some(|p| json!({"output": [1, format!("{p}0")]})),
        },
        Spot {
            stage: Stage::ToolOutput,
            what: "tool error",
            request: json!({"stage": "tool_output",
                            "tool": {"name": "run_31337", "error": "failed: 31337"}}),
            pointer: "/tool/error",
            span: Some((8, 13)),
            redacted: None,
        },
        Spot {
            stage: Stage::ToolOutput,
            what: "content",
            request: json!({"stage": "tool_output", "tool": {"name": "run_31337", "output": "fine"},
                            "content": "x 31337"}),
            pointer: "/content",
            span: Some((2, 7)),
            redacted: Some(|p| json!({"content": format!("x {p}")})),
        },
        Spot {
            stage: Stage::Action,
            what: "description",
            request: action(json!({"description": "deploy 31337"})),
            pointer: "/action/description",
            span: Some((7, 12)),
            redacted: None,
        },
        Spot {
            stage: Stage::Action,
            what: "operation",
            request: action(json!({"operation": "op31337"})),
            pointer: "/action/operation",
            span: Some((2, 7)),
            redacted: None,
        },
        Spot {
            stage: Stage::Action,
            what: "resource uri",
            request: action(json!({"resource": {"kind": "network", "uri": "https://h/31337"}})),
            pointer: "/action/resource/uri",
            span: Some((10, 15)),
            redacted: None,
        },
        Spot {
            stage: Stage::Action,
            what: "second target uri",
            request: action(json!({"targets": [{"uri": "file:///a"}, {"uri": "file:///31337"}]})),
            pointer: "/action/targets/1/uri",
            span: Some((8, 13)),
            redacted: None,
        },
        Spot {
            stage: Stage::Action,
            what: "attribute value",
            request: action(json!({"attributes": {"toolName": "t31337"}})),
            pointer: "/action/attributes/toolName",
            span: Some((1, 6)),
            redacted: None,
        },
        Spot {
            stage: Stage::Action,
            what: "attribute key",
            request: action(json!({"attributes": {"x31337": 1}})),
            pointer: "/action/attributes/x31337",
            span: Some((1, 6)),
            redacted: None,
        },
        Spot {
            stage: Stage::Action,
            what: "number nested in attributes",
            request: action(json!({"attributes": {"a": {"b": [313_370]}}})),
            pointer: "/action/attributes/a/b/0",
            span: Some((0, 5)),
            redacted: None,
        },
        Spot {
            stage: Stage::Action,
            what: "content",
            request: json!({"stage": "action", "action": {"description": "ok"},
                            "content": "c 31337"}),
            pointer: "/content",
            span: Some((2, 7)),
            redacted: Some(|p| json!({"content": format!("c {p}")})),
        },
    ]
}

fn tool_name_spot() -> Spot {
    Spot {
        stage: Stage::ToolUse,
        what: "tool name",
        request: tool_use(json!({"cmd": "ls"})),
        pointer: "/tool/name",
        span: None,
        redacted: None,
    }
}

fn spots(t: Type, stage: Stage) -> Vec<Spot> {
    match t {
        Type::ToolPattern => vec![tool_name_spot()],
        _ => text_spots()
            .into_iter()
            .filter(|s| s.stage == stage)
            .collect(),
    }
}

fn noun(stage: Stage) -> &'static str {
    match stage {
        Stage::Input => "Input",
        Stage::Output => "Output",
        Stage::ToolUse => "Tool call",
        Stage::ToolOutput => "Tool output",
        _ => "Action",
    }
}

fn policy(mode: Mode, checks: Vec<serde_json::Map<String, Value>>) -> Value {
    json!({"mode": mode.as_str(), "checks": checks})
}

fn evaluate(policy: &Value, request: &Value) -> Decision {
    let engine = compile(policy).unwrap_or_else(|e| panic!("{policy}: {e}"));
    let parsed = parse_request(&request.to_string()).unwrap();
    engine
        .evaluate(&parsed)
        .unwrap_or_else(|e| panic!("{request}: {e}"))
}

fn with_interactive(request: &Value, interactive: bool) -> Value {
    let mut r = request.clone();
    r["options"] = json!({"interactive": interactive});
    r
}

/// The effective action of one hit under SPEC §4.2/§4.3, and the note its
/// finding's message gets when the action had to be changed.
fn effective(
    on_fail: OnFail,
    mode: Mode,
    interactive: bool,
    redactable: bool,
) -> (FindingAction, Option<&'static str>) {
    if mode == Mode::Advisory {
        return (FindingAction::Log, None);
    }
    match on_fail {
        OnFail::Block => (FindingAction::Block, None),
        OnFail::Ask if interactive => (FindingAction::Ask, None),
        OnFail::Ask => (
            FindingAction::Block,
            Some("no human could be asked: the request is not interactive"),
        ),
        OnFail::Redact if redactable => (FindingAction::Redact, None),
        OnFail::Redact => (
            FindingAction::Block,
            Some(
                "the matched text is in a field that cannot be redacted, so the request is blocked",
            ),
        ),
        OnFail::Warn => (FindingAction::Warn, None),
        _ => (FindingAction::Log, None),
    }
}

fn kind_of(action: FindingAction) -> DecisionKind {
    match action {
        FindingAction::Block => DecisionKind::Block,
        FindingAction::Ask => DecisionKind::Ask,
        FindingAction::Redact => DecisionKind::Modify,
        _ => DecisionKind::Allow,
    }
}

/// Collects every mismatch of a matrix and fails once with all of them.
#[derive(Default)]
struct Mismatches {
    runs: usize,
    lines: Vec<String>,
}

impl Mismatches {
    fn check<T: std::fmt::Debug + PartialEq>(
        &mut self,
        label: &str,
        what: &str,
        expected: T,
        actual: T,
    ) {
        if expected != actual {
            self.lines.push(format!(
                "{label}: {what}: expected {expected:?}, got {actual:?}"
            ));
        }
    }

    fn finish(self, name: &str, runs: usize) {
        assert_eq!(self.runs, runs, "{name}: the matrix changed size");
        assert!(
            self.lines.is_empty(),
            "{name}: {} mismatches in {} runs:\n{}",
            self.lines.len(),
            self.runs,
            self.lines.join("\n")
        );
    }
}

/// Every type × every stage it supports × every place that stage scans ×
/// every `on_fail` × both modes × interactive or not × with or without a
/// `replacement`: one check, one hit, and the whole decision predicted from
/// SPEC §2.2, §4.2 and §4.3.
#[test]
fn one_check_matrix() {
    let mut m = Mismatches::default();
    for t in Type::ALL {
        for &stage in t.stages() {
            for spot in spots(t, stage) {
                for on_fail in t.on_fails() {
                    for mode in [Mode::Active, Mode::Advisory] {
                        for interactive in [false, true] {
                            for replacement in [None, Some("[hidden]")] {
                                m.runs += 1;
                                one_check(
                                    &mut m,
                                    t,
                                    &spot,
                                    on_fail,
                                    mode,
                                    interactive,
                                    replacement,
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    // (regex + blocklist) × 21 places × 5 on_fail, tool_pattern × 1 × 4; × 2 × 2 × 2.
    m.finish("one_check_matrix", (2 * 21 * 5 + 4) * 8);
}

fn one_check(
    m: &mut Mismatches,
    t: Type,
    spot: &Spot,
    on_fail: OnFail,
    mode: Mode,
    interactive: bool,
    replacement: Option<&str>,
) {
    let label = format!(
        "{} at {} in {}, on_fail {}, {mode}, interactive {interactive}, replacement {replacement:?}",
        t.name(),
        spot.stage,
        spot.what,
        on_fail.as_str()
    );
    let id = "c";
    let policy = policy(mode, vec![t.check(id, spot.stage, on_fail, replacement)]);
    let request = with_interactive(&spot.request, interactive);
    let d = evaluate(&policy, &request);
    for broken in invariants(mode, &request, &d) {
        m.lines.push(format!("{label}: {broken}"));
    }
    let (action, note) = effective(on_fail, mode, interactive, spot.redacted.is_some());
    let kind = kind_of(action);
    m.check(&label, "decision", kind, d.decision);
    m.check(&label, "evaluated", Some(1), d.evaluated);
    let (violations, warnings): (Vec<&str>, Vec<&str>) = if action.is_violation() {
        (vec![id], vec![])
    } else {
        (vec![], vec![id])
    };
    m.check(&label, "violations", violations, ids(&d.violations));
    m.check(&label, "warnings", warnings, ids(&d.warnings));
    let Some(finding) = d.findings().next() else {
        return;
    };
    m.check(&label, "action", action, finding.action);
    m.check(&label, "type", t.name(), &finding.check_type);
    let message = match note {
        Some(n) => format!("{} ({n})", t.default_message()),
        None => t.default_message().to_owned(),
    };
    m.check(
        &label,
        "finding message",
        Some(message),
        finding.message.clone(),
    );
    // A hit in an object key is hidden in the pointer: the matched part of
    // the key shows as the check's placeholder.
    let placeholder = replacement.map_or_else(|| format!("[REDACTED:{id}]"), str::to_owned);
    let pointer = if spot.what.contains("key") {
        spot.pointer.replace(TOKEN, &placeholder)
    } else {
        spot.pointer.to_owned()
    };
    let location = match spot.span {
        Some((start, end)) => Location::span(pointer, start, end),
        None => Location::field(pointer),
    };
    m.check(
        &label,
        "location",
        Some(&location),
        finding.location.as_ref(),
    );
    let noun = noun(spot.stage);
    let (reason, headline, shown) = match kind {
        DecisionKind::Block => (
            Some(format!("guardrail.{}", t.name())),
            Some(match note {
                Some(n) => format!("{noun} blocked by guardrail check '{id}' ({n})"),
                None => format!("{noun} blocked by guardrail check '{id}'"),
            }),
            Some(
                replacement
                    .unwrap_or(default_replacement(spot.stage))
                    .to_owned(),
            ),
        ),
        DecisionKind::Ask => (
            Some(format!("guardrail.{}", t.name())),
            Some(format!(
                "{noun} needs confirmation (guardrail check '{id}')"
            )),
            Some(
                replacement
                    .unwrap_or(default_ask_replacement(spot.stage))
                    .to_owned(),
            ),
        ),
        DecisionKind::Modify => (
            Some(format!("guardrail.{}", t.name())),
            Some(format!("{noun} redacted by guardrail check '{id}'")),
            None,
        ),
        _ => (None, None, None),
    };
    m.check(&label, "reasonCode", reason, d.reason_code.clone());
    m.check(&label, "message", headline, d.message.clone());
    m.check(&label, "replacement", shown, d.replacement.clone());
    let modified = match (kind, spot.redacted) {
        (DecisionKind::Modify, Some(redacted)) => Some(redacted(&placeholder)),
        _ => None,
    };
    m.check(
        &label,
        "modified",
        modified,
        d.modified
            .as_ref()
            .map(|x| serde_json::to_value(x).unwrap()),
    );
    if let Some(modified) = &d.modified
        && serde_json::to_string(modified).unwrap().contains(TOKEN)
    {
        m.lines.push(format!(
            "{label}: the modified payload still holds the match"
        ));
    }
}

/// A check configured on one stage never fires on another, even when the
/// request carries the matching text in every place that other stage scans.
#[test]
fn checks_fire_only_at_their_stages() {
    let mut m = Mismatches::default();
    let mut places = text_spots();
    places.push(tool_name_spot());
    for t in Type::ALL {
        for &configured in t.stages() {
            let policy = policy(
                Mode::Active,
                vec![t.check("c", configured, OnFail::Block, None)],
            );
            for spot in places.iter().filter(|s| s.stage != configured) {
                m.runs += 1;
                let label = format!(
                    "{} at {configured}, request at {} with a hit in its {}",
                    t.name(),
                    spot.stage,
                    spot.what
                );
                let d = evaluate(&policy, &spot.request);
                m.check(&label, "decision", DecisionKind::Allow, d.decision);
                m.check(&label, "findings", 0, d.findings().count());
                m.check(&label, "evaluated", Some(0), d.evaluated);
            }
        }
    }
    // regex and blocklist: 5 stages × (22 places − those of the stage);
    // tool_pattern: the 16 places of other stages.
    m.finish("checks_fire_only_at_their_stages", 2 * (5 * 22 - 22) + 16);
}

/// A check listing several stages fires at each of them.
#[test]
fn a_check_on_several_stages_fires_at_each() {
    let mut m = Mismatches::default();
    for t in [Type::Regex, Type::Blocklist] {
        let mut check = t.check("c", Stage::Input, OnFail::Block, None);
        check.insert(
            "stage".to_owned(),
            json!(Stage::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>()),
        );
        let policy = policy(Mode::Active, vec![check]);
        for spot in text_spots() {
            m.runs += 1;
            let label = format!(
                "{} on every stage, hit in {} {}",
                t.name(),
                spot.stage,
                spot.what
            );
            let d = evaluate(&policy, &spot.request);
            m.check(&label, "decision", DecisionKind::Block, d.decision);
            m.check(&label, "violations", vec!["c"], ids(&d.violations));
        }
    }
    m.finish("a_check_on_several_stages_fires_at_each", 2 * 21);
}

/// Two checks hitting the same text, for every pair of `on_fail` values, both
/// modes, interactive or not, in both policy orders: the decision is the
/// strongest effective action (block > ask > modify > allow) and does not
/// depend on the order; the headline is that of the first check in policy
/// order whose finding has the decision's own action.
#[test]
fn precedence_and_order_independence() {
    let mut m = Mismatches::default();
    for a in OnFail::ALL.iter().copied() {
        for b in OnFail::ALL.iter().copied() {
            for mode in [Mode::Active, Mode::Advisory] {
                for interactive in [false, true] {
                    let label = format!(
                        "on_fail a={} b={}, {mode}, interactive {interactive}",
                        a.as_str(),
                        b.as_str()
                    );
                    let request = with_interactive(
                        &json!({"stage": "input", "content": "say 31337 now"}),
                        interactive,
                    );
                    let check_a = Type::Regex.check("a", Stage::Input, a, None);
                    let check_b = Type::Blocklist.check("b", Stage::Input, b, None);
                    let forward = policy(mode, vec![check_a.clone(), check_b.clone()]);
                    let backward = policy(mode, vec![check_b, check_a]);
                    let mut seen = Vec::new();
                    for (policy, order) in [(forward, ["a", "b"]), (backward, ["b", "a"])] {
                        m.runs += 1;
                        let label = format!("{label}, policy order {order:?}");
                        let d = evaluate(&policy, &request);
                        pair(
                            &mut m,
                            &label,
                            (a, b),
                            mode,
                            interactive,
                            order,
                            &request,
                            &d,
                        );
                        let mut findings: Vec<(String, FindingAction)> = d
                            .findings()
                            .map(|f| (f.check_id.clone(), f.action))
                            .collect();
                        findings.sort();
                        seen.push((d.decision, findings));
                    }
                    m.check(&label, "same decision in both orders", &seen[0], &seen[1]);
                }
            }
        }
    }
    m.finish("precedence_and_order_independence", 5 * 5 * 2 * 2 * 2);
}

#[expect(clippy::too_many_arguments, reason = "one row of the matrix")]
fn pair(
    m: &mut Mismatches,
    label: &str,
    (a, b): (OnFail, OnFail),
    mode: Mode,
    interactive: bool,
    order: [&str; 2],
    request: &Value,
    d: &Decision,
) {
    for broken in invariants(mode, request, d) {
        m.lines.push(format!("{label}: {broken}"));
    }
    let action = |id: &str| effective(if id == "a" { a } else { b }, mode, interactive, true).0;
    let rank = |k: DecisionKind| match k {
        DecisionKind::Block => 0,
        DecisionKind::Ask => 1,
        DecisionKind::Modify => 2,
        _ => 3,
    };
    let strongest = order
        .iter()
        .map(|id| kind_of(action(id)))
        .min_by_key(|k| rank(*k))
        .unwrap();
    m.check(label, "decision", strongest, d.decision);
    let (violations, warnings): (Vec<&str>, Vec<&str>) =
        order.iter().partition(|id| action(id).is_violation());
    m.check(label, "violations", violations, ids(&d.violations));
    m.check(label, "warnings", warnings, ids(&d.warnings));
    let headline = order
        .iter()
        .find(|id| strongest != DecisionKind::Allow && kind_of(action(id)) == strongest);
    let type_of = |id: &str| if id == "a" { "regex" } else { "blocklist" };
    m.check(
        label,
        "reasonCode",
        headline.map(|id| format!("guardrail.{}", type_of(id))),
        d.reason_code.clone(),
    );
    let note = |id: &str| effective(if id == "a" { a } else { b }, mode, interactive, true).1;
    let message = headline.map(|id| match strongest {
        DecisionKind::Block => match note(id) {
            Some(n) => format!("Input blocked by guardrail check '{id}' ({n})"),
            None => format!("Input blocked by guardrail check '{id}'"),
        },
        DecisionKind::Ask => format!("Input needs confirmation (guardrail check '{id}')"),
        _ => format!("Input redacted by guardrail check '{id}'"),
    });
    m.check(label, "message", message, d.message.clone());
    // Both checks match the same bytes; the merged span takes the
    // placeholder of the redacting check first in policy order.
    let redactor = order.iter().find(|id| action(id) == FindingAction::Redact);
    let modified = match (strongest, redactor) {
        (DecisionKind::Modify, Some(id)) => {
            Some(json!({"content": format!("say [REDACTED:{id}] now")}))
        }
        _ => None,
    };
    m.check(
        label,
        "modified",
        modified,
        d.modified
            .as_ref()
            .map(|x| serde_json::to_value(x).unwrap()),
    );
}

/// Every type × every stage × every `on_fail` is accepted exactly when SPEC §3
/// allows it, and rejected with errors that say why.
#[test]
fn policies_accept_exactly_the_supported_combinations() {
    let mut m = Mismatches::default();
    for t in Type::ALL {
        for &stage in Stage::ALL {
            for on_fail in OnFail::ALL.iter().copied() {
                m.runs += 1;
                let label = format!("{} at {stage} with on_fail {}", t.name(), on_fail.as_str());
                let policy = policy(Mode::Active, vec![t.check("c", stage, on_fail, None)]);
                let mut expected = Vec::new();
                if !t.stages().contains(&stage) {
                    expected.push((
                        "/checks/0/stage".to_owned(),
                        format!(
                            "type `{}` does not run at stage `{stage}`; it runs at `tool_use`",
                            t.name()
                        ),
                    ));
                }
                if t == Type::ToolPattern && on_fail == OnFail::Redact {
                    expected.push((
                        "/checks/0/on_fail".to_owned(),
                        "`redact` needs matched text to redact, and type `tool_pattern` matches none \
                         (use `block`, `ask`, `warn` or `log`)"
                            .to_owned(),
                    ));
                }
                let actual: Vec<(String, String)> = match compile(&policy) {
                    Ok(_) => Vec::new(),
                    Err(e) => e
                        .errors
                        .into_iter()
                        .map(|e| (e.pointer, e.message))
                        .collect(),
                };
                m.check(&label, "errors", expected, actual);
            }
        }
    }
    m.finish(
        "policies_accept_exactly_the_supported_combinations",
        3 * 5 * 5,
    );
}

/// The documented size limits (SPEC §3) are errors one byte or one entry
/// past them, and fine at them.
#[test]
fn size_limits_are_inclusive_and_reported() {
    let errors = |check: Value| -> Vec<(String, String)> {
        match compile(&json!({"checks": [check]})) {
            Ok(_) => Vec::new(),
            Err(e) => e
                .errors
                .into_iter()
                .map(|e| (e.pointer, e.message))
                .collect(),
        }
    };
    let word = |n: usize| json!({"id": "w", "stage": "input", "type": "blocklist", "words": ["x".repeat(n)]});
    assert_eq!(errors(word(4096)), []);
    assert_eq!(
        errors(word(4097)),
        [(
            "/checks/0/words/0".to_owned(),
            "entry is 4097 bytes; the limit is 4096".to_owned()
        )]
    );
    let with = |key: &str, n: usize| {
        let mut check = word(1);
        check[key] = json!("y".repeat(n));
        check
    };
    assert_eq!(errors(with("replacement", 4096)), []);
    assert_eq!(
        errors(with("replacement", 4097)),
        [(
            "/checks/0/replacement".to_owned(),
            "`replacement` is 4097 bytes; the limit is 4096".to_owned()
        )]
    );
    assert_eq!(
        errors(with("name", 4097)),
        [(
            "/checks/0/name".to_owned(),
            "`name` is 4097 bytes; the limit is 4096".to_owned()
        )]
    );
    assert_eq!(errors(with("id", 128)), []);
    assert_eq!(
        errors(with("id", 129)),
        [(
            "/checks/0/id".to_owned(),
            "`id` must be 1 to 128 bytes long".to_owned()
        )]
    );
    // CEL expressions (`when`, `expr`): 4,096 bytes.
    let cel = |n: usize| format!("'{}' != ''", "y".repeat(n - 8));
    assert_eq!(cel(4096).len(), 4096);
    let mut when = word(1);
    when["when"] = json!(cel(4096));
    assert_eq!(errors(when.clone()), []);
    when["when"] = json!(cel(4097));
    assert_eq!(
        errors(when),
        [(
            "/checks/0/when".to_owned(),
            "the expression is 4097 bytes; the limit is 4096".to_owned()
        )]
    );
    let condition =
        |n: usize| json!({"id": "c", "stage": "action", "type": "condition", "expr": cel(n)});
    assert_eq!(errors(condition(4096)), []);
    assert_eq!(
        errors(condition(4097)),
        [(
            "/checks/0/expr".to_owned(),
            "the expression is 4097 bytes; the limit is 4096".to_owned()
        )]
    );
    // A `schema`: 256 KiB of compact JSON.
    let schema = |n: usize| {
        let empty = json!({"type": "object", "description": ""})
            .to_string()
            .len();
        let schema = json!({"type": "object", "description": "z".repeat(n - empty)});
        assert_eq!(schema.to_string().len(), n);
        json!({"id": "s", "stage": "tool_use", "type": "schema", "tools": ["*"], "schema": schema})
    };
    assert_eq!(errors(schema(256 * 1024)), []);
    assert_eq!(
        errors(schema(256 * 1024 + 1)),
        [(
            "/checks/0/schema".to_owned(),
            "the schema is 262145 bytes of JSON; the limit is 262144".to_owned()
        )]
    );
    let many_words: Vec<String> = (0..100_001).map(|i| format!("w{i}")).collect();
    assert_eq!(
        errors(json!({"id": "w", "stage": "input", "type": "blocklist", "words": many_words})),
        [(
            "/checks/0/words".to_owned(),
            "100001 entries; a check holds at most 100000".to_owned()
        )]
    );
    let many_checks: Vec<Value> = (0..10_001).map(|_| json!({})).collect();
    let e = compile(&json!({"checks": many_checks})).unwrap_err();
    assert_eq!(e.errors.len(), 1);
    assert_eq!(
        (e.errors[0].pointer.as_str(), e.errors[0].message.as_str()),
        ("/checks", "10001 checks; a policy holds at most 10000")
    );
}
