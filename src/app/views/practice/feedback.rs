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
    /// Hint shown after a wrong answer (not after an unreadable one).
    pub hint: AttrValue,
}

/// One line per part, then the hint when a readable answer is not right
/// yet. An answer that cannot be read gets its own message and no hint:
/// such a check does not count as a wrong try either (`state.rs`).
pub fn feedback_area(props: &FeedbackAreaProps) -> Html {
    let wrong = props.feedback.iter().any(|f| f.verdict != Verdict::Correct);
    let unreadable = props
        .feedback
        .iter()
        .any(|f| f.verdict == Verdict::Unparseable);
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
            if wrong && !unreadable {
                <p class="hint-line">{format!("Hint: {}", props.hint)}</p>
            }
        </div>
    }
}
