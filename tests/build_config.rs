//! The per-view release binaries are listed in four places that no compiler
//! links: `src/bin/<view>.rs`, the `one_view!` table in
//! `src/app/views/mod.rs`, the rust links of `index.html` and the loader's
//! table at the top of `index.html`. These tests read the files and check that the four
//! lists agree, so a new view cannot be built but never loaded (or loaded but
//! never built).

use std::collections::BTreeSet;
use std::fs;

/// The views that have a binary: the stems of `src/bin/*.rs`.
fn bins() -> BTreeSet<String> {
    fs::read_dir("src/bin")
        .expect("src/bin")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect()
}

/// Values of `attr="…"` on the lines of `text` that contain `marker`.
fn attr_values(text: &str, marker: &str, attr: &str) -> Vec<String> {
    let needle = format!("{attr}=\"");
    text.lines()
        .filter(|l| l.contains(marker))
        .filter_map(|l| {
            let rest = &l[l.find(&needle)? + needle.len()..];
            Some(rest[..rest.find('"')?].to_string())
        })
        .collect()
}

#[test]
fn the_eleven_views_have_a_binary() {
    let want: BTreeSet<String> = [
        "collectives",
        "cost",
        "gossip",
        "measure",
        "practice",
        "ring",
        "sgd",
        "step",
        "timeline",
        "topology",
        "trace",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    assert_eq!(bins(), want);
}

#[test]
fn index_html_builds_every_binary_and_ring_is_the_main_app() {
    let html = fs::read_to_string("index.html").expect("index.html");
    let main = attr_values(&html, "rel=\"rust\" data-bin", "data-bin");
    assert_eq!(main, vec!["ring".to_string()]);
    let workers: BTreeSet<String> = attr_values(&html, "data-type=\"worker\"", "data-bin")
        .into_iter()
        .collect();
    let mut others = bins();
    others.remove("ring");
    assert_eq!(workers, others);
    // Every worker is bound for the web (an ES module the loader imports).
    assert_eq!(
        html.matches("data-type=\"worker\" data-bindgen-target=\"web\"")
            .count(),
        others.len()
    );
}

#[test]
fn the_loader_knows_every_binary() {
    let html = fs::read_to_string("index.html").expect("index.html");
    let line = html
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("const bins = {"))
        .expect("the loader's table of binaries");
    // `{"ring": "ring", "cost": "cost", …}`: each key names its own (not yet
    // hashed) binary; scripts/hash-views.sh adds the hashes in dist/.
    let quoted: Vec<&str> = line.split('"').skip(1).step_by(2).collect();
    let pairs: Vec<(&str, &str)> = quoted.chunks(2).map(|c| (c[0], c[1])).collect();
    assert!(pairs.iter().all(|(k, v)| k == v), "{pairs:?}");
    let listed: BTreeSet<String> = pairs.iter().map(|(k, _)| k.to_string()).collect();
    assert_eq!(listed, bins());
    // It runs before the stylesheet link, so the binary downloads alongside it.
    let loader = html.find("const bins = {").expect("loader");
    let css = html.find("rel=\"css\"").expect("stylesheet link");
    assert!(loader < css, "the loader must come before the stylesheet");
}

#[test]
fn each_binary_renders_its_own_view_only() {
    let table = fs::read_to_string("src/app/views/mod.rs").expect("views/mod.rs");
    for view in bins() {
        let bin = fs::read_to_string(format!("src/bin/{view}.rs")).expect("bin");
        assert!(
            bin.contains(&format!("app::views::only::{view})")),
            "src/bin/{view}.rs must start app::views::only::{view}"
        );
        assert!(
            table.contains(&format!("        {view} => ")),
            "one_view! has no entry for {view}"
        );
    }
}

#[test]
fn dist_gets_the_embed_example_the_example_trace_and_the_licences() {
    let html = fs::read_to_string("index.html").expect("index.html");
    let copied = attr_values(&html, "rel=\"copy-file\"", "href");
    assert_eq!(
        copied,
        [
            "docs/embed-example.html",
            "tests/fixtures/traces/ring-p4-16MiB.json",
            "LICENSE-MIT",
            "LICENSE-APACHE"
        ]
    );
    for f in &copied {
        assert!(fs::metadata(f).is_ok(), "{f} is missing");
    }
    // The example's frames are embedded views, and its host snippet checks
    // where each message came from.
    let page = fs::read_to_string("docs/embed-example.html").expect("example");
    let frames = attr_values(&page, "src=\"index.html?", "src");
    assert_eq!(frames.len(), 3, "{frames:?}");
    assert!(frames.iter().all(|s| s.contains("embed=1")), "{frames:?}");
    assert!(page.contains("data.source !== \"collective-lab\""));
    assert!(page.contains("frame.contentWindow === event.source"));
}
