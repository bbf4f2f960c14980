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
/// password, and are not a documented example: after `Basic `, or the
/// value of a registry's `"auth":`.
pub(super) fn basic_auth_header(m: &str) -> bool {
    let encoded = if m.ends_with('"') || m.contains(':') {
        m.trim_end_matches('"').rsplit('"').next()
    } else {
        m.split_whitespace().nth(1)
    };
    user_password(encoded.unwrap_or_default())
}

/// A JSON member `"auth": "…"` holding base64 of `user:password`, as in a
/// `.dockerconfigjson`.
pub(super) fn basic_auth_pair(key: &str, value: &str) -> bool {
    value.len() >= 8 && key.eq_ignore_ascii_case("auth") && user_password(value)
}

/// Base64 of `user:password` text with a real-looking password.
fn user_password(encoded: &str) -> bool {
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

/// The user and the password between `://` and `@` are at most
/// [`URL_PART_CHARS`] characters each, and the password looks real
/// ([`password_like`]).
pub(super) fn url_password(m: &str) -> bool {
    let Some((_, rest)) = m.split_once("://") else {
        return false;
    };
    let Some((user, password)) = rest.trim_end_matches('@').split_once(':') else {
        return false;
    };
    user.chars().count() <= URL_PART_CHARS
        && password.chars().count() <= URL_PART_CHARS
        && password_like(user, password)
}

/// The longest user or password of a URL that [`url_password`] judges.
const URL_PART_CHARS: usize = 128;

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
    "algo",
    "hasher",
    "hashers",
    "hashing",
    "scheme",
    "schemes",
    "kdf",
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
    let classes = || {
        [
            v.bytes().any(|b| b.is_ascii_lowercase()),
            v.bytes().any(|b| b.is_ascii_uppercase()),
            v.bytes().any(|b| b.is_ascii_digit()),
            v.bytes().any(|b| !b.is_ascii_alphanumeric()),
        ]
        .iter()
        .filter(|&&c| c)
        .count()
    };
    // The cheap tests, and code (the most common value that is no
    // secret), first.
    (min_len..=1024).contains(&v.len())
        && classes() >= 2
        && !v.contains(char::is_whitespace)
        && !is_wordlike_or_code(v)
        && !is_placeholder(v)
        && !wordish_segments(v)
        && !camel_identifier(v)
        && !self_describing(v)
        && !all_digits(v)
        && !date_like(v)
        && !url_or_path(v)
        && !v.starts_with("arn:")
        && !example_token(v)
        && !super::validate::sequential_filler(v)
        && high_entropy(v)
}

/// Providers' token prefixes, longest first: a value that starts with one
/// is judged as that provider's token would be.
const TOKEN_PREFIXES: &[&str] = &[
    "sk-ant-admin01-",
    "sk-ant-api03-",
    "sk-ant-",
    "sk-svcacct-",
    "sk-or-v1-",
    "sk-admin-",
    "sk-proj-",
    "github_pat_",
    "dckr_pat_",
    "shippo_live_",
    "sk_live_",
    "sk_test_",
    "rk_live_",
    "rk_test_",
    "lin_api_",
    "dop_v1_",
    "whsec_",
    "glpat-",
    "shpat_",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xapp-",
    "pypi-",
    "pplx-",
    "tvly-",
    "glsa_",
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "npm_",
    "gsk_",
    "xai-",
    "hvs.",
    "pul-",
    "glc_",
    "key-",
    "AKIA",
    "ASIA",
    "AIza",
    "hf_",
    "r8_",
    "SG.",
    "sk-",
];

/// Whether a value is a docs example of a provider's token: its prefix
/// and a body too short to be one (`sk-ant-api03-abc123`, `ghp_1234abcd`;
/// real tokens have 20 random characters or more), or a body of
/// sequential filler (`…abc123def456…`).
fn example_token(v: &str) -> bool {
    TOKEN_PREFIXES
        .iter()
        .find_map(|p| v.strip_prefix(p))
        .is_some_and(|body| body.len() < 16 || super::validate::sequential_filler(body))
}

/// A name lower-cased, with only its ASCII letters and digits.
fn squeeze(key: &str) -> String {
    key.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Whether a name is a password's: it holds `password`, `passwd`,
/// `passphrase` or `pwd`, or ends in `pass` as a word of its own (`pass`,
/// `DB_PASS`, `smtp.pass`, `SmtpPass`; not `bypass`, `compass`).
pub(super) fn password_name(key: &str) -> bool {
    let norm = squeeze(key);
    if ["password", "passwd", "passphrase", "pwd"]
        .iter()
        .any(|w| norm.contains(w))
    {
        return true;
    }
    let Some(head) = key
        .strip_suffix("pass")
        .or_else(|| key.strip_suffix("Pass"))
        .or_else(|| key.strip_suffix("PASS"))
    else {
        return false;
    };
    head.is_empty()
        || head.ends_with(['_', '-', '.', ' '])
        || (key.ends_with("Pass")
            && head.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit()))
}

/// Words in a name that make it a secret's name (compared with the name
/// squeezed: lower-case letters and digits).
const SECRET_NAME_WORDS: &[&str] = &[
    "secret",
    "token",
    "apikey",
    "accesskey",
    "authkey",
    "privatekey",
    "signingkey",
    "encryptionkey",
    "masterkey",
    "credential",
];

/// What a name that is only `…_key` holds when it is not a secret: a
/// database or cache key, a public key, a keyboard shortcut.
const NOT_SECRET_KEYS: &[&str] = &[
    "public",
    "publishable",
    "pub",
    "primary",
    "foreign",
    "sort",
    "partition",
    "hash",
    "range",
    "cache",
    "idempotency",
    "idempotent",
    "object",
    "s3",
    "host",
    "ssh",
    "dedup",
    "dedupe",
    "dedupl",
    "lookup",
    "group",
    "row",
    "column",
    "message",
    "kms",
    "index",
    "unique",
    "composite",
    "natural",
    "surrogate",
    "map",
    "dict",
    "hot",
    "shortcut",
    "keyboard",
    "translation",
    "i18n",
    "locale",
    "label",
    "registry",
    "routing",
    "partitionkey",
    "bucket",
    "file",
    "record",
    "item",
    "entity",
    "state",
    "session",
    "storage",
    "redis",
    "memcache",
    "queue",
    "stream",
    "topic",
    "event",
    "tracking",
    "dedupkey",
    "sign",
    "verify",
    "verification",
];

/// Whether a name is a secret's: it holds one of [`SECRET_NAME_WORDS`].
pub(super) fn secret_name(key: &str) -> bool {
    let norm = squeeze(key);
    SECRET_NAME_WORDS.iter().any(|w| norm.contains(w))
}

/// Whether a name ends in `key` as a word of its own (`AZURE_STORAGE_KEY`,
/// `license-key`, `mapsKey`) and is not one of [`NOT_SECRET_KEYS`] (with
/// `STORAGE_KEY` alone a cache key, `AZURE_STORAGE_KEY` a credential).
pub(super) fn key_name(key: &str) -> bool {
    let head = if let Some(h) = key.strip_suffix("Key") {
        if !h.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit()) {
            return false;
        }
        h
    } else if let Some(h) = key
        .strip_suffix("_key")
        .or_else(|| key.strip_suffix("-key"))
        .or_else(|| key.strip_suffix(".key"))
        .or_else(|| key.strip_suffix("_KEY"))
        .or_else(|| key.strip_suffix("-KEY"))
        .or_else(|| key.strip_suffix(".KEY"))
    {
        h
    } else {
        return false;
    };
    // The word before `key` decides: `partition_key` and `s3_object_key`
    // are not secrets, `azure_storage_key` and `stripe_key` are (a name
    // that is only `storage_key` is a cache's).
    let word = head
        .rsplit(['_', '-', '.'])
        .next()
        .map(|w| match w.rfind(|c: char| c.is_ascii_uppercase()) {
            Some(i) if w.bytes().any(|b| b.is_ascii_lowercase()) => &w[i..],
            _ => w,
        })
        .map(squeeze)
        .unwrap_or_default();
    let whole = squeeze(head);
    !word.is_empty() && !NOT_SECRET_KEYS.contains(&word.as_str())
        || (word == "storage" && whole != "storage")
}

/// Whether a value is a hash, a UUID or another identifier that a name
/// ending in `key` holds when it is not a credential.
fn identifier_like(v: &str) -> bool {
    let hex = v.bytes().all(|b| b.is_ascii_hexdigit());
    let uuid = v.len() == 36
        && v.bytes().enumerate().all(|(i, b)| {
            if [8, 13, 18, 23].contains(&i) {
                b == b'-'
            } else {
                b.is_ascii_hexdigit()
            }
        });
    hex || uuid
}

/// Whether `value`, assigned to the secret name `key`, is a secret: secret-like
/// ([`secret_like`], 12+ characters); for a name that is only `…_key`, also
/// 16+ characters with letters and digits and not a hash or UUID.
fn secret_value(key: &str, value: &str) -> bool {
    // The value's test goes first: it turns most matches away (code,
    // words, paths: `token = get_token(request)`), and the name's tests
    // would then be read for nothing.
    if !secret_like(value, 12) || describes_secret(key) {
        return false;
    }
    let named = secret_name(key);
    if !named && !key_name(key) {
        return false;
    }
    named
        || (value.len() >= 16
            && value.bytes().any(|b| b.is_ascii_digit())
            && value.bytes().any(|b| b.is_ascii_alphabetic())
            && !identifier_like(value))
}

/// The name holds a secret (see [`describes_secret`]) and the value is
/// secret-like, 12+ characters.
pub(super) fn secret_assignment(m: &str) -> bool {
    let Some((key, value)) = assignment(m) else {
        return false;
    };
    secret_value(key, value)
}

/// A JSON member whose name is a secret's and whose value is secret-like.
pub(super) fn secret_pair(key: &str, value: &str) -> bool {
    // Most members are turned away on their value's length, before their
    // name is read.
    value.len() >= 12
        && (secret_name(key) || key_name(key))
        && !password_name(key)
        && secret_value(key, value)
}

/// Whether a value assigned to a password name looks like a real password:
/// 6–256 characters, not a docs password, placeholder, word, reference,
/// code, number, URL or path, not naming itself (`MyPassword1`).
/// A generated password ([`generated_password`]) is judged by the marks
/// of code, references and placeholders that such a value can hold; any
/// other value by the broad rules, which read every bracket as code.
fn password_value(key: &str, value: &str) -> bool {
    !describes_secret(key)
        && (6..=256).contains(&value.len())
        && !self_describing(value)
        && entropy(value) >= 2.0
        && !hash_scheme(value)
        && !hashed_or_encrypted(value)
        && if generated_password(value) {
            !EXAMPLE_PASSWORDS.contains(&value.to_ascii_lowercase().as_str())
                && !value.contains("***")
                && !is_placeholder(&value.replace(['<', '>', '{', '}', '$'], "\u{1}"))
                && !reference_shaped(value)
                && !placeholder_shaped(value)
                && !code_shaped(value)
                && !path_shaped(value)
        } else {
            password_like("", value)
                && !is_wordlike_or_code(value)
                && !all_digits(value)
                && !url_or_path(value)
        }
}

/// The words of password hashing and storage schemes' names
/// (`scram-sha-256`, `argon2id`, `pbkdf2_sha256`, `sha512_crypt`,
/// `mysql_native_password`).
const SCHEME_WORDS: &[&str] = &[
    "md4",
    "md5",
    "sha",
    "sha1",
    "sha2",
    "sha3",
    "sha224",
    "sha256",
    "sha384",
    "sha512",
    "crypt",
    "bcrypt",
    "scrypt",
    "yescrypt",
    "argon2",
    "argon2i",
    "argon2d",
    "argon2id",
    "pbkdf2",
    "scram",
    "hmac",
    "ssha",
    "ssha256",
    "ssha512",
    "smd5",
    "des",
    "blowfish",
    "plain",
    "plaintext",
    "cleartext",
    "clear",
    "nt",
    "ntlm",
    "lm",
    "mysql",
    "native",
    "caching",
    "password",
    "django",
    "ldap",
    "salted",
    "unsalted",
    "legacy",
    "hash",
    "hashed",
    "apr1",
    "phpass",
    "sm3",
    "pbkdf",
];

/// Whether a value names a password hashing scheme rather than being a
/// password (`password_encryption = scram-sha-256`, `PASSWORD_HASHER=
/// argon2id`): every part of it between `-`, `_`, `.`, `$` and `{}` is a
/// scheme's word or a number, and one of them names a scheme.
fn hash_scheme(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    let parts: Vec<&str> = lower
        .split(['-', '_', '.', '$', '{', '}', '/'])
        .filter(|p| !p.is_empty())
        .collect();
    let scheme = |p: &&str| SCHEME_WORDS.contains(p) && *p != "password";
    parts.iter().any(scheme)
        && parts
            .iter()
            .all(|p| SCHEME_WORDS.contains(p) || all_digits(p) || matches!(*p, "v" | "v1" | "v2"))
}

/// Whether a value is a password's hash or an encrypted value, not the
/// password: the modular crypt format (`$2y$10$…`, `$argon2id$v=19$…`,
/// `$6$salt$…`), a scheme in braces before it (`{SSHA}…`, `{cipher}…`,
/// `{bcrypt}…`), or a value sealed by SOPS or Jasypt (`ENC[…]`, `ENC(…)`).
fn hashed_or_encrypted(v: &str) -> bool {
    // `$<id>$<params or salt>$<hash>`: an id of a few lower-case letters
    // and digits (`2y`, `6`, `apr1`, `argon2id`, `pbkdf2-sha256`).
    let mcf = v
        .strip_prefix('$')
        .and_then(|rest| rest.split_once('$'))
        .is_some_and(|(id, rest)| {
            (id.len() <= 2 || hash_scheme(id))
                && !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                && rest.len() >= 8
                && rest.contains('$')
        });
    let braced = v
        .strip_prefix('{')
        .and_then(|rest| rest.split_once('}'))
        .is_some_and(|(id, rest)| {
            (2..=16).contains(&id.len())
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                && rest.len() >= 8
        });
    // SOPS (`ENC[AES256_GCM,data:…]`) and Jasypt (`ENC(…)`).
    let sealed =
        (v.starts_with("ENC[") && v.ends_with(']')) || (v.starts_with("ENC(") && v.ends_with(')'));
    mcf || braced || sealed
}

/// Whether a value has the marks of a generated password: 8–128
/// characters without blanks, symbols among letters and digits (three of
/// lower case, upper case, digits and symbols, symbols one of them).
/// Generators draw symbols from the whole keyboard (`!OK2Ag8.-wc!VLZRfu~`,
/// `Wj]*C&kIUL&%o6J`), so brackets, `$`, `!` and `<` in such a value are
/// not by themselves code, a reference or a placeholder.
fn generated_password(v: &str) -> bool {
    let symbols = v.bytes().filter(u8::is_ascii_punctuation).count();
    let classes = [
        v.bytes().any(|b| b.is_ascii_lowercase()),
        v.bytes().any(|b| b.is_ascii_uppercase()),
        v.bytes().any(|b| b.is_ascii_digit()),
    ]
    .iter()
    .filter(|&&c| c)
    .count();
    (8..=128).contains(&v.len())
        && symbols >= 1
        && (classes >= 2 || (classes == 1 && symbols >= 3))
        && v.bytes().all(|b| b.is_ascii_graphic())
}

/// Whether a name reads as one, not as random letters: its letters all
/// lower case, all upper case, capitalised or camel case, and few digits
/// (`DB_PASS`, `dbPassword`, `Ref`, `getenv`; not `wHhtg`, `M65tcvdmU23`).
fn word_name(name: &str) -> bool {
    let letters: String = name.chars().filter(char::is_ascii_alphabetic).collect();
    let digits = name.bytes().filter(u8::is_ascii_digit).count();
    let tail = letters.get(1..).unwrap_or_default();
    letters.len() >= 2
        && digits * 3 <= name.len()
        && (letters.bytes().all(|b| b.is_ascii_lowercase())
            || letters.bytes().all(|b| b.is_ascii_uppercase())
            || tail.bytes().all(|b| b.is_ascii_lowercase())
            || super::validate::camel_identifier(&letters))
}

/// Whether a generated-looking value is a reference: `${NAME}`, `$(cmd)`,
/// `$NAME` (alone, or before `/`, `.`, `:`, `[`), `%NAME%`, `%(name)s`,
/// `{{ … }}`, or a YAML tag (`!vault`, `!Ref`, `!!binary`) alone or
/// before a blank.
fn reference_shaped(v: &str) -> bool {
    let name_len = |s: &str| {
        s.bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .count()
    };
    if let Some(rest) = v.strip_prefix('$') {
        if (rest.starts_with('{') && rest.ends_with('}'))
            || (rest.starts_with('(') && rest.ends_with(')'))
        {
            return true;
        }
        // A variable's name reads as one (`DB_PASS`, `dbPassword`).
        let n = name_len(rest);
        let name = rest.get(..n).unwrap_or_default();
        let starts = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
        return starts
            && name.len() >= 3
            && word_name(name)
            && rest
                .get(n..)
                .is_some_and(|t| t.is_empty() || t.starts_with(['/', '.', ':', '[', '}']));
    }
    if let Some(tag) = v.strip_prefix('!') {
        // `!!python/name:…` is a tag with a path.
        let (tag, path) = match tag.strip_prefix('!') {
            Some(t) => (t, true),
            None => (tag, false),
        };
        let n = name_len(tag);
        let name = tag.get(..n).unwrap_or_default();
        return name.starts_with(|c: char| c.is_ascii_alphabetic())
            && word_name(name)
            && tag
                .get(n..)
                .is_some_and(|t| t.is_empty() || (path && t.starts_with('/')));
    }
    let percent =
        v.len() > 2 && v.starts_with('%') && v.ends_with('%') && name_len(&v[1..]) == v.len() - 2;
    let template = |open: &str, close: &str| {
        v.split_once(open)
            .is_some_and(|(_, rest)| rest.contains(close))
    };
    // `%(name)s`, Python's formatting.
    let formatted = v.strip_prefix("%(").is_some_and(|rest| {
        let n = name_len(rest);
        n > 0 && rest.get(n..).is_some_and(|t| t.starts_with(')'))
    });
    percent || formatted || template("{{", "}}") || template("${", "}")
}

/// Whether a generated-looking value is a URL or a file path: `://`, or
/// a path of names (`/run/secrets/db_password`, `~/.pgpass`).
fn path_shaped(v: &str) -> bool {
    let pathish = ["/", "~/", "./", "../"].iter().any(|p| v.starts_with(p));
    v.contains("://")
        || (pathish
            && v.matches('/').count() >= 2
            && v.split(['/', '.', '_', '-', '~']).all(|part| {
                part.len() <= 3 && part.bytes().all(|b| b.is_ascii_alphanumeric())
                    || all_digits(part)
                    || (part.bytes().all(|b| b.is_ascii_alphanumeric()) && word_name(part))
            }))
}

/// Whether a generated-looking value holds a placeholder in angle brackets
/// (`<password>`, `<YOUR_DB_PASS>`).
fn placeholder_shaped(v: &str) -> bool {
    v.split('<').skip(1).any(|after| {
        after.split_once('>').is_some_and(|(inner, _)| {
            inner.len() >= 4
                && inner
                    .bytes()
                    .all(|b| b.is_ascii_alphabetic() || matches!(b, b'_' | b'-' | b' '))
                && inner
                    .split(['_', '-', ' '])
                    .all(|w| w.is_empty() || word_name(w) || w.len() == 1)
        })
    })
}

/// Whether a generated-looking value is code: a word-like name called,
/// indexed or made generic up to a closing bracket at the end
/// (`os.getenv("DB")`, `cfg["db"]["pw"]`, `Option<String>`), a path
/// (`std::env::var`), a name in brackets (`{password}`, `[REDACTED]`), or
/// a pointer or reference type (`*const`, `&str`).
fn code_shaped(v: &str) -> bool {
    let b = v.as_bytes();
    let head = b
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':'))
        .count();
    let name = v.get(..head).unwrap_or_default();
    // Each part of `os.getenv`, `std::env::var`, `cfg.db` a name.
    let word_head = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.split(['.', ':']).all(|part| {
            part.is_empty()
                || (part.len() <= 3 && part.bytes().all(|c| c.is_ascii_lowercase()))
                || word_name(part)
        });
    // The call closes at the end, or the match ended inside it (at a
    // quote: `os.getenv(\"DB\")` in JSON text is matched up to `(\`).
    // What the brackets hold: nothing, a quoted argument, or a name.
    let args = |close: char| {
        v.get(head + 1..).is_some_and(|rest| {
            rest.is_empty()
                || rest.starts_with(['"', '\'', '\\', close])
                || rest.strip_suffix(close).is_some_and(|inner| {
                    inner
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b':'))
                })
        })
    };
    let closes = match b.get(head) {
        Some(b'(') => args(')') && (v.ends_with(')') || !v.contains(')')),
        Some(b'[') => args(']') && (v.ends_with(']') || !v.contains(']')),
        Some(b'<') => args('>') && v.ends_with('>'),
        _ => false,
    };
    if word_head && (closes || (name.contains("::") && head == v.len())) {
        return true;
    }
    let named = |inner: &[u8]| {
        !inner.is_empty()
            && inner
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'))
    };
    if let [open, inner @ .., close] = b
        && matches!(
            (open, close),
            (b'{', b'}') | (b'[', b']') | (b'(', b')') | (b'<', b'>')
        )
        && named(inner)
    {
        return true;
    }
    // Pointer and reference types: a word after `*` or `&`.
    matches!(b.first(), Some(b'*' | b'&'))
        && v.get(1..).is_some_and(|t| {
            t.starts_with(|c: char| c.is_ascii_alphabetic())
                && t.get(1..)
                    .is_some_and(|rest| rest.bytes().all(|c| c.is_ascii_lowercase() || c == b'_'))
        })
}

/// The name holds a password and the value looks like a real one
/// ([`password_value`]).
pub(super) fn password_assignment(m: &str) -> bool {
    let Some((key, value)) = assignment(m) else {
        return false;
    };
    let quoted = m.ends_with(['"', '\'']);
    password_value(key, if quoted { value } else { unquoted_end(value) })
}

/// An unquoted value up to the next assignment that a `,` or `&` starts
/// (`pw=Xk9,wq2&user=app`: `Xk9,wq2`), without a trailing `,` or `&`.
fn unquoted_end(v: &str) -> &str {
    let b = v.as_bytes();
    let cut = b.iter().enumerate().position(|(i, &c)| {
        let next = b.get(i + 1..).unwrap_or_default();
        if !matches!(c, b',' | b'&') {
            return false;
        }
        let name = next
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'))
            .count();
        next.get(name) == Some(&b'=')
            && std::str::from_utf8(next.get(..name).unwrap_or_default()).is_ok_and(word_name)
    });
    v.get(..cut.unwrap_or(v.len()))
        .unwrap_or(v)
        .trim_end_matches([',', '&'])
}

/// A JSON member whose name is a password's and whose value looks like one.
pub(super) fn password_pair(key: &str, value: &str) -> bool {
    (6..=256).contains(&value.len()) && password_name(key) && password_value(key, value)
}

/// A password or secret in XML: `<add key="SmtpPassword" value="…"/>`,
/// `<password>…</password>`; judged as [`password_assignment`] or
/// [`secret_assignment`] by its name.
pub(super) fn xml_credential(m: &str) -> bool {
    // An element is matched from its name back: it must start the match.
    let attribute = ["key=", "name="].iter().any(|p| {
        m.get(..p.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(p))
    });
    if !attribute && !m.starts_with('<') {
        return false;
    }
    let Some((key, value)) = xml_assignment(m) else {
        return false;
    };
    if key.contains('<') {
        return false;
    }
    if password_name(key) {
        password_value(key, value)
    } else {
        (secret_name(key) || key_name(key)) && secret_value(key, value)
    }
}

/// The name and value of an XML setting: `key="NAME" value="VALUE"` (or
/// `name=`), or `<NAME>VALUE</`.
fn xml_assignment(m: &str) -> Option<(&str, &str)> {
    if let Some(rest) = m.strip_prefix('<') {
        let (name, rest) = rest.split_once('>')?;
        return Some((name, rest.strip_suffix("</").unwrap_or(rest)));
    }
    let (_, rest) = m.split_once('=')?;
    let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let rest = rest.get(1..)?;
    let (name, rest) = rest.split_once(quote)?;
    let (_, value) = rest.split_once('=')?;
    let value = value.trim_start_matches(['"', '\'']);
    Some((name, value.trim_end_matches(['"', '\''])))
}

/// A name and the value assigned to it: `name = value` in its many forms
/// (see [`assigned_value`]), or a command-line flag and its argument
/// (`--password VALUE`).
fn assignment(m: &str) -> Option<(&str, &str)> {
    if m.starts_with("--") {
        let (end, sep) = m
            .char_indices()
            .find(|&(_, c)| c == '=' || c.is_whitespace())?;
        let name = m.get(2..end)?;
        let value = m.get(end + sep.len_utf8()..)?.trim();
        let unquoted = ["\"", "'"]
            .iter()
            .find_map(|q| {
                value
                    .strip_prefix(q)
                    .map(|v| v.strip_suffix(q).unwrap_or(v))
            })
            .unwrap_or(value);
        return Some((name, unquoted));
    }
    assigned_value(m)
}

/// A password, token or key given to a command on its command line:
/// `--password VALUE`, `mysql -pVALUE`, `docker login -p VALUE`,
/// `curl -u user:VALUE`, `openssl … -passin pass:VALUE`, `keytool
/// -storepass VALUE`; judged as [`password_assignment`] (or, for token and
/// key flags, [`secret_assignment`]). Shell references (`$DB_PASS`,
/// `"$(cat file)"`) are not secrets.
pub(super) fn credential_argument(m: &str) -> bool {
    let Some((flag, value)) = flag_and_value(m) else {
        return false;
    };
    // A long option is matched from its name back: it must be one
    // (`--db-password`), not a word ending in a name (`db-password`,
    // `x--token`, `-password`); single-dash flags are the commands' own.
    if !flag.starts_with("--") && !SHORT_CREDENTIAL_FLAGS.contains(&flag) {
        return false;
    }
    let quoted_pass = value.starts_with("pass:");
    if matches!(flag, "-pass" | "-passin" | "-passout") && !quoted_pass {
        return false;
    }
    let value = value.strip_prefix("pass:").unwrap_or(value);
    // Shell references; a generated password's `$` is judged by
    // `password_value`.
    if !generated_password(value) && (value.starts_with(['$', '`']) || value.contains("$(")) {
        return false;
    }
    let (user, password) = match flag {
        "-u" | "--user" => match value.split_once(':') {
            Some(pair) => pair,
            None => return false,
        },
        "-U" => match value.split_once('%') {
            Some(pair) => pair,
            None => return false,
        },
        _ => ("", value),
    };
    let name = flag.trim_start_matches('-');
    if flag.starts_with("--") && !password_name(name) && name != "user" {
        return secret_value(name, password);
    }
    // `password_value` judges placeholders and references itself, as the
    // value's shape asks (a generated password may hold `<` or start
    // with `$`).
    password != user && password_value("", password)
}

/// The single-dash flags of the commands [`credential_argument`] knows
/// (`mysql -p`, `curl -u`, `redis-cli -a`, `ldapsearch -w`, `sqlcmd -P`,
/// `smbclient -U`, `openssl -passin`, `keytool -storepass`).
const SHORT_CREDENTIAL_FLAGS: &[&str] = &[
    "-p",
    "-u",
    "-U",
    "-a",
    "-w",
    "-P",
    "-pass",
    "-passin",
    "-passout",
    "-storepass",
    "-keypass",
    "-srcstorepass",
    "-srckeypass",
    "-deststorepass",
    "-destkeypass",
];

/// The flag and its value at the end of a command-line match: the last
/// argument, unquoted, and the flag it belongs to (`-p 'x'`, `-px`,
/// `-p'x'`, `--user=a:b`, `--password x`).
fn flag_and_value(m: &str) -> Option<(&str, &str)> {
    let m = m.trim_end();
    let last = m.chars().last()?;
    let (before, token) = if matches!(last, '"' | '\'') {
        let body = &m[..m.len() - 1];
        let open = body.rfind(last)?;
        (&m[..open], &body[open + 1..])
    } else {
        let i = m.rfind([' ', '\t']).map_or(0, |i| i + 1);
        (&m[..i], &m[i..])
    };
    if before.is_empty() || before.ends_with([' ', '\t']) {
        // A separate argument, or a flag with its value attached.
        if !matches!(last, '"' | '\'') && token.starts_with('-') {
            if let Some((flag, value)) = token.split_once('=') {
                return Some((flag, value));
            }
            let cut = if token.starts_with("--") {
                return None;
            } else {
                2
            };
            return Some((token.get(..cut)?, token.get(cut..)?));
        }
        let flag = before.trim_end().rsplit([' ', '\t']).next()?;
        return Some((flag, token));
    }
    // A quoted value attached to its flag: `-p'x'`, `--user="a:b"`.
    let flag = before.rsplit([' ', '\t']).next()?;
    Some((flag.trim_end_matches('='), token))
}

/// An AWS secret access key: 40 base64 characters (the last part of the
/// match) with upper- and lower-case letters and digits, random, not a
/// hexadecimal digest nor `…EXAMPLEKEY`.
pub(super) fn aws_secret_value(v: &str) -> bool {
    v.len() == 40
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'/' || b == b'+')
        && v.bytes().any(|b| b.is_ascii_uppercase())
        && v.bytes().any(|b| b.is_ascii_lowercase())
        && v.bytes().any(|b| b.is_ascii_digit())
        && super::validate::random_token(v)
        && entropy(v) >= 4.0
}

/// A JSON member `"SecretAccessKey": "…"` / `"aws_secret_access_key": "…"`.
pub(super) fn aws_secret_pair(key: &str, value: &str) -> bool {
    if value.len() != 40 {
        return false;
    }
    let norm = squeeze(key);
    (norm.contains("awssecret") || norm.contains("secretaccesskey")) && aws_secret_value(value)
}

/// A JSON member `"AccountKey": "…"` / `"storage_account_key": "…"` holding
/// 86 base64 characters and `==`.
pub(super) fn azure_storage_pair(key: &str, value: &str) -> bool {
    if value.len() != 88 {
        return false;
    }
    let norm = squeeze(key);
    (norm.ends_with("accountkey") || norm.ends_with("storagekey")) && azure_storage_value(value)
}

/// A 64-byte Azure Storage key in base64 (86 characters and `==`), random,
/// not the Azurite emulator's published key.
pub(super) fn azure_storage_value(v: &str) -> bool {
    v.len() == 88
        && v.ends_with("==")
        && v[..86]
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'/' || b == b'+')
        && super::validate::random_token(&v[..86])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_before_a_space_that_is_not_ascii() {
        // U+3000 is whitespace of three bytes: no slice may cut it.
        assert_eq!(
            assignment("--password\u{3000}Winter530!"),
            Some(("password", "Winter530!"))
        );
        assert!(!credential_argument("--password\u{3000}"));
        assert!(credential_argument("--password 'Winter530!'"));
    }

    #[test]
    fn options_and_elements_matched_from_their_name_back_must_start_right() {
        // The pattern finds `password VALUE` with any name characters before.
        assert!(credential_argument("--db-admin-password Winter530!x"));
        assert!(!credential_argument("db-admin-password Winter530!x"));
        assert!(!credential_argument("x--password Winter530!x"));
        assert!(!credential_argument("-password Winter530!x"));
        assert!(credential_argument("-p Winter530!x"));
        assert!(credential_argument("-storepass Winter530!x"));
        // `openssl -pass` takes `pass:VALUE`; a bare value is another tool's.
        assert!(credential_argument(" -passin pass:Winter530!x"));
        assert!(!credential_argument("-pass Winter530!x"));
        assert!(xml_credential("<smtpPassword>Winter530!x</"));
        assert!(!xml_credential("smtpPassword>Winter530!x</"));
        assert!(!xml_credential("<a<password>Winter530!x</"));
        assert!(xml_credential(r#"key="SmtpPassword" value="Winter530!x"#));
    }

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
