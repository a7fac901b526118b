//! What rank 0 prints: the OSU or nccl-tests table, the self-check summary,
//! and the Chrome trace. Pure text, tested natively (and read back by the
//! measure view's parsers in `tests/measure_import.rs`).

use collective_lab::core::collectives::Algorithm;
use collective_lab::core::cost::nccl::{busbw_factor, nccl_time_str, CollectiveKind};
use collective_lab::core::timing::trace::{mpi_trace, MpiRun};
use collective_lab::core::units::format_size;

use crate::args::nccl_algo;
use crate::check::Diff;
use crate::eager::EagerLimit;
use crate::exec::Event;

/// One time over the ranks, seconds per operation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// Mean over the ranks of each rank's mean over the iterations.
    pub avg: f64,
    /// Smallest rank mean.
    pub min: f64,
    /// Largest rank mean.
    pub max: f64,
}

impl Timing {
    /// OSU's reduction of per-rank mean latencies: mean, min and max.
    pub fn of(rank_means: &[f64]) -> Timing {
        let n = rank_means.len().max(1) as f64;
        Timing {
            avg: rank_means.iter().sum::<f64>() / n,
            min: rank_means.iter().copied().fold(f64::INFINITY, f64::min),
            max: rank_means.iter().copied().fold(0.0, f64::max),
        }
    }
}

/// One size's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Tensor size, bytes.
    pub bytes: u64,
    /// Elements per rank as nccl-tests counts them (the whole tensor for
    /// an all-reduce, the largest piece for a reduce-scatter or all-gather).
    pub count: u64,
    /// Timed iterations.
    pub iters: usize,
    /// The schedule's time.
    pub ours: Timing,
    /// The MPI collective's time (`--baseline`).
    pub baseline: Option<Timing>,
    /// The self-check, over all ranks.
    pub diff: Diff,
}

/// What the header lines say about the run.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The algorithm.
    pub alg: Algorithm,
    /// Ranks.
    pub p: usize,
    /// "1 node of 4 ranks".
    pub layout: String,
    /// Each rank's process id and host.
    pub ranks: Vec<(u32, String)>,
    /// First and last size, bytes.
    pub min_bytes: u64,
    /// Last size, bytes.
    pub max_bytes: u64,
    /// Timed iterations, as printed ("20", or "1000/100" for OSU's defaults).
    pub iters: String,
    /// Warm-up iterations, as printed.
    pub warmup: String,
    /// Tensor pieces.
    pub segments: usize,
    /// The reference collective's MPI name.
    pub reference: &'static str,
    /// True with `--baseline`.
    pub baseline: bool,
    /// The MPI library's eager limit (`--eager-limit`), or why it is unknown.
    pub eager: Option<Result<EagerLimit, String>>,
    /// Open MPI's tuned all-reduce algorithm forced for the baseline
    /// (`coll_tuned_allreduce_algorithm` K and its registry entry).
    pub baseline_alg: Option<(u32, Algorithm)>,
}

/// The annotation line of algorithm `alg`: `# collective-lab-run alg=ring
/// p=4`, with ` eager=4096` when the eager limit is known.
fn annotation(h: &Header, alg: Algorithm) -> String {
    let mut s = format!("# collective-lab-run alg={} p={}", alg.key(), h.p);
    if let Some(Ok(e)) = &h.eager {
        s += &format!(" eager={}", e.bytes);
    }
    s
}

/// The first line, always: `# collective-lab-run alg=ring p=4` (plus
/// ` eager=BYTES` with `--eager-limit`). When the baseline is Open MPI's
/// tuned algorithm forced to one the registry has (and the table is OSU's,
/// side by side), the baseline's own annotation stands beside it after `|`,
/// so the measure view fits that table under its algorithm too.
pub fn first_line(h: &Header) -> String {
    let ours = annotation(h, h.alg);
    match h.baseline_alg {
        Some((_, alg)) if h.baseline => beside(&ours, &annotation(h, alg)),
        _ => ours,
    }
}

/// Comment lines after the first: where the eager limit came from (or why
/// there is none) and which tuned algorithm the baseline was forced to.
pub fn provenance_lines(h: &Header) -> Vec<String> {
    let mut out = Vec::new();
    match &h.eager {
        Some(Ok(e)) => out.push(format!(
            "# eager limit: {} B ({}); it counts the match header, so a message of {} B or more goes rendezvous",
            e.bytes, e.source, e.bytes
        )),
        Some(Err(why)) => out.push(format!("# eager limit: not reported ({why})")),
        None => {}
    }
    if let (Some((k, alg)), true) = (h.baseline_alg, h.baseline) {
        out.push(format!(
            "# baseline: {} with Open MPI's tuned all-reduce algorithm {k} ({}) forced (coll_tuned_use_dynamic_rules 1), annotated alg={}",
            h.reference,
            crate::eager::tuned_name(k),
            alg.key()
        ));
    }
    out
}

/// OSU's name of a collective in its titles.
fn osu_name(c: CollectiveKind) -> &'static str {
    match c {
        CollectiveKind::ReduceScatter => "Reduce_scatter",
        CollectiveKind::AllGather => "Allgather",
        _ => "Allreduce",
    }
}

/// nccl-tests' tool name of a collective.
fn nccl_tool(c: CollectiveKind) -> &'static str {
    match c {
        CollectiveKind::ReduceScatter => "reduce_scatter_perf",
        CollectiveKind::AllGather => "all_gather_perf",
        _ => "all_reduce_perf",
    }
}

/// Width of the left table when the baseline is printed beside it.
const OSU_WIDTH: usize = 76;

fn osu_cells(bytes: u64, t: &Timing, iters: usize) -> String {
    format!(
        "{:<10}{:>18.2}{:>18.2}{:>18.2}{:>12}",
        bytes,
        t.avg * 1e6,
        t.min * 1e6,
        t.max * 1e6,
        iters
    )
}

fn osu_table_head(title: String) -> [String; 2] {
    [
        title,
        format!(
            "{:<10}{:>18}{:>18}{:>18}{:>12}",
            "# Size", "Avg Latency(us)", "Min Latency(us)", "Max Latency(us)", "Iterations"
        ),
    ]
}

fn beside(left: &str, right: &str) -> String {
    format!("{left:<OSU_WIDTH$} | {right}")
}

/// The OSU header after [`first_line`]: the settings, a title the measure
/// view reads the collective and `nranks` from, and OSU's column header
/// (`osu_util.c`: `# Size` in 10 columns, each latency in 18, `Iterations`
/// in 12). With the baseline, its own table stands to the right after `|`.
pub fn osu_header(h: &Header) -> Vec<String> {
    let c = h.alg.collective();
    let mut out = vec![settings_line(h)];
    let ours = osu_table_head(format!(
        "# OSU-format MPI {} Latency Test: collective-lab-run {}, nranks {}",
        osu_name(c),
        h.alg.key(),
        h.p
    ));
    if h.baseline {
        let theirs = osu_table_head(format!(
            "# OSU-format MPI {} Latency Test: {}, nranks {}",
            osu_name(c),
            h.reference,
            h.p
        ));
        out.extend(ours.iter().zip(&theirs).map(|(a, b)| beside(a, b)));
    } else {
        out.extend(ours);
    }
    out
}

fn settings_line(h: &Header) -> String {
    let nccl = nccl_algo(h.alg).map_or(String::new(), |n| format!(" (NCCL_ALGO={n})"));
    format!(
        "# {}{nccl}, {}, f32 elements initialised as the app does (rank r holds r + 1), \
         {} segment{}, warm-up {}, iterations {}; times are each rank's mean, then mean/min/max over ranks",
        h.alg.label(),
        h.layout,
        h.segments,
        if h.segments == 1 { "" } else { "s" },
        h.warmup,
        h.iters
    )
}

/// One OSU row (with the baseline's row beside it after `|`).
pub fn osu_row(row: &Row) -> String {
    let ours = osu_cells(row.bytes, &row.ours, row.iters);
    match &row.baseline {
        Some(b) => beside(&ours, &osu_cells(row.bytes, b, row.iters)),
        None => ours,
    }
}

/// The nccl-tests header after [`first_line`] (src/common.cu's layout): the
/// tool name, `nThread 1 nGpus 1`, one `#  Rank` line per rank (the measure
/// view takes p from them), the group labels and the column header. The
/// schedule runs in place, so there is one group, labelled with the
/// algorithm's key; the baseline is a second group.
pub fn nccl_header(h: &Header) -> Vec<String> {
    let mut out = vec![
        format!(
            "# collective-lab-run {} in the format of {} (in place, f32)",
            h.alg.key(),
            nccl_tool(h.alg.collective())
        ),
        settings_line(h),
        format!(
            "# nThread 1 nGpus 1 minBytes {} maxBytes {} step: 2(factor) warmup iters: {} iters: {} agg iters: 1 validation: 1 graph: 0",
            h.min_bytes, h.max_bytes, h.warmup, h.iters
        ),
        "#".into(),
        "# Using devices".into(),
    ];
    for (r, (pid, host)) in h.ranks.iter().enumerate() {
        out.push(format!(
            "#  Rank {r:2} Group  0 Pid {pid:6} on {host:>10} device  0 [cpu] MPI process"
        ));
    }
    out.push("#".into());
    let group = |label: &str| format!("  {label:>36}");
    let mut labels = format!("# {:52}", "");
    labels += &group(h.alg.key());
    let mut cols =
        "#       size         count      type   redop    root     time   algbw   busbw #wrong"
            .to_string();
    let mut units =
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)       "
            .to_string();
    if h.baseline {
        labels += &group(h.reference);
        cols += "     time   algbw   busbw #wrong";
        units += "     (us)  (GB/s)  (GB/s)       ";
    }
    out.extend([labels, cols, units.trim_end().to_string()]);
    out
}

fn nccl_group(bytes: u64, t: f64, factor: f64, wrong: &str) -> (String, f64) {
    let algbw = bytes as f64 / t / 1e9;
    let busbw = algbw * factor;
    (
        format!(
            "  {}  {algbw:6.2}  {busbw:6.2}  {wrong:>5}",
            nccl_time_str(t * 1e6)
        ),
        busbw,
    )
}

/// One nccl-tests row and the busbw values printed on it (GB/s); `#wrong`
/// counts the elements the self-check found wrong (`N/A` for the baseline,
/// which is the reference).
pub fn nccl_row(h: &Header, row: &Row) -> (String, Vec<f64>) {
    let c = h.alg.collective();
    let redop = if c == CollectiveKind::AllGather {
        "none"
    } else {
        "sum"
    };
    let mut line = format!(
        "{:12}  {:12}  {:>8}  {:>6}  {:>6}",
        row.bytes, row.count, "float", redop, -1
    );
    let (g, bus) = nccl_group(
        row.bytes,
        row.ours.avg,
        busbw_factor(c, h.p),
        &row.diff.wrong.to_string(),
    );
    line += &g;
    let mut buses = vec![bus];
    if let Some(b) = &row.baseline {
        let (g, bus) = nccl_group(row.bytes, b.avg, busbw_factor(c, h.p), "N/A");
        line += &g;
        buses.push(bus);
    }
    (line, buses)
}

/// nccl-tests' trailer: out-of-bounds count and the mean printed busbw.
pub fn nccl_trailer(wrong: u64, buses: &[f64]) -> Vec<String> {
    // The mean of the values as printed (two decimals), as nccl-tests' own.
    let printed: Vec<f64> = buses
        .iter()
        .map(|b| format!("{b:.2}").parse().unwrap_or(*b))
        .collect();
    let avg = printed.iter().sum::<f64>() / printed.len().max(1) as f64;
    vec![
        format!(
            "# Out of bounds values : {wrong} {}",
            if wrong == 0 { "OK" } else { "FAILED" }
        ),
        format!("# Avg bus bandwidth    : {avg:.4}"),
        "#".into(),
    ]
}

/// The self-check summary: one line for the whole sweep, plus one per size
/// that is not bitwise equal. Comment lines, so the parsers skip them.
pub fn check_summary(h: &Header, rows: &[Row]) -> Vec<String> {
    let all = rows.iter().fold(Diff::EMPTY, |a, r| a.merge(r.diff));
    let bad = rows.iter().filter(|r| r.diff.wrong > 0).count();
    let equal = rows.iter().filter(|r| r.diff.bitwise).count();
    let verdict = if bad == 0 {
        format!("all {} sizes agree", rows.len())
    } else {
        format!("WRONG at {bad} of {} sizes", rows.len())
    };
    let bits = if equal == rows.len() {
        "bitwise equal at every size".to_string()
    } else {
        format!(
            "bitwise equal at {equal} of {} sizes (a different summation order may change the last bits)",
            rows.len()
        )
    };
    let mut out = vec![format!(
        "# self-check against {} on the same inputs: {verdict}; largest absolute difference = {}, {bits}; tolerance p·ε relative = {}·2⁻²³",
        h.reference,
        number(all.max_abs),
        h.p
    )];
    for r in rows.iter().filter(|r| !r.diff.bitwise) {
        let what = if r.diff.wrong > 0 {
            format!("WRONG: {} elements beyond p·ε", r.diff.wrong)
        } else {
            "within p·ε: the summation order differs".into()
        };
        out.push(format!(
            "#   {}: largest absolute difference = {}, {what}",
            format_size(r.bytes),
            number(r.diff.max_abs)
        ));
    }
    out
}

fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.3e}")
    }
}

/// The Chrome trace-event JSON of one iteration at `bytes`: `events[r]`
/// are rank r's events (seconds after its post-barrier origin), written by
/// the core's trace writer ([`mpi_trace`]): a process per rank (named with
/// its host), rows `send`, `recv`, `wait` and `reduce`, a flow from each
/// send to the reduce of its message. The run's case goes in `otherData`
/// (the format's free metadata): `tool`, `alg` (the registry key), `p`,
/// `bytes`, `segments` and `layout`; the app's trace view (`?view=trace`)
/// reads it to model the same case.
pub fn trace_json(events: &[Vec<Event>], h: &Header, bytes: u64) -> String {
    let hosts: Vec<String> = h.ranks.iter().map(|(_, host)| host.clone()).collect();
    mpi_trace(
        events,
        &MpiRun {
            alg: h.alg.key(),
            p: h.p,
            bytes,
            segments: h.segments,
            layout: &h.layout,
            hosts: &hosts,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn header(baseline: bool) -> Header {
        Header {
            alg: Algorithm::RING,
            p: 4,
            layout: "1 node of 4 ranks".into(),
            ranks: (0..4).map(|r| (100 + r, "host".to_string())).collect(),
            min_bytes: 8,
            max_bytes: 16,
            iters: "10".into(),
            warmup: "2".into(),
            segments: 1,
            reference: "MPI_Allreduce",
            baseline,
            eager: None,
            baseline_alg: None,
        }
    }

    #[test]
    fn the_eager_limit_and_the_tuned_baseline_are_annotated() {
        let mut h = header(true);
        h.eager = Some(Ok(EagerLimit {
            bytes: 4096,
            source: "btl_vader_eager_limit from ompi_info (default)".into(),
        }));
        h.baseline_alg = Some((3, Algorithm::RD));
        let line = first_line(&h);
        let (a, b) = line.split_once(" | ").expect("two annotations");
        assert_eq!(a.trim_end(), "# collective-lab-run alg=ring p=4 eager=4096");
        assert_eq!(b, "# collective-lab-run alg=rd p=4 eager=4096");
        let prov = provenance_lines(&h);
        assert_eq!(prov.len(), 2);
        assert!(prov[0].starts_with("# eager limit: 4096 B (btl_vader"));
        assert!(
            prov[1].contains("algorithm 3 (recursive_doubling)"),
            "{}",
            prov[1]
        );
        h.baseline = false;
        assert_eq!(
            first_line(&h),
            "# collective-lab-run alg=ring p=4 eager=4096"
        );
        h.eager = Some(Err("ompi_info could not be run".into()));
        assert_eq!(first_line(&h), "# collective-lab-run alg=ring p=4");
        assert_eq!(
            provenance_lines(&h),
            vec!["# eager limit: not reported (ompi_info could not be run)".to_string()]
        );
    }

    fn row(bytes: u64, us: f64) -> Row {
        let t = Timing {
            avg: us * 1e-6,
            min: us * 0.5e-6,
            max: us * 2e-6,
        };
        Row {
            bytes,
            count: bytes / 4,
            iters: 10,
            ours: t,
            baseline: Some(t),
            diff: Diff::EMPTY,
        }
    }

    #[test]
    fn osu_columns_have_osu_widths() {
        let h = header(false);
        assert_eq!(first_line(&h), "# collective-lab-run alg=ring p=4");
        let head = osu_header(&h);
        assert_eq!(
            head[2],
            "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations"
        );
        let r = Row {
            baseline: None,
            ..row(1024, 12.5)
        };
        // 10 + 18 + 18 + 18 + 12 columns: 12.50, 6.25, 25.00 µs.
        assert_eq!(
            osu_row(&r),
            "1024                   12.50              6.25             25.00          10"
        );
    }

    #[test]
    fn the_baseline_stands_beside_after_a_bar() {
        let line = osu_row(&row(8, 1.0));
        let (a, b) = line.split_once(" | ").expect("two tables");
        assert_eq!(a.trim_end(), osu_cells(8, &row(8, 1.0).ours, 10));
        assert_eq!(b, osu_cells(8, &row(8, 1.0).ours, 10));
        assert_eq!(line.matches('|').count(), 1);
    }

    #[test]
    fn nccl_rows_carry_algbw_and_busbw() {
        // 1 MiB in 200 µs: algbw = 1048576 / 2e-4 / 1e9 = 5.24 GB/s,
        // busbw = algbw · 2·3/4 = 7.86 GB/s.
        let h = header(false);
        let r = Row {
            baseline: None,
            ..row(1 << 20, 200.0)
        };
        let (line, buses) = nccl_row(&h, &r);
        assert_eq!(
            line,
            "     1048576        262144     float     sum      -1    200.0    5.24    7.86      0"
        );
        assert!((buses[0] - 7.86432).abs() < 1e-9);
        let t = nccl_trailer(0, &[7.86432, 1.0]);
        assert_eq!(t[1], "# Avg bus bandwidth    : 4.4300");
        assert!(
            nccl_header(&h)
                .iter()
                .filter(|l| l.contains("  Rank "))
                .count()
                == 4
        );
    }

    #[test]
    fn the_summary_says_when_bits_differ() {
        let h = header(false);
        let mut rows = vec![row(8, 1.0), row(16, 1.0)];
        assert!(check_summary(&h, &rows)[0].contains(
            "all 2 sizes agree; largest absolute difference = 0, bitwise equal at every size"
        ));
        rows[1].diff = Diff {
            max_abs: 9.5367431640625e-7,
            wrong: 0,
            bitwise: false,
        };
        let s = check_summary(&h, &rows);
        assert!(s[0].contains("bitwise equal at 1 of 2 sizes (a different summation order"));
        assert_eq!(
            s[1],
            "#   16 B: largest absolute difference = 9.537e-7, within p·ε: the summation order differs"
        );
        rows[0].diff.wrong = 3;
        let s = check_summary(&h, &rows);
        assert!(s[0].contains("WRONG at 1 of 2 sizes"));
        // No bar: a bar splits the baseline's side-by-side tables.
        assert!(s.iter().all(|l| !l.contains('|')));
    }

    #[test]
    fn trace_events_are_chrome_complete_events_a_process_per_rank() {
        use crate::exec::Kind;
        let e = Event {
            round: 1,
            kind: Kind::Send,
            peer: Some(0),
            bytes: 64,
            copy: false,
            start: 2e-6,
            dur: 1e-6,
        };
        let w = Event {
            kind: Kind::Wait,
            peer: None,
            ..e
        };
        let r = Event {
            kind: Kind::Reduce,
            peer: Some(1),
            start: 5e-6,
            ..e
        };
        let json = trace_json(&[vec![r], vec![e, w]], &header(false), 64);
        let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        let evs = v["traceEvents"].as_array().expect("array");
        let x: Vec<_> = evs.iter().filter(|e| e["ph"] == "X").collect();
        assert_eq!(x.len(), 3);
        // rank 1 is pid 2; its send row and its wait row
        assert_eq!(x[1]["name"], "send → 0");
        assert_eq!(x[1]["cat"], "send");
        assert_eq!(x[1]["pid"], 2);
        assert_eq!(x[1]["args"]["peer"], 0);
        assert_eq!(x[1]["ts"], 2.0);
        assert_eq!(x[2]["cat"], "wait");
        assert_ne!(x[1]["tid"], x[2]["tid"]);
        assert!(x[2]["args"].get("peer").is_none());
        // rank 0 (pid 1) reduces what rank 1 sent: a flow joins them
        assert_eq!(
            (x[0]["name"].as_str(), x[0]["pid"].as_u64()),
            (Some("reduce ← 1"), Some(1))
        );
        let flow: Vec<_> = evs.iter().filter(|e| e["cat"] == "flow").collect();
        assert_eq!(flow.len(), 2);
        assert_eq!(
            (flow[0]["pid"].as_u64(), flow[1]["pid"].as_u64()),
            (Some(2), Some(1))
        );
        let names: Vec<&str> = evs
            .iter()
            .filter(|e| e["name"] == "process_name")
            .filter_map(|e| e["args"]["name"].as_str())
            .collect();
        assert_eq!(names, ["rank 0 on host", "rank 1 on host"]);
        assert_eq!(v["displayTimeUnit"], "ms");
        let info = &v["otherData"];
        // the test header: ring at p = 4, 1 segment, one node
        assert_eq!(info["alg"], "ring");
        assert_eq!(info["p"], 4);
        assert_eq!(info["bytes"], 64);
        assert_eq!(info["segments"], 1);
        assert_eq!(info["layout"], "1 node of 4 ranks");
    }

    #[test]
    fn osu_reduces_rank_means_to_mean_min_and_max() {
        let t = Timing::of(&[1.0, 2.0, 6.0]);
        assert_eq!((t.avg, t.min, t.max), (3.0, 1.0, 6.0));
    }
}
