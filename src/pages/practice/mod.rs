//! `?view=practice`: which questions the practice page shows, and the hint
//! under an answer box. The questions, their answers and the feedback are
//! the core's ([`crate::core::practice`]).

#[cfg(test)]
mod tests;

use crate::core::practice::{questions, Kind, Numeric, Question, Set};
use crate::params::practice::PracticeParams;

/// The questions the parameters select, with the number shown for each.
/// (An embedded one-template drill shows one question.)
pub fn select(p: &PracticeParams, embed: bool) -> Vec<(usize, Question)> {
    let all: Vec<(usize, Question)> = questions(p.set, p.template, p.seed)
        .into_iter()
        .enumerate()
        .map(|(i, q)| (i + 1, q))
        .collect();
    match (p.set, p.number, p.template) {
        (Set::Course, Some(n), _) => all.into_iter().filter(|(k, _)| *k == n).collect(),
        (Set::Drill, _, Some(_)) if embed => all.into_iter().take(1).collect(),
        _ => all,
    }
}

/// What a bare number means, shown under the box: "in MB, or with a unit".
pub fn unit_hint(part: &Numeric) -> String {
    match part.kind {
        Kind::Number => "a plain number".into(),
        _ => format!("in {}, or with any unit of the same kind", part.unit.symbol),
    }
}
