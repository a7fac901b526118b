//! The box around a chart's SVG: a focusable, named region that scrolls
//! sideways when the app is narrower than the chart's readable width (the
//! `.chart-box` rules in `static/style.css` keep the SVG at least 540 px wide
//! on phones, so its 12–15 px labels stay about 9 px or larger instead of
//! shrinking to 5 px). On wider screens the chart fits and nothing scrolls.

use yew::prelude::*;

/// Props of [`chart_box`].
#[derive(PartialEq, Default)]
pub struct ChartBoxProps {
    /// What the chart shows; the region is named "`<label>` (chart)".
    pub label: AttrValue,
    /// The chart's SVG markup, as drawn by a `plot::draw_*` function (every
    /// string in it is escaped there).
    pub svg: AttrValue,
    /// A second SVG of the same size drawn over `svg` (a step's marks,
    /// `plot::sgd::Layer::Marks`), so a step replaces only this one.
    pub overlay: Option<AttrValue>,
    /// Element id of the box, when a test or link needs one.
    pub id: Option<AttrValue>,
    /// Inline style of the box (e.g. a `max-width` for a small chart).
    pub style: Option<AttrValue>,
}

/// `<div class="chart-box table-scroll" role="region" tabindex="0" aria-label=…>`
/// holding the chart's SVG.
pub fn chart_box(props: &ChartBoxProps) -> Html {
    html! {
        <div id={props.id.clone()} class="chart-box table-scroll" role="region" tabindex="0"
            style={props.style.clone()} aria-label={format!("{} (chart)", props.label)}>
            if let Some(overlay) = props.overlay.clone() {
                <div class="chart-stack">
                    {Html::from_html_unchecked(props.svg.clone())}
                    {Html::from_html_unchecked(overlay)}
                </div>
            } else {
                {Html::from_html_unchecked(props.svg.clone())}
            }
        </div>
    }
}
