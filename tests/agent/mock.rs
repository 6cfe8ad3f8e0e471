//! A scripted model provider on 127.0.0.1: each request it receives is
//! recorded (path, headers, JSON body) and answered with the next scripted
//! answer: a JSON body, server-sent events (cut into small chunks, so events
//! and lines are split across reads), or an HTTP error.

use std::collections::VecDeque;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::Response;
use serde_json::Value;

/// One scripted answer.
#[derive(Clone, Debug)]
pub enum Answer {
    /// `200` with this JSON body.
    Json(Value),
    /// `200` `text/event-stream` with these events: `(event name, data)`, the
    /// name left out when empty.
    Sse(Vec<(String, String)>),
    /// This status, headers and body.
    Status(u16, Vec<(&'static str, String)>, String),
}

impl Answer {
    /// Events whose data is JSON, without names (Chat Completions, Gemini).
    pub fn data(events: impl IntoIterator<Item = Value>) -> Answer {
        Answer::Sse(events.into_iter().map(|data| (String::new(), data.to_string())).collect())
    }

    /// Events named after their data's `type` (Responses, Anthropic).
    pub fn typed(events: impl IntoIterator<Item = Value>) -> Answer {
        Answer::Sse(
            events
                .into_iter()
                .map(|data| (data["type"].as_str().unwrap_or_default().to_owned(), data.to_string()))
                .collect(),
        )
    }
}

/// A request as the mock received it.
#[derive(Clone, Debug)]
pub struct Received {
    /// The path and query.
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
}

/// The running mock.
pub struct Mock {
    /// `http://127.0.0.1:PORT`.
    pub url: String,
    received: Arc<Mutex<Vec<Received>>>,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for Mock {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl Mock {
    /// Serves `script`, one answer per request; a request beyond it gets a 400.
    pub async fn start(script: Vec<Answer>) -> Mock {
        let script = Arc::new(Mutex::new(VecDeque::from(script)));
        let received = Arc::new(Mutex::new(Vec::new()));
        let recorder = Arc::clone(&received);
        let app = axum::Router::new().fallback(move |uri: Uri, headers: HeaderMap, body: Bytes| {
            let script = Arc::clone(&script);
            let recorder = Arc::clone(&recorder);
            async move {
                let body =
                    serde_json::from_slice(&body).unwrap_or_else(|_| Value::from(String::from_utf8_lossy(&body)));
                let path = uri.path_and_query().map(ToString::to_string).unwrap_or_default();
                recorder.lock().unwrap().push(Received { path, headers, body });
                let next = script.lock().unwrap().pop_front();
                answer(next)
            }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let server = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Mock { url, received, server }
    }

    /// Every request so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// The bodies of every request so far.
    pub fn bodies(&self) -> Vec<Value> {
        self.received().into_iter().map(|received| received.body).collect()
    }
}

fn answer(next: Option<Answer>) -> Response {
    let builder = Response::builder();
    match next {
        None => builder.status(400).body(Body::from(r#"{"error": {"message": "the mock has no answer left"}}"#)),
        Some(Answer::Json(json)) => {
            builder.header("content-type", "application/json").body(Body::from(json.to_string()))
        }
        Some(Answer::Sse(events)) => {
            let mut text = String::new();
            for (name, data) in events {
                if !name.is_empty() {
                    text.push_str(&format!("event: {name}\n"));
                }
                text.push_str(&format!("data: {data}\n\n"));
            }
            let bytes = text.into_bytes();
            let chunks: Vec<Result<Bytes, Infallible>> =
                bytes.chunks(23).map(|chunk| Ok(Bytes::copy_from_slice(chunk))).collect();
            builder
                .header("content-type", "text/event-stream")
                .body(Body::from_stream(futures_util::stream::iter(chunks)))
        }
        Some(Answer::Status(status, headers, body)) => {
            let mut builder = builder.status(StatusCode::from_u16(status).unwrap());
            for (name, value) in headers {
                builder = builder.header(name, value);
            }
            builder.body(Body::from(body))
        }
    }
    .unwrap()
}
