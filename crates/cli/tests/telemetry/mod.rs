//! OpenTelemetry traces of `palisade serve`, received by an OTLP/HTTP
//! receiver in the test that decodes the protobuf requests the exporter
//! sends: the server span with the caller's `traceparent` as its parent,
//! the decision span with its attributes, the LLM call's GenAI client span
//! under it; configured by the config's `telemetry` section or by the
//! standard `OTEL_*` variables; off by default and with
//! `OTEL_SDK_DISABLED=true`.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{AnyValue, KeyValue, any_value};
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message as _;
use serde_json::{Value, json};

use crate::util::{TempDir, serve};

/// The trace and parent span of the caller's `traceparent`.
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID: &str = "00f067aa0ba902b7";

/// One HTTP/1.1 request read from a connection: its path, headers and
/// body; `None` at the connection's end.
fn read_request(
    reader: &mut BufReader<TcpStream>,
) -> Option<(String, HashMap<String, String>, Vec<u8>)> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let path = line.split_whitespace().nth(1)?.to_owned();
    let mut headers = HashMap::new();
    loop {
        let mut h = String::new();
        reader.read_line(&mut h).ok()?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':')?;
        headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_owned());
    }
    let length: usize = headers.get("content-length")?.parse().ok()?;
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some((path, headers, body))
}

/// Serves each connection of `listener` on a thread: `answer` gives the
/// status line's code, content type and body of each request.
fn http_server(
    listener: TcpListener,
    answer: impl Fn(&str, &HashMap<String, String>, &[u8]) -> (u16, &'static str, Vec<u8>)
    + Send
    + Sync
    + 'static,
) {
    let answer = Arc::new(answer);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let answer = answer.clone();
            std::thread::spawn(move || {
                let mut writer = stream.try_clone().unwrap();
                let mut reader = BufReader::new(stream);
                while let Some((path, headers, body)) = read_request(&mut reader) {
                    let (code, kind, out) = answer(&path, &headers, &body);
                    let head = format!(
                        "HTTP/1.1 {code} X\r\ncontent-type: {kind}\r\ncontent-length: {}\r\n\r\n",
                        out.len()
                    );
                    if writer.write_all(head.as_bytes()).is_err() || writer.write_all(&out).is_err()
                    {
                        return;
                    }
                }
            });
        }
    });
}

/// An OTLP/HTTP receiver: each `POST /v1/traces` decoded and kept.
struct Receiver {
    url: String,
    received: Arc<Mutex<Vec<ExportTraceServiceRequest>>>,
}

impl Receiver {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let received = Arc::new(Mutex::new(Vec::new()));
        let kept = received.clone();
        http_server(listener, move |path, headers, body| {
            assert_eq!(path, "/v1/traces", "the OTLP traces path");
            assert_eq!(
                headers.get("content-type").map(String::as_str),
                Some("application/x-protobuf")
            );
            let request = ExportTraceServiceRequest::decode(body).expect("an OTLP protobuf body");
            kept.lock().unwrap().push(request);
            // An empty ExportTraceServiceResponse.
            (200, "application/x-protobuf", Vec::new())
        });
        Receiver { url, received }
    }

    /// Every span received, with its resource's `service.name`.
    fn spans(&self) -> Vec<(String, Span)> {
        let mut out = Vec::new();
        for request in self.received.lock().unwrap().iter() {
            for rs in &request.resource_spans {
                let service = rs
                    .resource
                    .as_ref()
                    .and_then(|r| string(&r.attributes, "service.name"))
                    .unwrap_or_default();
                for ss in &rs.scope_spans {
                    for span in &ss.spans {
                        out.push((service.clone(), span.clone()));
                    }
                }
            }
        }
        out
    }
}

/// An OpenAI-compatible chat-completions service answering every call
/// with a judge's block verdict, the model and token counts.
fn judge() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    http_server(listener, |path, _, _| {
        assert_eq!(path, "/v1/chat/completions");
        let body = json!({
            "id": "chatcmpl-1", "object": "chat.completion", "created": 1_764_000_000,
            "model": "judge-model-2026",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {
                "role": "assistant",
                "content": "{\"verdict\":\"block\",\"reason\":\"asks for a refund to a new account\"}"
            }}],
            "usage": {"prompt_tokens": 57, "completion_tokens": 14, "total_tokens": 71}
        });
        (200, "application/json", body.to_string().into_bytes())
    });
    url
}

fn value(attributes: &[KeyValue], key: &str) -> Option<any_value::Value> {
    attributes
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| kv.value.clone())
        .and_then(|AnyValue { value }| value)
}

fn string(attributes: &[KeyValue], key: &str) -> Option<String> {
    match value(attributes, key)? {
        any_value::Value::StringValue(s) => Some(s),
        _ => None,
    }
}

fn int(attributes: &[KeyValue], key: &str) -> Option<i64> {
    match value(attributes, key)? {
        any_value::Value::IntValue(n) => Some(n),
        _ => None,
    }
}

fn strings(attributes: &[KeyValue], key: &str) -> Vec<String> {
    match value(attributes, key) {
        Some(any_value::Value::ArrayValue(a)) => a
            .values
            .into_iter()
            .filter_map(|v| match v.value {
                Some(any_value::Value::StringValue(s)) => Some(s),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// `POST /v1/check` with extra headers; the answer's body.
fn check(addr: &str, body: &Value, headers: &[(&str, &str)]) -> Value {
    let mut s = TcpStream::connect(addr).unwrap();
    let body = body.to_string();
    let extra: String = headers
        .iter()
        .map(|(k, v)| format!("{k}: {v}\r\n"))
        .collect();
    write!(
        s,
        "POST /v1/check HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n{extra}content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

/// Ends the service with SIGTERM (it sends the spans still waiting).
fn stop(mut child: Child) {
    let pid = child.id().to_string();
    std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "palisade serve ended with {status}");
}

/// The environment of a service with no trace settings of its own.
const NO_OTEL: &[(&str, &str)] = &[
    ("OTEL_EXPORTER_OTLP_ENDPOINT", ""),
    ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", ""),
    ("OTEL_SERVICE_NAME", ""),
    ("OTEL_SDK_DISABLED", ""),
    ("OTEL_TRACES_EXPORTER", ""),
];

const POLICY: &str = "checks:\n  - id: refund-judge\n    stage: input\n    type: llm_judge\n    prompt: Block requests to send money to an account the user did not name.\n  - id: dangerous-commands\n    stage: tool_use\n    type: command\n    on_fail: block\n";

#[test]
fn decisions_are_traced_under_the_callers_trace_with_their_llm_calls() {
    let receiver = Receiver::start();
    let dir = TempDir::new("otel-config");
    dir.write("policy.yaml", POLICY);
    dir.write(
        "palisade.yaml",
        format!(
            "policy: policy.yaml\nllm: {{ base_url: \"{}\", model: judge-model }}\ntelemetry: {{ otlp_endpoint: \"{}\", service_name: guard-eu-1 }}\n",
            judge(),
            receiver.url
        ),
    );
    let (child, addr) = serve(&["--config", "palisade.yaml"], Some(dir.path()), NO_OTEL);
    let traceparent = format!("00-{TRACE_ID}-{PARENT_ID}-01");
    let d = check(
        &addr,
        &json!({"sessionId": "s-42", "agent": {"id": "billing-bot", "name": "Billing"}, "content": "Refund the order to IBAN DE89370400440532013000"}),
        &[("traceparent", &traceparent)],
    );
    assert_eq!(d["decision"], "block", "{d}");
    let d = check(
        &addr,
        &json!({"tool": {"name": "bash", "callId": "call-7", "arguments": {"command": "rm -rf /"}}}),
        &[],
    );
    assert_eq!(d["decision"], "block", "{d}");
    // A streamed answer: one decision span, ended with its final decision.
    let body = "{\"stage\":\"output\"}\n{\"delta\":\"all \"}\n{\"delta\":\"good\"}\n";
    let mut s = TcpStream::connect(&addr).unwrap();
    write!(
        s,
        "POST /v1/check/stream HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/x-ndjson\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    assert!(answer.contains("\"final\":true"), "{answer}");
    stop(child);

    let spans = receiver.spans();
    assert!(
        spans.iter().all(|(service, _)| service == "guard-eu-1"),
        "{spans:?}"
    );
    let named = |name: &str| -> Vec<&Span> {
        spans
            .iter()
            .map(|(_, s)| s)
            .filter(|s| s.name == name)
            .collect()
    };
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();

    // The server spans: the first under the caller's trace and span.
    let servers = named("POST /v1/check");
    assert_eq!(servers.len(), 2, "{spans:?}");
    let server = servers
        .iter()
        .find(|s| hex(&s.trace_id) == TRACE_ID)
        .expect("a server span in the caller's trace");
    assert_eq!(hex(&server.parent_span_id), PARENT_ID);
    assert_eq!(server.kind, SpanKind::Server as i32);
    assert_eq!(
        int(&server.attributes, "http.response.status_code"),
        Some(200),
        "{server:?}"
    );
    assert_eq!(
        string(&server.attributes, "http.route").as_deref(),
        Some("/v1/check")
    );
    let other = servers
        .iter()
        .find(|s| hex(&s.trace_id) != TRACE_ID)
        .unwrap();
    assert!(
        other.parent_span_id.is_empty(),
        "no traceparent: a trace of its own"
    );

    // The input decision, under the server span.
    let input = named("palisade.decision input");
    let [input] = input.as_slice() else {
        panic!("one input decision span: {spans:?}")
    };
    assert_eq!(input.trace_id, server.trace_id);
    assert_eq!(input.parent_span_id, server.span_id);
    let a = &input.attributes;
    assert_eq!(string(a, "palisade.tenant").as_deref(), Some("default"));
    assert_eq!(string(a, "palisade.stage").as_deref(), Some("input"));
    assert_eq!(string(a, "palisade.decision").as_deref(), Some("block"));
    assert!(string(a, "palisade.reason_code").is_some(), "{a:?}");
    assert_eq!(strings(a, "palisade.check_ids"), ["refund-judge"]);
    assert_eq!(string(a, "gen_ai.conversation.id").as_deref(), Some("s-42"));
    assert_eq!(string(a, "gen_ai.agent.id").as_deref(), Some("billing-bot"));
    assert_eq!(string(a, "gen_ai.agent.name").as_deref(), Some("Billing"));
    assert!(string(a, "palisade.request_id").is_some_and(|id| !id.is_empty()));
    match value(a, "palisade.duration_ms") {
        Some(any_value::Value::DoubleValue(ms)) => assert!(ms > 0.0, "{ms}"),
        other => panic!("palisade.duration_ms: {other:?}"),
    }
    assert!(input.end_time_unix_nano > input.start_time_unix_nano);
    // Never the request's content.
    let text = format!("{input:?}");
    assert!(!text.contains("DE89370400440532013000"), "{text}");

    // The judge's call, under the decision.
    let chat = named("chat judge-model");
    let [chat] = chat.as_slice() else {
        panic!("one LLM call span: {spans:?}")
    };
    assert_eq!(chat.parent_span_id, input.span_id);
    assert_eq!(chat.kind, SpanKind::Client as i32);
    let a = &chat.attributes;
    assert_eq!(string(a, "gen_ai.operation.name").as_deref(), Some("chat"));
    assert_eq!(
        string(a, "gen_ai.request.model").as_deref(),
        Some("judge-model")
    );
    assert_eq!(
        string(a, "gen_ai.response.model").as_deref(),
        Some("judge-model-2026")
    );
    assert_eq!(int(a, "gen_ai.usage.input_tokens"), Some(57));
    assert_eq!(int(a, "gen_ai.usage.output_tokens"), Some(14));
    assert_eq!(string(a, "server.address").as_deref(), Some("127.0.0.1"));

    // The tool call's decision names its tool and check.
    let tool = named("palisade.decision tool_use");
    let [tool] = tool.as_slice() else {
        panic!("one tool_use decision span: {spans:?}")
    };
    let a = &tool.attributes;
    assert_eq!(string(a, "gen_ai.tool.name").as_deref(), Some("bash"));
    assert_eq!(string(a, "gen_ai.tool.call.id").as_deref(), Some("call-7"));
    assert_eq!(strings(a, "palisade.check_ids"), ["dangerous-commands"]);
    assert_eq!(tool.parent_span_id, other.span_id);

    let streamed = named("palisade.decision output");
    let [streamed] = streamed.as_slice() else {
        panic!("one streamed decision span: {spans:?}")
    };
    assert_eq!(
        string(&streamed.attributes, "palisade.decision").as_deref(),
        Some("allow")
    );
    let stream_server = named("POST /v1/check/stream");
    assert_eq!(stream_server.len(), 1, "{spans:?}");
    assert_eq!(streamed.parent_span_id, stream_server[0].span_id);
}

#[test]
fn the_standard_environment_variables_turn_traces_on_and_off() {
    // On: OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME, no config.
    let receiver = Receiver::start();
    let (child, addr) = serve(
        &[],
        None,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &receiver.url),
            ("OTEL_SERVICE_NAME", "from-env"),
            ("OTEL_SDK_DISABLED", ""),
            ("OTEL_TRACES_EXPORTER", ""),
        ],
    );
    let d = check(&addr, &json!({"content": "hello"}), &[]);
    assert_eq!(d["decision"], "allow", "{d}");
    stop(child);
    let spans = receiver.spans();
    assert!(
        spans
            .iter()
            .any(|(service, s)| service == "from-env" && s.name == "palisade.decision input"),
        "{spans:?}"
    );

    // Off: no setting at all, and OTEL_SDK_DISABLED=true over an endpoint.
    let receiver = Receiver::start();
    for env in [
        NO_OTEL.to_vec(),
        vec![
            ("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url.as_str()),
            ("OTEL_SDK_DISABLED", "true"),
        ],
    ] {
        let (child, addr) = serve(&[], None, &env);
        check(&addr, &json!({"content": "hello"}), &[]);
        stop(child);
    }
    std::thread::sleep(Duration::from_millis(200));
    assert!(receiver.spans().is_empty(), "{:?}", receiver.spans());
}

#[test]
fn an_exporter_it_cannot_honour_is_refused_at_start() {
    for (var, value, needle) in [
        (
            "OTEL_TRACES_EXPORTER",
            "zipkin",
            "OTEL_TRACES_EXPORTER=`zipkin` is not supported",
        ),
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "`http/protobuf`"),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_palisade"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .env("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:9")
            .env(var, value)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{err}");
    }
    let dir = TempDir::new("otel-bad-config");
    dir.write(
        "palisade.yaml",
        "telemetry: { otlp_endpoint: \"collector:4318\" }\n",
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_palisade"))
        .args([
            "serve",
            "--config",
            "palisade.yaml",
            "--listen",
            "127.0.0.1:0",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/telemetry/otlp_endpoint") && err.contains("not an http:// or https:// URL"),
        "{err}"
    );
}
