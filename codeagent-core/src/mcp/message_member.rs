//! The name of a member of a JSON-RPC message object, read without
//! allocating: the server's and the client's readers of a message line both
//! take its members by this name.

/// A member of a JSON-RPC message object.
pub(crate) enum MessageMember {
    Jsonrpc,
    Id,
    Method,
    Params,
    Result,
    Error,
    /// Any other member, which a reader skips.
    Other,
}

impl<'de> serde::Deserialize<'de> for MessageMember {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Name;
        impl serde::de::Visitor<'_> for Name {
            type Value = MessageMember;
            fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                formatter.write_str("a member name")
            }
            fn visit_str<E>(self, name: &str) -> Result<MessageMember, E> {
                Ok(match name {
                    "jsonrpc" => MessageMember::Jsonrpc,
                    "id" => MessageMember::Id,
                    "method" => MessageMember::Method,
                    "params" => MessageMember::Params,
                    "result" => MessageMember::Result,
                    "error" => MessageMember::Error,
                    _ => MessageMember::Other,
                })
            }
        }
        deserializer.deserialize_identifier(Name)
    }
}
