//! What the service's tests share: a service on an ephemeral port.

#![allow(
    dead_code,
    unreachable_pub,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "test code, each test file uses part of it"
)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use palisade_checks::Guard;
use palisade_transport::Service;
use palisade_transport::ServiceConfig;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

/// A running service and its base URL; stops when dropped.
pub struct Server {
    pub url: String,
    pub client: reqwest::Client,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Serves `config` (YAML) with `policy` (else the config's, else the
/// embedded default) on 127.0.0.1, on a port of the system's choosing.
pub async fn start(config: &str, policy: Option<&Path>) -> Server {
    let config = ServiceConfig::from_yaml_str(config).unwrap();
    let service = Arc::new(
        Service::start(config, policy.map(Path::to_path_buf))
            .await
            .unwrap(),
    );
    serve(service).await
}

/// Serves a started service.
pub async fn serve(service: Arc<Service>) -> Server {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(async move {
        palisade_transport::serve_http(service, listener, std::future::pending())
            .await
            .unwrap();
    });
    Server {
        url: format!("http://{addr}"),
        client: reqwest::Client::new(),
        task,
    }
}

/// The example policy the CSTP seed is answered with.
pub fn cstp_policy() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/cstp-guardrails.yaml")
}

/// Sends `input` to an event stream (`palisade events`) served by `guard`,
/// written while the answers are read so that any size goes, and returns
/// the answers; each must come within ten seconds.
pub async fn event_stream(guard: Guard, input: impl Into<Vec<u8>>) -> Vec<Value> {
    let input = input.into();
    let (mut to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let task = tokio::spawn(palisade_transport::events::serve(
        Arc::new(guard),
        BufReader::new(server_in),
        server_out,
    ));
    tokio::spawn(async move {
        to_server.write_all(&input).await.unwrap();
    });
    let mut lines = BufReader::new(from_server).lines();
    let mut out = Vec::new();
    while let Some(line) =
        tokio::time::timeout(std::time::Duration::from_secs(10), lines.next_line())
            .await
            .unwrap()
            .unwrap()
    {
        out.push(serde_json::from_str::<Value>(&line).unwrap());
    }
    task.await.unwrap().unwrap();
    out
}
