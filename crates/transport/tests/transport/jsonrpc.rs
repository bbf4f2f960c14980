//! JSON-RPC 2.0 at `/rpc` and `/cstp` over a real socket: a server started in
//! the test on an ephemeral port, a real HTTP client.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use crate::util::{Server, cstp_policy, start};

use serde_json::{Value, json};

/// An HTTP answer: status, headers and body text.
struct Answer {
    status: u16,
    headers: reqwest::header::HeaderMap,
    text: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
}

impl Server {
    async fn post_raw(
        &self,
        path: &str,
        body: impl Into<reqwest::Body>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut r = self
            .client
            .post(format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .body(body);
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        let response = r.send().await.unwrap();
        Answer {
            status: response.status().as_u16(),
            headers: response.headers().clone(),
            text: response.text().await.unwrap(),
        }
    }

    /// Posts a body to `/rpc`; asserts HTTP 200 and returns the JSON.
    async fn rpc(&self, body: &Value) -> Value {
        self.rpc_at("/rpc", body, &[]).await
    }

    async fn rpc_at(&self, path: &str, body: &Value, headers: &[(&str, &str)]) -> Value {
        let a = self.post_raw(path, body.to_string(), headers).await;
        assert_eq!(a.status, 200, "{body}: {}", a.text);
        a.json()
    }
}

/// The seed's `cstp.checkGuardrails` request (CSTP F003).
fn seed_request() -> Value {
    json!({
        "jsonrpc": "2.0",
        "method": "cstp.checkGuardrails",
        "id": "req-001",
        "params": {
            "action": {
                "description": "Deploy authentication service to production",
                "category": "architecture",
                "stakes": "high",
                "confidence": 0.85,
                "context": {
                    "affectsProduction": true,
                    "codeReviewCompleted": true,
                    "hasTests": true,
                    "ciPassing": true
                }
            },
            "agent": {
                "id": "emerson",
                "url": "https://emerson.example.com"
            }
        }
    })
}

fn call(id: Value, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

/// The error object of a response with this id and code; its message.
fn assert_error(reply: &Value, id: &Value, code: i64) -> String {
    assert_eq!(reply["jsonrpc"], "2.0", "{reply}");
    assert_eq!(&reply["id"], id, "{reply}");
    assert_eq!(reply["error"]["code"], code, "{reply}");
    assert!(reply.get("result").is_none(), "{reply}");
    reply["error"]["message"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cstp_seed_is_blocked_with_its_violation_and_warning() {
    let server = start("", Some(&cstp_policy())).await;
    for path in ["/cstp", "/rpc"] {
        let reply = server.rpc_at(path, &seed_request(), &[]).await;
        assert_eq!(reply["jsonrpc"], "2.0");
        assert_eq!(reply["id"], "req-001");
        assert!(reply.get("error").is_none(), "{reply}");
        let result = &reply["result"];
        assert_eq!(result["allowed"], false, "{result}");
        assert_eq!(
            result["violations"],
            json!([{
                "guardrailId": "no-production-without-review",
                "name": "Production Requires Review",
                "message": "Production changes require completed code review",
                "severity": "block",
                "suggestion": "Complete code review before deploying"
            }])
        );
        assert_eq!(
            result["warnings"],
            json!([{
                "guardrailId": "prefer-staged-rollout",
                "name": "Staged Rollout Preferred",
                "message": "Consider staged rollout for production changes",
                "severity": "warn",
                "suggestion": "Deploy to 10% of traffic first"
            }])
        );
        assert_eq!(result["evaluated"], 4, "every check of the policy");
        assert!(result["evaluatedAt"].as_str().unwrap().ends_with('Z'));
        assert_eq!(result["agent"], "palisade");
        let mut keys: Vec<&str> = result
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            [
                "agent",
                "allowed",
                "evaluated",
                "evaluatedAt",
                "violations",
                "warnings"
            ],
            "exactly the seed's fields"
        );
    }

    // With an approver recorded the review rule is met: allowed, one warning.
    let mut approved = seed_request();
    approved["params"]["action"]["context"]["approvedBy"] = json!("lead");
    let reply = server.rpc_at("/cstp", &approved, &[]).await;
    assert_eq!(reply["result"]["allowed"], true, "{reply}");
    assert_eq!(reply["result"]["violations"], json!([]));
    assert_eq!(
        reply["result"]["warnings"][0]["guardrailId"],
        "prefer-staged-rollout"
    );

    // Only the description is required.
    let reply = server
        .rpc(&call(
            json!(2),
            "cstp.checkGuardrails",
            json!({"action": {"description": "Rename a variable"}}),
        ))
        .await;
    assert_eq!(reply["id"], 2);
    assert_eq!(reply["result"]["allowed"], true, "{reply}");
    assert_eq!(reply["result"]["warnings"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guardrails_check_answers_a_v1_request_with_the_decision() {
    let server = start("", None).await;
    let reply = server
        .rpc(&call(
            json!(7),
            "guardrails.check",
            json!({"requestId": "a1", "tool": {"name": "bash", "arguments": {"command": "echo ok && sudo rm -rf /"}}}),
        ))
        .await;
    assert_eq!(reply["id"], 7);
    let d = &reply["result"];
    assert_eq!(d["protocolVersion"], "1");
    assert_eq!(d["requestId"], "a1");
    assert_eq!(d["decision"], "block", "{d}");
    assert_eq!(d["violations"][0]["checkId"], "dangerous-commands");
    assert!(d["receiptId"].is_string());

    let reply = server
        .rpc(&call(
            Value::Null,
            "guardrails.check",
            json!({"content": "hello"}),
        ))
        .await;
    assert_eq!(reply["id"], Value::Null, "a null id is echoed");
    assert_eq!(reply["result"]["decision"], "allow");

    // The CSTP action as a v1 request gives the same findings.
    let server = start("", Some(&cstp_policy())).await;
    let reply = server
        .rpc_at(
            "/cstp",
            &call(
                json!("v1"),
                "guardrails.check",
                json!({
                    "stage": "action",
                    "action": {"description": "Deploy", "stakes": "high"},
                    "context": {"affectsProduction": true}
                }),
            ),
            &[],
        )
        .await;
    assert_eq!(reply["result"]["decision"], "block", "{reply}");
    assert_eq!(
        reply["result"]["violations"][0]["checkId"],
        "no-production-without-review"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_answers_each_call_but_not_the_notifications() {
    let server = start("", Some(&cstp_policy())).await;
    let batch = json!([
        seed_request(),
        call(json!(2), "guardrails.nope", json!({})),
        {"jsonrpc": "2.0", "method": "guardrails.check", "params": {"content": "hi"}},
        call(json!(3), "guardrails.check", json!({"content": "hi"})),
        5
    ]);
    let replies = server.rpc(&batch).await;
    let replies = replies.as_array().unwrap();
    assert_eq!(
        replies.len(),
        4,
        "no entry for the notification: {replies:?}"
    );
    let by_id = |id: Value| {
        replies
            .iter()
            .find(|r| r["id"] == id && (id != Value::Null || r.get("error").is_some()))
            .unwrap_or_else(|| panic!("no reply for {id}"))
    };
    assert_eq!(by_id(json!("req-001"))["result"]["allowed"], false);
    let m = assert_error(by_id(json!(2)), &json!(2), -32601);
    assert!(m.contains("`guardrails.nope`"), "{m}");
    assert_eq!(by_id(json!(3))["result"]["decision"], "allow");
    assert_error(by_id(Value::Null), &Value::Null, -32600);

    // Notifications only: nothing to answer.
    let notes = json!([
        {"jsonrpc": "2.0", "method": "guardrails.check", "params": {"content": "hi"}},
        {"jsonrpc": "2.0", "method": "guardrails.nope"}
    ]);
    let a = server.post_raw("/rpc", notes.to_string(), &[]).await;
    assert_eq!(a.status, 204);
    assert_eq!(a.text, "");
    let note = json!({"jsonrpc": "2.0", "method": "cstp.checkGuardrails", "params": {}});
    let a = server.post_raw("/cstp", note.to_string(), &[]).await;
    assert_eq!(a.status, 204, "even a failing notification gets no answer");
    assert_eq!(a.text, "");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_protocol_error_comes_with_http_200() {
    let server = start("", Some(&cstp_policy())).await;

    // -32700: not JSON.
    for body in ["{not json", "", "[1, 2"] {
        let a = server.post_raw("/rpc", body, &[]).await;
        assert_eq!(a.status, 200, "{body:?}");
        assert_error(&a.json(), &Value::Null, -32700);
    }

    // -32600: not a request.
    let invalid = [
        (json!([]), Value::Null),
        (json!(1), Value::Null),
        (json!("call"), Value::Null),
        (
            json!({"jsonrpc": "1.0", "id": 1, "method": "guardrails.check"}),
            json!(1),
        ),
        (json!({"id": 1, "method": "guardrails.check"}), json!(1)),
        (
            json!({"jsonrpc": "2.0", "id": {"a": 1}, "method": "guardrails.check"}),
            Value::Null,
        ),
        (
            json!({"jsonrpc": "2.0", "id": true, "method": "guardrails.check"}),
            Value::Null,
        ),
        (json!({"jsonrpc": "2.0", "id": 1}), json!(1)),
        (json!({"jsonrpc": "2.0", "id": 1, "method": 4}), json!(1)),
        (
            json!({"jsonrpc": "2.0", "id": 1, "method": "guardrails.check", "params": 3}),
            json!(1),
        ),
    ];
    for (body, id) in invalid {
        let reply = server.rpc(&body).await;
        assert_error(&reply, &id, -32600);
    }

    // -32601: unknown method.
    let m = assert_error(
        &server
            .rpc(&call(json!("u"), "cstp.getDecision", json!({})))
            .await,
        &json!("u"),
        -32601,
    );
    assert!(m.contains("`cstp.getDecision`"), "{m}");

    // -32602: params naming the field.
    let cases = [
        (
            json!({"action": {"category": "architecture"}}),
            "action.description",
        ),
        (json!({"action": {"description": ""}}), "action.description"),
        (
            json!({"action": {"description": "x", "stakes": "huge"}}),
            "action.stakes",
        ),
        (
            json!({"action": {"description": "x", "confidence": 2}}),
            "action.confidence",
        ),
        (json!({}), "action"),
    ];
    for (params, field) in cases {
        let reply = server
            .rpc_at(
                "/cstp",
                &call(json!(9), "cstp.checkGuardrails", params.clone()),
                &[],
            )
            .await;
        let m = assert_error(&reply, &json!(9), -32602);
        assert_eq!(reply["error"]["data"]["field"], field, "{params}");
        assert!(m.contains(field), "{m}");
    }
    let reply = server
        .rpc(&call(
            json!(10),
            "guardrails.check",
            json!({"tool": {"name": 5}}),
        ))
        .await;
    let m = assert_error(&reply, &json!(10), -32602);
    assert_eq!(reply["error"]["data"]["field"], "/tool/name");
    assert!(m.contains("/tool/name"), "{m}");
    let reply = server
        .rpc(&call(
            json!(11),
            "guardrails.check",
            json!({"content": "x", "checks": ["nope"]}),
        ))
        .await;
    assert!(assert_error(&reply, &json!(11), -32602).contains("unknown check id `nope`"));
    let reply = server
        .rpc(&call(json!(12), "guardrails.check", json!(["positional"])))
        .await;
    assert_error(&reply, &json!(12), -32602);

    // A key repeated in the params is refused, not resolved one way or the other.
    let text = r#"{"jsonrpc":"2.0","id":13,"method":"guardrails.check","params":{"tool":{"name":"sql","arguments":{"query":"DROP TABLE users","query":"select 1"}}}}"#;
    let a = server.post_raw("/rpc", text, &[]).await;
    assert_eq!(a.status, 200);
    let reply = a.json();
    assert!(assert_error(&reply, &json!(13), -32602).contains("`query` appears more than once"));
    assert_eq!(reply["error"]["data"]["field"], "/tool/arguments");
    let a = server.post_raw("/rpc", format!("[{text}]"), &[]).await;
    assert_eq!(a.status, 200);
    assert_error(&a.json(), &Value::Null, -32600);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limited_calls_get_32002_with_the_retry_delay() {
    let server = start(
        "rate_limits: { per_agent: { requests: 2, per_secs: 3600 } }\n",
        Some(&cstp_policy()),
    )
    .await;
    for _ in 0..2 {
        let reply = server.rpc_at("/cstp", &seed_request(), &[]).await;
        assert!(reply.get("result").is_some(), "{reply}");
    }
    let a = server
        .post_raw("/cstp", seed_request().to_string(), &[])
        .await;
    assert_eq!(a.status, 200);
    let reply = a.json();
    assert_error(&reply, &json!("req-001"), -32002);
    let retry = reply["error"]["data"]["retryAfterSecs"].as_u64().unwrap();
    assert!(
        (1..=1800).contains(&retry),
        "one token every 1800 s: {retry}"
    );
    let header: u64 = a.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert_eq!(header, retry);

    // The bucket is per (tenant, agent): another agent, and a v1 call from it.
    let mut other = seed_request();
    other["params"]["agent"]["id"] = json!("other");
    let reply = server.rpc_at("/cstp", &other, &[]).await;
    assert_eq!(reply["result"]["allowed"], false, "{reply}");
    let reply = server
        .rpc(&call(
            json!(1),
            "guardrails.check",
            json!({"agent": {"id": "emerson"}, "content": "hi"}),
        ))
        .await;
    assert_error(&reply, &json!(1), -32002);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_decision_is_answered_without_its_audit_record() {
    // Writes to /dev/full fail: the call gets -32004, not the decision.
    let server = start("audit: { path: /dev/full }\n", Some(&cstp_policy())).await;
    let reply = server.rpc_at("/cstp", &seed_request(), &[]).await;
    let m = assert_error(&reply, &json!("req-001"), -32004);
    assert!(m.contains("audit record"), "{m}");
    let reply = server
        .rpc(&call(
            json!(2),
            "guardrails.check",
            json!({"content": "hi"}),
        ))
        .await;
    assert_error(&reply, &json!(2), -32004);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_are_required_when_configured() {
    let dir = tempfile::tempdir().unwrap();
    let sha = |k: &str| {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(k.as_bytes()))
    };
    std::fs::write(
        dir.path().join("acme.yaml"),
        "checks:\n  - { id: no-alpha, stage: input, type: blocklist, words: [alpha] }\n",
    )
    .unwrap();
    let config = format!(
        "tenants:\n  acme: {{ policy: '{d}/acme.yaml' }}\n\
         keys:\n\
         \x20 - {{ id: acme-ci, sha256: {a}, tenant: acme, scopes: [guardrails:check] }}\n\
         \x20 - {{ id: acme-ops, sha256: {o}, tenant: acme, scopes: [guardrails:admin] }}\n\
         audit: {{ path: '{d}/audit.jsonl' }}\n",
        d = dir.path().display(),
        a = sha("key-acme"),
        o = sha("key-acme-ops"),
    );
    let server = start(&config, None).await;
    let body = call(json!(1), "guardrails.check", json!({"content": "alpha"}));
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
    for path in ["/rpc", "/cstp"] {
        for (headers, status, code) in cases {
            let a = server.post_raw(path, body.to_string(), headers).await;
            assert_eq!(a.status, *status, "{path} {headers:?}: {}", a.text);
            assert_eq!(a.json()["error"]["code"], *code, "{}", a.text);
        }
        for headers in [
            &[("x-api-key", "key-acme")][..],
            &[("authorization", "Bearer key-acme")][..],
        ] {
            let reply = server.rpc_at(path, &body, headers).await;
            assert_eq!(reply["result"]["decision"], "block", "{reply}");
            assert_eq!(
                reply["result"]["violations"][0]["checkId"], "no-alpha",
                "the key's tenant's policy"
            );
        }
    }
    let log = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    assert_eq!(log.lines().count(), 4, "only answered calls are recorded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cstp_calls_are_audited_under_their_id() {
    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "audit: {{ path: '{}/audit.jsonl' }}\n",
        dir.path().display()
    );
    let server = start(&config, Some(&cstp_policy())).await;
    let reply = server.rpc_at("/cstp", &seed_request(), &[]).await;
    assert_eq!(reply["result"]["allowed"], false);
    let log = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    let record: Value = serde_json::from_str(log.lines().next().unwrap()).unwrap();
    assert_eq!(record["requestId"], "req-001", "{record}");
    assert_eq!(record["stage"], "action", "{record}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_post_is_served() {
    let server = start("", None).await;
    for path in ["/rpc", "/cstp"] {
        let r = server
            .client
            .get(format!("{}{path}", server.url))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 405, "{path}");
    }
}
