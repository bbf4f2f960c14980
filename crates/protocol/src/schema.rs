//! Helpers for the JSON Schemas derived from the wire types (the `schema`
//! feature).

use serde_json::{Value, json};

/// Turns `"type": ["T", "null"]` into `"type": "T"` and drops
/// `{"type": "null"}` alternatives from `anyOf`, everywhere in a schema.
///
/// The answers Palisade writes skip an absent optional member instead of
/// writing `null`, so the schema of what is written (a `Decision`, a
/// dialect's answer) has no `null` in it; derived schemas allow it because
/// a reader accepts it.
///
/// ```
/// let mut schema = serde_json::json!({"type": ["string", "null"]});
/// palisade_protocol::schema::strip_null(&mut schema);
/// assert_eq!(schema, serde_json::json!({"type": "string"}));
/// ```
pub fn strip_null(value: &mut Value) {
    match value {
        Value::Object(obj) => {
            if let Some(Value::Array(types)) = obj.get_mut("type") {
                types.retain(|t| t != "null");
                if let [only] = types.as_slice() {
                    let only = only.clone();
                    obj.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(alts)) = obj.get_mut("anyOf") {
                alts.retain(|a| a != &json!({"type": "null"}));
                if let [only] = alts.as_slice() {
                    let only = only.clone();
                    obj.remove("anyOf");
                    if let Value::Object(inner) = only {
                        for (k, v) in inner {
                            obj.entry(k).or_insert(v);
                        }
                    }
                }
            }
            obj.values_mut().for_each(strip_null);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_null),
        _ => {}
    }
}
