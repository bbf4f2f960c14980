//! The automata a stage streams with: the stage's blocklist words in one
//! Aho-Corasick DFA and its regex patterns in one multi-pattern lazy DFA
//! (relaxed as in the `pattern` module, so it never gives up on non-ASCII
//! text). The scanner that steps them over an answer is
//! `StreamScanner` (in the evaluator).

use regex_automata::hybrid::dfa::DFA;
use regex_automata::nfa::thompson;
use regex_automata::{MatchKind, meta};
use regex_syntax::hir::Hir;

use crate::pattern;
use crate::policy::{Check, CheckKind};
use crate::scan::NO_LABEL;

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
        exact: meta::Regex,
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

/// The automata a stage streams with.
#[derive(Clone, Debug)]
pub(crate) struct StreamAutomaton {
    pub(crate) words: Option<aho_corasick::dfa::DFA>,
    pub(crate) word_targets: Vec<Target>,
    pub(crate) dfa: Option<DFA>,
    pub(crate) regex_targets: Vec<Target>,
    /// Regex patterns with no look-around at all: a match ending at the end
    /// of what has arrived is final.
    pub(crate) lookless: Vec<bool>,
}

impl StreamAutomaton {
    /// The automata of a stage's checks (`stage_checks`, indices into the
    /// policy's `checks`).
    pub(crate) fn build(stage_checks: &[u32], checks: &[Check]) -> Result<Self, String> {
        let mut hirs: Vec<Hir> = Vec::new();
        let mut regex_targets = Vec::new();
        let mut words: Vec<Box<[u8]>> = Vec::new();
        let mut word_targets = Vec::new();
        let mut lookless = Vec::new();
        let mut add_regex = |hir: Hir,
                             check: u32,
                             whole: bool,
                             validate: Option<fn(&str) -> bool>,
                             label: u32|
         -> Result<(), String> {
            // Decided on the exact pattern: its relaxed form may have lost a
            // trailing `\b` that needs the next character.
            lookless.push(hir.properties().look_set().is_empty());
            regex_targets.push(Target::Regex {
                check,
                exact: pattern::exact_regex(&hir)?,
                max_len: hir.properties().maximum_len(),
                whole,
                validate,
                label,
            });
            hirs.push(pattern::relax(&hir));
            Ok(())
        };
        for &c in stage_checks {
            let Some(check) = checks.get(c as usize) else {
                continue;
            };
            match &check.kind {
                CheckKind::Regex { patterns } => {
                    for p in patterns {
                        add_regex(pattern::parse(p)?, c, false, None, NO_LABEL)?;
                    }
                }
                CheckKind::Blocklist {
                    words: list,
                    case_sensitive,
                    whole_words,
                } => {
                    for w in list {
                        if *case_sensitive || w.is_ascii() {
                            let bytes: Box<[u8]> = if *case_sensitive {
                                w.as_bytes().into()
                            } else {
                                w.as_bytes().to_ascii_lowercase().into()
                            };
                            words.push(bytes.clone());
                            word_targets.push(Target::Word {
                                check: c,
                                bytes,
                                case_insensitive: !case_sensitive,
                                whole: *whole_words,
                            });
                        } else {
                            let source = format!("(?i){}", regex_syntax::escape(w));
                            add_regex(pattern::parse(&source)?, c, *whole_words, None, NO_LABEL)?;
                        }
                    }
                }
                CheckKind::Secrets { detectors } => {
                    for (i, d) in crate::detect::SECRETS.iter().enumerate() {
                        if detectors.is_empty() || detectors.iter().any(|x| x == d.id) {
                            let label = crate::detect::label(crate::detect::Kind::Secret, i);
                            add_regex(pattern::parse(d.pattern)?, c, false, d.validate, label)?;
                        }
                    }
                }
                CheckKind::Pii { entities } => {
                    for (i, d) in crate::detect::PII.iter().enumerate() {
                        if entities.is_empty() || entities.iter().any(|x| x == d.id) {
                            let label = crate::detect::label(crate::detect::Kind::Pii, i);
                            add_regex(pattern::parse(d.pattern)?, c, false, d.validate, label)?;
                        }
                    }
                }
                CheckKind::ToolPattern { .. }
                | CheckKind::Condition { .. }
                | CheckKind::RateLimit { .. }
                | CheckKind::Schema { .. }
                | CheckKind::Path { .. }
                | CheckKind::Workspace { .. }
                | CheckKind::LlmJudge { .. }
                | CheckKind::Mcp { .. }
                | CheckKind::Moderation { .. }
                | CheckKind::Command { .. } => {}
            }
        }
        let words_dfa = if words.is_empty() {
            None
        } else {
            Some(
                aho_corasick::dfa::DFA::builder()
                    .ascii_case_insensitive(true)
                    .match_kind(aho_corasick::MatchKind::Standard)
                    .build(&words)
                    .map_err(|e| format!("cannot build the stream word automaton: {e}"))?,
            )
        };
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
