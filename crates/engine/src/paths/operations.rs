//! Operations: what a request does to its targets.

use super::resolve::shown;

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
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "only `Operation::parse`, which tests use, makes one"
        )
    )]
    Other(String),
}

/// The canonical operations, in bit order.
pub(super) static CANONICAL: [(Operation, &str); 7] = [
    (Operation::Read, "read"),
    (Operation::Write, "write"),
    (Operation::Delete, "delete"),
    (Operation::List, "list"),
    (Operation::Stat, "stat"),
    (Operation::Exec, "exec"),
    (Operation::Spawn, "spawn"),
];

/// The names of the canonical operations, as a policy writes them.
pub(crate) fn operation_names() -> impl Iterator<Item = &'static str> {
    CANONICAL.iter().map(|(_, name)| *name)
}

/// Bit of `read` in an [`OperationSet`].
pub(super) const READ: u8 = 1;
/// Bit of `write`.
pub(super) const WRITE: u8 = 1 << 1;
/// Bit of `delete`.
pub(super) const DELETE: u8 = 1 << 2;
/// Bit of `list`.
pub(super) const LIST: u8 = 1 << 3;
/// Bit of `stat`.
pub(super) const STAT: u8 = 1 << 4;
/// Bit of `exec`.
pub(super) const EXEC: u8 = 1 << 5;
/// Bit of `spawn`.
pub(super) const SPAWN: u8 = 1 << 6;

#[cfg(test)]
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
    /// No operation.
    pub(crate) const NONE: Self = Self(0);
    /// `read` alone.
    pub(crate) const READ: Self = Self(READ);
    /// `write` alone.
    pub(crate) const WRITE: Self = Self(WRITE);
    /// `delete` alone.
    pub(crate) const DELETE: Self = Self(DELETE);
    /// `list` alone.
    pub(crate) const LIST: Self = Self(LIST);
    /// `stat` alone.
    pub(crate) const STAT: Self = Self(STAT);
    /// `exec` alone.
    pub(crate) const EXEC: Self = Self(EXEC);

    /// The operations of both sets.
    pub(crate) const fn union(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }

    /// The operations in both sets.
    pub(crate) const fn intersection(self, other: Self) -> Self {
        Self(self.0 & other.0)
    }

    /// The names of the operations in the set, canonical order.
    pub(crate) fn names(self) -> Vec<&'static str> {
        CANONICAL
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, (_, n))| *n)
            .collect()
    }

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
    #[cfg(test)]
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
pub(super) fn effects(operation: &str) -> u8 {
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
