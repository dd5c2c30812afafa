//! The operations Lal-Reps expands itself (the shared thread model,
//! `passes/threads.rs`, does the rest): thread creation into slots,
//! atomic read-modify-writes as one step, allocation from pools.

use super::*;

impl Rewriter<'_> {
    /// A temporary that holds `e`'s value now, for a result read after
    /// stores that may change what `e` reads.
    fn held(&mut self, out: &mut Vec<Stmt>, e: Expr, loc: Loc) -> Expr {
        let t = self.temp("__seqc_eq", e.ty.clone());
        out.push(st(StmtKind::Decl(t, None), loc));
        let v = lv_local(t, e.ty.clone(), loc);
        out.push(assign(v.clone(), e, loc));
        v
    }

    /// For a `pthread_create`: "its site is below the thread bound".
    pub(super) fn unscheduled_test(&self, p: &Program, s: &Stmt) -> Option<Expr> {
        threads::below_bound(p, s, &self.sites, &self.caps, &self.once, self.g.site_n)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn op(
        &mut self,
        p: &Program,
        dest: Option<Expr>,
        op: Op,
        args: Vec<Expr>,
        loc: Loc,
        out: &mut Vec<Stmt>,
        next: Option<(Expr, Ty)>,
    ) {
        if threads::expand(self, p, &dest, op, &args, loc, out) {
            return;
        }
        let set_dest = |out: &mut Vec<Stmt>, v: Expr| {
            if let Some(d) = &dest {
                out.push(assign(d.clone(), v, loc));
            }
        };
        let zero = int(0, Ty::INT, loc);
        let one = int(1, Ty::INT, loc);
        let arg = |i: usize| args.get(i).cloned().unwrap_or(int(0, Ty::INT, loc));
        match op {
            Op::ThreadCreate => {
                let Some(si) = self.sites.iter().position(|s| s.loc == loc) else {
                    self.fail("a pthread_create seqc did not see", loc);
                    return;
                };
                let base = self.bases[si] as i128;
                let n = index(
                    glob(p, self.g.site_n, loc),
                    int(si as i128, Ty::INT, loc),
                    loc,
                );
                let t = self.temp("__seqc_t", Ty::UINT);
                let tv = lv_local(t, Ty::UINT, loc);
                let idx = |a: GlobalId| index(glob(p, a, loc), tv.clone(), loc);
                let mut made = vec![
                    assign(
                        tv.clone(),
                        bin(
                            BinOp::Add,
                            n.clone(),
                            int(base, Ty::UINT, loc),
                            Ty::UINT,
                            loc,
                        ),
                        loc,
                    ),
                    assign(
                        n.clone(),
                        bin(BinOp::Add, n.clone(), int(1, Ty::UINT, loc), Ty::UINT, loc),
                        loc,
                    ),
                    assign(idx(self.g.arg), arg(3), loc),
                    assign(idx(self.g.created), one.clone(), loc),
                ];
                if let (None, Some(sg)) = (self.sites[si].start, self.g.start) {
                    let f = cast(arg(2), threads::start_ty().ptr(), loc);
                    made.push(assign(idx(sg), f, loc));
                }
                made.extend(threads::on_create(p, &book(self.cx), &tv, &arg(1), loc));
                let pt = arg(0);
                made.extend(if_nonnull(
                    &pt,
                    vec![assign(
                        crate::ir::access::create_id_place(&pt, loc),
                        threads::thread_id(&tv, loc),
                        loc,
                    )],
                    loc,
                ));
                // A site that runs once never gets past its bound.
                let unscheduled = if self.once[si] {
                    vec![self.stop(p, loc)]
                } else {
                    threads::unscheduled(
                        self,
                        p,
                        (si, self.sites.len()),
                        self.caps[si],
                        &n,
                        &pt,
                        loc,
                    )
                };
                let mut body = vec![if_(
                    cmp(BinOp::Ge, n, int(self.caps[si] as i128, Ty::UINT, loc), loc),
                    unscheduled,
                    made,
                    loc,
                )];
                set_dest(&mut body, zero.clone());
                // No aliveness test: a stopped creator writes `created` in
                // the sink copy, so its thread stops at once; the slot
                // counters stay concrete, which keeps the encoding small.
                out.push(st(StmtKind::Decl(t, None), loc));
                out.extend(body);
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
            Op::AtomicLoad => set_dest(out, deref(arg(0), loc)),
            Op::AtomicStore => out.push(assign(deref(arg(0), loc), arg(1), loc)),
            Op::AtomicExchange
            | Op::AtomicFetch(_)
            | Op::AtomicFetchThen(_)
            | Op::AtomicCasVal
            | Op::AtomicCasBool
            | Op::AtomicCompareExchange => {
                let m = deref(arg(0), loc);
                let vt = m.ty.clone();
                let old = self.temp("__seqc_old", vt.clone());
                let ov = lv_local(old, vt.clone(), loc);
                out.push(st(StmtKind::Decl(old, None), loc));
                out.push(assign(ov.clone(), m.clone(), loc));
                let rmw = |r: AtomicRmw| {
                    let b = match r {
                        AtomicRmw::Add => BinOp::Add,
                        AtomicRmw::Sub => BinOp::Sub,
                        AtomicRmw::And => BinOp::BitAnd,
                        AtomicRmw::Or => BinOp::BitOr,
                        AtomicRmw::Xor => BinOp::BitXor,
                    };
                    let b = if vt.is_pointer() {
                        match b {
                            BinOp::Add => BinOp::PtrAdd,
                            BinOp::Sub => BinOp::PtrSub,
                            o => o,
                        }
                    } else {
                        b
                    };
                    let rhs = if vt.is_pointer() {
                        arg(1)
                    } else {
                        cast(arg(1), vt.clone(), loc)
                    };
                    bin(b, ov.clone(), rhs, vt.clone(), loc)
                };
                match op {
                    Op::AtomicExchange => {
                        out.push(assign(m, arg(1), loc));
                        set_dest(out, ov);
                    }
                    Op::AtomicFetch(r) => {
                        out.push(assign(m, rmw(r), loc));
                        set_dest(out, ov);
                    }
                    Op::AtomicFetchThen(r) => {
                        out.push(assign(m.clone(), rmw(r), loc));
                        set_dest(out, m);
                    }
                    Op::AtomicCasVal | Op::AtomicCasBool => {
                        let eq = cmp(BinOp::Eq, ov.clone(), cast(arg(1), vt.clone(), loc), loc);
                        let eq = self.held(out, eq, loc);
                        out.push(if_(eq.clone(), vec![assign(m, arg(2), loc)], vec![], loc));
                        set_dest(out, if op == Op::AtomicCasVal { ov } else { eq });
                    }
                    _ => {
                        // C11 compare_exchange(p, expected_ptr, desired). The
                        // comparison is kept before the stores: read again
                        // after a failure wrote `*expected`, it was always
                        // true.
                        let ex = deref(arg(1), loc);
                        let eq = cmp(BinOp::Eq, ov.clone(), ex.clone(), loc);
                        let eq = self.held(out, eq, loc);
                        out.push(if_(
                            eq.clone(),
                            vec![assign(m, arg(2), loc)],
                            vec![assign(ex, ov, loc)],
                            loc,
                        ));
                        set_dest(out, eq);
                    }
                }
            }
            Op::Fence | Op::AttrNoop(_) | Op::LibNoop(_) => {
                set_dest(out, zero);
            }
            Op::Malloc | Op::Calloc => {
                let size = match op {
                    Op::Malloc => const_of(&arg(0)),
                    _ => const_of(&arg(0)).zip(const_of(&arg(1))).map(|(a, b)| a * b),
                };
                let dty = dest
                    .as_ref()
                    .map(|d| d.ty.clone())
                    .unwrap_or(Ty::Void.ptr());
                let mut elem = dty.pointee().filter(|t| !t.is_void()).cloned();
                if elem.is_none()
                    && let (Some(d), Some((src, ty))) = (&dest, &next)
                    && src == d
                {
                    elem = ty.pointee().filter(|t| !t.is_void()).cloned();
                }
                let esz = elem.as_ref().and_then(|t| p.size_of(t)).unwrap_or(0);
                let (ety, count) = match (elem, size) {
                    // A size known only at run time gets an object of
                    // HEAP_CAP elements; a larger request stops the thread
                    // below (a bound cut, rule 4), so no run is reported
                    // that the real size could not make.
                    (Some(t), None) if esz > 0 => (t, HEAP_CAP),
                    (_, None) => (Ty::Int(IntKind::UChar), HEAP_CAP),
                    (Some(t), Some(size))
                        if esz > 0 && (size as u64).is_multiple_of(esz) && size > 0 =>
                    {
                        (t, size as u64 / esz)
                    }
                    (_, Some(size)) => (Ty::Int(IntKind::UChar), (size.max(1)) as u64),
                };
                if size.is_none() {
                    let ul = Ty::ULONG;
                    let lim = int((HEAP_CAP * esz.max(1)) as i128, ul.clone(), loc);
                    let wide = |e: Expr| cast(e, ul.clone(), loc);
                    let mut sizes = vec![wide(arg(0))];
                    if op == Op::Calloc {
                        // Each factor first, so the product cannot wrap.
                        sizes.push(wide(arg(1)));
                        sizes.push(bin(BinOp::Mul, wide(arg(0)), wide(arg(1)), ul.clone(), loc));
                    }
                    for e in sizes {
                        let c = cmp(BinOp::Gt, e, lim.clone(), loc);
                        out.push(if_(c, vec![self.stop(p, loc)], vec![], loc));
                    }
                }
                if count > 4096 {
                    self.fail(format!("{} of {count} elements", op.c_name()), loc);
                    return;
                }
                let pv = self.temp("__seqc_obj", ety.clone().ptr());
                out.push(st(StmtKind::Decl(pv, None), loc));
                let v = self.alloc_stmts(p, &ety, count, pv, loc);
                out.extend(v);
                set_dest(out, lv_local(pv, ety.ptr(), loc));
            }
            Op::Free => {}
            Op::Memset | Op::Memcpy => match self.mem_op(p, op, &args, loc) {
                Ok(v) => {
                    out.extend(v);
                    set_dest(out, arg(0));
                }
                Err(why) => self.fail(why, loc),
            },
            Op::RoundInit | Op::RoundCheck => {}
        }
    }
}
