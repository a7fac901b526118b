//! A reader of the pickle subset that PyTorch's Flight Recorder writes
//! (`torch._C._distributed_c10d._dump_fr_trace`, the default dump of
//! `TORCH_FR_DUMP_TEMP_FILE`): dictionaries, lists, tuples, texts, whole
//! numbers, floats, booleans and `None`, at protocols 2 to 5.
//!
//! The opcodes and their argument layouts are those of CPython's
//! `Lib/pickletools.py` (the reference table of the format). Every opcode
//! that names a Python class or calls one (`GLOBAL`, `STACK_GLOBAL`,
//! `REDUCE`, `BUILD`, `NEWOBJ`, `INST`, `OBJ`, persistent ids, …) is
//! refused with its name: a dump never needs one, and a reader that obeys
//! them would run whatever the file names. Protocol 0/1 text opcodes are
//! refused too (PyTorch writes protocol 2 or later).
//!
//! Seen in real dumps (PyTorch 2.15, gloo, format 2.10): `PROTO`, `MARK`,
//! `EMPTY_DICT`, `SETITEMS`, `EMPTY_LIST`, `APPENDS`, `BINUNICODE`,
//! `BININT`, `BININT1`, `BININT2`, `LONG1`, `NONE`, `NEWTRUE`,
//! `NEWFALSE`, `TUPLE2`, `BINPUT`, `BINGET`, `STOP`.

use std::fmt;

use super::value::Value;

/// Largest file read, bytes (a dump of 2,000 entries with stacks is a few MB).
pub const MAX_PICKLE: usize = 64 * 1024 * 1024;
/// Deepest nesting of containers accepted.
const MAX_DEPTH: usize = 64;

/// Why bytes are not a readable pickle.
#[derive(Clone, Debug, PartialEq)]
pub enum PickleError {
    /// The file is empty.
    Empty,
    /// It does not start with a protocol 2–5 header (`0x80` then 2–5).
    NotPickle,
    /// Larger than [`MAX_PICKLE`].
    TooLarge(usize),
    /// The bytes end before `STOP` (a truncated file).
    Truncated,
    /// An opcode outside the subset, at a byte offset.
    Refused {
        /// The opcode byte.
        opcode: u8,
        /// Its name in CPython's `pickletools`.
        name: &'static str,
        /// Its byte offset in the file.
        at: usize,
    },
    /// A malformed stream (stack underflow, a bad memo index, bad UTF-8, an
    /// integer over 64 bits, nesting deeper than 64), at a byte offset.
    Malformed {
        /// What was wrong, in words.
        what: &'static str,
        /// The byte offset where it was found.
        at: usize,
    },
}

impl fmt::Display for PickleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PickleError::Empty => write!(f, "the file is empty"),
            PickleError::NotPickle => write!(
                f,
                "not a pickle of protocol 2 to 5 (a Flight Recorder dump starts with byte 0x80), nor JSON"
            ),
            PickleError::TooLarge(n) => write!(
                f,
                "{n} bytes is larger than the {} MB this page reads",
                MAX_PICKLE / (1024 * 1024)
            ),
            PickleError::Truncated => write!(f, "the pickle ends before its STOP opcode: the file is truncated"),
            PickleError::Refused { opcode, name, at } => write!(
                f,
                "opcode {name} (0x{opcode:02x}) at byte {at} is not one a Flight Recorder dump uses; \
                 it would build a Python object, so the page does not read it"
            ),
            PickleError::Malformed { what, at } => write!(f, "malformed pickle at byte {at}: {what}"),
        }
    }
}

/// The name of an opcode this reader refuses (pickletools' names).
fn refused_name(op: u8) -> &'static str {
    match op {
        b'c' => "GLOBAL",
        0x93 => "STACK_GLOBAL",
        b'R' => "REDUCE",
        b'b' => "BUILD",
        0x81 => "NEWOBJ",
        0x92 => "NEWOBJ_EX",
        b'i' => "INST",
        b'o' => "OBJ",
        b'P' | b'Q' => "PERSID",
        0x82..=0x84 => "EXT",
        0x96..=0x98 => "BYTEARRAY/BUFFER",
        b'I' | b'L' | b'F' | b'S' | b'V' | b'p' | b'g' | b'l' | b'd' => "a protocol 0 text opcode",
        _ => "unknown",
    }
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], PickleError> {
        let end = self.at.checked_add(n).ok_or(PickleError::Truncated)?;
        let s = self.b.get(self.at..end).ok_or(PickleError::Truncated)?;
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, PickleError> {
        Ok(self.take(1)?[0])
    }
    fn le(&mut self, n: usize) -> Result<u64, PickleError> {
        Ok(self
            .take(n)?
            .iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
    }
}

/// A value in the reader's arena: containers hold arena indices, so a
/// container referenced twice through the memo (PyTorch's dumps share
/// e.g. one dtype list between entries) is one node, filled once.
enum Node {
    Leaf(Value),
    List(Vec<usize>),
    Dict(Vec<(usize, usize)>),
}

enum Slot {
    Mark,
    V(usize),
}

/// Most values built from the arena (a guard against shared references
/// that multiply a small file into a huge tree).
const MAX_NODES: usize = 20_000_000;

fn build(
    arena: &[Node],
    i: usize,
    depth: usize,
    budget: &mut usize,
) -> Result<Value, &'static str> {
    if depth > MAX_DEPTH {
        return Err("nesting deeper than 64 (or a container that holds itself)");
    }
    *budget = budget
        .checked_sub(1)
        .ok_or("shared references that expand past 20 million values")?;
    Ok(match &arena[i] {
        Node::Leaf(v) => v.clone(),
        Node::List(l) => Value::List(
            l.iter()
                .map(|&j| build(arena, j, depth + 1, budget))
                .collect::<Result<_, _>>()?,
        ),
        Node::Dict(d) => Value::Dict(
            d.iter()
                .map(|&(k, v)| {
                    Ok((
                        build(arena, k, depth + 1, budget)?,
                        build(arena, v, depth + 1, budget)?,
                    ))
                })
                .collect::<Result<_, &'static str>>()?,
        ),
    })
}

/// LONG1 (`0x8a`, a 1-byte length) or LONG4 (`0x8b`, a 4-byte length):
/// a little-endian two's-complement integer of that many bytes, at most 8.
fn read_long(r: &mut Reader<'_>, op: u8, at: usize) -> Result<i64, PickleError> {
    let n = if op == 0x8a {
        usize::from(r.u8()?)
    } else {
        r.le(4)? as usize
    };
    if n > 8 {
        return Err(PickleError::Malformed {
            what: "an integer over 64 bits",
            at,
        });
    }
    let raw = r.le(n)?;
    Ok(if n == 0 {
        0
    } else if n == 8 {
        raw as i64
    } else {
        let shift = 64 - 8 * n as u32;
        ((raw << shift) as i64) >> shift
    })
}

/// The tuple and container opcodes: TUPLE1-3 (`0x85`-`0x87`) and TUPLE
/// (`t`) build a list of their items; APPEND (`a`), APPENDS (`e`), SETITEM
/// (`s`) and SETITEMS (`u`) add them to the container below.
fn collect_items(
    arena: &mut Vec<Node>,
    stack: &mut Vec<Slot>,
    op: u8,
    at: usize,
) -> Result<(), PickleError> {
    let bad = |what| PickleError::Malformed { what, at };
    // The items: the top n (TUPLE1-3, APPEND, SETITEM) or all above the
    // last mark (TUPLE, APPENDS, SETITEMS).
    let from = match op {
        0x85..=0x87 => stack.len().checked_sub(usize::from(op - 0x84)),
        b'a' => stack.len().checked_sub(1),
        b's' => stack.len().checked_sub(2),
        _ => stack
            .iter()
            .rposition(|s| matches!(s, Slot::Mark))
            .map(|m| m + 1),
    }
    .ok_or(bad("too few items on the stack (or no mark)"))?;
    let mut items = Vec::with_capacity(stack.len() - from);
    for s in stack.split_off(from) {
        match s {
            Slot::V(i) => items.push(i),
            Slot::Mark => return Err(bad("a mark among a container's items")),
        }
    }
    if matches!(op, b't' | b'e' | b'u') {
        stack.pop(); // the mark
    }
    if matches!(op, 0x85..=0x87 | b't') {
        arena.push(Node::List(items));
        stack.push(Slot::V(arena.len() - 1));
        return Ok(());
    }
    let Some(Slot::V(c)) = stack.last() else {
        return Err(bad("no container to add to"));
    };
    match (&mut arena[*c], op) {
        (Node::List(l), b'e' | b'a') => l.extend(items),
        (Node::Dict(d), b'u' | b's') if items.len() % 2 == 0 => {
            d.extend(items.chunks(2).map(|p| (p[0], p[1])));
        }
        _ => return Err(bad("items added to the wrong kind of container")),
    }
    Ok(())
}

/// Reads one pickled value.
///
/// # Errors
/// A [`PickleError`] naming what stopped the read and where.
pub fn read_pickle(bytes: &[u8]) -> Result<Value, PickleError> {
    if bytes.is_empty() {
        return Err(PickleError::Empty);
    }
    if bytes.len() > MAX_PICKLE {
        return Err(PickleError::TooLarge(bytes.len()));
    }
    if bytes.len() < 2 || bytes[0] != 0x80 || !(2..=5).contains(&bytes[1]) {
        return Err(PickleError::NotPickle);
    }
    let mut r = Reader { b: bytes, at: 2 };
    let mut arena: Vec<Node> = Vec::new();
    let mut stack: Vec<Slot> = Vec::new();
    let mut memo: Vec<Option<usize>> = Vec::new();
    let bad = |what, at| PickleError::Malformed { what, at };
    macro_rules! push {
        ($n:expr) => {{
            arena.push($n);
            stack.push(Slot::V(arena.len() - 1));
        }};
    }
    loop {
        let at = r.at;
        let op = r.u8()?;
        match op {
            b'.' => {
                let Some(Slot::V(top)) = stack.pop() else {
                    return Err(bad("STOP with no value", at));
                };
                let mut budget = MAX_NODES;
                return build(&arena, top, 0, &mut budget).map_err(|w| bad(w, at));
            }
            0x95 => {
                r.take(8)?; // FRAME: its length only.
            }
            b'(' => stack.push(Slot::Mark),
            b'}' => push!(Node::Dict(Vec::new())),
            b']' | b')' => push!(Node::List(Vec::new())),
            b'N' => push!(Node::Leaf(Value::Null)),
            0x88 => push!(Node::Leaf(Value::Bool(true))),
            0x89 => push!(Node::Leaf(Value::Bool(false))),
            b'J' => {
                let v = r.le(4)? as u32 as i32;
                push!(Node::Leaf(Value::Int(i64::from(v))));
            }
            b'K' => {
                let v = r.u8()?;
                push!(Node::Leaf(Value::Int(i64::from(v))));
            }
            b'M' => {
                let v = r.le(2)? as i64;
                push!(Node::Leaf(Value::Int(v)));
            }
            0x8a | 0x8b => {
                let v = read_long(&mut r, op, at)?;
                push!(Node::Leaf(Value::Int(v)));
            }
            b'G' => {
                let s = r.take(8)?;
                let mut a = [0u8; 8];
                a.copy_from_slice(s);
                push!(Node::Leaf(Value::Float(f64::from_be_bytes(a))));
            }
            b'X' | 0x8c | 0x8d | b'C' | b'B' | 0x8e => {
                let n = match op {
                    0x8c | b'C' => usize::from(r.u8()?),
                    0x8d | 0x8e => r.le(8)? as usize,
                    _ => r.le(4)? as usize,
                };
                let s = r.take(n)?;
                let text = if matches!(op, b'C' | b'B' | 0x8e) {
                    String::from_utf8_lossy(s).into_owned()
                } else {
                    String::from_utf8(s.to_vec())
                        .map_err(|_| bad("a text that is not UTF-8", at))?
                };
                push!(Node::Leaf(Value::Str(text)));
            }
            0x85..=0x87 | b't' | b'e' | b'u' | b'a' | b's' => {
                collect_items(&mut arena, &mut stack, op, at)?;
            }
            b'q' | b'r' | 0x94 => {
                let i = match op {
                    b'q' => usize::from(r.u8()?),
                    b'r' => r.le(4)? as usize,
                    _ => memo.len(),
                };
                let Some(Slot::V(top)) = stack.last() else {
                    return Err(bad("a memo store of no value", at));
                };
                if i > 10_000_000 {
                    return Err(bad("a memo index over 10 million", at));
                }
                if memo.len() <= i {
                    memo.resize(i + 1, None);
                }
                memo[i] = Some(*top);
            }
            b'h' | b'j' => {
                let i = if op == b'h' {
                    usize::from(r.u8()?)
                } else {
                    r.le(4)? as usize
                };
                let v = memo
                    .get(i)
                    .copied()
                    .flatten()
                    .ok_or(bad("a memo index never stored", at))?;
                stack.push(Slot::V(v));
            }
            b'0' => {
                stack.pop().ok_or(bad("POP on an empty stack", at))?;
            }
            _ => {
                return Err(PickleError::Refused {
                    opcode: op,
                    name: refused_name(op),
                    at,
                });
            }
        }
    }
}
