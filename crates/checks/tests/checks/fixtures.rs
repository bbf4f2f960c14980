//! Smoke tests of the test fixtures themselves: the mock OpenAI-compatible
//! service answers in OpenAI's exact wire shapes, and the `mcp_guard` example
//! is a real MCP server over stdio and streamable HTTP.
//!
//! The MCP tests double as the reference for connecting an rmcp 3.11 client:
//! `TokioChildProcess` (stdio) or `StreamableHttpClientTransport` (HTTP, with
//! `NeverRetry` so a dead server fails calls instead of stalling them), then
//! `ClientConfig::serve(transport)` for a `RunningService` whose `call_tool`
//! returns a `CallToolResult` with `structured_content` and `content`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use crate::util;

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::util::llm::{
    GARBAGE, JUDGE_ALLOW, JUDGE_BLOCK, MODERATION_CLEAN, MODERATION_HATEFUL, STATUS_500_BODY,
};
use crate::util::{Behavior, LlmServer, count_lines, http_client, refused_addr};
use rmcp::RoleClient;
use rmcp::ServiceExt;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation,
    JsonObject,
};
use rmcp::service::RunningService;
use rmcp::transport::common::client_side_sse::NeverRetry;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Value, json};

/// A bound for every MCP call: a fixture that hangs must fail the test.
const CALL_TIMEOUT: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------------
// Mock OpenAI-compatible service
// ---------------------------------------------------------------------------

/// A chat request as an LLM-judge check sends it.
fn chat_request(user: &str) -> Value {
    json!({
        "model": "gpt-4o-mini",
        "temperature": 0,
        "messages": [
            {"role": "system", "content": "Answer with one JSON line."},
            {"role": "user", "content": user}
        ]
    })
}

async fn post_chat(base_url: &str, key: Option<&str>, body: &Value) -> reqwest::Response {
    let mut request = http_client()
        .post(format!("{base_url}/chat/completions"))
        .json(body);
    if let Some(key) = key {
        request = request.bearer_auth(key);
    }
    request.send().await.expect("send chat request")
}

/// Asserts OpenAI's chat completion shape and returns the assistant content.
fn assert_completion(body: &Value, model: &str) -> String {
    let object = body.as_object().expect("completion is an object");
    let mut keys: Vec<&str> = object.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["choices", "created", "id", "model", "object", "usage"],
        "{body}"
    );
    assert!(body["id"].as_str().unwrap().starts_with("chatcmpl-"));
    assert_eq!(body["object"], "chat.completion");
    assert!(body["created"].as_u64().unwrap() > 1_600_000_000);
    assert_eq!(body["model"], model);
    let choices = body["choices"].as_array().unwrap();
    assert_eq!(choices.len(), 1);
    let content = choices[0]["message"]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        choices[0],
        json!({
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": null},
            "logprobs": null,
            "finish_reason": "stop"
        })
    );
    let usage = &body["usage"];
    let prompt = usage["prompt_tokens"].as_u64().unwrap();
    let completion = usage["completion_tokens"].as_u64().unwrap();
    assert!(prompt > 0 && completion > 0);
    assert_eq!(usage["total_tokens"].as_u64().unwrap(), prompt + completion);
    content
}

async fn chat_content(server: &LlmServer, user: &str) -> String {
    let response = post_chat(&server.url(), None, &chat_request(user)).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["content-type"],
        "application/json",
        "content type"
    );
    assert_completion(&response.json().await.unwrap(), "gpt-4o-mini")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_judge_allows_and_blocks_with_chatter_around_the_verdict() {
    let server = LlmServer::start(Behavior::Judge);
    assert!(server.url().ends_with("/v1"), "{}", server.url());

    let allow = chat_content(&server, "hello there").await;
    assert_eq!(allow, JUDGE_ALLOW);
    assert_eq!(allow, r#"Sure. {"verdict":"allow"}"#);

    let block = chat_content(&server, "please BLOCKME now").await;
    assert_eq!(block, JUDGE_BLOCK);
    let start = block.find('{').unwrap();
    let end = block.find('}').unwrap();
    assert!(start > 0 && end + 1 < block.len(), "chatter on both sides");
    let verdict: Value = serde_json::from_str(&block[start..=end]).unwrap();
    assert_eq!(
        verdict,
        json!({"verdict": "block", "reason": "matched BLOCKME"})
    );

    assert_eq!(server.requests(), 2);
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 2);
    assert_eq!(bodies[1], chat_request("please BLOCKME now"));
    assert_eq!(
        server.user_messages(),
        ["hello there", "please BLOCKME now"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_echoes_the_requested_model() {
    let server = LlmServer::start(Behavior::Judge);
    let mut body = chat_request("hi");
    body["model"] = json!("judge-large");
    let response = post_chat(&server.url(), None, &body).await;
    assert_eq!(response.status(), 200);
    assert_completion(&response.json().await.unwrap(), "judge-large");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_moderation_scores() {
    let server = LlmServer::start(Behavior::Moderation);
    let hateful = chat_content(&server, "some HATEFUL words").await;
    assert_eq!(hateful, MODERATION_HATEFUL);
    let scores: Value = serde_json::from_str(&hateful).unwrap();
    assert_eq!(scores["scores"]["hate"], 90);
    assert_eq!(scores["scores"]["violence"], 10);

    let clean = chat_content(&server, "a kind sentence").await;
    assert_eq!(clean, MODERATION_CLEAN);
    let scores: Value = serde_json::from_str(&clean).unwrap();
    for (category, score) in scores["scores"].as_object().unwrap() {
        assert!(score.as_u64().unwrap() < 10, "{category} is low");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_garbage_holds_no_json_object() {
    let server = LlmServer::start(Behavior::Garbage);
    let content = chat_content(&server, "BLOCKME").await;
    assert_eq!(content, GARBAGE);
    assert!(!content.contains('{'));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_status_500_has_openai_error_body() {
    let server = LlmServer::start(Behavior::Status500);
    let response = post_chat(&server.url(), None, &chat_request("hi")).await;
    assert_eq!(response.status(), 500);
    let body: Value = response.json().await.unwrap();
    assert_eq!(
        body,
        serde_json::from_str::<Value>(STATUS_500_BODY).unwrap()
    );
    assert_eq!(body["error"]["type"], "server_error");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_status_429_has_retry_after() {
    let server = LlmServer::start(Behavior::Status429);
    let response = post_chat(&server.url(), None, &chat_request("hi")).await;
    assert_eq!(response.status(), 429);
    assert_eq!(response.headers()["retry-after"], "1");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "rate_limit_exceeded");
    assert_eq!(body["error"]["type"], "requests");
    assert_eq!(body["error"]["param"], Value::Null);
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Rate limit reached for gpt-4o-mini")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_behavior_can_change_between_requests() {
    let server = LlmServer::start(Behavior::Status500);
    let response = post_chat(&server.url(), None, &chat_request("hi")).await;
    assert_eq!(response.status(), 500);
    server.set_behavior(Behavior::Judge);
    assert_eq!(chat_content(&server, "hi").await, JUDGE_ALLOW);
    assert_eq!(server.requests(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_requires_the_bearer_key_when_started_with_one() {
    let server = LlmServer::start_with_key(Behavior::Judge, "sk-test");
    let body = chat_request("hi");

    for key in [None, Some("sk-wrong-key-123456")] {
        let response = post_chat(&server.url(), key, &body).await;
        assert_eq!(response.status(), 401, "key {key:?}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["error"]["code"], "invalid_api_key");
        assert_eq!(error["error"]["type"], "invalid_request_error");
        assert_eq!(error["error"]["param"], Value::Null);
        let message = error["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with("Incorrect API key provided"),
            "{message}"
        );
        assert!(!message.contains("sk-wrong-key-123456"), "key is masked");
    }

    let response = post_chat(&server.url(), Some("sk-test"), &body).await;
    assert_eq!(response.status(), 200);
    assert_completion(&response.json().await.unwrap(), "gpt-4o-mini");
    assert_eq!(server.requests(), 3);
    assert_eq!(server.bodies().len(), 1, "rejected bodies are not recorded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_slow_answers_late_and_tracks_concurrency() {
    let delay = Duration::from_millis(300);
    let server = LlmServer::start(Behavior::Slow(delay));
    let url = server.url();
    let started = Instant::now();
    let calls = (0..3).map(|i| {
        let url = url.clone();
        async move {
            let user = if i == 0 { "BLOCKME" } else { "fine" };
            let response = post_chat(&url, None, &chat_request(user)).await;
            assert_eq!(response.status(), 200);
            assert_completion(&response.json().await.unwrap(), "gpt-4o-mini")
        }
    });
    let contents = futures::future::join_all(calls).await;
    assert!(started.elapsed() >= delay);
    assert_eq!(contents, [JUDGE_BLOCK, JUDGE_ALLOW, JUDGE_ALLOW]);
    // All three were in the handler at once: the requests overlapped.
    assert_eq!(server.max_in_flight(), 3);
    assert_eq!(server.requests(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llm_client_timeout_is_seen_as_an_error() {
    let server = LlmServer::start(Behavior::Slow(Duration::from_secs(5)));
    let client = http_client();
    let result = client
        .post(format!("{}/chat/completions", server.url()))
        .json(&chat_request("hi"))
        .timeout(Duration::from_millis(100))
        .send()
        .await;
    assert!(result.unwrap_err().is_timeout());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refused_addr_refuses_connections() {
    let url = refused_addr();
    assert!(url.starts_with("http://127.0.0.1:") && url.ends_with("/v1"));
    let result = http_client()
        .post(format!("{url}/chat/completions"))
        .json(&chat_request("hi"))
        .send()
        .await;
    assert!(result.unwrap_err().is_connect());
}

// ---------------------------------------------------------------------------
// mcp_guard over MCP (rmcp 3.11 client)
// ---------------------------------------------------------------------------

type McpClient = RunningService<RoleClient, ClientConfig>;

/// What the client announces in `initialize`. `ClientConfig` (an alias of
/// `InitializeRequestParams`) is itself a `ClientHandler`, so it can `serve`.
fn client_config() -> ClientConfig {
    ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("palisade-tests", env!("CARGO_PKG_VERSION")),
    )
}

/// Spawns `mcp_guard --stdio` and runs the MCP handshake over its pipes.
async fn connect_stdio(mode: &str, count_file: Option<&Path>) -> McpClient {
    let transport =
        TokioChildProcess::new(util::mcp_guard_stdio(mode, count_file)).expect("spawn mcp_guard");
    tokio::time::timeout(CALL_TIMEOUT, client_config().serve(transport))
        .await
        .expect("initialize in time")
        .expect("initialize over stdio")
}

/// Connects to a streamable-HTTP MCP endpoint (`http://…/mcp`).
///
/// `NeverRetry` matters: with the default `ExponentialBackoff` (unbounded
/// retries) a call whose server dies mid-answer keeps reconnecting and never
/// fails (see `mcp_http_default_retry_leaves_a_call_to_a_dead_server_pending`);
/// with `NeverRetry` it fails at once with `ServiceError::TransportClosed`.
async fn connect_http(url: &str) -> McpClient {
    // rmcp's transport builds a reqwest client, which needs a crypto provider.
    util::install_crypto_provider();
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    // The struct is non-exhaustive, but its fields are public and assignable.
    config.retry_config = Arc::new(NeverRetry::default());
    let transport = StreamableHttpClientTransport::from_config(config);
    tokio::time::timeout(CALL_TIMEOUT, client_config().serve(transport))
        .await
        .expect("initialize in time")
        .expect("initialize over HTTP")
}

/// `{"stage", "tool", "content"}` as SPEC §5 sends them to an MCP check.
fn screen_args(stage: &str, tool: Option<&str>, content: &str) -> JsonObject {
    let mut args = JsonObject::new();
    args.insert("stage".into(), json!(stage));
    if let Some(tool) = tool {
        args.insert("tool".into(), json!(tool));
    }
    args.insert("content".into(), json!(content));
    args
}

async fn call(
    client: &McpClient,
    tool: &'static str,
    args: JsonObject,
) -> Result<CallToolResult, rmcp::ServiceError> {
    let params = CallToolRequestParams::new(tool).with_arguments(args);
    tokio::time::timeout(CALL_TIMEOUT, client.call_tool(params))
        .await
        .expect("MCP call answered or failed in time, not hung")
}

/// The text of the first content item.
fn first_text(result: &CallToolResult) -> &str {
    let item = result.content.first().expect("one content item");
    &item.as_text().expect("a text content item").text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_stdio_lists_tools_and_screens_with_structured_content() {
    let client = connect_stdio("structured", None).await;
    let info = client.peer_info().expect("server info after initialize");
    let server = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(server.name, "mcp_guard");

    let tools = client.list_all_tools().await.unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    names.sort_unstable();
    assert_eq!(names, ["echo_args", "screen"]);
    let screen = tools.iter().find(|t| t.name == "screen").unwrap();
    let required = &screen.input_schema["required"];
    assert_eq!(*required, json!(["stage", "content"]));

    let block = call(&client, "screen", screen_args("input", None, "a BLOCKME b"))
        .await
        .unwrap();
    assert_eq!(block.is_error, Some(false));
    assert_eq!(
        block.structured_content,
        Some(json!({"verdict": "block", "reason": "found BLOCKME"}))
    );
    // A text copy of the verdict comes along for clients without structured content.
    let copy: Value = serde_json::from_str(first_text(&block)).unwrap();
    assert_eq!(Some(copy), block.structured_content);

    let allow = call(
        &client,
        "screen",
        screen_args("tool_use", Some("shell"), "ls"),
    )
    .await
    .unwrap();
    assert_eq!(allow.structured_content, Some(json!({"verdict": "allow"})));

    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_echo_args_returns_the_exact_arguments() {
    let client = connect_stdio("structured", None).await;
    let args = screen_args("tool_use", Some("fs.write"), "line one\n\"quoted\" é");
    let result = call(&client, "echo_args", args.clone()).await.unwrap();
    assert_eq!(result.structured_content, Some(Value::Object(args)));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_text_mode_puts_the_verdict_in_text() {
    let client = connect_stdio("text", None).await;
    let result = call(&client, "screen", screen_args("output", None, "BLOCKME"))
        .await
        .unwrap();
    assert_eq!(result.structured_content, None);
    assert_eq!(result.content.len(), 1);
    let verdict: Value = serde_json::from_str(first_text(&result)).unwrap();
    assert_eq!(
        verdict,
        json!({"verdict": "block", "reason": "found BLOCKME"})
    );
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_error_mode_is_a_tool_error() {
    let client = connect_stdio("error", None).await;
    let result = call(&client, "screen", screen_args("input", None, "x"))
        .await
        .unwrap();
    assert_eq!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None);
    assert!(!first_text(&result).is_empty());
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_garbage_mode_is_text_that_is_not_json() {
    let client = connect_stdio("garbage", None).await;
    let result = call(&client, "screen", screen_args("input", None, "BLOCKME"))
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true));
    assert_eq!(result.structured_content, None);
    assert!(serde_json::from_str::<Value>(first_text(&result)).is_err());
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_exit_mode_fails_the_call_instead_of_hanging() {
    let client = connect_stdio("exit", None).await;
    let result = call(&client, "screen", screen_args("input", None, "x")).await;
    let error = result.expect_err("the server died mid-call");
    assert!(
        matches!(
            error,
            rmcp::ServiceError::TransportClosed | rmcp::ServiceError::TransportSend(_)
        ),
        "{error:?}"
    );
    // Later calls on the dead connection fail at once too.
    let again = call(&client, "screen", screen_args("input", None, "x")).await;
    assert!(again.is_err());
    assert!(client.is_transport_closed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_slow_mode_answers_after_the_delay() {
    let client = connect_stdio("slow:300", None).await;
    let started = Instant::now();
    let result = call(&client, "screen", screen_args("input", None, "ok"))
        .await
        .unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_eq!(result.structured_content, Some(json!({"verdict": "allow"})));

    // A caller's deadline: dropping the call future cancels the request.
    let deadline = tokio::time::timeout(
        Duration::from_millis(50),
        client.call_tool(
            CallToolRequestParams::new("screen").with_arguments(screen_args("input", None, "late")),
        ),
    )
    .await;
    assert!(deadline.is_err(), "timed out");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_count_file_counts_screen_calls_over_stdio() {
    let dir = tempfile::tempdir().unwrap();
    let count = dir.path().join("calls.txt");
    let client = connect_stdio("structured", Some(&count)).await;
    assert!(count_lines(&count).is_empty());
    for content in ["one", "two\nlines", "BLOCKME"] {
        call(&client, "screen", screen_args("input", None, content))
            .await
            .unwrap();
    }
    // echo_args is not counted.
    call(&client, "echo_args", screen_args("input", None, "x"))
        .await
        .unwrap();
    assert_eq!(count_lines(&count), ["one", "two\\nlines", "BLOCKME"]);
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_http_screens_and_counts_calls() {
    let dir = tempfile::tempdir().unwrap();
    let count = dir.path().join("calls.txt");
    let (_server, url) = util::start_mcp_http("structured", Some(&count)).await;
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );

    let client = connect_http(&url).await;
    let tools = client.list_all_tools().await.unwrap();
    assert!(tools.iter().any(|t| t.name == "screen"));

    let block = call(
        &client,
        "screen",
        screen_args("input", None, "BLOCKME please"),
    )
    .await
    .unwrap();
    assert_eq!(
        block.structured_content,
        Some(json!({"verdict": "block", "reason": "found BLOCKME"}))
    );
    let allow = call(&client, "screen", screen_args("output", None, "fine"))
        .await
        .unwrap();
    assert_eq!(allow.structured_content, Some(json!({"verdict": "allow"})));
    assert_eq!(count_lines(&count), ["BLOCKME please", "fine"]);

    // A second client shares the same process (and count file).
    let second = connect_http(&url).await;
    call(&second, "screen", screen_args("input", None, "third"))
        .await
        .unwrap();
    assert_eq!(count_lines(&count).len(), 3);

    second.cancel().await.unwrap();
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_http_text_mode() {
    let (_server, url) = util::start_mcp_http("text", None).await;
    let client = connect_http(&url).await;
    let result = call(&client, "screen", screen_args("input", None, "hi"))
        .await
        .unwrap();
    assert_eq!(result.structured_content, None);
    let verdict: Value = serde_json::from_str(first_text(&result)).unwrap();
    assert_eq!(verdict, json!({"verdict": "allow"}));
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_http_exit_mode_fails_the_call_instead_of_hanging() {
    let (mut server, url) = util::start_mcp_http("exit", None).await;
    let client = connect_http(&url).await;
    let result = call(&client, "screen", screen_args("input", None, "x")).await;
    let error = result.expect_err("the server died mid-call");
    assert!(
        matches!(error, rmcp::ServiceError::TransportClosed),
        "{error:?}"
    );
    let status = tokio::time::timeout(CALL_TIMEOUT, server.wait())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(status.code(), Some(3));
}

/// Pins a pitfall of rmcp 3.11's defaults: `from_uri` retries the response
/// stream forever, so only the caller's own timeout ends the call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_http_default_retry_leaves_a_call_to_a_dead_server_pending() {
    util::install_crypto_provider();
    let (mut server, url) = util::start_mcp_http("exit", None).await;
    let transport = StreamableHttpClientTransport::from_uri(url);
    let client = client_config().serve(transport).await.unwrap();
    let params =
        CallToolRequestParams::new("screen").with_arguments(screen_args("input", None, "x"));
    let pending = tokio::time::timeout(Duration::from_millis(1500), client.call_tool(params)).await;
    assert!(pending.is_err(), "still pending: {pending:?}");
    let status = server.wait().await.unwrap();
    assert_eq!(status.code(), Some(3));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_http_connection_refused_fails_to_connect() {
    util::install_crypto_provider();
    let url = refused_addr().replace("/v1", "/mcp");
    let transport = StreamableHttpClientTransport::from_uri(url);
    let result = tokio::time::timeout(CALL_TIMEOUT, client_config().serve(transport))
        .await
        .expect("fails in time");
    assert!(result.is_err());
}
