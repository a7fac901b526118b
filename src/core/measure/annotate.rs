//! The annotation line `# collective-lab-run alg=KEY p=N [eager=BYTES]`
//! (printed first by the native runner, `runner/`, `eager=` with its
//! `--eager-limit`; a user may add it to any log, also without the
//! `collective-lab-run` word), and the split of one paste into several
//! logs: each annotation line, and each repeated table header after data
//! rows, starts a new log.

use super::detect::is_nccl_header;
use super::log::{Annotation, Line};
use super::osu::is_osu_header;
use crate::core::collectives::Algorithm;

/// Every valid `alg=` key, comma separated.
pub fn valid_keys() -> String {
    Algorithm::all()
        .map(|a| a.key())
        .collect::<Vec<_>>()
        .join(", ")
}

/// True when `line` is an annotation line: `#`, optionally the word
/// `collective-lab-run`, then a first token `alg=…` or `p=…`.
pub fn is_annotation(line: &str) -> bool {
    pairs(line).is_some()
}

/// The tokens of an annotation line after `#` and the optional word.
fn pairs(line: &str) -> Option<Vec<&str>> {
    let rest = line.trim_start().strip_prefix('#')?;
    let mut toks: Vec<&str> = rest.split_whitespace().collect();
    if toks.first() == Some(&"collective-lab-run") {
        toks.remove(0);
    }
    let first = toks.first()?;
    (first.starts_with("alg=") || first.starts_with("p=")).then_some(toks)
}

/// Reads the annotation line `line` (numbered `n`): `Ok(None)` for a line
/// that is not one.
///
/// # Errors
/// An inline message for an unknown `alg=` key (naming the valid keys) or a
/// `p=` that is not a whole number ≥ 2; the annotation as far as it could be
/// read comes with it.
pub fn parse(n: usize, line: &str) -> (Option<Annotation>, Vec<String>) {
    let Some(toks) = pairs(line) else {
        return (None, Vec::new());
    };
    let mut a = Annotation {
        line: n,
        alg: None,
        p: None,
        eager: None,
    };
    let mut errs = Vec::new();
    for t in toks {
        if let Some(k) = t.strip_prefix("alg=") {
            a.alg = Algorithm::from_key(k);
            if a.alg.is_none() {
                let k: String = k.chars().take(40).collect();
                errs.push(format!(
                    "annotation alg={k}: not a known algorithm; valid keys: {}",
                    valid_keys()
                ));
            }
        } else if let Some(v) = t.strip_prefix("eager=") {
            match v.parse::<u64>() {
                Ok(b) if (1..=1u64 << 40).contains(&b) => a.eager = Some(b),
                _ => {
                    let v: String = v.chars().take(40).collect();
                    errs.push(format!(
                        "annotation eager={v}: the eager limit must be a whole number of bytes from 1 to 2^40"
                    ));
                }
            }
        } else if let Some(v) = t.strip_prefix("p=") {
            match v.parse::<usize>() {
                Ok(p) if (2..=1_000_000).contains(&p) => a.p = Some(p),
                _ => {
                    let v: String = v.chars().take(40).collect();
                    errs.push(format!(
                        "annotation p={v}: p must be a whole number from 2 to 1000000"
                    ));
                }
            }
        }
    }
    (Some(a), errs)
}

fn is_data(t: &str) -> bool {
    t.starts_with(|c: char| c.is_ascii_digit())
}

fn is_trailer(t: &str) -> bool {
    let l = t.to_ascii_lowercase();
    ["avg bus bandwidth", "out of bounds", "self-check"]
        .iter()
        .any(|w| l.contains(w))
}

/// Splits cleaned lines into logs: a new log starts at an annotation line
/// once the current log has a data row, and at an nccl-tests or OSU header
/// once the current log has a header followed by data rows (the comment
/// lines just above that header, e.g. its title, go with it; trailers such
/// as `# Avg bus bandwidth` stay with the log above). One part when
/// nothing splits.
pub fn split(lines: Vec<Line>) -> Vec<Vec<Line>> {
    let mut out = Vec::new();
    let mut cur: Vec<Line> = Vec::new();
    let (mut rows, mut header, mut rows_after_header) = (false, false, false);
    let mut tail: Option<usize> = None;
    for l in lines {
        let t = l.1.trim_start();
        let hdr = is_nccl_header(t) || is_osu_header(t);
        let cut = if is_annotation(t) && rows {
            Some(cur.len())
        } else if hdr && header && rows_after_header {
            Some(tail.unwrap_or(cur.len()))
        } else {
            None
        };
        if let Some(k) = cut {
            let next = cur.split_off(k);
            out.push(std::mem::replace(&mut cur, next));
            (rows, header, rows_after_header) = (false, false, false);
            tail = None;
        }
        if hdr {
            header = true;
            rows_after_header = false;
        }
        if is_data(t) {
            rows = true;
            rows_after_header |= header;
            tail = None;
        } else if t.starts_with('#') && !is_trailer(t) {
            tail.get_or_insert(cur.len());
        } else if is_trailer(t) || !t.is_empty() {
            tail = None;
        }
        cur.push(l);
    }
    out.push(cur);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::measure::analysis::{analyse, Settings};
    use crate::core::measure::checks::resolve;
    use crate::core::measure::{import, ImportOptions, RankSource};

    fn fixture() -> String {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/logs/runner-osu-ring-rd-p2.txt"
        );
        std::fs::read_to_string(path).unwrap_or_default()
    }

    #[test]
    fn annotation_lines_are_read_with_or_without_the_runner_word() {
        let (a, e) = parse(3, "# collective-lab-run alg=ring p=4");
        let a = a.expect("an annotation");
        assert_eq!((a.line, a.alg, a.p), (3, Some(Algorithm::RING), Some(4)));
        assert!(e.is_empty());
        let (a, _) = parse(1, "#  alg=RD p=2");
        assert_eq!(a.and_then(|a| a.alg), Some(Algorithm::RD));
        let (a, e) = parse(1, "# collective-lab-run alg=ring p=2 eager=4096");
        assert_eq!(a.and_then(|a| a.eager), Some(4096));
        assert!(e.is_empty());
        let (a, e) = parse(1, "# alg=ring p=2 eager=4k");
        assert_eq!(a.and_then(|a| a.eager), None);
        assert!(e[0].contains("eager=4k"), "{e:?}");
        assert_eq!(parse(1, "# ring all-reduce, p=4 ranks").0, None);
        assert_eq!(parse(1, "alg=ring p=4").0, None, "not a comment");
        let (a, e) = parse(1, "# alg=warp p=1");
        assert_eq!(a.map(|a| (a.alg, a.p)), Some((None, None)));
        assert!(
            e[0].contains("alg=warp") && e[0].contains("ring, "),
            "{e:?}"
        );
        assert!(e[0].contains("dbtree") && e[0].contains("ptree"), "{e:?}");
        assert!(e[1].contains("p=1"), "{e:?}");
    }

    #[test]
    fn two_runner_logs_in_one_paste_are_two_logs_with_their_annotations() {
        let imp = import(&fixture(), &ImportOptions::default()).expect("imported");
        assert!(imp.messages.is_empty(), "{:?}", imp.messages);
        assert_eq!(imp.logs.len(), 2);
        let algs: Vec<_> = imp
            .logs
            .iter()
            .map(|l| l.annotation.and_then(|a| a.alg))
            .collect();
        assert_eq!(algs, vec![Some(Algorithm::RING), Some(Algorithm::RD)]);
        for (l, line) in imp.logs.iter().zip([1, 26]) {
            assert_eq!(l.part, format!("log {}", (line > 1) as usize + 1));
            assert_eq!(l.series[0].rows.len(), 20, "8 B … 4 MiB");
            let r = resolve(l, None);
            assert_eq!(r.p.p, 2);
            assert_eq!(r.p.source, RankSource::Annotation { line });
            assert!(r.p.note.contains("annotation wins"), "{}", r.p.note);
            assert!(r.p.note.contains("agrees with the log"), "{}", r.p.note);
        }
        // The first log's last row is 4 MiB in 1,116.08 µs.
        let last = imp.logs[0].series[0]
            .rows
            .last()
            .map(|r| (r.size.value, r.time.value));
        assert_eq!(last, Some((4_194_304.0, 1_116.08e-6)));
    }

    #[test]
    fn the_runner_pair_gets_per_log_comparisons_and_one_joint_fit() {
        let a = analyse(&fixture(), &Settings::default());
        assert_eq!(a.logs.len(), 2);
        assert_eq!(
            a.logs[1].title,
            "log 2: recursive doubling all-reduce, p = 2"
        );
        let c = a.logs[1]
            .comparison
            .clone()
            .expect("annotated")
            .expect("fitted");
        assert_eq!(c.factors, [1.0, 1.0, 1.0]);
        assert_eq!(c.rows.len(), 20);
        // The selected log is fitted under its own algorithm by default.
        assert_eq!(a.log.as_ref().map(|l| l.model), Some(Model::Ring));
        assert_eq!(a.joint.len(), 1);
        let j = a.joint[0].clone().expect("a joint fit");
        assert_eq!(j.p, 2);
        assert!(j.beta > 0.0 && j.gamma >= 0.0);
        assert_eq!(j.logs.len(), 2);
        assert_eq!(j.crossovers.len(), 1);
        // Two ranks on 2 shared cores through shared memory (release
        // build): the joint fit gives α ≈ 0.84 µs, 1/β ≈ 4.2 GB/s and
        // γ ≈ 0.010 ns/B, so the ring wins above 2α/γ ≈ 160 kB. Open MPI's
        // eager-to-rendezvous step at 4 to 8 KiB is outside the model (rms
        // residuals ≈ 57 % and 62 %), so the bounds are loose.
        assert!((0.1e-6..5e-6).contains(&j.alpha), "{}", j.alpha);
        assert!((1.0 / j.beta) > 1e9 && (1.0 / j.beta) < 20e9, "{}", j.beta);
        assert!(j.gamma > 0.0 && j.gamma_clamped.is_none());
        let (n, below) = j.crossovers[0].predicted.expect("a crossover");
        assert_eq!(below, 1, "rd below, ring above");
        assert!((32_768.0..1_048_576.0).contains(&n), "{n}");
    }

    #[test]
    fn an_annotated_nccl_log_and_an_unknown_alg_are_reported() {
        let text = "# alg=nope p=3\n#  size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n#  (B) (elements) (us) (GB/s) (GB/s) (us) (GB/s) (GB/s)\n 1024 256 float sum -1 10.00 0.10 0.14 0 10.00 0.10 0.14 0\n";
        let imp = import(text, &ImportOptions::default()).expect("imported");
        assert_eq!(imp.logs.len(), 1);
        let ann = imp.logs[0].annotation.expect("annotated");
        assert_eq!((ann.alg, ann.p), (None, Some(3)));
        assert!(imp
            .messages
            .iter()
            .any(|m| m.line == 1 && m.reason.contains("valid keys")));
    }

    use crate::core::measure::Model;

    #[test]
    fn the_runners_ring_at_p_4_fits_the_trace_examples_link() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/logs/runner-osu-ring-p4.txt"
        );
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let a = analyse(&text, &Settings::default());
        let log = a.log.expect("one log");
        assert_eq!(log.resolved.p.p, 4);
        assert_eq!(log.model, Model::Ring);
        let imp = a.import.expect("imported");
        assert_eq!(imp.logs[0].series[0].rows.len(), 23, "4 B … 16 MiB");
        // The title is the OSU-format line, not the comment line before it
        // that mentions "(OSU's)" warm-up counts.
        assert_eq!(
            imp.logs[0].title,
            "OSU-format MPI Allreduce Latency Test: collective-lab-run ring, nranks 4"
        );
        assert_eq!(imp.logs[0].short_title(80), imp.logs[0].title);
        assert_eq!(
            imp.logs[0].short_title(30),
            "OSU-format MPI Allreduce…",
            "cut at a space, not mid-word"
        );
        let mut one_word = imp.logs[0].clone();
        one_word.title = "x".repeat(50);
        assert_eq!(one_word.short_title(10), format!("{}…", "x".repeat(10)));
        // The trace view's example (src/app/views/trace/input.rs) uses this
        // fit: α = 5.429 µs, 1/β = 1.085 GB/s.
        let h = log.handoff.expect("a hand-off");
        assert_eq!(h.url, "?view=cost&p=4&alpha=5.429us&bw=1.085GB/s");
        assert_eq!(
            h.trace,
            "?view=trace&alg=ring&p=4&alpha=5.429us&bw=1.085GB/s"
        );
    }
}
