//! What every HTTP route shares: the caller extractor (API key, tenant,
//! scope) and [`ApiError`], the one error type whose response is the
//! service's JSON error body.

use std::marker::PhantomData;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use palisade_protocol::CheckRequest;

use crate::service::{AuthError, Caller, DecideError, RateLimited, Scope, Service};
use crate::wire::{ErrorBody, ErrorCode};

/// Why an HTTP request got no answer; its response is the JSON error body
/// with the status the error means.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ApiError {
    /// 401 (with `WWW-Authenticate: Bearer`) or 403.
    #[error(transparent)]
    Auth(#[from] AuthError),
    /// 413 over the body limit, else 400 `bad_request`.
    #[error("{message}")]
    Body {
        /// The status.
        status: StatusCode,
        /// What went wrong.
        message: String,
    },
    /// 400 `invalid_request`: the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// 429 with `Retry-After`.
    #[error(transparent)]
    RateLimited(#[from] RateLimited),
    /// 503: the audit record could not be written (or read).
    #[error("{0}")]
    AuditUnavailable(String),
    /// 404: the service has no audit log.
    #[error("the service has no audit log (the config's `audit` section)")]
    AuditDisabled,
    /// 404, 409 or 503: an approval that could not be answered or read.
    #[error("{message}")]
    Approval {
        /// The status.
        status: StatusCode,
        /// The code.
        code: ErrorCode,
        /// What went wrong.
        message: String,
    },
    /// 422: a reloaded policy is invalid.
    #[error("a policy is invalid; the running policies are kept")]
    InvalidPolicy(Vec<String>),
    /// 404.
    #[error("no such endpoint")]
    NotFound,
    /// 404: `/v1/hooks/{host}` with a host Palisade does not know.
    #[cfg(feature = "hooks")]
    #[error("{0}")]
    UnknownHost(String),
    /// 405, with the methods the endpoint takes.
    #[error("{message}")]
    MethodNotAllowed {
        /// What to say.
        message: &'static str,
        /// The `Allow` header, when the route knows it.
        allow: Option<&'static str>,
    },
    /// Another status, as MCP's server gave it.
    #[cfg(feature = "mcp")]
    #[error("{message}")]
    Other {
        /// The status.
        status: StatusCode,
        /// The code.
        code: ErrorCode,
        /// What went wrong.
        message: String,
    },
}

/// The message of a body over `limits.max_body_bytes`.
pub(crate) const TOO_LARGE: &str =
    "the request body is over the service's limit (limits.max_body_bytes)";

impl ApiError {
    /// 413.
    pub(crate) fn too_large() -> Self {
        ApiError::Body {
            status: StatusCode::PAYLOAD_TOO_LARGE,
            message: TOO_LARGE.to_owned(),
        }
    }

    /// 400 `invalid_request`.
    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        ApiError::Invalid(message.into())
    }

    fn status_and_code(&self) -> (StatusCode, ErrorCode) {
        match self {
            ApiError::Auth(AuthError::Missing | AuthError::Unknown) => {
                (StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized)
            }
            ApiError::Auth(_) => (StatusCode::FORBIDDEN, ErrorCode::Forbidden),
            ApiError::Body { status, .. } if *status == StatusCode::PAYLOAD_TOO_LARGE => {
                (*status, ErrorCode::PayloadTooLarge)
            }
            ApiError::Body { status, .. } => (*status, ErrorCode::BadRequest),
            ApiError::Invalid(_) => (StatusCode::BAD_REQUEST, ErrorCode::InvalidRequest),
            ApiError::RateLimited(_) => (StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited),
            ApiError::AuditUnavailable(_) => {
                (StatusCode::SERVICE_UNAVAILABLE, ErrorCode::AuditUnavailable)
            }
            ApiError::AuditDisabled => (StatusCode::NOT_FOUND, ErrorCode::AuditDisabled),
            ApiError::InvalidPolicy(_) => {
                (StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::InvalidPolicy)
            }
            ApiError::NotFound => (StatusCode::NOT_FOUND, ErrorCode::NotFound),
            ApiError::Approval { status, code, .. } => (*status, *code),
            #[cfg(feature = "hooks")]
            ApiError::UnknownHost(_) => (StatusCode::NOT_FOUND, ErrorCode::NotFound),
            ApiError::MethodNotAllowed { .. } => {
                (StatusCode::METHOD_NOT_ALLOWED, ErrorCode::MethodNotAllowed)
            }
            #[cfg(feature = "mcp")]
            ApiError::Other { status, code, .. } => (*status, *code),
        }
    }
}

impl From<DecideError> for ApiError {
    fn from(e: DecideError) -> Self {
        match e {
            DecideError::RateLimited(limited) => ApiError::RateLimited(limited),
            DecideError::Request(e) => ApiError::Invalid(e.to_string()),
            other => {
                tracing::error!("{other}");
                ApiError::AuditUnavailable(other.to_string())
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        let mut body = ErrorBody::new(code, self.to_string());
        let mut headers = HeaderMap::new();
        match self {
            ApiError::Auth(_) if status == StatusCode::UNAUTHORIZED => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            ApiError::RateLimited(limited) => {
                if let Ok(v) = HeaderValue::from_str(&limited.retry_after_secs.to_string()) {
                    headers.insert(header::RETRY_AFTER, v);
                }
            }
            ApiError::MethodNotAllowed {
                allow: Some(allow), ..
            } => {
                headers.insert(header::ALLOW, HeaderValue::from_static(allow));
            }
            ApiError::InvalidPolicy(details) => body = body.with_details(details),
            _ => {}
        }
        (status, headers, axum::Json(body)).into_response()
    }
}

/// The scope a route needs, as a type.
pub(crate) trait NeedsScope {
    /// The scope.
    const SCOPE: Scope;
}

/// `guardrails:check`.
#[derive(Debug)]
pub(crate) struct CheckScope;

impl NeedsScope for CheckScope {
    const SCOPE: Scope = Scope::Check;
}

/// `guardrails:admin`.
#[derive(Debug)]
pub(crate) struct AdminScope;

impl NeedsScope for AdminScope {
    const SCOPE: Scope = Scope::Admin;
}

/// `guardrails:approve`.
#[derive(Debug)]
pub(crate) struct ApproveScope;

impl NeedsScope for ApproveScope {
    const SCOPE: Scope = Scope::Approve;
}

impl From<palisade_checks::approvals::AnswerError> for ApiError {
    fn from(e: palisade_checks::approvals::AnswerError) -> Self {
        use palisade_checks::approvals::AnswerError;
        let (status, code) = match &e {
            AnswerError::Unknown(_) => (StatusCode::NOT_FOUND, ErrorCode::ApprovalNotFound),
            AnswerError::NotPending { .. } => (StatusCode::CONFLICT, ErrorCode::ApprovalNotPending),
            AnswerError::OwnCall { .. } => (StatusCode::FORBIDDEN, ErrorCode::Forbidden),
            AnswerError::Audit(_) => (StatusCode::SERVICE_UNAVAILABLE, ErrorCode::AuditUnavailable),
            _ => (
                StatusCode::SERVICE_UNAVAILABLE,
                ErrorCode::ApprovalsUnavailable,
            ),
        };
        ApiError::Approval {
            status,
            code,
            message: e.to_string(),
        }
    }
}

/// The caller of a request, let in by its key (`X-API-Key` or
/// `Authorization: Bearer`), the scope `S` and the tenant it names
/// (`X-Tenant-ID`). Extracted from the headers, before the body is read.
#[derive(Debug)]
pub(crate) struct Authorized<S = CheckScope>(pub(crate) Caller, pub(crate) PhantomData<S>);

impl<S: NeedsScope + Send> FromRequestParts<Arc<Service>> for Authorized<S> {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        service: &Arc<Service>,
    ) -> Result<Self, Self::Rejection> {
        authorize(service, &parts.headers, S::SCOPE).map(|caller| Authorized(caller, PhantomData))
    }
}

/// Lets the caller of a request in by its headers.
pub(crate) fn authorize(
    service: &Service,
    headers: &HeaderMap,
    scope: Scope,
) -> Result<Caller, ApiError> {
    Ok(authorize_as(
        service,
        headers,
        tenant_header(headers),
        scope,
    )?)
}

/// Lets the caller of a request in by its key as `tenant`.
pub(crate) fn authorize_as(
    service: &Service,
    headers: &HeaderMap,
    tenant: Option<&str>,
    scope: Scope,
) -> Result<Caller, AuthError> {
    service.authorize(api_key(headers), tenant, scope)
}

/// The tenant a request names (`X-Tenant-ID`).
pub(crate) fn tenant_header(headers: &HeaderMap) -> Option<&str> {
    headers.get("x-tenant-id").and_then(|v| v.to_str().ok())
}

/// The key a request carries: `X-API-Key`, else `Authorization: Bearer`.
fn api_key(headers: &HeaderMap) -> Option<&str> {
    if let Some(k) = headers.get("x-api-key").and_then(|v| v.to_str().ok()) {
        return Some(k.trim());
    }
    let auth = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = auth.trim().split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The whole body, at most `limits.max_body_bytes` (413 over it).
#[derive(Debug)]
pub(crate) struct Body(pub(crate) Bytes);

impl FromRequest<Arc<Service>> for Body {
    type Rejection = ApiError;

    async fn from_request(request: Request, service: &Arc<Service>) -> Result<Self, ApiError> {
        Bytes::from_request(request, service)
            .await
            .map(Body)
            .map_err(|rejection| {
                let status = rejection.status();
                if status == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::too_large()
                } else {
                    ApiError::Body {
                        status,
                        message: rejection.body_text(),
                    }
                }
            })
    }
}

/// A v1 request body (`POST /v1/check`): UTF-8, one JSON object, no key
/// repeated in any object, read in one call with errors that name the field
/// (`palisade_engine::parse_request`); any problem is a 400 `invalid_request`.
#[derive(Debug)]
pub(crate) struct V1Request(pub(crate) CheckRequest);

impl FromRequest<Arc<Service>> for V1Request {
    type Rejection = ApiError;

    async fn from_request(request: Request, service: &Arc<Service>) -> Result<Self, ApiError> {
        let Body(raw) = Body::from_request(request, service).await?;
        let text = utf8(&raw)?;
        palisade_engine::parse_request(text)
            .map(V1Request)
            .map_err(|e| ApiError::invalid(e.to_string()))
    }
}

/// A typed wire body: UTF-8, JSON with no key repeated in any object (the
/// guardrail and the agent could read different values), read into `T`
/// from the one parse; an error names the member (`a.b[2]`). Any problem
/// is a 400 `invalid_request`.
#[derive(Debug)]
pub(crate) struct Wire<T>(pub(crate) T);

impl<T: serde::de::DeserializeOwned> FromRequest<Arc<Service>> for Wire<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, service: &Arc<Service>) -> Result<Self, ApiError> {
        let Body(raw) = Body::from_request(request, service).await?;
        let value = palisade_engine::parse_json(utf8(&raw)?)
            .map_err(|e| ApiError::invalid(e.to_string()))?;
        typed(value).map(Wire)
    }
}

/// The body as text; not UTF-8 is a 400.
pub(crate) fn utf8(raw: &[u8]) -> Result<&str, ApiError> {
    std::str::from_utf8(raw).map_err(|_| ApiError::invalid("the body is not UTF-8"))
}

/// Reads a parsed JSON body into `T`; an error names the member (`a.b[2]`).
pub(crate) fn typed<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let at = e.path().to_string();
        ApiError::invalid(if at == "." {
            e.inner().to_string()
        } else {
            format!("`{at}`: {}", e.inner())
        })
    })
}
