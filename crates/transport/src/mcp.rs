//! MCP (SPEC §6): the tools `check` and `check_action`, served over
//! streamable HTTP at `/mcp` and over stdio.
//!
//! - `check` takes the members of a v1 CheckRequest as its arguments and
//!   answers the Decision as structured content (with a JSON text copy).
//! - `check_action` takes a CSTP action (`description`, `category`,
//!   `stakes`, `confidence`, `context`, `agent`) and answers the CSTP result
//!   `{allowed, violations, warnings, evaluated, evaluatedAt, agent}`.
//!
//! Every decision goes through [`Service::decide`] (rate limit, circuit
//! breaker, guard, audit). Invalid arguments, a rate limit or an audit log
//! that cannot be written are tool errors (`isError: true`) whose text says
//! what went wrong.
//!
//! Over HTTP the endpoint is stateless (one POST, one JSON answer; no
//! sessions, no event streams) and authenticated like every other endpoint:
//! with keys configured a request needs `X-API-Key` or
//! `Authorization: Bearer` (401 otherwise), and the key's tenant decides.
//! Over stdio the tools serve the default tenant.

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use palisade_engine::parse_request_value;
use palisade_protocol::{CheckRequest, Decision};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::io::{AsyncRead, AsyncWrite};

use crate::api::{ApiError, authorize, authorize_as, tenant_header};
use crate::dialect::cstp;
use crate::service::{Caller, DecideError, Scope, Service};
use crate::wire::{CheckActionArguments, ErrorCode};

/// The tool that decides a v1 request.
const CHECK: &str = "check";
/// The tool that decides a CSTP action.
const CHECK_ACTION: &str = "check_action";

/// Why serving MCP over a byte stream ended in failure.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The client's `initialize` exchange failed.
    #[error("MCP handshake failed: {0}")]
    Handshake(#[source] Box<rmcp::service::ServerInitializeError>),
    /// The server's task ended abnormally.
    #[error("the MCP server stopped: {0}")]
    Stopped(#[source] tokio::task::JoinError),
}

/// Serves the MCP tools over stdin and stdout as the default tenant until
/// the client closes the stream.
///
/// Stdio carries no credentials, so a service with API keys is refused.
pub async fn serve_stdio(service: Arc<Service>) -> Result<(), ServeError> {
    serve_io(service, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves the MCP tools over a byte stream (newline-delimited JSON-RPC, as
/// over stdio) as the default tenant until the client closes it.
pub async fn serve_io<R, W>(service: Arc<Service>, reader: R, writer: W) -> Result<(), ServeError>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    // Messages pass through a screen that answers one with a repeated key
    // itself, so the tools never see a message whose values depend on
    // which parser reads it. Everything written out goes through one task,
    // a whole line at a time.
    let (to_server, server_in) = tokio::io::duplex(64 * 1024);
    let (server_out, from_server) = tokio::io::duplex(64 * 1024);
    let (lines_tx, mut lines_rx) = tokio::sync::mpsc::channel::<String>(64);
    let writing = tokio::spawn(async move {
        let mut writer = writer;
        while let Some(line) = lines_rx.recv().await {
            if writer.write_all(line.as_bytes()).await.is_err() || writer.flush().await.is_err() {
                break;
            }
        }
    });
    let answers = lines_tx.clone();
    let relaying = tokio::spawn(async move {
        let mut lines = BufReader::new(from_server).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if answers.send(format!("{line}\n")).await.is_err() {
                break;
            }
        }
    });
    let screening = tokio::spawn(async move {
        let mut to_server = to_server;
        let mut lines = BufReader::new(reader).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            match refusal(&line) {
                Some(Some(answer)) => {
                    if lines_tx.send(format!("{answer}\n")).await.is_err() {
                        break;
                    }
                }
                // A notification with a repeated key is dropped: it gets no answer.
                Some(None) => {}
                None => {
                    if to_server.write_all(line.as_bytes()).await.is_err()
                        || to_server.write_all(b"\n").await.is_err()
                    {
                        break;
                    }
                }
            }
        }
        // End of input: the server sees its input close.
        let _ = to_server.shutdown().await;
    });
    let running = Tools {
        access: Access::Local(service),
    }
    .serve((server_in, server_out))
    .await
    .map_err(|e| ServeError::Handshake(Box::new(e)))?;
    let stopped = running.waiting().await.map_err(ServeError::Stopped);
    screening.abort();
    let _ = relaying.await;
    let _ = writing.await;
    stopped?;
    Ok(())
}

/// The answer to a JSON-RPC message with a repeated key: `Some(Some(error
/// response))` for a request, `Some(None)` for a notification (no answer),
/// `None` when the message has no repeated key (or is not JSON: the server
/// answers that itself).
fn refusal(message: &str) -> Option<Option<String>> {
    let value: Value = serde_json::from_str(message).ok()?;
    let e = palisade_engine::parse_json(message).err()?;
    let Some(id) = value.get("id").filter(|id| !id.is_null()) else {
        return Some(None);
    };
    Some(Some(
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": -32600, "message": format!("invalid request: {e}")},
        })
        .to_string(),
    ))
}

/// The `/mcp` route: MCP streamable HTTP, stateless, behind the service's
/// authentication.
pub(crate) fn routes() -> Router<Arc<Service>> {
    Router::new().route("/mcp", any(endpoint))
}

async fn endpoint(State(service): State<Arc<Service>>, request: Request) -> Response {
    if request.method() != Method::POST {
        // Stateless: no event stream to GET, no session to DELETE.
        return ApiError::MethodNotAllowed {
            message: "the MCP endpoint is stateless and takes only POST",
            allow: Some("POST"),
        }
        .into_response();
    }
    let (mut parts, body) = request.into_parts();
    if let Err(e) = authorize(&service, &parts.headers, Scope::Check) {
        return e.into_response();
    }
    let limit = service.config().limits.max_body_bytes;
    let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
        return ApiError::too_large().into_response();
    };
    // A message with a repeated key is answered here, before rmcp reads it.
    if let Some(refused) = std::str::from_utf8(&bytes).ok().and_then(refusal) {
        return match refused {
            Some(answer) => (
                StatusCode::OK,
                [(header::CONTENT_TYPE, "application/json")],
                answer,
            )
                .into_response(),
            None => StatusCode::ACCEPTED.into_response(),
        };
    }
    let mcp: StreamableHttpService<Tools, NeverSessionManager> = StreamableHttpService::new(
        || {
            Ok(Tools {
                access: Access::Http,
            })
        },
        Arc::new(NeverSessionManager::default()),
        http_config(&service, limit),
    );
    // The tools find the service (and the caller's headers) in the request
    // parts rmcp hands them.
    parts.extensions.insert(service);
    let request = Request::from_parts(parts, Body::from(bytes));
    let response = mcp.handle(request).await.map(Body::new).into_response();
    json_rejection(response).await
}

/// rmcp's own rejections (a wrong `Accept` or `Content-Type`, a `Host` it
/// does not serve) are plain text: they get the service's JSON error shape.
async fn json_rejection(response: Response) -> Response {
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let code = match status {
        StatusCode::BAD_REQUEST => ErrorCode::BadRequest,
        StatusCode::FORBIDDEN => ErrorCode::Forbidden,
        StatusCode::NOT_ACCEPTABLE => ErrorCode::NotAcceptable,
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorCode::UnsupportedMediaType,
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::PayloadTooLarge,
        s if s.is_server_error() => ErrorCode::Internal,
        _ => ErrorCode::McpRejected,
    };
    let text = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_owned())
        .unwrap_or_default();
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("rejected").to_owned()
    } else {
        text
    };
    ApiError::Other {
        status,
        code,
        message,
    }
    .into_response()
}

/// rmcp's settings for one request: stateless JSON answers; the `Host`
/// check against DNS rebinding only where no key protects the service.
fn http_config(service: &Service, limit: usize) -> StreamableHttpServerConfig {
    let config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_sse_retry(None)
        .with_max_request_body_bytes(limit);
    if service.requires_keys() {
        return config.disable_allowed_hosts();
    }
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    if let Some(listen) = &service.config().listen {
        hosts.push(listen.clone());
        if let Some((host, _port)) = listen.rsplit_once(':') {
            hosts.push(host.trim_matches(['[', ']']).to_owned());
        }
    }
    config.with_allowed_hosts(hosts)
}

/// Where the tools find the service and the caller.
#[derive(Clone)]
enum Access {
    /// Streamable HTTP: the service and the caller's headers are in the
    /// request's parts.
    Http,
    /// Stdio: the default tenant, no credentials.
    Local(Arc<Service>),
}

/// The MCP server handler.
#[derive(Clone)]
struct Tools {
    access: Access,
}

impl Tools {
    /// The service and the caller a tool call is made for. `asked` is the
    /// tenant the arguments name.
    fn caller(
        &self,
        context: &RequestContext<RoleServer>,
        asked: Option<&str>,
    ) -> Result<(Arc<Service>, Caller), String> {
        match &self.access {
            Access::Local(service) => service
                .local(asked)
                .map(|caller| (service.clone(), caller))
                .map_err(|e| e.to_string()),
            Access::Http => {
                let parts = context
                    .extensions
                    .get::<Parts>()
                    .ok_or("the HTTP request is not available to the tool")?;
                let service = parts
                    .extensions
                    .get::<Arc<Service>>()
                    .ok_or("the service is not available to the tool")?
                    .clone();
                let header = tenant_header(&parts.headers);
                if let (Some(header), Some(asked)) = (header, asked)
                    && header != asked
                {
                    return Err(format!(
                        "the arguments name tenant `{asked}` but `X-Tenant-ID` is `{header}`"
                    ));
                }
                let caller = authorize_as(&service, &parts.headers, header.or(asked), Scope::Check)
                    .map_err(|e| e.to_string())?;
                Ok((service, caller))
            }
        }
    }

    async fn decide(
        &self,
        context: &RequestContext<RoleServer>,
        request: &CheckRequest,
    ) -> Result<Decision, String> {
        let (service, caller) = self.caller(context, request.tenant.as_deref())?;
        service.decide(&caller, request).await.map_err(|e| match e {
            DecideError::Request(e) => format!("invalid arguments: {e}"),
            DecideError::RateLimited(limited) => limited.to_string(),
            other => {
                tracing::error!("{other}");
                format!("no decision: {other}")
            }
        })
    }

    async fn check(
        &self,
        context: &RequestContext<RoleServer>,
        arguments: JsonObject,
    ) -> CallToolResult {
        let request = match parse_request_value(&Value::Object(arguments)) {
            Ok(r) => r,
            Err(e) => return tool_error(format!("invalid arguments: {e}")),
        };
        match self.decide(context, &request).await {
            Ok(decision) => match serde_json::to_value(&decision) {
                Ok(value) => CallToolResult::structured(value),
                Err(e) => tool_error(format!("the decision could not be serialized: {e}")),
            },
            Err(message) => tool_error(message),
        }
    }

    async fn check_action(
        &self,
        context: &RequestContext<RoleServer>,
        arguments: &JsonObject,
    ) -> CallToolResult {
        let request = match action_request(arguments) {
            Ok(r) => r,
            Err(e) => return tool_error(format!("invalid arguments: {e}")),
        };
        match self.decide(context, &request).await {
            Ok(decision) => CallToolResult::structured(cstp_result(&decision)),
            Err(message) => tool_error(message),
        }
    }
}

impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("palisade", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Palisade guardrails: call `check` with a v1 check request (a prompt, an \
                 answer, a tool call or result, an intended action) for a decision, or \
                 `check_action` with a described action for a CSTP result.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools().into_iter().find(|t| t.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.unwrap_or_default();
        let result = match request.name.as_ref() {
            CHECK => self.check(&context, arguments).await,
            CHECK_ACTION => self.check_action(&context, &arguments).await,
            other => {
                return Err(ErrorData::invalid_params(
                    format!("unknown tool `{other}`; the tools are `check` and `check_action`"),
                    None,
                ));
            }
        };
        Ok(result.into())
    }
}

fn tool_error(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

/// The tools' input schemas, generated from the types they read
/// (`cargo xtask generate` writes them; a stale copy fails its `--check`).
const TOOL_SCHEMAS: &str = include_str!("../mcp-tools.json");

/// The two tools with their input schemas.
fn tools() -> Vec<Tool> {
    static TOOLS: std::sync::OnceLock<Vec<Tool>> = std::sync::OnceLock::new();
    TOOLS
        .get_or_init(|| {
            let schemas: Map<String, Value> =
                serde_json::from_str(TOOL_SCHEMAS).unwrap_or_default();
            let schema = |name: &str| match schemas.get(name) {
                Some(Value::Object(map)) => Arc::new(map.clone()),
                _ => Arc::new(JsonObject::new()),
            };
            vec![
                Tool::new(
                    CHECK,
                    "Decide a v1 check request: a prompt (stage input), a model answer (output), \
                     a tool call (tool_use), a tool result (tool_output) or an intended action \
                     (action). Answers the decision: allow, block, ask or modify, with the \
                     violations and warnings that explain it.",
                    schema(CHECK),
                ),
                Tool::new(
                    CHECK_ACTION,
                    "Check an intended action against the guardrails (CSTP checkGuardrails). \
                     Answers {allowed, violations, warnings, evaluated, evaluatedAt} with entries \
                     {guardrailId, name, message, severity: block|warn, suggestion}.",
                    schema(CHECK_ACTION),
                ),
            ]
        })
        .clone()
}

/// The v1 `action` request of `check_action`'s arguments: the action's
/// description, category, stakes and confidence in `action`, its context as
/// the request context. Errors name the argument.
fn action_request(arguments: &JsonObject) -> Result<CheckRequest, String> {
    let arguments: CheckActionArguments = cstp::read(&Value::Object(arguments.clone()), "")
        .map_err(|e| match e.field.strip_prefix("agent.") {
            Some(member) => format!("`agent`: `{member}` {}", e.message),
            None => e.to_string(),
        })?;
    let (action, agent) = arguments.into_parts();
    cstp::action_request(action, agent, None, "").map_err(|e| e.to_string())
}

/// The CSTP result of a decision ([`cstp::result`], the same mapping
/// JSON-RPC's `cstp.checkGuardrails` answers with).
fn cstp_result(decision: &Decision) -> Value {
    serde_json::to_value(cstp::result(decision)).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use palisade_protocol::{Stage, Stakes};

    use super::*;

    fn args(value: Value) -> JsonObject {
        match value {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn the_seed_action_becomes_an_action_request() {
        let request = action_request(&args(json!({
            "description": "Deploy authentication service to production",
            "category": "architecture",
            "stakes": "high",
            "confidence": 0.85,
            "context": {"affectsProduction": true, "codeReviewCompleted": true},
            "agent": {"id": "emerson", "url": "https://emerson.example.com"}
        })))
        .unwrap();
        assert_eq!(request.effective_stage(), Stage::Action);
        let action = request.action.as_ref().unwrap();
        assert_eq!(
            action.description.as_deref(),
            Some("Deploy authentication service to production")
        );
        assert_eq!(action.category.as_deref(), Some("architecture"));
        assert_eq!(action.stakes, Some(Stakes::High));
        assert_eq!(action.confidence, Some(0.85));
        assert_eq!(
            Value::Object(request.context.clone().unwrap()),
            json!({"affectsProduction": true, "codeReviewCompleted": true})
        );
        let agent = request.agent.as_ref().unwrap();
        assert_eq!(agent.id.as_deref(), Some("emerson"));
        assert_eq!(agent.url.as_deref(), Some("https://emerson.example.com"));
        assert!(request.validate().is_ok());
    }

    #[test]
    fn a_bare_description_is_enough() {
        let request = action_request(&args(json!({"description": "Rotate keys"}))).unwrap();
        let action = request.action.unwrap();
        assert_eq!(action.stakes, None);
        assert_eq!(action.category, None);
        assert!(request.context.is_none() && request.agent.is_none());
    }

    #[test]
    fn bad_arguments_name_the_argument() {
        for (arguments, field) in [
            (json!({}), "description"),
            (json!({"description": ""}), "description"),
            (json!({"description": "  "}), "description"),
            (json!({"description": 3}), "description"),
            (json!({"description": "x", "stakes": "huge"}), "stakes"),
            (json!({"description": "x", "confidence": 1.5}), "confidence"),
            (
                json!({"description": "x", "confidence": "high"}),
                "confidence",
            ),
            (json!({"description": "x", "category": 1}), "category"),
            (json!({"description": "x", "context": []}), "context"),
            (json!({"description": "x", "agent": "emerson"}), "agent"),
            (json!({"description": "x", "agent": {"id": 1}}), "id"),
        ] {
            let error = action_request(&args(arguments.clone())).unwrap_err();
            assert!(
                error.contains(&format!("`{field}`")),
                "{arguments}: {error}"
            );
        }
    }
}
