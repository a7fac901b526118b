//! The worked calculation, the answer key and the link to the matching view.

use yew::prelude::*;

use crate::core::practice::{Answer, Question};

/// Props of [`solution`].
#[derive(PartialEq)]
pub struct SolutionProps {
    /// Question index (for ids).
    pub index: usize,
    /// The question.
    pub question: Question,
}

/// The answer, each step of the calculation with its units, and the link.
pub fn solution(props: &SolutionProps) -> Html {
    let q = &props.question;
    let answer: Vec<String> = match &q.answer {
        Answer::Numeric(parts) if parts.len() == 1 => {
            parts.iter().map(|p| p.shown.clone()).collect()
        }
        Answer::Numeric(parts) => parts
            .iter()
            .map(|p| format!("{}: {}", p.label, p.shown))
            .collect(),
        Answer::Choice(opts) => opts
            .iter()
            .filter(|o| o.correct)
            .map(|o| o.text.clone())
            .collect(),
    };
    html! {
        <section class="solution" id={format!("sol-{}", props.index)} aria-label="Worked answer">
            <p class="answer-key"><strong>{"Answer: "}</strong>
                <span class="answer-value">{answer.join("; ")}</span></p>
            if let Answer::Choice(opts) = &q.answer {
                <ul class="option-explanations">
                    { for opts.iter().map(|o| html! {
                        <li class={classes!(o.correct.then_some("right-option"))}>
                            <strong>{if o.correct { "Right: " } else { "Not this: " }}</strong>
                            {format!("{} {}", o.text, o.explanation)}
                        </li>
                    }) }
                </ul>
            }
            <ol class="steps">
                { for q.solution.iter().map(|s| html! { <li>{s.clone()}</li> }) }
            </ol>
            if let Some(link) = &q.link {
                <p class="view-link"><a href={format!("?{}", link.query)}>{link.label.clone()}</a></p>
            }
        </section>
    }
}
