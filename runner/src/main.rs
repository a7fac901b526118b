//! `collective-lab-run`: runs a Collective Lab schedule over MPI on real f32
//! buffers, times it, and checks its result against the matching MPI
//! collective.
//!
//! `mpirun -n P collective-lab-run --alg KEY --sizes 8B:64MiB [--iters N]
//! [--warmup N] [--segments K] [--trace FILE] [--format osu|nccl]
//! [--baseline] [--ranks-per-node G]`
//!
//! For each size the registry generates the schedule
//! ([`collective_lab::core::collectives::Algorithm::generate_on`]); each round
//! every rank posts `MPI_Irecv` and `MPI_Isend` for its transfers, waits for
//! them, then adds (`Reduce`) or copies (`Copy`) what arrived. A timed
//! iteration calls no MPI collective; a barrier stands between iterations,
//! outside the timed region. Rank 0 prints an OSU or nccl-tests table that the
//! measure view reads.
//!
//! Exit codes: 0 verified, 1 a result was wrong, 2 bad arguments or a layout
//! the algorithm does not fit (every rank decides the same and finalizes
//! MPI before exiting), 3 an internal error.

mod args;
mod check;
mod eager;
mod exec;
mod layout;
mod plan;
mod report;

use std::fs::File;
use std::io::{BufWriter, Write};
use std::ops::Range;

use collective_lab::core::cost::nccl::CollectiveKind;
use collective_lab::core::execute::default_init;
use collective_lab::core::topology::Topology;
use mpi::datatype::PartitionMut;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

use crate::args::{Command, EagerArg, Options, ELEM_BYTES};
use crate::exec::{Event, EVENT_FIELDS};
use crate::plan::{RankPlan, Segmented};
use crate::report::{Header, Row, Timing};

/// A result was wrong beyond float reordering.
const EXIT_WRONG: i32 = 1;
/// Bad arguments or a layout that does not fit.
const EXIT_USAGE: i32 = 2;
/// Something that should not happen (a malformed schedule, MPI refusing).
const EXIT_INTERNAL: i32 = 3;

/// Why a run stops early: the exit code and the message rank 0 prints.
struct Failure {
    code: i32,
    msg: String,
}

fn usage(msg: impl Into<String>) -> Failure {
    Failure {
        code: EXIT_USAGE,
        msg: msg.into(),
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    // Help, the list and the version need no MPI: they are answered before
    // `MPI_Init`, so they work outside `mpirun` (and print once under it).
    let parsed = args::parse(&argv);
    let text = match &parsed {
        Ok(Command::Help) => Some(vec![args::usage()]),
        Ok(Command::List) => Some(args::list()),
        Ok(Command::Version) => Some(args::version(
            mpi::environment::version(),
            &mpi::environment::library_version().unwrap_or_default(),
        )),
        _ => None,
    };
    if let Some(lines) = text {
        if args::launcher_rank().is_none_or(|r| r == 0) {
            say(&lines);
        }
        return;
    }
    let code = match mpi::initialize() {
        Some(universe) => {
            let world = universe.world();
            let result = match parsed {
                Ok(Command::Run(o)) => drive(&world, &o),
                Ok(_) => Ok(0),
                Err(e) => Err(usage(e)),
            };
            let code = match result {
                Ok(code) => code,
                Err(f) => {
                    if world.rank() == 0 && !f.msg.is_empty() {
                        eprintln!("collective-lab-run: {}", f.msg);
                    }
                    f.code
                }
            };
            // Finalize MPI on every rank before exiting with the code.
            drop(universe);
            code
        }
        None => {
            eprintln!("collective-lab-run: MPI could not be initialised");
            EXIT_INTERNAL
        }
    };
    std::process::exit(code);
}

/// Rank `me`'s input: `default_init` everywhere, or, for an all-gather,
/// only on the rank's own ranges (zero elsewhere), as the app's executor
/// starts it.
fn initial(kind: CollectiveKind, n: usize, me: usize, owned: &[Range<usize>]) -> Vec<f32> {
    if kind == CollectiveKind::AllGather {
        let mut v = vec![0f32; n];
        for r in owned {
            for i in r.clone() {
                v[i] = default_init(me, i as u64) as f32;
            }
        }
        v
    } else {
        (0..n).map(|i| default_init(me, i as u64) as f32).collect()
    }
}

/// Every rank's mean, reduced as OSU does (all ranks take part).
fn gather_timing(world: &SimpleCommunicator, mean: f64) -> Timing {
    let mut all = vec![0f64; world.size() as usize];
    world.all_gather_into(&mean, &mut all[..]);
    Timing::of(&all)
}

/// Each rank's process id and processor name (all ranks take part).
fn rank_names(world: &SimpleCommunicator) -> Vec<(u32, String)> {
    const W: usize = 64;
    let p = world.size() as usize;
    let host = mpi::environment::processor_name().unwrap_or_default();
    let mut name = [0u8; W];
    for (d, s) in name
        .iter_mut()
        .zip(host.bytes().filter(|b| b.is_ascii_graphic()))
    {
        *d = s;
    }
    let mut names = vec![0u8; W * p];
    world.all_gather_into(&name[..], &mut names[..]);
    let pid = std::process::id();
    let mut pids = vec![0u32; p];
    world.all_gather_into(&pid, &mut pids[..]);
    pids.into_iter()
        .zip(names.chunks_exact(W))
        .map(|(pid, n)| {
            let end = n.iter().position(|&b| b == 0).unwrap_or(W);
            (pid, String::from_utf8_lossy(&n[..end]).into_owned())
        })
        .collect()
}

/// Times `iters` calls of `step(true)` after `warmup` untimed ones, a
/// barrier before each (outside the timed region); `step(false)` runs
/// untimed before the barrier (to reset the buffer). Returns this rank's
/// mean seconds per call.
fn time_loop(
    world: &SimpleCommunicator,
    warmup: usize,
    iters: usize,
    mut step: impl FnMut(bool),
) -> f64 {
    let mut total = 0.0;
    for it in 0..warmup + iters {
        step(false);
        world.barrier();
        let t0 = mpi::time();
        step(true);
        let dt = mpi::time() - t0;
        if it >= warmup {
            total += dt;
        }
    }
    total / iters.max(1) as f64
}

/// One traced iteration, its events gathered to rank 0 (`Some` there).
fn traced(
    world: &SimpleCommunicator,
    plan: &RankPlan,
    input: &[f32],
    buf: &mut [f32],
    scratch: &mut [f32],
) -> Option<Vec<Vec<Event>>> {
    let p = world.size() as usize;
    buf.copy_from_slice(input);
    world.barrier();
    let origin = mpi::time();
    let mut evs = Vec::new();
    exec::run_once(world, plan, buf, scratch, Some(&mut evs), origin);
    let rows: Vec<f64> = evs.iter().flat_map(|&e| exec::to_row(e)).collect();
    let count = rows.len() as i32;
    let mut counts = vec![0i32; p];
    world.all_gather_into(&count, &mut counts[..]);
    let root = world.process_at_rank(0);
    if world.rank() != 0 {
        root.gather_varcount_into(&rows[..]);
        return None;
    }
    let displs: Vec<i32> = counts
        .iter()
        .scan(0, |acc, &c| {
            let d = *acc;
            *acc += c;
            Some(d)
        })
        .collect();
    let mut all = vec![0f64; counts.iter().map(|&c| c as usize).sum()];
    {
        let mut part = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
        root.gather_varcount_into_root(&rows[..], &mut part);
    }
    let per_rank = counts
        .iter()
        .zip(&displs)
        .map(|(&c, &d)| {
            all[d as usize..(d + c) as usize]
                .chunks_exact(EVENT_FIELDS)
                .filter_map(exec::from_row)
                .collect()
        })
        .collect();
    Some(per_rank)
}

/// Opens the trace file on rank 0 and tells every rank whether it worked.
fn open_trace(world: &SimpleCommunicator, o: &Options) -> Result<Option<File>, Failure> {
    let mut file = None;
    let mut ok = 1i32;
    if world.rank() == 0 {
        if let Some(path) = &o.trace {
            match File::create(path) {
                Ok(f) => file = Some(f),
                Err(e) => {
                    eprintln!("collective-lab-run: cannot write the trace to {path}: {e}");
                    ok = 0;
                }
            }
        }
    }
    world.process_at_rank(0).broadcast_into(&mut ok);
    if ok == 0 {
        return Err(Failure {
            code: EXIT_USAGE,
            msg: String::new(),
        });
    }
    Ok(file)
}

fn say(lines: &[String]) {
    let mut out = std::io::stdout().lock();
    for l in lines {
        // A closed stdout (e.g. `| head`) must not stop the other ranks.
        let _ = writeln!(out, "{l}");
    }
    let _ = out.flush();
}

/// Every rank's trace events, indexed by rank.
type RankEvents = Vec<Vec<Event>>;

/// One size: generate, time, self-check, optionally time the baseline and
/// trace one iteration (every rank takes part). The trace events are
/// `Some` on rank 0 only.
fn measure(
    world: &SimpleCommunicator,
    o: &Options,
    topo: &Topology,
    bytes: u64,
    want_trace: bool,
) -> Result<(Row, Option<RankEvents>), Failure> {
    let p = world.size() as usize;
    let me = world.rank() as usize;
    let kind = o.alg.collective();
    let n = bytes / ELEM_BYTES;
    let mut seg = Segmented::generate(o.alg, topo, n, ELEM_BYTES, o.segments)
        .map_err(|e| usage(format!("{} at {bytes} B: {e}", o.alg.key())))?;
    if o.break_reduce {
        seg.break_reduce();
    }
    let plan = seg.plan(me).map_err(|e| Failure {
        code: EXIT_INTERNAL,
        msg: format!("malformed schedule: {e}"),
    })?;
    let owned: Vec<Vec<Range<usize>>> = (0..p).map(|r| seg.owned(r)).collect();
    let input = initial(kind, n as usize, me, &owned[me]);
    let mut buf = input.clone();
    let mut scratch = vec![0f32; plan.scratch];
    let (warmup, iters) = args::iterations(o, bytes);
    let mean = time_loop(world, warmup, iters, |timed| {
        if timed {
            exec::run_once(world, &plan, &mut buf, &mut scratch, None, 0.0);
        } else {
            buf.copy_from_slice(&input);
        }
    });
    // `buf` holds the last iteration's result (each starts from `input`).
    let ours = gather_timing(world, mean);
    let mut reference = check::Reference::new(kind, &input, owned, me, p);
    reference.run(world);
    let diff = check::combine(world, reference.diff(&buf));
    let baseline = o.baseline.then(|| {
        let mean = time_loop(world, warmup, iters, |timed| {
            if timed {
                reference.run(world);
            }
        });
        gather_timing(world, mean)
    });
    let events = if want_trace {
        traced(world, &plan, &input, &mut buf, &mut scratch)
    } else {
        None
    };
    let count = if kind == CollectiveKind::AllReduce {
        n
    } else {
        (0..p)
            .map(|r| seg.owned(r).iter().map(Range::len).sum::<usize>())
            .max()
            .unwrap_or(0) as u64
    };
    let row = Row {
        bytes,
        count,
        iters,
        ours,
        baseline,
        diff,
    };
    Ok((row, events))
}

/// One run, from the options to the summary; `Ok` carries the exit code.
fn drive(world: &SimpleCommunicator, o: &Options) -> Result<i32, Failure> {
    let rank0 = world.rank() == 0;
    let p = world.size() as usize;
    if p < 2 {
        return Err(usage(format!(
            "a collective needs at least 2 ranks (got p = {p}); start it with mpirun -n P, P ≥ 2"
        )));
    }
    let sizes = match o.ranks_per_node {
        Some(g) => layout::even_nodes(p, g),
        None => layout::node_sizes(&layout::node_leaders(world)).map_err(usage)?,
    };
    let shape = layout::describe(&sizes);
    let topo = layout::topology(o.alg, p, &sizes).map_err(usage)?;
    let first = o.sizes.first().copied().unwrap_or(ELEM_BYTES) / ELEM_BYTES;
    Segmented::generate(o.alg, &topo, first, ELEM_BYTES, o.segments).map_err(|e| {
        usage(format!(
            "{} does not fit this job ({shape}{}): {e}",
            o.alg.key(),
            if o.alg.needs_nodes() {
                ", from MPI_Comm_split_type SHARED or --ranks-per-node"
            } else {
                ""
            }
        ))
    })?;
    let trace_file = open_trace(world, o)?;
    let kind = o.alg.collective();
    let (iters_txt, warmup_txt) = match (o.iters, o.warmup) {
        _ if o.sizes.len() == 1 => {
            let (w, i) = args::iterations(o, o.sizes[0]);
            (i.to_string(), w.to_string())
        }
        (i, w) => (
            i.map_or("1000/100 (OSU's: up to 8 KiB/above)".into(), |i| {
                i.to_string()
            }),
            w.map_or("200/10 (OSU's)".into(), |w| w.to_string()),
        ),
    };
    // Only rank 0 prints, so only rank 0 asks the library.
    let eager = match o.eager_limit {
        Some(EagerArg::Auto) if rank0 => {
            Some(eager::query(sizes.len() == 1 || o.ranks_per_node.is_some()))
        }
        Some(EagerArg::Bytes(bytes)) => Some(Ok(eager::EagerLimit {
            bytes,
            source: "given with --eager-limit".into(),
        })),
        _ => None,
    };
    let baseline_alg =
        if o.baseline && o.format == args::Format::Osu && kind == CollectiveKind::AllReduce {
            eager::tuned_allreduce(|k| std::env::var(k).ok())
        } else {
            None
        };
    let header = Header {
        alg: o.alg,
        p,
        layout: shape.clone(),
        ranks: rank_names(world),
        min_bytes: o.sizes.first().copied().unwrap_or(0),
        max_bytes: o.sizes.last().copied().unwrap_or(0),
        iters: iters_txt,
        warmup: warmup_txt,
        segments: o.segments,
        reference: check::reference_name(kind),
        baseline: o.baseline,
        eager,
        baseline_alg,
    };
    if rank0 {
        let mut head = vec![report::first_line(&header)];
        head.extend(report::provenance_lines(&header));
        head.extend(match o.format {
            args::Format::Osu => report::osu_header(&header),
            args::Format::Nccl => report::nccl_header(&header),
        });
        say(&head);
    }
    let mut rows: Vec<Row> = Vec::new();
    let mut buses = Vec::new();
    let mut trace_events = None;
    let mut trace_bytes = 0;
    for (si, &bytes) in o.sizes.iter().enumerate() {
        let want_trace = o.trace.is_some() && si + 1 == o.sizes.len();
        let (row, events) = measure(world, o, &topo, bytes, want_trace)?;
        if want_trace {
            trace_events = events;
            trace_bytes = bytes;
        }
        if rank0 {
            match o.format {
                args::Format::Osu => say(&[report::osu_row(&row)]),
                args::Format::Nccl => {
                    let (line, b) = report::nccl_row(&header, &row);
                    buses.extend(b);
                    say(&[line]);
                }
            }
        }
        rows.push(row);
    }
    let wrong: u64 = rows.iter().map(|r| r.diff.wrong).sum();
    let mut code = if wrong > 0 { EXIT_WRONG } else { 0 };
    if rank0 {
        let mut tail = Vec::new();
        if o.format == args::Format::Nccl {
            tail.extend(report::nccl_trailer(wrong, &buses));
        }
        tail.extend(report::check_summary(&header, &rows));
        if let (Some(file), Some(events), Some(path)) = (trace_file, &trace_events, &o.trace) {
            let json = report::trace_json(events, &header, trace_bytes);
            let mut w = BufWriter::new(file);
            match w.write_all(json.as_bytes()).and_then(|()| w.flush()) {
                Ok(()) => tail.push(format!(
                    "# trace: one iteration at {trace_bytes} B, {} events on {p} ranks written to {path} (Chrome trace-event JSON)",
                    events.iter().map(Vec::len).sum::<usize>()
                )),
                Err(e) => {
                    eprintln!("collective-lab-run: cannot write the trace to {path}: {e}");
                    code = code.max(EXIT_USAGE);
                }
            }
        }
        say(&tail);
    }
    Ok(code)
}
