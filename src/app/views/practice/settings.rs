//! Which questions: the course set or a drill (template and seed).

use yew::prelude::*;

use crate::app::components::field::{text_field, TextFieldProps};
use crate::core::practice::{Set, Template};
use crate::params::practice::{PracticeParams, MAX_SEED};
use crate::params::{parse_int_in, FieldError};

/// Props of [`settings`].
#[derive(PartialEq)]
pub struct SettingsProps {
    /// Current parameters.
    pub params: PracticeParams,
    /// Text of a rejected seed.
    pub seed_text: String,
    /// Message for a rejected seed.
    pub seed_error: Option<String>,
    /// New parameters.
    pub on_change: Callback<PracticeParams>,
    /// A rejected seed field.
    pub on_error: Callback<(String, FieldError)>,
}

/// The set and template menus, the seed box and "another seed".
pub fn settings(props: &SettingsProps) -> Html {
    let p = props.params.clone();
    let on_set = {
        let (p, cb) = (p.clone(), props.on_change.clone());
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let set = Set::parse(&sel.value()).unwrap_or_default();
            cb.emit(PracticeParams {
                set,
                number: None,
                template: None,
                ..p.clone()
            });
        })
    };
    let on_template = {
        let (p, cb) = (p.clone(), props.on_change.clone());
        Callback::from(move |e: Event| {
            let sel: web_sys::HtmlSelectElement = e.target_unchecked_into();
            cb.emit(PracticeParams {
                template: Template::from_key(&sel.value()),
                ..p.clone()
            });
        })
    };
    let on_seed = {
        let (p, cb, err) = (p.clone(), props.on_change.clone(), props.on_error.clone());
        Callback::from(
            move |text: String| match parse_int_in("seed", &text, 0, MAX_SEED) {
                Ok(seed) => cb.emit(PracticeParams { seed, ..p.clone() }),
                Err(e) => err.emit((text, e)),
            },
        )
    };
    let next_seed = {
        let (p, cb) = (p.clone(), props.on_change.clone());
        Callback::from(move |_| {
            cb.emit(PracticeParams {
                seed: (p.seed + 1) % (MAX_SEED + 1),
                ..p.clone()
            })
        })
    };
    let drill = p.set == Set::Drill;
    html! {
        <form class="controls practice-controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <div class="field">
                <label for="f-set">{"Questions"}</label>
                <select id="f-set" onchange={on_set}>
                    <option value="course" selected={!drill}>{"Course: 8 questions"}</option>
                    <option value="drill" selected={drill}>{"Generated drill"}</option>
                </select>
            </div>
            if drill {
                <div class="field">
                    <label for="f-q">{"Template"}</label>
                    <select id="f-q" onchange={on_template}>
                        <option value="" selected={p.template.is_none()}>{"one of each template"}</option>
                        { for Template::ALL.iter().map(|t| html! {
                            <option value={t.key()} selected={p.template == Some(*t)}>{t.label()}</option>
                        }) }
                    </select>
                </div>
                {text_field(&TextFieldProps { name: "seed".into(), label: "Seed".into(), value: props.seed_text.clone().into(), error: props.seed_error.clone(), hint: Some((AttrValue::from("same seed, same questions: share the link")).into()), on_commit: on_seed })}
                <div class="field">
                    <span class="label-spacer" aria-hidden="true">{"\u{a0}"}</span>
                    <button type="button" id="next-seed" onclick={next_seed}>{"Other numbers (next seed)"}</button>
                </div>
            }
        </form>
    }
}
