//! The built-in detectors through the engine: JSON member names paired
//! with their values at every depth, structured outputs redacted in place,
//! the credential classes found in a stream whatever the deltas, and the
//! gated detectors found whatever the byte before their literal.

use palisade_engine::Engine;
use palisade_protocol::{CheckRequest, DecisionKind, Stage};
use serde_json::{Value, json};

fn engine(on_fail: &str) -> Engine {
    Engine::from_yaml_str(&format!(
        "checks:\n  - {{ id: creds, stage: [tool_use, tool_output, output], type: secrets, on_fail: {on_fail} }}\n  - {{ id: personal, stage: [tool_use, tool_output, output], type: pii, entities: [us_ssn], on_fail: {on_fail} }}\n"
    ))
    .unwrap()
}

/// Wraps `leaf` in `depth` levels of objects and arrays, alternating.
fn nest(leaf: Value, depth: usize) -> Value {
    (0..depth).fold(leaf, |inner, level| {
        if level % 2 == 0 {
            json!({ format!("level{level}"): inner, "note": "ok" })
        } else {
            json!([{"id": level}, inner])
        }
    })
}

const PASSWORD: &str = "Granite4821!x";

#[test]
fn a_password_member_is_found_at_every_depth_and_in_arrays() {
    let engine = engine("block");
    for depth in 0..=8 {
        for leaf in [
            json!({"password": PASSWORD}),
            json!({"db": {"passwd": PASSWORD}}),
            json!({"passwords": ["x", PASSWORD]}),
            json!({"env": [{"name": "DB_PASSWORD", "value": PASSWORD}]}),
            json!({"Parameter": {"Name": "/prod/db/password", "Value": PASSWORD}}),
        ] {
            let output = nest(leaf.clone(), depth);
            let d = engine
                .evaluate(&CheckRequest::tool_output("read_config", output.clone()))
                .unwrap();
            assert_eq!(d.decision, DecisionKind::Block, "{output}");
            let location = d.violations[0].location.clone().unwrap();
            assert!(location.field.starts_with("/tool/output"), "{location:?}");
            assert!(
                !serde_json::to_string(&d).unwrap().contains(PASSWORD),
                "the value is never in the decision"
            );
            // The same in a tool call's arguments.
            let d = engine
                .evaluate(&CheckRequest::tool_use("http_post", output))
                .unwrap();
            assert_eq!(d.decision, DecisionKind::Block);
        }
    }
}

#[test]
fn structured_credentials_and_ssns_pair_names_with_values() {
    let engine = engine("block");
    let cases = [
        (
            json!({"Credentials": {"AccessKeyId": "ASIAQ3EGRALX2ZP4JTNW", "SecretAccessKey": "8fH2kL9mQ1xR7vT3nB6yW4zC0pD5sJ/gE+aU1iO2"}}),
            "aws_secret_access_key",
        ),
        (
            json!({"properties": {"accountKey": "KCGxeJm/b3aA8cDTCadszDP8G1gDQEEyZAv8Z8nV0ek6u7m7xz3hlpjKJm2q1T0h6tUcZ024Rt9/R84L0/ueHg=="}}),
            "azure_storage_key",
        ),
        (
            json!({"Tags": [{"Key": "api_token", "Value": "q8Hw2Lz9Rt4Xv1NcA7bR3mP6"}]}),
            "secret_assignment",
        ),
        (json!({"employee": {"ssn": "593 74 2124"}}), "us_ssn"),
        (json!({"rows": [{"SSN": 593742124}]}), "us_ssn"),
        // A look-alike letter in the name does not hide it.
        (json!({"p\u{0430}ssword": PASSWORD}), "password_assignment"),
    ];
    for (output, detector) in cases {
        let d = engine
            .evaluate(&CheckRequest::tool_output("aws_cli", output.clone()))
            .unwrap();
        assert_eq!(d.decision, DecisionKind::Block, "{output}");
        let messages: Vec<String> = d
            .violations
            .iter()
            .filter_map(|f| f.message.clone())
            .collect();
        assert!(
            messages.iter().any(|m| m.contains(detector)),
            "{output}: {messages:?}"
        );
    }
}

#[test]
fn names_and_values_that_are_not_credentials_pass() {
    let engine = engine("block");
    for output in [
        json!({"password": "********", "password_min_length": 12}),
        json!({"token_type": "Bearer", "expires_in": 3600}),
        json!({"name": "password", "value": "changeme"}),
        json!({"env": [{"name": "DB_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}}]}),
        json!({"cache_key": "3f2a9c1d4e5b6a7f8091a2b3c4d5e6f7", "Key": "uploads/2024/05/report.pdf"}),
        json!({"client_secret": "${CLIENT_SECRET}", "api_key": "YOUR_API_KEY_HERE"}),
        json!({"ssn_last4": "2124", "order_id": 593742124}),
        // A value next to a password-like name in another object.
        json!({"password": {"minLength": 12}, "value": PASSWORD}),
    ] {
        let d = engine
            .evaluate(&CheckRequest::tool_output("read_config", output.clone()))
            .unwrap();
        assert_eq!(
            d.decision,
            DecisionKind::Allow,
            "{output}: {:?}",
            d.violations
        );
    }
}

#[test]
fn structured_outputs_are_redacted_in_place() {
    let engine = engine("redact");
    let output = json!({
        "db": {"host": "db.internal", "port": 5432, "password": PASSWORD},
        "users": [{"name": "ci", "password": "Tundra9930#q"}],
        "env": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "DB_PASSWORD", "value": PASSWORD}],
        "employee": {"ssn": "593742124"}
    });
    let d = engine
        .evaluate(&CheckRequest::tool_output("read_config", output))
        .unwrap();
    assert_eq!(d.decision, DecisionKind::Modify);
    let modified = d.modified.unwrap().output.unwrap();
    assert_eq!(
        modified,
        json!({
            "db": {"host": "db.internal", "port": 5432, "password": "[REDACTED:password_assignment]"},
            "users": [{"name": "ci", "password": "[REDACTED:password_assignment]"}],
            "env": [{"name": "LOG_LEVEL", "value": "info"}, {"name": "DB_PASSWORD", "value": "[REDACTED:password_assignment]"}],
            "employee": {"ssn": "[REDACTED:us_ssn]"}
        })
    );
}

#[test]
fn a_table_redacts_only_its_ssn_column() {
    let engine = engine("redact");
    let text = "name,ssn,dob\nJane Roe,593742124,1980-01-02\nJohn Roe,655-16-1263,1979-03-04\n";
    let d = engine.evaluate(&CheckRequest::output(text)).unwrap();
    assert_eq!(d.decision, DecisionKind::Modify);
    assert_eq!(
        d.modified.unwrap().content.unwrap(),
        "name,ssn,dob\nJane Roe,[REDACTED:us_ssn],1980-01-02\nJohn Roe,[REDACTED:us_ssn],1979-03-04\n"
    );
}

/// Texts of each class the detectors learnt, as a model might stream them.
const STREAMED: &[&str] = &[
    "Run: docker login -u deploy -p 'Winter530!' registry.acme.io\n",
    "mysql -u root -pGranite4821! shop\n",
    "<add key=\"SmtpPassword\" value=\"Winter530!\" />\n",
    "AZURE_STORAGE_KEY=KCGxeJm/b3aA8cDTCadszDP8G1gDQEEyZAv8Z8nV0ek6u7m7xz3hlpjKJm2q1T0h6tUcZ024Rt9/R84L0/ueHg==\n",
    "The AWS secret for ci is 8fH2kL9mQ1xR7vT3nB6yW4zC0pD5sJ/gE+aU1iO2 today\n",
    "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oKOy2s5ZgO7CoAoGCCqGSM49\n",
    "SSN 655161263 on file\n",
];

#[test]
fn each_class_is_found_in_a_stream_cut_anywhere() {
    let engine = engine("block");
    for text in STREAMED {
        let whole = engine.evaluate(&CheckRequest::output(*text)).unwrap();
        assert_eq!(whole.decision, DecisionKind::Block, "{text}");
        for cut in 1..text.len() {
            if !text.is_char_boundary(cut) {
                continue;
            }
            let mut stream = engine
                .stream(&CheckRequest::new().with_stage(Stage::Output))
                .unwrap();
            let mut blocked = false;
            for piece in [&text[..cut], &text[cut..]] {
                if let Some(update) = stream.push(piece) {
                    blocked |= update.decision == DecisionKind::Block;
                }
            }
            let last = stream.finish();
            assert!(
                blocked || last.decision == DecisionKind::Block,
                "{text:?} cut at {cut}"
            );
        }
    }
}

/// The detectors whose three-byte literal is taken with the byte before
/// it (`0:aa`…`9:aa` and `+://`…`z://`, guards from a leading class;
/// `-0q~`…`~9q~`, a gate) find their values whatever that byte and its
/// case, at the start and the end of a string and after any prefix.
#[test]
fn the_widened_gate_literals_find_every_spelling() {
    let secret = "7do3Q~D_KhwxuzXxYrjKs3dK88XjS2KHKivBgNG2";
    let cases = [
        (
            "telegram_bot_token",
            "5872361940:AAHq1bZ3xYwQm0cVn8RkT2dLp9sJf4gEuW7",
        ),
        (
            "telegram_bot_token",
            "bot 1234567890:AAHq1bZ3xYwQm0cVn8RkT2dLp9sJf4gEuW7 ok",
        ),
        (
            "url_password",
            "HTTPS://deploy:Hunter2Secret9@db.internal.example.net/x",
        ),
        (
            "url_password",
            "see git+ssh://deploy:Hunter2Secret9@git.corp.net/repo",
        ),
        (
            "url_password",
            "postgres://admin:Zq8vLw3NpX@10.1.2.3:5432/app",
        ),
        ("azure_client_secret", secret),
        (
            "azure_client_secret",
            "secret=a~.9Q~D_KhwxuzXxYrjKs3dK88XjS2KHKivBgNG2",
        ),
        (
            "azure_client_secret",
            "use A-Z0Q~D_KhwxuzXxYrjKs3dK88XjS2KHKivBgNG2",
        ),
    ];
    for (id, text) in cases {
        let engine = Engine::from_yaml_str(&format!(
            "checks:\n  - {{ id: one, stage: [output], type: secrets, detectors: [{id}], on_fail: block }}\n"
        ))
        .unwrap();
        let decision = engine.evaluate(&CheckRequest::output(text)).unwrap();
        assert_eq!(decision.decision, DecisionKind::Block, "`{id}`: {text:?}");
    }
}

/// A URL's user and password are found up to 128 characters each (the
/// validator counts them), in characters, not bytes; one longer is not a
/// credential, and a URL after it on the line is still found.
#[test]
fn a_url_password_s_parts_are_at_most_128_characters() {
    let engine = Engine::from_yaml_str(
        "checks:\n  - { id: one, stage: [output], type: secrets, detectors: [url_password], on_fail: block }\n",
    )
    .unwrap();
    let blocked = |text: &str| {
        engine
            .evaluate(&CheckRequest::output(text))
            .unwrap()
            .decision
            == DecisionKind::Block
    };
    let password = "Hunter2Secret9";
    for (user, pass, want) in [
        ("u".repeat(128), password.to_owned(), true),
        ("u".repeat(129), password.to_owned(), false),
        ("\u{e9}".repeat(128), password.to_owned(), true),
        (
            "deploy".to_owned(),
            format!("Zq8v{}", "x9".repeat(62)),
            true,
        ),
        (
            "deploy".to_owned(),
            format!("Zq8vw{}", "x9".repeat(62)),
            false,
        ),
        ("deploy".to_owned(), "\u{e9}Zq8".repeat(32), true),
        (
            "deploy".to_owned(),
            format!("\u{e9}{}", "\u{e9}Zq8".repeat(32)),
            false,
        ),
    ] {
        let text = format!("postgres://{user}:{pass}@db.internal/app");
        assert_eq!(
            blocked(&text),
            want,
            "{} and {} characters",
            user.chars().count(),
            pass.chars().count()
        );
    }
    let long = format!("postgres://{}:{password}@db/app", "u".repeat(129));
    assert!(blocked(&format!("{long} mysql://root:{password}@db/shop")));
}
