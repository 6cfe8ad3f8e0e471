//! `crate = "..."` on #[resource] and #[prompt]: the runtime through another path.
extern crate codeagent as renamed;

use renamed::prelude::*;

#[resource(uri = "file:///a.txt", crate = "renamed")]
fn a() -> String {
    String::new()
}

#[prompt(crate = "renamed")]
fn b(text: String) -> String {
    text
}

fn main() {
    let _ = Toolbox::new().resource(a).prompt(b);
}
