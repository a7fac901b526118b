//! Practice mode: questions to answer before looking, checked with units and
//! with feedback that recognises the usual mistakes.
//!
//! - [`course::course`]: the course's eight practice questions, with every
//!   numeric answer computed from the question's parameters.
//! - [`templates`]: generated variants (`set=drill&q=TEMPLATE&seed=N`),
//!   deterministic per seed ([`compute::SplitMix64`]).
//! - [`answer::parse_answer`]: numbers with size, time or bandwidth units.
//! - [`mistakes`]: one small function per known mistake.
//! - [`feedback::check`]: the verdict and its message.
//! - [`compute`]: the only module that calls into the rest of the core.

pub mod answer;
pub mod compute;
pub mod course;
pub mod feedback;
pub mod mistakes;
pub mod question;
pub mod score;
pub mod templates;

#[cfg(test)]
mod tests;

pub use answer::{parse_answer, AnswerError, Kind, Parsed};
pub use feedback::{check, check_choice, Feedback, Verdict};
pub use mistakes::MistakeKind;
pub use question::{Answer, ChoiceOption, Mistake, Numeric, Question, Tolerance, Unit, ViewLink};
pub use templates::{Params, Template};

/// Which questions a page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Set {
    /// The course's eight practice questions.
    #[default]
    Course,
    /// Generated variants of the templates.
    Drill,
}

impl Set {
    /// URL value: `course` or `drill`.
    pub fn key(self) -> &'static str {
        match self {
            Set::Course => "course",
            Set::Drill => "drill",
        }
    }

    /// Inverse of [`Set::key`] (case-insensitive).
    pub fn parse(s: &str) -> Option<Set> {
        match s.trim().to_ascii_lowercase().as_str() {
            "course" => Some(Set::Course),
            "drill" => Some(Set::Drill),
            _ => None,
        }
    }
}

/// Number of questions a one-template drill draws.
pub const DRILL_COUNT: usize = 5;

/// The questions of a set: the course's eight, or a drill of
/// [`DRILL_COUNT`] variants of `template` from `seed` (one of each template
/// when `template` is `None`). The same arguments always give the same
/// questions.
pub fn questions(set: Set, template: Option<Template>, seed: u64) -> Vec<Question> {
    match (set, template) {
        (Set::Course, _) => course::course(),
        (Set::Drill, Some(t)) => (0..DRILL_COUNT).map(|i| t.generate(seed, i)).collect(),
        (Set::Drill, None) => Template::ALL.iter().map(|t| t.generate(seed, 0)).collect(),
    }
}
