//! Checks shared by the detector validators: entropy, placeholder and
//! documented-example values, checksums and decoding.
//!
//! A validator sees only the text its pattern matched, so everything here
//! works on that text alone, allocates little and never fails: malformed
//! input is simply not a finding.

/// Shannon entropy of the bytes of `s`, in bits per byte.
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
pub(crate) fn entropy(s: &str) -> f64 {
    let mut counts = [0u32; 256];
    for &b in s.as_bytes() {
        counts[usize::from(b)] += 1;
    }
    let n = s.len() as f64;
    if n == 0.0 {
        return 0.0;
    }
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Documented example values, template syntax and masking that mark a value
/// as not a real secret. Checked case-insensitively as substrings.
const PLACEHOLDER_WORDS: &[&str] = &[
    "example",
    "sample",
    "placeholder",
    "redacted",
    "replace",
    "your_",
    "your-",
    "yourkey",
    "yourtoken",
    "dummy",
    "changeme",
    "change_me",
    "xxxx",
    "****",
    "••",
    "...",
    "${",
    "{{",
    "}}",
    "<",
    ">",
];

/// Well-known values from vendor documentation and tutorials: the signature
/// of example tokens, the Azurite storage emulator's account key, RFC
/// 6749's client credentials. (AWS's examples end in `EXAMPLE` and are
/// caught by that word.)
const DOCUMENTED_EXAMPLES: &[&str] = &[
    // jwt.io's example token (signature).
    "sflkxwrjsmekkf2qt4fwpmejf36pok6yjv_adqssw5c",
    // PyJWT's README example token (signature).
    "4twft5niznn84awoo1d7ko1t_yoc0z6xopovswacpzg",
    // The Azurite storage emulator's account key.
    "eby8vdm02xnocqflquwjpllmetlcdxj1ouzft50usrz6ifsufq2uverc",
    // RFC 6749's client credentials (`Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW`),
    // access token and refresh token.
    "czzcagrsa3f0mzpnwdfmqmf0m2jw",
    "2yotnfzfejr1zcsicmwpaa",
    "tgzv3jokf0xg5qx2tlkwia",
];

/// Whether `s` looks like a placeholder or a documented example rather than
/// a real value: one of [`PLACEHOLDER_WORDS`], a run of six or more equal
/// characters, or six or more consecutive ascending characters
/// (`123456`, `abcdef`).
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
pub(crate) fn is_placeholder(s: &str) -> bool {
    let listed = match PLACEHOLDERS.as_ref() {
        Some(words) => words.is_match(s),
        None => {
            let lower = s.to_ascii_lowercase();
            PLACEHOLDER_WORDS
                .iter()
                .chain(DOCUMENTED_EXAMPLES)
                .any(|w| lower.contains(w))
        }
    };
    if listed {
        return true;
    }
    let bytes = s.as_bytes();
    let (mut same, mut ascending) = (1, 1);
    for pair in bytes.windows(2) {
        let (a, b) = (pair[0].to_ascii_lowercase(), pair[1].to_ascii_lowercase());
        same = if b == a { same + 1 } else { 1 };
        ascending = if b == a.wrapping_add(1) && b.is_ascii_alphanumeric() {
            ascending + 1
        } else {
            1
        };
        if same >= 6 || ascending >= 6 {
            return true;
        }
    }
    false
}

/// [`PLACEHOLDER_WORDS`] and [`DOCUMENTED_EXAMPLES`] in one automaton,
/// ASCII case-insensitive: a value is read once for all of them instead of
/// once per word. `None` only if it could not be built, and then each word
/// is looked for in turn.
static PLACEHOLDERS: std::sync::LazyLock<Option<aho_corasick::AhoCorasick>> =
    std::sync::LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(PLACEHOLDER_WORDS.iter().chain(DOCUMENTED_EXAMPLES))
            .ok()
    });

/// Whether the body of a token of a known shape looks randomly generated:
/// not a placeholder and not of conspicuously low entropy. The bar is low
/// (half of `log2` of the length, at most 3 bits) because the pattern
/// already fixed the shape; it only has to turn away `xxxx…`, `abcabc…`
/// and the like.
pub(crate) fn random_token(body: &str) -> bool {
    if body.is_empty() || is_placeholder(body) || sequential_filler(body) {
        return false;
    }
    let n = body.len().min(64) as f64;
    entropy(body) >= (0.5 * n.log2()).min(3.0)
}

/// Whether the letters and digits of `s` are sequential filler: runs of
/// consecutive characters at least two and a half long on average (`abc123`, `1234abcd`,
/// `abc123def456`), as docs write a made-up token. Random characters
/// follow each other in order about once in 36 (a run is almost always one
/// character long).
pub(crate) fn sequential_filler(s: &str) -> bool {
    let chars: Vec<u8> = s
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_lowercase())
        .collect();
    let runs = 1 + chars
        .windows(2)
        .filter(|w| w.get(1).copied() != w.first().map(|a| a.wrapping_add(1)))
        .count();
    chars.len() >= 6 && runs * 5 <= chars.len() * 2
}

/// Whether a value of unknown shape (found only through the name it is
/// assigned to) has the entropy of a generated secret: at least
/// `0.65 · log2(len)` bits per byte, capped at 3 bits. Random hexadecimal
/// of 16 characters passes 99.5% of the time, English words and
/// `abcabc`-style fillers do not.
pub(crate) fn high_entropy(value: &str) -> bool {
    let n = value.len().min(64) as f64;
    entropy(value) >= (0.65 * n.log2()).min(3.0)
}

/// Whether a run of letters reads as a word or identifier: one case
/// dominates (`changeme`, `CLIENT_SECRET`, `Password`,
/// `passwordConfirmation`). Random letters mix cases about evenly.
fn word_letters(s: &str) -> bool {
    let upper = s.bytes().filter(u8::is_ascii_uppercase).count();
    let lower = s.bytes().filter(u8::is_ascii_lowercase).count();
    upper.min(lower) * 4 <= upper + lower
}

/// Whether `s` is a CamelCase identifier (`PCredHandle`,
/// `X509CertificateTemplatePrivateKeyFlag`, `WSManSessionFlags`): words
/// of a capital and at least two, on average three and a half, lower-case
/// letters, acronyms of at most five capitals, few digits. Random
/// alphanumerics of 16 characters pass about 1% of the time, of 24 about
/// 0.3%.
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
pub(crate) fn camel_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    if !b.first().is_some_and(u8::is_ascii_alphabetic)
        || !b.iter().all(u8::is_ascii_alphanumeric)
        || b.iter().filter(|c| c.is_ascii_digit()).count() * 4 > b.len()
    {
        return false;
    }
    let mut lows = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i].is_ascii_uppercase() {
            i += 1;
        }
        let upper = i - start;
        let lower_start = i;
        while i < b.len() && b[i].is_ascii_lowercase() {
            i += 1;
        }
        let lower = i - lower_start;
        if lower > 0 {
            lows.push(lower);
        } else if upper > 5 {
            return false;
        }
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    !lows.is_empty()
        && lows.iter().all(|&l| l >= 2)
        && lows.iter().sum::<usize>() * 2 >= lows.len() * 7
}

/// Whether `value` reads as words or an identifier rather than a secret:
/// letters of one dominant case and the separators `_ - . space`
/// (`my-super-secret`, `DB_PASSWORD`), a dotted identifier chain of such
/// words (`self.password`, `process.env.TOKEN`), code (`os.getenv(`), or
/// a reference ([`is_reference`]).
pub(crate) fn is_wordlike_or_code(value: &str) -> bool {
    let v = value.trim();
    if v.bytes()
        .all(|b| b.is_ascii_alphabetic() || b"_-. ".contains(&b))
        && (word_letters(v) || camel_identifier(v))
    {
        return true;
    }
    // Integer literals with a type suffix: `2147483648u32`, `42usize`, `10L`.
    let suffix = v.trim_start_matches(|c: char| c.is_ascii_digit() || c == '_');
    if suffix.len() < v.len()
        && [
            "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
            "l", "ul", "ull", "ll",
        ]
        .contains(&suffix.to_ascii_lowercase().as_str())
    {
        return true;
    }
    if v.bytes().any(|b| b"()[]{}<>".contains(&b)) || v.contains("::") || is_reference(v) {
        return true;
    }
    // Pointer and reference types (`*const`, `&str`), reST roles (`:py:data:`).
    if v.starts_with(['*', '&', ':']) && v[1..].starts_with(|c: char| c.is_ascii_alphabetic()) {
        return true;
    }
    // Constants and snake_case identifiers: `WBEM_128BITS`, `my_token_2`.
    let identifier = v.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let few_digits = v.bytes().filter(u8::is_ascii_digit).count() * 3 <= v.len();
    if identifier && v.contains('_') && few_digits && word_letters(v) {
        return true;
    }
    // Each part of a dotted chain a short name or a word-like identifier
    // (`ed25519.Ed25519PrivateKey`); random tokens have long mixed parts.
    let word = |part: &str| {
        let identifier = part
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        let few_digits = part.bytes().filter(u8::is_ascii_digit).count() * 3 <= part.len();
        identifier
            && (part.len() <= 8 || (few_digits && (word_letters(part) || camel_identifier(part))))
    };
    v.contains('.') && v.split('.').all(word)
}

/// Whether `v` refers to a value kept elsewhere: `$VAR`, `${VAR}`,
/// `%VAR%`, `%(name)s`, `{{ name }}`, or a YAML tag (`!vault`,
/// `!secret db_password`, `!Ref DbPassword`).
pub(crate) fn is_reference(v: &str) -> bool {
    let yaml_tag = v
        .strip_prefix('!')
        .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_alphabetic()));
    yaml_tag
        || v.starts_with('$')
        || v.starts_with("%(")
        || (v.len() > 2 && v.starts_with('%') && v.ends_with('%'))
        || v.contains("{{")
}

/// Whether the only characters of `s` are ASCII digits.
pub(crate) fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// The Luhn checksum over ASCII digits.
pub(crate) fn luhn(digits: &[u8]) -> bool {
    let mut sum = 0u32;
    for (i, &d) in digits.iter().rev().enumerate() {
        let mut v = u32::from(d.wrapping_sub(b'0'));
        if i % 2 == 1 {
            v *= 2;
            if v > 9 {
                v -= 9;
            }
        }
        sum += v;
    }
    sum.is_multiple_of(10)
}

/// The ISO 13616 check of an IBAN (upper-case, no spaces): moving the first
/// four characters to the end and reading letters as 10–35, the number is
/// 1 modulo 97.
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
pub(crate) fn iban_mod97(iban: &str) -> bool {
    let bytes = iban.as_bytes();
    if bytes.len() < 5 {
        return false;
    }
    let mut rem = 0u32;
    for &b in bytes[4..].iter().chain(&bytes[..4]) {
        match b {
            b'0'..=b'9' => rem = (rem * 10 + u32::from(b - b'0')) % 97,
            b'A'..=b'Z' => rem = (rem * 100 + u32::from(b - b'A') + 10) % 97,
            _ => return false,
        }
    }
    rem == 1
}

/// Decodes standard (`+/`) or URL-safe (`-_`) base64, padded or not.
/// `None` for any other character or an impossible length.
pub(crate) fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    let mut out = Vec::with_capacity(s.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0u32;
    for b in s.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    // A single leftover sextet cannot encode a byte.
    (bits < 6).then_some(out)
}

/// CRC-32 (IEEE 802.3, as in zlib).
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    crc32fast::hash(bytes)
}

/// `n` in base 62 (`0-9A-Za-z`), left-padded with `0` to six digits, the
/// form of the checksum that ends GitHub tokens.
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
pub(crate) fn base62_6(mut n: u32) -> [u8; 6] {
    const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut out = [b'0'; 6];
    for slot in out.iter_mut().rev() {
        *slot = DIGITS[(n % 62) as usize];
        n /= 62;
    }
    out
}

/// The value of a `key = value` / `key: value` match: the text after the
/// first `=` or `:` (and any `>` or `=` of `=>`, `:=`), with surrounding
/// blanks and one pair of quotes removed. `None` when there is no separator.
pub(crate) fn assigned_value(m: &str) -> Option<(&str, &str)> {
    let sep = m.find([':', '='])?;
    // `Type::Item` is a path, not an assignment.
    if m[sep..].starts_with("::") {
        return None;
    }
    let key = m[..sep].trim().trim_matches(['"', '\'', '\\']);
    let rest = m[sep + 1..].trim_start_matches(['=', '>']).trim();
    let unquote = |q: &str| rest.strip_prefix(q).map(|r| r.strip_suffix(q).unwrap_or(r));
    let value = unquote("\\\"")
        .or_else(|| unquote("\""))
        .or_else(|| unquote("'"))
        .unwrap_or(rest);
    Some((key, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entropy_of_simple_strings() {
        assert_eq!(entropy(""), 0.0);
        assert_eq!(entropy("aaaa"), 0.0);
        assert!((entropy("abab") - 1.0).abs() < 1e-9);
        assert!((entropy("abcd") - 2.0).abs() < 1e-9);
    }

    #[test]
    fn placeholders() {
        for p in [
            "AKIAIOSFODNN7EXAMPLE",
            "xxxxxxxxxxxxxxxx",
            "<YOUR_API_KEY>",
            "${TOKEN}",
            "{{secret}}",
            "000000000000",
            "1234567890abcdef",
            "sk-****abcd",
            "REDACTED",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        for p in ["Q8vX2mL0pR7tZ4kN", "a9f3c2e1d0b8", "hunter2"] {
            assert!(!is_placeholder(p), "{p}");
        }
        // Every listed word, in any ASCII case, anywhere in the value.
        assert!(PLACEHOLDERS.is_some());
        for word in PLACEHOLDER_WORDS.iter().chain(DOCUMENTED_EXAMPLES) {
            let upper = word.to_ascii_uppercase();
            for v in [format!("Q8v{word}X2m"), format!("{upper}Q8vX2m")] {
                assert!(is_placeholder(&v), "{v}");
            }
        }
        // Runs are judged in any case too: `AbCdEf` ascends.
        assert!(is_placeholder("q8AbCdEfx2"));
        assert!(!is_placeholder("q8AbCdExx2"));
    }

    #[test]
    fn random_and_high_entropy() {
        assert!(random_token("Q8vX2mL0pR7tZ4kNw1Yb"));
        assert!(!random_token("abcabcabcabcabcabcab"));
        assert!(high_entropy("9f86d081884c7d65"));
        assert!(!high_entropy("aaaaaaaabbbbbbbb"));
    }

    #[test]
    fn wordlike_and_code() {
        for v in [
            "changeme",
            "my-super-secret",
            "DB_PASSWORD",
            "passwordConfirmation",
            "self.password",
            "process.env.API_TOKEN",
            "os.getenv(\"X\")",
            "$TOKEN",
            "%PASSWORD%",
            "%(password)s",
            "!vault",
            "*const",
            "crate::__u32",
            "MSV1_0_PROTOCOL_MESSAGE_TYPE",
            "Option<String>",
            "2147483648u32",
            "WSManSessionFlags",
            "ed25519.Ed25519PrivateKey",
            ":py:data:`bytes`",
        ] {
            assert!(is_wordlike_or_code(v), "{v}");
        }
        for v in [
            "hunter2!",
            "Tr0ub4dor&3",
            "9f86d081884c7d65",
            "nGcwECpBlJINDhcdcfnm",
            "NjI2MTY5NzY4ODk5NzMyNTQzMw.k26FYg.YXCm7D_BjWEmNPuqYNQUUQH78ha",
            "dor_v1_332e9644c54591e8544ec9083a5d8c01b10585c6c4ac15562d7bba50446060a7",
        ] {
            assert!(!is_wordlike_or_code(v), "{v}");
        }
    }

    #[test]
    fn camel_case() {
        for v in [
            "PCredHandle",
            "X509CertificateTemplatePrivateKeyFlag",
            "getApiKeyFromEnvironment",
        ] {
            assert!(camel_identifier(v), "{v}");
        }
        for v in ["nGcwECpBlJINDhcdcfnm", "Q8vX2mL0pR7tZ4kN", "LPWSTRX"] {
            assert!(!camel_identifier(v), "{v}");
        }
    }

    #[test]
    fn checksums() {
        assert!(luhn(b"4111111111111111"));
        assert!(!luhn(b"4111111111111112"));
        assert!(luhn(b"378282246310005"));
        assert!(iban_mod97("DE89370400440532013000"));
        assert!(iban_mod97("GB82WEST12345698765432"));
        assert!(!iban_mod97("DE89370400440532013001"));
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(&base62_6(61), b"00000z");
    }

    #[test]
    fn base64() {
        assert_eq!(base64_decode("aGVsbG8").as_deref(), Some(&b"hello"[..]));
        assert_eq!(base64_decode("aGVsbG8=").as_deref(), Some(&b"hello"[..]));
        assert_eq!(base64_decode("Pz8_").as_deref(), Some(&b"???"[..]));
        assert_eq!(base64_decode("a"), None);
        assert_eq!(base64_decode("a*bc"), None);
    }

    #[test]
    fn assignments() {
        assert_eq!(
            assigned_value(r#"password = "hunter2""#),
            Some(("password", "hunter2"))
        );
        assert_eq!(
            assigned_value(r#""api_key": 'abc'"#),
            Some(("api_key", "abc"))
        );
        assert_eq!(assigned_value("token => xyz"), Some(("token", "xyz")));
        assert_eq!(assigned_value("token := xyz"), Some(("token", "xyz")));
        assert_eq!(
            assigned_value(r#"token\": \"xyz\""#),
            Some(("token", "xyz"))
        );
    }
}
