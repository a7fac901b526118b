//! The values a Flight Recorder dump holds, whichever form it came in: the
//! pickle PyTorch writes by default ([`super::pickle`]) and the JSON form
//! (`_dump_fr_trace_json`, read by the browser's `JSON.parse` in the app
//! or by a test's JSON reader) both become a [`Value`].

/// A dump's value: what the pickle subset and JSON share.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `None` / `null`.
    Null,
    /// `True` / `False`.
    Bool(bool),
    /// A whole number (pickle's ints and longs up to 64 bits).
    Int(i64),
    /// A float.
    Float(f64),
    /// A text.
    Str(String),
    /// A list or a tuple, in order.
    List(Vec<Value>),
    /// A dictionary, in the order written (keys are texts in a dump).
    Dict(Vec<(Value, Value)>),
}

impl Value {
    /// The value under text key `key` of a dictionary.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Dict(kv) => kv
                .iter()
                .find(|(k, _)| matches!(k, Value::Str(s) if s == key))
                .map(|(_, v)| v),
            _ => None,
        }
    }

    /// The text, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A whole number, or a text or float holding one (the JSON form
    /// writes `pg_status` numbers as texts).
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(*f as i64),
            Value::Str(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// The items of a list or tuple.
    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(v) => Some(v),
            _ => None,
        }
    }

    /// The pairs of a dictionary.
    pub fn as_dict(&self) -> Option<&[(Value, Value)]> {
        match self {
            Value::Dict(kv) => Some(kv),
            _ => None,
        }
    }
}
