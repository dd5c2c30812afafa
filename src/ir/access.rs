//! Accesses to shared memory and visible steps (DESIGN.md §2), defined
//! once: which lvalues a statement reads and writes that another thread
//! can see, how many such accesses an expression makes, and which
//! statements are visible steps. Shared memory is every global that is
//! not thread-local, everything reached through a pointer, and every local
//! whose address is taken. The normaliser, both sequentializations, the
//! verifier (which checks the normaliser's postcondition with it), KISS's
//! race mode, slicing and `--emit regions` all ask here.

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
    /// Is the lvalue `lv` memory another thread can see? Every
    /// dereference counts, as a visible access.
    pub fn visible_lvalue(&self, lv: &Expr) -> bool {
        match &lv.kind {
            ExprKind::Global(g) => self.globals.get(g.index()).copied().unwrap_or(false),
            ExprKind::Local(v) => self.escaping.contains(v),
            ExprKind::Deref(_) => true,
            ExprKind::Member(a, _) | ExprKind::Index(a, _) => self.visible_lvalue(a),
            _ => false,
        }
    }

    /// Is the lvalue `lv` shared data (a race can be on it)? A function
    /// designator reached through a pointer is code, not data.
    pub fn lvalue(&self, lv: &Expr) -> bool {
        match &lv.kind {
            ExprKind::Deref(_) => !matches!(lv.ty.unqual(), Ty::Func(_)),
            ExprKind::Member(a, _) | ExprKind::Index(a, _) => self.lvalue(a),
            _ => self.visible_lvalue(lv),
        }
    }

    /// How many shared reads evaluating `e` (as a value) makes.
    pub fn read_count(&self, e: &Expr) -> usize {
        match &e.kind {
            ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..) => self.addr_read_count(e) + self.visible_lvalue(e) as usize,
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => self.addr_read_count(a),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.read_count(a),
            ExprKind::Binary(_, a, b) => self.read_count(a) + self.read_count(b),
            ExprKind::Cond(a, b, c) => self.read_count(a) + self.read_count(b) + self.read_count(c),
            _ => 0,
        }
    }

    /// Shared reads made while computing the address of an lvalue.
    pub fn addr_read_count(&self, lv: &Expr) -> usize {
        match &lv.kind {
            ExprKind::Deref(p) => self.read_count(p),
            ExprKind::Member(b, _) => self.addr_read_count(b),
            ExprKind::Index(b, i) => self.addr_read_count(b) + self.read_count(i),
            _ => 0,
        }
    }

    /// Does evaluating `e` read or write shared memory?
    pub fn touches(&self, e: &Expr) -> bool {
        self.read_count(e) > 0
    }

    /// Is `s` a visible step (in code that is not atomic): an operation
    /// on threads, locks or atomics, a call of a `__VERIFIER_atomic_*`
    /// function, or a statement whose expressions touch shared memory?
    pub fn visible(&self, s: &Stmt, atomic_fns: &[bool]) -> bool {
        match &s.kind {
            StmtKind::Op { op, .. } if op.is_visible() => return true,
            StmtKind::Call { callee, .. } => {
                if let ExprKind::Func(f) = callee.kind
                    && atomic_fns.get(f.index()).copied().unwrap_or(false)
                {
                    return true;
                }
            }
            _ => {}
        }
        let mut any = false;
        s.each_expr(&mut |e| any = any || self.touches(e));
        any
    }

    /// The normaliser's postcondition for one statement outside atomic
    /// code: `None` when it holds, else what breaks it.
    pub fn normalized(&self, s: &Stmt) -> Option<&'static str> {
        let sum =
            |es: &mut dyn Iterator<Item = &Expr>| es.map(|e| self.read_count(e)).sum::<usize>();
        match &s.kind {
            StmtKind::Assign(l, r) => {
                (self.visible_lvalue(l) as usize + self.addr_read_count(l) + self.read_count(r) > 1)
                    .then_some("an assignment with two shared accesses")
            }
            StmtKind::Decl(v, Some(Init::Expr(e))) => {
                (self.escaping.contains(v) as usize + self.read_count(e) > 1)
                    .then_some("a declaration with two shared accesses")
            }
            StmtKind::Decl(_, Some(init)) => {
                let mut es = Vec::new();
                init.exprs(&mut es);
                (sum(&mut es.into_iter()) > 0)
                    .then_some("an aggregate initialiser that reads shared memory")
            }
            StmtKind::Call { dest, callee, args } => (self.read_count(callee)
                + sum(&mut args.iter())
                + dest.as_ref().map_or(0, |d| self.addr_read_count(d))
                > 0)
            .then_some("a call whose arguments read shared memory"),
            StmtKind::Op { dest, args, .. } => {
                (sum(&mut args.iter()) + dest.as_ref().map_or(0, |d| self.addr_read_count(d)) > 0)
                    .then_some("an operation whose arguments read shared memory")
            }
            StmtKind::If(c, ..)
            | StmtKind::Switch(c, _)
            | StmtKind::Assert(c, _)
            | StmtKind::Assume(c)
            | StmtKind::Return(Some(c)) => {
                (self.read_count(c) > 1).then_some("a condition with two shared reads")
            }
            _ => None,
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

/// `escaping_locals` of a function body. (`&t` as the id argument of
/// `pthread_create` counts too: treating it as local drops the per-round
/// copies of id arrays, but made `refine`'s replay on a sliced program
/// run out of memory on tests/slice/driver_safe.c; not done yet.)
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

/// Per global: does the program take its address (`&g`, `g` decayed to
/// a pointer, or either of a part of `g`), in a body or an initialiser?
pub fn addressed_globals(p: &Program) -> Vec<bool> {
    let mut out = vec![false; p.globals.len()];
    let mut visit = |x: &Expr| {
        if let ExprKind::AddrOf(a) | ExprKind::Decay(a) = &x.kind
            && let Some(g) = base_global(a)
        {
            out[g.index()] = true;
        }
    };
    for g in &p.globals {
        if let Some(i) = &g.init {
            i.each_expr(&mut |e| e.walk(&mut visit));
        }
    }
    for f in &p.functions {
        if let Some(b) = &f.body {
            b.walk(&mut |s| s.each_expr(&mut |e| e.walk(&mut visit)));
        }
    }
    out
}

/// The global an lvalue lives in, if it is not reached through a pointer
/// (the C printer's address mode descends the same way).
pub fn base_global(e: &Expr) -> Option<GlobalId> {
    match &e.kind {
        ExprKind::Global(g) => Some(*g),
        ExprKind::Member(b, _) | ExprKind::Index(b, _) => base_global(b),
        _ => None,
    }
}

/// Where `pthread_create` writes the new id: `t` for an argument `&t`
/// (so that `t` need not live in memory), else `*arg`.
pub fn create_id_place(arg: &Expr, loc: Loc) -> Expr {
    match &arg.kind {
        ExprKind::AddrOf(lv) if base_local(lv).is_some() => (**lv).clone(),
        _ => super::build::deref(arg.clone(), loc),
    }
}

/// The local an lvalue lives in, if it is not reached through a pointer.
fn base_local(e: &Expr) -> Option<LocalId> {
    match &e.kind {
        ExprKind::Local(v) => Some(*v),
        ExprKind::Member(b, _) | ExprKind::Index(b, _) => base_local(b),
        _ => None,
    }
}
