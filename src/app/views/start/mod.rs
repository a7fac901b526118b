//! The start page, shown when the URL names no view: it renders
//! [`crate::pages::start`] (what the lab is, the chapter's path, the doors
//! for teachers and engineers) and computes nothing of its own. Only the
//! ring binary holds it: the loader loads that binary when `?view=` is
//! absent.

use yew::prelude::*;

use crate::pages::start::{Stop, DOORS, INTRO, PATH};

/// One stop of the path: its section, what to look for, the view's link
/// and the practice questions that check it.
fn stop(i: usize, s: &Stop) -> Html {
    // The list's numbers are the chapter's section numbers (`value`).
    let questions = (!s.questions.is_empty()).then(|| {
        html! {
            <>
                {" Then answer "}
                { for s.questions.iter().enumerate().map(|(j, &q)| html! {
                    <>
                        if j > 0 { {" and "} }
                        <a class="stop-question" href={Stop::question_href(q)}>{format!("practice question {q}")}</a>
                    </>
                }) }
                {"."}
            </>
        }
    });
    html! {
        <li id={format!("stop-{}", i + 1)} value={s.chapter.to_string()}>
            <h3>{s.section}</h3>
            <p>{s.look}</p>
            <p><a class="stop-view" href={s.href()}>{s.label}</a>{"."}{for questions}</p>
        </li>
    }
}

/// The start page.
#[component]
pub fn StartView() -> Html {
    html! {
        <div class="view view-start">
            <h1 class="start-h">{"Start here"}</h1>
            <p class="lead">{INTRO}</p>
            <section aria-labelledby="path-h">
                <h2 id="path-h">{"The chapter, in order"}</h2>
                <p class="hint">{"Each stop opens a view on a case; predict what it will show, look, then answer the practice question."}</p>
                <ol class="start-path">
                    { for PATH.iter().enumerate().map(|(i, s)| stop(i, s)) }
                </ol>
            </section>
            { for DOORS.iter().map(|d| html! {
                <section class="start-door">
                    <h2>{d.who}</h2>
                    <p>{d.what}</p>
                    <ul>
                        { for d.links.iter().map(|(text, href)| html! {
                            <li><a href={*href}>{*text}</a></li>
                        }) }
                    </ul>
                </section>
            }) }
        </div>
    }
}
