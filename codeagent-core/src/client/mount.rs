//! Mounting a server into a toolbox: its tools, resources and prompts served
//! as the toolbox's own under a prefix, each use forwarded to the server
//! (progress, cancellation and questions passed through), and the server's
//! list changes followed.
//!
//! Names: the tool or prompt `name` of the server mounted as `docs` is
//! `docs_name`; its resource `file:///a` is `docs+file:///a` (the prefix
//! joins the URI's scheme, so the URI stays a URI and maps back exactly).
//! A server mounted with [`Toolbox::mount_removable`] and no prefix keeps its
//! names, and its [`Mount`] takes everything it mounted out again, or puts
//! another server in its place in one step ([`Mount::replace`]).

use std::collections::BTreeSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use serde_json::{Map, Value};
use tokio::sync::broadcast::error::RecvError;
use tokio::task::JoinHandle;

use super::{Client, ClientError, Listen, ServerEvent};
use crate::log_text::escaped;
use crate::mcp::meta::UI_META_KEY;
use crate::mcp::{PromptDefinition, ResourceContents, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition};
use crate::prompts::{PromptArgument, PromptMessage, PromptSpec};
use crate::resources::ResourceSpec;
use crate::result::ToolResult;
use crate::toolbox::{Tool, ToolCall, ToolFuture, ToolSpec, Toolbox};

/// Why a server could not be mounted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MountError {
    /// The prefix cannot name tools and URI schemes.
    #[error("the mount prefix `{0}` must start with an ASCII letter and hold only letters, digits and `-`")]
    Prefix(String),
    /// The server did not answer a listing.
    #[error("mounting `{prefix}`: {source}")]
    Client {
        /// The mount's prefix.
        prefix: String,
        /// What failed.
        source: ClientError,
    },
    /// A mounted name is taken in the toolbox.
    #[error("mounting `{prefix}`: {what} is already in the toolbox")]
    Taken {
        /// The mount's prefix.
        prefix: String,
        /// The tool, resource or prompt taken.
        what: String,
    },
}

/// One mounted server.
struct Mounted {
    /// The prefix, or a label for messages when `renamed` is false.
    prefix: String,
    /// Whether names and URIs carry the prefix.
    renamed: bool,
    /// Set by [`Mount::unmount`]: no listing is mounted any more.
    gone: AtomicBool,
    client: Client,
    toolbox: Toolbox,
    tools: Mutex<BTreeSet<String>>,
    resources: Mutex<BTreeSet<String>>,
    prompts: Mutex<BTreeSet<String>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Toolbox {
    /// Serves the tools, resources and prompts of the server behind
    /// `client` as this toolbox's own, under `prefix`: tool `name` as
    /// `prefix_name`, resource `scheme://…` as `prefix+scheme://…`, prompt
    /// `name` as `prefix_name`. Calls are forwarded with their progress and
    /// cancellation; the server's questions reach this toolbox's caller when
    /// the client was built with [`Handlers::forward`](super::Handlers::forward).
    /// The server's list changes are followed while the client lives.
    ///
    /// Each use of a mounted tool, resource or prompt is made for its
    /// caller: when the client's [`OAuth`](super::OAuth) uses
    /// [`token_exchange`](super::OAuth::token_exchange), it carries a token
    /// exchanged for that caller; otherwise the client's own token, never
    /// the caller's.
    ///
    /// A mounted toolbox is served like any other, so a server on stdio can
    /// be offered over HTTP and the reverse. A tool's MCP Apps view (its
    /// `_meta.ui`) is not mounted.
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
    /// use codeagent_core::client::{Client, Handlers};
    /// use codeagent_core::toolbox::Toolbox;
    ///
    /// let time = Client::builder().handlers(Handlers::forward()).connect("uvx mcp-server-time").await?;
    /// let toolbox = Toolbox::new();
    /// toolbox.mount("time", time).await?;
    /// assert!(toolbox.tools().names().contains(&"time_get_current_time".to_owned()));
    /// # Ok(()) }
    /// ```
    pub async fn mount(&self, prefix: &str, client: Client) -> Result<(), MountError> {
        // Dropping the handle leaves the server mounted.
        self.mount_removable(Some(prefix), client).await.map(drop)
    }

    /// Like [`mount`](Toolbox::mount), with `prefix` optional, and gives the
    /// [`Mount`] that can take the server's tools, resources and prompts out
    /// of this toolbox again ([`Mount::unmount`]). Without a prefix the
    /// server's names and URIs are served unchanged, so the toolbox offers
    /// the server as it is: a gateway that stays up while the server behind
    /// it is replaced (`cargo codeagent dev`). Dropping the `Mount` leaves
    /// the server mounted.
    ///
    /// When a name is already taken (or a listing fails), nothing of the
    /// server stays mounted.
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
    /// use codeagent_core::client::Client;
    /// use codeagent_core::toolbox::Toolbox;
    ///
    /// let toolbox = Toolbox::new();
    /// let first = toolbox.mount_removable(None, Client::builder().connect("./server").await?).await?;
    /// // Later: the same server, rebuilt. The toolbox's clients see one
    /// // `list_changed` per list and keep their connection.
    /// let next = Client::builder().connect("./server").await?;
    /// first.unmount();
    /// let _second = toolbox.mount_removable(None, next).await?;
    /// # Ok(()) }
    /// ```
    pub async fn mount_removable(&self, prefix: Option<&str>, client: Client) -> Result<Mount, MountError> {
        if let Some(prefix) = prefix {
            let valid = prefix.chars().next().is_some_and(|first| first.is_ascii_alphabetic())
                && prefix.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
            if !valid {
                return Err(MountError::Prefix(prefix.to_owned()));
            }
        }
        let mounted = Arc::new(Mounted {
            prefix: prefix.unwrap_or("(unprefixed)").to_owned(),
            renamed: prefix.is_some(),
            gone: AtomicBool::new(false),
            client,
            toolbox: self.clone(),
            tools: Mutex::new(BTreeSet::new()),
            resources: Mutex::new(BTreeSet::new()),
            prompts: Mutex::new(BTreeSet::new()),
        });
        // Follow changes from before the first listing, so none is missed.
        let events = mounted.client.events();
        let listening = match mounted.client.listen(Listen::lists()).await {
            Ok(listening) => Some(listening),
            Err(error) => {
                tracing::debug!("`{}` offers no change notifications: {}", mounted.prefix, escaped(&error.to_string()));
                None
            }
        };
        let first = async {
            mounted.sync_tools(true).await?;
            mounted.sync_resources(true).await?;
            mounted.sync_prompts(true).await
        };
        if let Err(error) = first.await {
            mounted.take_out();
            return Err(error);
        }
        let following = Arc::clone(&mounted);
        let follower = tokio::spawn(async move {
            let _listening = listening;
            following.follow(events).await;
        });
        Ok(Mount { mounted, follower })
    }
}

/// A server mounted with [`Toolbox::mount_removable`].
///
/// Dropping it leaves the server mounted; [`unmount`](Mount::unmount) takes
/// it out.
#[must_use = "dropping a Mount leaves the server mounted; keep it to unmount the server"]
pub struct Mount {
    mounted: Arc<Mounted>,
    follower: JoinHandle<()>,
}

impl std::fmt::Debug for Mount {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("Mount").field("prefix", &self.mounted.prefix).finish_non_exhaustive()
    }
}

impl Mount {
    /// The client of the mounted server.
    pub fn client(&self) -> &Client {
        &self.mounted.client
    }

    /// Puts the server behind `client` in place of this one, under the
    /// same prefix (or none), and gives back the client of the one it
    /// replaced (close it when its calls in flight are answered).
    ///
    /// The new server's lists are read first; then the old server's items
    /// are taken out and the new one's put in without waiting in between,
    /// so the toolbox's clients never see it empty, and get one
    /// `list_changed` per list. When the new server cannot be listed, or
    /// one of its names is taken by something else in the toolbox, the old
    /// server stays mounted (listed again) and the error is returned.
    pub async fn replace(&mut self, client: Client) -> Result<Client, MountError> {
        let old = Arc::clone(&self.mounted);
        let new = Arc::new(Mounted {
            prefix: old.prefix.clone(),
            renamed: old.renamed,
            gone: AtomicBool::new(false),
            client,
            toolbox: old.toolbox.clone(),
            tools: Mutex::new(BTreeSet::new()),
            resources: Mutex::new(BTreeSet::new()),
            prompts: Mutex::new(BTreeSet::new()),
        });
        let events = new.client.events();
        let listening = new.client.listen(Listen::lists()).await.ok();
        let listings = new.fetch().await?;
        self.follower.abort();
        old.take_out();
        if let Err(error) = new.apply(listings) {
            // The old server back, as it lists itself now.
            old.gone.store(false, Ordering::SeqCst);
            let events = old.client.events();
            let listening = old.client.listen(Listen::lists()).await.ok();
            let restored = async {
                old.sync_tools(false).await?;
                old.sync_resources(false).await?;
                old.sync_prompts(false).await
            };
            if let Err(again) = restored.await {
                tracing::warn!("`{}` could not be mounted again: {}", old.prefix, escaped(&again.to_string()));
            }
            let following = Arc::clone(&old);
            self.follower = tokio::spawn(async move {
                let _listening = listening;
                following.follow(events).await;
            });
            return Err(error);
        }
        let following = Arc::clone(&new);
        self.follower = tokio::spawn(async move {
            let _listening = listening;
            following.follow(events).await;
        });
        self.mounted = new;
        Ok(old.client.clone())
    }

    /// Takes the server's tools, resources and prompts out of the toolbox
    /// (its clients are told each list changed, as for any removal) and
    /// stops following the server's changes. The client is not closed: it
    /// closes when its last clone is dropped.
    pub fn unmount(self) {
        self.follower.abort();
        self.mounted.take_out();
    }
}

/// Everything a server lists, fetched before any of it is mounted.
struct Listings {
    tools: Vec<ToolDefinition>,
    resources: Vec<ResourceDefinition>,
    templates: Vec<ResourceTemplateDefinition>,
    prompts: Vec<PromptDefinition>,
}

impl Mounted {
    /// Everything the server lists (nothing of what it has no capability for).
    async fn fetch(&self) -> Result<Listings, MountError> {
        let offered = self.client.server_capabilities();
        let tools = if offered.tools.is_some() {
            self.client.list_tools().await.map_err(|error| self.failed(error))?
        } else {
            Vec::new()
        };
        let (resources, templates) = if offered.resources.is_some() {
            let resources = self.client.list_resources().await.map_err(|error| self.failed(error))?;
            (resources, self.client.list_resource_templates().await.unwrap_or_default())
        } else {
            (Vec::new(), Vec::new())
        };
        let prompts = if offered.prompts.is_some() {
            self.client.list_prompts().await.map_err(|error| self.failed(error))?
        } else {
            Vec::new()
        };
        Ok(Listings { tools, resources, templates, prompts })
    }

    /// Mounts `listings` as a first mount: nothing stays when a name is taken.
    fn apply(self: &Arc<Self>, listings: Listings) -> Result<(), MountError> {
        let applied = self
            .apply_tools(listings.tools, true)
            .and_then(|()| self.apply_resources(&listings.resources, &listings.templates, true))
            .and_then(|()| self.apply_prompts(listings.prompts, true));
        if applied.is_err() {
            self.take_out();
        }
        applied
    }

    /// Removes everything mounted, for good.
    fn take_out(&self) {
        self.gone.store(true, Ordering::SeqCst);
        let tools = self.toolbox.tools();
        for name in std::mem::take(&mut *lock(&self.tools)) {
            tools.remove(&name);
        }
        let resources = self.toolbox.resources();
        for address in std::mem::take(&mut *lock(&self.resources)) {
            resources.remove(&address);
        }
        let prompts = self.toolbox.prompts();
        for name in std::mem::take(&mut *lock(&self.prompts)) {
            prompts.remove(&name);
        }
    }

    /// The local name of the server's tool or prompt `remote`.
    fn name(&self, remote: &str) -> String {
        if self.renamed { format!("{}_{remote}", self.prefix) } else { remote.to_owned() }
    }

    fn failed(&self, source: ClientError) -> MountError {
        MountError::Client { prefix: self.prefix.clone(), source }
    }

    fn uri(&self, remote: &str) -> String {
        if self.renamed { format!("{}+{remote}", self.prefix) } else { remote.to_owned() }
    }

    fn remote_uri<'a>(&self, local: &'a str) -> Option<&'a str> {
        if !self.renamed {
            return Some(local);
        }
        local.strip_prefix(&self.prefix)?.strip_prefix('+')
    }

    async fn follow(self: Arc<Self>, mut events: tokio::sync::broadcast::Receiver<ServerEvent>) {
        loop {
            let outcome = match events.recv().await {
                Ok(ServerEvent::ToolsChanged) => self.sync_tools(false).await,
                Ok(ServerEvent::ResourcesChanged) => self.sync_resources(false).await,
                Ok(ServerEvent::PromptsChanged) => self.sync_prompts(false).await,
                Ok(ServerEvent::ResourceUpdated { uri }) => {
                    self.toolbox.resources().notify_updated(&self.uri(&uri));
                    Ok(())
                }
                Ok(_) => Ok(()),
                Err(RecvError::Lagged(_)) => {
                    async {
                        self.sync_tools(false).await?;
                        self.sync_resources(false).await?;
                        self.sync_prompts(false).await
                    }
                    .await
                }
                Err(RecvError::Closed) => return,
            };
            if let Err(error) = outcome {
                tracing::warn!("{}", escaped(&error.to_string()));
                if self.client.closed().is_some() {
                    return;
                }
            }
        }
    }

    /// Replaces the mounted tools with the server's.
    async fn sync_tools(self: &Arc<Self>, first: bool) -> Result<(), MountError> {
        if self.client.server_capabilities().tools.is_none() && first {
            return Ok(());
        }
        let listed = self.client.list_tools().await.map_err(|error| self.failed(error))?;
        self.apply_tools(listed, first)
    }

    /// Replaces the mounted tools with `listed`.
    fn apply_tools(self: &Arc<Self>, listed: Vec<ToolDefinition>, first: bool) -> Result<(), MountError> {
        let tools = self.toolbox.tools();
        let mut mounted = lock(&self.tools);
        if self.gone.load(Ordering::SeqCst) {
            return Ok(());
        }
        let mut now = BTreeSet::new();
        for definition in listed {
            let remote = definition.name.clone();
            let local = local_definition(&self.name(&remote), definition);
            let name = local.name.clone();
            now.insert(name.clone());
            if mounted.contains(&name) && tools.definition(&name).as_ref() == Some(&local) {
                continue;
            }
            if mounted.contains(&name) {
                tools.remove(&name);
            }
            let tool = RemoteTool { spec: ToolSpec::from_definition(local), remote, client: self.client.clone() };
            match tools.try_add_shared(Arc::new(tool)) {
                Ok(()) => {}
                Err(_) if first => {
                    // Nothing of the server stays: the tools added so far go.
                    for added in now.iter().filter(|added| **added != name) {
                        tools.remove(added);
                    }
                    return Err(MountError::Taken { prefix: self.prefix.clone(), what: format!("the tool `{name}`") });
                }
                Err(error) => {
                    tracing::warn!(
                        "`{}`: the tool `{}` is not mounted: {}",
                        self.prefix,
                        escaped(&name),
                        escaped(&error.to_string())
                    );
                    now.remove(&name);
                }
            }
        }
        for gone in mounted.difference(&now) {
            tools.remove(gone);
        }
        *mounted = now;
        Ok(())
    }

    /// Replaces the mounted resources and templates with the server's.
    async fn sync_resources(self: &Arc<Self>, first: bool) -> Result<(), MountError> {
        if self.client.server_capabilities().resources.is_none() {
            return Ok(());
        }
        let listed = self.client.list_resources().await.map_err(|error| self.failed(error))?;
        let templates = self.client.list_resource_templates().await.unwrap_or_default();
        self.apply_resources(&listed, &templates, first)
    }

    /// Replaces the mounted resources and templates with `listed` and `templates`.
    fn apply_resources(
        self: &Arc<Self>,
        listed: &[ResourceDefinition],
        templates: &[ResourceTemplateDefinition],
        first: bool,
    ) -> Result<(), MountError> {
        let resources = self.toolbox.resources();
        let mut mounted = lock(&self.resources);
        if self.gone.load(Ordering::SeqCst) {
            return Ok(());
        }
        for gone in mounted.iter() {
            resources.remove(gone);
        }
        mounted.clear();
        let fixed = listed.iter().map(|entry| {
            let described = (entry.title.as_deref(), entry.description.as_deref(), entry.mime_type.as_deref());
            (entry.uri.as_str(), entry.name.as_str(), described, true)
        });
        let templated = templates.iter().map(|entry| {
            let described = (entry.title.as_deref(), entry.description.as_deref(), entry.mime_type.as_deref());
            (entry.uri_template.as_str(), entry.name.as_str(), described, false)
        });
        for (remote, name, described, is_fixed) in fixed.chain(templated) {
            let address = self.uri(remote);
            let spec =
                if is_fixed { ResourceSpec::fixed(&address, name) } else { ResourceSpec::template(&address, name) };
            let spec = match spec {
                Ok(spec) => describe_resource(spec, described),
                Err(error) => {
                    tracing::warn!(
                        "`{}`: the resource `{}` is not mounted: {}",
                        self.prefix,
                        escaped(remote),
                        escaped(&error.to_string())
                    );
                    continue;
                }
            };
            let this = Arc::clone(self);
            let resource = spec.serve(move |read: crate::resources::ResourceRead| {
                let this = Arc::clone(&this);
                let caller = read.context().caller().cloned();
                async move { this.read(read.uri(), caller).await }
            });
            match resources.try_add(resource) {
                Ok(()) => {
                    mounted.insert(address);
                }
                Err(_) if first => {
                    return Err(MountError::Taken {
                        prefix: self.prefix.clone(),
                        what: format!("the resource `{address}`"),
                    });
                }
                Err(error) => tracing::warn!("`{}`: {}", self.prefix, escaped(&error.to_string())),
            }
        }
        Ok(())
    }

    /// Reads the server's resource behind local URI `uri`, for `caller`.
    async fn read(&self, uri: &str, caller: Option<crate::toolbox::Caller>) -> Result<Vec<ResourceContents>, String> {
        let remote =
            self.remote_uri(uri).ok_or_else(|| format!("`{uri}` is not a URI of the mount `{}`", self.prefix))?;
        let acting = Some(super::wire::Acting(caller));
        let result = self.client.read_resource_for(remote, acting).await.map_err(|error| error.to_string())?;
        Ok(result
            .contents
            .into_iter()
            .map(|mut content| {
                match &mut content {
                    ResourceContents::Text { uri, .. } | ResourceContents::Blob { uri, .. } => *uri = self.uri(uri),
                }
                content
            })
            .collect())
    }

    /// Replaces the mounted prompts with the server's.
    async fn sync_prompts(self: &Arc<Self>, first: bool) -> Result<(), MountError> {
        if self.client.server_capabilities().prompts.is_none() {
            return Ok(());
        }
        let listed = self.client.list_prompts().await.map_err(|error| self.failed(error))?;
        self.apply_prompts(listed, first)
    }

    /// Replaces the mounted prompts with `listed`.
    fn apply_prompts(self: &Arc<Self>, listed: Vec<PromptDefinition>, first: bool) -> Result<(), MountError> {
        let prompts = self.toolbox.prompts();
        let mut mounted = lock(&self.prompts);
        if self.gone.load(Ordering::SeqCst) {
            return Ok(());
        }
        for gone in mounted.iter() {
            prompts.remove(gone);
        }
        mounted.clear();
        for entry in listed {
            let remote = entry.name;
            let name = self.name(&remote);
            let mut spec = PromptSpec::new(&name);
            if let Some(title) = &entry.title {
                spec = spec.with_title(title);
            }
            if let Some(description) = &entry.description {
                spec = spec.with_description(description);
            }
            for argument in &entry.arguments {
                let mut declared = if argument.required == Some(true) {
                    PromptArgument::required(&argument.name)
                } else {
                    PromptArgument::optional(&argument.name)
                };
                if let Some(description) = &argument.description {
                    declared = declared.with_description(description);
                }
                spec = spec.with_argument(declared);
            }
            let client = self.client.clone();
            let prompt = spec.serve(move |get: crate::prompts::PromptGet| {
                let (client, remote) = (client.clone(), remote.clone());
                let arguments: Map<String, Value> =
                    get.arguments().iter().map(|(key, value)| (key.clone(), Value::from(value.as_str()))).collect();
                let caller = get.context().caller().cloned();
                async move { get_prompt(&client, &remote, arguments, caller).await }
            });
            match prompts.try_add(prompt) {
                Ok(()) => {
                    mounted.insert(name);
                }
                Err(_) if first => {
                    return Err(MountError::Taken {
                        prefix: self.prefix.clone(),
                        what: format!("the prompt `{name}`"),
                    });
                }
                Err(error) => tracing::warn!("`{}`: {}", self.prefix, escaped(&error.to_string())),
            }
        }
        Ok(())
    }
}

/// The server's prompt `remote` as messages.
async fn get_prompt(
    client: &Client,
    remote: &str,
    arguments: Map<String, Value>,
    caller: Option<crate::toolbox::Caller>,
) -> Result<Vec<PromptMessage>, String> {
    let acting = Some(super::wire::Acting(caller));
    let result = client.get_prompt_for(remote, arguments, acting).await.map_err(|error| error.to_string())?;
    Ok(result.messages)
}

/// The listing's title, description and MIME type on `spec`.
fn describe_resource(
    mut spec: ResourceSpec,
    (title, description, mime_type): (Option<&str>, Option<&str>, Option<&str>),
) -> ResourceSpec {
    if let Some(title) = title {
        spec = spec.with_title(title);
    }
    if let Some(description) = description {
        spec = spec.with_description(description);
    }
    if let Some(mime_type) = mime_type {
        spec = spec.with_mime_type(mime_type);
    }
    spec
}

/// The server's tool definition as mounted: named `name`, without its MCP Apps view.
fn local_definition(name: &str, mut definition: ToolDefinition) -> ToolDefinition {
    definition.name = name.to_owned();
    if let Some(meta) = &mut definition.meta {
        meta.remove(UI_META_KEY);
        if meta.is_empty() {
            definition.meta = None;
        }
    }
    definition
}

/// A tool of a mounted server.
struct RemoteTool {
    spec: ToolSpec,
    remote: String,
    client: Client,
}

impl Tool for RemoteTool {
    fn spec(&self) -> &ToolSpec {
        &self.spec
    }

    fn call(&self, mut call: ToolCall) -> ToolFuture {
        let (client, remote) = (self.client.clone(), self.remote.clone());
        let arguments = Value::Object(call.take_arguments());
        let context = call.context().clone();
        Box::pin(async move {
            let _caller = client.session().handlers.callers().map(|callers| callers.enter(context.clone()));
            let progress = context.clone();
            let request =
                client.call(&remote, arguments).acting_for(context.caller().cloned()).on_progress(move |step| {
                    progress.progress(step.progress, step.total, step.message.as_deref());
                });
            tokio::select! {
                output = request => match output {
                    Ok(output) => output.result(),
                    Err(error) => ToolResult::new(format!("the mounted tool `{remote}` failed: {error}")).with_error(true),
                },
                () = context.cancelled() => ToolResult::new("cancelled").with_error(true),
            }
        })
    }
}
