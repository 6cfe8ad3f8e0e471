//! A resource read by a closure: `ResourceSpec::fixed(..)?.serve(|read| async { .. })`.

use std::future::Future;

use super::{IntoContents, Resource, ResourceFuture, ResourceRead, ResourceSpec};

/// A resource whose reads a function answers; made by [`ResourceSpec::serve`].
pub struct FnResource<F> {
    spec: ResourceSpec,
    read: F,
}

impl<F> FnResource<F> {
    pub(crate) fn new(spec: ResourceSpec, read: F) -> Self {
        FnResource { spec, read }
    }
}

impl<F, Fut> Resource for FnResource<F>
where
    F: Fn(ResourceRead) -> Fut + Send + Sync + 'static,
    Fut: Future + Send + 'static,
    Fut::Output: IntoContents,
{
    fn spec(&self) -> &ResourceSpec {
        &self.spec
    }

    fn read(&self, read: ResourceRead) -> ResourceFuture {
        let uri = read.uri().to_owned();
        let mime_type = self.spec.mime_type().map(str::to_owned);
        let future = (self.read)(read);
        Box::pin(async move { future.await.into_contents(&uri, mime_type.as_deref()) })
    }
}

impl<F> std::fmt::Debug for FnResource<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FnResource").field("spec", &self.spec).finish_non_exhaustive()
    }
}
