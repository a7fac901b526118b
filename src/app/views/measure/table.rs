//! The parsed table of the selected series: printed and recomputed algbw and
//! busbw, and the flags of each row. Long tables show their first rows.

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::csv_link::{Csv, CsvLink};
use super::state::{Action, MeasureState};
use crate::core::measure::BwKind;
use crate::core::units::{format_bandwidth, format_time, group_thousands};

/// Most rows rendered.
const SHOWN: usize = 300;

/// Props of [`RowsTable`].
#[derive(Properties, PartialEq)]
pub struct RowsTableProps {
    /// The view state.
    pub state: Rc<MeasureState>,
    /// Dispatches an action.
    pub on_action: Callback<Action>,
}

/// The table.
#[component]
pub fn RowsTable(props: &RowsTableProps) -> Html {
    let s = &props.state;
    let (Ok(imp), Some(la)) = (&s.analysis.import, &s.analysis.log) else {
        return html! {};
    };
    let Some(log) = imp.logs.get(la.index) else {
        return html! {};
    };
    let Some(series) = log.series.get(la.series) else {
        return html! {};
    };
    let checks = la.checks.rows.get(la.series);
    let on_series = props.on_action.reform(|e: Event| {
        let v = e
            .target()
            .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            .map(|s| s.value())
            .unwrap_or_default();
        Action::SelectSeries(v.parse().unwrap_or(0))
    });
    let bw = |p: Option<crate::core::measure::Printed>| {
        p.map(|b| format_bandwidth(b.value))
            .unwrap_or_else(|| "—".into())
    };
    let unknown = la.resolved.unknown_bw;
    html! {
        <section class="panel wide" aria-labelledby="rows-h">
            <h2 id="rows-h">{"Rows"}</h2>
            if log.series.len() > 1 {
                <div class="measure-row">
                    <label for="series-pick">{"Table (also the one fitted): "}</label>
                    <select id="series-pick" onchange={on_series}>
                        { for log.series.iter().enumerate().map(|(i, sr)| html!{
                            <option value={i.to_string()} selected={i == la.series}>{sr.label.chars().take(40).collect::<String>()}</option>
                        }) }
                    </select>
                </div>
            }
            <div class="table-scroll" role="region" tabindex="0" aria-label="Parsed rows (scrollable table)">
            <table id="rows-table" class="measure-table">
                <thead><tr>
                    <th>{"line"}</th><th>{"size (B)"}</th><th>{"time"}</th>
                    <th>{"algbw printed"}</th><th>{"algbw = S / t"}</th>
                    <th>{"busbw printed"}</th><th>{"busbw = algbw × factor"}</th><th>{"checks"}</th>
                </tr></thead>
                <tbody>
                { for series.rows.iter().take(SHOWN).enumerate().map(|(i, r)| {
                    let c = checks.and_then(|c| c.get(i));
                    let (pa, pb) = match unknown {
                        Some(BwKind::Alg) => (r.algbw.or(r.bw_unknown), r.busbw),
                        Some(BwKind::Bus) => (r.algbw, r.busbw.or(r.bw_unknown)),
                        None => (r.algbw, r.busbw),
                    };
                    let flags = c.map(|c| c.flags.clone()).unwrap_or_default();
                    html! {
                        <tr class={classes!((!flags.is_empty()).then_some("flagged"))}>
                            <td>{r.line}</td>
                            <td class="num">{group_thousands(r.size.value.round() as u64)}</td>
                            <td class="num">{format_time(r.time.value)}</td>
                            <td class="num">{bw(pa)}</td>
                            <td class="num">{c.map(|c| format_bandwidth(c.algbw)).unwrap_or_default()}</td>
                            <td class="num">{bw(pb)}</td>
                            <td class="num">{c.map(|c| format_bandwidth(c.busbw)).unwrap_or_default()}</td>
                            <td>{ if flags.is_empty() { "ok".to_string() } else { flags.join("; ") } }</td>
                        </tr>
                    }
                }) }
                </tbody>
            </table>
            </div>
            if series.rows.len() > SHOWN {
                <p class="hint">{format!("First {SHOWN} of {} rows shown; the checks, the fit and the CSV export use every row.", series.rows.len())}</p>
            }
            <p><CsvLink id="table-csv" label="Download the parsed table (CSV)" filename="measured-table.csv" analysis={s.analysis.clone()} which={Csv::Table} /></p>
        </section>
    }
}
