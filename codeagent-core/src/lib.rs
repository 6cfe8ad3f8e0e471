//! The runtime of [codeagent](https://docs.rs/codeagent): the three-channel
//! tool result, Artifact v1, typed outputs, and the MCP model.
//!
//! Most users depend on the `codeagent` facade crate instead, which re-exports
//! everything here along with the `#[tool]` macro.
//!
//! # Layering
//!
//! The modules form layers, top to bottom; a module imports only from the
//! layers drawn below it (`tests/suite/layering.rs` reads this drawing and checks
//! every import against it):
//!
//! ```text
//! __private        what the macros' expansions call (not a public API)  → toolbox, output, result, mcp
//! server           the MCP engine, and the CLI (`--agent` drives the agent)   (may use everything below)
//! agent            the agent loop and the model clients (feature `agent`)
//!                  → provider, toolbox, result, output, mcp, net
//! client           an MCP client of other servers, and mounting them into a
//!                  Toolbox (feature `client`)                   → toolbox, result, mcp, oauth, net
//! provider         tool definitions for LLM APIs (OpenAI, Anthropic, Gemini), from a
//!                  Toolbox; the CLI's `--list --format` prints them → toolbox, mcp
//! skills           agent skills read from a directory (SEP-2640), served as
//!                  resources (feature `skills`)                 → toolbox, mcp
//! toolbox          the tool runtime                             (may use everything below)
//!   output         typed outputs, lowered into a ToolResult     → result, mcp, artifact, finite_json, raw_json
//!   result         ToolResult and ToolResultEvent: building, adapting,
//!                  and converting to and from MCP's CallToolResult
//!                                                               → display, access, mcp, artifact, raw_json
//!   display        the HTML presentation channel and its card   → access, artifact
//!   access         Channels, reading any result shape           → mcp (wire keys), artifact
//!   mcp            the MCP wire model: content, CallToolResult, tool definitions,
//!                  protocol versions, methods, `_meta` keys     → finite_json, raw_json
//!   ui             the MCP Apps view and the host page (HTML, CSS, JavaScript)   (nothing)
//!   artifact       Artifact v1                                  (nothing)
//!   finite_json    JSON conversion refusing non-finite numbers  (nothing; private)
//!   raw_json       large data written to JSON text once, carried as markers in
//!                  `Value` trees and spliced in by the writers (private) → random
//!   random         the one source of randomness, failing closed (private) → lower_hex
//!   oauth          OAuth plumbing of the client and the server's `auth`: identifiers'
//!                  URLs, bounded exchanges, issuer metadata (private) → net
//!   net            the outgoing HTTP stack: hyper, rustls, webpki roots (agent, client,
//!                  auth; nothing; private)
//!   schema_ref     the one `$ref` walk of JSON Schemas: resolve, follow, inline
//!                  (nothing; private)
//!   log_text       text from elsewhere escaped for a log line or the terminal
//!                  (nothing; private)
//!   lower_hex      bytes as lower-case hex digits (nothing; private)
//! ```
//!
//! Below them all, in a crate of its own, `codeagent-uri-template` (re-exported
//! as [`uri_template`]): RFC 6570 URI templates (parse, expand, match), which
//! depends on nothing of codeagent (only `regex-lite`, `thiserror`, `serde`).
//! The `#[resource]` macro uses the same crate, so a template is checked when
//! the program is built with the parser that serves it.
//!
//! The MCP model knows nothing of the three-channel result: the lowering
//! between the two belongs to [`ToolResult`]
//! ([`ToolResult::into_call_result`], [`ToolResult::from_mcp`]), and a tool
//! returning a [`CallToolResult`](mcp::CallToolResult) goes through
//! [`IntoToolResult`], in `output`.

pub mod access;
#[cfg(feature = "agent")]
pub mod agent;
pub mod artifact;
#[cfg(feature = "client")]
pub mod client;
pub mod display;
mod finite_json;
mod log_text;
mod lower_hex;
pub mod mcp;
#[cfg(any(feature = "agent", feature = "client", feature = "auth"))]
mod net;
#[cfg(any(feature = "client", feature = "auth"))]
mod oauth;
pub mod output;
#[cfg(feature = "provider")]
pub mod provider;
mod random;
mod raw_json;
pub mod result;
mod schema_ref;
pub mod server;
#[cfg(feature = "skills")]
pub mod skills;
pub mod toolbox;
pub mod ui;
pub use codeagent_uri_template as uri_template;

pub use access::Channels;
pub use artifact::{
    Artifact, ArtifactRef, Kind as ArtifactKind, Status as ArtifactStatus, Versions as ArtifactVersions,
};
#[cfg(feature = "diff")]
pub use output::Diff;
pub use output::{Code, Column, ColumnType, Image, IntoToolResult, Json, Output, Table, Text, ToolError};
pub use random::RandomError;
pub use result::{ToolResult, ToolResultEvent};

/// Tools: what a tool is ([`Tool`](tools::Tool), its [`ToolSpec`](tools::ToolSpec)),
/// what a call gets ([`ToolCall`](tools::ToolCall), [`State`](tools::State)),
/// a toolbox's tools ([`Tools`](tools::Tools): add, remove, list, call, start,
/// changes) and what can go wrong doing so.
pub mod tools {
    pub use crate::toolbox::budget::ResultBudget;
    pub use crate::toolbox::decode::decode_arguments;
    pub use crate::toolbox::errors::{AddToolError, CallError, DuplicateTool, UnenforceableSchema};
    pub use crate::toolbox::param::{State, ToolCall};
    pub use crate::toolbox::set::{SharedToolSet, ToolSet};
    pub use crate::toolbox::started::StartedCall;
    pub use crate::toolbox::task::TaskSupport;
    pub use crate::toolbox::tool::{Tool, ToolFuture, ToolSpec};
    pub use crate::toolbox::tools::Tools;
    pub use crate::toolbox::unknown::UnknownArguments;
}

/// Resources: what a resource is ([`Resource`](resources::Resource), its
/// [`ResourceSpec`](resources::ResourceSpec) at a fixed URI or a URI
/// template), what it returns, and a toolbox's resources
/// ([`Resources`](resources::Resources): add, remove, list, read, start,
/// changes, complete).
pub mod resources {
    pub use crate::mcp::ResourceContents;
    pub use crate::toolbox::errors::DuplicateResource;
    pub use crate::toolbox::resource::{
        Blob, FnResource, IntoContents, InvalidResource, Resource, ResourceError, ResourceFuture, ResourceRead,
        ResourceSpec,
    };
    pub use crate::toolbox::resources::Resources;
}

/// Prompts: what a prompt is ([`Prompt`](prompts::Prompt), its
/// [`PromptSpec`](prompts::PromptSpec) and arguments), the messages it
/// makes, and a toolbox's prompts ([`Prompts`](prompts::Prompts): add,
/// remove, list, get, start, changes, complete).
pub mod prompts {
    pub use crate::toolbox::errors::DuplicatePrompt;
    pub use crate::toolbox::prompt::{
        FnPrompt, IntoMessages, Prompt, PromptArgument, PromptError, PromptFuture, PromptGet, PromptMessage, PromptSpec,
    };
    pub use crate::toolbox::prompts::Prompts;
}

/// Completion (`completion/complete`): the suggestions for a prompt argument
/// or a resource template variable as the user types it.
pub mod completion {
    pub use crate::toolbox::completion::{Completer, Completion, MAX_COMPLETIONS};
    pub use crate::toolbox::errors::CompleteError;
}

/// The asking side: a tool, resource or prompt asks the client during a
/// request through its [`Context`](toolbox::Context): elicitation (a form or
/// a URL for the user), sampling (a completion from the client's model),
/// roots (the client's folders).
pub mod ask {
    pub use crate::toolbox::ask::{
        AskError, Elicitation, FormError, ModelPreferences, Question, Root, Sampled, Sampling, SamplingContent,
        UrlElicitation, form_schema,
    };
}

/// JSON Schema as codeagent publishes and reads it: the one `$ref`
/// resolver, the client-compatible form, JSON Schema's own formats, and the
/// arguments a client mirrors into HTTP headers.
pub mod schema {
    pub use crate::toolbox::formats::standard_formats;
    pub use crate::toolbox::schema::{HeaderParam, client_compatible, header_params, header_problems, resolve_ref};
}

/// What the `#[tool]` macro's expansion refers to. Not a public API: it
/// changes without notice.
#[doc(hidden)]
#[path = "private/mod.rs"]
pub mod __private;
