//! The one Chrome trace writer: the timeline's clock, the step view's
//! training step and the MPI runner's traced iteration are all written
//! here, in the JSON Object Format of the Trace Event Format (Google,
//! "Trace Event Format", the format of `chrome://tracing`, Perfetto and the
//! PyTorch profiler).
//!
//! - Each process (a rank, or the step) is a `pid`, from 1 (Perfetto treats
//!   `pid` 0 as the kernel's idle process), named by `process_name` and
//!   ordered by `process_sort_index` metadata events, written on its first
//!   row's `tid` (no event has `tid` 0 either).
//! - Each process has one row per kind of work the trace declares (e.g.
//!   send, recv, reduce), a thread with its own `tid` (unique in the file,
//!   from 1), named by `thread_name` and ordered by `thread_sort_index`.
//! - Work is complete events (`"ph": "X"`) with `ts` and `dur` in µs. The
//!   format wants the events of one thread to nest or follow each other, so
//!   spans of one kind that overlap in time go to further rows of that kind
//!   ("send 2", "send 3", …): the writer places each span, in order of start,
//!   on the first row whose last span has ended (the fewest rows, as for
//!   interval colouring). Times are whole nanoseconds before they are
//!   compared and written, so what the file says is what was compared.
//! - A flow (`"ph": "s"` on the source's row, `"ph": "f"` with `"bp": "e"`
//!   on the target's, one `id` per flow) draws an arrow from one span to
//!   another, e.g. from a send to its receive. Each flow event sits in the
//!   middle of its span, so it binds to that span in either viewer whatever
//!   order equal timestamps are read in.
//!
//! Numbers are written from integers (no float formatting): µs with up to
//! three decimals, the nanoseconds.

use super::order::order_by;

/// A value in a span's `args` or in the file's `otherData` (texts go
/// through [`TraceWriter::other_text`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// A whole number.
    Int(u64),
    /// `true` or `false`.
    Bool(bool),
    /// Seconds, written as µs to the nanosecond (as `ts` is).
    Micros(f64),
}

/// A span's name: a fixed text, a fixed text followed by a rank (`"send → "`
/// and 3 give `"send → 3"`, without a string per span), or any text.
#[derive(Clone, Debug, PartialEq)]
pub enum Name {
    /// A fixed text.
    Text(&'static str),
    /// A fixed text, then a number.
    Numbered(&'static str, usize),
    /// Any text.
    Owned(String),
}

/// One complete event before it is placed on a row.
#[derive(Clone, Debug)]
struct Span {
    process: usize,
    kind: usize,
    name: Name,
    cat: &'static str,
    start: i64,
    end: i64,
    /// Its `args` object, `args[lo..hi]` of [`TraceWriter::args`].
    args: (usize, usize),
}

/// A trace being built: declare the row kinds, add processes and spans
/// (and flows between spans), then [`TraceWriter::finish`] writes the file.
#[derive(Clone, Debug)]
pub struct TraceWriter {
    kinds: &'static [&'static str],
    processes: Vec<String>,
    spans: Vec<Span>,
    /// The spans' `args` objects, written as they come (one string, no
    /// allocation per span: a trace at p = 256 has 261 120 spans).
    args: String,
    flows: Vec<(usize, usize)>,
    /// The members of `otherData`, written as they come.
    other: String,
}

/// Seconds to whole nanoseconds; `None` when not finite or beyond ±292 years.
fn nanos(t: f64) -> Option<i64> {
    let ns = (t * 1e9).round();
    (ns.is_finite() && ns.abs() < 9.2e18).then_some(ns as i64)
}

/// Writes `n` in decimal (by hand: the writer formats nothing, which keeps
/// it small in the wasm).
fn push_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// Writes `ns` nanoseconds as µs: `52000`, `1.5`, `0.001`, `-2.25`.
fn push_micros(out: &mut String, ns: i64) {
    if ns < 0 {
        out.push('-');
    }
    let a = ns.unsigned_abs();
    push_u64(out, a / 1000);
    let f = a % 1000;
    if f != 0 {
        // three digits, trailing zeros dropped (a non-zero digit stays)
        out.push('.');
        out.extend([f / 100, f / 10 % 10, f % 10].map(|d| char::from(b'0' + d as u8)));
        while out.ends_with('0') {
            out.pop();
        }
    }
}

/// Writes `s` as a JSON string (quotes, backslashes and control characters
/// escaped).
fn push_str(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if u32::from(c) < 0x20 => {
                out.push_str("\\u00");
                out.push(char::from(HEX[(u32::from(c) >> 4) as usize]));
                out.push(char::from(HEX[(u32::from(c) & 15) as usize]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn push_arg(out: &mut String, v: Arg) {
    match v {
        Arg::Int(n) => push_u64(out, n),
        Arg::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Arg::Micros(t) => push_micros(out, nanos(t).unwrap_or(0)),
    }
}

/// Writes `,"key":` (no comma for the first member of an object).
fn push_key(out: &mut String, key: &str) {
    if !out.ends_with('{') && !out.is_empty() {
        out.push(',');
    }
    push_str(out, key);
    out.push(':');
}

fn push_name(out: &mut String, n: &Name) {
    match n {
        Name::Text(s) => push_str(out, s),
        Name::Owned(s) => push_str(out, s),
        Name::Numbered(s, k) => {
            out.push('"');
            out.push_str(s);
            push_u64(out, *k as u64);
            out.push('"');
        }
    }
}

/// Starts an event in the list (a comma after the one before, a newline)
/// with `{"name":"NAME","ph":"PH","pid":PID,"tid":TID`.
fn event_head(out: &mut String, name: &str, ph: &str, pid: usize, tid: usize) {
    if !out.ends_with('[') {
        out.push(',');
    }
    out.push_str("\n{\"name\":");
    push_str(out, name);
    out.push_str(",\"ph\":\"");
    out.push_str(ph);
    out.push_str("\",\"pid\":");
    push_u64(out, pid as u64);
    out.push_str(",\"tid\":");
    push_u64(out, tid as u64);
}

/// One metadata event (`"ph": "M"`) up to its value: `…,"args":{"KEY":`;
/// the caller writes the value and `}}`.
fn meta(out: &mut String, what: &str, pid: usize, tid: usize, key: &str) {
    event_head(out, what, "M", pid, tid);
    out.push_str(",\"args\":{");
    push_str(out, key);
    out.push(':');
}

impl TraceWriter {
    /// A trace whose processes each have the rows `kinds` (in this order),
    /// e.g. `&["send", "recv", "reduce"]`.
    pub fn new(kinds: &'static [&'static str]) -> Self {
        TraceWriter {
            kinds,
            processes: Vec::new(),
            spans: Vec::new(),
            args: String::new(),
            flows: Vec::new(),
            other: String::new(),
        }
    }

    /// Adds a process named `name` (e.g. "rank 3"); returns its index
    /// (its `pid` is the index + 1).
    pub fn process(&mut self, name: impl Into<String>) -> usize {
        self.processes.push(name.into());
        self.processes.len() - 1
    }

    /// Adds a span from `start` to `end` seconds on `process`'s rows of
    /// kind `kind` (an index into the kinds), with category `cat` and
    /// `args`. Returns its index for [`TraceWriter::flow`], or `None` when a
    /// time is not finite, the process or kind does not exist (nothing is
    /// written then). An `end` before `start` is read as `start`.
    pub fn span(
        &mut self,
        process: usize,
        kind: usize,
        name: Name,
        cat: &'static str,
        (start, end): (f64, f64),
        args: &[(&'static str, Arg)],
    ) -> Option<usize> {
        let (start, end) = (nanos(start)?, nanos(end)?);
        if process >= self.processes.len() || kind >= self.kinds.len() {
            return None;
        }
        let lo = self.args.len();
        self.args.push('{');
        for &(k, v) in args {
            push_key(&mut self.args, k);
            push_arg(&mut self.args, v);
        }
        self.args.push('}');
        self.spans.push(Span {
            process,
            kind,
            name,
            cat,
            start,
            end: end.max(start),
            args: (lo, self.args.len()),
        });
        Some(self.spans.len() - 1)
    }

    /// An arrow from span `from` to span `to` (indices from
    /// [`TraceWriter::span`]).
    pub fn flow(&mut self, from: usize, to: usize) {
        if from < self.spans.len() && to < self.spans.len() {
            self.flows.push((from, to));
        }
    }

    /// Sets `key` of the file's `otherData` (what the run was) to a number.
    pub fn other(&mut self, key: &'static str, value: Arg) {
        push_key(&mut self.other, key);
        push_arg(&mut self.other, value);
    }

    /// Sets `key` of the file's `otherData` to a text.
    pub fn other_text(&mut self, key: &'static str, value: &str) {
        push_key(&mut self.other, key);
        push_str(&mut self.other, value);
    }

    /// Places the spans on rows (see the module doc): the row of each span
    /// (0 for the first of its kind), and the number of rows of each
    /// (process, kind), indexed `process · kinds + kind`.
    fn place(&self) -> (Vec<usize>, Vec<usize>) {
        let k = self.kinds.len();
        let mut ends: Vec<Vec<i64>> = vec![Vec::new(); self.processes.len() * k];
        let mut row = vec![0; self.spans.len()];
        // `start` as an unsigned key in signed order
        let by_start = order_by(&self.spans, |s| (s.start as u64) ^ (1 << 63));
        for i in by_start {
            let s = &self.spans[i];
            let lanes = &mut ends[s.process * k + s.kind];
            match lanes.iter().position(|&e| e <= s.start) {
                Some(l) => {
                    lanes[l] = s.end;
                    row[i] = l;
                }
                None => {
                    lanes.push(s.end);
                    row[i] = lanes.len() - 1;
                }
            }
        }
        (row, ends.iter().map(Vec::len).collect())
    }

    /// The file: `{"displayTimeUnit":"ms","otherData":{…},"traceEvents":[…]}`
    /// with the metadata events first, then the spans in the order they
    /// were added, then the flows.
    pub fn finish(self) -> String {
        let k = self.kinds.len();
        let (row, rows) = self.place();
        // tid of row 0 of each (process, kind): rows numbered from 1 in
        // process, kind, row order; a process's own metadata goes on its
        // first row (a process without rows gets a tid of its own), as
        // Perfetto makes a thread of every (pid, tid) it reads, and tid 0
        // is the kernel's
        let mut first_tid = Vec::with_capacity(rows.len());
        let mut own_tid = Vec::with_capacity(self.processes.len());
        let mut next = 1;
        for p in 0..self.processes.len() {
            let per_process = &rows[p * k..(p + 1) * k];
            own_tid.push(next);
            for &n in per_process {
                first_tid.push(next);
                next += n;
            }
            if per_process.iter().all(|&n| n == 0) {
                next += 1;
            }
        }
        // about 130 bytes per span besides its args, 90 per flow event
        let mut out = String::with_capacity(
            256 + self.args.len() + self.spans.len() * 130 + self.flows.len() * 180,
        );
        out.push_str("{\"displayTimeUnit\":\"ms\",\"otherData\":{");
        out.push_str(&self.other);
        out.push_str("},\"traceEvents\":[");
        for (p, name) in self.processes.iter().enumerate() {
            let (pid, tid) = (p + 1, own_tid[p]);
            meta(&mut out, "process_name", pid, tid, "name");
            push_str(&mut out, name);
            out.push_str("}}");
            meta(&mut out, "process_sort_index", pid, tid, "sort_index");
            push_u64(&mut out, p as u64);
            out.push_str("}}");
            for (kind, kname) in self.kinds.iter().enumerate() {
                for r in 0..rows[p * k + kind] {
                    let tid = first_tid[p * k + kind] + r;
                    // "send", then "send 2", "send 3", … (kinds need no escape)
                    meta(&mut out, "thread_name", pid, tid, "name");
                    out.push('"');
                    out.push_str(kname);
                    if r > 0 {
                        out.push(' ');
                        push_u64(&mut out, r as u64 + 1);
                    }
                    out.push_str("\"}}");
                    meta(&mut out, "thread_sort_index", pid, tid, "sort_index");
                    push_u64(&mut out, (kind * 1000 + r) as u64);
                    out.push_str("}}");
                }
            }
        }
        let tid = |i: usize| {
            let s = &self.spans[i];
            (s.process + 1, first_tid[s.process * k + s.kind] + row[i])
        };
        for (i, s) in self.spans.iter().enumerate() {
            let (pid, tid) = tid(i);
            if !out.ends_with('[') {
                out.push(',');
            }
            out.push_str("\n{\"name\":");
            push_name(&mut out, &s.name);
            out.push_str(",\"cat\":");
            push_str(&mut out, s.cat);
            out.push_str(",\"ph\":\"X\",\"ts\":");
            push_micros(&mut out, s.start);
            out.push_str(",\"dur\":");
            push_micros(&mut out, s.end - s.start);
            out.push_str(",\"pid\":");
            push_u64(&mut out, pid as u64);
            out.push_str(",\"tid\":");
            push_u64(&mut out, tid as u64);
            out.push_str(",\"args\":");
            out.push_str(&self.args[s.args.0..s.args.1]);
            out.push('}');
        }
        for (id, &(a, b)) in self.flows.iter().enumerate() {
            for (ph, i) in [("s", a), ("f", b)] {
                let s = &self.spans[i];
                let (pid, tid) = tid(i);
                event_head(&mut out, "message", ph, pid, tid);
                out.push_str(",\"cat\":\"flow\",\"id\":");
                push_u64(&mut out, id as u64 + 1);
                out.push_str(",\"ts\":");
                push_micros(&mut out, s.start + (s.end - s.start) / 2);
                out.push_str(if ph == "f" { ",\"bp\":\"e\"}" } else { "}" });
            }
        }
        out.push_str("\n]}\n");
        out
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn microseconds_are_written_from_whole_nanoseconds() {
        let w = |t: f64| {
            let mut s = String::new();
            push_micros(&mut s, nanos(t).expect("finite"));
            s
        };
        assert_eq!(w(0.052), "52000");
        assert_eq!(w(1.5e-6), "1.5");
        assert_eq!(w(1e-9), "0.001");
        assert_eq!(w(1.23e-7), "0.123");
        assert_eq!(w(-2.25e-6), "-2.25");
        assert_eq!(w(0.0), "0");
        assert_eq!(nanos(f64::NAN), None);
        assert_eq!(nanos(f64::INFINITY), None);
    }

    #[test]
    fn overlapping_spans_of_one_kind_go_to_further_rows() {
        // rank 0 sends 0–2 µs and 1–3 µs (overlap: two send rows), then
        // 3–4 µs (follows the first), receives 0–5 µs; rank 1 nothing.
        let mut t = TraceWriter::new(&["send", "recv"]);
        let r0 = t.process("rank 0");
        t.process("rank \"1\"");
        let us = |a: f64, b: f64| (a * 1e-6, b * 1e-6);
        let a = t.span(
            r0,
            0,
            Name::Numbered("send → ", 1),
            "send",
            us(0.0, 2.0),
            &[],
        );
        t.span(r0, 0, Name::Text("second"), "send", us(1.0, 3.0), &[]);
        t.span(
            r0,
            0,
            Name::Text("third"),
            "send",
            us(3.0, 4.0),
            &[("bytes", Arg::Int(8))],
        );
        let b = t.span(r0, 1, Name::Owned("recv".into()), "recv", us(0.0, 5.0), &[]);
        assert_eq!(
            t.span(5, 0, Name::Text("x"), "send", us(0.0, 1.0), &[]),
            None
        );
        assert_eq!(
            t.span(r0, 0, Name::Text("x"), "send", (f64::NAN, 1.0), &[]),
            None
        );
        t.flow(a.expect("a span"), b.expect("a span"));
        t.other_text("alg", "ring");
        t.other("p", Arg::Int(2));
        let json = t.finish();
        let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        assert_eq!(v["otherData"]["alg"], "ring");
        assert_eq!(v["otherData"]["p"], 2);
        let ev = v["traceEvents"].as_array().expect("events");
        let x: Vec<_> = ev.iter().filter(|e| e["ph"] == "X").collect();
        assert_eq!(x.len(), 4);
        // rows: send (tid 1), send 2 (tid 2), recv (tid 3); no tid 0
        assert!(ev.iter().all(|e| e["tid"] != 0 && e["pid"] != 0));
        let tids: Vec<u64> = x.iter().filter_map(|e| e["tid"].as_u64()).collect();
        assert_eq!(tids, [1, 1 + 1, 1, 3]);
        assert!(x.iter().all(|e| e["pid"] == 1));
        assert_eq!(x[0]["name"], "send → 1");
        assert_eq!(x[2]["args"]["bytes"], 8);
        assert_eq!(
            (x[2]["ts"].as_f64(), x[2]["dur"].as_f64()),
            (Some(3.0), Some(1.0))
        );
        let names: Vec<(u64, u64, &str)> = ev
            .iter()
            .filter(|e| e["name"] == "thread_name" || e["name"] == "process_name")
            .map(|e| {
                let n = e["args"]["name"].as_str().unwrap_or("");
                (
                    e["pid"].as_u64().unwrap_or(0),
                    e["tid"].as_u64().unwrap_or(0),
                    n,
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                (1, 1, "rank 0"),
                (1, 1, "send"),
                (1, 2, "send 2"),
                (1, 3, "recv"),
                // a process without rows has a tid of its own
                (2, 4, "rank \"1\"")
            ]
        );
        // the flow: from the middle of the first send to the middle of the recv
        let flow: Vec<_> = ev.iter().filter(|e| e["cat"] == "flow").collect();
        assert_eq!(flow.len(), 2);
        assert_eq!(
            (flow[0]["ph"].as_str(), flow[0]["ts"].as_f64()),
            (Some("s"), Some(1.0))
        );
        assert_eq!(
            (flow[1]["ph"].as_str(), flow[1]["ts"].as_f64()),
            (Some("f"), Some(2.5))
        );
        assert_eq!(
            (flow[1]["tid"].as_u64(), flow[1]["bp"].as_str()),
            (Some(3), Some("e"))
        );
        assert_eq!(flow[0]["id"], flow[1]["id"]);
    }
}
