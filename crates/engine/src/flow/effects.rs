//! What a tool does to the world, read from the words of its name: the
//! names agents really use (`mcp__gmail__send_email`, `sendEmail`,
//! `slack_post_message`, `wire_funds`, `browser_navigate`) rather than a
//! list of globs matched whole.
//!
//! A name is split into words (at `_`, `-`, `.`, case changes and digits;
//! an MCP tool's `mcp__<server>__` prefix is left out, so that a server
//! called `send` does not make its `list_files` a sender). A verb that
//! sends, pays, invites or fetches decides wherever it stands
//! (`list_and_send_files` sends); else a reading verb (`get`, `list`,
//! `search`, …) makes the tool a reader, unless its object is a web page or
//! a link (`get_webpage`, `read_url`: a fetch), and words that are as often
//! nouns (`email`, `post`) send only without one (`email_lookup` reads). A few objects name
//! the effect without a verb of their own (`set_forwarding_address`,
//! `add_collaborator`, `create_webhook`).

use crate::tools::arguments::name_words;

/// What a tool does, as far as its name says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Effect {
    /// Reads and changes nothing outside.
    Read,
    /// Sends, shares, posts or uploads something to someone.
    Send,
    /// Moves money.
    Pay,
    /// Gives someone access.
    Invite,
    /// Reaches an address on the network (a fetch leaks what its URL
    /// carries).
    Fetch,
    /// Makes something new (a file, an event, an issue, a note).
    Create,
    /// Changes something that exists (a setting, a record, a file).
    Modify,
    /// Deletes, cancels or revokes something.
    Delete,
    /// Books or orders something (a room, a car, a table, goods).
    Book,
    /// Runs something (a job, a workflow, a deployment).
    Execute,
}

impl Effect {
    /// Every effect, in the order of their names.
    pub(crate) const ALL: [Effect; 10] = [
        Effect::Read,
        Effect::Send,
        Effect::Pay,
        Effect::Create,
        Effect::Modify,
        Effect::Delete,
        Effect::Book,
        Effect::Invite,
        Effect::Fetch,
        Effect::Execute,
    ];

    /// Whether a value the call carries leaves the user's hands: a sink of
    /// a `flow` rule.
    pub(crate) fn is_sink(self) -> bool {
        matches!(
            self,
            Effect::Send | Effect::Pay | Effect::Invite | Effect::Fetch
        )
    }

    /// Its name in a policy (`send`, `pay`, …).
    pub(crate) fn name(self) -> &'static str {
        match self {
            Effect::Read => "read",
            Effect::Send => "send",
            Effect::Pay => "pay",
            Effect::Invite => "invite",
            Effect::Fetch => "fetch",
            Effect::Create => "create",
            Effect::Modify => "modify",
            Effect::Delete => "delete",
            Effect::Book => "book",
            Effect::Execute => "execute",
        }
    }

    /// The effect a policy's name names.
    pub(crate) fn named(name: &str) -> Option<Effect> {
        Effect::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Its bit in a set of effects ([`Effects`]).
    pub(crate) fn bit(self) -> u16 {
        1 << (self as u16)
    }

    /// What the finding says the call does: `sends`, `deletes`, ….
    pub(crate) fn verb(self) -> &'static str {
        match self {
            Effect::Read => "reads",
            Effect::Send => "sends",
            Effect::Pay => "pays",
            Effect::Invite => "gives access",
            Effect::Fetch => "fetches",
            Effect::Create => "creates",
            Effect::Modify => "modifies",
            Effect::Delete => "deletes",
            Effect::Book => "books",
            Effect::Execute => "runs",
        }
    }
}

/// A set of effects, one bit each ([`Effect::bit`]).
pub(crate) type Effects = u16;

/// Verbs that send, share or publish.
const SEND: &[&str] = &[
    "send",
    "forward",
    "reply",
    "respond",
    "publish",
    "share",
    "upload",
    "notify",
    "broadcast",
];
/// Words that send when they stand as the verb, but are as often nouns
/// (`email_lookup`, `post_count`): they send only in a name without a
/// reading verb.
const SEND_NOUNS: &[&str] = &["email", "mail", "post", "tweet", "dm", "sms", "message"];
/// Objects that make a sending verb a payment (`send_money`).
const MONEY: &[&str] = &["money", "funds", "payment", "payments", "cash"];
/// Verbs that move money.
const PAY: &[&str] = &[
    "pay", "transfer", "wire", "remit", "refund", "withdraw", "purchase", "buy", "tip", "donate",
];
/// Verbs that give someone access.
const INVITE: &[&str] = &["invite", "grant"];
/// Verbs that reach an address on the network.
const FETCH: &[&str] = &[
    "fetch", "browse", "navigate", "visit", "download", "curl", "wget", "goto",
];
/// Verbs that read.
const READ: &[&str] = &[
    "get",
    "list",
    "read",
    "search",
    "find",
    "query",
    "lookup",
    "look",
    "describe",
    "show",
    "view",
    "count",
    "check",
    "inspect",
    "retrieve",
    "summarize",
    "summarise",
    "print",
    "cat",
    "head",
    "tail",
    "grep",
    "stat",
    "preview",
    "validate",
    "verify",
    "explain",
];
/// Objects of `add`, `open`, `set` and the like that make the call one of
/// these effects.
const ACCESS_OBJECTS: &[&str] = &[
    "collaborator",
    "collaborators",
    "member",
    "members",
    "participant",
    "participants",
    "attendee",
    "attendees",
    "guest",
    "guests",
    "admin",
    "owner",
    "user",
    "users",
    "permission",
    "permissions",
];
/// Objects that make a call a fetch (`open_url`, `get_webpage`).
const WEB_OBJECTS: &[&str] = &["url", "link", "webpage", "website", "page", "browser"];
/// Objects that make a call a send (`set_forwarding_address`).
const SEND_OBJECTS: &[&str] = &["forwarding", "webhook", "webhooks"];

/// The effect a tool's name says it has; `None` when no word says.
pub(crate) fn of_tool(name: &str) -> Option<Effect> {
    let own = mcp_tool_part(name);
    let words = name_words(own);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    // A verb that acts wins wherever it stands: a reading verb first
    // (`list_and_send_files`, `check_then_pay`) does not make the call a
    // reader.
    for (i, word) in words.iter().enumerate() {
        let w = word.as_str();
        let rest = words.get(i + 1..).unwrap_or_default();
        let rest_has = |list: &[&str]| rest.iter().any(|r| list.contains(&r.as_str()));
        if SEND.contains(&w) {
            return Some(if rest_has(MONEY) {
                Effect::Pay
            } else {
                Effect::Send
            });
        }
        if PAY.contains(&w) {
            return Some(Effect::Pay);
        }
        if INVITE.contains(&w) {
            return Some(Effect::Invite);
        }
        if FETCH.contains(&w) || (w == "open" && rest_has(WEB_OBJECTS)) {
            return Some(Effect::Fetch);
        }
    }
    for (i, word) in words.iter().enumerate() {
        let w = word.as_str();
        let rest = words.get(i + 1..).unwrap_or_default();
        let rest_has = |list: &[&str]| rest.iter().any(|r| list.contains(&r.as_str()));
        if READ.contains(&w) {
            return Some(if rest_has(WEB_OBJECTS) {
                Effect::Fetch
            } else {
                Effect::Read
            });
        }
        if SEND_NOUNS.contains(&w) && !has(READ) {
            return Some(if rest_has(MONEY) {
                Effect::Pay
            } else {
                Effect::Send
            });
        }
    }
    if has(SEND_OBJECTS) {
        return Some(Effect::Send);
    }
    if words
        .first()
        .is_some_and(|w| ["add", "set", "update"].contains(&w.as_str()))
        && has(ACCESS_OBJECTS)
    {
        return Some(Effect::Invite);
    }
    None
}

/// Verbs that make something new.
const CREATE: &[&str] = &[
    "create",
    "add",
    "new",
    "make",
    "insert",
    "draft",
    "write",
    "log",
    "file",
    "comment",
    "open",
    "schedule",
    "plan",
    "note",
    "save",
    "copy",
    "duplicate",
    "generate",
    "register",
    "submit",
];
/// Verbs that change what exists.
const MODIFY: &[&str] = &[
    "update",
    "edit",
    "modify",
    "change",
    "set",
    "rename",
    "move",
    "patch",
    "reschedule",
    "close",
    "reopen",
    "assign",
    "unassign",
    "label",
    "tag",
    "merge",
    "mark",
    "enable",
    "disable",
    "toggle",
    "configure",
    "replace",
    "restore",
    "append",
    "put",
    "upsert",
    "approve",
    "reject",
    "escalate",
    "resolve",
    "transition",
    "lock",
    "unlock",
    "archive",
    "star",
    "pin",
    "reset",
    "rotate",
];
/// Verbs that delete, cancel or revoke.
const DELETE: &[&str] = &[
    "delete",
    "remove",
    "erase",
    "drop",
    "purge",
    "destroy",
    "trash",
    "unlink",
    "rm",
    "cancel",
    "revoke",
    "kick",
    "uninvite",
    "clear",
    "wipe",
    "unsubscribe",
    "del",
    "deactivate",
    "ban",
];
/// Verbs that book or order.
const BOOK: &[&str] = &[
    "book",
    "reserve",
    "order",
    "rent",
    "hire",
    "checkout",
    "booking",
    "reservation",
];
/// Verbs that run something.
const EXECUTE: &[&str] = &[
    "run", "exec", "execute", "deploy", "trigger", "restart", "rerun", "build", "launch",
    "dispatch", "start", "stop", "kill", "install", "release", "rollback", "retry", "invoke",
];
/// Objects that make a scheduling or changing verb a payment
/// (`schedule_transaction`).
const MONEY_OBJECTS: &[&str] = &[
    "money",
    "funds",
    "payment",
    "payments",
    "transaction",
    "transactions",
    "transfer",
    "refund",
    "invoice",
    "payout",
];

/// Objects that make a call of `update_user…` a change of the user's own
/// record.
const OWN_RECORD: &[&str] = &[
    "info",
    "information",
    "profile",
    "details",
    "settings",
    "address",
    "password",
    "name",
    "phone",
    "preferences",
];
/// Objects that make `add` a change (`add_label`).
const MARKS: &[&str] = &["label", "labels", "tag", "tags", "reaction", "star"];

/// The effect of a call of a tool: what its name says ([`of_tool`]), else
/// the verbs of its name that create, modify, delete, book or run, else
/// what its arguments' names say (a `recipients` member sends, an `iban`
/// pays, a `url` fetches); `None` when nothing says.
pub(crate) fn category(name: &str, arguments: Option<&serde_json::Value>) -> Option<Effect> {
    let words = name_words(mcp_tool_part(name));
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    match of_tool(name) {
        // `update_user_info`, `set_user_password`: the user's own record,
        // not someone given access.
        Some(Effect::Invite) if has(OWN_RECORD) => return Some(Effect::Modify),
        Some(e) => return Some(e),
        None => {}
    }
    // `add_label`, `add_tag`: a change to what exists.
    if words.first().is_some_and(|w| w == "add") && has(MARKS) {
        return Some(Effect::Modify);
    }
    for word in &words {
        let w = word.as_str();
        if DELETE.contains(&w) {
            return Some(Effect::Delete);
        }
        if BOOK.contains(&w) {
            return Some(Effect::Book);
        }
        if EXECUTE.contains(&w) {
            return Some(Effect::Execute);
        }
        if CREATE.contains(&w) || MODIFY.contains(&w) {
            if has(MONEY_OBJECTS) {
                return Some(Effect::Pay);
            }
            if has(ACCESS_OBJECTS) {
                return Some(Effect::Invite);
            }
            return Some(if CREATE.contains(&w) {
                Effect::Create
            } else {
                Effect::Modify
            });
        }
    }
    let members = arguments.and_then(serde_json::Value::as_object)?;
    let names: Vec<String> = members.keys().flat_map(|k| name_words(k)).collect();
    let named = |list: &[&str]| names.iter().any(|n| list.contains(&n.as_str()));
    if named(&["iban", "bic", "swift", "amount"]) {
        Some(Effect::Pay)
    } else if named(&["recipient", "recipients", "to", "cc", "bcc"]) {
        Some(Effect::Send)
    } else if named(&["url", "uri", "href"]) {
        Some(Effect::Fetch)
    } else {
        None
    }
}

/// A call's effect: by its tool's name and arguments ([`category`]), else
/// by the first verb of the tool's description when the caller gave one.
/// A description only names an effect the name and arguments leave open.
pub(crate) fn category_of(tool: &palisade_protocol::Tool) -> Option<Effect> {
    category(&tool.name, tool.arguments.as_ref())
        .or_else(|| tool.description.as_deref().and_then(described))
}

/// Whether a call is a sink by what its tool does: by its name, else (a
/// name that says nothing) by its description.
pub(crate) fn is_sink_tool(tool: &palisade_protocol::Tool) -> bool {
    match of_tool(&tool.name) {
        Some(e) => e.is_sink(),
        None => tool
            .description
            .as_deref()
            .and_then(described)
            .is_some_and(Effect::is_sink),
    }
}

/// The first twelve words of a description's first sentence: where what
/// a tool does is said.
pub(crate) fn leading_words(description: &str) -> impl Iterator<Item = &str> {
    let first = description.split(['.', '\n']).next().unwrap_or(description);
    first
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(12)
}

/// The effect the first word of a tool's description's first sentence
/// names that says one (`Sends …`, `Deletes …`, `Looks up …`), read as a
/// tool's name is; none in its first twelve words: none.
fn described(description: &str) -> Option<Effect> {
    for word in leading_words(description) {
        let w = word.to_lowercase();
        let stems = [Some(w.as_str()), w.strip_suffix("es"), w.strip_suffix('s')];
        for stem in stems.into_iter().flatten().filter(|s| s.len() > 1) {
            if let Some(e) = of_tool(stem).or_else(|| category(stem, None)) {
                return Some(e);
            }
        }
    }
    None
}

/// An MCP tool's own name: what follows `mcp__<server>__` (Claude Code's
/// spelling) or `mcp_<server>_`-less names as they are.
fn mcp_tool_part(name: &str) -> &str {
    name.strip_prefix("mcp__")
        .and_then(|rest| rest.split_once("__"))
        .map_or(name, |(_, tool)| tool)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_description_s_first_verb_says_what_a_tool_does() {
        for (description, effect) in [
            (
                "Sends the given text to an e-mail address.",
                Some(Effect::Send),
            ),
            (
                "Deletes the CRM record with the given reference.",
                Some(Effect::Delete),
            ),
            ("Books a table at a restaurant.", Some(Effect::Book)),
            (
                "Reads a text file. Never sends anything.",
                Some(Effect::Read),
            ),
            ("Formats the given text as a table.", None),
            ("A tool.\nSends e-mail.", None),
        ] {
            assert_eq!(described(description), effect, "{description}");
        }
    }

    #[test]
    fn names_agents_use_say_what_the_tool_does() {
        for (name, effect) in [
            ("mcp__gmail__send_email", Effect::Send),
            ("mcp__slack__slack_post_message", Effect::Send),
            ("gmail_send_message", Effect::Send),
            ("sendEmail", Effect::Send),
            ("upload_file", Effect::Send),
            ("set_forwarding_address", Effect::Send),
            ("create_webhook", Effect::Send),
            ("wire_funds", Effect::Pay),
            ("send_money", Effect::Pay),
            ("post_message", Effect::Send),
            ("add_collaborator", Effect::Invite),
            ("invite_user_to_slack", Effect::Invite),
            ("mcp__fetch__fetch", Effect::Fetch),
            ("mcp__playwright__browser_navigate", Effect::Fetch),
            ("get_webpage", Effect::Fetch),
            ("open_url", Effect::Fetch),
            ("list_files", Effect::Read),
            ("get_unread_emails", Effect::Read),
            ("search_emails", Effect::Read),
            ("mcp__send__list_files", Effect::Read),
            ("read_channel_messages", Effect::Read),
            ("getSentMessages", Effect::Read),
            ("list_and_send_files", Effect::Send),
            ("check_then_pay_invoice", Effect::Pay),
            ("searchAndForward", Effect::Send),
        ] {
            assert_eq!(of_tool(name), Some(effect), "{name}");
        }
        assert_eq!(of_tool("email_lookup"), Some(Effect::Read));
        assert_eq!(of_tool("get_post_count"), Some(Effect::Read));
        assert_eq!(of_tool("text_search"), Some(Effect::Read));
        for name in ["bash", "edit_file", "calculator", "mcp__notes__append"] {
            assert_eq!(of_tool(name), None, "{name}");
        }
    }

    #[test]
    fn calls_that_change_the_world_have_a_category() {
        let none = None;
        for (name, effect) in [
            ("delete_file", Effect::Delete),
            ("cancel_reservation", Effect::Delete),
            ("reserve_hotel", Effect::Book),
            ("bookFlight", Effect::Book),
            ("create_calendar_event", Effect::Create),
            ("create_issue", Effect::Create),
            ("update_password", Effect::Modify),
            ("reschedule_calendar_event", Effect::Modify),
            ("edit_file", Effect::Modify),
            ("mcp__notes__append", Effect::Modify),
            ("schedule_transaction", Effect::Pay),
            ("update_scheduled_transaction", Effect::Pay),
            ("issue_refund", Effect::Pay),
            ("trigger_workflow", Effect::Execute),
            ("merge_pull_request", Effect::Modify),
            ("update_user_info", Effect::Modify),
            ("add_label", Effect::Modify),
            ("add_user_to_channel", Effect::Invite),
            ("send_email", Effect::Send),
            ("list_files", Effect::Read),
        ] {
            assert_eq!(category(name, none), Some(effect), "{name}");
        }
        let args = serde_json::json!({"recipientIban": "x", "amount": 3});
        assert_eq!(category("transmit", Some(&args)), Some(Effect::Pay));
        let args = serde_json::json!({"to": "x"});
        assert_eq!(category("dispatcher_v2", Some(&args)), Some(Effect::Send));
        assert_eq!(
            category("calculator", Some(&serde_json::json!({"x": 1}))),
            None
        );
        for e in Effect::ALL {
            assert_eq!(Effect::named(e.name()), Some(e));
        }
    }
}
