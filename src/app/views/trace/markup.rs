//! Markup given as text (`Html::from_html_unchecked`, a raw node): for the
//! timeline page's static parts (legend, headings, hints, tables of
//! numbers). An element written with `html!` costs about 700 B of wasm
//! before compression and pages are over the 200 KB budget; the same
//! element as text costs its characters. Only this crate's own text and
//! numbers go in: never text from a URL or a file.

use yew::prelude::*;

/// `s` as markup (see the module doc).
pub fn markup(s: impl Into<AttrValue>) -> Html {
    Html::from_html_unchecked(s.into())
}
