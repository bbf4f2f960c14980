//! Commands a line defines for later instead of running them by name: git
//! aliases and the git settings and environment variables whose value git
//! (or another program) runs as a command (`git -c alias.p='push --force'
//! p`, `git -c core.sshCommand='…' fetch`, `GIT_SSH_COMMAND='…' git fetch`).
//!
//! Each definition is read as the line it stands for, whether or not the
//! line goes on to use it: what a definition would run is judged like any
//! other command (as the shell's own `alias` is).

use super::basename;

/// Git settings whose value is a command git runs (lowercased).
const GIT_COMMAND_KEYS: &[&str] = &[
    "core.sshcommand",
    "core.pager",
    "core.editor",
    "core.fsmonitor",
    "core.askpass",
    "core.hookspath",
    "core.gitproxy",
    "core.alternaterefscommand",
    "sequence.editor",
    "diff.external",
    "gpg.program",
    "gpg.ssh.program",
    "gpg.openpgp.program",
    "gpg.x509.program",
    "credential.helper",
    "uploadpack.packobjectshook",
    "interactive.difffilter",
    "web.browser",
];

/// Git settings by their first and last parts (`filter.NAME.clean`),
/// whose value is a command git runs.
const GIT_COMMAND_KEY_ENDS: &[(&str, &str)] = &[
    ("filter.", ".clean"),
    ("filter.", ".smudge"),
    ("filter.", ".process"),
    ("merge.", ".driver"),
    ("diff.", ".command"),
    ("diff.", ".textconv"),
    ("difftool.", ".cmd"),
    ("mergetool.", ".cmd"),
    ("credential.", ".helper"),
    ("remote.", ".uploadpack"),
    ("remote.", ".receivepack"),
    ("remote.", ".proxy"),
    ("browser.", ".cmd"),
    ("man.", ".cmd"),
    ("gpg.", ".program"),
    ("tar.", ".command"),
    ("trailer.", ".command"),
    ("trailer.", ".cmd"),
    ("hook.", ".command"),
];

/// Environment variables whose value a program runs as a command.
const COMMAND_VARS: &[&str] = &[
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_PAGER",
    "GIT_EXTERNAL_DIFF",
    "GIT_ASKPASS",
    "GIT_PROXY_COMMAND",
    "SSH_ASKPASS",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "MANPAGER",
    "LESSOPEN",
    "LESSCLOSE",
    "PROMPT_COMMAND",
    "BASH_ENV",
    "ENV",
];

/// Whether a git setting's value is a command git runs.
fn runs_value(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key.starts_with("pager.")
        || GIT_COMMAND_KEYS.contains(&key.as_str())
        || GIT_COMMAND_KEY_ENDS
            .iter()
            .any(|(head, tail)| key.starts_with(head) && key.ends_with(tail))
}

/// The lines a git setting stands for: an alias is `git VALUE` (with the
/// words after the alias when the command uses it) or, starting with `!`,
/// a shell line; a setting that runs its value is that value.
fn setting_lines(key: &str, value: &str, used_with: Option<&[String]>) -> Vec<String> {
    let lower = key.to_ascii_lowercase();
    let rest = used_with
        .map(|words| words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    if lower.starts_with("alias.") {
        let line = match value.strip_prefix('!') {
            Some(shell) => format!("{shell} {rest}"),
            None => format!("git {value} {rest}"),
        };
        return vec![line.trim_end().to_owned()];
    }
    if runs_value(&lower) {
        return vec![value.trim_start_matches('!').to_owned()];
    }
    Vec::new()
}

/// A word quoted for a shell line.
fn quote(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// The settings a git command makes: its `-c KEY=VALUE` and `git config
/// KEY VALUE` (`git config set KEY VALUE`), the keys it takes from the
/// environment (`--config-env`), and where its subcommand is.
struct GitSettings {
    /// `(key, value)` as written.
    settings: Vec<(String, String)>,
    /// Keys taken from the environment (`--config-env=KEY=VAR`).
    from_env: Vec<String>,
    /// The index of the subcommand in the arguments.
    sub: usize,
}

impl GitSettings {
    /// Reads the arguments of `git` (without the program).
    fn read(args: &[String]) -> Self {
        let mut settings: Vec<(String, String)> = Vec::new();
        let mut from_env = Vec::new();
        let mut k = 0;
        // Global options, before the subcommand.
        while let Some(w) = args.get(k) {
            k += 1;
            let setting = if w == "-c" {
                k += 1;
                args.get(k - 1).map(String::as_str)
            } else if let Some(s) = w.strip_prefix("-c") {
                Some(s)
            } else if let Some(s) = w.strip_prefix("--config-env=") {
                from_env.push(s.split_once('=').map_or(s, |(key, _)| key).to_owned());
                None
            } else if matches!(
                w.as_str(),
                "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--exec-path" | "--config-env"
            ) {
                k += 1;
                None
            } else if w.starts_with('-') {
                None
            } else {
                k -= 1;
                break;
            };
            if let Some((key, value)) = setting.and_then(|s| s.split_once('=')) {
                settings.push((key.to_owned(), value.to_owned()));
            }
        }
        if args.get(k).map(String::as_str) == Some("config")
            && let Some(set) = config_setting(args.get(k + 1..).unwrap_or_default())
        {
            settings.push(set);
        }
        Self {
            settings,
            from_env,
            sub: k,
        }
    }
}

/// The setting `git config` makes from its arguments (after `config`):
/// `[options] KEY VALUE` (also with `--add`, `--replace-all`) or `set
/// [options] KEY VALUE`; none for the forms that read, remove, rename or
/// open an editor.
fn config_setting(args: &[String]) -> Option<(String, String)> {
    let mut operands = Vec::new();
    let mut j = 0;
    while let Some(w) = args.get(j) {
        j += 1;
        match w.as_str() {
            "--get" | "--get-all" | "--get-regexp" | "--get-urlmatch" | "--get-color"
            | "--get-colorbool" | "-l" | "--list" | "--unset" | "--unset-all"
            | "--remove-section" | "--rename-section" | "-e" | "--edit" => return None,
            // Options that take a value.
            "-f" | "--file" | "--blob" | "-t" | "--type" | "--default" | "--comment"
            | "--value" => j += 1,
            "--" => {
                operands.extend(args.iter().skip(j));
                break;
            }
            _ if w.starts_with('-') => {}
            _ => operands.push(w),
        }
    }
    let (key, value) = match operands.as_slice() {
        [set, key, value, ..] if *set == "set" => (key, value),
        [sub, ..]
            if matches!(
                sub.as_str(),
                "get" | "list" | "unset" | "edit" | "rename-section" | "remove-section"
            ) =>
        {
            return None;
        }
        [key, value, ..] => (key, value),
        _ => return None,
    };
    key.contains('.')
        .then(|| ((*key).clone(), (*value).clone()))
}

/// What a git command defines: the lines of its `-c KEY=VALUE` settings
/// and of its `git config KEY VALUE` (`git config set KEY VALUE`), and why
/// it cannot be known, for a setting taken from the environment
/// (`--config-env`).
pub(super) fn git_lines(args: &[String]) -> (Vec<String>, Option<String>) {
    let read = GitSettings::read(args);
    let unknown = read
        .from_env
        .iter()
        .find(|key| key.to_ascii_lowercase().starts_with("alias.") || runs_value(key))
        .map(|key| {
            format!("git takes `{key}` from an environment variable, so what it runs is not known")
        });
    let sub = args.get(read.sub).map(String::as_str);
    let rest = args.get(read.sub + 1..).unwrap_or_default();
    let mut lines = Vec::new();
    for (key, value) in &read.settings {
        let alias = key
            .split_once('.')
            .filter(|(head, _)| head.eq_ignore_ascii_case("alias"))
            .map(|(_, name)| name);
        let used = alias.is_some_and(|name| sub == Some(name));
        lines.extend(setting_lines(key, value, used.then_some(rest)));
    }
    (lines, unknown)
}

/// Whether a command (program and arguments) sets a git setting whose
/// value git runs, or that points git at programs to run: hooks, included
/// settings, `ext::` URLs (`git config core.hooksPath DIR`, `git -c
/// core.sshCommand=… fetch`). Reading, removing and other settings do
/// not count, nor a pager or an editor set to a known one.
pub(crate) fn git_setting_runs(words: &[String]) -> bool {
    let Some((program, args)) = words.split_first() else {
        return false;
    };
    if basename(program) != "git" {
        return false;
    }
    let read = GitSettings::read(args);
    read.settings
        .iter()
        .any(|(key, value)| runs_or_points(key, value))
        || read.from_env.iter().any(|key| runs_or_points(key, "?"))
}

/// Pagers and editors that run nothing else when named alone.
const VIEWERS: &[&str] = &[
    "cat",
    "less",
    "more",
    "most",
    "bat",
    "delta",
    "diff-so-fancy",
    "vi",
    "vim",
    "nvim",
    "nano",
    "emacs",
    "code",
    "true",
];

/// [`git_setting_runs`] for one setting.
fn runs_or_points(key: &str, value: &str) -> bool {
    let key = key.to_ascii_lowercase();
    let bang = value.trim_start().starts_with('!');
    let viewer = || {
        let first = value.split_whitespace().next().unwrap_or_default();
        (first.is_empty() || VIEWERS.contains(&basename(first)))
            && !value.contains(['|', ';', '&', '$', '`', '(', '<', '>', '\n'])
    };
    let (section, rest) = key.split_once('.').unwrap_or((&key, ""));
    match section {
        "alias" => bang,
        "submodule" => key.ends_with(".update") && bang,
        "include" => rest == "path",
        "includeif" => key.ends_with(".path"),
        // `ext::` URLs run a command; only these two turn them on.
        "protocol" => matches!(rest, "allow" | "ext.allow") && !value.eq_ignore_ascii_case("never"),
        "pager" => !viewer(),
        _ if matches!(
            key.as_str(),
            "core.pager" | "core.editor" | "sequence.editor"
        ) =>
        {
            !viewer()
        }
        _ => runs_value(&key),
    }
}

/// The lines that environment variables a line sets stand for: those of
/// [`COMMAND_VARS`], and git's settings given through the environment
/// (`GIT_CONFIG_VALUE_n`, `GIT_CONFIG_PARAMETERS`), whose keys are read as
/// both an alias and a command.
pub(super) fn var_lines(name: &str, value: &str) -> Vec<String> {
    if COMMAND_VARS.contains(&name) {
        return vec![value.to_owned()];
    }
    if name.starts_with("GIT_CONFIG_VALUE_") {
        let mut out = setting_lines("alias.x", value, None);
        out.push(value.trim_start_matches('!').to_owned());
        return out;
    }
    if name == "GIT_CONFIG_PARAMETERS" {
        // `'key=value' 'key=value'`, each quoted.
        return value
            .split('\'')
            .filter_map(|s| s.split_once('='))
            .flat_map(|(key, value)| setting_lines(key.trim(), value, None))
            .collect();
    }
    Vec::new()
}

/// Options whose value a program runs as a command: by program, the
/// option's spellings (`--name=` forms end in `=`; a short option also
/// takes its value attached).
const COMMAND_OPTIONS: &[(&[&str], &[&str])] = &[
    (&["rsync"], &["-e", "--rsh", "--rsh="]),
    (
        &["git"],
        &[
            "--upload-pack",
            "--upload-pack=",
            "--receive-pack",
            "--receive-pack=",
            "--exec",
            "--exec=",
        ],
    ),
    (
        &["tar", "gtar", "bsdtar"],
        &[
            "-I",
            "--use-compress-program",
            "--use-compress-program=",
            "--to-command",
            "--to-command=",
            "--rsh-command",
            "--rsh-command=",
            "-F",
            "--info-script",
            "--info-script=",
            "--new-volume-script",
            "--new-volume-script=",
        ],
    ),
    (&["sort"], &["--compress-program", "--compress-program="]),
    (&["zip"], &["-TT", "--unzip-command", "--unzip-command="]),
];

/// Programs that only carry a connection when another program gives them
/// as its remote shell (`rsync -e ssh`, `ProxyCommand=ssh -W …`): their
/// own settings are read, not the missing command.
const REMOTE_SHELLS: &[&str] = &["ssh", "rsh", "autossh", "plink", "dbclient"];

/// The line an option's value stands for: the value, or for a remote
/// shell only the commands its own options run.
fn value_lines(value: &str, out: &mut Vec<String>) {
    let first = value.split_whitespace().next().unwrap_or_default();
    if REMOTE_SHELLS.contains(&basename(first)) {
        for c in super::commands(value) {
            out.extend(option_lines(&c.unwrapped()));
        }
        return;
    }
    out.push(value.to_owned());
}

/// `ssh -o` settings whose value runs on this machine (lowercased).
const SSH_COMMAND_SETTINGS: &[&str] = &["proxycommand", "localcommand", "knownhostscommand"];

/// The lines that options of a command stand for: the values of options
/// that give a command the program runs ([`COMMAND_OPTIONS`]), ssh's
/// `-o ProxyCommand=…` and the like, and tar's `--checkpoint-action=exec=…`.
/// `words` are the command's words without its wrappers.
pub(super) fn option_lines(words: &[String]) -> Vec<String> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    let name = basename(first);
    let mut out = Vec::new();
    if matches!(name, "ssh" | "scp" | "sftp" | "autossh" | "sshfs") {
        let mut k = 1;
        while let Some(w) = words.get(k) {
            k += 1;
            let setting = if w == "-o" {
                k += 1;
                words.get(k - 1).map(String::as_str)
            } else {
                w.strip_prefix("-o")
            };
            let Some(setting) = setting else { continue };
            // `Key=value` or `Key value`.
            let (key, value) = match setting.split_once(['=', ' ']) {
                Some((k, v)) => (k.trim(), v.trim()),
                None => continue,
            };
            if SSH_COMMAND_SETTINGS.contains(&key.to_ascii_lowercase().as_str()) {
                value_lines(value, &mut out);
            }
        }
        return out;
    }
    if matches!(name, "tar" | "gtar" | "bsdtar") {
        for w in words {
            if let Some(action) = w.strip_prefix("--checkpoint-action=exec=") {
                out.push(action.to_owned());
            }
        }
    }
    let Some((_, options)) = COMMAND_OPTIONS
        .iter()
        .find(|(names, _)| names.contains(&name))
    else {
        return out;
    };
    let mut k = 1;
    while let Some(w) = words.get(k) {
        k += 1;
        if w == "--" {
            break;
        }
        for option in options.iter() {
            if let Some(long) = option.strip_suffix('=') {
                if let Some(value) = w.strip_prefix(long).and_then(|r| r.strip_prefix('=')) {
                    value_lines(value, &mut out);
                }
            } else if w == option {
                if let Some(value) = words.get(k) {
                    value_lines(value, &mut out);
                    k += 1;
                }
            } else if option.len() == 2
                && let Some(value) = w.strip_prefix(option).filter(|v| !v.is_empty())
            {
                // `-eCMD`, `-Icmd`: a short option with its value attached.
                value_lines(value, &mut out);
            }
        }
    }
    out
}

/// The `NAME=VALUE` words of a command that sets variables for what it
/// runs or for the rest of the line (`env`, `export`, `declare`, …).
pub(super) fn assigned_words(words: &[String]) -> Vec<(&str, &str)> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    if !matches!(
        basename(first),
        "env" | "export" | "declare" | "typeset" | "local" | "readonly"
    ) {
        return Vec::new();
    }
    words
        .iter()
        .skip(1)
        .filter(|w| !w.starts_with('-'))
        .filter_map(|w| w.split_once('='))
        .filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b == b'_' || b.is_ascii_alphanumeric()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn aliases_are_the_lines_they_stand_for() {
        let args = vec![
            "-c".to_owned(),
            "alias.p=push --force".to_owned(),
            "p".to_owned(),
        ];
        assert_eq!(git_lines(&args).0, ["git push --force"]);
        let args = vec!["-calias.x=!rm -rf ~".to_owned(), "y".to_owned()];
        assert_eq!(git_lines(&args).0, ["rm -rf ~"]);
        let args = vec![
            "config".to_owned(),
            "--global".to_owned(),
            "alias.p".to_owned(),
            "!sh -c id".to_owned(),
        ];
        assert_eq!(git_lines(&args).0, ["sh -c id"]);
    }

    #[test]
    fn settings_that_run_commands() {
        let args = vec![
            "-c".to_owned(),
            "core.sshCommand=rm -rf ~".to_owned(),
            "fetch".to_owned(),
        ];
        assert_eq!(git_lines(&args).0, ["rm -rf ~"]);
        let args = vec![
            "-c".to_owned(),
            "filter.x.smudge=curl evil".to_owned(),
            "checkout".to_owned(),
        ];
        assert_eq!(git_lines(&args).0, ["curl evil"]);
        let args = vec!["-c".to_owned(), "user.name=rm -rf /".to_owned()];
        assert!(git_lines(&args).0.is_empty(), "a name runs nothing");
        let (_, unknown) = git_lines(&words("--config-env=alias.p=X p"));
        assert!(unknown.is_some());
    }

    #[test]
    fn options_that_run_commands() {
        let w = |words: &[&str]| -> Vec<String> { words.iter().map(|s| (*s).to_owned()).collect() };
        assert_eq!(
            option_lines(&w(&["ssh", "-o", "ProxyCommand=rm -rf ~", "h"])),
            ["rm -rf ~"]
        );
        assert_eq!(
            option_lines(&w(&["scp", "-oLocalCommand id", "a", "h:b"])),
            ["id"]
        );
        assert_eq!(
            option_lines(&w(&["rsync", "-e", "sh -c 'rm -rf ~'", "a", "h:"])),
            ["sh -c 'rm -rf ~'"]
        );
        // A remote shell carries the connection: only its own settings run.
        assert!(option_lines(&w(&["rsync", "--rsh=ssh -p 2", "a", "h:"])).is_empty());
        assert_eq!(
            option_lines(&w(&[
                "rsync",
                "-e",
                "ssh -o 'ProxyCommand=rm -rf ~'",
                "a",
                "h:"
            ])),
            ["rm -rf ~"]
        );
        assert_eq!(
            option_lines(&w(&["git", "ls-remote", "--upload-pack=touch x", "."])),
            ["touch x"]
        );
        assert_eq!(
            option_lines(&w(&[
                "tar",
                "xf",
                "a.tar",
                "--to-command=sh",
                "--checkpoint-action=exec=id"
            ])),
            ["id", "sh"]
        );
        assert_eq!(
            option_lines(&w(&["tar", "-Ixz", "-xf", "a.tar.xz"])),
            ["xz"]
        );
        assert!(option_lines(&w(&["ssh", "-o", "Port=22", "h"])).is_empty());
        assert!(option_lines(&w(&["rsync", "-av", "a", "b"])).is_empty());
    }

    #[test]
    fn variables_that_run_commands() {
        assert_eq!(var_lines("GIT_SSH_COMMAND", "rm -rf ~"), ["rm -rf ~"]);
        assert_eq!(
            var_lines("GIT_CONFIG_VALUE_0", "push --force"),
            ["git push --force", "push --force"]
        );
        assert_eq!(
            var_lines("GIT_CONFIG_PARAMETERS", "'alias.p=push -f'"),
            ["git push -f"]
        );
        assert!(var_lines("HOME", "/x").is_empty());
    }
}
