//! Labelled text input with an inline validation message.
//!
//! The parent keeps the last *good* parameters and, per field, the text the
//! user typed plus its error ([`Drafts`]). A bad value shows its message next
//! to the field while the view keeps rendering the last good state.

use yew::prelude::*;

use crate::params::FieldError;

/// Typed-but-not-accepted texts and their messages, per field key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drafts {
    text: Sorted,
    errors: Sorted,
}

/// Field key → text, sorted by key: a handful of entries, so a sorted list
/// does what a map would without linking a map type into every page.
#[derive(Clone, Debug, Default, PartialEq)]
struct Sorted(Vec<(&'static str, String)>);

impl Sorted {
    fn at(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| (*k).cmp(key))
    }
    fn insert(&mut self, key: &'static str, value: String) {
        match self.at(key) {
            Ok(i) => self.0[i].1 = value,
            Err(i) => self.0.insert(i, (key, value)),
        }
    }
    fn remove(&mut self, key: &str) {
        if let Ok(i) = self.at(key) {
            self.0.remove(i);
        }
    }
    fn get(&self, key: &str) -> Option<&String> {
        self.at(key).ok().map(|i| &self.0[i].1)
    }
    fn iter(&self) -> impl Iterator<Item = (&'static str, &String)> {
        self.0.iter().map(|(k, v)| (*k, v))
    }
}

impl Drafts {
    /// Drafts seeded with the errors found while reading the URL.
    pub fn from_errors(errs: &[FieldError], raw: impl Fn(&str) -> Option<String>) -> Self {
        let mut d = Drafts::default();
        for e in errs {
            d.errors.insert(e.field, e.message.clone());
            if let Some(t) = raw(e.field) {
                d.text.insert(e.field, t);
            }
        }
        d
    }

    /// Records a bad value for `field`.
    pub fn reject(&mut self, field: &'static str, text: String, message: String) {
        self.text.insert(field, text);
        self.errors.insert(field, message);
    }

    /// Clears `field` after a good value was accepted.
    pub fn accept(&mut self, field: &'static str) {
        self.text.remove(field);
        self.errors.remove(field);
    }

    /// The text to show in `field`: the rejected draft, else `good`.
    pub fn text_or(&self, field: &str, good: &str) -> String {
        self.text
            .get(field)
            .cloned()
            .unwrap_or_else(|| good.to_string())
    }

    /// The rejected texts, as `(field, text)`, in field order.
    pub fn texts(&self) -> Vec<(&'static str, String)> {
        self.text.iter().map(|(k, v)| (k, v.clone())).collect()
    }

    /// The message for `field`, if its last value was rejected.
    pub fn error(&self, field: &str) -> Option<String> {
        self.errors.get(field).cloned()
    }

    /// Errors of fields that have no input on screen (e.g. `step`): every
    /// error whose field is not in `on_screen`.
    pub fn orphans(&self, on_screen: &[&str]) -> Vec<String> {
        self.errors
            .iter()
            .filter(|(k, _)| !on_screen.contains(k))
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// The errors of fields without an input on screen, as alert lines.
    pub fn orphans_html(&self, on_screen: &[&str]) -> Html {
        self.orphans(on_screen)
            .into_iter()
            .map(|m| html! { <p class="field-error" role="alert">{m}</p> })
            .collect()
    }
}

/// Props of [`text_field`].
#[derive(PartialEq)]
pub struct TextFieldProps {
    /// Field key; also the input id suffix and the URL key.
    pub name: AttrValue,
    /// Visible label, with the unit.
    pub label: AttrValue,
    /// Text shown in the box.
    pub value: String,
    /// Inline message when the last value was rejected.
    pub error: Option<String>,
    /// Short hint shown under the field (e.g. accepted units).
    pub hint: Option<AttrValue>,
    /// Called with the new text when the user commits (Enter or leaving the field).
    pub on_commit: Callback<String>,
}

/// A labelled text input that reports its text on change.
pub fn text_field(props: &TextFieldProps) -> Html {
    let id = format!("f-{}", props.name);
    let err_id = format!("{id}-err");
    let onchange = {
        let cb = props.on_commit.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            cb.emit(input.value());
        })
    };
    let invalid = props.error.is_some();
    html! {
        <div class={classes!("field", invalid.then_some("invalid"))}>
            <label for={id.clone()}>{props.label.clone()}</label>
            <input id={id} type="text" name={props.name.clone()} value={props.value.clone()}
                spellcheck="false" autocomplete="off"
                aria-invalid={invalid.then_some("true")}
                aria-describedby={invalid.then(|| err_id.clone())}
                {onchange} />
            if let Some(h) = &props.hint {
                <small class="hint">{h.clone()}</small>
            }
            if let Some(e) = &props.error {
                <small class="field-error" id={err_id} role="alert">{e.clone()}</small>
            }
        </div>
    }
}
