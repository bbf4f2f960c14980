//! The MCP tools `check` and `check_action` over real transports: the HTTP
//! service on an ephemeral port with an rmcp client over streamable HTTP,
//! and the stdio server over in-process pipes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use palisade_transport::Service;
use palisade_transport::ServiceConfig;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    JsonObject,
};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::common::client_side_sse::NeverRetry;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::util::{self, Server};

/// A bound for every MCP exchange: a hang must fail the test.
const TIMEOUT: Duration = Duration::from_secs(20);

type McpClient = RunningService<RoleClient, ClientConfig>;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cstp_policy() -> PathBuf {
    repo_root().join("examples/cstp-guardrails.yaml")
}

async fn service(config: &str, policy: Option<&Path>) -> Arc<Service> {
    let config = ServiceConfig::from_yaml_str(config).unwrap();
    Arc::new(
        Service::start(config, policy.map(Path::to_path_buf))
            .await
            .unwrap(),
    )
}

async fn start(config: &str, policy: Option<&Path>) -> Server {
    util::serve(service(config, policy).await).await
}

fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("palisade-tests", env!("CARGO_PKG_VERSION")),
    )
}

/// An rmcp client over streamable HTTP, sending `key` as a bearer token.
async fn connect(server: &Server, key: Option<&str>) -> Result<McpClient, String> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(format!("{}/mcp", server.url));
    config.retry_config = Arc::new(NeverRetry::default());
    config.auth_header = key.map(str::to_owned);
    let transport = StreamableHttpClientTransport::from_config(config);
    tokio::time::timeout(TIMEOUT, client_config().serve(transport))
        .await
        .expect("initialize in time")
        .map_err(|e| e.to_string())
}

async fn call(client: &McpClient, tool: &'static str, args: Value) -> CallToolResult {
    let Value::Object(args) = args else {
        panic!("arguments must be an object")
    };
    let params = CallToolRequestParams::new(tool).with_arguments(args);
    tokio::time::timeout(TIMEOUT, client.call_tool(params))
        .await
        .expect("answered in time")
        .expect("a tool result")
}

/// The structured content of a successful call, checked against its text copy.
fn structured(result: &CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let value = result
        .structured_content
        .clone()
        .expect("structured content");
    let text = &result.content[0].as_text().expect("a text copy").text;
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), value);
    value
}

/// The text of a tool error.
fn tool_error(result: &CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result.content[0].as_text().expect("text").text.clone()
}

/// The seed's CSTP action (`cstp.checkGuardrails` params, flattened).
fn seed_action() -> Value {
    json!({
        "description": "Deploy authentication service to production",
        "category": "architecture",
        "stakes": "high",
        "confidence": 0.85,
        "context": {
            "affectsProduction": true,
            "codeReviewCompleted": true,
            "hasTests": true,
            "ciPassing": true
        },
        "agent": {"id": "emerson", "url": "https://emerson.example.com"}
    })
}

/// The seed's blocked result, but for `evaluated`, `evaluatedAt` and `agent`.
fn assert_seed_blocked(result: &Value) {
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
    assert_eq!(result["evaluated"], 4, "{result}");
    assert!(
        result["evaluatedAt"].as_str().unwrap().ends_with('Z'),
        "{result}"
    );
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
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_shows_both_tools_with_their_schemas() {
    let server = start("", None).await;
    let client = connect(&server, None).await.unwrap();
    let info = client.peer_info().expect("server info");
    assert_eq!(info.server_info.as_ref().unwrap().name, "palisade");
    let tools = tokio::time::timeout(TIMEOUT, client.list_all_tools())
        .await
        .unwrap()
        .unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["check", "check_action"]);

    let check = &tools[0].input_schema;
    assert_eq!(check["type"], "object");
    for property in ["content", "tool", "action", "stage", "context", "agent"] {
        assert!(check["properties"].get(property).is_some(), "{property}");
    }
    assert_eq!(
        check["properties"]["stage"]["enum"],
        json!(["input", "output", "tool_use", "tool_output", "action"])
    );

    let action = &tools[1].input_schema;
    assert_eq!(action["type"], "object");
    assert_eq!(action["required"], json!(["description"]));
    assert_eq!(
        action["properties"]["stakes"]["enum"],
        json!(["low", "medium", "high", "critical"])
    );
    assert_eq!(action["properties"]["confidence"]["maximum"], 1);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_blocks_a_dangerous_tool_call_and_allows_a_harmless_one() {
    let server = start("", None).await;
    let client = connect(&server, None).await.unwrap();

    let blocked = structured(
        &call(
            &client,
            "check",
            json!({"requestId": "m1", "tool": {"name": "bash", "arguments": {"command": "rm -rf /"}}}),
        )
        .await,
    );
    assert_eq!(blocked["decision"], "block", "{blocked}");
    assert_eq!(blocked["allowed"], false);
    assert_eq!(blocked["requestId"], "m1");
    assert_eq!(blocked["violations"][0]["checkId"], "dangerous-commands");
    assert!(blocked["receiptId"].is_string(), "{blocked}");

    let allowed = structured(
        &call(
            &client,
            "check",
            json!({"tool": {"name": "bash", "arguments": {"command": "ls -la"}}}),
        )
        .await,
    );
    assert_eq!(allowed["decision"], "allow", "{allowed}");
    assert_eq!(allowed["allowed"], true);
    assert_eq!(allowed["violations"], json!([]));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_arguments_are_tool_errors_naming_the_field() {
    let server = start("", None).await;
    let client = connect(&server, None).await.unwrap();

    let text = tool_error(&call(&client, "check", json!({"tool": {"name": 5}})).await);
    assert!(text.contains("/tool/name"), "{text}");
    let text = tool_error(&call(&client, "check", json!({"stage": "sideways"})).await);
    assert!(text.contains("/stage"), "{text}");
    let text = tool_error(
        &call(
            &client,
            "check",
            json!({"content": "x", "checks": ["no-such-check"]}),
        )
        .await,
    );
    assert!(text.contains("no-such-check"), "{text}");

    let text = tool_error(&call(&client, "check_action", json!({"category": "ops"})).await);
    assert!(text.contains("`description`"), "{text}");
    let text = tool_error(
        &call(
            &client,
            "check_action",
            json!({"description": "deploy", "stakes": "enormous"}),
        )
        .await,
    );
    assert!(text.contains("`stakes`"), "{text}");
    let text = tool_error(
        &call(
            &client,
            "check_action",
            json!({"description": "deploy", "confidence": 2}),
        )
        .await,
    );
    assert!(text.contains("`confidence`"), "{text}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn check_action_answers_the_seed_cstp_result() {
    let policy = cstp_policy();
    let server = start("", Some(&policy)).await;
    let client = connect(&server, None).await.unwrap();

    let blocked = structured(&call(&client, "check_action", seed_action()).await);
    assert_seed_blocked(&blocked);

    // With an approver on record the review rule passes; the rollout advice stays.
    let mut approved = seed_action();
    approved["context"]["approvedBy"] = json!("lead");
    let allowed = structured(&call(&client, "check_action", approved).await);
    assert_eq!(allowed["allowed"], true, "{allowed}");
    assert_eq!(allowed["violations"], json!([]));
    assert_eq!(
        allowed["warnings"][0]["guardrailId"],
        "prefer-staged-rollout"
    );

    // The same action as a v1 request through `check`.
    let decision = structured(
        &call(
            &client,
            "check",
            json!({"action": {"description": "Deploy", "stakes": "high"}, "context": {"affectsProduction": true}}),
        )
        .await,
    );
    assert_eq!(decision["decision"], "block", "{decision}");
    assert_eq!(
        decision["violations"][0]["checkId"],
        "no-production-without-review"
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rate_limited_call_is_a_tool_error() {
    let server = start(
        "rate_limits: { per_agent: { requests: 1, per_secs: 3600 } }\n",
        None,
    )
    .await;
    let client = connect(&server, None).await.unwrap();
    let args = json!({"agent": {"id": "a1"}, "content": "hello"});
    structured(&call(&client, "check", args.clone()).await);
    let text = tool_error(&call(&client, "check", args).await);
    assert!(text.contains("rate limited"), "{text}");
    let text = tool_error(
        &call(
            &client,
            "check_action",
            json!({"description": "deploy", "agent": {"id": "a1"}}),
        )
        .await,
    );
    assert!(text.contains("rate limited"), "{text}");
    client.cancel().await.unwrap();
}

/// Tenant `acme` (the CSTP policy) with a check key; the default tenant
/// keeps the embedded default policy.
fn keyed_config(dir: &Path) -> String {
    let key_hex = hex::encode(Sha256::digest(b"acme-secret"));
    let other_hex = hex::encode(Sha256::digest(b"admin-secret"));
    format!(
        "tenants:\n  acme: {{ policy: \"{}\" }}\nkeys:\n  - {{ id: ci, sha256: \"{key_hex}\", tenant: acme, scopes: [\"guardrails:check\"] }}\n  - {{ id: ops, sha256: \"{other_hex}\", tenant: acme, scopes: [\"guardrails:admin\"] }}\naudit: {{ path: \"{}\" }}\n",
        cstp_policy().display(),
        dir.join("audit.jsonl").display(),
    )
}

fn initialize_body() -> String {
    json!({
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "curl", "version": "1"}
        }
    })
    .to_string()
}

async fn post_mcp(server: &Server, headers: &[(&str, &str)]) -> (u16, String) {
    let mut request = reqwest::Client::new()
        .post(format!("{}/mcp", server.url))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(initialize_body());
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_keys_the_endpoint_needs_one_and_serves_the_key_tenant() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(&keyed_config(dir.path()), None).await;

    for headers in [
        &[][..],
        &[("x-api-key", "wrong")][..],
        &[("authorization", "Bearer wrong")][..],
    ] {
        let (status, body) = post_mcp(&server, headers).await;
        assert_eq!(status, 401, "{headers:?}: {body}");
        let body: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(body["error"]["code"], "unauthorized", "{body}");
    }
    let (status, body) = post_mcp(&server, &[("x-api-key", "admin-secret")]).await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = post_mcp(
        &server,
        &[("x-api-key", "acme-secret"), ("x-tenant-id", "default")],
    )
    .await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = post_mcp(&server, &[("x-api-key", "acme-secret")]).await;
    assert_eq!(status, 200, "{body}");

    assert!(connect(&server, None).await.is_err());

    // The key's tenant decides: acme has the CSTP policy.
    let client = connect(&server, Some("acme-secret")).await.unwrap();
    let blocked = structured(&call(&client, "check_action", seed_action()).await);
    assert_seed_blocked(&blocked);
    // A request naming another tenant is refused.
    let text = tool_error(
        &call(
            &client,
            "check",
            json!({"tenant": "default", "content": "hi"}),
        )
        .await,
    );
    assert!(text.contains("tenant"), "{text}");
    client.cancel().await.unwrap();

    // Every decision was audited under the key's tenant.
    let audit = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    let records: Vec<Value> = audit
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 1, "{audit}");
    assert_eq!(records[0]["tenant"], "acme", "{audit}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_endpoint_takes_only_post() {
    let server = start("", None).await;
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        let response = reqwest::Client::new()
            .request(method.clone(), format!("{}/mcp", server.url))
            .header("accept", "text/event-stream")
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 405, "{method}");
        assert_eq!(response.headers()["allow"], "POST");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "method_not_allowed");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stdio_serves_both_tools_as_the_default_tenant() {
    let policy = cstp_policy();
    let service = service("", Some(&policy)).await;
    let (client_side, server_side) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_side);
    let server = tokio::spawn(palisade_transport::mcp::serve_io(
        service,
        server_read,
        server_write,
    ));
    let (client_read, client_write) = tokio::io::split(client_side);
    let client = tokio::time::timeout(TIMEOUT, client_config().serve((client_read, client_write)))
        .await
        .unwrap()
        .unwrap();

    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(names, ["check", "check_action"]);
    let blocked = structured(&call(&client, "check_action", seed_action()).await);
    assert_seed_blocked(&blocked);
    let decision = structured(&call(&client, "check", json!({"content": "hello"})).await);
    assert_eq!(decision["decision"], "allow", "{decision}");
    let text = tool_error(&call(&client, "check", json!({"tool": {}})).await);
    assert!(text.contains("/tool"), "{text}");

    client.cancel().await.unwrap();
    let served = tokio::time::timeout(TIMEOUT, server)
        .await
        .unwrap()
        .unwrap();
    assert!(served.is_ok(), "{served:?}");
}

/// A tool the server does not have is a protocol error, not a tool result.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_tool_is_an_error() {
    let server = start("", None).await;
    let client = connect(&server, None).await.unwrap();
    let params = CallToolRequestParams::new("nope").with_arguments(JsonObject::new());
    let error = tokio::time::timeout(TIMEOUT, client.call_tool(params))
        .await
        .unwrap()
        .unwrap_err();
    assert!(error.to_string().contains("nope"), "{error}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_over_the_limit_is_413() {
    let server = start("limits: { max_body_bytes: 2048 }\n", None).await;
    let body = json!({
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": "check", "arguments": {"content": "x".repeat(4096)}}
    });
    let response = reqwest::Client::new()
        .post(format!("{}/mcp", server.url))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 413);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "payload_too_large");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rejections_of_the_mcp_transport_have_the_json_error_shape() {
    let server = start("{}", None).await;
    let post = |content_type: &'static str, accept: &'static str, host: Option<&'static str>| {
        let mut request = reqwest::Client::new()
            .post(format!("{}/mcp", server.url))
            .header("content-type", content_type)
            .header("accept", accept)
            .body(initialize_body());
        if let Some(host) = host {
            request = request.header("host", host);
        }
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let body: Value =
                serde_json::from_str(&response.text().await.unwrap()).expect("a JSON error body");
            (status, body)
        }
    };
    let (status, body) = post("application/json", "text/plain", None).await;
    assert_eq!(status, 406, "{body}");
    assert_eq!(body["error"]["code"], "not_acceptable", "{body}");
    assert!(
        body["error"]["message"].as_str().unwrap().len() > 5,
        "{body}"
    );
    let (status, body) = post("text/plain", "application/json, text/event-stream", None).await;
    assert_eq!(status, 415, "{body}");
    assert_eq!(body["error"]["code"], "unsupported_media_type", "{body}");
    // Without keys, only local Host names are served (DNS rebinding).
    let (status, body) = post(
        "application/json",
        "application/json, text/event-stream",
        Some("attacker.example:8700"),
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["error"]["code"], "forbidden", "{body}");
    // A good request is still served.
    let (status, body) = post_mcp(&server, &[]).await;
    assert_eq!(status, 200, "{body}");
}
