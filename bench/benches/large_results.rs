//! Large results: codeagent's lowering to MCP wire JSON against `serde_json`
//! serialising the same data.
//!
//! `cargo bench --bench large_results` in `bench/` (see BENCHMARKS.md).

use std::hint::black_box;

use base64::Engine as _;
use codeagent_bench::large;
use criterion::{Criterion, criterion_group, criterion_main};

fn table(c: &mut Criterion) {
    let rows = large::rows(100_000);
    let mut group = c.benchmark_group("table 100k x 5");
    group.sample_size(20);
    group
        .bench_function("serde_json::to_string(rows)", |b| b.iter(|| serde_json::to_string(black_box(&rows)).unwrap()));
    group.bench_function("codeagent Table::from_rows to wire", |b| b.iter(|| large::table_wire(black_box(&rows))));
    group.finish();
}

fn json(c: &mut Criterion) {
    let rows = large::rows(100_000);
    let mut group = c.benchmark_group("Json<Vec<Row>> 100k");
    group.sample_size(20);
    group
        .bench_function("serde_json::to_string(rows)", |b| b.iter(|| serde_json::to_string(black_box(&rows)).unwrap()));
    group.bench_function("codeagent Json(rows) to wire", |b| b.iter(|| large::json_wire(black_box(&rows))));
    group.finish();
}

fn image(c: &mut Criterion) {
    let bytes = large::png_bytes(4 << 20);
    let mut group = c.benchmark_group("Image 4 MiB");
    group.sample_size(20);
    group.bench_function("base64 + serde_json::to_string", |b| {
        b.iter(|| serde_json::to_string(&base64::engine::general_purpose::STANDARD.encode(black_box(&bytes))).unwrap())
    });
    group.bench_function("codeagent Image::from_bytes to wire", |b| b.iter(|| large::image_wire(black_box(&bytes))));
    group.finish();
}

fn diff(c: &mut Criterion) {
    let (old, new) = large::diff_texts(50_000);
    let mut group = c.benchmark_group("Diff 50k lines");
    group.sample_size(20);
    group.bench_function("serde_json::to_string(old, new)", |b| {
        b.iter(|| serde_json::to_string(&(black_box(&old), black_box(&new))).unwrap())
    });
    group.bench_function("diffy unified diff + serde_json::to_string(old, new, diff)", |b| {
        b.iter(|| {
            let diff = diffy::DiffOptions::new()
                .set_original_filename("a/data.csv")
                .set_modified_filename("b/data.csv")
                .create_patch(black_box(&old), black_box(&new))
                .to_string();
            serde_json::to_string(&(&old, &new, diff)).unwrap()
        })
    });
    group.bench_function("codeagent Diff to wire", |b| b.iter(|| large::diff_wire(black_box(&old), black_box(&new))));
    group.finish();
}

criterion_group!(benches, table, json, image, diff);
criterion_main!(benches);
