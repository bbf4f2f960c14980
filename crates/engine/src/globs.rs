//! Glob sets built when first needed, as one forward automaton.
//!
//! A glob's syntax is checked when the policy is read; the set of a check's
//! globs is built with the first stage that evaluates the check
//! ([`crate::policy::kinds::Whole::build`]), so that a one-request process
//! (a coding agent's hook, `palisade check`) builds only the sets its
//! request reaches. An engine that builds every stage when it is made
//! ([`crate::Engine::new`]) builds them all then, and reports a set that
//! cannot be built (over its size limit) there.
//!
//! A set means what `globset`'s `GlobSet` means: a glob matches a path when
//! its regex ([`Glob::regex`], anchored at both ends) matches the path's
//! bytes. It is built as one forward Thompson NFA of those regexes and
//! searched by a lazy DFA, falling back to a PikeVM over the same NFA if the
//! lazy DFA gives up; `GlobSet` builds a full `meta::Regex` (a forward and
//! a reverse NFA, a dense DFA when small, literal strategies), most of
//! which a set of short, anchored paths never uses.

use std::panic::{RefUnwindSafe, UnwindSafe};
use std::sync::OnceLock;

use globset::Glob;
use regex_automata::nfa::thompson::{self, WhichCaptures, pikevm::PikeVM};
use regex_automata::util::pool::Pool;
use regex_automata::util::syntax;
use regex_automata::{Anchored, Input, MatchKind, PatternSet, hybrid};

/// The size limit of a set's NFA (`globset`'s).
const NFA_SIZE_LIMIT: usize = 10 << 20;
/// The lazy DFA's cache (`globset`'s).
const CACHE_CAPACITY: usize = 10 << 20;

/// Parsed globs, and their matcher once built (or why it could not be).
#[derive(Clone, Debug, Default)]
pub(crate) struct LazyGlobSet {
    globs: Vec<Glob>,
    set: OnceLock<Result<GlobMatcher, String>>,
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

    /// The matcher, built on first use.
    pub(crate) fn get(&self) -> Result<&GlobMatcher, String> {
        self.set
            .get_or_init(|| GlobMatcher::new(&self.globs))
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether a glob matches `path`; `unbuilt` when the set cannot be
    /// built (the answer that fails closed where it is asked).
    pub(crate) fn is_match_or(&self, path: &str, unbuilt: bool) -> bool {
        self.get().map_or(unbuilt, |set| set.is_match(path))
    }
}

type Caches = (hybrid::dfa::Cache, Option<thompson::pikevm::Cache>);
type CacheFn = Box<dyn Fn() -> Caches + Send + Sync + UnwindSafe + RefUnwindSafe>;

/// A built glob set (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct GlobMatcher {
    /// `None` without globs.
    engines: Option<Engines>,
}

/// A set's lazy DFA and PikeVM, and their caches.
struct Engines {
    dfa: hybrid::dfa::DFA,
    pikevm: PikeVM,
    caches: Pool<Caches, CacheFn>,
}

impl Engines {
    fn new(dfa: hybrid::dfa::DFA, pikevm: PikeVM) -> Self {
        let for_cache = dfa.clone();
        let create: CacheFn = Box::new(move || (for_cache.create_cache(), None));
        Self {
            dfa,
            pikevm,
            caches: Pool::new(create),
        }
    }
}

impl Clone for Engines {
    fn clone(&self) -> Self {
        Self::new(self.dfa.clone(), self.pikevm.clone())
    }
}

impl std::fmt::Debug for Engines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engines")
            .field("patterns", &self.dfa.pattern_len())
            .finish_non_exhaustive()
    }
}

impl GlobMatcher {
    fn new(globs: &[Glob]) -> Result<Self, String> {
        if globs.is_empty() {
            return Ok(Self { engines: None });
        }
        let regexes: Vec<&str> = globs.iter().map(Glob::regex).collect();
        let nfa = thompson::Compiler::new()
            .syntax(syntax::Config::new().utf8(false).dot_matches_new_line(true))
            .configure(
                thompson::Config::new()
                    .which_captures(WhichCaptures::None)
                    .nfa_size_limit(Some(NFA_SIZE_LIMIT)),
            )
            .build_many(&regexes)
            .map_err(|e| e.to_string())?;
        let dfa = hybrid::dfa::DFA::builder()
            .configure(
                hybrid::dfa::DFA::config()
                    .match_kind(MatchKind::All)
                    .cache_capacity(CACHE_CAPACITY)
                    .skip_cache_capacity_check(true),
            )
            .build_from_nfa(nfa.clone())
            .map_err(|e| e.to_string())?;
        let pikevm = PikeVM::builder()
            .configure(PikeVM::config().match_kind(MatchKind::All))
            .build_from_nfa(nfa)
            .map_err(|e| e.to_string())?;
        Ok(Self {
            engines: Some(Engines::new(dfa, pikevm)),
        })
    }

    /// Whether some glob matches `path`.
    pub(crate) fn is_match(&self, path: &str) -> bool {
        let Some(e) = &self.engines else {
            return false;
        };
        let input = Input::new(path).anchored(Anchored::Yes).earliest(true);
        let mut caches = e.caches.get();
        match e.dfa.try_search_fwd(&mut caches.0, &input) {
            Ok(m) => m.is_some(),
            // The lazy DFA gave up (its cache cleared too often): the
            // PikeVM answers.
            Err(_) => {
                let cache = caches.1.get_or_insert_with(|| e.pikevm.create_cache());
                e.pikevm.is_match(cache, input)
            }
        }
    }

    /// The indices of the globs matching `path`, in increasing order.
    pub(crate) fn matches_into(&self, path: &str, into: &mut Vec<usize>) {
        into.clear();
        let Some(e) = &self.engines else {
            return;
        };
        let input = Input::new(path).anchored(Anchored::Yes);
        let mut set = PatternSet::new(e.dfa.pattern_len());
        let mut caches = e.caches.get();
        if e.dfa
            .try_which_overlapping_matches(&mut caches.0, &input, &mut set)
            .is_err()
        {
            set.clear();
            let cache = caches.1.get_or_insert_with(|| e.pikevm.create_cache());
            e.pikevm.which_overlapping_matches(cache, &input, &mut set);
        }
        into.extend(set.iter().map(|p| p.as_usize()));
    }

    /// [`GlobMatcher::matches_into`], returned.
    pub(crate) fn matches(&self, path: &str) -> Vec<usize> {
        let mut out = Vec::new();
        self.matches_into(path, &mut out);
        out
    }
}

/// Glob texts whose set is over the size limit though each alone is fine,
/// with `sep` after each one's first word.
#[cfg(test)]
pub(crate) fn oversized(sep: &str) -> Vec<String> {
    (0..400)
        .map(|i| {
            let body: String = (0..600)
                .map(|j| char::from(b'a' + ((i * 7 + j * 13) % 26) as u8))
                .collect();
            format!("x{i}{sep}{body}*{body}")
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use globset::{GlobBuilder, GlobSetBuilder};

    use super::*;

    #[test]
    fn a_set_matches_once_built_on_first_use() {
        let set = LazyGlobSet::new(vec![Glob::new("*.pem").unwrap()]);
        assert!(set.set.get().is_none());
        assert!(set.is_match_or("key.pem", false));
        assert!(!set.is_match_or("key.pub", true));
        assert!(set.set.get().is_some());
        assert!(!LazyGlobSet::default().is_match_or("x", true), "no globs");
    }

    #[test]
    fn a_set_over_its_size_limit_answers_the_fail_closed_value() {
        // Each glob is fine alone; their set is over the size limit.
        let globs: Vec<Glob> = oversized("")
            .iter()
            .map(|g| GlobBuilder::new(g).case_insensitive(true).build().unwrap())
            .collect();
        let set = LazyGlobSet::new(globs);
        let err = set.build().unwrap_err();
        assert!(err.contains("limit"), "{err}");
        assert!(set.is_match_or("anything", true));
        assert!(!set.is_match_or("anything", false));
    }

    /// A small deterministic generator (xorshift), for the comparison below.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }
    }

    #[test]
    fn a_set_means_what_globsets_set_means() {
        const GLOB_PARTS: &[&str] = &[
            "a", "b", "B", ".", "/", "*", "**", "**/", "/**", "?", "[a-c]", "[!a]", "[.]",
            "{a,b/}", "{,*}", "\\*", "x", "é", " ", "-",
        ];
        const PATH_PARTS: &[&str] = &[
            "a", "b", "A", "B", ".", "/", "x", "é", "É", " ", "-", "*", "ab", "\n",
        ];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut compared, mut matched) = (0, 0);
        for round in 0..300 {
            let mut globs = Vec::new();
            for _ in 0..1 + rng.below(12) {
                let text: String = (0..1 + rng.below(6))
                    .map(|_| rng.pick(GLOB_PARTS))
                    .collect();
                let built = GlobBuilder::new(&text)
                    .literal_separator(rng.below(2) == 0)
                    .case_insensitive(rng.below(2) == 0)
                    .backslash_escape(rng.below(3) != 0)
                    .empty_alternates(true)
                    .build();
                if let Ok(g) = built {
                    globs.push(g);
                }
            }
            let mut reference = GlobSetBuilder::new();
            for g in &globs {
                reference.add(g.clone());
            }
            let reference = reference.build().unwrap();
            let ours = LazyGlobSet::new(globs.clone());
            let matcher = ours.get().unwrap();
            for _ in 0..60 {
                let path: String = (0..rng.below(8)).map(|_| rng.pick(PATH_PARTS)).collect();
                assert_eq!(
                    matcher.matches(&path),
                    reference.matches(&path),
                    "round {round}: {:?} on {path:?}",
                    globs.iter().map(Glob::glob).collect::<Vec<_>>()
                );
                assert_eq!(ours.is_match_or(&path, false), reference.is_match(&path));
                compared += 1;
                matched += usize::from(reference.is_match(&path));
            }
        }
        assert_eq!(compared, 300 * 60);
        eprintln!("{matched} of {compared} paths matched");
        assert!(
            matched > compared / 10,
            "{matched} of {compared} paths matched"
        );
    }
}
