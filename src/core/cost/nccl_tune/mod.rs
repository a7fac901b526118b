//! A port of NCCL's own tuning model for the Tree and Ring algorithms and
//! the LL, LL128 and Simple protocols, version-tagged: the rules of
//! `v2.19.3-1` and `v2.30.7-1` of github.com/NVIDIA/nccl (our Rust, written
//! from the description in the lab's notes and checked against the
//! sources; the constants are in `tables.rs`, the tables' per-call use,
//! NCCL's pick, in `pick.rs`).
//!
//! # The model (both versions)
//! At init NCCL fills, per collective, algorithm and protocol, a latency
//! `lat` (µs) and an algorithm bandwidth `bw` (GB/s) from the graph search
//! (channels and per-channel bandwidth inside and between nodes) and a few
//! constant tables (`ncclTopoTuneModel`, v2.19.3 `src/graph/tuning.cc:120-355`,
//! v2.30.7 `:243-585`). A call of `nBytes` is then predicted to take
//! `lat + nBytes / (1000·bw)` µs, with two corrections
//! (`ncclTopoGetAlgoTime`, v2.19.3 `tuning.cc:400-427`, v2.30.7 `:630-655`):
//! Tree's bandwidth times `treeCorrectionFactor[proto][log₂(nBytes/64)]`,
//! and a multi-node Ring/Simple all-reduce's latency times 1.4 (1.9 before
//! compute capability 8.0) once `nBytes/(channels·ranks) ≥ 64`. NCCL picks
//! the lowest time over algorithm × protocol, strictly, in the order Tree
//! before Ring and LL before LL128 before Simple (v2.19.3
//! `src/enqueue.cc:1151-1240`, v2.30.7 `src/enqueue.cc:1989-2117`).
//!
//! The protocols are regimes of their own: **LL** sends 8 bytes of data
//! and an 8-byte flag in every 16-byte line (half the bandwidth, lowest
//! latency); **LL128** carries 120 data bytes per 128-byte line (`0.92` of
//! the bandwidth); **Simple** uses the full bandwidth behind the highest
//! latency (a memory fence per step).
//!
//! Arithmetic follows NCCL's types: tables in `double`, latencies and
//! bandwidths stored as `float` (so a per-call time matches a logged one to
//! its last printed digit).
//!
//! # Not modelled
//! [`NOT_MODELLED`]: CollNetDirect, CollNetChain, NVLS, NVLSTree and PAT
//! (their inputs are not in the logs the lab reads: CollNet plugins, NVLS
//! multicast, 1-GPU-per-node PAT), NCCL 2.24+'s symmetric kernels and
//! 2.28+'s copy-engine collectives (which bypass this model), tuner
//! plugins, `NCCL_NTHREADS`/`NCCL_NET_OVERHEAD` overrides, v2.19's
//! aggregated groups, and the CUDA 11.8 exception of the LL128 rule. A
//! view lists them next to every table.

mod pick;
mod tables;

pub use pick::{pick_grid, switch_reason};

use tables::{Constants, V2_19, V2_30};

/// Paths of NCCL's model that this port does not compute, as NCCL names them.
pub const NOT_MODELLED: [&str; 7] = [
    "CollNetDirect",
    "CollNetChain",
    "NVLS",
    "NVLSTree",
    "PAT",
    "symmetric kernels",
    "copy-engine collectives",
];

/// The NCCL version whose rules and constants are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Version {
    /// Tag `v2.19.3-1` (commit 8c6c5951854a): the 2.19-era model.
    V2_19,
    /// Tag `v2.30.7-1` (commit 73cf112295c3).
    V2_30,
}

impl Version {
    /// Both, oldest first.
    pub const ALL: [Version; 2] = [Version::V2_19, Version::V2_30];
    /// URL value: "2.19" or "2.30".
    pub fn key(self) -> &'static str {
        match self {
            Version::V2_19 => "2.19",
            Version::V2_30 => "2.30",
        }
    }
    /// The git tag: "v2.19.3-1" or "v2.30.7-1".
    pub fn tag(self) -> &'static str {
        match self {
            Version::V2_19 => "v2.19.3-1",
            Version::V2_30 => "v2.30.7-1",
        }
    }
    /// Reads "2.19", "v2.19.3-1", "2.30", "2.30.7", … (a 2.x version up to
    /// 2.22 uses the 2.19 rules, 2.23 and later the 2.30 ones: the latency
    /// rules changed in 2.23).
    pub fn parse(s: &str) -> Option<Version> {
        let t = s.trim().trim_start_matches(['v', 'V']);
        let mut it = t.split(['.', '-', '+']);
        let major: u32 = it.next()?.parse().ok()?;
        let minor: u32 = it.next()?.parse().ok()?;
        match (major, minor) {
            (2, 5..=22) => Some(Version::V2_19),
            (2, 23..=99) => Some(Version::V2_30),
            _ => None,
        }
    }
    fn constants(self) -> &'static Constants {
        match self {
            Version::V2_19 => &V2_19,
            Version::V2_30 => &V2_30,
        }
    }
}

/// A collective as NCCL's model names it (`ncclFuncStr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    /// `Broadcast` (0).
    Broadcast,
    /// `Reduce` (1).
    Reduce,
    /// `AllGather` (2).
    AllGather,
    /// `ReduceScatter` (3).
    ReduceScatter,
    /// `AllReduce` (4).
    AllReduce,
}

impl Func {
    /// In NCCL's order (the rows of its TUNING table).
    pub const ALL: [Func; 5] = [
        Func::Broadcast,
        Func::Reduce,
        Func::AllGather,
        Func::ReduceScatter,
        Func::AllReduce,
    ];
    /// NCCL's name, e.g. "AllReduce".
    pub fn name(self) -> &'static str {
        match self {
            Func::Broadcast => "Broadcast",
            Func::Reduce => "Reduce",
            Func::AllGather => "AllGather",
            Func::ReduceScatter => "ReduceScatter",
            Func::AllReduce => "AllReduce",
        }
    }
    /// Parses NCCL's name (case-insensitive).
    pub fn parse(s: &str) -> Option<Func> {
        Func::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s.trim()))
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// The algorithms this port computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Algo {
    /// NCCL_ALGO_TREE (0).
    Tree,
    /// NCCL_ALGO_RING (1).
    Ring,
}

impl Algo {
    /// In NCCL's order (Tree wins a tie).
    pub const ALL: [Algo; 2] = [Algo::Tree, Algo::Ring];
    /// NCCL's table name: "Tree" or "Ring".
    pub fn name(self) -> &'static str {
        match self {
            Algo::Tree => "Tree",
            Algo::Ring => "Ring",
        }
    }
    /// Reads a table name, a per-call name (`TREE`, `RING`) or an id (0, 1).
    pub fn parse(s: &str) -> Option<Algo> {
        match s.trim().to_ascii_lowercase().as_str() {
            "tree" | "0" => Some(Algo::Tree),
            "ring" | "1" => Some(Algo::Ring),
            _ => None,
        }
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// NCCL's protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Proto {
    /// Low latency: 8 data bytes and an 8-byte flag per 16-byte line.
    LL,
    /// 120 data bytes per 128-byte line.
    LL128,
    /// Full bandwidth, a fence per step.
    Simple,
}

impl Proto {
    /// In NCCL's order.
    pub const ALL: [Proto; 3] = [Proto::LL, Proto::LL128, Proto::Simple];
    /// NCCL's name: "LL", "LL128", "Simple".
    pub fn name(self) -> &'static str {
        match self {
            Proto::LL => "LL",
            Proto::LL128 => "LL128",
            Proto::Simple => "Simple",
        }
    }
    /// Share of each line that is data: 8/16, 120/128, 1.
    pub fn line_efficiency(self) -> f64 {
        match self {
            Proto::LL => 0.5,
            Proto::LL128 => 120.0 / 128.0,
            Proto::Simple => 1.0,
        }
    }
    /// Reads a name (any case: `ll128`, `SIMPLE`) or an id (0, 1, 2).
    pub fn parse(s: &str) -> Option<Proto> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ll" | "0" => Some(Proto::LL),
            "ll128" | "1" => Some(Proto::LL128),
            "simple" | "2" => Some(Proto::Simple),
            _ => None,
        }
    }
    fn index(self) -> usize {
        self as usize
    }
}

/// A path type of NCCL's topology, in v2.30's order (v2.19 has no C2C and
/// P2C; the other names keep their relative order, and the model only
/// compares them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Path {
    Loc,
    Nvl,
    Nvb,
    C2c,
    Pix,
    Pxb,
    P2c,
    Pxn,
    Phb,
    Sys,
    Net,
    Dis,
}

impl Path {
    const NAMES: [(&'static str, Path); 12] = [
        ("LOC", Path::Loc),
        ("NVL", Path::Nvl),
        ("NVB", Path::Nvb),
        ("C2C", Path::C2c),
        ("PIX", Path::Pix),
        ("PXB", Path::Pxb),
        ("P2C", Path::P2c),
        ("PXN", Path::Pxn),
        ("PHB", Path::Phb),
        ("SYS", Path::Sys),
        ("NET", Path::Net),
        ("DIS", Path::Dis),
    ];
    /// Reads NCCL's name (`NVL`, `PIX`, …; any case).
    pub fn parse(s: &str) -> Option<Path> {
        let t = s.trim();
        Path::NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(t))
            .map(|&(_, p)| p)
    }
    /// NCCL's name.
    pub fn name(self) -> &'static str {
        Path::NAMES
            .iter()
            .find(|(_, p)| *p == self)
            .map_or("?", |(n, _)| n)
    }
}

/// One graph of NCCL's search, as its `Pattern …, nChannels …, bw …/…,
/// type …/…, sameChannels …` line prints it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Graph {
    /// Graph channels (before NCCL doubles them into the communicator's).
    pub channels: u32,
    /// Per-channel bandwidth inside a node, GB/s.
    pub bw_intra: f64,
    /// Per-channel bandwidth between nodes, GB/s.
    pub bw_inter: f64,
    /// Worst path type inside a node (NVL selects NVLink latencies).
    pub type_intra: Path,
    /// Worst path type to the network (the LL128 rule reads it).
    pub type_inter: Path,
    /// All channels use the same GPU order (Broadcast/Reduce latency).
    pub same_channels: bool,
    /// The graph's pattern: 4 ring; 1 balanced tree, 2 split tree, 3 tree
    /// (the tree pattern 3 costs Tree 15 % of its bandwidth).
    pub pattern: u8,
}

/// The CPU vendor (multi-node LL caps and network overhead read it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cpu {
    /// Intel, or a CPU NCCL does not single out.
    Intel,
    /// AMD (or v2.30's "mixed").
    Amd,
}

/// Everything the model reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
    /// Which version's rules.
    pub version: Version,
    /// Ranks (GPUs) in the communicator.
    pub ranks: usize,
    /// Nodes (hosts).
    pub nodes: usize,
    /// Compute capability × 10 (A100 80, H100 90, B200 100), the same on every GPU.
    pub cc: u32,
    /// CPU vendor.
    pub cpu: Cpu,
    /// The ring graph (Pattern 4).
    pub ring: Graph,
    /// The tree graph.
    pub tree: Graph,
    /// The communicator's channels (`N coll channels`; twice the graph's).
    pub coll_channels: u32,
    /// Extra network latency a net plugin reports, µs (0 for IB and sockets).
    pub latency_inter: f64,
    /// `NCCL_PROTO`, as set.
    pub proto_env: Option<String>,
    /// `NCCL_ALGO`, as set.
    pub algo_env: Option<String>,
}

/// A job's nodes as the tuning model sees them: the graph's channels and
/// their per-channel bandwidths, the path inside a node and the extra
/// latency between nodes. Both graphs (ring and tree) get the same
/// channels, as NCCL prints them for these machines; the communicator has
/// twice the graph's channels (`comm->nChannels` after `ncclTopoPostset`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// Graph channels.
    pub channels: u32,
    /// Per-channel bandwidth inside a node, GB/s.
    pub intra: f64,
    /// Per-channel bandwidth between nodes, GB/s.
    pub inter: f64,
    /// NVLink (type NVL) inside a node; PCI (PXB) otherwise.
    pub nvlink: bool,
    /// Extra inter-node latency, µs (`latency_inter`).
    pub netlat_us: f64,
    /// Compute capability × 10.
    pub cc: u32,
}

impl Node {
    /// The node the lab assumes where nothing says otherwise: an NVSwitch
    /// node of A100s (cc 80) with 12 channels of 20 GB/s, what NCCL prints
    /// in the p4d log (`nChannels 12, bw 20.000000/20.000000, type NVL/PIX`).
    pub const A100_NVSWITCH: Node = Node {
        channels: 12,
        intra: 20.0,
        inter: 20.0,
        nvlink: true,
        netlat_us: 0.0,
        cc: 80,
    };

    /// The model's inputs for `ranks` ranks on `nodes` of these nodes
    /// (clamped to 1 ..= ranks): the ring graph has NCCL's ring pattern
    /// (`NCCL_TOPO_PATTERN_RING`, 4) and the tree graph the balanced tree
    /// (1), or the plain tree (3) that NCCL forces with one rank per node.
    pub fn inputs(&self, version: Version, ranks: usize, nodes: usize) -> Inputs {
        let g = Graph {
            channels: self.channels,
            bw_intra: self.intra,
            bw_inter: self.inter,
            type_intra: if self.nvlink { Path::Nvl } else { Path::Pxb },
            type_inter: Path::Pix,
            same_channels: true,
            pattern: 4,
        };
        let nodes = nodes.clamp(1, ranks.max(1));
        Inputs {
            version,
            ranks,
            nodes,
            cc: self.cc,
            cpu: Cpu::Intel,
            ring: g,
            tree: Graph {
                pattern: if nodes == ranks { 3 } else { 1 },
                ..g
            },
            coll_channels: 2 * self.channels,
            latency_inter: self.netlat_us,
            proto_env: None,
            algo_env: None,
        }
    }
}

impl Inputs {
    /// One node of `ranks` GPUs of compute capability `cc` whose ring and
    /// tree graphs both have `channels` channels of `bw` GB/s over NVLink
    /// (type NVL/PIX, balanced tree), with twice the channels in the
    /// communicator: [`Node::inputs`] on one node.
    pub fn nvlink_node(version: Version, ranks: usize, channels: u32, bw: f64, cc: u32) -> Inputs {
        let node = Node {
            channels,
            intra: bw,
            inter: bw,
            cc,
            ..Node::A100_NVSWITCH
        };
        node.inputs(version, ranks, 1)
    }

    /// Checks the inputs.
    ///
    /// # Errors
    /// A sentence naming the first bad input.
    pub fn check(&self) -> Result<(), String> {
        if self.ranks < 2 {
            return Err("NCCL's model needs at least 2 ranks".into());
        }
        if self.nodes < 1 || self.nodes > self.ranks {
            return Err(format!(
                "nodes must be from 1 to the number of ranks ({})",
                self.ranks
            ));
        }
        for (name, g) in [("ring", &self.ring), ("tree", &self.tree)] {
            if g.channels == 0 || g.channels > 64 {
                return Err(format!("the {name} graph needs 1 to 64 channels"));
            }
            let ok = |b: f64| b.is_finite() && b > 0.0 && b <= 10_000.0;
            if !ok(g.bw_intra) || !ok(g.bw_inter) {
                return Err(format!(
                    "the {name} graph's bandwidths must be above 0 and at most 10000 GB/s per channel"
                ));
            }
        }
        if !(self.latency_inter.is_finite() && (0.0..=1e6).contains(&self.latency_inter)) {
            return Err("the inter-node latency must be from 0 to 1 s".into());
        }
        if !(30..=200).contains(&self.cc) {
            return Err("the compute capability must be from 3.0 to 20.0 (cc=30 … 200)".into());
        }
        Ok(())
    }
}

/// One cell of the model: latency (µs) and algorithm bandwidth (GB/s) as
/// NCCL stores them (`float`); a bandwidth of 0 means disabled.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Cell {
    /// µs.
    pub lat: f32,
    /// GB/s (algbw; 0 = disabled).
    pub bw: f32,
}

/// The model's tables for one communicator.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    /// The inputs.
    pub inputs: Inputs,
    /// `[func][algo][proto]`, after the enable rules.
    pub cells: [[[Cell; 3]; 2]; 5],
    /// v2.19's Ring bandwidths before the enable rules (`ringbdw`), used
    /// when a function has nothing enabled.
    ring_backup: [[f32; 3]; 5],
    /// `[algo][proto]` "Max NThreads".
    pub max_threads: [[u32; 3]; 2],
    /// `NCCL_PROTO` / `NCCL_ALGO` as read, and which cells they turned off.
    pub notes: Vec<String>,
}

/// NCCL's pick for one call.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pick {
    /// Algorithm.
    pub algo: Algo,
    /// Protocol.
    pub proto: Proto,
    /// Predicted time, µs.
    pub time: f64,
    /// v2.19 only: a disabled Ring cell timed with its backup bandwidth
    /// (nothing else was enabled).
    pub backup: bool,
}

/// `log2i`: ⌊log₂ n⌋, and for n = 0 −1 (v2.30, `bitops.h`) or 0 (v2.19,
/// `utils.h:41-45`).
fn log2i(n: u64, v: Version) -> i32 {
    if n == 0 {
        return if v == Version::V2_19 { 0 } else { -1 };
    }
    63 - n.leading_zeros() as i32
}

/// NCCL's `parseList`: `list` starts from the rule's defaults; returns the
/// per-function enables, or the v2.30 error.
fn parse_list(v: Version, s: &str, names: &[&str], list: &mut [Vec<u8>; 5]) -> Result<(), String> {
    let set_all = |list: &mut [Vec<u8>; 5], funcs: &[usize], elems: &str| -> Result<(), String> {
        let (unset, set, elems) = match elems.strip_prefix('^') {
            Some(rest) => (1, 0, rest),
            None => (0, 1, elems),
        };
        for &f in funcs {
            for e in list[f].iter_mut() {
                *e = unset;
            }
            for tok in elems.split(',').filter(|t| !t.is_empty()) {
                match names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(tok.trim()))
                {
                    Some(i) => list[f][i] = set,
                    // v2.19 ignores an unknown token (`tuning.cc:34-52`).
                    None if v == Version::V2_19 => {}
                    None => {
                        return Err(format!(
                            "NCCL {} refuses the token “{tok}” (ncclInvalidUsage)",
                            v.tag()
                        ))
                    }
                }
            }
        }
        Ok(())
    };
    if v == Version::V2_19 {
        return set_all(list, &[0, 1, 2, 3, 4], s);
    }
    // v2.30 (`tuning.cc:55-136`): "[func:]list;func:list…".
    for (k, entry) in s.split(';').filter(|e| !e.is_empty()).enumerate() {
        match entry.split_once(':') {
            None if k == 0 => set_all(list, &[0, 1, 2, 3, 4], entry)?,
            None => {
                return Err(format!(
                    "NCCL {} wants a function prefix on “{entry}” (ncclInvalidUsage)",
                    v.tag()
                ))
            }
            Some((f, elems)) => {
                let f = Func::parse(f).ok_or_else(|| {
                    format!(
                        "NCCL {} does not know the function “{f}” (ncclInvalidUsage)",
                        v.tag()
                    )
                })?;
                set_all(list, &[f.index()], elems)?;
            }
        }
    }
    Ok(())
}

/// NCCL's algorithm names by id (`ncclAlgoStr`; PAT since 2.23), as
/// `NCCL_ALGO` takes them and the per-call lines of 2.20–2.23 number them.
pub const ALGO_NAMES: [&str; 7] = [
    "Tree",
    "Ring",
    "CollNetDirect",
    "CollNetChain",
    "NVLS",
    "NVLSTree",
    "PAT",
];

/// NCCL's algorithm names for `NCCL_ALGO` in version `v`.
fn algo_names(v: Version) -> &'static [&'static str] {
    match v {
        Version::V2_19 => &ALGO_NAMES[..6],
        Version::V2_30 => &ALGO_NAMES,
    }
}

/// What a cell's latency reads besides the cell itself.
struct Lat<'a> {
    inp: &'a Inputs,
    k: &'a Constants,
    /// Ranks per node.
    ppn: f32,
    /// `getNetOverhead`: 1 µs, 2 µs on AMD (v2.19.3 `tuning.cc:111-118`,
    /// v2.30.7 `:228-233`).
    net_overhead: f32,
}

impl Lat<'_> {
    /// The latency of cell (`f`, `a`, `p`) on graph `g` with `(nsteps,
    /// nInterSteps)`, µs, in `float` (v2.19.3 `tuning.cc:205-240`, v2.30.7
    /// `:385-417`).
    fn latency(&self, f: Func, a: Algo, p: Proto, g: &Graph, steps: (usize, usize)) -> f32 {
        let (inp, k, v) = (self.inp, self.k, self.inp.version);
        let (ranks, nodes) = (inp.ranks, inp.nodes);
        let (nsteps, inter_steps) = steps;
        let (ai, pi) = (a.index(), p.index());
        let intra_hw = if g.type_intra == Path::Nvl { 0 } else { 1 };
        let hw = if nodes == 1 { intra_hw } else { 2 };
        let mut lat = k.base_lat[ai][pi] as f32;
        let mut intra = k.hw_lat[intra_hw][ai][pi] as f32;
        // v2.30: with one GPU per node, Tree's network latency for every algorithm.
        let net_row = if v == Version::V2_30 && self.ppn == 1.0 {
            0
        } else {
            ai
        };
        let mut inter = k.hw_lat[2][net_row][pi] as f32 + inp.latency_inter as f32;
        if p == Proto::Simple {
            inter += inp.latency_inter as f32;
        }
        match a {
            Algo::Ring if matches!(f, Func::Broadcast | Func::Reduce) => {
                let mut l = k.hw_lat[hw][1][pi] as f32;
                if g.same_channels {
                    lat += l;
                } else {
                    if p == Proto::Simple {
                        l = k.hw_lat[hw][0][pi] as f32;
                    }
                    lat += nsteps as f32 * l;
                }
            }
            Algo::Ring => {
                let mut over = if nodes > 1 { self.net_overhead } else { 0.0 };
                if nodes > 1 && p == Proto::Simple {
                    over *= 3.0;
                }
                intra = intra.max(over);
                // v2.19 with one GPU per node counts more inter-node steps
                // than steps (2·nodes > 2(ranks − 1)): the difference is
                // negative, as in NCCL's int arithmetic.
                let intra_steps = nsteps as i64 - inter_steps as i64;
                lat += intra_steps as f32 * intra + inter_steps as f32 * inter;
            }
            Algo::Tree => {
                let levels = log2i(nodes as u64, v) as f32;
                lat += 2.0 * ((ranks / nodes - 1) as f32 * intra + levels * inter);
            }
        }
        lat
    }
}

/// Runs the model (`ncclTopoTuneModel` for Tree and Ring).
///
/// # Errors
/// [`Inputs::check`]'s sentence, or v2.30's refusal of an `NCCL_PROTO` /
/// `NCCL_ALGO` value.
pub fn tune(inp: &Inputs) -> Result<Tuning, String> {
    inp.check()?;
    let v = inp.version;
    let k = v.constants();
    let (ranks, nodes) = (inp.ranks, inp.nodes);
    let cc_index = match (v, inp.cc) {
        (Version::V2_30, c) if c >= 100 => 3,
        (_, c) if c >= 90 => 2,
        (_, c) if c >= 80 => 1,
        _ => 0,
    };
    let scale = if nodes <= 2 { nodes - 1 } else { 2 };
    let amd = inp.cpu == Cpu::Amd;
    let row1 = if nodes == 1 {
        cc_index
    } else {
        usize::from(amd)
    };
    let ll_max = k.ll_max_bws[row1][scale];
    let tree_max = k.per_ch_max_tree[cc_index][scale];
    let ring_ll128_max = k.per_ch_max_ring_ll128[cc_index][scale];
    let tree_ll128_max = k.per_ch_max_tree_ll128[cc_index][scale];
    let ppn = ranks as f32 / nodes as f32;
    let ctx = Lat {
        inp,
        k,
        ppn,
        net_overhead: if amd { 2.0 } else { 1.0 },
    };
    let mut cells = [[[Cell::default(); 3]; 2]; 5];
    let mut ring_backup = [[0.0f32; 3]; 5];
    for f in Func::ALL {
        let nsteps = match f {
            Func::AllReduce => 2 * (ranks - 1),
            Func::AllGather | Func::ReduceScatter => ranks - 1,
            _ => ranks,
        };
        let inter_steps = match (v, f) {
            (_, _) if nodes == 1 && v == Version::V2_30 => 0,
            (Version::V2_19, Func::AllReduce) => {
                if nodes > 1 {
                    2 * nodes
                } else {
                    0
                }
            }
            (Version::V2_30, Func::AllReduce) => 2 * (nodes - 1),
            (_, Func::AllGather | Func::ReduceScatter) => nodes - 1,
            (Version::V2_19, _) => nodes,
            (Version::V2_30, _) => nodes - 1,
        };
        for a in Algo::ALL {
            // Tree is modelled for AllReduce only (both versions skip it
            // for the other functions).
            if a == Algo::Tree && f != Func::AllReduce {
                continue;
            }
            let g = if a == Algo::Tree {
                &inp.tree
            } else {
                &inp.ring
            };
            for p in Proto::ALL {
                let (ai, pi) = (a.index(), p.index());
                let bw: f32 = (if nodes <= 2 { g.bw_intra } else { g.bw_inter }) as f32;
                let ch = g.channels as f32;
                let chd = f64::from(g.channels);
                let mut bus: f32 = ch * bw;
                match (a, p) {
                    (Algo::Ring, Proto::LL) => {
                        let factor = match v {
                            Version::V2_30 => 0.5,
                            _ if nodes > 1 || f == Func::AllReduce || f == Func::Reduce => 0.25,
                            _ => 1.0 / 3.0,
                        };
                        bus = ll_max.min(f64::from(bus) * factor) as f32;
                    }
                    (Algo::Ring, Proto::LL128) => {
                        let factor = if v == Version::V2_19 && ppn < 2.0 {
                            0.7
                        } else {
                            0.92
                        };
                        bus = (f64::from(bus) * factor).min(chd * ring_ll128_max) as f32;
                    }
                    _ => {}
                }
                if a == Algo::Tree {
                    bus = (f64::from(bus) * 0.92).min(chd * tree_max) as f32;
                    if p == Proto::LL {
                        bus = (f64::from(bus) * 1.0 / 3.8).min(ll_max) as f32;
                    }
                    if p == Proto::LL128 {
                        let factor = if nodes == 1 { 7.0 / 9.0 } else { 120.0 / 128.0 };
                        bus = (f64::from(bus) * factor).min(chd * tree_ll128_max) as f32;
                    }
                    if g.pattern == 3 {
                        bus = (f64::from(bus) * 0.85) as f32;
                    }
                }
                let ratio: f32 = if a == Algo::Ring {
                    (ranks as f64 / nsteps as f64) as f32
                } else {
                    0.5
                };
                let stored = bus * ratio;
                let lat = ctx.latency(f, a, p, g, (nsteps, inter_steps));
                cells[f.index()][ai][pi] = Cell { lat, bw: stored };
                if a == Algo::Ring {
                    ring_backup[f.index()][pi] = stored;
                }
            }
        }
    }
    let notes = enable(inp, &mut cells, &mut ring_backup)?;
    let simple_threads = if inp.ring.bw_intra as f32 * inp.ring.channels as f32 <= 12.0 {
        256
    } else {
        512
    };
    Ok(Tuning {
        inputs: inp.clone(),
        cells,
        ring_backup,
        max_threads: [[512, 640, 512], [512, 640, simple_threads]],
        notes,
    })
}

/// The enable rules (v2.19.3 `tuning.cc:251-318`, v2.30.7 `:440-541`):
/// `NCCL_PROTO`, `NCCL_ALGO`, and LL128 only where NCCL trusts it.
fn enable(
    inp: &Inputs,
    cells: &mut [[[Cell; 3]; 2]; 5],
    backup: &mut [[f32; 3]; 5],
) -> Result<Vec<String>, String> {
    let v = inp.version;
    let mut notes = Vec::new();
    let mut protos: [Vec<u8>; 5] = std::array::from_fn(|_| vec![1, 2, 1]);
    let mut algos: [Vec<u8>; 5] = std::array::from_fn(|_| vec![1; algo_names(v).len()]);
    if let Some(s) = &inp.proto_env {
        parse_list(v, s, &["LL", "LL128", "Simple"], &mut protos)?;
        notes.push(format!("NCCL_PROTO set by environment to {s}"));
    }
    if let Some(s) = &inp.algo_env {
        parse_list(v, s, algo_names(v), &mut algos)?;
        notes.push(format!("NCCL_ALGO set by environment to {s}"));
    }
    let cc = inp.cc;
    for f in Func::ALL {
        let fi = f.index();
        for a in Algo::ALL {
            let g = if a == Algo::Tree {
                &inp.tree
            } else {
                &inp.ring
            };
            for p in Proto::ALL {
                let mut on = protos[fi][p.index()];
                if on == 2 {
                    on = u8::from(ll128_ok(v, cc, g));
                }
                if on == 0 || algos[fi][a.index()] == 0 {
                    cells[fi][a.index()][p.index()].bw = 0.0;
                }
            }
        }
    }
    if v == Version::V2_30 {
        *backup = [[0.0; 3]; 5];
    }
    Ok(notes)
}

/// LL128's default: on only where NCCL has tested it (v2.19.3
/// `tuning.cc:287-299`, v2.30.7 `:518-536`; the same compute capability on
/// every GPU is assumed, and the CUDA 11.8 exception is left out).
fn ll128_ok(v: Version, cc: u32, g: &Graph) -> bool {
    let intra = g.type_intra <= Path::Nvb;
    match v {
        Version::V2_19 => {
            let inter = g.type_inter <= Path::Pxb || (cc >= 90 && g.type_inter <= Path::Pxn);
            inter && intra && matches!(cc, 70 | 80 | 90)
        }
        Version::V2_30 => {
            let inter = if cc >= 90 {
                g.type_inter <= Path::Pxn
            } else {
                g.type_inter <= Path::Pxb
            };
            inter && intra && cc >= 70
        }
    }
}

#[cfg(test)]
mod tests;
