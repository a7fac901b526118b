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

use crate::app::hooks::{Action, ViewHandle};
use crate::core::sgd::narrate::{over_weighting_line, sig};
use crate::core::sgd::{combine_gradients, Objective};
use crate::params::sgd::{parse_table, SgdParams};
use crate::plot::sgd::draw_sample_weights;

fn rows_of(p: &SgdParams) -> Vec<(String, String)> {
    p.shards
        .iter()
        .zip(&p.losses)
        .map(|(n, l)| (n.to_string(), l.to_string()))
        .collect()
}

/// Props of [`ShardCalculator`].
#[derive(Properties, PartialEq)]
pub struct ShardCalculatorProps {
    /// The view's state.
    pub state: ViewHandle<SgdParams>,
}

/// The "global objective from unequal shards" panel.
#[component]
pub fn ShardCalculator(props: &ShardCalculatorProps) -> Html {
    let state = &props.state;
    let params = &state.params;
    let rows = use_state(|| rows_of(params));
    let table_error = use_state(|| {
        state
            .drafts
            .error("shards")
            .or_else(|| state.drafts.error("losses"))
            .map(|e| format!("{e} (showing the default table)"))
    });
    let objective: Rc<Result<Objective, String>> =
        use_memo((params.shards.clone(), params.losses.clone()), |(s, l)| {
            let counts: Vec<i64> = s.iter().map(|&n| n as i64).collect();
            crate::core::sgd::objective(&counts, l).map_err(|e| e.to_string())
        });
    // Every edit re-parses the whole table.
    let commit_rows = {
        let dispatcher = state.dispatcher();
        let rows = rows.clone();
        let table_error = table_error.clone();
        Rc::new(move |new_rows: Vec<(String, String)>| {
            match parse_table(&new_rows) {
                Ok((shards, losses)) => {
                    let join = |v: Vec<String>| v.join(",");
                    dispatcher.dispatch(Action::Commit(vec![
                        ("shards", join(shards.iter().map(u64::to_string).collect())),
                        ("losses", join(losses.iter().map(f64::to_string).collect())),
                    ]));
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
        Callback::from(move |_: MouseEvent| commit(rows_of(&SgdParams::default())))
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
                <td id={format!("weight-{k}")}>{w.map(|w| sig(w, 4)).unwrap_or_default()}</td>
                <td>{c.map(|c| sig(c, 4)).unwrap_or_default()}</td>
                <td>{sig(1.0 / m.max(1) as f64, 4)}</td>
                <td>
                    if m > 1 {
                        <button type="button" class="small" onclick={on_remove(k)}
                            aria-label={format!("remove shard {}", k + 1)}>{"✕"}</button>
                    }
                </td>
            </tr>
        }
    });
    let results = match o {
        Some(o) => html! {
            <>
                <table class="numbers">
                    <tbody>
                        <tr><th scope="row">{"N = Σ n_k"}</th><td id="total-samples">{o.total}</td></tr>
                        <tr><th scope="row">{"global mean loss Σ (n_k/N) L_k"}</th>
                            <td id="global-mean"><strong>{sig(o.global_mean, 4)}</strong></td></tr>
                        <tr><th scope="row">{"plain average (1/m) Σ L_k"}</th>
                            <td id="plain-mean">{sig(o.plain_mean, 4)}</td></tr>
                        <tr><th scope="row">{"plain − global"}</th>
                            <td id="difference">{sig(o.difference, 4)}</td></tr>
                    </tbody>
                </table>
                <p id="over-weighting">{over_weighting_line(o, losses)}</p>
                <div class="chart-box" style="max-width:560px">
                    { draw_sample_weights(o).map(|s| Html::from_html_unchecked(AttrValue::from(s))).unwrap_or_default() }
                </div>
            </>
        },
        None => html! {},
    };
    // One synchronous mini-batch step, with the L_k column read as scalar
    // local mean gradients g_k.
    let grads: Vec<Vec<f64>> = losses.iter().map(|g| vec![*g]).collect();
    // Equal local mini-batches of the training batch size (16 by default;
    // 32 when training uses whole shards).
    let b = if batch == 0 { 32 } else { batch };
    let equal: Vec<i64> = vec![b as i64; losses.len()];
    let unequal: Vec<i64> = shards.iter().map(|&n| n as i64).collect();
    let eq = combine_gradients(&equal, &grads).ok();
    let uneq = combine_gradients(&unequal, &grads).ok();
    let step_panel = match (eq, uneq) {
        (Some(eq), Some(uneq)) => html! {
            <>
                <h4>{"Gradient weighting for one synchronous mini-batch step"}</h4>
                <p class="muted">{"Read the L_k column as each worker's local mean gradient g_k (one parameter)."}</p>
                <ul>
                    <li id="grad-equal">{format!(
                        "Equal local mini-batches ({b} samples each): the step's mean gradient weights every worker 1/{m}: Σ g_k / {m} = {}.",
                        sig(eq.sample_weighted[0], 4))}</li>
                    <li id="grad-unequal">{format!(
                        "Unequal mini-batches (b_k = n_k, the whole shards): weights b_k/B = n_k/N give {}; the plain mean would give {}.",
                        sig(uneq.sample_weighted[0], 4), sig(uneq.plain_mean[0], 4))}</li>
                </ul>
                <p class="muted">{"Equal batches drawn from unequal shards are weighted equally within the step, but they estimate the equal-worker objective. The all-reduce run below weights each worker by n_k/N so that it targets the full-data objective."}</p>
            </>
        },
        _ => html! {},
    };
    html! {
        <section class="panel wide" aria-labelledby="calc-h">
            <h3 id="calc-h">{"The global objective from unequal shards"}</h3>
            <p>{"The full-data loss averages over all N samples, so each shard's mean loss L_k counts in proportion to its sample count: F = Σ (n_k/N) L_k. Edit the table."}</p>
            <div class="table-scroll">
            <table class="numbers shard-table">
                <thead><tr>
                    <th>{"shard k"}</th><th>{"samples n_k"}</th><th>{"mean loss L_k"}</th>
                    <th>{"n_k/N"}</th><th>{"(n_k/N)·L_k"}</th><th>{"1/m"}</th><th></th>
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
            {results}
            {step_panel}
        </section>
    }
}
