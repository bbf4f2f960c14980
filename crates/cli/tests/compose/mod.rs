//! Policies that extend others (SPEC §16): `extends: default` or a file
//! relative to the policy's own, checks replaced by id and added,
//! `disable`, `palisade policy show`, and the errors of a cycle, an
//! unknown id and a file that cannot be read — each with its exact text.

use serde_json::Value;

use crate::util::{TempDir, arg, palisade};

/// `palisade validate FILE`: exit code and stdout.
fn validate(file: &std::path::Path) -> (i32, String) {
    let run = palisade(&["validate", arg(file)]).run();
    (run.code, run.stdout_text().to_owned())
}

/// The ids of the effective policy's checks, from `palisade policy show`.
fn shown_ids(file: &std::path::Path) -> (Value, Vec<String>) {
    let run = palisade(&["policy", "show", arg(file)]).run();
    run.code(0);
    let text = run.stdout_text();
    assert!(
        text.starts_with(&format!(
            "# The effective policy of {} (palisade policy show)\n",
            file.display()
        )),
        "{text}"
    );
    let doc: Value = serde_yaml_ng::from_str(text).unwrap();
    let ids = doc["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap().to_owned())
        .collect();
    (doc, ids)
}

const DEFAULT_IDS: [&str; 8] = [
    "secrets-in-tool-output",
    "secrets-in-output",
    "pii-in-output",
    "dangerous-commands",
    "secret-files",
    "agent-settings",
    "outside-workspace",
    "untrusted-values",
];

#[test]
fn extending_the_default_replaces_by_id_adds_and_disables() {
    let dir = TempDir::new("compose_default");
    let policy = dir.write(
        "policy.yaml",
        "\
extends: default
disable: [pii-in-output]
checks:
  # Replaces the default's: dangerous commands are blocked, not asked.
  - id: dangerous-commands
    stage: [tool_use, action]
    type: command
    on_fail: block
  - id: no-deploys
    stage: tool_use
    type: tool_pattern
    tools: [deploy_*]
",
    );
    let (code, out) = validate(&policy);
    assert_eq!(
        (code, out.as_str()),
        (0, format!("{}: ok (8 checks)\n", policy.display()).as_str())
    );
    let (doc, ids) = shown_ids(&policy);
    let mut want: Vec<&str> = DEFAULT_IDS
        .iter()
        .copied()
        .filter(|i| *i != "pii-in-output")
        .collect();
    want.push("no-deploys");
    assert_eq!(
        ids, want,
        "replaced in place, added at the end, disabled gone"
    );
    assert_eq!(doc["mode"], "active", "the default's mode");
    assert_eq!(doc["checks"][2]["on_fail"], "block");
    assert!(doc.get("extends").is_none() && doc.get("disable").is_none());

    // The replaced check decides: blocked where the default asks.
    let check = |args: &str, tool: &str| {
        palisade(&[
            "check",
            "--policy",
            arg(&policy),
            "--stage",
            "tool_use",
            "--tool",
            tool,
            "--args",
            args,
        ])
        .run()
    };
    let run = check(r#"{"command": "rm -rf /"}"#, "bash");
    run.code(1);
    let d = run.decision();
    assert_eq!(d["decision"], "block", "{d}");
    let run = check("{}", "deploy_prod");
    run.code(1);
    assert_eq!(run.decision()["violations"][0]["checkId"], "no-deploys");
    // The default's other checks still hold: a secret file.
    let run = check(r#"{"file_path": ".env"}"#, "read");
    run.code(1);
    assert_eq!(run.decision()["violations"][0]["checkId"], "secret-files");
    // The disabled one does not: an e-mail address in an answer passes.
    let run = palisade(&[
        "check",
        "--policy",
        arg(&policy),
        "--stage",
        "output",
        "--content",
        "mail bob@example.com",
    ])
    .run();
    run.code(0);
    assert_eq!(run.decision()["decision"], "allow");
}

#[test]
fn a_file_extends_a_file_relative_to_itself_and_nests() {
    let dir = TempDir::new("compose_files");
    std::fs::create_dir_all(dir.path().join("team/base")).unwrap();
    dir.write(
        "team/base/org.yaml",
        "extends: default\nmode: advisory\ndisable: [untrusted-values]\n",
    );
    dir.write(
        "team/team.json",
        r#"{"extends": "base/org.yaml", "checks": [{"id": "no-deploys", "stage": "tool_use", "type": "tool_pattern", "tools": ["deploy_*"]}]}"#,
    );
    let policy = dir.write(
        "team/mine.yaml",
        "extends: ./team.json\nmode: active\ndisable: [no-deploys, outside-workspace]\n",
    );
    let (_, ids) = shown_ids(&policy);
    assert_eq!(
        ids,
        [
            "secrets-in-tool-output",
            "secrets-in-output",
            "pii-in-output",
            "dangerous-commands",
            "secret-files",
            "agent-settings",
        ]
    );
    let (doc, _) = shown_ids(&dir.path().join("team/team.json"));
    assert_eq!(doc["mode"], "advisory", "the extended file's mode");
    let (doc, _) = shown_ids(&policy);
    assert_eq!(doc["mode"], "active", "the policy's own mode wins");
}

#[test]
fn a_cycle_is_an_error_naming_the_files() {
    let dir = TempDir::new("compose_cycle");
    let a = dir.write("a.yaml", "extends: b.yaml\n");
    let b = dir.write("b.yaml", "extends: a.yaml\n");
    let (code, out) = validate(&a);
    assert_eq!(code, 2);
    let a = std::fs::canonicalize(&a).unwrap();
    let b = std::fs::canonicalize(&b).unwrap();
    assert_eq!(
        out,
        format!(
            "{}:1:1: /extends: in `{}` (extended), line 1 column 1: /extends: `extends` makes a cycle: `{}` extends `{}` extends `{}`\n",
            dir.path().join("a.yaml").display(),
            dir.path().join("b.yaml").display(),
            a.display(),
            b.display(),
            a.display()
        )
    );
    let itself = dir.write("self.yaml", "extends: self.yaml\n");
    let (code, out) = validate(&itself);
    assert_eq!(code, 2);
    let canonical = std::fs::canonicalize(&itself).unwrap();
    assert_eq!(
        out,
        format!(
            "{}:1:1: /extends: `extends` makes a cycle: `{}` extends `{}`\n",
            itself.display(),
            canonical.display(),
            canonical.display()
        )
    );
}

#[test]
fn unknown_ids_and_unreadable_files_are_errors_naming_them() {
    let dir = TempDir::new("compose_errors");
    let policy = dir.write(
        "p.yaml",
        "extends: default\ndisable: [secret-file, nothing-like-it]\n",
    );
    let (code, out) = validate(&policy);
    assert_eq!(code, 2);
    let all = DEFAULT_IDS
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ");
    assert_eq!(
        out,
        format!(
            "{p}:2:11: /disable/0: no check of the default policy has the id `secret-file`; did you mean `secret-files`? its checks are {all}\n\
             {p}:2:24: /disable/1: no check of the default policy has the id `nothing-like-it`; its checks are {all}\n",
            p = policy.display()
        )
    );

    dir.write(
        "base.yaml",
        "checks:\n  - {id: one, stage: output, type: blocklist, words: [x]}\n",
    );
    let policy = dir.write("q.yaml", "extends: base.yaml\ndisable: [two]\n");
    let (_, out) = validate(&policy);
    assert_eq!(
        out,
        format!(
            "{}:2:11: /disable/0: no check of `base.yaml` has the id `two`; its checks are `one`\n",
            policy.display()
        )
    );

    let policy = dir.write("r.yaml", "extends: missing.yaml\n");
    let (code, out) = validate(&policy);
    assert_eq!(code, 2);
    assert!(
        out.starts_with(&format!(
            "{}:1:1: /extends: cannot read `{}`, which `{}` extends: ",
            policy.display(),
            dir.path().join("missing.yaml").display(),
            policy.display()
        )),
        "{out}"
    );

    // A problem of the extended file is told as that file's.
    dir.write(
        "bad.yaml",
        "checks:\n  - {id: one, stage: output, type: blocklist}\n",
    );
    let policy = dir.write("s.yaml", "extends: bad.yaml\n");
    let (_, out) = validate(&policy);
    assert_eq!(
        out,
        format!(
            "{}:1:1: /extends: in `{}` (extended), line 2 column 5: /checks/0 (check `one`): missing field `words` (a non-empty array of strings)\n",
            policy.display(),
            dir.path().join("bad.yaml").display()
        )
    );

    // `disable` without `extends`, and a check both replaced and disabled.
    let policy = dir.write("t.yaml", "disable: [x]\n");
    let (_, out) = validate(&policy);
    assert_eq!(
        out,
        format!(
            "{}:1:1: /disable: `disable` drops checks of the extended policy, and this policy has no `extends` (`extends: default`, or a policy file)\n",
            policy.display()
        )
    );
    let policy = dir.write(
        "u.yaml",
        "extends: default\ndisable: [pii-in-output]\nchecks:\n  - {id: pii-in-output, stage: output, type: pii, on_fail: block}\n",
    );
    let (_, out) = validate(&policy);
    assert_eq!(
        out,
        format!(
            "{}:2:11: /disable/0: `pii-in-output` is disabled here and replaced in `checks` (/checks/0); do one or the other\n",
            policy.display()
        )
    );
    // `palisade policy show` of an invalid policy prints the problems, exit 2.
    let run = palisade(&["policy", "show", arg(&policy)]).run();
    run.code(2);
    assert!(run.stdout_text().is_empty());
    assert!(
        run.stderr.contains("is disabled here and replaced"),
        "{}",
        run.stderr
    );
}
