//! A template resource: a typed variable, an optional query variable, the context and the raw read.
use codeagent::prelude::*;
use codeagent::resources::ResourceRead;

/// A user's posts.
#[resource(uri = "users://{id}/posts{?page}", name = "posts")]
fn r#posts(id: u64, page: Option<u32>, ctx: &Context, read: ResourceRead) -> String {
    ctx.debug("posts");
    format!("{} {id} {}", read.uri(), page.unwrap_or(1))
}

#[tokio::main]
async fn main() {
    let toolbox = Toolbox::new().resource(r#posts);
    assert_eq!(toolbox.resources().specs()[0].name(), "posts");
    let contents = toolbox.resources().read("users://7/posts?page=2").await.unwrap();
    assert_eq!(contents[0].uri(), "users://7/posts?page=2");
    assert!(toolbox.resources().read("users://x/posts").await.is_err());
}
