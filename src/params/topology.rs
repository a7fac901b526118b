//! URL parameters of the `topology` view:
//! `?view=topology&alg=multilane&nodes=2&gpus=4&lanes=4&size=1GB&inter_bw=12.5GB/s&inter_alpha=0us`.
//!
//! - Shape: `nodes` (1–16), `gpus` (ranks per node, 1–16), `racks` (divides
//!   `nodes`), `groups=2,3` (unequal nodes: the worker count of each
//!   FlexReduce subtree; when given it replaces `nodes × gpus`).
//! - Size: `size` (bytes with units, a whole number of 4-byte f32 elements)
//!   or `n` (elements, for small teaching tensors such as 12).
//! - Links: `intra_bw`, `intra_alpha`, `inter_bw` (per NIC, per direction),
//!   `inter_alpha`, `core_bw` (rack core, per direction in aggregate), `lanes`
//!   (NICs per node, 1 to `gpus`).
//! - `alg` (one of [`Algorithm::on_topologies`], by its topology key)
//!   and `step`.
//!
//! Every field goes through [`TopologyParams::set_field`], whether it comes
//! from the URL or from an input: a bad value yields a [`FieldError`] and the
//! parameters keep their last good value.

use super::fields::{self, Field};
use super::ring::{parse_tensor_size, ELEM_BYTES};
use super::{parse_int_in, FieldError, Query};
use crate::core::collectives::Algorithm;
use crate::core::topology::{Link, Topology, TopologyError};
use crate::core::units::Bandwidth;

/// The view's panels in the page's order: the names `show=` takes
/// ([`super::embed::Embed`]).
pub const PANELS: &[&str] = &[
    "title", "presets", "controls", "steps", "picture", "legend", "round", "summary",
];

/// Largest node count.
pub const MAX_NODES: u64 = 16;
/// Largest number of ranks per node.
pub const MAX_GPUS: u64 = 16;
/// Largest element count typed as `n` (4 GB of f32).
pub const MAX_N: u64 = 1_000_000_000;
/// Largest step index accepted from the URL before clamping to the schedule.
pub const MAX_STEP: u64 = 100_000;

/// The view's default algorithm: the hierarchical all-reduce with a ring
/// among the node leaders (`hier`).
pub const DEFAULT_ALG: Algorithm = Algorithm::HIER;

/// The algorithm the view calls `key` ([`Algorithm::from_topology_key`]:
/// `flat` is the ring over all ranks); an unknown key falls back to
/// [`DEFAULT_ALG`]. Use [`Algorithm::from_topology_key`] for input.
pub fn named(key: &str) -> Algorithm {
    Algorithm::from_topology_key(key).unwrap_or(DEFAULT_ALG)
}

/// The tensor size, as typed: bytes with units, or a count of elements.
#[derive(Clone, Debug, PartialEq)]
pub enum TensorSize {
    /// `size=64MB`: bytes (a whole number of f32 elements).
    Bytes(Field<u64>),
    /// `n=12`: elements.
    Elements(u64),
}

impl TensorSize {
    /// Number of f32 elements.
    pub fn elements(&self) -> u64 {
        match self {
            TensorSize::Bytes(f) => f.value / ELEM_BYTES,
            TensorSize::Elements(n) => *n,
        }
    }

    /// Bytes of the whole tensor.
    pub fn bytes(&self) -> u64 {
        self.elements() * ELEM_BYTES
    }
}

/// Parameters of the topology view.
#[derive(Clone, Debug, PartialEq)]
pub struct TopologyParams {
    /// The algorithm stepped through.
    pub alg: Algorithm,
    /// Number of nodes (ignored when `groups` is given).
    pub nodes: usize,
    /// Ranks per node (ignored when `groups` is given).
    pub gpus: usize,
    /// Racks; divides the node count.
    pub racks: usize,
    /// Unequal node sizes (FlexReduce subtrees); empty = `nodes × gpus`.
    pub groups: Vec<usize>,
    /// Tensor size.
    pub size: TensorSize,
    /// Intra-node link bandwidth (per GPU port, per direction).
    pub intra_bw: Field<Bandwidth>,
    /// Intra-node start-up latency α, seconds.
    pub intra_alpha: Field<f64>,
    /// NIC bandwidth, per NIC and direction.
    pub inter_bw: Field<Bandwidth>,
    /// Inter-node start-up latency α, seconds (also across the core).
    pub inter_alpha: Field<f64>,
    /// Rack core bandwidth, per direction in aggregate (used when racks > 1).
    pub core_bw: Field<Bandwidth>,
    /// NICs per node, 1..=gpus.
    pub lanes: usize,
    /// Step shown: 0 = inputs, k = after round k (clamped by the view to
    /// the schedule's rounds).
    pub step: usize,
}

fn bw(text: &str, bps: f64) -> Field<Bandwidth> {
    Field {
        text: text.into(),
        value: Bandwidth {
            bytes_per_second: bps,
            typed_bits: false,
        },
    }
}

impl Default for TopologyParams {
    /// Hierarchical on illustrative figures, not a measured system: 2 nodes × 4 GPUs, an
    /// NVLink-class 300 GB/s intra-node link with α = 1 µs, one 12.5 GB/s
    /// (100 Gb/s) NIC per node with α = 5 µs, a 25 GB/s rack core, 64 MB.
    fn default() -> Self {
        TopologyParams {
            alg: DEFAULT_ALG,
            nodes: 2,
            gpus: 4,
            racks: 1,
            groups: Vec::new(),
            size: TensorSize::Bytes(Field {
                text: "64MB".into(),
                value: 64_000_000,
            }),
            intra_bw: bw("300GB/s", 300e9),
            intra_alpha: Field {
                text: "1us".into(),
                value: 1e-6,
            },
            inter_bw: bw("12.5GB/s", 12.5e9),
            inter_alpha: Field {
                text: "5us".into(),
                value: 5e-6,
            },
            core_bw: bw("25GB/s", 25e9),
            lanes: 1,
            step: 0,
        }
    }
}

/// The URL keys, in canonical order (also the field names of the inputs).
pub const KEYS: [&str; 14] = [
    "alg",
    "nodes",
    "gpus",
    "groups",
    "racks",
    "size",
    "n",
    "intra_bw",
    "intra_alpha",
    "inter_bw",
    "inter_alpha",
    "core_bw",
    "lanes",
    "step",
];

/// Parses `groups=2,3`: 1 to [`MAX_NODES`] worker counts, each 1 to [`MAX_GPUS`].
///
/// # Errors
/// A [`FieldError`] for field `groups` saying what is expected.
pub fn parse_groups(raw: &str) -> Result<Vec<usize>, FieldError> {
    let bad = |why: String| {
        FieldError::new(
            "groups",
            format!("groups must be worker counts separated by commas, e.g. 2,3 ({why})"),
        )
    };
    let t = raw.trim();
    if t.is_empty() || t == "-" {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for part in t.split(',') {
        let v: u64 = part
            .trim()
            .parse()
            .map_err(|_| bad(format!("“{}” is not a whole number", part.trim())))?;
        if v == 0 || v > MAX_GPUS {
            return Err(bad(format!(
                "each count must be from 1 to {MAX_GPUS}, got {v}"
            )));
        }
        out.push(v as usize);
    }
    if out.len() as u64 > MAX_NODES {
        return Err(bad(format!(
            "at most {MAX_NODES} groups, got {}",
            out.len()
        )));
    }
    Ok(out)
}

impl TopologyParams {
    /// Ranks on each node, in node order.
    pub fn node_sizes(&self) -> Vec<usize> {
        if self.groups.is_empty() {
            vec![self.gpus; self.nodes]
        } else {
            self.groups.clone()
        }
    }

    /// Number of nodes in use.
    pub fn node_count(&self) -> usize {
        if self.groups.is_empty() {
            self.nodes
        } else {
            self.groups.len()
        }
    }

    /// Total number of ranks.
    pub fn p(&self) -> usize {
        self.node_sizes().iter().sum()
    }

    /// Tensor length in f32 elements.
    pub fn elements(&self) -> u64 {
        self.size.elements()
    }

    /// The physical topology these parameters describe.
    ///
    /// # Errors
    /// [`TopologyError`] from [`Topology::unequal`] (not expected for
    /// parameters built by [`TopologyParams::set_field`]).
    pub fn topology(&self) -> Result<Topology, TopologyError> {
        Topology::unequal(
            self.node_sizes(),
            self.racks,
            self.lanes,
            Link::new(self.intra_alpha.value, self.intra_bw.value.bytes_per_second),
            Link::new(self.inter_alpha.value, self.inter_bw.value.bytes_per_second),
            self.core_bw.value.bytes_per_second,
        )
    }

    /// Checks the cross-field rules: p ≥ 2, racks divides the node count,
    /// lanes ≤ the smallest node.
    fn check_shape(&self, field: &'static str) -> Result<(), FieldError> {
        let p = self.p();
        if p < 2 {
            return Err(FieldError::new(
                field,
                format!("an all-reduce needs at least 2 ranks; this shape has {p}"),
            ));
        }
        let nodes = self.node_count();
        if self.racks == 0 || !nodes.is_multiple_of(self.racks) {
            return Err(FieldError::new(
                field,
                format!(
                    "racks ({}) must divide the {nodes} nodes evenly",
                    self.racks
                ),
            ));
        }
        Ok(())
    }

    /// Sets one field from `text`. `gpus` and `groups` lower `lanes` to fit
    /// the smallest node when needed.
    ///
    /// # Errors
    /// A [`FieldError`] naming the field; `self` is then unchanged.
    pub fn set_field(&mut self, field: &str, text: &str) -> Result<(), FieldError> {
        let mut next = self.clone();
        let smallest = |p: &TopologyParams| p.node_sizes().into_iter().min().unwrap_or(1);
        let Some(name) = KEYS.into_iter().find(|k| *k == field) else {
            return Ok(());
        };
        match name {
            "alg" => {
                next.alg = Algorithm::from_topology_key(text).ok_or_else(|| {
                    let all: Vec<_> = Algorithm::on_topologies()
                        .map(|a| a.topology_info().key)
                        .collect();
                    FieldError::new(
                        "alg",
                        format!(
                            "alg must be one of {} (got “{}”)",
                            all.join(", "),
                            text.trim()
                        ),
                    )
                })?;
            }
            "nodes" => {
                next.nodes = parse_int_in("nodes", text, 1, MAX_NODES)? as usize;
                next.groups.clear();
            }
            "gpus" => {
                next.gpus = parse_int_in("gpus", text, 1, MAX_GPUS)? as usize;
                next.groups.clear();
                next.lanes = next.lanes.min(next.gpus);
            }
            "racks" => {
                next.racks = parse_int_in("racks", text, 1, MAX_NODES)? as usize;
            }
            "groups" => {
                next.groups = parse_groups(text)?;
                next.lanes = next.lanes.min(smallest(&next));
            }
            "size" => {
                let f = parse_tensor_size(text)?;
                next.size = TensorSize::Bytes(f);
            }
            "n" => {
                next.size = TensorSize::Elements(parse_int_in("n", text, 1, MAX_N)?);
            }
            "intra_bw" => next.intra_bw = fields::bandwidth(name, text)?,
            "inter_bw" => next.inter_bw = fields::bandwidth(name, text)?,
            "core_bw" => next.core_bw = fields::bandwidth(name, text)?,
            "intra_alpha" => next.intra_alpha = fields::alpha(name, text)?,
            "inter_alpha" => next.inter_alpha = fields::alpha(name, text)?,
            "lanes" => {
                let hi = smallest(&next) as u64;
                next.lanes = parse_int_in("lanes", text, 1, MAX_GPUS)? as usize;
                if next.lanes as u64 > hi {
                    return Err(FieldError::new(
                        "lanes",
                        format!(
                            "lanes (NICs per node) must be from 1 to {hi}, the GPUs on the smallest node (got {})",
                            next.lanes
                        ),
                    ));
                }
            }
            "step" => {
                next.step = parse_int_in("step", text, 0, MAX_STEP)? as usize;
            }
            _ => {}
        }
        next.check_shape(name)?;
        *self = next;
        Ok(())
    }

    /// Builds the parameters from a query, field by field in [`KEYS`]
    /// order; each bad field keeps its value from `base` and yields a
    /// [`FieldError`]. `size` and `n` together: `n` wins.
    pub fn from_query(q: &Query, base: &TopologyParams) -> (TopologyParams, Vec<FieldError>) {
        let mut out = base.clone();
        let mut errs = Vec::new();
        for key in KEYS {
            if let Some(raw) = q.get(key) {
                if let Err(e) = out.set_field(key, raw) {
                    errs.push(e);
                }
            }
        }
        (out, errs)
    }

    /// The canonical query pairs (without `view`).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut v = vec![("alg", self.alg.topology_info().key.to_string())];
        if self.groups.is_empty() {
            v.push(("nodes", self.nodes.to_string()));
            v.push(("gpus", self.gpus.to_string()));
        } else {
            let g: Vec<String> = self.groups.iter().map(usize::to_string).collect();
            v.push(("groups", g.join(",")));
        }
        v.push(("racks", self.racks.to_string()));
        match &self.size {
            TensorSize::Bytes(f) => v.push(("size", f.text.clone())),
            TensorSize::Elements(n) => v.push(("n", n.to_string())),
        }
        v.extend([
            ("intra_bw", self.intra_bw.text.clone()),
            ("intra_alpha", self.intra_alpha.text.clone()),
            ("inter_bw", self.inter_bw.text.clone()),
            ("inter_alpha", self.inter_alpha.text.clone()),
            ("core_bw", self.core_bw.text.clone()),
            ("lanes", self.lanes.to_string()),
            ("step", self.step.to_string()),
        ]);
        v
    }
}

/// A preset: a label that names its illustrative link figures, and the
/// query it fills in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// Short id, used as the button id.
    pub id: &'static str,
    /// What the preset is, with its (illustrative) link figures.
    pub label: &'static str,
    /// The query it applies (every field not listed takes its default).
    pub query: &'static str,
}

/// The presets. Link figures are illustrative round numbers, not
/// measurements of a particular system.
pub const PRESETS: [Preset; 6] = [
    Preset {
        id: "course-multilane",
        label: "Course, multi-lane: 2 nodes × 4 GPUs, 4 lanes of 12.5 GB/s, 1 GB, α = 0",
        query: "alg=multilane&nodes=2&gpus=4&lanes=4&size=1GB&inter_bw=12.5GB/s&inter_alpha=0us",
    },
    Preset {
        id: "course-flex",
        label: "Course, FlexReduce: subtrees of 2 and 3 workers, 12 entries",
        query: "alg=flex&groups=2,3&n=12",
    },
    Preset {
        id: "course-rat",
        label: "Course, RAT: 2 racks of 4 workers (illustrative 25 GB/s core)",
        query: "alg=rat&nodes=2&gpus=4&racks=2&core_bw=25GB/s",
    },
    Preset {
        id: "dgx-like",
        label: "Illustrative: 2 nodes × 8 GPUs, NVLink-class 300 GB/s intra-node link, 4 × 200 Gb/s NICs",
        query: "alg=hier&nodes=2&gpus=8&lanes=4&size=256MB&intra_bw=300GB/s&intra_alpha=1us&inter_bw=200Gb/s&inter_alpha=5us",
    },
    Preset {
        id: "nic-per-gpu",
        label: "Illustrative: 4 nodes × 8 GPUs, one 400 Gb/s NIC per GPU (8 lanes)",
        query: "alg=multilane&nodes=4&gpus=8&lanes=8&size=1GB&intra_bw=450GB/s&intra_alpha=1us&inter_bw=400Gb/s&inter_alpha=5us",
    },
    Preset {
        id: "racks",
        label: "Illustrative: 2 racks × 4 nodes × 4 GPUs, 100 Gb/s NICs, 2:1 oversubscribed 200 Gb/s core",
        query: "alg=rat&nodes=8&gpus=4&racks=2&lanes=1&size=256MB&inter_bw=100Gb/s&inter_alpha=5us&core_bw=200Gb/s",
    },
];

impl Preset {
    /// The parameters of this preset (defaults for every field it omits).
    pub fn params(&self) -> TopologyParams {
        TopologyParams::from_query(&Query::parse(self.query), &TopologyParams::default()).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::encode;

    fn parse(s: &str) -> (TopologyParams, Vec<FieldError>) {
        TopologyParams::from_query(&Query::parse(s), &TopologyParams::default())
    }

    #[test]
    fn link_bandwidths_outside_1_kbps_to_100_pbps_are_refused() {
        for name in ["intra_bw", "inter_bw", "core_bw"] {
            let (p, e) = parse(&format!("{name}=1e-300B/s"));
            assert_eq!(e.len(), 1, "{name}: {e:?}");
            assert_eq!(e[0].field, name);
            assert!(
                e[0].message.contains("between 1 kB/s and 100 PB/s"),
                "{}",
                e[0].message
            );
            assert_eq!(
                p,
                TopologyParams::default(),
                "{name} keeps the last good state"
            );
        }
    }

    #[test]
    fn multilane_course_url_parses() {
        let (p, e) = parse(
            "view=topology&alg=multilane&nodes=2&gpus=4&lanes=4&size=1GB&inter_bw=12.5GB/s&inter_alpha=0us",
        );
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.alg, named("multilane"));
        assert_eq!((p.nodes, p.gpus, p.lanes, p.p()), (2, 4, 4, 8));
        assert_eq!(p.size.bytes(), 1_000_000_000);
        assert_eq!(p.elements(), 250_000_000);
        assert!((p.inter_bw.value.bytes_per_second - 12.5e9).abs() < 1.0);
        assert_eq!(p.inter_alpha.value, 0.0);
        let t = p.topology().expect("valid");
        assert_eq!((t.p(), t.nodes(), t.lanes()), (8, 2, 4));
    }

    #[test]
    fn practice_multilane_links_parse() {
        use crate::core::practice::{Params, Template};
        for seed in 0..200u64 {
            let params = Template::Multilane.params(seed, 0);
            let Params::Multilane {
                payload,
                lanes,
                link,
            } = params
            else {
                panic!("a multilane template draws multilane parameters")
            };
            let q = Template::Multilane.generate(seed, 0);
            let query = q.link.map(|l| l.query).unwrap_or_default();
            let (p, e) = parse(&query);
            assert!(e.is_empty(), "{query}: {e:?}");
            assert_eq!(p.alg, named("multilane"));
            assert_eq!((p.nodes, p.gpus, p.lanes), (2, lanes, lanes), "{query}");
            assert_eq!(p.size.bytes(), payload.bytes, "{query}");
            let bw = link.bytes_per_second().unwrap_or(0.0);
            assert!(
                (p.inter_bw.value.bytes_per_second - bw).abs() < 1e-6 * bw,
                "{query}"
            );
            assert_eq!(p.inter_alpha.value, 0.0);
        }
    }

    #[test]
    fn flex_groups_and_elements() {
        let (p, e) = parse("alg=flex&groups=2,3&n=12");
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(p.node_sizes(), vec![2, 3]);
        assert_eq!((p.p(), p.node_count(), p.elements()), (5, 2, 12));
        assert_eq!(p.size.bytes(), 48);
        let t = p.topology().expect("valid");
        assert_eq!(t.node_ranks(1), 2..5);
    }

    #[test]
    fn rat_url_uses_two_racks_of_one_node() {
        let (p, e) = parse("alg=rat&racks=2&gpus=4");
        assert!(e.is_empty(), "{e:?}");
        let t = p.topology().expect("valid");
        assert_eq!((t.p(), t.racks(), t.rack_of_node(1)), (8, 2, 1));
    }

    #[test]
    fn round_trips() {
        for url in [
            "alg=rat&nodes=4&gpus=2&racks=2&size=64MiB&intra_bw=100GB/s&intra_alpha=2us&inter_bw=100Gb/s&inter_alpha=3us&core_bw=50GB/s&lanes=2&step=3",
            "alg=flex&groups=2,3,1&n=12&step=2",
            "alg=flat&nodes=1&gpus=2",
        ] {
            let (p, e) = parse(url);
            assert!(e.is_empty(), "{url}: {e:?}");
            let again = TopologyParams::from_query(
                &Query::parse(&encode(&p.to_pairs())),
                &TopologyParams::default(),
            );
            assert!(again.1.is_empty(), "{:?}", again.1);
            assert_eq!(p, again.0, "{url}");
        }
        let (p, _) = parse("alg=flex&groups=2,3,1&n=12");
        assert_eq!(p.node_sizes(), vec![2, 3, 1]);
        assert_eq!(p.elements(), 12);
    }

    #[test]
    fn bad_values_keep_a_valid_state_with_a_message() {
        for (bad, field, words) in [
            (
                "alg=ring",
                "alg",
                "flat, hier, hier_rd, multilane, rat, flex",
            ),
            ("nodes=0", "nodes", "from 1 to 16"),
            ("nodes=17", "nodes", "from 1 to 16"),
            ("gpus=x", "gpus", "whole number"),
            ("racks=3", "racks", "divide the 2 nodes"),
            ("groups=2,0", "groups", "from 1 to 16"),
            ("groups=a", "groups", "not a whole number"),
            ("groups=1", "groups", "at least 2 ranks"),
            ("size=10B", "size", "4-byte"),
            ("n=0", "n", "from 1"),
            ("intra_bw=fast", "intra_bw", "intra_bw"),
            ("inter_alpha=-1us", "inter_alpha", "inter_alpha"),
            ("core_bw=12GB", "core_bw", "core_bw"),
            ("lanes=5", "lanes", "from 1 to 4"),
            ("step=-1", "step", "whole number"),
        ] {
            let (p, e) = parse(bad);
            assert_eq!(e.len(), 1, "{bad}: {e:?}");
            assert_eq!(e[0].field, field, "{bad}");
            assert!(e[0].message.contains(words), "{bad}: {}", e[0].message);
            assert_eq!(p, TopologyParams::default(), "{bad} keeps the defaults");
        }
        // One rank in total is not an all-reduce.
        let (p, e) = parse("nodes=1&gpus=1");
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].field, "gpus");
        assert_eq!((p.nodes, p.gpus), (1, 4));
    }

    #[test]
    fn fewer_gpus_lower_the_lanes() {
        let (mut p, e) = parse("gpus=8&lanes=8");
        assert!(e.is_empty());
        p.set_field("gpus", "2").expect("valid");
        assert_eq!((p.gpus, p.lanes), (2, 2));
        p.set_field("groups", "1,3").expect("valid");
        assert_eq!(p.lanes, 1);
        // Setting nodes drops the groups again.
        p.set_field("nodes", "3").expect("valid");
        assert_eq!(p.node_sizes(), vec![2, 2, 2]);
    }

    #[test]
    fn presets_parse_cleanly() {
        for pr in PRESETS {
            let (p, e) = parse(pr.query);
            assert!(e.is_empty(), "{}: {e:?}", pr.id);
            assert!(p.topology().is_ok(), "{}", pr.id);
            assert_eq!(pr.params(), p);
        }
        assert_eq!(PRESETS[3].params().gpus, 8);
        assert!((PRESETS[3].params().inter_bw.value.bytes_per_second - 25e9).abs() < 1.0);
    }
}
