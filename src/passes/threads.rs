//! The pthread model, written once for both sequentializations: joins,
//! `pthread_exit`, mutexes, condition variables, `pthread_once`, keys,
//! atomic sections, `exit` and `abort` become plain IR over the thread
//! bookkeeping (DESIGN.md §2, §3).
//!
//! Over 800 lines on purpose: every operation's meaning sits beside the
//! others (and `kinds` beside the plain mutex), so that the model can be
//! compared against POSIX and the oracle's in one reading.
//!
//! A method says only what differs between KISS and Lal–Reps (`Method`):
//! how the running thread stops for good (Lal–Reps moves to the sink round
//! and goes on; KISS raises and returns), how a stop leaves the function,
//! what a switch (schedule) point is, and what must follow a call of code
//! that may stop the thread. Thread creation, memory and the atomic
//! read-modify-write operations stay with each method, which keeps its own
//! slots and memory model.
//!
//! Pre: normalised, bounded and retyped IR (pthread objects are integers).
//! The expansion of an operation is the thread's step at that point: the
//! method has placed the switch point before it.
//!
//! Mutexes. A program whose mutexes are all normal (`PthreadUse`) keeps a
//! mutex as 0 (free) or 1 (held). With recursive or error-checking kinds
//! a mutex word packs the owner (thread id + 1, 0 when free), the lock
//! count and the kind (`KIND_SHIFT`), and lock, trylock, unlock and
//! condition waits follow POSIX for each kind with glibc's choices where
//! POSIX leaves one: a normal mutex relocked by its holder deadlocks (the
//! thread stops), an error-checking one returns EDEADLK, a recursive one
//! counts (EAGAIN past the count's width); unlocking a recursive or
//! error-checking mutex the thread does not hold returns EPERM, a normal
//! one is released (undefined in POSIX); a condition wait on a recursive
//! mutex held more than once keeps it held (glibc).
//!
//! Key destructors. When a thread returns from its start routine or calls
//! `pthread_exit` (main included; main's return is `exit` and runs none),
//! `__seqc_dtors` runs before the thread counts as finished: in key order,
//! each non-NULL value is set to NULL and its key's destructor, if any,
//! is called with the old value; up to PTHREAD_DESTRUCTOR_ITERATIONS (4,
//! glibc's) passes while a destructor sets values again. The destructor's
//! steps are the exiting thread's steps; a thread that stops runs none.
//! POSIX leaves the key order open: glibc's order is one of the allowed
//! runs, so this can only hide a bug that needs another order.
//!
//! Thread ids. A `pthread_t` holds the thread's slot + 1 (`thread_id`):
//! glibc never gives 0, and programs use a zero `pthread_t` to mean "no
//! thread" (an owner field, say), so main must not be 0.
//!
//! Detached threads. A join of a detached thread fails with EINVAL at once
//! (glibc; undefined in POSIX), as does a second `pthread_detach`.
//!
//! `exit` and `abort` stop the calling thread: any step another thread
//! takes after it could have been taken before it. Inside atomic code that
//! does not hold, and the run ends there: such runs are dropped (an
//! under-approximation), as are runs where main returns inside an atomic
//! section.

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
    /// Per thread: detached (when the program detaches threads).
    pub detached: Option<GlobalId>,
    /// Per key: its destructor, and the function that runs them (when
    /// the program creates keys with destructors).
    pub key_dtor: Option<GlobalId>,
    pub dtors: Option<FuncId>,
    /// Mutexes carry owner, count and kind.
    pub mutex_kinds: bool,
    /// `--property deadlock`: what each thread waits on.
    pub wait: Option<WaitBook>,
    /// `--property locks` / `locks-exit`.
    pub locks: LockChecks,
    /// Under `locks-exit`, per thread: the locks it took and has not
    /// released itself (a plain global: each thread writes only its own
    /// entry, while it runs).
    pub held: Option<GlobalId>,
}

/// The lock-discipline checks asked for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LockChecks {
    /// `locks`: every `LockRule` but `ExitHolding`, as an assertion at
    /// the operation, before its effect.
    pub rules: bool,
    /// `locks-exit`: a thread ends holding a lock it took.
    pub exit: bool,
}

/// The count of held locks per thread (`Book::held`).
pub(crate) const HELD: &str = "__seqc_held";

/// KISS sets this to 1 right before a thread's end check (locks-exit)
/// fails where the input has no statement, for traces.
pub const EXIT_HELD: &str = "__seqc_exit_held";

/// Under `--property locks`, a destroyed mutex (kinds encoding) has this
/// bit set; a destroyed spinlock or read-write lock holds `DEAD_WORD`, a
/// value no live one holds. `pthread_*_init` makes them live again.
const DESTROYED_BIT: i128 = 1 << 30;
const DEAD_WORD: i128 = i32::MIN as i128;

/// Under `--property locks`: the assertion that rule `r` holds (`bad`
/// is the broken case), before the operation's effect.
fn rule(m: &mut impl Method, p: &Program, bad: Expr, r: LockRule, loc: Loc, out: &mut Vec<Stmt>) {
    if m.book().locks.rules {
        out.extend(m.check(p, not(bad, loc), AssertKind::Lock(r), loc));
    }
}

/// Under `locks-exit`: the running thread took (`by` 1) or released
/// (`by` -1) one level of a lock.
fn held_by(p: &Program, b: &Book, by: i128, loc: Loc) -> Vec<Stmt> {
    let Some(h) = b.held else {
        return vec![];
    };
    let cell = index(glob(p, h, loc), glob(p, b.tid, loc), loc);
    let op = if by > 0 { BinOp::Add } else { BinOp::Sub };
    let v = bin(op, cell.clone(), int(1, Ty::INT, loc), Ty::INT, loc);
    vec![assign(cell, v, loc)]
}

/// Under `locks-exit`, where thread `slot` ends: the assertion that it
/// holds no lock it took. `None` when the property is not asked for.
pub(crate) fn exit_check(
    m: &mut impl Method,
    p: &Program,
    slot: Expr,
    loc: Loc,
) -> Option<Vec<Stmt>> {
    let b = m.book();
    let h = b.held.filter(|_| b.locks.exit)?;
    let cell = index(glob(p, h, loc), slot, loc);
    let ok = cmp(BinOp::Eq, cell, int(0, Ty::INT, loc), loc);
    Some(m.check(p, ok, AssertKind::Lock(LockRule::ExitHolding), loc))
}

/// Under `--property deadlock`, per thread: the operation it stopped on
/// because the operation could not go on (`WAIT_*`, 0 for none), its
/// object and one more value; and whether a thread was made past the
/// thread bound (such a thread could still run, so no state with it is
/// a deadlock).
#[derive(Clone, Copy)]
pub(crate) struct WaitBook {
    pub kind: GlobalId,
    pub obj: GlobalId,
    pub aux: GlobalId,
    pub unsched: GlobalId,
    /// The end's check: each waiting thread's object word, read once
    /// (the checkers' formulas do not share a repeated read), and the
    /// verdict (`DEADLOCK`).
    pub word: GlobalId,
    pub dead: GlobalId,
    /// `__seqc_wait_pick`, made by `make_wait_pick` (its id is taken
    /// before the rewrite, which calls it).
    pub pick: FuncId,
}

/// The deadlock check's verdict, for traces.
pub const DEADLOCK: &str = "__seqc_deadlock";

/// The globals of `WaitBook`, added to `p` (plain globals: each thread
/// writes only its own entry, while it runs).
pub(crate) fn add_wait_globals(
    p: &mut Program,
    nslots: u64,
    pick: FuncId,
    mut add: impl FnMut(&mut Program, &str, Ty) -> GlobalId,
) -> WaitBook {
    let arr = |t: Ty| Ty::Array(Box::new(t), Some(nslots.max(1)));
    WaitBook {
        kind: add(p, "__seqc_wait_kind", arr(Ty::INT)),
        obj: add(p, "__seqc_wait_obj", arr(Ty::INT.ptr())),
        aux: add(p, "__seqc_wait_aux", arr(Ty::INT)),
        unsched: add(p, "__seqc_unsched", Ty::INT),
        word: add(p, "__seqc_wait_word", arr(Ty::INT)),
        dead: add(p, DEADLOCK, Ty::INT),
        pick,
    }
}

/// What a thread waits on (`WaitBook::kind`), and when that blocks it:
/// a mutex lock (held, by anyone for a normal mutex, by another thread
/// for the other kinds), the relock of a condition wait (held by another
/// thread), a join of thread `aux` (it has not returned), a semaphore
/// wait (value 0), a read lock (a writer holds it), a write lock or
/// spinlock (held), a barrier wait (its cycle is still `aux`).
const WAIT_LOCK: i128 = 1;
const WAIT_RELOCK: i128 = 2;
const WAIT_JOIN: i128 = 3;
const WAIT_SEM: i128 = 4;
const WAIT_RD: i128 = 5;
const WAIT_WR: i128 = 6;
const WAIT_BARRIER: i128 = 7;

/// `stop_if(c)`, and under `--property deadlock` first the record of
/// what the thread waits on. Inside atomic code a blocked thread is
/// stopped, not waiting (the oracle's reading), so nothing is recorded.
#[allow(clippy::too_many_arguments)]
fn wait_if(
    m: &mut impl Method,
    p: &Program,
    c: Expr,
    kind: i128,
    obj: &Expr,
    aux: Expr,
    loc: Loc,
    out: &mut Vec<Stmt>,
) {
    let c = match m.book().wait {
        Some(w) => {
            let v = chosen_wait(m, w, c, loc, out);
            out.extend(record_wait(m, p, &v, kind, obj, aux, loc));
            v
        }
        None => c,
    };
    out.push(m.stop_if(p, c, loc));
}

/// Under `--property deadlock` a thread before a blocking operation may
/// also wait there for good by choice (it is never scheduled again, a
/// run like any other): `c` or that choice, in a fresh local. The end's
/// test decides whether the operation is then blocked. Without this a
/// deadlock whose threads arrive at their operations before the others
/// take the locks (the oracle's state-based reading) would need more
/// rounds than the oracle counts.
fn chosen_wait(m: &mut impl Method, w: WaitBook, c: Expr, loc: Loc, out: &mut Vec<Stmt>) -> Expr {
    let t = m.temp("__seqc_waits", Ty::INT);
    let tv = lv_local(t, Ty::INT, loc);
    out.push(st(StmtKind::Decl(t, None), loc));
    let sig = int_sig();
    out.push(st(
        StmtKind::Call {
            dest: Some(tv.clone()),
            callee: Expr::new(ExprKind::Func(w.pick), Ty::Func(Box::new(sig)), loc),
            args: vec![],
        },
        loc,
    ));
    let either = bin(
        BinOp::LogOr,
        c,
        cmp(BinOp::Ne, tv.clone(), int(0, Ty::INT, loc), loc),
        Ty::INT,
        loc,
    );
    out.push(assign(tv.clone(), either, loc));
    cmp(BinOp::Ne, tv, int(0, Ty::INT, loc), loc)
}

/// `int f(void)`.
fn int_sig() -> FnSig {
    FnSig {
        ret: Ty::INT,
        params: vec![],
        variadic: false,
        unprototyped: false,
    }
}

/// `int __seqc_wait_pick(void)`: the choice of `chosen_wait`, never
/// inside atomic code (where stopping is no waiting) and never in a
/// thread that has stopped (`alive`, Lal-Reps' sink).
pub(crate) fn make_wait_pick(p: &Program, b: &Book, alive: Option<Expr>) -> Function {
    let loc = Loc::NONE;
    let zero = int(0, Ty::INT, loc);
    let mut ok = cmp(BinOp::Eq, glob(p, b.atomic, loc), zero.clone(), loc);
    if let Some(a) = alive {
        ok = bin(BinOp::LogAnd, ok, a, Ty::INT, loc);
    }
    let pick = cmp(
        BinOp::Ne,
        Expr::new(ExprKind::Nondet, Ty::INT, loc),
        zero.clone(),
        loc,
    );
    let body = vec![
        if_(
            not(ok, loc),
            vec![st(StmtKind::Return(Some(zero)), loc)],
            vec![],
            loc,
        ),
        st(StmtKind::Return(Some(pick)), loc),
    ];
    Function {
        name: "__seqc_wait_pick".into(),
        sig: int_sig(),
        params: vec![],
        locals: vec![],
        body: Some(Block(body)),
        is_static: true,
        atomic: false,
        loc,
        labels: vec![],
    }
}

/// The record `wait_if` makes when `c` holds (none without the property).
fn record_wait(
    m: &mut impl Method,
    p: &Program,
    c: &Expr,
    kind: i128,
    obj: &Expr,
    aux: Expr,
    loc: Loc,
) -> Option<Stmt> {
    let b = m.book();
    let w = b.wait?;
    let at = |g: GlobalId| index(glob(p, g, loc), glob(p, b.tid, loc), loc);
    let rec = vec![
        assign(at(w.kind), int(kind, Ty::INT, loc), loc),
        assign(at(w.obj), cast(obj.clone(), Ty::INT.ptr(), loc), loc),
        assign(at(w.aux), cast(aux, Ty::INT, loc), loc),
    ];
    let outside = cmp(BinOp::Eq, glob(p, b.atomic, loc), int(0, Ty::INT, loc), loc);
    let mut when = bin(BinOp::LogAnd, c.clone(), outside, Ty::INT, loc);
    if let Some(a) = m.alive(p, loc) {
        when = bin(BinOp::LogAnd, when, a, Ty::INT, loc);
    }
    Some(if_(when, rec, vec![], loc))
}

/// The object a mutex word expression (`*p`) is in: `p`.
fn ptr_of(mx: &Expr) -> Expr {
    match &mx.kind {
        ExprKind::Deref(p) => (**p).clone(),
        _ => addr_of(mx.clone(), mx.loc),
    }
}

/// Under `--property deadlock`, at the end of the run (the final state):
/// main has not finished (its return is `exit`; after its
/// `pthread_exit` this hides a deadlock), no thread was made past the
/// bound, and every thread that `exists` has returned or waits on an
/// operation that still cannot go on. Main is then unfinished, so some
/// thread is; and a thread that stopped for any other reason (a bound,
/// an assume, `exit`) has no record, so no such run counts. The
/// statements set `WaitBook::dead`; its assignment is at `at`, a place
/// of the input, so that traces show it.
pub(crate) fn deadlock_check(
    p: &Program,
    b: &Book,
    exists: &dyn Fn(i128) -> Expr,
    at: Loc,
) -> Vec<Stmt> {
    let w = b.wait.expect("deadlock bookkeeping");
    let loc = Loc::NONE;
    let cell = |g: GlobalId, s: i128| index(glob(p, g, loc), int(s, Ty::UINT, loc), loc);
    let mut out = Vec::new();
    for s in 0..b.nslots as i128 {
        let k = cell(w.kind, s);
        let has_obj = bin(
            BinOp::LogAnd,
            cmp(BinOp::Ne, k.clone(), int(0, Ty::INT, loc), loc),
            cmp(BinOp::Ne, k, int(WAIT_JOIN, Ty::INT, loc), loc),
            Ty::INT,
            loc,
        );
        let read = assign(cell(w.word, s), deref(cell(w.obj, s), loc), loc);
        out.push(if_(has_obj, vec![read], vec![], loc));
    }
    out.push(assign(
        glob(p, w.dead, at),
        deadlocked(p, b, exists, loc),
        at,
    ));
    out
}

fn deadlocked(p: &Program, b: &Book, exists: &dyn Fn(i128) -> Expr, loc: Loc) -> Expr {
    let w = b.wait.expect("deadlock bookkeeping");
    let i = |v: i128| int(v, Ty::INT, loc);
    let and = |a: Expr, c: Expr| bin(BinOp::LogAnd, a, c, Ty::INT, loc);
    let or = |a: Expr, c: Expr| bin(BinOp::LogOr, a, c, Ty::INT, loc);
    let cell = |g: GlobalId, s: i128| index(glob(p, g, loc), int(s, Ty::UINT, loc), loc);
    let mut all = and(
        cmp(BinOp::Eq, cell(b.done, 0), i(0), loc),
        cmp(BinOp::Eq, glob(p, w.unsched, loc), i(0), loc),
    );
    for s in 0..b.nslots as i128 {
        let x = cell(w.word, s);
        let aux = cell(w.aux, s);
        let me = i(s + 1);
        let held = if b.mutex_kinds {
            kinds::held_against(&x, &me, false, loc)
        } else {
            cmp(BinOp::Ne, x.clone(), i(0), loc)
        };
        let held_by_other = if b.mutex_kinds {
            kinds::held_against(&x, &me, true, loc)
        } else {
            cmp(BinOp::Ne, x.clone(), i(0), loc)
        };
        let target = cast(aux.clone(), Ty::UINT, loc);
        let mut joined = index(glob(p, b.done, loc), target.clone(), loc);
        if let Some(d) = b.detached {
            // Detached since: the join would fail with EINVAL.
            let gone = index(glob(p, d, loc), target, loc);
            joined = bin(BinOp::LogOr, joined, gone, Ty::INT, loc);
        }
        let cycle = bin(
            BinOp::BitAnd,
            bin(BinOp::Shr, x.clone(), i(20), Ty::INT, loc),
            i(BAR_MAX),
            Ty::INT,
            loc,
        );
        let kind = |k: i128| cmp(BinOp::Eq, cell(w.kind, s), i(k), loc);
        let blocked = [
            (WAIT_LOCK, held),
            (WAIT_RELOCK, held_by_other),
            (WAIT_JOIN, cmp(BinOp::Eq, joined, i(0), loc)),
            (WAIT_SEM, cmp(BinOp::Le, x.clone(), i(0), loc)),
            (WAIT_RD, cmp(BinOp::Lt, x.clone(), i(0), loc)),
            (WAIT_WR, cmp(BinOp::Ne, x.clone(), i(0), loc)),
            (WAIT_BARRIER, cmp(BinOp::Eq, cycle, aux.clone(), loc)),
        ]
        .into_iter()
        .map(|(k, c)| and(kind(k), c))
        .reduce(or)
        .unwrap();
        let ok = or(
            or(
                not(exists(s), loc),
                cmp(BinOp::Ne, cell(b.done, s), i(0), loc),
            ),
            blocked,
        );
        all = and(all, ok);
    }
    all
}

/// Where a mutex word keeps its kind, its count and its owner.
pub(crate) const KIND_SHIFT: u32 = 28;
const COUNT_SHIFT: u32 = 13;
const OWNER_MASK: i128 = (1 << COUNT_SHIFT) - 1;
const COUNT_MAX: i128 = (1 << (KIND_SHIFT - COUNT_SHIFT)) - 1;
const KIND_RECURSIVE: i128 = 1;
const KIND_ERRORCHECK: i128 = 2;

/// glibc's PTHREAD_DESTRUCTOR_ITERATIONS.
const DESTRUCTOR_PASSES: u32 = 4;

use crate::ir::errno::{EAGAIN, EBUSY, EDEADLK, EINVAL, EPERM, ETIMEDOUT};

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
    /// The thread stops for good and leaves the function (blocked or
    /// cut: inside atomic code the run ends there).
    fn stop_and_leave(&mut self, p: &Program, loc: Loc) -> Vec<Stmt>;
    /// The thread ends (`pthread_exit`) and leaves the function: inside
    /// atomic code too, the others go on (the section ends with it).
    fn end_and_leave(&mut self, p: &Program, loc: Loc) -> Vec<Stmt>;
    /// A point where other threads may run before this one goes on.
    fn switch_point(&mut self, p: &Program, loc: Loc) -> Vec<Stmt>;
    /// After a call of code that may stop the running thread.
    fn after_call(&mut self, p: &Program, loc: Loc) -> Vec<Stmt>;
    /// The thread has not stopped, when stopped threads run on (Lal–Reps'
    /// sink round); `None` when a stopped thread runs no further code.
    fn alive(&self, p: &Program, loc: Loc) -> Option<Expr>;
    /// An assertion of `ok` made by the model (a property's check), as
    /// the method encodes the user's.
    fn check(&mut self, p: &Program, ok: Expr, kind: AssertKind, loc: Loc) -> Vec<Stmt>;
}

/// Semaphores, read-write locks and spinlocks (`WordOp`): one step
/// each, reading and writing the object's word. Waiting is stopping
/// (rule 4: the thread may wait at the switch point before instead).
/// A read-write lock's writer taking it again (to read or to write)
/// gets glibc's EDEADLK. Where POSIX leaves a case undefined or lets it
/// deadlock (a spinlock taken again by its holder, a reader taking the
/// write lock, an unlock by a thread that does not hold it), the thread
/// waits for good: that hides runs, never makes one. `errno` is not modelled (seqc refuses reading it).
fn word_op(
    m: &mut impl Method,
    p: &Program,
    w: WordOp,
    args: &[Expr],
    dest: &Option<Expr>,
    loc: Loc,
    out: &mut Vec<Stmt>,
) {
    use WordOp::*;
    let i = |v: i128| int(v, Ty::INT, loc);
    let arg = |k: usize| args.get(k).cloned().unwrap_or(i(0));
    let x = deref(arg(0), loc);
    let set = |v: Expr| -> Vec<Stmt> {
        dest.iter()
            .map(|d| assign(d.clone(), v.clone(), loc))
            .collect()
    };
    let put = |v: Expr| assign(x.clone(), v, loc);
    let add = |k: i128| bin(BinOp::Add, x.clone(), i(k), Ty::INT, loc);
    let is = |op: BinOp, k: i128| cmp(op, x.clone(), i(k), loc);
    // A read-write lock's writer holds it as minus (its thread id + 1),
    // so that its own read or write lock is glibc's EDEADLK, not a wait.
    let writer = bin(
        BinOp::Sub,
        i(-1),
        cast(glob(p, m.book().tid, loc), Ty::INT, loc),
        Ty::INT,
        loc,
    );
    let b = m.book();
    // Under lock discipline a spinlock holds its owner (thread id + 1).
    let me1 = bin(
        BinOp::Add,
        cast(glob(p, b.tid, loc), Ty::INT, loc),
        i(1),
        Ty::INT,
        loc,
    );
    let owned = b.locks.rules || b.locks.exit;
    let spin_held = if owned { me1.clone() } else { i(1) };
    let is_lock = matches!(
        w,
        RwRdLock
            | RwWrLock
            | RwTryRdLock
            | RwTryWrLock
            | RwUnlock
            | RwDestroy
            | SpinLock
            | SpinTryLock
            | SpinUnlock
            | SpinDestroy
    );
    if b.locks.rules && is_lock {
        rule(
            m,
            p,
            is(BinOp::Eq, DEAD_WORD),
            LockRule::UseDestroyed,
            loc,
            out,
        );
        let and = |a: Expr, c: Expr| bin(BinOp::LogAnd, a, c, Ty::INT, loc);
        let broken = match w {
            SpinLock => Some((
                cmp(BinOp::Eq, x.clone(), me1.clone(), loc),
                LockRule::Relock,
            )),
            RwRdLock | RwWrLock => Some((
                cmp(BinOp::Eq, x.clone(), writer.clone(), loc),
                LockRule::Relock,
            )),
            SpinUnlock => Some((
                cmp(BinOp::Ne, x.clone(), me1.clone(), loc),
                LockRule::UnlockNotHeld,
            )),
            // Free, or held for writing by another thread (which readers
            // hold it is not kept: a non-reader's unlock while others
            // read is not caught).
            RwUnlock => Some((
                bin(
                    BinOp::LogOr,
                    is(BinOp::Eq, 0),
                    and(
                        is(BinOp::Lt, 0),
                        cmp(BinOp::Ne, x.clone(), writer.clone(), loc),
                    ),
                    Ty::INT,
                    loc,
                ),
                LockRule::UnlockNotHeld,
            )),
            SpinDestroy | RwDestroy => Some((is(BinOp::Ne, 0), LockRule::DestroyHeld)),
            _ => None,
        };
        if let Some((bad, r)) = broken {
            rule(m, p, bad, r, loc, out);
        }
    }
    let took = held_by(p, &b, 1, loc);
    // Released by its holder (the writer, for a read-write lock).
    let released = |holder: Expr| -> Vec<Stmt> {
        let down = held_by(p, &b, -1, loc);
        if down.is_empty() {
            return down;
        }
        vec![if_(
            cmp(BinOp::Eq, x.clone(), holder, loc),
            down,
            vec![],
            loc,
        )]
    };
    let spin_released = released(me1.clone());
    let rw_released = released(writer.clone());
    let mut then = |c: Expr, mut a: Vec<Stmt>, ra: i128, mut b: Vec<Stmt>, rb: i128| {
        a.extend(set(i(ra)));
        b.extend(set(i(rb)));
        out.push(if_(c, a, b, loc));
    };
    match w {
        SemInit => {
            // SEM_VALUE_MAX is INT_MAX: a larger value is EINVAL (-1).
            let v = cast(arg(2), Ty::UINT, loc);
            let big = cmp(
                BinOp::Gt,
                v.clone(),
                int(i32::MAX as i128, Ty::UINT, loc),
                loc,
            );
            then(big, vec![], -1, vec![put(cast(v, Ty::INT, loc))], 0);
        }
        SemWait => {
            wait_if(m, p, is(BinOp::Le, 0), WAIT_SEM, &arg(0), i(0), loc, out);
            out.push(put(add(-1)));
            out.extend(set(i(0)));
        }
        SemTryWait => then(is(BinOp::Gt, 0), vec![put(add(-1))], 0, vec![], -1),
        // At SEM_VALUE_MAX: EOVERFLOW (-1).
        SemPost => then(
            is(BinOp::Eq, i32::MAX as i128),
            vec![],
            -1,
            vec![put(add(1))],
            0,
        ),
        SemGetValue => {
            let to = deref(cast(arg(1), Ty::INT.ptr(), loc), loc);
            out.push(assign(to, x.clone(), loc));
            out.extend(set(i(0)));
        }
        RwInit | SpinInit => {
            out.push(put(i(0)));
            out.extend(set(i(0)));
        }
        RwDestroy | SpinDestroy if b.locks.rules => {
            out.push(put(i(DEAD_WORD)));
            out.extend(set(i(0)));
        }
        SemDestroy | RwDestroy | SpinDestroy => out.extend(set(i(0))),
        RwRdLock | RwWrLock => {
            let mine = cmp(BinOp::Eq, x.clone(), writer.clone(), loc);
            let mut go = Vec::new();
            if w == RwRdLock {
                wait_if(m, p, is(BinOp::Lt, 0), WAIT_RD, &arg(0), i(0), loc, &mut go);
                go.push(put(add(1)));
            } else {
                wait_if(m, p, is(BinOp::Ne, 0), WAIT_WR, &arg(0), i(0), loc, &mut go);
                go.push(put(writer));
                go.extend(took.clone());
            }
            go.extend(set(i(0)));
            out.push(if_(mine, set(i(EDEADLK)), go, loc));
        }
        SpinLock => {
            wait_if(m, p, is(BinOp::Ne, 0), WAIT_WR, &arg(0), i(0), loc, out);
            out.push(put(spin_held));
            out.extend(took);
            out.extend(set(i(0)));
        }
        RwTryRdLock => then(is(BinOp::Ge, 0), vec![put(add(1))], 0, vec![], EBUSY),
        RwTryWrLock => {
            let mut go = vec![put(writer)];
            go.extend(took);
            then(is(BinOp::Eq, 0), go, 0, vec![], EBUSY)
        }
        SpinTryLock => {
            let mut go = vec![put(spin_held)];
            go.extend(took);
            then(is(BinOp::Eq, 0), go, 0, vec![], EBUSY)
        }
        RwUnlock => {
            // A writer leaves it free; a reader takes one reader off.
            out.extend(rw_released);
            let reader = vec![if_(is(BinOp::Gt, 0), vec![put(add(-1))], vec![], loc)];
            out.push(if_(is(BinOp::Lt, 0), vec![put(i(0))], reader, loc));
            out.extend(set(i(0)));
        }
        SpinUnlock => {
            out.extend(spin_released);
            out.push(put(i(0)));
            out.extend(set(i(0)));
        }
        BarrierInit => {
            // The word: count (bits 0-9), arrived in this cycle (10-19),
            // the cycle number (20-29). A count of 0 is EINVAL; above
            // BAR_MAX the thread stops (hides).
            // The cycle number survives a new init: a thread released by
            // the cycle that just ended may not have left its wait yet
            // (destroy and init by the serial thread, as POSIX allows),
            // and it passes by seeing the cycle move on.
            let n = cast(arg(2), Ty::UINT, loc);
            let zero = cmp(BinOp::Eq, n.clone(), int(0, Ty::UINT, loc), loc);
            let big = cmp(BinOp::Gt, n.clone(), int(BAR_MAX, Ty::UINT, loc), loc);
            let kept = bin(BinOp::BitAnd, x.clone(), i(BAR_MAX << 20), Ty::INT, loc);
            let word = bin(BinOp::BitOr, kept, cast(n, Ty::INT, loc), Ty::INT, loc);
            let mut ok = vec![m.stop_if(p, big, loc), put(word)];
            ok.extend(set(i(0)));
            out.push(if_(zero, set(i(EINVAL)), ok, loc));
        }
        BarrierWait => {
            // Arrive (one step): the last of `count` starts the next cycle
            // and returns PTHREAD_BARRIER_SERIAL_THREAD; the others wait
            // (a switch point, then stop unless the cycle moved on).
            let field = |e: Expr, at: i128| {
                bin(
                    BinOp::BitAnd,
                    bin(BinOp::Shr, e, i(at), Ty::INT, loc),
                    i(BAR_MAX),
                    Ty::INT,
                    loc,
                )
            };
            let count = field(x.clone(), 0);
            let arrived = bin(BinOp::Add, field(x.clone(), 10), i(1), Ty::INT, loc);
            let cycle = field(x.clone(), 20);
            let mine = m.temp("__seqc_cycle", Ty::INT);
            let mv = lv_local(mine, Ty::INT, loc);
            out.push(st(StmtKind::Decl(mine, None), loc));
            out.push(assign(mv.clone(), cycle.clone(), loc));
            // Not initialised (or destroyed): undefined; the thread waits.
            out.push(m.stop_if(p, cmp(BinOp::Eq, count.clone(), i(0), loc), loc));
            let pack = |c: Expr, a: Expr, g: Expr| {
                let a = bin(BinOp::Shl, a, i(10), Ty::INT, loc);
                let g = bin(BinOp::Shl, g, i(20), Ty::INT, loc);
                let cg = bin(BinOp::BitOr, c, g, Ty::INT, loc);
                bin(BinOp::BitOr, cg, a, Ty::INT, loc)
            };
            let next = bin(
                BinOp::BitAnd,
                bin(BinOp::Add, mv.clone(), i(1), Ty::INT, loc),
                i(BAR_MAX),
                Ty::INT,
                loc,
            );
            let mut last = vec![put(pack(count.clone(), i(0), next))];
            last.extend(set(i(-1)));
            let mut wait = vec![put(pack(count.clone(), arrived.clone(), mv.clone()))];
            wait.extend(m.switch_point(p, loc));
            let same = cmp(BinOp::Eq, field(x.clone(), 20), mv.clone(), loc);
            wait_if(m, p, same, WAIT_BARRIER, &arg(0), mv, loc, &mut wait);
            wait.extend(set(i(0)));
            out.push(if_(cmp(BinOp::Eq, arrived, count, loc), last, wait, loc));
        }
        BarrierDestroy => out.extend(set(i(0))),
    }
}

/// A timed lock that would wait: ETIMEDOUT, or EINVAL when the time's
/// `tv_nsec` is out of range (`valid`, read by the front end), as POSIX
/// says for a call that would block. Time is not modelled: any wait may
/// last past any time (the other threads may be slow), so a timeout is
/// always possible there; and taking the lock after a wait is the same
/// step taken later, which the switch point before it already allows.
fn timed_out(dest: &Option<Expr>, valid: &Expr, loc: Loc) -> Vec<Stmt> {
    match dest {
        Some(d) => {
            let v = |x: i128| vec![assign(d.clone(), int(x, Ty::INT, loc), loc)];
            vec![if_(valid.clone(), v(ETIMEDOUT), v(EINVAL), loc)]
        }
        None => vec![],
    }
}

/// The result of a timed condition wait that woke: 0 or ETIMEDOUT, a
/// draw at the call's place (the traces record it and the oracle draws
/// it there too, so a replay takes the same outcome).
fn wake_outcome(m: &mut impl Method, dest: &Option<Expr>, loc: Loc) -> Vec<Stmt> {
    let t = m.temp("__seqc_timeout", Ty::INT);
    let tv = lv_local(t, Ty::INT, loc);
    let mut out = vec![
        st(StmtKind::Decl(t, None), loc),
        assign(tv.clone(), Expr::new(ExprKind::Nondet, Ty::INT, loc), loc),
    ];
    if let Some(d) = dest {
        let v = |x: i128| vec![assign(d.clone(), int(x, Ty::INT, loc), loc)];
        let timed = cmp(BinOp::Ne, tv, int(0, Ty::INT, loc), loc);
        out.push(if_(timed, v(ETIMEDOUT), v(0), loc));
    }
    out
}

/// The largest barrier count the packed word holds (and the cycle mask).
const BAR_MAX: i128 = 1023;

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
            out.push(assign(tv.clone(), thread_slot(arg(0), loc), loc));
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
            // `done` is 1 for a thread that returned or called
            // `pthread_exit`, 2 for main's return: that is exit, the
            // program ends, and a join of main never returns.
            let running = cmp(BinOp::Ne, idx(b.done), one.clone(), loc);
            let mut waits = bin(
                BinOp::LogAnd,
                not(bad.clone(), loc),
                running.clone(),
                Ty::INT,
                loc,
            );
            if let Some(d) = b.detached {
                let attached = cmp(BinOp::Eq, idx(d), zero.clone(), loc);
                waits = bin(BinOp::LogAnd, attached, waits, Ty::INT, loc);
            }
            if let Some(w) = b.wait {
                // A join may wait by choice too (`chosen_wait`), unless
                // it fails at once (no such thread, or detached). A join
                // of the thread itself is no wait: glibc returns EDEADLK
                // (POSIX: undefined), so it records nothing.
                let own = cmp(BinOp::Ne, tv.clone(), glob(p, b.tid, loc), loc);
                let mut may = bin(BinOp::LogAnd, not(bad.clone(), loc), own, Ty::INT, loc);
                if let Some(d) = b.detached {
                    let attached = cmp(BinOp::Eq, idx(d), zero.clone(), loc);
                    may = bin(BinOp::LogAnd, may, attached, Ty::INT, loc);
                }
                let v = chosen_wait(m, w, waits, loc, out);
                let v = bin(BinOp::LogAnd, may, v, Ty::INT, loc);
                let none = int(0, Ty::INT.ptr(), loc);
                out.extend(record_wait(m, p, &v, WAIT_JOIN, &none, tv.clone(), loc));
                out.push(m.stop_if(p, v, loc));
            }
            // A join of the thread itself: EDEADLK (glibc, after the
            // detached test; POSIX: undefined).
            let itself = cmp(BinOp::Eq, tv.clone(), glob(p, b.tid, loc), loc);
            let mut deadlk = vec![];
            set_dest(&mut deadlk, int(EDEADLK, Ty::INT, loc));
            match b.detached {
                None => {
                    let wait = m.unless(p, vec![bad, running], ok, loc);
                    out.push(if_(itself, deadlk, wait, loc));
                }
                Some(d) => {
                    let wait = m.unless(p, vec![running], ok, loc);
                    let mut einval = vec![];
                    set_dest(&mut einval, int(EINVAL, Ty::INT, loc));
                    let detached = cmp(BinOp::Ne, idx(d), zero.clone(), loc);
                    let not_self = vec![if_(itself, deadlk, wait, loc)];
                    let body = vec![if_(detached, einval, not_self, loc)];
                    out.extend(m.unless(p, vec![bad], body, loc));
                }
            }
        }
        Op::ThreadDetach => {
            let Some(d) = b.detached else {
                m.fail("pthread_detach without the detach model".into(), loc);
                return true;
            };
            let t = m.temp("__seqc_j", u.clone());
            let tv = lv_local(t, u.clone(), loc);
            out.push(st(StmtKind::Decl(t, None), loc));
            out.push(assign(tv.clone(), thread_slot(arg(0), loc), loc));
            let cell = index(glob(p, d, loc), tv.clone(), loc);
            let bad = cmp(
                BinOp::Ge,
                tv.clone(),
                int(b.nslots as i128, u.clone(), loc),
                loc,
            );
            let (mut twice, mut first) = (vec![], vec![assign(cell.clone(), one, loc)]);
            set_dest(&mut twice, int(EINVAL, Ty::INT, loc));
            set_dest(&mut first, zero.clone());
            let body = vec![if_(
                cmp(BinOp::Ne, cell, zero.clone(), loc),
                twice,
                first,
                loc,
            )];
            // A thread made past the thread bound (it never runs in this
            // run) is detached too: 0. Its state is not kept, so a second
            // detach of it also gets 0 where glibc says EINVAL (such a
            // counterexample does not replay).
            let mut past = vec![];
            set_dest(&mut past, zero);
            out.push(if_(bad, past, body, loc));
        }
        Op::ThreadExit => {
            if let Some(f) = b.dtors {
                out.push(call_void(f, vec![], loc));
                out.extend(m.after_call(p, loc.generated()));
            }
            let tv = glob(p, b.tid, loc);
            if let Some(c) = exit_check(m, p, tv.clone(), loc) {
                out.extend(c);
            }
            let idx = |a: GlobalId| index(glob(p, a, loc), tv.clone(), loc);
            out.push(assign(idx(b.done), one, loc));
            out.push(assign(idx(b.ret), cast(arg(0), Ty::Void.ptr(), loc), loc));
            out.extend(m.end_and_leave(p, loc));
        }
        Op::ThreadSelf => set_dest(out, thread_id(&glob(p, b.tid, loc), loc)),
        Op::ThreadEqual => set_dest(out, cmp(BinOp::Eq, arg(0), arg(1), loc)),
        Op::MutexInit if b.mutex_kinds => {
            // The kind comes from the attribute object, if one is given.
            let k = m.temp("__seqc_kind", Ty::INT);
            let kv = lv_local(k, Ty::INT, loc);
            out.push(st(StmtKind::Decl(k, None), loc));
            out.push(assign(kv.clone(), zero.clone(), loc));
            let attr = arg(1);
            let word = deref(cast(attr.clone(), Ty::INT.ptr(), loc), loc);
            let kind = bin(BinOp::BitAnd, word, int(3, Ty::INT, loc), Ty::INT, loc);
            out.extend(if_nonnull(&attr, vec![assign(kv.clone(), kind, loc)], loc));
            let w = bin(
                BinOp::Shl,
                kv,
                int(KIND_SHIFT as i128, Ty::INT, loc),
                Ty::INT,
                loc,
            );
            out.push(assign(deref(arg(0), loc), w, loc));
            set_dest(out, zero);
        }
        Op::MutexInit | Op::CondInit => {
            out.push(assign(deref(arg(0), loc), zero.clone(), loc));
            set_dest(out, zero);
        }
        Op::MutexDestroy if b.locks.rules && b.mutex_kinds => {
            kinds::destroy(m, p, &deref(arg(0), loc), dest, loc, out)
        }
        Op::MutexDestroy => {
            // glibc returns EBUSY for a held mutex and leaves it as it was
            // (POSIX: undefined); a program may test for it.
            if dest.is_some() {
                let mx = deref(arg(0), loc);
                let held = if b.mutex_kinds {
                    kinds::held(&mx, loc)
                } else {
                    cmp(BinOp::Ne, mx, zero.clone(), loc)
                };
                let (mut busy, mut free) = (vec![], vec![]);
                set_dest(&mut busy, int(EBUSY, Ty::INT, loc));
                set_dest(&mut free, zero);
                out.push(if_(held, busy, free, loc));
            }
        }
        Op::CondDestroy | Op::CondSignal | Op::CondBroadcast => set_dest(out, zero),
        Op::MutexLock | Op::MutexTryLock | Op::MutexUnlock | Op::MutexTimedLock
            if b.mutex_kinds =>
        {
            kinds::lock_op(m, p, op, &deref(arg(0), loc), &arg(2), dest, loc, out)
        }
        Op::CondWait | Op::CondTimedWait if b.mutex_kinds => {
            let timed = (op == Op::CondTimedWait).then(|| arg(3));
            kinds::wait(m, p, &deref(arg(1), loc), timed, dest, loc, out)
        }
        Op::MutexTimedLock => {
            // Taken if free; else the wait times out (a thread that gets
            // the lock later is scheduled later: the switch point before).
            let mx = deref(arg(0), loc);
            let mut a = vec![assign(mx.clone(), one, loc)];
            set_dest(&mut a, zero.clone());
            let b = timed_out(dest, &arg(2), loc);
            out.push(if_(cmp(BinOp::Eq, mx, zero, loc), a, b, loc));
        }
        Op::CondTimedWait => {
            let mx = deref(arg(1), loc);
            let mut w = vec![assign(mx.clone(), zero.clone(), loc)];
            w.extend(m.switch_point(p, loc));
            let held = cmp(BinOp::Ne, mx.clone(), zero.clone(), loc);
            wait_if(m, p, held, WAIT_RELOCK, &arg(1), zero.clone(), loc, &mut w);
            w.push(assign(mx, one, loc));
            w.extend(wake_outcome(m, dest, loc));
            let mut bad = vec![];
            set_dest(&mut bad, int(EINVAL, Ty::INT, loc));
            out.push(if_(arg(3), w, bad, loc));
        }
        Op::MutexLock => {
            let mx = deref(arg(0), loc);
            let held = cmp(BinOp::Ne, mx.clone(), zero.clone(), loc);
            wait_if(m, p, held, WAIT_LOCK, &arg(0), zero.clone(), loc, out);
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
            set_dest(&mut b, int(EBUSY, Ty::INT, loc));
            out.push(if_(cmp(BinOp::Eq, mx, zero, loc), a, b, loc));
        }
        Op::CondWait => {
            // Unlock, a switch point (spurious wake-ups), lock again.
            let mx = deref(arg(1), loc);
            out.push(assign(mx.clone(), zero.clone(), loc));
            out.extend(m.switch_point(p, loc));
            let held = cmp(BinOp::Ne, mx.clone(), zero.clone(), loc);
            wait_if(m, p, held, WAIT_RELOCK, &arg(1), zero.clone(), loc, out);
            out.push(assign(mx, one, loc));
            set_dest(out, zero);
        }
        Op::Word(w) => word_op(m, p, w, args, dest, loc, out),
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
            // 0: not run yet, 1: the routine is running, 2: it returned.
            // A caller that finds it running waits for it (POSIX: on
            // return the routine has completed): it stops here, and a
            // switch before the call lets it come back later.
            let mut run = vec![assign(c.clone(), one, loc), call];
            run.extend(m.after_call(p, loc.generated()));
            run.push(assign(c.clone(), int(2, Ty::INT, loc), loc));
            let mut ok = vec![if_(
                cmp(BinOp::Eq, c.clone(), zero.clone(), loc),
                run,
                vec![],
                loc,
            )];
            set_dest(&mut ok, zero);
            let running = cmp(BinOp::Eq, c, int(1, Ty::INT, loc), loc);
            out.extend(m.unless(p, vec![running], ok, loc));
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
            if let Some(d) = b.key_dtor {
                let cell = index(glob(p, d, loc), n.clone(), loc);
                out.push(assign(cell, arg(1), loc));
            }
            out.push(assign(
                n.clone(),
                bin(BinOp::Add, n, int(1, u.clone(), loc), u.clone(), loc),
                loc,
            ));
            set_dest(out, zero);
        }
        Op::KeyDelete => {
            // Its destructor no longer runs; values stay (using the key
            // again is undefined). EINVAL for a key never made.
            let key = cast(arg(0), u.clone(), loc);
            let ok = cmp(BinOp::Lt, key.clone(), glob(p, b.key_n, loc), loc);
            let mut yes = vec![];
            if let Some(d) = b.key_dtor {
                let cell = index(glob(p, d, loc), key_slot(key, loc), loc);
                yes.push(assign(cell, int(0, Ty::INT, loc), loc));
            }
            let mut no = vec![];
            set_dest(&mut yes, zero);
            set_dest(&mut no, int(EINVAL, Ty::INT, loc));
            if !yes.is_empty() || !no.is_empty() {
                out.push(if_(ok, yes, no, loc));
            }
        }
        Op::GetSpecific | Op::SetSpecific => {
            // A key that was never made is undefined: the thread stops.
            let key = cast(arg(0), u.clone(), loc);
            out.push(m.stop_if(
                p,
                cmp(BinOp::Ge, key.clone(), glob(p, b.key_n, loc), loc),
                loc,
            ));
            let cell = index(glob(p, b.keys, loc), value_slot(p, &b, key, loc), loc);
            if op == Op::GetSpecific {
                set_dest(out, cell);
            } else {
                out.push(assign(cell, arg(1), loc));
                set_dest(out, zero);
            }
        }
        // Sections nest, as the oracle counts them: a count, and an end
        // with none open does nothing (inside an atomic function, whose
        // call set the count to 1 at least, an inner section's end keeps
        // the function atomic).
        Op::AtomicBegin => {
            let a = glob(p, b.atomic, loc);
            let up = bin(BinOp::Add, a.clone(), one, Ty::INT, loc);
            out.push(assign(a, up, loc));
        }
        Op::AtomicEnd => {
            let a = glob(p, b.atomic, loc);
            let open = cmp(BinOp::Gt, a.clone(), zero, loc);
            let down = bin(BinOp::Sub, a.clone(), int(1, Ty::INT, loc), Ty::INT, loc);
            out.push(if_(open, vec![assign(a, down, loc)], vec![], loc));
        }
        Op::Abort | Op::Exit => {
            if op == Op::Exit
                && let Some(c) = exit_check(m, p, glob(p, b.tid, loc), loc)
            {
                out.extend(c);
            }
            // Inside atomic code the stop ends the run (`stop_and_leave`).
            out.extend(m.stop_and_leave(p, loc));
        }
        _ => return false,
    }
    true
}

/// `assume` that the running thread is not inside atomic code: the run
/// ends where a live thread exits there (see the module comment).
pub(crate) fn end_inside_atomic(p: &Program, b: &Book, alive: Option<Expr>, loc: Loc) -> Stmt {
    let inside = cmp(BinOp::Ne, glob(p, b.atomic, loc), int(0, Ty::INT, loc), loc);
    let ends = match alive {
        Some(a) => bin(BinOp::LogAnd, a, inside, Ty::INT, loc),
        None => inside,
    };
    st(StmtKind::Assume(not(ends, loc)), loc.generated())
}

/// Does the program have atomic sections or functions?
pub(crate) fn has_atomic_code(p: &Program) -> bool {
    p.functions.iter().any(|f| {
        f.atomic
            || f.body.as_ref().is_some_and(|b| {
                let mut any = false;
                b.walk(&mut |s| {
                    any |= matches!(
                        s.kind,
                        StmtKind::Op {
                            op: Op::AtomicBegin,
                            ..
                        }
                    )
                });
                any
            })
    })
}

/// Unscheduled ids a site may hand out; past this the creator stops (a
/// bound cut), so that ids never wrap around into each other.
const UNSCHEDULED_MAX: i128 = 1 << 20;

/// A `pthread_create` past its site's thread bound (`cap`; `n` is the
/// site's counter): the thread exists but does not run before the end of
/// the bounded run, which is a real prefix of a real execution, so the
/// creator goes on (`ir::loops`). Its id is fresh and at least `nslots`
/// (`nslots + (n - cap) * nsites + site`): no other thread has it,
/// `pthread_equal` tells it apart, and a join of it blocks as a join of
/// any id without a slot does. Its attributes do not matter: the model
/// never reads them again.
#[allow(clippy::too_many_arguments)]
pub(crate) fn unscheduled(
    m: &mut impl Method,
    p: &Program,
    (site, nsites): (usize, usize),
    cap: u32,
    n: &Expr,
    pt: &Expr,
    loc: Loc,
) -> Vec<Stmt> {
    let b = m.book();
    let ul = Ty::ULONG;
    let past = bin(
        BinOp::Sub,
        cast(n.clone(), ul.clone(), loc),
        int(cap as i128, ul.clone(), loc),
        ul.clone(),
        loc,
    );
    let id = bin(
        BinOp::Add,
        bin(
            BinOp::Mul,
            past.clone(),
            int(nsites.max(1) as i128, ul.clone(), loc),
            ul.clone(),
            loc,
        ),
        int(b.nslots as i128 + site as i128, ul.clone(), loc),
        ul.clone(),
        loc,
    );
    let u = Ty::UINT;
    let mut out = vec![m.stop_if(
        p,
        cmp(BinOp::Ge, past, int(UNSCHEDULED_MAX, ul.clone(), loc), loc),
        loc,
    )];
    let target = crate::ir::access::create_id_place(pt, loc);
    out.extend(if_nonnull(
        pt,
        vec![assign(target, thread_id(&id, loc), loc)],
        loc,
    ));
    if let Some(w) = b.wait {
        let set = assign(glob(p, w.unsched, loc), int(1, Ty::INT, loc), loc);
        out.push(match m.alive(p, loc) {
            Some(a) => if_(a, vec![set], vec![], loc),
            None => set,
        });
    }
    out.push(assign(
        n.clone(),
        bin(BinOp::Add, n.clone(), int(1, u.clone(), loc), u, loc),
        loc,
    ));
    out
}

/// For a `pthread_create` statement: "its site is below the thread bound",
/// when the site may get past it (`sites` in order, `caps` and `once` by
/// site, `site_n` the per-site counters).
pub(crate) fn below_bound(
    p: &Program,
    s: &Stmt,
    sites: &[crate::ir::sites::Site],
    caps: &[u32],
    once: &[bool],
    site_n: GlobalId,
) -> Option<Expr> {
    let StmtKind::Op {
        op: Op::ThreadCreate,
        ..
    } = s.kind
    else {
        return None;
    };
    let loc = s.loc;
    let si = sites.iter().position(|x| x.loc == loc)?;
    if once[si] {
        return None;
    }
    let n = index(glob(p, site_n, loc), int(si as i128, Ty::INT, loc), loc);
    Some(cmp(BinOp::Lt, n, int(caps[si] as i128, Ty::UINT, loc), loc))
}

/// The `pthread_t` value of the thread in `slot`: the slot + 1, as glibc
/// never gives 0 (see the module comment).
pub(crate) fn thread_id(slot: &Expr, loc: Loc) -> Expr {
    let ul = Ty::ULONG;
    bin(
        BinOp::Add,
        cast(slot.clone(), ul.clone(), loc),
        int(1, ul.clone(), loc),
        ul,
        loc,
    )
}

/// The slot of the thread whose `pthread_t` value is `id` (0, no thread,
/// wraps past every slot).
fn thread_slot(id: Expr, loc: Loc) -> Expr {
    let u = Ty::UINT;
    bin(
        BinOp::Sub,
        cast(id, u.clone(), loc),
        int(1, u.clone(), loc),
        u,
        loc,
    )
}

/// The bookkeeping of a new thread `t` created with attributes `attr`.
pub(crate) fn on_create(p: &Program, b: &Book, t: &Expr, attr: &Expr, loc: Loc) -> Vec<Stmt> {
    let Some(d) = b.detached else {
        return vec![];
    };
    let cell = index(glob(p, d, loc), t.clone(), loc);
    let mut v = vec![assign(cell.clone(), int(0, Ty::INT, loc), loc)];
    let word = deref(cast(attr.clone(), Ty::INT.ptr(), loc), loc);
    let state = bin(BinOp::BitAnd, word, int(1, Ty::INT, loc), Ty::INT, loc);
    v.extend(if_nonnull(attr, vec![assign(cell, state, loc)], loc));
    v
}

/// The index of a key's destructor (and of a thread's value, per thread).
fn key_slot(key: Expr, loc: Loc) -> Expr {
    let u = Ty::UINT;
    bin(BinOp::Rem, key, int(KEYS as i128, u.clone(), loc), u, loc)
}

/// Where the running thread's value for `key` is.
fn value_slot(p: &Program, b: &Book, key: Expr, loc: Loc) -> Expr {
    let u = Ty::UINT;
    bin(
        BinOp::Add,
        bin(
            BinOp::Mul,
            glob(p, b.tid, loc),
            int(KEYS as i128, u.clone(), loc),
            u.clone(),
            loc,
        ),
        key_slot(key, loc),
        u,
        loc,
    )
}

fn call_void(f: FuncId, args: Vec<Expr>, loc: Loc) -> Stmt {
    let sig = FnSig {
        ret: Ty::Void,
        params: args.iter().map(|a| a.ty.clone()).collect(),
        variadic: false,
        unprototyped: false,
    };
    st(
        StmtKind::Call {
            dest: None,
            callee: Expr::new(ExprKind::Func(f), Ty::Func(Box::new(sig)), loc),
            args,
        },
        loc.generated(),
    )
}

/// The type of a destructor table entry: `void (*)(void *)`.
pub(crate) fn dtor_ty() -> Ty {
    Ty::Func(Box::new(FnSig {
        ret: Ty::Void,
        params: vec![Ty::Void.ptr()],
        variadic: false,
        unprototyped: false,
    }))
    .ptr()
}

/// `void __seqc_dtors(void)`: the destructors of the running thread's
/// values (see the module comment). `alive` guards the whole run in
/// Lal–Reps, where a stopped thread goes on; `after_call` follows each
/// destructor call (KISS leaves once the thread stopped).
pub(crate) fn make_dtor_runner(
    p: &Program,
    b: &Book,
    passes: u32,
    alive: Option<Expr>,
    after_call: impl Fn(Loc) -> Vec<Stmt>,
) -> Function {
    let loc = Loc::NONE;
    let u = Ty::UINT;
    let vp = Ty::Void.ptr();
    let d = b.key_dtor.expect("a destructor table");
    let v = LocalId(0);
    let vv = lv_local(v, vp.clone(), loc);
    let mut body = vec![st(StmtKind::Decl(v, None), loc)];
    if let Some(a) = alive {
        body.push(if_(
            not(a, loc),
            vec![st(StmtKind::Return(None), loc)],
            vec![],
            loc,
        ));
    }
    for _ in 0..passes {
        for k in 0..KEYS {
            let key = int(k as i128, u.clone(), loc);
            let cell = index(
                glob(p, b.keys, loc),
                value_slot(p, b, key.clone(), loc),
                loc,
            );
            let dtor = index(glob(p, d, loc), key.clone(), loc);
            let mut call = vec![st(
                StmtKind::Call {
                    dest: None,
                    callee: dtor.clone(),
                    args: vec![vv.clone()],
                },
                loc,
            )];
            call.extend(after_call(loc));
            let has_dtor = cmp(BinOp::Ne, dtor, int(0, Ty::INT, loc), loc);
            let set = vec![
                assign(cell.clone(), int(0, Ty::INT, loc), loc),
                if_(has_dtor, call, vec![], loc),
            ];
            let nonnull = cmp(BinOp::Ne, vv.clone(), int(0, Ty::INT, loc), loc);
            let made = cmp(BinOp::Lt, key, glob(p, b.key_n, loc), loc);
            body.push(if_(
                made,
                vec![
                    assign(vv.clone(), cell, loc),
                    if_(nonnull, set, vec![], loc),
                ],
                vec![],
                loc,
            ));
        }
    }
    Function {
        name: "__seqc_dtors".into(),
        sig: FnSig {
            ret: Ty::Void,
            params: vec![],
            variadic: false,
            unprototyped: false,
        },
        params: vec![],
        locals: vec![Local {
            name: "v".into(),
            ty: vp,
            loc,
            temp: true,
        }],
        body: Some(Block(body)),
        is_static: true,
        atomic: false,
        loc,
        labels: vec![],
    }
}

/// The destructor passes a thread's exit needs: more than one only when a
/// destructor may set a key's value again. Read on the program before the
/// rewrite (which expands `pthread_setspecific`).
pub(crate) fn dtor_passes(p: &Program) -> u32 {
    if dtors_set_values(p) {
        DESTRUCTOR_PASSES
    } else {
        1
    }
}

/// May a destructor set a key's value again? The functions a destructor
/// may reach by direct calls, from the destructors named at
/// `pthread_key_create` (or from every function whose address is taken,
/// when one is not named or a reached function calls through a pointer).
fn dtors_set_values(p: &Program) -> bool {
    let mut roots: Vec<FuncId> = Vec::new();
    let mut any = false;
    for f in &p.functions {
        if let Some(b) = &f.body {
            b.walk(&mut |s| {
                if let StmtKind::Op {
                    op: Op::KeyCreate,
                    args,
                    ..
                } = &s.kind
                    && let Some(d) = args.get(1)
                {
                    match sites::strip(d) {
                        Some(g) => roots.push(g),
                        None => any |= const_of(d) != Some(0),
                    }
                }
            });
        }
    }
    if any {
        roots = p.address_taken_functions();
    }
    let mut seen = vec![false; p.functions.len()];
    let mut todo = roots;
    while let Some(f) = todo.pop() {
        if std::mem::replace(&mut seen[f.index()], true) {
            continue;
        }
        let Some(b) = &p.func(f).body else { continue };
        let mut sets = false;
        let mut indirect = false;
        b.walk(&mut |s| match &s.kind {
            StmtKind::Op {
                op: Op::SetSpecific,
                ..
            } => sets = true,
            StmtKind::Call { callee, .. } => match sites::strip(callee) {
                Some(g) => todo.push(g),
                None => indirect = true,
            },
            _ => {}
        });
        if sets {
            return true;
        }
        if indirect {
            todo.extend(p.address_taken_functions());
        }
    }
    false
}

/// Mutexes with kinds: the word packs owner, count and kind.
mod kinds {
    use super::*;

    fn part(w: &Expr, shift: u32, mask: i128, loc: Loc) -> Expr {
        let s = bin(
            BinOp::Shr,
            w.clone(),
            int(shift as i128, Ty::INT, loc),
            Ty::INT,
            loc,
        );
        bin(BinOp::BitAnd, s, int(mask, Ty::INT, loc), Ty::INT, loc)
    }

    fn owner(w: &Expr, loc: Loc) -> Expr {
        part(w, 0, OWNER_MASK, loc)
    }

    fn count(w: &Expr, loc: Loc) -> Expr {
        part(w, COUNT_SHIFT, COUNT_MAX, loc)
    }

    fn kind_is(w: &Expr, k: i128, loc: Loc) -> Expr {
        cmp(
            BinOp::Eq,
            part(w, KIND_SHIFT, 3, loc),
            int(k, Ty::INT, loc),
            loc,
        )
    }

    /// The mutex word `w` has an owner.
    pub(super) fn held(w: &Expr, loc: Loc) -> Expr {
        cmp(BinOp::Ne, owner(w, loc), int(0, Ty::INT, loc), loc)
    }

    /// Destroyed under `--property locks` (`DESTROYED_BIT`).
    fn destroyed(w: &Expr, loc: Loc) -> Expr {
        let d = int(DESTROYED_BIT, Ty::INT, loc);
        let b = bin(BinOp::BitAnd, w.clone(), d, Ty::INT, loc);
        cmp(BinOp::Ne, b, int(0, Ty::INT, loc), loc)
    }

    /// `pthread_mutex_destroy` under `--property locks`: not twice, not
    /// while held; the word keeps its kind and is marked destroyed.
    pub(super) fn destroy(
        m: &mut impl Method,
        p: &Program,
        mx: &Expr,
        dest: &Option<Expr>,
        loc: Loc,
        out: &mut Vec<Stmt>,
    ) {
        let w = load(m, mx, loc, out);
        rule(m, p, destroyed(&w, loc), LockRule::UseDestroyed, loc, out);
        rule(m, p, held(&w, loc), LockRule::DestroyHeld, loc, out);
        let d = int(DESTROYED_BIT, Ty::INT, loc);
        out.push(assign(
            mx.clone(),
            bin(BinOp::BitOr, w, d, Ty::INT, loc),
            loc,
        ));
        out.extend(set(dest, 0, loc));
    }

    /// The word with only the kind kept: a free mutex.
    fn freed(w: &Expr, loc: Loc) -> Expr {
        let m = int(3 << KIND_SHIFT, Ty::INT, loc);
        bin(BinOp::BitAnd, w.clone(), m, Ty::INT, loc)
    }

    fn plus_count(w: &Expr, by: i128, loc: Loc) -> Expr {
        let one = int(1 << COUNT_SHIFT, Ty::INT, loc);
        let op = if by > 0 { BinOp::Add } else { BinOp::Sub };
        bin(op, w.clone(), one, Ty::INT, loc)
    }

    /// The mutex word `w` blocks a lock by the thread whose owner value
    /// is `me`: held by another thread, or (`!other_only`) held by `me`
    /// as a normal mutex (it deadlocks on itself).
    pub(super) fn held_against(w: &Expr, me: &Expr, other_only: bool, loc: Loc) -> Expr {
        let o = owner(w, loc);
        let taken = cmp(BinOp::Ne, o.clone(), int(0, Ty::INT, loc), loc);
        let other = cmp(BinOp::Ne, o, me.clone(), loc);
        let why = if other_only {
            other
        } else {
            let normal = bin(
                BinOp::LogAnd,
                not(kind_is(w, KIND_RECURSIVE, loc), loc),
                not(kind_is(w, KIND_ERRORCHECK, loc), loc),
                Ty::INT,
                loc,
            );
            bin(BinOp::LogOr, other, normal, Ty::INT, loc)
        };
        bin(BinOp::LogAnd, taken, why, Ty::INT, loc)
    }

    /// The running thread's owner value (thread id + 1).
    fn me(p: &Program, b: &Book, loc: Loc) -> Expr {
        bin(
            BinOp::Add,
            cast(glob(p, b.tid, loc), Ty::INT, loc),
            int(1, Ty::INT, loc),
            Ty::INT,
            loc,
        )
    }

    /// The word of a mutex the running thread has just taken.
    fn taken(p: &Program, b: &Book, w: &Expr, loc: Loc) -> Expr {
        let c1 = int(1 << COUNT_SHIFT, Ty::INT, loc);
        let with = bin(BinOp::BitOr, freed(w, loc), c1, Ty::INT, loc);
        bin(BinOp::BitOr, with, me(p, b, loc), Ty::INT, loc)
    }

    fn load(m: &mut impl Method, mx: &Expr, loc: Loc, out: &mut Vec<Stmt>) -> Expr {
        let t = m.temp("__seqc_w", Ty::INT);
        let w = lv_local(t, Ty::INT, loc);
        out.push(st(StmtKind::Decl(t, None), loc));
        out.push(assign(w.clone(), mx.clone(), loc));
        w
    }

    fn set(dest: &Option<Expr>, v: i128, loc: Loc) -> Vec<Stmt> {
        match dest {
            Some(d) => vec![assign(d.clone(), int(v, Ty::INT, loc), loc)],
            None => vec![],
        }
    }

    /// `then ++ [dest = v]`.
    fn with(mut then: Vec<Stmt>, dest: &Option<Expr>, v: i128, loc: Loc) -> Vec<Stmt> {
        then.extend(set(dest, v, loc));
        then
    }

    /// A recursive relock: count + 1, or EAGAIN at the count's limit.
    fn relock(p: &Program, b: &Book, mx: &Expr, w: &Expr, dest: &Option<Expr>, loc: Loc) -> Stmt {
        let full = cmp(BinOp::Eq, count(w, loc), int(COUNT_MAX, Ty::INT, loc), loc);
        let mut up = vec![assign(mx.clone(), plus_count(w, 1, loc), loc)];
        up.extend(held_by(p, b, 1, loc));
        if_(full, set(dest, EAGAIN, loc), with(up, dest, 0, loc), loc)
    }

    /// `valid`: a timed lock's time is valid (`timed_out`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn lock_op(
        m: &mut impl Method,
        p: &Program,
        op: Op,
        mx: &Expr,
        valid: &Expr,
        dest: &Option<Expr>,
        loc: Loc,
        out: &mut Vec<Stmt>,
    ) {
        let b = m.book();
        let w = load(m, mx, loc, out);
        let zero = int(0, Ty::INT, loc);
        let free = cmp(BinOp::Eq, owner(&w, loc), zero, loc);
        let mine = cmp(BinOp::Eq, owner(&w, loc), me(p, &b, loc), loc);
        rule(m, p, destroyed(&w, loc), LockRule::UseDestroyed, loc, out);
        let mut take = vec![assign(mx.clone(), taken(p, &b, &w, loc), loc)];
        take.extend(held_by(p, &b, 1, loc));
        let take = with(take, dest, 0, loc);
        if matches!(op, Op::MutexLock | Op::MutexTimedLock) {
            let again = bin(
                BinOp::LogAnd,
                mine.clone(),
                not(kind_is(&w, KIND_RECURSIVE, loc), loc),
                Ty::INT,
                loc,
            );
            rule(m, p, again, LockRule::Relock, loc, out);
        }
        match op {
            Op::MutexTimedLock => {
                // Free: taken. The holder's recursive relock counts, its
                // error-checking one is EDEADLK; otherwise the call would
                // wait, and times out (`timed_out`).
                let counts = bin(
                    BinOp::LogAnd,
                    mine.clone(),
                    kind_is(&w, KIND_RECURSIVE, loc),
                    Ty::INT,
                    loc,
                );
                let checks = bin(
                    BinOp::LogAnd,
                    mine,
                    kind_is(&w, KIND_ERRORCHECK, loc),
                    Ty::INT,
                    loc,
                );
                let waits = vec![if_(
                    checks,
                    set(dest, EDEADLK, loc),
                    timed_out(dest, valid, loc),
                    loc,
                )];
                out.push(if_(
                    free,
                    take,
                    vec![if_(
                        counts,
                        vec![relock(p, &b, mx, &w, dest, loc)],
                        waits,
                        loc,
                    )],
                    loc,
                ));
            }
            Op::MutexLock => {
                // Held by another thread: wait (or stop). Held by this
                // one: a normal mutex deadlocks.
                let other = bin(
                    BinOp::LogAnd,
                    not(free.clone(), loc),
                    not(mine, loc),
                    Ty::INT,
                    loc,
                );
                let (obj, none) = (ptr_of(mx), int(0, Ty::INT, loc));
                wait_if(m, p, other, WAIT_LOCK, &obj, none.clone(), loc, out);
                let counts = kind_is(&w, KIND_RECURSIVE, loc);
                let checks = kind_is(&w, KIND_ERRORCHECK, loc);
                let hangs = bin(
                    BinOp::LogAnd,
                    not(free.clone(), loc),
                    bin(
                        BinOp::LogAnd,
                        not(counts.clone(), loc),
                        not(checks.clone(), loc),
                        Ty::INT,
                        loc,
                    ),
                    Ty::INT,
                    loc,
                );
                wait_if(m, p, hangs, WAIT_LOCK, &obj, none, loc, out);
                out.push(if_(
                    free,
                    take,
                    vec![if_(
                        checks,
                        set(dest, EDEADLK, loc),
                        vec![relock(p, &b, mx, &w, dest, loc)],
                        loc,
                    )],
                    loc,
                ));
            }
            Op::MutexTryLock => {
                let again = bin(
                    BinOp::LogAnd,
                    mine,
                    kind_is(&w, KIND_RECURSIVE, loc),
                    Ty::INT,
                    loc,
                );
                out.push(if_(
                    free,
                    take,
                    vec![if_(
                        again,
                        vec![relock(p, &b, mx, &w, dest, loc)],
                        set(dest, EBUSY, loc),
                        loc,
                    )],
                    loc,
                ));
            }
            _ => {
                // Unlock.
                rule(
                    m,
                    p,
                    not(mine.clone(), loc),
                    LockRule::UnlockNotHeld,
                    loc,
                    out,
                );
                let strict = bin(
                    BinOp::LogOr,
                    kind_is(&w, KIND_RECURSIVE, loc),
                    kind_is(&w, KIND_ERRORCHECK, loc),
                    Ty::INT,
                    loc,
                );
                let mut release = vec![assign(mx.clone(), freed(&w, loc), loc)];
                release.extend(held_by(p, &b, -1, loc));
                let release = with(release, dest, 0, loc);
                let other = with(vec![assign(mx.clone(), freed(&w, loc), loc)], dest, 0, loc);
                let deeper = bin(
                    BinOp::LogAnd,
                    kind_is(&w, KIND_RECURSIVE, loc),
                    cmp(BinOp::Gt, count(&w, loc), int(1, Ty::INT, loc), loc),
                    Ty::INT,
                    loc,
                );
                let mut down = vec![assign(mx.clone(), plus_count(&w, -1, loc), loc)];
                down.extend(held_by(p, &b, -1, loc));
                let down = with(down, dest, 0, loc);
                // Another thread's normal mutex is released, and stays
                // counted as held by the thread that took it.
                out.push(if_(
                    mine,
                    vec![if_(deeper, down, release, loc)],
                    vec![if_(strict, set(dest, EPERM, loc), other, loc)],
                    loc,
                ));
            }
        }
    }

    /// `pthread_cond_wait`: release (EPERM for a recursive or
    /// error-checking mutex the thread does not hold), a switch point,
    /// take it again.
    /// `timed`: `pthread_cond_timedwait`, with its time's validity.
    pub(super) fn wait(
        m: &mut impl Method,
        p: &Program,
        mx: &Expr,
        timed: Option<Expr>,
        dest: &Option<Expr>,
        loc: Loc,
        out: &mut Vec<Stmt>,
    ) {
        let b = m.book();
        let w = load(m, mx, loc, out);
        let mine = cmp(BinOp::Eq, owner(&w, loc), me(p, &b, loc), loc);
        rule(m, p, destroyed(&w, loc), LockRule::UseDestroyed, loc, out);
        rule(
            m,
            p,
            not(mine.clone(), loc),
            LockRule::WaitNotHeld,
            loc,
            out,
        );
        let strict = bin(
            BinOp::LogOr,
            kind_is(&w, KIND_RECURSIVE, loc),
            kind_is(&w, KIND_ERRORCHECK, loc),
            Ty::INT,
            loc,
        );
        let refused = bin(BinOp::LogAnd, not(mine.clone(), loc), strict, Ty::INT, loc);
        let deeper = bin(
            BinOp::LogAnd,
            kind_is(&w, KIND_RECURSIVE, loc),
            cmp(BinOp::Gt, count(&w, loc), int(1, Ty::INT, loc), loc),
            Ty::INT,
            loc,
        );
        let mut waits = vec![if_(
            deeper,
            vec![assign(mx.clone(), plus_count(&w, -1, loc), loc)],
            vec![assign(mx.clone(), freed(&w, loc), loc)],
            loc,
        )];
        let down = held_by(p, &b, -1, loc);
        if !down.is_empty() {
            waits.push(if_(mine, down, vec![], loc));
        }
        waits.extend(m.switch_point(p, loc));
        let w2 = load(m, mx, loc, &mut waits);
        let zero = int(0, Ty::INT, loc);
        let free = cmp(BinOp::Eq, owner(&w2, loc), zero, loc);
        let mine2 = cmp(BinOp::Eq, owner(&w2, loc), me(p, &b, loc), loc);
        let other = bin(
            BinOp::LogAnd,
            not(free.clone(), loc),
            not(mine2, loc),
            Ty::INT,
            loc,
        );
        let none = int(0, Ty::INT, loc);
        wait_if(m, p, other, WAIT_RELOCK, &ptr_of(mx), none, loc, &mut waits);
        waits.push(if_(
            free,
            vec![assign(mx.clone(), taken(p, &b, &w2, loc), loc)],
            vec![assign(mx.clone(), plus_count(&w2, 1, loc), loc)],
            loc,
        ));
        waits.extend(held_by(p, &b, 1, loc));
        if timed.is_some() {
            waits.extend(wake_outcome(m, dest, loc));
        } else {
            waits.extend(set(dest, 0, loc));
        }
        let mut body = vec![if_(refused, set(dest, EPERM, loc), waits, loc)];
        if let Some(valid) = timed {
            // An invalid time: EINVAL before anything (glibc checks it
            // first).
            body = vec![if_(valid, body, set(dest, EINVAL, loc), loc)];
        }
        out.extend(body);
    }
}

/// The type C gives a start routine: `void *(void *)`.
pub fn start_sig() -> FnSig {
    FnSig {
        ret: Ty::Void.ptr(),
        params: vec![Ty::Void.ptr()],
        variadic: false,
        unprototyped: false,
    }
}

/// `start_sig` as a type (a slot table holds pointers to it).
pub fn start_ty() -> Ty {
    Ty::Func(Box::new(start_sig()))
}

/// Where `e` takes the address of (a part of) a thread-local global, if
/// it does: the sequentializations keep one copy per thread indexed by
/// the running thread, so a pointer made in one thread would reach the
/// copy of whichever thread dereferences it. Refused by name.
pub(crate) fn tls_address(e: &Expr, tls: &std::collections::HashSet<GlobalId>) -> Option<Loc> {
    let mut at = None;
    e.walk(&mut |x| {
        if let ExprKind::AddrOf(a) | ExprKind::Decay(a) = &x.kind
            && crate::ir::access::base_global(a).is_some_and(|g| tls.contains(&g))
        {
            at.get_or_insert(x.loc);
        }
    });
    at
}

/// Where the program takes the address of a `__VERIFIER_atomic_*`
/// function (a call through a pointer, a start routine, a table), if it
/// does, and the refusal's words: the sequentializations make a call atomic at its call site, so
/// such a call would run without the atomic section the oracle gives it.
/// Refused by name.
pub(crate) fn atomic_fn_address(p: &Program) -> Option<(String, Loc)> {
    let mut found: Option<(String, Loc)> = None;
    let mut visit = |e: &Expr| {
        e.walk(&mut |x| {
            if let ExprKind::Func(f) = x.kind
                && p.func(f).atomic
                && found.is_none()
            {
                found = Some((p.func(f).name.clone(), x.loc));
            }
        })
    };
    for g in &p.globals {
        if let Some(i) = &g.init {
            i.each_expr(&mut visit);
        }
    }
    for f in &p.functions {
        let Some(b) = &f.body else { continue };
        b.walk(&mut |s| match &s.kind {
            // A direct call is no address.
            StmtKind::Call { dest, callee, args } => {
                if crate::ir::sites::strip(callee).is_none() {
                    visit(callee);
                }
                dest.iter().chain(args).for_each(&mut visit);
            }
            _ => s.each_expr(&mut visit),
        });
    }
    found.map(|(name, loc)| {
        let what = format!(
            "the address of atomic function '{name}' (a call through a pointer or a start routine)"
        );
        (what, loc)
    })
}
