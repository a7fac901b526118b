//! The options of a multiple-choice question, with "Check" and "Show answer".

use yew::prelude::*;

use super::check_form::CheckForm;

use crate::core::practice::ChoiceOption;

/// Props of [`choice_form`].
#[derive(PartialEq)]
pub struct ChoiceFormProps {
    /// Question index (for ids and the radio group name).
    pub index: usize,
    /// The options.
    pub options: Vec<ChoiceOption>,
    /// The picked option.
    pub choice: Option<usize>,
    /// Option picked.
    pub on_choose: Callback<usize>,
    /// Check (button or Enter).
    pub on_check: Callback<()>,
    /// Show the answer.
    pub on_reveal: Callback<()>,
}

/// A radio group labelled "Your answer", then the two buttons.
pub fn choice_form(props: &ChoiceFormProps) -> Html {
    let i = props.index;
    html! {
        <CheckForm index={i} class={classes!("answer-form", "choice-form")}
            on_check={props.on_check.clone()} on_reveal={props.on_reveal.clone()}>
            <fieldset>
                <legend>{"Your answer"}</legend>
                { for props.options.iter().enumerate().map(|(k, o)| {
                    let id = format!("opt-{i}-{k}");
                    let onchange = {
                        let cb = props.on_choose.clone();
                        Callback::from(move |_: Event| cb.emit(k))
                    };
                    html! {
                        <div class="option">
                            <input type="radio" id={id.clone()} name={format!("choice-{i}")}
                                checked={props.choice == Some(k)} {onchange} />
                            <label for={id}>{o.text.clone()}</label>
                        </div>
                    }
                }) }
            </fieldset>
        </CheckForm>
    }
}
