//! A prompt made by a closure: `PromptSpec::new(..).serve(|get| async { .. })`.

use std::future::Future;

use super::{IntoMessages, Prompt, PromptFuture, PromptGet, PromptSpec};

/// A prompt whose messages a function makes; made by [`PromptSpec::serve`].
pub struct FnPrompt<F> {
    spec: PromptSpec,
    get: F,
}

impl<F> FnPrompt<F> {
    pub(crate) fn new(spec: PromptSpec, get: F) -> Self {
        FnPrompt { spec, get }
    }
}

impl<F, Fut> Prompt for FnPrompt<F>
where
    F: Fn(PromptGet) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoMessages,
{
    fn spec(&self) -> &PromptSpec {
        &self.spec
    }

    fn get(&self, get: PromptGet) -> PromptFuture {
        let future = (self.get)(get);
        Box::pin(async move { future.await.into_messages() })
    }
}

impl<F> std::fmt::Debug for FnPrompt<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FnPrompt").field("spec", &self.spec).finish_non_exhaustive()
    }
}
