//! Command patterns: globs over the views of parsed commands.

use globset::GlobBuilder;

use super::builtin::{Builtin, DANGEROUS, Native};
use super::configured::git_setting_runs;
use super::{Command, MAX_PARTS};
use crate::tools::globs::{LazyGlobSet, NFA_SIZE_LIMIT, SetGlob};

/// Command patterns compiled into glob sets (see the module docs).
///
/// The globs of user-written patterns are parsed when the patterns are
/// read, those known to parse (of built-in entries, and of the embedded
/// default policy) when their set is built. The globs are grouped by the
/// word a view must start with to match them ([`first_words`]: `git` for
/// `git {,* }push …`), else by the byte ([`first_bytes`]): a view is
/// matched against its first word's set, its first byte's set and the set
/// of globs that can match a view starting with any byte. Each set is
/// built when first needed, or all of them by
/// [`CommandPatterns::build`] (which a stage calls when it is built), so
/// that a one-request process builds only the sets its commands' first
/// words and bytes reach, and one that never reads a shell line (a coding
/// agent's post-tool hook) builds none.
#[derive(Clone, Debug)]
pub(crate) struct CommandPatterns {
    /// The groups of globs with a first word (a program's name, `git`),
    /// by that word, in order.
    words: Vec<(String, Group)>,
    /// The groups of the other globs with a first byte, by that byte.
    groups: Vec<(u8, Group)>,
    /// The globs a view starting with any byte can match.
    any: Group,
    /// The `(pattern, part)` each glob stands for: every part of every
    /// pattern as written and with its following words (or without its
    /// final ` *`), one glob `part{, *}` (`stem{, *}`) where an
    /// alternation can join the two, else two globs.
    globs: Vec<(usize, usize)>,
    /// How many parts (piped commands) each pattern has.
    parts: Vec<usize>,
    /// The entry of the check's `commands` each pattern comes from (an `@`
    /// entry brings several).
    entry_of: Vec<usize>,
    /// How many entries there are.
    entries: usize,
    /// The native tests of `@` entries: `(entry, test)`.
    natives: Vec<(usize, Native)>,
}

/// Some of the globs, as one set.
#[derive(Clone, Debug, Default)]
struct Group {
    set: LazyGlobSet,
    /// The index in [`CommandPatterns::globs`] of each glob of `set`.
    members: Vec<usize>,
}

impl Group {
    fn new(globs: &[SetGlob], members: Vec<usize>) -> Self {
        let set = members
            .iter()
            .filter_map(|&g| globs.get(g).cloned())
            .collect();
        Self {
            set: LazyGlobSet::with_known(set, |text| glob(text, text)),
            members,
        }
    }
}

/// The bytes a view must start with for glob `text` (written with
/// [`glob`]'s options: case-sensitive, backslash escapes) to match it, or
/// `None` when the glob can match a view starting with any byte. Only a
/// plain first character, or a leading alternation of words that each
/// start with one, gives bytes; anything else (a wildcard, a class, an
/// escape, an empty or nested alternative) gives `None`.
pub(super) fn first_bytes(text: &str) -> Option<Vec<u8>> {
    // Characters that a glob reads as themselves wherever they stand.
    let plain = |b: u8| b.is_ascii_alphanumeric() || b"-_./:=@%+~<>".contains(&b);
    let bytes = text.as_bytes();
    match *bytes.first()? {
        b if plain(b) => Some(vec![b]),
        b'{' => {
            let end = bytes.iter().position(|&b| b == b'}')?;
            let inner = bytes.get(1..end)?;
            if inner.iter().any(|b| b"{[\\".contains(b)) {
                return None;
            }
            let mut out = Vec::new();
            for word in inner.split(|&b| b == b',') {
                match word.first() {
                    Some(&b) if plain(b) => out.push(b),
                    _ => return None,
                }
            }
            out.sort_unstable();
            out.dedup();
            Some(out)
        }
        _ => None,
    }
}

/// The words a view must start with, followed by a space, for glob `text`
/// to match it: a plain first word followed by a space (`git {,* }push`),
/// or a leading alternation of plain words followed by one (`{docker,podman}
/// run`); `None` otherwise (`mkfs*`, `git{, *}`, a wildcard or a class
/// first), when [`first_bytes`] groups it.
pub(super) fn first_words(text: &str) -> Option<Vec<&str>> {
    let plain = |b: u8| b.is_ascii_alphanumeric() || b"-_./:=@%+~<>".contains(&b);
    let (words, rest) = match text.strip_prefix('{') {
        Some(inner) => {
            let (inner, rest) = inner.split_once('}')?;
            let words: Vec<&str> = inner.split(',').collect();
            (words, rest)
        }
        None => {
            let n = text.bytes().take_while(|&b| plain(b)).count();
            (vec![text.get(..n)?], text.get(n..)?)
        }
    };
    let all_plain = words.iter().all(|w| !w.is_empty() && w.bytes().all(plain));
    (all_plain && rest.starts_with(' ')).then_some(words)
}

/// What an `@` entry of a check's `commands` stands for: built-in entries,
/// by id, or all of them with `@builtin`.
fn builtins_named(name: &str) -> Result<Vec<&'static Builtin>, String> {
    if name == "builtin" {
        return Ok(DANGEROUS.iter().collect());
    }
    if let Some(b) = DANGEROUS.iter().find(|b| b.id == name) {
        return Ok(vec![b]);
    }
    let mut known: Vec<&str> = vec!["@builtin"];
    let ids: Vec<String> = DANGEROUS.iter().map(|b| format!("@{}", b.id)).collect();
    known.extend(ids.iter().map(String::as_str));
    let at = format!("@{name}");
    let near = palisade_protocol::suggest::closest(&at, known.iter().copied()).or_else(|| {
        known.iter().copied().find(|k| {
            k.get(1..)
                .is_some_and(|k| k.contains(name) || name.contains(k))
        })
    });
    let hint = near.map_or_else(String::new, |n| format!(" (did you mean `{n}`?)"));
    Err(format!(
        "unknown built-in command entry `@{name}`{hint}; known: {}",
        known.join(", ")
    ))
}

impl CommandPatterns {
    /// Reads patterns, parsing their globs (the set is built on first
    /// use); an error names the first bad one.
    pub(crate) fn new<S: AsRef<str>>(patterns: &[S]) -> Result<Self, String> {
        Self::grouped(patterns, false, true)
    }

    /// [`CommandPatterns::new`]; when every pattern is `known` to parse
    /// (the embedded default policy's), its globs are parsed when their set
    /// is built.
    pub(crate) fn read<S: AsRef<str>>(patterns: &[S], known: bool) -> Result<Self, String> {
        Self::grouped(patterns, known, true)
    }

    /// [`CommandPatterns::read`]; without `group`, every glob in one set
    /// (what the grouping must not change).
    pub(super) fn grouped<S: AsRef<str>>(
        patterns: &[S],
        known: bool,
        group: bool,
    ) -> Result<Self, String> {
        let mut builder = Vec::new();
        let mut globs = Vec::new();
        let mut parts = Vec::with_capacity(patterns.len());
        let mut natives = Vec::new();
        let mut entry_of = Vec::new();
        for (p, pattern) in patterns.iter().enumerate() {
            let pattern = pattern.as_ref();
            if let Some(name) = pattern.trim().strip_prefix('@') {
                for b in builtins_named(name)? {
                    for part in b.patterns {
                        let n = Self::add(&mut builder, &mut globs, parts.len(), part, true)?;
                        parts.push(n);
                        entry_of.push(p);
                    }
                    if b.native != Native::None {
                        natives.push((p, b.native));
                    }
                }
                continue;
            }
            let n = Self::add(&mut builder, &mut globs, parts.len(), pattern, known)?;
            parts.push(n);
            entry_of.push(p);
        }
        // Each glob into the groups of its first words, else of its first
        // bytes, else into `any`.
        let mut by_word: Vec<(String, Vec<usize>)> = Vec::new();
        let mut by_byte: Vec<(u8, Vec<usize>)> = Vec::new();
        let mut any = Vec::new();
        for (g, (_, text)) in builder.iter().enumerate() {
            if let Some(words) = first_words(text).filter(|_| group) {
                for w in words {
                    match by_word.binary_search_by(|(x, _)| x.as_str().cmp(w)) {
                        Ok(i) => by_word.get_mut(i).into_iter().for_each(|(_, m)| m.push(g)),
                        Err(i) => by_word.insert(i, (w.to_owned(), vec![g])),
                    }
                }
                continue;
            }
            match first_bytes(text).filter(|_| group) {
                Some(bytes) => {
                    for b in bytes {
                        match by_byte.binary_search_by_key(&b, |(b, _)| *b) {
                            Ok(i) => by_byte.get_mut(i).into_iter().for_each(|(_, m)| m.push(g)),
                            Err(i) => by_byte.insert(i, (b, vec![g])),
                        }
                    }
                }
                None => any.push(g),
            }
        }
        let sources: Vec<SetGlob> = builder.into_iter().map(|(g, _)| g).collect();
        Ok(Self {
            words: by_word
                .into_iter()
                .map(|(w, members)| (w, Group::new(&sources, members)))
                .collect(),
            groups: by_byte
                .into_iter()
                .map(|(b, members)| (b, Group::new(&sources, members)))
                .collect(),
            any: Group::new(&sources, any),
            globs,
            parts,
            entry_of,
            entries: patterns.len(),
            natives,
        })
    }

    /// Builds every glob set now if it is not built yet; an error says why
    /// one cannot be, or that together they are over the size limit of
    /// one set.
    pub(crate) fn build(&self) -> Result<(), String> {
        let mut bytes = 0;
        let words = self.words.iter().map(|(_, g)| g);
        for group in words
            .chain(self.groups.iter().map(|(_, g)| g))
            .chain([&self.any])
        {
            let set = group
                .set
                .get()
                .map_err(|e| format!("invalid command patterns: {e}"))?;
            bytes += set.nfa_bytes();
        }
        if bytes > NFA_SIZE_LIMIT {
            return Err(format!(
                "invalid command patterns: their automata take {bytes} bytes, over the size limit of {NFA_SIZE_LIMIT}"
            ));
        }
        Ok(())
    }

    /// The group of globs with a first word that a view starting with
    /// `view`'s first word can match.
    fn word_group(&self, view: &str) -> Option<&Group> {
        let word = view.split(' ').next()?;
        let i = self
            .words
            .binary_search_by(|(w, _)| w.as_str().cmp(word))
            .ok()?;
        self.words.get(i).map(|(_, g)| g)
    }

    /// The group of globs without a first word that a view starting with
    /// `byte` can match besides `any`'s.
    fn group(&self, byte: Option<&u8>) -> Option<&Group> {
        let byte = *byte?;
        let i = self.groups.binary_search_by_key(&byte, |(b, _)| *b).ok()?;
        self.groups.get(i).map(|(_, g)| g)
    }

    /// Whether entry `p` has the native test `native`.
    pub(crate) fn has_native(&self, p: usize, native: Native) -> bool {
        self.natives.contains(&(p, native))
    }

    /// Adds the globs of one pattern for entry `p`; returns how many
    /// commands it pipes.
    ///
    /// The globs of a pattern `known` to parse (built-in, or the embedded
    /// default policy's) are parsed when their set is built; others now,
    /// for an error that names the pattern.
    fn add(
        builder: &mut Vec<(SetGlob, String)>,
        globs: &mut Vec<(usize, usize)>,
        p: usize,
        pattern: &str,
        known: bool,
    ) -> Result<usize, String> {
        {
            let text = pattern.split_whitespace().collect::<Vec<_>>().join(" ");
            if text.is_empty() {
                return Err(String::from("empty command pattern"));
            }
            let source = |glob_text: String| -> Result<(SetGlob, String), String> {
                let g = if known {
                    SetGlob::Known(glob_text.clone())
                } else {
                    SetGlob::Parsed(glob(&glob_text, &text)?)
                };
                Ok((g, glob_text))
            };
            let split: Vec<&str> = text.split(" | ").collect();
            if split.len() > MAX_PARTS {
                return Err(format!(
                    "command pattern `{text}` pipes more than {MAX_PARTS} commands"
                ));
            }
            for (k, part) in split.iter().enumerate() {
                if part.starts_with('|') || part.ends_with('|') {
                    return Err(format!(
                        "command pattern `{text}` has an empty command in its pipeline"
                    ));
                }
                // A part matches a command's view whole or its first words:
                // `git push --force` matches `git push --force origin main`.
                // A part ending in ` $` matches whole views only; one ending
                // in ` *` also matches without the space (`rm -rf *` matches
                // a bare `rm -rf`). Neither after an escaping backslash.
                let unescaped =
                    |stem: &str| stem.bytes().rev().take_while(|&b| b == b'\\').count() % 2 == 0;
                if let Some(stem) = part.strip_suffix(" $").filter(|s| unescaped(s)) {
                    builder.push(source(stem.to_owned())?);
                    globs.push((p, k));
                    continue;
                }
                let extended = match part.strip_suffix(" *").filter(|s| unescaped(s)) {
                    Some(stem) => stem.to_owned(),
                    None => format!("{part} *"),
                };
                // One glob for both when an alternation can join them:
                // `stem{, *}` is `stem` and `stem *`, `part{, *}` is `part`
                // and `part *` (a glob set's size is about its globs').
                let joined = if unescaped(part) {
                    let base = part.strip_suffix(" *").filter(|s| unescaped(s));
                    Some(format!("{}{{, *}}", base.unwrap_or(part)))
                } else {
                    None
                };
                // A part that does not parse (an unclosed `{` or `[`) does
                // not parse joined either: it is then parsed as written,
                // for an error that names its own mistake.
                // Patterns known to parse are written so that they join.
                let joined = joined.filter(|j| known || glob(j, &text).is_ok());
                if let Some(j) = joined {
                    builder.push(source(j)?);
                    globs.push((p, k));
                    continue;
                }
                builder.push(source((*part).to_owned())?);
                globs.push((p, k));
                builder.push(source(extended)?);
                globs.push((p, k));
            }
            Ok(split.len())
        }
    }

    /// The indices of the patterns matching some command or pipeline of
    /// `line`, in increasing order.
    #[cfg(test)]
    pub(crate) fn matches(&self, line: &str) -> Vec<usize> {
        self.matches_commands(&super::commands(line))
    }

    /// The indices of the patterns matching some command or pipeline of
    /// `commands` (from [`commands`]), in increasing order.
    #[expect(
        clippy::indexing_slicing,
        reason = "command and pattern indices come from the lists being matched"
    )]
    pub(crate) fn matches_commands(&self, commands: &[Command]) -> Vec<usize> {
        let mut hit = vec![false; self.parts.len()];
        let mut entry_hit = vec![false; self.entries];
        let mut matched: Vec<Vec<(usize, usize)>> = Vec::with_capacity(commands.len());
        let mut scratch = Vec::new();
        for command in commands {
            let mut m = Vec::new();
            for view in command.views() {
                let groups = [
                    self.word_group(&view),
                    self.group(view.as_bytes().first()),
                    Some(&self.any),
                ];
                for group in groups.into_iter().flatten() {
                    // A set that cannot be built matches every view that
                    // reaches it: fail closed (a stage whose sets cannot be
                    // built is refused before this is reached).
                    let glob = |g: &usize| self.globs.get(*g).copied();
                    match group.set.get() {
                        Ok(set) => {
                            set.matches_into(&view, &mut scratch);
                            m.extend(
                                scratch
                                    .iter()
                                    .filter_map(|&i| group.members.get(i))
                                    .filter_map(glob),
                            );
                        }
                        Err(_) => m.extend(group.members.iter().filter_map(glob)),
                    }
                }
            }
            m.sort_unstable();
            m.dedup();
            for &(p, _) in &m {
                if self.parts.get(p) == Some(&1)
                    && let Some(h) = hit.get_mut(p)
                {
                    *h = true;
                }
            }
            for &(p, native) in &self.natives {
                let fires = match native {
                    Native::Opaque => command.opaque.is_some(),
                    Native::ForkBomb => command.fork_bomb,
                    // Through wrappers (`env git …`, `sudo git …`).
                    Native::GitSettingRuns => {
                        command.words.iter().any(|w| super::basename(w) == "git")
                            && git_setting_runs(&command.unwrapped())
                    }
                    Native::None => false,
                };
                if fires && let Some(h) = entry_hit.get_mut(p) {
                    *h = true;
                }
            }
            matched.push(m);
        }
        if self.parts.iter().any(|&n| n > 1) {
            let mut order: Vec<usize> = (0..commands.len()).collect();
            order.sort_by_key(|&i| (commands[i].pipeline, i));
            for group in order.chunk_by(|&a, &b| commands[a].pipeline == commands[b].pipeline) {
                if group.len() < 2 {
                    continue;
                }
                for (p, &n) in self.parts.iter().enumerate() {
                    if n < 2 || hit[p] {
                        continue;
                    }
                    let mut next = 0;
                    for &c in group {
                        if next < n && matched[c].binary_search(&(p, next)).is_ok() {
                            next += 1;
                        }
                    }
                    if next == n {
                        hit[p] = true;
                    }
                }
            }
        }
        for (k, &h) in hit.iter().enumerate() {
            if h && let Some(e) = self.entry_of.get(k).and_then(|&p| entry_hit.get_mut(p)) {
                *e = true;
            }
        }
        entry_hit
            .iter()
            .enumerate()
            .filter_map(|(p, &h)| h.then_some(p))
            .collect()
    }
}

/// Compiles one part of `pattern`.
pub(super) fn glob(part: &str, pattern: &str) -> Result<globset::Glob, String> {
    GlobBuilder::new(part)
        .literal_separator(false)
        .backslash_escape(true)
        .empty_alternates(true)
        .build()
        .map_err(|e| format!("invalid command pattern `{pattern}`: {}", e.kind()))
}
