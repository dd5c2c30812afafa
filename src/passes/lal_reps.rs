//! Lal–Reps eager sequentialization with K rounds, as STORM adapted it to
//! C with a heap (DESIGN.md §1, §3).
//!
//! Pre: normalised IR (one visible step per statement) whose loops and
//! recursion were bounded by `bound` with `Cut::Stop`. Post: a sequential
//! program with `Program::rounds` set, run by a new `main`.
//!
//! Encoding. Shared memory (every non-thread-local global, every heap
//! object, every local whose address escapes) gets K round copies plus a
//! sink copy K, and every access uses the copy of the current round
//! `__seqc_r`. The copies are not spelled out per object: the IR says
//! once (`Program::rounds`) which globals have copies, and the back ends
//! index memory by the round (the SMT route puts the round above the
//! address bits; the C route keeps shared state in one struct per round,
//! reached through a table indexed by the round). Each round's copy is
//! isolated: a garbage index computed from a guess (or in the sink) must
//! not write into another round, or a run could justify its own guess. The program text therefore does not grow with K; only the
//! guess-and-check of the final consistency (`RoundInit`/`RoundCheck`)
//! scales with K, in the back end. Heap objects and escaping locals live
//! in per-site pools of round-copied globals, so that "the same object in
//! another round" is a fixed distance away in both back ends.
//!
//! Threads. Each `pthread_create` site owns `--threads` slots in the
//! static order of `ir::sites` (parents below children), or one slot when
//! it runs at most once (`sites::single_shot`); thread 0 is
//! main. Threads run to completion one after another in slot order. The
//! bookkeeping a join or a start depends on (created, finished, return
//! value) is round-copied shared memory, so the consistency chain checks
//! every guess whatever the order (rule 3); the argument and the start
//! routine are written before the thread runs (its creator has a lower
//! slot), so they are plain globals.
//!
//! Steps. A switch point `__seqc_cs()` precedes every visible step outside
//! atomic code: the round moves forward to any value up to K, and K
//! means "stopped for good" (its writes land in the sink copy, its
//! assertions and thread operations are off). Every blocking statement
//! (assume, a failed lock or join, a bound cut, exit, abort, an exhausted
//! pool or thread bound) sets the round to K: it stops the thread, never
//! the run (rule 4). Assertions record the first failure in
//! `__seqc_error`, checked after the consistency assumptions (rule 5),
//! and stop the failing thread: what it did after a failure is no run.

use crate::diag::{Diagnostic, Result};
use crate::ir::build::*;
use crate::ir::sites::{self, Site};
use crate::ir::*;
use crate::passes::retype::retype_program;
use crate::passes::threads::{self, Book, KEYS};
use std::collections::{HashMap, HashSet};

pub struct LrOptions {
    pub rounds: u32,
    pub threads: u32,
    pub unwind: u32,
}

/// What the pass made, for traces: assertion ids and thread slots.
#[derive(Clone, Debug, Default)]
pub struct LrInfo {
    /// `__seqc_error == i + 1` means assertion `asserts[i]` failed.
    pub asserts: Vec<(Loc, AssertKind)>,
    /// The start routine of each slot (slot 0: main).
    pub slot_funcs: Vec<String>,
    /// The first slot of each creation site, in site order.
    pub site_slots: Vec<u32>,
    /// Context-switch points in the output (calls of `__seqc_cs`).
    pub switch_points: usize,
}

pub const ROUND: &str = "__seqc_r";
pub const TID: &str = "__seqc_tid";
pub const ERROR: &str = "__seqc_error";
/// The switch point.
pub const CS: &str = "__seqc_cs";
/// Elements of a heap object whose size is known only at run time.
pub const HEAP_CAP: u64 = 16;

pub fn lal_reps(mut p: Program, o: &LrOptions) -> Result<(Program, LrInfo)> {
    let k = o.rounds.max(1);
    let err = |p: &Program, what: String, loc: Loc| {
        let mut d = Diagnostic::unsupported(what);
        if loc != Loc::NONE {
            d.pos = Some((p.file_name(loc.file).to_string(), loc.line, loc.col));
        }
        d
    };
    let Some(user_main) = p.func_by_name("main").filter(|m| p.func(*m).body.is_some()) else {
        return Err(Diagnostic::input("the program has no main function"));
    };
    let site_list = sites::thread_sites(&p).map_err(|(w, l)| err(&p, w, l))?;
    for s in &site_list {
        if s.start.is_none() {
            return Err(err(
                &p,
                "pthread_create with a start routine that is not a function name".into(),
                s.loc,
            ));
        }
    }
    // A site that runs at most once needs one slot: fewer slots are a
    // smaller program for the checker and lose no run.
    let caps = sites::slot_caps(&p, &site_list, o.threads);
    let bases: Vec<u32> = caps
        .iter()
        .scan(1u32, |next, &c| {
            let b = *next;
            *next = next.saturating_add(c);
            Some(b)
        })
        .collect();
    let nslots = 1 + caps.iter().map(|&c| c as u64).sum::<u64>();
    if nslots > 4096 {
        return Err(err(&p, format!("{nslots} thread slots"), Loc::NONE));
    }
    retype_program(&mut p);
    let nglobals_in = p.globals.len();
    let gloc = Loc::NONE;
    let mut copied: Vec<bool> = p
        .globals
        .iter()
        .map(|g| !g.thread_local && !g.name.starts_with("__seqc_"))
        .collect();
    let add_global = |p: &mut Program, copied: &mut Vec<bool>, name: &str, ty: Ty, c: bool| {
        p.globals.push(Global {
            name: name.to_string(),
            ty,
            init: None,
            storage: Storage::Static,
            thread_local: false,
            loc: gloc,
        });
        copied.push(c);
        GlobalId(p.globals.len() as u32 - 1)
    };
    let arr = |t: Ty, n: u64| Ty::Array(Box::new(t), Some(n));
    let vptr = Ty::Void.ptr();
    let g = Globals {
        round: add_global(&mut p, &mut copied, ROUND, Ty::UINT, false),
        tid: add_global(&mut p, &mut copied, TID, Ty::UINT, false),
        error: add_global(&mut p, &mut copied, ERROR, Ty::INT, false),
        atomic: add_global(&mut p, &mut copied, "__seqc_atomic", Ty::INT, false),
        arg: add_global(
            &mut p,
            &mut copied,
            "__seqc_arg",
            arr(vptr.clone(), nslots),
            false,
        ),
        site_n: add_global(
            &mut p,
            &mut copied,
            "__seqc_site_n",
            arr(Ty::UINT, site_list.len().max(1) as u64),
            false,
        ),
        created: add_global(
            &mut p,
            &mut copied,
            "__seqc_created",
            arr(Ty::INT, nslots),
            true,
        ),
        done: add_global(
            &mut p,
            &mut copied,
            "__seqc_done",
            arr(Ty::INT, nslots),
            true,
        ),
        ret: add_global(
            &mut p,
            &mut copied,
            "__seqc_ret",
            arr(vptr.clone(), nslots),
            true,
        ),
        key_n: add_global(&mut p, &mut copied, "__seqc_key_n", Ty::UINT, false),
        keys: add_global(
            &mut p,
            &mut copied,
            "__seqc_keys",
            arr(vptr.clone(), nslots * KEYS),
            false,
        ),
        detached: p.pthread.detach.then(|| {
            add_global(
                &mut p,
                &mut copied,
                "__seqc_detached",
                arr(Ty::INT, nslots),
                true,
            )
        }),
        key_dtor: p.pthread.key_dtors.then(|| {
            let t = arr(threads::dtor_ty(), KEYS);
            add_global(&mut p, &mut copied, "__seqc_key_dtor", t, true)
        }),
    };
    // Thread-local globals: one copy per slot, indexed by the running thread.
    let mut tls = HashSet::new();
    for gi in 0..nglobals_in {
        if p.globals[gi].thread_local {
            tls.insert(GlobalId(gi as u32));
            let gl = &mut p.globals[gi];
            gl.ty = arr(gl.ty.clone(), nslots);
            gl.thread_local = false;
            if let Some(init) = gl.init.take() {
                gl.init = Some(Init::Array(
                    (0..nslots).map(|i| (i, init.clone())).collect(),
                ));
            }
        }
    }
    // The switch point, one function.
    let cs = make_cs(&mut p, &g, k);
    let mut cx = Ctx {
        k,
        g,
        cs,
        sites: site_list.clone(),
        caps: caps.clone(),
        bases: bases.clone(),
        slots: o.unwind.max(1) as u64 * o.threads.max(1) as u64,
        nslots,
        // Made after the rewrite, before the driver.
        dtors: p
            .pthread
            .key_dtors
            .then_some(FuncId(p.functions.len() as u32)),
        mutex_kinds: p.pthread.mutex_kinds,
        atomic_code: threads::has_atomic_code(&p),
        dtor_passes: threads::dtor_passes(&p),
        copied,
        tls,
        strings: HashMap::new(),
        atomic_fns: p.functions.iter().map(|f| f.atomic).collect(),
    };
    // String literals become round-copied globals (pointers to them are
    // shifted by the round like every other pointer).
    // Numbered in order of first use: global initialisers, then each
    // function (collected on threads when many).
    let strs = |e: &Expr, out: &mut Vec<Vec<u8>>| {
        e.walk(&mut |x| {
            if let ExprKind::Str(b) = &x.kind {
                out.push(b.clone());
            }
        })
    };
    let mut found: Vec<Vec<u8>> = Vec::new();
    for gl in &p.globals {
        if let Some(i) = &gl.init {
            i.each_expr(&mut |e| strs(e, &mut found));
        }
    }
    let per_fn = crate::par::map(&p.functions, |_, f| {
        let mut out = Vec::new();
        if let Some(b) = &f.body {
            b.walk(&mut |s| s.each_expr(&mut |e| strs(e, &mut out)));
        }
        out
    });
    let mut seen = HashSet::new();
    let lits: Vec<Vec<u8>> = found
        .into_iter()
        .chain(per_fn.into_iter().flatten())
        .filter(|b| seen.insert(b.clone()))
        .collect();
    for (i, b) in lits.into_iter().enumerate() {
        let id = add_global_in(
            &mut p,
            &mut cx.copied,
            &format!("__seqc_str{i}"),
            arr(Ty::CHAR, b.len() as u64),
            true,
        );
        p.globals[id.index()].init = Some(Init::Str(b.clone()));
        cx.strings.insert(b, id);
    }
    for gi in 0..p.globals.len() {
        if let Some(mut init) = p.globals[gi].init.take() {
            init.walk_exprs_mut(&mut |e| cx.global_init_expr(e));
            p.globals[gi].init = Some(init);
        }
    }
    // Rewriting a function touches no other body: the functions are
    // rewritten on threads, each with the bodies and locals taken out of
    // the program, which the rewrites only read. What a rewrite adds to
    // the program (assertion numbers, pool globals) is numbered after, in
    // function order, as one rewrite after another would number it.
    let jobs = crate::par::map(&p.functions, |fi, f| {
        let fid = FuncId(fi as u32);
        let body = f.body.as_ref().filter(|_| fid != cx.cs)?;
        let mut asserts = 0;
        body.walk(&mut |s| asserts += matches!(s.kind, StmtKind::Assert(..)) as usize);
        Some((fi, crate::ir::access::escaping_locals(f), asserts))
    });
    let mut jobs: Vec<Job> = jobs
        .into_iter()
        .flatten()
        .scan(0, |first_assert, (fi, escaping, asserts)| {
            let f = &mut p.functions[fi];
            let job = Job {
                fi,
                body: f.body.take().unwrap(),
                locals: std::mem::take(&mut f.locals),
                escaping,
                first_assert: *first_assert,
                asserts: Vec::new(),
                pools: Vec::new(),
                first_pool: 0,
                switch_points: 0,
                err: None,
            };
            *first_assert += asserts;
            Some(job)
        })
        .collect();
    let (cxr, pr) = (&cx, &p);
    crate::par::each_mut(&mut jobs, |job| job.run(cxr, pr));
    let mut asserts = Vec::new();
    let mut switch_points = 0;
    for job in &mut jobs {
        if let Some(e) = job.err.take() {
            return Err(e.into_diag(&p));
        }
        if job.first_assert != asserts.len() {
            return Err(Diagnostic::internal(format!(
                "lal-reps numbered the assertions of {} from {} but found {} before it",
                p.functions[job.fi].name,
                job.first_assert,
                asserts.len()
            )));
        }
        asserts.append(&mut job.asserts);
        switch_points += job.switch_points;
        job.first_pool = p.globals.len() as u32;
        for pool in &job.pools {
            // A pool and its counter are named by the pool's number.
            let n = job.first_pool + pool.named_by;
            let name = match pool.counter {
                false => format!("__seqc_pool{n}"),
                true => format!("__seqc_pool{n}_n"),
            };
            add_global_in(
                &mut p,
                &mut cx.copied,
                &name,
                pool.ty.clone(),
                !pool.counter,
            );
        }
    }
    crate::par::each_mut(&mut jobs, Job::number_pools);
    for job in jobs {
        let f = &mut p.functions[job.fi];
        f.body = Some(job.body);
        f.locals = job.locals;
    }
    if cx.dtors.is_some() {
        let b = book(&cx);
        let alive = Some(cx.alive(&p, Loc::NONE));
        let f = threads::make_dtor_runner(&p, &b, cx.dtor_passes, alive, |_| vec![]);
        debug_assert_eq!(Some(FuncId(p.functions.len() as u32)), cx.dtors);
        p.functions.push(f);
    }
    // The user's main becomes thread 0's start routine.
    p.functions[user_main.index()].name = "__seqc_main".into();
    p.functions[user_main.index()].is_static = true;
    let info = LrInfo {
        asserts,
        slot_funcs: std::iter::once("main".to_string())
            .chain(site_list.iter().zip(&caps).flat_map(|(s, &c)| {
                let n = p.func(s.start.unwrap()).name.clone();
                std::iter::repeat_n(n, c as usize)
            }))
            .collect(),
        site_slots: bases,
        switch_points,
    };
    make_driver(&mut p, &cx, user_main, nslots);
    p.thread_id = Some(cx.g.tid);
    p.rounds = Some(Rounds {
        round: cx.g.round,
        k,
        copied: cx.copied,
    });
    Ok((p, info))
}

fn add_global_in(p: &mut Program, copied: &mut Vec<bool>, name: &str, ty: Ty, c: bool) -> GlobalId {
    p.globals.push(Global {
        name: name.to_string(),
        ty,
        init: None,
        storage: Storage::Static,
        thread_local: false,
        loc: Loc::NONE,
    });
    copied.push(c);
    GlobalId(p.globals.len() as u32 - 1)
}

#[derive(Clone, Copy)]
struct Globals {
    round: GlobalId,
    tid: GlobalId,
    error: GlobalId,
    atomic: GlobalId,
    arg: GlobalId,
    site_n: GlobalId,
    created: GlobalId,
    done: GlobalId,
    ret: GlobalId,
    /// pthread keys made so far, and each slot's values for them: data of
    /// one thread only, so no round copies (like `_Thread_local`).
    key_n: GlobalId,
    keys: GlobalId,
    detached: Option<GlobalId>,
    key_dtor: Option<GlobalId>,
}

struct PassErr {
    what: String,
    loc: Loc,
}

impl PassErr {
    fn into_diag(self, p: &Program) -> Diagnostic {
        let mut d = Diagnostic::unsupported(format!("{} (with --method lal-reps)", self.what));
        if self.loc != Loc::NONE {
            d.pos = Some((
                p.file_name(self.loc.file).to_string(),
                self.loc.line,
                self.loc.col,
            ));
        }
        d
    }
}

/// What every function's rewrite reads.
struct Ctx {
    k: u32,
    g: Globals,
    cs: FuncId,
    sites: Vec<Site>,
    /// Slots per site, and the first slot of each.
    caps: Vec<u32>,
    bases: Vec<u32>,
    /// Pool slots per allocation site.
    slots: u64,
    /// Thread slots (main's included).
    nslots: u64,
    /// The destructor runner, the mutex model and whether the program
    /// has atomic code (`threads::Book`).
    dtors: Option<FuncId>,
    mutex_kinds: bool,
    atomic_code: bool,
    dtor_passes: u32,
    /// Round-copied globals (those before the functions' rewrite).
    copied: Vec<bool>,
    tls: HashSet<GlobalId>,
    strings: HashMap<Vec<u8>, GlobalId>,
    atomic_fns: Vec<bool>,
}

/// One function's rewrite, and what it adds to the program.
struct Job {
    fi: usize,
    body: Block,
    locals: Vec<Local>,
    escaping: HashSet<LocalId>,
    /// Assertions of the functions before this one.
    first_assert: usize,
    asserts: Vec<(Loc, AssertKind)>,
    /// Globals the rewrite needs, made after it: `pending(i)` stands for
    /// the `i`-th until `number_pools` gives it the number `first_pool + i`.
    pools: Vec<Pool>,
    first_pool: u32,
    switch_points: usize,
    err: Option<PassErr>,
}

/// A pool of heap objects or escaping locals, or its counter.
struct Pool {
    ty: Ty,
    counter: bool,
    /// The pool (by index in `Job::pools`) whose number names this one.
    named_by: u32,
}

/// Ids at and above this stand for globals a rewrite has yet to make.
const PENDING: u32 = 1 << 31;

fn pending(i: usize) -> GlobalId {
    GlobalId(PENDING + i as u32)
}

/// The per-function state of a rewrite; it reads the context through
/// `Deref`.
struct Rewriter<'c> {
    cx: &'c Ctx,
    first_assert: usize,
    asserts: Vec<(Loc, AssertKind)>,
    pools: Vec<Pool>,
    err: Option<PassErr>,
    locals: Vec<Local>,
    escaping: HashSet<LocalId>,
    esc_ptr: HashMap<LocalId, LocalId>,
    ret_ty: Ty,
    atomic_fn: bool,
}

impl std::ops::Deref for Rewriter<'_> {
    type Target = Ctx;
    fn deref(&self) -> &Ctx {
        self.cx
    }
}

impl Ctx {
    fn round(&self, p: &Program, loc: Loc) -> Expr {
        glob(p, self.g.round, loc)
    }

    fn stop(&self, p: &Program, loc: Loc) -> Stmt {
        assign(self.round(p, loc), int(self.k as i128, Ty::UINT, loc), loc)
    }

    /// `__seqc_r < K`: the thread has not stopped.
    fn alive(&self, p: &Program, loc: Loc) -> Expr {
        cmp(
            BinOp::Lt,
            self.round(p, loc),
            int(self.k as i128, Ty::UINT, loc),
            loc,
        )
    }

    fn cs_call(&self, loc: Loc) -> Stmt {
        st(
            StmtKind::Call {
                dest: None,
                callee: Expr::new(
                    ExprKind::Func(self.cs),
                    Ty::Func(Box::new(FnSig {
                        ret: Ty::Void,
                        params: vec![],
                        variadic: false,
                        unprototyped: false,
                    })),
                    loc,
                ),
                args: vec![],
            },
            loc.generated(),
        )
    }

    fn global_init_expr(&self, e: &mut Expr) {
        e.walk_mut(&mut |x| {
            if let ExprKind::Str(b) = &x.kind
                && let Some(&g) = self.strings.get(b)
            {
                x.kind = ExprKind::Global(g);
            }
        });
    }
}

impl Job {
    fn run(&mut self, cx: &Ctx, p: &Program) {
        let f = &p.functions[self.fi];
        let mut rw = Rewriter {
            cx,
            first_assert: self.first_assert,
            asserts: Vec::new(),
            pools: Vec::new(),
            err: None,
            locals: std::mem::take(&mut self.locals),
            escaping: std::mem::take(&mut self.escaping),
            esc_ptr: HashMap::new(),
            ret_ty: f.sig.ret.clone(),
            atomic_fn: f.atomic,
        };
        let mut pre = Vec::new();
        let mut esc: Vec<LocalId> = rw.escaping.iter().copied().collect();
        esc.sort();
        for v in esc {
            let ty = rw.locals[v.index()].ty.clone();
            let name = format!("{}__p", rw.locals[v.index()].name);
            let pv = rw.temp(&name, ty.clone().ptr());
            rw.esc_ptr.insert(v, pv);
            pre.push(st(StmtKind::Decl(pv, None), f.loc.generated()));
            if f.params.contains(&v) {
                // Copy the parameter into its pool slot on entry.
                let loc = f.loc.generated();
                pre.extend(rw.alloc_stmts(p, &ty, 1, pv, loc));
                let slot = deref(lv_local(pv, ty.clone().ptr(), loc), loc);
                pre.push(st(StmtKind::Assign(slot, lv_local(v, ty, loc)), loc));
            }
        }
        let body = std::mem::take(&mut self.body);
        let mut out = rw.block(p, body, false);
        pre.append(&mut out.0);
        self.body = Block(pre);
        self.locals = rw.locals;
        self.asserts = rw.asserts;
        self.pools = rw.pools;
        self.err = rw.err;
        let cs = cx.cs;
        self.body.walk(&mut |s| {
            if let StmtKind::Call { callee, .. } = &s.kind
                && callee.kind == ExprKind::Func(cs)
            {
                self.switch_points += 1;
            }
        });
    }

    /// Gives the pools their numbers, now that the program has them.
    fn number_pools(&mut self) {
        if self.pools.is_empty() {
            return;
        }
        let first = self.first_pool;
        self.body.walk_exprs_mut(&mut |e| {
            e.walk_mut(&mut |x| {
                if let ExprKind::Global(g) = &mut x.kind
                    && g.0 >= PENDING
                {
                    g.0 = g.0 - PENDING + first;
                }
            })
        });
    }
}

// ---- calls of atomic functions, stopped returns ----

/// Does `call` call a `__VERIFIER_atomic_*` function?
pub(crate) fn calls_atomic(call: &Stmt, atomic_fns: &[bool]) -> bool {
    let StmtKind::Call { callee, .. } = &call.kind else {
        return false;
    };
    matches!(
        crate::ir::sites::strip(callee),
        Some(f) if atomic_fns.get(f.index()).copied().unwrap_or(false)
    )
}

/// The statements before and after a call of an atomic function from
/// code that is not atomic: the whole call is one step, so the non-atomic
/// functions it calls must see the atomic flag set (and get no switch
/// points). The flag is saved in `t` and restored, so an enclosing atomic
/// section stays atomic.
pub(crate) fn atomic_call(
    p: &Program,
    flag: GlobalId,
    t: LocalId,
    loc: Loc,
) -> (Vec<Stmt>, Vec<Stmt>) {
    let l = loc.generated();
    let save = vec![
        st(StmtKind::Decl(t, Some(Init::Expr(glob(p, flag, l)))), l),
        assign(glob(p, flag, l), int(1, Ty::INT, l), l),
    ];
    let restore = vec![assign(glob(p, flag, l), lv_local(t, Ty::INT, l), l)];
    (save, restore)
}

/// `return` of a value nobody reads (a stopped thread's). A scalar
/// returns 0, so the C reads no uninitialised variable; an aggregate
/// returns a fresh local from `temp`, whatever it holds.
pub(crate) fn return_any(ty: Ty, loc: Loc, temp: impl FnOnce(Ty) -> LocalId) -> Vec<Stmt> {
    if ty.is_integer() || ty.is_pointer() {
        let zero = cast(int(0, Ty::INT, loc), ty, loc);
        return vec![st(StmtKind::Return(Some(zero)), loc)];
    }
    let t = temp(ty.clone());
    vec![
        st(StmtKind::Decl(t, None), loc),
        st(StmtKind::Return(Some(lv_local(t, ty, loc))), loc),
    ]
}

/// `void __seqc_cs(void)`: outside atomic code, the round may move
/// forward to any value up to K (K: the thread stops for good).
fn make_cs(p: &mut Program, g: &Globals, k: u32) -> FuncId {
    let loc = Loc::NONE;
    let t = LocalId(0);
    let r = glob(p, g.round, loc);
    let tv = lv_local(t, Ty::UINT, loc);
    let body = vec![if_(
        cmp(BinOp::Eq, glob(p, g.atomic, loc), int(0, Ty::INT, loc), loc),
        vec![
            st(
                StmtKind::Assign(tv.clone(), Expr::new(ExprKind::Nondet, Ty::UINT, loc)),
                loc,
            ),
            if_(
                bin(
                    BinOp::LogAnd,
                    cmp(BinOp::Ge, tv.clone(), r.clone(), loc),
                    cmp(BinOp::Le, tv.clone(), int(k as i128, Ty::UINT, loc), loc),
                    Ty::INT,
                    loc,
                ),
                vec![assign(r, tv, loc)],
                vec![],
                loc,
            ),
        ],
        vec![],
        loc,
    )];
    p.functions.push(Function {
        name: CS.into(),
        sig: FnSig {
            ret: Ty::Void,
            params: vec![],
            variadic: false,
            unprototyped: false,
        },
        params: vec![],
        locals: vec![Local {
            name: "t".into(),
            ty: Ty::UINT,
            loc,
            temp: true,
        }],
        body: Some(Block(
            vec![st(StmtKind::Decl(t, None), loc)]
                .into_iter()
                .chain(body)
                .collect(),
        )),
        is_static: true,
        atomic: false,
        loc,
        labels: vec![],
    });
    FuncId(p.functions.len() as u32 - 1)
}

impl Rewriter<'_> {
    fn fail(&mut self, what: impl Into<String>, loc: Loc) {
        if self.err.is_none() {
            self.err = Some(PassErr {
                what: what.into(),
                loc,
            });
        }
    }

    fn temp(&mut self, name: &str, ty: Ty) -> LocalId {
        let n = self.locals.len();
        self.locals.push(Local {
            name: format!("{name}{n}"),
            ty,
            loc: Loc::NONE,
            temp: true,
        });
        LocalId(self.locals.len() as u32 - 1)
    }

    /// Stop and leave the function (a cut, exit or abort).
    fn stop_and_return(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        let mut v = vec![self.stop(p, loc)];
        if self.ret_ty.is_void() {
            v.push(st(StmtKind::Return(None), loc));
        } else {
            // The value is never used: the thread has stopped.
            let ty = self.ret_ty.clone();
            v.extend(return_any(ty, loc, |t| self.temp("__seqc_any", t)));
        }
        v
    }

    /// Rewrites an expression: escaping locals through their pool
    /// pointer, thread-local globals by thread, strings as globals.
    fn expr(&mut self, p: &Program, e: &mut Expr) {
        let esc = &self.esc_ptr;
        let tls = &self.tls;
        let strings = &self.strings;
        let tid = self.g.tid;
        let mut bad: Option<Loc> = None;
        rewrite_expr(e, &mut |x: &mut Expr| match &x.kind {
            ExprKind::Local(v) if esc.contains_key(v) => {
                let pv = esc[v];
                let pty = x.ty.clone().ptr();
                let loc = x.loc;
                *x = deref(lv_local(pv, pty, loc), loc);
                x.ty = x.ty.clone();
            }
            ExprKind::Global(g) if tls.contains(g) => {
                let loc = x.loc;
                let ty = x.ty.clone();
                let base = Expr::new(ExprKind::Global(*g), p.global(*g).ty.clone(), loc);
                *x = Expr::new(
                    ExprKind::Index(Box::new(base), Box::new(glob(p, tid, loc))),
                    ty,
                    loc,
                );
            }
            ExprKind::Str(b) => {
                if let Some(&g) = strings.get(b) {
                    x.kind = ExprKind::Global(g);
                }
            }
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => {
                if let ExprKind::Index(b, i) = &a.kind
                    && matches!(b.kind, ExprKind::Global(g) if tls.contains(&g))
                    && matches!(i.kind, ExprKind::Global(t) if t == tid)
                {
                    bad = Some(x.loc);
                }
            }
            _ => {}
        });
        if let Some(l) = bad {
            self.fail("the address of a thread-local variable", l);
        }
    }

    fn block(&mut self, p: &Program, b: Block, _in_atomic: bool) -> Block {
        let mut out = Vec::new();
        let mut stmts = b.0.into_iter().peekable();
        while let Some(s) = stmts.next() {
            let next_ty = stmts.peek().and_then(|n| match &n.kind {
                StmtKind::Assign(l, r) if matches!(strip_cast(r).kind, ExprKind::Local(_)) => {
                    Some((strip_cast(r).clone(), l.ty.clone()))
                }
                _ => None,
            });
            self.stmt(p, s, &mut out, next_ty);
        }
        Block(out)
    }

    fn visible(&self, s: &Stmt) -> bool {
        if self.atomic_fn {
            return false;
        }
        match &s.kind {
            StmtKind::Op { op, .. } if op.is_visible() && !matches!(op, Op::Free) => return true,
            StmtKind::Call { callee, .. } => {
                if let ExprKind::Func(f) = callee.kind
                    && self.atomic_fns[f.index()]
                {
                    return true;
                }
            }
            _ => {}
        }
        let mut any = false;
        s.each_expr(&mut |e| any = any || accesses(e, false, &self.copied));
        any
    }

    fn stmt(&mut self, p: &Program, mut s: Stmt, out: &mut Vec<Stmt>, next: Option<(Expr, Ty)>) {
        let loc = s.loc;
        // Rewrite expressions first, so that visibility sees pool derefs.
        let is_decl_esc = matches!(&s.kind, StmtKind::Decl(v, _) if self.esc_ptr.contains_key(v));
        if !is_decl_esc {
            s.each_expr_mut(&mut |e| self.expr(p, e));
        }
        let vis = self.visible(&s);
        if vis {
            out.push(self.cs_call(loc));
        }
        match s.kind {
            StmtKind::Decl(v, init) if self.esc_ptr.contains_key(&v) => {
                let pv = self.esc_ptr[&v];
                let ty = self.locals[v.index()].ty.clone();
                out.extend(self.alloc_stmts(p, &ty, 1, pv, loc));
                if let Some(mut init) = init {
                    init.walk_exprs_mut(&mut |e| self.expr(p, e));
                    let slot = deref(lv_local(pv, ty.clone().ptr(), loc), loc);
                    let mut w = Vec::new();
                    init_writes(p, slot, &ty, &init, loc, &mut w);
                    if !w.is_empty() {
                        // The initialising writes are shared: one step.
                        out.push(self.cs_call(loc));
                        let a = self.g.atomic;
                        out.push(assign(glob(p, a, loc), int(1, Ty::INT, loc), loc));
                        out.extend(w);
                        out.push(assign(glob(p, a, loc), int(0, Ty::INT, loc), loc));
                    }
                }
            }
            StmtKind::If(c, a, b) => {
                let a = self.block(p, a, false);
                let b = self.block(p, b, false);
                out.push(st(StmtKind::If(c, a, b), loc));
            }
            StmtKind::Loop { body, latch } => {
                let body = self.block(p, body, false);
                let latch = self.block(p, latch, false);
                out.push(st(StmtKind::Loop { body, latch }, loc));
            }
            StmtKind::Switch(c, b) => {
                let b = self.block(p, b, false);
                out.push(st(StmtKind::Switch(c, b), loc));
            }
            StmtKind::Block(b) => {
                let b = self.block(p, b, false);
                out.push(st(StmtKind::Block(b), loc));
            }
            StmtKind::Assert(c, kind) => {
                self.asserts.push((loc, kind));
                let id = (self.first_assert + self.asserts.len()) as i128;
                let e = glob(p, self.g.error, loc);
                let set = if_(
                    cmp(BinOp::Eq, e.clone(), int(0, Ty::INT, loc), loc),
                    vec![assign(e, int(id, Ty::INT, loc), loc)],
                    vec![],
                    loc,
                );
                // A failed assertion ends the run: the thread stops, so
                // nothing it does afterwards can make another assertion
                // fail (seqc records the first failure in slot order,
                // which need not be the first of the run).
                let fails = if_(not(c, loc), vec![set, self.stop(p, loc)], vec![], loc);
                out.push(if_(self.alive(p, loc), vec![fails], vec![], loc));
            }
            StmtKind::Assume(c) => {
                out.push(if_(not(c, loc), vec![self.stop(p, loc)], vec![], loc));
            }
            StmtKind::Op { dest, op, args } => self.op(p, dest, op, args, loc, out, next),
            StmtKind::Call { dest, callee, args } => {
                let call = st(StmtKind::Call { dest, callee, args }, loc);
                let (a, b) = self.atomic_call(p, &call, loc);
                out.extend(a);
                out.push(call);
                out.extend(b);
            }
            kind => out.push(st(kind, loc)),
        }
    }

    /// Around a call of a `__VERIFIER_atomic_*` function from code that
    /// is not atomic (see `atomic_call`).
    fn atomic_call(&mut self, p: &Program, call: &Stmt, loc: Loc) -> (Vec<Stmt>, Vec<Stmt>) {
        if self.atomic_fn || !calls_atomic(call, &self.atomic_fns) {
            return (vec![], vec![]);
        }
        let t = self.temp("__seqc_was_atomic", Ty::INT);
        atomic_call(p, self.g.atomic, t, loc)
    }

    /// `pv = &pool[next]` for a fresh object of `count` × `ty`.
    fn alloc_stmts(
        &mut self,
        p: &Program,
        ty: &Ty,
        count: u64,
        pv: LocalId,
        loc: Loc,
    ) -> Vec<Stmt> {
        let slots = self.slots;
        // The pool and its counter get their numbers after the rewrite
        // (`Job::number_pools`).
        let named_by = self.pools.len() as u32;
        let pool_ty = Ty::Array(Box::new(ty.clone()), Some(count * slots));
        let pool = Expr::new(
            ExprKind::Global(pending(self.pools.len())),
            pool_ty.clone(),
            loc,
        );
        self.pools.push(Pool {
            ty: pool_ty,
            counter: false,
            named_by,
        });
        let c = Expr::new(ExprKind::Global(pending(self.pools.len())), Ty::UINT, loc);
        self.pools.push(Pool {
            ty: Ty::UINT,
            counter: true,
            named_by,
        });
        let pty = self.locals[pv.index()].ty.clone();
        let at = |i: Expr| {
            let e = index(pool.clone(), i, loc);
            cast(addr_of(e, loc), pty.clone(), loc)
        };
        let pvx = lv_local(pv, pty.clone(), loc);
        vec![if_(
            cmp(BinOp::Ge, c.clone(), int(slots as i128, Ty::UINT, loc), loc),
            vec![
                self.stop(p, loc),
                assign(pvx.clone(), at(int(0, Ty::UINT, loc)), loc),
            ],
            vec![
                assign(
                    pvx,
                    at(bin(
                        BinOp::Mul,
                        c.clone(),
                        int(count as i128, Ty::UINT, loc),
                        Ty::UINT,
                        loc,
                    )),
                    loc,
                ),
                assign(
                    c.clone(),
                    bin(BinOp::Add, c, int(1, Ty::UINT, loc), Ty::UINT, loc),
                    loc,
                ),
            ],
            loc,
        )]
    }

    /// memset / memcpy as element-wise stores through the pointer, typed
    /// by what the pointer pointed to before its cast to `void *`, so each
    /// store goes to the current round's copy like any other. One visible
    /// step, as the oracle runs it. A size known only at run time is
    /// handled up to HEAP_CAP elements; beyond that, or for part of an
    /// element, the thread stops (a bound cut).
    fn mem_op(
        &mut self,
        p: &Program,
        op: Op,
        args: &[Expr],
        loc: Loc,
    ) -> std::result::Result<Vec<Stmt>, String> {
        let name = op.c_name();
        let pointee = |e: &Expr| {
            strip_cast(e)
                .ty
                .pointee()
                .filter(|t| !t.is_void() && !matches!(t.unqual(), Ty::Func(_)))
                .cloned()
        };
        let mut ety = pointee(&args[0]);
        if op == Op::Memcpy && ety.is_none() {
            ety = pointee(&args[1]);
        }
        let ety = ety.unwrap_or(Ty::Int(IntKind::UChar));
        let esz = p
            .size_of(&ety)
            .filter(|s| *s > 0)
            .ok_or_else(|| format!("{name} of an incomplete type"))?;
        let n = &args[2];
        let ul = Ty::ULONG;
        let (count, guard) = match const_of(n) {
            Some(n) if !(n as u64).is_multiple_of(esz) => {
                return Err(format!("{name} of part of an element"));
            }
            Some(n) => (n as u64 / esz, false),
            None => (HEAP_CAP, true),
        };
        if count > 4096 {
            return Err(format!("{name} of {count} elements"));
        }
        let tp = ety.clone().ptr();
        let base = |e: &Expr| cast(strip_cast(e).clone(), tp.clone(), loc);
        let (dp, sp) = (base(&args[0]), base(&args[1]));
        let at = |b: &Expr, i: u64| {
            deref(
                bin(
                    BinOp::PtrAdd,
                    b.clone(),
                    int(i as i128, Ty::LONG, loc),
                    tp.clone(),
                    loc,
                ),
                loc,
            )
        };
        let byte = match op {
            Op::Memset => Some(
                const_of(&args[1])
                    .ok_or_else(|| "memset with a byte that is not a constant".to_string())?
                    & 0xff,
            ),
            _ => None,
        };
        let mut out = Vec::new();
        let nw = cast(n.clone(), ul.clone(), loc);
        if guard {
            let big = cmp(
                BinOp::Gt,
                nw.clone(),
                int((count * esz) as i128, ul.clone(), loc),
                loc,
            );
            let part = cmp(
                BinOp::Ne,
                bin(
                    BinOp::Rem,
                    nw.clone(),
                    int(esz as i128, ul.clone(), loc),
                    ul.clone(),
                    loc,
                ),
                int(0, ul.clone(), loc),
                loc,
            );
            let c = bin(BinOp::LogOr, big, part, Ty::INT, loc);
            out.push(if_(c, vec![self.stop(p, loc)], vec![], loc));
        }
        let mut budget = 4096usize;
        for i in 0..count {
            let mut v = match byte {
                Some(b) => fill(p, at(&dp, i), b, &mut budget, loc)?,
                None => vec![assign(at(&dp, i), at(&sp, i), loc)],
            };
            if guard {
                let inside = cmp(
                    BinOp::Lt,
                    int((i * esz) as i128, ul.clone(), loc),
                    nw.clone(),
                    loc,
                );
                v = vec![if_(inside, v, vec![], loc)];
            }
            out.extend(v);
        }
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn op(
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
                made.extend(threads::on_create(p, &book(self.cx), &tv, &arg(1), loc));
                let pt = arg(0);
                made.extend(if_nonnull(
                    &pt,
                    vec![assign(deref(pt.clone(), loc), tv.clone(), loc)],
                    loc,
                ));
                let mut body = vec![if_(
                    cmp(BinOp::Ge, n, int(self.caps[si] as i128, Ty::UINT, loc), loc),
                    vec![self.stop(p, loc)],
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
            | Op::CondWait
            | Op::Once
            | Op::KeyCreate
            | Op::KeyDelete
            | Op::GetSpecific
            | Op::SetSpecific
            | Op::AtomicBegin
            | Op::AtomicEnd
            | Op::Abort
            | Op::Exit => unreachable!("expanded by the thread model"),
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
                        out.push(if_(eq.clone(), vec![assign(m, arg(2), loc)], vec![], loc));
                        set_dest(out, if op == Op::AtomicCasVal { ov } else { eq });
                    }
                    _ => {
                        // C11 compare_exchange(p, expected_ptr, desired).
                        let ex = deref(arg(1), loc);
                        let eq = cmp(BinOp::Eq, ov.clone(), ex.clone(), loc);
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

/// Stores that give every leaf of `lv` the bytes `b` (memset).
fn fill(
    p: &Program,
    lv: Expr,
    b: i128,
    budget: &mut usize,
    loc: Loc,
) -> std::result::Result<Vec<Stmt>, String> {
    let ty = lv.ty.unqual().clone();
    match ty {
        Ty::Array(t, Some(n)) => {
            let mut v = Vec::new();
            for j in 0..n {
                let e = Expr::new(
                    ExprKind::Index(
                        Box::new(lv.clone()),
                        Box::new(int(j as i128, Ty::LONG, loc)),
                    ),
                    (*t).clone(),
                    loc,
                );
                v.extend(fill(p, e, b, budget, loc)?);
            }
            Ok(v)
        }
        Ty::Comp(c) => {
            let d = p.comp(c);
            let mut v = Vec::new();
            for (fi, f) in d.fields.iter().enumerate() {
                if f.name.is_empty() && f.bit_width.is_some() {
                    continue;
                }
                let e = Expr::new(
                    ExprKind::Member(Box::new(lv.clone()), fi as u32),
                    f.ty.clone(),
                    loc,
                );
                v.extend(fill(p, e, b, budget, loc)?);
                if d.kind == CompKind::Union {
                    break;
                }
            }
            Ok(v)
        }
        Ty::Int(_) | Ty::Bool | Ty::Ptr(_) | Ty::Float(_) | Ty::Pthread(_) => {
            if *budget == 0 {
                return Err("memset of more than 4096 leaves".into());
            }
            *budget -= 1;
            let w = p.size_of(&ty).unwrap_or(1);
            let bits = match ty {
                Ty::Bool if b > 1 => {
                    return Err("memset of a _Bool with a byte other than 0 or 1".into());
                }
                Ty::Ptr(_) | Ty::Float(_) | Ty::Pthread(_) if b != 0 => {
                    return Err("memset of a pointer or floating value with a non-zero byte".into());
                }
                _ => (0..w.min(8)).fold(0i128, |x, _| (x << 8) | b),
            };
            Ok(vec![assign(
                lv,
                int(bits, Ty::Int(IntKind::ULongLong), loc),
                loc,
            )])
        }
        _ => Err("memset of a value of this type".into()),
    }
}

/// Does evaluating `e` read or write shared memory? (`addr`: `e` is
/// under `&`, so only the address is computed.)
fn accesses(e: &Expr, addr: bool, copied: &[bool]) -> bool {
    match &e.kind {
        ExprKind::Global(g) => !addr && copied.get(g.index()).copied().unwrap_or(false),
        ExprKind::Deref(x) => !addr || accesses(x, false, copied),
        ExprKind::AddrOf(a) | ExprKind::Decay(a) => accesses(a, true, copied),
        ExprKind::Member(a, _) => accesses(a, addr, copied),
        ExprKind::Index(a, i) => accesses(a, addr, copied) || accesses(i, false, copied),
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => accesses(a, false, copied),
        ExprKind::Binary(_, a, b) => accesses(a, false, copied) || accesses(b, false, copied),
        ExprKind::Cond(a, b, c) => {
            accesses(a, false, copied) || accesses(b, false, copied) || accesses(c, false, copied)
        }
        _ => false,
    }
}

/// Applies `f` to every sub-expression, parents first, not descending
/// into a node `f` replaced.
pub(crate) fn rewrite_expr(e: &mut Expr, f: &mut impl FnMut(&mut Expr)) {
    let before = std::mem::discriminant(&e.kind);
    f(e);
    if std::mem::discriminant(&e.kind) != before {
        return;
    }
    match &mut e.kind {
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a)
        | ExprKind::Member(a, _)
        | ExprKind::Decay(a) => rewrite_expr(a, f),
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            rewrite_expr(a, f);
            rewrite_expr(b, f);
        }
        ExprKind::Cond(a, b, c) => {
            rewrite_expr(a, f);
            rewrite_expr(b, f);
            rewrite_expr(c, f);
        }
        _ => {}
    }
}

/// Writes of an initialiser into `slot` (missing parts are zero, which a
/// fresh pool slot already is).
fn init_writes(p: &Program, slot: Expr, ty: &Ty, init: &Init, loc: Loc, out: &mut Vec<Stmt>) {
    match init {
        Init::Expr(e) => out.push(assign(slot, e.clone(), loc)),
        Init::Array(items) => {
            for (i, it) in items {
                let el = index(slot.clone(), int(*i as i128, Ty::ULONG, loc), loc);
                let et = el.ty.clone();
                init_writes(p, el, &et, it, loc, out);
            }
        }
        Init::Comp(items) => {
            if let Ty::Comp(c) = ty.unqual() {
                for (fi, it) in items {
                    let fty = p.comp(*c).fields[*fi as usize].ty.clone();
                    let el = Expr::new(
                        ExprKind::Member(Box::new(slot.clone()), *fi),
                        fty.clone(),
                        loc,
                    );
                    init_writes(p, el, &fty, it, loc, out);
                }
            }
        }
        Init::Str(b) => {
            for (i, c) in b.iter().enumerate() {
                let el = index(slot.clone(), int(i as i128, Ty::ULONG, loc), loc);
                out.push(assign(el, int(*c as i8 as i128, Ty::CHAR, loc), loc));
            }
        }
    }
}

/// The new `main`: thread 0, then every slot in order, then the
/// consistency assumptions and the deferred assertion.
fn make_driver(p: &mut Program, rw: &Ctx, user_main: FuncId, nslots: u64) {
    let loc = Loc::NONE;
    let g = rw.g;
    let k = rw.k as i128;
    let mut locals: Vec<Local> = Vec::new();
    let mut temp = |name: &str, ty: Ty| {
        locals.push(Local {
            name: name.into(),
            ty,
            loc,
            temp: true,
        });
        LocalId(locals.len() as u32 - 1)
    };
    let mut b: Vec<Stmt> = Vec::new();
    let opst = |op: Op| {
        st(
            StmtKind::Op {
                dest: None,
                op,
                args: vec![],
            },
            loc,
        )
    };
    let at = |a: GlobalId, i: i128| index(glob(p, a, loc), int(i, Ty::UINT, loc), loc);
    let r = glob(p, g.round, loc);
    b.push(opst(Op::RoundInit));
    b.push(assign(r.clone(), int(0, Ty::UINT, loc), loc));
    b.push(assign(at(g.created, 0), int(1, Ty::INT, loc), loc));
    // Thread 0: the user's main.
    // Not a clone of main: its body is the largest in a program of many
    // threads.
    let mf = p.func(user_main);
    let margs: Vec<Expr> = mf
        .params
        .iter()
        .zip(mf.sig.params.iter())
        .map(|(v, t)| {
            let ty = mf.local(*v).ty.clone();
            let e = if ty.is_pointer() {
                int(0, Ty::INT, loc)
            } else {
                Expr::new(ExprKind::Nondet, ty, loc)
            };
            cast(e, t.clone(), loc)
        })
        .collect();
    b.push(st(
        StmtKind::Call {
            dest: None,
            callee: Expr::new(
                ExprKind::Func(user_main),
                Ty::Func(Box::new(mf.sig.clone())),
                loc,
            ),
            args: margs,
        },
        loc,
    ));
    let finish = |b: &mut Vec<Stmt>, slot: i128, rv: Option<Expr>| {
        b.push(rw.cs_call(loc));
        b.push(assign(at(g.done, slot), int(1, Ty::INT, loc), loc));
        if let Some(v) = rv {
            b.push(assign(at(g.ret, slot), v, loc));
        }
    };
    if rw.atomic_code {
        // Main's return is exit: inside an atomic section the run ends.
        b.push(threads::end_inside_atomic(
            p,
            &book(rw),
            Some(rw.alive(p, loc)),
            loc,
        ));
    }
    finish(&mut b, 0, None);
    let start = temp("start", Ty::UINT);
    b.push(st(StmtKind::Decl(start, None), loc));
    let slots = (0..rw.sites.len()).flat_map(|si| (0..rw.caps[si]).map(move |j| (si, j as i128)));
    for (slot, (si, j)) in (1..nslots as i128).zip(slots) {
        let f = rw.sites[si].start.unwrap();
        let sig = p.func(f).sig.clone();
        let mut body = vec![
            assign(glob(p, g.tid, loc), int(slot, Ty::UINT, loc), loc),
            assign(glob(p, g.atomic, loc), int(0, Ty::INT, loc), loc),
        ];
        let sv = lv_local(start, Ty::UINT, loc);
        body.push(assign(
            sv.clone(),
            Expr::new(ExprKind::Nondet, Ty::UINT, loc),
            loc,
        ));
        body.push(if_(
            cmp(BinOp::Gt, sv.clone(), int(k, Ty::UINT, loc), loc),
            vec![assign(sv.clone(), int(k, Ty::UINT, loc), loc)],
            vec![],
            loc,
        ));
        body.push(assign(r.clone(), sv, loc));
        body.push(if_(
            cmp(BinOp::Eq, at(g.created, slot), int(0, Ty::INT, loc), loc),
            vec![assign(r.clone(), int(k, Ty::UINT, loc), loc)],
            vec![],
            loc,
        ));
        let args: Vec<Expr> = sig
            .params
            .iter()
            .take(1)
            .map(|t| cast(at(g.arg, slot), t.clone(), loc))
            .collect();
        let rv = if sig.ret.is_pointer() || sig.ret.is_integer() {
            let t = temp(&format!("rv{slot}"), sig.ret.clone());
            body.push(st(StmtKind::Decl(t, None), loc));
            Some(lv_local(t, sig.ret.clone(), loc))
        } else {
            None
        };
        body.push(st(
            StmtKind::Call {
                dest: rv.clone(),
                callee: Expr::new(ExprKind::Func(f), Ty::Func(Box::new(sig.clone())), loc),
                args,
            },
            loc,
        ));
        if let Some(d) = rw.dtors {
            // The thread returned: its key destructors run first.
            body.push(st(
                StmtKind::Call {
                    dest: None,
                    callee: Expr::new(
                        ExprKind::Func(d),
                        Ty::Func(Box::new(p.func(d).sig.clone())),
                        loc,
                    ),
                    args: vec![],
                },
                loc,
            ));
        }
        finish(&mut body, slot, rv.map(|v| cast(v, Ty::Void.ptr(), loc)));
        // The slot is in use when its site made that many threads (a
        // sequential counter, so this test is usually a constant).
        b.push(if_(
            cmp(
                BinOp::Gt,
                at(g.site_n, si as i128),
                int(j, Ty::UINT, loc),
                loc,
            ),
            body,
            vec![],
            loc,
        ));
    }
    b.push(opst(Op::RoundCheck));
    b.push(st(
        StmtKind::Assert(
            cmp(BinOp::Eq, glob(p, g.error, loc), int(0, Ty::INT, loc), loc),
            AssertKind::Assert,
        ),
        loc,
    ));
    b.push(st(StmtKind::Return(Some(int(0, Ty::INT, loc))), loc));
    p.functions.push(Function {
        name: "main".into(),
        sig: FnSig {
            ret: Ty::INT,
            params: vec![],
            variadic: false,
            unprototyped: false,
        },
        params: vec![],
        locals,
        body: Some(Block(b)),
        is_static: false,
        atomic: false,
        loc,
        labels: vec![],
    });
}

/// The bookkeeping the shared thread model works on.
fn book(cx: &Ctx) -> Book {
    let g = cx.g;
    Book {
        tid: g.tid,
        atomic: g.atomic,
        done: g.done,
        ret: g.ret,
        key_n: g.key_n,
        keys: g.keys,
        nslots: cx.nslots,
        detached: g.detached,
        key_dtor: g.key_dtor,
        dtors: cx.dtors,
        mutex_kinds: cx.mutex_kinds,
        atomic_code: cx.atomic_code,
    }
}

impl threads::Method for Rewriter<'_> {
    fn book(&self) -> Book {
        book(self.cx)
    }

    fn alive(&self, p: &Program, loc: Loc) -> Option<Expr> {
        Some(self.cx.alive(p, loc))
    }

    fn temp(&mut self, name: &str, ty: Ty) -> LocalId {
        Rewriter::temp(self, name, ty)
    }

    fn fail(&mut self, what: String, loc: Loc) {
        Rewriter::fail(self, what, loc)
    }

    fn stop_if(&mut self, p: &Program, c: Expr, loc: Loc) -> Stmt {
        if_(c, vec![self.stop(p, loc)], vec![], loc)
    }

    fn unless(&mut self, p: &Program, conds: Vec<Expr>, ok: Vec<Stmt>, loc: Loc) -> Vec<Stmt> {
        // A stopped thread goes on in the sink round: the rest must be
        // skipped explicitly.
        conds
            .into_iter()
            .rev()
            .fold(ok, |ok, c| vec![if_(c, vec![self.stop(p, loc)], ok, loc)])
    }

    fn stop_and_leave(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        self.stop_and_return(p, loc)
    }

    fn switch_point(&mut self, _p: &Program, loc: Loc) -> Vec<Stmt> {
        vec![self.cs_call(loc)]
    }

    fn after_call(&mut self, _p: &Program, _loc: Loc) -> Vec<Stmt> {
        vec![]
    }
}
