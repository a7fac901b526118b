//! The gossip graph: nodes at their layout positions, coloured and labelled
//! by their values at the current round, edges labelled with their weights
//! (p ≤ 12); a click on a node picks the node whose update is narrated.

use yew::prelude::*;

use super::SharedRun;
use crate::core::consensus::GraphKind;
use crate::core::units::decimal;
use crate::core::units::format::format_weight;
use crate::core::units::format_exact_or_approx;
use crate::params::gossip::MAX_DRAWN_P;

/// Fill colour of a node: light blue (lowest initial value) through light
/// grey (middle) to orange (highest), Okabe–Ito hues; dark text stays legible.
fn node_fill(v: f64, lo: f64, hi: f64) -> String {
    let t = if hi > lo {
        crate::core::units::clamp((v - lo) / (hi - lo), 0.0, 1.0)
    } else {
        0.5
    };
    let (a, mid, b) = (
        (86.0, 180.0, 233.0),
        (235.0, 235.0, 235.0),
        (230.0, 159.0, 0.0),
    );
    let (from, to, u) = if t < 0.5 {
        (a, mid, 2.0 * t)
    } else {
        (mid, b, 2.0 * t - 1.0)
    };
    let mix = |x: f64, y: f64| (x + (y - x) * u).round() as u8;
    format!(
        "rgb({},{},{})",
        mix(from.0, to.0),
        mix(from.1, to.1),
        mix(from.2, to.2)
    )
}

/// Props of [`gossip_graph`].
#[derive(PartialEq)]
pub struct GossipGraphProps {
    /// The computed run (graph, W, rounds).
    pub run: SharedRun,
    /// The round shown.
    pub round: usize,
    /// The node whose update is narrated.
    pub focus: usize,
    /// Called with a clicked node.
    pub on_focus: Callback<usize>,
}

/// The graph picture, or a notice above [`MAX_DRAWN_P`] nodes.
pub fn gossip_graph(props: &GossipGraphProps) -> Html {
    let run = &props.run;
    let (p, round, focus_node) = (run.graph.p, props.round, props.focus);
    if p > MAX_DRAWN_P {
        return html! {
            <p class="notice">
                {format!("p = {p} is above {MAX_DRAWN_P}, so the graph and W are not drawn; every number below is still computed for all {p} nodes.")}
            </p>
        };
    }
    let state = &run.rounds[round.min(run.rounds.len() - 1)];
    let (lo, hi) = run.rounds[0]
        .values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    let (m, checks) = (&run.matrix, &run.checks);
    let graph_name = run.graph.kind.to_string();
    let on_node = |i: usize| props.on_focus.reform(move |_: MouseEvent| i);
    let path = run.graph.kind == GraphKind::Path;
    let (w, h) = (420.0, if path { 140.0 } else { 420.0 });
    let pos: Vec<(f64, f64)> = run
        .graph
        .layout()
        .iter()
        .map(|&(x, y)| {
            (
                20.0 + x * (w - 40.0),
                if path { h / 2.0 } else { 20.0 + y * (h - 40.0) },
            )
        })
        .collect();
    let r_node = match p {
        0..=8 => 22.0,
        9..=16 => 16.0,
        17..=32 => 11.0,
        _ => 7.0,
    };
    let show_values = p <= 32;
    let show_weights = p <= 12;
    let symmetric = checks.symmetric;
    let directed = run.graph.directed;
    let edges = run.graph.edges();
    let edge_views = edges.iter().enumerate().map(|(k, &(a, b))| {
        let (pa, pb) = (pos[a], pos[b]);
        let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
        let len = dx.hypot(dy).max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        // the path graph's edges are straight; others too (ring chords look fine)
        let start = (pa.0 + ux * r_node, pa.1 + uy * r_node);
        let end = (pb.0 - ux * (r_node + if directed { 4.0 } else { 0.0 }), pb.1 - uy * (r_node + if directed { 4.0 } else { 0.0 }));
        let lit = a == focus_node || b == focus_node;
        let labels = if show_weights {
            if directed {
                // b reads a with weight W_ba, shown near b
                let t = 0.7;
                vec![(pa.0 + dx * t, pa.1 + dy * t, format_weight(m.weight(b, a)))]
            } else if symmetric {
                vec![((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0, format_weight(m.weight(a, b)))]
            } else {
                vec![
                    (pa.0 + dx * 0.3, pa.1 + dy * 0.3, format_weight(m.weight(a, b))),
                    (pa.0 + dx * 0.7, pa.1 + dy * 0.7, format_weight(m.weight(b, a))),
                ]
            }
        } else {
            Vec::new()
        };
        html! {
            <g key={format!("e{k}-{a}-{b}")} class="edge">
                <line x1={decimal::fixed(start.0, 1)} y1={decimal::fixed(start.1, 1)}
                    x2={decimal::fixed(end.0, 1)} y2={decimal::fixed(end.1, 1)}
                    stroke="currentColor" stroke-opacity={if lit { "0.85" } else { "0.3" }}
                    stroke-width={if lit { "2.5" } else { "1.5" }}
                    marker-end={directed.then_some("url(#gossip-arrow)")} />
                { for labels.into_iter().map(|(x, y, t)| html! {
                    <text x={decimal::fixed(x, 1)} y={decimal::fixed(y - 3.0, 1)} font-size="11" text-anchor="middle"
                        fill="currentColor" paint-order="stroke" stroke="var(--bg, white)" stroke-width="3">{t}</text>
                }) }
            </g>
        }
    });
    let node_views = (0..p).map(|i| {
        let (x, y) = pos[i];
        let v = state.values[i];
        let is_focus = i == focus_node;
        let title = format!(
            "node {i}: x = {} at round {round}; degree {}; self weight W{i}{i} = {}",
            format_exact_or_approx(v),
            run.graph.degree(i),
            format_weight(m.weight(i, i))
        );
        html! {
            <g key={format!("n{i}")} class="node" onclick={on_node(i)} style="cursor:pointer">
                <title>{title}</title>
                <circle cx={decimal::fixed(x, 1)} cy={decimal::fixed(y, 1)} r={decimal::shortest(r_node)}
                    fill={node_fill(v, lo, hi)} stroke="currentColor"
                    stroke-width={if is_focus { "3.5" } else { "1" }} />
                if show_values {
                    <text x={decimal::fixed(x, 1)} y={decimal::fixed(y + 4.0, 1)} font-size={if p <= 8 { "13" } else { "10" }}
                        text-anchor="middle" fill="#000" id={format!("node-value-{i}")}>{format_exact_or_approx(v)}</text>
                }
                if p <= 16 {
                    <text x={decimal::fixed(x + r_node * 0.75 + 2.0, 1)} y={decimal::fixed(y - r_node * 0.75 - 2.0, 1)}
                        font-size="11" fill="currentColor">{format!("x{i}")}</text>
                }
            </g>
        }
    });
    html! {
        <figure class="chart-box gossip-graph">
            <svg viewBox={format!("0 0 {} {}", decimal::shortest(w), decimal::shortest(h))} role="img" width="100%" style="max-width:460px"
                aria-label={format!("The {graph_name} with {p} nodes, coloured by their values at round {round}")}>
                <defs>
                    <marker id="gossip-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor" />
                    </marker>
                </defs>
                { for edge_views }
                { for node_views }
            </svg>
            <figcaption class="muted">
                {format!("Colour: value at round {round} (blue = lowest initial value {}, orange = highest {}). Click a node to narrate its update.", format_exact_or_approx(lo), format_exact_or_approx(hi))}
                if show_weights && !directed {
                    {if symmetric { " Edge labels: W_ij = W_ji." } else { " Edge labels: the weight each end gives the other, written near the end that uses it." }}
                }
                if show_weights && directed {
                    {" Arrows point from sender to reader; labels are the reader's weight."}
                }
            </figcaption>
        </figure>
    }
}
