//! The parse report: format, collective, rank count (overridable), the notes
//! on how the log was read, the line-numbered messages, the `# Avg bus
//! bandwidth` check and the line-rate check. Text from the log is only ever
//! put into text nodes.

use yew::prelude::*;

use super::state::{select_value, Action, PanelProps};
use crate::app::components::field::{text_field, TextFieldProps};
use crate::core::measure::{CollectiveKind, LineMessage, RankSource, FORMATS};
use crate::pages::measure::message_text;

/// A folded list of line messages: "`n` line(s) `what`" (open when short);
/// nothing when `msgs` is empty.
fn messages_block(id: &'static str, n: usize, what: &str, msgs: &[&LineMessage]) -> Html {
    if msgs.is_empty() {
        return Html::default();
    }
    html! {
        <details open={msgs.len() <= 10} id={id}>
            <summary>{format!("{n} line{} {what}", if n == 1 { "" } else { "s" })}</summary>
            <ul class="line-messages">{ for msgs.iter().map(|m| html!{ <li>{message_text(m)}</li> }) }</ul>
        </details>
    }
}

/// What was read, with the rank count and line-rate fields.
pub fn parse_report(props: &PanelProps) -> Html {
    let s = &props.state;
    let act = props.on_action.clone();
    let imp = match &s.analysis.import {
        Ok(imp) => imp,
        Err(e) => {
            let msgs: Vec<LineMessage> = match e {
                // the error already lists the formats read: not again
                crate::core::measure::ImportError::Unrecognised { messages } => messages
                    .iter()
                    .filter_map(|m| {
                        let reason = m.reason.replace(&format!(" We read {FORMATS}"), "");
                        (!reason.contains(FORMATS)
                            && !reason.trim().is_empty()
                            && !reason.starts_with("no header of a known format"))
                        .then_some(LineMessage {
                            line: m.line,
                            reason,
                        })
                    })
                    .collect(),
                crate::core::measure::ImportError::Empty => Vec::new(),
            };
            let kept = s.kept.is_some() && !s.text.trim().is_empty();
            let nccl_only = s.analysis.nccl.is_some();
            return html! {
                <section class="panel wide" id="parse-report">
                    <h2>{"What was read"}</h2>
                    <p id="import-error" class={classes!((!s.text.is_empty()).then_some("field-error"))} role="status">{e.to_string()}</p>
                    if nccl_only {
                        <p id="nccl-only-note" class="hint">{"This paste has NCCL_DEBUG lines but no benchmark table, so there is nothing to fit α and β to. \
                            NCCL's lines are read in “NCCL's own choices” below; paste a benchmark table too (e.g. all_reduce_perf output) for the fit."}</p>
                    }
                    <ul class="line-messages" id="import-reasons">{ for msgs.iter().take(20).map(|m| html!{ <li>{message_text(m)}</li> }) }</ul>
                    if kept {
                        <p id="kept-note" class="hint">{"The fit, charts and table below still show the last log that was read."}</p>
                    }
                </section>
            };
        }
    };
    let Some(la) = &s.analysis.log else {
        return html! {};
    };
    let log = imp.logs.get(la.index);
    let undetermined = matches!(la.resolved.p.source, RankSource::Undetermined { .. });
    let (unread, partial) = imp.split_messages();
    let n_unread = imp.unread_lines() + unread.iter().filter(|m| m.line == 0).count();
    let mut partial_lines: Vec<usize> = partial.iter().map(|m| m.line).collect();
    partial_lines.dedup();
    let on_coll =
        act.reform(|e: Event| Action::SetCollective(CollectiveKind::from_name(&select_value(&e))));
    let on_log = act.reform(|e: Event| Action::SelectLog(select_value(&e).parse().unwrap_or(0)));
    let on_p = act.reform(Action::SetP);
    let on_rate = act.reform(Action::SetRate);
    html! {
        <section class="panel wide" id="parse-report" aria-labelledby="parse-report-h">
            <h2 id="parse-report-h">{"What was read"}</h2>
            if imp.logs.len() > 1 {
                <div class="measure-row">
                    <label for="log-pick">{"Log: "}</label>
                    <select id="log-pick" onchange={on_log}>
                        { for imp.logs.iter().enumerate().map(|(i, l)| html!{
                            <option value={i.to_string()} selected={i == la.index}>{format!("{} ({} rows)", s.analysis.logs.get(i).map_or(l.part.as_str(), |x| x.title.as_str()), l.series.first().map(|s| s.rows.len()).unwrap_or(0))}</option>
                        }) }
                    </select>
                </div>
            }
            if let Some(l) = log {
                <ul class="measure-facts">
                    <li id="log-format">{format!("Format: {}", l.format.label())}</li>
                    if !l.title.is_empty() {
                        <li id="log-title">{"Title: "}<q title={l.title.clone()}>{l.short_title(200)}</q></li>
                    }
                    <li id="log-rows">{format!("Rows: {}", l.series.iter().map(|s| format!("{} ({})", s.rows.len(), s.label.chars().take(40).collect::<String>())).collect::<Vec<_>>().join(", "))}</li>
                    <li id="log-collective">{format!("Collective: {}", l.collective_note)}
                        {" "}
                        <select id="collective" aria-label="Collective" onchange={on_coll}>
                            <option value="" selected={s.settings.import.collective.is_none()}>{"from the log"}</option>
                            { for CollectiveKind::MENU.into_iter().map(|c| html!{
                                <option value={c.key()} selected={s.settings.import.collective == Some(c)}>{c.label()}</option>
                            }) }
                        </select>
                    </li>
                    <li id="rank-count" class={classes!(undetermined.then_some("field-error"))} role={undetermined.then_some("status")}>{la.resolved.p.note.clone()}</li>
                    if let Some(n) = &la.resolved.bw_note {
                        <li id="bw-kind">{n.clone()}</li>
                    }
                    { for l.notes.iter().map(|n| html!{ <li>{n.clone()}</li> }) }
                </ul>
            }
            <div class="measure-fields">
                {text_field(&TextFieldProps { name: "p".into(), label: "Rank count p (empty = from the log)".into(), value: s.p_text.clone().into(), error: s.error("p"), on_commit: on_p, hint: None })}
                {text_field(&TextFieldProps { name: "rate".into(), label: "Line rate (optional), e.g. 100Gb/s or 450GB/s".into(), value: s.rate_text.clone().into(), error: s.error("rate"), on_commit: on_rate, hint: None })}
            </div>
            <p id="flag-count" class={classes!((la.checks.flagged > 0).then_some("flagged"))}>
                {format!("{} flagged row{} (algbw = size / time and busbw = algbw × factor, checked to the printed precision)", la.checks.flagged, if la.checks.flagged == 1 { "" } else { "s" })}
            </p>
            if let Some(a) = &la.checks.avg {
                <p id="avg-check" class={classes!((!a.matches).then_some("flagged"))}>{format!("line {}: {}", a.line, a.note)}</p>
            }
            if let Some(n) = &la.checks.line_rate_note {
                <p id="line-rate-note" class="flagged">{n.clone()}</p>
            }
            {messages_block("line-messages", n_unread, "not read", &unread)}
            {messages_block("line-notes", partial_lines.len(), "read in part", &partial)}
        </section>
    }
}
