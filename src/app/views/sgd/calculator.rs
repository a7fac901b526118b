//! The calculator: an editable shard table (samples n_k and mean loss L_k),
//! the sample weights n_k/N, the global and plain means and the gradient
//! weighting of one synchronous step, all from the core.
//!
//! The table's rows are its own draft (like a text field's text): every
//! edit re-parses the whole table; a good table is committed to the view's
//! state as the `shards` and `losses` fields, a bad one keeps its message and
//! the last good table stays in use.

use std::rc::Rc;

use yew::prelude::*;

use super::objective::{objective_results, ObjectiveResultsProps};
use super::step_weighting::{step_weighting, StepWeightingProps};
use crate::app::components::field::Drafts;
use crate::core::sgd::Objective;
use crate::core::units::format_exact_or_approx;
use crate::pages::sgd::{objective_of, shard_rows};
use crate::params::sgd::{parse_table, SgdParams};

/// The calculator's own state: the table as typed (its draft), the
/// table's message, and the objective of the last good table.
#[derive(Clone, PartialEq)]
pub struct ShardTable {
    rows: UseStateHandle<Vec<(String, String)>>,
    table_error: UseStateHandle<Option<String>>,
    objective: Rc<Result<Objective, String>>,
}

/// The calculator's state for the view's last good `params`; a table the
/// URL rejected (`drafts`) starts with its message.
#[hook]
pub fn use_shard_table(params: &SgdParams, drafts: &Drafts) -> ShardTable {
    let rows = use_state(|| shard_rows(params));
    let table_error = use_state(|| {
        drafts
            .error("shards")
            .or_else(|| drafts.error("losses"))
            .map(|e| format!("{e} (showing the default table)"))
    });
    let objective: Rc<Result<Objective, String>> =
        use_memo((params.shards.clone(), params.losses.clone()), |(s, l)| {
            objective_of(s, l)
        });
    ShardTable {
        rows,
        table_error,
        objective,
    }
}

/// Props of [`shard_calculator`].
#[derive(PartialEq)]
pub struct ShardCalculatorProps {
    /// The view's last good parameters.
    pub params: SgdParams,
    /// The table's state, from [`use_shard_table`].
    pub table: ShardTable,
    /// Commits several `(field, text)` pairs at once.
    pub on_commit_all: Callback<Vec<(&'static str, String)>>,
}

/// The "global objective from unequal shards" panel.
pub fn shard_calculator(props: &ShardCalculatorProps) -> Html {
    let params = &props.params;
    let ShardTable {
        rows,
        table_error,
        objective,
    } = props.table.clone();
    // Every edit re-parses the whole table.
    let commit_rows = {
        let commit_all = props.on_commit_all.clone();
        let rows = rows.clone();
        let table_error = table_error.clone();
        Rc::new(move |new_rows: Vec<(String, String)>| {
            match parse_table(&new_rows) {
                Ok((shards, losses)) => {
                    let join = |v: Vec<String>| v.join(",");
                    commit_all.emit(vec![
                        ("shards", join(shards.iter().map(u64::to_string).collect())),
                        (
                            "losses",
                            join(
                                losses
                                    .iter()
                                    .copied()
                                    .map(crate::core::units::decimal::shortest)
                                    .collect(),
                            ),
                        ),
                    ]);
                    table_error.set(None);
                }
                Err(e) => table_error.set(Some(e.message)),
            }
            rows.set(new_rows);
        })
    };
    let on_cell = |k: usize, col: usize| {
        let rows = rows.clone();
        let commit = commit_rows.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let mut next = (*rows).clone();
            if let Some(r) = next.get_mut(k) {
                if col == 0 {
                    r.0 = input.value();
                } else {
                    r.1 = input.value();
                }
            }
            commit(next);
        })
    };
    let on_add = {
        let rows = rows.clone();
        let commit = commit_rows.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*rows).clone();
            if next.len() < 32 {
                next.push(("100".into(), "0.5".into()));
            }
            commit(next);
        })
    };
    let on_remove = |k: usize| {
        let rows = rows.clone();
        let commit = commit_rows.clone();
        Callback::from(move |_: MouseEvent| {
            let mut next = (*rows).clone();
            if next.len() > 1 && k < next.len() {
                next.remove(k);
            }
            commit(next);
        })
    };
    let on_reset = {
        let commit = commit_rows.clone();
        Callback::from(move |_: MouseEvent| commit(shard_rows(&SgdParams::default())))
    };
    let (losses, shards, batch) = (&params.losses, &params.shards, params.batch);
    let table_error = (*table_error).clone();
    let o = (*objective).as_ref().ok();
    let m = rows.len();
    let body = rows.iter().enumerate().map(|(k, (n, l))| {
        let w = o.and_then(|o| o.weights.get(k).copied());
        let c = o.and_then(|o| o.contributions.get(k).copied());
        html! {
            <tr key={k}>
                <th scope="row">{k + 1}</th>
                <td><input type="text" inputmode="numeric" class="num" id={format!("f-n-{k}")} value={n.clone()}
                    aria-label={format!("shard {} samples n_k", k + 1)} onchange={on_cell(k, 0)} /></td>
                <td><input type="text" inputmode="decimal" class="num" id={format!("f-l-{k}")} value={l.clone()}
                    aria-label={format!("shard {} mean loss L_k", k + 1)} onchange={on_cell(k, 1)} /></td>
                <td id={format!("weight-{k}")}>{w.map(format_exact_or_approx).unwrap_or_default()}</td>
                <td>{c.map(format_exact_or_approx).unwrap_or_default()}</td>
                <td>{format_exact_or_approx(1.0 / m.max(1) as f64)}</td>
                <td>
                    if m > 1 {
                        <button type="button" class="small" onclick={on_remove(k)}
                            aria-label={format!("remove shard {}", k + 1)}>{"✕"}</button>
                    }
                </td>
            </tr>
        }
    });
    html! {
        <section class="panel wide" aria-labelledby="calc-h">
            <h2 class="panel-h" id="calc-h">{"The global objective from unequal shards"}</h2>
            <p>{"The full-data loss averages over all N samples, so each shard's mean loss L_k counts in proportion to its sample count: F = Σ (n_k/N) L_k. Edit the table."}</p>
            <div class="table-scroll" role="region" tabindex="0" aria-label="Shard table (scrollable)">
            <table class="numbers shard-table">
                <thead><tr>
                    <th>{"shard k"}</th><th>{"samples n_k"}</th><th>{"mean loss L_k"}</th>
                    <th>{"n_k/N"}</th><th>{"(n_k/N)·L_k"}</th><th>{"1/m"}</th><td></td>
                </tr></thead>
                <tbody>{ for body }</tbody>
            </table>
            </div>
            <p>
                <button type="button" onclick={on_add} disabled={m >= 32}>{"Add shard"}</button>
                {" "}
                <button type="button" onclick={on_reset}>{"Course example (600, 300, 100)"}</button>
            </p>
            if let Some(e) = table_error {
                <p class="field-error" role="alert" id="table-error">{e}</p>
            }
            {objective_results(&ObjectiveResultsProps { objective: objective.clone(), losses: losses.clone() })}
            {step_weighting(&StepWeightingProps { losses: losses.clone(), shards: shards.clone(), batch })}
        </section>
    }
}
