// A parameter type error is reported once, on the type: the unit struct,
// its `Tool` impl and the function itself are all still there.
use codeagent::prelude::*;

struct Point {
    x: f64,
    y: f64,
}

/// A tool of this test.
#[tool]
fn norm(
    /// The point to measure.
    point: Point,
) -> f64 {
    point.x.hypot(point.y)
}

fn main() {
    let toolbox = Toolbox::new().tool(norm);
    assert_eq!(norm(Point { x: 3.0, y: 4.0 }), 5.0);
    drop(toolbox);
}
