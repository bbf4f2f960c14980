//! Approvals bound to the exact call (SPEC §15), against real `palisade
//! serve` processes: an `ask` carries an approval; an approver's key
//! approves it; the same call sent again with `approvalId` passes once —
//! written with its members in another order or its numbers spelled
//! another way, but not with another value, session or tenant; a second
//! use, a denied or expired approval, the agent's own key and another
//! tenant's approver are refused; approvals survive a restart, and two
//! replicas on one Redis share them. Every ask, answer and use is in the
//! audit log, and `palisade audit verify` checks their links.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command};
use std::time::Duration;

use serde_json::{Value, json};

use crate::util::{TempDir, arg, palisade, serve};

const AGENT: &str = "agent-secret";
const OPS: &str = "ops-secret";
const BETA_OPS: &str = "beta-ops-secret";
const SELF: &str = "self-approver-secret";

fn keys() -> [(&'static str, &'static str); 4] {
    [
        ("AGENT_KEY", AGENT),
        ("OPS_KEY", OPS),
        ("BETA_OPS_KEY", BETA_OPS),
        ("SELF_KEY", SELF),
    ]
}

/// A request: `METHOD path` with the key and a JSON body; the status and
/// the parsed answer.
fn http(addr: &str, method: &str, path: &str, key: &str, body: Option<&Value>) -> (u16, Value) {
    let body = body.map(Value::to_string).unwrap_or_default();
    http_text(addr, method, path, key, &body)
}

/// [`http`] with the body as written (a repeated key, a broken text).
fn http_text(addr: &str, method: &str, path: &str, key: &str, body: &str) -> (u16, Value) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nx-api-key: {key}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    // Chunked answers: the JSON is the one line that parses.
    let value = serde_json::from_str(body).unwrap_or_else(|_| {
        body.lines()
            .find_map(|l| serde_json::from_str(l).ok())
            .unwrap_or(Value::Null)
    });
    (status, value)
}

/// `POST /v1/check` with `text` as the body, as the agent.
fn check_text(addr: &str, text: &str) -> Value {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "POST /v1/check HTTP/1.1\r\nhost: {addr}\r\nx-api-key: {AGENT}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{text}",
        text.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    serde_json::from_str(body).unwrap_or_else(|_| {
        body.lines()
            .find_map(|l| serde_json::from_str(l).ok())
            .unwrap_or_else(|| panic!("{answer}"))
    })
}

fn check(addr: &str, key: &str, request: &Value) -> Value {
    let (status, d) = http(addr, "POST", "/v1/check", key, Some(request));
    assert_eq!(status, 200, "{d}");
    d
}

fn answer(addr: &str, key: &str, id: &str, decision: &str) -> (u16, Value) {
    http(
        addr,
        "POST",
        &format!("/v1/approvals/{id}"),
        key,
        Some(&json!({"decision": decision, "note": "looked at it"})),
    )
}

/// The reason codes of a decision's warnings.
fn warning_codes(d: &Value) -> Vec<String> {
    d["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["reasonCode"].as_str().unwrap().to_owned())
        .collect()
}

fn stop(mut child: Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();
}

/// The deploy call the policy asks about, in the agent's session `s-1`.
const DEPLOY: &str = r#"{"sessionId": "s-1", "options": {"interactive": true}, "context": {"cwd": "/repo"},
  "tool": {"name": "deploy", "arguments": {"service": "api", "replicas": 3, "opts": {"region": "eu", "canary": 0.5}}}}"#;

fn deploy() -> Value {
    serde_json::from_str(DEPLOY).unwrap()
}

/// The config of tenants `acme` and `beta`, their keys, and `extra`.
fn config(dir: &TempDir, extra: &str) -> std::path::PathBuf {
    let policy = "checks:\n  \
        - { id: confirm-deploy, stage: tool_use, type: tool_pattern, tools: [deploy], on_fail: ask }\n  \
        - { id: no-drop, stage: tool_use, type: blocklist, words: [DROP TABLE] }\n";
    dir.write("acme.yaml", policy);
    dir.write("beta.yaml", policy);
    dir.write(
        "palisade.yaml",
        format!(
            "tenants:\n  acme: {{ policy: acme.yaml }}\n  beta: {{ policy: beta.yaml }}\n\
             keys:\n  \
             - {{ id: agent, env: AGENT_KEY, tenant: acme, scopes: [guardrails:check] }}\n  \
             - {{ id: ops, env: OPS_KEY, tenant: acme, scopes: [guardrails:approve] }}\n  \
             - {{ id: beta-ops, env: BETA_OPS_KEY, tenant: beta, scopes: [guardrails:approve] }}\n  \
             - {{ id: self, env: SELF_KEY, tenant: acme, scopes: [guardrails:check, guardrails:approve] }}\n\
             audit: {{ path: audit.jsonl }}\n{extra}"
        ),
    )
}

fn start(dir: &TempDir, cfg: &std::path::Path) -> (Child, String) {
    serve(&["--config", arg(cfg)], Some(dir.path()), &keys())
}

#[test]
fn an_approved_call_passes_once_and_only_as_approved() {
    let dir = TempDir::new("approvals-once");
    let cfg = config(&dir, "");
    let (server, addr) = start(&dir, &cfg);

    let asked = check(&addr, AGENT, &deploy());
    assert_eq!(asked["decision"], "ask", "{asked}");
    let approval = &asked["approval"];
    let id = approval["id"].as_str().unwrap().to_owned();
    assert_eq!(approval["url"], format!("/v1/approvals/{id}"));
    assert_eq!(approval["bound"].as_str().unwrap().len(), 64);
    assert!(approval["expiresAt"].as_str().unwrap().ends_with('Z'));

    // Without the id, the same call asks again (with an approval of its own).
    let again = check(&addr, AGENT, &deploy());
    assert_eq!(again["decision"], "ask");
    assert_ne!(again["approval"]["id"], approval["id"]);

    // Not yet approved.
    let mut with_id = deploy();
    with_id["approvalId"] = json!(id);
    let pending = check(&addr, AGENT, &with_id);
    assert_eq!(pending["decision"], "ask");
    assert!(
        warning_codes(&pending).contains(&"approval.pending".to_owned()),
        "{pending}"
    );

    // Who may answer: not the agent's key (no scope), not a key that sent
    // the call itself, not another tenant's approver.
    let (status, body) = answer(&addr, AGENT, &id, "approve");
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (403, Some("forbidden")),
        "{body}"
    );
    let own = check(&addr, SELF, &deploy());
    let own_id = own["approval"]["id"].as_str().unwrap();
    let (status, body) = answer(&addr, SELF, own_id, "approve");
    assert_eq!(status, 403, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot answer it"),
        "{body}"
    );
    let (status, body) = answer(&addr, BETA_OPS, &id, "approve");
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (404, Some("approval_not_found")),
        "{body}"
    );
    let (status, body) = http(&addr, "GET", "/v1/approvals?state=pending", BETA_OPS, None);
    assert_eq!(status, 200);
    assert_eq!(body["approvals"], json!([]), "{body}");

    // The tenant's approver sees it pending and approves it.
    let (status, list) = http(&addr, "GET", "/v1/approvals?state=pending", OPS, None);
    assert_eq!(status, 200, "{list}");
    let listed = list["approvals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == json!(id))
        .unwrap_or_else(|| panic!("{list}"));
    assert_eq!(listed["tool"], "deploy");
    assert_eq!(listed["requestedBy"], "agent");
    assert_eq!(listed["checks"], json!(["confirm-deploy"]));
    assert!(listed.get("arguments").is_none());
    let (status, body) = http(&addr, "GET", "/v1/approvals?state=maybe", OPS, None);
    assert_eq!(status, 400, "{body}");
    // A malformed answer is refused, naming what is wrong, and answers
    // nothing: a repeated `decision` cannot turn a deny into an approve.
    let path = format!("/v1/approvals/{id}");
    for (text, names) in [
        (r#"{"decision": "maybe"}"#, "decision"),
        (r#"{"decision": "approve", "by": "ops"}"#, "by"),
        (r#"{"decision": "deny", "decision": "approve"}"#, "decision"),
        (r#"{"note": "no decision"}"#, "decision"),
        (r#"{"decision": "approve""#, ""),
    ] {
        let (status, body) = http_text(&addr, "POST", &path, OPS, text);
        assert_eq!(status, 400, "{text}: {body}");
        let message = body["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(names), "{text}: {body}");
    }
    let (_, still) = http(&addr, "GET", "/v1/approvals?state=pending", OPS, None);
    assert!(
        still["approvals"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["id"] == json!(id) && a["state"] == "pending"),
        "{still}"
    );
    let (status, answered) = answer(&addr, OPS, &id, "approve");
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["state"], "approved");
    assert_eq!(answered["answeredBy"], "ops");
    assert_eq!(answered["note"], "looked at it");
    let (status, body) = answer(&addr, OPS, &id, "deny");
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("approval_not_pending")),
        "{body}"
    );

    // Another value, another session, another tool: not the approved call.
    let mut changed = with_id.clone();
    changed["tool"]["arguments"]["replicas"] = json!(4);
    let mut other_session = with_id.clone();
    other_session["sessionId"] = json!("s-2");
    let mut elsewhere = with_id.clone();
    elsewhere["context"]["cwd"] = json!("/");
    let mut extra_member = with_id.clone();
    extra_member["tool"]["arguments"]["force"] = json!(true);
    let mut as_string = with_id.clone();
    as_string["tool"]["arguments"]["replicas"] = json!("3");
    for (what, request) in [
        ("a changed value", &changed),
        ("another session", &other_session),
        ("another cwd", &elsewhere),
        ("an added argument", &extra_member),
        ("a number as a string", &as_string),
    ] {
        let d = check(&addr, AGENT, request);
        assert_eq!(d["decision"], "ask", "{what}: {d}");
        assert!(
            warning_codes(&d).contains(&"approval.mismatch".to_owned()),
            "{what}: {d}"
        );
        assert!(d["approval"]["id"].is_string(), "{what} asks anew: {d}");
    }

    // The approved call with its members reordered and numbers spelled
    // another way is the same call: allowed, once.
    let reordered = format!(
        r#"{{"tool": {{"arguments": {{"opts": {{"canary": 5e-1, "region": "eu"}}, "replicas": 3.0, "service": "api"}}, "name": "deploy"}},
            "approvalId": "{id}", "context": {{"cwd": "/repo"}}, "options": {{"interactive": true}}, "sessionId": "s-1"}}"#
    );
    let allowed = check_text(&addr, &reordered);
    assert_eq!(allowed["decision"], "allow", "{allowed}");
    assert_eq!(allowed["allowed"], true);
    assert_eq!(allowed["reasonCode"], "approval.applied");
    assert!(allowed["violations"].as_array().unwrap().is_empty());
    assert!(allowed.get("approval").is_none(), "{allowed}");
    let codes = warning_codes(&allowed);
    assert!(codes.contains(&"approval.applied".to_owned()), "{allowed}");
    assert!(
        codes.contains(&"guardrail.tool_pattern".to_owned()),
        "{allowed}"
    );

    // A second use is refused.
    let second = check(&addr, AGENT, &with_id);
    assert_eq!(second["decision"], "ask", "{second}");
    assert!(
        warning_codes(&second).contains(&"approval.used".to_owned()),
        "{second}"
    );
    let (_, used) = http(&addr, "GET", &format!("/v1/approvals/{id}"), OPS, None);
    assert_eq!(used["state"], "used", "{used}");
    assert_eq!(used["usedReceipt"], allowed["receiptId"]);

    // An approval covers asks, never a check that blocks.
    let asked = check(&addr, AGENT, &deploy());
    let id2 = asked["approval"]["id"].as_str().unwrap().to_owned();
    assert_eq!(answer(&addr, OPS, &id2, "approve").0, 200);
    let mut dropping = deploy();
    dropping["approvalId"] = json!(id2);
    dropping["tool"]["arguments"]["sql"] = json!("DROP TABLE users");
    let d = check(&addr, AGENT, &dropping);
    assert_eq!(d["decision"], "block", "{d}");
    assert!(
        warning_codes(&d).contains(&"approval.blocked".to_owned()),
        "{d}"
    );
    assert!(
        d.get("approval").is_none(),
        "a block is not asked about: {d}"
    );

    // Denied: refused. Unknown id: refused.
    let asked = check(&addr, AGENT, &deploy());
    let id3 = asked["approval"]["id"].as_str().unwrap().to_owned();
    assert_eq!(answer(&addr, OPS, &id3, "deny").0, 200);
    let mut denied = deploy();
    denied["approvalId"] = json!(id3);
    let d = check(&addr, AGENT, &denied);
    assert!(
        warning_codes(&d).contains(&"approval.denied".to_owned()),
        "{d}"
    );
    denied["approvalId"] = json!("no-such-approval");
    let d = check(&addr, AGENT, &denied);
    assert!(
        warning_codes(&d).contains(&"approval.unknown".to_owned()),
        "{d}"
    );

    // Not interactive: the ask is a block, and still has an approval that
    // lets the call through.
    let mut batch = deploy();
    batch["options"]["interactive"] = json!(false);
    let blocked = check(&addr, AGENT, &batch);
    assert_eq!(blocked["decision"], "block", "{blocked}");
    let id4 = blocked["approval"]["id"].as_str().unwrap().to_owned();
    assert_eq!(answer(&addr, OPS, &id4, "approve").0, 200);
    batch["approvalId"] = json!(id4);
    assert_eq!(check(&addr, AGENT, &batch)["decision"], "allow");

    stop(server);

    // Every ask, answer and use is linked in the audit log.
    let log = std::fs::read_to_string(dir.path().join("audit.jsonl")).unwrap();
    let answers: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r.get("event").is_some())
        .collect();
    assert_eq!(answers.len(), 4, "{log}");
    assert_eq!(answers[0]["event"], "approval.approved");
    assert_eq!(answers[0]["approval"], json!(id));
    assert_eq!(answers[0]["origin"], asked_receipt(&log, &id));
    let use_line: Value = log
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["approvalUse"]["result"] == "used")
        .unwrap();
    assert_eq!(use_line["approvalUse"]["origin"], asked_receipt(&log, &id));
    assert_eq!(use_line["decision"], "allow");
    let run = palisade(&["audit", "verify", arg(&dir.path().join("audit.jsonl"))]).run();
    run.code(0);
    assert!(
        run.stdout_text().contains("approval links"),
        "{}",
        run.stdout_text()
    );

    // A second use written into the log (its chain recomputed by the
    // writer, so only the link is wrong) is found.
    forged_second_use(&dir, use_line);
}

/// The receipt of the decision that asked for approval `id`.
fn asked_receipt(log: &str, id: &str) -> Value {
    log.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["approval"] == json!(id) && r.get("event").is_none())
        .map(|r| r["receiptId"].clone())
        .unwrap()
}

/// Appends, through a fresh service on the same log, a decision claiming
/// the same approval again: `audit verify` fails on it.
fn forged_second_use(dir: &TempDir, used: Value) {
    use std::fmt::Write as _;
    // Rewrite the chain by hand: the forged line gets a valid seq, prev
    // and hash, so only its link is wrong.
    let path = dir.path().join("audit.jsonl");
    let log = std::fs::read_to_string(&path).unwrap();
    let last: Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    let mut forged = used.as_object().unwrap().clone();
    forged.remove("seq");
    forged.remove("prev");
    forged.remove("hash");
    forged.insert("receiptId".into(), json!("forged"));
    let mut body = serde_json::to_string(&Value::Object(forged)).unwrap();
    body.pop();
    let prev = last["hash"].as_str().unwrap();
    let _ = write!(
        body,
        ",\"seq\":{},\"prev\":\"{prev}\"",
        last["seq"].as_u64().unwrap() + 1
    );
    let hash = sha256_hex(&format!("{prev}{body}}}"));
    let line = format!("{body},\"hash\":\"{hash}\"}}\n");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(line.as_bytes())
        .unwrap();
    let run = palisade(&["audit", "verify", arg(&path)]).run();
    run.code(1);
}

fn sha256_hex(text: &str) -> String {
    let out = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(text.as_bytes())?;
            c.wait_with_output()
        })
        .unwrap();
    String::from_utf8(out.stdout).unwrap()[..64].to_owned()
}

#[test]
fn an_approval_expires() {
    let dir = TempDir::new("approvals-expire");
    let cfg = config(&dir, "approvals: { ttl_secs: 1 }\n");
    let (server, addr) = start(&dir, &cfg);
    let asked = check(&addr, AGENT, &deploy());
    let id = asked["approval"]["id"].as_str().unwrap().to_owned();
    assert_eq!(answer(&addr, OPS, &id, "approve").0, 200);
    let late = check(&addr, AGENT, &deploy());
    let late_id = late["approval"]["id"].as_str().unwrap().to_owned();
    std::thread::sleep(Duration::from_millis(1_200));
    let mut with_id = deploy();
    with_id["approvalId"] = json!(id);
    let d = check(&addr, AGENT, &with_id);
    assert_eq!(d["decision"], "ask", "{d}");
    let codes = warning_codes(&d);
    assert!(
        codes.contains(&"approval.expired".to_owned())
            || codes.contains(&"approval.unknown".to_owned()),
        "{d}"
    );
    let (status, body) = answer(&addr, OPS, &late_id, "approve");
    assert!(status == 409 || status == 404, "{status} {body}");
    stop(server);
}

#[test]
fn approvals_survive_a_restart() {
    let dir = TempDir::new("approvals-restart");
    let cfg = config(&dir, "");
    let (server, addr) = start(&dir, &cfg);
    let first = check(&addr, AGENT, &deploy());
    let approved = first["approval"]["id"].as_str().unwrap().to_owned();
    let second = check(&addr, AGENT, &deploy());
    let pending = second["approval"]["id"].as_str().unwrap().to_owned();
    assert_eq!(answer(&addr, OPS, &approved, "approve").0, 200);
    stop(server);
    assert!(dir.path().join("audit.approvals.jsonl").exists());

    let (server, addr) = start(&dir, &cfg);
    // Answered before the restart: used after it, once.
    let mut with_id = deploy();
    with_id["approvalId"] = json!(approved);
    assert_eq!(check(&addr, AGENT, &with_id)["decision"], "allow");
    // Pending before the restart: answered after it.
    let (_, list) = http(&addr, "GET", "/v1/approvals?state=pending", OPS, None);
    assert!(
        list["approvals"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["id"] == json!(pending)),
        "{list}"
    );
    assert_eq!(answer(&addr, OPS, &pending, "approve").0, 200);
    stop(server);

    let (server, addr) = start(&dir, &cfg);
    // Used before this restart: still used.
    let d = check(&addr, AGENT, &with_id);
    assert!(
        warning_codes(&d).contains(&"approval.used".to_owned()),
        "{d}"
    );
    with_id["approvalId"] = json!(pending);
    assert_eq!(check(&addr, AGENT, &with_id)["decision"], "allow");
    stop(server);
    palisade(&["audit", "verify", arg(&dir.path().join("audit.jsonl"))])
        .run()
        .code(0);
}

#[test]
fn two_replicas_on_one_redis_share_approvals() {
    if !crate::replicas::have_redis() {
        return;
    }
    let redis = crate::replicas::Redis::start(crate::replicas::free_port()).unwrap();
    let dir = TempDir::new("approvals-replicas");
    let cfg = config(
        &dir,
        &format!(
            "state: {{ redis: {{ url: 'redis://127.0.0.1:{}', prefix: 'ap:', timeout_ms: 500 }} }}\n",
            redis.port
        ),
    );
    let cfg_b = dir.write(
        "b.yaml",
        std::fs::read_to_string(&cfg)
            .unwrap()
            .replace("audit.jsonl", "audit-b.jsonl"),
    );
    let (a, addr_a) = start(&dir, &cfg);
    let (b, addr_b) = serve(&["--config", arg(&cfg_b)], Some(dir.path()), &keys());

    // Asked on A, seen and approved on B, used on A, refused again on B.
    let asked = check(&addr_a, AGENT, &deploy());
    let id = asked["approval"]["id"].as_str().unwrap().to_owned();
    let (_, list) = http(&addr_b, "GET", "/v1/approvals?state=pending", OPS, None);
    assert!(
        list["approvals"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["id"] == json!(id)),
        "{list}"
    );
    let (status, body) = answer(&addr_b, OPS, &id, "approve");
    assert_eq!(status, 200, "{body}");
    let mut with_id = deploy();
    with_id["approvalId"] = json!(id);
    let mut changed = with_id.clone();
    changed["tool"]["arguments"]["replicas"] = json!(30);
    let d = check(&addr_b, AGENT, &changed);
    assert!(
        warning_codes(&d).contains(&"approval.mismatch".to_owned()),
        "{d}"
    );
    assert_eq!(check(&addr_a, AGENT, &with_id)["decision"], "allow");
    let d = check(&addr_b, AGENT, &with_id);
    assert!(
        warning_codes(&d).contains(&"approval.used".to_owned()),
        "{d}"
    );

    // Sent to both at once: exactly one gets through.
    let asked = check(&addr_b, AGENT, &deploy());
    let id = asked["approval"]["id"].as_str().unwrap().to_owned();
    assert_eq!(answer(&addr_a, OPS, &id, "approve").0, 200);
    with_id["approvalId"] = json!(id);
    let racers: Vec<_> = [
        addr_a.clone(),
        addr_b.clone(),
        addr_a.clone(),
        addr_b.clone(),
    ]
    .into_iter()
    .map(|addr| {
        let request = with_id.clone();
        std::thread::spawn(move || check(&addr, AGENT, &request))
    })
    .collect();
    let allowed = racers
        .into_iter()
        .map(|t| t.join().unwrap())
        .filter(|d| d["decision"] == "allow")
        .count();
    assert_eq!(allowed, 1);
    stop(a);
    stop(b);
    drop(redis);
}

/// Hosts that cannot ask (Codex, Gemini CLI, Copilot CLI), with `palisade
/// hook --server`: the block says where to approve; after `palisade
/// approvals approve`, the host's retry of the same call passes, once.
#[test]
fn a_hook_says_where_to_approve_and_its_retry_passes_once() {
    let dir = TempDir::new("approvals-hooks");
    let cfg = dir.write(
        "palisade.yaml",
        "keys:\n  \
         - { id: agent, env: AGENT_KEY, tenant: default, scopes: [guardrails:check] }\n  \
         - { id: ops, env: OPS_KEY, tenant: default, scopes: [guardrails:approve] }\n\
         audit: { path: audit.jsonl }\n",
    );
    let (server, addr) = start(&dir, &cfg);
    let url = format!("http://{addr}");
    let payloads = [
        (
            "codex",
            json!({"session_id": "c1", "turn_id": "t1", "cwd": "/home/dev/app", "hook_event_name": "PreToolUse",
                   "model": "gpt-5", "permission_mode": "default", "tool_name": "Bash",
                   "tool_input": {"command": "rm -rf target"}, "tool_use_id": "call_1"}),
        ),
        (
            "gemini-cli",
            json!({"session_id": "g1", "transcript_path": "", "cwd": "/home/dev/app", "hook_event_name": "BeforeTool",
                   "timestamp": "2026-11-25T10:00:00.000Z", "tool_name": "run_shell_command",
                   "tool_input": {"command": "rm -rf /home/dev/app/dist", "description": "clean"}}),
        ),
        (
            "copilot-cli",
            json!({"timestamp": 1764064800000_u64, "cwd": "/home/dev/app", "toolName": "bash",
                   "toolArgs": "{\"command\":\"rm -rf ~/app\"}"}),
        ),
    ];
    for (host, payload) in payloads {
        let hook = |payload: &Value| {
            palisade(&["hook", host, "--server", &url])
                .env("HOME", "/home/dev")
                .env("PALISADE_API_KEY", AGENT)
                .stdin(payload.to_string())
                .run()
        };
        let first = hook(&payload);
        let said = format!("{}{}", first.stdout_text(), first.stderr);
        assert!(said.contains("deny"), "{host}: {said}");
        let marker = "palisade approvals approve ";
        let at = said
            .find(marker)
            .unwrap_or_else(|| panic!("{host}: says where to approve: {said}"));
        let id: String = said[at + marker.len()..]
            .chars()
            .take_while(|c| c.is_ascii_hexdigit() || *c == '-')
            .collect();
        assert!(said.contains(&format!("--server {url}")), "{host}: {said}");
        assert!(said.contains("retry the same call"), "{host}: {said}");

        let listed = palisade(&["approvals", "list", "--server", &url])
            .env("PALISADE_API_KEY", OPS)
            .run();
        listed.code(0);
        assert!(
            listed.stdout_text().contains(&id),
            "{}",
            listed.stdout_text()
        );
        // The agent's key cannot approve.
        palisade(&["approvals", "approve", &id, "--server", &url])
            .env("PALISADE_API_KEY", AGENT)
            .run()
            .code(1);
        palisade(&[
            "approvals",
            "approve",
            &id,
            "--note",
            "ok",
            "--server",
            &url,
        ])
        .env("PALISADE_API_KEY", OPS)
        .run()
        .code(0);

        // Another call is still refused; the same one passes, once.
        let mut other = payload.clone();
        if host == "copilot-cli" {
            other["toolArgs"] = json!("{\"command\":\"rm -rf ~/other\"}");
        } else {
            other["tool_input"]["command"] = json!("rm -rf /");
        }
        let refused = hook(&other);
        assert!(
            refused.stdout_text().contains("deny") || refused.code != 0,
            "{host}"
        );
        let retried = hook(&payload);
        assert_eq!(
            (retried.code, retried.stdout_text()),
            (0, ""),
            "{host}: {}",
            retried.stderr
        );
        let again = hook(&payload);
        let said = format!("{}{}", again.stdout_text(), again.stderr);
        assert!(said.contains("deny"), "{host}: used once: {said}");
    }
    stop(server);
    palisade(&["audit", "verify", arg(&dir.path().join("audit.jsonl"))])
        .run()
        .code(0);
}

#[test]
fn with_a_base_url_approvals_are_absolute_and_hook_answers_name_the_server() {
    let dir = TempDir::new("approvals-base-url");
    let cfg = config(
        &dir,
        "approvals: { base_url: \"https://guard.example.com/\" }\n",
    );
    let (server, addr) = start(&dir, &cfg);
    let asked = check(&addr, AGENT, &deploy());
    let id = asked["approval"]["id"].as_str().unwrap().to_owned();
    assert_eq!(
        asked["approval"]["url"],
        format!("https://guard.example.com/v1/approvals/{id}"),
        "{asked}"
    );
    // A coding agent's hook posted straight to the service (Claude Code's
    // HTTP hook): the message names the server to approve at.
    let payload = json!({
        "session_id": "s-9", "hook_event_name": "PreToolUse", "cwd": "/repo",
        "tool_name": "deploy", "tool_input": {"service": "api"}
    });
    let (status, answer) = http(
        &addr,
        "POST",
        "/v1/hooks/claude-code",
        AGENT,
        Some(&payload),
    );
    assert_eq!(status, 200, "{answer}");
    let text = answer.to_string();
    assert!(
        text.contains("palisade approvals approve ")
            && text.contains("--server https://guard.example.com"),
        "{text}"
    );
    stop(server);
}
