//! The training questions: the weighted loss, a D-SGD step, gossip's ρ,
//! and ZeRO's memory and FSDP's traffic per rank.

use super::parts::*;
use super::values::*;
use crate::core::practice::compute::{self, GraphKind};
use crate::core::practice::mistakes as mk;
use crate::core::practice::mistakes::MistakeKind;
use crate::core::practice::question::{Question, Tolerance, ViewLink};
use crate::core::units::format::format_number;
use crate::core::units::format_decimal;

pub(super) fn loss(counts: &[i64], losses: &[f64]) -> Question {
    let counts_t: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
    let losses_t: Vec<String> = losses.iter().map(|&l| format_number(l)).collect();
    let text = format!(
        "{} data shards hold {} samples, and the model's mean loss on them is {} respectively. \
         What is the mean loss over all the data?",
        counts.len(),
        and_list(&counts_t),
        and_list(&losses_t)
    );
    let Some(o) = compute::weighted_loss(counts, losses) else {
        return question("Weighted global loss", text, vec![], "");
    };
    let part = number(
        "full-data mean loss",
        o.global_mean,
        Tolerance::HALF_PERCENT,
        mistakes(MistakeKind::PlainMean, &[mk::plain_mean(losses)]),
    );
    let mut q = question(
        "Weighted global loss",
        text,
        vec![part],
        "Weight each shard's loss by its share n_k/N of all the samples.",
    );
    let weights: Vec<String> = counts
        .iter()
        .zip(&o.weights)
        .map(|(c, w)| format!("{c}/{} = {}", o.total, format_number(*w)))
        .collect();
    let products: Vec<String> = o
        .weights
        .iter()
        .zip(losses)
        .map(|(w, l)| format!("{} × {}", format_number(*w), format_number(*l)))
        .collect();
    let contributions: Vec<String> = o.contributions.iter().map(|c| format_number(*c)).collect();
    q.solution = vec![
        format!("N = {} = {} samples", counts_t.join(" + "), o.total),
        format!("weights n_k/N: {}", weights.join(", ")),
        format!("L = Σ (n_k/N)·L_k = {}", products.join(" + ")),
        format!(
            "  = {} = {}",
            contributions.join(" + "),
            format_number(o.global_mean)
        ),
        format!(
            "The plain average ({})/{} = {} would give every shard the same weight.",
            losses_t.join(" + "),
            losses.len(),
            format_number(o.plain_mean)
        ),
    ];
    q.link = Some(ViewLink {
        label: "see it in the SGD view with these shards".into(),
        query: format!(
            "view=sgd&shards={}&losses={}",
            counts_t.join(","),
            losses
                .iter()
                .map(|l| crate::core::units::decimal::shortest(*l))
                .collect::<Vec<_>>()
                .join(",")
        ),
    });
    q
}

pub(super) fn dsgd(values: &[f64], g: f64, eta: f64) -> Question {
    let k = values.len().saturating_sub(1);
    let x0 = values.first().copied().unwrap_or(0.0);
    let neighbours: Vec<String> = values.iter().skip(1).map(|&v| format_number(v)).collect();
    let text = format!(
        "In decentralised SGD, worker 0 holds the value {}; its {k} neighbours hold {}. \
         Worker 0 and each neighbour get weight 1/{}. Worker 0's gradient, taken at its own value \
         before mixing, is {}, and the learning rate is η = {}. Using the course's order (mix, \
         then step), what is worker 0's mixed value, and what is its new value? Give two decimals.",
        format_number(x0),
        and_list(&neighbours),
        k + 1,
        format_number(g),
        format_number(eta)
    );
    let Some(d) = compute::dsgd(values, g, eta) else {
        return question("Mix, then step", text, vec![], "");
    };
    let tol = Tolerance {
        relative: 0.005,
        absolute: 0.0051,
    };
    let mut after = mistakes(
        MistakeKind::StepBeforeMix,
        &[mk::step_before_mix(values, g, eta)],
    );
    after.extend(mistakes(
        MistakeKind::NoMixing,
        &[mk::no_mixing(x0, g, eta)],
    ));
    after.extend(mistakes(MistakeKind::NoStep, &[d.mixed]));
    let parts = vec![
        number("mixed value", d.mixed, tol, vec![]),
        number("new value", d.updated, tol, after),
    ];
    let mut q = question(
        "Mix, then step (D-SGD)",
        text,
        parts,
        "First average worker 0 with its neighbours, then subtract η × gradient.",
    );
    let sum: Vec<String> = values.iter().map(|&v| term(v)).collect();
    let mut stepped: Vec<String> = sum.clone();
    if let Some(s) = stepped.first_mut() {
        *s = format!(
            "({} − {} × {})",
            format_number(x0),
            format_number(eta),
            format_number(g)
        );
    }
    q.solution = vec![
        format!(
            "mix: ({})/{} = {}",
            sum.join(" + "),
            k + 1,
            format_number(d.mixed)
        ),
        format!(
            "step: {} − {} × {} = {}",
            format_number(d.mixed),
            format_number(eta),
            format_number(g),
            format_number(d.updated)
        ),
        format!(
            "Stepping first, with only this node's gradient (its neighbours keep their values), would give ({})/{} = {}; no mixing at all gives {} − {} × {} = {}.",
            stepped.join(" + "),
            k + 1,
            format_number(d.step_then_mix),
            format_number(x0),
            format_number(eta),
            format_number(g),
            format_number(d.local_only)
        ),
    ];
    q.link = Some(ViewLink {
        label: format!(
            "see the mixing in the gossip view on a complete graph of {} nodes",
            k + 1
        ),
        query: format!(
            "view=gossip&graph=complete&p={}&weights=uniform&init={}",
            k + 1,
            values
                .iter()
                .map(|v| crate::core::units::decimal::shortest(*v))
                .collect::<Vec<_>>()
                .join(",")
        ),
    });
    q
}

pub(super) fn rho(graph: RhoGraph, p: usize, factor: u32) -> Question {
    let setting = match graph {
        RhoGraph::RingUniform => format!(
            "A gossip ring of p = {p} nodes mixes with weight 1/3 on each node itself and on each of its two neighbours."
        ),
        RhoGraph::RingLazy => format!(
            "A gossip ring of p = {p} nodes uses lazy Metropolis–Hastings weights: 2/3 on each node itself and 1/6 on each of its two neighbours."
        ),
        RhoGraph::CompleteLazy => format!(
            "A complete graph of p = {p} nodes uses lazy Metropolis–Hastings weights: (1 + 1/p)/2 on each node itself and 1/(2p) on every other node."
        ),
    };
    let text = format!(
        "{setting} What is ρ, to three decimal places, and how many rounds guarantee that the \
         disagreement shrinks by a factor of F = {factor}?"
    );
    let (kind, rule) = graph.kind_and_rule();
    let rho = compute::rho(kind, p, rule).unwrap_or(f64::NAN);
    let f = f64::from(factor);
    let rounds = compute::rounds_to(rho, f).map_or(f64::NAN, |r| r as f64);
    let parts = vec![
        number(
            "ρ",
            rho,
            Tolerance::decimals(3),
            mistakes(MistakeKind::GapForRho, &[mk::gap_for_rho(rho)]),
        ),
        number(
            "rounds",
            rounds,
            Tolerance::EXACT,
            mistakes(MistakeKind::RoundedDown, &[mk::rounded_down(rho, f)]),
        ),
    ];
    let mut q = question(
        "Consensus rate ρ",
        text,
        parts,
        "ρ is the largest |λ| of the mixing matrix after setting aside the eigenvalue 1; then ρ^r ≤ 1/F.",
    );
    let eig = match graph {
        RhoGraph::RingUniform => format!("λ_k = 1/3 + 2/3·cos(2πk/{p}), k = 0 … {}", p - 1),
        RhoGraph::RingLazy => format!(
            "λ_k = 2/3 + 1/3·cos(2πk/{p}) (the lazy weights map each λ of the 1/3 ring to (1 + λ)/2)"
        ),
        RhoGraph::CompleteLazy => {
            "Metropolis–Hastings on a complete graph averages everything (eigenvalues 1, 0, …, 0); the lazy version has (1 + 0)/2 = 1/2".into()
        }
    };
    q.solution = vec![
        eig,
        format!("ρ = largest |λ_k| with k ≠ 0 = {}", format_number(rho)),
        format!(
            "rounds r ≥ ln F / ln(1/ρ) = ln {factor} / ln(1/{}) = {} → round up: {} rounds",
            format_number(rho),
            format_number(f.ln() / (1.0 / rho).ln()),
            format_number(rounds)
        ),
    ];
    let (gk, wr) = graph.kind_and_rule();
    let shape = match gk {
        GraphKind::Complete => "complete graph",
        _ => "ring",
    };
    q.link = Some(ViewLink {
        label: format!("see it in the gossip view: {shape} of p = {p} nodes"),
        query: format!(
            "view=gossip&graph={}&p={p}&weights={}&target={factor}",
            gk.key(),
            wr.key()
        ),
    });
    q
}

pub(super) fn zero_memory(psi: u64, n: usize, stage: u8) -> Question {
    let count = compute::format_count(psi);
    let sharded = match stage {
        1 => "ZeRO-1 (the optimizer state sharded over the GPUs)",
        2 => "ZeRO-2 (the optimizer state and the gradients sharded)",
        _ => "ZeRO-3 (FSDP: the optimizer state, the gradients and the parameters sharded)",
    };
    let text = format!(
        "A model of Ψ = {count} parameters is trained with mixed-precision Adam: per parameter, 2 bytes \
         of fp16 parameters, 2 bytes of fp16 gradients and K = 12 bytes of optimizer state. With {sharded} \
         on N = {n} GPUs, how much memory do these model states take on each GPU, in GB? Leave out \
         {}.",
        if stage == 3 {
            "activations, buffers and the layer FSDP gathers while it computes"
        } else {
            "activations and buffers"
        }
    );
    let m = compute::zero_memory(psi, n, ADAM_K);
    let value = match stage {
        1 => m.zero1,
        2 => m.zero2,
        _ => m.zero3,
    };
    let p = psi as f64;
    let mut wrong = mistakes(
        MistakeKind::ForgotOptimizerState,
        &[mk::forgot_optimizer_state(stage, p, n)],
    );
    if stage < 3 {
        wrong.extend(mistakes(
            MistakeKind::ShardedEverything,
            &[mk::sharded_everything(p, n, ADAM_K)],
        ));
    }
    wrong.extend(mistakes(
        MistakeKind::NotSharded,
        &[mk::not_sharded(p, ADAM_K)],
    ));
    let part = gb_part("memory per GPU", value, wrong);
    let mut q = question(
        "Memory per rank under ZeRO",
        text,
        vec![part],
        "Count 2 + 2 + K bytes per parameter, then divide by N only the states this stage shards.",
    );
    let gb = |b: f64| format_decimal(b);
    let (formula, worked) = match stage {
        1 => (
            "4Ψ + KΨ/N",
            format!(
                "4 B × {count} + 12 B × {count} / {n} = {} + {}",
                gb(4.0 * p),
                gb(ADAM_K * p / n as f64)
            ),
        ),
        2 => (
            "2Ψ + (2 + K)Ψ/N",
            format!(
                "2 B × {count} + 14 B × {count} / {n} = {} + {}",
                gb(2.0 * p),
                gb((2.0 + ADAM_K) * p / n as f64)
            ),
        ),
        _ => ("(2 + 2 + K)Ψ/N", format!("16 B × {count} / {n}")),
    };
    q.solution = vec![
        format!(
            "per parameter: 2 B of parameters + 2 B of gradients + K = 12 B of optimizer state (an fp32 copy of the \
             parameters, the momentum and the variance) = 16 B; without ZeRO (DDP) every GPU holds 16 B × {count} = {}",
            gb(m.ddp)
        ),
        format!("ZeRO-{stage} per GPU: {formula} = {worked} = {}", gb(value)),
        format!(
            "side by side on N = {n}: DDP {}, ZeRO-1 {}, ZeRO-2 {}, ZeRO-3 {} (Rajbhandari et al. 2020, §5)",
            gb(m.ddp),
            gb(m.zero1),
            gb(m.zero2),
            gb(m.zero3)
        ),
    ];
    q.link = Some(ViewLink {
        label: format!("see the memory per rank in the training-step view at N = {n}, Ψ = {count}"),
        query: format!(
            "view=step&p={n}&layers=1&params={count}&dtype=bf16&mode={}",
            if stage == 3 { "fsdp" } else { "zero2" }
        ),
    });
    q
}

pub(super) fn fsdp_traffic(psi: u64, n: usize) -> Question {
    let count = compute::format_count(psi);
    let model = 2.0 * psi as f64;
    let text = format!(
        "A model of Ψ = {count} bf16 parameters ({}) is trained on N = {n} GPUs with ring collectives. In one \
         training step, how many bytes does each GPU send with DDP (one all-reduce of the gradients), and how \
         many with FSDP (ZeRO-3: every layer's parameters all-gathered before its forward and again before its \
         backward, its gradients reduce-scattered)? Answer in GB.",
        format_decimal(model)
    );
    let Some(t) = compute::sharded_traffic(n, psi) else {
        return question("Traffic per rank: FSDP against DDP", text, vec![], "");
    };
    let mut ddp_wrong = mistakes(MistakeKind::TwoN, &[mk::two_n(model)]);
    ddp_wrong.extend(mistakes(
        MistakeKind::OnePhase,
        &[mk::one_phase(t.ddp as f64)],
    ));
    let fsdp_wrong = mistakes(
        MistakeKind::ForgotSecondAllGather,
        &[mk::forgot_second_all_gather(n, model)],
    );
    let parts = vec![
        gb_part("DDP: bytes a GPU sends per step", t.ddp as f64, ddp_wrong),
        gb_part(
            "FSDP: bytes a GPU sends per step",
            t.fsdp as f64,
            fsdp_wrong,
        ),
    ];
    let mut q = question(
        "Traffic per rank: FSDP against DDP",
        text,
        parts,
        "A ring reduce-scatter and a ring all-gather each send (N − 1)/N of the tensor per GPU; an all-reduce is one of each.",
    );
    let share = t.ddp as f64 / 2.0;
    q.solution = vec![
        format!("M = Ψ × 2 B = {count} × 2 B = {}", format_decimal(model)),
        format!(
            "one ring reduce-scatter or all-gather: (N − 1)/N · M = {}/{n} × {} = {} per GPU",
            n - 1,
            format_decimal(model),
            format_decimal(share)
        ),
        format!(
            "DDP: an all-reduce is a reduce-scatter then an all-gather: 2 × {} = {}",
            format_decimal(share),
            format_decimal(t.ddp as f64)
        ),
        format!(
            "FSDP: an all-gather before forward, another before backward, and a reduce-scatter: 3 × {} = {}, {} × DDP",
            format_decimal(share),
            format_decimal(t.fsdp as f64),
            format_number(t.fsdp as f64 / t.ddp.max(1) as f64)
        ),
        format!(
            "ZeRO-2 sends what DDP sends ({}): a reduce-scatter of the gradients and an all-gather of the updated parameters",
            format_decimal(t.zero2 as f64)
        ),
    ];
    q.link = Some(ViewLink {
        label: format!("see FSDP's step and traffic in the training-step view at N = {n}"),
        query: format!(
            "view=step&p={n}&alg=ring&layers=1&params={count}&dtype=bf16&fwd=20ms&bwd=40ms&mode=fsdp"
        ),
    });
    q
}
