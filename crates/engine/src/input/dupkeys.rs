//! Rejecting JSON objects that repeat a key.
//!
//! JSON parsers disagree on repeated keys: most keep the last value, some the
//! first. A request `{"query": "DROP TABLE users", "query": "select 1"}` would
//! be judged on one value and executed with the other, so requests and
//! policies with a repeated key are refused.

use std::borrow::Cow;
use std::fmt;

use palisade_protocol::pointer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// Where the first repeated key is: the pointer of the object and the key.
#[derive(Debug)]
pub(crate) struct Repeated {
    pub(crate) pointer: String,
    pub(crate) key: String,
}

struct Walk<'a> {
    path: &'a mut String,
    found: &'a mut Option<Repeated>,
}

struct Key<'de>(Cow<'de, str>);

impl<'de> de::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v)))
            }
            // YAML keys may be numbers or booleans.
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
                Ok(Key(Cow::Owned(v.to_string())))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Key(Cow::Borrowed("null")))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_none<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            let len = self.path.len();
            pointer::push_index(self.path, i);
            let more = seq.next_element_seed(Walk {
                path: self.path,
                found: self.found,
            })?;
            self.path.truncate(len);
            if more.is_none() || self.found.is_some() {
                // Drain the rest without looking.
                while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen: Vec<Cow<'de, str>> = Vec::new();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            if self.found.is_some() {
                map.next_value::<de::IgnoredAny>()?;
                continue;
            }
            if seen.contains(&key) {
                *self.found = Some(Repeated {
                    pointer: self.path.clone(),
                    key: key.into_owned(),
                });
                map.next_value::<de::IgnoredAny>()?;
                continue;
            }
            let len = self.path.len();
            pointer::push(self.path, &key);
            map.next_value_seed(Walk {
                path: self.path,
                found: self.found,
            })?;
            self.path.truncate(len);
            seen.push(key);
        }
        Ok(())
    }
}

/// The first repeated key in a JSON text, if any. Syntax errors are left to
/// the real parse and reported as none here.
pub(crate) fn find_repeated(text: &str) -> Option<Repeated> {
    let mut de = serde_json::Deserializer::from_str(text);
    find_repeated_in(&mut de)
}

/// The first repeated key in any serde document (YAML too).
pub(crate) fn find_repeated_in<'de, D: Deserializer<'de>>(d: D) -> Option<Repeated> {
    let mut path = String::new();
    let mut found = None;
    let _ = Walk {
        path: &mut path,
        found: &mut found,
    }
    .deserialize(d);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_repeated_key_with_its_object() {
        let r = find_repeated(r#"{"tool":{"arguments":{"query":"DROP","query":"x"}}}"#).unwrap();
        assert_eq!(
            (r.pointer.as_str(), r.key.as_str()),
            ("/tool/arguments", "query")
        );
        let r = find_repeated(r#"{"a":[1,{"b":1,"c":2,"b":3}]}"#).unwrap();
        assert_eq!((r.pointer.as_str(), r.key.as_str()), ("/a/1", "b"));
        // Escapes are decoded before keys are compared.
        let r = find_repeated(r#"{"q":1,"\u0071":2}"#).unwrap();
        assert_eq!(r.key, "q");
        assert!(find_repeated(r#"{"a":{"x":1},"b":{"x":1}}"#).is_none());
        assert!(find_repeated("[1, 2, {}]").is_none());
    }
}
