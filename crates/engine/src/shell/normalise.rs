//! Normalisation: equivalent spellings of options written one way.
//!
//! Programs that read their options with GNU `getopt_long` (coreutils) or
//! git's option parser accept a long option abbreviated to any prefix that
//! names one option only (`rm --rec --for` is `rm --recursive --force`,
//! `git reset --har` is `git reset --hard`), and coreutils accept an
//! argument abbreviated the same way (`rm --interactive=nev`). The tables
//! below list the long options of the programs whose danger depends on
//! their options, so that every spelling reaches one form.

use super::basename;

/// One long option of a program: its full name and its short spelling, if
/// the normalised form uses one.
type Long = (&'static str, Option<&'static str>);

/// Long options of programs (and of git subcommands, named `git <sub>`).
/// Every long option a program accepts is listed, so that a prefix is
/// resolved exactly as the program resolves it (unique among all of them).
const PROGRAMS: &[(&str, &[Long])] = &[
    (
        "rm",
        &[
            ("force", Some("-f")),
            ("interactive", None),
            ("one-file-system", None),
            ("no-preserve-root", None),
            ("preserve-root", None),
            ("recursive", Some("-r")),
            ("dir", Some("-d")),
            ("verbose", Some("-v")),
            ("help", None),
            ("version", None),
        ],
    ),
    ("chmod", CHMOD),
    ("chown", CHOWN),
    ("chgrp", CHOWN),
    (
        "cp",
        &[
            ("archive", Some("-a")),
            ("attributes-only", None),
            ("backup", None),
            ("copy-contents", None),
            ("debug", None),
            ("dereference", Some("-L")),
            ("force", Some("-f")),
            ("interactive", Some("-i")),
            ("link", Some("-l")),
            ("no-clobber", Some("-n")),
            ("no-dereference", Some("-P")),
            ("no-preserve", None),
            ("parents", None),
            ("preserve", None),
            ("recursive", Some("-R")),
            ("reflink", None),
            ("remove-destination", None),
            ("sparse", None),
            ("strip-trailing-slashes", None),
            ("suffix", None),
            ("symbolic-link", Some("-s")),
            ("target-directory", None),
            ("no-target-directory", Some("-T")),
            ("update", None),
            ("verbose", Some("-v")),
            ("keep-directory-symlink", None),
            ("one-file-system", Some("-x")),
            ("context", None),
            ("help", None),
            ("version", None),
        ],
    ),
    (
        "mv",
        &[
            ("backup", None),
            ("debug", None),
            ("exchange", None),
            ("force", Some("-f")),
            ("interactive", Some("-i")),
            ("no-clobber", Some("-n")),
            ("no-copy", None),
            ("strip-trailing-slashes", None),
            ("suffix", None),
            ("target-directory", None),
            ("no-target-directory", Some("-T")),
            ("update", None),
            ("verbose", Some("-v")),
            ("context", None),
            ("help", None),
            ("version", None),
        ],
    ),
    (
        "ln",
        &[
            ("backup", None),
            ("directory", Some("-d")),
            ("force", Some("-f")),
            ("interactive", Some("-i")),
            ("logical", Some("-L")),
            ("no-dereference", Some("-n")),
            ("physical", Some("-P")),
            ("relative", Some("-r")),
            ("symbolic", Some("-s")),
            ("suffix", None),
            ("target-directory", None),
            ("no-target-directory", Some("-T")),
            ("verbose", Some("-v")),
            ("help", None),
            ("version", None),
        ],
    ),
    (
        "shred",
        &[
            ("force", Some("-f")),
            ("iterations", None),
            ("random-source", None),
            ("size", None),
            ("remove", Some("-u")),
            ("verbose", Some("-v")),
            ("exact", Some("-x")),
            ("zero", Some("-z")),
            ("help", None),
            ("version", None),
        ],
    ),
    ("crontab", &[("help", None), ("version", None)]),
    (
        "git push",
        &[
            ("verbose", Some("-v")),
            ("quiet", Some("-q")),
            ("repo", None),
            ("all", None),
            ("branches", None),
            ("mirror", None),
            ("delete", Some("-d")),
            ("tags", None),
            ("dry-run", Some("-n")),
            ("porcelain", None),
            ("force", Some("-f")),
            ("force-with-lease", None),
            ("force-if-includes", None),
            ("recurse-submodules", None),
            ("thin", None),
            ("receive-pack", None),
            ("exec", None),
            ("set-upstream", Some("-u")),
            ("progress", None),
            ("prune", None),
            ("no-verify", None),
            ("follow-tags", None),
            ("signed", None),
            ("atomic", None),
            ("push-option", Some("-o")),
            ("ipv4", Some("-4")),
            ("ipv6", Some("-6")),
        ],
    ),
    (
        "git reset",
        &[
            ("quiet", Some("-q")),
            ("no-refresh", None),
            ("refresh", None),
            ("mixed", None),
            ("soft", None),
            ("hard", None),
            ("merge", None),
            ("keep", None),
            ("recurse-submodules", None),
            ("patch", Some("-p")),
            ("intent-to-add", Some("-N")),
            ("pathspec-from-file", None),
            ("pathspec-file-nul", None),
        ],
    ),
    (
        "git clean",
        &[
            ("quiet", Some("-q")),
            ("dry-run", Some("-n")),
            ("force", Some("-f")),
            ("interactive", Some("-i")),
            ("exclude", Some("-e")),
        ],
    ),
    (
        "git checkout",
        &[
            ("quiet", Some("-q")),
            ("progress", None),
            ("no-progress", None),
            ("force", Some("-f")),
            ("merge", Some("-m")),
            ("conflict", None),
            ("detach", None),
            ("track", Some("-t")),
            ("no-track", None),
            ("guess", None),
            ("no-guess", None),
            ("orphan", None),
            ("ignore-skip-worktree-bits", None),
            ("ignore-other-worktrees", None),
            ("overwrite-ignore", None),
            ("no-overwrite-ignore", None),
            ("recurse-submodules", None),
            ("no-recurse-submodules", None),
            ("overlay", None),
            ("no-overlay", None),
            ("ours", None),
            ("theirs", None),
            ("patch", Some("-p")),
            ("pathspec-from-file", None),
            ("pathspec-file-nul", None),
        ],
    ),
    (
        "git branch",
        &[
            ("verbose", Some("-v")),
            ("quiet", Some("-q")),
            ("track", Some("-t")),
            ("no-track", None),
            ("set-upstream-to", Some("-u")),
            ("unset-upstream", None),
            ("color", None),
            ("no-color", None),
            ("remotes", Some("-r")),
            ("contains", None),
            ("no-contains", None),
            ("abbrev", None),
            ("no-abbrev", None),
            ("all", Some("-a")),
            ("delete", Some("-d")),
            ("move", Some("-m")),
            ("copy", Some("-c")),
            ("list", Some("-l")),
            ("show-current", None),
            ("create-reflog", None),
            ("edit-description", None),
            ("force", Some("-f")),
            ("merged", None),
            ("no-merged", None),
            ("column", None),
            ("no-column", None),
            ("sort", None),
            ("points-at", None),
            ("ignore-case", Some("-i")),
            ("recurse-submodules", None),
            ("format", None),
        ],
    ),
];

/// chmod's long options.
const CHMOD: &[Long] = &[
    ("changes", Some("-c")),
    ("no-preserve-root", None),
    ("preserve-root", None),
    ("quiet", Some("-f")),
    ("silent", Some("-f")),
    ("reference", None),
    ("recursive", Some("-R")),
    ("verbose", Some("-v")),
    ("help", None),
    ("version", None),
];

/// chown's and chgrp's long options.
const CHOWN: &[Long] = &[
    ("changes", Some("-c")),
    ("dereference", None),
    ("no-dereference", Some("-h")),
    ("from", None),
    ("no-preserve-root", None),
    ("preserve-root", None),
    ("quiet", Some("-f")),
    ("silent", Some("-f")),
    ("reference", None),
    ("recursive", Some("-R")),
    ("verbose", Some("-v")),
    ("help", None),
    ("version", None),
];

/// git's options before the subcommand that take the next word as their
/// argument.
const GIT_ARG: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
];

/// Short options that are another letter's synonym in [`normalise`]:
/// `(command, letter, replacement)`.
const SHORT_ALIASES: &[(&str, char, char)] = &[("rm", 'R', 'r'), ("cp", 'r', 'R')];

/// The long options of `program` (`git push` for a git subcommand).
fn longs(program: &str) -> Option<&'static [Long]> {
    PROGRAMS
        .iter()
        .find(|(p, _)| *p == program)
        .map(|(_, l)| *l)
}

/// The option a long option written as `written` (without `--` and `=…`)
/// names: exactly, or as the only option it is a prefix of. Options that
/// share their short spelling count as one (`--sil` and `--qui` are `-f`).
pub(super) fn resolve_long(table: &[Long], written: &str) -> Option<Long> {
    if written.is_empty() {
        return None;
    }
    if let Some(exact) = table.iter().find(|(l, _)| *l == written) {
        return Some(*exact);
    }
    let mut found: Option<Long> = None;
    for &(l, short) in table.iter().filter(|(l, _)| l.starts_with(written)) {
        match found {
            None => found = Some((l, short)),
            Some((_, s)) if s.is_some() && s == short => {}
            Some(_) => return None,
        }
    }
    found
}

/// What `rm --interactive[=WHEN]` means: `-f` (never), `-I` (once) or `-i`
/// (always); `WHEN` may be abbreviated. `None` for a value rm refuses.
fn rm_interactive(value: Option<&str>) -> Option<&'static str> {
    let Some(v) = value else {
        return Some("-i");
    };
    if v.is_empty() {
        return None;
    }
    let hits: Vec<&str> = [
        ("never", "-f"),
        ("no", "-f"),
        ("none", "-f"),
        ("once", "-I"),
        ("always", "-i"),
        ("yes", "-i"),
    ]
    .iter()
    .filter(|(w, _)| *w == v || w.starts_with(v))
    .map(|(_, s)| *s)
    .collect();
    let first = *hits.first()?;
    hits.iter().all(|s| *s == first).then_some(first)
}

/// The normalised spelling of one long option word (`--rec`, `--force=x`)
/// of `program`, or the word unchanged.
fn long_option(program: &str, table: Option<&[Long]>, word: &str) -> String {
    let Some(body) = word.strip_prefix("--") else {
        return word.to_owned();
    };
    let (name, value) = match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    };
    let Some(table) = table else {
        // git's `--force` before (or without) a known subcommand: patterns
        // have always seen it as `-f`.
        return if program == "git" && word == "--force" {
            String::from("-f")
        } else {
            word.to_owned()
        };
    };
    let Some((full, short)) = resolve_long(table, name) else {
        return word.to_owned();
    };
    if program == "rm" && full == "interactive" {
        return rm_interactive(value).map_or_else(|| word.to_owned(), str::to_owned);
    }
    match (short, value) {
        (Some(s), None) => s.to_owned(),
        (_, Some(v)) => format!("--{full}={v}"),
        (None, None) => format!("--{full}"),
    }
}

/// The git subcommand of `git …` words (after git's own options), and its
/// index.
fn git_subcommand(args: &[String]) -> Option<(usize, &str)> {
    let mut i = 0;
    while let Some(w) = args.get(i) {
        if GIT_ARG.contains(&w.as_str()) {
            i += 2;
            continue;
        }
        if w.starts_with('-') {
            i += 1;
            continue;
        }
        return Some((i, w.as_str()));
    }
    None
}

/// The normalised form of a command's words (see the module docs): the
/// basename of the name, the options split, respelled, sorted and
/// deduplicated, then `--` and the other words in order.
pub(crate) fn normalise(words: &[String]) -> Vec<String> {
    let Some((first, args)) = words.split_first() else {
        return Vec::new();
    };
    let name = basename(first);
    let sub = if name == "git" {
        git_subcommand(args)
    } else {
        None
    };
    let sub_table = sub.and_then(|(_, s)| longs(&format!("git {s}")));
    let table = longs(name);
    let mut options: Vec<String> = Vec::new();
    let mut rest: Vec<String> = Vec::new();
    let mut ended = false;
    for (k, w) in args.iter().enumerate() {
        if ended || w == "--" {
            ended = true;
            rest.push(w.clone());
            continue;
        }
        if w.starts_with("--") {
            let after_sub = sub.is_some_and(|(i, _)| k > i);
            let word = if name == "git" {
                long_option("git", sub_table.filter(|_| after_sub), w)
            } else {
                long_option(name, table, w)
            };
            options.push(word);
            continue;
        }
        match w.strip_prefix('-') {
            Some(cluster)
                if !cluster.is_empty() && cluster.bytes().all(|b| b.is_ascii_alphanumeric()) =>
            {
                for c in cluster.chars() {
                    let c = SHORT_ALIASES
                        .iter()
                        .find(|(n, from, _)| *n == name && *from == c)
                        .map_or(c, |(_, _, to)| *to);
                    options.push(format!("-{c}"));
                }
            }
            Some(other) if !other.is_empty() => options.push(w.clone()),
            _ => rest.push(w.clone()),
        }
    }
    options.sort_unstable();
    options.dedup();
    let mut out = Vec::with_capacity(1 + options.len() + rest.len());
    out.push(name.to_owned());
    out.extend(options);
    out.extend(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Normalises a line of space-separated words.
    fn norm(line: &str) -> String {
        let words: Vec<String> = line.split(' ').map(str::to_owned).collect();
        normalise(&words).join(" ")
    }

    #[test]
    fn abbreviated_long_options_reach_one_spelling() {
        for (line, want) in [
            ("rm --rec --for /", "rm -f -r /"),
            ("rm --recursive --force /", "rm -f -r /"),
            ("rm --r --f /", "rm -f -r /"),
            ("rm -r --interactive=never /", "rm -f -r /"),
            ("rm -r --interactive=none /", "rm -f -r /"),
            ("rm -r --interactive=no /", "rm -f -r /"),
            ("rm -r --interactive=n /", "rm -f -r /"),
            ("rm -r --interactive=nev /", "rm -f -r /"),
            ("rm -r --inter=never /", "rm -f -r /"),
            ("rm -r --interactive /", "rm -i -r /"),
            ("rm -r --interactive=once /", "rm -I -r /"),
            ("rm -r --interactive=bogus /", "rm --interactive=bogus -r /"),
            ("rm --no-preserve /", "rm --no-preserve-root /"),
            ("rm --d x", "rm -d x"),
            ("chown --recur u /", "chown -R u /"),
            ("chown --re u /", "chown --re u /"),
            ("chmod --recursive 777 /", "chmod -R 777 /"),
            ("chmod --rec 777 /", "chmod -R 777 /"),
            ("chgrp --recu g /", "chgrp -R g /"),
            ("cp --recu a b", "cp -R a b"),
            ("shred --rem x", "shred -u x"),
            ("git reset --har", "git --hard reset"),
            ("git reset --hard HEAD", "git --hard reset HEAD"),
            ("git clean --forc -d", "git -d -f clean"),
            ("git clean --f", "git -f clean"),
            ("git push --forc", "git --forc push"),
            ("git push --force-w", "git --force-with-lease push"),
            ("git push --force", "git -f push"),
            ("git -C /x push --fo", "git --fo -C /x push"),
            ("git --force push", "git -f push"),
            ("git checkout --forc main", "git -f checkout main"),
            ("git branch --del --forc x", "git -d -f branch x"),
            ("ls --rec", "ls --rec"),
        ] {
            assert_eq!(norm(line), want, "{line}");
        }
    }
}
