//! Requests that would silently do nothing, over the service: unknown
//! members are reported (or refused with `strict_requests: true`), a request
//! no check looked at says so, and an empty policy (`{}`) serves.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

use crate::util;

use crate::util::start;
use serde_json::{Value, json};

async fn post(server: &util::Server, path: &str, body: &Value) -> (u16, Value) {
    let response = server
        .client
        .post(format!("{}{path}", server.url))
        .json(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_members_are_reported_and_strict_services_refuse_them() {
    let typo = json!({"tool": {"name": "read_file", "argumens": {"path": "/etc/shadow"}}});
    let hook = json!({"tool_name": "Bash", "tool_input": {"command": "rm -rf /"}});

    let server = start("", None).await;
    let (status, d) = post(&server, "/v1/check", &typo).await;
    assert_eq!(status, 200, "{d}");
    assert_eq!(
        d["warnings"][0]["reasonCode"], "request.unknown_field",
        "{d}"
    );
    assert_eq!(d["warnings"][0]["location"]["field"], "/tool/argumens");
    let message = d["warnings"][0]["message"].as_str().unwrap();
    assert!(message.contains("did you mean `arguments`?"), "{message}");
    assert!(
        !d.to_string().contains("/etc/shadow"),
        "never the value: {d}"
    );
    let (status, d) = post(&server, "/v1/check", &hook).await;
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["reasonCode"], "request.unchecked", "{d}");
    let fields: Vec<&str> = d["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["location"]["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["/tool_input", "/tool_name"]);

    let strict = start("strict_requests: true\n", None).await;
    let (status, e) = post(&strict, "/v1/check", &typo).await;
    assert_eq!(status, 400, "{e}");
    let text = e.to_string();
    assert!(
        text.contains("/tool/argumens")
            && text.contains("strict_requests")
            && text.contains("did you mean `arguments`?"),
        "{e}"
    );
    let (status, e) = post(&strict, "/v1/check", &hook).await;
    assert_eq!(status, 400, "{e}");
    assert!(e.to_string().contains("/tool_input"), "{e}");
    let rpc = json!({"jsonrpc": "2.0", "id": 1, "method": "guardrails.check", "params": typo});
    let (status, e) = post(&strict, "/rpc", &rpc).await;
    assert_eq!(status, 200, "{e}");
    assert!(e["error"]["code"].as_i64().is_some(), "{e}");
    assert!(e.to_string().contains("/tool/argumens"), "{e}");
    // A request without unknown members is decided as usual.
    let (status, d) = post(&strict, "/v1/check", &json!({"content": "hello"})).await;
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["decision"], "allow");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_policy_serves_and_allows_everything() {
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("empty.json");
    std::fs::write(&policy, "{}").unwrap();
    let server = start("", Some(&policy)).await;
    let (status, d) = post(
        &server,
        "/v1/check",
        &json!({"tool": {"name": "bash", "arguments": {"command": "rm -rf /"}}}),
    )
    .await;
    assert_eq!(status, 200, "{d}");
    assert_eq!(d["decision"], "allow", "{d}");
    assert_eq!(d["evaluated"], 0, "{d}");
    assert_eq!(d["reasonCode"], "request.unchecked", "{d}");
}
