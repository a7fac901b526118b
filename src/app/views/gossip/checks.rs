//! Checks on W: stochasticity, symmetry, connectivity, the limit and π.

use std::rc::Rc;

use yew::prelude::*;

use super::SharedRun;
use crate::app::components::downloads::Downloads;
use crate::core::units::format_exact_or_approx;
use crate::export::series::text_table;

/// Props of [`checks_panel`].
#[derive(PartialEq)]
pub struct ChecksPanelProps {
    /// The computed run.
    pub run: SharedRun,
}

/// The "Checks on W" panel.
pub fn checks_panel(props: &ChecksPanelProps) -> Html {
    let run = &props.run;
    let p = run.graph.p;
    let checks = &run.checks;
    let yes_no = |b: bool| if b { "yes" } else { "no" };
    let limit_text = run
        .limit
        .map_or_else(|| "unknown".to_string(), format_exact_or_approx);
    let pi_text = checks
        .stationary
        .as_ref()
        .filter(|_| !checks.column_stochastic)
        .map(|pi| {
            let shown: Vec<String> = pi
                .iter()
                .take(16)
                .map(|v| format_exact_or_approx(*v))
                .collect();
            format!(
                "π = ({}{})",
                shown.join(", "),
                if p > 16 { ", …" } else { "" }
            )
        });
    let flags = [
        ("rows sum to 1 (weighted averages)", checks.row_stochastic),
        ("columns sum to 1", checks.column_stochastic),
        ("doubly stochastic", checks.doubly_stochastic),
        ("symmetric (W = Wᵀ)", checks.symmetric),
        ("graph connected", checks.connected),
        ("arithmetic mean preserved", checks.column_stochastic),
    ];
    let mut csv_rows: Vec<(String, Vec<String>)> = flags
        .iter()
        .map(|(q, b)| ((*q).to_string(), vec![yes_no(*b).to_string()]))
        .collect();
    csv_rows.push((
        "values converge to".into(),
        vec![run
            .limit
            .map_or_else(|| "unknown".into(), crate::core::units::decimal::shortest)],
    ));
    let csv = Rc::new(text_table(
        "Checks on W",
        &["check".into(), "result".into()],
        &csv_rows,
    ));
    html! {
        <section class="panel" aria-labelledby="checks-h">
            <h2 class="panel-h" id="checks-h">{"Checks on W"}</h2>
            <table class="numbers">
                <tbody>
                    <tr><th scope="row">{"rows sum to 1 (weighted averages)"}</th><td id="check-rows">{yes_no(checks.row_stochastic)}</td></tr>
                    <tr><th scope="row">{"columns sum to 1"}</th><td id="check-cols">{yes_no(checks.column_stochastic)}</td></tr>
                    <tr><th scope="row">{"doubly stochastic"}</th><td id="check-doubly">{yes_no(checks.doubly_stochastic)}</td></tr>
                    <tr><th scope="row">{"symmetric (W = Wᵀ)"}</th><td id="check-sym">{yes_no(checks.symmetric)}</td></tr>
                    <tr><th scope="row">{"graph connected"}</th><td id="check-conn">{yes_no(checks.connected)}</td></tr>
                    <tr><th scope="row">{"arithmetic mean preserved"}</th><td id="check-mean">{yes_no(checks.column_stochastic)}</td></tr>
                    <tr><th scope="row">{"values converge to"}</th><td id="limit">{limit_text.clone()}</td></tr>
                </tbody>
            </table>
            <Downloads table={Some(csv)} />
            { for checks.notes.iter().map(|n| html! { <p class="notice">{n.clone()}</p> }) }
            if let Some(t) = pi_text {
                <p>{"The limit is the π-weighted mean Σ πᵢ xᵢ(0), where πᵀW = πᵀ: "}<code id="pi">{t}</code>
                    {format!(" (arithmetic mean {} instead).", format_exact_or_approx(run.rounds[0].mean))}</p>
            }
        </section>
    }
}
