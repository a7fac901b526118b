//! URL parameters of the `collectives` view:
//! `?view=collectives&alg=rab&p=8&size=64MB&step=0&bw=12.5GB/s&alpha=5us`.
//!
//! `alg` is a registry key ([`Algorithm::key`], every entry of
//! the registry, [`Algorithm::all`]); `size` is a whole number
//! of 4-byte f32 elements, parsed as in the ring view; `step` is clamped to
//! the schedule's rounds. `gpus` (ranks per node, must divide `p`) shapes the
//! nodes of the hierarchical algorithms only; it appears in the URL when the
//! algorithm uses nodes.

use super::fields::Field;
use super::ring::{course_bw, read_link_fields, LinkFields, LinkMut, ELEM_BYTES};
use super::{parse_int_in, FieldError, Query};
use crate::core::collectives::{flat, nodes_of, Algorithm};
use crate::core::topology::Topology;
use crate::core::units::Bandwidth;

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &[
    "title", "controls", "phases", "steps", "picture", "counters", "log", "check", "formula",
    "gossip", "summary",
];

/// Largest p the collectives view animates.
pub const MAX_P: u64 = 64;

/// Parameters of the collectives view.
#[derive(Clone, Debug, PartialEq)]
pub struct CollectivesParams {
    /// The algorithm animated.
    pub alg: Algorithm,
    /// Number of ranks, 2..=[`MAX_P`]; non-powers of two are folded.
    pub p: usize,
    /// Ranks per node for the hierarchical algorithms; divides `p`.
    pub gpus: usize,
    /// Step shown: 0 = inputs, k = after round k.
    pub step: usize,
    /// Tensor size in bytes (a whole number of f32 elements).
    pub size: Field<u64>,
    /// Link bandwidth; β = 1 / bandwidth.
    pub bw: Field<Bandwidth>,
    /// Start-up latency α, seconds.
    pub alpha: Field<f64>,
}

/// The default ranks per node for `p` ranks: the largest of 4, 2, 1 that
/// divides `p`.
pub fn default_gpus(p: usize) -> usize {
    [4, 2, 1]
        .into_iter()
        .find(|g| p.is_multiple_of(*g))
        .unwrap_or(1)
}

/// Parses `gpus` (ranks per node) for `p` ranks.
///
/// # Errors
/// A [`FieldError`] for field `gpus` when it is not a whole number from 1 to
/// `p` that divides `p`.
pub fn parse_gpus(raw: &str, p: usize) -> Result<usize, FieldError> {
    let g = parse_int_in("gpus", raw, 1, p as u64)? as usize;
    if p.is_multiple_of(g) {
        Ok(g)
    } else {
        Err(FieldError::new(
            "gpus",
            format!("gpus (ranks per node) must divide p = {p} (got {g})"),
        ))
    }
}

impl LinkFields for CollectivesParams {
    fn link_mut(&mut self) -> LinkMut<'_> {
        (&mut self.p, &mut self.size, &mut self.bw, &mut self.alpha)
    }
    fn clamp_step(&mut self) {
        if !self.p.is_multiple_of(self.gpus.max(1)) {
            self.gpus = default_gpus(self.p);
        }
        self.step = self.step.min(self.last_step());
    }
}

impl Default for CollectivesParams {
    /// Rabenseifner at p = 8 on 64 MB with the course's §9 link (α = 5 µs,
    /// 12.5 GB/s, i.e. β = 0.08 ns/B).
    fn default() -> Self {
        CollectivesParams {
            alg: Algorithm::RAB,
            p: 8,
            size: Field::new("64MB", 64_000_000),
            step: 0,
            bw: course_bw(),
            alpha: Field::new("5us", 5e-6),
            gpus: 4,
        }
    }
}

/// Parses the `alg` field.
///
/// # Errors
/// A [`FieldError`] for field `alg` listing the accepted values.
pub fn parse_alg(raw: &str) -> Result<Algorithm, FieldError> {
    Algorithm::from_key(raw).ok_or_else(|| {
        let all: Vec<_> = Algorithm::all().map(|a| a.key()).collect();
        FieldError::new(
            "alg",
            format!(
                "alg must be one of {} (got “{}”)",
                all.join(", "),
                raw.trim()
            ),
        )
    })
}

impl CollectivesParams {
    /// Tensor length in f32 elements.
    pub fn elements(&self) -> u64 {
        self.size.value / ELEM_BYTES
    }

    /// Number of rounds of the current schedule: the last step (from the
    /// closed form, without generating the schedule; see
    /// [`crate::core::collectives::Algorithm::rounds_on`]).
    pub fn last_step(&self) -> usize {
        self.alg.rounds_on(&self.topology())
    }

    /// The job's shape: `p / gpus` nodes of `gpus` ranks (only the
    /// hierarchical algorithms look at nodes; timing stays flat).
    pub fn topology(&self) -> Topology {
        match self.gpus {
            g if g >= 1 && self.p.is_multiple_of(g) => {
                nodes_of(self.p / g, g).unwrap_or_else(|_| flat(self.p))
            }
            _ => flat(self.p),
        }
    }

    /// Builds the parameters from a query; each bad field keeps its value
    /// from `base` and yields a [`FieldError`].
    pub fn from_query(q: &Query, base: &CollectivesParams) -> (CollectivesParams, Vec<FieldError>) {
        let mut out = base.clone();
        let mut errs = Vec::new();
        if let Some(raw) = q.get("alg") {
            match parse_alg(raw) {
                Ok(a) => out.alg = a,
                Err(e) => errs.push(e),
            }
        }
        read_link_fields(q, &mut out, MAX_P, &mut errs);
        if !out.p.is_multiple_of(out.gpus.max(1)) {
            out.gpus = default_gpus(out.p);
        }
        if let Some(raw) = q.get("gpus") {
            match parse_gpus(raw, out.p) {
                Ok(g) => out.gpus = g,
                Err(e) => errs.push(e),
            }
        }
        let last = out.last_step();
        if let Some(raw) = q.get("step") {
            match parse_int_in("step", raw, 0, last as u64) {
                Ok(v) => out.step = v as usize,
                Err(e) => errs.push(e),
            }
        }
        out.step = out.step.min(last);
        (out, errs)
    }

    /// The canonical query pairs (without `view`).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![
            ("alg", self.alg.key().to_string()),
            ("p", self.p.to_string()),
            ("size", self.size.text.clone()),
            ("step", self.step.to_string()),
            ("bw", self.bw.text.clone()),
            ("alpha", self.alpha.text.clone()),
        ];
        if self.alg.needs_nodes() {
            v.push(("gpus", self.gpus.to_string()));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::testing;

    #[test]
    fn issue_url_parses() {
        let (p, e) = parse("view=collectives&alg=rab&p=8&size=64MB&step=6");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.alg, Algorithm::RAB);
        assert_eq!((p.p, p.size.value, p.step), (8, 64_000_000, 6));
        assert_eq!(p.elements(), 16_000_000);
        // 3 halving + 3 doubling rounds.
        assert_eq!(p.last_step(), 6);
    }

    #[test]
    fn rd_p6_has_fold_rounds() {
        // fold-in + 2 exchanges on 4 ranks + unfold.
        let (p, e) = parse("alg=RD&p=6&step=4");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.alg, Algorithm::RD);
        assert_eq!((p.last_step(), p.step), (4, 4));
    }

    #[test]
    fn round_trips_every_algorithm() {
        for alg in Algorithm::all() {
            // step 3, or the last step of a shorter schedule (linear: 1)
            let step = alg.rounds_on(&crate::core::collectives::flat(12)).min(3);
            let url = format!(
                "alg={}&p=12&size=64MiB&step={step}&bw=100Gb/s&alpha=2us",
                alg.key()
            );
            let (p, e) = parse(&url);
            assert!(e.is_empty(), "{url}: {e:?}");
            let again = testing::reparse(&p);
            assert_eq!(p, again);
            assert_eq!(again.alg, alg);
            assert_eq!(again.size.value, 64 << 20);
        }
    }

    #[test]
    fn bad_values_keep_a_valid_state() {
        testing::each_keeps_defaults::<CollectivesParams>(&[
            "alg=bogus",
            "p=1",
            "p=65",
            "p=x",
            "size=12parsecs",
            "size=10B",
            "bw=fast",
            "alpha=-1ms",
            "step=7",
        ]);
        let (_, e) = parse("alg=bogus");
        assert_eq!(e[0].field, "alg");
        // every registry key, in registry order
        let keys: Vec<_> = Algorithm::all().map(|a| a.key()).collect();
        assert!(e[0].message.contains(&keys.join(", ")));
        let (_, e) = parse("p=65");
        assert!(e[0].message.contains("from 2 to 64"));
    }

    #[test]
    fn gpus_shapes_the_hierarchical_nodes() {
        // p = 8, 2 ranks per node: 4 nodes; tree reduce 1 round, leaders'
        // ring 2(4 − 1) = 6 rounds, broadcast 1 round.
        let (p, e) = parse("alg=hier&p=8&gpus=2");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!((p.gpus, p.last_step()), (2, 8));
        assert_eq!(p.to_pairs().last(), Some(&("gpus", "2".to_string())));
        let again = testing::reparse(&p);
        assert_eq!(again, p);
        // Defaults: the largest of 4, 2, 1 dividing p.
        assert_eq!(
            (default_gpus(8), default_gpus(6), default_gpus(7)),
            (4, 2, 1)
        );
        let (p, _) = parse("alg=hier&p=6");
        assert_eq!(p.gpus, 2);
        // gpus must divide p; the last good value stays.
        let (p, e) = parse("alg=hier&p=8&gpus=3");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].field, "gpus");
        assert_eq!(
            e[0].message,
            "gpus (ranks per node) must divide p = 8 (got 3)"
        );
        assert_eq!(p.gpus, 4);
        let (_, e) = parse("gpus=0");
        assert_eq!(e[0].field, "gpus");
    }

    #[test]
    fn step_is_clamped_when_the_schedule_shrinks() {
        // Ring at p = 8 has 14 rounds; switching the base to rd (3 rounds)
        // clamps step 10 to 3.
        let (ring, e) = parse("alg=ring&step=10");
        assert!(e.is_empty());
        assert_eq!(ring.step, 10);
        let (rd, e) = CollectivesParams::from_query(&Query::parse("alg=rd"), &ring);
        assert!(e.is_empty());
        assert_eq!(rd.step, 3);
    }

    fn parse(s: &str) -> (CollectivesParams, Vec<FieldError>) {
        testing::parse(s)
    }
}
