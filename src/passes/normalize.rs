//! Normalisation into visible steps (DESIGN.md §2).
//!
//! Pre: lowered IR (expressions side-effect free).
//! Post: every statement outside atomic code makes at most one visible
//! access: one read or one write of shared memory. Shared memory is every
//! global that is not thread-local, everything reached through a pointer,
//! and every local whose address is taken (computed here, per function).
//! `x = y + 1` with both shared becomes `t = y; x = t + 1`; `x++` was
//! lowered to `x = x + 1` and becomes `t = x; x = t + 1` (the lost update
//! lives between the two). Operations (`Op`) are visible by themselves, so
//! shared reads in their arguments are hoisted before them, except the
//! address argument of atomic operations, which is one step with the op.
//! Reads under `&&`, `||` and `?:` stay conditional: such an expression is
//! expanded into `if` statements before its reads are hoisted, so a guarded
//! `p && p->x` never reads through a null `p`.
//! Bodies of `__VERIFIER_atomic_*` functions and code between
//! `__VERIFIER_atomic_begin/end` in one block are one step: left alone.
//!
//! With `overflow` (`--property overflow`), an expression that holds an
//! operation `passes::overflow` checks is split whenever it reads shared
//! memory or draws a nondeterministic value, and the checks are placed
//! before each statement made (`passes::overflow` states why).

use crate::ir::access::{Shared, escaping_locals};
use crate::ir::*;
use crate::passes::overflow;
use std::collections::HashSet;

/// `overflow`: also place the checks of `--property overflow`.
pub fn normalize(mut p: Program, overflow: bool) -> Program {
    let globals: Vec<bool> = p.globals.iter().map(|g| !g.thread_local).collect();
    let checks = overflow.then_some(p.data_model);
    // Functions are rewritten independently (on threads when there are
    // many).
    crate::par::each_mut(&mut p.functions, |f| function(f, &globals, checks));
    p
}

fn function(f: &mut Function, globals: &[bool], checks: Option<DataModel>) {
    if f.body.is_none() {
        return;
    }
    if f.atomic {
        if let Some(dm) = checks {
            let body = f.body.take().unwrap();
            f.body = Some(Block(overflow::instrument(body.0, dm)));
        }
        return;
    }
    let escaping = escaping_locals(f);
    let body = f.body.take().unwrap();
    let mut n = Normalizer {
        shared_globals: globals,
        escaping: &escaping,
        locals: &mut f.locals,
        temps: 0,
        checks,
    };
    f.body = Some(n.block(body));
}

/// An empty function, to take a function out of the program while it
/// is rewritten.
pub(crate) fn placeholder() -> Function {
    Function {
        name: String::new(),
        sig: FnSig {
            ret: Ty::Void,
            params: vec![],
            variadic: false,
            unprototyped: false,
        },
        params: vec![],
        locals: vec![],
        body: None,
        is_static: false,
        atomic: false,
        loc: Loc::NONE,
        labels: vec![],
    }
}

struct Normalizer<'a> {
    shared_globals: &'a [bool],
    escaping: &'a HashSet<LocalId>,
    locals: &'a mut Vec<Local>,
    temps: u32,
    /// `--property overflow`, with the data model for the checks.
    checks: Option<DataModel>,
}

impl Normalizer<'_> {
    /// What is shared here (`ir::access` defines it for every pass).
    fn sh(&self) -> Shared<'_> {
        Shared {
            globals: self.shared_globals,
            escaping: self.escaping,
        }
    }

    fn shared_lvalue(&self, e: &Expr) -> bool {
        self.sh().visible_lvalue(e)
    }

    /// Shared reads, and under `overflow` nondeterministic draws (a check
    /// must not draw again).
    fn reads(&self, e: &Expr) -> usize {
        self.sh().read_count(e) + self.draws(e)
    }

    fn addr_reads(&self, e: &Expr) -> usize {
        self.sh().addr_read_count(e) + self.draws(e)
    }

    fn draws(&self, e: &Expr) -> usize {
        if self.checks.is_none() {
            return 0;
        }
        let mut n = 0;
        e.walk(&mut |x| n += matches!(x.kind, ExprKind::Nondet) as usize);
        n
    }

    /// Whether `&&`, `||` or `?:` has shared reads in an operand that is
    /// evaluated only sometimes.
    fn lazy_reads(&self, e: &Expr) -> bool {
        let mut found = false;
        e.walk(&mut |x| match &x.kind {
            ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, _, b) => found |= self.reads(b) > 0,
            ExprKind::Cond(_, a, b) => found |= self.reads(a) + self.reads(b) > 0,
            _ => {}
        });
        found
    }

    fn temp(&mut self, ty: &Ty, loc: Loc) -> Expr {
        self.temps += 1;
        let name = format!("__s{}", self.temps);
        let ty = ty.unqual().clone();
        self.locals.push(Local {
            name,
            ty: ty.clone(),
            loc: loc.generated(),
            temp: true,
        });
        let v = LocalId(self.locals.len() as u32 - 1);
        Expr::new(ExprKind::Local(v), ty, loc.generated())
    }

    /// `T t = e;` for a read, returning `t`.
    fn hoist(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        let t = self.temp(&e.ty, e.loc);
        let ExprKind::Local(v) = t.kind else {
            unreachable!()
        };
        let loc = e.loc;
        out.push(Stmt {
            kind: StmtKind::Decl(v, Some(Init::Expr(e))),
            loc,
        });
        t
    }

    /// Rewrites an rvalue so that it makes no shared read; the reads go
    /// into `out` as one statement each, in evaluation order.
    fn split(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        let loc = e.loc;
        let ty = e.ty.clone();
        match e.kind {
            ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..) => {
                let lv = self.split_addr(
                    Expr {
                        kind: e.kind,
                        ty,
                        loc,
                    },
                    out,
                );
                if self.shared_lvalue(&lv) && !matches!(lv.ty.unqual(), Ty::Array(..)) {
                    self.hoist(lv, out)
                } else {
                    lv
                }
            }
            ExprKind::AddrOf(a) => {
                let a = self.split_addr(*a, out);
                Expr::new(ExprKind::AddrOf(Box::new(a)), ty, loc)
            }
            ExprKind::Decay(a) => {
                let a = self.split_addr(*a, out);
                Expr::new(ExprKind::Decay(Box::new(a)), ty, loc)
            }
            ExprKind::Unary(o, a) => {
                Expr::new(ExprKind::Unary(o, Box::new(self.split(*a, out))), ty, loc)
            }
            ExprKind::Cast(a) => Expr::new(ExprKind::Cast(Box::new(self.split(*a, out))), ty, loc),
            ExprKind::Binary(o @ (BinOp::LogAnd | BinOp::LogOr), a, b) if self.reads(&b) > 0 => {
                // t = a; if (t) / if (!t) { t = (b != 0) }
                let a = self.split(*a, out);
                let t = self.temp(&Ty::INT, loc);
                let ExprKind::Local(v) = t.kind else {
                    unreachable!()
                };
                let a_ty = a.ty.clone();
                let a_bool = truth(a, &a_ty, loc);
                out.push(Stmt {
                    kind: StmtKind::Decl(v, Some(Init::Expr(a_bool))),
                    loc: loc.generated(),
                });
                let mut inner = Vec::new();
                let b = self.split(*b, &mut inner);
                let b_ty = b.ty.clone();
                inner.push(Stmt {
                    kind: StmtKind::Assign(t.clone(), truth(b, &b_ty, loc)),
                    loc: loc.generated(),
                });
                let c = if o == BinOp::LogAnd {
                    t.clone()
                } else {
                    Expr::new(
                        ExprKind::Unary(UnOp::LogNot, Box::new(t.clone())),
                        Ty::INT,
                        loc,
                    )
                };
                out.push(Stmt {
                    kind: StmtKind::If(c, Block(inner), Block::default()),
                    loc: loc.generated(),
                });
                t
            }
            ExprKind::Binary(o, a, b) => {
                let a = self.split(*a, out);
                let b = self.split(*b, out);
                Expr::new(ExprKind::Binary(o, Box::new(a), Box::new(b)), ty, loc)
            }
            ExprKind::Cond(c, a, b) if self.reads(&a) + self.reads(&b) > 0 => {
                let c = self.split(*c, out);
                let t = self.temp(&ty, loc);
                let ExprKind::Local(v) = t.kind else {
                    unreachable!()
                };
                out.push(Stmt {
                    kind: StmtKind::Decl(v, None),
                    loc: loc.generated(),
                });
                let mut tb = Vec::new();
                let a = self.split(*a, &mut tb);
                tb.push(Stmt {
                    kind: StmtKind::Assign(t.clone(), a),
                    loc: loc.generated(),
                });
                let mut eb = Vec::new();
                let b = self.split(*b, &mut eb);
                eb.push(Stmt {
                    kind: StmtKind::Assign(t.clone(), b),
                    loc: loc.generated(),
                });
                out.push(Stmt {
                    kind: StmtKind::If(c, Block(tb), Block(eb)),
                    loc: loc.generated(),
                });
                t
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.split(*c, out);
                Expr::new(ExprKind::Cond(Box::new(c), a, b), ty, loc)
            }
            ExprKind::Nondet if self.checks.is_some() => {
                self.hoist(Expr::new(ExprKind::Nondet, ty, loc), out)
            }
            k => Expr { kind: k, ty, loc },
        }
    }

    /// Hoists the shared reads needed to compute an lvalue's address.
    fn split_addr(&mut self, e: Expr, out: &mut Vec<Stmt>) -> Expr {
        let loc = e.loc;
        let ty = e.ty.clone();
        match e.kind {
            ExprKind::Deref(p) => {
                Expr::new(ExprKind::Deref(Box::new(self.split(*p, out))), ty, loc)
            }
            ExprKind::Member(b, i) => Expr::new(
                ExprKind::Member(Box::new(self.split_addr(*b, out)), i),
                ty,
                loc,
            ),
            ExprKind::Index(b, i) => {
                let b = self.split_addr(*b, out);
                let i = self.split(*i, out);
                Expr::new(ExprKind::Index(Box::new(b), Box::new(i)), ty, loc)
            }
            k => Expr { kind: k, ty, loc },
        }
    }

    /// Splits the reads of `e` unless it is the statement's only access.
    fn maybe_split(&mut self, e: Expr, budget: &mut usize, out: &mut Vec<Stmt>) -> Expr {
        let r = self.reads(&e);
        if r == 0 {
            return e;
        }
        let checked = self.checks.is_some() && overflow::has_checked(&e);
        if r <= *budget && !self.lazy_reads(&e) && !checked {
            *budget -= r;
            return e;
        }
        self.split(e, out)
    }

    fn block(&mut self, b: Block) -> Block {
        let mut out = Vec::new();
        let mut atomic_depth = 0u32;
        for s in b.0 {
            if let StmtKind::Op {
                op: Op::AtomicBegin,
                ..
            } = s.kind
            {
                atomic_depth += 1;
            }
            if let StmtKind::Op {
                op: Op::AtomicEnd, ..
            } = s.kind
            {
                atomic_depth = atomic_depth.saturating_sub(1);
            }
            if atomic_depth > 0 {
                match self.checks {
                    Some(dm) => out.extend(overflow::instrument(vec![s], dm)),
                    None => out.push(s),
                }
                continue;
            }
            self.stmt(s, &mut out);
        }
        Block(out)
    }

    fn stmt(&mut self, s: Stmt, out: &mut Vec<Stmt>) {
        let loc = s.loc;
        let start = out.len();
        let kind = match s.kind {
            StmtKind::Assign(lhs, rhs) => {
                let write = self.shared_lvalue(&lhs) as usize;
                let mut budget = 1 - write.min(1);
                let addr = self.addr_reads(&lhs);
                let lhs = if addr > 0 {
                    self.split_addr(lhs, out)
                } else {
                    lhs
                };
                if addr > 0 && write == 0 {
                    budget = 0;
                }
                let rhs = self.maybe_split(rhs, &mut budget, out);
                StmtKind::Assign(lhs, rhs)
            }
            StmtKind::Decl(v, Some(Init::Expr(e))) => {
                let mut budget = if self.escaping.contains(&v) { 0 } else { 1 };
                let e = self.maybe_split(e, &mut budget, out);
                StmtKind::Decl(v, Some(Init::Expr(e)))
            }
            StmtKind::Decl(v, Some(init)) => {
                let mut init = init;
                let mut budget = 0;
                init.walk_exprs_mut(&mut |e| {
                    let x = std::mem::replace(e, Expr::int(0, Ty::INT, loc));
                    *e = self.maybe_split(x, &mut budget, out);
                });
                StmtKind::Decl(v, Some(init))
            }
            StmtKind::Call { dest, callee, args } => {
                let mut budget = 0;
                let callee = self.maybe_split(callee, &mut budget, out);
                let args = args
                    .into_iter()
                    .map(|a| self.maybe_split(a, &mut budget, out))
                    .collect();
                let dest = dest.map(|d| self.dest(d, out));
                StmtKind::Call { dest, callee, args }
            }
            StmtKind::Op { dest, op, args } => {
                let mut budget = 0;
                let args = args
                    .into_iter()
                    .enumerate()
                    .map(|(i, a)| {
                        if op.is_atomic_step() && i == 0 {
                            // The address of the atomic object.
                            if self.reads(&a) > 0 {
                                self.split(a, out)
                            } else {
                                a
                            }
                        } else {
                            self.maybe_split(a, &mut budget, out)
                        }
                    })
                    .collect();
                let dest = dest.map(|d| self.dest(d, out));
                StmtKind::Op { dest, op, args }
            }
            StmtKind::If(c, a, b) => {
                let mut budget = 1;
                let c = self.maybe_split(c, &mut budget, out);
                StmtKind::If(c, self.block(a), self.block(b))
            }
            StmtKind::Switch(c, b) => {
                let mut budget = 1;
                let c = self.maybe_split(c, &mut budget, out);
                StmtKind::Switch(c, self.block(b))
            }
            StmtKind::Loop { body, latch, trips } => StmtKind::Loop {
                body: self.block(body),
                latch: self.block(latch),
                trips,
            },
            StmtKind::Block(b) => StmtKind::Block(self.block(b)),
            StmtKind::Return(Some(e)) => {
                let mut budget = 1;
                StmtKind::Return(Some(self.maybe_split(e, &mut budget, out)))
            }
            StmtKind::Assert(c, k) => {
                let mut budget = 1;
                StmtKind::Assert(self.maybe_split(c, &mut budget, out), k)
            }
            StmtKind::Assume(c) => {
                let mut budget = 1;
                StmtKind::Assume(self.maybe_split(c, &mut budget, out))
            }
            k => k,
        };
        let s = Stmt { kind, loc };
        if let Some(dm) = self.checks {
            // The statements made from this one, then its own checks; its
            // nested blocks were done statement by statement.
            let made = out.split_off(start);
            out.extend(overflow::instrument(made, dm));
            overflow::checks_of(&s, dm, out);
        }
        out.push(s);
    }

    /// A call's result goes to a temporary first when the destination is
    /// shared, so that the write is a step of its own.
    fn dest(&mut self, d: Expr, out: &mut Vec<Stmt>) -> Expr {
        if self.addr_reads(&d) > 0 {
            return self.split_addr(d, out);
        }
        d
    }
}

/// `e != 0` as an int, for the value of `&&`/`||`.
pub(crate) fn truth(e: Expr, ty: &Ty, loc: Loc) -> Expr {
    if ty.unqual() == &Ty::INT
        && let ExprKind::Binary(op, ..) = &e.kind
        && (op.is_comparison() || matches!(op, BinOp::LogAnd | BinOp::LogOr))
    {
        return e;
    }
    let zero = if ty.is_pointer() {
        Expr::new(
            ExprKind::Cast(Box::new(Expr::int(0, Ty::INT, loc))),
            ty.unqual().clone(),
            loc,
        )
    } else {
        Expr::int(0, ty.unqual().clone(), loc)
    };
    Expr::new(
        ExprKind::Binary(BinOp::Ne, Box::new(e), Box::new(zero)),
        Ty::INT,
        loc,
    )
}
