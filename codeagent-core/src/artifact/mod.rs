//! Artifact v1: the versioned, UI-neutral structured channel of a tool result.
//!
//! An artifact is what a custom host renders. Its outer shape is fixed and
//! serialises with exactly these keys, in this order:
//!
//! ```json
//! {"schema":"codeagent.tool-artifact","version":1,"kind":"table","status":"success",
//!  "icon":null,"title":"Grouped summary","payload":{"df":{"columns":[],"rows":[]}}}
//! ```
//!
//! [`Artifact`] is the owned value a producer builds; [`ArtifactRef`] is the
//! validated, borrowed view a consumer reads from a result, an event or raw JSON.

mod kind;
mod owned;
mod versions;
mod view;

pub use kind::{Kind, Status};
pub use owned::Artifact;
pub use versions::Versions;
pub use view::ArtifactRef;

/// The value of an artifact's `schema` key.
pub const ARTIFACT_SCHEMA: &str = "codeagent.tool-artifact";

/// The artifact protocol version this crate produces.
pub const ARTIFACT_VERSION: u64 = 1;
