//! Accesses to shared memory (DESIGN.md §2): which lvalues a statement
//! reads and writes that another thread can see. Shared memory is every
//! global that is not thread-local, everything reached through a pointer,
//! and every local whose address is taken. Used by KISS's race mode and by
//! `--emit regions`.

use crate::ir::*;
use std::collections::HashSet;

/// What is shared in one function.
pub struct Shared<'a> {
    /// Per global: shared between threads.
    pub globals: &'a [bool],
    /// The function's locals whose address escapes.
    pub escaping: &'a HashSet<LocalId>,
}

impl Shared<'_> {
    /// Is the lvalue `lv` memory another thread can see?
    pub fn lvalue(&self, lv: &Expr) -> bool {
        match &lv.kind {
            ExprKind::Global(g) => self.globals.get(g.index()).copied().unwrap_or(false),
            ExprKind::Local(v) => self.escaping.contains(v),
            ExprKind::Deref(_) => !matches!(lv.ty.unqual(), Ty::Func(_)),
            ExprKind::Member(a, _) | ExprKind::Index(a, _) => self.lvalue(a),
            _ => false,
        }
    }

    /// The shared lvalues `e` reads (as a value).
    pub fn reads(&self, e: &Expr, out: &mut Vec<(Expr, bool)>) {
        match &e.kind {
            ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..) => {
                if self.lvalue(e) {
                    out.push((e.clone(), false));
                }
                self.addr_reads(e, out);
            }
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => self.addr_reads(a, out),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.reads(a, out),
            ExprKind::Binary(_, a, b) => {
                self.reads(a, out);
                self.reads(b, out);
            }
            ExprKind::Cond(a, b, c) => {
                self.reads(a, out);
                self.reads(b, out);
                self.reads(c, out);
            }
            _ => {}
        }
    }

    /// The shared lvalues read to compute the address of `lv`.
    pub fn addr_reads(&self, lv: &Expr, out: &mut Vec<(Expr, bool)>) {
        match &lv.kind {
            ExprKind::Deref(x) => self.reads(x, out),
            ExprKind::Member(a, _) => self.addr_reads(a, out),
            ExprKind::Index(a, i) => {
                self.addr_reads(a, out);
                self.reads(i, out);
            }
            _ => {}
        }
    }

    /// The accesses to shared data a (normalised, visible) statement
    /// makes, `(lvalue, writes)`. Atomic operations, memset/memcpy and
    /// thread operations on their objects are not data accesses here.
    pub fn stmt(&self, p: &Program, s: &Stmt) -> Vec<(Expr, bool)> {
        let mut out = Vec::new();
        let write = |d: &Expr, out: &mut Vec<(Expr, bool)>| {
            self.addr_reads(d, out);
            if self.lvalue(d) {
                out.push((d.clone(), true));
            }
        };
        match &s.kind {
            StmtKind::Assign(l, r) => {
                self.reads(r, &mut out);
                write(l, &mut out);
            }
            StmtKind::Decl(_, Some(Init::Expr(e))) => self.reads(e, &mut out),
            StmtKind::Call { dest, callee, args } => {
                self.reads(callee, &mut out);
                for a in args {
                    self.reads(a, &mut out);
                }
                if let Some(d) = dest {
                    write(d, &mut out);
                }
            }
            StmtKind::Op { dest, op, args } => {
                if !op.is_atomic_step() && !matches!(op, Op::Memset | Op::Memcpy) {
                    for a in args {
                        self.reads(a, &mut out);
                    }
                }
                if let Some(d) = dest {
                    write(d, &mut out);
                }
            }
            StmtKind::If(c, ..)
            | StmtKind::Switch(c, _)
            | StmtKind::Assert(c, _)
            | StmtKind::Assume(c)
            | StmtKind::Return(Some(c)) => self.reads(c, &mut out),
            _ => {}
        }
        // An address C cannot take (a bit-field) is not instrumented.
        out.retain(|(lv, _)| match &lv.kind {
            ExprKind::Member(a, i) => match a.ty.unqual() {
                Ty::Comp(c) => p.comp(*c).fields[*i as usize].bit_width.is_none(),
                _ => true,
            },
            _ => true,
        });
        out
    }
}

/// Locals whose address is taken (or arrays that decay to a pointer).
pub fn escaping_locals(f: &Function) -> HashSet<LocalId> {
    f.body.as_ref().map(escaping_in).unwrap_or_default()
}

/// `escaping_locals` of a function body.
pub fn escaping_in(b: &Block) -> HashSet<LocalId> {
    let mut out = HashSet::new();
    b.walk(&mut |s| {
        s.each_expr(&mut |e| {
            e.walk(&mut |x| {
                if let ExprKind::AddrOf(a) | ExprKind::Decay(a) = &x.kind
                    && let Some(v) = base_local(a)
                {
                    out.insert(v);
                }
            });
        });
    });
    out
}

/// The local an lvalue lives in, if it is not reached through a pointer.
fn base_local(e: &Expr) -> Option<LocalId> {
    match &e.kind {
        ExprKind::Local(v) => Some(*v),
        ExprKind::Member(b, _) | ExprKind::Index(b, _) => base_local(b),
        _ => None,
    }
}
