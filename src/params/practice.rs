//! URL parameters of the `practice` view:
//! `?view=practice&set=course&q=5&reveal=1` or
//! `?view=practice&set=drill&q=ring-bytes&seed=42`.
//!
//! - `set`: `course` (the course's eight questions, default) or `drill`
//!   (generated variants);
//! - `q`: with `set=course` a question number 1–8 (that question alone);
//!   with `set=drill` a template key (`loss`, `dsgd`, `ring-rounds`,
//!   `ring-bytes`, `recursive`, `time`, `crossover`, `rho`, `busbw`);
//!   without it a drill has one question of each template;
//! - `seed`: the drill's seed, a whole number (default 1): the same seed
//!   always gives the same questions;
//! - `reveal=1`: the teacher's answer key, every answer and calculation shown.

use super::{parse_int_in, FieldError, Query};
use crate::core::practice::{Set, Template};

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &["title", "settings", "score", "questions"];

/// Largest accepted seed.
pub const MAX_SEED: u64 = 1_000_000_000_000;

/// Parameters of the practice view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PracticeParams {
    /// Which questions.
    pub set: Set,
    /// One course question (1-based), with `set=course`.
    pub number: Option<usize>,
    /// The drill template, with `set=drill`.
    pub template: Option<Template>,
    /// Drill seed.
    pub seed: u64,
    /// Show every answer and calculation.
    pub reveal: bool,
}

impl Default for PracticeParams {
    fn default() -> Self {
        PracticeParams {
            set: Set::Course,
            number: None,
            template: None,
            seed: 1,
            reveal: false,
        }
    }
}

/// The accepted `q` values of a drill, for messages.
fn template_keys() -> String {
    Template::ALL
        .iter()
        .map(|t| t.key())
        .collect::<Vec<_>>()
        .join(", ")
}

impl PracticeParams {
    /// Reads the parameters from `q`; a bad field keeps its value from `base`.
    pub fn from_query(q: &Query, base: &Self) -> (Self, Vec<FieldError>) {
        let mut p = base.clone();
        let mut errs = Vec::new();
        if let Some(raw) = q.get("set") {
            match Set::parse(raw) {
                Some(s) => p.set = s,
                None => errs.push(FieldError::new(
                    "set",
                    format!("set must be course or drill (got “{raw}”)"),
                )),
            }
        }
        if let Some(raw) = q.get("seed") {
            match parse_int_in("seed", raw, 0, MAX_SEED) {
                Ok(v) => p.seed = v,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("q") {
            match p.set {
                Set::Course => match parse_int_in("q", raw, 1, 8) {
                    Ok(v) => {
                        p.number = Some(v as usize);
                        p.template = None;
                    }
                    Err(_) => errs.push(FieldError::new(
                        "q",
                        format!("q must be a course question number from 1 to 8 (got “{raw}”)"),
                    )),
                },
                Set::Drill => match Template::from_key(raw) {
                    Some(t) => {
                        p.template = Some(t);
                        p.number = None;
                    }
                    None => errs.push(FieldError::new(
                        "q",
                        format!("q must be one of {} (got “{raw}”)", template_keys()),
                    )),
                },
            }
        }
        match p.set {
            Set::Course => p.template = None,
            Set::Drill => p.number = None,
        }
        p.reveal = q.flag("reveal");
        (p, errs)
    }

    /// The canonical query pairs.
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![("set", self.set.key().to_string())];
        if let Some(n) = self.number {
            v.push(("q", n.to_string()));
        }
        if let Some(t) = self.template {
            v.push(("q", t.key().to_string()));
        }
        if self.set == Set::Drill {
            v.push(("seed", self.seed.to_string()));
        }
        if self.reveal {
            v.push(("reveal", "1".into()));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::encode;

    fn parse(s: &str) -> (PracticeParams, Vec<FieldError>) {
        PracticeParams::from_query(&Query::parse(s), &PracticeParams::default())
    }

    #[test]
    fn drill_seed_and_template_round_trip() {
        let (p, errs) = parse("set=drill&q=ring-bytes&seed=42");
        assert!(errs.is_empty());
        assert_eq!(p.set, Set::Drill);
        assert_eq!(p.template, Some(Template::RingBytes));
        assert_eq!(p.seed, 42);
        let back = encode(&p.to_pairs());
        assert_eq!(back, "set=drill&q=ring-bytes&seed=42");
        assert_eq!(parse(&back).0, p);
    }

    #[test]
    fn course_question_and_reveal() {
        let (p, errs) = parse("set=course&q=5&reveal=1");
        assert!(errs.is_empty());
        assert_eq!((p.number, p.reveal), (Some(5), true));
        assert_eq!(encode(&p.to_pairs()), "set=course&q=5&reveal=1");
        assert_eq!(parse("").0, PracticeParams::default());
    }

    #[test]
    fn bad_values_keep_defaults_with_messages() {
        let (p, errs) = parse("set=quiz&q=99&seed=-3");
        assert_eq!(p, PracticeParams::default());
        let fields: Vec<&str> = errs.iter().map(|e| e.field).collect();
        assert_eq!(fields, vec!["set", "seed", "q"]);
        let (p, errs) = parse("set=drill&q=nonsense");
        assert_eq!((p.set, p.template), (Set::Drill, None));
        assert!(errs[0].message.contains("ring-bytes"));
    }
}
