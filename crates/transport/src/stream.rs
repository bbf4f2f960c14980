//! `POST /v1/check/stream`: a model answer checked while it streams.
//!
//! The request body is NDJSON: a v1 CheckRequest (stage `output`), then one
//! `{"delta": "<text>"}` per line. The response is NDJSON too: a Decision
//! line whenever the findings change (a block, a new warning), and a final
//! Decision with `"final": true` — decided on the whole text with every
//! check, async ones included, and audited. After a block the service stops
//! reading and ends the response.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use palisade_engine::parse_request;
use palisade_protocol::{Decision, Stage};
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::breaker::State as BreakerState;
use crate::http::{authorize_headers, decide_error, error, rate_limited};
use crate::service::{Caller, Scope, Service};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Delta {
    delta: String,
}

/// The handler.
pub(crate) async fn check_stream(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let caller = match authorize_headers(&service, &headers, Scope::Check) {
        Ok(c) => c,
        Err(r) => return *r,
    };
    let limit = service.config().limits.max_body_bytes;
    let mut lines = Lines::new(body, limit);
    // The first line: the request.
    let first = match lines.next().await {
        Ok(Some(line)) => line,
        Ok(None) => {
            return error(
                StatusCode::BAD_REQUEST,
                "invalid_request",
                "the body is empty: its first line is a CheckRequest",
            );
        }
        Err(r) => return *r,
    };
    let mut request = match std::str::from_utf8(&first)
        .map_err(|_| "the first line is not UTF-8".to_owned())
        .and_then(|t| parse_request(t).map_err(|e| e.to_string()))
    {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, "invalid_request", e),
    };
    if request.stage.is_none() {
        request.stage = Some(Stage::Output);
    }
    if request.effective_stage() != Stage::Output {
        return error(
            StatusCode::BAD_REQUEST,
            "invalid_request",
            "/stage: a streamed check is of stage `output`",
        );
    }
    let agent = request.agent.as_ref().and_then(|a| a.id.clone());
    if let Err(limited) = service.admit(&caller.tenant, agent.as_deref()) {
        return rate_limited(limited);
    }
    if service.breaker_state(&caller.tenant) == BreakerState::Open {
        // One final decision: the breaker's.
        return match service.decide(&caller, &request).await {
            Ok(mut d) => {
                d.is_final = Some(true);
                ndjson(Body::from(line_of(&d)))
            }
            Err(e) => decide_error(e),
        };
    }
    if let Err(e) = caller.guard.engine().stream(&request) {
        return error(StatusCode::BAD_REQUEST, "invalid_request", e.to_string());
    }
    let (tx, rx) = mpsc::channel::<Bytes>(16);
    tokio::spawn(run(service, caller, request, lines, tx));
    let body = futures::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|b| (Ok::<Bytes, std::io::Error>(b), rx))
    });
    ndjson(Body::from_stream(body))
}

/// Feeds the deltas to the guard's stream and sends decision lines.
async fn run(
    service: Arc<Service>,
    caller: Caller,
    request: palisade_protocol::CheckRequest,
    mut lines: Lines,
    tx: mpsc::Sender<Bytes>,
) {
    let guard = caller.guard.clone();
    let Ok(mut stream) = guard.stream(Some(&caller.tenant), &request) else {
        return;
    };
    loop {
        if stream.is_blocked() {
            break;
        }
        let delta = match lines.next().await {
            Ok(Some(line)) => serde_json::from_slice::<Delta>(&line)
                .map(|d| d.delta)
                .map_err(|e| {
                    format!("a line after the first must be {{\"delta\": \"<text>\"}}: {e}")
                }),
            Ok(None) => break,
            Err(_) => {
                Err("the body could not be read (over the size limit, or cut off)".to_owned())
            }
        };
        let delta = match delta {
            Ok(delta) => delta,
            // A line that is not a delta ends the stream with an error line.
            Err(message) => {
                let id = request
                    .request_id
                    .clone()
                    .unwrap_or_else(palisade_engine::new_id);
                let d = Decision::error(id, "request.malformed", message);
                let _ = tx.send(Bytes::from(line_of(&d))).await;
                return;
            }
        };
        if let Some(d) = stream.push(&delta)
            && tx.send(Bytes::from(line_of(&d))).await.is_err()
        {
            return;
        }
    }
    let started = std::time::Instant::now();
    match stream.finish().await {
        Ok(d) => {
            service.count_decision(&caller.tenant, &d, started.elapsed());
            let _ = tx.send(Bytes::from(line_of(&d))).await;
        }
        Err(e) => {
            // No final decision without its audit record.
            tracing::error!("{e}");
            let d = Decision::error(
                request
                    .request_id
                    .clone()
                    .unwrap_or_else(palisade_engine::new_id),
                "audit.unavailable",
                e.to_string(),
            );
            let _ = tx.send(Bytes::from(line_of(&d))).await;
        }
    }
}

fn ndjson(body: Body) -> Response {
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        body,
    )
        .into_response()
}

fn line_of(d: &Decision) -> String {
    let mut s = serde_json::to_string(d).unwrap_or_default();
    s.push('\n');
    s
}

/// Lines of a streamed body, at most `limit` bytes in all.
struct Lines {
    body: futures::stream::BoxStream<'static, Result<Bytes, axum::Error>>,
    buf: Vec<u8>,
    read: usize,
    limit: usize,
    done: bool,
}

impl Lines {
    fn new(body: Body, limit: usize) -> Self {
        Lines {
            body: body.into_data_stream().boxed(),
            buf: Vec::new(),
            read: 0,
            limit,
            done: false,
        }
    }

    /// The next non-empty line (without its `\n`), `None` at the end.
    async fn next(&mut self) -> Result<Option<Vec<u8>>, Box<Response>> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=i).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                return Ok(Some(line));
            }
            if self.done {
                if self.buf.iter().all(u8::is_ascii_whitespace) {
                    return Ok(None);
                }
                return Ok(Some(std::mem::take(&mut self.buf)));
            }
            match self.body.next().await {
                Some(Ok(chunk)) => {
                    self.read += chunk.len();
                    if self.read > self.limit {
                        return Err(Box::new(error(
                            StatusCode::PAYLOAD_TOO_LARGE,
                            "payload_too_large",
                            "the request body is over the service's limit (limits.max_body_bytes)",
                        )));
                    }
                    self.buf.extend_from_slice(&chunk);
                }
                Some(Err(e)) => {
                    return Err(Box::new(error(
                        StatusCode::BAD_REQUEST,
                        "bad_request",
                        format!("the body could not be read: {e}"),
                    )));
                }
                None => self.done = true,
            }
        }
    }
}
