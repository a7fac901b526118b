//! The course's numbers for section 10, each as a titled block of lines
//! computed by the core (multi-lane service time, FlexReduce per-worker
//! counts, RAT vs flat ring core bytes).

use yew::prelude::*;

pub use crate::pages::topology::rows::CourseItem;

/// Props of [`course_panel`].
#[derive(PartialEq)]
pub struct CourseProps {
    /// The blocks that apply to the current parameters.
    pub items: Vec<CourseItem>,
}

/// The panel (nothing when no block applies).
pub fn course_panel(props: &CourseProps) -> Html {
    if props.items.is_empty() {
        return html! {};
    }
    html! {
        <section class="panel wide" aria-labelledby="topo-course-h" id="course">
            <h2 class="panel-h" id="topo-course-h">{"The course’s numbers, from this run"}</h2>
            {for props.items.iter().map(|it| html! {
                <div class="course-item" id={it.id}>
                    <h3>{it.title.clone()}</h3>
                    <ul>{for it.lines.iter().map(|l| html! { <li>{l.clone()}</li> })}</ul>
                </div>
            })}
        </section>
    }
}
