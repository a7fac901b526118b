//! The placeholder a view paints while its heavy computation waits for the
//! next frame ([`crate::app::hooks::use_deferred`]): a panel marked
//! `aria-busy="true"` with a visible "Computing …" line that names the work
//! and its size with units, and an indeterminate `<progress>`.

use yew::prelude::*;

/// A placeholder panel for work that runs after the first paint. `what` is
/// what is being computed, with its size and units, e.g. "the ring
/// all-reduce on p = 1024 ranks (64 MB)"; it is shown as "Computing {what} …".
pub fn computing(what: impl Into<AttrValue>) -> Html {
    let what: AttrValue = what.into();
    html! {
        <section class="panel computing" id="computing" aria-busy="true" role="status">
            <p class="computing-line">{format!("Computing {} …", what)}</p>
            <progress aria-label={format!("Computing {}", what)}></progress>
        </section>
    }
}

/// A view's page while its computation waits for the first paint: the
/// heading, the controls (already usable) and the [`computing`] placeholder.
/// `class` is the view's class (e.g. `"view-ring"`).
pub fn pending_page(class: &'static str, title: Html, controls: Html, what: AttrValue) -> Html {
    html! {
        <div class={classes!("view", class)}>
            {title}
            {controls}
            {computing(what)}
        </div>
    }
}
