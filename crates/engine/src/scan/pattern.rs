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

use regex_automata::meta;
use regex_syntax::hir::literal::{ExtractKind, Extractor};
use regex_syntax::hir::{Hir, HirKind, Look};

use crate::policy::limits::MAX_REGEX_BYTES;

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

/// Checks that a pattern parses, cannot match the empty string and fits the size limit.
pub(crate) fn validate(pattern: &str) -> Result<(), String> {
    let hir = parse(pattern)?;
    if hir.properties().minimum_len() == Some(0) {
        return Err(
            "pattern can match the empty string, so it would fire on every request".to_owned(),
        );
    }
    exact_regex(&hir)?;
    Ok(())
}

/// The exact regex for a pattern.
pub(crate) fn exact_regex(hir: &Hir) -> Result<meta::Regex, String> {
    meta::Builder::new()
        .configure(meta::Config::new().nfa_size_limit(Some(MAX_REGEX_BYTES)))
        .build_from_hir(hir)
        .map_err(|e| format!("regex is too large once compiled: {e}"))
}

/// Builds one lazy-DFA-backed regex over many (relaxed) patterns.
pub(crate) fn multi_regex(hirs: &[Hir]) -> Result<meta::Regex, String> {
    meta::Builder::new()
        .configure(
            meta::Config::new()
                .match_kind(regex_automata::MatchKind::All)
                .nfa_size_limit(Some(MAX_REGEX_BYTES.saturating_mul(16)))
                .hybrid_cache_capacity(8 * 1024 * 1024),
        )
        .build_many_from_hir(hirs)
        .map_err(|e| format!("patterns are too large once compiled: {e}"))
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
        HirKind::Repetition(rep) => {
            let mut rep = rep.clone();
            rep.sub = Box::new(relax(&rep.sub));
            Hir::repetition(rep)
        }
        HirKind::Capture(cap) => {
            let mut cap = cap.clone();
            cap.sub = Box::new(relax(&cap.sub));
            Hir::capture(cap)
        }
        HirKind::Concat(subs) => Hir::concat(subs.iter().map(relax).collect()),
        HirKind::Alternation(subs) => Hir::alternation(subs.iter().map(relax).collect()),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) => hir.clone(),
    }
}

/// The literals every match of the pattern starts with, ASCII-lowercased and
/// minimal (no literal is a prefix of another), or `None` when they are too
/// many or too weak to filter on.
pub(crate) fn prefixes(hir: &Hir) -> Option<Vec<Vec<u8>>> {
    let mut extractor = Extractor::new();
    extractor
        .kind(ExtractKind::Prefix)
        .limit_total(250)
        .limit_class(16)
        .limit_repeat(8);
    let seq = extractor.extract(hir);
    let literals = seq.literals()?;
    let mut out: Vec<Vec<u8>> = literals
        .iter()
        .map(|l| l.as_bytes().to_ascii_lowercase())
        .collect();
    out.sort();
    out.dedup();
    // Keep only the shortest of literals that share a prefix: a match that
    // starts with `ignore` also starts with `ign`.
    let mut minimal: Vec<Vec<u8>> = Vec::with_capacity(out.len());
    for lit in out {
        if !minimal.iter().any(|m| lit.starts_with(m)) {
            minimal.push(lit);
        }
    }
    if minimal.is_empty() || minimal.len() > MAX_PREFIXES {
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

    #[test]
    fn prefixes_of_common_patterns() {
        assert_eq!(
            pre(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b").unwrap(),
            ["akia", "asia"]
        );
        assert_eq!(pre(r"(?i)\bignore\s+previous").unwrap(), ["ignore"]);
        assert_eq!(pre(r"\bghp_[A-Za-z0-9]{36}\b").unwrap(), ["ghp_"]);
        assert_eq!(pre(r"(?i)<\s*/?\s*system").unwrap()[0], "<");
        assert!(
            pre(r"[0-9]{3}-[0-9]{2}-[0-9]{4}").is_none(),
            "starts with any digit"
        );
        assert!(pre(r"\b[A-Za-z0-9._%+-]+@example\.com").is_none());
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
        let e = validate("(abc").unwrap_err();
        assert!(e.starts_with("invalid regex: unclosed group"), "{e}");
        assert!(!e.contains('\n'));
        assert!(validate("a*").unwrap_err().contains("empty string"));
        assert!(
            validate(r"\p{Bogus}")
                .unwrap_err()
                .contains("invalid regex")
        );
        assert!(
            validate(r"\w{1000}{1000}")
                .unwrap_err()
                .contains("too large")
        );
    }
}
