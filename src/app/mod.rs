//! The Yew single-page app: a shell (header with the view list, main panel)
//! into which every view plugs. Views read their parameters from the URL
//! query, render what the core computed, and write every change back with
//! `history.replaceState` (the URL is the embedding API).

use yew::prelude::*;

use crate::params::Query;

pub mod components;
pub mod hooks;
pub mod url;
pub mod views;

/// The views, in navigation order: `(key, title)`.
pub const VIEWS: [(&str, &str); 6] = [
    ("ring", "Ring all-reduce"),
    ("collectives", "Collectives"),
    ("cost", "α–β cost model"),
    ("gossip", "Gossip consensus"),
    ("sgd", "Distributed SGD"),
    ("measure", "Measured logs"),
];

/// Mounts the app into `#app` (or `<body>`) after installing the panic hook.
pub fn start() {
    install_panic_hook();
    let root = gloo::utils::document().get_element_by_id("app");
    match root {
        Some(el) => {
            yew::Renderer::<App>::with_root(el).render();
        }
        None => {
            yew::Renderer::<App>::new().render();
        }
    }
}

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
/// reads `location.search` when it is `None`).
#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// Query string to use instead of the page URL.
    #[prop_or_default]
    pub query: Option<String>,
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
    let requested = query.get("view").map(str::to_ascii_lowercase);
    let is_view = |v: &str| v == "bench" || VIEWS.iter().any(|(k, _)| *k == v);
    let known = requested.as_deref().map(is_view).unwrap_or(true);
    let view = requested
        .filter(|v| is_view(v))
        .unwrap_or_else(|| "ring".to_string());
    let ctx = url::UrlCtx {
        view: view.clone(),
        embed,
    };

    let nav = if embed {
        html! {}
    } else {
        html! {
            <header class="site-header">
                <a class="brand" href="?view=ring">{"Collective Lab"}</a>
                <nav aria-label="Views">
                    <ul>
                    { for VIEWS.iter().map(|(k, title)| {
                        let current = *k == view;
                        html! {
                            <li>
                                <a href={format!("?view={k}")}
                                   aria-current={current.then_some("page")}
                                   class={classes!(current.then_some("current"))}>
                                    {*title}
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
                {format!("Unknown view “{}”: showing the ring view. Views: ring, collectives, cost, gossip, sgd, measure.",
                    query.get("view").unwrap_or_default())}
            </p>
        }
    });
    let body = views::render(&view, query.clone(), ctx);
    html! {
        <div class={classes!("shell", embed.then_some("embed"))}>
            {nav}
            <main id="main">
                {for warning}
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
