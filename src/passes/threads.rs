//! The pthread model, written once for both sequentializations: joins,
//! `pthread_exit`, mutexes, condition variables, `pthread_once`, keys,
//! atomic sections, `exit` and `abort` become plain IR over the thread
//! bookkeeping (DESIGN.md §2, §3).
//!
//! A method says only what differs between KISS and Lal–Reps (`Method`):
//! how the running thread stops for good (Lal–Reps moves to the sink round
//! and goes on; KISS raises and returns), how a stop leaves the function,
//! what a switch (schedule) point is, and what must follow a call of code
//! that may stop the thread. Thread creation, memory and the atomic
//! read-modify-write operations stay with each method, which keeps its own
//! slots and memory model.
//!
//! Pre: normalised, bounded and retyped IR (pthread objects are integers:
//! a mutex holds 0 when free and 1 when held). The expansion of an
//! operation is used as the thread's step at that point: the method has
//! placed the switch point before it.

use crate::ir::build::*;
use crate::ir::*;

/// The globals of the thread bookkeeping that the model reads and writes.
#[derive(Clone, Copy)]
pub(crate) struct Book {
    /// The running thread's id (its slot in Lal–Reps).
    pub tid: GlobalId,
    /// Non-zero inside an atomic section.
    pub atomic: GlobalId,
    /// Per thread: returned (or called `pthread_exit`), and with what.
    pub done: GlobalId,
    pub ret: GlobalId,
    /// pthread keys made so far, and each thread's values for them.
    pub key_n: GlobalId,
    pub keys: GlobalId,
    /// Thread ids are below this.
    pub nslots: u64,
}

/// pthread keys a program may create (POSIX guarantees 128; tasks use 1-2).
pub(crate) const KEYS: u64 = 8;

/// What a sequentialization provides to the shared model.
pub(crate) trait Method {
    fn book(&self) -> Book;
    /// A fresh local of the function being rewritten.
    fn temp(&mut self, name: &str, ty: Ty) -> LocalId;
    /// Records an unsupported construct (the first one wins).
    fn fail(&mut self, what: String, loc: Loc);
    /// `if (c)` the running thread stops for good.
    fn stop_if(&mut self, p: &Program, c: Expr, loc: Loc) -> Stmt;
    /// `ok` unless one of `conds` holds (tested in order), in which case
    /// the thread stops instead.
    fn unless(&mut self, p: &Program, conds: Vec<Expr>, ok: Vec<Stmt>, loc: Loc) -> Vec<Stmt>;
    /// The thread stops for good and leaves the function.
    fn stop_and_leave(&mut self, p: &Program, loc: Loc) -> Vec<Stmt>;
    /// A point where other threads may run before this one goes on.
    fn switch_point(&mut self, p: &Program, loc: Loc) -> Vec<Stmt>;
    /// After a call of code that may stop the running thread.
    fn after_call(&mut self, p: &Program, loc: Loc) -> Vec<Stmt>;
}

/// Expands `op` when the model covers it; `false` leaves it to the method.
pub(crate) fn expand(
    m: &mut impl Method,
    p: &Program,
    dest: &Option<Expr>,
    op: Op,
    args: &[Expr],
    loc: Loc,
    out: &mut Vec<Stmt>,
) -> bool {
    let set_dest = |out: &mut Vec<Stmt>, v: Expr| {
        if let Some(d) = dest {
            out.push(assign(d.clone(), v, loc));
        }
    };
    let zero = int(0, Ty::INT, loc);
    let one = int(1, Ty::INT, loc);
    let u = Ty::UINT;
    let arg = |i: usize| args.get(i).cloned().unwrap_or(int(0, Ty::INT, loc));
    let b = m.book();
    match op {
        Op::ThreadJoin => {
            let t = m.temp("__seqc_j", u.clone());
            let tv = lv_local(t, u.clone(), loc);
            out.push(st(StmtKind::Decl(t, None), loc));
            out.push(assign(tv.clone(), cast(arg(0), u.clone(), loc), loc));
            let idx = |a: GlobalId| index(glob(p, a, loc), tv.clone(), loc);
            // Only a thread that returned can be joined.
            let rp = arg(1);
            let store = assign(
                deref(cast(rp.clone(), Ty::Void.ptr().ptr(), loc), loc),
                idx(b.ret),
                loc,
            );
            let mut ok = if_nonnull(&rp, vec![store], loc);
            set_dest(&mut ok, zero.clone());
            let bad = cmp(
                BinOp::Ge,
                tv.clone(),
                int(b.nslots as i128, u.clone(), loc),
                loc,
            );
            let running = cmp(BinOp::Eq, idx(b.done), zero.clone(), loc);
            out.extend(m.unless(p, vec![bad, running], ok, loc));
        }
        Op::ThreadExit => {
            let tv = glob(p, b.tid, loc);
            let idx = |a: GlobalId| index(glob(p, a, loc), tv.clone(), loc);
            out.push(assign(idx(b.done), one, loc));
            out.push(assign(idx(b.ret), cast(arg(0), Ty::Void.ptr(), loc), loc));
            out.extend(m.stop_and_leave(p, loc));
        }
        Op::ThreadSelf => set_dest(out, cast(glob(p, b.tid, loc), Ty::ULONG, loc)),
        Op::ThreadEqual => set_dest(out, cmp(BinOp::Eq, arg(0), arg(1), loc)),
        Op::MutexInit | Op::CondInit => {
            out.push(assign(deref(arg(0), loc), zero.clone(), loc));
            set_dest(out, zero);
        }
        Op::MutexDestroy | Op::CondDestroy | Op::CondSignal | Op::CondBroadcast => {
            set_dest(out, zero)
        }
        Op::MutexLock => {
            let mx = deref(arg(0), loc);
            out.push(m.stop_if(p, cmp(BinOp::Ne, mx.clone(), zero.clone(), loc), loc));
            out.push(assign(mx, one, loc));
            set_dest(out, zero);
        }
        Op::MutexUnlock => {
            out.push(assign(deref(arg(0), loc), zero.clone(), loc));
            set_dest(out, zero);
        }
        Op::MutexTryLock => {
            let mx = deref(arg(0), loc);
            let mut a = vec![assign(mx.clone(), one, loc)];
            let mut b = vec![];
            set_dest(&mut a, zero.clone());
            set_dest(&mut b, int(16, Ty::INT, loc));
            out.push(if_(cmp(BinOp::Eq, mx, zero, loc), a, b, loc));
        }
        Op::CondWait => {
            // Unlock, a switch point (spurious wake-ups), lock again.
            let mx = deref(arg(1), loc);
            out.push(assign(mx.clone(), zero.clone(), loc));
            out.extend(m.switch_point(p, loc));
            out.push(m.stop_if(p, cmp(BinOp::Ne, mx.clone(), zero.clone(), loc), loc));
            out.push(assign(mx, one, loc));
            set_dest(out, zero);
        }
        Op::Once => {
            let c = deref(arg(0), loc);
            let Some(f) = sites::strip(&arg(1)) else {
                m.fail(
                    "pthread_once with a routine that is not a function name".into(),
                    loc,
                );
                return true;
            };
            let fty = p.func(f).sig.clone();
            let call = st(
                StmtKind::Call {
                    dest: None,
                    callee: Expr::new(ExprKind::Func(f), Ty::Func(Box::new(fty)), loc),
                    args: vec![],
                },
                loc,
            );
            let mut run = vec![assign(c.clone(), one, loc), call];
            run.extend(m.after_call(p, loc.generated()));
            out.push(if_(cmp(BinOp::Eq, c, zero.clone(), loc), run, vec![], loc));
            set_dest(out, zero);
        }
        Op::KeyCreate => {
            // The key is the next number; past KEYS the thread stops (a
            // bound cut), as creation fails only with EAGAIN. The counter
            // is never reset: a key number is never made twice, so two
            // keys cannot share a thread's value.
            let n = glob(p, b.key_n, loc);
            let lim = int(KEYS as i128, u.clone(), loc);
            out.push(m.stop_if(p, cmp(BinOp::Ge, n.clone(), lim, loc), loc));
            let pk = cast(strip_cast(&arg(0)).clone(), u.clone().ptr(), loc);
            out.push(assign(deref(pk, loc), n.clone(), loc));
            out.push(assign(
                n.clone(),
                bin(BinOp::Add, n, int(1, u.clone(), loc), u.clone(), loc),
                loc,
            ));
            set_dest(out, zero);
        }
        Op::KeyDelete => set_dest(out, zero),
        Op::GetSpecific | Op::SetSpecific => {
            // A key that was never made is undefined: the thread stops.
            let key = cast(arg(0), u.clone(), loc);
            out.push(m.stop_if(
                p,
                cmp(BinOp::Ge, key.clone(), glob(p, b.key_n, loc), loc),
                loc,
            ));
            let at = bin(
                BinOp::Add,
                bin(
                    BinOp::Mul,
                    glob(p, b.tid, loc),
                    int(KEYS as i128, u.clone(), loc),
                    u.clone(),
                    loc,
                ),
                bin(
                    BinOp::Rem,
                    key,
                    int(KEYS as i128, u.clone(), loc),
                    u.clone(),
                    loc,
                ),
                u,
                loc,
            );
            let cell = index(glob(p, b.keys, loc), at, loc);
            if op == Op::GetSpecific {
                set_dest(out, cell);
            } else {
                out.push(assign(cell, arg(1), loc));
                set_dest(out, zero);
            }
        }
        Op::AtomicBegin => out.push(assign(glob(p, b.atomic, loc), one, loc)),
        Op::AtomicEnd => out.push(assign(glob(p, b.atomic, loc), zero, loc)),
        Op::Abort | Op::Exit => out.extend(m.stop_and_leave(p, loc)),
        _ => return false,
    }
    true
}
