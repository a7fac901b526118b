//! Runs as files: the model's [`Clock`] as CSV of its messages and ranks
//! and as a Chrome trace, and the MPI runner's traced iteration
//! ([`MpiEvent`]s) as a Chrome trace, both written by the core's one trace
//! writer ([`crate::core::trace_event`]: a process per rank, rows per kind
//! of work, flows from sends to receives).

use std::fmt::Write;

use super::clock::{Clock, Message};
use crate::core::trace_event::{Arg, Name, TraceWriter};
use crate::core::units::decimal;

/// The rows of each rank in the model's trace.
const CLOCK_ROWS: &[&str] = &["send", "recv", "reduce"];

fn message_args(m: &Message) -> [(&'static str, Arg); 5] {
    [
        ("round", Arg::Int(m.round as u64)),
        ("piece", Arg::Int(m.piece as u64)),
        ("bytes", Arg::Int(m.bytes)),
        ("critical", Arg::Bool(m.critical)),
        ("delivered", Arg::Bool(m.delivered)),
    ]
}

/// The clock as Chrome trace-event JSON: process `rank r` (pid r + 1) with
/// rows `send`, `recv` and `reduce`. Each message is a `send → dst` span
/// on its sender and a `recv ← src` span on its receiver, both from the
/// rendezvous to the arrival of its last byte, joined by a flow; a reduce
/// adds a `reduce` span from the arrival to the end of the addition. Args:
/// `round`, `piece`, `bytes`, `critical`, `delivered`. Times are µs from
/// the collective's start.
pub fn chrome_trace(clock: &Clock) -> String {
    let mut t = TraceWriter::new(CLOCK_ROWS);
    for r in 0..clock.p {
        t.process(format!("rank {r}"));
    }
    t.other_text("tool", "Collective Lab timeline (model)");
    for m in &clock.messages {
        let (a, b) = (m.start, m.arrival);
        let args = message_args(m);
        let send = t.span(
            m.src,
            0,
            Name::Numbered("send → ", m.dst),
            "send",
            (a, b),
            &args,
        );
        let recv = t.span(
            m.dst,
            1,
            Name::Numbered("recv ← ", m.src),
            "recv",
            (a, b),
            &args,
        );
        if let (Some(s), Some(r)) = (send, recv) {
            t.flow(s, r);
        }
        if m.done > m.arrival {
            t.span(
                m.dst,
                2,
                Name::Text("reduce"),
                "reduce",
                (m.arrival, m.done),
                &args,
            );
        }
    }
    t.finish()
}

/// What an MPI rank did, as the runner records it for one traced iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MpiKind {
    /// Posting one `MPI_Isend`.
    Send,
    /// Posting one `MPI_Irecv`.
    Recv,
    /// `MPI_Waitall` on the round's requests.
    Wait,
    /// Adding (or copying) one received message into the buffer.
    Reduce,
}

impl MpiKind {
    /// The trace category and row: `send`, `recv`, `wait` or `reduce`.
    pub fn cat(self) -> &'static str {
        MPI_ROWS[self.row()]
    }

    fn row(self) -> usize {
        match self {
            MpiKind::Send => 0,
            MpiKind::Recv => 1,
            MpiKind::Wait => 2,
            MpiKind::Reduce => 3,
        }
    }
}

/// The rows of each rank in a runner's trace.
const MPI_ROWS: &[&str] = &["send", "recv", "wait", "reduce"];

/// One traced interval on one MPI rank.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MpiEvent {
    /// Round index over the whole run.
    pub round: usize,
    /// What happened.
    pub kind: MpiKind,
    /// The other rank (none for a wait).
    pub peer: Option<usize>,
    /// Bytes moved (a wait: the bytes received in the round).
    pub bytes: u64,
    /// For a reduce event: true when the message was copied, not added.
    pub copy: bool,
    /// Start, seconds after the rank's post-barrier origin.
    pub start: f64,
    /// Duration, seconds.
    pub dur: f64,
}

/// The case of a runner's trace, written to `otherData` (which the trace
/// view reads to model the same case).
#[derive(Clone, Debug, PartialEq)]
pub struct MpiRun<'a> {
    /// Registry key of the algorithm.
    pub alg: &'a str,
    /// Ranks.
    pub p: usize,
    /// Tensor bytes of the traced iteration.
    pub bytes: u64,
    /// Pieces the tensor was cut into.
    pub segments: usize,
    /// The nodes, e.g. "1 node of 4 ranks".
    pub layout: &'a str,
    /// Each rank's host (empty: not named).
    pub hosts: &'a [String],
}

/// A runner's traced iteration as Chrome trace-event JSON: `events[r]` are
/// rank r's events, written as process `rank r` (pid r + 1, "rank r on
/// HOST" when the host is known) with rows `send`, `recv`, `wait` and
/// `reduce` (µs after the rank's barrier). A flow joins each send post to
/// the reduce (or copy) of the same message on its receiver, matched by
/// round and peer in order. `otherData`: `tool`, `alg`, `p`, `bytes`,
/// `segments`, `layout`.
pub fn mpi_trace(events: &[Vec<MpiEvent>], run: &MpiRun<'_>) -> String {
    let mut t = TraceWriter::new(MPI_ROWS);
    for r in 0..events.len() {
        match run.hosts.get(r).filter(|h| !h.is_empty()) {
            Some(h) => t.process(format!("rank {r} on {h}")),
            None => t.process(format!("rank {r}")),
        };
    }
    t.other_text("tool", "collective-lab-run");
    t.other_text("alg", run.alg);
    t.other("p", Arg::Int(run.p as u64));
    t.other("bytes", Arg::Int(run.bytes));
    t.other("segments", Arg::Int(run.segments as u64));
    t.other_text("layout", run.layout);
    // per rank: (round, peer, span) of its reduces not yet joined to a send
    let mut reduces: Vec<Vec<(usize, usize, Option<usize>)>> = vec![Vec::new(); events.len()];
    let mut sends = Vec::new();
    for (rank, evs) in events.iter().enumerate() {
        for e in evs {
            let name = match (e.kind, e.peer) {
                (MpiKind::Send, Some(p)) => Name::Numbered("send → ", p),
                (MpiKind::Recv, Some(p)) => Name::Numbered("recv ← ", p),
                (MpiKind::Reduce, Some(p)) if e.copy => Name::Numbered("copy ← ", p),
                (MpiKind::Reduce, Some(p)) => Name::Numbered("reduce ← ", p),
                _ => Name::Owned(format!("wait (round {})", e.round)),
            };
            let peer = e.peer.map_or(0, |p| p as u64);
            let args = [
                ("round", Arg::Int(e.round as u64)),
                ("bytes", Arg::Int(e.bytes)),
                ("peer", Arg::Int(peer)),
            ];
            // a wait has no peer
            let args = &args[..if e.peer.is_some() { 3 } else { 2 }];
            let span = t.span(
                rank,
                e.kind.row(),
                name,
                e.kind.cat(),
                (e.start, e.start + e.dur),
                args,
            );
            match (e.kind, e.peer) {
                (MpiKind::Send, Some(p)) => sends.push((rank, e.round, p, span)),
                (MpiKind::Reduce, Some(p)) => reduces[rank].push((e.round, p, span)),
                _ => {}
            }
        }
    }
    for (from, round, to, span) in sends {
        let Some(list) = reduces.get_mut(to) else {
            continue;
        };
        if let Some(slot) = list
            .iter_mut()
            .find(|(k, p, s)| *k == round && *p == from && s.is_some())
        {
            if let (Some(a), Some(b)) = (span, slot.2.take()) {
                t.flow(a, b);
            }
        }
    }
    t.finish()
}

/// The clock's messages as CSV, one row per message piece, times in
/// seconds: `round,piece,src,dst,bytes,op,link,start_s,flow_start_s,arrival_s,done_s,delivered,critical`.
pub fn messages_csv(clock: &Clock) -> String {
    let mut out = String::from(
        "round,piece,src,dst,bytes,op,link,start_s,flow_start_s,arrival_s,done_s,delivered,critical\n",
    );
    for m in &clock.messages {
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{}",
            m.round,
            m.piece,
            m.src,
            m.dst,
            m.bytes,
            if m.reduce { "reduce" } else { "copy" },
            m.class.label(),
            decimal::shortest_exp(m.start),
            decimal::shortest_exp(m.flow_start),
            decimal::shortest_exp(m.arrival),
            decimal::shortest_exp(m.done),
            m.delivered,
            m.critical
        );
    }
    out
}

/// Per-rank summary as CSV, times in seconds:
/// `rank,entered_s,finish_s,busy_s,wait_s,sent_bytes,received_bytes,failed_at_s`
/// (`finish_s` and `failed_at_s` empty when there is none).
pub fn ranks_csv(clock: &Clock) -> String {
    let mut out = String::from(
        "rank,entered_s,finish_s,busy_s,wait_s,sent_bytes,received_bytes,failed_at_s\n",
    );
    let opt = |v: Option<f64>| v.map(decimal::shortest_exp).unwrap_or_default();
    for (r, c) in clock.ranks.iter().enumerate() {
        let _ = writeln!(
            out,
            "{r},{},{},{},{},{},{},{}",
            decimal::shortest_exp(c.entered),
            opt(c.finish),
            decimal::shortest_exp(c.busy),
            decimal::shortest_exp(c.wait),
            c.sent,
            c.received,
            opt(c.failed_at)
        );
    }
    out
}
