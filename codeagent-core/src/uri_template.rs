//! Placeholder until the RFC 6570 module lands (replaced by the uri-template branch).
#![allow(missing_docs, unreachable_pub, dead_code)]

use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UriTemplate {
    source: String,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid template")]
pub struct InvalidTemplate;

impl UriTemplate {
    pub fn parse(text: &str) -> Result<UriTemplate, InvalidTemplate> {
        Ok(UriTemplate { source: text.to_owned() })
    }
    pub fn as_str(&self) -> &str {
        &self.source
    }
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        std::iter::empty()
    }
    pub fn is_matchable(&self) -> bool {
        true
    }
    pub fn matches(&self, uri: &str) -> Option<BTreeMap<String, String>> {
        (uri == self.source).then(BTreeMap::new)
    }
}
