//! Built-in detectors: credentials (`secrets`) and personal data (`pii`).
//!
//! Every detector is one regex pattern for the stage's one-pass scanner plus
//! an optional validator that runs on the matched text and may reject it
//! (a checksum, a documented example value, a placeholder, too little
//! entropy). Patterns use Rust `regex` syntax, start with a distinctive
//! literal where the format has one, and never need look-around: where a
//! format has a fixed length, the pattern matches greedily and the validator
//! checks the length, so a longer run of the same characters is not taken
//! for a token.
//!
//! Detectors that find a secret by the name it is assigned to
//! (`password_assignment`, `secret_assignment`, `aws_secret_access_key`, …)
//! match the name too, so the validator can judge it; their secret value
//! is the last part of the match.
//!
//! `docs/DETECTORS.md` lists every detector with its validator, examples and
//! measured precision and recall.

pub(crate) mod addressed;
pub(crate) mod encoded;
mod generic;
mod pii;
#[rustfmt::skip]
mod plans;
mod secrets;
mod validate;

pub(crate) use pii::PII;
pub(crate) use secrets::SECRETS;
pub(crate) use validate::base64_decode;

/// Which family a detector belongs to: the check type that enables it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A credential, found by the `secrets` check.
    Secret,
    /// Personal data, found by the `pii` check.
    Pii,
}

/// A built-in detector: a pattern for the scanner and a validator for what
/// it matched.
#[derive(Debug)]
pub(crate) struct Detector {
    /// Stable snake_case id: the `secrets` check's `detectors` entry, or the
    /// `pii` check's `entities` entry.
    pub(crate) id: &'static str,
    /// The family.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the detector tables' tests check each detector's family"
        )
    )]
    pub(crate) kind: Kind,
    /// Rust `regex` syntax.
    pub(crate) pattern: &'static str,
    /// Runs on the matched text; `false` rejects the match.
    pub(crate) validate: Option<fn(&str) -> bool>,
    /// What the detector finds, one line.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "read by the tests that keep DETECTORS.md's table equal to the detectors"
        )
    )]
    pub(crate) description: &'static str,
    /// The default replacement when redacting, `[REDACTED:<id>]`.
    pub(crate) placeholder: &'static str,
    /// For a detector that finds a value by the name it is given: judges a
    /// JSON member's name and its string value (`{"password": "…"}`), which
    /// the pattern cannot see together because they are two strings.
    pub(crate) pair: Option<fn(&str, &str) -> bool>,
    /// For a detector whose match holds more than the finding (a table with
    /// an `ssn` column): the spans of the match, relative to its start,
    /// that are reported (and redacted) instead of the whole match.
    pub(crate) focus: Option<Focus>,
    /// The pattern's top-level alternatives are scanned as patterns of
    /// their own ([`Detector::apart`]).
    pub(crate) apart: bool,
}

/// A built-in detector's plan embedded in the binary ([`crate::pattern::plan`]):
/// the detector (its parts in order), and the fingerprint of the syntax
/// tree it was worked out from ([`crate::pattern::fingerprint`]).
pub(crate) struct Embedded {
    pub(crate) id: &'static str,
    /// FNV-1a of the detector's pattern as written.
    pub(crate) source: u64,
    /// Builds the part's syntax tree as the parser gives it, without parsing.
    pub(crate) hir: fn() -> regex_syntax::hir::Hir,
    pub(crate) tree: u64,
    pub(crate) plan: crate::pattern::plan::Plan,
}

/// FNV-1a of a detector's pattern: an embedded tree is used only for the
/// pattern it was generated from.
fn source_hash(pattern: &str) -> u64 {
    pattern.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Builders of syntax-tree nodes, for the generated trees of `plans.rs`.
#[allow(
    dead_code,
    reason = "the generated trees call the builders today's detectors need"
)]
mod tree {
    use regex_syntax::hir::{
        Capture, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir,
        Repetition,
    };

    pub(super) fn lit(bytes: &[u8]) -> Hir {
        Hir::literal(bytes)
    }

    pub(super) fn uni(ranges: &[(char, char)]) -> Hir {
        Hir::class(Class::Unicode(ClassUnicode::new(
            ranges.iter().map(|&(a, b)| ClassUnicodeRange::new(a, b)),
        )))
    }

    pub(super) fn bytes(ranges: &[(u8, u8)]) -> Hir {
        Hir::class(Class::Bytes(ClassBytes::new(
            ranges.iter().map(|&(a, b)| ClassBytesRange::new(a, b)),
        )))
    }

    pub(super) fn rep(min: u32, max: Option<u32>, greedy: bool, sub: Hir) -> Hir {
        Hir::repetition(Repetition {
            min,
            max,
            greedy,
            sub: Box::new(sub),
        })
    }

    pub(super) fn cap(index: u32, name: Option<&str>, sub: Hir) -> Hir {
        Hir::capture(Capture {
            index,
            name: name.map(Box::from),
            sub: Box::new(sub),
        })
    }
}

/// Picks the spans of a match to report, relative to its start.
pub(crate) type Focus = fn(&str) -> Vec<(usize, usize)>;

impl Detector {
    /// Whether the validator (if any) accepts the matched text.
    #[cfg_attr(
        not(test),
        expect(
            dead_code,
            reason = "the detectors' quality tests run the validators on their corpora"
        )
    )]
    pub(crate) fn accepts(&self, matched: &str) -> bool {
        self.validate.is_none_or(|v| v(matched))
    }

    /// This detector, also judging JSON members by name and value.
    const fn paired(mut self, pair: fn(&str, &str) -> bool) -> Self {
        self.pair = Some(pair);
        self
    }

    /// This detector, its pattern's top-level alternatives (`A|B|C`)
    /// scanned as patterns of their own: each is filtered on its own
    /// literals (one alternative without good literals would otherwise take
    /// the whole pattern off the literal filter), and a match of one never
    /// hides another's.
    const fn apart(mut self) -> Self {
        self.apart = true;
        self
    }

    /// The patterns the scanner runs for this detector, each with its
    /// plan. The binary holds the trees and plans of the built-in
    /// detectors as written today (`plans.rs`): they are built without
    /// parsing, and a plan is used only for the tree it was worked out
    /// from. A pattern that differs from the one embedded is parsed.
    pub(crate) fn patterns(&self) -> Result<Vec<crate::pattern::Pattern>, String> {
        use crate::pattern::{Pattern, fingerprint};
        let source = source_hash(self.pattern);
        let embedded: Vec<&Embedded> = plans::PLANS
            .iter()
            .filter(|e| e.source == source && e.id == self.id)
            .collect();
        if embedded.is_empty() {
            return Ok(self.parts()?.into_iter().map(Pattern::deferred).collect());
        }
        Ok(embedded
            .into_iter()
            .map(|e| {
                let hir = (e.hir)();
                if fingerprint(&hir) == e.tree {
                    Pattern::planned(hir, e.plan.clone())
                } else {
                    Pattern::deferred(hir)
                }
            })
            .collect())
    }

    /// The patterns the scanner runs for this detector, parsed.
    pub(crate) fn parts(&self) -> Result<Vec<regex_syntax::hir::Hir>, String> {
        let hir = crate::pattern::parse(self.pattern)?;
        Ok(if self.apart {
            crate::pattern::alternatives(hir)
        } else {
            vec![hir]
        })
    }

    /// This detector, reporting the spans `focus` picks in a match.
    const fn focused(mut self, focus: Focus) -> Self {
        self.focus = Some(focus);
        self
    }
}

/// Builds a [`Detector`] whose placeholder is `[REDACTED:<id>]`.
macro_rules! detector {
    ($id:literal, $kind:ident, $pattern:expr, $validate:expr, $description:literal $(,)?) => {
        $crate::detect::Detector {
            id: $id,
            kind: $crate::detect::Kind::$kind,
            pattern: $pattern,
            validate: $validate,
            description: $description,
            placeholder: concat!("[REDACTED:", $id, "]"),
            pair: None,
            focus: None,
            apart: false,
        }
    };
}
use detector;

/// The detector with this label: its index in [`SECRETS`] followed by [`PII`].
pub(crate) fn by_label(label: u32) -> Option<&'static Detector> {
    let i = label as usize;
    SECRETS
        .get(i)
        .or_else(|| i.checked_sub(SECRETS.len()).and_then(|j| PII.get(j)))
}

/// Whether a hit's label is a credential detector's (not a PII detector's,
/// nor a check's own pattern).
pub(crate) fn is_secret_label(label: u32) -> bool {
    (label as usize) < SECRETS.len()
}

/// The label of a detector of a family: its index in [`SECRETS`] followed by [`PII`].
pub(crate) fn label(kind: Kind, index: usize) -> u32 {
    match kind {
        Kind::Secret => index as u32,
        Kind::Pii => (SECRETS.len() + index) as u32,
    }
}

/// The secret detector with this id.
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "the detectors' tests look detectors up by id")
)]
pub(crate) fn secret(id: &str) -> Option<&'static Detector> {
    SECRETS.iter().find(|d| d.id == id)
}

/// The PII detector for this entity (`email`, `phone`, `credit_card`,
/// `us_ssn`, `iban`, `ip_address`).
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "the detectors' tests look detectors up by entity")
)]
pub(crate) fn pii(entity: &str) -> Option<&'static Detector> {
    PII.iter().find(|d| d.id == entity)
}

#[cfg(test)]
mod tests {
    //! The quality test: every detector over the labelled corpora in
    //! `tests/data/detectors/`, with precision and recall per family and per
    //! detector. Run with `--nocapture` to see the table.

    use std::collections::{BTreeMap, BTreeSet};
    use std::fmt::Write as _;

    use regex_automata::meta::Regex;

    use super::*;

    /// Both families must reach this precision and recall on their corpus.
    const MIN_SCORE: f64 = 0.97;

    struct Case {
        line: usize,
        text: String,
        /// A structured tool output (`structured.jsonl`), scanned string by
        /// string as the engine scans it, member names paired with values.
        json: Option<serde_json::Value>,
        /// The class of data the case belongs to, reported separately.
        class: Option<String>,
        expect: BTreeSet<String>,
    }

    fn load(name: &str) -> Vec<Case> {
        let path = format!("{}/tests/data/detectors/{name}", env!("CARGO_MANIFEST_DIR"));
        let data = std::fs::read_to_string(&path).unwrap();
        data.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty())
            .map(|(i, l)| {
                let v: serde_json::Value =
                    serde_json::from_str(l).unwrap_or_else(|e| panic!("{name}:{}: {e}", i + 1));
                let text = v["text"].as_str().map(str::to_owned).unwrap_or_default();
                case_of(i + 1, &v, text)
            })
            .collect()
    }

    /// A case from its corpus line: `text` is what misses print.
    fn case_of(line: usize, v: &serde_json::Value, text: String) -> Case {
        Case {
            line,
            text,
            json: v.get("json").cloned(),
            class: v.get("class").and_then(|c| c.as_str()).map(str::to_owned),
            expect: v["expect"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap().to_owned())
                .collect(),
        }
    }

    /// Each detector with its alternatives' regexes, as the scanner runs them.
    fn compiled(detectors: &'static [Detector]) -> Vec<(&'static Detector, Vec<Regex>)> {
        detectors
            .iter()
            .map(|d| {
                let parts = d
                    .parts()
                    .unwrap()
                    .iter()
                    .map(|h| crate::pattern::exact_regex(h).unwrap())
                    .collect();
                (d, parts)
            })
            .collect()
    }

    /// The ids of the detectors that fire on `text`: some match the
    /// validator accepts; and, as in a tool output, the credential
    /// detectors that fire on its base64 runs decoded ([`encoded`]).
    fn fired(detectors: &[(&'static Detector, Vec<Regex>)], text: &str) -> BTreeSet<String> {
        let mut out = fired_in(detectors, text);
        let mut budget = encoded::Budget::default();
        fired_decoded(detectors, text, &mut budget, 1, &mut out);
        out
    }

    fn fired_in(detectors: &[(&'static Detector, Vec<Regex>)], text: &str) -> BTreeSet<String> {
        detectors
            .iter()
            .filter(|(d, parts)| {
                parts
                    .iter()
                    .any(|re| re.find_iter(text).any(|m| d.accepts(&text[m.range()])))
            })
            .map(|(d, _)| d.id.to_owned())
            .collect()
    }

    fn fired_decoded(
        detectors: &[(&'static Detector, Vec<Regex>)],
        text: &str,
        budget: &mut encoded::Budget,
        depth: u32,
        out: &mut BTreeSet<String>,
    ) {
        for run in encoded::decode_runs(text, budget) {
            let secrets: Vec<_> = detectors
                .iter()
                .filter(|(d, _)| d.kind == Kind::Secret)
                .cloned()
                .collect();
            out.extend(fired_in(&secrets, &run.text));
            if depth < encoded::MAX_DEPTH {
                fired_decoded(detectors, &run.text, budget, depth + 1, out);
            }
        }
    }

    #[derive(Default, Clone, Copy)]
    struct Counts {
        tp: u32,
        fp: u32,
        fn_: u32,
    }

    impl Counts {
        fn precision(self) -> f64 {
            ratio(self.tp, self.tp + self.fp)
        }
        fn recall(self) -> f64 {
            ratio(self.tp, self.tp + self.fn_)
        }
    }

    fn ratio(a: u32, b: u32) -> f64 {
        if b == 0 {
            1.0
        } else {
            f64::from(a) / f64::from(b)
        }
    }

    /// The ids of the detectors that fire on a structured tool output: on
    /// each string (and number) of it, and on each member's name and value.
    fn fired_json(
        detectors: &[(&'static Detector, Vec<Regex>)],
        json: &serde_json::Value,
    ) -> BTreeSet<String> {
        let request = palisade_protocol::CheckRequest::tool_output("read_config", json.clone());
        let mut out = BTreeSet::new();
        crate::eval::for_each_string(
            &request,
            palisade_protocol::Stage::ToolOutput,
            |_, _, text, name| {
                out.extend(fired(detectors, text));
                for (d, _) in detectors {
                    if let (Some(name), Some(pair)) = (name, d.pair)
                        && pair(name, text)
                    {
                        out.insert(d.id.to_owned());
                    }
                }
            },
        );
        out
    }

    /// Scores one family on its corpus (and its cases in `structured.jsonl`);
    /// prints the table and every miss.
    fn evaluate(family: &str, detectors: &'static [Detector], corpus: &str) -> Counts {
        let mut cases = load(corpus);
        let structured = std::fs::read_to_string(format!(
            "{}/tests/data/detectors/structured.jsonl",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        for (i, line) in structured.lines().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if v["family"] == family {
                cases.push(case_of(100_000 + i + 1, &v, line.to_owned()));
            }
        }
        let compiled = compiled(detectors);
        let mut total = Counts::default();
        let mut per: BTreeMap<&str, Counts> = detectors
            .iter()
            .map(|d| (d.id, Counts::default()))
            .collect();
        let mut misses = String::new();
        let mut classes: BTreeMap<String, Counts> = BTreeMap::new();
        for case in &cases {
            for id in &case.expect {
                assert!(
                    per.contains_key(id.as_str()),
                    "{corpus}:{}: unknown id `{id}`",
                    case.line
                );
            }
            let got = match &case.json {
                Some(json) => fired_json(&compiled, json),
                None => fired(&compiled, &case.text),
            };
            if let Some(class) = &case.class {
                let c = classes.entry(class.clone()).or_default();
                c.tp += case.expect.intersection(&got).count() as u32;
                c.fp += got.difference(&case.expect).count() as u32;
                c.fn_ += case.expect.difference(&got).count() as u32;
            }
            for d in detectors {
                let (want, have) = (case.expect.contains(d.id), got.contains(d.id));
                let c = per.get_mut(d.id).unwrap();
                match (want, have) {
                    (true, true) => c.tp += 1,
                    (false, true) => c.fp += 1,
                    (true, false) => c.fn_ += 1,
                    (false, false) => continue,
                }
                if want != have {
                    let kind = if have {
                        "false positive"
                    } else {
                        "false negative"
                    };
                    writeln!(
                        misses,
                        "  {corpus}:{}: {kind} {}: {}",
                        case.line, d.id, case.text
                    )
                    .unwrap();
                }
            }
        }
        let positives = cases.iter().filter(|c| !c.expect.is_empty()).count();
        println!(
            "\n{family}: {} cases ({positives} with findings, {} without)",
            cases.len(),
            cases.len() - positives
        );
        println!("| detector | TP | FP | FN | precision | recall |");
        println!("|---|---:|---:|---:|---:|---:|");
        for (id, c) in &per {
            total.tp += c.tp;
            total.fp += c.fp;
            total.fn_ += c.fn_;
            println!(
                "| `{id}` | {} | {} | {} | {:.3} | {:.3} |",
                c.tp,
                c.fp,
                c.fn_,
                c.precision(),
                c.recall()
            );
        }
        println!(
            "| **{family}** | {} | {} | {} | **{:.3}** | **{:.3}** |",
            total.tp,
            total.fp,
            total.fn_,
            total.precision(),
            total.recall()
        );
        // The misses first: a class below the bar fails the test below.
        if !misses.is_empty() {
            println!("{family} misses:\n{misses}");
        }
        println!("\n| {family}: class | TP | FP | FN | precision | recall |");
        println!("|---|---:|---:|---:|---:|---:|");
        for (class, c) in &classes {
            println!(
                "| {class} | {} | {} | {} | {:.3} | {:.3} |",
                c.tp,
                c.fp,
                c.fn_,
                c.precision(),
                c.recall()
            );
            assert!(
                c.precision() >= MIN_SCORE && c.recall() >= MIN_SCORE,
                "{family}, {class}: precision {:.3}, recall {:.3}",
                c.precision(),
                c.recall()
            );
        }
        for (id, c) in &per {
            assert!(c.tp > 0, "{corpus} has no positive case for `{id}`");
        }
        total
    }

    #[test]
    fn detect_quality_on_corpus() {
        let secrets = evaluate("secrets", SECRETS, "secrets.jsonl");
        let pii = evaluate("pii", PII, "pii.jsonl");
        for (family, c) in [("secrets", secrets), ("pii", pii)] {
            assert!(
                c.precision() >= MIN_SCORE && c.recall() >= MIN_SCORE,
                "{family}: precision {:.3}, recall {:.3}, both must be at least {MIN_SCORE}",
                c.precision(),
                c.recall()
            );
        }
    }

    /// Every finding of a detector alone (its pattern, then its validator)
    /// on the corpora is found by a whole engine that runs only that
    /// detector on a tool output: the stage's literal filter, the embedded
    /// plans, the confirmation and the decoding of base64 runs miss none
    /// of them.
    #[test]
    fn the_engine_finds_what_each_detector_finds_on_the_corpora() {
        let mut engines = BTreeMap::new();
        let mut checked = 0;
        for (family, detectors, file) in [
            ("secrets", SECRETS, "secrets.jsonl"),
            ("pii", PII, "pii.jsonl"),
        ] {
            let compiled = compiled(detectors);
            for case in load(file) {
                for id in fired(&compiled, &case.text) {
                    let engine = engines.entry(id.clone()).or_insert_with(|| {
                        let list = if family == "secrets" { "detectors" } else { "entities" };
                        crate::Engine::from_yaml_str(&format!(
                            "checks:\n  - {{ id: one, stage: [tool_output], type: {family}, {list}: [{id}], on_fail: block }}\n"
                        ))
                        .unwrap()
                    });
                    let request = palisade_protocol::CheckRequest::tool_output(
                        "read_file",
                        serde_json::Value::String(case.text.clone()),
                    );
                    assert_eq!(
                        engine.evaluate(&request).unwrap().decision,
                        palisade_protocol::DecisionKind::Block,
                        "{file}:{}: `{id}`: {:?}",
                        case.line,
                        case.text
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 750, "{checked} findings checked");
    }

    #[test]
    fn detectors_are_well_formed() {
        let mut ids = BTreeSet::new();
        for d in SECRETS.iter().chain(PII) {
            assert!(ids.insert(d.id), "duplicate id `{}`", d.id);
            assert!(
                d.id.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
                "`{}` is not snake_case",
                d.id
            );
            assert_eq!(d.placeholder, format!("[REDACTED:{}]", d.id));
            assert!(!d.description.is_empty());
            // The engine's own acceptance test for patterns: parses, cannot
            // match the empty string, fits the size limit.
            crate::pattern::compile(d.pattern).unwrap_or_else(|e| panic!("`{}`: {e}", d.id));
        }
        assert!(SECRETS.iter().all(|d| d.kind == Kind::Secret));
        assert!(PII.iter().all(|d| d.kind == Kind::Pii));
        assert!(SECRETS.len() >= 25);
        let entities = [
            "email",
            "phone",
            "credit_card",
            "us_ssn",
            "iban",
            "ip_address",
        ];
        assert_eq!(PII.iter().map(|d| d.id).collect::<Vec<_>>(), entities);
    }

    #[test]
    fn labels_round_trip() {
        for (i, d) in SECRETS.iter().enumerate() {
            assert_eq!(by_label(label(Kind::Secret, i)).map(|x| x.id), Some(d.id));
        }
        for (i, d) in PII.iter().enumerate() {
            assert_eq!(by_label(label(Kind::Pii, i)).map(|x| x.id), Some(d.id));
        }
        assert!(by_label(u32::MAX).is_none());
    }

    #[test]
    fn lookups() {
        assert_eq!(secret("github_pat").map(|d| d.id), Some("github_pat"));
        assert!(secret("email").is_none());
        assert_eq!(pii("iban").map(|d| d.id), Some("iban"));
        assert!(pii("github_pat").is_none());
    }

    /// A syntax tree as the builder calls that make it (`detect::tree`).
    fn render_hir(hir: &regex_syntax::hir::Hir) -> String {
        use regex_syntax::hir::{Class, HirKind};
        let ch = |c: char| format!("'\\u{{{:x}}}'", u32::from(c));
        match hir.kind() {
            HirKind::Empty => "Hir::empty()".to_owned(),
            HirKind::Literal(l) => format!("lit({})", bytes(&l.0)),
            HirKind::Class(Class::Unicode(c)) => {
                let r: Vec<String> = c
                    .ranges()
                    .iter()
                    .map(|r| format!("({}, {})", ch(r.start()), ch(r.end())))
                    .collect();
                format!("uni(&[{}])", r.join(", "))
            }
            HirKind::Class(Class::Bytes(c)) => {
                let r: Vec<String> = c
                    .ranges()
                    .iter()
                    .map(|r| format!("({}, {})", r.start(), r.end()))
                    .collect();
                format!("bytes(&[{}])", r.join(", "))
            }
            HirKind::Look(l) => format!("Hir::look(Look::{l:?})"),
            HirKind::Repetition(r) => format!(
                "rep({}, {:?}, {}, {})",
                r.min,
                r.max,
                r.greedy,
                render_hir(&r.sub)
            ),
            HirKind::Capture(c) => format!(
                "cap({}, {:?}, {})",
                c.index,
                c.name.as_deref(),
                render_hir(&c.sub)
            ),
            HirKind::Concat(subs) | HirKind::Alternation(subs) => {
                let f = if matches!(hir.kind(), HirKind::Concat(_)) {
                    "concat"
                } else {
                    "alternation"
                };
                let subs: Vec<String> = subs.iter().map(render_hir).collect();
                format!("Hir::{f}(vec![{}])", subs.join(", "))
            }
        }
    }

    /// A byte string literal.
    fn bytes(b: &[u8]) -> String {
        let mut out = String::from("b\"");
        for &c in b {
            match c {
                b'"' | b'\\' => write!(out, "\\{}", char::from(c)).unwrap(),
                b' '..=b'~' => out.push(char::from(c)),
                _ => write!(out, "\\x{c:02x}").unwrap(),
            }
        }
        out.push('"');
        out
    }

    /// The embedded plans as `detect/plans.rs` holds them: every built-in
    /// detector's parts, each with its tree and the plan worked out from
    /// it now.
    fn render_plans() -> String {
        use crate::pattern::plan::{Find, plan};
        let mut out = String::from(
            "//! The built-in detectors' plans ([`crate::pattern::plan`]), generated from\n\
             //! the detectors by `cargo xtask generate` (which runs\n\
             //! `detect::tests::embedded_plans_are_fresh`); do not edit.\n\n\
             use std::borrow::Cow;\n\n\
             use regex_syntax::hir::{Hir, Look};\n\n\
             use crate::pattern::plan::{Find, Literals, Plan};\n\n\
             use super::Embedded;\n\
             use super::tree::{BUILDERS};\n\n\
             pub(super) static PLANS: &[Embedded] = &[\n",
        );
        for d in SECRETS.iter().chain(PII) {
            for hir in &d.parts().unwrap() {
                let plan = plan(hir);
                let find = match &plan.find {
                    Find::Prefix { literals, folded } => format!(
                        "Find::Prefix {{ literals: Literals::embedded({}), folded: {folded} }}",
                        bytes(literals.packed())
                    ),
                    Find::Guard {
                        literals,
                        split,
                        lead,
                        head,
                        single_head,
                    } => {
                        let head = match head {
                            None => "None".to_owned(),
                            Some(ranges) => {
                                let ranges: Vec<String> = ranges
                                    .iter()
                                    .map(|&(a, b)| {
                                        format!(
                                            "('\\u{{{:x}}}', '\\u{{{:x}}}')",
                                            u32::from(a),
                                            u32::from(b)
                                        )
                                    })
                                    .collect();
                                format!("Some(Cow::Borrowed(&[{}]))", ranges.join(", "))
                            }
                        };
                        format!(
                            "Find::Guard {{ literals: Literals::embedded({}), split: {split}, lead: {lead}, head: {head}, single_head: {single_head} }}",
                            bytes(literals.packed())
                        )
                    }
                    Find::Gate { literals } => format!(
                        "Find::Gate {{ literals: Literals::embedded({}) }}",
                        bytes(literals.packed())
                    ),
                    Find::Residual { relaxed } => {
                        format!("Find::Residual {{ relaxed: {relaxed} }}")
                    }
                };
                writeln!(
                    out,
                    "    Embedded {{\n        id: {:?},\n        source: 0x{:016x},\n        hir: || {},\n        tree: 0x{:016x},\n        plan: Plan {{\n            single_line: {},\n            find: {find},\n        }},\n    }},",
                    d.id,
                    super::source_hash(d.pattern),
                    render_hir(hir),
                    crate::pattern::fingerprint(hir),
                    plan.single_line,
                )
                .unwrap();
            }
        }
        out.push_str("];\n");
        // Only the builders the trees call.
        let used: Vec<&str> = ["bytes", "cap", "lit", "rep", "uni"]
            .into_iter()
            .filter(|f| out.contains(&format!(" {f}(")) || out.contains(&format!("({f}(")))
            .collect();
        out.replacen("BUILDERS", &used.join(", "), 1)
    }

    /// The embedded plans are the ones the detectors' trees give today, and
    /// every built-in pattern takes its plan from the binary.
    #[test]
    fn embedded_plans_are_fresh() {
        if !crate::generated::fresh(
            "PALISADE_WRITE_PLANS",
            "detect/plans.rs",
            include_str!("detect/plans.rs"),
            &render_plans(),
            "embedded_plans_are_fresh",
        ) {
            return;
        }
        for d in SECRETS.iter().chain(PII) {
            for (part, p) in d.patterns().unwrap().iter().enumerate() {
                assert!(
                    p.is_planned(),
                    "`{}` part {part} has no embedded plan",
                    d.id
                );
                assert!(
                    p.hir() == &d.parts().unwrap()[part],
                    "`{}` part {part}: the embedded tree is not the parsed one",
                    d.id
                );
                assert_eq!(
                    p.plan(),
                    &crate::pattern::plan::plan(p.hir()),
                    "`{}` part {part}",
                    d.id
                );
            }
        }
    }

    /// A detector whose pattern is not the one embedded is parsed, and
    /// its plan worked out from its own tree.
    #[test]
    fn a_changed_pattern_is_parsed_not_taken_from_the_binary() {
        let embedded = SECRETS.iter().find(|d| d.id == "github_pat").unwrap();
        let changed = Detector {
            pattern: r"\bgithub_pat_[A-Za-z0-9_]{20,}\b",
            ..detector!("github_pat", Secret, "", None, "changed")
        };
        assert!(embedded.patterns().unwrap().iter().all(|p| p.is_planned()));
        let patterns = changed.patterns().unwrap();
        assert_eq!(patterns.len(), 1);
        assert!(!patterns[0].is_planned());
        assert!(patterns[0].hir() == &changed.parts().unwrap()[0]);
        assert!(matches!(
            patterns[0].plan().find,
            crate::pattern::plan::Find::Prefix { .. }
        ));
    }

    /// How the scanner filters each detector's alternatives: on prefix
    /// literals, on a guard's literals (a name's word, grown backwards),
    /// on a required inner literal, or in the lazy DFA. Printed with
    /// `--nocapture`; the name-matching detectors must filter on literals.
    #[test]
    fn literal_filtering() {
        use crate::pattern::{guard, prefixes, required_factors};
        let show = |set: &[Vec<u8>]| {
            set.iter()
                .take(6)
                .map(|l| String::from_utf8_lossy(l).into_owned())
                .collect::<Vec<_>>()
        };
        let mut report = String::new();
        for d in SECRETS.iter().chain(PII) {
            for (i, hir) in d.parts().unwrap().iter().enumerate() {
                let how = if let Some(p) = prefixes(hir) {
                    format!("prefix ({}) {:?}", p.len(), show(&p))
                } else if let Some(g) = guard(hir) {
                    format!("guard ({}) {:?}", g.prefixes.len(), show(&g.prefixes))
                } else if let Some(f) = required_factors(hir) {
                    format!("gate ({}) {:?}", f.len(), show(&f))
                } else {
                    "lazy DFA".to_owned()
                };
                if matches!(
                    d.id,
                    "password_assignment"
                        | "secret_assignment"
                        | "credential_argument"
                        | "xml_credential"
                ) {
                    assert!(
                        how.starts_with("prefix") || how.starts_with("guard"),
                        "`{}` alternative {i} is not filtered on literals: {how}",
                        d.id
                    );
                }
                writeln!(report, "  {} [{i}]: {how}", d.id).unwrap();
            }
        }
        println!("literal filtering:\n{report}");
    }

    /// A small deterministic generator (xorshift64*) for the generated
    /// cases below: the same cases on every run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
            items[self.below(items.len())]
        }
    }

    /// A password as generators make them: 10–32 characters of letters,
    /// digits and a random share of the keyboard's symbols, at least one
    /// symbol.
    fn generated_password(rng: &mut Rng) -> String {
        const SYMBOLS: &[u8] = b"!#$%&()*+,-./:;<=>?@[]^_{|}~";
        const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        let symbols: Vec<u8> = SYMBOLS
            .iter()
            .copied()
            .filter(|_| rng.below(3) > 0)
            .collect();
        let len = 10 + rng.below(23);
        loop {
            let v: String = (0..len)
                .map(|_| {
                    if !symbols.is_empty() && rng.below(4) == 0 {
                        char::from(symbols[rng.below(symbols.len())])
                    } else {
                        char::from(ALNUM[rng.below(ALNUM.len())])
                    }
                })
                .collect();
            if v.bytes().any(|b| SYMBOLS.contains(&b)) {
                return v;
            }
        }
    }

    /// `value` assigned to `name` in one of the syntaxes configuration and
    /// code use, or `None` when the syntax cannot hold the value as is.
    fn assign(rng: &mut Rng, name: &str, value: &str) -> Option<String> {
        let has = |chars: &[char]| value.contains(chars);
        let lower = name.to_ascii_lowercase();
        Some(match rng.below(11) {
            0 if !has(&['\'']) => format!("export {name}='{value}'"),
            1 if !has(&['"', '$', '`', '\\']) => format!("{name}=\"{value}\""),
            2 if !has(&[
                ' ', '#', '\'', '"', '\\', '$', '`', ';', '|', '<', '>', '(', ')', '&',
            ]) =>
            {
                format!("{name}={value}")
            }
            3 => format!("{lower}: '{}'", value.replace('\'', "''")),
            4 => format!("  {}", serde_json::json!({ name: value })),
            5 if !has(&['\'', '\\']) => format!("{lower} = '{value}'"),
            6 => {
                let encoded: String = value
                    .bytes()
                    .map(|b| {
                        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                            char::from(b).to_string()
                        } else {
                            format!("%{b:02X}")
                        }
                    })
                    .collect();
                format!("DATABASE_URL=postgresql://app:{encoded}@db.internal:5432/app")
            }
            7 if !has(&[';']) => format!("Server=db;Database=app;User Id=app;Password={value};"),
            8 if !has(&['"', '\\']) => format!("[database]\n{lower} = \"{value}\""),
            9 if !has(&['<', '&']) => format!("<{name}>{value}</{name}>"),
            10 if !has(&['\'']) => format!("mytool --db-password '{value}' --verbose"),
            _ => return None,
        })
    }

    const PASSWORD_NAMES: &[&str] = &[
        "DB_PASSWORD",
        "password",
        "PGPASSWORD",
        "MYSQL_ROOT_PASSWORD",
        "redisPassword",
        "SMTP_PASS",
        "db_pass",
        "POSTGRES_PASSWORD",
        "passwd",
        "admin_passphrase",
    ];

    /// Generated passwords assigned in shell, `.env`, YAML, JSON, Python,
    /// TOML, XML, URLs, connection strings and command lines are found:
    /// whatever symbols they hold (`!OK2Ag8.-wc!VLZRfu~` starts like a
    /// YAML tag, `$Hq…` like a variable, `Wj]*C&…` holds brackets).
    #[test]
    fn generated_password_assignments_are_found() {
        let secrets = compiled(SECRETS);
        let mut rng = Rng(0x5eed_0003);
        let (mut cases, mut missed) = (0, Vec::new());
        while cases < 3000 {
            let value = generated_password(&mut rng);
            let name = rng.pick(PASSWORD_NAMES);
            let Some(text) = assign(&mut rng, name, &value) else {
                continue;
            };
            cases += 1;
            if fired(&secrets, &text).is_empty() {
                missed.push(text);
            }
        }
        println!("{} of {cases} generated assignments missed", missed.len());
        for m in &missed {
            println!("  {m}");
        }
        // A few in ten thousand: `...` inside a password reads as an
        // ellipsis, a run of letters as a variable's name.
        assert!(missed.len() * 1000 <= cases * 2, "{missed:#?}");
    }

    /// Values that a password name holds without being a password, in the
    /// same syntaxes: references, code, placeholders, schemes and hashes.
    #[test]
    fn password_look_alikes_are_not_found() {
        let secrets = compiled(SECRETS);
        let values = [
            "${DB_PASSWORD}",
            "$(cat /run/secrets/db_password)",
            "$DB_PASSWORD",
            "%DB_PASSWORD%",
            "{{ .Values.db.password }}",
            "os.getenv(\"DB_PASSWORD\")",
            "config[\"db\"][\"password\"]",
            "std::env::var(\"DB_PASSWORD\")",
            "Option<String>",
            "{password}",
            "<your-db-password>",
            "[REDACTED]",
            "scram-sha-256",
            "argon2id",
            "pbkdf2_sha256",
            "sha512_crypt",
            "bcrypt_sha256",
            "{SSHA512}",
            "mysql_native_password",
            "$2y$10$j2tdct5jW9ijlZwDXEvUIbiP0dExJ5xqen3bqvInugqDCEzwpkX7l",
            "$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG",
            "{cipher}AQBa8f3kLm2Qz9xW1vB7nR4tY6uI0oP5aS3d",
            "/run/secrets/db_password",
            "********",
        ];
        let mut rng = Rng(0x5eed_0004);
        let mut found = Vec::new();
        for value in values {
            for _ in 0..12 {
                let name = rng.pick(PASSWORD_NAMES);
                if let Some(text) = assign(&mut rng, name, value)
                    && !text.starts_with("DATABASE_URL")
                    && fired(&secrets, &text).contains("password_assignment")
                {
                    found.push(text);
                }
            }
        }
        assert!(found.is_empty(), "{found:#?}");
        // Names that say which scheme stores passwords.
        for text in [
            "#password_encryption = scram-sha-256",
            "password_hash_algo: argon2id",
            "PASSWORD_HASHER=argon2id",
            "password_scheme = bcrypt",
            "password_hashing: pbkdf2_sha256",
            "PASSWORD_ALGORITHM=sha512_crypt",
            "password_storage_scheme: SSHA512",
            "ANTHROPIC_API_KEY=sk-ant-api03-abc123",
            "OPENAI_API_KEY=sk-proj-abc123def456",
            "GITLAB_TOKEN=glpat-abc123def456",
            "aws_secret_access_key=abc123def456ghi789jkl012mno345pqr678stu9",
        ] {
            assert!(fired(&secrets, text).is_empty(), "{text}");
        }
    }

    /// Forms found from a word rather than a fixed start: the context word
    /// of AWS keys in prose with each separator, XML elements named by
    /// their last word, options of any depth.
    #[test]
    fn forms_found_from_a_word() {
        let secrets = compiled(SECRETS);
        let key = "wrIQcVawSduczmu38jswn1sIOTmk9AC0SHopkxXu";
        for sep in [" ", "\t", "_", ".", ",", ";", ":", "=", "/", "-", "\"", "'"] {
            let text = format!("AWS{sep} ci uses {key} today");
            assert!(
                fired(&secrets, &text).contains("aws_secret_access_key"),
                "{text:?}"
            );
        }
        assert!(
            !fired(&secrets, &format!("lawsuit ci uses {key} today"))
                .contains("aws_secret_access_key")
        );
        for text in [
            "<smtpPassword>Fake#Pa55!Palisade</smtpPassword>",
            "<db.PASSWORD>Fake#Pa55!Palisade</db.PASSWORD>",
            "mytool --db-admin-password 'Fake#Pa55!Palisade'",
            "7z x -pFake#Pa55!Palisade backup.7z",
            "7z -pFake#Pa55!Palisade a backup.7z",
            "zip -P Fake#Pa55!Palisade backup.zip db.sql",
            "bcp.exe dbo.t out t.dat -S db -U sa -P Fake#Pa55!Palisade",
        ] {
            let got = fired(&secrets, text);
            assert!(
                got.contains("xml_credential") || got.contains("credential_argument"),
                "{text:?}: {got:?}"
            );
        }
        for text in [
            "smtpPassword>Fake#Pa55!Palisade</smtpPassword>",
            "set db-admin-password Fake#Pa55!Palisade",
            "7zip -pFake#Pa55!Palisade",
        ] {
            let got = fired(&secrets, text);
            assert!(
                !got.contains("xml_credential") && !got.contains("credential_argument"),
                "{text:?}: {got:?}"
            );
        }
        // A Teams webhook is matched from its tenant's host on; a URL
        // without one is not a webhook.
        let path = "/webhookb2/3f1a2b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b@7e8f9a0b-1c2d-4e3f-9a4b-5c6d7e8f9a0b\
                    /IncomingWebhook/9b1f4e7a2c8d4f6e8a3b5c7d9e1f2a4b/0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
        let (teams, parts) = secrets
            .iter()
            .find(|(d, _)| d.id == "teams_webhook_url")
            .unwrap();
        let url = format!("POST https://contoso-dev.webhook.office.com{path} done");
        let m = &url[parts[0].find(&url).unwrap().range()];
        assert!(m.starts_with("contoso-dev.webhook"), "{m:?}");
        assert!(teams.accepts(m));
        let hostless = format!("POST https://.webhook.office.com{path} done");
        assert!(!fired(&secrets, &hostless).contains("teams_webhook_url"));
    }

    /// Prints the detectors that fire on each JSON string (one per line)
    /// of the file `DETECT_PROBE` names: for trying texts by hand.
    #[test]
    #[ignore = "needs DETECT_PROBE"]
    fn probe() {
        let path = std::env::var("DETECT_PROBE").expect("set DETECT_PROBE");
        let compiled: Vec<_> = compiled(SECRETS).into_iter().chain(compiled(PII)).collect();
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let Ok(text) = serde_json::from_str::<String>(line) else {
                continue;
            };
            println!("{:?} <- {}", fired(&compiled, &text), text.escape_debug());
        }
    }

    /// Every finding in every file under `$DETECT_SCAN_DIR`, counted per
    /// detector with a few samples: a check of precision on real text that
    /// should hold few secrets (source trees, documentation).
    #[test]
    #[ignore = "needs DETECT_SCAN_DIR"]
    fn scan_directory() {
        fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, out);
                } else {
                    out.push(path);
                }
            }
        }
        let root = std::env::var("DETECT_SCAN_DIR").expect("set DETECT_SCAN_DIR");
        let mut files = Vec::new();
        walk(std::path::Path::new(&root), &mut files);
        let compiled: Vec<_> = compiled(SECRETS).into_iter().chain(compiled(PII)).collect();
        let mut found: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        let mut bytes = 0;
        for file in &files {
            let Ok(text) = std::fs::read_to_string(file) else {
                continue;
            };
            bytes += text.len();
            for (d, parts) in &compiled {
                for m in parts.iter().flat_map(|re| re.find_iter(&text)) {
                    let matched = &text[m.range()];
                    if d.accepts(matched) {
                        let short: String = matched.chars().take(80).collect();
                        found.entry(d.id).or_default().push(format!(
                            "{}: {}",
                            file.display(),
                            short.escape_debug()
                        ));
                    }
                }
            }
        }
        println!("{} files, {} MB", files.len(), bytes / 1_000_000);
        for (id, hits) in &found {
            println!("{id}: {}", hits.len());
            for h in hits.iter().take(10) {
                println!("    {h}");
            }
        }
    }
}
