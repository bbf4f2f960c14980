#![doc = include_str!("../README.md")]
// An index out of range is a panic in the decision path: indexing is
// written `.get()`, or the function says why its indices are in range.
#![deny(clippy::indexing_slicing)]

mod condition;
mod detect;
mod engine;
mod error;
mod eval;
mod flow;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
#[cfg(test)]
mod generated;
mod input;
pub mod limits;
mod paths;
mod pattern;
pub mod policy;
mod scan;
mod shell;
pub mod suggest;
mod time;
pub mod tooldefs;
mod tools;
mod view;

pub use detect::addressed::{AddressedInstructions, addressed_instructions};

/// The code that takes the literal filter's first look at every string in
/// this process: `scalar`, `avx2` or `avx512`. Chosen once, from the
/// `PALISADE_SCAN` environment variable (`auto`, the default, takes the
/// fastest this CPU has: AVX-512 on Intel's CPUs with it, else AVX2, else
/// the scalar loop); every path gives the same decisions.
///
/// ```
/// let path = palisade_engine::scan_path();
/// assert!(["scalar", "avx2", "avx512"].contains(&path));
/// ```
pub fn scan_path() -> &'static str {
    scan::literal::simd::Path::chosen().name()
}

/// The path `PALISADE_SCAN` asks for, or why it cannot be taken: a value
/// that names no path, or a path this CPU cannot run. [`scan_path`] takes
/// the scalar path then; a program should refuse to start instead (the
/// `palisade` command does).
///
/// ```
/// // Unset, or `auto`, is always accepted.
/// if std::env::var_os("PALISADE_SCAN").is_none() {
///     assert!(palisade_engine::scan_setting().is_ok());
/// }
/// ```
pub fn scan_setting() -> Result<&'static str, String> {
    let value = std::env::var(scan::literal::simd::ENV).ok();
    scan::literal::simd::Path::from_setting(value.as_deref()).map(|p| p.name())
}
pub use engine::Engine;

/// The embedded default policy (YAML): credentials and personal data kept
/// out of answers and tool output, dangerous shell commands confirmed,
/// secret files protected, writes outside the workspace confirmed.
pub const DEFAULT_POLICY: &str = include_str!("default_policy.yaml");

/// [`DEFAULT_POLICY`] as JSON, generated from it (`cargo xtask generate`;
/// a test keeps the two equal): loading it skips the YAML parser, which
/// was a third of a pre-tool hook's policy reading.
const DEFAULT_POLICY_JSON: &str = include_str!("default_policy.json");
pub use error::{Place, PolicyError, PolicyErrors, RequestError, placed_line, without_positions};
pub use eval::closest_member;
pub use eval::stream;
pub use eval::{
    AsyncOutcome, Evaluation, RateLimitKey, default_ask_replacement, default_replacement,
};
pub use flow::session::{SessionError, SessionLimits, SessionStep, Sessions};
pub use input::request::{parse_json, parse_request, parse_request_value};
pub use policy::read::json_type;
pub use policy::{Check, CheckKind, CheckType, OnError, OnFail, Policy};
pub use time::{Clock, SystemClock};
