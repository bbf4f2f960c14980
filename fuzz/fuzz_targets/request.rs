//! Arbitrary text as a request: parsing never panics, and a request that
//! parses is evaluated against a fixed policy (every check type, all stages,
//! redacting and whole-word checks) without panicking, with a consistent
//! decision: `allowed` matches the decision, `modify` carries `modified`,
//! and the findings agree with the decision.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use palisade_engine::{Engine, parse_request};

static ENGINE: LazyLock<Engine> =
    LazyLock::new(|| palisade_fuzz::fixed_engine(palisade_fuzz::REQUEST_POLICY));

fuzz_target!(
    // A broken fixture fails here, at start-up, not as a crash artifact.
    init: {
        LazyLock::force(&ENGINE);
    },
    |text: &str| {
        let Ok(request) = parse_request(text) else {
            return;
        };
        // Invalid values and unknown check ids are refused with an error: fine.
        if let Ok(decision) = ENGINE.evaluate(&request) {
            palisade_fuzz::check_decision(&ENGINE, &decision);
        }
    }
);
