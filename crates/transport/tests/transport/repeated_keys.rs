//! A repeated JSON key anywhere in a request makes it invalid on every
//! transport (PROTOCOL §2.5): the guardrail and the tool may read different
//! values. Each transport gets the same bytes — the key repeated as written,
//! repeated through a JSON escape, repeated deep inside, and repeated in the
//! envelope itself — and must refuse them in its own error shape, never
//! decide on one of the values.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests")]

use crate::util;

use std::sync::Arc;
use std::time::Duration;

use crate::util::start;
use palisade_checks::{Guard, GuardConfig};
use palisade_transport::Service;
use palisade_transport::ServiceConfig;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

const TIMEOUT: Duration = Duration::from_secs(10);

/// Tool arguments whose two readings differ: the last value is harmless,
/// the first is what a first-value parser would run.
const ARGUMENTS: [&str; 4] = [
    r#"{"command": "rm -rf /", "command": "ls"}"#,
    r#"{"command": "rm -rf /", "comm\u0061nd": "ls"}"#,
    r#"{"options": {"steps": [{"run": "ls"}, {"run": "rm -rf /", "run": "ls"}]}}"#,
    r#"{"a": {"b": {"c": {"d": {"e": 1, "\u0065": 2}}}}}"#,
];

fn with_tool(arguments: &str) -> String {
    format!(r#"{{"stage": "tool_use", "tool": {{"name": "bash", "arguments": {arguments}}}}}"#)
}

async fn post(server: &util::Server, path: &str, body: String) -> (u16, String) {
    let response = server
        .client
        .post(format!("{}{path}", server.url))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

fn says_repeated(text: &str) {
    assert!(
        text.contains("appears more than once"),
        "the refusal names the repeated key: {text}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_http_transport_refuses_a_repeated_key() {
    let server = start("", None).await;
    for arguments in ARGUMENTS {
        // /v1/check and the stream's first line: the v1 request itself.
        let (status, body) = post(&server, "/v1/check", with_tool(arguments)).await;
        assert_eq!(status, 400, "{body}");
        says_repeated(&body);
        let (status, body) = post(&server, "/v1/check/stream", with_tool(arguments)).await;
        assert_eq!(status, 400, "{body}");
        says_repeated(&body);

        // The hosted dialect, inside `context`.
        let hosted = format!(
            r#"{{"agent_id": "a", "context": {{"tool_name": "bash", "tool_input": {arguments}}}}}"#
        );
        let (status, body) = post(&server, "/v1/guardrails/check", hosted).await;
        assert_eq!(status, 400, "{body}");
        says_repeated(&body);

        // AutoGen's `args`.
        let autogen = format!(r#"{{"tool_name": "bash", "args": {arguments}}}"#);
        let (status, body) = post(&server, "/v1/autogen/evaluate", autogen).await;
        assert_eq!(status, 400, "{body}");
        says_repeated(&body);

        // JSON-RPC: both methods, errors with HTTP 200.
        let rpc = format!(
            r#"{{"jsonrpc": "2.0", "id": 7, "method": "guardrails.check", "params": {}}}"#,
            with_tool(arguments)
        );
        let (status, body) = post(&server, "/rpc", rpc).await;
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert!(v["error"]["code"].as_i64().is_some(), "{v}");
        says_repeated(&body);
        let cstp = format!(
            r#"{{"jsonrpc": "2.0", "id": 8, "method": "cstp.checkGuardrails", "params": {{"action": {{"description": "x", "context": {arguments}}}}}}}"#
        );
        let (status, body) = post(&server, "/cstp", cstp).await;
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert!(v["error"]["code"].as_i64().is_some(), "{v}");
        says_repeated(&body);

        // MCP over HTTP: the tool's arguments.
        let mcp = format!(
            r#"{{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {{"name": "check", "arguments": {}}}}}"#,
            with_tool(arguments)
        );
        let (status, body) = post(&server, "/mcp", mcp).await;
        assert_eq!(status, 200, "{body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["id"], 9, "{v}");
        assert_eq!(v["error"]["code"], -32600, "{v}");
        says_repeated(&body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_members_of_the_envelopes_are_refused() {
    let server = start("", None).await;
    // Top-level members of the hosted dialect.
    let (status, body) = post(
        &server,
        "/v1/guardrails/check",
        r#"{"agent_id": "a", "content": "DROP TABLE users", "content": "hello"}"#.to_owned(),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    says_repeated(&body);
    // AutoGen's tool name.
    let (status, body) = post(
        &server,
        "/v1/autogen/evaluate",
        r#"{"tool_name": "bash", "tool_name": "read_file", "args": {}}"#.to_owned(),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    says_repeated(&body);
    // A streamed delta (a line of its own shape, refused by its reader).
    let stream = format!(
        "{}\n{}\n",
        r#"{"stage": "output"}"#, r#"{"delta": "DROP TABLE users", "delta": "hello"}"#
    );
    let (status, body) = post(&server, "/v1/check/stream", stream).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("duplicate field `delta`"), "{body}");
    assert!(!body.contains("\"decision\":\"block\""), "{body}");
    // An MCP notification with a repeated key gets no answer and does nothing.
    let (status, body) = post(
        &server,
        "/mcp",
        r#"{"jsonrpc": "2.0", "method": "notifications/initialized", "method": "x"}"#.to_owned(),
    )
    .await;
    assert_eq!(status, 202, "{body}");
}

/// The event stream (`palisade events`) on the default policy.
async fn events(input: String) -> Vec<Value> {
    let engine = palisade_engine::Engine::from_yaml_str(palisade_engine::DEFAULT_POLICY).unwrap();
    let guard = Guard::new(engine, &GuardConfig::default()).unwrap();
    util::event_stream(guard, input).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_lines_with_a_repeated_key_are_refused() {
    let mut input = String::new();
    for arguments in ARGUMENTS {
        // Inside `data`, in the envelope, and as a plain v1 line.
        input.push_str(&format!(
            r#"{{"event": "guardrails.check", "data": {}}}"#,
            with_tool(arguments)
        ));
        input.push('\n');
        input.push_str(&with_tool(arguments));
        input.push('\n');
    }
    input.push_str(&format!(
        r#"{{"event": "guardrails.check", "data": {}, "data": {{"content": "hello"}}}}"#,
        with_tool(r#"{"command": "rm -rf /"}"#)
    ));
    input.push('\n');
    let answers = events(input).await;
    assert_eq!(answers.len(), 2 * ARGUMENTS.len() + 1, "{answers:?}");
    for a in &answers {
        let d = a.get("data").unwrap_or(a);
        assert_eq!(d["decision"], "error", "{a}");
        assert_eq!(d["reasonCode"], "request.malformed", "{a}");
        says_repeated(&d["message"].to_string());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_stdio_refuses_a_repeated_key() {
    let config = ServiceConfig::from_yaml_str("").unwrap();
    let service = Arc::new(Service::start(config, None).await.unwrap());
    let (client_side, server_side) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_side);
    let server = tokio::spawn(palisade_transport::mcp::serve_io(
        service,
        server_read,
        server_write,
    ));
    let (client_read, mut client_write) = tokio::io::split(client_side);
    let mut lines = BufReader::new(client_read).lines();
    let initialize = r#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}"#;
    client_write
        .write_all(format!("{initialize}\n").as_bytes())
        .await
        .unwrap();
    let hello = tokio::time::timeout(TIMEOUT, lines.next_line())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(hello.contains("\"id\":1"), "{hello}");
    client_write
        .write_all(b"{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n")
        .await
        .unwrap();
    // One `tools/call` of `check` over the pipe, and its answer.
    let mut call = async |id: usize, arguments: &str| -> (String, Value) {
        let message = format!(
            r#"{{"jsonrpc": "2.0", "id": {id}, "method": "tools/call", "params": {{"name": "check", "arguments": {}}}}}"#,
            with_tool(arguments)
        );
        client_write
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        let line = tokio::time::timeout(TIMEOUT, lines.next_line())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["id"], id, "{v}");
        (line, v)
    };
    for (n, arguments) in ARGUMENTS.iter().enumerate() {
        let (line, v) = call(10 + n, arguments).await;
        assert_eq!(v["error"]["code"], -32600, "{v}");
        says_repeated(&line);
    }
    // The same call without the repeated key is decided.
    let (_, v) = call(99, r#"{"command": "ls"}"#).await;
    assert!(v["result"].is_object(), "{v}");
    drop(client_write);
    drop(lines);
    let served = tokio::time::timeout(TIMEOUT, server)
        .await
        .unwrap()
        .unwrap();
    assert!(served.is_ok(), "{served:?}");
}
