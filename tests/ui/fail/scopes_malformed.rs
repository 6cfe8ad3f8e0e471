use codeagent::prelude::*;

/// Scopes that are not a list.
#[tool(scopes = "sales:write")]
fn flat() -> String {
    String::new()
}

/// A scope with a space in it.
#[tool(scopes = ["sales:read", "sales write"])]
fn spaced() -> String {
    String::new()
}

/// A scope that is not a string.
#[resource(uri = "demo://notes", scopes = [notes])]
fn notes() -> String {
    String::new()
}

/// An empty scope.
#[prompt(scopes = [""])]
fn greeting() -> String {
    String::new()
}

fn main() {}
