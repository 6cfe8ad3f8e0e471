use codeagent::prelude::*;

#[prompt(titel = "Review")]
fn review(path: String) -> String {
    path
}

fn main() {}
