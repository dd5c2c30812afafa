//! One trace type for every back end: the SMT model reader and the CBMC
//! trace reader both make it; the replay on the oracle and the rendering
//! read it. Values are typed: an integer is read once, where the back end
//! gives it (bits of a model, CBMC's binary), never parsed back from text.

use super::AssertKind;

/// The verdict words of every report (`check`, `refine`, `explore`; the
/// verdict line and JSON alike), so that scripts read one vocabulary.
pub mod verdict {
    pub const SUCCESSFUL: &str = "SUCCESSFUL";
    pub const FAILED: &str = "FAILED";
    pub const UNKNOWN: &str = "UNKNOWN";
    /// A bound was too small to say (`--unwinding-assertions`).
    pub const INCONCLUSIVE: &str = "INCONCLUSIVE";
}

/// A value in a trace: as C would print it, and as an integer when it is
/// one (pointers too: their address).
#[derive(Clone, Debug, PartialEq)]
pub struct TraceValue {
    pub shown: String,
    pub int: Option<i128>,
}

impl TraceValue {
    pub fn int(v: i128) -> TraceValue {
        TraceValue {
            shown: v.to_string(),
            int: Some(v),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum TraceWhat {
    Assign(String, TraceValue),
    Call(String),
    Return(String, Option<TraceValue>),
    Fail(AssertKind),
    /// A loop or recursion bound cut this path.
    Cut,
    /// The input drew this nondeterministic value.
    Nondet(i128),
}

/// One step of a back end's counterexample, located in the input.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub depth: u32,
    pub what: TraceWhat,
    /// A sequentialization's (round, thread slot) of the step.
    pub ctx: Option<(u32, u32)>,
}

/// A floating value as a trace shows it: plain where that is short,
/// else in exponent form (a subnormal would print hundreds of digits). A
/// `float` keeps its own shortest digits (0.1, not 0.10000000149011612).
pub fn float_text<T>(v: T) -> String
where
    T: Copy + std::fmt::Display + std::fmt::LowerExp + Into<f64>,
{
    let a = v.into().abs();
    if a != 0.0 && a.is_finite() && !(1e-4..1e16).contains(&a) {
        format!("{v:e}")
    } else {
        v.to_string()
    }
}
