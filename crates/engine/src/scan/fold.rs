//! The two non-ASCII characters that fold to ASCII letters.
//!
//! Under Unicode simple case folding (what `(?i)` uses), the Kelvin sign
//! U+212A is `k` and the long s U+017F is `s`; no other non-ASCII character
//! folds to an ASCII letter. Case-insensitive blocklist words are matched
//! ASCII-case-insensitively, so text holding one of these two is also
//! scanned in a folded copy where they are replaced by `k` and `s`.

const KELVIN: &str = "\u{212A}";
const LONG_S: &str = "\u{17F}";

/// Whether `s` holds a character that folds to an ASCII letter: one pass
/// for the two characters' first bytes (`E2`, `C5`), each then compared
/// whole.
#[inline]
pub(crate) fn needs_folding(s: &str) -> bool {
    let bytes = s.as_bytes();
    memchr::memchr2_iter(0xE2, 0xC5, bytes).any(|at| {
        bytes.get(at..).is_some_and(|rest| {
            rest.starts_with(KELVIN.as_bytes()) || rest.starts_with(LONG_S.as_bytes())
        })
    })
}

/// The folding of one character, if it is one of the two.
#[inline]
pub(crate) fn fold_char(c: char) -> Option<u8> {
    match c {
        '\u{212A}' => Some(b'k'),
        '\u{17F}' => Some(b's'),
        _ => None,
    }
}

/// A folded copy of a string and the way back to the original offsets.
pub(crate) struct Folded {
    pub(crate) text: String,
    /// `(folded offset, original offset)` just after each replaced character.
    marks: Vec<(usize, usize)>,
}

impl Folded {
    pub(crate) fn new(s: &str) -> Self {
        let mut text = String::with_capacity(s.len());
        let mut marks = Vec::new();
        for (i, c) in s.char_indices() {
            match fold_char(c) {
                Some(b) => {
                    text.push(char::from(b));
                    marks.push((text.len(), i + c.len_utf8()));
                }
                None => text.push(c),
            }
        }
        Self { text, marks }
    }

    /// The original offset of a folded offset (a character boundary).
    #[expect(
        clippy::indexing_slicing,
        reason = "`n` counts the marks, and is at least one here"
    )]
    pub(crate) fn original(&self, folded: usize) -> usize {
        match self.marks.partition_point(|&(f, _)| f <= folded) {
            0 => folded,
            n => {
                let (f, o) = self.marks[n - 1];
                o + (folded - f)
            }
        }
    }
}

/// Compares a span of original text with a lower-case ASCII word, folding
/// the two special characters and ASCII case.
pub(crate) fn eq_folded(original: &str, word: &[u8]) -> bool {
    let mut w = word.iter();
    for c in original.chars() {
        let b = match fold_char(c) {
            Some(b) => b,
            None if c.is_ascii() => (c as u8).to_ascii_lowercase(),
            None => return false,
        };
        if w.next() != Some(&b) {
            return false;
        }
    }
    w.next().is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_folded_offsets_back() {
        let f = Folded::new("a\u{212A}b\u{17F}c");
        assert_eq!(f.text, "akbsc");
        let back: Vec<usize> = (0..=5).map(|i| f.original(i)).collect();
        assert_eq!(back, [0, 1, 4, 5, 7, 8]);
        assert!(needs_folding("\u{17F}ecret") && !needs_folding("secret \u{2014}"));
        assert!(eq_folded("\u{17F}ECRET", b"secret"));
        // Many first bytes of other characters, then the one.
        let dashes = "\u{2014}\u{2019}\u{17E}".repeat(40);
        assert!(!needs_folding(&dashes));
        assert!(needs_folding(&format!("{dashes}\u{212A}")));
        assert!(needs_folding(&format!("{dashes}x\u{17F}")));
        assert!(!needs_folding("\u{2129}\u{212B}\u{17D}\u{180}"));

        assert!(!eq_folded("\u{e9}ecret", b"secret"));
    }
}
