//! Sink arguments that are base64 or base64url of text, read as what they
//! spell: a mail API's `raw` message (Gmail's `users.messages.send` takes
//! the whole MIME message so), its recipient headers and its body, also
//! where a part of it is base64 or quoted-printable again.

/// Shortest encoded string read (shorter ones are ids, not messages).
const MIN_ENCODED: usize = 16;
/// Most layers of encoding read: a base64 message whose part is base64.
const MAX_DEPTH: usize = 3;
/// The headers that name who receives a message or its replies.
const RECIPIENT_HEADERS: &[&str] = &[
    "to",
    "cc",
    "bcc",
    "reply-to",
    "resent-to",
    "resent-cc",
    "resent-bcc",
    "mail-followup-to",
    "disposition-notification-to",
    "return-receipt-to",
];

/// The text `s` spells when it is base64 or base64url (padded or not,
/// wrapped in lines or not) of UTF-8 text; `None` when it is not, or spells
/// bytes that are not text (a picture, an id).
pub(crate) fn base64_text(s: &str) -> Option<String> {
    let s = s.trim_matches(|c: char| c.is_ascii_whitespace());
    if s.len() < MIN_ENCODED {
        return None;
    }
    let body = s.trim_end_matches('=');
    if s.len() - body.len() > 2 {
        return None;
    }
    // Lines of a wrapped encoding are one run.
    let compact: String = body.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
    let out = crate::detect::base64_decode(&compact)?;
    let text = String::from_utf8(out).ok()?;
    let is_text = text
        .chars()
        .all(|c| !c.is_control() || matches!(c, '\t' | '\r' | '\n'));
    is_text.then_some(text)
}

/// What a decoded string carries, each with whether it is a key value:
/// a MIME message's recipient headers (unfolded) as key values, the whole
/// text as a key value only when it is not a message, its quoted-printable
/// body decoded, and the base64 blocks in it decoded in turn.
pub(crate) fn read_decoded(text: &str, key: bool, out: &mut Vec<(String, bool)>) {
    read(text, key, 0, out);
}

fn read(text: &str, key: bool, depth: usize, out: &mut Vec<(String, bool)>) {
    let mut message = false;
    for (name, value) in headers(text) {
        message = true;
        if RECIPIENT_HEADERS
            .iter()
            .any(|h| h.eq_ignore_ascii_case(name.trim()))
        {
            out.push((value, true));
        }
    }
    out.push((text.to_owned(), key && !message));
    if message && contains_ignore_case(text, "quoted-printable") {
        out.push((quoted_printable(text), false));
    }
    if depth + 1 >= MAX_DEPTH {
        return;
    }
    // Base64 blocks: runs of lines of base64 letters alone (a part's
    // body), ended by a line that is not one, or by padding; a part's
    // boundary (`--b1`) is not one.
    let mut block = String::new();
    for line in text.lines().chain(std::iter::once("")) {
        let line = line.trim_end_matches('\r');
        let letters = line.trim_end_matches('=');
        let encoded = !letters.is_empty()
            && !line.starts_with("--")
            && letters
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_'));
        if encoded {
            block.push_str(line);
            if letters.len() == line.len() {
                continue;
            }
        }
        if block.len() >= MIN_ENCODED
            && let Some(inner) = base64_text(&block)
        {
            read(&inner, false, depth + 1, out);
        }
        block.clear();
    }
}

/// The header fields at the start of a MIME message, unfolded, as
/// (name, value); empty when `text` does not start with one.
fn headers(text: &str) -> Vec<(&str, String)> {
    let mut out: Vec<(&str, String)> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            break;
        }
        if line.starts_with([' ', '\t']) {
            // A folded field goes on; before any field it is no header.
            match out.last_mut() {
                Some((_, value)) => {
                    value.push(' ');
                    value.push_str(line.trim());
                    continue;
                }
                None => return Vec::new(),
            }
        }
        let Some((name, value)) = line.split_once(':') else {
            return if out.is_empty() { Vec::new() } else { out };
        };
        let is_name =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if !is_name {
            return if out.is_empty() { Vec::new() } else { out };
        }
        out.push((name, value.trim().to_owned()));
    }
    out
}

fn contains_ignore_case(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// `text` with its quoted-printable escapes (`=40`) decoded and its soft
/// line breaks (`=` at a line's end) joined.
fn quoted_printable(text: &str) -> String {
    fn hex(b: u8) -> Option<u8> {
        char::from(b)
            .to_digit(16)
            .and_then(|d| u8::try_from(d).ok())
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'=' {
            match (b.get(i + 1), b.get(i + 2)) {
                (Some(b'\r'), Some(b'\n')) => {
                    i += 3;
                    continue;
                }
                (Some(b'\n'), _) => {
                    i += 2;
                    continue;
                }
                (Some(&h), Some(&l)) => {
                    if let (Some(h), Some(l)) = (hex(h), hex(l)) {
                        out.push(h * 16 + l);
                        i += 3;
                        continue;
                    }
                }
                _ => {}
            }
        }
        out.push(c);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(s: &str) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        read_decoded(&base64_text(s).unwrap(), true, &mut out);
        out
    }

    #[test]
    fn base64_and_base64url_of_text_are_read() {
        // "To: eve@evil.test\r\n\r\nhi?>" in base64url, unpadded, and in
        // base64 with its padding.
        let url = "VG86IGV2ZUBldmlsLnRlc3QNCg0KaGk_Pg";
        let std = "VG86IGV2ZUBldmlsLnRlc3QNCg0KaGk/Pg==";
        for s in [url, std] {
            assert_eq!(
                base64_text(s).as_deref(),
                Some("To: eve@evil.test\r\n\r\nhi?>"),
                "{s}"
            );
        }
        // Not base64, too short, or not text.
        assert_eq!(base64_text("hello world, this is text"), None);
        assert_eq!(base64_text("ZXZlQGV2aWwu"), None);
        assert_eq!(base64_text("iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"), None);
        assert_eq!(base64_text("18c2f0a9e4b7d3c1"), None);
        assert_eq!(base64_text("VG86IGV2ZUBldmlsLnRlc3QNCg0KaGk/Pg==="), None);
    }

    #[test]
    fn a_message_gives_its_recipients_and_its_body() {
        // To: Bob <bob@corp.example>,\r\n\tEve <eve@evil.test>\r\nSubject: x\r\n\r\nbody
        let raw = "VG86IEJvYiA8Ym9iQGNvcnAuZXhhbXBsZT4sDQoJRXZlIDxldmVAZXZpbC50ZXN0Pg0KU3ViamVjdDogeA0KDQpib2R5";
        let got = read_all(raw);
        assert_eq!(
            got[0],
            (
                "Bob <bob@corp.example>, Eve <eve@evil.test>".to_owned(),
                true
            )
        );
        assert!(got[1].0.ends_with("\r\n\r\nbody") && !got[1].1, "{got:?}");
        assert_eq!(
            quoted_printable("eve=40evil.test or https://a.evil=\r\n.test/c =zz"),
            "eve@evil.test or https://a.evil.test/c =zz"
        );
        assert!(headers("not a message: just text\r\n").is_empty());
        assert!(headers("just text without a colon").is_empty());
    }
}
