//! The MCP server entries of a JSON configuration (Claude Code, Cursor,
//! Gemini CLI), located by byte ranges in the file's own text so that an
//! edit touches those bytes and no others. Comments (`//`, `/* */`, which
//! Gemini CLI's settings allow) are read as whitespace.

use std::ops::Range;

use anyhow::bail;
use serde_json::Value;

use super::{Args, Entry, Insert};

/// A value of the document: where it is and, for objects and arrays, what
/// it holds.
#[derive(Debug)]
struct Node {
    span: Range<usize>,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Object(Vec<Member>),
    Array(Vec<Node>),
    Scalar,
}

#[derive(Debug)]
struct Member {
    key: String,
    key_start: usize,
    value: Node,
}

/// `text` with every comment replaced by spaces (newlines kept), so that
/// offsets into it are offsets into `text`.
fn blank_comments(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |e| i + 2 + e + 2);
                for b in &mut out[i..end] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    // Each byte of a comment became a space: still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Reads a document already known to be valid JSON.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn skip_ws(&mut self) {
        let bytes = self.text.as_bytes();
        while self.at < bytes.len() && bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn string_end(&self, start: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut i = start + 1;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        i + 1
    }

    fn node(&mut self) -> Option<Node> {
        self.skip_ws();
        let start = self.at;
        let bytes = self.text.as_bytes();
        match *bytes.get(start)? {
            b'{' => {
                self.at += 1;
                let mut members = Vec::new();
                loop {
                    self.skip_ws();
                    match *bytes.get(self.at)? {
                        b'}' => break,
                        b',' => self.at += 1,
                        b'"' => {
                            let key_start = self.at;
                            let key_end = self.string_end(key_start);
                            let key: String =
                                serde_json::from_str(self.text.get(key_start..key_end)?).ok()?;
                            self.at = key_end;
                            self.skip_ws();
                            if bytes.get(self.at) != Some(&b':') {
                                return None;
                            }
                            self.at += 1;
                            let value = self.node()?;
                            members.push(Member {
                                key,
                                key_start,
                                value,
                            });
                        }
                        _ => return None,
                    }
                }
                self.at += 1;
                Some(Node {
                    span: start..self.at,
                    kind: Kind::Object(members),
                })
            }
            b'[' => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.skip_ws();
                    match *bytes.get(self.at)? {
                        b']' => break,
                        b',' => self.at += 1,
                        _ => items.push(self.node()?),
                    }
                }
                self.at += 1;
                Some(Node {
                    span: start..self.at,
                    kind: Kind::Array(items),
                })
            }
            b'"' => {
                self.at = self.string_end(start);
                Some(Node {
                    span: start..self.at,
                    kind: Kind::Scalar,
                })
            }
            _ => {
                while self.at < bytes.len() && !b",]} \t\r\n".contains(&bytes[self.at]) {
                    self.at += 1;
                }
                Some(Node {
                    span: start..self.at,
                    kind: Kind::Scalar,
                })
            }
        }
    }
}

/// The MCP server entries of a JSON configuration: under `mcpServers` of
/// the top object. An error when the file is not a JSON object (with
/// comments) or `mcpServers` is not an object.
pub(super) fn entries(text: &str) -> anyhow::Result<Vec<Entry>> {
    let clean = blank_comments(text);
    match serde_json::from_str::<Value>(&clean) {
        Ok(Value::Object(_)) => {}
        Ok(_) => bail!("it is not a JSON object"),
        Err(e) => bail!("it is not valid JSON ({e})"),
    }
    let Some(Node {
        kind: Kind::Object(top),
        ..
    }) = (Reader {
        text: &clean,
        at: 0,
    })
    .node()
    else {
        bail!("it could not be read as a JSON object");
    };
    let Some(servers) = top.iter().rev().find(|m| m.key == "mcpServers") else {
        return Ok(Vec::new());
    };
    let Kind::Object(servers) = &servers.value.kind else {
        bail!("`mcpServers` is not an object");
    };
    let mut out = Vec::new();
    for server in servers {
        let raw = &clean[server.value.span.clone()];
        let value: Value = serde_json::from_str(raw).unwrap_or(Value::Null);
        let mut entry = Entry {
            name: server.key.clone(),
            span: server.value.span.clone(),
            value,
            command: None,
            args: None,
            insert: Insert::Json,
        };
        if let Kind::Object(fields) = &server.value.kind {
            // A repeated key: the last one counts, as for JSON.parse.
            let field = |k: &str| fields.iter().rev().find(|m| m.key == k);
            entry.command = field("command").map(|m| m.value.span.clone());
            entry.args = field("args").and_then(|m| match &m.value.kind {
                Kind::Array(items) => Some(Args {
                    key_start: m.key_start,
                    span: m.value.span.clone(),
                    items: items.iter().map(|i| i.span.clone()).collect(),
                }),
                _ => None,
            });
        }
        out.push(entry);
    }
    Ok(out)
}

/// A JSON string.
pub(super) fn quote(s: &str) -> String {
    Value::from(s).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_are_blanked_in_place_but_not_inside_strings() {
        let text = "{ // a\n \"a\": \"//x/*y*/\", /* b\n c */ \"b\": 1 }";
        let clean = blank_comments(text);
        assert_eq!(clean.len(), text.len());
        assert!(clean.contains("\"//x/*y*/\""));
        assert!(!clean.contains("// a") && !clean.contains("c */"));
        assert_eq!(clean.matches('\n').count(), 2);
    }

    #[test]
    fn entries_locate_command_and_args() {
        let text = r#"{"x": 1, "mcpServers": {"fs": {"command": "npx", "args": ["-y", "p"]}, "u": {"url": "http://h"}}}"#;
        let e = entries(text).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(&text[e[0].command.clone().unwrap()], "\"npx\"");
        let args = e[0].args.as_ref().unwrap();
        assert_eq!(&text[args.span.clone()], "[\"-y\", \"p\"]");
        assert_eq!(&text[args.items[1].clone()], "\"p\"");
        assert_eq!(&text[args.key_start..args.key_start + 6], "\"args\"");
        assert_eq!(e[1].value["url"], "http://h");
    }

    #[test]
    fn malformed_files_are_errors() {
        for bad in ["{", "[]", "{\"mcpServers\": []}", "{\"a\": 1,}"] {
            assert!(entries(bad).is_err(), "{bad}");
        }
    }
}
