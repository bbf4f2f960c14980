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
}

impl Effect {
    /// Whether a value the call carries leaves the user's hands: a sink of
    /// a `flow` rule.
    pub(crate) fn is_sink(self) -> bool {
        !matches!(self, Effect::Read)
    }
}

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
}
