//! The rule's quality on `tests/data/tooldefs/`: generated poisoned
//! definitions with benign look-alikes (`poisoned.jsonl`, whose held-out
//! half has carrier tools, phrasings, goals and languages the `dev` half
//! has not), and the definitions published MCP servers list
//! (`benign.jsonl`, 82 servers, read while the rule was tuned: `dev`;
//! `benign-heldout.jsonl`, 73 other servers: `heldout`). `GATEWAY.md`
//! ("Measured") has the tables and how they were taken.
//!
//! - `PALISADE_TOOLDEFS_TABLES=1` prints the tables by family, goal,
//!   language and place in `GATEWAY.md`'s form;
//! - `PALISADE_TOOLDEFS_SHOW_FIRED=1` prints what the held-out half fired
//!   on (its misses are never printed: it is not for tuning);
//! - `EXPLAIN=server/tool,… ` with the `explain` test prints the findings
//!   on published definitions and, with `PROBE_DEBUG=1`, the sentences
//!   that fired.

use std::collections::BTreeMap;

use serde_json::Value;

use super::judge_definition;

/// One definition of the corpus.
struct Row {
    id: String,
    split: String,
    attack: bool,
    /// The framing (generated) or `real` (a published server's).
    family: String,
    goal: String,
    lang: String,
    place: String,
    tool: Value,
}

fn read(name: &str) -> Vec<Value> {
    let path = format!("{}/tests/data/tooldefs/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: {e}: {l}")))
        .collect()
}

fn text(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or("").to_owned()
}

fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for v in read("poisoned.jsonl") {
        rows.push(Row {
            id: text(&v, "id"),
            split: text(&v, "split"),
            attack: text(&v, "label") == "attack",
            family: text(&v, "family"),
            goal: text(&v, "goal"),
            lang: text(&v, "lang"),
            place: text(&v, "where"),
            tool: v["tool"].clone(),
        });
    }
    // The published servers of `benign.jsonl` were read while the rule
    // was tuned; those of `benign-heldout.jsonl` were not.
    for (file, split) in [("benign.jsonl", "dev"), ("benign-heldout.jsonl", "heldout")] {
        for v in read(file) {
            rows.push(Row {
                id: text(&v, "id"),
                split: split.to_owned(),
                attack: false,
                family: "real".to_owned(),
                goal: "none".to_owned(),
                lang: "en".to_owned(),
                place: "-".to_owned(),
                tool: v["tool"].clone(),
            });
        }
    }
    rows
}

/// Counts of one half, overall and by family, goal, language and place:
/// `(attacks, stopped, benign, fired on)`.
#[derive(Default)]
struct Tally {
    all: [usize; 4],
    by: BTreeMap<(&'static str, String), [usize; 4]>,
    missed: Vec<String>,
    fired: Vec<String>,
    /// Time spent judging (the first definition compiles the patterns).
    spent: std::time::Duration,
}

fn measure(split: &str) -> Tally {
    let mut t = Tally::default();
    for row in rows().into_iter().filter(|r| r.split == split) {
        let started = std::time::Instant::now();
        let findings = judge_definition(&row.tool, &[]);
        t.spent += started.elapsed();
        let hit = !findings.is_empty();
        let (n, k) = if row.attack { (0, 1) } else { (2, 3) };
        let keys = [
            ("family", row.family.clone()),
            ("goal", row.goal.clone()),
            ("lang", row.lang.clone()),
            ("where", row.place.clone()),
        ];
        t.all[n] += 1;
        t.all[k] += usize::from(hit);
        for key in keys {
            let counts = t.by.entry(key).or_default();
            counts[n] += 1;
            counts[k] += usize::from(hit);
        }
        if row.attack && !hit {
            t.missed.push(format!("{} {}", row.id, row.tool));
        } else if !row.attack && hit {
            let why: Vec<String> = findings
                .iter()
                .map(|f| format!("{} {}", f.pointer, f.message))
                .collect();
            t.fired
                .push(format!("{} [{}] {}", row.id, why.join("; "), row.tool));
        }
    }
    t
}

fn share(part: usize, whole: usize) -> String {
    if whole == 0 {
        return "-".to_owned();
    }
    format!(
        "{part}/{whole} ({:.1}%)",
        100.0 * part as f64 / whole as f64
    )
}

fn report(split: &str, t: &Tally, missed: bool, fired: bool) {
    let [a, s, b, f] = t.all;
    println!(
        "{split}: attacks stopped {}, benign untouched {}; {} definitions judged in {:?}",
        share(s, a),
        share(b - f, b),
        a + b,
        t.spent
    );
    if std::env::var_os("PALISADE_TOOLDEFS_TABLES").is_some() {
        for kind in ["family", "goal", "lang", "where"] {
            println!("\n| {kind} | attacks stopped | benign untouched |\n|---|---|---|");
            for ((k, name), [a, s, b, f]) in &t.by {
                if *k == kind {
                    println!("| `{name}` | {} | {} |", share(*s, *a), share(b - f, *b));
                }
            }
        }
    }
    if missed {
        for m in &t.missed {
            println!("missed: {m}");
        }
    }
    if fired {
        for m in &t.fired {
            println!("fired on: {m}");
        }
    }
}

/// The figures of `GATEWAY.md` ("Measured"): a half whose figures drop
/// below them fails.
const DEV: Figures = Figures {
    attacks: 400,
    stopped: 400,
    benign: 1842,
    untouched: 1842,
};
const HELDOUT: Figures = Figures {
    attacks: 400,
    stopped: 301,
    benign: 2532,
    untouched: 2509,
};

struct Figures {
    attacks: usize,
    stopped: usize,
    benign: usize,
    untouched: usize,
}

/// Measures one half against its figures. The misses of the held-out
/// half are not printed (it is not for tuning); what it fired on is, with
/// `PALISADE_TOOLDEFS_SHOW_FIRED=1`.
fn check(split: &str, want: &Figures) {
    let t = measure(split);
    let dev = split == "dev";
    let fired = dev || std::env::var_os("PALISADE_TOOLDEFS_SHOW_FIRED").is_some();
    report(split, &t, dev, fired);
    let [a, s, b, f] = t.all;
    assert_eq!(
        (a, b),
        (want.attacks, want.benign),
        "{split}: the corpus changed"
    );
    assert!(
        s >= want.stopped && b - f >= want.untouched,
        "{split}: {s} attacks stopped (at least {} wanted), {} benign untouched (at least {})",
        want.stopped,
        b - f,
        want.untouched
    );
}

#[test]
fn quality_on_the_dev_half() {
    check("dev", &DEV);
}

#[test]
fn quality_on_the_heldout_half() {
    check("heldout", &HELDOUT);
}

#[test]
fn explain() {
    let Ok(ids) = std::env::var("EXPLAIN") else {
        return;
    };
    for file in ["benign.jsonl", "benign-heldout.jsonl"] {
        for v in read(file) {
            if ids.split(',').any(|id| id == text(&v, "id")) {
                println!("== {}", text(&v, "id"));
                for f in judge_definition(&v["tool"], &[]) {
                    println!("   {} {}", f.pointer, f.message);
                }
            }
        }
    }
}
