//! The Yew single-page app: a shell (header with the view list, main panel)
//! into which every view plugs. Views read their parameters from the URL
//! query, render what the core computed, and write every change back with
//! `history.replaceState` (the URL is the embedding API).

use yew::prelude::*;

use crate::params::embed::Embed;
use crate::params::Query;
pub use route::View;

pub mod components;
pub mod embed;
pub mod hooks;
pub mod menus;
pub mod module;
pub mod route;
pub mod state;
pub mod url;
pub mod views;

/// Mounts the app into `#app` (or `<body>`) after installing the panic hook.
///
/// `pages` renders the selected view: [`views::switch`] holds every view;
/// the per-view binaries pass a function that names one view only, so the
/// linker drops the code of the others (see `src/bin/`).
pub fn start(pages: Pages) {
    install_panic_hook();
    let props = AppProps { query: None, pages };
    let root = gloo::utils::document().get_element_by_id("app");
    match root {
        Some(el) => {
            // With `embed=1`: the content height, posted to the parent page
            // for the page's whole life.
            std::mem::forget(embed::watch_height(&url::current_query(), &el));
            yew::Renderer::<App>::with_root_and_props(el, props).render();
        }
        None => {
            if let Some(body) = gloo::utils::document().body() {
                yew::Renderer::<App>::with_root_and_props(body.into(), props).render();
            }
        }
    }
}

/// Renders the page of a view opened with a query: [`views::switch`] (every
/// view) or one of the one-view functions in [`views::only`].
pub type Pages = fn(View, Query, route::UrlCtx) -> Html;

/// Replaces the default panic behaviour: logs the message and shows a visible
/// error box instead of leaving a silently dead page.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        web_sys::console::error_1(&msg.clone().into());
        let doc = gloo::utils::document();
        if let Ok(div) = doc.create_element("div") {
            div.set_class_name("panic-box");
            div.set_attribute("role", "alert").ok();
            div.set_text_content(Some(&format!(
                "Collective Lab hit an internal error and stopped. Reload the page to start again. \
                 Details: {msg}"
            )));
            if let Some(body) = doc.body() {
                body.append_child(&div).ok();
            }
        }
    }));
}

/// Props of [`App`]: the query to start from (tests pass one; the browser
/// reads `location.search` when it is `None`) and the views it can render.
#[derive(Properties)]
pub struct AppProps {
    /// Query string to use instead of the page URL.
    #[prop_or_default]
    pub query: Option<String>,
    /// The pages this build holds.
    pub pages: Pages,
}

impl PartialEq for AppProps {
    /// Equal when the queries are: a build holds one set of pages for its
    /// whole life, so the function is not compared (function addresses are
    /// not meaningful to compare).
    fn eq(&self, other: &Self) -> bool {
        self.query == other.query
    }
}

impl Default for AppProps {
    /// Every view, reading the page URL.
    fn default() -> Self {
        AppProps {
            query: None,
            pages: views::switch,
        }
    }
}

/// The app shell: header with the view list (hidden with `embed=1`) and the
/// selected view.
#[component]
pub fn App(props: &AppProps) -> Html {
    let initial = use_memo((), |_| {
        props
            .query
            .clone()
            .map(|q| Query::parse(&q))
            .unwrap_or_else(url::current_query)
    });
    let query = (*initial).clone();
    let embed = query.flag("embed");
    let requested = query.get("view").map(View::from_key);
    let known = !matches!(requested, Some(None));
    let view = requested.flatten().unwrap_or(View::DEFAULT);
    let (frame, frame_errors) = Embed::from_query(&query, view.panels());
    let ctx = route::UrlCtx { view, embed, frame };

    let nav = if embed {
        html! {}
    } else {
        html! {
            <header class="site-header">
                <a class="brand" href="index.html">{"Collective Lab"}</a>
                <nav aria-label="Views">
                    <ul>
                    { for View::ALL.iter().map(|&v| {
                        let current = v == view && requested.is_some();
                        html! {
                            <li>
                                <a href={format!("?view={}", v.key())}
                                   aria-current={current.then_some("page")}
                                   class={classes!(current.then_some("current"))}>
                                    {v.title()}
                                </a>
                            </li>
                        }
                    }) }
                    </ul>
                </nav>
            </header>
        }
    };
    let warning = (!known).then(|| {
        html! {
            <p class="field-error" role="alert">
                {format!("Unknown view “{}”: showing the {} view. Views: {}.",
                    query.get("view").unwrap_or_default(), View::DEFAULT.key(), View::keys())}
            </p>
        }
    });
    let body = (props.pages)(view, query.clone(), ctx);
    html! {
        <div class={classes!("shell", embed.then_some("embed"))}>
            {nav}
            <main id="main">
                {for warning}
                { for frame_errors.into_iter().map(|e| html! {
                    <p class="field-error" role="alert" id={format!("{}-error", e.field)}>{e.message}</p>
                }) }
                {body}
            </main>
            if !embed {
                <footer class="site-footer">
                    {"Every number comes from the Rust core: animations and byte counts from schedules executed on real buffers, cost tables from closed-form α–β formulas."}
                </footer>
            }
        </div>
    }
}
