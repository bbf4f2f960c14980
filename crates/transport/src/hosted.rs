//! Placeholder for the `hosted` dialect's routes.

use std::sync::Arc;

use axum::Router;

use crate::Service;

/// The dialect's routes.
pub(crate) fn routes() -> Router<Arc<Service>> {
    Router::new()
}
