//! Multi-pattern scanning: every regex pattern and blocklist word of a stage
//! found with a fixed number of passes over each string, however many checks
//! there are.
//!
//! A stage's [`StageMatcher`] holds
//! - one literal filter ([`literal`]) over all blocklist words and the
//!   prefix literals of every regex that has good ones; a regex candidate is
//!   confirmed by running its exact regex anchored at the candidate,
//! - one multi-pattern lazy DFA over the relaxed form of the remaining
//!   regexes ([`pattern`]), confirmed per reported pattern with the exact regex.

mod common_windows;
pub(crate) mod fold;
pub(crate) mod literal;
pub(crate) mod stream;

use crate::pattern::plan::Find;
use crate::pattern::{self, Pattern};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use regex_automata::{Anchored, Input, PatternSet, meta};
use regex_syntax::hir::Hir;

use literal::{LiteralSet, LiteralSetBuilder};

/// Receives hits while a string is scanned.
pub(crate) trait Sink {
    /// Whether hits of this check are wanted (it is active).
    fn wants(&mut self, check: u32) -> bool;
    /// Whether every hit of this check is wanted, not only the leftmost.
    fn every(&self, check: u32) -> bool;
    /// A hit of `check` on bytes `start..end` of the string; `label` is the
    /// built-in detector that found it ([`NO_LABEL`] for the check's own patterns).
    fn hit(&mut self, check: u32, start: usize, end: usize, label: u32);
}

#[derive(Clone, Copy, Debug)]
enum Target {
    Word {
        check: u32,
        len: u32,
        whole: bool,
        /// Case-insensitive: also found in the folded copy of the text.
        folds: bool,
    },
    /// Every match of the regex starts with this literal.
    Prefix { regex: u32 },
    /// Every match of the regex contains one of its gate literals.
    Gate { regex: u32 },
    /// Every match of the regex contains a match of its guard, which starts
    /// with this literal.
    Guard { regex: u32 },
}

#[derive(Clone, Debug)]
struct RegexEntry {
    check: u32,
    exact: pattern::Exact,
    /// A blocklist word compiled as a regex, with `whole_words`.
    whole: bool,
    /// A built-in detector: its index in the detector table, and its validator.
    label: u32,
    validate: Option<fn(&str) -> bool>,
    /// A built-in detector's choice of spans inside a match.
    focus: Option<crate::detect::Focus>,
    /// No match spans a line feed: a gated pattern is confirmed on the lines
    /// that hold its gate literal only.
    single_line: bool,
    /// A part of the pattern every match contains, starting with literals
    /// ([`pattern::guard`]), relaxed ([`pattern::relax`]); run anchored at
    /// their occurrences.
    guard: Option<pattern::Exact>,
    /// A pattern found by its prefix literals: the pattern relaxed, from
    /// which its quick DFA is built like a guard's.
    prefixed: Option<Hir>,
    /// With a guard or prefix literals: once [`GUARD_DFA_AFTER`]
    /// occurrences of its literals have been seen, the guard (or the
    /// prefixed pattern) as a DFA that turns most occurrences away cheaply
    /// ([`pattern::guard_dfa`]). Built then, not at load: it takes
    /// a millisecond or two, which a policy whose guards never meet their
    /// literals should not pay, nor a hook that meets a few (each costs
    /// the regex a microsecond or less).
    guard_dfa: OnceLock<Option<Box<GuardDfa>>>,
    /// Occurrences of the guard's literals seen before its DFA was built.
    met: Met,
    /// With a guard or prefix literals: their ids in the stage's filter.
    guard_literals: std::ops::Range<u32>,
    /// With a guard: the characters a match can hold before it
    /// ([`pattern::Guard::head`]), sorted ranges.
    head: Option<Vec<(char, char)>>,
    /// The head is one repeated class: see [`confirm_guarded`].
    single_head: bool,
    /// A single-line residual pattern with Unicode word boundaries: the
    /// pattern without them. Its matches (fast engines) pick the lines the
    /// exact pattern (slower on non-ASCII text) runs on.
    relaxed: Option<pattern::Exact>,
}

/// A guard's DFAs ([`pattern::guard_dfa`]), and where the first stands once it has
/// read each of the guard's literals.
#[derive(Clone, Debug)]
struct GuardDfa {
    dfa: pattern::GuardDfa,
    /// The id of the guard's first literal in the stage's filter.
    first: u32,
    /// By literal, from `first`: the DFA's state once it has read the
    /// literal as the filter stores it ([`pattern::guard_state_after`]);
    /// `None` when the DFA's start depends on what precedes the guard, or
    /// the literal already decides.
    after: Vec<Option<regex_automata::util::primitives::StateID>>,
}

impl GuardDfa {
    /// Whether the guard matches nowhere starting at `start`, where the
    /// filter found `literal`, by at most `window` bytes of the DFA
    /// ([`pattern::guard_dies`]). Where the text holds the literal as the
    /// filter stores it (most occurrences), the DFA starts after it.
    fn dies(
        &self,
        literals: &LiteralSet,
        literal: u32,
        hay: &[u8],
        start: usize,
        window: usize,
    ) -> bool {
        let after = literal
            .checked_sub(self.first)
            .and_then(|i| self.after.get(i as usize).copied().flatten());
        if let Some(state) = after
            && let Some(bytes) = literals.bytes(literal)
            && hay.get(start..start + bytes.len()) == Some(bytes)
        {
            return pattern::guard_dies_from(
                &self.dfa,
                state,
                hay,
                start + bytes.len(),
                start.saturating_add(window),
            );
        }
        pattern::guard_dies(&self.dfa, hay, start, window)
    }
}

impl RegexEntry {
    /// The guard's DFA, built on first use, with its states after each of
    /// the guard's literals (in `literals`, the stage's filter).
    fn guard_dfa(&self, literals: &LiteralSet) -> Option<&GuardDfa> {
        self.guard_dfa
            .get_or_init(|| {
                let hir = match &self.guard {
                    Some(guard) => guard.hir(),
                    None => self.prefixed.as_ref()?,
                };
                let dfa = pattern::guard_dfa(hir)?;
                let after = self
                    .guard_literals
                    .clone()
                    .map(|id| {
                        literals
                            .bytes(id)
                            .and_then(|bytes| pattern::guard_state_after(&dfa, bytes))
                    })
                    .collect();
                Some(Box::new(GuardDfa {
                    dfa,
                    first: self.guard_literals.start,
                    after,
                }))
            })
            .as_deref()
    }

    /// [`Self::guard_dfa`] once the literals have been met `after` times
    /// (this one counted); `None` before.
    fn guard_dfa_in_use(&self, literals: &LiteralSet, after: u32) -> Option<&GuardDfa> {
        if self.guard_dfa.get().is_none() && self.met.0.fetch_add(1, Ordering::Relaxed) < after {
            return None;
        }
        self.guard_dfa(literals)
    }

    /// Whether `c` is a head character ([`pattern::Guard::head`]).
    fn in_head(&self, c: char) -> bool {
        self.head.as_ref().is_some_and(|head| {
            let i = head.partition_point(|&(_, end)| end < c);
            head.get(i).is_some_and(|&(start, _)| start <= c)
        })
    }

    /// Where the leftmost match holding the guard found at `pos` can start,
    /// no earlier than `lo`: the start of the run of head characters before
    /// `pos`.
    fn earliest_start(&self, s: &str, lo: usize, pos: usize) -> usize {
        if self.head.is_none() {
            return lo;
        }
        let mut start = pos;
        for (i, c) in s[lo..pos].char_indices().rev() {
            if !self.in_head(c) {
                break;
            }
            start = lo + i;
        }
        start
    }

    /// The end of the run of head characters from `pos` (at most `hi`).
    fn head_run_end(&self, s: &str, pos: usize, hi: usize) -> usize {
        s[pos..hi]
            .char_indices()
            .find(|&(_, c)| !self.in_head(c))
            .map_or(hi, |(i, _)| pos + i)
    }
}

impl RegexEntry {
    /// Reports an accepted match: whole, or the spans its detector picks.
    fn report(&self, s: &str, start: usize, end: usize, sink: &mut impl Sink) {
        match (self.focus, s.get(start..end)) {
            (Some(focus), Some(matched)) => {
                for (a, b) in focus(matched) {
                    sink.hit(self.check, start + a, start + b, self.label);
                }
            }
            _ => sink.hit(self.check, start, end, self.label),
        }
    }

    /// Whether a match of the exact regex is a hit.
    fn accepts(&self, s: &str, start: usize, end: usize) -> bool {
        (!self.whole || whole_word_at(s, start, end))
            && self
                .validate
                .is_none_or(|v| s.get(start..end).is_some_and(v))
    }
}

#[derive(Clone, Debug)]
struct Residual {
    /// The patterns the set is built from (relaxed when it is built).
    patterns: Vec<pattern::Exact>,
    /// Built on first use ([`StageMatcher::warm`] builds it with the stage
    /// and reports a set over its size limit); `None`: over the limit.
    set: OnceLock<Option<meta::Regex>>,
    /// Pattern id in `set` → index into `regexes`.
    regex_ids: Vec<u32>,
}

impl Residual {
    /// The set, built on first use; `None` when over its size limit.
    fn set(&self) -> Option<&meta::Regex> {
        self.set.get_or_init(|| self.build().ok()).as_ref()
    }

    /// The set of the relaxed patterns, or why it cannot be built.
    fn build(&self) -> Result<meta::Regex, String> {
        let hirs: Vec<Hir> = self
            .patterns
            .iter()
            .map(|p| pattern::relax(p.hir()))
            .collect();
        pattern::multi_regex(&hirs)
    }
}

/// The label of a hit that no built-in detector made.
pub(crate) const NO_LABEL: u32 = u32::MAX;

/// Everything a stage scans strings for.
#[derive(Clone, Debug)]
pub(crate) struct StageMatcher {
    literals: LiteralSet,
    targets: Vec<Target>,
    regexes: Vec<RegexEntry>,
    residual: Option<Residual>,
    /// The gated patterns in one set, for strings where many gates fire.
    gated: Option<Residual>,
    /// The detectors that judge JSON members by name and value.
    pairs: Vec<Pair>,
}

/// Up to this many gated patterns whose gate fired run their own exact
/// regex (each skips ahead on its literal); more run as one set, so a string
/// never costs more than a fixed number of passes.
const MAX_GATED_ALONE: usize = 4;

/// The distinct elements of a sorted slice, moved to its front.
#[expect(
    clippy::indexing_slicing,
    reason = "literal, target and regex ids come from the matcher built with these tables"
)]
fn dedup_sorted(found: &mut [(u32, usize)]) -> &mut [(u32, usize)] {
    let mut n = 0;
    for i in 0..found.len() {
        if n == 0 || found[i] != found[n - 1] {
            found[n] = found[i];
            n += 1;
        }
    }
    &mut found[..n]
}

/// The line around each of a run of increasing positions, found with work
/// proportional to the string's length in all.
struct Lines<'a> {
    hay: &'a [u8],
    lo: usize,
    hi: usize,
    valid: bool,
}

impl<'a> Lines<'a> {
    fn new(hay: &'a [u8]) -> Self {
        Lines {
            hay,
            lo: 0,
            hi: 0,
            valid: false,
        }
    }

    /// The line holding `pos`: its start, and the index of its line feed
    /// (or the length). Positions must not decrease.
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, target and regex ids come from the matcher built with these tables"
    )]
    fn of(&mut self, pos: usize) -> (usize, usize) {
        if !(self.valid && self.lo <= pos && pos < self.hi) {
            let from = if self.valid { self.hi.min(pos) } else { 0 };
            self.lo = memchr::memrchr(b'\n', &self.hay[from..pos]).map_or(from, |i| from + i + 1);
            self.hi = memchr::memchr(b'\n', &self.hay[pos..]).map_or(self.hay.len(), |i| pos + i);
            self.valid = true;
        }
        (self.lo, self.hi)
    }
}

/// Confirms a single-line pattern on each line holding one of `positions`.
fn confirm_lines(
    entry: &RegexEntry,
    s: &str,
    positions: impl Iterator<Item = usize>,
    sink: &mut impl Sink,
) {
    let hay = s.as_bytes();
    let mut lines = Lines::new(hay);
    let mut done = None;
    for pos in positions {
        let (lo, hi) = lines.of(pos);
        if done == Some(lo) {
            continue;
        }
        done = Some(lo);
        let Some(exact) = entry.exact.get() else {
            // Cannot be compiled: the line counts as a match (fail closed).
            sink.hit(entry.check, lo, hi, entry.label);
            return;
        };
        for m in exact.find_iter(Input::new(hay).span(lo..hi)) {
            if entry.accepts(s, m.start(), m.end()) {
                entry.report(s, m.start(), m.end(), sink);
                if !sink.every(entry.check) {
                    return;
                }
            }
        }
    }
}

/// Confirms a single-line pattern made of one repeated class (the head)
/// and a guard starting with literals found at `positions` (in order).
///
/// A match holding the guard at a position can start anywhere on the run of
/// head characters before it, and a match starting on that run extends to
/// one starting at the run's first character: so the leftmost match around
/// a position is the anchored match at the run's start (or where the
/// previous match ended), and when there is none, no match starts before
/// the end of the run. Each position costs one anchored search, and the
/// result is that of a search over the whole line.
fn confirm_headed(
    entry: &RegexEntry,
    s: &str,
    positions: impl Iterator<Item = usize>,
    sink: &mut impl Sink,
) {
    let hay = s.as_bytes();
    let mut lines = Lines::new(hay);
    // No match starts before `next`.
    let mut next = 0;
    for pos in positions {
        if pos < next {
            continue;
        }
        let (lo, hi) = lines.of(pos);
        let start = entry.earliest_start(s, lo.max(next), pos);
        let anchored = Input::new(hay).span(start..hi).anchored(Anchored::Yes);
        let Some(exact) = entry.exact.get() else {
            sink.hit(entry.check, start, hi, entry.label);
            return;
        };
        match exact.search(&anchored) {
            Some(m) => {
                next = m.end();
                if entry.accepts(s, m.start(), m.end()) {
                    entry.report(s, m.start(), m.end(), sink);
                    if !sink.every(entry.check) {
                        return;
                    }
                }
            }
            None => next = entry.head_run_end(s, pos, hi),
        }
    }
}

/// The first block of base64 at `from` or a multiple of 48 bytes after it
/// that the search for runs to decode looks at
/// ([`crate::detect::encoded::next_block`]), by this process's path.
pub(crate) fn base64_block(hay: &[u8], from: usize) -> Option<usize> {
    base64_block_on(literal::simd::Path::chosen(), hay, from)
}

/// [`base64_block`] by `path`: the SIMD search where `path` is one this
/// CPU runs, else the byte loop.
pub(crate) fn base64_block_on(path: literal::simd::Path, hay: &[u8], from: usize) -> Option<usize> {
    use crate::detect::encoded;
    literal::simd::base64_block(path, hay, from, encoded::STRIDE)
        .unwrap_or_else(|| encoded::next_block(hay, from))
}

/// How far the guard DFA reads from an occurrence before it gives the
/// occurrence to the regex.
const QUICK_GUARD_BYTES: usize = 64;

/// How many occurrences of a guard's literals are confirmed without its
/// DFA before the DFA is built ([`RegexEntry::guard_dfa`]). Two in the
/// tests, so that their texts go through both.
const GUARD_DFA_AFTER: u32 = if cfg!(test) { 2 } else { 64 };

/// A count shared by the threads that evaluate with one matcher; a clone
/// starts from the count so far.
#[derive(Debug, Default)]
struct Met(AtomicU32);

impl Clone for Met {
    fn clone(&self) -> Self {
        Self(AtomicU32::new(self.0.load(Ordering::Relaxed)))
    }
}

/// How many occurrences of a prefix are confirmed by the regex alone
/// before the pattern's DFA is built. An anchored search from a prefix
/// costs tens of nanoseconds, the DFA a millisecond or two to build: it
/// pays for itself only over thousands (a phrase whose first word is
/// common). Two in the tests, as [`GUARD_DFA_AFTER`].
const PREFIX_DFA_AFTER: u32 = if cfg!(test) { 2 } else { 1 << 14 };

/// Anchored guard searches may read this many times the string's length
/// before guarded patterns fall back to their gate.
const GUARD_PASSES: usize = 4;

/// The end of the line around a position, remembered for the next position
/// on the same line.
#[derive(Default)]
struct LineEnd {
    from: usize,
    end: usize,
}

impl LineEnd {
    /// The index of the first line feed at or after `pos`, or the length.
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, target and regex ids come from the matcher built with these tables"
    )]
    fn of(&mut self, hay: &[u8], pos: usize) -> usize {
        if !(self.from <= pos && pos <= self.end && self.end != 0) {
            self.from = pos;
            self.end = memchr::memchr(b'\n', &hay[pos..]).map_or(hay.len(), |i| pos + i);
        }
        self.end
    }
}

/// Collects a stage's words and patterns.
#[derive(Default)]
pub(crate) struct MatcherBuilder {
    literals: LiteralSetBuilder,
    targets: Vec<Target>,
    regexes: Vec<PendingRegex>,
    /// Pieces that could not be added (a built-in pattern that does not parse).
    errors: Vec<String>,
    pairs: Vec<Pair>,
}

/// A built-in detector that also judges JSON members by name and value:
/// check, label, judge.
type Pair = (u32, u32, fn(&str, &str) -> bool);

/// A regex waiting to be joined: check, pattern, whole-words, label, validator.
type PendingRegex = (u32, Pattern, bool, u32, Option<fn(&str) -> bool>);

/// Whether `c` is a word character as Unicode `\w` defines it.
pub(crate) fn is_word_char(c: char) -> bool {
    regex_syntax::try_is_word_character(c).unwrap_or(c.is_alphanumeric() || c == '_')
}

/// Whether no word character touches `s[start..end]` on either side.
pub(crate) fn whole_word_at(s: &str, start: usize, end: usize) -> bool {
    let before = s.get(..start).and_then(|p| p.chars().next_back());
    let after = s.get(end..).and_then(|p| p.chars().next());
    !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
}

impl MatcherBuilder {
    /// Chooses the literal filter's hash for the text it will scan (see
    /// `LiteralSetBuilder::tune`): for a stage built ahead of many
    /// requests.
    pub(crate) fn tune(&mut self) {
        self.literals.tune();
    }

    /// Adds a piece of `check`'s text matching.
    pub(crate) fn add(&mut self, check: u32, text: &Text) {
        match text {
            Text::Pattern(p) => self.regexes.push((check, p.clone(), false, NO_LABEL, None)),
            Text::Word {
                folded: Some(p),
                whole,
                ..
            } => self
                .regexes
                .push((check, p.clone(), *whole, NO_LABEL, None)),
            Text::Word {
                word,
                case_sensitive,
                whole,
                folded: None,
            } => {
                let id = self.literals.add(word.as_bytes(), !case_sensitive);
                debug_assert_eq!(id as usize, self.targets.len());
                self.targets.push(Target::Word {
                    check,
                    len: word.len() as u32,
                    whole: *whole,
                    folds: !case_sensitive,
                });
            }
            Text::Detector {
                family,
                index,
                label,
                validate,
            } => match Text::detector_patterns(family, *index) {
                Ok(patterns) => {
                    if let Some(pair) = crate::detect::by_label(*label).and_then(|d| d.pair) {
                        self.pairs.push((check, *label, pair));
                    }
                    for p in patterns {
                        self.regexes
                            .push((check, p.clone(), false, *label, *validate));
                    }
                }
                Err(e) => self.errors.push(e),
            },
        }
    }

    pub(crate) fn build(mut self) -> Result<StageMatcher, String> {
        if let Some(e) = self.errors.first() {
            return Err(e.clone());
        }
        let mut entries = Vec::with_capacity(self.regexes.len());
        let mut residual_patterns = Vec::new();
        let mut residual_ids = Vec::new();
        let mut gated_patterns = Vec::new();
        let mut gated_ids = Vec::new();
        for (i, (check, compiled, whole, label, validate)) in self.regexes.iter().enumerate() {
            let hir = compiled.hir();
            let plan = compiled.plan();
            let mut entry = RegexEntry {
                check: *check,
                exact: compiled.exact.clone(),
                whole: *whole,
                label: *label,
                validate: *validate,
                focus: crate::detect::by_label(*label)
                    .filter(|_| *label != NO_LABEL)
                    .and_then(|d| d.focus),
                single_line: plan.single_line,
                guard: None,
                prefixed: None,
                guard_dfa: OnceLock::new(),
                met: Met::default(),
                guard_literals: 0..0,
                head: None,
                single_head: false,
                relaxed: None,
            };
            let regex = i as u32;
            // Each literal into the filter, with what its occurrences are
            // for; returns their ids.
            let mut index =
                |literals: &crate::pattern::plan::Literals, folded: bool, target: Target| {
                    let first = self.targets.len() as u32;
                    for p in literals.iter() {
                        self.literals.add(p, folded);
                        self.targets.push(target);
                    }
                    first..self.targets.len() as u32
                };
            match &plan.find {
                Find::Prefix { literals, folded } => {
                    entry.prefixed = Some(pattern::relax(hir));
                    entry.guard_literals = index(literals, *folded, Target::Prefix { regex });
                }
                Find::Guard {
                    literals,
                    split,
                    lead,
                    head,
                    single_head,
                } => {
                    let rest = pattern::relax(&pattern::guard_rest(hir, *split, *lead));
                    entry.guard = Some(pattern::Exact::deferred(rest));
                    entry.head = head.as_deref().map(<[_]>::to_vec);
                    entry.single_head = *single_head;
                    entry.guard_literals = index(literals, true, Target::Guard { regex });
                    gated_patterns.push(compiled.exact.clone());
                    gated_ids.push(regex);
                }
                Find::Gate { literals } => {
                    index(literals, true, Target::Gate { regex });
                    gated_patterns.push(compiled.exact.clone());
                    gated_ids.push(regex);
                }
                Find::Residual { relaxed } => {
                    if *relaxed {
                        entry.relaxed = Some(pattern::Exact::deferred(pattern::relax(hir)));
                    }
                    residual_patterns.push(compiled.exact.clone());
                    residual_ids.push(regex);
                }
            }
            entries.push(entry);
        }
        let set =
            |patterns: Vec<pattern::Exact>, ids: Vec<u32>| -> Result<Option<Residual>, String> {
                if patterns.is_empty() {
                    return Ok(None);
                }
                Ok(Some(Residual {
                    patterns,
                    set: OnceLock::new(),
                    regex_ids: ids,
                }))
            };
        let residual = set(residual_patterns, residual_ids)?;
        let gated = if gated_ids.len() > MAX_GATED_ALONE {
            set(gated_patterns, gated_ids)?
        } else {
            None
        };
        Ok(StageMatcher {
            literals: self.literals.build(),
            targets: self.targets,
            regexes: entries,
            residual,
            gated,
            pairs: self.pairs,
        })
    }
}

impl StageMatcher {
    /// Compiles every regex deferred to its first use.
    pub(crate) fn warm(&self) {
        for entry in &self.regexes {
            entry.exact.get();
            for deferred in [&entry.guard, &entry.relaxed].into_iter().flatten() {
                deferred.get();
            }
        }
    }

    /// How many of the stage's exact regexes are compiled, of how many.
    #[cfg(test)]
    pub(crate) fn compiled(&self) -> (usize, usize) {
        let built = self.regexes.iter().filter(|e| e.exact.is_built()).count();
        (built, self.regexes.len())
    }

    /// Builds the sets of patterns; fails when one exceeds its size limit
    /// (a lazy engine, which builds them on first use, then runs each of
    /// their regexes alone).
    pub(crate) fn build_sets(&self) -> Result<(), String> {
        for residual in [&self.residual, &self.gated].into_iter().flatten() {
            if residual.set().is_none() {
                return Err(residual.build().err().unwrap_or_default());
            }
        }
        Ok(())
    }

    /// Whether some detector judges JSON members by name and value.
    pub(crate) fn has_pairs(&self) -> bool {
        !self.pairs.is_empty()
    }

    /// Judges a JSON member's name and its value (a string, or a number's
    /// text) with the detectors that find values by their name: a hit
    /// covers the whole value.
    pub(crate) fn scan_pair(&self, name: &str, value: &str, sink: &mut impl Sink) {
        for &(check, label, judge) in &self.pairs {
            if sink.wants(check) && judge(name, value) {
                sink.hit(check, 0, value.len(), label);
            }
        }
    }

    /// Scans one string, reporting hits to `sink`.
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, target and regex ids come from the matcher built with these tables"
    )]
    pub(crate) fn scan(&self, s: &str, sink: &mut impl Sink) {
        let hay = s.as_bytes();
        let mut gated: Vec<u32> = Vec::new();
        let mut on_lines: Vec<(u32, usize)> = Vec::new();
        let mut guard_budget = hay.len().saturating_mul(GUARD_PASSES).max(4096);
        let mut line_end = LineEnd::default();
        self.literals
            .for_each(hay, |literal, start| match self.targets[literal as usize] {
                Target::Word {
                    check, len, whole, ..
                } => {
                    let end = start + len as usize;
                    if sink.wants(check) && (!whole || whole_word_at(s, start, end)) {
                        sink.hit(check, start, end, NO_LABEL);
                    }
                }
                Target::Prefix { regex } => {
                    let entry = &self.regexes[regex as usize];
                    if !sink.wants(entry.check) {
                        return;
                    }
                    // Most occurrences of a prefix are not followed by the
                    // rest of a match, and its DFA says so within a few
                    // bytes, without a regex search.
                    if let Some(quick) = entry.guard_dfa_in_use(&self.literals, PREFIX_DFA_AFTER)
                        && let Some(left) = guard_budget.checked_sub(QUICK_GUARD_BYTES)
                    {
                        guard_budget = left;
                        if quick.dies(&self.literals, literal, hay, start, QUICK_GUARD_BYTES) {
                            return;
                        }
                    }
                    let input = Input::new(hay)
                        .span(start..hay.len())
                        .anchored(Anchored::Yes);
                    match entry.exact.get() {
                        Some(exact) => {
                            if let Some(m) = exact.search(&input)
                                && entry.accepts(s, m.start(), m.end())
                            {
                                entry.report(s, m.start(), m.end(), sink);
                            }
                        }
                        None => sink.hit(entry.check, start, hay.len(), entry.label),
                    }
                }
                Target::Guard { regex } => {
                    let entry = &self.regexes[regex as usize];
                    if !sink.wants(entry.check) || gated.contains(&regex) {
                        return;
                    }
                    // Most occurrences are not followed by the rest of the
                    // guard, and the DFA says so within a few bytes.
                    if let Some(guard) = entry.guard_dfa_in_use(&self.literals, GUARD_DFA_AFTER)
                        && let Some(left) = guard_budget.checked_sub(QUICK_GUARD_BYTES)
                    {
                        guard_budget = left;
                        if guard.dies(&self.literals, literal, hay, start, QUICK_GUARD_BYTES) {
                            return;
                        }
                    }
                    if entry.single_head {
                        on_lines.push((regex, start));
                        return;
                    }
                    let end = if entry.single_line {
                        line_end.of(hay, start)
                    } else {
                        hay.len()
                    };
                    // Each search reads at most `end - start` bytes; once the
                    // budget is spent (a long line full of literals), hits
                    // gate the pattern as they would without a guard, so a
                    // string never costs more than a few passes.
                    let passed = match guard_budget.checked_sub(end - start) {
                        Some(left) => {
                            guard_budget = left;
                            let input = Input::new(hay).span(start..end).anchored(Anchored::Yes);
                            // A guard that cannot be compiled lets the
                            // exact pattern decide.
                            entry
                                .guard
                                .as_ref()
                                .and_then(pattern::Exact::get)
                                .is_none_or(|g| g.is_match(input))
                        }
                        None => true,
                    };
                    if passed {
                        if entry.single_line {
                            on_lines.push((regex, start));
                        } else {
                            gated.push(regex);
                        }
                    }
                }
                Target::Gate { regex } => {
                    if self.regexes[regex as usize].single_line {
                        on_lines.push((regex, start));
                    } else if !gated.contains(&regex) {
                        gated.push(regex);
                    }
                }
            });
        if !on_lines.is_empty() {
            self.scan_lines(s, &mut on_lines, sink);
        }
        match &self.gated {
            Some(set) if gated.len() > MAX_GATED_ALONE => self.scan_residual(set, s, sink),
            _ => {
                for regex in gated {
                    self.find_all(regex as usize, s, sink);
                }
            }
        }
        if fold::needs_folding(s) {
            self.scan_folded(s, sink);
        }
        if let Some(residual) = &self.residual {
            self.scan_residual(residual, s, sink);
        }
    }

    /// Case-insensitive words in the text with the Kelvin sign and long s
    /// folded to `k` and `s` (rare: only when the text holds one of them).
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, target and regex ids come from the matcher built with these tables"
    )]
    fn scan_folded(&self, s: &str, sink: &mut impl Sink) {
        let folded = fold::Folded::new(s);
        self.literals
            .for_each(folded.text.as_bytes(), |literal, start| {
                if let Target::Word {
                    check,
                    len,
                    whole,
                    folds: true,
                } = self.targets[literal as usize]
                {
                    let (start, end) = (
                        folded.original(start),
                        folded.original(start + len as usize),
                    );
                    if sink.wants(check) && (!whole || whole_word_at(s, start, end)) {
                        sink.hit(check, start, end, NO_LABEL);
                    }
                }
            });
    }

    #[expect(
        clippy::indexing_slicing,
        reason = "literal, target and regex ids come from the matcher built with these tables"
    )]
    fn scan_residual(&self, residual: &Residual, s: &str, sink: &mut impl Sink) {
        let ids = &residual.regex_ids;
        if !ids
            .iter()
            .any(|&r| sink.wants(self.regexes[r as usize].check))
        {
            return;
        }
        let Some(multi) = residual.set() else {
            // Over its size limit: each pattern alone, which is exact.
            for &regex in ids {
                self.find_all(regex as usize, s, sink);
            }
            return;
        };
        let mut set = PatternSet::new(multi.pattern_len());
        multi.which_overlapping_matches(&Input::new(s), &mut set);
        for pid in set.iter() {
            let regex = ids[pid.as_usize()] as usize;
            let entry = &self.regexes[regex];
            match &entry.relaxed {
                // Every match of the pattern is a match of its relaxed form
                // on the same line: a line without one has none.
                Some(relaxed) if sink.wants(entry.check) && relaxed.get().is_some() => {
                    let positions = relaxed
                        .get()
                        .into_iter()
                        .flat_map(|r| r.find_iter(s))
                        .map(|m| m.start());
                    confirm_lines(entry, s, positions, sink);
                }
                _ => self.find_all(regex, s, sink),
            }
        }
    }

    /// Confirms single-line gated and guarded patterns around the positions
    /// of their literals: every match holds one and stays on its line.
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, target and regex ids come from the matcher built with these tables"
    )]
    fn scan_lines(&self, s: &str, found: &mut [(u32, usize)], sink: &mut impl Sink) {
        found.sort_unstable();
        let found = dedup_sorted(found);
        let mut i = 0;
        while i < found.len() {
            let regex = found[i].0;
            let n = found[i..].partition_point(|&(r, _)| r == regex);
            let entry = &self.regexes[regex as usize];
            let positions = found[i..i + n].iter().map(|&(_, pos)| pos);
            if sink.wants(entry.check) {
                if entry.single_head {
                    confirm_headed(entry, s, positions, sink);
                } else {
                    confirm_lines(entry, s, positions, sink);
                }
            }
            i += n;
        }
    }

    /// Runs one exact regex over the whole string.
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, target and regex ids come from the matcher built with these tables"
    )]
    fn find_all(&self, regex: usize, s: &str, sink: &mut impl Sink) {
        let entry = &self.regexes[regex];
        if !sink.wants(entry.check) {
            return;
        }
        let Some(exact) = entry.exact.get() else {
            sink.hit(entry.check, 0, s.len(), entry.label);
            return;
        };
        for m in exact.find_iter(s) {
            if entry.accepts(s, m.start(), m.end()) {
                entry.report(s, m.start(), m.end(), sink);
                if !sink.every(entry.check) {
                    break;
                }
            }
        }
    }
}

/// A piece of a stage's text automaton.
#[derive(Clone, Debug)]
pub(crate) enum Text {
    /// A regular expression.
    Pattern(Pattern),
    /// A blocklist word or phrase.
    Word {
        /// The word as written.
        word: String,
        /// Whether case must match exactly.
        case_sensitive: bool,
        /// Whether no word character may touch either end.
        whole: bool,
        /// For a word with letters outside ASCII that matches either case:
        /// its case-folding pattern.
        folded: Option<Pattern>,
    },
    /// A built-in detector.
    Detector {
        /// The patterns of its family, parsed when a stage's automaton
        /// is first built (reading a policy does not parse them).
        family: &'static Detectors,
        /// Its position in the family.
        index: usize,
        /// Its label in findings and placeholders.
        label: u32,
        /// What confirms a match (a checksum), if anything.
        validate: Option<fn(&str) -> bool>,
    },
}

/// The patterns of a family of built-in detectors, parsed once per
/// process, on first use: one per detector, or its alternatives
/// (`Detector::apart`).
pub(crate) type Detectors = std::sync::LazyLock<Vec<Result<Vec<Pattern>, String>>>;

/// Parses a family's patterns for [`Detectors`].
pub(crate) fn parse_detectors(
    all: &[crate::detect::Detector],
) -> Vec<Result<Vec<Pattern>, String>> {
    all.iter().map(crate::detect::Detector::patterns).collect()
}

impl Text {
    /// A detector's pattern (the built-in patterns are tested to parse).
    /// The patterns of a family's detector: its alternatives, each
    /// scanned as a pattern of its own.
    pub(crate) fn detector_patterns(
        family: &'static Detectors,
        index: usize,
    ) -> Result<&'static [Pattern], String> {
        match family.get(index) {
            Some(Ok(p)) => Ok(p),
            Some(Err(e)) => Err(format!("built-in detector {index}: {e}")),
            None => Err(format!("built-in detector {index} does not exist")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_finds_the_base64_block_the_byte_loop_finds() {
        use crate::detect::encoded::{STRIDE, next_block};
        use literal::simd::Path;
        let paths = || Path::ALL.into_iter().filter(|p| p.available());
        // Each byte at each position of a block of base64 (with 16 more
        // after it), alone, in either half of a pair of blocks, and in the
        // neighbour of a block of base64.
        for b in 0..=255u8 {
            for at in 0..16 {
                let mut bytes = *b"QUJDREVGQUJDREVGQUJDREVGQUJDREVG";
                bytes[at] = b;
                let mut pair = [b' '; STRIDE + 32];
                pair[..32].copy_from_slice(&bytes);
                let mut second = [b' '; STRIDE + 32];
                second[STRIDE..].copy_from_slice(&bytes);
                let mut neighbour = [b' '; STRIDE + 16];
                neighbour[STRIDE - 16..STRIDE].copy_from_slice(&bytes[..16]);
                neighbour[STRIDE..].copy_from_slice(&[b'Q'; 16]);
                for hay in [&bytes[..], &bytes[..16], &pair, &second, &neighbour] {
                    let want = next_block(hay, 0);
                    for path in paths() {
                        assert_eq!(
                            base64_block_on(path, hay, 0),
                            want,
                            "{path:?}: {b:#x} at {at}"
                        );
                    }
                }
            }
        }
        // Texts mostly of base64 characters, with a blank, a dot or a
        // byte beyond ASCII now and then, searched from every position.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let alphabet = b"QUJDa0-_/+9z";
        let others = b" .:\n\xc3\x80=";
        let mut found = 0;
        for _ in 0..400 {
            let len = (next() % 400) as usize;
            let rare = 2 + next() % 60;
            let hay: Vec<u8> = (0..len)
                .map(|_| {
                    let r = next();
                    if r % rare == 0 {
                        others[(r >> 8) as usize % others.len()]
                    } else {
                        alphabet[(r >> 8) as usize % alphabet.len()]
                    }
                })
                .collect();
            for from in 0..len.min(100) {
                let want = next_block(&hay, from);
                found += usize::from(want.is_some());
                for path in paths() {
                    assert_eq!(
                        base64_block_on(path, &hay, from),
                        want,
                        "{path:?} from {from}: {hay:?}"
                    );
                }
            }
        }
        assert!(found > 500, "blocks found: {found}");
    }

    impl MatcherBuilder {
        fn add_pattern(&mut self, check: u32, hir: Hir) {
            self.add(check, &Text::Pattern(Pattern::new(hir).unwrap()));
        }

        fn add_word(&mut self, check: u32, word: &str, case_sensitive: bool, whole: bool) {
            let folded = (!case_sensitive && !word.is_ascii()).then(|| {
                let source = format!("(?i){}", regex_syntax::escape(word));
                Pattern::new(pattern::parse(&source).unwrap()).unwrap()
            });
            let text = Text::Word {
                word: word.to_owned(),
                case_sensitive,
                whole,
                folded,
            };
            self.add(check, &text);
        }
    }

    #[derive(Default)]
    struct Collect(Vec<(u32, usize, usize)>);

    impl Sink for Collect {
        fn wants(&mut self, _check: u32) -> bool {
            true
        }
        fn every(&self, _check: u32) -> bool {
            true
        }
        fn hit(&mut self, check: u32, start: usize, end: usize, _label: u32) {
            self.0.push((check, start, end));
        }
    }

    fn scan(m: &StageMatcher, s: &str) -> Vec<(u32, usize, usize)> {
        let mut c = Collect::default();
        m.scan(s, &mut c);
        c.0.sort();
        c.0
    }

    #[test]
    fn unicode_word_boundaries_are_exact() {
        let mut b = MatcherBuilder::default();
        b.add_pattern(0, pattern::parse(r"\bkey-[0-9a-z]{4}\b").unwrap());
        b.add_pattern(1, pattern::parse(r"\b[0-9]{3}-[0-9]{2}\b").unwrap());
        let m = b.build().unwrap();
        // ASCII neighbours
        assert_eq!(scan(&m, "a key-ab12 b"), [(0, 2, 10)]);
        assert_eq!(scan(&m, "monkey-ab12"), []);
        // non-ASCII word characters are word characters: no boundary
        assert_eq!(scan(&m, "\u{e9}key-ab12"), []);
        assert_eq!(scan(&m, "key-ab12\u{e9}"), []);
        assert_eq!(scan(&m, "\u{65e5}123-45"), []);
        // non-ASCII non-word characters are boundaries
        assert_eq!(scan(&m, "\u{2014}key-ab12\u{2014}"), [(0, 3, 11)]);
        assert_eq!(scan(&m, "\u{2014}123-45\u{2014}"), [(1, 3, 9)]);
    }

    #[test]
    fn gated_and_case_folded_patterns() {
        let mut b = MatcherBuilder::default();
        b.add_pattern(0, pattern::parse(r"(?i)\bpassword\s*=").unwrap());
        b.add_pattern(1, pattern::parse(r"\b[a-z]+://[a-z]+:[a-z]+@").unwrap());
        let m = b.build().unwrap();
        assert_eq!(scan(&m, "x pAsSwOrD= y"), [(0, 2, 11)]);
        assert_eq!(
            scan(&m, "PA\u{17F}SWORD ="),
            [(0, 0, 11)],
            "long s folds to s"
        );
        assert_eq!(scan(&m, "see postgres://bob:pw@db"), [(1, 4, 22)]);
        assert_eq!(scan(&m, "see postgres://bob@db"), []);
    }

    #[test]
    fn many_fired_gates_run_as_one_set() {
        let mut b = MatcherBuilder::default();
        for i in 0..6u32 {
            b.add_pattern(
                i,
                pattern::parse(&format!(r"\b[a-z]+@{i}{i}{i}\b")).unwrap(),
            );
        }
        let m = b.build().unwrap();
        assert!(m.gated.is_some());
        let text = "x@000 y@111 z@222 w@333 v@444 u@555 \u{e9}t@666 q@1110";
        let hits = scan(&m, text);
        assert_eq!(
            hits.iter().map(|h| h.0).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4, 5]
        );
        // With few gates firing, each pattern runs alone, with the same result.
        assert_eq!(scan(&m, "y@111 q@1110"), [(1, 0, 5)]);
    }

    #[test]
    fn words_case_and_whole_words() {
        let mut b = MatcherBuilder::default();
        b.add_word(0, "drop table", false, false);
        b.add_word(1, "Secret", true, false);
        b.add_word(2, "cat", false, true);
        b.add_word(3, "Z\u{fc}rich", false, false);
        let m = b.build().unwrap();
        assert_eq!(scan(&m, "DROP TABLE x"), [(0, 0, 10)]);
        assert_eq!(scan(&m, "secret Secret"), [(1, 7, 13)]);
        assert_eq!(scan(&m, "concatenate cat_x cat."), [(2, 18, 21)]);
        assert_eq!(scan(&m, "\u{e9}cat"), []);
        assert_eq!(scan(&m, "Z\u{dc}RICH"), [(3, 0, 7)]);
        // The Kelvin sign and the long s fold to `k` and `s`, as in `(?i)` regexes.
        let mut b = MatcherBuilder::default();
        b.add_word(0, "kill", false, false);
        b.add_word(1, "secret", false, false);
        b.add_word(2, "Kiss", true, false);
        let m = b.build().unwrap();
        assert_eq!(scan(&m, "\u{212A}ILL it"), [(0, 0, 6)]);
        assert_eq!(scan(&m, "\u{17F}ecret"), [(1, 0, 7)]);
        assert_eq!(
            scan(&m, "\u{212A}iss kiss"),
            [],
            "case-sensitive words match exactly"
        );
    }

    /// Every hit of the exact regex over the whole string, as a plain
    /// search reports them.
    fn naive(patterns: &[&str], s: &str) -> Vec<(u32, usize, usize)> {
        let mut out = Vec::new();
        for (i, p) in patterns.iter().enumerate() {
            let re = regex_automata::meta::Regex::new(p).unwrap();
            out.extend(re.find_iter(s).map(|m| (i as u32, m.start(), m.end())));
        }
        out.sort();
        out
    }

    /// Patterns whose leading repeated class is dropped for a guard
    /// ([`pattern::guard`]), with one head class or several, a prefix with
    /// too many literals, and the Discord shape with exact case-sensitive
    /// prefixes.
    const GUARDED: &[&str] = &[
        r#"(?i)[a-z0-9_.-]*(?:secret|token|api[_.-]?key)[a-z0-9_.-]*(?:\\?["'])?[ \t]*(?:=>|:=|=|:)[ \t]*(?:"[^"\r\n]{4,}"|[^\s"'\\,;&]{4,})"#,
        r"[a-z]*[0-9]*pass(?:word)?=[A-Za-z0-9]{3,}",
        r"(?i:account[_-]?key)[:=][A-Za-z0-9+/]{6}==",
        r"\b(?:M[Tjz]|N[DTjz])[AEIMQUYcgk][w-z0-5][A-Za-z0-9_-]{2}\.[A-Za-z0-9_-]{2}",
        // A short word among long ones, taken with what follows it, and a
        // word that must follow a `-`, grown backwards over the head.
        r#"(?i)[a-z0-9_.-]*(?:(?:secret|token)[a-z0-9_.-]*|[_.-]key|(?-i:Key))["']?[ \t]*[:=][ \t]*[^\s"']{4,}"#,
        r"[a-z0-9-]*-(?:pass|token)[ \t]+[^\s-][^\s]{3,}",
    ];

    fn guarded_matcher() -> StageMatcher {
        let mut b = MatcherBuilder::default();
        for (i, p) in GUARDED.iter().enumerate() {
            b.add_pattern(i as u32, pattern::parse(p).unwrap());
        }
        b.build().unwrap()
    }

    /// Patterns found by their prefix literals, each confirmed by a DFA
    /// of the whole pattern before its regex: Unicode and ASCII word
    /// boundaries, case folding, classes of white space beyond ASCII.
    const PREFIXED: &[&str] = &[
        r"\b(?i:you)\s+(?i:are)\s+(?i:now)\b",
        r"\bAKIA[0-9A-Z]{16}\b",
        r"(?i)ignore\s+(?:all\s+)?previous\s+instructions",
        r"(?-u:\b)sk-[A-Za-z0-9]{8}(?-u:\b)",
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----",
        // A lazy repetition and a choice whose first branch is a prefix of
        // the second: a match can end at several places, and the DFA must
        // go on after the first.
        r#"(?i:\baws[ \t_.,;:=/"'-]|secret)[^\r\n]{0,80}?[^A-Za-z0-9/+_\-][A-Za-z0-9/+_\-]{40,}=*"#,
        r"(?:tok=|tok=>)[0-9]{4}",
    ];

    /// Whether a scan with [`PREFIXED`] agrees with a whole search: the
    /// same patterns found, every match of the search found, and every
    /// hit a match of its pattern from where it starts (a prefix met
    /// inside another match's text is confirmed there too).
    fn agrees_with_prefixed(found: &[(u32, usize, usize)], text: &str) -> Result<(), String> {
        let want = naive(PREFIXED, text);
        let ids = |hits: &[(u32, usize, usize)]| {
            hits.iter()
                .map(|h| h.0)
                .collect::<std::collections::BTreeSet<_>>()
        };
        if ids(found) != ids(&want) || want.iter().any(|w| !found.contains(w)) {
            return Err(format!(
                "{text:?}: found {found:?}, a whole search {want:?}"
            ));
        }
        for &(id, start, end) in found {
            let re = regex_automata::meta::Regex::new(PREFIXED[id as usize]).unwrap();
            let input = Input::new(text)
                .span(start..text.len())
                .anchored(Anchored::Yes);
            if re.search(&input).map(|m| m.end()) != Some(end) {
                return Err(format!("{text:?}: {id} at {start}..{end} is not a match"));
            }
        }
        Ok(())
    }

    fn prefixed_matcher() -> StageMatcher {
        let mut b = MatcherBuilder::default();
        for (i, p) in PREFIXED.iter().enumerate() {
            b.add_pattern(i as u32, pattern::parse(p).unwrap());
        }
        let m = b.build().unwrap();
        assert!(
            m.regexes.iter().all(|e| e.prefixed.is_some()),
            "each is found by its prefix"
        );
        m
    }

    #[test]
    fn a_prefix_is_turned_away_by_its_dfa_once_met_often() {
        let m = prefixed_matcher();
        let text = "you see, you are now free; you\u{a0}ARE  now. AKIA0123456789ABCDEF \
                    AKIA0123, sk-abcd1234 sk-abcd12345 AWS_SECRET_ACCESS_KEY=pirXAhOCkih1VLtVZ+C8tyMc6LOu9Yy2tVwY6w93 \
                    tok=>2024 tok=>x tok=>1999";
        assert_eq!(naive(PREFIXED, text).len(), 7);
        agrees_with_prefixed(&scan(&m, text), text).unwrap();
        assert!(
            m.regexes[0].guard_dfa.get().is_some(),
            "three occurrences: the DFA"
        );
        assert!(
            m.regexes[0].guard_dfa(&m.literals).is_some_and(|quick| {
                let at = text.find("you see").unwrap();
                let literal = m.regexes[0]
                    .guard_literals
                    .clone()
                    .find(|&l| m.literals.bytes(l).is_some_and(|b| b.starts_with(b"you")))
                    .unwrap();
                quick.dies(&m.literals, literal, text.as_bytes(), at, QUICK_GUARD_BYTES)
            }),
            "`you see` dies in the DFA"
        );
        agrees_with_prefixed(&scan(&m, text), text).unwrap();
    }

    #[test]
    fn a_guard_is_built_as_a_dfa_once_its_literals_are_met_often() {
        let m = guarded_matcher();
        let text = "max tokens in the window, token: str";
        let want = naive(GUARDED, text);
        assert_eq!(scan(&m, text), want);
        assert!(
            m.regexes[0].guard_dfa.get().is_none(),
            "two occurrences: no DFA yet"
        );
        assert_eq!(scan(&m, text), want);
        assert!(m.regexes[0].guard_dfa.get().is_some(), "four: the DFA");
        assert_eq!(scan(&m, text), want, "the same with the DFA");
    }

    /// A guard that starts with the last character of a leading class
    /// (a URL's scheme before `://`, digits before `:AA`) finds what the
    /// patterns find, before and after its DFA is built.
    #[test]
    fn a_guard_from_a_leading_class_finds_what_a_whole_search_finds() {
        const LEAD: &[&str] = &[
            r#"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:@/?#"'<>]{0,128}:[^\s:@/?#"'<>]{1,128}@"#,
            r"\b[0-9]{8,10}:AA[0-9A-Za-z_-]{8}",
            // `url_password` as the detector has it: its parts unbounded.
            r#"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:@/?#"'<>]*:[^\s:@/?#"'<>]+@"#,
        ];
        let mut b = MatcherBuilder::default();
        for (i, p) in LEAD.iter().enumerate() {
            b.add_pattern(i as u32, pattern::parse(p).unwrap());
        }
        let m = b.build().unwrap();
        assert!(
            m.regexes
                .iter()
                .all(|e| e.guard.is_some() && !e.single_head)
        );
        let texts = [
            "see postgres://bob:pw@db and https://example.com/x",
            "HTTPS://User:Secret@host, Ftp://a:b@c",
            "://a:b@c x://a:b@c a+b.c-d://u:p@h 9a://u:p@h",
            "https://example.com/path?x=y:z@w https://a.b/:c@d",
            "redis://:password@host s3://bucket/key mongodb+srv://admin:hunter2@cluster0",
            "\u{e9}://a:b@c ab\u{e9}://u:p@h https://us\u{e9}r:p\u{e9}@h \u{212A}s://u:p@h",
            "https://user\n:pw@host https://user:\npw@host",
            "abcdefghijklmnopqrstuvwxyzabcdefg://u:p@h s://s://u:p@h a://",
            "https://u:p@h\"https://u2:p2@h2 <https://u3:p3@h3>",
            "bot 123456789:AAabcdefgh 1234567:AAabcdefgh 12345678901:AAabcdefgh 12345678:aaabcdefgh",
        ];
        // Three rounds: the first confirms each occurrence with the regex,
        // the later ones turn occurrences away with the guard's DFA.
        for round in 0..3 {
            for text in texts {
                assert_eq!(scan(&m, text), naive(LEAD, text), "round {round}: {text:?}");
            }
        }
        assert!(
            m.regexes
                .iter()
                .all(|e| e.guard_dfa.get().is_some_and(Option::is_some))
        );
    }

    #[test]
    fn guarded_patterns_find_what_a_whole_search_finds() {
        let m = guarded_matcher();
        assert!(m.regexes[0].single_head && m.regexes[0].guard.is_some());
        assert!(!m.regexes[1].single_head, "two head classes");
        assert!(
            m.regexes[4].guard.is_some() && m.regexes[5].guard.is_some(),
            "a short word among long ones; a word after a dash"
        );
        for text in [
            "my_token=abcd1234 and x_token: 'ab'",
            "tokentokentoken=abcdef",
            "a.b-c_token = \"quoted value\" secret:",
            "token: str, api_key: int = 8",
            "ab token=\nxyz=abcd secret=abcdefgh",
            "password=abc user9password=abcdef",
            "ACCOUNT-KEY=abcdef== accountkey:abcdef==",
            "MTIz.ab.cd NDEw12.ab.cd xMTEw12.ab.cd MTEw12.ab.cdef",
            "\u{212A}EY token=\u{e9}\u{e9}\u{e9}\u{e9} \u{17F}ecret=abcd",
            "my_key=abcd cacheKey: 'abcdef' Key=abcd --db-pass abcd x--token abcd",
            "token pass abcd -pass -pass abcde --a-b-token  xyzw",
        ] {
            assert_eq!(scan(&m, text), naive(GUARDED, text), "{text:?}");
        }
    }

    #[test]
    fn a_guard_goes_on_after_its_literal_as_it_would_from_its_start() {
        let m = guarded_matcher();
        let texts = [
            "max tokens in the window; token nostrud, token: str",
            "my_token=abcd1234 and x_token: 'ab' TOKEN = 'abcdefgh'",
            "tokentokentoken=abcdef secret:\tabcdefghijklmn\nnext",
            "password=abc user9password=abcdef pass=",
            "ACCOUNT-KEY=abcdef== accountkey:abcdef==",
            "\u{212A}EY token=\u{e9}\u{e9}\u{e9}\u{e9} \u{17F}ecret=abcd",
            "my_key=abcd cacheKey: 'abcdef' Key=abcd --db-pass abcd x--token abcd",
            "token pass abcd -pass -pass abcde --a-b-token  xyzw token",
        ];
        let (mut after, mut occurrences) = (0, 0);
        for entry in &m.regexes {
            let Some(guard) = entry.guard_dfa(&m.literals) else {
                continue;
            };
            assert_eq!(guard.after.len(), entry.guard_literals.len());
            for text in texts {
                let hay = text.as_bytes();
                m.literals.for_each(hay, |literal, start| {
                    if !entry.guard_literals.contains(&literal) {
                        return;
                    }
                    occurrences += 1;
                    let stored = m.literals.bytes(literal).unwrap_or_default();
                    let known = guard.after[(literal - guard.first) as usize].is_some();
                    after += usize::from(known && hay[start..].starts_with(stored));
                    for window in [1, 4, 8, 64, 1000] {
                        // Past the literal, the window is only a budget: a
                        // guard may die later, never earlier, and as the
                        // whole walk with a window that reaches the end.
                        let dies = guard.dies(&m.literals, literal, hay, start, window);
                        let whole = pattern::guard_dies(&guard.dfa, hay, start, 1000);
                        assert!(!dies || whole, "{text:?} at {start}, window {window}");
                        if window == 1000 {
                            assert_eq!(dies, whole, "{text:?} at {start}");
                        }
                    }
                });
            }
        }
        assert!(
            after > 20 && after < occurrences,
            "{after} of {occurrences}"
        );
    }

    proptest::proptest! {
        #[test]
        fn guarded_patterns_agree_with_a_whole_search(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "token", "TOKEN", "my_", "api-key", "secret", "pass", "password", "9",
                "=", ": ", " = ", "\"", "'", "\\\"", ",", " ", "\n", "\t", "abcd", "XYZ12",
                "account_key", "==", "+/", "MTEw", "NDEw", "Mj", ".", "-", "_", "\u{e9}",
                "\u{17F}", "\u{212A}", "=>", "key", "Key", "_key", "--", "-pass ", "db-",
            ]), 0..24)
        ) {
            let text: String = parts.concat();
            let m = guarded_matcher();
            proptest::prop_assert_eq!(scan(&m, &text), naive(GUARDED, &text), "{:?}", text);
        }
    }

    proptest::proptest! {
        #[test]
        fn prefixed_patterns_agree_with_a_whole_search(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "you", "You", "YOU", " ", "\t", "\u{a0}", "\u{3000}", "are", "aRe", "now",
                "nowhere", "\u{e9}", "_", "AKIA", "ABCDEFGH", "01234567", "sk-", "abcd1234",
                "-----BEGIN ", "RSA ", "PRIVATE KEY-----", "ignore", "IGNORE", "all",
                "previous", "in\u{17F}tructions", "instructions", "x", "\n", "-",
                "AWS_", "SECRET", "secret", "_KEY=", "=", "tok=", ">", "2024",
                "pirXAhOCkih1VLtVZ+C8tyMc6LOu9Yy2tVwY6w93",
            ]), 0..24)
        ) {
            let text: String = parts.concat();
            let m = prefixed_matcher();
            // Three times: the DFA is built after the first occurrences.
            for _ in 0..3 {
                let agrees = agrees_with_prefixed(&scan(&m, &text), &text);
                proptest::prop_assert!(agrees.is_ok(), "{}", agrees.unwrap_err());
            }
        }
    }

    #[test]
    fn many_literals_are_cut_to_a_common_prefix() {
        // `account[_-]?key` followed by optional quotes and spaces gives too
        // many literals; cut shorter, they still start every match.
        let hir = pattern::parse(r#"(?i:account[_-]?key)["']?[ \t]*[:=]x"#).unwrap();
        let prefixes = pattern::prefixes(&hir).unwrap();
        assert!(prefixes.len() <= 64, "{}", prefixes.len());
        assert!(prefixes.iter().all(|p| p.starts_with(b"account")));
    }
}
