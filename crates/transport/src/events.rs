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

use std::collections::HashMap;
use std::sync::Arc;

use palisade_checks::{Guard, GuardError};
use palisade_engine::{RequestError, default_replacement, parse_request};
use palisade_protocol::{Decision, DecisionKind};
use serde_json::{Value, json};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

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
    let mut input = input;
    let mut buf = Vec::new();
    let mut tasks = tokio::task::JoinSet::new();
    let mut sessions = Sessions::default();
    loop {
        let line = match read_line(&mut input, &mut buf, MAX_LINE_BYTES).await? {
            Line::End => break,
            Line::TooLong => Err((
                "request.too_large",
                format!("the line is over {MAX_LINE_BYTES} bytes"),
            )),
            Line::Text => std::str::from_utf8(&buf).map(str::to_owned).map_err(|e| {
                (
                    "request.malformed",
                    format!("line is not valid UTF-8 text: {e}"),
                )
            }),
        };
        let line = match line {
            Ok(line) => line,
            // Not a line that can be read: answer with an error and go on.
            Err((code, message)) => {
                let d = Decision::error(new_id(), code, message);
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
        let (before, done) = sessions.next(&line);
        tasks.spawn(async move {
            // The session's previous request first: it may bring the
            // value this one is judged by.
            if let Some(before) = before {
                let _ = before.await;
            }
            let out = decide(&guard, &line).await;
            let _ = tx.send(out).await;
            drop(done);
        });
        // Reap finished tasks so the set does not grow without bound.
        while tasks.try_join_next().is_some() {}
    }
    while tasks.join_next().await.is_some() {}
    drop(tx);
    writer.await.map_err(std::io::Error::other)?
}

/// The order of each session's requests: a request waits for the one
/// before it in the same session (tenant and `sessionId`), which signals
/// by dropping its end of a channel once it is decided and answered.
#[derive(Default)]
struct Sessions {
    /// Each session's latest request, until it is done.
    last: HashMap<(Option<String>, String), oneshot::Receiver<()>>,
    /// Sessions kept before the done ones are swept out.
    sweep_at: usize,
}

/// Sessions kept at least before a sweep.
const SWEEP_AT: usize = 1024;

impl Sessions {
    /// For a request line: what it waits for (the session's previous
    /// request), and what it drops when it is done. Lines of no session,
    /// and lines that cannot be read (answered with an error), wait for
    /// nothing.
    fn next(&mut self, line: &str) -> (Option<oneshot::Receiver<()>>, Option<oneshot::Sender<()>>) {
        let Some(key) = session_of(line) else {
            return (None, None);
        };
        if self.last.len() >= self.sweep_at.max(SWEEP_AT) {
            self.last.retain(|_, done| {
                matches!(done.try_recv(), Err(oneshot::error::TryRecvError::Empty))
            });
            self.sweep_at = self.last.len() * 2;
        }
        let (done, signal) = oneshot::channel();
        (self.last.insert(key, signal), Some(done))
    }
}

/// The tenant and `sessionId` of a request line (bare or in an envelope's
/// `data`), read without building the request.
fn session_of(line: &str) -> Option<(Option<String>, String)> {
    #[derive(serde::Deserialize)]
    struct Request {
        #[serde(default)]
        tenant: Option<String>,
        #[serde(default, rename = "sessionId")]
        session_id: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Line {
        #[serde(default)]
        event: Option<serde::de::IgnoredAny>,
        #[serde(default)]
        data: Option<Request>,
        #[serde(default)]
        tenant: Option<String>,
        #[serde(default, rename = "sessionId")]
        session_id: Option<String>,
    }
    // A key can be spelt with escapes (`"session\u0049d"`).
    if !line.contains("sessionId") && !line.contains('\\') {
        return None;
    }
    let line: Line = serde_json::from_str(line).ok()?;
    let request = match (line.event, line.data) {
        (Some(_), Some(data)) => data,
        _ => Request {
            tenant: line.tenant,
            session_id: line.session_id,
        },
    };
    Some((request.tenant, request.session_id?))
}

/// The answer line to one input line, or a fatal error.
async fn decide(guard: &Guard, line: &str) -> Result<String, String> {
    let value: Option<Value> = serde_json::from_str(line).ok();
    // A repeated key anywhere (`data` itself, or inside it) is refused
    // before anything is read from the line, as every transport does.
    if value.is_some()
        && let Err(e) = palisade_engine::parse_json(line)
    {
        let data = value
            .as_ref()
            .and_then(|v| v.get("data"))
            .or(value.as_ref());
        let id = request_id_of(data).unwrap_or_else(new_id);
        return Ok(answer(&error_decision(id, &e)));
    }
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

/// What [`read_line`] read.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A line (without its `\n` or `\r\n`) is in the buffer.
    Text,
    /// A line over the limit was read and dropped; only the limit's worth of
    /// it was ever held in memory.
    TooLong,
    /// The input ended.
    End,
}

/// Reads the next line into `buf`, holding at most `max` bytes of it: the
/// rest of a longer line is skipped as it is read.
async fn read_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<Line> {
    buf.clear();
    let mut too_long = false;
    let mut read_any = false;
    loop {
        let chunk = input.fill_buf().await?;
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !too_long {
            if buf.len() + part.len() > max {
                too_long = true;
                buf.clear();
            } else {
                buf.extend_from_slice(part);
            }
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            break;
        }
    }
    if too_long {
        return Ok(Line::TooLong);
    }
    if !read_any {
        return Ok(Line::End);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Line::Text)
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

/// A fresh request id (UUID v7) for an answer to a request without one.
fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn lines(input: &[u8], chunk: usize, max: usize) -> Vec<Result<String, Line>> {
        let mut reader = tokio::io::BufReader::with_capacity(chunk, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            match read_line(&mut reader, &mut buf, max).await {
                Ok(Line::Text) => out.push(Ok(String::from_utf8_lossy(&buf).into_owned())),
                Ok(Line::End) => break,
                Ok(other) => out.push(Err(other)),
                Err(e) => panic!("read failed: {e}"),
            }
        }
        out
    }

    #[test]
    fn a_lines_session_is_read_bare_or_in_an_envelope() {
        let s = |t: Option<&str>, id: &str| Some((t.map(str::to_owned), id.to_owned()));
        assert_eq!(
            session_of(r#"{"sessionId":"a","content":"x"}"#),
            s(None, "a")
        );
        assert_eq!(
            session_of(r#"{"event":"guardrails:check","data":{"tenant":"t","sessionId":"b"}}"#),
            s(Some("t"), "b")
        );
        // An escaped key is the same key.
        assert_eq!(session_of(r#"{"session\u0049d":"c"}"#), s(None, "c"));
        assert_eq!(session_of(r#"{"content":"no session"}"#), None);
        assert_eq!(session_of("nonsense sessionId"), None);
    }

    #[tokio::test]
    async fn a_request_waits_for_the_one_before_it_in_its_session() {
        let mut sessions = Sessions::default();
        let (none, first) = sessions.next(r#"{"sessionId":"a"}"#);
        assert!(none.is_none());
        let (mut before, _second) = sessions.next(r#"{"sessionId":"a"}"#);
        let (other, _) = sessions.next(r#"{"sessionId":"b"}"#);
        assert!(other.is_none(), "another session waits for nothing");
        let before_ref = before.as_mut().unwrap();
        assert!(matches!(
            before_ref.try_recv(),
            Err(oneshot::error::TryRecvError::Empty)
        ));
        drop(first);
        assert!(
            before.unwrap().await.is_err(),
            "done once the first is dropped"
        );
        // Done sessions are swept out once there are many.
        for i in 0..2 * SWEEP_AT {
            let (_, done) = sessions.next(&format!(r#"{{"sessionId":"s{i}"}}"#));
            drop(done);
        }
        assert!(
            sessions.last.len() <= SWEEP_AT + 2,
            "{}",
            sessions.last.len()
        );
    }

    #[tokio::test]
    async fn reads_lines_across_buffer_boundaries() {
        for chunk in [1, 2, 3, 7, 64] {
            let got = lines(b"one\r\ntwo\n\nlast without newline", chunk, 100).await;
            assert_eq!(
                got,
                vec![
                    Ok("one".to_owned()),
                    Ok("two".to_owned()),
                    Ok(String::new()),
                    Ok("last without newline".to_owned()),
                ],
                "buffer of {chunk} bytes"
            );
        }
        assert!(lines(b"", 8, 100).await.is_empty());
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_dropped_and_the_next_one_read() {
        for chunk in [1, 4, 5, 6, 64] {
            let got = lines(b"12345\n123456\n1234567890123\nok", chunk, 5).await;
            assert_eq!(
                got,
                vec![
                    Ok("12345".to_owned()),
                    Err(Line::TooLong),
                    Err(Line::TooLong),
                    Ok("ok".to_owned()),
                ],
                "buffer of {chunk} bytes"
            );
        }
    }
}
