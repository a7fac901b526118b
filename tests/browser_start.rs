//! In-browser test of the start page (no `?view=`): the path through the
//! chapter is followed link by link, from the first stop to the last, and
//! each page opened shows the case its link promised. Every expected
//! number is derived by hand in the comment beside it.
#![cfg(target_arch = "wasm32")]

mod common;

use common::Mounted;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The hrefs of every match of `selector`, in document order.
fn hrefs(app: &Mounted, selector: &str) -> Vec<String> {
    let list = app.root.query_selector_all(selector).expect("selector");
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        .filter_map(|e| e.get_attribute("href"))
        .collect()
}

#[wasm_bindgen_test]
async fn the_landing_page_is_the_start_page_with_twelve_stops_and_no_current_view() {
    let app = Mounted::new("").await;
    assert_eq!(app.count(".view-start"), 1);
    assert_eq!(app.count(".view-ring"), 0);
    assert_eq!(app.count(".start-path > li"), 12);
    assert_eq!(app.text("#stop-1 h3"), "One objective, distributed data");
    assert_eq!(app.attr("#stop-12", "value"), "12");
    assert_eq!(app.text("#stop-12 h3"), "Common mistakes");
    assert_eq!(app.text("#stop-6 .stop-question"), "practice question 4");
    // The navigation marks no view as the current one.
    assert_eq!(app.count("nav a[aria-current]"), 0);
    assert_eq!(app.attr(".brand", "href"), "index.html");
    // Questions 1 to 8 are each linked once, unrevealed.
    let mut qs = hrefs(&app, ".stop-question");
    qs.sort();
    let want: Vec<String> = (1..=8)
        .map(|q| format!("?view=practice&set=course&q={q}"))
        .collect();
    assert_eq!(qs, want);
    // The teachers' door links the lab sheet that ships in dist/.
    assert!(hrefs(&app, ".start-door a").contains(&"lab.md".to_string()));
}

#[wasm_bindgen_test]
async fn following_the_path_each_page_shows_the_case_its_link_promised() {
    let start = Mounted::new("").await;
    let links = hrefs(&start, ".stop-view");
    drop(start);
    assert_eq!(links.len(), 12);
    for (i, href) in links.iter().enumerate() {
        let query = href.strip_prefix('?').expect("a relative query link");
        let app = Mounted::new(query).await;
        app.until_idle().await;
        let stop = i + 1;
        match stop {
            // (600·0.2 + 300·0.5 + 100·0.9) / 1000 = 360 / 1000 = 0.36.
            1 => assert!(
                app.text("#global-mean").contains("0.36"),
                "{href}: {}",
                app.text("#global-mean")
            ),
            // All-reduce SGD: every worker applies the same mean gradient.
            2 => assert_eq!(
                app.text("#identical-allreduce"),
                "yes (bit-identical)",
                "{href}"
            ),
            // Gossip: the models differ after 200 steps.
            3 => {
                assert_eq!(app.text("#identical-gossip"), "no", "{href}");
                assert!(app.text("#phase").contains("D-PSGD"), "{href}");
            }
            // (0 + 3 + 6 + 9) / 4 = 4.5, kept by every round.
            4 => {
                assert_eq!(app.text("#values"), "0, 3, 6, 9", "{href}");
                assert_eq!(app.text("#round-mean"), "4.5", "{href}");
            }
            // The last round: each rank sent 2·(4 − 1)/4 · 100 MB = 150 MB.
            5 => {
                assert!(
                    app.text("#sent-0").contains("150 MB"),
                    "{href}: {}",
                    app.text("#sent-0")
                );
                assert!(app
                    .root
                    .text_content()
                    .unwrap_or_default()
                    .contains("Verified: all 4 ranks"));
            }
            // 8 ranks, 64 MB, before round 1.
            6 => {
                assert_eq!(app.count(".view-ring"), 1, "{href}");
                assert!(
                    app.text("#narration").contains("Each of the 8 ranks"),
                    "{href}"
                );
            }
            7 => assert_eq!(
                app.text("#table-h"),
                "All-reduce time at n = 64 MB (61.04 MiB), p = 8",
                "{href}"
            ),
            8 => assert!(
                app.text("#phase").starts_with("Rabenseifner all-reduce"),
                "{href}"
            ),
            // Question 7's case, p = 16: recursive doubling's log2 16 = 4
            // rounds of α = 5 µs.
            9 => assert_eq!(app.text("#alpha-rd"), "20.00 µs", "{href}"),
            10 => assert!(
                app.text("#narration").contains("each of the 8 ranks"),
                "{href}"
            ),
            // 2·3/4 · 100 MB / 12.5 GB/s = 12 ms, plus rank 2's 5 ms.
            11 => assert_eq!(app.text("#total-dataflow"), "Dataflow: 17.00 ms", "{href}"),
            12 => assert!(app.text("#q-0-h").starts_with("Question 1:"), "{href}"),
            _ => unreachable!(),
        }
    }
}
