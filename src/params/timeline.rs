//! URL parameters of the `timeline` view:
//! `?view=timeline&alg=ring&p=4&size=100MB&bw=12.5GB/s&alpha=0us&late=2:5ms&mode=both&t=5ms`.
//!
//! - `alg`: a registry key ([`Algorithm::key`]); the topology view's
//!   `alg=flat` means `ring`.
//! - `p`, `size`, `bw`, `alpha` as in the ring view; `gamma` (γ, time per
//!   byte, default 0).
//! - The topology view's shape and links (`nodes`, `gpus`, `groups`,
//!   `racks`, `lanes`, `intra_bw`, `intra_alpha`, `inter_bw`,
//!   `inter_alpha`, `core_bw`), parsed by [`TopologyParams::set_field`];
//!   when any is given the job runs on those nodes (and `p` follows them),
//!   else on the flat topology.
//! - `segments` (k ≥ 1 pieces per message), `mode` (`both`, `dataflow`,
//!   `lockstep`), `t` (the time cursor, with a unit).
//! - Faults: `late=RANK:TIME,…`, `slow=RANK:FACTOR,…` (0 < FACTOR ≤ 1),
//!   `fail=RANK@TIME,…`; `-` or `none` clears a list. Ranks are checked
//!   against `p` with [`Faults::check`].

use super::cost::parse_per_byte;
use super::fields::Field;
use super::ring::{course_bw, read_link_fields, LinkFields, LinkMut};
use super::topology::TopologyParams;
use super::{parse_int_in, FieldError, Query};
use crate::core::collectives::{flat, Algorithm};
use crate::core::timing::clock::{Faults, Mode};
use crate::core::topology::{Link, Topology};
use crate::core::units::{parse_time, Bandwidth};

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &[
    "title",
    "controls",
    "failure",
    "contrast",
    "steps",
    "charts",
    "summary",
    "pipelining",
];

/// Largest p (ring at 256 ranks: 130 560 messages).
pub const MAX_P: u64 = 256;
/// Largest number of segments.
pub const MAX_SEGMENTS: u64 = 1024;

/// The topology view's keys this view takes (shape and links).
pub const SHAPE_KEYS: [&str; 10] = [
    "nodes",
    "gpus",
    "groups",
    "racks",
    "intra_bw",
    "intra_alpha",
    "inter_bw",
    "inter_alpha",
    "core_bw",
    "lanes",
];

/// Which clocks are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ModeChoice {
    /// Lock-step and dataflow side by side.
    #[default]
    Both,
    /// One of them.
    One(Mode),
}

impl ModeChoice {
    /// URL value.
    pub fn key(self) -> &'static str {
        match self {
            ModeChoice::Both => "both",
            ModeChoice::One(m) => m.key(),
        }
    }

    /// The modes shown, dataflow first.
    pub fn modes(self) -> Vec<Mode> {
        match self {
            ModeChoice::Both => vec![Mode::Dataflow, Mode::LockStep],
            ModeChoice::One(m) => vec![m],
        }
    }
}

/// A fault list as typed and as read.
pub type FaultField = Field<Vec<(usize, f64)>>;

/// Parameters of the timeline view.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineParams {
    /// The algorithm on the clock.
    pub alg: Algorithm,
    /// Ranks on the flat topology (the shape's ranks when `shape` is set).
    pub p: usize,
    /// Tensor size in bytes (a whole number of f32 elements).
    pub size: Field<u64>,
    /// Link bandwidth (flat topology).
    pub bw: Field<Bandwidth>,
    /// Start-up latency α, seconds (flat topology).
    pub alpha: Field<f64>,
    /// Reduction cost γ, seconds per byte.
    pub gamma: Field<f64>,
    /// Nodes, racks and links from the topology view's parameters.
    pub shape: Option<TopologyParams>,
    /// Pieces per message, ≥ 1.
    pub segments: usize,
    /// `late=RANK:TIME,…`.
    pub late: FaultField,
    /// `slow=RANK:FACTOR,…`.
    pub slow: FaultField,
    /// `fail=RANK@TIME,…`.
    pub fail: FaultField,
    /// Which clocks are shown.
    pub mode: ModeChoice,
    /// The time cursor, seconds.
    pub t: Field<f64>,
}

fn empty_list() -> FaultField {
    Field::new("", Vec::new())
}

impl Default for TimelineParams {
    /// The course's ring: p = 4, 100 MB, 12.5 GB/s, α = 0, no faults.
    fn default() -> Self {
        TimelineParams {
            alg: Algorithm::RING,
            p: 4,
            size: Field::new("100MB", 100_000_000),
            bw: course_bw(),
            alpha: Field::new("0us", 0.0),
            gamma: Field::new("0ns/B", 0.0),
            shape: None,
            segments: 1,
            late: empty_list(),
            slow: empty_list(),
            fail: empty_list(),
            mode: ModeChoice::Both,
            t: Field::new("0ms", 0.0),
        }
    }
}

impl LinkFields for TimelineParams {
    fn link_mut(&mut self) -> LinkMut<'_> {
        (&mut self.p, &mut self.size, &mut self.bw, &mut self.alpha)
    }
    fn clamp_step(&mut self) {}
}

/// Parses the `alg` field: a registry key, or `flat` (the ring).
///
/// # Errors
/// A [`FieldError`] for `alg` listing the keys.
pub fn parse_alg(raw: &str) -> Result<Algorithm, FieldError> {
    if raw.trim().eq_ignore_ascii_case("flat") {
        return Ok(Algorithm::RING);
    }
    super::collectives::parse_alg(raw)
}

/// Parses one fault list: `late`/`fail` take times, `slow` factors;
/// `late` and `slow` separate rank and value with `:`, `fail` with `@`.
///
/// # Errors
/// A [`FieldError`] for the field with the expected form.
pub fn parse_faults(name: &'static str, raw: &str) -> Result<FaultField, FieldError> {
    let (sep, example) = match name {
        "fail" => ('@', "2@3ms"),
        "slow" => (':', "1:0.5"),
        _ => (':', "2:5ms"),
    };
    let t = raw.trim();
    if t.is_empty() || t == "-" || t.eq_ignore_ascii_case("none") {
        return Ok(empty_list());
    }
    let bad = |why: String| {
        FieldError::new(
            name,
            format!("{name} must be RANK{sep}VALUE pairs separated by commas, e.g. {name}={example} ({why})"),
        )
    };
    let mut out = Vec::new();
    for part in t.split(',') {
        let (r, v) = part
            .split_once(sep)
            .ok_or_else(|| bad(format!("“{}” has no “{sep}”", part.trim())))?;
        let rank: usize = r
            .trim()
            .parse()
            .map_err(|_| bad(format!("“{}” is not a rank", r.trim())))?;
        let value = if name == "slow" {
            crate::core::units::decimal::parse(v.trim())
                .ok_or(())
                .map_err(|_| bad(format!("“{}” is not a number", v.trim())))?
        } else {
            parse_time(v).map_err(|e| FieldError::new(name, format!("{name}: {e}")))?
        };
        if name != "slow" && value > 3600.0 {
            return Err(FieldError::new(
                name,
                format!("{name}: times must be at most 1 h"),
            ));
        }
        out.push((rank, value));
    }
    Ok(Field {
        text: t.to_string(),
        value: out,
    })
}

impl TimelineParams {
    /// The late, slow and failed ranks.
    pub fn faults(&self) -> Faults {
        Faults {
            late: self.late.value.clone(),
            slow: self.slow.value.clone(),
            fail: self.fail.value.clone(),
        }
    }

    /// Tensor length in f32 elements.
    pub fn elements(&self) -> u64 {
        self.size.value / super::ring::ELEM_BYTES
    }

    /// The topology the clock runs on: the shape's nodes, or `p` flat ranks
    /// with `alpha` and `bw`.
    pub fn topology(&self) -> Topology {
        match &self.shape {
            Some(s) => s.topology().unwrap_or_else(|_| flat(s.p())),
            None => Topology::flat(self.p, self.alpha.value, self.bw.value.beta()),
        }
    }

    /// The link of the flat case (for the α and β shown).
    pub fn flat_link(&self) -> Link {
        Link::from_beta(self.alpha.value, self.bw.value.beta())
    }

    fn check_list(&self, name: &'static str, list: &FaultField) -> Result<(), FieldError> {
        let mut f = Faults::default();
        match name {
            "late" => f.late.clone_from(&list.value),
            "slow" => f.slow.clone_from(&list.value),
            _ => f.fail.clone_from(&list.value),
        }
        f.check(self.p)
            .map_err(|e| FieldError::new(name, e.to_string()))
    }

    /// Builds the parameters from a query; each bad field keeps its value
    /// from `base` and yields a [`FieldError`].
    pub fn from_query(q: &Query, base: &TimelineParams) -> (TimelineParams, Vec<FieldError>) {
        let mut out = base.clone();
        let mut errs = Vec::new();
        if let Some(raw) = q.get("alg") {
            match parse_alg(raw) {
                Ok(a) => out.alg = a,
                Err(e) => errs.push(e),
            }
        }
        read_link_fields(q, &mut out, MAX_P, &mut errs);
        if SHAPE_KEYS.iter().any(|k| q.get(k).is_some()) {
            let mut shape = out.shape.clone().unwrap_or_default();
            let mut any_ok = out.shape.is_some();
            for key in SHAPE_KEYS {
                if let Some(raw) = q.get(key) {
                    match shape.set_field(key, raw) {
                        Ok(()) => any_ok = true,
                        Err(e) => errs.push(e),
                    }
                }
            }
            if any_ok {
                out.shape = Some(shape);
            }
        }
        if let Some(s) = &out.shape {
            out.p = s.p();
        }
        if let Some(raw) = q.get("gamma") {
            match parse_per_byte("gamma", raw, true) {
                Ok(g) => out.gamma = g,
                Err(e) => errs.push(e),
            }
        }
        if let Some(raw) = q.get("segments") {
            match parse_int_in("segments", raw, 1, MAX_SEGMENTS) {
                Ok(k) => out.segments = k as usize,
                Err(e) => errs.push(e),
            }
        }
        out.read_faults(q, base, &mut errs);
        if let Some(raw) = q.get("mode") {
            match raw.trim().to_ascii_lowercase().as_str() {
                "both" => out.mode = ModeChoice::Both,
                "dataflow" => out.mode = ModeChoice::One(Mode::Dataflow),
                "lockstep" | "lock-step" => out.mode = ModeChoice::One(Mode::LockStep),
                other => errs.push(FieldError::new(
                    "mode",
                    format!("mode must be both, dataflow or lockstep (got “{other}”)"),
                )),
            }
        }
        if let Some(raw) = q.get("t") {
            match parse_time(raw) {
                Ok(v) if v <= 3600.0 => out.t = Field::new(raw.trim(), v),
                Ok(_) => errs.push(FieldError::new("t", "t must be at most 1 h")),
                Err(e) => errs.push(FieldError::new("t", format!("t: {e}"))),
            }
        }
        (out, errs)
    }

    /// Reads `late`, `slow` and `fail`; when `p` shrank below a listed rank,
    /// `p` goes back to `base`'s with a message.
    fn read_faults(&mut self, q: &Query, base: &TimelineParams, errs: &mut Vec<FieldError>) {
        for name in ["late", "slow", "fail"] {
            let Some(raw) = q.get(name) else { continue };
            let parsed =
                parse_faults(name, raw).and_then(|l| self.check_list(name, &l).map(|()| l));
            match parsed {
                Ok(l) => match name {
                    "late" => self.late = l,
                    "slow" => self.slow = l,
                    _ => self.fail = l,
                },
                Err(e) => errs.push(e),
            }
        }
        if let Err(e) = self.faults().check(self.p) {
            let field = if self.shape.is_some() { "nodes" } else { "p" };
            errs.push(FieldError::new(
                field,
                format!("{e}: clear that fault first"),
            ));
            self.p = base.p;
            self.shape.clone_from(&base.shape);
        }
    }

    /// The canonical query pairs (without `view`).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![("alg", self.alg.key().to_string())];
        match &self.shape {
            Some(s) => v.extend(
                s.to_pairs()
                    .into_iter()
                    .filter(|(k, _)| SHAPE_KEYS.contains(k)),
            ),
            None => v.push(("p", self.p.to_string())),
        }
        v.extend([
            ("size", self.size.text.clone()),
            ("bw", self.bw.text.clone()),
            ("alpha", self.alpha.text.clone()),
        ]);
        if self.gamma.value != 0.0 {
            v.push(("gamma", self.gamma.text.clone()));
        }
        if self.segments != 1 {
            v.push(("segments", self.segments.to_string()));
        }
        for (k, f) in [
            ("late", &self.late),
            ("slow", &self.slow),
            ("fail", &self.fail),
        ] {
            if !f.value.is_empty() {
                v.push((k, f.text.clone()));
            }
        }
        v.push(("mode", self.mode.key().to_string()));
        v.push(("t", self.t.text.clone()));
        v
    }
}

/// The timeline of a flat case (the ring and collectives views' link):
/// `?view=timeline&alg=…&p=…&size=…&bw=…&alpha=…`; `alg=flat` is `ring`.
pub fn link(alg: &str, p: usize, size: &str, bw: &str, alpha: &str) -> String {
    let alg = if alg == "flat" { "ring" } else { alg };
    let pairs = [
        ("view", "timeline".to_string()),
        ("alg", alg.to_string()),
        ("p", p.to_string()),
        ("size", size.to_string()),
        ("bw", bw.to_string()),
        ("alpha", alpha.to_string()),
    ];
    format!("?{}", super::encode(&pairs))
}

/// The timeline of the topology view's case: its algorithm (`flat` is
/// `ring`), shape, links and size.
pub fn link_from_topology(t: &TopologyParams) -> String {
    let alg = match t.alg.key() {
        "flat" => "ring",
        k => k,
    };
    let size = match &t.size {
        super::topology::TensorSize::Bytes(f) => f.text.clone(),
        super::topology::TensorSize::Elements(n) => format!("{}B", n * super::ring::ELEM_BYTES),
    };
    let mut pairs = vec![("view", "timeline".to_string()), ("alg", alg.to_string())];
    pairs.extend(
        t.to_pairs()
            .into_iter()
            .filter(|(k, _)| SHAPE_KEYS.contains(k)),
    );
    pairs.push(("size", size));
    format!("?{}", super::encode(&pairs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::testing;

    fn parse(s: &str) -> (TimelineParams, Vec<FieldError>) {
        testing::parse(s)
    }

    #[test]
    fn issue_urls_parse() {
        let (p, e) = parse("alg=ring&p=4&size=100MB&bw=12.5GB/s&alpha=0us&late=2:5ms");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.faults().late, vec![(2, 0.005)]);
        let (p, e) = parse("fail=2@3ms&slow=1:0.5,3:1&segments=8&mode=dataflow&t=4ms");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.faults().fail, vec![(2, 0.003)]);
        assert_eq!(p.faults().slow, vec![(1, 0.5), (3, 1.0)]);
        assert_eq!((p.segments, p.mode), (8, ModeChoice::One(Mode::Dataflow)));
        assert!((p.t.value - 0.004).abs() < 1e-15);
        let (p, e) = parse("alg=flat");
        assert!(e.is_empty());
        assert_eq!(p.alg, Algorithm::RING);
    }

    #[test]
    fn topology_params_shape_the_job() {
        let (p, e) = parse("alg=hier&nodes=2&gpus=4&intra_bw=300GB/s&lanes=2");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.p, 8);
        assert_eq!(p.topology().p(), 8);
        assert_eq!(p.topology().lanes(), 2);
        let again = testing::reparse(&p);
        assert_eq!(again, p);
    }

    #[test]
    fn round_trips() {
        for alg in Algorithm::all() {
            let url = format!(
                "alg={}&p=8&size=64MB&late=1:2ms,3:1us&slow=2:0.25&fail=5@1ms&segments=4&gamma=0.01ns/B&t=1ms",
                alg.key()
            );
            let (p, e) = parse(&url);
            assert!(e.is_empty(), "{url}: {e:?}");
            assert_eq!(testing::reparse(&p), p);
        }
    }

    #[test]
    fn bad_values_keep_a_valid_state() {
        testing::each_keeps_defaults::<TimelineParams>(&[
            "alg=bogus",
            "p=1",
            "p=257",
            "late=9:1ms",
            "late=2-5ms",
            "late=2:5parsecs",
            "late=2:1ms,2:3ms",
            "slow=1:2",
            "slow=1:0",
            "slow=1:x",
            "fail=2:3ms",
            "fail=x@3ms",
            "segments=0",
            "segments=x",
            "mode=fast",
            "t=-1ms",
            "t=abc",
            "gamma=-1ns/B",
            "nodes=0",
        ]);
        let (_, e) = parse("late=9:1ms");
        assert!(e[0].message.contains("rank 9"), "{e:?}");
        let (_, e) = parse("slow=1:2");
        assert!(e[0].message.contains("at most 1"), "{e:?}");
        // p shrinking below a listed rank is refused and p stays.
        let (base, _) = parse("p=8&late=6:1ms");
        let (next, e) = TimelineParams::from_query(&Query::parse("p=4"), &base);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].field, "p");
        assert_eq!(next.p, 8);
    }

    #[test]
    fn links_from_the_other_views_open_their_case() {
        let l = link("flat", 4, "100MB", "12.5GB/s", "0us");
        assert_eq!(
            l,
            "?view=timeline&alg=ring&p=4&size=100MB&bw=12.5GB%2Fs&alpha=0us"
        );
        let (p, e) = parse(&l);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!((p.alg, p.p), (Algorithm::RING, 4));
        let topo = TopologyParams::default();
        let (p, e) = parse(&link_from_topology(&topo));
        assert!(e.is_empty(), "{e:?}");
        assert_eq!((p.alg, p.p, p.size.value), (Algorithm::HIER, 8, 64_000_000));
        assert_eq!(p.topology(), topo.topology().expect("valid"));
    }

    #[test]
    fn clearing_a_list() {
        let (base, _) = parse("late=2:5ms");
        let (next, e) = TimelineParams::from_query(&Query::parse("late=-"), &base);
        assert!(e.is_empty());
        assert!(next.faults().is_empty());
        assert!(!next.to_pairs().iter().any(|(k, _)| *k == "late"));
    }
}
