//! Compile-time behaviour of `#[tool]`, `#[toolbox]`, `#[resource]` and
//! `#[prompt]`: every check's message
//! and span (`tests/ui/fail`, one check per file, each with its `.stderr`), and
//! the signatures that must compile and work (`tests/ui/pass`).
//!
//! Regenerate the snapshots with `TRYBUILD=overwrite cargo test --test library ui::`,
//! then read every changed `.stderr`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/pass/*.rs");
    cases.compile_fail("tests/ui/fail/*.rs");
}
