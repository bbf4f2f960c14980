//! File targets: resolving paths and matching path rules (SPEC §4.4).
//!
//! Everything here is lexical: the engine is a policy engine and never
//! touches the file system, so symlinks, bind mounts and hard links are
//! invisible to it. A rule on `/etc/**` does not see `/tmp/link/passwd` when
//! `/tmp/link` points at `/etc`, and `/repo/../etc` is taken to be `/etc` even
//! if `/repo` is a link. Policies that must hold against an agent able to
//! create links need an operating-system sandbox as well.
//!
//! # Resolving a target ([`resolve`])
//!
//! - `file:` URIs (scheme in any case) name local files: `file:///a/b`,
//!   `file://localhost/a/b` and `file:/a/b`. Another host, a query or a
//!   fragment (a raw `?` or `#`; a file name spells them `%3f`, `%23`), or a
//!   `file:` without an absolute path is an error. A URI of another scheme
//!   (two or more scheme characters followed by `://`, e.g. `https://…`) is
//!   [`Target::NotFile`], which path checks skip. Anything else is a plain
//!   POSIX path, so `C:/x` and `mailto:x` are relative paths.
//! - A target may be read more than one way, and the tool that acts on it
//!   decides which; so every plausible reading is kept: the text as written,
//!   the text percent-decoded once (`%2e%2e` is `..`, `%2F` is `/`, `%252e` is
//!   the literal `%2e`), and each of these with `\` taken as `/`. On POSIX a
//!   backslash is an ordinary file-name character, but Windows tools and URL
//!   parsers treat it as a separator. A rule matches a target when it matches
//!   some reading; a target is inside a workspace only when every reading is.
//!   A `file:` URI reads percent-decoded first; a plain path as written first
//!   (the primary reading, [`ResolvedPath::as_str`]).
//! - A NUL byte, written or percent-encoded, is an error (C APIs would cut
//!   the path there). Decoded bytes that are not UTF-8 become U+FFFD.
//! - `~` and `~/x` expand from `home` (a missing `home` is an error); a
//!   leading `~` followed by anything else (`~user/x`) is an error, because
//!   another user's home cannot be known.
//! - A relative path is joined to `cwd`; without `cwd` it stays relative and
//!   keeps any leading `..`. `home` and `cwd` may be paths or `file:` URIs and
//!   must be absolute (`cwd` may start with `~/`).
//! - `.` and `..` are removed lexically (never above `/`), repeated slashes
//!   folded, and a trailing slash dropped ([`ResolvedPath::is_dir`] remembers
//!   it). Long paths cost time linear in their length.
//!
//! An error means the target cannot be placed: callers should treat it as a
//! match (fail closed), not skip it.
//!
//! # Patterns ([`PathRules`])
//!
//! - `*` and `?` do not cross `/`; `**` does; `{a,b}`, `[ab]` and `\`
//!   escapes work as in `globset`. A leading dot is not special: `*` matches
//!   `.env`.
//! - A pattern without `/` matches the file name (the last component) alone:
//!   `.env*`, `*.pem`, `id_rsa*`. It does not match directory names on the
//!   way: use `**/secrets/**` for those.
//! - `~` or `~/…` matches relative to `home`; `~user` is an error.
//! - `/…` matches the absolute path.
//! - Any other pattern with `/` is anchored at `cwd` and matches only paths
//!   inside it (`config/.env.production`, `./src/**`), except that a pattern
//!   starting with `**/` matches at any depth anywhere (`**/.ssh/**` also
//!   catches `/home/u/.ssh/id_rsa` outside `cwd`).
//! - `dir/` and `dir/**` both cover the directory itself and everything under
//!   it (so listing `~/.ssh` is caught by `~/.ssh/**`). `.` components and
//!   repeated slashes are dropped; a `..` component is an error.
//! - `except` wins over `paths`, reading by reading: a target is matched when
//!   one of its readings is matched by `paths` and not by `except`.
//! - `paths` ignore case (and the `home` and `cwd` prefixes they are
//!   anchored at ignore ASCII case), because macOS and Windows file systems
//!   do: `.ENV` is `.env` there. `except` is exact, so case cannot widen an
//!   exception; blocking `.ENV.EXAMPLE` on Linux is the price.
//! - When the context a `paths` pattern is anchored at is missing (`~/…`
//!   without `home`, `a/b` without `cwd`, `/a/b` against a relative target
//!   resolved without `cwd`), the pattern matches at any depth (`**/a/b`):
//!   the target might be there. An `except` pattern never matches without
//!   its context.
//!
//! # Operations ([`Operation`], [`OperationSet`])
//!
//! The canonical operations are those of the pi guardrails protocol: `read`,
//! `write`, `delete`, `list`, `stat` for files and `exec`, `spawn` for
//! processes. A request's operation is read case-insensitively, after the last
//! `.`, `:` or `/` (`fs.writeFile` is `writefile`), with `-` and spaces as
//! `_`, and common synonyms map to what they do (see [`OperationSet::of_request`]):
//! `copy` reads and writes, `move` and `rename` read, write and delete, and an
//! unknown or absent operation may do anything. A policy names canonical
//! operations only.

use std::borrow::Cow;

use globset::{Candidate, Glob, GlobBuilder, GlobSet, GlobSetBuilder};

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
    pub(crate) fn is_absolute(&self) -> bool {
        self.primary.starts_with('/')
    }

    /// Whether the target was written as a directory: with a trailing `/`,
    /// or ending in a `.` or `..` component.
    pub(crate) fn is_dir(&self) -> bool {
        self.dir
    }

    /// Every reading, the primary one first.
    pub(crate) fn readings(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.primary.as_str()).chain(self.others.iter().map(String::as_str))
    }

    /// The last component of the primary reading (empty for `/` and `.`).
    pub(crate) fn file_name(&self) -> &str {
        file_name(&self.primary)
    }
}

/// Resolves a request target (`action.targets[].uri`) against the request's
/// `context.cwd` and `context.home`, without touching the file system.
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

/// The compiled `paths` and `except` globs of a `path` check.
#[derive(Clone, Debug)]
pub(crate) struct PathRules {
    /// `paths`: case-insensitive, with loose fallbacks.
    deny: Globs,
    /// `except`: exact, no fallbacks.
    allow: Globs,
}

impl PathRules {
    /// Compiles a check's `paths` and `except`; an error names the first bad
    /// pattern. No patterns at all matches nothing.
    pub(crate) fn new(paths: &[String], except: &[String]) -> Result<Self, String> {
        Ok(Self {
            deny: Globs::new(paths, true)?,
            allow: Globs::new(except, false)?,
        })
    }

    /// Whether some reading of `path` is matched by `paths` and not by
    /// `except`. `cwd` and `home` are the request's context, the same that
    /// `path` was resolved with; an unusable one counts as missing.
    pub(crate) fn matches(
        &self,
        path: &ResolvedPath,
        cwd: Option<&str>,
        home: Option<&str>,
    ) -> bool {
        let home_dir = home.and_then(|h| base_dir(h, None, "home").ok());
        let cwd_dir = cwd.and_then(|c| base_dir(c, home, "cwd").ok());
        let (cwd_dir, home_dir) = (cwd_dir.as_deref(), home_dir.as_deref());
        path.readings()
            .any(|r| self.deny.hit(r, cwd_dir, home_dir) && !self.allow.hit(r, cwd_dir, home_dir))
    }
}

/// Index of the glob set for file names.
const NAME: usize = 0;
/// Index of the glob set for absolute patterns.
const ABSOLUTE: usize = 1;
/// Index of the glob set for patterns anchored at `cwd`.
const RELATIVE: usize = 2;
/// Index of the glob set for `**/…` patterns, matched anywhere.
const ANYWHERE: usize = 3;
/// Index of the glob set for `~/…` patterns, anchored at `home`.
const HOME: usize = 4;
/// Index of the `**/`-prefixed absolute patterns, for relative targets.
const LOOSE_ABSOLUTE: usize = 5;
/// Index of the `**/`-prefixed relative patterns, for a missing `cwd`.
const LOOSE_RELATIVE: usize = 6;
/// Index of the `**/`-prefixed home patterns, for a missing `home`.
const LOOSE_HOME: usize = 7;
/// How many glob sets one side of a rule has.
const SETS: usize = 8;

/// One side of a path rule (`paths` or `except`), one glob set per kind of
/// anchor.
#[derive(Clone, Debug)]
struct Globs {
    /// The sets, indexed by [`NAME`] … [`LOOSE_HOME`].
    sets: [GlobSet; SETS],
    /// `paths` (case-insensitive, loose fallbacks) rather than `except`.
    deny: bool,
}

impl Globs {
    /// Compiles one side of a rule.
    fn new(patterns: &[String], deny: bool) -> Result<Self, String> {
        let mut builders: [GlobSetBuilder; SETS] = std::array::from_fn(|_| GlobSetBuilder::new());
        for pattern in patterns {
            add_pattern(&mut builders, pattern, deny)?;
        }
        let mut sets = Vec::with_capacity(SETS);
        for builder in builders {
            sets.push(
                builder
                    .build()
                    .map_err(|e| format!("invalid path patterns: {e}"))?,
            );
        }
        let sets = sets
            .try_into()
            .map_err(|_| "invalid path patterns".to_owned())?;
        Ok(Self { sets, deny })
    }

    /// Whether one reading is matched, given the normalized `cwd` and `home`.
    fn hit(&self, reading: &str, cwd: Option<&str>, home: Option<&str>) -> bool {
        let sets = &self.sets;
        if sets[NAME].is_match(file_name(reading)) {
            return true;
        }
        if !reading.starts_with('/') {
            let rel = if reading == "." { "" } else { reading };
            let rel = Candidate::new(rel);
            if sets[ANYWHERE].is_match_candidate(&rel) {
                return true;
            }
            return if self.deny {
                sets[LOOSE_ABSOLUTE].is_match_candidate(&rel)
                    || sets[LOOSE_RELATIVE].is_match_candidate(&rel)
                    || sets[LOOSE_HOME].is_match_candidate(&rel)
            } else {
                !escapes(reading) && sets[RELATIVE].is_match_candidate(&rel)
            };
        }
        let whole = Candidate::new(reading);
        if sets[ABSOLUTE].is_match_candidate(&whole) || sets[ANYWHERE].is_match_candidate(&whole) {
            return true;
        }
        let anchored = |base: Option<&str>, set: usize, loose: usize| match base {
            Some(base) => {
                under(reading, base, self.deny).is_some_and(|rel| sets[set].is_match(rel))
            }
            None => self.deny && sets[loose].is_match_candidate(&whole),
        };
        anchored(cwd, RELATIVE, LOOSE_RELATIVE) || anchored(home, HOME, LOOSE_HOME)
    }
}

/// Classifies one pattern and adds its globs to `builders`.
fn add_pattern(
    builders: &mut [GlobSetBuilder; SETS],
    pattern: &str,
    deny: bool,
) -> Result<(), String> {
    let bad = |why: &str| format!("invalid path pattern {}: {why}", shown(pattern));
    if pattern.is_empty() {
        return Err("invalid path pattern ``: empty".to_owned());
    }
    if pattern.contains('\0') {
        return Err(bad("contains a nul byte"));
    }
    let (set, loose, body) = if pattern == "~" || pattern.starts_with("~/") {
        (HOME, Some(LOOSE_HOME), &pattern[1..])
    } else if pattern.starts_with('~') {
        return Err(bad("`~user` cannot be resolved; write the absolute path"));
    } else if !pattern.contains('/') {
        builders[NAME].add(glob(pattern, deny).map_err(|e| bad(e.kind().to_string().as_str()))?);
        return Ok(());
    } else if pattern.starts_with('/') {
        (ABSOLUTE, Some(LOOSE_ABSOLUTE), pattern)
    } else if pattern.starts_with("**/") {
        (ANYWHERE, None, pattern)
    } else {
        (RELATIVE, Some(LOOSE_RELATIVE), pattern)
    };
    for form in pattern_forms(body, set == ABSOLUTE).map_err(bad)? {
        builders[set].add(glob(&form, deny).map_err(|e| bad(e.kind().to_string().as_str()))?);
        if let (true, Some(loose)) = (deny, loose) {
            let anywhere = if form.starts_with('/') {
                format!("**{form}")
            } else if form.is_empty() {
                "**".to_owned()
            } else {
                format!("**/{form}")
            };
            builders[loose]
                .add(glob(&anywhere, deny).map_err(|e| bad(e.kind().to_string().as_str()))?);
        }
    }
    Ok(())
}

/// The globs a pattern with `/` stands for: the pattern with `.` components
/// and repeated slashes dropped, plus the directory itself for `dir/` and
/// `dir/**` (and everything under it for `dir/`). A `..` component is an
/// error. `absolute` keeps the leading `/` (the root is `/`); otherwise the
/// anchor itself is the empty string.
fn pattern_forms(body: &str, absolute: bool) -> Result<Vec<String>, &'static str> {
    let trailing = body.ends_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in body.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err("`..` is not allowed in a pattern"),
            _ => parts.push(part),
        }
    }
    let joined = parts.join("/");
    let full = |s: &str| {
        if absolute {
            format!("/{s}")
        } else {
            s.to_owned()
        }
    };
    let mut forms = vec![full(&joined)];
    if trailing {
        forms.push(full(&if joined.is_empty() {
            "**".to_owned()
        } else {
            format!("{joined}/**")
        }));
    } else if joined == "**" {
        forms.push(full(""));
    } else if let Some(parent) = joined.strip_suffix("/**") {
        forms.push(full(parent));
    }
    Ok(forms)
}

/// One glob: `*` and `?` stay within a component; `paths` ignore case.
fn glob(pattern: &str, deny: bool) -> Result<Glob, globset::Error> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(deny)
        .build()
}

/// What an operation in a request or a policy names.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Operation {
    /// Read a file's contents.
    Read,
    /// Create, change or overwrite a file.
    Write,
    /// Remove a file or directory.
    Delete,
    /// List a directory.
    List,
    /// Read a file's metadata or test that it exists.
    Stat,
    /// Run a program and wait for it.
    Exec,
    /// Start a process that keeps running.
    Spawn,
    /// An operation this module does not know (trimmed, as written).
    Other(String),
}

/// The canonical operations, in bit order.
static CANONICAL: [(Operation, &str); 7] = [
    (Operation::Read, "read"),
    (Operation::Write, "write"),
    (Operation::Delete, "delete"),
    (Operation::List, "list"),
    (Operation::Stat, "stat"),
    (Operation::Exec, "exec"),
    (Operation::Spawn, "spawn"),
];

/// Bit of `read` in an [`OperationSet`].
const READ: u8 = 1;
/// Bit of `write`.
const WRITE: u8 = 1 << 1;
/// Bit of `delete`.
const DELETE: u8 = 1 << 2;
/// Bit of `list`.
const LIST: u8 = 1 << 3;
/// Bit of `stat`.
const STAT: u8 = 1 << 4;
/// Bit of `exec`.
const EXEC: u8 = 1 << 5;
/// Bit of `spawn`.
const SPAWN: u8 = 1 << 6;

impl Operation {
    /// Parses a request's operation: a canonical name or a synonym (see
    /// [`OperationSet::of_request`]), naming the main effect for those that
    /// have several (`move` and `copy` are [`Operation::Write`]); anything else
    /// is [`Operation::Other`].
    pub(crate) fn parse(operation: &str) -> Self {
        let bits = effects(operation);
        if bits == 0 {
            return Self::Other(operation.trim().to_owned());
        }
        let main = if bits & WRITE != 0 { WRITE } else { bits };
        CANONICAL.get(main.trailing_zeros() as usize).map_or_else(
            || Self::Other(operation.trim().to_owned()),
            |(op, _)| op.clone(),
        )
    }

    /// The canonical name, or the text of [`Operation::Other`].
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Self::Other(text) => text,
            op => CANONICAL
                .iter()
                .find(|(c, _)| c == op)
                .map_or("", |(_, name)| *name),
        }
    }

    /// The set bit of a canonical operation; 0 for [`Operation::Other`].
    fn bit(&self) -> u8 {
        match self {
            Self::Read => READ,
            Self::Write => WRITE,
            Self::Delete => DELETE,
            Self::List => LIST,
            Self::Stat => STAT,
            Self::Exec => EXEC,
            Self::Spawn => SPAWN,
            Self::Other(_) => 0,
        }
    }
}

/// A set of canonical operations: the `operations` a check applies to, or
/// what a request's operation may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct OperationSet(u8);

impl OperationSet {
    /// Every operation: the default of a `path` check.
    pub(crate) const ALL: Self = Self(READ | WRITE | DELETE | LIST | STAT | EXEC | SPAWN);
    /// `write` and `delete`: the default of a `workspace` check.
    pub(crate) const WORKSPACE_DEFAULT: Self = Self(WRITE | DELETE);

    /// A check's `operations`: canonical names only, exactly as spelled (a
    /// typo must not silently disable a check); an empty list is an error.
    pub(crate) fn from_policy(names: &[String]) -> Result<Self, String> {
        if names.is_empty() {
            return Err("no operations listed".to_owned());
        }
        let mut bits = 0;
        for name in names {
            let Some(i) = CANONICAL.iter().position(|(_, n)| n == name) else {
                return Err(format!(
                    "unknown operation {}; expected read, write, delete, list, stat, exec or spawn",
                    shown(name)
                ));
            };
            bits |= 1 << i;
        }
        Ok(Self(bits))
    }

    /// What a request's `action.operation` may do. Read case-insensitively,
    /// after the last `.`, `:` or `/`, with `-` and spaces as `_`:
    ///
    /// - read: `read`, `open`, `cat`, `view`, `load`, `get`, `head`, `tail`,
    ///   `grep`, `download`, `readfile`, `read_file`, `read_text_file`,
    ///   `read_media_file`, `read_multiple_files`
    /// - write: `write`, `create`, `edit`, `append`, `update`, `modify`,
    ///   `patch`, `put`, `save`, `overwrite`, `replace`, `truncate`, `touch`,
    ///   `mkdir`, `chmod`, `chown`, `upload`, `writefile`, `write_file`,
    ///   `edit_file`, `create_directory`, `appendfile`
    /// - delete: `delete`, `remove`, `unlink`, `rm`, `rmdir`, `del`, `erase`,
    ///   `destroy`, `trash`, `delete_file`
    /// - list: `list`, `ls`, `readdir`, `dir`, `glob`, `find`, `search`,
    ///   `tree`, `walk`, `list_directory`, `list_directory_with_sizes`,
    ///   `directory_tree`, `search_files`
    /// - stat: `stat`, `lstat`, `exists`, `access`, `info`, `metadata`,
    ///   `get_file_info`
    /// - exec: `exec`, `execute`, `run`, `execfile`; spawn: `spawn`, `fork`,
    ///   `launch`, `start`
    /// - read and write: `copy`, `cp`, `copy_file`, `copyfile`; read, write
    ///   and delete: `move`, `mv`, `rename`, `move_file`
    ///
    /// An unknown or absent operation may do anything: [`Self::ALL`].
    pub(crate) fn of_request(operation: Option<&str>) -> Self {
        match operation.map(effects) {
            Some(bits) if bits != 0 => Self(bits),
            _ => Self::ALL,
        }
    }

    /// Whether the set holds `op`; an [`Operation::Other`] may be anything,
    /// so every non-empty set holds it.
    pub(crate) fn contains(self, op: &Operation) -> bool {
        match op {
            Operation::Other(_) => self.0 != 0,
            op => self.0 & op.bit() != 0,
        }
    }

    /// Whether the two sets share an operation.
    pub(crate) fn intersects(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }
}

/// The operation bits a request's operation word stands for (0: unknown).
fn effects(operation: &str) -> u8 {
    let word = operation.trim();
    let word = word.rfind(['.', ':', '/']).map_or(word, |i| &word[i + 1..]);
    let word: String = word
        .chars()
        .map(|c| match c {
            '-' | ' ' => '_',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    match word.as_str() {
        "read"
        | "open"
        | "cat"
        | "view"
        | "load"
        | "get"
        | "head"
        | "tail"
        | "grep"
        | "download"
        | "readfile"
        | "read_file"
        | "read_text_file"
        | "read_media_file"
        | "read_multiple_files" => READ,
        "write" | "create" | "edit" | "append" | "update" | "modify" | "patch" | "put" | "save"
        | "overwrite" | "replace" | "truncate" | "touch" | "mkdir" | "chmod" | "chown"
        | "upload" | "writefile" | "write_file" | "edit_file" | "create_directory"
        | "appendfile" => WRITE,
        "delete" | "remove" | "unlink" | "rm" | "rmdir" | "del" | "erase" | "destroy" | "trash"
        | "delete_file" => DELETE,
        "list"
        | "ls"
        | "readdir"
        | "dir"
        | "glob"
        | "find"
        | "search"
        | "tree"
        | "walk"
        | "list_directory"
        | "list_directory_with_sizes"
        | "directory_tree"
        | "search_files" => LIST,
        "stat" | "lstat" | "exists" | "access" | "info" | "metadata" | "get_file_info" => STAT,
        "exec" | "execute" | "run" | "execfile" => EXEC,
        "spawn" | "fork" | "launch" | "start" => SPAWN,
        "copy" | "cp" | "copy_file" | "copyfile" => READ | WRITE,
        "move" | "mv" | "rename" | "move_file" => READ | WRITE | DELETE,
        _ => 0,
    }
}

/// Splits `scheme:rest` when `s` starts with a URI scheme (RFC 3986: a
/// letter, then letters, digits, `+`, `-` or `.`).
fn split_scheme(s: &str) -> Option<(&str, &str)> {
    let colon = s.find(':')?;
    let scheme = &s[..colon];
    let mut bytes = scheme.bytes();
    let first = bytes.next()?;
    (first.is_ascii_alphabetic()
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))
    .then(|| (scheme, &s[colon + 1..]))
}

/// The path of a `file:` URI (`rest` follows `file:`), still percent-encoded.
fn file_uri_path<'a>(target: &str, rest: &'a str) -> Result<&'a str, String> {
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
fn percent_decode(s: &str) -> Result<Option<String>, &'static str> {
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
fn tilde_rest(s: &str) -> Result<Option<&str>, String> {
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
fn looks_like_dir(path: &str) -> bool {
    let last = path.rsplit('/').next().unwrap_or(path);
    path.ends_with('/') || last == "." || last == ".."
}

/// Resolves a context directory (`cwd`, `home`, a workspace root): a path or
/// `file:` URI, with `~/` from `home` when given, absolute and normalized.
/// Borrows when it already is.
fn base_dir<'a>(dir: &'a str, home: Option<&str>, what: &str) -> Result<Cow<'a, str>, String> {
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
fn is_normal(path: &str) -> bool {
    path == "/"
        || path
            .strip_prefix('/')
            .is_some_and(|rest| rest.split('/').all(|c| !matches!(c, "" | "." | "..")))
}

/// Removes `.`, `..` (never above `/`; kept in front of a relative path),
/// repeated and trailing slashes. The empty relative path is `.`.
fn normalize(path: &str) -> String {
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
fn under<'p>(path: &'p str, base: &str, fold: bool) -> Option<&'p str> {
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
fn escapes(path: &str) -> bool {
    path == ".." || path.starts_with("../")
}

/// The last component of a normalized path (`""` for `/` and `.`).
fn file_name(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == "." { "" } else { name }
}

/// User input for an error message: in backticks, control characters
/// escaped, cut after 80 characters.
fn shown(s: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn file(target: &str, cwd: Option<&str>, home: Option<&str>) -> ResolvedPath {
        match resolve(target, cwd, home) {
            Ok(Target::File(path)) => path,
            other => panic!("{target}: {other:?}"),
        }
    }

    fn readings(path: &ResolvedPath) -> Vec<&str> {
        path.readings().collect()
    }

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    /// (target, cwd, home, readings with the primary first)
    type Resolution<'a> = (&'a str, Option<&'a str>, Option<&'a str>, &'a [&'a str]);

    #[test]
    fn resolution() {
        let cwd = Some("/repo/src");
        let home = Some("/home/u");
        let cases: &[Resolution<'_>] = &[
            ("/etc/passwd", cwd, home, &["/etc/passwd"]),
            ("/repo/../etc/passwd", cwd, home, &["/etc/passwd"]),
            ("src/../../etc/shadow", cwd, home, &["/repo/etc/shadow"]),
            ("../../etc/shadow", cwd, home, &["/etc/shadow"]),
            ("../../../../../../etc/shadow", cwd, home, &["/etc/shadow"]),
            ("//etc//passwd", cwd, home, &["/etc/passwd"]),
            ("/./etc/./passwd", cwd, home, &["/etc/passwd"]),
            ("/..", cwd, home, &["/"]),
            ("/", cwd, home, &["/"]),
            (".", cwd, home, &["/repo/src"]),
            ("./a/./b/", cwd, home, &["/repo/src/a/b"]),
            ("file:///etc/passwd", cwd, home, &["/etc/passwd"]),
            ("FILE:///etc/passwd", cwd, home, &["/etc/passwd"]),
            ("file://localhost/etc/passwd", cwd, home, &["/etc/passwd"]),
            ("file://LocalHost/etc/passwd", cwd, home, &["/etc/passwd"]),
            ("file:/etc/passwd", cwd, home, &["/etc/passwd"]),
            ("file:////etc/passwd", cwd, home, &["/etc/passwd"]),
            ("file://", cwd, home, &["/"]),
            (
                "file:///repo/%2e%2e/etc/passwd",
                cwd,
                home,
                &["/etc/passwd", "/repo/%2e%2e/etc/passwd"],
            ),
            (
                "file:///repo/%2E%2E/%2E%2E/etc/passwd",
                cwd,
                home,
                &["/etc/passwd", "/repo/%2E%2E/%2E%2E/etc/passwd"],
            ),
            (
                "file:///etc%2Fpasswd",
                cwd,
                home,
                &["/etc/passwd", "/etc%2Fpasswd"],
            ),
            (
                "file:///repo/%252e%252e/etc",
                cwd,
                home,
                &["/repo/%2e%2e/etc", "/repo/%252e%252e/etc"],
            ),
            (
                "file:///a%20b/c%zz%",
                cwd,
                home,
                &["/a b/c%zz%", "/a%20b/c%zz%"],
            ),
            (
                "%2e%2e/%2e%2e/etc/passwd",
                cwd,
                home,
                &["/repo/src/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd"],
            ),
            ("100%", cwd, home, &["/repo/src/100%"]),
            ("~", cwd, home, &["/home/u"]),
            ("~/.ssh/id_rsa", cwd, home, &["/home/u/.ssh/id_rsa"]),
            (
                "~/.ssh/id_rsa",
                cwd,
                Some("file:///home/u/"),
                &["/home/u/.ssh/id_rsa"],
            ),
            ("~//../x", cwd, Some("/"), &["/x"]),
            ("/tmp/~/x", cwd, None, &["/tmp/~/x"]),
            ("a~", cwd, None, &["/repo/src/a~"]),
            ("file:///~/x", cwd, None, &["/~/x"]),
            ("x", Some("file:///repo//a/../src/"), None, &["/repo/src/x"]),
            ("x", Some("~/proj"), home, &["/home/u/proj/x"]),
            ("x", Some("/"), None, &["/x"]),
            // Backslashes: a file-name character on POSIX, a separator
            // elsewhere; both readings are kept.
            (
                "..\\..\\etc\\passwd",
                cwd,
                home,
                &["/repo/src/..\\..\\etc\\passwd", "/etc/passwd"],
            ),
            ("/repo\\..\\etc", cwd, home, &["/repo\\..\\etc", "/etc"]),
            (
                "file:///repo/..%5c..%5cetc",
                cwd,
                home,
                &["/repo/..\\..\\etc", "/repo/..%5c..%5cetc", "/etc"],
            ),
            ("C:/Users/x", None, None, &["C:/Users/x"]),
            ("mailto:x@y", cwd, None, &["/repo/src/mailto:x@y"]),
            // Without cwd a relative path stays relative.
            ("a/../../x", None, None, &["../x"]),
            ("./", None, None, &["."]),
            ("src/./main.rs", None, None, &["src/main.rs"]),
        ];
        for (target, cwd, home, want) in cases {
            let got = file(target, *cwd, *home);
            assert_eq!(readings(&got), *want, "{target} cwd={cwd:?} home={home:?}");
        }
    }

    #[test]
    fn resolution_errors() {
        let home = Some("/home/u");
        let cases: &[(&str, Option<&str>, Option<&str>, &str)] = &[
            ("", None, home, "empty path"),
            ("/etc/passwd\0.txt", None, home, "nul byte"),
            ("/etc/passwd%00.txt", None, home, "nul byte"),
            ("file:///etc/passwd%00", None, home, "nul byte"),
            (
                "file://evil.example/etc/passwd",
                None,
                home,
                "names host `evil.example`",
            ),
            ("file://~/x", None, home, "names host"),
            ("file:etc/passwd", None, home, "no absolute path"),
            ("file:///etc/passwd?x", None, home, "query or fragment"),
            ("file:///etc/passwd#x", None, home, "query or fragment"),
            ("~/.ssh/id_rsa", None, None, "no `context.home`"),
            ("~bob/.ssh/id_rsa", None, home, "`~user`"),
            ("%7Ebob/x", Some("/repo"), home, "`~user`"),
            ("~/x", None, Some("home/u"), "not an absolute path"),
            (
                "x",
                Some("repo"),
                home,
                "`cwd` `repo` is not an absolute path",
            ),
            ("x", Some(""), home, "`cwd` is empty"),
        ];
        for (target, cwd, home, want) in cases {
            let err = resolve(target, *cwd, *home).unwrap_err();
            assert!(err.contains(want), "{target}: {err}");
            assert!(!err.contains('\0'), "{target}: {err:?}");
            assert!(!err.ends_with('.'), "{err}");
            assert_eq!(err, err.to_lowercase(), "{err}");
        }
    }

    #[test]
    fn other_schemes_are_not_files() {
        for (target, scheme) in [
            ("https://example.com/.env", "https"),
            ("HTTP://example.com/x.pem", "http"),
            ("s3://bucket/key", "s3"),
            ("git+ssh://host/repo", "git+ssh"),
        ] {
            assert_eq!(
                resolve(target, Some("/repo"), None),
                Ok(Target::NotFile {
                    scheme: scheme.to_owned()
                })
            );
        }
    }

    #[test]
    fn directory_hint_and_names() {
        for (target, dir, name) in [
            ("/repo/src/", true, "src"),
            ("/repo/src/.", true, "src"),
            ("/repo/src/x/..", true, "src"),
            ("/repo/src", false, "src"),
            ("file:///home/u/.ssh/", true, ".ssh"),
            ("/", true, ""),
        ] {
            let path = file(target, None, None);
            assert_eq!(path.is_dir(), dir, "{target}");
            assert_eq!(path.file_name(), name, "{target}");
            assert!(path.is_absolute());
        }
        let rel = file(".", None, None);
        assert_eq!(
            (rel.as_str(), rel.file_name(), rel.is_absolute()),
            (".", "", false)
        );
    }

    #[test]
    fn long_paths_are_linear() {
        let deep = "a/".repeat(100_000) + "id_rsa";
        let path = file(&deep, Some("/repo"), None);
        assert_eq!(path.as_str().len(), "/repo/".len() + deep.len());
        let climb = "../".repeat(100_000) + "etc/passwd";
        assert_eq!(file(&climb, Some("/repo"), None).as_str(), "/etc/passwd");
        let rules = PathRules::new(&strings(&["id_rsa*", "/etc/**"]), &[]).unwrap();
        assert!(rules.matches(&path, Some("/repo"), None));
        assert!(rules.matches(&file(&climb, Some("/repo"), None), Some("/repo"), None));
        let err = resolve(&format!("file://{}/x", "h".repeat(10_000)), None, None).unwrap_err();
        assert!(err.len() < 300, "{}", err.len());
    }

    /// (patterns, except, target, matched) with cwd `/repo` and home `/home/u`.
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a str, bool);

    fn check_cases(cases: &[Case<'_>], cwd: Option<&str>, home: Option<&str>) {
        for (paths, except, target, want) in cases {
            let rules = PathRules::new(&strings(paths), &strings(except)).unwrap();
            let path = file(target, cwd, home);
            assert_eq!(
                rules.matches(&path, cwd, home),
                *want,
                "paths={paths:?} except={except:?} target={target} cwd={cwd:?} home={home:?}"
            );
        }
    }

    const ENV: &[&str] = &[".env", ".env.*", ".env*"];
    const ENV_EXCEPT: &[&str] = &[".env.example", ".env.sample"];

    #[test]
    fn pi_env_rules() {
        let cases: &[Case<'_>] = &[
            (ENV, ENV_EXCEPT, ".env", true),
            (ENV, ENV_EXCEPT, ".env.local", true),
            (ENV, ENV_EXCEPT, "config/.env.production", true),
            (ENV, ENV_EXCEPT, "/elsewhere/.env", true),
            (ENV, ENV_EXCEPT, "file:///repo/.env", true),
            (ENV, ENV_EXCEPT, "/repo/.ENV", true),
            (ENV, ENV_EXCEPT, ".env.example", false),
            (ENV, ENV_EXCEPT, ".env.sample", false),
            (ENV, ENV_EXCEPT, "config/.env.example", false),
            (ENV, ENV_EXCEPT, "file:///repo/.env.example", false),
            // Exceptions are exact: neither case nor a second reading widens
            // them.
            (ENV, ENV_EXCEPT, ".ENV.EXAMPLE", true),
            (ENV, ENV_EXCEPT, ".env%2eexample", true),
            (ENV, ENV_EXCEPT, ".env.example\\..\\.env", true),
            (ENV, ENV_EXCEPT, "environment.ts", false),
            (ENV, ENV_EXCEPT, "src/env.rs", false),
            (&[".env.*"], &[], ".env", false),
            (&[".env.*"], &[], ".env.local", true),
        ];
        check_cases(cases, Some("/repo"), Some("/home/u"));
    }

    #[test]
    fn pattern_semantics() {
        let cases: &[Case<'_>] = &[
            // File-name patterns.
            (&["*.pem"], &[], "/etc/ssl/private/server.pem", true),
            (&["*.pem"], &[], "keys/a.PEM", true),
            (&["*.pem"], &[], "/etc/pem/readme", false),
            (&["id_rsa*"], &[], "~/.ssh/id_rsa", true),
            (&["id_rsa*"], &[], "~/.ssh/id_rsa.pub", true),
            (&["id_rsa*"], &[], "~/.ssh/known_hosts", false),
            (&["secrets"], &[], "/repo/secrets/x", false),
            (&["**/secrets/**"], &[], "/repo/secrets/x", true),
            // Home patterns.
            (&["~/.ssh/**"], &[], "~/.ssh/id_rsa", true),
            (&["~/.ssh/**"], &[], "/home/u/.ssh/config", true),
            (&["~/.ssh/**"], &[], "/home/u/.ssh/", true),
            (&["~/.ssh/**"], &[], "file:///home/u/.ssh", true),
            (&["~/.ssh/**"], &[], "/HOME/U/.SSH/id_rsa", true),
            (&["~/.ssh/**"], &[], "/home/u/.sshx/id_rsa", false),
            (&["~/.ssh/**"], &[], "/home/v/.ssh/id_rsa", false),
            (&["~/.ssh/**"], &[], "/repo/.ssh/id_rsa", false),
            (&["~/.ssh/"], &[], "/home/u/.ssh/a/b", true),
            (&["~/.ssh"], &[], "/home/u/.ssh", true),
            (&["~/.ssh"], &[], "/home/u/.ssh/id_rsa", false),
            (&["~/*"], &[], "/home/u/.bashrc", true),
            (&["~/*"], &[], "/home/u/a/.bashrc", false),
            (&["~"], &[], "/home/u", true),
            (&["~/**"], &[], "/home/u", true),
            (&["~/**"], &[], "/home/uv", false),
            // Absolute patterns.
            (&["/etc/**"], &[], "/repo/../etc/passwd", true),
            (&["/etc/**"], &[], "//etc//passwd", true),
            (&["/etc/**"], &[], "/./etc/./passwd", true),
            (&["/etc/**"], &[], "file:///etc/passwd", true),
            (&["/etc/**"], &[], "file://localhost/etc/passwd", true),
            (&["/etc/**"], &[], "file:///repo/%2e%2e/etc/passwd", true),
            (&["/etc/**"], &[], "file:///repo/..%2Fetc/passwd", true),
            (
                &["/etc/**"],
                &[],
                "file:///repo/%2e%2e%2Fetc%2Fpasswd",
                true,
            ),
            (
                &["/etc/**"],
                &[],
                "file:///repo/%252e%252e/etc/passwd",
                false,
            ),
            (&["/etc/**"], &[], "../../etc/shadow", true),
            (&["/etc/**"], &[], "..\\..\\etc\\shadow", true),
            (&["/etc/**"], &[], "/etc", true),
            (&["/etc/**"], &[], "/etcetera/x", false),
            (&["/etc/*"], &[], "/etc/ssl/x", false),
            (&["/etc//passwd"], &[], "/etc/passwd", true),
            (&["/etc/./passwd"], &[], "/etc/passwd", true),
            (&["/etc/"], &[], "/etc/passwd", true),
            (&["/"], &[], "/anything", true),
            (&["/**"], &[], "/anything", true),
            (&["/etc/{passwd,shadow}"], &[], "/etc/shadow", true),
            // Relative patterns: anchored at cwd, inside it only.
            (
                &["config/.env.production"],
                &[],
                "config/.env.production",
                true,
            ),
            (
                &["config/.env.production"],
                &[],
                "/repo/config/.env.production",
                true,
            ),
            (
                &["config/.env.production"],
                &[],
                "/other/config/.env.production",
                false,
            ),
            (
                &["config/.env.production"],
                &[],
                "sub/config/.env.production",
                false,
            ),
            (&["src/*.rs"], &[], "src/main.rs", true),
            (&["src/*.rs"], &[], "src/a/main.rs", false),
            (&["src/**/*.rs"], &[], "src/a/b/main.rs", true),
            (&["./src/**"], &[], "src", true),
            (&["./src/**"], &[], "/elsewhere/src/x", false),
            (&["./**"], &[], "/repo", true),
            (&["./**"], &[], "/repo2/x", false),
            // `**/` patterns match anywhere.
            (&["**/.ssh/**"], &[], "/home/u/.ssh/id_rsa", true),
            (&["**/.ssh/**"], &[], ".ssh/id_rsa", true),
            (&["**/.ssh/**"], &[], "/repo/a/.ssh", true),
            (&["**/*.key"], &[], "/x/y.key", true),
            // `except` wins.
            (&["/repo/**"], &["/repo/docs/**"], "/repo/docs/a.md", false),
            (&["/repo/**"], &["/repo/docs/**"], "/repo/src/a.rs", true),
            (&["/repo/**"], &["docs/**"], "docs/a.md", false),
            (&["/repo/**"], &["~/x"], "/repo/a", true),
            (&["*"], &["*.txt"], "/repo/A.TXT", true),
            (&["*"], &["*.txt"], "/repo/a.txt", false),
            // Several patterns.
            (
                &["*.pem", "~/.aws/**", "/etc/**"],
                &[],
                "~/.aws/credentials",
                true,
            ),
            (
                &["*.pem", "~/.aws/**", "/etc/**"],
                &[],
                "/repo/README.md",
                false,
            ),
        ];
        check_cases(cases, Some("/repo"), Some("/home/u"));
    }

    #[test]
    fn missing_context() {
        // Without home and cwd, `paths` patterns match at any depth, and
        // `except` patterns that need them never match.
        let cases: &[Case<'_>] = &[
            (&["~/.ssh/**"], &[], "/home/u/.ssh/id_rsa", true),
            (&["~/.ssh/**"], &[], "/srv/.ssh/x", true),
            (&["~/.ssh/**"], &[], "/srv/ssh/x", false),
            (&["config/.env"], &[], "/repo/config/.env", true),
            (&["config/.env"], &[], "config/.env", true),
            (&["config/.env"], &[], "../config/.env", true),
            (&["/etc/**"], &[], "../../etc/passwd", true),
            (&["/etc/**"], &[], "etc/passwd", true),
            (&["/etc/**"], &[], "src/main.rs", false),
            (&["*.pem"], &[], "a/b.pem", true),
            (&["*.pem"], &["keys/*.pem"], "keys/a.pem", false),
            (&["*.pem"], &["keys/*.pem"], "../keys/a.pem", true),
            (&["*.pem"], &["keys/*.pem"], "/repo/keys/a.pem", true),
            (&["*.pem"], &["~/*.pem"], "/home/u/a.pem", true),
            (&["*.pem"], &["**/keys/*.pem"], "/repo/keys/a.pem", false),
        ];
        check_cases(cases, None, None);
    }

    #[test]
    fn bad_patterns() {
        for (pattern, want) in [
            ("", "invalid path pattern ``: empty"),
            ("[abc", "invalid path pattern `[abc`"),
            ("/etc/[abc/x", "invalid path pattern `/etc/[abc/x`"),
            ("~bob/.ssh/**", "`~user`"),
            ("/repo/../etc/**", "`..` is not allowed"),
            ("a\0b", "nul byte"),
        ] {
            let err = PathRules::new(&strings(&[pattern]), &[]).unwrap_err();
            assert!(err.contains(want), "{pattern:?}: {err}");
            let err = PathRules::new(&[], &strings(&[pattern])).unwrap_err();
            assert!(err.contains(want), "{pattern:?}: {err}");
            assert!(!err.contains('\n'));
        }
        assert!(PathRules::new(&[], &[]).is_ok());
    }

    #[test]
    fn no_patterns_match_nothing() {
        let rules = PathRules::new(&[], &strings(&["*"])).unwrap();
        assert!(!rules.matches(&file("/etc/passwd", None, None), None, None));
    }

    #[test]
    fn workspace_containment() {
        let cwd = Some("/repo");
        // (target, root, inside)
        let cases = [
            ("/repo", "/repo", true),
            ("/repo/", "/repo", true),
            ("/repo/a/b", "/repo", true),
            ("a/b", "/repo", true),
            ("/repo/a", "/repo/", true),
            ("/repo/a", "file:///repo", true),
            ("/repo/a", "//repo/./", true),
            ("/repo2/a", "/repo", false),
            ("/rep", "/repo", false),
            ("/Repo/a", "/repo", false),
            ("../repo2/x", "/repo", false),
            ("/repo/../etc/passwd", "/repo", false),
            ("src/../../etc/shadow", "/repo", false),
            ("file:///repo/%2e%2e/etc/passwd", "/repo", false),
            ("%2e%2e/etc/passwd", "/repo", false),
            ("..\\etc\\passwd", "/repo", false),
            ("~/x", "/repo", false),
            ("/anything", "/", true),
            ("/repo/a", "repo", false),
            ("/repo/a", "~/repo", false),
            ("/home/u/repo/a", "~/repo", true),
            ("/home/u/repo2/a", "~/repo", false),
            ("/repo/a", "", false),
        ];
        for (target, root, inside) in cases {
            let path = file(target, cwd, Some("/home/u"));
            assert_eq!(
                within(&path, root, Some("/home/u")),
                inside,
                "{target} in {root}"
            );
        }
        assert!(!within(&file("a/b", None, None), "/repo", None));
        // Without a home, a root with `~` holds nothing.
        assert!(!within(&file("/home/u/repo/a", None, None), "~/repo", None));
    }

    #[test]
    fn operations() {
        use Operation::*;
        let cases: &[(&str, Operation)] = &[
            ("read", Read),
            ("write", Write),
            ("delete", Delete),
            ("list", List),
            ("stat", Stat),
            ("exec", Exec),
            ("spawn", Spawn),
            ("  READ ", Read),
            ("open", Read),
            ("cat", Read),
            ("fs.readFile", Read),
            ("read-file", Read),
            ("create", Write),
            ("edit", Write),
            ("append", Write),
            ("file:write", Write),
            ("move", Write),
            ("rename", Write),
            ("copy", Write),
            ("remove", Delete),
            ("unlink", Delete),
            ("rm", Delete),
            ("ls", List),
            ("list_directory", List),
            ("exists", Stat),
            ("execute", Exec),
            ("launch", Spawn),
            ("frobnicate", Other("frobnicate".to_owned())),
            (" chmod+x ", Other("chmod+x".to_owned())),
            ("", Other(String::new())),
        ];
        for (text, want) in cases {
            assert_eq!(Operation::parse(text), *want, "{text:?}");
        }
        assert_eq!(Operation::Delete.as_str(), "delete");
        assert_eq!(Operation::Other("x y".to_owned()).as_str(), "x y");
    }

    #[test]
    fn operation_sets() {
        let names = |list: &[&str]| OperationSet::from_policy(&strings(list));
        let read = names(&["read"]).unwrap();
        let delete = names(&["delete"]).unwrap();
        let ws = OperationSet::WORKSPACE_DEFAULT;
        let req = |op: &str| OperationSet::of_request(Some(op));
        // (check, request operation, applies)
        let cases = [
            (ws, "write", true),
            (ws, "delete", true),
            (ws, "rm", true),
            (ws, "read", false),
            (ws, "stat", false),
            (ws, "list_directory", false),
            (ws, "move", true),
            (ws, "frobnicate", true),
            (read, "copy", true),
            (read, "mv", true),
            (read, "write", false),
            (read, "cat", true),
            (delete, "rename", true),
            (delete, "copy", false),
            (OperationSet::ALL, "exec", true),
            (OperationSet::ALL, "anything", true),
        ];
        for (check, op, want) in cases {
            assert_eq!(check.intersects(req(op)), want, "{check:?} {op}");
        }
        assert_eq!(OperationSet::of_request(None), OperationSet::ALL);
        assert_eq!(
            names(&["write", "delete"]).unwrap(),
            OperationSet::WORKSPACE_DEFAULT
        );
        assert_eq!(
            names(&["read", "write", "delete", "list", "stat", "exec", "spawn"]).unwrap(),
            OperationSet::ALL
        );
        assert!(read.contains(&Operation::Read));
        assert!(!read.contains(&Operation::Write));
        assert!(read.contains(&Operation::Other("x".to_owned())));
        assert!(names(&[]).unwrap_err().contains("no operations"));
        let err = names(&["wirte"]).unwrap_err();
        assert!(err.contains("unknown operation `wirte`"), "{err}");
        assert!(
            names(&["Read"]).is_err(),
            "policies spell operations exactly"
        );
        assert!(names(&["remove"]).is_err(), "policies use canonical names");
    }

    mod properties {
        use proptest::prelude::*;

        use super::super::*;

        fn path_text() -> impl Strategy<Value = String> {
            proptest::collection::vec(
                prop_oneof![
                    Just("..".to_owned()),
                    Just(".".to_owned()),
                    Just(String::new()),
                    Just("%2e%2e".to_owned()),
                    Just("a\\..".to_owned()),
                    "[a-c]{1,3}",
                ],
                0..10,
            )
            .prop_map(|parts| parts.join("/"))
        }

        proptest! {
            #[test]
            fn readings_are_normal(text in path_text(), absolute in any::<bool>()) {
                let text = if absolute { format!("/{text}") } else { text };
                prop_assume!(!text.is_empty());
                let Ok(Target::File(path)) = resolve(&text, Some("/r/s"), None) else {
                    return Err(TestCaseError::fail("not a file"));
                };
                for r in path.readings() {
                    prop_assert!(is_normal(r), "{r}");
                    prop_assert_eq!(normalize(r), r);
                }
                // The root contains everything; containment is the prefix.
                prop_assert!(within(&path, "/", None));
                let inside = path
                    .readings()
                    .all(|r| r == "/r" || r.starts_with("/r/"));
                prop_assert_eq!(within(&path, "/r", None), inside);
            }

            #[test]
            fn except_everything_matches_nothing(text in path_text()) {
                prop_assume!(!text.is_empty());
                let rules = PathRules::new(
                    &["**".to_owned(), "*".to_owned()],
                    &["**".to_owned(), "/**".to_owned()],
                )
                .map_err(TestCaseError::fail)?;
                let Ok(Target::File(path)) = resolve(&text, Some("/r/s"), None) else {
                    return Err(TestCaseError::fail("not a file"));
                };
                prop_assert!(!rules.matches(&path, Some("/r/s"), None));
            }
        }
    }
}
