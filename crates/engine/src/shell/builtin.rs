//! The built-in dangerous-command set.

/// A test of a command that is not a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Native {
    /// No such test.
    None,
    /// What the command runs cannot be known without running it
    /// ([`Command::opaque`](super::Command::opaque)).
    Opaque,
    /// The command calls a function of the line that calls itself in the
    /// background or through a pipe.
    ForkBomb,
    /// The command sets a Git setting whose value Git runs
    /// ([`git_setting_runs`](super::configured::git_setting_runs)).
    GitSettingRuns,
}

/// One entry of the built-in set.
#[derive(Debug)]
pub(crate) struct Builtin {
    /// Its id: `@id` names it in a check's `commands`.
    pub(crate) id: &'static str,
    /// Its patterns, written for the views of
    /// [`CommandPatterns`](super::CommandPatterns).
    pub(crate) patterns: &'static [&'static str],
    /// Its test that is not a pattern.
    pub(crate) native: Native,
    /// What it catches.
    pub(crate) description: &'static str,
}

/// The built-in dangerous-command set.
///
/// Patterns that rely on the normalised view (split, sorted options:
/// `rm -f -r /`) say so. `{,* }` lets other options or words come between
/// two words.
pub(crate) const DANGEROUS: &[Builtin] = &[
    Builtin {
        id: "rm-recursive-force",
        // Normalised: `-f` sorts before `-r`.
        patterns: &["rm {,* }-f {,* }-r{, *}"],
        native: Native::None,
        description: "deletes a tree recursively and without asking (rm -rf in any spelling)",
    },
    Builtin {
        id: "rm-no-preserve-root",
        patterns: &["rm {,* }--no-preserve-root{, *}"],
        native: Native::None,
        description: "deletes with the guard against deleting / turned off",
    },
    Builtin {
        id: "rm-recursive-root",
        // Normalised: `-R` and `--recursive` are `-r`. Without `-f`, `rm`
        // asks only about files it may not write: the root or a home
        // directory is gone all the same.
        patterns: &[
            "rm {,* }-r {,* }{/,/\\*,~,~/,~/\\*,$HOME,$HOME/,$HOME/\\*,$\\{HOME\\},$\\{HOME\\}/,$\\{HOME\\}/\\*}{, *}",
        ],
        native: Native::None,
        description: "deletes the root or a home directory recursively",
    },
    Builtin {
        id: "find-delete-root",
        // From the root or a home directory only: `find . -name '*.pyc'
        // -delete` in a project is everyday cleanup.
        patterns: &[
            "find {,* }{/,~,~/,$HOME,$HOME/,$\\{HOME\\},$\\{HOME\\}/} {,* }-delete{, *}",
            "find {,* }{/,~,~/,$HOME,$HOME/,$\\{HOME\\},$\\{HOME\\}/} {,* }{-exec,-execdir,-ok,-okdir} {rm,unlink,shred,*/rm,*/unlink,*/shred}{, *}",
        ],
        native: Native::None,
        description: "deletes the files of the root or a home directory (find / -delete, find ~ -exec rm)",
    },
    Builtin {
        id: "privilege-escalation",
        patterns: &["{sudo,doas,su,sudoedit,pkexec} *"],
        native: Native::None,
        description: "runs a command with raised privileges",
    },
    Builtin {
        id: "dd-write",
        patterns: &["dd {,* }of=*"],
        native: Native::None,
        description: "dd writing to a file or device",
    },
    Builtin {
        id: "mkfs",
        patterns: &["{mkfs,mke2fs,mkswap}*"],
        native: Native::None,
        description: "creates a file system, erasing what the device held",
    },
    Builtin {
        id: "chmod-777-recursive",
        // Normalised: options first, then the mode.
        patterns: &["chmod {,* }-R {,* }{777,0777,a+rwx,ugo+rwx}{, *}"],
        native: Native::None,
        description: "makes a whole tree writable by everyone",
    },
    Builtin {
        id: "chmod-777-root",
        patterns: &["chmod {,* }{777,0777,a+rwx,ugo+rwx} /"],
        native: Native::None,
        description: "makes the root directory writable by everyone",
    },
    Builtin {
        id: "chown-recursive",
        // Normalised: `--recursive` is `-R`.
        patterns: &["{chown,chgrp} {,* }-R{, *}"],
        native: Native::None,
        description: "changes the owner of a whole tree",
    },
    Builtin {
        id: "shred",
        patterns: &["shred *"],
        native: Native::None,
        description: "overwrites files beyond recovery",
    },
    Builtin {
        id: "wipefs",
        patterns: &["wipefs *"],
        native: Native::None,
        description: "erases file-system signatures from a device",
    },
    Builtin {
        id: "fdisk",
        patterns: &["{fdisk,sfdisk,cfdisk,gdisk,sgdisk} *"],
        native: Native::None,
        description: "edits a partition table",
    },
    Builtin {
        id: "parted",
        patterns: &["parted *"],
        native: Native::None,
        description: "edits a partition table",
    },
    Builtin {
        id: "docker-privileged",
        patterns: &["{docker,podman} * --privileged{,=true}{, *}"],
        native: Native::None,
        description: "starts a container with full access to the host",
    },
    Builtin {
        id: "docker-host-root",
        patterns: &[
            "{docker,podman} * {-v,--volume} /:*",
            "{docker,podman} * {-v,--volume}=/:*",
            "{docker,podman} * --mount{ ,=}{,*\\,}{source,src}=/{,\\,*}{, *}",
        ],
        native: Native::None,
        description: "gives a container the host's root directory (docker run -v /:/host)",
    },
    Builtin {
        id: "download-pipe-shell",
        patterns: &[
            "{curl,wget} * | {sh,bash,zsh,dash,ksh,fish,python,python3,perl,ruby,node}{, *}",
        ],
        native: Native::None,
        description: "runs a downloaded script (curl … | sh)",
    },
    Builtin {
        id: "download-subst-shell",
        patterns: &["{sh,bash,zsh,dash,ksh,source,.} {,* }{<(,$(}{curl,wget} *"],
        native: Native::None,
        description: "runs a downloaded script (bash <(curl …), bash -c \"$(curl …)\")",
    },
    Builtin {
        id: "git-push-force",
        patterns: &[
            "git {,* }push {,* }{--force*,+*}",
            "git {,* }--force-* {,* }push{, *}",
        ],
        native: Native::None,
        description: "rewrites the history of a remote branch",
    },
    Builtin {
        id: "git-push-f",
        // Normalised: `-f` (and `--force`) sort before the subcommand.
        patterns: &["git {,* }-f {,* }push{, *}"],
        native: Native::None,
        description: "rewrites the history of a remote branch",
    },
    Builtin {
        id: "git-reset-hard",
        patterns: &[
            "git {,* }reset {,* }--hard{, *}",
            "git {,* }--hard {,* }reset{, *}",
        ],
        native: Native::None,
        description: "discards uncommitted changes",
    },
    Builtin {
        id: "git-push-delete",
        patterns: &[
            "git {,* }push {,* }{--delete,-d}{, *}",
            "git {,* }{--delete,-d} {,* }push{, *}",
            "git {,* }push * :*",
        ],
        native: Native::None,
        description: "deletes a remote branch or tag",
    },
    Builtin {
        id: "git-discard-changes",
        // Normalised: `--force` is `-f`, before the subcommand.
        patterns: &[
            "git {,* }checkout {,* }{.,:/}{, *}",
            "git {,* }-f {,* }checkout{, *}",
        ],
        native: Native::None,
        description: "discards uncommitted changes (git checkout -- ., git checkout -f)",
    },
    Builtin {
        id: "git-clean-force",
        // Normalised.
        patterns: &["git {,* }-f {,* }clean{, *}"],
        native: Native::None,
        description: "deletes untracked files",
    },
    Builtin {
        id: "fork-bomb",
        patterns: &[": | :"],
        native: Native::ForkBomb,
        description: "the fork bomb :(){ :|:& };:",
    },
    Builtin {
        id: "write-block-device",
        patterns: &[
            "*> /dev/{sd,hd,vd,xvd,nvme,mmcblk,disk}*",
            "tee {,* }/dev/{sd,hd,vd,xvd,nvme,mmcblk,disk}*",
            "cp * /dev/{sd,hd,vd,xvd,nvme,mmcblk,disk}*",
        ],
        native: Native::None,
        description: "overwrites a disk through a redirection",
    },
    Builtin {
        id: "mv-to-dev-null",
        patterns: &["mv * /dev/null"],
        native: Native::None,
        description: "moves files into /dev/null, destroying them",
    },
    Builtin {
        id: "crontab-remove",
        // Normalised.
        patterns: &["crontab {,* }-r{, *}"],
        native: Native::None,
        description: "deletes every cron job of the user",
    },
    Builtin {
        id: "crontab-install",
        // A file operand, or `-` (standard input): the user's cron jobs
        // replaced by what the line gives.
        patterns: &["crontab [!-]*", "crontab -u * [!-]*", "crontab {,* }-{, *}"],
        native: Native::None,
        description: "replaces the user's cron jobs (crontab FILE, … | crontab -)",
    },
    Builtin {
        id: "scheduled-command",
        patterns: &["{at,batch} *", "batch"],
        native: Native::None,
        description: "runs commands later, out of sight (… | at now + 1 minute)",
    },
    Builtin {
        id: "system-power",
        patterns: &["{shutdown,reboot,halt,poweroff} *"],
        native: Native::None,
        description: "shuts the machine down or restarts it",
    },
    Builtin {
        id: "systemctl-power",
        patterns: &["systemctl {,* }{poweroff,reboot,halt,kexec}{, *}"],
        native: Native::None,
        description: "shuts the machine down or restarts it",
    },
    Builtin {
        id: "firewall-off",
        patterns: &[
            "{iptables,ip6tables} {,* }{-F,--flush}{, *}",
            "ufw {,* }disable{, *}",
            "nft {,* }flush ruleset{, *}",
        ],
        native: Native::None,
        description: "removes the firewall's rules or turns it off",
    },
    Builtin {
        id: "reverse-shell",
        patterns: &[
            "{nc,ncat,netcat} {,* }{-e,-c,--exec,--exec=*,--sh-exec,--sh-exec=*}{, *}",
            "socat {,* }{exec:*,EXEC:*,system:*,SYSTEM:*}{, *}",
        ],
        native: Native::None,
        description: "gives a shell to the other end of a connection (nc -e /bin/sh, socat … exec:)",
    },
    Builtin {
        id: "git-history-loss",
        patterns: &[
            "git {,* }stash {,* }{clear,drop}{, *}",
            "git {,* }reflog {,* }{expire,delete}{, *}",
            "git {,* }gc {,* }--prune=now{, *}",
            "git {,* }{filter-branch,filter-repo}{, *}",
            "git {,* }update-ref {,* }-d{, *}",
            "git {,* }branch {,* }-D{, *}",
            "git {,* }push {,* }--mirror{, *}",
        ],
        native: Native::None,
        description: "loses commits or stashes beyond recovery, or rewrites history (git stash clear, git branch -D, git reflog expire, git filter-branch, git push --mirror)",
    },
    Builtin {
        id: "infrastructure-destroy",
        patterns: &[
            "{terraform,tofu,terragrunt} {,* }destroy{, *}",
            "{terraform,tofu,terragrunt} {,* }apply {,* }-destroy{, *}",
            "pulumi {,* }destroy{, *}",
            "kubectl {,* }delete {,* }{namespace,namespaces,ns,namespace/*,ns/*,pv,pvc,persistentvolume,persistentvolumes,persistentvolumeclaim,persistentvolumeclaims,node,nodes,crd,crds,customresourcedefinition,customresourcedefinitions}{, *}",
            "kubectl {,* }delete {,* }{--all,-A,--all-namespaces}{, *}",
            "aws {,* }s3 {,* }rm {,* }--recursive{, *}",
            "aws {,* }s3 {,* }rb{, *}",
            "aws {,* }{s3api,ec2,rds,dynamodb,cloudformation,eks,ecs,ecr,iam,lambda,elasticache,kms,route53} {,* }{delete-*,terminate-*,schedule-key-deletion}{, *}",
            "gcloud {,* }delete{, *}",
            "az {,* }delete{, *}",
            "gsutil {,* }rm {,* }{-r,-R,-a}{, *}",
            "gsutil {,* }rb{, *}",
            "gh {,* }repo {,* }delete{, *}",
        ],
        native: Native::None,
        description: "destroys cloud infrastructure, cluster resources or a repository (terraform destroy, kubectl delete namespace, aws s3 rm --recursive, gcloud … delete, gh repo delete)",
    },
    Builtin {
        id: "database-drop",
        // SQL keywords in any case, in a statement given on the command
        // line (`psql -c`, `mysql -e`, `sqlite3 DB SQL`).
        patterns: &[
            "{dropdb,dropuser} *",
            "redis-cli {,* }{FLUSHALL,FLUSHDB,flushall,flushdb}{, *}",
            "{psql,mysql,mariadb,sqlite3} *[Dd][Rr][Oo][Pp] {[Dd][Aa][Tt][Aa][Bb][Aa][Ss][Ee],[Tt][Aa][Bb][Ll][Ee],[Ss][Cc][Hh][Ee][Mm][Aa]}*",
            "{psql,mysql,mariadb,sqlite3} *[Tt][Rr][Uu][Nn][Cc][Aa][Tt][Ee] *",
            "{mongosh,mongo} *{dropDatabase,.drop()}*",
        ],
        native: Native::None,
        description: "drops a database, a table or a schema, or empties a store (dropdb, DROP DATABASE, TRUNCATE, redis-cli FLUSHALL)",
    },
    Builtin {
        id: "container-volumes-remove",
        patterns: &[
            "{docker,podman} {,* }volume {,* }{rm,remove,prune}{, *}",
            "{docker,podman} {,* }system {,* }prune {,* }--volumes{, *}",
            "{docker,podman} {,* }compose {,* }down {,* }{-v,--volumes}{, *}",
            "{docker-compose,podman-compose} {,* }down {,* }{-v,--volumes}{, *}",
        ],
        native: Native::None,
        description: "deletes container volumes and the data they hold (docker volume rm, docker compose down -v)",
    },
    Builtin {
        id: "package-source-change",
        patterns: &[
            "{npm,pnpm} {,* }config {,* }set {,* }{registry,registry=*,@*:registry,@*:registry=*}{, *}",
            "yarn {,* }config {,* }set {,* }{registry,npmRegistryServer,npmScopes.*}{, *}",
            "{pip,pip3} {,* }config {,* }set {,* }{global.index-url,global.extra-index-url,install.index-url,install.extra-index-url,global.trusted-host,install.trusted-host}{, *}",
            "gem {,* }sources {,* }{-a,--add}{, *}",
        ],
        native: Native::None,
        description: "points a package manager at another registry for good (npm config set registry, pip config set global.index-url)",
    },
    Builtin {
        id: "account-change",
        // `passwd -S` (status) reads; with the options below, `passwd`
        // removes, unlocks, expires or sets a password without a prompt
        // (alone it prompts, which an agent cannot answer).
        patterns: &[
            // One pattern per first letter: a set is built for the first
            // byte of the commands a line runs.
            "{useradd,usermod,userdel} *",
            "adduser *",
            "deluser *",
            "chpasswd *",
            "gpasswd *",
            "newusers *",
            "passwd {,* }{-d,--delete,-u,--unlock,-e,--expire,-l,--lock,--stdin,-x,-n,-w,-i,--maxdays=*,--mindays=*}{, *}",
        ],
        native: Native::None,
        description: "creates, changes or removes a user account or its password (useradd, usermod -aG sudo, passwd -d)",
    },
    Builtin {
        id: "credential-print",
        // Each prints a credential its tool keeps, into the tool's output
        // and so to the model; listing or checking them does not.
        patterns: &[
            "gh {,* }auth {,* }token{, *}",
            "gcloud {,* }auth {,* }print-{access,identity}-token{, *}",
            "aws {,* }configure {,* }{get,export-credentials}{, *}",
            "vault {,* }{read,kv get,kv metadata get,print token}{, *}",
            "op {,* }{read,item get}{, *}",
            "bw {,* }get{, *}",
            "security {,* }find-{generic,internet}-password {,* }{-w,-g}{, *}",
            "gpg {,* }--export-secret-{keys,subkeys}{, *}",
            "git {,* }credential{, *} {fill,get}{, *}",
            "git {,* }credential-{store,cache,libsecret,osxkeychain,manager,manager-core} {,* }get{, *}",
            "kubectl {,* }get {,* }{secret,secrets,secret/*,secrets/*} {,* }{-o*,--output*}",
            "kubectl {,* }config {,* }view {,* }--raw{, *}",
            "aws {,* }sts {,* }{get-session-token,get-federation-token,assume-role,assume-role-with-web-identity,assume-role-with-saml}{, *}",
            "aws {,* }ecr {,* }get-login-password{, *}",
            "aws {,* }secretsmanager {,* }get-secret-value{, *}",
            "aws {,* }ssm {,* }{get-parameter,get-parameters,get-parameters-by-path} {,* }--with-decryption{, *}",
            "az {,* }account {,* }get-access-token{, *}",
            "az {,* }keyvault {,* }secret {,* }show{, *}",
            "gcloud {,* }secrets {,* }versions {,* }access{, *}",
            "heroku {,* }{config,auth:token}{, *}",
            "{fly,flyctl} {,* }auth {,* }token{, *}",
            "terraform {,* }output {,* }{-json,-raw}{, *}",
            "{pass,gopass,lpass,keepassxc-cli} {,* }show{, *}",
            "sops {,* }{-d,--decrypt}{, *}",
            "ansible-vault {,* }{view,decrypt}{, *}",
        ],
        native: Native::None,
        description: "prints a stored credential (gh auth token, gcloud auth print-access-token, vault read, kubectl get secret -o yaml)",
    },
    Builtin {
        id: "git-config-exec",
        patterns: &[],
        native: Native::GitSettingRuns,
        description: "sets a Git setting whose value Git runs (core.hooksPath, core.fsmonitor, core.sshCommand, a filter, a `!` alias), for good or for one command (git -c)",
    },
    Builtin {
        id: "opaque",
        patterns: &[],
        native: Native::Opaque,
        description: "runs something that cannot be known without running it",
    },
];
