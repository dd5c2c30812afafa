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

mod call;
mod expr;
mod float;
mod memory;
mod ops;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Var {
    Global(GlobalId),
    Local(u32, LocalId),
    Mem(u32),
    /// Lal-Reps rounds 1..K of a region, indexed by the shifted address.
    MemG(u32),
    /// Lal-Reps: round copy `i` (0..=K) of the value at a constant
    /// address of a region whose round-copied accesses all have constant
    /// addresses (`Symex::cell_of`), a plain value instead of an array.
    Cell(u32, u64, u32),
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
    pub cancel: Option<crate::deadline::Cancel>,
    /// The encoding stopped for time or size, not for what the program
    /// holds.
    pub gave_up: bool,
    pub pw: u32,
    pub regions: Regions,
    codes: HashMap<FuncId, Rc<super::goto::GotoFn>>,
    /// Declarations and definitions, in order.
    pub out: String,
    pub uses_arrays: bool,
    /// Floating-point terms were written (the logic needs FP).
    pub uses_fp: bool,
    /// A conversion that cannot be encoded, met where no error can be
    /// returned (reported when the run ends).
    pub refused: Option<(String, Loc)>,
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
    /// Per region met with rounds on: are its round copies plain values
    /// (`Var::Cell`, true) or arrays (false)? See `cell_of`.
    cells: HashMap<u32, bool>,
    /// Per region: the address of the copied scalar global it holds
    /// alone, and its root key.
    cell_info: HashMap<u32, (Option<u64>, RKey)>,
    /// How many addresses of each region have cells.
    cell_addrs: HashMap<u32, std::collections::BTreeSet<u64>>,
    /// Regions (by root key) whose round copies must be arrays: an
    /// earlier encoding of the same program met them at a computed
    /// address.
    pub array_regions: std::collections::BTreeSet<RKey>,
    /// Regions met at a computed address after some of their values got
    /// cells: this encoding is void, and the next keeps them as arrays.
    pub wants_arrays: std::collections::BTreeSet<RKey>,
    /// The guess each round copy of a cell starts from.
    cell_guess: HashMap<(u32, u64, u32), T>,
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
            cancel: None,
            gave_up: false,
            pw,
            regions,
            codes: HashMap::new(),
            out: String::new(),
            uses_arrays: false,
            uses_fp: false,
            refused: None,
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
            cells: HashMap::new(),
            cell_info: HashMap::new(),
            cell_addrs: HashMap::new(),
            array_regions: Default::default(),
            wants_arrays: Default::default(),
            cell_guess: HashMap::new(),
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
            Var::Cell(r, a, i) => {
                format!("{}.{a:x}.r{i}", self.regions.regions[r as usize].name)
            }
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
            // Round 0 starts as zero-initialised memory does; rounds 1..K
            // start at their guesses.
            Var::Cell(r, _, 0) => term::bv(0, self.regions.regions[r as usize].width),
            Var::Cell(r, a, i) => {
                if let Some(t) = self.cell_guess.get(&(r, a, i)) {
                    return t.clone();
                }
                let w = self.regions.regions[r as usize].width;
                let name = format!("{}.{a:x}.guess{i}", self.regions.regions[r as usize].name);
                let t = self.fresh(&name, 0, Sort::Bv(w));
                self.cell_guess.insert((r, a, i), t.clone());
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

    /// A value the input draws, for the replay (seqc's own draws have
    /// generated locations). Pointers draw nothing: the oracle's nondet
    /// pointer is NULL.
    fn nondet_event(&mut self, st: &State, loc: Loc, t: &T) {
        if !loc.generated {
            self.event(st, loc, EventKind::Nondet(t.clone()));
        }
    }

    /// `nondet_event` on the paths where `c` holds (a value the input
    /// draws only then, as the oracle does for `x / 0`).
    pub(super) fn nondet_event_when(&mut self, st: &State, c: &T, loc: Loc, t: &T) {
        if c.is_false() {
            return;
        }
        let mut at = st.clone();
        at.guard = term::and(&st.guard, c);
        self.nondet_event(&at, loc, t);
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
                    Var::Mem(_) | Var::MemG(_) | Var::Cell(..) | Var::Global(_) => {
                        Some(self.default_of(k))
                    }
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
                    self.local_next += self.span(size);
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

    // ---- calls ---------------------------------------------------------

    // ---- declarations and initialisers ---------------------------------

    // ---- memory --------------------------------------------------------

    // ---- expressions ---------------------------------------------------

    // ---- operations ----------------------------------------------------

    // ---- traces --------------------------------------------------------
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
