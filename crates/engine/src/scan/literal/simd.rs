//! The literal filter's first look with SIMD instructions: the engine's one
//! module with `unsafe` code.
//!
//! The scalar loop of [`super`] hashes every four-byte window of a string
//! and reads the window's bit in the filter's first table, one window at a
//! time. Here eight windows are built, folded, hashed and looked up at once
//! in a table of its own, with two bits per window in one 32-bit word
//! (smaller, and passing fewer windows by chance): a byte shuffle makes the
//! eight windows of an eight-byte step, one multiplication and shifts their
//! words and bits, and one gather reads their eight words (AVX2). With
//! AVX-512 (its F, BW and VBMI parts) a step is sixteen windows: one byte
//! permutation makes them from 32 bytes, one gather reads their sixteen
//! words. A string's last windows, fewer than a step takes, are looked at
//! from a copy of their bytes padded with zeros. Which windows passed
//! comes out as a bit mask per step, kept for up to 64 pairs of
//! steps before any is looked at, so that the loop never branches on what
//! it found; the second look (the second table, then the entries) is the
//! scalar code's, so every path reports the same occurrences in the same
//! order. The scalar loop stays the reference, the fallback on machines
//! without AVX2, and the path `PALISADE_SCAN=scalar` forces.
//!
//! The search for base64 runs in tool outputs
//! (`crate::detect::encoded`) takes its blocks here too: with AVX2, two
//! 16-byte blocks are classified at once by byte shuffles of their
//! nibbles ([`base64_block`]); its byte-wise loop is the reference.
//!
//! Every `unsafe` block says why it is sound (`// SAFETY:`). The loads
//! read only inside the string (each reads 16 or 32 bytes from a position
//! at least that many bytes before its end) and the gathers only inside the
//! table (each index is the top `bits` bits of a hash, into a table of
//! `2^bits` words). The differential tests in `super::tests` compare
//! every path this machine has with the scalar one on random literal sets
//! and texts, at lengths around the vector widths and at the end of the
//! string's allocation.

use std::sync::OnceLock;

/// The code that takes the filter's first look at a string's windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Path {
    /// One window at a time, in portable Rust: the reference.
    Scalar,
    /// Eight windows at a time with AVX2 (x86-64).
    Avx2,
    /// Sixteen windows at a time with AVX-512 (x86-64 CPUs with its byte
    /// permutation, `AVX512_VBMI`: Ice Lake and later, Zen 4 and later).
    Avx512,
}

/// The environment variable that chooses the path: `auto` (or unset) for
/// the fastest this CPU has, `scalar`, `avx2` or `avx512`.
pub(crate) const ENV: &str = "PALISADE_SCAN";

impl Path {
    /// The paths, by name.
    pub(crate) const ALL: [Path; 3] = [Path::Scalar, Path::Avx2, Path::Avx512];

    /// The path's name, as `PALISADE_SCAN` takes it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Path::Scalar => "scalar",
            Path::Avx2 => "avx2",
            Path::Avx512 => "avx512",
        }
    }

    /// Whether this CPU can run the path.
    pub(crate) fn available(self) -> bool {
        match self {
            Path::Scalar => true,
            #[cfg(target_arch = "x86_64")]
            Path::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Path::Avx512 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("avx512f")
                    && std::arch::is_x86_feature_detected!("avx512bw")
                    && std::arch::is_x86_feature_detected!("avx512vbmi")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Path::Avx2 | Path::Avx512 => false,
        }
    }

    /// The fastest path this CPU has: AVX-512 on Intel's CPUs that have
    /// it, AVX2 on the others that have that, else the scalar loop. The
    /// AVX-512 path's one gather of sixteen words made a pass 8% shorter
    /// than AVX2's two gathers of eight on an Intel Xeon, and 2% to 5%
    /// longer on an AMD EPYC (Zen 5), where a gather costs about the same
    /// per word at either width (docs/PERFORMANCE.md); other vendors' CPUs
    /// were not measured and take AVX2 too.
    pub(crate) fn best() -> Path {
        let wide = if intel() {
            &[Path::Avx512, Path::Avx2][..]
        } else {
            &[Path::Avx2][..]
        };
        wide.iter()
            .copied()
            .find(|p| p.available())
            .unwrap_or(Path::Scalar)
    }

    /// The path a value of `PALISADE_SCAN` asks for (`None`: unset).
    pub(crate) fn from_setting(value: Option<&str>) -> Result<Path, String> {
        let Some(value) = value else {
            return Ok(Path::best());
        };
        match value.trim() {
            "" | "auto" => Ok(Path::best()),
            name => match Path::ALL.into_iter().find(|p| p.name() == name) {
                Some(path) if path.available() => Ok(path),
                Some(path) => Err(format!(
                    "{ENV} is `{name}`, but this CPU does not have {}: use `auto` or `scalar`",
                    path.needs()
                )),
                None => Err(format!(
                    "{ENV} is `{name}`: expected `auto`, `scalar`, `avx2` or `avx512`"
                )),
            },
        }
    }

    /// The CPU features the path needs, as an error names them.
    fn needs(self) -> &'static str {
        match self {
            Path::Scalar => "nothing",
            Path::Avx2 => "AVX2",
            Path::Avx512 => "AVX-512 (F, BW and VBMI)",
        }
    }

    /// The path of this process, chosen once from `PALISADE_SCAN` and the
    /// CPU. A value that names no path, or one this CPU cannot run, gives
    /// the scalar path (the CLI refuses to start with it, see
    /// [`crate::scan_path`]).
    pub(crate) fn chosen() -> Path {
        static CHOSEN: OnceLock<Path> = OnceLock::new();
        *CHOSEN.get_or_init(|| {
            let value = std::env::var(ENV).ok();
            Path::from_setting(value.as_deref()).unwrap_or(Path::Scalar)
        })
    }
}

/// Whether the CPU is Intel's (`GenuineIntel`).
#[cfg(target_arch = "x86_64")]
pub(crate) fn intel() -> bool {
    // SAFETY: every x86-64 CPU has the `cpuid` instruction and its leaf 0
    // (the vendor); toolchains before 1.94 declare the intrinsic `unsafe`.
    #[allow(unused_unsafe, reason = "a safe function from Rust 1.94 on")]
    let id = unsafe { std::arch::x86_64::__cpuid(0) };
    [id.ebx, id.edx, id.ecx] == [*b"Genu", *b"ineI", *b"ntel"].map(u32::from_le_bytes)
}

/// Whether the CPU is Intel's: no other target has the SIMD paths.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn intel() -> bool {
    false
}

/// The first table of a filter, as the first look reads it.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(
    not(target_arch = "x86_64"),
    allow(
        dead_code,
        reason = "the hash's fields are read by the x86-64 paths only"
    )
)]
pub(crate) struct FirstTable<'a> {
    /// `2^bits` words of 32 bits.
    pub(crate) words: &'a [u32],
    /// The table's size in words, as a power of two (8 to 16).
    pub(crate) bits: u32,
    /// The hash's multiplier: the top `bits` bits of the folded window
    /// times it choose the window's word, the next five bits and the five
    /// after them its two bits in the word. A window passes when both are
    /// set.
    pub(crate) multiplier: u32,
    /// Or-ed into every window before it is hashed (ASCII case folding).
    pub(crate) fold: u32,
}

/// Calls `passed(pos)`, in order, for each window of `hay` from 0 whose bit
/// is set in `table`, for as many windows as `path` takes in whole steps;
/// returns the position of the first window it did not look at (0 for the
/// scalar path, which takes none: the caller's loop does).
pub(crate) fn first_look(
    path: Path,
    table: FirstTable<'_>,
    hay: &[u8],
    passed: &mut impl FnMut(usize),
) -> usize {
    let sized = (8..=16).contains(&table.bits) && table.words.len() == 1usize << table.bits;
    if !sized {
        return 0;
    }
    match path {
        Path::Scalar => 0,
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 if Path::Avx2.available() => {
            // SAFETY: the CPU has AVX2 (checked just above), the only
            // requirement `avx2` adds to the safe contract of its
            // arguments; `table` was checked to hold `2^bits` words, with
            // `bits` at most 16.
            unsafe { avx2::first_look(table, hay, passed) }
        }
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 if Path::Avx512.available() => {
            // SAFETY: the CPU has AVX2 and AVX-512 F, BW and VBMI (checked
            // just above), the only requirements `avx512` adds to the safe
            // contract of its arguments; `table` was checked to hold
            // `2^bits` words, with `bits` at most 16.
            unsafe { avx512::first_look(table, hay, passed) }
        }
        Path::Avx2 | Path::Avx512 => {
            // No such path on this CPU or target: the caller's loop takes
            // them all.
            let _ = (hay, passed);
            0
        }
    }
}

/// The first block of 16 base64 (or base64url) characters in `hay` at
/// `from` or a multiple of `stride` bytes after it, with 16 more just
/// before it or just after it, looked for by `path`
/// (`crate::detect::encoded`'s search for runs to decode): `None` when
/// `path` is the scalar one or this CPU cannot run it, and the caller's
/// loop, the reference, looks. With AVX2, two blocks are classified at
/// once by two byte shuffles of their nibbles, against the scalar test's
/// comparisons of each byte with five ranges.
pub(crate) fn base64_block(
    path: Path,
    hay: &[u8],
    from: usize,
    stride: usize,
) -> Option<Option<usize>> {
    match path {
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 | Path::Avx512 if Path::Avx2.available() && stride >= 16 => {
            // SAFETY: the CPU has AVX2 (checked just above), the only
            // requirement `avx2` adds to the safe contract of its
            // arguments.
            Some(unsafe { avx2::base64_block(hay, from, stride) })
        }
        _ => {
            let _ = (hay, from, stride);
            None
        }
    }
}

/// The steps of a SIMD first look over `hay`. `look` gives the bit mask
/// of the `STEP` windows that start in the first `STEP` bytes of a chunk
/// of `BYTES` (their bytes and the next ones), the first window in bit 0.
/// `pairs(at, masks)` takes two steps at a time from `at`, up to
/// [`PAIRS`] pairs while `PAIR` (`STEP + BYTES`) bytes are left
/// ([`pairs_from`]); then each window that passed in them goes to
/// `passed`, in order. The last steps are taken one at a time while
/// `BYTES` bytes are left, and the windows after them from a copy of their
/// bytes. Returns where the windows stopped: `hay.len() - 3` when `hay`
/// holds a window (four bytes), else 0.
///
/// The pairs are looked at in a function of their own, with no branch on
/// what they found: a window that passed is rare (one in a few hundred),
/// and a branch taken on it would be mispredicted and throw away the
/// gathers of the next steps, already under way. That cost 10 to 40 ns a
/// window that passed (docs/PERFORMANCE.md).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn steps<const STEP: usize, const BYTES: usize, const PAIR: usize>(
    hay: &[u8],
    pairs: impl Fn(usize, &mut [u32; PAIRS]) -> (usize, u64),
    look: impl Fn(&[u8; BYTES]) -> u32,
    passed: &mut impl FnMut(usize),
) -> usize {
    let mut report = |mut mask: u32, at: usize| {
        while mask != 0 {
            passed(at + mask.trailing_zeros() as usize);
            mask &= mask - 1;
        }
    };
    let mut masks = [0u32; PAIRS];
    let mut at = 0;
    loop {
        let (next, mut which) = pairs(at, &mut masks);
        while which != 0 {
            let i = which.trailing_zeros() as usize;
            report(masks.get(i).copied().unwrap_or_default(), at + 2 * STEP * i);
            which &= which - 1;
        }
        if next == at {
            break;
        }
        at = next;
    }
    while let Some(chunk) = hay.get(at..).and_then(<[u8]>::first_chunk::<BYTES>) {
        report(look(chunk), at);
        at += STEP;
    }
    // The windows left (fewer than `BYTES - 3`): their bytes in a chunk
    // padded with zeros, and only the windows that lie whole in `hay`
    // reported. The scalar loop would read its own, larger table for
    // them, a miss of the first-level cache each at the end of every
    // string.
    let left = hay.get(at..).unwrap_or_default();
    let mut padded = [0u8; PAIR];
    if left.len() >= 4
        && let Some(copy) = padded.get_mut(..left.len())
    {
        copy.copy_from_slice(left);
        let windows = left.len() - 3;
        if let (Some(first), Some(second)) = (padded.first_chunk(), padded.last_chunk()) {
            let mask = look(first) | look(second) << STEP;
            report(mask & ((1 << windows) - 1), at);
            at += windows;
        }
    }
    at
}

/// The most pairs of steps [`pairs_from`] takes at a time.
#[cfg(target_arch = "x86_64")]
const PAIRS: usize = 64;

/// Up to [`PAIRS`] pairs of steps of [`steps`] from `at`, while `PAIR`
/// bytes are left: pair `i`'s bit mask of its `2 * STEP` windows goes to
/// `masks[i]`, and bit `i` of the second value returned is set when it is
/// not 0. The first value is where the pairs stopped (`at` when no pair
/// was taken).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn pairs_from<const STEP: usize, const BYTES: usize, const PAIR: usize>(
    hay: &[u8],
    mut at: usize,
    masks: &mut [u32; PAIRS],
    look: impl Fn(&[u8; BYTES]) -> u32,
) -> (usize, u64) {
    let mut which = 0u64;
    for (i, slot) in masks.iter_mut().enumerate() {
        let Some(both) = hay.get(at..).and_then(<[u8]>::first_chunk::<PAIR>) else {
            break;
        };
        let (Some(first), Some(second)) = (both.first_chunk::<BYTES>(), both.last_chunk::<BYTES>())
        else {
            break;
        };
        let mask = look(first) | look(second) << STEP;
        *slot = mask;
        which |= u64::from(mask != 0) << i;
        at += 2 * STEP;
    }
    (at, which)
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::FirstTable;
    use std::arch::x86_64::{
        __m128i, __m256i, _mm_cvtsi32_si128, _mm_loadu_si128, _mm256_and_si256,
        _mm256_broadcastsi128_si256, _mm256_castsi256_ps, _mm256_cmpeq_epi8, _mm256_cmpeq_epi32,
        _mm256_i32gather_epi32, _mm256_loadu2_m128i, _mm256_movemask_epi8, _mm256_movemask_ps,
        _mm256_mullo_epi32, _mm256_or_si256, _mm256_set1_epi8, _mm256_set1_epi32, _mm256_setr_epi8,
        _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_sllv_epi32, _mm256_srl_epi32,
        _mm256_srli_epi16,
    };

    /// [`super::first_look`] with AVX2: eight windows a step, while the
    /// step's 16 bytes (its windows' and the next three) are in `hay`,
    /// then the windows left from a padded copy.
    ///
    /// # Safety
    /// The CPU must have AVX2, and `table.words` must hold `2^table.bits`
    /// words with `table.bits` at most 16.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn first_look(
        table: FirstTable<'_>,
        hay: &[u8],
        passed: &mut impl FnMut(usize),
    ) -> usize {
        // SAFETY: this function's contract is `eight`'s.
        let look = unsafe { eight(table) };
        let pairs = |at, masks: &mut _| pairs(hay, at, masks, look);
        super::steps::<8, 16, 24>(hay, pairs, look, passed)
    }

    /// [`super::base64_block`] with AVX2: two blocks (`stride` bytes
    /// apart) in one register, two registers a step, each byte's class
    /// the `and` of two tables, one by its high nibble and one by its low:
    /// not zero for `+`, `-`, `/`, digits, letters and `_`.
    ///
    /// The classes, as bits: `+ - /` (high nibble 2: low nibbles B, D,
    /// F), digits (3: 0 to 9), `A`-`O` and `a`-`o` (4 and 6: 1 to F),
    /// `P`-`Z` and `p`-`z` (5 and 7: 0 to A), `_` (5: F). High nibbles 0,
    /// 1 and 8 to F (all bytes beyond ASCII) have none.
    #[target_feature(enable = "avx2")]
    pub(super) fn base64_block(hay: &[u8], mut pos: usize, stride: usize) -> Option<usize> {
        const HIGH: [i8; 16] = [0, 0, 1, 2, 4, 24, 4, 16, 0, 0, 0, 0, 0, 0, 0, 0];
        const LOW: [i8; 16] = [18, 22, 22, 22, 22, 22, 22, 22, 22, 22, 20, 5, 4, 5, 4, 13];
        let table = |t: [i8; 16]| {
            _mm256_setr_epi8(
                t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12],
                t[13], t[14], t[15], t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9],
                t[10], t[11], t[12], t[13], t[14], t[15],
            )
        };
        let (high, low) = (table(HIGH), table(LOW));
        let nibble = _mm256_set1_epi8(0x0F);
        // A bit for each byte that is not a base64 character.
        let others = |bytes: __m256i| -> u32 {
            let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(bytes), nibble);
            let lo = _mm256_and_si256(bytes, nibble);
            let class =
                _mm256_and_si256(_mm256_shuffle_epi8(high, hi), _mm256_shuffle_epi8(low, lo));
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(class, _mm256_setzero_si256())) as u32
        };
        // Whether the 16 bytes at `at` are in `hay` and base64.
        let block = |at: usize| {
            hay.get(at..)
                .and_then(<[u8]>::first_chunk::<16>)
                .is_some_and(|bytes| {
                    // SAFETY: the load reads the 16 bytes of `bytes`.
                    let one = unsafe { _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>()) };
                    others(_mm256_broadcastsi128_si256(one)) == 0
                })
        };
        // A block of base64 next to 16 more (see the caller's loop).
        let found = |at: usize| at.checked_sub(16).is_some_and(block) || block(at + 16);
        while let Some(first) = hay.get(pos..).and_then(<[u8]>::first_chunk::<16>) {
            let Some(second) = hay.get(pos + stride..).and_then(<[u8]>::first_chunk::<16>) else {
                return (block(pos) && found(pos)).then_some(pos);
            };
            // SAFETY: the loads read the 16 bytes of `second` (the high
            // half) and of `first` (the low half), in any alignment.
            let both = unsafe {
                _mm256_loadu2_m128i(
                    second.as_ptr().cast::<__m128i>(),
                    first.as_ptr().cast::<__m128i>(),
                )
            };
            let others = others(both);
            // One branch, taken rarely, for both blocks.
            if (others & 0xFFFF == 0) | (others >> 16 == 0) {
                if others & 0xFFFF == 0 && found(pos) {
                    return Some(pos);
                }
                if others >> 16 == 0 && found(pos + stride) {
                    return Some(pos + stride);
                }
            }
            pos += 2 * stride;
        }
        None
    }

    /// [`super::pairs_from`] with the steps of `look` ([`eight`]'s).
    #[target_feature(enable = "avx2")]
    #[inline(never)]
    fn pairs(
        hay: &[u8],
        at: usize,
        masks: &mut [u32; super::PAIRS],
        look: impl Fn(&[u8; 16]) -> u32,
    ) -> (usize, u64) {
        super::pairs_from::<8, 16, 24>(hay, at, masks, look)
    }

    /// The look of one step: the bits of the eight windows that start in
    /// the first half of a 16-byte chunk, as a bit mask, the first window in
    /// bit 0.
    ///
    /// # Safety
    /// As [`first_look`]: the closure reads `table.words` at the indexes
    /// that contract bounds.
    #[target_feature(enable = "avx2")]
    #[inline]
    unsafe fn eight(table: FirstTable<'_>) -> impl Fn(&[u8; 16]) -> u32 + Copy {
        // Lane 0 makes the windows at 0..4 of the step's 16 bytes, lane 1
        // those at 4..8: each lane holds all 16 bytes.
        let windows = _mm256_setr_epi8(
            0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6, //
            4, 5, 6, 7, 5, 6, 7, 8, 6, 7, 8, 9, 7, 8, 9, 10,
        );
        let fold = _mm256_set1_epi32(table.fold as i32);
        let multiplier = _mm256_set1_epi32(table.multiplier as i32);
        let to_word = _mm_cvtsi32_si128((32 - table.bits) as i32);
        let to_first = _mm_cvtsi32_si128((27 - table.bits) as i32);
        let to_second = _mm_cvtsi32_si128((22 - table.bits) as i32);
        let low_five = _mm256_set1_epi32(31);
        let one = _mm256_set1_epi32(1);
        let words = table.words.as_ptr().cast::<i32>();
        move |chunk: &[u8; 16]| -> u32 {
            // SAFETY: the load reads the 16 bytes of `chunk`, in any
            // alignment.
            let bytes = unsafe { _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>()) };
            let keys = _mm256_or_si256(
                _mm256_shuffle_epi8(_mm256_broadcastsi128_si256(bytes), windows),
                fold,
            );
            let hashes = _mm256_mullo_epi32(keys, multiplier);
            let word_at = _mm256_srl_epi32(hashes, to_word);
            // SAFETY: each word index is the top `bits` bits of a 32-bit
            // product, so it is below `2^bits`, the number of words in
            // `table.words`, and at most 2^16: no index is negative as an
            // `i32`. The gather reads four bytes at each index times 4,
            // inside the table.
            let found = unsafe { _mm256_i32gather_epi32::<4>(words, word_at) };
            let first = _mm256_and_si256(_mm256_srl_epi32(hashes, to_first), low_five);
            let second = _mm256_and_si256(_mm256_srl_epi32(hashes, to_second), low_five);
            let wanted = _mm256_or_si256(
                _mm256_sllv_epi32(one, first),
                _mm256_sllv_epi32(one, second),
            );
            // All ones in a lane whose word has both bits.
            let signs = _mm256_cmpeq_epi32(_mm256_and_si256(found, wanted), wanted);
            _mm256_movemask_ps(_mm256_castsi256_ps(signs)) as u32
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use super::FirstTable;
    use std::arch::x86_64::{
        __m256i, _mm_cvtsi32_si128, _mm256_loadu_si256, _mm512_and_si512, _mm512_cmpeq_epi32_mask,
        _mm512_i32gather_epi32, _mm512_mullo_epi32, _mm512_or_si512, _mm512_permutexvar_epi8,
        _mm512_set1_epi32, _mm512_setr_epi32, _mm512_sllv_epi32, _mm512_srl_epi32,
        _mm512_zextsi256_si512,
    };

    /// [`super::first_look`] with AVX-512: sixteen windows a step, while
    /// the step's 32 bytes are in `hay` (its windows need 19), then the
    /// windows left from a padded copy.
    ///
    /// # Safety
    /// The CPU must have AVX2 and AVX-512 F, BW and VBMI, and
    /// `table.words` must hold `2^table.bits` words with `table.bits` at
    /// most 16.
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    pub(super) unsafe fn first_look(
        table: FirstTable<'_>,
        hay: &[u8],
        passed: &mut impl FnMut(usize),
    ) -> usize {
        // SAFETY: this function's contract is `sixteen`'s.
        let look = unsafe { sixteen(table) };
        let pairs = |at, masks: &mut _| pairs(hay, at, masks, look);
        super::steps::<16, 32, 48>(hay, pairs, look, passed)
    }

    /// [`super::pairs_from`] with the steps of `look` ([`sixteen`]'s).
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    #[inline(never)]
    fn pairs(
        hay: &[u8],
        at: usize,
        masks: &mut [u32; super::PAIRS],
        look: impl Fn(&[u8; 32]) -> u32,
    ) -> (usize, u64) {
        super::pairs_from::<16, 32, 48>(hay, at, masks, look)
    }

    /// The look of one step: the bits of the sixteen windows that start
    /// in the first half of a 32-byte chunk, as a bit mask, the first
    /// window in bit 0.
    ///
    /// # Safety
    /// As [`first_look`]: the closure reads `table.words` at the indexes
    /// that contract bounds.
    #[target_feature(enable = "avx2,avx512f,avx512bw,avx512vbmi")]
    #[inline]
    unsafe fn sixteen(table: FirstTable<'_>) -> impl Fn(&[u8; 32]) -> u32 + Copy {
        // Lane `i` takes the step's bytes `i` to `i + 3`: the window at `i`.
        let windows = _mm512_setr_epi32(
            0x0302_0100,
            0x0403_0201,
            0x0504_0302,
            0x0605_0403,
            0x0706_0504,
            0x0807_0605,
            0x0908_0706,
            0x0a09_0807,
            0x0b0a_0908,
            0x0c0b_0a09,
            0x0d0c_0b0a,
            0x0e0d_0c0b,
            0x0f0e_0d0c,
            0x100f_0e0d,
            0x1110_0f0e,
            0x1211_100f,
        );
        let fold = _mm512_set1_epi32(table.fold as i32);
        let multiplier = _mm512_set1_epi32(table.multiplier as i32);
        let to_word = _mm_cvtsi32_si128((32 - table.bits) as i32);
        let to_first = _mm_cvtsi32_si128((27 - table.bits) as i32);
        let to_second = _mm_cvtsi32_si128((22 - table.bits) as i32);
        let low_five = _mm512_set1_epi32(31);
        let one = _mm512_set1_epi32(1);
        let words = table.words.as_ptr().cast::<i32>();
        move |chunk: &[u8; 32]| -> u32 {
            // SAFETY: the load reads the 32 bytes of `chunk`, in any
            // alignment.
            let bytes = unsafe { _mm256_loadu_si256(chunk.as_ptr().cast::<__m256i>()) };
            let keys = _mm512_or_si512(
                _mm512_permutexvar_epi8(windows, _mm512_zextsi256_si512(bytes)),
                fold,
            );
            let hashes = _mm512_mullo_epi32(keys, multiplier);
            let word_at = _mm512_srl_epi32(hashes, to_word);
            // SAFETY: each word index is the top `bits` bits of a 32-bit
            // product, so it is below `2^bits`, the number of words in
            // `table.words`, and at most 2^16: no index is negative as an
            // `i32`. The gather reads four bytes at each index times 4,
            // inside the table.
            let found = unsafe { _mm512_i32gather_epi32::<4>(word_at, words) };
            let first = _mm512_and_si512(_mm512_srl_epi32(hashes, to_first), low_five);
            let second = _mm512_and_si512(_mm512_srl_epi32(hashes, to_second), low_five);
            let wanted = _mm512_or_si512(
                _mm512_sllv_epi32(one, first),
                _mm512_sllv_epi32(one, second),
            );
            // A bit for each lane whose word has both bits.
            u32::from(_mm512_cmpeq_epi32_mask(
                _mm512_and_si512(found, wanted),
                wanted,
            ))
        }
    }
}
