//! The layers of the whole crate, file by file.
//!
//! Every `.rs` file under `src/` is a node (its module path: `src/core/
//! timing/clock.rs` is `core::timing::clock`, a `mod.rs` is its folder's
//! module, `src/bin/x.rs` is the binary `bin::x`). A path that a file
//! names outside its tests (a `use` tree, or a path such as
//! `crate::core::units::format_time(..)` or `super::plan::Tx` in code) is
//! resolved to the file that *defines* what it names: through child
//! modules, then through the `use` bindings of the module it reaches (so
//! `super::Clock` where the parent re-exports `clock::Clock` lands on
//! `clock.rs`). That draws an edge from file to file. A `pub use`
//! re-export is a facade, not a dependency of the re-exporting file: it
//! counts for the layer rules but not as an edge of a circle.
//!
//! The rules, each printed with the file and line of the edge that breaks
//! it:
//! 1. **Layer order** `core < params < pages < {plot, export} < app < bin`:
//!    a file may name only its own layer or those below it (`plot` and
//!    `export` are peers). So `core` never names `pages`.
//! 2. **Pages apart:** `pages/<a>` never names `pages/<b>`; what pages
//!    share lives in `pages/common.rs` (or `pages/mod.rs`).
//! 3. **Views apart:** `app/views/<a>` never names `app/views/<b>`
//!    (`app/views/mod.rs`, the switch, names them all).
//! 4. **No circle:** no two files reach each other through edges
//!    (strongly connected components, Tarjan 1972), so no folder holds a
//!    circle.
//! 5. **Length:** no production file over 900 lines, and none under
//!    `app/` over 450 (tests and fixtures aside): a longer file is split
//!    into a folder, or what it computes moves to `pages/`.
//!
//! Test code (`#[cfg(test)]` items, the files they declare, `tests.rs`
//! and `tests/` folders, `tests_*.rs`) and comments do not count. What the
//! text reading cannot see: paths built by macros other than the ones
//! written out, and names reached through a glob import (`use x::*`) are
//! drawn to the module the glob names. `SRC_DIR` overrides the folder
//! checked (for `scripts/cycles.sh` on another checkout).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

#[path = "support/rust_source.rs"]
mod rust_source;

use rust_source::{code_only, production_lines};

/// A module path below the crate root (`["core", "timing", "clock"]`).
type ModPath = Vec<String>;

/// A line of code with its 1-based number.
type NumberedLine = (usize, String);

/// A `use` tree's text, whether it is `pub`, and its line.
type UseStatement = (String, bool, usize);

/// One `use` binding: the name it binds in its module, the path it names
/// (absolute, below the crate root), whether it is a re-export (`pub`),
/// and its line.
#[derive(Clone, Debug)]
struct Binding {
    name: String,
    target: ModPath,
    public: bool,
    line: usize,
}

/// What one file says: its child modules, the items it defines, its `use`
/// bindings, and the other paths in its code with their lines.
#[derive(Debug, Default)]
struct FileFacts {
    path: PathBuf,
    children: BTreeSet<String>,
    defines: BTreeSet<String>,
    bindings: Vec<Binding>,
    /// Paths in code outside `use` trees: (segments as written, line).
    paths: Vec<(Vec<String>, usize)>,
    /// Glob imports: (module path, public, line).
    globs: Vec<(ModPath, bool, usize)>,
}

/// The crate: every production file by module path.
struct Crate {
    files: BTreeMap<ModPath, FileFacts>,
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The module path of `file` (relative to `src`), or `None` for a test
/// file.
fn module_path(rel: &Path) -> Option<ModPath> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts
        .iter()
        .any(|p| p == "tests" || p.starts_with("tests_"))
    {
        return None;
    }
    match parts.last().map(String::as_str) {
        Some("mod") => {
            parts.pop();
        }
        Some("lib") if parts.len() == 1 => parts.clear(),
        _ => {}
    }
    Some(parts)
}

/// `segments` made absolute from module `cur`, or `None` when the path
/// does not start inside the crate (`std::…`, `yew::…`).
fn absolute(cur: &[String], segs: &[String], facts: &FileFacts) -> Option<ModPath> {
    let first = segs.first()?;
    let mut out: ModPath;
    let mut rest = &segs[1..];
    match first.as_str() {
        "crate" | "collective_lab" => out = Vec::new(),
        "self" => out = cur.to_vec(),
        "super" => {
            out = cur.to_vec();
            out.pop();
            while rest.first().is_some_and(|s| s == "super") {
                out.pop();
                rest = &rest[1..];
            }
        }
        name if facts.children.contains(name) => {
            out = cur.to_vec();
            out.push(name.to_string());
        }
        name => {
            // A name bound by a `use` of this file.
            let b = facts.bindings.iter().find(|b| b.name == name)?;
            out = b.target.clone();
        }
    }
    out.extend(rest.iter().cloned());
    Some(out)
}

impl Crate {
    /// The file that defines what `path` names (at most `depth` re-exports
    /// followed), with the module path of that file.
    fn resolve(&self, path: &[String], depth: usize) -> Option<ModPath> {
        let mut m: ModPath = Vec::new();
        if !self.files.contains_key(&m) && path.is_empty() {
            return None;
        }
        for (i, seg) in path.iter().enumerate() {
            let mut child = m.clone();
            child.push(seg.clone());
            if self.files.contains_key(&child) {
                m = child;
                continue;
            }
            let facts = self.files.get(&m)?;
            if facts.defines.contains(seg) || depth == 0 {
                return Some(m);
            }
            if let Some(b) = facts.bindings.iter().find(|b| &b.name == seg) {
                let mut next = b.target.clone();
                next.extend(path[i + 1..].iter().cloned());
                return self.resolve(&next, depth - 1).or(Some(m));
            }
            // A name that a glob import brings in: the glob's module that
            // defines (or re-exports) it.
            for (g, _, _) in &facts.globs {
                let mut next = g.clone();
                next.extend(path[i..].iter().cloned());
                if let Some(t) = self.resolve(&next, depth - 1) {
                    let found = self.files.get(&t).is_some_and(|f| {
                        f.defines.contains(seg) || f.bindings.iter().any(|b| &b.name == seg)
                    });
                    if found {
                        return Some(t);
                    }
                }
            }
            return Some(m);
        }
        self.files.contains_key(&m).then_some(m)
    }
}

/// The `use` trees of `code` (one string per statement, without `use`
/// and `;`), each with the line it starts on and whether it is `pub`, and
/// the code with those statements blanked out.
fn use_statements(lines: &[NumberedLine]) -> (Vec<UseStatement>, Vec<NumberedLine>) {
    let mut uses = Vec::new();
    let mut rest = Vec::new();
    let mut open: Option<(String, bool, usize)> = None;
    for (n, line) in lines {
        let t = line.trim_start();
        if let Some((mut text, public, at)) = open.take() {
            text.push(' ');
            text.push_str(t);
            if let Some(end) = text.find(';') {
                uses.push((text[..end].to_string(), public, at));
            } else {
                open = Some((text, public, at));
            }
            rest.push((*n, String::new()));
            continue;
        }
        let (public, body) = if let Some(b) = t.strip_prefix("use ") {
            (false, Some(b))
        } else if t.starts_with("pub") {
            t.find("use ")
                .filter(|i| {
                    let head = &t[..*i];
                    head.trim_end() == "pub" || head.starts_with("pub(")
                })
                .map_or((true, None), |i| (true, Some(&t[i + 4..])))
        } else {
            (false, None)
        };
        match body {
            Some(b) => {
                if let Some(end) = b.find(';') {
                    uses.push((b[..end].to_string(), public, *n));
                } else {
                    open = Some((b.to_string(), public, *n));
                }
                rest.push((*n, String::new()));
            }
            None => rest.push((*n, line.clone())),
        }
    }
    (uses, rest)
}

/// The leaves of one `use` tree: (path, bound name or `*`).
fn use_leaves(tree: &str) -> Vec<(Vec<String>, String)> {
    fn walk(prefix: &[String], s: &str, out: &mut Vec<(Vec<String>, String)>) {
        let s = s.trim();
        if s.is_empty() {
            return;
        }
        if let Some(open) = s.find('{') {
            let head: Vec<String> = s[..open]
                .split("::")
                .map(|x| x.trim().to_string())
                .filter(|x| !x.is_empty())
                .collect();
            let mut p = prefix.to_vec();
            p.extend(head);
            let inner = &s[open + 1..s.rfind('}').unwrap_or(s.len())];
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        walk(&p, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            walk(&p, &inner[start..], out);
            return;
        }
        let (path, alias) = match s.split_once(" as ") {
            Some((a, b)) => (a.trim(), Some(b.trim().to_string())),
            None => (s, None),
        };
        let mut p = prefix.to_vec();
        p.extend(path.split("::").map(|x| x.trim().to_string()));
        let last = p.last().cloned().unwrap_or_default();
        if last == "self" {
            p.pop();
            let name = alias.unwrap_or_else(|| p.last().cloned().unwrap_or_default());
            out.push((p, name));
        } else {
            out.push((p, alias.unwrap_or(last)));
        }
    }
    let mut out = Vec::new();
    walk(&[], tree, &mut out);
    out
}

/// Every `a::b::c` path in `line` that is not inside a longer path.
fn code_paths(line: &str) -> Vec<Vec<String>> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts = is_ident_char(chars[i])
            && (i == 0 || !(is_ident_char(chars[i - 1]) || chars[i - 1] == ':'));
        if !starts {
            i += 1;
            continue;
        }
        let mut segs = Vec::new();
        loop {
            let s = i;
            while i < chars.len() && is_ident_char(chars[i]) {
                i += 1;
            }
            segs.push(chars[s..i].iter().collect::<String>());
            if i + 2 < chars.len()
                && chars[i] == ':'
                && chars[i + 1] == ':'
                && is_ident_char(chars[i + 2])
            {
                i += 2;
            } else {
                break;
            }
        }
        if segs.len() > 1 {
            out.push(segs);
        }
    }
    out
}

/// The names of the items `line` defines (`struct X`, `fn f`, …).
fn defined_names(line: &str, into: &mut BTreeSet<String>) {
    let words: Vec<&str> = line
        .split(|c: char| !(is_ident_char(c) || c == '!'))
        .filter(|w| !w.is_empty())
        .collect();
    for w in words.windows(2) {
        if matches!(
            w[0],
            "struct"
                | "enum"
                | "fn"
                | "trait"
                | "type"
                | "const"
                | "static"
                | "union"
                | "macro_rules!"
        ) {
            into.insert(w[1].to_string());
        }
    }
}

/// Reads every production file of `src`.
fn read_crate(src: &Path) -> Crate {
    let mut stack = vec![src.to_path_buf()];
    let mut all = Vec::new();
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
                all.push(p);
            }
        }
    }
    let mut files = BTreeMap::new();
    let mut test_only: BTreeSet<ModPath> = BTreeSet::new();
    for p in all {
        let rel = p.strip_prefix(src).expect("inside src");
        let Some(module) = module_path(rel) else {
            continue;
        };
        let code = code_only(&fs::read_to_string(&p).expect("readable file"));
        let (lines, test_mods) = production_lines(&code);
        for m in test_mods {
            let mut child = module.clone();
            child.push(m);
            test_only.insert(child);
        }
        let (uses, rest) = use_statements(&lines);
        let mut facts = FileFacts {
            path: p.clone(),
            ..FileFacts::default()
        };
        for (_, l) in &rest {
            let t = l.trim();
            let words: Vec<&str> = t.split_whitespace().collect();
            if let Some(at) = words.iter().position(|w| *w == "mod") {
                if let Some(name) = words.get(at + 1) {
                    if name.ends_with(';') {
                        facts
                            .children
                            .insert(name.trim_end_matches(';').to_string());
                    }
                }
            }
            defined_names(l, &mut facts.defines);
        }
        for (tree, public, line) in uses {
            for (segs, name) in use_leaves(&tree) {
                if name == "*" {
                    let mut m = segs.clone();
                    m.pop();
                    facts.globs.push((m, public, line));
                } else {
                    facts.bindings.push(Binding {
                        name,
                        target: segs,
                        public,
                        line,
                    });
                }
            }
        }
        for (n, l) in &rest {
            for segs in code_paths(l) {
                facts.paths.push((segs, *n));
            }
        }
        files.insert(module, facts);
    }
    files.retain(|m, _| !test_only.iter().any(|t| m.starts_with(t)));
    // Bindings and globs made absolute now that every file is known.
    let mods: Vec<ModPath> = files.keys().cloned().collect();
    for m in mods {
        let facts = files.get(&m).expect("known");
        let base = m.clone();
        let bindings: Vec<Binding> = facts
            .bindings
            .iter()
            .filter_map(|b| {
                let abs = absolute(&base, &b.target, facts)?;
                Some(Binding {
                    target: abs,
                    ..b.clone()
                })
            })
            .collect();
        let globs: Vec<(ModPath, bool, usize)> = facts
            .globs
            .iter()
            .filter_map(|(g, public, line)| Some((absolute(&base, g, facts)?, *public, *line)))
            .collect();
        let f = files.get_mut(&m).expect("known");
        f.bindings = bindings;
        f.globs = globs;
    }
    Crate { files }
}

/// One edge: from file, to file, the line, and whether it is a re-export.
#[derive(Clone, Debug)]
struct Edge {
    from: ModPath,
    to: ModPath,
    line: usize,
    reexport: bool,
}

/// Every edge between two different files.
fn edges(c: &Crate) -> Vec<Edge> {
    let mut out = Vec::new();
    for (m, facts) in &c.files {
        let mut add = |to: Option<ModPath>, line: usize, reexport: bool| {
            if let Some(to) = to {
                if &to != m {
                    out.push(Edge {
                        from: m.clone(),
                        to,
                        line,
                        reexport,
                    });
                }
            }
        };
        for b in &facts.bindings {
            add(c.resolve(&b.target, 8), b.line, b.public);
        }
        for (g, public, line) in &facts.globs {
            add(c.resolve(g, 8), *line, *public);
        }
        for (segs, line) in &facts.paths {
            let Some(first) = segs.first() else { continue };
            let internal = matches!(
                first.as_str(),
                "crate" | "super" | "self" | "collective_lab"
            ) || facts.children.contains(first);
            // A path through a name this file imported is already drawn by
            // its `use`, except where it goes on into a child module.
            let bound = facts.bindings.iter().any(|b| &b.name == first);
            if !internal && !bound {
                continue;
            }
            if let Some(abs) = absolute(m, segs, facts) {
                add(c.resolve(&abs, 8), *line, false);
            }
        }
    }
    out
}

/// The layer of a module path and its rank (`plot` and `export` share
/// one).
fn layer(m: &[String]) -> Option<(&'static str, u8)> {
    Some(match m.first().map(String::as_str) {
        Some("core") => ("core", 0),
        Some("params") => ("params", 1),
        Some("pages") => ("pages", 2),
        Some("plot") => ("plot", 3),
        Some("export") => ("export", 3),
        Some("app") => ("app", 4),
        Some("bin") => ("bin", 5),
        _ => return None,
    })
}

fn shown(c: &Crate, m: &[String], line: usize) -> String {
    let f = c
        .files
        .get(m)
        .map(|f| f.path.display().to_string())
        .unwrap_or_default();
    format!("{f}:{line}")
}

/// Every edge that breaks rules 1–3, as printed lines.
fn layer_breaks(c: &Crate, es: &[Edge]) -> Vec<String> {
    let mut out = Vec::new();
    for e in es {
        let at = shown(c, &e.from, e.line);
        let (Some((la, ra)), Some((lb, rb))) = (layer(&e.from), layer(&e.to)) else {
            continue;
        };
        let to = e.to.join("::");
        if rb > ra {
            out.push(format!("{at}: {la} names {to}, a layer above it ({lb})"));
            continue;
        }
        let apart = |folder: &[&str], shared: &[&str]| -> bool {
            let n = folder.len();
            let under = |m: &[String]| m.len() > n && m.iter().zip(folder).all(|(a, b)| a == b);
            under(&e.from)
                && under(&e.to)
                && e.from[n] != e.to[n]
                && !shared.contains(&e.to[n].as_str())
                && !shared.contains(&e.from[n].as_str())
        };
        if apart(&["pages"], &["common"]) {
            out.push(format!(
                "{at}: pages/{} names {to}: pages never name each other (shared page code lives in pages/common.rs)",
                e.from[1]
            ));
        }
        if apart(&["app", "views"], &[]) {
            out.push(format!(
                "{at}: app/views/{} names {to}: views never name each other",
                e.from[2]
            ));
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Strongly connected components of two or more files (Tarjan 1972),
/// re-exports left out.
fn circles(c: &Crate, es: &[Edge]) -> Vec<Vec<ModPath>> {
    let nodes: Vec<&ModPath> = c.files.keys().collect();
    let idx: BTreeMap<&ModPath, usize> = nodes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let mut adj = vec![BTreeSet::new(); nodes.len()];
    for e in es.iter().filter(|e| !e.reexport) {
        if let (Some(&a), Some(&b)) = (idx.get(&e.from), idx.get(&e.to)) {
            adj[a].insert(b);
        }
    }
    struct T {
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(v: usize, adj: &[BTreeSet<usize>], t: &mut T) {
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
    let mut out: Vec<Vec<ModPath>> = t
        .out
        .into_iter()
        .map(|comp| {
            let mut m: Vec<ModPath> = comp.into_iter().map(|i| nodes[i].clone()).collect();
            m.sort();
            m
        })
        .collect();
    out.sort();
    out
}

/// The circles as printed lines: each circle's files, then its edges
/// (at most three places each).
fn circle_report(c: &Crate, es: &[Edge], found: &[Vec<ModPath>]) -> String {
    let mut report = String::new();
    for comp in found {
        let names: Vec<String> = comp
            .iter()
            .map(|m| c.files[m].path.display().to_string())
            .collect();
        report.push_str(&format!(
            "circle of {} files: {}\n",
            comp.len(),
            names.join(", ")
        ));
        let mut by_pair: BTreeMap<(&ModPath, &ModPath), Vec<usize>> = BTreeMap::new();
        for e in es.iter().filter(|e| !e.reexport) {
            if comp.contains(&e.from) && comp.contains(&e.to) {
                by_pair.entry((&e.from, &e.to)).or_default().push(e.line);
            }
        }
        for ((a, b), lines) in by_pair {
            let mut lines = lines;
            lines.sort_unstable();
            lines.dedup();
            let at: Vec<String> = lines.iter().take(3).map(|l| shown(c, a, *l)).collect();
            let more = if lines.len() > 3 {
                format!(" (+{} more)", lines.len() - 3)
            } else {
                String::new()
            };
            report.push_str(&format!(
                "  {} -> {}: {}{more}\n",
                a.join("::"),
                b.join("::"),
                at.join(", ")
            ));
        }
    }
    report
}

fn src_dir() -> PathBuf {
    std::env::var_os("SRC_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn every_file_names_only_its_layer_or_those_below() {
    let c = read_crate(&src_dir());
    let es = edges(&c);
    let breaks = layer_breaks(&c, &es);
    assert!(
        breaks.is_empty(),
        "layer order core < params < pages < {{plot, export}} < app < bin is broken by {} edge(s):\n{}",
        breaks.len(),
        breaks.join("\n")
    );
}

#[test]
fn no_two_files_name_each_other() {
    let c = read_crate(&src_dir());
    let es = edges(&c);
    let found = circles(&c, &es);
    assert!(
        found.is_empty(),
        "{} circle(s) of files in src:\n{}",
        found.len(),
        circle_report(&c, &es, &found)
    );
}

/// Most lines a production file under `src/` may have (issue 43): a file
/// past it holds more than one idea and is split into a folder.
const MAX_LINES: usize = 900;

/// Most lines of a file under `src/app/`, which only lays out and renders
/// (what a page computes lives in `src/pages/`).
const MAX_APP_LINES: usize = 450;

/// The line limit of the file at `rel` (relative to `src`).
fn limit(rel: &Path) -> usize {
    if rel.starts_with("app") {
        MAX_APP_LINES
    } else {
        MAX_LINES
    }
}

/// Every production `.rs` file below `dir` with its line count: test files
/// (as [`module_path`] reads them) and fixtures (`fixtures.rs`,
/// `fixtures/`) aside.
fn file_lengths(src: &Path, dir: &Path, out: &mut Vec<(PathBuf, usize)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            file_lengths(src, &path, out);
            continue;
        }
        let Ok(rel) = path.strip_prefix(src) else {
            continue;
        };
        let fixture = rel
            .iter()
            .any(|p| p.to_string_lossy().trim_end_matches(".rs") == "fixtures");
        if path.extension().is_some_and(|e| e == "rs") && !fixture && module_path(rel).is_some() {
            let lines = std::fs::read_to_string(&path).map_or(0, |t| t.lines().count());
            out.push((rel.to_path_buf(), lines));
        }
    }
}

/// The files of `src` over their [`limit`], longest first, as printed
/// lines.
fn too_long(src: &Path) -> Vec<String> {
    let mut all = Vec::new();
    file_lengths(src, src, &mut all);
    all.retain(|(f, n)| *n > limit(f));
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    all.iter()
        .map(|(f, n)| format!("  src/{}: {n} lines (limit {})", f.display(), limit(f)))
        .collect()
}

#[test]
fn no_file_passes_900_lines_nor_an_app_file_450() {
    let long = too_long(&src_dir());
    assert!(
        long.is_empty(),
        "{} file(s) in src over {MAX_LINES} lines, or in src/app over {MAX_APP_LINES} (tests and fixtures aside); split each into a folder, or move what it computes to src/pages:\n{}",
        long.len(),
        long.join("\n")
    );
}

#[test]
fn the_length_rule_sees_a_long_file_and_skips_tests() {
    let dir = std::env::temp_dir().join(format!("layers-length-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let long = "fn f() {}\n".repeat(MAX_LINES + 1);
    for (rel, text) in [
        ("core/a.rs", long.as_str()),
        ("core/b/tests.rs", long.as_str()),
        ("core/c/fixtures.rs", long.as_str()),
        ("core/d.rs", &long[..long.len() - "fn f() {}\n".len()]),
        ("app/e.rs", &"fn f() {}\n".repeat(MAX_APP_LINES + 1)),
        ("app/f.rs", &"fn f() {}\n".repeat(MAX_APP_LINES)),
    ] {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&path, text).expect("write");
    }
    let found = too_long(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        found,
        vec![
            format!(
                "  src/core/a.rs: {} lines (limit {MAX_LINES})",
                MAX_LINES + 1
            ),
            format!(
                "  src/app/e.rs: {} lines (limit {MAX_APP_LINES})",
                MAX_APP_LINES + 1
            ),
        ]
    );
}

/// The `?view=` keys that `app/route.rs` lists in `View::spec`, read from
/// its text (the app is wasm-only; this test is native): every arm
/// `View::X => ("key", "Title")`.
fn view_keys(src: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(src.join("app/route.rs")).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("View::")?;
            let (_, arm) = rest.split_once("=> (\"")?;
            let (key, _) = arm.split_once('"')?;
            Some(key.to_string())
        })
        .collect()
}

#[test]
fn every_view_has_its_page_folder() {
    let src = src_dir();
    let keys = view_keys(&src);
    assert!(keys.len() >= 11, "read only {keys:?} from app/route.rs");
    let missing: Vec<&String> = keys
        .iter()
        .filter(|k| !src.join("pages").join(k).join("mod.rs").is_file())
        .collect();
    assert!(
        missing.is_empty(),
        "views without a pages/<key>/mod.rs (what the page shows lives there): {missing:?}"
    );
}

#[test]
fn the_checker_sees_each_kind_of_break() {
    // A made-up crate:
    // - core/a.rs names pages::x (a layer above): one break;
    // - pages/x/mod.rs names pages::y (another page): one break, while its
    //   name of pages::common is allowed;
    // - app/views/v.rs names app::views::w: one break;
    // - core/b/mod.rs re-exports `b::c::C` and uses `c::C` in code;
    //   core/b/c.rs names `super::helper`, defined in b/mod.rs: a circle
    //   b ↔ b::c;
    // - core/d.rs names `super::b::C`, which resolves through the
    //   re-export to b/c.rs (no edge to b/mod.rs), and names b only in a
    //   test module and a comment.
    let dir = std::env::temp_dir().join(format!("layers_{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for sub in ["core/b", "pages/x", "pages/y", "app/views"] {
        fs::create_dir_all(dir.join(sub)).expect("temp folder");
    }
    let write = |p: &str, s: &str| fs::write(dir.join(p), s).expect("temp file");
    write("lib.rs", "pub mod core;\npub mod pages;\npub mod app;\n");
    write("core/mod.rs", "pub mod a;\npub mod b;\npub mod d;\n");
    write("core/a.rs", "use crate::pages::x::X;\n");
    write(
        "core/b/mod.rs",
        "mod c;\npub use c::C;\npub fn helper() {}\npub fn g() { c::C::new(); }\n",
    );
    write(
        "core/b/c.rs",
        "pub struct C;\nfn f() { super::helper(); }\n",
    );
    write(
        "core/d.rs",
        "// crate::core::b::helper\nuse super::b::C;\n#[cfg(test)]\nmod tests {\n    use crate::core::b::helper;\n}\n",
    );
    write("pages/mod.rs", "pub mod common;\npub mod x;\npub mod y;\n");
    write("pages/common.rs", "pub struct Row;\n");
    write(
        "pages/x/mod.rs",
        "pub struct X;\nuse crate::pages::y::Y;\nuse crate::pages::common::Row;\n",
    );
    write("pages/y/mod.rs", "pub struct Y;\n");
    write("app/mod.rs", "pub mod views;\n");
    write("app/views/mod.rs", "pub mod v;\npub mod w;\n");
    write("app/views/v.rs", "use super::w::W;\n");
    write("app/views/w.rs", "pub struct W;\n");
    let c = read_crate(&dir);
    let es = edges(&c);
    let breaks: Vec<String> = layer_breaks(&c, &es)
        .into_iter()
        .map(|b| b.split_once(": ").map(|(_, r)| r.to_string()).unwrap_or(b))
        .collect();
    assert_eq!(
        breaks,
        [
            "app/views/v names app::views::w: views never name each other",
            "core names pages::x, a layer above it (pages)",
            "pages/x names pages::y: pages never name each other (shared page code lives in pages/common.rs)",
        ]
    );
    let d_edges: Vec<String> = es
        .iter()
        .filter(|e| e.from == ["core", "d"])
        .map(|e| e.to.join("::"))
        .collect();
    assert_eq!(d_edges, ["core::b::c"]);
    let found = circles(&c, &es);
    let names: Vec<Vec<String>> = found
        .iter()
        .map(|comp| comp.iter().map(|m| m.join("::")).collect())
        .collect();
    assert_eq!(names, [vec!["core::b", "core::b::c"]]);
    let _ = fs::remove_dir_all(&dir);
}
