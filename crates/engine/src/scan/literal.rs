//! The literal filter: finds every occurrence of many literals (blocklist
//! words and the prefixes of regex patterns) in one pass over a string.
//!
//! Literals of three bytes or more are indexed by one four-byte window each
//! (the rarest window of the literal, ASCII case folded). The scan hashes
//! every four-byte window of the text into a bit table that fits in cache;
//! a window whose bit is set is checked again in a second table, of the
//! windows as they must appear, and only then looked up and compared.
//! Literals of one or two bytes go to a small Aho-Corasick automaton. Every
//! reported occurrence has been compared byte for byte: the filter never
//! reports a false hit and never misses a true one.

use aho_corasick::{AhoCorasick, MatchKind};

/// Folds ASCII upper case onto lower case in all four (or eight) bytes. Other
/// bytes are changed too, which only adds candidates, never loses one.
const FOLD32: u32 = 0x2020_2020;
const FOLD64: u64 = 0x2020_2020_2020_2020;

#[inline(always)]
fn hash(key: u32, bits: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B1) >> (32 - bits)) as usize
}

/// A second hash of a key, independent of [`hash`].
#[inline(always)]
fn rehash(key: u32, bits: u32) -> usize {
    (key.wrapping_mul(0x85EB_CA77) >> (32 - bits)) as usize
}

/// How common a byte is in typical text (higher is more common), used to pick
/// the rarest window of a literal.
const fn commonness(b: u8) -> u32 {
    match b.to_ascii_lowercase() {
        b' ' => 100,
        b'e' => 90,
        b't' => 85,
        b'a' | b'o' => 80,
        b'i' | b'n' => 75,
        b's' => 70,
        b'h' | b'r' => 65,
        b'd' | b'l' => 55,
        b'\n' | b'c' | b'u' => 50,
        b'm' => 45,
        b'.' | b',' | b'w' | b'f' | b'g' | b'y' | b'p' => 40,
        b'0'..=b'9' | b'_' | b'-' | b'/' | b'"' => 35,
        b'b' => 30,
        b'v' | b'k' | b':' | b'=' => 25,
        b'j' | b'x' | b'q' | b'z' => 10,
        0x80..=0xFF => 12,
        _ => 15,
    }
}

/// The most frequent letter pairs of English text, most frequent first.
const COMMON_PAIRS: [&[u8; 2]; 40] = [
    b"th", b"he", b"in", b"er", b"an", b"re", b"on", b"at", b"en", b"nd", b"ti", b"es", b"or",
    b"te", b"of", b"ed", b"is", b"it", b"al", b"ar", b"st", b"to", b"nt", b"ng", b"se", b"ha",
    b"as", b"ou", b"io", b"le", b"ve", b"co", b"me", b"de", b"hi", b"ri", b"ro", b"ic", b"ne",
    b"ea",
];

/// Per byte: its [`commonness`] (bits 0 to 7); the letters that follow it
/// in a [`COMMON_PAIRS`] pair, when it is a letter in either case (bits 8
/// to 33, `a` first); and its letter's index (bits 34 to 38, 31 when it is
/// not a letter).
#[expect(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: an index out of bounds fails the build"
)]
const BYTES: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let lower = (b as u8).to_ascii_lowercase();
        let index = if lower.is_ascii_lowercase() {
            (lower - b'a') as u64
        } else {
            31
        };
        table[b] = commonness(b as u8) as u64 | index << 34;
        b += 1;
    }
    let mut i = 0;
    while i < COMMON_PAIRS.len() {
        let [first, second] = *COMMON_PAIRS[i];
        let mut b = 0;
        while b < 256 {
            if (b as u8).to_ascii_lowercase() == first {
                table[b] |= 1 << (8 + (second - b'a') as u64);
            }
            b += 1;
        }
        i += 1;
    }
    table
};

/// A byte's entry in [`BYTES`].
#[inline]
fn byte_info(b: u8) -> u64 {
    BYTES.get(usize::from(b)).copied().unwrap_or_default()
}

/// Whether two bytes are one of the [`COMMON_PAIRS`], in any ASCII case.
#[inline]
fn common_pair(a: u8, b: u8) -> bool {
    let (a, b) = (byte_info(a), byte_info(b));
    let index = (b >> 34) & 31;
    index < 26 && (a >> (8 + index)) & 1 == 1
}

/// How common a four-byte window is likely to be in text: its bytes'
/// [`commonness`], plus a penalty for each common letter pair in it (the
/// `ccou` of `accountkey` occurs in every "account"; its `tkey` rarely).
#[inline]
fn window_commonness(w: [u8; 4]) -> u32 {
    let [a, b, c, d] = w;
    let byte = |x: u8| (byte_info(x) & 0xFF) as u32;
    let bytes = byte(a) + byte(b) + byte(c) + byte(d);
    let pairs =
        u32::from(common_pair(a, b)) + u32::from(common_pair(b, c)) + u32::from(common_pair(c, d));
    bytes + 40 * pairs
}

/// The offset of a literal's rarest four-byte window: the first of the
/// windows with the lowest [`window_commonness`], each scored from its
/// neighbour's score instead of anew. `None` under four bytes.
fn rarest_window(b: &[u8]) -> Option<usize> {
    let byte = |x: u8| (byte_info(x) & 0xFF) as u32;
    let pair = |x: u8, y: u8| 40 * u32::from(common_pair(x, y));
    let mut score = window_commonness(*b.first_chunk::<4>()?);
    let (mut best, mut at) = (score, 0);
    for o in 1..=b.len() - 4 {
        let (Some(&out), Some(&out_next), Some(&last), Some(&into)) =
            (b.get(o - 1), b.get(o), b.get(o + 2), b.get(o + 3))
        else {
            break;
        };
        // The window loses its first byte and the pair it began, and gains
        // a last byte and the pair it ends.
        score = score - byte(out) - pair(out, out_next) + byte(into) + pair(last, into);
        if score < best {
            (best, at) = (score, o);
        }
    }
    Some(at)
}

/// One literal to find.
#[derive(Clone, Debug)]
struct Literal {
    /// The bytes, ASCII-lowercased when `case_insensitive`.
    bytes: Box<[u8]>,
    case_insensitive: bool,
}

impl Literal {
    #[inline]
    fn matches_at(&self, hay: &[u8], start: usize) -> bool {
        let Some(window) = hay.get(start..start + self.bytes.len()) else {
            return false;
        };
        if self.case_insensitive {
            window.eq_ignore_ascii_case(&self.bytes)
        } else {
            *window == *self.bytes
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u32,
    literal: u32,
    offset: u32,
    /// For a case-sensitive literal, its four bytes at `offset` as they
    /// must appear (the key is case-folded); 0 otherwise.
    exact: u32,
}

/// The four-byte windows of a set's literals.
#[derive(Clone, Debug)]
struct GramFilter {
    /// The tables have `1 << bits` bits.
    bits: u32,
    /// One bit per folded window ([`hash`]): the scan reads it for every
    /// window of the text.
    table: Vec<u64>,
    /// One bit per window as it must appear ([`rehash`]): folded for a
    /// case-insensitive literal, as written for the others. A window that
    /// `table` passes is looked up only when this table passes it too, as
    /// folded or as written: most windows that `table` passes by chance
    /// fail here, and so do the differently-cased windows of a
    /// case-sensitive literal (`ndex` in "index" for `NDEx`).
    written: Vec<u64>,
    bucket_bits: u32,
    starts: Vec<u32>,
    entries: Vec<Entry>,
}

/// Collects literals, then builds a [`LiteralSet`].
#[derive(Default)]
pub(crate) struct LiteralSetBuilder {
    literals: Vec<Literal>,
}

impl LiteralSetBuilder {
    /// Adds a literal (non-empty) and returns its id.
    pub(crate) fn add(&mut self, bytes: &[u8], case_insensitive: bool) -> u32 {
        let bytes = if case_insensitive {
            bytes.to_ascii_lowercase()
        } else {
            bytes.to_vec()
        };
        self.literals.push(Literal {
            bytes: bytes.into(),
            case_insensitive,
        });
        (self.literals.len() - 1) as u32
    }

    #[expect(
        clippy::indexing_slicing,
        reason = "literal, state and target ids come from the automaton built with these tables"
    )]
    pub(crate) fn build(self) -> LiteralSet {
        let mut entries: Vec<Entry> = Vec::new();
        let mut short_patterns: Vec<&[u8]> = Vec::new();
        let mut short_ids: Vec<u32> = Vec::new();
        for (id, lit) in self.literals.iter().enumerate() {
            let id = id as u32;
            let b = &lit.bytes;
            match b.len() {
                0 => {}
                1 | 2 => {
                    short_patterns.push(b);
                    short_ids.push(id);
                }
                3 => {
                    // Every fourth byte: the literal may end the string or be
                    // followed by anything. Folded, the fourth byte is one of
                    // the 128 with the fold bit set, each once.
                    let keys = (0..=255u8)
                        .filter(|x| x & 0x20 != 0)
                        .map(|x| u32::from_le_bytes([b[0], b[1], b[2], x]) | FOLD32);
                    entries.extend(keys.map(|key| Entry {
                        key,
                        literal: id,
                        offset: 0,
                        exact: 0,
                    }));
                }
                _ => {
                    let offset = rarest_window(b).unwrap_or(0);
                    let key = u32::from_le_bytes([
                        b[offset],
                        b[offset + 1],
                        b[offset + 2],
                        b[offset + 3],
                    ]);
                    entries.push(Entry {
                        key: key | FOLD32,
                        literal: id,
                        offset: offset as u32,
                        exact: if lit.case_insensitive { 0 } else { key },
                    });
                }
            }
        }
        let gram = (!entries.is_empty()).then(|| GramFilter::new(entries));
        let short = if short_patterns.is_empty() {
            None
        } else {
            AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::Standard)
                .build(&short_patterns)
                .ok()
        };
        LiteralSet {
            literals: self.literals,
            gram,
            short,
            short_ids,
        }
    }
}

impl GramFilter {
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, state and target ids come from the automaton built with these tables"
    )]
    fn new(entries: Vec<Entry>) -> Self {
        let n = entries.len().max(1);
        // 12 to 22: `LiteralSet::scan_eights` has a loop for each (a test
        // makes every size).
        let bits = (usize::BITS - n.leading_zeros() + 7).clamp(12, 22);
        let bucket_bits = (usize::BITS - n.leading_zeros()).clamp(4, 20);
        let mut table = vec![0u64; (1usize << bits) / 64];
        let mut written = table.clone();
        for e in &entries {
            let h = hash(e.key, bits);
            table[h >> 6] |= 1u64 << (h & 63);
            let g = rehash(if e.exact == 0 { e.key } else { e.exact }, bits);
            written[g >> 6] |= 1u64 << (g & 63);
        }
        let mut starts = vec![0u32; (1usize << bucket_bits) + 1];
        for e in &entries {
            starts[hash(e.key, bucket_bits) + 1] += 1;
        }
        for i in 0..(1usize << bucket_bits) {
            starts[i + 1] += starts[i];
        }
        // Into their buckets (a counting sort: a stage's three-byte
        // literals make thousands of entries), then each bucket by key.
        let mut next = starts.clone();
        let mut placed = entries.clone();
        for e in entries {
            let slot = &mut next[hash(e.key, bucket_bits)];
            placed[*slot as usize] = e;
            *slot += 1;
        }
        let mut entries = placed;
        for bucket in starts.windows(2) {
            entries[bucket[0] as usize..bucket[1] as usize]
                .sort_unstable_by_key(|e| (e.key, e.literal));
        }
        Self {
            bits,
            table,
            written,
            bucket_bits,
            starts,
            entries,
        }
    }

    #[inline(always)]
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, state and target ids come from the automaton built with these tables"
    )]
    fn maybe(&self, key: u32) -> bool {
        let h = hash(key, self.bits);
        self.table[h >> 6] & (1u64 << (h & 63)) != 0
    }

    /// Whether a window that [`Self::maybe`] passed (`key`, folded) is in
    /// the second table, folded or as written (`raw`).
    #[inline(always)]
    #[expect(
        clippy::indexing_slicing,
        reason = "the hashes have `bits` bits: their words are in the table"
    )]
    fn written(&self, key: u32, raw: u32) -> bool {
        let bit = |g: usize| self.written[g >> 6] & (1u64 << (g & 63)) != 0;
        bit(rehash(key, self.bits)) || bit(rehash(raw, self.bits))
    }
}

/// A compiled set of literals.
#[derive(Clone, Debug)]
pub(crate) struct LiteralSet {
    literals: Vec<Literal>,
    gram: Option<GramFilter>,
    short: Option<AhoCorasick>,
    short_ids: Vec<u32>,
}

impl LiteralSet {
    /// Calls `found(literal, start)` for every occurrence of every literal in
    /// `hay`, overlapping occurrences included. Occurrences of long literals
    /// come in order of their indexed window; short ones after them.
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, state and target ids come from the automaton built with these tables"
    )]
    pub(crate) fn for_each(&self, hay: &[u8], mut found: impl FnMut(u32, usize)) {
        if let Some(gram) = &self.gram {
            self.scan_grams(gram, hay, &mut found);
        }
        if let Some(short) = &self.short {
            for m in short.find_overlapping_iter(hay) {
                let id = self.short_ids[m.pattern().as_usize()];
                if self.literals[id as usize].matches_at(hay, m.start()) {
                    found(id, m.start());
                }
            }
        }
    }

    #[inline(never)]
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, state and target ids come from the automaton built with these tables"
    )]
    fn candidate(
        &self,
        gram: &GramFilter,
        hay: &[u8],
        pos: usize,
        key: u32,
        found: &mut impl FnMut(u32, usize),
    ) {
        let b = hash(key, gram.bucket_bits);
        let (lo, hi) = (gram.starts[b] as usize, gram.starts[b + 1] as usize);
        for e in &gram.entries[lo..hi] {
            if e.key != key {
                continue;
            }
            // A case-sensitive literal: its window as written, without
            // reading the literal (`NDEx` is not the `ndex` of `index`).
            if e.exact != 0
                && hay
                    .get(pos..pos + 4)
                    .is_none_or(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) != e.exact)
            {
                continue;
            }
            let Some(start) = pos.checked_sub(e.offset as usize) else {
                continue;
            };
            if self.literals[e.literal as usize].matches_at(hay, start) {
                found(e.literal, start);
            }
        }
    }

    /// Every window of `hay` through the filter: the windows of each eight
    /// bytes in turn, then those of the last few.
    #[inline(never)]
    fn scan_grams(&self, gram: &GramFilter, hay: &[u8], found: &mut impl FnMut(u32, usize)) {
        let rest = self.scan_eights(gram, hay, found).unwrap_or(0);
        self.scan_tail(gram, hay, rest, found);
    }

    /// The windows of each eight bytes of `hay`, in a copy of the loop for
    /// the table's size: its shifts are immediate and its indexes need no
    /// bounds checks. Returns where the rest begins (`None` for a size that
    /// [`GramFilter::new`] never makes).
    #[inline(always)]
    fn scan_eights(
        &self,
        gram: &GramFilter,
        hay: &[u8],
        found: &mut impl FnMut(u32, usize),
    ) -> Option<usize> {
        match gram.bits {
            12 => self.scan_words::<64>(gram, hay, found),
            13 => self.scan_words::<128>(gram, hay, found),
            14 => self.scan_words::<256>(gram, hay, found),
            15 => self.scan_words::<512>(gram, hay, found),
            16 => self.scan_words::<1024>(gram, hay, found),
            17 => self.scan_words::<2048>(gram, hay, found),
            18 => self.scan_words::<4096>(gram, hay, found),
            19 => self.scan_words::<8192>(gram, hay, found),
            20 => self.scan_words::<16384>(gram, hay, found),
            21 => self.scan_words::<32768>(gram, hay, found),
            22 => self.scan_words::<65536>(gram, hay, found),
            _ => None,
        }
    }

    /// The windows of each eight bytes of `hay` through a table of `WORDS`
    /// words; returns where the rest begins (`None` when the table is not
    /// of that size).
    #[inline(always)]
    fn scan_words<const WORDS: usize>(
        &self,
        gram: &GramFilter,
        hay: &[u8],
        found: &mut impl FnMut(u32, usize),
    ) -> Option<usize> {
        let table = <&[u64; WORDS]>::try_from(gram.table.as_slice()).ok()?;
        let shift = 32 - WORDS.trailing_zeros();
        let maybe = |key: u32| {
            let h = key.wrapping_mul(0x9E37_79B1);
            let word = table
                .get((h >> shift) as usize)
                .copied()
                .unwrap_or_default();
            word & (1u64 << ((h >> (shift - 6)) & 63)) != 0
        };
        let mut rest = 0;
        for (c, chunk) in hay.windows(8).step_by(4).enumerate() {
            let Ok(bytes) = <[u8; 8]>::try_from(chunk) else {
                break;
            };
            let at = 4 * c;
            let x = u64::from_le_bytes(bytes) | FOLD64;
            let [k0, k1, k2, k3] = [
                x as u32,
                (x >> 8) as u32,
                (x >> 16) as u32,
                (x >> 24) as u32,
            ];
            // Rarely true: the windows are looked at again out of the loop.
            if maybe(k0) | maybe(k1) | maybe(k2) | maybe(k3) {
                self.four_windows(gram, hay, at, found);
            }
            rest = at + 4;
        }
        Some(rest)
    }

    /// The four windows from `at`, of which one at least passed the first
    /// table.
    #[inline(never)]
    fn four_windows(
        &self,
        gram: &GramFilter,
        hay: &[u8],
        at: usize,
        found: &mut impl FnMut(u32, usize),
    ) {
        for pos in at..at + 4 {
            self.window(gram, hay, pos, found);
        }
    }

    /// The window at `pos` through both tables, then its entries.
    #[inline(always)]
    fn window(
        &self,
        gram: &GramFilter,
        hay: &[u8],
        pos: usize,
        found: &mut impl FnMut(u32, usize),
    ) {
        let Some(&bytes) = hay.get(pos..).and_then(<[u8]>::first_chunk::<4>) else {
            return;
        };
        let raw = u32::from_le_bytes(bytes);
        let key = raw | FOLD32;
        if gram.maybe(key) && gram.written(key, raw) {
            self.candidate(gram, hay, pos, key, found);
        }
    }

    /// The windows from `i` on, one by one, and the padded window of a
    /// three-byte literal at the end.
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, state and target ids come from the automaton built with these tables"
    )]
    fn scan_tail(
        &self,
        gram: &GramFilter,
        hay: &[u8],
        mut i: usize,
        found: &mut impl FnMut(u32, usize),
    ) {
        let n = hay.len();
        while i + 4 <= n {
            self.window(gram, hay, i, found);
            i += 1;
        }
        // A three-byte literal can end the string: its window is padded
        // (its entries are folded).
        if n >= 3 && i == n - 3 {
            let key = u32::from_le_bytes([hay[i], hay[i + 1], hay[i + 2], 0]) | FOLD32;
            if gram.maybe(key) && gram.written(key, key) {
                self.candidate(gram, hay, i, key, found);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_pairs_are_found_in_any_case_and_nothing_else_is() {
        for a in 0..=255u8 {
            assert_eq!(byte_info(a) & 0xFF, u64::from(commonness(a)), "{a}");
            for b in 0..=255u8 {
                let p = [a.to_ascii_lowercase(), b.to_ascii_lowercase()];
                assert_eq!(
                    common_pair(a, b),
                    COMMON_PAIRS.iter().any(|c| **c == p),
                    "{a} {b}"
                );
            }
        }
    }

    fn naive(lits: &[(&str, bool)], hay: &str) -> Vec<(u32, usize)> {
        let mut out = Vec::new();
        for (id, (l, ci)) in lits.iter().enumerate() {
            for start in 0..hay.len() {
                let Some(w) = hay.as_bytes().get(start..start + l.len()) else {
                    continue;
                };
                let eq = if *ci {
                    w.eq_ignore_ascii_case(l.as_bytes())
                } else {
                    w == l.as_bytes()
                };
                if eq {
                    out.push((id as u32, start));
                }
            }
        }
        out.sort();
        out
    }

    fn filter(lits: &[(&str, bool)], hay: &str) -> Vec<(u32, usize)> {
        let mut b = LiteralSetBuilder::default();
        for (l, ci) in lits {
            b.add(l.as_bytes(), *ci);
        }
        let set = b.build();
        let mut out = Vec::new();
        set.for_each(hay.as_bytes(), |id, start| out.push((id, start)));
        out.sort();
        out
    }

    #[test]
    fn finds_every_occurrence_of_every_length() {
        let lits = [
            ("drop table", true),
            ("DROP", false),
            ("eyJ", false),
            ("<", true),
            ("rm", true),
            ("abab", true),
            ("xyz", true),
        ];
        for hay in [
            "",
            "x",
            "xy",
            "xyz",
            "please DROP TABLE users; drop table x",
            "ababab eyJhbGci <system> RM -rf",
            "trailing eyJ",
            "ends with xyz",
            "caf\u{e9} DROP\u{e9}drop TABLE",
        ] {
            assert_eq!(filter(&lits, hay), naive(&lits, hay), "{hay:?}");
        }
    }

    #[test]
    fn the_rarest_window_is_the_first_lowest_scored() {
        let mut rng = crate::globs::Rng(0x5851_f42d_4c95_7f2d);
        const PARTS: &[&str] = &[
            "a", "e", "t", "h", "th", "er", "q", "z", "_", "-", "0", "9", " ", "K", "E", "Y",
            "ccou", "\u{e9}", "\u{ff}",
        ];
        for _ in 0..5000 {
            let text: String = (0..1 + rng.below(12)).map(|_| rng.pick(PARTS)).collect();
            let b = text.as_bytes();
            let expected = (b.len() >= 4).then(|| {
                (0..=b.len() - 4)
                    .min_by_key(|&o| window_commonness([b[o], b[o + 1], b[o + 2], b[o + 3]]))
                    .unwrap()
            });
            assert_eq!(rarest_window(b), expected, "{text:?}");
        }
    }

    #[test]
    fn a_three_byte_literal_is_found_before_every_byte() {
        for (literal, folded) in [(&b"xyz"[..], false), (b"q~0", true), (b"Q~0", false)] {
            let mut b = LiteralSetBuilder::default();
            b.add(literal, folded);
            let set = b.build();
            for next in 0..=255u8 {
                for case in [literal.to_vec(), literal.to_ascii_uppercase()] {
                    let mut hay = b"ab".to_vec();
                    hay.extend_from_slice(&case);
                    hay.extend_from_slice(&[next, b'c']);
                    let mut found = Vec::new();
                    set.for_each(&hay, |id, start| found.push((id, start)));
                    let expected = if folded || case == literal {
                        vec![(0, 2)]
                    } else {
                        vec![]
                    };
                    assert_eq!(found, expected, "{hay:?}");
                }
            }
        }
    }

    #[test]
    fn agrees_with_naive_search_on_random_text() {
        let words: Vec<String> = (0..300).map(|i| format!("w{i:03}zq")).collect();
        let lits: Vec<(&str, bool)> = words.iter().map(|w| (w.as_str(), i_even(w))).collect();
        let mut hay = String::new();
        for i in 0..2000 {
            hay.push_str(if i % 7 == 0 { "W042ZQ " } else { "lorem w1 " });
            if i % 13 == 0 {
                hay.push_str(&words[i % 300]);
            }
        }
        assert_eq!(filter(&lits, &hay), naive(&lits, &hay));
    }

    #[test]
    fn every_table_size_has_its_loop_and_finds_what_a_naive_search_finds() {
        let mut rng = crate::globs::Rng(0x2545_f491_4f6c_dd1d);
        let alphabet = [
            "a", "b", "c", "d", "e", "X", "Y", "Z", "_", "-", "0", " ", "q", "~",
        ];
        let mut sizes = std::collections::BTreeSet::new();
        for count in [
            1, 20, 40, 90, 200, 400, 800, 1_600, 3_200, 6_400, 12_800, 20_000,
        ] {
            let words: Vec<String> = (0..count)
                .map(|_| (0..4 + rng.below(5)).map(|_| rng.pick(&alphabet)).collect())
                .collect();
            let lits: Vec<(&str, bool)> = words
                .iter()
                .map(|w| (w.as_str(), rng.below(2) == 0))
                .collect();
            let hay: String = (0..600).map(|_| rng.pick(&alphabet)).collect();
            let mut b = LiteralSetBuilder::default();
            for (l, ci) in &lits {
                b.add(l.as_bytes(), *ci);
            }
            let set = b.build();
            let gram = set.gram.as_ref().expect("long literals");
            sizes.insert(gram.bits);
            let mut found = Vec::new();
            let rest = set.scan_eights(gram, hay.as_bytes(), &mut |id, start| {
                found.push((id, start))
            });
            assert_eq!(rest, Some(hay.len() - 4), "{} entries", gram.entries.len());
            assert_eq!(filter(&lits, &hay), naive(&lits, &hay), "{count} literals");
        }
        assert_eq!(sizes, (12..=22).collect(), "table sizes made");
    }

    fn i_even(w: &str) -> bool {
        w.len().is_multiple_of(2)
    }
}
