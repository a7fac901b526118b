//! Reading Rust source as text for the structure tests (`core_layers.rs`,
//! `layers.rs`): comments and literals blanked out, and the lines outside
//! `#[cfg(test)]` items.
#![allow(dead_code)]

/// Source text with comments, string and char literals blanked out, so
/// that braces and paths are only those of code. Line breaks are kept.
pub fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < b.len() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                if b[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && {
            let mut j = i + 1;
            while b.get(j) == Some(&'#') {
                j += 1;
            }
            b.get(j) == Some(&'"')
        } {
            let mut hashes = 0;
            i += 1;
            while b[i] == '#' {
                hashes += 1;
                i += 1;
            }
            i += 1;
            loop {
                if i >= b.len() {
                    break;
                }
                if b[i] == '"' && (0..hashes).all(|h| b.get(i + 1 + h) == Some(&'#')) {
                    i += 1 + hashes;
                    break;
                }
                if b[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                if b.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && next == Some('\\') {
            // '\n', '\'', '\u{..}'
            i += 2;
            while i < b.len() && b[i] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else if c == '\'' && b.get(i + 2) == Some(&'\'') {
            i += 3;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// True for an attribute line that turns the next item on in tests only.
pub fn is_test_cfg(line: &str) -> bool {
    let l = line.trim();
    l.starts_with("#[cfg(") && l.contains("test") && !l.contains("not(test")
}

/// The lines of `code` outside `#[cfg(test)]` items, with their numbers,
/// and the modules those items declare by file (`mod fixtures;`).
pub fn production_lines(code: &str) -> (Vec<(usize, String)>, Vec<String>) {
    let lines: Vec<&str> = code.lines().collect();
    let mut kept = Vec::new();
    let mut test_mods = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !is_test_cfg(lines[i]) {
            kept.push((i + 1, lines[i].to_string()));
            i += 1;
            continue;
        }
        // Skip further attributes, then the item itself.
        i += 1;
        while i < lines.len() && lines[i].trim().starts_with("#[") {
            i += 1;
        }
        let mut depth = 0i64;
        let mut opened = false;
        while i < lines.len() {
            let l = lines[i];
            let t = l.trim();
            if !opened && t.ends_with(';') && !t.contains('{') {
                let words: Vec<&str> = t.split_whitespace().collect();
                if let Some(at) = words.iter().position(|w| *w == "mod") {
                    if let Some(name) = words.get(at + 1) {
                        test_mods.push(name.trim_end_matches(';').to_string());
                    }
                }
                i += 1;
                break;
            }
            for ch in l.chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            i += 1;
            if opened && depth <= 0 {
                break;
            }
        }
    }
    (kept, test_mods)
}
