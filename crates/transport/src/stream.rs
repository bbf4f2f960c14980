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
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use futures::StreamExt;
use palisade_engine::parse_request;
use palisade_protocol::{CheckRequest, Decision, Stage};
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument as _;

use crate::api::{ApiError, Authorized};
use crate::service::{Caller, Service};
use crate::wire::StreamDelta;

/// The handler.
pub(crate) async fn check_stream(
    State(service): State<Arc<Service>>,
    Authorized(caller, ..): Authorized,
    body: Body,
) -> Result<Response, ApiError> {
    let limit = service.config().limits.max_body_bytes;
    let mut lines = Lines::new(body, limit);
    // The first line: the request.
    let first = lines
        .next()
        .await?
        .ok_or_else(|| ApiError::invalid("the body is empty: its first line is a CheckRequest"))?;
    let mut request = std::str::from_utf8(&first)
        .map_err(|_| "the first line is not UTF-8".to_owned())
        .and_then(|t| parse_request(t).map_err(|e| e.to_string()))
        .map_err(ApiError::Invalid)?;
    if request.stage.is_none() {
        request.stage = Some(Stage::Output);
    }
    if request.effective_stage() != Stage::Output {
        return Err(ApiError::invalid(
            "/stage: a streamed check is of stage `output`",
        ));
    }
    // One decision span for the whole stream, ended with its final
    // decision.
    let opened_at = std::time::Instant::now();
    let span = crate::telemetry::decision_span(&caller.tenant, &request, None);
    // The same admission as a single check: rate limit, circuit breaker.
    let admitted = service
        .admission(&caller, &request, false)
        .instrument(span.clone())
        .await
        .inspect_err(|e| crate::telemetry::record_error(&span, e.code()))?;
    if let Some(mut refused) = admitted.refused {
        refused.is_final = Some(true);
        crate::telemetry::record_decision(&span, &refused, opened_at.elapsed());
        return Ok(ndjson(Body::from(line_of(&refused))));
    }
    // The guard's stream is built once, in the task that feeds it; the
    // answer starts only once it is known to be valid.
    let (tx, rx) = mpsc::channel::<Bytes>(16);
    let (opened, started) = oneshot::channel();
    tokio::spawn(run(
        service,
        caller,
        request,
        lines,
        tx,
        opened,
        Opened {
            warning: admitted.warning,
            span,
            at: opened_at,
        },
    ));
    match started.await {
        Ok(Ok(())) => {}
        Ok(Err(invalid)) => return Err(invalid),
        Err(_) => return Err(ApiError::invalid("the stream could not be started")),
    }
    let body = futures::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|b| (Ok::<Bytes, std::io::Error>(b), rx))
    });
    Ok(ndjson(Body::from_stream(body)))
}

/// What a stream's admission left for its end: the shared state's failure
/// when it failed open, the decision's span, when the stream was opened.
struct Opened {
    warning: Option<palisade_protocol::Finding>,
    span: tracing::Span,
    at: std::time::Instant,
}

/// Opens the guard's stream (saying on `opened` whether the request makes
/// one), feeds it the deltas and sends decision lines.
async fn run(
    service: Arc<Service>,
    caller: Caller,
    request: CheckRequest,
    mut lines: Lines,
    tx: mpsc::Sender<Bytes>,
    opened: oneshot::Sender<Result<(), ApiError>>,
    Opened {
        warning,
        span,
        at: opened_at,
    }: Opened,
) {
    let mut stream = match caller.guard.stream(Some(&caller.tenant), &request) {
        Ok(stream) => {
            let _ = opened.send(Ok(()));
            stream
        }
        Err(e) => {
            let _ = opened.send(Err(ApiError::invalid(e.to_string())));
            return;
        }
    };
    loop {
        if stream.is_blocked() {
            break;
        }
        let delta = match lines.next().await {
            Ok(Some(line)) => serde_json::from_slice::<StreamDelta>(&line)
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
                let d = Decision::error(request_id(&request), "request.malformed", message);
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
    // The shared state's failure at admission, when it failed open, is in
    // the final decision and in its audit record.
    match stream
        .finish_admitted(warning)
        .instrument(span.clone())
        .await
    {
        Ok(d) => {
            crate::telemetry::record_decision(&span, &d, opened_at.elapsed());
            service
                .count_decision(&caller.tenant, Stage::Output, &d, started.elapsed())
                .await;
            let _ = tx.send(Bytes::from(line_of(&d))).await;
        }
        Err(e) => {
            // No final decision without its audit record.
            tracing::error!("{e}");
            crate::telemetry::record_error(&span, "audit_unavailable");
            let d = Decision::error(request_id(&request), "audit.unavailable", e.to_string());
            let _ = tx.send(Bytes::from(line_of(&d))).await;
        }
    }
}

/// The request's id for an error line: its own, else a new one.
fn request_id(request: &CheckRequest) -> String {
    request
        .request_id
        .clone()
        .unwrap_or_else(|| uuid::Uuid::now_v7().to_string())
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
    async fn next(&mut self) -> Result<Option<Vec<u8>>, ApiError> {
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
                        return Err(ApiError::too_large());
                    }
                    self.buf.extend_from_slice(&chunk);
                }
                Some(Err(e)) => {
                    return Err(ApiError::Body {
                        status: StatusCode::BAD_REQUEST,
                        message: format!("the body could not be read: {e}"),
                    });
                }
                None => self.done = true,
            }
        }
    }
}
