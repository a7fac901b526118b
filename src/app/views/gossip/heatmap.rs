//! The mixing matrix W as a heatmap, numbered with row and column sums up
//! to [`MAX_NUMBERED_P`] nodes; the narrated node's row is outlined.

use yew::prelude::*;

use super::SharedRun;
use crate::core::consensus::WeightRule;
use crate::core::units::decimal;
use crate::core::units::format::format_weight;
use crate::params::gossip::{MAX_DRAWN_P, MAX_NUMBERED_P};

/// Props of [`mixing_heatmap`].
#[derive(PartialEq)]
pub struct MixingHeatmapProps {
    /// The computed run (W and its checks).
    pub run: SharedRun,
    /// The weight rule (its formula is shown).
    pub weights: WeightRule,
    /// The narrated node (its row is outlined).
    pub focus: usize,
}

/// The "Mixing matrix W" panel (nothing above [`MAX_DRAWN_P`] nodes).
pub fn mixing_heatmap(props: &MixingHeatmapProps) -> Html {
    let run = &props.run;
    let (p, focus_node) = (run.graph.p, props.focus);
    if p > MAX_DRAWN_P {
        return html! {};
    }
    let (m, checks) = (&run.matrix, &run.checks);
    let numbered = p <= MAX_NUMBERED_P;
    let cell = if numbered {
        34.0
    } else {
        (420.0 / p as f64).min(20.0)
    };
    let pad = if numbered { 28.0 } else { 4.0 };
    let size = pad + cell * p as f64 + if numbered { 44.0 } else { 4.0 };
    let wmax = m.dense().iter().copied().fold(0.0, f64::max).max(1e-12);
    let row_sums = &checks.row_sums;
    let col_sums = &checks.col_sums;
    let cells = (0..p).flat_map(|i| (0..p).map(move |j| (i, j))).map(|(i, j)| {
        let v = m.weight(i, j);
        let x = pad + cell * j as f64;
        let y = pad + cell * i as f64;
        html! {
            <g key={format!("w{i}-{j}")}>
                <rect x={decimal::fixed(x, 1)} y={decimal::fixed(y, 1)} width={decimal::fixed(cell, 1)} height={decimal::fixed(cell, 1)}
                    fill="rgb(0,114,178)" fill-opacity={decimal::fixed(0.06 + 0.5 * v / wmax, 3)}
                    stroke="currentColor" stroke-opacity={if i == focus_node { "0.6" } else { "0.1" }}>
                    <title>{format!("W{i}{j} = {}", format_weight(v))}</title>
                </rect>
                if numbered && v != 0.0 {
                    <text x={decimal::fixed(x + cell / 2.0, 1)} y={decimal::fixed(y + cell / 2.0 + 4.0, 1)}
                        font-size="10" text-anchor="middle" fill="currentColor">{format_weight(v)}</text>
                }
            </g>
        }
    });
    let sums = numbered.then(|| {
        html! {
            <g class="sums">
                <text x={decimal::fixed(pad + cell * p as f64 + 22.0, 1)} y={decimal::fixed(pad - 8.0, 1)}
                    font-size="10" text-anchor="middle" fill="currentColor">{"Σ row"}</text>
                <text x={decimal::fixed(pad - 4.0, 1)} y={decimal::fixed(pad + cell * p as f64 + 16.0, 1)}
                    font-size="10" text-anchor="end" fill="currentColor">{"Σ"}</text>
                { for (0..p).map(|i| html! {
                    <>
                        <text x={decimal::fixed(pad - 6.0, 1)} y={decimal::fixed(pad + cell * i as f64 + cell / 2.0 + 4.0, 1)}
                            font-size="10" text-anchor="end" fill="currentColor">{i}</text>
                        <text x={decimal::fixed(pad + cell * i as f64 + cell / 2.0, 1)} y={decimal::fixed(pad - 8.0, 1)}
                            font-size="10" text-anchor="middle" fill="currentColor">{i}</text>
                        <text x={decimal::fixed(pad + cell * p as f64 + 22.0, 1)} y={decimal::fixed(pad + cell * i as f64 + cell / 2.0 + 4.0, 1)}
                            font-size="10" text-anchor="middle" fill="currentColor">{format_weight(row_sums[i])}</text>
                        <text x={decimal::fixed(pad + cell * i as f64 + cell / 2.0, 1)} y={decimal::fixed(pad + cell * p as f64 + 16.0, 1)}
                            font-size="10" text-anchor="middle"
                            fill={if (col_sums[i] - 1.0).abs() > 1e-12 { "rgb(213,94,0)" } else { "currentColor" }}>{format_weight(col_sums[i])}</text>
                    </>
                }) }
            </g>
        }
    });
    html! {
        <section class="panel" aria-labelledby="w-h">
            <h2 class="panel-h" id="w-h">{"Mixing matrix W"}</h2>
            <p class="muted"><code>{props.weights.formula()}</code></p>
            <svg class="matrix" viewBox={format!("0 0 {} {}", decimal::fixed(size, 0), decimal::fixed(size, 0))} width="100%" style={if numbered { "max-width:640px" } else { "max-width:480px" }} role="img"
                aria-label={format!("Heatmap of the {p}×{p} mixing matrix")}>
                { for cells }
                { for sums }
            </svg>
            if numbered {
                <p class="muted">{"Row i holds the weights node i gives to the values it reads. Column sums other than 1 are shown in orange."}</p>
            } else {
                <p class="muted">{format!("Numbers are shown up to p = {MAX_NUMBERED_P}. Hover a cell for its weight, or tap a node in the graph: the narration writes out its update with its row of weights.")}</p>
            }
        </section>
    }
}
