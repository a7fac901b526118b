//! The topology picture: racks ⊃ nodes ⊃ ranks, NICs and the rack core,
//! with this round's transfers as arrows styled by link class (dash
//! pattern and thickness, not only colour; see [`super::legend`]).

use std::fmt::Write;
use std::rc::Rc;

use yew::prelude::*;

pub use crate::pages::topology::rows::PicArrow;

use crate::core::topology::LinkClass;
use crate::core::topology_view::view_model::{arrow_path, Layout, Rect, RANK_R};
use crate::core::units::decimal;
use crate::plot::esc;

/// Props of [`picture`].
#[derive(PartialEq)]
pub struct PictureProps {
    /// Geometry.
    pub layout: Rc<Layout>,
    /// Ranks on each node (for node titles).
    pub node_sizes: Rc<Vec<usize>>,
    /// This round's arrows.
    pub arrows: Rc<Vec<PicArrow>>,
    /// Two lines per NIC, in `layout.nics` order: this round, so far.
    pub nic_labels: Rc<Vec<(String, String)>>,
    /// Label of the core: bytes this round and so far.
    pub core_label: Option<String>,
    /// Ranks sending or receiving this round (highlighted).
    pub active: Rc<Vec<bool>>,
    /// Accessible caption.
    pub caption: AttrValue,
    /// Prefix of the marker ids, unique per picture on the page (the full
    /// and the compact picture are both in the DOM; CSS hides one).
    pub id_prefix: AttrValue,
}

/// CSS class of a link class.
pub fn class_css(c: LinkClass) -> &'static str {
    match c {
        LinkClass::Flat => "flat",
        LinkClass::Intra => "intra",
        LinkClass::Nic => "nic",
        LinkClass::Core => "core",
    }
}

/// The picture: a `<figure>` around the SVG, which is written as text
/// (as the charts are) and handed to the page whole. It is redrawn at every
/// round, and one string costs the page fewer bytes and the browser less
/// work than hundreds of diffed elements.
pub fn picture(props: &PictureProps) -> Html {
    let l = &*props.layout;
    html! {
        <figure class={classes!("topo-picture", l.compact.then_some("compact"))}
            style={format!("max-width: {}px", decimal::fixed(l.width * 1.4, 0))}>
            {Html::from_html_unchecked(AttrValue::from(svg(props)))}
            <figcaption class="muted">{props.caption.clone()}</figcaption>
        </figure>
    }
}

/// `<rect>` of `r` with corner radius `rx`.
fn rect(out: &mut String, r: &Rect, rx: u32) {
    let _ = write!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" rx="{rx}"/>"#,
        fmt(r.x),
        fmt(r.y),
        fmt(r.w),
        fmt(r.h)
    );
}

/// `<line>` of class `class` from `a` to `b`.
fn line(out: &mut String, class: &str, (a, b): &((f64, f64), (f64, f64))) {
    let _ = write!(
        out,
        r#"<line class="{class}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
        fmt(a.0),
        fmt(a.1),
        fmt(b.0),
        fmt(b.1)
    );
}

/// The SVG of the picture, as text.
fn svg(props: &PictureProps) -> String {
    let l = &*props.layout;
    let pre = esc(&props.id_prefix);
    let mut o = String::new();
    let _ = write!(
        o,
        r#"<svg viewBox="0 0 {} {}" role="img" aria-label="{}"><defs>"#,
        fmt(l.width),
        fmt(l.height),
        esc(&props.caption)
    );
    for kind in ["reduce", "copy"] {
        let _ = write!(
            o,
            r#"<marker id="{pre}-head-{kind}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" class="head {kind}"/></marker>"#
        );
    }
    o.push_str("</defs>");
    for (i, r) in l.racks.iter().enumerate() {
        o.push_str(r#"<g class="rack">"#);
        rect(&mut o, r, 10);
        let _ = write!(
            o,
            r#"<text x="{}" y="{}" class="rack-title">rack {i}</text></g>"#,
            fmt(r.x + 8.0),
            fmt(r.y + 14.0)
        );
    }
    o.push_str(r#"<g class="fabric-links">"#);
    for f in &l.fabric {
        line(&mut o, "fabric", f);
    }
    o.push_str("</g>");
    if let Some(c) = l.core {
        o.push_str(r#"<g class="core">"#);
        for u in &l.uplinks {
            line(&mut o, "uplink", u);
        }
        rect(&mut o, &c, 6);
        let label = props
            .core_label
            .as_ref()
            .map_or_else(|| "rack core".to_string(), |s| format!("rack core: {s}"));
        let _ = write!(
            o,
            r#"<text class="core-title" transform="translate({} {}) rotate(-90)" text-anchor="middle">{}</text></g>"#,
            fmt(c.x + c.w / 2.0 + 4.0),
            fmt(c.y + c.h / 2.0),
            esc(&label)
        );
    }
    for (i, n) in l.nodes.iter().enumerate() {
        let g = props.node_sizes.get(i).copied().unwrap_or(0);
        o.push_str(r#"<g class="node">"#);
        rect(&mut o, n, 8);
        let title = if l.compact {
            format!("node {i} · {g} GPUs")
        } else {
            format!("node {i}")
        };
        // A title wider than its box (12 px bold: about 7 px a character)
        // is squeezed to fit rather than run under the next node.
        let room = n.w - 14.0;
        let fit = if title.chars().count() as f64 * 7.0 > room {
            format!(
                r#" textLength="{}" lengthAdjust="spacingAndGlyphs""#,
                fmt(room)
            )
        } else {
            String::new()
        };
        let _ = write!(
            o,
            r#"<text x="{}" y="{}" class="node-title"{fit}>{title}</text></g>"#,
            fmt(n.x + 8.0),
            fmt(n.y + 15.0)
        );
    }
    for (i, nic) in l.nics.iter().enumerate() {
        let r = nic.rect;
        let (now, sofar) = props.nic_labels.get(i).cloned().unwrap_or_default();
        let (now, sofar) = (esc(&now), esc(&sofar));
        let cx = fmt(r.x + r.w / 2.0);
        let _ = write!(
            o,
            r#"<g class="nic" id="{pre}-nic-{}-{}"><title>node {} NIC {}: {now} this round, {sofar} so far</title>"#,
            nic.node, nic.lane, nic.node, nic.lane
        );
        rect(&mut o, &r, 3);
        let _ = write!(
            o,
            r#"<text x="{cx}" y="{}" text-anchor="middle" class="nic-label">{now}</text><text x="{cx}" y="{}" text-anchor="middle" class="nic-label">{sofar}</text></g>"#,
            fmt(r.y + 11.0),
            fmt(r.y + 22.0)
        );
    }
    if !l.compact {
        for (r, &(x, y)) in l.ranks.iter().enumerate() {
            let on = props.active.get(r).copied().unwrap_or(false);
            let _ = write!(
                o,
                r#"<g class="rank{}"><circle cx="{}" cy="{}" r="{}"/><text x="{}" y="{}" text-anchor="middle">{r}</text></g>"#,
                if on { " active" } else { "" },
                fmt(x),
                fmt(y),
                fmt(RANK_R),
                fmt(x),
                fmt(y + 4.0)
            );
        }
    }
    o.push_str(r#"<g class="arrows">"#);
    let trim = if l.compact { 6.0 } else { RANK_R + 2.0 };
    for a in props.arrows.iter() {
        let (Some(&from), Some(&to)) = (l.ranks.get(a.src), l.ranks.get(a.dst)) else {
            continue;
        };
        let bend = if a.class == LinkClass::Intra {
            0.25
        } else {
            0.12
        };
        let (d, _) = arrow_path(from, to, bend, trim);
        let kind = if a.reduce { "reduce" } else { "copy" };
        let _ = write!(
            o,
            r#"<g class="arrow {} {kind}"><title>{}</title><path d="{d}" marker-end="url(#{pre}-head-{kind})"/></g>"#,
            class_css(a.class),
            esc(&a.title)
        );
    }
    o.push_str("</g></svg>");
    o
}

fn fmt(v: f64) -> String {
    decimal::fixed(v, 1)
}
