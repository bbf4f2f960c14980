//! Credentials re-encoded as tools print them: runs of base64 (or
//! base64url), base32 or hex in a tool output that decode to text, for the
//! credential detectors to scan again.
//!
//! `kubectl get secret … -o yaml` prints a credentials file, a `.env` or a
//! private key as one base64 run; `base64` wraps the same run at 76
//! columns, PEM tools at 64, YAML block scalars indent it, and a JSON
//! string holds it with `\n` escapes. A run is found wherever it is wrapped
//! (lines of one width, the last one shorter, joined across `\n`, `\r\n`,
//! their JSON escapes and any indentation), decoded, and kept only when it
//! decodes to text: base64 of a binary file, a hash or a long identifier
//! is turned away within its first bytes. `base32` and `xxd -p` wrap their
//! runs the same way, and their alphabets are within base64's, so the
//! same search finds them: a run of hex digits is read as hex, one of
//! base32 characters as base32, and either is read as base64 when it is
//! not text that way.
//!
//! The cost stays small on text without such runs: a run of at least
//! [`MIN_RUN`] characters always covers one of the 16-byte blocks that
//! start every 48 bytes, so only those blocks are read (each tested at
//! once, in a vector register on x86-64); a run is looked at only around
//! a block that is base64 throughout and has five more such words next to
//! it. Lines wrapped narrower than [`MIN_RUN`] columns are therefore not
//! reliably found. What is decoded is bounded per string ([`Budget`]), and
//! decoded text is decoded again at most [`MAX_DEPTH`] levels deep.

/// The fewest base64 characters of a run that is decoded (48 bytes).
pub(crate) const MIN_RUN: usize = 64;

/// How many times a text is decoded within a decoded text (base64 of a
/// `.dockerconfigjson` whose `auth` is base64 too).
pub(crate) const MAX_DEPTH: u32 = 2;

/// The blocks read first: a run of [`MIN_RUN`] characters covers a whole
/// 16-byte block starting at a multiple of [`STRIDE`] (`STRIDE + 16 - 1
/// <= MIN_RUN`).
pub(crate) const STRIDE: usize = 48;

/// The narrowest lines joined as a wrapped run (PEM wraps at 64, `base64`
/// at 76, some tools at 60 or 72). A run is first found on a line of
/// [`MIN_RUN`] characters: a run wrapped narrower than that is found only
/// where a line happens to be found (not reliably).
const MIN_WIDTH: usize = 16;

/// What one string may have decoded, all runs and depths together: 64 KiB
/// of base64 characters and 32 runs.
#[derive(Debug)]
pub(crate) struct Budget {
    chars: usize,
    runs: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Self {
            chars: 64 * 1024,
            runs: 32,
        }
    }
}

/// A run that decoded to text: its bytes `start..end` in the string it was
/// found in (padding included), and the text.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Decoded {
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) text: String,
}

/// Whether `b` is a base64 or base64url character (not padding), without
/// a branch, so that [`next_block`]'s test of 16 bytes is compiled to a
/// few vector instructions.
#[inline]
fn is_b64(b: u8) -> bool {
    ((b | 0x20).wrapping_sub(b'a') < 26)
        | (b.wrapping_sub(b'0') < 10)
        | (b == b'+')
        | (b == b'/')
        | (b == b'-')
        | (b == b'_')
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of each byte of `x` (7-bit bytes) that is at least `lo`.
#[inline]
const fn at_least(x: u64, lo: u8) -> u64 {
    ((x | HIGH) - ONES * lo as u64) & HIGH
}

/// The high bit of each byte of `x` (7-bit bytes) that is at most `hi`.
#[inline]
const fn at_most(x: u64, hi: u8) -> u64 {
    (((ONES * hi as u64) | HIGH) - x) & HIGH
}

/// The high bit of each byte of `x` (7-bit bytes) that equals `c`.
#[inline]
const fn equal(x: u64, c: u8) -> u64 {
    !((x ^ (ONES * c as u64)) + ONES * 0x7f) & HIGH
}

/// The first block of 16 base64 characters at `from` or a multiple of
/// [`STRIDE`] bytes after it, with 16 more just before it or just after
/// it (which [`room_for_a_run`] needs: five whole words on the right, or
/// at least four on the left). Its own loop, a test of a few vector
/// instructions and one branch taken rarely: a block of text almost always
/// holds a blank, a line break, a quote or a dot, and the identifiers and
/// paths that do not seldom have 16 more next to them. (Testing first for
/// a byte below `+` passed a tenth of the blocks of tool output, and the
/// branches mispredicted on them cost more than the whole test.)
///
/// With AVX2, two blocks are tested at once, and their neighbours without
/// leaving the loop (`crate::scan::base64_block`, which [`decode_runs_by`]
/// takes); this loop is the reference and the path without it.
#[inline(never)]
pub(crate) fn next_block(hay: &[u8], from: usize) -> Option<usize> {
    let block = |at: usize| {
        hay.get(at..)
            .and_then(<[u8]>::first_chunk::<16>)
            .is_some_and(|block| block.iter().fold(true, |all, &b| all & is_b64(b)))
    };
    let mut pos = from;
    while hay.len() >= pos + 16 {
        if block(pos) && (pos.checked_sub(16).is_some_and(block) || block(pos + 16)) {
            return Some(pos);
        }
        pos += STRIDE;
    }
    None
}

/// The eight bytes at `at` (zeros past the end).
#[inline]
fn word(hay: &[u8], at: usize) -> u64 {
    hay.get(at..at + 8)
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
        .map_or(0, u64::from_le_bytes)
}

/// Whether all eight bytes of `x` are base64 characters, eight at a time
/// in one register.
#[inline]
fn all_b64(x: u64) -> bool {
    let seven = x & !HIGH;
    if x & HIGH != 0 {
        return false;
    }
    let folded = seven | (ONES * 0x20);
    let ok = (at_least(folded, b'a') & at_most(folded, b'z'))
        | (at_least(seven, b'0') & at_most(seven, b'9'))
        | equal(seven, b'+')
        | equal(seven, b'/')
        | equal(seven, b'-')
        | equal(seven, b'_');
    ok == HIGH
}

/// Whether the base64 block at `at` can be part of a line of
/// [`MIN_RUN`] characters: whole base64 words next to it, on either side,
/// five at least (a line holding the block and at most four more whole
/// words is at most `16 + 7 + 4 * 8 + 7 = 62` characters long). Words of
/// text (identifiers, digests) are turned away here, eight bytes at a
/// time.
fn room_for_a_run(hay: &[u8], at: usize) -> bool {
    let b64 = |i: usize| i + 8 <= hay.len() && all_b64(word(hay, i));
    let right = (0..5).take_while(|k| b64(at + 16 + 8 * k)).count();
    let left = (1..=5 - right)
        .take_while(|k| at >= 8 * k && b64(at - 8 * k))
        .count();
    left + right >= 5
}

/// The runs of `text` that decode to text, in order, within the budget,
/// their blocks found by the byte loop (the engine's evaluation passes its
/// faster search to [`decode_runs_by`]).
#[cfg(test)]
pub(crate) fn decode_runs(text: &str, budget: &mut Budget) -> Vec<Decoded> {
    decode_runs_by(text, budget, next_block)
}

/// [`decode_runs`] with its blocks found by `next_block`, which finds what
/// [`next_block`] finds (faster: `crate::scan::base64_block`).
pub(crate) fn decode_runs_by(
    text: &str,
    budget: &mut Budget,
    next_block: impl Fn(&[u8], usize) -> Option<usize>,
) -> Vec<Decoded> {
    let hay = text.as_bytes();
    let mut out = Vec::new();
    if hay.len() < MIN_RUN {
        return out;
    }
    let mut from = 0;
    while let Some(pos) = next_block(hay, from) {
        let next = pos + STRIDE;
        if !room_for_a_run(hay, pos) {
            from = next;
            continue;
        }
        let (run, after) = wrapped_run(hay, pos);
        if let Some(run) = run
            && budget.runs > 0
            && budget.chars >= run.chars
        {
            budget.runs -= 1;
            budget.chars -= run.chars;
            if let Some(decoded) = decode_text(hay, &run) {
                out.push(Decoded {
                    start: run.start,
                    end: run.end,
                    text: decoded,
                });
            }
        }
        // Go on with the first block after the run (or the line).
        from = next.max(after.next_multiple_of(STRIDE));
    }
    out
}

/// A run of base64 lines: its span, its lines and its number of base64
/// characters.
struct Run {
    start: usize,
    end: usize,
    lines: Vec<(usize, usize)>,
    chars: usize,
}

/// The base64 characters of the line around `at`: `start..end`. A JSON
/// escape `\n` before them is not part of them.
fn segment(hay: &[u8], at: usize) -> (usize, usize) {
    let mut start = hay
        .get(..at)
        .unwrap_or_default()
        .iter()
        .rposition(|&b| !is_b64(b))
        .map_or(0, |i| i + 1);
    if start > 0 && hay.get(start - 1) == Some(&b'\\') && hay.get(start) == Some(&b'n') {
        start += 1;
    }
    let end = hay
        .get(at..)
        .unwrap_or_default()
        .iter()
        .position(|&b| !is_b64(b))
        .map_or(hay.len(), |i| at + i);
    (start, end.max(start))
}

/// Line breaks: `\n`, `\r\n` and their JSON escapes.
const BREAKS: [&[u8]; 4] = [b"\r\n", b"\n", b"\\r\\n", b"\\n"];

/// The line break at `at` and the indentation after it: the position of
/// the next line's first character.
fn after_break(hay: &[u8], at: usize) -> Option<usize> {
    let rest = hay.get(at..)?;
    let len = BREAKS.iter().find(|nl| rest.starts_with(nl))?.len();
    let indent = rest
        .get(len..)
        .unwrap_or_default()
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    Some(at + len + indent)
}

/// The indentation and line break that end at `at`: the end of the
/// previous line.
fn before_break(hay: &[u8], at: usize) -> Option<usize> {
    let head = hay.get(..at)?;
    let indent = head
        .iter()
        .rev()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let head = head.get(..head.len() - indent)?;
    let len = BREAKS.iter().find(|nl| head.ends_with(nl))?.len();
    Some(head.len() - len)
}

/// Whether a line of base64 ending at `end` (padding included) ends there:
/// at the end of the text, a line break, a quote, a blank or a closing
/// bracket, not in the middle of a word (`kind:`).
fn ends_line(hay: &[u8], end: usize) -> bool {
    hay.get(end).is_none_or(|&b| {
        matches!(
            b,
            b'\n' | b'\r' | b'\\' | b'"' | b'\'' | b' ' | b'\t' | b'<' | b',' | b'}' | b']'
        )
    })
}

/// Padding after a run's last line: up to six `=` (base64 pads to four
/// characters with up to two, base32 to eight with up to six).
fn padding(hay: &[u8], end: usize) -> usize {
    hay.get(end..)
        .unwrap_or_default()
        .iter()
        .take(6)
        .take_while(|&&b| b == b'=')
        .count()
}

/// The run around the all-base64 block at `at`, joined across line wraps
/// (every line of one width, the last not wider), if it has [`MIN_RUN`]
/// characters; and where the search goes on.
fn wrapped_run(hay: &[u8], at: usize) -> (Option<Run>, usize) {
    let (start, end) = segment(hay, at);
    let mut lines = vec![(start, end)];
    // Up: the lines before, the first at least as wide as the one found
    // (which may be the last, shorter line), the others as wide as it.
    let mut width = end - start;
    let mut top = start;
    while let Some(prev_end) = before_break(hay, top) {
        let (s, e) = segment(hay, prev_end.saturating_sub(1));
        let w = e - s;
        let fits = if lines.len() == 1 {
            w >= width
        } else {
            w == width
        };
        if e != prev_end || w < MIN_WIDTH || !fits {
            break;
        }
        width = w;
        lines.push((s, e));
        top = s;
    }
    lines.reverse();
    // Down: while the last line is a whole line of the width.
    let mut last = end;
    while width >= MIN_WIDTH
        && lines.last().is_some_and(|&(s, e)| e - s == width)
        && let Some(next) = after_break(hay, last)
    {
        let (s, e) = segment(hay, next);
        if s != next || e == s || e - s > width || !ends_line(hay, e + padding(hay, e)) {
            break;
        }
        lines.push((s, e));
        last = e;
    }
    let chars = lines.iter().map(|(s, e)| e - s).sum();
    let end = last + padding(hay, last);
    let run = (chars >= MIN_RUN).then_some(Run {
        start: top,
        end,
        lines,
        chars,
    });
    (run, end)
}

/// The value of a base64 or base64url character.
fn sextet(b: u8) -> u32 {
    u32::from(match b {
        b'A'..=b'Z' => b - b'A',
        b'a'..=b'z' => b - b'a' + 26,
        b'0'..=b'9' => b - b'0' + 52,
        b'+' | b'-' => 62,
        _ => 63,
    })
}

/// The value of a base32 character (RFC 4648: `A`-`Z`, `2`-`7`).
fn quintet(b: u8) -> Option<u32> {
    match b {
        b'A'..=b'Z' => Some(u32::from(b - b'A')),
        b'2'..=b'7' => Some(u32::from(b - b'2' + 26)),
        _ => None,
    }
}

/// The encodings a run is read in, in the order they are tried: its
/// characters are all of the first ones' alphabets (hex digits are base64
/// characters, and so are base32's), and a run that is not text in one is
/// read in the next.
const ENCODINGS: [Encoding; 3] = [Encoding::Hex, Encoding::Base32, Encoding::Base64];

/// How a run's characters are read: `xxd -p` and `bytes.hex()` print hex,
/// `base32` (coreutils) prints base32, the rest print base64.
#[derive(Clone, Copy)]
enum Encoding {
    Hex,
    Base32,
    Base64,
}

impl Encoding {
    /// The bits of `b` in this encoding, and how many, or `None` when `b`
    /// is not one of its characters.
    fn bits(self, b: u8) -> Option<(u32, u32)> {
        match self {
            Self::Hex => char::from(b).to_digit(16).map(|v| (v, 4)),
            Self::Base32 => quintet(b).map(|v| (v, 5)),
            Self::Base64 => Some((sextet(b), 6)),
        }
    }
}

/// The run decoded, if it is text: UTF-8 without control characters other
/// than tabs and line breaks. Binary data is turned away at its first
/// control byte, usually within a few bytes. When only the last line
/// spoils it (a short line of text after a run that ends on a whole
/// line), the run without it.
fn decode_text(hay: &[u8], run: &Run) -> Option<String> {
    decode_lines(hay, &run.lines).or_else(|| match run.lines.split_last() {
        Some((_, rest)) if rest.len() >= 2 => decode_lines(hay, rest),
        _ => None,
    })
}

/// The lines decoded in the first of [`ENCODINGS`] whose alphabet holds
/// them all and in which they are text.
fn decode_lines(hay: &[u8], lines: &[(usize, usize)]) -> Option<String> {
    let chars: usize = lines.iter().map(|(s, e)| e - s).sum();
    if chars < MIN_RUN {
        return None;
    }
    ENCODINGS
        .iter()
        .find_map(|&encoding| decode_in(hay, lines, chars, encoding))
}

fn decode_in(
    hay: &[u8],
    lines: &[(usize, usize)],
    chars: usize,
    encoding: Encoding,
) -> Option<String> {
    let whole = match encoding {
        Encoding::Hex => chars.is_multiple_of(2),
        Encoding::Base32 => !matches!(chars % 8, 1 | 3 | 6),
        Encoding::Base64 => chars % 4 != 1,
    };
    if !whole {
        return None;
    }
    let mut out = Vec::with_capacity(chars * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for &(s, e) in lines {
        for &b in hay.get(s..e)? {
            let (value, width) = encoding.bits(b)?;
            acc = ((acc << width) | value) & 0xffff;
            bits += width;
            if bits >= 8 {
                bits -= 8;
                let byte = (acc >> bits) as u8;
                if (byte < 0x20 && !matches!(byte, b'\t' | b'\n' | b'\r')) || byte == 0x7f {
                    return None;
                }
                out.push(byte);
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b64(s: &str) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut out = String::new();
        for chunk in s.as_bytes().chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
            for i in 0..=chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            }
        }
        while !out.len().is_multiple_of(4) {
            out.push('=');
        }
        out
    }

    fn wrap(s: &str, width: usize, newline: &str, indent: &str) -> String {
        s.as_bytes()
            .chunks(width)
            .map(|c| format!("{indent}{}", std::str::from_utf8(c).unwrap()))
            .collect::<Vec<_>>()
            .join(newline)
    }

    const FILE: &str = "[default]\naws_access_key_id = AKIAZ7VQH2LMT4XKQW3P\naws_secret_access_key = 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\n";

    fn decoded(text: &str) -> Vec<String> {
        decode_runs(text, &mut Budget::default())
            .into_iter()
            .map(|d| d.text)
            .collect()
    }

    #[test]
    fn the_word_test_is_the_byte_test() {
        for b in 0..=255u8 {
            for at in 0..16 {
                let mut bytes = *b"QUJDREVGQUJDREVG";
                bytes[at] = b;
                assert_eq!(
                    all_b64(word(&bytes, at / 8 * 8)),
                    is_b64(b),
                    "{b:#x} at {at}"
                );
                // The block, then 16 bytes of base64: found where the
                // byte is base64; a block alone is not; a block of base64
                // whose neighbour holds the byte is found where the byte
                // is base64.
                let want = is_b64(b).then_some(0);
                let mut alone = [b'Q'; 32];
                alone[..16].copy_from_slice(&bytes);
                let mut neighbour = [b' '; STRIDE + 16];
                neighbour[STRIDE - 16..STRIDE].copy_from_slice(&bytes);
                neighbour[STRIDE..].copy_from_slice(&[b'Q'; 16]);
                assert_eq!(next_block(&alone, 0), want, "{b:#x} at {at}");
                assert_eq!(next_block(&bytes, 0), None, "a block alone");
                let later = is_b64(b).then_some(STRIDE);
                assert_eq!(next_block(&neighbour, 0), later, "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn a_run_is_decoded_wherever_it_sits_and_however_it_is_wrapped() {
        let run = b64(FILE);
        for text in [
            run.clone(),
            format!("data:\n  credentials: {run}\nkind: Secret\n"),
            format!("base64 -w 76: {}", wrap(&run, 76, "\n", "")),
            wrap(&run, 64, "\r\n", ""),
            format!("key: |\n{}\nnext: 1", wrap(&run, 60, "\n", "    ")),
            format!("{{\"data\": \"{}\"}}", wrap(&run, 64, "\\n", "")),
            wrap(&run, 64, "\\r\\n", ""),
            run.replace('+', "-")
                .replace('/', "_")
                .trim_end_matches('=')
                .to_owned(),
        ] {
            assert_eq!(decoded(&text), [FILE], "{text}");
        }
    }

    fn hex(s: &str) -> String {
        s.bytes().map(|b| format!("{b:02x}")).collect()
    }

    /// RFC 4648 base32, padded, as `base32` prints it.
    fn b32(s: &str) -> String {
        const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
        let mut out = String::new();
        for chunk in s.as_bytes().chunks(5) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u64, |n, (i, &b)| n | u64::from(b) << (32 - 8 * i));
            let chars = (chunk.len() * 8).div_ceil(5);
            for i in 0..8 {
                out.push(if i < chars {
                    char::from(ALPHABET[(n >> (35 - 5 * i) & 31) as usize])
                } else {
                    '='
                });
            }
        }
        out
    }

    #[test]
    fn hex_and_base32_runs_are_decoded_as_their_tools_print_them() {
        let (hex, b32) = (hex(FILE), b32(FILE));
        assert!(b32.ends_with("======"), "{b32}");
        for text in [
            hex.clone(),
            hex.to_uppercase(),
            format!("$ xxd -p creds\n{}\n$ ", wrap(&hex, 60, "\n", "")),
            format!("{{\"out\": \"{}\"}}", wrap(&hex, 60, "\\n", "")),
            b32.clone(),
            format!("$ base32 creds\n{}\n$ ", wrap(&b32, 76, "\n", "")),
            format!("data: |\n{}\n", wrap(&b32, 64, "\n", "  ")),
        ] {
            assert_eq!(decoded(&text), [FILE], "{text}");
        }
        // The span holds base32's six `=`, so redaction leaves none.
        let text = format!("x {} y", wrap(&b32, 76, "\n", ""));
        let found = decode_runs(&text, &mut Budget::default());
        let [d] = &found[..] else { panic!("{found:?}") };
        assert_eq!(&text[d.start..d.end], wrap(&b32, 76, "\n", ""));
        // Digests and other binary in hex or base32 are not text.
        for text in [
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".repeat(2),
            "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP".to_owned(),
            hex[..hex.len() - 1].to_owned(),
        ] {
            assert!(decoded(&text).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_run_of_the_minimum_is_found_at_every_offset() {
        let file = "DB_HOST=db.internal\nDB_PASSWORD=Zq7!vR2xLp9#Tw\nDB_USER=app\n";
        for len in (MIN_RUN..=MIN_RUN + 12).step_by(4) {
            let run = &b64(file)[..len];
            for offset in 0..2 * STRIDE {
                let mut text: String = "ab ".repeat(STRIDE).chars().take(offset).collect();
                if offset > 0 {
                    text.replace_range(offset - 1.., " ");
                }
                text.push_str(run);
                text.push_str(" done");
                assert_eq!(decoded(&text).len(), 1, "{len} at {offset}: {text}");
            }
        }
    }

    #[test]
    fn the_span_covers_the_wrapped_run_and_its_padding() {
        let run = b64(FILE);
        let text = format!("a: |\n  {}\nb: 2", wrap(&run, 64, "\n  ", ""));
        let found = decode_runs(&text, &mut Budget::default());
        let [d] = &found[..] else { panic!("{found:?}") };
        assert_eq!(&text[d.start..d.end], wrap(&run, 64, "\n  ", ""));
    }

    #[test]
    fn binary_short_and_misaligned_runs_are_not_text() {
        // Random bytes, a digest, an identifier, a run under the minimum.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let bytes: String = (0..3000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                char::from(
                    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                        [(x % 64) as usize],
                )
            })
            .collect();
        for text in [
            bytes.clone(),
            wrap(&bytes, 76, "\n", ""),
            "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".to_owned(),
            "module_name_with_a_very_long_identifier_that_goes_on_and_on_and_on".to_owned(),
            b64("DB_PASSWORD=Zq7!vR2xLp9"),
        ] {
            assert!(decoded(&text).is_empty(), "{text}");
        }
    }

    #[test]
    fn a_short_last_line_of_text_after_a_whole_line_is_left_out() {
        // The run ends on a whole line; the next line is a word.
        let file = &FILE[..FILE.len() - FILE.len() % 48];
        let run = b64(file);
        assert_eq!(run.len() % 64, 0);
        let text = format!("{}\nDone\n", wrap(&run, 64, "\n", ""));
        assert_eq!(decoded(&text), [file]);
    }

    #[test]
    fn decoding_is_bounded() {
        let run = b64(FILE);
        let text = vec![run.as_str(); 100].join("\n\n");
        let mut budget = Budget::default();
        assert_eq!(decode_runs(&text, &mut budget).len(), 32);
        assert_eq!(budget.runs, 0);
        assert!(decode_runs(&text, &mut budget).is_empty());
    }
}
