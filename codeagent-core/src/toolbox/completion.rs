//! Argument completion (`completion/complete`): a function attached to a
//! prompt argument or a resource-template variable suggests values for what
//! the user has typed so far.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

/// The most values one completion answer may carry (MCP's limit).
pub const MAX_COMPLETIONS: usize = 100;

/// What a completer runs: what was typed and the arguments given, to values.
type CompleteFn = dyn Fn(&str, &BTreeMap<String, String>) -> Vec<String> + Send + Sync;

/// Suggests values for an argument: given what the user typed and the
/// arguments already given, the candidate values, best first.
#[derive(Clone)]
pub struct Completer(Arc<CompleteFn>);

impl Completer {
    /// A completer calling `complete(typed, given)`.
    pub fn new(complete: impl Fn(&str, &BTreeMap<String, String>) -> Vec<String> + Send + Sync + 'static) -> Self {
        Completer(Arc::new(complete))
    }

    /// A completer offering the `values` that start with what was typed
    /// (ignoring case).
    pub fn from_values<S: Into<String>>(values: impl IntoIterator<Item = S>) -> Self {
        let values: Vec<String> = values.into_iter().map(Into::into).collect();
        Completer::new(move |typed, _| {
            let typed = typed.to_lowercase();
            values.iter().filter(|value| value.to_lowercase().starts_with(&typed)).cloned().collect()
        })
    }

    /// The completion of `typed`, given the other arguments `given`: at most
    /// [`MAX_COMPLETIONS`] values, with the total and whether more exist.
    pub fn complete(&self, typed: &str, given: &BTreeMap<String, String>) -> Completion {
        Completion::of((self.0)(typed, given))
    }
}

impl fmt::Debug for Completer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Completer(..)")
    }
}

/// One `completion/complete` answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Completion {
    /// The values offered, at most [`MAX_COMPLETIONS`].
    pub values: Vec<String>,
    /// How many values there are in all.
    pub total: usize,
    /// Whether values were left out.
    pub has_more: bool,
}

impl Completion {
    /// The answer offering `values` (cut to [`MAX_COMPLETIONS`]).
    pub fn of(mut values: Vec<String>) -> Self {
        let total = values.len();
        values.truncate(MAX_COMPLETIONS);
        Completion { has_more: total > values.len(), total, values }
    }
}

/// Runs `completer` (no completer: no suggestion), its panic an error for
/// this request only.
pub(crate) fn guarded(
    completer: Option<&Completer>,
    typed: &str,
    given: &BTreeMap<String, String>,
) -> Result<Completion, super::errors::CompleteError> {
    let Some(completer) = completer else { return Ok(Completion::default()) };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| completer.complete(typed, given)))
        .map_err(|payload| super::errors::CompleteError::Panicked(super::run::panic_message(&*payload)))
}
