//! `recipients`: who a sending tool sends to (SPEC §16). The recipient,
//! address and account arguments of a sink call (the flow rule's sink
//! tools and key arguments) are read for e-mail addresses and account
//! numbers, in every spelling the flow rule reads (`Name <address>`,
//! lists, comma- or semicolon-separated strings, nested objects with an
//! `email`, any case, percent escapes, look-alike letters, invisible
//! characters); one that `deny` matches, or that no `allow` entry matches
//! when `allow` has entries of its kind, is a hit.
//!
//! An address is allowed only as written, in plain ASCII: one spelt with
//! look-alike letters (`bob@ехample.com`, with a Cyrillic `х`) or
//! full-width forms is compared folded with `deny`, and never passes
//! `allow`, since the mail system may not read it as the address it
//! resembles.

use std::sync::{Arc, LazyLock};

use globset::{GlobBuilder, GlobMatcher};
use palisade_protocol::Stage;
use regex_automata::meta::Regex;
use serde_json::{Map, Value};

use super::flow::{SINK_TOOLS, glob_set};
use super::{Context, Field, Form, Found, Runs, Spec, Whole, described_entries};
use crate::flow::spellings;
use crate::flow::values::{compact, folded, percent_decoded};
use crate::policy::read::{Reader, child, index};
use crate::policy::{CheckKind, OnFail};
use crate::tools::globs::LazyGlobSet;

/// The `recipients` check type.
pub(super) const SPEC: Spec = Spec {
    name: "recipients",
    fields: FIELDS,
    stages: &[Stage::Action, Stage::ToolUse],
    runs: Runs::Engine,
    entry_field: None,
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "this call sends to a recipient the policy does not allow",
    read,
    default_entries: Vec::new,
};

/// The arguments that name who receives, when a check names none.
pub(crate) const RECIPIENT_ARGUMENTS: &[&str] = &[
    "to",
    "recipient*",
    "cc",
    "bcc",
    "email*",
    "*_email*",
    "*address*",
    "participant*",
    "attendee*",
    "invitee*",
    "member*",
    "user*",
    "iban",
    "account*",
    "*_account",
    "phone*",
];

/// Of those, the arguments whose whole value is an account.
const ACCOUNT_ARGUMENTS: &[&str] = &["iban", "account", "account_*", "*_account", "phone*"];

/// One entry of `allow` or `deny`: an address glob (it has an `@`) or an
/// account pattern.
#[derive(Debug)]
struct Entry {
    text: String,
    glob: GlobMatcher,
    address: bool,
}

#[derive(Debug)]
struct Recipients {
    allow: Vec<Entry>,
    deny: Vec<Entry>,
    sinks: LazyGlobSet,
    arguments: LazyGlobSet,
    accounts: LazyGlobSet,
}

/// A recipient found in an argument.
#[derive(Debug)]
struct Recipient {
    pointer: String,
    /// Compact (lower case).
    value: String,
    address: bool,
    /// Written in plain ASCII (or percent-escaped ASCII): it may pass `allow`.
    plain: bool,
}

impl Whole for Recipients {
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found> {
        let mut found = Vec::new();
        match cx.stage {
            Stage::ToolUse => {
                let tool = cx.request.tool.as_ref()?;
                if !self.sinks.is_match_or(&tool.name, true) {
                    return None;
                }
                self.collect(
                    tool.arguments.as_ref()?,
                    "/tool/arguments",
                    None,
                    &mut found,
                    0,
                );
            }
            Stage::Action => {
                let action = cx.request.action.as_ref()?;
                if let Some(uri) = action.resource.as_ref().and_then(|r| r.uri.as_ref()) {
                    read_string(uri, "/action/resource/uri", false, &mut found);
                }
                for (i, t) in action.targets.iter().flatten().enumerate() {
                    read_string(
                        &t.uri,
                        &format!("/action/targets/{i}/uri"),
                        false,
                        &mut found,
                    );
                }
            }
            _ => return None,
        }
        found.iter().find_map(|r| self.judge(r))
    }

    fn build(&self) -> Result<(), String> {
        self.sinks.build().map_err(|e| format!("`tools`: {e}"))?;
        self.arguments
            .build()
            .map_err(|e| format!("`arguments`: {e}"))?;
        self.accounts.build()
    }
}

impl Recipients {
    /// Reads the recipients of the arguments: `name` is the recipient
    /// argument a value is under (`None` above any).
    fn collect(
        &self,
        v: &Value,
        pointer: &str,
        name: Option<&str>,
        out: &mut Vec<Recipient>,
        depth: usize,
    ) {
        if depth > 32 {
            return;
        }
        match v {
            Value::String(s) => {
                if let Some(name) = name {
                    let account = self.accounts.is_match_or(name, false);
                    read_string(s, pointer, account, out);
                }
            }
            Value::Number(n) => {
                if name.is_some_and(|n| self.accounts.is_match_or(n, false)) {
                    read_string(&n.to_string(), pointer, true, out);
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.collect(item, &format!("{pointer}/{i}"), name, out, depth + 1);
                }
            }
            Value::Object(members) => {
                for (key, item) in members {
                    // Compared folded: a look-alike letter in a name does
                    // not make it another name.
                    let folded_key = compact(key);
                    let inner = if self.arguments.is_match_or(&folded_key, true) {
                        Some(folded_key.as_str())
                    } else {
                        name
                    };
                    let escaped = key.replace('~', "~0").replace('/', "~1");
                    self.collect(item, &format!("{pointer}/{escaped}"), inner, out, depth + 1);
                }
            }
            Value::Bool(_) | Value::Null => {}
        }
    }

    fn judge(&self, r: &Recipient) -> Option<Found> {
        let what = if r.address { "address" } else { "account" };
        if let Some(e) = self
            .deny
            .iter()
            .find(|e| e.address == r.address && e.glob.is_match(&r.value))
        {
            return Some(hit(
                r,
                format!(
                    "`{}` is {what} `{}`, which `deny` lists (`{}`)",
                    last_name(&r.pointer),
                    r.value,
                    e.text
                ),
            ));
        }
        let allow: Vec<&Entry> = self
            .allow
            .iter()
            .filter(|e| e.address == r.address)
            .collect();
        if allow.is_empty() {
            return None;
        }
        if !r.plain {
            return Some(hit(
                r,
                format!(
                    "`{}` is {what} `{}` spelt with look-alike or full-width characters, which `allow` never lets through",
                    last_name(&r.pointer),
                    r.value
                ),
            ));
        }
        if allow.iter().any(|e| e.glob.is_match(&r.value)) {
            return None;
        }
        Some(hit(
            r,
            format!(
                "`{}` is {what} `{}`, which no entry of `allow` matches",
                last_name(&r.pointer),
                r.value
            ),
        ))
    }
}

fn hit(r: &Recipient, detail: String) -> Found {
    Found {
        pointer: r.pointer.clone(),
        detail: Some(detail),
        source: None,
        own_message: false,
    }
}

/// The last member name of a pointer, unescaped.
fn last_name(pointer: &str) -> String {
    pointer
        .rsplit('/')
        .find(|p| !p.is_empty() && !p.bytes().all(|b| b.is_ascii_digit()))
        .map_or_else(
            || "arguments".to_owned(),
            |p| p.replace("~1", "/").replace("~0", "~"),
        )
}

fn email() -> Option<&'static Regex> {
    static EMAIL: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"[A-Za-z0-9._%+\-']+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+").ok()
    });
    EMAIL.as_ref()
}

/// The addresses and accounts of one string of a recipient argument.
fn read_string(s: &str, pointer: &str, account: bool, out: &mut Vec<Recipient>) {
    let mut push = |value: String, address: bool, plain: bool| {
        if let Some(r) = out
            .iter_mut()
            .find(|r| r.pointer == pointer && r.value == value && r.address == address)
        {
            r.plain &= plain;
        } else {
            out.push(Recipient {
                pointer: pointer.to_owned(),
                value,
                address,
                plain,
            });
        }
    };
    // Plain spellings: as written, and percent-decoded (`bob%40evil.test`).
    let mut plain = vec![s.to_owned()];
    plain.extend(percent_decoded(s));
    // Other spellings: look-alike letters and full-width forms folded,
    // invisible characters read as spaces.
    let mut other = Vec::new();
    for p in &plain {
        if let Some(spaced) = spellings::spaced(p) {
            other.extend(folded(&spaced));
            other.push(spaced);
        }
        other.extend(folded(p));
    }
    let Some(re) = email() else {
        return;
    };
    let mut plain_found = Vec::new();
    for text in &plain {
        for m in re.find_iter(text) {
            let a = &text[m.range()];
            if a.is_ascii() {
                let a = a.to_ascii_lowercase();
                plain_found.push(a.clone());
                push(a, true, true);
            }
        }
    }
    for text in &other {
        for m in re.find_iter(text) {
            let a = compact(&text[m.range()]);
            let is_plain = plain_found.contains(&a);
            push(a, true, is_plain);
        }
    }
    // Accounts: IBANs anywhere, and the whole value of an account argument.
    let mut ibans = Vec::new();
    for text in plain.iter().chain(&other) {
        spellings::ibans(text, &mut ibans);
    }
    for iban in ibans {
        push(iban, false, true);
    }
    if account && plain_found.is_empty() {
        let whole: String = compact(s)
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | '.' | '(' | ')'))
            .collect();
        if !whole.is_empty() {
            push(whole, false, s.is_ascii());
        }
    }
}

fn entries(r: &mut Reader, obj: &Map<String, Value>, ptr: &str, key: &str) -> Vec<Entry> {
    let texts = r.optional_entries(obj, ptr, key);
    let mut out = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let address = text.contains('@');
        let pattern = if address {
            text.to_ascii_lowercase()
        } else {
            text.chars()
                .filter(|c| !matches!(c, ' ' | '-' | '.' | '(' | ')'))
                .collect::<String>()
                .to_lowercase()
        };
        if address && !text.is_ascii() {
            r.err(
                index(&child(ptr, key), i),
                format!("`{text}` is not plain ASCII; write the address as mail systems read it"),
            );
            continue;
        }
        match GlobBuilder::new(&pattern)
            .case_insensitive(true)
            .literal_separator(false)
            .build()
        {
            Ok(glob) => out.push(Entry {
                text: text.clone(),
                glob: glob.compile_matcher(),
                address,
            }),
            Err(e) => r.err(
                index(&child(ptr, key), i),
                format!("invalid glob: {}", e.kind()),
            ),
        }
    }
    out
}

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let before = r.errors.len();
    if !obj.contains_key("allow") && !obj.contains_key("deny") {
        r.err(
            ptr,
            "missing field `allow` or `deny` (address globs such as `*@example.com`, or account patterns)",
        );
        return None;
    }
    let allow_entries = entries(r, obj, ptr, "allow");
    let deny_entries = entries(r, obj, ptr, "deny");
    let tools = r.optional_entries(obj, ptr, "tools");
    let arguments = r.optional_entries(obj, ptr, "arguments");
    let sink_globs: Vec<String> = if tools.is_empty() {
        SINK_TOOLS.iter().map(|s| (*s).to_owned()).collect()
    } else {
        tools.clone()
    };
    let argument_globs: Vec<String> = if arguments.is_empty() {
        RECIPIENT_ARGUMENTS
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
    } else {
        arguments.iter().map(|a| a.to_ascii_lowercase()).collect()
    };
    let account_globs: Vec<String> = ACCOUNT_ARGUMENTS.iter().map(|s| (*s).to_owned()).collect();
    let sinks = glob_set(r, ptr, "tools", &sink_globs);
    let argument_set = glob_set(r, ptr, "arguments", &argument_globs);
    let accounts = glob_set(r, ptr, "arguments", &account_globs);
    if r.errors.len() > before {
        return None;
    }
    let compiled = Recipients {
        allow: allow_entries,
        deny: deny_entries,
        sinks: sinks?,
        arguments: argument_set?,
        accounts: accounts?,
    };
    let kind = CheckKind::Recipients {
        allow: compiled.allow.iter().map(|e| e.text.clone()).collect(),
        deny: compiled.deny.iter().map(|e| e.text.clone()).collect(),
        tools,
        arguments,
    };
    Some((kind, Form::Whole(Arc::new(compiled))))
}

/// The type's own fields.
const FIELDS: &[Field] = &[
    Field {
        name: "allow",
        required: false,
        schema: || {
            described_entries(
                "Who may receive: address globs (`*@example.com`, `ops@*.example.com`) and account patterns (`DE89*`). A recipient that no entry of its kind matches is a hit.",
            )
        },
    },
    Field {
        name: "deny",
        required: false,
        schema: || {
            described_entries(
                "Who may not receive: address globs and account patterns. A recipient that an entry matches is a hit.",
            )
        },
    },
    Field {
        name: "tools",
        required: false,
        schema: || {
            described_entries("Globs of the sending tools (default: the flow rule's sink tools).")
        },
    },
    Field {
        name: "arguments",
        required: false,
        schema: || {
            described_entries(
                "Globs of the argument names that hold recipients (default: `to`, `cc`, `bcc`, `recipient*`, `email*`, `*address*`, `account*`, …).",
            )
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(s: &str, account: bool) -> Vec<(String, bool, bool)> {
        let mut out = Vec::new();
        read_string(s, "/x", account, &mut out);
        out.into_iter()
            .map(|r| (r.value, r.address, r.plain))
            .collect()
    }

    #[test]
    fn spellings_of_addresses() {
        assert_eq!(
            read_all(
                "Eve Smith <EVE@Evil.Test>; bob@example.com, ann@example.com",
                false
            ),
            [
                ("eve@evil.test".into(), true, true),
                ("bob@example.com".into(), true, true),
                ("ann@example.com".into(), true, true),
            ]
        );
        assert_eq!(
            read_all("eve%40evil.test", false),
            [("eve@evil.test".into(), true, true)]
        );
        // A Cyrillic `х` in the domain: found folded, not plain.
        assert_eq!(
            read_all("bob@e\u{445}ample.com", false),
            [("bob@example.com".into(), true, false)]
        );
        assert_eq!(
            read_all("DE89 3704 0044 0532 0130 00", true),
            [("de89370400440532013000".into(), false, true)]
        );
        assert_eq!(
            read_all("+1 (555) 010-0199", true),
            [("+15550100199".into(), false, true)]
        );
    }
}
