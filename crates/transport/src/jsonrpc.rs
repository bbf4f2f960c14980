//! JSON-RPC 2.0 at `POST /rpc` and `POST /cstp` (SPEC §6).

use std::sync::Arc;

use axum::Router;

use crate::Service;

/// The JSON-RPC routes.
pub(crate) fn routes() -> Router<Arc<Service>> {
    Router::new()
}
