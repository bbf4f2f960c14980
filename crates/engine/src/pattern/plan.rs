//! Where the scanner looks for a pattern's matches: the literals that start
//! or gate them, worked out from the pattern's syntax tree.
//!
//! Working a plan out (literal extraction with and without ASCII case,
//! the search for a guard, the factors every match holds) costs more than
//! the rest of building a stage's matcher. A pattern's plan is therefore
//! worked out once per process, however many stages scan it, and the
//! built-in detectors' plans are embedded in the binary
//! (`detect/plans.rs`, generated, and tested equal to what this module
//! works out): a hook that decides one tool output builds its stage without
//! analysing a single detector.

use std::borrow::Cow;

use regex_syntax::hir::Hir;

use crate::pattern;

/// How the scanner finds a pattern's candidates, and what it knows of its
/// matches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    /// No match spans a line feed.
    pub(crate) single_line: bool,
    /// Where the candidates come from.
    pub(crate) find: Find,
}

/// Where a pattern's candidates come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Find {
    /// Every match starts with one of the literals, compared
    /// ASCII-case-insensitively when `folded`: the exact regex runs
    /// anchored at each occurrence.
    Prefix { literals: Literals, folded: bool },
    /// Every match holds a match of the guard, the pattern's concatenation
    /// from part `split` on, which starts with one of the (folded) literals
    /// ([`pattern::Guard`]).
    Guard {
        literals: Literals,
        split: usize,
        /// The guard starts with the last character of part `split - 1`
        /// ([`pattern::Guard::lead`]).
        lead: bool,
        /// The characters a match can hold before the guard, sorted and
        /// merged ranges ([`pattern::Guard::head`]).
        head: Option<Cow<'static, [(char, char)]>>,
        /// The head is one repeated class and no match spans a line feed.
        single_head: bool,
    },
    /// Every match contains one of the (folded) literals.
    Gate { literals: Literals },
    /// No good literals: the relaxed pattern runs in the stage's
    /// multi-pattern DFA. `relaxed`: the relaxed form, run alone, picks the
    /// lines the exact pattern is confirmed on (a single-line pattern with
    /// Unicode word boundaries).
    Residual { relaxed: bool },
}

/// Literals packed one after another, each after its length in one byte.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Literals(Cow<'static, [u8]>);

/// Longest literal kept whole. A longer one is cut to its first bytes,
/// which start every match it starts and occur wherever it occurs.
const MAX_LITERAL: usize = u8::MAX as usize;

impl Literals {
    /// Literals packed in the binary.
    pub(crate) const fn embedded(packed: &'static [u8]) -> Self {
        Self(Cow::Borrowed(packed))
    }

    fn pack(literals: &[Vec<u8>]) -> Self {
        let mut packed = Vec::with_capacity(literals.iter().map(|l| l.len() + 1).sum());
        for lit in literals {
            let lit = lit.get(..MAX_LITERAL).unwrap_or(lit);
            packed.push(lit.len() as u8);
            packed.extend_from_slice(lit);
        }
        Self(Cow::Owned(packed))
    }

    /// The packed bytes.
    #[cfg(test)]
    pub(crate) fn packed(&self) -> &[u8] {
        &self.0
    }

    /// The literals, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let mut rest: &[u8] = &self.0;
        std::iter::from_fn(move || {
            let (&len, tail) = rest.split_first()?;
            let (lit, tail) = tail.split_at_checked(usize::from(len))?;
            rest = tail;
            Some(lit)
        })
    }
}

/// Works out a pattern's plan.
pub(crate) fn plan(hir: &Hir) -> Plan {
    let single_line = !pattern::can_match_newline(hir);
    let find = find(hir, single_line);
    Plan { single_line, find }
}

fn find(hir: &Hir, single_line: bool) -> Find {
    if let Some(prefixes) = pattern::prefixes(hir) {
        // A three-byte literal takes a filter entry for every byte that may
        // follow it (about 128 once folded); exact four-byte prefixes
        // (`SK00`…`SKff` instead of `sk0`…`skf`) take one each.
        let cost: usize = prefixes
            .iter()
            .map(|p| if p.len() == 3 { 128 } else { 1 })
            .sum();
        let exact = if cost >= 128 {
            [
                pattern::exact_prefixes(hir),
                pattern::exact_wide_prefixes(hir, cost - 1),
            ]
            .into_iter()
            .flatten()
            .filter(|e| e.len() < cost)
            .min_by_key(Vec::len)
        } else {
            // A case-sensitive pattern's prefixes as written, when they are
            // no more: `7z a` is then not found in the `47Z ALERT` of a
            // log's time stamp.
            pattern::exact_wide_prefixes(hir, cost).filter(|e| e.len() <= cost)
        };
        return match exact {
            Some(exact) => Find::Prefix {
                literals: Literals::pack(&exact),
                folded: false,
            },
            None => Find::Prefix {
                literals: Literals::pack(&prefixes),
                folded: true,
            },
        };
    }
    if let Some(guard) = pattern::guard(hir) {
        return Find::Guard {
            literals: Literals::pack(&guard.prefixes),
            split: guard.split,
            lead: guard.lead,
            head: guard.head.map(merge_ranges).map(Cow::Owned),
            single_head: guard.single_head && single_line,
        };
    }
    if let Some(factors) = pattern::required_factors(hir) {
        return Find::Gate {
            literals: Literals::pack(&factors),
        };
    }
    match pattern::exact_prefixes(hir) {
        Some(prefixes) => Find::Prefix {
            literals: Literals::pack(&prefixes),
            folded: false,
        },
        None => Find::Residual {
            relaxed: single_line && pattern::has_unicode_word_boundary(hir),
        },
    }
}

/// Character ranges sorted and merged, so that they can be binary-searched.
fn merge_ranges(mut ranges: Vec<(char, char)>) -> Vec<(char, char)> {
    ranges.sort_unstable();
    let mut merged: Vec<(char, char)> = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match merged.last_mut() {
            Some(last) if u32::from(start) <= u32::from(last.1).saturating_add(1) => {
                last.1 = last.1.max(end);
            }
            _ => merged.push((start, end)),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_pack_and_unpack_in_order_and_long_ones_are_cut() {
        let long = vec![b'x'; 300];
        let packed = Literals::pack(&[b"abc".to_vec(), Vec::new(), long, b"sk-".to_vec()]);
        let out: Vec<&[u8]> = packed.iter().collect();
        assert_eq!(out.len(), 4);
        assert_eq!(out[0], b"abc");
        assert_eq!(out[1], b"");
        assert_eq!(out[2], &[b'x'; MAX_LITERAL][..]);
        assert_eq!(out[3], b"sk-");
        let embedded = Literals::embedded(b"\x03abc\x00");
        assert_eq!(embedded.iter().collect::<Vec<_>>(), [&b"abc"[..], b""]);
    }
}
