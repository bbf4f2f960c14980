//! Resolving a target: URIs, readings, `~`, `cwd`, `.` and `..`.

use std::borrow::Cow;

/// What a target names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A file, from a plain path or a `file:` URI.
    File(ResolvedPath),
    /// A URI of another scheme (`https://…`): not a file, so path checks skip
    /// it.
    NotFile {
        /// The scheme, lowercased.
        scheme: String,
    },
}

/// A file target after resolution: its readings (see the module docs), each
/// normalized, the first being the primary one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ResolvedPath {
    /// The primary reading.
    primary: String,
    /// The other readings, each different from the primary and each other.
    others: Vec<String>,
    /// The target was written as a directory (trailing `/`, `.` or `..`).
    dir: bool,
}

impl ResolvedPath {
    /// The primary reading: absolute, or relative when resolved without
    /// `cwd` (`.` for the `cwd` itself).
    pub(crate) fn as_str(&self) -> &str {
        &self.primary
    }

    /// Whether the primary reading is absolute (false only without `cwd`).
    #[cfg(test)]
    pub(crate) fn is_absolute(&self) -> bool {
        self.primary.starts_with('/')
    }

    /// Whether the target was written as a directory: with a trailing `/`,
    /// or ending in a `.` or `..` component.
    #[cfg(test)]
    pub(crate) fn is_dir(&self) -> bool {
        self.dir
    }

    /// Every reading, the primary one first.
    pub(crate) fn readings(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.primary.as_str()).chain(self.others.iter().map(String::as_str))
    }

    /// The last component of the primary reading (empty for `/` and `.`).
    #[cfg(test)]
    pub(crate) fn file_name(&self) -> &str {
        file_name(&self.primary)
    }
}

/// Resolves a request target (`action.targets[].uri`) against the request's
/// `context.cwd` and `context.home`, without touching the file system.
#[expect(
    clippy::indexing_slicing,
    reason = "indices come from iterating the same byte string or list"
)]
pub(crate) fn resolve(
    target: &str,
    cwd: Option<&str>,
    home: Option<&str>,
) -> Result<Target, String> {
    if target.is_empty() {
        return Err("empty path".to_owned());
    }
    if target.contains('\0') {
        return Err(format!("path {} contains a nul byte", shown(target)));
    }
    let expanded = expand_variables(target, cwd)?;
    let target = expanded.as_deref().unwrap_or(target);
    let (path, uri) = match split_scheme(target) {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("file") => {
            (file_uri_path(target, rest)?, true)
        }
        Some((scheme, rest)) if scheme.len() > 1 && rest.starts_with("//") => {
            return Ok(Target::NotFile {
                scheme: scheme.to_ascii_lowercase(),
            });
        }
        _ => (target, false),
    };

    let mut spellings: Vec<Cow<'_, str>> = Vec::with_capacity(4);
    match percent_decode(path).map_err(|why| format!("path {} {why}", shown(target)))? {
        Some(decoded) if uri => {
            spellings.push(Cow::Owned(decoded));
            spellings.push(Cow::Borrowed(path));
        }
        Some(decoded) => {
            spellings.push(Cow::Borrowed(path));
            spellings.push(Cow::Owned(decoded));
        }
        None => spellings.push(Cow::Borrowed(path)),
    }
    for i in 0..spellings.len() {
        if spellings[i].contains('\\') {
            let slashed = spellings[i].replace('\\', "/");
            spellings.push(Cow::Owned(slashed));
        }
    }
    let dir = looks_like_dir(&spellings[0]);

    let mut home_dir: Option<Cow<'_, str>> = None;
    let mut cwd_dir: Option<Cow<'_, str>> = None;
    let mut readings: Vec<String> = Vec::with_capacity(spellings.len());
    for spelling in &spellings {
        let expanded: Cow<'_, str> = match tilde_rest(spelling)? {
            Some(rest) => {
                if home_dir.is_none() {
                    let Some(home) = home else {
                        return Err(format!(
                            "path {} starts with `~` but the request has no `context.home`",
                            shown(target)
                        ));
                    };
                    home_dir = Some(base_dir(home, None, "home")?);
                }
                let home = home_dir.as_deref().unwrap_or("/");
                Cow::Owned(format!("{home}/{rest}"))
            }
            None => Cow::Borrowed(spelling),
        };
        let joined = match cwd {
            Some(cwd) if !expanded.starts_with('/') => {
                if cwd_dir.is_none() {
                    cwd_dir = Some(base_dir(cwd, home, "cwd")?);
                }
                let cwd = cwd_dir.as_deref().unwrap_or("/");
                Cow::Owned(format!("{cwd}/{expanded}"))
            }
            _ => expanded,
        };
        let reading = normalize(&joined);
        if !readings.contains(&reading) {
            readings.push(reading);
        }
    }
    let mut readings = readings.into_iter();
    let primary = readings.next().unwrap_or_else(|| "/".to_owned());
    Ok(Target::File(ResolvedPath {
        primary,
        others: readings.collect(),
        dir,
    }))
}

/// Whether every reading of `path` is `root` or under it (component-wise and
/// case-sensitive: `/repo2` is not inside `/repo`). `root` is an absolute path
/// or a `file:` URI, normalized like a target, with a leading `~` expanded
/// from `home` when given; a relative root, a root with `~` and no `home`,
/// or a relative reading (no `cwd`) is never inside.
pub(crate) fn within(path: &ResolvedPath, root: &str, home: Option<&str>) -> bool {
    let Ok(root) = base_dir(root, home, "workspace root") else {
        return false;
    };
    path.readings().all(|r| under(r, &root, false).is_some())
}

/// Splits `scheme:rest` when `s` starts with a URI scheme (RFC 3986: a
/// letter, then letters, digits, `+`, `-` or `.`).
pub(super) fn split_scheme(s: &str) -> Option<(&str, &str)> {
    let colon = s.find(':')?;
    let scheme = &s[..colon];
    let mut bytes = scheme.bytes();
    let first = bytes.next()?;
    (first.is_ascii_alphabetic()
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
    .then(|| (scheme, &s[colon + 1..]))
}

/// The path of a `file:` URI (`rest` follows `file:`), still percent-encoded.
pub(super) fn file_uri_path<'a>(target: &str, rest: &'a str) -> Result<&'a str, String> {
    let path = if let Some(after) = rest.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        let host = &after[..end];
        if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
            return Err(format!(
                "file uri {} names host {}; only local files can be checked",
                shown(target),
                shown(host)
            ));
        }
        &after[end..]
    } else if rest.starts_with('/') {
        rest
    } else {
        return Err(format!("file uri {} has no absolute path", shown(target)));
    };
    if path.contains(['?', '#']) {
        return Err(format!(
            "file uri {} has a query or fragment; spell `?` and `#` in file names as `%3f` and `%23`",
            shown(target)
        ));
    }
    Ok(if path.is_empty() { "/" } else { path })
}

/// Decodes `%XX` escapes once (other `%` stay as they are); `None` when there
/// is none. A decoded NUL is an error; bytes that are not UTF-8 become U+FFFD.
#[expect(
    clippy::indexing_slicing,
    reason = "indices come from iterating the same byte string or list"
)]
pub(super) fn percent_decode(s: &str) -> Result<Option<String>, &'static str> {
    let bytes = s.as_bytes();
    if memchr::memchr(b'%', bytes).is_none() {
        return Ok(None);
    }
    let hex = |b: u8| (b as char).to_digit(16);
    let mut out = Vec::with_capacity(bytes.len());
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        let escaped = match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&hi), Some(&lo)) => hex(hi).zip(hex(lo)),
            _ => None,
        };
        match escaped {
            Some((hi, lo)) => {
                let byte = u8::try_from(hi * 16 + lo).unwrap_or(0);
                if byte == 0 {
                    return Err("contains a percent-encoded nul byte");
                }
                out.push(byte);
                changed = true;
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    Ok(changed.then(|| String::from_utf8_lossy(&out).into_owned()))
}

/// For `~` and `~/rest`, `Some(rest)`; `None` without a leading `~`; an error
/// for `~user`.
pub(super) fn tilde_rest(s: &str) -> Result<Option<&str>, String> {
    if s == "~" {
        Ok(Some(""))
    } else if let Some(rest) = s.strip_prefix("~/") {
        Ok(Some(rest))
    } else if s.starts_with('~') {
        Err(format!(
            "path {} starts with `~user`, whose home cannot be known",
            shown(s)
        ))
    } else {
        Ok(None)
    }
}

/// Whether a path was written as a directory.
pub(super) fn looks_like_dir(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or(path);
    path.ends_with('/') || last == "." || last == ".."
}

/// Resolves a context directory (`cwd`, `home`, a workspace root): a path or
/// `file:` URI, with `~/` from `home` when given, absolute and normalized.
/// Borrows when it already is.
pub(super) fn base_dir<'a>(
    dir: &'a str,
    home: Option<&str>,
    what: &str,
) -> Result<Cow<'a, str>, String> {
    if dir.is_empty() {
        return Err(format!("`{what}` is empty"));
    }
    if dir.contains('\0') {
        return Err(format!("`{what}` {} contains a nul byte", shown(dir)));
    }
    let path: Cow<'a, str> = match split_scheme(dir) {
        Some((scheme, rest)) if scheme.eq_ignore_ascii_case("file") => {
            let path = file_uri_path(dir, rest)?;
            match percent_decode(path).map_err(|why| format!("`{what}` {} {why}", shown(dir)))? {
                Some(decoded) => Cow::Owned(decoded),
                None => Cow::Borrowed(path),
            }
        }
        _ => Cow::Borrowed(dir),
    };
    let path = match (tilde_rest(&path)?, home) {
        (Some(rest), Some(home)) => {
            let home = base_dir(home, None, "home")?;
            Cow::Owned(format!("{home}/{rest}"))
        }
        _ => path,
    };
    if !path.starts_with('/') {
        return Err(format!("`{what}` {} is not an absolute path", shown(dir)));
    }
    Ok(if is_normal(&path) {
        path
    } else {
        Cow::Owned(normalize(&path))
    })
}

/// Whether an absolute path is already normalized.
pub(super) fn is_normal(path: &str) -> bool {
    path == "/"
        || path
            .strip_prefix('/')
            .is_some_and(|rest| rest.split('/').all(|c| !matches!(c, "" | "." | "..")))
}

/// Removes `.`, `..` (never above `/`; kept in front of a relative path),
/// repeated and trailing slashes. The empty relative path is `.`.
pub(super) fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if absolute => {}
                _ => parts.push(".."),
            },
            _ => parts.push(part),
        }
    }
    let mut out = String::with_capacity(path.len() + 1);
    if absolute {
        out.push('/');
    }
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.push_str(part);
    }
    if out.is_empty() {
        out.push('.');
    }
    out
}

/// The part of normalized `path` under normalized absolute `base` (`""` for
/// `base` itself), comparing ASCII case-insensitively when `fold`.
pub(super) fn under<'p>(path: &'p str, base: &str, fold: bool) -> Option<&'p str> {
    if base == "/" {
        return path.strip_prefix('/');
    }
    let (p, b) = (path.as_bytes(), base.as_bytes());
    let head = p.get(..b.len())?;
    let same = if fold {
        head.eq_ignore_ascii_case(b)
    } else {
        head == b
    };
    if !same {
        return None;
    }
    match p.get(b.len()) {
        None => Some(""),
        Some(b'/') => path.get(b.len() + 1..),
        Some(_) => None,
    }
}

/// Whether a relative path climbs out of its base.
pub(super) fn escapes(path: &str) -> bool {
    path == ".." || path.starts_with("../")
}

/// The last component of a normalized path (`""` for `/` and `.`).
pub(super) fn file_name(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == "." { "" } else { name }
}

/// User input for an error message: in backticks, control characters
/// escaped, cut after 80 characters.
pub(super) fn shown(s: &str) -> String {
    const MAX: usize = 80;
    let mut out = String::from("`");
    for (i, c) in s.chars().enumerate() {
        if i == MAX {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

/// `$HOME` and `${HOME}` at the start of a path become `~`, `$PWD` and
/// `${PWD}` become `cwd`; any other variable makes the path unresolvable
/// (its value is unknown). `None` when there is nothing to expand.
fn expand_variables(target: &str, cwd: Option<&str>) -> Result<Option<String>, String> {
    if !target.contains('$') {
        return Ok(None);
    }
    let lead = |name: &str| {
        [format!("${name}"), format!("${{{name}}}")]
            .into_iter()
            .find_map(|p| {
                target
                    .strip_prefix(p.as_str())
                    .filter(|rest| rest.is_empty() || rest.starts_with('/'))
                    .map(str::to_owned)
            })
    };
    let out = if let Some(rest) = lead("HOME") {
        format!("~{rest}")
    } else if let Some(rest) = lead("PWD") {
        let Some(cwd) = cwd else {
            return Err(format!(
                "path {} starts with `$PWD` but the request has no `context.cwd`",
                shown(target)
            ));
        };
        format!("{}{rest}", cwd.trim_end_matches('/'))
    } else {
        target.to_owned()
    };
    let bytes = out.as_bytes();
    if let Some(k) = bytes.iter().enumerate().position(|(k, &b)| {
        b == b'$'
            && bytes
                .get(k + 1)
                .is_some_and(|&n| n == b'{' || n == b'(' || n.is_ascii_alphabetic() || n == b'_')
    }) {
        let var: String = out
            .get(k..)
            .unwrap_or_default()
            .chars()
            .take_while(|c| !matches!(c, '/' | '\\'))
            .take(40)
            .collect();
        return Err(format!(
            "path {} holds `{var}`, whose value is unknown (only `$HOME` and `$PWD` at the start are expanded)",
            shown(target)
        ));
    }
    Ok(Some(out))
}
