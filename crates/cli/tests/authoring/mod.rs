//! Writing and testing a policy: `palisade test` and `init`, mistakes that
//! name the closest valid name, syntax errors shown in place, and the
//! check command's exit codes, statistics and help.

use std::path::{Path, PathBuf};

use crate::util::{TempDir, arg, palisade};

/// The repository's `examples/` directory.
fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

const POLICY: &str = "\
checks:
  - id: no-drop
    stage: tool_use
    type: regex
    patterns: ['(?i)drop\\s+table', '(?i)truncate\\s+table']
  - id: words
    stage: output
    type: blocklist
    words: [forbidden, banned]
    on_fail: redact
  - id: no-shell
    stage: tool_use
    type: tool_pattern
    tools: [bash, sh]
";

const PASSING: &str = r#"
policy: policy.yaml
cases:
  - name: drop table is blocked
    request: {stage: tool_use, tool: {name: sql, arguments: {q: "DROP TABLE t"}}}
    expect: {decision: block, fires: [no-drop], not_fires: [no-shell]}
  - name: a forbidden word is redacted
    request: {stage: output, content: "this is forbidden"}
    expect: {decision: modify, fires: [words], modified_lacks: [forbidden]}
  - name: a plain answer passes
    request: {stage: output, content: "fine"}
    expect: {decision: allow}
"#;

const FAILING: &str = r#"
policy: policy.yaml
cases:
  - name: passes
    request: {stage: output, content: "fine"}
    expect: {decision: allow}
  - name: wrong decision
    request: {stage: output, content: "this is forbidden"}
    expect: {decision: block, modified_lacks: [this]}
  - name: wrong check
    request: {stage: tool_use, tool: {name: bash, arguments: {command: ls}}}
    expect: {decision: block, fires: [no-drop], not_fires: [no-shell]}
"#;

fn suite(name: &str, tests: &[(&str, &str)]) -> TempDir {
    let dir = TempDir::new(name);
    dir.write("policy.yaml", POLICY);
    for (file, text) in tests {
        dir.write(file, text);
    }
    dir
}

#[test]
fn a_passing_suite_reports_each_case_and_exits_0() {
    let dir = suite("test_passing", &[("policy_test.yaml", PASSING)]);
    let run = palisade(&["test", arg(dir.path())]).run();
    run.code(0);
    let out = run.stdout_text();
    for line in [
        "case drop table is blocked ... ok",
        "case a forbidden word is redacted ... ok",
        "case a plain answer passes ... ok",
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} in:\n{out}");
    }
    assert!(
        out.contains("test result: ok. 3 passed; 0 failed; 1 file;"),
        "{out}"
    );
}

#[test]
fn a_failing_case_shows_expected_and_actual_and_exits_1() {
    let dir = suite("test_failing", &[("failing_test.yaml", FAILING)]);
    let junit = dir.path().join("junit.xml");
    let run = palisade(&["test", arg(dir.path()), "--junit", arg(&junit)]).run();
    run.code(1);
    let out = run.stdout_text();
    assert!(out.contains("case passes ... ok"), "{out}");
    assert!(out.contains("case wrong decision ... FAILED"), "{out}");
    assert!(out.contains("case wrong check ... FAILED"), "{out}");
    let diff = [
        "  - decision: block",
        "  + decision: modify (fired: `words` (redact))",
        "  - modified_lacks: `this`",
        "  - fires: `no-drop`",
        "  + fired: `no-shell` (block)",
        "  - not_fires: `no-shell`",
    ];
    for line in diff {
        assert!(out.lines().any(|l| l == line), "{line:?} in:\n{out}");
    }
    assert!(
        out.contains("+ modified/content: \"this is [REDACTED"),
        "{out}"
    );
    assert!(
        out.contains("test result: FAILED. 1 passed; 2 failed; 1 file;"),
        "{out}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\""), "{xml}");
    assert!(xml.contains("tests=\"3\" failures=\"2\""), "{xml}");
    assert!(xml.contains("<testcase name=\"passes\""), "{xml}");
    assert_eq!(xml.matches("<failure message=").count(), 2, "{xml}");
    assert!(xml.contains("- decision: block"), "{xml}");
}

/// `reason_code` is the decision's `reasonCode`, exactly; `message_contains`
/// a text of its message or of a finding's.
#[test]
fn a_case_can_expect_the_reason_code_and_a_message_text() {
    let cases = r#"
policy: policy.yaml
cases:
  - name: both hold
    request: {stage: tool_use, tool: {name: sql, arguments: {q: "DROP TABLE t"}}}
    expect:
      reason_code: guardrail.regex
      message_contains: "guardrail check 'no-drop'"
  - name: both are wrong
    request: {stage: tool_use, tool: {name: sql, arguments: {q: "DROP TABLE t"}}}
    expect: {reason_code: guardrail.path, message_contains: cannot be resolved}
  - name: no reason on an allow
    request: {stage: output, content: "fine"}
    expect: {reason_code: guardrail.regex}
"#;
    let dir = suite("test_reasons", &[("reasons_test.yaml", cases)]);
    let run = palisade(&["test", arg(dir.path())]).run();
    run.code(1);
    let out = run.stdout_text();
    assert!(out.contains("case both hold ... ok"), "{out}");
    for line in [
        "  - reason_code: `guardrail.path`",
        "  + reason_code: `guardrail.regex`",
        "  - message_contains: \"cannot be resolved\"",
        "  - reason_code: `guardrail.regex`",
        "  + reason_code: none",
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} in:\n{out}");
    }
    // A reason that is not a text is a problem of the file, before any case runs.
    dir.write(
        "bad_test.yaml",
        "policy: policy.yaml\ncases:\n  - name: x\n    request: {stage: output, content: a}\n    expect: {reason_code: 7}\n",
    );
    let run = palisade(&["test", arg(&dir.path().join("bad_test.yaml"))]).run();
    run.code(2);
    assert!(
        run.stderr
            .contains("`reason_code` must be a non-empty string, not a number"),
        "{}",
        run.stderr
    );
}

#[test]
fn coverage_lists_checks_and_entries_no_case_exercised() {
    let only_drop = r#"
policy: policy.yaml
cases:
  - name: drop
    request: {stage: tool_use, tool: {name: sql, arguments: {q: "drop table t"}}}
    expect: {decision: block}
  - name: banned
    request: {stage: output, content: "banned"}
    expect: {decision: modify}
"#;
    let dir = suite("test_coverage", &[("cover_test.yaml", only_drop)]);
    let run = palisade(&["test", arg(dir.path()), "--coverage"]).run();
    run.code(0);
    let out = run.stdout_text();
    assert!(
        out.contains("(2 cases): 2 of 3 checks fired; 2 of 4 entries fired"),
        "{out}"
    );
    assert!(
        out.contains(
            "check `no-drop` (regex, /checks/0): 1 of 2 patterns fired for no case: `(?i)truncate\\s+table`"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "check `words` (blocklist, /checks/1): 1 of 2 words fired for no case: `forbidden`"
        ),
        "{out}"
    );
    assert!(
        out.contains("check `no-shell` (tool_pattern, /checks/2): fired for no case"),
        "{out}"
    );
}

#[test]
fn bad_test_files_name_the_field_and_exit_2() {
    let bad = r#"
policy: policy.yaml
cases:
  - name: typo
    request: {stage: output, content: x}
    expect: {decison: allow}
  - name: unknown check
    request: {stage: output, content: x}
    expect: {decision: allow, fires: [no-dorp]}
  - name: bad decision
    request: {stage: output, content: x}
    expect: {decision: alow}
  - name: bad request
    request: {stage: outptu, content: x}
    expect: {decision: allow}
"#;
    let dir = suite("test_bad", &[("bad_test.yaml", bad)]);
    let run = palisade(&["test", arg(dir.path())]).run();
    run.code(2);
    let err = &run.stderr;
    for needle in [
        "/cases/0/expect/decison: unknown field `decison`; did you mean `decision`?",
        "/cases/1/expect/fires/0: the policy has no check `no-dorp`; did you mean `no-drop`?",
        "/cases/2/expect/decision: unknown decision \"alow\"; did you mean `allow`?",
        "/cases/3/request: not a valid request:",
    ] {
        assert!(err.contains(needle), "{needle:?} in:\n{err}");
    }
    assert!(run.stdout.is_empty(), "no case runs when a file is bad");

    let missing_policy = suite(
        "test_bad_policy",
        &[("x_test.yaml", "policy: nope.yaml\ncases: []\n")],
    );
    let run = palisade(&["test", arg(missing_policy.path())]).run();
    run.code(2);
    assert!(run.stderr.contains("nope.yaml"), "{}", run.stderr);

    let empty = TempDir::new("test_none");
    empty.write("policy.yaml", POLICY);
    let run = palisade(&["test", arg(empty.path())]).run();
    run.one_line_error(&["no test files found", "_test.yaml"]);
    run.code(2);
}

#[test]
fn the_shipped_examples_pass() {
    let run = palisade(&["test", arg(&examples().join("tests")), "--coverage"]).run();
    run.code(0);
    let out = run.stdout_text();
    assert!(out.contains("test result: ok."), "{out}");
    assert!(
        out.contains("coverage of the embedded default policy"),
        "{out}"
    );
    assert!(out.contains("coverage of policy"), "{out}");
}

#[test]
fn init_writes_a_policy_and_a_passing_test_file_and_never_overwrites() {
    let dir = TempDir::new("init");
    let target = dir.path().join("project");
    let run = palisade(&["init", "--dir", arg(&target)]).run();
    run.code(0);
    let policy = std::fs::read_to_string(target.join("palisade.yaml")).unwrap();
    let default = palisade(&["policy", "default"]).run();
    assert_eq!(
        policy,
        default.stdout_text(),
        "the default policy, commented"
    );
    assert!(
        policy.contains("\n#") || policy.starts_with('#'),
        "with its comments"
    );
    let test = palisade(&["test", arg(&target.join("palisade_test.yaml"))]).run();
    test.code(0);
    assert!(
        test.stdout_text().contains("0 failed"),
        "{}",
        test.stdout_text()
    );

    // A second init refuses and leaves the files as they are.
    std::fs::write(target.join("palisade.yaml"), "checks: []\n").unwrap();
    let again = palisade(&["init", "--dir", arg(&target)]).run();
    again.one_line_error(&["palisade.yaml", "already exist", "--force"]);
    again.code(2);
    assert_eq!(
        std::fs::read_to_string(target.join("palisade.yaml")).unwrap(),
        "checks: []\n"
    );
    palisade(&["init", "--dir", arg(&target), "--force"])
        .run()
        .code(0);
    assert_eq!(
        std::fs::read_to_string(target.join("palisade.yaml")).unwrap(),
        default.stdout_text()
    );
}

#[test]
fn policy_mistakes_name_the_closest_valid_name() {
    let dir = TempDir::new("did_you_mean");
    let policy = dir.write(
        "typos.yaml",
        "mode: activ\nchecks:\n  - id: a\n    type: regx\n    stage: tool_ouput\n    patterns: [x]\n    on_fial: block\n  - id: b\n    type: secrets\n    stages: output\n    detectors: [aws_acess_key_id]\n  - id: c\n    type: pii\n    stage: output\n    entities: [emial]\n    severity: hihg\n",
    );
    let run = palisade(&["validate", arg(&policy)]).run();
    run.code(2);
    let out = run.stdout_text();
    // Each problem at its line and column, with its check's id, in the
    // order of the file.
    let p = arg(&policy);
    let lines: Vec<&str> = out.lines().collect();
    let needles = [
        "1:1: /mode: unknown mode `activ`; did you mean `active`?",
        "4:5: /checks/0/type (check `a`): unknown check type `regx`; did you mean `regex`?",
        "5:5: /checks/0/stage (check `a`): unknown stage `tool_ouput`; did you mean `tool_output`?",
        "7:5: /checks/0/on_fial (check `a`): unknown field `on_fial`; did you mean `on_fail`?",
        "8:5: /checks/1 (check `b`): missing field `stage`",
        "10:5: /checks/1/stages (check `b`): unknown field `stages`; did you mean `stage`?",
        "11:17: /checks/1/detectors/0 (check `b`): unknown detector `aws_acess_key_id`; did you mean `aws_access_key_id`?",
        "15:16: /checks/2/entities/0 (check `c`): unknown entity `emial`; did you mean `email`?",
        "16:5: /checks/2/severity (check `c`): unknown severity `hihg`; did you mean `high`?",
    ];
    assert_eq!(lines.len(), needles.len(), "{out}");
    for (line, needle) in lines.iter().zip(needles) {
        let needle = format!("{p}:{needle}");
        assert!(line.starts_with(&needle), "{needle:?} starts:\n{line}");
    }
    // Far from every name: no guess, the list.
    let far = dir.write("far.yaml", "checks:\n  - type: zzzzzz\n    stage: input\n");
    let run = palisade(&["validate", arg(&far)]).run();
    assert!(
        run.stdout_text()
            .contains("unknown check type `zzzzzz`; expected one of `regex`"),
        "{}",
        run.stdout_text()
    );

    let config = dir.write("config.yaml", "lisen: 127.0.0.1:9\n");
    let run = palisade(&["check", "--config", arg(&config), "--content", "x"]).run();
    run.code(2);
    assert!(
        run.stderr
            .contains("unknown field `lisen` (did you mean `listen`?)"),
        "{}",
        run.stderr
    );
}

#[test]
fn syntax_errors_show_the_line_with_a_caret() {
    let dir = TempDir::new("syntax_caret");
    let yaml = dir.write(
        "broken.yaml",
        "checks:\n  - id: a\n    type: regex\n    stage: output\n    patterns: [\"x\"\n    on_fail: block\n",
    );
    let run = palisade(&["check", "--policy", arg(&yaml), "--content", "x"]).run();
    run.code(2);
    let err = &run.stderr;
    assert!(err.starts_with("error: invalid YAML: "), "{err}");
    assert!(err.contains(&format!(" --> {}:6:5", arg(&yaml))), "{err}");
    assert!(
        err.contains("6 |     on_fail: block\n  |     ^ here"),
        "{err}"
    );

    let json = dir.write("broken.json", "{\"checks\": [\n  {\"id\": \"a\",}\n]}\n");
    let run = palisade(&["serve", "--policy", arg(&json), "--listen", "127.0.0.1:0"]).run();
    run.code(2);
    assert!(
        run.stderr.contains("invalid JSON: trailing comma"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("2 |   {\"id\": \"a\",}"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_batch_exits_like_its_most_severe_request() {
    let run = |lines: &str| {
        palisade(&["check", "--jsonl", "--stats"])
            .stdin(lines.to_owned())
            .run()
    };
    let allow = r#"{"stage":"output","content":"fine"}"#;
    let block = r#"{"stage":"tool_use","tool":{"name":"Read","arguments":{"file_path":".env"}}}"#;
    let modify = r#"{"stage":"output","content":"mail jane.doe@northwind-mail.com"}"#;
    let r = run(&format!("{allow}\n{modify}\n"));
    r.code(0);
    assert!(
        r.stderr
            .contains("decisions: 1 allow, 0 block, 0 ask, 1 modify, 0 error"),
        "{}",
        r.stderr
    );
    let r = run(&format!("{allow}\n{block}\n{modify}\n"));
    r.code(1);
    assert!(
        r.stderr.contains("decisions: 1 allow, 1 block,"),
        "{}",
        r.stderr
    );
    assert_eq!(r.stdout_lines().len(), 3, "every line still answered");
    run(&format!("{block}\nnot json\n")).code(2);
}

#[test]
fn check_on_a_terminal_explains_instead_of_waiting() {
    // `script` gives the command a terminal for stdin.
    let bin = env!("CARGO_BIN_EXE_palisade");
    let out = std::process::Command::new("timeout")
        .args(["20", "script", "-qec", &format!("{bin} check"), "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(text.contains("stdin is a terminal"), "{text}");
    assert!(text.contains("palisade check --stage tool_use"), "{text}");
}

#[test]
fn help_names_stdin_exit_codes_and_stages() {
    let help = palisade(&["check", "--help"]).run();
    help.code(0);
    let text = help.stdout_text();
    for needle in [
        "stdin",
        "Exit codes: 0 allow or modify; 1 block or ask; 2",
        "tool_output",
        "action",
    ] {
        assert!(text.contains(needle), "{needle:?} in:\n{text}");
    }
    for command in ["serve", "events", "mcp", "hook", "validate", "test", "init"] {
        let run = palisade(&[command, "--help"]).run();
        run.code(0);
        assert!(
            run.stdout_text().contains("Exit codes:"),
            "{command}:\n{}",
            run.stdout_text()
        );
    }
}

#[test]
fn serve_port_points_to_listen() {
    let run = palisade(&["serve", "--port", "8080"]).run();
    run.code(2);
    run.one_line_error(&["--port", "--listen 127.0.0.1:8080"]);
}

#[test]
fn validate_warns_about_checks_that_never_fire() {
    let dir = TempDir::new("validate_warnings");
    let policy = dir.write(
        "w.yaml",
        "checks:\n  - {id: t, type: tool_pattern, stage: tool_use, tools: [webfetch, my_tool]}\n  - {id: c, type: command, stage: tool_use, commands: ['-rf *', 'git push --force']}\n",
    );
    let run = palisade(&["validate", arg(&policy)]).run();
    run.code(0);
    let out = run.stdout_text();
    let p = arg(&policy);
    assert!(
        out.contains(&format!("{p}: ok (2 checks, 2 warnings)")),
        "{out}"
    );
    assert!(
        out.contains(&format!("{p}:2:58: warning: /checks/0/tools/0 (check `t`): tool glob `webfetch` matches `WebFetch` only in another case")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "{p}:3:56: warning: /checks/1/commands/0 (check `c`): command pattern `-rf *`"
        )),
        "{out}"
    );
    let clean = palisade(&["validate", arg(&examples().join("policy.yaml"))]).run();
    clean.code(0);
    assert!(
        !clean.stdout_text().contains("warning"),
        "{}",
        clean.stdout_text()
    );
}

/// A rule whose condition errors on a request (a method of strings on a
/// list, a member the request lacks) does not fire, and says so: the
/// decision carries a warning of the check, and `palisade test` fails the
/// case unless the case expects it (`condition_errors`).
#[test]
fn a_condition_that_cannot_run_fails_its_case_unless_expected() {
    let policy = "\
checks:
  - id: mail-to-us
    stage: tool_use
    type: condition
    expr: '!request.tool.arguments.to.endsWith(\"@example.com\")'
";
    let tests = r#"
policy: policy.yaml
cases:
  - name: a list of recipients
    request: {tool: {name: send_email, arguments: {to: [bob@example.com, eve@evil.test]}}}
    expect: {decision: block}
  - name: another argument name
    request: {tool: {name: send_email, arguments: {recipient: eve@evil.test}}}
    expect: {decision: allow}
  - name: expected not to be evaluable
    request: {tool: {name: send_email, arguments: {recipient: eve@evil.test}}}
    expect: {decision: allow, condition_errors: [mail-to-us]}
  - name: a string is judged
    request: {tool: {name: send_email, arguments: {to: eve@evil.test}}}
    expect: {decision: block, fires: [mail-to-us]}
  - name: expected but evaluable
    request: {tool: {name: send_email, arguments: {to: bob@example.com}}}
    expect: {decision: allow, condition_errors: [mail-to-us]}
"#;
    let dir = suite(
        "condition_errors",
        &[("policy.yaml", policy), ("mail_test.yaml", tests)],
    );
    let run = palisade(&["test", arg(&dir.path().join("mail_test.yaml"))]).run();
    run.code(1);
    let out = run.stdout_text();
    for line in [
        "case a list of recipients ... FAILED",
        "case another argument name ... FAILED",
        "case expected not to be evaluable ... ok",
        "case a string is judged ... ok",
        "case expected but evaluable ... FAILED",
        "  ! check `mail-to-us` did not fire: its condition `!request.tool.arguments.to.endsWith(\"@example.com\")` cannot be evaluated on this request: the request has no member `to` (expect it with `condition_errors: [mail-to-us]`)",
        "  - condition_errors: `mail-to-us`",
        "  + no condition error",
    ] {
        assert!(out.lines().any(|l| l == line), "{line:?} in\n{out}");
    }

    // The decision itself says so.
    let run = palisade(&[
        "check",
        "--policy",
        arg(&dir.path().join("policy.yaml")),
        "--stage",
        "tool_use",
        "--tool",
        "send_email",
        "--args",
        r#"{"to": ["bob@example.com", "eve@evil.test"]}"#,
    ])
    .run();
    run.code(0);
    let d = run.decision();
    assert_eq!(d["warnings"][0]["checkId"], "mail-to-us", "{d}");
    assert_eq!(
        d["warnings"][0]["reasonCode"], "policy.condition_error",
        "{d}"
    );
    let message = d["warnings"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("check `mail-to-us` did not fire: its condition `!request.tool.arguments.to.endsWith(\"@example.com\")` cannot be evaluated on this request: "),
        "{message}"
    );
}
