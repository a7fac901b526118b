//! The stored practice score: a flat JSON object of question key → outcome
//! key, `{"ring-1-0":"first","rd-1-2":"hint"}`, as the page has always
//! stored it in `localStorage`.
//!
//! Both ends are this small format only: keys and values are made of
//! letters, digits, `-` and `_`, so no escape is ever written, and reading
//! gives up (an empty score) on anything else. It saves every practice page
//! a JSON library (about 10 KB gzipped) for one line of storage.

/// `pairs` as a JSON object; a pair whose key or value holds a character
/// outside `[A-Za-z0-9_-]` is left out.
pub fn encode<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut out = String::from("{");
    for (k, v) in pairs {
        if !(plain(k) && plain(v)) {
            continue;
        }
        if out.len() > 1 {
            out.push(',');
        }
        for s in [k, v] {
            out.push('"');
            out.push_str(s);
            out.push('"');
            out.push(':');
        }
        out.pop();
    }
    out.push('}');
    out
}

/// The pairs of a JSON object written by [`encode`] (blanks between
/// tokens allowed); `None` for anything else.
pub fn decode(s: &str) -> Option<Vec<(String, String)>> {
    let body = s.trim().strip_prefix('{')?.strip_suffix('}')?.trim();
    if body.is_empty() {
        return Some(Vec::new());
    }
    body.split(',')
        .map(|pair| {
            let (k, v) = pair.split_once(':')?;
            Some((string(k)?, string(v)?))
        })
        .collect()
}

fn plain(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn string(t: &str) -> Option<String> {
    let inner = t.trim().strip_prefix('"')?.strip_suffix('"')?;
    plain(inner).then(|| inner.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_the_stored_score() {
        let text = encode([("ring-1-0", "first"), ("rd-7-2", "hint")]);
        assert_eq!(text, r#"{"ring-1-0":"first","rd-7-2":"hint"}"#);
        assert_eq!(
            decode(&text),
            Some(vec![
                ("ring-1-0".to_string(), "first".to_string()),
                ("rd-7-2".to_string(), "hint".to_string())
            ])
        );
        // what serde_json wrote before: the same format, maybe with blanks
        assert_eq!(decode(r#"{ "a" : "revealed" }"#).map(|v| v.len()), Some(1));
        assert_eq!(decode("{}"), Some(Vec::new()));
        assert_eq!(encode([]), "{}");
    }

    #[test]
    fn anything_else_is_no_score() {
        for bad in [
            "",
            "null",
            "[1]",
            r#"{"a":1}"#,
            r#"{"a":"b"#,
            r#"{"a\"":"b"}"#,
            "{,}",
        ] {
            assert_eq!(decode(bad), None, "{bad}");
        }
        // a pair that is not plain text is not written
        assert_eq!(
            encode([("a\"b", "first"), ("ok", "hint")]),
            r#"{"ok":"hint"}"#
        );
    }
}
