//! The committed OpenAPI document (`schemas/openapi.json`, written by
//! `cargo xtask schemas`): a well-formed OpenAPI 3.1 document whose refs
//! resolve, and whose paths and methods are exactly what the service answers.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

mod util;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

/// Every endpoint of the service (SPEC §6), with its methods.
const ENDPOINTS: &[(&str, &[&str])] = &[
    ("/v1/check", &["post"]),
    ("/v1/check/stream", &["post"]),
    ("/v1/guardrails/check", &["post"]),
    ("/rpc", &["post"]),
    ("/cstp", &["post"]),
    ("/mcp", &["post"]),
    ("/v1/admin/reload", &["post"]),
    ("/v1/audit", &["get"]),
    ("/v1/autogen/evaluate", &["post"]),
    ("/health", &["get"]),
    ("/healthz", &["get"]),
    ("/metrics", &["get"]),
    ("/openapi.json", &["get"]),
];

/// The endpoints anyone may call, without an API key.
const PUBLIC: &[&str] = &["/health", "/healthz"];

/// The methods an operation may have in OpenAPI.
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

fn document() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/openapi.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run `cargo xtask schemas`", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()))
}

/// The documented paths with their methods.
fn documented(doc: &Value) -> BTreeSet<(String, String)> {
    let paths = doc["paths"].as_object().expect("`paths` is an object");
    let mut out = BTreeSet::new();
    for (path, item) in paths {
        let item = item.as_object().expect("a path item is an object");
        for method in item.keys().filter(|k| METHODS.contains(&k.as_str())) {
            out.insert((path.clone(), method.clone()));
        }
    }
    out
}

fn expected() -> BTreeSet<(String, String)> {
    ENDPOINTS
        .iter()
        .flat_map(|(path, methods)| {
            methods
                .iter()
                .map(|m| ((*path).to_owned(), (*m).to_owned()))
        })
        .collect()
}

#[test]
fn is_openapi_3_1_of_the_workspace_version() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.1.0");
    assert_eq!(doc["info"]["title"], "Palisade");
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
}

#[test]
fn documents_every_endpoint_and_nothing_else() {
    assert_eq!(documented(&document()), expected());
}

#[test]
fn every_endpoint_but_health_needs_a_key() {
    let doc = document();
    let schemes = doc["components"]["securitySchemes"].as_object().unwrap();
    assert_eq!(schemes["ApiKey"]["type"], "apiKey");
    assert_eq!(schemes["ApiKey"]["in"], "header");
    assert_eq!(schemes["ApiKey"]["name"], "X-API-Key");
    assert_eq!(schemes["BearerAuth"]["type"], "http");
    assert_eq!(schemes["BearerAuth"]["scheme"], "bearer");
    let global: Vec<&Value> = doc["security"].as_array().unwrap().iter().collect();
    assert!(!global.is_empty());
    for (path, method) in documented(&doc) {
        let op = &doc["paths"][&path][&method];
        let security = op.get("security").unwrap_or(&doc["security"]);
        let open = security.as_array().unwrap().is_empty();
        assert_eq!(open, PUBLIC.contains(&path.as_str()), "{method} {path}");
        if !open {
            assert!(op["responses"].get("401").is_some(), "{method} {path}: 401");
        }
    }
}

#[test]
fn check_request_and_decision_are_components() {
    let doc = document();
    let schemas = &doc["components"]["schemas"];
    assert_eq!(schemas["Decision"]["type"], "object");
    assert_eq!(schemas["CheckRequest"]["type"], "object");
    let check = &doc["paths"]["/v1/check"]["post"];
    assert_eq!(
        check["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/CheckRequest"
    );
    assert_eq!(
        check["responses"]["200"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/Decision"
    );
    for status in ["400", "401", "403", "413", "429", "503"] {
        assert!(check["responses"].get(status).is_some(), "{status}");
    }
    let stream = &doc["paths"]["/v1/check/stream"]["post"];
    assert!(stream["requestBody"]["content"]["application/x-ndjson"].is_object());
    assert!(stream["responses"]["200"]["content"]["application/x-ndjson"].is_object());
    let metrics = &doc["paths"]["/metrics"]["get"]["responses"]["200"]["content"];
    assert!(
        metrics
            .as_object()
            .unwrap()
            .keys()
            .all(|k| k.starts_with("text/plain"))
    );
}

/// Every `$ref` (with its JSON pointer) anywhere under `value`.
fn refs<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(obj) => {
            if let Some(Value::String(r)) = obj.get("$ref") {
                out.push(r);
            }
            obj.values().for_each(|v| refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

#[test]
fn every_ref_resolves_within_the_document() {
    let doc = document();
    let mut all = Vec::new();
    refs(&doc, &mut all);
    assert!(all.len() > 20, "{} refs", all.len());
    for r in all {
        let pointer = r
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("`{r}` points outside the document"));
        assert!(doc.pointer(pointer).is_some(), "`{r}` does not resolve");
    }
    // An `$id` would change what the refs under it resolve against.
    let mut ids = Vec::new();
    find_key(&doc, "$id", &mut ids);
    assert!(ids.is_empty(), "`$id` in the document: {ids:?}");
    let mut defs = Vec::new();
    find_key(&doc, "$defs", &mut defs);
    assert!(defs.is_empty(), "`$defs` are hoisted into components");
}

fn find_key<'a>(value: &'a Value, key: &str, out: &mut Vec<&'a Value>) {
    match value {
        Value::Object(obj) => {
            if let Some(v) = obj.get(key) {
                out.push(v);
            }
            obj.values().for_each(|v| find_key(v, key, out));
        }
        Value::Array(items) => items.iter().for_each(|v| find_key(v, key, out)),
        _ => {}
    }
}

/// The status of `method path` with an empty body.
async fn status(server: &util::Server, method: &str, path: &str) -> u16 {
    let method = reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes()).unwrap();
    server
        .client
        .request(method, format!("{}{path}", server.url))
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
}

/// Each documented path and method is answered (not a 404), and every
/// other method on it is a 405: the document and the router agree. The
/// document's own route is left out so that this holds whatever serves it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_service_answers_exactly_the_documented_routes() {
    // With an audit log, so that `/v1/audit` has records to show.
    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "audit: {{ path: '{}' }}\n",
        dir.path().join("a.jsonl").display()
    );
    let server = util::start(&config, None).await;
    let doc = document();
    let documented = documented(&doc);
    for (path, _) in ENDPOINTS.iter().filter(|(p, _)| *p != "/openapi.json") {
        for method in ["get", "post", "put", "delete", "patch"] {
            let got = status(&server, method, path).await;
            if documented.contains(&((*path).to_owned(), method.to_owned())) {
                assert_ne!(got, 404, "{method} {path} is documented but not served");
                assert_ne!(got, 405, "{method} {path} is documented but not allowed");
            } else {
                assert_eq!(got, 405, "{method} {path} is served but not documented");
            }
        }
    }
    assert_eq!(status(&server, "get", "/v1/nothing-here").await, 404);
}
