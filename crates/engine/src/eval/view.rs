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

use unicode_normalization::char::{decompose_compatible, is_combining_mark};

/// A normalised view and where each of its bytes came from.
pub(crate) struct View {
    /// The view's text.
    pub(crate) text: String,
    /// For each byte of `text`, the original character's start and end.
    from: Vec<(u32, u32)>,
}

impl View {
    /// The view of `original`, or `None` when it would be the same text
    /// (ASCII text always is).
    pub(crate) fn of(original: &str) -> Option<Self> {
        if original.is_ascii() || original.len() > u32::MAX as usize {
            return None;
        }
        let mut text = String::with_capacity(original.len());
        let mut from: Vec<(u32, u32)> = Vec::with_capacity(original.len());
        let mut changed = false;
        let mut buf = [0u8; 4];
        for (start, c) in original.char_indices() {
            let end = (start + c.len_utf8()) as u32;
            let start = start as u32;
            if c.is_ascii() {
                text.push(c);
                from.push((start, end));
                continue;
            }
            if is_ignorable(c) {
                changed = true;
                continue;
            }
            let mut produced = String::new();
            decompose_compatible(c, |d| {
                if !is_combining_mark(d) {
                    produced.push(d);
                }
            });
            let mut mapped = String::with_capacity(produced.len());
            for d in produced.chars() {
                if d.is_ascii() {
                    mapped.push(d);
                    continue;
                }
                let skeleton: String =
                    unicode_security::skeleton(d.encode_utf8(&mut buf)).collect();
                if !skeleton.is_empty()
                    && skeleton.is_ascii()
                    && skeleton.chars().all(|s| s.is_ascii_alphanumeric())
                {
                    mapped.push_str(&skeleton);
                } else {
                    mapped.push(d);
                }
            }
            if mapped.len() != c.len_utf8() || !mapped.starts_with(c) {
                changed = true;
            }
            for _ in 0..mapped.len() {
                from.push((start, end));
            }
            text.push_str(&mapped);
        }
        changed.then_some(Self { text, from })
    }

    /// The span of the original that the view's bytes `start..end` came from.
    pub(crate) fn original(&self, start: usize, end: usize) -> (usize, usize) {
        let first = self.from.get(start).map_or(0, |&(s, _)| s as usize);
        let last = match end.checked_sub(1) {
            Some(i) if i >= start => self.from.get(i).map_or(first, |&(_, e)| e as usize),
            _ => first,
        };
        (first, last.max(first))
    }
}

/// Unicode's `Default_Ignorable_Code_Point` (DerivedCoreProperties.txt):
/// characters that render as nothing.
fn is_ignorable(c: char) -> bool {
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

    fn view(s: &str) -> String {
        View::of(s).map_or_else(|| s.to_owned(), |v| v.text)
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
        assert!(View::of("plain ascii").is_none());
        assert!(View::of("日本語").is_none(), "nothing to change: no view");
        assert!(View::of("Straße 😀").is_none());
        assert!(
            View::of("Привет, мир").is_some(),
            "Cyrillic letters that look Latin fold"
        );
    }

    #[test]
    fn spans_map_back_to_the_original() {
        let original = "x dro\u{200b}p tａble y";
        let v = View::of(original).unwrap();
        let at = v.text.find("drop table").unwrap();
        let (s, e) = v.original(at, at + "drop table".len());
        assert_eq!(&original[s..e], "dro\u{200b}p tａble");
        assert!(original.is_char_boundary(s) && original.is_char_boundary(e));
    }
}
