//! `flow`: a session rule. A sink — a tool call or an action that acts
//! outside (sends, shares, pays, invites, fetches) — is judged by what came
//! earlier in the same session:
//!
//! - `provenance`: an argument carries a value that untrusted content (a
//!   tool's output) brought in and the user's own requests never named:
//!   the mark of instructions injected into what the agent read;
//! - `intent` (a setting of `provenance`): a call whose effect (send,
//!   delete, book, …) no request of the user asked for, made after a tool
//!   output brought untrusted text into the session;
//! - `taint`: sensitive content (what the `sensitive` checks found) entered
//!   the session before, and the sink carries it (`carry: false`: any sink
//!   after it).
//!
//! The session state, the values a request carries and the step it adds
//! are the `flow` module's (`crate::flow`).

use std::sync::Arc;

use globset::{Glob, GlobBuilder};

use crate::tools::globs::{LazyGlobSet, SetGlob};
use palisade_protocol::{Source, Stage};
use serde_json::{Map, Value, json};

use super::command::{report_commands, shell_lines, shell_tools};
use super::{Context, Field, Form, Found, Runs, Spec, Whole, described_entries};
use crate::flow::effects::{self, Effect, Effects};
use crate::flow::session::Session;
use crate::flow::step::Step;
use crate::flow::values::{compact, entities, folded, percent_decoded};
use crate::flow::{mime, spellings};
use crate::policy::read::{Reader, child, quoted, unknown_value};
use crate::policy::{CheckKind, OnFail};
use crate::shell::{CommandPatterns, parsed};
use crate::tools::ToolMatcher;

/// The `flow` check type.
pub(super) const SPEC: Spec = Spec {
    name: "flow",
    fields: FIELDS,
    stages: &[Stage::Action, Stage::ToolUse],
    runs: Runs::Engine,
    entry_field: None,
    can_redact: false,
    default_on_fail: OnFail::Ask,
    message: "this call acts on what untrusted or sensitive content brought into the session",
    read,
    default_entries: Vec::new,
};

/// The rules a flow check can apply.
const RULES: &[&str] = &["provenance", "taint"];
/// Where an untrusted value counts.
const FROM: &[&str] = &["text", "any"];
/// The effect categories an `intent` setting may name.
const INTENT: &[&str] = &[
    "send", "pay", "create", "modify", "delete", "book", "invite", "fetch", "execute",
];
/// The effects `instructions` judges when `intent` names none: every
/// one of [`INTENT`].
fn side_effects() -> Effects {
    INTENT
        .iter()
        .filter_map(|n| Effect::named(n))
        .fold(0, |acc, e| acc | e.bit())
}

/// Resource kinds an action sink may have.
const ACTION_KINDS: &[&str] = &["file", "process", "network", "custom"];

/// The sink tools when a check names none: tools that send, share, pay,
/// invite, publish or fetch.
pub(crate) const SINK_TOOLS: &[&str] = &[
    "send_*",
    "*_send",
    "forward_*",
    "reply_*",
    "share_*",
    "invite_*",
    "add_*participant*",
    "add_*member*",
    "add_user*",
    "post_*",
    "publish_*",
    "*_money",
    "pay_*",
    "*payment*",
    "*transfer*",
    "*transaction*",
    "update_password",
    "change_password",
    "reset_password",
    "get_webpage",
    "fetch*",
    "web_fetch",
    "webfetch",
    "http_*",
    "open_url",
    "browse*",
    "navigate*",
    "*webhook*",
    "create_calendar_event",
];

/// The argument names whose whole value is compared when a check names
/// none: who receives, where to, which account, which secret.
pub(crate) const KEY_ARGUMENTS: &[&str] = &[
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
    "url",
    "*_url",
    "uri",
    "link",
    "href",
    "endpoint",
    "host*",
    "domain*",
    "iban",
    "account*",
    "*_account",
    "bic",
    "swift",
    "routing*",
    "password",
    "new_password",
    "*_password",
    "passphrase",
    "phone*",
    "number",
];

/// A compiled `flow` check.
#[derive(Debug)]
struct Flow {
    taint: bool,
    /// The sink tools; one that cannot be built is every tool.
    sinks: LazyGlobSet,
    /// The check names no sink tools: tools whose names say they send,
    /// pay, invite or fetch are sinks too ([`crate::flow::effects`]).
    by_effect: bool,
    actions: Vec<palisade_protocol::ResourceKind>,
    /// The key arguments; one that cannot be built is every argument.
    arguments: LazyGlobSet,
    /// Untrusted values count in data too (`from: any`).
    data: bool,
    min_length: usize,
    carry: bool,
    /// The account of a bill the user asked to pay counts as the user's
    /// (`documents: true`).
    documents: bool,
    /// Commands that make a shell line a sink (`curl`, `wget`, …), and the
    /// shell tools whose lines are read.
    commands: Option<(CommandPatterns, ToolMatcher)>,
    /// The effects whose calls after untrusted text need the user's asking
    /// (`intent`); 0: none.
    intent: Effects,
    /// After a tool output holding instructions addressed to the agent,
    /// every call of a side effect is judged (`instructions`).
    instructions: bool,
}

impl Whole for Flow {
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found> {
        let session = cx.session?;
        if self.taint {
            let values = self.sink_values(cx)?;
            return self.taint_hit(session, &values);
        }
        // The call's effect, when values the user left to a source they
        // named count as theirs (`intent`).
        let effect = cx
            .request
            .tool
            .as_ref()
            .filter(|_| self.intent != 0)
            .and_then(effects::category_of);
        if let Some(values) = self.sink_values(cx)
            && let Some(found) = self.provenance_hit(session, &values, effect)
        {
            return Some(found);
        }
        self.intent_hit(cx, session)
            .or_else(|| self.instructed_hit(cx, session))
    }

    fn build(&self) -> Result<(), String> {
        self.build_sets()
    }
}

impl Flow {
    /// A call of an effect the check judges, that no request of the user
    /// asked for, after a tool output brought untrusted text in.
    fn intent_hit(&self, cx: &Context<'_>, session: &Session) -> Option<Found> {
        if self.intent == 0 || cx.stage != Stage::ToolUse {
            return None;
        }
        // What the user asked can only be told from their requests: a
        // session that holds none (an MCP gateway sees only tool calls)
        // is not judged by intent.
        if !session.has_user_request() {
            return None;
        }
        let tool = cx.request.tool.as_ref()?;
        let effect = effects::category_of(tool)?;
        if self.intent & effect.bit() == 0 || session.asked() & effect.bit() != 0 {
            return None;
        }
        let step = session.untrusted_text_step()?;
        Some(found(
            "/tool/name",
            format!(
                "`{}` {} (effect `{}`), which no request of the user asked for, after {} brought untrusted text into the session",
                tool.name,
                effect.verb(),
                effect.name(),
                describe(step)
            ),
            step,
        ))
    }

    /// A call of a side effect (one of `intent`'s effects, or any when it
    /// names none), asked for by the user or not, after a tool output in
    /// which instructions addressed to the agent were found
    /// (`instructions: true`).
    fn instructed_hit(&self, cx: &Context<'_>, session: &Session) -> Option<Found> {
        if !self.instructions || cx.stage != Stage::ToolUse {
            return None;
        }
        let tool = cx.request.tool.as_ref()?;
        let step = session.instructed_step()?;
        let what = match effects::category_of(tool) {
            // A call whose effect cannot be told, after instructions to
            // the agent: it may be the one they asked for.
            None => "does what neither its name, its arguments nor a description tells".to_owned(),
            Some(effect) => {
                let judged = if self.intent == 0 {
                    side_effects()
                } else {
                    self.intent
                };
                if judged & effect.bit() == 0 {
                    return None;
                }
                format!("{} (effect `{}`)", effect.verb(), effect.name())
            }
        };
        Some(found(
            "/tool/name",
            format!(
                "`{}` {what} after {} brought instructions addressed to the agent into the session ({})",
                tool.name,
                describe(step),
                step.instructed.as_deref().unwrap_or("instructions")
            ),
            step,
        ))
    }

    /// A value of the sink that only untrusted content supplied.
    fn provenance_hit(
        &self,
        session: &Session,
        values: &[Value_],
        effect: Option<Effect>,
    ) -> Option<Found> {
        for v in values {
            // Each candidate with the other spellings of the same value: a
            // key value written as an account (`de89-3704-…`) is also
            // compared as its canonical form, and is the user's when
            // either is.
            let mut candidates: Vec<(String, Option<String>)> = Vec::new();
            // Also percent-decoded: `https://%63ollect.evil.example` and
            // `drop%40evil.example` reach what they spell.
            // And folded: `https://ｃｏｌｌｅｃｔ。evil.example/?d=…`; and with
            // invisible characters as spaces: `eve@evil.example\u{200B}now`.
            let mut texts = vec![v.text.clone()];
            texts.extend(percent_decoded(&v.text));
            let spelt = texts.len();
            for i in 0..spelt {
                if let Some(s) = texts.get(i).and_then(|t| spellings::spaced(t)) {
                    texts.push(s);
                }
            }
            let spelt = texts.len();
            for i in 0..spelt {
                if let Some(f) = texts.get(i).and_then(|t| folded(t)) {
                    texts.push(f);
                }
            }
            let mut spotted = Vec::new();
            for text in &texts {
                if v.key {
                    let whole = compact(text);
                    let account = spellings::account_form(&whole);
                    candidates.push((whole, account));
                }
                entities(text, &mut spotted);
            }
            candidates.extend(spotted.into_iter().map(|e| (e, None)));
            candidates.sort_unstable();
            candidates.dedup();
            for (c, other) in candidates {
                let forms: Vec<&String> = std::iter::once(&c)
                    .chain(other.as_ref())
                    .filter(|f| f.chars().count() >= self.min_length)
                    .collect();
                if forms.iter().any(|f| session.named_by_user(f)) {
                    continue;
                }
                let Some((c, source)) = forms
                    .iter()
                    .map(|f| {
                        let source = session
                            .untrusted_source(f, self.data)
                            .or_else(|| session.evicted_source(f, self.data));
                        (*f, source)
                    })
                    .find(|(_, source)| source.is_some())
                    .or_else(|| forms.first().map(|f| (*f, None)))
                else {
                    continue;
                };
                if self.documents
                    && (source.is_some() || session.overflowed().is_some())
                    && session.pointed_value(c)
                {
                    continue;
                }
                if source.is_some() && effect.is_some_and(|e| session.endorses(c, e)) {
                    continue;
                }
                if let Some(step) = source {
                    return Some(found(
                        &v.pointer,
                        format!(
                            "`{}` holds a value that {} brought into the session and no request of the user named",
                            last_name(&v.pointer),
                            describe(step)
                        ),
                        step,
                    ));
                }
                if let Some(step) = session.overflowed() {
                    // Values of earlier outputs were let go: where this
                    // one came from cannot be told, so it is not let
                    // through as the user's.
                    return Some(found(
                        &v.pointer,
                        format!(
                            "`{}` holds a value the session cannot trace: it let go of the values of earlier tool outputs (from {} on) to stay within its size",
                            last_name(&v.pointer),
                            describe(step)
                        ),
                        step,
                    ));
                }
            }
        }
        None
    }

    fn build_sets(&self) -> Result<(), String> {
        self.sinks.build().map_err(|e| format!("`tools`: {e}"))?;
        self.arguments
            .build()
            .map_err(|e| format!("`arguments`: {e}"))?;
        self.commands.as_ref().map_or(Ok(()), |(patterns, shell)| {
            patterns.build()?;
            shell.build()
        })
    }
}

impl Flow {
    /// The strings a sink call or action carries, each with its pointer
    /// and whether it is a key argument; `None` when the request is not a
    /// sink.
    fn sink_values(&self, cx: &Context<'_>) -> Option<Vec<Value_>> {
        let request = cx.request;
        let mut out = Vec::new();
        match cx.stage {
            Stage::ToolUse => {
                let tool = request.tool.as_ref()?;
                let by_effect = self.by_effect && crate::flow::effects::is_sink_tool(tool);
                if by_effect || self.sinks.is_match_or(&tool.name, true) {
                    if let Some(args) = &tool.arguments {
                        self.collect(args, "/tool/arguments", false, &mut out, 0);
                    }
                } else if !self.shell_sink(cx, &mut out) {
                    return None;
                }
            }
            Stage::Action => {
                let action = request.action.as_ref()?;
                let kind = action.resource.as_ref().map(|r| r.kind)?;
                if !self.actions.contains(&kind) {
                    return self.shell_sink(cx, &mut out).then_some(out);
                }
                if let Some(uri) = action.resource.as_ref().and_then(|r| r.uri.as_ref()) {
                    out.push(Value_ {
                        pointer: "/action/resource/uri".into(),
                        text: uri.clone(),
                        key: true,
                    });
                }
                for (i, t) in action.targets.iter().flatten().enumerate() {
                    out.push(Value_ {
                        pointer: format!("/action/targets/{i}/uri"),
                        text: t.uri.clone(),
                        key: true,
                    });
                }
            }
            _ => return None,
        }
        Some(out)
    }

    /// The words of the sink commands a shell line runs (`curl -d @.env
    /// https://…`), each searched for addresses, links and account numbers;
    /// whether there were any.
    fn shell_sink(&self, cx: &Context<'_>, out: &mut Vec<Value_>) -> bool {
        let Some((patterns, shell)) = &self.commands else {
            return false;
        };
        let mut any = false;
        for (pointer, line) in shell_lines(cx, shell) {
            let parsed = parsed(&line);
            for i in 0..parsed.commands.len() {
                let one = parsed.commands.get(i..=i).unwrap_or_default();
                if patterns.matches_commands(one).is_empty() {
                    continue;
                }
                any = true;
                for word in one.iter().flat_map(|c| c.words.iter()) {
                    out.push(Value_ {
                        pointer: pointer.clone(),
                        text: word.clone(),
                        key: false,
                    });
                }
            }
        }
        any
    }

    fn collect(&self, v: &Value, pointer: &str, key: bool, out: &mut Vec<Value_>, depth: usize) {
        if depth > 32 {
            return;
        }
        match v {
            Value::String(s) => {
                out.push(Value_ {
                    pointer: pointer.to_owned(),
                    text: s.clone(),
                    key,
                });
                // Base64 of text (a `raw` MIME message): what it spells,
                // its recipient headers as key values.
                if let Some(decoded) = mime::base64_text(s) {
                    let mut read = Vec::new();
                    mime::read_decoded(&decoded, key, &mut read);
                    out.extend(read.into_iter().map(|(text, key)| Value_ {
                        pointer: pointer.to_owned(),
                        text,
                        key,
                    }));
                }
            }
            Value::Number(n) => out.push(Value_ {
                pointer: pointer.to_owned(),
                text: n.to_string(),
                key,
            }),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.collect(item, &format!("{pointer}/{i}"), key, out, depth + 1);
                }
            }
            Value::Object(members) => {
                for (name, item) in members {
                    // Compared folded: a look-alike letter or an invisible
                    // character in a name does not make it another name.
                    let is_key = key || self.arguments.is_match_or(&compact(name), true);
                    let escaped = name.replace('~', "~0").replace('/', "~1");
                    self.collect(
                        item,
                        &format!("{pointer}/{escaped}"),
                        is_key,
                        out,
                        depth + 1,
                    );
                }
            }
            Value::Bool(_) | Value::Null => {}
        }
    }

    fn taint_hit(&self, session: &Session, values: &[Value_]) -> Option<Found> {
        if !self.carry {
            let step = session.sensitive_step()?;
            return Some(found(
                "",
                format!("{} held sensitive content", describe(step)),
                step,
            ));
        }
        for v in values {
            let mut text = compact(&v.text);
            if let Some(decoded) = percent_decoded(&v.text) {
                text.push('\n');
                text.push_str(&compact(&decoded));
            }
            for (s, step) in session.sensitive_values() {
                let carried = s.chars().count() >= self.min_length
                    && memchr::memmem::find(text.as_bytes(), s.as_bytes()).is_some();
                if carried {
                    return Some(found(
                        &v.pointer,
                        format!(
                            "`{}` carries sensitive content that {} brought into the session",
                            last_name(&v.pointer),
                            describe(step)
                        ),
                        step,
                    ));
                }
            }
        }
        None
    }
}

/// A string of a sink's arguments.
struct Value_ {
    pointer: String,
    text: String,
    /// A key argument: its whole value is compared, not only the
    /// addresses, links and account numbers in it.
    key: bool,
}

fn found(pointer: &str, detail: String, step: &Step) -> Found {
    Found {
        pointer: pointer.to_owned(),
        detail: Some(detail),
        source: Some(Source {
            request_id: step.request_id.clone(),
            stage: step.stage,
            tool: step.tool.clone(),
        }),
        own_message: false,
    }
}

/// `the output of `read_file` (request r-7)`.
fn describe(step: &Step) -> String {
    match (&step.tool, step.stage) {
        (Some(tool), Stage::ToolOutput) => {
            format!("the output of `{tool}` (request {})", step.request_id)
        }
        (Some(tool), stage) => format!("the {stage} of `{tool}` (request {})", step.request_id),
        (None, stage) => format!("the {stage} request {}", step.request_id),
    }
}

/// The last member name of a pointer, unescaped; `arguments` for none.
fn last_name(pointer: &str) -> String {
    pointer
        .rsplit('/')
        .find(|p| !p.is_empty() && !p.bytes().all(|b| b.is_ascii_digit()))
        .map_or_else(
            || "arguments".to_owned(),
            |p| p.replace("~1", "/").replace("~0", "~"),
        )
}

/// Parses a field's globs (case-insensitive); their set is built with the
/// check's first stage.
pub(super) fn glob_set(
    r: &mut Reader,
    ptr: &str,
    key: &str,
    globs: &[String],
) -> Option<LazyGlobSet> {
    fn parse(g: &str) -> Result<Glob, String> {
        GlobBuilder::new(g)
            .case_insensitive(true)
            .build()
            .map_err(|e| e.to_string())
    }
    if r.known {
        let set = globs.iter().map(|g| SetGlob::Known(g.clone())).collect();
        return Some(LazyGlobSet::with_known(set, parse));
    }
    let mut set = Vec::with_capacity(globs.len());
    let mut ok = true;
    for (i, g) in globs.iter().enumerate() {
        match GlobBuilder::new(g).case_insensitive(true).build() {
            Ok(glob) => {
                set.push(glob);
            }
            Err(e) => {
                ok = false;
                r.err(
                    crate::policy::read::index(&child(ptr, key), i),
                    format!("invalid glob: {}", e.kind()),
                );
            }
        }
    }
    ok.then(|| LazyGlobSet::new(set))
}

fn word(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
    key: &str,
    allowed: &[&str],
) -> Option<String> {
    let v = obj.get(key)?;
    match v.as_str() {
        Some(s) if allowed.contains(&s) => Some(s.to_owned()),
        _ => {
            r.err(child(ptr, key), unknown_value(key, v, allowed));
            None
        }
    }
}

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let before = r.errors.len();
    let rule = word(r, obj, ptr, "rule", RULES).unwrap_or_else(|| "provenance".into());
    let from = word(r, obj, ptr, "from", FROM).unwrap_or_else(|| "text".into());
    let tools = r.optional_entries(obj, ptr, "tools");
    let arguments = r.optional_entries(obj, ptr, "arguments");
    let trusted_tools = r.optional_entries(obj, ptr, "trusted_tools");
    let sensitive = r.optional_entries(obj, ptr, "sensitive");
    let actions = r.optional_entries(obj, ptr, "actions");
    let commands = r.optional_entries(obj, ptr, "commands");
    let intent = r.optional_entries(obj, ptr, "intent");
    r.known_names(obj, ptr, "intent", &intent, INTENT, "effect");
    if rule == "taint" && obj.contains_key("intent") {
        r.err(
            child(ptr, "intent"),
            "`intent` belongs to a `provenance` rule; this rule is `taint`",
        );
    }
    let command_patterns = if commands.is_empty() {
        None
    } else {
        match CommandPatterns::read(&commands, r.known) {
            Ok(p) => match shell_tools(&[]) {
                Ok(shell) => Some((p, shell)),
                Err(e) => {
                    r.err(child(ptr, "commands"), e);
                    None
                }
            },
            Err(e) => {
                report_commands(r, obj, ptr, &commands, e);
                None
            }
        }
    };
    r.known_names(obj, ptr, "actions", &actions, ACTION_KINDS, "resource kind");
    let carry = r.boolean(obj, ptr, "carry").unwrap_or(true);
    let instructions = r.boolean(obj, ptr, "instructions").unwrap_or(false);
    if rule == "taint" && obj.contains_key("instructions") {
        r.err(
            child(ptr, "instructions"),
            "`instructions` belongs to a `provenance` rule; this rule is `taint`",
        );
    }
    let documents = r.boolean(obj, ptr, "documents").unwrap_or(false);
    let min_length = match obj.get("min_length") {
        None => 6,
        Some(v) => match v.as_u64() {
            Some(n) if (1..=256).contains(&n) => n,
            _ => {
                r.err(
                    child(ptr, "min_length"),
                    format!(
                        "`min_length` must be a whole number from 1 to 256, not {}",
                        quoted(v)
                    ),
                );
                6
            }
        },
    };
    if rule == "taint" && sensitive.is_empty() {
        r.err(
            ptr,
            "missing field `sensitive` (the ids of the checks whose findings are sensitive content), which a `taint` rule needs",
        );
    }
    if rule == "provenance" && obj.contains_key("sensitive") {
        r.err(
            child(ptr, "sensitive"),
            "`sensitive` belongs to a `taint` rule; this rule is `provenance`",
        );
    }
    if obj.contains_key("carry") && rule == "provenance" {
        r.err(
            child(ptr, "carry"),
            "`carry` belongs to a `taint` rule; this rule is `provenance`",
        );
    }
    let sink_globs: Vec<String> = if tools.is_empty() {
        SINK_TOOLS.iter().map(|s| (*s).to_owned()).collect()
    } else {
        tools.clone()
    };
    let argument_globs: Vec<String> = if arguments.is_empty() {
        KEY_ARGUMENTS.iter().map(|s| (*s).to_owned()).collect()
    } else {
        arguments.iter().map(|a| a.to_ascii_lowercase()).collect()
    };
    let sinks = glob_set(r, ptr, "tools", &sink_globs);
    let argument_set = glob_set(r, ptr, "arguments", &argument_globs);
    let trusted_set = glob_set(r, ptr, "trusted_tools", &trusted_tools);
    // Built as the engine builds it (an empty list costs nothing), so that
    // a set over its size limit is reported here rather than ignored.
    if let Some(Err(e)) = trusted_set.as_ref().map(LazyGlobSet::build) {
        r.err(
            child(ptr, "trusted_tools"),
            format!("invalid glob set: {e}"),
        );
    }
    if obj.contains_key("documents") && rule == "taint" {
        r.err(
            child(ptr, "documents"),
            "`documents` belongs to a `provenance` rule; this rule is `taint`",
        );
    }
    if r.errors.len() > before {
        return None;
    }
    let (sinks, argument_set, _) = (sinks?, argument_set?, trusted_set?);
    let action_kinds = if actions.is_empty() {
        vec![palisade_protocol::ResourceKind::Network]
    } else {
        actions
            .iter()
            .filter_map(|a| serde_json::from_value(json!(a)).ok())
            .collect()
    };
    let compiled = Flow {
        taint: rule == "taint",
        sinks,
        by_effect: tools.is_empty(),
        actions: action_kinds,
        arguments: argument_set,
        data: from == "any",
        min_length: usize::try_from(min_length).unwrap_or(6),
        carry,
        documents,
        commands: command_patterns,
        intent: intent
            .iter()
            .filter_map(|n| Effect::named(n))
            .fold(0, |acc, e| acc | e.bit()),
        instructions,
    };
    let kind = CheckKind::Flow {
        rule,
        tools,
        commands,
        actions,
        arguments,
        trusted_tools,
        from,
        min_length,
        sensitive,
        carry,
        documents,
        intent,
        instructions,
    };
    Some((kind, Form::Whole(Arc::new(compiled))))
}

/// The globs of a policy's `trusted_tools`, parsed as the check reads them
/// (case-insensitive; bad ones were refused when the policy was read), their
/// set built when a tool output is first recorded. A set that cannot be
/// built trusts no tool.
pub(crate) fn trusted_set(globs: &[String]) -> LazyGlobSet {
    LazyGlobSet::new(
        globs
            .iter()
            .filter_map(|g| GlobBuilder::new(g).case_insensitive(true).build().ok())
            .collect(),
    )
}

/// The type's own fields.
const FIELDS: &[Field] = &[
    Field {
        name: "rule",
        required: false,
        schema: || {
            json!({
                "description": "`provenance` (default): a sink carries a value that only untrusted content supplied; `taint`: a sink after sensitive content.",
                "enum": RULES,
            })
        },
    },
    Field {
        name: "tools",
        required: false,
        schema: || {
            described_entries(
                "Globs of the sink tools, any case (default: tools that send, share, pay, invite, publish or fetch).",
            )
        },
    },
    Field {
        name: "commands",
        required: false,
        schema: || {
            described_entries(
                "Command patterns (as a `command` check's) that make a shell line a sink: a call of a shell tool, or a process action, running one of them (`curl`, `wget`, …) is judged by the addresses, links and account numbers in its words.",
            )
        },
    },
    Field {
        name: "actions",
        required: false,
        schema: || {
            json!({
                "description": "Resource kinds of the actions that are sinks (default: `network`).",
                "type": "array",
                "minItems": 1,
                "items": { "enum": ACTION_KINDS },
            })
        },
    },
    Field {
        name: "arguments",
        required: false,
        schema: || {
            described_entries(
                "Globs of the argument names whose whole value is compared, any case (default: recipients, addresses, links, accounts, passwords, phone numbers). Every other argument is searched for e-mail addresses, links and account numbers.",
            )
        },
    },
    Field {
        name: "trusted_tools",
        required: false,
        schema: || {
            described_entries("Globs of the tools whose outputs count as the user's own requests.")
        },
    },
    Field {
        name: "from",
        required: false,
        schema: || {
            json!({
                "description": "Where an untrusted value counts: `text` (default: strings of six words or more, where written instructions live) or `any` (also short values such as a sender field).",
                "enum": FROM,
            })
        },
    },
    Field {
        name: "min_length",
        required: false,
        schema: || {
            json!({
                "description": "The shortest value compared, in characters without whitespace (default 6).",
                "type": "integer",
                "minimum": 1,
                "maximum": 256,
            })
        },
    },
    Field {
        name: "sensitive",
        required: false,
        schema: || {
            described_entries(
                "`taint`: the ids of the checks whose findings are sensitive content (a `secrets`, `pii` or `path` check).",
            )
        },
    },
    Field {
        name: "carry",
        required: false,
        schema: || {
            json!({
                "description": "`taint`: only when the sink carries the sensitive content (default true); false: any sink after it.",
                "type": "boolean",
            })
        },
    },
    Field {
        name: "intent",
        required: false,
        schema: || {
            json!({
                "description": "`provenance`: the effect categories whose calls need a request of the user asking for them once a tool output has brought untrusted text into the session (default: none). A call's category is read from its tool's name (`delete_file`: `delete`, `reserve_hotel`: `book`), else from its arguments' names; the user's requests ask by their verbs, in English, German, French and Spanish.",
                "type": "array",
                "minItems": 1,
                "uniqueItems": true,
                "items": { "enum": INTENT },
            })
        },
    },
    Field {
        name: "instructions",
        required: false,
        schema: || {
            json!({
                "description": "`provenance`: after a tool output in which the built-in detector finds instructions addressed to the agent (as an `addressed_instructions` check does), every call of a side effect — one of `intent`'s effects, or any effect but reading when `intent` names none — and every call whose effect cannot be told is judged, whether a request of the user asked for that effect or not (default false).",
                "type": "boolean",
            })
        },
    },
    Field {
        name: "documents",
        required: false,
        schema: || {
            json!({
                "description": "`provenance`: the account of a bill the user asked to pay counts as the user's (default false): a request of the user names the file (`pay the bill in invoice.txt`), asks to pay and gives no account number itself, and the tool outputs that are that file hold that one account number in their text and no other. Addresses and links are never taken from a file.",
                "type": "boolean",
            })
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        entities(text, &mut out);
        out
    }

    #[test]
    fn entities_are_addresses_links_and_accounts() {
        let e = found("mail Ann <Ann.Lee@Example.com> or see https://evil.example.net:8443/x?d=1.");
        assert!(e.contains(&"ann.lee@example.com".to_owned()), "{e:?}");
        assert!(
            e.contains(&"https://evil.example.net:8443/x?d=1".to_owned()),
            "{e:?}"
        );
        assert!(
            e.contains(&"https://evil.example.net:8443/x".to_owned()),
            "{e:?}"
        );
        assert!(e.contains(&"evil.example.net".to_owned()), "{e:?}");
        // The address's domain is not a link of its own.
        assert!(!e.contains(&"example.com".to_owned()), "{e:?}");
        let e = found("pay DE89 3704 0044 0532 0130 00 now; or http://10.1.2.3:3000/c");
        assert!(e.contains(&"de89370400440532013000".to_owned()), "{e:?}");
        assert!(e.contains(&"10.1.2.3".to_owned()), "{e:?}");
        // A link's user part is not its host.
        let e =
            found("see https://docs.example.com@collect.evil.example/c and a.example@b.example/x");
        assert!(e.contains(&"collect.evil.example".to_owned()), "{e:?}");
        assert!(e.contains(&"b.example".to_owned()), "{e:?}");
        // An address before a colon in prose keeps its domain to itself.
        let e = found("ask ann@corp.example: she knows");
        assert!(!e.contains(&"corp.example".to_owned()), "{e:?}");
        let e = found("curl ann@corp.example:8443");
        assert!(e.contains(&"corp.example".to_owned()), "{e:?}");
        // After a scheme, an address written as one number is a host; a
        // name without dots is not taken alone.
        let e = found(
            "get http://167772675:8080/c?x=1 and http://0xa010203/ or http://localhost:3000/",
        );
        assert!(e.contains(&"167772675".to_owned()), "{e:?}");
        assert!(e.contains(&"0xa010203".to_owned()), "{e:?}");
        assert!(!e.iter().any(|v| v.contains("localhost")), "{e:?}");
    }

    #[test]
    fn last_names_skip_indices() {
        assert_eq!(last_name("/tool/arguments/recipients/0"), "recipients");
        assert_eq!(last_name("/tool/arguments/a~1b"), "a/b");
        assert_eq!(last_name(""), "arguments");
    }
}
