//! The URL parameters every view shares for embedding in a course page:
//!
//! - `show=picture,steps`: only these panels, in the page's order (each view
//!   lists its panel names in a `PANELS` const next to its parameters, e.g.
//!   [`super::ring::PANELS`]); an unknown name gives a message listing the
//!   view's names, and the view shows every panel;
//! - `autoheight=0`: with `embed=1`, do not post the content height to the
//!   parent page (it is posted by default).

use super::{FieldError, Query};

/// Which panels a view shows and whether it posts its height.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Embed {
    /// The view's panel names, in the page's order.
    pub panels: &'static [&'static str],
    /// Bit `i` set: `panels[i]` is shown; `None`: every panel.
    shown: Option<u64>,
    /// Post the content height to the parent page (with `embed=1`).
    pub autoheight: bool,
}

impl Embed {
    /// Every panel of `panels` shown, the height posted.
    pub fn new(panels: &'static [&'static str]) -> Self {
        Embed {
            panels,
            shown: None,
            autoheight: true,
        }
    }

    /// Reads `show` and `autoheight` from `q` for a view whose panels are
    /// `panels`. A bad `show` shows every panel, a bad `autoheight` keeps
    /// it on; each yields a [`FieldError`].
    pub fn from_query(q: &Query, panels: &'static [&'static str]) -> (Self, Vec<FieldError>) {
        let mut e = Embed::new(panels);
        let mut errs = Vec::new();
        if let Some(raw) = q.get("show") {
            match parse_show(raw, panels) {
                Ok(bits) => e.shown = bits,
                Err(err) => errs.push(err),
            }
        }
        if let Some(raw) = q.get("autoheight") {
            match raw.to_ascii_lowercase().as_str() {
                "1" | "true" | "yes" | "on" => {}
                "0" | "false" | "no" | "off" => e.autoheight = false,
                _ => errs.push(FieldError::new(
                    "autoheight",
                    "autoheight must be 1 (post the height to the page, the default) or 0",
                )),
            }
        }
        (e, errs)
    }

    /// Whether `panel` is shown (every panel is, without `show=`).
    pub fn shows(&self, panel: &str) -> bool {
        match self.shown {
            None => true,
            Some(bits) => self
                .panels
                .iter()
                .position(|p| *p == panel)
                .is_some_and(|i| bits >> i & 1 == 1),
        }
    }

    /// True when `show=` chose some panels.
    pub fn chosen(&self) -> bool {
        self.shown.is_some()
    }

    /// The canonical pairs: `show` with the shown names in the page's order
    /// (when chosen) and `autoheight=0` (when off).
    pub fn to_pairs(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if let Some(bits) = self.shown {
            let names: Vec<&str> = self
                .panels
                .iter()
                .enumerate()
                .filter(|(i, _)| bits >> i & 1 == 1)
                .map(|(_, p)| *p)
                .collect();
            out.push(("show", names.join(",")));
        }
        if !self.autoheight {
            out.push(("autoheight", "0".into()));
        }
        out
    }
}

/// The panels named in `raw` (comma-separated, any case, blanks ignored) as
/// bits of `panels`; `None` when it names none.
fn parse_show(raw: &str, panels: &'static [&'static str]) -> Result<Option<u64>, FieldError> {
    let mut bits = 0u64;
    for name in raw.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        match panels
            .iter()
            .take(64)
            .position(|p| p.eq_ignore_ascii_case(name))
        {
            Some(i) => bits |= 1 << i,
            None => {
                let shown: String = name.chars().take(40).collect();
                return Err(FieldError::new(
                    "show",
                    format!(
                        "show: no panel “{shown}” in this view, so every panel is shown. Panels: {}.",
                        panels.join(", ")
                    ),
                ));
            }
        }
    }
    Ok((bits != 0).then_some(bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PANELS: &[&str] = &["title", "controls", "steps", "picture", "counters"];

    fn parse(s: &str) -> (Embed, Vec<FieldError>) {
        Embed::from_query(&Query::parse(s), PANELS)
    }

    #[test]
    fn show_keeps_the_page_order() {
        let (e, errs) = parse("show=Picture, steps");
        assert!(errs.is_empty());
        assert!(e.shows("picture") && e.shows("steps"));
        assert!(!e.shows("title") && !e.shows("counters"));
        assert_eq!(e.to_pairs(), vec![("show", "steps,picture".to_string())]);
        assert!(e.autoheight);
    }

    #[test]
    fn without_show_everything_is_shown() {
        let (e, errs) = parse("view=ring&p=4");
        assert!(errs.is_empty() && !e.chosen());
        assert!(PANELS.iter().all(|p| e.shows(p)));
        assert!(e.to_pairs().is_empty());
        assert!(!parse("show=,,").0.chosen());
    }

    #[test]
    fn an_unknown_panel_lists_the_names_and_shows_everything() {
        let (e, errs) = parse("show=picture,nosuch");
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].field, "show");
        assert!(errs[0].message.contains("“nosuch”"), "{}", errs[0].message);
        assert!(errs[0]
            .message
            .contains("title, controls, steps, picture, counters"));
        assert!(!e.chosen() && e.shows("counters"));
    }

    #[test]
    fn autoheight_reads_on_and_off() {
        let (e, errs) = parse("autoheight=0&show=steps");
        assert!(errs.is_empty() && !e.autoheight);
        let pairs = e.to_pairs();
        assert_eq!(
            pairs,
            vec![
                ("show", "steps".to_string()),
                ("autoheight", "0".to_string())
            ]
        );
        assert_eq!(parse(&super::super::encode(&pairs)).0, e);
        let (e, errs) = parse("autoheight=maybe");
        assert!(e.autoheight);
        assert_eq!(errs[0].field, "autoheight");
    }
}
