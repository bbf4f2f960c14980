//! Coding agents' hooks (SPEC §10): a host's hook payload becomes v1
//! requests, and their decisions become the host's answer.
//!
//! Claude Code, Codex, Gemini CLI, Cursor and Copilot CLI each run a
//! *hook* before and after a tool runs (and on other events): a command fed
//! the event as JSON on stdin, whose answer (stdout and exit code) the host
//! obeys. Each host reads only its own answer format, and an answer it does
//! not understand lets the tool run, so each has its own module here.
//!
//! [`read`] maps a payload to a [`HookCall`]: the v1 requests to decide
//! (none for events Palisade has nothing to say about) and what the answer
//! needs. [`HookCall::answer`] turns their decisions into the host's
//! [`Answer`]; [`HookCall::refuse`] and [`refuse`] deny when Palisade
//! cannot decide (a malformed payload, an engine or service error), so that
//! a failure never lets a call through silently.
//!
//! Palisade only objects: when every decision allows, the answer is empty
//! and the host goes on as it would without the hook (its own permission
//! prompts included).
//!
//! ```
//! use palisade_engine::Engine;
//! use palisade_transport::hooks::{self, Host, HookEnv};
//!
//! let engine = Engine::default_policy()?;
//! let payload = br#"{"session_id": "s1", "cwd": "/home/dev/app", "hook_event_name": "PreToolUse",
//!   "tool_name": "Read", "tool_input": {"file_path": "/home/dev/app/.env"}}"#;
//! let call = hooks::read(Host::ClaudeCode, payload, &HookEnv::default())?;
//! let decisions: Vec<_> = call.requests().iter().map(|r| engine.evaluate(r)).collect::<Result<_, _>>()?;
//! let answer = call.answer(&decisions);
//! assert_eq!(answer.exit_code, 0);
//! let out = answer.stdout.unwrap();
//! assert_eq!(out["hookSpecificOutput"]["permissionDecision"], "deny");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod claude;
mod copilot;
mod cursor;
mod gemini;

use std::fmt;

use palisade_protocol::{Agent, Caller, CheckRequest, Decision, DecisionKind, Stage, Tool};
use serde_json::{Map, Value};

/// The largest payload read, in bytes (a tool's whole output can be large).
pub const MAX_PAYLOAD_BYTES: usize = 32 * 1024 * 1024;

/// A coding agent whose hooks Palisade answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Host {
    /// Anthropic's Claude Code (`claude-code`).
    ClaudeCode,
    /// OpenAI's Codex CLI (`codex`).
    Codex,
    /// Google's Gemini CLI (`gemini-cli`).
    GeminiCli,
    /// Cursor's agent (`cursor`).
    Cursor,
    /// GitHub Copilot CLI (`copilot-cli`).
    CopilotCli,
}

impl Host {
    /// Every host, in the order of SPEC §10.
    pub const ALL: &'static [Host] = &[
        Host::ClaudeCode,
        Host::Codex,
        Host::GeminiCli,
        Host::Cursor,
        Host::CopilotCli,
    ];

    /// The host's name on the command line and in `/v1/hooks/{host}`.
    pub const fn name(self) -> &'static str {
        match self {
            Host::ClaudeCode => "claude-code",
            Host::Codex => "codex",
            Host::GeminiCli => "gemini-cli",
            Host::Cursor => "cursor",
            Host::CopilotCli => "copilot-cli",
        }
    }

    /// The host of a name.
    pub fn from_name(name: &str) -> Option<Host> {
        Host::ALL.iter().copied().find(|h| h.name() == name)
    }

    /// Every host's name, for messages.
    pub fn names() -> String {
        let names: Vec<&str> = Host::ALL.iter().map(|h| h.name()).collect();
        names.join(", ")
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the hook's environment tells beyond the payload.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct HookEnv {
    /// The user's home directory (`~` in paths).
    pub home: Option<String>,
    /// The project's root directory as the host names it
    /// (`CLAUDE_PROJECT_DIR`, `GEMINI_PROJECT_DIR`), else the payload's.
    pub project_dir: Option<String>,
}

impl HookEnv {
    /// The environment of this process: `HOME`, and the project directory
    /// variable of `host`.
    pub fn from_process(host: Host) -> Self {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let project_dir = match host {
            Host::ClaudeCode => var("CLAUDE_PROJECT_DIR"),
            Host::GeminiCli => var("GEMINI_PROJECT_DIR").or_else(|| var("CLAUDE_PROJECT_DIR")),
            Host::Cursor => var("CURSOR_PROJECT_DIR"),
            Host::Codex | Host::CopilotCli => None,
        };
        Self {
            home: var("HOME"),
            project_dir,
        }
    }
}

/// What kind of moment a hook event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Moment {
    /// Before a tool runs (stage `tool_use`).
    BeforeTool,
    /// A permission prompt for a tool call (Claude Code, Codex).
    Permission,
    /// After a tool ran, before its output reaches the model (stage `tool_output`).
    AfterTool,
    /// Before a file's content is given to the model (Cursor).
    ReadFile,
    /// A prompt the user submitted (stage `input`).
    Prompt,
    /// A piece of the model's answer (stage `output`).
    ModelOutput,
    /// An event Palisade has nothing to decide about.
    Other,
}

/// A payload that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct HookError {
    /// What is wrong, naming the field.
    pub message: String,
    /// The host's name for the event, when it could be read.
    pub event: Option<String>,
}

impl HookError {
    fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            event: None,
        }
    }
}

/// A hook payload, read: the requests to decide and what the answer needs.
#[derive(Clone, Debug)]
pub struct HookCall {
    host: Host,
    /// The event as the host named it.
    event: String,
    moment: Moment,
    requests: Vec<CheckRequest>,
    /// What a rewrite replaces: the tool's input (before a tool), the
    /// model's response chunk (Gemini's `AfterModel`).
    original: Option<Value>,
    /// For a piece of a streamed answer: the key of its stream and the
    /// text of the stream before it that the request's content starts with
    /// (see [`HookCall::stream_key`]).
    stream: Option<Stream>,
}

/// A piece of a streamed answer and what came before it.
#[derive(Clone, Debug)]
struct Stream {
    key: String,
    /// Bytes of the content that are the earlier text (already shown).
    carried: usize,
}

/// The ends of streamed answers kept between their pieces, in memory, for
/// a long-lived process (the service): at most [`StreamTails::MAX`] streams,
/// each forgotten after [`StreamTails::TTL`] without a piece.
#[derive(Debug, Default)]
pub struct StreamTails {
    tails: std::sync::Mutex<std::collections::HashMap<String, (std::time::Instant, String)>>,
}

impl StreamTails {
    /// Streams kept at most; the oldest go first.
    pub const MAX: usize = 10_000;
    /// How long a stream's end is kept without a new piece.
    pub const TTL: std::time::Duration = std::time::Duration::from_secs(600);

    /// The end of the stream `key` so far ("" for a new one).
    pub fn get(&self, key: &str) -> String {
        let tails = self.tails.lock().unwrap_or_else(|e| e.into_inner());
        tails
            .get(key)
            .filter(|(at, _)| at.elapsed() < Self::TTL)
            .map(|(_, tail)| tail.clone())
            .unwrap_or_default()
    }

    /// Keeps the end of the stream `key`.
    pub fn put(&self, key: &str, tail: String) {
        let mut tails = self.tails.lock().unwrap_or_else(|e| e.into_inner());
        if tails.len() >= Self::MAX {
            tails.retain(|_, (at, _)| at.elapsed() < Self::TTL);
            while tails.len() >= Self::MAX {
                let oldest = tails
                    .iter()
                    .min_by_key(|(_, (at, _))| *at)
                    .map(|(k, _)| k.clone());
                match oldest {
                    Some(k) => tails.remove(&k),
                    None => break,
                };
            }
        }
        tails.insert(key.to_owned(), (std::time::Instant::now(), tail));
    }
}

/// How much of a streamed answer is carried into the next piece's check:
/// a credential or personal datum split across pieces is found whole.
pub const STREAM_CARRY_BYTES: usize = 4096;

/// The host's answer: what to print and the exit code.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The JSON to print on stdout (`None`: print nothing).
    pub stdout: Option<Value>,
    /// A line for stderr (the host shows it, or feeds it to the model when
    /// the exit code is 2).
    pub stderr: Option<String>,
    /// The exit code: 0, or 2 where the host reads it as "block".
    pub exit_code: u8,
}

impl Answer {
    /// Nothing to say: the host goes on.
    pub const fn silent() -> Self {
        Self {
            stdout: None,
            stderr: None,
            exit_code: 0,
        }
    }

    fn json(value: Value) -> Self {
        Self {
            stdout: Some(value),
            stderr: None,
            exit_code: 0,
        }
    }

    /// The body of `POST /v1/hooks/{host}`: the JSON, else `{}`.
    pub fn body(&self) -> Value {
        self.stdout
            .clone()
            .unwrap_or_else(|| Value::Object(Map::new()))
    }
}

/// Reads a host's hook payload.
pub fn read(host: Host, payload: &[u8], env: &HookEnv) -> Result<HookCall, HookError> {
    if payload.len() > MAX_PAYLOAD_BYTES {
        return Err(HookError::new(format!(
            "the hook payload is {} bytes; at most {MAX_PAYLOAD_BYTES} are read",
            payload.len()
        )));
    }
    let text = std::str::from_utf8(payload)
        .map_err(|e| HookError::new(format!("the hook payload is not UTF-8: {e}")))?;
    if text.trim().is_empty() {
        return Err(HookError::new(
            "the hook payload is empty; the host sends one JSON object on stdin",
        ));
    }
    // Repeated keys are refused: a host and Palisade must not read different values.
    let value = palisade_engine::parse_json(text)
        .map_err(|e| HookError::new(format!("the hook payload is not valid JSON: {e}")))?;
    let Value::Object(obj) = value else {
        return Err(HookError::new("the hook payload must be a JSON object"));
    };
    let p = Payload { obj: &obj, env };
    let call = match host {
        Host::ClaudeCode | Host::Codex => claude::read(host, &p),
        Host::GeminiCli => gemini::read(&p),
        Host::Cursor => cursor::read(&p),
        Host::CopilotCli => copilot::read(&p),
    };
    let mut call = call?;
    // Another host's event would pass unchecked here: a hook installed for
    // the wrong host is refused, not silently allowed.
    if call.moment == Moment::Other
        && let Some(other) = foreign(host, &call.event)
    {
        return Err(HookError {
            message: format!(
                "`{}` is an event of {other}, not of {host}; run `palisade hook {other}`",
                call.event
            ),
            event: Some(call.event),
        });
    }
    {
        for r in &mut call.requests {
            r.agent = Some(Agent {
                name: Some(host.name().to_owned()),
                ..Agent::default()
            });
            r.caller = Some(Caller {
                extension_id: Some(format!("palisade-hook/{}", host.name())),
                extension_version: Some(env!("CARGO_PKG_VERSION").to_owned()),
            });
        }
    }
    Ok(call)
}

/// The host whose checked event `event` is, when it is not `host`'s.
fn foreign(host: Host, event: &str) -> Option<Host> {
    const EVENTS: &[(Host, &[&str])] = &[
        (
            Host::ClaudeCode,
            &[
                "PreToolUse",
                "PostToolUse",
                "PermissionRequest",
                "UserPromptSubmit",
            ],
        ),
        (
            Host::GeminiCli,
            &["BeforeTool", "AfterTool", "BeforeAgent", "AfterModel"],
        ),
        (
            Host::Cursor,
            &[
                "beforeShellExecution",
                "beforeMCPExecution",
                "beforeReadFile",
                "beforeSubmitPrompt",
            ],
        ),
        (
            Host::CopilotCli,
            &["preToolUse", "postToolUse", "userPromptSubmitted"],
        ),
    ];
    EVENTS
        .iter()
        .find(|(h, events)| {
            events.contains(&event)
                && *h != host
                && !(host == Host::Codex && *h == Host::ClaudeCode)
        })
        .map(|(h, _)| *h)
}

impl HookCall {
    /// The host.
    pub fn host(&self) -> Host {
        self.host
    }

    /// The event, as the host named it.
    pub fn event(&self) -> &str {
        &self.event
    }

    /// What kind of moment the event is.
    pub fn moment(&self) -> Moment {
        self.moment
    }

    /// The v1 requests to decide (empty: nothing to decide).
    pub fn requests(&self) -> &[CheckRequest] {
        &self.requests
    }

    /// For a piece of a streamed answer (Gemini CLI's `AfterModel`, one
    /// call per chunk): the key of its stream (the session and the model
    /// request it answers). A hook runs once per piece, so whoever runs it
    /// keeps the end of the stream so far under this key (see
    /// [`carry`](Self::carry) and [`stream_tail`](Self::stream_tail)); a
    /// credential split across two pieces is then found whole.
    pub fn stream_key(&self) -> Option<&str> {
        self.stream.as_ref().map(|s| s.key.as_str())
    }

    /// Puts the end of the stream so far (as [`stream_tail`](Self::stream_tail)
    /// gave it after the previous piece) before this piece's text.
    pub fn carry(&mut self, tail: &str) {
        let (Some(stream), Some(request)) = (self.stream.as_mut(), self.requests.first_mut())
        else {
            return;
        };
        if tail.is_empty() || stream.carried > 0 {
            return;
        }
        let piece = request.content.take().unwrap_or_default();
        request.content = Some(format!("{tail}{piece}"));
        stream.carried = tail.len();
    }

    /// What to keep for the next piece, given this piece's decisions: the
    /// last [`STREAM_CARRY_BYTES`] of the stream as shown (redacted where
    /// the answer redacts). `None` when the call is not a stream's piece.
    pub fn stream_tail(&self, decisions: &[Decision]) -> Option<String> {
        self.stream.as_ref()?;
        let shown = match decisions.first() {
            Some(d) if d.decision == DecisionKind::Modify => {
                d.modified.as_ref().and_then(|m| m.content.clone())
            }
            _ => None,
        };
        let text = shown.or_else(|| self.requests.first()?.content.clone())?;
        let mut start = text.len().saturating_sub(STREAM_CARRY_BYTES);
        while !text.is_char_boundary(start) {
            start += 1;
        }
        Some(text.get(start..).unwrap_or_default().to_owned())
    }

    /// The host's answer to the decisions of [`requests`](Self::requests),
    /// in the same order. A missing decision, or one that is `error`,
    /// denies.
    pub fn answer(&self, decisions: &[Decision]) -> Answer {
        if self.requests.is_empty() {
            return Answer::silent();
        }
        if decisions.len() != self.requests.len() {
            return self.refuse(&format!(
                "{} decisions for {} requests",
                decisions.len(),
                self.requests.len()
            ));
        }
        let mut verdict = Verdict::of(decisions, self.moment);
        if let (Some(stream), Verdict::Rewrite { value, why, .. }) = (&self.stream, &mut verdict)
            && stream.carried > 0
        {
            // The content began with text already shown: only this piece can
            // be rewritten, and only when the change is within it.
            let carried = self
                .requests
                .first()
                .and_then(|r| r.content.as_deref())
                .and_then(|c| c.get(..stream.carried))
                .unwrap_or_default();
            match value.as_str().and_then(|s| s.strip_prefix(carried)) {
                Some(piece) => *value = Value::String(piece.to_owned()),
                None => {
                    verdict = Verdict::Deny(format!(
                        "{why} (it began in a part of the answer already shown, so the answer is stopped)"
                    ));
                }
            }
        }
        match self.host {
            Host::ClaudeCode | Host::Codex => claude::answer(self, &verdict),
            Host::GeminiCli => gemini::answer(self, &verdict),
            Host::Cursor => cursor::answer(self, &verdict),
            Host::CopilotCli => copilot::answer(self, &verdict),
        }
    }

    /// The host's answer when Palisade cannot decide: a deny that says why.
    pub fn refuse(&self, why: &str) -> Answer {
        let verdict = Verdict::Deny(format!(
            "Palisade could not check this, so it is refused: {why}"
        ));
        match self.host {
            Host::ClaudeCode | Host::Codex => claude::answer(self, &verdict),
            Host::GeminiCli => gemini::answer(self, &verdict),
            Host::Cursor => cursor::answer(self, &verdict),
            Host::CopilotCli => copilot::answer(self, &verdict),
        }
    }
}

/// The answer to a payload that could not be read: exit code 2 (which
/// every host reads as "block") with the reason on stderr, and on stdout
/// the legacy `{"decision": "block"}` that hosts reading JSON also obey.
pub fn refuse(host: Host, error: &HookError) -> Answer {
    let reason = format!("Palisade could not read this hook call, so it is refused: {error}");
    let stdout = match host {
        Host::Cursor => serde_json::json!({
            "permission": "deny", "continue": false,
            "user_message": reason, "agent_message": reason,
        }),
        Host::CopilotCli => serde_json::json!({
            "permissionDecision": "deny", "permissionDecisionReason": reason,
        }),
        Host::ClaudeCode | Host::Codex | Host::GeminiCli => {
            serde_json::json!({"decision": "block", "reason": reason})
        }
    };
    Answer {
        stdout: Some(stdout),
        stderr: Some(reason),
        exit_code: 2,
    }
}

/// The combined decision of a hook call, as hosts can act on it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Verdict {
    /// Go on.
    Allow,
    /// Ask the user, saying why (hosts that cannot ask deny).
    Ask(String),
    /// Refuse, saying why.
    Deny(String),
    /// Go on with this in place of the original: the tool's new arguments,
    /// the tool's new output, or the new text.
    Rewrite {
        value: Value,
        why: String,
        /// A replacement for a tool's output given by the policy (not a
        /// redaction of the output): with it the output is withheld.
        withheld: bool,
    },
}

impl Verdict {
    /// The most severe of the decisions: deny (block or error) before ask
    /// before rewrite before allow.
    fn of(decisions: &[Decision], moment: Moment) -> Verdict {
        let mut ask = None;
        let mut rewrite = None;
        for d in decisions {
            match d.decision {
                DecisionKind::Block => {
                    // A tool's output withheld by policy becomes the replacement.
                    if moment == Moment::AfterTool
                        && let Some(text) = &d.replacement
                    {
                        return Verdict::Rewrite {
                            value: Value::String(text.clone()),
                            why: reason(d),
                            withheld: true,
                        };
                    }
                    return Verdict::Deny(reason(d));
                }
                DecisionKind::Error => return Verdict::Deny(reason(d)),
                DecisionKind::Ask => ask = ask.or_else(|| Some(reason(d))),
                DecisionKind::Modify => {
                    if rewrite.is_none() {
                        rewrite = Some(d);
                    }
                }
                DecisionKind::Allow => {}
            }
        }
        if let Some(why) = ask {
            return Verdict::Ask(why);
        }
        let Some(d) = rewrite else {
            return Verdict::Allow;
        };
        let why = reason(d);
        let modified = d.modified.as_ref();
        let value = match moment {
            Moment::BeforeTool | Moment::Permission => modified.and_then(|m| m.arguments.clone()),
            Moment::AfterTool | Moment::ReadFile => modified.and_then(|m| {
                m.output
                    .clone()
                    .or_else(|| m.content.clone().map(Value::String))
            }),
            Moment::Prompt | Moment::ModelOutput => {
                modified.and_then(|m| m.content.clone().map(Value::String))
            }
            Moment::Other => None,
        };
        match value {
            Some(value) => Verdict::Rewrite {
                value,
                why,
                withheld: false,
            },
            // A rewrite of something the host cannot replace is a refusal.
            None => Verdict::Deny(format!(
                "{why} (the change cannot be applied to this call, so it is refused)"
            )),
        }
    }

    /// A rewrite as a refusal, for hosts that cannot rewrite this event.
    fn deny_rewrite(why: &str, value: &Value) -> String {
        match value {
            Value::String(s) => format!("{why}. The permitted text is:\n{s}"),
            _ => format!("{why} (this host cannot apply the change, so it is refused)"),
        }
    }
}

/// One line telling the host (and the model) why.
fn reason(d: &Decision) -> String {
    let mut out = String::from("Palisade: ");
    match d.findings().next() {
        Some(v) => {
            out.push_str(v.name.as_deref().unwrap_or(&v.check_id));
            if let Some(m) = &v.message {
                out.push_str(": ");
                out.push_str(m);
            }
            out.push_str(&format!(" [{}]", v.check_id));
            if let Some(s) = &v.suggestion {
                out.push_str(". ");
                out.push_str(s);
            }
        }
        None => out.push_str(
            d.message
                .as_deref()
                .or(d.reason_code.as_deref())
                .unwrap_or("refused by policy"),
        ),
    }
    if let Some(a) = &d.approval {
        out.push_str(&palisade_checks::approvals::hint(a));
    }
    out
}

/// A payload's members, read with errors that name them.
pub(crate) struct Payload<'a> {
    obj: &'a Map<String, Value>,
    env: &'a HookEnv,
}

impl<'a> Payload<'a> {
    /// A string member, if present; an error if it is not a string.
    fn str(&self, key: &str) -> Result<Option<&'a str>, HookError> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(other) => Err(HookError::new(format!(
                "`{key}` must be a string, not {}",
                palisade_engine::json_type(other)
            ))),
        }
    }

    /// A string member that must be there and not empty.
    fn required_str(&self, key: &str) -> Result<&'a str, HookError> {
        match self.str(key)? {
            Some(s) if !s.is_empty() => Ok(s),
            Some(_) => Err(HookError::new(format!("`{key}` must not be empty"))),
            None => Err(HookError::new(format!("`{key}` is missing"))),
        }
    }

    /// A member holding a tool's arguments: an object, or a string holding
    /// one (as Cursor and Copilot CLI send them); absent is `{}`.
    fn arguments(&self, key: &str) -> Result<Value, HookError> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(Value::Object(Map::new())),
            Some(Value::String(s)) if s.trim().is_empty() => Ok(Value::Object(Map::new())),
            Some(Value::String(s)) => match palisade_engine::parse_json(s) {
                Ok(v @ Value::Object(_)) => Ok(v),
                Ok(other) => Err(HookError::new(format!(
                    "`{key}` must hold a JSON object, not {}",
                    palisade_engine::json_type(&other)
                ))),
                Err(e) => Err(HookError::new(format!(
                    "`{key}` is a string that is not a JSON object: {e}"
                ))),
            },
            Some(v @ Value::Object(_)) => Ok(v.clone()),
            Some(other) => Err(HookError::new(format!(
                "`{key}` must be an object, not {}",
                palisade_engine::json_type(other)
            ))),
        }
    }

    /// The arguments of a tool about to run: [`Self::arguments`], but a
    /// missing member is an error, as what the tool would do cannot be
    /// judged without them.
    fn required_arguments(&self, key: &str) -> Result<Value, HookError> {
        if self.get(key).is_none() {
            return Err(HookError::new(format!(
                "`{key}` is missing: the arguments of the tool about to run are needed to judge it"
            )));
        }
        self.arguments(key)
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.obj.get(key).filter(|v| !v.is_null())
    }

    /// A request with what every host's requests share: the session, the
    /// working directory and workspace, the home directory, whether a human
    /// can be asked.
    fn request(
        &self,
        stage: Stage,
        session: Option<&str>,
        cwd: Option<&str>,
        workspace: Option<&str>,
        interactive: bool,
    ) -> CheckRequest {
        let mut r = CheckRequest::new().with_stage(stage);
        r.session_id = session.filter(|s| !s.is_empty()).map(str::to_owned);
        if let Some(cwd) = cwd.filter(|c| !c.is_empty()) {
            r = r.with_context("cwd", cwd);
        }
        let root = self
            .env
            .project_dir
            .as_deref()
            .or(workspace)
            .or(cwd)
            .filter(|w| !w.is_empty());
        if let Some(root) = root {
            r = r.with_context("workspaceRoot", root);
        }
        if let Some(home) = self.env.home.as_deref() {
            r = r.with_context("home", home);
        }
        let mut r = r.interactive(interactive);
        // A host sends a refused call again as it was, without an
        // approval's id: an approval given for this very call is used.
        r.options
            .get_or_insert_with(Default::default)
            .approval_by_call = Some(true);
        r
    }
}

/// A tool call's request.
fn tool_request(
    mut base: CheckRequest,
    name: &str,
    arguments: Value,
    call_id: Option<&str>,
) -> CheckRequest {
    let mut tool = Tool::new(name).with_arguments(arguments);
    tool.call_id = call_id.map(str::to_owned);
    base.request_id = call_id.filter(|c| !c.is_empty()).map(str::to_owned);
    base.tool = Some(tool);
    base
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_named() {
        for &h in Host::ALL {
            assert_eq!(Host::from_name(h.name()), Some(h));
        }
        assert_eq!(Host::from_name("claude"), None);
    }

    #[test]
    fn unreadable_payloads_are_errors_that_say_why() {
        let env = HookEnv::default();
        let e = read(Host::ClaudeCode, b"", &env).unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
        let e = read(Host::ClaudeCode, b"[1]", &env).unwrap_err();
        assert!(e.message.contains("JSON object"), "{e}");
        let e = read(Host::ClaudeCode, b"{\"hook_event_name\": ", &env).unwrap_err();
        assert!(e.message.contains("not valid JSON"), "{e}");
        let e = read(Host::ClaudeCode, &[0xff, 0xfe], &env).unwrap_err();
        assert!(e.message.contains("UTF-8"), "{e}");
        let dup = br#"{"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_name": "Bash"}"#;
        assert!(read(Host::ClaudeCode, dup, &env).is_err(), "repeated keys");
        let a = refuse(Host::ClaudeCode, &e);
        assert_eq!(a.exit_code, 2);
        assert!(a.stderr.unwrap().contains("refused"));
    }
}
