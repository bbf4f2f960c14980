//! The HTTP service (SPEC §6): `POST /v1/check`, `POST /v1/admin/reload`,
//! `GET /health` and `/healthz`.
//!
//! Every error is JSON, `{"error": {"code": "...", "message": "..."}}`: 400
//! for a bad request (naming the field), 401/403 for authentication, 404 for
//! an unknown path, 405 for a wrong method, 413 for a body over the limit,
//! 503 when the decision's audit record could not be written (the decision
//! is then not answered).

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use palisade_engine::parse_request;
use serde_json::json;

use crate::service::{AuthError, Caller, DecideError, Scope, Service};

/// The service's routes.
pub fn router(service: Arc<Service>) -> Router {
    let limit = service.config().limits.max_body_bytes;
    let router = Router::new();
    #[cfg(feature = "jsonrpc")]
    let router = router.merge(crate::jsonrpc::routes());
    #[cfg(feature = "hosted")]
    let router = router.merge(crate::hosted::routes());
    #[cfg(feature = "mcp")]
    let router = router.merge(crate::mcp::routes());
    router
        .route("/v1/check", post(check))
        .route("/v1/check/stream", post(crate::stream::check_stream))
        .route("/v1/admin/reload", post(reload))
        .route("/v1/audit", get(audit))
        .route("/v1/autogen/evaluate", post(autogen))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
        .route("/health", get(health))
        .route("/healthz", get(health))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(service)
}

/// A JSON error response.
pub fn error(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    let body = json!({"error": {"code": code, "message": message.into()}});
    (status, axum::Json(body)).into_response()
}

/// The response of a caller who is not let in (401 with `WWW-Authenticate`, or 403).
pub(crate) fn auth_error(e: &AuthError) -> Response {
    let status = StatusCode::from_u16(e.status()).unwrap_or(StatusCode::FORBIDDEN);
    let code = match e {
        AuthError::Missing | AuthError::Unknown => "unauthorized",
        _ => "forbidden",
    };
    let mut response = error(status, code, e.to_string());
    if status == StatusCode::UNAUTHORIZED {
        response.headers_mut().insert(
            header::WWW_AUTHENTICATE,
            header::HeaderValue::from_static("Bearer"),
        );
    }
    response
}

/// The key a request carries: `X-API-Key`, else `Authorization: Bearer`.
pub(crate) fn api_key(headers: &HeaderMap) -> Option<&str> {
    if let Some(k) = headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        return Some(k.trim());
    }
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = auth.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// Lets the caller of a request in by its headers (`X-API-Key` or
/// `Authorization: Bearer`, `X-Tenant-ID`), or the error response.
pub(crate) fn authorize_headers(
    service: &Service,
    headers: &HeaderMap,
    scope: Scope,
) -> Result<Caller, Box<Response>> {
    authorize(service, headers, scope)
}

fn authorize(
    service: &Service,
    headers: &HeaderMap,
    scope: Scope,
) -> Result<Caller, Box<Response>> {
    let tenant = headers.get("x-tenant-id").and_then(|v| v.to_str().ok());
    service
        .authorize(api_key(headers), tenant, scope)
        .map_err(|e| Box::new(auth_error(&e)))
}

/// The body, or the error response of a body that could not be read (413
/// over the limit).
fn body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, Box<Response>> {
    body.map_err(|rejection| Box::new(body_error(&rejection)))
}

/// The response to a body that could not be read: 413 over the limit.
pub(crate) fn body_error(rejection: &BytesRejection) -> Response {
    let status = rejection.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        error(
            status,
            "payload_too_large",
            "the request body is over the service's limit (limits.max_body_bytes)",
        )
    } else {
        error(status, "bad_request", rejection.body_text())
    }
}

/// The caller and the body of a check request, or the response refusing it.
fn admitted(
    service: &Service,
    headers: &HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Result<(Caller, Bytes), Box<Response>> {
    let caller = authorize(service, headers, Scope::Check)?;
    Ok((caller, body(raw)?))
}

/// The response of a request that got no decision: 429, 400, or 503 (the
/// audit record could not be written, so no decision is answered).
pub(crate) fn decide_error(e: DecideError) -> Response {
    match e {
        DecideError::RateLimited(limited) => rate_limited(limited),
        DecideError::Request(e) => error(StatusCode::BAD_REQUEST, "invalid_request", e.to_string()),
        other => {
            tracing::error!("{other}");
            error(
                StatusCode::SERVICE_UNAVAILABLE,
                "audit_unavailable",
                other.to_string(),
            )
        }
    }
}

async fn check(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    let (caller, raw) = match admitted(&service, &headers, raw) {
        Ok(x) => x,
        Err(r) => return *r,
    };
    let Ok(text) = std::str::from_utf8(&raw) else {
        return error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "the body is not UTF-8",
        );
    };
    let request = match parse_request(text) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, "invalid_request", e.to_string()),
    };
    match service.decide(&caller, &request).await {
        Ok(decision) => (StatusCode::OK, axum::Json(decision)).into_response(),
        Err(e) => decide_error(e),
    }
}

/// 429 with `Retry-After`.
pub fn rate_limited(limited: crate::RateLimited) -> Response {
    let mut response = error(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        limited.to_string(),
    );
    if let Ok(v) = header::HeaderValue::from_str(&limited.retry_after_secs.to_string()) {
        response.headers_mut().insert(header::RETRY_AFTER, v);
    }
    response
}

async fn reload(State(service): State<Arc<Service>>, headers: HeaderMap) -> Response {
    let caller = match authorize(&service, &headers, Scope::Admin) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    // An admin key reloads its own tenant's policy; without keys, all.
    let result = if service.requires_keys() {
        service.reload_tenant(&caller.tenant)
    } else {
        service.reload()
    };
    match result {
        Ok(n) => (
            StatusCode::OK,
            axum::Json(json!({"reloaded": true, "tenants": n})),
        )
            .into_response(),
        Err(errors) => {
            let body = json!({"error": {
                "code": "invalid_policy",
                "message": "a policy is invalid; the running policies are kept",
                "details": errors,
            }});
            (StatusCode::UNPROCESSABLE_ENTITY, axum::Json(body)).into_response()
        }
    }
}

async fn metrics(State(service): State<Arc<Service>>, headers: HeaderMap) -> Response {
    let caller = match authorize(&service, &headers, Scope::Check) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        // A key sees its own tenant's series only.
        service.metrics_text(service.requires_keys().then_some(caller.tenant.as_str())),
    )
        .into_response()
}

async fn openapi(State(service): State<Arc<Service>>, headers: HeaderMap) -> Response {
    if let Err(r) = authorize(&service, &headers, Scope::Check) {
        return *r;
    }
    crate::openapi::openapi().await
}

/// Most records `GET /v1/audit` returns.
const MAX_AUDIT_RECORDS: usize = 10_000;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct AuditQuery {
    limit: Option<usize>,
}

/// `GET /v1/audit?limit=N`: the caller's tenant's last audit records.
async fn audit(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    query: Result<axum::extract::Query<AuditQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let caller = match authorize(&service, &headers, Scope::Admin) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    let limit = match query {
        Ok(q) => q.limit.unwrap_or(100),
        Err(e) => return error(StatusCode::BAD_REQUEST, "invalid_request", e.body_text()),
    };
    if limit == 0 || limit > MAX_AUDIT_RECORDS {
        return error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            format!("`limit` must be from 1 to {MAX_AUDIT_RECORDS}"),
        );
    }
    match service.audit_records(&caller.tenant, limit).await {
        None => error(
            StatusCode::NOT_FOUND,
            "audit_disabled",
            "the service has no audit log (the config's `audit` section)",
        ),
        Some(Err(e)) => error(StatusCode::SERVICE_UNAVAILABLE, "audit_unavailable", e),
        Some(Ok(records)) => (
            StatusCode::OK,
            axum::Json(json!({"tenant": caller.tenant, "records": records})),
        )
            .into_response(),
    }
}

/// `POST /v1/autogen/evaluate`: AutoGen's `GuardrailProvider.evaluate`.
async fn autogen(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    raw: Result<Bytes, BytesRejection>,
) -> Response {
    use crate::dialect::autogen;
    let (caller, raw) = match admitted(&service, &headers, raw) {
        Ok(x) => x,
        Err(r) => return *r,
    };
    // A repeated key (in `args` or anywhere) is refused as on every transport.
    if serde_json::from_slice::<serde::de::IgnoredAny>(&raw).is_ok() {
        let repeated = std::str::from_utf8(&raw)
            .map_err(|e| e.to_string())
            .and_then(|t| {
                palisade_engine::parse_json(t)
                    .map(drop)
                    .map_err(|e| e.to_string())
            });
        if let Err(message) = repeated {
            return error(StatusCode::BAD_REQUEST, "invalid_request", message);
        }
    }
    let de = &mut serde_json::Deserializer::from_slice(&raw);
    let evaluate: autogen::Evaluate = match serde_path_to_error::deserialize(de) {
        Ok(e) => e,
        Err(e) => {
            let at = e.path().to_string();
            let message = if at == "." {
                e.inner().to_string()
            } else {
                format!("{at}: {}", e.inner())
            };
            return error(StatusCode::BAD_REQUEST, "invalid_request", message);
        }
    };
    let request = autogen::request(&evaluate);
    match service.decide(&caller, &request).await {
        Ok(d) => (StatusCode::OK, axum::Json(autogen::result(&d))).into_response(),
        Err(e) => decide_error(e),
    }
}

async fn health() -> Response {
    axum::Json(json!({"status": "ok"})).into_response()
}

async fn not_found() -> Response {
    error(StatusCode::NOT_FOUND, "not_found", "no such endpoint")
}

async fn method_not_allowed() -> Response {
    error(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this endpoint does not take that method",
    )
}
