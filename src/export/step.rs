//! The step view's tables: the buckets of one step, the tuner's points and
//! the time-to-quality points, from the core's results.

use super::{Cell, DataTable};
use crate::core::step::quality::QualityRow;
use crate::core::step::spans::{CommKind, StepRun};
use crate::core::step::strategies::Tuner;

/// One row per bucket: layers, bytes, ready, start, end (seconds). A
/// sharded step (ZeRO-2, FSDP) has one row per collective instead, with
/// what it does and when it was issued.
pub fn buckets_table(run: &StepRun) -> DataTable {
    if run.buckets.iter().any(|b| b.kind != CommKind::AllReduce) {
        let mut t = DataTable::new(
            "Collectives of one step",
            &[
                "#",
                "collective",
                "layers",
                "bytes",
                "issued (s)",
                "start (s)",
                "end (s)",
            ],
        );
        for (k, b) in run.buckets.iter().enumerate() {
            t.rows.push(vec![
                Cell::Num((k + 1) as f64),
                Cell::Text(b.kind.label().into()),
                Cell::Text(b.label()),
                Cell::Num(b.bytes as f64),
                Cell::Num(b.ready),
                Cell::Num(b.start),
                Cell::Num(b.end),
            ]);
        }
        return t;
    }
    let mut t = DataTable::new(
        "Buckets of one step",
        &[
            "bucket",
            "layers",
            "bytes",
            "ready (s)",
            "all-reduce start (s)",
            "end (s)",
        ],
    );
    for (k, b) in run.buckets.iter().enumerate() {
        t.rows.push(vec![
            Cell::Num((k + 1) as f64),
            Cell::Text(b.label()),
            Cell::Num(b.bytes as f64),
            Cell::Num(b.ready),
            Cell::Num(b.start),
            Cell::Num(b.end),
        ]);
    }
    t
}

/// One row per cap: cap (MiB), buckets, step time (s), and a mark for the
/// best and the default.
pub fn tuner_table(tuner: &Tuner) -> DataTable {
    let mut t = DataTable::new(
        "Step time against the bucket cap",
        &["bucket cap (MiB)", "buckets", "step time (s)", "note"],
    );
    for (i, p) in tuner.points.iter().enumerate() {
        let note = match (i == tuner.best, i == tuner.default) {
            (true, true) => "best; DDP default",
            (true, false) => "best",
            (false, true) => "DDP default",
            _ => "",
        };
        t.rows.push(vec![
            Cell::Num(p.cap as f64 / 1_048_576.0),
            Cell::Num(p.buckets as f64),
            Cell::Num(p.step_time),
            Cell::Text(note.into()),
        ]);
    }
    t
}

/// Seconds and loss of every strategy at every step.
pub fn quality_table(rows: &[QualityRow]) -> DataTable {
    let mut t = DataTable::new(
        "Loss against wall-clock time",
        &["strategy", "step", "time (s)", "loss"],
    );
    for r in rows {
        for (step, &(s, l)) in r.points.iter().enumerate() {
            t.rows.push(vec![
                Cell::Text(r.strategy.key().into()),
                Cell::Num(step as f64),
                Cell::Num(s),
                Cell::Num(l),
            ]);
        }
    }
    t
}
