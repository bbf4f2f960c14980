//! The policy schema (`schemas/policy.v1.json`) against the loader: every
//! policy the loader accepts — the default policy, `examples/`, the docs'
//! policies and the case files' — is valid under the schema, and mistakes
//! both refuse.

use std::path::{Path, PathBuf};

use palisade_engine::Engine;
use serde_json::{Value, json};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn validator() -> jsonschema::Validator {
    let committed: Value = serde_json::from_str(
        &std::fs::read_to_string(repo().join("schemas/policy.v1.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        committed,
        palisade_engine::policy::json_schema(),
        "schemas/policy.v1.json is stale: run `cargo xtask generate`"
    );
    jsonschema::draft202012::new(&committed).unwrap()
}

/// Every error the schema reports for `policy`, as `pointer: message`.
fn schema_errors(v: &jsonschema::Validator, policy: &Value) -> Vec<String> {
    v.iter_errors(policy)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

fn loads(policy: &Value) -> bool {
    Engine::from_json_str(&policy.to_string()).is_ok()
}

/// The fenced YAML and JSON blocks of a Markdown file that are policies.
fn policies_in_markdown(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    let mut block: Option<(String, String)> = None;
    for line in text.lines() {
        match &mut block {
            None => {
                if let Some(lang) = line.trim_start().strip_prefix("```") {
                    block = Some((lang.trim().to_owned(), String::new()));
                }
            }
            Some((lang, body)) => {
                if line.trim_start().starts_with("```") {
                    let value: Option<Value> = match lang.as_str() {
                        "yaml" | "yml" => serde_yaml_ng::from_str(body).ok(),
                        "json" => serde_json::from_str(body).ok(),
                        _ => None,
                    };
                    if let Some(v) = value.filter(|v| v.get("checks").is_some()) {
                        out.push(v);
                    }
                    block = None;
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    out
}

/// The inline policies of the engine's case files.
fn policies_in_cases() -> Vec<Value> {
    let mut out = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("yaml") {
            continue;
        }
        let doc: Value = serde_yaml_ng::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        if let Some(p) = doc.get("policy").filter(|p| p.is_object()) {
            out.push(p.clone());
        }
        for case in doc["cases"].as_array().into_iter().flatten() {
            if let Some(p) = case.get("policy").filter(|p| p.is_object()) {
                out.push(p.clone());
            }
        }
    }
    out
}

#[test]
fn every_policy_the_loader_accepts_is_valid_under_the_schema() {
    let v = validator();
    let mut named: Vec<(String, Value)> = vec![(
        "the default policy".into(),
        serde_yaml_ng::from_str(palisade_engine::DEFAULT_POLICY).unwrap(),
    )];
    for entry in std::fs::read_dir(repo().join("examples")).unwrap() {
        let path = entry.unwrap().path();
        if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("yaml" | "yml")
        ) {
            let value = serde_yaml_ng::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            named.push((path.display().to_string(), value));
        }
    }
    let mut docs = 0;
    for dir in [repo().join("docs"), repo()] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) == Some("md") {
                for (i, p) in policies_in_markdown(&path).into_iter().enumerate() {
                    named.push((format!("{} block {i}", path.display()), p));
                    docs += 1;
                }
            }
        }
    }
    assert!(docs >= 10, "the docs' policies were found ({docs})");
    for (i, p) in policies_in_cases().into_iter().enumerate() {
        named.push((format!("case policy {i}"), p));
    }
    let mut checked = 0;
    for (name, policy) in &named {
        if !loads(policy) {
            continue;
        }
        let errors = schema_errors(&v, policy);
        assert!(
            errors.is_empty(),
            "{name} loads but the schema refuses it: {errors:?}"
        );
        checked += 1;
    }
    assert!(checked > 60, "{checked} policies checked");
}

#[test]
fn mistakes_are_refused_by_the_loader_and_the_schema() {
    let v = validator();
    let check = |extra: Value| {
        let mut c = json!({"id": "c", "type": "regex", "stage": "input", "patterns": ["x"]});
        for (k, val) in extra.as_object().unwrap() {
            if val.is_null() {
                c.as_object_mut().unwrap().remove(k);
            } else {
                c[k] = val.clone();
            }
        }
        json!({ "checks": [c] })
    };
    let mistakes = [
        json!({"checks": [], "rules": []}),
        json!({"mode": "enforce"}),
        json!({"checks": {}}),
        check(json!({"patern": ["x"]})),
        check(json!({"patterns": null})),
        check(json!({"patterns": []})),
        check(json!({"patterns": [""]})),
        check(json!({"type": "regexp"})),
        check(json!({"type": null})),
        check(json!({"stage": null})),
        check(json!({"stage": "tool_result"})),
        check(json!({"stage": []})),
        check(json!({"on_fail": "deny"})),
        check(json!({"severity": "urgent"})),
        check(json!({"on_error": "block"})),
        check(json!({"id": "has space"})),
        check(json!({"enabled": "yes"})),
        check(json!({"when": ""})),
        check(json!({"when": 1})),
        check(json!({"type": "condition", "patterns": null, "expr": ""})),
        check(json!({"type": "tool_pattern", "patterns": null, "tools": ["x"]})),
        check(
            json!({"type": "command", "patterns": null, "stage": "tool_use", "on_fail": "redact"}),
        ),
        check(json!({"type": "secrets", "patterns": null, "detectors": ["aws"]})),
        check(json!({"type": "pii", "patterns": null, "entities": ["ssn_number"]})),
        check(json!({"type": "rate_limit", "patterns": null, "max": 0, "window_secs": 60})),
        check(json!({"type": "rate_limit", "patterns": null, "max": 5})),
        check(
            json!({"type": "rate_limit", "patterns": null, "max": 5, "window_secs": 60, "per": ["user"]}),
        ),
        check(json!({"type": "moderation", "patterns": null, "threshold": 101})),
        check(json!({"type": "moderation", "patterns": null, "categories": ["spam"]})),
        check(
            json!({"type": "path", "patterns": null, "stage": "tool_use", "paths": ["x"], "operations": ["move"]}),
        ),
        check(json!({"type": "mcp", "patterns": null, "server": "s"})),
        check(json!({"type": "llm_judge", "patterns": null, "prompt": ""})),
        check(json!({"type": "schema", "patterns": null, "stage": "tool_use", "tools": ["x"]})),
    ];
    for m in &mistakes {
        assert!(!loads(m), "the loader accepts {m}");
        assert!(!schema_errors(&v, m).is_empty(), "the schema accepts {m}");
    }
}
