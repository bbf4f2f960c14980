//! Glob sets built when first needed.
//!
//! A glob's syntax is checked when the policy is read; the set of a check's
//! globs (a multi-pattern automaton) is built with the first stage that
//! evaluates the check ([`crate::policy::kinds::Whole::build`]), so that a
//! one-request process (a coding agent's hook, `palisade check`) builds
//! only the sets its request reaches. An engine that builds every stage
//! when it is made ([`crate::Engine::new`]) builds them all then, and
//! reports a set that cannot be built (over its size limit) there.

use std::sync::OnceLock;

use globset::{Candidate, Glob, GlobSet, GlobSetBuilder};

/// Parsed globs, and their set once built (or why it could not be).
#[derive(Clone, Debug, Default)]
pub(crate) struct LazyGlobSet {
    globs: Vec<Glob>,
    set: OnceLock<Result<GlobSet, String>>,
}

impl LazyGlobSet {
    /// Globs whose set is not built yet.
    pub(crate) fn new(globs: Vec<Glob>) -> Self {
        Self {
            globs,
            set: OnceLock::new(),
        }
    }

    /// Builds the set now if it is not built yet; an error says why it
    /// cannot be.
    pub(crate) fn build(&self) -> Result<(), String> {
        self.get().map(|_| ())
    }

    /// The set, built on first use.
    pub(crate) fn get(&self) -> Result<&GlobSet, String> {
        let built = self.set.get_or_init(|| {
            let mut builder = GlobSetBuilder::new();
            for g in &self.globs {
                builder.add(g.clone());
            }
            builder.build().map_err(|e| e.to_string())
        });
        built.as_ref().map_err(Clone::clone)
    }

    /// Whether a glob matches `path`; `unbuilt` when the set cannot be
    /// built (the answer that fails closed where it is asked).
    pub(crate) fn is_match_or(&self, path: &str, unbuilt: bool) -> bool {
        self.get().map_or(unbuilt, |set| set.is_match(path))
    }

    /// [`LazyGlobSet::is_match_or`] for a candidate made once.
    pub(crate) fn is_match_candidate_or(&self, path: &Candidate<'_>, unbuilt: bool) -> bool {
        self.get()
            .map_or(unbuilt, |set| set.is_match_candidate(path))
    }
}

#[cfg(test)]
mod tests {
    use globset::GlobBuilder;

    use super::*;

    #[test]
    fn a_set_matches_once_built_on_first_use() {
        let set = LazyGlobSet::new(vec![Glob::new("*.pem").unwrap()]);
        assert!(set.set.get().is_none());
        assert!(set.is_match_or("key.pem", false));
        assert!(!set.is_match_or("key.pub", true));
        assert!(set.set.get().is_some());
    }

    #[test]
    fn a_set_over_its_size_limit_answers_the_fail_closed_value() {
        // Each glob is fine alone; their set is over globset's size limit.
        let globs: Vec<Glob> = (0..400)
            .map(|i| {
                let body: String = (0..600)
                    .map(|j| char::from(b'a' + ((i * 7 + j * 13) % 26) as u8))
                    .collect();
                GlobBuilder::new(&format!("x{i}{body}*{body}"))
                    .case_insensitive(true)
                    .build()
                    .unwrap()
            })
            .collect();
        let set = LazyGlobSet::new(globs);
        let err = set.build().unwrap_err();
        assert!(err.contains("NFA"), "{err}");
        assert!(set.is_match_or("anything", true));
        assert!(!set.is_match_or("anything", false));
        assert!(set.is_match_candidate_or(&Candidate::new("x"), true));
        assert!(!set.is_match_candidate_or(&Candidate::new("x"), false));
    }
}
