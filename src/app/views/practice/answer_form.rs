//! The answer boxes of a numeric question, with "Check" (also on Enter) and
//! "Show answer".

use yew::prelude::*;

use super::check_form::CheckForm;

use crate::core::practice::Numeric;
use crate::pages::practice::unit_hint;

/// Props of [`answer_form`].
#[derive(PartialEq)]
pub struct AnswerFormProps {
    /// Question index (for ids).
    pub index: usize,
    /// The parts.
    pub parts: Vec<Numeric>,
    /// Typed texts, one per part.
    pub inputs: Vec<String>,
    /// Text typed into part `i`.
    pub on_input: Callback<(usize, String)>,
    /// Check (button or Enter).
    pub on_check: Callback<()>,
    /// Show the answer.
    pub on_reveal: Callback<()>,
}

/// One labelled box per part, then the two buttons.
pub fn answer_form(props: &AnswerFormProps) -> Html {
    let i = props.index;
    let many = props.parts.len() > 1;
    html! {
        <CheckForm index={i} class={classes!("answer-form")}
            on_check={props.on_check.clone()} on_reveal={props.on_reveal.clone()}>
            { for props.parts.iter().enumerate().map(|(k, part)| {
                let id = format!("ans-{i}-{k}");
                let hint_id = format!("{id}-hint");
                let oninput = {
                    let cb = props.on_input.clone();
                    Callback::from(move |e: InputEvent| {
                        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                        cb.emit((k, input.value()));
                    })
                };
                let label = if many {
                    format!("Your answer: {}", part.label)
                } else {
                    "Your answer".to_string()
                };
                html! {
                    <div class="field answer-field">
                        <label for={id.clone()}>{label}</label>
                        <input id={id} type="text" inputmode="decimal" autocomplete="off" spellcheck="false"
                            value={props.inputs.get(k).cloned().unwrap_or_default()}
                            aria-describedby={hint_id.clone()} {oninput} />
                        <small class="hint" id={hint_id}>{unit_hint(part)}</small>
                    </div>
                }
            }) }
        </CheckForm>
    }
}
