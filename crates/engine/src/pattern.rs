//! Regex patterns: parsing, the literals every match starts with, and the
//! relaxed form that keeps the fast engines.
//!
//! The lazy DFA cannot evaluate a Unicode word boundary (`\b` in the default
//! Unicode mode) on non-ASCII text and would hand the whole search to the
//! much slower PikeVM. Patterns are therefore never searched in bulk with
//! their exact form. Instead, either
//! - every match starts with one of a small set of literals, which the
//!   literal filter finds, and the exact regex is run anchored at each
//!   candidate (a few bytes of work), or
//! - the *relaxed* form (Unicode word-boundary assertions replaced by the
//!   empty string, which only ever adds matches) runs in the multi-pattern
//!   lazy DFA, and only patterns it reports are confirmed with the exact
//!   regex.
//!
//! Both are exact: the exact regex has the last word.

pub(crate) mod plan;

use std::sync::{Arc, OnceLock};

use regex_automata::dfa::{Automaton, StartKind, dense};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::prefilter::Prefilter;
use regex_automata::util::primitives::StateID;
use regex_automata::{Anchored, Input, meta};
use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{
    Capture, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind,
    Look, Repetition,
};

use crate::limits::MAX_REGEX_BYTES;
use crate::pattern::plan::Plan;

/// Largest number of distinct prefix literals a pattern may use the literal filter with.
const MAX_PREFIXES: usize = 64;

fn parser() -> regex_syntax::Parser {
    regex_syntax::ParserBuilder::new().nest_limit(100).build()
}

/// Parses a pattern, reporting a one-line error.
pub(crate) fn parse(pattern: &str) -> Result<Hir, String> {
    parser().parse(pattern).map_err(|e| match e {
        regex_syntax::Error::Parse(e) => {
            format!(
                "invalid regex: {} (at byte {})",
                e.kind(),
                e.span().start.offset
            )
        }
        regex_syntax::Error::Translate(e) => {
            format!(
                "invalid regex: {} (at byte {})",
                e.kind(),
                e.span().start.offset
            )
        }
        other => format!("invalid regex: {other}"),
    })
}

/// A pattern compiled: its syntax tree, which the stage automata are built
/// from, and the regex that confirms a match exactly.
#[derive(Clone, Debug)]
pub(crate) struct Pattern {
    /// The exact regex, and the syntax tree it is compiled from.
    pub(crate) exact: Exact,
    /// Where the scanner finds its candidates, worked out on first use and
    /// shared by the pattern's clones (embedded for the built-in detectors).
    plan: Arc<OnceLock<Plan>>,
}

impl Pattern {
    /// Checks a parsed pattern against the size limit (its NFA, which the
    /// exact regex is built from); the exact regex is compiled on first
    /// use ([`Exact`]).
    pub(crate) fn new(hir: Hir) -> Result<Self, String> {
        thompson::Compiler::new()
            .configure(thompson::Config::new().nfa_size_limit(Some(MAX_REGEX_BYTES)))
            .build_from_hir(&hir)
            // Worded as the regex builder words it.
            .map_err(|_| "regex is too large once compiled: error building NFA".to_owned())?;
        Ok(Self::deferred(hir))
    }

    /// A pattern whose exact regex is compiled on first use, unchecked:
    /// for the built-in detectors, which a test compiles.
    pub(crate) fn deferred(hir: Hir) -> Self {
        Self {
            exact: Exact::deferred(hir),
            plan: Arc::default(),
        }
    }

    /// The syntax tree, which the stage automata are built from.
    pub(crate) fn hir(&self) -> &Hir {
        self.exact.hir()
    }

    /// A deferred pattern whose plan is known (embedded in the binary).
    pub(crate) fn planned(hir: Hir, plan: Plan) -> Self {
        let pattern = Self::deferred(hir);
        // A new cell: it is empty.
        let _ = pattern.plan.set(plan);
        pattern
    }

    /// Where the scanner finds the pattern's candidates.
    pub(crate) fn plan(&self) -> &Plan {
        self.plan
            .get_or_init(|| crate::pattern::plan::plan(self.hir()))
    }

    /// Whether the plan is known without working it out.
    #[cfg(test)]
    pub(crate) fn is_planned(&self) -> bool {
        self.plan.get().is_some()
    }
}

/// An exact regex, compiled now or on first use, shared by its clones.
///
/// Compiling a regex is the largest part of building a stage (a built-in
/// detector takes a few hundred microseconds): a process that decides one
/// request (a coding agent's hook) compiles only those whose literals the
/// request holds.
#[derive(Clone, Debug)]
pub(crate) struct Exact(Arc<ExactCell>);

#[derive(Debug)]
struct ExactCell {
    hir: Hir,
    regex: OnceLock<Option<meta::Regex>>,
}

impl Exact {
    /// Compiled on first use.
    pub(crate) fn deferred(hir: Hir) -> Self {
        Self(Arc::new(ExactCell {
            hir,
            regex: OnceLock::new(),
        }))
    }

    /// The syntax tree the regex is compiled from.
    pub(crate) fn hir(&self) -> &Hir {
        &self.0.hir
    }

    /// Whether the regex has been compiled.
    #[cfg(test)]
    pub(crate) fn is_built(&self) -> bool {
        self.0.regex.get().is_some()
    }

    /// The regex; `None` only when it exceeds the size limit, which the
    /// patterns deferred are known not to (callers then fail closed).
    #[inline]
    pub(crate) fn get(&self) -> Option<&meta::Regex> {
        self.0
            .regex
            .get_or_init(|| exact_regex(&self.0.hir).ok())
            .as_ref()
    }
}

/// A fingerprint of a syntax tree's shape and content (FNV-1a over its
/// nodes, literals, class ranges and repetition bounds): an embedded plan
/// is used only for the tree it was worked out from.
pub(crate) fn fingerprint(hir: &Hir) -> u64 {
    struct Fnv(u64);
    impl Fnv {
        fn bytes(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        fn num(&mut self, n: u32) {
            self.bytes(&n.to_le_bytes());
        }
    }
    fn walk(hir: &Hir, h: &mut Fnv) {
        match hir.kind() {
            HirKind::Empty => h.bytes(b"e"),
            HirKind::Literal(lit) => {
                h.bytes(b"l");
                h.num(lit.0.len() as u32);
                h.bytes(&lit.0);
            }
            HirKind::Class(Class::Unicode(cls)) => {
                h.bytes(b"u");
                h.num(cls.ranges().len() as u32);
                for r in cls.ranges() {
                    h.num(u32::from(r.start()));
                    h.num(u32::from(r.end()));
                }
            }
            HirKind::Class(Class::Bytes(cls)) => {
                h.bytes(b"b");
                h.num(cls.ranges().len() as u32);
                for r in cls.ranges() {
                    h.bytes(&[r.start(), r.end()]);
                }
            }
            HirKind::Look(look) => {
                h.bytes(b"k");
                h.num(look.as_repr());
            }
            HirKind::Repetition(rep) => {
                h.bytes(if rep.greedy { b"r" } else { b"n" });
                h.num(rep.min);
                h.num(rep.max.map_or(u32::MAX, |m| m.saturating_add(1)));
                walk(&rep.sub, h);
            }
            HirKind::Capture(cap) => {
                h.bytes(b"c");
                walk(&cap.sub, h);
            }
            HirKind::Concat(subs) | HirKind::Alternation(subs) => {
                h.bytes(if matches!(hir.kind(), HirKind::Concat(_)) {
                    b"+"
                } else {
                    b"|"
                });
                h.num(subs.len() as u32);
                for sub in subs {
                    walk(sub, h);
                }
            }
        }
    }
    let mut h = Fnv(0xcbf2_9ce4_8422_2325);
    walk(hir, &mut h);
    h.0
}

/// The alternatives of a pattern that is an alternation at its top
/// (`A|B|C`), else the pattern alone.
pub(crate) fn alternatives(hir: Hir) -> Vec<Hir> {
    match hir.kind() {
        HirKind::Alternation(subs) => subs.clone(),
        _ => vec![hir],
    }
}

/// Compiles a policy's pattern: it must parse, fit the size limit and not
/// match the empty string.
pub(crate) fn compile(pattern: &str) -> Result<Pattern, String> {
    let hir = parse(pattern)?;
    if hir.properties().minimum_len() == Some(0) {
        return Err(
            "pattern can match the empty string, so it would fire on every request".to_owned(),
        );
    }
    Pattern::new(hir)
}

/// The exact regex for a pattern.
pub(crate) fn exact_regex(hir: &Hir) -> Result<meta::Regex, String> {
    meta::Builder::new()
        .configure(meta::Config::new().nfa_size_limit(Some(MAX_REGEX_BYTES)))
        .build_from_hir(hir)
        .map_err(|e| format!("regex is too large once compiled: {e}"))
}

/// Builds one lazy-DFA-backed regex over many (relaxed) patterns, which
/// says which patterns match somewhere in a text (a filter: the patterns it
/// reports are then searched alone).
///
/// When every match of every pattern starts with one of a few bytes, the
/// search skips from one such byte to the next ([`first_bytes`]) instead of
/// walking the automaton over the text between them. Where a pattern's
/// matches start with common bytes (letters) but always end with a part
/// that starts with rare ones, the set holds that part instead
/// ([`rare_suffix`]): it matches wherever the pattern does, so the set
/// still reports every pattern that matches, and the search can skip.
pub(crate) fn multi_regex(hirs: &[Hir]) -> Result<meta::Regex, String> {
    let suffixes: Option<Vec<Hir>> = hirs.iter().map(rare_suffix).collect();
    let (hirs, prefilter) = match suffixes
        .as_deref()
        .and_then(|suffixes| Some((suffixes, skip_to(suffixes)?)))
    {
        Some((suffixes, prefilter)) => (suffixes, Some(prefilter)),
        None => (hirs, skip_to(hirs)),
    };
    meta::Builder::new()
        .configure(
            meta::Config::new()
                .match_kind(regex_automata::MatchKind::All)
                .nfa_size_limit(Some(MAX_REGEX_BYTES.saturating_mul(16)))
                .hybrid_cache_capacity(8 * 1024 * 1024)
                .prefilter(prefilter),
        )
        .build_many_from_hir(hirs)
        .map_err(|e| format!("patterns are too large once compiled: {e}"))
}

/// The search for the bytes every match of these patterns starts with,
/// when it is worth running: skipping to letters or spaces skips little
/// and costs a search each time, so only a few bytes (`memchr`), or bytes
/// that are rare in text.
fn skip_to(hirs: &[Hir]) -> Option<Prefilter> {
    let bytes = first_bytes(hirs)?;
    let prefilter = Prefilter::new(regex_automata::MatchKind::All, &bytes)?;
    let rare = bytes.iter().all(|&[b]| rare_in_text(b));
    (prefilter.is_fast() || rare).then_some(prefilter)
}

/// Whether text holds few of this byte: not a letter, not a space.
fn rare_in_text(b: u8) -> bool {
    !b.is_ascii_alphabetic() && !b.is_ascii_whitespace()
}

/// A pattern that a suffix of every match of `hir` matches, and whose
/// matches start with bytes that are rare in text (neither letters nor
/// spaces): `hir` itself when it starts so, else what is left once leading
/// parts are dropped (`[A-Z]{2}[0-9]{2}…` gives `[0-9]{2}…`; each
/// alternative of an alternation its own). `None` when there is none, or
/// when `hir` can match the empty string.
fn rare_suffix(hir: &Hir) -> Option<Hir> {
    if hir.properties().minimum_len().is_none_or(|len| len == 0) {
        return None;
    }
    if first_bytes(std::slice::from_ref(hir))
        .is_some_and(|bytes| bytes.iter().all(|&[b]| rare_in_text(b)))
    {
        return Some(hir.clone());
    }
    match hir.kind() {
        HirKind::Literal(literal) => {
            // At an ASCII byte, so that the rest is still UTF-8.
            let from = literal
                .0
                .iter()
                .position(|&b| b.is_ascii() && rare_in_text(b))?;
            Some(Hir::literal(literal.0.get(from..)?))
        }
        HirKind::Capture(capture) => rare_suffix(&capture.sub),
        // The last `min` repetitions at least: the first of them ends with
        // the suffix, the others follow it whole.
        HirKind::Repetition(rep) => {
            let first = rare_suffix(&rep.sub)?;
            let rest = Hir::repetition(Repetition {
                min: rep.min.checked_sub(1)?,
                max: rep.max.map(|max| max.saturating_sub(1)),
                greedy: rep.greedy,
                sub: rep.sub.clone(),
            });
            Some(Hir::concat(vec![first, rest]))
        }
        // The first part that ends with such a suffix (it cannot match
        // empty), and the parts after it.
        HirKind::Concat(parts) => parts.iter().enumerate().find_map(|(i, part)| {
            let first = rare_suffix(part)?;
            let rest = parts.get(i + 1..)?.iter().cloned();
            Some(Hir::concat(std::iter::once(first).chain(rest).collect()))
        }),
        HirKind::Alternation(alternatives) => alternatives
            .iter()
            .map(rare_suffix)
            .collect::<Option<Vec<_>>>()
            .map(Hir::alternation),
        HirKind::Empty | HirKind::Class(_) | HirKind::Look(_) => None,
    }
}

/// The bytes every match of these patterns starts with, each as a
/// one-byte needle; `None` when a pattern can match the empty string or
/// start with any of more than [`MAX_FIRST_BYTES`] bytes.
fn first_bytes(hirs: &[Hir]) -> Option<Vec<[u8; 1]>> {
    let mut extractor = Extractor::new();
    extractor
        .kind(ExtractKind::Prefix)
        .limit_literal_len(1)
        .limit_class(MAX_FIRST_BYTES)
        // Before duplicates are removed (`[0-9]{3}` gives ten of each).
        .limit_total(256);
    let mut bytes: Vec<u8> = Vec::new();
    for hir in hirs {
        let seq = extractor.extract(hir);
        for literal in seq.literals()? {
            let &[b] = literal.as_bytes() else {
                // Empty: the pattern can match anywhere.
                return None;
            };
            bytes.push(b);
        }
    }
    bytes.sort_unstable();
    bytes.dedup();
    let needles: Vec<[u8; 1]> = bytes.into_iter().map(|b| [b]).collect();
    (needles.len() <= MAX_FIRST_BYTES).then_some(needles)
}

/// The most first bytes a set's search skips to: up to 16, the search for
/// them is a SIMD one (Teddy); beyond, it would go byte by byte.
const MAX_FIRST_BYTES: usize = 16;

/// Fully built DFAs for a (relaxed) guard, run anchored at each occurrence
/// of its literals to see whether the guard can match there at all: most
/// occurrences (`token` in "max tokens") die within a few bytes, which costs
/// a few table lookups instead of a regex search.
///
/// The DFAs read the guard with its classes widened to bytes
/// ([`widen_to_bytes`]): a value of `[^"\r\n]{12,}`, whose characters
/// beyond ASCII would take hundreds of kilobytes and milliseconds to build
/// as UTF-8, takes a few states. When the whole guard still makes a large
/// DFA, it is cut in two: `head`, its longest leading part that makes a
/// small DFA (`token…=`), and `tail`, the rest [`shortened`] (a value's
/// first 12 characters), when that makes a small DFA too. Wherever `head`
/// matches, `tail` is run from there, so that a value too short
/// (`token: str,`) is turned away too. `None` when even the first element
/// is large.
#[derive(Clone, Debug)]
pub(crate) struct GuardDfa {
    pub(crate) head: dense::DFA<Vec<u32>>,
    pub(crate) tail: Option<dense::DFA<Vec<u32>>>,
}

#[expect(
    clippy::indexing_slicing,
    reason = "split points come from iterating the same concatenation"
)]
pub(crate) fn guard_dfa(rest: &Hir) -> Option<GuardDfa> {
    let rest = widen_to_bytes(rest);
    if let Some(head) = small_dfa(&rest) {
        return Some(GuardDfa { head, tail: None });
    }
    let subs: Vec<Hir> = match rest.kind() {
        HirKind::Concat(subs) => subs.clone(),
        _ => return None,
    };
    let (n, head) = (1..subs.len())
        .rev()
        .find_map(|n| Some((n, small_dfa(&Hir::concat(subs[..n].to_vec()))?)))?;
    let tail = small_dfa(&shortened(&Hir::concat(subs[n..].to_vec())).0);
    Some(GuardDfa { head, tail })
}

/// `hir` with each class that holds more than [`WIDEN_FROM`] characters
/// beyond ASCII made a choice between its ASCII part and any character
/// beyond ASCII as UTF-8
/// writes it (a leading byte from `0xC0` up, then bytes `0x80..=0xBF`).
/// Every string the pattern matches, the widened one matches too, with the
/// same number of repetitions; it matches more (any character beyond
/// ASCII where the class had only some), which a guard may. Read a byte at
/// a time, a class of a few ASCII ranges is a few byte classes, where the
/// same class as UTF-8 is hundreds of states.
fn widen_to_bytes(hir: &Hir) -> Hir {
    match hir.kind() {
        HirKind::Class(Class::Unicode(cls)) if beyond_ascii(cls) > WIDEN_FROM => {
            let ascii: Vec<ClassBytesRange> = cls
                .ranges()
                .iter()
                .filter(|r| r.start().is_ascii())
                .map(|r| {
                    let end = u8::try_from(r.end()).unwrap_or(0x7F).min(0x7F);
                    ClassBytesRange::new(u8::try_from(r.start()).unwrap_or(0), end)
                })
                .collect();
            let bytes = |lo, hi| {
                Hir::class(Class::Bytes(ClassBytes::new([ClassBytesRange::new(
                    lo, hi,
                )])))
            };
            let high = Hir::concat(vec![
                bytes(0xC0, 0xFF),
                Hir::repetition(Repetition {
                    min: 0,
                    max: None,
                    greedy: true,
                    sub: Box::new(bytes(0x80, 0xBF)),
                }),
            ]);
            if ascii.is_empty() {
                high
            } else {
                Hir::alternation(vec![Hir::class(Class::Bytes(ClassBytes::new(ascii))), high])
            }
        }
        _ => map_parts(hir, widen_to_bytes),
    }
}

/// A pattern each of whose matches starts with one of `hir`'s: its first
/// repetition that can match more than its fewest made exact at its
/// fewest, and all that follows it dropped (`"[^"]{12,}"` becomes
/// `"[^"]{12}`). A DFA that reaches a match of it has read as much as the
/// guard needs at least, and it has fewer states. The second value says
/// whether something was dropped.
fn shortened(hir: &Hir) -> (Hir, bool) {
    match hir.kind() {
        HirKind::Repetition(rep) if rep.min >= SHORTEN_FROM && rep.max != Some(rep.min) => (
            Hir::repetition(Repetition {
                min: rep.min,
                max: Some(rep.min),
                greedy: rep.greedy,
                sub: rep.sub.clone(),
            }),
            true,
        ),
        HirKind::Concat(subs) => {
            let mut kept = Vec::new();
            for sub in subs {
                let (sub, cut) = shortened(sub);
                kept.push(sub);
                if cut {
                    return (Hir::concat(kept), true);
                }
            }
            (hir.clone(), false)
        }
        HirKind::Alternation(subs) => {
            let branches: Vec<(Hir, bool)> = subs.iter().map(shortened).collect();
            let cut = branches.iter().any(|(_, cut)| *cut);
            (
                Hir::alternation(branches.into_iter().map(|(h, _)| h).collect()),
                cut,
            )
        }
        HirKind::Capture(cap) => shortened(&cap.sub),
        _ => (hir.clone(), false),
    }
}

/// The fewest repetitions [`shortened`] cuts a pattern at.
const SHORTEN_FROM: u32 = 4;

/// How many characters beyond ASCII a class may hold and stay as it is
/// in [`widen_to_bytes`]: those of ASCII case folding (`ſ`, the Kelvin
/// sign) are a few exact sequences of bytes, cheaper than a choice.
const WIDEN_FROM: u32 = 16;

/// The number of characters beyond ASCII in `cls`.
fn beyond_ascii(cls: &ClassUnicode) -> u32 {
    cls.ranges()
        .iter()
        .filter(|r| !r.end().is_ascii())
        .map(|r| u32::from(r.end()) + 1 - u32::from(r.start()).max(0x80))
        .sum()
}

fn small_dfa(hir: &Hir) -> Option<dense::DFA<Vec<u32>>> {
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .which_captures(WhichCaptures::None)
                .nfa_size_limit(Some(MAX_REGEX_BYTES)),
        )
        .build_from_hir(hir)
        .ok()?;
    dense::Builder::new()
        .configure(
            dense::Config::new()
                .start_kind(StartKind::Anchored)
                // Every end of a match: [`dies_from`] runs the tail from
                // each, where leftmost-first would stop after the first
                // that a lazy repetition (`{0,80}?`) or an earlier branch
                // (`=|=>`) prefers, and miss a match ending later.
                .match_kind(regex_automata::MatchKind::All)
                // Read a byte at a time: an accelerated state would be a
                // special state that decides nothing.
                .accelerate(false)
                .dfa_size_limit(Some(GUARD_DFA_BYTES))
                .determinize_size_limit(Some(4 * GUARD_DFA_BYTES)),
        )
        .build_from_nfa(&nfa)
        .ok()
}

/// Largest guard DFA kept.
const GUARD_DFA_BYTES: usize = 64 << 10;

/// Whether the guard dies within `window` bytes from `start`: then it
/// matches nowhere starting there. A match, a byte a DFA gives up on, or
/// the end of the window before either is "maybe" (`false`).
pub(crate) fn guard_dies(guard: &GuardDfa, hay: &[u8], start: usize, window: usize) -> bool {
    dies(
        &guard.head,
        guard.tail.as_ref(),
        hay,
        start,
        start.saturating_add(window),
    )
}

/// Whether `dfa` dies from `start` (its anchored start there) within
/// `end`, each of its matches followed by `tail` dying.
fn dies(
    dfa: &dense::DFA<Vec<u32>>,
    tail: Option<&dense::DFA<Vec<u32>>>,
    hay: &[u8],
    start: usize,
    end: usize,
) -> bool {
    let input = Input::new(hay)
        .span(start..hay.len())
        .anchored(Anchored::Yes);
    let Ok(state) = dfa.start_state_forward(&input) else {
        return false;
    };
    dies_from(dfa, tail, state, hay, start, end)
}

/// The state of a guard's DFA once it has read `bytes` from its anchored
/// start, for a DFA whose start does not depend on what precedes it (no
/// look-behind assertion opens the guard), when reading them decides
/// nothing yet. [`guard_dies_from`] then goes on from the byte after them:
/// the guard's literal at an occurrence costs no table reads.
pub(crate) fn guard_state_after(guard: &GuardDfa, bytes: &[u8]) -> Option<StateID> {
    let dfa = &guard.head;
    let mut state = dfa.universal_start_state(Anchored::Yes)?;
    for &byte in bytes {
        state = dfa.next_state(state, byte);
        if dfa.is_special_state(state) {
            return None;
        }
    }
    Some(state)
}

/// [`guard_dies`] from `state` at `at`, up to `end` (at most the end of
/// `hay`, whose end-of-input the DFA then sees).
pub(crate) fn guard_dies_from(
    guard: &GuardDfa,
    state: StateID,
    hay: &[u8],
    at: usize,
    end: usize,
) -> bool {
    dies_from(&guard.head, guard.tail.as_ref(), state, hay, at, end)
}

/// [`dies`] from `state` at `at`. A DFA enters a match state on the byte
/// after the match: a match found on reading the byte at `i` ends at `i`,
/// and `tail` is run from there.
fn dies_from(
    dfa: &dense::DFA<Vec<u32>>,
    tail: Option<&dense::DFA<Vec<u32>>>,
    mut state: StateID,
    hay: &[u8],
    at: usize,
    end: usize,
) -> bool {
    let end = hay.len().min(end);
    for (i, &byte) in hay.get(at..end).unwrap_or_default().iter().enumerate() {
        state = dfa.next_state(state, byte);
        if dfa.is_special_state(state) {
            if dfa.is_dead_state(state) {
                return true;
            }
            match tail {
                Some(tail) if dfa.is_match_state(state) => {
                    if !dies(tail, None, hay, at + i, end) {
                        return false;
                    }
                }
                _ => return false,
            }
        }
    }
    if end == hay.len() {
        state = dfa.next_eoi_state(state);
        return match tail {
            Some(tail) if dfa.is_match_state(state) => dies(tail, None, hay, end, end),
            _ => dfa.is_dead_state(state),
        };
    }
    false
}

/// Whether some match of the pattern can contain a line feed. A pattern that
/// cannot only ever matches within one line.
pub(crate) fn can_match_newline(hir: &Hir) -> bool {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(lit) => lit.0.contains(&b'\n'),
        HirKind::Class(Class::Unicode(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= '\n' && '\n' <= r.end()),
        HirKind::Class(Class::Bytes(c)) => c
            .ranges()
            .iter()
            .any(|r| r.start() <= b'\n' && b'\n' <= r.end()),
        HirKind::Repetition(rep) => rep.max != Some(0) && can_match_newline(&rep.sub),
        HirKind::Capture(cap) => can_match_newline(&cap.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => subs.iter().any(can_match_newline),
    }
}

/// Whether the pattern uses a Unicode word-boundary assertion.
pub(crate) fn has_unicode_word_boundary(hir: &Hir) -> bool {
    hir.properties().look_set().contains_word_unicode()
}

/// The pattern with every Unicode word-boundary assertion replaced by the
/// empty string. It matches everything the pattern matches, and more.
pub(crate) fn relax(hir: &Hir) -> Hir {
    if !has_unicode_word_boundary(hir) {
        return hir.clone();
    }
    match hir.kind() {
        HirKind::Look(look) => match look {
            Look::WordUnicode
            | Look::WordUnicodeNegate
            | Look::WordStartUnicode
            | Look::WordEndUnicode
            | Look::WordStartHalfUnicode
            | Look::WordEndHalfUnicode => Hir::empty(),
            _ => hir.clone(),
        },
        _ => map_parts(hir, relax),
    }
}

/// `hir` with `f` applied to its parts: a repetition's, a capture's, a
/// concatenation's or an alternation's (built from the mapped parts, not
/// cloned whole and then replaced); any other kind as it is.
fn map_parts(hir: &Hir, f: fn(&Hir) -> Hir) -> Hir {
    match hir.kind() {
        HirKind::Repetition(rep) => Hir::repetition(Repetition {
            min: rep.min,
            max: rep.max,
            greedy: rep.greedy,
            sub: Box::new(f(&rep.sub)),
        }),
        HirKind::Capture(cap) => Hir::capture(Capture {
            index: cap.index,
            name: cap.name.clone(),
            sub: Box::new(f(&cap.sub)),
        }),
        HirKind::Concat(subs) => Hir::concat(subs.iter().map(f).collect()),
        HirKind::Alternation(subs) => Hir::alternation(subs.iter().map(f).collect()),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) | HirKind::Look(_) => hir.clone(),
    }
}

/// The literals every match of the pattern starts with, ASCII-lowercased and
/// minimal (no literal is a prefix of another), or `None` when they are too
/// many or too weak to filter on.
pub(crate) fn prefixes(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    // Literals are matched ASCII-case-insensitively, so a class such as
    // `[Ss\u{17F}]` only needs `s` and `\u{17F}`: dropping the upper-case
    // letters keeps `(?i)password` to a handful of literals instead of hundreds.
    let hir = &fold_ascii_case(hir);
    let narrow = prefixes_with(hir, 16, 250, MAX_PREFIXES)?;
    if narrow.iter().all(|l| l.len() >= 3) {
        return Some(narrow);
    }
    // One- and two-byte literals occur everywhere (`sk` in `task`): look one
    // class further, which usually gives three-byte literals.
    match prefixes_with(hir, 64, 2_000, MAX_WIDE_PREFIXES) {
        Some(wide) if wide.iter().all(|l| l.len() >= 3) => Some(wide),
        _ => Some(narrow),
    }
}

/// Case-sensitive literals of four bytes or more that every match starts
/// with, for a pattern whose folded prefixes are too short or too many
/// (`MT`, `Mj`, … then `[AEIMQUYcgk][w-z0-5]` of a Discord token). Compared
/// exactly, such literals rarely survive the filter's candidates, while
/// their folded three-byte forms would be found everywhere.
pub(crate) fn exact_prefixes(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    exact_literals(hir, 16, MAX_WIDE_PREFIXES, |b| {
        b.iter().any(u8::is_ascii_uppercase)
    })
}

/// Case-sensitive literals of four bytes or more that every match starts
/// with, taking one class of up to 64 characters after the pattern's fixed
/// start (`sk-` then `[A-Za-z0-9_-]`: `sk-A`, …, `sk-_`): fewer filter
/// entries than a three-byte literal, which needs one per byte that may
/// follow it. At most `max` literals.
pub(crate) fn exact_wide_prefixes(hir: &Hir, max: usize) -> Option<Vec<Vec<u8>>> {
    exact_literals(hir, 64, max, |_| true)
}

/// The exact prefix literals of the relaxed pattern, classes of up to
/// `limit_class` characters expanded: at most `max`, each of four bytes or
/// more and `good`, or `None`.
fn exact_literals(
    hir: &Hir,
    limit_class: usize,
    max: usize,
    good: impl Fn(&[u8]) -> bool,
) -> Option<Vec<Vec<u8>>> {
    let mut extractor = Extractor::new();
    extractor
        .kind(ExtractKind::Prefix)
        .limit_total(max)
        .limit_class(limit_class)
        .limit_repeat(8);
    let seq = extractor.extract(&relax(hir));
    let literals = seq.literals()?;
    let all_good = !literals.is_empty()
        && literals.len() <= max
        && literals.iter().all(|l| {
            let b = l.as_bytes();
            b.len() >= 4 && good(b)
        });
    all_good.then(|| minimal_literals(literals.iter().map(|l| l.as_bytes().to_vec()).collect()))
}

/// Literals one of which every match of the pattern contains somewhere
/// (ASCII-lowercased), good enough to gate the pattern on: a string with
/// none of them cannot match. `None` when there is no such set.
#[expect(
    clippy::indexing_slicing,
    reason = "split points come from iterating the same concatenation"
)]
pub(crate) fn required_factors(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    let set = factors(&fold_ascii_case(hir))?;
    let rare = |l: &[u8]| l.len() == 1 && b"@<>{}|\\^~`$#&%;".contains(&l[0]);
    let good = set.iter().all(|l| l.len() >= 3 || rare(l)) && set.len() <= MAX_WIDE_PREFIXES;
    good.then_some(set)
}

/// A part of the pattern that every match contains and that starts with
/// good prefix literals: the pattern without leading elements that can match
/// the empty string (`[a-z_]*token…` → `token…`), or from the last character
/// of a leading class (`\b[a-z][a-z0-9+.-]{1,30}://…` → `[a-z0-9+.-]://…`).
/// A string where this part matches nowhere cannot match the pattern, and
/// looking for it costs one anchored search per literal occurrence instead
/// of a pass over the string.
pub(crate) struct Guard {
    pub(crate) prefixes: Vec<Vec<u8>>,
    /// The guard: the concatenation's parts from `split` on ([`guard_rest`]).
    pub(crate) split: usize,
    /// The guard starts with one character of the part before `split`, a
    /// class or a repeated class matching at least once ([`lead_class`]):
    /// every match holds one of its characters just before the rest.
    pub(crate) lead: bool,
    #[cfg(test)]
    pub(crate) rest: Hir,
    /// When every dropped element is a repeated class (or an assertion):
    /// the characters they can match. A match then starts at the guard or
    /// on the run of these characters just before it.
    pub(crate) head: Option<Vec<(char, char)>>,
    /// The dropped part is exactly one repeated class, unbounded, from zero:
    /// a match holding the guard at a position can start anywhere on the
    /// run of its characters before it.
    pub(crate) single_head: bool,
}

#[expect(
    clippy::indexing_slicing,
    reason = "split points come from iterating the same concatenation"
)]
pub(crate) fn guard(hir: &Hir) -> Option<Guard> {
    let HirKind::Concat(subs) = hir.kind() else {
        return None;
    };
    for i in 1..subs.len() {
        // After an element that must match, the guard can only start with
        // its last character, and only when that is a class's.
        let lead = subs[i - 1].properties().minimum_len() != Some(0);
        if lead && lead_class(&subs[i - 1]).is_none() {
            return None;
        }
        let rest = guard_rest(hir, i, lead);
        // Many three-byte literals (`[MNO][DTjz][AEI…]`) would make
        // candidates everywhere; as many longer ones are fine. Words with
        // few three-byte ones among them (`pass`, `key`, `pwd`) are taken
        // longer where they can be, with what must follow them (`pass=`,
        // `key"`, …): fewer occurrences to turn away.
        let folded = fold_ascii_case(&rest);
        let short = |prefixes: &Vec<Vec<u8>>| prefixes.iter().filter(|l| l.len() < 4).count();
        let good = |prefixes: &Vec<Vec<u8>>| {
            prefixes.iter().all(|l| l.len() >= 3)
                && (prefixes.len() <= MAX_PREFIXES || short(prefixes) == 0)
        };
        // A leading class's characters each start a literal (`s://`,
        // `8://`): up to 64 of them, each four bytes or more (a filter
        // entry each, where the required factors would take as many).
        let class = if lead { MAX_PREFIXES } else { 16 };
        let found = match prefixes_with(&folded, class, 250, MAX_WIDE_PREFIXES) {
            Some(words) if short(&words) <= MAX_SHORT_WORDS => {
                prefixes_with(&folded, class, 4000, MAX_WIDE_PREFIXES)
                    .filter(|longer| {
                        longer.iter().all(|l| l.len() >= 3) && short(longer) <= MAX_SHORT_WORDS
                    })
                    .or_else(|| Some(words).filter(good))
            }
            found => found.filter(good),
        }
        .filter(|prefixes| !lead || (prefixes.len() <= MAX_PREFIXES && short(prefixes) == 0));
        if let Some(prefixes) = found {
            let mut head = (!lead).then(Vec::new);
            for sub in &subs[..i] {
                head = head.and_then(|mut h| {
                    head_chars(sub, &mut h)?;
                    Some(h)
                });
            }
            let single_head = i == 1
                && !lead
                && head.is_some()
                && matches!(subs[0].kind(), HirKind::Repetition(rep) if rep.min == 0 && rep.max.is_none());
            return Some(Guard {
                prefixes,
                split: i,
                lead,
                #[cfg(test)]
                rest,
                head,
                single_head,
            });
        }
    }
    None
}

/// The parts of a concatenation from `split` on, as one pattern (a
/// [`Guard`]'s), after the class of the part before when `lead`; the
/// pattern itself when it is not a concatenation.
pub(crate) fn guard_rest(hir: &Hir, split: usize, lead: bool) -> Hir {
    match hir.kind() {
        HirKind::Concat(subs) => {
            let lead = split
                .checked_sub(1)
                .and_then(|i| subs.get(i))
                .filter(|_| lead)
                .and_then(lead_class);
            let rest = subs.get(split..).unwrap_or_default().iter().cloned();
            Hir::concat(lead.into_iter().chain(rest).collect())
        }
        _ => hir.clone(),
    }
}

/// The class whose character ends every match of `hir`: `hir` itself when
/// it is a class, its class when it repeats one at least once.
fn lead_class(hir: &Hir) -> Option<Hir> {
    match hir.kind() {
        HirKind::Class(_) => Some(hir.clone()),
        HirKind::Repetition(rep) if rep.min >= 1 && matches!(rep.sub.kind(), HirKind::Class(_)) => {
            Some((*rep.sub).clone())
        }
        _ => None,
    }
}

/// Adds the characters a leading element can match to `out`, when it is an
/// assertion or a repeated class; `None` for anything else.
fn head_chars(hir: &Hir, out: &mut Vec<(char, char)>) -> Option<()> {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => Some(()),
        HirKind::Capture(cap) => head_chars(&cap.sub, out),
        HirKind::Repetition(rep) => match rep.sub.kind() {
            HirKind::Class(Class::Unicode(cls)) => {
                out.extend(cls.ranges().iter().map(|r| (r.start(), r.end())));
                Some(())
            }
            HirKind::Class(Class::Bytes(cls)) if cls.is_ascii() => {
                out.extend(
                    cls.ranges()
                        .iter()
                        .map(|r| (char::from(r.start()), char::from(r.end()))),
                );
                Some(())
            }
            _ => None,
        },
        _ => None,
    }
}

/// How good a factor set is to filter on: longer shortest literal first, then fewer literals.
fn score(set: &[Vec<u8>]) -> (usize, std::cmp::Reverse<usize>) {
    (
        set.iter().map(Vec::len).min().unwrap_or(0),
        std::cmp::Reverse(set.len()),
    )
}

#[expect(
    clippy::indexing_slicing,
    reason = "split points come from iterating the same concatenation"
)]
fn factors(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    match hir.kind() {
        HirKind::Literal(lit) if !lit.0.is_empty() => Some(vec![lit.0.to_ascii_lowercase()]),
        HirKind::Capture(cap) => factors(&cap.sub),
        HirKind::Repetition(rep) if rep.min >= 1 => factors(&rep.sub),
        HirKind::Alternation(subs) => {
            let mut all = Vec::new();
            for sub in subs {
                all.extend(factors(sub)?);
            }
            all.sort();
            all.dedup();
            Some(all)
        }
        HirKind::Concat(subs) => {
            let mut best: Option<Vec<Vec<u8>>> = None;
            let mut consider = |set: Option<Vec<Vec<u8>>>| {
                if let Some(set) = set
                    && best.as_ref().is_none_or(|b| score(&set) > score(b))
                {
                    best = Some(set);
                }
            };
            for (i, sub) in subs.iter().enumerate() {
                consider(factors(sub));
                // Every match holds a match of `subs[i..]`, which starts with one of its prefixes.
                let rest = Hir::concat(subs[i..].to_vec());
                let prefixes = prefixes_with(&rest, 16, 250, MAX_PREFIXES);
                if let Some(prefixes) = &prefixes
                    && let Some(before) = i.checked_sub(1).and_then(|j| last_bytes(&subs[j]))
                {
                    consider(widened(prefixes, &before));
                }
                consider(prefixes);
            }
            best
        }
        _ => None,
    }
}

/// The bytes that end every match of `hir`, when it ends with one ASCII
/// character of a class (`[0-9]`, `[a-z0-9+.-]{1,30}`), lower-cased.
fn last_bytes(hir: &Hir) -> Option<Vec<u8>> {
    let mut bytes: Vec<u8> = match hir.kind() {
        HirKind::Capture(cap) => return last_bytes(&cap.sub),
        HirKind::Repetition(rep) if rep.min >= 1 => return last_bytes(&rep.sub),
        HirKind::Class(Class::Unicode(cls)) => cls
            .ranges()
            .iter()
            .map(|r| u8::try_from(r.start()).ok().zip(u8::try_from(r.end()).ok()))
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .flat_map(|(a, b)| a..=b)
            .collect(),
        HirKind::Class(Class::Bytes(cls)) => cls
            .ranges()
            .iter()
            .flat_map(|r| r.start()..=r.end())
            .collect(),
        _ => return None,
    };
    if !bytes.is_ascii() {
        return None;
    }
    bytes.make_ascii_lowercase();
    bytes.sort_unstable();
    bytes.dedup();
    Some(bytes)
}

/// Three-byte literals with the byte before them: each takes a filter entry
/// for every byte that may follow it (about 128), and with the byte before
/// (one of `before`, the end of the part before them) the set takes one
/// entry per literal. `None` unless that is at most half as many entries
/// (`://` after `[a-z0-9+.-]`: 39 instead of 128; `:aa` after a digit: 10).
fn widened(prefixes: &[Vec<u8>], before: &[u8]) -> Option<Vec<Vec<u8>>> {
    let three = prefixes.iter().filter(|l| l.len() == 3).count();
    if three == 0 || prefixes.iter().any(|l| l.len() < 3) {
        return None;
    }
    let entries = three * 128 + (prefixes.len() - three);
    let count = before.len() * prefixes.len();
    if count * 2 > entries || count > MAX_WIDE_PREFIXES {
        return None;
    }
    let mut wide: Vec<Vec<u8>> = before
        .iter()
        .flat_map(|&b| prefixes.iter().map(move |l| [&[b], l.as_slice()].concat()))
        .collect();
    wide.sort();
    wide.dedup();
    Some(wide)
}

/// The literals sorted, without duplicates, and only the shortest of those
/// that share a prefix: a match that starts with `ignore` also starts with
/// `ign`.
fn minimal_literals(mut literals: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    literals.sort();
    literals.dedup();
    let mut minimal: Vec<Vec<u8>> = Vec::with_capacity(literals.len());
    for lit in literals {
        // Sorted, a literal's shortest prefix among them is the last one kept.
        if !minimal.last().is_some_and(|m| lit.starts_with(m)) {
            minimal.push(lit);
        }
    }
    minimal
}

/// The pattern with every ASCII upper-case letter removed from classes that
/// also hold its lower-case form. Only for literal extraction: the result
/// matches fewer strings, but every match of the pattern is a match of it up
/// to ASCII case.
fn fold_ascii_case(hir: &Hir) -> Hir {
    match hir.kind() {
        HirKind::Class(Class::Unicode(cls)) => {
            let mut upper = Vec::new();
            for c in b'A'..=b'Z' {
                let (u, l) = (char::from(c), char::from(c.to_ascii_lowercase()));
                let holds = |x: char| {
                    let i = cls.ranges().partition_point(|r| r.end() < x);
                    cls.ranges().get(i).is_some_and(|r| r.start() <= x)
                };
                if holds(u) && holds(l) {
                    upper.push(ClassUnicodeRange::new(u, u));
                }
            }
            if upper.is_empty() {
                return hir.clone();
            }
            let mut out = cls.clone();
            out.difference(&ClassUnicode::new(upper));
            Hir::class(Class::Unicode(out))
        }
        HirKind::Class(Class::Bytes(cls)) => {
            let mut upper = Vec::new();
            for c in b'A'..=b'Z' {
                let l = c.to_ascii_lowercase();
                let holds = |x: u8| cls.ranges().iter().any(|r| r.start() <= x && x <= r.end());
                if holds(c) && holds(l) {
                    upper.push(ClassBytesRange::new(c, c));
                }
            }
            if upper.is_empty() {
                return hir.clone();
            }
            let mut out = cls.clone();
            out.difference(&ClassBytes::new(upper));
            Hir::class(Class::Bytes(out))
        }
        _ => map_parts(hir, fold_ascii_case),
    }
}

/// Largest number of three-byte literals a guard's many literals may hold.
const MAX_SHORT_WORDS: usize = 8;

/// Largest number of (three-byte or longer) prefixes accepted from the wider extraction.
const MAX_WIDE_PREFIXES: usize = 1024;

#[expect(
    clippy::indexing_slicing,
    reason = "split points come from iterating the same concatenation"
)]
fn prefixes_with(
    hir: &Hir,
    limit_class: usize,
    limit_total: usize,
    max: usize,
) -> Option<Vec<Vec<u8>>> {
    let mut extractor = Extractor::new();
    extractor
        .kind(ExtractKind::Prefix)
        .limit_total(limit_total)
        .limit_class(limit_class)
        .limit_repeat(8);
    let seq = extractor.extract(hir);
    let literals = seq.literals()?;
    let out: Vec<Vec<u8>> = literals
        .iter()
        .map(|l| l.as_bytes().to_ascii_lowercase())
        .collect();
    let mut minimal = minimal_literals(out);
    // Too many literals (a class after a word multiplies them): cut them
    // shorter, which keeps them prefixes of every match, down to three bytes.
    let longest = minimal.iter().map(Vec::len).max().unwrap_or(0);
    for len in (3..longest).rev() {
        if minimal.len() <= max {
            break;
        }
        minimal = minimal_literals(
            minimal
                .iter()
                .map(|l| l[..l.len().min(len)].to_vec())
                .collect(),
        );
    }
    if minimal.is_empty() || minimal.len() > max {
        return None;
    }
    // Single bytes that occur everywhere in text would make every position a candidate.
    if minimal.iter().any(|l| {
        l.is_empty()
            || (l.len() == 1 && (l[0].is_ascii_alphanumeric() || l[0].is_ascii_whitespace()))
    }) {
        return None;
    }
    Some(minimal)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pre(p: &str) -> Option<Vec<String>> {
        prefixes(&parse(p).unwrap()).map(|v| {
            v.into_iter()
                .map(|l| String::from_utf8_lossy(&l).into_owned())
                .collect()
        })
    }

    fn relaxed(patterns: &[&str]) -> Vec<Hir> {
        patterns.iter().map(|p| relax(&parse(p).unwrap())).collect()
    }

    #[test]
    fn a_set_skips_to_the_bytes_its_matches_start_with_or_to_none() {
        let pii = relaxed(&[
            r"\b4[0-9]{3}(?:[ -]?[0-9]{4}){3}\b",
            r"(?:\+1[-. ]?)?\(?[2-9][0-9]{2}\)?[-. ][2-9][0-9]{2}[-. ][0-9]{4}\b",
            r"\b(?:[1-9]?[0-9]\.){3}[0-9]+\b",
        ]);
        let bytes: Vec<u8> = first_bytes(&pii).unwrap().concat();
        assert_eq!(bytes, b"(+0123456789");
        // Case-insensitive letters are both cases, and the Kelvin sign's
        // first byte.
        let word = relaxed(&[r"(?i)\bkey\d"]);
        assert_eq!(first_bytes(&word).unwrap().concat(), b"Kk\xE2");
        // No prefilter: a pattern that matches the empty string, one that
        // starts with too many bytes, one that starts with any character.
        for patterns in [
            &[r"[0-9]{3}", r"x*"][..],
            &[r"[0-9]{3}", r"\w+@"],
            &[r"[0-9]{3}", r"(?s:.)ab"],
            &[r"[a-z]{3}"],
        ] {
            assert_eq!(first_bytes(&relaxed(patterns)), None, "{patterns:?}");
        }
    }

    #[test]
    fn a_set_skips_only_to_few_or_rare_bytes() {
        let skips = |patterns: &[&str]| skip_to(&relaxed(patterns)).is_some();
        // Digits, `+` and `(`: rare in text.
        assert!(skips(&[
            r"\b4[0-9]{3}(?:[ -]?[0-9]{4}){3}\b",
            r"(?:\+1[-. ]?)?\(?[2-9][0-9]{2}\)?[-. ][2-9][0-9]{2}[-. ][0-9]{4}\b",
        ]));
        // Three bytes, letters among them: `memchr3`.
        assert!(skips(&[r"(?i)key\d"]));
        // Hex digits' letters, or a space: most of text.
        assert!(!skips(&[r"[0-9a-f]{32}-us[0-9]{1,2}", r"[0-9]{3}"]));
        assert!(!skips(&[r"[ 0-9]{3}-[0-9]", r"\(x"]));
    }

    /// The patterns a set reports for `text`, by id.
    fn reported(set: &meta::Regex, text: &str) -> Vec<usize> {
        let mut found = regex_automata::PatternSet::new(set.pattern_len());
        set.which_overlapping_matches(&Input::new(text), &mut found);
        found.iter().map(|p| p.as_usize()).collect()
    }

    /// The set as written: the patterns themselves, no prefilter.
    fn set_as_written(hirs: &[Hir]) -> meta::Regex {
        meta::Builder::new()
            .configure(
                meta::Config::new()
                    .match_kind(regex_automata::MatchKind::All)
                    .auto_prefilter(false),
            )
            .build_many_from_hir(hirs)
            .unwrap()
    }

    /// The default policy's PII patterns (`phone`, `credit_card`, `iban`,
    /// `ip_address` and `us_ssn` as the stage scans them in one set),
    /// relaxed.
    const PII: [&str; 7] = [
        r"\b(?:00[1-9]|[1-578][0-9]{2})-(?:0[1-9]|[1-9][0-9])-[0-9]{4}\b",
        r"\b4[0-9]{3}(?:[ -]?[0-9]{4}){3}\b",
        r"(?:\+1[-. ]?)?\(?[2-9][0-9]{2}\)?[-. ][2-9][0-9]{2}[-. ][0-9]{4}\b",
        r"(?:\b[A-Z]{2}[0-9]{2} |\b[0-9]+\.)?\b[0-9](?:[ -]?[0-9]){12,}(?:\.[0-9]+)?\b",
        r"\b[A-Z]{2}[0-9]{2}(?:[0-9A-Z]{11,30}|(?: [0-9A-Z]{4}){2,7}(?: [0-9A-Z]{1,4})?)\b",
        r"(?:\b[A-Za-z][A-Za-z0-9_-]*/|(?i:\b(?:version|ver|v|release|build|firmware|fw))[:.]?[ ]?|\b)(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?:\.(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])){3}(?:\.[0-9]+)*\b|(?:\b[0-9A-Fa-f]{1,4}:|\B:)[0-9A-Za-z.%]*:[0-9A-Za-z:.%]*",
        r"(?i)\btoken=[a-z]{4}",
    ];

    #[test]
    fn a_pattern_that_starts_with_letters_is_searched_from_its_rare_part() {
        let suffix = |p: &str| rare_suffix(&relax(&parse(p).unwrap())).map(|h| h.to_string());
        let same = |p: &str| Some(relax(&parse(p).unwrap()).to_string());
        // Already rare: itself.
        assert_eq!(suffix(r"\b[0-9]{3}-x"), same(r"[0-9]{3}-x"));
        // A repetition of letters dropped; each alternative its own part.
        assert_eq!(suffix(r"[A-Z]{2}[0-9]{2}X"), same(r"[0-9]{2}X"));
        assert_eq!(suffix(r"(?:ab:|:)c"), same(r"(?::|:)c"));
        assert_eq!(suffix(r"abc+=[a-z]"), same(r"=[a-z]"));
        assert_eq!(suffix(r"abc\+=[a-z]"), same(r"\+=[a-z]"));
        // The last repetitions of a group: `(x1){2,}` gives `1(x1){1,}`.
        assert_eq!(suffix(r"(?:x1){2,}"), same(r"1(?:x1){1,}"));
        // An optional part is no help; nor is a pattern with no rare byte,
        // one that can match the empty string, or a literal whose rare
        // byte is not ASCII.
        for pattern in [r"a(?:1)?b", r"[a-z]+", r"[0-9]*", r"\b", r"abcé"] {
            assert_eq!(suffix(pattern), None, "{pattern}");
        }
    }

    #[test]
    fn a_set_with_rare_parts_reports_every_pattern_the_set_as_written_reports() {
        let hirs = relaxed(&PII);
        assert_eq!(
            first_bytes(&hirs),
            None,
            "IBAN and addresses start with letters"
        );
        let suffixes: Vec<Hir> = hirs.iter().map(|h| rare_suffix(h).unwrap()).collect();
        assert!(skip_to(&suffixes).is_some());
        let set = multi_regex(&hirs).unwrap();
        let written = set_as_written(&hirs);
        let texts = [
            "",
            "no digits here at all",
            "call (555) 234-4567 or +1 555.234.4567",
            "4111 1111 1111 1111 and 123-45-6789",
            "1 2 3 4 5 6 7 8 9 (( ++ 12-34-5678 TOKEN=abcd",
            "(((((((((((((((((((((((((((((555) 123-4567",
            "é4111-1111-1111-1111日本 Token=WXYZ",
            "4111111111111111",
            "IBAN DE89370400440532013000, or DE89 3704 0044 0532 0130 00",
            "server/10.0.0.1 version 2.4.1.0 at fe80::1 and ::1 and abcd:ef01::",
            "US12 3456789012345 é日本 v:192.168.1.1",
        ];
        for text in texts {
            let (found, as_written) = (reported(&set, text), reported(&written, text));
            assert!(
                as_written.iter().all(|p| found.contains(p)),
                "{text:?}: {found:?} misses some of {as_written:?}"
            );
        }
        // More only where a rare part stands alone: `=abcd` without
        // `token`, `12ABCDEFGHIJKLM` without the IBAN's country.
        assert_eq!(
            reported(&written, "x=abcd 12ABCDEFGHIJKLM"),
            Vec::<usize>::new()
        );
        assert_eq!(reported(&set, "x=abcd 12ABCDEFGHIJKLM"), vec![4, 6]);
    }

    mod rare_parts {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig {
                cases: 512,
                failure_persistence: None,
                ..ProptestConfig::default()
            })]

            /// Texts of the characters the patterns are made of: the set
            /// never misses a pattern the set as written reports.
            #[test]
            fn a_set_with_rare_parts_misses_nothing(
                text in proptest::collection::vec(
                    proptest::sample::select(
                        "0123456789 .:-+()/=ADEUSabfkntvé日".chars().collect::<Vec<_>>()
                    ),
                    0..80,
                ).prop_map(|chars| chars.into_iter().collect::<String>())
            ) {
                let hirs = relaxed(&PII);
                let (found, as_written) = (
                    reported(&multi_regex(&hirs).unwrap(), &text),
                    reported(&set_as_written(&hirs), &text),
                );
                prop_assert!(
                    as_written.iter().all(|p| found.contains(p)),
                    "{found:?} misses some of {as_written:?}"
                );
            }
        }
    }

    #[test]
    fn exact_wide_prefixes_take_one_class_after_a_short_start() {
        let wide = |p: &str| -> Vec<String> {
            exact_wide_prefixes(&parse(p).unwrap(), 127)
                .unwrap_or_else(|| panic!("{p}: no prefixes"))
                .into_iter()
                .map(|l| String::from_utf8_lossy(&l).into_owned())
                .collect()
        };
        let jwt = wide(r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ");
        assert_eq!(jwt.len(), 64, "{jwt:?}");
        assert!(jwt.contains(&"eyJh".to_owned()) && jwt.contains(&"eyJ_".to_owned()));
        let hf = wide(r"\b(?:hf_|api_org_)[A-Za-z]{34}\b");
        assert!(
            hf.contains(&"hf_Q".to_owned()) && hf.contains(&"api_org_x".to_owned()),
            "{hf:?}"
        );
        assert!(hf.iter().all(|l| l.len() >= 4), "{hf:?}");
        // Every spelling is there, case included: `[0-9a-f]` after `SK`.
        let sk = exact_wide_prefixes(&parse(r"\bSK[0-9a-f]{32}\b").unwrap(), 300).unwrap();
        assert_eq!(sk.len(), 256, "two classes of 16: {sk:?}");
        // Too many, or too short: none.
        assert!(exact_wide_prefixes(&parse(r"\bsk-[A-Za-z0-9]{20}").unwrap(), 16).is_none());
        assert!(exact_wide_prefixes(&parse(r"(?i)pw").unwrap(), 127).is_none());
        assert!(exact_wide_prefixes(&parse(r"ab").unwrap(), 127).is_none());
    }

    #[test]
    fn prefixes_of_common_patterns() {
        assert_eq!(
            pre(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b").unwrap(),
            ["akia", "asia"]
        );
        assert_eq!(pre(r"(?i)\bignore\s+previous").unwrap(), ["ignore"]);
        // `s` also folds to U+017F under Unicode case folding: those spellings stay.
        let pw = pre(r#"(?i)\b(?:password|passwd|pwd)["']?\s*[:=]"#).unwrap();
        assert!(
            pw.contains(&"password".to_owned()) && pw.contains(&"pa\u{17f}sword".to_owned()),
            "{pw:?}"
        );
        let iban = pre(r"\b(?:GB|DE|FR|ES|IT|NL)[0-9]{2}[A-Z0-9]{11,30}\b").unwrap();
        assert!(
            iban.iter().all(|l| l.len() >= 3),
            "not `de` alone: {iban:?}"
        );
        assert_eq!(pre(r"\bghp_[A-Za-z0-9]{36}\b").unwrap(), ["ghp_"]);
        assert_eq!(pre(r"(?i)<\s*/?\s*system").unwrap(), ["<"]);
        let sk = pre(r"\bSK[0-9a-fA-F]{32}\b").unwrap();
        assert!(
            sk.len() <= 256 && sk.iter().all(|l| l.len() >= 3),
            "not `sk` alone: {sk:?}"
        );
        assert!(
            pre(r"[0-9]{3}-[0-9]{2}-[0-9]{4}").is_none(),
            "starts with any digit"
        );
        assert!(pre(r"\b[A-Za-z0-9._%+-]+@example\.com").is_none());
    }

    fn req(p: &str) -> Option<Vec<String>> {
        required_factors(&parse(p).unwrap()).map(|v| {
            v.into_iter()
                .map(|l| String::from_utf8_lossy(&l).into_owned())
                .collect()
        })
    }

    #[test]
    fn required_factors_of_patterns_without_prefixes() {
        // With the digit before them: ten literals of four bytes instead
        // of one of three (which takes a filter entry per following byte).
        assert_eq!(
            req(r"\b[0-9]{8,10}:AA[0-9A-Za-z_-]{33}\b").unwrap(),
            (b'0'..=b'9')
                .map(|d| format!("{}:aa", char::from(d)))
                .collect::<Vec<_>>()
        );
        let scheme_end: Vec<String> = "+-.0123456789abcdefghijklmnopqrstuvwxyz"
            .chars()
            .map(|c| format!("{c}://"))
            .collect();
        assert_eq!(
            req(r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^/\s:@]{1,64}@").unwrap(),
            scheme_end
        );
        // Not with a class that holds other characters than ASCII, nor
        // when the set would not be half as large.
        assert_eq!(req(r"\w://[^/\s:@]{1,64}@").unwrap(), ["://"]);
        assert_eq!(
            req(r"(?-u:[\x00-\x7f])://[^/\s:@]{1,64}@").unwrap(),
            ["://"]
        );
        assert_eq!(
            req(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,24}\b").unwrap(),
            ["@"]
        );
        assert!(
            req(r"\b[0-9]{3}-[0-9]{2}-[0-9]{4}\b").is_none(),
            "`-` is too common"
        );
        assert!(
            req(r"[a-z]+(?:foo|x)").is_none(),
            "one branch has no good literal"
        );
        assert_eq!(req(r"\w+(?:foo|bar)").unwrap(), ["bar", "foo"]);
        assert_eq!(req(r"[0-9]+(?:foo|bar)").unwrap().len(), 20);
    }

    /// Asserts that `guard` dies nowhere the exact `rest` matches, at every
    /// character of `texts` and several windows; returns how many times it
    /// died within 64 bytes.
    fn dies_only_where_nothing_matches(guard: &GuardDfa, rest: &Hir, texts: &[&str]) -> usize {
        let regex = exact_regex(rest).unwrap();
        let mut died = 0;
        for text in texts {
            for start in (0..text.len()).filter(|&i| text.is_char_boundary(i)) {
                let input = Input::new(text)
                    .span(start..text.len())
                    .anchored(Anchored::Yes);
                let matches = regex.is_match(input);
                for window in [1, 4, 16, 64, 1000] {
                    let dies = guard_dies(guard, text.as_bytes(), start, window);
                    assert!(!(dies && matches), "{text:?} at {start}, window {window}");
                    died += usize::from(dies && window == 64);
                }
            }
        }
        died
    }

    #[test]
    fn a_guard_too_large_for_one_dfa_is_read_by_two() {
        // The default policy's `secret_assignment`: its whole guard makes a
        // DFA above the limit, its name and assignment one below it, and
        // its value's first 12 characters a second.
        let p = concat!(
            r"(?i)[a-z0-9_.-]*(?:(?:secret|token|api[_.-]?key|apikey|access[_.-]?key|auth[_.-]?key",
            r"|private[_.-]?key|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|credentials?)",
            r"[a-z0-9_.-]*|[_.-]key|(?-i:Key))",
            r#"(?:\\?["'])?[ \t]*(?:=>|:=|=|:)[ \t]*"#,
            r#"(?:"[^"\r\n]{12,}"|'[^'\r\n]{12,}'|\\"[^"\\\r\n]{12,}\\"|[^\s"'\\,;&]{12,})"#
        );
        let g = guard(&parse(p).unwrap()).unwrap();
        let rest = relax(&g.rest);
        let dfa = guard_dfa(&rest).expect("small DFAs");
        assert!(dfa.tail.is_some(), "the value is read by a second DFA");
        let texts = [
            "token: str, zone: int = 2",
            "pkg/token_would_server.txt:843:velit_compare = 1",
            "api/token_fugiat.go:812:def describe(self)",
            "for x in build_token:\n    pass",
            "x.TOKEN=>abcdefghijklmnopq",
            "secret:\tabcdefghijklmn\nnext",
            "secret = abcdefghijkl",
            "secret = abcdefghijk",
            "token := 'abcdefghijkl'",
            "token = \"abcdefghijk\"",
            "ſecret = abcdefghijklmnop, token: \u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}",
            "access_Key =   \u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}\u{1F600}",
            "token: : abcdefghijklmnop",
            "\"apiKey\": \"0123456789ab\", \"token\": \"short\"",
            "\\\"token\\\": \\\"abcdefghijklmn\\\"",
        ];
        let died = dies_only_where_nothing_matches(&dfa, &rest, &texts);
        assert!(died > 100, "the DFAs turn occurrences away: {died}");
        // A value too short dies at the byte after it, where the first DFA
        // alone said "maybe"; one long enough, of any characters, lives on.
        assert!(guard_dies(&dfa, b"token: str, x", 0, 64));
        assert!(guard_dies(&dfa, b"token: Improve officia", 0, 64));
        assert!(!guard_dies(&dfa, b"token: Improve_officia", 0, 64));
        let unicode =
            "token: \u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\"";
        assert!(!guard_dies(&dfa, unicode.as_bytes(), 0, 64));
        // From a literal's state too.
        let after = guard_state_after(&dfa, b"token").expect("no look-behind");
        let hay = b"token: str, token = abcdefghijklmnop";
        assert!(guard_dies_from(&dfa, after, hay, 5, hay.len()));
        assert!(!guard_dies_from(&dfa, after, hay, 17, hay.len()));
    }

    #[test]
    fn a_pattern_shortened_keeps_a_prefix_of_every_match() {
        let short = |p: &str| shortened(&parse(p).unwrap());
        let (hir, cut) = short(r#"a=(?:"[^"]{12,}"|[0-9]{4,6}x)"#);
        assert!(cut);
        assert_eq!(hir, parse(r#"a=(?:"[^"]{12}|[0-9]{4})"#).unwrap());
        // Repetitions of fewer than four, and exact ones, are kept whole.
        let (hir, cut) = short(r"[a-z]*=[0-9]{3,}x[ab]{4}");
        assert!(!cut);
        assert_eq!(hir, parse(r"[a-z]*=[0-9]{3,}x[ab]{4}").unwrap());
        // Widened, a class beyond ASCII is its ASCII part or any character,
        // counted once.
        let wide = widen_to_bytes(&parse(r#"[^"\r\n]{2}"#).unwrap());
        let dfa = small_dfa(&wide).unwrap();
        let m = |t: &str| {
            let input = Input::new(t).anchored(Anchored::Yes);
            dfa.try_search_fwd(&input).unwrap().map(|m| m.offset())
        };
        assert_eq!(m("ab"), Some(2));
        assert_eq!(m("\u{e9}\u{1F600}"), Some(6));
        assert_eq!(m("a\""), None);
    }

    #[test]
    fn a_guard_can_start_with_the_last_character_of_a_leading_class() {
        let url =
            r#"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s:@/?#"'<>]{0,128}:[^\s:@/?#"'<>]{1,128}@"#;
        let g = guard(&parse(url).unwrap()).expect("a guard");
        assert!(g.lead);
        assert_eq!((g.split, g.head, g.single_head), (3, None, false));
        // One literal per character of the class, folded: `s://`, `8://`.
        assert_eq!(g.prefixes.len(), 39);
        assert!(
            g.prefixes
                .iter()
                .all(|l| l.len() == 4 && l.ends_with(b"://"))
        );
        assert!(g.prefixes.contains(&b"s://".to_vec()) && g.prefixes.contains(&b"+://".to_vec()));
        let rest = parse(r#"[A-Za-z0-9+.-]://[^\s:@/?#"'<>]{0,128}:[^\s:@/?#"'<>]{1,128}@"#);
        assert!(g.rest == rest.unwrap());
        // Three-byte literals (a filter entry for each byte after them),
        // and a class before a literal, are not taken.
        assert!(guard(&parse(r"\b[a-z]{3}[0-9]q~[a-z]{30}").unwrap()).is_none());
        assert!(guard(&parse(r"\b[a-z]+@[a-z]+\.[a-z]{2,}").unwrap()).is_none());
    }

    #[test]
    fn a_guard_dfa_dies_only_where_the_guard_cannot_match() {
        let p = concat!(
            r"(?i)[a-z0-9_.-]*(?:secret|token|api[_.-]?key)[a-z0-9_.-]*",
            r#"(?:\\?["'])?[ \t]*(?:=>|:=|=|:)[ \t]*(?:"[^"\r\n]{12,}"|[^\s"'\\,;&]{12,})\b"#,
        );
        let g = guard(&parse(p).unwrap()).unwrap();
        let rest = relax(&g.rest);
        let dfa = guard_dfa(&rest).expect("a small DFA");
        let texts = [
            "max tokens in the window",
            "token: str",
            "api_key = \"sk-0123456789abcdef\"",
            "x.TOKEN=>abcdefghijklmnopq",
            "secret:\tabcdefghijklmn\nnext",
            "tokentokentoken",
            "Token = 'short'",
            "secret = abcdefghijkl",
            "secret = abcdefghijk",
            "ſecret = abcdefghijklmnop, token: \u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}",
        ];
        let died = dies_only_where_nothing_matches(&dfa, &rest, &texts);
        assert!(died > 100, "the DFA turns occurrences away: {died}");
        assert!(guard_dies(&dfa, b"max tokens in", 4, 64));
        assert!(!guard_dies(&dfa, b"token = abcdefghijklmnop", 0, 64));
        // The value's classes are read as bytes: a value too short dies
        // at the byte after it, one long enough lives on.
        assert!(guard_dies(&dfa, b"token: str, x", 0, 64));
        assert!(!guard_dies(
            &dfa,
            "token: \u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\""
                .as_bytes(),
            0,
            64
        ));

        // Past a literal, the DFA goes on from where the literal left it,
        // unless its start depends on the byte before it.
        let after = guard_state_after(&dfa, b"token").expect("no look-behind");
        let hay = b"max tokens in, token = abcdefghijklmnop, token: str";
        for start in [4, 15, 41] {
            assert_eq!(
                guard_dies_from(&dfa, after, hay, start + 5, hay.len()),
                guard_dies(&dfa, hay, start, hay.len()),
                "at {start}"
            );
        }
        let bounded = guard_dfa(&parse(r"(?-u:\b)token[ \t]*=").unwrap()).unwrap();
        assert_eq!(guard_state_after(&bounded, b"token"), None);
        assert!(guard_dies(&bounded, b"xtoken=", 1, 64));
        assert!(!guard_dies(&bounded, b" token=", 1, 64));

        // A guard small enough to be built whole knows every non-match.
        let g = guard(&parse(r"[a-z_]*key[ \t]*=[ \t]*[0-9a-f]{8}\b").unwrap()).unwrap();
        let rest = relax(&g.rest);
        let (dfa, regex) = (guard_dfa(&rest).unwrap(), exact_regex(&rest).unwrap());
        for text in [
            "key = 0123abcd",
            "key = 0123abc",
            "key=0123abcdef",
            "keys = 1",
            "key =",
        ] {
            for start in 0..text.len() {
                let input = Input::new(text)
                    .span(start..text.len())
                    .anchored(Anchored::Yes);
                let dies = guard_dies(&dfa, text.as_bytes(), start, 1000);
                assert_eq!(dies, !regex.is_match(input), "{text:?} at {start}");
            }
        }
    }

    #[test]
    fn which_patterns_stay_on_one_line() {
        let one = |p: &str| !can_match_newline(&parse(p).unwrap());
        assert!(
            !one(r"(?i)[a-z_]*token\s*[:=]"),
            "`\\s` holds the line feed"
        );
        assert!(one(r"[a-z_]*token[ \t]*=[ \t]*[a-z0-9]+"));
        assert!(!one(r"a\sb"));
        assert!(!one(r"a[^x]b"));
        assert!(!one(r"(?s)a.b"));
        assert!(one(r"a.b"), "`.` does not match a line feed by default");
    }

    #[test]
    fn relaxing_removes_only_unicode_word_boundaries() {
        let hir = parse(r"\bfoo(?-u:\b)bar\B$").unwrap();
        let relaxed = relax(&hir);
        assert!(!has_unicode_word_boundary(&relaxed));
        assert!(relaxed.properties().look_set().contains_word_ascii());
        assert!(relaxed.properties().look_set().contains(Look::End));
    }

    #[test]
    fn validation_errors_are_one_line() {
        let e = compile("(abc").unwrap_err();
        assert!(e.starts_with("invalid regex: unclosed group"), "{e}");
        assert!(!e.contains('\n'));
        assert!(compile("a*").unwrap_err().contains("empty string"));
        assert!(compile(r"\p{Bogus}").unwrap_err().contains("invalid regex"));
        assert!(
            compile(r"\w{1000}{1000}")
                .unwrap_err()
                .contains("too large")
        );
    }
}
