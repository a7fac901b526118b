//! The four link fields of the ring and collectives views: ranks p, tensor
//! size n, link bandwidth and latency α.

use yew::prelude::*;

use super::field::{Drafts, TextField};
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
            <TextField name="p" label="Ranks p" value={d.text_or("p", &props.p.to_string())}
                error={d.error("p")} hint={props.p_hint.clone()} on_commit={commit("p")} />
            <TextField name="size" label="Tensor size n" value={d.text_or("size", &props.size.0)}
                error={d.error("size")} hint={AttrValue::from(format_size(props.size.1))} on_commit={commit("size")} />
            <TextField name="bw" label="Link bandwidth" value={d.text_or("bw", &props.bw)}
                error={d.error("bw")} hint={AttrValue::from("e.g. 12.5GB/s or 100Gb/s")} on_commit={commit("bw")} />
            <TextField name="alpha" label="Latency α" value={d.text_or("alpha", &props.alpha)}
                error={d.error("alpha")} hint={AttrValue::from("e.g. 0us, 5us, 2ms")} on_commit={commit("alpha")} />
        </>
    }
}
