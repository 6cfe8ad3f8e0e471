//! The modules of `codeagent-core` form layers: no import circle between
//! sibling modules.
//!
//! Every `crate::` and `super::` path in `src/` is resolved to the module it
//! names. An edge between two modules is lifted to the children of their
//! lowest common ancestor (so `crate::server::http::routes` using
//! `crate::toolbox::Toolbox` is an edge `server -> toolbox`); a module using
//! its own ancestor or descendant is hierarchy, not layering, and is ignored.
//! Among the children of each module, the edges must not form a cycle; and
//! the crate's own modules form the layers drawn in `src/lib.rs`: each uses
//! only modules drawn below it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (without `crate`) for each source file.
fn modules(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|extension| extension != "rs") {
                continue;
            }
            let relative = path.strip_prefix(src).unwrap();
            let mut segments: Vec<String> =
                relative.iter().map(|segment| segment.to_string_lossy().trim_end_matches(".rs").to_owned()).collect();
            if segments.last().is_some_and(|last| last == "mod" || last == "lib") {
                segments.pop();
            }
            // `#[path = "private/mod.rs"] pub mod __private;`
            if segments.first().is_some_and(|first| first == "private") {
                segments[0] = "__private".to_owned();
            }
            found.insert(segments, path);
        }
    }
    found
}

/// The paths a file names after `crate::` or `super::`, as segments relative
/// to the crate root (brace groups expanded one level).
fn named_paths(text: &str, own: &[String]) -> Vec<Vec<String>> {
    let code: String = text.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let mut paths = Vec::new();
    for (prefix, base) in [("crate::", Vec::new()), ("super::", parent_of(own))] {
        let mut rest = code.as_str();
        while let Some(position) = rest.find(prefix) {
            let before = rest[..position].chars().last();
            rest = &rest[position + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            for tail in expand(rest) {
                let mut path = base.clone();
                path.extend(tail);
                paths.push(path);
            }
        }
    }
    paths
}

/// The module `super` names from module `own`.
fn parent_of(own: &[String]) -> Vec<String> {
    own[..own.len().saturating_sub(1)].to_vec()
}

/// The identifier chains at the start of `text`: `a::b::C` or `a::{b, c::D}`.
fn expand(text: &str) -> Vec<Vec<String>> {
    let mut chain = Vec::new();
    let mut rest = text;
    loop {
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        chain.push(rest[..end].to_owned());
        rest = &rest[end..];
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => return vec![chain],
        }
    }
    let Some(group) = rest.strip_prefix('{') else { return vec![chain] };
    let mut depth = 0usize;
    let mut items = vec![String::new()];
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(String::new());
                continue;
            }
            _ => {}
        }
        items.last_mut().unwrap().push(c);
    }
    items.iter().flat_map(|item| expand(item.trim())).map(|tail| chain.iter().cloned().chain(tail).collect()).collect()
}

/// (parent module, child a, child b) for every use of `b` in `a`, two
/// children of `parent`.
fn edges(src: &Path) -> BTreeSet<(Vec<String>, String, String)> {
    let modules = modules(src);
    let known: BTreeSet<Vec<String>> = modules.keys().cloned().collect();
    let mut edges = BTreeSet::new();
    for (own, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        for path in named_paths(&text, own) {
            let target = (0..=path.len()).rev().map(|len| path[..len].to_vec()).find(|prefix| known.contains(prefix));
            let Some(target) = target else { continue };
            let common = own.iter().zip(&target).take_while(|(a, b)| a == b).count();
            if common == own.len() || common == target.len() {
                continue; // ancestor or descendant
            }
            edges.insert((own[..common].to_vec(), own[common].clone(), target[common].clone()));
        }
    }
    edges
}

/// The crate's top-level modules in the order `src/lib.rs` draws them, top
/// layer first: the first word of each line of its layering diagram that
/// names a module.
fn drawn_layers(lib: &str, modules: &BTreeSet<String>) -> Vec<String> {
    let diagram = lib
        .split("//! ```text")
        .nth(1)
        .and_then(|rest| rest.split("//! ```").next())
        .expect("src/lib.rs draws its layers in a ```text block");
    diagram
        .lines()
        .filter_map(|line| line.trim_start_matches("//!").split_whitespace().next())
        .filter(|word| modules.contains(*word))
        .map(str::to_owned)
        .collect()
}

#[test]
fn each_module_uses_only_the_layers_drawn_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let top: BTreeSet<String> = modules(&src).keys().filter_map(|path| path.first().cloned()).collect();
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    let layers = drawn_layers(&lib, &top);
    let missing: Vec<&String> = top.iter().filter(|module| !layers.contains(module)).collect();
    assert!(missing.is_empty(), "modules missing from the layering diagram of src/lib.rs: {missing:?}");
    let rank = |module: &str| layers.iter().position(|layer| layer == module);
    let upward: Vec<String> = edges(&src)
        .into_iter()
        .filter(|(parent, a, b)| parent.is_empty() && rank(a) >= rank(b))
        .map(|(_, a, b)| format!("{a} uses {b}, which src/lib.rs draws above it (or beside it)"))
        .collect();
    assert!(upward.is_empty(), "imports against the layers of src/lib.rs:\n  {}", upward.join("\n  "));
}

#[test]
fn sibling_modules_import_each_other_in_one_direction_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let edges = edges(&src);
    let mut cycles = Vec::new();
    let parents: BTreeSet<&Vec<String>> = edges.iter().map(|(parent, _, _)| parent).collect();
    for parent in parents {
        let graph: BTreeMap<&str, Vec<&str>> =
            edges.iter().filter(|(p, _, _)| p == parent).fold(BTreeMap::new(), |mut graph, (_, a, b)| {
                graph.entry(a.as_str()).or_insert_with(Vec::new).push(b.as_str());
                graph
            });
        for start in graph.keys() {
            let mut stack = vec![(*start, vec![*start])];
            let mut seen = BTreeSet::new();
            while let Some((node, trail)) = stack.pop() {
                for next in graph.get(node).into_iter().flatten() {
                    if next == start {
                        let mut cycle = trail.clone();
                        cycle.push(next);
                        cycles.push(format!("crate::{}: {}", parent.join("::"), cycle.join(" -> ")));
                    } else if seen.insert(*next) {
                        let mut longer = trail.clone();
                        longer.push(next);
                        stack.push((next, longer));
                    }
                }
            }
        }
    }
    assert!(cycles.is_empty(), "import circles between sibling modules:\n  {}", cycles.join("\n  "));
}
