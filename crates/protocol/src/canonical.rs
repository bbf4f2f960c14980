//! Canonical JSON: one spelling for every JSON value, so that two texts
//! that mean the same value give the same bytes. An approval is bound to
//! the digest of a call's canonical form (SPEC §15): a call sent again with
//! its object members in another order, or a number written another way
//! (`1`, `1.0`, `1e0`), is the same call; any other difference is not.
//!
//! The form: no whitespace; object members sorted by their names' UTF-8
//! bytes; strings escaped only where JSON requires it (`"`, `\`, and
//! control characters: `\b \f \n \r \t`, others as `\u00XX`), everything
//! else as is; numbers by value — an integer as its decimal digits
//! (`-0` is `0`), any other number as the shortest decimal that reads back
//! as the same 64-bit float, without an exponent (`0.1`, `0.0000001`,
//! `100000000000000000000` for `1e20`). A float with an integral value is
//! spelled as that integer, so `2.0` and `2` are one number; an integer
//! above 2^53 written with a fraction or an exponent is read as a float
//! first, and is the integer that float holds.

use serde_json::{Number, Value};

/// The canonical text of `value` (see the [module docs](self)).
///
/// ```
/// use serde_json::json;
/// use palisade_protocol::canonical::canonical_json;
///
/// let a: serde_json::Value = serde_json::from_str(r#"{"b": [1.0, "x"], "a": 1e2}"#).unwrap();
/// assert_eq!(canonical_json(&a), r#"{"a":100,"b":[1,"x"]}"#);
/// assert_eq!(canonical_json(&a), canonical_json(&json!({"a": 100, "b": [1, "x"]})));
/// ```
pub fn canonical_json(value: &Value) -> String {
    let mut out = String::new();
    write(&mut out, value);
    out
}

fn write(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => number(out, n),
        Value::String(s) => string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (name, item)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(out, name);
                out.push(':');
                write(out, item);
            }
            out.push('}');
        }
    }
}

fn number(out: &mut String, n: &Number) {
    use std::fmt::Write as _;
    if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}");
    } else if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(f) = n.as_f64() {
        if f == 0.0 {
            // 0.0 and -0.0 are the integer 0.
            out.push('0');
        } else {
            // `Display` of an `f64` is the shortest decimal that reads
            // back as the same float, never with an exponent, and without
            // a fraction for an integral value.
            let _ = write!(out, "{f}");
        }
    }
}

fn string(out: &mut String, s: &str) {
    use std::fmt::Write as _;
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{08}' => out.push_str("\\b"),
            '\u{0c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::canonical_json;
    use serde_json::Value;

    fn canon(text: &str) -> String {
        canonical_json(&serde_json::from_str::<Value>(text).unwrap())
    }

    #[test]
    fn members_are_sorted_at_every_depth() {
        assert_eq!(
            canon(r#"{"z": {"b": 1, "a": [ {"y": 0, "x": 0} ]}, "a": null}"#),
            r#"{"a":null,"z":{"a":[{"x":0,"y":0}],"b":1}}"#
        );
    }

    #[test]
    fn one_number_has_one_spelling() {
        for same in ["1", "1.0", "1e0", "10e-1", "0.1e1", "1.000"] {
            assert_eq!(canon(same), "1", "{same}");
        }
        for same in ["0", "-0", "0.0", "-0.0", "0e5"] {
            assert_eq!(canon(same), "0", "{same}");
        }
        assert_eq!(canon("-2.50"), "-2.5");
        assert_eq!(canon("1e20"), "100000000000000000000");
        assert_eq!(canon("1e-7"), "0.0000001");
        assert_eq!(canon("0.1"), "0.1");
        assert_eq!(canon("18446744073709551615"), "18446744073709551615");
        assert_eq!(canon("-9223372036854775808"), "-9223372036854775808");
        assert_eq!(canon("1e19"), canon("10000000000000000000"));
    }

    #[test]
    fn different_values_stay_different() {
        assert_ne!(canon("1"), canon("1.5"));
        assert_ne!(canon("1"), canon("\"1\""));
        assert_ne!(canon("0.1"), canon("0.10000000000000002"));
        assert_ne!(canon("9007199254740993"), canon("9007199254740992"));
        assert_ne!(canon(r#"{"a": 1}"#), canon(r#"{"a": 1, "b": null}"#));
        assert_ne!(canon("[1, 2]"), canon("[2, 1]"));
        assert_ne!(canon(r#""a b""#), canon(r#""a  b""#));
    }

    #[test]
    fn strings_have_one_escaping() {
        assert_eq!(canon(r#""\u0041\/\u00e9""#), "\"A/é\"");
        assert_eq!(
            canon(r#""q\"b\\n\n\t\u0001\u001f""#),
            r#""q\"b\\n\n\t\u0001\u001f""#
        );
        // Canonical text reads back as the same value.
        let text = r#"{"é": "\u2028", "a": [true, false, null, -1.25e-3]}"#;
        let value: Value = serde_json::from_str(text).unwrap();
        let again: Value = serde_json::from_str(&canonical_json(&value)).unwrap();
        assert_eq!(value, again);
        assert_eq!(canonical_json(&again), canonical_json(&value));
    }
}
