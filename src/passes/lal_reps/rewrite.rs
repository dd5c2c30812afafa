//! The rewrite of one function: escaping locals through their pool
//! slots, thread-local globals by thread, a switch point before every
//! visible step, deferred assertions, stops for assumptions.

use super::*;

impl Rewriter<'_> {
    /// `assert(c)`: a failure records the assertion's id (the first
    /// failure only) and stops the thread, so nothing it does afterwards
    /// can make another assertion fail (seqc records the first failure
    /// in slot order, which need not be the first of the run).
    pub(super) fn assertion(&mut self, p: &Program, c: Expr, kind: AssertKind, loc: Loc) -> Stmt {
        self.asserts.push((loc, kind));
        let id = (self.first_assert + self.asserts.len()) as i128;
        let e = glob(p, self.g.error, loc);
        let set = if_(
            cmp(BinOp::Eq, e.clone(), int(0, Ty::INT, loc), loc),
            vec![assign(e, int(id, Ty::INT, loc), loc)],
            vec![],
            loc,
        );
        let fails = if_(not(c, loc), vec![set, self.stop_here(p, loc)], vec![], loc);
        if_(self.alive(p, loc), vec![fails], vec![], loc)
    }

    pub(super) fn fail(&mut self, what: impl Into<String>, loc: Loc) {
        if self.err.is_none() {
            self.err = Some(PassErr {
                what: what.into(),
                loc,
            });
        }
    }

    pub(super) fn temp(&mut self, name: &str, ty: Ty) -> LocalId {
        let n = self.locals.len();
        self.locals.push(Local {
            name: format!("{name}{n}"),
            ty,
            loc: Loc::NONE,
            temp: true,
        });
        LocalId(self.locals.len() as u32 - 1)
    }

    /// `stop` (`Ctx::stop` or `stop_here`), then leave the function.
    pub(super) fn and_return(&mut self, stop: Stmt, loc: Loc) -> Vec<Stmt> {
        let mut v = vec![stop];
        if self.ret_ty.is_void() {
            v.push(st(StmtKind::Return(None), loc));
        } else {
            // The value is never used: the thread has stopped.
            let ty = self.ret_ty.clone();
            v.extend(return_any(ty, loc, |t| self.temp("__seqc_any", t)));
        }
        v
    }

    /// Rewrites an expression: escaping locals through their pool
    /// pointer, thread-local globals by thread, strings as globals.
    pub(super) fn expr(&mut self, p: &Program, e: &mut Expr) {
        if let Some(l) = threads::tls_address(e, &self.tls) {
            self.fail("the address of a thread-local variable", l);
            return;
        }
        let esc = &self.esc_ptr;
        let tls = &self.tls;
        let strings = &self.strings;
        let tid = self.g.tid;
        rewrite_expr(e, &mut |x: &mut Expr| match &x.kind {
            ExprKind::Local(v) if esc.contains_key(v) => {
                let pv = esc[v];
                let pty = x.ty.clone().ptr();
                let loc = x.loc;
                *x = deref(lv_local(pv, pty, loc), loc);
                x.ty = x.ty.clone();
            }
            ExprKind::Global(g) if tls.contains(g) => {
                let loc = x.loc;
                let ty = x.ty.clone();
                let base = Expr::new(ExprKind::Global(*g), p.global(*g).ty.clone(), loc);
                *x = Expr::new(
                    ExprKind::Index(Box::new(base), Box::new(glob(p, tid, loc))),
                    ty,
                    loc,
                );
            }
            ExprKind::Str(b) => {
                if let Some(&g) = strings.get(b) {
                    x.kind = ExprKind::Global(g);
                }
            }
            _ => {}
        });
    }

    pub(super) fn block(&mut self, p: &Program, b: Block, _in_atomic: bool) -> Block {
        let mut out = Vec::new();
        let mut stmts = b.0.into_iter().peekable();
        // Only the body's own block marks the prefix; nested blocks keep
        // the mark of the statement around them.
        let prefix = std::mem::take(&mut self.prefix_stmts);
        let mut i = 0;
        while let Some(s) = stmts.next() {
            if prefix > 0 {
                self.in_prefix = i < prefix;
                i += 1;
            }
            let next_ty = stmts.peek().and_then(|n| match &n.kind {
                StmtKind::Assign(l, r) if matches!(strip_cast(r).kind, ExprKind::Local(_)) => {
                    Some((strip_cast(r).clone(), l.ty.clone()))
                }
                // `T *p = malloc(...)` (and a variable-length array).
                StmtKind::Decl(v, Some(Init::Expr(r)))
                    if matches!(strip_cast(r).kind, ExprKind::Local(_)) =>
                {
                    Some((strip_cast(r).clone(), self.locals[v.index()].ty.clone()))
                }
                _ => None,
            });
            self.stmt(p, s, &mut out, next_ty);
        }
        if prefix > 0 {
            self.in_prefix = false;
        }
        Block(out)
    }

    /// A visible step (`ir::access`), but for `free`, which this
    /// method's memory model makes a no-op (no switch point needed).
    /// Escaping locals were rewritten into pool dereferences.
    pub(super) fn visible(&self, s: &Stmt) -> bool {
        if self.atomic_fn {
            return false;
        }
        let none = HashSet::new();
        let sh = crate::ir::access::Shared {
            globals: &self.copied,
            escaping: &none,
        };
        if matches!(s.kind, StmtKind::Op { op: Op::Free, .. }) {
            // Only what its argument reads.
            let mut any = false;
            s.each_expr(&mut |e| any = any || sh.touches(e));
            return any;
        }
        sh.visible(s, &self.atomic_fns)
    }

    pub(super) fn stmt(
        &mut self,
        p: &Program,
        mut s: Stmt,
        out: &mut Vec<Stmt>,
        next: Option<(Expr, Ty)>,
    ) {
        let loc = s.loc;
        // Rewrite expressions first, so that visibility sees pool derefs.
        let is_decl_esc = matches!(&s.kind, StmtKind::Decl(v, _) if self.esc_ptr.contains_key(v));
        // Reads of memory no thread writes commute with every other
        // thread's steps (`ir::readonly`): no switch point before them.
        let constant = {
            let sh = crate::ir::access::Shared {
                globals: &self.copied,
                escaping: &self.escaping,
            };
            self.readonly
                .only_constant_reads(&sh, FuncId(self.fi as u32), &s)
        };
        if !is_decl_esc {
            s.each_expr_mut(&mut |e| self.expr(p, e));
        }
        let vis = !constant && !self.in_prefix && self.visible(&s);
        if vis {
            let cs = self.cs_call(loc);
            out.push(match self.unscheduled_test(p, &s) {
                // A create past the thread bound only writes the new id:
                // no switch point before it (fewer runs, never more), so
                // that a creation loop of thousands costs little.
                Some(sched) => if_(sched, vec![cs], vec![], loc),
                None => cs,
            });
        }
        match s.kind {
            StmtKind::Decl(v, init) if self.esc_ptr.contains_key(&v) => {
                let pv = self.esc_ptr[&v];
                let ty = self.locals[v.index()].ty.clone();
                out.extend(self.alloc_stmts(p, &ty, 1, pv, loc));
                let slot = deref(lv_local(pv, ty.clone().ptr(), loc), loc);
                let mut w = Vec::new();
                match init {
                    Some(mut init) => {
                        init.walk_exprs_mut(&mut |e| self.expr(p, e));
                        init_writes(p, slot, &ty, &init, loc, &mut w);
                    }
                    // Uninitialised: any value, as a local kept in a
                    // register holds (DESIGN.md §2). The slot is fresh and
                    // no other thread can see it yet: no switch point.
                    None if !self.pthread_locals.contains(&(self.fi, v)) => {
                        let mut h = Vec::new();
                        havoc_writes(p, slot, &ty, loc, &mut h);
                        out.extend(h);
                    }
                    None => {}
                }
                if self.in_prefix {
                    // No other thread yet: the writes need no step.
                    out.extend(w);
                } else {
                    if !w.is_empty() {
                        // The initialising writes are shared: one step.
                        out.push(self.cs_call(loc));
                        let a = self.g.atomic;
                        out.push(assign(glob(p, a, loc), int(1, Ty::INT, loc), loc));
                        out.extend(w);
                        out.push(assign(glob(p, a, loc), int(0, Ty::INT, loc), loc));
                    }
                }
            }
            StmtKind::If(c, a, b) => {
                let a = self.block(p, a, false);
                let b = self.block(p, b, false);
                out.push(st(StmtKind::If(c, a, b), loc));
            }
            StmtKind::Loop { body, latch, trips } => {
                let outer = self.times;
                self.times = sites::run_counts(outer, trips);
                self.loop_depth += 1;
                let body = self.block(p, body, false);
                let latch = self.block(p, latch, false);
                self.loop_depth -= 1;
                self.times = outer;
                out.push(st(StmtKind::Loop { body, latch, trips }, loc));
            }
            StmtKind::Switch(c, b) => {
                let b = self.block(p, b, false);
                out.push(st(StmtKind::Switch(c, b), loc));
            }
            StmtKind::Block(b) => {
                let b = self.block(p, b, false);
                out.push(st(StmtKind::Block(b), loc));
            }
            StmtKind::Assert(c, kind) => out.push(self.assertion(p, c, kind, loc)),
            StmtKind::Assume(c) => {
                out.push(if_(not(c, loc), vec![self.stop(p, loc)], vec![], loc));
            }
            StmtKind::Op { dest, op, args } => self.op(p, dest, op, args, loc, out, next),
            StmtKind::Call { dest, callee, args } => {
                let call = st(StmtKind::Call { dest, callee, args }, loc);
                let (a, b) = self.atomic_call(p, &call, loc);
                out.extend(a);
                out.push(call);
                out.extend(b);
            }
            kind => out.push(st(kind, loc)),
        }
    }

    /// Around a call of a `__VERIFIER_atomic_*` function from code that
    /// is not atomic (see `atomic_call`).
    pub(super) fn atomic_call(
        &mut self,
        p: &Program,
        call: &Stmt,
        loc: Loc,
    ) -> (Vec<Stmt>, Vec<Stmt>) {
        if self.atomic_fn || !calls_atomic(call, &self.atomic_fns) {
            return (vec![], vec![]);
        }
        let t = self.temp("__seqc_was_atomic", Ty::INT);
        atomic_call(p, self.g.atomic, t, loc)
    }
}
