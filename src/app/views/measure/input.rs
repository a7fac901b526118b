//! The input panel: "Paste a log", a file input (read in the page with the
//! browser's File API: nothing is uploaded) and "Load an example" (synthetic
//! logs made by the core).

use std::rc::Rc;

use gloo::file::callbacks::{read_as_text, FileReader};
use gloo::file::File;
use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

use crate::core::measure::synthetic::examples;

/// Props of [`InputPanel`].
#[derive(Properties, PartialEq)]
pub struct InputPanelProps {
    /// The current text.
    pub text: Rc<String>,
    /// Where it came from.
    pub source: String,
    /// New text and its source.
    pub on_text: Callback<(String, String)>,
    /// Loads the example with this key.
    pub on_example: Callback<String>,
    /// Example selected at first (`example=` from the URL).
    #[prop_or_default]
    pub example: Option<AttrValue>,
    /// The message of a bad `example=` value.
    #[prop_or_default]
    pub error: Option<String>,
}

/// Largest file read, bytes.
const MAX_FILE: f64 = 32.0 * 1024.0 * 1024.0;

/// Paste area, file input and examples.
#[component]
pub fn InputPanel(props: &InputPanelProps) -> Html {
    let reader = use_mut_ref(|| None::<FileReader>);
    let file_msg = use_state(String::new);
    let first = props.example.clone();
    let example = use_state(move || {
        let all = examples();
        all.iter()
            .find(|e| first.as_deref() == Some(e.key))
            .or(all.first())
            .map(|e| e.key)
            .unwrap_or("ring")
    });
    let on_input = {
        let cb = props.on_text.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(t) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlTextAreaElement>().ok())
            {
                cb.emit((t.value(), "pasted".into()));
            }
        })
    };
    let on_file = {
        let cb = props.on_text.clone();
        let reader = reader.clone();
        let file_msg = file_msg.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            else {
                return;
            };
            let Some(f) = input.files().and_then(|l| l.get(0)) else {
                return;
            };
            if f.size() > MAX_FILE {
                file_msg.set(format!("{} is larger than 32 MB; not read", f.name()));
                return;
            }
            let name = f.name();
            let file = File::from(f);
            let cb = cb.clone();
            let msg = file_msg.clone();
            file_msg.set(String::new());
            *reader.borrow_mut() = Some(read_as_text(&file, move |res| match res {
                Ok(text) => cb.emit((
                    text,
                    format!("file {name} (read in this page, not uploaded)"),
                )),
                Err(e) => msg.set(format!("could not read {name}: {e}")),
            }));
        })
    };
    let on_pick = {
        let example = example.clone();
        Callback::from(move |e: Event| {
            if let Some(s) = e
                .target()
                .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
            {
                let v = s.value();
                if let Some(ex) = examples().into_iter().find(|x| x.key == v) {
                    example.set(ex.key);
                }
            }
        })
    };
    let on_load = {
        let cb = props.on_example.clone();
        let example = example.clone();
        Callback::from(move |_| cb.emit((*example).to_string()))
    };
    html! {
        <section class="panel wide measure-input" aria-labelledby="measure-input-h">
            <h2 id="measure-input-h">{"Your measurements"}</h2>
            <p class="hint">{"Everything stays in this page: the log is read and analysed by the app in your browser and is never uploaded."}</p>
            <label for="log-text">{"Paste a log"}</label>
            <textarea id="log-text" rows="12" spellcheck="false"
                placeholder="Paste nccl-tests output (all_reduce_perf …), an OSU table (osu_allreduce) or CSV columns with size and time"
                value={(*props.text).clone()} oninput={on_input} />
            <div class="measure-row">
                <label for="log-file">{"…or open a file (.txt, .log, .csv): "}</label>
                <input id="log-file" type="file" accept=".txt,.log,.csv,text/plain,text/csv" onchange={on_file} />
            </div>
            <div class="measure-row">
                <label for="example">{"Example: "}</label>
                <select id="example" onchange={on_pick}>
                    { for examples().into_iter().map(|x| html! {
                        <option value={x.key} selected={x.key == *example}>{x.title}</option>
                    }) }
                </select>
                <button id="load-example" type="button" onclick={on_load}>{"Load an example"}</button>
            </div>
            if let Some(e) = &props.error {
                <p id="example-error" class="field-error" role="alert">{e.clone()}</p>
            }
            if !file_msg.is_empty() {
                <p class="field-error" role="alert">{(*file_msg).clone()}</p>
            }
            if !props.source.is_empty() {
                <p id="log-source" class="hint">{format!("Showing: {}", props.source)}</p>
            }
        </section>
    }
}
