//! `blocklist`: any of the words or phrases occurs in a scanned string.

use palisade_protocol::Stage;
use serde_json::{Map, Value, json};

use super::{Field, Form, Runs, Spec, Text, described_entries};
use crate::policy::read::Reader;
use crate::policy::{CheckKind, OnFail};

/// The `blocklist` check type.
pub(super) const SPEC: Spec = Spec {
    name: "blocklist",
    fields: FIELDS,
    stages: Stage::ALL,
    runs: Runs::Engine,
    entry_field: Some("words"),
    can_redact: true,
    default_on_fail: OnFail::Block,
    message: "contains a blocked phrase",
    read,
    default_entries: Vec::new,
};

pub(super) fn read(
    r: &mut Reader,
    obj: &Map<String, Value>,
    ptr: &str,
) -> Option<(CheckKind, Form)> {
    let words = r.entries(obj, ptr, "words");
    let case_sensitive = r.boolean(obj, ptr, "case_sensitive").unwrap_or(false);
    let whole = r.boolean(obj, ptr, "whole_words").unwrap_or(false);
    let texts = r.each_compiled(obj, ptr, "words", &words, |word| {
        // Letters outside ASCII fold by Unicode simple case folding, as `(?i)` does.
        let folded = if case_sensitive || word.is_ascii() {
            None
        } else {
            let source = format!("(?i){}", regex_syntax::escape(word));
            Some(crate::pattern::parse(&source).and_then(crate::pattern::Pattern::new)?)
        };
        Ok(Text::Word {
            word: word.to_owned(),
            case_sensitive,
            whole,
            folded,
        })
    })?;
    let kind = CheckKind::Blocklist {
        words,
        case_sensitive,
        whole_words: whole,
    };
    Some((kind, Form::Text(texts.into())))
}

/// The type's own fields.
const FIELDS: &[Field] = &[
    Field {
        name: "words",
        required: true,
        schema: || described_entries("Words and phrases to find."),
    },
    Field {
        name: "case_sensitive",
        required: false,
        schema: || json!({ "description": "Match the words' case exactly.", "type": "boolean", "default": false }),
    },
    Field {
        name: "whole_words",
        required: false,
        schema: || json!({ "description": "Match only whole words.", "type": "boolean", "default": false }),
    },
];
