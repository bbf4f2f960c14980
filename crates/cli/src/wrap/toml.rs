//! The MCP server entries of Codex's `config.toml` (`[mcp_servers.NAME]`),
//! located by byte ranges in the file's own text (toml_edit keeps them), so
//! that comments and formatting around an entry stay as they are.

use anyhow::bail;
use serde_json::{Map, Value};
use toml_edit::{Document, Item, TableLike};

use super::{Args, Entry, Insert};

/// The entries under `mcp_servers`. An error when the file is not valid
/// TOML or `mcp_servers` is not a table.
pub(super) fn entries(text: &str) -> anyhow::Result<Vec<Entry>> {
    let doc = match Document::parse(text) {
        Ok(d) => d,
        Err(e) => bail!("it is not valid TOML ({})", one_line(&e.to_string())),
    };
    let Some(servers) = doc.as_table().get("mcp_servers") else {
        return Ok(Vec::new());
    };
    let Some(servers) = servers.as_table_like() else {
        bail!("`mcp_servers` is not a table");
    };
    let mut headers = Vec::new();
    header_starts(doc.as_table(), &mut headers);
    let mut out = Vec::new();
    for (name, item) in servers.iter() {
        let mut entry = Entry {
            name: name.to_owned(),
            project: None,
            fields: Vec::new(),
            body: None,
            span: item.span().unwrap_or(0..0),
            value: to_json(item),
            command: None,
            args: None,
            insert: Insert::Never,
        };
        if let Some(table) = item.as_table_like() {
            entry.command = table
                .get("command")
                .and_then(Item::as_value)
                .and_then(toml_edit::Value::span);
            entry.args = args(table);
            entry.insert = match item {
                Item::Value(toml_edit::Value::InlineTable(_)) => Insert::TomlInline,
                Item::Table(t) if !t.is_dotted() && !t.is_implicit() => Insert::TomlLine,
                _ => Insert::Never,
            };
            entry.fields = table
                .iter()
                .map(|(k, v)| {
                    let range = match (table.key(k).and_then(toml_edit::Key::span), v) {
                        (Some(key), Item::Value(v)) => v.span().map(|s| key.start..s.end),
                        _ => None,
                    };
                    (k.to_owned(), range)
                })
                .collect();
            entry.body = match item {
                Item::Value(_) => Some(entry.span.clone()),
                Item::Table(t) if !t.is_dotted() && !t.is_implicit() => {
                    t.span().map(|header| body(text, header, &headers))
                }
                _ => None,
            };
        }
        out.push(entry);
    }
    Ok(out)
}

/// Where every table header (`[a.b]`, `[[a]]`) of the document starts.
fn header_starts(table: &toml_edit::Table, out: &mut Vec<usize>) {
    for (_, item) in table.iter() {
        match item {
            Item::Table(t) => {
                if let Some(s) = t.span() {
                    out.push(s.start);
                }
                header_starts(t, out);
            }
            Item::ArrayOfTables(a) => {
                for t in a.iter() {
                    if let Some(s) = t.span() {
                        out.push(s.start);
                    }
                    header_starts(t, out);
                }
            }
            _ => {}
        }
    }
}

/// A table's body: from the line after its header to the next header.
fn body(text: &str, header: std::ops::Range<usize>, headers: &[usize]) -> std::ops::Range<usize> {
    let start = text[header.end..]
        .find('\n')
        .map_or(text.len(), |i| header.end + i + 1);
    let end = headers
        .iter()
        .copied()
        .filter(|h| *h >= start)
        .min()
        .unwrap_or(text.len());
    start..end
}

fn args(table: &dyn TableLike) -> Option<Args> {
    let key = table.key("args")?;
    let array = table.get("args")?.as_value()?.as_array()?;
    Some(Args {
        key_start: key.span()?.start,
        span: array.span()?,
        items: array
            .iter()
            .map(toml_edit::Value::span)
            .collect::<Option<_>>()?,
    })
}

/// A TOML item as JSON (what the entry means, for judging it).
fn to_json(item: &Item) -> Value {
    match item {
        Item::Value(v) => value_json(v),
        Item::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), to_json(v)))
                .collect::<Map<_, _>>(),
        ),
        _ => Value::Null,
    }
}

fn value_json(v: &toml_edit::Value) -> Value {
    use toml_edit::Value as V;
    match v {
        V::String(s) => Value::from(s.value().as_str()),
        V::Integer(i) => Value::from(*i.value()),
        V::Float(f) => Value::from(*f.value()),
        V::Boolean(b) => Value::from(*b.value()),
        V::Datetime(d) => Value::from(d.value().to_string()),
        V::Array(a) => Value::Array(a.iter().map(value_json).collect()),
        V::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), value_json(v)))
                .collect::<Map<_, _>>(),
        ),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A TOML basic string.
pub(super) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_are_those_of_the_values() {
        let text = "# top\n[mcp_servers.fs]\ncommand = 'npx' # run\nargs = [\"-y\", \"p\"]\n\n[mcp_servers.i]\n\n[other]\nmcp_servers = 1\n";
        let e = entries(text).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(&text[e[0].command.clone().unwrap()], "'npx'");
        let a = e[0].args.as_ref().unwrap();
        assert_eq!(&text[a.span.clone()], "[\"-y\", \"p\"]");
        assert_eq!(&text[a.items[0].clone()], "\"-y\"");
        assert_eq!(&text[a.key_start..a.key_start + 4], "args");
        assert_eq!(e[0].value["command"], "npx");
        assert!(matches!(e[0].insert, Insert::TomlLine));
    }

    #[test]
    fn inline_tables_are_entries_too() {
        let text = "mcp_servers.fs = { command = \"npx\" }\n";
        let e = entries(text).unwrap();
        assert_eq!(&text[e[0].command.clone().unwrap()], "\"npx\"");
        assert!(matches!(e[0].insert, Insert::TomlInline));
    }

    #[test]
    fn quoting_escapes_what_toml_wants_escaped() {
        assert_eq!(quote("a\"b\\c\u{7f}"), "\"a\\\"b\\\\c\\u007F\"");
    }
}
