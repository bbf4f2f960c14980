//! Property: serialize → parse is the identity for every wire type.

use palisade_protocol::{
    Action, Agent, Caller, CheckRequest, Decision, DecisionKind, Finding, FindingAction, Location,
    Mode, Modified, Object, Options, Provider, Resource, ResourceKind, Severity, Source, Stage,
    Stakes, Target, Tool,
};
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Number, Value};

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9 _./-]{0,12}",
        any::<String>(),
        Just("caf\u{e9} \u{65e5}\u{672c} \"quoted\" \\ \n\t".to_owned()),
    ]
}

fn opt<T: std::fmt::Debug>(s: impl Strategy<Value = T>) -> impl Strategy<Value = Option<T>> {
    proptest::option::of(s)
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| Value::Number(n.into())),
        any::<u64>().prop_map(|n| Value::Number(n.into())),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| Number::from_f64(f).map_or(Value::Null, Value::Number)),
        text().prop_map(Value::String),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(text(), inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn object() -> impl Strategy<Value = Object> {
    prop::collection::btree_map(text(), json_value(), 0..3).prop_map(|m| m.into_iter().collect())
}

/// Any JSON but `null`, which reads back as an absent optional field.
fn non_null_value() -> impl Strategy<Value = Value> {
    json_value().prop_filter("not null", |v| !v.is_null())
}

fn tool() -> impl Strategy<Value = Tool> {
    (
        text(),
        opt(non_null_value()),
        opt(text()),
        opt(non_null_value()),
        opt(text()),
        opt(text()),
    )
        .prop_map(
            |(name, arguments, call_id, output, error, description)| Tool {
                name,
                arguments,
                call_id,
                output,
                error,
                description,
            },
        )
}

fn action() -> impl Strategy<Value = Action> {
    let resource = (select(ResourceKind::ALL), opt(text()), opt(text())).prop_map(
        |(kind, resource_type, uri)| Resource {
            kind,
            resource_type,
            uri,
        },
    );
    let target = (text(), opt(object())).prop_map(|(uri, metadata)| Target { uri, metadata });
    (
        (
            opt(text()),
            opt(resource),
            opt(prop::collection::vec(target, 0..3)),
            opt(text()),
        ),
        (
            opt(text()),
            opt(select(Stakes::ALL)),
            opt(0.0..=1.0f64),
            opt(object()),
        ),
    )
        .prop_map(
            |(
                (operation, resource, targets, description),
                (category, stakes, confidence, attributes),
            )| Action {
                operation,
                resource,
                targets,
                description,
                category,
                stakes,
                confidence,
                attributes,
            },
        )
}

fn request() -> impl Strategy<Value = CheckRequest> {
    let agent = (opt(text()), opt(text()), opt(text()), opt(text())).prop_map(
        |(id, name, url, version)| Agent {
            id,
            name,
            url,
            version,
        },
    );
    let caller = (opt(text()), opt(text())).prop_map(|(extension_id, extension_version)| Caller {
        extension_id,
        extension_version,
    });
    let options = (opt(any::<bool>()), opt(any::<u64>()), opt(any::<bool>())).prop_map(
        |(interactive, timeout_ms, approval_by_call)| Options {
            interactive,
            timeout_ms,
            approval_by_call,
        },
    );
    (
        (
            opt(Just("1".to_owned())),
            opt(text()),
            opt(select(Stage::ALL)),
            opt(text()),
            opt(text()),
        ),
        (
            opt(agent),
            opt(caller),
            opt(text()),
            opt(tool()),
            opt(action()),
        ),
        (
            opt(object()),
            opt(prop::collection::vec(text(), 0..3)),
            opt(options),
        ),
    )
        .prop_map(
            |(
                (protocol_version, request_id, stage, tenant, session_id),
                (agent, caller, content, tool, action),
                (context, checks, options),
            )| CheckRequest {
                protocol_version,
                request_id,
                stage,
                tenant,
                session_id,
                agent,
                caller,
                content,
                tool,
                action,
                context,
                checks,
                options,
                approval_id: None,
                unknown_fields: Vec::new(),
            },
        )
}

fn finding() -> impl Strategy<Value = Finding> {
    let location = (text(), opt(any::<usize>()), opt(any::<usize>()))
        .prop_map(|(field, start, end)| Location { field, start, end });
    let source =
        (text(), select(Stage::ALL), opt(text())).prop_map(|(request_id, stage, tool)| Source {
            request_id,
            stage,
            tool,
        });
    (
        (
            text(),
            opt(text()),
            text(),
            select(Severity::ALL),
            select(FindingAction::ALL),
        ),
        (text(), opt(text()), opt(text()), opt(location), opt(source)),
    )
        .prop_map(
            |(
                (check_id, name, check_type, severity, action),
                (reason_code, message, suggestion, location, source),
            )| {
                Finding {
                    check_id,
                    name,
                    check_type,
                    severity,
                    action,
                    reason_code,
                    message,
                    suggestion,
                    location,
                    source,
                }
            },
        )
}

fn decision() -> impl Strategy<Value = Decision> {
    let modified = (opt(text()), opt(non_null_value()), opt(non_null_value())).prop_map(
        |(content, arguments, output)| Modified {
            content,
            arguments,
            output,
        },
    );
    let provider = (text(), opt(text())).prop_map(|(id, version)| Provider { id, version });
    (
        (text(), select(DecisionKind::ALL), opt(text()), opt(text())),
        (
            prop::collection::vec(finding(), 0..3),
            prop::collection::vec(finding(), 0..3),
            opt(text()),
            opt(modified),
        ),
        (
            opt(any::<u32>()),
            opt(text()),
            opt(any::<u64>()),
            opt(select(Mode::ALL)),
        ),
        (opt(provider), opt(text()), opt(any::<bool>())),
    )
        .prop_map(
            |(
                (request_id, kind, reason_code, message),
                (violations, warnings, replacement, modified),
                (evaluated, evaluated_at, duration_us, mode),
                (provider, receipt_id, is_final),
            )| {
                let mut d = Decision::new(request_id, kind);
                d.reason_code = reason_code;
                d.message = message;
                d.violations = violations;
                d.warnings = warnings;
                d.replacement = replacement;
                d.modified = modified;
                d.evaluated = evaluated;
                d.evaluated_at = evaluated_at;
                d.duration_us = duration_us;
                d.mode = mode;
                d.provider = provider;
                d.receipt_id = receipt_id;
                d.is_final = is_final;
                d
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn request_round_trips(request in request()) {
        let text = serde_json::to_string(&request).unwrap();
        let back: CheckRequest = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&back, &request);
        // and the JSON value is stable too
        prop_assert_eq!(serde_json::to_value(&back).unwrap(), serde_json::to_value(&request).unwrap());
    }

    #[test]
    fn decision_round_trips(decision in decision()) {
        let text = serde_json::to_string(&decision).unwrap();
        let back: Decision = serde_json::from_str(&text).unwrap();
        prop_assert_eq!(&back, &decision);
        let value = serde_json::to_value(&decision).unwrap();
        prop_assert!(value.get("violations").is_some() && value.get("warnings").is_some());
        let nulls: Vec<&String> = value.as_object().unwrap().iter().filter(|(_, v)| v.is_null()).map(|(k, _)| k).collect();
        prop_assert!(nulls.is_empty(), "absent fields are omitted, never null: {:?}", nulls);
    }
}
