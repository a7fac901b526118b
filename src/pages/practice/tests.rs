//! The practice page's selection and hints.

use super::{select, unit_hint};
use crate::core::practice::{Answer, Set, Template};
use crate::params::practice::PracticeParams;
use crate::params::Query;

fn params(query: &str) -> PracticeParams {
    let (p, errors) = PracticeParams::from_query(&Query::parse(query), &PracticeParams::default());
    assert!(errors.is_empty(), "{errors:?}");
    p
}

#[test]
fn the_course_set_has_eight_questions_and_one_can_be_picked() {
    let all = select(&params("set=course"), false);
    let numbers: Vec<usize> = all.iter().map(|(n, _)| *n).collect();
    assert_eq!(numbers, (1..=8).collect::<Vec<_>>());
    let third = select(&params("set=course&q=3"), false);
    assert_eq!(third.len(), 1);
    assert_eq!(third[0].0, 3);
    assert_eq!(third[0].1.id, "course-3");
}

#[test]
fn an_embedded_drill_shows_one_question() {
    let p = PracticeParams {
        set: Set::Drill,
        template: Some(Template::RingRounds),
        ..params("")
    };
    assert_eq!(select(&p, false).len(), crate::core::practice::DRILL_COUNT);
    assert_eq!(select(&p, true).len(), 1);
}

#[test]
fn a_plain_number_needs_no_unit() {
    let q = &select(&params("set=course"), false);
    let parts: Vec<_> = q
        .iter()
        .filter_map(|(_, q)| match &q.answer {
            Answer::Numeric(parts) => Some(parts.clone()),
            _ => None,
        })
        .flatten()
        .collect();
    let sized = parts
        .iter()
        .find(|p| !p.unit.symbol.is_empty())
        .expect("a part with a unit");
    assert_eq!(
        unit_hint(sized),
        format!(
            "in {}, or with any unit of the same kind",
            sized.unit.symbol
        )
    );
    let plain = parts
        .iter()
        .find(|p| p.kind == crate::core::practice::Kind::Number)
        .expect("the weighted loss is a plain number");
    assert_eq!(unit_hint(plain), "a plain number");
}
