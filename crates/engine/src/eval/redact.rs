//! Building `modified`: the payload with every redacted span replaced.

use palisade_protocol::{CheckRequest, Modified};
use serde_json::Value;

use super::{Field, FieldKind, Hit, placeholder};
use crate::policy::Policy;

/// Replaces the spans in `text`. Overlapping spans are merged; the merged
/// span takes the placeholder of the span that starts first.
#[expect(
    clippy::indexing_slicing,
    reason = "span and field indices come from iterating the same lists"
)]
pub(crate) fn redact_text(text: &str, spans: &mut [(usize, usize, String)]) -> String {
    spans.sort_by_key(|(s, e, _)| (*s, std::cmp::Reverse(*e)));
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    let mut i = 0;
    while i < spans.len() {
        let (start, mut end, ref label) = spans[i];
        let label = label.clone();
        let mut j = i + 1;
        while j < spans.len() && spans[j].0 < end {
            end = end.max(spans[j].1);
            j += 1;
        }
        let start = start.max(pos);
        if let (Some(before), true) = (text.get(pos..start), end <= text.len()) {
            out.push_str(before);
            out.push_str(&label);
            pos = end;
        }
        i = j;
    }
    out.push_str(text.get(pos..).unwrap_or(""));
    out
}

#[expect(
    clippy::indexing_slicing,
    reason = "span and field indices come from iterating the same lists"
)]
fn spans_for(policy: &Policy, hits: &[Hit], field: usize) -> Vec<(usize, usize, String)> {
    hits.iter()
        .filter(|h| h.field as usize == field)
        .map(|h| {
            (
                h.start,
                h.end,
                placeholder(&policy.checks[h.check as usize], h.label),
            )
        })
        .collect()
}

/// Applies a redaction to the JSON value at `pointer` (relative to the payload root).
fn redact_json(
    root: &mut Value,
    relative: &str,
    kind: FieldKind,
    mut spans: Vec<(usize, usize, String)>,
) {
    match kind {
        FieldKind::ArgKey | FieldKind::OutputKey => {
            let (parent, last) = match relative.rfind('/') {
                Some(i) => (&relative[..i], &relative[i + 1..]),
                None => return,
            };
            let key = palisade_protocol::pointer::unescape(last);
            if let Some(Value::Object(map)) = root.pointer_mut(parent)
                && let Some(v) = map.remove(&key)
            {
                // Two keys may redact to the same name: keep both members.
                let base = redact_text(&key, &mut spans);
                let mut name = base.clone();
                let mut n = 2;
                while map.contains_key(&name) {
                    name = format!("{base} ({n})");
                    n += 1;
                }
                map.insert(name, v);
            }
        }
        _ => {
            if let Some(slot) = root.pointer_mut(relative) {
                let text = match slot {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => super::strings::number_text(n),
                    _ => return,
                };
                *slot = Value::String(redact_text(&text, &mut spans));
            }
        }
    }
}

#[expect(
    clippy::indexing_slicing,
    reason = "span and field indices come from iterating the same lists"
)]
pub(crate) fn apply(
    policy: &Policy,
    request: &CheckRequest,
    fields: &[Field],
    hits: &[Hit],
) -> Modified {
    let mut modified = Modified::default();
    let mut arguments = request.tool.as_ref().and_then(|t| t.arguments.clone());
    let mut output = request.tool.as_ref().and_then(|t| t.output.clone());
    let (mut args_changed, mut output_changed) = (false, false);
    // Keys are renamed last (deepest first) so that pointers to values stay valid.
    let mut order: Vec<usize> = (0..fields.len()).collect();
    order.sort_by_key(|&i| {
        let is_key = matches!(fields[i].kind, FieldKind::ArgKey | FieldKind::OutputKey);
        (is_key, std::cmp::Reverse(fields[i].raw.len()))
    });
    for i in order {
        let field = &fields[i];
        let spans = spans_for(policy, hits, i);
        if spans.is_empty() {
            continue;
        }
        match field.kind {
            FieldKind::Content => {
                let mut spans = spans;
                if let Some(c) = &request.content {
                    modified.content = Some(redact_text(c, &mut spans));
                }
            }
            FieldKind::OutputText => {
                let mut spans = spans;
                if let Some(Value::String(s)) = &output {
                    output = Some(Value::String(redact_text(s, &mut spans)));
                    output_changed = true;
                }
            }
            FieldKind::ArgString | FieldKind::ArgKey | FieldKind::ArgNumber => {
                if let Some(root) = arguments.as_mut() {
                    let rel = field.raw.strip_prefix("/tool/arguments").unwrap_or("");
                    redact_json(root, rel, field.kind, spans);
                    args_changed = true;
                }
            }
            FieldKind::OutputString | FieldKind::OutputKey | FieldKind::OutputNumber => {
                if let Some(root) = output.as_mut() {
                    let rel = field.raw.strip_prefix("/tool/output").unwrap_or("");
                    redact_json(root, rel, field.kind, spans);
                    output_changed = true;
                }
            }
            _ => {}
        }
    }
    if args_changed {
        modified.arguments = arguments;
    }
    if output_changed {
        modified.output = output;
    }
    modified
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str, spans: &[(usize, usize, &str)]) -> String {
        let mut v: Vec<_> = spans
            .iter()
            .map(|(s, e, l)| (*s, *e, (*l).to_owned()))
            .collect();
        redact_text(text, &mut v)
    }

    #[test]
    fn replaces_and_merges_spans() {
        assert_eq!(r("key AKIA1234 end", &[(4, 12, "[X]")]), "key [X] end");
        assert_eq!(r("abcdef", &[(0, 3, "[A]"), (2, 5, "[B]")]), "[A]f");
        assert_eq!(r("abcdef", &[(1, 2, "[A]"), (4, 6, "[B]")]), "a[A]cd[B]");
        assert_eq!(r("abc", &[]), "abc");
    }
}
