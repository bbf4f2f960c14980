//! Newline-delimited JSON-RPC messages (MCP's stdio framing), read with a
//! size limit: a line longer than the limit is skipped, not buffered, and
//! reported with its beginning (where the message's `id` usually is).

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// What one read gave.
#[derive(Debug)]
pub(crate) enum Line {
    /// A whole message (without its line break).
    Message(String),
    /// A message over the limit: its first bytes, and its length.
    TooLarge {
        /// The first bytes (lossily decoded).
        head: String,
        /// Its length in bytes.
        len: usize,
    },
    /// The bytes of a line that are not UTF-8.
    NotText,
}

/// How many bytes of an over-long line are kept to find its `id`.
const HEAD: usize = 4096;

/// The next line of `reader` (`None` at the end of input).
pub(crate) async fn next<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    limit: usize,
) -> std::io::Result<Option<Line>> {
    let mut line: Vec<u8> = Vec::new();
    let mut len = 0usize;
    let mut over = false;
    loop {
        let buf = reader.fill_buf().await?;
        if buf.is_empty() {
            if len == 0 {
                return Ok(None);
            }
            break;
        }
        let (chunk, done) = match memchr(buf) {
            Some(i) => (buf.get(..i).unwrap_or_default(), Some(i + 1)),
            None => (buf, None),
        };
        len += chunk.len();
        if !over {
            if len > limit {
                over = true;
                let keep = HEAD.saturating_sub(line.len()).min(chunk.len());
                line.extend_from_slice(chunk.get(..keep).unwrap_or_default());
            } else {
                line.extend_from_slice(chunk);
            }
        }
        let used = done.unwrap_or(buf.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    if over {
        return Ok(Some(Line::TooLarge {
            head: String::from_utf8_lossy(&line).into_owned(),
            len,
        }));
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(match String::from_utf8(line) {
        Ok(text) => Line::Message(text),
        Err(_) => Line::NotText,
    }))
}

fn memchr(buf: &[u8]) -> Option<usize> {
    buf.iter().position(|&b| b == b'\n')
}

/// The `id` of a message from its first bytes, when they hold it.
pub(crate) fn id_in_head(head: &str) -> Option<serde_json::Value> {
    let at = head.find("\"id\"")?;
    let rest = head.get(at + 4..)?.trim_start().strip_prefix(':')?;
    let mut values = serde_json::Deserializer::from_str(rest).into_iter::<serde_json::Value>();
    match values.next()? {
        Ok(id @ (serde_json::Value::String(_) | serde_json::Value::Number(_))) => Some(id),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_over_the_limit_are_skipped_whole() {
        let input = format!("{{\"id\":7,\"x\":\"{}\"}}\nshort\r\n\n", "a".repeat(10_000));
        let mut reader = tokio::io::BufReader::with_capacity(64, input.as_bytes());
        let Some(Line::TooLarge { head, len }) = next(&mut reader, 100).await.unwrap() else {
            panic!("too large");
        };
        assert_eq!(len, 10_015);
        assert_eq!(id_in_head(&head), Some(serde_json::json!(7)));
        assert!(
            matches!(next(&mut reader, 100).await.unwrap(), Some(Line::Message(m)) if m == "short")
        );
        assert!(
            matches!(next(&mut reader, 100).await.unwrap(), Some(Line::Message(m)) if m.is_empty())
        );
        assert!(next(&mut reader, 100).await.unwrap().is_none());
    }
}
