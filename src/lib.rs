#![doc = include_str!("../README.md")]

/// A unified diff of two texts as a tool's output (feature `diff`).
#[cfg(feature = "diff")]
pub use codeagent_core::Diff;
pub use codeagent_core::mcp::ProtocolVersion;
pub use codeagent_core::server::{Serve, Server};
pub use codeagent_core::toolbox::{Context, Toolbox};
pub use codeagent_core::{
    Artifact, ArtifactKind, ArtifactRef, ArtifactStatus, ArtifactVersions, Channels, Code, Column, ColumnType, Image,
    IntoToolResult, Json, Output, Table, Text, ToolError, ToolResult, ToolResultEvent,
};
pub use codeagent_core::{access, artifact, display, mcp, output, result, server, toolbox, ui, uri_template};
pub use codeagent_core::{ask, completion, prompts, resources, schema, tools};

/// Tool definitions for LLM APIs made from a toolbox (feature `provider`).
#[cfg(feature = "provider")]
pub use codeagent_core::provider;
pub use codeagent_macros::{prompt, resource, tool, toolbox};

/// The agent side: a model calls the toolbox's tools in a loop (feature `agent`).
#[cfg(feature = "agent")]
pub use codeagent_core::agent;
/// The client side: use other MCP servers' tools, and mount them into a
/// toolbox (feature `client`, which `cli` turns on).
#[cfg(feature = "client")]
pub use codeagent_core::client;
/// Agent skills served from a directory: the skills extension, SEP-2640
/// (feature `skills`, a default one).
#[cfg(feature = "skills")]
pub use codeagent_core::skills;
#[cfg(feature = "testing")]
pub mod testing;

/// The guide: a chapter per subject, each example in it compiled and run by
/// `cargo test --doc`.
pub mod guide {
    #[doc = include_str!("../docs/guide/first-hour.md")]
    pub mod first_hour {}
    #[doc = include_str!("../docs/guide/running.md")]
    pub mod running {}
    #[doc = include_str!("../docs/guide/tools-and-results.md")]
    pub mod tools_and_results {}
    #[doc = include_str!("../docs/guide/resources-and-prompts.md")]
    pub mod resources_and_prompts {}
    #[doc = include_str!("../docs/guide/macros.md")]
    pub mod macros {}
    #[doc = include_str!("../docs/guide/context.md")]
    pub mod context {}
    #[cfg(feature = "skills")]
    #[doc = include_str!("../docs/guide/skills.md")]
    pub mod skills {}
    #[doc = include_str!("../docs/guide/asking.md")]
    pub mod asking {}
    #[doc = include_str!("../docs/guide/tasks.md")]
    pub mod tasks {}
    #[doc = include_str!("../docs/guide/large-results.md")]
    pub mod large_results {}
    #[doc = include_str!("../docs/guide/rich-results.md")]
    pub mod rich_results {}
    #[doc = include_str!("../docs/guide/hosts.md")]
    pub mod hosts {}
    #[doc = include_str!("../docs/guide/providers.md")]
    pub mod providers {}
    #[doc = include_str!("../docs/guide/agent.md")]
    pub mod agent {}
    #[doc = include_str!("../docs/guide/client.md")]
    pub mod client {}
    #[doc = include_str!("../docs/guide/http-and-deployment.md")]
    pub mod http_and_deployment {}
    #[doc = include_str!("../docs/guide/middleware.md")]
    pub mod middleware {}
    #[cfg(feature = "auth")]
    #[doc = include_str!("../docs/guide/authorization.md")]
    pub mod authorization {}
    #[doc = include_str!("../docs/guide/testing.md")]
    pub mod testing {}
    #[doc = include_str!("../docs/guide/security.md")]
    pub mod security {}
}

/// Everything a tool author needs: `use codeagent::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "diff")]
    pub use codeagent_core::Diff;
    pub use codeagent_core::mcp::ProtocolVersion;
    pub use codeagent_core::resources::ResourceSpec;
    pub use codeagent_core::server::Serve;
    pub use codeagent_core::toolbox::{Context, Toolbox};
    pub use codeagent_core::tools::State;
    pub use codeagent_core::{Channels, Code, Image, IntoToolResult, Json, Output, Table, Text, ToolError, ToolResult};
    pub use codeagent_macros::{prompt, resource, tool, toolbox};
}

/// What the expansions of `#[tool]`, `#[toolbox]`, `#[resource]` and `#[prompt]` refer to. Not a public API: it
/// changes without notice.
#[doc(hidden)]
pub mod __private {
    pub use codeagent_core::__private::prompt::{CheckedMessages, CheckedPromptParam, messages, prompt_param};
    pub use codeagent_core::__private::resource::{
        CheckedContents, CheckedResourceParam, RequiredVariable, Variable, contents, injectable, resource_spec,
    };
    pub use codeagent_core::__private::{
        Fields, Injected, ToolParam, annotations, call_blocking, call_inline, check, decode_arguments, method_blocking,
        method_inline, property, spec_once, tool_spec, tool_spec_of,
    };
    pub use codeagent_core::completion::Completer;
    pub use codeagent_core::mcp::{Icon, ToolAnnotations};
    pub use codeagent_core::prompts::{Prompt, PromptFuture, PromptGet, PromptSpec};
    pub use codeagent_core::resources::{Resource, ResourceError, ResourceFuture, ResourceRead, ResourceSpec};
    pub use codeagent_core::tools::{ResultBudget, TaskSupport, Tool, ToolCall, ToolFuture, ToolSet, ToolSpec};
    pub use codeagent_core::{IntoToolResult, ToolResult};
    pub use core::default::Default;
    pub use core::env;
    pub use core::future::Future;
    pub use core::marker::Send;
    pub use core::ops::Deref;
    pub use core::option::Option;
    pub use core::pin::Pin;
    pub use core::result::Result;
    pub use schemars;
    pub use serde;
    pub use serde_json;
    pub use std::boxed::Box;
    pub use std::sync::{Arc, OnceLock};
    pub use std::vec;
    pub use std::vec::Vec;
}
