//! The JSON-lines event stream: envelopes and bare requests, answers by
//! `requestId` in the order they are decided, malformed lines.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use crate::util;

use std::time::Duration;

use palisade_checks::{Guard, GuardConfig};
use palisade_engine::Engine;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A chat-completions endpoint that answers `{"verdict":"allow"}` after
/// `delay`, speaking OpenAI's response shape over plain HTTP/1.1.
async fn slow_llm(delay: Duration) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                // Read the head and the body (Content-Length) of the request.
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                loop {
                    let n = socket.read(&mut chunk).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    let text = String::from_utf8_lossy(&buf).to_string();
                    if let Some(head_end) = text.find("\r\n\r\n") {
                        let len = text[..head_end]
                            .lines()
                            .find_map(|l| {
                                let (k, v) = l.split_once(':')?;
                                k.eq_ignore_ascii_case("content-length")
                                    .then(|| v.trim().parse::<usize>().ok())?
                            })
                            .unwrap_or(0);
                        if buf.len() >= head_end + 4 + len {
                            break;
                        }
                    }
                }
                tokio::time::sleep(delay).await;
                let body = json!({
                    "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\"verdict\":\"allow\"}"}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
                })
                .to_string();
                let response = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(response.as_bytes()).await;
            });
        }
    });
    format!("http://{addr}/v1")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overlapping_requests_are_answered_by_request_id() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let url = slow_llm(Duration::from_millis(400)).await;
    let engine = Engine::from_yaml_str(
        "checks:\n  - { id: judge, stage: input, type: llm_judge, prompt: p }\n  - { id: secret, stage: output, type: secrets, on_fail: redact }\n  - { id: rm, stage: tool_use, type: command }\n",
    )
    .unwrap();
    let config =
        GuardConfig::from_yaml_str(&format!("llm: {{ base_url: '{url}', model: m }}\n")).unwrap();
    let guard = Guard::new(engine, &config).unwrap();
    let input = [
        // Slow: its judge takes 400 ms.
        json!({"event": "guardrails:check", "data": {"requestId": "slow", "stage": "input", "content": "hello"}}).to_string(),
        // Fast, bare request.
        json!({"requestId": "fast", "tool": {"name": "bash", "arguments": {"command": "rm -rf /"}}}).to_string(),
        // Not JSON: an error decision, and the stream goes on.
        "{oops".to_owned(),
        // Valid JSON, invalid request: its requestId is kept.
        json!({"event": "guardrails:check", "data": {"requestId": "bad", "stage": "sideways"}}).to_string(),
        // A redaction: a pi caller (envelope) is told to block.
        json!({"event": "guardrails:check", "data": {"requestId": "redact-pi", "stage": "output", "content": "key AKIAZ7QK4LMNP2RTX9WB"}}).to_string(),
        json!({"requestId": "redact-bare", "stage": "output", "content": "key AKIAZ7QK4LMNP2RTX9WB"}).to_string(),
    ]
    .join("\n")
        + "\n";
    let answers = util::event_stream(guard, input).await;
    assert_eq!(answers.len(), 6, "{answers:#?}");
    for a in &answers {
        assert_eq!(a["event"], "guardrails:decision");
    }
    let by_id = |id: &str| {
        answers
            .iter()
            .find(|a| a["data"]["requestId"] == id)
            .unwrap_or_else(|| panic!("an answer for {id}: {answers:#?}"))
    };
    assert_eq!(
        answers.last().unwrap()["data"]["requestId"],
        "slow",
        "the slow request is answered last, after those sent after it"
    );
    assert_eq!(by_id("slow")["data"]["decision"], "allow");
    assert_eq!(by_id("fast")["data"]["decision"], "block");
    assert_eq!(by_id("bad")["data"]["decision"], "error");
    assert_eq!(by_id("redact-pi")["data"]["decision"], "block");
    assert!(by_id("redact-pi")["data"].get("modified").is_none());
    assert_eq!(by_id("redact-bare")["data"]["decision"], "modify");
    let errors: Vec<&Value> = answers
        .iter()
        .filter(|a| a["data"]["decision"] == "error")
        .collect();
    assert_eq!(
        errors.len(),
        2,
        "the malformed line and the invalid request"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_or_non_utf8_line_gets_an_error_and_the_stream_goes_on() {
    let engine =
        Engine::from_yaml_str("checks:\n  - { id: rm, stage: tool_use, type: command }\n").unwrap();
    let guard = Guard::new(engine, &GuardConfig::default()).unwrap();
    let mut input = Vec::new();
    // One byte over the limit, in a line that would otherwise be a request.
    let filler = "x".repeat(palisade_transport::events::MAX_LINE_BYTES);
    input.extend_from_slice(
        json!({"requestId": "huge", "stage": "input", "content": filler})
            .to_string()
            .as_bytes(),
    );
    input.extend_from_slice(b"\n\xff\xfe not text\n");
    input.extend_from_slice(
        json!({"requestId": "after", "tool": {"name": "bash", "arguments": {"command": "rm -rf /"}}})
            .to_string()
            .as_bytes(),
    );
    input.push(b'\n');
    let answers = util::event_stream(guard, input).await;
    assert_eq!(answers.len(), 3, "{answers:#?}");
    let codes: Vec<&Value> = answers.iter().map(|a| &a["data"]["reasonCode"]).collect();
    assert!(codes.contains(&&json!("request.too_large")), "{answers:#?}");
    assert!(codes.contains(&&json!("request.malformed")), "{answers:#?}");
    let after = answers
        .iter()
        .find(|a| a["data"]["requestId"] == "after")
        .unwrap();
    assert_eq!(after["data"]["decision"], "block");
}
