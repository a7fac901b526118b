//! Legend of the picture: one sample per link class (each with its own
//! dash pattern and thickness) and the reduce/copy arrow kinds.

use yew::prelude::*;

use super::picture::class_css;
use crate::core::topology::LinkClass;

/// Props of [`legend`].
#[derive(PartialEq)]
pub struct LegendProps {
    /// Link classes present in this topology.
    pub classes: Vec<LinkClass>,
}

fn pattern(c: LinkClass) -> &'static str {
    match c {
        LinkClass::Flat | LinkClass::Intra => "thin solid line",
        LinkClass::Nic => "thick dashed line",
        LinkClass::Core => "thickest dotted line",
    }
}

/// The legend.
pub fn legend(props: &LegendProps) -> Html {
    let keys = props.classes.iter().map(|c| {
        html! {
            <span class="key">
                <svg width="34" height="12" aria-hidden="true" class={classes!("legend-link", class_css(*c))}>
                    <line x1="1" y1="6" x2="33" y2="6" />
                </svg>
                {format!("{} ({})", c.label(), pattern(*c))}
            </span>
        }
    });
    html! {
        <div class="legend topo-legend" aria-label="Legend">
            {for keys}
            <span class="key"><span class="head-sample reduce" aria-hidden="true">{"▶"}</span>{"filled head: receiver adds (reduce)"}</span>
            <span class="key"><span class="head-sample copy" aria-hidden="true">{"▷"}</span>{"open head: receiver copies"}</span>
        </div>
    }
}
