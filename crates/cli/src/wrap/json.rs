//! The MCP server entries of a JSON configuration (Claude Code, Cursor,
//! Gemini CLI), located by byte ranges in the file's own text so that an
//! edit touches those bytes and no others. Comments (`//`, `/* */`, which
//! Gemini CLI's settings allow) are read as whitespace.

use anyhow::bail;
use serde_json::Value;

use super::{Args, Entry, Insert};
use crate::install::jsonc::{self, Kind, Node};

/// The MCP server entries of a JSON configuration: under `mcpServers` of
/// the top object. An error when the file is not a JSON object (with
/// comments) or `mcpServers` is not an object.
pub(super) fn entries(text: &str) -> anyhow::Result<Vec<Entry>> {
    let doc = match jsonc::parse(text) {
        Ok(d) => d,
        Err(e) => bail!("it is not valid JSON ({e})"),
    };
    let (Value::Object(_), Node {
        kind: Kind::Object(top),
        ..
    }) = (&doc.value, &doc.tree)
    else {
        bail!("it is not a JSON object");
    };
    let clean = &doc.clean;
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
