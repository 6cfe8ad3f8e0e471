use codeagent::prelude::*;

/// A budget that is not a list of bounds.
#[tool(result_budget = 65536)]
fn flat() -> String {
    String::new()
}

/// A bound that is not a number of bytes.
#[tool(result_budget(value = "64k"))]
fn words() -> String {
    String::new()
}

/// A bound the budget does not have.
#[tool(result_budget(text = 10))]
fn unknown() -> String {
    String::new()
}

/// `unlimited` with a bound.
#[tool(result_budget(unlimited, wire = 10))]
fn both() -> String {
    String::new()
}

fn main() {}
