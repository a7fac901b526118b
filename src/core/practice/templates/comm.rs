//! The communication questions: ring rounds and bytes, recursive doubling
//! and Rabenseifner, α–β times and crossovers, busbw from a measured time,
//! and the multi-lane inter-node time.

use super::parts::*;
use super::values::*;
use crate::core::practice::answer::Kind;
use crate::core::practice::compute::{self, CostAlgorithm, PracticeAllReduce};
use crate::core::practice::mistakes as mk;
use crate::core::practice::mistakes::MistakeKind;
use crate::core::practice::question::{Numeric, Question, Tolerance, Unit, ViewLink};
use crate::core::units::format::format_number;
use crate::core::units::{
    format_bandwidth, format_binary, format_decimal, format_time, group_thousands,
};

pub(super) fn ring_rounds(p: usize) -> Question {
    let text = format!(
        "A ring all-reduce runs on p = {p} ranks. How many rounds does it take in all, \
         reduce-scatter and all-gather together?"
    );
    let rounds = compute::schedule_rounds(PracticeAllReduce::Ring, p).map_or(0.0, |r| r as f64);
    let mut m = mistakes(MistakeKind::PRounds, &[mk::p_rounds(p)]);
    m.extend(mistakes(MistakeKind::Log2Ring, &[mk::log2_ring_rounds(p)]));
    m.extend(mistakes(MistakeKind::OnePhase, &[mk::one_phase(rounds)]));
    let mut q = question(
        "Ring all-reduce rounds",
        text,
        vec![number("rounds", rounds, Tolerance::EXACT, m)],
        "Count the reduce-scatter and the all-gather separately: how many steps until a chunk has visited every rank?",
    );
    q.solution = vec![
        format!("reduce-scatter: p − 1 = {} rounds", p - 1),
        format!("all-gather: p − 1 = {} rounds", p - 1),
        format!(
            "total: 2(p − 1) = {} rounds (the generated schedule has {} rounds)",
            2 * (p - 1),
            crate::core::units::decimal::shortest(rounds)
        ),
    ];
    q.link = Some(ViewLink {
        label: format!("see it in the ring view at p = {p}"),
        query: format!("view=ring&p={p}"),
    });
    q
}

pub(super) fn ring_bytes(p: usize, n: Size, added: bool) -> Question {
    let text = format!(
        "A ring all-reduce of an n = {} tensor runs on p = {p} ranks. How many bytes does each rank \
         send, and how many does it receive{}? Answer in {}.",
        n.text(),
        if added {
            ", and how many of the received bytes does it add into its buffer"
        } else {
            ""
        },
        n.unit().symbol
    );
    let Some(e) = compute::execute_collective(PracticeAllReduce::Ring, p, n.bytes) else {
        return question("Ring all-reduce bytes per rank", text, vec![], "");
    };
    let nb = n.bytes as f64;
    let one_way = |v: f64| {
        let mut m = mistakes(MistakeKind::TwoN, &[mk::two_n(nb)]);
        m.extend(mistakes(
            MistakeKind::TwoPMinusOneN,
            &[mk::two_p_minus_one_n(p, nb)],
        ));
        m.extend(mistakes(
            MistakeKind::SentPlusReceived,
            &[mk::sent_plus_received(v)],
        ));
        m.extend(mistakes(MistakeKind::OnePhase, &[mk::one_phase(v)]));
        m
    };
    let sent = e.sent as f64;
    let received = e.received as f64;
    let mut parts = vec![
        size_part("bytes sent per rank", sent, n, one_way(sent)),
        size_part("bytes received per rank", received, n, one_way(received)),
    ];
    if added {
        parts.push(size_part(
            "bytes added per rank",
            e.reduced as f64,
            n,
            mistakes(
                MistakeKind::ReAddInAllGather,
                &[mk::re_add_in_all_gather(p, nb)],
            ),
        ));
    }
    let mut q = question(
        "Ring all-reduce bytes per rank",
        text,
        parts,
        "Each round a rank sends one chunk of n/p bytes; count the rounds of both phases.",
    );
    let chunk = nb / p as f64;
    let half = (p - 1) as f64 * chunk;
    let f = |v: f64| fmt_size(v, n.prefix);
    q.solution = vec![
        format!("chunk = n/p = {} / {p} = {}", n.text(), f(chunk)),
        format!(
            "reduce-scatter: p − 1 = {} rounds × {} = {} sent",
            p - 1,
            f(chunk),
            f(half)
        ),
        format!(
            "all-gather: {} rounds × {} = {} sent",
            p - 1,
            f(chunk),
            f(half)
        ),
        format!(
            "sent per rank: 2(p − 1)/p · n = 2 × {}/{p} × {} = {}",
            p - 1,
            n.text(),
            f(sent)
        ),
        format!(
            "received per rank: the same, {} (executed schedule: {} B sent and {} B received by the busiest rank)",
            f(received),
            group_thousands(e.sent),
            group_thousands(e.received)
        ),
    ];
    if added {
        q.solution.push(format!(
            "added: only the reduce-scatter adds, (p − 1)/p · n = {}; the all-gather copies",
            f(e.reduced as f64)
        ));
    }
    q.link = Some(ring_link(p, n));
    q
}

/// "see it in the ring view at p = 8, 64 MB".
pub fn ring_link(p: usize, n: Size) -> ViewLink {
    ViewLink {
        label: format!("see it in the ring view at p = {p}, {}", n.text()),
        query: format!("view=ring&p={p}&size={}", n.url()),
    }
}

pub(super) fn recursive(alg: PracticeAllReduce, p: usize, n: Size) -> Question {
    let text = format!(
        "An all-reduce of an n = {} tensor runs on p = {p} ranks with {}. How many rounds \
         does it take, and how many bytes does each rank send? Answer the bytes in {}.",
        n.text(),
        alg.label(),
        n.unit().symbol
    );
    let Some(e) = compute::execute_collective(alg, p, n.bytes) else {
        return question("Recursive algorithms", text, vec![], "");
    };
    let nb = n.bytes as f64;
    let rounds = e.rounds as f64;
    let sent = e.sent as f64;
    let k = f64::from(compute::floor_log2(p));
    let (round_mistakes, byte_mistakes) = match alg {
        PracticeAllReduce::Rabenseifner => {
            let mut b = mistakes(MistakeKind::TwoN, &[mk::two_n(nb)]);
            b.extend(mistakes(
                MistakeKind::TwoPMinusOneN,
                &[mk::two_p_minus_one_n(p, nb)],
            ));
            b.extend(mistakes(MistakeKind::OnePhase, &[mk::one_phase(sent)]));
            (mistakes(MistakeKind::OnePhase, &[mk::one_phase(rounds)]), b)
        }
        _ => (vec![], vec![]),
    };
    let parts = vec![
        number("rounds", rounds, Tolerance::EXACT, round_mistakes),
        size_part("bytes sent per rank", sent, n, byte_mistakes),
    ];
    let f = |v: f64| fmt_size(v, n.prefix);
    let mut q = question(
        "Recursive doubling and Rabenseifner",
        text,
        parts,
        "Partners differ in one bit of the rank: log₂ p steps per phase. Which message size moves in each step?",
    );
    q.solution = match alg {
        PracticeAllReduce::Rabenseifner => {
            let halves: Vec<String> = (1..=k as u32)
                .map(|i| f(nb / f64::from(1u32 << i)))
                .collect();
            vec![
                format!(
                    "recursive-halving reduce-scatter: log₂ {p} = {k} rounds sending {} = {}",
                    halves.join(" + "),
                    f(sent / 2.0),
                    k = crate::core::units::decimal::shortest(k)
                ),
                format!(
                    "recursive-doubling all-gather: {k} rounds sending the same {} in reverse",
                    f(sent / 2.0),
                    k = crate::core::units::decimal::shortest(k)
                ),
                format!(
                    "total: 2 log₂ p = {rounds} rounds, 2(p − 1)/p · n = {} per rank (executed: {} B)",
                    f(sent),
                    group_thousands(e.sent),
                    rounds = crate::core::units::decimal::shortest(rounds)
                ),
            ]
        }
        _ => vec![
            format!(
                "log₂ {p} = {k} exchanges with partners rank XOR 1, XOR 2, …",
                k = crate::core::units::decimal::shortest(k)
            ),
            format!(
                "each exchange sends the full tensor: {k} × {} = {} per rank (executed: {} B)",
                n.text(),
                f(sent),
                group_thousands(e.sent),
                k = crate::core::units::decimal::shortest(k)
            ),
        ],
    };
    q.link = Some(ViewLink {
        label: format!(
            "see it in the collectives view: {} at p = {p}, {}",
            alg.label(),
            n.text()
        ),
        query: format!("view=collectives&alg={}&p={p}&size={}", alg.key(), n.url()),
    });
    q
}

pub(super) fn time(alg: CostAlgorithm, p: usize, alpha: Alpha, link: Link, n: Size) -> Question {
    let nb = n.bytes as f64;
    let beta = link.beta();
    let formula = compute::time(alg, p, nb, alpha.seconds(), beta);
    let unit = time_unit(formula.time);
    let text = format!(
        "In the α–β model with α = {}, {}, p = {p} ranks and an n = {} message, how long does \
         a {} all-reduce take? Answer in {}.",
        alpha.text(),
        link.text(),
        n.text(),
        alg.short_label(),
        unit.symbol
    );
    let (a, f) = compute::factors(alg, p);
    let a_part = a * alpha.seconds();
    let mut m = mistakes(
        MistakeKind::AlphaLeftOut,
        &[mk::alpha_left_out(f, nb, beta)],
    );
    match link {
        Link::Bytes(gb) => m.extend(mistakes(
            MistakeKind::BetaAsBandwidth,
            &[mk::beta_as_bandwidth(a, alpha.seconds(), f, nb, gb * 1e9)],
        )),
        Link::Bits(_) => m.extend(mistakes(
            MistakeKind::BitsAsBytes,
            &mk::bits_as_bytes(f * nb * beta).map(|b| a_part + b),
        )),
        Link::Beta(_) => {}
    }
    m.extend(mistakes(
        MistakeKind::MbAsMib,
        &mk::mb_as_mib(f * nb * beta).map(|b| a_part + b),
    ));
    let part = Numeric {
        label: "time".into(),
        value: formula.time,
        kind: Kind::Time,
        unit,
        tolerance: Tolerance::HALF_PERCENT,
        shown: format_time(formula.time),
        mistakes: m,
    };
    let mut q = question(
        "α–β time",
        text,
        vec![part],
        "Convert everything to seconds and bytes first; β = 1 / bandwidth in seconds per byte, and 1 B = 8 b.",
    );
    q.solution = link.beta_line().into_iter().collect();
    q.solution
        .push(format!("n = {} = {} B", n.text(), group_thousands(n.bytes)));
    q.solution.extend(formula.substituted);
    q.link = Some(ViewLink {
        label: format!(
            "see it in the cost view at p = {p}, α = {}, {}",
            alpha.text(),
            n.text()
        ),
        query: format!(
            "view=cost&p={p}&alpha={}&{}&size={}",
            alpha.url(),
            link.url(),
            n.url()
        ),
    });
    q
}

pub(super) fn crossover(ring: bool, p: usize, alpha: Alpha, link: Link) -> Question {
    let other = if ring {
        CostAlgorithm::Ring
    } else {
        CostAlgorithm::Rabenseifner
    };
    let text = format!(
        "With α = {}, {} and p = {p} ranks, from which message size on does {} beat recursive \
         doubling? Use the basic power-of-two α–β formulas and answer in kB.",
        alpha.text(),
        link.text(),
        if ring {
            "the ring all-reduce"
        } else {
            "Rabenseifner's algorithm"
        }
    );
    let beta = link.beta();
    let Some((n_star, lines)) = compute::crossover(
        CostAlgorithm::RecursiveDoubling,
        other,
        p,
        alpha.seconds(),
        beta,
    ) else {
        return question("Crossover size", text, vec![], "");
    };
    let mut m = mistakes(MistakeKind::BitsAsBytes, &mk::bits_as_bytes(n_star));
    m.extend(mistakes(MistakeKind::MbAsMib, &mk::mb_as_mib(n_star)));
    if ring {
        // Ring start-ups counted as 2 log₂ p: the Rabenseifner crossover.
        let (a_rd, b_rd) = compute::factors(CostAlgorithm::RecursiveDoubling, p);
        let (a_rab, b_ring) = compute::factors(CostAlgorithm::Rabenseifner, p);
        let wrong = (a_rab - a_rd) * alpha.seconds() / ((b_rd - b_ring) * beta);
        m.extend(mistakes(MistakeKind::Log2Ring, &[wrong]));
    }
    let part = Numeric {
        label: "crossover size".into(),
        value: n_star,
        kind: Kind::Size,
        unit: Unit {
            symbol: "kB",
            factor: 1e3,
        },
        tolerance: Tolerance::HALF_PERCENT,
        shown: format!("{} ({})", format_decimal(n_star), format_binary(n_star)),
        mistakes: m,
    };
    let mut q = question(
        "Crossover size",
        text,
        vec![part],
        "Write both times as A + B·n and solve A₁ + B₁·n = A₂ + B₂·n for n.",
    );
    q.solution = link.beta_line().into_iter().collect();
    q.solution.extend(lines);
    // The link names the pair, so the cost view states this crossover
    // first (and says when the faster one is never the fastest of all).
    q.link = Some(ViewLink {
        label: format!(
            "see the {}–recursive-doubling crossover in the cost view at p = {p}, α = {}",
            if ring { "ring" } else { "Rabenseifner" },
            alpha.text()
        ),
        query: format!(
            "view=cost&p={p}&alpha={}&{}&size={}B&cross=rd,{}",
            alpha.url(),
            link.url(),
            crate::core::units::decimal::shortest(n_star.round().max(1.0)),
            other.algorithm().key()
        ),
    });
    q
}

/// A measured time: "870 µs" below 1 ms, else "2.345 ms".
pub fn measured_time_text(t_us: u64) -> String {
    if t_us < 1000 {
        format!("{t_us} µs")
    } else {
        format!("{} ms", format_number(t_us as f64 / 1000.0))
    }
}

pub(super) fn busbw(p: usize, n: Size, t_us: u64) -> Question {
    let t = t_us as f64 * 1e-6;
    let text = format!(
        "nccl-tests reports that an all-reduce of S = {} on p = {p} GPUs took t = {}. \
         What bus bandwidth (busbw) does it report? Answer in GB/s.",
        n.text(),
        measured_time_text(t_us)
    );
    let nb = n.bytes as f64;
    let bw = compute::nccl(nb, t, p);
    let mut m = mistakes(MistakeKind::AlgbwForBusbw, &[mk::algbw_for_busbw(nb, t)]);
    m.extend(mistakes(
        MistakeKind::BitsAsBytes,
        &mk::bits_as_bytes(bw.busbw),
    ));
    let part = Numeric {
        label: "busbw".into(),
        value: bw.busbw,
        kind: Kind::Bandwidth,
        unit: Unit {
            symbol: "GB/s",
            factor: 1e9,
        },
        tolerance: Tolerance::HALF_PERCENT,
        shown: format_bandwidth(bw.busbw),
        mistakes: m,
    };
    let mut q = question(
        "busbw from a measured time",
        text,
        vec![part],
        "First algbw = S / t, then nccl-tests' all-reduce factor 2(p−1)/p.",
    );
    q.solution = bw.lines;
    q.link = Some(ViewLink {
        label: format!(
            "compare with the α–β model in the cost view at p = {p}, {}",
            n.text()
        ),
        query: format!("view=cost&p={p}&size={}&alg=ring", n.url()),
    });
    q
}

pub(super) fn multilane(payload: Size, lanes: usize, link: Link) -> Question {
    let rate = link.rate_text();
    let text = format!(
        "A payload of {} crosses between two nodes over L = {lanes} lanes (NICs) of {rate} each, \
         split evenly. Ideally (no start-ups, the lanes run at full speed at the same time), how \
         many bytes does each lane carry, in {}, and how long does the transfer take, in ms?",
        payload.text(),
        payload.unit().symbol
    );
    let bw = link.bytes_per_second().unwrap_or(f64::NAN);
    let pb = payload.bytes as f64;
    let Some(s) = compute::multilane(pb, lanes, bw) else {
        return question("Multi-lane inter-node time", text, vec![], "");
    };
    let bytes_part = size_part(
        "bytes per lane",
        s.per_lane_bytes,
        payload,
        mistakes(
            MistakeKind::NotSplitOverLanes,
            &[mk::not_split_over_lanes(s.per_lane_bytes, lanes)],
        ),
    );
    let mut m = mistakes(
        MistakeKind::NotSplitOverLanes,
        &[mk::not_split_over_lanes(s.time, lanes)],
    );
    if let Link::Bits(_) = link {
        m.extend(mistakes(
            MistakeKind::BitsAsBytes,
            &mk::bits_as_bytes(s.time),
        ));
    }
    m.extend(mistakes(MistakeKind::MbAsMib, &mk::mb_as_mib(s.time)));
    let time_part = Numeric {
        label: "time".into(),
        value: s.time,
        kind: Kind::Time,
        unit: Unit {
            symbol: "ms",
            factor: 1e-3,
        },
        tolerance: Tolerance::HALF_PERCENT,
        shown: format_time(s.time),
        mistakes: m,
    };
    let mut q = question(
        "Multi-lane inter-node time",
        text,
        vec![bytes_part, time_part],
        "Each lane carries payload / L at the same time; time = (payload / L) / B, with B in bytes per second (1 B = 8 b).",
    );
    let f = |v: f64| fmt_size(v, payload.prefix);
    let bw_text = format_bandwidth(bw);
    q.solution = Vec::new();
    if let Link::Bits(_) = link {
        q.solution
            .push(format!("B = {rate} ÷ 8 = {bw_text} per lane"));
    }
    q.solution.push(format!(
        "payload = {} = {} B",
        payload.text(),
        group_thousands(payload.bytes)
    ));
    q.solution.push(format!(
        "per lane: payload / L = {} / {lanes} = {}",
        payload.text(),
        f(s.per_lane_bytes)
    ));
    q.solution.push(format!(
        "time = (payload / L) / B = {} / {bw_text} = {}",
        f(s.per_lane_bytes),
        format_time(s.time)
    ));
    q.solution.push(format!(
        "one lane would take payload / B = {} / {bw_text} = {}: {lanes} lanes are {lanes}× faster \
         (ideal: no start-ups, no intra-node collectives, lanes sustain their bandwidth concurrently)",
        payload.text(),
        format_time(s.one_lane_time)
    ));
    q.link = Some(ViewLink {
        label: format!(
            "see it in the topology view: multi-lane, 2 nodes × {lanes} GPUs, {lanes} lanes of {rate}, {}",
            payload.text()
        ),
        query: format!(
            "view=topology&alg=multilane&nodes=2&gpus={lanes}&lanes={lanes}&size={}&inter_bw={}&inter_alpha=0us",
            payload.url(),
            rate.replace(' ', "")
        ),
    });
    q
}
