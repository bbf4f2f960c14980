//! The normalised view of a string that is not ASCII: what text checks match
//! a second time, so that invisible characters, compatibility forms,
//! combining marks and look-alike letters cannot hide a word.
//!
//! Each character of the original becomes, in the view:
//!
//! - nothing, when it is a default-ignorable code point (zero-width space
//!   and joiners, soft hyphen, word joiner, bidirectional controls, variation
//!   selectors, tag characters, …: Unicode's `Default_Ignorable_Code_Point`);
//! - otherwise its compatibility decomposition (NFKD: `ｄ` is `d`, `𝐝` is `d`,
//!   `＠` is `@`, `ﬁ` is `fi`, `４` is `4`) without combining marks (`é` is
//!   `e`), each remaining character that is not ASCII replaced by its
//!   confusable skeleton (Unicode TS #39) when that is ASCII (Cyrillic `о`
//!   and Greek `ο` are `o`, Cyrillic `а` is `a`).
//!
//! Every byte of the view remembers the character of the original it came
//! from, so a match in the view is reported, and redacted, as the span of
//! the original from the first character it covers to the last (including
//! the ignorable characters between them).

use std::sync::OnceLock;

use unicode_normalization::char::{decompose_compatible, is_combining_mark};

#[rustfmt::skip]
mod skeletons;

/// How far around a changed character the view reaches, in bytes: a match
/// that covers a changed character and reaches further than this on either
/// side of it is not seen in the view.
pub(crate) const WINDOW: usize = 256;

/// A normalised view of part of a string, and where each of its bytes came
/// from.
pub(crate) struct View {
    /// The view's text.
    pub(crate) text: String,
    /// Where the view's bytes came from, in runs ordered by their first
    /// byte in the view.
    runs: Vec<Run>,
    /// The original spans of the characters the view changes.
    changed: Vec<(u32, u32)>,
}

/// A run of the view's bytes that came from one place: a stretch of ASCII
/// copied as it is (the view's byte `at + k` is the original's `start + k`),
/// or what one character became (each byte is the whole character).
#[derive(Clone, Copy)]
struct Run {
    /// The run's first byte in the view.
    at: u32,
    /// The original's first byte.
    start: u32,
    /// The end of the original character, for a character's run.
    end: u32,
    /// Whether the run is copied ASCII.
    copied: bool,
}

impl Run {
    /// The original span of the view's byte `i`, which is in this run.
    fn span(&self, i: u32) -> (u32, u32) {
        if self.copied {
            let at = self.start + (i - self.at);
            (at, at + 1)
        } else {
            (self.start, self.end)
        }
    }
}

impl View {
    /// The views of `original`: one per stretch around the characters the
    /// view changes (reaching [`WINDOW`] bytes to each side); none for text
    /// the view leaves as it is (ASCII text always).
    pub(crate) fn of(original: &str) -> Vec<Self> {
        if original.is_ascii() || original.len() > u32::MAX as usize {
            return Vec::new();
        }
        // Where the changed characters are, then the stretches around them.
        let mut stretches: Vec<(usize, usize)> = Vec::new();
        let mut folded = String::new();
        let mut i = 0;
        while let Some(at) = next_non_ascii(original.as_bytes(), i) {
            let Some(c) = original[at..].chars().next() else {
                break;
            };
            let end = at + c.len_utf8();
            if changes(c, &mut folded) {
                let mut from = at.saturating_sub(WINDOW);
                while !original.is_char_boundary(from) {
                    from -= 1;
                }
                let mut to = (end + WINDOW).min(original.len());
                while !original.is_char_boundary(to) {
                    to += 1;
                }
                match stretches.last_mut() {
                    Some(last) if from <= last.1 => last.1 = last.1.max(to),
                    _ => stretches.push((from, to)),
                }
            }
            i = end;
        }
        stretches
            .into_iter()
            .map(|(from, to)| Self::build(original, from, to))
            .collect()
    }

    /// The view of `original[from..to]`.
    #[expect(
        clippy::indexing_slicing,
        reason = "run indices and bit positions are bounded by the tables' construction"
    )]
    fn build(original: &str, from: usize, to: usize) -> Self {
        let mut text = String::with_capacity(to - from);
        let mut runs = Vec::new();
        let mut changed = Vec::new();
        let bytes = original.as_bytes();
        let mut at = from;
        while at < to {
            // A stretch of ASCII is copied as it is.
            let ascii_end = next_non_ascii(&bytes[..to], at).unwrap_or(to);
            if ascii_end > at {
                runs.push(Run {
                    at: text.len() as u32,
                    start: at as u32,
                    end: ascii_end as u32,
                    copied: true,
                });
                text.push_str(&original[at..ascii_end]);
                at = ascii_end;
                continue;
            }
            let Some(c) = original[at..].chars().next() else {
                break;
            };
            let (start, end) = (at as u32, (at + c.len_utf8()) as u32);
            let before = text.len();
            if !is_ignorable(c) {
                push_folded(c, &mut text);
            }
            let produced = &text[before..];
            if produced.len() != c.len_utf8() || !produced.starts_with(c) {
                changed.push((start, end));
            }
            if text.len() > before {
                runs.push(Run {
                    at: before as u32,
                    start,
                    end,
                    copied: false,
                });
            }
            at += c.len_utf8();
        }
        Self {
            text,
            runs,
            changed,
        }
    }

    /// The original span of the view's byte `i`.
    #[expect(
        clippy::indexing_slicing,
        reason = "run indices and bit positions are bounded by the tables' construction"
    )]
    fn span(&self, i: usize) -> Option<(u32, u32)> {
        if i >= self.text.len() {
            return None;
        }
        let i = i as u32;
        let k = self.runs.partition_point(|r| r.at <= i).checked_sub(1)?;
        Some(self.runs[k].span(i))
    }

    /// The span of the original that the view's bytes `start..end` came
    /// from, if it covers a character the view changed (a match elsewhere
    /// is the original's own, found where it is written).
    pub(crate) fn original(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        let (first, _) = self.span(start)?;
        let last = match end.checked_sub(1) {
            Some(i) if i >= start => self.span(i).map_or(first, |(_, e)| e),
            _ => first,
        };
        let last = last.max(first);
        self.changed
            .iter()
            .any(|&(s, e)| s < last.max(first + 1) && e > first)
            .then_some((first as usize, last as usize))
    }
}

/// The index of the first byte at or after `from` that is not ASCII; long
/// ASCII runs are skipped 64 bytes at a time.
fn next_non_ascii(bytes: &[u8], mut from: usize) -> Option<usize> {
    const STEP: usize = 64;
    while let Some(chunk) = bytes.get(from..from + STEP) {
        if !chunk.is_ascii() {
            break;
        }
        from += STEP;
    }
    bytes
        .get(from..)?
        .iter()
        .position(|&b| b >= 0x80)
        .map(|k| from + k)
}

/// Whether the view changes a character that is not ASCII (`buf` is
/// scratch space).
fn changes(c: char, buf: &mut String) -> bool {
    if let Some(changed) = changes_in_plane(c) {
        return changed;
    }
    is_ignorable(c) || changes_slowly(c, buf)
}

/// Whether folding changes a character, from the tables.
fn changes_slowly(c: char, buf: &mut String) -> bool {
    buf.clear();
    push_folded(c, buf);
    buf.len() != c.len_utf8() || !buf.starts_with(c)
}

/// Whether the view changes a character of the Basic Multilingual Plane,
/// read from a bitmap of its block of 256 characters, computed on first
/// use (`None` outside the plane).
#[expect(
    clippy::indexing_slicing,
    reason = "run indices and bit positions are bounded by the tables' construction"
)]
fn changes_in_plane(c: char) -> Option<bool> {
    static BLOCKS: [OnceLock<[u64; 4]>; 256] = [const { OnceLock::new() }; 256];
    let code = u32::from(c);
    let block = BLOCKS.get((code >> 8) as usize)?.get_or_init(|| {
        let mut bits = [0u64; 4];
        let mut buf = String::new();
        for low in 0..256u32 {
            let changed = char::from_u32((code & !0xFF) | low)
                .is_some_and(|c| is_ignorable(c) || changes_slowly(c, &mut buf));
            if changed {
                bits[(low / 64) as usize] |= 1 << (low % 64);
            }
        }
        bits
    });
    let low = code & 0xFF;
    Some(block[(low / 64) as usize] & (1 << (low % 64)) != 0)
}

/// Appends the compact form of `text` (for comparing values): each
/// character as the view has it, in lower case, without whitespace and
/// without the characters that render as nothing.
pub(crate) fn push_compact(text: &str, out: &mut String) {
    let mut buf = String::new();
    for c in text.chars() {
        if c.is_ascii() {
            if !c.is_ascii_whitespace() {
                out.push(c.to_ascii_lowercase());
            }
            continue;
        }
        if c.is_whitespace() || is_ignorable(c) {
            continue;
        }
        // The ideographic full stops, which URL readers take for `.`
        // between a host's labels (the full-width one folds to `.`).
        if matches!(c, '\u{3002}' | '\u{FF61}') {
            out.push('.');
            continue;
        }
        buf.clear();
        push_folded(c, &mut buf);
        for f in buf.chars() {
            if !f.is_whitespace() {
                out.extend(f.to_lowercase());
            }
        }
    }
}

/// Appends a character's compatibility decomposition without combining
/// marks, with each non-ASCII character that has an ASCII letter or digit
/// as its confusable skeleton replaced by that.
pub(crate) fn push_folded(c: char, out: &mut String) {
    decompose_compatible(c, |d| {
        if is_combining_mark(d) {
            return;
        }
        if d.is_ascii() {
            out.push(d);
            return;
        }
        out.push(ascii_skeleton(d).map_or(d, char::from));
    });
}

/// The ASCII letter or digit that is `c`'s confusable skeleton (Unicode
/// TR39, as `unicode-security` computes it), if there is one: a table
/// generated from that crate (see [`skeletons`]), searched by code point.
fn ascii_skeleton(c: char) -> Option<u8> {
    let table = skeletons::ASCII_SKELETONS;
    let i = table.binary_search_by_key(&c, |&(from, _)| from).ok()?;
    table.get(i).map(|&(_, to)| to)
}

/// Unicode's `Default_Ignorable_Code_Point` (DerivedCoreProperties.txt):
/// characters that render as nothing.
pub(crate) fn is_ignorable(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00AD
            | 0x034F
            | 0x061C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of [`skeletons`]: every non-ASCII character whose
    /// skeleton is one ASCII letter or digit.
    fn render_skeletons() -> String {
        let mut out = String::from(
            "//! Non-ASCII characters whose confusable skeleton (Unicode TR39) is one\n\
             //! ASCII letter or digit, by code point, with that letter or digit.\n\
             //! Generated from `unicode-security` by `cargo xtask generate`\n\
             //! (which runs `view::tests::ascii_skeletons_are_fresh`); do\n\
             //! not edit.\n\n\
             pub(super) static ASCII_SKELETONS: &[(char, u8)] = &[\n",
        );
        let mut buf = [0u8; 4];
        for c in (0x80..=0x10_FFFF).filter_map(char::from_u32) {
            let mut skeleton = unicode_security::skeleton(c.encode_utf8(&mut buf));
            if let (Some(s), None) = (skeleton.next(), skeleton.next())
                && s.is_ascii_alphanumeric()
            {
                out.push_str(&format!("    ('\\u{{{:x}}}', b'{s}'),\n", u32::from(c)));
            }
        }
        out.push_str("];\n");
        out
    }

    /// The embedded table is the one `unicode-security` gives today.
    #[test]
    fn ascii_skeletons_are_fresh() {
        if !crate::generated::fresh(
            "PALISADE_WRITE_SKELETONS",
            "view/skeletons.rs",
            include_str!("view/skeletons.rs"),
            &render_skeletons(),
            "ascii_skeletons_are_fresh",
        ) {
            return;
        }
        assert_eq!(ascii_skeleton('\u{430}'), Some(b'a'), "Cyrillic a");
        assert_eq!(ascii_skeleton('\u{3bf}'), Some(b'o'), "Greek omicron");
        assert_eq!(ascii_skeleton('\u{e9}'), None, "é is not confusable with e");
    }

    fn view(s: &str) -> String {
        let views = View::of(s);
        assert!(views.len() <= 1, "short texts have one stretch");
        views
            .into_iter()
            .next()
            .map_or_else(|| s.to_owned(), |v| v.text)
    }

    #[test]
    fn what_the_view_undoes() {
        assert_eq!(view("ｄｒｏｐ ｔａｂｌｅ"), "drop table");
        assert_eq!(view("dro\u{200b}p ta\u{00ad}ble"), "drop table");
        assert_eq!(view("d\u{200d}r\u{2060}o\u{feff}p"), "drop");
        assert_eq!(view("𝐝𝐫𝐨𝐩 𝐭𝐚𝐛𝐥𝐞"), "drop table");
        assert_eq!(view("drо\u{0301}p"), "drop", "Cyrillic о with a mark");
        assert_eq!(view("dr\u{03bf}p"), "drop", "Greek ο");
        assert_eq!(view("jane＠contoso.com"), "jane@contoso.com");
        assert_eq!(view("４１１１ １１１１"), "4111 1111");
        assert_eq!(view("ﬁle"), "file");
        assert_eq!(view("café déjà"), "cafe deja");
    }

    #[test]
    fn what_the_view_keeps() {
        assert!(View::of("plain ascii").is_empty());
        assert!(View::of("日本語").is_empty(), "nothing to change: no view");
        assert!(View::of("Straße 😀").is_empty());
        assert!(
            !View::of("Привет, мир").is_empty(),
            "Cyrillic letters that look Latin fold"
        );
    }

    #[test]
    fn spans_map_back_to_the_original() {
        let original = "x dro\u{200b}p tａble y";
        let v = View::of(original).pop().unwrap();
        let at = v.text.find("drop table").unwrap();
        let (s, e) = v.original(at, at + "drop table".len()).unwrap();
        assert_eq!(&original[s..e], "dro\u{200b}p tａble");
        assert!(original.is_char_boundary(s) && original.is_char_boundary(e));
        // A match that covers no changed character is the original's own.
        let at = v.text.find("x dr").unwrap();
        assert_eq!(v.original(at, at + 2), None);
    }

    #[test]
    fn the_plane_bitmap_agrees_with_the_tables() {
        let mut buf = String::new();
        for c in (0..=0xFFFF).filter_map(char::from_u32) {
            let slow = is_ignorable(c) || changes_slowly(c, &mut buf);
            assert_eq!(changes_in_plane(c), Some(slow), "U+{:04X}", u32::from(c));
        }
        assert_eq!(changes_in_plane('\u{1D41D}'), None);
        assert!(changes('\u{1D41D}', &mut buf), "𝐝 is d");
        assert!(changes('\u{E0041}', &mut buf), "a tag character");
        assert!(!changes('😀', &mut buf));
    }

    #[test]
    fn long_texts_get_stretches_around_the_changes() {
        let filler = "a".repeat(2 * WINDOW);
        let original = format!("{filler}dro\u{200b}p{filler}{filler}ｄrop{filler}");
        let views = View::of(&original);
        assert_eq!(views.len(), 2);
        for v in &views {
            assert!(v.text.contains("drop"));
            assert!(v.text.len() <= 2 * WINDOW + 8);
        }
    }
}
