//! `palisade approvals list|approve|deny`: a person's side of approvals
//! (SPEC §15), against a running service (`--server URL`), with an
//! approver's API key (`guardrails:approve`) from an environment variable.

use std::time::Duration;

use anyhow::Context as _;
use clap::{Args, Subcommand};
use serde_json::{Value, json};

/// What to do with approvals.
#[derive(Subcommand, Debug)]
pub(crate) enum ApprovalsCommand {
    /// List the tenant's approvals (default: the pending ones).
    List {
        /// Only approvals in this state: pending, approved, denied, used, or all.
        #[arg(long, value_name = "STATE", default_value = "pending")]
        state: String,
        /// Print the service's JSON answer instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Approve an approval: the same call, sent again, then passes once.
    Approve(AnswerArgs),
    /// Deny an approval.
    Deny(AnswerArgs),
}

/// The service and the key.
#[derive(Args, Debug)]
pub(crate) struct ServerArgs {
    /// The running Palisade service (`palisade serve`), such as http://127.0.0.1:8700.
    #[arg(long, value_name = "URL")]
    server: String,
    /// The environment variable holding an API key with the `guardrails:approve` scope.
    #[arg(long, value_name = "NAME", default_value = crate::hook::KEY_ENV)]
    key_env: String,
}

/// Arguments of `approve` and `deny`.
#[derive(Args, Debug)]
pub(crate) struct AnswerArgs {
    /// The approval's id (the decision's `approval.id`).
    id: String,
    /// Why, for the audit log.
    #[arg(long, value_name = "TEXT")]
    note: Option<String>,
    #[command(flatten)]
    server: ServerArgs,
}

/// Runs the command: 0 when the service did it, 1 when it refused (no
/// such approval, not pending, a key that may not answer), 2 when it
/// could not be asked.
pub(crate) fn run(command: &ApprovalsCommand) -> anyhow::Result<u8> {
    let (method, path, body, server) = match command {
        ApprovalsCommand::List { state, server, .. } => {
            let query = if state == "all" {
                String::new()
            } else {
                format!("?state={state}")
            };
            ("GET", format!("/v1/approvals{query}"), None, server)
        }
        ApprovalsCommand::Approve(a) | ApprovalsCommand::Deny(a) => {
            let decision = if matches!(command, ApprovalsCommand::Approve(_)) {
                "approve"
            } else {
                "deny"
            };
            let mut body = json!({ "decision": decision });
            if let Some(note) = &a.note {
                body["note"] = json!(note);
            }
            (
                "POST",
                format!("/v1/approvals/{}", a.id),
                Some(body),
                &a.server,
            )
        }
    };
    let (status, answer) = call(server, method, &path, body.as_ref())?;
    if status >= 400 {
        let message = answer["error"]["message"]
            .as_str()
            .map_or_else(|| answer.to_string(), str::to_owned);
        eprintln!("palisade: the service answered {status}: {message}");
        return Ok(1);
    }
    match command {
        ApprovalsCommand::List { json: true, .. } => say!("{answer:#}"),
        ApprovalsCommand::List { .. } => table(&answer),
        ApprovalsCommand::Approve(_) => say!(
            "approved {}: the same call, sent again with approvalId {} (a hook's host: retried as it was), passes once until {}",
            text(&answer["id"]),
            text(&answer["id"]),
            text(&answer["expiresAt"])
        ),
        ApprovalsCommand::Deny(_) => say!("denied {}", text(&answer["id"])),
    }
    Ok(0)
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("-")
}

/// One line per approval: id, state, tool, session, agent, checks, expiry.
fn table(answer: &Value) {
    let approvals = answer["approvals"].as_array().cloned().unwrap_or_default();
    if approvals.is_empty() {
        say!("no approvals");
        return;
    }
    say!("ID\tSTATE\tTOOL\tSESSION\tREQUESTED BY\tCHECKS\tEXPIRES");
    for a in &approvals {
        let checks: Vec<&str> = a["checks"]
            .as_array()
            .map(|c| c.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        say!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            text(&a["id"]),
            text(&a["state"]),
            a["tool"].as_str().unwrap_or_else(|| text(&a["stage"])),
            text(&a["sessionId"]),
            text(&a["requestedBy"]),
            checks.join(","),
            text(&a["expiresAt"])
        );
    }
}

/// One request to the service: its status and JSON answer.
fn call(
    server: &ServerArgs,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> anyhow::Result<(u16, Value)> {
    let base = server.server.trim_end_matches('/');
    if !(base.starts_with("http://") || base.starts_with("https://")) {
        anyhow::bail!(
            "--server `{}` is not an http:// or https:// URL",
            server.server
        );
    }
    let key = std::env::var(&server.key_env)
        .ok()
        .filter(|k| !k.is_empty());
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .context("cannot build the HTTP client")?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let url = format!("{base}{path}");
    runtime.block_on(async {
        let mut request = match method {
            "POST" => client.post(&url),
            _ => client.get(&url),
        };
        if let Some(key) = &key {
            request = request.bearer_auth(key);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response = request
            .send()
            .await
            .with_context(|| format!("the service at {base} did not answer"))?;
        let status = response.status().as_u16();
        let bytes = response
            .bytes()
            .await
            .with_context(|| format!("the service at {base} did not answer"))?;
        let value = serde_json::from_slice(&bytes).unwrap_or_else(
            |_| json!({"error": {"message": String::from_utf8_lossy(&bytes).trim().to_owned()}}),
        );
        if status == 401 && key.is_none() {
            eprintln!(
                "palisade: no API key: set {} to a key with the `guardrails:approve` scope",
                server.key_env
            );
        }
        Ok((status, value))
    })
}
