//! The client's roots: the directories or files it lets the server work on
//! ([`Root`], the one type both ends use).

pub use crate::mcp::Root;
