//! Personal-data detectors (`pii`), one per entity, and their validators.
//!
//! The patterns find the shapes; the validators do the judging: Luhn and
//! issuer ranges for cards, the country length table and mod-97 for IBANs,
//! the never-issued ranges for SSNs, calling codes and North American
//! numbering rules for phones, address parsing for IPs.

use std::net::{Ipv4Addr, Ipv6Addr};

use super::validate::{all_digits, iban_mod97, luhn};
use super::{Detector, detector};

/// An IPv4 octet without leading zeros.
macro_rules! octet {
    () => {
        r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
    };
}

/// Nine digits (or `AAA GG SSSS`) right after an SSN label: `SSN 123456789`,
/// `"ssn": "123 45 6789"`, `social security no. 123456789`.
macro_rules! ssn_labelled {
    () => {
        concat!(
            r"|(?i:(?:\b|_)ssn|\bsocial[ _\-]?security(?:[ _\-]?(?:number|num|no\.?))?)\b",
            r#"["']?[ \t]*(?:[#:=][ \t]*)?(?:(?i:is|no\.?|number|num)[ \t#:=]*)?["']?"#,
            r"(?:[0-9]{9}|[0-9]{3} [0-9]{2} [0-9]{4})\b"
        )
    };
}

/// Every built-in personal-data detector, one per `pii` entity.
pub(crate) const PII: &[Detector] = &[
    detector!(
        "email",
        Pii,
        concat!(
            // A URL's `//user:password` is matched too, so that the
            // validator can reject it instead of reporting `password@host`.
            r"(?://[^\s:@/]*:[^\s@/]*|\b[A-Za-z0-9][A-Za-z0-9._%+-]{0,63})",
            r"@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}\b"
        ),
        Some(email),
        "Email address (not reserved example domains, git@host remotes or image@2x.png names)",
    ),
    detector!(
        "phone",
        Pii,
        concat!(
            r"\B\+[1-9](?:[ .\-]?(?:\([0-9]{1,4}\)[ .\-]?)?[0-9]){6,16}\b",
            r"|(?:\b1[ .\-]?)?(?:\([2-9][0-9]{2}\)[ .\-]?|\b[2-9][0-9]{2}[.\-])",
            r"[2-9][0-9]{2}[ .\-][0-9]{4}\b"
        ),
        Some(phone),
        "Phone number: international (+ and a calling code) or North American ((415) 555-2671, 415-555-2671)",
    ),
    detector!(
        "credit_card",
        Pii,
        // An IBAN's country and check digits are matched too, so that the
        // validator can reject the digit groups of a spaced IBAN.
        // A decimal point before or after is matched too, so that the
        // validator can reject the digits of a floating-point number.
        r"(?:\b[A-Z]{2}[0-9]{2} |\b[0-9]+\.)?\b[0-9](?:[ \-]?[0-9]){12,}(?:\.[0-9]+)?\b",
        Some(credit_card),
        "Payment card number (Luhn-valid, in a known issuer range; 13–16 plain digits or grouped 4-4-4-4 / 4-6-5 up to 19)",
    ),
    detector!(
        "us_ssn",
        Pii,
        concat!(
            // Longer dash-separated runs are matched whole so that the
            // validator can reject part numbers such as 12-345-67-8901.
            r"\b(?:[0-9]+-)*[0-9]{3}-[0-9]{2}-[0-9]{4}(?:-[0-9]+)*\b",
            // Without dashes only right after an SSN label.
            ssn_labelled!(),
            // A table (CSV, TSV, Markdown) with an `ssn` column: its header
            // line and the rows after it that hold nine digits; the
            // validator reports the column's cells.
            r"|[^\r\n]*(?i:(?:\b|_)ssn)\b[^\r\n]*(?:\r?\n[ \t|:\-]*)?",
            r"(?:\r?\n[^\r\n]*[0-9]{3}[ \-]?[0-9]{2}[ \-]?[0-9]{4}[^\r\n]*)+",
        ),
        Some(us_ssn),
        "US Social Security number: AAA-GG-SSSS, nine digits after an SSN label or in a table column named ssn (never-issued ranges excluded)",
    )
    .paired(ssn_pair)
    .focused(ssn_spans)
    .apart(),
    detector!(
        "iban",
        Pii,
        r"\b[A-Z]{2}[0-9]{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?)\b",
        Some(iban),
        "International Bank Account Number (country length and mod-97 checked)",
    ),
    detector!(
        "ip_address",
        Pii,
        concat!(
            // IPv4. A product/ or version prefix is matched so that the
            // validator can reject `Chrome/120.0.0.0` and `v1.2.3.4`, and
            // longer dotted runs (OIDs, versions) are matched whole.
            r"(?:\b[A-Za-z][A-Za-z0-9_-]*/|(?i:\b(?:version|ver|v|release|build|firmware|fw))[:.]?[ ]?|\b)",
            octet!(),
            r"(?:\.",
            octet!(),
            r"){3}(?:\.[0-9]+)*\b",
            // IPv6: a loose run with two colons, parsed by the validator.
            r"|(?:\b[0-9A-Fa-f]{1,4}:|\B:)[0-9A-Za-z.%]*:[0-9A-Za-z:.%]*"
        ),
        Some(ip_address),
        "IPv4 or IPv6 address (not 0.0.0.0, broadcast, netmasks, version-like x.y.z.w, OIDs or code paths)",
    ),
];

/// Top-level domains that are file extensions, never mail domains
/// (`icon@2x.png`, `pkg@dist.js`).
const FILE_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "svg", "webp", "ico", "bmp", "tiff", "pdf", "js", "mjs", "css",
    "html", "htm", "json", "yaml", "yml", "xml", "txt", "ts", "tsx", "jsx", "java", "go", "rb",
    "toml", "lock", "log", "ini", "cfg", "conf",
];

/// Domains reserved for documentation and testing (RFC 2606, RFC 6761).
fn reserved_domain(domain: &str) -> bool {
    let tld = domain.rsplit('.').next().unwrap_or_default();
    let reserved_tld = ["example", "test", "invalid", "localhost", "local"].contains(&tld);
    let reserved_sld = ["example.com", "example.net", "example.org"]
        .iter()
        .any(|d| domain == *d || domain.ends_with(&format!(".{d}")));
    reserved_tld || reserved_sld
}

/// Not a URL's `//user:password@host`, not a malformed local part, not
/// `git@host`, not a file name (`icon@2x.png`), not a reserved domain.
fn email(m: &str) -> bool {
    if m.starts_with("//") {
        return false;
    }
    let Some((local, domain)) = m.rsplit_once('@') else {
        return false;
    };
    let domain = domain.to_ascii_lowercase();
    let tld = domain.rsplit('.').next().unwrap_or_default();
    !local.ends_with('.')
        && !local.contains("..")
        && local != "git"
        && !FILE_EXTENSIONS.contains(&tld)
        && !reserved_domain(&domain)
}

/// Two-digit calling-code prefixes that are not assigned (zones 2, 8 have
/// gaps); everything else starting with 1–9 is.
const UNASSIGNED_CALLING_PREFIXES: &[&str] = &["28", "83", "89"];

/// North American numbering: area code and exchange start with 2–9 and are
/// not N11 service codes; 555-0100…0199 are reserved for fiction.
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
fn nanp(d: &[u8]) -> bool {
    if d.len() != 10 {
        return false;
    }
    let n11 = |x: &[u8]| x[1] == b'1' && x[2] == b'1';
    let (npa, nxx, line) = (&d[..3], &d[3..6], &d[6..]);
    let fictional = nxx == b"555" && line[0] == b'0' && line[1] == b'1';
    npa[0] >= b'2' && nxx[0] >= b'2' && !n11(npa) && !n11(nxx) && !fictional
}

/// International: calling code assigned, 8–15 digits, +1 numbers valid
/// North American ones, not a date, ending in a group of 2+ digits.
/// National: North American area code and exchange, one separator style.
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
fn phone(m: &str) -> bool {
    let digits: Vec<u8> = m
        .replace("(0)", "")
        .bytes()
        .filter(u8::is_ascii_digit)
        .collect();
    if let Some(number) = m.strip_prefix('+') {
        // `+9999-12-31`, `+9999-365` are expanded-year dates: a number's
        // calling code is never followed by a dash after four digits.
        let first = number.split('-').next().unwrap_or_default();
        if m.contains('-') && first.len() >= 4 && all_digits(first) {
            return false;
        }
        // Numbers end in a group of two or more digits; `+35236450.6` is a
        // decimal.
        let last = m.rsplit([' ', '.', '-', ')']).next().unwrap_or_default();
        if last.len() < 2 {
            return false;
        }
        let prefix = std::str::from_utf8(&digits[..2.min(digits.len())]).unwrap_or_default();
        return match digits.first() {
            Some(b'1') => digits.len() == 11 && nanp(&digits[1..]),
            Some(b'7') => digits.len() == 11,
            Some(_) => {
                (8..=15).contains(&digits.len()) && !UNASSIGNED_CALLING_PREFIXES.contains(&prefix)
            }
            None => false,
        };
    }
    let national = match digits.len() {
        11 if digits[0] == b'1' => &digits[1..],
        10 => &digits[..],
        _ => return false,
    };
    if !m.contains('(') {
        // 415-555-2671 and 415.555.2671, not 415-555.2671.
        let seps: Vec<char> = m
            .trim_start_matches(['1', ' ', '-', '.'])
            .chars()
            .filter(|c| !c.is_ascii_digit())
            .collect();
        if seps.windows(2).any(|w| w[0] != w[1]) {
            return false;
        }
    }
    nanp(national)
}

/// Whether `d` (digits only) is in a known issuer range with a length that
/// issuer uses.
fn issuer_range(d: &[u8]) -> bool {
    let n = d.len();
    let prefix = |k: usize| -> u32 {
        d.iter()
            .take(k)
            .fold(0, |acc, &b| acc * 10 + u32::from(b - b'0'))
    };
    let (p1, p2, p3, p4, p6) = (prefix(1), prefix(2), prefix(3), prefix(4), prefix(6));
    let visa = p1 == 4 && matches!(n, 13 | 16 | 19);
    let mastercard = ((51..=55).contains(&p2) || (2221..=2720).contains(&p4)) && n == 16;
    let amex = matches!(p2, 34 | 37) && n == 15;
    let discover =
        (p4 == 6011 || (644..=649).contains(&p3) || p2 == 65 || (622_126..=622_925).contains(&p6))
            && (16..=19).contains(&n);
    let unionpay = p2 == 62 && (16..=19).contains(&n);
    let jcb = (3528..=3589).contains(&p4) && (16..=19).contains(&n);
    let diners = ((300..=305).contains(&p3) || p4 == 3095 || matches!(p2, 36 | 38 | 39))
        && (14..=19).contains(&n);
    let maestro = matches!(p4, 5018 | 5020 | 5038 | 5893 | 6304 | 6759 | 6761..=6763)
        && (13..=19).contains(&n);
    let mir = (2200..=2204).contains(&p4) && (16..=19).contains(&n);
    let rupay = (matches!(p2, 60 | 81 | 82) || p3 == 508) && n == 16;
    let troy = p4 == 9792 && n == 16;
    visa || mastercard
        || amex
        || discover
        || unionpay
        || jcb
        || diners
        || maestro
        || mir
        || rupay
        || troy
}

/// How card numbers are written in groups: fours with a shorter last group
/// (4-4-4-4, 4-4-4-4-3), Amex 4-6-5 and Diners 4-6-4.
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
fn card_layout(groups: &[&str]) -> bool {
    let lens: Vec<usize> = groups.iter().map(|g| g.len()).collect();
    match lens[..] {
        [_] => true,
        [4, 6, 5] | [4, 6, 4] | [4, 4, 5] => true,
        [.., last] => lens[..lens.len() - 1].iter().all(|&l| l == 4) && (1..=4).contains(&last),
        [] => false,
    }
}

/// Only digits, one separator style, a card layout, 13–19 digits (13–16
/// unseparated), Luhn, and a known issuer range for that length.
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
fn credit_card(m: &str) -> bool {
    if !m
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b' ' || b == b'-')
    {
        return false;
    }
    if m.contains('-') && m.contains(' ') {
        return false;
    }
    let groups: Vec<&str> = m.split([' ', '-']).collect();
    let valid = |groups: &[&str]| {
        let digits: Vec<u8> = groups.iter().flat_map(|g| g.bytes()).collect();
        // Unseparated runs of 17–19 digits are far more often integer
        // constants and ids than the rare 19-digit card.
        let plain_ok = groups.len() > 1 || digits.len() <= 16;
        plain_ok
            && card_layout(groups)
            && (13..=19).contains(&digits.len())
            && luhn(&digits)
            && issuer_range(&digits)
    };
    // An expiry or CVV may follow the number (`4111 … 1111 12/26`): short
    // trailing groups may be dropped, never a group of four, which would
    // take a card number out of a longer run of digits.
    let mut k = groups.len();
    loop {
        if valid(&groups[..k]) {
            return true;
        }
        match groups[..k].last() {
            Some(last) if k > 1 && last.len() < 4 => k -= 1,
            _ => return false,
        }
    }
}

/// AAA-GG-SSSS (no longer dash-separated run), the nine digits after an
/// SSN label, or a table's `ssn` column ([`ssn_spans`]), in issued ranges.
fn us_ssn(m: &str) -> bool {
    if m.contains('\n') {
        return !ssn_spans(m).is_empty();
    }
    if m.starts_with(|c: char| c.is_ascii_digit()) {
        let groups: Vec<&str> = m.split('-').collect();
        return matches!(groups[..], [area, group, serial]
            if area.len() == 3 && group.len() == 2 && serial.len() == 4
                && ssn_ranges(area, group, serial));
    }
    // `SSN: 123456789`, `social security number 123 45 6789`.
    ssn_digits(
        m.rsplit(|c: char| !c.is_ascii_digit() && c != ' ')
            .next()
            .unwrap_or(m),
    )
}

/// Nine digits, plain or grouped 3-2-4 with spaces or dashes, in issued ranges.
fn ssn_digits(v: &str) -> bool {
    let v = v.trim();
    let plain = v.len() == 9 && all_digits(v);
    let b = v.as_bytes();
    let grouped = v.len() == 11
        && matches!(b.get(3), Some(b' ' | b'-'))
        && b.get(6) == b.get(3)
        && v.bytes()
            .enumerate()
            .all(|(i, b)| i == 3 || i == 6 || b.is_ascii_digit());
    if !(plain || grouped) {
        return false;
    }
    let digits: String = v.chars().filter(char::is_ascii_digit).collect();
    ssn_ranges(&digits[..3], &digits[3..5], &digits[5..])
}

/// Whether a name is an SSN's: `ssn` as a word of it (`ssn`, `customer_ssn`,
/// `SSN #`, `employeeSSN`) or `social security`.
fn ssn_name(key: &str) -> bool {
    let lower = key.to_ascii_lowercase();
    let squeezed: String = lower.chars().filter(char::is_ascii_alphanumeric).collect();
    if squeezed.contains("socialsecurity") {
        return true;
    }
    // `employeeSSN`: an upper-case word in a camel-case name.
    if key.contains("SSN") {
        return true;
    }
    lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w == "ssn" || w == "ssns")
}

/// A JSON member named like an SSN holding nine digits (`"ssn": "123 45 6789"`).
fn ssn_pair(key: &str, value: &str) -> bool {
    ssn_digits(value) && ssn_name(key)
}

/// The spans a `us_ssn` match reports: the whole match, or for a table the
/// cells of its `ssn` column that hold an SSN, and any other SSN in it.
fn ssn_spans(m: &str) -> Vec<(usize, usize)> {
    if !m.contains('\n') {
        return vec![(0, m.len())];
    }
    let mut spans = table_cells(m);
    // Labelled or dashed SSNs elsewhere in the match.
    static SIMPLE: std::sync::LazyLock<Option<regex_automata::meta::Regex>> =
        std::sync::LazyLock::new(|| {
            regex_automata::meta::Regex::new(concat!(
                r"\b(?:[0-9]+-)*[0-9]{3}-[0-9]{2}-[0-9]{4}(?:-[0-9]+)*\b",
                ssn_labelled!()
            ))
            .ok()
        });
    if let Some(re) = SIMPLE.as_ref() {
        for found in re.find_iter(m) {
            let text = &m[found.range()];
            if !text.contains('\n')
                && us_ssn(text)
                && !spans
                    .iter()
                    .any(|&(s, e)| s < found.end() && found.start() < e)
            {
                spans.push((found.start(), found.end()));
            }
        }
    }
    spans.sort_unstable();
    spans
}

/// The cells of a table's `ssn` column that hold an SSN: the header is the
/// first line, split on the first of `,`, tab, `;`, `|` it holds.
fn table_cells(m: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut lines = m.split('\n');
    let header = lines.next().unwrap_or_default();
    let Some(sep) = [',', '\t', ';', '|']
        .into_iter()
        .find(|&c| header.contains(c))
    else {
        return spans;
    };
    let Some(column) = header
        .split(sep)
        .position(|h| ssn_name(h.trim().trim_matches(['"', '\'', '*', '`'])))
    else {
        return spans;
    };
    let mut offset = header.len() + 1;
    for line in lines {
        let mut at = offset;
        for (i, cell) in line.split(sep).enumerate() {
            if i == column {
                let trimmed = cell.trim_end_matches('\r');
                let inner = trimmed.trim().trim_matches(['"', '\'']);
                if ssn_digits(inner)
                    && let Some(start) = trimmed.find(inner)
                {
                    spans.push((at + start, at + start + inner.len()));
                }
                break;
            }
            at += cell.len() + sep.len_utf8();
        }
        offset += line.len() + 1;
    }
    spans
}

/// Never issued: area 000, 666, 900–999; group 00; serial 0000; and the
/// two numbers the SSA voided after they were printed in advertising.
fn ssn_ranges(area: &str, group: &str, serial: &str) -> bool {
    let voided =
        ["078-05-1120", "219-09-9999"].contains(&format!("{area}-{group}-{serial}").as_str());
    area != "000"
        && area != "666"
        && !area.starts_with('9')
        && group != "00"
        && serial != "0000"
        && !voided
}

/// IBAN lengths by country (SWIFT IBAN registry).
const IBAN_LENGTHS: &[(&str, usize)] = &[
    ("AD", 24),
    ("AE", 23),
    ("AL", 28),
    ("AT", 20),
    ("AZ", 28),
    ("BA", 20),
    ("BE", 16),
    ("BG", 22),
    ("BH", 22),
    ("BI", 27),
    ("BR", 29),
    ("BY", 28),
    ("CH", 21),
    ("CR", 22),
    ("CY", 28),
    ("CZ", 24),
    ("DE", 22),
    ("DJ", 27),
    ("DK", 18),
    ("DO", 28),
    ("EE", 20),
    ("EG", 29),
    ("ES", 24),
    ("FI", 18),
    ("FK", 18),
    ("FO", 18),
    ("FR", 27),
    ("GB", 22),
    ("GE", 22),
    ("GI", 23),
    ("GL", 18),
    ("GR", 27),
    ("GT", 28),
    ("HR", 21),
    ("HU", 28),
    ("IE", 22),
    ("IL", 23),
    ("IQ", 23),
    ("IS", 26),
    ("IT", 27),
    ("JO", 30),
    ("KW", 30),
    ("KZ", 20),
    ("LB", 28),
    ("LC", 32),
    ("LI", 21),
    ("LT", 20),
    ("LU", 20),
    ("LV", 21),
    ("LY", 25),
    ("MC", 27),
    ("MD", 24),
    ("ME", 22),
    ("MK", 19),
    ("MN", 20),
    ("MR", 27),
    ("MT", 31),
    ("MU", 30),
    ("NI", 28),
    ("NL", 18),
    ("NO", 15),
    ("OM", 23),
    ("PK", 24),
    ("PL", 28),
    ("PS", 29),
    ("PT", 25),
    ("QA", 29),
    ("RO", 24),
    ("RS", 22),
    ("RU", 33),
    ("SA", 24),
    ("SC", 31),
    ("SD", 18),
    ("SE", 24),
    ("SI", 19),
    ("SK", 24),
    ("SM", 27),
    ("SO", 23),
    ("ST", 25),
    ("SV", 28),
    ("TL", 23),
    ("TN", 24),
    ("UA", 29),
    ("VA", 22),
    ("VG", 24),
    ("XK", 20),
    ("YE", 30),
];

/// A compact IBAN of a known country with that country's length and a
/// valid mod-97 check.
fn iban_valid(compact: &str) -> bool {
    let country = compact.get(..2).unwrap_or_default();
    IBAN_LENGTHS
        .iter()
        .any(|&(c, len)| c == country && len == compact.len())
        && iban_mod97(compact)
}

/// [`iban_valid`] on the match without spaces, or without a trailing short
/// word that the last group absorbed.
fn iban(m: &str) -> bool {
    let compact: String = m.split(' ').collect();
    if iban_valid(&compact) {
        return true;
    }
    // A short word after a grouped IBAN (`… 1332 EUR`) joins its last group.
    match m.rsplit_once(' ') {
        Some((head, _)) => iban_valid(&head.split(' ').collect::<String>()),
        None => false,
    }
}

/// IPv6: parses (zone id aside), not `::`, not a code path or slice.
/// IPv4: exactly four parts, no version or product prefix, not four single
/// digits, not 0.x.x.x or 255.x.x.x.
fn ip_address(m: &str) -> bool {
    if m.contains(':') {
        let addr = m.trim_end_matches('.');
        let addr = addr.split_once('%').map_or(addr, |(a, _)| a);
        // `c::FF0`, `abc::def` are paths: an address's first group has a
        // digit. `1::2`, `5::` are slices: a short compressed address has a
        // group of three or more hex digits (or is the loopback `::1`).
        let first = addr.split(':').next().unwrap_or_default();
        let groups: Vec<&str> = addr.split(':').filter(|g| !g.is_empty()).collect();
        let slice = groups.len() <= 2 && groups.iter().all(|g| g.len() < 3) && addr != "::1";
        return (first.is_empty() || first.bytes().any(|b| b.is_ascii_digit()))
            && !slice
            && addr.bytes().any(|b| b.is_ascii_digit())
            && addr.parse::<Ipv6Addr>().is_ok_and(|a| !a.is_unspecified());
    }
    if m.starts_with(|c: char| c.is_ascii_alphabetic()) || m.split('.').count() != 4 {
        return false;
    }
    // Four single digits read as a version (`1.2.3.4`, `4.0.0.0`); the
    // addresses of that form are public resolvers, not personal data.
    let versionish = m.split('.').all(|p| p.len() == 1);
    !versionish
        && m.parse::<Ipv4Addr>()
            .is_ok_and(|a| a.octets()[0] != 0 && a.octets()[0] != 255)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cards() {
        assert!(credit_card("4111 1111 1111 1111"));
        assert!(credit_card("4111-1111-1111-1111"));
        assert!(credit_card("3782 822463 10005"));
        assert!(credit_card("5555555555554444"));
        assert!(credit_card("2223003122003222"));
        assert!(credit_card("4111 1111 1111 1111 12"));
        assert!(!credit_card("4111 1111 1111 1112"));
        assert!(!credit_card("4111-1111 1111-1111"));
        assert!(!credit_card("1234567812345670"));
        assert!(!credit_card("0.4111111111111111"));
        assert!(!credit_card("4488286894823169796"));
    }

    #[test]
    fn ssns() {
        assert!(us_ssn("123-45-6789"));
        assert!(!us_ssn("000-12-3456"));
        assert!(!us_ssn("666-12-3456"));
        assert!(!us_ssn("912-12-3456"));
        assert!(!us_ssn("123-00-3456"));
        assert!(!us_ssn("123-45-0000"));
        assert!(!us_ssn("078-05-1120"));
        assert!(!us_ssn("12-123-45-6789"));
        assert!(us_ssn("SSN: 123456789"));
        assert!(us_ssn("social security number 123 45 6789"));
        assert!(!us_ssn("SSN: 666456789"));
    }

    #[test]
    fn ibans() {
        assert!(iban("DE89 3704 0044 0532 0130 00"));
        assert!(iban("GB82WEST12345698765432"));
        assert!(!iban("DE89 3704 0044 0532 0130 01"));
        assert!(!iban("DE89370400440532013"));
    }

    #[test]
    fn ips() {
        assert!(ip_address("192.168.1.20"));
        assert!(ip_address("2001:db8::1"));
        assert!(ip_address("fe80::1%eth0"));
        assert!(!ip_address("0.0.0.0"));
        assert!(!ip_address("255.255.255.0"));
        assert!(!ip_address("v1.2.3.4"));
        assert!(!ip_address("1.3.6.1.4.1"));
        assert!(!ip_address("12:30:45"));
        assert!(!ip_address("abc::def"));
        assert!(!ip_address("c::FF0"));
        assert!(!ip_address("1::2"));
        assert!(ip_address("::1"));
        assert!(!ip_address("4.0.0.0"));
    }

    #[test]
    fn phones() {
        assert!(phone("+1 (415) 555-2671"));
        assert!(phone("+44 20 7946 0958"));
        assert!(phone("(415) 555-2671"));
        assert!(phone("415-555-2671"));
        assert!(!phone("415-555.2671"));
        assert!(!phone("123-456-7890"));
        assert!(!phone("(415) 555-0123"));
        assert!(!phone("+1 234"));
        assert!(!phone("+9999-12-31 23"));
        assert!(!phone("+9999-365 23"));
        assert!(!phone("+35236450.6"));
    }
}
