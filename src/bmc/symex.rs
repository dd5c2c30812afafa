//! Pass: symbolic execution of a sequential program into SSA equations
//! with path guards — inlining, unwinding and SSA in one forward sweep,
//! as a bounded model checker does it.
//!
//! Contract:
//! - Calls are inlined; a function with U active frames is not entered
//!   again: that path is cut. Loops are unwound as `goto.rs` counts them;
//!   a cut path is blocked (an unwinding *assumption*), or with
//!   `unwinding_assertions` its reachability is recorded as "bound too
//!   small" (and it is still blocked for the assertions after it).
//! - An assertion at guard g fails when the assumptions made before it
//!   hold, g holds and its condition does not (`fail_i`); the query is
//!   the disjunction of all `fail_i`. Assumptions constrain only later
//!   assertions, so `assert(0); while (1);` still fails.
//! - Values are bit-vectors of their C width with C's semantics (see
//!   `expr.rs`). Scalars whose address is never taken are SSA symbols;
//!   everything else is memory: one SMT array per region (`regions.rs`),
//!   objects at distinct constant addresses (globals in index order,
//!   locals per frame, one fresh slot per executed allocation; so fresh,
//!   disjoint, aligned and non-null). Memory starts as all zeros, which
//!   makes globals and calloc's memory zero; locals without initialiser
//!   get fresh values, and so does malloc's memory when the statement
//!   after it says its type (`T *x = (T *)t;`, up to 256 scalars);
//!   otherwise heap memory reads as zero (an under-approximation of
//!   indeterminate contents, never a false bug).
//! - Symbols are named after the source: `x@12.3` is the third version
//!   of `x`, made at line 12; guards are `g@L.n`, failures `fail@L.n`.
//! - Everything visible for a trace (assignments, calls, returns,
//!   assertions) is recorded with its guard, in execution order.

use super::term::{self, Sort, T};
use super::{Event, EventKind, Failure};
use crate::ir::regions::{self, RKey, Regions};
use crate::ir::*;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;
use std::rc::Rc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Var {
    Global(GlobalId),
    Local(u32, LocalId),
    Mem(u32),
    /// Lal-Reps rounds 1..K of a region, indexed by the shifted address.
    MemG(u32),
    /// Return value of a frame (leaf index for aggregates).
    Ret(u32, u32),
    /// Scratch for merging the results of an indirect call.
    Tmp(u32, u32),
}

#[derive(Clone)]
pub(super) struct State {
    pub guard: T,
    pub vars: BTreeMap<Var, T>,
    pub loops: Vec<u32>,
}

#[derive(Clone)]
pub(super) enum Val {
    S(T),
    /// An aggregate: its leaves in layout order.
    A(Vec<T>),
}

impl Val {
    fn s(self) -> T {
        match self {
            Val::S(t) => t,
            Val::A(_) => panic!("aggregate where a scalar was expected"),
        }
    }
}

enum Place {
    Var(Var),
    /// Memory at an address; the key of its scalars (for scalar and
    /// array-of-scalar places).
    Mem(T, Option<RKey>),
}

pub(super) struct Frame {
    pub id: u32,
    pub func: FuncId,
    pub objs: HashMap<LocalId, u64>,
}

/// The largest SMT-LIB text an encoding may reach.
const OUT_BUDGET: usize = 256 << 20;

pub type R<X> = std::result::Result<X, (String, Loc)>;

pub(super) struct Symex<'p> {
    pub p: &'p Program,
    pub unwind: u32,
    pub unwinding_assertions: bool,
    pub deadline: Option<std::time::Instant>,
    pub pw: u32,
    pub regions: Regions,
    codes: HashMap<FuncId, Rc<super::goto::GotoFn>>,
    /// Declarations and definitions, in order.
    pub out: String,
    pub uses_arrays: bool,
    versions: HashMap<String, u32>,
    next_addr: u64,
    pub global_addr: Vec<Option<u64>>,
    pub fn_addr: BTreeMap<FuncId, u64>,
    strings: HashMap<Vec<u8>, u64>,
    /// The assumptions made so far (a named term).
    pub assumed: T,
    pub fails: Vec<Failure>,
    /// Reachability of each unwinding cut (with unwinding assertions).
    pub cuts: Vec<(T, Loc)>,
    pub events: Vec<Event>,
    stack: Vec<FuncId>,
    frames: u32,
    tmps: u32,
    /// The variable a nondeterministic value is about to be stored in,
    /// so that its symbol is named after it.
    hint: Option<String>,
    /// The function of each frame, for naming locals.
    frame_funcs: Vec<FuncId>,
    /// The statement being executed, for errors found deep inside it.
    cur_loc: Loc,
    /// How each named memory version was made, so that a read at a
    /// constant address folds through stores at other constant addresses
    /// (most reads of globals and fields become plain values).
    arr_defs: HashMap<Rc<str>, ArrDef>,
    /// The type a `malloc` being executed is used at (see `body`).
    malloc_elem: Option<Ty>,
    /// Lal-Reps rounds (`Program::rounds`): the round global and K.
    rounds: Option<(GlobalId, u32)>,
    /// Lal-Reps: the global holding the running thread's slot.
    tid: Option<GlobalId>,
    /// The next address for a local in memory when rounds are on (above
    /// every shared object, so never shifted).
    local_next: u64,
    /// The initial array of each region's rounds 1..K: the guesses.
    guess: HashMap<u32, T>,
    /// Every (region, address) read from shared memory, for the final
    /// consistency assumptions.
    round_reads: Vec<(u32, T)>,
    round_read_set: std::collections::HashSet<(u32, T)>,
}

enum ArrDef {
    /// `store(parent, addr, val)`.
    Store(T, T, T),
    /// A merge: `ite(g1, a1, ite(g2, a2, ... default))`.
    Phi(Vec<(T, T)>, T),
}

const SLOT: u64 = 1 << 16;

impl<'p> Symex<'p> {
    pub fn new(p: &'p Program, regions: Regions, unwind: u32, unwinding_assertions: bool) -> Self {
        let pw = p.data_model.pointer_bits();
        let mut fn_addr = BTreeMap::new();
        // Functions whose address is taken get small distinct addresses.
        let taken = p.address_taken_functions();
        for (k, f) in taken.iter().enumerate() {
            fn_addr.insert(*f, 16 * (k as u64 + 1));
        }
        let next_addr = (16 * (taken.len() as u64 + 2)).div_ceil(0x1000) * 0x1000;
        Symex {
            p,
            unwind,
            unwinding_assertions,
            deadline: None,
            pw,
            regions,
            codes: HashMap::new(),
            out: String::new(),
            uses_arrays: false,
            versions: HashMap::new(),
            next_addr,
            global_addr: vec![None; p.globals.len()],
            fn_addr,
            strings: HashMap::new(),
            assumed: T::B(true),
            fails: Vec::new(),
            cuts: Vec::new(),
            events: Vec::new(),
            stack: Vec::new(),
            frames: 0,
            tmps: 0,
            hint: None,
            frame_funcs: Vec::new(),
            cur_loc: Loc::NONE,
            arr_defs: HashMap::new(),
            malloc_elem: None,
            rounds: p.rounds.as_ref().map(|r| (r.round, r.k)),
            tid: p.thread_id,
            local_next: 1u64 << (pw - 1),
            guess: HashMap::new(),
            round_reads: Vec::new(),
            round_read_set: Default::default(),
        }
    }

    // ---- symbols -------------------------------------------------------

    fn fresh_name(&mut self, base: &str, line: u32) -> String {
        let n = self.versions.entry(base.to_string()).or_insert(0);
        *n += 1;
        format!("{base}@{line}.{n}")
    }

    /// Names a term (unless it is a constant or already a symbol).
    pub fn def(&mut self, base: &str, line: u32, t: T) -> T {
        if let T::E(text, _) = &t
            && text.starts_with('(')
        {
            let name = self.fresh_name(base, line);
            let s = t.sort();
            let sym = term::symbol(&name);
            let _ = writeln!(self.out, "(define-fun {sym} () {} {})", s.text(), t.text());
            return T::E(sym.into(), s);
        }
        t
    }

    pub fn fresh(&mut self, base: &str, line: u32, s: Sort) -> T {
        let name = self.fresh_name(base, line);
        let sym = term::symbol(&name);
        let _ = writeln!(self.out, "(declare-fun {sym} () {})", s.text());
        if let (true, Sort::Bv(w)) = (term::int_mode(), &s) {
            // An integer stands for a w-bit value.
            let _ = writeln!(
                self.out,
                "(assert (and (<= 0 {sym}) (< {sym} {})))",
                1u128 << w
            );
        }
        T::E(sym.into(), s)
    }

    fn var_name(&self, v: Var, _fr: Option<&Frame>) -> String {
        match v {
            Var::Global(g) => self.p.global(g).name.clone(),
            Var::Local(id, l) => match self.frame_funcs.get(id as usize) {
                Some(f) => self.p.func(*f).local(l).name.clone(),
                None => format!("v{}", l.0),
            },
            Var::Mem(r) => self.regions.regions[r as usize].name.clone(),
            Var::MemG(r) => format!("{}.rounds", self.regions.regions[r as usize].name),
            Var::Ret(..) => "return".into(),
            Var::Tmp(..) => "result".into(),
        }
    }

    fn mem_sort(&self, r: u32) -> Sort {
        Sort::Array(self.pw, self.regions.regions[r as usize].width)
    }

    fn default_of(&mut self, v: Var) -> T {
        match v {
            Var::Mem(r) => {
                let s = self.mem_sort(r);
                let Sort::Array(_, w) = s else { unreachable!() };
                T::E(
                    format!("((as const {}) {})", s.text(), term::bv_text(0, w)).into(),
                    s,
                )
            }
            Var::MemG(r) => {
                if let Some(t) = self.guess.get(&r) {
                    return t.clone();
                }
                let s = Sort::Array(
                    self.pw + self.round_bits(),
                    self.regions.regions[r as usize].width,
                );
                let name = format!("{}.guess", self.regions.regions[r as usize].name);
                let t = self.fresh(&name, 0, s);
                self.guess.insert(r, t.clone());
                t
            }
            // A variable no path defined here (a jump over its declaration).
            _ => T::B(false),
        }
    }

    fn get(&mut self, st: &State, v: Var) -> T {
        match st.vars.get(&v) {
            Some(t) => t.clone(),
            None => self.default_of(v),
        }
    }

    fn set(&mut self, st: &mut State, v: Var, t: T, line: u32, fr: Option<&Frame>) -> T {
        let base = self.var_name(v, fr);
        let t = self.def(&base, line, t);
        st.vars.insert(v, t.clone());
        t
    }

    fn event(&mut self, st: &State, loc: Loc, kind: EventKind) {
        if st.guard.is_false() {
            return;
        }
        let ctx = match (self.rounds, self.tid) {
            (Some((r, _)), Some(t)) => {
                Some((self.get(st, Var::Global(r)), self.get(st, Var::Global(t))))
            }
            (None, Some(t)) => Some((term::bv(0, 32), self.get(st, Var::Global(t)))),
            _ => None,
        };
        self.events.push(Event {
            guard: st.guard.clone(),
            loc,
            depth: self.stack.len() as u32,
            kind,
            ctx,
        });
    }

    /// A value the input draws, for the replay (Lal-Reps only; seqc's own
    /// draws have generated locations). Pointers draw nothing: the
    /// oracle's nondet pointer is NULL.
    fn nondet_event(&mut self, st: &State, loc: Loc, t: &T) {
        if self.tid.is_some() && !loc.generated {
            self.event(st, loc, EventKind::Nondet(t.clone()));
        }
    }

    // ---- path control --------------------------------------------------

    fn assume(&mut self, st: &State, c: &T, line: u32) {
        let a = term::and(&self.assumed, &term::implies(&st.guard, c));
        self.assumed = self.def("assumed", line, a);
    }

    /// A path cut by a bound: blocked, and with unwinding assertions its
    /// reachability is a "bound too small" answer.
    fn cut(&mut self, st: &State, loc: Loc) {
        if st.guard.is_false() {
            return;
        }
        if self.unwinding_assertions {
            let c = term::and(&self.assumed, &st.guard);
            let c = self.def("cut", loc.line, c);
            self.cuts.push((c, loc));
        }
        self.assume(st, &T::B(false), loc.line);
    }

    fn merge(&mut self, mut states: Vec<State>, line: u32) -> Option<State> {
        states.retain(|s| !s.guard.is_false());
        if states.len() <= 1 {
            return states.pop();
        }
        let mut guard = T::B(false);
        for s in &states {
            guard = term::or(&guard, &s.guard);
        }
        let guard = self.def("guard", line, guard);
        let mut keys: Vec<Var> = Vec::new();
        for s in &states {
            keys.extend(s.vars.keys().copied());
        }
        keys.sort();
        keys.dedup();
        let mut vars = BTreeMap::new();
        for k in keys {
            let vals: Vec<Option<&T>> = states.iter().map(|s| s.vars.get(&k)).collect();
            let first = vals[0];
            if vals.iter().all(|v| *v == first) {
                vars.insert(k, first.unwrap().clone());
                continue;
            }
            // A local some paths never declared takes the others' value.
            let present: Vec<(T, T)> = states
                .iter()
                .zip(&vals)
                .filter_map(|(s, v)| v.map(|v| (s.guard.clone(), v.clone())))
                .collect();
            let missing_default = if present.len() < states.len() {
                match k {
                    Var::Mem(_) | Var::MemG(_) | Var::Global(_) => Some(self.default_of(k)),
                    _ => None,
                }
            } else {
                None
            };
            let mut arms = present;
            let default = match missing_default {
                Some(d) => d,
                None => arms.pop().unwrap().1,
            };
            let mut acc = default.clone();
            for (g, v) in arms.iter().rev() {
                acc = term::ite(g, v, &acc);
            }
            let base = self.var_name(k, None);
            let t = self.def(&base, line, acc);
            if let (Var::Mem(_) | Var::MemG(_), T::E(name, _)) = (k, &t) {
                self.arr_defs
                    .insert(name.clone(), ArrDef::Phi(arms, default));
            }
            vars.insert(k, t);
        }
        let n = states.iter().map(|s| s.loops.len()).max().unwrap_or(0);
        let loops = (0..n)
            .map(|i| {
                states
                    .iter()
                    .map(|s| s.loops.get(i).copied().unwrap_or(0))
                    .max()
                    .unwrap()
            })
            .collect();
        Some(State { guard, vars, loops })
    }

    fn code(&mut self, f: FuncId) -> R<Rc<super::goto::GotoFn>> {
        if let Some(c) = self.codes.get(&f) {
            return Ok(c.clone());
        }
        let func = self.p.func(f);
        let body = func.body.as_ref().expect("code of a defined function");
        let c = Rc::new(super::goto::compile(body)?);
        self.codes.insert(f, c.clone());
        Ok(c)
    }

    // ---- program entry -------------------------------------------------

    pub fn run(&mut self) -> R<()> {
        let p = self.p;
        let Some(main) = p.func_by_name("main").filter(|&m| p.func(m).body.is_some()) else {
            return Err(("the program has no main function".into(), Loc::NONE));
        };
        let mut st = State {
            guard: T::B(true),
            vars: BTreeMap::new(),
            loops: Vec::new(),
        };
        if let Some(r) = &p.rounds {
            for (gi, c) in r.copied.iter().enumerate() {
                if *c {
                    self.regions.mem_globals[gi] = true;
                }
            }
            st.vars.insert(Var::Global(r.round), term::bv(0, 32));
        }
        // Objects first, so that initialisers can take addresses.
        for gi in 0..p.globals.len() {
            if self.regions.mem_globals[gi] {
                let size = p.size_of(&p.globals[gi].ty).unwrap_or(0).max(1);
                if p.rounds.as_ref().is_some_and(|r| !r.copied[gi]) {
                    // Sequential state of the Lal-Reps output: in the
                    // unshifted range, like locals.
                    self.global_addr[gi] = Some(self.local_next);
                    self.local_next += size.div_ceil(16) * 16 + 16;
                    continue;
                }
                self.global_addr[gi] = Some(self.alloc(size));
            }
        }
        let top = Frame {
            id: u32::MAX,
            func: FuncId(u32::MAX),
            objs: HashMap::new(),
        };
        // String literals: constant objects, written before anything runs.
        let mut lits: Vec<Vec<u8>> = Vec::new();
        p.walk_exprs(&mut |e: &Expr| {
            if let ExprKind::Str(b) = &e.kind
                && !lits.contains(b)
            {
                lits.push(b.clone());
            }
        });
        for b in lits {
            let a = self.alloc(b.len() as u64);
            let k = regions::deref_key(p, &Ty::CHAR);
            for (i, c) in b.iter().enumerate() {
                let at = term::bv((a + i as u64) as i128, self.pw);
                self.store(
                    &mut st,
                    &top,
                    &at,
                    &Ty::CHAR,
                    k.clone(),
                    term::bv(*c as i128, 8),
                    0,
                )?;
            }
            self.strings.insert(b, a);
        }
        for gi in 0..p.globals.len() {
            let g = &p.globals[gi];
            let gid = GlobalId(gi as u32);
            self.cur_loc = g.loc;
            if g.storage == Storage::Extern && g.init.is_none() {
                // Declared here, defined nowhere: a scalar holds any value;
                // an object in memory reads as zero (one of its values).
                if self.global_addr[gi].is_none()
                    && let Some(w) = regions::leaf_width(p.data_model, &g.ty)
                {
                    let v = self.fresh(&g.name, g.loc.line, Sort::Bv(w));
                    st.vars.insert(Var::Global(gid), v);
                }
                continue;
            }
            match self.global_addr[gi] {
                Some(a) => {
                    if let Some(init) = &g.init {
                        let key = Some(RKey::Global(gid));
                        let addr = term::bv(a as i128, self.pw);
                        self.init_mem(&mut st, &top, addr, &g.ty, key.as_ref(), init, g.loc)?;
                    }
                }
                None => {
                    let Some(w) = regions::leaf_width(p.data_model, &g.ty) else {
                        return Err((
                            format!("a global of type '{}'", regions::ty_name(p, &g.ty)),
                            g.loc,
                        ));
                    };
                    let v = match &g.init {
                        Some(Init::Expr(e)) => {
                            let v = self.rvalue(&st, &top, e)?;
                            self.convert(v, &e.ty, &g.ty).s()
                        }
                        Some(i) => match scalar_init(i) {
                            Some(e) => {
                                let v = self.rvalue(&st, &top, e)?;
                                self.convert(v, &e.ty, &g.ty).s()
                            }
                            // `{ 0 }` for an opaque pthread object, or `{}`.
                            None => term::bv(0, w),
                        },
                        None => term::bv(0, w),
                    };
                    st.vars.insert(Var::Global(gid), v);
                }
            }
        }
        let mf = p.func(main);
        let mut args = Vec::new();
        for (i, v) in mf.params.iter().enumerate() {
            let ty = &mf.local(*v).ty;
            let w = regions::leaf_width(p.data_model, ty).unwrap_or(32);
            let a = self.fresh(&format!("main.arg{i}"), mf.loc.line, Sort::Bv(w));
            args.push(Val::S(a));
        }
        self.call(st, main, args, mf.loc)?;
        Ok(())
    }

    fn alloc(&mut self, size: u64) -> u64 {
        let a = self.next_addr;
        self.next_addr += size.div_ceil(16) * 16 + 16;
        a
    }

    // ---- calls ---------------------------------------------------------

    /// Runs `f` to its end; the state after it (None: every path ended or
    /// was blocked) and its return value.
    fn call(
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
            return Err((
                format!(
                    "{} at {} MB of SMT-LIB (inlined too much)",
                    super::GAVE_UP,
                    OUT_BUDGET >> 20
                ),
                loc,
            ));
        }
        if self.deadline.is_some_and(|d| std::time::Instant::now() > d) {
            return Err((format!("{}: the timeout passed", super::GAVE_UP), loc));
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
                    self.local_next += size.div_ceil(16) * 16 + 16;
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

    fn body(&mut self, st: State, fr: &Frame, code: &super::goto::GotoFn) -> R<Option<State>> {
        use super::goto::Ins;
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
                Ins::LoopGuard(id) => {
                    if s.loops[*id as usize] >= self.unwind {
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

    fn call_stmt(
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
                // whose parameter count fits; any other target blocks.
                let fv = self.rvalue(&st, fr, callee)?.s();
                let cands: Vec<(FuncId, u64)> = self
                    .fn_addr
                    .iter()
                    .filter(|(f, _)| {
                        let s = &self.p.func(**f).sig;
                        s.variadic || s.unprototyped || s.params.len() == args.len()
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

    // ---- declarations and initialisers ---------------------------------

    fn local_place(&self, fr: &Frame, v: LocalId) -> Place {
        match fr.objs.get(&v) {
            Some(a) => Place::Mem(term::bv(*a as i128, self.pw), Some(RKey::Local(fr.func, v))),
            None => Place::Var(Var::Local(fr.id, v)),
        }
    }

    fn decl(
        &mut self,
        st: &mut State,
        fr: &Frame,
        v: LocalId,
        init: Option<&Init>,
        loc: Loc,
    ) -> R<()> {
        let l = self.p.func(fr.func).local(v);
        let ty = l.ty.clone();
        let name = l.name.clone();
        match (self.local_place(fr, v), init) {
            (Place::Var(var), None) => {
                let Some(w) = regions::leaf_width(self.p.data_model, &ty) else {
                    return Err((
                        format!("a local of type '{}'", regions::ty_name(self.p, &ty)),
                        loc,
                    ));
                };
                let t = self.fresh(&name, loc.line, Sort::Bv(w));
                st.vars.insert(var, t);
            }
            (Place::Var(var), Some(Init::Expr(e))) => {
                self.hint = is_nondet(e).then(|| name.clone());
                let x = self.rvalue(st, fr, e)?;
                self.hint = None;
                let x = self.convert(x, &e.ty, &ty);
                let t = self.set(st, var, x.clone().s(), loc.line, Some(fr));
                self.record_assign(st, fr, loc, name, &ty, &Val::S(t));
            }
            (Place::Var(var), Some(i)) => {
                let x = match scalar_init(i) {
                    Some(e) => {
                        let x = self.rvalue(st, fr, e)?;
                        self.convert(x, &e.ty, &ty).s()
                    }
                    None => term::bv(0, regions::leaf_width(self.p.data_model, &ty).unwrap_or(32)),
                };
                self.set(st, var, x, loc.line, Some(fr));
            }
            (Place::Mem(addr, key), init) => {
                let leaves = self.leaf_list(&ty, key.as_ref());
                match init {
                    None => {
                        // A fresh, indeterminate object (big ones read as
                        // zero: an under-approximation).
                        if leaves.len() <= 256 {
                            for (off, lt, k) in leaves {
                                let w = regions::leaf_width(self.p.data_model, &lt).unwrap_or(8);
                                let t = self.fresh(&name, loc.line, Sort::Bv(w));
                                let a = self.offset(&addr, off);
                                self.store(st, fr, &a, &lt, k, t, loc.line)?;
                            }
                        }
                    }
                    Some(init) => {
                        if leaves.len() > 1 << 16 {
                            return Err((
                                format!("an initialised local of {} scalars", leaves.len()),
                                loc,
                            ));
                        }
                        for (off, lt, k) in leaves {
                            let w = regions::leaf_width(self.p.data_model, &lt).unwrap_or(8);
                            let a = self.offset(&addr, off);
                            self.store(st, fr, &a, &lt, k, term::bv(0, w), loc.line)?;
                        }
                        self.init_mem(st, fr, addr.clone(), &ty, key.as_ref(), init, loc)?;
                        // The initialised object, for traces (small ones).
                        if self.leaf_list(&ty, key.as_ref()).len() <= 16 {
                            let v = self.read(st, &Place::Mem(addr, key), &ty, loc.line)?;
                            self.record_assign(st, fr, loc, name, &ty, &v);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn init_mem(
        &mut self,
        st: &mut State,
        fr: &Frame,
        addr: T,
        ty: &Ty,
        key: Option<&RKey>,
        init: &Init,
        loc: Loc,
    ) -> R<()> {
        let p = self.p;
        if let Ty::Pthread(k) = ty.unqual()
            && *k != PthreadTy::Thread
        {
            // PTHREAD_*_INITIALIZER: the zero state.
            let k = key.cloned().unwrap_or_else(|| regions::deref_key(p, ty));
            return self.store(st, fr, &addr, ty, k, term::bv(0, 32), loc.line);
        }
        match init {
            Init::Expr(e) => {
                let v = self.rvalue(st, fr, e)?;
                let v = self.convert(v, &e.ty, ty);
                let place = Place::Mem(addr, key.cloned());
                self.write(st, fr, &place, ty, v, loc.line)?;
            }
            Init::Array(items) => {
                let Ty::Array(el, _) = ty.unqual() else {
                    return Err(("an array initialiser for a non-array".into(), loc));
                };
                let sz = p.size_of(el).unwrap_or(0);
                for (i, sub) in items {
                    let a = self.offset(&addr, i * sz);
                    self.init_mem(st, fr, a, el, key, sub, loc)?;
                }
            }
            Init::Comp(items) => {
                let Ty::Comp(c) = ty.unqual() else {
                    return Err(("a struct initialiser for a non-struct".into(), loc));
                };
                let (offs, _, _) = p.comp_layout(*c).unwrap_or_default();
                for (i, sub) in items {
                    let fd = &p.comp(*c).fields[*i as usize];
                    if fd.bit_width.is_some() {
                        return Err(("bit-fields".into(), fd_loc(p, *c)));
                    }
                    let k = RKey::Field(*c, *i);
                    let a = self.offset(&addr, offs[*i as usize]);
                    let scalar_like = regions::is_leaf(regions::elem_scalar(&fd.ty));
                    self.init_mem(
                        st,
                        fr,
                        a,
                        &fd.ty.clone(),
                        if scalar_like { Some(&k) } else { None },
                        sub,
                        loc,
                    )?;
                }
            }
            Init::Str(bytes) => {
                let Ty::Array(el, n) = ty.unqual() else {
                    return Err(("a string initialiser for a non-array".into(), loc));
                };
                let n = n.unwrap_or(bytes.len() as u64) as usize;
                for (i, b) in bytes.iter().take(n).enumerate() {
                    let a = self.offset(&addr, i as u64);
                    let k = key.cloned().unwrap_or(regions::deref_key(p, el));
                    self.store(st, fr, &a, el, k, term::bv(*b as i128, 8), loc.line)?;
                }
            }
        }
        Ok(())
    }

    // ---- memory --------------------------------------------------------

    pub fn leaf_list(&self, ty: &Ty, key: Option<&RKey>) -> Vec<(u64, Ty, RKey)> {
        let mut v = Vec::new();
        regions::leaves(self.p, ty, key, &mut v, 0);
        v
    }

    fn offset(&self, a: &T, off: u64) -> T {
        term::bin("bvadd", a, &term::bv(off as i128, self.pw))
    }

    fn region(&mut self, k: RKey, ty: &Ty, _line: u32) -> R<u32> {
        let Some(w) = regions::leaf_width(self.p.data_model, ty) else {
            return Err((
                format!(
                    "memory of type '{}' in the SMT route",
                    regions::ty_name(self.p, ty)
                ),
                self.cur_loc,
            ));
        };
        self.uses_arrays = true;
        self.regions.id(self.p, k, w).map_err(|m| (m, self.cur_loc))
    }

    fn load(&mut self, st: &State, addr: &T, ty: &Ty, k: RKey, line: u32) -> R<T> {
        let r = self.region(k, ty, line)?;
        let m = self.get(st, Var::Mem(r));
        let Some(round) = self.round_of(st, addr) else {
            return Ok(self.select(&m, addr, 0));
        };
        if self.round_read_set.insert((r, addr.clone())) {
            self.round_reads.push((r, addr.clone()));
        }
        let first = self.select(&m, addr, 0);
        if round == term::bv(0, 32) {
            return Ok(first);
        }
        let g = self.get(st, Var::MemG(r));
        let later = self.select(&g, &self.shifted(addr, &round), 0);
        if round.is_const() {
            return Ok(later);
        }
        Ok(term::ite(
            &term::eq(&round, &term::bv(0, 32)),
            &first,
            &later,
        ))
    }

    /// The round a memory access at `addr` uses: `None` when rounds are
    /// off or the address is a local's (locals are never shifted).
    fn round_of(&mut self, st: &State, addr: &T) -> Option<T> {
        let (g, k) = self.rounds?;
        let local = 1u64 << (self.pw - 1);
        if let T::V(a, _) = addr {
            if *a as u64 >= local {
                return None;
            }
            return Some(self.get(st, Var::Global(g)));
        }
        // A symbolic address (a local array at a computed index) is
        // thread-local memory when it lies in the locals' half: round 0,
        // the unshifted copy, whatever the round. Giving it round copies
        // made a thread's own array read back a guessed value. A stopped
        // thread (the sink, round K) keeps its own copy: its wild writes,
        // never checked, must not reach another thread's locals.
        let r = self.get(st, Var::Global(g));
        let is_local = term::and(
            &term::cmp("bvuge", addr, &term::bv(local as i128, self.pw)),
            &term::not(&term::eq(&r, &term::bv(k as i128, 32))),
        );
        Some(term::ite(&is_local, &term::bv(0, 32), &r))
    }

    /// Bits that hold a round number 0..=K.
    fn round_bits(&self) -> u32 {
        let k = self.rounds.map_or(0, |(_, k)| k);
        (32 - k.leading_zeros()).max(1)
    }

    /// `addr` in round copy `round`: the round number above the address
    /// bits, so no address (however wild a guessed value makes it) can
    /// reach another round's copy. An address stride would let a garbage
    /// index in one round write into another and justify its own guess.
    fn shifted(&self, addr: &T, round: &T) -> T {
        let w = self.pw + self.round_bits();
        let r = term::resize(round, w, false);
        let hi = term::bin("bvmul", &r, &term::bv(1i128 << self.pw, w));
        term::bin("bvadd", &term::resize(addr, w, false), &hi)
    }

    /// The consistency of rounds (Lal-Reps): for every address read from
    /// shared memory, the final value in round i is the guess of round
    /// i+1. Cells nobody reads need no constraint: their guesses can be
    /// chosen consistent without changing any value read.
    fn round_check(&mut self, st: &State, line: u32) {
        let Some((_, k)) = self.rounds else { return };
        let reads = self.round_reads.clone();
        let mut all = T::B(true);
        for (r, a) in reads {
            let m = self.get(st, Var::Mem(r));
            let g = self.get(st, Var::MemG(r));
            let Some(init) = self.guess.get(&r).cloned() else {
                continue;
            };
            for i in 0..k.saturating_sub(1) {
                let fin = if i == 0 {
                    self.select(&m, &a, 0)
                } else {
                    self.select(&g, &self.shifted(&a, &term::bv(i as i128, 32)), 0)
                };
                let next = term::select(&init, &self.shifted(&a, &term::bv(i as i128 + 1, 32)));
                all = term::and(&all, &term::eq(&fin, &next));
            }
        }
        self.assume(st, &all, line);
    }

    /// `select(m, addr)`, folded through stores at other constant
    /// addresses and small merges.
    fn select(&self, m: &T, addr: &T, depth: u32) -> T {
        let mut cur = m.clone();
        for _ in 0..4096 {
            let T::E(text, Sort::Array(_, w)) = &cur else {
                break;
            };
            if text.starts_with("((as const") {
                return term::bv(0, *w);
            }
            match self.arr_defs.get(text) {
                Some(ArrDef::Store(parent, a, v)) => {
                    if a == addr {
                        return v.clone();
                    }
                    if a.is_const() && addr.is_const() {
                        cur = parent.clone();
                        continue;
                    }
                    break;
                }
                Some(ArrDef::Phi(arms, default)) if depth < 4 && arms.len() <= 4 => {
                    let mut acc = self.select(default, addr, depth + 1);
                    for (g, a) in arms.iter().rev() {
                        let x = self.select(a, addr, depth + 1);
                        acc = term::ite(g, &x, &acc);
                    }
                    return acc;
                }
                _ => break,
            }
        }
        term::select(&cur, addr)
    }

    fn store(
        &mut self,
        st: &mut State,
        fr: &Frame,
        addr: &T,
        ty: &Ty,
        k: RKey,
        v: T,
        line: u32,
    ) -> R<()> {
        let r = self.region(k, ty, line)?;
        let m = self.get(st, Var::Mem(r));
        // A stored value is named once: a later select folded through this
        // store returns it, and inlining its text each time grows the
        // script exponentially (a 355 MB script on pthread/queue).
        let v = self.def("stored", line, v);
        let round = self.round_of(st, addr);
        let zero = term::bv(0, 32);
        if let Some(round) = &round
            && *round != zero
        {
            let g = self.get(st, Var::MemG(r));
            let sa = self.shifted(addr, round);
            let g2 = term::store(&g, &sa, &v);
            let t = self.set(st, Var::MemG(r), g2, line, Some(fr));
            if let T::E(name, _) = t {
                self.arr_defs.insert(name, ArrDef::Store(g, sa, v.clone()));
            }
            if round.is_const() {
                return Ok(());
            }
        }
        let v = match &round {
            Some(round) if *round != zero => {
                let old = self.select(&m, addr, 0);
                let v = term::ite(&term::eq(round, &zero), &v, &old);
                self.def("stored", line, v)
            }
            _ => v,
        };
        let m2 = term::store(&m, addr, &v);
        let t = self.set(st, Var::Mem(r), m2, line, Some(fr));
        if let T::E(name, _) = t {
            self.arr_defs
                .insert(name, ArrDef::Store(m, addr.clone(), v));
        }
        Ok(())
    }

    fn read(&mut self, st: &State, place: &Place, ty: &Ty, line: u32) -> R<Val> {
        match place {
            Place::Var(v) => {
                let t = self.get(st, *v);
                if t == T::B(false) {
                    // Read before any definition on this path: any value.
                    let w = regions::leaf_width(self.p.data_model, ty).unwrap_or(32);
                    let t = self.fresh("undef", line, Sort::Bv(w));
                    if !ty.is_pointer() {
                        self.nondet_event(st, self.cur_loc, &t);
                    }
                    return Ok(Val::S(t));
                }
                Ok(Val::S(t))
            }
            Place::Mem(addr, key) => {
                if regions::is_leaf(ty) {
                    let k = key
                        .clone()
                        .unwrap_or_else(|| regions::deref_key(self.p, ty));
                    return Ok(Val::S(self.load(st, addr, ty, k, line)?));
                }
                let mut out = Vec::new();
                for (off, lt, k) in self.leaf_list(ty, key.as_ref()) {
                    let a = self.offset(addr, off);
                    out.push(self.load(st, &a, &lt, k, line)?);
                }
                Ok(Val::A(out))
            }
        }
    }

    fn write(
        &mut self,
        st: &mut State,
        fr: &Frame,
        place: &Place,
        ty: &Ty,
        v: Val,
        line: u32,
    ) -> R<()> {
        match place {
            Place::Var(var) => {
                self.set(st, *var, v.s(), line, Some(fr));
            }
            Place::Mem(addr, key) => match v {
                Val::S(t) => {
                    let k = key
                        .clone()
                        .unwrap_or_else(|| regions::deref_key(self.p, ty));
                    self.store(st, fr, addr, ty, k, t, line)?;
                }
                Val::A(ts) => {
                    let leaves = self.leaf_list(ty, key.as_ref());
                    for ((off, lt, k), t) in leaves.into_iter().zip(ts) {
                        let a = self.offset(addr, off);
                        self.store(st, fr, &a, &lt, k, t, line)?;
                    }
                }
            },
        }
        Ok(())
    }

    fn place(&mut self, st: &State, fr: &Frame, e: &Expr) -> R<Place> {
        let p = self.p;
        Ok(match &e.kind {
            ExprKind::Local(v) => self.local_place(fr, *v),
            ExprKind::Global(g) => match self.global_addr[g.index()] {
                Some(a) => Place::Mem(term::bv(a as i128, self.pw), Some(RKey::Global(*g))),
                None => Place::Var(Var::Global(*g)),
            },
            ExprKind::Deref(x) => {
                let a = self.rvalue(st, fr, x)?.s();
                let key = if regions::is_leaf(regions::elem_scalar(&e.ty)) {
                    Some(regions::deref_key(p, &e.ty))
                } else {
                    None
                };
                Place::Mem(a, key)
            }
            ExprKind::Member(b, i) => {
                let Ty::Comp(c) = b.ty.unqual() else {
                    return Err(("a member of a non-struct".into(), e.loc));
                };
                let fd = &p.comp(*c).fields[*i as usize];
                if fd.bit_width.is_some() {
                    return Err(("bit-fields".into(), e.loc));
                }
                let Place::Mem(a, _) = self.place(st, fr, b)? else {
                    return Err(("a struct outside memory".into(), e.loc));
                };
                let (offs, _, _) = p.comp_layout(*c).unwrap_or_default();
                let key = if regions::is_leaf(regions::elem_scalar(&fd.ty)) {
                    Some(RKey::Field(*c, *i))
                } else {
                    None
                };
                Place::Mem(self.offset(&a, offs[*i as usize]), key)
            }
            ExprKind::Index(a, i) => {
                let Place::Mem(base, key) = self.place(st, fr, a)? else {
                    return Err(("an array outside memory".into(), e.loc));
                };
                let iv = self.rvalue(st, fr, i)?.s();
                let sz = p.size_of(&e.ty).unwrap_or(1);
                let iv = term::resize(&iv, self.pw, i.ty.is_signed());
                let off = term::bin("bvmul", &iv, &term::bv(sz as i128, self.pw));
                let key = if regions::is_leaf(regions::elem_scalar(&e.ty)) {
                    key
                } else {
                    None
                };
                Place::Mem(term::bin("bvadd", &base, &off), key)
            }
            ExprKind::Str(bytes) => {
                let a = self.string(st, fr, bytes)?;
                Place::Mem(
                    term::bv(a as i128, self.pw),
                    Some(regions::deref_key(p, &Ty::CHAR)),
                )
            }
            _ => return Err(("this expression as an lvalue".into(), e.loc)),
        })
    }

    /// String literals are constant objects whose contents live in
    /// `*char`, written before `main` runs.
    fn string(&mut self, _st: &State, _fr: &Frame, bytes: &[u8]) -> R<u64> {
        match self.strings.get(bytes) {
            Some(a) => Ok(*a),
            None => Err((
                "a string literal seqc did not see before the run".into(),
                Loc::NONE,
            )),
        }
    }

    // ---- expressions ---------------------------------------------------

    pub fn nondet(&mut self, ty: &Ty, loc: Loc) -> R<Val> {
        if regions::is_leaf(ty) {
            let Some(w) = regions::leaf_width(self.p.data_model, ty) else {
                return Err(("floating point in the SMT route".into(), loc));
            };
            let base = self.hint.take().unwrap_or_else(|| "nondet".into());
            let t = self.fresh(&base, loc.line, Sort::Bv(w));
            if matches!(ty.unqual(), Ty::Bool) {
                // `_Bool` holds 0 or 1.
                let b = term::from_bool(&term::nonzero(&t), 8);
                return Ok(Val::S(b));
            }
            return Ok(Val::S(t));
        }
        let mut v = Vec::new();
        for (_, lt, _) in self.leaf_list(ty, None) {
            v.push(self.nondet(&lt, loc)?.s());
        }
        Ok(Val::A(v))
    }

    /// An expression in a Boolean context: comparisons and logical
    /// operators become Boolean terms directly, without a detour
    /// through `int`.
    fn cond(&mut self, st: &State, fr: &Frame, e: &Expr) -> R<T> {
        match &e.kind {
            ExprKind::Unary(UnOp::LogNot, x) => Ok(term::not(&self.cond(st, fr, x)?)),
            ExprKind::Binary(BinOp::LogAnd, a, b) => {
                let x = self.cond(st, fr, a)?;
                let y = self.cond(st, fr, b)?;
                Ok(term::and(&x, &y))
            }
            ExprKind::Binary(BinOp::LogOr, a, b) => {
                let x = self.cond(st, fr, a)?;
                let y = self.cond(st, fr, b)?;
                Ok(term::or(&x, &y))
            }
            ExprKind::Binary(op, a, b) if op.is_comparison() => self.compare(st, fr, *op, a, b),
            ExprKind::Cast(x)
                if e.ty.is_integer()
                    && x.ty.is_scalar()
                    && !matches!(x.ty.unqual(), Ty::Float(_)) =>
            {
                // A cast to a wider or equal integer keeps zero-ness.
                let ew = regions::leaf_width(self.p.data_model, &e.ty).unwrap_or(0);
                let xw = regions::leaf_width(self.p.data_model, &x.ty).unwrap_or(u32::MAX);
                if matches!(e.ty.unqual(), Ty::Bool) || ew >= xw {
                    self.cond(st, fr, x)
                } else {
                    let v = self.rvalue(st, fr, e)?.s();
                    Ok(term::nonzero(&v))
                }
            }
            _ => {
                let v = self.rvalue(st, fr, e)?.s();
                Ok(term::nonzero(&v))
            }
        }
    }

    fn compare(&mut self, st: &State, fr: &Frame, op: BinOp, a: &Expr, b: &Expr) -> R<T> {
        use BinOp::*;
        let av = self.rvalue(st, fr, a)?.s();
        let bv = self.rvalue(st, fr, b)?.s();
        // Operands have their common type (pointers compare as unsigned
        // addresses).
        let ptr = a.ty.is_pointer() || b.ty.is_pointer();
        let (x, y) = if ptr {
            (
                term::resize(&av, self.pw, false),
                term::resize(&bv, self.pw, false),
            )
        } else {
            let y = self.convert_s(bv, &b.ty, &a.ty);
            (av, y)
        };
        let s = !ptr && a.ty.is_signed();
        let (lt, le) = if s {
            ("bvslt", "bvsle")
        } else {
            ("bvult", "bvule")
        };
        Ok(match op {
            Eq => term::eq(&x, &y),
            Ne => term::not(&term::eq(&x, &y)),
            Lt => term::cmp(lt, &x, &y),
            Le => term::cmp(le, &x, &y),
            Gt => term::cmp(lt, &y, &x),
            _ => term::cmp(le, &y, &x),
        })
    }

    pub(super) fn rvalue(&mut self, st: &State, fr: &Frame, e: &Expr) -> R<Val> {
        let p = self.p;
        let dm = p.data_model;
        let w_of = |t: &Ty| regions::leaf_width(dm, t);
        Ok(match &e.kind {
            ExprKind::Int(v) => {
                let Some(w) = w_of(&e.ty) else {
                    return Err(("a constant of this type".into(), e.loc));
                };
                Val::S(term::bv(*v, w))
            }
            ExprKind::Float(_) => return Err(("floating point in the SMT route".into(), e.loc)),
            ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..)
            | ExprKind::Str(_) => {
                if matches!(e.ty.unqual(), Ty::Float(_)) {
                    return Err(("floating point in the SMT route".into(), e.loc));
                }
                let place = self.place(st, fr, e)?;
                self.read(st, &place, &e.ty, e.loc.line)?
            }
            ExprKind::Func(f) => Val::S(self.func_addr(*f, e.loc)?),
            ExprKind::AddrOf(x) | ExprKind::Decay(x) => {
                if let ExprKind::Func(f) = x.kind {
                    return Ok(Val::S(self.func_addr(f, e.loc)?));
                }
                match self.place(st, fr, x)? {
                    Place::Mem(a, _) => Val::S(a),
                    Place::Var(_) => {
                        return Err(("the address of a register variable".into(), e.loc));
                    }
                }
            }
            ExprKind::Unary(UnOp::LogNot, _) => {
                let c = self.cond(st, fr, e)?;
                Val::S(term::from_bool(&c, w_of(&e.ty).unwrap_or(32)))
            }
            ExprKind::Unary(op, x) => {
                let v = self.rvalue(st, fr, x)?.s();
                let v = self.convert_s(v, &x.ty, &e.ty);
                match op {
                    UnOp::Neg => Val::S(term::un("bvneg", &v)),
                    UnOp::BitNot => Val::S(term::un("bvnot", &v)),
                    UnOp::LogNot => unreachable!("handled above"),
                }
            }
            ExprKind::Binary(op, a, b) => Val::S(self.binary(st, fr, *op, a, b, e)?),
            ExprKind::Cast(x) => {
                if matches!(e.ty.unqual(), Ty::Float(_)) || matches!(x.ty.unqual(), Ty::Float(_)) {
                    return Err(("floating point in the SMT route".into(), e.loc));
                }
                let v = self.rvalue(st, fr, x)?;
                if e.ty.is_void() {
                    return Ok(Val::S(term::bv(0, 8)));
                }
                self.convert(v, &x.ty, &e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                let cv = self.cond(st, fr, c)?;
                let av = self.rvalue(st, fr, a)?;
                let av = self.convert(av, &a.ty, &e.ty);
                let bv = self.rvalue(st, fr, b)?;
                let bv = self.convert(bv, &b.ty, &e.ty);
                match (av, bv) {
                    (Val::S(x), Val::S(y)) => Val::S(term::ite(&cv, &x, &y)),
                    (Val::A(xs), Val::A(ys)) => Val::A(
                        xs.iter()
                            .zip(&ys)
                            .map(|(x, y)| term::ite(&cv, x, y))
                            .collect(),
                    ),
                    _ => return Err(("a conditional of mixed kinds".into(), e.loc)),
                }
            }
            ExprKind::Nondet => {
                let v = self.nondet(&e.ty, e.loc)?;
                if let Val::S(t) = &v
                    && !e.ty.is_pointer()
                {
                    self.nondet_event(st, e.loc, t);
                }
                v
            }
        })
    }

    fn func_addr(&mut self, f: FuncId, loc: Loc) -> R<T> {
        match self.fn_addr.get(&f) {
            Some(a) => Ok(term::bv(*a as i128, self.pw)),
            None => Err(("a function designator outside a call".into(), loc)),
        }
    }

    /// C's conversion of a value between scalar types (6.3).
    pub fn convert(&self, v: Val, from: &Ty, to: &Ty) -> Val {
        match v {
            Val::S(t) => Val::S(self.convert_s(t, from, to)),
            a => a,
        }
    }

    pub fn convert_s(&self, t: T, from: &Ty, to: &Ty) -> T {
        let dm = self.p.data_model;
        if matches!(to.unqual(), Ty::Bool) {
            return term::from_bool(&term::nonzero(&t), 8);
        }
        let Some(w) = regions::leaf_width(dm, to) else {
            return t;
        };
        if matches!(t, T::B(_)) {
            return term::from_bool(&t, w);
        }
        term::resize(&t, w, from.is_signed())
    }

    fn binary(&mut self, st: &State, fr: &Frame, op: BinOp, a: &Expr, b: &Expr, e: &Expr) -> R<T> {
        use BinOp::*;
        let p = self.p;
        let dm = p.data_model;
        let rw = regions::leaf_width(dm, &e.ty).unwrap_or(32);
        if op.is_comparison() || matches!(op, LogAnd | LogOr) {
            let c = self.cond(st, fr, e)?;
            return Ok(term::from_bool(&c, rw));
        }
        let av = self.rvalue(st, fr, a)?.s();
        let bv = self.rvalue(st, fr, b)?.s();
        Ok(match op {
            Add | Sub | Mul | Div | Rem | BitAnd | BitOr | BitXor => {
                let x = self.convert_s(av, &a.ty, &e.ty);
                let y = self.convert_s(bv, &b.ty, &e.ty);
                let signed = e.ty.is_signed();
                match op {
                    Add => term::bin("bvadd", &x, &y),
                    Sub => term::bin("bvsub", &x, &y),
                    Mul => term::bin("bvmul", &x, &y),
                    BitAnd => term::bin("bvand", &x, &y),
                    BitOr => term::bin("bvor", &x, &y),
                    BitXor => term::bin("bvxor", &x, &y),
                    _ => {
                        // x / 0 and x % 0: any value (DESIGN.md §2).
                        let name = match (op, signed) {
                            (Div, true) => "bvsdiv",
                            (Div, false) => "bvudiv",
                            (_, true) => "bvsrem",
                            (_, false) => "bvurem",
                        };
                        let zero = term::eq(&y, &term::bv(0, rw));
                        if zero.is_false() {
                            term::bin(name, &x, &y)
                        } else {
                            let any = self.fresh("div0", e.loc.line, Sort::Bv(rw));
                            term::ite(&zero, &any, &term::bin(name, &x, &y))
                        }
                    }
                }
            }
            Shl | Shr => {
                let x = self.convert_s(av, &a.ty, &e.ty);
                // The amount in range [0, width) or any result.
                let bw = bv.width();
                let amt_ok = if b.ty.is_signed() {
                    term::and(
                        &term::cmp("bvsle", &term::bv(0, bw), &bv),
                        &term::cmp("bvslt", &bv, &term::bv(rw as i128, bw)),
                    )
                } else {
                    term::cmp("bvult", &bv, &term::bv(rw as i128, bw.max(8)))
                };
                let amt_ok = if !b.ty.is_signed() && bw < 8 {
                    T::B(true)
                } else {
                    amt_ok
                };
                let n = term::resize(&bv, rw, false);
                let name = match op {
                    Shl => "bvshl",
                    _ if e.ty.is_signed() => "bvashr",
                    _ => "bvlshr",
                };
                let r = term::bin(name, &x, &n);
                if amt_ok.is_true() {
                    r
                } else {
                    let any = self.fresh("shift", e.loc.line, Sort::Bv(rw));
                    term::ite(&amt_ok, &r, &any)
                }
            }
            Eq | Ne | Lt | Le | Gt | Ge | LogAnd | LogOr => unreachable!("handled above"),
            PtrAdd | PtrSub => {
                let sz = p
                    .size_of(e.ty.pointee().unwrap_or(&Ty::CHAR))
                    .unwrap_or(1)
                    .max(1);
                let i = term::resize(&bv, self.pw, b.ty.is_signed());
                let off = term::bin("bvmul", &i, &term::bv(sz as i128, self.pw));
                term::bin(if op == PtrAdd { "bvadd" } else { "bvsub" }, &av, &off)
            }
            PtrDiff => {
                let sz = p
                    .size_of(a.ty.pointee().unwrap_or(&Ty::CHAR))
                    .unwrap_or(1)
                    .max(1);
                let d = term::bin("bvsub", &av, &bv);
                let q = term::bin("bvsdiv", &d, &term::bv(sz as i128, self.pw));
                term::resize(&q, rw, true)
            }
        })
    }

    // ---- operations ----------------------------------------------------

    fn op(
        &mut self,
        mut st: State,
        fr: &Frame,
        dest: Option<&Expr>,
        op: Op,
        args: &[Expr],
        loc: Loc,
    ) -> R<Option<State>> {
        let p = self.p;
        let line = loc.line;
        let pw = self.pw;
        let mut result: Option<(Val, Ty)> = None;
        let arg = |this: &mut Self, st: &State, i: usize| -> R<T> {
            match args.get(i) {
                Some(a) => Ok(this.rvalue(st, fr, a)?.s()),
                None => Err((format!("{} with too few arguments", op.c_name()), loc)),
            }
        };
        // The object an argument points to, looking through `(void *)`.
        let target = |i: usize| -> Ty {
            let mut a = &args[i];
            while let ExprKind::Cast(x) = &a.kind {
                if x.ty.is_pointer() {
                    a = x;
                } else {
                    break;
                }
            }
            a.ty.pointee().cloned().unwrap_or(Ty::CHAR)
        };
        match op {
            Op::Malloc | Op::Calloc => {
                let n = arg(self, &st, 0)?;
                let n = term::resize(&n, pw, false);
                let n = if op == Op::Calloc {
                    let m = arg(self, &st, 1)?;
                    term::bin("bvmul", &n, &term::resize(&m, pw, false))
                } else {
                    n
                };
                let size = match n {
                    T::V(v, _) if (v as u64) < SLOT => v as u64,
                    _ => {
                        // A symbolic size gets a slot of its own and must fit.
                        let fits = term::cmp("bvule", &n, &term::bv(SLOT as i128, pw));
                        self.assume(&st, &fits, line);
                        SLOT
                    }
                };
                let a = self.alloc(size);
                if op == Op::Malloc {
                    self.havoc_heap(&mut st, fr, a, size, line)?;
                }
                result = Some((Val::S(term::bv(a as i128, pw)), Ty::Void.ptr()));
            }
            Op::RoundInit => {}
            Op::RoundCheck => self.round_check(&st, line),
            Op::Free
            | Op::Fence
            | Op::AtomicBegin
            | Op::AtomicEnd
            | Op::MutexDestroy
            | Op::CondDestroy => {
                if matches!(op, Op::MutexDestroy | Op::CondDestroy) {
                    result = Some((Val::S(term::bv(0, 32)), Ty::INT));
                }
            }
            Op::Memset | Op::Memcpy => {
                let ty = target(0).unqual().clone();
                let d = arg(self, &st, 0)?;
                let n = arg(self, &st, 2)?;
                let T::V(n, _) = n else {
                    return Err((format!("{} of a non-constant size", op.c_name()), loc));
                };
                let esz = p.size_of(&ty).unwrap_or(1).max(1);
                if !(n as u64).is_multiple_of(esz) {
                    return Err((
                        format!(
                            "{} of part of a '{}'",
                            op.c_name(),
                            regions::ty_name(p, &ty)
                        ),
                        loc,
                    ));
                }
                let count = n as u64 / esz;
                if count > 1 << 14 {
                    return Err((format!("{} of {count} elements", op.c_name()), loc));
                }
                let key = regions::is_leaf(&ty).then(|| regions::deref_key(p, &ty));
                for i in 0..count {
                    let da = self.offset(&d, i * esz);
                    let v = if op == Op::Memset {
                        let c = arg(self, &st, 1)?;
                        let T::V(c, _) = c else {
                            return Err(("memset with a non-constant byte".into(), loc));
                        };
                        let byte = (c & 0xff) as i128;
                        let mut vals = Vec::new();
                        for (_, lt, _) in self.leaf_list(&ty, key.as_ref()) {
                            let w = regions::leaf_width(p.data_model, &lt).unwrap_or(8);
                            let mut x: i128 = 0;
                            for _ in 0..w / 8 {
                                x = (x << 8) | byte;
                            }
                            if matches!(lt.unqual(), Ty::Bool) && byte > 1 {
                                return Err((
                                    "memset of a _Bool with a byte other than 0 or 1".into(),
                                    loc,
                                ));
                            }
                            vals.push(term::bv(x, w));
                        }
                        if regions::is_leaf(&ty) {
                            Val::S(vals.pop().unwrap())
                        } else {
                            Val::A(vals)
                        }
                    } else {
                        let s = arg(self, &st, 1)?;
                        let sa = self.offset(&s, i * esz);
                        self.read(&st, &Place::Mem(sa, key.clone()), &ty, line)?
                    };
                    self.write(&mut st, fr, &Place::Mem(da, key.clone()), &ty, v, line)?;
                }
                result = Some((Val::S(d), Ty::Void.ptr()));
            }
            Op::Abort | Op::Exit => {
                // The run ends here: no assertion after it on this path.
                self.assume(&st, &T::B(false), line);
                return Ok(None);
            }
            Op::LibNoop(_) => {
                if let Some(d) = dest {
                    result = Some((self.nondet(&d.ty, loc)?, d.ty.clone()));
                }
            }
            Op::MutexInit | Op::MutexLock | Op::MutexUnlock | Op::MutexTryLock | Op::CondWait
                if p.pthread.mutex_kinds =>
            {
                // A sequentialization expands kinds; this model has none.
                return Err((
                    "recursive or error-checking mutexes in a sequential program (use --method lal-reps or --method kiss)".into(),
                    loc,
                ));
            }
            Op::AttrNoop(_) | Op::MutexInit | Op::CondInit | Op::CondSignal | Op::CondBroadcast => {
                if op == Op::MutexInit {
                    let m = arg(self, &st, 0)?;
                    let k = regions::deref_key(p, &Ty::Pthread(PthreadTy::Mutex));
                    self.store(
                        &mut st,
                        fr,
                        &m,
                        &Ty::Pthread(PthreadTy::Mutex),
                        k,
                        term::bv(0, 32),
                        line,
                    )?;
                }
                result = Some((Val::S(term::bv(0, 32)), Ty::INT));
            }
            Op::MutexLock | Op::MutexUnlock | Op::MutexTryLock | Op::CondWait => {
                // A mutex holds 0 (free) or 1 (held); one thread only here.
                let mi = if op == Op::CondWait { 1 } else { 0 };
                let m = arg(self, &st, mi)?;
                let mt = Ty::Pthread(PthreadTy::Mutex);
                let k = regions::deref_key(p, &mt);
                let cur = self.load(&st, &m, &mt, k.clone(), line)?;
                let free = term::eq(&cur, &term::bv(0, 32));
                match op {
                    Op::MutexLock => {
                        self.assume(&st, &free, line);
                        self.store(&mut st, fr, &m, &mt, k, term::bv(1, 32), line)?;
                        result = Some((Val::S(term::bv(0, 32)), Ty::INT));
                    }
                    Op::MutexTryLock => {
                        let nv = term::ite(&free, &term::bv(1, 32), &cur);
                        self.store(&mut st, fr, &m, &mt, k, nv, line)?;
                        let r = term::ite(&free, &term::bv(0, 32), &term::bv(16, 32));
                        result = Some((Val::S(r), Ty::INT));
                    }
                    // Unlock; a wait releases and takes the lock again.
                    Op::MutexUnlock => {
                        self.store(&mut st, fr, &m, &mt, k, term::bv(0, 32), line)?;
                        result = Some((Val::S(term::bv(0, 32)), Ty::INT));
                    }
                    _ => {
                        self.store(&mut st, fr, &m, &mt, k, term::bv(1, 32), line)?;
                        result = Some((Val::S(term::bv(0, 32)), Ty::INT));
                    }
                }
            }
            Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicFetch(_)
            | Op::AtomicFetchThen(_)
            | Op::AtomicCasBool
            | Op::AtomicCasVal
            | Op::AtomicCompareExchange => {
                let ty = target(0).unqual().clone();
                let pa = arg(self, &st, 0)?;
                let place = Place::Mem(
                    pa.clone(),
                    regions::is_leaf(&ty).then(|| regions::deref_key(p, &ty)),
                );
                let old = self.read(&st, &place, &ty, line)?.s();
                let val = |this: &mut Self, st: &State, i: usize| -> R<T> {
                    let v = arg(this, st, i)?;
                    Ok(this.convert_s(v, &args[i].ty, &ty))
                };
                let (new, r) = match op {
                    Op::AtomicLoad => (None, old.clone()),
                    Op::AtomicStore => (Some(val(self, &st, 1)?), term::bv(0, 8)),
                    Op::AtomicExchange => (Some(val(self, &st, 1)?), old.clone()),
                    Op::AtomicFetch(rmw) | Op::AtomicFetchThen(rmw) => {
                        let v = if ty.is_pointer() {
                            let sz = p.size_of(ty.pointee().unwrap()).unwrap_or(1);
                            let v = term::resize(&arg(self, &st, 1)?, pw, args[1].ty.is_signed());
                            term::bin("bvmul", &v, &term::bv(sz as i128, pw))
                        } else {
                            val(self, &st, 1)?
                        };
                        let name = match rmw {
                            AtomicRmw::Add => "bvadd",
                            AtomicRmw::Sub => "bvsub",
                            AtomicRmw::And => "bvand",
                            AtomicRmw::Or => "bvor",
                            AtomicRmw::Xor => "bvxor",
                        };
                        let n = term::bin(name, &old, &v);
                        let r = if matches!(op, Op::AtomicFetch(_)) {
                            old.clone()
                        } else {
                            n.clone()
                        };
                        (Some(n), r)
                    }
                    Op::AtomicCasBool | Op::AtomicCasVal => {
                        let o = val(self, &st, 1)?;
                        let n = val(self, &st, 2)?;
                        let ok = term::eq(&old, &o);
                        let r = if op == Op::AtomicCasBool {
                            term::from_bool(&ok, 8)
                        } else {
                            old.clone()
                        };
                        (Some(term::ite(&ok, &n, &old)), r)
                    }
                    _ => {
                        let ep = arg(self, &st, 1)?;
                        let eplace = Place::Mem(
                            ep,
                            regions::is_leaf(&ty).then(|| regions::deref_key(p, &ty)),
                        );
                        let exp = self.read(&st, &eplace, &ty, line)?.s();
                        let n = val(self, &st, 2)?;
                        let ok = term::eq(&old, &exp);
                        let exp2 = term::ite(&ok, &exp, &old);
                        self.write(&mut st, fr, &eplace, &ty, Val::S(exp2), line)?;
                        (Some(term::ite(&ok, &n, &old)), term::from_bool(&ok, 8))
                    }
                };
                if let Some(n) = new {
                    self.write(&mut st, fr, &place, &ty, Val::S(n), line)?;
                }
                let rty = match op {
                    Op::AtomicCasBool | Op::AtomicCompareExchange | Op::AtomicStore => Ty::Bool,
                    _ => ty.clone(),
                };
                result = Some((Val::S(r), rty));
            }
            Op::ThreadCreate
            | Op::ThreadJoin
            | Op::ThreadDetach
            | Op::ThreadExit
            | Op::ThreadSelf
            | Op::ThreadEqual
            | Op::Once
            | Op::KeyCreate
            | Op::KeyDelete
            | Op::GetSpecific
            | Op::SetSpecific => {
                return Err((
                    format!(
                        "{} in a sequential program (use --method lal-reps or --method kiss for threads)",
                        op.c_name()
                    ),
                    loc,
                ));
            }
        }
        if let (Some(d), Some((v, from))) = (dest, result) {
            let v = self.convert(v, &from, &d.ty);
            let place = self.place(&st, fr, d)?;
            self.write(&mut st, fr, &place, &d.ty, v.clone(), line)?;
            let name = self.lv_text(fr, d);
            self.record_assign(&st, fr, loc, name, &d.ty, &v);
        }
        Ok(Some(st))
    }

    /// malloc's memory is indeterminate: when the object's type is known
    /// (`malloc_elem`) and it is small, every scalar of it starts at a
    /// fresh value. Otherwise it reads as zero, one of its possible
    /// contents (an under-approximation, never a false bug).
    fn havoc_heap(&mut self, st: &mut State, fr: &Frame, a: u64, size: u64, line: u32) -> R<()> {
        let Some(t) = self.malloc_elem.take() else {
            return Ok(());
        };
        let esz = match self.p.size_of(&t) {
            Some(z) if z > 0 && size.is_multiple_of(z) => z,
            _ => return Ok(()),
        };
        let key = regions::is_leaf(&t).then(|| regions::deref_key(self.p, &t));
        let leaves = self.leaf_list(&t, key.as_ref());
        let count = size / esz;
        if leaves.is_empty() || count * leaves.len() as u64 > 256 {
            return Ok(());
        }
        for i in 0..count {
            for (off, lt, k) in &leaves {
                let Some(w) = regions::leaf_width(self.p.data_model, lt) else {
                    continue;
                };
                let v = if matches!(lt.unqual(), Ty::Bool) {
                    self.nondet(lt, self.cur_loc)?.s()
                } else {
                    self.fresh("heap", line, Sort::Bv(w))
                };
                let at = term::bv((a + i * esz + off) as i128, self.pw);
                self.store(st, fr, &at, lt, k.clone(), v, line)?;
            }
        }
        Ok(())
    }

    // ---- traces --------------------------------------------------------

    fn record_assign(&mut self, st: &State, fr: &Frame, loc: Loc, lhs: String, ty: &Ty, v: &Val) {
        let temp = self
            .p
            .functions
            .get(fr.func.index())
            .is_some_and(|f| f.locals.iter().any(|l| l.temp && l.name == lhs));
        if loc.generated || temp {
            // seqc's own temporaries say nothing the user wrote.
            return;
        }
        match v {
            Val::S(t) => self.event(st, loc, EventKind::Assign(lhs, ty.clone(), t.clone())),
            Val::A(ts) => {
                // A struct or array copy: its first scalars, by name.
                let mut paths = Vec::new();
                regions::leaf_paths(self.p, ty, &lhs, &mut paths);
                let leaves = self.leaf_list(ty, None);
                for ((path, (_, lt, _)), t) in paths.into_iter().zip(leaves).zip(ts).take(16) {
                    self.event(st, loc, EventKind::Assign(path, lt, t.clone()));
                }
            }
        }
    }

    /// The C text of an lvalue, for traces.
    fn lv_text(&self, fr: &Frame, e: &Expr) -> String {
        super::expr_text(self.p, fr.func, e)
    }
}

/// The expression of a braced scalar initialiser (`int x = { 5 };`).
fn scalar_init(i: &Init) -> Option<&Expr> {
    match i {
        Init::Expr(e) => Some(e),
        Init::Array(v) => v.first().and_then(|(_, i)| scalar_init(i)),
        Init::Comp(v) => v.first().and_then(|(_, i)| scalar_init(i)),
        Init::Str(_) => None,
    }
}

fn is_nondet(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Nondet => true,
        ExprKind::Cast(x) => is_nondet(x),
        _ => false,
    }
}

fn fd_loc(p: &Program, c: CompId) -> Loc {
    p.comp(c).loc
}
