//! The compact form of the rank picture for narrow screens: one table row
//! per rank, one cell per chunk (the value held and whose contributions it
//! holds, coloured like the ring), and this round's transfers as a list.
//!
//! [`rank_picture`] renders it next to the [`RankRing`]; the stylesheet shows
//! the grid instead of the ring when the app is narrow (a container query
//! on `.shell`), where the ring's labels would be too small to read. Both
//! draw the same [`RingCell`]s and [`RingArrow`]s, built by the view from the
//! executed trace, so every number is the same in both forms.

use yew::prelude::*;

pub use super::rank_ring::GRID_MAX_P;
use super::rank_ring::{fill, RankRing, RingArrow, RingCell, FULL, RAMP};

/// Transfers listed under the grid; the rest are counted.
const LISTED_TRANSFERS: usize = 16;

/// Props of [`rank_grid_view`].
#[derive(PartialEq)]
pub struct RankGridProps {
    /// Number of ranks.
    pub p: usize,
    /// `cells[rank]`: that rank's chunks in order.
    pub cells: Vec<Vec<RingCell>>,
    /// This round's transfers.
    pub arrows: Vec<RingArrow>,
    /// What the picture shows (the table's caption).
    pub caption: AttrValue,
}

/// The contributor label, or "k/p" when it is longer than a narrow cell
/// holds (the cell's tooltip keeps the full list).
fn short_who(cell: &RingCell, p: usize) -> String {
    if cell.who.chars().count() <= 5 || cell.count == 0 {
        cell.who.clone()
    } else {
        format!("{}/{p}", cell.count)
    }
}

/// Text colour on a cell of [`fill`]: black on every partial-sum colour
/// (at least 4.6:1 on the darkest, `#26828e`), white on the complete sum.
fn text_colour(count: usize, p: usize) -> &'static str {
    match count {
        0 => "var(--fg)",
        c if c >= p => "#ffffff",
        _ => "#000000",
    }
}

/// "rank 0 → rank 1: c3 reduce": the arrow's label, with the operation
/// named when the label does not already say it (the ring's "c3").
fn transfer_text(a: &RingArrow) -> String {
    let op = if a.reduce { "reduce" } else { "copy" };
    let named = a.label.split_whitespace().any(|w| w == op);
    format!(
        "rank {} → rank {}: {}{}",
        a.src,
        a.dst,
        a.label,
        if named {
            String::new()
        } else {
            format!(" {op}")
        }
    )
}

/// Ranks × chunks table and the list of this round's transfers.
pub fn rank_grid_view(props: &RankGridProps) -> Html {
    let p = props.p.max(1);
    let chunks = props.cells.iter().map(Vec::len).max().unwrap_or(0);
    let rows = props.cells.iter().enumerate().map(|(r, row)| {
        html! {
            <tr key={r}>
                <th scope="row">{r}</th>
                { for row.iter().map(|cell| {
                    let (bg, _) = fill(cell.count, p);
                    let fg = text_colour(cell.count, p);
                    html! {
                        <td style={format!("background:{bg};color:{fg}")} title={cell.title.clone()}>
                            <span class="v">{cell.value.clone()}</span>
                            <span class="w">{short_who(cell, p)}</span>
                        </td>
                    }
                }) }
            </tr>
        }
    });
    let n = props.arrows.len();
    html! {
        <figure class="rank-grid">
            <div class="table-scroll" role="region" tabindex="0" aria-label="Chunks per rank (scrollable table)">
                <table>
                    <caption>{props.caption.clone()}</caption>
                    <thead><tr>
                        <th scope="col">{"rank"}</th>
                        { for (0..chunks).map(|c| html! { <th scope="col">{format!("c{c}")}</th> }) }
                    </tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            if chunks > 8 {
                <p class="muted">{format!("Scroll the grid sideways to see all {chunks} chunks →")}</p>
            }
            if n > 0 {
                <ul class="grid-transfers" aria-label="This round's transfers">
                    { for props.arrows.iter().take(LISTED_TRANSFERS).map(|a| html! {
                        <li class={if a.reduce { "reduce" } else { "copy" }}>
                            {transfer_text(a)}
                        </li>
                    }) }
                    if n > LISTED_TRANSFERS {
                        <li>{format!("… and {} more", n - LISTED_TRANSFERS)}</li>
                    }
                </ul>
            }
            <figcaption class="legend">
                <span class="key"><span class="swatch" style={format!("background:{}", RAMP[0])}></span>{"own data only"}</span>
                <span class="key"><span class="swatch" style={format!("background:{}", RAMP[3])}></span>{"partial sum"}</span>
                <span class="key"><span class="swatch" style={format!("background:{FULL}")}></span>{"complete sum"}</span>
                <span class="key"><span class="line reduce"></span>{"reduce (add)"}</span>
                <span class="key"><span class="line copy"></span>{"copy"}</span>
            </figcaption>
        </figure>
    }
}

/// The rank picture of the ring and collectives views: the [`RankRing`],
/// and for `p ≤` [`GRID_MAX_P`] also the [`rank_grid_view`] that the stylesheet
/// shows instead at narrow widths.
pub fn rank_picture(
    p: usize,
    cells: Vec<Vec<RingCell>>,
    arrows: Vec<RingArrow>,
    caption: String,
) -> Html {
    let caption = AttrValue::from(caption);
    let grid = (p <= GRID_MAX_P).then(|| {
        html! { {rank_grid_view(&RankGridProps { p, cells: cells.clone(), arrows: arrows.clone(), caption: caption.clone() })} }
    });
    html! {
        <div class={classes!("rank-picture", grid.is_some().then_some("has-grid"))}>
            <RankRing {p} {cells} {arrows} {caption} />
            {for grid}
        </div>
    }
}
