//! Runs one rank's plan over MPI: per round, post the receives and the sends
//! (`MPI_Irecv`, `MPI_Isend`), wait for all of them (`MPI_Waitall`), then
//! apply what arrived. No collective is called here.

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::plan::{apply, RankPlan};

/// The runner's trace events are the core's ([`MpiEvent`]), written by the
/// core's trace writer ([`collective_lab::core::timing::trace::mpi_trace`]).
pub use collective_lab::core::timing::trace::{MpiEvent as Event, MpiKind as Kind};

/// The code of a kind when events travel as numbers.
fn code(k: Kind) -> f64 {
    match k {
        Kind::Send => 0.0,
        Kind::Recv => 1.0,
        Kind::Wait => 2.0,
        Kind::Reduce => 3.0,
    }
}

/// The kind of a code written by [`code`].
fn from_code(c: f64) -> Option<Kind> {
    match c as i64 {
        0 => Some(Kind::Send),
        1 => Some(Kind::Recv),
        2 => Some(Kind::Wait),
        3 => Some(Kind::Reduce),
        _ => None,
    }
}

/// Numbers per event when events travel to rank 0.
pub const EVENT_FIELDS: usize = 7;

/// The event as [`EVENT_FIELDS`] numbers.
pub fn to_row(e: Event) -> [f64; EVENT_FIELDS] {
    [
        e.round as f64,
        code(e.kind),
        e.peer.map_or(-1.0, |p| p as f64),
        e.bytes as f64,
        f64::from(u8::from(e.copy)),
        e.start,
        e.dur,
    ]
}

/// Reads a row written by [`to_row`].
pub fn from_row(r: &[f64]) -> Option<Event> {
    let [round, kind, peer, bytes, copy, start, dur] = *r else {
        return None;
    };
    Some(Event {
        round: round as usize,
        kind: from_code(kind)?,
        peer: (peer >= 0.0).then_some(peer as usize),
        bytes: bytes as u64,
        copy: copy != 0.0,
        start,
        dur,
    })
}

/// Runs `plan` once on `buf`, receiving into `scratch` (at least
/// `plan.scratch` long). With `trace`, records every post, wait and reduce,
/// timed with `MPI_Wtime` relative to `origin`.
pub fn run_once(
    world: &SimpleCommunicator,
    plan: &RankPlan,
    buf: &mut [f32],
    scratch: &mut [f32],
    mut trace: Option<&mut Vec<Event>>,
    origin: f64,
) {
    let elem = std::mem::size_of::<f32>() as u64;
    for rp in &plan.rounds {
        let space = &mut scratch[..rp.recv_elems()];
        {
            let sendbuf: &[f32] = buf;
            let trace = &mut trace;
            let requests = rp.sends.len() + rp.recvs.len();
            mpi::request::multiple_scope(requests, |scope, coll| {
                let mut rest: &mut [f32] = &mut *space;
                for m in &rp.recvs {
                    let t = mpi::time();
                    let (head, tail) = std::mem::take(&mut rest).split_at_mut(m.range.len());
                    rest = tail;
                    let req = world
                        .process_at_rank(m.peer as i32)
                        .immediate_receive_into_with_tag(scope, head, m.tag);
                    coll.add(req);
                    if let Some(ev) = trace.as_deref_mut() {
                        ev.push(Event {
                            round: rp.round,
                            kind: Kind::Recv,
                            peer: Some(m.peer),
                            bytes: m.range.len() as u64 * elem,
                            copy: false,
                            start: t - origin,
                            dur: mpi::time() - t,
                        });
                    }
                }
                for m in &rp.sends {
                    let t = mpi::time();
                    let req = world
                        .process_at_rank(m.peer as i32)
                        .immediate_send_with_tag(scope, &sendbuf[m.range.clone()], m.tag);
                    coll.add(req);
                    if let Some(ev) = trace.as_deref_mut() {
                        ev.push(Event {
                            round: rp.round,
                            kind: Kind::Send,
                            peer: Some(m.peer),
                            bytes: m.range.len() as u64 * elem,
                            copy: false,
                            start: t - origin,
                            dur: mpi::time() - t,
                        });
                    }
                }
                let t = mpi::time();
                let mut done = Vec::with_capacity(requests);
                coll.wait_all(&mut done);
                if let Some(ev) = trace.as_deref_mut() {
                    ev.push(Event {
                        round: rp.round,
                        kind: Kind::Wait,
                        peer: None,
                        bytes: rp.recv_elems() as u64 * elem,
                        copy: false,
                        start: t - origin,
                        dur: mpi::time() - t,
                    });
                }
            });
        }
        match trace.as_deref_mut() {
            None => apply(buf, &rp.recvs, space),
            Some(ev) => {
                let mut at = 0;
                for (i, m) in rp.recvs.iter().enumerate() {
                    let len = m.range.len();
                    let t = mpi::time();
                    apply(buf, &rp.recvs[i..=i], &space[at..at + len]);
                    ev.push(Event {
                        round: rp.round,
                        kind: Kind::Reduce,
                        peer: Some(m.peer),
                        bytes: len as u64 * elem,
                        copy: m.op == collective_lab::core::schedule::Op::Copy,
                        start: t - origin,
                        dur: mpi::time() - t,
                    });
                    at += len;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_survives_its_trip_as_numbers() {
        let e = Event {
            round: 3,
            kind: Kind::Reduce,
            peer: Some(2),
            bytes: 4096,
            copy: true,
            start: 1.5e-6,
            dur: 2.0e-7,
        };
        assert_eq!(from_row(&to_row(e)), Some(e));
        let w = Event {
            kind: Kind::Wait,
            peer: None,
            copy: false,
            ..e
        };
        assert_eq!(from_row(&to_row(w)), Some(w));
        assert_eq!(from_row(&[0.0; 3]), None);
        assert_eq!(from_code(7.0), None);
    }
}
