//! Counted loops that create threads: `for (i = c; i < N; i++)` around
//! `pthread_create`, which real programs run thousands of times.
//!
//! Such a loop is not cut by `--unwind`: it may run its whole trip count
//! (`StmtKind::Loop::trips`). The iterations past the thread bound create
//! threads that never run before the end of the bounded run (a real
//! prefix of a real execution: the threads exist but were not scheduled
//! yet), so the creator gets past the loop to the code that follows, such
//! as an assertion before the joins. Running a loop further than the
//! unwinding bound only adds real runs, so no cut is needed for
//! soundness; the trip count is what keeps the run finite.
//!
//! The loop is marked on the lowered program, before any pass, so that
//! the oracle (which runs the lowered program) and every pass and back
//! end read the same mark. What makes the trip count certain: the counter
//! `i` is an integer local of at least 32 bits whose address is never
//! taken, set to a constant `c >= 0` by the statement right before the
//! loop, tested first thing in the body against a constant (`i < N`,
//! `i <= N`, `i != N`), increased by one in the latch, and written
//! nowhere else; every value from `c` to `N` fits every type involved;
//! and no jump enters the loop (no label or `case` of an outer switch in
//! it), which would skip the counter's start.

use super::access::escaping_in;
use super::build::{const_of, strip_cast};
use super::*;

/// Loops longer than this keep the unwinding bound.
pub const MAX_TRIPS: u32 = 1 << 16;

/// The iterations a loop may run: its trip count when it is counted,
/// else the unwinding bound.
pub fn limit(trips: Option<u32>, unwind: u32) -> u32 {
    trips.map_or(unwind, |n| n.max(unwind))
}

/// Marks the counted loops that create threads in every function.
pub fn mark(p: &mut Program) {
    let dm = p.data_model;
    for f in &mut p.functions {
        let Some(mut body) = f.body.take() else {
            continue;
        };
        let escaping = escaping_in(&body);
        let cx = Cx {
            locals: &f.locals,
            escaping: &escaping,
            dm,
        };
        cx.block(&mut body);
        f.body = Some(body);
    }
}

struct Cx<'a> {
    locals: &'a [Local],
    escaping: &'a std::collections::HashSet<LocalId>,
    dm: DataModel,
}

impl Cx<'_> {
    fn block(&self, b: &mut Block) {
        for j in 0..b.0.len() {
            let prev = if j == 0 { None } else { init_of(&b.0[j - 1]) };
            let s = &mut b.0[j];
            match &mut s.kind {
                StmtKind::Loop { body, latch, trips } => {
                    if let Some((v, c)) = prev {
                        *trips = self.trips(v, c, body, latch);
                    }
                    self.block(body);
                    self.block(latch);
                }
                StmtKind::If(_, a, e) => {
                    self.block(a);
                    self.block(e);
                }
                StmtKind::Switch(_, b) | StmtKind::Block(b) => self.block(b),
                _ => {}
            }
        }
    }

    /// Whether a local of this type holds every value up to `MAX_TRIPS`
    /// and beyond without wrapping.
    fn wide(&self, ty: &Ty) -> bool {
        ty.is_integer() && ty.int_bits(self.dm).is_some_and(|b| b >= 32)
    }

    /// `e` is the counter, through widening casts at most.
    fn is_counter(&self, e: &Expr, v: LocalId) -> bool {
        match &e.kind {
            ExprKind::Local(x) => *x == v,
            ExprKind::Cast(a) => self.wide(&e.ty) && self.is_counter(a, v),
            _ => false,
        }
    }

    fn trips(&self, v: LocalId, c: i128, body: &Block, latch: &Block) -> Option<u32> {
        let ty = &self.locals.get(v.index())?.ty;
        if !self.wide(ty) || self.escaping.contains(&v) || !(0..=MAX_TRIPS as i128).contains(&c) {
            return None;
        }
        // The exit test: `if (!(i < N)) break;` first in the body.
        let first = body.0.first()?;
        let StmtKind::If(nc, t, e) = &first.kind else {
            return None;
        };
        if !e.0.is_empty() || t.0.len() != 1 || t.0[0].kind != StmtKind::Break {
            return None;
        }
        let ExprKind::Unary(UnOp::LogNot, cond) = &strip_cast(nc).kind else {
            return None;
        };
        let ExprKind::Binary(op, a, n) = &strip_cast(cond).kind else {
            return None;
        };
        if !self.is_counter(a, v) || !self.wide(&n.ty) {
            return None;
        }
        let n = const_of(n)?;
        let count = match op {
            BinOp::Lt => n - c,
            BinOp::Le => n - c + 1,
            BinOp::Ne if n >= c => n - c,
            _ => return None,
        };
        if !(1..=MAX_TRIPS as i128).contains(&count) || n > MAX_TRIPS as i128 * 2 {
            return None;
        }
        // The latch: `i = i + 1` and nothing else.
        let [step] = latch.0.as_slice() else {
            return None;
        };
        let StmtKind::Assign(lhs, rhs) = &step.kind else {
            return None;
        };
        let ExprKind::Binary(BinOp::Add, x, one) = &strip_cast(rhs).kind else {
            return None;
        };
        if lhs.kind != ExprKind::Local(v) || !self.is_counter(x, v) || const_of(one) != Some(1) {
            return None;
        }
        // The body creates a thread and never writes the counter.
        let mut creates = false;
        let mut writes = false;
        body.walk(&mut |s| match &s.kind {
            StmtKind::Op {
                op: Op::ThreadCreate,
                dest,
                ..
            } => {
                creates = true;
                writes |= dest.as_ref().is_some_and(|d| base_is(d, v));
            }
            StmtKind::Op { dest: Some(d), .. } | StmtKind::Call { dest: Some(d), .. } => {
                writes |= base_is(d, v)
            }
            StmtKind::Assign(d, _) => writes |= base_is(d, v),
            StmtKind::Decl(x, _) => writes |= *x == v,
            _ => {}
        });
        (creates && !writes && !entered(body) && !entered(latch)).then_some(count as u32)
    }
}

/// Whether a jump may enter the block from outside (past the counter's
/// start): a label in it, or a `case` of an enclosing switch (Duff's
/// device). A switch nested inside keeps its own cases.
fn entered(b: &Block) -> bool {
    b.0.iter().any(entered_at)
}

fn entered_at(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Label(_) | StmtKind::Case(_) => true,
        StmtKind::If(_, a, e) => entered(a) || entered(e),
        StmtKind::Loop { body, latch, .. } => entered(body) || entered(latch),
        StmtKind::Block(a) => entered(a),
        StmtKind::Switch(_, a) => {
            a.0.iter()
                .any(|s| !matches!(s.kind, StmtKind::Case(_)) && entered_at(s))
        }
        _ => false,
    }
}

/// `i = c` or `int i = c` with a constant `c`.
fn init_of(s: &Stmt) -> Option<(LocalId, i128)> {
    match &s.kind {
        StmtKind::Decl(v, Some(Init::Expr(e))) => Some((*v, const_of(e)?)),
        StmtKind::Assign(lhs, e) => match lhs.kind {
            ExprKind::Local(v) => Some((v, const_of(e)?)),
            _ => None,
        },
        _ => None,
    }
}

fn base_is(e: &Expr, v: LocalId) -> bool {
    match &e.kind {
        ExprKind::Local(x) => *x == v,
        ExprKind::Member(b, _) | ExprKind::Index(b, _) => base_is(b, v),
        _ => false,
    }
}

/// The C label of a function's `k`-th counted loop (in statement order)
/// that runs at most `trips` times.
pub fn label(k: u32, trips: u32) -> String {
    format!("__seqc_loop{k}_{trips}")
}

/// Every counted loop of the program as (function, label, trips), in the
/// order the C back end labels them.
pub fn labels(p: &Program) -> Vec<(FuncId, String, u32)> {
    let mut out = Vec::new();
    for (fi, f) in p.functions.iter().enumerate() {
        let Some(body) = &f.body else { continue };
        let mut k = 0;
        body.walk(&mut |s| {
            if let StmtKind::Loop { trips: Some(n), .. } = s.kind {
                out.push((FuncId(fi as u32), label(k, n), n));
                k += 1;
            }
        });
    }
    out
}
