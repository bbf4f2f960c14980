//! Tests of path resolution, rules and operations.

use super::resolve::ResolvedPath;
use super::*;

fn file(target: &str, cwd: Option<&str>, home: Option<&str>) -> ResolvedPath {
    match resolve(target, cwd, home) {
        Ok(Target::File(path)) => path,
        other => panic!("{target}: {other:?}"),
    }
}

fn readings(path: &ResolvedPath) -> Vec<&str> {
    path.readings().collect()
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// (target, cwd, home, readings with the primary first)
type Resolution<'a> = (&'a str, Option<&'a str>, Option<&'a str>, &'a [&'a str]);

#[test]
fn resolution() {
    let cwd = Some("/repo/src");
    let home = Some("/home/u");
    let cases: &[Resolution<'_>] = &[
        ("/etc/passwd", cwd, home, &["/etc/passwd"]),
        ("/repo/../etc/passwd", cwd, home, &["/etc/passwd"]),
        ("src/../../etc/shadow", cwd, home, &["/repo/etc/shadow"]),
        ("../../etc/shadow", cwd, home, &["/etc/shadow"]),
        ("../../../../../../etc/shadow", cwd, home, &["/etc/shadow"]),
        ("//etc//passwd", cwd, home, &["/etc/passwd"]),
        ("/./etc/./passwd", cwd, home, &["/etc/passwd"]),
        ("/..", cwd, home, &["/"]),
        ("/", cwd, home, &["/"]),
        (".", cwd, home, &["/repo/src"]),
        ("./a/./b/", cwd, home, &["/repo/src/a/b"]),
        ("file:///etc/passwd", cwd, home, &["/etc/passwd"]),
        ("FILE:///etc/passwd", cwd, home, &["/etc/passwd"]),
        ("file://localhost/etc/passwd", cwd, home, &["/etc/passwd"]),
        ("file://LocalHost/etc/passwd", cwd, home, &["/etc/passwd"]),
        ("file:/etc/passwd", cwd, home, &["/etc/passwd"]),
        ("file:////etc/passwd", cwd, home, &["/etc/passwd"]),
        ("file://", cwd, home, &["/"]),
        (
            "file:///repo/%2e%2e/etc/passwd",
            cwd,
            home,
            &["/etc/passwd", "/repo/%2e%2e/etc/passwd"],
        ),
        (
            "file:///repo/%2E%2E/%2E%2E/etc/passwd",
            cwd,
            home,
            &["/etc/passwd", "/repo/%2E%2E/%2E%2E/etc/passwd"],
        ),
        (
            "file:///etc%2Fpasswd",
            cwd,
            home,
            &["/etc/passwd", "/etc%2Fpasswd"],
        ),
        (
            "file:///repo/%252e%252e/etc",
            cwd,
            home,
            &["/repo/%2e%2e/etc", "/repo/%252e%252e/etc"],
        ),
        (
            "file:///a%20b/c%zz%",
            cwd,
            home,
            &["/a b/c%zz%", "/a%20b/c%zz%"],
        ),
        (
            "%2e%2e/%2e%2e/etc/passwd",
            cwd,
            home,
            &["/repo/src/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd"],
        ),
        ("100%", cwd, home, &["/repo/src/100%"]),
        ("~", cwd, home, &["/home/u"]),
        ("~/.ssh/id_rsa", cwd, home, &["/home/u/.ssh/id_rsa"]),
        (
            "~/.ssh/id_rsa",
            cwd,
            Some("file:///home/u/"),
            &["/home/u/.ssh/id_rsa"],
        ),
        ("~//../x", cwd, Some("/"), &["/x"]),
        ("/tmp/~/x", cwd, None, &["/tmp/~/x"]),
        ("a~", cwd, None, &["/repo/src/a~"]),
        ("file:///~/x", cwd, None, &["/~/x"]),
        ("x", Some("file:///repo//a/../src/"), None, &["/repo/src/x"]),
        ("x", Some("~/proj"), home, &["/home/u/proj/x"]),
        ("x", Some("/"), None, &["/x"]),
        // Backslashes: a file-name character on POSIX, a separator
        // elsewhere; both readings are kept.
        (
            "..\\..\\etc\\passwd",
            cwd,
            home,
            &["/repo/src/..\\..\\etc\\passwd", "/etc/passwd"],
        ),
        ("/repo\\..\\etc", cwd, home, &["/repo\\..\\etc", "/etc"]),
        (
            "file:///repo/..%5c..%5cetc",
            cwd,
            home,
            &["/repo/..\\..\\etc", "/repo/..%5c..%5cetc", "/etc"],
        ),
        ("C:/Users/x", None, None, &["C:/Users/x"]),
        ("mailto:x@y", cwd, None, &["/repo/src/mailto:x@y"]),
        // Without cwd a relative path stays relative.
        ("a/../../x", None, None, &["../x"]),
        ("./", None, None, &["."]),
        ("src/./main.rs", None, None, &["src/main.rs"]),
    ];
    for (target, cwd, home, want) in cases {
        let got = file(target, *cwd, *home);
        assert_eq!(readings(&got), *want, "{target} cwd={cwd:?} home={home:?}");
    }
}

#[test]
fn resolution_errors() {
    let home = Some("/home/u");
    let cases: &[(&str, Option<&str>, Option<&str>, &str)] = &[
        ("", None, home, "empty path"),
        ("/etc/passwd\0.txt", None, home, "nul byte"),
        ("/etc/passwd%00.txt", None, home, "nul byte"),
        ("file:///etc/passwd%00", None, home, "nul byte"),
        (
            "file://evil.example/etc/passwd",
            None,
            home,
            "names host `evil.example`",
        ),
        ("file://~/x", None, home, "names host"),
        ("file:etc/passwd", None, home, "no absolute path"),
        ("file:///etc/passwd?x", None, home, "query or fragment"),
        ("file:///etc/passwd#x", None, home, "query or fragment"),
        ("~/.ssh/id_rsa", None, None, "no `context.home`"),
        ("~bob/.ssh/id_rsa", None, home, "`~user`"),
        ("%7Ebob/x", Some("/repo"), home, "`~user`"),
        ("~/x", None, Some("home/u"), "not an absolute path"),
        (
            "x",
            Some("repo"),
            home,
            "`cwd` `repo` is not an absolute path",
        ),
        ("x", Some(""), home, "`cwd` is empty"),
    ];
    for (target, cwd, home, want) in cases {
        let err = resolve(target, *cwd, *home).unwrap_err();
        assert!(err.contains(want), "{target}: {err}");
        assert!(!err.contains('\0'), "{target}: {err:?}");
        assert!(!err.ends_with('.'), "{err}");
        assert_eq!(err, err.to_lowercase(), "{err}");
    }
}

#[test]
fn other_schemes_are_not_files() {
    for (target, scheme) in [
        ("https://example.com/.env", "https"),
        ("HTTP://example.com/x.pem", "http"),
        ("s3://bucket/key", "s3"),
        ("git+ssh://host/repo", "git+ssh"),
    ] {
        assert_eq!(
            resolve(target, Some("/repo"), None),
            Ok(Target::NotFile {
                scheme: scheme.to_owned()
            })
        );
    }
}

#[test]
fn directory_hint_and_names() {
    for (target, dir, name) in [
        ("/repo/src/", true, "src"),
        ("/repo/src/.", true, "src"),
        ("/repo/src/x/..", true, "src"),
        ("/repo/src", false, "src"),
        ("file:///home/u/.ssh/", true, ".ssh"),
        ("/", true, ""),
    ] {
        let path = file(target, None, None);
        assert_eq!(path.is_dir(), dir, "{target}");
        assert_eq!(path.file_name(), name, "{target}");
        assert!(path.is_absolute());
    }
    let rel = file(".", None, None);
    assert_eq!(
        (rel.as_str(), rel.file_name(), rel.is_absolute()),
        (".", "", false)
    );
}

#[test]
fn long_paths_are_linear() {
    let deep = "a/".repeat(100_000) + "id_rsa";
    let path = file(&deep, Some("/repo"), None);
    assert_eq!(path.as_str().len(), "/repo/".len() + deep.len());
    let climb = "../".repeat(100_000) + "etc/passwd";
    assert_eq!(file(&climb, Some("/repo"), None).as_str(), "/etc/passwd");
    let rules = PathRules::new(&strings(&["id_rsa*", "/etc/**"]), &[]).unwrap();
    assert!(rules.matches(&path, Some("/repo"), None));
    assert!(rules.matches(&file(&climb, Some("/repo"), None), Some("/repo"), None));
    let err = resolve(&format!("file://{}/x", "h".repeat(10_000)), None, None).unwrap_err();
    assert!(err.len() < 300, "{}", err.len());
}

/// (patterns, except, target, matched) with cwd `/repo` and home `/home/u`.
type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a str, bool);

fn check_cases(cases: &[Case<'_>], cwd: Option<&str>, home: Option<&str>) {
    for (paths, except, target, want) in cases {
        let rules = PathRules::new(&strings(paths), &strings(except)).unwrap();
        let path = file(target, cwd, home);
        assert_eq!(
            rules.matches(&path, cwd, home),
            *want,
            "paths={paths:?} except={except:?} target={target} cwd={cwd:?} home={home:?}"
        );
    }
}

const ENV: &[&str] = &[".env", ".env.*", ".env*"];
const ENV_EXCEPT: &[&str] = &[".env.example", ".env.sample"];

#[test]
fn pi_env_rules() {
    let cases: &[Case<'_>] = &[
        (ENV, ENV_EXCEPT, ".env", true),
        (ENV, ENV_EXCEPT, ".env.local", true),
        (ENV, ENV_EXCEPT, "config/.env.production", true),
        (ENV, ENV_EXCEPT, "/elsewhere/.env", true),
        (ENV, ENV_EXCEPT, "file:///repo/.env", true),
        (ENV, ENV_EXCEPT, "/repo/.ENV", true),
        (ENV, ENV_EXCEPT, ".env.example", false),
        (ENV, ENV_EXCEPT, ".env.sample", false),
        (ENV, ENV_EXCEPT, "config/.env.example", false),
        (ENV, ENV_EXCEPT, "file:///repo/.env.example", false),
        // Exceptions are exact: neither case nor a second reading widens
        // them.
        (ENV, ENV_EXCEPT, ".ENV.EXAMPLE", true),
        (ENV, ENV_EXCEPT, ".env%2eexample", true),
        (ENV, ENV_EXCEPT, ".env.example\\..\\.env", true),
        (ENV, ENV_EXCEPT, "environment.ts", false),
        (ENV, ENV_EXCEPT, "src/env.rs", false),
        (&[".env.*"], &[], ".env", false),
        (&[".env.*"], &[], ".env.local", true),
    ];
    check_cases(cases, Some("/repo"), Some("/home/u"));
}

#[test]
fn pattern_semantics() {
    let cases: &[Case<'_>] = &[
        // File-name patterns.
        (&["*.pem"], &[], "/etc/ssl/private/server.pem", true),
        (&["*.pem"], &[], "keys/a.PEM", true),
        (&["*.pem"], &[], "/etc/pem/readme", false),
        (&["id_rsa*"], &[], "~/.ssh/id_rsa", true),
        (&["id_rsa*"], &[], "~/.ssh/id_rsa.pub", true),
        (&["id_rsa*"], &[], "~/.ssh/known_hosts", false),
        (&["secrets"], &[], "/repo/secrets/x", false),
        (&["**/secrets/**"], &[], "/repo/secrets/x", true),
        // Home patterns.
        (&["~/.ssh/**"], &[], "~/.ssh/id_rsa", true),
        (&["~/.ssh/**"], &[], "/home/u/.ssh/config", true),
        (&["~/.ssh/**"], &[], "/home/u/.ssh/", true),
        (&["~/.ssh/**"], &[], "file:///home/u/.ssh", true),
        (&["~/.ssh/**"], &[], "/HOME/U/.SSH/id_rsa", true),
        (&["~/.ssh/**"], &[], "/home/u/.sshx/id_rsa", false),
        (&["~/.ssh/**"], &[], "/home/v/.ssh/id_rsa", false),
        (&["~/.ssh/**"], &[], "/repo/.ssh/id_rsa", false),
        (&["~/.ssh/"], &[], "/home/u/.ssh/a/b", true),
        (&["~/.ssh"], &[], "/home/u/.ssh", true),
        (&["~/.ssh"], &[], "/home/u/.ssh/id_rsa", false),
        (&["~/*"], &[], "/home/u/.bashrc", true),
        (&["~/*"], &[], "/home/u/a/.bashrc", false),
        (&["~"], &[], "/home/u", true),
        (&["~/**"], &[], "/home/u", true),
        (&["~/**"], &[], "/home/uv", false),
        // Absolute patterns.
        (&["/etc/**"], &[], "/repo/../etc/passwd", true),
        (&["/etc/**"], &[], "//etc//passwd", true),
        (&["/etc/**"], &[], "/./etc/./passwd", true),
        (&["/etc/**"], &[], "file:///etc/passwd", true),
        (&["/etc/**"], &[], "file://localhost/etc/passwd", true),
        (&["/etc/**"], &[], "file:///repo/%2e%2e/etc/passwd", true),
        (&["/etc/**"], &[], "file:///repo/..%2Fetc/passwd", true),
        (
            &["/etc/**"],
            &[],
            "file:///repo/%2e%2e%2Fetc%2Fpasswd",
            true,
        ),
        (
            &["/etc/**"],
            &[],
            "file:///repo/%252e%252e/etc/passwd",
            false,
        ),
        (&["/etc/**"], &[], "../../etc/shadow", true),
        (&["/etc/**"], &[], "..\\..\\etc\\shadow", true),
        (&["/etc/**"], &[], "/etc", true),
        (&["/etc/**"], &[], "/etcetera/x", false),
        (&["/etc/*"], &[], "/etc/ssl/x", false),
        (&["/etc//passwd"], &[], "/etc/passwd", true),
        (&["/etc/./passwd"], &[], "/etc/passwd", true),
        (&["/etc/"], &[], "/etc/passwd", true),
        (&["/"], &[], "/anything", true),
        (&["/**"], &[], "/anything", true),
        (&["/etc/{passwd,shadow}"], &[], "/etc/shadow", true),
        // Relative patterns: anchored at cwd, inside it only.
        (
            &["config/.env.production"],
            &[],
            "config/.env.production",
            true,
        ),
        (
            &["config/.env.production"],
            &[],
            "/repo/config/.env.production",
            true,
        ),
        (
            &["config/.env.production"],
            &[],
            "/other/config/.env.production",
            false,
        ),
        (
            &["config/.env.production"],
            &[],
            "sub/config/.env.production",
            false,
        ),
        (&["src/*.rs"], &[], "src/main.rs", true),
        (&["src/*.rs"], &[], "src/a/main.rs", false),
        (&["src/**/*.rs"], &[], "src/a/b/main.rs", true),
        (&["./src/**"], &[], "src", true),
        (&["./src/**"], &[], "/elsewhere/src/x", false),
        (&["./**"], &[], "/repo", true),
        (&["./**"], &[], "/repo2/x", false),
        // `**/` patterns match anywhere.
        (&["**/.ssh/**"], &[], "/home/u/.ssh/id_rsa", true),
        (&["**/.ssh/**"], &[], ".ssh/id_rsa", true),
        (&["**/.ssh/**"], &[], "/repo/a/.ssh", true),
        (&["**/*.key"], &[], "/x/y.key", true),
        // `except` wins.
        (&["/repo/**"], &["/repo/docs/**"], "/repo/docs/a.md", false),
        (&["/repo/**"], &["/repo/docs/**"], "/repo/src/a.rs", true),
        (&["/repo/**"], &["docs/**"], "docs/a.md", false),
        (&["/repo/**"], &["~/x"], "/repo/a", true),
        (&["*"], &["*.txt"], "/repo/A.TXT", true),
        (&["*"], &["*.txt"], "/repo/a.txt", false),
        // Several patterns.
        (
            &["*.pem", "~/.aws/**", "/etc/**"],
            &[],
            "~/.aws/credentials",
            true,
        ),
        (
            &["*.pem", "~/.aws/**", "/etc/**"],
            &[],
            "/repo/README.md",
            false,
        ),
    ];
    check_cases(cases, Some("/repo"), Some("/home/u"));
}

#[test]
fn missing_context() {
    // Without home and cwd, `paths` patterns match at any depth, and
    // `except` patterns that need them never match.
    let cases: &[Case<'_>] = &[
        (&["~/.ssh/**"], &[], "/home/u/.ssh/id_rsa", true),
        (&["~/.ssh/**"], &[], "/srv/.ssh/x", true),
        (&["~/.ssh/**"], &[], "/srv/ssh/x", false),
        (&["config/.env"], &[], "/repo/config/.env", true),
        (&["config/.env"], &[], "config/.env", true),
        (&["config/.env"], &[], "../config/.env", true),
        (&["/etc/**"], &[], "../../etc/passwd", true),
        (&["/etc/**"], &[], "etc/passwd", true),
        (&["/etc/**"], &[], "src/main.rs", false),
        (&["*.pem"], &[], "a/b.pem", true),
        (&["*.pem"], &["keys/*.pem"], "keys/a.pem", false),
        (&["*.pem"], &["keys/*.pem"], "../keys/a.pem", true),
        (&["*.pem"], &["keys/*.pem"], "/repo/keys/a.pem", true),
        (&["*.pem"], &["~/*.pem"], "/home/u/a.pem", true),
        (&["*.pem"], &["**/keys/*.pem"], "/repo/keys/a.pem", false),
    ];
    check_cases(cases, None, None);
}

#[test]
fn bad_patterns() {
    for (pattern, want) in [
        ("", "invalid path pattern ``: empty"),
        ("[abc", "invalid path pattern `[abc`"),
        ("/etc/[abc/x", "invalid path pattern `/etc/[abc/x`"),
        ("~bob/.ssh/**", "`~user`"),
        ("/repo/../etc/**", "`..` is not allowed"),
        ("a\0b", "nul byte"),
    ] {
        let err = PathRules::new(&strings(&[pattern]), &[]).unwrap_err();
        assert!(err.contains(want), "{pattern:?}: {err}");
        let err = PathRules::new(&[], &strings(&[pattern])).unwrap_err();
        assert!(err.contains(want), "{pattern:?}: {err}");
        assert!(!err.contains('\n'));
    }
    assert!(PathRules::new(&[], &[]).is_ok());
}

#[test]
fn no_patterns_match_nothing() {
    let rules = PathRules::new(&[], &strings(&["*"])).unwrap();
    assert!(!rules.matches(&file("/etc/passwd", None, None), None, None));
}

#[test]
fn workspace_containment() {
    let cwd = Some("/repo");
    // (target, root, inside)
    let cases = [
        ("/repo", "/repo", true),
        ("/repo/", "/repo", true),
        ("/repo/a/b", "/repo", true),
        ("a/b", "/repo", true),
        ("/repo/a", "/repo/", true),
        ("/repo/a", "file:///repo", true),
        ("/repo/a", "//repo/./", true),
        ("/repo2/a", "/repo", false),
        ("/rep", "/repo", false),
        ("/Repo/a", "/repo", false),
        ("../repo2/x", "/repo", false),
        ("/repo/../etc/passwd", "/repo", false),
        ("src/../../etc/shadow", "/repo", false),
        ("file:///repo/%2e%2e/etc/passwd", "/repo", false),
        ("%2e%2e/etc/passwd", "/repo", false),
        ("..\\etc\\passwd", "/repo", false),
        ("~/x", "/repo", false),
        ("/anything", "/", true),
        ("/repo/a", "repo", false),
        ("/repo/a", "~/repo", false),
        ("/home/u/repo/a", "~/repo", true),
        ("/home/u/repo2/a", "~/repo", false),
        ("/repo/a", "", false),
    ];
    for (target, root, inside) in cases {
        let path = file(target, cwd, Some("/home/u"));
        assert_eq!(
            within(&path, root, Some("/home/u")),
            inside,
            "{target} in {root}"
        );
    }
    assert!(!within(&file("a/b", None, None), "/repo", None));
    // Without a home, a root with `~` holds nothing.
    assert!(!within(&file("/home/u/repo/a", None, None), "~/repo", None));
}

#[test]
fn operations() {
    use Operation::*;
    let cases: &[(&str, Operation)] = &[
        ("read", Read),
        ("write", Write),
        ("delete", Delete),
        ("list", List),
        ("stat", Stat),
        ("exec", Exec),
        ("spawn", Spawn),
        ("  READ ", Read),
        ("open", Read),
        ("cat", Read),
        ("fs.readFile", Read),
        ("read-file", Read),
        ("create", Write),
        ("edit", Write),
        ("append", Write),
        ("file:write", Write),
        ("move", Write),
        ("rename", Write),
        ("copy", Write),
        ("remove", Delete),
        ("unlink", Delete),
        ("rm", Delete),
        ("ls", List),
        ("list_directory", List),
        ("exists", Stat),
        ("execute", Exec),
        ("launch", Spawn),
        ("frobnicate", Other("frobnicate".to_owned())),
        (" chmod+x ", Other("chmod+x".to_owned())),
        ("", Other(String::new())),
    ];
    for (text, want) in cases {
        assert_eq!(Operation::parse(text), *want, "{text:?}");
    }
    assert_eq!(Operation::Delete.as_str(), "delete");
    assert_eq!(Operation::Other("x y".to_owned()).as_str(), "x y");
}

#[test]
fn operation_sets() {
    let names = |list: &[&str]| OperationSet::from_policy(&strings(list));
    let read = names(&["read"]).unwrap();
    let delete = names(&["delete"]).unwrap();
    let ws = OperationSet::WORKSPACE_DEFAULT;
    let req = |op: &str| OperationSet::of_request(Some(op));
    // (check, request operation, applies)
    let cases = [
        (ws, "write", true),
        (ws, "delete", true),
        (ws, "rm", true),
        (ws, "read", false),
        (ws, "stat", false),
        (ws, "list_directory", false),
        (ws, "move", true),
        (ws, "frobnicate", true),
        (read, "copy", true),
        (read, "mv", true),
        (read, "write", false),
        (read, "cat", true),
        (delete, "rename", true),
        (delete, "copy", false),
        (OperationSet::ALL, "exec", true),
        (OperationSet::ALL, "anything", true),
    ];
    for (check, op, want) in cases {
        assert_eq!(check.intersects(req(op)), want, "{check:?} {op}");
    }
    assert_eq!(OperationSet::of_request(None), OperationSet::ALL);
    assert_eq!(
        names(&["write", "delete"]).unwrap(),
        OperationSet::WORKSPACE_DEFAULT
    );
    assert_eq!(
        names(&["read", "write", "delete", "list", "stat", "exec", "spawn"]).unwrap(),
        OperationSet::ALL
    );
    assert!(read.contains(&Operation::Read));
    assert!(!read.contains(&Operation::Write));
    assert!(read.contains(&Operation::Other("x".to_owned())));
    assert!(names(&[]).unwrap_err().contains("no operations"));
    let err = names(&["wirte"]).unwrap_err();
    assert!(err.contains("unknown operation `wirte`"), "{err}");
    assert!(
        names(&["Read"]).is_err(),
        "policies spell operations exactly"
    );
    assert!(names(&["remove"]).is_err(), "policies use canonical names");
}

mod properties {
    use proptest::prelude::*;

    use super::super::resolve::{is_normal, normalize};
    use super::super::*;

    fn path_text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("..".to_owned()),
                Just(".".to_owned()),
                Just(String::new()),
                Just("%2e%2e".to_owned()),
                Just("a\\..".to_owned()),
                "[a-c]{1,3}",
            ],
            0..10,
        )
        .prop_map(|parts| parts.join("/"))
    }

    proptest! {
        #[test]
        fn readings_are_normal(text in path_text(), absolute in any::<bool>()) {
            let text = if absolute { format!("/{text}") } else { text };
            prop_assume!(!text.is_empty());
            let Ok(Target::File(path)) = resolve(&text, Some("/r/s"), None) else {
                return Err(TestCaseError::fail("not a file"));
            };
            for r in path.readings() {
                prop_assert!(is_normal(r), "{r}");
                prop_assert_eq!(normalize(r), r);
            }
            // The root contains everything; containment is the prefix.
            prop_assert!(within(&path, "/", None));
            let inside = path
                .readings()
                .all(|r| r == "/r" || r.starts_with("/r/"));
            prop_assert_eq!(within(&path, "/r", None), inside);
        }

        #[test]
        fn except_everything_matches_nothing(text in path_text()) {
            prop_assume!(!text.is_empty());
            let rules = PathRules::new(
                &["**".to_owned(), "*".to_owned()],
                &["**".to_owned(), "/**".to_owned()],
            )
            .map_err(TestCaseError::fail)?;
            let Ok(Target::File(path)) = resolve(&text, Some("/r/s"), None) else {
                return Err(TestCaseError::fail("not a file"));
            };
            prop_assert!(!rules.matches(&path, Some("/r/s"), None));
        }
    }
}

#[test]
fn a_directory_read_whole_holds_the_files_named_by_it() {
    let rules = PathRules::new(
        &[
            "**/.aws/credentials".to_owned(),
            ".env".to_owned(),
            "~/.ssh/**".to_owned(),
        ],
        &[],
    )
    .unwrap();
    let dir = |p: &str| match resolve(p, Some("/repo"), Some("/home/u")).unwrap() {
        Target::File(p) => p,
        Target::NotFile { .. } => panic!("{p}"),
    };
    let home = Some("/home/u");
    assert!(rules.matches_in_dir(&dir("~/.aws"), Some("/repo"), home));
    assert!(rules.matches_in_dir(&dir("/srv/x/.AWS/"), Some("/repo"), home));
    // `.env` may be anywhere: a directory is not assumed to hold one.
    assert!(!rules.matches_in_dir(&dir("/repo"), Some("/repo"), home));
    assert!(!rules.matches_in_dir(&dir("/home/u/aws"), Some("/repo"), home));
}
