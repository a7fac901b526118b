//! The options of a multiple-choice question, with "Check" and "Show answer".

use yew::prelude::*;

use crate::core::practice::ChoiceOption;

/// Props of [`ChoiceForm`].
#[derive(Properties, PartialEq)]
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
#[component]
pub fn ChoiceForm(props: &ChoiceFormProps) -> Html {
    let i = props.index;
    let onsubmit = {
        let cb = props.on_check.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            cb.emit(());
        })
    };
    let on_reveal = {
        let cb = props.on_reveal.clone();
        Callback::from(move |_| cb.emit(()))
    };
    html! {
        <form class="answer-form choice-form" {onsubmit}>
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
            <div class="answer-buttons">
                <button type="submit" id={format!("check-{i}")}>{"Check"}</button>
                <button type="button" class="secondary" id={format!("show-{i}")} onclick={on_reveal}>{"Show answer"}</button>
            </div>
        </form>
    }
}
