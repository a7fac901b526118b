//! What a practice question is: its answer (a number with a unit and a
//! tolerance, or a choice), the mistakes it recognises and the view that
//! shows it. The course and the templates build these; the feedback reads
//! them.

use super::answer::Kind;
use super::mistakes::MistakeKind;

/// The unit a bare number is read in, and the answer is shown in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Unit {
    /// Symbol, e.g. "MB", "µs", "GB/s"; empty for a plain number.
    pub symbol: &'static str,
    /// Base units (B, s, B/s, or 1) per unit.
    pub factor: f64,
}

impl Unit {
    /// A plain number.
    pub const NONE: Unit = Unit {
        symbol: "",
        factor: 1.0,
    };
}

/// How close an answer must be: `|x − v| ≤ max(relative·|v|, absolute)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Relative tolerance (0.005 = 0.5 %).
    pub relative: f64,
    /// Absolute tolerance in base units (the precision the question asks for).
    pub absolute: f64,
}

impl Tolerance {
    /// 0.5 % relative.
    pub const HALF_PERCENT: Tolerance = Tolerance {
        relative: 0.005,
        absolute: 0.0,
    };
    /// A whole number, exactly.
    pub const EXACT: Tolerance = Tolerance {
        relative: 0.0,
        absolute: 1e-9,
    };

    /// `decimals` decimal places: half a unit of the last place.
    pub fn decimals(decimals: i32) -> Tolerance {
        Tolerance {
            relative: 0.0,
            absolute: 0.5 * 10f64.powi(-decimals) + 1e-12,
        }
    }

    /// True when `x` is within this tolerance of `v`.
    pub fn accepts(self, v: f64, x: f64) -> bool {
        (x - v).abs() <= (self.relative * v.abs()).max(self.absolute)
    }
}

/// A known mistake on one answer part: which one, and the value it gives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mistake {
    /// The mistake.
    pub kind: MistakeKind,
    /// The value (base units) a student making it would get.
    pub value: f64,
}

/// One numeric answer box.
#[derive(Clone, Debug, PartialEq)]
pub struct Numeric {
    /// What this box asks for, e.g. "bytes sent per rank".
    pub label: String,
    /// The right value in base units (B, s, B/s or the plain number).
    pub value: f64,
    /// Its kind.
    pub kind: Kind,
    /// The unit the question names (bare numbers are read in it).
    pub unit: Unit,
    /// How close an answer must be.
    pub tolerance: Tolerance,
    /// The answer as shown in the answer key, e.g. "112 MB".
    pub shown: String,
    /// Mistakes recognised on this part.
    pub mistakes: Vec<Mistake>,
}

/// One option of a multiple-choice question.
#[derive(Clone, Debug, PartialEq)]
pub struct ChoiceOption {
    /// The option text.
    pub text: String,
    /// Whether it is right.
    pub correct: bool,
    /// Why it is right or wrong.
    pub explanation: String,
}

/// What a question expects.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// One or more numeric boxes.
    Numeric(Vec<Numeric>),
    /// Pick one option.
    Choice(Vec<ChoiceOption>),
}

/// A link to the view that shows the question's situation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewLink {
    /// e.g. "see it in the ring view at p = 8, 64 MB".
    pub label: String,
    /// The query, without `?`: "view=ring&p=8&size=64MB".
    pub query: String,
}

/// A practice question.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// Stable id (score keys): "course-1", "ring-bytes-7-0".
    pub id: String,
    /// Short title, e.g. "Bytes per rank in a ring all-reduce".
    pub title: String,
    /// The question, with every parameter it needs.
    pub text: String,
    /// What is expected.
    pub answer: Answer,
    /// A hint shown after a wrong answer.
    pub hint: String,
    /// The worked calculation, step by step, with units.
    pub solution: Vec<String>,
    /// Where to see it in another view.
    pub link: Option<ViewLink>,
}
