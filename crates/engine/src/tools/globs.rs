//! Glob sets built when first needed, as one forward automaton.
//!
//! A glob's syntax is checked when the policy is read; the set of a check's
//! globs is built with the first stage that evaluates the check
//! ([`crate::policy::kinds::Whole::build`]), so that a one-request process
//! (a coding agent's hook, `palisade check`) builds only the sets its
//! request reaches. An engine that builds every stage when it is made
//! ([`crate::Engine::new`]) builds them all then, and reports a set that
//! cannot be built (over its size limit) there. A lazy engine of the
//! embedded default policy, whose sets are known to build, builds each set
//! only when a request first asks it.
//!
//! A glob matches a path when its regex ([`Glob::regex`], anchored at both
//! ends) matches the path's bytes, as `globset`'s `GlobMatcher` says (its
//! `GlobSet` differs in a corner: `*.` does not match `..` there). A set is
//! built as one forward Thompson NFA of those regexes and
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
use regex_syntax::hir::{Class, ClassBytes, ClassBytesRange, Dot, Hir, Look, Repetition};

#[cfg(test)]
thread_local! {
    /// How many glob sets this thread has built (tests count what a
    /// request builds).
    pub(crate) static BUILT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The size limit of a set's NFA (`globset`'s).
pub(crate) const NFA_SIZE_LIMIT: usize = 10 << 20;
/// The lazy DFA's cache (`globset`'s).
const CACHE_CAPACITY: usize = 10 << 20;

/// A glob of a set: parsed when its policy was read, or a text known to
/// parse (a built-in pattern, checked by the tests), parsed when its set is
/// built.
#[derive(Clone, Debug)]
pub(crate) enum SetGlob {
    Parsed(Glob),
    Known(String),
}

/// Globs, and their matcher once built (or why it could not be).
#[derive(Clone, Debug)]
pub(crate) struct LazyGlobSet {
    globs: Vec<SetGlob>,
    /// Parses a [`SetGlob::Known`] text with the options of the set's
    /// globs.
    parse: fn(&str) -> Result<Glob, String>,
    set: OnceLock<Result<GlobMatcher, String>>,
}

impl Default for LazyGlobSet {
    fn default() -> Self {
        Self::new(Vec::new())
    }
}

impl LazyGlobSet {
    /// Globs whose set is not built yet.
    pub(crate) fn new(globs: Vec<Glob>) -> Self {
        Self::with_known(globs.into_iter().map(SetGlob::Parsed).collect(), |text| {
            Glob::new(text).map_err(|e| e.to_string())
        })
    }

    /// Globs of which some are parsed by `parse` when the set is built.
    pub(crate) fn with_known(globs: Vec<SetGlob>, parse: fn(&str) -> Result<Glob, String>) -> Self {
        Self {
            globs,
            parse,
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
            .get_or_init(|| self.matcher())
            .as_ref()
            .map_err(Clone::clone)
    }

    fn matcher(&self) -> Result<GlobMatcher, String> {
        let known = self
            .globs
            .iter()
            .filter_map(|g| match g {
                SetGlob::Parsed(_) => None,
                SetGlob::Known(text) => Some((self.parse)(text)),
            })
            .collect::<Result<Vec<Glob>, String>>()?;
        let mut known = known.iter();
        let globs: Vec<&Glob> = self
            .globs
            .iter()
            .filter_map(|g| match g {
                SetGlob::Parsed(g) => Some(g),
                SetGlob::Known(_) => known.next(),
            })
            .collect();
        GlobMatcher::new(&globs)
    }

    /// Whether a glob matches `path`; `unbuilt` when the set cannot be
    /// built (the answer that fails closed where it is asked).
    pub(crate) fn is_match_or(&self, path: &str, unbuilt: bool) -> bool {
        self.get().map_or(unbuilt, |set| set.is_match(path))
    }
}

/// A thread's caches of a set's lazy DFA and PikeVM, and the set of
/// matching globs [`GlobMatcher::matches_into`] fills (kept, so that a
/// path costs no allocation).
type Caches = (
    hybrid::dfa::Cache,
    Option<thompson::pikevm::Cache>,
    PatternSet,
);
type CacheFn = Box<dyn Fn() -> Caches + Send + Sync + UnwindSafe + RefUnwindSafe>;

/// A built glob set (see the module docs).
#[derive(Clone, Debug)]
pub(crate) struct GlobMatcher {
    /// `None` without globs.
    engines: Option<Engines>,
    /// The heap memory of its NFA.
    nfa_bytes: usize,
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
        let create: CacheFn = Box::new(move || {
            let set = PatternSet::new(for_cache.pattern_len());
            (for_cache.create_cache(), None, set)
        });
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
    fn new(globs: &[&Glob]) -> Result<Self, String> {
        if globs.is_empty() {
            return Ok(Self {
                engines: None,
                nfa_bytes: 0,
            });
        }
        #[cfg(test)]
        BUILT.with(|built| built.set(built.get() + 1));
        let syntax = syntax::Config::new().utf8(false).dot_matches_new_line(true);
        let mut hirs = Vec::with_capacity(globs.len());
        for g in globs {
            let hir = match glob_hir(g.regex()) {
                Some(hir) => hir,
                None => syntax::parse_with(g.regex(), &syntax).map_err(|e| e.to_string())?,
            };
            hirs.push(hir);
        }
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .which_captures(WhichCaptures::None)
                    .nfa_size_limit(Some(NFA_SIZE_LIMIT)),
            )
            .build_many_from_hir(&hirs)
            .map_err(|e| e.to_string())?;
        let nfa_bytes = nfa.memory_usage();
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
            nfa_bytes,
        })
    }

    /// The heap memory of its NFA, which its size limit bounds.
    pub(crate) fn nfa_bytes(&self) -> usize {
        self.nfa_bytes
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
        let mut caches = e.caches.get();
        let (dfa_cache, pikevm_cache, set) = &mut *caches;
        set.clear();
        if e.dfa
            .try_which_overlapping_matches(dfa_cache, &input, set)
            .is_err()
        {
            set.clear();
            let cache = pikevm_cache.get_or_insert_with(|| e.pikevm.create_cache());
            e.pikevm.which_overlapping_matches(cache, &input, set);
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

/// The HIR of a glob's regex, read straight from the small language
/// `globset` writes (`(?-u)`, an optional `(?i)`, `^`, escaped literals,
/// `\xNN` bytes, `.`, bracketed byte classes, `*`, `?`, `(?:…|…)`, `$`) and
/// built as `regex-syntax` builds it for the syntax options of a set, at a
/// fraction of the cost of its general parser. `None` for anything else,
/// which the general parser then reads.
fn glob_hir(regex: &str) -> Option<Hir> {
    let rest = regex.strip_prefix("(?-u)")?;
    let (fold, rest) = match rest.strip_prefix("(?i)") {
        Some(rest) => (true, rest),
        None => (false, rest),
    };
    let body = rest.strip_prefix('^')?.strip_suffix('$')?;
    let mut reader = GlobRegex {
        bytes: body.as_bytes(),
        at: 0,
        fold,
    };
    let mut items = vec![Hir::look(Look::Start)];
    reader.items(&mut items)?;
    if reader.at != reader.bytes.len() {
        return None;
    }
    items.push(Hir::look(Look::End));
    Some(Hir::concat(items))
}

/// A reader of a glob's regex body (see [`glob_hir`]).
struct GlobRegex<'a> {
    bytes: &'a [u8],
    at: usize,
    /// `(?i)`: ASCII letters stand for both cases.
    fold: bool,
}

impl GlobRegex<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == Some(b);
        self.at += usize::from(hit);
        hit
    }

    /// Branches separated by `|`, up to a `)` or the end.
    fn alternation(&mut self) -> Option<Hir> {
        let mut branches = vec![self.concat()?];
        while self.eat(b'|') {
            branches.push(self.concat()?);
        }
        Some(if branches.len() == 1 {
            branches.pop()?
        } else {
            Hir::alternation(branches)
        })
    }

    /// Items up to a `|`, a `)` or the end.
    fn concat(&mut self) -> Option<Hir> {
        let mut items = Vec::new();
        self.items(&mut items)?;
        Some(Hir::concat(items))
    }

    /// Adds the items up to a `|`, a `)` or the end to `items`, a run of
    /// literal bytes as one literal.
    fn items(&mut self, items: &mut Vec<Hir>) -> Option<()> {
        let mut run: Vec<u8> = Vec::new();
        while let Some(b) = self.peek() {
            let item = match b {
                b'|' | b')' => break,
                b'.' => {
                    self.at += 1;
                    Hir::dot(Dot::AnyByte)
                }
                b'[' => self.class()?,
                b'(' => {
                    self.at += 1;
                    if !(self.eat(b'?') && self.eat(b':')) {
                        return None;
                    }
                    let inner = self.alternation()?;
                    if !self.eat(b')') {
                        return None;
                    }
                    inner
                }
                _ => {
                    let byte = self.literal()?;
                    match self.fold_byte(byte) {
                        Some(class) => Hir::class(Class::Bytes(class)),
                        None if matches!(self.peek(), Some(b'*' | b'?')) => Hir::literal([byte]),
                        None => {
                            run.push(byte);
                            continue;
                        }
                    }
                }
            };
            if !run.is_empty() {
                items.push(Hir::literal(std::mem::take(&mut run)));
            }
            // `*`, and the `?` of `(?:/?|.*/)` (a leading `**/`).
            let max = if self.eat(b'*') {
                Some(None)
            } else if self.eat(b'?') {
                Some(Some(1))
            } else {
                None
            };
            let item = match max {
                Some(max) => Hir::repetition(Repetition {
                    min: 0,
                    max,
                    greedy: true,
                    sub: Box::new(item),
                }),
                None => item,
            };
            items.push(item);
        }
        if !run.is_empty() {
            items.push(Hir::literal(run));
        }
        Some(())
    }

    /// A literal byte: `\c` for an escaped ASCII character, `\xNN` for a
    /// byte over 0x7F, or a plain ASCII character that is not special.
    fn literal(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.at += 1;
        if b == b'\\' {
            let c = self.peek()?;
            self.at += 1;
            if c == b'x' {
                let hex = self.bytes.get(self.at..self.at + 2)?;
                self.at += 2;
                let byte = u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                return (byte > 0x7F).then_some(byte);
            }
            return regex_syntax::is_meta_character(char::from(c)).then_some(c);
        }
        let special = b"\\.+*?()|[]{}^$#&-~";
        (b.is_ascii() && !special.contains(&b) && !b.is_ascii_control()).then_some(b)
    }

    /// `(?i)`: an ASCII letter's class of both cases; `None` for any other
    /// byte (or without `(?i)`), which stays a literal.
    fn fold_byte(&self, byte: u8) -> Option<ClassBytes> {
        if !self.fold || !byte.is_ascii_alphabetic() {
            return None;
        }
        let mut class = ClassBytes::new([ClassBytesRange::new(byte, byte)]);
        class.case_fold_simple();
        Some(class)
    }

    /// A bracketed class: `[`, an optional `^`, bytes and ranges, `]`;
    /// folded before it is negated, as `regex-syntax` does.
    fn class(&mut self) -> Option<Hir> {
        self.at += 1;
        let negated = self.eat(b'^');
        let mut ranges = Vec::new();
        while !self.eat(b']') {
            let start = self.class_byte()?;
            let end = if self.eat(b'-') {
                self.class_byte()?
            } else {
                start
            };
            if end < start {
                return None;
            }
            ranges.push(ClassBytesRange::new(start, end));
        }
        if ranges.is_empty() {
            return None;
        }
        let mut class = ClassBytes::new(ranges);
        if self.fold {
            class.case_fold_simple();
        }
        if negated {
            class.negate();
        }
        // A class that matches nothing is left to the general parser.
        (!class.ranges().is_empty()).then(|| Hir::class(Class::Bytes(class)))
    }

    /// A byte of a class: an escape as in [`GlobRegex::literal`], or a
    /// plain ASCII character other than `]`, `-`, `[`, `&`, `~` and `^`.
    fn class_byte(&mut self) -> Option<u8> {
        let b = self.peek()?;
        if b == b'\\' {
            return self.literal();
        }
        self.at += 1;
        (b.is_ascii() && !b"]-[&~^".contains(&b) && !b.is_ascii_control()).then_some(b)
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

/// A small deterministic generator (xorshift), for tests that compare
/// matchers on generated globs and texts.
#[cfg(test)]
pub(crate) struct Rng(pub(crate) u64);

#[cfg(test)]
impl Rng {
    pub(crate) fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    pub(crate) fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
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

    #[test]
    fn a_set_means_what_each_globs_matcher_means() {
        const GLOB_PARTS: &[&str] = &[
            "a", "b", "B", ".", "/", "*", "**", "**/", "/**", "?", "[a-c]", "[!a]", "[.]",
            "{a,b/}", "{,*}", "\\*", "x", "é", " ", "-", "+", "<(", "$", "=", "#", "&", "~",
            "[^-]", "[]a]", ":", "%", "\\{", "[a-]",
        ];
        const PATH_PARTS: &[&str] = &[
            "a", "b", "A", "B", ".", "/", "x", "é", "É", " ", "-", "*", "ab", "\n",
        ];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut compared, mut matched) = (0, 0);
        let config = syntax::Config::new().utf8(false).dot_matches_new_line(true);
        let (mut read, mut general) = (0, Vec::new());
        let mut unlike_globset = Vec::new();
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
                let parsed = syntax::parse_with(g.regex(), &config).unwrap();
                match glob_hir(g.regex()) {
                    Some(hir) => assert_eq!(hir, parsed, "{:?} as {:?}", g.glob(), g.regex()),
                    None => general.push(g.regex().to_owned()),
                }
                read += 1;
            }
            let reference = reference.build().unwrap();
            let each: Vec<globset::GlobMatcher> = globs.iter().map(Glob::compile_matcher).collect();
            let ours = LazyGlobSet::new(globs.clone());
            let matcher = ours.get().unwrap();
            for _ in 0..60 {
                let path: String = (0..rng.below(8)).map(|_| rng.pick(PATH_PARTS)).collect();
                let expected: Vec<usize> = (0..each.len())
                    .filter(|&i| each[i].is_match(&path))
                    .collect();
                assert_eq!(
                    matcher.matches(&path),
                    expected,
                    "round {round}: {:?} on {path:?}",
                    globs.iter().map(Glob::glob).collect::<Vec<_>>()
                );
                assert_eq!(ours.is_match_or(&path, false), !expected.is_empty());
                compared += 1;
                matched += usize::from(!expected.is_empty());
                if reference.matches(&path) != expected {
                    unlike_globset.push(format!(
                        "{:?} on {path:?}",
                        globs.iter().map(Glob::glob).collect::<Vec<_>>()
                    ));
                }
            }
        }
        assert_eq!(compared, 300 * 60);
        eprintln!("{matched} of {compared} paths matched");
        // `GlobSet` itself answers otherwise in a few corners, where a
        // literal strategy of its own disagrees with the glob's regex
        // (`*.` does not match `..` there): those are shown, not failed.
        eprintln!("unlike GlobSet: {unlike_globset:#?}");
        assert!(
            matched > compared / 10,
            "{matched} of {compared} paths matched"
        );
        // Every regex `globset` writes is read without the general parser.
        assert!(
            general.is_empty(),
            "{} of {read}: {general:?}",
            general.len()
        );
    }
}
