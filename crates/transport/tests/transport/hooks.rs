//! `POST /v1/hooks/{host}`: a coding agent's hook payload over HTTP (Claude
//! Code's HTTP hooks), answered in the host's format.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use serde_json::{Value, json};

use crate::util::start;

async fn post(
    server: &crate::util::Server,
    host: &str,
    body: impl Into<reqwest::Body>,
    key: Option<&str>,
) -> (u16, Value) {
    let mut r = server
        .client
        .post(format!("{}/v1/hooks/{host}", server.url))
        .header("content-type", "application/json")
        .body(body);
    if let Some(key) = key {
        r = r.bearer_auth(key);
    }
    let response = r.send().await.unwrap();
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}")),
    )
}

fn pre_tool(tool: &str, input: Value) -> String {
    json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": "/srv/app",
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input, "tool_use_id": "toolu_01"})
    .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_code_http_hooks_get_claude_code_answers() {
    let server = start("", None).await;
    let (s, r) = post(
        &server,
        "claude-code",
        pre_tool("Read", json!({"file_path": "/srv/app/.env"})),
        None,
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(r["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    assert_eq!(r["hookSpecificOutput"]["permissionDecision"], "deny");
    assert!(
        r["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap()
            .contains("secret-files")
    );

    // Allowed: an empty object, which the host reads as "no objection".
    let (s, r) = post(
        &server,
        "claude-code",
        pre_tool("Bash", json!({"command": "cargo build"})),
        None,
    )
    .await;
    assert_eq!((s, r), (200, json!({})));

    let (s, r) = post(
        &server,
        "claude-code",
        pre_tool("Bash", json!({"command": "rm -rf /srv/app"})),
        None,
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(r["hookSpecificOutput"]["permissionDecision"], "ask");

    let post_tool = json!({"session_id": "s1", "cwd": "/srv/app", "hook_event_name": "PostToolUse",
        "tool_name": "Bash", "tool_input": {"command": "cat creds"},
        "tool_response": {"stdout": "AKIAZ7QK3M9XWTR2PLNB", "stderr": ""}});
    let (_, r) = post(&server, "claude-code", post_tool.to_string(), None).await;
    assert_eq!(r["decision"], "block");
    // In the tool's own shape, which is the only one Claude Code reads.
    let updated = &r["hookSpecificOutput"]["updatedToolOutput"];
    assert!(
        updated["stdout"].as_str().unwrap().contains("withheld"),
        "{r}"
    );
    assert_eq!(updated["stderr"], "", "{r}");

    // Other hosts' formats over the same route.
    let gemini = json!({"session_id": "g", "cwd": "/srv/app", "hook_event_name": "BeforeTool",
        "tool_name": "run_shell_command", "tool_input": {"command": "cat ~/.ssh/id_rsa"}});
    let (_, r) = post(&server, "gemini-cli", gemini.to_string(), None).await;
    assert_eq!(r["decision"], "deny", "{r}");
}

/// A payload the service cannot read is still answered with a deny and
/// status 200: hosts let the call through on any other status.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_payloads_are_denied_not_failed() {
    let server = start("", None).await;
    for body in [
        "",
        "{",
        "[]",
        r#"{"hook_event_name": "PreToolUse"}"#,
        r#"{"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_name": "Bash"}"#,
    ] {
        let (s, r) = post(&server, "claude-code", body.to_owned(), None).await;
        assert_eq!(s, 200, "{body}");
        assert_eq!(r["decision"], "block", "{body}: {r}");
        assert!(r["reason"].as_str().unwrap().contains("refused"), "{r}");
    }
    let (s, r) = post(&server, "emacs", "{}", None).await;
    assert_eq!(s, 404);
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("claude-code, codex"),
        "{r}"
    );
}

/// The route takes the same keys as `/v1/check`, and its decisions are
/// audited like any other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hooks_need_a_key_when_the_service_has_keys_and_are_audited() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("audit.jsonl");
    let config = format!(
        "keys:\n  - id: k\n    sha256: {}\n    tenant: default\n    scopes: [guardrails:check]\naudit: {{ path: {} }}\n",
        hex::encode(<sha2::Sha256 as sha2::Digest>::digest(b"hook-key")),
        log.display()
    );
    let server = start(&config, None).await;
    let body = pre_tool("Read", json!({"file_path": "/srv/app/id_rsa"}));
    let (s, _) = post(&server, "claude-code", body.clone(), None).await;
    assert_eq!(s, 401);
    let (s, r) = post(&server, "claude-code", body, Some("hook-key")).await;
    assert_eq!(s, 200);
    assert_eq!(r["hookSpecificOutput"]["permissionDecision"], "deny");
    let audit = std::fs::read_to_string(&log).unwrap();
    let record: Value = serde_json::from_str(audit.lines().next().unwrap()).unwrap();
    assert_eq!(record["decision"], "block");
    assert_eq!(record["agent"], "claude-code");
    assert_eq!(record["requestId"], "toolu_01");
}

/// Over HTTP the service keeps the end of each streamed answer between its
/// chunks (Gemini CLI's `AfterModel`), as the command does in files.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streamed_answer_chunks_are_checked_with_what_came_before() {
    let server = start("", None).await;
    let chunk = |text: &str| {
        json!({"hook_event_name": "AfterModel", "session_id": "g-http", "cwd": "/srv/app",
            "llm_request": {"model": "gemini-2.5-pro", "messages": []},
            "llm_response": {"candidates": [{"content": {"role": "model", "parts": [text]}}]}})
        .to_string()
    };
    let (s, r) = post(&server, "gemini-cli", chunk("token: AKIAZ7QK"), None).await;
    assert_eq!((s, r), (200, json!({})));
    let (_, r) = post(&server, "gemini-cli", chunk("3M9XWTR2PLNB"), None).await;
    assert_eq!(r["decision"], "deny", "{r}");
}

/// A payload over the service's body limit is still judged (up to the
/// hook's own limit) and answered in the host's format with status 200: a
/// host lets the call through on any other status. Above the hook's limit
/// it is denied, saying why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payloads_over_the_body_limit_are_judged_not_failed() {
    let server = start("limits:\n  max_body_bytes: 65536\n", None).await;
    let filler = "x".repeat(1_100_000);
    // A large tool output holding a key never reaches the model.
    let post_tool = json!({"session_id": "big", "cwd": "/srv/app", "hook_event_name": "PostToolUse",
        "tool_name": "Bash", "tool_input": {"command": "cat dump.log"},
        "tool_response": {"stdout": format!("{filler}\nAKIAZ7QK3M9XWTR2PLNB\n"), "stderr": ""}});
    let (s, r) = post(&server, "claude-code", post_tool.to_string(), None).await;
    assert_eq!(s, 200);
    assert_eq!(r["decision"], "block", "{}", r["reason"]);
    // A large write to a secret file is denied.
    let (s, r) = post(
        &server,
        "claude-code",
        pre_tool(
            "Write",
            json!({"file_path": "/root/.ssh/authorized_keys", "content": filler}),
        ),
        None,
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(r["hookSpecificOutput"]["permissionDecision"], "deny");
    // A large harmless call is allowed.
    let (s, r) = post(
        &server,
        "claude-code",
        pre_tool(
            "Write",
            json!({"file_path": "/srv/app/big.txt", "content": filler}),
        ),
        None,
    )
    .await;
    assert_eq!((s, r), (200, json!({})));
    // Above the hook's own limit: each host's deny, with the reason.
    let huge = format!(
        "{{\"hook_event_name\": \"BeforeTool\", \"tool_name\": \"write_file\", \"tool_input\": {{\"content\": \"{}\"}}}}",
        "y".repeat(palisade_transport::hooks::MAX_PAYLOAD_BYTES + 10)
    );
    let (s, r) = post(&server, "gemini-cli", huge, None).await;
    assert_eq!(s, 200);
    assert_eq!(r["decision"], "block", "{r}");
    assert!(r["reason"].as_str().unwrap().contains("at most"), "{r}");
}

/// A tool about to run without its arguments cannot be judged: denied.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_call_without_its_arguments_is_denied() {
    let server = start("", None).await;
    let body = json!({"session_id": "s1", "cwd": "/srv/app", "hook_event_name": "PreToolUse",
        "tool_name": "Write"});
    for host in ["claude-code", "codex"] {
        let (s, r) = post(&server, host, body.to_string(), None).await;
        assert_eq!(s, 200);
        assert_eq!(r["decision"], "block", "{host}: {r}");
        assert!(
            r["reason"]
                .as_str()
                .unwrap()
                .contains("`tool_input` is missing"),
            "{r}"
        );
    }
}
