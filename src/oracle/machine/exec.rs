//! Executing one micro-op of a thread: frames, calls and returns (a
//! thread's return starts its exit), loops and their bounds, assertions,
//! assumptions, and the operations (`posix.rs`).

use super::*;

impl<'p> Machine<'p> {
    pub(super) fn new_obj(&self, st: &mut State, t: u32, o: Object) -> u32 {
        let th = st.threads[t as usize].make_mut();
        th.next_obj += 1;
        let id = ((t + 1) << 16) | th.next_obj;
        st.objects.insert(id, ObjRef::new(o));
        id
    }

    pub(super) fn push_frame(
        &self,
        st: &mut State,
        t: u32,
        f: FuncId,
        args: Vec<(RVal, Ty)>,
        ret: RetTo,
        loc: Loc,
    ) -> R<()> {
        let func = self.p.func(f);
        let Some(code) = self.code.funcs[f.index()].as_ref() else {
            return unsup(format!("call of '{}', which has no body", func.name), loc);
        };
        let depth = st.threads[t as usize]
            .frames
            .iter()
            .filter(|fr| fr.func == f)
            .count() as u32;
        if depth >= self.b.unwind.max(1) {
            if self.in_atomic(&st.threads[t as usize]) {
                let why = format!("recursion bound {} for '{}'", self.b.unwind, func.name);
                // No event: a frame push has no trace of its own.
                self.end_program(
                    st,
                    &format!("{why}, inside atomic code"),
                    loc,
                    &mut Vec::new(),
                );
                return Ok(());
            }
            st.threads[t as usize].make_mut().status = Status::Stopped(format!(
                "recursion bound {} for '{}'",
                self.b.unwind, func.name
            ));
            return Ok(());
        }
        let mut locals = Vec::with_capacity(func.locals.len());
        for (i, l) in func.locals.iter().enumerate() {
            let size = self.p.size_of(&l.ty).unwrap_or(0);
            let id = self.new_obj(
                st,
                t,
                Object {
                    kind: ObjKind::Local(f, LocalId(i as u32)),
                    size,
                    shared: code.addr_taken[i],
                    alive: true,
                    cells: span(size, CellV::Undef),
                },
            );
            locals.push(id);
        }
        for (i, (v, aty)) in args.into_iter().enumerate() {
            if let Some(pid) = func.params.get(i) {
                let pty = &func.local(*pid).ty;
                let v = self.convert(v, aty.unqual(), pty.unqual(), loc)?;
                let at = Value::Ptr(locals[pid.index()], 0);
                self.write(st, at, pty, v, loc)?;
            }
        }
        st.threads[t as usize].make_mut().frames.push(Frame {
            func: f,
            pc: 0,
            regs: vec![None; code.nregs as usize],
            locals,
            loops: vec![0; code.nloops as usize],
            ret,
        });
        Ok(())
    }

    pub(super) fn stop(&self, st: &mut State, t: u32, why: String, loc: Loc, ev: &mut Vec<Event>) {
        // A thread blocked or cut inside atomic code keeps every other
        // thread out for good: the program can take no step after it.
        if self.in_atomic(&st.threads[t as usize]) {
            self.end_program(st, &format!("{why}, inside atomic code"), loc, ev);
            return;
        }
        if self.trace {
            ev.push(Event {
                loc,
                what: format!("thread stops: {why}"),
            });
        }
        st.threads[t as usize].make_mut().status = Status::Stopped(why);
    }

    /// Executes the thread's current action.
    pub(super) fn exec(
        &self,
        st: &mut State,
        t: u32,
        ch: &mut Chooser,
        ev: &mut Vec<Event>,
    ) -> R<()> {
        let (fid, pc) = {
            let f = st.threads[t as usize].frames.last().unwrap();
            (f.func, f.pc)
        };
        let code = self.code.funcs[fid.index()].as_ref().unwrap();
        let (m, loc) = &code.ops[pc as usize];
        let loc = *loc;
        let mut next = pc + 1;
        macro_rules! ev {
            ($e:expr) => {
                self.eval(st, t, $e, loc, ch)?
            };
        }
        match m {
            Mop::Set(r, e) => {
                let v = ev!(e);
                self.set_reg(st, t, *r, v);
            }
            Mop::Load(r, a, ty) => {
                let p = ev!(a).scalar(loc)?;
                let v = self.read(st, p, ty, loc, ch)?;
                if self.obj_shared(st, p) && self.trace {
                    ev.push(Event {
                        loc,
                        what: format!("read {} = {}", self.describe(st, p, ty), self.show(st, &v)),
                    });
                }
                self.set_reg(st, t, *r, v);
            }
            Mop::Store(a, e, ty) => {
                let p = ev!(a).scalar(loc)?;
                let v = ev!(e);
                let v = match (&v, ty.unqual()) {
                    (RVal::S(_), _) => v,
                    (RVal::Agg(_), _) => v,
                };
                self.write(st, p, ty, v.clone(), loc)?;
                if self.obj_shared(st, p) {
                    let shown = match self.read(st, p, ty, loc, &mut Chooser::new(&[])) {
                        Ok(r) => self.show(st, &r),
                        Err(_) => "?".into(),
                    };
                    if self.trace {
                        ev.push(Event {
                            loc,
                            what: format!("write {} = {}", self.describe(st, p, ty), shown),
                        });
                    }
                }
            }
            Mop::LoadBits(r, a, b) => {
                let p = ev!(a).scalar(loc)?;
                let v = self.read_bits(st, p, &b.at, &b.ty, loc, ch)?;
                if self.obj_shared(st, p) && self.trace {
                    ev.push(Event {
                        loc,
                        what: format!("read {} = {}", self.describe_bits(st, p, b), v),
                    });
                }
                self.set_reg(st, t, *r, RVal::S(Value::Int(v)));
            }
            Mop::StoreBits(a, e, b) => {
                let p = ev!(a).scalar(loc)?;
                let v = ev!(e).scalar(loc)?;
                let stored = self.write_bits(st, p, &b.at, &b.ty, v, loc)?;
                if self.obj_shared(st, p) && self.trace {
                    ev.push(Event {
                        loc,
                        what: format!("write {} = {}", self.describe_bits(st, p, b), stored),
                    });
                }
            }
            Mop::Zero(a, n) => {
                let p = ev!(a).scalar(loc)?;
                self.fill(st, p, *n, CellV::Zero, loc)?;
            }
            Mop::Decl(v) => {
                let f = st.threads[t as usize].frames.last().unwrap();
                let o = f.locals[v.index()];
                let size = st.objects[&o].size;
                let obj = st.objects.get_mut(&o).unwrap().make_mut();
                obj.cells = span(size, CellV::Undef);
            }
            Mop::Jump(to) => next = *to,
            Mop::Branch(c, a, b) => {
                let v = ev!(c).scalar(loc)?;
                next = if truth(v) { *a } else { *b };
            }
            Mop::LoopEnter(id) => {
                top_frame(st, t).loops[*id as usize] = 0;
            }
            Mop::LoopGuard(id, trips) => {
                let f = top_frame(st, t);
                if f.loops[*id as usize] >= crate::ir::loops::limit(*trips, self.b.unwind) {
                    let why = format!("loop unwinding bound {} reached", self.b.unwind);
                    self.stop(st, t, why, loc, ev);
                    return Ok(());
                }
            }
            Mop::BackEdge(id, to, guarded) => {
                let f = top_frame(st, t);
                f.loops[*id as usize] += 1;
                if !guarded && f.loops[*id as usize] >= self.b.unwind {
                    let why = format!("loop unwinding bound {} reached", self.b.unwind);
                    self.stop(st, t, why, loc, ev);
                    return Ok(());
                }
                next = *to;
            }
            Mop::Call(r, c, args, tys) => {
                let cv = ev!(c).scalar(loc)?;
                let Value::Func(fi) = cv else {
                    return unsup("a call through a pointer that is not a function", loc);
                };
                let f = FuncId(fi);
                let mut a = Vec::new();
                for (x, ty) in args.iter().zip(tys) {
                    a.push((ev!(x), ty.clone()));
                }
                if self.code.funcs[f.index()].is_none() {
                    // An external function kept as "no effect" by lowering.
                    if self.trace {
                        ev.push(Event {
                            loc,
                            what: format!("call {} (no body: no effect)", self.p.func(f).name),
                        });
                    }
                    if let Some(r) = r {
                        let rt = self.p.func(f).sig.ret.clone();
                        let v = self.nondet(&rt, ch, loc)?;
                        self.set_reg(st, t, *r, v);
                    }
                } else {
                    top_frame(st, t).pc = next;
                    if self.p.func(f).atomic && self.trace {
                        ev.push(Event {
                            loc,
                            what: format!("atomic call {}", self.p.func(f).name),
                        });
                    }
                    return self.push_frame(st, t, f, a, RetTo::Reg(*r), loc);
                }
            }
            Mop::Ret(e) => {
                let v = match e {
                    Some(e) => Some(ev!(e)),
                    None => None,
                };
                let th = st.threads[t as usize].make_mut();
                let fr = th.frames.pop().unwrap();
                for o in &fr.locals {
                    st.objects.remove(o);
                }
                let rt = self.p.func(fr.func).sig.ret.clone();
                match fr.ret {
                    RetTo::Thread => {
                        let rv = match v {
                            Some(RVal::S(x)) => x,
                            _ => Value::Ptr(0, 0),
                        };
                        if self.trace {
                            ev.push(Event {
                                loc,
                                what: format!("thread returns {}", self.show(st, &RVal::S(rv))),
                            });
                        }
                        if t == 0 {
                            self.leak_rule(st, loc)?;
                            self.exit_rule(st, 0, loc, ev)?;
                            // main's return is exit: no destructors run.
                            if st.threads[0].atomic_depth > 0 {
                                self.end_program(
                                    st,
                                    "main returned inside an atomic section",
                                    loc,
                                    ev,
                                );
                            } else {
                                self.finish(st, t, rv);
                                st.threads[0].make_mut().exited = true;
                            }
                        } else {
                            self.begin_exit(st, t, rv, loc, ev)?;
                        }
                    }
                    RetTo::Reg(r) => {
                        if let (Some(r), Some(v)) = (r, v) {
                            let v = match v {
                                RVal::S(_) => v,
                                a => a,
                            };
                            let _ = rt;
                            self.set_reg(st, t, r, v);
                        }
                    }
                    RetTo::Once(ctl) => {
                        self.write(st, ctl, &Ty::INT, RVal::S(Value::Int(2)), loc)?;
                    }
                    RetTo::Dtor => self.continue_exit(st, t, loc, ev)?,
                }
                return Ok(());
            }
            Mop::Assert(c, k) => {
                let v = ev!(c).scalar(loc)?;
                if !truth(v) {
                    if self.trace {
                        ev.push(Event {
                            loc,
                            what: k.what(),
                        });
                    }
                    return Err(Fail(StepEnd::Failed(loc, *k)));
                }
            }
            Mop::Assume(c) => {
                let v = ev!(c).scalar(loc)?;
                if !truth(v) {
                    self.stop(st, t, "assume is false".into(), loc, ev);
                    return Ok(());
                }
            }
            Mop::Relock(r, m, state) => {
                let m = ev!(m).scalar(loc)?;
                let state = match self.reg(st, t, *state) {
                    Some(RVal::S(Value::Int(v))) => v,
                    _ => return unsup("oracle: a condition wait without its first half", loc),
                };
                // A timed wait's first half added TIMED to the state.
                let timed = state & TIMED != 0;
                let mut res = self.relock(st, t, m, state & !TIMED, loc, ev)?;
                if timed && res == 0 {
                    // Woken: by a signal, spuriously, or by the time
                    // passing (time is not modelled: any wait may last
                    // past any time). One draw, as the passes make it.
                    ch.taken_at.push(loc);
                    if ch.pick_from(&[0, 1]) != 0 {
                        res = ETIMEDOUT;
                        if self.trace {
                            ev.push(Event {
                                loc,
                                what: "the wait times out (ETIMEDOUT)".into(),
                            });
                        }
                    }
                }
                if let Some(r) = r {
                    self.set_reg(st, t, *r, RVal::S(Value::Int(res)));
                }
            }
            Mop::BarrierPass(r, b, cycle) => {
                let b = ev!(b).scalar(loc)?;
                let cycle = match self.reg(st, t, *cycle) {
                    Some(RVal::S(Value::Int(v))) => v,
                    _ => return unsup("oracle: a barrier pass without its arrival", loc),
                };
                let res = self.barrier_pass(st, b, cycle, loc, ev)?;
                if let Some(r) = r {
                    self.set_reg(st, t, *r, RVal::S(Value::Int(res)));
                }
            }
            Mop::Op(r, op, args, tys) => {
                let mut a = Vec::new();
                for x in args {
                    a.push(ev!(x));
                }
                top_frame(st, t).pc = next;
                if *op == Op::Once
                    && let Some(r) = r
                {
                    // pthread_once returns 0, also when it runs the routine
                    // (then the routine's frame is on top when it returns).
                    self.set_reg(st, t, *r, RVal::S(Value::Int(0)));
                }
                let res = self.op(st, t, *op, &a, tys, loc, ch, ev);
                match res {
                    Ok(v) => {
                        if let (Some(r), Some(v)) = (r, v) {
                            self.set_reg(st, t, *r, v);
                        }
                        return Ok(());
                    }
                    Err(e) => {
                        // Undo the pc move so a blocked op is retried.
                        if let Some(f) = st.threads[t as usize].make_mut().frames.last_mut()
                            && f.func == fid
                        {
                            f.pc = pc;
                        }
                        return Err(e);
                    }
                }
            }
        }
        if let Some(f) = st.threads[t as usize].make_mut().frames.last_mut() {
            f.pc = next;
        }
        Ok(())
    }

    pub(super) fn finish(&self, st: &mut State, t: u32, v: Value) {
        let th = st.threads[t as usize].make_mut();
        for fr in std::mem::take(&mut th.frames) {
            for o in &fr.locals {
                st.objects.remove(o);
            }
        }
        st.threads[t as usize].make_mut().status = Status::Finished(v);
    }

    pub(super) fn reg(&self, st: &State, t: u32, r: Reg) -> Option<RVal> {
        st.threads[t as usize]
            .frames
            .last()
            .and_then(|f| f.regs.get(r as usize).cloned().flatten())
    }

    pub(super) fn set_reg(&self, st: &mut State, t: u32, r: Reg, v: RVal) {
        top_frame(st, t).regs[r as usize] = Some(v);
    }
}

/// The frame thread `t` runs in, to change (the thread is copied first if
/// another state shares it).
fn top_frame(st: &mut State, t: u32) -> &mut Frame {
    st.threads[t as usize].make_mut().frames.last_mut().unwrap()
}
