//! `result_budget(...)`: a tool's own result budget, or none.
use codeagent::prelude::*;
use codeagent::tools::ResultBudget;

/// Bounded tighter than the server.
#[tool(result_budget(value = 4096))]
fn small() -> String {
    String::new()
}

/// Both bounds.
#[tool(result_budget(value = 65_536, wire = 4194304))]
fn both() -> String {
    String::new()
}

/// Sent whole, however large.
#[tool(result_budget(unlimited))]
fn whole() -> String {
    String::new()
}

/// The server's budget.
#[tool]
fn plain() -> String {
    String::new()
}

fn main() {
    let toolbox = Toolbox::new().tool(small).tool(both).tool(whole).tool(plain);
    let budget = |name: &str| toolbox.tools().find(name).unwrap().spec().result_budget();
    assert_eq!(budget("small"), Some(ResultBudget::new().with_value_bytes(4096)));
    assert_eq!(budget("both"), Some(ResultBudget::new().with_value_bytes(65_536).with_wire_bytes(4_194_304)));
    assert_eq!(budget("whole"), Some(ResultBudget::unlimited()));
    assert_eq!(budget("plain"), None);
}
