//! What the shell does to a word before it runs: brace expansion and
//! splitting at `$IFS` are applied (they only need the word), and what
//! depends on running the shell (variables, substitutions, globs) is noted.

/// A word being read.
#[derive(Default)]
pub(super) struct Word {
    /// Its bytes after quote removal.
    pub(super) bytes: Vec<u8>,
    /// The word as a shell would read it again (a `-c` argument, a
    /// here-string, …), when that differs from `bytes`: substitutions read
    /// where they stand are replaced by [`PLACEHOLDER`].
    pub(super) script: Option<Vec<u8>>,
    /// How many bytes preceded the first quoted or escaped character.
    pub(super) quoted_at: Option<usize>,
    /// Where the last expansion or substitution of the word ends, in
    /// `bytes`: the text before it depends on running the shell.
    pub(super) dyn_end: Option<usize>,
    /// Unquoted `*`, `?`, `[`, `]`, `{`, `,` and `}` of the word, by their
    /// offset in `bytes`.
    pub(super) specials: Vec<(usize, u8)>,
    /// Unquoted `$IFS` expansions, by their range in `bytes`: the shell
    /// splits the word there.
    pub(super) ifs: Vec<(usize, usize)>,
}

/// How many words brace expansion may make of one word; beyond that the
/// word is kept as written and its name counts as unknown.
const MAX_BRACE_WORDS: usize = 64;

/// How many unquoted braces and commas a word may hold for brace expansion
/// to be tried (it costs time quadratic in them).
const MAX_BRACE_MARKS: usize = 128;

/// Whether the base name of a word (the part after its last `/`) depends on
/// an expansion, a substitution or an unquoted glob: run as a command, the
/// program it names cannot be known without running the shell.
pub(super) fn name_is_dynamic(word: &Word) -> bool {
    let mut end = word.dyn_end.unwrap_or(0);
    let mut dynamic = word.dyn_end.is_some();
    for (k, &(at, b)) in word.specials.iter().enumerate() {
        let glob = match b {
            b'*' | b'?' => true,
            // `[` is a glob only when a `]` closes it (`[ -f x ]` runs `[`).
            b'[' => word.specials.iter().skip(k + 1).any(|&(_, c)| c == b']'),
            _ => false,
        };
        if glob {
            dynamic = true;
            end = end.max(at + 1);
        }
    }
    dynamic
        && !word
            .bytes
            .get(end..)
            .is_some_and(|rest| rest.contains(&b'/'))
}

/// Whether a word given as text (split from a string, made by brace
/// expansion) names its program through an expansion or a glob. Quoting is
/// gone by then, so a quoted `$` counts too: that fails closed.
pub(super) fn text_is_dynamic(word: &str) -> bool {
    let base = word.rsplit('/').next().unwrap_or(word);
    base.contains(['$', '`', '*', '?']) || (base.contains('[') && base.contains(']'))
}

/// The words a word becomes: brace expansion, then splitting at unquoted
/// `$IFS`, each with whether its name is dynamic.
pub(super) fn expand_word(word: &Word) -> Vec<(String, bool)> {
    let braces: Vec<usize> = word
        .specials
        .iter()
        .filter(|(_, b)| matches!(b, b'{' | b',' | b'}'))
        .map(|&(at, _)| at)
        .collect();
    if braces.len() > MAX_BRACE_MARKS {
        return vec![(String::from_utf8_lossy(&word.bytes).into_owned(), true)];
    }
    if !braces.is_empty() && word.ifs.is_empty() {
        let mut out = Vec::new();
        match brace_expand(&word.bytes, &braces, &mut out) {
            Ok(()) if out.len() > 1 || out.first().is_some_and(|w| w != &word.bytes) => {
                return out
                    .into_iter()
                    .filter(|w| !w.is_empty())
                    .map(|w| {
                        let text = String::from_utf8_lossy(&w).into_owned();
                        let dynamic = word.dyn_end.is_some() && text_is_dynamic(&text)
                            || text.contains(['*', '?']);
                        (text, dynamic)
                    })
                    .collect();
            }
            Ok(()) => {}
            // Too many words: the name cannot be told.
            Err(()) => return vec![(String::from_utf8_lossy(&word.bytes).into_owned(), true)],
        }
    }
    if word.ifs.is_empty() {
        return vec![(
            String::from_utf8_lossy(&word.bytes).into_owned(),
            name_is_dynamic(word) || has_sequence(&word.bytes, &braces),
        )];
    }
    let mut out = Vec::new();
    let mut from = 0;
    for &(start, end) in word
        .ifs
        .iter()
        .chain(std::iter::once(&(word.bytes.len(), word.bytes.len())))
    {
        let piece = word.bytes.get(from..start).unwrap_or_default();
        if !piece.is_empty() {
            let sub = Word {
                bytes: piece.to_vec(),
                dyn_end: word
                    .dyn_end
                    .filter(|&e| e > from && e <= start)
                    .map(|e| e - from)
                    // An expansion that ended before this piece is not in it,
                    // but one inside it (not `$IFS`) is.
                    .or_else(|| other_expansion(word, from, start).then_some(piece.len())),
                specials: word
                    .specials
                    .iter()
                    .filter(|(at, _)| *at >= from && *at < start)
                    .map(|&(at, b)| (at - from, b))
                    .collect(),
                ..Word::default()
            };
            let text = String::from_utf8_lossy(piece).into_owned();
            out.push((text, name_is_dynamic(&sub)));
        }
        from = end;
    }
    out
}

/// Whether a word's last expansion (other than `$IFS`) could lie in
/// `from..to`: the word records only where the last one ends, so any
/// piece before it counts when the last one is an `$IFS`.
fn other_expansion(word: &Word, from: usize, to: usize) -> bool {
    let Some(end) = word.dyn_end else {
        return false;
    };
    let last_ifs = word.ifs.last().map(|&(_, e)| e);
    // The last expansion is an `$IFS`: an earlier one may be anywhere
    // before it. Text with `$` or a backtick in the piece is suspect.
    last_ifs == Some(end)
        && word
            .bytes
            .get(from..to)
            .is_some_and(|p| p.contains(&b'$') || p.contains(&b'`'))
}

/// Whether the word holds a brace sequence (`{1..3}`, `{a..z}`), which
/// is not expanded here.
#[expect(
    clippy::indexing_slicing,
    reason = "pairs hold two offsets into the word, found by scanning it"
)]
fn has_sequence(bytes: &[u8], braces: &[usize]) -> bool {
    braces.windows(2).any(|w| {
        let (a, b) = (w[0], w[1]);
        bytes.get(a) == Some(&b'{')
            && bytes.get(b) == Some(&b'}')
            && bytes
                .get(a + 1..b)
                .is_some_and(|inner| inner.windows(2).any(|p| p == b".."))
    })
}

/// Bash's brace expansion over the unquoted `{`, `,` and `}` at `marks`:
/// the first `{` whose matching `}` encloses a `,` at its own level is
/// expanded, then each result again. Fails beyond [`MAX_BRACE_WORDS`].
#[expect(
    clippy::indexing_slicing,
    reason = "pairs hold two offsets into the word, found by scanning it"
)]
fn brace_expand(bytes: &[u8], marks: &[usize], out: &mut Vec<Vec<u8>>) -> Result<(), ()> {
    if out.len() >= MAX_BRACE_WORDS {
        return Err(());
    }
    for (k, &open) in marks.iter().enumerate() {
        if bytes.get(open) != Some(&b'{') {
            continue;
        }
        let mut level = 0usize;
        let mut commas = Vec::new();
        let mut close = None;
        for &m in marks.get(k + 1..).unwrap_or_default() {
            match bytes.get(m) {
                Some(b'{') => level += 1,
                Some(b'}') if level == 0 => {
                    close = Some(m);
                    break;
                }
                Some(b'}') => level -= 1,
                Some(b',') if level == 0 => commas.push(m),
                _ => {}
            }
        }
        let Some(close) = close else {
            continue;
        };
        if commas.is_empty() {
            continue;
        }
        let pre = bytes.get(..open).unwrap_or_default();
        let post = bytes.get(close + 1..).unwrap_or_default();
        let mut bounds = vec![open];
        bounds.extend(&commas);
        bounds.push(close);
        for pair in bounds.windows(2) {
            let alt = bytes.get(pair[0] + 1..pair[1]).unwrap_or_default();
            let mut word = Vec::with_capacity(pre.len() + alt.len() + post.len());
            word.extend_from_slice(pre);
            word.extend_from_slice(alt);
            word.extend_from_slice(post);
            // The marks of the new word: those inside the alternative and
            // after the closing brace, shifted.
            let shift_alt = pre.len() as isize - (pair[0] + 1) as isize;
            let shift_post = (pre.len() + alt.len()) as isize - (close + 1) as isize;
            let new_marks: Vec<usize> = marks
                .iter()
                .filter_map(|&m| {
                    if m < open {
                        Some(m)
                    } else if m > pair[0] && m < pair[1] {
                        usize::try_from(m as isize + shift_alt).ok()
                    } else if m > close {
                        usize::try_from(m as isize + shift_post).ok()
                    } else {
                        None
                    }
                })
                .collect();
            brace_expand(&word, &new_marks, out)?;
        }
        return Ok(());
    }
    out.push(bytes.to_vec());
    if out.len() > MAX_BRACE_WORDS {
        return Err(());
    }
    Ok(())
}
