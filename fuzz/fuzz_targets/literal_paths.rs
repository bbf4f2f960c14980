//! Random literal sets and texts through every path of the literal filter
//! this CPU has (scalar, AVX2, AVX-512): each reports what the scalar path
//! reports, which is what a naive search finds, and none reads outside the
//! text or the filter's tables (`palisade_fuzz::check_literal_paths`). The
//! search for base64 blocks to decode, on every path, finds what its byte
//! loop finds in the same text.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    palisade_fuzz::check_literal_paths(data);
});
