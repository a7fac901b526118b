//! The trace page's profiler panel: PyTorch profiler traces (`.json` or
//! `.json.gz`, one per rank, opened or dropped together, read in the page
//! and never uploaded). Gzip is undone by the browser's own
//! `DecompressionStream`, JSON by its `JSON.parse`; only the fields in
//! [`ProfEvent`] are kept. [`crate::core::profiler`] reads them and
//! [`crate::pages::trace::profile`] words them.

use std::rc::Rc;

use js_sys::{Array, Reflect};
use wasm_bindgen::prelude::{wasm_bindgen, Closure};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use crate::core::profiler::{
    match_ranks, read_profile, CommArgs, DistInfo, Matched, ProfEvent, ProfileError, RawProfile,
};
use crate::core::units::decimal::fixed;
use crate::pages::trace::profile::{
    answer, caveats, chart, chart_caption, comm_rows, file_message, matched_rows, more_line,
    progress_line, rank_for, read_line, step_link, step_rows, FileProblem, Loaded, MAX_ROWS,
};

#[wasm_bindgen(module = "/src/app/views/trace/profile_worker.js")]
extern "C" {
    /// Reads a trace in a worker: a promise of `{ done }` (the kept events
    /// and `distributedInfo`) or `{ error, message }`; `progress` is called
    /// with the fraction read and whether parsing has begun.
    // `catch` makes wasm-bindgen write a shim in the glue's import object,
    // which scripts/minify-wasm-names.mjs expects of every import.
    #[wasm_bindgen(js_name = readTrace, catch)]
    fn read_trace(
        blob: &web_sys::Blob,
        progress: &js_sys::Function,
    ) -> Result<js_sys::Promise, JsValue>;
}

/// Largest file read, MB (2^20 B), compressed or not.
const MAX_MB: u32 = 256;
/// The example pair, copied next to the page by `index.html`: the real
/// traces of `tests/fixtures/profiler/gloo-2rank-slow1`.
const EXAMPLE: [&str; 2] = [
    "gloo-2rank-slow1/rank_0.json",
    "gloo-2rank-slow1/rank_1.json",
];

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn text(v: &JsValue) -> Option<String> {
    v.as_string()
}

/// A number, or a string holding one ("In msg nelems" is sometimes text).
fn num(v: &JsValue) -> Option<f64> {
    v.as_f64()
        .or_else(|| crate::core::units::decimal::parse(v.as_string()?.trim()))
}

fn first(v: &JsValue) -> JsValue {
    if Array::is_array(v) {
        Array::from(v).get(0)
    } else {
        JsValue::UNDEFINED
    }
}

/// A stream or thread id as text: integers without a fraction.
fn lane_text(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        (x as i64).to_string()
    } else {
        crate::core::units::decimal::shortest(x)
    }
}

/// One event, reduced to what the analysis reads.
fn event(e: &JsValue) -> ProfEvent {
    let a = get(e, "args");
    let stream = get(&a, "stream");
    let lane = if stream.is_undefined() {
        get(e, "tid")
    } else {
        stream
    };
    let dims = first(&get(&a, "Input Dims"));
    ProfEvent {
        ph: text(&get(e, "ph")).unwrap_or_default(),
        name: text(&get(e, "name")).unwrap_or_default(),
        cat: text(&get(e, "cat")).unwrap_or_default(),
        ts: num(&get(e, "ts")).unwrap_or(f64::NAN),
        dur: num(&get(e, "dur")).unwrap_or(f64::NAN),
        tid: num(&lane).map_or_else(|| text(&lane).unwrap_or_default(), lane_text),
        args: CommArgs {
            collective: text(&get(&a, "Collective name")),
            in_nelems: num(&get(&a, "In msg nelems")),
            out_nelems: num(&get(&a, "Out msg nelems")),
            group_size: num(&get(&a, "Group size")),
            dtype: text(&get(&a, "dtype")),
            pg_name: text(&get(&a, "Process Group Name")),
            pg_ranks: text(&get(&a, "Process Group Ranks")),
            input_dims: Array::is_array(&dims)
                .then(|| Array::from(&dims).iter().filter_map(|x| num(&x)).collect()),
            input_type: text(&first(&get(&a, "Input type"))),
        },
    }
}

/// The worker's kept events and `distributedInfo` as the core's input.
fn raw_of(v: &JsValue) -> RawProfile {
    let list = get(v, "traceEvents");
    let events = if Array::is_array(&list) {
        Array::from(&list).iter().map(|e| event(&e)).collect()
    } else {
        Vec::new()
    };
    let d = get(v, "distributedInfo");
    let count = |k: &str| {
        num(&get(&d, k))
            .filter(|x| *x >= 0.0 && x.fract() == 0.0 && *x < 1e9)
            .map(|x| x as usize)
    };
    RawProfile {
        events,
        dist: DistInfo {
            backend: text(&get(&d, "backend")),
            rank: count("rank"),
            world_size: count("world_size"),
            nccl_version: text(&get(&d, "nccl_version")),
        },
    }
}

/// One file read in a worker, then by the core; `progress` hears how far
/// the reading is, in words.
async fn read_blob(
    name: &str,
    blob: &web_sys::Blob,
    index: usize,
    progress: &Callback<Option<String>>,
) -> Result<Loaded, String> {
    let (n, size) = (name.to_string(), blob.size());
    let cb = progress.clone();
    let on = Closure::<dyn Fn(f64, bool)>::new(move |f: f64, parsing: bool| {
        cb.emit(Some(progress_line(&n, f, size, parsing)));
    });
    let r = match read_trace(blob, on.as_ref().unchecked_ref()) {
        Ok(p) => JsFuture::from(p).await.unwrap_or(JsValue::UNDEFINED),
        Err(_) => JsValue::UNDEFINED,
    };
    drop(on);
    let message = text(&get(&r, "message")).unwrap_or_default();
    let fail = |p: FileProblem| file_message(name, &p);
    match text(&get(&r, "error")).as_deref() {
        Some("gzip") => return Err(fail(FileProblem::BadGzip(message))),
        Some("json") if get(&r, "empty").is_truthy() => {
            return Err(fail(FileProblem::Trace(ProfileError::Empty)))
        }
        Some("json") => return Err(fail(FileProblem::Trace(ProfileError::NotJson(message)))),
        Some("trace") => return Err(fail(FileProblem::Trace(ProfileError::NotATrace))),
        Some(_) => return Err(fail(FileProblem::Unreadable)),
        None => {}
    }
    let done = get(&r, "done");
    if done.is_undefined() {
        return Err(fail(FileProblem::Unreadable));
    }
    let p = read_profile(&raw_of(&done)).map_err(|e| fail(FileProblem::Trace(e)))?;
    Ok(Loaded {
        file: name.to_string(),
        rank: rank_for(&p, name, index),
        profile: p,
    })
}

type Done = Callback<(Vec<Loaded>, Vec<String>)>;

/// Reads every file in order (each in a worker); a second file of one
/// rank is refused. `None` for a blob: the example file could not be fetched.
fn read_all(
    files: Vec<(String, Option<web_sys::Blob>)>,
    done: Done,
    progress: Callback<Option<String>>,
) {
    wasm_bindgen_futures::spawn_local(async move {
        let (mut set, mut errs): (Vec<Loaded>, Vec<String>) = (Vec::new(), Vec::new());
        for (i, (name, blob)) in files.into_iter().enumerate() {
            let Some(blob) = blob else {
                errs.push(file_message(&name, &FileProblem::Unreadable));
                continue;
            };
            if blob.size() > f64::from(MAX_MB) * 1_048_576.0 {
                errs.push(file_message(&name, &FileProblem::TooLarge(MAX_MB)));
                continue;
            }
            match read_blob(&name, &blob, i, &progress).await {
                Ok(l) if set.iter().any(|x| x.rank == l.rank) => {
                    errs.push(file_message(&name, &FileProblem::SameRank(l.rank)));
                }
                Ok(l) => set.push(l),
                Err(e) => errs.push(e),
            }
        }
        set.sort_by_key(|l| l.rank);
        progress.emit(None);
        done.emit((set, errs));
    });
}

fn from_files(l: Option<web_sys::FileList>, done: &Done, progress: &Callback<Option<String>>) {
    let files: Vec<(String, Option<web_sys::Blob>)> = l
        .map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|f| (f.name(), Some(web_sys::Blob::from(f))))
        .collect();
    if !files.is_empty() {
        read_all(files, done.clone(), progress.clone());
    }
}

fn example(done: Done, progress: Callback<Option<String>>) {
    wasm_bindgen_futures::spawn_local(async move {
        let Some(w) = web_sys::window() else { return };
        let mut files = Vec::new();
        for path in EXAMPLE {
            let resp = JsFuture::from(w.fetch_with_str(path))
                .await
                .ok()
                .and_then(|r| r.dyn_into::<web_sys::Response>().ok())
                .filter(web_sys::Response::ok);
            let blob = match resp.and_then(|r| r.blob().ok()) {
                Some(p) => JsFuture::from(p)
                    .await
                    .ok()
                    .and_then(|b| b.dyn_into::<web_sys::Blob>().ok()),
                None => None,
            };
            files.push((path.to_string(), blob));
        }
        read_all(files, done, progress);
    });
}

/// A loaded set and its matching (compared by identity).
#[derive(Clone)]
struct Set(Rc<Vec<Loaded>>, Rc<Vec<Matched>>);

impl PartialEq for Set {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

fn table<const N: usize>(id: &str, label: &str, head: [&str; N], rows: Vec<[String; N]>) -> Html {
    let more = more_line(rows.len());
    html! {<>
        <div class="table-scroll" role="region" tabindex="0" aria-label={format!("{label} (table)")}>
            <table class="data" id={id.to_string()}>
                <caption>{label.to_string()}</caption>
                <thead><tr>{for head.iter().map(|h| html! {<th scope="col">{*h}</th>})}</tr></thead>
                <tbody>{for rows.into_iter().take(MAX_ROWS).map(|r| html! {
                    <tr>{for r.into_iter().map(|c| html! {<td>{c}</td>})}</tr>
                })}</tbody>
            </table>
        </div>
        if let Some(l) = more {
            <p class="muted">{l}</p>
        }
    </>}
}

fn result(s: &Set) -> Html {
    let (set, m) = (&*s.0, &*s.1);
    let (bars, axis) = chart(set, m);
    let rows = set.len().max(1);
    html! {<>
        <div id="profile-answer" role="status">
            {for answer(set, m).into_iter().map(|l| html! {<p>{l}</p>})}
        </div>
        {for set.iter().map(|l| match step_link(l) {
            Ok((q, text)) => html! {
                <p class="profile-step" id={format!("profile-step-{}", l.rank)}>{text}{" "}
                    <a href={format!("?{q}")}>{"Open this step in the training-step view"}</a></p>
            },
            Err(why) => html! {<p class="muted">{why}</p>},
        })}
        {for caveats(set).into_iter().map(|l| html! {<p class="muted">{l}</p>})}
        <p class="muted">{read_line(set)}</p>
        <figure class="profile-chart">
            <svg viewBox={format!("0 0 1000 {}", rows * 24)} preserveAspectRatio="none" role="img"
                style={format!("height: {}px", rows * 24)}
                aria-label={chart_caption(set, axis)}>
                {for bars.iter().map(|b| html! {
                    <rect class={classes!(b.wait.then_some("wait"))} x={fixed(b.x0 * 1000.0, 2)} y={(b.row * 24 + 4).to_string()}
                        width={fixed(((b.x1 - b.x0) * 1000.0).max(0.5), 2)} height="16">
                        <title>{b.title.clone()}</title>
                    </rect>
                })}
            </svg>
            <figcaption class="muted">{chart_caption(set, axis)}{" Rows: "}
                {set.iter().map(|l| format!("rank {}", l.rank)).collect::<Vec<_>>().join(", ")}{", top to bottom."}</figcaption>
        </figure>
        {table("profile-steps", "Per rank and step", ["Rank", "Step", "Span", "Ops", "Communication", "Hidden", "Exposed", "Compute"], step_rows(set))}
        if !m.is_empty() {
            {table("profile-matched", "Collectives matched across ranks", ["Collective", "What", "S", "Start spread", "Last", "Longest wait"], matched_rows(m))}
        }
        {for set.iter().map(|l| table(&format!("profile-comms-{}", l.rank), &format!("Rank {}'s communication", l.rank),
            ["What", "Event", "Elements (S)", "Time", "algbw", "busbw"], comm_rows(l)))}
    </>}
}

/// The profiler panel.
#[component]
pub fn ProfilePanel() -> Html {
    let loaded = use_state(|| None::<Set>);
    let msgs = use_state(Vec::<String>::new);
    let reading = use_state(|| None::<String>);
    let progress = {
        let reading = reading.clone();
        Callback::from(move |line: Option<String>| reading.set(line))
    };
    let done: Done = {
        let (loaded, msgs) = (loaded.clone(), msgs.clone());
        Callback::from(move |(set, errs): (Vec<Loaded>, Vec<String>)| {
            // A set with no readable trace keeps the last good one.
            if !set.is_empty() {
                let pairs: Vec<(usize, &crate::core::profiler::RankProfile)> =
                    set.iter().map(|l| (l.rank, &l.profile)).collect();
                let m = match_ranks(&pairs);
                loaded.set(Some(Set(Rc::new(set), Rc::new(m))));
            }
            msgs.set(errs);
        })
    };
    let on_change = {
        let (done, progress) = (done.clone(), progress.clone());
        Callback::from(move |e: Event| {
            let input = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok());
            from_files(input.and_then(|i| i.files()), &done, &progress);
        })
    };
    let on_drop = {
        let (done, progress) = (done.clone(), progress.clone());
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            from_files(e.data_transfer().and_then(|d| d.files()), &done, &progress);
        })
    };
    let on_over = Callback::from(|e: DragEvent| e.prevent_default());
    let on_example = Callback::from(move |_: MouseEvent| example(done.clone(), progress.clone()));
    html! {
        <section class="panel wide" id="profile" aria-labelledby="profile-h" ondrop={on_drop} ondragover={on_over}>
            <h2 class="panel-h" id="profile-h">{"PyTorch profiler traces"}</h2>
            <p class="hint">{"Open or drop the torch.profiler traces of one or more ranks (.json or .json.gz, one file per rank). \
                The page reads NCCL kernels (and gloo collectives on CPU-only traces), splits each step's communication into \
                hidden and exposed, and matches collectives across ranks. The files stay in this page."}</p>
            <p><label for="profile-files">{"Profiler traces: "}</label>
                <input id="profile-files" type="file" multiple=true accept=".json,.gz,application/json,application/gzip" onchange={on_change} /></p>
            <p><button type="button" id="profile-example" onclick={on_example}>{"Load the example traces"}</button>
                <span class="muted">{" 2 ranks, gloo on CPU, PyTorch 2.15: rank 1 slept 30 ms before each backward"}</span></p>
            if let Some(line) = &*reading {
                <p id="profile-progress" role="status" aria-live="polite">{line.clone()}</p>
            }
            {for msgs.iter().map(|e| html! {<p class="field-error" role="alert">{e.clone()}</p>})}
            if let Some(s) = &*loaded {
                {result(s)}
            }
        </section>
    }
}
