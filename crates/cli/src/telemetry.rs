//! Logging, and OpenTelemetry traces when they are configured: the
//! `tracing` subscriber of the long-running commands.
//!
//! Logs go to stderr, filtered by `RUST_LOG` (default: `info`, the MCP
//! library's own messages from `warn`). Traces are on when the service
//! config has a `telemetry` section or the environment names an OTLP
//! endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`,
//! `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless `OTEL_SDK_DISABLED=true`
//! or `OTEL_TRACES_EXPORTER=none`. They are sent over OTLP/HTTP with
//! protobuf bodies, in batches, by a thread of their own; the standard
//! `OTEL_*` variables of the exporter (headers, timeout, compression), the
//! batch processor (`OTEL_BSP_*`), the sampler (`OTEL_TRACES_SAMPLER`,
//! `OTEL_TRACES_SAMPLER_ARG`) and the resource (`OTEL_SERVICE_NAME`,
//! `OTEL_RESOURCE_ATTRIBUTES`) apply.

use anyhow::Context as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::WithExportConfig as _;
use opentelemetry_sdk::trace::SdkTracerProvider;
use palisade_checks::TRACE_TARGET;
use tracing_subscriber::Layer as _;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// The tracer provider, when traces are on: [`Telemetry::shutdown`] sends
/// the spans still waiting.
#[derive(Debug, Default)]
pub(crate) struct Telemetry {
    provider: Option<SdkTracerProvider>,
}

impl Telemetry {
    /// Sends the spans not yet sent (waiting at most the exporter's
    /// timeout) and stops the export thread.
    pub(crate) fn shutdown(self) {
        if let Some(provider) = self.provider
            && let Err(e) = provider.shutdown()
        {
            tracing::warn!("traces: the last spans could not be sent: {e}");
        }
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// Whether traces are on, and the config problems of the environment.
fn wanted(config: Option<&palisade_transport::config::Telemetry>) -> anyhow::Result<bool> {
    if env("OTEL_SDK_DISABLED").is_some_and(|v| v.trim().eq_ignore_ascii_case("true")) {
        return Ok(false);
    }
    match env("OTEL_TRACES_EXPORTER").as_deref().map(str::trim) {
        Some("none") => return Ok(false),
        None | Some("otlp") => {}
        Some(other) => anyhow::bail!(
            "OTEL_TRACES_EXPORTER=`{other}` is not supported: Palisade exports traces with `otlp` (or `none` for no traces)"
        ),
    }
    for var in [
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
        "OTEL_EXPORTER_OTLP_PROTOCOL",
    ] {
        if let Some(p) = env(var)
            && p.trim() != "http/protobuf"
        {
            anyhow::bail!(
                "{var}=`{p}` is not supported: Palisade sends OTLP over HTTP with protobuf bodies (`http/protobuf`, a collector's port 4318 by default)"
            );
        }
    }
    Ok(config.is_some()
        || env("OTEL_EXPORTER_OTLP_ENDPOINT").is_some()
        || env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").is_some())
}

/// The traces endpoint of a base URL (`http://host:4318` →
/// `http://host:4318/v1/traces`); a URL already ending so is kept.
fn traces_url(base: &str) -> String {
    let base = base.trim_end_matches('/');
    if base.ends_with("/v1/traces") {
        base.to_owned()
    } else {
        format!("{base}/v1/traces")
    }
}

/// The log layer: stderr, `RUST_LOG` (default `info,rmcp=warn`), never the
/// decision spans (they are for the exporter only).
fn logs<S>() -> anyhow::Result<impl tracing_subscriber::Layer<S>>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rmcp=warn"))
        .add_directive(
            format!("{TRACE_TARGET}=off")
                .parse()
                .context("the log filter of the trace target")?,
        );
    Ok(tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_target(false)
        .with_filter(filter))
}

/// Installs a subscriber that logs only.
pub(crate) fn init_logs() {
    if let Ok(logs) = logs() {
        let _ = tracing_subscriber::registry().with(logs).try_init();
    }
}

/// Installs the subscriber: logs to stderr, and traces when configured.
/// Fails on an environment or config it cannot honour (an unsupported
/// exporter or protocol, an endpoint that is not a URL): no silent loss of
/// the traces an operator asked for.
pub(crate) fn init(
    config: Option<&palisade_transport::config::Telemetry>,
) -> anyhow::Result<Telemetry> {
    let logs = logs()?;
    if !wanted(config)? {
        let _ = tracing_subscriber::registry().with(logs).try_init();
        return Ok(Telemetry::default());
    }
    // The exporter's HTTPS client uses the process's TLS provider.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_protocol(opentelemetry_otlp::Protocol::HttpBinary);
    if let Some(url) = config.and_then(|c| c.otlp_endpoint.as_deref()) {
        exporter = exporter.with_endpoint(traces_url(url));
    }
    let exporter = exporter
        .build()
        .map_err(|e| anyhow::anyhow!("traces: cannot set up the OTLP exporter: {e}"))?;
    let name = config
        .and_then(|c| c.service_name.clone())
        .or_else(|| env("OTEL_SERVICE_NAME"))
        .unwrap_or_else(|| "palisade".to_owned());
    let resource = opentelemetry_sdk::Resource::builder()
        .with_service_name(name)
        .with_attribute(opentelemetry::KeyValue::new(
            "service.version",
            env!("CARGO_PKG_VERSION"),
        ))
        .build();
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(resource)
        .build();
    opentelemetry::global::set_text_map_propagator(
        opentelemetry_sdk::propagation::TraceContextPropagator::new(),
    );
    let traces = tracing_opentelemetry::layer()
        .with_tracer(provider.tracer("palisade"))
        // The spans' own attributes only, not where in the code they were
        // made.
        .with_location(false)
        .with_threads(false)
        .with_target(false)
        .with_tracked_inactivity(false)
        .with_filter(
            tracing_subscriber::filter::Targets::new()
                .with_target(TRACE_TARGET, tracing::Level::TRACE),
        );
    let _ = tracing_subscriber::registry()
        .with(logs)
        .with(traces)
        .try_init();
    Ok(Telemetry {
        provider: Some(provider),
    })
}

#[cfg(test)]
mod tests {
    use super::traces_url;

    #[test]
    fn the_traces_path_is_added_once() {
        assert_eq!(traces_url("http://c:4318"), "http://c:4318/v1/traces");
        assert_eq!(traces_url("http://c:4318/"), "http://c:4318/v1/traces");
        assert_eq!(
            traces_url("https://c/otlp/v1/traces"),
            "https://c/otlp/v1/traces"
        );
    }
}
