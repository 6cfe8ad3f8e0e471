//! The MCP client (`codeagent::client`) against servers: our own engine in
//! process and over HTTP in every protocol version (`own`), and the
//! reference servers no one here wrote (`reference`).

#[path = "../common/mod.rs"]
mod common;

#[cfg(feature = "testing")]
mod golden;
mod hostile;
mod machine;
mod mount;
mod oauth;
mod own;
mod reference;
mod tasks;
