//! Tool-argument schemas: a JSON Schema per check, compiled at load time.

use std::sync::Arc;

use serde_json::Value;

/// A compiled argument schema.
#[derive(Clone, Debug)]
pub(crate) struct ArgSchema(Arc<jsonschema::Validator>);

/// Compiles a JSON Schema (any draft it declares; 2020-12 by default), with
/// a one-line error. Remote references are not fetched.
pub(crate) fn compile(schema: &Value) -> Result<ArgSchema, String> {
    if !schema.is_object() && !schema.is_boolean() {
        return Err("`schema` must be a JSON Schema (an object or a boolean)".to_owned());
    }
    jsonschema::validator_for(schema)
        .map(|v| ArgSchema(Arc::new(v)))
        .map_err(|e| {
            format!(
                "invalid JSON Schema: {e} (at {})",
                pointer_or_root(&e.schema_path().to_string())
            )
        })
}

fn pointer_or_root(p: &str) -> &str {
    if p.is_empty() { "the root" } else { p }
}

impl ArgSchema {
    /// The first way `arguments` fails the schema: the pointer of the
    /// offending argument (relative to the arguments) and what is wrong.
    pub(crate) fn first_error(&self, arguments: &Value) -> Option<(String, String)> {
        let e = self.0.iter_errors(arguments).next()?;
        let at = e.instance_path().to_string();
        let what = if at.is_empty() {
            "the arguments fail".to_owned()
        } else {
            format!("argument `{at}` fails")
        };
        // The schema keyword that failed, not the error text: that would
        // quote the argument's value, which may be a secret.
        let rule = e.schema_path().to_string();
        let keyword = rule.rsplit('/').next().unwrap_or("");
        Some((at, format!("{what} `{keyword}` (schema {rule})")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn says_which_argument_failed_and_why() {
        let s = compile(&json!({
            "type": "object",
            "properties": {"query": {"type": "string", "maxLength": 10}, "limit": {"type": "integer"}},
            "required": ["query"],
            "additionalProperties": false
        }))
        .unwrap();
        assert!(s.first_error(&json!({"query": "select 1"})).is_none());
        let (at, msg) = s
            .first_error(&json!({"query": "select * from users"}))
            .unwrap();
        assert_eq!(at, "/query");
        assert_eq!(
            msg,
            "argument `/query` fails `maxLength` (schema /properties/query/maxLength)"
        );
        assert!(!msg.contains("select"), "values are never quoted");
        let (at, msg) = s.first_error(&json!({"limit": 5})).unwrap();
        assert_eq!(at, "");
        assert!(msg.starts_with("the arguments fail `required`"), "{msg}");
        assert!(
            s.first_error(&json!({"query": "x", "drop": true}))
                .is_some()
        );
    }

    #[test]
    fn bad_schemas_are_reported() {
        assert!(
            compile(&json!({"type": "nonsense"}))
                .unwrap_err()
                .starts_with("invalid JSON Schema")
        );
        assert!(compile(&json!("string")).is_err());
    }
}
