//! `?view=hang`: Flight Recorder dumps of a stuck job, one file per rank,
//! opened or dropped together (read in the page, never uploaded): which
//! process group is waiting, for which rank, at which collective
//! ([`crate::pages::hang`] words it; [`crate::core::flight`] reads and
//! analyses). The pickle PyTorch writes is read by the core's pickle
//! subset; the JSON form goes through the browser's `JSON.parse`.

use std::rc::Rc;

use js_sys::{Array, Object, Reflect, Uint8Array, JSON};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use crate::app::route::ViewProps;
use crate::core::flight::pickle::read_pickle;
use crate::core::flight::value::Value;
use crate::core::flight::{analyse, rank_of_name, read_dump, Analysis, Dump};
use crate::pages::hang::{
    answer, caveats, file_message, group_name, member_rows, mismatch_rows, FileProblem,
};

/// Largest file read, MB (2^20 B).
const MAX_MB: u32 = 64;
/// The example set, copied next to the page by `index.html`: the real
/// dumps of `tests/fixtures/flight/skip` (4 ranks, rank 3 skipped an all_reduce).
const EXAMPLE: [&str; 4] = ["skip/rank_0", "skip/rank_1", "skip/rank_2", "skip/rank_3"];

/// A JSON value from `JSON.parse`, as the core's [`Value`].
fn from_js(v: &JsValue, depth: usize) -> Value {
    if depth > 64 || v.is_null() || v.is_undefined() {
        return Value::Null;
    }
    if let Some(b) = v.as_bool() {
        return Value::Bool(b);
    }
    if let Some(f) = v.as_f64() {
        return if f.fract() == 0.0 && f.abs() < 9.0e15 {
            Value::Int(f as i64)
        } else {
            Value::Float(f)
        };
    }
    if let Some(s) = v.as_string() {
        return Value::Str(s);
    }
    if Array::is_array(v) {
        return Value::List(
            Array::from(v)
                .iter()
                .map(|x| from_js(&x, depth + 1))
                .collect(),
        );
    }
    match v.dyn_ref::<Object>() {
        Some(o) => Value::Dict(
            Object::keys(o)
                .iter()
                .map(|k| {
                    let x = Reflect::get(o, &k).unwrap_or(JsValue::NULL);
                    (
                        Value::Str(k.as_string().unwrap_or_default()),
                        from_js(&x, depth + 1),
                    )
                })
                .collect(),
        ),
        None => Value::Null,
    }
}

/// One file's bytes read as a dump, or why not (with the file's name).
fn read_file(name: &str, bytes: &[u8]) -> Result<Dump, String> {
    let Some(rank) = rank_of_name(name) else {
        return Err(file_message(name, &FileProblem::NoRank));
    };
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace()).copied();
    let v = if first == Some(b'{') {
        let text = String::from_utf8_lossy(bytes);
        let js = JSON::parse(&text).map_err(|e| {
            let why = e
                .dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_default();
            file_message(name, &FileProblem::NotJson(why))
        })?;
        from_js(&js, 0)
    } else {
        read_pickle(bytes).map_err(|e| file_message(name, &FileProblem::Refused(e.to_string())))?
    };
    read_dump(&v, rank).map_err(|e| file_message(name, &FileProblem::Refused(e.to_string())))
}

/// Reads every file (in order) and emits the dumps read and the messages.
fn read_all(files: Vec<web_sys::File>, done: Callback<(Vec<Dump>, Vec<String>)>) {
    wasm_bindgen_futures::spawn_local(async move {
        let (mut dumps, mut errs) = (Vec::new(), Vec::new());
        for f in files {
            let name = f.name();
            if f.size() > f64::from(MAX_MB) * 1_048_576.0 {
                errs.push(file_message(&name, &FileProblem::TooLarge(MAX_MB)));
                continue;
            }
            match JsFuture::from(f.array_buffer()).await {
                Ok(buf) => match read_file(&name, &Uint8Array::new(&buf).to_vec()) {
                    Ok(d) => dumps.push(d),
                    Err(e) => errs.push(e),
                },
                Err(_) => errs.push(file_message(&name, &FileProblem::Unreadable)),
            }
        }
        done.emit((dumps, errs));
    });
}

/// Fetches the example set from the page's folder.
fn example(done: Callback<(Vec<Dump>, Vec<String>)>) {
    wasm_bindgen_futures::spawn_local(async move {
        let (mut dumps, mut errs) = (Vec::new(), Vec::new());
        let Some(w) = web_sys::window() else { return };
        for path in EXAMPLE {
            let resp = JsFuture::from(w.fetch_with_str(path))
                .await
                .ok()
                .and_then(|r| r.dyn_into::<web_sys::Response>().ok())
                .filter(web_sys::Response::ok);
            let buf = match resp.map(|r| r.array_buffer()) {
                Some(Ok(p)) => JsFuture::from(p).await.ok(),
                _ => None,
            };
            match buf {
                Some(b) => match read_file(path, &Uint8Array::new(&b).to_vec()) {
                    Ok(d) => dumps.push(d),
                    Err(e) => errs.push(e),
                },
                None => errs.push(file_message(path, &FileProblem::Unreadable)),
            }
        }
        done.emit((dumps, errs));
    });
}

fn file_list(l: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    l.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
        .unwrap_or_default()
}

/// The hang view.
#[component]
pub fn HangView(props: &ViewProps) -> Html {
    let result = use_state(|| None::<Rc<Analysis>>);
    let msgs = use_state(Vec::<String>::new);
    let drag = use_state(|| false);
    let done = {
        let (result, msgs) = (result.clone(), msgs.clone());
        Callback::from(move |(dumps, errs): (Vec<Dump>, Vec<String>)| {
            // A set with no readable dump keeps the last good result.
            if !dumps.is_empty() {
                result.set(Some(Rc::new(analyse(&dumps))));
            }
            msgs.set(errs);
        })
    };
    let on_change = {
        let done = done.clone();
        Callback::from(move |e: Event| {
            let input = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok());
            let files = file_list(input.and_then(|i| i.files()));
            if !files.is_empty() {
                read_all(files, done.clone());
            }
        })
    };
    let on_drop = {
        let (done, drag) = (done.clone(), drag.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            drag.set(false);
            let files = file_list(e.data_transfer().and_then(|d| d.files()));
            if !files.is_empty() {
                read_all(files, done.clone());
            }
        })
    };
    let on_over = {
        let drag = drag.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            drag.set(true);
        })
    };
    let on_leave = {
        let drag = drag.clone();
        Callback::from(move |_: DragEvent| drag.set(false))
    };
    let on_example = Callback::from(move |_: MouseEvent| example(done.clone()));
    let ctx = &props.ctx;
    let (answer_html, groups_html) = match result.as_ref() {
        None => (
            html! { <p class="muted" id="no-dumps">{"No dumps loaded yet. Open the files of every rank above, or load the example."}</p> },
            Html::default(),
        ),
        Some(a) => {
            let lines = answer(a);
            let notes = caveats(a);
            let groups = a.groups.iter().map(|g| {
                let rows = member_rows(g);
                let mm = mismatch_rows(g);
                html! {
                    <section class="panel wide hang-group">
                        <h3>{group_name(g)}</h3>
                        <div class="table-scroll" role="region" tabindex="0" aria-label={format!("{} (table)", group_name(g))}><table class="data">
                            <thead><tr><th scope="col">{"Rank"}</th><th scope="col">{"Last enqueued"}</th>
                                <th scope="col">{"Last started"}</th><th scope="col">{"Last completed"}</th></tr></thead>
                            <tbody>{for rows.into_iter().map(|r| html! {
                                <tr class={classes!(r.missing.then_some("hang-missing"))}>
                                    <th scope="row">{r.rank}{if r.missing { " (waited for)" } else { "" }}</th>
                                    <td>{r.last}</td><td>{r.started}</td><td>{r.completed}</td>
                                </tr>
                            })}</tbody>
                        </table></div>
                        if !mm.is_empty() {
                            <div class="table-scroll" role="region" tabindex="0" aria-label="Mismatches (table)"><table class="data hang-mismatches">
                                <caption>{"Mismatches at one sequence number"}</caption>
                                <thead><tr><th scope="col">{"Collective"}</th><th scope="col">{"Kind"}</th>
                                    <th scope="col">{"Differs"}</th><th scope="col">{"Against"}</th></tr></thead>
                                <tbody>{for mm.into_iter().map(|[a, b, c, d]| html! {
                                    <tr><td>{a}</td><td>{b}</td><td>{c}</td><td>{d}</td></tr>
                                })}</tbody>
                            </table></div>
                        }
                    </section>
                }
            });
            (
                html! {<>
                    <div id="hang-answer" role="status">
                        {for lines.into_iter().map(|l| html! { <p class="answer">{l}</p> })}
                    </div>
                    {for notes.into_iter().map(|l| html! { <p class="muted hang-caveat">{l}</p> })}
                    <p class="muted">{crate::pages::hang::read_line(a)}</p>
                </>},
                html! {<>{for groups}</>},
            )
        }
    };
    html! {
        <div class="view view-hang">
            {ctx.panel("title", html! {<>
                <h1>{"Hang: which rank is the job waiting for?"}</h1>
                <p class="lede">{"Open the Flight Recorder dumps of every rank of a stuck PyTorch job (one file per rank, \
                    as TORCH_FR_DUMP_TEMP_FILE writes them on a timeout). The page finds, per process group, the first \
                    collective some rank never enqueued, and ops, sizes or dtypes that differ at one sequence number. \
                    The files are read in this page and never uploaded."}</p>
            </>})}
            {ctx.panel("input", html! {
                <section class={classes!("panel", "wide", "drop-zone", drag.then_some("drag-over"))} id="hang-input"
                    aria-labelledby="hang-input-h" ondrop={on_drop} ondragover={on_over} ondragleave={on_leave}>
                    <h2 class="panel-h" id="hang-input-h">{"The dumps"}</h2>
                    <p><label for="hang-files">{"Open or drop the dumps (pickle or JSON, several at once): "}</label>
                        <input id="hang-files" type="file" multiple=true onchange={on_change} /></p>
                    <p class="hint">{"The rank is the file name's last digits (rank_0, rank_1, …), as PyTorch's fr_trace reads it. \
                        Format 2.2 and later is read (PyTorch 2.15 writes 2.10)."}</p>
                    <p><button type="button" id="hang-example" onclick={on_example}>{"Load the example"}</button>
                        <span class="muted">{" 4 ranks on gloo, PyTorch 2.15: rank 3 skipped one all_reduce"}</span></p>
                    {for msgs.iter().map(|m| html! { <p class="field-error" role="alert">{m.clone()}</p> })}
                </section>
            })}
            {ctx.panel("answer", html! { <section class="panel wide" id="hang-result" aria-label="The answer">{answer_html}</section> })}
            {ctx.panel("groups", groups_html)}
        </div>
    }
}
