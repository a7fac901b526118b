//! NCCL's own debug lines in a pasted log (`NCCL_DEBUG=INFO`,
//! `NCCL_DEBUG_SUBSYS` with `TUNING`, `ENV`, `GRAPH`), read next to the
//! benchmark table, and compared with the port of NCCL's tuning model
//! ([`crate::core::cost::nccl_tune`]).
//!
//! Lines read (v2.30.7-1 source lines; v2.19.3-1 prints the same text
//! unless said):
//! - the TUNING table (`tuning.cc:543-585`; v2.19.3 `:320-355`): blocks of
//!   `Algorithm |` names, `Protocol |` names, ` Max NThreads |` and one row
//!   per function of `latency/bandwidth` cells (µs / GB/s, `%8.1f/%6.1f`);
//! - per-call picks: `N Bytes -> Algo A proto P time T` (2.20–2.22, numeric
//!   ids, predicted µs), `Func: N Bytes -> Algo A proto P time T` (2.23),
//!   `Func: N Bytes -> Algo NAME proto NAME channel{Lo..Hi}={a..b}` (2.24 and
//!   later, `enqueue.cc:821-824`; N is the per-rank count × type size);
//! - `NCCL_PROTO set by environment to …`, `NCCL_ALGO set by environment
//!   to …` (`tuning.cc:455, 460`);
//! - kernel names in profiler output: `ncclKernel_AllReduce_RING_LL_Sum_float`
//!   (before 2.19) and `ncclDevKernel_AllReduce_Sum_f16_RING_LL`.

use super::nccl_init::{info_text, read_inputs, LogInputs};
use crate::core::cost::nccl_tune::{tune, Algo, Func, Inputs, Proto, Tuning, Version, ALGO_NAMES};

/// An algorithm name as a log prints it: the table's (`CollNetDirect`), the
/// per-call line's (`COLLNET_DIRECT`) or an id, normalised to the table's.
pub fn algo_name(s: &str) -> Option<&'static str> {
    let t = s.trim();
    if let Ok(i) = t.parse::<usize>() {
        return ALGO_NAMES.get(i).copied();
    }
    let key: String = t.chars().filter(|c| *c != '_').collect();
    ALGO_NAMES
        .iter()
        .find(|n| n.eq_ignore_ascii_case(&key))
        .copied()
}

/// One cell of a logged TUNING table.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedCell {
    /// The function row.
    pub func: Func,
    /// The algorithm column (table name).
    pub algo: &'static str,
    /// The protocol.
    pub proto: Proto,
    /// Latency, µs (as printed).
    pub lat: f64,
    /// Bandwidth, GB/s (as printed; 0 = disabled).
    pub bw: f64,
}

/// The TUNING table as printed.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct LoggedTable {
    /// First line of the table.
    pub line: usize,
    /// Every latency/bandwidth cell.
    pub cells: Vec<LoggedCell>,
    /// `(algo, proto, threads)` of the Max NThreads rows.
    pub threads: Vec<(&'static str, Proto, u32)>,
    /// True when a PAT block was printed (2.23 and later).
    pub has_pat: bool,
}

/// One per-call line.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedCall {
    /// Line number.
    pub line: usize,
    /// The function, when printed (2.23 and later).
    pub func: Option<Func>,
    /// Bytes as printed.
    pub bytes: u64,
    /// Algorithm (table name).
    pub algo: &'static str,
    /// Protocol.
    pub proto: Proto,
    /// Predicted time, µs (2.20–2.23).
    pub time: Option<f64>,
    /// How many identical lines followed (the same function and size).
    pub repeats: usize,
}

/// A kernel name seen in the paste.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    /// Line number.
    pub line: usize,
    /// The name, e.g. `ncclDevKernel_AllReduce_Sum_f16_RING_LL`.
    pub name: String,
    /// Its algorithm and protocol, when the name carries them.
    pub algo: Option<&'static str>,
    /// The protocol.
    pub proto: Option<Proto>,
}

/// Everything NCCL printed about its choices.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclDebug {
    /// The TUNING table.
    pub table: Option<LoggedTable>,
    /// Per-call picks, one per function and size (first seen).
    pub calls: Vec<LoggedCall>,
    /// `(line, value)` of `NCCL_PROTO set by environment to …`.
    pub proto_env: Option<(usize, String)>,
    /// `(line, value)` of `NCCL_ALGO set by environment to …` (the first).
    pub algo_env: Option<(usize, String)>,
    /// Every `NCCL_ALGO set by environment to …` line (one per run when
    /// several runs are pasted), `(line, value)`.
    pub algo_lines: Vec<(usize, String)>,
    /// Kernel names.
    pub kernels: Vec<Kernel>,
    /// The model's inputs found in the paste.
    pub inputs: LogInputs,
    /// The rules the log's NCCL follows (its version line, else the format
    /// of its per-call lines or table).
    pub version: Option<Version>,
}

fn kernel(line: usize, t: &str) -> Option<Kernel> {
    let start = t.find("ncclDevKernel_").or_else(|| t.find("ncclKernel_"))?;
    let name: String = t[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let toks: Vec<&str> = name.split('_').collect();
    // Two-word names first (COLLNET_DIRECT, NVLS_TREE), then one word.
    let algo = toks
        .windows(2)
        .find_map(|w| match (w[0], w[1]) {
            ("COLLNET", "DIRECT") => Some("CollNetDirect"),
            ("COLLNET", "CHAIN") => Some("CollNetChain"),
            ("NVLS", "TREE") => Some("NVLSTree"),
            _ => None,
        })
        .or_else(|| {
            toks.iter().find_map(|w| match *w {
                "RING" => Some("Ring"),
                "TREE" => Some("Tree"),
                "NVLS" => Some("NVLS"),
                "PAT" => Some("PAT"),
                _ => None,
            })
        });
    let proto = toks
        .iter()
        .rev()
        .find(|w| matches!(**w, "LL" | "LL128" | "SIMPLE"))
        .and_then(|w| Proto::parse(w));
    Some(Kernel {
        line,
        name,
        algo,
        proto,
    })
}

fn per_call(line: usize, t: &str) -> Option<LoggedCall> {
    let (head, rest) = t.split_once(" Bytes -> Algo ")?;
    let (func, bytes) = match head.rsplit_once(": ") {
        Some((f, b)) => (Func::parse(f), b),
        None => (None, head),
    };
    let bytes: u64 = bytes.trim().parse().ok()?;
    let toks: Vec<&str> = rest.split_whitespace().collect();
    let algo = algo_name(toks.first()?)?;
    if toks.get(1) != Some(&"proto") {
        return None;
    }
    let proto = Proto::parse(toks.get(2)?)?;
    let time = match (toks.get(3), toks.get(4)) {
        (Some(&"time"), Some(v)) => crate::core::units::decimal::parse(v),
        _ => None,
    };
    Some(LoggedCall {
        line,
        func,
        bytes,
        algo,
        proto,
        time,
        repeats: 0,
    })
}

/// The cells of a `|`-separated table line after its first cell.
fn cells(t: &str) -> Vec<&str> {
    t.split('|')
        .skip(1)
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

/// Reads NCCL's debug lines; `None` when the paste has none of them.
/// `defaults` fill the model inputs the paste does not give.
pub fn read(text: &str, defaults: &Inputs) -> Option<NcclDebug> {
    let mut table: Option<LoggedTable> = None;
    let (mut algos, mut protos): (Vec<&'static str>, Vec<Proto>) = (Vec::new(), Vec::new());
    let mut calls: Vec<LoggedCall> = Vec::new();
    let (mut proto_env, mut algo_env) = (None, None);
    let mut algo_lines: Vec<(usize, String)> = Vec::new();
    let mut kernels: Vec<Kernel> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(k) = kernel(n, raw) {
            if !kernels.iter().any(|x| x.name == k.name) {
                kernels.push(k);
            }
        }
        if !raw.contains("NCCL INFO") {
            continue;
        }
        let t = info_text(raw);
        let head = t.split('|').next().unwrap_or("").trim();
        if t.contains('|') && head == "Algorithm" {
            algos = cells(t).iter().filter_map(|c| algo_name(c)).collect();
            let tb = table.get_or_insert_with(|| LoggedTable {
                line: n,
                ..LoggedTable::default()
            });
            tb.has_pat |= algos.contains(&"PAT");
        } else if t.contains('|') && head == "Protocol" {
            protos = cells(t).iter().filter_map(|c| Proto::parse(c)).collect();
        } else if t.contains('|') && head == "Max NThreads" {
            if let Some(tb) = table.as_mut() {
                for (k, c) in cells(t).iter().enumerate() {
                    if let (Some(&a), Some(&p), Ok(v)) =
                        (algos.get(k / 3), protos.get(k), c.parse())
                    {
                        tb.threads.push((a, p, v));
                    }
                }
            }
        } else if let (Some(f), true) = (Func::parse(head), t.contains('|')) {
            if let Some(tb) = table.as_mut() {
                for (k, c) in cells(t).iter().enumerate() {
                    let (Some(&a), Some(&p)) = (algos.get(k / 3), protos.get(k)) else {
                        continue;
                    };
                    if let Some((l, b)) = c.split_once('/') {
                        if let (Some(lat), Some(bw)) = (
                            crate::core::units::decimal::parse(l.trim()),
                            crate::core::units::decimal::parse(b.trim()),
                        ) {
                            tb.cells.push(LoggedCell {
                                func: f,
                                algo: a,
                                proto: p,
                                lat,
                                bw,
                            });
                        }
                    }
                }
            }
        } else if let Some(c) = per_call(n, t) {
            match calls
                .iter_mut()
                .find(|x| x.func == c.func && x.bytes == c.bytes)
            {
                Some(x) => x.repeats += 1,
                None => calls.push(c),
            }
        } else if let Some(v) = t.strip_prefix("NCCL_PROTO set by environment to ") {
            proto_env.get_or_insert((n, v.trim().to_string()));
        } else if let Some(v) = t.strip_prefix("NCCL_ALGO set by environment to ") {
            algo_env.get_or_insert((n, v.trim().to_string()));
            algo_lines.push((n, v.trim().to_string()));
        }
    }
    let inputs = read_inputs(text, defaults);
    let stated = inputs.assumed.iter().all(|a| *a != "version");
    let version = if stated {
        Some(inputs.inputs.version)
    } else if calls.iter().any(|c| c.func.is_some()) || table.as_ref().is_some_and(|t| t.has_pat) {
        // A function prefix (2.23+) or a PAT block (2.23+).
        Some(Version::V2_30)
    } else if calls.iter().any(|c| c.time.is_some()) {
        Some(Version::V2_19)
    } else {
        None
    };
    let any = table.is_some()
        || !calls.is_empty()
        || proto_env.is_some()
        || algo_env.is_some()
        || !kernels.is_empty()
        || inputs.graphs;
    any.then_some(NcclDebug {
        table,
        calls,
        proto_env,
        algo_env,
        algo_lines,
        kernels,
        inputs,
        version,
    })
}

/// One logged cell against the port.
#[derive(Clone, Debug, PartialEq)]
pub struct CellCheck {
    /// The logged cell.
    pub logged: LoggedCell,
    /// The port's `(lat, bw)`; `None` for an algorithm it does not model.
    pub port: Option<(f64, f64)>,
}

impl CellCheck {
    /// Both numbers within 0.1 (the table prints one decimal).
    pub fn agrees(&self) -> bool {
        self.port.is_some_and(|(l, b)| {
            (l - self.logged.lat).abs() <= 0.1 && (b - self.logged.bw).abs() <= 0.1
        })
    }
}

/// One logged pick against the port's.
#[derive(Clone, Debug, PartialEq)]
pub struct PickCheck {
    /// The logged call.
    pub logged: LoggedCall,
    /// The function compared (the logged one, else all-reduce).
    pub func: Func,
    /// The port's pick at the model's size: `(algo, proto, µs)`; `None`
    /// when the logged algorithm is not modelled or nothing is enabled.
    pub port: Option<(Algo, Proto, f64)>,
}

impl PickCheck {
    /// Same algorithm and protocol.
    pub fn agrees(&self) -> bool {
        self.port
            .is_some_and(|(a, p, _)| a.name() == self.logged.algo && p == self.logged.proto)
    }
    /// True when the logged algorithm is one the port models.
    pub fn modelled(&self) -> bool {
        Algo::parse(self.logged.algo).is_some()
    }
}

/// The port against a log.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugComparison {
    /// The port's tables at the log's inputs.
    pub tuning: Tuning,
    /// Every logged Tree and Ring cell.
    pub cells: Vec<CellCheck>,
    /// Logged cells of algorithms the port does not model.
    pub not_modelled_cells: usize,
    /// Every logged pick.
    pub picks: Vec<PickCheck>,
}

impl DebugComparison {
    /// `(agreeing, compared)` cells.
    pub fn cell_agreement(&self) -> (usize, usize) {
        (
            self.cells.iter().filter(|c| c.agrees()).count(),
            self.cells.len(),
        )
    }
    /// `(agreeing, compared)` picks of modelled algorithms.
    pub fn pick_agreement(&self) -> (usize, usize) {
        let m: Vec<&PickCheck> = self.picks.iter().filter(|p| p.modelled()).collect();
        (m.iter().filter(|p| p.agrees()).count(), m.len())
    }
}

/// Runs the port at the log's inputs (with `fallback` filling what the log
/// does not say) and compares it with the logged table and picks.
///
/// # Errors
/// The port's refusal of the inputs (e.g. a bad `NCCL_PROTO` under v2.30).
pub fn compare(d: &NcclDebug, inputs: &Inputs) -> Result<DebugComparison, String> {
    let mut inp = inputs.clone();
    if let Some(v) = d.version {
        inp.version = v;
    }
    if let Some((_, s)) = &d.proto_env {
        inp.proto_env = Some(s.clone());
    }
    if let Some((_, s)) = &d.algo_env {
        inp.algo_env = Some(s.clone());
    }
    let t = tune(&inp)?;
    let mut cells = Vec::new();
    let mut not_modelled = 0;
    for c in d.table.iter().flat_map(|t| &t.cells) {
        match Algo::parse(c.algo) {
            Some(a) => {
                let cell = t.cells[Func::ALL.iter().position(|f| *f == c.func).unwrap_or(4)]
                    [a as usize][c.proto as usize];
                cells.push(CellCheck {
                    logged: c.clone(),
                    port: Some((f64::from(cell.lat), f64::from(cell.bw))),
                });
            }
            None => not_modelled += 1,
        }
    }
    // Each call under the NCCL_ALGO in effect at its line (several runs may
    // be pasted one after the other, each with its own).
    let mut forced: Vec<(Option<String>, Tuning)> = Vec::new();
    let mut picks = Vec::new();
    for c in &d.calls {
        let env = d
            .algo_lines
            .iter()
            .rfind(|(n, _)| *n < c.line)
            .map(|(_, v)| v.clone())
            .or_else(|| inp.algo_env.clone());
        let tk = match forced.iter().position(|(e, _)| *e == env) {
            Some(i) => i,
            None => {
                let mut i2 = inp.clone();
                i2.algo_env = env.clone();
                forced.push((env, tune(&i2)?));
                forced.len() - 1
            }
        };
        let tt = &forced[tk].1;
        let func = c.func.unwrap_or(Func::AllReduce);
        // 2.24+ prints the per-rank size of an AllGather/ReduceScatter;
        // the model reads the whole buffer.
        let per_rank = c.time.is_none() && matches!(func, Func::AllGather | Func::ReduceScatter);
        let n = if per_rank {
            c.bytes * inp.ranks as u64
        } else {
            c.bytes
        };
        picks.push(PickCheck {
            logged: c.clone(),
            func,
            port: tt.pick(func, n).map(|p| (p.algo, p.proto, p.time)),
        });
    }
    Ok(DebugComparison {
        tuning: t,
        cells,
        not_modelled_cells: not_modelled,
        picks,
    })
}

/// A size where NCCL's pick lost to the other algorithm in two measured
/// sweeps (`NCCL_ALGO` forced to each).
#[derive(Clone, Debug, PartialEq)]
pub struct Regret {
    /// Size, bytes.
    pub bytes: f64,
    /// The algorithm NCCL's model picks there.
    pub picked: Algo,
    /// The algorithm measured faster.
    pub faster: Algo,
    /// How much slower the pick was: t_picked / t_faster − 1 (0.25 = 25 %).
    pub loss: f64,
}

/// Where measured sweeps of Tree and Ring (two logs, each after its
/// `NCCL_ALGO set by environment to …` line) show NCCL's pick losing by
/// more than `margin` (0.05 = 5 %), and the example tuner plugin's CSV rows
/// that pick the faster one for each run of such sizes (its best protocol
/// there by the model).
pub fn regrets(
    t: &Tuning,
    sweeps: [(Algo, &[(f64, f64)]); 2],
    margin: f64,
) -> (Vec<Regret>, Vec<String>) {
    let f = Func::AllReduce;
    let [(a0, p0), (a1, p1)] = sweeps;
    let mut out: Vec<Regret> = Vec::new();
    for &(n, t0) in p0 {
        let Some(&(_, t1)) = p1.iter().find(|(m, _)| (m - n).abs() <= 1e-9 * n) else {
            continue;
        };
        let Some(pick) = t.pick(f, n.round().max(1.0) as u64) else {
            continue;
        };
        let (tp, to, other) = if pick.algo == a0 {
            (t0, t1, a1)
        } else if pick.algo == a1 {
            (t1, t0, a0)
        } else {
            continue;
        };
        if tp > to * (1.0 + margin) {
            out.push(Regret {
                bytes: n,
                picked: pick.algo,
                faster: other,
                loss: tp / to - 1.0,
            });
        }
    }
    let mut rows = Vec::new();
    let mut k = 0;
    while k < out.len() {
        let mut j = k;
        while j + 1 < out.len()
            && out[j + 1].faster == out[k].faster
            && (out[j + 1].bytes / out[j].bytes - 2.0).abs() < 1e-9
        {
            j += 1;
        }
        let (lo, hi) = (out[k].bytes.round() as u64, out[j].bytes.round() as u64);
        let a = out[k].faster;
        let mid = ((lo as f64 * hi as f64).sqrt()).round() as u64;
        let proto = Proto::ALL
            .into_iter()
            .filter_map(|p| Some((p, t.time(f, a, p, mid)?)))
            .min_by(|x, y| x.1.total_cmp(&y.1))
            .map_or(Proto::Simple, |x| x.0);
        rows.push(tuner_row(
            f,
            lo,
            hi,
            a,
            proto,
            t.inputs.nodes,
            t.inputs.ranks,
        ));
        k = j + 1;
    }
    (out, rows)
}

/// The example tuner plugin's CSV row (NVIDIA/nccl v2.30.7-1
/// `plugins/tuner/example/nccl_tuner.conf`: `collective_type,min_bytes,
/// max_bytes,algorithm,protocol,channels,nNodes,nRanks`, 8 fields, `-1` to
/// keep NCCL's channels) that picks `algo`/`proto` for sizes `lo..=hi`.
pub fn tuner_row(
    func: Func,
    lo: u64,
    hi: u64,
    algo: Algo,
    proto: Proto,
    nodes: usize,
    ranks: usize,
) -> String {
    format!(
        "{},{lo},{hi},{},{},-1,{nodes},{ranks}",
        func.name().to_ascii_lowercase(),
        algo.name().to_ascii_lowercase(),
        proto.name().to_ascii_lowercase()
    )
}
