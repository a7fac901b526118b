//! Labelled menu that commits the picked option's value, like a
//! [`text_field`](super::field::text_field) commits its text.

use yew::prelude::*;

/// Props of [`select_field`].
#[derive(PartialEq)]
pub struct SelectFieldProps {
    /// Field key: the URL key and the id suffix (`f-<name>`).
    pub name: AttrValue,
    /// Visible label.
    pub label: AttrValue,
    /// `(value, label)` of each option, in order.
    pub options: Vec<(AttrValue, AttrValue)>,
    /// The value of the selected option.
    pub selected: AttrValue,
    /// Inline message when the last value was rejected.
    pub error: Option<String>,
    /// Extra classes of the field (e.g. `span2`).
    pub class: Classes,
    /// Called with the picked option's value.
    pub on_commit: Callback<String>,
}

/// A labelled `<select>`.
pub fn select_field(props: &SelectFieldProps) -> Html {
    let id = format!("f-{}", props.name);
    let err_id = format!("{id}-err");
    let invalid = props.error.is_some();
    let onchange = props.on_commit.reform(|e: Event| {
        let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
        sel.value()
    });
    html! {
        <div class={classes!("field", props.class.clone())}>
            <label for={id.clone()}>{props.label.clone()}</label>
            <select {id} name={props.name.clone()} {onchange} aria-invalid={invalid.then_some("true")}
                aria-describedby={invalid.then(|| err_id.clone())}>
                { for props.options.iter().map(|(value, label)| html! {
                    <option value={value.clone()} selected={*value == props.selected}>{label.clone()}</option>
                }) }
            </select>
            if let Some(e) = &props.error {
                <small class="field-error" id={err_id} role="alert">{e.clone()}</small>
            }
        </div>
    }
}
