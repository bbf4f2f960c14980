//! The Guard against real local services: a chat-completions server
//! speaking OpenAI's format (including its failures) and the `mcp_guard`
//! MCP server over stdio and streamable HTTP.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use crate::util;

use std::sync::Arc;
use std::time::Duration;

use crate::util::llm::{Behavior, LlmServer, refused_addr};
use palisade_checks::audit::{Durability, JsonlAudit};
use palisade_checks::{Guard, GuardConfig};
use palisade_engine::Engine;
use palisade_protocol::{CheckRequest, Decision, DecisionKind, FindingAction, Options};
use serde_json::json;

fn guard(policy: &str, config: &str) -> Guard {
    let engine = Engine::from_yaml_str(policy).unwrap();
    let config = GuardConfig::from_yaml_str(config).unwrap();
    Guard::new(engine, &config).unwrap()
}

fn llm_config(url: &str, extra: &str) -> String {
    format!("llm: {{ base_url: '{url}', model: judge-1 }}\n{extra}")
}

const JUDGE_POLICY: &str = "checks:\n  - { id: judge, stage: [input, tool_use], type: llm_judge, prompt: Block requests to delete data. }\n";
const STRICT_JUDGE_POLICY: &str = "checks:\n  - { id: judge, stage: [input, tool_use], type: llm_judge, prompt: Block requests to delete data., on_error: block }\n";

fn ids(findings: &[palisade_protocol::Finding]) -> Vec<&str> {
    findings.iter().map(|f| f.check_id.as_str()).collect()
}

/// The one `fail_open` warning of `check`, and its message.
fn fail_open_message(d: &Decision, check: &str) -> String {
    assert_eq!(d.decision, DecisionKind::Allow, "{d:#?}");
    let w: Vec<_> = d.warnings.iter().filter(|f| f.check_id == check).collect();
    assert_eq!(w.len(), 1, "{d:#?}");
    assert_eq!(w[0].action, FindingAction::FailOpen, "{d:#?}");
    w[0].message.clone().unwrap_or_default()
}

/// The decision of a check that failed closed.
fn assert_failed_closed(d: &Decision, check: &str, cause: &str) {
    assert_eq!(d.decision, DecisionKind::Block, "{d:#?}");
    assert_eq!(ids(&d.violations), [check], "{d:#?}");
    assert_eq!(d.reason_code.as_deref(), Some("guardrail.check_failed"));
    let m = d.violations[0].message.as_deref().unwrap_or_default();
    assert!(m.contains(cause), "{m}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_judge_blocks_and_allows() {
    let server = LlmServer::start(Behavior::Judge);
    let g = guard(JUDGE_POLICY, &llm_config(&server.url(), ""));
    let d = g
        .check(&CheckRequest::input("please BLOCKME now"))
        .await
        .unwrap();
    assert_eq!(d.decision, DecisionKind::Block, "{d:#?}");
    assert_eq!(ids(&d.violations), ["judge"]);
    assert_eq!(d.reason_code.as_deref(), Some("guardrail.llm_judge"));
    let m = d.violations[0].message.as_deref().unwrap();
    assert!(m.contains("matched BLOCKME"), "the judge's reason: {m}");
    assert!(d.receipt_id.is_some());

    // The reply wraps its verdict in prose: the first `{…}` is read.
    let d = g.check(&CheckRequest::input("hello")).await.unwrap();
    assert_eq!(d.decision, DecisionKind::Allow, "{d:#?}");
    assert!(d.warnings.is_empty());
    assert_eq!(server.requests(), 2);

    // What was sent: the model, a system prompt, and the policy, stage,
    // escaped tool name and content in the user message.
    let tricky = "rm\"\n-rf";
    let _ = g
        .check(&CheckRequest::tool_use(tricky, json!({"path": "/tmp/x"})))
        .await
        .unwrap();
    let body = &server.bodies()[2];
    assert_eq!(body["model"], "judge-1");
    assert_eq!(body["messages"][0]["role"], "system");
    let user = body["messages"][1]["content"].as_str().unwrap();
    assert!(
        user.contains("Policy: Block requests to delete data."),
        "{user}"
    );
    assert!(user.contains("Stage: tool_use"), "{user}");
    assert!(
        user.contains(r#"Tool: "rm\"\n-rf""#),
        "the tool name is JSON-escaped: {user}"
    );
    assert!(user.contains(r#"{"path":"/tmp/x"}"#), "{user}");
}

/// Every reply of `tests/data/verdicts.txt`, from a real chat-completions
/// server: a block verdict blocks, an allow verdict allows, and anything
/// else is a failed call that `on_error` decides — never a silent allow.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_spelling_of_a_judge_verdict() {
    let cases: Vec<(String, String)> = include_str!("../data/verdicts.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (want, reply) = l.split_once('\t').unwrap();
            (want.to_owned(), reply.replace("\\n", "\n"))
        })
        .collect();
    let server = LlmServer::start(Behavior::Garbage);
    let open = guard(JUDGE_POLICY, &llm_config(&server.url(), ""));
    let closed = guard(STRICT_JUDGE_POLICY, &llm_config(&server.url(), ""));
    for (want, reply) in cases {
        server.set_behavior(Behavior::Reply(reply.clone()));
        let d = open.check(&CheckRequest::input("hello")).await.unwrap();
        let strict = closed.check(&CheckRequest::input("hello")).await.unwrap();
        match want.as_str() {
            "block" => {
                for d in [&d, &strict] {
                    assert_eq!(d.decision, DecisionKind::Block, "{reply}: {d:#?}");
                    assert_eq!(
                        d.reason_code.as_deref(),
                        Some("guardrail.llm_judge"),
                        "{reply}"
                    );
                }
            }
            "allow" => {
                for d in [&d, &strict] {
                    assert_eq!(d.decision, DecisionKind::Allow, "{reply}: {d:#?}");
                    assert!(d.warnings.is_empty(), "{reply}: {d:#?}");
                }
            }
            _ => {
                let m = fail_open_message(&d, "judge");
                assert!(m.contains("unparsable reply"), "{reply}: {m}");
                assert_failed_closed(&strict, "judge", "unparsable reply");
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_failure_fails_open_by_default_and_closed_on_request() {
    let cases: Vec<(Behavior, &str)> = vec![
        (Behavior::Garbage, "unparsable reply"),
        (Behavior::Status500, "HTTP 500: The server had an error"),
        (Behavior::Status429, "HTTP 429"),
    ];
    for (behavior, cause) in cases {
        let server = LlmServer::start(behavior);
        let open = guard(JUDGE_POLICY, &llm_config(&server.url(), ""));
        let d = open.check(&CheckRequest::input("hello")).await.unwrap();
        let m = fail_open_message(&d, "judge");
        assert!(m.contains(cause), "{cause}: {m}");
        assert!(m.contains("failed open"), "{m}");
        let closed = guard(STRICT_JUDGE_POLICY, &llm_config(&server.url(), ""));
        let d = closed.check(&CheckRequest::input("hello")).await.unwrap();
        assert_failed_closed(&d, "judge", cause);
    }

    // Connection refused.
    let url = refused_addr();
    let d = guard(JUDGE_POLICY, &llm_config(&url, ""))
        .check(&CheckRequest::input("hello"))
        .await
        .unwrap();
    assert!(fail_open_message(&d, "judge").contains("transport error"));
    let d = guard(STRICT_JUDGE_POLICY, &llm_config(&url, ""))
        .check(&CheckRequest::input("hello"))
        .await
        .unwrap();
    assert_failed_closed(&d, "judge", "transport error");

    // No `llm` section at all.
    let d = guard(JUDGE_POLICY, "")
        .check(&CheckRequest::input("hello"))
        .await
        .unwrap();
    assert!(fail_open_message(&d, "judge").contains("no service configured"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_service_times_out() {
    let server = LlmServer::start(Behavior::Slow(Duration::from_millis(2_000)));
    let config = llm_config(&server.url(), "budgets: { call_ms: 150 }\n");
    let d = guard(JUDGE_POLICY, &config)
        .check(&CheckRequest::input("hello"))
        .await
        .unwrap();
    let m = fail_open_message(&d, "judge");
    assert!(
        m.contains("timed out after 150 ms (the call's timeout)"),
        "{m}"
    );
    let d = guard(STRICT_JUDGE_POLICY, &config)
        .check(&CheckRequest::input("hello"))
        .await
        .unwrap();
    assert_failed_closed(&d, "judge", "timed out");

    // The request's `options.timeoutMs` lowers the budget below the call's.
    let mut request = CheckRequest::input("hello");
    request.options = Some(Options {
        timeout_ms: Some(80),
        ..Options::default()
    });
    let d = guard(
        JUDGE_POLICY,
        &llm_config(&server.url(), "budgets: { call_ms: 5000 }\n"),
    )
    .check(&request)
    .await
    .unwrap();
    let m = fail_open_message(&d, "judge");
    assert!(
        m.contains("timed out after 80 ms (the request's budget)"),
        "{m}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_checks_run_concurrently_in_one_budget() {
    let server = LlmServer::start(Behavior::Slow(Duration::from_millis(300)));
    let policy = "checks:\n".to_owned()
        + &(0..4)
            .map(|i| format!("  - {{ id: j{i}, stage: input, type: llm_judge, prompt: p{i} }}\n"))
            .collect::<String>();
    let g = guard(&policy, &llm_config(&server.url(), ""));
    let d = g.check(&CheckRequest::input("BLOCKME")).await.unwrap();
    assert_eq!(ids(&d.violations), ["j0", "j1", "j2", "j3"], "policy order");
    assert_eq!(server.requests(), 4);
    assert_eq!(
        server.max_in_flight(),
        4,
        "the four calls overlap instead of running one after another"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deterministic_block_makes_no_call() {
    let server = LlmServer::start(Behavior::Judge);
    let policy = "checks:\n  - { id: drop, stage: tool_use, type: regex, patterns: ['(?i)drop\\s+table'] }\n  - { id: judge, stage: tool_use, type: llm_judge, prompt: p }\n  - { id: mod, stage: input, type: moderation }\n";
    let g = guard(policy, &llm_config(&server.url(), ""));
    for _ in 0..3 {
        let d = g
            .check(&CheckRequest::tool_use(
                "sql",
                json!({"q": "DROP TABLE users"}),
            ))
            .await
            .unwrap();
        assert_eq!(ids(&d.violations), ["drop"]);
        assert!(d.warnings.is_empty(), "{d:#?}");
    }
    assert_eq!(server.requests(), 0);
    let _ = g
        .check(&CheckRequest::tool_use("sql", json!({"q": "SELECT 1"})))
        .await
        .unwrap();
    assert_eq!(server.requests(), 1, "without the block the judge is asked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moderation_scores_against_its_threshold() {
    let server = LlmServer::start(Behavior::Moderation);
    let policy = "checks:\n  - { id: mod, stage: [input, output], type: moderation, threshold: 50 }\n  - { id: violence-only, stage: input, type: moderation, categories: [violence], threshold: 50 }\n";
    let g = guard(policy, &llm_config(&server.url(), ""));
    let d = g
        .check(&CheckRequest::input("HATEFUL words"))
        .await
        .unwrap();
    assert_eq!(
        ids(&d.violations),
        ["mod"],
        "hate 90; violence 10 is under 50"
    );
    assert_eq!(d.reason_code.as_deref(), Some("guardrail.moderation"));
    let m = d.violations[0].message.as_deref().unwrap();
    assert!(m.contains("hate 90"), "{m}");
    let d = g.check(&CheckRequest::input("kind words")).await.unwrap();
    assert_eq!(d.decision, DecisionKind::Allow);
    assert!(d.warnings.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_sent_off_host_is_capped_on_a_character_boundary() {
    let server = LlmServer::start(Behavior::Judge);
    let g = guard(
        JUDGE_POLICY,
        &llm_config(&server.url(), "budgets: { judge_content_bytes: 11 }\n"),
    );
    // Ten bytes of `a`, then `é` (two bytes): the cut falls inside it.
    let _ = g
        .check(&CheckRequest::input("aaaaaaaaaaé and then BLOCKME"))
        .await
        .unwrap();
    let user = &server.user_messages()[0];
    assert!(user.contains("<content>\naaaaaaaaaa\n</content>"), "{user}");
    assert!(!user.contains("BLOCKME"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_stdio_structured_text_error_and_exit() {
    let dir = tempfile::tempdir().unwrap();
    let exe = util::mcp_guard_exe();
    let count = dir.path().join("calls.txt");
    let config = format!(
        "mcp_servers:\n  structured: {{ command: '{e}', args: [--stdio, --mode, structured, --count-file, '{c}'] }}\n  text: {{ command: '{e}', args: [--stdio, --mode, text] }}\n  failing: {{ command: '{e}', args: [--stdio, --mode, error] }}\n  dying: {{ command: '{e}', args: [--stdio, --mode, exit] }}\n  missing: {{ command: /nonexistent/guard }}\n",
        e = exe.display(),
        c = count.display()
    );
    let check = |server: &str, on_error: &str| {
        format!(
            "checks:\n  - {{ id: remote, stage: [input, tool_use], type: mcp, server: {server}, tool: screen, on_error: {on_error} }}\n"
        )
    };

    let g = guard(&check("structured", "allow"), &config);
    let d = g
        .check(&CheckRequest::input("BLOCKME please"))
        .await
        .unwrap();
    assert_eq!(ids(&d.violations), ["remote"], "{d:#?}");
    assert_eq!(d.reason_code.as_deref(), Some("guardrail.mcp"));
    assert!(
        d.violations[0]
            .message
            .as_deref()
            .unwrap()
            .contains("found BLOCKME")
    );
    let d = g.check(&CheckRequest::input("fine")).await.unwrap();
    assert_eq!(d.decision, DecisionKind::Allow, "{d:#?}");
    assert!(d.warnings.is_empty());
    // One server process, started once, answered both calls.
    assert_eq!(util::count_lines(&count), ["BLOCKME please", "fine"]);

    let d = guard(&check("text", "allow"), &config)
        .check(&CheckRequest::input("BLOCKME"))
        .await
        .unwrap();
    assert_eq!(
        ids(&d.violations),
        ["remote"],
        "verdict as text JSON: {d:#?}"
    );

    for (server, cause) in [
        ("failing", "the guardrail tool returned an error"),
        ("dying", "MCP server `dying`"),
        ("missing", "cannot start `/nonexistent/guard`"),
        ("unknown", "no MCP server `unknown`"),
    ] {
        let d = guard(&check(server, "allow"), &config)
            .check(&CheckRequest::input("hi"))
            .await
            .unwrap();
        let m = fail_open_message(&d, "remote");
        assert!(m.contains(cause), "{server}: {m}");
        let d = guard(&check(server, "block"), &config)
            .check(&CheckRequest::input("hi"))
            .await
            .unwrap();
        assert_failed_closed(&d, "remote", cause);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_server_that_dies_is_started_again() {
    let dir = tempfile::tempdir().unwrap();
    let exe = util::mcp_guard_exe();
    let count = dir.path().join("calls.txt");
    // `exit` mode dies on every call: each call must start a fresh process
    // (the count file shows every call arrived) and fail cleanly.
    let config = format!(
        "mcp_servers:\n  dying: {{ command: '{}', args: [--stdio, --mode, exit, --count-file, '{}'] }}\nbudgets: {{ call_ms: 5000 }}\n",
        exe.display(),
        count.display()
    );
    let g = guard(
        "checks:\n  - { id: remote, stage: input, type: mcp, server: dying, tool: screen }\n",
        &config,
    );
    for i in 0..3 {
        let d = g
            .check(&CheckRequest::input(format!("call {i}")))
            .await
            .unwrap();
        assert!(fail_open_message(&d, "remote").contains("MCP server `dying`"));
    }
    assert_eq!(
        util::count_lines(&count),
        ["call 0", "call 1", "call 2"],
        "every call reached a (restarted) server"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_streamable_http() {
    let (_structured, url) = util::start_mcp_http("structured", None).await;
    let (_text, text_url) = util::start_mcp_http("text", None).await;
    let config = format!("mcp_servers:\n  a: {{ url: '{url}' }}\n  b: {{ url: '{text_url}' }}\n");
    let policy = "checks:\n  - { id: a, stage: tool_output, type: mcp, server: a, tool: screen }\n  - { id: b, stage: tool_output, type: mcp, server: b, tool: screen }\n";
    let g = guard(policy, &config);
    let d = g
        .check(&CheckRequest::tool_output(
            "fetch",
            json!("page says BLOCKME"),
        ))
        .await
        .unwrap();
    assert_eq!(ids(&d.violations), ["a", "b"], "{d:#?}");
    let d = g
        .check(&CheckRequest::tool_output("fetch", json!("a fine page")))
        .await
        .unwrap();
    assert_eq!(d.decision, DecisionKind::Allow, "{d:#?}");
    assert!(d.warnings.is_empty(), "{d:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_most_four_calls_per_type_the_rest_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let count = dir.path().join("calls.txt");
    let config = format!(
        "mcp_servers:\n  guard: {{ command: '{}', args: [--stdio, --count-file, '{}'] }}\n",
        util::mcp_guard_exe().display(),
        count.display()
    );
    let policy = "checks:\n".to_owned()
        + &(0..6)
            .map(|i| {
                format!(
                    "  - {{ id: m{i}, stage: input, type: mcp, server: guard, tool: screen }}\n"
                )
            })
            .collect::<String>();
    let g = guard(&policy, &config);
    let d = g.check(&CheckRequest::input("fine")).await.unwrap();
    assert_eq!(d.decision, DecisionKind::Allow, "{d:#?}");
    assert_eq!(util::count_lines(&count).len(), 4, "four called");
    assert_eq!(ids(&d.warnings), ["m4", "m5"], "two reported as skipped");
    for w in &d.warnings {
        assert_eq!(w.action, FindingAction::FailOpen);
        let m = w.message.as_deref().unwrap();
        assert!(m.contains("at most 4 `mcp` calls per request"), "{m}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decisions_are_audited_before_they_are_answered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("audit.jsonl");
    let server = LlmServer::start(Behavior::Judge);
    let log = JsonlAudit::open(&path, Durability::Fsync).await.unwrap();
    let g = guard(JUDGE_POLICY, &llm_config(&server.url(), "")).with_audit(Arc::new(log));
    let mut receipts = Vec::new();
    for text in ["hello", "BLOCKME", "again"] {
        let d = g.check(&CheckRequest::input(text)).await.unwrap();
        receipts.push(d.receipt_id.clone().unwrap());
    }
    // Answered means written: no flush needed to see them.
    let log = std::fs::read_to_string(&path).unwrap();
    for r in &receipts {
        assert!(log.contains(r.as_str()), "{r} in the log");
    }
    assert!(!log.contains("BLOCKME"), "the payload is never written");
    let report = palisade_checks::audit::verify(&path).unwrap();
    assert_eq!(report.records, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_answer_gets_moderation_at_the_end() {
    let server = LlmServer::start(Behavior::Moderation);
    let policy = "checks:\n  - { id: word, stage: output, type: blocklist, words: [forbidden] }\n  - { id: mod, stage: output, type: moderation }\n";
    let g = guard(policy, &llm_config(&server.url(), ""));
    let request = CheckRequest::output("");
    let mut stream = g.stream(None, &request).unwrap();
    for delta in ["This is ", "a HATE", "FUL answer."] {
        assert!(stream.push(delta).is_none());
    }
    assert_eq!(server.requests(), 0, "moderation waits for the end");
    let d = stream.finish().await.unwrap();
    assert_eq!(d.is_final, Some(true));
    assert_eq!(ids(&d.violations), ["mod"], "{d:#?}");
    let user = &server.user_messages()[0];
    assert!(user.contains("This is a HATEFUL answer."), "{user}");

    // A deterministic block during the stream is reported at once.
    let mut stream = g.stream(None, &request).unwrap();
    let interim = stream
        .push("this is forbid")
        .or_else(|| stream.push("den text"));
    assert_eq!(interim.unwrap().decision, DecisionKind::Block);
    assert!(stream.is_blocked());
    let d = stream.finish().await.unwrap();
    assert_eq!(ids(&d.violations), ["word"]);
    assert_eq!(server.requests(), 1, "no moderation call after a block");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_server_that_exits_mid_call_fails_the_call() {
    let (_child, url) = util::start_mcp_http("exit", None).await;
    let config =
        format!("mcp_servers:\n  gone: {{ url: '{url}' }}\nbudgets: {{ call_ms: 8000 }}\n");
    let policy =
        "checks:\n  - { id: remote, stage: input, type: mcp, server: gone, tool: screen }\n";
    let d = guard(policy, &config)
        .check(&CheckRequest::input("hi"))
        .await
        .unwrap();
    let m = fail_open_message(&d, "remote");
    assert!(m.contains("MCP server `gone`"), "{m}");
    assert!(
        !m.contains("timed out"),
        "the failure is seen as such, not waited out: {m}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_key_comes_from_the_named_environment_variable() {
    let server = LlmServer::start_with_key(Behavior::Judge, "sk-test-123");
    // The environment is not changed here (`set_var` needs `unsafe`): a
    // variable that is not set is an error, one that is set is sent.
    let config = format!(
        "llm: {{ base_url: '{}', model: m, api_key_env: PALISADE_TEST_UNSET_KEY_VAR }}\n",
        server.url()
    );
    let engine = Engine::from_yaml_str(JUDGE_POLICY).unwrap();
    let err = Guard::new(engine, &GuardConfig::from_yaml_str(&config).unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`PALISADE_TEST_UNSET_KEY_VAR` (llm.api_key_env) is not set"),
        "{err}"
    );
    // `PATH` is always set: its value is sent as the bearer token, which the
    // server refuses (401) — so the key really is sent from the variable.
    let config = format!(
        "llm: {{ base_url: '{}', model: m, api_key_env: PATH }}\n",
        server.url()
    );
    let d = guard(JUDGE_POLICY, &config)
        .check(&CheckRequest::input("hello"))
        .await
        .unwrap();
    let m = fail_open_message(&d, "judge");
    assert!(m.contains("HTTP 401"), "{m}");
    assert_eq!(server.requests(), 1);

    // Cargo sets `CARGO_PKG_NAME` for the tests it runs: with the server
    // expecting that value, the judge answers.
    let key = std::env::var("CARGO_PKG_NAME").expect("run by cargo");
    let server = LlmServer::start_with_key(Behavior::Judge, &key);
    let config = format!(
        "llm: {{ base_url: '{}', model: m, api_key_env: CARGO_PKG_NAME }}\n",
        server.url()
    );
    let d = guard(JUDGE_POLICY, &config)
        .check(&CheckRequest::input("BLOCKME"))
        .await
        .unwrap();
    assert_eq!(ids(&d.violations), ["judge"], "{d:#?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fail_closed_check_over_the_cap_blocks() {
    let server = LlmServer::start(Behavior::Judge);
    // Four fail-open judges take the four calls; the fifth must not be
    // skipped quietly when it fails closed.
    let policy = "checks:\n".to_owned()
        + &(0..4)
            .map(|i| format!("  - {{ id: j{i}, stage: input, type: llm_judge, prompt: p }}\n"))
            .collect::<String>()
        + "  - { id: strict, stage: input, type: llm_judge, prompt: p, on_error: block }\n";
    let d = guard(&policy, &llm_config(&server.url(), ""))
        .check(&CheckRequest::input("hello"))
        .await
        .unwrap();
    assert_eq!(server.requests(), 4);
    assert_failed_closed(&d, "strict", "was not run and fails closed");
}

/// MCP guardrails that answer in other shapes, over stdio and over HTTP: a
/// verdict wrapped in a string (what a server whose tool returns a string
/// sends), synonyms, no verdict, an unknown verdict. The first two decide;
/// the others are unparsable, which `on_error` decides — never an allow.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_verdicts_in_other_shapes() {
    let exe = util::mcp_guard_exe();
    let mut servers = Vec::new();
    let mut config = String::from("mcp_servers:\n");
    for mode in ["wrapped", "synonyms", "noverdict", "unknown"] {
        config.push_str(&format!(
            "  {mode}-stdio: {{ command: '{e}', args: [--stdio, --mode, {mode}] }}\n",
            e = exe.display()
        ));
        let (child, url) = util::start_mcp_http(mode, None).await;
        servers.push(child);
        config.push_str(&format!("  {mode}-http: {{ url: '{url}' }}\n"));
    }
    let check = |server: &str, on_error: &str| {
        format!(
            "checks:\n  - {{ id: remote, stage: [input, tool_use], type: mcp, server: {server}, tool: screen, on_error: {on_error} }}\n"
        )
    };
    for transport in ["stdio", "http"] {
        for mode in ["wrapped", "synonyms"] {
            let server = format!("{mode}-{transport}");
            for on_error in ["allow", "block"] {
                let g = guard(&check(&server, on_error), &config);
                let d = g.check(&CheckRequest::input("BLOCKME now")).await.unwrap();
                assert_eq!(d.decision, DecisionKind::Block, "{server}: {d:#?}");
                assert_eq!(d.reason_code.as_deref(), Some("guardrail.mcp"), "{server}");
                let d = g.check(&CheckRequest::input("hello")).await.unwrap();
                assert_eq!(d.decision, DecisionKind::Allow, "{server}: {d:#?}");
                assert!(d.warnings.is_empty(), "{server}: {d:#?}");
            }
        }
        for (mode, cause) in [
            ("noverdict", "no `verdict`"),
            ("unknown", "unknown verdict"),
        ] {
            let server = format!("{mode}-{transport}");
            let open = guard(&check(&server, "allow"), &config);
            let d = open
                .check(&CheckRequest::input("BLOCKME now"))
                .await
                .unwrap();
            let m = fail_open_message(&d, "remote");
            assert!(m.contains(cause), "{server}: {m}");
            let closed = guard(&check(&server, "block"), &config);
            let d = closed.check(&CheckRequest::input("hello")).await.unwrap();
            assert_failed_closed(&d, "remote", cause);
        }
    }
    drop(servers);
}

/// The spans of [`palisade_checks::TRACE_TARGET`] a subscriber saw: name,
/// parent's name, and fields as recorded (the last value of each).
#[derive(Clone, Default)]
struct Spans(Arc<std::sync::Mutex<Vec<TracedSpan>>>);

#[derive(Clone, Debug)]
struct TracedSpan {
    id: u64,
    name: String,
    parent: Option<String>,
    fields: std::collections::BTreeMap<String, String>,
}

struct Fields<'a>(&'a mut std::collections::BTreeMap<String, String>);

impl tracing::field::Visit for Fields<'_> {
    fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
        self.0.insert(field.name().to_owned(), value.to_owned());
    }
    fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
        self.0.insert(field.name().to_owned(), format!("{value:?}"));
    }
}

impl<S> tracing_subscriber::Layer<S> for Spans
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    fn on_new_span(
        &self,
        attrs: &tracing::span::Attributes<'_>,
        id: &tracing::span::Id,
        ctx: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let mut fields = std::collections::BTreeMap::new();
        attrs.record(&mut Fields(&mut fields));
        let parent = ctx
            .span(id)
            .and_then(|s| s.parent())
            .map(|p| p.name().to_owned());
        self.0.lock().unwrap().push(TracedSpan {
            id: id.into_u64(),
            name: attrs.metadata().name().to_owned(),
            parent,
            fields,
        });
    }

    fn on_record(
        &self,
        id: &tracing::span::Id,
        values: &tracing::span::Record<'_>,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) {
        let mut spans = self.0.lock().unwrap();
        if let Some(s) = spans.iter_mut().rev().find(|s| s.id == id.into_u64()) {
            values.record(&mut Fields(&mut s.fields));
        }
    }
}

/// Calls to an LLM service and to an MCP server are spans of their own
/// (OpenTelemetry's GenAI client attributes), children of the span the
/// check runs in, with the failure's kind when a call fails.
#[tokio::test(flavor = "current_thread")]
async fn llm_and_mcp_calls_are_traced_under_the_decision() {
    use tracing::Instrument as _;
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt as _;
    let spans = Spans::default();
    let subscriber = tracing_subscriber::registry().with(
        spans.clone().with_filter(
            tracing_subscriber::filter::Targets::new()
                .with_target(palisade_checks::TRACE_TARGET, tracing::Level::TRACE),
        ),
    );
    // The process's subscriber (no other test of this binary sets one): a
    // thread's own subscriber can miss call sites that tests on other
    // threads registered at the same time. Spans of other tests have no
    // `decision` parent and are not counted below.
    tracing::subscriber::set_global_default(subscriber).expect("the only subscriber");

    let server = LlmServer::start(Behavior::Judge);
    let g = guard(JUDGE_POLICY, &llm_config(&server.url(), ""));
    let d = g
        .check(&CheckRequest::input("please BLOCKME now"))
        .instrument(tracing::info_span!(target: palisade_checks::TRACE_TARGET, "decision"))
        .await
        .unwrap();
    assert_eq!(d.decision, DecisionKind::Block, "{d:#?}");

    let exe = util::mcp_guard_exe();
    let config = format!(
        "mcp_servers:\n  ok: {{ command: '{e}', args: [--stdio, --mode, structured] }}\n  failing: {{ command: '{e}', args: [--stdio, --mode, error] }}\n",
        e = exe.display()
    );
    for server in ["ok", "failing"] {
        let policy = format!(
            "checks:\n  - {{ id: remote, stage: input, type: mcp, server: {server}, tool: screen }}\n"
        );
        guard(&policy, &config)
            .check(&CheckRequest::input("BLOCKME"))
            .instrument(tracing::info_span!(target: palisade_checks::TRACE_TARGET, "decision"))
            .await
            .unwrap();
    }

    let spans: Vec<TracedSpan> = spans
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|s| s.name == "decision" || s.parent.as_deref() == Some("decision"))
        .cloned()
        .collect();
    let field = |s: &TracedSpan, k: &str| s.fields.get(k).cloned().unwrap_or_default();
    let chat: Vec<_> = spans.iter().filter(|s| s.name == "chat").collect();
    let [chat] = chat.as_slice() else {
        panic!("one chat span: {spans:#?}")
    };
    assert_eq!(chat.parent.as_deref(), Some("decision"));
    assert_eq!(field(chat, "otel.name"), "chat judge-1");
    assert_eq!(field(chat, "otel.kind"), "client");
    assert_eq!(field(chat, "gen_ai.operation.name"), "chat");
    assert_eq!(field(chat, "gen_ai.request.model"), "judge-1");
    assert_eq!(field(chat, "server.address"), "127.0.0.1");
    assert!(!chat.fields.contains_key("error.type"), "{chat:#?}");

    let calls: Vec<_> = spans.iter().filter(|s| s.name == "tools/call").collect();
    let [ok, failing] = calls.as_slice() else {
        panic!("two MCP call spans: {spans:#?}")
    };
    for (s, server) in [(ok, "ok"), (failing, "failing")] {
        assert_eq!(s.parent.as_deref(), Some("decision"));
        assert_eq!(field(s, "otel.name"), "tools/call screen");
        assert_eq!(field(s, "mcp.method.name"), "tools/call");
        assert_eq!(field(s, "gen_ai.tool.name"), "screen");
        assert_eq!(field(s, "palisade.mcp.server"), server);
    }
    assert!(!ok.fields.contains_key("error.type"), "{ok:#?}");
    assert_eq!(field(failing, "otel.status_code"), "ERROR", "{failing:#?}");
    assert!(!field(failing, "error.type").is_empty(), "{failing:#?}");
}
