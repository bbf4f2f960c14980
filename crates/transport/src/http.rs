//! The HTTP service (SPEC §6): the router of every endpoint, and the v1
//! and operations endpoints (`POST /v1/check`, `GET /v1/policy`,
//! `POST /v1/admin/reload`, `GET /v1/audit`, `POST /v1/autogen/evaluate`,
//! `GET /metrics`, `GET /openapi.json`, `GET /health` and `/healthz`), and
//! the playground page at `/`.
//!
//! Every error is JSON, `{"error": {"code": "...", "message": "..."}}`: 400
//! for a bad request (naming the field), 401/403 for authentication, 404 for
//! an unknown path, 405 for a wrong method, 413 for a body over the limit
//! (except a hook's, which is answered in its host's format whatever its size),
//! 503 when the decision's audit record could not be written (the decision
//! is then not answered).

use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::api::{AdminScope, ApiError, Authorized, V1Request, Wire};
use crate::service::Service;
use crate::wire::{
    AuditPage, AutogenEvaluate, AutogenResult, Health, PolicyCheck, PolicyView, Reloaded,
};

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
    #[cfg(feature = "gateway")]
    let router = router.merge(crate::gateway::serve::routes(&service));
    #[cfg(feature = "hooks")]
    // A hook is answered in its host's format whatever its size (a host
    // lets the call through on any status but 200): it reads its own body.
    let router = router.route(
        "/v1/hooks/{host}",
        post(hook).layer(DefaultBodyLimit::disable()),
    );
    let router = if service.config().playground {
        crate::playground::routes(router)
    } else {
        router
    };
    router
        .route("/v1/check", post(check))
        .route("/v1/policy", get(policy))
        .route("/v1/check/stream", post(crate::stream::check_stream))
        .route("/v1/admin/reload", post(reload))
        .route("/v1/audit", get(audit))
        .route("/v1/approvals", get(crate::approvals::list))
        .route(
            "/v1/approvals/{id}",
            get(crate::approvals::show).post(crate::approvals::answer),
        )
        .route("/v1/autogen/evaluate", post(autogen))
        .route("/metrics", get(metrics))
        .route("/openapi.json", get(openapi))
        .route("/health", get(health))
        .route("/healthz", get(health))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(axum::middleware::from_fn(crate::telemetry::http_span))
        .with_state(service)
}

async fn check(
    State(service): State<Arc<Service>>,
    Authorized(caller, ..): Authorized,
    V1Request(request): V1Request,
) -> Result<Response, ApiError> {
    let decision = service.decide(&caller, &request).await?;
    Ok(axum::Json(decision).into_response())
}

/// `GET /v1/policy`: the policy in force for the caller's tenant.
async fn policy(Authorized(caller, ..): Authorized) -> axum::Json<PolicyView> {
    let checks = caller
        .guard
        .policy()
        .checks()
        .iter()
        .map(|c| PolicyCheck {
            id: c.id.clone(),
            name: c.name.clone(),
            check_type: c.kind.type_name().to_owned(),
            stages: c.stages.iter().map(|s| s.to_string()).collect(),
            on_fail: c.on_fail.as_str().to_owned(),
            severity: c.severity.to_string(),
            enabled: c.enabled,
        })
        .collect();
    let source = &caller.source;
    axum::Json(PolicyView {
        tenant: caller.tenant,
        origin: if source.path.is_some() {
            "file"
        } else {
            "embedded default"
        }
        .to_owned(),
        format: source.format.to_owned(),
        text: source.text.clone(),
        checks,
    })
}

async fn reload(
    State(service): State<Arc<Service>>,
    Authorized(caller, ..): Authorized<AdminScope>,
) -> Result<axum::Json<Reloaded>, ApiError> {
    // An admin key reloads its own tenant's policy; without keys, all.
    let result = if service.requires_keys() {
        service.reload_tenant(&caller.tenant)
    } else {
        service.reload()
    };
    match result {
        Ok(tenants) => Ok(axum::Json(Reloaded {
            reloaded: true,
            tenants,
        })),
        Err(errors) => Err(ApiError::InvalidPolicy(errors)),
    }
}

async fn metrics(
    State(service): State<Arc<Service>>,
    Authorized(caller, ..): Authorized,
) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, crate::metrics::CONTENT_TYPE)],
        // A key sees its own tenant's series only.
        service.metrics_text(service.requires_keys().then_some(caller.tenant.as_str())),
    )
        .into_response()
}

async fn openapi(_: Authorized) -> Response {
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
    Authorized(caller, ..): Authorized<AdminScope>,
    query: Result<axum::extract::Query<AuditQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<axum::Json<AuditPage>, ApiError> {
    let limit = match query {
        Ok(q) => q.limit.unwrap_or(100),
        Err(e) => return Err(ApiError::invalid(e.body_text())),
    };
    if limit == 0 || limit > MAX_AUDIT_RECORDS {
        return Err(ApiError::invalid(format!(
            "`limit` must be from 1 to {MAX_AUDIT_RECORDS}"
        )));
    }
    match service.audit_records(&caller.tenant, limit).await {
        None => Err(ApiError::AuditDisabled),
        Some(Err(e)) => Err(ApiError::AuditUnavailable(e)),
        Some(Ok(records)) => Ok(axum::Json(AuditPage {
            tenant: caller.tenant,
            records,
        })),
    }
}

/// `POST /v1/autogen/evaluate`: AutoGen's `GuardrailProvider.evaluate`.
async fn autogen(
    State(service): State<Arc<Service>>,
    Authorized(caller, ..): Authorized,
    Wire(evaluate): Wire<AutogenEvaluate>,
) -> Result<axum::Json<AutogenResult>, ApiError> {
    use crate::dialect::autogen;
    let request = autogen::request(&evaluate);
    let decision = service.decide(&caller, &request).await?;
    Ok(axum::Json(autogen::result(&decision)))
}

/// `POST /v1/hooks/{host}`: a coding agent's hook payload, answered in the
/// host's own format (SPEC §10). A payload that cannot be read, or a
/// request that cannot be decided, is answered with the host's deny (status
/// 200, which hosts obey; they let the call through on any other status).
#[cfg(feature = "hooks")]
async fn hook(
    State(service): State<Arc<Service>>,
    axum::extract::Path(host): axum::extract::Path<String>,
    Authorized(caller, ..): Authorized,
    body: axum::body::Body,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    use crate::hooks::{self, HookEnv, HookError, Host};
    let Some(host) = Host::from_name(&host) else {
        return Err(ApiError::UnknownHost(format!(
            "no hook host `{host}`; hosts are {}",
            Host::names()
        )));
    };
    let raw = match hook_body(body).await {
        Ok(raw) => raw,
        Err(message) => {
            let e = HookError {
                message,
                event: None,
            };
            return Ok(axum::Json(hooks::refuse(host, &e).body()));
        }
    };
    let env = HookEnv {
        home: std::env::var("HOME").ok().filter(|h| !h.is_empty()),
        project_dir: None,
    };
    let mut call = match hooks::read(host, &raw, &env) {
        Ok(call) => call,
        Err(e) => return Ok(axum::Json(hooks::refuse(host, &e).body())),
    };
    let stream = call.stream_key().map(str::to_owned);
    if let Some(key) = &stream {
        call.carry(&service.stream_tails().get(key));
    }
    let mut decisions = Vec::with_capacity(call.requests().len());
    for request in call.requests() {
        match service.decide(&caller, request).await {
            Ok(d) => decisions.push(d),
            Err(e) => {
                let why = ApiError::from(e).to_string();
                return Ok(axum::Json(call.refuse(&why).body()));
            }
        }
    }
    if let (Some(key), Some(tail)) = (&stream, call.stream_tail(&decisions)) {
        service.stream_tails().put(key, tail);
    }
    Ok(axum::Json(call.answer(&decisions).body()))
}

/// A hook's body: at most [`hooks::MAX_PAYLOAD_BYTES`](crate::hooks::MAX_PAYLOAD_BYTES)
/// kept; a larger one is read to its end (up to
/// [`HOOK_DRAIN_BYTES`], so that the host gets the answer rather than a
/// broken connection) and refused with its size.
#[cfg(feature = "hooks")]
async fn hook_body(body: axum::body::Body) -> Result<Vec<u8>, String> {
    use futures::StreamExt;
    let max = crate::hooks::MAX_PAYLOAD_BYTES;
    let mut stream = body.into_data_stream();
    let mut raw = Vec::new();
    let mut total: usize = 0;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|e| format!("the hook payload could not be read: {e}"))?;
        total = total.saturating_add(chunk.len());
        if total <= max {
            raw.extend_from_slice(&chunk);
        } else if total > HOOK_DRAIN_BYTES {
            break;
        } else if !raw.is_empty() {
            raw = Vec::new();
        }
    }
    if total > max {
        return Err(format!(
            "the hook payload is over {max} bytes ({total} read); at most {max} are read"
        ));
    }
    Ok(raw)
}

/// How much of a hook's body over the limit is read, to answer after it.
#[cfg(feature = "hooks")]
const HOOK_DRAIN_BYTES: usize = 256 * 1024 * 1024;

async fn health() -> axum::Json<Health> {
    axum::Json(Health {
        status: "ok".to_owned(),
    })
}

async fn not_found() -> ApiError {
    ApiError::NotFound
}

async fn method_not_allowed() -> ApiError {
    ApiError::MethodNotAllowed {
        message: "this endpoint does not take that method",
        allow: None,
    }
}
