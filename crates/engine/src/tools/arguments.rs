//! Which members of a tool call's arguments hold paths or shell lines:
//! found by the words of their names, at any depth.
//!
//! A member name is split into words at case changes, digits, `_`, `-`,
//! `.` and spaces, lowercased: `filePath`, `file_path` and `FILE-PATH` are
//! all `file path`; `notebook_path` is `notebook path`. A member holds a
//! path when its last word is a path word ([`PATH_WORDS`]), and a shell
//! line when its last word is a command word ([`COMMAND_WORDS`]) or its
//! name is `command line`; the names in [`TOP_COMMAND_NAMES`] count at the
//! top level only, as they mean other things deeper down.

use palisade_protocol::pointer;
use serde_json::Value;

/// Last words of the names of members that hold paths.
pub(crate) const PATH_WORDS: &[&str] = &[
    "path",
    "paths",
    "pathname",
    "pathnames",
    "file",
    "files",
    "filename",
    "filenames",
    "filepath",
    "filepaths",
    "dir",
    "dirs",
    "directory",
    "directories",
    "folder",
    "folders",
    "dest",
    "dst",
    "destination",
    "destinations",
    "src",
    "source",
    "sources",
    "target",
    "targets",
    "uri",
    "uris",
    "cwd",
    "workdir",
];

/// Last words of the names of members that hold paths in the arguments of
/// a tool that copies, moves, renames or links files (`from`, `to`); in
/// other tools they hold other things (an e-mail's `to`).
pub(crate) const TRANSFER_WORDS: &[&str] = &["from", "to", "link"];

/// Whether a member name holds a path in the arguments of a tool that
/// copies, moves, renames or links files.
pub(crate) fn is_transfer_name(name: &str) -> bool {
    name_words(name)
        .last()
        .is_some_and(|w| TRANSFER_WORDS.contains(&w.as_str()))
}

/// Last words of the names of members that hold shell lines.
pub(crate) const COMMAND_WORDS: &[&str] = &[
    "command",
    "commands",
    "cmd",
    "cmdline",
    "commandline",
    "bash",
    "sh",
    "zsh",
    "pwsh",
    "powershell",
    "run",
];

/// Names (as words joined) that hold shell lines at the top level only.
pub(crate) const TOP_COMMAND_NAMES: &[&str] = &[
    "script", "shell", "code", "input", "args", "argv", "text", "keys", "line", "data", "chars",
];

/// Names (as words joined) of members that name the program a tool starts,
/// when its arguments are given apart ([`ARGS_NAMES`]).
pub(crate) const PROGRAM_NAMES: &[&str] =
    &["command", "cmd", "program", "executable", "binary", "exe"];

/// Names (as words joined) of members that hold the arguments of the
/// program a tool starts, as an array.
pub(crate) const ARGS_NAMES: &[&str] = &["args", "argv", "arguments"];

/// The programs a tool starts with their arguments, given apart
/// (`{"program": "cat", "args": ["x"]}`), each as one argv: every
/// program-named string with every argument-named array, since which of
/// two the tool reads cannot be told.
pub(crate) fn program_and_args(map: &serde_json::Map<String, Value>) -> Vec<Vec<Value>> {
    let named = |names: &[&str], name: &str| names.contains(&name_words(name).join(" ").as_str());
    let programs = map
        .iter()
        .filter(|(name, v)| v.is_string() && named(PROGRAM_NAMES, name));
    let mut out = Vec::new();
    for (_, program) in programs {
        for (name, rest) in map.iter() {
            if let Value::Array(rest) = rest
                && named(ARGS_NAMES, name)
            {
                let mut words = vec![program.clone()];
                words.extend(rest.iter().cloned());
                out.push(words);
            }
        }
    }
    out
}

/// Names (as words joined) of members that give the directory a tool runs
/// in, for any tool.
pub(crate) const WORKDIR_NAMES: &[&str] = &[
    "cwd",
    "workdir",
    "work dir",
    "working dir",
    "working directory",
    "workingdir",
    "workingdirectory",
    "current dir",
    "current directory",
    "cwd path",
    "workdir path",
];

/// Names (as words joined) of members that give the directory a tool that
/// runs a shell line runs in (for other tools they name the target).
pub(crate) const SHELL_DIR_NAMES: &[&str] = &["dir", "directory", "dir path", "directory path"];

/// Last words of the names of members that filter the files a search
/// reads by name (`glob`, `include`, `iglob`).
pub(crate) const FILTER_WORDS: &[&str] = &["glob", "globs", "iglob", "include", "includes"];

/// Whether a member name is a file-name filter of a search.
pub(crate) fn is_filter_name(name: &str) -> bool {
    name_words(name)
        .last()
        .is_some_and(|w| FILTER_WORDS.contains(&w.as_str()))
}

/// How deep members are looked for.
pub(crate) const MAX_DEPTH: usize = 64;

/// The words of a member name, lowercased.
pub(crate) fn name_words(name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for c in name.chars() {
        let boundary = !c.is_alphanumeric()
            || (c.is_uppercase() && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit()))
            || (c.is_ascii_digit() != prev.is_some_and(|p| p.is_ascii_digit()) && prev.is_some());
        if boundary && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        if c.is_alphanumeric() {
            cur.extend(c.to_lowercase());
        }
        prev = Some(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// Whether a member name holds paths.
pub(crate) fn is_path_name(name: &str) -> bool {
    name_words(name)
        .last()
        .is_some_and(|w| PATH_WORDS.contains(&w.as_str()))
}

/// Whether a member name holds shell lines (`top`: the member is a direct
/// member of the arguments).
pub(crate) fn is_command_name(name: &str, top: bool) -> bool {
    let words = name_words(name);
    let Some(last) = words.last() else {
        return false;
    };
    if COMMAND_WORDS.contains(&last.as_str()) {
        return true;
    }
    let joined = words.join(" ");
    matches!(joined.as_str(), "command line" | "cmd line")
        || (top && TOP_COMMAND_NAMES.contains(&joined.as_str()))
}

/// Names of members that may hold a call's arguments as JSON text (by
/// their words, [`name_words`]).
const JSON_TEXT_NAMES: &[&str] = &[
    "arguments",
    "args",
    "arg",
    "params",
    "parameters",
    "input",
    "tool input",
    "tool args",
    "tool arguments",
    "kwargs",
];

/// The longest JSON text read for the arguments it holds.
const MAX_JSON_TEXT: usize = 1 << 20;

/// How many times JSON text inside JSON text is read.
const MAX_JSON_TEXT_DEPTH: usize = 4;

/// Arguments written as JSON text, parsed: `args` itself when it is a
/// string holding a JSON object or array (OpenAI's function calls carry
/// their arguments so), and its members named as arguments (`arguments`,
/// `params`, `input`, …) that hold one (a tool that calls another, such as
/// `use_mcp_tool`), again inside those, each with the pointer (under
/// `base`) of the string it was read from. A text with a repeated key is
/// read twice, with the first value and with the last, since parsers
/// disagree on which counts.
pub(crate) fn json_texts(args: &Value, base: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    let mut todo: Vec<(String, std::borrow::Cow<'_, Value>, usize)> =
        vec![(base.to_owned(), std::borrow::Cow::Borrowed(args), 0)];
    while let Some((ptr, value, depth)) = todo.pop() {
        let mut texts: Vec<(String, &str)> = Vec::new();
        match value.as_ref() {
            Value::String(s) => texts.push((ptr.clone(), s)),
            Value::Object(map) => {
                for (name, v) in map {
                    if let Value::String(s) = v
                        && opens_json(s)
                        && JSON_TEXT_NAMES.contains(&name_words(name).join(" ").as_str())
                    {
                        let mut p = ptr.clone();
                        // Inside a text, the place is the outermost string.
                        if depth == 0 {
                            pointer::push(&mut p, name);
                        }
                        texts.push((p, s));
                    }
                }
            }
            _ => {}
        }
        for (p, text) in texts {
            if !opens_json(text) || text.len() > MAX_JSON_TEXT {
                continue;
            }
            let Ok(parsed) = serde_json::from_str::<Value>(text) else {
                continue;
            };
            let mut readings = vec![parsed];
            if crate::input::dupkeys::find_repeated(text).is_some()
                && let Ok(FirstWins(first)) = serde_json::from_str::<FirstWins>(text)
            {
                readings.push(first);
            }
            for reading in readings {
                if depth + 1 < MAX_JSON_TEXT_DEPTH {
                    todo.push((
                        p.clone(),
                        std::borrow::Cow::Owned(reading.clone()),
                        depth + 1,
                    ));
                }
                out.push((p.clone(), reading));
            }
        }
    }
    out
}

/// Whether `text` starts (after white space) as a JSON object or array.
fn opens_json(text: &str) -> bool {
    text.trim_start().starts_with(['{', '['])
}

/// A JSON value whose objects keep the first value of a repeated key
/// (`serde_json` keeps the last).
struct FirstWins(Value);

impl<'de> serde::Deserialize<'de> for FirstWins {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(FirstWinsVisitor).map(FirstWins)
    }
}

struct FirstWinsVisitor;

impl<'de> serde::de::Visitor<'de> for FirstWinsVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(FirstWins(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = serde_json::Map::new();
        while let Some((k, FirstWins(v))) = map.next_entry::<String, FirstWins>()? {
            out.entry(k).or_insert(v);
        }
        Ok(Value::Object(out))
    }
}

/// The members of `value` (an object, at any depth through objects and
/// arrays) that `select` picks by name and depth (0: a member of `value`
/// itself), with their JSON pointers under `base`, in document order.
/// A selected member holding an object or an array is looked into too:
/// `{"file": {"path": …}}`, `{"paths": [{"path": …}]}` and
/// `{"args": {"command": …}}` name what they hold one level down.
pub(crate) fn members<'v>(
    value: &'v Value,
    base: &str,
    select: &dyn Fn(&str, usize) -> bool,
) -> Vec<(String, &'v Value)> {
    let mut out = Vec::new();
    let mut stack: Vec<(String, &'v Value, usize)> = vec![(base.to_owned(), value, 0)];
    while let Some((ptr, v, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            continue;
        }
        let mut children: Vec<(String, &'v Value, usize)> = Vec::new();
        match v {
            Value::Object(map) => {
                for (name, child) in map {
                    let mut p = ptr.clone();
                    pointer::push(&mut p, name);
                    if select(name, depth) {
                        out.push((p.clone(), child));
                    }
                    if child.is_object() || child.is_array() {
                        children.push((p, child, depth + 1));
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    if child.is_object() || child.is_array() {
                        let mut p = ptr.clone();
                        pointer::push_index(&mut p, i);
                        children.push((p, child, depth + 1));
                    }
                }
            }
            _ => {}
        }
        stack.extend(children.into_iter().rev());
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_written_as_json_text_are_read_with_every_value_of_a_repeated_key() {
        let args = serde_json::json!({
            "tool_name": "read_file",
            "arguments": r#"{"path": "/a", "path": "/b", "params": "{\"cmd\": \"x\"}"}"#,
            "content": r#"{"path": "/c"}"#,
        });
        let texts = json_texts(&args, "/tool/arguments");
        let paths: Vec<(&str, Option<&str>)> = texts
            .iter()
            .map(|(p, v)| (p.as_str(), v.get("path").and_then(Value::as_str)))
            .collect();
        // The last value and the first, then the text inside the text (at
        // the outer string); `content` is not a name for arguments.
        assert_eq!(
            paths,
            [
                ("/tool/arguments/arguments", Some("/b")),
                ("/tool/arguments/arguments", Some("/a")),
                ("/tool/arguments/arguments", None),
                ("/tool/arguments/arguments", None),
            ]
        );
        assert_eq!(texts[3].1, serde_json::json!({"cmd": "x"}));
        let bare = json_texts(&Value::String("[1, {\"k\": 2}]".into()), "/tool/arguments");
        assert_eq!(
            bare,
            [(
                "/tool/arguments".to_owned(),
                serde_json::json!([1, {"k": 2}])
            )]
        );
        for not_json in ["plain text", "{not json", "\"quoted\"", "42"] {
            assert!(
                json_texts(&Value::String(not_json.into()), "").is_empty(),
                "{not_json}"
            );
        }
    }

    #[test]
    fn names_are_read_by_their_words() {
        for name in [
            "path",
            "Path",
            "PATH",
            "filePath",
            "file_path",
            "FilePath",
            "pathname",
            "notebook_path",
            "old_path",
            "newPath",
            "targetFile",
            "output-file",
            "srcDir",
            "working_directory",
            "paths",
        ] {
            assert!(is_path_name(name), "{name}");
        }
        for name in [
            "pathology",
            "filter",
            "profile",
            "content",
            "query",
            "url",
            "sourceCode",
        ] {
            assert!(!is_path_name(name), "{name}");
        }
        for (name, top) in [
            ("command", false),
            ("Command", false),
            ("cmd", false),
            ("commandLine", false),
            ("command_line", false),
            ("shellCommand", false),
            ("commands", false),
            ("script", true),
            ("Script", true),
            ("input", true),
            ("args", true),
        ] {
            assert!(is_command_name(name, top), "{name}");
        }
        for (name, top) in [
            ("input", false),
            ("script", false),
            ("commander", true),
            ("description", true),
        ] {
            assert!(!is_command_name(name, top), "{name}");
        }
    }

    /// The pointers of the members of `v` that `select` picks.
    fn found(v: &Value, select: &dyn Fn(&str, usize) -> bool) -> Vec<String> {
        members(v, "/tool/arguments", select)
            .into_iter()
            .map(|(p, _)| p)
            .collect()
    }

    #[test]
    fn members_are_found_at_any_depth() {
        let v: Value = serde_json::json!({
            "options": {"path": "/a", "deep": [{"filePath": "/b"}]},
            "Path": "/c",
            "content": "x"
        });
        assert_eq!(
            found(&v, &|n, _| is_path_name(n)),
            [
                "/tool/arguments/Path",
                "/tool/arguments/options/deep/0/filePath",
                "/tool/arguments/options/path"
            ]
        );
    }

    #[test]
    fn a_selected_member_is_looked_into() {
        let v: Value = serde_json::json!({
            "file": {"path": "/a", "encoding": "utf8"},
            "paths": ["/b", {"path": "/c"}, [{"file_path": "/d"}]],
            "args": {"command": "rm -rf /"}
        });
        assert_eq!(
            found(&v, &|n, _| is_path_name(n)),
            [
                "/tool/arguments/file",
                "/tool/arguments/file/path",
                "/tool/arguments/paths",
                "/tool/arguments/paths/1/path",
                "/tool/arguments/paths/2/0/file_path",
            ]
        );
        assert_eq!(
            found(&v, &|n, depth| is_command_name(n, depth == 0)),
            ["/tool/arguments/args", "/tool/arguments/args/command"]
        );
    }
}
