//! The oracle's machine: memory as objects of cells, threads with frames,
//! and `step`, which runs one thread through one visible action and the
//! invisible actions after it.
//!
//! Memory: an object is a map from byte offset to cells; a cell is a scalar
//! value, or a span of zero or indeterminate bytes (so zeroed globals and
//! fresh `malloc` blocks cost one cell). Type punning (a union, a `char*`
//! over an `int`) goes through bytes: a read that is not one stored value
//! of its kind puts the value together from the bytes under it (least
//! significant first), and a write into part of a stored value leaves the
//! rest of it as byte cells. What has no byte image here (a NaN, a
//! function pointer, a partly indeterminate read) is reported as
//! unsupported rather than guessed. Pointers are (object, byte offset);
//! object ids come from per-thread counters so that the same state reached
//! by two interleavings hashes the same.
//!
//! Visibility: an access is a step of its own when its object is shared — a
//! global that is not thread-local, a heap block, or a local whose address
//! is taken; locks, thread operations, atomics and calls of
//! `__VERIFIER_atomic_*` functions are steps too. Everything else runs
//! without a scheduling point, which loses no interleaving outcome (such
//! actions commute with every other thread's).
//!
//! Blocking: a step whose first action cannot run (a held lock, a join of a
//! live thread, a `pthread_once` in progress) is not enabled. Anything that
//! blocks later in a step (inside an atomic section), a failed `assume`, a
//! bound cut, `exit` and `abort` stop that thread for good; the other
//! threads go on (DESIGN.md §3 rule 4). Inside atomic code no other
//! thread could run again, so the program ends there instead.

use super::compile::{Bits, Code, E, Mop, Reg};
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// An integer, canonical for its type (wrapped, sign-extended).
    Int(i128),
    /// `(object, byte offset)`; object 0 is "no object": null or an integer
    /// cast to a pointer.
    Ptr(u32, i64),
    Func(u32),
    /// An IEEE double's bits.
    Float(u64),
}

/// A register or a cell read: a scalar, or the cells of a struct value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RVal {
    S(Value),
    Agg(Vec<(u64, Cell)>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub len: u64,
    pub v: CellV,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellV {
    Val(Value),
    Zero,
    Undef,
    /// One byte of which only some bits are determinate (a bit-field was
    /// written into an indeterminate byte): the value, with the other bits
    /// 0, and the mask of the determinate ones.
    Bits(u8, u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ObjKind {
    Global(GlobalId),
    /// A thread's copy of a thread-local global.
    Tls(GlobalId, u32),
    Local(FuncId, LocalId),
    Heap(Loc),
    Str,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Object {
    pub kind: ObjKind,
    pub size: u64,
    pub shared: bool,
    pub alive: bool,
    pub cells: BTreeMap<u64, Cell>,
}

/// A shared, copy-on-write part of a state (an object, a thread) that
/// keeps its hash: a state's fingerprint is taken after every step, and
/// most parts are the ones the state before had (profiled: hashing and
/// copying every object's cells and every thread's frames again was a
/// third of the search, and the copies filled gigabytes). The only way
/// to change the part is `make_mut`, which forgets the hash.
#[derive(Clone)]
pub struct Shared<T> {
    v: Rc<T>,
    /// The part's `search::digest`, 0 until taken.
    fp: std::cell::Cell<u128>,
}

pub type ObjRef = Shared<Object>;

impl<T: Clone + std::hash::Hash> Shared<T> {
    pub fn new(v: T) -> Shared<T> {
        Shared {
            v: Rc::new(v),
            fp: std::cell::Cell::new(0),
        }
    }

    /// The part, to change (copied first if another state shares it).
    pub fn make_mut(&mut self) -> &mut T {
        self.fp.set(0);
        Rc::make_mut(&mut self.v)
    }

    fn digest(&self) -> u128 {
        let mut d = self.fp.get();
        if d == 0 {
            // 0 marks "not taken"; a digest of 0 is taken again each time.
            d = super::search::digest(&*self.v);
            self.fp.set(d);
        }
        d
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.v
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        *self.v == *other.v
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: Clone + std::hash::Hash> std::hash::Hash for Shared<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u128(self.digest());
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.v.fmt(f)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RetTo {
    /// The thread's first frame: its return value ends the thread.
    Thread,
    Reg(Option<Reg>),
    /// `pthread_once`'s routine: mark the control done.
    Once(Value),
    /// A key destructor of an exiting thread: go on with the next one.
    Dtor,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Frame {
    pub func: FuncId,
    pub pc: u32,
    pub regs: Vec<Option<RVal>>,
    pub locals: Vec<u32>,
    pub loops: Vec<u32>,
    pub ret: RetTo,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    Running,
    Finished(Value),
    Stopped(String),
}

/// A thread between its return (or `pthread_exit`) and its end: the key
/// destructors run (POSIX; glibc's order and number of passes).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Exiting {
    pub ret: Value,
    /// Pass (from 0) over the keys, and the next key to look at.
    pub pass: u32,
    pub next: u32,
    /// A value was found (and cleared) in this pass.
    pub seen: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Thread {
    pub frames: Vec<Frame>,
    pub status: Status,
    pub atomic_depth: u32,
    pub keys: BTreeMap<u32, Value>,
    pub exiting: Option<Exiting>,
    /// `pthread_detach`ed, or created detached.
    pub detached: bool,
    pub tls: BTreeMap<u32, u32>,
    pub next_obj: u32,
    pub func: FuncId,
    pub parent: Option<u32>,
    /// Under `locks-exit`: the locks (mutexes, spinlocks, write locks)
    /// this thread took and has not released itself, with how often.
    pub held: BTreeMap<(u32, i64), u32>,
    /// Main returned: that is exit, so a join of it never returns (the
    /// threads still running take steps they could have taken before).
    pub exited: bool,
    /// Where the thread stands in a round (`Cost::Rounds`): threads run
    /// in creation-site order, as Lal-Reps gives them slots
    /// (`ir::sites`). Main is `[0]`; a thread made at site position `s`
    /// (from 1) is `[s] ++ its creator's rank ++ [n]`, the `n`-th that
    /// creator made there. Compared as sequences (no rank is a prefix of
    /// another), so a site's threads go by their creators' order, then by
    /// the order one creator made them, and a child follows its creator.
    pub rank: Rc<[u32]>,
}

impl Thread {
    /// A thread about to run `func` (its first frame is pushed after).
    fn new(func: FuncId, parent: Option<u32>, rank: Rc<[u32]>) -> Thread {
        Thread {
            frames: Vec::new(),
            status: Status::Running,
            atomic_depth: 0,
            keys: BTreeMap::new(),
            exiting: None,
            detached: false,
            tls: BTreeMap::new(),
            next_obj: 0,
            func,
            parent,
            held: BTreeMap::new(),
            exited: false,
            rank,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub threads: Vec<Shared<Thread>>,
    pub objects: BTreeMap<u32, ObjRef>,
    pub site_counts: BTreeMap<(u32, u32, u32), u32>,
    /// Threads created past the thread bound: they exist, but this run
    /// ends before they are scheduled. Their ids are `UNSCHEDULED` and
    /// up, in creation order; the set holds the detached ones.
    pub unscheduled: u32,
    pub unscheduled_detached: BTreeSet<u32>,
    pub next_key: u32,
    /// Live keys that have a destructor, and its function.
    pub key_dtors: BTreeMap<u32, u32>,
}

#[derive(Clone, Debug)]
pub struct Bounds {
    pub unwind: u32,
    pub threads: u32,
    pub max_states: u64,
    /// The values a nondeterministic integer takes (wrapped to its type).
    pub nondet: Vec<i128>,
    /// Report deadlocks (`oracle::search::deadlocked`) as failures.
    pub deadlock: bool,
    /// Report broken rules of lock discipline (`ir::LockRule`, all but
    /// `ExitHolding`) as failures, at the operation.
    pub locks: bool,
    /// Report a thread that ends holding a lock it took.
    pub locks_exit: bool,
    /// Report a signed integer operation whose exact result its type
    /// cannot hold, at the statement that evaluates it.
    pub overflow: bool,
    /// Report an access C forbids (through a null pointer, to freed
    /// memory or to an object whose lifetime ended, outside its object)
    /// and a `free` of anything but the start of a live heap object, at
    /// the access (SV-COMP's valid-deref and valid-free).
    pub memsafety: bool,
    /// Report a live heap object that no global reaches through
    /// pointers where main returns (SV-COMP's valid-memtrack).
    pub memtrack: bool,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            unwind: 2,
            threads: 3,
            max_states: 2_000_000,
            nondet: (-1..=3).collect(),
            deadlock: false,
            locks: false,
            locks_exit: false,
            overflow: false,
            memsafety: false,
            memtrack: false,
        }
    }
}

/// One access to shared memory, as the next action of a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    pub obj: u32,
    pub off: i64,
    pub size: u64,
    pub write: bool,
    pub loc: Loc,
}

impl Access {
    /// A data race: the same bytes, at least one write.
    pub fn conflicts(&self, o: &Access) -> bool {
        self.obj == o.obj
            && (self.write || o.write)
            && self.off < o.off + o.size.max(1) as i64
            && o.off < self.off + self.size.max(1) as i64
    }
}

/// One thing a step did, for traces.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub loc: Loc,
    pub what: String,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StepEnd {
    /// The step ran; the thread is before its next visible action (or
    /// ended).
    Ran,
    /// The thread's first action cannot run now.
    Blocked(String),
    /// An assertion failed (file position, kind).
    Failed(Loc, AssertKind),
    /// The oracle cannot execute this program.
    Unsupported(String, Loc),
}

/// Where nondeterministic values come from.
pub struct Chooser<'a> {
    /// Indices into the domain, one per choice made so far in this step.
    pub script: &'a [u32],
    pub pos: usize,
    /// The arity of each choice made (to enumerate the others).
    pub arities: Vec<u32>,
    /// Values to use first (replay of a solver's model).
    pub forced: Option<&'a mut std::collections::VecDeque<i128>>,
    /// The values drawn; a floating value as its IEEE bits (as a back
    /// end's model and a forced value give it).
    pub taken: Vec<i128>,
    /// Where each value in `taken` was drawn.
    pub taken_at: Vec<Loc>,
    /// The floating type of each value in `taken`, if it is one.
    pub taken_float: Vec<Option<FloatKind>>,
}

pub struct Machine<'p> {
    pub p: &'p Program,
    pub code: &'p Code,
    pub b: &'p Bounds,
    /// Record events (for traces); off while searching, for speed.
    pub trace: bool,
    /// What an expression's failure said (an overflow's operands), for
    /// the step's event: expressions have no event list of their own.
    pub said: std::sync::Mutex<Option<String>>,
}

use crate::ir::errno::{EAGAIN, EBUSY, EDEADLK, EINVAL, EPERM, ESRCH, ETIMEDOUT};

mod exec;
mod memory;
mod posix;
mod values;
const OBJ_SHIFT: u32 = 12;

/// A mutex object's words: its owner (thread + 1; 0 when free), its lock
/// count and its kind (glibc's numbers: 0 normal, 1 recursive, 2
/// error-checking, 3 adaptive). A zero mutex is a free normal one.
const MX_OWNER: i64 = 0;
const MX_COUNT: i64 = 4;
pub(super) const MX_KIND: i64 = 8;
/// In a condition wait's state (`Mop::Relock`): a timed wait.
pub(super) const TIMED: i128 = 4;
/// In the kind word: destroyed (kept only under `--property locks`).
const MX_DESTROYED: i128 = 4;
const RECURSIVE: i128 = 1;
const ERRORCHECK: i128 = 2;
/// The most times a recursive mutex may be held (then EAGAIN).
const MX_COUNT_MAX: i128 = (1 << 15) - 1;
/// glibc's PTHREAD_DESTRUCTOR_ITERATIONS.
const DESTRUCTOR_PASSES: u32 = 4;

struct Fail(StepEnd);

type R<T> = Result<T, Fail>;

fn unsup<T>(what: impl Into<String>, loc: Loc) -> R<T> {
    Err(Fail(StepEnd::Unsupported(what.into(), loc)))
}

impl<'p> Machine<'p> {
    pub fn dm(&self) -> DataModel {
        self.p.data_model
    }

    /// The start: globals initialised, main's frame pushed.
    pub fn initial(&self) -> Result<State, (String, Loc)> {
        let mut st = State {
            threads: Vec::new(),
            objects: BTreeMap::new(),
            site_counts: BTreeMap::new(),
            unscheduled: 0,
            unscheduled_detached: BTreeSet::new(),
            next_key: 0,
            key_dtors: BTreeMap::new(),
        };
        for (i, g) in self.p.globals.iter().enumerate() {
            if g.thread_local || matches!(g.ty.unqual(), Ty::Func(_)) {
                continue;
            }
            let size = self.p.size_of(&g.ty).unwrap_or(0);
            st.objects.insert(
                i as u32 + 1,
                ObjRef::new(Object {
                    kind: ObjKind::Global(GlobalId(i as u32)),
                    size,
                    shared: true,
                    alive: true,
                    cells: span(size, CellV::Zero),
                }),
            );
        }
        let sbase = self.p.globals.len() as u32 + 1;
        for (i, s) in self.code.strings.iter().enumerate() {
            let mut cells = BTreeMap::new();
            for (j, b) in s.iter().enumerate() {
                cells.insert(
                    j as u64,
                    Cell {
                        len: 1,
                        v: CellV::Val(Value::Int(*b as i8 as i128)),
                    },
                );
            }
            st.objects.insert(
                sbase + i as u32,
                ObjRef::new(Object {
                    kind: ObjKind::Str,
                    size: s.len() as u64,
                    shared: false,
                    alive: true,
                    cells,
                }),
            );
        }
        let Some(main) = self.p.func_by_name("main") else {
            return Err(("the program has no main function".into(), Loc::NONE));
        };
        st.threads
            .push(Shared::new(Thread::new(main, None, Rc::from([0u32]))));
        // Global initialisers run as main's first, invisible, actions.
        let mut ch = Chooser::new(&[]);
        let r = (|| -> R<()> {
            for (i, g) in self.p.globals.iter().enumerate() {
                if let (Some(init), false) = (&g.init, g.thread_local) {
                    let at = Value::Ptr(i as u32 + 1, 0);
                    self.store_init(&mut st, 0, at, &g.ty, init, g.loc, &mut ch)?;
                }
            }
            self.init_tls(&mut st, 0)?;
            self.push_frame(&mut st, 0, main, vec![], RetTo::Thread, Loc::NONE)?;
            Ok(())
        })();
        match r {
            Ok(()) => Ok(st),
            Err(Fail(StepEnd::Unsupported(w, l))) => Err((w, l)),
            Err(Fail(e)) => Err((format!("initialisation failed: {e:?}"), Loc::NONE)),
        }
    }

    /// Initialisers of globals: constant expressions only.
    fn store_init(
        &self,
        st: &mut State,
        t: u32,
        at: Value,
        ty: &Ty,
        init: &Init,
        loc: Loc,
        ch: &mut Chooser,
    ) -> R<()> {
        // A key is a value (`pthread_key_t k = b;` copies b's number).
        let key_value =
            matches!(init, Init::Expr(_)) && *ty.unqual() == Ty::Pthread(PthreadTy::Key);
        if let Ty::Pthread(p) = ty.unqual()
            && *p != PthreadTy::Thread
            && !key_value
        {
            // PTHREAD_*_INITIALIZER: the zero state; a mutex's kind.
            let n = self.p.size_of(ty).unwrap_or(0);
            self.fill(st, at, n, CellV::Zero, loc)?;
            if let Init::Expr(e) = init
                && let Some(k) = crate::ir::build::const_of(e)
            {
                self.set_word(st, at, MX_KIND, k, loc)?;
            }
            return Ok(());
        }
        match init {
            Init::Expr(e) => {
                let v = self.const_expr(st, t, e, ch)?;
                self.write(st, at, ty, v, loc)
            }
            Init::Str(bytes) => {
                for (i, b) in bytes.iter().enumerate() {
                    let a = ptr_add(at, i as i64);
                    self.write(st, a, &Ty::CHAR, RVal::S(Value::Int(*b as i8 as i128)), loc)?;
                }
                Ok(())
            }
            Init::Array(items) => {
                let Ty::Array(elem, _) = ty.unqual() else {
                    return unsup("array initialiser", loc);
                };
                let es = self.p.size_of(elem).unwrap_or(0);
                for (i, it) in items {
                    self.store_init(st, t, ptr_add(at, (*i * es) as i64), elem, it, loc, ch)?;
                }
                Ok(())
            }
            Init::Comp(items) => {
                let Ty::Comp(c) = ty.unqual() else {
                    return unsup("struct initialiser", loc);
                };
                let Some((offs, _, _)) = self.p.comp_layout(*c) else {
                    return unsup("incomplete struct", loc);
                };
                let def = self.p.comp(*c);
                for (fi, it) in items {
                    let f = &def.fields[*fi as usize];
                    if let Some(bf) = self.p.bit_field(*c, *fi) {
                        let Init::Expr(e) = it else {
                            return unsup("a bit-field's braced initialiser", loc);
                        };
                        let v = self.const_expr(st, t, e, ch)?.scalar(loc)?;
                        let a = ptr_add(at, bf.byte as i64);
                        self.write_bits(st, a, &bf, &f.ty, v, loc)?;
                        continue;
                    }
                    if f.bit_width.is_some() {
                        // A zero-width bit-field has no value.
                        continue;
                    }
                    let a = ptr_add(at, offs[*fi as usize] as i64);
                    self.store_init(st, t, a, &f.ty, it, loc, ch)?;
                }
                Ok(())
            }
        }
    }

    /// Evaluates a global's initialiser expression (no loads: constants,
    /// addresses, casts and arithmetic on them).
    fn const_expr(&self, st: &mut State, t: u32, e: &Expr, ch: &mut Chooser) -> R<RVal> {
        // Reuse the compiler's view of expressions through a tiny walk.
        let ee = const_e(self, e).ok_or(Fail(StepEnd::Unsupported(
            "a global initialiser that reads memory".into(),
            e.loc,
        )))?;
        let frame_regs: Vec<Option<RVal>> = Vec::new();
        self.eval_in(st, t, &frame_regs, &[], &ee, e.loc, ch)
    }

    pub fn is_enabled_thread(&self, st: &State, t: u32) -> bool {
        matches!(st.threads[t as usize].status, Status::Running)
    }

    /// Runs thread `t` for one step. `st` is changed in place; on
    /// `Blocked` the caller must discard it.
    pub fn step(&self, st: &mut State, t: u32, ch: &mut Chooser, ev: &mut Vec<Event>) -> StepEnd {
        match self.step_inner(st, t, ch, ev) {
            Ok(()) => StepEnd::Ran,
            Err(Fail(e)) => e,
        }
    }

    fn step_inner(&self, st: &mut State, t: u32, ch: &mut Chooser, ev: &mut Vec<Event>) -> R<()> {
        // Invisible actions run freely; the step ends before the second
        // visible action outside atomic code.
        let mut done_visible = false;
        let mut budget: u64 = 1_000_000;
        loop {
            let th = &st.threads[t as usize];
            if th.status != Status::Running {
                return Ok(());
            }
            let atomic = self.in_atomic(th);
            let vis = self.next_visible(st, t);
            if vis && done_visible && !atomic {
                self.clear_dead(st, t);
                return Ok(());
            }
            match self.exec(st, t, ch, ev) {
                Ok(()) => {}
                Err(Fail(StepEnd::Blocked(why))) if done_visible => {
                    // Blocked inside an atomic section: the thread stops.
                    let l = self.cur_loc(st, t);
                    self.stop(
                        st,
                        t,
                        format!("blocked inside an atomic section ({why})"),
                        l,
                        ev,
                    );
                    return Ok(());
                }
                Err(Fail(StepEnd::Failed(
                    l,
                    k @ (AssertKind::Overflow
                    | AssertKind::InvalidDeref
                    | AssertKind::InvalidFree
                    | AssertKind::MemTrack),
                ))) => {
                    if self.trace {
                        let said = self.said.lock().unwrap().take();
                        ev.push(Event {
                            loc: l,
                            what: said.unwrap_or_else(|| k.what()),
                        });
                    }
                    return Err(Fail(StepEnd::Failed(l, k)));
                }
                Err(e) => return Err(e),
            }
            done_visible |= vis;
            budget -= 1;
            if budget == 0 {
                let l = self.cur_loc(st, t);
                return unsup(
                    "a step that runs a million actions without a visible one",
                    l,
                );
            }
        }
    }

    /// Forgets registers that cannot be read again before being written.
    fn clear_dead(&self, st: &mut State, t: u32) {
        for f in &mut st.threads[t as usize].make_mut().frames {
            let code = self.code.funcs[f.func.index()].as_ref().unwrap();
            let (lo, hi) = code.live.get(f.pc as usize).copied().unwrap_or((0, 0));
            for (i, r) in f.regs.iter_mut().enumerate() {
                if (i as u32) < lo || (i as u32) >= hi {
                    *r = None;
                }
            }
        }
    }

    fn in_atomic(&self, th: &Thread) -> bool {
        th.atomic_depth > 0 || th.frames.iter().any(|f| self.p.func(f.func).atomic)
    }

    pub fn cur_loc(&self, st: &State, t: u32) -> Loc {
        let th = &st.threads[t as usize];
        match th.frames.last() {
            Some(f) => self.code.funcs[f.func.index()]
                .as_ref()
                .and_then(|c| c.ops.get(f.pc as usize))
                .map(|o| o.1)
                .unwrap_or(Loc::NONE),
            None => Loc::NONE,
        }
    }

    /// Does a thread other than `me` wait on the mutex `m` in a condition
    /// wait (it released it and has yet to take it again)? glibc's
    /// `pthread_mutex_destroy` then returns EBUSY: the waiter keeps a use.
    pub(super) fn waits_on(&self, st: &State, me: u32, m: Value) -> bool {
        st.threads.iter().enumerate().any(|(t, th)| {
            let t = t as u32;
            let Some(f) = th.frames.last() else {
                return false;
            };
            // A stopped thread is one the run no longer schedules: in
            // the real run it still waits.
            if t == me || matches!(th.status, Status::Finished(_)) {
                return false;
            }
            let code = self.code.funcs[f.func.index()].as_ref().unwrap();
            let Some((Mop::Relock(_, e, state), loc)) = code.ops.get(f.pc as usize) else {
                return false;
            };
            // State 1: a recursive mutex stayed held (its owner shows it).
            let released = matches!(
                f.regs.get(*state as usize),
                Some(Some(RVal::S(Value::Int(v)))) if v & !TIMED == 0
            );
            let mut ch = Chooser::new(&[]);
            released
                && matches!(self.eval_in(st, t, &f.regs, &f.locals, e, *loc, &mut ch),
                    Ok(RVal::S(v)) if v == m)
        })
    }

    /// Is the thread's next action a scheduling point?
    pub fn next_visible(&self, st: &State, t: u32) -> bool {
        let th = &st.threads[t as usize];
        let Some(f) = th.frames.last() else {
            return false;
        };
        let code = self.code.funcs[f.func.index()].as_ref().unwrap();
        let (m, loc) = &code.ops[f.pc as usize];
        let mut ch = Chooser::new(&[]);
        match m {
            Mop::Load(_, a, _)
            | Mop::Store(a, _, _)
            | Mop::LoadBits(_, a, _)
            | Mop::StoreBits(a, _, _)
            | Mop::Zero(a, _) => match self.eval_in(st, t, &f.regs, &f.locals, a, *loc, &mut ch) {
                Ok(RVal::S(Value::Ptr(o, _))) => {
                    st.objects.get(&o).map(|o| o.shared).unwrap_or(true)
                }
                _ => true,
            },
            // A create past the thread bound makes a thread that never
            // runs and writes only its id: not a scheduling point (the
            // sequentializations place none there either).
            Mop::Op(_, Op::ThreadCreate, _, _)
                if st
                    .site_counts
                    .get(&(loc.file.0, loc.line, loc.col))
                    .is_some_and(|&n| n >= self.b.threads) =>
            {
                false
            }
            Mop::Op(_, op, _, _) => op_visible(*op),
            Mop::Relock(..) | Mop::BarrierPass(..) => true,
            // Main's return reads the whole heap under memtrack
            // (`leak_rule`): other threads may run right before it.
            Mop::Ret(_) => t == 0 && th.frames.len() == 1 && self.b.memtrack,
            Mop::Call(_, c, _, _) => {
                match self.eval_in(st, t, &f.regs, &f.locals, c, *loc, &mut ch) {
                    Ok(RVal::S(Value::Func(fi))) => self.p.functions[fi as usize].atomic,
                    _ => true,
                }
            }
            _ => false,
        }
    }

    /// The accesses to shared memory, outside atomic code, that thread
    /// `t` may make next (data races are between such accesses). A thread
    /// not yet at a visible action (a new one) is first run through its
    /// invisible actions on a copy, under every choice of values they draw.
    pub fn next_accesses(&self, st: &State, t: u32) -> Vec<Access> {
        let Some(th) = st.threads.get(t as usize) else {
            return vec![];
        };
        if th.status != Status::Running {
            return vec![];
        }
        if self.next_visible(st, t) {
            return self.access_at(st, t).into_iter().collect();
        }
        let mut out = Vec::new();
        let mut script: Vec<u32> = Vec::new();
        for _ in 0..256 {
            let mut s = st.clone();
            let mut ch = Chooser::new(&script);
            for _ in 0..10_000 {
                if s.threads[t as usize].status != Status::Running {
                    break;
                }
                if self.next_visible(&s, t) {
                    out.extend(self.access_at(&s, t));
                    break;
                }
                if self.exec(&mut s, t, &mut ch, &mut Vec::new()).is_err() {
                    break;
                }
            }
            let used: Vec<u32> = (0..ch.arities.len())
                .map(|i| script.get(i).copied().unwrap_or(0))
                .collect();
            match super::search::next_script(used, &ch.arities) {
                Some(n) => script = n,
                None => break,
            }
        }
        out.sort_by_key(|a| (a.obj, a.off, a.size, a.write, a.loc));
        out.dedup();
        out
    }

    fn access_at(&self, st: &State, t: u32) -> Option<Access> {
        let th = &st.threads[t as usize];
        if self.in_atomic(th) {
            return None;
        }
        let f = th.frames.last()?;
        let code = self.code.funcs[f.func.index()].as_ref()?;
        let (m, loc) = &code.ops[f.pc as usize];
        // A bit-field access touches its whole memory location (C11
        // 3.14): `shift` moves the address from the field's first byte to
        // the location's.
        let (a, size, write, shift) = match m {
            Mop::Load(_, a, ty) => (a, self.p.size_of(ty.unqual()).unwrap_or(0), false, 0),
            Mop::Store(a, _, ty) => (a, self.p.size_of(ty.unqual()).unwrap_or(0), true, 0),
            Mop::LoadBits(_, a, b) => (a, b.at.location.1, false, b.at.location_shift()),
            Mop::StoreBits(a, _, b) => (a, b.at.location.1, true, b.at.location_shift()),
            Mop::Zero(a, n) => (a, *n, true, 0),
            _ => return None,
        };
        // An `_Atomic` object's reads and writes are atomic accesses
        // (C11 5.1.2.4p25), which race with no other atomic access.
        if matches!(m, Mop::Load(_, _, ty) | Mop::Store(_, _, ty) if ty.is_atomic()) {
            return None;
        }
        let mut ch = Chooser::new(&[]);
        match self.eval_in(st, t, &f.regs, &f.locals, a, *loc, &mut ch) {
            Ok(RVal::S(Value::Ptr(o, off))) if st.objects.get(&o).is_some_and(|x| x.shared) => {
                Some(Access {
                    obj: o,
                    off: off + shift,
                    size,
                    write,
                    loc: *loc,
                })
            }
            _ => None,
        }
    }

    fn obj_shared(&self, st: &State, p: Value) -> bool {
        match p {
            Value::Ptr(o, _) => st.objects.get(&o).map(|o| o.shared).unwrap_or(false),
            _ => false,
        }
    }
}

/// The oracle's own view of a global initialiser expression.
fn const_e(m: &Machine, e: &Expr) -> Option<E> {
    Some(match &e.kind {
        ExprKind::Int(v) => E::Int(*v),
        ExprKind::Float(s) => E::Float(crate::oracle::compile::float_constant(s, &e.ty)?),
        ExprKind::Func(f) => E::Func(*f),
        ExprKind::Cast(a) => E::Cast(Box::new(const_e(m, a)?), a.ty.clone(), e.ty.clone()),
        ExprKind::Unary(op, a) => E::Un(*op, Box::new(const_e(m, a)?), a.ty.clone(), e.ty.clone()),
        ExprKind::Binary(op, a, b) => E::Bin(
            *op,
            Box::new(const_e(m, a)?),
            Box::new(const_e(m, b)?),
            a.ty.clone(),
            b.ty.clone(),
            e.ty.clone(),
        ),
        ExprKind::AddrOf(a) | ExprKind::Decay(a) => const_addr(m, a)?,
        ExprKind::Nondet => E::Nondet(e.ty.clone()),
        _ => return None,
    })
}

fn const_addr(m: &Machine, e: &Expr) -> Option<E> {
    Some(match &e.kind {
        ExprKind::Global(g) => E::AddrGlobal(*g),
        ExprKind::Func(f) => E::Func(*f),
        ExprKind::Member(b, i) => {
            let Ty::Comp(c) = b.ty.unqual() else {
                return None;
            };
            let (offs, _, _) = m.p.comp_layout(*c)?;
            E::Offset(Box::new(const_addr(m, b)?), offs[*i as usize] as i64)
        }
        ExprKind::Index(a, i) => E::Index(
            Box::new(const_addr(m, a)?),
            Box::new(const_e(m, i)?),
            i.ty.clone(),
            m.p.size_of(&e.ty)?,
        ),
        ExprKind::Str(bytes) => {
            let idx = m.code.strings.iter().position(|s| s == bytes)?;
            E::AddrStr(idx as u32)
        }
        _ => return None,
    })
}

/// Whether an operation is a step other threads may see. Creating or
/// deleting a key is: it stores the key's number where the program says
/// (a global another thread reads) and changes which destructors run.
fn op_visible(op: Op) -> bool {
    !matches!(
        op,
        Op::ThreadSelf
            | Op::ThreadEqual
            | Op::GetSpecific
            | Op::SetSpecific
            | Op::AttrNoop(_)
            | Op::LibNoop(_)
            | Op::Fence
            | Op::Malloc
            | Op::Calloc
            | Op::Abort
            | Op::Exit
    )
}

/// An object's cells when all its bytes are alike (zero or indeterminate).
fn span(n: u64, v: CellV) -> BTreeMap<u64, Cell> {
    let mut m = BTreeMap::new();
    if n > 0 {
        m.insert(0, Cell { len: n, v });
    }
    m
}

pub fn truth(v: Value) -> bool {
    match v {
        Value::Int(i) => i != 0,
        Value::Ptr(o, off) => o != 0 || off != 0,
        Value::Func(_) => true,
        Value::Float(b) => f64::from_bits(b) != 0.0,
    }
}

fn ptr_add(p: Value, d: i64) -> Value {
    match p {
        Value::Ptr(o, off) => Value::Ptr(o, off.wrapping_add(d)),
        v => v,
    }
}

fn round_float(k: FloatKind, v: f64) -> f64 {
    match k {
        FloatKind::Float => v as f32 as f64,
        _ => v,
    }
}

impl RVal {
    fn scalar(self, loc: Loc) -> R<Value> {
        match self {
            RVal::S(v) => Ok(v),
            RVal::Agg(_) => unsup("a struct value where a scalar is needed", loc),
        }
    }
}

impl<'a> Chooser<'a> {
    pub fn new(script: &'a [u32]) -> Chooser<'a> {
        Chooser {
            script,
            pos: 0,
            arities: Vec::new(),
            forced: None,
            taken: Vec::new(),
            taken_at: Vec::new(),
            taken_float: Vec::new(),
        }
    }

    /// A floating draw: a forced value is the type's IEEE bits; otherwise
    /// a value of `dom`, converted. Recorded as its bits.
    pub fn pick_float(&mut self, dom: &[i128], k: FloatKind) -> f64 {
        let single = k == FloatKind::Float;
        let v = match self.forced.as_mut().and_then(|f| f.pop_front()) {
            Some(b) if single => f64::from(f32::from_bits(b as u32)),
            Some(b) => f64::from_bits(b as u64),
            None => dom[self.choose(dom.len())] as f64,
        };
        let (v, bits) = if single {
            let f = v as f32;
            (f64::from(f), f.to_bits() as i128)
        } else {
            (v, v.to_bits() as i128)
        };
        self.taken.push(bits);
        self.taken_float.push(Some(k));
        v
    }

    /// The next scripted index among `n` (recorded for enumeration).
    fn choose(&mut self, n: usize) -> usize {
        let i = if self.pos < self.script.len() {
            self.script[self.pos]
        } else {
            0
        };
        self.pos += 1;
        self.arities.push(n as u32);
        (i as usize).min(n - 1)
    }

    /// One value from `dom`: forced values first, then the script, then
    /// the first value (and the arity is recorded for enumeration).
    pub fn pick_from(&mut self, dom: &[i128]) -> i128 {
        if let Some(f) = self.forced.as_mut()
            && let Some(v) = f.pop_front()
        {
            self.taken.push(v);
            self.taken_float.push(None);
            return v;
        }
        let v = dom[self.choose(dom.len())];
        self.taken.push(v);
        self.taken_float.push(None);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acc(obj: u32, off: i64, size: u64, write: bool) -> Access {
        Access {
            obj,
            off,
            size,
            write,
            loc: Loc::NONE,
        }
    }

    /// A part's kept hash follows its contents: a change through
    /// `make_mut` is seen (a stale hash would merge two states and hide
    /// a failure), a copy that another state shares keeps the old one.
    #[test]
    fn a_shared_part_is_hashed_again_after_a_change() {
        let obj = |v: i128| Object {
            kind: ObjKind::Str,
            size: 4,
            shared: true,
            alive: true,
            cells: BTreeMap::from([(
                0,
                Cell {
                    len: 4,
                    v: CellV::Val(Value::Int(v)),
                },
            )]),
        };
        let digest = |o: &ObjRef| crate::oracle::search::digest(o);
        let mut a = ObjRef::new(obj(1));
        let before = digest(&a);
        let b = a.clone();
        a.make_mut().cells.insert(
            0,
            Cell {
                len: 4,
                v: CellV::Val(Value::Int(2)),
            },
        );
        assert_ne!(digest(&a), before);
        assert_eq!(digest(&a), digest(&ObjRef::new(obj(2))));
        assert_eq!(digest(&b), before);
        a.make_mut().alive = true;
        assert_eq!(digest(&a), digest(&ObjRef::new(obj(2))));
    }

    #[test]
    fn a_race_needs_the_same_bytes_and_a_write() {
        // Same int, one write.
        assert!(acc(1, 0, 4, true).conflicts(&acc(1, 0, 4, false)));
        // Two reads never race.
        assert!(!acc(1, 0, 4, false).conflicts(&acc(1, 0, 4, false)));
        // Neighbouring fields do not overlap.
        assert!(!acc(1, 0, 4, true).conflicts(&acc(1, 4, 4, true)));
        // A byte inside an int does.
        assert!(acc(1, 0, 4, true).conflicts(&acc(1, 3, 1, false)));
        // Other objects never.
        assert!(!acc(1, 0, 4, true).conflicts(&acc(2, 0, 4, true)));
    }
}
