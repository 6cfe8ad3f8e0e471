//! Server-sent events from a streamed answer, parsed by `eventsource-stream`.

use futures_util::{Stream, StreamExt};
use http_body_util::BodyExt;
use hyper::Response;
use hyper::body::Incoming;

use super::error::AgentError;

/// One server-sent event: its `event:` name (empty when none) and its `data:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct SseEvent {
    pub(super) name: String,
    pub(super) data: String,
}

/// The events of `response`'s body, as they arrive.
pub(super) fn events(response: Response<Incoming>) -> impl Stream<Item = Result<SseEvent, AgentError>> + Send {
    use eventsource_stream::Eventsource;
    response.into_body().into_data_stream().eventsource().map(|event| match event {
        Ok(event) => Ok(SseEvent { name: event.event, data: event.data }),
        Err(error) => Err(AgentError::Unreachable {
            url: String::new(),
            reason: format!("reading the stream: {error}"),
            source: Some(Box::new(error)),
        }),
    })
}
