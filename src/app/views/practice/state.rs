//! The practice view's state: what was typed, the feedback, and the score,
//! as a pure reducer (`Reducible` + [`Action`]).

use std::collections::BTreeMap;

use crate::core::practice::score;
use std::rc::Rc;

use yew::prelude::*;

use crate::core::practice::{check, check_choice, Answer, Feedback, Question, Verdict};

/// How a question ended, for the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Right on the first check.
    First,
    /// Right after at least one wrong check (and its hint).
    AfterHint,
    /// The answer was shown before it was found.
    Revealed,
}

impl Outcome {
    /// Storage value.
    pub fn key(self) -> &'static str {
        match self {
            Outcome::First => "first",
            Outcome::AfterHint => "hint",
            Outcome::Revealed => "revealed",
        }
    }

    /// Inverse of [`Outcome::key`].
    pub fn parse(s: &str) -> Option<Outcome> {
        match s {
            "first" => Some(Outcome::First),
            "hint" => Some(Outcome::AfterHint),
            "revealed" => Some(Outcome::Revealed),
            _ => None,
        }
    }
}

/// One question's working state.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Item {
    /// Typed text per numeric part.
    pub inputs: Vec<String>,
    /// Chosen option of a multiple-choice question.
    pub choice: Option<usize>,
    /// Feedback of the last check, per part.
    pub feedback: Vec<Feedback>,
    /// Wrong checks so far.
    pub wrong: u32,
    /// Worked solution shown.
    pub shown: bool,
}

/// The whole view's state.
#[derive(Clone, Debug, PartialEq)]
pub struct PracticeState {
    /// The questions on the page.
    pub questions: Rc<Vec<Question>>,
    /// Their working state, same order.
    pub items: Vec<Item>,
    /// Outcomes by question id (kept in local storage across sets).
    pub score: BTreeMap<String, Outcome>,
}

/// What can happen.
pub enum Action {
    /// New text in part `part` of question `q`.
    Input { q: usize, part: usize, text: String },
    /// Option `option` picked in question `q`.
    Choose { q: usize, option: usize },
    /// Check question `q`.
    Check(usize),
    /// Show the answer of question `q`.
    Reveal(usize),
    /// Forget every outcome.
    Reset,
}

impl PracticeState {
    /// A fresh state for `questions`, with the stored `score`.
    pub fn new(questions: Rc<Vec<Question>>, score: BTreeMap<String, Outcome>) -> Self {
        let items = questions
            .iter()
            .map(|q| Item {
                inputs: match &q.answer {
                    Answer::Numeric(parts) => vec![String::new(); parts.len()],
                    Answer::Choice(_) => vec![],
                },
                ..Item::default()
            })
            .collect();
        PracticeState {
            questions,
            items,
            score,
        }
    }

    /// (first try, after a hint, revealed) among the questions on the page.
    pub fn tally(&self) -> (usize, usize, usize) {
        let mut t = (0, 0, 0);
        for q in self.questions.iter() {
            match self.score.get(&q.id) {
                Some(Outcome::First) => t.0 += 1,
                Some(Outcome::AfterHint) => t.1 += 1,
                Some(Outcome::Revealed) => t.2 += 1,
                None => {}
            }
        }
        t
    }

    fn checked(&self, i: usize) -> Option<Vec<Feedback>> {
        let q = self.questions.get(i)?;
        let item = self.items.get(i)?;
        Some(match &q.answer {
            Answer::Numeric(parts) => parts
                .iter()
                .zip(&item.inputs)
                .map(|(p, text)| check(p, text))
                .collect(),
            Answer::Choice(opts) => vec![check_choice(opts, item.choice.unwrap_or(usize::MAX))],
        })
    }
}

impl Reducible for PracticeState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Input { q, part, text } => {
                if let Some(slot) = next.items.get_mut(q).and_then(|i| i.inputs.get_mut(part)) {
                    *slot = text;
                }
            }
            Action::Choose { q, option } => {
                if let Some(item) = next.items.get_mut(q) {
                    item.choice = Some(option);
                }
            }
            Action::Check(i) => {
                let Some(feedback) = next.checked(i) else {
                    return self;
                };
                let all_right = feedback.iter().all(|f| f.verdict == Verdict::Correct);
                let unreadable = feedback.iter().any(|f| f.verdict == Verdict::Unparseable);
                let id = next.questions.get(i).map(|q| q.id.clone());
                if let (Some(item), Some(id)) = (next.items.get_mut(i), id) {
                    if all_right {
                        item.shown = true;
                        let outcome = if item.wrong == 0 {
                            Outcome::First
                        } else {
                            Outcome::AfterHint
                        };
                        next.score.entry(id).or_insert(outcome);
                    } else if !unreadable {
                        item.wrong += 1;
                    }
                    item.feedback = feedback;
                }
            }
            Action::Reveal(i) => {
                let id = next.questions.get(i).map(|q| q.id.clone());
                if let (Some(item), Some(id)) = (next.items.get_mut(i), id) {
                    item.shown = true;
                    next.score.entry(id).or_insert(Outcome::Revealed);
                }
            }
            Action::Reset => {
                next = PracticeState::new(next.questions.clone(), BTreeMap::new());
            }
        }
        Rc::new(next)
    }
}

/// Local-storage key of the score.
pub const STORAGE_KEY: &str = "collective-lab.practice.score";

/// The stored score (empty when missing or unreadable).
pub fn load_score() -> BTreeMap<String, Outcome> {
    use gloo::storage::{LocalStorage, Storage};
    let raw = LocalStorage::raw().get_item(STORAGE_KEY).ok().flatten();
    raw.and_then(|t| score::decode(&t))
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(k, v)| Outcome::parse(&v).map(|o| (k, o)))
        .collect()
}

/// Writes the score; failures (private mode, full storage) are ignored.
pub fn save_score(score: &BTreeMap<String, Outcome>) {
    use gloo::storage::{LocalStorage, Storage};
    let text = score::encode(score.iter().map(|(k, v)| (k.as_str(), v.key())));
    let _ = LocalStorage::raw().set_item(STORAGE_KEY, &text);
}
