//! Any text as an RFC 6570 template, matched against any URI, and values
//! expanded into it (`codeagent-uri-template`). Nothing panics, a refused
//! template names an offset inside the text, and matching behaves as the
//! crate documents:
//!
//! - a match only names the template's variables, and expanding what a
//!   URI matched gives a URI that matches with the same values (when no value
//!   holds a `%`, which `{+…}` keeps as a triplet and matching decodes);
//! - a matchable literal template matches its own expansion;
//! - for the templates of the crate's round-trip property (`{var}`,
//!   `{+var}`, `{/var}`, `{?a,b}`), matching inverts expansion.
//!
//! Input: a mode byte, then the template and the URI (or the values),
//! separated by NUL bytes.
#![no_main]

use std::collections::BTreeMap;

use codeagent_uri_template::{UriTemplate, check_uri, has_scheme};
use libfuzzer_sys::fuzz_target;

fn check_template(text: &str) -> Option<UriTemplate> {
    match UriTemplate::parse(text) {
        Ok(template) => {
            assert_eq!(template.as_str(), text);
            let variables: Vec<&str> = template.variables().collect();
            assert_eq!(template.is_literal(), variables.is_empty());
            if template.is_literal() && template.is_matchable() {
                let uri = template.expand(&BTreeMap::new());
                assert_eq!(
                    template.matches(&uri),
                    Some(BTreeMap::new()),
                    "{text:?} does not match its expansion {uri:?}"
                );
            }
            Some(template)
        }
        Err(error) => {
            assert!(error.offset() <= text.len(), "offset {} past the end of {text:?}", error.offset());
            let _ = error.to_string();
            None
        }
    }
}

fn check_match(template: &UriTemplate, uri: &str) {
    let Some(values) = template.matches(uri) else { return };
    assert!(template.is_matchable(), "an unmatchable template matched");
    let variables: Vec<&str> = template.variables().collect();
    for name in values.keys() {
        assert!(variables.contains(&name.as_str()), "{name} is not a variable of {:?}", template.as_str());
    }
    if values.values().any(|value| value.contains('%')) {
        return;
    }
    let expanded = template.expand(&values);
    assert_eq!(
        template.matches(&expanded).as_ref(),
        Some(&values),
        "{:?}: {uri:?} matched {values:?}, whose expansion {expanded:?} does not match them",
        template.as_str()
    );
}

/// The round trips of the crate's own property test, with fuzzed values.
fn check_round_trips(values: &[&str]) {
    let value = |index: usize| values.get(index).copied().unwrap_or_default();
    let single = |template: &str, value: &str| {
        let template = UriTemplate::parse(template).unwrap_or_else(|error| panic!("{error}"));
        let values = BTreeMap::from([("var".to_owned(), value.to_owned())]);
        let uri = template.expand(&values);
        assert_eq!(template.matches(&uri), Some(values), "{:?} expanded to {uri:?}", template.as_str());
    };
    if !value(0).is_empty() {
        single("res://{var}/tail", value(0));
        if !value(0).contains('%') {
            single("file:///{+var}", value(0));
        }
    }
    single("api{/var}", value(1));
    let query = UriTemplate::parse("search://x{?a,b}").unwrap_or_else(|error| panic!("{error}"));
    let mut given = BTreeMap::new();
    for (name, index) in [("a", 2), ("b", 3)] {
        if let Some(value) = values.get(index) {
            given.insert(name.to_owned(), (*value).to_owned());
        }
    }
    let uri = query.expand(&given);
    assert_eq!(query.matches(&uri), Some(given), "{uri:?}");
}

fuzz_target!(|input: &[u8]| {
    let Some((&mode, rest)) = input.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let mut parts = text.split('\0');
    let first = parts.next().unwrap_or_default();
    let others: Vec<&str> = parts.collect();
    let _ = (has_scheme(first), check_uri(first).map_err(|error| error.to_string()));
    match mode % 3 {
        0 => {
            if let Some(template) = check_template(first) {
                for uri in &others {
                    check_match(&template, uri);
                }
            }
        }
        1 => {
            if let Some(template) = check_template(first) {
                let values: BTreeMap<String, String> = template
                    .variables()
                    .zip(&others)
                    .map(|(name, value)| (name.to_owned(), (*value).to_owned()))
                    .collect();
                let expanded = template.expand(&values);
                check_match(&template, &expanded);
            }
        }
        _ => check_round_trips(&text.split('\0').collect::<Vec<_>>()),
    }
});
