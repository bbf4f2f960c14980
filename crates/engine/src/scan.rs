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

pub(crate) mod fold;
pub(crate) mod literal;
pub(crate) mod pattern;
pub mod stream;

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
}

#[derive(Clone, Debug)]
struct RegexEntry {
    check: u32,
    exact: meta::Regex,
    /// A blocklist word compiled as a regex, with `whole_words`.
    whole: bool,
    /// A built-in detector: its index in the detector table, and its validator.
    label: u32,
    validate: Option<fn(&str) -> bool>,
    /// No match spans a line feed: a gated pattern is confirmed on the lines
    /// that hold its gate literal only.
    single_line: bool,
}

impl RegexEntry {
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
    set: meta::Regex,
    /// Pattern id in `set` → index into `regexes`.
    regex_ids: Vec<u32>,
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
}

/// Up to this many gated patterns whose gate fired run their own exact
/// regex (each skips ahead on its literal); more run as one set, so a string
/// never costs more than a fixed number of passes.
const MAX_GATED_ALONE: usize = 4;

/// Collects a stage's words and patterns.
#[derive(Default)]
pub(crate) struct MatcherBuilder {
    literals: LiteralSetBuilder,
    targets: Vec<Target>,
    regexes: Vec<PendingRegex>,
}

/// A regex waiting to be compiled: check, pattern, whole-words, label, validator.
type PendingRegex = (u32, Hir, bool, u32, Option<fn(&str) -> bool>);

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
    /// Adds a blocklist word of `check`.
    pub(crate) fn add_word(&mut self, check: u32, word: &str, case_sensitive: bool, whole: bool) {
        if case_sensitive || word.is_ascii() {
            let id = self.literals.add(word.as_bytes(), !case_sensitive);
            debug_assert_eq!(id as usize, self.targets.len());
            self.targets.push(Target::Word {
                check,
                len: word.len() as u32,
                whole,
                folds: !case_sensitive,
            });
        } else {
            // Non-ASCII letters fold by Unicode simple case folding, as `(?i)` does.
            let pattern = format!("(?i){}", regex_syntax::escape(word));
            if let Ok(hir) = pattern::parse(&pattern) {
                self.regexes.push((check, hir, whole, NO_LABEL, None));
            }
        }
    }

    /// Adds a (validated) regex pattern of `check`.
    pub(crate) fn add_pattern(&mut self, check: u32, hir: Hir) {
        self.regexes.push((check, hir, false, NO_LABEL, None));
    }

    /// Adds a built-in detector of `check`: its pattern, and the validator
    /// that confirms each match.
    pub(crate) fn add_detector(
        &mut self,
        check: u32,
        hir: Hir,
        label: u32,
        validate: Option<fn(&str) -> bool>,
    ) {
        self.regexes.push((check, hir, false, label, validate));
    }

    pub(crate) fn build(mut self) -> Result<StageMatcher, String> {
        let mut entries = Vec::with_capacity(self.regexes.len());
        let mut residual_hirs = Vec::new();
        let mut residual_ids = Vec::new();
        let mut gated_hirs = Vec::new();
        let mut gated_ids = Vec::new();
        for (i, (check, hir, whole, label, validate)) in self.regexes.iter().enumerate() {
            let exact = pattern::exact_regex(hir)?;
            entries.push(RegexEntry {
                check: *check,
                exact,
                whole: *whole,
                label: *label,
                validate: *validate,
                single_line: !pattern::can_match_newline(hir),
            });
            if let Some(prefixes) = pattern::prefixes(hir) {
                for p in prefixes {
                    self.literals.add(&p, true);
                    self.targets.push(Target::Prefix { regex: i as u32 });
                }
                continue;
            }
            match pattern::required_factors(hir) {
                Some(factors) => {
                    for f in factors {
                        self.literals.add(&f, true);
                        self.targets.push(Target::Gate { regex: i as u32 });
                    }
                    gated_hirs.push(pattern::relax(hir));
                    gated_ids.push(i as u32);
                }
                None => {
                    residual_hirs.push(pattern::relax(hir));
                    residual_ids.push(i as u32);
                }
            }
        }
        let set = |hirs: Vec<Hir>, ids: Vec<u32>| -> Result<Option<Residual>, String> {
            if hirs.is_empty() {
                return Ok(None);
            }
            Ok(Some(Residual {
                set: pattern::multi_regex(&hirs)?,
                regex_ids: ids,
            }))
        };
        let residual = set(residual_hirs, residual_ids)?;
        let gated = if gated_ids.len() > MAX_GATED_ALONE {
            set(gated_hirs, gated_ids)?
        } else {
            None
        };
        Ok(StageMatcher {
            literals: self.literals.build(),
            targets: self.targets,
            regexes: entries,
            residual,
            gated,
        })
    }
}

impl StageMatcher {
    /// Scans one string, reporting hits to `sink`.
    pub(crate) fn scan(&self, s: &str, sink: &mut impl Sink) {
        let hay = s.as_bytes();
        let mut gated: Vec<u32> = Vec::new();
        let mut on_lines: Vec<(u32, usize)> = Vec::new();
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
                    let input = Input::new(hay)
                        .span(start..hay.len())
                        .anchored(Anchored::Yes);
                    if let Some(m) = entry.exact.search(&input)
                        && entry.accepts(s, m.start(), m.end())
                    {
                        sink.hit(entry.check, m.start(), m.end(), entry.label);
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

    fn scan_residual(&self, residual: &Residual, s: &str, sink: &mut impl Sink) {
        let ids = &residual.regex_ids;
        if !ids
            .iter()
            .any(|&r| sink.wants(self.regexes[r as usize].check))
        {
            return;
        }
        let mut set = PatternSet::new(residual.set.pattern_len());
        residual
            .set
            .which_overlapping_matches(&Input::new(s), &mut set);
        for pid in set.iter() {
            self.find_all(ids[pid.as_usize()] as usize, s, sink);
        }
    }

    /// Confirms single-line gated patterns on the lines holding their gate
    /// literals: every match holds a gate literal and stays on its line.
    fn scan_lines(&self, s: &str, found: &mut [(u32, usize)], sink: &mut impl Sink) {
        let hay = s.as_bytes();
        found.sort_unstable();
        let mut last: Option<(u32, usize)> = None;
        for &(regex, pos) in found.iter() {
            let entry = &self.regexes[regex as usize];
            let lo = memchr::memrchr(b'\n', &hay[..pos]).map_or(0, |i| i + 1);
            if last == Some((regex, lo)) || !sink.wants(entry.check) {
                continue;
            }
            last = Some((regex, lo));
            let hi = memchr::memchr(b'\n', &hay[pos..]).map_or(hay.len(), |i| pos + i);
            for m in entry.exact.find_iter(Input::new(hay).span(lo..hi)) {
                if entry.accepts(s, m.start(), m.end()) {
                    sink.hit(entry.check, m.start(), m.end(), entry.label);
                    if !sink.every(entry.check) {
                        break;
                    }
                }
            }
        }
    }

    /// Runs one exact regex over the whole string.
    fn find_all(&self, regex: usize, s: &str, sink: &mut impl Sink) {
        let entry = &self.regexes[regex];
        if !sink.wants(entry.check) {
            return;
        }
        for m in entry.exact.find_iter(s) {
            if entry.accepts(s, m.start(), m.end()) {
                sink.hit(entry.check, m.start(), m.end(), entry.label);
                if !sink.every(entry.check) {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
