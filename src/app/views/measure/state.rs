//! State of the `measure` view: the pasted text, the user's settings, the
//! analysis the core computed, and the text of every field (so a bad value
//! shows its message while the last good analysis stays).

use std::rc::Rc;

use wasm_bindgen::JsCast;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

use crate::core::measure::analysis::{analyse, Analysis, Settings};
use crate::core::measure::synthetic::example;
use crate::core::measure::{BwKind, CollectiveKind, Model};
use crate::core::units::parse_bandwidth;
use crate::pages::common::shared::Shared;
use crate::pages::measure::parse_range;

/// Props of the view's panels that read the state and dispatch actions.
#[derive(Properties, PartialEq)]
pub struct PanelProps {
    /// The view state.
    pub state: Rc<MeasureState>,
    /// Dispatches an action.
    pub on_action: Callback<Action>,
}

/// The value of the `<select>` an event came from ("" when it is not one).
pub fn select_value(e: &Event) -> String {
    e.target()
        .and_then(|t| t.dyn_into::<HtmlSelectElement>().ok())
        .map(|s| s.value())
        .unwrap_or_default()
}

/// The view's state.
#[derive(Clone, Debug, PartialEq)]
pub struct MeasureState {
    /// The log text (pasted, read from a file, or a synthetic example).
    pub text: Rc<String>,
    /// Where the text came from ("pasted", "file run.log", "synthetic example …").
    pub source: String,
    /// The settings of the last good analysis.
    pub settings: Settings,
    /// Field texts, by field name.
    pub p_text: String,
    /// Line-rate field text.
    pub rate_text: String,
    /// Fit range field texts.
    pub min_text: String,
    /// Fit range field texts.
    pub max_text: String,
    /// The regime fit's breakpoint field text (empty = from the data).
    pub eager_text: String,
    /// Inline messages, `(field, message)`.
    pub errors: Vec<(&'static str, String)>,
    /// The core's analysis of `text` with `settings`, compared by identity
    /// (every action recomputes it; comparing two analyses row by row would
    /// cost more than the re-render).
    pub analysis: Shared<Analysis>,
    /// The last analysis that read a log, kept while the paste is rejected
    /// (the fit, charts and table keep showing it).
    pub kept: Option<Shared<Analysis>>,
}

impl Default for MeasureState {
    fn default() -> Self {
        let settings = Settings::default();
        MeasureState {
            text: Rc::new(String::new()),
            source: String::new(),
            analysis: Shared::new(analyse("", &settings)),
            settings,
            p_text: String::new(),
            rate_text: String::new(),
            min_text: String::new(),
            max_text: String::new(),
            eager_text: String::new(),
            errors: Vec::new(),
            kept: None,
        }
    }
}

/// What the user did.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// New log text and where it came from.
    SetText(String, String),
    /// A synthetic example by key: its text, and its own algorithm model
    /// preselected (a bad key keeps the last good state and shows a message).
    LoadExample(String),
    /// The rank-count field (empty = from the log).
    SetP(String),
    /// The line-rate field (empty = none), e.g. "100Gb/s".
    SetRate(String),
    /// The fit model.
    SetModel(Model),
    /// Number of breakpoints.
    SetBreaks(usize),
    /// Smallest size of the fit (empty = all), e.g. "64KiB".
    SetMin(String),
    /// Largest size of the fit (empty = all).
    SetMax(String),
    /// Which log of a side-by-side paste.
    SelectLog(usize),
    /// Which table is fitted.
    SelectSeries(usize),
    /// The collective (None = from the log).
    SetCollective(Option<CollectiveKind>),
    /// Size unit for generic columns without one (empty = from the header).
    SetSizeUnit(String),
    /// Time unit for generic columns without one.
    SetTimeUnit(String),
    /// What an unnamed bandwidth column holds.
    SetBwKind(Option<BwKind>),
    /// The regime fit's breakpoint, bytes per message (empty = found from
    /// the data), e.g. "4KiB".
    SetEager(String),
}

fn set_error(errors: &mut Vec<(&'static str, String)>, field: &'static str, e: Option<String>) {
    errors.retain(|(f, _)| *f != field);
    if let Some(e) = e {
        errors.push((field, e));
    }
}

impl Reducible for MeasureState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        let mut changed = true;
        match action {
            Action::SetText(t, src) => {
                s.text = Rc::new(t);
                s.source = src;
                s.settings.log = 0;
                s.settings.series = 0;
                s.settings.model_set = false;
                set_error(&mut s.errors, "example", None);
            }
            Action::LoadExample(key) => match example(&key) {
                Ok(ex) => {
                    s.text = Rc::new(ex.text());
                    s.source = ex.source();
                    s.settings.model = ex.model();
                    s.settings.model_set = true;
                    s.settings.log = 0;
                    s.settings.series = 0;
                    set_error(&mut s.errors, "example", None);
                }
                Err(e) => {
                    set_error(&mut s.errors, "example", Some(e));
                    changed = false;
                }
            },
            Action::SetP(raw) => {
                s.p_text = raw.clone();
                let t = raw.trim();
                match t.parse::<usize>() {
                    _ if t.is_empty() => {
                        s.settings.user_p = None;
                        set_error(&mut s.errors, "p", None);
                    }
                    Ok(p) if (2..=1_000_000).contains(&p) => {
                        s.settings.user_p = Some(p);
                        set_error(&mut s.errors, "p", None);
                    }
                    _ => {
                        set_error(&mut s.errors, "p", Some(format!("p must be a whole number from 2 to 1000000 (got “{t}”); empty = from the log")));
                        changed = false;
                    }
                }
            }
            Action::SetRate(raw) => {
                s.rate_text = raw.clone();
                let t = raw.trim();
                if t.is_empty() {
                    s.settings.line_rate = None;
                    set_error(&mut s.errors, "rate", None);
                } else {
                    match parse_bandwidth(t) {
                        Ok(b) => {
                            s.settings.line_rate = Some(b.bytes_per_second);
                            set_error(&mut s.errors, "rate", None);
                        }
                        Err(e) => {
                            set_error(
                                &mut s.errors,
                                "rate",
                                Some(format!("line rate: {e} (e.g. 100Gb/s or 450GB/s)")),
                            );
                            changed = false;
                        }
                    }
                }
            }
            Action::SetMin(raw) => {
                s.min_text = raw.clone();
                match parse_range(&raw, "smallest size") {
                    Ok(v) => {
                        s.settings.min_size = v.unwrap_or(0.0);
                        set_error(&mut s.errors, "min", None);
                    }
                    Err(e) => {
                        set_error(&mut s.errors, "min", Some(e));
                        changed = false;
                    }
                }
            }
            Action::SetMax(raw) => {
                s.max_text = raw.clone();
                match parse_range(&raw, "largest size") {
                    Ok(v) => {
                        s.settings.max_size = v.unwrap_or(f64::INFINITY);
                        set_error(&mut s.errors, "max", None);
                    }
                    Err(e) => {
                        set_error(&mut s.errors, "max", Some(e));
                        changed = false;
                    }
                }
            }
            Action::SetEager(raw) => {
                s.eager_text = raw.clone();
                match parse_range(&raw, "eager limit") {
                    Ok(v) => {
                        s.settings.eager = v;
                        set_error(&mut s.errors, "eager", None);
                    }
                    Err(e) => {
                        set_error(
                            &mut s.errors,
                            "eager",
                            Some(e.replace("all sizes", "found from the data")),
                        );
                        changed = false;
                    }
                }
            }
            Action::SetModel(m) => {
                s.settings.model = m;
                s.settings.model_set = true;
            }
            Action::SetBreaks(b) => s.settings.breaks = b.min(2),
            Action::SelectLog(i) => {
                s.settings.log = i;
                s.settings.series = 0;
            }
            Action::SelectSeries(i) => s.settings.series = i,
            Action::SetCollective(c) => s.settings.import.collective = c,
            Action::SetSizeUnit(u) => {
                s.settings.import.size_unit = Some(u).filter(|u| !u.trim().is_empty())
            }
            Action::SetTimeUnit(u) => {
                s.settings.import.time_unit = Some(u).filter(|u| !u.trim().is_empty())
            }
            Action::SetBwKind(k) => s.settings.import.bw_kind = k,
        }
        if changed {
            let next = Shared::new(analyse(&s.text, &s.settings));
            if next.log.is_some() {
                s.kept = None;
            } else if s.analysis.log.is_some() {
                s.kept = Some(s.analysis.clone());
            }
            s.analysis = next;
        }
        Rc::new(s)
    }
}

impl MeasureState {
    /// The state the fit, charts and table show: this one, or while the paste
    /// is rejected, this one with the last analysis that read a log.
    pub fn shown(self: &Rc<Self>) -> Rc<MeasureState> {
        match (&self.kept, &self.analysis.log) {
            (Some(k), None) => Rc::new(MeasureState {
                analysis: k.clone(),
                ..(**self).clone()
            }),
            _ => self.clone(),
        }
    }

    /// The inline message of `field`, if any.
    pub fn error(&self, field: &str) -> Option<String> {
        self.errors
            .iter()
            .find(|(f, _)| *f == field)
            .map(|(_, e)| e.clone())
    }
}
