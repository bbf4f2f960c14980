//! Arbitrary text as a file target: resolution never panics, and what it
//! resolves is normal, stable, placed consistently in the workspace and
//! matched by the rules that name it (`palisade_fuzz::check_path`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|target: &str| {
    palisade_fuzz::check_path(target);
});
