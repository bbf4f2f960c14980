//! Test support for the source files the engine's tests generate
//! (`detect/plans.rs`, `view/skeletons.rs`).

/// Checks that `committed` (a generated file under `src/`, included by the
/// caller) is what its generator renders now, or, with the environment
/// variable `var` set, rewrites the file. Returns whether the file was
/// checked (`false` once rewritten: the caller's other checks would see the
/// old, included text).
pub(crate) fn fresh(var: &str, file: &str, committed: &str, rendered: &str, test: &str) -> bool {
    if std::env::var_os(var).is_some() {
        let path = format!("{}/src/{file}", env!("CARGO_MANIFEST_DIR"));
        std::fs::write(&path, rendered).unwrap_or_else(|e| panic!("{path}: {e}"));
        return false;
    }
    assert!(
        committed == rendered,
        "{file} is stale: run `{var}=1 cargo test -p palisade-engine --lib {test}`"
    );
    true
}
