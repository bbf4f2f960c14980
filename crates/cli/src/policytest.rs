//! `palisade test`: policy test files, run case by case against their
//! policy, reported like `cargo test`, with JUnit XML and coverage.
//!
//! A test file (YAML or JSON) names a policy (`policy:`, a path relative
//! to the file; absent: the embedded default policy) and its `cases`, each
//! a `name`, a v1 `request` and what to `expect`: the `decision`, the check
//! ids that `fires` and `not_fires` list, the texts the decision's
//! `modified` payload `modified_lacks`, the decision's `reason_code`, a
//! text its message (or a finding's) holds, `message_contains`, and the
//! checks whose condition is expected not to be evaluable on the request,
//! `condition_errors` (any other such check fails the case: a rule that
//! cannot run must not pass for one that holds).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use palisade_engine::{Engine, Policy};
use palisade_protocol::suggest::closest;
use palisade_protocol::{Decision, DecisionKind};
use serde_json::{Map, Value};

use crate::TestArgs;

/// The reason code of a condition that could not be evaluated.
const CONDITION_ERROR: &str = "policy.condition_error";

/// The fields of a test file, of a case and of a case's `expect`.
const FILE_FIELDS: &[&str] = &["policy", "cases"];
const CASE_FIELDS: &[&str] = &["name", "request", "expect"];
const EXPECT_FIELDS: &[&str] = &[
    "decision",
    "fires",
    "not_fires",
    "modified_lacks",
    "reason_code",
    "message_contains",
    "condition_errors",
];
const DECISIONS: &[&str] = &["allow", "block", "ask", "modify"];
/// Directories not searched for test files.
const SKIPPED_DIRS: &[&str] = &["target", "node_modules"];

/// One test file, read and checked.
struct Suite {
    path: PathBuf,
    /// The policy file, or `None` for the embedded default policy.
    policy_path: Option<PathBuf>,
    /// The policy document (for coverage) and the policy.
    document: Value,
    policy: Policy,
    cases: Vec<Case>,
}

struct Case {
    name: String,
    pointer: String,
    request: palisade_protocol::CheckRequest,
    decision: Option<DecisionKind>,
    fires: Vec<String>,
    not_fires: Vec<String>,
    modified_lacks: Vec<String>,
    reason_code: Option<String>,
    message_contains: Option<String>,
    condition_errors: Vec<String>,
}

/// A case's result: what went wrong (empty when it passed).
struct Outcome {
    problems: Vec<String>,
    time: Duration,
    /// The check ids that fired.
    fired: BTreeSet<String>,
}

pub(crate) fn run(args: &TestArgs) -> anyhow::Result<u8> {
    let started = Instant::now();
    let files = test_files(&args.paths)?;
    if files.is_empty() {
        bail!(
            "no test files found in {}; a directory's test files are named `*_test.yaml`, `*_test.yml` or `*_test.json` (`palisade init` writes one)",
            describe_paths(&args.paths)
        );
    }
    // Every file is read before any case runs: a bad file fails the run
    // with exit code 2 and every problem listed.
    let mut suites = Vec::new();
    let mut bad = Vec::new();
    for file in &files {
        match read_suite(file) {
            Ok(suite) => suites.push(suite),
            Err(e) => bad.push(format!("{e:#}")),
        }
    }
    if !bad.is_empty() {
        bail!("{}", bad.join("\n"));
    }
    let mut passed = 0usize;
    let mut failures: Vec<String> = Vec::new();
    let mut reports = Vec::new();
    for suite in &suites {
        let engine = Engine::new(suite.policy.clone()).map_err(|e| anyhow::anyhow!("{e}"))?;
        say!(
            "\nrunning {} case{} from {} ({})",
            suite.cases.len(),
            plural(suite.cases.len()),
            suite.path.display(),
            policy_name(suite)
        );
        let asynchronous: Vec<&str> = suite
            .policy
            .checks()
            .iter()
            .filter(|c| c.enabled && c.kind.is_async())
            .map(|c| c.id.as_str())
            .collect();
        if !asynchronous.is_empty() {
            say!(
                "note: async checks are not run here (they call services): {}",
                ticked(&asynchronous)
            );
        }
        let mut outcomes = Vec::new();
        for case in &suite.cases {
            let outcome = run_case(&engine, case);
            if outcome.problems.is_empty() {
                passed += 1;
                say!("case {} ... ok", case.name);
            } else {
                say!("case {} ... FAILED", case.name);
                let mut text = format!(
                    "---- {}: {} ({}) ----",
                    suite.path.display(),
                    case.name,
                    case.pointer
                );
                for p in &outcome.problems {
                    text.push('\n');
                    text.push_str(p);
                }
                failures.push(text);
            }
            outcomes.push(outcome);
        }
        reports.push(outcomes);
    }
    let failed = failures.len();
    if !failures.is_empty() {
        say!("\nfailures:\n");
        for f in &failures {
            say!("{f}\n");
        }
    }
    say!(
        "\ntest result: {}. {passed} passed; {failed} failed; {} file{}; finished in {:.2}s",
        if failed == 0 { "ok" } else { "FAILED" },
        suites.len(),
        plural(suites.len()),
        started.elapsed().as_secs_f64()
    );
    if let Some(junit) = &args.junit {
        std::fs::write(junit, junit_xml(&suites, &reports))
            .with_context(|| format!("cannot write the JUnit report `{}`", junit.display()))?;
    }
    if args.coverage {
        say_raw!("{}", coverage(&suites, &reports)?);
    }
    Ok(u8::from(failed > 0))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn ticked(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe_paths(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "the current directory".to_owned();
    }
    paths
        .iter()
        .map(|p| format!("`{}`", p.display()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn policy_name(suite: &Suite) -> String {
    match &suite.policy_path {
        Some(p) => format!("policy {}", p.display()),
        None => "the embedded default policy".to_owned(),
    }
}

/// The test files named: files as given, directories searched (in name
/// order) for `*_test.yaml`, `*_test.yml` and `*_test.json`.
fn test_files(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let roots = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    let mut out = Vec::new();
    for root in roots {
        let meta = std::fs::metadata(&root)
            .with_context(|| format!("cannot read `{}`", root.display()))?;
        if meta.is_dir() {
            search(&root, &mut out)?;
        } else {
            out.push(root);
        }
    }
    Ok(out)
}

fn search(dir: &Path, out: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the directory `{}`", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name) {
                search(&path, out)?;
            }
        } else if ["_test.yaml", "_test.yml", "_test.json"]
            .iter()
            .any(|s| name.ends_with(s))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// `dir/../x` as `x` and `./x` as `x`, for the names printed (a `..`
/// after a symbolic link is kept: only a name followed by `..` goes).
fn tidy(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir if !out.is_empty() => {}
            Component::ParentDir
                if matches!(out.last(), Some(Component::Normal(_)))
                    && !out.iter().collect::<PathBuf>().is_symlink() =>
            {
                out.pop();
            }
            c => out.push(c),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

/// Reads a YAML or JSON document by its extension.
fn read_document(path: &Path, what: &str) -> anyhow::Result<Value> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read {what} `{}`", path.display()))?;
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let parsed = match extension.as_deref() {
        Some("json") => serde_json::from_str(&text).map_err(|e| e.to_string()),
        Some("yaml" | "yml") => serde_yaml_ng::from_str(&text).map_err(|e| e.to_string()),
        _ => bail!(
            "cannot tell the format of {what} `{}`: name it `.json`, `.yaml` or `.yml`",
            path.display()
        ),
    };
    parsed.map_err(|e| match crate::diagnostic::syntax_error(path) {
        Some(shown) => anyhow::anyhow!("{shown}"),
        None => anyhow::anyhow!("{}: {e}", path.display()),
    })
}

/// Problems of a test file, each with its pointer.
struct Problems {
    path: PathBuf,
    list: Vec<String>,
}

impl Problems {
    fn add(&mut self, pointer: &str, message: impl Into<String>) {
        let pointer = if pointer.is_empty() { "/" } else { pointer };
        self.list.push(format!(
            "{}: {pointer}: {}",
            self.path.display(),
            message.into()
        ));
    }

    fn unknown_fields(&mut self, obj: &Map<String, Value>, pointer: &str, known: &[&str]) {
        for key in obj.keys() {
            if known.contains(&key.as_str()) {
                continue;
            }
            let hint = closest(key, known.iter().copied())
                .map_or_else(String::new, |near| format!("did you mean `{near}`? "));
            self.add(
                &format!("{pointer}/{key}"),
                format!(
                    "unknown field `{key}`; {hint}the fields are {}",
                    ticked(known)
                ),
            );
        }
    }

    /// A list of strings (absent: empty).
    fn strings(&mut self, obj: &Map<String, Value>, pointer: &str, key: &str) -> Vec<String> {
        let Some(v) = obj.get(key) else {
            return Vec::new();
        };
        let items = match v {
            Value::String(s) => return vec![s.clone()],
            Value::Array(items) => items,
            other => {
                self.add(
                    &format!("{pointer}/{key}"),
                    format!(
                        "`{key}` must be a list of strings, not {}",
                        palisade_engine::json_type(other)
                    ),
                );
                return Vec::new();
            }
        };
        let mut out = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match item.as_str() {
                Some(s) if !s.is_empty() => out.push(s.to_owned()),
                _ => self.add(
                    &format!("{pointer}/{key}/{i}"),
                    "entries must be non-empty strings",
                ),
            }
        }
        out
    }
}

fn read_suite(path: &Path) -> anyhow::Result<Suite> {
    let doc = read_document(path, "test file")?;
    let mut problems = Problems {
        path: path.to_owned(),
        list: Vec::new(),
    };
    let Some(obj) = doc.as_object() else {
        bail!(
            "{}: a test file is a mapping with `policy` and `cases`, not {}",
            path.display(),
            palisade_engine::json_type(&doc)
        );
    };
    problems.unknown_fields(obj, "", FILE_FIELDS);
    // The policy: a path relative to the test file.
    let policy_path = match obj.get("policy") {
        None => None,
        Some(Value::String(p)) => Some(tidy(
            &path
                .parent()
                .map_or_else(|| PathBuf::from(p), |dir| dir.join(p)),
        )),
        Some(other) => {
            bail!(
                "{}: /policy: `policy` must be the path of a policy file (relative to the test file), not {}",
                path.display(),
                palisade_engine::json_type(other)
            );
        }
    };
    let (document, policy) = match &policy_path {
        None => (
            serde_yaml_ng::from_str::<Value>(palisade_engine::DEFAULT_POLICY)
                .context("the embedded default policy")?,
            Policy::from_yaml_str(palisade_engine::DEFAULT_POLICY)
                .map_err(|e| anyhow::anyhow!("the embedded default policy: {e}"))?,
        ),
        Some(p) => {
            // Read as a document first, for its syntax errors' positions.
            read_document(p, "policy file").with_context(|| {
                format!("{}: /policy: the policy cannot be read", path.display())
            })?;
            // The effective policy: its `extends` resolved against its file.
            let document = Policy::effective_document(p).map_err(|e| {
                anyhow::anyhow!("{}: /policy: {}: {e}", path.display(), p.display())
            })?;
            let policy = Policy::from_value(&document).map_err(|e| {
                anyhow::anyhow!("{}: /policy: {}: {e}", path.display(), p.display())
            })?;
            (document, policy)
        }
    };
    let ids: Vec<&str> = policy.checks().iter().map(|c| c.id.as_str()).collect();
    let mut cases = Vec::new();
    match obj.get("cases") {
        None => problems.add("", "missing field `cases` (a list of test cases)"),
        Some(Value::Array(items)) if items.is_empty() => {
            problems.add("/cases", "`cases` is empty; give at least one case");
        }
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                if let Some(case) = read_case(&mut problems, &format!("/cases/{i}"), item, &ids) {
                    cases.push(case);
                }
            }
        }
        Some(other) => problems.add(
            "/cases",
            format!(
                "`cases` must be a list, not {}",
                palisade_engine::json_type(other)
            ),
        ),
    }
    if !problems.list.is_empty() {
        bail!("{}", problems.list.join("\n"));
    }
    Ok(Suite {
        path: path.to_owned(),
        policy_path,
        document,
        policy,
        cases,
    })
}

fn read_case(problems: &mut Problems, pointer: &str, item: &Value, ids: &[&str]) -> Option<Case> {
    let Some(obj) = item.as_object() else {
        problems.add(
            pointer,
            format!(
                "a case is a mapping with `name`, `request` and `expect`, not {}",
                palisade_engine::json_type(item)
            ),
        );
        return None;
    };
    let before = problems.list.len();
    problems.unknown_fields(obj, pointer, CASE_FIELDS);
    let name = match obj.get("name") {
        Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
        Some(_) => {
            problems.add(
                &format!("{pointer}/name"),
                "`name` must be a non-empty string",
            );
            String::new()
        }
        None => {
            problems.add(pointer, "missing field `name` (what the case shows)");
            String::new()
        }
    };
    let request = match obj.get("request") {
        None => {
            problems.add(pointer, "missing field `request` (a v1 check request)");
            None
        }
        Some(v) => match palisade_engine::parse_request(&v.to_string()) {
            Ok(r) => Some(r),
            Err(e) => {
                problems.add(
                    &format!("{pointer}/request"),
                    format!("not a valid request: {e}"),
                );
                None
            }
        },
    };
    let mut case = Case {
        name,
        pointer: pointer.to_owned(),
        request: request.unwrap_or_default(),
        decision: None,
        fires: Vec::new(),
        not_fires: Vec::new(),
        modified_lacks: Vec::new(),
        reason_code: None,
        message_contains: None,
        condition_errors: Vec::new(),
    };
    let eptr = format!("{pointer}/expect");
    match obj.get("expect") {
        None => problems.add(
            pointer,
            "missing field `expect` (the `decision`, and optionally `fires`, `not_fires`, `modified_lacks`, `reason_code`, `message_contains`)",
        ),
        Some(Value::Object(expect)) => {
            problems.unknown_fields(expect, &eptr, EXPECT_FIELDS);
            case.decision = match expect.get("decision") {
                None => None,
                Some(v) => match v.as_str().and_then(decision_kind) {
                    Some(d) => Some(d),
                    None => {
                        let hint = v
                            .as_str()
                            .and_then(|s| closest(s, DECISIONS.iter().copied()))
                            .map_or_else(String::new, |n| format!("did you mean `{n}`? "));
                        problems.add(
                            &format!("{eptr}/decision"),
                            format!(
                                "unknown decision {v}; {hint}expected one of {}",
                                ticked(DECISIONS)
                            ),
                        );
                        None
                    }
                },
            };
            case.fires = problems.strings(expect, &eptr, "fires");
            case.not_fires = problems.strings(expect, &eptr, "not_fires");
            case.modified_lacks = problems.strings(expect, &eptr, "modified_lacks");
            case.condition_errors = problems.strings(expect, &eptr, "condition_errors");
            for key in ["reason_code", "message_contains"] {
                let text = match expect.get(key) {
                    None => None,
                    Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
                    Some(other) => {
                        problems.add(
                            &format!("{eptr}/{key}"),
                            format!(
                                "`{key}` must be a non-empty string, not {}",
                                palisade_engine::json_type(other)
                            ),
                        );
                        None
                    }
                };
                if key == "reason_code" {
                    case.reason_code = text;
                } else {
                    case.message_contains = text;
                }
            }
            for (key, list) in [
                ("fires", &case.fires),
                ("not_fires", &case.not_fires),
                ("condition_errors", &case.condition_errors),
            ] {
                for (i, id) in list.iter().enumerate() {
                    if !ids.contains(&id.as_str()) {
                        let hint = closest(id, ids.iter().copied())
                            .map_or_else(String::new, |n| format!("did you mean `{n}`? "));
                        problems.add(
                            &format!("{eptr}/{key}/{i}"),
                            format!(
                                "the policy has no check `{id}`; {hint}its checks are {}",
                                ticked(ids)
                            ),
                        );
                    }
                }
            }
            if case.decision.is_none()
                && case.fires.is_empty()
                && case.not_fires.is_empty()
                && case.modified_lacks.is_empty()
                && case.reason_code.is_none()
                && case.message_contains.is_none()
                && !expect.contains_key("decision")
            {
                problems.add(&eptr, "`expect` expects nothing; give at least `decision`");
            }
        }
        Some(other) => problems.add(
            &eptr,
            format!(
                "`expect` must be a mapping, not {}",
                palisade_engine::json_type(other)
            ),
        ),
    }
    (problems.list.len() == before).then_some(case)
}

fn decision_kind(s: &str) -> Option<DecisionKind> {
    Some(match s {
        "allow" => DecisionKind::Allow,
        "block" => DecisionKind::Block,
        "ask" => DecisionKind::Ask,
        "modify" => DecisionKind::Modify,
        _ => return None,
    })
}

fn kind_name(k: DecisionKind) -> &'static str {
    match k {
        DecisionKind::Allow => "allow",
        DecisionKind::Block => "block",
        DecisionKind::Ask => "ask",
        DecisionKind::Modify => "modify",
        DecisionKind::Error => "error",
    }
}

/// What fired, for a diff line: `dangerous-commands (ask)`, or `nothing`.
fn findings_of(decision: &Decision) -> String {
    if decision.findings().next().is_none() {
        return "nothing".to_owned();
    }
    decision
        .findings()
        .map(|f| {
            format!(
                "`{}` ({})",
                f.check_id,
                serde_json::to_value(f.action)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default()
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn run_case(engine: &Engine, case: &Case) -> Outcome {
    let started = Instant::now();
    let result = engine.evaluate(&case.request);
    let time = started.elapsed();
    let mut problems = Vec::new();
    let decision = match result {
        Ok(d) => d,
        Err(e) => {
            problems.push(format!("  the request cannot be evaluated: {e}"));
            return Outcome {
                problems,
                time,
                fired: BTreeSet::new(),
            };
        }
    };
    // A check whose condition could not be evaluated did not fire: its
    // warning says so, and fails the case unless the case expects it.
    let errored: Vec<&palisade_protocol::Finding> = decision
        .findings()
        .filter(|f| f.reason_code == CONDITION_ERROR)
        .collect();
    for f in &errored {
        if !case.condition_errors.contains(&f.check_id) {
            problems.push(format!(
                "  ! {} (expect it with `condition_errors: [{}]`)",
                f.message.as_deref().unwrap_or_default(),
                f.check_id
            ));
        }
    }
    let missing_errors: Vec<&str> = case
        .condition_errors
        .iter()
        .filter(|id| !errored.iter().any(|f| f.check_id == **id))
        .map(String::as_str)
        .collect();
    if !missing_errors.is_empty() {
        problems.push(format!("  - condition_errors: {}", ticked(&missing_errors)));
        problems.push("  + no condition error".to_owned());
    }
    let fired: BTreeSet<String> = decision
        .findings()
        .filter(|f| f.reason_code != CONDITION_ERROR)
        .map(|f| f.check_id.clone())
        .collect();
    if let Some(want) = case.decision
        && want != decision.decision
    {
        problems.push(format!("  - decision: {}", kind_name(want)));
        problems.push(format!(
            "  + decision: {} (fired: {})",
            kind_name(decision.decision),
            findings_of(&decision)
        ));
    }
    let missing: Vec<&str> = case
        .fires
        .iter()
        .filter(|id| !fired.contains(*id))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        problems.push(format!("  - fires: {}", ticked(&missing)));
        problems.push(format!("  + fired: {}", findings_of(&decision)));
    }
    let unwanted: Vec<&str> = case
        .not_fires
        .iter()
        .filter(|id| fired.contains(*id))
        .map(String::as_str)
        .collect();
    if !unwanted.is_empty() {
        problems.push(format!("  - not_fires: {}", ticked(&unwanted)));
        problems.push(format!("  + fired: {}", findings_of(&decision)));
    }
    if let Some(want) = &case.reason_code
        && decision.reason_code.as_deref() != Some(want.as_str())
    {
        problems.push(format!("  - reason_code: `{want}`"));
        problems.push(format!(
            "  + reason_code: {}",
            decision
                .reason_code
                .as_deref()
                .map_or_else(|| "none".to_owned(), |r| format!("`{r}`"))
        ));
    }
    if let Some(want) = &case.message_contains {
        let messages: Vec<&str> = decision
            .message
            .as_deref()
            .into_iter()
            .chain(decision.findings().filter_map(|f| f.message.as_deref()))
            .collect();
        if !messages.iter().any(|m| m.contains(want.as_str())) {
            problems.push(format!("  - message_contains: {want:?}"));
            problems.push(format!("  + messages: {messages:?}"));
        }
    }
    if !case.modified_lacks.is_empty() {
        match &decision.modified {
            None => problems.push(format!(
                "  - modified_lacks: {}\n  + no `modified` payload (decision {})",
                ticked(
                    &case
                        .modified_lacks
                        .iter()
                        .map(String::as_str)
                        .collect::<Vec<_>>()
                ),
                kind_name(decision.decision)
            )),
            Some(modified) => {
                let text = serde_json::to_value(modified)
                    .map(|v| strings_of(&v))
                    .unwrap_or_default();
                for lack in &case.modified_lacks {
                    if let Some(place) = text.iter().find(|(_, s)| s.contains(lack.as_str())) {
                        problems.push(format!("  - modified_lacks: `{lack}`"));
                        problems.push(format!("  + modified{}: {:?}", place.0, place.1));
                    }
                }
            }
        }
    }
    Outcome {
        problems,
        time,
        fired,
    }
}

/// Every string of a JSON value with its pointer.
fn strings_of(v: &Value) -> Vec<(String, String)> {
    fn walk(v: &Value, pointer: &mut String, out: &mut Vec<(String, String)>) {
        match v {
            Value::String(s) => out.push((pointer.clone(), s.clone())),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let len = pointer.len();
                    palisade_protocol::pointer::push_index(pointer, i);
                    walk(item, pointer, out);
                    pointer.truncate(len);
                }
            }
            Value::Object(map) => {
                for (k, item) in map {
                    let len = pointer.len();
                    palisade_protocol::pointer::push(pointer, k);
                    walk(item, pointer, out);
                    pointer.truncate(len);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut String::new(), &mut out);
    out
}

/// A JUnit XML report: one `testsuite` per test file.
fn junit_xml(suites: &[Suite], reports: &[Vec<Outcome>]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"palisade test\">\n",
    );
    for (suite, outcomes) in suites.iter().zip(reports) {
        let failures = outcomes.iter().filter(|o| !o.problems.is_empty()).count();
        let time: f64 = outcomes.iter().map(|o| o.time.as_secs_f64()).sum();
        let name = escape(&suite.path.display().to_string());
        let _ = writeln!(
            xml,
            "  <testsuite name=\"{name}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" time=\"{time:.3}\">",
            outcomes.len()
        );
        for (case, outcome) in suite.cases.iter().zip(outcomes) {
            let _ = write!(
                xml,
                "    <testcase name=\"{}\" classname=\"{name}\" time=\"{:.3}\"",
                escape(&case.name),
                outcome.time.as_secs_f64()
            );
            if outcome.problems.is_empty() {
                xml.push_str("/>\n");
            } else {
                let text = outcome.problems.join("\n");
                let first = outcome.problems.first().map_or("", |p| p.trim());
                let _ = write!(
                    xml,
                    ">\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                    escape(first),
                    escape(&text)
                );
            }
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// Text for XML content and attributes; characters XML 1.0 cannot hold
/// become U+FFFD.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// The coverage report: per policy (over every file that tests it), the
/// checks no case made fire and, per check, the entries (patterns, words,
/// tool globs, paths, command patterns, detectors, entities) that fire for
/// no case when the check holds them alone.
fn coverage(suites: &[Suite], reports: &[Vec<Outcome>]) -> anyhow::Result<String> {
    let mut out = String::new();
    let mut done: Vec<Option<PathBuf>> = Vec::new();
    for suite in suites {
        let key = suite
            .policy_path
            .as_ref()
            .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()));
        if done.contains(&key) {
            continue;
        }
        // Every case of every file testing this policy.
        let mut cases: Vec<&Case> = Vec::new();
        let mut fired: BTreeSet<&str> = BTreeSet::new();
        for (s, outcomes) in suites.iter().zip(reports) {
            let k = s
                .policy_path
                .as_ref()
                .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()));
            if k == key {
                cases.extend(s.cases.iter());
                fired.extend(
                    outcomes
                        .iter()
                        .flat_map(|o| o.fired.iter().map(String::as_str)),
                );
            }
        }
        done.push(key);
        let checks = suite.policy.checks();
        let mut lines = Vec::new();
        let mut covered = 0usize;
        let mut counted = 0usize;
        let mut entries_total = 0usize;
        let mut entries_missed = 0usize;
        for (i, check) in checks.iter().enumerate() {
            let at = format!("/checks/{i}");
            let t = check.kind.check_type();
            if !check.enabled {
                lines.push(format!("  check `{}` ({t}, {at}): disabled", check.id));
                continue;
            }
            if t.is_async() {
                lines.push(format!(
                    "  check `{}` ({t}, {at}): not run by `palisade test` (it calls a service)",
                    check.id
                ));
                continue;
            }
            counted += 1;
            if !fired.contains(check.id.as_str()) {
                lines.push(format!(
                    "  check `{}` ({t}, {at}): fired for no case",
                    check.id
                ));
                continue;
            }
            covered += 1;
            let Some(field) = t.entry_field() else {
                continue;
            };
            let original = suite
                .document
                .pointer(&at)
                .and_then(Value::as_object)
                .context("the policy document has no such check")?;
            let entries: Vec<String> = match original.get(field).and_then(Value::as_array) {
                Some(list) => list
                    .iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect(),
                None => t.default_entries(),
            };
            let mut missed = Vec::new();
            for entry in &entries {
                match entry_fires(original, field, entry, &check.id, &cases) {
                    Ok(true) => {}
                    Ok(false) => missed.push(entry.as_str()),
                    // Not counted as exercised, and said why.
                    Err(e) => {
                        missed.push(entry.as_str());
                        lines.push(format!(
                            "  check `{}` ({t}, {at}): {field} entry `{entry}` cannot be tried alone: {e}",
                            check.id
                        ));
                    }
                }
            }
            entries_total += entries.len();
            entries_missed += missed.len();
            if !missed.is_empty() {
                lines.push(format!(
                    "  check `{}` ({t}, {at}): {} of {} {field} fired for no case: {}",
                    check.id,
                    missed.len(),
                    entries.len(),
                    ticked(&missed)
                ));
            }
        }
        let name = match &suite.policy_path {
            Some(p) => format!("policy {}", p.display()),
            None => "the embedded default policy".to_owned(),
        };
        let _ = writeln!(
            out,
            "\ncoverage of {name} ({} case{}): {covered} of {counted} checks fired; {} of {entries_total} entries fired",
            cases.len(),
            plural(cases.len()),
            entries_total - entries_missed
        );
        if lines.is_empty() {
            let _ = writeln!(out, "  every check and entry fired for some case");
        }
        for line in lines {
            let _ = writeln!(out, "{line}");
        }
    }
    Ok(out)
}

/// Whether the check, holding only `entry` in `field`, fires for a case;
/// an error when the check does not load with that entry alone.
fn entry_fires(
    check: &Map<String, Value>,
    field: &str,
    entry: &str,
    id: &str,
    cases: &[&Case],
) -> Result<bool, String> {
    let mut alone = check.clone();
    alone.insert(field.to_owned(), Value::from(vec![entry.to_owned()]));
    alone.insert("id".to_owned(), Value::from(id));
    let document = serde_json::json!({ "checks": [alone] });
    let engine = Policy::from_value(&document)
        .and_then(Engine::new)
        .map_err(|e| e.to_string())?;
    Ok(cases.iter().any(|case| {
        engine
            .evaluate(&case.request)
            .is_ok_and(|d| d.findings().any(|f| f.check_id == id))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_text_is_escaped() {
        assert_eq!(
            escape("a<b & \"c\"\u{1}"),
            "a&lt;b &amp; &quot;c&quot;\u{FFFD}"
        );
    }

    #[test]
    fn strings_are_listed_with_their_pointers() {
        let v = serde_json::json!({"content": "x", "output": {"a/b": ["y"]}});
        assert_eq!(
            strings_of(&v),
            [
                ("/content".to_owned(), "x".to_owned()),
                ("/output/a~1b/0".to_owned(), "y".to_owned())
            ]
        );
    }
}
