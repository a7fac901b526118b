//! Checking one answer: the verdict and a message that says why.

use super::answer::{parse_answer, Kind};
use super::mistakes::MistakeKind;
use super::question::{ChoiceOption, Numeric};
use crate::core::units::decimal;
use crate::core::units::format::format_number;

/// The outcome of a check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Within tolerance of the right value.
    Correct,
    /// Matches a known mistake.
    Mistake(MistakeKind),
    /// Readable, of the right kind, but not right.
    Wrong,
    /// A unit of another kind (a time where a size is asked).
    WrongKind,
    /// Not readable as a number with a unit.
    Unparseable,
}

impl Verdict {
    /// Short key for CSS classes and tests: `correct`, `mistake`, `wrong`,
    /// `wrong-kind`, `unparseable`.
    pub fn key(self) -> &'static str {
        match self {
            Verdict::Correct => "correct",
            Verdict::Mistake(_) => "mistake",
            Verdict::Wrong => "wrong",
            Verdict::WrongKind => "wrong-kind",
            Verdict::Unparseable => "unparseable",
        }
    }
}

/// A verdict and the sentence shown for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feedback {
    /// The verdict.
    pub verdict: Verdict,
    /// What to tell the student.
    pub message: String,
}

/// A value in the part's unit, e.g. "112 MB" or "0.5333".
fn in_unit(n: &Numeric, base: f64) -> String {
    let v = format_number(base / n.unit.factor);
    let v = if v == "0" && base != 0.0 {
        decimal::sci(base / n.unit.factor, 3)
    } else {
        v
    };
    if n.unit.symbol.is_empty() {
        v
    } else {
        format!("{v} {}", n.unit.symbol)
    }
}

/// Checks a typed answer against one numeric part.
///
/// The right value is tried first, so a right answer is never reported as a
/// mistake; then the part's known mistakes in order. A bare number is read
/// in the unit the question names; a unit of another kind, or text that is
/// not a number, gets its own message. Never panics.
pub fn check(n: &Numeric, input: &str) -> Feedback {
    let parsed = match parse_answer(input) {
        Ok(p) => p,
        Err(e) => {
            return Feedback {
                verdict: Verdict::Unparseable,
                message: format!("{e} This box expects {}.", expectation(n)),
            }
        }
    };
    let value = match parsed.kind {
        None => parsed.value * n.unit.factor,
        Some(k) if k == n.kind => parsed.value,
        Some(k) => {
            return Feedback {
                verdict: Verdict::WrongKind,
                message: format!(
                    "That is {}, but this asks for {}: {}.",
                    k.with_article(),
                    n.kind.with_article(),
                    expectation(n)
                ),
            }
        }
    };
    if n.tolerance.accepts(n.value, value) {
        return Feedback {
            verdict: Verdict::Correct,
            message: format!("Correct: {}.", n.shown),
        };
    }
    if let Some(m) = n
        .mistakes
        .iter()
        .find(|m| n.tolerance.accepts(m.value, value))
    {
        return Feedback {
            verdict: Verdict::Mistake(m.kind),
            message: format!(
                "Not yet. {} looks like {}: {}",
                in_unit(n, value),
                m.kind.label(),
                m.kind.explanation()
            ),
        };
    }
    let direction = if value > n.value {
        "too large"
    } else {
        "too small"
    };
    // a plain number (a count of rounds, a ratio) has no units to check
    let check = if n.kind == Kind::Number {
        "Check each step."
    } else {
        "Check each step and its units."
    };
    Feedback {
        verdict: Verdict::Wrong,
        message: format!("Not yet: {} is {direction}. {check}", in_unit(n, value)),
    }
}

/// What a part expects, e.g. "a size (a bare number is read in MB), such as
/// 112 MB, 0.112 GB or 106.8 MiB".
fn expectation(n: &Numeric) -> String {
    if n.kind == Kind::Number {
        return "a plain number such as 14 or 0.36".into();
    }
    let bare = if n.unit.symbol.is_empty() {
        String::new()
    } else {
        format!(" (a bare number is read in {})", n.unit.symbol)
    };
    format!(
        "{}{bare}, such as {}",
        n.kind.with_article(),
        n.kind.example()
    )
}

/// Checks the choice of option `chosen` (0-based) of a multiple-choice
/// question: the option's own explanation, prefixed by the verdict. An
/// index out of range is [`Verdict::Unparseable`].
pub fn check_choice(options: &[ChoiceOption], chosen: usize) -> Feedback {
    match options.get(chosen) {
        Some(o) if o.correct => Feedback {
            verdict: Verdict::Correct,
            message: format!("Correct. {}", o.explanation),
        },
        Some(o) => Feedback {
            verdict: Verdict::Wrong,
            message: format!("Not this one. {}", o.explanation),
        },
        None => Feedback {
            verdict: Verdict::Unparseable,
            message: "Pick one of the options first.".into(),
        },
    }
}
