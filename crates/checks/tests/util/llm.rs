//! A mock OpenAI-compatible chat-completions service for LLM-judge and
//! moderation checks (SPEC §5): `POST /v1/chat/completions` answering in
//! OpenAI's exact response and error shapes.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

/// How the mock answers `POST /v1/chat/completions`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Behavior {
    /// An LLM judge: `{"verdict":"block","reason":"matched BLOCKME"}` when a
    /// user message contains `BLOCKME`, else `{"verdict":"allow"}`, each with
    /// chatter around it (the client parses the first `{…}` fragment).
    Judge,
    /// A moderation model: high `hate` (90) and `violence` (10) scores when a
    /// user message contains `HATEFUL`, else all scores low.
    Moderation,
    /// 200 with assistant content that holds no JSON object.
    Garbage,
    /// HTTP 500 with OpenAI's `server_error` body ([`STATUS_500_BODY`]).
    Status500,
    /// HTTP 429 with OpenAI's `rate_limit_exceeded` body and `retry-after: 1`.
    Status429,
    /// Sleeps (tokio time) for the duration, then answers like [`Behavior::Judge`].
    Slow(Duration),
    /// 200 with exactly this assistant content, whatever was asked.
    Reply(String),
}

/// The content [`Behavior::Judge`] replies with for an allowed message.
pub const JUDGE_ALLOW: &str = r#"Sure. {"verdict":"allow"}"#;
/// The content [`Behavior::Judge`] replies with for a message holding `BLOCKME`.
pub const JUDGE_BLOCK: &str = r#"Here is my verdict: {"verdict":"block","reason":"matched BLOCKME"} Let me know if you need more."#;
/// The content [`Behavior::Moderation`] replies with for a message holding `HATEFUL`.
pub const MODERATION_HATEFUL: &str =
    r#"{"scores":{"hate":90,"harassment":5,"self_harm":0,"sexual":0,"violence":10,"illicit":0}}"#;
/// The content [`Behavior::Moderation`] replies with for any other message.
pub const MODERATION_CLEAN: &str =
    r#"{"scores":{"hate":1,"harassment":1,"self_harm":0,"sexual":0,"violence":2,"illicit":0}}"#;
/// The body [`Behavior::Status500`] answers with.
pub const STATUS_500_BODY: &str = r#"{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}"#;
/// The content [`Behavior::Garbage`] replies with.
pub const GARBAGE: &str = "I'm sorry, I cannot produce a verdict for that request.";

struct Shared {
    behavior: Mutex<Behavior>,
    key: Option<String>,
    requests: AtomicUsize,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    bodies: Mutex<Vec<Value>>,
    next_id: AtomicU64,
}

/// A running mock service on `127.0.0.1:<ephemeral>`; it stops when dropped.
pub struct LlmServer {
    addr: SocketAddr,
    shared: Arc<Shared>,
    task: JoinHandle<()>,
}

impl LlmServer {
    /// Starts the mock without API-key checks. Must be called inside a tokio
    /// runtime: the server runs as a task of that runtime.
    pub fn start(behavior: Behavior) -> LlmServer {
        Self::spawn(behavior, None)
    }

    /// Starts the mock requiring `Authorization: Bearer <key>`; any other
    /// request gets 401 with OpenAI's `invalid_api_key` body.
    pub fn start_with_key(behavior: Behavior, key: &str) -> LlmServer {
        Self::spawn(behavior, Some(key.to_owned()))
    }

    fn spawn(behavior: Behavior, key: Option<String>) -> LlmServer {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind mock LLM");
        listener
            .set_nonblocking(true)
            .expect("nonblocking listener");
        let addr = listener.local_addr().expect("mock LLM address");
        let listener = tokio::net::TcpListener::from_std(listener)
            .expect("LlmServer::start must run inside a tokio runtime");
        let shared = Arc::new(Shared {
            behavior: Mutex::new(behavior),
            key,
            requests: AtomicUsize::new(0),
            in_flight: AtomicUsize::new(0),
            max_in_flight: AtomicUsize::new(0),
            bodies: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
        });
        let app = Router::new()
            .route("/v1/chat/completions", post(chat_completions))
            .with_state(shared.clone());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("mock LLM serve");
        });
        LlmServer { addr, shared, task }
    }

    /// The base URL, ending in `/v1`: clients post to `{url}/chat/completions`.
    pub fn url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    /// Requests received on the endpoint so far (including rejected ones).
    pub fn requests(&self) -> usize {
        self.shared.requests.load(Ordering::SeqCst)
    }

    /// The highest number of requests seen in progress at the same time.
    pub fn max_in_flight(&self) -> usize {
        self.shared.max_in_flight.load(Ordering::SeqCst)
    }

    /// The JSON bodies received so far, in arrival order (unparsable bodies
    /// are not recorded).
    pub fn bodies(&self) -> Vec<Value> {
        self.shared.bodies.lock().expect("bodies lock").clone()
    }

    /// The user messages of every received body, joined per body.
    pub fn user_messages(&self) -> Vec<String> {
        self.bodies().iter().map(user_text).collect()
    }

    /// Changes how the following requests are answered.
    pub fn set_behavior(&self, behavior: Behavior) {
        *self.shared.behavior.lock().expect("behavior lock") = behavior;
    }
}

impl Drop for LlmServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A base URL (ending in `/v1`) where nothing listens: connections are refused.
pub fn refused_addr() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind probe port");
    let addr = listener.local_addr().expect("probe address");
    drop(listener);
    format!("http://{addr}/v1")
}

/// Counts a request as in flight until dropped, also when the client gives
/// up and the handler future is cancelled.
struct InFlight<'a>(&'a Shared);

impl<'a> InFlight<'a> {
    fn enter(shared: &'a Shared) -> InFlight<'a> {
        let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        shared.max_in_flight.fetch_max(now, Ordering::SeqCst);
        InFlight(shared)
    }
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn chat_completions(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    shared.requests.fetch_add(1, Ordering::SeqCst);
    let _in_flight = InFlight::enter(&shared);

    if let Some(key) = &shared.key {
        let presented = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if presented != Some(key.as_str()) {
            return invalid_api_key(presented.unwrap_or(""));
        }
    }

    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return openai_error(
            StatusCode::BAD_REQUEST,
            "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
            "invalid_request_error",
            None,
        );
    };
    shared
        .bodies
        .lock()
        .expect("bodies lock")
        .push(request.clone());

    let behavior = shared.behavior.lock().expect("behavior lock").clone();
    let user = user_text(&request);
    let reply: String;
    let content = match behavior {
        Behavior::Reply(text) => {
            reply = text;
            reply.as_str()
        }
        Behavior::Judge => judge(&user),
        Behavior::Slow(delay) => {
            tokio::time::sleep(delay).await;
            judge(&user)
        }
        Behavior::Moderation if user.contains("HATEFUL") => MODERATION_HATEFUL,
        Behavior::Moderation => MODERATION_CLEAN,
        Behavior::Garbage => GARBAGE,
        Behavior::Status500 => {
            return openai_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "The server had an error while processing your request.",
                "server_error",
                None,
            );
        }
        Behavior::Status429 => {
            let model = request["model"].as_str().unwrap_or("gpt-4o-mini");
            let mut response = openai_error(
                StatusCode::TOO_MANY_REQUESTS,
                &format!(
                    "Rate limit reached for {model} in organization org-palisadetest on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more."
                ),
                "requests",
                Some("rate_limit_exceeded"),
            );
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
            return response;
        }
    };
    let id = shared.next_id.fetch_add(1, Ordering::SeqCst);
    completion(id, &request, &user, content).into_response()
}

fn judge(user: &str) -> &'static str {
    if user.contains("BLOCKME") {
        JUDGE_BLOCK
    } else {
        JUDGE_ALLOW
    }
}

/// The text of every `user` message of a request, joined by newlines; content
/// may be a string or an array of `{"type":"text","text":…}` parts.
fn user_text(request: &Value) -> String {
    let Some(messages) = request["messages"].as_array() else {
        return String::new();
    };
    let mut texts = Vec::new();
    for message in messages.iter().filter(|m| m["role"] == "user") {
        match &message["content"] {
            Value::String(text) => texts.push(text.clone()),
            Value::Array(parts) => texts.extend(
                parts
                    .iter()
                    .filter_map(|part| part["text"].as_str())
                    .map(str::to_owned),
            ),
            _ => {}
        }
    }
    texts.join("\n")
}

/// A chat completion in OpenAI's exact shape.
fn completion(id: u64, request: &Value, user: &str, content: &str) -> (StatusCode, Json<Value>) {
    let created = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let model = request["model"].clone();
    // Roughly four characters a token, like OpenAI's tokenizer on English.
    let prompt_tokens = request["messages"]
        .as_array()
        .map(|m| m.iter().map(|m| m.to_string().len()).sum::<usize>())
        .unwrap_or(user.len())
        / 4
        + 1;
    let completion_tokens = content.len() / 4 + 1;
    (
        StatusCode::OK,
        Json(json!({
            "id": format!("chatcmpl-palisade{id:012}"),
            "object": "chat.completion",
            "created": created,
            "model": model,
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": null},
                "logprobs": null,
                "finish_reason": "stop"
            }],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens
            }
        })),
    )
}

/// 401 as OpenAI answers a missing or wrong key (the key shown masked).
fn invalid_api_key(presented: &str) -> Response {
    let masked = if presented.len() > 8 && presented.is_ascii() {
        format!(
            "{}{}{}",
            &presented[..3],
            "*".repeat(presented.len() - 7),
            &presented[presented.len() - 4..]
        )
    } else {
        "*".repeat(presented.chars().count())
    };
    openai_error(
        StatusCode::UNAUTHORIZED,
        &format!(
            "Incorrect API key provided: {masked}. You can find your API key at https://platform.openai.com/account/api-keys."
        ),
        "invalid_request_error",
        Some("invalid_api_key"),
    )
}

/// An error in OpenAI's shape: `{"error":{"message","type","param","code"}}`.
fn openai_error(status: StatusCode, message: &str, kind: &str, code: Option<&str>) -> Response {
    (
        status,
        Json(json!({
            "error": {"message": message, "type": kind, "param": null, "code": code}
        })),
    )
        .into_response()
}
