//! `palisade serve` and `palisade events`: the long-running commands.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;
use palisade_transport::ServiceConfig;
use palisade_transport::{DEFAULT_TENANT, ServeOptions, Service};

use crate::{ServeArgs, ServiceArgs};

/// The address `serve` listens on when neither `--listen` nor the config
/// says otherwise.
const DEFAULT_LISTEN: &str = "127.0.0.1:8700";

pub(crate) fn load_config(path: Option<&Path>) -> anyhow::Result<ServiceConfig> {
    let Some(path) = path else {
        return Ok(ServiceConfig::default());
    };
    ServiceConfig::from_path(path).map_err(|errors| config_error(path, &errors))
}

/// A config that could not be loaded: its syntax error shown in place, one
/// line when it could not be read, else every problem with its pointer.
pub(crate) fn config_error(path: &Path, errors: &palisade_checks::ConfigErrors) -> anyhow::Error {
    if let Some(shown) = crate::diagnostic::syntax_error(path) {
        return anyhow::anyhow!("{shown}");
    }
    match errors.errors.as_slice() {
        [only] if only.pointer.is_empty() => anyhow::anyhow!("{}", only.message),
        _ => anyhow::anyhow!("{}: {errors}", path.display()),
    }
}

pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

/// Logs only (`palisade events`, whose decisions are the guard's, not the
/// service's: there is no decision span to export).
fn init_logging() {
    crate::telemetry::init_logs();
}

pub(crate) async fn start(
    args: &ServiceArgs,
    config: ServiceConfig,
) -> anyhow::Result<Arc<Service>> {
    start_as(args, config, true).await
}

/// [`start`] for `palisade events` and `palisade mcp` (stdio): approvals
/// only when shared in Redis with the HTTP service.
pub(crate) async fn start_local(
    args: &ServiceArgs,
    config: ServiceConfig,
) -> anyhow::Result<Arc<Service>> {
    start_as(args, config, false).await
}

async fn start_as(
    args: &ServiceArgs,
    config: ServiceConfig,
    http: bool,
) -> anyhow::Result<Arc<Service>> {
    if let Some(policy) = args.policy.as_ref().or(config.policy.as_ref())
        && let Some(shown) = crate::diagnostic::syntax_error(policy)
    {
        anyhow::bail!("{shown}");
    }
    let started = if http {
        Service::start(config, args.policy.clone()).await
    } else {
        Service::start_local(config, args.policy.clone()).await
    };
    started.map(Arc::new).map_err(|e| anyhow::anyhow!("{e}"))
}

pub(crate) fn serve(args: &ServeArgs) -> anyhow::Result<u8> {
    if let Some(port) = &args.port {
        anyhow::bail!(
            "`--port` is not an option of `palisade serve`; give the address and port with `--listen`, such as `--listen 127.0.0.1:{port}`"
        );
    }
    let config = load_config(args.service.config.as_deref())?;
    let telemetry = crate::telemetry::init(config.telemetry.as_ref())?;
    let listen = args
        .listen
        .clone()
        .or_else(|| config.listen.clone())
        .unwrap_or_else(|| DEFAULT_LISTEN.to_owned());
    let addr: SocketAddr = listen.parse().with_context(|| {
        format!("--listen: `{listen}` is not an address and port such as {DEFAULT_LISTEN}")
    })?;
    let served = runtime()?.block_on(async {
        let service = start(&args.service, config).await?;
        let options = ServeOptions::default().insecure_no_auth(args.insecure_no_auth);
        options.check_exposure(&service, addr)?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let bound = listener
            .local_addr()
            .context("cannot read the bound address")?;
        // The signals are taken before the service says where it listens:
        // a SIGTERM or SIGHUP sent as soon as it has said so is a clean
        // shutdown or a reload, never the signal's default action.
        let shutdown = shutdown_signal();
        spawn_reload_on_hangup(service.clone());
        let policy = match (&args.service.policy, &service.config().policy) {
            (Some(p), _) | (None, Some(p)) => p.display().to_string(),
            (None, None) => "the embedded default policy".to_owned(),
        };
        // The one line on stdout: where the service listens.
        say!("palisade listening on http://{bound}");
        tracing::info!(
            "serving {policy} for tenant `{DEFAULT_TENANT}`{}; audit log: {}",
            if service.config().tenants.is_empty() {
                String::new()
            } else {
                format!(" and {} more tenant(s)", service.config().tenants.len())
            },
            service
                .config()
                .guard
                .audit
                .as_ref()
                .map_or("off".to_owned(), |a| a.path.display().to_string())
        );
        palisade_transport::serve_http_with(service, listener, shutdown, options)
            .await
            .context("the HTTP service failed")
    });
    // The spans still waiting are sent before the process ends.
    telemetry.shutdown();
    served?;
    tracing::info!("stopped");
    Ok(0)
}

pub(crate) fn events(args: &ServiceArgs) -> anyhow::Result<u8> {
    init_logging();
    let config = load_config(args.config.as_deref())?;
    let runtime = runtime()?;
    let served = runtime.block_on(async {
        let service = start_local(args, config).await?;
        let guard = service
            .guard(None)
            .context("the service has no default tenant")?;
        let input = tokio::io::BufReader::new(tokio::io::stdin());
        let events = palisade_transport::events::serve(guard, input, tokio::io::stdout());
        // SIGTERM or SIGINT stops reading events; the service is shut
        // down as at the end of the input.
        let result = until_signal(events).await.unwrap_or(Ok(()));
        service
            .shutdown()
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        result.context("the event stream failed")?;
        Ok(0)
    });
    stop_runtime(runtime);
    served
}

/// Drops a runtime that may still be reading stdin: a read of stdin runs
/// on a thread of its own that nothing can interrupt, and a plain drop
/// would wait for it until the client writes a line or closes its side.
/// What had to finish (the service shut down, a child server stopped) was
/// awaited before; other blocking work gets a second.
pub(crate) fn stop_runtime(runtime: tokio::runtime::Runtime) {
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
}

pub(crate) fn mcp(args: &ServiceArgs) -> anyhow::Result<u8> {
    let config = load_config(args.config.as_deref())?;
    let telemetry = crate::telemetry::init(config.telemetry.as_ref())?;
    let runtime = runtime()?;
    let served = runtime.block_on(async {
        let service = start_local(args, config).await?;
        let serving = palisade_transport::mcp::serve_stdio(service.clone());
        let result = until_signal(serving).await.unwrap_or(Ok(()));
        service
            .shutdown()
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        result.map_err(|e| anyhow::anyhow!("{e}"))
    });
    stop_runtime(runtime);
    telemetry.shutdown();
    served?;
    Ok(0)
}

/// `work`'s output, or `None` when SIGTERM or SIGINT came first (the
/// process then shuts down cleanly instead of dying on the signal).
async fn until_signal<T>(work: impl std::future::Future<Output = T>) -> Option<T> {
    tokio::select! {
        out = work => Some(out),
        () = shutdown_signal() => None,
    }
}

/// Completes on SIGTERM or SIGINT, which are taken from the moment it is
/// called (not when the future is first polled).
pub(crate) fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let signals = {
        use tokio::signal::unix::{SignalKind, signal};
        signal(SignalKind::terminate())
            .ok()
            .zip(signal(SignalKind::interrupt()).ok())
    };
    async move {
        #[cfg(unix)]
        if let Some((mut term, mut int)) = signals {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            tracing::info!("shutting down: finishing requests in flight");
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Reloads the policies on SIGHUP (an invalid one keeps the old ones).
fn spawn_reload_on_hangup(service: Arc<Service>) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        // Taken here, before the task runs: a SIGHUP as soon as this
        // returns reloads.
        let Ok(mut hup) = signal(SignalKind::hangup()) else {
            return;
        };
        tokio::spawn(async move {
            while hup.recv().await.is_some() {
                match service.reload() {
                    Ok(n) => tracing::info!("reloaded {n} policies"),
                    Err(errors) => {
                        for e in errors {
                            tracing::error!("reload refused, the running policies are kept: {e}");
                        }
                    }
                }
            }
        });
    }
    #[cfg(not(unix))]
    let _ = service;
}
