//! Conditions checked against the request's shape when the policy loads.
//!
//! CEL has no schema of its own here: at evaluation, a field the request
//! lacks makes the expression false. That is right for an optional field a
//! request leaves out, and wrong for a misspelt one, which would make a
//! check silently never run. So every `request.…` path an expression spells
//! is looked up in the v1 request's JSON Schema (generated from the protocol
//! types, so the two cannot drift), and so is every comparison of a field
//! with a literal: a field that does not exist, a comparison of a number
//! with a string, or a stage or stakes value that is not one of the allowed
//! ones is a policy error with the field named. Free-form objects
//! (`context`, `metadata`, `action.attributes`, `tool.arguments`,
//! `tool.output`) accept any path.

use std::sync::OnceLock;

use cel::common::ast::{Expr, IdedExpr, LiteralValue, operators};
use palisade_protocol::CheckRequest;
use serde_json::{Map, Value};

/// Checks an expression's request paths and comparisons; the first problem
/// as one line.
pub(super) fn check(expr: &IdedExpr) -> Result<(), String> {
    Walker {
        root: request_schema(),
        locals: Vec::new(),
    }
    .walk(expr)
}

/// The v1 request's JSON Schema, as `cargo xtask generate` writes it.
fn request_schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        schemars::generate::SchemaSettings::draft2020_12()
            .for_deserialize()
            .into_generator()
            .into_root_schema_for::<CheckRequest>()
            .to_value()
    })
}

/// What a value at a path of the request can be.
#[derive(Debug)]
enum Shape<'s> {
    /// Any JSON: nothing is known below it.
    Any,
    Object(&'s Map<String, Value>),
    List(&'s Value),
    /// A string, one of the listed values when there is a list.
    Str(Option<Vec<&'s str>>),
    Number,
    Bool,
}

impl Shape<'_> {
    fn noun(&self) -> &'static str {
        match self {
            Shape::Any | Shape::Object(_) => "an object",
            Shape::List(_) => "a list",
            Shape::Str(_) => "a string",
            Shape::Number => "a number",
            Shape::Bool => "a boolean",
        }
    }
}

/// The shape a schema node describes, `$ref`s and `null` alternatives
/// resolved.
fn shape<'s>(root: &'s Value, node: &'s Value) -> Shape<'s> {
    if let Some(name) = node
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
    {
        return match root.get("$defs").and_then(|d| d.get(name)) {
            Some(def) => shape(root, def),
            None => Shape::Any,
        };
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(alternatives) = node.get(key).and_then(Value::as_array) {
            let alternatives: Vec<&Value> = alternatives
                .iter()
                .filter(|a| a.get("type").and_then(Value::as_str) != Some("null"))
                .collect();
            let consts: Option<Vec<&str>> = alternatives
                .iter()
                .map(|a| a.get("const").and_then(Value::as_str))
                .collect();
            return match (consts, alternatives.as_slice()) {
                (Some(values), _) if !values.is_empty() => Shape::Str(Some(values)),
                (_, [only]) => shape(root, only),
                _ => Shape::Any,
            };
        }
    }
    if let Some(values) = node.get("enum").and_then(Value::as_array) {
        return Shape::Str(Some(values.iter().filter_map(Value::as_str).collect()));
    }
    let types: Vec<&str> = match node.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let types: Vec<&str> = types.into_iter().filter(|t| *t != "null").collect();
    match types.as_slice() {
        ["object"] => match node.get("properties").and_then(Value::as_object) {
            Some(properties) if node.get("additionalProperties") != Some(&Value::Bool(true)) => {
                Shape::Object(properties)
            }
            _ => Shape::Any,
        },
        ["array"] => node.get("items").map_or(Shape::Any, Shape::List),
        ["string"] => Shape::Str(None),
        ["integer"] | ["number"] => Shape::Number,
        ["boolean"] => Shape::Bool,
        _ => Shape::Any,
    }
}

/// One step of a path into the request.
enum Step<'e> {
    Field(&'e str),
    Index,
}

/// Names CEL itself gives meaning to, which an expression may use as values
/// (`type(x) == string`).
const TYPE_NAMES: [&str; 11] = [
    "bool",
    "bytes",
    "double",
    "dyn",
    "int",
    "list",
    "map",
    "null_type",
    "string",
    "type",
    "uint",
];

struct Walker<'s> {
    root: &'s Value,
    /// Names bound by comprehensions (`exists(t, …)`) around the current node.
    locals: Vec<String>,
}

impl<'s> Walker<'s> {
    /// The steps from `request` to the value `expr` selects, when it is such
    /// a path.
    fn path<'e>(&self, expr: &'e IdedExpr) -> Option<Vec<Step<'e>>> {
        match &expr.expr {
            Expr::Ident(name) if name == "request" && !self.is_local(name) => Some(Vec::new()),
            Expr::Select(select) => {
                let mut path = self.path(&select.operand)?;
                path.push(Step::Field(&select.field));
                Some(path)
            }
            Expr::Call(call) if call.func_name == operators::INDEX && call.args.len() == 2 => {
                let mut path = self.path(call.args.first()?)?;
                path.push(Step::Index);
                Some(path)
            }
            _ => None,
        }
    }

    fn is_local(&self, name: &str) -> bool {
        self.locals.iter().any(|l| l == name)
    }

    /// Follows a path through the schema: the shape at its end, or what is
    /// wrong with it.
    fn resolve(&self, path: &[Step<'_>]) -> Result<Shape<'s>, String> {
        let mut at = shape(self.root, self.root);
        let mut spelled = String::from("request");
        for step in path {
            at = match (&at, step) {
                (Shape::Any, _) => return Ok(Shape::Any),
                (Shape::Object(properties), Step::Field(field)) => match properties.get(*field) {
                    Some(node) => shape(self.root, node),
                    None => {
                        let mut known: Vec<&str> = properties.keys().map(String::as_str).collect();
                        known.sort_unstable();
                        return Err(format!(
                            "`{spelled}.{field}` is not a field of the request (`{spelled}` has {})",
                            known.join(", ")
                        ));
                    }
                },
                // A key chosen at evaluation: nothing more is known.
                (Shape::Object(_), Step::Index) => return Ok(Shape::Any),
                (Shape::List(items), Step::Index) => shape(self.root, items),
                (Shape::List(_), Step::Field(field)) => {
                    return Err(format!(
                        "`{spelled}` is a list, which has no field `{field}` \
                         (`{spelled}.exists(x, x.{field} …)` or `{spelled}[0].{field}`)"
                    ));
                }
                (scalar, step) => {
                    let what = match step {
                        Step::Field(field) => format!("no field `{field}`"),
                        Step::Index => "no elements".to_owned(),
                    };
                    return Err(format!(
                        "`{spelled}` is {}, which has {what}",
                        scalar.noun()
                    ));
                }
            };
            match step {
                Step::Field(field) => {
                    spelled.push('.');
                    spelled.push_str(field);
                }
                Step::Index => spelled.push_str("[…]"),
            }
        }
        Ok(at)
    }

    fn walk(&mut self, expr: &IdedExpr) -> Result<(), String> {
        if let Some(path) = self.path(expr) {
            self.resolve(&path)?;
            // An index may itself be an expression over the request.
            return self.walk_indexes(expr);
        }
        match &expr.expr {
            Expr::Ident(name) => {
                if name != "request" && !self.is_local(name) && !TYPE_NAMES.contains(&name.as_str())
                {
                    return Err(format!(
                        "unknown name `{name}`: the request is `request` \
                         (`request.stage`, `request.tool.name`, `request.context.…`)"
                    ));
                }
                Ok(())
            }
            Expr::Select(select) => self.walk(&select.operand),
            Expr::Call(call) => {
                self.compared(&call.func_name, &call.args)?;
                if let Some(target) = &call.target {
                    self.walk(target)?;
                    self.method_fits(&call.func_name, target)?;
                }
                call.args.iter().try_for_each(|a| self.walk(a))
            }
            Expr::Comprehension(c) => {
                self.walk(&c.iter_range)?;
                self.walk(&c.accu_init)?;
                let bound = [Some(&c.iter_var), c.iter_var2.as_ref(), Some(&c.accu_var)];
                let before = self.locals.len();
                self.locals.extend(bound.into_iter().flatten().cloned());
                let result = [&c.loop_cond, &c.loop_step, &c.result]
                    .into_iter()
                    .try_for_each(|e| self.walk(e));
                self.locals.truncate(before);
                result
            }
            Expr::List(list) => list.elements.iter().try_for_each(|e| self.walk(e)),
            Expr::Map(map) => map.entries.iter().try_for_each(|entry| match &entry.expr {
                cel::common::ast::EntryExpr::MapEntry(e) => {
                    self.walk(&e.key)?;
                    self.walk(&e.value)
                }
                cel::common::ast::EntryExpr::StructField(f) => self.walk(&f.value),
            }),
            Expr::Struct(s) => s.entries.iter().try_for_each(|entry| match &entry.expr {
                cel::common::ast::EntryExpr::StructField(f) => self.walk(&f.value),
                cel::common::ast::EntryExpr::MapEntry(e) => {
                    self.walk(&e.key)?;
                    self.walk(&e.value)
                }
            }),
            Expr::Literal(_) | Expr::Unspecified => Ok(()),
        }
    }

    /// A method of strings (`endsWith`, `contains`, …) called on a request
    /// field that is never a string: an error naming both.
    fn method_fits(&self, method: &str, target: &IdedExpr) -> Result<(), String> {
        const STRING_METHODS: [&str; 9] = [
            "startsWith",
            "endsWith",
            "contains",
            "matches",
            "lowerAscii",
            "upperAscii",
            "trim",
            "split",
            "indexOf",
        ];
        if !STRING_METHODS.contains(&method) {
            return Ok(());
        }
        let Some(path) = self.path(target) else {
            return Ok(());
        };
        let at = self.resolve(&path)?;
        if matches!(at, Shape::Any | Shape::Str(_)) {
            return Ok(());
        }
        // `contains` is not a method of lists in CEL either (`x in list` is).
        let hint = match at {
            Shape::List(_) => format!(
                " (for each element: `{spelled}.exists(x, x.{method}(…))`)",
                spelled = spell(&path)
            ),
            _ => String::new(),
        };
        Err(format!(
            "`{method}` is a method of strings, and `{}` is {}{hint}",
            spell(&path),
            at.noun()
        ))
    }

    /// Walks the index expressions along a request path (`request.tool.arguments[request.x]`).
    fn walk_indexes(&mut self, expr: &IdedExpr) -> Result<(), String> {
        match &expr.expr {
            Expr::Select(select) => self.walk_indexes(&select.operand),
            Expr::Call(call) if call.func_name == operators::INDEX && call.args.len() == 2 => {
                let [object, index] = call.args.as_slice() else {
                    return Ok(());
                };
                self.walk_indexes(object)?;
                self.walk(index)
            }
            _ => Ok(()),
        }
    }

    /// For a comparison of a request field with literals (`==`, `<`, `in
    /// […]`, …): the literals must be of the field's type, and one of its
    /// values when it has a list of them.
    fn compared(&self, op: &str, args: &[IdedExpr]) -> Result<(), String> {
        const ORDERED: [&str; 6] = [
            operators::EQUALS,
            operators::NOT_EQUALS,
            operators::LESS,
            operators::LESS_EQUALS,
            operators::GREATER,
            operators::GREATER_EQUALS,
        ];
        let [a, b] = args else {
            return Ok(());
        };
        let pairs: Vec<(&IdedExpr, Vec<&IdedExpr>)> = if ORDERED.contains(&op) {
            vec![(a, vec![b]), (b, vec![a])]
        } else if op == operators::IN {
            match &b.expr {
                Expr::List(list) => vec![(a, list.elements.iter().collect())],
                _ => Vec::new(),
            }
        } else {
            Vec::new()
        };
        for (field, others) in pairs {
            let Some(path) = self.path(field) else {
                continue;
            };
            let at = self.resolve(&path)?;
            for other in others {
                if let Some(literal) = literal_of(other) {
                    fits(&at, literal).map_err(|why| format!("`{}` {why}", spell(&path)))?;
                }
            }
        }
        Ok(())
    }
}

/// The literal an expression is, a negated number included.
fn literal_of(expr: &IdedExpr) -> Option<&LiteralValue> {
    match &expr.expr {
        Expr::Literal(value) => Some(value),
        Expr::Call(call) if call.func_name == operators::NEGATE && call.args.len() == 1 => {
            match &call.args.first()?.expr {
                Expr::Literal(value @ (LiteralValue::Int(_) | LiteralValue::Double(_))) => {
                    Some(value)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether a literal can ever equal (or be ordered against) a value of the
/// shape: `Err` with the reason when it cannot.
fn fits(at: &Shape<'_>, literal: &LiteralValue) -> Result<(), String> {
    let kind = match literal {
        LiteralValue::Null => return Ok(()),
        LiteralValue::Boolean(_) => "a boolean",
        LiteralValue::Bytes(_) => "bytes",
        LiteralValue::Double(_) | LiteralValue::Int(_) | LiteralValue::UInt(_) => "a number",
        LiteralValue::String(_) => "a string",
    };
    match (at, literal) {
        (Shape::Any | Shape::Object(_) | Shape::List(_), _) => Ok(()),
        (Shape::Str(Some(values)), LiteralValue::String(s)) => {
            if values.contains(&s.inner()) {
                Ok(())
            } else {
                Err(format!(
                    "is one of {}; \"{}\" is not",
                    values.join(", "),
                    s.inner()
                ))
            }
        }
        (Shape::Str(None), LiteralValue::String(_))
        | (Shape::Bool, LiteralValue::Boolean(_))
        | (Shape::Number, LiteralValue::Double(_) | LiteralValue::Int(_) | LiteralValue::UInt(_)) => {
            Ok(())
        }
        _ => Err(format!(
            "is {}, compared with {kind}: the comparison would never hold",
            at.noun()
        )),
    }
}

fn spell(path: &[Step<'_>]) -> String {
    let mut out = String::from("request");
    for step in path {
        match step {
            Step::Field(field) => {
                out.push('.');
                out.push_str(field);
            }
            Step::Index => out.push_str("[…]"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(expr: &str) -> Option<String> {
        let program = cel::Program::compile(expr).unwrap();
        check(program.expression()).err()
    }

    #[test]
    fn paths_the_request_has_pass() {
        for ok in [
            r#"request.action.stakes == "high" && request.action.confidence < 0.7"#,
            "request.context.affectsProduction && !request.context.codeReviewCompleted",
            r#"request.stage in ["tool_use", "action"]"#,
            r#"request.tool.name.startsWith("mcp__") && request.tool.arguments.path != """#,
            r#"request.action.targets.exists(t, t.uri.endsWith(".env"))"#,
            r#"request.action.targets[0].uri == "/etc/passwd""#,
            r#"request.action.resource.kind == "file" && has(request.agent.id)"#,
            r#"request.tool.arguments["x"].y.z == 3 && request.action.attributes.any == "v""#,
            "request.options.timeoutMs > 100 && request.options.interactive == true",
            "request.action.confidence > -1 && request.content == null",
            r#"type(request.content) == string && size(request.checks) > 0"#,
            r#"request.tool.output.lines.exists(l, l.contains("x"))"#,
            r#"request.action.targets.size() > 0 && "c1" in request.checks"#,
            r#"request["stage"] == "input" && request.protocolVersion == "1""#,
            r#"request.action.targets.all(t, t.uri.startsWith("/tmp/")) && type(1) == dyn"#,
            "int(request.action.confidence * 100.0) > 50 && request.options.timeoutMs > 10u",
        ] {
            assert_eq!(problem(ok), None, "{ok}");
        }
    }

    #[test]
    fn string_methods_on_fields_that_are_not_strings_are_named() {
        assert_eq!(
            problem(r#"request.action.targets.endsWith(".env")"#).as_deref(),
            Some(
                "`endsWith` is a method of strings, and `request.action.targets` is a list (for each element: `request.action.targets.exists(x, x.endsWith(…))`)"
            )
        );
        assert_eq!(
            problem(r#"request.action.confidence.startsWith("0")"#).as_deref(),
            Some(
                "`startsWith` is a method of strings, and `request.action.confidence` is a number"
            )
        );
        assert_eq!(problem(r#"request.tool.name.endsWith("_send")"#), None);
        assert_eq!(
            problem(r#"request.tool.arguments.to.endsWith("@x")"#),
            None,
            "free-form"
        );
    }

    #[test]
    fn misspelt_fields_and_names_are_named() {
        let e = problem(r#"request.actoin.stakes == "high""#).unwrap();
        assert!(
            e.starts_with(
                "`request.actoin` is not a field of the request (`request` has action, agent,"
            ),
            "{e}"
        );
        let e = problem(r#"request.action.stake == "high""#).unwrap();
        assert!(e.contains("`request.action.stake` is not a field"), "{e}");
        assert!(e.contains("stakes"), "{e}");
        let e = problem(r#"reqeust.stage == "input""#).unwrap();
        assert!(e.starts_with("unknown name `reqeust`"), "{e}");
        let e = problem(r#"has(request.tool.nam)"#).unwrap();
        assert!(e.contains("`request.tool.nam`"), "{e}");
        let e = problem(r#"request.action.targets.uri == "x""#).unwrap();
        assert!(e.starts_with("`request.action.targets` is a list"), "{e}");
        let e = problem(r#"request.content.text == "x""#).unwrap();
        assert!(
            e.starts_with("`request.content` is a string, which has no field `text`"),
            "{e}"
        );
        // Inside a comprehension, too; and its own variable is not `request`.
        let e = problem(r#"request.action.targets.exists(t, t.uri == request.tol.name)"#).unwrap();
        assert!(e.contains("`request.tol`"), "{e}");
        let e = problem(r#"request.action.targets.exists(request, request.uri == "x")"#);
        assert_eq!(e, None, "a comprehension variable shadows `request`");
    }

    #[test]
    fn comparisons_with_literals_of_another_type_are_errors() {
        let e = problem(r#"request.action.confidence < "high""#).unwrap();
        assert_eq!(
            e,
            "`request.action.confidence` is a number, compared with a string: the comparison would never hold"
        );
        let e = problem(r#""tool-use" == request.stage"#).unwrap();
        assert!(
            e.starts_with("`request.stage` is one of input, output, tool_use, tool_output, action; \"tool-use\" is not"),
            "{e}"
        );
        let e = problem(r#"request.action.stakes in ["high", "severe"]"#).unwrap();
        assert!(e.contains("\"severe\" is not"), "{e}");
        let e = problem("request.options.interactive == 1").unwrap();
        assert!(e.contains("is a boolean, compared with a number"), "{e}");
        let e = problem("request.tool.name == true").unwrap();
        assert!(e.contains("is a string, compared with a boolean"), "{e}");
    }
}
