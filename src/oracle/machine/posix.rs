//! The pthread and library operations, written from POSIX (and glibc
//! where POSIX leaves a choice), independently of the passes: threads and
//! joins, thread exit with key destructors, mutexes of every kind,
//! condition waits, once, keys, atomics, memory functions, exit.

use super::*;

/// The first id of a thread created past the thread bound (far above any
/// id of a thread that runs).
pub const UNSCHEDULED: u32 = 1 << 24;

/// The `pthread_t` value of thread `n`: glibc's ids are addresses and never
/// 0, and programs use a zero `pthread_t` for "no thread", so thread n's
/// value is n + 1.
fn pthread_value(n: u32) -> i128 {
    n as i128 + 1
}

/// The thread number a `pthread_t` value names (-1 for 0, no thread).
fn thread_number(v: i128) -> i128 {
    v - 1
}

impl<'p> Machine<'p> {
    /// The program ends (`exit` inside atomic code, or main's return
    /// there): no thread takes another step.
    pub(super) fn end_program(&self, st: &mut State, why: &str, loc: Loc, ev: &mut Vec<Event>) {
        if self.trace {
            ev.push(Event {
                loc,
                what: format!("the program ends: {why}"),
            });
        }
        for th in &mut st.threads {
            if th.status == Status::Running {
                th.make_mut().status = Status::Stopped(why.to_string());
            }
        }
    }

    /// Thread `t` returned from its start routine or called
    /// `pthread_exit` with `v`: its key destructors run, then it ends.
    pub(super) fn begin_exit(
        &self,
        st: &mut State,
        t: u32,
        v: Value,
        loc: Loc,
        ev: &mut Vec<Event>,
    ) -> R<()> {
        st.threads[t as usize].make_mut().exiting = Some(Exiting {
            ret: v,
            pass: 0,
            next: 0,
            seen: false,
        });
        self.continue_exit(st, t, loc, ev)
    }

    /// The next destructor of an exiting thread (POSIX: each non-NULL
    /// value is set to NULL and its key's destructor called with it;
    /// glibc: in key order, up to PTHREAD_DESTRUCTOR_ITERATIONS passes
    /// while values remain), or the thread's end.
    pub(super) fn continue_exit(
        &self,
        st: &mut State,
        t: u32,
        loc: Loc,
        ev: &mut Vec<Event>,
    ) -> R<()> {
        loop {
            let th = st.threads[t as usize].make_mut();
            let Some(mut x) = th.exiting.clone() else {
                return Ok(());
            };
            let next = th
                .keys
                .range(x.next..)
                .find(|(_, v)| truth(**v))
                .map(|(k, v)| (*k, *v));
            let Some((k, v)) = next else {
                if x.seen && x.pass + 1 < DESTRUCTOR_PASSES {
                    x.pass += 1;
                    x.next = 0;
                    x.seen = false;
                    th.exiting = Some(x);
                    continue;
                }
                th.exiting = None;
                self.exit_rule(st, t, loc, ev)?;
                self.finish(st, t, x.ret);
                return Ok(());
            };
            th.keys.insert(k, Value::Ptr(0, 0));
            x.next = k + 1;
            x.seen = true;
            th.exiting = Some(x);
            if let Some(&f) = st.key_dtors.get(&k) {
                if self.trace {
                    ev.push(Event {
                        loc,
                        what: format!(
                            "key {k}'s destructor {}({})",
                            self.p.functions[f as usize].name,
                            self.show(st, &RVal::S(v))
                        ),
                    });
                }
                return self.push_frame(
                    st,
                    t,
                    FuncId(f),
                    vec![(RVal::S(v), Ty::Void.ptr())],
                    RetTo::Dtor,
                    loc,
                );
            }
        }
    }

    /// A word of a mutex (or attribute) object; indeterminate bytes read
    /// as 0.
    pub(super) fn word(&self, st: &mut State, at: Value, off: i64, loc: Loc) -> R<i128> {
        let p = ptr_add(at, off);
        let (obj, _, o) = self.object(st, p, loc)?;
        let undef = obj
            .cells
            .range(..=o)
            .next_back()
            .is_some_and(|(_, c)| c.v == CellV::Undef);
        if undef {
            return Ok(0);
        }
        match self.read(st, p, &Ty::INT, loc, &mut Chooser::new(&[]))? {
            RVal::S(Value::Int(v)) => Ok(v),
            _ => Ok(0),
        }
    }

    pub(super) fn set_word(&self, st: &mut State, at: Value, off: i64, v: i128, loc: Loc) -> R<()> {
        self.write(st, ptr_add(at, off), &Ty::INT, RVal::S(Value::Int(v)), loc)
    }

    /// Under `--property locks`: the operation breaks rule `r` when
    /// `broken`; the step fails there, before its effect.
    fn lock_rule(
        &self,
        broken: bool,
        r: LockRule,
        what: &str,
        loc: Loc,
        ev: &mut Vec<Event>,
    ) -> R<()> {
        if !self.b.locks || !broken {
            return Ok(());
        }
        if self.trace {
            ev.push(Event {
                loc,
                what: format!("locks: {what}"),
            });
        }
        Err(Fail(StepEnd::Failed(loc, AssertKind::Lock(r))))
    }

    /// Under `locks-exit`: thread `t` took (`up`) or released one level of
    /// the lock at `x`.
    pub(super) fn hold(&self, st: &mut State, t: u32, x: Value, up: bool) {
        let Value::Ptr(o, off) = x else { return };
        if !self.b.locks_exit {
            return;
        }
        let held = &mut st.threads[t as usize].make_mut().held;
        let n = held.get(&(o, off)).copied().unwrap_or(0);
        match (up, n) {
            (true, _) => {
                held.insert((o, off), n + 1);
            }
            (false, 0) => {}
            (false, 1) => {
                held.remove(&(o, off));
            }
            (false, _) => {
                held.insert((o, off), n - 1);
            }
        }
    }

    /// Under `memtrack`, where main returns (its locals are gone): every
    /// live heap object is reached from a global (any thread's copy of a
    /// thread-local one too) or a thread-specific value (`exit` runs no
    /// key destructor and frees no thread's data) through pointers,
    /// whatever their offsets. An integer made from a pointer reaches
    /// nothing.
    pub(super) fn leak_rule(&self, st: &State, loc: Loc) -> R<()> {
        if !self.b.memtrack {
            return Ok(());
        }
        let psize = u64::from(self.dm().pointer_bits() / 8);
        let mut reached: BTreeSet<u32> = BTreeSet::new();
        let mut work: Vec<u32> = st
            .objects
            .iter()
            .filter(|(_, o)| matches!(o.kind, ObjKind::Global(_) | ObjKind::Tls(..)))
            .map(|(&id, _)| id)
            .collect();
        let heap = |to: u32| {
            st.objects
                .get(&to)
                .is_some_and(|x| x.alive && matches!(x.kind, ObjKind::Heap(_)))
        };
        for th in &st.threads {
            for v in th.keys.values() {
                if let Value::Ptr(to, _) = *v
                    && to != 0
                    && reached.insert(to)
                    && heap(to)
                {
                    work.push(to);
                }
            }
        }
        while let Some(id) = work.pop() {
            let Some(o) = st.objects.get(&id) else {
                continue;
            };
            let mut to_of: Vec<u32> = Vec::new();
            for (&at, c) in &o.cells {
                if let CellV::Val(Value::Ptr(to, _)) = c.v {
                    to_of.push(to);
                } else if c.len == 1
                    && at % psize == 0
                    && o.cells.range(at..at + psize).count() == psize as usize
                    && o.cells.range(at..at + psize).all(|(_, c)| c.len == 1)
                {
                    // A pointer copied a byte at a time (through `unsigned
                    // char`, as C allows): one-byte cells at a pointer's
                    // alignment that spell its address, as a read of them
                    // as a pointer would. Wider integers (`(uintptr_t)p`
                    // kept in two halves, a count) reach nothing.
                    if let Ok(b) = self.bytes_at(o, at, psize, loc)
                        && let Some(b) = b.into_iter().collect::<Option<Vec<u8>>>()
                        && let Ok(Value::Ptr(to, _)) =
                            self.value_from_bytes(&b, &Ty::Void.ptr(), loc)
                    {
                        to_of.push(to);
                    }
                }
            }
            for to in to_of {
                if to != 0 && reached.insert(to) && heap(to) {
                    work.push(to);
                }
            }
        }
        let lost = st
            .objects
            .iter()
            .find(|(id, o)| o.alive && matches!(o.kind, ObjKind::Heap(_)) && !reached.contains(id));
        let Some((_, o)) = lost else { return Ok(()) };
        if self.trace
            && let ObjKind::Heap(at) = o.kind
        {
            *self.said.lock().unwrap() = Some(format!(
                "valid-memtrack: the heap object allocated at {} is unreachable where main returns",
                self.p.describe(at)
            ));
        }
        Err(Fail(StepEnd::Failed(loc, AssertKind::MemTrack)))
    }

    /// Under `locks-exit`, where thread `t` ends (returns, `pthread_exit`
    /// after its destructors, main's return, `exit`): it holds no lock it
    /// took.
    pub(super) fn exit_rule(&self, st: &State, t: u32, loc: Loc, ev: &mut Vec<Event>) -> R<()> {
        let held = &st.threads[t as usize].held;
        if !self.b.locks_exit || held.is_empty() {
            return Ok(());
        }
        if self.trace {
            let names: Vec<String> = held
                .keys()
                .map(|&(o, off)| self.describe(st, Value::Ptr(o, off), &Ty::INT))
                .collect();
            ev.push(Event {
                loc,
                what: format!("locks-exit: thread {t} ends holding {}", names.join(", ")),
            });
        }
        Err(Fail(StepEnd::Failed(
            loc,
            AssertKind::Lock(LockRule::ExitHolding),
        )))
    }

    /// A semaphore, read-write lock or spinlock operation on the object
    /// `x` whose word is `v` (POSIX): the result and what the trace says.
    /// A semaphore counts; `sem_wait` waits while it is 0. A read-write
    /// lock holds any number of readers or one writer (minus the writer's
    /// number plus one); readers are let in whenever no writer holds it,
    /// and the writer's own read or write lock is EDEADLK (glibc). A
    /// spinlock is held or not. Taking a lock its holder cannot get
    /// again, and the cases POSIX leaves undefined, wait.
    /// `*pt = id` for `pthread_create`'s first argument, unless it is null.
    fn store_id(&self, st: &mut State, pt: Value, id: u32, loc: Loc) -> R<()> {
        if pt != Value::Ptr(0, 0) {
            let v = RVal::S(Value::Int(pthread_value(id)));
            self.write(st, pt, &Ty::Pthread(PthreadTy::Thread), v, loc)?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn word_op(
        &self,
        st: &mut State,
        w: WordOp,
        x: Value,
        v: i128,
        a: &[RVal],
        loc: Loc,
        name: &str,
        me: i128,
        ev: &mut Vec<Event>,
    ) -> R<(i128, String)> {
        use WordOp::*;
        // A read-write lock held for writing holds -(writer + 1).
        let writer = -(me + 1);
        let max = i32::MAX as i128;
        let wait = |why: String| -> R<(i128, String)> { Err(Fail(StepEnd::Blocked(why))) };
        // Lock discipline: a spinlock holds its owner (thread id + 1) and
        // -1 once destroyed; a read-write lock's second word is 1 once
        // destroyed.
        let spin = matches!(w, SpinLock | SpinTryLock | SpinUnlock | SpinDestroy);
        let rw = matches!(
            w,
            RwRdLock | RwWrLock | RwTryRdLock | RwTryWrLock | RwUnlock | RwDestroy
        );
        if spin || rw {
            let dead = if spin {
                v == -1
            } else {
                self.word(st, x, 4, loc)? != 0
            };
            let what = format!("{} {name}", w.c_name());
            self.lock_rule(
                dead,
                LockRule::UseDestroyed,
                &format!("{what}: destroyed"),
                loc,
                ev,
            )?;
            let broken = match w {
                SpinLock => Some((v == me + 1, LockRule::Relock, "already held by this thread")),
                RwRdLock | RwWrLock => Some((
                    v == writer,
                    LockRule::Relock,
                    "held for writing by this thread",
                )),
                SpinUnlock => Some((
                    v != me + 1,
                    LockRule::UnlockNotHeld,
                    "not held by this thread",
                )),
                RwUnlock => Some((
                    v == 0 || (v < 0 && v != writer),
                    LockRule::UnlockNotHeld,
                    "not held by this thread",
                )),
                SpinDestroy | RwDestroy => Some((v != 0, LockRule::DestroyHeld, "held")),
                _ => None,
            };
            if let Some((b, rule, why)) = broken {
                self.lock_rule(b, rule, &format!("{what}: {why}"), loc, ev)?;
            }
        }
        let arg = |i: usize| -> R<i128> {
            match a.get(i).cloned().map(|r| r.scalar(loc)).transpose()? {
                Some(Value::Int(n)) => Ok(n),
                _ => unsup("a non-integer argument", loc),
            }
        };
        Ok(match w {
            SemInit => {
                let n = arg(2)? & 0xffff_ffff;
                if n > max {
                    (
                        -1,
                        format!("sem_init {name} to {n}: above SEM_VALUE_MAX (EINVAL)"),
                    )
                } else {
                    self.set_word(st, x, 0, n, loc)?;
                    (0, format!("sem_init {name} to {n}"))
                }
            }
            SemWait if v <= 0 => return wait(format!("{name} is 0")),
            SemWait | SemTryWait if v > 0 => {
                self.set_word(st, x, 0, v - 1, loc)?;
                (0, format!("{} {name}: {} left", w.c_name(), v - 1))
            }
            SemTryWait => (-1, format!("sem_trywait {name}: 0 (EAGAIN)")),
            SemPost if v >= max => (-1, format!("sem_post {name}: at SEM_VALUE_MAX (EOVERFLOW)")),
            SemPost => {
                self.set_word(st, x, 0, v + 1, loc)?;
                (0, format!("sem_post {name}: {}", v + 1))
            }
            SemGetValue => {
                let to = a
                    .get(1)
                    .cloned()
                    .ok_or(())
                    .or_else(|_| unsup("sem_getvalue without a result pointer", loc))?
                    .scalar(loc)?;
                self.write(st, to, &Ty::INT, RVal::S(Value::Int(v)), loc)?;
                (0, format!("sem_getvalue {name} = {v}"))
            }
            RwInit | SpinInit => {
                self.set_word(st, x, 0, 0, loc)?;
                if w == RwInit {
                    self.set_word(st, x, 4, 0, loc)?;
                }
                (0, format!("{} {name}", w.c_name()))
            }
            SpinDestroy if self.b.locks => {
                self.set_word(st, x, 0, -1, loc)?;
                (0, format!("{} {name}", w.c_name()))
            }
            RwDestroy if self.b.locks => {
                self.set_word(st, x, 4, 1, loc)?;
                (0, format!("{} {name}", w.c_name()))
            }
            SemDestroy | RwDestroy | SpinDestroy => (0, format!("{} {name}", w.c_name())),
            // glibc: the writer's own read or write lock is EDEADLK.
            RwRdLock | RwWrLock if v == writer => (
                EDEADLK,
                format!(
                    "{} {name}: held for writing by this thread (EDEADLK)",
                    w.c_name()
                ),
            ),
            RwRdLock if v < 0 => return wait(format!("{name} is held for writing")),
            RwRdLock | RwTryRdLock if v >= 0 => {
                self.set_word(st, x, 0, v + 1, loc)?;
                (0, format!("read-lock {name} ({} readers)", v + 1))
            }
            RwTryRdLock => (EBUSY, format!("tryrdlock {name}: held for writing (EBUSY)")),
            RwWrLock | SpinLock if v != 0 => return wait(format!("{name} is held")),
            RwWrLock | RwTryWrLock if v == 0 => {
                self.set_word(st, x, 0, writer, loc)?;
                self.hold(st, me as u32, x, true);
                (0, format!("write-lock {name}"))
            }
            SpinLock | SpinTryLock if v == 0 => {
                self.set_word(st, x, 0, me + 1, loc)?;
                self.hold(st, me as u32, x, true);
                (0, format!("lock {name}"))
            }
            RwTryWrLock | SpinTryLock => (EBUSY, format!("{} {name}: held (EBUSY)", w.c_name())),
            RwUnlock => {
                if v == writer {
                    self.hold(st, me as u32, x, false);
                }
                let n = if v < 0 { 0 } else { (v - 1).max(0) };
                self.set_word(st, x, 0, n, loc)?;
                (0, format!("unlock {name}"))
            }
            SpinUnlock => {
                if v == me + 1 {
                    self.hold(st, me as u32, x, false);
                }
                self.set_word(st, x, 0, 0, loc)?;
                (0, format!("unlock {name}"))
            }
            // A barrier: its count, the threads arrived in this cycle and
            // the cycle number, in three words. `wait` is two steps: the
            // arrival (here; its result is the cycle to wait out, or -1
            // for the last to arrive) and the pass (`barrier_pass`).
            BarrierInit => {
                let n = arg(2)? & 0xffff_ffff;
                if n == 0 {
                    (
                        EINVAL,
                        format!("pthread_barrier_init {name}: count 0 (EINVAL)"),
                    )
                } else {
                    self.set_word(st, x, 0, n, loc)?;
                    self.set_word(st, x, 4, 0, loc)?;
                    (0, format!("pthread_barrier_init {name} for {n} threads"))
                }
            }
            BarrierWait => {
                let n = self.word(st, x, 0, loc)?;
                if n <= 0 {
                    return wait(format!("{name} is not initialised"));
                }
                let arrived = self.word(st, x, 4, loc)? + 1;
                let cycle = self.word(st, x, 8, loc)?;
                if arrived >= n {
                    self.set_word(st, x, 4, 0, loc)?;
                    self.set_word(st, x, 8, cycle + 1, loc)?;
                    (-1, format!("arrive at {name}: the last of {n}, all pass"))
                } else {
                    self.set_word(st, x, 4, arrived, loc)?;
                    (cycle, format!("arrive at {name}: {arrived} of {n}"))
                }
            }
            BarrierDestroy => (0, format!("pthread_barrier_destroy {name}")),
            RwRdLock | RwWrLock | SpinLock | SemWait => unreachable!("guarded above"),
        })
    }

    /// The second step of `pthread_barrier_wait`: `cycle` is what the
    /// arrival returned (-1: it was the last, PTHREAD_BARRIER_SERIAL_THREAD).
    /// The others wait until the barrier's cycle has moved on.
    pub(super) fn barrier_pass(
        &self,
        st: &mut State,
        b: Value,
        cycle: i128,
        loc: Loc,
        ev: &mut Vec<Event>,
    ) -> R<i128> {
        if cycle < 0 {
            return Ok(-1);
        }
        let name = self.describe(st, b, &Ty::Pthread(PthreadTy::Barrier));
        if self.word(st, b, 8, loc)? == cycle {
            return Err(Fail(StepEnd::Blocked(format!(
                "{name}: not every thread has arrived"
            ))));
        }
        if self.trace {
            ev.push(Event {
                loc,
                what: format!("pass {name}"),
            });
        }
        Ok(0)
    }

    /// The mutex at `m` was destroyed (`MX_DESTROYED`, kept only under
    /// `--property locks`) and not initialised since.
    fn mutex_destroyed(&self, st: &mut State, m: Value, loc: Loc) -> R<bool> {
        Ok(self.word(st, m, MX_KIND, loc)? & MX_DESTROYED != 0)
    }

    /// Under `--property locks`: `what` (an operation on the mutex at
    /// `m`) breaks the rule when the mutex is destroyed.
    fn destroyed_rule(
        &self,
        st: &mut State,
        m: Value,
        what: &str,
        how: &str,
        loc: Loc,
        ev: &mut Vec<Event>,
    ) -> R<()> {
        let dead = self.mutex_destroyed(st, m, loc)?;
        self.lock_rule(
            dead,
            LockRule::UseDestroyed,
            &format!("{what}, {how}"),
            loc,
            ev,
        )
    }

    /// Owner, count and kind of the mutex at `m`.
    pub(super) fn mutex(&self, st: &mut State, m: Value, loc: Loc) -> R<(i128, i128, i128)> {
        Ok((
            self.word(st, m, MX_OWNER, loc)?,
            self.word(st, m, MX_COUNT, loc)?,
            self.word(st, m, MX_KIND, loc)? & 3,
        ))
    }

    pub(super) fn set_mutex(
        &self,
        st: &mut State,
        m: Value,
        owner: i128,
        count: i128,
        loc: Loc,
    ) -> R<()> {
        self.set_word(st, m, MX_OWNER, owner, loc)?;
        self.set_word(st, m, MX_COUNT, count, loc)
    }

    /// The second half of a condition wait: `state` 0 the mutex was
    /// released, 1 it is still held (a recursive mutex held more than
    /// once), 2 the wait was refused (EPERM), 3 a timed wait's time was
    /// invalid (EINVAL).
    pub(super) fn relock(
        &self,
        st: &mut State,
        t: u32,
        m: Value,
        state: i128,
        loc: Loc,
        ev: &mut Vec<Event>,
    ) -> R<i128> {
        let me = t as i128 + 1;
        let name = self.describe(st, m, &Ty::Pthread(PthreadTy::Mutex));
        match state {
            2 => Ok(EPERM),
            3 => Ok(EINVAL),
            1 => {
                let (_, count, _) = self.mutex(st, m, loc)?;
                self.set_mutex(st, m, me, count + 1, loc)?;
                self.hold(st, t, m, true);
                Ok(0)
            }
            _ => {
                let (owner, _, _) = self.mutex(st, m, loc)?;
                if owner != 0 {
                    return Err(Fail(StepEnd::Blocked(format!(
                        "{name} is held by thread {}",
                        owner - 1
                    ))));
                }
                self.set_mutex(st, m, me, 1, loc)?;
                self.hold(st, t, m, true);
                if self.trace {
                    ev.push(Event {
                        loc,
                        what: format!("wakes up and locks {name}"),
                    });
                }
                Ok(0)
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn op(
        &self,
        st: &mut State,
        t: u32,
        op: Op,
        a: &[RVal],
        tys: &[Ty],
        loc: Loc,
        ch: &mut Chooser,
        ev: &mut Vec<Event>,
    ) -> R<Option<RVal>> {
        let s = |i: usize| -> R<Value> { a[i].clone().scalar(loc) };
        let int = |v: i128| Some(RVal::S(Value::Int(v)));
        let me = t as i128;
        let pointee = |i: usize| -> Ty {
            tys.get(i)
                .and_then(|t| t.pointee().cloned())
                .unwrap_or(Ty::INT)
        };
        let mut say = |what: String| ev.push(Event { loc, what });
        Ok(match op {
            Op::RoundInit | Op::RoundCheck => {
                return unsup("seqc's own round operations", loc);
            }
            Op::Word(w) => {
                let x = s(0)?;
                let name = self.describe(st, x, &Ty::Pthread(w.object()));
                let v = self.word(st, x, 0, loc)?;
                let mut broke = Vec::new();
                let r = self.word_op(st, w, x, v, a, loc, &name, me, &mut broke);
                for e in broke {
                    say(e.what);
                }
                let (res, what) = r?;
                if self.trace {
                    say(what);
                }
                int(res)
            }
            Op::ThreadCreate => {
                let key = (loc.file.0, loc.line, loc.col);
                let n = st.site_counts.get(&key).copied().unwrap_or(0);
                st.site_counts.insert(key, n + 1);
                if n >= self.b.threads {
                    // Past the thread bound the thread is made but never
                    // scheduled: the run ends before its first step.
                    if !matches!(s(2)?, Value::Func(_) | Value::Ptr(0, 0) | Value::Int(0)) {
                        return unsup(
                            "pthread_create with a start routine that is not a function",
                            loc,
                        );
                    }
                    let id = UNSCHEDULED + st.unscheduled;
                    st.unscheduled += 1;
                    let attr = s(1)?;
                    if attr != Value::Ptr(0, 0) && self.word(st, attr, 0, loc)? & 1 != 0 {
                        st.unscheduled_detached.insert(id);
                    }
                    self.store_id(st, s(0)?, id, loc)?;
                    if self.trace {
                        say(format!(
                            "create thread {id}, never scheduled (thread bound {} reached here)",
                            self.b.threads
                        ));
                    }
                    return Ok(int(0));
                }
                let f = match s(2)? {
                    Value::Func(f) => Some(f),
                    // A null start routine: the thread would fault at its
                    // first step, ending the process; every run in which
                    // it has not been scheduled yet is real, so it never
                    // runs (as a thread past the bound).
                    Value::Ptr(0, 0) | Value::Int(0) => None,
                    _ => {
                        return unsup(
                            "pthread_create with a start routine that is not a function",
                            loc,
                        );
                    }
                };
                let id = st.threads.len() as u32;
                let rank = self.child_rank(st, t, loc);
                let Some(f) = f else {
                    let mut th = Thread::new(st.threads[t as usize].func, Some(t), rank);
                    th.status = Status::Stopped("its start routine is a null pointer".into());
                    st.threads.push(Shared::new(th));
                    self.store_id(st, s(0)?, id, loc)?;
                    if self.trace {
                        say(format!(
                            "create thread {id} with a null start routine: it never runs"
                        ));
                    }
                    return Ok(int(0));
                };
                let attr = s(1)?;
                let detached = attr != Value::Ptr(0, 0) && self.word(st, attr, 0, loc)? & 1 != 0;
                st.threads
                    .push(Shared::new(Thread::new(FuncId(f), Some(t), rank)));
                st.threads[id as usize].make_mut().detached = detached;
                let arg = a[3].clone();
                self.init_tls(st, id)?;
                self.push_frame(
                    st,
                    id,
                    FuncId(f),
                    vec![(arg, Ty::Void.ptr())],
                    RetTo::Thread,
                    loc,
                )?;
                self.store_id(st, s(0)?, id, loc)?;
                if self.trace {
                    ev.push(Event {
                        loc,
                        what: format!(
                            "create thread {id} running {}",
                            self.p.functions[f as usize].name
                        ),
                    });
                }
                int(0)
            }
            Op::ThreadJoin => {
                let Value::Int(v) = s(0)? else {
                    return unsup("pthread_join of a value that is not a thread id", loc);
                };
                let id = thread_number(v);
                let detached_unscheduled =
                    u32::try_from(id).is_ok_and(|i| st.unscheduled_detached.contains(&i));
                if detached_unscheduled || st.threads.get(id as usize).is_some_and(|th| th.detached)
                {
                    // glibc; joining a detached thread is undefined in POSIX.
                    if self.trace {
                        say(format!("join thread {id}: detached (EINVAL)"));
                    }
                    return Ok(int(EINVAL));
                }
                if id == me {
                    // glibc (POSIX: undefined), after the detached test.
                    if self.trace {
                        say("join of the thread itself (EDEADLK)".into());
                    }
                    return Ok(int(EDEADLK));
                }
                if st.threads.get(id as usize).is_some_and(|th| th.exited) {
                    return Err(Fail(StepEnd::Blocked(
                        "pthread_join: main returned, which ended the program".into(),
                    )));
                }
                let target = st.threads.get(id as usize).map(|th| th.status.clone());
                let Some(Status::Finished(rv)) = target else {
                    return Err(Fail(StepEnd::Blocked(format!(
                        "pthread_join: thread {id} has not returned"
                    ))));
                };
                let rp = s(1)?;
                if rp != Value::Ptr(0, 0) {
                    self.write(st, rp, &Ty::Void.ptr(), RVal::S(rv), loc)?;
                }
                if self.trace {
                    say(format!(
                        "join thread {id} (returned {})",
                        self.show(st, &RVal::S(rv))
                    ));
                }
                int(0)
            }
            Op::ThreadExit => {
                let v = s(0)?;
                if self.trace {
                    say(format!("pthread_exit({})", self.show(st, &RVal::S(v))));
                }
                self.begin_exit(st, t, v, loc, ev)?;
                None
            }
            Op::ThreadDetach => {
                let Value::Int(v) = s(0)? else {
                    return unsup("pthread_detach of a value that is not a thread id", loc);
                };
                let id = thread_number(v);
                let unscheduled =
                    (UNSCHEDULED as i128..(UNSCHEDULED + st.unscheduled) as i128).contains(&id);
                match st.threads.get_mut(id as usize) {
                    None if unscheduled => {
                        if st.unscheduled_detached.insert(id as u32) {
                            int(0)
                        } else {
                            int(EINVAL)
                        }
                    }
                    None => int(ESRCH),
                    Some(th) if th.detached => int(EINVAL),
                    Some(th) => {
                        th.make_mut().detached = true;
                        if self.trace {
                            say(format!("detach thread {id}"));
                        }
                        int(0)
                    }
                }
            }
            Op::ThreadSelf => int(pthread_value(me as u32)),
            Op::ThreadEqual => int((s(0)? == s(1)?) as i128),
            Op::MutexInit => {
                let (m, attr) = (s(0)?, s(1)?);
                let kind = if attr != Value::Ptr(0, 0) {
                    self.word(st, attr, 0, loc)? & 3
                } else {
                    0
                };
                self.set_mutex(st, m, 0, 0, loc)?;
                self.set_word(st, m, MX_KIND, kind, loc)?;
                int(0)
            }
            Op::MutexUnlock => {
                let m = s(0)?;
                let (owner, count, kind) = self.mutex(st, m, loc)?;
                let name = self.describe(st, m, &Ty::Pthread(PthreadTy::Mutex));
                let what = format!("unlock of {name}");
                self.destroyed_rule(st, m, &what, "destroyed", loc, ev)?;
                let why = match owner {
                    0 => "which is not locked".to_string(),
                    o => format!("held by thread {}", o - 1),
                };
                let theirs = owner != me + 1;
                self.lock_rule(
                    theirs,
                    LockRule::UnlockNotHeld,
                    &format!("{what}, {why}"),
                    loc,
                    ev,
                )?;
                if owner == me + 1 {
                    self.hold(st, t, m, false);
                }
                let mut say = |what: String| ev.push(Event { loc, what });
                if owner == me + 1 && kind == RECURSIVE && count > 1 {
                    self.set_mutex(st, m, owner, count - 1, loc)?;
                } else if owner == me + 1 || (kind != RECURSIVE && kind != ERRORCHECK) {
                    // A normal mutex unlocked by another thread: undefined
                    // in POSIX; it is released.
                    self.set_mutex(st, m, 0, 0, loc)?;
                } else {
                    if self.trace {
                        say(format!("unlock {name}: not the owner (EPERM)"));
                    }
                    return Ok(int(EPERM));
                }
                if self.trace {
                    say(format!("unlock {name}"));
                }
                int(0)
            }
            Op::MutexLock | Op::MutexTryLock | Op::MutexTimedLock => {
                let m = s(0)?;
                let (owner, count, kind) = self.mutex(st, m, loc)?;
                let name = self.describe(st, m, &Ty::Pthread(PthreadTy::Mutex));
                let mine = owner == me + 1;
                let what = format!("lock of {name}");
                self.destroyed_rule(st, m, &what, "destroyed", loc, ev)?;
                let again = op != Op::MutexTryLock && mine && kind != RECURSIVE;
                let held = format!("{what}, already held by this thread");
                self.lock_rule(again, LockRule::Relock, &held, loc, ev)?;
                let mut say = |what: String| ev.push(Event { loc, what });
                let (res, what) = if owner == 0 {
                    self.set_mutex(st, m, me + 1, 1, loc)?;
                    self.hold(st, t, m, true);
                    (0, "")
                } else if mine && kind == RECURSIVE {
                    if count >= MX_COUNT_MAX {
                        (EAGAIN, ": too many times (EAGAIN)")
                    } else {
                        self.set_mutex(st, m, owner, count + 1, loc)?;
                        self.hold(st, t, m, true);
                        (0, " again")
                    }
                } else if op == Op::MutexTryLock {
                    (EBUSY, ": busy")
                } else if mine && kind == ERRORCHECK {
                    (EDEADLK, ": already held by this thread (EDEADLK)")
                } else if op == Op::MutexTimedLock {
                    // It would wait: time is not modelled, so the wait may
                    // outlast any time (taking the lock after a wait is
                    // the same step taken later).
                    match a.get(2).cloned().map(|v| v.scalar(loc)).transpose()? {
                        Some(Value::Int(0)) => {
                            (EINVAL, ": held, and tv_nsec is out of range (EINVAL)")
                        }
                        _ => (ETIMEDOUT, ": held; the wait times out (ETIMEDOUT)"),
                    }
                } else if mine {
                    // A normal mutex relocked by its holder: deadlock.
                    return Err(Fail(StepEnd::Blocked(format!(
                        "{name} is held by this thread"
                    ))));
                } else {
                    return Err(Fail(StepEnd::Blocked(format!(
                        "{name} is held by thread {}",
                        owner - 1
                    ))));
                };
                if self.trace {
                    let verb = if op == Op::MutexLock {
                        "lock"
                    } else {
                        "trylock"
                    };
                    say(format!("{verb} {name}{what}"));
                }
                int(res)
            }
            Op::CondWait | Op::CondTimedWait => {
                // The first half: release the mutex (see `relock`).
                let m = s(1)?;
                let (owner, count, kind) = self.mutex(st, m, loc)?;
                let name = self.describe(st, m, &Ty::Pthread(PthreadTy::Mutex));
                let what = format!("condition wait with {name}");
                self.destroyed_rule(st, m, &what, "destroyed", loc, ev)?;
                let theirs = owner != me + 1;
                let why = format!("{what}, which this thread does not hold");
                self.lock_rule(theirs, LockRule::WaitNotHeld, &why, loc, ev)?;
                // A timed wait: its time's validity (from the front end),
                // checked before anything (glibc); TIMED marks the state.
                let timed = op == Op::CondTimedWait;
                if timed
                    && matches!(
                        a.get(3).cloned().map(|v| v.scalar(loc)).transpose()?,
                        Some(Value::Int(0))
                    )
                {
                    if self.trace {
                        ev.push(Event {
                            loc,
                            what: format!("timed wait on {name}: tv_nsec is out of range (EINVAL)"),
                        });
                    }
                    return Ok(int(3));
                }
                if !theirs {
                    self.hold(st, t, m, false);
                }
                let mut say = |what: String| ev.push(Event { loc, what });
                let strict = kind == RECURSIVE || kind == ERRORCHECK;
                let state = if owner != me + 1 && strict {
                    2
                } else if kind == RECURSIVE && count > 1 {
                    // glibc: one level released; the mutex stays held.
                    self.set_mutex(st, m, owner, count - 1, loc)?;
                    1
                } else {
                    self.set_mutex(st, m, 0, 0, loc)?;
                    0
                };
                if self.trace {
                    say(match state {
                        2 => format!("wait on {name}: not the owner (EPERM)"),
                        _ => format!("wait: unlock {name}"),
                    });
                }
                int(if timed && state != 2 {
                    state | TIMED
                } else {
                    state
                })
            }
            Op::MutexDestroy if self.b.locks => {
                let m = s(0)?;
                let (owner, _, kind) = self.mutex(st, m, loc)?;
                let name = self.describe(st, m, &Ty::Pthread(PthreadTy::Mutex));
                let what = format!("destroy of {name}");
                self.destroyed_rule(st, m, &what, "destroyed already", loc, ev)?;
                let held = format!("{what}, held by thread {}", owner - 1);
                self.lock_rule(owner != 0, LockRule::DestroyHeld, &held, loc, ev)?;
                self.set_word(st, m, MX_KIND, kind | MX_DESTROYED, loc)?;
                int(0)
            }
            Op::MutexDestroy => {
                // glibc: EBUSY for a held mutex, or one a thread waits on
                // in a condition wait; the mutex stays as it was.
                let m = s(0)?;
                let (owner, _, _) = self.mutex(st, m, loc)?;
                int(if owner != 0 || self.waits_on(st, t, m) {
                    EBUSY
                } else {
                    0
                })
            }
            Op::CondInit
            | Op::CondDestroy
            | Op::CondSignal
            | Op::CondBroadcast
            | Op::AttrNoop(_) => int(0),
            Op::KeyDelete => {
                let Value::Int(k) = s(0)? else {
                    return unsup("pthread key", loc);
                };
                if k < 0 || k >= st.next_key as i128 {
                    int(EINVAL)
                } else {
                    // Its destructor no longer runs.
                    st.key_dtors.remove(&(k as u32));
                    int(0)
                }
            }
            Op::Once => {
                let ctl = s(0)?;
                let cur = match self.read(st, ctl, &Ty::INT, loc, &mut Chooser::new(&[])) {
                    Ok(RVal::S(Value::Int(v))) => v,
                    _ => 0,
                };
                match cur {
                    0 => {
                        self.write(st, ctl, &Ty::INT, RVal::S(Value::Int(1)), loc)?;
                        let Value::Func(f) = s(1)? else {
                            return unsup(
                                "pthread_once with a routine that is not a function",
                                loc,
                            );
                        };
                        if self.trace {
                            say("pthread_once: runs the routine".into());
                        }
                        self.push_frame(st, t, FuncId(f), vec![], RetTo::Once(ctl), loc)?;
                        None
                    }
                    1 => {
                        return Err(Fail(StepEnd::Blocked("pthread_once in progress".into())));
                    }
                    _ => int(0),
                }
            }
            Op::KeyCreate => {
                let k = st.next_key;
                st.next_key += 1;
                if let Value::Func(f) = s(1)? {
                    st.key_dtors.insert(k, f);
                }
                let pk = s(0)?;
                self.write(st, pk, &Ty::UINT, RVal::S(Value::Int(k as i128)), loc)?;
                int(0)
            }
            Op::GetSpecific => {
                let Value::Int(k) = s(0)? else {
                    return unsup("pthread key", loc);
                };
                let v = st.threads[t as usize]
                    .keys
                    .get(&(k as u32))
                    .copied()
                    .unwrap_or(Value::Ptr(0, 0));
                Some(RVal::S(v))
            }
            Op::SetSpecific => {
                let Value::Int(k) = s(0)? else {
                    return unsup("pthread key", loc);
                };
                let v = s(1)?;
                st.threads[t as usize].make_mut().keys.insert(k as u32, v);
                int(0)
            }
            Op::AtomicBegin => {
                st.threads[t as usize].make_mut().atomic_depth += 1;
                if self.trace {
                    say("atomic section begins".into());
                }
                None
            }
            Op::AtomicEnd => {
                let th = st.threads[t as usize].make_mut();
                th.atomic_depth = th.atomic_depth.saturating_sub(1);
                if self.trace {
                    say("atomic section ends".into());
                }
                None
            }
            Op::AtomicLoad => {
                let p = s(0)?;
                let ty = pointee(0);
                let v = self.read(st, p, &ty, loc, ch)?;
                if self.trace {
                    say(format!(
                        "atomic read {} = {}",
                        self.describe(st, p, &ty),
                        self.show(st, &v)
                    ));
                }
                Some(v)
            }
            Op::AtomicStore => {
                let p = s(0)?;
                let ty = pointee(0);
                self.write(st, p, &ty, a[1].clone(), loc)?;
                if self.trace {
                    say(format!(
                        "atomic write {} = {}",
                        self.describe(st, p, &ty),
                        self.show(st, &a[1])
                    ));
                }
                None
            }
            Op::AtomicExchange
            | Op::AtomicFetch(_)
            | Op::AtomicFetchThen(_)
            | Op::AtomicCasBool
            | Op::AtomicCasVal
            | Op::AtomicCompareExchange => {
                let p = s(0)?;
                let ty = pointee(0).unqual().clone();
                let old = self.read(st, p, &ty, loc, ch)?.scalar(loc)?;
                let (new, result) = match op {
                    Op::AtomicExchange => (Some(s(1)?), RVal::S(old)),
                    Op::AtomicFetch(rmw) | Op::AtomicFetchThen(rmw) => {
                        let bop = match rmw {
                            AtomicRmw::Add => BinOp::Add,
                            AtomicRmw::Sub => BinOp::Sub,
                            AtomicRmw::And => BinOp::BitAnd,
                            AtomicRmw::Or => BinOp::BitOr,
                            AtomicRmw::Xor => BinOp::BitXor,
                        };
                        let n = if ty.is_pointer() {
                            let bop = if rmw == AtomicRmw::Add {
                                BinOp::PtrAdd
                            } else {
                                BinOp::PtrSub
                            };
                            self.binop(bop, old, s(1)?, &ty, &Ty::LONG, &ty, loc, ch)?
                        } else {
                            self.binop(bop, old, s(1)?, &ty, &ty, &ty, loc, ch)?
                        };
                        let r = if matches!(op, Op::AtomicFetch(_)) {
                            old
                        } else {
                            n
                        };
                        (Some(n), RVal::S(r))
                    }
                    Op::AtomicCasBool | Op::AtomicCasVal => {
                        let eq = old == s(1)?;
                        let r = if op == Op::AtomicCasBool {
                            Value::Int(eq as i128)
                        } else {
                            old
                        };
                        (if eq { Some(s(2)?) } else { None }, RVal::S(r))
                    }
                    _ => {
                        // C11 compare_exchange(p, expected*, desired).
                        let ep = s(1)?;
                        let exp = self.read(st, ep, &ty, loc, ch)?.scalar(loc)?;
                        if old == exp {
                            (Some(s(2)?), RVal::S(Value::Int(1)))
                        } else {
                            self.write(st, ep, &ty, RVal::S(old), loc)?;
                            (None, RVal::S(Value::Int(0)))
                        }
                    }
                };
                if let Some(n) = new {
                    self.write(st, p, &ty, RVal::S(n), loc)?;
                }
                if self.trace {
                    ev.push(Event {
                        loc,
                        what: format!(
                            "{} on {}: {} -> {}",
                            op.c_name(),
                            self.describe(st, p, &ty),
                            self.show(st, &RVal::S(old)),
                            self.show(st, &RVal::S(new.unwrap_or(old)))
                        ),
                    });
                }
                Some(result)
            }
            Op::Fence => None,
            Op::Malloc | Op::Calloc => {
                let Value::Int(n) = s(0)? else {
                    return unsup("malloc of a non-integer size", loc);
                };
                let n = if op == Op::Calloc {
                    let Value::Int(m) = s(1)? else {
                        return unsup("calloc of a non-integer size", loc);
                    };
                    n * m
                } else {
                    n
                };
                if !(0..=1 << 20).contains(&n) {
                    return unsup("an allocation of more than 1 MiB", loc);
                }
                let n = n as u64;
                let cells = if op == Op::Calloc {
                    span(n, CellV::Zero)
                } else {
                    span(n, CellV::Undef)
                };
                let id = self.new_obj(
                    st,
                    t,
                    Object {
                        kind: ObjKind::Heap(loc),
                        size: n,
                        shared: true,
                        alive: true,
                        cells,
                    },
                );
                Some(RVal::S(Value::Ptr(id, 0)))
            }
            Op::Free if !self.b.memsafety => {
                // The object's lifetime ends; nothing else is looked at.
                if let Value::Ptr(o, _) = s(0)?
                    && o != 0
                    && let Some(obj) = st.objects.get_mut(&o)
                {
                    obj.make_mut().alive = false;
                }
                None
            }
            Op::Free => {
                let p = s(0)?;
                let bad = |what| self.memory_error(what, AssertKind::InvalidFree, loc);
                match p {
                    Value::Ptr(0, 0) => {}
                    Value::Ptr(o, off) if o != 0 => match st.objects.get_mut(&o) {
                        Some(obj) if !matches!(obj.kind, ObjKind::Heap(_)) => {
                            bad("free of memory that malloc did not give")?
                        }
                        Some(obj) if !obj.alive => bad("a second free of the same memory")?,
                        Some(_) if off != 0 => bad("free of a pointer into a heap object")?,
                        Some(obj) => obj.make_mut().alive = false,
                        None => bad("free of an object whose lifetime ended")?,
                    },
                    _ => bad("free of a pointer that points to no object")?,
                }
                None
            }
            Op::Memset => {
                let p = s(0)?;
                let (Value::Int(c), Value::Int(n)) = (s(1)?, s(2)?) else {
                    return unsup("memset arguments", loc);
                };
                if n == 0 && self.b.memsafety {
                    return Ok(Some(RVal::S(p)));
                }
                if c & 0xff == 0 {
                    self.fill(st, p, n as u64, CellV::Zero, loc)?;
                } else if n <= 1 << 16 {
                    // Every byte its own cell: reads put them together.
                    let b = CellV::Val(Value::Int(c & 0xff));
                    let cells = (0..n as u64).map(|i| (i, Cell { len: 1, v: b })).collect();
                    self.write_cells(st, p, n as u64, cells, loc)?;
                } else {
                    return unsup("memset of more than 65536 bytes with a non-zero byte", loc);
                }
                Some(RVal::S(p))
            }
            Op::Memcpy => {
                let (d, src) = (s(0)?, s(1)?);
                let Value::Int(n) = s(2)? else {
                    return unsup("memcpy size", loc);
                };
                if n == 0 && self.b.memsafety {
                    // Nothing is read or written.
                    return Ok(Some(RVal::S(d)));
                }
                let cells = self.read_cells(st, src, n as u64, loc)?;
                self.write_cells(st, d, n as u64, cells, loc)?;
                Some(RVal::S(d))
            }
            Op::Exit if self.b.locks_exit && !st.threads[t as usize].held.is_empty() => {
                self.exit_rule(st, t, loc, ev)?;
                None
            }
            Op::Abort | Op::Exit if self.in_atomic(&st.threads[t as usize]) => {
                let why = if op == Op::Abort { "abort()" } else { "exit()" };
                self.end_program(st, &format!("{why} inside atomic code"), loc, ev);
                None
            }
            Op::Abort | Op::Exit => {
                // The other threads go on: any step they take after the
                // exit could have been taken before it.
                let why = if op == Op::Abort { "abort()" } else { "exit()" };
                if self.trace {
                    say(format!("thread stops: {why}"));
                }
                st.threads[t as usize].make_mut().status = Status::Stopped(why.into());
                None
            }
            Op::LibNoop(_) => Some(RVal::S(Value::Int(0))),
        })
    }
}

impl Machine<'_> {
    /// The rank (`Thread::rank`) of the next thread creator `t` makes at
    /// the site at `loc`.
    fn child_rank(&self, st: &State, t: u32, loc: Loc) -> Rc<[u32]> {
        let pos = self.code.site_pos.get(&loc).copied().unwrap_or(0);
        let mut r = Vec::with_capacity(st.threads[t as usize].rank.len() + 2);
        r.push(pos);
        r.extend_from_slice(&st.threads[t as usize].rank);
        let n = st
            .threads
            .iter()
            .filter(|x| x.rank.len() == r.len() + 1 && x.rank.starts_with(&r))
            .count();
        r.push(n as u32);
        r.into()
    }
}
