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
//! address bits; the C route keeps shared state in two structs per round,
//! address-taken objects and the rest, reached through tables indexed by
//! the round). Each round's copy is
//! isolated: a garbage index computed from a guess (or in the sink) must
//! not write into another round, or a run could justify its own guess. The program text therefore does not grow with K; only the
//! guess-and-check of the final consistency (`RoundInit`/`RoundCheck`)
//! scales with K, in the back end. Heap objects and escaping locals live
//! in per-site pools of round-copied globals, so that "the same object in
//! another round" is a fixed distance away in both back ends.
//!
//! Threads. Each `pthread_create` site owns `--threads` slots (creates
//! past them make threads that never run, `threads::unscheduled`) in the
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
//! atomic code: the round moves forward to any value up to K + 1, and
//! K + 1 means "stopped for good" (its writes land in the sink copy, its
//! assertions and thread operations are off).
//!
//! Main's final context. Round K + 1 (index K) belongs to main alone:
//! after every thread's K rounds, main runs once more, as in Lazy-CSeq,
//! so that "join everything, then check" costs no round of its own. A
//! thread other than main that would move into it, or start in it, stops
//! instead. Its shared state is one more round copy, chained to the end
//! of round K like any other; as no other thread runs in it, a run of the
//! output is the round-robin schedule (t0 t1 .. tn)^K t0 of the input,
//! which is what the oracle's round measure counts (`oracle::search`). Every blocking statement
//! (assume, a failed lock or join, a bound cut, exit, abort, an exhausted
//! pool) sets the round to K: it stops the thread, never
//! the run (rule 4) — but inside atomic code, where no other thread
//! could run again, the run is dropped (`Ctx::stop`; `pthread_exit` and
//! failed assertions stop the thread only). Assertions record the first failure in
//! `__seqc_error`, checked after the consistency assumptions (rule 5),
//! and stop the failing thread: what it did after a failure is no run.
//!
//! Deadlocks (`--property deadlock`). A live thread that stops because a
//! blocking operation cannot go on records what it waits on
//! (`threads::WaitBook`). The test is made once, at the end of main's
//! final context, reading that round's copy, before the round check (so
//! the check covers the cells it reads): with the guesses checked, the
//! output's run is a real round-robin run of the input whose last state
//! is that copy. A thread that stopped in round r took no step after, so
//! it stands before its operation in that state, and the operation is
//! re-tested there; a thread that stopped for another reason (its rounds
//! ran out, a bound, an assume) has no record and the run is no deadlock.
//! So a deadlock is reported only for a state where every unfinished
//! thread is blocked; it is found whenever it is reachable in K rounds
//! by a schedule in which each thread stops at its blocked operation.

use crate::diag::{Diagnostic, Result};
use crate::ir::build::*;
use crate::ir::sites::{self, Site};
use crate::ir::*;
use crate::passes::retype::retype_program;
use crate::passes::threads::{self, Book, KEYS};
use std::collections::{HashMap, HashSet};

mod driver;
mod memory;
mod ops;
mod rewrite;

use driver::{make_cs, make_driver};
use memory::{havoc_writes, init_writes};

pub struct LrOptions {
    pub rounds: u32,
    pub threads: u32,
    pub unwind: u32,
    /// Check for deadlocks at the end of the run (`threads::deadlocked`).
    pub deadlock: bool,
    /// Check lock discipline (`threads::LockChecks`).
    pub locks: threads::LockChecks,
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
    /// The name of the per-site thread counters (`__seqc_site_n`), whose
    /// writes a trace shows as `name[site]`.
    pub site_n: String,
    /// `--rounds K`: every thread's rounds (main has one more context).
    pub rounds: u32,
}

pub const ROUND: &str = "__seqc_r";
pub const TID: &str = "__seqc_tid";
pub const ERROR: &str = "__seqc_error";
/// The switch point.
pub const CS: &str = "__seqc_cs";
/// Elements of a heap object whose size is known only at run time.
pub const HEAP_CAP: u64 = 16;

pub fn lal_reps(mut p: Program, o: &LrOptions) -> Result<(Program, LrInfo)> {
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
    if let Some((what, loc)) = threads::atomic_fn_address(&p) {
        return Err(err(&p, what, loc));
    }
    // K rounds for every thread, then main's final context (a round of
    // its own, `k - 1`), then the sink `k`. Without a thread to switch
    // to, one round says all that K would (and costs what K = 1 does).
    let k = if site_list.is_empty() {
        1
    } else {
        o.rounds.max(1) + 1
    };
    // A site that runs at most once needs one slot: fewer slots are a
    // smaller program for the checker and lose no run.
    let caps = sites::slot_caps(&p, &site_list, o.threads);
    let once = sites::single_shot(&p, &site_list);
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
    // Locals that hold pthread objects, before they become integers:
    // declared without an initialiser they start as zero, not any value
    // (a create or an init writes them before any defined use).
    let pthread_locals: HashSet<(usize, LocalId)> = p
        .functions
        .iter()
        .enumerate()
        .flat_map(|(fi, f)| {
            let p = &p;
            f.locals
                .iter()
                .enumerate()
                .filter(move |(_, l)| holds_pthread(p, &l.ty, 0))
                .map(move |(i, _)| (fi, LocalId(i as u32)))
        })
        .collect();
    crate::passes::retype::check_layouts(&p)?;
    retype_program(&mut p);
    // Before seqc's globals and string objects exist: the statements it
    // is asked about are the input's, as the rewrite finds them.
    let readonly = crate::ir::readonly::ReadOnly::analyse(&p);
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
    // seqc's functions after the input's: the switch point, then (made
    // after the rewrite) the destructor runner and the wait choice.
    let wait_pick = FuncId(p.functions.len() as u32 + 1 + p.pthread.key_dtors as u32);
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
        wait: o.deadlock.then(|| {
            threads::add_wait_globals(&mut p, nslots, wait_pick, |p, n, t| {
                add_global(p, &mut copied, n, t, false)
            })
        }),
        // Each thread's own count, read and written only while it runs:
        // no round copies.
        held: o.locks.exit.then(|| {
            add_global(
                &mut p,
                &mut copied,
                threads::HELD,
                arr(Ty::INT, nslots),
                false,
            )
        }),
        // Start routines given through pointers: written by the creator
        // before the thread runs (a lower slot), like the argument.
        start: site_list.iter().any(|s| s.start.is_none()).then(|| {
            let t = arr(threads::start_ty().ptr(), nslots);
            add_global(&mut p, &mut copied, "__seqc_start", t, false)
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
        pthread_locals,
        sites: site_list.clone(),
        caps: caps.clone(),
        once,
        bases: bases.clone(),
        unwind: o.unwind.max(1) as u64,
        threads: o.threads.max(1) as u64,
        runners: sites::runners(&p, &site_list, &caps, user_main),
        once_fns: sites::runs_once(&p),
        nslots,
        // Made after the rewrite, before the driver.
        dtors: p
            .pthread
            .key_dtors
            .then_some(FuncId(p.functions.len() as u32)),
        mutex_kinds: p.pthread.mutex_kinds,
        locks: o.locks,
        atomic_code: threads::has_atomic_code(&p),
        dtor_passes: threads::dtor_passes(&p),
        copied,
        readonly,
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
    // A literal that is only an argument of a call with no effect
    // (printf's format) is dropped with the call below: its address is
    // never kept, so it needs no object, and CBMC would otherwise check
    // every byte of it in every round's consistency.
    let per_fn = crate::par::map(&p.functions, |_, f| {
        let mut out = Vec::new();
        if let Some(b) = &f.body {
            b.walk(&mut |s| {
                if !matches!(
                    s.kind,
                    StmtKind::Op {
                        op: Op::LibNoop(_),
                        ..
                    }
                ) {
                    s.each_expr(&mut |e| strs(e, &mut out))
                }
            });
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
    if cx.locks.rules || cx.locks.exit {
        // The thread model adds assertions of its own (lock discipline),
        // known only once a body is rewritten: a first rewrite of copies
        // counts them.
        let mut dry: Vec<Job> = jobs.iter().map(Job::copy).collect();
        crate::par::each_mut(&mut dry, |job| job.run(cxr, pr));
        let mut first = 0;
        for (job, d) in jobs.iter_mut().zip(&dry) {
            job.first_assert = first;
            first += d.asserts.len();
        }
    }
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
    if let Some(w) = cx.g.wait {
        let f = threads::make_wait_pick(&p, &book(&cx), Some(cx.alive(&p, Loc::NONE)));
        debug_assert_eq!(FuncId(p.functions.len() as u32), w.pick);
        p.functions.push(f);
    }
    // The user's main becomes thread 0's start routine.
    p.functions[user_main.index()].name = "__seqc_main".into();
    p.functions[user_main.index()].is_static = true;
    // The threads' end checks (locks-exit) and the deadlock check are
    // the last assertions (`make_driver`).
    let mut ends = driver::EndIds::default();
    if cx.g.held.is_some() {
        asserts.push((Loc::NONE, AssertKind::Lock(LockRule::ExitHolding)));
        ends.exit = asserts.len() as i128;
    }
    if cx.g.wait.is_some() {
        asserts.push((Loc::NONE, AssertKind::Deadlock));
    }
    ends.deadlock = asserts.len() as i128;
    let info = LrInfo {
        asserts,
        slot_funcs: std::iter::once("main".to_string())
            .chain(site_list.iter().zip(&caps).flat_map(|(s, &c)| {
                let n = match s.start {
                    Some(f) => p.func(f).name.clone(),
                    None => "(a start routine through a pointer)".to_string(),
                };
                std::iter::repeat_n(n, c as usize)
            }))
            .collect(),
        site_slots: bases,
        switch_points,
        site_n: p.global(cx.g.site_n).name.clone(),
        rounds: o.rounds.max(1),
    };
    make_driver(&mut p, &cx, user_main, nslots, ends);
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
    /// `--property deadlock`.
    wait: Option<threads::WaitBook>,
    /// `--property locks-exit`.
    held: Option<GlobalId>,
    /// Each slot's start routine, where a site gives it through a pointer.
    start: Option<GlobalId>,
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
    /// (function, local) pairs that held a pthread type before retyping.
    pthread_locals: HashSet<(usize, LocalId)>,
    g: Globals,
    cs: FuncId,
    sites: Vec<Site>,
    /// Slots per site, and the first slot of each.
    caps: Vec<u32>,
    /// Sites that run at most once (never past their bound).
    once: Vec<bool>,
    bases: Vec<u32>,
    /// The loop bound: a pool has unwind^depth slots per thread that may
    /// run its site (`Rewriter::pool_slots`).
    unwind: u64,
    /// Threads per site: unwind × threads slots at least, whatever the
    /// count of runners (room for a function called more than once).
    threads: u64,
    /// Per function, how many threads may run it (`sites::runners`).
    runners: Vec<u64>,
    /// Functions whose statements run as often as `sites::runs_once`
    /// counts: an allocation there needs no more slots than its runs.
    once_fns: Vec<bool>,
    /// Thread slots (main's included).
    nslots: u64,
    /// The destructor runner, the mutex model and whether the program
    /// has atomic code (`threads::Book`).
    dtors: Option<FuncId>,
    mutex_kinds: bool,
    atomic_code: bool,
    dtor_passes: u32,
    locks: threads::LockChecks,
    /// Round-copied globals (those before the functions' rewrite).
    copied: Vec<bool>,
    /// What no thread writes (reads of it need no switch point).
    readonly: crate::ir::readonly::ReadOnly,
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

impl Job {
    /// A job not run yet, again.
    fn copy(&self) -> Job {
        Job {
            fi: self.fi,
            body: self.body.clone(),
            locals: self.locals.clone(),
            escaping: self.escaping.clone(),
            first_assert: self.first_assert,
            asserts: Vec::new(),
            pools: Vec::new(),
            first_pool: 0,
            switch_points: 0,
            err: None,
        }
    }
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
    /// The function's index (`Ctx::pthread_locals`).
    fi: usize,
    /// How many times the statement being rewritten can run in an
    /// execution, when known (`sites::run_counts`).
    times: Option<u64>,
    /// Loops around the statement being rewritten, in its function.
    loop_depth: u32,
    /// Top-level statements of the body still to come that run while
    /// main is the only thread (`ir::prefix`); `block` takes it.
    prefix_stmts: usize,
    /// The statement being rewritten runs in the sequential prefix: no
    /// switch point (nothing to switch to; it would only burn rounds).
    in_prefix: bool,
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

    /// The running thread stops for good: it is blocked or cut. Inside
    /// atomic code no other thread could run after it, so such a run is
    /// dropped instead (the state it leaves is half an atomic step).
    fn stop(&self, p: &Program, loc: Loc) -> Stmt {
        let set = self.stop_here(p, loc);
        if !self.atomic_code {
            return set;
        }
        let alive = Some(self.alive(p, loc));
        let end = threads::end_inside_atomic(p, &book(self), alive, loc);
        st(StmtKind::Block(Block(vec![end, set])), loc.generated())
    }

    /// The running thread stops after a failed assertion (recorded) or
    /// ends (`pthread_exit`): the run is a real one up to here, inside
    /// atomic code too.
    fn stop_here(&self, p: &Program, loc: Loc) -> Stmt {
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
            fi: self.fi,
            times: cx.once_fns[self.fi].then_some(1),
            loop_depth: 0,
            prefix_stmts: 0,
            in_prefix: false,
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
        rw.prefix_stmts = cx
            .readonly
            .prefix()
            .top_level(FuncId(self.fi as u32), &body);
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

impl Rewriter<'_> {}

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
        wait: g.wait,
        locks: cx.locks,
        held: g.held,
    }
}

impl threads::Method for Rewriter<'_> {
    fn book(&self) -> Book {
        book(self.cx)
    }

    fn alive(&self, p: &Program, loc: Loc) -> Option<Expr> {
        Some(self.cx.alive(p, loc))
    }

    fn check(&mut self, p: &Program, ok: Expr, kind: AssertKind, loc: Loc) -> Vec<Stmt> {
        vec![self.assertion(p, ok, kind, loc)]
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
        let stop = self.stop(p, loc);
        self.and_return(stop, loc)
    }

    fn end_and_leave(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        let stop = self.stop_here(p, loc);
        self.and_return(stop, loc)
    }

    fn switch_point(&mut self, _p: &Program, loc: Loc) -> Vec<Stmt> {
        vec![self.cs_call(loc)]
    }

    fn after_call(&mut self, _p: &Program, _loc: Loc) -> Vec<Stmt> {
        vec![]
    }
}

/// Does `ty` hold a pthread object (through arrays and struct fields)?
fn holds_pthread(p: &Program, ty: &Ty, depth: u32) -> bool {
    match ty.unqual() {
        Ty::Pthread(_) => true,
        Ty::Array(a, _) => holds_pthread(p, a, depth),
        Ty::Comp(c) if depth < 8 => p
            .comp(*c)
            .fields
            .iter()
            .any(|f| holds_pthread(p, &f.ty, depth + 1)),
        _ => false,
    }
}
