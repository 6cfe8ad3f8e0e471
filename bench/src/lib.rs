//! Fixtures shared by the benchmarks: the large results of `benches/large_results.rs`
//! and `src/bin/large_result_memory.rs`.

pub mod large;
