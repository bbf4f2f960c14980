//! Palisade's service: the transports that put a [`palisade_checks::Guard`]
//! on the wires agent runtimes speak.
//!
//! - [`http`] (feature `http`): `POST /v1/check` (a v1 CheckRequest in, a
//!   Decision out), `POST /v1/admin/reload`, `GET /health`, `GET /healthz`,
//!   with API keys, tenants, a body-size limit and JSON errors;
//! - [`events`] (feature `events`): the JSON-lines event stream of
//!   `palisade events`.
//!
//! [`Service`] holds what every transport shares: a guard per tenant (its
//! policy, services and the audit log), the API keys, rate limits and the
//! circuit breaker (in Redis with `state.redis`, with the flow sessions),
//! [`metrics`], and reloading. Every HTTP request and decision is a
//! `tracing` span of the target [`palisade_checks::TRACE_TARGET`], which a
//! `tracing-opentelemetry` layer exports as OpenTelemetry traces.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use palisade_transport::ServiceConfig;
//! use palisade_transport::Service;
//!
//! // The embedded default policy, no keys, no audit log.
//! let service = Arc::new(Service::start(ServiceConfig::default(), None).await?);
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8700").await?;
//! palisade_transport::serve_http(service, listener, async {
//!     let _ = tokio::signal::ctrl_c().await;
//! })
//! .await?;
//! # Ok(()) }
//! ```

#[cfg(feature = "http")]
mod api;
#[cfg(feature = "http")]
mod approvals;
pub mod breaker;
pub mod config;
#[cfg(feature = "events")]
pub mod events;
#[cfg(feature = "gateway")]
pub mod gateway;
#[cfg(feature = "hooks")]
pub mod hooks;
#[cfg(feature = "hosted")]
mod hosted;
#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "jsonrpc")]
mod jsonrpc;
#[cfg(feature = "http")]
mod dialect {
    //! Mappings between other wire formats and the v1 types (SPEC §6).
    pub(crate) mod autogen;
    #[cfg(any(feature = "jsonrpc", feature = "mcp"))]
    pub(crate) mod cstp;
}
mod limit;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod metrics;
#[cfg(feature = "http")]
mod openapi;
#[cfg(feature = "http")]
mod playground;
pub mod service;
mod state;
#[cfg(feature = "http")]
mod stream;
mod telemetry;
pub mod wire;

pub use config::ServiceConfig;
pub use service::{
    AuthError, Caller, DEFAULT_TENANT, DecideError, RateLimited, Scope, Service, StartError,
};

/// How long [`serve_http`] waits for open connections once shutdown began.
#[cfg(feature = "http")]
pub const DRAIN_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// How [`serve_http_with`] serves.
#[cfg(feature = "http")]
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct ServeOptions {
    /// How long open connections get to finish once shutdown began
    /// (default [`DRAIN_TIMEOUT`]).
    pub drain: std::time::Duration,
    /// Serve a non-loopback address although the service has no API keys
    /// (default `false`: refused).
    pub insecure_no_auth: bool,
}

#[cfg(feature = "http")]
impl Default for ServeOptions {
    fn default() -> Self {
        Self {
            drain: DRAIN_TIMEOUT,
            insecure_no_auth: false,
        }
    }
}

#[cfg(feature = "http")]
impl ServeOptions {
    /// Sets [`Self::drain`].
    pub fn drain(mut self, drain: std::time::Duration) -> Self {
        self.drain = drain;
        self
    }

    /// Sets [`Self::insecure_no_auth`].
    pub fn insecure_no_auth(mut self, yes: bool) -> Self {
        self.insecure_no_auth = yes;
        self
    }

    /// Whether `service` may be served on `addr`: a service without API
    /// keys answers anyone who can reach it, so only a loopback address is
    /// served without them unless [`Self::insecure_no_auth`] says so. The
    /// error (kind `PermissionDenied`) says what to do.
    pub fn check_exposure(
        &self,
        service: &Service,
        addr: std::net::SocketAddr,
    ) -> std::io::Result<()> {
        if service.requires_keys() || addr.ip().is_loopback() || self.insecure_no_auth {
            return Ok(());
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::PermissionDenied,
            format!(
                "refusing to listen on {addr} without API keys: configure `keys` in the service config, \
                 or pass --insecure-no-auth to serve anyone who can reach this address"
            ),
        ))
    }
}

/// Serves HTTP on `listener` until `shutdown` completes, then finishes the
/// requests in flight (waiting at most [`DRAIN_TIMEOUT`] for them), flushes
/// the audit log and stops the MCP servers. A listener on a non-loopback
/// address is refused when the service has no API keys
/// ([`ServeOptions::check_exposure`]).
#[cfg(feature = "http")]
pub async fn serve_http(
    service: std::sync::Arc<Service>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_http_with(service, listener, shutdown, ServeOptions::default()).await
}

/// [`serve_http`] with its own drain timeout.
#[cfg(feature = "http")]
pub async fn serve_http_draining(
    service: std::sync::Arc<Service>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    drain: std::time::Duration,
) -> std::io::Result<()> {
    serve_http_with(
        service,
        listener,
        shutdown,
        ServeOptions::default().drain(drain),
    )
    .await
}

/// [`serve_http`] with options: once `shutdown` completes, new connections
/// are refused and open ones get [`ServeOptions::drain`] to finish their
/// requests; connections still open then (a client that never completes its
/// request) are closed. Every answered request's audit record is written
/// before its answer, so closing them loses no record; the log is flushed
/// either way.
#[cfg(feature = "http")]
pub async fn serve_http_with(
    service: std::sync::Arc<Service>,
    listener: tokio::net::TcpListener,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    options: ServeOptions,
) -> std::io::Result<()> {
    options.check_exposure(&service, listener.local_addr()?)?;
    let drain = options.drain;
    let (began, stopping) = tokio::sync::oneshot::channel::<()>();
    let signal = async move {
        shutdown.await;
        let _ = began.send(());
    };
    let server = axum::serve(listener, http::router(service.clone()))
        .with_graceful_shutdown(signal)
        .into_future();
    let deadline = async move {
        match stopping.await {
            Ok(()) => tokio::time::sleep(drain).await,
            // The server stopped without a shutdown signal.
            Err(_) => std::future::pending().await,
        }
    };
    tokio::select! {
        served = server => served?,
        () = deadline => tracing::warn!(
            "connections still open {} ms after shutdown began; closing them",
            drain.as_millis()
        ),
    }
    service.shutdown().await.map_err(std::io::Error::other)
}
