//! The committed OpenAPI document (`schemas/openapi.json`, written by
//! `cargo xtask generate`): a well-formed OpenAPI 3.1 document whose refs
//! resolve, and whose paths and methods are exactly what the service answers.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test code"
)]

use crate::util;

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
    ("/v1/policy", &["get"]),
    ("/v1/audit", &["get"]),
    ("/v1/approvals", &["get"]),
    ("/v1/approvals/{id}", &["get", "post"]),
    ("/v1/autogen/evaluate", &["post"]),
    ("/v1/hooks/{host}", &["post"]),
    ("/health", &["get"]),
    ("/healthz", &["get"]),
    ("/metrics", &["get"]),
    ("/openapi.json", &["get"]),
    ("/", &["get"]),
];

/// The endpoints anyone may call, without an API key (the playground page
/// holds no data).
const PUBLIC: &[&str] = &["/health", "/healthz", "/"];

/// The methods an operation may have in OpenAPI.
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

fn document() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/openapi.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run `cargo xtask generate`", path.display()));
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
            .all(|k| k.starts_with("application/openmetrics-text"))
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
    // An approval, so that `/v1/approvals/{id}` has one to show.
    let asked: Value = server
        .client
        .post(format!("{}/v1/check", server.url))
        .json(&serde_json::json!({"tool": {"name": "bash", "arguments": {"command": "rm -rf /"}}}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = asked["approval"]["id"].as_str().unwrap().to_owned();
    let doc = document();
    let documented = documented(&doc);
    for (path, _) in ENDPOINTS.iter().filter(|(p, _)| *p != "/openapi.json") {
        for method in ["get", "post", "put", "delete", "patch"] {
            let path_of = path.replace("{host}", "claude-code").replace("{id}", &id);
            let got = status(&server, method, &path_of).await;
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

/// A validator of the document's component `name`.
fn component(doc: &Value, name: &str) -> jsonschema::Validator {
    let schema = serde_json::json!({
        "$ref": format!("#/components/schemas/{name}"),
        "components": doc["components"],
    });
    jsonschema::draft202012::new(&schema).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Checks `instance` against the component `name`, naming every mismatch.
fn conforms(doc: &Value, name: &str, instance: &Value) {
    let errors: Vec<String> = component(doc, name)
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}: {instance}\n{errors:#?}");
}

/// The schemas are derived from the types the handlers read and write:
/// what the service answers (decisions, dialect answers, errors of every
/// kind) conforms to the documented components, and the documented
/// requests are what it takes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_answers_conform_to_their_components() {
    use serde_json::json;

    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "audit: {{ path: '{}' }}\nrate_limits: {{ per_agent: {{ requests: 1, per_secs: 60 }} }}\n",
        dir.path().join("a.jsonl").display()
    );
    let server = util::start(&config, Some(&util::cstp_policy())).await;
    let doc = document();
    let post = |path: &str, body: Value| {
        let request = server
            .client
            .post(format!("{}{path}", server.url))
            .json(&body);
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.unwrap())
        }
    };

    let v1 = json!({"agent": {"id": "a1"}, "tool": {"name": "bash", "arguments": {"command": "rm -rf /"}}});
    conforms(&doc, "CheckRequest", &v1);
    let (status, decision) = post("/v1/check", v1).await;
    assert_eq!(status, 200, "{decision}");
    conforms(&doc, "Decision", &decision);

    let hosted = json!({"agent_id": "a2", "content": "hello", "context": {"tool_name": "search"}});
    conforms(&doc, "HostedCheckRequest", &hosted);
    let (status, answer) = post("/v1/guardrails/check", hosted).await;
    assert_eq!(status, 200, "{answer}");
    conforms(&doc, "HostedCheckResponse", &answer);

    let params = json!({
        "action": {"description": "Deploy to production", "stakes": "high", "confidence": 0.9,
                   "context": {"affectsProduction": true}},
        "agent": {"id": "a3"}
    });
    conforms(&doc, "CstpCheckParams", &params);
    let call =
        json!({"jsonrpc": "2.0", "id": 1, "method": "cstp.checkGuardrails", "params": params});
    conforms(&doc, "JsonRpcRequest", &call);
    let (status, reply) = post("/rpc", call).await;
    assert_eq!(status, 200, "{reply}");
    conforms(&doc, "JsonRpcResponse", &reply);
    conforms(&doc, "CstpCheckResult", &reply["result"]);
    let bad = json!({"jsonrpc": "2.0", "id": "x", "method": "cstp.checkGuardrails", "params": {"action": {}}});
    let (_, reply) = post("/cstp", bad).await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    conforms(&doc, "JsonRpcResponse", &reply);

    let evaluate = json!({"tool_name": "bash", "args": {"command": "ls"}, "agent_name": "a4", "call_id": "c1"});
    conforms(&doc, "AutogenEvaluate", &evaluate);
    let (status, result) = post("/v1/autogen/evaluate", evaluate).await;
    assert_eq!(status, 200, "{result}");
    conforms(&doc, "AutogenResult", &result);

    // Errors: a bad request, the rate limit, an unknown path, a wrong method.
    let (status, e) = post("/v1/guardrails/check", json!({"agent_id": 7})).await;
    assert_eq!(status, 400);
    conforms(&doc, "Error", &e);
    let (status, e) = post(
        "/v1/check",
        json!({"agent": {"id": "a1"}, "content": "again"}),
    )
    .await;
    assert_eq!(status, 429, "{e}");
    conforms(&doc, "Error", &e);
    let (status, e) = post("/v1/nothing-here", json!({})).await;
    assert_eq!(status, 404);
    conforms(&doc, "Error", &e);
    let response = server
        .client
        .get(format!("{}/health", server.url))
        .send()
        .await
        .unwrap();
    conforms(&doc, "Health", &response.json::<Value>().await.unwrap());
    let response = server
        .client
        .get(format!("{}/v1/audit?limit=3", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    conforms(&doc, "AuditPage", &response.json::<Value>().await.unwrap());
    let response = server
        .client
        .get(format!("{}/v1/policy", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    conforms(&doc, "PolicyView", &response.json::<Value>().await.unwrap());
    let response = server
        .client
        .post(format!("{}/v1/admin/reload", server.url))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    conforms(&doc, "Reloaded", &response.json::<Value>().await.unwrap());

    // Approvals (the default policy asks about `rm -rf`): the ask's
    // approval, the list, an answer, a refused answer, the use.
    let asking = util::start("", None).await;
    let post_to = |path: &str, body: Value| {
        let request = asking
            .client
            .post(format!("{}{path}", asking.url))
            .json(&body);
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.unwrap())
        }
    };
    let call = json!({"options": {"interactive": true}, "tool": {"name": "bash", "arguments": {"command": "rm -rf build"}}});
    let (status, asked) = post_to("/v1/check", call.clone()).await;
    assert_eq!(
        (status, &asked["decision"]),
        (200, &json!("ask")),
        "{asked}"
    );
    conforms(&doc, "Decision", &asked);
    let id = asked["approval"]["id"].as_str().unwrap().to_owned();
    let response = asking
        .client
        .get(format!("{}/v1/approvals?state=pending", asking.url))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    conforms(
        &doc,
        "ApprovalList",
        &response.json::<Value>().await.unwrap(),
    );
    let answer = json!({"decision": "approve", "note": "fine"});
    conforms(&doc, "ApprovalAnswer", &answer);
    let (status, answered) = post_to(&format!("/v1/approvals/{id}"), answer.clone()).await;
    assert_eq!(status, 200, "{answered}");
    conforms(&doc, "ApprovalView", &answered);
    let (status, e) = post_to(&format!("/v1/approvals/{id}"), answer).await;
    assert_eq!(status, 409, "{e}");
    conforms(&doc, "Error", &e);
    let mut again = call;
    again["approvalId"] = json!(id);
    conforms(&doc, "CheckRequest", &again);
    let (status, used) = post_to("/v1/check", again).await;
    assert_eq!(
        (status, &used["decision"]),
        (200, &json!("allow")),
        "{used}"
    );
    conforms(&doc, "Decision", &used);

    // And what the documents refuse, the service refuses.
    let wrong = json!({"agent_id": ""});
    assert!(!component(&doc, "HostedCheckRequest").is_valid(&wrong));
    assert_eq!(post("/v1/guardrails/check", wrong).await.0, 400);
}

/// The MCP tools' committed input schemas are the ones derived from the
/// types, and the service lists exactly them.
#[test]
fn the_mcp_tool_schemas_are_the_derived_ones() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schemas/mcp-tools.json");
    let committed: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let inside: Value = serde_json::from_str(include_str!("../../mcp-tools.json")).unwrap();
    assert_eq!(committed, inside);
    for (tool, schema) in committed.as_object().unwrap() {
        assert_eq!(schema["type"], "object", "{tool}");
        jsonschema::draft202012::new(schema).unwrap_or_else(|e| panic!("{tool}: {e}"));
    }
    let check = jsonschema::draft202012::new(&committed["check"]).unwrap();
    assert!(check.is_valid(&serde_json::json!({"stage": "input", "content": "hi"})));
    assert!(!check.is_valid(&serde_json::json!({"stage": "sideways"})));
    let action = jsonschema::draft202012::new(&committed["check_action"]).unwrap();
    assert!(action.is_valid(&serde_json::json!({"description": "Deploy", "stakes": "high"})));
    assert!(!action.is_valid(&serde_json::json!({"stakes": "high"})));
}
