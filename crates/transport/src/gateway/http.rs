//! An upstream MCP server over streamable HTTP: each message of the
//! session is POSTed to the server's URL, and the answers (one JSON body,
//! or a stream of server-sent events) come back as lines, as from a child
//! process. The session id the server gives in `initialize`'s answer, and
//! the protocol version it agreed, go with every later request; a GET
//! stream carries what the server sends unasked, when it offers one.

use std::sync::Arc;
use std::time::Duration;

use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::lines::Line;
use super::proxy::Incoming;

/// The session's state on the HTTP side.
#[derive(Debug, Default)]
struct Link {
    session: Option<String>,
    version: Option<String>,
    listening: bool,
}

/// Sends every message of `outgoing` to `url` until it closes, and every
/// message the server answers to `incoming`; then ends the session
/// (`DELETE`).
pub(crate) async fn run(
    url: String,
    headers: HeaderMap,
    timeout: Duration,
    limit: usize,
    mut outgoing: mpsc::UnboundedReceiver<String>,
    incoming: mpsc::Sender<Incoming>,
) {
    crate::gateway::install_crypto_provider();
    let client = match reqwest::Client::builder()
        .default_headers(headers)
        .connect_timeout(Duration::from_secs(30))
        .build()
    {
        Ok(c) => c,
        Err(e) => {
            let _ = incoming
                .send(Incoming::UpstreamEnd(format!("no HTTP client: {e}")))
                .await;
            return;
        }
    };
    let link = Arc::new(std::sync::Mutex::new(Link::default()));
    let post = Post {
        client: client.clone(),
        url: url.clone(),
        link: link.clone(),
        incoming: incoming.clone(),
        timeout,
        limit,
    };
    while let Some(message) = outgoing.recv().await {
        let post = post.clone();
        let is_initialize = message.contains("\"initialize\"")
            && serde_json::from_str::<Value>(&message)
                .ok()
                .is_some_and(|v| v.get("method").and_then(Value::as_str) == Some("initialize"));
        if is_initialize {
            // Later messages need the session id its answer gives.
            post.send(message).await;
            post.listen();
        } else {
            tokio::spawn(async move { post.send(message).await });
        }
    }
    let session = lock(&link).session.clone();
    if let Some(session) = session {
        let _ = tokio::time::timeout(
            Duration::from_secs(3),
            client.delete(&url).header("mcp-session-id", session).send(),
        )
        .await;
    }
}

fn lock(link: &std::sync::Mutex<Link>) -> std::sync::MutexGuard<'_, Link> {
    link.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Clone)]
struct Post {
    client: reqwest::Client,
    url: String,
    link: Arc<std::sync::Mutex<Link>>,
    incoming: mpsc::Sender<Incoming>,
    timeout: Duration,
    limit: usize,
}

impl Post {
    fn request(&self, builder: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        let link = lock(&self.link);
        let mut builder = builder;
        if let Some(session) = &link.session {
            builder = builder.header("mcp-session-id", session);
        }
        if let Some(version) = &link.version {
            builder = builder.header("mcp-protocol-version", version);
        }
        builder
    }

    async fn send(&self, message: String) {
        let id = serde_json::from_str::<Value>(&message)
            .ok()
            .filter(|v| v.get("method").is_some())
            .and_then(|v| v.get("id").cloned());
        let builder = self
            .request(self.client.post(&self.url))
            .header(CONTENT_TYPE, "application/json")
            .header(ACCEPT, "application/json, text/event-stream")
            .timeout(self.timeout)
            .body(message);
        let response = match builder.send().await {
            Ok(r) => r,
            Err(e) => {
                self.fail(id, format!("the request to {} failed: {e}", self.url))
                    .await;
                return;
            }
        };
        let status = response.status();
        if let Some(session) = response
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
        {
            lock(&self.link).session = Some(session.to_owned());
        }
        if !status.is_success() {
            let body = response.text().await.unwrap_or_default();
            let body: String = body.chars().take(300).collect();
            self.fail(
                id,
                format!("the MCP server answered HTTP {status}: {}", body.trim()),
            )
            .await;
            return;
        }
        let is_sse = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("text/event-stream"));
        if is_sse {
            self.events(response).await;
            return;
        }
        if status == reqwest::StatusCode::ACCEPTED {
            return;
        }
        match read_capped(response, self.limit).await {
            Ok(Some(body)) if body.trim().is_empty() => {}
            Ok(Some(body)) => self.deliver(body).await,
            Ok(None) => {
                self.deliver_line(Line::TooLarge {
                    head: id.map_or_else(String::new, |id| json!({"id": id}).to_string()),
                    len: self.limit + 1,
                })
                .await;
            }
            Err(e) => {
                self.fail(
                    id,
                    format!("the MCP server's answer could not be read: {e}"),
                )
                .await
            }
        }
    }

    /// A JSON body: one message, or (older servers) an array of them.
    async fn deliver(&self, body: String) {
        if let Ok(Value::Array(items)) = serde_json::from_str::<Value>(&body) {
            for item in items {
                let item = item.to_string();
                self.note_version(&item);
                self.deliver_line(Line::Message(item)).await;
            }
            return;
        }
        self.note_version(&body);
        self.deliver_line(Line::Message(body)).await;
    }

    async fn deliver_line(&self, line: Line) {
        let _ = self.incoming.send(Incoming::Upstream(line)).await;
    }

    /// The protocol version `initialize`'s answer agreed on.
    fn note_version(&self, body: &str) {
        if !body.contains("protocolVersion") {
            return;
        }
        if let Some(version) = serde_json::from_str::<Value>(body).ok().and_then(|v| {
            v.get("result")?
                .get("protocolVersion")?
                .as_str()
                .map(str::to_owned)
        }) {
            lock(&self.link).version = Some(version);
        }
    }

    /// A request that got no answer: an error answer in its place.
    async fn fail(&self, id: Option<Value>, why: String) {
        tracing::warn!("{why}");
        if let Some(id) = id {
            self.deliver_line(Line::Message(
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603, "message": why}})
                    .to_string(),
            ))
            .await;
        }
    }

    /// Server-sent events: each `data` is a message.
    async fn events(&self, mut response: reqwest::Response) {
        let mut buffer: Vec<u8> = Vec::new();
        loop {
            let chunk = match response.chunk().await {
                Ok(Some(c)) => c,
                Ok(None) | Err(_) => break,
            };
            buffer.extend_from_slice(&chunk);
            while let Some((end, skip)) = event_end(&buffer) {
                let event: Vec<u8> = buffer.drain(..end + skip).take(end).collect();
                if let Some(data) = event_data(&event) {
                    if data.len() > self.limit {
                        self.deliver_line(Line::TooLarge {
                            head: data.chars().take(4096).collect(),
                            len: data.len(),
                        })
                        .await;
                    } else {
                        self.note_version(&data);
                        self.deliver_line(Line::Message(data)).await;
                    }
                }
            }
            if buffer.len() > self.limit.saturating_mul(2) {
                tracing::warn!(
                    "an event of the MCP server's stream is too large; the stream was closed"
                );
                break;
            }
        }
    }

    /// Opens the GET stream of what the server sends unasked (when it has one).
    fn listen(&self) {
        {
            let mut link = lock(&self.link);
            if link.listening || link.session.is_none() {
                return;
            }
            link.listening = true;
        }
        let post = self.clone();
        tokio::spawn(async move {
            let builder = post
                .request(post.client.get(&post.url))
                .header(ACCEPT, "text/event-stream");
            if let Ok(response) = builder.send().await
                && response.status().is_success()
            {
                post.events(response).await;
            }
        });
    }
}

/// Where the first event of `buffer` ends, and the length of its blank line.
fn event_end(buffer: &[u8]) -> Option<(usize, usize)> {
    let mut i = 0;
    while i + 1 < buffer.len() {
        if buffer.get(i..i + 2) == Some(b"\n\n") {
            return Some((i, 2));
        }
        if buffer.get(i..i + 4) == Some(b"\r\n\r\n") {
            return Some((i, 4));
        }
        i += 1;
    }
    None
}

/// The `data` lines of one event, joined; `None` for an event of another
/// type or without data.
fn event_data(event: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(event);
    let mut data: Vec<&str> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("data:") {
            data.push(rest.strip_prefix(' ').unwrap_or(rest));
        } else if let Some(kind) = line.strip_prefix("event:")
            && kind.trim() != "message"
        {
            return None;
        }
    }
    (!data.is_empty()).then(|| data.join("\n"))
}

/// The body, or `None` when it is over `limit` bytes.
async fn read_capped(
    mut response: reqwest::Response,
    limit: usize,
) -> reqwest::Result<Option<String>> {
    let mut body: Vec<u8> = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if body.len() + chunk.len() > limit {
            return Ok(None);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Some(String::from_utf8_lossy(&body).into_owned()))
}

/// Headers from `(name, value)` pairs.
pub(crate) fn headers(pairs: &[(String, String)]) -> Result<HeaderMap, String> {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        let header = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("`{name}` is not an HTTP header name"))?;
        let mut value = HeaderValue::from_str(value)
            .map_err(|_| format!("the value of header `{name}` is not a valid header value"))?;
        value.set_sensitive(true);
        map.insert(header, value);
    }
    Ok(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_split_and_joined() {
        let stream = b"event: message\ndata: {\"a\":\ndata: 1}\n\n: keep-alive\n\nid: 3\r\ndata: {}\r\n\r\nrest";
        let (end, skip) = event_end(stream).unwrap();
        assert_eq!(event_data(&stream[..end]).as_deref(), Some("{\"a\":\n1}"));
        let rest = &stream[end + skip..];
        let (end, skip) = event_end(rest).unwrap();
        assert_eq!(event_data(&rest[..end]), None);
        let rest = &rest[end + skip..];
        let (end, _) = event_end(rest).unwrap();
        assert_eq!(event_data(&rest[..end]).as_deref(), Some("{}"));
        assert_eq!(event_data(b"event: other\ndata: x"), None);
    }
}
