//! The per-view release binaries are listed in four places that no compiler
//! links: `src/bin/<view>.rs`, the `one_view!` table in
//! `src/app/views/mod.rs`, the rust links of `index.html` and the loader's
//! table at the top of `index.html`. These tests read the files and check that the four
//! lists agree, so a new view cannot be built but never loaded (or loaded but
//! never built). The same holds for the modules a view loads on demand
//! (`modules/<name>`, the loader's `mods` table).

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

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
fn the_twelve_views_have_a_binary() {
    let want: BTreeSet<String> = [
        "collectives",
        "cost",
        "gossip",
        "hang",
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
    // The views' binaries; the modules of modules/ (on-demand binaries of
    // a view, not views) are checked by the next test but one.
    let workers: BTreeSet<String> = attr_values(&html, "data-type=\"worker\"", "data-bin")
        .into_iter()
        .filter(|b| !Path::new("modules").join(b).is_dir())
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

/// The keys of the loader's table that starts with `start` on its line of
/// `index.html` (`const bins = {` or `const mods = {`): `{"ring": "ring",
/// …}`, each key naming its own (not yet hashed) binary, which
/// scripts/hash-views.sh hashes in dist/.
fn loader_table(html: &str, start: &str) -> BTreeSet<String> {
    let line = html
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with(start))
        .expect("the loader's table");
    let table = &line[..line.find('}').expect("table")];
    let quoted: Vec<&str> = table.split('"').skip(1).step_by(2).collect();
    let pairs: Vec<(&str, &str)> = quoted.chunks(2).map(|c| (c[0], c[1])).collect();
    assert!(pairs.iter().all(|(k, v)| k == v), "{pairs:?}");
    pairs.iter().map(|(k, _)| k.to_string()).collect()
}

#[test]
fn the_loader_knows_every_binary() {
    let html = fs::read_to_string("index.html").expect("index.html");
    assert_eq!(loader_table(&html, "const bins = {"), bins());
    // It runs before the stylesheet link, so the binary downloads alongside it.
    let loader = html.find("const bins = {").expect("loader");
    let css = html.find("rel=\"css\"").expect("stylesheet link");
    assert!(loader < css, "the loader must come before the stylesheet");
}

#[test]
fn the_loader_knows_every_module_and_trunk_builds_it() {
    // The modules a view loads on demand: the directories of modules/, each
    // a crate whose one binary has the directory's name.
    let dirs: BTreeSet<String> = fs::read_dir("modules")
        .expect("modules/")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        dirs,
        BTreeSet::from(["quality".to_string(), "ringclock".to_string()])
    );
    let html = fs::read_to_string("index.html").expect("index.html");
    assert_eq!(loader_table(&html, "const mods = {"), dirs);
    for m in &dirs {
        let cargo = fs::read_to_string(format!("modules/{m}/Cargo.toml")).expect("Cargo.toml");
        assert!(
            cargo.contains(&format!("name = \"{m}\"")),
            "modules/{m} builds the binary {m}"
        );
        let link = format!("data-type=\"worker\" href=\"modules/{m}/Cargo.toml\" data-bin=\"{m}\" data-bindgen-target=\"web\"");
        assert!(
            html.contains(&link),
            "index.html has Trunk build modules/{m} for the web"
        );
        let root = fs::read_to_string("Cargo.toml").expect("Cargo.toml");
        assert!(
            root.contains(&format!("\"modules/{m}\"")),
            "modules/{m} is a workspace member"
        );
    }
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
        // One line of one_view!, or (the ring, which also holds the start
        // page) a function of its own in `only`.
        assert!(
            table.contains(&format!("        {view} => "))
                || table.contains(&format!(
                    "    pub fn {view}(view: View, query: Query, ctx: UrlCtx) -> Html {{"
                )),
            "one_view! has no entry for {view}"
        );
    }
}

#[test]
fn dist_gets_the_embed_example_the_lab_sheet_the_example_trace_and_the_licences() {
    let html = fs::read_to_string("index.html").expect("index.html");
    let copied = attr_values(&html, "rel=\"copy-file\"", "href");
    assert_eq!(
        copied,
        [
            "docs/embed-example.html",
            "docs/lab.md",
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
    // Each frame shows a lesson's panels, not the whole view.
    assert!(frames.iter().all(|s| s.contains("show=")), "{frames:?}");
    assert!(page.contains("data.source !== \"collective-lab\""));
    assert!(page.contains("frame.contentWindow === event.source"));
}

/// The value of `key = "…"` in a TOML text (first match).
fn toml_value(text: &str, key: &str) -> Option<String> {
    let prefix = format!("{key} = \"");
    text.lines()
        .find_map(|l| l.trim().strip_prefix(&prefix)?.strip_suffix('"'))
        .map(str::to_string)
}

#[test]
fn trunk_runs_offline_with_the_tools_setup_installs() {
    let trunk = fs::read_to_string("Trunk.toml").expect("Trunk.toml");
    assert!(trunk.lines().any(|l| l.trim() == "offline = true"));
    // wasm-bindgen: the CLI must be the version of the crate in Cargo.lock
    let lock = fs::read_to_string("Cargo.lock").expect("Cargo.lock");
    let crate_version = lock
        .split("[[package]]")
        .find(|p| p.contains("\nname = \"wasm-bindgen\"\n"))
        .and_then(|p| toml_value(p, "version"))
        .expect("wasm-bindgen in Cargo.lock");
    assert_eq!(toml_value(&trunk, "wasm_bindgen"), Some(crate_version));
    // wasm-opt: Trunk's form of `wasm-opt --version`, "version_N"
    let opt = toml_value(&trunk, "wasm_opt").expect("wasm_opt pin");
    let n = opt.strip_prefix("version_").expect("version_N");
    assert!(
        !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()),
        "{opt}"
    );
    // setup.sh installs what Trunk.toml pins
    let setup = fs::read_to_string("scripts/setup.sh").expect("setup.sh");
    assert!(setup.contains("WB_VERSION=\"$(pin wasm_bindgen)\""));
    assert!(setup.contains("BINARYEN=\"$(pin wasm_opt | sed 's/^version_//')\""));
}

#[test]
fn the_checks_of_test_sh_run_or_fail() {
    let test = fs::read_to_string("scripts/test.sh").expect("test.sh");
    let code: Vec<&str> = test
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .collect();
    assert!(
        code.iter().all(|l| !l.contains("skipped")),
        "a check that prints \"skipped\""
    );
    for step in [
        "node scripts/browser/embed.mjs",
        "node scripts/browser/audit.mjs",
        "node scripts/browser/sweep.mjs --short",
        "bash scripts/advisories.sh",
        "bash scripts/smoke.sh",
    ] {
        assert!(code.iter().any(|l| l.trim() == step), "test.sh runs {step}");
    }
    // smoke.sh visits the views of src/bin, the list the tests above check
    let smoke = fs::read_to_string("scripts/smoke.sh").expect("smoke.sh");
    assert!(smoke.contains("for bin in src/bin/*.rs; do"));
}
