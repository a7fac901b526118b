//! The cost page's protocol panels as data: what `proto=mpi` and
//! `proto=nccl` show, row by row and sentence by sentence.
//!
//! - MPI: a message of m bytes below the eager limit costs α + mβ; at or
//!   above it, the sender first waits for a request and a clear-to-send
//!   (one round trip, 2α, by default: Open MPI's `ob1` rendezvous), once
//!   per round of the critical path ([`crate::core::cost::protocol`]).
//! - NCCL: every (algorithm, protocol) pair is timed as latency + n /
//!   bandwidth and the fastest runs (NCCL's `src/graph/tuning.cc`, ported in
//!   [`crate::core::cost::nccl_tune`]).

use crate::core::collectives::compare::{
    all_allreduce_rendezvous, best_at_rendezvous, best_intervals_rendezvous,
};
use crate::core::collectives::Algorithm;
use crate::core::cost::nccl_tune::{switch_reason, tune, Algo, Func, Proto, Tuning, NOT_MODELLED};
use crate::core::cost::protocol::Handshake;
use crate::core::cost::CostParams;
use crate::core::order::sort_u64;
use crate::core::units::{format_bandwidth, format_binary, format_both, format_time};
use crate::params::protocol::{ProtoChoice, ProtoParams};

/// One algorithm's row of the MPI panel.
#[derive(Clone, Debug, PartialEq)]
pub struct MpiRow {
    /// The algorithm.
    pub alg: Algorithm,
    /// Its α–β time without the protocol, e.g. "1.3 ms".
    pub base: String,
    /// Rounds of its critical path that go by rendezvous.
    pub rendezvous_rounds: u64,
    /// Their handshakes' time.
    pub handshakes: String,
    /// The time with the protocol.
    pub total: String,
    /// Whether it is the fastest at n with the protocol.
    pub winner: bool,
}

/// One range of n and its fastest algorithm, e.g. "0 B – 4 kB (3.906 KiB):
/// rec. doubling".
#[derive(Clone, Debug, PartialEq)]
pub struct RangeLine {
    /// The fastest algorithm on the range (the app colours the line by it).
    pub best: Algorithm,
    /// The range and the algorithm, in words.
    pub text: String,
}

/// The "MPI protocol" panel.
#[derive(Clone, Debug, PartialEq)]
pub struct MpiPanel {
    /// "MPI protocol: eager below 4 KiB, rendezvous from there".
    pub heading: String,
    /// The rule, with the handshake's time.
    pub rule: String,
    /// Every compared all-reduce at n.
    pub rows: Vec<MpiRow>,
    /// "Fastest at … with the protocol: …, …." (`None` without rows).
    pub winner: Option<String>,
    /// The fastest on each range of n.
    pub ranges: Vec<RangeLine>,
}

/// The MPI panel at p ranks and n bytes on `model` under `proto`
/// (`None` unless `proto=mpi`).
pub fn mpi_panel(p: usize, n: f64, model: CostParams, proto: &ProtoParams) -> Option<MpiPanel> {
    if proto.choice != ProtoChoice::Mpi {
        return None;
    }
    let r = proto.rendezvous();
    let times = all_allreduce_rendezvous(p, n, model, &r);
    let fastest = best_at_rendezvous(p, n, model, &r);
    let best = times
        .iter()
        .find(|(a, _)| *a == fastest)
        .map(|(a, t)| (*a, t.time));
    let rows = times
        .iter()
        .map(|(a, t)| MpiRow {
            alg: *a,
            base: format_time(t.base),
            rendezvous_rounds: t.rendezvous_rounds.round() as u64,
            handshakes: format_time(t.handshake_part),
            total: format_time(t.time),
            winner: best.is_some_and(|b| b.0 == *a),
        })
        .collect();
    let ranges = best_intervals_rendezvous(p, model, &r)
        .iter()
        .map(|iv| {
            let to = if iv.to.is_finite() {
                format_both(iv.to)
            } else {
                "∞".to_string()
            };
            RangeLine {
                best: iv.best,
                text: format!("{} – {to}: {}", format_both(iv.from), iv.best.short_label()),
            }
        })
        .collect();
    let limit = format_binary(r.limit);
    let round_trip = if matches!(r.handshake, Handshake::RoundTrip) {
        " (2α)"
    } else {
        ""
    };
    Some(MpiPanel {
        heading: format!("MPI protocol: eager below {limit}, rendezvous from there"),
        rule: format!(
            "A message of m < {limit} goes eagerly (α + mβ); a longer one first waits for a request and a clear-to-send, {} more{round_trip}. \
             Each round on the critical path pays it once when its message is at or above the limit.",
            format_time(r.handshake_time(model.alpha))
        ),
        rows,
        winner: best.map(|(a, t)| {
            format!(
                "Fastest at {} with the protocol: {}, {}.",
                format_both(n),
                a.short_label(),
                format_time(t)
            )
        }),
        ranges,
    })
}

/// A column head of the NCCL table: (algorithm, protocol) cell `cell`
/// (3 × algorithm + protocol, the order of [`Algo::ALL`] × [`Proto::ALL`])
/// and its formula, "4.2 µs + n / 240 GB/s" or "off".
#[derive(Clone, Debug, PartialEq)]
pub struct NcclHead {
    /// The cell's index.
    pub cell: usize,
    /// Its latency + n / bandwidth.
    pub formula: String,
}

/// One size's row of the NCCL table.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclRow {
    /// The size, bytes.
    pub n: u64,
    /// The size in words, with " (n)" on the chosen size.
    pub size: String,
    /// Whether it is the chosen size.
    pub chosen: bool,
    /// Each cell's time ("—" when the pair does not run) and whether it is
    /// NCCL's pick.
    pub cells: Vec<(String, bool)>,
    /// The pick, e.g. "Ring/LL128", or "none".
    pub pick: String,
}

/// The "NCCL's pick" table.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclTable {
    /// "NCCL's pick: all-reduce, 8 ranks on 1 node(s), NCCL v2.30.7-1".
    pub heading: String,
    /// The page's answer with `proto=nccl`: "NCCL's pick at 64 KiB (65.54 kB): Ring/LL, 16.31 µs."
    /// (or "NCCL's model runs nothing at …" when no pair runs).
    pub answer: String,
    /// The rule the table follows.
    pub rule: &'static str,
    /// The column heads.
    pub heads: Vec<NcclHead>,
    /// The rows: 1 KiB, 4 KiB, … 1 GiB and the chosen size.
    pub rows: Vec<NcclRow>,
    /// What the model leaves out.
    pub not_modelled: String,
}

/// One size where NCCL's pick changes.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclSwitch {
    /// "Ring/LL → Ring/LL128 at …".
    pub title: String,
    /// Why, from the model's numbers.
    pub reason: String,
}

/// The "Where NCCL's pick changes" panel.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclSwitches {
    /// "From 1 B: …." (`None` when nothing is picked at 1 B).
    pub first: Option<String>,
    /// Each change from 1 B to 16 GiB.
    pub items: Vec<NcclSwitch>,
    /// Said when there is no change.
    pub none: Option<&'static str>,
}

/// What `proto=nccl` shows: the tuning model's tables and the two panels,
/// or the sentence that refuses the inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct NcclPanels {
    /// The model's tables (the map is drawn from the inputs).
    pub tuning: Result<Tuning, String>,
    /// The table, or "NCCL's model refuses these inputs: …".
    pub table: Result<NcclTable, String>,
    /// The switches (`None` when the inputs were refused).
    pub switches: Option<NcclSwitches>,
}

/// The fields NCCL's model reads (with p): the sentence beside its answer.
pub const NCCL_READS: &str = "From the NCCL fields (version, channels, per-channel bandwidths, network latency, nodes, compute capability, link) and p; the α–β fields do not enter it.";

/// The label of the α–β table when a protocol gives the page's answer:
/// the table is the textbook model, with its own inputs.
pub fn textbook_note(choice: ProtoChoice) -> Option<&'static str> {
    match choice {
        ProtoChoice::None => None,
        ProtoChoice::Mpi => Some("The textbook α–β model, from the α–β fields (p, size, α, bandwidth or β, γ), without the protocol: the answer with MPI's protocol is the one above."),
        ProtoChoice::Nccl => Some("The textbook α–β model, from the α–β fields (p, size, α, bandwidth or β, γ). NCCL does not choose from this table: it runs only its own algorithms (ring and tree, with the LL, LL128 and Simple protocols), timed from the NCCL fields, and its answer is the one above."),
    }
}

/// The table's sizes: 1 KiB, 4 KiB, … 1 GiB (powers of 4) and the chosen
/// size n (bytes, rounded, at least 1) in order.
pub fn table_sizes(n: f64) -> Vec<u64> {
    let mut v: Vec<u64> = (0..=10).map(|k| 1024u64 << (2 * k)).collect();
    let chosen = n.round().max(1.0) as u64;
    if !v.contains(&chosen) {
        v.push(chosen);
        sort_u64(&mut v);
    }
    v
}

/// The NCCL panels at p ranks and n bytes under `proto` (`None` unless
/// `proto=nccl`).
pub fn nccl_panels(p: usize, n: f64, proto: &ProtoParams) -> Option<NcclPanels> {
    if proto.choice != ProtoChoice::Nccl {
        return None;
    }
    let tuning = tune(&proto.nccl.inputs(p));
    let (table, switches) = match &tuning {
        Ok(t) => (Ok(nccl_table(t, n)), Some(nccl_switches(t))),
        Err(e) => (Err(format!("NCCL's model refuses these inputs: {e}")), None),
    };
    Some(NcclPanels {
        tuning,
        table,
        switches,
    })
}

fn nccl_table(t: &Tuning, n: f64) -> NcclTable {
    let f = Func::AllReduce;
    let chosen = n.round().max(1.0) as u64;
    let heads = Algo::ALL
        .iter()
        .flat_map(|&a| {
            Proto::ALL.map(move |pr| {
                let c = t.cells[4][a as usize][pr as usize];
                NcclHead {
                    cell: 3 * a as usize + pr as usize,
                    formula: if c.bw > 0.0 {
                        format!(
                            "{} + n / {}",
                            format_time(f64::from(c.lat) * 1e-6),
                            format_bandwidth(f64::from(c.bw) * 1e9)
                        )
                    } else {
                        "off".to_string()
                    },
                }
            })
        })
        .collect();
    let rows = table_sizes(n)
        .into_iter()
        .map(|size| {
            let pick = t.pick(f, size);
            let cells = Algo::ALL
                .iter()
                .flat_map(|&a| {
                    Proto::ALL.map(move |pr| {
                        let text = t
                            .time(f, a, pr, size)
                            .map_or_else(|| "—".to_string(), |us| format_time(us * 1e-6));
                        (text, pick.is_some_and(|k| k.algo == a && k.proto == pr))
                    })
                })
                .collect();
            NcclRow {
                n: size,
                size: format!(
                    "{}{}",
                    format_binary(size as f64),
                    if size == chosen { " (n)" } else { "" }
                ),
                chosen: size == chosen,
                cells,
                pick: pick.map_or_else(|| "none".to_string(), |k| k.to_string()),
            }
        })
        .collect();
    let i = &t.inputs;
    let answer = match t.pick(f, chosen) {
        Some(k) => match t.time(f, k.algo, k.proto, chosen) {
            Some(us) => format!(
                "NCCL's pick at {}: {k}, {}.",
                format_both(n),
                format_time(us * 1e-6)
            ),
            None => format!("NCCL's pick at {}: {k}.", format_both(n)),
        },
        None => format!("NCCL's model runs no algorithm at {}.", format_both(n)),
    };
    NcclTable {
        answer,
        heading: format!(
            "NCCL's pick: all-reduce, {} ranks on {} node(s), NCCL {}",
            i.ranks,
            i.nodes,
            i.version.tag()
        ),
        rule: "NCCL times each algorithm × protocol as latency + n / bandwidth (src/graph/tuning.cc) and runs the fastest (◀). \
               LL carries 8 data bytes per 16-byte line, LL128 120 per 128, Simple the full line behind a fence.",
        heads,
        rows,
        not_modelled: format!(
            "Not modelled, never picked here (a real run may use them): {}.",
            NOT_MODELLED.join(", ")
        ),
    }
}

fn nccl_switches(t: &Tuning) -> NcclSwitches {
    let f = Func::AllReduce;
    let switches = t.switches(f, 1, 1 << 34);
    let first = t.pick(f, 1);
    let items = switches
        .iter()
        .scan(first, |prev, &(n, to)| {
            let from = (*prev)?;
            *prev = Some(to);
            Some(NcclSwitch {
                title: format!("{from} → {to} at {}", format_both(n as f64)),
                reason: switch_reason(t, f, from, to, n),
            })
        })
        .collect();
    NcclSwitches {
        first: first.map(|k| format!("From 1 B: {k}.")),
        items,
        none: switches
            .is_empty()
            .then_some("The pick does not change from 1 B to 16 GiB."),
    }
}
