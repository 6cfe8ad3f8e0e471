//! The library in process, no transport: toolboxes and their registries, resources and prompts, argument checking and decoding, the provider forms, schemas, lints, and what the macros refuse at compile time (`ui`).
//!
//! One test binary: each module was a binary of its own.

mod constraints;
mod decoding;
mod lints;
mod providers;
mod resources_prompts;
mod schemas;
mod toolbox;
mod ui;
