//! The layers of `src/core/`: no import cycle among its top-level modules.
//!
//! Each top-level module of `src/core/` (`collectives`, `cost`, `timing`, …)
//! is a node; a file of module `a` that names `crate::core::b` (or reaches
//! it with `super::`) outside its tests draws an edge `a → b`. The test
//! finds the strongly connected components of that graph (Tarjan 1972) and
//! fails on any component of two or more modules, printing the edges inside
//! it with the file and line of each. Test code (`#[cfg(test)]` items, files
//! declared by them, `tests.rs` and `tests/` folders) and comments do not
//! count: tests may import upwards.
//!
//! `CORE_DIR` overrides the folder checked (for `scripts/cycles.sh` on
//! another checkout).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

#[path = "support/rust_source.rs"]
mod rust_source;

use rust_source::{code_only, production_lines};

/// `(from, to) → ["file:line", …]`.
type Edges = BTreeMap<(String, String), Vec<String>>;

/// Every `.rs` file of top-level module `top` with its module path below
/// `core` (`["timing", "clock"]` for `timing/clock.rs`), test files left out.
fn module_files(core: &Path, top: &str) -> Vec<(PathBuf, Vec<String>)> {
    let single = core.join(format!("{top}.rs"));
    let mut out = Vec::new();
    if single.is_file() {
        out.push((single, vec![top.to_string()]));
    }
    let dir = core.join(top);
    if dir.is_dir() {
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            let mut entries: Vec<_> = fs::read_dir(&d)
                .expect("readable folder")
                .map(|e| e.expect("entry").path())
                .collect();
            entries.sort();
            for p in entries {
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|e| e == "rs") {
                    let rel = p.strip_prefix(core).expect("inside core");
                    let mut path: Vec<String> = rel
                        .iter()
                        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
                        .collect();
                    if path.last().is_some_and(|l| l == "mod") {
                        path.pop();
                    }
                    out.push((p, path));
                }
            }
        }
    }
    out
}

/// The top-level module a path names from a file at `module` (below
/// core), if any: `crate::core::X…` or `super::…::X…` reaching core.
fn targets(line: &str, module: &[String], tops: &BTreeSet<String>) -> Vec<String> {
    let mut found = Vec::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut rest = line;
    while let Some(at) = rest.find("crate::core::") {
        let after = &rest[at + "crate::core::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            let inner: String = group.chars().take_while(|c| *c != '}').collect();
            for part in inner.split(',') {
                found.push(ident(part.trim()));
            }
        } else {
            found.push(ident(after));
        }
        rest = after;
    }
    let mut rest = line;
    while let Some(at) = rest.find("super::") {
        let before = &rest[..at];
        let prev = before.chars().last();
        let mut after = &rest[at..];
        if prev.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') || before.ends_with("::") {
            rest = &rest[at + 7..];
            continue;
        }
        let mut ups = 0;
        while let Some(a) = after.strip_prefix("super::") {
            ups += 1;
            after = a;
        }
        if ups == module.len() {
            found.push(ident(after));
        }
        rest = after;
    }
    found.retain(|t| tops.contains(t) && t.as_str() != module[0]);
    found
}

/// The import graph among `core`'s top-level modules.
fn graph(core: &Path) -> (BTreeSet<String>, Edges) {
    let tops: BTreeSet<String> = fs::read_dir(core)
        .expect("core folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
        .map(|p| {
            p.file_name()
                .expect("name")
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .filter(|n| n != "mod")
        .collect();
    let mut edges = Edges::new();
    for top in &tops {
        let files = module_files(core, top);
        let mut parsed = Vec::new();
        let mut test_only: BTreeSet<Vec<String>> = BTreeSet::new();
        for (path, module) in &files {
            let code = code_only(&fs::read_to_string(path).expect("readable file"));
            let (lines, test_mods) = production_lines(&code);
            for m in test_mods {
                let mut child = module.clone();
                child.push(m);
                test_only.insert(child);
            }
            parsed.push((path, module, lines));
        }
        for (path, module, lines) in parsed {
            let name = path.file_name().expect("name").to_string_lossy();
            let in_test = name == "tests.rs"
                || module.iter().any(|m| m == "tests")
                || test_only.iter().any(|t| module.starts_with(t));
            if in_test {
                continue;
            }
            for (n, line) in lines {
                for t in targets(&line, module, &tops) {
                    edges
                        .entry((top.clone(), t))
                        .or_default()
                        .push(format!("{}:{n}", path.display()));
                }
            }
        }
    }
    (tops, edges)
}

/// Strongly connected components of two or more nodes (Tarjan 1972).
fn cycles(tops: &BTreeSet<String>, edges: &Edges) -> Vec<Vec<String>> {
    let nodes: Vec<&String> = tops.iter().collect();
    let idx = |s: &str| nodes.iter().position(|n| n.as_str() == s).expect("node");
    let mut adj = vec![Vec::new(); nodes.len()];
    for (a, b) in edges.keys() {
        adj[idx(a)].push(idx(b));
    }
    struct T {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(v: usize, adj: &[Vec<usize>], t: &mut T) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in &adj[v] {
            match t.index[w] {
                None => {
                    visit(w, adj, t);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(iw) if t.on[w] => t.low[v] = t.low[v].min(iw),
                _ => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                t.out.push(comp);
            }
        }
    }
    let n = nodes.len();
    let mut t = T {
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            visit(v, &adj, &mut t);
        }
    }
    let mut out: Vec<Vec<String>> = t
        .out
        .into_iter()
        .map(|c| {
            let mut names: Vec<String> = c.into_iter().map(|i| nodes[i].clone()).collect();
            names.sort();
            names
        })
        .collect();
    out.sort();
    out
}

fn core_dir() -> PathBuf {
    std::env::var_os("CORE_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core"))
}

#[test]
fn core_has_no_import_cycle() {
    let (tops, edges) = graph(&core_dir());
    let found = cycles(&tops, &edges);
    let mut report = String::new();
    for comp in &found {
        report.push_str(&format!("cycle among {}:\n", comp.join(", ")));
        for ((a, b), at) in &edges {
            if comp.contains(a) && comp.contains(b) {
                let more = if at.len() > 3 {
                    format!(" (+{} more)", at.len() - 3)
                } else {
                    String::new()
                };
                report.push_str(&format!(
                    "  {a} -> {b}: {}{more}\n",
                    at[..at.len().min(3)].join(", ")
                ));
            }
        }
    }
    assert!(found.is_empty(), "import cycles in src/core:\n{report}");
}

#[test]
fn the_checker_sees_each_kind_of_import() {
    // A made-up core: a → b by `crate::core::b`, b → c by `super::c` from
    // b/mod.rs, c → a by `super::super::a` from c/x.rs, and d → a only in
    // a test module, a test-only file and a comment (no edge). So a, b and
    // c form one cycle and d stands alone.
    let dir = std::env::temp_dir().join(format!("core_layers_{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for sub in ["b", "c", "d"] {
        fs::create_dir_all(dir.join(sub)).expect("temp folder");
    }
    let write = |p: &str, s: &str| fs::write(dir.join(p), s).expect("temp file");
    write("a.rs", "use crate::core::b::B;\n");
    write("b/mod.rs", "use super::c::C;\n");
    write("c/mod.rs", "mod x;\n");
    write("c/x.rs", "// crate::core::d\nuse super::super::a::A;\n");
    write(
        "d/mod.rs",
        "#[cfg(test)]\nmod fixtures;\n#[cfg(test)]\nmod tests {\n    use crate::core::a;\n}\npub fn f() { let s = \"crate::core::a\"; }\n",
    );
    write("d/fixtures.rs", "use crate::core::a;\n");
    let (tops, edges) = graph(&dir);
    let names: Vec<_> = edges.keys().map(|(a, b)| format!("{a}->{b}")).collect();
    assert_eq!(names, ["a->b", "b->c", "c->a"]);
    assert_eq!(cycles(&tops, &edges), [vec!["a", "b", "c"]]);
    let _ = fs::remove_dir_all(&dir);
}
