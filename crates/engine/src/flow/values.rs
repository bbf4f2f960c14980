//! The values a request carries, as flow checks compare them: strings
//! sorted into free text and short values, each compact; the addresses,
//! links and accounts in a string; the documents a tool output is and the
//! ones a user's request points at.

use std::sync::LazyLock;

use regex_automata::meta::Regex;

use super::spellings;

/// The words of a request that ask to pay what a file bills. Not
/// `transfer` or `wire`, which also move files: "transfer report.pdf to
/// the archive" leaves no account to the report.
const PAY_WORDS: &[&str] = &["pay", "pays", "paying", "payment", "payments", "settle"];
/// The file name extensions of documents.
const DOCUMENT_EXTENSIONS: &[&str] = &[
    "txt", "md", "pdf", "doc", "docx", "odt", "rtf", "xls", "xlsx", "ods", "csv", "tsv", "ppt",
    "pptx", "odp", "eml", "msg", "ics", "vcf", "html", "htm", "xml", "json", "yaml", "yml", "log",
];
/// Most documents one step keeps.
pub(super) const MAX_STEP_DOCUMENTS: usize = 64;
/// Most documents the user pointed at that a value is weighed against
/// (the latest).
pub(super) const MAX_POINTED: usize = 256;

/// Whether a compact value is an IBAN-shaped account number.
pub(super) fn is_account(value: &str) -> bool {
    let b = value.as_bytes();
    (12..=34).contains(&b.len())
        && b.iter().take(2).all(u8::is_ascii_lowercase)
        && b.iter().skip(2).take(2).all(u8::is_ascii_digit)
        && b.iter().all(u8::is_ascii_alphanumeric)
}

/// The compact file name a string names, when it is one: the last part
/// of a path whose extension is a document's (`bill-june-2025.txt`,
/// `/home/me/requests.md`), not an address or a link.
pub(crate) fn document_name(s: &str) -> Option<String> {
    let s = s.trim_matches(|c: char| {
        c.is_whitespace()
            || matches!(
                c,
                '"' | '\''
                    | '`'
                    | '('
                    | ')'
                    | '['
                    | ']'
                    | '<'
                    | '>'
                    | '{'
                    | '}'
                    | ','
                    | ';'
                    | ':'
                    | '!'
                    | '?'
                    | '*'
            )
    });
    let s = s.trim_end_matches('.');
    if s.contains('@') || s.contains("://") || s.chars().any(char::is_whitespace) {
        return None;
    }
    let last = s.rsplit(['/', '\\']).next().unwrap_or(s);
    let (stem, ext) = last.rsplit_once('.')?;
    let known = DOCUMENT_EXTENSIONS
        .iter()
        .any(|e| e.eq_ignore_ascii_case(ext));
    (known && !stem.trim_matches('.').is_empty()).then(|| compact(last))
}

/// The files a request of the user asks to pay: the file names it holds,
/// when it asks to pay and gives no account number itself (`named`: the
/// addresses, links and accounts read from it) — the user leaves the
/// account to the bill.
pub(crate) fn pointed(content: &str, named: &[String]) -> Vec<String> {
    let pays = content
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| PAY_WORDS.iter().any(|p| p.eq_ignore_ascii_case(w)));
    if !pays {
        return Vec::new();
    }
    if named.iter().any(|e| is_account(e)) {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    for name in content.split_whitespace().filter_map(document_name) {
        if out.len() < MAX_STEP_DOCUMENTS && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The values a string of a session's step holds, each compact: its
/// addresses, links and IBANs as written, folded, and with invisible
/// characters read as spaces (`to\u{200B}eve@evil.example\u{200B}now`), and its
/// numbers written in groups (`1234-5678-9012`) as their digits.
pub(crate) fn read_values(s: &str, out: &mut Vec<String>) {
    entities(s, out);
    if let Some(f) = folded(s) {
        entities(&f, out);
    }
    if let Some(spaced) = spellings::spaced(s) {
        entities(&spaced, out);
        if let Some(f) = folded(&spaced) {
            entities(&f, out);
        }
    }
    spellings::grouped_numbers(s, out);
    out.sort_unstable();
    out.dedup();
}

/// `s` folded as its compact form is ([`compact`]: compatibility forms,
/// look-alike letters, invisible characters, `。` as `.`), in lower case,
/// with its words kept apart; `None` when `s` is ASCII. Addresses and
/// links spelt in full-width letters or with ideographic dots are found
/// in it.
pub(crate) fn folded(s: &str) -> Option<String> {
    if s.is_ascii() {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    for (i, word) in s.split(char::is_whitespace).enumerate() {
        if i > 0 {
            out.push(' ');
        }
        crate::view::push_compact(word, &mut out);
    }
    Some(out)
}

/// `s` with its `%XX` escapes decoded, as a URL's reader decodes them
/// (again while that changes it, at most three times:
/// `%2563` is `%63` is `c`); `None` when it has none.
pub(crate) fn percent_decoded(s: &str) -> Option<String> {
    fn hex(b: u8) -> Option<u8> {
        char::from(b)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    }
    fn once(s: &str) -> Option<String> {
        let b = s.as_bytes();
        let mut out = Vec::with_capacity(b.len());
        let mut i = 0;
        let mut changed = false;
        while let Some(&c) = b.get(i) {
            let escaped = (c == b'%')
                .then(|| Some(hex(*b.get(i + 1)?)? * 16 + hex(*b.get(i + 2)?)?))
                .flatten();
            match escaped {
                Some(byte) => {
                    out.push(byte);
                    changed = true;
                    i += 3;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        }
        changed.then(|| String::from_utf8_lossy(&out).into_owned())
    }
    if !s.contains('%') {
        return None;
    }
    let mut decoded = once(s)?;
    for _ in 0..2 {
        match once(&decoded) {
            Some(again) => decoded = again,
            None => break,
        }
    }
    Some(decoded)
}

/// The compact form of a value: the normalised view of the text checks
/// (compatibility forms, look-alike letters, invisible characters), in
/// lower case, without whitespace — `DE89 3704 0044` and `de8937040044`
/// are one value.
pub(crate) fn compact(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    crate::view::push_compact(s, &mut out);
    out
}

/// E-mail addresses, links (whole, without their query, their host with
/// and without its port) and IBANs ([`spellings::ibans`]) in a string,
/// each compact.
pub(crate) fn entities(text: &str, out: &mut Vec<String>) {
    static EMAIL: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(r"[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+").ok()
    });
    static LINK: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            // A host with dots, a dotted IPv4 address, or after a scheme
            // also an address written as one number (`http://167772675/`,
            // `http://0xa010203/`) or an IPv6 one (`http://[::1]/`).
            concat!(
                r"(?i)(?:[a-z][a-z0-9+.\-]*://(?:[^\s/?#@<>]*@)?)?(?:(?:[a-z0-9\-]+\.)+[a-z]{2,}|[0-9]{1,3}(?:\.[0-9]{1,3}){3})",
                r"(?::[0-9]{1,5})?(?:/[^\s<>]*)?",
                r"|[a-z][a-z0-9+.\-]*://(?:[^\s/?#@<>]*@)?(?:0x[0-9a-f]{1,8}|[0-9]{1,10}|\[[0-9a-f:.]+\])",
                r"(?::[0-9]{1,5})?(?:/[^\s<>]*)?",
            ),
        )
        .ok()
    });
    let bytes = text.as_bytes();
    let mut emails: Vec<(usize, usize)> = Vec::new();
    if let Some(re) = EMAIL.as_ref() {
        for m in re.find_iter(text) {
            emails.push((m.start(), m.end()));
            out.push(compact(&text[m.range()]));
            // `user@host/path` or `user@host:8080` is a link whose user
            // part looks like an address (`curl a.example@evil.example/x`):
            // its host is a value too. (An address followed by a colon in
            // prose, `ann@corp.example: thanks`, is not.)
            let after = bytes.get(m.end()..).unwrap_or_default();
            let link = after.first() == Some(&b'/')
                || (after.first() == Some(&b':') && after.get(1).is_some_and(u8::is_ascii_digit));
            if link && let Some((_, host)) = text[m.range()].rsplit_once('@') {
                out.push(compact(host));
            }
        }
    }
    if let Some(re) = LINK.as_ref() {
        for m in re.find_iter(text) {
            // Not a piece of an address or of a longer word (a link with
            // a user part, `https://a.example@evil.example/`, holds one).
            let inside = !text[m.range()].contains("://")
                && emails.iter().any(|&(s, e)| m.start() < e && s < m.end());
            let before = m.start().checked_sub(1).and_then(|i| bytes.get(i));
            let glued =
                before.is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'@' || b == b'.');
            if inside || glued {
                continue;
            }
            let link = text[m.range()].trim_end_matches(['.', ',', ';', ':', ')', '"', '\'']);
            out.push(compact(link));
            let bare = link.split(['?', '#']).next().unwrap_or(link);
            out.push(compact(bare));
            let host = bare.split_once("://").map_or(bare, |(_, rest)| rest);
            let host = host.split('/').next().unwrap_or(host);
            // Without its user part: `a.example@evil.example` goes to
            // `evil.example`.
            let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
            out.push(compact(host));
            if let Some((name, _port)) = host.rsplit_once(':') {
                out.push(compact(name));
            }
        }
    }
    spellings::ibans(text, out);
    out.sort_unstable();
    out.dedup();
}
