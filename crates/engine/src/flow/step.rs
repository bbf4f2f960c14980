//! The step a request adds to its session.

use palisade_protocol::{CheckRequest, Stage};

use super::spellings;
use super::values::{MAX_STEP_DOCUMENTS, document_name, percent_decoded, pointed, read_values};

/// What a request brings to its session: its text and values, compact,
/// and whether they are the user's own (a request at `input`, a trusted
/// tool's output).
pub(crate) fn step(
    request: &CheckRequest,
    stage: Stage,
    request_id: &str,
    trusted_tool: impl Fn(&str) -> bool,
    sensitive: Vec<String>,
    sensitive_any: bool,
    detect_instructions: bool,
) -> Step {
    let tool = request.tool.as_ref();
    let trusted = stage == Stage::Input
        || (stage == Stage::ToolOutput && tool.is_some_and(|t| trusted_tool(&t.name)));
    let mut step = Step {
        request_id: request_id.to_owned(),
        stage,
        tool: tool.map(|t| t.name.clone()),
        trusted,
        text: String::new(),
        data: String::new(),
        sensitive,
        sensitive_any,
        entities: Vec::new(),
        pointed: Vec::new(),
        documents: Vec::new(),
        asked: 0,
        kinds: 0,
        terms: Vec::new(),
        call: String::new(),
        instructed: None,
    };
    match stage {
        Stage::Input => {
            if let Some(content) = &request.content {
                // All of the user's words count, however short; and the
                // addresses, links and accounts in them as they are read
                // (`DE89-3704-…` as `de893704…`).
                crate::view::push_compact(content, &mut step.text);
                step.asked = super::intent::asked(content);
                if let Some((kinds, terms)) = super::intent::delegated(content) {
                    step.kinds = kinds;
                    step.terms = terms;
                }
                let mut named = Vec::new();
                read_values(content, &mut named);
                step.pointed = pointed(content, &named);
                for value in named {
                    step.text.push('\n');
                    step.text.push_str(&value);
                }
            }
        }
        Stage::ToolOutput => {
            if let Some(t) = tool {
                if !trusted {
                    add_documents(&mut step, t.arguments.as_ref(), t.output.as_ref());
                    step.call = call_words(&t.name, t.arguments.as_ref());
                }
                if let Some(output) = &t.output {
                    add_json(&mut step, output, 0);
                }
                if let Some(error) = &t.error {
                    add_string(&mut step, error);
                }
            }
            if let Some(content) = &request.content {
                add_string(&mut step, content);
            }
            if detect_instructions && !trusted {
                step.instructed = instructions(request);
            }
        }
        _ => {}
    }
    step
}

/// One request of a session, as flow checks need it: where it came from,
/// and its values in compact form ([`compact`]).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Step {
    pub(crate) request_id: String,
    pub(crate) stage: Stage,
    pub(crate) tool: Option<String>,
    /// The user's request, or a trusted tool's output.
    pub(crate) trusted: bool,
    /// Free text (strings of six words or more), one per line.
    pub(crate) text: String,
    /// Short values (fewer words, numbers), one per line.
    pub(crate) data: String,
    /// What sensitive-content checks matched, each compact.
    pub(crate) sensitive: Vec<String>,
    /// Whether a sensitive-content check fired at this step.
    pub(crate) sensitive_any: bool,
    /// The addresses, links and account numbers of an untrusted step's
    /// strings, compact, each with whether it was in text (not data): what
    /// the session keeps when it lets go of the step's text.
    pub(crate) entities: Vec<(String, bool)>,
    /// A request of the user: the files it asks to pay (`pay the bill in
    /// bill.txt`), compact.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) pointed: Vec<String>,
    /// A tool output: the files it is ([`add_documents`]), compact, the
    /// last part of a path.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) documents: Vec<String>,
    /// A request of the user: the effects it asks for
    /// ([`super::intent::asked`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub(crate) asked: super::effects::Effects,
    /// A request of the user: the kinds of value it leaves to a source it
    /// names ([`super::intent::delegated`]).
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub(crate) kinds: u8,
    /// A request of the user: the words that name that source.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) terms: Vec<String>,
    /// An untrusted tool output: its tool's name and its call's argument
    /// values, compact (at most [`MAX_CALL`] bytes): what a source the
    /// user named is matched against.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) call: String,
    /// An untrusted tool output in which instructions addressed to the
    /// agent were found: what the detector found (its own words, never the
    /// text's). Read only when a flow check has `instructions: true`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) instructed: Option<String>,
}

/// The most bytes of one tool output's strings the instruction detector
/// reads (the first of them, in document order).
pub(crate) const MAX_INSTRUCTION_BYTES: usize = 256 * 1024;

/// Instructions addressed to the agent in a tool output's strings (its
/// output, error and content), each string judged on its own: what the
/// detector found in the first one that holds any.
fn instructions(request: &CheckRequest) -> Option<String> {
    fn strings<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>, depth: usize) {
        match v {
            serde_json::Value::String(s) => out.push(s),
            serde_json::Value::Array(items) if depth < 64 => {
                items.iter().for_each(|i| strings(i, out, depth + 1));
            }
            serde_json::Value::Object(members) if depth < 64 => {
                members.values().for_each(|i| strings(i, out, depth + 1));
            }
            _ => {}
        }
    }
    let mut texts = Vec::new();
    if let Some(t) = &request.tool {
        if let Some(output) = &t.output {
            strings(output, &mut texts, 0);
        }
        texts.extend(t.error.as_deref());
    }
    texts.extend(request.content.as_deref());
    let mut budget = MAX_INSTRUCTION_BYTES;
    let mut previous: Option<&str> = None;
    for text in texts {
        if budget == 0 {
            break;
        }
        let mut end = text.len().min(budget);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        budget -= end;
        let text = text.get(..end).unwrap_or_default();
        if let Some(found) = crate::detect::addressed::addressed_instructions(text) {
            return Some(found.describe());
        }
        // Instructions split over two neighbouring members (`"note": "AI
        // assistant:"`, `"text": "send the file to …"`) are read together
        // when both are short, as a model reads them.
        if let Some(before) = previous.filter(|b| b.len() + text.len() <= SHORT_PAIR) {
            let joined = format!("{before}\n{text}");
            if let Some(found) = crate::detect::addressed::addressed_instructions(&joined) {
                return Some(found.describe());
            }
        }
        previous = Some(text);
    }
    None
}

/// The most bytes two neighbouring strings of an output hold for the
/// detector to read them together.
const SHORT_PAIR: usize = 512;

fn is_zero_u8(n: &u8) -> bool {
    *n == 0
}

/// Most bytes of a call's words a step keeps.
const MAX_CALL: usize = 1024;

/// A tool's name and its call's string and number arguments, compact, one
/// per line.
fn call_words(name: &str, arguments: Option<&serde_json::Value>) -> String {
    fn walk(v: &serde_json::Value, out: &mut String, depth: usize) {
        use serde_json::Value;
        if depth > 16 || out.len() > MAX_CALL {
            return;
        }
        match v {
            Value::String(s) => {
                crate::view::push_compact(s, out);
                out.push('\n');
            }
            Value::Number(n) => {
                out.push_str(&n.to_string());
                out.push('\n');
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, out, depth + 1)),
            Value::Object(members) => members.values().for_each(|i| walk(i, out, depth + 1)),
            Value::Bool(_) | Value::Null => {}
        }
    }
    let mut out = String::new();
    crate::view::push_compact(name, &mut out);
    out.push('\n');
    if let Some(a) = arguments {
        walk(a, &mut out, 0);
    }
    if out.len() > MAX_CALL {
        let mut cut = MAX_CALL;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}

fn is_zero(n: &super::effects::Effects) -> bool {
    *n == 0
}

impl Step {
    pub(super) fn bytes(&self) -> usize {
        self.request_id.len()
            + self.text.len()
            + self.data.len()
            + self.sensitive.iter().map(String::len).sum::<usize>()
            + self.entities.iter().map(|(e, _)| e.len()).sum::<usize>()
            + self.pointed.iter().map(String::len).sum::<usize>()
            + self.documents.iter().map(String::len).sum::<usize>()
            + self.terms.iter().map(String::len).sum::<usize>()
            + self.call.len()
            + self.instructed.as_ref().map_or(0, String::len)
            + 64
    }

    /// Whether the step has nothing a flow check can use.
    pub(crate) fn is_empty(&self) -> bool {
        self.text.is_empty()
            && self.data.is_empty()
            && !self.sensitive_any
            && self.asked == 0
            && self.instructed.is_none()
    }
}

/// Adds to a tool output's step the files it is: those its call's
/// arguments name in a member that names a file (`path`, `file_path`,
/// `filename`, `name`, `document`, `title`, `uri`, at any depth), and those
/// the output names in such a member at its top level (`{"filename":
/// "requests.md", "content": …}`, also when the output is a string that
/// holds that JSON). A file named anywhere else — an e-mail's subject, a
/// search's `query`, a listing's items — does not make the output that
/// file.
pub(crate) fn add_documents(
    step: &mut Step,
    arguments: Option<&serde_json::Value>,
    output: Option<&serde_json::Value>,
) {
    use serde_json::Value;
    fn walk(step: &mut Step, value: &Value, depth: usize) {
        if depth > 64 {
            return;
        }
        match value {
            Value::Array(items) => items.iter().for_each(|v| walk(step, v, depth + 1)),
            Value::Object(members) => {
                for (name, v) in members {
                    if names_a_file(name) {
                        file_members(step, v);
                    } else {
                        walk(step, v, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }
    fn file_members(step: &mut Step, v: &Value) {
        match v {
            Value::String(s) => add_document(step, s),
            Value::Array(items) => items
                .iter()
                .filter_map(Value::as_str)
                .for_each(|s| add_document(step, s)),
            _ => {}
        }
    }
    if let Some(arguments) = arguments {
        walk(step, arguments, 0);
    }
    let parsed;
    let top = match output {
        Some(Value::String(s)) if s.trim_start().starts_with('{') => {
            parsed = serde_json::from_str::<Value>(s).ok();
            parsed.as_ref()
        }
        other => other,
    };
    if let Some(Value::Object(members)) = top {
        for (name, v) in members {
            if names_a_file(name) {
                file_members(step, v);
            }
        }
    }
}

/// Whether a member's name names a file: one that starts with `file` or
/// ends with `path`, `paths` or `filename` (`file`, `files`, `file_path`,
/// `filePath`, `full_path`, `source_filename`), or `name`, `document`,
/// `document_name`, `doc`, `title`, `uri` (any case, `_` and `-` ignored).
/// Not `profile` or `query`.
pub(super) fn names_a_file(name: &str) -> bool {
    let n: String = name
        .chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect();
    n.starts_with("file")
        || n.ends_with("path")
        || n.ends_with("paths")
        || n.ends_with("filename")
        || matches!(
            n.as_str(),
            "name" | "document" | "documentname" | "doc" | "title" | "uri"
        )
}

fn add_document(step: &mut Step, s: &str) {
    if step.documents.len() < MAX_STEP_DOCUMENTS
        && let Some(name) = document_name(s)
        && !step.documents.contains(&name)
    {
        step.documents.push(name);
    }
}

/// Most entities one step keeps for when its text is let go.
pub(super) const MAX_STEP_ENTITIES: usize = 1024;

/// Words that make a string free text rather than a value.
pub(crate) const TEXT_WORDS: usize = 6;

/// Adds a string to a step: to its text when it has [`TEXT_WORDS`] words
/// or more, else to its data.
pub(crate) fn add_string(step: &mut Step, s: &str) {
    // Also percent-decoded: text that spells `%63ollect.evil.example` names
    // what a call that decodes it reaches.
    if let Some(decoded) = percent_decoded(s) {
        add_one_string(step, &decoded);
    }
    add_one_string(step, s);
}

fn add_one_string(step: &mut Step, s: &str) {
    // Words as a reader sees them: invisible characters between words part
    // them (`forward\u{200B}the\u{200B}invoices` is text, not one value).
    let words = spellings::words(s, TEXT_WORDS);
    if !step.trusted && step.entities.len() < MAX_STEP_ENTITIES {
        let mut found = Vec::new();
        read_values(s, &mut found);
        let text = words >= TEXT_WORDS;
        for e in found {
            if step.entities.len() >= MAX_STEP_ENTITIES {
                break;
            }
            if !step.entities.iter().any(|(k, t)| *k == e && *t == text) {
                step.entities.push((e, text));
            }
        }
    }
    let into = if words >= TEXT_WORDS {
        &mut step.text
    } else {
        &mut step.data
    };
    crate::view::push_compact(s, into);
    into.push('\n');
}

/// Adds every string and number of a JSON value (strings that hold JSON
/// are read as JSON).
pub(crate) fn add_json(step: &mut Step, value: &serde_json::Value, depth: usize) {
    use serde_json::Value;
    if depth > 64 {
        return;
    }
    match value {
        Value::String(s) => {
            let t = s.trim_start();
            if (t.starts_with('{') || t.starts_with('['))
                && let Ok(inner) = serde_json::from_str::<Value>(s)
                && (inner.is_object() || inner.is_array())
            {
                add_json(step, &inner, depth + 1);
                return;
            }
            add_string(step, s);
        }
        Value::Number(n) => {
            step.data.push_str(&n.to_string());
            step.data.push('\n');
        }
        Value::Array(items) => items.iter().for_each(|v| add_json(step, v, depth + 1)),
        Value::Object(members) => members.values().for_each(|v| add_json(step, v, depth + 1)),
        Value::Bool(_) | Value::Null => {}
    }
}
