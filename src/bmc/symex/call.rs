//! Calls: inlining a callee's body with its own frame, the loops and
//! branches of a body, and one call statement (direct, through a
//! pointer, or of a model).

use super::*;

impl<'p> Symex<'p> {
    /// Runs `f` to its end; the state after it (None: every path ended or
    /// was blocked) and its return value.
    pub(super) fn call(
        &mut self,
        st: State,
        f: FuncId,
        args: Vec<Val>,
        loc: Loc,
    ) -> R<(Option<State>, Option<Val>)> {
        let p = self.p;
        let func = p.func(f);
        let ret_ty = func.sig.ret.clone();
        if func.body.is_none() {
            // External without effect (the front end refused the others).
            let v = if ret_ty.is_void() {
                None
            } else {
                Some(self.nondet(&ret_ty, loc)?)
            };
            if let Some(Val::S(t)) = &v
                && !ret_ty.is_pointer()
            {
                self.nondet_event(&st, loc, t);
            }
            return Ok((Some(st), v));
        }
        let active = self.stack.iter().filter(|&&g| g == f).count() as u32;
        let limit = p
            .frame_limits
            .iter()
            .find(|(g, _)| *g == f)
            .map_or(self.unwind.max(1), |&(_, n)| n);
        if active >= limit {
            self.cut(&st, loc);
            return Ok((None, None));
        }
        // Inlining is where an encoding grows without end (KISS nests
        // every thread inside every step of another).
        if self.out.len() > OUT_BUDGET {
            self.gave_up = true;
            return Err((
                format!(
                    "{} at {} MB of SMT-LIB (inlined too much)",
                    crate::bmc::GAVE_UP,
                    OUT_BUDGET >> 20
                ),
                loc,
            ));
        }
        if self.deadline.is_some_and(|d| std::time::Instant::now() > d) {
            self.gave_up = true;
            return Err((format!("{}: the timeout passed", crate::bmc::GAVE_UP), loc));
        }
        if self.cancel.as_ref().is_some_and(|c| c.is_cancelled()) {
            self.gave_up = true;
            return Err((
                format!("{}: another back end answered first", crate::bmc::GAVE_UP),
                loc,
            ));
        }
        let code = self.code(f)?;
        let id = self.frames;
        self.frames += 1;
        self.frame_funcs.push(f);
        let mut fr = Frame {
            id,
            func: f,
            objs: HashMap::new(),
        };
        for (li, l) in func.locals.iter().enumerate() {
            let lid = LocalId(li as u32);
            if self.regions.in_mem_local(f, lid) {
                let size = p.size_of(&l.ty).unwrap_or(0).max(1);
                let a = if self.rounds.is_some() {
                    let a = self.local_next;
                    self.local_next += self.span(size);
                    a
                } else {
                    self.alloc(size)
                };
                fr.objs.insert(lid, a);
            }
        }
        self.event(&st, loc, EventKind::Call(func.name.clone()));
        self.stack.push(f);
        let mut st = st;
        let saved_loops = std::mem::replace(&mut st.loops, vec![0; code.nloops as usize]);
        for (i, v) in func.params.iter().enumerate() {
            let Some(a) = args.get(i) else { break };
            let ty = func.local(*v).ty.clone();
            let place = self.local_place(&fr, *v);
            let line = func.loc.line;
            self.write(&mut st, &fr, &place, &ty, a.clone(), line)?;
            let name = func.local(*v).name.clone();
            self.record_assign(&st, &fr, func.loc, name, &ty, a);
        }
        let end = self.body(st, &fr, &code)?;
        self.stack.pop();
        let Some(mut end) = end else {
            return Ok((None, None));
        };
        end.loops = saved_loops;
        let ret = if ret_ty.is_void() {
            None
        } else if regions::is_leaf(&ret_ty) {
            Some(Val::S(match end.vars.get(&Var::Ret(id, 0)) {
                Some(t) => t.clone(),
                // Falling off the end of a non-void function: any value.
                None => self.nondet(&ret_ty, loc)?.s(),
            }))
        } else {
            let n = self.leaf_list(&ret_ty, None).len() as u32;
            let mut v = Vec::new();
            for i in 0..n {
                match end.vars.get(&Var::Ret(id, i)) {
                    Some(t) => v.push(t.clone()),
                    None => v.push(term::bv(0, 8)),
                }
            }
            Some(Val::A(v))
        };
        end.vars.retain(|k, _| match k {
            Var::Local(fid, _) | Var::Ret(fid, _) => *fid != id,
            _ => true,
        });
        self.event(
            &end,
            loc,
            EventKind::Return(
                func.name.clone(),
                match &ret {
                    Some(Val::S(t)) => Some((ret_ty.clone(), t.clone())),
                    _ => None,
                },
            ),
        );
        Ok((Some(end), ret))
    }

    pub(super) fn body(
        &mut self,
        st: State,
        fr: &Frame,
        code: &crate::bmc::goto::GotoFn,
    ) -> R<Option<State>> {
        use crate::bmc::goto::Ins;
        let end = code.code.len();
        let mut pending: BTreeMap<usize, Vec<State>> = BTreeMap::new();
        let mut cur = Some(st);
        let mut pc = 0usize;
        loop {
            if let Some(mut ps) = pending.remove(&pc) {
                if let Some(c) = cur.take() {
                    ps.insert(0, c);
                }
                let line = code.code.get(pc).map(|c| c.1.line).unwrap_or(0);
                cur = self.merge(ps, line);
            }
            if cur.as_ref().is_none_or(|s| s.guard.is_false()) {
                cur = None;
                match pending.keys().next() {
                    Some(&k) => {
                        pc = k;
                        continue;
                    }
                    None => return Ok(None),
                }
            }
            if pc >= end {
                return Ok(cur);
            }
            let (ins, loc) = &code.code[pc];
            let loc = *loc;
            self.cur_loc = loc;
            let line = loc.line;
            let mut s = cur.take().unwrap();
            pc += 1;
            match ins {
                Ins::Decl(v, init) => {
                    self.decl(&mut s, fr, *v, init.as_ref(), loc)?;
                    cur = Some(s);
                }
                Ins::Assign(l, r) => {
                    self.hint = is_nondet(r).then(|| self.lv_text(fr, l));
                    let v = self.rvalue(&s, fr, r)?;
                    self.hint = None;
                    let v = self.convert(v, &r.ty, &l.ty);
                    let place = self.place(&s, fr, l)?;
                    self.write(&mut s, fr, &place, &l.ty, v.clone(), line)?;
                    let name = self.lv_text(fr, l);
                    self.record_assign(&s, fr, loc, name, &l.ty, &v);
                    cur = Some(s);
                }
                Ins::Call { dest, callee, args } => {
                    cur = self.call_stmt(s, fr, dest.as_ref(), callee, args, loc)?;
                }
                Ins::Op { dest, op, args } => {
                    // `t = malloc(n); T *x = (T *)t;`: the type the new
                    // object is used at, so that its contents can start
                    // indeterminate.
                    let elem = match (op, dest, code.code.get(pc).map(|c| &c.0)) {
                        (Op::Malloc, Some(d), Some(Ins::Decl(_, Some(Init::Expr(e)))))
                        | (Op::Malloc, Some(d), Some(Ins::Assign(_, e))) => match &e.kind {
                            ExprKind::Cast(x) if **x == *d => e.ty.pointee().cloned(),
                            _ => None,
                        },
                        _ => None,
                    };
                    self.malloc_elem = elem;
                    cur = self.op(s, fr, dest.as_ref(), *op, args, loc)?;
                    self.malloc_elem = None;
                }
                Ins::Goto(t) => pending.entry(*t).or_default().push(s),
                Ins::GotoIf(c, t) => {
                    let cv = self.cond(&s, fr, c)?;
                    let gt = term::and(&s.guard, &cv);
                    let gt = self.def("guard", line, gt);
                    let gf = term::and(&s.guard, &term::not(&cv));
                    let gf = self.def("guard", line, gf);
                    if !gt.is_false() {
                        let mut taken = s.clone();
                        taken.guard = gt;
                        pending.entry(*t).or_default().push(taken);
                    }
                    s.guard = gf;
                    cur = Some(s);
                }
                Ins::Switch(x, arms, default) => {
                    let xv = self.rvalue(&s, fr, x)?.s();
                    let w = xv.width();
                    let signed = x.ty.is_signed();
                    let mut rest = s.guard.clone();
                    for (lab, t) in arms {
                        let c = match *lab {
                            CaseLabel::Value(v) => term::eq(&xv, &term::bv(v, w)),
                            CaseLabel::Range(a, b) => {
                                let op = if signed { "bvsle" } else { "bvule" };
                                term::and(
                                    &term::cmp(op, &term::bv(a, w), &xv),
                                    &term::cmp(op, &xv, &term::bv(b, w)),
                                )
                            }
                            CaseLabel::Default => continue,
                        };
                        let g = term::and(&rest, &c);
                        let g = self.def("guard", line, g);
                        if !g.is_false() {
                            let mut b = s.clone();
                            b.guard = g;
                            pending.entry(*t).or_default().push(b);
                        }
                        let r = term::and(&rest, &term::not(&c));
                        rest = self.def("guard", line, r);
                    }
                    s.guard = rest;
                    pending.entry(*default).or_default().push(s);
                }
                Ins::LoopEnter(id) => {
                    s.loops[*id as usize] = 0;
                    cur = Some(s);
                }
                Ins::LoopGuard(id, trips) => {
                    if s.loops[*id as usize] >= crate::ir::loops::limit(*trips, self.unwind) {
                        self.cut(&s, loc);
                    } else {
                        cur = Some(s);
                    }
                }
                Ins::BackEdge(id, to, guarded) => {
                    s.loops[*id as usize] += 1;
                    if !guarded && s.loops[*id as usize] >= self.unwind {
                        self.cut(&s, loc);
                    } else {
                        pc = *to;
                        cur = Some(s);
                    }
                }
                Ins::Assume(c) => {
                    let cv = self.cond(&s, fr, c)?;
                    self.assume(&s, &cv, line);
                    cur = Some(s);
                }
                Ins::Assert(c, kind) => {
                    let cv = self.cond(&s, fr, c)?;
                    let f = term::and(&self.assumed, &term::and(&s.guard, &term::not(&cv)));
                    let f = self.def("fail", line, f);
                    if !f.is_false() {
                        let idx = self.fails.len();
                        self.fails.push(Failure {
                            cond: f,
                            loc,
                            kind: *kind,
                            func: fr.func,
                        });
                        self.event(&s, loc, EventKind::Assert(idx));
                    }
                    cur = Some(s);
                }
                Ins::Return(e) => {
                    let func = self.p.func(fr.func);
                    if let Some(e) = e {
                        let rt = func.sig.ret.clone();
                        let v = self.rvalue(&s, fr, e)?;
                        let v = self.convert(v, &e.ty, &rt);
                        match v {
                            Val::S(t) => {
                                self.set(&mut s, Var::Ret(fr.id, 0), t, line, Some(fr));
                            }
                            Val::A(ts) => {
                                for (i, t) in ts.into_iter().enumerate() {
                                    s.vars.insert(Var::Ret(fr.id, i as u32), t);
                                }
                            }
                        }
                    }
                    pending.entry(end).or_default().push(s);
                }
            }
        }
    }

    pub(super) fn call_stmt(
        &mut self,
        st: State,
        fr: &Frame,
        dest: Option<&Expr>,
        callee: &Expr,
        args: &[Expr],
        loc: Loc,
    ) -> R<Option<State>> {
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.rvalue(&st, fr, a)?);
        }
        let direct = match &callee.kind {
            ExprKind::Func(f) => Some(*f),
            ExprKind::AddrOf(x) => match x.kind {
                ExprKind::Func(f) => Some(f),
                _ => None,
            },
            _ => None,
        };
        let convert_args = |this: &mut Self, f: FuncId, vals: &[Val]| -> Vec<Val> {
            let func = this.p.func(f);
            vals.iter()
                .zip(args)
                .enumerate()
                .map(|(i, (v, a))| match func.params.get(i) {
                    Some(pv) => {
                        let pt = func.local(*pv).ty.clone();
                        this.convert(v.clone(), &a.ty, &pt)
                    }
                    None => v.clone(),
                })
                .collect()
        };
        let (after, ret) = match direct {
            Some(f) => {
                let a = convert_args(self, f, &vals);
                self.call(st, f, a, loc)?
            }
            None => {
                // Dispatch over the functions whose address is taken and
                // whose parameter count and result fit; any other target
                // blocks (a call through an incompatible type is undefined,
                // and a result of another width has no value here).
                let fv = self.rvalue(&st, fr, callee)?.s();
                let want = match callee.ty.pointee().unwrap_or(&callee.ty) {
                    Ty::Func(sig) => Some(sig.ret.clone()),
                    _ => None,
                };
                let p = self.p;
                let fits = |r: &Ty| {
                    want.as_ref().is_none_or(|w| {
                        let (w, r) = (w.unqual(), r.unqual());
                        w == r
                            || (w.is_pointer() && r.is_pointer())
                            || (w.is_integer() && r.is_integer() && p.size_of(w) == p.size_of(r))
                    })
                };
                let cands: Vec<(FuncId, u64)> = self
                    .fn_addr
                    .iter()
                    .filter(|(f, _)| {
                        let s = &self.p.func(**f).sig;
                        (s.variadic || s.unprototyped || s.params.len() == args.len())
                            && fits(&s.ret)
                    })
                    .map(|(f, a)| (*f, *a))
                    .collect();
                let mut rest = st.guard.clone();
                let mut outs = Vec::new();
                let tmp = self.tmps;
                self.tmps += 1;
                for (f, a) in cands {
                    let c = term::eq(&fv, &term::bv(a as i128, self.pw));
                    let g = term::and(&rest, &c);
                    let g = self.def("guard", loc.line, g);
                    let r = term::and(&rest, &term::not(&c));
                    rest = self.def("guard", loc.line, r);
                    if g.is_false() {
                        continue;
                    }
                    let mut b = st.clone();
                    b.guard = g;
                    let av = convert_args(self, f, &vals);
                    let (s, v) = self.call(b, f, av, loc)?;
                    if let Some(mut s) = s {
                        match v {
                            Some(Val::S(t)) => {
                                s.vars.insert(Var::Tmp(tmp, 0), t);
                            }
                            Some(Val::A(ts)) => {
                                for (i, t) in ts.into_iter().enumerate() {
                                    s.vars.insert(Var::Tmp(tmp, i as u32), t);
                                }
                            }
                            None => {}
                        }
                        outs.push(s);
                    }
                }
                let mut blocked = st.clone();
                blocked.guard = rest;
                self.assume(&blocked, &T::B(false), loc.line);
                let merged = self.merge(outs, loc.line);
                match merged {
                    None => (None, None),
                    Some(mut m) => {
                        let mut leaves: Vec<(u32, T)> = m
                            .vars
                            .iter()
                            .filter_map(|(k, v)| match k {
                                Var::Tmp(t, i) if *t == tmp => Some((*i, v.clone())),
                                _ => None,
                            })
                            .collect();
                        m.vars
                            .retain(|k, _| !matches!(k, Var::Tmp(t, _) if *t == tmp));
                        leaves.sort_by_key(|x| x.0);
                        let v = match leaves.len() {
                            0 => None,
                            1 if dest.is_some_and(|d| regions::is_leaf(&d.ty)) => {
                                Some(Val::S(leaves.pop().unwrap().1))
                            }
                            _ => Some(Val::A(leaves.into_iter().map(|x| x.1).collect())),
                        };
                        (Some(m), v)
                    }
                }
            }
        };
        let Some(mut after) = after else {
            return Ok(None);
        };
        if let (Some(d), Some(v)) = (dest, ret) {
            let place = self.place(&after, fr, d)?;
            self.write(&mut after, fr, &place, &d.ty, v.clone(), loc.line)?;
            let name = self.lv_text(fr, d);
            self.record_assign(&after, fr, loc, name, &d.ty, &v);
        }
        Ok(Some(after))
    }
}
