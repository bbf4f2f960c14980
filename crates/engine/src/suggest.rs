//! `palisade policy suggest`: what each tool of a tool list does, as the
//! flow rule's effect categories (send, pay, create, modify, delete, book,
//! invite, fetch, execute, read), for a person to review, and a policy
//! fragment that makes the tools that act outside — and those whose
//! effect cannot be told — sinks of a flow rule.
//!
//! A tool's name is read first, as the flow rule reads it
//! (`crate::flow::effects`): a name that says it sends, pays, invites or
//! fetches decides. Otherwise the verbs of the name that create, modify,
//! delete, book or execute; then its argument names (an argument that
//! names who receives makes a creating tool a sender, an amount or an
//! account a payment, a URL a fetch, a command an execution, attendees an
//! invitation); then the first verb of its description.
//!
//! ```
//! use palisade_engine::suggest::{Category, read_tools, classify};
//!
//! let tools = read_tools(r#"["send_email", "create_invoice", "list_files"]"#).unwrap();
//! let found: Vec<_> = tools.iter().map(|t| classify(t).category).collect();
//! assert_eq!(found, [Some(Category::Send), Some(Category::Create), Some(Category::Read)]);
//! ```

use std::fmt::Write as _;

use serde_json::Value;

use crate::flow::effects::{Effect, of_tool};
use crate::tools::arguments::name_words;

/// What a tool does to the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Category {
    /// Sends, shares, posts or uploads something to someone.
    Send,
    /// Moves money.
    Pay,
    /// Creates something.
    Create,
    /// Changes something that exists.
    Modify,
    /// Deletes something.
    Delete,
    /// Books or reserves something.
    Book,
    /// Gives someone access.
    Invite,
    /// Reaches an address on the network.
    Fetch,
    /// Runs a command or code.
    Execute,
    /// Reads and changes nothing.
    Read,
}

impl Category {
    /// The category's name.
    pub fn name(self) -> &'static str {
        match self {
            Category::Send => "send",
            Category::Pay => "pay",
            Category::Create => "create",
            Category::Modify => "modify",
            Category::Delete => "delete",
            Category::Book => "book",
            Category::Invite => "invite",
            Category::Fetch => "fetch",
            Category::Execute => "execute",
            Category::Read => "read",
        }
    }

    /// Whether a call of such a tool carries values out of the user's
    /// hands: a sink of a flow rule.
    pub fn is_sink(self) -> bool {
        matches!(
            self,
            Category::Send | Category::Pay | Category::Invite | Category::Fetch | Category::Book
        )
    }
}

/// One tool of a tool list: its name, description and argument names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolDef {
    /// The tool's name.
    pub name: String,
    /// Its description, if the list gives one.
    pub description: Option<String>,
    /// The names of its arguments (the schema's top-level properties).
    pub arguments: Vec<String>,
}

/// What a tool was found to do, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The tool's name.
    pub name: String,
    /// Its category; `None` when nothing says.
    pub category: Option<Category>,
    /// Why, in a few words.
    pub why: String,
    /// Whether the default policy's flow rule already takes the tool for
    /// a sink by its name alone.
    pub sink_by_name: bool,
}

/// The most tools read from one list.
const MAX_TOOLS: usize = 10_000;

/// Reads a tool list: an MCP `tools/list` result (`{"tools": […]}`, or
/// the JSON-RPC response holding it), an array of OpenAI function-calling
/// tools (`{"type": "function", "function": {…}}`, or the functions
/// themselves), an array of names, or names one per line (blank lines
/// and lines starting with `#` skipped). An error says what is wrong and
/// where.
pub fn read_tools(text: &str) -> Result<Vec<ToolDef>, String> {
    let trimmed = text.trim_start_matches('\u{FEFF}').trim();
    if trimmed.is_empty() {
        return Err("the file is empty; expected an MCP `tools/list` result, an OpenAI tools array or tool names one per line".into());
    }
    if !trimmed.starts_with(['{', '[']) {
        return names_per_line(trimmed);
    }
    let value = crate::parse_json(trimmed).map_err(|e| format!("not valid JSON: {e}"))?;
    let (items, at) = match &value {
        Value::Array(items) => (items, String::new()),
        Value::Object(obj) => {
            if let Some(tools) = obj.get("tools") {
                (array(tools, "/tools")?, "/tools".to_owned())
            } else if let Some(tools) = obj.get("result").and_then(|r| r.get("tools")) {
                (array(tools, "/result/tools")?, "/result/tools".to_owned())
            } else if let Some(error) = obj.get("error") {
                return Err(format!(
                    "the file is a JSON-RPC error response ({}), not a tool list",
                    compact(error)
                ));
            } else {
                let keys: Vec<&str> = obj.keys().map(String::as_str).take(8).collect();
                return Err(format!(
                    "an object without `tools` or `result.tools` (its members: {}); expected an MCP `tools/list` result, an OpenAI tools array or tool names",
                    if keys.is_empty() {
                        "none".to_owned()
                    } else {
                        keys.join(", ")
                    }
                ));
            }
        }
        other => {
            return Err(format!(
                "expected an object or an array, found {}",
                crate::json_type(other)
            ));
        }
    };
    if items.is_empty() {
        return Err(format!(
            "{}: the list of tools is empty",
            pointer_or_root(&at)
        ));
    }
    if items.len() > MAX_TOOLS {
        return Err(format!(
            "{}: {} tools; at most {MAX_TOOLS} are read",
            pointer_or_root(&at),
            items.len()
        ));
    }
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        out.push(tool(item, &format!("{at}/{i}"))?);
    }
    Ok(out)
}

fn pointer_or_root(at: &str) -> &str {
    if at.is_empty() { "/" } else { at }
}

fn compact(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 120 {
        format!("{}…", s.chars().take(120).collect::<String>())
    } else {
        s
    }
}

fn array<'a>(v: &'a Value, at: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array().ok_or_else(|| {
        format!(
            "{at}: expected an array of tools, found {}",
            crate::json_type(v)
        )
    })
}

fn names_per_line(text: &str) -> Result<Vec<ToolDef>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let name = line.trim();
        if name.is_empty() || name.starts_with('#') {
            continue;
        }
        if !valid_name(name) {
            return Err(format!(
                "line {}: `{}` is not a tool name (letters, digits, `_`, `-`, `.`, `/` and `:`, at most 256 characters); a file that is not JSON holds tool names, one per line",
                i + 1,
                name.chars().take(80).collect::<String>()
            ));
        }
        out.push(ToolDef {
            name: name.to_owned(),
            description: None,
            arguments: Vec::new(),
        });
        if out.len() > MAX_TOOLS {
            return Err(format!("more than {MAX_TOOLS} tool names"));
        }
    }
    if out.is_empty() {
        return Err("the file names no tools".into());
    }
    Ok(out)
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 256
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ':'))
}

/// One tool from an element of the list at `at`.
fn tool(item: &Value, at: &str) -> Result<ToolDef, String> {
    if let Value::String(name) = item {
        if !valid_name(name) {
            return Err(format!(
                "{at}: `{name}` is not a tool name (letters, digits, `_`, `-`, `.`, `/` and `:`)"
            ));
        }
        return Ok(ToolDef {
            name: name.clone(),
            description: None,
            arguments: Vec::new(),
        });
    }
    let Value::Object(obj) = item else {
        return Err(format!(
            "{at}: expected a tool (an object with a `name`, or a name), found {}",
            crate::json_type(item)
        ));
    };
    // OpenAI: {"type": "function", "function": {name, description, parameters}}.
    let (def, at) = match obj.get("function") {
        Some(Value::Object(f)) => (f, format!("{at}/function")),
        Some(other) => {
            return Err(format!(
                "{at}/function: expected an object with the function's `name`, found {}",
                crate::json_type(other)
            ));
        }
        None => (obj, at.to_owned()),
    };
    let name = match def.get("name") {
        Some(Value::String(n)) if valid_name(n) => n.clone(),
        Some(Value::String(n)) => {
            return Err(format!(
                "{at}/name: `{n}` is not a tool name (letters, digits, `_`, `-`, `.`, `/` and `:`)"
            ));
        }
        Some(other) => {
            return Err(format!(
                "{at}/name: expected a string, found {}",
                crate::json_type(other)
            ));
        }
        None => return Err(format!("{at}: the tool has no `name`")),
    };
    let description = match def.get("description") {
        None | Some(Value::Null) => None,
        Some(Value::String(d)) => Some(d.clone()),
        Some(other) => {
            return Err(format!(
                "{at}/description: expected a string, found {}",
                crate::json_type(other)
            ));
        }
    };
    let mut arguments = Vec::new();
    for key in ["inputSchema", "input_schema", "parameters"] {
        if let Some(schema) = def.get(key) {
            match schema.get("properties") {
                Some(Value::Object(props)) => arguments.extend(props.keys().cloned()),
                Some(other) => {
                    return Err(format!(
                        "{at}/{key}/properties: expected an object of arguments, found {}",
                        crate::json_type(other)
                    ));
                }
                None => {}
            }
        }
    }
    Ok(ToolDef {
        name,
        description,
        arguments,
    })
}

/// Whether a glob of the flow rule's default sink tools names the tool.
fn default_sink_glob(name: &str) -> bool {
    use std::sync::LazyLock;
    static SET: LazyLock<Option<globset::GlobSet>> = LazyLock::new(|| {
        let mut b = globset::GlobSetBuilder::new();
        for g in crate::policy::kinds::flow::SINK_TOOLS {
            b.add(
                globset::GlobBuilder::new(g)
                    .case_insensitive(true)
                    .build()
                    .ok()?,
            );
        }
        b.build().ok()
    });
    SET.as_ref().is_some_and(|s| s.is_match(name))
}

/// Verbs of a name (or a description's first verb), with the category
/// they give.
const VERBS: &[(Category, &[&str])] = &[
    (
        Category::Delete,
        &[
            "delete",
            "remove",
            "rm",
            "destroy",
            "drop",
            "purge",
            "erase",
            "unlink",
            "trash",
            "wipe",
            "truncate",
            "uninstall",
            "deletes",
            "removes",
            "destroys",
            "erases",
            "purges",
        ],
    ),
    (
        Category::Execute,
        &[
            "run",
            "exec",
            "execute",
            "eval",
            "evaluate",
            "shell",
            "bash",
            "sh",
            "terminal",
            "spawn",
            "launch",
            "script",
            "python",
            "node",
            "runs",
            "executes",
            "evaluates",
            "launches",
            "invoke",
            "invokes",
        ],
    ),
    (
        Category::Book,
        &[
            "book",
            "reserve",
            "rsvp",
            "books",
            "reserves",
            "booking",
            "reservation",
        ],
    ),
    (
        Category::Pay,
        &[
            "checkout",
            "order",
            "charge",
            "pays",
            "transfers",
            "purchases",
            "buys",
            "wires",
            "refunds",
        ],
    ),
    (
        Category::Send,
        &[
            "sends",
            "forwards",
            "posts",
            "publishes",
            "shares",
            "uploads",
            "emails",
            "notifies",
            "replies",
            "push",
            "pushes",
            "tweet",
            "tweets",
        ],
    ),
    (Category::Invite, &["invites", "grants"]),
    (
        Category::Fetch,
        &[
            "fetches",
            "downloads",
            "browses",
            "navigates",
            "visits",
            "scrape",
            "scrapes",
            "crawl",
            "crawls",
        ],
    ),
    (
        Category::Create,
        &[
            "create",
            "add",
            "new",
            "insert",
            "make",
            "mkdir",
            "init",
            "register",
            "generate",
            "draft",
            "compose",
            "creates",
            "adds",
            "inserts",
            "makes",
            "registers",
            "generates",
            "drafts",
        ],
    ),
    (
        Category::Modify,
        &[
            "update",
            "edit",
            "write",
            "set",
            "modify",
            "patch",
            "rename",
            "move",
            "mv",
            "change",
            "replace",
            "append",
            "put",
            "save",
            "apply",
            "commit",
            "merge",
            "archive",
            "label",
            "assign",
            "close",
            "reopen",
            "enable",
            "disable",
            "configure",
            "upsert",
            "updates",
            "edits",
            "writes",
            "sets",
            "modifies",
            "renames",
            "moves",
            "changes",
            "replaces",
            "appends",
            "saves",
            "applies",
            "commits",
            "merges",
            "archives",
            "closes",
            "overwrites",
            "overwrite",
        ],
    ),
    (
        Category::Read,
        &[
            "reads",
            "returns",
            "lists",
            "searches",
            "gets",
            "retrieves",
            "shows",
            "finds",
            "looks",
            "queries",
            "describes",
            "counts",
            "checks",
            "inspects",
            "views",
            "previews",
            "validates",
            "verifies",
            "explains",
            "summarizes",
            "summarises",
            "computes",
            "calculates",
            "calculate",
            "compute",
            "convert",
            "converts",
            "translate",
            "translates",
            "tree",
            "info",
            "stat",
            "diff",
            "ls",
            "glob",
        ],
    ),
];

/// Objects that make a creating or modifying verb another category.
const OBJECT_CATEGORIES: &[(Category, &[&str])] = &[
    (
        Category::Pay,
        &[
            "payment",
            "payments",
            "transfer",
            "transaction",
            "payout",
            "refund",
            "charge",
        ],
    ),
    (
        Category::Invite,
        &[
            "invite",
            "invitation",
            "collaborator",
            "collaborators",
            "member",
            "members",
            "permission",
            "permissions",
            "share",
            "sharing",
        ],
    ),
    (
        Category::Send,
        &[
            "message",
            "email",
            "mail",
            "post",
            "comment",
            "reply",
            "tweet",
            "sms",
            "notification",
            "webhook",
        ],
    ),
    (
        Category::Book,
        &[
            "booking",
            "reservation",
            "appointment",
            "flight",
            "hotel",
            "ticket",
            "tickets",
        ],
    ),
];

/// Argument names that give a category, each with what it says.
const ARGUMENTS: &[(Category, &[&str], &str)] = &[
    (
        Category::Pay,
        &[
            "amount",
            "amount_cents",
            "currency",
            "iban",
            "account_number",
            "routing_number",
            "card_number",
            "bic",
            "swift",
            "payee",
        ],
        "names an amount or an account",
    ),
    (
        Category::Invite,
        &[
            "attendees",
            "attendee",
            "invitees",
            "invitee",
            "participants",
            "collaborator",
            "collaborators",
            "members",
            "grantee",
            "role",
        ],
        "names who is given access",
    ),
    (
        Category::Send,
        &[
            "to",
            "recipient",
            "recipients",
            "cc",
            "bcc",
            "email",
            "emails",
            "phone",
            "phone_number",
            "channel",
            "chat_id",
            "webhook",
            "webhook_url",
            "address",
        ],
        "names who receives",
    ),
    (
        Category::Fetch,
        &["url", "uri", "link", "href", "endpoint"],
        "names an address on the network",
    ),
    (
        Category::Execute,
        &[
            "command", "cmd", "script", "code", "shell", "program", "args", "argv",
        ],
        "holds a command or code to run",
    ),
    (
        Category::Book,
        &[
            "check_in",
            "checkin",
            "check_out",
            "checkout",
            "party_size",
            "guests",
            "seats",
            "flight",
            "flight_number",
            "hotel",
            "room",
        ],
        "names a booking",
    ),
];

/// What a tool does, and why (see the module's documentation).
pub fn classify(tool: &ToolDef) -> Suggestion {
    let name = &tool.name;
    let by_name = of_tool(name);
    let sink_by_name = by_name.is_some_and(Effect::is_sink) || default_sink_glob(name);
    let done = |category: Category, why: String| Suggestion {
        name: name.clone(),
        category: Some(category),
        why,
        sink_by_name,
    };
    if let Some(effect) = by_name
        && effect.is_sink()
    {
        let category = match effect {
            Effect::Pay => Category::Pay,
            Effect::Invite => Category::Invite,
            Effect::Fetch => Category::Fetch,
            _ => Category::Send,
        };
        return done(category, format!("its name says it {}s", verb_of(category)));
    }
    let words = name_words(own_part(name));
    let mut from_name: Option<(Category, String)> = None;
    'verbs: for (category, verbs) in VERBS {
        if *category == Category::Read {
            continue;
        }
        for w in &words {
            if verbs.contains(&w.as_str()) {
                let mut category = *category;
                if matches!(category, Category::Create | Category::Modify) {
                    for (object_category, objects) in OBJECT_CATEGORIES {
                        if let Some(object) = words.iter().find(|o| objects.contains(&o.as_str())) {
                            category = *object_category;
                            from_name =
                                Some((category, format!("its name's verb `{w}` on `{object}`")));
                            break 'verbs;
                        }
                    }
                }
                from_name = Some((category, format!("its name's verb `{w}`")));
                break 'verbs;
            }
        }
    }
    // Arguments make a tool that creates, changes or only seems to read
    // (or says nothing) one that acts outside.
    let weak = match &from_name {
        None => true,
        Some((c, _)) => matches!(c, Category::Create | Category::Modify),
    };
    if weak {
        for (category, names, says) in ARGUMENTS {
            if let Some(arg) = tool
                .arguments
                .iter()
                .find(|a| names.contains(&a.to_lowercase().as_str()))
            {
                // A path or a URL to read is not a fetch for a reader by name.
                if *category == Category::Fetch && by_name == Some(Effect::Read) {
                    continue;
                }
                if by_name == Some(Effect::Read) && from_name.is_none() {
                    continue;
                }
                let before = from_name
                    .as_ref()
                    .map(|(c, w)| format!("{w} ({}), and ", c.name()))
                    .unwrap_or_default();
                return done(*category, format!("{before}its argument `{arg}` {says}"));
            }
        }
    }
    if let Some((category, why)) = from_name {
        return done(category, why);
    }
    if by_name == Some(Effect::Read) {
        return done(Category::Read, "its name says it reads".to_owned());
    }
    if let Some(words) = name_only_reads(&words) {
        return done(Category::Read, words);
    }
    if let Some(desc) = &tool.description
        && let Some((category, verb)) = first_verb(desc)
    {
        return done(category, format!("its description's verb `{verb}`"));
    }
    Suggestion {
        name: name.clone(),
        category: None,
        why: "neither its name, its arguments nor its description says what it does".to_owned(),
        sink_by_name,
    }
}

/// A name made of reading words (`directory_tree`, `get_file_info`).
fn name_only_reads(words: &[String]) -> Option<String> {
    let read = VERBS.iter().find(|(c, _)| *c == Category::Read)?.1;
    words
        .iter()
        .find(|w| read.contains(&w.as_str()))
        .map(|w| format!("its name's word `{w}`"))
}

/// The first word of a description that is a verb of [`VERBS`] or of
/// the flow rule's, within its first sentence.
fn first_verb(description: &str) -> Option<(Category, String)> {
    for word in crate::flow::effects::leading_words(description) {
        let w = word.to_lowercase();
        for (category, verbs) in VERBS {
            if verbs.contains(&w.as_str()) {
                return Some((*category, word.to_owned()));
            }
        }
        let stem = w.strip_suffix('s').unwrap_or(&w);
        if let Some(effect) = of_tool(stem)
            && effect.is_sink()
        {
            let category = match effect {
                Effect::Pay => Category::Pay,
                Effect::Invite => Category::Invite,
                Effect::Fetch => Category::Fetch,
                _ => Category::Send,
            };
            return Some((category, word.to_owned()));
        }
    }
    None
}

fn verb_of(category: Category) -> &'static str {
    match category {
        Category::Pay => "pay",
        Category::Invite => "invite",
        Category::Fetch => "fetche",
        _ => "send",
    }
}

/// An MCP tool's own name: what follows `mcp__<server>__`.
fn own_part(name: &str) -> &str {
    name.strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
        .map_or(name, |(_, tool)| tool)
}

/// A name as a YAML plain scalar when it can be one, else quoted; glob
/// characters are escaped, so the entry matches the name alone.
fn glob_entry(name: &str) -> String {
    let mut glob = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\' | '!') {
            glob.push('[');
            glob.push(c);
            glob.push(']');
        } else {
            glob.push(c);
        }
    }
    let plain = glob
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
        && glob.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    if plain {
        glob
    } else {
        serde_json::Value::String(glob).to_string()
    }
}

/// The policy fragment for `tools`, read from `source`: every tool's
/// category and why in a comment, and a flow check that makes sinks of
/// the tools that act outside (send, pay, invite, fetch, book) or whose
/// effect could not be told, unless the default policy's flow rule
/// already does by their names.
pub fn fragment(source: &str, tools: &[Suggestion]) -> String {
    let mut out = String::new();
    let sinks: Vec<&Suggestion> = tools
        .iter()
        .filter(|t| !t.sink_by_name && t.category.is_none_or(Category::is_sink))
        .collect();
    let _ = writeln!(
        out,
        "# What the {} tools of {source} do, as the flow rule's effect categories.",
        tools.len()
    );
    out.push_str("# Review before use: each line says what the category was read from.\n#\n");
    let width = tools
        .iter()
        .map(|t| t.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    for t in tools {
        let category = t.category.map_or("unknown", Category::name);
        let _ = writeln!(out, "#   {category:<8} {:<width$}  {}", t.name, t.why);
    }
    out.push_str("#\n");
    out.push_str("# Tools that send, pay, invite, fetch or book carry values out of the\n");
    out.push_str("# user's hands: the default policy's `untrusted-values` rule judges those\n");
    out.push_str("# whose names say so. The check below adds the others, and the tools\n");
    out.push_str("# whose effect could not be told (a sink until you decide).\n");
    out.push_str("extends: default\n");
    if sinks.is_empty() {
        out.push_str("# Every sink of this list is one by its name: nothing to add.\n");
        return out;
    }
    out.push_str("checks:\n");
    out.push_str("  - id: untrusted-values-suggested\n");
    out.push_str("    name: Values only a tool output supplied (suggested sinks)\n");
    out.push_str("    stage: tool_use\n");
    out.push_str("    type: flow\n");
    out.push_str("    tools:\n");
    for t in sinks {
        let category = t.category.map_or("unknown", Category::name);
        let _ = writeln!(out, "      # {category}: {}", t.why);
        let _ = writeln!(out, "      - {}", glob_entry(&t.name));
    }
    out.push_str("    on_fail: ask\n");
    out.push_str("    severity: high\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, args: &[&str], description: Option<&str>) -> ToolDef {
        ToolDef {
            name: name.to_owned(),
            description: description.map(str::to_owned),
            arguments: args.iter().map(|a| (*a).to_owned()).collect(),
        }
    }

    fn category(name: &str, args: &[&str], description: Option<&str>) -> Option<Category> {
        classify(&def(name, args, description)).category
    }

    #[test]
    fn names_arguments_and_descriptions_give_categories() {
        use Category::*;
        for (name, args, description, want) in [
            ("mcp__gmail__send_email", &[][..], None, Some(Send)),
            ("wire_funds", &[], None, Some(Pay)),
            ("browser_navigate", &[], None, Some(Fetch)),
            ("add_collaborator", &[], None, Some(Invite)),
            ("read_file", &["path"], None, Some(Read)),
            ("write_file", &["path", "content"], None, Some(Modify)),
            ("edit_file", &["path", "edits"], None, Some(Modify)),
            ("create_directory", &["path"], None, Some(Create)),
            ("delete_file", &["path"], None, Some(Delete)),
            ("run_command", &["command"], None, Some(Execute)),
            ("bash", &["command"], None, Some(Execute)),
            ("book_flight", &["from", "to"], None, Some(Book)),
            (
                "create_invoice",
                &["customer_id", "recipient"],
                None,
                Some(Send),
            ),
            ("create_payment", &["amount"], None, Some(Pay)),
            ("create_event", &["title", "attendees"], None, Some(Invite)),
            ("create_draft", &["subject", "body"], None, Some(Create)),
            ("directory_tree", &["path"], None, Some(Read)),
            (
                "frobnicate",
                &["x"],
                Some("Sends the frob to the given channel."),
                Some(Send),
            ),
            (
                "frobnicate",
                &["x"],
                Some("Deletes the frob."),
                Some(Delete),
            ),
            ("frobnicate", &["x"], Some("Frobs."), None),
            ("list_files", &["url"], None, Some(Read)),
        ] {
            assert_eq!(
                category(name, args, description),
                want,
                "{name} {args:?} {description:?}"
            );
        }
    }

    #[test]
    fn lists_are_read_in_every_form() {
        let mcp = r#"{"tools": [{"name": "read_file", "description": "Read a file.", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}]}"#;
        let t = read_tools(mcp).unwrap();
        assert_eq!(t[0].arguments, ["path"]);
        let rpc = format!(r#"{{"jsonrpc": "2.0", "id": 2, "result": {mcp}}}"#);
        assert_eq!(read_tools(&rpc).unwrap(), t);
        let openai = r#"[{"type": "function", "function": {"name": "read_file", "description": "Read a file.", "parameters": {"type": "object", "properties": {"path": {}}}}}]"#;
        assert_eq!(read_tools(openai).unwrap(), t);
        let names = read_tools("# tools\nsend_email\n\nread_file\n").unwrap();
        assert_eq!(names.len(), 2);
    }

    #[test]
    fn bad_lists_say_what_is_wrong() {
        for (text, want) in [
            ("", "the file is empty"),
            (
                "{\"tools\": 3}",
                "/tools: expected an array of tools, found a number",
            ),
            ("{\"tools\": []}", "/tools: the list of tools is empty"),
            ("[{\"description\": \"x\"}]", "/0: the tool has no `name`"),
            (
                "[{\"type\": \"function\", \"function\": {\"name\": 7}}]",
                "/0/function/name: expected a string, found a number",
            ),
            ("{\"tools\": [", "not valid JSON"),
            (
                "{\"jsonrpc\": \"2.0\", \"error\": {\"code\": -32601}}",
                "JSON-RPC error response",
            ),
            ("{\"foo\": 1}", "an object without `tools`"),
            ("send email\n", "line 1: `send email` is not a tool name"),
            (
                "{\"tools\": [{\"name\": \"a\", \"name\": \"b\"}]}",
                "not valid JSON",
            ),
        ] {
            let e = read_tools(text).unwrap_err();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn the_fragment_loads_and_lists_only_what_the_default_does_not_see() {
        let mut tools: Vec<Suggestion> =
            read_tools(r#"["send_email", "create_invoice", "read_file", "frobnicate"]"#)
                .unwrap()
                .iter()
                .map(classify)
                .collect();
        // Names are read as written; one with glob characters is escaped.
        tools.push(classify(&def("weird*name", &[], None)));
        let yaml = fragment("tools.json", &tools);
        assert!(!yaml.contains("      - send_email"), "{yaml}");
        assert!(yaml.contains("      - frobnicate"), "{yaml}");
        assert!(yaml.contains("      - \"weird[*]name\""), "{yaml}");
        let policy = crate::Policy::from_yaml_str(&yaml).unwrap();
        assert!(
            policy
                .checks()
                .iter()
                .any(|c| c.id == "untrusted-values-suggested")
        );
    }
}
