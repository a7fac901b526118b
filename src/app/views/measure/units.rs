//! Column units and bandwidth kind for generic columns, when the header does
//! not say them (or says them wrongly, e.g. "MB" meaning MiB).

use yew::prelude::*;

use super::state::{select_value, Action, PanelProps};
use crate::core::measure::BwKind;

const SIZE_UNITS: [&str; 9] = ["", "B", "kB", "KiB", "MB", "MiB", "GB", "GiB", "TB"];
const TIME_UNITS: [&str; 5] = ["", "s", "ms", "us", "ns"];

/// Three selects: size unit, time unit, bandwidth kind.
pub fn unit_picker(props: &PanelProps) -> Html {
    let o = &props.state.settings.import;
    let act = &props.on_action;
    let on_size = act.reform(|e: Event| Action::SetSizeUnit(select_value(&e)));
    let on_time = act.reform(|e: Event| Action::SetTimeUnit(select_value(&e)));
    let on_bw = act.reform(|e: Event| {
        Action::SetBwKind(match select_value(&e).as_str() {
            "alg" => Some(BwKind::Alg),
            "bus" => Some(BwKind::Bus),
            _ => None,
        })
    });
    let label = |u: &str| {
        if u.is_empty() {
            "from the header".to_string()
        } else {
            u.replace("us", "µs")
        }
    };
    html! {
        <section class="panel wide" aria-label="Column units">
        <div class="measure-fields" id="unit-picker">
            <div class="field">
                <label for="size-unit">{"Size column unit"}</label>
                <select id="size-unit" onchange={on_size}>
                    { for SIZE_UNITS.iter().map(|u| html!{ <option value={*u} selected={o.size_unit.as_deref().unwrap_or("") == *u}>{label(u)}</option> }) }
                </select>
            </div>
            <div class="field">
                <label for="time-unit">{"Time column unit"}</label>
                <select id="time-unit" onchange={on_time}>
                    { for TIME_UNITS.iter().map(|u| html!{ <option value={*u} selected={o.time_unit.as_deref().unwrap_or("") == *u}>{label(u)}</option> }) }
                </select>
            </div>
            <div class="field">
                <label for="bw-kind">{"Unnamed bandwidth column"}</label>
                <select id="bw-kind" onchange={on_bw}>
                    <option value="" selected={o.bw_kind.is_none()}>{"decide from the numbers"}</option>
                    <option value="alg" selected={o.bw_kind == Some(BwKind::Alg)}>{"algbw"}</option>
                    <option value="bus" selected={o.bw_kind == Some(BwKind::Bus)}>{"busbw"}</option>
                </select>
            </div>
        </div>
        </section>
    }
}
