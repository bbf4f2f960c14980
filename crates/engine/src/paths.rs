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

mod operations;
mod resolve;
mod rules;
#[cfg(test)]
mod tests;

#[cfg(test)]
pub(crate) use operations::Operation;
pub(crate) use operations::OperationSet;
pub(crate) use operations::operation_names;
pub(crate) use resolve::{Target, resolve, within};
pub(crate) use rules::PathRules;
