//! Streaming: scanning a model's answer as it arrives, delta by delta.
//!
//! The blocklist words of the stage run in one Aho-Corasick DFA and all its
//! regex patterns in one multi-pattern lazy DFA (relaxed as in
//! the `pattern` module, so it never gives up on non-ASCII text). Both
//! are stepped over each new byte and carry their state across deltas: a
//! match that spans a delta boundary is found, and no byte is looked at twice
//! by the automata. A pattern the DFA
//! reports is confirmed on the retained text (a window no longer than the
//! pattern's longest match, or a bounded window for unbounded patterns), at
//! most until the check has hit once. [`StreamScanner::finish`] evaluates
//! the whole answer once more with the exact engine, so the final decision is
//! exactly the whole-text decision whatever the chunking.

use aho_corasick::automaton::Automaton;
use palisade_protocol::{CheckRequest, Decision, Stage};
use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::util::start;
use regex_automata::{Anchored, Input};

use super::{Field, FieldKind, Hit, build};
use crate::engine::Engine;
use crate::error::RequestError;
use crate::scan::NO_LABEL;
use crate::scan::stream::{StreamAutomaton, Target, UNBOUNDED_WINDOW, WordAutomaton};
use crate::scan::whole_word_at;

/// Scans one streamed answer. Made by [`Engine::stream`].
///
/// ```
/// use palisade_engine::Engine;
/// use palisade_protocol::{CheckRequest, DecisionKind};
///
/// let engine = Engine::from_json_str(r#"{"checks": [
///   {"id": "leak", "stage": "output", "type": "blocklist", "words": ["the admin password is"]}
/// ]}"#)?;
/// let mut stream = engine.stream(&CheckRequest::output(""))?;
/// assert!(stream.push("Sure! The admin pass").is_none());
/// let update = stream.push("word is hunter2").expect("the block is reported at once");
/// assert_eq!(update.decision, DecisionKind::Block);
/// let last = stream.finish();
/// assert_eq!(last.is_final, Some(true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct StreamScanner<'e> {
    engine: &'e Engine,
    automaton: &'e StreamAutomaton,
    request: CheckRequest,
    stage: Stage,
    active: Vec<bool>,
    text: String,
    cache: Option<Cache>,
    state: Option<LazyStateID>,
    word_state: Option<aho_corasick::automaton::StateID>,
    /// Whole-word candidates that end where the text ends so far.
    deferred: Vec<(bool, usize, usize)>,
    /// Checks that have hit (each is reported once).
    hit: Vec<bool>,
    hits: Vec<Hit>,
    /// Bytes of retained text spent confirming patterns, per target.
    spent: Vec<usize>,
    blocked: bool,
    /// The automaton could not go on (cache exhausted): only `finish` decides.
    degraded: bool,
}

impl Engine {
    /// Starts scanning a streamed answer. The request gives the context (stage
    /// `output` or `input`, ids, `checks`, options); its `content`, if any, is
    /// the beginning of the text.
    pub fn stream(&self, request: &CheckRequest) -> Result<StreamScanner<'_>, RequestError> {
        request.validate().map_err(RequestError::Invalid)?;
        let stage = request.effective_stage();
        if !matches!(stage, Stage::Output | Stage::Input) {
            return Err(RequestError::Invalid(vec![palisade_protocol::Problem {
                pointer: "/stage".into(),
                message: format!(
                    "streaming scans text at stages `output` and `input`, not `{stage}`"
                ),
            }]));
        }
        let active = self.active(request, stage)?;
        let data = self.stage_data(stage)?;
        let automaton = data
            .stream
            .get_or_init(|| StreamAutomaton::build(self.policy.texts(&data.checks)));
        let automaton = match automaton {
            Ok(a) => a,
            Err(e) => {
                return Err(RequestError::Invalid(vec![palisade_protocol::Problem {
                    pointer: String::new(),
                    message: e.clone(),
                }]));
            }
        };
        let mut request = request.clone();
        let initial = request.content.take().unwrap_or_default();
        let cache = automaton.dfa.as_ref().map(DFA::create_cache);
        let mut scanner = StreamScanner {
            engine: self,
            automaton,
            request,
            stage,
            active,
            text: String::new(),
            cache,
            state: None,
            word_state: None,
            deferred: Vec::new(),
            hit: vec![false; self.policy.checks.len()],
            hits: Vec::new(),
            spent: vec![0; automaton.regex_targets.len()],
            blocked: false,
            degraded: false,
        };
        if let Some(words) = &automaton.words {
            // Without its automaton (over every size limit), the stream is
            // decided by `finish` on the whole text.
            match words.automaton() {
                Ok(WordAutomaton::Dfa(a)) => {
                    scanner.word_state = a.start_state(aho_corasick::Anchored::No).ok();
                }
                Ok(WordAutomaton::Nfa(a)) => {
                    scanner.word_state = a.start_state(aho_corasick::Anchored::No).ok();
                }
                Err(_) => scanner.degraded = true,
            }
        }
        if let (Some(dfa), Some(cache)) = (automaton.dfa.as_ref(), scanner.cache.as_mut()) {
            let config = start::Config::new().anchored(Anchored::No);
            match dfa.start_state(cache, &config) {
                Ok(s) => scanner.state = Some(s),
                Err(_) => scanner.degraded = true,
            }
        }
        scanner.push(&initial);
        Ok(scanner)
    }
}

/// Steps the word automaton over `bytes` (which start at offset `from` of
/// the text), queueing each word that ends; returns the state after them.
fn step_words(
    words: &impl Automaton,
    mut sid: aho_corasick::automaton::StateID,
    bytes: &[u8],
    from: usize,
    pending: &mut Vec<(bool, usize, usize)>,
) -> aho_corasick::automaton::StateID {
    // The automaton sees the Kelvin sign as `k` and the long s as `s`
    // (see `fold`); a match still ends at an offset of the text.
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let (fed, last) = match (b, bytes.get(i + 1), bytes.get(i + 2)) {
            (0xE2, Some(0x84), Some(0xAA)) => (b'k', i + 2),
            (0xC5, Some(0xBF), _) => (b's', i + 1),
            _ => (b, i),
        };
        sid = words.next_state(aho_corasick::Anchored::No, sid, fed);
        if words.is_special(sid) && words.is_match(sid) {
            for k in 0..words.match_len(sid) {
                pending.push((
                    true,
                    words.match_pattern(sid, k).as_usize(),
                    from + last + 1,
                ));
            }
        }
        i = last + 1;
    }
    sid
}

impl StreamScanner<'_> {
    /// Feeds the next piece of text. Returns the updated decision when the
    /// findings changed (a new check hit), `None` otherwise. After a block,
    /// further text is retained but not scanned.
    #[expect(
        clippy::indexing_slicing,
        reason = "target and check indices come from the stream automaton built with these tables, one entry per target or check"
    )]
    pub fn push(&mut self, delta: &str) -> Option<Decision> {
        let from = self.text.len();
        self.text.push_str(delta);
        if self.blocked || self.degraded || delta.is_empty() {
            return None;
        }
        let before = self.hits.len();
        // (is a word, target, end); candidates waiting for this delta come first.
        let mut pending: Vec<(bool, usize, usize)> = std::mem::take(&mut self.deferred);
        if let (Some(words), Some(sid)) = (self.automaton.words.as_ref(), self.word_state) {
            let bytes = &self.text.as_bytes()[from..];
            self.word_state = match words.automaton() {
                Ok(WordAutomaton::Dfa(a)) => Some(step_words(a, sid, bytes, from, &mut pending)),
                Ok(WordAutomaton::Nfa(a)) => Some(step_words(a, sid, bytes, from, &mut pending)),
                Err(_) => None,
            };
        }
        if let (Some(dfa), Some(mut state), Some(cache)) =
            (self.automaton.dfa.as_ref(), self.state, self.cache.as_mut())
        {
            let bytes = self.text.as_bytes();
            for (i, &b) in bytes.iter().enumerate().skip(from) {
                state = match dfa.next_state(cache, state, b) {
                    Ok(s) => s,
                    Err(_) => {
                        self.degraded = true;
                        return None;
                    }
                };
                if state.is_tagged() && state.is_match() {
                    // The match ended just before this byte.
                    for k in 0..dfa.match_len(cache, state) {
                        pending.push((false, dfa.match_pattern(cache, state, k).as_usize(), i));
                    }
                }
            }
            // A match of a pattern without look-around that ends exactly here is final.
            if let Ok(eoi) = dfa.next_eoi_state(cache, state)
                && eoi.is_match()
            {
                for k in 0..dfa.match_len(cache, eoi) {
                    let t = dfa.match_pattern(cache, eoi, k).as_usize();
                    if self.automaton.lookless[t] {
                        pending.push((false, t, bytes.len()));
                    }
                }
            }
            self.state = Some(state);
        }
        for (word, t, end) in pending {
            self.confirm(word, t, end);
        }
        (self.hits.len() > before).then(|| self.decision())
    }

    /// Confirms a target the relaxed automaton reported as ending at `end`.
    #[expect(
        clippy::indexing_slicing,
        reason = "target and check indices come from the stream automaton built with these tables, one entry per target or check"
    )]
    fn confirm(&mut self, word: bool, t: usize, end: usize) {
        let target = if word {
            &self.automaton.word_targets[t]
        } else {
            &self.automaton.regex_targets[t]
        };
        let check = target.check();
        if !self.active[check as usize] || self.hit[check as usize] {
            return;
        }
        let needs_next = match target {
            Target::Word { whole, .. } | Target::Regex { whole, .. } => *whole,
        };
        if needs_next && end >= self.text.len() {
            // Whether a word character follows is only known with the next delta.
            self.deferred.push((word, t, end));
            return;
        }
        let text = self.text.as_str();
        let label = match target {
            Target::Regex { label, .. } => *label,
            Target::Word { .. } => NO_LABEL,
        };
        let span = match target {
            Target::Word {
                bytes,
                case_insensitive,
                whole,
                ..
            } => {
                // One character of text per byte of the word (the Kelvin sign
                // and the long s are one character each).
                let Some(start) = text[..end]
                    .char_indices()
                    .rev()
                    .nth(bytes.len() - 1)
                    .map(|(i, _)| i)
                else {
                    return;
                };
                let span = &text[start..end];
                let same = if *case_insensitive {
                    crate::scan::fold::eq_folded(span, bytes)
                } else {
                    span.as_bytes() == &**bytes
                };
                if !same || (*whole && !whole_word_at(text, start, end)) {
                    return;
                }
                Some((start, end))
            }
            Target::Regex {
                exact,
                max_len,
                whole,
                validate,
                ..
            } => {
                let reach = max_len.unwrap_or(UNBOUNDED_WINDOW).min(UNBOUNDED_WINDOW);
                let mut lo = end.saturating_sub(reach);
                while !text.is_char_boundary(lo) {
                    lo -= 1;
                }
                // Confirmation work is bounded by a multiple of the text seen;
                // past that, `finish` decides.
                let budget = 8 * text.len() + 64 * 1024;
                if self.spent[t] + (end - lo) > budget {
                    return;
                }
                self.spent[t] += end - lo;
                let input = Input::new(text).span(lo..end);
                // A regex that cannot be compiled leaves it to `finish`,
                // which fails closed.
                let Some(exact) = exact.get() else {
                    return;
                };
                exact
                    .find_iter(input)
                    .find(|m| {
                        (!*whole || whole_word_at(text, m.start(), m.end()))
                            && validate.is_none_or(|v| v(&text[m.start()..m.end()]))
                    })
                    .map(|m| (m.start(), m.end()))
            }
        };
        if let Some((start, end)) = span {
            self.hit[check as usize] = true;
            self.hits.push(Hit {
                check,
                field: 0,
                start,
                end,
                label,
            });
            let on_fail = self.engine.policy.checks[check as usize].on_fail;
            let action = on_fail.effective(self.engine.policy.mode);
            if action == palisade_protocol::FindingAction::Block
                || (action == palisade_protocol::FindingAction::Ask
                    && !self.request.is_interactive())
            {
                self.blocked = true;
            }
        }
    }

    /// The decision for the text so far.
    pub fn decision(&self) -> Decision {
        let fields = [Field::new("/content", FieldKind::Content)];
        let mut request = self.request.clone();
        request.content = Some(self.text.clone());
        build(self.engine, &request, self.stage, &self.hits, &fields, &[])
    }

    /// Whether the stream has been blocked.
    pub fn is_blocked(&self) -> bool {
        self.blocked
    }

    /// The text received so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Ends the stream: evaluates the whole answer exactly and returns the
    /// final decision (`final: true`).
    pub fn finish(self) -> Decision {
        let mut request = self.request;
        request.content = Some(self.text);
        let mut decision = match self.engine.evaluate(&request) {
            Ok(d) => d,
            // The request was validated when the stream started.
            Err(e) => Decision::error(
                request
                    .request_id
                    .clone()
                    .unwrap_or_else(crate::time::clock::new_id),
                "request.invalid",
                e.to_string(),
            ),
        };
        decision.is_final = Some(true);
        decision
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The NFA a policy's words fall back on when their DFA is over its
    /// size limit finds what the DFA finds, delta by delta.
    #[test]
    fn the_word_nfa_steps_like_the_word_dfa() {
        let words: Vec<&[u8]> = vec![b"drop table", b"kelvin", b"secret", b"ssh"];
        let dfa = aho_corasick::dfa::DFA::builder()
            .ascii_case_insensitive(true)
            .build(&words)
            .unwrap();
        let nfa = aho_corasick::nfa::contiguous::NFA::builder()
            .ascii_case_insensitive(true)
            .build(&words)
            .unwrap();
        let text =
            "please DROP TABLE x; the \u{212A}elvin sign, a ſecret, a \u{17F}sh key, drop table";
        let deltas: Vec<&str> = {
            let mut out = Vec::new();
            let mut rest = text;
            while !rest.is_empty() {
                let mut n = 7.min(rest.len());
                while !rest.is_char_boundary(n) {
                    n += 1;
                }
                out.push(&rest[..n]);
                rest = &rest[n..];
            }
            out
        };
        fn run(words: &impl Automaton, deltas: &[&str]) -> Vec<(bool, usize, usize)> {
            let mut sid = words.start_state(aho_corasick::Anchored::No).unwrap();
            let (mut from, mut found) = (0, Vec::new());
            for d in deltas {
                sid = step_words(words, sid, d.as_bytes(), from, &mut found);
                from += d.len();
            }
            found
        }
        let (by_dfa, by_nfa) = (run(&dfa, &deltas), run(&nfa, &deltas));
        assert_eq!(by_dfa, by_nfa);
        let words: Vec<usize> = by_dfa.iter().map(|&(_, w, _)| w).collect();
        assert_eq!(words, [0, 1, 2, 3, 0], "{by_dfa:?}");
        // Each ends at its offset in the text, the folded signs included.
        assert!(by_dfa.iter().all(|&(_, _, end)| text.is_char_boundary(end)));
        assert_eq!(by_dfa[1].2, text.find(" sign").unwrap());
    }
}
