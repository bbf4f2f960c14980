//! One proxied MCP session: the client's messages and the upstream
//! server's, as JSON-RPC lines, with Palisade deciding in between.
//!
//! Messages the gateway does not judge pass through byte for byte. It
//! decides on the message it parsed and forwards the bytes it read, so a
//! message that two parsers could read differently (a repeated key, bytes
//! that are not UTF-8, a batch) is refused rather than forwarded.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use palisade_engine::tooldefs::{KnownTool, judge_definition};
use palisade_protocol::{
    Agent, CheckRequest, Decision, DecisionKind, Finding, FindingAction, Severity, Stage, Tool,
};
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot};

use super::lines::{Line, id_in_head};
use super::pins::{PinVerdict, fingerprint};
use super::{GatewayOptions, PoisonedTools};
use crate::service::Service;
use palisade_checks::approvals::Answer;

/// JSON-RPC: the message is not JSON.
const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the message is not a valid request.
const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: the parameters are not valid.
const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC: the upstream server failed (stopped, no answer in time, an
/// answer that could not be read).
const UPSTREAM_ERROR: i64 = -32603;
/// A result withheld by policy (`resources/read`, `prompts/get`: their
/// results have no `isError`).
pub(crate) const REFUSED: i64 = -32005;
/// Who answered an approval through MCP elicitation (its `answeredBy`):
/// the person at the client, who holds no key of the service.
const ELICITATION: &str = "mcp-elicitation";

/// A request of the client in flight.
#[derive(Debug)]
struct Pending {
    kind: Kind,
    /// Told apart from a later request that reuses the id.
    serial: u64,
}

/// What a request of the client asks, as far as its answer is judged.
#[derive(Clone, Debug)]
enum Kind {
    Other,
    ToolsList,
    ToolsCall { name: String, arguments: Value },
    ResourceRead { uri: Value },
    PromptGet { name: String, arguments: Value },
}

/// A tool as the gateway judged its definition.
#[derive(Clone, Debug)]
enum Shown {
    Yes,
    /// Listed, with a warning (`gateway.poisoned_tools: warn`).
    Warned {
        code: &'static str,
        reason: String,
    },
    Hidden {
        code: &'static str,
        reason: String,
    },
}

impl Shown {
    /// Whether the client sees the tool and may call it.
    fn listed(&self) -> bool {
        !matches!(self, Shown::Hidden { .. })
    }
}

#[derive(Debug, Default)]
struct State {
    pending: HashMap<String, Pending>,
    /// The gateway's own requests to the upstream server, by id.
    own_upstream: HashMap<String, oneshot::Sender<Value>>,
    /// The gateway's own requests to the client (elicitation), by id.
    own_client: HashMap<String, oneshot::Sender<Value>>,
    /// The tools judged, by name; `None` until a list was read.
    tools: Option<HashMap<String, Shown>>,
    /// The listed tools' descriptions, by name: carried in each call's
    /// request (`tool.description`), where a flow rule reads an effect
    /// the tool's name does not say.
    descriptions: HashMap<String, String>,
    /// How many times the server said its tools changed.
    changes: u64,
    /// The value of `changes` when the whole list was last read and judged:
    /// a call waits for the list to be read again when they differ.
    judged: Option<u64>,
    /// The client said it can answer `elicitation/create`.
    elicits: bool,
    client: Option<Agent>,
    /// The `_meta` of the client's last request that carried the protocol
    /// version in it (protocol revisions without `initialize`): the
    /// gateway's own requests carry it too.
    meta: Option<Value>,
    /// Why the upstream server is gone.
    gone: Option<String>,
    /// Answers being judged (no longer pending, not yet sent).
    judging: usize,
    /// The judgements of tool definitions already audited in this session
    /// (tool, code, reason): each once, however often the list is read.
    audited: HashSet<(String, &'static str, String)>,
}

impl State {
    /// Whether every request of the client was answered.
    fn idle(&self) -> bool {
        self.pending.is_empty() && self.judging == 0
    }

    /// Whether the tools were judged since the server last said they changed.
    fn fresh(&self) -> bool {
        self.tools.is_some() && self.judged == Some(self.changes)
    }
}

/// One session between a client and an upstream server.
pub(crate) struct Session {
    service: Arc<Service>,
    options: GatewayOptions,
    id: String,
    to_client: mpsc::UnboundedSender<String>,
    to_upstream: mpsc::UnboundedSender<String>,
    state: std::sync::Mutex<State>,
    serial: AtomicU64,
    /// One reading of the tool list at a time.
    refreshing: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("server", &self.options.name)
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// What the gateway reads from either side.
#[derive(Debug)]
pub(crate) enum Incoming {
    Client(Line),
    Upstream(Line),
    /// The client closed its side.
    ClientEnd,
    /// The upstream server is gone, and why.
    UpstreamEnd(String),
}

impl Session {
    pub(crate) fn new(
        service: Arc<Service>,
        options: GatewayOptions,
        id: String,
        to_client: mpsc::UnboundedSender<String>,
        to_upstream: mpsc::UnboundedSender<String>,
    ) -> Arc<Self> {
        Arc::new(Session {
            service,
            options,
            id,
            to_client,
            to_upstream,
            state: std::sync::Mutex::new(State::default()),
            serial: AtomicU64::new(0),
            refreshing: tokio::sync::Mutex::new(()),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Handles messages until the client closes its side.
    /// Handles messages until the client closes its side and the requests
    /// it sent before are answered (or the wait for answers is over).
    pub(crate) async fn run(self: &Arc<Self>, mut incoming: mpsc::Receiver<Incoming>) {
        let mut ended: Option<tokio::time::Instant> = None;
        loop {
            if ended.is_some() && self.state().idle() {
                break;
            }
            let item = match ended {
                None => incoming.recv().await,
                Some(deadline) if tokio::time::Instant::now() >= deadline => break,
                // Answers being judged send no message when they are done:
                // look again shortly.
                Some(_) => match tokio::time::timeout(
                    std::time::Duration::from_millis(20),
                    incoming.recv(),
                )
                .await
                {
                    Ok(item) => item,
                    Err(_) => continue,
                },
            };
            let Some(item) = item else { break };
            match item {
                Incoming::Client(line) if ended.is_none() => self.from_client(line),
                Incoming::Client(_) => {}
                Incoming::Upstream(line) => self.from_upstream(line),
                Incoming::ClientEnd => {
                    // A client that closed with a request unanswered (a
                    // pipe) gets its answers; one left hanging, not forever.
                    let wait = self.options.timeout.min(std::time::Duration::from_secs(30));
                    ended.get_or_insert_with(|| tokio::time::Instant::now() + wait);
                }
                Incoming::UpstreamEnd(why) => self.upstream_gone(why),
            }
        }
    }

    fn send_client(&self, message: String) {
        let _ = self.to_client.send(message);
    }

    fn send_upstream(&self, message: String) {
        let _ = self.to_upstream.send(message);
    }

    fn error_to_client(&self, id: &Value, code: i64, message: impl Into<String>) {
        self.send_client(
            json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
                .to_string(),
        );
    }

    fn result_to_client(&self, id: &Value, result: Value) {
        self.send_client(json!({"jsonrpc": "2.0", "id": id, "result": result}).to_string());
    }

    fn next_serial(&self) -> u64 {
        self.serial.fetch_add(1, Ordering::Relaxed)
    }

    fn own_id(&self) -> String {
        format!("palisade-{}-{}", self.id, self.next_serial())
    }

    // ---- from the client ------------------------------------------------

    fn from_client(self: &Arc<Self>, line: Line) {
        let text = match line {
            Line::Message(text) if text.trim().is_empty() => return,
            Line::Message(text) => text,
            Line::NotText => {
                self.error_to_client(&Value::Null, PARSE_ERROR, "the message is not UTF-8 text");
                return;
            }
            Line::TooLarge { head, len } => {
                let id = id_in_head(&head).unwrap_or(Value::Null);
                self.error_to_client(
                    &id,
                    INVALID_REQUEST,
                    format!(
                        "the message has {len} bytes, over the gateway's limit of {} bytes; it was not forwarded",
                        self.options.max_message_bytes
                    ),
                );
                return;
            }
        };
        let message = match palisade_engine::parse_json(&text) {
            Ok(Value::Object(message)) => message,
            Ok(Value::Array(_)) => {
                self.error_to_client(
                    &Value::Null,
                    INVALID_REQUEST,
                    "JSON-RPC batches are not part of MCP: send one message per line",
                );
                return;
            }
            Ok(_) => {
                self.error_to_client(&Value::Null, INVALID_REQUEST, "a message is a JSON object");
                return;
            }
            Err(e) => {
                // The id of a message with a repeated key can still be read.
                let id = serde_json::from_str::<Value>(&text)
                    .ok()
                    .and_then(|v| v.get("id").cloned())
                    .unwrap_or(Value::Null);
                let code = if id.is_null() && serde_json::from_str::<Value>(&text).is_err() {
                    PARSE_ERROR
                } else {
                    INVALID_REQUEST
                };
                self.error_to_client(&id, code, format!("not forwarded: {e}"));
                return;
            }
        };
        let id = message.get("id").cloned();
        match (message.get("method"), id) {
            (Some(Value::String(method)), Some(id)) => {
                let method = method.clone();
                self.client_request(method, id, message, text);
            }
            // Notifications (initialized, cancelled, progress, roots) pass as they are.
            (Some(Value::String(_)), None) => self.send_upstream(text),
            (Some(_), id) => {
                if let Some(id) = id {
                    self.error_to_client(&id, INVALID_REQUEST, "`method` is not a string");
                }
            }
            (None, Some(id)) => {
                // The client's answer to a request: the gateway's own, or the server's.
                let waiter = self.state().own_client.remove(&id.to_string());
                match waiter {
                    Some(waiter) => {
                        let _ = waiter.send(Value::Object(message));
                    }
                    None => self.send_upstream(text),
                }
            }
            (None, None) => {
                self.error_to_client(
                    &Value::Null,
                    INVALID_REQUEST,
                    "a message needs a `method` or an `id`",
                );
            }
        }
    }

    fn client_request(
        self: &Arc<Self>,
        method: String,
        id: Value,
        message: Map<String, Value>,
        text: String,
    ) {
        if !(id.is_string() || id.is_number()) {
            self.error_to_client(
                &Value::Null,
                INVALID_REQUEST,
                "a request id is a string or a number",
            );
            return;
        }
        let params = message.get("params").cloned().unwrap_or(Value::Null);
        self.note_client(&method, &params);
        let kind = match method.as_str() {
            "tools/list" => Kind::ToolsList,
            "tools/call" => {
                let Some(name) = params.get("name").and_then(Value::as_str) else {
                    self.error_to_client(
                        &id,
                        INVALID_PARAMS,
                        "`params.name` of `tools/call` must be a string",
                    );
                    return;
                };
                let arguments = match params.get("arguments") {
                    None | Some(Value::Null) => Value::Object(Map::new()),
                    Some(a @ Value::Object(_)) => a.clone(),
                    Some(_) => {
                        self.error_to_client(
                            &id,
                            INVALID_PARAMS,
                            "`params.arguments` of `tools/call` must be an object",
                        );
                        return;
                    }
                };
                Kind::ToolsCall {
                    name: name.to_owned(),
                    arguments,
                }
            }
            "resources/read" => Kind::ResourceRead {
                uri: params.get("uri").cloned().unwrap_or(Value::Null),
            },
            "prompts/get" => Kind::PromptGet {
                name: params
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                arguments: params.get("arguments").cloned().unwrap_or(Value::Null),
            },
            _ => Kind::Other,
        };
        let key = id.to_string();
        let serial = self.next_serial();
        {
            let mut state = self.state();
            if state.pending.contains_key(&key) {
                drop(state);
                self.error_to_client(
                    &id,
                    INVALID_REQUEST,
                    format!(
                        "request id {key} is already in use by a request in flight; not forwarded"
                    ),
                );
                return;
            }
            if let Some(why) = state.gone.clone() {
                drop(state);
                self.error_to_client(&id, UPSTREAM_ERROR, why);
                return;
            }
            state.pending.insert(
                key.clone(),
                Pending {
                    kind: kind.clone(),
                    serial,
                },
            );
        }
        match kind {
            Kind::ToolsCall { name, arguments } => {
                let session = self.clone();
                tokio::spawn(async move {
                    session
                        .decide_call(id, key, serial, name, arguments, text)
                        .await;
                });
            }
            _ => self.forward(&id, key, serial, text),
        }
    }

    /// What the client said of itself: its name, and whether it answers
    /// elicitation (in `initialize`, or per request in `_meta`).
    fn note_client(&self, method: &str, params: &Value) {
        let meta = params.get("_meta");
        let (info, capabilities) = if method == "initialize" {
            (params.get("clientInfo"), params.get("capabilities"))
        } else {
            (
                meta.and_then(|m| m.get("io.modelcontextprotocol/clientInfo")),
                meta.and_then(|m| m.get("io.modelcontextprotocol/clientCapabilities")),
            )
        };
        let mut state = self.state();
        if let Some(meta) =
            meta.filter(|m| m.get("io.modelcontextprotocol/protocolVersion").is_some())
        {
            state.meta = Some(meta.clone());
        }
        if let Some(capabilities) = capabilities {
            state.elicits = capabilities
                .get("elicitation")
                .is_some_and(Value::is_object);
        }
        if let Some(info) = info {
            let text = |k: &str| info.get(k).and_then(Value::as_str).map(str::to_owned);
            state.client = Some(Agent {
                name: text("name"),
                version: text("version"),
                ..Agent::default()
            });
        }
    }

    /// Sends a request of the client upstream and gives it the time it has.
    fn forward(self: &Arc<Self>, id: &Value, key: String, serial: u64, text: String) {
        self.send_upstream(text);
        let session = self.clone();
        let id = id.clone();
        tokio::spawn(async move {
            tokio::time::sleep(session.options.timeout).await;
            let timed_out = {
                let mut state = session.state();
                match state.pending.get(&key) {
                    Some(p) if p.serial == serial => state.pending.remove(&key).is_some(),
                    _ => false,
                }
            };
            if timed_out {
                session.send_upstream(
                    json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                           "params": {"requestId": id, "reason": "no answer in time"}})
                    .to_string(),
                );
                session.error_to_client(
                    &id,
                    UPSTREAM_ERROR,
                    format!(
                        "the MCP server `{}` did not answer within {} s; the request was cancelled",
                        session.options.name,
                        session.options.timeout.as_secs()
                    ),
                );
            }
        });
    }

    /// Answers a request of the client that is not forwarded.
    fn finish(&self, key: &str) {
        self.state().pending.remove(key);
    }

    async fn decide_call(
        self: Arc<Self>,
        id: Value,
        key: String,
        serial: u64,
        name: String,
        arguments: Value,
        text: String,
    ) {
        let request = self.request(Stage::ToolUse, &name, Some(arguments.clone()), &id, None);
        let shown = match self.tool(&name).await {
            Ok(shown) => shown,
            Err(why) => Shown::Hidden {
                code: "mcp.tools_unknown",
                reason: why,
            },
        };
        if let Shown::Hidden { code, reason } = shown {
            let text = match self.refuse(&request, code, &reason).await {
                Ok(d) => blocked_text(&d),
                Err(e) => e,
            };
            self.finish(&key);
            self.result_to_client(&id, tool_error(&text));
            return;
        }
        let decision = match self.decide(&request).await {
            Ok(d) => d,
            Err(e) => {
                self.finish(&key);
                self.result_to_client(&id, tool_error(&e));
                return;
            }
        };
        let forward = match decision.decision {
            DecisionKind::Allow => Some(text),
            DecisionKind::Modify => {
                let rewritten = decision
                    .modified
                    .as_ref()
                    .and_then(|m| m.arguments.clone())
                    .and_then(|arguments| {
                        let mut message: Value = serde_json::from_str(&text).ok()?;
                        *message.get_mut("params")?.get_mut("arguments")? = arguments;
                        Some(message.to_string())
                    });
                if rewritten.is_none() {
                    self.finish(&key);
                    self.result_to_client(
                        &id,
                        tool_error("Palisade could not apply the policy's redaction to the arguments; the call was not made"),
                    );
                    return;
                }
                rewritten
            }
            DecisionKind::Ask => {
                let question = format!(
                    "Allow the call to tool `{name}` of MCP server `{}`? {}",
                    self.options.name,
                    decision
                        .message
                        .as_deref()
                        .unwrap_or("The policy asks for confirmation.")
                );
                match self.confirm(question, &request, &decision).await {
                    Ok(()) => Some(text),
                    Err(why) => {
                        self.finish(&key);
                        self.result_to_client(&id, tool_error(&why));
                        return;
                    }
                }
            }
            DecisionKind::Block | DecisionKind::Error => None,
        };
        match forward {
            Some(text) => self.forward(&id, key, serial, text),
            None => {
                // A call a person could approve says where and how: the
                // same call sent again then passes, once.
                let mut why = blocked_text(&decision);
                if let Some(a) = &decision.approval {
                    why.push_str(&palisade_checks::approvals::hint(a));
                }
                self.finish(&key);
                self.result_to_client(&id, tool_error(&why));
            }
        }
    }

    /// The judged definition of a tool, reading the list first when it was
    /// never read or the server said it changed.
    async fn tool(self: &Arc<Self>, name: &str) -> Result<Shown, String> {
        if !self.state().fresh() {
            self.refresh().await?;
        }
        let state = self.state();
        match state.tools.as_ref().and_then(|t| t.get(name)) {
            Some(shown) => Ok(shown.clone()),
            None => Ok(Shown::Hidden {
                code: "mcp.tool_unknown",
                reason: format!(
                    "the MCP server `{}` does not list a tool named `{}`",
                    self.options.name,
                    name.escape_debug()
                ),
            }),
        }
    }

    /// Reads the whole tool list (every page) with the gateway's own
    /// requests and judges it.
    async fn refresh(self: &Arc<Self>) -> Result<(), String> {
        let _one = self.refreshing.lock().await;
        let changes = {
            let state = self.state();
            if state.fresh() {
                return Ok(());
            }
            state.changes
        };
        let mut table = HashMap::new();
        let mut descriptions = HashMap::new();
        let mut cursor: Option<Value> = None;
        for _ in 0..1000 {
            let params = match &cursor {
                Some(c) => json!({"cursor": c}),
                None => json!({}),
            };
            let answer = self.ask_upstream("tools/list", params).await?;
            let Some(result) = answer.get("result") else {
                return Err(format!(
                    "the MCP server `{}` did not list its tools: {}",
                    self.options.name,
                    answer
                        .get("error")
                        .map(Value::to_string)
                        .unwrap_or_default()
                ));
            };
            let tools = result
                .get("tools")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            let judged = self.judge_tools(&tools).await;
            self.audit_tools(&tools, &judged).await;
            for (tool, shown) in tools.iter().zip(judged) {
                if let Some(name) = tool.get("name").and_then(Value::as_str) {
                    table.insert(name.to_owned(), shown);
                    descriptions.insert(name.to_owned(), description(tool));
                }
            }
            cursor = result.get("nextCursor").filter(|c| !c.is_null()).cloned();
            if cursor.is_none() {
                break;
            }
        }
        let mut state = self.state();
        state.tools = Some(table);
        state.descriptions = descriptions;
        state.judged = Some(changes);
        Ok(())
    }

    /// Sends the gateway's own request upstream and waits for its answer.
    async fn ask_upstream(&self, method: &str, mut params: Value) -> Result<Value, String> {
        let id = self.own_id();
        if let (Some(meta), Value::Object(p)) = (self.state().meta.clone(), &mut params) {
            p.insert("_meta".to_owned(), meta);
        }
        let (tx, rx) = oneshot::channel();
        {
            let mut state = self.state();
            if let Some(why) = &state.gone {
                return Err(why.clone());
            }
            state
                .own_upstream
                .insert(Value::String(id.clone()).to_string(), tx);
        }
        self.send_upstream(
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        match tokio::time::timeout(self.options.timeout, rx).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(_)) => Err(self
                .state()
                .gone
                .clone()
                .unwrap_or_else(|| format!("the MCP server `{}` stopped", self.options.name))),
            Err(_) => {
                self.state()
                    .own_upstream
                    .remove(&Value::String(id).to_string());
                Err(format!(
                    "the MCP server `{}` did not answer `{method}` within {} s",
                    self.options.name,
                    self.options.timeout.as_secs()
                ))
            }
        }
    }

    /// Judges tool definitions: poisoning and shadowing, then the pins.
    /// One answer per tool, in order.
    async fn judge_tools(&self, tools: &[Value]) -> Vec<Shown> {
        let server = self.options.name.as_str();
        let pinned = match &self.options.pins {
            Some(p) => Some(p.read().await),
            None => None,
        };
        let others: Vec<(String, String)> = match &pinned {
            Some(Ok(file)) => file
                .servers
                .iter()
                .filter(|(s, _)| *s != server)
                .flat_map(|(s, pins)| pins.tools.keys().map(move |t| (s.clone(), t.clone())))
                .collect(),
            _ => Vec::new(),
        };
        let known: Vec<KnownTool<'_>> = others
            .iter()
            .map(|(server, name)| KnownTool { server, name })
            .collect();
        let mut shown: Vec<Shown> = tools
            .iter()
            .map(|tool| {
                let Some(name) = tool.get("name").and_then(Value::as_str) else {
                    return Shown::Hidden {
                        code: "mcp.tool_unknown",
                        reason: "a tool without a name".to_owned(),
                    };
                };
                let findings = judge_definition(tool, &known);
                let warn_only = self.options.poisoned_tools == PoisonedTools::Warn
                    && findings
                        .iter()
                        .all(|f| f.risk.reason_code() == "mcp.tool_poisoning");
                match findings.first() {
                    None => Shown::Yes,
                    Some(first) if warn_only => Shown::Warned {
                        code: first.risk.reason_code(),
                        reason: format!(
                            "tool `{}` of MCP server `{server}` is listed with a warning (gateway.poisoned_tools: warn): its definition has {}",
                            name.escape_debug(),
                            findings
                                .iter()
                                .map(|f| format!("{} at `{}`", f.message, f.pointer))
                                .collect::<Vec<_>>()
                                .join("; ")
                        ),
                    },
                    Some(first) => Shown::Hidden {
                        code: first.risk.reason_code(),
                        reason: format!(
                            "tool `{}` of MCP server `{server}` is hidden: its definition has {}",
                            name.escape_debug(),
                            findings
                                .iter()
                                .map(|f| format!("{} at `{}`", f.message, f.pointer))
                                .collect::<Vec<_>>()
                                .join("; ")
                        ),
                    },
                }
            })
            .collect();
        if let Some(pins) = &self.options.pins {
            let named: Vec<(usize, String, String)> = tools
                .iter()
                .enumerate()
                .filter_map(|(i, t)| Some((i, t.get("name")?.as_str()?.to_owned(), fingerprint(t))))
                .collect();
            let list: Vec<(String, String)> = named
                .iter()
                .map(|(_, n, f)| (n.clone(), f.clone()))
                .collect();
            match (pinned, pins.judge(server, &list).await) {
                (Some(Err(e)), _) | (_, Err(e)) => {
                    for s in &mut shown {
                        *s = Shown::Hidden {
                            code: "mcp.pins_unavailable",
                            reason: format!(
                                "the tools of MCP server `{server}` are hidden: the pins cannot be read ({e})"
                            ),
                        };
                    }
                }
                (_, Ok(verdicts)) => {
                    for ((i, name, _), verdict) in named.iter().zip(verdicts) {
                        if let PinVerdict::Renamed { from } = &verdict {
                            tracing::warn!(server, tool = %name, from = %from, "an MCP tool was renamed; its pin follows it");
                        }
                        if verdict.holds()
                            && let Some(s) = shown.get_mut(*i)
                            && s.listed()
                        {
                            *s = Shown::Hidden {
                                code: "mcp.tool_changed",
                                reason: verdict.reason(name, server),
                            };
                        }
                    }
                }
            }
        }
        for (tool, s) in tools.iter().zip(&shown) {
            if let Shown::Hidden { code, reason } | Shown::Warned { code, reason } = s {
                let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
                tracing::warn!(server, tool = name, code, "{reason}");
            }
        }
        shown
    }

    /// Audits and counts each tool judged bad, once per session: a `block`
    /// record of the definition (stage `tool_output` of `tools/list`, the
    /// definition its output) for a hidden tool, an `allow` with a warning
    /// for a tool listed with one.
    async fn audit_tools(&self, tools: &[Value], shown: &[Shown]) {
        for (tool, s) in tools.iter().zip(shown) {
            let (code, reason, hidden) = match s {
                Shown::Yes => continue,
                Shown::Hidden { code, reason } => (*code, reason, true),
                Shown::Warned { code, reason } => (*code, reason, false),
            };
            let name = tool.get("name").and_then(Value::as_str).unwrap_or("");
            if !self
                .state()
                .audited
                .insert((name.to_owned(), code, reason.clone()))
            {
                continue;
            }
            let request = self.request(
                Stage::ToolOutput,
                "tools/list",
                Some(json!({ "name": name })),
                &Value::String(format!("tools/list:{name}")),
                Some(tool.clone()),
            );
            let (kind, action) = if hidden {
                (DecisionKind::Block, FindingAction::Block)
            } else {
                (DecisionKind::Allow, FindingAction::Warn)
            };
            self.outside(&request, kind, code, action, reason).await;
            let tenant = self.tenant_name();
            self.service.metrics().gateway_tool(
                &tenant,
                &self.options.name,
                code,
                if hidden { "hidden" } else { "warned" },
            );
        }
    }

    /// The tenant whose policy decides, as the metrics name it.
    fn tenant_name(&self) -> String {
        self.service
            .local(self.options.tenant.as_deref())
            .map(|c| c.tenant)
            .unwrap_or_else(|_| self.options.tenant.clone().unwrap_or_default())
    }

    /// Audits a decision made here, outside the policy: `kind` with one
    /// finding of `code`.
    async fn outside(
        &self,
        request: &CheckRequest,
        kind: DecisionKind,
        code: &'static str,
        action: FindingAction,
        message: &str,
    ) {
        let mut finding = Finding::new(code, "mcp_gateway", action).with_message(message);
        finding.reason_code = code.to_owned();
        finding.severity = Severity::High;
        let mut decision = Decision::new(uuid::Uuid::now_v7().to_string(), kind);
        if kind == DecisionKind::Block {
            decision = decision.with_reason(code, message);
            decision.violations.push(finding);
        } else {
            decision.warnings.push(finding);
        }
        decision.provider = Some(palisade_protocol::Provider::palisade());
        let recorded = match self.service.local(self.options.tenant.as_deref()) {
            Ok(caller) => caller
                .guard
                .record_outside(Some(&caller.tenant), request, &mut decision)
                .await
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = recorded {
            tracing::error!(server = %self.options.name, code, "could not be audited: {e}");
        }
    }

    /// Asks the person at the client (MCP elicitation) about an `ask`:
    /// `Ok` when they accepted and the call or result may go on, else the
    /// text the client gets in its place. The answer is counted. When the
    /// decision carries an approval (the service keeps approvals), the
    /// answer is that approval's answer and the request is decided again
    /// under it, so that the audit log links the ask, the answer and the
    /// use, and nothing but the exact call asked about passes; otherwise
    /// the answer is audited on its own (`mcp.elicitation_accepted` as an
    /// `allow` with a warning, `mcp.elicitation_declined` as a `block`).
    async fn confirm(
        &self,
        question: String,
        request: &CheckRequest,
        decision: &Decision,
    ) -> Result<(), String> {
        let answer = self.ask_person(question).await;
        let tenant = self.tenant_name();
        let label = match answer {
            Some(true) => "accept",
            Some(false) => "decline",
            None => "none",
        };
        self.service
            .metrics()
            .gateway_elicitation(&tenant, &self.options.name, label);
        let Some(accepted) = answer else {
            return Err(format!(
                "{} Nobody at the client answered within {} s.",
                blocked_text(decision),
                self.options.timeout.as_secs()
            ));
        };
        let declined = || format!("{} The user declined.", blocked_text(decision));
        let Some(approval) = &decision.approval else {
            let (kind, code, action, message) = if accepted {
                (
                    DecisionKind::Allow,
                    "mcp.elicitation_accepted",
                    FindingAction::Warn,
                    "the person at the client accepted what the policy asked about",
                )
            } else {
                (
                    DecisionKind::Block,
                    "mcp.elicitation_declined",
                    FindingAction::Block,
                    "the person at the client declined what the policy asked about",
                )
            };
            self.outside(request, kind, code, action, message).await;
            return if accepted { Ok(()) } else { Err(declined()) };
        };
        let client = self.state().client.clone().and_then(|a| a.name);
        let note = match client.as_deref() {
            Some(c) => format!("answered through MCP elicitation by the person at client `{c}`"),
            None => "answered through MCP elicitation by the person at the client".to_owned(),
        };
        let answer = Answer::new(accepted, Some(ELICITATION.to_owned()), Some(note));
        let answered = match self.service.local(self.options.tenant.as_deref()) {
            Ok(caller) => caller
                .guard
                .answer_approval(&caller.tenant, &approval.id, &answer)
                .await
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = answered {
            return Err(format!(
                "{} Palisade could not record the answer, so nothing was forwarded: {e}",
                blocked_text(decision)
            ));
        }
        if !accepted {
            return Err(declined());
        }
        let mut again = request.clone();
        again.approval_id = Some(approval.id.clone());
        match self.decide(&again).await? {
            d if d.decision == DecisionKind::Allow => Ok(()),
            d => Err(blocked_text(&d)),
        }
    }

    /// The person's answer: `None` when none could be had (the client does
    /// not answer elicitation, or did not in time).
    async fn ask_person(&self, question: String) -> Option<bool> {
        let id = self.own_id();
        let (tx, rx) = oneshot::channel();
        {
            let mut state = self.state();
            if !state.elicits {
                return None;
            }
            state
                .own_client
                .insert(Value::String(id.clone()).to_string(), tx);
        }
        self.send_client(
            json!({"jsonrpc": "2.0", "id": id, "method": "elicitation/create", "params": {
                "message": question,
                "requestedSchema": {"type": "object", "properties": {}}
            }})
            .to_string(),
        );
        match tokio::time::timeout(self.options.timeout, rx).await {
            Ok(Ok(answer)) => Some(
                answer
                    .get("result")
                    .and_then(|r| r.get("action"))
                    .and_then(Value::as_str)
                    == Some("accept"),
            ),
            _ => {
                self.state()
                    .own_client
                    .remove(&Value::String(id).to_string());
                None
            }
        }
    }

    fn request(
        &self,
        stage: Stage,
        tool: &str,
        arguments: Option<Value>,
        id: &Value,
        output: Option<Value>,
    ) -> CheckRequest {
        let (client, elicits, description) = {
            let state = self.state();
            let description = match stage {
                Stage::ToolUse => state
                    .descriptions
                    .get(tool)
                    .filter(|d| !d.is_empty())
                    .cloned(),
                _ => None,
            };
            (state.client.clone(), state.elicits, description)
        };
        let mut context = Map::new();
        context.insert(
            "mcpServer".to_owned(),
            Value::String(self.options.name.clone()),
        );
        let mut request = CheckRequest::new();
        request.stage = Some(stage);
        request.session_id = Some(self.id.clone());
        request.agent = client;
        request.tool = Some(Tool {
            name: tool.to_owned(),
            arguments,
            call_id: Some(match id {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            }),
            output,
            error: None,
            description,
        });
        request.context = Some(context);
        request.options = Some(palisade_protocol::Options {
            interactive: Some(elicits),
            // A call approved out of band (`palisade approvals approve`)
            // passes when the client sends it again: no client sends an
            // approval's id.
            approval_by_call: (stage == Stage::ToolUse).then_some(true),
            ..palisade_protocol::Options::default()
        });
        request
    }

    /// The service's decision (rate limits, breaker, guard, audit).
    async fn decide(&self, request: &CheckRequest) -> Result<Decision, String> {
        let caller = self
            .service
            .local(self.options.tenant.as_deref())
            .map_err(|e| format!("Palisade could not decide, so nothing was forwarded: {e}"))?;
        let decision = self
            .service
            .decide(&caller, request)
            .await
            .map_err(|e| format!("Palisade could not decide, so nothing was forwarded: {e}"))?;
        self.service.metrics().gateway_decision(
            &caller.tenant,
            &self.options.name,
            request.effective_stage(),
            &decision,
        );
        Ok(decision)
    }

    /// A block without evaluation, audited like every decision.
    async fn refuse(
        &self,
        request: &CheckRequest,
        code: &str,
        reason: &str,
    ) -> Result<Decision, String> {
        let fail = |e: String| format!("{reason} (and Palisade could not record it: {e})");
        let caller = self
            .service
            .local(self.options.tenant.as_deref())
            .map_err(|e| fail(e.to_string()))?;
        let decision = caller
            .guard
            .refuse(Some(&caller.tenant), request, code, reason.to_owned())
            .await
            .map_err(|e| fail(e.to_string()))?;
        self.service.metrics().gateway_decision(
            &caller.tenant,
            &self.options.name,
            request.effective_stage(),
            &decision,
        );
        Ok(decision)
    }

    // ---- from the upstream server ---------------------------------------

    fn from_upstream(self: &Arc<Self>, line: Line) {
        let text = match line {
            Line::Message(text) if text.trim().is_empty() => return,
            Line::Message(text) => text,
            Line::NotText => {
                tracing::warn!(server = %self.options.name, "dropped a message of the MCP server that is not UTF-8");
                return;
            }
            Line::TooLarge { head, len } => {
                self.unreadable_answer(
                    id_in_head(&head),
                    format!(
                        "the MCP server `{}` answered with {len} bytes, over the gateway's limit of {} bytes",
                        self.options.name, self.options.max_message_bytes
                    ),
                );
                return;
            }
        };
        let message = match palisade_engine::parse_json(&text) {
            Ok(Value::Object(message)) => message,
            other => {
                let id = serde_json::from_str::<Value>(&text)
                    .ok()
                    .and_then(|v| v.get("id").cloned());
                let why = match other {
                    Err(e) => e.to_string(),
                    Ok(_) => "not a JSON-RPC message".to_owned(),
                };
                self.unreadable_answer(
                    id,
                    format!(
                        "the MCP server `{}` sent a message the gateway cannot judge ({why})",
                        self.options.name
                    ),
                );
                return;
            }
        };
        let id = message.get("id").cloned();
        match (message.get("method").and_then(Value::as_str), id) {
            (Some(_), Some(_)) => self.send_client(text),
            (Some(method), None) => {
                if method == "notifications/tools/list_changed" {
                    self.state().changes += 1;
                    let session = self.clone();
                    tokio::spawn(async move {
                        if let Err(e) = session.refresh().await {
                            tracing::warn!(server = %session.options.name, "the changed tool list could not be read: {e}");
                        }
                    });
                }
                self.send_client(text);
            }
            (None, Some(id)) => self.upstream_answer(id, message, text),
            (None, None) => {
                tracing::warn!(server = %self.options.name, "dropped a message of the MCP server with neither method nor id");
            }
        }
    }

    /// An answer the gateway cannot read: the request it answers (when its
    /// id can be told) gets an error; nothing is forwarded.
    fn unreadable_answer(&self, id: Option<Value>, why: String) {
        tracing::warn!(server = %self.options.name, "{why}");
        let Some(id) = id else { return };
        let key = id.to_string();
        if let Some(waiter) = self.state().own_upstream.remove(&key) {
            let _ = waiter.send(json!({"error": {"code": UPSTREAM_ERROR, "message": why}}));
            return;
        }
        if self.state().pending.remove(&key).is_some() {
            self.error_to_client(&id, UPSTREAM_ERROR, format!("{why}; nothing was forwarded"));
        }
    }

    fn upstream_answer(self: &Arc<Self>, id: Value, message: Map<String, Value>, text: String) {
        let key = id.to_string();
        let (own, pending) = {
            let mut state = self.state();
            match state.own_upstream.remove(&key) {
                Some(waiter) => (Some(waiter), None),
                None => (None, state.pending.remove(&key)),
            }
        };
        if let Some(waiter) = own {
            let _ = waiter.send(Value::Object(message));
            return;
        }
        let Some(pending) = pending else {
            tracing::warn!(server = %self.options.name, id = %key, "dropped an answer to no request in flight");
            return;
        };
        match pending.kind {
            Kind::Other => self.send_client(text),
            kind => {
                self.state().judging += 1;
                let session = self.clone();
                tokio::spawn(async move {
                    session.clone().judge_answer(id, kind, message, text).await;
                    session.state().judging -= 1;
                });
            }
        }
    }

    async fn judge_answer(
        self: Arc<Self>,
        id: Value,
        kind: Kind,
        mut message: Map<String, Value>,
        text: String,
    ) {
        if let Kind::ToolsList = kind {
            let tools = message
                .get("result")
                .and_then(|r| r.get("tools"))
                .and_then(Value::as_array)
                .cloned();
            let Some(tools) = tools else {
                self.send_client(text);
                return;
            };
            let shown = self.judge_tools(&tools).await;
            self.audit_tools(&tools, &shown).await;
            {
                let mut state = self.state();
                let state = &mut *state;
                let table = state.tools.get_or_insert_with(HashMap::new);
                for (tool, s) in tools.iter().zip(&shown) {
                    if let Some(name) = tool.get("name").and_then(Value::as_str) {
                        table.insert(name.to_owned(), s.clone());
                        state
                            .descriptions
                            .insert(name.to_owned(), description(tool));
                    }
                }
            }
            if shown.iter().all(Shown::listed) {
                self.send_client(text);
                return;
            }
            let kept: Vec<Value> = tools
                .into_iter()
                .zip(shown)
                .filter(|(_, s)| s.listed())
                .map(|(t, _)| t)
                .collect();
            if let Some(Value::Object(result)) = message.get_mut("result") {
                result.insert("tools".to_owned(), Value::Array(kept));
            }
            self.send_client(Value::Object(message).to_string());
            return;
        }
        let (tool, arguments, what) = match &kind {
            Kind::ToolsCall { name, arguments } => (name.clone(), arguments.clone(), "result"),
            Kind::ResourceRead { uri } => {
                ("resources/read".to_owned(), json!({"uri": uri}), "resource")
            }
            Kind::PromptGet { name, arguments } => (
                "prompts/get".to_owned(),
                json!({"name": name, "arguments": arguments}),
                "prompt",
            ),
            Kind::Other | Kind::ToolsList => (String::new(), Value::Null, ""),
        };
        let Some(result) = message.get("result").and_then(Value::as_object) else {
            // An error answer: its message is text the model reads too.
            let error = message
                .get("error")
                .and_then(|e| e.get("message"))
                .and_then(Value::as_str);
            let mut request = self.request(Stage::ToolOutput, &tool, Some(arguments), &id, None);
            if let Some(t) = request.tool.as_mut() {
                t.error = Some(error.unwrap_or_default().to_owned());
            }
            match self.decide(&request).await {
                Ok(d) if d.decision == DecisionKind::Allow => self.send_client(text),
                Ok(d) => self.error_to_client(&id, REFUSED, blocked_text(&d)),
                Err(e) => self.error_to_client(&id, REFUSED, e),
            }
            return;
        };
        let parts: &[&str] = match kind {
            Kind::ToolsCall { .. } => &["content", "structuredContent"],
            Kind::ResourceRead { .. } => &["contents"],
            _ => &["description", "messages"],
        };
        let mut output = Map::new();
        for part in parts {
            if let Some(v) = result.get(*part) {
                output.insert((*part).to_owned(), v.clone());
            }
        }
        let request = self.request(
            Stage::ToolOutput,
            &tool,
            Some(arguments),
            &id,
            Some(Value::Object(output)),
        );
        let decision = match self.decide(&request).await {
            Ok(d) => d,
            Err(e) => {
                self.withhold(&id, &kind, e);
                return;
            }
        };
        match decision.decision {
            DecisionKind::Allow => self.send_client(text),
            DecisionKind::Modify => {
                let redacted = decision.modified.as_ref().and_then(|m| m.output.clone());
                match (redacted, message.get_mut("result")) {
                    (Some(Value::Object(redacted)), Some(Value::Object(result))) => {
                        for (k, v) in redacted {
                            result.insert(k, v);
                        }
                        self.send_client(Value::Object(message).to_string());
                    }
                    _ => self.withhold(
                        &id,
                        &kind,
                        format!("Palisade could not apply the policy's redaction to the {what}; it was withheld"),
                    ),
                }
            }
            DecisionKind::Ask => {
                let question = format!(
                    "Show the {what} of `{tool}` from MCP server `{}` to the model? {}",
                    self.options.name,
                    decision
                        .message
                        .as_deref()
                        .unwrap_or("The policy asks for confirmation.")
                );
                match self.confirm(question, &request, &decision).await {
                    Ok(()) => self.send_client(text),
                    Err(why) => self.withhold(&id, &kind, why),
                }
            }
            DecisionKind::Block | DecisionKind::Error => {
                self.withhold(&id, &kind, blocked_text(&decision));
            }
        }
    }

    /// Answers in place of a withheld result.
    fn withhold(&self, id: &Value, kind: &Kind, text: String) {
        match kind {
            Kind::ToolsCall { .. } => self.result_to_client(id, tool_error(&text)),
            _ => self.error_to_client(id, REFUSED, text),
        }
    }

    /// The upstream server is gone: every request in flight gets an error,
    /// and so does every later one.
    fn upstream_gone(&self, why: String) {
        let why = format!("the MCP server `{}` stopped: {why}", self.options.name);
        tracing::warn!("{why}");
        let pending: Vec<String> = {
            let mut state = self.state();
            state.gone = Some(why.clone());
            state.own_upstream.clear();
            state.pending.drain().map(|(k, _)| k).collect()
        };
        for key in pending {
            if let Ok(id) = serde_json::from_str::<Value>(&key) {
                self.error_to_client(&id, UPSTREAM_ERROR, why.clone());
            }
        }
    }
}

/// A tool result the model reads as an error.
fn tool_error(text: &str) -> Value {
    json!({"content": [{"type": "text", "text": text}], "isError": true})
}

/// A listed tool's description as a call's request carries it: its
/// `description`, else its `title` (at most 4 KiB).
fn description(tool: &Value) -> String {
    let text = tool
        .get("description")
        .or_else(|| tool.get("title"))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let mut end = text.len().min(4096);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_owned()
}

/// What the model reads when Palisade refused: the check's replacement
/// and the reason.
fn blocked_text(decision: &Decision) -> String {
    let reason = decision.message.as_deref().unwrap_or("refused by policy");
    let code = decision
        .reason_code
        .as_deref()
        .unwrap_or("guardrail.blocked");
    match decision.replacement.as_deref() {
        Some(replacement) if !replacement.is_empty() => {
            format!("{replacement} Palisade: {reason} ({code})")
        }
        _ => format!("Blocked by Palisade: {reason} ({code})"),
    }
}
