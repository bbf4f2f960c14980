//! Arbitrary text as a JSON policy: loading never panics, and a policy that
//! compiles evaluates and streams the probe requests without panicking,
//! without failing, and with consistent decisions.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use palisade_engine::Engine;
use palisade_protocol::CheckRequest;

static PROBES: LazyLock<Vec<CheckRequest>> = LazyLock::new(palisade_fuzz::probes);

fuzz_target!(
    // A broken fixture fails here, at start-up, not as a crash artifact.
    init: {
        LazyLock::force(&PROBES);
    },
    |text: &str| {
        if let Ok(engine) = Engine::from_json_str(text) {
            palisade_fuzz::exercise(&engine, &PROBES);
        }
    }
);
