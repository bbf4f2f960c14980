//! Normalisation: equivalent spellings of options written one way.

use super::basename;

/// Long options replaced by their short spelling in [`normalise`]:
/// `(command, long option, short option)`.
pub(super) const LONG_OPTIONS: &[(&str, &str, &str)] = &[
    ("rm", "recursive", "-r"),
    ("rm", "force", "-f"),
    ("rm", "dir", "-d"),
    ("rm", "verbose", "-v"),
    ("chmod", "recursive", "-R"),
    ("chown", "recursive", "-R"),
    ("chgrp", "recursive", "-R"),
    ("cp", "recursive", "-R"),
    ("cp", "force", "-f"),
    ("mv", "force", "-f"),
    ("ln", "force", "-f"),
    ("shred", "force", "-f"),
    ("shred", "zero", "-z"),
    ("shred", "remove", "-u"),
    ("shred", "exact", "-x"),
    ("shred", "verbose", "-v"),
    ("git", "force", "-f"),
];

/// Short options that are another letter's synonym in [`normalise`]:
/// `(command, letter, replacement)`.
pub(super) const SHORT_ALIASES: &[(&str, char, char)] = &[("rm", 'R', 'r'), ("cp", 'r', 'R')];

/// The normalised form of a command's words (see the module docs): the
/// basename of the name, the options split, respelled, sorted and
/// deduplicated, then `--` and the other words in order.
pub(crate) fn normalise(words: &[String]) -> Vec<String> {
    let Some((first, args)) = words.split_first() else {
        return Vec::new();
    };
    let name = basename(first);
    let mut options: Vec<String> = Vec::new();
    let mut rest: Vec<String> = Vec::new();
    let mut ended = false;
    for w in args {
        if ended || w == "--" {
            ended = true;
            rest.push(w.clone());
            continue;
        }
        if let Some(long) = w.strip_prefix("--") {
            let short = LONG_OPTIONS
                .iter()
                .find(|(c, l, _)| *c == name && *l == long)
                .map(|(_, _, s)| *s);
            options.push(short.map_or_else(|| w.clone(), str::to_owned));
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
