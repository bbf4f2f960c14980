//! The playground page at `/`: plain HTML, CSS and JavaScript embedded in
//! the binary, to try the policy in force from a browser. The page is
//! static and holds no data: everything it shows comes from the public API
//! (`GET /v1/policy`, `POST /v1/check`, `POST /v1/check/stream`,
//! `GET /v1/audit`, `GET /v1/approvals`, `POST /v1/approvals/{id}`) with
//! the key typed into the page, which the page keeps in memory only. So it is served without a key, like `/health`; the
//! config's `playground: false` turns it off (then `/` is 404).

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use std::sync::Arc;

use crate::service::Service;

const PAGE: &str = include_str!("playground/index.html");
const SCRIPT: &str = include_str!("playground/playground.js");
const STYLE: &str = include_str!("playground/playground.css");

/// Only the page's own script and style, and requests to this origin: a
/// request's text shown in the page can never run as code there.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// Adds the page's routes to `router`.
pub(crate) fn routes(router: Router<Arc<Service>>) -> Router<Arc<Service>> {
    router
        .route(
            "/",
            get(|| async { asset(PAGE, "text/html; charset=utf-8") }),
        )
        .route(
            "/playground.js",
            get(|| async { asset(SCRIPT, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/playground.css",
            get(|| async { asset(STYLE, "text/css; charset=utf-8") }),
        )
}

fn asset(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(CONTENT_SECURITY_POLICY),
            ),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
            (
                header::REFERRER_POLICY,
                HeaderValue::from_static("no-referrer"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        ],
        body,
    )
        .into_response()
}
