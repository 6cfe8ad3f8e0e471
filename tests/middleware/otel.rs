//! OpenTelemetry export (feature `otel`): the spans of `Trace` reach an
//! OTLP/HTTP receiver inside the test (POST /v1/traces on 127.0.0.1),
//! decoded with the official OTLP protobuf definitions (`opentelemetry-proto`),
//! named after the method and tool, with their attributes, and parented on
//! the trace the client sent in `_meta.traceparent` (SEP-414).
//!
//! The test's subscriber is its thread's default, not the process's: the
//! request log's tests ([`super::log`]) own the global one. So the test runs
//! on a current-thread runtime, where the servers and clients it starts run
//! on that thread too and every span they open reaches the exporter.

use std::time::Duration;

use axum::body::Bytes;
use axum::routing::post;
use codeagent::server::otel;
use codeagent::server::trace::Trace;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Any;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tracing_subscriber::layer::SubscriberExt;

use crate::common;
use crate::common::client::{Client, Transport, behaviour_server};

const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT_ID: &str = "00f067aa0ba902b7";

/// A receiver of OTLP/HTTP exports: every span of every request it gets.
async fn receiver() -> (String, mpsc::UnboundedReceiver<Span>) {
    let (sender, spans) = mpsc::unbounded_channel();
    let app = axum::Router::new().route(
        "/v1/traces",
        post(move |body: Bytes| {
            let sender = sender.clone();
            async move {
                let export = ExportTraceServiceRequest::decode(body).expect("an OTLP protobuf export");
                for resource in export.resource_spans {
                    for scope in resource.scope_spans {
                        for span in scope.spans {
                            let _ = sender.send(span);
                        }
                    }
                }
                ([("content-type", "application/x-protobuf")], Vec::<u8>::new())
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
    let url = format!("http://{}/v1/traces", listener.local_addr().expect("its address"));
    tokio::spawn(async move { axum::serve(listener, app).await.expect("the receiver runs") });
    (url, spans)
}

fn attribute<'a>(span: &'a Span, key: &str) -> Option<&'a Any> {
    span.attributes.iter().find(|attribute| attribute.key == key)?.value.as_ref()?.value.as_ref()
}

fn text_attribute<'a>(span: &'a Span, key: &str) -> Option<&'a str> {
    match attribute(span, key)? {
        Any::StringValue(text) => Some(text),
        _ => None,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn modern(mut params: Value, meta: Value) -> Value {
    use codeagent::server::{CLIENT_CAPABILITIES_KEY, CLIENT_INFO_KEY, PROTOCOL_VERSION_KEY};
    let mut full = json!({
        PROTOCOL_VERSION_KEY: "2026-07-28",
        CLIENT_CAPABILITIES_KEY: {},
        CLIENT_INFO_KEY: {"name": "otel-test", "version": "1.0.0"},
    });
    full.as_object_mut().unwrap().extend(meta.as_object().unwrap().clone());
    params.as_object_mut().unwrap().insert("_meta".into(), full);
    params
}

#[tokio::test]
async fn spans_reach_an_otlp_receiver_and_continue_the_callers_trace() {
    common::bounded(async {
        let (url, mut spans) = receiver().await;
        let provider = otel::tracer_provider(&url, "otel-test").expect("an exporter");
        let subscriber = tracing_subscriber::registry().with(otel::layer(&provider));
        let _scoped = tracing::subscriber::set_default(subscriber);

        for transport in Transport::ALL {
            let mut client = Client::start(transport, behaviour_server().with_middleware(Trace::new())).await;
            let traceparent = format!("00-{TRACE_ID}-{PARENT_ID}-01");
            let meta = json!({"traceparent": traceparent, "tracestate": "vendor=1"});
            let add = json!({"name": "add", "arguments": {"a": 2, "b": 3}});
            client.result(1, "tools/call", modern(add, meta)).await;
            let wrong = json!({"name": "add", "arguments": {"a": "two", "b": 3}});
            client.result(2, "tools/call", modern(wrong, json!({}))).await;
            client.initialize(common::V2025_11).await;
            client.result(3, "tools/list", json!({})).await;
        }

        let flushing = provider.clone();
        tokio::task::spawn_blocking(move || flushing.force_flush()).await.expect("flushed").expect("exported");
        let mut received = Vec::new();
        while let Ok(Some(span)) = tokio::time::timeout(Duration::from_secs(2), spans.recv()).await {
            received.push(span);
        }
        let named = |name: &str| received.iter().filter(|span| span.name == name).collect::<Vec<_>>();
        let names: Vec<&str> = received.iter().map(|span| span.name.as_str()).collect();

        let calls = named("tools/call add");
        assert_eq!(calls.len(), 4, "two calls of add per transport: {names:?}");
        let continued: Vec<&&Span> = calls.iter().filter(|span| hex(&span.trace_id) == TRACE_ID).collect();
        assert_eq!(continued.len(), 2, "the calls with a traceparent continue its trace: {names:?}");
        for span in &continued {
            assert_eq!(hex(&span.parent_span_id), PARENT_ID, "the caller's span is the parent");
            assert_eq!(text_attribute(span, "mcp.method.name"), Some("tools/call"));
            assert_eq!(text_attribute(span, "gen_ai.tool.name"), Some("add"));
            assert_eq!(text_attribute(span, "mcp.protocol.version"), Some("2026-07-28"));
            assert_eq!(text_attribute(span, "mcp.outcome"), Some("ok"));
            assert!(attribute(span, "duration_ms").is_some(), "the duration is recorded: {span:?}");
            assert_eq!(span.kind, opentelemetry_proto::tonic::trace::v1::span::SpanKind::Server as i32);
        }
        let failed: Vec<&&Span> = calls.iter().filter(|span| hex(&span.trace_id) != TRACE_ID).collect();
        for span in &failed {
            assert!(span.parent_span_id.is_empty(), "without a traceparent a span starts a trace");
            assert_eq!(text_attribute(span, "mcp.outcome"), Some("tool_error"), "{span:?}");
        }
        let lists = named("tools/list");
        assert_eq!(lists.len(), 2, "{names:?}");
        assert!(lists.iter().all(|span| text_attribute(span, "mcp.protocol.version") == Some("2025-11-25")));
        assert_eq!(named("initialize").len(), 2, "{names:?}");
        let _ = tokio::task::spawn_blocking(move || provider.shutdown()).await;
    })
    .await;
}
