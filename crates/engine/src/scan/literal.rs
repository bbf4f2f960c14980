//! The literal filter: finds every occurrence of many literals (blocklist
//! words and the prefixes of regex patterns) in one pass over a string.
//!
//! Literals of three bytes or more are indexed by one four-byte window each
//! (the rarest window of the literal, ASCII case folded). The scan hashes
//! every four-byte window of the text into a bit table that fits in cache
//! (the SIMD paths read a table of their own, with two bits per window in
//! one word: [`simd`]); a window that passes is checked again in a second
//! table, of the windows as they must appear, and only then looked up and
//! compared. A
//! set built for many requests chooses its table's hash among several, so
//! that the windows most common in code and prose seldom share a bit with
//! a literal's window ([`COMMON_WINDOWS`]).
//! Literals of one or two bytes go to a small Aho-Corasick automaton. Every
//! reported occurrence has been compared byte for byte: the filter never
//! reports a false hit and never misses a true one.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};

// `allow`, not `expect`: on targets without a SIMD path the module has no
// `unsafe` code.
#[allow(
    unsafe_code,
    reason = "SIMD intrinsics, in the one module that may use them (STYLE.md)"
)]
pub(crate) mod simd;

use simd::{FirstTable, Path};

use super::common_windows::COMMON_WINDOWS;

/// Folds ASCII upper case onto lower case in all four (or eight) bytes. Other
/// bytes are changed too, which only adds candidates, never loses one.
const FOLD32: u32 = 0x2020_2020;
const FOLD64: u64 = 0x2020_2020_2020_2020;

#[inline(always)]
fn hash(key: u32, bits: u32) -> usize {
    hash_with(key, GOLDEN, bits)
}

/// The first of the [`MULTIPLIERS`]: 2^32 divided by the golden ratio.
const GOLDEN: u32 = 0x9E37_79B1;

/// [`hash`] with another multiplier (odd).
#[inline(always)]
fn hash_with(key: u32, multiplier: u32, bits: u32) -> usize {
    (key.wrapping_mul(multiplier) >> (32 - bits)) as usize
}

/// The multipliers a first table's hash may use: the golden ratio's
/// (Fibonacci hashing) and 15 odd words of a splitmix64 sequence. The scan
/// loop has a copy for each, with the multiplier in its instructions.
const MULTIPLIERS: [u32; 16] = multipliers();

/// The multiplier at `which` ([`GOLDEN`] past the end).
#[expect(clippy::indexing_slicing, reason = "the index is checked first")]
const fn multiplier_at(which: usize) -> u32 {
    if which < MULTIPLIERS.len() {
        MULTIPLIERS[which]
    } else {
        GOLDEN
    }
}

#[expect(
    clippy::indexing_slicing,
    reason = "evaluated at compile time: an index out of bounds fails the build"
)]
const fn multipliers() -> [u32; 16] {
    let mut out = [GOLDEN; 16];
    let mut state = 0u64;
    let mut i = 1;
    while i < out.len() {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        out[i] = (z >> 32) as u32 | 1;
        i += 1;
    }
    out
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

/// Whether a window, folded, is one of the [`COMMON_WINDOWS`].
fn is_common_window(w: [u8; 4]) -> bool {
    static SORTED: LazyLock<Vec<u32>> = LazyLock::new(|| {
        let mut keys: Vec<u32> = COMMON_WINDOWS.iter().map(|&(w, _)| w).collect();
        keys.sort_unstable();
        keys
    });
    SORTED
        .binary_search(&(u32::from_le_bytes(w) | FOLD32))
        .is_ok()
}

/// Added to the score of a case-sensitive literal's window that folds onto
/// one of the [`COMMON_WINDOWS`]: more than any four bytes score, so such
/// a window is taken only when all of the literal's are common.
const COMMON_WINDOW_COST: u32 = 1000;

/// What a window costs as the index of a literal beyond its
/// [`window_commonness`], `exact` for a case-sensitive literal:
/// [`COMMON_WINDOW_COST`] when it is one and the window folds onto a
/// common window. By its bytes alone, `---- BEGIN SSH2 ENCRYPTED PRIVATE
/// KEY ----` would be indexed by `----`, which every line of dashes in a
/// comment or a document holds and the second table passes as written;
/// its `-- B` seldom occurs. (A case-insensitive literal is a policy's word
/// or a pattern's folded prefix, indexed by its bytes alone: moving those
/// off the common windows of code moved some onto windows frequent in
/// other text.)
fn common_cost(w: [u8; 4], exact: bool) -> u32 {
    if exact && is_common_window(w) {
        COMMON_WINDOW_COST
    } else {
        0
    }
}

/// The offset of a literal's rarest four-byte window: the first of the
/// windows with the lowest [`window_commonness`] plus [`common_cost`], the
/// first part of each scored from its neighbour's instead of anew. `None`
/// under four bytes.
fn rarest_window(b: &[u8], exact: bool) -> Option<usize> {
    let byte = |x: u8| (byte_info(x) & 0xFF) as u32;
    let pair = |x: u8, y: u8| 40 * u32::from(common_pair(x, y));
    let common = |o: usize| {
        b.get(o..)
            .and_then(<[u8]>::first_chunk::<4>)
            .map_or(0, |&w| common_cost(w, exact))
    };
    let mut score = window_commonness(*b.first_chunk::<4>()?);
    let (mut best, mut at) = (score + common(0), 0);
    for o in 1..=b.len() - 4 {
        let (Some(&out), Some(&out_next), Some(&last), Some(&into)) =
            (b.get(o - 1), b.get(o), b.get(o + 2), b.get(o + 3))
        else {
            break;
        };
        // The window loses its first byte and the pair it began, and gains
        // a last byte and the pair it ends.
        score = score - byte(out) - pair(out, out_next) + byte(into) + pair(last, into);
        if score + common(o) < best {
            (best, at) = (score + common(o), o);
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
    /// The multiplier of `table`'s hash ([`hash_with`]), and its index in
    /// [`MULTIPLIERS`] (the scan loop's copy for it).
    multiplier: u32,
    which: usize,
    /// One bit per folded window ([`hash_with`] and `multiplier`): the
    /// scan reads it for every window of the text.
    table: Vec<u64>,
    /// One bit per window as it must appear ([`rehash`]): folded for a
    /// case-insensitive literal, as written for the others. A window that
    /// `table` passes is looked up only when this table passes it too, as
    /// folded or as written: most windows that `table` passes by chance
    /// fail here, and so do the differently-cased windows of a
    /// case-sensitive literal (`ndex` in "index" for `NDEx`).
    written: Vec<u64>,
    /// The first table of the SIMD paths: two bits per folded window in
    /// one 32-bit word ([`pair_slot`]), `1 << pair_bits` words. Two bits
    /// in one word turn away more of the windows that are no literal's
    /// than one bit in a table several times larger, and the table stays
    /// small enough for the first-level cache.
    pairs: Vec<u32>,
    pair_bits: u32,
    bucket_bits: u32,
    starts: Vec<u32>,
    entries: Vec<Entry>,
}

/// Collects literals, then builds a [`LiteralSet`].
#[derive(Default)]
pub(crate) struct LiteralSetBuilder {
    literals: Vec<Literal>,
    /// The path whose first table the filter's hash is chosen for,
    /// against [`COMMON_WINDOWS`] (`None`: not chosen, the first).
    tuned: Option<Path>,
}

impl LiteralSetBuilder {
    /// Chooses the filter table's hash so that common text passes it
    /// seldom ([`best_multiplier`]): worth its cost (a few milliseconds for
    /// thousands of literals) when the set scans many requests, not for a
    /// process that evaluates one. The hash is chosen for the first table
    /// of the path this process takes ([`Path::chosen`]).
    pub(crate) fn tune(&mut self) {
        self.tune_for(Path::chosen());
    }

    /// [`Self::tune`] for the first table that `path` reads.
    pub(crate) fn tune_for(&mut self, path: Path) {
        self.tuned = Some(path);
    }

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
                    let offset = rarest_window(b, !lit.case_insensitive).unwrap_or(0);
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
        let gram = (!entries.is_empty()).then(|| GramFilter::new(entries, self.tuned));
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
    /// The filter of `entries`, its first tables hashed by the multiplier
    /// [`best_multiplier`] chooses for the first table of the path `tuned`
    /// names, else the first.
    fn new(entries: Vec<Entry>, tuned: Option<Path>) -> Self {
        let bits = table_bits(entries.len().max(1));
        let which = tuned.map_or(0, |path| best_multiplier(&entries, bits, path));
        Self::with_multiplier(entries, which)
    }

    /// The filter of `entries` with its first tables hashed by the
    /// multiplier at `which` in [`MULTIPLIERS`].
    #[expect(
        clippy::indexing_slicing,
        reason = "the hashes have `bits` bits: their words are in the tables"
    )]
    fn with_multiplier(entries: Vec<Entry>, which: usize) -> Self {
        let n = entries.len().max(1);
        let bits = table_bits(n);
        let bucket_bits = (usize::BITS - n.leading_zeros()).clamp(4, 20);
        let multiplier = multiplier_at(which);
        let mut table = vec![0u64; (1usize << bits) / 64];
        let mut written = table.clone();
        let pair_bits = pair_bits(n);
        let mut pairs = vec![0u32; 1usize << pair_bits];
        for e in &entries {
            let h = hash_with(e.key, multiplier, bits);
            table[h >> 6] |= 1u64 << (h & 63);
            let (word, mask) = pair_slot(e.key, multiplier, pair_bits);
            pairs[word] |= mask;
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
            multiplier,
            which,
            table,
            written,
            pairs,
            pair_bits,
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
        let h = hash_with(key, self.multiplier, self.bits);
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

/// The size of the scalar first table and of the second for `n` entries,
/// as the power of two of its bits: 12 to 22, which
/// `LiteralSet::scan_eights` has a loop for each of (a test makes every
/// size).
fn table_bits(n: usize) -> u32 {
    (usize::BITS - n.leading_zeros() + 7).clamp(12, 22)
}

/// The size of the SIMD paths' first table for `n` entries, as the power
/// of two of its 32-bit words: about one word per entry, from 1 KB up to
/// 32 KB (8,192 entries), which stays in the first-level cache with the
/// rest of a pass's data; 64 KB for more entries, whose two bits each
/// would set ever more of a 32 KB table's bits (15% at 20,000 entries) and
/// pass ever more windows by chance.
fn pair_bits(n: usize) -> u32 {
    if n > 1 << 13 {
        14
    } else {
        (usize::BITS - n.max(1).leading_zeros() + 1).clamp(8, 13)
    }
}

/// A folded window's word in the SIMD paths' first table (`1 << bits`
/// words) and its two bits there: the top `bits` bits of the window times
/// `multiplier` choose the word, the next two groups of five the bits.
#[inline]
fn pair_slot(key: u32, multiplier: u32, bits: u32) -> (usize, u32) {
    let h = key.wrapping_mul(multiplier);
    let first = (h >> (27 - bits)) & 31;
    let second = (h >> (22 - bits)) & 31;
    ((h >> (32 - bits)) as usize, 1 << first | 1 << second)
}

/// The index in [`MULTIPLIERS`] of the one under which the first table of these
/// entries passes the least of [`COMMON_WINDOWS`], each weighed by how
/// often it occurs; the first when several tie. The first table is the one
/// `path` reads: the scalar loop's (`1 << bits` bits), or the SIMD paths'
/// table of bit pairs ([`pair_slot`]), whose bits the hash places
/// otherwise, so that a multiplier good for one is no better than any
/// other for the second. A common window that is a literal's own window is
/// passed under any multiplier and not counted.
///
/// A table passes a window of text that is no literal's when the window
/// lands on a set bit, and text repeats its most common windows so often
/// that one such bit can outweigh all the others: in a workload of tool
/// outputs, the `ency` of every "latency" landing on an Azure client
/// secret's `97q~` made 30% of one table's chance passes, and `nabl`,
/// ` its` and ` cod` two fifths of the pair table's while the multiplier
/// was chosen for the scalar table.
fn best_multiplier(entries: &[Entry], bits: u32, path: Path) -> usize {
    let mut keys: Vec<u32> = entries.iter().map(|e| e.key).collect();
    keys.sort_unstable();
    keys.dedup();
    let common: Vec<(u32, u32)> = COMMON_WINDOWS
        .iter()
        .copied()
        .filter(|(window, _)| keys.binary_search(window).is_err())
        .collect();
    let mut table = FirstTables::new(path, bits, entries.len());
    let mut best = (u64::MAX, 0);
    for (which, multiplier) in MULTIPLIERS.into_iter().enumerate() {
        for &key in &keys {
            table.set(key, multiplier);
        }
        let passed: u64 = common
            .iter()
            .filter(|&&(window, _)| table.passes(window, multiplier))
            .map(|&(_, count)| u64::from(count))
            .sum();
        for &key in &keys {
            table.clear(key, multiplier);
        }
        if passed < best.0 {
            best = (passed, which);
            if passed == 0 {
                break;
            }
        }
    }
    best.1
}

/// A first table as [`best_multiplier`] tries it: the scalar loop's bits,
/// or the SIMD paths' bit pairs.
enum FirstTables {
    Bits { table: Vec<u64>, bits: u32 },
    Pairs { words: Vec<u32>, bits: u32 },
}

#[expect(
    clippy::indexing_slicing,
    reason = "the hashes have `bits` bits: their words are in the tables"
)]
impl FirstTables {
    /// The empty table `path` reads for `n` entries (`bits`: the scalar
    /// table's size).
    fn new(path: Path, bits: u32, n: usize) -> Self {
        match path {
            Path::Scalar => FirstTables::Bits {
                table: vec![0; (1usize << bits) / 64],
                bits,
            },
            Path::Avx2 | Path::Avx512 => {
                let bits = pair_bits(n);
                FirstTables::Pairs {
                    words: vec![0; 1usize << bits],
                    bits,
                }
            }
        }
    }

    fn set(&mut self, key: u32, multiplier: u32) {
        match self {
            FirstTables::Bits { table, bits } => {
                let h = hash_with(key, multiplier, *bits);
                table[h >> 6] |= 1u64 << (h & 63);
            }
            FirstTables::Pairs { words, bits } => {
                let (word, mask) = pair_slot(key, multiplier, *bits);
                words[word] |= mask;
            }
        }
    }

    fn passes(&self, key: u32, multiplier: u32) -> bool {
        match self {
            FirstTables::Bits { table, bits } => {
                let h = hash_with(key, multiplier, *bits);
                table[h >> 6] >> (h & 63) & 1 != 0
            }
            FirstTables::Pairs { words, bits } => {
                let (word, mask) = pair_slot(key, multiplier, *bits);
                words[word] & mask == mask
            }
        }
    }

    /// Clears the word that `key` set.
    fn clear(&mut self, key: u32, multiplier: u32) {
        match self {
            FirstTables::Bits { table, bits } => {
                table[hash_with(key, multiplier, *bits) >> 6] = 0;
            }
            FirstTables::Pairs { words, bits } => {
                words[pair_slot(key, multiplier, *bits).0] = 0;
            }
        }
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
    /// The bytes of a literal as the set stores them (ASCII lower case for
    /// a case-insensitive one).
    pub(crate) fn bytes(&self, literal: u32) -> Option<&[u8]> {
        self.literals.get(literal as usize).map(|l| &*l.bytes)
    }

    /// Calls `found(literal, start)` for every occurrence of every literal in
    /// `hay`, overlapping occurrences included. Occurrences of long literals
    /// come in order of their indexed window; short ones after them.
    pub(crate) fn for_each(&self, hay: &[u8], found: impl FnMut(u32, usize)) {
        self.for_each_on(Path::chosen(), hay, found);
    }

    /// [`Self::for_each`] with the filter's first look taken by `path`
    /// (the scalar loop when this CPU cannot run it). Every path reports
    /// the same occurrences in the same order.
    #[expect(
        clippy::indexing_slicing,
        reason = "literal, state and target ids come from the automaton built with these tables"
    )]
    pub(crate) fn for_each_on(&self, path: Path, hay: &[u8], mut found: impl FnMut(u32, usize)) {
        if let Some(gram) = &self.gram {
            self.scan_grams(path, gram, hay, &mut found);
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
    /// bytes in turn (`path`'s first look), then those of the last few.
    #[inline(never)]
    fn scan_grams(
        &self,
        path: Path,
        gram: &GramFilter,
        hay: &[u8],
        found: &mut impl FnMut(u32, usize),
    ) {
        let rest = match path {
            Path::Scalar => self.scan_eights(gram, hay, found).unwrap_or(0),
            Path::Avx2 | Path::Avx512 => {
                let table = FirstTable {
                    words: &gram.pairs,
                    bits: gram.pair_bits,
                    multiplier: gram.multiplier,
                    fold: FOLD32,
                };
                simd::first_look(path, table, hay, &mut |pos| {
                    self.passed(gram, hay, pos, found);
                })
            }
        };
        self.scan_tail(gram, hay, rest, found);
    }

    /// A window that passed the first table (the first look of a SIMD
    /// path): through the second table, then its entries.
    #[inline(always)]
    fn passed(
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
        if gram.written(key, raw) {
            self.candidate(gram, hay, pos, key, found);
        }
    }

    /// The windows of each eight bytes of `hay`, in a copy of the loop for
    /// the table's hash multiplier and size: its multiplication and shifts
    /// are immediate and its indexes need no bounds checks. Returns where
    /// the rest begins (`None` for a multiplier or size that
    /// [`GramFilter::new`] never makes).
    #[inline(always)]
    fn scan_eights(
        &self,
        gram: &GramFilter,
        hay: &[u8],
        found: &mut impl FnMut(u32, usize),
    ) -> Option<usize> {
        match gram.which {
            0 => self.scan_sized::<0>(gram, hay, found),
            1 => self.scan_sized::<1>(gram, hay, found),
            2 => self.scan_sized::<2>(gram, hay, found),
            3 => self.scan_sized::<3>(gram, hay, found),
            4 => self.scan_sized::<4>(gram, hay, found),
            5 => self.scan_sized::<5>(gram, hay, found),
            6 => self.scan_sized::<6>(gram, hay, found),
            7 => self.scan_sized::<7>(gram, hay, found),
            8 => self.scan_sized::<8>(gram, hay, found),
            9 => self.scan_sized::<9>(gram, hay, found),
            10 => self.scan_sized::<10>(gram, hay, found),
            11 => self.scan_sized::<11>(gram, hay, found),
            12 => self.scan_sized::<12>(gram, hay, found),
            13 => self.scan_sized::<13>(gram, hay, found),
            14 => self.scan_sized::<14>(gram, hay, found),
            15 => self.scan_sized::<15>(gram, hay, found),
            _ => None,
        }
    }

    /// [`Self::scan_eights`] for the multiplier at `M`, by the table's size.
    #[inline(always)]
    fn scan_sized<const M: usize>(
        &self,
        gram: &GramFilter,
        hay: &[u8],
        found: &mut impl FnMut(u32, usize),
    ) -> Option<usize> {
        match gram.bits {
            12 => self.scan_words::<64, M>(gram, hay, found),
            13 => self.scan_words::<128, M>(gram, hay, found),
            14 => self.scan_words::<256, M>(gram, hay, found),
            15 => self.scan_words::<512, M>(gram, hay, found),
            16 => self.scan_words::<1024, M>(gram, hay, found),
            17 => self.scan_words::<2048, M>(gram, hay, found),
            18 => self.scan_words::<4096, M>(gram, hay, found),
            19 => self.scan_words::<8192, M>(gram, hay, found),
            20 => self.scan_words::<16384, M>(gram, hay, found),
            21 => self.scan_words::<32768, M>(gram, hay, found),
            22 => self.scan_words::<65536, M>(gram, hay, found),
            _ => None,
        }
    }

    /// The windows of each eight bytes of `hay` through a table of `WORDS`
    /// words hashed with the multiplier at `M`; returns where the rest
    /// begins (`None` when the table is not of that size).
    #[inline(always)]
    fn scan_words<const WORDS: usize, const M: usize>(
        &self,
        gram: &GramFilter,
        hay: &[u8],
        found: &mut impl FnMut(u32, usize),
    ) -> Option<usize> {
        let table = <&[u64; WORDS]>::try_from(gram.table.as_slice()).ok()?;
        let shift = 32 - WORDS.trailing_zeros();
        let multiplier = const { multiplier_at(M) };
        let maybe = |key: u32| {
            let h = key.wrapping_mul(multiplier);
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
    use proptest::prelude::*;

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
        let mut rng = crate::tools::globs::Rng(0x5851_f42d_4c95_7f2d);
        const PARTS: &[&str] = &[
            "a", "e", "t", "h", "th", "er", "q", "z", "_", "-", "0", "9", " ", "K", "E", "Y",
            "ccou", "\u{e9}", "\u{ff}", "ntex", "NTEx", "ndex", " the",
        ];
        for _ in 0..5000 {
            let text: String = (0..1 + rng.below(12)).map(|_| rng.pick(PARTS)).collect();
            let b = text.as_bytes();
            for exact in [false, true] {
                let expected = (b.len() >= 4).then(|| {
                    (0..=b.len() - 4)
                        .min_by_key(|&o| {
                            let w = [b[o], b[o + 1], b[o + 2], b[o + 3]];
                            window_commonness(w) + common_cost(w, exact)
                        })
                        .unwrap()
                });
                assert_eq!(rarest_window(b, exact), expected, "{text:?} {exact}");
            }
        }
    }

    #[test]
    fn a_case_sensitive_literal_is_indexed_off_the_common_windows() {
        assert!(is_common_window(*b"ntex") && is_common_window(*b"----"));
        assert!(!is_common_window(*b"TExM"));
        // An SSH2 key's header: by its bytes alone, the `----` of every
        // line of dashes in a comment or a document.
        let pem = b"---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----";
        assert_eq!(rarest_window(pem, false), Some(0));
        let at = rarest_window(pem, true).unwrap();
        assert!(
            !is_common_window(*pem[at..].first_chunk::<4>().unwrap()),
            "{at}"
        );
        // Only common windows: the lowest scored of them, as before.
        let only = b"ntex";
        assert_eq!(rarest_window(only, true), rarest_window(only, false));
        // A case-insensitive literal is indexed by its bytes alone.
        let words = b"ntexm";
        let by_bytes = (0..=1)
            .min_by_key(|&o| {
                window_commonness([words[o], words[o + 1], words[o + 2], words[o + 3]])
            })
            .unwrap();
        assert_eq!(rarest_window(words, false), Some(by_bytes));
        // And the set finds the literal wherever it is, indexed so.
        let mut builder = LiteralSetBuilder::default();
        let id = builder.add(pem, false);
        let set = builder.build();
        let lower = pem.to_ascii_lowercase();
        let hay = [&b"# ----------\n"[..], pem, b" ", &lower, b" ", pem].concat();
        for path in paths() {
            assert_eq!(
                reported(&set, path, &hay),
                [(id, 13), (id, 13 + 2 * pem.len() + 2)],
                "{path:?}"
            );
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
    #[cfg_attr(
        miri,
        ignore = "builds sets of up to 20,000 literals: too slow interpreted"
    )]
    fn every_table_size_has_its_loop_and_finds_what_a_naive_search_finds() {
        let mut rng = crate::tools::globs::Rng(0x2545_f491_4f6c_dd1d);
        let alphabet = [
            "a", "b", "c", "d", "e", "X", "Y", "Z", "_", "-", "0", " ", "q", "~",
        ];
        let mut sizes = std::collections::BTreeSet::new();
        let mut pair_sizes = std::collections::BTreeSet::new();
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
            let expected = naive(&lits, &hay);
            for tuned in [false, true] {
                let mut b = LiteralSetBuilder::default();
                for (l, ci) in &lits {
                    b.add(l.as_bytes(), *ci);
                }
                if tuned {
                    b.tune();
                }
                let set = b.build();
                let gram = set.gram.as_ref().expect("long literals");
                sizes.insert(gram.bits);
                pair_sizes.insert(gram.pair_bits);
                for path in paths() {
                    // The SIMD paths take the table (a table they refused
                    // would leave every window to the scalar tail).
                    let table = FirstTable {
                        words: &gram.pairs,
                        bits: gram.pair_bits,
                        multiplier: gram.multiplier,
                        fold: FOLD32,
                    };
                    let looked = simd::first_look(path, table, hay.as_bytes(), &mut |_| {});
                    // Every window but the padded one of a three-byte
                    // literal at the end, which the scalar tail takes.
                    let took_all = match path {
                        Path::Scalar => looked == 0,
                        Path::Avx2 | Path::Avx512 => looked == hay.len().saturating_sub(3),
                    };
                    assert!(took_all, "{path:?}, {count} literals: {looked}");
                }
                let mut found = Vec::new();
                let rest = set.scan_eights(gram, hay.as_bytes(), &mut |id, start| {
                    found.push((id, start))
                });
                assert_eq!(rest, Some(hay.len() - 4), "{} entries", gram.entries.len());
                for path in paths() {
                    let mut all = Vec::new();
                    set.for_each_on(path, hay.as_bytes(), |id, start| all.push((id, start)));
                    all.sort();
                    assert_eq!(all, expected, "{count} literals, tuned: {tuned}, {path:?}");
                }
            }
        }
        assert_eq!(sizes, (12..=22).collect(), "table sizes made");
        assert_eq!(pair_sizes, (8..=14).collect(), "SIMD table sizes made");
    }

    /// The paths this machine can run, the scalar one first.
    fn paths() -> Vec<Path> {
        Path::ALL.into_iter().filter(|p| p.available()).collect()
    }

    /// Every occurrence `path` reports, in its order.
    fn reported(set: &LiteralSet, path: Path, hay: &[u8]) -> Vec<(u32, usize)> {
        let mut out = Vec::new();
        set.for_each_on(path, hay, |id, start| out.push((id, start)));
        out
    }

    /// A set of the literals, tuned or not.
    fn built(lits: &[(Vec<u8>, bool)], tuned: bool) -> LiteralSet {
        let mut b = LiteralSetBuilder::default();
        for (l, ci) in lits {
            b.add(l, *ci);
        }
        if tuned {
            b.tune();
        }
        b.build()
    }

    /// Bytes from a small alphabet in both cases, with a few non-ASCII and
    /// control bytes, so that random literals occur in random text.
    fn text_byte() -> impl Strategy<Value = u8> {
        prop_oneof![
            8 => proptest::sample::select(b"abcABC_- 0~q".to_vec()),
            1 => any::<u8>(),
        ]
    }

    proptest! {
        // Under Miri (the scalar path, interpreted) a few cases suffice.
        #![proptest_config(ProptestConfig {
            cases: if cfg!(miri) { 6 } else { 400 },
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Every SIMD path this machine has reports exactly what the scalar
        /// path reports, in the same order, and that is what a naive search
        /// finds: on random literal sets and texts of every length up to
        /// past four 32-byte vectors, each ending its own allocation.
        #[test]
        fn every_path_reports_what_the_scalar_path_reports(
            lits in proptest::collection::vec(
                (proptest::collection::vec(text_byte(), 1..10), any::<bool>()),
                1..40,
            ),
            hay in proptest::collection::vec(text_byte(), 0..140),
            tuned in any::<bool>(),
        ) {
            let set = built(&lits, tuned);
            // A copy whose allocation ends where the text does: a read past
            // the end leaves the allocation (what the fuzz target's address
            // sanitizer catches).
            let mut exact = Vec::with_capacity(hay.len());
            exact.extend_from_slice(&hay);
            let scalar = reported(&set, Path::Scalar, &exact);
            let mut sorted = scalar.clone();
            sorted.sort();
            prop_assert_eq!(&sorted, &naive_bytes(&lits, &exact));
            for path in paths() {
                prop_assert_eq!(&reported(&set, path, &exact), &scalar, "{:?}", path);
            }
        }
    }

    /// [`naive`] for literals and text as bytes.
    fn naive_bytes(lits: &[(Vec<u8>, bool)], hay: &[u8]) -> Vec<(u32, usize)> {
        let mut out = Vec::new();
        for (id, (l, ci)) in lits.iter().enumerate() {
            for start in 0..hay.len() {
                let Some(w) = hay.get(start..start + l.len()) else {
                    continue;
                };
                if if *ci {
                    w.eq_ignore_ascii_case(l)
                } else {
                    w == l.as_slice()
                } {
                    out.push((id as u32, start));
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn every_path_agrees_at_each_length_around_the_vector_widths() {
        // A literal at every position of texts 0 to 100 bytes long, in a
        // table of every size: a window missed or reported twice at a step's
        // edge or in the tail shows here.
        let mut rng = crate::tools::globs::Rng(0x9e37_79b9_7f4a_7c15);
        let (counts, longest): (&[usize], usize) = if cfg!(miri) {
            (&[1, 40], 40)
        } else {
            (&[1, 200, 3_000, 20_000], 100)
        };
        for &count in counts {
            let lits: Vec<(Vec<u8>, bool)> = (0..count)
                .map(|i| (format!("{i:x}kq~").into_bytes(), i % 2 == 0))
                .chain([(b"aBc".to_vec(), true), (b"q~".to_vec(), true)])
                .collect();
            let set = built(&lits, false);
            for len in 0..=longest {
                for at in 0..len {
                    let mut hay: Vec<u8> = (0..len).map(|_| b"z Q"[rng.below(3)]).collect();
                    let word = &lits[rng.below(lits.len())].0;
                    for (i, b) in word.iter().enumerate() {
                        if let Some(slot) = hay.get_mut(at + i) {
                            *slot = *b;
                        }
                    }
                    let scalar = reported(&set, Path::Scalar, &hay);
                    for path in paths() {
                        assert_eq!(
                            reported(&set, path, &hay),
                            scalar,
                            "{count} literals, {len} bytes, {path:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_path_agrees_across_its_blocks_of_steps() {
        // A SIMD path looks at up to 64 pairs of steps at a time (1,024
        // bytes with AVX2, 2,048 with AVX-512) before it reports what
        // passed: literals on both sides of each block's edge, in texts
        // that end around an edge, are each reported once and in order.
        let mut rng = crate::tools::globs::Rng(0x2545_f491_4f6c_dd1d);
        let lits: Vec<(Vec<u8>, bool)> = (0..300)
            .map(|i| (format!("{i:x}kq~").into_bytes(), i % 2 == 0))
            .chain([(b"aBc".to_vec(), true), (b"zzzz".to_vec(), false)])
            .collect();
        let set = built(&lits, false);
        let edges: &[usize] = if cfg!(miri) {
            &[1024]
        } else {
            &[1024, 2048, 3072, 4096]
        };
        for &edge in edges {
            for len in [edge - 30, edge - 1, edge, edge + 1, edge + 23, edge + 49] {
                for near in edge.saturating_sub(20)..(edge + 20).min(len) {
                    let mut hay: Vec<u8> = (0..len).map(|_| b"z Q"[rng.below(3)]).collect();
                    for at in [near, rng.below(len), rng.below(len)] {
                        let word = &lits[rng.below(lits.len())].0;
                        for (i, b) in word.iter().enumerate() {
                            if let Some(slot) = hay.get_mut(at + i) {
                                *slot = *b;
                            }
                        }
                    }
                    let scalar = reported(&set, Path::Scalar, &hay);
                    let mut sorted = scalar.clone();
                    sorted.sort();
                    assert_eq!(sorted, naive_bytes(&lits, &hay), "{len} bytes");
                    for path in paths() {
                        assert_eq!(
                            reported(&set, path, &hay),
                            scalar,
                            "{len} bytes, a literal at {near}, {path:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_scan_setting_names_a_path_or_is_refused() {
        // `auto` is the widest path this CPU can run (AVX-512 before AVX2
        // before the scalar loop), but AVX2 before AVX-512 on CPUs other
        // than Intel's.
        let widest = Path::ALL.into_iter().rev().find(|p| p.available());
        let expected = match widest {
            Some(Path::Avx512) if !simd::intel() => Path::Avx2,
            widest => widest.unwrap_or(Path::Scalar),
        };
        assert_eq!(Path::best(), expected);
        assert_eq!(Path::from_setting(None), Ok(Path::best()));
        assert_eq!(Path::from_setting(Some("auto")), Ok(Path::best()));
        assert_eq!(Path::from_setting(Some("scalar")), Ok(Path::Scalar));
        assert_eq!(
            Path::from_setting(Some("sse9")),
            Err("PALISADE_SCAN is `sse9`: expected `auto`, `scalar`, `avx2` or `avx512`".into())
        );
        for path in Path::ALL {
            let chosen = Path::from_setting(Some(path.name()));
            if path.available() {
                assert_eq!(chosen, Ok(path));
            } else {
                assert!(chosen.is_err_and(|e| e.contains("this CPU does not have")));
            }
        }
    }

    /// The folded key of a four-byte window.
    fn key(w: &[u8; 4]) -> u32 {
        u32::from_le_bytes(*w) | FOLD32
    }

    /// For each target window, a four-byte literal of rare letters and
    /// digits, other than the target, whose folded window `same` says
    /// lands where the target does.
    fn colliding(targets: &[u32], seed: u64, same: impl Fn(u32, u32) -> bool) -> Vec<Vec<u8>> {
        let mut rng = crate::tools::globs::Rng(seed);
        let letters = b"bcdfgjkmpqvwxz0123456789";
        let mut lits = Vec::new();
        for &target in targets {
            loop {
                let w: [u8; 4] = std::array::from_fn(|_| letters[rng.below(letters.len())]);
                let k = key(&w);
                if same(k, target) && k != target {
                    lits.push(w.to_vec());
                    break;
                }
            }
        }
        lits
    }

    #[test]
    fn a_tuned_table_keeps_the_commonest_windows_off_its_bits() {
        // Literals whose windows land, under the first multiplier, on the
        // bits of ` the` and `tion` in a table of 2^12 bits.
        let bits = 12;
        let targets = [key(b" the"), key(b"tion")];
        let lits = colliding(&targets, 0x1234_5678_9abc_def1, |k, target| {
            hash(k, bits) == hash(target, bits)
        });
        let build = |tuned: bool| {
            let mut b = LiteralSetBuilder::default();
            for l in &lits {
                b.add(l, true);
            }
            if tuned {
                b.tune_for(Path::Scalar);
            }
            b.build()
        };
        let (plain, tuned) = (build(false), build(true));
        let (plain, tuned) = (plain.gram.unwrap(), tuned.gram.unwrap());
        assert_eq!((plain.bits, tuned.bits), (bits, bits));
        assert_eq!((plain.which, plain.multiplier), (0, GOLDEN));
        for target in targets {
            assert!(plain.maybe(target), "the untuned table passes {target:08x}");
            assert!(!tuned.maybe(target), "the tuned table passes {target:08x}");
        }
        assert_ne!(tuned.which, 0);
        assert_eq!(tuned.multiplier, MULTIPLIERS[tuned.which]);
        // Both find the literals, of course.
        let hay = format!(
            "in the station {} and {}",
            String::from_utf8_lossy(&lits[0]),
            String::from_utf8_lossy(&lits[1]).to_uppercase()
        );
        for set in [build(false), build(true)] {
            let mut found = Vec::new();
            set.for_each(hay.as_bytes(), |id, start| found.push((id, start)));
            found.sort();
            assert_eq!(found, vec![(0, 15), (1, 24)], "{hay}");
        }
    }

    #[test]
    fn each_path_s_first_table_is_tuned_for_itself() {
        // The multiplier a tuned set takes passes the fewest common windows
        // (by weight) in the first table of the path it was tuned for: the
        // scalar loop's bits or the SIMD paths' bit pairs, which the hash
        // fills differently, so that the two choices differ.
        let mut rng = crate::tools::globs::Rng(0x7e57_ab1e_0dd5_eed5);
        let letters = b"abcdefghiklmnoprstuy ";
        let lits: Vec<Vec<u8>> = (0..600)
            .map(|_| (0..6).map(|_| letters[rng.below(letters.len())]).collect())
            .collect();
        let mut chosen = Vec::new();
        for path in [Path::Scalar, Path::Avx2, Path::Avx512] {
            let mut b = LiteralSetBuilder::default();
            for l in &lits {
                b.add(l, true);
            }
            b.tune_for(path);
            let gram = b.build().gram.unwrap();
            let mut keys: Vec<u32> = gram.entries.iter().map(|e| e.key).collect();
            keys.sort_unstable();
            keys.dedup();
            let passed = |which: usize| -> u64 {
                let multiplier = multiplier_at(which);
                let mut table = FirstTables::new(path, gram.bits, gram.entries.len());
                for &k in &keys {
                    table.set(k, multiplier);
                }
                COMMON_WINDOWS
                    .iter()
                    .filter(|(w, _)| keys.binary_search(w).is_err())
                    .filter(|&&(w, _)| table.passes(w, multiplier))
                    .map(|&(_, count)| u64::from(count))
                    .sum()
            };
            let best = (0..MULTIPLIERS.len()).min_by_key(|&w| passed(w)).unwrap();
            assert_eq!(gram.which, best, "{path:?}");
            chosen.push(gram.which);
        }
        assert_ne!(chosen[0], chosen[1], "the bit and pair tables chose alike");
        assert_eq!(chosen[1], chosen[2], "both SIMD paths read one table");
    }

    #[test]
    fn every_multiplier_has_its_loop() {
        let mut b = LiteralSetBuilder::default();
        for w in ["alpha", "bravo", "charlie"] {
            b.add(w.as_bytes(), true);
        }
        let mut set = b.build();
        let hay = b"one charlie, two ALPHA, three bravo.";
        for which in 0..MULTIPLIERS.len() {
            let mut gram = set.gram.take().expect("long literals");
            let entries = gram.entries.clone();
            // The tables of the same entries under this multiplier.
            gram = GramFilter::with_multiplier(entries, which);
            let mut found = Vec::new();
            let rest = set.scan_eights(&gram, hay, &mut |id, start| found.push((id, start)));
            assert_eq!(rest, Some(hay.len() - 4), "multiplier {which}");
            set.gram = Some(gram);
            let mut all = Vec::new();
            set.for_each(hay, |id, start| all.push((id, start)));
            all.sort();
            assert_eq!(all, vec![(0, 17), (1, 30), (2, 4)], "multiplier {which}");
        }
    }

    #[test]
    fn the_multipliers_are_odd_and_distinct() {
        assert_eq!(MULTIPLIERS[0], GOLDEN);
        for (i, m) in MULTIPLIERS.iter().enumerate() {
            assert_eq!(m & 1, 1, "{m:08x}");
            assert!(!MULTIPLIERS[..i].contains(m), "{m:08x} twice");
        }
        // The table of common windows is folded and most common first.
        assert!(COMMON_WINDOWS.windows(2).all(|w| w[0].1 >= w[1].1));
        assert!(COMMON_WINDOWS.iter().all(|&(w, _)| w | FOLD32 == w));
    }

    fn i_even(w: &str) -> bool {
        w.len().is_multiple_of(2)
    }
}
