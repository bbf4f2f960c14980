//! Conditions: CEL expressions over the request (SPEC §3.2), behind a small
//! trait so the expression language implementation can be swapped.

mod shape;

use std::fmt;
use std::sync::Arc;

use palisade_protocol::CheckRequest;
use serde_json::Value;

/// A compiled condition.
pub(crate) trait Condition: Send + Sync + fmt::Debug {
    /// Evaluates the condition: whether it holds, or why it could not be
    /// evaluated on this request (a member the request lacks, a method of
    /// another type, a result that is not true or false).
    fn check(&self, request: &Bindings) -> Result<bool, String>;

    /// Evaluates the condition; anything but a clear `true` is `false`
    /// (an absent or mistyped field makes the expression false).
    #[cfg(test)]
    fn holds(&self, request: &Bindings) -> bool {
        matches!(self.check(request), Ok(true))
    }
}

/// The request as the expression sees it, prepared once per request.
pub(crate) struct Bindings {
    context: cel::Context<'static, 'static>,
}

impl Bindings {
    /// Binds `request` (the v1 request as JSON, camelCase).
    pub(crate) fn new(request: &Value) -> Self {
        let mut context = cel::Context::default();
        // Serializing a JSON value into the expression's values cannot fail.
        let _ = context.add_variable("request", request.clone());
        Self { context }
    }

    /// Binds a request as expressions see it: the v1 JSON, with the stage
    /// and the protocol's defaults filled in (SPEC §2.1).
    pub(crate) fn for_request(request: &CheckRequest) -> Self {
        let mut v = serde_json::to_value(request).unwrap_or(Value::Null);
        if let Some(obj) = v.as_object_mut() {
            obj.insert(
                "stage".into(),
                Value::from(request.effective_stage().as_str()),
            );
            if let Some(action) = obj.get_mut("action").and_then(|a| a.as_object_mut()) {
                action
                    .entry("stakes")
                    .or_insert_with(|| Value::from("medium"));
            }
        }
        Self::new(&v)
    }
}

impl fmt::Debug for Bindings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bindings").finish_non_exhaustive()
    }
}

#[derive(Debug)]
struct Cel {
    program: cel::Program,
}

impl Condition for Cel {
    fn check(&self, request: &Bindings) -> Result<bool, String> {
        match self.program.execute(&request.context) {
            Ok(cel::Value::Bool(b)) => Ok(b),
            Ok(other) => Err(format!(
                "it gives {} where true or false is needed",
                value_noun(&other)
            )),
            Err(e) => Err(execution_error(&e.to_string())),
        }
    }
}

/// What a CEL value is, for messages.
fn value_noun(v: &cel::Value) -> &'static str {
    match v {
        cel::Value::List(_) => "a list",
        cel::Value::Map(_) => "a map",
        cel::Value::Int(_) | cel::Value::UInt(_) | cel::Value::Float(_) => "a number",
        cel::Value::String(_) => "a string",
        cel::Value::Bytes(_) => "bytes",
        cel::Value::Null => "null",
        _ => "a value",
    }
}

/// An execution error as one line a policy author reads.
fn execution_error(text: &str) -> String {
    let first = text.lines().next().unwrap_or(text).trim();
    if let Some(key) = first.strip_prefix("No such key: ") {
        return format!("the request has no member `{key}`");
    }
    // `found no matching overload for 'endsWith' applied to 'list.(string)'`
    if let Some(rest) = first.strip_prefix("found no matching overload for '")
        && let Some((function, rest)) = rest.split_once("' applied to '")
    {
        let target = rest.split(['.', '\'']).next().unwrap_or_default();
        if !target.is_empty() && !target.starts_with('(') {
            let noun = match target {
                "list" => "a list",
                "map" => "a map",
                "string" => "a string",
                "int" | "uint" | "float" => "a number",
                "bool" => "a boolean",
                "null" => "null",
                other => other,
            };
            return format!(
                "`{function}` cannot be called on {noun}, which this request has there"
            );
        }
        return format!("`{function}` cannot be applied to these values");
    }
    first.to_owned()
}

/// Compiles an expression, with a one-line error.
pub(crate) fn compile(expr: &str) -> Result<Arc<dyn Condition>, String> {
    if expr.trim().is_empty() {
        return Err("the expression is empty".to_owned());
    }
    match cel::Program::compile(expr) {
        Ok(program) => {
            shape::check(program.expression())
                .map_err(|e| format!("invalid CEL expression: {e}"))?;
            Ok(Arc::new(Cel { program }))
        }
        Err(e) => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("syntax error");
            let first = first
                .trim_start_matches("ERROR: ")
                .replace("<input>:", "at ");
            Err(format!("invalid CEL expression: {first}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn holds(expr: &str, request: Value) -> bool {
        compile(expr).unwrap().holds(&Bindings::new(&request))
    }

    #[test]
    fn expressions_over_the_request() {
        let r = json!({"action": {"stakes": "high", "confidence": 0.5}});
        assert!(holds(
            r#"request.action.stakes == "high" && request.action.confidence < 0.7"#,
            r.clone()
        ));
        assert!(!holds(r#"request.action.stakes == "low""#, r));
    }

    #[test]
    fn absent_and_mistyped_fields_make_it_false() {
        let r = json!({"context": {"affectsProduction": true}});
        assert!(!holds(
            "request.context.affectsProduction && !request.context.codeReviewCompleted",
            r.clone()
        ));
        assert!(!holds("request.action.confidence < 0.7", r.clone()));
        assert!(!holds("request.context.affectsProduction < 3", r.clone()));
        assert!(!holds("42", r.clone()), "a non-boolean result is false");
        assert!(holds("has(request.context.affectsProduction)", r));
    }

    #[test]
    fn execution_errors_read_as_one_line() {
        let r = json!({"context": {"to": ["a@example.com"]}});
        let e = compile(r#"request.context.to.endsWith("@example.com")"#)
            .unwrap()
            .check(&Bindings::new(&r))
            .unwrap_err();
        assert_eq!(
            e,
            "`endsWith` cannot be called on a list, which this request has there"
        );
        let e = compile("request.context.cc == 1")
            .unwrap()
            .check(&Bindings::new(&r))
            .unwrap_err();
        assert_eq!(e, "the request has no member `cc`");
        let e = compile("request.context.to")
            .unwrap()
            .check(&Bindings::new(&r))
            .unwrap_err();
        assert_eq!(e, "it gives a list where true or false is needed");
    }

    #[test]
    fn syntax_errors_are_one_line() {
        let e = compile("request.(").unwrap_err();
        assert!(e.starts_with("invalid CEL expression: at 1:9"), "{e}");
        assert!(!e.contains('\n'));
        assert!(compile("  ").is_err());
    }
}
