//! The rewrite of one function: RAISE and its propagation after calls,
//! thread-local globals by thread, a schedule point before every visible
//! step, assertions that fail at once, stops for assumptions, and the
//! operations KISS expands itself (creation into the pending set).

use super::*;

impl Rewriter {
    pub(super) fn fail(&mut self, what: impl Into<String>, loc: Loc) {
        if self.err.is_none() {
            self.err = Some((what.into(), loc));
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
        LocalId(n as u32)
    }

    pub(super) fn raised(&self, p: &Program, loc: Loc) -> Expr {
        cmp(
            BinOp::Ne,
            glob(p, self.g.raise, loc),
            int(0, Ty::INT, loc),
            loc,
        )
    }

    /// Leave the function (the thread has stopped; the value is unused).
    pub(super) fn leave(&mut self, loc: Loc) -> Vec<Stmt> {
        if self.ret_ty.is_void() {
            return vec![st(StmtKind::Return(None), loc)];
        }
        let ty = self.ret_ty.clone();
        return_any(ty, loc, |t| self.temp("__seqc_any", t))
    }

    /// RAISE: the running thread stops for good (blocked or cut). Inside
    /// atomic code no other thread could run after it, so such a run is
    /// dropped instead (the state it leaves is half an atomic step).
    pub(super) fn raise(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        self.raise_with(p, loc, true)
    }

    /// RAISE; `drop`: inside atomic code the run ends (`raise`), else the
    /// thread ends and the others go on (`pthread_exit`).
    pub(super) fn raise_with(&mut self, p: &Program, loc: Loc, drop: bool) -> Vec<Stmt> {
        // 2 inside atomic code (`Globals::raise`). The drop is an assume
        // outside CBMC's atomic sections: a path that ends inside one
        // makes CBMC fail ("atomic sections differ across branches").
        let value = if drop && self.atomic_code {
            let inside = cmp(
                BinOp::Ne,
                glob(p, self.g.atomic, loc),
                int(0, Ty::INT, loc),
                loc,
            );
            bin(BinOp::Add, int(1, Ty::INT, loc), inside, Ty::INT, loc)
        } else {
            int(1, Ty::INT, loc)
        };
        let mut v = vec![assign(glob(p, self.g.raise, loc), value, loc)];
        v.extend(self.leave(loc));
        v
    }

    /// `if (c) RAISE;`
    pub(super) fn raise_if(&mut self, p: &Program, c: Expr, loc: Loc) -> Stmt {
        let r = self.raise(p, loc);
        if_(c, r, vec![], loc)
    }

    /// After a call that may run a thread's code: leave if it stopped.
    pub(super) fn propagate(&mut self, p: &Program, loc: Loc) -> Stmt {
        let l = self.leave(loc);
        if_(self.raised(p, loc), l, vec![], loc)
    }

    /// For a `pthread_create`: "its site is below the thread bound".
    fn unscheduled_test(&self, p: &Program, s: &Stmt) -> Option<Expr> {
        threads::below_bound(p, s, &self.sites, &self.caps, &self.once, self.g.site_n)
    }

    pub(super) fn step(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        let l = loc.generated();
        vec![
            call(self.step_f, void_sig(vec![]), vec![], None, l),
            self.propagate(p, l),
        ]
    }

    pub(super) fn expr(&mut self, p: &Program, e: &mut Expr) {
        let tls = &self.tls;
        let tid = self.g.tid;
        if let Some(l) = threads::tls_address(e, tls) {
            self.fail("the address of a thread-local variable", l);
            return;
        }
        e.walk_mut(&mut |x: &mut Expr| {
            if let ExprKind::Global(g) = x.kind
                && tls.contains(&g)
            {
                let loc = x.loc;
                let ty = x.ty.clone();
                let base = Expr::new(ExprKind::Global(g), p.global(g).ty.clone(), loc);
                *x = Expr::new(
                    ExprKind::Index(Box::new(base), Box::new(glob(p, tid, loc))),
                    ty,
                    loc,
                );
            }
        });
    }

    pub(super) fn visible(&self, s: &Stmt) -> bool {
        !self.atomic_fn
            && Shared {
                globals: &self.shared,
                escaping: &self.escaping,
            }
            .visible(s, &self.atomic_fns)
    }

    /// `s`, before the rewrite, reads nothing but memory no thread
    /// writes (`ir::readonly`): it needs no schedule point.
    fn only_constant_reads(&self, s: &Stmt) -> bool {
        let sh = Shared {
            globals: &self.shared,
            escaping: &self.escaping,
        };
        self.readonly.only_constant_reads(&sh, self.cur_fn, s)
    }

    pub(super) fn block(&mut self, p: &Program, b: Block) -> Block {
        let mut out = Vec::new();
        // Only the body's own block marks the prefix; nested blocks keep
        // the mark of the statement around them.
        let prefix = std::mem::take(&mut self.prefix_stmts);
        for (i, s) in b.0.into_iter().enumerate() {
            if prefix > 0 {
                self.in_prefix = i < prefix;
            }
            self.stmt(p, s, &mut out);
        }
        if prefix > 0 {
            self.in_prefix = false;
        }
        Block(out)
    }

    pub(super) fn stmt(&mut self, p: &Program, mut s: Stmt, out: &mut Vec<Stmt>) {
        let loc = s.loc;
        let constant = self.only_constant_reads(&s);
        s.each_expr_mut(&mut |e| self.expr(p, e));
        // `x = f()` with `x` shared: the write is a step of its own after
        // the call's steps, not part of the step before the call.
        if let StmtKind::Call { dest: Some(d), .. } = &s.kind
            && !self.atomic_fn
            && self.lv_shared(d)
        {
            let d = d.clone();
            let t = self.temp("__seqc_res", d.ty.clone());
            out.push(st(StmtKind::Decl(t, None), loc.generated()));
            if let StmtKind::Call { dest, .. } = &mut s.kind {
                *dest = Some(lv_local(t, d.ty.clone(), loc));
            }
            self.stmt(p, s, out);
            let ty = d.ty.clone();
            self.stmt(p, assign(d, lv_local(t, ty, loc), loc), out);
            return;
        }
        if !constant && !self.in_prefix && self.visible(&s) {
            let step = self.step(p, loc);
            match self.unscheduled_test(p, &s) {
                // A create past the thread bound only writes the new id:
                // no schedule point before it (fewer runs, never more).
                Some(sched) => out.push(if_(sched, step, vec![], loc)),
                None => out.extend(step),
            }
            if self.race.is_some() {
                for (lv, write) in self.data_accesses(p, &s) {
                    let r = self.race_choice(p, lv, write, loc);
                    out.push(r);
                }
            }
        }
        match s.kind {
            StmtKind::If(c, a, b) => {
                let a = self.block(p, a);
                let b = self.block(p, b);
                out.push(st(StmtKind::If(c, a, b), loc));
            }
            StmtKind::Loop { body, latch, trips } => {
                let body = self.block(p, body);
                let latch = self.block(p, latch);
                out.push(st(StmtKind::Loop { body, latch, trips }, loc));
            }
            StmtKind::Switch(c, b) => {
                let b = self.block(p, b);
                out.push(st(StmtKind::Switch(c, b), loc));
            }
            StmtKind::Block(b) => {
                let b = self.block(p, b);
                out.push(st(StmtKind::Block(b), loc));
            }
            StmtKind::Assert(c, _) if self.race.is_some() => {
                // Race mode: a failing assertion aborts the run, and a
                // thread may always stop before it.
                let s = self.raise_if(p, not(c, loc), loc);
                out.push(s);
            }
            StmtKind::Assert(c, kind) => {
                self.asserts.push((loc, kind));
                out.push(st(StmtKind::Assert(c, kind), loc));
            }
            StmtKind::Assume(c) => {
                let s = self.raise_if(p, not(c, loc), loc);
                out.push(s);
            }
            StmtKind::Call { dest, callee, args } => {
                // A call of code that may take steps may come back with
                // the thread stopped.
                let may_stop = match sites::strip(&callee) {
                    Some(f) => self.has_body[f.index()],
                    None => true,
                };
                let call = st(StmtKind::Call { dest, callee, args }, loc);
                let (save, restore) = if !self.atomic_fn && calls_atomic(&call, &self.atomic_fns) {
                    let t = self.temp("__seqc_was_atomic", Ty::INT);
                    atomic_call(p, self.g.atomic, t, loc)
                } else {
                    (vec![], vec![])
                };
                out.extend(save);
                out.push(call);
                out.extend(restore);
                if may_stop {
                    let s = self.propagate(p, loc.generated());
                    out.push(s);
                }
            }
            StmtKind::Op { dest, op, args } => self.op(p, dest, op, args, loc, out),
            kind => out.push(st(kind, loc)),
        }
    }

    pub(super) fn op(
        &mut self,
        p: &Program,
        dest: Option<Expr>,
        op: Op,
        args: Vec<Expr>,
        loc: Loc,
        out: &mut Vec<Stmt>,
    ) {
        let set_dest = |out: &mut Vec<Stmt>, v: Expr| {
            if let Some(d) = &dest {
                out.push(assign(d.clone(), v, loc));
            }
        };
        let zero = int(0, Ty::INT, loc);
        if threads::expand(self, p, &dest, op, &args, loc, out) {
            return;
        }
        let u = Ty::UINT;
        let arg = |i: usize| args.get(i).cloned().unwrap_or(int(0, Ty::INT, loc));
        let g = self.g;
        match op {
            Op::ThreadCreate => {
                let Some(si) = self.sites.iter().position(|s| s.loc == loc) else {
                    self.fail("a pthread_create seqc did not see", loc);
                    return;
                };
                let n = index(glob(p, g.site_n, loc), int(si as i128, Ty::INT, loc), loc);
                // Past the thread bound the creator stops (a bound cut).
                let full = cmp(
                    BinOp::Ge,
                    n.clone(),
                    int(self.caps[si] as i128, u.clone(), loc),
                    loc,
                );
                let mut made = Vec::new();
                let t = self.temp("__seqc_t", u.clone());
                let tv = lv_local(t, u.clone(), loc);
                let nthr = glob(p, g.nthr, loc);
                made.push(st(StmtKind::Decl(t, None), loc));
                made.push(assign(tv.clone(), nthr.clone(), loc));
                made.push(assign(
                    nthr.clone(),
                    bin(BinOp::Add, nthr, int(1, u.clone(), loc), u.clone(), loc),
                    loc,
                ));
                made.push(assign(
                    n.clone(),
                    bin(
                        BinOp::Add,
                        n.clone(),
                        int(1, u.clone(), loc),
                        u.clone(),
                        loc,
                    ),
                    loc,
                ));
                let book = threads::Method::book(self);
                made.extend(threads::on_create(p, &book, &tv, &arg(1), loc));
                if let (None, Some(sg)) = (self.sites[si].start, g.start) {
                    let f = cast(arg(2), threads::start_ty().ptr(), loc);
                    made.push(assign(index(glob(p, sg, loc), tv.clone(), loc), f, loc));
                }
                let pt = arg(0);
                let ptd = threads::thread_id(&tv, loc);
                made.extend(if_nonnull(
                    &pt,
                    vec![assign(
                        crate::ir::access::create_id_place(&pt, loc),
                        ptd,
                        loc,
                    )],
                    loc,
                ));
                let tsn = glob(p, g.ts_n, loc);
                let mut pend = Vec::new();
                for k in 0..self.max {
                    let here = cmp(BinOp::Eq, tsn.clone(), int(k as i128, u.clone(), loc), loc);
                    let fill = vec![
                        assign(
                            glob(p, ts_slot(&g, k, 0), loc),
                            int(si as i128, u.clone(), loc),
                            loc,
                        ),
                        assign(
                            glob(p, ts_slot(&g, k, 1), loc),
                            cast(arg(3), Ty::Void.ptr(), loc),
                            loc,
                        ),
                        assign(glob(p, ts_slot(&g, k, 2), loc), tv.clone(), loc),
                    ];
                    pend.push(if_(here, fill, vec![], loc));
                }
                pend.push(assign(
                    tsn.clone(),
                    bin(
                        BinOp::Add,
                        tsn.clone(),
                        int(1, u.clone(), loc),
                        u.clone(),
                        loc,
                    ),
                    loc,
                ));
                // ts is full: the thread runs now, unless the creator is
                // inside an atomic section (then the creator stops: the
                // thread cannot run inside that section).
                let now = vec![
                    self.raise_if(
                        p,
                        cmp(BinOp::Ne, glob(p, g.atomic, loc), zero.clone(), loc),
                        loc,
                    ),
                    call(
                        self.run_f,
                        void_sig(vec![u.clone(), Ty::Void.ptr(), u.clone()]),
                        vec![
                            int(si as i128, u.clone(), loc),
                            cast(arg(3), Ty::Void.ptr(), loc),
                            tv,
                        ],
                        None,
                        loc.generated(),
                    ),
                ];
                made.push(if_(
                    cmp(
                        BinOp::Lt,
                        tsn.clone(),
                        int(self.max as i128, u.clone(), loc),
                        loc,
                    ),
                    pend,
                    now,
                    loc,
                ));
                // Past the thread bound: a thread that never runs (`ir::loops`).
                let pt = arg(0);
                if self.once[si] {
                    // A site that runs once never gets past its bound.
                    out.push(self.raise_if(p, full, loc));
                    out.extend(made);
                } else {
                    let unscheduled = threads::unscheduled(
                        self,
                        p,
                        (si, self.sites.len()),
                        self.caps[si],
                        &n,
                        &pt,
                        loc,
                    );
                    out.push(if_(full, unscheduled, made, loc));
                }
                set_dest(out, zero);
            }
            Op::ThreadJoin
            | Op::ThreadDetach
            | Op::ThreadExit
            | Op::ThreadSelf
            | Op::ThreadEqual
            | Op::MutexInit
            | Op::CondInit
            | Op::MutexDestroy
            | Op::CondDestroy
            | Op::CondSignal
            | Op::CondBroadcast
            | Op::MutexLock
            | Op::MutexUnlock
            | Op::MutexTryLock
            | Op::MutexTimedLock
            | Op::CondWait
            | Op::CondTimedWait
            | Op::Once
            | Op::KeyCreate
            | Op::KeyDelete
            | Op::GetSpecific
            | Op::SetSpecific
            | Op::AtomicBegin
            | Op::AtomicEnd
            | Op::Abort
            | Op::Exit
            | Op::Word(_) => unreachable!("expanded by the thread model"),
            Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicFetch(_)
            | Op::AtomicFetchThen(_)
            | Op::AtomicCasVal
            | Op::AtomicCasBool
            | Op::AtomicCompareExchange
            | Op::Fence
            | Op::AttrNoop(_)
            | Op::LibNoop(_)
            | Op::Malloc
            | Op::Calloc
            | Op::Free
            | Op::Memset
            | Op::Memcpy => out.push(st(StmtKind::Op { dest, op, args }, loc)),
            Op::RoundInit | Op::RoundCheck => {}
        }
    }
}
