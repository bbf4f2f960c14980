//! The runner of `tests/cases/*.yaml`: decision cases and invalid policies
//! written as data, so that they read like a specification.
//!
//! A case file holds
//!
//! ```yaml
//! policy: { checks: [...] }      # or `policy_yaml: |` with the policy text
//! cases:
//!   - name: what the case shows
//!     request: { ... }           # a v1 CheckRequest; or `request_json: '...'`
//!                                # with the raw JSON text (for escapes)
//!     policy: { ... }            # optional: this case's own policy
//!     policy_file: examples/x.yaml  # optional: a policy file of the repository
//!     skip: "why"                # optional: a known engine bug (see below)
//!     expect:
//!       decision: block          # allow | block | ask | modify
//!       violations: [id, ...]    # check ids, in order
//!       warnings: [id, ...]
//!       actions: { id: redact }  # the action of every finding of that check
//!       reasonCode: guardrail.regex   # `null`: must be absent
//!       message: "..."                # `null`: must be absent
//!       replacement: "..."            # `null`: must be absent
//!       modified: { content: "..." }  # exact JSON; `null`: must be absent
//!       locations:               # every finding, violations then warnings
//!         - { checkId: id, field: /content, start: 0, end: 4 }
//!       findingMessages: { id: "..." }
//!       findings: [{ checkId: id, ... }]  # exact JSON, violations then warnings
//!       notInFindings: ["..."]   # no finding (location included) holds these
//!       evaluated: 1
//!       error: [{ pointer: /checks/0, message: "..." }]  # the request fails
//! invalid_policies:
//!   - name: what is wrong
//!     policy: { ... }            # or `policy_yaml`
//!     errors: [{ pointer: /checks/0/type, message: "..." }]  # all, in order
//! ```
//!
//! Every decision is also held to the invariants of [`crate::util::invariants`].
//! A case marked `skip` documents a known bug: it still runs, and the runner
//! fails when it starts to pass, so that the mark is removed with the fix.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use palisade_engine::{Engine, PolicyErrors, RequestError};
use palisade_protocol::{Decision, DecisionKind, FindingAction, Location};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::util::{cases_dir, compile, ids, invariants, show};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    #[serde(default)]
    policy: Option<Value>,
    #[serde(default)]
    policy_yaml: Option<String>,
    #[serde(default)]
    cases: Vec<Case>,
    #[serde(default)]
    invalid_policies: Vec<InvalidPolicy>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    #[serde(default)]
    skip: Option<String>,
    #[serde(default)]
    policy: Option<Value>,
    #[serde(default)]
    policy_yaml: Option<String>,
    /// A policy file of the repository, relative to its root.
    #[serde(default)]
    policy_file: Option<String>,
    #[serde(default)]
    request: Option<Value>,
    #[serde(default)]
    request_json: Option<String>,
    expect: Expect,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Expect {
    #[serde(default)]
    decision: Option<DecisionKind>,
    #[serde(default)]
    violations: Option<Vec<String>>,
    #[serde(default)]
    warnings: Option<Vec<String>>,
    #[serde(default)]
    actions: Option<BTreeMap<String, FindingAction>>,
    #[serde(default, deserialize_with = "present")]
    reason_code: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    message: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    replacement: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    modified: Option<Option<Value>>,
    #[serde(default)]
    locations: Option<Vec<ExpectedLocation>>,
    #[serde(default)]
    finding_messages: Option<BTreeMap<String, String>>,
    #[serde(default)]
    findings: Option<Vec<Value>>,
    #[serde(default)]
    not_in_findings: Option<Vec<String>>,
    #[serde(default)]
    evaluated: Option<u32>,
    #[serde(default)]
    error: Option<Vec<Problem>>,
}

#[derive(Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ExpectedLocation {
    check_id: String,
    field: String,
    #[serde(default)]
    start: Option<usize>,
    #[serde(default)]
    end: Option<usize>,
}

#[derive(Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Problem {
    pointer: String,
    message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InvalidPolicy {
    name: String,
    #[serde(default)]
    skip: Option<String>,
    #[serde(default)]
    policy: Option<Value>,
    #[serde(default)]
    policy_yaml: Option<String>,
    errors: Vec<Problem>,
}

/// Distinguishes an absent key (`None`) from an explicit `null` (`Some(None)`).
fn present<'de, D, T>(de: D) -> Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(de).map(Some)
}

#[derive(Default)]
struct Report {
    files: usize,
    cases: usize,
    skipped: Vec<String>,
    failures: Vec<String>,
}

impl Report {
    fn fail(&mut self, at: &str, what: impl Into<String>) {
        self.failures.push(format!("{at}\n{}", what.into()));
    }
}

#[test]
fn cases() {
    let mut report = Report::default();
    for path in case_files() {
        report.files += 1;
        run_file(&path, &mut report);
    }
    eprintln!(
        "{} cases in {} files, {} skipped as known bugs",
        report.cases,
        report.files,
        report.skipped.len()
    );
    for s in &report.skipped {
        eprintln!("  skipped: {s}");
    }
    assert!(
        report.cases > 0,
        "no cases found in {}",
        cases_dir().display()
    );
    if !report.failures.is_empty() {
        panic!(
            "{} of {} cases failed:\n\n{}",
            report.failures.len(),
            report.cases,
            report.failures.join("\n\n")
        );
    }
}

fn case_files() -> Vec<PathBuf> {
    let dir = cases_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        .collect();
    files.sort();
    files
}

fn load_policy(value: Option<&Value>, yaml: Option<&str>) -> Option<Result<Engine, PolicyErrors>> {
    match (value, yaml) {
        (Some(v), _) => Some(compile(v)),
        (None, Some(text)) => Some(Engine::from_yaml_str(text)),
        (None, None) => None,
    }
}

fn run_file(path: &Path, report: &mut Report) {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return report.fail(&file, format!("cannot read: {e}")),
    };
    let parsed: CaseFile = match serde_yaml_ng::from_str(&text) {
        Ok(p) => p,
        Err(e) => return report.fail(&file, format!("not a case file: {e}")),
    };
    if parsed.cases.is_empty() && parsed.invalid_policies.is_empty() {
        report.fail(&file, "holds no cases");
    }
    let mut names = BTreeSet::new();
    for name in parsed
        .cases
        .iter()
        .map(|c| &c.name)
        .chain(parsed.invalid_policies.iter().map(|c| &c.name))
    {
        if !names.insert(name.clone()) {
            report.fail(&file, format!("two cases are named {name:?}"));
        }
    }
    let file_engine = load_policy(parsed.policy.as_ref(), parsed.policy_yaml.as_deref());
    for case in &parsed.cases {
        report.cases += 1;
        let at = format!("{file} › {}", case.name);
        let own = match &case.policy_file {
            Some(rel) => Some(Engine::from_path(
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../..")
                    .join(rel),
            )),
            None => load_policy(case.policy.as_ref(), case.policy_yaml.as_deref()),
        };
        let problems = match own.as_ref().or(file_engine.as_ref()) {
            None => vec!["no `policy` in the file or the case".to_owned()],
            Some(Err(e)) => vec![format!("the policy does not compile: {e}")],
            Some(Ok(engine)) => run_case(engine, case),
        };
        settle(report, &at, case.skip.as_deref(), problems);
    }
    for case in &parsed.invalid_policies {
        report.cases += 1;
        let at = format!("{file} › {}", case.name);
        let problems = match load_policy(case.policy.as_ref(), case.policy_yaml.as_deref()) {
            None => vec!["no `policy` in the case".to_owned()],
            Some(Ok(_)) => vec!["the policy was accepted".to_owned()],
            Some(Err(e)) => {
                let actual: Vec<Problem> = e
                    .errors
                    .iter()
                    .map(|e| Problem {
                        pointer: e.pointer.clone(),
                        message: e.message.clone(),
                    })
                    .collect();
                if actual == case.errors {
                    Vec::new()
                } else {
                    vec![format!(
                        "errors differ\n  expected:\n{}  actual:\n{}",
                        list_problems(&case.errors),
                        list_problems(&actual)
                    )]
                }
            }
        };
        settle(report, &at, case.skip.as_deref(), problems);
    }
}

fn settle(report: &mut Report, at: &str, skip: Option<&str>, problems: Vec<String>) {
    match (skip, problems.is_empty()) {
        (None, true) => {}
        (None, false) => report.fail(at, problems.join("\n")),
        (Some(why), false) => report
            .skipped
            .push(format!("{at}: {why}\n    fails with: {}", problems[0])),
        (Some(why), true) => report.fail(
            at,
            format!("the case is marked `skip: {why:?}` but passes now; remove the mark"),
        ),
    }
}

fn list_problems(problems: &[Problem]) -> String {
    let mut out = String::new();
    for p in problems {
        let _ = writeln!(
            out,
            "    - pointer: {:?}\n      message: {:?}",
            p.pointer, p.message
        );
    }
    out
}

/// Runs one case; returns what differs from the expectation.
fn run_case(engine: &Engine, case: &Case) -> Vec<String> {
    let (text, value) = match (&case.request_json, &case.request) {
        (Some(text), None) => match serde_json::from_str::<Value>(text) {
            Ok(v) => (text.clone(), v),
            Err(e) => return vec![format!("`request_json` is not JSON: {e}")],
        },
        (None, Some(v)) => (v.to_string(), v.clone()),
        _ => return vec!["give exactly one of `request` and `request_json`".to_owned()],
    };
    let expect = &case.expect;
    let result = palisade_engine::parse_request(&text).and_then(|r| engine.evaluate(&r));
    let decision = match (result, &expect.error) {
        (Err(e), Some(expected)) => {
            let actual = request_problems(&e);
            return if &actual == expected {
                Vec::new()
            } else {
                vec![format!(
                    "request errors differ\n  expected:\n{}  actual:\n{}",
                    list_problems(expected),
                    list_problems(&actual)
                )]
            };
        }
        (Err(e), None) => return vec![format!("the request failed: {e}")],
        (Ok(d), Some(_)) => {
            return vec![format!("expected the request to fail, got:\n{}", show(&d))];
        }
        (Ok(d), None) => d,
    };
    let mut problems = invariants(engine.policy().mode(), &value, &decision);
    compare(expect, &decision, &mut problems);
    if let Some(id) = value.get("requestId").and_then(Value::as_str)
        && decision.request_id != id
    {
        problems.push(format!(
            "requestId {:?} was not echoed (got {:?})",
            id, decision.request_id
        ));
    }
    if !problems.is_empty() {
        problems.push(format!("decision:\n{}", show(&decision)));
    }
    problems
}

fn request_problems(e: &RequestError) -> Vec<Problem> {
    match e {
        RequestError::Malformed { pointer, message } => vec![Problem {
            pointer: pointer.clone(),
            message: message.clone(),
        }],
        RequestError::Invalid(list) => list
            .iter()
            .map(|p| Problem {
                pointer: p.pointer.clone(),
                message: p.message.clone(),
            })
            .collect(),
    }
}

fn differ<T: std::fmt::Debug + PartialEq + ?Sized>(
    problems: &mut Vec<String>,
    what: &str,
    expected: &T,
    actual: &T,
) {
    if expected != actual {
        problems.push(format!("{what}: expected {expected:?}, got {actual:?}"));
    }
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn compare(expect: &Expect, d: &Decision, problems: &mut Vec<String>) {
    if let Some(kind) = expect.decision {
        differ(problems, "decision", &kind, &d.decision);
    }
    if let Some(v) = &expect.violations {
        differ(problems, "violations", &strs(v), &ids(&d.violations));
    }
    if let Some(w) = &expect.warnings {
        differ(problems, "warnings", &strs(w), &ids(&d.warnings));
    }
    if let Some(actions) = &expect.actions {
        for (id, action) in actions {
            let found: Vec<FindingAction> = d
                .findings()
                .filter(|f| &f.check_id == id)
                .map(|f| f.action)
                .collect();
            if found.is_empty() {
                problems.push(format!("no finding of check `{id}`"));
            } else if found.iter().any(|a| a != action) {
                problems.push(format!(
                    "actions of `{id}`: expected `{action}`, got {found:?}"
                ));
            }
        }
    }
    if let Some(rc) = &expect.reason_code {
        differ(problems, "reasonCode", rc, &d.reason_code);
    }
    if let Some(m) = &expect.message {
        differ(problems, "message", m, &d.message);
    }
    if let Some(r) = &expect.replacement {
        differ(problems, "replacement", r, &d.replacement);
    }
    if let Some(m) = &expect.modified {
        let actual = d
            .modified
            .as_ref()
            .map(|m| serde_json::to_value(m).unwrap_or(Value::Null));
        differ(problems, "modified", m, &actual);
    }
    if let Some(locations) = &expect.locations {
        let actual: Vec<ExpectedLocation> = d
            .findings()
            .map(|f| {
                let loc = f.location.clone().unwrap_or(Location {
                    field: String::new(),
                    start: None,
                    end: None,
                });
                ExpectedLocation {
                    check_id: f.check_id.clone(),
                    field: loc.field,
                    start: loc.start,
                    end: loc.end,
                }
            })
            .collect();
        differ(problems, "locations", locations, &actual);
    }
    if let Some(messages) = &expect.finding_messages {
        for (id, message) in messages {
            let found: Vec<Option<&str>> = d
                .findings()
                .filter(|f| &f.check_id == id)
                .map(|f| f.message.as_deref())
                .collect();
            if found.is_empty() {
                problems.push(format!("no finding of check `{id}`"));
            } else if found.iter().any(|m| *m != Some(message.as_str())) {
                problems.push(format!(
                    "messages of `{id}`: expected {message:?}, got {found:?}"
                ));
            }
        }
    }
    if let Some(findings) = &expect.findings {
        let actual: Vec<Value> = d
            .findings()
            .map(|f| serde_json::to_value(f).unwrap_or(Value::Null))
            .collect();
        differ(problems, "findings", findings, &actual);
    }
    if let Some(secrets) = &expect.not_in_findings {
        for f in d.findings() {
            let json = serde_json::to_string(f).unwrap_or_default();
            for secret in secrets.iter().filter(|s| json.contains(s.as_str())) {
                problems.push(format!("finding `{}` holds {secret:?}", f.check_id));
            }
        }
    }
    if let Some(n) = expect.evaluated {
        differ(problems, "evaluated", &Some(n), &d.evaluated);
    }
}
