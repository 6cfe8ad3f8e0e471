use codeagent::prelude::*;

struct Calculator;

struct Point {
    x: f64,
    y: f64,
}

#[toolbox]
impl Calculator {
    /// A tool of this test.
    #[tool]
    fn norm(
        &self,
        /// The point to measure.
        point: Point,
    ) -> f64 {
        point.x.hypot(point.y)
    }
}

fn main() {}
