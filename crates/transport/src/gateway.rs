//! The MCP gateway (SPEC §14): Palisade between an agent and an MCP
//! server, deciding what passes.
//!
//! - Every `tools/call` is decided as a `tool_use` request before it is
//!   forwarded (`sessionId`: the MCP session; `context.mcpServer`: the
//!   upstream's name; `agent`: the client's `clientInfo`). `allow`
//!   forwards the call as the client wrote it, `modify` forwards the
//!   rewritten arguments, `block` answers a tool result with `isError:
//!   true` and the reason, `ask` asks the person at the client through MCP
//!   elicitation when the client offers it (a decline blocks) and blocks
//!   otherwise.
//! - Every answer of `tools/call` (`content` and `structuredContent`),
//!   `resources/read` (`contents`) and `prompts/get` (`description`,
//!   `messages`) is decided as `tool_output` before the client sees it:
//!   passed, redacted or withheld, and recorded in the session for `flow`
//!   rules.
//! - Tool definitions (`tools/list`, and again after
//!   `notifications/tools/list_changed`) are judged: poisoning and
//!   shadowing ([`palisade_engine::tooldefs`]), and pins ([`Pins`]); a tool
//!   judged bad is left out of the list and calls to it are refused.
//! - Everything else passes through byte for byte. What the gateway cannot
//!   read is not forwarded: the client gets an error saying why.
//!
//! [`proxy`] serves one client over a byte stream (stdio) with an
//! [`Upstream`] behind: a child process over stdio, or a streamable-HTTP
//! server.

mod http;
mod lines;
mod pins;
mod proxy;
#[cfg(feature = "http")]
pub(crate) mod serve;

use std::collections::BTreeMap;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

pub use pins::{
    Pin, PinFile, PinStore, PinVerdict, Pins, PinsError, ServerPins, SharedPins, fingerprint,
};

pub use crate::config::PoisonedTools;
use crate::service::Service;
use proxy::{Incoming, Session};

/// How one gateway session runs.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GatewayOptions {
    /// The upstream server's name: in decisions (`context.mcpServer`),
    /// audit records, logs and pins.
    pub name: String,
    /// The tenant whose policy decides (the default tenant when `None`).
    pub tenant: Option<String>,
    /// Where tool definitions are pinned (no pinning when `None`).
    pub pins: Option<Arc<PinStore>>,
    /// How long a request waits for the upstream server's answer.
    pub timeout: Duration,
    /// The largest message read from either side, in bytes.
    pub max_message_bytes: usize,
    /// What becomes of a tool judged poisoned.
    pub poisoned_tools: PoisonedTools,
}

impl GatewayOptions {
    /// Options for upstream `name`: the default tenant, pins in `pins`,
    /// answers awaited up to 10 minutes, messages up to 16 MiB.
    pub fn new(name: impl Into<String>, pins: Option<Arc<PinStore>>) -> Self {
        GatewayOptions {
            name: name.into(),
            tenant: None,
            pins,
            timeout: Duration::from_secs(600),
            max_message_bytes: 16 * 1024 * 1024,
            poisoned_tools: PoisonedTools::Hide,
        }
    }

    /// With another treatment of poisoned tools.
    pub fn poisoned_tools(mut self, what: PoisonedTools) -> Self {
        self.poisoned_tools = what;
        self
    }

    /// With another limit on a message's size.
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = bytes;
        self
    }

    /// With another wait for answers.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// Why the gateway could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GatewayError {
    /// The upstream server's process could not be started.
    #[error("cannot start the MCP server `{command}`: {source}")]
    Spawn {
        /// The command.
        command: String,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// No command was given.
    #[error("no MCP server command given")]
    NoCommand,
    /// The upstream server's address or headers are not usable.
    #[error("{0}")]
    Upstream(String),
}

/// The MCP server behind the gateway.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Upstream {
    /// A child process over stdio: the program and its arguments, and
    /// variables added to its environment.
    Command {
        /// The program and its arguments.
        command: Vec<String>,
        /// Added to the child's environment.
        env: BTreeMap<String, String>,
    },
    /// A streamable-HTTP server: its URL and the headers sent with every
    /// request (values are secrets: never logged).
    Http {
        /// The MCP endpoint.
        url: String,
        /// Header names and values.
        headers: Vec<(String, String)>,
    },
}

/// Serves one client over `reader`/`writer` (newline-delimited JSON-RPC,
/// as over stdio) with `upstream` behind, until the client closes its
/// side; then a child's input is closed and the child stopped, or an HTTP
/// session ended.
pub async fn proxy<R, W>(
    service: Arc<Service>,
    options: GatewayOptions,
    upstream: &Upstream,
    reader: R,
    writer: W,
) -> Result<(), GatewayError>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    proxy_until(
        service,
        options,
        upstream,
        reader,
        writer,
        std::future::pending(),
    )
    .await
}

/// [`proxy`], which also ends when `shutdown` completes (a signal): the
/// client's input is no longer read, and the session ends as if the
/// client had closed it (calls in flight are answered, the child's input
/// is closed and the child stopped), within [`SHUTDOWN_WAIT`]; past it,
/// the child is killed when the runtime drops it.
pub async fn proxy_until<R, W>(
    service: Arc<Service>,
    options: GatewayOptions,
    upstream: &Upstream,
    reader: R,
    writer: W,
    shutdown: impl std::future::Future<Output = ()>,
) -> Result<(), GatewayError>
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let limit = options.max_message_bytes;
    let opened = open(service, options, upstream, uuid::Uuid::now_v7().to_string())?;
    let writing_client = tokio::spawn(write_lines(writer, opened.outgoing, opened.closed));
    let reading_client = tokio::spawn(read_lines(
        reader,
        limit,
        opened.incoming.clone(),
        Incoming::Client,
        |_| Incoming::ClientEnd,
    ));
    let mut done = opened.done;
    tokio::select! {
        _ = &mut done => {}
        () = shutdown => {
            reading_client.abort();
            let _ = opened.incoming.send(Incoming::ClientEnd).await;
            if tokio::time::timeout(SHUTDOWN_WAIT, &mut done).await.is_err() {
                tracing::warn!(
                    "the session did not end within {} s of the signal: stopping now",
                    SHUTDOWN_WAIT.as_secs()
                );
                done.abort();
                return Ok(());
            }
        }
    }
    reading_client.abort();
    let _ = writing_client.await;
    Ok(())
}

/// How long [`proxy_until`] lets a session end after its shutdown signal:
/// calls in flight answered, then the child given 3 s to exit.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(10);

/// A session running: where the client's messages go in and the
/// messages for the client come out.
pub(crate) struct Opened {
    pub(crate) incoming: mpsc::Sender<Incoming>,
    pub(crate) outgoing: mpsc::UnboundedReceiver<String>,
    /// Turns true when the session is over.
    pub(crate) closed: tokio::sync::watch::Receiver<bool>,
    /// Ends after [`Incoming::ClientEnd`], once the upstream is stopped.
    pub(crate) done: tokio::task::JoinHandle<()>,
}

/// Starts `upstream` and a session with it.
pub(crate) fn open(
    service: Arc<Service>,
    options: GatewayOptions,
    upstream: &Upstream,
    id: String,
) -> Result<Opened, GatewayError> {
    let limit = options.max_message_bytes;
    let (incoming_tx, incoming) = mpsc::channel(256);
    let (to_client, outgoing) = mpsc::unbounded_channel();
    let (to_upstream, upstream_rx) = mpsc::unbounded_channel();
    let (closing, closed) = tokio::sync::watch::channel(false);
    let running = match upstream {
        Upstream::Command { command, env } => Running::Child(start_child(
            command,
            env,
            limit,
            upstream_rx,
            incoming_tx.clone(),
            closed.clone(),
        )?),
        Upstream::Http { url, headers } => {
            let headers = http::headers(headers).map_err(GatewayError::Upstream)?;
            Running::Http(tokio::spawn(http::run(
                url.clone(),
                headers,
                options.timeout,
                limit,
                upstream_rx,
                incoming_tx.clone(),
            )))
        }
    };
    let session = Session::new(service, options, id, to_client, to_upstream);
    let done = tokio::spawn(async move {
        session.run(incoming).await;
        // The client is gone: what is queued is written, the server sees
        // its input close (or its session end) and gets a moment to exit
        // before it is stopped.
        let _ = closing.send(true);
        drop(session);
        match running {
            Running::Child(child) => child.stop().await,
            Running::Http(task) => {
                let _ = tokio::time::timeout(Duration::from_secs(5), task).await;
            }
        }
    });
    Ok(Opened {
        incoming: incoming_tx,
        outgoing,
        closed,
        done,
    })
}

enum Running {
    Child(Child),
    Http(tokio::task::JoinHandle<()>),
}

struct Child {
    child: tokio::process::Child,
    writing: tokio::task::JoinHandle<()>,
    reading: tokio::task::JoinHandle<()>,
}

impl Child {
    async fn stop(mut self) {
        let _ = self.writing.await;
        if tokio::time::timeout(Duration::from_secs(3), self.child.wait())
            .await
            .is_err()
        {
            let _ = self.child.kill().await;
        }
        self.reading.abort();
    }
}

fn start_child(
    command: &[String],
    env: &BTreeMap<String, String>,
    limit: usize,
    upstream_rx: mpsc::UnboundedReceiver<String>,
    incoming: mpsc::Sender<Incoming>,
    closed: tokio::sync::watch::Receiver<bool>,
) -> Result<Child, GatewayError> {
    let (program, args) = command.split_first().ok_or(GatewayError::NoCommand)?;
    let mut child = tokio::process::Command::new(program)
        .args(args)
        .envs(env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|source| GatewayError::Spawn {
            command: program.clone(),
            source,
        })?;
    let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
        return Err(GatewayError::Spawn {
            command: program.clone(),
            source: std::io::Error::other("its standard input and output are not pipes"),
        });
    };
    let writing = tokio::spawn(write_lines(child_in, upstream_rx, closed));
    let reading = tokio::spawn(read_lines(
        child_out,
        limit,
        incoming,
        Incoming::Upstream,
        |why| Incoming::UpstreamEnd(why.unwrap_or_else(|| "it closed its output".to_owned())),
    ));
    Ok(Child {
        child,
        writing,
        reading,
    })
}

/// Makes `ring` the TLS crypto provider of the process, once.
pub(crate) fn install_crypto_provider() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
}

/// Writes each message as a line until `closed` turns true (then what is
/// queued is written) or the other end is gone.
async fn write_lines<W: AsyncWrite + Unpin>(
    mut writer: W,
    mut lines: mpsc::UnboundedReceiver<String>,
    mut closed: tokio::sync::watch::Receiver<bool>,
) {
    loop {
        let line = tokio::select! {
            line = lines.recv() => line,
            _ = closed.wait_for(|c| *c) => lines.try_recv().ok(),
        };
        let Some(mut line) = line else { break };
        line.push('\n');
        if writer.write_all(line.as_bytes()).await.is_err() || writer.flush().await.is_err() {
            break;
        }
    }
    let _ = writer.shutdown().await;
}

async fn read_lines<R: AsyncRead + Unpin>(
    reader: R,
    limit: usize,
    to: mpsc::Sender<Incoming>,
    wrap: fn(lines::Line) -> Incoming,
    end: fn(Option<String>) -> Incoming,
) {
    let mut reader = BufReader::new(reader);
    loop {
        match lines::next(&mut reader, limit).await {
            Ok(Some(line)) => {
                if to.send(wrap(line)).await.is_err() {
                    return;
                }
            }
            Ok(None) => {
                let _ = to.send(end(None)).await;
                return;
            }
            Err(e) => {
                let _ = to.send(end(Some(e.to_string()))).await;
                return;
            }
        }
    }
}
