//! HTTP 429 and 5xx are retried, honouring `retry-after`; other errors end
//! the run at once with the provider's message.

use std::time::{Duration, Instant};

use codeagent::agent::{Agent, AgentError, RetryPolicy};
use codeagent::prelude::*;

use crate::mock::{Answer, Mock};
use crate::replies;

fn quick() -> RetryPolicy {
    RetryPolicy::default().with_initial_delay(Duration::from_millis(10))
}

#[tokio::test]
async fn rate_limits_and_server_errors_are_retried_after_the_wait_asked_for() {
    let mock = Mock::start(vec![
        Answer::Status(429, vec![("retry-after", "1".to_owned())], r#"{"error": {"message": "slow down"}}"#.into()),
        Answer::Status(503, vec![], "overloaded".into()),
        replies::text("Finally."),
    ])
    .await;
    let agent = Agent::new(replies::client(&mock.url).with_retry(quick()), Toolbox::new());
    let started = Instant::now();
    let last = agent.run("hi", |_| {}).await.unwrap();
    assert_eq!(last.text, "Finally.");
    assert_eq!(mock.received().len(), 3);
    assert!(started.elapsed() >= Duration::from_secs(1), "retry-after: 1 was honoured: {:?}", started.elapsed());
}

#[tokio::test]
async fn retries_run_out_and_the_error_names_the_status_and_message() {
    let mock = Mock::start(vec![
        Answer::Status(500, vec![], r#"{"error": {"message": "internal trouble"}}"#.into()),
        Answer::Status(500, vec![], r#"{"error": {"message": "internal trouble"}}"#.into()),
    ])
    .await;
    let agent = Agent::new(replies::client(&mock.url).with_retry(quick().with_max_retries(1)), Toolbox::new());
    let error = agent.run("hi", |_| {}).await.unwrap_err();
    assert!(matches!(error, AgentError::Http { status: 500, .. }), "{error:?}");
    assert!(error.to_string().contains("HTTP 500: internal trouble"), "{error}");
    assert_eq!(mock.received().len(), 2);
}

#[tokio::test]
async fn a_client_error_is_not_retried() {
    let body = r#"{"error": {"message": "The model `gpt-nope` does not exist", "type": "invalid_request_error"}}"#;
    let mock = Mock::start(vec![Answer::Status(404, vec![], body.into())]).await;
    let agent = Agent::new(replies::client(&mock.url).with_retry(quick()), Toolbox::new());
    let error = agent.run("hi", |_| {}).await.unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("{}/v1/chat/completions answered HTTP 404: The model `gpt-nope` does not exist", mock.url)
    );
    assert_eq!(mock.received().len(), 1);
}

#[tokio::test]
async fn an_unreachable_server_is_an_error_naming_the_url() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let agent = Agent::new(replies::client(&url), Toolbox::new());
    let error = agent.run("hi", |_| {}).await.unwrap_err();
    assert!(matches!(error, AgentError::Unreachable { .. }), "{error:?}");
    assert!(error.to_string().starts_with(&format!("cannot reach {url}/v1/chat/completions: ")), "{error}");
    // The HTTP client's error is kept, typed, as the cause.
    let cause = std::error::Error::source(&error).expect("a cause");
    assert!(cause.downcast_ref::<hyper_util::client::legacy::Error>().is_some(), "{cause:?}");
}
