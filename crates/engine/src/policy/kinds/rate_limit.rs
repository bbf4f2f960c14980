//! `rate_limit`: more than `max` requests in `window_secs` for one key.

use std::sync::Arc;

use palisade_protocol::CheckRequest;
use palisade_protocol::Stage;
use serde_json::{Map, Value, json};

use super::{Context, Field, Form, Found, Runs, Spec, Whole};
use crate::policy::read::{Reader, child, index, json_type, one_of, quoted};
use crate::policy::{CheckKind, OnFail};

/// The `rate_limit` check type.
pub(super) const SPEC: Spec = Spec {
    name: "rate_limit",
    fields: FIELDS,
    stages: Stage::ALL,
    runs: Runs::Engine,
    entry_field: None,
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "too many requests in the rate-limit window",
    read,
    default_entries: Vec::new,
};

/// The keys a rate limit can count per.
pub(crate) const KEYS: &[&str] = &["tenant", "agent", "session", "tool"];

/// Largest `max` of a rate limit.
pub(crate) const MAX_RATE: u64 = 1_000_000;
/// Longest rate-limit window: one week.
pub(crate) const MAX_WINDOW_SECS: u64 = 7 * 24 * 3600;

/// A compiled `rate_limit` check: what it counts per. Its counters are the
/// engine's (each engine counts afresh), handed in by the [`Context`].
#[derive(Debug)]
struct RateLimit {
    per: Vec<String>,
}

impl Whole for RateLimit {
    fn first_hit(&self, cx: &mut Context<'_>) -> Option<Found> {
        // Counted elsewhere (a runtime's shared state): its answer.
        if let Some(over) = cx.limit_over {
            return over.then(Found::request);
        }
        let limiter = cx.limiter?;
        let key = key(cx.request, &self.per);
        limiter.over(&key, cx.now_millis).then(Found::request)
    }
}

/// The key a rate limit counts under: the named parts of the request.
pub(crate) fn key(request: &CheckRequest, per: &[String]) -> String {
    let mut key = String::new();
    for part in per {
        let value = match part.as_str() {
            "tenant" => request.tenant.as_deref(),
            "agent" => request.agent.as_ref().and_then(|a| a.id.as_deref()),
            "session" => request.session_id.as_deref(),
            "tool" => request.tool.as_ref().map(|t| t.name.as_str()),
            _ => None,
        };
        // Length-prefixed, so no choice of values can make two keys equal.
        let v = value.unwrap_or("");
        key.push_str(&format!("{}:{v};", v.len()));
    }
    key
}

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let max = r.count(obj, ptr, "max", MAX_RATE);
    let window_secs = r.count(obj, ptr, "window_secs", MAX_WINDOW_SECS);
    let per = keys(r, obj, ptr);
    let (max, window_secs) = (max?, window_secs?);
    let form = Form::Whole(Arc::new(RateLimit { per: per.clone() }));
    let kind = CheckKind::RateLimit {
        max: u32::try_from(max).unwrap_or(u32::MAX),
        window_secs,
        per,
    };
    Some((kind, form))
}

/// `per`: the keys, each once.
fn keys(r: &mut Reader, obj: &Map<String, Value>, ptr: &str) -> Vec<String> {
    let Some(v) = obj.get("per") else {
        return Vec::new();
    };
    let pptr = child(ptr, "per");
    let Some(items) = v.as_array() else {
        r.err(
            pptr,
            format!(
                "`per` must be a list of {}, not {}",
                one_of(KEYS),
                json_type(v)
            ),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item.as_str() {
            Some(k) if KEYS.contains(&k) => {
                if !out.iter().any(|o| o == k) {
                    out.push(k.to_owned());
                }
            }
            _ => r.err(
                index(&pptr, i),
                format!(
                    "unknown key {}; a rate limit counts per {}",
                    quoted(item),
                    one_of(KEYS)
                ),
            ),
        }
    }
    out
}

/// The type's own fields.
const FIELDS: &[Field] = &[
    Field {
        name: "max",
        required: true,
        schema: || json!({ "description": "Most requests in the window.", "type": "integer", "minimum": 1, "maximum": MAX_RATE }),
    },
    Field {
        name: "window_secs",
        required: true,
        schema: || json!({ "description": "The window, in seconds.", "type": "integer", "minimum": 1, "maximum": MAX_WINDOW_SECS }),
    },
    Field {
        name: "per",
        required: false,
        schema: || {
            json!({
                "description": "What the limit counts per (default: one count for all).",
                "type": "array",
                "items": { "enum": KEYS },
            })
        },
    },
];
