//! JSON-RPC 2.0 at `POST /rpc` and `POST /cstp` (SPEC §6): `guardrails.check`
//! (a v1 request in, a Decision out) and CSTP's `cstp.checkGuardrails`.
//!
//! Both paths take the same single calls and batches. What the HTTP
//! exchange looks like:
//!
//! - every JSON-RPC answer, errors included, comes with HTTP 200: -32700
//!   (the body is not JSON), -32600 (not a request object, `jsonrpc` other
//!   than `"2.0"`, an `id` that is not a string, number or null, no string
//!   `method`, `params` neither object nor array, an empty batch, a key
//!   repeated inside a batch), -32601 (unknown method), -32602 (params that
//!   do not make a request; `data.field` names the field), -32002 (rate
//!   limited; `data.retryAfterSecs`, and a `Retry-After` header), -32004 (the
//!   decision's audit record could not be written, so it is not answered),
//!   -32603 (an answer could not be encoded);
//! - a notification (a call without `id`) is decided (and audited) but gets
//!   no answer; a body of notifications only is answered with HTTP 204 and
//!   an empty body;
//! - what concerns the HTTP request as a whole keeps its HTTP status and the
//!   service's JSON error body, as on every endpoint: 401/403 for the API key
//!   and tenant (checked before the body is read), 413 for a body over the
//!   limit.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use palisade_engine::{RequestError, parse_json, parse_request_value};
use palisade_protocol::{CheckRequest, Decision};
use serde::Serialize;
use serde_json::Value;

use crate::api::{ApiError, Authorized, Body};
use crate::dialect::cstp;
use crate::service::{Caller, DecideError, RateLimited, Service};
use crate::wire::{JsonRpcError, JsonRpcErrorData, JsonRpcResponse, JsonRpcVersion};

/// The JSON-RPC routes.
pub(crate) fn routes() -> Router<Arc<Service>> {
    Router::new()
        .route("/rpc", post(handle))
        .route("/cstp", post(handle))
}

/// The v1 method: a CheckRequest as params, the Decision as result.
const GUARDRAILS_CHECK: &str = "guardrails.check";
/// CSTP's method (seed 000).
const CSTP_CHECK: &str = "cstp.checkGuardrails";

/// Why a call got an error instead of a result.
#[derive(Debug, thiserror::Error)]
enum RpcError {
    /// -32700: the body is not JSON.
    #[error("parse error: {0}")]
    Parse(String),
    /// -32600: not a JSON-RPC 2.0 request.
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// -32601.
    #[error(
        "method not found: `{0}`; the methods are `guardrails.check` and `cstp.checkGuardrails`"
    )]
    MethodNotFound(String),
    /// -32602; `field` is a JSON pointer into the params (v1) or CSTP's
    /// dotted name.
    #[error("invalid params: {message}")]
    InvalidParams { field: String, message: String },
    /// -32002.
    #[error("{0}")]
    RateLimited(RateLimited),
    /// -32004: no decision may be answered without its audit record.
    #[error("evaluation failed: {0}")]
    EvaluationFailed(String),
    /// -32603.
    #[error("internal error: {0}")]
    Internal(String),
}

impl RpcError {
    fn code(&self) -> i64 {
        match self {
            RpcError::Parse(_) => -32700,
            RpcError::InvalidRequest(_) => -32600,
            RpcError::MethodNotFound(_) => -32601,
            RpcError::InvalidParams { .. } => -32602,
            RpcError::RateLimited(_) => -32002,
            RpcError::EvaluationFailed(_) => -32004,
            RpcError::Internal(_) => -32603,
        }
    }

    fn data(&self) -> Option<JsonRpcErrorData> {
        match self {
            RpcError::InvalidParams { field, .. } if !field.is_empty() => Some(JsonRpcErrorData {
                field: Some(field.clone()),
                ..JsonRpcErrorData::default()
            }),
            RpcError::RateLimited(r) => Some(JsonRpcErrorData {
                retry_after_secs: Some(r.retry_after_secs),
                ..JsonRpcErrorData::default()
            }),
            _ => None,
        }
    }

    /// Params that do not parse as a v1 request; the pointer is relative to
    /// the params.
    fn params(e: &RequestError) -> Self {
        RpcError::InvalidParams {
            field: e.pointer().to_owned(),
            message: e.to_string(),
        }
    }
}

impl From<cstp::InvalidParams> for RpcError {
    fn from(e: cstp::InvalidParams) -> Self {
        RpcError::InvalidParams {
            message: e.to_string(),
            field: e.field,
        }
    }
}

impl From<DecideError> for RpcError {
    fn from(e: DecideError) -> Self {
        match e {
            DecideError::RateLimited(r) => RpcError::RateLimited(r),
            DecideError::Request(r) => RpcError::params(&r),
            other => {
                tracing::error!("{other}");
                RpcError::EvaluationFailed(other.to_string())
            }
        }
    }
}

/// A response object, with what its HTTP response needs.
#[derive(Debug)]
struct Reply {
    body: JsonRpcResponse,
    /// For the `Retry-After` header of the HTTP response.
    retry_after_secs: Option<u64>,
}

impl Serialize for Reply {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.body.serialize(serializer)
    }
}

impl Reply {
    fn new(id: Value, outcome: Result<Value, RpcError>) -> Self {
        match outcome {
            Ok(result) => Reply {
                body: JsonRpcResponse {
                    jsonrpc: JsonRpcVersion::V2,
                    id,
                    result: Some(result),
                    error: None,
                },
                retry_after_secs: None,
            },
            Err(e) => Reply {
                retry_after_secs: match &e {
                    RpcError::RateLimited(r) => Some(r.retry_after_secs),
                    _ => None,
                },
                body: JsonRpcResponse {
                    jsonrpc: JsonRpcVersion::V2,
                    id,
                    result: None,
                    error: Some(JsonRpcError {
                        code: e.code(),
                        message: e.to_string(),
                        data: e.data(),
                    }),
                },
            },
        }
    }

    fn error(id: Value, e: RpcError) -> Self {
        Reply::new(id, Err(e))
    }
}

/// A well-formed call. `id` is `None` for a notification.
#[derive(Debug)]
struct Call {
    id: Option<Value>,
    method: String,
    params: Option<Value>,
}

/// Reads one request object; a malformed one is answered with -32600 (with
/// its id when that could be read, else null).
fn call(entry: Value) -> Result<Call, Box<Reply>> {
    let Value::Object(mut object) = entry else {
        return Err(Box::new(Reply::error(
            Value::Null,
            RpcError::InvalidRequest("a request must be a JSON object".into()),
        )));
    };
    let id = match object.remove("id") {
        None => None,
        Some(id @ (Value::String(_) | Value::Number(_) | Value::Null)) => Some(id),
        Some(_) => {
            return Err(Box::new(Reply::error(
                Value::Null,
                RpcError::InvalidRequest("`id` must be a string, a number or null".into()),
            )));
        }
    };
    let invalid = |message: &str| {
        Err(Box::new(Reply::error(
            id.clone().unwrap_or(Value::Null),
            RpcError::InvalidRequest(message.to_owned()),
        )))
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return invalid("`jsonrpc` must be \"2.0\"");
    }
    let method = match object.remove("method") {
        Some(Value::String(m)) => m,
        None => return invalid("`method` is required"),
        Some(_) => return invalid("`method` must be a string"),
    };
    let params = match object.remove("params") {
        None => None,
        Some(p @ (Value::Object(_) | Value::Array(_))) => Some(p),
        Some(_) => return invalid("`params` must be an object or an array"),
    };
    Ok(Call { id, method, params })
}

/// The answer to one entry of the body; `None` for a notification.
async fn answer(service: &Service, caller: &Caller, entry: Value) -> Option<Reply> {
    let call = match call(entry) {
        Ok(c) => c,
        Err(reply) => return Some(*reply),
    };
    let outcome = run(service, caller, &call).await;
    call.id.map(|id| Reply::new(id, outcome))
}

async fn run(service: &Service, caller: &Caller, call: &Call) -> Result<Value, RpcError> {
    match call.method.as_str() {
        GUARDRAILS_CHECK => {
            let request = v1_request(call.params.as_ref())?;
            encode(&service.decide(caller, &request).await?)
        }
        CSTP_CHECK => {
            let request = cstp::request(call.params.as_ref(), request_id(call.id.as_ref()))?;
            let decision: Decision = service.decide(caller, &request).await?;
            encode(&cstp::result(&decision))
        }
        other => Err(RpcError::MethodNotFound(other.to_owned())),
    }
}

/// The params of `guardrails.check`, read as strictly as `POST /v1/check`
/// reads its body.
fn v1_request(params: Option<&Value>) -> Result<CheckRequest, RpcError> {
    match params {
        Some(p @ Value::Object(_)) => parse_request_value(p).map_err(|e| RpcError::params(&e)),
        _ => Err(RpcError::InvalidParams {
            field: String::new(),
            message: "the params must be a v1 check request (a JSON object)".into(),
        }),
    }
}

/// A CSTP call's id as the request id, so that its audit record can be
/// found from the call.
fn request_id(id: Option<&Value>) -> Option<String> {
    match id? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

fn encode(value: &impl Serialize) -> Result<Value, RpcError> {
    serde_json::to_value(value).map_err(|e| RpcError::Internal(e.to_string()))
}

/// A key repeated anywhere in the body (which parsers would resolve
/// differently), as the error of the call it is in.
fn repeated_key(text: &str) -> Option<RpcError> {
    let RequestError::Malformed { pointer, message } = parse_json(text).err()? else {
        return None;
    };
    Some(match pointer.strip_prefix("/params") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => RpcError::InvalidParams {
            message: format!("{}: {message}", if rest.is_empty() { "/" } else { rest }),
            field: rest.to_owned(),
        },
        _ => RpcError::InvalidRequest(format!(
            "{}: {message}",
            if pointer.is_empty() { "/" } else { &pointer }
        )),
    })
}

async fn handle(
    State(service): State<Arc<Service>>,
    Authorized(caller, ..): Authorized,
    body: Result<Body, ApiError>,
) -> Response {
    let raw = match body {
        Ok(Body(b)) => b,
        Err(e) => return e.into_response(),
    };
    let value: Value = match serde_json::from_slice(&raw) {
        Ok(v) => v,
        Err(e) => {
            return respond_one(Reply::error(
                Value::Null,
                RpcError::Parse(format!("the body is not JSON: {e}")),
            ));
        }
    };
    // The body parsed, so it is UTF-8.
    let repeated = std::str::from_utf8(&raw).ok().and_then(repeated_key);
    match value {
        Value::Array(entries) if entries.is_empty() => respond_one(Reply::error(
            Value::Null,
            RpcError::InvalidRequest("an empty batch".into()),
        )),
        Value::Array(_) if repeated.is_some() => {
            let message = repeated.map_or_else(String::new, |e| match e {
                RpcError::InvalidParams { message, .. } | RpcError::InvalidRequest(message) => {
                    message
                }
                other => other.to_string(),
            });
            respond_one(Reply::error(
                Value::Null,
                RpcError::InvalidRequest(format!("the batch repeats a key: {message}")),
            ))
        }
        Value::Array(entries) => {
            let replies = futures::future::join_all(
                entries
                    .into_iter()
                    .map(|entry| answer(&service, &caller, entry)),
            )
            .await;
            respond(replies.into_iter().flatten().collect())
        }
        single => {
            let reply = match repeated {
                None => answer(&service, &caller, single).await,
                Some(e) => match call(single) {
                    Err(reply) => Some(*reply),
                    Ok(c) => match e {
                        RpcError::InvalidParams { .. } => c.id.map(|id| Reply::error(id, e)),
                        other => Some(Reply::error(Value::Null, other)),
                    },
                },
            };
            match reply {
                Some(r) => respond_one(r),
                None => StatusCode::NO_CONTENT.into_response(),
            }
        }
    }
}

/// A batch's answers: an array, or 204 when there is none (notifications only).
fn respond(replies: Vec<Reply>) -> Response {
    if replies.is_empty() {
        return StatusCode::NO_CONTENT.into_response();
    }
    let retry = replies.iter().filter_map(|r| r.retry_after_secs).max();
    with_retry_after(axum::Json(replies).into_response(), retry)
}

fn respond_one(reply: Reply) -> Response {
    let retry = reply.retry_after_secs;
    with_retry_after(axum::Json(reply).into_response(), retry)
}

fn with_retry_after(mut response: Response, secs: Option<u64>) -> Response {
    if let Some(v) = secs.and_then(|s| HeaderValue::from_str(&s.to_string()).ok()) {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::json;

    fn reply_json(reply: &Reply) -> Value {
        serde_json::to_value(reply).unwrap()
    }

    fn data(e: &RpcError) -> Option<Value> {
        e.data().map(|d| serde_json::to_value(d).unwrap())
    }

    #[test]
    fn calls_and_notifications_are_told_apart() {
        let c = call(json!({"jsonrpc": "2.0", "id": 7, "method": "m", "params": {}})).unwrap();
        assert_eq!(c.id, Some(json!(7)));
        assert_eq!(c.method, "m");
        let n = call(json!({"jsonrpc": "2.0", "method": "m"})).unwrap();
        assert!(n.id.is_none() && n.params.is_none());
        let null_id = call(json!({"jsonrpc": "2.0", "id": null, "method": "m"})).unwrap();
        assert_eq!(
            null_id.id,
            Some(Value::Null),
            "an explicit null id is a call"
        );
    }

    #[test]
    fn malformed_requests_are_answered_with_their_id_when_it_can_be_read() {
        let cases = [
            (json!(1), Value::Null, "JSON object"),
            (
                json!({"jsonrpc": "2.0", "id": [1], "method": "m"}),
                Value::Null,
                "`id`",
            ),
            (
                json!({"jsonrpc": "1.0", "id": "a", "method": "m"}),
                json!("a"),
                "`jsonrpc`",
            ),
            (json!({"id": "a", "method": "m"}), json!("a"), "`jsonrpc`"),
            (
                json!({"jsonrpc": "2.0", "id": 3}),
                json!(3),
                "`method` is required",
            ),
            (
                json!({"jsonrpc": "2.0", "id": 3, "method": 1}),
                json!(3),
                "`method` must",
            ),
            (
                json!({"jsonrpc": "2.0", "id": 3, "method": "m", "params": "x"}),
                json!(3),
                "`params`",
            ),
            (
                json!({"jsonrpc": "2.0", "method": 1}),
                Value::Null,
                "`method`",
            ),
        ];
        for (entry, id, needle) in cases {
            let r = reply_json(&call(entry.clone()).unwrap_err());
            assert_eq!(r["id"], id, "{entry}");
            assert_eq!(r["error"]["code"], -32600, "{entry}");
            let m = r["error"]["message"].as_str().unwrap();
            assert!(m.contains(needle), "{entry}: {m}");
            assert!(r.get("result").is_none());
        }
    }

    #[test]
    fn v1_params_errors_name_the_field() {
        let e = v1_request(Some(&json!({"tool": {"name": 5}}))).unwrap_err();
        assert_eq!(e.code(), -32602);
        assert_eq!(data(&e), Some(json!({"field": "/tool/name"})));
        assert!(e.to_string().contains("/tool/name"), "{e}");
        for p in [None, Some(json!([1]))] {
            assert_eq!(v1_request(p.as_ref()).unwrap_err().code(), -32602);
        }
        assert!(v1_request(Some(&json!({"content": "hi"}))).is_ok());
    }

    #[test]
    fn repeated_keys_belong_to_the_params_or_the_envelope() {
        let e = repeated_key(
            r#"{"jsonrpc":"2.0","id":1,"method":"guardrails.check","params":{"content":"a","content":"b"}}"#,
        )
        .unwrap();
        assert_eq!(e.code(), -32602);
        assert_eq!(data(&e), None, "the params object itself");
        assert!(
            e.to_string().contains("`content` appears more than once"),
            "{e}"
        );
        let e = repeated_key(
            r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"tool":{"name":"t","arguments":{"q":1,"q":2}}}}"#,
        )
        .unwrap();
        assert_eq!(data(&e), Some(json!({"field": "/tool/arguments"})));
        let e = repeated_key(r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}"#).unwrap();
        assert_eq!(e.code(), -32600);
        assert!(repeated_key(r#"{"jsonrpc":"2.0","id":1,"method":"m"}"#).is_none());
    }

    #[test]
    fn error_objects_carry_code_message_and_data() {
        let r = reply_json(&Reply::error(
            json!("x"),
            RpcError::RateLimited(RateLimited {
                retry_after_secs: 9,
            }),
        ));
        assert_eq!(r["jsonrpc"], "2.0");
        assert_eq!(r["id"], "x");
        assert_eq!(r["error"]["code"], -32002);
        assert_eq!(r["error"]["data"], json!({"retryAfterSecs": 9}));
        let r = reply_json(&Reply::error(
            Value::Null,
            RpcError::MethodNotFound("x.y".into()),
        ));
        assert_eq!(r["error"]["code"], -32601);
        assert!(r["error"].get("data").is_none());
        assert_eq!(r["id"], Value::Null, "a null id is written, not omitted");
    }

    #[test]
    fn cstp_ids_become_request_ids() {
        assert_eq!(
            request_id(Some(&json!("req-001"))).as_deref(),
            Some("req-001")
        );
        assert_eq!(request_id(Some(&json!(12))).as_deref(), Some("12"));
        assert_eq!(request_id(Some(&Value::Null)), None);
        assert_eq!(request_id(Some(&json!(""))), None);
        assert_eq!(request_id(None), None);
    }
}
