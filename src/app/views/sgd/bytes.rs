//! Bytes per step of each strategy, counted from the executed schedules

use yew::prelude::*;

use super::SharedLab;
use crate::core::sgd::Strategy;
use crate::core::units::format_bytes_short;

/// Props of [`bytes_panel`].
#[derive(PartialEq)]
pub struct BytesPanelProps {
    /// The training run.
    pub run: SharedLab,
}

/// Bytes per step of each strategy, counted from the executed schedules.
pub fn bytes_panel(props: &BytesPanelProps) -> Html {
    let (problem, _, lab) = &*props.run;
    html! {
        <section class="panel" aria-labelledby="bytes-h">
            <h3 id="bytes-h">{"Bytes per step"}</h3>
            <ul>
                { for lab.traces.iter().map(|t| {
                    let hi = t.bytes_per_step.iter().copied().fold(0.0, f64::max);
                    let lo = t.bytes_per_step.iter().copied().fold(f64::INFINITY, f64::min);
                    let what = match t.strategy {
                        Strategy::AllReduce => if (hi - lo).abs() < 1e-9 {
                            format!("ring all-reduce of d = {} f32 values, counted from the executed schedule: {} per worker (2(m−1)/m · d · 4 B)", problem.d(), format_bytes_short(hi))
                        } else {
                            format!("ring all-reduce of d = {} f32 values, counted from the executed schedule: {} to {} per worker (m does not divide d, so chunks differ by one value)", problem.d(), format_bytes_short(lo), format_bytes_short(hi))
                        },
                        Strategy::Gossip => if (hi - lo).abs() < 1e-9 {
                            format!("one model copy (d · 4 B) to each neighbour: {} per worker", format_bytes_short(hi))
                        } else {
                            format!("one model copy to each neighbour: {} to {} per worker (degrees differ)", format_bytes_short(lo), format_bytes_short(hi))
                        },
                        Strategy::Local => "nothing".to_string(),
                    };
                    html! { <li>{format!("{}: {what}.", t.strategy.label())}</li> }
                }) }
            </ul>
            <p class="muted">{"Sent bytes only; counting received bytes too doubles each figure."}</p>
        </section>
    }
}
