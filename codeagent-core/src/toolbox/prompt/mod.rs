//! Prompts: message templates a client offers its user, got with
//! `prompts/get`, with named string arguments.
//!
//! ```
//! use codeagent_core::prompts::{PromptArgument, PromptSpec};
//! use codeagent_core::toolbox::Toolbox;
//!
//! # async fn demo() {
//! let review = PromptSpec::new("review")
//!     .with_description("Review a change.")
//!     .with_argument(PromptArgument::required("path").with_description("The file to review."))
//!     .serve(|get| async move { format!("Please review {}.", get.argument("path").unwrap_or_default()) });
//! let toolbox = Toolbox::new().prompt(review);
//! let messages = toolbox.prompts().get("review", [("path", "src/lib.rs")]).await.unwrap();
//! assert_eq!(messages[0].text(), Some("Please review src/lib.rs."));
//! # }
//! ```

mod function;
mod messages;
mod spec;

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

pub use function::FnPrompt;
pub use messages::{IntoMessages, PromptMessage};
pub use spec::{PromptArgument, PromptSpec};

use super::Context;
use super::param::{State, StateMap};

/// The future a prompt returns.
pub type PromptFuture = Pin<Box<dyn Future<Output = Result<Vec<PromptMessage>, PromptError>> + Send + 'static>>;

/// A prompt: a description and a way to make its messages.
pub trait Prompt: Send + Sync + 'static {
    /// The prompt's description, built once.
    fn spec(&self) -> &PromptSpec;

    /// The messages for `get`'s arguments, which the toolbox has checked
    /// against the spec (every required one given, no unknown one).
    fn get(&self, get: PromptGet) -> PromptFuture;
}

/// One `prompts/get`: the arguments given, the request's context and the
/// toolbox's shared state.
#[derive(Debug)]
pub struct PromptGet {
    arguments: BTreeMap<String, String>,
    context: Context,
    state: Arc<StateMap>,
}

impl PromptGet {
    pub(crate) fn new(arguments: BTreeMap<String, String>, context: Context, state: Arc<StateMap>) -> Self {
        PromptGet { arguments, context, state }
    }

    /// The shared state of type `S` given to
    /// [`Toolbox::with_state`](crate::toolbox::Toolbox::with_state), when there is one.
    pub fn state<S: Send + Sync + 'static>(&self) -> Option<State<S>> {
        self.state.get::<S>().map(State)
    }

    /// The value of argument `name`, when given.
    pub fn argument(&self, name: &str) -> Option<&str> {
        self.arguments.get(name).map(String::as_str)
    }

    /// Every argument given, by name.
    pub fn arguments(&self) -> &BTreeMap<String, String> {
        &self.arguments
    }

    /// The request's context.
    pub fn context(&self) -> &Context {
        &self.context
    }
}

/// Why a prompt could not be got.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PromptError {
    /// No prompt has this name.
    #[error("Unknown prompt: {0}")]
    UnknownPrompt(String),
    /// A required argument was not given.
    #[error("Invalid arguments for prompt {prompt}: missing required argument `{argument}`")]
    MissingArgument {
        /// The prompt.
        prompt: String,
        /// The argument.
        argument: String,
    },
    /// An argument the prompt does not have was given.
    #[error("Invalid arguments for prompt {prompt}: unknown argument `{argument}`; expected one of: {expected}")]
    UnknownArgument {
        /// The prompt.
        prompt: String,
        /// The argument.
        argument: String,
        /// The prompt's arguments, listed.
        expected: String,
    },
    /// An argument value is not a string.
    #[error("Invalid arguments for prompt {prompt}: `{argument}` must be a string")]
    NotAString {
        /// The prompt.
        prompt: String,
        /// The argument.
        argument: String,
    },
    /// The prompt failed; the message says why.
    #[error("{0}")]
    Failed(String),
}

impl PromptError {
    /// A failure with `message`.
    pub fn failed(message: impl Into<String>) -> Self {
        PromptError::Failed(message.into())
    }

    /// Whether the client's request was at fault (an invalid-params error),
    /// not the prompt.
    pub fn is_invalid_params(&self) -> bool {
        !matches!(self, PromptError::Failed(_))
    }
}
