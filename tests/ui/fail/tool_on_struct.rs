use codeagent::prelude::*;

#[tool]
struct Add;

fn main() {}
