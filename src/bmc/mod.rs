//! The SMT-LIB2 back end: a bounded model checker for a sequential program
//! in seqc's IR. `goto.rs` flattens control flow, `regions.rs` splits
//! memory into regions, `symex.rs` executes the program symbolically into
//! SSA definitions with path guards, `term.rs` builds the terms. The
//! script is satisfiable exactly when an assertion can fail within the
//! bounds; a model is read back into a trace of the source.

pub mod goto;
pub mod symex;
pub mod term;

use crate::diag::Diagnostic;
use crate::ir::*;
use std::collections::HashMap;
use std::fmt::Write;
use term::T;

pub struct Options {
    pub unwind: u32,
    pub unwinding_assertions: bool,
    /// Integers as SMT `Int` (see `term.rs`), not bit-vectors.
    pub int: bool,
    /// For `(set-info :source ...)`: the input and options.
    pub source: String,
    /// Give up encoding past this instant (`check --timeout`).
    pub deadline: Option<std::time::Instant>,
    /// Give up when a portfolio no longer needs the answer.
    pub cancel: Option<crate::deadline::Cancel>,
}

/// The start of the message of an encoding that ran past its deadline or
/// size budget: `check` answers UNKNOWN for it, not an error.
pub const GAVE_UP: &str = "gave up encoding";

#[derive(Clone, Debug)]
pub struct Event {
    pub guard: T,
    pub loc: Loc,
    pub depth: u32,
    pub kind: EventKind,
    /// Lal-Reps: the round and thread slot the event happens in.
    pub ctx: Option<(T, T)>,
}

#[derive(Clone, Debug)]
pub enum EventKind {
    /// `lhs = value` (of the lvalue's type).
    Assign(String, Ty, T),
    Call(String),
    Return(String, Option<(Ty, T)>),
    /// Failure number `.0` is checked here.
    Assert(usize),
    /// A nondeterministic value the input drew (Lal-Reps only: the
    /// replay on the oracle forces these values).
    Nondet(T),
}

#[derive(Clone, Debug)]
pub struct Failure {
    pub cond: T,
    pub loc: Loc,
    pub kind: AssertKind,
    pub func: FuncId,
}

pub use crate::ir::{is_thread_op, thread_op};

/// What a script asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Can an assertion fail?
    Violation,
    /// Can a path reach a loop or recursion cut (`--unwinding-assertions`)?
    BoundTooSmall,
}

pub struct Encoding {
    logic: &'static str,
    source: String,
    defs: String,
    pub fails: Vec<Failure>,
    pub cuts: Vec<(T, Loc)>,
    pub events: Vec<Event>,
    pub declarations: usize,
}

/// Why a program has no encoding.
#[derive(Debug)]
pub enum EncodeError {
    /// The deadline passed, or the script outgrew its budget: no answer
    /// within the time (`check` says UNKNOWN).
    GaveUp(String),
    /// The program cannot be encoded (unsupported on the SMT route, or
    /// an input error).
    Refused(Diagnostic),
}

impl EncodeError {
    pub fn into_diagnostic(self) -> Diagnostic {
        match self {
            EncodeError::GaveUp(m) => Diagnostic::input(m),
            EncodeError::Refused(d) => d,
        }
    }
}

/// Encodes the program (`main` and what it calls).
pub fn encode(p: &Program, opts: &Options) -> Result<Encoding, EncodeError> {
    let err = |(m, loc): (String, Loc)| -> EncodeError {
        let mut d = Diagnostic::unsupported(format!("{m} (SMT route)"));
        if loc.line > 0 {
            d.pos = Some((p.file_name(loc.file).to_string(), loc.line, loc.col));
        }
        EncodeError::Refused(d)
    };
    if p.func_by_name("main")
        .is_none_or(|m| p.func(m).body.is_none())
    {
        return Err(EncodeError::Refused(Diagnostic::input(
            "the program has no main function",
        )));
    }
    let mode = term::IntMode::set(opts.int);
    // Type punning is found while encoding: a region whose accesses
    // disagree on a width, or a scalar pointer's region that reaches
    // struct memory. Each one found makes the encoding start again with
    // that region kept as bytes, or with the struct's fields merged into
    // the pointer's region (integer mode has no bytes: it refuses).
    // Likewise a region whose round copies started as cells (values at
    // constant addresses) and then met a computed address: the encoding
    // starts again with it kept as arrays.
    let mut byte_classes = std::collections::BTreeSet::new();
    let mut merges = std::collections::BTreeSet::new();
    let mut array_regions = std::collections::BTreeSet::new();
    let mut sx = loop {
        let mut regions = crate::ir::regions::Regions::analyse(p).map_err(err)?;
        regions.merge_poisoned(p, &merges);
        regions.byte_classes = byte_classes.clone();
        let mut sx = symex::Symex::new(p, regions, opts.unwind, opts.unwinding_assertions);
        sx.deadline = opts.deadline;
        sx.cancel = opts.cancel.clone();
        sx.array_regions = array_regions.clone();
        let res = sx.run();
        if !sx.gave_up && !sx.wants_arrays.is_subset(&array_regions) {
            array_regions.extend(std::mem::take(&mut sx.wants_arrays));
            continue;
        }
        match res {
            Ok(()) => break sx,
            Err((m, _)) if sx.gave_up => return Err(EncodeError::GaveUp(m)),
            Err(e) => match (sx.regions.wants_merge.take(), sx.regions.wants_bytes.take()) {
                (Some(k), _) if !merges.contains(&k) => {
                    merges.insert(k);
                }
                (_, Some(k)) if !opts.int && !byte_classes.contains(&k) => {
                    byte_classes.insert(k);
                }
                (_, Some(_)) if opts.int => {
                    let (m, loc) = e;
                    return Err(err((
                        format!("{m} in integer mode (--int); the bit-vector mode encodes it"),
                        loc,
                    )));
                }
                _ => return Err(err(e)),
            },
        }
    };
    if let Some(r) = sx.refused.take() {
        return Err(err(r));
    }
    if let Some(what) = mode.refused() {
        return Err(EncodeError::Refused(Diagnostic::unsupported(format!(
            "{what} in integer mode (--int); the bit-vector mode encodes it"
        ))));
    }
    let logic = match (opts.int, sx.uses_arrays, mode.nonlinear()) {
        // z3 4.16 knows no QF_ABVFP: ALL is what all three accept.
        (false, true, _) if sx.uses_fp => "ALL",
        (false, false, _) if sx.uses_fp => "QF_BVFP",
        (false, true, _) => "QF_ABV",
        (false, false, _) => "QF_BV",
        (true, true, false) => "QF_AUFLIA",
        (true, true, true) => "QF_AUFNIA",
        (true, false, false) => "QF_LIA",
        (true, false, true) => "QF_NIA",
    };
    let declarations = sx.out.lines().count();
    Ok(Encoding {
        logic,
        // A quoted symbol cannot hold `|`, `\\` or control characters
        // other than white space.
        source: opts
            .source
            .chars()
            .map(|c| match c {
                '|' | '\\' => '/',
                '\t' | '\n' | '\r' => c,
                c if c.is_control() => '?',
                c => c,
            })
            .collect(),
        defs: std::mem::take(&mut sx.out),
        fails: sx.fails,
        cuts: sx.cuts,
        events: sx.events,
        declarations,
    })
}

impl Encoding {
    fn goal_terms(&self, goal: Goal) -> Vec<&T> {
        match goal {
            Goal::Violation => self.fails.iter().map(|f| &f.cond).collect(),
            Goal::BoundTooSmall => self.cuts.iter().map(|c| &c.0).collect(),
        }
    }

    /// The terms whose values make a trace, in order (no constants).
    pub fn model_terms(&self, goal: Goal) -> Vec<String> {
        let mut seen = HashMap::new();
        let mut out = Vec::new();
        let mut add = |t: &T| {
            if !t.is_const() {
                let s = t.text();
                if !seen.contains_key(&s) {
                    seen.insert(s.clone(), ());
                    out.push(s);
                }
            }
        };
        for t in self.goal_terms(goal) {
            add(t);
        }
        for e in &self.events {
            add(&e.guard);
            match &e.kind {
                EventKind::Assign(_, _, v)
                | EventKind::Return(_, Some((_, v)))
                | EventKind::Nondet(v) => add(v),
                _ => {}
            }
            if let Some((r, t)) = &e.ctx {
                add(r);
                add(t);
            }
        }
        out
    }

    /// The whole script. `status` only when known; `model` asks for the
    /// values of `model_terms` after `(check-sat)`.
    pub fn script(&self, goal: Goal, status: Option<bool>, model: bool) -> String {
        let mut s = String::new();
        if model {
            s.push_str("(set-option :produce-models true)\n");
        }
        s.push_str("(set-info :smt-lib-version 2.6)\n");
        let _ = writeln!(s, "(set-logic {})", self.logic);
        let _ = writeln!(s, "(set-info :source |{}|)", self.source);
        if let Some(st) = status {
            let _ = writeln!(s, "(set-info :status {})", if st { "sat" } else { "unsat" });
        }
        s.push_str(&self.defs);
        let goals = self.goal_terms(goal);
        let mut g = T::B(false);
        for t in goals {
            g = term::or(&g, t);
        }
        let _ = writeln!(s, "(assert {})", g.text());
        s.push_str("(check-sat)\n");
        if model {
            let terms = self.model_terms(goal);
            if !terms.is_empty() {
                let _ = writeln!(s, "(get-value ({}))", terms.join(" "));
            }
        }
        s.push_str("(exit)\n");
        s
    }

    /// Reads a model (values in `model_terms` order) back into the path
    /// through the source, ending at the first failing assertion.
    pub fn trace(&self, p: &Program, goal: Goal, values: &[String]) -> Vec<Step> {
        let terms = self.model_terms(goal);
        let val: HashMap<&str, &str> = terms
            .iter()
            .map(String::as_str)
            .zip(values.iter().map(String::as_str))
            .collect();
        let truth = |t: &T| -> bool {
            match t {
                T::B(b) => *b,
                _ => val.get(t.text().as_str()).is_some_and(|v| *v == "true"),
            }
        };
        let num = |t: &T| -> Option<(u128, u32)> {
            match t {
                T::V(v, w) => Some((*v, *w)),
                _ => {
                    let s = val.get(t.text().as_str())?;
                    parse_bv(s).or_else(|| Some((s.trim().parse().ok()?, t.width())))
                }
            }
        };
        let step = |loc: Loc, depth: u32, what: TraceWhat, ctx: Option<(u32, u32)>| Step {
            file: p.file_name(loc.file).to_string(),
            line: loc.line,
            col: loc.col,
            depth,
            what,
            ctx,
        };
        let mut out = Vec::new();
        for e in &self.events {
            if !truth(&e.guard) {
                continue;
            }
            let ctx = e
                .ctx
                .as_ref()
                .and_then(|(r, t)| Some((num(r)?.0 as u32, num(t)?.0 as u32)));
            let what = match &e.kind {
                EventKind::Nondet(v) => match num(v) {
                    Some((x, w)) => TraceWhat::Nondet(term::signed(x, w)),
                    None => continue,
                },
                EventKind::Assign(lhs, ty, v) => TraceWhat::Assign(
                    lhs.clone(),
                    num(v).map(|(x, w)| value(ty, x, w)).unwrap_or(TraceValue {
                        shown: "?".into(),
                        int: None,
                    }),
                ),
                EventKind::Call(f) => TraceWhat::Call(f.clone()),
                EventKind::Return(f, v) => TraceWhat::Return(
                    f.clone(),
                    v.as_ref()
                        .and_then(|(ty, t)| num(t).map(|(x, w)| value(ty, x, w))),
                ),
                EventKind::Assert(i) => {
                    let f = &self.fails[*i];
                    if goal == Goal::Violation && truth(&f.cond) {
                        out.push(step(e.loc, e.depth, TraceWhat::Fail(f.kind), ctx));
                        break;
                    }
                    continue;
                }
            };
            out.push(step(e.loc, e.depth, what, ctx));
        }
        if goal == Goal::BoundTooSmall
            && let Some((_, loc)) = self.cuts.iter().find(|c| truth(&c.0))
        {
            out.push(step(*loc, 0, TraceWhat::Cut, None));
        }
        out
    }
}

pub use crate::ir::trace::{Step, TraceValue, TraceWhat};

/// `#x..`, `#b..`, `(_ bvN W)`.
pub fn parse_bv(s: &str) -> Option<(u128, u32)> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("#x") {
        return Some((u128::from_str_radix(h, 16).ok()?, 4 * h.len() as u32));
    }
    if let Some(b) = s.strip_prefix("#b") {
        return Some((u128::from_str_radix(b, 2).ok()?, b.len() as u32));
    }
    let inner = s.strip_prefix("(_ bv")?.strip_suffix(')')?;
    let (v, w) = inner.split_once(' ')?;
    Some((v.parse().ok()?, w.trim().parse().ok()?))
}

/// A model's value of type `ty`: as C prints it, and its integer.
pub fn value(ty: &Ty, v: u128, w: u32) -> TraceValue {
    let int = if ty.is_signed() && w > 0 && w <= 128 {
        let sh = 128 - w;
        ((v << sh) as i128) >> sh
    } else {
        v as i128
    };
    TraceValue {
        shown: show(ty, v, w),
        int: Some(int),
    }
}

/// A value as C would print it for its type.
pub fn show(ty: &Ty, v: u128, w: u32) -> String {
    match (ty.unqual(), w) {
        (Ty::Float(_), 32) => {
            return crate::ir::trace::float_text(f32::from_bits(v as u32));
        }
        (Ty::Float(_), 64) => return crate::ir::trace::float_text(f64::from_bits(v as u64)),
        _ => {}
    }
    if ty.is_pointer() {
        return if v == 0 {
            "NULL".into()
        } else {
            format!("0x{v:x}")
        };
    }
    if ty.is_signed() && w > 0 {
        let sh = 128 - w;
        return (((v << sh) as i128) >> sh).to_string();
    }
    v.to_string()
}

/// C text of an lvalue or simple expression, for traces.
pub fn expr_text(p: &Program, f: FuncId, e: &Expr) -> String {
    let sub = |x: &Expr| expr_text(p, f, x);
    match &e.kind {
        ExprKind::Local(v) => p
            .functions
            .get(f.index())
            .map(|fun| fun.local(*v).name.clone())
            .unwrap_or_else(|| format!("v{}", v.0)),
        ExprKind::Global(g) => p.global(*g).name.clone(),
        ExprKind::Func(x) => p.func(*x).name.clone(),
        ExprKind::Int(v) => v.to_string(),
        ExprKind::Member(b, i) => {
            let name = match b.ty.unqual() {
                Ty::Comp(c) => p.comp(*c).fields[*i as usize].name.clone(),
                _ => "?".into(),
            };
            match &b.kind {
                ExprKind::Deref(q) => format!("{}->{name}", sub(q)),
                _ => format!("{}.{name}", sub(b)),
            }
        }
        ExprKind::Index(a, i) => format!("{}[{}]", sub(a), sub(i)),
        ExprKind::Deref(q) => match &q.kind {
            ExprKind::Binary(BinOp::PtrAdd, a, i) => format!("{}[{}]", atom(p, f, a), sub(i)),
            _ => format!("*{}", atom(p, f, q)),
        },
        ExprKind::AddrOf(x) => format!("&{}", atom(p, f, x)),
        ExprKind::Decay(x) | ExprKind::Cast(x) => sub(x),
        ExprKind::Binary(op, a, b) => format!("{} {} {}", atom(p, f, a), op.c_op(), atom(p, f, b)),
        _ => "(expression)".into(),
    }
}

fn atom(p: &Program, f: FuncId, e: &Expr) -> String {
    let s = expr_text(p, f, e);
    if matches!(e.kind, ExprKind::Binary(..)) {
        format!("({s})")
    } else {
        s
    }
}
