//! Native tests of practice mode: the course's values, every template over
//! 1,000 seeds against hand formulas, mistakes never hiding a right answer,
//! determinism, and a property test of the answer parser.

use std::f64::consts::PI;

use super::compute::{CostAlgorithm, PracticeAllReduce};
use super::templates::{Link, Params, RhoGraph};
use super::*;
use crate::core::units::format::format_number;

fn numeric(q: &Question) -> &[Numeric] {
    match &q.answer {
        Answer::Numeric(parts) => parts,
        Answer::Choice(_) => panic!("{} is multiple choice", q.id),
    }
}

fn verdict(part: &Numeric, input: &str) -> Verdict {
    check(part, input).verdict
}

/// The value written in the part's unit, as a student would type it.
fn typed(part: &Numeric, base: f64) -> String {
    let v = base / part.unit.factor;
    let s = format!("{v:.6}");
    if part.unit.symbol.is_empty() {
        s
    } else {
        format!("{s} {}", part.unit.symbol)
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-300)
}

#[test]
fn course_has_eight_questions_with_the_course_values() {
    let qs = course::course();
    assert_eq!(qs.len(), 8);
    let ids: Vec<&str> = qs.iter().map(|q| q.id.as_str()).collect();
    assert_eq!(ids[0], "course-1");
    assert_eq!(ids[7], "course-8");
    let values = |i: usize| -> Vec<f64> { numeric(&qs[i]).iter().map(|p| p.value).collect() };
    assert!(close(values(0)[0], 0.36));
    assert_eq!(values(2), vec![7.0, 6.0]);
    assert_eq!(values(3), vec![14.0]);
    assert_eq!(values(4), vec![112e6, 112e6]);
    assert_eq!(values(5), vec![6.0, 14.0, 112e6]);
    assert_eq!(values(6), vec![4.0, 30.0]);
    for i in [1, 7] {
        let Answer::Choice(opts) = &qs[i].answer else {
            panic!("question {} is multiple choice", i + 1)
        };
        assert_eq!(opts.iter().filter(|o| o.correct).count(), 1);
        assert!(opts.iter().all(|o| !o.explanation.is_empty()));
        let right = opts
            .iter()
            .position(|o| o.correct)
            .expect("one right option");
        assert_eq!(check_choice(opts, right).verdict, Verdict::Correct);
        assert_eq!(
            check_choice(opts, (right + 1) % opts.len()).verdict,
            Verdict::Wrong
        );
        assert_eq!(check_choice(opts, 99).verdict, Verdict::Unparseable);
    }
    // Every question has a worked solution and a link to a view.
    for q in &qs {
        assert!(!q.solution.is_empty(), "{}", q.id);
        assert!(
            q.link
                .as_ref()
                .is_some_and(|l| l.query.starts_with("view=")),
            "{}",
            q.id
        );
    }
    assert_eq!(
        qs[4].link.as_ref().map(|l| l.query.as_str()),
        Some("view=ring&p=8&size=64MB")
    );
    assert!(qs[4]
        .link
        .as_ref()
        .is_some_and(|l| l.label == "see it in the ring view at p = 8, 64 MB"));
    assert!(qs[0]
        .solution
        .iter()
        .any(|l| l.contains("0.6 × 0.2 + 0.3 × 0.5 + 0.1 × 0.9")));
    assert!(qs[4]
        .solution
        .iter()
        .any(|l| l.contains("2 × 7/8 × 64 MB = 112 MB")));
}

#[test]
fn course_feedback_names_the_mistakes() {
    let qs = course::course();
    let loss = &numeric(&qs[0])[0];
    let f = check(loss, "0.5333");
    assert_eq!(f.verdict, Verdict::Mistake(MistakeKind::PlainMean));
    assert!(f.message.contains("plain average"), "{}", f.message);
    assert!(!f.message.to_lowercase().contains("correct"));
    let f = check(loss, "0.36");
    assert_eq!(f.verdict, Verdict::Correct);
    assert!(f.message.to_lowercase().contains("correct"));
    assert_eq!(verdict(loss, "0.7"), Verdict::Wrong);
    assert_eq!(verdict(loss, "0.36 MB"), Verdict::WrongKind);
    assert_eq!(verdict(loss, "zero point"), Verdict::Unparseable);

    let dsgd = numeric(&qs[2]);
    assert_eq!(verdict(&dsgd[0], "7"), Verdict::Correct);
    assert_eq!(verdict(&dsgd[1], "6"), Verdict::Correct);
    assert_eq!(
        verdict(&dsgd[1], "6.67"),
        Verdict::Mistake(MistakeKind::StepBeforeMix)
    );
    assert_eq!(
        verdict(&dsgd[1], "5"),
        Verdict::Mistake(MistakeKind::NoMixing)
    );
    assert_eq!(
        verdict(&dsgd[1], "7"),
        Verdict::Mistake(MistakeKind::NoStep)
    );

    let rounds = &numeric(&qs[3])[0];
    assert_eq!(verdict(rounds, "14"), Verdict::Correct);
    assert_eq!(verdict(rounds, "14 rounds"), Verdict::Correct);
    assert_eq!(
        verdict(rounds, "16"),
        Verdict::Mistake(MistakeKind::PRounds)
    );
    assert_eq!(
        verdict(rounds, "6"),
        Verdict::Mistake(MistakeKind::Log2Ring)
    );
    assert_eq!(
        verdict(rounds, "7"),
        Verdict::Mistake(MistakeKind::OnePhase)
    );
    assert_eq!(verdict(rounds, "14 MB"), Verdict::WrongKind);

    let sent = &numeric(&qs[4])[0];
    for ok in [
        "112 MB",
        "0.112 GB",
        "112000000 B",
        "106.8 MiB",
        "112",
        "112,000,000 B",
    ] {
        assert_eq!(verdict(sent, ok), Verdict::Correct, "{ok}");
    }
    assert_eq!(verdict(sent, "128 MB"), Verdict::Mistake(MistakeKind::TwoN));
    assert_eq!(
        verdict(sent, "896 MB"),
        Verdict::Mistake(MistakeKind::TwoPMinusOneN)
    );
    assert_eq!(
        verdict(sent, "224 MB"),
        Verdict::Mistake(MistakeKind::SentPlusReceived)
    );
    assert_eq!(
        verdict(sent, "14 MB"),
        Verdict::Mistake(MistakeKind::BitsAsBytes)
    );
    assert_eq!(
        verdict(sent, "112 MiB"),
        Verdict::Mistake(MistakeKind::MbAsMib)
    );
    let f = check(sent, "5 ms");
    assert_eq!(f.verdict, Verdict::WrongKind);
    assert!(
        f.message.contains("a time") && f.message.contains("a size"),
        "{}",
        f.message
    );
    let f = check(sent, "lots");
    assert_eq!(f.verdict, Verdict::Unparseable);
    assert!(f.message.contains("size"), "{}", f.message);

    let seven = numeric(&qs[6]);
    assert_eq!(verdict(&seven[0], "4"), Verdict::Correct);
    assert_eq!(verdict(&seven[1], "30"), Verdict::Correct);
    assert_eq!(
        verdict(&seven[1], "8"),
        Verdict::Mistake(MistakeKind::Log2Ring)
    );
}

// ---------------------------------------------------------------------------
// Every template, 1,000 seeds, against hand formulas.

fn log2(p: usize) -> f64 {
    (p as f64).log2().round()
}

fn hand_beta(link: Link) -> f64 {
    match link {
        Link::Beta(ns) => ns / 1e9,
        Link::Bytes(gb) => 1.0 / (gb * 1e9),
        Link::Bits(gbit) => 1.0 / (gbit * 1e9 / 8.0),
    }
}

/// [`expected`] of the sample-weighted loss: Σ cᵢ·Lᵢ / Σ cᵢ.
fn expected_loss(counts: &[i64], losses: &[f64]) -> (Vec<f64>, Vec<String>) {
    let total: i64 = counts.iter().sum();
    let v: f64 = counts
        .iter()
        .zip(losses)
        .map(|(&c, &l)| c as f64 * l)
        .sum::<f64>()
        / total as f64;
    let mut need: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
    need.extend(losses.iter().map(|&l| format_number(l)));
    (vec![v], need)
}

/// (expected values of the parts, strings the text must contain).
fn expected(params: &Params) -> (Vec<f64>, Vec<String>) {
    match params {
        Params::Loss { counts, losses } => expected_loss(counts, losses),
        Params::Dsgd { values, g, eta } => {
            let mixed = values.iter().sum::<f64>() / values.len() as f64;
            let mut need: Vec<String> = values.iter().map(|&v| format_number(v)).collect();
            need.push(format_number(*g));
            need.push(format!("η = {}", format_number(*eta)));
            (vec![mixed, mixed - eta * g], need)
        }
        Params::RingRounds { p } => (vec![2.0 * (*p as f64 - 1.0)], vec![format!("p = {p}")]),
        Params::RingBytes { p, n, added } => {
            let (pf, nb) = (*p as f64, n.bytes as f64);
            let mut v = vec![2.0 * (pf - 1.0) / pf * nb, 2.0 * (pf - 1.0) / pf * nb];
            if *added {
                v.push((pf - 1.0) / pf * nb);
            }
            (v, vec![format!("p = {p}"), n.text()])
        }
        Params::Recursive { alg, p, n } => {
            let (pf, nb, k) = (*p as f64, n.bytes as f64, log2(*p));
            let v = match alg {
                PracticeAllReduce::RecursiveDoubling => vec![k, k * nb],
                _ => vec![2.0 * k, 2.0 * (pf - 1.0) / pf * nb],
            };
            (
                v,
                vec![format!("p = {p}"), n.text(), alg.label().to_string()],
            )
        }
        Params::Time {
            alg,
            p,
            alpha,
            link,
            n,
        } => {
            let (pf, nb, k) = (*p as f64, n.bytes as f64, log2(*p));
            let (a, b) = (alpha.ns as f64 * 1e-9, hand_beta(*link));
            let t = match alg {
                CostAlgorithm::Ring => 2.0 * (pf - 1.0) * a + 2.0 * (pf - 1.0) / pf * nb * b,
                CostAlgorithm::Tree => 2.0 * k * (a + nb * b),
                CostAlgorithm::RecursiveDoubling => k * (a + nb * b),
                CostAlgorithm::Rabenseifner => 2.0 * k * a + 2.0 * (pf - 1.0) / pf * nb * b,
                CostAlgorithm::NaiveRoot => 2.0 * (pf - 1.0) * (a + nb * b),
            };
            (
                vec![t],
                vec![
                    format!("p = {p}"),
                    alpha.text(),
                    link.text(),
                    n.text(),
                    alg.short_label().to_string(),
                ],
            )
        }
        Params::Crossover {
            ring,
            p,
            alpha,
            link,
        } => {
            let (pf, k) = (*p as f64, log2(*p));
            let (a, b) = (alpha.ns as f64 * 1e-9, hand_beta(*link));
            let fp = 2.0 * (pf - 1.0) / pf;
            let (startups, other) = if *ring {
                (2.0 * (pf - 1.0), "ring")
            } else {
                (2.0 * k, "Rabenseifner")
            };
            let n = (startups - k) * a / ((k - fp) * b);
            (
                vec![n],
                vec![
                    format!("p = {p}"),
                    alpha.text(),
                    link.text(),
                    other.to_string(),
                ],
            )
        }
        Params::Rho { graph, p, factor } => {
            let lam = |k: usize| (2.0 * PI * k as f64 / *p as f64).cos();
            let rho = match graph {
                RhoGraph::RingUniform => (1..*p)
                    .map(|k| (1.0 / 3.0 + 2.0 / 3.0 * lam(k)).abs())
                    .fold(0.0, f64::max),
                RhoGraph::RingLazy => (1..*p)
                    .map(|k| (2.0 / 3.0 + 1.0 / 3.0 * lam(k)).abs())
                    .fold(0.0, f64::max),
                RhoGraph::CompleteLazy => 0.5,
            };
            let rounds = (f64::from(*factor).ln() / (1.0 / rho).ln()).ceil();
            let weight = match graph {
                RhoGraph::RingUniform => "1/3",
                RhoGraph::RingLazy => "1/6",
                RhoGraph::CompleteLazy => "1/(2p)",
            };
            (
                vec![rho, rounds],
                vec![
                    format!("p = {p}"),
                    format!("F = {factor}"),
                    weight.to_string(),
                ],
            )
        }
        Params::Busbw { p, n, t_us } => {
            let t = *t_us as f64 / 1e6;
            let pf = *p as f64;
            let busbw = n.bytes as f64 / t * 2.0 * (pf - 1.0) / pf;
            (
                vec![busbw],
                vec![
                    format!("p = {p}"),
                    n.text(),
                    if *t_us < 1000 {
                        format!("t = {t_us} µs")
                    } else {
                        format!("t = {} ms", format_number(*t_us as f64 / 1000.0))
                    },
                ],
            )
        }
        Params::Multilane {
            payload,
            lanes,
            link,
        } => {
            let (pb, l) = (payload.bytes as f64, *lanes as f64);
            let (bw, rate) = match link {
                Link::Bits(gbit) => (gbit * 1e9 / 8.0, format!("{} Gb/s", format_number(*gbit))),
                Link::Bytes(gb) => (gb * 1e9, format!("{} GB/s", format_number(*gb))),
                Link::Beta(ns) => (1.0 / (ns * 1e-9), format!("{} ns/B", format_number(*ns))),
            };
            (
                vec![pb / l, pb / (l * bw)],
                vec![format!("L = {lanes}"), payload.text(), rate],
            )
        }
        Params::ZeroMemory { .. } | Params::FsdpTraffic { .. } => expected_zero(params),
    }
}

fn expected_zero(params: &Params) -> (Vec<f64>, Vec<String>) {
    match params {
        // ZeRO (Rajbhandari et al. 2020): 2 + 2 + 12 bytes per parameter,
        // the stage's states divided by N.
        Params::ZeroMemory { psi, n, stage } => {
            let (p, nf) = (*psi as f64, *n as f64);
            let v = match stage {
                1 => 4.0 * p + 12.0 * p / nf,
                2 => 2.0 * p + 14.0 * p / nf,
                _ => 16.0 * p / nf,
            };
            (
                vec![v],
                vec![
                    format!("N = {n}"),
                    format!("ZeRO-{stage}"),
                    "K = 12".to_string(),
                ],
            )
        }
        // M = 2Ψ bytes; DDP 2(N − 1)/N · M, FSDP 3(N − 1)/N · M.
        Params::FsdpTraffic { psi, n } => {
            let (m, nf) = (2.0 * *psi as f64, *n as f64);
            let share = (nf - 1.0) / nf * m;
            (vec![2.0 * share, 3.0 * share], vec![format!("N = {n}")])
        }
        _ => (Vec::new(), Vec::new()),
    }
}

#[test]
fn zero_templates_on_case_s_and_their_mistakes() {
    // Ψ = 100M on N = 8 (issue 36's case S): ZeRO-2 375 MB; without the
    // optimizer state 225 MB; everything sharded 200 MB; DDP 1.6 GB.
    let q = templates::build(
        &Params::ZeroMemory {
            psi: 100_000_000,
            n: 8,
            stage: 2,
        },
        "zero-s".into(),
    );
    let part = &numeric(&q)[0];
    assert_eq!(part.value, 375e6);
    assert_eq!(verdict(part, "0.375 GB"), Verdict::Correct);
    assert_eq!(verdict(part, "375 MB"), Verdict::Correct);
    assert_eq!(
        verdict(part, "0.225"),
        Verdict::Mistake(MistakeKind::ForgotOptimizerState)
    );
    assert_eq!(
        verdict(part, "200 MB"),
        Verdict::Mistake(MistakeKind::ShardedEverything)
    );
    assert_eq!(
        verdict(part, "1.6 GB"),
        Verdict::Mistake(MistakeKind::NotSharded)
    );
    assert!(
        q.solution.iter().any(|l| l
            .contains("2Ψ + (2 + K)Ψ/N = 2 B × 100M + 14 B × 100M / 8 = 200 MB + 175 MB = 375 MB")),
        "{:?}",
        q.solution
    );
    // FSDP against DDP, Ψ = 100M bf16 (200 MB) on N = 8: DDP 350 MB, FSDP
    // 525 MB; one all-gather only gives DDP's 350 MB.
    let q = templates::build(
        &Params::FsdpTraffic {
            psi: 100_000_000,
            n: 8,
        },
        "fsdp-s".into(),
    );
    let parts = numeric(&q);
    assert_eq!((parts[0].value, parts[1].value), (350e6, 525e6));
    assert_eq!(verdict(&parts[1], "0.525 GB"), Verdict::Correct);
    assert_eq!(
        verdict(&parts[1], "0.35 GB"),
        Verdict::Mistake(MistakeKind::ForgotSecondAllGather)
    );
    assert_eq!(
        verdict(&parts[0], "0.4 GB"),
        Verdict::Mistake(MistakeKind::TwoN)
    );
    assert_eq!(
        verdict(&parts[0], "0.175 GB"),
        Verdict::Mistake(MistakeKind::OnePhase)
    );
    assert!(
        q.solution.iter().any(|l| l.contains("= 525 MB, 1.5 × DDP")),
        "{:?}",
        q.solution
    );
    assert_eq!(
        Template::from_key("fsdp-traffic"),
        Some(Template::FsdpTraffic)
    );
    assert_eq!(
        Template::from_key("zero-memory"),
        Some(Template::ZeroMemory)
    );
}

#[test]
fn every_template_over_1000_seeds() {
    for t in Template::ALL {
        for seed in 0..1000u64 {
            let params = t.params(seed, 0);
            let q = templates::build(&params, format!("{}-{seed}-0", t.key()));
            if seed < 20 {
                assert_eq!(t.generate(seed, 0), q, "generate = build(params)");
            }
            let (want, need) = expected(&params);
            let parts = numeric(&q);
            assert_eq!(parts.len(), want.len(), "{} seed {seed}", t.key());
            for (part, &w) in parts.iter().zip(&want) {
                assert!(
                    (part.value - w).abs() <= 1e-9 * w.abs() + 1e-12,
                    "{} seed {seed} {}: {} vs hand {w}",
                    t.key(),
                    part.label,
                    part.value
                );
                // The right answer, typed in the question's unit, with and
                // without the unit, is right and never a mistake.
                for input in [
                    typed(part, part.value),
                    format!("{:.6}", part.value / part.unit.factor),
                ] {
                    assert_eq!(
                        verdict(part, &input),
                        Verdict::Correct,
                        "{} seed {seed} {}: {input}",
                        t.key(),
                        part.label
                    );
                }
                if t != Template::Crossover {
                    assert_eq!(
                        verdict(part, &part.shown),
                        Verdict::Correct,
                        "{}",
                        part.shown
                    );
                }
                // Each recognised mistake is either named or within tolerance of the answer.
                for m in &part.mistakes {
                    let v = verdict(part, &typed(part, m.value));
                    assert!(
                        v == Verdict::Mistake(m.kind)
                            || matches!(v, Verdict::Mistake(_))
                            || v == Verdict::Correct,
                        "{} seed {seed}: {:?} gave {v:?}",
                        t.key(),
                        m.kind
                    );
                    if v == Verdict::Correct {
                        assert!(part.tolerance.accepts(part.value, m.value));
                    }
                }
            }
            for s in &need {
                assert!(
                    q.text.contains(s.as_str()),
                    "{} seed {seed}: “{s}” missing from “{}”",
                    t.key(),
                    q.text
                );
            }
            assert!(!q.solution.is_empty() && q.link.is_some());
        }
    }
}

#[test]
fn multilane_course_example_and_mistakes() {
    // Course §10: 1 GB over 4 lanes of 12.5 GB/s → 250 MB per lane, 20 ms (80 ms on one lane).
    let params = Params::Multilane {
        payload: templates::Size::mb(1000),
        lanes: 4,
        link: Link::Bits(100.0),
    };
    let q = templates::build(&params, "multilane-course".into());
    let parts = numeric(&q);
    assert_eq!(parts[0].value, 250e6);
    assert!(close(parts[1].value, 0.02));
    assert_eq!(verdict(&parts[0], "250 MB"), Verdict::Correct);
    assert_eq!(
        verdict(&parts[0], "1 GB"),
        Verdict::Mistake(MistakeKind::NotSplitOverLanes)
    );
    assert_eq!(
        verdict(&parts[0], "250 MiB"),
        Verdict::Mistake(MistakeKind::MbAsMib)
    );
    assert_eq!(verdict(&parts[1], "20 ms"), Verdict::Correct);
    assert_eq!(verdict(&parts[1], "0.02 s"), Verdict::Correct);
    assert_eq!(
        verdict(&parts[1], "80 ms"),
        Verdict::Mistake(MistakeKind::NotSplitOverLanes)
    );
    assert_eq!(
        verdict(&parts[1], "2.5 ms"),
        Verdict::Mistake(MistakeKind::BitsAsBytes)
    );
    assert_eq!(
        verdict(&parts[1], "160 ms"),
        Verdict::Mistake(MistakeKind::BitsAsBytes)
    );
    assert_eq!(
        verdict(&parts[1], "20.97 ms"),
        Verdict::Mistake(MistakeKind::MbAsMib)
    );
    assert_eq!(verdict(&parts[1], "250 MB"), Verdict::WrongKind);
    assert!(q
        .solution
        .iter()
        .any(|l| l.contains("100 Gb/s ÷ 8 = 12.5 GB/s")));
    assert!(q.solution.iter().any(|l| l.contains("1 GB / 4 = 250 MB")));
    assert!(
        q.solution
            .iter()
            .any(|l| l.contains("250 MB / 12.5 GB/s = 20.00 ms")),
        "{:?}",
        q.solution
    );
    assert!(q
        .solution
        .iter()
        .any(|l| l.contains("1 GB / 12.5 GB/s = 80.00 ms")));
    assert_eq!(
        q.link.as_ref().map(|l| l.query.as_str()),
        Some("view=topology&alg=multilane&nodes=2&gpus=4&lanes=4&size=1GB&inter_bw=100Gb/s&inter_alpha=0us")
    );
    assert_eq!(Template::from_key("multilane"), Some(Template::Multilane));
}

#[test]
fn seeds_are_deterministic_and_distinct() {
    for t in Template::ALL {
        assert_eq!(t.generate(7, 0), t.generate(7, 0));
        let texts: std::collections::HashSet<String> =
            (0..20u64).map(|s| t.generate(s, 0).text).collect();
        assert!(texts.len() >= 5, "{}: {} distinct", t.key(), texts.len());
        assert_ne!(t.generate(1, 0).text, t.generate(2, 0).text, "{}", t.key());
    }
    let a = questions(Set::Drill, Some(Template::RingBytes), 3);
    assert_eq!(a.len(), DRILL_COUNT);
    assert_eq!(a, questions(Set::Drill, Some(Template::RingBytes), 3));
    assert_eq!(questions(Set::Drill, None, 3).len(), Template::ALL.len());
    assert_eq!(questions(Set::Course, None, 3).len(), 8);
    for t in Template::ALL {
        assert_eq!(Template::from_key(t.key()), Some(t));
    }
    assert_eq!(Set::parse("DRILL"), Some(Set::Drill));
}

// ---------------------------------------------------------------------------
// Property tests of the answer parser.

#[cfg(not(target_arch = "wasm32"))]
mod props {
    use super::*;
    use proptest::prelude::*;

    const SIZE_UNITS: [(&str, f64); 8] = [
        ("B", 1.0),
        ("kB", 1e3),
        ("MB", 1e6),
        ("GB", 1e9),
        ("KiB", 1024.0),
        ("MiB", 1_048_576.0),
        ("GiB", 1_073_741_824.0),
        ("Mb", 125_000.0),
    ];

    fn size_part(value: f64) -> Numeric {
        Numeric {
            label: "size".into(),
            value,
            kind: Kind::Size,
            unit: Unit {
                symbol: "MB",
                factor: 1e6,
            },
            tolerance: Tolerance::HALF_PERCENT,
            shown: String::new(),
            mistakes: vec![],
        }
    }

    #[test]
    fn a_wrong_plain_number_is_not_told_to_check_units() {
        let size = size_part(112e6);
        let f = check(&size, "150 MB");
        assert_eq!(f.verdict, Verdict::Wrong);
        assert!(
            f.message
                .ends_with("is too large. Check each step and its units."),
            "{}",
            f.message
        );
        let rounds = Numeric {
            label: "rounds".into(),
            value: 6.0,
            kind: Kind::Number,
            unit: Unit {
                symbol: "",
                factor: 1.0,
            },
            ..size
        };
        let f = check(&rounds, "8");
        assert_eq!(f.verdict, Verdict::Wrong);
        assert!(
            f.message.ends_with("is too large. Check each step."),
            "{}",
            f.message
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn a_size_in_any_unit_is_the_same_size(bytes in 1.0e3f64..1.0e12, i in 0usize..8, j in 0usize..8) {
            let part = size_part(bytes);
            let (ui, fi) = SIZE_UNITS[i];
            let (uj, fj) = SIZE_UNITS[j];
            let a = format!("{:.6e} {ui}", bytes / fi);
            let b = format!("{} {uj}", bytes / fj);
            prop_assert_eq!(verdict(&part, &a), Verdict::Correct, "{}", a);
            prop_assert_eq!(verdict(&part, &b), Verdict::Correct, "{}", b);
            let parsed = parse_answer(&b).expect("parses");
            prop_assert_eq!(parsed.kind, Some(Kind::Size));
            prop_assert!((parsed.value / bytes - 1.0).abs() < 1e-9);
            // 1 % off is not accepted.
            let off = format!("{} {ui}", bytes * 1.01 / fi);
            prop_assert_ne!(verdict(&part, &off), Verdict::Correct);
        }

        #[test]
        fn other_kinds_are_rejected_for_a_size(v in 0.001f64..1.0e6, u in prop::sample::select(vec!["s", "ms", "µs", "us", "ns", "GB/s", "Gb/s", "MB/s"])) {
            let part = size_part(112e6);
            let input = format!("{v} {u}");
            prop_assert_eq!(verdict(&part, &input), Verdict::WrongKind, "{}", input);
        }

        #[test]
        fn arbitrary_text_never_panics(s in ".{0,24}") {
            let part = size_part(112e6);
            let f = check(&part, &s);
            prop_assert!(!f.message.is_empty());
            let _ = parse_answer(&s);
        }
    }
}
