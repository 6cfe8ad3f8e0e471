//! OpenTelemetry export of the request spans (feature `otel`): OTLP over
//! HTTP/protobuf, and the caller's `traceparent` as each span's parent.
//!
//! ```no_run
//! use tracing_subscriber::layer::SubscriberExt;
//! use codeagent_core::server::otel;
//!
//! let provider = otel::tracer_provider("http://127.0.0.1:4318/v1/traces", "my-server")?;
//! let subscriber = tracing_subscriber::registry().with(otel::layer(&provider));
//! tracing::subscriber::set_global_default(subscriber)?;
//! // ... serve with `Server::with_middleware(Trace::new())`, then:
//! provider.shutdown()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;

use opentelemetry::propagation::TextMapPropagator;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_otlp::{Protocol, SpanExporter, WithExportConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider};
use serde_json::{Map, Value};
use tracing_opentelemetry::{OpenTelemetryLayer, OpenTelemetrySpanExt};

pub use opentelemetry;
pub use opentelemetry_otlp;
pub use opentelemetry_sdk;
pub use tracing_opentelemetry;

use crate::mcp::meta::{TRACEPARENT_KEY, TRACESTATE_KEY};

/// A tracer provider exporting spans in batches to the OTLP/HTTP endpoint
/// `endpoint` (the whole URL, e.g. `http://collector:4318/v1/traces`), as
/// service `service_name`. Call its `force_flush` or `shutdown` before the
/// process ends, so the last spans go out.
pub fn tracer_provider(
    endpoint: &str,
    service_name: &str,
) -> Result<SdkTracerProvider, opentelemetry_otlp::ExporterBuildError> {
    let exporter =
        SpanExporter::builder().with_http().with_protocol(Protocol::HttpBinary).with_endpoint(endpoint).build()?;
    let resource = Resource::builder().with_service_name(service_name.to_owned()).build();
    Ok(SdkTracerProvider::builder().with_batch_exporter(exporter).with_resource(resource).build())
}

/// The `tracing` layer turning spans into OpenTelemetry spans of `provider`.
pub fn layer<S>(provider: &SdkTracerProvider) -> OpenTelemetryLayer<S, SdkTracer>
where
    S: tracing::Subscriber + for<'span> tracing_subscriber::registry::LookupSpan<'span>,
{
    tracing_opentelemetry::layer().with_tracer(provider.tracer("codeagent"))
}

/// Makes the caller's trace (`traceparent`, `tracestate` in `meta`) the
/// parent of `span`.
pub(crate) fn continue_trace(span: &tracing::Span, meta: Option<&Map<String, Value>>) {
    let Some(meta) = meta else { return };
    let mut carrier = HashMap::new();
    for key in [TRACEPARENT_KEY, TRACESTATE_KEY] {
        if let Some(value) = meta.get(key).and_then(Value::as_str) {
            carrier.insert(key.to_owned(), value.to_owned());
        }
    }
    let parent = TraceContextPropagator::new().extract(&carrier);
    let _ = span.set_parent(parent);
}
