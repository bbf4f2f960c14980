//! The hosted REST dialect, `POST /v1/guardrails/check`, over a real socket:
//! a server started in the test on an ephemeral port, a real HTTP client.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use crate::util;

use crate::util::Server;

use std::path::Path;

use serde_json::{Value, json};

/// The policy the tests run against: one check per mapping branch, and the
/// two rules of the hosted API's example plus one the example leaves out.
const POLICY: &str = r#"
checks:
  - id: no-wildcard-queries
    name: No wildcard queries
    stage: tool_use
    type: regex
    patterns: ['(?i)select\s+\*']
    on_fail: warn
    severity: low
    message: Wildcard query
    suggestion: Select only the columns you need
  - id: pii-access-control
    name: PII access control
    stage: tool_use
    type: blocklist
    words: [ssn, credit_card]
    severity: high
  - id: no-users-table
    stage: tool_use
    type: blocklist
    words: [users]
    severity: critical
    message: The users table is off limits
  - id: no-shell
    stage: tool_use
    type: tool_pattern
    tools: ['shell*']
  - id: no-secrets-talk
    stage: input
    type: blocklist
    words: [password]
    severity: info
    on_fail: log
  - id: no-jailbreak
    stage: input
    type: blocklist
    words: [jailbreak]
  - id: no-money
    stage: action
    type: blocklist
    words: [financial_transaction]
    severity: critical
    message: Financial transactions need a human
"#;

fn sha(k: &str) -> String {
    use sha2::Digest;
    hex::encode(sha2::Sha256::digest(k.as_bytes()))
}

/// A service with [`POLICY`] for tenant `acme`, its key `key-acme`, an
/// admin-only key, an audit log in `dir`, and `extra` config.
async fn start(dir: &Path, extra: &str) -> Server {
    let _ = rustls::crypto::ring::default_provider().install_default();
    std::fs::write(dir.join("acme.yaml"), POLICY).unwrap();
    let config = format!(
        "tenants:\n  acme: {{ policy: '{d}/acme.yaml' }}\n\
         keys:\n\
         \x20 - {{ id: acme-ci, sha256: {a}, tenant: acme, scopes: [guardrails:check] }}\n\
         \x20 - {{ id: acme-ops, sha256: {o}, tenant: acme, scopes: [guardrails:admin] }}\n\
         audit: {{ path: '{d}/audit.jsonl' }}\n{extra}",
        d = dir.display(),
        a = sha("key-acme"),
        o = sha("key-acme-ops"),
    );
    util::start(&config, None).await
}

const ACME: &[(&str, &str)] = &[("x-api-key", "key-acme"), ("x-tenant-id", "acme")];

impl Server {
    async fn hosted_send(
        &self,
        body: impl Into<reqwest::Body>,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut r = self
            .client
            .post(format!("{}/v1/guardrails/check", self.url))
            .header("content-type", "application/json")
            .body(body);
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        r.send().await.unwrap()
    }

    async fn hosted_check_with(&self, body: &Value, headers: &[(&str, &str)]) -> (u16, Value) {
        let response = self.hosted_send(body.to_string(), headers).await;
        let status = response.status().as_u16();
        let text = response.text().await.unwrap();
        let value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
        (status, value)
    }

    async fn hosted_check(&self, body: &Value) -> (u16, Value) {
        self.hosted_check_with(body, ACME).await
    }
}

/// `{"error": {"code", "message"}}` with this code; the message.
fn assert_error(body: &Value, code: &str) -> String {
    assert_eq!(body["error"]["code"], code, "{body}");
    body["error"]["message"].as_str().unwrap().to_owned()
}

/// The audit log's records.
fn audit(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("audit.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The hosted API's example request.
fn example() -> Value {
    json!({
        "agent_id": "550e8400-e29b-41d4-a716-446655440000",
        "action": "invoke_tool",
        "context": {
            "tool_name": "database-query",
            "query": "SELECT * FROM users"
        },
        "rules": [
            "no-wildcard-queries",
            "pii-access-control"
        ]
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_example_request_gets_the_example_answer() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), "").await;
    let (status, a) = server.hosted_check(&example()).await;
    assert_eq!(status, 200, "{a}");
    // Allowed, with one low-severity violation, as in the example answer.
    assert_eq!(a["allowed"], true, "{a}");
    assert_eq!(
        a["violations"],
        json!([{
            "rule_id": "no-wildcard-queries",
            "rule": "No wildcard queries",
            "severity": "warning",
            "message": "Wildcard query",
            "description": "Wildcard query — Select only the columns you need"
        }])
    );
    assert_eq!(a["circuit_breaker_status"], "closed");
    assert_eq!(a["evaluated_rules"], 2, "only the two rules asked for");
    assert!(a["evaluation_ms"].as_f64().unwrap() >= 0.0, "{a}");
    let receipt = a["receipt_id"].as_str().unwrap();
    let keys: Vec<&str> = a.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "allowed",
            "circuit_breaker_status",
            "evaluated_rules",
            "evaluation_ms",
            "receipt_id",
            "violations"
        ]
    );

    // The decision is audited under that receipt, as a tool call of the
    // agent.
    let records = audit(dir.path());
    assert_eq!(records.len(), 1);
    let r = &records[0];
    assert_eq!(r["receiptId"], receipt, "{r}");
    assert_eq!(r["tenant"], "acme");
    assert_eq!(r["stage"], "tool_use");
    assert!(
        r.to_string()
            .contains("550e8400-e29b-41d4-a716-446655440000"),
        "{r}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rules_restrict_the_evaluation() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), "").await;

    // Without `rules` every check of the stage runs: the users table blocks.
    let mut all = example();
    all.as_object_mut().unwrap().remove("rules");
    let (status, a) = server.hosted_check(&all).await;
    assert_eq!(status, 200, "{a}");
    assert_eq!(a["allowed"], false, "{a}");
    assert_eq!(a["evaluated_rules"], 4, "{a}");
    let ids: Vec<&str> = a["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["rule_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        ["no-users-table", "no-wildcard-queries"],
        "blocking first"
    );
    assert_eq!(a["violations"][0]["severity"], "critical");
    assert_eq!(
        a["violations"][0]["rule"], "no-users-table",
        "no name: the id"
    );

    // An empty list is every rule too.
    all["rules"] = json!([]);
    let (_, a) = server.hosted_check(&all).await;
    assert_eq!(a["evaluated_rules"], 4, "{a}");

    // Only the users rule.
    all["rules"] = json!(["no-users-table"]);
    let (_, a) = server.hosted_check(&all).await;
    assert_eq!(a["allowed"], false);
    assert_eq!(a["evaluated_rules"], 1);
    assert_eq!(a["violations"].as_array().unwrap().len(), 1);

    // Unknown rule ids are a 400 that names them; nothing is decided.
    all["rules"] = json!(["no-users-table", "nope", "nada"]);
    let (status, body) = server.hosted_check(&all).await;
    assert_eq!(status, 400);
    let m = assert_error(&body, "invalid_request");
    assert!(
        m.contains("`rules`") && m.contains("`nope`") && m.contains("`nada`"),
        "{m}"
    );
    assert!(!m.contains("`no-users-table`"), "{m}");
    assert_eq!(audit(dir.path()).len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_kind_of_request_reaches_its_stage() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), "").await;

    // `context.tool_name` → a tool call of that tool.
    let (_, a) = server
        .hosted_check(&json!({"agent_id": "a1", "action": "invoke_tool", "context": {"tool_name": "shell_exec", "cmd": "ls"}}))
        .await;
    assert_eq!(a["allowed"], false, "{a}");
    assert_eq!(a["violations"][0]["rule_id"], "no-shell");
    assert_eq!(a["violations"][0]["severity"], "error", "medium → error");

    // `content` alone → input.
    let (_, a) = server
        .hosted_check(&json!({"agent_id": "a1", "content": "how do I jailbreak this?"}))
        .await;
    assert_eq!(a["allowed"], false, "{a}");
    assert_eq!(a["violations"][0]["rule_id"], "no-jailbreak");
    assert_eq!(a["evaluated_rules"], 2, "the input checks");
    // A log-only hit is reported, and does not block.
    let (_, a) = server
        .hosted_check(&json!({"agent_id": "a1", "content": "I forgot my password", "context": {"user_id": "u1"}}))
        .await;
    assert_eq!(a["allowed"], true, "{a}");
    assert_eq!(a["violations"][0]["rule_id"], "no-secrets-talk");
    assert_eq!(a["violations"][0]["severity"], "info");

    // `action_type` (or `action`) → an action with that operation.
    let (_, a) = server
        .hosted_check(&json!({"agent_id": "a1", "action_type": "financial_transaction", "context": {"amount": 10}}))
        .await;
    assert_eq!(a["allowed"], false, "{a}");
    assert_eq!(
        a["violations"][0],
        json!({"rule_id": "no-money", "rule": "no-money", "severity": "critical",
               "message": "Financial transactions need a human",
               "description": "Financial transactions need a human"})
    );
    let (_, a) = server
        .hosted_check(&json!({"agent_id": "a1", "action": "financial_transaction"}))
        .await;
    assert_eq!(a["violations"][0]["rule_id"], "no-money", "{a}");
    let (_, a) = server
        .hosted_check(&json!({"agent_id": "a1", "action_type": "send_email", "content": "hello"}))
        .await;
    assert_eq!(a["allowed"], true, "{a}");
    assert_eq!(a["violations"], json!([]));

    let stages: Vec<String> = audit(dir.path())
        .iter()
        .map(|r| r["stage"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        stages,
        ["tool_use", "input", "input", "action", "action", "action"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_and_credentials_get_json_errors() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path(), "limits: { max_body_bytes: 4096 }\n").await;

    let cases = [
        (json!({"content": "hi"}), "`agent_id` is required"),
        (json!({"agent_id": "", "content": "hi"}), "`agent_id`"),
        (json!({"agent_id": 7, "content": "hi"}), "`agent_id`"),
        (json!({"agent_id": "a", "content": ["hi"]}), "`content`"),
        (json!({"agent_id": "a", "action_type": 1}), "`action_type`"),
        (
            json!({"agent_id": "a", "content": "x", "context": []}),
            "`context`",
        ),
        (
            json!({"agent_id": "a", "content": "x", "rules": [1]}),
            "`rules[0]`",
        ),
        (json!({"agent_id": "a"}), "nothing to evaluate"),
    ];
    for (body, want) in cases {
        let (status, e) = server.hosted_check(&body).await;
        assert_eq!(status, 400, "{body}: {e}");
        let m = assert_error(&e, "invalid_request");
        assert!(m.contains(want), "{body}: {m}");
    }
    let response = server.hosted_send("{not json", ACME).await;
    assert_eq!(response.status().as_u16(), 400);
    let big = json!({"agent_id": "a", "content": "x".repeat(8192)});
    let (status, e) = server.hosted_check(&big).await;
    assert_eq!(status, 413);
    assert_error(&e, "payload_too_large");

    let ok = json!({"agent_id": "a", "content": "hi"});
    type Case<'a> = (&'a [(&'a str, &'a str)], u16, &'a str);
    let cases: &[Case<'_>] = &[
        (&[], 401, "unauthorized"),
        (&[("x-api-key", "wrong")], 401, "unauthorized"),
        (&[("x-api-key", "key-acme-ops")], 403, "forbidden"),
        (
            &[("x-api-key", "key-acme"), ("x-tenant-id", "globex")],
            403,
            "forbidden",
        ),
    ];
    for (headers, status, code) in cases {
        let (s, body) = server.hosted_check_with(&ok, headers).await;
        assert_eq!(s, *status, "{headers:?}: {body}");
        assert_error(&body, code);
    }
    let (s, _) = server
        .hosted_check_with(&ok, &[("authorization", "Bearer key-acme")])
        .await;
    assert_eq!(s, 200, "a bearer token works too");

    let response = server
        .client
        .get(format!("{}/v1/guardrails/check", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 405);
    assert_eq!(audit(dir.path()).len(), 1, "only the answered request");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_circuit_breaker_status_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(
        dir.path(),
        "circuit_breaker: { window_secs: 60, min_requests: 3, threshold: 0.5, cooldown_secs: 600 }\n",
    )
    .await;
    let blocked = json!({"agent_id": "a1", "content": "jailbreak"});
    for _ in 0..2 {
        let (_, a) = server.hosted_check(&blocked).await;
        assert_eq!(a["allowed"], false);
        assert_eq!(a["circuit_breaker_status"], "closed", "{a}");
    }
    // The third block reaches the minimum count: the breaker opens.
    let (_, a) = server.hosted_check(&blocked).await;
    assert_eq!(a["circuit_breaker_status"], "open", "{a}");
    assert_eq!(a["violations"][0]["rule_id"], "no-jailbreak");

    // Now even a clean request is denied, by the breaker.
    let (status, a) = server
        .hosted_check(&json!({"agent_id": "a2", "content": "hello"}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(a["allowed"], false, "{a}");
    assert_eq!(a["circuit_breaker_status"], "open");
    assert_eq!(a["evaluated_rules"], 0);
    let v = &a["violations"][0];
    assert_eq!(v["rule_id"], "circuit_breaker", "{a}");
    assert_eq!(v["severity"], "critical");
    assert!(
        v["message"].as_str().unwrap().contains("circuit breaker"),
        "{v}"
    );
    assert!(a["receipt_id"].is_string());
    assert_eq!(
        audit(dir.path()).len(),
        4,
        "the breaker's decision is audited"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_agent_has_its_own_rate_limit() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(
        dir.path(),
        "rate_limits: { per_agent: { requests: 2, per_secs: 3600 } }\n",
    )
    .await;
    let from = |agent: &str| json!({"agent_id": agent, "content": "hello"});
    for _ in 0..2 {
        let (s, _) = server.hosted_check(&from("a")).await;
        assert_eq!(s, 200);
    }
    let response = server.hosted_send(from("a").to_string(), ACME).await;
    assert_eq!(response.status().as_u16(), 429);
    let retry: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=1800).contains(&retry), "{retry}");
    let body: Value = response.json().await.unwrap();
    assert_error(&body, "rate_limited");
    let (s, _) = server.hosted_check(&from("b")).await;
    assert_eq!(s, 200, "another agent has its own bucket");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_without_its_audit_record() {
    let server = util::start("audit: { path: /dev/full }\n", None).await;
    let (status, body) = server
        .hosted_check_with(&json!({"agent_id": "a", "content": "hello"}), &[])
        .await;
    assert_eq!(status, 503, "{body}");
    assert_error(&body, "audit_unavailable");
}
