//! `/gateway/{name}/mcp`: each upstream server of the config's `gateway`
//! section served as MCP streamable HTTP, behind the service's API keys
//! and tenants (SPEC §14).
//!
//! `initialize` opens a session (its own upstream process, or its own
//! session with an HTTP upstream) and answers its id in `Mcp-Session-Id`;
//! every later request names it, with a key of the same tenant. A POSTed
//! request is answered as a stream of server-sent events: what the server
//! sends meanwhile (an elicitation, progress), then the answer. A GET
//! opens the stream of what the server sends unasked; a DELETE ends the
//! session. A session unused for `gateway.idle_timeout_secs` (no request,
//! none in flight, no open stream) is closed and its upstream stopped; a
//! request naming a session that is over or unknown is answered 404, so
//! that the client starts a new one (MCP's streamable HTTP transport).

use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Extension, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use serde_json::Value;
use tokio::sync::mpsc;

use super::lines::Line;
use super::proxy::Incoming;
use super::{GatewayOptions, PinStore, Pins, Upstream};
use crate::api::{ApiError, authorize};
use crate::config::{GatewayServer, expand};
use crate::service::{Scope, Service};
use crate::wire::ErrorCode;

/// How long a session may go unused by default: 30 minutes.
const DEFAULT_IDLE_SECS: u64 = 1800;

/// The sessions of every upstream.
struct Sessions {
    by_id: Mutex<HashMap<String, Arc<HttpSession>>>,
    pins: Option<Arc<PinStore>>,
    /// How long a session may go unused.
    idle: Duration,
    /// Whether the task that closes idle sessions runs.
    reaping: AtomicBool,
}

struct HttpSession {
    server: String,
    tenant: String,
    incoming: mpsc::Sender<Incoming>,
    routes: Mutex<Routes>,
    /// When a request last named it.
    used: Mutex<Instant>,
}

impl HttpSession {
    fn touch(&self) {
        *self.used.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }

    /// Unused for `idle`: no request since, none waiting for its answer,
    /// no stream open.
    fn idle_for(&self, idle: Duration, now: Instant) -> bool {
        let used = *self.used.lock().unwrap_or_else(|e| e.into_inner());
        if now.saturating_duration_since(used) < idle {
            return false;
        }
        let mut routes = self.routes.lock().unwrap_or_else(|e| e.into_inner());
        routes.waiting.retain(|(_, to)| !to.is_closed());
        routes.streams.retain(|to| !to.is_closed());
        routes.waiting.is_empty() && routes.streams.is_empty()
    }
}

impl Sessions {
    /// Closes the sessions unused for `idle`, stopping their upstreams.
    async fn expire(&self) {
        let now = Instant::now();
        let expired: Vec<(String, Arc<HttpSession>)> = {
            let mut by_id = self.by_id.lock().unwrap_or_else(|e| e.into_inner());
            let ids: Vec<String> = by_id
                .iter()
                .filter(|(_, s)| s.idle_for(self.idle, now))
                .map(|(id, _)| id.clone())
                .collect();
            ids.into_iter()
                .filter_map(|id| by_id.remove(&id).map(|s| (id, s)))
                .collect()
        };
        for (id, session) in expired {
            tracing::info!(
                session = %id,
                server = %session.server,
                "MCP session closed after {} s unused; its upstream is stopped",
                self.idle.as_secs()
            );
            let _ = session.incoming.send(Incoming::ClientEnd).await;
        }
    }

    /// Starts the task that closes idle sessions, once; it ends with the
    /// routes.
    fn reap(self: &Arc<Self>) {
        if self.reaping.swap(true, Ordering::SeqCst) {
            return;
        }
        let period = (self.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(30));
        let weak: Weak<Self> = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(period).await;
                let Some(sessions) = weak.upgrade() else {
                    return;
                };
                sessions.expire().await;
            }
        });
    }
}

/// Where each message for the client goes.
#[derive(Default)]
struct Routes {
    /// POSTed requests waiting for their answer, oldest first.
    waiting: Vec<(String, mpsc::UnboundedSender<String>)>,
    /// GET streams.
    streams: Vec<mpsc::UnboundedSender<String>>,
    /// What the server sent unasked while no stream was open.
    backlog: VecDeque<String>,
}

impl Routes {
    /// Sends a message where it goes; whether it answered a request.
    fn route(&mut self, message: String) -> bool {
        let value: Option<Value> = serde_json::from_str(&message).ok();
        let answer_to = value
            .as_ref()
            .filter(|v| v.get("method").is_none())
            .and_then(|v| v.get("id"))
            .map(Value::to_string);
        if let Some(key) = answer_to {
            if let Some(at) = self.waiting.iter().position(|(k, _)| *k == key) {
                let (_, to) = self.waiting.remove(at);
                let _ = to.send(message);
                return true;
            }
            return false;
        }
        // A request or notification of the server: on the newest open stream.
        self.waiting.retain(|(_, to)| !to.is_closed());
        self.streams.retain(|to| !to.is_closed());
        let target = self
            .waiting
            .last()
            .map(|(_, to)| to)
            .or_else(|| self.streams.last());
        match target {
            Some(to) => {
                let _ = to.send(message);
            }
            None => {
                if self.backlog.len() >= 256 {
                    self.backlog.pop_front();
                }
                self.backlog.push_back(message);
            }
        }
        false
    }
}

/// The gateway's routes, when the config names upstream servers.
pub(crate) fn routes(service: &Service) -> Router<Arc<Service>> {
    let config = &service.config().gateway;
    if config.servers.is_empty() {
        return Router::new();
    }
    // With `state.redis` the replicas share their pins there; else the file.
    let shared = service
        .config()
        .state
        .as_ref()
        .map(|s| PinStore::redis(&s.redis));
    let pins = match shared {
        Some(Ok(store)) => Some(Arc::new(store)),
        Some(Err(e)) => {
            // The service checked this URL when it started; should it not
            // do, pins that cannot be read (a directory) hide every tool:
            // fail closed, the reason in the log.
            tracing::error!("the gateway's pins: {e}");
            Some(Arc::new(PinStore::File(Pins::at("/"))))
        }
        None => config
            .pins
            .clone()
            .or_else(Pins::default_path)
            .map(|p| Arc::new(PinStore::File(Pins::at(p)))),
    };
    let sessions = Arc::new(Sessions {
        by_id: Mutex::default(),
        pins,
        idle: Duration::from_secs(config.idle_timeout_secs.unwrap_or(DEFAULT_IDLE_SECS)),
        reaping: AtomicBool::new(false),
    });
    Router::new()
        .route("/gateway/{name}/mcp", any(endpoint))
        .layer(Extension(sessions))
}

fn error(status: StatusCode, code: ErrorCode, message: impl Into<String>) -> Response {
    ApiError::Other {
        status,
        code,
        message: message.into(),
    }
    .into_response()
}

async fn endpoint(
    State(service): State<Arc<Service>>,
    Extension(sessions): Extension<Arc<Sessions>>,
    Path(name): Path<String>,
    request: Request,
) -> Response {
    let Some(server) = service.config().gateway.servers.get(&name).cloned() else {
        return error(
            StatusCode::NOT_FOUND,
            ErrorCode::NotFound,
            format!("no MCP server `{name}` in the gateway"),
        );
    };
    let (parts, body) = request.into_parts();
    let caller = match authorize(&service, &parts.headers, Scope::Check) {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    let named = parts.headers.contains_key("mcp-session-id");
    let session = session_of(&sessions, &parts.headers);
    if let Some(s) = &session
        && (s.server != name || s.tenant != caller.tenant)
    {
        return error(
            StatusCode::NOT_FOUND,
            ErrorCode::NotFound,
            "no such MCP session for this server and tenant",
        );
    }
    if named && session.is_none() {
        // Ended (DELETE, idle) or never opened: the client starts anew.
        return error(
            StatusCode::NOT_FOUND,
            ErrorCode::NotFound,
            "the MCP session is over (closed, or unused too long) or unknown; start a new one with `initialize`",
        );
    }
    if let Some(s) = &session {
        s.touch();
    }
    match parts.method {
        Method::POST => {}
        Method::GET => {
            return match session {
                Some(s) => listen(&s),
                None => session_missing(),
            };
        }
        Method::DELETE => {
            return match session {
                Some(s) => {
                    close(&sessions, &parts.headers, &s).await;
                    StatusCode::OK.into_response()
                }
                None => session_missing(),
            };
        }
        _ => {
            return ApiError::MethodNotAllowed {
                message: "the MCP endpoint takes POST, GET and DELETE",
                allow: Some("POST, GET, DELETE"),
            }
            .into_response();
        }
    }
    let limit = service.config().limits.max_body_bytes;
    let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
        return ApiError::too_large().into_response();
    };
    let Ok(text) = String::from_utf8(bytes.to_vec()) else {
        return error(
            StatusCode::BAD_REQUEST,
            ErrorCode::BadRequest,
            "the body is not UTF-8",
        );
    };
    let value: Option<Value> = serde_json::from_str(&text).ok();
    let method = value
        .as_ref()
        .and_then(|v| v.get("method"))
        .and_then(Value::as_str);
    let request_id = id_of(method, value.as_ref().and_then(|v| v.get("id")).cloned());
    let session = match session {
        Some(s) => s,
        None if method == Some("initialize") => {
            match start(&service, &sessions, &name, &server, &caller.tenant) {
                Ok((session_id, s)) => {
                    let response = send(&s, text, request_id).await;
                    return with_session(response, &session_id);
                }
                Err(e) => {
                    return error(StatusCode::BAD_GATEWAY, ErrorCode::Internal, e);
                }
            }
        }
        None => return session_missing(),
    };
    send(&session, text, request_id).await
}

/// The id of a request (a message with a method and an id).
fn id_of(method: Option<&str>, id: Option<Value>) -> Option<Value> {
    method.and(id).filter(|id| !id.is_null())
}

fn session_missing() -> Response {
    error(
        StatusCode::BAD_REQUEST,
        ErrorCode::BadRequest,
        "no `Mcp-Session-Id`: a session starts with `initialize`",
    )
}

fn session_of(sessions: &Sessions, headers: &HeaderMap) -> Option<Arc<HttpSession>> {
    let id = headers.get("mcp-session-id")?.to_str().ok()?;
    sessions
        .by_id
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(id)
        .cloned()
}

fn with_session(mut response: Response, id: &str) -> Response {
    if let Ok(value) = HeaderValue::from_str(id) {
        response.headers_mut().insert("mcp-session-id", value);
    }
    response
}

/// Starts an upstream and a session for a new client.
fn start(
    service: &Arc<Service>,
    sessions: &Arc<Sessions>,
    name: &str,
    server: &GatewayServer,
    tenant: &str,
) -> Result<(String, Arc<HttpSession>), String> {
    let upstream = match server {
        GatewayServer::Command { command, env } => Upstream::Command {
            command: command.clone(),
            env: env
                .iter()
                .map(|(k, v)| expand(v).map(|v| (k.clone(), v)))
                .collect::<Result<_, _>>()?,
        },
        GatewayServer::Url { url, headers } => Upstream::Http {
            url: url.clone(),
            headers: headers
                .iter()
                .map(|(k, v)| expand(v).map(|v| (k.clone(), v)))
                .collect::<Result<_, _>>()?,
        },
    };
    let mut options = GatewayOptions::new(name, sessions.pins.clone());
    options.tenant = Some(tenant.to_owned());
    if let Some(secs) = service.config().gateway.timeout_secs {
        options.timeout = Duration::from_secs(secs);
    }
    options.poisoned_tools = service.config().gateway.poisoned_tools.unwrap_or_default();
    let id = uuid::Uuid::now_v7().to_string();
    let opened = super::open(service.clone(), options, &upstream, id.clone())
        .map_err(|e| format!("the MCP server `{name}` could not be started: {e}"))?;
    let session = Arc::new(HttpSession {
        server: name.to_owned(),
        tenant: tenant.to_owned(),
        incoming: opened.incoming,
        routes: Mutex::default(),
        used: Mutex::new(Instant::now()),
    });
    let routing = session.clone();
    let mut outgoing = opened.outgoing;
    tokio::spawn(async move {
        while let Some(message) = outgoing.recv().await {
            let answered = routing
                .routes
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .route(message);
            // A long request answered: its session was in use until now.
            if answered {
                routing.touch();
            }
        }
    });
    sessions
        .by_id
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id.clone(), session.clone());
    sessions.reap();
    Ok((id, session))
}

/// Hands a message to the session: a request is answered as a stream of
/// events ending with its answer; anything else is accepted.
async fn send(session: &HttpSession, text: String, id: Option<Value>) -> Response {
    let Some(id) = id else {
        if session
            .incoming
            .send(Incoming::Client(Line::Message(text)))
            .await
            .is_err()
        {
            return error(
                StatusCode::NOT_FOUND,
                ErrorCode::NotFound,
                "the MCP session is over",
            );
        }
        return StatusCode::ACCEPTED.into_response();
    };
    let (to, from) = mpsc::unbounded_channel();
    session
        .routes
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .waiting
        .push((id.to_string(), to));
    if session
        .incoming
        .send(Incoming::Client(Line::Message(text)))
        .await
        .is_err()
    {
        return error(
            StatusCode::NOT_FOUND,
            ErrorCode::NotFound,
            "the MCP session is over",
        );
    }
    events(from)
}

fn events(from: mpsc::UnboundedReceiver<String>) -> Response {
    let stream = futures::stream::unfold(from, |mut from| async move {
        let message = from.recv().await?;
        Some((Ok::<_, Infallible>(Event::default().data(message)), from))
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// A GET stream: what the server sends unasked (and what it sent while
/// no stream was open).
fn listen(session: &HttpSession) -> Response {
    let (to, from) = mpsc::unbounded_channel();
    {
        let mut routes = session.routes.lock().unwrap_or_else(|e| e.into_inner());
        for message in routes.backlog.drain(..) {
            let _ = to.send(message);
        }
        routes.streams.push(to);
    }
    events(from)
}

async fn close(sessions: &Sessions, headers: &HeaderMap, session: &HttpSession) {
    if let Some(id) = headers.get("mcp-session-id").and_then(|v| v.to_str().ok()) {
        sessions
            .by_id
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id);
    }
    let _ = session.incoming.send(Incoming::ClientEnd).await;
}
