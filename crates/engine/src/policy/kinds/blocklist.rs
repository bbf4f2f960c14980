//! `blocklist`: any of the words or phrases occurs in a scanned string.

use serde_json::{Map, Value, json};

use super::{Form, Text, described_entries, unknown};
use crate::policy::CheckKind;
use crate::policy::read::Reader;

pub(super) const MESSAGE: &str = "contains a blocked phrase";

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

pub(super) fn field(field: &str) -> (Value, bool) {
    match field {
        "words" => (described_entries("Words and phrases to find."), true),
        "case_sensitive" => (
            json!({ "description": "Match the words' case exactly.", "type": "boolean", "default": false }),
            false,
        ),
        "whole_words" => (
            json!({ "description": "Match only whole words.", "type": "boolean", "default": false }),
            false,
        ),
        _ => unknown(),
    }
}
