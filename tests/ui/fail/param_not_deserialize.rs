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

fn main() {}
