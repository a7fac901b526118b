//! The feedback area of a question (`role="status"`, read out on change).

use yew::prelude::*;

use crate::core::practice::{Feedback, Verdict};

/// Props of [`feedback_area`].
#[derive(PartialEq)]
pub struct FeedbackAreaProps {
    /// Element id.
    pub id: AttrValue,
    /// Part labels (empty for a one-part question).
    pub labels: Vec<String>,
    /// Feedback per part; empty before the first check.
    pub feedback: Vec<Feedback>,
    /// Hint shown after a wrong answer.
    pub hint: AttrValue,
}

/// One line per part, then the hint when something is not right yet.
pub fn feedback_area(props: &FeedbackAreaProps) -> Html {
    let wrong = props.feedback.iter().any(|f| f.verdict != Verdict::Correct);
    let all_right = !props.feedback.is_empty() && !wrong;
    html! {
        <div id={props.id.clone()} class={classes!("feedback", all_right.then_some("all-right"))}
             role="status" aria-live="polite">
            { for props.feedback.iter().enumerate().map(|(i, f)| {
                let label = props.labels.get(i).filter(|l| !l.is_empty() && props.labels.len() > 1);
                html! {
                    <p class={classes!("verdict", f.verdict.key())} data-verdict={f.verdict.key()}>
                        if let Some(l) = label { <strong>{format!("{l}: ")}</strong> }
                        {f.message.clone()}
                    </p>
                }
            }) }
            if wrong {
                <p class="hint-line">{format!("Hint: {}", props.hint)}</p>
            }
        </div>
    }
}
