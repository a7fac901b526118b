//! The measured trace against the model, rank by rank: each rank's
//! measured finish, the model's, and their ratio, with the totals
//! (`#trace-summary`, `#trace-ranks`), written as markup text
//! ([`markup`](mod@super::markup)): every value is a number or this file's text.

use std::fmt::Write;

use yew::prelude::*;

use super::markup::markup;

use crate::core::timing::clock::Clock;
use crate::core::timing::measured::{compare, Measured};
use crate::core::units::format_time;
use crate::pages::trace::{finish, ratio};

/// The summary line and the per-rank table of `m` against `model`, the
/// clock named `label` (this page's text).
pub fn measured_table(m: &Measured, model: &Clock, label: &str) -> Html {
    let c = compare(m, model);
    let mut s = format!(
        "<p id=\"trace-summary\">Measured {}, model ({label}) {}: measured / model = {}.</p>\
         <div class=\"table-scroll tall\" role=\"region\" tabindex=\"0\" aria-label=\"Measured against model, per rank (scrollable table)\">\
         <table class=\"numbers\" id=\"trace-ranks\"><thead><tr><th scope=\"col\">rank</th><th scope=\"col\">measured finish</th>\
         <th scope=\"col\">model finish</th><th scope=\"col\">measured / model</th></tr></thead><tbody>",
        format_time(c.measured),
        finish(c.model),
        ratio(c.ratio)
    );
    for (rank, &(f, mf, q)) in c.ranks.iter().enumerate() {
        let _ = write!(
            s,
            "<tr><th scope=\"row\">{rank}</th><td id=\"trace-finish-{rank}\">{}</td><td>{}</td><td>{}</td></tr>",
            format_time(f),
            finish(mf),
            ratio(q)
        );
    }
    s.push_str(
        "</tbody></table></div><p class=\"muted\">A send or receive bar runs from its MPI_Isend or MPI_Irecv to the end of \
         the round's MPI_Waitall, so time spent waiting for a late peer is inside the bar (the model shades it apart). \
         Times start at the trace's first event.</p>",
    );
    markup(s)
}
