//! Download buttons for teachers: a chart as SVG or PNG (the SVG drawn onto a
//! canvas in the browser) and a table as CSV. The files are built as `data:`
//! URLs ([`crate::export::data_url`]) and handed to a temporary link; nothing
//! leaves the page. The builders are public so the browser tests can check
//! the files themselves.

use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{CanvasRenderingContext2d, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement};
use yew::prelude::*;

use crate::export::{data_url, file_stem, svg_size, svg_with_size, DataTable};

/// Pixels per SVG unit in the PNG (sharp on high-density screens and paper).
pub const PNG_SCALE: f64 = 2.0;

/// The chart as an SVG file URL.
pub fn svg_data_url(svg: &str) -> String {
    data_url("image/svg+xml", svg)
}

/// The table as a CSV file URL.
pub fn csv_data_url(table: &DataTable) -> String {
    data_url("text/csv", &table.to_csv())
}

fn js_err(what: &str) -> impl Fn(JsValue) -> String + '_ {
    move |_| what.to_string()
}

/// The chart as a PNG `data:` URL: the SVG is loaded into an `<img>` at its
/// `viewBox` size, drawn onto a white canvas [`PNG_SCALE`] times larger, and
/// read back with `toDataURL("image/png")`.
///
/// # Errors
/// A message when the SVG does not load as an image or the canvas fails.
pub async fn png_data_url(svg: &str) -> Result<String, String> {
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
    img.set_src(&svg_data_url(&svg_with_size(svg, w, h)));
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
    canvas
        .to_data_url_with_type("image/png")
        .map_err(js_err("the canvas could not be read"))
}

/// Asks the browser to save `url` as `filename` (a temporary `<a download>`).
pub fn save(url: &str, filename: &str) {
    let doc = gloo::utils::document();
    let Some(a) = doc
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<HtmlAnchorElement>().ok())
    else {
        return;
    };
    a.set_href(url);
    a.set_download(filename);
    a.click();
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
/// callback that builds its text on demand.
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

/// "SVG", "PNG" and "CSV" download buttons.
#[component]
pub fn Downloads(props: &DownloadsProps) -> Html {
    let status = use_state(String::new);
    let caption = props
        .table
        .as_ref()
        .map_or_else(|| "chart".to_string(), |t| t.caption.clone());
    let stem = file_stem(&caption);
    let on_svg = props.svg.clone().map(|svg| {
        let stem = stem.clone();
        Callback::from(move |_: MouseEvent| save(&svg_data_url(&svg), &format!("{stem}.svg")))
    });
    let on_png = props.svg.clone().map(|svg| {
        let (stem, status) = (stem.clone(), status.clone());
        Callback::from(move |_: MouseEvent| {
            let (svg, stem, status) = (svg.clone(), stem.clone(), status.clone());
            wasm_bindgen_futures::spawn_local(async move {
                match png_data_url(&svg).await {
                    Ok(url) => save(&url, &format!("{stem}.png")),
                    Err(e) => status.set(format!("PNG failed: {e}. The SVG download still works.")),
                }
            });
        })
    });
    let on_csv = props.table.clone().map(|t| {
        let stem = stem.clone();
        Callback::from(move |_: MouseEvent| save(&csv_data_url(&t), &format!("{stem}.csv")))
    });
    let button = |label: &str, kind: &str, cb: Option<Callback<MouseEvent>>| match cb {
        Some(onclick) => html! {
            <button type="button" class="small download" {onclick}
                aria-label={format!("Download {caption} as {kind}")}>{label.to_string()}</button>
        },
        None => Html::default(),
    };
    html! {
        <div class="downloads" role="group" aria-label={format!("Download {caption}")}>
            <span class="muted">{"Download: "}</span>
            {button("SVG", "SVG", on_svg)}
            {button("PNG", "PNG", on_png)}
            {button("CSV", "CSV", on_csv)}
            { for props.files.iter().map(|f| {
                let f2 = f.clone();
                let onclick = Callback::from(move |_: MouseEvent| {
                    save(&data_url(f2.mime, &f2.build.emit(())), &f2.file)
                });
                html! {
                    <button type="button" class="small download" {onclick}
                        aria-label={format!("{} ({})", f.label, f.file)}>{f.label.clone()}</button>
                }
            }) }
            if !status.is_empty() { <span class="field-error" role="alert">{(*status).clone()}</span> }
        </div>
    }
}
