//! One question as an `<article>`: text, answer form, feedback and, once
//! checked right or shown, the worked solution.

use yew::prelude::*;

use super::answer_form::{answer_form, AnswerFormProps};
use super::choice_form::{choice_form, ChoiceFormProps};
use super::feedback::{feedback_area, FeedbackAreaProps};
use super::solution::{solution, SolutionProps};
use super::state::Item;
use crate::core::practice::{Answer, Question};

/// Props of [`question_card`].
#[derive(PartialEq)]
pub struct QuestionCardProps {
    /// Position on the page (0-based).
    pub index: usize,
    /// Number shown ("Question 3").
    pub number: usize,
    /// The question.
    pub question: Question,
    /// Its working state.
    pub item: Item,
    /// Answer key mode: show the solution whatever was typed.
    pub reveal_all: bool,
    /// Text typed into a part.
    pub on_input: Callback<(usize, usize, String)>,
    /// Option picked.
    pub on_choose: Callback<(usize, usize)>,
    /// Check question `index`.
    pub on_check: Callback<usize>,
    /// Show the answer of question `index`.
    pub on_reveal: Callback<usize>,
}

/// The article.
pub fn question_card(props: &QuestionCardProps) -> Html {
    let i = props.index;
    let q = &props.question;
    let on_check = props.on_check.reform(move |()| i);
    let on_reveal = props.on_reveal.reform(move |()| i);
    let (form, labels) = match &q.answer {
        Answer::Numeric(parts) => (
            html! {
                {answer_form(&AnswerFormProps { index: i, parts: parts.clone(), inputs: props.item.inputs.clone(), on_input: props.on_input.reform(move |(k, t)| (i, k, t)), on_check, on_reveal })}
            },
            parts.iter().map(|p| p.label.clone()).collect(),
        ),
        Answer::Choice(options) => (
            html! {
                {choice_form(&ChoiceFormProps { index: i, options: options.clone(), choice: props.item.choice, on_choose: props.on_choose.reform(move |k| (i, k)), on_check, on_reveal })}
            },
            vec![],
        ),
    };
    let shown = props.reveal_all || props.item.shown;
    html! {
        <article class="question" id={format!("q-{i}")} aria-labelledby={format!("q-{i}-h")}>
            <h2 id={format!("q-{i}-h")}>{format!("Question {}: {}", props.number, q.title)}</h2>
            <p class="question-text">{q.text.clone()}</p>
            {form}
            {feedback_area(&FeedbackAreaProps { id: format!("fb-{i}").into(), labels, feedback: props.item.feedback.clone(), hint: q.hint.clone().into() })}
            if shown {
                {solution(&SolutionProps { index: i, question: q.clone() })}
            }
        </article>
    }
}
