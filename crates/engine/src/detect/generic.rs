//! Validators of the generic credential detectors, which find a secret by
//! its context instead of its shape: the name it is assigned to
//! (`password_assignment`, `secret_assignment`), a URL's user-info
//! (`url_password`) or an `Authorization` header (`bearer_token`,
//! `basic_auth_header`).
//!
//! Without a shape to check, the value is judged: placeholders, references
//! (`${TOKEN}`, `!vault`), code (`os.getenv(…)`, `*const`, `Vec<u8>`),
//! identifiers and words, dates, URLs and paths are not secrets, and a
//! token must have the entropy of a generated one. Names that describe a
//! secret (`max_tokens`, `secretName`, `password_min_length`) do not count.

use super::validate::{
    all_digits, assigned_value, base64_decode, camel_identifier, entropy, high_entropy,
    is_placeholder, is_reference, is_wordlike_or_code,
};

/// The token after `Bearer` is secret-like and 16+ characters long.
pub(super) fn bearer_token(m: &str) -> bool {
    let token = m.split_whitespace().nth(1).unwrap_or_default();
    secret_like(token, 16)
}

/// The credentials decode to `user:password` text with a real-looking
/// password, and are not a documented example.
pub(super) fn basic_auth_header(m: &str) -> bool {
    let encoded = m.split_whitespace().nth(1).unwrap_or_default();
    let Some(decoded) = base64_decode(encoded) else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(&decoded) else {
        return false;
    };
    let Some((user, password)) = text.split_once(':') else {
        return false;
    };
    !user.is_empty()
        && !text.chars().any(char::is_control)
        && !is_placeholder(encoded)
        && password_like(user, password)
}

/// The password between `user:` and `@` looks real ([`password_like`]).
pub(super) fn url_password(m: &str) -> bool {
    let Some((_, rest)) = m.split_once("://") else {
        return false;
    };
    let Some((user, password)) = rest.trim_end_matches('@').split_once(':') else {
        return false;
    };
    password_like(user, password)
}

/// Passwords seen in docs and sample configs; not treated as real ones.
const EXAMPLE_PASSWORDS: &[&str] = &[
    "pass",
    "passwd",
    "password",
    "password1",
    "password123",
    "passw0rd",
    "p@ssw0rd",
    "p@ssword",
    "pwd",
    "secret",
    "secret123",
    "changeit",
    "admin",
    "admin123",
    "root",
    "toor",
    "test",
    "test123",
    "qwerty",
    "letmein",
    "welcome",
    "default",
    "hunter2",
    "mypassword",
    "yourpassword",
    "pass123",
    "1234",
    "12345",
    "123456",
    "12345678",
    "foobar",
    "abcd",
    "xyz123",
];

/// Whether an embedded or assigned password looks real: not empty, not one
/// of the docs' usual passwords, not masked or templated, not equal to the
/// user name (`postgres:postgres@` is a local default).
fn password_like(user: &str, password: &str) -> bool {
    let lower = password.to_ascii_lowercase();
    password.len() >= 4
        && password != user
        && !password.contains("***")
        && !is_reference(password)
        && !EXAMPLE_PASSWORDS.contains(&lower.as_str())
        && !is_placeholder(password)
}

/// Endings of names that hold something about a secret (its length, type,
/// location, name, hash, …) rather than the secret itself. Compared with
/// the name lower-cased and stripped of `_`, `-` and `.`.
const NOT_SECRET_NAME_ENDINGS: &[&str] = &[
    "name",
    "names",
    "type",
    "types",
    "tokens",
    "url",
    "uri",
    "urls",
    "endpoint",
    "count",
    "limit",
    "ttl",
    "expiry",
    "expiration",
    "expires",
    "expiresin",
    "expiresat",
    "ref",
    "id",
    "ids",
    "file",
    "path",
    "dir",
    "env",
    "prefix",
    "suffix",
    "length",
    "len",
    "size",
    "version",
    "format",
    "algorithm",
    "alg",
    "provider",
    "store",
    "manager",
    "header",
    "field",
    "param",
    "location",
    "policy",
    "enabled",
    "required",
    "mode",
    "source",
    "hash",
    "hashed",
    "regex",
    "pattern",
    "label",
    "description",
    "help",
    "hint",
    "tokenizer",
    "min",
    "max",
    "reset",
    "changed",
    "updated",
    "created",
    "rotation",
    "strength",
    "placeholder",
    "prompt",
    "budget",
    "usage",
    "index",
    "kind",
    "method",
    "scope",
    "scopes",
    "audience",
    "issuer",
    "lifetime",
    "duration",
    "timeout",
    "template",
    "text",
    "title",
    "message",
    "error",
    "status",
    "arn",
    "createdat",
    "updatedat",
    "issuedat",
    "usedat",
    "rotatedat",
    "fingerprint",
    "digest",
    "checksum",
    "thumbprint",
    "sha",
    "sha256",
    "md5",
];

/// Whether a name such as `max_tokens` or `secretName` describes a secret
/// instead of holding one.
fn describes_secret(key: &str) -> bool {
    let norm: String = key
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if norm.ends_with("secretid") {
        return false;
    }
    NOT_SECRET_NAME_ENDINGS.iter().any(|e| norm.ends_with(e))
}

/// Values that are anything but a literal secret: URLs, file paths.
fn url_or_path(v: &str) -> bool {
    if v.contains("://") {
        return true;
    }
    let pathish = ["/", "~/", "./", "../"].iter().any(|p| v.starts_with(p));
    pathish && v.matches('/').count() >= 2 && !v.contains(['+', '='])
}

/// Whether a value names what it should hold (`my_secret_token_1`,
/// `test-api-key-123`, `Password!23`) instead of being it.
fn self_describing(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    [
        "secret",
        "token",
        "password",
        "passwd",
        "apikey",
        "api_key",
        "api-key",
        "credential",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Whether every part of a value between punctuation is a word of one
/// dominant case, a number or at most two characters, with at least one
/// real word: `release-2024-q1`, `staging_key_v2`.
fn wordish_segments(v: &str) -> bool {
    let mut word = false;
    for seg in v
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|s| !s.is_empty())
    {
        if all_digits(seg) || seg.len() <= 2 {
            continue;
        }
        if seg.bytes().all(|b| b.is_ascii_alphabetic()) && is_wordlike_or_code(seg) {
            word = true;
            continue;
        }
        return false;
    }
    word
}

/// Dates and timestamps (`2024-03-12…`).
#[expect(
    clippy::indexing_slicing,
    reason = "a validator reads the bytes its length check, or the pattern that matched, guarantees"
)]
fn date_like(v: &str) -> bool {
    let b = v.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
}

/// Whether a value with no known shape looks like a generated secret.
fn secret_like(v: &str, min_len: usize) -> bool {
    let classes = [
        v.bytes().any(|b| b.is_ascii_lowercase()),
        v.bytes().any(|b| b.is_ascii_uppercase()),
        v.bytes().any(|b| b.is_ascii_digit()),
        v.bytes().any(|b| !b.is_ascii_alphanumeric()),
    ]
    .iter()
    .filter(|&&c| c)
    .count();
    (min_len..=1024).contains(&v.len())
        && classes >= 2
        && !v.contains(char::is_whitespace)
        && !is_placeholder(v)
        && !is_wordlike_or_code(v)
        && !wordish_segments(v)
        && !camel_identifier(v)
        && !self_describing(v)
        && !all_digits(v)
        && !date_like(v)
        && !url_or_path(v)
        && !v.starts_with("arn:")
        && high_entropy(v)
}

/// The name holds a secret (see [`describes_secret`]) and the value is
/// secret-like, 12+ characters.
pub(super) fn secret_assignment(m: &str) -> bool {
    let Some((key, value)) = assigned_value(m) else {
        return false;
    };
    !describes_secret(key) && secret_like(value, 12)
}

/// The name holds a password and the value looks like a real one: 6–256
/// characters, not a docs password, placeholder, word, reference, code,
/// number, URL or path, not naming itself (`MyPassword1`).
pub(super) fn password_assignment(m: &str) -> bool {
    let Some((key, value)) = assigned_value(m) else {
        return false;
    };
    !describes_secret(key)
        && (6..=256).contains(&value.len())
        && password_like("", value)
        && !self_describing(value)
        && !is_wordlike_or_code(value)
        && !all_digits(value)
        && !url_or_path(value)
        && entropy(value) >= 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for k in [
            "max_tokens",
            "secretName",
            "token_type",
            "PASSWORD_MIN_LENGTH",
            "api_key_env",
        ] {
            assert!(describes_secret(k), "{k}");
        }
        for k in [
            "api_key",
            "DB_PASSWORD",
            "client_secret",
            "vault_secret_id",
            "accessToken",
        ] {
            assert!(!describes_secret(k), "{k}");
        }
    }
}
