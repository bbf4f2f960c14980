//! `palisade hook HOST`: one coding agent's hook call. Reads the host's
//! payload on stdin, decides its requests (with the policy, a service
//! config, or a running service) and answers in the host's format.
//!
//! It never crashes or hangs: every failure is a deny that says why, and a
//! watchdog answers with a deny when the decision takes too long, well
//! inside the hosts' own timeouts (which let the call through).

use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use palisade_checks::audit::JsonlAudit;
use palisade_checks::{Guard, GuardError};
use palisade_engine::{Engine, Policy};
use palisade_protocol::Decision;
use palisade_transport::ServiceConfig;
use palisade_transport::hooks::{self, Answer, HookCall, HookEnv, Host};

use crate::HookArgs;

/// The environment variable holding the API key for `--server`, unless
/// `--key-env` names another.
pub(crate) const KEY_ENV: &str = "PALISADE_API_KEY";

/// Runs the hook; the exit code is the answer's.
pub(crate) fn run(args: &HookArgs) -> u8 {
    let Some(host) = Host::from_name(&args.host) else {
        eprintln!(
            "error: unknown host `{}`; expected one of {}",
            args.host,
            Host::names()
        );
        return 2;
    };
    let answered = Arc::new(AnswerOnce::default());
    watchdog(
        host,
        Duration::from_millis(args.timeout_ms),
        answered.clone(),
    );
    let answer = decide(host, args);
    // `None`: the watchdog answered (and ends the process with its code).
    answered.emit(&answer).unwrap_or(2)
}

/// Reads, decides and answers.
fn decide(host: Host, args: &HookArgs) -> Answer {
    let mut payload = Vec::new();
    let limit = hooks::MAX_PAYLOAD_BYTES as u64 + 1;
    if let Err(e) = std::io::stdin().take(limit).read_to_end(&mut payload) {
        return hooks::refuse(host, &error(format!("cannot read stdin: {e}")));
    }
    let call = match hooks::read(host, &payload, &HookEnv::from_process(host)) {
        Ok(call) => call,
        Err(e) => return hooks::refuse(host, &e),
    };
    if call.requests().is_empty() {
        return Answer::silent();
    }
    match decisions(&call, args) {
        Ok(decisions) => call.answer(&decisions),
        Err(why) => call.refuse(&why),
    }
}

fn error(message: String) -> hooks::HookError {
    hooks::HookError {
        message,
        event: None,
    }
}

/// The decisions of the call's requests, from the service, the guard of a
/// config, or the policy.
fn decisions(call: &HookCall, args: &HookArgs) -> Result<Vec<Decision>, String> {
    if let Some(url) = &args.server {
        return remote(call, url, &args.key_env);
    }
    if let Some(config) = &args.config {
        return guarded(call, config, args.policy.as_deref());
    }
    let engine = engine(args.policy.as_deref())?;
    call.requests()
        .iter()
        .map(|r| {
            engine
                .evaluate(r)
                .map_err(|e| format!("invalid request: {e}"))
        })
        .collect()
}

/// The policy's engine, its stages built as the request needs them.
fn engine(path: Option<&Path>) -> Result<Engine, String> {
    let policy = match path {
        None => Policy::from_yaml_str(palisade_engine::DEFAULT_POLICY),
        Some(p) => Policy::from_path(p),
    };
    let policy = policy.map_err(|errors| match path {
        Some(p) => format!("the policy {} is invalid: {errors}", p.display()),
        None => format!("the embedded default policy is invalid: {errors}"),
    })?;
    Ok(Engine::lazy(policy))
}

/// Decisions by a guard: async checks run and decisions are audited as the
/// service config says.
fn guarded(call: &HookCall, config: &Path, policy: Option<&Path>) -> Result<Vec<Decision>, String> {
    let config = ServiceConfig::from_path(config)
        .map_err(|e| format!("the config {} is invalid: {e}", config.display()))?;
    let engine = engine(policy.or(config.policy.as_deref()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async {
        let mut guard = Guard::new(engine, &config.guard).map_err(|e| e.to_string())?;
        if let Some(audit) = &config.guard.audit {
            let log = JsonlAudit::open(&audit.path, audit.durability)
                .await
                .map_err(|e| e.to_string())?;
            guard = guard.with_audit(Arc::new(log));
        }
        let mut out = Vec::new();
        let mut failed = None;
        for r in call.requests() {
            match guard.check(r).await {
                Ok(d) => out.push(d),
                Err(GuardError::Request(e)) => {
                    failed = Some(format!("invalid request: {e}"));
                    break;
                }
                Err(e) => {
                    failed = Some(e.to_string());
                    break;
                }
            }
        }
        let closed = guard.shutdown().await;
        if let Some(why) = failed {
            return Err(why);
        }
        closed.map_err(|e| e.to_string())?;
        Ok(out)
    })
}

/// Decisions by a running service (`POST /v1/check`).
fn remote(call: &HookCall, url: &str, key_env: &str) -> Result<Vec<Decision>, String> {
    let key = std::env::var(key_env).ok().filter(|k| !k.is_empty());
    let endpoint = format!("{}/v1/check", url.trim_end_matches('/'));
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    runtime.block_on(async {
        let mut out = Vec::new();
        for r in call.requests() {
            let mut request = client.post(&endpoint).json(r);
            if let Some(key) = &key {
                request = request.bearer_auth(key);
            }
            let response = request
                .send()
                .await
                .map_err(|e| format!("the service at {url} did not answer: {e}"))?;
            let status = response.status();
            let body = response
                .bytes()
                .await
                .map_err(|e| format!("the service at {url} did not answer: {e}"))?;
            if !status.is_success() {
                let text = String::from_utf8_lossy(&body);
                let hint = if status.as_u16() == 401 && key.is_none() {
                    format!(" (set {key_env} to an API key of the service)")
                } else {
                    String::new()
                };
                return Err(format!(
                    "the service at {url} answered {status}{hint}: {}",
                    text.trim()
                ));
            }
            let decision: Decision = serde_json::from_slice(&body).map_err(|e| {
                format!("the service at {url} answered something else than a decision: {e}")
            })?;
            out.push(decision);
        }
        Ok(out)
    })
}

/// Writes the one answer of the process: the decision's, or the
/// watchdog's, whichever comes first.
#[derive(Default)]
struct AnswerOnce {
    done: AtomicBool,
    lock: Mutex<()>,
}

impl AnswerOnce {
    /// Writes `answer` unless one was written; gives its exit code.
    fn emit(&self, answer: &Answer) -> Option<u8> {
        let _held = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        if self.done.swap(true, Ordering::SeqCst) {
            return None;
        }
        let mut code = answer.exit_code;
        if let Some(json) = &answer.stdout {
            let mut out = std::io::stdout().lock();
            let written = serde_json::to_writer(&mut out, json)
                .map_err(std::io::Error::other)
                .and_then(|()| out.write_all(b"\n"))
                .and_then(|()| out.flush());
            if written.is_err() {
                // The host did not get the answer: exit code 2 still blocks.
                code = 2;
            }
        }
        if let Some(line) = &answer.stderr {
            eprintln!("{line}");
        }
        Some(code)
    }
}

/// After `after`, answers with a deny and ends the process.
fn watchdog(host: Host, after: Duration, answered: Arc<AnswerOnce>) {
    std::thread::spawn(move || {
        std::thread::sleep(after);
        let e = error(format!(
            "no decision within {} ms (raise --timeout-ms, or check the service)",
            after.as_millis()
        ));
        if let Some(code) = answered.emit(&hooks::refuse(host, &e)) {
            std::process::exit(i32::from(code));
        }
    });
}
