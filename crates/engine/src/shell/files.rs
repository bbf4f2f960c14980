//! The files a command reads, writes and deletes: its file operands, from a
//! table of common programs, and its redirections (SPEC §4.4).
//!
//! Each program of [`PROGRAMS`] says which of its options take an argument
//! (so that the argument is not taken for a file), which options name a
//! file and what is done to it, and what its operands are. A program not in
//! the table gives every path-like operand (one with a `/`, starting with
//! `~` or `.`, or with a `.ext` suffix) and every path-like `--opt=value`
//! every operation. Programs known to take no file (`echo`, `printf`, …)
//! give none. Redirections give their targets: `<` reads, `>`, `>>`, `>|`,
//! `&>`, `&>>` and `>&file` write, `<>` reads and writes; descriptor
//! duplications and here-documents name no file. The pseudo-devices that
//! hold no data (`/dev/null`, `/dev/stdout`, `/dev/fd/…`, …) are not files.

use crate::paths::OperationSet as Ops;

use super::{Command, Redirect, basename};

/// A file a command touches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Operand {
    /// The word as written, after quote removal (variables and
    /// substitutions kept as text).
    pub(crate) text: String,
    /// What the command does to it.
    pub(crate) ops: Ops,
    /// Whether the shell changes the word before the command sees it: an
    /// unquoted glob or an expansion in its last component.
    pub(crate) dynamic: bool,
}

const R: Ops = Ops::READ;
const W: Ops = Ops::WRITE;
const D: Ops = Ops::DELETE;
const L: Ops = Ops::LIST;
const RW: Ops = Ops::READ.union(Ops::WRITE);
const RWD: Ops = RW.union(Ops::DELETE);
const RX: Ops = Ops::READ.union(Ops::EXEC);
const WD: Ops = Ops::WRITE.union(Ops::DELETE);

/// What a program's operands (its words that are not options) are.
#[derive(Clone, Copy, Debug)]
enum Operands {
    /// None is a file.
    None,
    /// Every operand.
    All(Ops),
    /// The first operand is a pattern, a script or a mode, unless one of
    /// the options gave it; the others are files.
    AfterFirst(Ops, &'static [&'static str]),
    /// The first operand (an archive, an input) and the others.
    FirstRest(Ops, Ops),
    /// Sources, then a destination (the last operand, or the argument of
    /// `-t`/`--target-directory`).
    Dest(Ops, Ops),
}

/// How to read one program's words.
struct Program {
    /// Names (basenames) of the program.
    names: &'static [&'static str],
    /// Short options that take an argument that is not a file.
    short_args: &'static str,
    /// Long options (without `--`) that take an argument that is not a file.
    long_args: &'static [&'static str],
    /// Options whose argument is a file, and what is done to it (`-f`,
    /// `--file`).
    file_opts: &'static [(&'static str, Ops)],
    /// Options that make the operands written as well (`sed -i`).
    writes: &'static [&'static str],
    /// The operands.
    operands: Operands,
}

/// A program entry with defaults.
const fn program(names: &'static [&'static str], operands: Operands) -> Program {
    Program {
        names,
        short_args: "",
        long_args: &[],
        file_opts: &[],
        writes: &[],
        operands,
    }
}

/// Programs that take no file operand.
const NO_FILES: &[&str] = &[
    "echo", "printf", "true", "false", ":", "pwd", "export", "unset", "set", "shift", "exit",
    "return", "sleep", "date", "whoami", "id", "uname", "hostname", "kill", "pkill", "jobs",
    "wait", "yes", "seq", "expr", "alias", "unalias", "type", "which", "whereis", "hash", "read",
    "let", "local", "declare", "typeset", "readonly", "ulimit", "umask", "history", "clear",
    "tput", "basename", "dirname", "mktemp", "getopts", "break", "continue", "test", "[", "[[",
    "command", "ps", "top", "uptime", "free", "df", "env", "printenv", "tr", "bc", "dc", "nproc",
    "groups", "logname", "tty", "stty", "true", "cal", "factor", "shuf", "sync", "disown", "bg",
    "fg", "popd", "dirs", "times", "caller", "wait", "help",
];

/// Programs that read every operand.
const READERS: &[&str] = &[
    "cat",
    "tac",
    "nl",
    "less",
    "more",
    "most",
    "bat",
    "batcat",
    "view",
    "xxd",
    "hexdump",
    "hd",
    "od",
    "strings",
    "base64",
    "base32",
    "basenc",
    "md5sum",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "sum",
    "wc",
    "cut",
    "paste",
    "join",
    "comm",
    "diff",
    "diff3",
    "cmp",
    "sdiff",
    "fold",
    "fmt",
    "pr",
    "expand",
    "unexpand",
    "rev",
    "iconv",
    "jq",
    "yq",
    "xmllint",
    "column",
    "look",
    "zcat",
    "gzcat",
    "bzcat",
    "xzcat",
    "zstdcat",
    "zless",
    "zmore",
    "lz4cat",
    "file",
    "source",
    ".",
    "csvlook",
    "mlr",
    "vimdiff",
    "colordiff",
    "tail",
    "head",
    "uuencode",
    "lp",
    "lpr",
    "enscript",
    "a2ps",
    "sqlite3",
    "pdftotext",
    "exiftool",
    "identify",
    "mediainfo",
    "objdump",
    "readelf",
    "nm",
    "ldd",
    "hexyl",
    "glow",
];

/// Programs that edit every operand.
const EDITORS: &[&str] = &[
    "vi",
    "vim",
    "nvim",
    "gvim",
    "ex",
    "nano",
    "pico",
    "emacs",
    "emacsclient",
    "code",
    "codium",
    "ed",
    "micro",
    "hx",
    "helix",
    "gedit",
    "kate",
    "subl",
    "joe",
    "mcedit",
    "kak",
    "jed",
    "ne",
    "mg",
    "zile",
];

/// Programs that list the directories they are given.
const LISTERS: &[&str] = &[
    "ls", "dir", "vdir", "tree", "du", "exa", "eza", "lsd", "cd", "pushd",
];

/// Programs that read the metadata of their operands.
const STATERS: &[&str] = &["stat", "realpath", "readlink", "namei", "lsattr", "getfacl"];

/// Programs that delete their operands.
const DELETERS: &[&str] = &["rm", "unlink", "rmdir", "trash", "trash-put"];

/// Programs that read, rewrite and remove their operands.
const COMPRESSORS: &[&str] = &[
    "gzip",
    "gunzip",
    "bzip2",
    "bunzip2",
    "xz",
    "unxz",
    "lzma",
    "unlzma",
    "zstd",
    "unzstd",
    "lz4",
    "compress",
    "uncompress",
    "pigz",
    "pbzip2",
];

/// The table of programs with their own rules.
static PROGRAMS: &[Program] = &[
    Program {
        short_args: "ABCDdegmX",
        long_args: &[
            "regexp",
            "after-context",
            "before-context",
            "context",
            "max-count",
            "label",
            "include",
            "exclude",
            "exclude-dir",
            "color",
            "colour",
            "devices",
            "directories",
            "binary-files",
            "type",
            "type-add",
            "glob",
            "iglob",
            "max-depth",
            "threads",
            "sort",
            "sortr",
            "replace",
            "encoding",
            "engine",
            "max-filesize",
            "ignore-file",
        ],
        file_opts: &[("-f", R), ("--file", R), ("--exclude-from", R)],
        ..program(
            &[
                "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "zegrep", "zfgrep",
                "pcregrep", "ugrep",
            ],
            Operands::AfterFirst(R, &["-e", "--regexp", "-f", "--file"]),
        )
    },
    Program {
        short_args: "el",
        long_args: &["expression", "line-length"],
        file_opts: &[("-f", R), ("--file", R)],
        writes: &["-i", "--in-place"],
        ..program(
            &["sed", "gsed"],
            Operands::AfterFirst(R, &["-e", "--expression", "-f", "--file"]),
        )
    },
    Program {
        short_args: "vFW",
        long_args: &["assign", "field-separator"],
        file_opts: &[("-f", R), ("--file", R), ("-i", R), ("--include", R)],
        ..program(
            &["awk", "gawk", "mawk", "nawk", "busybox-awk"],
            Operands::AfterFirst(R, &["-f", "--file"]),
        )
    },
    Program {
        long_args: &["reference"],
        ..program(
            &["chmod", "chown", "chgrp", "chattr", "chcon"],
            Operands::AfterFirst(W, &["--reference"]),
        )
    },
    Program {
        short_args: "mMxnX",
        file_opts: &[("-M", R)],
        ..program(&["setfacl"], Operands::All(W))
    },
    Program {
        short_args: "StbV",
        long_args: &[
            "suffix",
            "backup",
            "sparse",
            "reflink",
            "preserve",
            "no-preserve",
        ],
        file_opts: &[("-t", W), ("--target-directory", W)],
        ..program(&["cp"], Operands::Dest(R, W))
    },
    Program {
        short_args: "StbV",
        long_args: &["suffix", "backup"],
        file_opts: &[("-t", W), ("--target-directory", W)],
        ..program(&["mv"], Operands::Dest(RWD, W))
    },
    Program {
        short_args: "StbV",
        long_args: &["suffix", "backup"],
        file_opts: &[("-t", W), ("--target-directory", W)],
        ..program(&["ln", "link"], Operands::Dest(R, W))
    },
    Program {
        short_args: "mogStbV",
        long_args: &[
            "mode",
            "owner",
            "group",
            "suffix",
            "backup",
            "strip-program",
        ],
        file_opts: &[("-t", W), ("--target-directory", W)],
        ..program(&["install"], Operands::Dest(R, W))
    },
    Program {
        short_args: "cFiJloPSBD",
        long_args: &[],
        file_opts: &[("-i", R), ("-F", R), ("-S", R)],
        ..program(&["scp"], Operands::Dest(R, W))
    },
    Program {
        short_args: "eBfT",
        long_args: &[
            "rsh",
            "rsync-path",
            "filter",
            "exclude",
            "include",
            "chmod",
            "chown",
            "max-size",
            "min-size",
            "bwlimit",
            "timeout",
            "port",
            "temp-dir",
            "compare-dest",
            "copy-dest",
            "link-dest",
            "partial-dir",
            "log-file-format",
            "out-format",
            "info",
            "debug",
            "backup-dir",
            "suffix",
            "block-size",
            "modify-window",
            "compress-level",
        ],
        file_opts: &[
            ("--exclude-from", R),
            ("--include-from", R),
            ("--files-from", R),
            ("--password-file", R),
            ("--log-file", W),
            ("--write-batch", W),
            ("--read-batch", R),
        ],
        ..program(&["rsync"], Operands::Dest(R, W))
    },
    program(&["tee"], Operands::All(W)),
    Program {
        short_args: "dtrm",
        long_args: &["date", "time", "reference", "mode", "context"],
        ..program(&["touch", "mkdir", "mkfifo", "mknod"], Operands::All(W))
    },
    Program {
        short_args: "sor",
        long_args: &["size", "reference"],
        ..program(&["truncate", "fallocate"], Operands::All(W))
    },
    Program {
        short_args: "ns",
        long_args: &["iterations", "size", "random-source"],
        ..program(&["shred", "wipe", "srm"], Operands::All(WD))
    },
    Program {
        short_args: "kStTyz",
        long_args: &[
            "key",
            "field-separator",
            "buffer-size",
            "temporary-directory",
            "parallel",
            "compress-program",
            "random-source",
        ],
        file_opts: &[("-o", W), ("--output", W), ("--files0-from", R)],
        ..program(&["sort"], Operands::All(R))
    },
    Program {
        short_args: "fsw",
        long_args: &[
            "skip-fields",
            "skip-chars",
            "check-chars",
            "group",
            "all-repeated",
        ],
        ..program(&["uniq"], Operands::FirstRest(R, W))
    },
    Program {
        short_args: "cns",
        long_args: &[
            "bytes",
            "lines",
            "number",
            "sleep-interval",
            "pid",
            "max-unchanged-stats",
            "zero-terminated",
        ],
        ..program(&["head", "tail"], Operands::All(R))
    },
    Program {
        short_args: "abelnt",
        long_args: &[
            "bytes",
            "line-bytes",
            "lines",
            "number",
            "suffix-length",
            "additional-suffix",
            "filter",
        ],
        ..program(&["split", "csplit"], Operands::FirstRest(R, W))
    },
    Program {
        short_args: "pdFDlLmbgrzBVYCuoxE",
        long_args: &[
            "strip",
            "directory",
            "fuzz",
            "backup",
            "prefix",
            "suffix",
            "reject-format",
            "quoting-style",
            "read-only",
        ],
        file_opts: &[
            ("-i", R),
            ("--input", R),
            ("-o", W),
            ("--output", W),
            ("-r", W),
            ("--reject-file", W),
        ],
        ..program(&["patch"], Operands::FirstRest(W, R))
    },
    Program {
        short_args: "bnPtIxiLZOp",
        file_opts: &[("-@", R)],
        ..program(&["zip"], Operands::FirstRest(RW, R))
    },
    Program {
        short_args: "x",
        file_opts: &[("-d", W)],
        ..program(&["unzip"], Operands::FirstRest(R, Ops::NONE))
    },
    Program {
        short_args: "uragdsrnNFmkKeOzZt",
        long_args: &[
            "local-user",
            "recipient",
            "hidden-recipient",
            "default-key",
            "homedir",
            "cipher-algo",
            "digest-algo",
            "compress-algo",
            "passphrase",
            "trust-model",
            "keyserver",
            "pinentry-mode",
            "set-filename",
            "comment",
        ],
        file_opts: &[
            ("-o", W),
            ("--output", W),
            ("--passphrase-file", R),
            ("--keyring", R),
        ],
        ..program(&["gpg", "gpg2"], Operands::All(R))
    },
    Program {
        short_args: "r",
        file_opts: &[
            ("-i", R),
            ("--identity", R),
            ("-o", W),
            ("--output", W),
            ("-R", R),
            ("--recipients-file", R),
        ],
        ..program(&["age"], Operands::All(R))
    },
    Program {
        short_args: "bBCEIMNOtVZaguvnYr",
        long_args: &[],
        file_opts: &[("-f", RW), ("-D", R), ("-s", R)],
        ..program(&["ssh-keygen"], Operands::None)
    },
    Program {
        short_args: "BbcDEeJLlmOopQRSWw",
        file_opts: &[("-i", R), ("-F", R), ("-E", W)],
        ..program(&["ssh"], Operands::None)
    },
    Program {
        file_opts: &[],
        ..program(&["ssh-add"], Operands::All(R))
    },
];

/// What a command does to files: its operands, then its redirections.
/// `words` are the command's words with every wrapper removed
/// ([`Command::unwrapped`]).
pub(crate) fn operands(cmd: &Command, words: &[String]) -> Vec<Operand> {
    let mut out = Vec::new();
    // Whether each word of the unwrapped command is changed by the shell.
    let offset = cmd.words.len().saturating_sub(words.len());
    let same = cmd.words.get(offset..) == Some(words);
    let dynamic = |k: usize, text: &str| {
        if same {
            cmd.dynamic.get(offset + k).copied().unwrap_or(false)
        } else {
            text_dynamic(text)
        }
    };
    let mut push = |text: &str, ops: Ops, k: Option<usize>| {
        if text.is_empty() || ops == Ops::NONE || is_pseudo_device(text) {
            return;
        }
        let dynamic = match k {
            Some(k) => dynamic(k, text),
            None => text_dynamic(text),
        };
        // In what a `find` runs, `{}` is each file it found.
        if text.contains("{}") && !cmd.found.is_empty() {
            for item in &cmd.found {
                let text = text.replace("{}", item);
                out.push(Operand {
                    dynamic: text_dynamic(&text),
                    text,
                    ops,
                });
            }
            return;
        }
        out.push(Operand {
            text: text.to_owned(),
            ops,
            dynamic,
        });
    };
    // `xargs -a FILE` (`--arg-file`) reads its items from FILE: a wrapper's
    // own file, before the command it runs.
    let wrappers = cmd.words.get(..offset).unwrap_or_default();
    if let Some(x) = wrappers.iter().position(|w| basename(w) == "xargs") {
        let mut k = x + 1;
        while let Some(w) = wrappers.get(k) {
            k += 1;
            let mut file = None;
            if w == "--arg-file" {
                file = wrappers.get(k).map(String::as_str);
                k += 1;
            } else if let Some(f) = w.strip_prefix("--arg-file=") {
                file = Some(f);
            } else if let Some(group) = w.strip_prefix('-').filter(|g| !g.starts_with('-')) {
                // A group of short options (`-0a FILE`, `-aFILE`): the first
                // that takes a value takes the rest, or the next word.
                for (i, c) in group.char_indices() {
                    if "adEILnPs".contains(c) {
                        let rest = group.get(i + 1..).unwrap_or_default();
                        let value = if rest.is_empty() {
                            k += 1;
                            wrappers.get(k - 1).map(String::as_str)
                        } else {
                            Some(rest)
                        };
                        if c == 'a' {
                            file = value;
                        }
                        break;
                    }
                }
            }
            if let Some(file) = file {
                push(file, R, None);
            }
        }
    }
    if let Some(first) = words.first() {
        if cmd.found_appended && !cmd.found.is_empty() {
            // `xargs` appends what it reads: here, what a `find` found.
            let mut appended = words.to_vec();
            appended.push("{}".to_owned());
            program_operands(basename(first), &appended, &mut push);
        } else {
            program_operands(basename(first), words, &mut push);
        }
    }
    for r in &cmd.redirects {
        if let Some(ops) = redirect_ops(r) {
            push(&r.target, ops, None);
        }
    }
    out
}

/// The operation of a redirection's target, if it names a file.
fn redirect_ops(r: &Redirect) -> Option<Ops> {
    let op = r.op.trim_start_matches(|c: char| c.is_ascii_digit());
    match op {
        "<" => Some(R),
        "<>" => Some(RW),
        ">" | ">>" | ">|" | "&>" | "&>>" => Some(W),
        // `>&file` writes; `>&2`, `>&-` duplicate or close a descriptor.
        ">&" | "<&"
            if !r.target.is_empty()
                && r.target != "-"
                && !r
                    .target
                    .trim_end_matches('-')
                    .bytes()
                    .all(|b| b.is_ascii_digit()) =>
        {
            Some(if op == ">&" { W } else { R })
        }
        _ => None,
    }
}

/// Devices that hold no data: reading or writing them touches no file.
fn is_pseudo_device(text: &str) -> bool {
    matches!(
        text,
        "/dev/null"
            | "/dev/zero"
            | "/dev/full"
            | "/dev/random"
            | "/dev/urandom"
            | "/dev/stdin"
            | "/dev/stdout"
            | "/dev/stderr"
            | "/dev/tty"
            | "-"
    ) || text
        .strip_prefix("/dev/fd/")
        .or_else(|| text.strip_prefix("/proc/self/fd/"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a word given as text names its file through an expansion or a
/// glob (quoting is gone, so a quoted `*` counts too: that fails closed).
fn text_dynamic(text: &str) -> bool {
    let base = text.rsplit('/').next().unwrap_or(text);
    base.contains(['$', '`', '*', '?']) || (base.contains('[') && base.contains(']'))
}

/// Whether a word of an unknown program looks like a path.
fn path_like(word: &str) -> bool {
    if word.is_empty() || word.contains("://") {
        return false;
    }
    if word.contains('/') || word.starts_with(['~', '.']) || word.starts_with("$HOME") {
        return true;
    }
    // `name.ext`: a dot followed by a letter or digit, not at the end.
    word.char_indices().any(|(i, c)| {
        c == '.'
            && i > 0
            && word[i + 1..]
                .chars()
                .next()
                .is_some_and(|n| n.is_ascii_alphanumeric())
    }) && !word.contains(char::is_whitespace)
}

/// An option word split into its name and an attached value.
enum Opt<'a> {
    /// `--name` or `--name=value`.
    Long(&'a str, Option<&'a str>),
    /// `-abc`: the letters.
    Short(&'a str),
}

/// Reads the words of a program in the table, or of an unknown one.
fn program_operands(name: &str, words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    if NO_FILES.contains(&name) {
        return;
    }
    let simple = |ops: Ops| Program {
        short_args: "",
        ..program(&[], Operands::All(ops))
    };
    let table;
    let prog: &Program = if let Some(p) = PROGRAMS.iter().find(|p| p.names.contains(&name)) {
        p
    } else if READERS.contains(&name) {
        table = simple(R);
        &table
    } else if EDITORS.contains(&name) {
        table = simple(RW);
        &table
    } else if LISTERS.contains(&name) {
        table = Program {
            short_args: "IwT",
            long_args: &[
                "ignore",
                "hide",
                "format",
                "sort",
                "time-style",
                "width",
                "color",
                "block-size",
                "max-depth",
                "exclude",
                "level",
            ],
            ..program(&[], Operands::All(L))
        };
        &table
    } else if STATERS.contains(&name) {
        table = Program {
            short_args: "cf",
            long_args: &["format", "printf"],
            ..program(&[], Operands::All(Ops::STAT))
        };
        &table
    } else if DELETERS.contains(&name) {
        table = simple(D);
        &table
    } else if COMPRESSORS.contains(&name) {
        table = Program {
            short_args: "S",
            long_args: &["suffix"],
            ..program(&[], Operands::All(RWD))
        };
        &table
    } else {
        return match name {
            "tar" | "bsdtar" | "gtar" => tar(words, push),
            "dd" => {
                for (k, w) in words.iter().enumerate().skip(1) {
                    if let Some(f) = w.strip_prefix("if=") {
                        push(f, R, Some(k));
                    } else if let Some(f) = w.strip_prefix("of=") {
                        push(f, W, Some(k));
                    }
                }
            }
            "curl" | "wget" => fetcher(words, push),
            "find" | "fd" | "fdfind" => find(words, push),
            "git" => git(words, push),
            "docker" | "podman" | "nerdctl" => container(words, push),
            "kubectl" | "oc" => kube(words, push),
            n if is_interpreter(n) => script(n, words, push),
            _ => unknown(words, push, 0),
        };
    };
    if SEARCHERS.contains(&name) {
        return search(prog, words, push);
    }
    generic(prog, words, push);
}

/// Programs that search the files under their operands.
const SEARCHERS: &[&str] = &[
    "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "zegrep", "zfgrep", "pcregrep", "ugrep",
];

/// A search: its operands, and under each (or under `.` when none is
/// given) the files its name filters pick (`--include=.env`, `-g '*.pem'`,
/// `--iglob`), read wherever they are.
fn search(prog: &Program, words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    let mut roots: Vec<String> = Vec::new();
    generic(
        prog,
        words,
        &mut |text: &str, ops: Ops, k: Option<usize>| {
            if ops.intersects(R) && !roots.iter().any(|r| r == text) {
                roots.push(text.to_owned());
            }
            push(text, ops, k);
        },
    );
    let mut filters: Vec<&str> = Vec::new();
    let mut k = 1;
    while let Some(w) = words.get(k) {
        k += 1;
        if w == "--" {
            break;
        }
        let value = if let Some(v) = ["--include=", "--glob=", "--iglob=", "--file-glob="]
            .iter()
            .find_map(|p| w.strip_prefix(p))
        {
            Some(v)
        } else if matches!(w.as_str(), "--include" | "--glob" | "--iglob" | "-g") {
            k += 1;
            words.get(k - 1).map(String::as_str)
        } else {
            w.strip_prefix("-g").filter(|v| !v.is_empty())
        };
        if let Some(v) = value
            && !v.starts_with('!')
        {
            filters.push(v);
        }
    }
    if filters.is_empty() {
        return;
    }
    if roots.is_empty() {
        roots.push(".".to_owned());
    }
    // A filter is a glob whatever its quoting: it is matched as one.
    for root in &roots {
        for filter in &filters {
            let mut name = *filter;
            while let Some(r) = name.strip_prefix("**/") {
                name = r;
            }
            let root = root.trim_end_matches('/');
            let text = if name.starts_with('/') {
                name.to_owned()
            } else if root.is_empty() {
                format!("/{name}")
            } else {
                format!("{root}/{name}")
            };
            push(&text, R, None);
        }
    }
}

/// Reads options and operands the way GNU programs do (options anywhere
/// before `--`), with a program's table entry.
fn generic(prog: &Program, words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    let mut operands: Vec<(usize, &str)> = Vec::new();
    let mut given = false;
    let mut writes = false;
    let mut dest: Option<(usize, &str, Ops)> = None;
    let mut k = 1;
    let mut options_end = false;
    let opt_given = |o: &str, writes: &mut bool, given: &mut bool| {
        if let Operands::AfterFirst(_, by) = prog.operands
            && by.contains(&o)
        {
            *given = true;
        }
        if prog.writes.contains(&o) {
            *writes = true;
        }
    };
    while let Some(w) = words.get(k) {
        k += 1;
        if options_end || !w.starts_with('-') || w == "-" {
            operands.push((k - 1, w));
            continue;
        }
        if w == "--" {
            options_end = true;
            continue;
        }
        let opt = match w.strip_prefix("--") {
            Some(long) => match long.split_once('=') {
                Some((n, v)) => Opt::Long(n, Some(v)),
                None => Opt::Long(long, None),
            },
            None => Opt::Short(&w[1..]),
        };
        match opt {
            Opt::Long(n, value) => {
                let flag = format!("--{n}");
                opt_given(&flag, &mut writes, &mut given);
                let file = prog
                    .file_opts
                    .iter()
                    .find(|(o, _)| *o == flag)
                    .map(|&(_, ops)| ops);
                let takes = file.is_some() || prog.long_args.contains(&n);
                let arg = match value {
                    Some(v) => Some((k - 1, v)),
                    None if takes => {
                        k += 1;
                        words.get(k - 1).map(|v| (k - 1, v.as_str()))
                    }
                    None => None,
                };
                if let (Some(ops), Some((at, v))) = (file, arg) {
                    if flag == "--target-directory" {
                        dest = Some((at, v, ops));
                    } else {
                        push(v, ops, Some(at));
                    }
                }
            }
            Opt::Short(letters) => {
                for (i, c) in letters.char_indices() {
                    let flag = format!("-{c}");
                    opt_given(&flag, &mut writes, &mut given);
                    let file = prog
                        .file_opts
                        .iter()
                        .find(|(o, _)| *o == flag)
                        .map(|&(_, ops)| ops);
                    if file.is_none() && !prog.short_args.contains(c) {
                        continue;
                    }
                    // The rest of the cluster, or the next word, is the argument.
                    let rest = &letters[i + c.len_utf8()..];
                    let arg = if rest.is_empty() {
                        k += 1;
                        words.get(k - 1).map(|v| (k - 1, v.as_str()))
                    } else {
                        Some((k - 1, rest))
                    };
                    if let (Some(ops), Some((at, v))) = (file, arg) {
                        if flag == "-t" && matches!(prog.operands, Operands::Dest(..)) {
                            dest = Some((at, v, ops));
                        } else {
                            push(v, ops, Some(at));
                        }
                    }
                    break;
                }
            }
        }
    }
    let extra = if writes { W } else { Ops::NONE };
    match prog.operands {
        Operands::None => {}
        Operands::All(ops) => {
            for (at, w) in operands {
                push(w, ops.union(extra), Some(at));
            }
        }
        Operands::AfterFirst(ops, _) => {
            for (at, w) in operands.into_iter().skip(usize::from(!given)) {
                push(w, ops.union(extra), Some(at));
            }
        }
        Operands::FirstRest(first, rest) => {
            for (n, (at, w)) in operands.into_iter().enumerate() {
                push(w, if n == 0 { first } else { rest }, Some(at));
            }
        }
        Operands::Dest(src, to) => {
            let last = if dest.is_none() { operands.pop() } else { None };
            for (at, w) in operands {
                if !is_remote(w) {
                    push(w, src, Some(at));
                }
            }
            if let Some((at, w, ops)) = dest.or(last.map(|(at, w)| (at, w, to)))
                && !is_remote(w)
            {
                push(w, ops, Some(at));
            }
        }
    }
}

/// `host:path` or `user@host:path`: a file on another machine.
fn is_remote(word: &str) -> bool {
    match word.find(':') {
        Some(i) => !word[..i].contains('/') && i > 0,
        None => false,
    }
}

/// An unknown program: its path-like operands, and path-like values of
/// `--opt=value`, may be anything.
/// `words[0]` is the program; `at` is its index in the command's words.
fn unknown(words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>), at: usize) {
    for (k, w) in words.iter().enumerate().skip(1) {
        let k = k + at;
        let value = if w.starts_with('-') {
            match w.split_once('=') {
                Some((_, v)) => v,
                None => continue,
            }
        } else {
            w.as_str()
        };
        if path_like(value) {
            push(value, Ops::ALL, Some(k));
        }
        // `@FILE`, `NAME=@FILE`, `NAME:=@FILE`: a file whose content is
        // sent (HTTPie, xh, `gh api -F`, as curl's `-d @FILE`).
        let file = value
            .strip_prefix('@')
            .or_else(|| value.split_once("=@").map(|(_, f)| f));
        if let Some(file) = file.filter(|f| !f.is_empty()) {
            push(file, R, Some(k));
        }
    }
}

/// Interpreters whose first operand is a script they read and run.
fn is_interpreter(name: &str) -> bool {
    super::SHELLS.contains(&name)
        || matches!(
            name,
            "python"
                | "python2"
                | "python3"
                | "pypy"
                | "pypy3"
                | "node"
                | "nodejs"
                | "deno"
                | "bun"
                | "perl"
                | "ruby"
                | "php"
                | "lua"
                | "luajit"
                | "Rscript"
                | "tclsh"
                | "wish"
                | "osascript"
                | "pwsh"
                | "powershell"
        )
        || name.starts_with("python3.")
}

/// `sh x.sh`, `python3 x.py`: the script is read and run, and its
/// arguments are read as an unknown program's; `-c`, `-e`, `-m` give the
/// code instead (and the words after it are read the same way).
fn script(name: &str, words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    let code_opts: &[&str] = match name {
        "node" | "nodejs" | "deno" | "bun" => &["-e", "--eval", "-p", "--print"],
        "perl" | "ruby" | "lua" | "luajit" => &["-e", "-E"],
        "php" => &["-r"],
        "Rscript" => &["-e"],
        "pwsh" | "powershell" => &["-c", "-Command", "-command"],
        n if n.starts_with("python") || n.starts_with("pypy") => &["-c", "-m"],
        _ => &["-c", "-s"],
    };
    for (k, w) in words.iter().enumerate().skip(1) {
        if code_opts.iter().any(|o| {
            w == o
                || (o.len() == 2
                    && w.starts_with('-')
                    && !w.starts_with("--")
                    && w.contains(&o[1..]))
        }) {
            // The code, then its arguments.
            unknown(words.get(k + 1..).unwrap_or_default(), push, k + 1);
            return;
        }
        if w.starts_with('-') || w.starts_with('+') {
            continue;
        }
        push(w, RX, Some(k));
        unknown(words.get(k..).unwrap_or_default(), push, k);
        return;
    }
}

/// `tar`: the archive (`-f`) and the members, by mode.
fn tar(words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    let mut create = false;
    let mut extract = false;
    let mut archive: Option<(usize, &str)> = None;
    let mut dir: Option<(usize, &str)> = None;
    let mut members = Vec::new();
    let mut k = 1;
    // Old style: the first word is a cluster of letters without a dash.
    let mut first_old = words
        .get(1)
        .is_some_and(|w| !w.starts_with('-') && !w.is_empty());
    let mut options_end = false;
    while let Some(w) = words.get(k) {
        k += 1;
        let letters = if first_old {
            first_old = false;
            Some(w.as_str())
        } else if !options_end && w.starts_with('-') && !w.starts_with("--") && w.len() > 1 {
            Some(&w[1..])
        } else {
            None
        };
        if let Some(letters) = letters {
            let mut wants = Vec::new();
            for (i, c) in letters.char_indices() {
                match c {
                    'c' | 'r' | 'u' | 'A' => create = true,
                    'x' => extract = true,
                    'f' | 'C' | 'T' | 'X' | 'b' | 'H' | 'K' | 'N' | 'g' | 'V' | 'L' | 'I' => {
                        if w.starts_with('-') && i + 1 < letters.len() {
                            let v = &letters[i + 1..];
                            match c {
                                'f' => archive = Some((k - 1, v)),
                                'C' => dir = Some((k - 1, v)),
                                'T' | 'X' => push(v, R, Some(k - 1)),
                                _ => {}
                            }
                            break;
                        }
                        wants.push(c);
                    }
                    _ => {}
                }
            }
            for c in wants {
                k += 1;
                let Some(v) = words.get(k - 1) else { break };
                match c {
                    'f' => archive = Some((k - 1, v)),
                    'C' => dir = Some((k - 1, v)),
                    'T' | 'X' => push(v, R, Some(k - 1)),
                    _ => {}
                }
            }
            continue;
        }
        if !options_end && w == "--" {
            options_end = true;
            continue;
        }
        if !options_end && let Some(long) = w.strip_prefix("--") {
            let (n, v) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let takes = matches!(
                n,
                "file"
                    | "directory"
                    | "files-from"
                    | "exclude-from"
                    | "exclude"
                    | "transform"
                    | "xform"
                    | "owner"
                    | "group"
                    | "mode"
                    | "mtime"
                    | "format"
                    | "use-compress-program"
                    | "strip-components"
                    | "blocking-factor"
                    | "label"
                    | "newer"
                    | "after-date"
            );
            match n {
                "create" | "append" | "update" => create = true,
                "extract" | "get" => extract = true,
                _ => {}
            }
            let v = match v {
                Some(v) => Some((k - 1, v)),
                None if takes => {
                    k += 1;
                    words.get(k - 1).map(|v| (k - 1, v.as_str()))
                }
                None => None,
            };
            if let Some(v) = v {
                match n {
                    "file" => archive = Some(v),
                    "directory" => dir = Some(v),
                    "files-from" | "exclude-from" => push(v.1, R, Some(v.0)),
                    _ => {}
                }
            }
            continue;
        }
        members.push((k - 1, w.as_str()));
    }
    let (archive_ops, member_ops) = if create {
        (RW, R)
    } else if extract {
        (R, W)
    } else {
        (R, Ops::NONE)
    };
    if let Some((at, a)) = archive {
        push(a, archive_ops, Some(at));
    }
    if let Some((at, d)) = dir {
        push(d, if extract { W } else { R }, Some(at));
    }
    // Members are relative to `-C` when given (`tar -C / -cf - etc/shadow`).
    for (at, m) in members {
        match dir {
            Some((_, d)) if !m.starts_with('/') => {
                push(
                    &format!("{}/{m}", d.trim_end_matches('/')),
                    member_ops,
                    Some(at),
                );
            }
            _ => push(m, member_ops, Some(at)),
        }
    }
}

/// `curl` and `wget`: files they upload or save (URLs are not files).
fn fetcher(words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    let curl = words.first().is_some_and(|w| basename(w) == "curl");
    let mut k = 1;
    while let Some(w) = words.get(k) {
        k += 1;
        let (name, attached) = if let Some(long) = w.strip_prefix("--") {
            match long.split_once('=') {
                Some((n, v)) => (format!("--{n}"), Some(v.to_owned())),
                None => (w.clone(), None),
            }
        } else if w.starts_with('-') && w.len() > 2 {
            // `-ofile`, `-d@file`, and flag clusters like `-sSL`.
            let last_arg = w[1..].char_indices().find(|&(_, c)| {
                if curl {
                    "oOTdFKbceEHuxXmAr".contains(c)
                } else {
                    "OoaiPeU".contains(c)
                }
            });
            match last_arg {
                Some((i, c)) if i + 2 < w.len() => (format!("-{c}"), Some(w[i + 2..].to_owned())),
                Some((_, c)) => (format!("-{c}"), None),
                None => continue,
            }
        } else if w.starts_with('-') {
            (w.clone(), None)
        } else {
            continue;
        };
        let role: Option<Ops> = match (curl, name.as_str()) {
            (
                true,
                "-o" | "--output" | "-c" | "--cookie-jar" | "--dump-header" | "-D" | "--trace"
                | "--trace-ascii" | "--stderr",
            ) => Some(W),
            (
                true,
                "-T" | "--upload-file" | "-K" | "--config" | "--cert" | "-E" | "--key" | "--cacert"
                | "--netrc-file",
            ) => Some(R),
            (
                true,
                "-d" | "--data" | "--data-binary" | "--data-urlencode" | "--json" | "-F" | "--form"
                | "-b" | "--cookie" | "-H" | "--header",
            ) => Some(Ops::NONE),
            (
                true,
                "-O" | "--remote-name" | "-s" | "-S" | "-L" | "-f" | "-k" | "-v" | "-i" | "-I",
            ) => None,
            (
                true,
                "-u" | "-x" | "-X" | "-m" | "-A" | "-e" | "-r" | "--user" | "--proxy" | "--request"
                | "--max-time" | "--user-agent" | "--referer" | "--range" | "--connect-timeout"
                | "--retry" | "--data-raw" | "--output-dir",
            ) => Some(Ops::NONE),
            (
                false,
                "-O" | "--output-document" | "-o" | "--output-file" | "-a" | "--append-output"
                | "-P" | "--directory-prefix",
            ) => Some(W),
            (
                false,
                "-i" | "--input-file" | "--post-file" | "--body-file" | "--certificate"
                | "--private-key" | "--load-cookies" | "-e" | "--execute",
            ) => Some(R),
            _ => None,
        };
        let Some(ops) = role else { continue };
        let value = match attached {
            Some(v) => Some((k - 1, v)),
            None => {
                k += 1;
                words.get(k - 1).map(|v| (k - 1, v.clone()))
            }
        };
        let Some((at, v)) = value else { break };
        if ops != Ops::NONE {
            push(&v, ops, Some(at));
        } else if curl {
            // `@file` and `<file` in data, forms and headers are read.
            let file = v
                .strip_prefix('@')
                .or_else(|| v.split_once("=@").map(|(_, f)| f))
                .or_else(|| v.split_once("=<").map(|(_, f)| f))
                .or_else(|| v.strip_prefix('<'));
            if let Some(f) = file {
                let f = f.split(';').next().unwrap_or(f);
                push(f, R, Some(at));
            }
        }
    }
}

/// `find`: the starting points are listed; `-delete` deletes what it
/// finds; `-fprint` and the like write their file.
fn find(words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    let fd = words.first().is_some_and(|w| basename(w) != "find");
    let deletes = words.iter().any(|w| w == "-delete");
    let ops = if deletes { L.union(D) } else { L };
    let mut in_expr = false;
    let mut k = 1;
    while let Some(w) = words.get(k) {
        k += 1;
        if fd {
            // `fd PATTERN [PATH…]`: options anywhere; the first operand is the pattern.
            continue;
        }
        if matches!(w.as_str(), "-H" | "-L" | "-P") && !in_expr {
            continue;
        }
        if w.starts_with('-') || w == "(" || w == "!" {
            in_expr = true;
        }
        if in_expr {
            if matches!(w.as_str(), "-fprint" | "-fprint0" | "-fprintf" | "-fls")
                && let Some(f) = words.get(k)
            {
                push(f, W, Some(k));
            }
            continue;
        }
        push(w, ops, Some(k - 1));
    }
    if fd {
        let operands: Vec<(usize, &String)> = words
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, w)| !w.starts_with('-'))
            .collect();
        for (at, w) in operands.into_iter().skip(1) {
            push(w, L, Some(at));
        }
    }
}

/// `docker`, `podman`, `nerdctl`: the host's files a command names. For
/// `run`, `create` and `exec`: a bind mount's source (`-v SRC:DST`,
/// `--mount …,source=SRC`, all operations, or reads with `ro`),
/// `--env-file` and `--label-file` (read), `--cidfile` (written),
/// `--device` (read and written), a seccomp profile (read), and the
/// path-like value of an unknown `--option=value`. A working directory
/// (`-w`), a mount's destination and what runs in the container (the words
/// after the image, or after the container of `exec`) are the
/// container's files, not the host's. `build` reads its context and
/// `-f`; `cp` reads or writes its side that is not `CONTAINER:PATH`.
/// Other subcommands are read as an unknown program's words.
fn container(words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    let mut k = 1;
    while let Some(w) = words.get(k) {
        match w.as_str() {
            "-H" | "--host" | "-c" | "--context" | "-l" | "--log-level" => k += 2,
            "--config" | "--tlscacert" | "--tlscert" | "--tlskey" => {
                if let Some(v) = words.get(k + 1) {
                    push(v, R, Some(k + 1));
                }
                k += 2;
            }
            w if w.starts_with('-') => {
                if let Some((_, v)) = w.split_once('=')
                    && path_like(v)
                {
                    push(v, R, Some(k));
                }
                k += 1;
            }
            _ => break,
        }
    }
    if words
        .get(k)
        .is_some_and(|w| matches!(w.as_str(), "container" | "image" | "builder" | "buildx"))
        && words.get(k + 1).is_some()
    {
        k += 1;
    }
    let Some(sub) = words.get(k) else { return };
    match sub.as_str() {
        "run" | "create" | "exec" => container_run(words, k + 1, push),
        "build" => {
            for (at, w) in words.iter().enumerate().skip(k + 1) {
                let value =
                    |name: &str| w.strip_prefix(name).and_then(|rest| rest.strip_prefix('='));
                if let Some(f) = value("--file") {
                    push(f, R, Some(at));
                } else if (w == "-f" || w == "--file")
                    && let Some(f) = words.get(at + 1)
                {
                    push(f, R, Some(at + 1));
                } else if !w.starts_with('-')
                    && words
                        .get(at - 1)
                        .is_none_or(|prev| !BUILD_VALUE.contains(&prev.as_str()))
                {
                    // The context, read as a whole.
                    push(w, R, Some(at));
                }
            }
        }
        "cp" => {
            let operands: Vec<(usize, &String)> = words
                .iter()
                .enumerate()
                .skip(k + 1)
                .filter(|(_, w)| !w.starts_with('-'))
                .collect();
            if !copy_sides(&operands, in_container, push) {
                // Not a copy this reading knows: every path-like word.
                unknown(words.get(k..).unwrap_or_default(), push, k);
            }
        }
        _ => unknown(words.get(k..).unwrap_or_default(), push, k),
    }
}

/// `kubectl`, `oc`: `exec`, `attach` and `debug` run what follows `--`
/// in a pod, whose files are not the host's; `cp` reads or writes its side
/// that is not `[NAMESPACE/]POD:PATH`; `--kubeconfig FILE` is read; other
/// subcommands are read as an unknown program's words.
fn kube(words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    let mut k = 1;
    let mut sub = None;
    while let Some(w) = words.get(k) {
        if let Some(f) = w.strip_prefix("--kubeconfig=") {
            push(f, R, Some(k));
        } else if w == "--kubeconfig" {
            if let Some(f) = words.get(k + 1) {
                push(f, R, Some(k + 1));
            }
            k += 1;
        } else if matches!(
            w.as_str(),
            "-n" | "--namespace" | "--context" | "--cluster" | "--user" | "-s" | "--server"
        ) {
            k += 1;
        } else if !w.starts_with('-') && sub.is_none() {
            sub = Some(k);
            break;
        }
        k += 1;
    }
    let Some(at) = sub else { return };
    let rest = words.get(at..).unwrap_or_default();
    match rest.first().map(String::as_str) {
        Some("exec" | "attach" | "debug") => {
            // Only the options before `--` are the host's.
            let end = rest.iter().position(|w| w == "--").unwrap_or(rest.len());
            unknown(rest.get(..end).unwrap_or_default(), push, at);
        }
        Some("cp") => {
            // `-c CONTAINER`, `-n NAMESPACE`, `--retries N` take a value.
            let mut operands: Vec<(usize, &String)> = Vec::new();
            let mut i = 1;
            while let Some(w) = rest.get(i) {
                if matches!(
                    w.as_str(),
                    "-c" | "--container" | "-n" | "--namespace" | "--retries"
                ) {
                    i += 1;
                } else if !w.starts_with('-') {
                    operands.push((at + i, w));
                }
                i += 1;
            }
            let remote = |w: &str| {
                w.find(':')
                    .is_some_and(|i| i > 0 && !w.starts_with(['/', '.', '~']))
            };
            if !copy_sides(&operands, remote, push) {
                unknown(rest, push, at);
            }
        }
        _ => unknown(rest, push, at),
    }
}

/// The host's sides of a copy between the host and a container or a pod
/// (`remote` tells the other side's operands): the source read, the
/// destination written. `false` when `operands` are not two.
fn copy_sides(
    operands: &[(usize, &String)],
    remote: impl Fn(&str) -> bool,
    push: &mut impl FnMut(&str, Ops, Option<usize>),
) -> bool {
    let [(src_at, src), (dst_at, dst)] = operands else {
        return false;
    };
    if !remote(src) {
        push(src, R, Some(*src_at));
    }
    if !remote(dst) {
        push(dst, W, Some(*dst_at));
    }
    true
}

/// A `CONTAINER:PATH` operand of `docker cp` (a name, then `:`, with no
/// `/` before it).
fn in_container(word: &str) -> bool {
    word.find(':')
        .is_some_and(|i| i > 0 && !word[..i].contains('/'))
}

/// The options of `docker build` whose value follows them.
const BUILD_VALUE: &[&str] = &[
    "-f",
    "--file",
    "-t",
    "--tag",
    "--build-arg",
    "--target",
    "--platform",
    "--label",
    "--network",
    "--progress",
    "--cache-from",
    "--cache-to",
    "--secret",
    "--ssh",
    "-o",
    "--output",
    "--iidfile",
    "--add-host",
    "--shm-size",
    "-m",
    "--memory",
    "--ulimit",
    "--build-context",
];

/// The options of `docker run`, `create` and `exec` whose value follows
/// them (those naming host files are read in [`container_run`]).
const RUN_VALUE: &[&str] = &[
    "-a",
    "--attach",
    "--add-host",
    "--annotation",
    "--blkio-weight",
    "--blkio-weight-device",
    "--cap-add",
    "--cap-drop",
    "--cgroup-parent",
    "--cgroupns",
    "-c",
    "--cpu-shares",
    "--cpu-period",
    "--cpu-quota",
    "--cpu-rt-period",
    "--cpu-rt-runtime",
    "--cpus",
    "--cpuset-cpus",
    "--cpuset-mems",
    "--detach-keys",
    "--device-cgroup-rule",
    "--device-read-bps",
    "--device-read-iops",
    "--device-write-bps",
    "--device-write-iops",
    "--dns",
    "--dns-option",
    "--dns-search",
    "--domainname",
    "--entrypoint",
    "-e",
    "--env",
    "--expose",
    "--gpus",
    "--group-add",
    "--health-cmd",
    "--health-interval",
    "--health-retries",
    "--health-start-interval",
    "--health-start-period",
    "--health-timeout",
    "-h",
    "--hostname",
    "--ip",
    "--ip6",
    "--ipc",
    "--isolation",
    "--kernel-memory",
    "-l",
    "--label",
    "--link",
    "--link-local-ip",
    "--log-driver",
    "--log-opt",
    "--mac-address",
    "-m",
    "--memory",
    "--memory-reservation",
    "--memory-swap",
    "--memory-swappiness",
    "--name",
    "--network",
    "--net",
    "--network-alias",
    "--net-alias",
    "--oom-score-adj",
    "--pid",
    "--pids-limit",
    "--platform",
    "-p",
    "--publish",
    "--pull",
    "--restart",
    "--runtime",
    "--shm-size",
    "--stop-signal",
    "--stop-timeout",
    "--storage-opt",
    "--sysctl",
    "--tmpfs",
    "-u",
    "--user",
    "--ulimit",
    "--userns",
    "--uts",
    "--volume-driver",
    "--volumes-from",
    "-w",
    "--workdir",
    "--pod",
    "--arch",
    "--os",
    "--variant",
];

/// The words of `docker run`, `create` or `exec` from `from`: options up
/// to the image (or the container), see [`container`].
fn container_run(words: &[String], from: usize, push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    let mut k = from;
    // Host directories mounted: `(source, destination, what it allows)`;
    // and the directory the command starts in (`-w`).
    let mut mounts: Vec<(String, String, Ops)> = Vec::new();
    let mut workdir: Option<String> = None;
    while let Some(w) = words.get(k) {
        if !w.starts_with('-') || w == "-" {
            // The image or the container: what follows runs inside.
            mounted_files(
                words.get(k + 1..).unwrap_or_default(),
                &mounts,
                workdir.as_deref(),
                push,
            );
            return;
        }
        let (name, value, at, next) = run_option(words, k, w);
        k = next;
        let Some(value) = value else { continue };
        match name.as_str() {
            "-v" | "--volume" => {
                let mut parts = value.splitn(3, ':');
                let source = parts.next().unwrap_or_default();
                let dest = parts.next();
                let read_only = parts
                    .next()
                    .is_some_and(|o| o.split(',').any(|o| o == "ro"));
                if is_host_source(source) {
                    let ops = if read_only { MOUNT_RO } else { Ops::ALL };
                    push(source, ops, Some(at));
                    if let Some(dest) = dest {
                        mounts.push((source.to_owned(), dest.to_owned(), ops));
                    }
                }
            }
            "--mount" => {
                let fields = mount_fields(value);
                let read_only = fields.iter().any(|(f, v)| {
                    matches!(f.as_str(), "readonly" | "ro") && v != "false" && v != "0"
                });
                let ops = if read_only { MOUNT_RO } else { Ops::ALL };
                let dest = fields
                    .iter()
                    .find(|(f, _)| matches!(f.as_str(), "target" | "destination" | "dst"))
                    .map(|(_, v)| v.clone());
                for (field, v) in &fields {
                    if matches!(field.as_str(), "source" | "src") && is_host_source(v) {
                        push(v, ops, Some(at));
                        if let Some(dest) = &dest {
                            mounts.push((v.clone(), dest.clone(), ops));
                        }
                    }
                }
            }
            "-w" | "--workdir" => workdir = Some(value.to_owned()),
            "--env-file" | "--label-file" => push(value, R, Some(at)),
            "--cidfile" => push(value, W, Some(at)),
            "--device" => {
                let host = value.split(':').next().unwrap_or_default();
                push(host, RW, Some(at));
            }
            "--security-opt" => {
                if let Some(profile) = value.strip_prefix("seccomp=")
                    && profile != "unconfined"
                {
                    push(profile, R, Some(at));
                }
            }
            n if RUN_VALUE.contains(&n) => {}
            // An option this table does not know, given a value that looks
            // like a path: it may be anything.
            _ => {
                if path_like(value) {
                    push(value, Ops::ALL, Some(at));
                }
            }
        }
    }
}

/// The host files a command run in a container touches through its bind
/// mounts: `docker run -v "$PWD":/w alpine cat /w/.env` reads `$PWD/.env`.
/// `inner` is the image's command; a shell's `-c` string is read as a
/// line. A path under a mount's
/// destination (or relative to a working directory under one) is its
/// source's file, with what the mount allows; other paths are the
/// container's own.
fn mounted_files(
    inner: &[String],
    mounts: &[(String, String, Ops)],
    workdir: Option<&str>,
    push: &mut impl FnMut(&str, Ops, Option<usize>),
) {
    if mounts.is_empty() {
        return;
    }
    let host = |text: &str| -> Option<(String, Ops)> {
        let joined = if text.starts_with('/') {
            text.to_owned()
        } else {
            format!("{}/{text}", workdir?.trim_end_matches('/'))
        };
        // In the container's tree: `/w/../w/.env` is `/w/.env`.
        let mut parts: Vec<&str> = Vec::new();
        for part in joined.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    parts.pop();
                }
                p => parts.push(p),
            }
        }
        let full = format!("/{}", parts.join("/"));
        mounts
            .iter()
            .filter_map(|(source, dest, ops)| {
                let dest = dest.trim_end_matches('/');
                let rest = full.strip_prefix(dest)?;
                (rest.is_empty() || rest.starts_with('/')).then_some((
                    dest.len(),
                    source,
                    rest,
                    *ops,
                ))
            })
            .max_by_key(|m| m.0)
            .map(|(_, source, rest, ops)| (format!("{}{rest}", source.trim_end_matches('/')), ops))
    };
    // The host file's text is not a word of the line: whether it names its
    // file through an expansion is read from the text itself.
    let mut mapped = |text: &str, ops: Ops, _: Option<usize>| {
        if let Some((file, allowed)) = host(text) {
            let ops = ops.intersection(allowed);
            if ops != Ops::NONE {
                push(&file, ops, None);
            }
        }
    };
    let Some(first) = inner.first() else { return };
    let name = basename(first);
    if super::SHELLS.contains(&name)
        && let Some(c) = inner.iter().position(|w| w == "-c")
        && let Some(line) = inner.get(c + 1)
    {
        for cmd in super::commands(line) {
            for op in operands(&cmd, &cmd.unwrapped()) {
                mapped(&op.text, op.ops, None);
            }
        }
        return;
    }
    // As a trait object: the program may be a container tool again.
    let mapped: &mut dyn FnMut(&str, Ops, Option<usize>) = &mut mapped;
    program_operands(name, inner, &mut { mapped });
}

/// The option at `k` of `docker run` (`w`), as its command-line parser
/// reads it: its name (`--volume`, `-v`), its value, where the value is,
/// and the index of the next option. A group of short options (`-itv X`,
/// `-v/a:/b`, `-v=/a:/b`) ends with the first that takes a value, which is
/// the rest of the group or the next word.
fn run_option<'w>(
    words: &'w [String],
    k: usize,
    w: &'w str,
) -> (String, Option<&'w str>, usize, usize) {
    let next_word = || words.get(k + 1).map(String::as_str);
    if let Some(long) = w.strip_prefix("--") {
        return match long.split_once('=') {
            Some((n, v)) => (format!("--{n}"), Some(v), k, k + 1),
            None if RUN_VALUE.contains(&w) || HOST_FILE_OPTIONS.contains(&w) => {
                (w.to_owned(), next_word(), k + 1, k + 2)
            }
            None => (w.to_owned(), None, k, k + 1),
        };
    }
    let group = w.strip_prefix('-').unwrap_or(w);
    for (i, c) in group.char_indices() {
        if SHORT_VALUE.contains(c) {
            let rest = group.get(i + c.len_utf8()..).unwrap_or_default();
            let rest = rest.strip_prefix('=').unwrap_or(rest);
            return if rest.is_empty() {
                (format!("-{c}"), next_word(), k + 1, k + 2)
            } else {
                (format!("-{c}"), Some(rest), k, k + 1)
            };
        }
    }
    (w.to_owned(), None, k, k + 1)
}

/// The short options of `docker run` that take a value (`-v`, `-e`,
/// `-w`, …); the others (`-i`, `-t`, `-d`, …) take none.
const SHORT_VALUE: &str = "acehlmpuvw";

/// The `key=value` fields of a `--mount` value as Docker reads them: a
/// line of comma-separated values where a field may be quoted
/// (`"source=/a,b"`), keys in any case (`Source=`).
fn mount_fields(value: &str) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    let (mut field, mut quoted) = (String::new(), false);
    for c in value.chars().chain(std::iter::once(',')) {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    fields
        .into_iter()
        .map(|f| match f.split_once('=') {
            Some((k, v)) => (k.trim().to_ascii_lowercase(), v.trim().to_owned()),
            None => (f.trim().to_ascii_lowercase(), String::new()),
        })
        .collect()
}

/// The options of `docker run` whose value names a host file.
const HOST_FILE_OPTIONS: &[&str] = &[
    "-v",
    "--volume",
    "--mount",
    "--env-file",
    "--label-file",
    "--cidfile",
    "--device",
    "--security-opt",
];

/// What a bind mount may do to its source, read-only.
const MOUNT_RO: Ops = R.union(L).union(Ops::STAT);

/// Whether a mount's source is a host path, not a named volume (a name of
/// letters, digits, `_`, `.` and `-`, starting with a letter or digit).
fn is_host_source(source: &str) -> bool {
    let named = source
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric())
        && source
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'));
    !source.is_empty() && !named
}

/// `git`: the paths of the subcommands that read, write or delete working
/// files.
fn git(words: &[String], push: &mut impl FnMut(&str, Ops, Option<usize>)) {
    // Global options before the subcommand; `-C dir` and `-c x=y` take one.
    let mut k = 1;
    while let Some(w) = words.get(k) {
        if matches!(
            w.as_str(),
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace"
        ) {
            k += 2;
        } else if w.starts_with('-') {
            k += 1;
        } else {
            break;
        }
    }
    let Some(sub) = words.get(k) else { return };
    let ops = match sub.as_str() {
        "add" | "stage" | "blame" | "annotate" | "diff" | "log" | "hash-object" | "apply"
        | "am" | "show" | "cat-file" | "archive" | "grep" | "whatchanged" | "difftool" => R,
        "rm" => D,
        "mv" => RWD,
        "checkout" | "restore" => W,
        _ => return,
    };
    // A file as committed: `REV:PATH` (`HEAD:.env`, `:.env` for the
    // index) prints the file's content.
    let reads_blobs = matches!(
        sub.as_str(),
        "show"
            | "cat-file"
            | "archive"
            | "grep"
            | "diff"
            | "log"
            | "blame"
            | "annotate"
            | "whatchanged"
            | "difftool"
            | "checkout"
            | "restore"
    );
    // `git archive TREE PATH…`: the paths after the tree go into the archive.
    let mut archive_tree = sub == "archive";
    if sub == "archive" {
        for (at, w) in words.iter().enumerate().skip(k + 1) {
            if let Some(f) = w.strip_prefix("--output=") {
                push(f, W, Some(at));
            } else if (w == "-o" || w == "--output")
                && let Some(f) = words.get(at + 1)
            {
                push(f, W, Some(at + 1));
            }
        }
    }
    let takes_arg = |w: &str| {
        matches!(
            w,
            "-m" | "--message"
                | "-L"
                | "-S"
                | "-G"
                | "--author"
                | "--since"
                | "--until"
                | "-n"
                | "--format"
                | "--pretty"
                | "-b"
                | "-B"
                | "--source"
                | "-s"
                | "--grep"
        )
    };
    let mut dashdash = false;
    let mut j = k + 1;
    while let Some(w) = words.get(j) {
        j += 1;
        if !dashdash && w == "--" {
            dashdash = true;
            continue;
        }
        if !dashdash && w.starts_with('-') {
            if takes_arg(w)
                || (sub == "archive"
                    && matches!(
                        w.as_str(),
                        "-o" | "--output" | "--prefix" | "--format" | "--remote"
                    ))
            {
                j += 1;
            }
            continue;
        }
        if reads_blobs
            && !dashdash
            && let Some((_, path)) = w.split_once(':')
            && !w.contains("://")
        {
            let path = path.trim_start_matches("./");
            if !path.is_empty() {
                push(path, R, Some(j - 1));
            }
            continue;
        }
        if archive_tree && !dashdash {
            // The tree itself.
            archive_tree = false;
            continue;
        }
        // Before `--`, revisions and paths mix: only path-like words count.
        if dashdash
            || sub == "archive"
            || matches!(
                sub.as_str(),
                "add" | "stage" | "rm" | "mv" | "blame" | "annotate" | "hash-object"
            )
            || path_like(w)
        {
            push(w, ops, Some(j - 1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::commands;
    use super::*;

    /// Every file operand of a line, as `text:ops` with the operations
    /// joined by `+`.
    fn files(line: &str) -> Vec<String> {
        commands(line)
            .iter()
            .flat_map(|c| operands(c, &c.unwrapped()))
            .map(|o| format!("{}:{}", o.text, o.ops.names().join("+")))
            .collect()
    }

    #[test]
    fn readers_editors_and_deleters() {
        assert_eq!(files("cat a b"), ["a:read", "b:read"]);
        assert_eq!(files("head -n 5 -c 10 a"), ["a:read"]);
        assert_eq!(files("tail -f -n5 log"), ["log:read"]);
        assert_eq!(files("vim a"), ["a:read+write"]);
        assert_eq!(files("rm -rf a b"), ["a:delete", "b:delete"]);
        assert_eq!(files("shred -n 3 -u a"), ["a:write+delete"]);
        assert_eq!(files("ls -la d"), ["d:list"]);
        assert_eq!(files("echo a > b"), ["b:write"]);
        assert!(files("echo /etc/passwd; printf x; true").is_empty());
    }

    #[test]
    fn patterns_scripts_and_modes_are_not_files() {
        assert_eq!(files("grep -rn KEY a"), ["a:read"]);
        assert_eq!(files("grep -e KEY -e X a"), ["a:read"]);
        assert_eq!(files("grep -f pats a"), ["pats:read", "a:read"]);
        assert_eq!(files("grep --regexp=KEY -- a"), ["a:read"]);
        assert_eq!(files("sed -n p a"), ["a:read"]);
        assert_eq!(files("sed -i s/a/b/ a"), ["a:read+write"]);
        assert_eq!(files("sed -e s/a/b/ -i.bak a"), ["a:read+write"]);
        assert_eq!(files("awk -F: '{print $1}' a"), ["a:read"]);
        assert_eq!(files("awk -f prog.awk a"), ["prog.awk:read", "a:read"]);
        assert_eq!(files("chmod 600 a"), ["a:write"]);
        assert_eq!(files("chmod --reference=r a"), ["a:write"]);
    }

    #[test]
    fn sources_and_destinations() {
        assert_eq!(files("cp a b d"), ["a:read", "b:read", "d:write"]);
        assert_eq!(files("cp -t d a b"), ["a:read", "b:read", "d:write"]);
        assert_eq!(files("cp --target-directory=d a"), ["a:read", "d:write"]);
        assert_eq!(files("mv a b"), ["a:read+write+delete", "b:write"]);
        assert_eq!(files("ln -s a b"), ["a:read", "b:write"]);
        assert_eq!(files("scp -i key a host:b"), ["key:read", "a:read"]);
        assert_eq!(files("rsync -av --exclude x a/ host:/b"), ["a/:read"]);
        assert_eq!(files("dd if=a of=b bs=1M"), ["a:read", "b:write"]);
        assert_eq!(files("install -m 600 a b"), ["a:read", "b:write"]);
    }

    #[test]
    fn archives() {
        assert_eq!(
            files("tar czf x.tgz a b"),
            ["x.tgz:read+write", "a:read", "b:read"]
        );
        assert_eq!(files("tar -xf x.tar"), ["x.tar:read"]);
        assert_eq!(
            files("tar -x -f x.tar -C /out"),
            ["x.tar:read", "/out:write"]
        );
        assert_eq!(
            files("tar --create --file=x.tar a"),
            ["x.tar:read+write", "a:read"]
        );
        assert_eq!(files("tar -tzf x.tgz"), ["x.tgz:read"]);
        assert_eq!(files("zip -r x.zip a"), ["x.zip:read+write", "a:read"]);
        assert_eq!(files("unzip x.zip -d out"), ["out:write", "x.zip:read"]);
        assert_eq!(files("gzip -k a"), ["a:read+write+delete"]);
    }

    #[test]
    fn fetchers_upload_and_save_files() {
        assert_eq!(files("curl -sSL https://x -o out"), ["out:write"]);
        assert_eq!(
            files("curl -d @a -F f=@b --data-binary @c https://x"),
            ["a:read", "b:read", "c:read"]
        );
        assert_eq!(files("curl -d@a https://x"), ["a:read"]);
        assert_eq!(
            files("curl -F 'f=<a;type=text/plain' https://x"),
            ["a:read"]
        );
        assert_eq!(files("curl -T a ftp://x"), ["a:read"]);
        assert_eq!(files("curl -d 'x=1' https://x"), Vec::<String>::new());
        assert_eq!(files("wget -O out https://x"), ["out:write"]);
        assert_eq!(files("wget --post-file=a https://x"), ["a:read"]);
    }

    #[test]
    fn find_git_and_interpreters() {
        assert_eq!(files("find src -name '*.rs'"), ["src:list"]);
        assert_eq!(files("find . -name x -delete"), [".:delete+list"]);
        assert_eq!(
            files("find -L a b -type f -fprint out"),
            ["a:list", "b:list", "out:write"]
        );
        assert_eq!(files("git add a b"), ["a:read", "b:read"]);
        assert_eq!(files("git -C repo rm a"), ["a:delete"]);
        assert_eq!(files("git commit -m 'fix /etc' -- a"), Vec::<String>::new());
        assert_eq!(files("git log -p -- a"), ["a:read"]);
        assert_eq!(
            files("python3 x.py --in data.csv"),
            [
                "x.py:read+exec",
                "data.csv:read+write+delete+list+stat+exec+spawn"
            ]
        );
        assert_eq!(files("bash -x ./build.sh"), ["./build.sh:read+exec"]);
        assert_eq!(files("python3 -c 'print(1)'"), Vec::<String>::new());
        assert_eq!(
            files("node -e 'x' ./a.js"),
            ["./a.js:read+write+delete+list+stat+exec+spawn"]
        );
    }

    #[test]
    fn what_find_runs_gets_what_find_found() {
        assert_eq!(
            files("find ~/.ssh -type f -exec cat {} ;"),
            ["~/.ssh:list", "~/.ssh:read"]
        );
        assert_eq!(
            files("find a -name .env -execdir cp -t /tmp/ {} +"),
            ["a:list", "a/.env:read", "a/**/.env:read", "/tmp/:write"]
        );
        assert_eq!(
            files("find -iname '*.pem' -exec sh -c 'cat \"$1\"' _ {} ;"),
            ["./*.pem:read", "./**/*.pem:read"]
        );
        // Outside `-exec`, `{}` is a word like any other.
        assert_eq!(files("cat {}"), ["{}:read"]);
    }

    #[test]
    fn files_as_committed_and_search_filters() {
        assert_eq!(files("git show HEAD:.env"), [".env:read"]);
        assert_eq!(files("git cat-file -p :./a/.env"), ["a/.env:read"]);
        assert_eq!(
            files("git archive -o x.tar HEAD .env"),
            ["x.tar:write", ".env:read"]
        );
        assert_eq!(files("git grep -h KEY HEAD -- .env"), [".env:read"]);
        assert!(files("git show HEAD~2").is_empty());
        assert_eq!(
            files("grep -r --include=.env KEY src"),
            ["src:read", "src/.env:read"]
        );
        assert_eq!(files("rg -uu KEY --glob '**/*.pem'"), ["./*.pem:read"]);
        assert_eq!(files("rg -g.env KEY"), ["./.env:read"]);
        assert!(files("rg -g '!.env' KEY").is_empty());
    }

    #[test]
    fn unknown_programs_give_path_like_operands() {
        assert_eq!(
            files("frob -v ./a b.txt plain --config=c.yaml --n=3 https://x/y"),
            [
                "./a:read+write+delete+list+stat+exec+spawn",
                "b.txt:read+write+delete+list+stat+exec+spawn",
                "c.yaml:read+write+delete+list+stat+exec+spawn",
            ]
        );
        // A file whose content is sent.
        assert_eq!(
            files("http POST x.test @.env key=@id_rsa cfg:=@c.json me@host.test"),
            [
                "x.test:read+write+delete+list+stat+exec+spawn",
                "@.env:read+write+delete+list+stat+exec+spawn",
                ".env:read",
                "id_rsa:read",
                "cfg:=@c.json:read+write+delete+list+stat+exec+spawn",
                "c.json:read",
                "me@host.test:read+write+delete+list+stat+exec+spawn",
            ]
        );
    }

    #[test]
    fn containers_give_the_host_files_they_mount() {
        let all = "read+write+delete+list+stat+exec+spawn";
        // What the command in the container touches under a mount is the
        // mount's source: after the mount itself, with what the command
        // does and the mount allows.
        assert_eq!(
            files("docker run -v $PWD:/w:ro img cat /w/.env /etc/passwd"),
            ["$PWD:read+list+stat", "$PWD/.env:read"]
        );
        assert_eq!(
            files("docker run -v .:/w -w /w/src img sh -c 'cat ../.env > /w/out'"),
            [
                format!(".:{all}"),
                "./.env:read".to_owned(),
                "./out:write".to_owned()
            ]
        );
        assert_eq!(
            files("docker run -v /a:/w -v /b:/w/k img cat /w/../w/k/key"),
            [
                format!("/a:{all}"),
                format!("/b:{all}"),
                "/b/key:read".to_owned()
            ]
        );
        assert_eq!(
            files("docker run --rm -v /home/u/repo:/w -w /w node:22 npm test"),
            [format!("/home/u/repo:{all}")]
        );
        assert_eq!(
            files("docker run -it --name x -e A=/etc/x -p 80:80 img cat /etc/passwd ./a"),
            Vec::<String>::new(),
            "the command runs in the container"
        );
        assert_eq!(
            files("podman run --volume=$HOME/.ssh:/k:ro,z --env-file .env img"),
            ["$HOME/.ssh:read+list+stat", ".env:read"]
        );
        assert_eq!(
            files(
                "docker run -v data:/data -v ./src:/src --mount type=bind,source=/,target=/h img"
            ),
            [format!("./src:{all}"), format!("/:{all}")]
        );
        assert_eq!(
            files(
                "docker run --mount type=volume,src=cache,dst=/c --mount src=/etc,dst=/e,readonly img"
            ),
            ["/etc:read+list+stat"]
        );
        // `--mount` is a line of comma-separated values: a field may be
        // quoted, and its key written in any case.
        assert_eq!(
            files(
                r#"docker run --mount 'type=bind,"source=/home/u/.ssh",target=/k' --mount Type=bind,Source=/etc,Target=/e img"#
            ),
            [format!("/home/u/.ssh:{all}"), format!("/etc:{all}")]
        );
        assert_eq!(
            files(
                "docker run --cidfile /tmp/id --device /dev/sda:/dev/xvda --security-opt seccomp=prof.json img"
            ),
            ["/tmp/id:write", "/dev/sda:read+write", "prof.json:read"]
        );
        assert_eq!(
            files("docker run --unknown-opt=./x.conf -v $X:/y img"),
            [format!("./x.conf:{all}"), format!("$X:{all}")]
        );
        assert_eq!(
            files("docker exec -w /app -e K=v web cat /app/.env"),
            Vec::<String>::new()
        );
        // Short options grouped, or with their value attached.
        assert_eq!(
            files("docker run -itv ~/.ssh:/k -v=/etc:/e -v./a:/a -eK=/x img sh"),
            [
                format!("~/.ssh:{all}"),
                format!("/etc:{all}"),
                format!("./a:{all}")
            ]
        );
        assert_eq!(
            files("docker --config ./cfg container run -v ~/.aws:/a img"),
            ["./cfg:read".to_owned(), format!("~/.aws:{all}")]
        );
        assert_eq!(
            files("docker build -t app:1 -f docker/Dockerfile ."),
            ["docker/Dockerfile:read", ".:read"]
        );
        assert_eq!(files("docker cp web:/etc/passwd ./p"), ["./p:write"]);
        assert_eq!(
            files("docker cp ~/.ssh/id_rsa web:/k"),
            ["~/.ssh/id_rsa:read"]
        );
        assert_eq!(
            files("docker compose -f deploy/compose.yml up"),
            [format!("deploy/compose.yml:{all}")]
        );
        assert!(files("kubectl exec -it -n prod web -- cat /etc/nginx/nginx.conf").is_empty());
        assert_eq!(
            files("kubectl --kubeconfig ~/.kube/config cp prod/web:/tmp/d.sql ./d.sql"),
            ["~/.kube/config:read", "./d.sql:write"]
        );
        assert_eq!(files("kubectl cp ./.env web:/app/.env"), ["./.env:read"]);
        assert_eq!(
            files("kubectl cp -c side -n prod web:/x ./y"),
            ["./y:write"]
        );
        // A copy of three operands is not one this reading knows.
        assert_eq!(
            files("docker cp a ./b ./c"),
            [format!("./b:{all}"), format!("./c:{all}")]
        );
        assert_eq!(
            files("kubectl apply -f k8s/deploy.yaml"),
            [format!("k8s/deploy.yaml:{all}")]
        );
    }

    #[test]
    fn redirections() {
        assert_eq!(
            files("cmd < a > b 2>> c &> d"),
            ["a:read", "b:write", "c:write", "d:write"]
        );
        assert_eq!(
            files("cmd <> a >| b >&c"),
            ["a:read+write", "b:write", "c:write"]
        );
        assert!(files("cmd 2>&1 >&2 3>&- <<< x > /dev/null 2>/dev/fd/3").is_empty());
        assert!(files("cat <<EOF\nx\nEOF").is_empty());
    }

    #[test]
    fn wrappers_are_seen_through() {
        assert_eq!(files("sudo -u root cat a"), ["a:read"]);
        assert_eq!(files("env X=1 nice -n 5 timeout 3 cat a"), ["a:read"]);
        assert_eq!(
            files("bash -c 'cat a' && sh -c \"rm b\""),
            ["a:read", "b:delete"]
        );
    }

    #[test]
    fn dynamic_words_are_marked() {
        let cmds = commands("cat .e* \"x*\" $f a/$g b");
        let ops = operands(&cmds[0], &cmds[0].unwrapped());
        let dynamic: Vec<bool> = ops.iter().map(|o| o.dynamic).collect();
        assert_eq!(dynamic, [true, false, true, true, false]);
    }
}
