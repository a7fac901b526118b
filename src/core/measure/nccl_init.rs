//! NCCL's tuning-model inputs ([`crate::core::cost::nccl_tune::Inputs`])
//! read from a pasted `NCCL_DEBUG=INFO` log (with `NCCL_DEBUG_SUBSYS`
//! including `INIT,GRAPH,ENV`), beside the other log readers: what NCCL
//! prints, line
//! by line (v2.30.7 source lines; v2.19.3 prints the same text):
//!
//! - `NCCL version 2.27.3+cuda12.9` (`init.cc:695`): the version's rules;
//! - `Pattern 4, crossNic 0, nChannels 12, bw 20.000000/20.000000, type
//!   NVL/PIX, sameChannels 1` (`search.cc:1319-1321`), once per graph: the
//!   first with pattern 4 is the ring graph, the next with pattern 1, 2 or 3
//!   the tree graph;
//! - `comm 0x… rank 0 nRanks 4 nNodes 1 localRanks 4 …` (`init.cc:1422`);
//! - `24 coll channels, …` (`init.cc:1646`): the communicator's channels;
//! - `NCCL_PROTO set by environment to …`, `NCCL_ALGO set by environment to
//!   …` (`tuning.cc:455, 460`);
//! - `CPU/0-0 (1/1/2)` in the topology dump (`topo.cc:292`):
//!   arch/vendor/model, vendor 2 = AMD;
//! - GPU names (`NVIDIA A100`, `H100`, …) in nccl-tests' `# Rank` lines or
//!   NCCL's own: the compute capability, which NCCL does not print.
//!
//! Each rank prints its own lines; the first of each kind is used.

use crate::core::cost::nccl_tune::{Cpu, Graph, Inputs, Path, Version};
use crate::core::units::decimal;

/// What a log says about the model's inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct LogInputs {
    /// The inputs: the log's values, the defaults' where it says nothing.
    pub inputs: Inputs,
    /// What was read, e.g. "line 12: ring graph, 12 channels of 20 GB/s, NVL/PIX".
    pub read: Vec<String>,
    /// The inputs taken from the defaults because the log does not give them.
    pub assumed: Vec<&'static str>,
    /// True when both graphs were read (the model can be rebuilt from the log).
    pub graphs: bool,
}

/// The text after `NCCL INFO ` (or the whole line without it).
pub fn info_text(line: &str) -> &str {
    match line.find("NCCL INFO ") {
        Some(i) => &line[i + "NCCL INFO ".len()..],
        None => line.trim(),
    }
}

/// Reads a `Pattern …` line.
pub fn graph_line(t: &str) -> Option<Graph> {
    let t = t.trim();
    let rest = t.strip_prefix("Pattern ")?;
    let mut g = Graph {
        channels: 0,
        bw_intra: 0.0,
        bw_inter: 0.0,
        type_intra: Path::Pix,
        type_inter: Path::Pix,
        same_channels: false,
        pattern: 0,
    };
    for (i, part) in rest.split(',').enumerate() {
        let part = part.trim();
        if i == 0 {
            g.pattern = part.parse().ok()?;
        } else if let Some(v) = part.strip_prefix("nChannels ") {
            g.channels = v.trim().parse().ok()?;
        } else if let Some(v) = part.strip_prefix("bw ") {
            let (a, b) = v.split_once('/')?;
            g.bw_intra = decimal::parse(a.trim())?;
            g.bw_inter = decimal::parse(b.trim())?;
        } else if let Some(v) = part.strip_prefix("type ") {
            let (a, b) = v.split_once('/')?;
            g.type_intra = Path::parse(a)?;
            g.type_inter = Path::parse(b)?;
        } else if let Some(v) = part.strip_prefix("sameChannels ") {
            g.same_channels = v.trim() == "1";
        }
    }
    (g.channels > 0).then_some(g)
}

/// The number after `key ` in `t`.
fn number_after(t: &str, key: &str) -> Option<usize> {
    let i = t.find(key)?;
    t[i + key.len()..]
        .split_whitespace()
        .next()?
        .trim_end_matches(',')
        .parse()
        .ok()
}

/// The compute capability × 10 of a GPU named in `t`, for the GPUs the
/// tables distinguish.
pub fn cc_of_gpu(t: &str) -> Option<u32> {
    const GPUS: [(&str, u32); 10] = [
        ("GB200", 100),
        ("B200", 100),
        ("B100", 100),
        ("H100", 90),
        ("H200", 90),
        ("H800", 90),
        ("H20", 90),
        ("A100", 80),
        ("A800", 80),
        ("V100", 70),
    ];
    GPUS.iter().find(|(n, _)| t.contains(n)).map(|&(_, c)| c)
}

/// Reads the inputs from `text`, filling what it does not say from
/// `defaults`.
pub fn read_inputs(text: &str, defaults: &Inputs) -> LogInputs {
    let mut inp = defaults.clone();
    let mut read = Vec::new();
    let (mut ring, mut tree) = (false, false);
    let (mut ranks, mut version, mut coll, mut cpu, mut cc) = (false, false, false, false, false);
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let t = info_text(line);
        if let Some(g) = graph_line(t) {
            let what = format!(
                "{} channels of {}/{} GB/s, {}/{}",
                g.channels,
                crate::core::units::decimal::shortest(g.bw_intra),
                crate::core::units::decimal::shortest(g.bw_inter),
                g.type_intra.name(),
                g.type_inter.name()
            );
            if g.pattern == 4 && !ring {
                inp.ring = g;
                ring = true;
                read.push(format!("line {n}: ring graph, {what}"));
            } else if matches!(g.pattern, 1..=3) && ring && !tree {
                inp.tree = g;
                tree = true;
                read.push(format!(
                    "line {n}: tree graph (pattern {}), {what}",
                    g.pattern
                ));
            }
        } else if !version && t.starts_with("NCCL version ") {
            if let Some(v) = Version::parse(&t["NCCL version ".len()..]) {
                inp.version = v;
                version = true;
                read.push(format!("line {n}: {} (rules of {})", t.trim(), v.tag()));
            }
        } else if !ranks && t.starts_with("comm ") && t.contains(" nRanks ") {
            if let (Some(r), Some(nodes)) = (number_after(t, "nRanks "), number_after(t, "nNodes "))
            {
                inp.ranks = r;
                inp.nodes = nodes;
                ranks = true;
                read.push(format!("line {n}: {r} ranks on {nodes} node(s)"));
            }
        } else if !coll && t.contains(" coll channels") {
            if let Some(c) = t.split_whitespace().next().and_then(|w| w.parse().ok()) {
                inp.coll_channels = c;
                coll = true;
                read.push(format!("line {n}: {c} coll channels"));
            }
        } else if let Some(v) = t.strip_prefix("NCCL_PROTO set by environment to ") {
            inp.proto_env = Some(v.trim().to_string());
            read.push(format!("line {n}: NCCL_PROTO={}", v.trim()));
        } else if let Some(v) = t.strip_prefix("NCCL_ALGO set by environment to ") {
            inp.algo_env = Some(v.trim().to_string());
            read.push(format!("line {n}: NCCL_ALGO={}", v.trim()));
        } else if !cpu && t.starts_with("CPU/") {
            // CPU/0-0 (1/1/2): arch/vendor/model.
            let inner = t
                .split_once('(')
                .and_then(|(_, r)| r.split_once(')'))
                .map(|(a, _)| a);
            if let Some(vendor) = inner.and_then(|s| s.split('/').nth(1)) {
                inp.cpu = if vendor.trim() == "2" {
                    Cpu::Amd
                } else {
                    Cpu::Intel
                };
                cpu = true;
                read.push(format!(
                    "line {n}: CPU vendor {}",
                    if inp.cpu == Cpu::Amd {
                        "AMD"
                    } else {
                        "Intel or other"
                    }
                ));
            }
        }
        if !cc {
            if let Some(c) = cc_of_gpu(line) {
                inp.cc = c;
                cc = true;
                read.push(format!(
                    "line {n}: compute capability {}.{}",
                    c / 10,
                    c % 10
                ));
            }
        }
    }
    let mut assumed = Vec::new();
    for (got, what) in [
        (version, "version"),
        (ring, "ring graph"),
        (tree, "tree graph"),
        (ranks, "ranks and nodes"),
        (coll, "coll channels"),
        (cc, "compute capability"),
    ] {
        if !got {
            assumed.push(what);
        }
    }
    if ring && !coll {
        inp.coll_channels = 2 * inp.ring.channels;
    }
    LogInputs {
        inputs: inp,
        read,
        assumed,
        graphs: ring && tree,
    }
}
