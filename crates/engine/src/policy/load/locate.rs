//! Where a policy problem was written: the line and column of the value
//! its JSON pointer names in the file's text, and the id of the check it
//! belongs to.
//!
//! The text is walked once with a YAML 1.2 event parser (JSON is read the
//! same way: a JSON document is YAML in flow style), keeping the position
//! of every value by its pointer. A member's position is its key's: that
//! is where a reader looks for `on_fail`, and where an unknown field is.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser};
use serde_json::Value;

use crate::error::Place;

/// The position (line and column, from 1) of every value of `text` by its
/// JSON pointer. Empty when the text does not parse; a position past a
/// parse error is not kept.
pub(crate) fn positions(text: &str) -> HashMap<String, (usize, usize)> {
    let mut found = HashMap::new();
    let mut frames: Vec<Frame> = Vec::new();
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else {
            break;
        };
        let at = (span.start.line(), span.start.col() + 1);
        let opens = match event {
            Event::MappingStart(..) => Some(Open::Map),
            Event::SequenceStart(..) => Some(Open::Seq),
            Event::Scalar(..) | Event::Alias(..) => None,
            Event::MappingEnd | Event::SequenceEnd => {
                frames.pop();
                continue;
            }
            _ => continue,
        };
        // The node's pointer, by what holds it.
        let pointer = match frames.last_mut() {
            None => Some(String::new()),
            Some(Frame::Map {
                pointer,
                key,
                awaiting_key,
            }) => {
                if *awaiting_key {
                    *awaiting_key = false;
                    match &event {
                        Event::Scalar(name, ..) => {
                            let member = member(pointer, name);
                            // A repeated key is found at its last
                            // occurrence: the one to remove.
                            found.insert(member.clone(), at);
                            *key = Some(member);
                        }
                        // A key that is a collection: no pointer names
                        // anything under it.
                        _ => *key = None,
                    }
                    if opens.is_some() {
                        frames.push(Frame::Ignored);
                    }
                    continue;
                }
                *awaiting_key = true;
                key.take()
            }
            Some(Frame::Seq { pointer, next }) => {
                let item = format!("{pointer}/{next}");
                *next += 1;
                Some(item)
            }
            Some(Frame::Ignored) => None,
        };
        if let Some(p) = &pointer {
            found.entry(p.clone()).or_insert(at);
        }
        match (opens, pointer) {
            (Some(Open::Map), Some(pointer)) => frames.push(Frame::Map {
                pointer,
                key: None,
                awaiting_key: true,
            }),
            (Some(Open::Seq), Some(pointer)) => frames.push(Frame::Seq { pointer, next: 0 }),
            (Some(_), None) => frames.push(Frame::Ignored),
            (None, _) => {}
        }
    }
    found
}

#[derive(Clone, Copy)]
enum Open {
    Map,
    Seq,
}

enum Frame {
    Map {
        pointer: String,
        /// The pointer of the member whose value comes next.
        key: Option<String>,
        awaiting_key: bool,
    },
    Seq {
        pointer: String,
        next: usize,
    },
    /// A collection no pointer reaches (one used as a key).
    Ignored,
}

/// The pointer of member `key` of the object at `pointer` (RFC 6901).
pub(super) fn member(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// The place of a problem at `pointer` of the policy file `file`, whose
/// text has `found` positions and was read as `document`.
pub(crate) fn place(
    file: &str,
    found: &HashMap<String, (usize, usize)>,
    document: Option<&Value>,
    pointer: &str,
) -> Place {
    // The nearest value that has a position: a missing field is told at
    // the object that misses it.
    let mut at = pointer;
    let position = loop {
        if at.is_empty() {
            break None;
        }
        if let Some(p) = found.get(at) {
            break Some(*p);
        }
        at = at.rsplit_once('/').map_or("", |(parent, _)| parent);
    };
    let check = pointer
        .strip_prefix("/checks/")
        .and_then(|rest| rest.split('/').next())
        .and_then(|i| i.parse::<usize>().ok())
        .and_then(|i| {
            let check = document?.get("checks")?.as_array()?.get(i)?;
            Some(id_of(check, i))
        });
    Place {
        file: file.to_owned(),
        position,
        check,
    }
}

/// A check's id as the reader gives it: its `id`, else `<type>-<index>`.
pub(super) fn id_of(check: &Value, i: usize) -> String {
    match check.get("id").and_then(Value::as_str) {
        Some(id) => id.to_owned(),
        None => format!(
            "{}-{i}",
            check.get("type").and_then(Value::as_str).unwrap_or("check")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::positions;

    #[test]
    fn block_yaml_members_and_items_are_found_at_their_keys() {
        let text = "mode: enforce\nchecks:\n  - id: a\n    type: regex\n    patterns: ['x(', y]\n  - { id: b, on_fail: warnn }\n";
        let p = positions(text);
        assert_eq!(p.get(""), Some(&(1, 1)));
        assert_eq!(p.get("/mode"), Some(&(1, 1)));
        assert_eq!(p.get("/checks"), Some(&(2, 1)));
        assert_eq!(p.get("/checks/0"), Some(&(3, 5)));
        assert_eq!(p.get("/checks/0/type"), Some(&(4, 5)));
        assert_eq!(p.get("/checks/0/patterns/0"), Some(&(5, 16)));
        assert_eq!(p.get("/checks/0/patterns/1"), Some(&(5, 22)));
        assert_eq!(p.get("/checks/1"), Some(&(6, 5)));
        assert_eq!(p.get("/checks/1/on_fail"), Some(&(6, 14)));
    }

    #[test]
    fn json_is_read_the_same_way() {
        let text = "{\n  \"checks\": [\n    {\"id\": \"a\", \"type\": \"regex\"},\n    {\"a/b~\": 1}\n  ]\n}\n";
        let p = positions(text);
        assert_eq!(p.get("/checks/0/type"), Some(&(3, 17)));
        assert_eq!(p.get("/checks/1/a~1b~0"), Some(&(4, 6)));
    }

    #[test]
    fn a_collection_used_as_a_key_hides_nothing_after_it() {
        let text = "? [a, b]\n: 1\nmode: x\n";
        let p = positions(text);
        assert_eq!(p.get("/mode"), Some(&(3, 1)));
    }

    #[test]
    fn a_repeated_key_is_found_where_it_is_repeated() {
        let p =
            positions("checks:\n  - id: a\n    stage: input\n    type: regex\n    stage: output\n");
        assert_eq!(p.get("/checks/0/stage"), Some(&(5, 5)));
    }

    #[test]
    fn a_text_that_does_not_parse_keeps_what_came_before() {
        let p = positions("mode: a\nchecks: [\n");
        assert_eq!(p.get("/mode"), Some(&(1, 1)));
    }
}
