//! An async resource returning a `Result`: `Err` is a read failure with its message.
use codeagent::prelude::*;
use codeagent::resources::ResourceError;

/// A source file.
#[resource(uri = "file:///{+path}")]
async fn source(path: String) -> Result<Vec<u8>, std::io::Error> {
    if path.ends_with(".rs") { Ok(path.into_bytes()) } else { Err(std::io::Error::other("not Rust")) }
}

#[tokio::main]
async fn main() {
    assert_eq!(source(String::from("a.rs")).await.unwrap(), b"a.rs");
    let toolbox = Toolbox::new().resource(source);
    assert!(toolbox.resources().read("file:///src/lib.rs").await.is_ok());
    assert_eq!(toolbox.resources().read("file:///a.md").await.unwrap_err(), ResourceError::failed("not Rust"));
}
