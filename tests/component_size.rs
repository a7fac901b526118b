//! Every Yew component function in `src/app` stays within the line budget
//! of `clippy.toml` (`too-many-lines-threshold`).
//!
//! Clippy's `too_many_lines` checks every plain function of the crate, but it
//! does not see inside `#[component]` functions (their bodies come out of
//! Yew's proc macro), so this test applies the same rule to them: lines of
//! the body that are neither blank nor comments, at most the threshold.

use std::fs;
use std::path::{Path, PathBuf};

/// The threshold from `clippy.toml`.
fn threshold() -> usize {
    let text = fs::read_to_string("clippy.toml").unwrap_or_default();
    text.lines()
        .filter_map(|l| l.split_once('='))
        .find(|(k, _)| k.trim() == "too-many-lines-threshold")
        .and_then(|(_, v)| v.trim().parse().ok())
        .unwrap_or(150)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// `(name, counted lines)` of every `#[component]` function in `src`:
/// from the line after the signature's `{` to the matching `}` (braces
/// counted outside string literals), blank and `//` lines not counted.
fn components(src: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "#[component]" {
            i += 1;
            continue;
        }
        let sig = i + 1;
        let name = lines
            .get(sig)
            .and_then(|l| l.split("fn ").nth(1))
            .map(|rest| {
                rest.split(['(', '<'])
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .unwrap_or_default();
        let mut depth = 0i64;
        let mut counted = 0usize;
        let mut j = sig;
        let mut opened = false;
        while j < lines.len() {
            let l = lines[j];
            if opened && !l.trim().is_empty() && !l.trim().starts_with("//") {
                counted += 1;
            }
            let mut in_str = false;
            let mut prev = ' ';
            for c in l.chars() {
                match c {
                    '"' if prev != '\\' => in_str = !in_str,
                    '{' if !in_str => {
                        depth += 1;
                        opened = true;
                    }
                    '}' if !in_str => depth -= 1,
                    _ => {}
                }
                prev = c;
            }
            if opened && depth == 0 {
                break;
            }
            j += 1;
        }
        // The closing brace's line was counted as part of the body.
        out.push((name, counted.saturating_sub(1)));
        i = j + 1;
    }
    out
}

#[test]
fn component_functions_stay_short() {
    let limit = threshold();
    let mut files = Vec::new();
    rust_files(Path::new("src/app"), &mut files);
    let mut seen = 0;
    let mut long = Vec::new();
    for f in &files {
        let src = fs::read_to_string(f).unwrap_or_default();
        for (name, n) in components(&src) {
            seen += 1;
            if n > limit {
                long.push(format!(
                    "{}: {name} has {n} lines (limit {limit})",
                    f.display()
                ));
            }
        }
    }
    assert!(
        seen >= 30,
        "found only {seen} components: is the scan broken?"
    );
    assert!(long.is_empty(), "{}", long.join("\n"));
}

#[test]
fn the_scan_counts_a_known_body() {
    let src = "#[component]\npub fn A(p: &P) -> Html {\n    let x = \"}\";\n\n    // note\n    html! { <p>{x}</p> }\n}\n";
    assert_eq!(components(src), vec![("A".to_string(), 2)]);
}
