//! Rate limits through the engine, with a clock the test controls.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use palisade_engine::{Clock, Engine};
use palisade_protocol::{CheckRequest, DecisionKind};
use serde_json::json;

#[derive(Debug, Default)]
struct Manual(AtomicU64);

impl Clock for Manual {
    fn now_millis(&self) -> u64 {
        self.0.load(Ordering::SeqCst)
    }
}

fn engine(clock: Arc<Manual>) -> Engine {
    Engine::from_yaml_str(
        "checks:\n  - { id: calls, stage: tool_use, type: rate_limit, max: 3, window_secs: 10, per: [agent, tool] }\n",
    )
    .unwrap()
    .with_clock(clock)
}

fn call(engine: &Engine, agent: &str, tool: &str) -> DecisionKind {
    let r = CheckRequest::tool_use(tool, json!({})).with_agent_id(agent);
    engine.evaluate(&r).unwrap().decision
}

#[test]
fn limits_per_key_with_exact_window_edges() {
    let clock = Arc::new(Manual::default());
    let e = engine(clock.clone());
    for _ in 0..3 {
        assert_eq!(call(&e, "a", "bash"), DecisionKind::Allow);
    }
    assert_eq!(
        call(&e, "a", "bash"),
        DecisionKind::Block,
        "the fourth call in the window"
    );
    assert_eq!(
        call(&e, "b", "bash"),
        DecisionKind::Allow,
        "another agent has its own count"
    );
    assert_eq!(
        call(&e, "a", "grep"),
        DecisionKind::Allow,
        "another tool has its own count"
    );
    clock.0.store(9_999, Ordering::SeqCst);
    assert_eq!(
        call(&e, "a", "bash"),
        DecisionKind::Block,
        "still inside the window"
    );
    clock.0.store(10_000, Ordering::SeqCst);
    assert_eq!(
        call(&e, "a", "bash"),
        DecisionKind::Allow,
        "the window has slid past the first calls"
    );
    assert_eq!(call(&e, "a", "bash"), DecisionKind::Allow);
    assert_eq!(call(&e, "a", "bash"), DecisionKind::Allow);
    assert_eq!(call(&e, "a", "bash"), DecisionKind::Block);
}

#[test]
fn the_finding_has_no_location_and_says_why() {
    let clock = Arc::new(Manual::default());
    let e = engine(clock);
    for _ in 0..3 {
        call(&e, "a", "bash");
    }
    let d = e
        .evaluate(&CheckRequest::tool_use("bash", json!({})).with_agent_id("a"))
        .unwrap();
    assert_eq!(d.reason_code.as_deref(), Some("guardrail.rate_limit"));
    let f = &d.violations[0];
    assert!(f.location.is_none());
    assert_eq!(
        f.message.as_deref(),
        Some("too many requests in the rate-limit window")
    );
}

#[test]
fn agents_cannot_share_a_key_by_choosing_names() {
    // Keys are length-prefixed: agent `a:b` + tool `c` is not agent `a` + tool `b:c`.
    let clock = Arc::new(Manual::default());
    let e = engine(clock);
    for _ in 0..3 {
        assert_eq!(call(&e, "a:b", "c"), DecisionKind::Allow);
    }
    assert_eq!(call(&e, "a", "b:c"), DecisionKind::Allow);
}

#[test]
fn concurrent_requests_are_counted_exactly() {
    let clock = Arc::new(Manual::default());
    let e = Arc::new(
        Engine::from_yaml_str(
            "checks:\n  - { id: all, stage: input, type: rate_limit, max: 100, window_secs: 60 }\n",
        )
        .unwrap()
        .with_clock(clock),
    );
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let e = e.clone();
            std::thread::spawn(move || {
                (0..50)
                    .filter(|_| {
                        e.evaluate(&CheckRequest::input("hi")).unwrap().decision
                            == DecisionKind::Allow
                    })
                    .count()
            })
        })
        .collect();
    let allowed: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert_eq!(allowed, 100);
}
