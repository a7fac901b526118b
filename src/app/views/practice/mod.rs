//! `?view=practice`: predict, then check. The course's eight questions or
//! generated drills; typed answers are checked by the core with units and
//! mistake recognition; the score is kept in local storage.
//!
//! URL: `set` (`course`, `drill`), `q` (question 1–8, or a template key),
//! `seed`, `reveal=1` (answer key); `embed=1` with `q` shows one question.

use std::rc::Rc;

use yew::prelude::*;

use crate::app::hooks::use_view_state;
use crate::app::route::ViewProps;
use crate::app::state::{one_query, Action as ViewAction, Commit};
use crate::core::practice::{Question, Set};
use crate::pages::practice::select;
use crate::params::practice::PracticeParams;
use crate::params::{FieldError, Query};

mod answer_form;
mod check_form;
mod choice_form;
mod feedback;
mod question_card;
mod score_bar;
mod settings;
mod solution;
mod state;

use question_card::{question_card, QuestionCardProps};
use score_bar::{score_bar, ScoreBarProps};
use settings::{settings, SettingsProps};
use state::{load_score, save_score, Action, PracticeState};

/// Props of [`PracticeList`].
#[derive(Properties, PartialEq)]
struct ListProps {
    questions: Rc<Vec<(usize, Question)>>,
    reveal_all: bool,
    /// The score bar and the question cards are shown (`show=` may leave
    /// either out).
    score: bool,
    cards: bool,
}

/// The score bar and the question cards; remounted (fresh state) whenever
/// the selection changes.
#[component]
fn PracticeList(props: &ListProps) -> Html {
    let state = {
        let qs: Rc<Vec<Question>> =
            Rc::new(props.questions.iter().map(|(_, q)| q.clone()).collect());
        use_reducer(move || PracticeState::new(qs, load_score()))
    };
    use_effect_with(state.score.clone(), save_score);
    let (first, hint, revealed) = state.tally();
    let d = state.dispatcher();
    let on_input = {
        let d = d.clone();
        Callback::from(move |(q, part, text)| d.dispatch(Action::Input { q, part, text }))
    };
    let on_choose = {
        let d = d.clone();
        Callback::from(move |(q, option)| d.dispatch(Action::Choose { q, option }))
    };
    let on_check = {
        let d = d.clone();
        Callback::from(move |q| d.dispatch(Action::Check(q)))
    };
    let on_reveal = {
        let d = d.clone();
        Callback::from(move |q| d.dispatch(Action::Reveal(q)))
    };
    let on_reset = Callback::from(move |()| d.dispatch(Action::Reset));
    html! {
        <>
            if !props.reveal_all && props.score {
                {score_bar(&ScoreBarProps { first, hint, revealed, total: props.questions.len(), on_reset })}
            }
            if props.cards {
                <div class="questions">
                    { for props.questions.iter().enumerate().map(|(i, (number, q))| html! {
                        {question_card(&QuestionCardProps { index: i, number: *number, question: q.clone(), item: state.items.get(i).cloned().unwrap_or_default(), reveal_all: props.reveal_all, on_input: on_input.clone(), on_choose: on_choose.clone(), on_check: on_check.clone(), on_reveal: on_reveal.clone() })}
                    }) }
                </div>
            }
        </>
    }
}

/// The settings commit a whole parameter set (its URL pairs, `set` among
/// them): it is read from the defaults, so a field the new set leaves out
/// (`q`) is cleared. A single field (the seed box) commits onto the current
/// state as usual.
impl Commit for PracticeParams {
    fn commit(&self, fields: &[(&'static str, String)]) -> (Self, Vec<FieldError>) {
        if fields.iter().any(|(k, _)| *k == "set") {
            let q = Query::from_pairs(fields.iter().map(|(k, v)| ((*k).to_string(), v.clone())));
            PracticeParams::from_query(&q, &PracticeParams::default())
        } else {
            one_query(self, fields)
        }
    }
}

/// The practice view.
#[component]
pub fn PracticeView(props: &ViewProps) -> Html {
    let state = use_view_state::<PracticeParams>(props);
    let p = state.params.clone();
    let drafts = &state.drafts;
    let ctx = &props.ctx;
    let embed = ctx.embed;
    let selected = use_memo((p.clone(), embed), |(p, embed)| select(p, *embed));
    let list_key = format!(
        "{:?}-{}-{:?}-{:?}-{}",
        p.set, p.seed, p.number, p.template, embed
    );
    // Settings hand over whole parameter sets; they commit as their URL
    // pairs, so the reducer parses them exactly as a link would.
    let on_change = {
        let dispatcher = state.dispatcher();
        Callback::from(move |next: PracticeParams| {
            dispatcher.dispatch(ViewAction::Commit(next.to_pairs()));
        })
    };
    let on_error = {
        let dispatcher = state.dispatcher();
        Callback::from(move |(text, e): (String, crate::params::FieldError)| {
            dispatcher.dispatch(ViewAction::field(e.field, text));
        })
    };
    html! {
        <div class="view view-practice">
            if !embed {
                {ctx.panel("title", html! {<>
                    <h1>{"Practice: predict, then check"}</h1>
                    <p class="lede">{"Work each answer out first, then type it with its unit (112 MB, 0.112 GB and 106.8 MiB are all read the same way) and press Enter or Check. Wrong answers that match a usual mistake are named and explained."}</p>
                </>})}
                {ctx.panel("settings", html! {
                    {settings(&SettingsProps { params: p.clone(), seed_text: drafts.text_or("seed", &p.seed.to_string()), seed_error: drafts.error("seed"), on_change, on_error })}
                })}
            }
            {drafts.orphans_html(if p.set == Set::Drill && !embed && ctx.shows("settings") { &["seed"] } else { &[] })}
            if p.reveal {
                <p class="answer-key-note" id="answer-key">{"Answer key: every answer and its worked calculation are shown."}</p>
            }
            if p.number.is_some() && !embed {
                <p><a href="?view=practice&set=course">{"Show all eight course questions"}</a></p>
            }
            <PracticeList key={list_key} questions={Rc::new((*selected).clone())} reveal_all={p.reveal}
                score={ctx.shows("score")} cards={ctx.shows("questions")} />
        </div>
    }
}
