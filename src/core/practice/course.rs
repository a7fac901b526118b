//! The course's eight practice questions ("Practice Questions and Short
//! Answers"), reworded, with every numeric answer computed from the
//! question's parameters by the same builders as the drills.

use super::answer::Kind;
use super::compute::{self, CostAlgorithm, PracticeAllReduce};
use super::mistakes as mk;
use super::mistakes::MistakeKind;
use super::question::{
    Answer, ChoiceOption, Mistake, Numeric, Question, Tolerance, Unit, ViewLink,
};
use super::templates::{build, Params, Size};
use crate::core::units::{decimal, format_decimal, format_time, Prefix};

/// The eight questions, in the course's order, with ids `course-1` … `course-8`.
pub fn course() -> Vec<Question> {
    let n64 = Size::mb(64);
    let mut qs = vec![
        build(
            &Params::Loss {
                counts: vec![600, 300, 100],
                losses: vec![0.2, 0.5, 0.9],
            },
            String::new(),
        ),
        no_server(),
        build(
            &Params::Dsgd {
                values: vec![6.0, 3.0, 12.0],
                g: 2.0,
                eta: 0.5,
            },
            String::new(),
        ),
        build(&Params::RingRounds { p: 8 }, String::new()),
        build(
            &Params::RingBytes {
                p: 8,
                n: n64,
                added: false,
            },
            String::new(),
        ),
        rabenseifner_vs_ring(8, n64),
        doubling_vs_ring_small(),
        gossip_agreement(),
    ];
    for (i, q) in qs.iter_mut().enumerate() {
        q.id = format!("course-{}", i + 1);
    }
    qs
}

fn count(label: &str, value: f64, mistakes: Vec<Mistake>) -> Numeric {
    Numeric {
        label: label.into(),
        value,
        kind: Kind::Number,
        unit: Unit::NONE,
        tolerance: Tolerance::EXACT,
        shown: crate::core::units::format::format_number(value),
        mistakes,
    }
}

fn m(kind: MistakeKind, value: f64) -> Mistake {
    Mistake { kind, value }
}

fn ring_round_mistakes(p: usize, rounds: f64) -> Vec<Mistake> {
    vec![
        m(MistakeKind::PRounds, mk::p_rounds(p)),
        m(MistakeKind::Log2Ring, mk::log2_ring_rounds(p)),
        m(MistakeKind::OnePhase, mk::one_phase(rounds)),
    ]
}

fn option(text: &str, correct: bool, explanation: &str) -> ChoiceOption {
    ChoiceOption {
        text: text.into(),
        correct,
        explanation: explanation.into(),
    }
}

fn no_server() -> Question {
    Question {
        id: String::new(),
        title: "All-reduce without a server".into(),
        text: "Synchronous, centralised SGD can run on a ring all-reduce with no parameter server \
               anywhere. How can that be?"
            .into(),
        answer: Answer::Choice(vec![
            option(
                "Together the ranks compute one global gradient, and every rank applies that same \
                 update; “centralised” names the single common update, not a machine.",
                true,
                "After the all-reduce every rank holds the same sum, so identical models take \
                 identical steps. Where the sum is computed is an implementation choice.",
            ),
            option(
                "Each worker averages its model with its two ring neighbours only, so no server \
                 is needed.",
                false,
                "That is decentralised (gossip) SGD: models differ between steps and agree only \
                 gradually. A ring all-reduce finishes with the full sum on every rank.",
            ),
            option(
                "Rank 0 quietly plays the server: it gathers every gradient and sends back the \
                 result.",
                false,
                "That is the naive root scheme. In the ring every rank sends and receives the \
                 same 2(p−1)/p·n bytes; no rank is special.",
            ),
            option(
                "The all-reduce only approximates the global gradient, which is good enough for \
                 SGD.",
                false,
                "The all-reduce is exact (up to the order of floating-point additions): every \
                 rank ends with the same element-wise sum.",
            ),
        ]),
        hint: "What does every rank hold when the all-reduce has finished?".into(),
        solution: vec![
            "An all-reduce leaves the element-wise sum of all gradients on every rank.".into(),
            "Every rank divides by the number of samples and applies the same update, so the \
             models stay identical: that is the centralised update."
                .into(),
            "Centralised describes what is computed (one common update), not where: a \
             parameter server is one implementation, a ring all-reduce another."
                .into(),
        ],
        link: Some(ViewLink {
            label: "see it in the ring view at p = 4, 100 MB".into(),
            query: "view=ring&p=4&size=100MB".into(),
        }),
    }
}

fn rabenseifner_vs_ring(p: usize, n: Size) -> Question {
    let rab = compute::execute_collective(PracticeAllReduce::Rabenseifner, p, n.bytes);
    let ring = compute::execute_collective(PracticeAllReduce::Ring, p, n.bytes);
    let (rab_rounds, rab_sent) = rab.map_or((0.0, 0.0), |e| (e.rounds as f64, e.sent as f64));
    let ring_rounds = ring.map_or(0.0, |e| e.rounds as f64);
    let nb = n.bytes as f64;
    let mut bytes_m = vec![
        m(MistakeKind::TwoN, mk::two_n(nb)),
        m(MistakeKind::TwoPMinusOneN, mk::two_p_minus_one_n(p, nb)),
        m(MistakeKind::OnePhase, mk::one_phase(rab_sent)),
    ];
    bytes_m.extend(mk::bits_as_bytes(rab_sent).map(|v| m(MistakeKind::BitsAsBytes, v)));
    bytes_m.extend(mk::mb_as_mib(rab_sent).map(|v| m(MistakeKind::MbAsMib, v)));
    let parts = vec![
        count(
            "Rabenseifner rounds",
            rab_rounds,
            vec![m(MistakeKind::OnePhase, mk::one_phase(rab_rounds))],
        ),
        count(
            "ring rounds",
            ring_rounds,
            ring_round_mistakes(p, ring_rounds),
        ),
        Numeric {
            label: "bytes sent per rank by Rabenseifner".into(),
            value: rab_sent,
            kind: Kind::Size,
            unit: n.unit(),
            tolerance: Tolerance::HALF_PERCENT,
            shown: format_decimal(rab_sent),
            mistakes: bytes_m,
        },
    ];
    let k = compute::floor_log2(p);
    let halves: Vec<String> = (1..=k)
        .map(|i| format_decimal(nb / f64::from(1u32 << i)))
        .collect();
    Question {
        id: String::new(),
        title: "What Rabenseifner's algorithm buys".into(),
        text: format!(
            "Take the same all-reduce: p = {p} ranks and an n = {} tensor. How many rounds does \
             Rabenseifner's algorithm need, how many does the ring need, and how many bytes does \
             each rank send with Rabenseifner? Answer the bytes in MB.",
            n.text()
        ),
        answer: Answer::Numeric(parts),
        hint: "Rabenseifner = recursive-halving reduce-scatter + recursive-doubling all-gather: \
               log₂ p rounds each."
            .into(),
        solution: vec![
            format!(
                "reduce-scatter by recursive halving: log₂ {p} = {k} rounds sending {} = {}",
                halves.join(" + "),
                format_decimal(rab_sent / 2.0)
            ),
            format!(
                "all-gather by recursive doubling: {k} rounds sending {} again",
                format_decimal(rab_sent / 2.0)
            ),
            format!(
                "Rabenseifner: {} rounds and {} per rank; the ring sends the same {} \
                 in 2(p − 1) = {} rounds",
                decimal::shortest(rab_rounds),
                format_decimal(rab_sent),
                format_decimal(rab_sent),
                decimal::shortest(ring_rounds)
            ),
            "Same bytes, fewer start-ups (basic power-of-two schedule).".into(),
        ],
        link: Some(ViewLink {
            label: format!(
                "see it in the collectives view: Rabenseifner at p = {p}, {}",
                n.text()
            ),
            query: format!("view=collectives&alg=rab&p={p}&size={}", n.url()),
        }),
    }
}

fn doubling_vs_ring_small() -> Question {
    let p = 16;
    let n = Size {
        bytes: 8192,
        prefix: Prefix::Binary,
    };
    let (alpha, beta) = (5e-6, 0.08e-9);
    let rd = compute::execute_collective(PracticeAllReduce::RecursiveDoubling, p, n.bytes);
    let ring = compute::execute_collective(PracticeAllReduce::Ring, p, n.bytes);
    let rd_rounds = rd.map_or(0.0, |e| e.rounds as f64);
    let ring_rounds = ring.map_or(0.0, |e| e.rounds as f64);
    let t_rd = compute::time(CostAlgorithm::RecursiveDoubling, p, 8192.0, alpha, beta);
    let t_ring = compute::time(CostAlgorithm::Ring, p, 8192.0, alpha, beta);
    let mut solution = vec![format!(
        "recursive doubling: log₂ {p} = {} exchanges; ring: 2(p − 1) = {} rounds",
        decimal::shortest(rd_rounds),
        decimal::shortest(ring_rounds)
    )];
    solution.extend(
        t_rd.substituted
            .iter()
            .map(|l| format!("recursive doubling: {l}")),
    );
    solution.push(format!(
        "ring: T = {} + {} = {}",
        format_time(t_ring.alpha_part),
        format_time(t_ring.beta_part),
        format_time(t_ring.time)
    ));
    solution.push(format!(
        "At {} the start-ups dominate: {} of α against {}, while the byte terms are only {} and {}.",
        n.text(),
        format_time(t_rd.alpha_part),
        format_time(t_ring.alpha_part),
        format_time(t_rd.beta_part),
        format_time(t_ring.beta_part)
    ));
    Question {
        id: String::new(),
        title: "Why recursive doubling wins small messages".into(),
        text: format!(
            "With α = 5 µs, β = 0.08 ns/B, p = {p} ranks and an n = {} message, recursive doubling \
             is the fastest all-reduce. How many exchanges (start-ups) does recursive doubling pay, \
             and how many rounds does the ring pay?",
            n.text()
        ),
        answer: Answer::Numeric(vec![
            count("recursive doubling exchanges", rd_rounds, vec![]),
            count("ring rounds", ring_rounds, ring_round_mistakes(p, ring_rounds)),
        ]),
        hint: "Recursive doubling needs log₂ p exchanges; the ring needs p − 1 rounds per phase."
            .into(),
        solution,
        link: Some(ViewLink {
            label: format!("see it in the cost view at p = {p}, α = 5 µs, {}", n.text()),
            query: format!("view=cost&p={p}&alpha=5us&beta=0.08ns/B&size={}", n.url()),
        }),
    }
}

fn gossip_agreement() -> Question {
    Question {
        id: String::new(),
        title: "Does a connected gossip graph agree at once?".into(),
        text: "Workers gossip over a connected graph. Right after a round of neighbour averaging, \
               are all the models identical?"
            .into(),
        answer: Answer::Choice(vec![
            option(
                "Yes: a connected graph is enough for every worker to hold the same model straight away.",
                false,
                "Connectivity guarantees agreement in the limit, not at once: each round shrinks \
                 the disagreement by a factor of about ρ < 1.",
            ),
            option(
                "No: information travels one hop per round, the disagreement shrinks roughly like \
                 ρ^r, and local gradient steps keep adding new differences.",
                true,
                "Mixing spreads information gradually, and during training each local step \
                 pulls the models apart again, especially with non-IID data.",
            ),
            option(
                "Yes, as long as the mixing matrix is doubly stochastic.",
                false,
                "Double stochasticity preserves the mean; it does not make one round exact. Only \
                 ρ = 0 (e.g. weights 1/p on a complete graph) agrees in one round.",
            ),
        ]),
        hint: "How far does information travel in one round of neighbour averaging?".into(),
        solution: vec![
            "One round replaces each model by a weighted average of its neighbours' models: x ← W x."
                .into(),
            "The disagreement falls by at most ρ per round (ring of 4 with weights 1/3: ρ = 1/3, \
             so about 5 rounds for a 100-fold reduction)."
                .into(),
            "Gradient steps between rounds add new disagreement, so the models are not identical."
                .into(),
        ],
        link: Some(ViewLink {
            label: "see it in the gossip view: ring of p = 4".into(),
            query: "view=gossip&graph=ring&p=4&weights=uniform&init=0,3,6,9&target=100".into(),
        }),
    }
}
