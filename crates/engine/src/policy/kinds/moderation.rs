//! `moderation`: a moderation endpoint scores a category at or above the
//! threshold. Async: the runtime that holds the client answers it.

use palisade_protocol::Stage;
use serde_json::{Map, Value, json};

use super::{Field, Form, Runs, Spec, names};
use crate::policy::read::{Reader, child, quoted};
use crate::policy::{CheckKind, OnFail};

/// The `moderation` check type.
pub(super) const SPEC: Spec = Spec {
    name: "moderation",
    fields: FIELDS,
    stages: &[Stage::Input, Stage::Output],
    runs: Runs::Async,
    entry_field: Some("categories"),
    can_redact: false,
    default_on_fail: OnFail::Block,
    message: "flagged by content moderation",
    read,
    default_entries: || CATEGORIES.iter().map(|c| (*c).to_owned()).collect(),
};

/// The categories a `moderation` check can score.
pub const CATEGORIES: &[&str] = &[
    "hate",
    "harassment",
    "self_harm",
    "sexual",
    "violence",
    "illicit",
];

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let categories = r.optional_entries(obj, ptr, "categories");
    r.known_names(obj, ptr, "categories", &categories, CATEGORIES, "category");
    let threshold = match obj.get("threshold") {
        None => 50,
        Some(v) => match v.as_u64().and_then(|t| u8::try_from(t).ok()) {
            Some(t) if t <= 100 => t,
            _ => {
                r.err(
                    child(ptr, "threshold"),
                    format!(
                        "`threshold` must be a whole number from 0 to 100, not {}",
                        quoted(v)
                    ),
                );
                return None;
            }
        },
    };
    let kind = CheckKind::Moderation {
        categories,
        threshold,
    };
    Some((kind, Form::Async))
}

/// The type's own fields.
const FIELDS: &[Field] = &[
    Field {
        name: "categories",
        required: false,
        schema: || names(CATEGORIES, "The categories scored (default: all)."),
    },
    Field {
        name: "threshold",
        required: false,
        schema: || json!({ "description": "The score (0–100) at which a category is a hit.", "type": "integer", "minimum": 0, "maximum": 100, "default": 50 }),
    },
];
