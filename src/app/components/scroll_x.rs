//! A deliberate horizontal scroller for a wide table: a focusable, named
//! region (so keyboard users can scroll it with the arrow keys) whose edges
//! show a shadow while more columns lie beyond them (the visible cue, drawn
//! by the `.table-scroll` rules in `static/style.css`).

use yew::prelude::*;

/// Props of [`scroll_x`].
#[derive(PartialEq)]
pub struct ScrollXProps {
    /// Accessible name of the region, e.g. "Bytes per rank (scrolls sideways)".
    pub label: AttrValue,
    /// The wide content, usually one `<table>`.
    pub children: Html,
}

/// `<div class="table-scroll" role="region" tabindex="0" aria-label=…>`.
pub fn scroll_x(props: &ScrollXProps) -> Html {
    html! {
        <div class="table-scroll" role="region" tabindex="0" aria-label={props.label.clone()}>
            {props.children.clone()}
        </div>
    }
}
