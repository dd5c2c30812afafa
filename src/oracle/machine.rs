//! The oracle's machine: memory as objects of cells, threads with frames,
//! and `step`, which runs one thread through one visible action and the
//! invisible actions after it.
//!
//! Memory: an object is a map from byte offset to cells; a cell is a scalar
//! value, or a span of zero or indeterminate bytes (so zeroed globals and
//! fresh `malloc` blocks cost one cell). A read that straddles cells of
//! another shape (type punning through a union or a `char*`) is reported as
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
//! threads go on (DESIGN.md §3 rule 4).

use super::compile::{Code, E, Mop, Reg};
use crate::ir::*;
use std::collections::BTreeMap;
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
}

impl Thread {
    /// A thread about to run `func` (its first frame is pushed after).
    fn new(func: FuncId, parent: Option<u32>) -> Thread {
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
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub threads: Vec<Thread>,
    pub objects: BTreeMap<u32, Rc<Object>>,
    pub site_counts: BTreeMap<(u32, u32, u32), u32>,
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
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            unwind: 2,
            threads: 3,
            max_states: 2_000_000,
            nondet: (-1..=3).collect(),
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
    pub taken: Vec<i128>,
}

pub struct Machine<'p> {
    pub p: &'p Program,
    pub code: &'p Code,
    pub b: &'p Bounds,
    /// Record events (for traces); off while searching, for speed.
    pub trace: bool,
}

use crate::ir::errno::{EAGAIN, EBUSY, EDEADLK, EINVAL, EPERM, ESRCH};
const OBJ_SHIFT: u32 = 12;

/// A mutex object's words: its owner (thread + 1; 0 when free), its lock
/// count and its kind (glibc's numbers: 0 normal, 1 recursive, 2
/// error-checking, 3 adaptive). A zero mutex is a free normal one.
const MX_OWNER: i64 = 0;
const MX_COUNT: i64 = 4;
pub(super) const MX_KIND: i64 = 8;
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
            next_key: 1,
            key_dtors: BTreeMap::new(),
        };
        for (i, g) in self.p.globals.iter().enumerate() {
            if g.thread_local || matches!(g.ty.unqual(), Ty::Func(_)) {
                continue;
            }
            let size = self.p.size_of(&g.ty).unwrap_or(0);
            st.objects.insert(
                i as u32 + 1,
                Rc::new(Object {
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
                Rc::new(Object {
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
        st.threads.push(Thread::new(main, None));
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
        if let Ty::Pthread(p) = ty.unqual()
            && *p != PthreadTy::Thread
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
                    if f.bit_width.is_some() {
                        return unsup("bit-fields", loc);
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
        for f in &mut st.threads[t as usize].frames {
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
            Mop::Load(_, a, _) | Mop::Store(a, _, _) | Mop::Zero(a, _) => {
                match self.eval_in(st, t, &f.regs, &f.locals, a, *loc, &mut ch) {
                    Ok(RVal::S(Value::Ptr(o, _))) => {
                        st.objects.get(&o).map(|o| o.shared).unwrap_or(true)
                    }
                    _ => true,
                }
            }
            Mop::Op(_, op, _, _) => op_visible(*op),
            Mop::Relock(..) => true,
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
        let (a, size, write) = match m {
            Mop::Load(_, a, ty) => (a, self.p.size_of(ty.unqual()).unwrap_or(0), false),
            Mop::Store(a, _, ty) => (a, self.p.size_of(ty.unqual()).unwrap_or(0), true),
            Mop::Zero(a, n) => (a, *n, true),
            _ => return None,
        };
        let mut ch = Chooser::new(&[]);
        match self.eval_in(st, t, &f.regs, &f.locals, a, *loc, &mut ch) {
            Ok(RVal::S(Value::Ptr(o, off))) if st.objects.get(&o).is_some_and(|x| x.shared) => {
                Some(Access {
                    obj: o,
                    off,
                    size,
                    write,
                    loc: *loc,
                })
            }
            _ => None,
        }
    }

    fn new_obj(&self, st: &mut State, t: u32, o: Object) -> u32 {
        let th = &mut st.threads[t as usize];
        th.next_obj += 1;
        let id = ((t + 1) << 16) | th.next_obj;
        st.objects.insert(id, Rc::new(o));
        id
    }

    fn push_frame(
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
            st.threads[t as usize].status = Status::Stopped(format!(
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
        st.threads[t as usize].frames.push(Frame {
            func: f,
            pc: 0,
            regs: vec![None; code.nregs as usize],
            locals,
            loops: vec![0; code.nloops as usize],
            ret,
        });
        Ok(())
    }

    fn stop(&self, st: &mut State, t: u32, why: String, loc: Loc, ev: &mut Vec<Event>) {
        if self.trace {
            ev.push(Event {
                loc,
                what: format!("thread stops: {why}"),
            });
        }
        st.threads[t as usize].status = Status::Stopped(why);
    }

    /// Executes the thread's current action.
    fn exec(&self, st: &mut State, t: u32, ch: &mut Chooser, ev: &mut Vec<Event>) -> R<()> {
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
            Mop::Zero(a, n) => {
                let p = ev!(a).scalar(loc)?;
                self.fill(st, p, *n, CellV::Zero, loc)?;
            }
            Mop::Decl(v) => {
                let f = st.threads[t as usize].frames.last().unwrap();
                let o = f.locals[v.index()];
                let size = st.objects[&o].size;
                let obj = Rc::make_mut(st.objects.get_mut(&o).unwrap());
                obj.cells = span(size, CellV::Undef);
            }
            Mop::Jump(to) => next = *to,
            Mop::Branch(c, a, b) => {
                let v = ev!(c).scalar(loc)?;
                next = if truth(v) { *a } else { *b };
            }
            Mop::LoopEnter(id) => {
                st.threads[t as usize].frames.last_mut().unwrap().loops[*id as usize] = 0;
            }
            Mop::LoopGuard(id) => {
                let f = st.threads[t as usize].frames.last_mut().unwrap();
                if f.loops[*id as usize] >= self.b.unwind {
                    let why = format!("loop unwinding bound {} reached", self.b.unwind);
                    self.stop(st, t, why, loc, ev);
                    return Ok(());
                }
            }
            Mop::BackEdge(id, to, guarded) => {
                let f = st.threads[t as usize].frames.last_mut().unwrap();
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
                    st.threads[t as usize].frames.last_mut().unwrap().pc = next;
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
                let th = &mut st.threads[t as usize];
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
                            what: match k {
                                AssertKind::Assert => "assertion fails".into(),
                                AssertKind::ReachError => "error location reached".into(),
                            },
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
                let res = self.relock(st, t, m, state, loc, ev)?;
                if let Some(r) = r {
                    self.set_reg(st, t, *r, RVal::S(Value::Int(res)));
                }
            }
            Mop::Op(r, op, args, tys) => {
                let mut a = Vec::new();
                for x in args {
                    a.push(ev!(x));
                }
                st.threads[t as usize].frames.last_mut().unwrap().pc = next;
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
                        if let Some(f) = st.threads[t as usize].frames.last_mut()
                            && f.func == fid
                        {
                            f.pc = pc;
                        }
                        return Err(e);
                    }
                }
            }
        }
        if let Some(f) = st.threads[t as usize].frames.last_mut() {
            f.pc = next;
        }
        Ok(())
    }

    fn finish(&self, st: &mut State, t: u32, v: Value) {
        let th = &mut st.threads[t as usize];
        for fr in std::mem::take(&mut th.frames) {
            for o in &fr.locals {
                st.objects.remove(o);
            }
        }
        st.threads[t as usize].status = Status::Finished(v);
    }

    fn reg(&self, st: &State, t: u32, r: Reg) -> Option<RVal> {
        st.threads[t as usize]
            .frames
            .last()
            .and_then(|f| f.regs.get(r as usize).cloned().flatten())
    }

    /// The program ends (`exit` inside atomic code, or main's return
    /// there): no thread takes another step.
    fn end_program(&self, st: &mut State, why: &str, loc: Loc, ev: &mut Vec<Event>) {
        if self.trace {
            ev.push(Event {
                loc,
                what: format!("the program ends: {why}"),
            });
        }
        for th in &mut st.threads {
            if th.status == Status::Running {
                th.status = Status::Stopped(why.to_string());
            }
        }
    }

    /// Thread `t` returned from its start routine or called
    /// `pthread_exit` with `v`: its key destructors run, then it ends.
    fn begin_exit(&self, st: &mut State, t: u32, v: Value, loc: Loc, ev: &mut Vec<Event>) -> R<()> {
        st.threads[t as usize].exiting = Some(Exiting {
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
    fn continue_exit(&self, st: &mut State, t: u32, loc: Loc, ev: &mut Vec<Event>) -> R<()> {
        loop {
            let th = &mut st.threads[t as usize];
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
    fn word(&self, st: &mut State, at: Value, off: i64, loc: Loc) -> R<i128> {
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

    fn set_word(&self, st: &mut State, at: Value, off: i64, v: i128, loc: Loc) -> R<()> {
        self.write(st, ptr_add(at, off), &Ty::INT, RVal::S(Value::Int(v)), loc)
    }

    /// Owner, count and kind of the mutex at `m`.
    fn mutex(&self, st: &mut State, m: Value, loc: Loc) -> R<(i128, i128, i128)> {
        Ok((
            self.word(st, m, MX_OWNER, loc)?,
            self.word(st, m, MX_COUNT, loc)?,
            self.word(st, m, MX_KIND, loc)? & 3,
        ))
    }

    fn set_mutex(&self, st: &mut State, m: Value, owner: i128, count: i128, loc: Loc) -> R<()> {
        self.set_word(st, m, MX_OWNER, owner, loc)?;
        self.set_word(st, m, MX_COUNT, count, loc)
    }

    /// The second half of a condition wait: `state` 0 the mutex was
    /// released, 1 it is still held (a recursive mutex held more than
    /// once), 2 the wait was refused (EPERM).
    fn relock(
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
            1 => {
                let (_, count, _) = self.mutex(st, m, loc)?;
                self.set_mutex(st, m, me, count + 1, loc)?;
                Ok(0)
            }
            _ => {
                let (owner, _, _) = self.mutex(st, m, loc)?;
                if owner != 0 {
                    return Err(Fail(StepEnd::Blocked(format!("{name} is held"))));
                }
                self.set_mutex(st, m, me, 1, loc)?;
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

    fn set_reg(&self, st: &mut State, t: u32, r: Reg, v: RVal) {
        st.threads[t as usize].frames.last_mut().unwrap().regs[r as usize] = Some(v);
    }

    fn obj_shared(&self, st: &State, p: Value) -> bool {
        match p {
            Value::Ptr(o, _) => st.objects.get(&o).map(|o| o.shared).unwrap_or(false),
            _ => false,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn op(
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
            Op::ThreadCreate => {
                let key = (loc.file.0, loc.line, loc.col);
                let n = st.site_counts.get(&key).copied().unwrap_or(0);
                if n >= self.b.threads {
                    let why = format!(
                        "thread bound {} reached at this pthread_create",
                        self.b.threads
                    );
                    if self.trace {
                        say(format!("thread stops: {why}"));
                    }
                    st.threads[t as usize].status = Status::Stopped(why);
                    return Ok(None);
                }
                st.site_counts.insert(key, n + 1);
                let Value::Func(f) = s(2)? else {
                    return unsup(
                        "pthread_create with a start routine that is not a function",
                        loc,
                    );
                };
                let id = st.threads.len() as u32;
                let attr = s(1)?;
                let detached = attr != Value::Ptr(0, 0) && self.word(st, attr, 0, loc)? & 1 != 0;
                st.threads.push(Thread::new(FuncId(f), Some(t)));
                st.threads[id as usize].detached = detached;
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
                let pt = s(0)?;
                if pt != Value::Ptr(0, 0) {
                    self.write(
                        st,
                        pt,
                        &Ty::Pthread(PthreadTy::Thread),
                        RVal::S(Value::Int(id as i128)),
                        loc,
                    )?;
                }
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
                let Value::Int(id) = s(0)? else {
                    return unsup("pthread_join of a value that is not a thread id", loc);
                };
                if st.threads.get(id as usize).is_some_and(|th| th.detached) {
                    // glibc; joining a detached thread is undefined in POSIX.
                    if self.trace {
                        say(format!("join thread {id}: detached (EINVAL)"));
                    }
                    return Ok(int(EINVAL));
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
                let Value::Int(id) = s(0)? else {
                    return unsup("pthread_detach of a value that is not a thread id", loc);
                };
                match st.threads.get_mut(id as usize) {
                    None => int(ESRCH),
                    Some(th) if th.detached => int(EINVAL),
                    Some(th) => {
                        th.detached = true;
                        if self.trace {
                            say(format!("detach thread {id}"));
                        }
                        int(0)
                    }
                }
            }
            Op::ThreadSelf => int(me),
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
            Op::MutexLock | Op::MutexTryLock => {
                let m = s(0)?;
                let (owner, count, kind) = self.mutex(st, m, loc)?;
                let name = self.describe(st, m, &Ty::Pthread(PthreadTy::Mutex));
                let mine = owner == me + 1;
                let (res, what) = if owner == 0 {
                    self.set_mutex(st, m, me + 1, 1, loc)?;
                    (0, "")
                } else if mine && kind == RECURSIVE {
                    if count >= MX_COUNT_MAX {
                        (EAGAIN, ": too many times (EAGAIN)")
                    } else {
                        self.set_mutex(st, m, owner, count + 1, loc)?;
                        (0, " again")
                    }
                } else if op == Op::MutexTryLock {
                    (EBUSY, ": busy")
                } else if mine && kind == ERRORCHECK {
                    (EDEADLK, ": already held by this thread (EDEADLK)")
                } else if mine {
                    // A normal mutex relocked by its holder: deadlock.
                    return Err(Fail(StepEnd::Blocked(format!(
                        "{name} is held by this thread"
                    ))));
                } else {
                    return Err(Fail(StepEnd::Blocked(format!("{name} is held"))));
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
            Op::CondWait => {
                // The first half: release the mutex (see `relock`).
                let m = s(1)?;
                let (owner, count, kind) = self.mutex(st, m, loc)?;
                let name = self.describe(st, m, &Ty::Pthread(PthreadTy::Mutex));
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
                int(state)
            }
            Op::MutexDestroy
            | Op::CondInit
            | Op::CondDestroy
            | Op::CondSignal
            | Op::CondBroadcast
            | Op::AttrNoop(_) => int(0),
            Op::KeyDelete => {
                let Value::Int(k) = s(0)? else {
                    return unsup("pthread key", loc);
                };
                if k <= 0 || k >= st.next_key as i128 {
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
                st.threads[t as usize].keys.insert(k as u32, v);
                int(0)
            }
            Op::AtomicBegin => {
                st.threads[t as usize].atomic_depth += 1;
                if self.trace {
                    say("atomic section begins".into());
                }
                None
            }
            Op::AtomicEnd => {
                let th = &mut st.threads[t as usize];
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
            Op::Free => {
                if let Value::Ptr(o, _) = s(0)?
                    && o != 0
                    && let Some(obj) = st.objects.get_mut(&o)
                {
                    Rc::make_mut(obj).alive = false;
                }
                None
            }
            Op::Memset => {
                let p = s(0)?;
                let (Value::Int(c), Value::Int(n)) = (s(1)?, s(2)?) else {
                    return unsup("memset arguments", loc);
                };
                if c & 0xff != 0 {
                    return unsup("memset with a non-zero byte", loc);
                }
                self.fill(st, p, n as u64, CellV::Zero, loc)?;
                Some(RVal::S(p))
            }
            Op::Memcpy => {
                let (d, src) = (s(0)?, s(1)?);
                let Value::Int(n) = s(2)? else {
                    return unsup("memcpy size", loc);
                };
                let cells = self.read_cells(st, src, n as u64, loc)?;
                self.write_cells(st, d, n as u64, cells, loc)?;
                Some(RVal::S(d))
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
                st.threads[t as usize].status = Status::Stopped(why.into());
                None
            }
            Op::LibNoop(_) => Some(RVal::S(Value::Int(0))),
        })
    }

    fn nondet(&self, ty: &Ty, ch: &mut Chooser, loc: Loc) -> R<RVal> {
        let ty = ty.unqual();
        Ok(RVal::S(match ty {
            Ty::Bool => Value::Int(ch.pick_from(&[0, 1])),
            Ty::Int(_) | Ty::Pthread(PthreadTy::Thread) => {
                let v = ch.pick_from(&self.b.nondet);
                Value::Int(self.wrap(v, ty))
            }
            Ty::Ptr(_) => Value::Ptr(0, 0),
            Ty::Float(_) => Value::Float((ch.pick_from(&self.b.nondet) as f64).to_bits()),
            Ty::Void => Value::Int(0),
            _ => return unsup("a nondeterministic value of this type", loc),
        }))
    }

    pub fn wrap(&self, v: i128, ty: &Ty) -> i128 {
        match ty.unqual() {
            Ty::Bool => (v != 0) as i128,
            t => {
                let bits = t.int_bits(self.dm()).unwrap_or(64);
                let m = v & ((1i128 << bits) - 1);
                if t.is_signed() && m >= (1i128 << (bits - 1)) {
                    m - (1i128 << bits)
                } else {
                    m
                }
            }
        }
    }

    fn eval(&self, st: &State, t: u32, e: &E, loc: Loc, ch: &mut Chooser) -> R<RVal> {
        let f = st.threads[t as usize].frames.last().unwrap();
        self.eval_in(st, t, &f.regs, &f.locals, e, loc, ch)
    }

    #[allow(clippy::too_many_arguments)]
    fn eval_in(
        &self,
        st: &State,
        t: u32,
        regs: &[Option<RVal>],
        locals: &[u32],
        e: &E,
        loc: Loc,
        ch: &mut Chooser,
    ) -> R<RVal> {
        let s = |v: Value| Ok(RVal::S(v));
        match e {
            E::Int(v) => s(Value::Int(*v)),
            E::Float(f) => s(Value::Float(f.to_bits())),
            E::Reg(r) => match regs.get(*r as usize).and_then(|x| x.clone()) {
                Some(v) => Ok(v),
                None => unsup("oracle: a register read before it was set", loc),
            },
            E::Nondet(ty) => self.nondet(ty, ch, loc),
            E::AddrGlobal(g) => {
                let gl = self.p.global(*g);
                if gl.thread_local {
                    match st.threads[t as usize].tls.get(&g.0) {
                        Some(o) => s(Value::Ptr(*o, 0)),
                        None => unsup("oracle: thread-local object missing", loc),
                    }
                } else {
                    s(Value::Ptr(g.0 + 1, 0))
                }
            }
            E::AddrLocal(v) => s(Value::Ptr(locals[v.index()], 0)),
            E::AddrStr(i) => s(Value::Ptr(self.p.globals.len() as u32 + 1 + i, 0)),
            E::Func(f) => s(Value::Func(f.0)),
            E::Un(op, a, aty, rty) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                s(self.unop(*op, x, aty, rty, loc)?)
            }
            E::Bin(op, a, b, aty, bty, rty) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                let y = self.eval_in(st, t, regs, locals, b, loc, ch)?.scalar(loc)?;
                s(self.binop(*op, x, y, aty, bty, rty, loc, ch)?)
            }
            E::Cast(a, from, to) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?;
                self.convert(x, from.unqual(), to.unqual(), loc)
            }
            E::Offset(a, off) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                s(ptr_add(x, *off))
            }
            E::Index(a, i, ity, es) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                let Value::Int(iv) = self.eval_in(st, t, regs, locals, i, loc, ch)?.scalar(loc)?
                else {
                    return unsup("an array index that is not an integer", loc);
                };
                let _ = ity;
                s(ptr_add(x, (iv as i64).wrapping_mul(*es as i64)))
            }
        }
    }

    fn convert(&self, x: RVal, from: &Ty, to: &Ty, loc: Loc) -> R<RVal> {
        let RVal::S(v) = x else {
            return Ok(x);
        };
        let out = match (to, v) {
            (Ty::Void, _) => v,
            (Ty::Bool, _) => Value::Int(truth(v) as i128),
            (
                Ty::Int(_) | Ty::Pthread(PthreadTy::Thread | PthreadTy::Key | PthreadTy::Once),
                Value::Int(i),
            ) => Value::Int(self.wrap(i, to)),
            (Ty::Int(_) | Ty::Pthread(PthreadTy::Thread), Value::Ptr(o, off)) => {
                Value::Int(self.wrap(self.addr_of(o, off, loc)?, to))
            }
            (Ty::Int(_), Value::Func(f)) => Value::Int(self.wrap(((f as i128) + 1) << 40, to)),
            (Ty::Int(_), Value::Float(b)) => {
                let f = f64::from_bits(b);
                Value::Int(self.wrap(f.trunc() as i128, to))
            }
            (Ty::Float(k), Value::Int(i)) => Value::Float(round_float(*k, i as f64).to_bits()),
            (Ty::Float(k), Value::Float(b)) => {
                Value::Float(round_float(*k, f64::from_bits(b)).to_bits())
            }
            (Ty::Ptr(_), Value::Int(i)) => self.ptr_of(i),
            (Ty::Ptr(_), Value::Ptr(..) | Value::Func(_)) => v,
            _ if from == to => v,
            _ => return unsup("this conversion", loc),
        };
        Ok(RVal::S(out))
    }

    fn addr_of(&self, o: u32, off: i64, loc: Loc) -> R<i128> {
        if o == 0 {
            return Ok(off as i128);
        }
        if !(0..1 << OBJ_SHIFT).contains(&off) {
            return unsup(
                "a pointer-to-integer cast of a pointer far into an object",
                loc,
            );
        }
        Ok(((o as i128) << OBJ_SHIFT) + off as i128)
    }

    fn ptr_of(&self, i: i128) -> Value {
        let pb = self.dm().pointer_bits();
        let i = i & ((1i128 << pb) - 1);
        let o = (i >> OBJ_SHIFT) as u32;
        if o != 0 && i >> OBJ_SHIFT < (1 << 24) {
            // Decodes an address made by `addr_of`.
            return Value::Ptr(o, (i & ((1 << OBJ_SHIFT) - 1)) as i64);
        }
        Value::Ptr(0, i as i64)
    }

    fn unop(&self, op: UnOp, x: Value, aty: &Ty, rty: &Ty, loc: Loc) -> R<Value> {
        let _ = aty;
        Ok(match (op, x) {
            (UnOp::LogNot, v) => Value::Int((!truth(v)) as i128),
            (UnOp::Neg, Value::Int(i)) => Value::Int(self.wrap(-i, rty)),
            (UnOp::Neg, Value::Float(b)) => Value::Float((-f64::from_bits(b)).to_bits()),
            (UnOp::BitNot, Value::Int(i)) => Value::Int(self.wrap(!i, rty)),
            _ => return unsup("this unary operation", loc),
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn binop(
        &self,
        op: BinOp,
        x: Value,
        y: Value,
        aty: &Ty,
        bty: &Ty,
        rty: &Ty,
        loc: Loc,
        ch: &mut Chooser,
    ) -> R<Value> {
        use BinOp::*;
        let _ = bty;
        match (op, x, y) {
            (PtrAdd | PtrSub, Value::Ptr(o, off), Value::Int(i)) => {
                let es = aty.pointee().and_then(|t| self.p.size_of(t)).unwrap_or(1) as i64;
                let d = (i as i64).wrapping_mul(es);
                return Ok(Value::Ptr(
                    o,
                    if op == PtrAdd {
                        off.wrapping_add(d)
                    } else {
                        off.wrapping_sub(d)
                    },
                ));
            }
            (PtrDiff, Value::Ptr(o1, a), Value::Ptr(o2, b)) => {
                if o1 != o2 {
                    return unsup("subtraction of pointers into different objects", loc);
                }
                let es = aty
                    .pointee()
                    .and_then(|t| self.p.size_of(t))
                    .unwrap_or(1)
                    .max(1) as i64;
                return Ok(Value::Int(self.wrap(((a - b) / es) as i128, rty)));
            }
            (Eq | Ne | Lt | Le | Gt | Ge, Value::Ptr(..) | Value::Func(_), _)
            | (Eq | Ne | Lt | Le | Gt | Ge, _, Value::Ptr(..) | Value::Func(_)) => {
                let key = |v: Value| -> R<(i128, i128)> {
                    Ok(match v {
                        Value::Ptr(0, off) => (0, off as i128),
                        Value::Ptr(o, off) => (o as i128, off as i128),
                        Value::Func(f) => (-(f as i128) - 1, 0),
                        Value::Int(i) => match self.ptr_of(i) {
                            Value::Ptr(o, off) => (o as i128, off as i128),
                            _ => (0, i),
                        },
                        Value::Float(_) => {
                            return unsup("comparison of a pointer and a float", loc);
                        }
                    })
                };
                let (a, b) = (key(x)?, key(y)?);
                let r = match op {
                    Eq => a == b,
                    Ne => a != b,
                    Lt => a < b,
                    Le => a <= b,
                    Gt => a > b,
                    _ => a >= b,
                };
                return Ok(Value::Int(r as i128));
            }
            (_, Value::Float(a), Value::Float(b)) => {
                let (a, b) = (f64::from_bits(a), f64::from_bits(b));
                let k = match rty.unqual() {
                    Ty::Float(k) => Some(*k),
                    _ => None,
                };
                let fl =
                    |v: f64| Value::Float(round_float(k.unwrap_or(FloatKind::Double), v).to_bits());
                return Ok(match op {
                    Add => fl(a + b),
                    Sub => fl(a - b),
                    Mul => fl(a * b),
                    Div => fl(a / b),
                    Eq => Value::Int((a == b) as i128),
                    Ne => Value::Int((a != b) as i128),
                    Lt => Value::Int((a < b) as i128),
                    Le => Value::Int((a <= b) as i128),
                    Gt => Value::Int((a > b) as i128),
                    Ge => Value::Int((a >= b) as i128),
                    _ => return unsup("this floating-point operation", loc),
                });
            }
            (_, Value::Int(a), Value::Int(b)) => {
                let w = |v: i128| Ok(Value::Int(self.wrap(v, rty)));
                let bits = rty.int_bits(self.dm()).unwrap_or(32) as i128;
                return match op {
                    Add => w(a.wrapping_add(b)),
                    Sub => w(a.wrapping_sub(b)),
                    Mul => w(a.wrapping_mul(b)),
                    Div | Rem => {
                        if b == 0 {
                            // Pinned: an unconstrained value (DESIGN.md §2).
                            return self.nondet(rty, ch, loc)?.scalar(loc);
                        }
                        w(if op == Div { a / b } else { a % b })
                    }
                    Shl | Shr => {
                        if b < 0 || b >= bits {
                            return self.nondet(rty, ch, loc)?.scalar(loc);
                        }
                        if op == Shl {
                            w(a.wrapping_shl(b as u32))
                        } else {
                            w(a >> b)
                        }
                    }
                    BitAnd => w(a & b),
                    BitOr => w(a | b),
                    BitXor => w(a ^ b),
                    Eq => Ok(Value::Int((a == b) as i128)),
                    Ne => Ok(Value::Int((a != b) as i128)),
                    Lt => Ok(Value::Int((a < b) as i128)),
                    Le => Ok(Value::Int((a <= b) as i128)),
                    Gt => Ok(Value::Int((a > b) as i128)),
                    Ge => Ok(Value::Int((a >= b) as i128)),
                    LogAnd => Ok(Value::Int((a != 0 && b != 0) as i128)),
                    LogOr => Ok(Value::Int((a != 0 || b != 0) as i128)),
                    _ => unsup("this integer operation", loc),
                };
            }
            (LogAnd, a, b) => return Ok(Value::Int((truth(a) && truth(b)) as i128)),
            (LogOr, a, b) => return Ok(Value::Int((truth(a) || truth(b)) as i128)),
            _ => {}
        }
        unsup(format!("operation '{}' on these values", op.c_op()), loc)
    }

    // ----- memory -----

    fn object<'s>(&self, st: &'s State, p: Value, loc: Loc) -> R<(&'s Object, u32, u64)> {
        match p {
            Value::Ptr(0, _) => unsup("a dereference of a null or integer pointer", loc),
            Value::Ptr(o, off) => match st.objects.get(&o) {
                Some(obj) if off >= 0 => Ok((obj, o, off as u64)),
                Some(_) => unsup("an access before the start of an object", loc),
                None => unsup("an access to an object whose lifetime ended", loc),
            },
            _ => unsup("a dereference of a non-pointer", loc),
        }
    }

    fn read(&self, st: &mut State, p: Value, ty: &Ty, loc: Loc, ch: &mut Chooser) -> R<RVal> {
        let ty = ty.unqual();
        let size = self.p.size_of(ty).unwrap_or(0);
        if matches!(ty, Ty::Comp(_) | Ty::Array(..)) {
            let cells = self.read_cells(st, p, size, loc)?;
            return Ok(RVal::Agg(cells));
        }
        let (obj, o, off) = self.object(st, p, loc)?;
        if off + size > obj.size {
            return unsup("an access out of the object's bounds", loc);
        }
        let (start, cell) = match obj.cells.range(..=off).next_back() {
            Some((s, c)) if s + c.len > off => (*s, c.clone()),
            _ => return unsup("oracle: a read of a byte that has no cell", loc),
        };
        if start == off
            && cell.len == size
            && let CellV::Val(v) = cell.v
        {
            return Ok(RVal::S(self.reinterpret(v, ty)));
        }
        if start + cell.len < off + size {
            return unsup(
                "a read that spans two differently typed pieces of memory",
                loc,
            );
        }
        match cell.v {
            CellV::Zero => Ok(RVal::S(match ty {
                Ty::Ptr(_) => Value::Ptr(0, 0),
                Ty::Float(_) => Value::Float(0f64.to_bits()),
                _ => Value::Int(0),
            })),
            CellV::Undef => {
                // Indeterminate: pick a value and remember it.
                let v = self.nondet(ty, ch, loc)?;
                self.write(st, p, ty, v.clone(), loc)?;
                let _ = o;
                Ok(v)
            }
            CellV::Val(_) => unsup("a read of part of a stored value (type punning)", loc),
        }
    }

    fn reinterpret(&self, v: Value, ty: &Ty) -> Value {
        match (v, ty) {
            (Value::Int(i), Ty::Int(_) | Ty::Bool | Ty::Pthread(_)) => Value::Int(self.wrap(i, ty)),
            (Value::Int(i), Ty::Ptr(_)) => self.ptr_of(i),
            (Value::Ptr(o, off), Ty::Int(_)) => match self.addr_of(o, off, Loc::NONE) {
                Ok(a) => Value::Int(self.wrap(a, ty)),
                Err(_) => v,
            },
            _ => v,
        }
    }

    fn write(&self, st: &mut State, p: Value, ty: &Ty, v: RVal, loc: Loc) -> R<()> {
        let ty = ty.unqual();
        let size = self.p.size_of(ty).unwrap_or(0);
        match v {
            RVal::Agg(cells) => self.write_cells(st, p, size, cells, loc),
            RVal::S(x) => {
                let x = match x {
                    Value::Int(i) if matches!(ty, Ty::Int(_) | Ty::Bool) => {
                        Value::Int(self.wrap(i, ty))
                    }
                    _ => x,
                };
                self.write_cells(
                    st,
                    p,
                    size,
                    vec![(
                        0,
                        Cell {
                            len: size,
                            v: CellV::Val(x),
                        },
                    )],
                    loc,
                )
            }
        }
    }

    fn fill(&self, st: &mut State, p: Value, n: u64, v: CellV, loc: Loc) -> R<()> {
        self.write_cells(st, p, n, vec![(0, Cell { len: n, v })], loc)
    }

    /// The cells of `[p, p+n)`, offsets relative to `p`; spans are cut at
    /// the ends, scalars must not straddle them.
    fn read_cells(&self, st: &State, p: Value, n: u64, loc: Loc) -> R<Vec<(u64, Cell)>> {
        let (obj, _, off) = self.object(st, p, loc)?;
        if off + n > obj.size {
            return unsup("a copy out of the object's bounds", loc);
        }
        let mut out = Vec::new();
        let first = obj
            .cells
            .range(..=off)
            .next_back()
            .map(|(s, _)| *s)
            .unwrap_or(0);
        for (s, c) in obj.cells.range(first..off + n) {
            let (s, e) = (*s, s + c.len);
            if e <= off {
                continue;
            }
            let (cs, ce) = (s.max(off), e.min(off + n));
            if (cs, ce) != (s, e)
                && let CellV::Val(_) = c.v
            {
                return unsup("a copy that cuts a stored value", loc);
            }
            out.push((
                cs - off,
                Cell {
                    len: ce - cs,
                    v: c.v,
                },
            ));
        }
        Ok(out)
    }

    fn write_cells(
        &self,
        st: &mut State,
        p: Value,
        n: u64,
        cells: Vec<(u64, Cell)>,
        loc: Loc,
    ) -> R<()> {
        let (obj, o, off) = self.object(st, p, loc)?;
        if off + n > obj.size {
            return unsup("a write out of the object's bounds", loc);
        }
        if n == 0 {
            return Ok(());
        }
        let obj = Rc::make_mut(st.objects.get_mut(&o).unwrap());
        // Cut existing cells at the ends of the range.
        let end = off + n;
        let first = obj
            .cells
            .range(..=off)
            .next_back()
            .map(|(s, _)| *s)
            .unwrap_or(0);
        let over: Vec<(u64, Cell)> = obj
            .cells
            .range(first..end)
            .filter(|(s, c)| **s + c.len > off)
            .map(|(s, c)| (*s, c.clone()))
            .collect();
        for (s, c) in &over {
            obj.cells.remove(s);
            let e = s + c.len;
            if *s < off {
                if let CellV::Val(_) = c.v {
                    return unsup("a write into part of a stored value (type punning)", loc);
                }
                obj.cells.insert(
                    *s,
                    Cell {
                        len: off - s,
                        v: c.v,
                    },
                );
            }
            if e > end {
                if let CellV::Val(_) = c.v {
                    return unsup("a write into part of a stored value (type punning)", loc);
                }
                obj.cells.insert(
                    end,
                    Cell {
                        len: e - end,
                        v: c.v,
                    },
                );
            }
        }
        for (rel, c) in cells {
            obj.cells.insert(off + rel, c);
        }
        Ok(())
    }

    // ----- descriptions for traces -----

    pub fn describe(&self, st: &State, p: Value, ty: &Ty) -> String {
        let Value::Ptr(o, off) = p else {
            return "?".into();
        };
        let Some(obj) = st.objects.get(&o) else {
            return format!("<dead object>+{off}");
        };
        let (base, bty) = match obj.kind {
            ObjKind::Global(g) | ObjKind::Tls(g, _) => (
                self.p.global(g).name.clone(),
                Some(self.p.global(g).ty.clone()),
            ),
            ObjKind::Local(f, l) => {
                let func = self.p.func(f);
                (func.local(l).name.clone(), Some(func.local(l).ty.clone()))
            }
            ObjKind::Heap(l) => (format!("malloc@{}", l.line), None),
            ObjKind::Str => ("\"...\"".into(), None),
        };
        match bty {
            Some(bt) => self.path(base, &bt, off as u64, ty),
            None if off == 0 => format!("*{base}"),
            None => format!("{base}[+{off}]"),
        }
    }

    fn path(&self, mut s: String, t: &Ty, off: u64, want: &Ty) -> String {
        if off == 0
            && (t.unqual() == want.unqual() || self.p.size_of(t) == self.p.size_of(want))
            && (!matches!(t.unqual(), Ty::Comp(_) | Ty::Array(..)) || t.unqual() == want.unqual())
        {
            return s;
        }
        match t.unqual() {
            Ty::Array(e, _) => {
                let es = self.p.size_of(e).unwrap_or(1).max(1);
                s.push_str(&format!("[{}]", off / es));
                self.path(s, e, off % es, want)
            }
            Ty::Comp(c) => {
                let def = self.p.comp(*c);
                if let Some((offs, _, _)) = self.p.comp_layout(*c) {
                    for (i, f) in def.fields.iter().enumerate().rev() {
                        if offs[i] <= off {
                            s.push('.');
                            s.push_str(&f.name);
                            return self.path(s, &f.ty, off - offs[i], want);
                        }
                    }
                }
                format!("{s}+{off}")
            }
            _ if off == 0 => s,
            _ => format!("{s}+{off}"),
        }
    }

    pub fn show(&self, st: &State, v: &RVal) -> String {
        match v {
            RVal::S(Value::Int(i)) => i.to_string(),
            RVal::S(Value::Float(b)) => format!("{}", f64::from_bits(*b)),
            RVal::S(Value::Ptr(0, 0)) => "NULL".into(),
            RVal::S(Value::Ptr(0, off)) => format!("(void*){off}"),
            RVal::S(p @ Value::Ptr(..)) => format!("&{}", self.describe(st, *p, &Ty::Void)),
            RVal::S(Value::Func(f)) => format!("&{}", self.p.functions[*f as usize].name),
            RVal::Agg(_) => "{...}".into(),
        }
    }

    /// Makes sure thread `t` has its own copy of each thread-local global.
    fn init_tls(&self, st: &mut State, t: u32) -> R<()> {
        for (i, g) in self.p.globals.iter().enumerate() {
            if !g.thread_local || st.threads[t as usize].tls.contains_key(&(i as u32)) {
                continue;
            }
            let size = self.p.size_of(&g.ty).unwrap_or(0);
            let id = self.new_obj(
                st,
                t,
                Object {
                    kind: ObjKind::Tls(GlobalId(i as u32), t),
                    size,
                    shared: false,
                    alive: true,
                    cells: span(size, CellV::Zero),
                },
            );
            st.threads[t as usize].tls.insert(i as u32, id);
            if let Some(init) = &g.init {
                let mut ch = Chooser::new(&[]);
                self.store_init(st, t, Value::Ptr(id, 0), &g.ty, init, g.loc, &mut ch)?;
            }
        }
        Ok(())
    }
}

/// The oracle's own view of a global initialiser expression.
fn const_e(m: &Machine, e: &Expr) -> Option<E> {
    Some(match &e.kind {
        ExprKind::Int(v) => E::Int(*v),
        ExprKind::Float(s) => E::Float(s.trim_end_matches(['f', 'F', 'l', 'L']).parse().ok()?),
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
            | Op::KeyCreate
            | Op::KeyDelete
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
        }
    }

    /// One value from `dom`: forced values first, then the script, then
    /// the first value (and the arity is recorded for enumeration).
    pub fn pick_from(&mut self, dom: &[i128]) -> i128 {
        if let Some(f) = self.forced.as_mut()
            && let Some(v) = f.pop_front()
        {
            self.taken.push(v);
            return v;
        }
        let i = if self.pos < self.script.len() {
            self.script[self.pos]
        } else {
            0
        };
        self.pos += 1;
        self.arities.push(dom.len() as u32);
        let v = dom[(i as usize).min(dom.len() - 1)];
        self.taken.push(v);
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
