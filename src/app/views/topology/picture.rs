//! The topology picture: racks ⊃ nodes ⊃ ranks, NICs and the rack core,
//! with this round's transfers as arrows styled by link class (dash
//! pattern and thickness, not only colour; see [`super::legend`]).

use std::rc::Rc;

use yew::prelude::*;

use crate::core::topology::LinkClass;
use crate::core::topology_view::view_model::{arrow_path, Layout, RANK_R};
use crate::core::units::decimal;

/// One arrow of this round.
#[derive(Clone, Debug, PartialEq)]
pub struct PicArrow {
    /// Sending rank.
    pub src: usize,
    /// Receiving rank.
    pub dst: usize,
    /// Class of link crossed.
    pub class: LinkClass,
    /// True when the receiver adds (reduce), false when it copies.
    pub reduce: bool,
    /// Tooltip text.
    pub title: String,
}

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

/// The picture.
pub fn picture(props: &PictureProps) -> Html {
    let l = &*props.layout;
    let racks = l.racks.iter().enumerate().map(|(i, r)| {
        html! {
            <g class="rack">
                <rect x={fmt(r.x)} y={fmt(r.y)} width={fmt(r.w)} height={fmt(r.h)} rx="10" />
                <text x={fmt(r.x + 8.0)} y={fmt(r.y + 14.0)} class="rack-title">{format!("rack {i}")}</text>
            </g>
        }
    });
    let core = l.core.map(|c| {
        let uplinks = l.uplinks.iter().map(|(a, b)| {
            html! { <line class="uplink" x1={fmt(a.0)} y1={fmt(a.1)} x2={fmt(b.0)} y2={fmt(b.1)} /> }
        });
        html! {
            <g class="core">
                {for uplinks}
                <rect x={fmt(c.x)} y={fmt(c.y)} width={fmt(c.w)} height={fmt(c.h)} rx="6" />
                <text class="core-title" transform={format!("translate({} {}) rotate(-90)", fmt(c.x + c.w / 2.0 + 4.0), fmt(c.y + c.h / 2.0))}
                    text-anchor="middle">
                    {props.core_label.clone().map_or_else(|| "rack core".to_string(), |s| format!("rack core: {s}"))}
                </text>
            </g>
        }
    });
    let fabric = l.fabric.iter().map(|(a, b)| {
        html! { <line class="fabric" x1={fmt(a.0)} y1={fmt(a.1)} x2={fmt(b.0)} y2={fmt(b.1)} /> }
    });
    let nodes = l.nodes.iter().enumerate().map(|(i, n)| {
        let g = props.node_sizes.get(i).copied().unwrap_or(0);
        html! {
            <g class="node">
                <rect x={fmt(n.x)} y={fmt(n.y)} width={fmt(n.w)} height={fmt(n.h)} rx="8" />
                <text x={fmt(n.x + 8.0)} y={fmt(n.y + 15.0)} class="node-title">
                    {if l.compact { format!("node {i} · {g} GPUs") } else { format!("node {i}") }}
                </text>
            </g>
        }
    });
    let nics = l.nics.iter().enumerate().map(|(i, nic)| {
        let r = nic.rect;
        let (now, sofar) = props.nic_labels.get(i).cloned().unwrap_or_default();
        let cx = fmt(r.x + r.w / 2.0);
        html! {
            <g class="nic" id={format!("{}-nic-{}-{}", props.id_prefix, nic.node, nic.lane)}>
                <title>{format!("node {} NIC {}: {now} this round, {sofar} so far", nic.node, nic.lane)}</title>
                <rect x={fmt(r.x)} y={fmt(r.y)} width={fmt(r.w)} height={fmt(r.h)} rx="3" />
                <text x={cx.clone()} y={fmt(r.y + 11.0)} text-anchor="middle" class="nic-label">{now}</text>
                <text x={cx} y={fmt(r.y + 22.0)} text-anchor="middle" class="nic-label">{sofar}</text>
            </g>
        }
    });
    let ranks = (!l.compact).then(|| {
        l.ranks
            .iter()
            .enumerate()
            .map(|(r, &(x, y))| {
                let on = props.active.get(r).copied().unwrap_or(false);
                html! {
                    <g class={classes!("rank", on.then_some("active"))}>
                        <circle cx={fmt(x)} cy={fmt(y)} r={fmt(RANK_R)} />
                        <text x={fmt(x)} y={fmt(y + 4.0)} text-anchor="middle">{r}</text>
                    </g>
                }
            })
            .collect::<Html>()
    });
    let pre = props.id_prefix.clone();
    let trim = if l.compact { 6.0 } else { RANK_R + 2.0 };
    let arrows = props.arrows.iter().filter_map(|a| {
        let from = *l.ranks.get(a.src)?;
        let to = *l.ranks.get(a.dst)?;
        let bend = if a.class == LinkClass::Intra {
            0.25
        } else {
            0.12
        };
        let (d, _) = arrow_path(from, to, bend, trim);
        let kind = if a.reduce { "reduce" } else { "copy" };
        Some(html! {
            <g class={classes!("arrow", class_css(a.class), kind)}>
                <title>{a.title.clone()}</title>
                <path d={d} marker-end={format!("url(#{pre}-head-{kind})")} />
            </g>
        })
    });
    html! {
        <figure class={classes!("topo-picture", l.compact.then_some("compact"))}
            style={format!("max-width: {}px", decimal::fixed(l.width * 1.4, 0))}>
            <svg viewBox={format!("0 0 {} {}", fmt(l.width), fmt(l.height))} role="img"
                aria-label={props.caption.clone()}>
                <defs>
                    <marker id={format!("{}-head-reduce", props.id_prefix)} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="head reduce" />
                    </marker>
                    <marker id={format!("{}-head-copy", props.id_prefix)} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" class="head copy" />
                    </marker>
                </defs>
                {for racks}
                <g class="fabric-links">{for fabric}</g>
                {for core}
                {for nodes}
                {for nics}
                {for ranks}
                <g class="arrows">{for arrows}</g>
            </svg>
            <figcaption class="muted">{props.caption.clone()}</figcaption>
        </figure>
    }
}

fn fmt(v: f64) -> String {
    decimal::fixed(v, 1)
}
