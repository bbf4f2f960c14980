//! The MCP server entries of a JSON configuration (Claude Code, Cursor,
//! Gemini CLI), located by byte ranges in the file's own text so that an
//! edit touches those bytes and no others. Comments (`//`, `/* */`, which
//! Gemini CLI's settings allow) are read as whitespace.

use anyhow::bail;
use serde_json::Value;

use super::{Args, Entry, Insert};
use crate::install::jsonc::{self, Kind, Member, Node};

/// The MCP server entries of a JSON configuration: under `mcpServers` of
/// the top object and, with `projects` (Claude Code's `~/.claude.json`),
/// under `projects.PATH.mcpServers` of each project. An error when the
/// file is not a JSON object (with comments) or a `mcpServers` is not an
/// object.
pub(super) fn entries(text: &str, projects: bool) -> anyhow::Result<Vec<Entry>> {
    let doc = match jsonc::parse(text) {
        Ok(d) => d,
        Err(e) => bail!("it is not valid JSON ({e})"),
    };
    let (
        Value::Object(_),
        Node {
            kind: Kind::Object(top),
            ..
        },
    ) = (&doc.value, &doc.tree)
    else {
        bail!("it is not a JSON object");
    };
    let mut out = Vec::new();
    servers(&doc.clean, top, None, &mut out)?;
    if !projects {
        return Ok(out);
    }
    let Some(list) = top.iter().rev().find(|m| m.key == "projects") else {
        return Ok(out);
    };
    // Projects that are not objects hold no servers Claude Code would
    // start: nothing to wrap there.
    if let Kind::Object(list) = &list.value.kind {
        for p in list {
            if let Kind::Object(fields) = &p.value.kind {
                servers(&doc.clean, fields, Some(&p.key), &mut out)
                    .map_err(|e| anyhow::anyhow!("{e} (in `projects` of {})", p.key))?;
            }
        }
    }
    Ok(out)
}

/// The entries of the `mcpServers` member among `fields`.
fn servers(
    clean: &str,
    fields: &[Member],
    project: Option<&str>,
    out: &mut Vec<Entry>,
) -> anyhow::Result<()> {
    let Some(servers) = fields.iter().rev().find(|m| m.key == "mcpServers") else {
        return Ok(());
    };
    let Kind::Object(servers) = &servers.value.kind else {
        bail!("`mcpServers` is not an object");
    };
    for server in servers {
        let raw = &clean[server.value.span.clone()];
        let value: Value = serde_json::from_str(raw).unwrap_or(Value::Null);
        let mut entry = Entry {
            name: server.key.clone(),
            project: project.map(str::to_owned),
            fields: Vec::new(),
            body: None,
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
    Ok(())
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
        let e = entries(text, false).unwrap();
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
            assert!(entries(bad, true).is_err(), "{bad}");
        }
    }
}
