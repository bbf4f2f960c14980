//! The JSON-lines event stream of `palisade events` (SPEC §6, pi's
//! protocol): one request per input line, a bare v1 request or an envelope
//! `{"event":"guardrails:check","data":{…}}`; one answer per request,
//! `{"event":"guardrails:decision","data":<Decision>}` with the request's
//! `requestId`, written as soon as it is decided — so answers to overlapping
//! requests may come in any order.
//!
//! Callers that use the envelope cannot apply a redaction, so `modify` is
//! reported to them as `block`. A line that is not a request gets a
//! `decision: "error"` (with its `requestId` when one can be read) and the
//! stream goes on.

use std::sync::Arc;

use palisade_checks::{Guard, GuardError};
use palisade_engine::{RequestError, default_replacement, new_id, parse_request};
use palisade_protocol::{Decision, DecisionKind};
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;

/// The event name of a request envelope.
pub const CHECK_EVENT: &str = "guardrails:check";
/// The event name of an answer.
pub const DECISION_EVENT: &str = "guardrails:decision";

/// Longest input line; a longer one is answered with an error decision.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Serves the event stream until `input` ends, then waits for the requests
/// still being decided. Fails only when `output` cannot be written or an
/// audit record cannot be written (no decision is answered without it).
pub async fn serve<R, W>(guard: Arc<Guard>, input: R, output: W) -> std::io::Result<()>
where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (tx, mut rx) = mpsc::channel::<Result<String, String>>(256);
    let writer = tokio::spawn(async move {
        let mut output = output;
        while let Some(line) = rx.recv().await {
            match line {
                Ok(mut line) => {
                    line.push('\n');
                    output.write_all(line.as_bytes()).await?;
                    output.flush().await?;
                }
                Err(fatal) => {
                    return Err(std::io::Error::other(fatal));
                }
            }
        }
        output.flush().await
    });
    let mut lines = input.lines();
    let mut tasks = tokio::task::JoinSet::new();
    loop {
        let line = match lines.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                // Not UTF-8: answer with an error and go on.
                let d = Decision::error(
                    new_id(),
                    "request.malformed",
                    format!("line is not valid UTF-8 text: {e}"),
                );
                if tx.send(Ok(answer(&d))).await.is_err() {
                    break;
                }
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let guard = guard.clone();
        let tx = tx.clone();
        tasks.spawn(async move {
            let out = decide(&guard, &line).await;
            let _ = tx.send(out).await;
        });
        // Reap finished tasks so the set does not grow without bound.
        while tasks.try_join_next().is_some() {}
    }
    while tasks.join_next().await.is_some() {}
    drop(tx);
    writer.await.map_err(std::io::Error::other)?
}

/// The answer line to one input line, or a fatal error.
async fn decide(guard: &Guard, line: &str) -> Result<String, String> {
    if line.len() > MAX_LINE_BYTES {
        let d = Decision::error(
            new_id(),
            "request.too_large",
            format!("the line is over {MAX_LINE_BYTES} bytes"),
        );
        return Ok(answer(&d));
    }
    let value: Option<Value> = serde_json::from_str(line).ok();
    let envelope = value.as_ref().and_then(|v| v.get("event")).is_some();
    let request_text = match &value {
        Some(v) if envelope => {
            if v.get("event").and_then(Value::as_str) != Some(CHECK_EVENT) {
                let d = Decision::error(
                    request_id_of(v.get("data")).unwrap_or_else(new_id),
                    "request.invalid",
                    format!("unknown event {}; expected `{CHECK_EVENT}`", v["event"]),
                );
                return Ok(answer(&d));
            }
            match v.get("data") {
                Some(data) => data.to_string(),
                None => {
                    let d =
                        Decision::error(new_id(), "request.invalid", "the envelope has no `data`");
                    return Ok(answer(&d));
                }
            }
        }
        _ => line.to_owned(),
    };
    let request = match parse_request(&request_text) {
        Ok(r) => r,
        Err(e) => {
            let id = request_id_of(
                value
                    .as_ref()
                    .map(|v| if envelope { &v["data"] } else { v }),
            )
            .unwrap_or_else(new_id);
            return Ok(answer(&error_decision(id, &e)));
        }
    };
    match guard.check(&request).await {
        Ok(mut d) => {
            if envelope && d.decision == DecisionKind::Modify {
                // A pi caller cannot apply a redaction: it is told to block.
                d.set_kind(DecisionKind::Block);
                d.modified = None;
                if d.replacement.is_none() {
                    d.replacement = Some(default_replacement(request.effective_stage()).to_owned());
                }
            }
            Ok(answer(&d))
        }
        Err(GuardError::Request(e)) => {
            let id = request.request_id.clone().unwrap_or_else(new_id);
            Ok(answer(&error_decision(id, &e)))
        }
        Err(e) => Err(e.to_string()),
    }
}

fn request_id_of(v: Option<&Value>) -> Option<String> {
    v?.get("requestId")?.as_str().map(str::to_owned)
}

fn error_decision(id: String, e: &RequestError) -> Decision {
    let code = match e {
        RequestError::Malformed { .. } => "request.malformed",
        _ => "request.invalid",
    };
    Decision::error(id, code, e.to_string())
}

fn answer(d: &Decision) -> String {
    json!({"event": DECISION_EVENT, "data": d}).to_string()
}
