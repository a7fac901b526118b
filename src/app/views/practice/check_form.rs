//! The form around a question's answer inputs: submitting it (the "Check"
//! button or Enter) checks the answer; "Show answer" reveals it.

use yew::prelude::*;

/// Props of [`CheckForm`].
#[derive(Properties, PartialEq)]
pub struct CheckFormProps {
    /// Question index (for the buttons' ids).
    pub index: usize,
    /// The form's classes.
    pub class: Classes,
    /// Check (button or Enter).
    pub on_check: Callback<()>,
    /// Show the answer.
    pub on_reveal: Callback<()>,
    /// The answer inputs.
    pub children: Html,
}

/// The inputs, then the two buttons.
#[component]
pub fn CheckForm(props: &CheckFormProps) -> Html {
    let i = props.index;
    let onsubmit = {
        let cb = props.on_check.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            cb.emit(());
        })
    };
    let on_reveal = props.on_reveal.reform(|_: MouseEvent| ());
    html! {
        <form class={props.class.clone()} {onsubmit}>
            { props.children.clone() }
            <div class="answer-buttons">
                <button type="submit" id={format!("check-{i}")}>{"Check"}</button>
                <button type="button" class="secondary" id={format!("show-{i}")} onclick={on_reveal}>{"Show answer"}</button>
            </div>
        </form>
    }
}
