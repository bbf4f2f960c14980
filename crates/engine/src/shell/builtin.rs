//! The built-in dangerous-command set.

/// The built-in dangerous-command set: `(id, pattern, description)`.
///
/// Patterns are written for the views of [`CommandPatterns`]; those that
/// rely on the normalised view (split, sorted options: `rm -f -r /`) say so.
/// `{,* }` lets other options or words come between two words.
pub(crate) const DANGEROUS: &[(&str, &str, &str)] = &[
    (
        "rm-recursive-force",
        // Normalised: `-f` sorts before `-r`.
        "rm {,* }-f {,* }-r{, *}",
        "deletes a tree recursively and without asking (rm -rf in any spelling)",
    ),
    (
        "rm-no-preserve-root",
        "rm {,* }--no-preserve-root{, *}",
        "deletes with the guard against deleting / turned off",
    ),
    (
        "privilege-escalation",
        "{sudo,doas,su,sudoedit,pkexec} *",
        "runs a command with raised privileges",
    ),
    ("dd-write", "dd {,* }of=*", "dd writing to a file or device"),
    (
        "mkfs",
        "{mkfs,mke2fs,mkswap}*",
        "creates a file system, erasing what the device held",
    ),
    (
        "chmod-777-recursive",
        // Normalised: options first, then the mode.
        "chmod {,* }-R {,* }{777,0777,a+rwx,ugo+rwx}{, *}",
        "makes a whole tree writable by everyone",
    ),
    (
        "chmod-777-root",
        "chmod {,* }{777,0777,a+rwx,ugo+rwx} /",
        "makes the root directory writable by everyone",
    ),
    (
        "chown-recursive",
        // Normalised: `--recursive` is `-R`.
        "{chown,chgrp} {,* }-R{, *}",
        "changes the owner of a whole tree",
    ),
    ("shred", "shred *", "overwrites files beyond recovery"),
    (
        "wipefs",
        "wipefs *",
        "erases file-system signatures from a device",
    ),
    (
        "fdisk",
        "{fdisk,sfdisk,cfdisk,gdisk,sgdisk} *",
        "edits a partition table",
    ),
    ("parted", "parted *", "edits a partition table"),
    (
        "docker-privileged",
        "{docker,podman} * --privileged{,=true}{, *}",
        "starts a container with full access to the host",
    ),
    (
        "download-pipe-shell",
        "{curl,wget} * | {sh,bash,zsh,dash,ksh,fish,python,python3,perl,ruby,node}{, *}",
        "runs a downloaded script (curl … | sh)",
    ),
    (
        "download-subst-shell",
        "{sh,bash,zsh,dash,ksh,source,.} {,* }{<(,$(}{curl,wget} *",
        "runs a downloaded script (bash <(curl …), bash -c \"$(curl …)\")",
    ),
    (
        "git-push-force",
        "git {,* }push {,* }{--force*,+*}",
        "rewrites the history of a remote branch",
    ),
    (
        "git-push-f",
        // Normalised: `-f` (and `--force`) sort before the subcommand.
        "git {,* }-f {,* }push{, *}",
        "rewrites the history of a remote branch",
    ),
    (
        "git-reset-hard",
        "git {,* }reset {,* }--hard{, *}",
        "discards uncommitted changes",
    ),
    (
        "git-clean-force",
        // Normalised.
        "git {,* }-f {,* }clean{, *}",
        "deletes untracked files",
    ),
    ("fork-bomb", ": | :", "the fork bomb :(){ :|:& };:"),
    (
        "write-block-device",
        "*> /dev/{sd,hd,vd,xvd,nvme,mmcblk,disk}*",
        "overwrites a disk through a redirection",
    ),
    (
        "mv-to-dev-null",
        "mv * /dev/null",
        "moves files into /dev/null, destroying them",
    ),
    (
        "crontab-remove",
        // Normalised.
        "crontab {,* }-r{, *}",
        "deletes every cron job of the user",
    ),
    (
        "system-power",
        "{shutdown,reboot,halt,poweroff} *",
        "shuts the machine down or restarts it",
    ),
    (
        "systemctl-power",
        "systemctl {,* }{poweroff,reboot,halt,kexec}{, *}",
        "shuts the machine down or restarts it",
    ),
];
