//! Arbitrary text as a shell line: the parser never panics, reads a line
//! the same way twice, normalises idempotently, and reads quoted words as
//! written (`palisade_fuzz::check_shell`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|line: &str| {
    palisade_fuzz::check_shell(line);
});
