//! One clock as a Gantt chart (SVG from `html!`): a row per rank (or per
//! group of ranks above 64), time on the x axis, sends above receives and
//! reduces, waiting shaded, the critical path outlined, cut messages
//! dashed, a failed rank's row marked where it stops, and the time cursor.

use std::rc::Rc;

use yew::prelude::*;

use crate::core::timing::gantt::{Bar, BarKind, Gantt, Row};
use crate::core::units::decimal;
use crate::core::units::{format_input_time, format_time, tick_step};

const W: f64 = 640.0;
const LEFT: f64 = 62.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 6.0;
const AXIS: f64 = 26.0;

/// Props of [`gantt_chart`].
#[derive(PartialEq)]
pub struct GanttChartProps {
    /// The bars, from the core.
    pub gantt: Rc<Gantt>,
    /// Accessible name, e.g. "Dataflow timeline".
    pub label: AttrValue,
    /// The axis ends here, seconds (shared by side-by-side charts).
    pub x_end: f64,
    /// The time cursor, seconds (none drawn when not finite).
    pub t: f64,
    /// Element id.
    pub id: AttrValue,
}

fn row_height(rows: usize) -> f64 {
    match rows {
        0..=8 => 26.0,
        9..=16 => 20.0,
        17..=32 => 12.0,
        _ => 8.0,
    }
}

/// Above this many rows the bars and waits carry no tooltip of their own:
/// at 8 px a row they are too thin to point at, and the tooltips were a
/// third of the chart's elements (the per-rank table and the CSV hold the
/// same numbers).
pub const TOOLTIP_ROWS_MAX: usize = 32;

fn bar_html(b: &Bar, x: &dyn Fn(f64) -> f64, (y, h, tips): (f64, f64, bool)) -> Html {
    let (top, kind) = match b.kind {
        BarKind::Send => (y + 1.0, "g-send"),
        BarKind::Recv => (y + h / 2.0, "g-recv"),
        BarKind::Reduce => (y + h / 2.0, "g-reduce"),
    };
    let (x0, x1) = (x(b.start), x(b.end));
    let class = classes!(kind, b.critical.then_some("crit"), b.cut.then_some("cut"));
    let (bx, by) = (decimal::fixed(x0, 1), decimal::fixed(top, 1));
    let (bw, bh) = (
        decimal::fixed((x1 - x0).max(0.6), 2),
        decimal::fixed(h / 2.0 - 1.0, 1),
    );
    if !tips {
        return html! { <rect {class} x={bx} y={by} width={bw} height={bh} /> };
    }
    let arrow = if b.kind == BarKind::Send {
        "→"
    } else {
        "←"
    };
    let tip = format!(
        "{} {arrow} {}, round {}{}: {} – {} ({}){}{}",
        b.kind.label(),
        b.peer,
        b.round + 1,
        if b.pieces > 1 {
            format!(", {} pieces", b.pieces)
        } else {
            String::new()
        },
        format_time(b.start),
        format_time(b.end),
        format_time(b.end - b.start),
        if b.critical { ", critical path" } else { "" },
        if b.cut { ", cut: never arrived" } else { "" },
    );
    html! {
        <rect {class} x={bx} y={by} width={bw} height={bh}><title>{tip}</title></rect>
    }
}

fn row_html(
    row: &Row,
    (i, h, tips): (usize, f64, bool),
    x: &dyn Fn(f64) -> f64,
    (end, id): (f64, &str),
) -> Html {
    let y = TOP + i as f64 * h;
    let label = if row.ranks.1 - row.ranks.0 == 1 {
        format!("rank {}", row.ranks.0)
    } else {
        format!("{}–{}", row.ranks.0, row.ranks.1 - 1)
    };
    let waits = row.waits.iter().map(|&(a, b)| {
        if !tips {
            return html! {
                <rect class="g-wait" x={decimal::fixed(x(a), 1)} y={decimal::fixed(y, 1)}
                    width={decimal::fixed((x(b) - x(a)).max(0.5), 2)} height={decimal::fixed(h - 1.0, 1)} />
            };
        }
        html! {
            <rect class="g-wait" x={decimal::fixed(x(a), 1)} y={decimal::fixed(y, 1)}
                width={decimal::fixed((x(b) - x(a)).max(0.5), 2)} height={decimal::fixed(h - 1.0, 1)}>
                <title>{format!("waiting {} – {}", format_time(a), format_time(b))}</title></rect>
        }
    });
    let bin = end / row.shares.len().max(1) as f64;
    let shares = row.shares.iter().enumerate().filter(|(_, s)| **s > 0.0).map(|(k, s)| html! {
        <rect class="g-share" x={decimal::fixed(x(k as f64 * bin), 1)} y={decimal::fixed(y + 1.0, 1)}
            width={decimal::fixed(x(bin) - x(0.0), 2)} height={decimal::fixed(h - 2.0, 1)}
            fill-opacity={decimal::fixed(s.max(0.08), 2)} />
    });
    let enter = (row.entered > 0.0).then(|| html! {
        <line class="g-enter" x1={decimal::fixed(x(row.entered), 1)} x2={decimal::fixed(x(row.entered), 1)}
            y1={decimal::fixed(y, 1)} y2={decimal::fixed(y + h - 1.0, 1)}><title>{format!("enters at {}", format_time(row.entered))}</title></line>
    });
    let fail = row.failed_at.map(|f| html! {
        <g class="g-fail"><line x1={decimal::fixed(x(f), 1)} x2={decimal::fixed(x(f), 1)}
            y1={decimal::fixed(y, 1)} y2={decimal::fixed(y + h - 1.0, 1)} />
            <text x={decimal::fixed(x(f) + 2.0, 1)} y={decimal::fixed(y + h * 0.75, 1)}>{"✕ fails"}</text>
            <title>{format!("rank fails at {}", format_time(f))}</title></g>
    });
    // Below 12 units a row, labels of 10 units would overlap: every 4th row
    // is labelled (rank 0, 4, 8, …), as on an axis.
    let labelled = h >= 12.0 || i % 4 == 0;
    html! {
        <g class="g-row" id={format!("{id}-row-{i}")}>
            if labelled {
                <text class="g-label" x={decimal::fixed(LEFT - 4.0, 1)} y={decimal::fixed(y + h * 0.72, 1)}>{label}</text>
            }
            { for waits }{ for shares }{ for row.bars.iter().map(|b| bar_html(b, x, (y, h, tips))) }{enter}{fail}
        </g>
    }
}

/// Props of [`GanttBars`]: everything but the cursor, so a step of the
/// cursor does not re-render the bars.
#[derive(Properties, PartialEq)]
pub struct GanttBarsProps {
    /// The bars, from the core.
    pub gantt: Rc<Gantt>,
    /// The axis ends here, seconds.
    pub end: f64,
    /// Element id of the chart (rows get `{id}-row-{i}`).
    pub id: AttrValue,
}

/// The ticks and rows of a chart (an SVG `<g>`).
#[component]
pub fn GanttBars(props: &GanttBarsProps) -> Html {
    let (g, end) = (&props.gantt, props.end);
    let h = row_height(g.rows.len());
    let tips = g.rows.len() <= TOOLTIP_ROWS_MAX;
    let plot_h = g.rows.len() as f64 * h;
    let x = move |t: f64| LEFT + crate::core::units::clamp(t / end, 0.0, 1.0) * (W - LEFT - RIGHT);
    let step = tick_step(end);
    let ticks = (0..=((end / step).floor() as usize)).map(|i| {
        let t = i as f64 * step;
        html! {
            <g class="g-tick">
                <line x1={decimal::fixed(x(t), 1)} x2={decimal::fixed(x(t), 1)} y1={decimal::fixed(TOP, 0)} y2={decimal::fixed(TOP + plot_h + 4.0, 1)} />
                <text x={decimal::fixed(x(t), 1)} y={decimal::fixed(TOP + plot_h + 16.0, 1)}>{format_input_time(t)}</text>
            </g>
        }
    });
    html! {
        <g class="g-bars">
            { for ticks }
            { for g.rows.iter().enumerate().map(|(i, r)| row_html(r, (i, h, tips), &x, (end, &props.id))) }
        </g>
    }
}

/// The Gantt chart of one clock.
pub fn gantt_chart(props: &GanttChartProps) -> Html {
    let g = &props.gantt;
    let end = props.x_end.max(g.end).max(1e-12);
    let plot_h = g.rows.len() as f64 * row_height(g.rows.len());
    let height = TOP + plot_h + AXIS;
    let cx = LEFT + crate::core::units::clamp(props.t / end, 0.0, 1.0) * (W - LEFT - RIGHT);
    // The cursor is an HTML line over the SVG, so a step moves one small
    // element and repaints no bars.
    let cursor = format!(
        "left:{}%;height:{}%",
        decimal::fixed(cx / W * 100.0, 3),
        decimal::fixed((TOP + plot_h + 4.0) / height * 100.0, 3)
    );
    html! {
        <div class="gantt-stack">
            <svg class="chart gantt" id={props.id.clone()} viewBox={format!("0 0 {} {}", decimal::fixed(W, 0), decimal::fixed(height, 0))} role="img"
                aria-label={props.label.clone()}>
                <GanttBars gantt={g.clone()} {end} id={props.id.clone()} />
            </svg>
            if props.t.is_finite() {
                <div class="g-cursor" style={cursor} aria-hidden="true"></div>
            }
        </div>
    }
}

/// The key of the Gantt charts' colours (the timeline and trace views).
pub fn legend() -> Html {
    let item = |class: &'static str, text: &'static str| {
        html! {
            <span class="g-key"><svg width="18" height="10" aria-hidden="true"><rect class={class} x="0" y="0" width="18" height="10" /></svg>{text}</span>
        }
    };
    html! {
        <p class="gantt-legend muted">
            {item("g-send", "send")}{item("g-recv", "receive")}{item("g-reduce", "reduce (γ)")}
            {item("g-wait", "waiting")}{item("g-send crit", "critical path")}{item("g-send cut", "cut (never arrived)")}
        </p>
    }
}

/// One chart in its figure, as the timeline and trace views draw it:
/// `title` is the caption (element id `caption_id`), `name` gives the
/// accessible names ("{name} (scrolls sideways)" for the scroll region,
/// "{name}, one row per rank" for the chart); the other arguments are
/// [`gantt_chart`]'s (`t` not finite: no cursor). Not inlined: one copy of
/// its elements per binary.
#[inline(never)]
pub fn gantt_figure(
    title: String,
    caption_id: String,
    name: &str,
    gantt: Rc<Gantt>,
    x_end: f64,
    t: f64,
    id: String,
) -> Html {
    html! {
        <figure class="gantt-box">
            <figcaption class="gantt-title" id={caption_id}>{title}</figcaption>
            <div class="table-scroll" role="region" tabindex="0" aria-label={format!("{name} (scrolls sideways)")}>
                {gantt_chart(&GanttChartProps { gantt, label: format!("{name}, one row per rank").into(), x_end, t, id: id.into() })}
            </div>
        </figure>
    }
}
