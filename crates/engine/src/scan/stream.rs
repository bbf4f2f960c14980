//! The automata a stage streams with: the stage's blocklist words in one
//! Aho-Corasick DFA and its regex patterns in one multi-pattern lazy DFA
//! (relaxed as in the `pattern` module, so it never gives up on non-ASCII
//! text). The scanner that steps them over an answer is
//! `StreamScanner` (in the evaluator).

use std::sync::OnceLock;

use regex_automata::MatchKind;
use regex_automata::hybrid::dfa::DFA;
use regex_automata::nfa::thompson;
use regex_syntax::hir::Hir;

use crate::pattern::{self, Pattern};
use crate::scan::NO_LABEL;
use crate::scan::Text;

/// Longest window used to confirm a pattern whose matches have no length bound.
pub(crate) const UNBOUNDED_WINDOW: usize = 64 * 1024;

#[derive(Clone, Debug)]
pub(crate) enum Target {
    Word {
        check: u32,
        bytes: Box<[u8]>,
        case_insensitive: bool,
        whole: bool,
    },
    Regex {
        check: u32,
        exact: pattern::Exact,
        max_len: Option<usize>,
        whole: bool,
        validate: Option<fn(&str) -> bool>,
        /// The built-in detector ([`crate::scan::NO_LABEL`]: the check's own pattern).
        label: u32,
    },
}

impl Target {
    pub(crate) fn check(&self) -> u32 {
        match self {
            Target::Word { check, .. } | Target::Regex { check, .. } => *check,
        }
    }
}

/// The stage's blocklist words, and their automaton, built by the first
/// stream: a DFA (the fastest to step, and the slowest to build: most of
/// the time to build a large policy's stages), else, when the DFA would
/// exceed its size limit, a contiguous NFA (slower, the same matches).
#[derive(Debug)]
pub(crate) struct Words {
    patterns: Vec<Box<[u8]>>,
    automaton: OnceLock<Result<WordAutomaton, String>>,
}

impl Clone for Words {
    fn clone(&self) -> Self {
        let automaton = OnceLock::new();
        if let Some(built) = self.automaton.get() {
            let _ = automaton.set(built.clone());
        }
        Self {
            patterns: self.patterns.clone(),
            automaton,
        }
    }
}

/// An Aho-Corasick automaton over the words.
#[derive(Clone, Debug)]
pub(crate) enum WordAutomaton {
    Dfa(aho_corasick::dfa::DFA),
    Nfa(aho_corasick::nfa::contiguous::NFA),
}

impl Words {
    /// The automaton, built on first use.
    pub(crate) fn automaton(&self) -> Result<&WordAutomaton, &str> {
        self.automaton
            .get_or_init(|| {
                aho_corasick::dfa::DFA::builder()
                    .ascii_case_insensitive(true)
                    .match_kind(aho_corasick::MatchKind::Standard)
                    .build(&self.patterns)
                    .map(WordAutomaton::Dfa)
                    .or_else(|_| {
                        aho_corasick::nfa::contiguous::NFA::builder()
                            .ascii_case_insensitive(true)
                            .match_kind(aho_corasick::MatchKind::Standard)
                            .build(&self.patterns)
                            .map(WordAutomaton::Nfa)
                    })
                    .map_err(|e| format!("cannot build the stream word automaton: {e}"))
            })
            .as_ref()
            .map_err(String::as_str)
    }
}

/// The automata a stage streams with.
#[derive(Clone, Debug)]
pub(crate) struct StreamAutomaton {
    pub(crate) words: Option<Words>,
    pub(crate) word_targets: Vec<Target>,
    pub(crate) dfa: Option<DFA>,
    pub(crate) regex_targets: Vec<Target>,
    /// Regex patterns with no look-around at all: a match ending at the end
    /// of what has arrived is final.
    pub(crate) lookless: Vec<bool>,
}

impl StreamAutomaton {
    /// The automata of a stage's text checks: each check's index in the
    /// policy and the pieces it compiled to.
    pub(crate) fn build<'a>(
        stage_texts: impl IntoIterator<Item = (u32, &'a [Text])>,
    ) -> Result<Self, String> {
        let mut hirs: Vec<Hir> = Vec::new();
        let mut regex_targets = Vec::new();
        let mut words: Vec<Box<[u8]>> = Vec::new();
        let mut word_targets = Vec::new();
        let mut lookless = Vec::new();
        let mut add_regex = |compiled: &Pattern,
                             check: u32,
                             whole: bool,
                             validate: Option<fn(&str) -> bool>,
                             label: u32| {
            let hir = compiled.hir();
            // Decided on the exact pattern: its relaxed form may have lost a
            // trailing `\b` that needs the next character.
            lookless.push(hir.properties().look_set().is_empty());
            regex_targets.push(Target::Regex {
                check,
                exact: compiled.exact.clone(),
                max_len: hir.properties().maximum_len(),
                whole,
                validate,
                label,
            });
            hirs.push(pattern::relax(hir));
        };
        for (c, texts) in stage_texts {
            for text in texts {
                match text {
                    Text::Pattern(p) => add_regex(p, c, false, None, NO_LABEL),
                    Text::Word {
                        folded: Some(p),
                        whole,
                        ..
                    } => add_regex(p, c, *whole, None, NO_LABEL),
                    Text::Word {
                        word,
                        case_sensitive,
                        whole,
                        folded: None,
                    } => {
                        let bytes: Box<[u8]> = if *case_sensitive {
                            word.as_bytes().into()
                        } else {
                            word.as_bytes().to_ascii_lowercase().into()
                        };
                        words.push(bytes.clone());
                        word_targets.push(Target::Word {
                            check: c,
                            bytes,
                            case_insensitive: !case_sensitive,
                            whole: *whole,
                        });
                    }
                    Text::Detector {
                        family,
                        index,
                        label,
                        validate,
                    } => {
                        for p in Text::detector_patterns(family, *index)? {
                            add_regex(p, c, false, *validate, *label);
                        }
                    }
                }
            }
        }
        let words_dfa = (!words.is_empty()).then(|| Words {
            patterns: words,
            automaton: OnceLock::new(),
        });
        let dfa = if hirs.is_empty() {
            None
        } else {
            let nfa = thompson::Compiler::new()
                .configure(
                    thompson::Config::new()
                        .nfa_size_limit(Some(crate::limits::MAX_REGEX_BYTES.saturating_mul(16))),
                )
                .build_many_from_hir(&hirs)
                .map_err(|e| format!("patterns are too large once compiled: {e}"))?;
            Some(
                DFA::builder()
                    .configure(
                        DFA::config()
                            .match_kind(MatchKind::All)
                            .cache_capacity(4 * 1024 * 1024)
                            .skip_cache_capacity_check(true),
                    )
                    .build_from_nfa(nfa)
                    .map_err(|e| format!("cannot build the stream automaton: {e}"))?,
            )
        };
        Ok(Self {
            words: words_dfa,
            word_targets,
            dfa,
            regex_targets,
            lookless,
        })
    }
}
