//! "Did you mean …?": the valid name closest to a misspelt one, for the
//! messages of requests, policies and configs.

/// The candidate closest to `name`, when it is close enough to be what was
/// meant: at most one edit (a letter added, removed, changed, or two
/// neighbours swapped) per three characters of `name`, and at least one.
/// Case is ignored (`Stage` gives `stage`); of equally close candidates
/// the first is taken.
///
/// ```
/// use palisade_protocol::suggest::closest;
/// let fields = ["stage", "type", "on_fail", "severity"];
/// assert_eq!(closest("on_fial", fields), Some("on_fail"));
/// assert_eq!(closest("stages", fields), Some("stage"));
/// assert_eq!(closest("version", fields), None);
/// ```
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name: Vec<char> = name.chars().flat_map(char::to_lowercase).collect();
    let limit = (name.len() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let c: Vec<char> = candidate.chars().flat_map(char::to_lowercase).collect();
        if c.len().abs_diff(name.len()) > limit {
            continue;
        }
        let d = distance(&name, &c);
        if d <= limit && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Edits from `a` to `b`: insertions, deletions, substitutions and swaps
/// of neighbours (optimal string alignment).
fn distance(a: &[char], b: &[char]) -> usize {
    // Three rows of the table: two back, one back, this one.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut last: Vec<usize> = (0..=b.len()).collect();
    let mut row: Vec<usize> = vec![0; b.len() + 1];
    for (i, &ca) in a.iter().enumerate() {
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            let mut d = (last[j] + cost).min(last[j + 1] + 1).min(row[j] + 1);
            if i > 0 && j > 0 && a[i - 1] == cb && ca == b[j - 1] {
                d = d.min(before[j - 1] + 1);
            }
            row[j + 1] = d;
        }
        std::mem::swap(&mut before, &mut last);
        std::mem::swap(&mut last, &mut row);
    }
    last[b.len()]
}

/// A message of the form serde gives for a misspelt name (``unknown field
/// `lisen`, expected one of `listen`, `keys` ``, and the same for
/// `unknown variant`) with the closest expected name put after the
/// misspelt one; any other message is returned as it is.
///
/// ```
/// use palisade_protocol::suggest::with_suggestion;
/// assert_eq!(
///     with_suggestion("unknown field `lisen`, expected one of `listen`, `keys`"),
///     "unknown field `lisen` (did you mean `listen`?), expected one of `listen`, `keys`"
/// );
/// assert_eq!(with_suggestion("invalid type: string"), "invalid type: string");
/// ```
pub fn with_suggestion(message: &str) -> String {
    let Some((head, rest)) = ["unknown field `", "unknown variant `"]
        .iter()
        .find_map(|p| message.find(p).map(|i| message.split_at(i + p.len())))
    else {
        return message.to_owned();
    };
    let Some((name, tail)) = rest.split_once('`') else {
        return message.to_owned();
    };
    let Some((_, expected)) = tail.split_once("expected") else {
        return message.to_owned();
    };
    let names = expected.split('`').skip(1).step_by(2);
    match closest(name, names) {
        Some(near) => format!("{head}{name}` (did you mean `{near}`?){tail}"),
        None => message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_and_far_ones_not() {
        let cases: &[(&str, &[&str], Option<&str>)] = &[
            ("regx", &["regex", "blocklist"], Some("regex")),
            (
                "tool_ouput",
                &["tool_use", "tool_output"],
                Some("tool_output"),
            ),
            ("violense", &["hate", "violence"], Some("violence")),
            (
                "aws_acess_key",
                &["aws_access_key_id", "gcp_api_key"],
                Some("aws_access_key_id"),
            ),
            ("Stage", &["stage"], Some("stage")),
            ("STAGES", &["stage"], Some("stage")),
            ("x", &["y", "xy"], Some("y")),
            ("version", &["mode", "checks"], None),
            ("", &["a"], Some("a")),
            ("zzzz", &[], None),
        ];
        for (name, candidates, want) in cases {
            assert_eq!(
                closest(name, candidates.iter().copied()),
                *want,
                "{name} in {candidates:?}"
            );
        }
    }

    #[test]
    fn distance_counts_swaps_as_one_edit() {
        let d = |a: &str, b: &str| {
            distance(
                &a.chars().collect::<Vec<_>>(),
                &b.chars().collect::<Vec<_>>(),
            )
        };
        assert_eq!(d("on_fial", "on_fail"), 1);
        assert_eq!(d("abc", "abc"), 0);
        assert_eq!(d("", "abc"), 3);
        assert_eq!(d("kitten", "sitting"), 3);
        assert_eq!(d("ca", "abc"), 3);
        assert_eq!(d("ü", "u"), 1);
    }

    #[test]
    fn serde_messages_get_the_suggestion() {
        assert_eq!(
            with_suggestion("unknown variant `fsnyc`, expected `fsync` or `buffered`"),
            "unknown variant `fsnyc` (did you mean `fsync`?), expected `fsync` or `buffered`"
        );
        assert_eq!(
            with_suggestion("unknown field `bogus`, expected one of `listen`, `keys`"),
            "unknown field `bogus`, expected one of `listen`, `keys`"
        );
        assert_eq!(with_suggestion("unknown field `x"), "unknown field `x");
    }
}
