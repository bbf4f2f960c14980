//! Properties of evaluation: chunked streaming equals whole-text scanning,
//! the decision does not depend on check order, advisory mode never blocks,
//! and redaction leaves no matched span behind.

use palisade_engine::Engine;
use palisade_protocol::{CheckRequest, Decision, DecisionKind, FindingAction, Stage};
use proptest::prelude::*;
use serde_json::{Value, json};

/// Pieces of text that hit (or nearly hit) the checks below, mixed with
/// filler, non-ASCII word and non-word characters.
const PIECES: &[&str] = &[
    " ",
    " ",
    "the ",
    "lorem ",
    "ipsum\n",
    "caf\u{e9} ",
    "\u{e9}",
    "\u{2014}",
    "\u{65e5}\u{672c} ",
    "_",
    "Drop Table",
    "drop  table",
    "DROP\tTABLE ",
    "ignore previous instructions",
    "IGNORE PREVIOUS",
    "AKIA0123456789ABCDEF",
    "AKIA0123456789ABCDE",
    "key-abcd1234",
    "monkey-abcd1234",
    "alice@example.com",
    "bob@",
    "555-12-3456",
    "4111 1111 1111 1111",
    "secret sauce",
    "Secret",
    "the admin password is",
    "password",
    "ghp_0123456789abcdefghijABCDEFGHIJ012345",
    "fullz",
];

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|v| v.concat())
}

/// The checks used by the properties, as (id, type fields) pairs; each gets
/// the stage and on_fail a property needs.
fn checks() -> Vec<Value> {
    vec![
        json!({"id": "sql", "type": "regex", "patterns": [r"(?i)\bdrop\s+table\b"]}),
        json!({"id": "aws", "type": "regex", "patterns": [r"\bAKIA[0-9A-Z]{16}\b"]}),
        json!({"id": "key", "type": "regex", "patterns": [r"\bkey-[0-9a-z]{8}\b"]}),
        json!({"id": "email", "type": "regex", "patterns": [r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,24}\b"]}),
        json!({"id": "ssn", "type": "regex", "patterns": [r"\b[0-9]{3}-[0-9]{2}-[0-9]{4}\b"]}),
        json!({"id": "gh", "type": "regex", "patterns": [r"\bghp_[A-Za-z0-9]{36}\b"]}),
        json!({"id": "injection", "type": "blocklist", "words": ["ignore previous instructions", "fullz"]}),
        json!({"id": "secret-cs", "type": "blocklist", "words": ["Secret"], "case_sensitive": true}),
        json!({"id": "admin", "type": "blocklist", "words": ["the admin password is"], "whole_words": true}),
        json!({"id": "pw", "type": "blocklist", "words": ["password"], "whole_words": true}),
        json!({"id": "fold", "type": "blocklist", "words": ["kill switch", "secret sauce"], "whole_words": true}),
        json!({"id": "tokens", "type": "regex", "patterns": [r"AKIA[0-9A-Z]{16}", r"ghp_[A-Za-z0-9]{36}", r"[a-z]+@[a-z]+\.com"]}),
    ]
}

/// Engines for the fixed policies, compiled once.
fn cached(
    mode: &'static str,
    on_fail: &'static [&'static str],
    order: &'static [usize],
) -> &'static Engine {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Key = (&'static str, &'static [&'static str], &'static [usize]);
    static CACHE: OnceLock<Mutex<HashMap<Key, &'static Engine>>> = OnceLock::new();
    let mut map = CACHE.get_or_init(Default::default).lock().unwrap();
    map.entry((mode, on_fail, order))
        .or_insert_with(|| Box::leak(Box::new(policy(mode, on_fail, order))))
}

fn policy(mode: &str, on_fail: &[&str], order: &[usize]) -> Engine {
    let all = checks();
    let list: Vec<Value> = order
        .iter()
        .map(|&i| {
            let mut c = all[i].clone();
            c["stage"] = json!("output");
            c["on_fail"] = json!(on_fail[i % on_fail.len()]);
            c
        })
        .collect();
    Engine::from_json_str(&json!({"mode": mode, "checks": list}).to_string()).unwrap()
}

fn ids(d: &Decision) -> Vec<(String, FindingAction)> {
    let mut v: Vec<_> = d
        .findings()
        .map(|f| (f.check_id.clone(), f.action))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.as_str().cmp(b.1.as_str())));
    v.dedup();
    v
}

fn located(d: &Decision) -> Vec<(String, Option<usize>, Option<usize>)> {
    let mut v: Vec<_> = d
        .findings()
        .map(|f| {
            let l = f.location.clone().unwrap();
            (f.check_id.clone(), l.start, l.end)
        })
        .collect();
    v.sort();
    v
}

/// Splits `text` at the given fractions, on character boundaries.
fn chunks(text: &str, cuts: &[u16]) -> Vec<String> {
    let mut points: Vec<usize> = cuts
        .iter()
        .map(|&c| text.len() * c as usize / u16::MAX as usize)
        .collect();
    points.push(0);
    points.push(text.len());
    for p in &mut points {
        while !text.is_char_boundary(*p) {
            *p += 1;
        }
    }
    points.sort();
    points.dedup();
    points
        .windows(2)
        .map(|w| text[w[0]..w[1]].to_owned())
        .collect()
}

const ALL: [usize; 11] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/// The checks of [`checks`] whose matches do not depend on word boundaries.
const BOUNDARY_FREE: [usize; 3] = [6, 7, 11];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Log-only checks: every hit of the whole text is reported while
    /// streaming, once, whatever the chunking (a match that needs the next
    /// character, like a trailing `\b`, is complete once that character
    /// arrives: the text ends with a newline here); the final decision is the
    /// whole-text decision.
    #[test]
    fn chunked_stream_equals_whole_text(text in text(), cuts in prop::collection::vec(any::<u16>(), 0..12)) {
        let text = format!("{text}\n");
        let engine = cached("active", &["log"], &ALL);
        let whole = engine.evaluate(&CheckRequest::output(text.clone())).unwrap();
        let mut stream = engine.stream(&CheckRequest::new().with_stage(Stage::Output)).unwrap();
        let mut reported: Vec<(String, Option<usize>, Option<usize>)> = Vec::new();
        for c in chunks(&text, &cuts) {
            if let Some(update) = stream.push(&c) {
                for f in update.findings() {
                    let l = f.location.clone().unwrap();
                    let entry = (f.check_id.clone(), l.start, l.end);
                    if !reported.contains(&entry) {
                        reported.push(entry);
                    }
                }
            }
        }
        let last = stream.finish();
        prop_assert_eq!(last.is_final, Some(true));
        prop_assert_eq!(ids(&last), ids(&whole));
        prop_assert_eq!(located(&last), located(&whole));
        let mut streamed: Vec<String> = reported.iter().map(|r| r.0.clone()).collect();
        streamed.sort();
        let before = streamed.len();
        streamed.dedup();
        prop_assert_eq!(before, streamed.len(), "a hit is reported once per stream");
        let mut expected: Vec<String> = whole.findings().map(|f| f.check_id.clone()).collect();
        expected.sort();
        expected.dedup();
        if text.is_ascii() {
            prop_assert_eq!(streamed, expected);
        } else {
            // Interim updates match the text as written; the normalised
            // view of text that is not ASCII is matched at `finish`.
            for id in &streamed {
                prop_assert!(expected.contains(id), "{:?} reported but not in the whole text", id);
            }
        }
    }

    /// Without a final newline, a match at the very end may only be known at
    /// `finish`; nothing is reported early that the whole text does not hold,
    /// and the final decision is the whole-text decision.
    #[test]
    fn chunked_stream_never_reports_early(text in text(), cuts in prop::collection::vec(any::<u16>(), 0..12)) {
        let engine = cached("active", &["log"], &ALL);
        let whole = engine.evaluate(&CheckRequest::output(text.clone())).unwrap();
        let mut stream = engine.stream(&CheckRequest::new().with_stage(Stage::Output)).unwrap();
        let expected = ids(&whole);
        for c in chunks(&text, &cuts) {
            if let Some(update) = stream.push(&c) {
                for id in ids(&update) {
                    prop_assert!(expected.contains(&id), "{:?} reported early", id);
                }
            }
        }
        prop_assert_eq!(ids(&stream.finish()), expected);
    }

    /// Blocking checks: the stream is blocked before it ends exactly when
    /// the whole text is blocked (the text ends with a newline), and the final
    /// decision is the whole-text decision.
    #[test]
    fn chunked_stream_blocks_like_whole_text(text in text(), cuts in prop::collection::vec(any::<u16>(), 0..12)) {
        let text = format!("{text}\n");
        let engine = cached("active", &["block", "log", "warn"], &ALL);
        let whole = engine.evaluate(&CheckRequest::output(text.clone())).unwrap();
        let mut stream = engine.stream(&CheckRequest::new().with_stage(Stage::Output)).unwrap();
        let mut first_block: Option<Decision> = None;
        for c in chunks(&text, &cuts) {
            if let Some(update) = stream.push(&c)
                && update.decision == DecisionKind::Block && first_block.is_none()
            {
                first_block = Some(update);
            }
        }
        if text.is_ascii() {
            prop_assert_eq!(stream.is_blocked(), whole.decision == DecisionKind::Block);
            prop_assert_eq!(first_block.is_some(), whole.decision == DecisionKind::Block);
        } else if stream.is_blocked() {
            // Never blocked early on what the whole text does not block;
            // a word found only in the normalised view blocks at `finish`.
            prop_assert_eq!(whole.decision, DecisionKind::Block);
        }
        let last = stream.finish();
        prop_assert_eq!(last.decision, whole.decision);
    }

    /// The decision and the set of findings do not depend on check order.
    #[test]
    fn decision_does_not_depend_on_check_order(text in text(), order in Just(ALL.to_vec()).prop_shuffle(),
                                               fails in prop::collection::vec(prop::sample::select(&["block", "ask", "redact", "warn", "log"][..]), 11)) {
        let a = policy("active", &fails, &ALL);
        let b = policy("active", &fails, &order);
        let da = a.evaluate(&CheckRequest::output(text.clone())).unwrap();
        let db = b.evaluate(&CheckRequest::output(text)).unwrap();
        prop_assert_eq!(da.decision, db.decision);
        prop_assert_eq!(ids(&da), ids(&db));
        prop_assert_eq!(da.modified, db.modified);
    }

    /// Advisory mode reports every hit as `log` and never blocks or changes the payload.
    #[test]
    fn advisory_never_blocks(text in text(), fails in prop::collection::vec(prop::sample::select(&["block", "ask", "redact", "warn", "log"][..]), 11)) {
        let active = policy("active", &fails, &ALL);
        let advisory = policy("advisory", &fails, &ALL);
        let req = CheckRequest::output(text).interactive(false);
        let d = advisory.evaluate(&req).unwrap();
        prop_assert_eq!(d.decision, DecisionKind::Allow);
        prop_assert!(d.violations.is_empty());
        prop_assert!(d.modified.is_none());
        prop_assert!(d.warnings.iter().all(|w| w.action == FindingAction::Log));
        let a = active.evaluate(&req).unwrap();
        let hit = |d: &Decision| { let mut v: Vec<String> = d.findings().map(|f| f.check_id.clone()).collect(); v.sort(); v.dedup(); v };
        prop_assert_eq!(hit(&d), hit(&a), "advisory reports every hit");
    }

    /// After redaction, the redacted payload has no hit of a redacting check
    /// left. (Checks that look at word boundaries are left out: replacing a
    /// span with a placeholder can create a boundary next to a word that had
    /// none, which is a new match, not a leftover one.)
    #[test]
    fn redaction_leaves_no_match(text in text()) {
        let engine = cached("active", &["redact"], &BOUNDARY_FREE);
        let d = engine.evaluate(&CheckRequest::output(text.clone())).unwrap();
        if d.decision == DecisionKind::Modify {
            let redacted = d.modified.as_ref().unwrap().content.clone().unwrap();
            let again = engine.evaluate(&CheckRequest::output(redacted.clone())).unwrap();
            prop_assert_eq!(again.decision, DecisionKind::Allow, "left in {:?}", redacted);
            prop_assert!(d.findings().all(|f| f.action == FindingAction::Redact));
        } else {
            prop_assert_eq!(d.decision, DecisionKind::Allow);
            prop_assert!(d.findings().next().is_none());
        }
    }
}

/// An interim streamed decision redacts with the detector's typed
/// placeholder, as the whole-text decision does.
#[test]
fn streamed_redactions_use_typed_placeholders() {
    let engine = palisade_engine::Engine::from_yaml_str(
        "checks:\n  - { id: pii-in-output, stage: output, type: pii, on_fail: redact }\n",
    )
    .unwrap();
    let text = "write to bob.smith@fastmail.com today\n";
    let whole = engine.evaluate(&CheckRequest::output(text)).unwrap();
    let whole_content = whole.modified.as_ref().unwrap().content.clone().unwrap();
    assert!(
        whole_content.contains("[REDACTED:email]"),
        "{whole_content}"
    );
    let mut stream = engine
        .stream(&CheckRequest::new().with_stage(Stage::Output))
        .unwrap();
    let mut interim = None;
    for piece in ["write to bob.sm", "ith@fastmail.com", " today\n"] {
        if let Some(d) = stream.push(piece) {
            interim = Some(d);
        }
    }
    let interim = interim.expect("the address is reported while streaming");
    let content = interim.modified.unwrap().content.unwrap();
    assert!(content.contains("[REDACTED:email]"), "{content}");
    assert!(!content.contains("[REDACTED:pii-in-output]"), "{content}");
}
