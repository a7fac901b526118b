//! The score of the session: right first time, right after a hint, revealed.

use yew::prelude::*;

/// Props of [`score_bar`].
#[derive(PartialEq)]
pub struct ScoreBarProps {
    /// Right on the first check.
    pub first: usize,
    /// Right after a hint.
    pub hint: usize,
    /// Answer shown first.
    pub revealed: usize,
    /// Questions on the page.
    pub total: usize,
    /// Forget the score.
    pub on_reset: Callback<()>,
}

/// The score line with its reset button.
pub fn score_bar(props: &ScoreBarProps) -> Html {
    let open = props
        .total
        .saturating_sub(props.first + props.hint + props.revealed);
    let onclick = {
        let cb = props.on_reset.clone();
        Callback::from(move |_| cb.emit(()))
    };
    html! {
        <section class="practice-score" aria-label="Score">
            <p id="score">
                <span class="first">{format!("{} right first time", props.first)}</span>
                {" · "}
                <span class="hint">{format!("{} right after a hint", props.hint)}</span>
                {" · "}
                <span class="revealed">{format!("{} revealed", props.revealed)}</span>
                {" · "}
                <span class="open">{format!("{open} of {} still open", props.total)}</span>
            </p>
            <button type="button" id="score-reset" {onclick}>{"Reset score"}</button>
        </section>
    }
}
