//! The four link fields of the ring and collectives views: ranks p, tensor
//! size n, link bandwidth and latency α.

use yew::prelude::*;

use super::field::{text_field, Drafts, TextFieldProps};
use crate::core::units::format_size;

/// Props of [`link_fields`].
#[derive(PartialEq)]
pub struct LinkFieldsProps {
    /// Rejected texts and their messages.
    pub drafts: Drafts,
    /// Ranks.
    pub p: usize,
    /// Hint under p (its range).
    pub p_hint: AttrValue,
    /// The size as given, and in bytes.
    pub size: (String, u64),
    /// The bandwidth as given.
    pub bw: String,
    /// α as given.
    pub alpha: String,
    /// Called with `(field, text)` when a field is committed.
    pub on_commit: Callback<(&'static str, String)>,
}

/// p, n, bandwidth and α.
pub fn link_fields(props: &LinkFieldsProps) -> Html {
    let d = &props.drafts;
    let commit = |f: &'static str| props.on_commit.reform(move |text: String| (f, text));
    html! {
        <>
            {text_field(&TextFieldProps { name: "p".into(), label: "Ranks p".into(), value: (d.text_or("p", &props.p.to_string())).into(), error: d.error("p"), hint: Some((props.p_hint.clone()).into()), on_commit: commit("p") })}
            {text_field(&TextFieldProps { name: "size".into(), label: "Tensor size n".into(), value: (d.text_or("size", &props.size.0)).into(), error: d.error("size"), hint: Some((AttrValue::from(format_size(props.size.1))).into()), on_commit: commit("size") })}
            {text_field(&TextFieldProps { name: "bw".into(), label: "Link bandwidth".into(), value: (d.text_or("bw", &props.bw)).into(), error: d.error("bw"), hint: Some((AttrValue::from("e.g. 12.5GB/s or 100Gb/s")).into()), on_commit: commit("bw") })}
            {text_field(&TextFieldProps { name: "alpha".into(), label: "Latency α".into(), value: (d.text_or("alpha", &props.alpha)).into(), error: d.error("alpha"), hint: Some((AttrValue::from("e.g. 0us, 5us, 2ms")).into()), on_commit: commit("alpha") })}
        </>
    }
}
