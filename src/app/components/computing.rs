//! The placeholder a view paints while its heavy computation waits for the
//! next frame ([`crate::app::hooks::use_deferred`]): a panel marked
//! `aria-busy="true"` with a visible "Computing …" line that names the work
//! and its size with units, and an indeterminate `<progress>`.

use yew::prelude::*;

/// Props of [`Computing`].
#[derive(Properties, PartialEq, Clone)]
pub struct ComputingProps {
    /// What is being computed, with its size and units, e.g. "the ring
    /// all-reduce on p = 1024 ranks (64 MB)". Shown as "Computing {what} …".
    pub what: AttrValue,
}

/// A placeholder panel for work that runs after the first paint.
#[component]
pub fn Computing(props: &ComputingProps) -> Html {
    html! {
        <section class="panel computing" id="computing" aria-busy="true" role="status">
            <p class="computing-line">{format!("Computing {} …", props.what)}</p>
            <progress aria-label={format!("Computing {}", props.what)}></progress>
        </section>
    }
}

/// A view's page while its computation waits for the first paint: the
/// heading, the controls (already usable) and the [`Computing`] placeholder.
/// `class` is the view's class (e.g. `"view-ring"`).
pub fn pending_page(class: &'static str, title: Html, controls: Html, what: AttrValue) -> Html {
    html! {
        <div class={classes!("view", class)}>
            {title}
            {controls}
            <Computing {what} />
        </div>
    }
}
