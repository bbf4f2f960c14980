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
    let mut call = match hooks::read(host, &payload, &HookEnv::from_process(host)) {
        Ok(call) => call,
        Err(e) => return hooks::refuse(host, &e),
    };
    if call.requests().is_empty() {
        return Answer::silent();
    }
    // A piece of a streamed answer is checked with the end of the answer
    // so far, which the previous piece's run kept in a file.
    let stream = call.stream_key().map(tails::path);
    if let Some(Some(path)) = &stream {
        call.carry(&tails::read(path));
    }
    match decisions(&call, args) {
        Ok(decisions) => {
            if let (Some(Some(path)), Some(tail)) = (&stream, call.stream_tail(&decisions)) {
                tails::write(path, &tail);
            }
            call.answer(&decisions)
        }
        Err(why) => call.refuse(&why),
    }
}

/// The ends of streamed answers between the runs of a hook: one file per
/// stream (named by its key, a hash), in a directory only the user can read,
/// removed after an hour without a piece.
mod tails {
    use std::path::{Path, PathBuf};
    use std::time::{Duration, SystemTime};

    const KEEP: Duration = Duration::from_secs(3600);

    fn dir() -> Option<PathBuf> {
        let base = std::env::var_os("XDG_RUNTIME_DIR")
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir);
        let user = std::env::var("USER").unwrap_or_else(|_| "user".to_owned());
        let dir = base.join(format!("palisade-streams-{user}"));
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&dir).ok()?;
        // A directory someone else made (in a shared temporary directory)
        // is not used: its files could be read or planted.
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::symlink_metadata(&dir).ok()?;
            let mine = meta.is_dir() && meta.mode() & 0o077 == 0 && meta.uid() == own_uid()?;
            if !mine {
                return None;
            }
        }
        Some(dir)
    }

    /// This process's user id, as the owner of a file it just made.
    #[cfg(unix)]
    fn own_uid() -> Option<u32> {
        use std::os::unix::fs::MetadataExt;
        let probe = std::env::temp_dir().join(format!("palisade-uid-{}", std::process::id()));
        std::fs::write(&probe, b"").ok()?;
        let uid = std::fs::metadata(&probe).ok().map(|m| m.uid());
        let _ = std::fs::remove_file(&probe);
        uid
    }

    /// The file of the stream `key` (a hex digest), if a directory can be had.
    pub(super) fn path(key: &str) -> Option<PathBuf> {
        let key: String = key.chars().filter(char::is_ascii_hexdigit).collect();
        Some(dir()?.join(format!("{key}.tail")))
    }

    /// The end of the stream so far ("" when new, unreadable or stale).
    pub(super) fn read(path: &Path) -> String {
        let fresh = std::fs::metadata(path)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age < KEEP);
        if !fresh {
            sweep(path.parent());
            return String::new();
        }
        std::fs::read_to_string(path).unwrap_or_default()
    }

    /// Keeps the end of the stream (a failure only loses the carry-over).
    pub(super) fn write(path: &Path, tail: &str) {
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let written = options
            .open(&tmp)
            .and_then(|mut f| std::io::Write::write_all(&mut f, tail.as_bytes()))
            .and_then(|()| std::fs::rename(&tmp, path));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }

    /// Removes the files of streams that ended long ago.
    fn sweep(dir: Option<&Path>) {
        let Some(entries) = dir.and_then(|d| std::fs::read_dir(d).ok()) else {
            return;
        };
        for entry in entries.flatten() {
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| SystemTime::now().duration_since(t).ok())
                .is_some_and(|age| age >= KEEP);
            if old {
                let _ = std::fs::remove_file(entry.path());
            }
        }
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
    // The process ends with this call: what its sessions would keep is lost
    // with it, so none is kept.
    let engine = engine(args.policy.as_deref())?.forget_sessions();
    let decisions = call
        .requests()
        .iter()
        .map(|r| {
            engine
                .evaluate(r)
                .map_err(|e| format!("invalid request: {e}"))
        })
        .collect();
    // The process ends with this call, and its memory with it: freeing the
    // engine's many small pieces one by one would only take time.
    std::mem::forget(engine);
    decisions
}

/// The policy's engine, its stages built as the request needs them.
fn engine(path: Option<&Path>) -> Result<Engine, String> {
    let policy = match path {
        None => Policy::default_policy(),
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
            let mut decision: Decision = serde_json::from_slice(&body).map_err(|e| {
                format!("the service at {url} answered something else than a decision: {e}")
            })?;
            // Where to approve, as a person can reach it.
            if let Some(a) = &mut decision.approval
                && a.url.starts_with('/')
            {
                a.url = format!("{}{}", url.trim_end_matches('/'), a.url);
            }
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
