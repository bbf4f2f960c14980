//! JSON with comments, as Gemini CLI reads its `settings.json`: `//` and
//! `/* */` comments outside strings (strip-json-comments, then
//! `JSON.parse`: no trailing commas). A document is read into a tree of
//! byte ranges of its own text, so that an edit replaces the bytes of the
//! values that change and keeps every other byte, comments included; an
//! edit that would drop a comment is refused instead.

use std::ops::Range;

use serde_json::{Map, Value};

/// A value of the document: where it is and, for objects and arrays, what
/// it holds.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) span: Range<usize>,
    pub(crate) kind: Kind,
}

#[derive(Debug)]
pub(crate) enum Kind {
    Object(Vec<Member>),
    Array(Vec<Node>),
    Scalar,
}

#[derive(Debug)]
pub(crate) struct Member {
    pub(crate) key: String,
    pub(crate) key_start: usize,
    pub(crate) value: Node,
}

/// `text` with every comment replaced by spaces (newlines kept), so that
/// offsets into it are offsets into `text`. An unterminated `/*` runs to
/// the end, as for strip-json-comments.
pub(crate) fn blank_comments(text: &str) -> String {
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

/// Reads a document already known to be valid JSON (comments blanked).
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

/// A document read: its text with comments blanked, what it means, and
/// where each value is.
#[derive(Debug)]
pub(crate) struct Doc {
    pub(crate) clean: String,
    pub(crate) value: Value,
    pub(crate) tree: Node,
}

/// Reads JSON with comments. The error says what is wrong (serde_json's
/// message, with its line and column), and that a trailing comma is not
/// JSON with comments either.
pub(crate) fn parse(text: &str) -> Result<Doc, String> {
    let clean = blank_comments(text);
    let value: Value = serde_json::from_str(&clean).map_err(|e| {
        let mut why = e.to_string();
        if why.contains("trailing comma") {
            why.push_str("; comments are allowed, trailing commas are not");
        }
        why
    })?;
    let tree = Reader {
        text: &clean,
        at: 0,
    }
    .node()
    .ok_or_else(|| "it could not be read".to_owned())?;
    Ok(Doc { clean, value, tree })
}

/// A replacement of a range of the original text.
type Edit = (Range<usize>, String);

/// `text` (read as `doc`) edited into `new`: objects are edited member by
/// member (a new member goes last, a removed one goes with its comma),
/// any other value that changes is replaced whole. Bytes outside the
/// values that change stay as they are; an edit that would drop a comment
/// is an error naming the value (`hooks.BeforeTool`).
pub(crate) fn edit(text: &str, doc: &Doc, new: &Value) -> Result<String, String> {
    let unit = indent_unit(text, &doc.tree);
    let mut edits = Vec::new();
    let mut cx = Cx {
        text,
        clean: &doc.clean,
        unit: &unit,
        edits: &mut edits,
    };
    cx.value(&doc.tree, &doc.value, new, "")?;
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = text.to_owned();
    for (range, with) in &edits {
        out.replace_range(range.clone(), with);
    }
    // What is written must read back as what was meant.
    match parse(&out) {
        Ok(d) if d.value == *new => Ok(out),
        _ => Err("the edited file would not read back as intended".to_owned()),
    }
}

struct Cx<'a> {
    text: &'a str,
    clean: &'a str,
    unit: &'a str,
    edits: &'a mut Vec<Edit>,
}

fn name(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_owned()
    } else {
        format!("{path}.{key}")
    }
}

impl Cx<'_> {
    fn has_comment(&self, r: &Range<usize>) -> bool {
        self.text[r.clone()] != self.clean[r.clone()]
    }

    /// The indentation of the line `at` is on (its leading blanks).
    fn line_indent(&self, at: usize) -> String {
        let start = self.text[..at].rfind('\n').map_or(0, |i| i + 1);
        self.text[start..at]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect()
    }

    /// `v` as text, to stand where a value indented by `indent` is.
    fn render(&self, v: &Value, indent: &str, multiline: bool) -> String {
        if !multiline {
            return v.to_string();
        }
        // Two spaces a level, as serde_json writes it, in the file's unit
        // (a string holds no raw newline, so every line starts a member).
        let pretty = serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string());
        let lines: Vec<String> = pretty
            .lines()
            .map(|l| {
                let body = l.trim_start_matches(' ');
                let level = (l.len() - body.len()) / 2;
                format!("{}{body}", self.unit.repeat(level))
            })
            .collect();
        lines.join(&format!("\n{indent}"))
    }

    fn value(&mut self, node: &Node, old: &Value, new: &Value, path: &str) -> Result<(), String> {
        if old == new {
            return Ok(());
        }
        if let (Kind::Object(members), Some(old), Some(new)) =
            (&node.kind, old.as_object(), new.as_object())
        {
            return self.object(node, members, old, new, path);
        }
        if self.has_comment(&node.span) {
            return Err(format!(
                "`{}` has comments inside, which changing it would drop",
                if path.is_empty() { "the file" } else { path }
            ));
        }
        let multiline = self.text.contains('\n');
        let indent = self.line_indent(node.span.start);
        self.edits
            .push((node.span.clone(), self.render(new, &indent, multiline)));
        Ok(())
    }

    /// Removes `members[i..=j]`, which the object loses.
    fn remove(&mut self, members: &[Member], i: usize, j: usize, path: &str) -> Result<(), String> {
        let refuse = || {
            format!(
                "`{}` has comments inside, which removing it would drop",
                name(path, &members[i].key)
            )
        };
        let blank = |c: char| c.is_ascii_whitespace();
        let start = members[i].key_start;
        let end = members[j].value.span.end;
        let comma_after = |at: usize| self.clean[at..].find(',').map(|c| at + c);
        if j + 1 < members.len() {
            // The run, its comma and the blanks after it: a comment after
            // the comma stays where it is.
            let comma = comma_after(end).ok_or_else(refuse)?;
            if self.has_comment(&(start..comma)) {
                return Err(refuse());
            }
            let after = self.text[comma + 1..]
                .find(|c: char| !blank(c))
                .map_or(self.text.len(), |a| comma + 1 + a);
            self.edits.push((start..after, String::new()));
        } else if let Some(prev) = i.checked_sub(1).map(|p| &members[p]) {
            // The comma after the member before, and the run with the
            // blanks before it.
            if self.has_comment(&(start..end)) {
                return Err(refuse());
            }
            let comma = comma_after(prev.value.span.end).ok_or_else(refuse)?;
            let from = self.text[..start]
                .rfind(|c: char| !blank(c))
                .map_or(0, |b| b + 1)
                .max(comma + 1);
            self.edits.push((comma..comma + 1, String::new()));
            self.edits.push((from..end, String::new()));
        } else {
            if self.has_comment(&(start..end)) {
                return Err(refuse());
            }
            self.edits.push((start..end, String::new()));
        }
        Ok(())
    }

    fn object(
        &mut self,
        node: &Node,
        members: &[Member],
        old: &Map<String, Value>,
        new: &Map<String, Value>,
        path: &str,
    ) -> Result<(), String> {
        let last_of = |k: &str| members.iter().rposition(|m| m.key == k);
        for (k, v) in new {
            let Some(i) = last_of(k) else { continue };
            if members.iter().filter(|m| m.key == *k).count() > 1 && old.get(k) != Some(v) {
                return Err(format!("`{}` is repeated", name(path, k)));
            }
            self.value(&members[i].value, &old[k], v, &name(path, k))?;
        }
        // Removed members, a run of them at a time, with the comma that
        // parts them from the rest.
        let mut i = 0;
        while i < members.len() {
            if new.contains_key(&members[i].key) {
                i += 1;
                continue;
            }
            let mut j = i;
            while j + 1 < members.len() && !new.contains_key(&members[j + 1].key) {
                j += 1;
            }
            self.remove(members, i, j, path)?;
            i = j + 1;
        }
        let added: Vec<(&String, &Value)> =
            new.iter().filter(|(k, _)| last_of(k).is_none()).collect();
        if added.is_empty() {
            return Ok(());
        }
        let multiline = self.text[node.span.clone()].contains('\n') || members.is_empty();
        let own = self.line_indent(node.span.start);
        let indent = match members.last() {
            Some(m) if multiline => self.line_indent(m.key_start),
            _ => format!("{own}{}", self.unit),
        };
        let render = |k: &String, v: &Value| {
            format!(
                "{}: {}",
                Value::from(k.as_str()),
                self.render(v, &indent, multiline)
            )
        };
        let list: Vec<String> = added.iter().map(|(k, v)| render(k, v)).collect();
        let close = node.span.end - 1;
        match members.last() {
            None if multiline => {
                let body = list.join(&format!(",\n{indent}"));
                let open = node.span.start + 1;
                let rest = &self.text[open..close];
                let with = if rest.trim().is_empty() {
                    // `{}` or `{ }`: the closing brace on its own line.
                    self.edits.push((open..close, String::new()));
                    format!("\n{indent}{body}\n{own}")
                } else {
                    format!("\n{indent}{body}")
                };
                self.edits.push((open..open, with));
            }
            None => {
                self.edits
                    .push((node.span.start + 1..node.span.start + 1, list.join(", ")));
            }
            Some(last) if multiline => {
                let end = last.value.span.end;
                let between = &self.text[end..close];
                // Before the closing brace's line when only blanks stand
                // between it and that line's start (a comment after the
                // last member stays with it).
                let at = between
                    .rfind('\n')
                    .filter(|i| between[i + 1..].trim().is_empty())
                    .map(|i| end + i + 1);
                let body = list.join(&format!(",\n{indent}"));
                match at {
                    Some(at) => {
                        self.edits.push((end..end, ",".to_owned()));
                        self.edits.push((at..at, format!("{indent}{body}\n")));
                    }
                    None => self.edits.push((end..end, format!(",\n{indent}{body}"))),
                }
            }
            Some(last) => {
                let end = last.value.span.end;
                self.edits
                    .push((end..end, format!(", {}", list.join(", "))));
            }
        }
        Ok(())
    }
}

/// The file's unit of indentation: that of the top object's first member
/// when it is on a line of its own, else two spaces.
fn indent_unit(text: &str, tree: &Node) -> String {
    if let Kind::Object(members) = &tree.kind
        && let Some(m) = members.first()
    {
        let start = text[..m.key_start].rfind('\n').map_or(0, |i| i + 1);
        let lead = &text[start..m.key_start];
        if !lead.is_empty() && lead.chars().all(|c| c == ' ' || c == '\t') {
            return lead.to_owned();
        }
    }
    "  ".to_owned()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn edited(text: &str, f: impl FnOnce(&mut Value)) -> Result<String, String> {
        let doc = parse(text).unwrap();
        let mut new = doc.value.clone();
        f(&mut new);
        edit(text, &doc, &new)
    }

    #[test]
    fn comments_are_blanked_in_place_but_not_inside_strings() {
        let text = "{ // a\n \"a\": \"//x/*y*/\", /* b\n c */ \"b\": 1 }";
        let clean = blank_comments(text);
        assert_eq!(clean.len(), text.len());
        assert!(clean.contains("\"//x/*y*/\""));
        assert!(!clean.contains("// a") && !clean.contains("c */"));
        assert_eq!(clean.matches('\n').count(), 2);
        assert_eq!(blank_comments("{\"a\": \"//\"}"), "{\"a\": \"//\"}");
    }

    #[test]
    fn trailing_commas_are_refused_as_gemini_cli_refuses_them() {
        let e = parse("{\"a\": 1, // c\n}").unwrap_err();
        assert!(
            e.contains("trailing comma") && e.contains("trailing commas are not"),
            "{e}"
        );
        assert!(parse("{\"a\": [1,]}").is_err());
        assert_eq!(parse("{} /* open").unwrap().value, json!({}));
    }

    #[test]
    fn a_new_member_goes_last_and_comments_stay() {
        let text = "// top\n{\n    \"theme\": \"x\" // mine\n    /* end */\n}\n";
        let out = edited(text, |v| v["hooks"] = json!({"A": [1]})).unwrap();
        assert_eq!(
            out,
            "// top\n{\n    \"theme\": \"x\", // mine\n    /* end */\n    \"hooks\": {\n        \"A\": [\n            1\n        ]\n    }\n}\n"
        );
        let text = "{\"a\": 1 /* c */}";
        let out = edited(text, |v| v["b"] = json!(2)).unwrap();
        assert_eq!(out, "{\"a\": 1, \"b\": 2 /* c */}");
        let out = edited("{}\n", |v| v["b"] = json!(2)).unwrap();
        assert_eq!(out, "{\n  \"b\": 2\n}\n");
    }

    #[test]
    fn changed_and_removed_members_keep_the_comments_around_them() {
        let text = "{\n  // hooks below\n  \"hooks\": {\n    \"A\": [1], // theirs\n    \"B\": [2]\n  },\n  \"z\": 0 // last\n}";
        let out = edited(text, |v| v["hooks"]["B"] = json!([2, 3])).unwrap();
        assert!(
            out.contains("\"A\": [1], // theirs\n    \"B\": [\n      2,\n      3\n    ]\n  },"),
            "{out}"
        );
        let out = edited(text, |v| {
            v["hooks"].as_object_mut().unwrap().remove("B");
        })
        .unwrap();
        assert!(out.contains("\"A\": [1] // theirs\n  },"), "{out}");
        // Removing `A` leaves its line's comment where it was.
        let out = edited(text, |v| {
            v["hooks"].as_object_mut().unwrap().remove("A");
        })
        .unwrap();
        assert!(
            out.contains("\"hooks\": {\n    // theirs\n    \"B\": [2]\n  },"),
            "{out}"
        );
        let e = edited(text, |v| {
            v.as_object_mut().unwrap().remove("hooks");
        })
        .unwrap_err();
        assert!(e.contains("`hooks` has comments inside"), "{e}");
        let text = "{\n  // first\n  \"a\": 1,\n  \"b\": {},\n  \"c\": 2 // c\n}";
        let out = edited(text, |v| {
            let o = v.as_object_mut().unwrap();
            o.remove("b");
            o.remove("c");
        })
        .unwrap();
        assert_eq!(out, "{\n  // first\n  \"a\": 1 // c\n}");
        let e = edited("{\"h\": [1 /* c */], \"z\": 0}", |v| {
            v.as_object_mut().unwrap().remove("h");
        })
        .unwrap_err();
        assert!(e.contains("`h` has comments inside"), "{e}");
        let e = edited("{\"h\": [1 /* c */]}", |v| v["h"] = json!([2])).unwrap_err();
        assert!(e.contains("`h` has comments inside"), "{e}");
    }
}
