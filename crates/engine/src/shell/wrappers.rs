//! Wrappers: commands that run the command after their own options.

use super::parse::is_assignment;
use super::words::Word;
use super::{MAX_STAGE_VIEWS, basename};

/// How a wrapper's options are read.
pub(super) struct Wrapper {
    /// The names it goes by.
    names: &'static [&'static str],
    /// Whether it takes options (otherwise only `--` is skipped).
    options: bool,
    /// Short options taking an argument, attached or as the next word.
    short_arg: &'static str,
    /// Short options whose argument can only be attached (`xargs -i{}`).
    short_attached: &'static str,
    /// Long options taking the next word as argument when written without
    /// `=`.
    long_arg: &'static [&'static str],
    /// Short options after which no command follows.
    short_stop: &'static str,
    /// Long options after which no command follows.
    long_stop: &'static [&'static str],
    /// Words taken after the options (the duration of `timeout`).
    operands: usize,
    /// Whether `NAME=value` words may come before the command.
    assignments: bool,
    /// Whether `-S`/`--split-string` splits its argument into words (`env`).
    split: bool,
}

/// A wrapper without options.
pub(super) const BARE: Wrapper = Wrapper {
    names: &[],
    options: false,
    short_arg: "",
    short_attached: "",
    long_arg: &[],
    short_stop: "",
    long_stop: &[],
    operands: 0,
    assignments: false,
    split: false,
};

/// A wrapper whose options take no argument.
pub(super) const FLAGS: Wrapper = Wrapper {
    options: true,
    ..BARE
};

/// The wrappers that are seen through.
pub(super) const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        names: &["sudo"],
        short_arg: "CDgprRtTUuc",
        long_arg: &[
            "user",
            "group",
            "host",
            "prompt",
            "close-from",
            "chdir",
            "chroot",
            "role",
            "type",
            "command-timeout",
            "other-user",
            "login-class",
        ],
        short_stop: "elKVv",
        long_stop: &[
            "edit",
            "list",
            "version",
            "help",
            "validate",
            "remove-timestamp",
        ],
        assignments: true,
        ..FLAGS
    },
    Wrapper {
        names: &["doas"],
        short_arg: "uC",
        short_stop: "L",
        ..FLAGS
    },
    Wrapper {
        names: &["runuser"],
        short_arg: "ugGsw",
        long_arg: &[
            "user",
            "group",
            "supp-group",
            "shell",
            "whitelist-environment",
        ],
        short_stop: "c",
        long_stop: &["command", "session-command"],
        ..FLAGS
    },
    Wrapper {
        names: &["pkexec"],
        long_arg: &["user"],
        long_stop: &["version", "help"],
        ..FLAGS
    },
    Wrapper {
        names: &["env"],
        short_arg: "uCP",
        long_arg: &["unset", "chdir"],
        long_stop: &["help", "version"],
        assignments: true,
        split: true,
        ..FLAGS
    },
    Wrapper {
        names: &["nice"],
        short_arg: "n",
        long_arg: &["adjustment"],
        ..FLAGS
    },
    Wrapper {
        names: &["timeout"],
        short_arg: "sk",
        long_arg: &["signal", "kill-after"],
        operands: 1,
        ..FLAGS
    },
    Wrapper {
        names: &["xargs"],
        short_arg: "adEILnPs",
        short_attached: "eil",
        long_arg: &[
            "arg-file",
            "delimiter",
            "max-lines",
            "max-args",
            "max-procs",
            "max-chars",
            "process-slot-var",
        ],
        ..FLAGS
    },
    Wrapper {
        names: &["command"],
        short_stop: "vV",
        ..FLAGS
    },
    Wrapper {
        names: &[
            "nohup",
            "eval",
            "busybox",
            "toybox",
            "builtin",
            "eatmydata",
            "catchsegv",
        ],
        ..BARE
    },
    Wrapper {
        names: &["nsenter"],
        short_arg: "tSGNe",
        short_attached: "muinpUCTrw",
        long_arg: &["target", "setuid", "setgid", "env"],
        ..FLAGS
    },
    Wrapper {
        names: &["unshare"],
        short_arg: "RwSGl",
        short_attached: "muinpUCT",
        long_arg: &[
            "root",
            "wd",
            "setuid",
            "setgid",
            "propagation",
            "setgroups",
            "map-user",
            "map-group",
            "map-users",
            "map-groups",
            "load-interp",
        ],
        ..FLAGS
    },
    Wrapper {
        names: &["flock"],
        short_arg: "wE",
        long_arg: &["timeout", "wait", "conflict-exit-code"],
        operands: 1,
        ..FLAGS
    },
    Wrapper {
        names: &["strace", "ltrace"],
        short_arg: "abeEIoOPsSuUXAn",
        short_stop: "p",
        long_arg: &["output", "trace", "signal", "status", "user", "env", "path"],
        long_stop: &["attach"],
        ..FLAGS
    },
    Wrapper {
        names: &["ssh-agent"],
        short_arg: "aEtPO",
        short_stop: "k",
        ..FLAGS
    },
    Wrapper {
        names: &["chrt"],
        short_arg: "T",
        short_stop: "p",
        long_stop: &["pid"],
        operands: 1,
        ..FLAGS
    },
    Wrapper {
        names: &["gosu", "su-exec"],
        operands: 1,
        ..BARE
    },
    Wrapper {
        names: &["fakeroot"],
        short_arg: "lsi",
        long_arg: &["lib", "faked"],
        ..FLAGS
    },
    Wrapper {
        names: &[
            "unbuffer",
            "nocache",
            "firejail",
            "valgrind",
            "caffeinate",
            "dbus-run-session",
            "setpriv",
            "prlimit",
        ],
        short_stop: "",
        long_stop: &["pid"],
        ..FLAGS
    },
    Wrapper {
        names: &["proxychains", "proxychains4", "torsocks"],
        short_arg: "faupP",
        ..FLAGS
    },
    Wrapper {
        names: &["run0"],
        short_arg: "ugD",
        long_arg: &[
            "user",
            "group",
            "chdir",
            "unit",
            "property",
            "description",
            "slice",
            "setenv",
            "nice",
            "background",
            "machine",
        ],
        ..FLAGS
    },
    Wrapper {
        names: &["systemd-run"],
        short_arg: "pEMHs",
        long_arg: &[
            "unit",
            "property",
            "description",
            "slice",
            "setenv",
            "uid",
            "gid",
            "nice",
            "working-directory",
            "host",
            "machine",
            "chdir",
        ],
        ..FLAGS
    },
    Wrapper {
        names: &["time"],
        short_arg: "fo",
        long_arg: &["format", "output"],
        ..FLAGS
    },
    Wrapper {
        names: &["exec"],
        short_arg: "a",
        ..FLAGS
    },
    Wrapper {
        names: &["stdbuf"],
        short_arg: "ioe",
        long_arg: &["input", "output", "error"],
        ..FLAGS
    },
    Wrapper {
        names: &["ionice"],
        short_arg: "cn",
        long_arg: &["class", "classdata"],
        short_stop: "pPu",
        long_stop: &["pid", "pgid", "uid"],
        ..FLAGS
    },
    Wrapper {
        names: &["setsid"],
        ..FLAGS
    },
    Wrapper {
        names: &["cpulimit"],
        short_arg: "l",
        short_stop: "pP",
        long_arg: &["limit"],
        long_stop: &["pid", "exe"],
        ..FLAGS
    },
    Wrapper {
        names: &["taskset"],
        short_stop: "p",
        long_stop: &["pid"],
        operands: 1,
        ..FLAGS
    },
    Wrapper {
        names: &["chroot"],
        long_arg: &["userspec", "groups"],
        operands: 1,
        ..FLAGS
    },
    Wrapper {
        names: &["watch"],
        short_arg: "nq",
        long_arg: &["interval", "equexit"],
        ..FLAGS
    },
];

/// A command being unwrapped: words produced by `env -S` (in reverse
/// order, so that the front is cheap to change), then the rest of the
/// words as written.
pub(super) struct Seq<'a> {
    /// The first words, last first.
    front: Vec<String>,
    /// The words after them.
    rest: &'a [String],
}

impl<'a> Seq<'a> {
    /// The words of a command.
    pub(super) fn new(words: &'a [String]) -> Self {
        Self {
            front: Vec::new(),
            rest: words,
        }
    }

    /// Word `i`.
    pub(super) fn get(&self, i: usize) -> Option<&String> {
        match self.front.len().checked_sub(i + 1) {
            Some(k) => self.front.get(k),
            None => self.rest.get(i - self.front.len()),
        }
    }

    /// How many words there are.
    pub(super) fn len(&self) -> usize {
        self.front.len() + self.rest.len()
    }

    /// The words.
    pub(super) fn to_vec(&self) -> Vec<String> {
        let mut out: Vec<String> = self.front.iter().rev().cloned().collect();
        out.extend_from_slice(self.rest);
        out
    }

    /// Removes the first `n` words.
    pub(super) fn drop_front(&mut self, mut n: usize) {
        while n > 0 && self.front.pop().is_some() {
            n -= 1;
        }
        self.rest = self.rest.get(n..).unwrap_or_default();
    }

    /// Applies a step.
    pub(super) fn apply(&mut self, step: Step) {
        match step {
            Step::Skip(n) => self.drop_front(n),
            Step::Split { drop, words } => {
                self.drop_front(drop);
                self.front.extend(words.into_iter().rev());
            }
        }
    }
}

/// One wrapper removed.
pub(super) enum Step {
    /// The command starts this many words further.
    Skip(usize),
    /// `env -S`: the first `drop` words are replaced by `words`.
    Split {
        /// How many words go.
        drop: usize,
        /// What comes in their place.
        words: Vec<String>,
    },
}

/// Removes the wrapper in front of `words`, if there is one and it runs a
/// command.
pub(super) fn unwrap_step(words: &Seq<'_>) -> Option<Step> {
    let name = basename(words.get(0)?);
    let spec = WRAPPERS.iter().find(|w| w.names.contains(&name))?;
    let mut i = 1;
    while let Some(w) = words.get(i) {
        if w == "--" {
            i += 1;
            break;
        }
        if spec.assignments && is_assignment_str(w) {
            i += 1;
            continue;
        }
        if !spec.options {
            break;
        }
        if spec.split && w == "-" {
            i += 1;
            continue;
        }
        let Some(opt) = w.strip_prefix('-').filter(|o| !o.is_empty()) else {
            break;
        };
        if let Some(long) = opt.strip_prefix('-') {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            if spec.long_stop.contains(&name) {
                return None;
            }
            if spec.split && name == "split-string" {
                return match value {
                    Some(v) => split_step(v, i + 1),
                    None => split_step(words.get(i + 1)?, i + 2),
                };
            }
            i += if value.is_none() && spec.long_arg.contains(&name) {
                2
            } else {
                1
            };
            continue;
        }
        let mut next = i + 1;
        for (k, c) in opt.char_indices() {
            if spec.short_stop.contains(c) {
                return None;
            }
            if spec.short_attached.contains(c) {
                break;
            }
            let split = spec.split && c == 'S';
            if spec.short_arg.contains(c) || split {
                let attached = opt.get(k + c.len_utf8()..).unwrap_or_default();
                if split {
                    return if attached.is_empty() {
                        split_step(words.get(i + 1)?, i + 2)
                    } else {
                        split_step(attached, i + 1)
                    };
                }
                if attached.is_empty() {
                    next = i + 2;
                }
                break;
            }
        }
        i = next;
    }
    i += spec.operands;
    (i < words.len()).then_some(Step::Skip(i))
}

/// `env … -S string rest…`: the first `drop` words give way to `env`
/// followed by the words of the string (which may hold more `env` options).
pub(super) fn split_step(string: &str, drop: usize) -> Option<Step> {
    let mut words = vec![String::from("env")];
    words.extend(split_words(string));
    Some(Step::Split { drop, words })
}

/// Splits a string into words at unquoted whitespace, removing `'…'`,
/// `"…"` and backslash quoting (the way `env -S` does).
pub(super) fn split_words(s: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// Whether a word is `NAME=value`.
pub(super) fn is_assignment_str(w: &str) -> bool {
    is_assignment(&Word {
        bytes: w.as_bytes().to_vec(),
        ..Word::default()
    })
}

/// The command with every wrapper removed (the last stage of
/// [`unwrap_chain`], without the stages before it).
pub(super) fn unwrap_all(words: &[String]) -> Vec<String> {
    let mut seq = Seq::new(words);
    let bound = words.iter().map(|w| w.len() + 1).sum::<usize>();
    for _ in 0..bound {
        let Some(step) = unwrap_step(&seq) else {
            break;
        };
        seq.apply(step);
    }
    seq.to_vec()
}

/// The command as written, after each of the first [`MAX_STAGE_VIEWS`]
/// wrapper removals, and with every wrapper removed.
pub(super) fn unwrap_chain(words: &[String]) -> Vec<Vec<String>> {
    let mut chain = vec![words.to_vec()];
    let mut seq = Seq::new(words);
    // Each step removes a word, or (`env -S`) shortens the text: this bound
    // is never reached, it only makes that plain.
    let bound = words.iter().map(|w| w.len() + 1).sum::<usize>();
    let mut last_in_chain = true;
    for _ in 0..bound {
        let Some(step) = unwrap_step(&seq) else {
            break;
        };
        seq.apply(step);
        last_in_chain = chain.len() <= MAX_STAGE_VIEWS;
        if last_in_chain {
            chain.push(seq.to_vec());
        }
    }
    if !last_in_chain {
        chain.push(seq.to_vec());
    }
    chain
}
