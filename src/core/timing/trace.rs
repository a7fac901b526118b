//! A [`Clock`] as files: CSV of its messages, and Chrome trace-event JSON
//! (the "JSON Array/Object Format" of the Trace Event Format that
//! chrome://tracing and Perfetto open): complete events (`"ph": "X"`) with
//! `ts` and `dur` in microseconds, `pid` 0 and one `tid` per rank, named
//! "rank r" by `thread_name` metadata events. Each message is a `send`
//! event on its sender's row and a `recv` event on its receiver's, from the
//! rendezvous to the arrival of its last byte; a reduce adds a `reduce`
//! event after the arrival. PyTorch profiler traces use the same format.

use std::fmt::Write;

use super::clock::{Clock, Message};
use crate::core::units::decimal;

/// Microseconds with nanosecond digits, as trace files write them.
fn us(t: f64) -> String {
    let v = t * 1e6;
    if v == v.trunc() && v.abs() < 1e15 {
        decimal::fixed(v, 0)
    } else {
        decimal::fixed(v, 3)
    }
}

fn event(out: &mut String, name: &str, cat: &str, tid: usize, ts: f64, dur: f64, m: &Message) {
    if !out.ends_with('[') {
        out.push(',');
    }
    let _ = write!(
        out,
        "\n{{\"name\":\"{name}\",\"cat\":\"{cat}\",\"ph\":\"X\",\"ts\":{},\"dur\":{},\"pid\":0,\"tid\":{tid},\
         \"args\":{{\"round\":{},\"piece\":{},\"bytes\":{},\"critical\":{},\"delivered\":{}}}}}",
        us(ts),
        us(dur.max(0.0)),
        m.round,
        m.piece,
        m.bytes,
        m.critical,
        m.delivered
    );
}

/// The clock as Chrome trace-event JSON (see the module doc). Times are
/// microseconds from the collective's start.
pub fn chrome_trace(clock: &Clock) -> String {
    let mut out = String::from("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[");
    for r in 0..clock.p {
        if !out.ends_with('[') {
            out.push(',');
        }
        let _ = write!(
            out,
            "\n{{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":{r},\"args\":{{\"name\":\"rank {r}\"}}}}"
        );
    }
    for m in &clock.messages {
        let dur = m.arrival - m.start;
        event(
            &mut out,
            &format!("send → {}", m.dst),
            "send",
            m.src,
            m.start,
            dur,
            m,
        );
        event(
            &mut out,
            &format!("recv ← {}", m.src),
            "recv",
            m.dst,
            m.start,
            dur,
            m,
        );
        if m.done > m.arrival {
            event(
                &mut out,
                "reduce",
                "reduce",
                m.dst,
                m.arrival,
                m.done - m.arrival,
                m,
            );
        }
    }
    out.push_str("\n]}\n");
    out
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
