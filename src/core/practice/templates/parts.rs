//! The pieces every question is built from: a numeric part with its unit,
//! tolerance and recognised mistakes, and the question around the parts.

use super::values::*;
use crate::core::practice::answer::Kind;
use crate::core::practice::mistakes as mk;
use crate::core::practice::mistakes::MistakeKind;
use crate::core::practice::question::{Answer, Mistake, Numeric, Question, Tolerance, Unit};
use crate::core::units::format::format_number;
use crate::core::units::format_decimal;

/// A list "a, b and c".
pub(super) fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A value in parentheses when negative, for sums.
pub(super) fn term(v: f64) -> String {
    if v < 0.0 {
        format!("({})", format_number(v))
    } else {
        format_number(v)
    }
}

pub(super) fn mistakes(kind: MistakeKind, values: &[f64]) -> Vec<Mistake> {
    values
        .iter()
        .map(|&value| Mistake { kind, value })
        .collect()
}

pub(super) fn number(
    label: &str,
    value: f64,
    tolerance: Tolerance,
    mistakes: Vec<Mistake>,
) -> Numeric {
    Numeric {
        label: label.into(),
        value,
        kind: Kind::Number,
        unit: Unit::NONE,
        tolerance,
        shown: format_number(value),
        mistakes,
    }
}

pub(super) fn size_part(label: &str, value: f64, n: Size, mut extra: Vec<Mistake>) -> Numeric {
    extra.extend(mistakes(
        MistakeKind::BitsAsBytes,
        &mk::bits_as_bytes(value),
    ));
    extra.extend(mistakes(MistakeKind::MbAsMib, &mk::mb_as_mib(value)));
    Numeric {
        label: label.into(),
        value,
        kind: Kind::Size,
        unit: n.unit(),
        tolerance: Tolerance::HALF_PERCENT,
        shown: fmt_size(value, n.prefix),
        mistakes: extra,
    }
}

pub(super) fn question(title: &str, text: String, parts: Vec<Numeric>, hint: &str) -> Question {
    Question {
        id: String::new(),
        title: title.into(),
        text,
        answer: Answer::Numeric(parts),
        hint: hint.into(),
        solution: Vec::new(),
        link: None,
    }
}

/// The unit a time answer is asked in: µs below 1 ms, else ms.
pub(super) fn time_unit(t: f64) -> Unit {
    if t < 1e-3 {
        Unit {
            symbol: "µs",
            factor: 1e-6,
        }
    } else {
        Unit {
            symbol: "ms",
            factor: 1e-3,
        }
    }
}

/// K of the ZeRO questions: mixed-precision Adam's bytes of optimizer
/// state per parameter (Rajbhandari et al. 2020, §3.1).
pub(super) const ADAM_K: f64 = 12.0;

/// A size in GB (the memory and traffic questions' unit).
pub(super) fn gb_part(label: &str, value: f64, mut extra: Vec<Mistake>) -> Numeric {
    extra.extend(mistakes(
        MistakeKind::BitsAsBytes,
        &mk::bits_as_bytes(value),
    ));
    Numeric {
        label: label.into(),
        value,
        kind: Kind::Size,
        unit: Unit {
            symbol: "GB",
            factor: 1e9,
        },
        tolerance: Tolerance::HALF_PERCENT,
        shown: format_decimal(value),
        mistakes: extra,
    }
}
