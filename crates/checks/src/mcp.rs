//! `mcp` checks: a guardrail tool on an MCP server, called with
//! `{"stage", "tool", "content"}`; its result (structured content, or text
//! holding JSON) carries `{"verdict":"allow"|"block","reason"?}` (SPEC §5),
//! read as a judge's reply is (synonyms, wrapped verdicts, and no silent
//! pass for a result without one).
//!
//! A stdio server is started on first use and reused by every later call
//! (concurrent calls share the session); when it dies it is started again
//! on the next call. A streamable-HTTP server gets one session, reopened
//! the same way after a transport failure.

use std::collections::BTreeMap;
use std::sync::Arc;

use palisade_engine::AsyncOutcome;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::common::client_side_sse::NeverRetry;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use serde_json::{Map, Value};
use tokio::sync::Mutex;

use crate::config::McpServerConfig;
use crate::llm::{CallError, json_objects, verdict_in};

type Session = RunningService<RoleClient, ()>;

/// The configured MCP servers, connected on first use.
#[derive(Clone, Debug, Default)]
pub struct McpServers {
    servers: BTreeMap<String, Arc<McpServer>>,
}

impl McpServers {
    /// The servers of a config (nothing is started yet).
    pub fn new(config: &BTreeMap<String, McpServerConfig>) -> Self {
        McpServers {
            servers: config
                .iter()
                .map(|(name, c)| {
                    (
                        name.clone(),
                        Arc::new(McpServer {
                            name: name.clone(),
                            config: c.clone(),
                            session: Mutex::new(None),
                        }),
                    )
                })
                .collect(),
        }
    }

    /// The server with this name.
    pub fn get(&self, name: &str) -> Option<&Arc<McpServer>> {
        self.servers.get(name)
    }

    /// Closes every open session (stops stdio servers).
    pub async fn shutdown(&self) {
        for server in self.servers.values() {
            if let Some(session) = server.session.lock().await.take() {
                let _ = session.cancel().await;
            }
        }
    }
}

/// One MCP server and its session.
#[derive(Debug)]
pub struct McpServer {
    name: String,
    config: McpServerConfig,
    session: Mutex<Option<Session>>,
}

impl McpServer {
    /// Calls `tool` with the check's arguments and reads the verdict.
    pub async fn screen(
        &self,
        tool: &str,
        stage: &str,
        tool_name: Option<&str>,
        content: &str,
    ) -> Result<AsyncOutcome, CallError> {
        use tracing::field::Empty;
        let span = tracing::info_span!(
            target: crate::TRACE_TARGET,
            "tools/call",
            "otel.name" = Empty,
            "otel.kind" = "client",
            "otel.status_code" = Empty,
            "mcp.method.name" = "tools/call",
            "gen_ai.operation.name" = "execute_tool",
            "gen_ai.tool.name" = Empty,
            "palisade.mcp.server" = Empty,
            "error.type" = Empty,
        );
        if span.is_disabled() {
            return self.call(tool, stage, tool_name, content).await;
        }
        span.record("otel.name", format!("tools/call {tool}"));
        span.record("gen_ai.tool.name", tool);
        span.record("palisade.mcp.server", self.name.as_str());
        crate::llm::traced(&span, self.call(tool, stage, tool_name, content)).await
    }

    /// The call of [`McpServer::screen`].
    async fn call(
        &self,
        tool: &str,
        stage: &str,
        tool_name: Option<&str>,
        content: &str,
    ) -> Result<AsyncOutcome, CallError> {
        let peer = self.peer().await?;
        let mut args = Map::new();
        args.insert("stage".into(), Value::from(stage));
        if let Some(t) = tool_name {
            args.insert("tool".into(), Value::from(t));
        }
        args.insert("content".into(), Value::from(content));
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(args);
        match peer.call_tool(params).await {
            Ok(result) => read_verdict(&result),
            Err(e) => {
                // The session may be broken (a stdio server that died): start
                // afresh next time.
                self.reset().await;
                Err(CallError::Transport(format!(
                    "MCP server `{}`: {}",
                    self.name,
                    crate::llm::error_chain(&e)
                )))
            }
        }
    }

    /// A handle for calls on the open session, opening one when needed.
    async fn peer(&self) -> Result<rmcp::Peer<RoleClient>, CallError> {
        let mut guard = self.session.lock().await;
        if let Some(session) = guard.as_ref()
            && !session.is_closed()
        {
            return Ok(session.peer().clone());
        }
        let session = self.connect().await?;
        let peer = session.peer().clone();
        *guard = Some(session);
        Ok(peer)
    }

    async fn reset(&self) {
        if let Some(session) = self.session.lock().await.take() {
            tokio::spawn(async move {
                let _ = session.cancel().await;
            });
        }
    }

    async fn connect(&self) -> Result<Session, CallError> {
        let fail = |what: &str, e: &dyn std::error::Error| {
            CallError::Transport(format!(
                "MCP server `{}`: {what}: {}",
                self.name,
                crate::llm::error_chain(e)
            ))
        };
        match (&self.config.command, &self.config.url) {
            (Some(command), _) => {
                let mut cmd = tokio::process::Command::new(command);
                cmd.args(&self.config.args)
                    .envs(&self.config.env)
                    .kill_on_drop(true);
                let transport = TokioChildProcess::builder(cmd)
                    .stderr(std::process::Stdio::inherit())
                    .spawn()
                    .map(|(t, _)| t)
                    .map_err(|e| fail(&format!("cannot start `{command}`"), &e))?;
                ().serve(transport)
                    .await
                    .map_err(|e| fail("initialization failed", &e))
            }
            (None, Some(url)) => {
                crate::install_crypto_provider();
                let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
                // A server gone mid-call fails the call at once instead of
                // being retried until the budget runs out; the next call
                // opens a new session.
                config.retry_config = Arc::new(NeverRetry::default());
                let transport = StreamableHttpClientTransport::from_config(config);
                ().serve(transport)
                    .await
                    .map_err(|e| fail(&format!("cannot connect to {url}"), &e))
            }
            (None, None) => Err(CallError::Transport(format!(
                "MCP server `{}` has neither `command` nor `url`",
                self.name
            ))),
        }
    }
}

/// The verdict in a tool result: in its structured content and in the JSON
/// its text items hold (servers send both, or one), all of which must
/// agree ([`crate::llm::verdict_in`]); a tool error is a failed call, and a
/// result without a recognisable verdict is unparsable.
fn read_verdict(result: &CallToolResult) -> Result<AsyncOutcome, CallError> {
    let text: Vec<&str> = result
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.as_str()))
        .collect();
    if result.is_error == Some(true) {
        let message = text.first().copied().unwrap_or("no message");
        return Err(CallError::Service(format!(
            "the guardrail tool returned an error: {}",
            crate::llm::truncate(message, 300)
        )));
    }
    let mut values: Vec<Value> = Vec::new();
    if let Some(v) = &result.structured_content {
        values.push(v.clone());
    }
    for t in &text {
        values.extend(json_objects(t));
    }
    let shown: String = match &result.structured_content {
        Some(v) => v.to_string(),
        None => text.join(" "),
    };
    verdict_in(&values, &shown)
}
