//! The turn limit: the default allows at least 8 model requests; at the
//! limit, calls still asked for are not run and the run says why it stopped.

use codeagent::agent::{Agent, AgentEvent, StopReason};
use codeagent::prelude::*;
use futures_util::StreamExt;

use crate::mock::{Answer, Mock};
use crate::replies;

/// Add two integers.
#[tool]
fn add(
    /// The first addend.
    a: i64,
    /// The second addend.
    b: i64,
) -> i64 {
    a + b
}

#[tokio::test]
async fn the_default_limit_allows_eight_rounds_of_tools_and_an_answer() {
    const { assert!(Agent::DEFAULT_MAX_TURNS >= 8) };
    let mut script: Vec<Answer> =
        (0..8).map(|round| replies::calls(&[(&format!("c{round}"), "add", r#"{"a": 1, "b": 1}"#)])).collect();
    script.push(replies::text("Eight sums."));
    let mock = Mock::start(script).await;
    let mut seen = 0;
    let last =
        Agent::new(replies::client(&mock.url), Toolbox::new().tool(add)).run("sum", |_| seen += 1).await.unwrap();
    assert_eq!((last.text.as_str(), last.stop, last.requests, seen), ("Eight sums.", StopReason::Answered, 9, 8));
    let bodies = mock.bodies();
    assert_eq!(bodies[8]["messages"].as_array().unwrap().len(), 1 + 8 * 2, "every round is in the last request");
}

#[tokio::test]
async fn at_the_limit_the_calls_asked_for_are_not_run() {
    let mock = Mock::start(vec![
        replies::calls(&[("c1", "add", r#"{"a": 1, "b": 2}"#)]),
        replies::calls(&[("c2", "add", r#"{"a": 3, "b": 4}"#)]),
    ])
    .await;
    let agent = Agent::new(replies::client(&mock.url), Toolbox::new().tool(add)).with_max_turns(2);
    let events: Vec<AgentEvent> = agent.stream("sum").map(Result::unwrap).collect().await;
    let results: Vec<&str> = events
        .iter()
        .filter_map(|event| if let AgentEvent::ToolResult(result) = event { Some(result.id.as_str()) } else { None })
        .collect();
    assert_eq!(results, ["c1"]);
    let Some(AgentEvent::Finished(last)) = events.last() else { panic!("{events:?}") };
    assert_eq!((last.stop, last.requests), (StopReason::TurnLimit, 2));
    assert_eq!(mock.received().len(), 2);
}
