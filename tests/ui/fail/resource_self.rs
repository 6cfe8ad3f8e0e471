use codeagent::prelude::*;

struct Server;

impl Server {
    #[resource(uri = "file:///notes.txt")]
    fn notes(&self) -> String {
        String::new()
    }
}

fn main() {}
