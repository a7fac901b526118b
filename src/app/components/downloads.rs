//! Download buttons for teachers: a chart as SVG or PNG (the SVG drawn onto a
//! canvas in the browser), a table as CSV, and further files (traces). Each
//! file is handed to the browser as a `Blob` behind an object URL
//! (`URL.createObjectURL`) on a temporary `<a download>` link, and the URL is
//! revoked once the download has begun: no URL carries the file's bytes, so a
//! trace of tens of MB saves as a CSV of a few lines does, with its file
//! name. Nothing leaves the page. The builders are public so the browser
//! tests can check the files themselves.

use std::rc::Rc;

use gloo::timers::callback::Timeout;
use js_sys::{Array, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    Blob, BlobPropertyBag, CanvasRenderingContext2d, HtmlAnchorElement, HtmlCanvasElement,
    HtmlImageElement, Url,
};
use yew::prelude::*;

use crate::export::{file_stem, svg_size, svg_with_size, DataTable};

/// Pixels per SVG unit in the PNG (sharp on high-density screens and paper).
pub const PNG_SCALE: f64 = 2.0;

/// How long an object URL outlives the click that starts its download, ms.
/// Browsers read the Blob when the download begins; the delay (as
/// FileSaver.js keeps it) leaves room for a slow start before the URL is
/// revoked and the Blob can be freed.
pub const REVOKE_AFTER_MS: u32 = 40_000;

fn js_err(what: &str) -> impl Fn(JsValue) -> String + '_ {
    move |_| what.to_string()
}

/// `bytes` as a `Blob` of type `mime`, e.g. `"application/json"`.
///
/// # Errors
/// A message when the browser refuses the Blob (e.g. out of memory).
pub fn bytes_blob(bytes: &[u8], mime: &str) -> Result<Blob, String> {
    let parts = Array::of1(&Uint8Array::from(bytes));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    Blob::new_with_u8_array_sequence_and_options(&parts, &options)
        .map_err(js_err("the browser could not hold the file"))
}

/// The chart as an SVG file.
///
/// # Errors
/// As [`bytes_blob`].
pub fn svg_blob(svg: &str) -> Result<Blob, String> {
    bytes_blob(svg.as_bytes(), "image/svg+xml")
}

/// The table as a CSV file.
///
/// # Errors
/// As [`bytes_blob`].
pub fn csv_blob(table: &DataTable) -> Result<Blob, String> {
    bytes_blob(table.to_csv().as_bytes(), "text/csv")
}

/// The chart as a PNG file: the SVG is loaded into an `<img>` at its
/// `viewBox` size (from a `data:` URL the browser encodes), drawn onto a
/// white canvas [`PNG_SCALE`] times larger, and read back with
/// `toBlob("image/png")`.
///
/// # Errors
/// A message when the SVG does not load as an image or the canvas fails.
pub async fn png_blob(svg: &str) -> Result<Blob, String> {
    let (w, h) = svg_size(svg).unwrap_or((760.0, 420.0));
    let doc = gloo::utils::document();
    let img: HtmlImageElement = doc
        .create_element("img")
        .map_err(js_err("no <img>"))?
        .dyn_into()
        .map_err(|_| "no <img>".to_string())?;
    let loaded = js_sys::Promise::new(&mut |resolve, reject| {
        img.set_onload(Some(&resolve));
        img.set_onerror(Some(&reject));
    });
    let sized = svg_with_size(svg, w, h);
    img.set_src(&format!(
        "data:image/svg+xml;charset=utf-8,{}",
        js_sys::encode_uri_component(&sized)
    ));
    JsFuture::from(loaded)
        .await
        .map_err(js_err("the chart did not load as an image"))?;
    let canvas: HtmlCanvasElement = doc
        .create_element("canvas")
        .map_err(js_err("no <canvas>"))?
        .dyn_into()
        .map_err(|_| "no <canvas>".to_string())?;
    let (cw, ch) = ((w * PNG_SCALE).round(), (h * PNG_SCALE).round());
    canvas.set_width(cw as u32);
    canvas.set_height(ch as u32);
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .map_err(js_err("no 2-D canvas"))?
        .ok_or("no 2-D canvas")?
        .dyn_into()
        .map_err(|_| "no 2-D canvas".to_string())?;
    ctx.set_fill_style_str("#ffffff");
    ctx.fill_rect(0.0, 0.0, cw, ch);
    ctx.draw_image_with_html_image_element_and_dw_and_dh(&img, 0.0, 0.0, cw, ch)
        .map_err(js_err("the chart could not be drawn on a canvas"))?;
    let mut refused = None;
    let png = js_sys::Promise::new(&mut |resolve, _| {
        refused = canvas.to_blob_with_type(&resolve, "image/png").err();
    });
    if refused.is_some() {
        return Err("the canvas could not be read".into());
    }
    JsFuture::from(png)
        .await
        .ok()
        .and_then(|b| b.dyn_into::<Blob>().ok())
        .ok_or_else(|| "the canvas could not be read".to_string())
}

/// Asks the browser to save `blob` as `filename`: an object URL on a
/// temporary `<a download>`, clicked, and revoked [`REVOKE_AFTER_MS`] later.
///
/// # Errors
/// A message when the browser gives no object URL or no link.
pub fn save(blob: &Blob, filename: &str) -> Result<(), String> {
    let url = Url::create_object_url_with_blob(blob).map_err(js_err("no object URL"))?;
    let link = gloo::utils::document()
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<HtmlAnchorElement>().ok());
    if let Some(a) = &link {
        a.set_href(&url);
        a.set_download(filename);
        a.click();
    }
    Timeout::new(REVOKE_AFTER_MS, move || {
        let _ = Url::revoke_object_url(&url);
    })
    .forget();
    link.map(|_| ()).ok_or_else(|| "no link".to_string())
}

/// Builds the file and saves it; a message for the page when either fails.
fn offer(file: Result<Blob, String>, filename: &str) -> Result<(), String> {
    file.and_then(|b| save(&b, filename))
        .map_err(|e| format!("The download failed: {e}."))
}

/// Props of [`Downloads`].
#[derive(Properties, PartialEq)]
pub struct DownloadsProps {
    /// The table (offered as CSV); its caption names the files.
    #[prop_or_default]
    pub table: Option<Rc<DataTable>>,
    /// The chart (offered as SVG and PNG).
    #[prop_or_default]
    pub svg: Option<AttrValue>,
    /// Further files, built when their button is pressed.
    #[prop_or_default]
    pub files: Vec<FileOffer>,
}

/// A file offered by [`Downloads`]: its button, its name and type, and the
/// callback that builds its text on demand (when the button is pressed; it
/// goes to the browser as a Blob, so its size is bounded by memory only).
#[derive(Clone, PartialEq)]
pub struct FileOffer {
    /// Button label, e.g. "Chrome trace".
    pub label: AttrValue,
    /// File name, e.g. "timeline-dataflow.json".
    pub file: AttrValue,
    /// MIME type, e.g. "application/json".
    pub mime: &'static str,
    /// Builds the file's text.
    pub build: Callback<(), String>,
}

/// One download button: `label` on the button, `kind` in its accessible name.
fn button(caption: &str, label: &str, kind: &str, onclick: Callback<MouseEvent>) -> Html {
    html! {
        <button type="button" class="small download" {onclick}
            aria-label={format!("Download {caption} as {kind}")}>{label.to_string()}</button>
    }
}

/// The group around a file's buttons and the message of a failed download.
fn group(caption: &str, buttons: Html, status: &str) -> Html {
    html! {
        <div class="downloads" role="group" aria-label={format!("Download {caption}")}>
            <span class="muted">{"Download: "}</span>
            {buttons}
            if !status.is_empty() { <span class="field-error" role="alert">{status.to_string()}</span> }
        </div>
    }
}

/// The callback of a "CSV" button: `table` saved as `<stem>.csv`, or the
/// message of what failed in `status`.
fn on_csv(
    table: Rc<DataTable>,
    stem: String,
    status: UseStateHandle<String>,
) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        if let Err(e) = offer(csv_blob(&table), &format!("{stem}.csv")) {
            status.set(e);
        }
    })
}

/// The callbacks of further files' buttons, each with its label and name.
fn file_buttons(files: &[FileOffer], status: &UseStateHandle<String>) -> Html {
    files
        .iter()
        .map(|f| {
            let (f2, status) = (f.clone(), status.clone());
            let onclick = Callback::from(move |_: MouseEvent| {
                let text = f2.build.emit(());
                if let Err(e) = offer(bytes_blob(text.as_bytes(), f2.mime), &f2.file) {
                    status.set(e);
                }
            });
            html! {
                <button type="button" class="small download" {onclick}
                    aria-label={format!("{} ({})", f.label, f.file)}>{f.label.clone()}</button>
            }
        })
        .collect()
}

/// Props of [`CsvDownload`].
#[derive(Properties, PartialEq)]
pub struct CsvDownloadProps {
    /// The table; its caption names the file.
    pub table: Rc<DataTable>,
}

/// The "CSV" button of a table with no chart: what [`Downloads`] shows for
/// a table alone, without the chart's SVG and PNG code (a page whose
/// downloads are all tables carries none of it).
#[component]
pub fn CsvDownload(props: &CsvDownloadProps) -> Html {
    let status = use_state(String::new);
    let caption = props.table.caption.clone();
    let csv = on_csv(props.table.clone(), file_stem(&caption), status.clone());
    group(&caption, button(&caption, "CSV", "CSV", csv), &status)
}

/// Props of [`FileDownloads`].
#[derive(Properties, PartialEq)]
pub struct FileDownloadsProps {
    /// The files, built when their button is pressed.
    pub files: Vec<FileOffer>,
}

/// Buttons for files built on demand (traces) with no chart or table:
/// what [`Downloads`] shows for `files` alone, without the chart's code.
#[component]
pub fn FileDownloads(props: &FileDownloadsProps) -> Html {
    let status = use_state(String::new);
    group("chart", file_buttons(&props.files, &status), &status)
}

/// "SVG", "PNG" and "CSV" download buttons, and further files.
#[component]
pub fn Downloads(props: &DownloadsProps) -> Html {
    let status = use_state(String::new);
    let caption = props
        .table
        .as_ref()
        .map_or_else(|| "chart".to_string(), |t| t.caption.clone());
    let stem = file_stem(&caption);
    let on_svg = props.svg.clone().map(|svg| {
        let (stem, status) = (stem.clone(), status.clone());
        Callback::from(move |_: MouseEvent| {
            if let Err(e) = offer(svg_blob(&svg), &format!("{stem}.svg")) {
                status.set(e);
            }
        })
    });
    let on_png = props.svg.clone().map(|svg| {
        let (stem, status) = (stem.clone(), status.clone());
        Callback::from(move |_: MouseEvent| {
            let (svg, stem, status) = (svg.clone(), stem.clone(), status.clone());
            wasm_bindgen_futures::spawn_local(async move {
                match png_blob(&svg).await {
                    Ok(png) => {
                        if let Err(e) = offer(Ok(png), &format!("{stem}.png")) {
                            status.set(e);
                        }
                    }
                    Err(e) => status.set(format!("PNG failed: {e}. The SVG download still works.")),
                }
            });
        })
    });
    let csv = props
        .table
        .clone()
        .map(|t| on_csv(t, stem.clone(), status.clone()));
    let b = |label: &str, cb: Option<Callback<MouseEvent>>| {
        cb.map_or_else(Html::default, |cb| button(&caption, label, label, cb))
    };
    let buttons = html! {<>
        {b("SVG", on_svg)}
        {b("PNG", on_png)}
        {b("CSV", csv)}
        {file_buttons(&props.files, &status)}
    </>};
    group(&caption, buttons, &status)
}
