//! Arbitrary bytes as a text and the chunks to stream it in (see
//! `palisade_fuzz::split`), through a fixed output-stage policy: the final
//! decision has the same (check id, action) findings and kind as evaluating
//! the whole text at once, and every check `push` reports along the way is
//! among the whole-text findings, with the same action.

#![no_main]

use std::collections::BTreeSet;
use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use palisade_engine::Engine;
use palisade_fuzz::{check_decision, finding_set, split};
use palisade_protocol::{CheckRequest, DecisionKind, Stage};

static ENGINE: LazyLock<Engine> =
    LazyLock::new(|| palisade_fuzz::fixed_engine(palisade_fuzz::STREAM_POLICY));

fuzz_target!(
    // A broken fixture fails here, at start-up, not as a crash artifact.
    init: {
        LazyLock::force(&ENGINE);
    },
    |data: &[u8]| {
        let engine = &*ENGINE;
        let (text, chunks) = split(data);
        let whole = match engine.evaluate(&CheckRequest::output(text.clone())) {
            Ok(d) => d,
            Err(e) => panic!("whole-text evaluation failed: {e}"),
        };
        check_decision(engine, &whole);
        let expected = finding_set(&whole);
        let expected_ids: BTreeSet<&str> = expected.iter().map(|(id, _)| id.as_str()).collect();

        let mut stream = match engine.stream(&CheckRequest::new().with_stage(Stage::Output)) {
            Ok(s) => s,
            Err(e) => panic!("cannot start a stream: {e}"),
        };
        for chunk in &chunks {
            let Some(update) = stream.push(chunk) else {
                continue;
            };
            check_decision(engine, &update);
            for (id, action) in finding_set(&update) {
                assert!(
                    expected_ids.contains(id.as_str()),
                    "push reported check `{id}` ({action}) after {:?}, but the whole text {text:?} has no finding for it",
                    stream.text(),
                );
                assert!(
                    expected.contains(&(id.clone(), action)),
                    "push reported check `{id}` as `{action}`, the whole text as {:?}",
                    expected.iter().find(|(e, _)| *e == id).map(|(_, a)| a),
                );
            }
        }
        if stream.is_blocked() {
            assert_eq!(
                whole.decision,
                DecisionKind::Block,
                "the stream was blocked, the whole text is not: {text:?}"
            );
        }
        assert_eq!(stream.text(), text, "the stream lost or reordered text");
        let last = stream.finish();
        assert_eq!(last.is_final, Some(true), "the last decision is not final");
        assert_eq!(
            finding_set(&last),
            expected,
            "final streamed findings differ from whole-text findings: {text:?}"
        );
        assert_eq!(
            last.decision, whole.decision,
            "final streamed decision differs from whole-text decision: {text:?}"
        );
    }
);
