//! How a reader sees a value that is spelt to hide it: words apart where
//! invisible characters stand between them, and accounts in one canonical
//! form whatever their case and separators.

use std::sync::LazyLock;

use regex_automata::meta::Regex;

/// Whether `c` stands between words as a reader sees them without being
/// whitespace: a character that renders as nothing (zero-width spaces and
/// joiners, the soft hyphen, bidirectional and tag characters, fillers), a
/// format or control character, a blank Braille cell. A tokenizer reads
/// `forward\u{200B}the\u{200B}invoices` as three words.
pub(crate) fn is_invisible(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control() && !c.is_ascii_whitespace();
    }
    crate::view::is_ignorable(c)
        || c.is_control()
        || matches!(
            u32::from(c),
            0x0600..=0x0605
                | 0x06DD
                | 0x070F
                | 0x0890..=0x0891
                | 0x08E2
                | 0x110BD
                | 0x110CD
                | 0x2800
                | 0xFFF9..=0xFFFB
                | 0x13430..=0x1343F
                | 0x1D159
        )
}

/// `s` with every invisible character ([`is_invisible`]) and every other
/// whitespace written as a space; `None` when it has none of the first.
/// Its words are those a reader sees.
pub(crate) fn spaced(s: &str) -> Option<String> {
    let odd = |b: u8| b >= 0x80 || (b.is_ascii_control() && !b.is_ascii_whitespace());
    if !s.bytes().any(odd) || !s.chars().any(is_invisible) {
        return None;
    }
    Some(
        s.chars()
            .map(|c| {
                if is_invisible(c) || c.is_whitespace() {
                    ' '
                } else {
                    c
                }
            })
            .collect(),
    )
}

/// How many words a reader sees in `s`, counting at most `most`.
pub(crate) fn words(s: &str, most: usize) -> usize {
    let mut n = 0;
    let mut inside = false;
    for c in s.chars() {
        if c.is_whitespace() || is_invisible(c) {
            inside = false;
        } else if !inside {
            inside = true;
            n += 1;
            if n >= most {
                break;
            }
        }
    }
    n
}

/// Whether `c` parts the groups of an account number: a space, `.`, `-`,
/// `/`, `_`, or a Unicode dash or minus.
pub(crate) fn is_group_separator(c: char) -> bool {
    matches!(
        c,
        ' ' | '.' | '-' | '/' | '_' | '\u{2010}'
            ..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}'
    )
}

/// The separators of [`is_group_separator`] as a regex class.
macro_rules! sep {
    () => {
        r"(?:[ ./_\-]|(?u:[\x{2010}-\x{2015}\x{2212}\x{FE58}\x{FE63}\x{FF0D}]))"
    };
}

/// The IBANs in `text`, each canonical (lower case, its groups joined):
/// in capitals as written (`DE89 3704 …`, `DE89-3704-…`), and in any case
/// when their check digits are right (`de89-3704-…`, ISO 13616), so that
/// lower-case words are not read as accounts.
pub(crate) fn ibans(text: &str, out: &mut Vec<String>) {
    static IBAN: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(concat!(
            r"(?-u)\b[A-Za-z]{2}[0-9]{2}(?:",
            sep!(),
            r"?[A-Za-z0-9]{4}){2,7}(?:",
            sep!(),
            r"?[A-Za-z0-9]{1,3})?\b"
        ))
        .ok()
    });
    let Some(re) = IBAN.as_ref() else { return };
    for m in re.find_iter(text) {
        let written = &text[m.range()];
        let joined: String = written
            .chars()
            .filter(|c| !is_group_separator(*c))
            .collect();
        if !written.bytes().any(|b| b.is_ascii_lowercase()) {
            out.push(joined.to_ascii_lowercase());
            continue;
        }
        // In lower case the match may run on into the next words
        // (`de89 3704 … 00 from now`): the longest run of whole groups
        // whose check digits are right.
        let mut cuts: Vec<usize> = vec![joined.len()];
        let mut n = 0;
        let mut after_separator = false;
        for c in written.chars() {
            if is_group_separator(c) {
                if !after_separator {
                    cuts.push(n);
                }
                after_separator = true;
            } else {
                n += 1;
                after_separator = false;
            }
        }
        cuts.sort_unstable_by(|a, b| b.cmp(a));
        if let Some(iban) = cuts
            .into_iter()
            .filter_map(|len| joined.get(..len))
            .find(|v| v.len() >= 12 && iban_checks(v))
        {
            out.push(iban.to_ascii_lowercase());
        }
    }
}

/// Whether an IBAN's check digits are right (ISO 13616: its first four
/// characters moved to the end, letters as 10 to 35, the number modulo 97
/// is 1).
fn iban_checks(iban: &str) -> bool {
    let b = iban.as_bytes();
    if !(12..=34).contains(&b.len()) || !b.iter().all(u8::is_ascii_alphanumeric) {
        return false;
    }
    let (head, rest) = b.split_at(4);
    let mut r: u32 = 0;
    for &c in rest.iter().chain(head) {
        let v = match c {
            b'0'..=b'9' => u32::from(c - b'0'),
            _ => u32::from(c.to_ascii_uppercase() - b'A') + 10,
        };
        let shifted = if v < 10 { r * 10 + v } else { r * 100 + v };
        r = shifted % 97;
    }
    r == 1
}

/// Fewest digits of an account or phone number written in groups.
const MIN_NUMBER_DIGITS: usize = 8;

/// The numbers written in groups apart by `.`, `-`, `/`, `_` or a Unicode
/// dash in `text` (`1234-5678-9012`, `+44.20.7946.0958`), of eight digits
/// or more, each as its digits alone: how an account or a phone number is
/// compared ([`account_form`]). Groups apart by spaces need no reading: the
/// compact form of text has no spaces.
pub(crate) fn grouped_numbers(text: &str, out: &mut Vec<String>) {
    static NUMBER: LazyLock<Option<Regex>> = LazyLock::new(|| {
        // The separators of `sep!` but the space.
        Regex::new(concat!(
            r"(?-u)\b[0-9]+(?:(?:[./_\-]|(?u:[\x{2010}-\x{2015}\x{2212}\x{FE58}\x{FE63}\x{FF0D}]))",
            r"[0-9]+)+\b"
        ))
        .ok()
    });
    let Some(re) = NUMBER.as_ref() else { return };
    if text.len() < MIN_NUMBER_DIGITS {
        return;
    }
    for m in re.find_iter(text) {
        let digits: String = text[m.range()]
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        if digits.len() >= MIN_NUMBER_DIGITS {
            out.push(digits);
        }
    }
}

/// The canonical form of a key argument's compact value when it is an
/// account, card or phone number written with separators
/// (`de89-3704-…`, `+1-555-014-2368`, `4711.0815.2024`): the value without
/// them (and without a leading `+` or brackets), when that is letters and
/// digits with eight digits or more; `None` otherwise.
pub(crate) fn account_form(compact: &str) -> Option<String> {
    let mut out = String::with_capacity(compact.len());
    let mut changed = false;
    let mut digits = 0;
    for c in compact.chars() {
        if is_group_separator(c) || matches!(c, '+' | '(' | ')') {
            changed = true;
        } else if c.is_ascii_alphanumeric() {
            digits += usize::from(c.is_ascii_digit());
            out.push(c);
        } else {
            return None;
        }
    }
    (changed && digits >= MIN_NUMBER_DIGITS).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(f: fn(&str, &mut Vec<String>), text: &str) -> Vec<String> {
        let mut out = Vec::new();
        f(text, &mut out);
        out
    }

    #[test]
    fn invisible_characters_part_words() {
        assert_eq!(words("forward\u{200B}the\u{2060}invoices\u{AD}now", 10), 4);
        assert_eq!(words("one\u{1}two\u{2800}three\u{E0020}four", 10), 4);
        assert_eq!(words("plain words here", 2), 2);
        assert_eq!(spaced("plain ascii"), None);
        assert_eq!(spaced("caf\u{e9} au lait"), None);
        assert_eq!(
            spaced("to\u{200B}eve@evil.test\u{FEFF}now\u{A0}ok").as_deref(),
            Some("to eve@evil.test now ok")
        );
    }

    #[test]
    fn ibans_in_any_case_and_with_any_separator() {
        let de = vec!["de89370400440532013000".to_owned()];
        for written in [
            "DE89 3704 0044 0532 0130 00",
            "de89-3704-0044-0532-0130-00",
            "de89.3704.0044.0532.0130.00 from now on",
            "De89 3704 0044 0532 0130 00 from now",
            "DE89/3704/0044/0532/0130/00",
            "DE89\u{2011}3704\u{2011}0044\u{2011}0532\u{2011}0130\u{2011}00",
            "pay de89370400440532013000 today",
        ] {
            assert_eq!(all(ibans, written), de, "{written}");
        }
        assert_eq!(
            all(ibans, "gb29-nwbk-6016-1331-9268-19"),
            ["gb29nwbk60161331926819"]
        );
        // Lower-case words with the wrong check digits are not accounts.
        assert!(all(ibans, "de88-3704-0044-0532-0130-00").is_empty());
        assert!(all(ibans, "id42 from your bank").is_empty());
        // Capitals are taken as written, as before.
        assert_eq!(all(ibans, "US12 3456 7890 1234"), ["us12345678901234"]);
    }

    #[test]
    fn grouped_numbers_and_account_forms() {
        assert_eq!(
            all(grouped_numbers, "acct 1234-5678-9012."),
            ["123456789012"]
        );
        assert_eq!(all(grouped_numbers, "+1-555-014-2368"), ["15550142368"]);
        assert_eq!(all(grouped_numbers, "+44.20.7946.0958"), ["442079460958"]);
        assert!(all(grouped_numbers, "v1.2.3 and 10.1.2.3 and 12-34-56").is_empty());
        assert_eq!(
            account_form("+1-555-014-2368").as_deref(),
            Some("15550142368")
        );
        assert_eq!(
            account_form("de89-3704-0044-0532-0130-00").as_deref(),
            Some("de89370400440532013000")
        );
        assert_eq!(account_form("de89370400440532013000"), None);
        assert_eq!(account_form("ann@corp.example"), None);
        assert_eq!(account_form("12-34-56"), None);
    }
}
