//! KISS sequentialization (Qadeer & Wu, PLDI 2004) with at most `ts`
//! pending threads (DESIGN.md §1, §3).
//!
//! Pre: normalised IR (one visible step per statement) whose loops and
//! recursion were bounded by `bound` with `Cut::Stop`. Post: a sequential
//! program run by a new `main`, with `Program::thread_id` set.
//!
//! One stack runs every thread. Before each visible step outside atomic
//! code, `__seqc_step()` may run pending threads (each to its end or until
//! it stops) and may then stop the running thread for good: it sets
//! `__seqc_raise`, and every function returns at once while the flag is
//! set (a test after each call), down to the `__seqc_run` that started
//! the thread, which clears it. `pthread_create` puts (site, argument, id)
//! into the bounded multiset `ts`, or runs the thread at once when `ts` is
//! full; past the thread bound it makes a thread that never runs
//! (`threads::unscheduled`). Every blocking statement (assume, a held
//! lock, a join of a thread that has not returned, a bound cut, exit,
//! abort) stops the running thread in the same way, never the run (rule
//! 4) — but inside atomic code, where no other thread could run again,
//! the run is dropped once the thread's code has been left
//! (`Globals::raise`). After main, the pending threads may still run.
//!
//! Why every path is a real run (rule 1): the steps the sequential program
//! executes, read in order and tagged by `__seqc_tid`, are an interleaving
//! of the input's threads in which each thread runs its own code in
//! program order, starts after the step that created it, and joins only a
//! thread that returned (or called `pthread_exit`) earlier on that path;
//! a stopped thread simply takes no more steps. Assertions therefore fail
//! at once (rule 5 does not apply). Ids are handed out in creation order,
//! as the oracle numbers threads, so a trace replays thread for thread.
//!
//! Deadlocks (`--property deadlock`): a thread that stops because a
//! blocking operation cannot go on records what it waits on
//! (`threads::WaitBook`), and after the last schedule the state is tested
//! as `threads::deadlock_check` says. The state is the last one of a real
//! run (above) in which each stopped thread stands before the operation
//! it stopped at, so a reported deadlock is one. It covers the deadlocks
//! reachable by balanced runs in which each blocked thread was started
//! from the stack and stopped at its operation (ABBA: the second thread
//! runs inside the first's step); deadlocks that need threads to
//! interleave otherwise are missed.
//!
//! Memory needs no copies: globals, heap and locals are the input's own.
//! A local whose address escapes must outlive its frame: when its thread
//! stops, the frame is left, yet another thread may still use the object
//! (the stopped thread is only blocked). The SMT route's objects keep
//! their last value; the C back end puts such locals on the heap
//! (`Program::kept_frames`), as C's dead objects hold no value.

//!
//! Race mode (`--property race[=R]`, KISS §5). Before each shared access
//! outside atomic code (after the schedule point), the thread may choose
//! to stop there; if it does, and nothing is recorded yet, it records the
//! access (address, read or write, site) — only if the access is to region
//! R, when one is named; if an access is already recorded, it asserts
//! that this one does not conflict with it (same address, at least one
//! write). User assertions only stop the thread (a failing one aborts the
//! run; a thread may always stop before it). Why a failed check is a race:
//! the recording thread stopped right before its access and never runs
//! again, the checking thread is right before its own, and both are real
//! runs' next actions in the same state (rule 1 as above), so the oracle
//! can place them next to each other; `check` replays exactly that.
//!
//! One query for every location. KISS's per-location query fixes the
//! target `r` up front and records only accesses to `r`; ours records the
//! first access the run chooses, so the target is chosen by the run. If
//! the query for some `r` fails, the same run with every choice to record
//! an access other than `r` replaced by a plain stop (a thread may stop at
//! any schedule point anyway) records `r` first and fails ours. If ours
//! fails with the first recorded address `a`, the same choices fail the
//! query for `r = a` (the heap included: `a` is a run's address). So a
//! race is found iff some per-location query finds one. Accesses the race
//! mode does not see: memset/memcpy ranges, atomic operations (never
//! racy with each other), and bit-fields (C cannot take their address);
//! two accesses of different widths are compared by start address.

use crate::diag::{Diagnostic, Result};
use crate::ir::access::Shared;
use crate::ir::access::escaping_in;
use crate::ir::build::*;
use crate::ir::sites::{self, Site};
use crate::ir::*;
use crate::passes::lal_reps::{atomic_call, calls_atomic, return_any};
use crate::passes::retype::retype_program;
use crate::passes::threads::{self, Book, KEYS, Method};
use std::collections::HashSet;

mod race;
mod rewrite;
mod scheduler;

use scheduler::{make_driver, make_pick, make_run, make_schedule, make_step, ts_slot};

pub struct KissOptions {
    /// Bound on pending (created, not yet started) threads.
    pub ts: u32,
    /// Threads per creation site.
    pub threads: u32,
    /// Race mode: look for data races (on one region, if named) instead
    /// of failing assertions.
    pub race: Option<Option<String>>,
    /// Check for deadlocks at the end of the run (`threads::deadlocked`).
    pub deadlock: bool,
    /// Check lock discipline (`threads::LockChecks`).
    pub locks: threads::LockChecks,
}

/// `if (held[t] != 0) EXIT_HELD = 1;`, before a thread's end check. The
/// write is at `at`, a place of the input's (traces show no write at a
/// generated place).
fn flag_if_held(p: &Program, held: GlobalId, flag: GlobalId, t: Expr, at: Loc) -> Stmt {
    let l = Loc::NONE;
    let holds = cmp(
        BinOp::Ne,
        index(glob(p, held, l), t, l),
        int(0, Ty::INT, l),
        l,
    );
    let set = assign(glob(p, flag, at), int(1, Ty::INT, at), at);
    if_(holds, vec![set], vec![], l)
}

/// main's place, as a place of the input's (`flag_if_held`).
fn main_place(p: &Program, user_main: FuncId) -> Loc {
    Loc {
        generated: false,
        ..p.func(user_main).loc
    }
}

/// One access the race mode instruments: where, and whether it writes.
#[derive(Clone, Debug)]
pub struct RaceSite {
    pub loc: Loc,
    pub write: bool,
    /// The region (DESIGN.md §1) the access is to, as `--property
    /// race=LOC` names it.
    pub region: String,
}

pub const RACE_SITE: &str = "__seqc_race_site";

/// What the pass made, for traces.
#[derive(Clone, Debug, Default)]
pub struct KissInfo {
    /// Every assertion of the input.
    pub asserts: Vec<(Loc, AssertKind)>,
    /// Race mode: the instrumented accesses; site `i` is recorded as
    /// `__seqc_race_site = i + 1`.
    pub race_sites: Option<Vec<RaceSite>>,
    /// Thread slots (main's included): at most this many runs nest.
    pub slots: u32,
}

pub const RAISE: &str = "__seqc_raise";
/// Set to 1 right before the deadlock check fails, for traces.
pub use crate::passes::threads::DEADLOCK;
pub const TID: &str = "__seqc_tid";

#[derive(Clone, Copy)]
struct Globals {
    /// RAISE: 0 running, 1 stopped, 2 stopped inside atomic code (with
    /// `atomic_code` only): no other thread could run after that, so the
    /// run is dropped where the stop lands (`scheduler::dropped`).
    raise: GlobalId,
    atomic_code: bool,
    tid: GlobalId,
    atomic: GlobalId,
    /// The next thread id (creation order; main is 0).
    nthr: GlobalId,
    /// Threads started inside another thread's step, nested now.
    depth: GlobalId,
    site_n: GlobalId,
    /// The pending multiset: `ts_n` entries in slots `0..ts_n`, each slot
    /// three consecutive scalars (site, argument, id) from `ts`. Scalars
    /// and constant slot numbers keep memory theories out of the SMT
    /// route.
    ts: GlobalId,
    ts_n: GlobalId,
    done: GlobalId,
    ret: GlobalId,
    key_n: GlobalId,
    keys: GlobalId,
    detached: Option<GlobalId>,
    key_dtor: Option<GlobalId>,
    /// `--property deadlock`: the records and the verdict.
    wait: Option<threads::WaitBook>,
    /// `--property locks-exit`: per thread id, the locks it holds; and
    /// `threads::EXIT_HELD`.
    held: Option<GlobalId>,
    exit_held: Option<GlobalId>,
    /// Each thread's start routine, where a site gives it through a pointer.
    start: Option<GlobalId>,
}

/// Race mode's globals: `acc` 0 nothing recorded, 1 a read, 2 a write;
/// `addr` the address recorded; `site` the site recorded (from 1).
#[derive(Clone)]
struct RaceMode {
    target: Option<String>,
    acc: GlobalId,
    addr: GlobalId,
    site: GlobalId,
    pick: FuncId,
    sites: Vec<RaceSite>,
}

pub fn kiss(mut p: Program, o: &KissOptions) -> Result<(Program, KissInfo)> {
    let Some(user_main) = p.func_by_name("main").filter(|m| p.func(*m).body.is_some()) else {
        return Err(Diagnostic::input("the program has no main function"));
    };
    let site_list = sites::thread_sites(&p).map_err(|(w, l)| unsupported(&p, w, l))?;
    if let Some((what, loc)) = threads::atomic_fn_address(&p) {
        return Err(unsupported(&p, what, loc));
    }
    let threads = o.threads.max(1);
    // A site that runs at most once needs one slot, which keeps the
    // nesting a checker must inline small.
    let caps = sites::slot_caps(&p, &site_list, threads);
    let once = sites::single_shot(&p, &site_list);
    let nslots = 1 + caps.iter().map(|&c| c as u64).sum::<u64>();
    if nslots > 4096 {
        return Err(unsupported(&p, format!("{nslots} thread slots"), Loc::NONE));
    }
    // More pending slots than threads besides main are never used.
    let max = o.ts.min((nslots - 1) as u32);
    crate::passes::retype::check_layouts(&p)?;
    retype_program(&mut p);
    let nglobals_in = p.globals.len();
    let shared: Vec<bool> = p
        .globals
        .iter()
        .map(|g| !g.thread_local && !g.name.starts_with("__seqc_"))
        .collect();
    let readonly = std::sync::Arc::new(crate::ir::readonly::ReadOnly::analyse(&p));
    let arr = |t: Ty, n: u64| Ty::Array(Box::new(t), Some(n.max(1)));
    let vptr = Ty::Void.ptr();
    let add = |p: &mut Program, name: &str, ty: Ty| {
        p.globals.push(Global {
            name: name.to_string(),
            ty,
            init: None,
            storage: Storage::Static,
            thread_local: false,
            loc: Loc::NONE,
        });
        GlobalId(p.globals.len() as u32 - 1)
    };
    let nsites = site_list.len() as u64;
    let g = Globals {
        raise: add(&mut p, RAISE, Ty::INT),
        atomic_code: threads::has_atomic_code(&p),
        tid: add(&mut p, TID, Ty::UINT),
        atomic: add(&mut p, "__seqc_atomic", Ty::INT),
        nthr: add(&mut p, "__seqc_nthr", Ty::UINT),
        depth: add(&mut p, "__seqc_depth", Ty::UINT),
        site_n: add(&mut p, "__seqc_site_n", arr(Ty::UINT, nsites)),
        ts: {
            let first = GlobalId(p.globals.len() as u32);
            for k in 0..max {
                add(&mut p, &format!("__seqc_ts{k}_site"), Ty::UINT);
                add(&mut p, &format!("__seqc_ts{k}_arg"), vptr.clone());
                add(&mut p, &format!("__seqc_ts{k}_id"), Ty::UINT);
            }
            first
        },
        ts_n: add(&mut p, "__seqc_ts_n", Ty::UINT),
        done: add(&mut p, "__seqc_done", arr(Ty::INT, nslots)),
        ret: add(&mut p, "__seqc_ret", arr(vptr.clone(), nslots)),
        key_n: add(&mut p, "__seqc_key_n", Ty::UINT),
        keys: add(&mut p, "__seqc_keys", arr(vptr.clone(), nslots * KEYS)),
        detached: p
            .pthread
            .detach
            .then(|| add(&mut p, "__seqc_detached", arr(Ty::INT, nslots))),
        key_dtor: p
            .pthread
            .key_dtors
            .then(|| add(&mut p, "__seqc_key_dtor", arr(threads::dtor_ty(), KEYS))),
        wait: o.deadlock.then(|| {
            // After seqc's step, schedule and run, and the destructor
            // runner (race mode does not check deadlocks).
            let n = p.functions.len() as u32 + 3 + p.pthread.key_dtors as u32;
            threads::add_wait_globals(&mut p, nslots, FuncId(n), add)
        }),
        // Start routines given through pointers, by thread id.
        start: site_list.iter().any(|s| s.start.is_none()).then(|| {
            let t = arr(threads::start_ty().ptr(), nslots);
            add(&mut p, "__seqc_start", t)
        }),
        held: o
            .locks
            .exit
            .then(|| add(&mut p, threads::HELD, arr(Ty::INT, nslots))),
        exit_held: o
            .locks
            .exit
            .then(|| add(&mut p, threads::EXIT_HELD, Ty::INT)),
    };
    // Thread-local globals: one copy per thread id.
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
    // seqc's own functions get the next ids.
    let nfuncs = p.functions.len();
    let step_f = FuncId(nfuncs as u32);
    let sched_f = FuncId(nfuncs as u32 + 1);
    let run_f = FuncId(nfuncs as u32 + 2);
    let dtors = p
        .pthread
        .key_dtors
        .then(|| FuncId(nfuncs as u32 + 3 + o.race.is_some() as u32));
    let race = o.race.clone().map(|target| RaceMode {
        target,
        acc: add(&mut p, "__seqc_race_acc", Ty::INT),
        addr: add(&mut p, "__seqc_race_addr", vptr.clone()),
        site: add(&mut p, RACE_SITE, Ty::UINT),
        pick: FuncId(nfuncs as u32 + 3),
        sites: Vec::new(),
    });
    let mut rw = Rewriter {
        race,
        regions: std::collections::BTreeSet::new(),
        cur_fn: FuncId(0),
        cur_name: String::new(),
        prefix_stmts: 0,
        in_prefix: false,
        g,
        step_f,
        run_f,
        max,
        caps,
        once,
        nslots,
        sites: site_list.clone(),
        shared,
        readonly,
        tls,
        asserts: Vec::new(),
        err: None,
        locals: Vec::new(),
        escaping: HashSet::new(),
        ret_ty: Ty::Void,
        atomic_fn: false,
        atomic_fns: p.functions.iter().map(|f| f.atomic).collect(),
        has_body: p.functions.iter().map(|f| f.body.is_some()).collect(),
        dtors,
        mutex_kinds: p.pthread.mutex_kinds,
        atomic_code: threads::has_atomic_code(&p),
        dtor_passes: threads::dtor_passes(&p),
        locks: o.locks,
    };
    // Each function is rewritten alone, on threads for large programs: the
    // rewriter only reads the program, and what it collects is merged in
    // function order, so the output does not depend on the split. Race
    // mode numbers its sites in the code, so it runs as one chunk.
    let mut todo: Vec<FnWork> = Vec::new();
    for (fi, f) in p.functions.iter_mut().enumerate() {
        if let Some(body) = f.body.take() {
            let locals = std::mem::take(&mut f.locals);
            todo.push(FnWork {
                fi,
                body,
                locals,
                err: None,
            });
        }
    }
    let workers = if rw.race.is_some() { 1 } else { usize::MAX };
    let chunks = crate::par::each_with(
        &mut todo,
        workers,
        || rw.clone(),
        |rw, w| {
            let f = &p.functions[w.fi];
            rw.locals = std::mem::take(&mut w.locals);
            rw.escaping = escaping_in(&w.body);
            rw.ret_ty = f.sig.ret.clone();
            rw.atomic_fn = f.atomic;
            rw.cur_fn = FuncId(w.fi as u32);
            rw.cur_name = f.name.clone();
            let body = std::mem::take(&mut w.body);
            rw.prefix_stmts = rw.readonly.prefix().top_level(rw.cur_fn, &body);
            w.body = rw.block(&p, body);
            w.locals = std::mem::take(&mut rw.locals);
            w.err = rw.err.take();
        },
    );
    let first_err = todo.iter().find_map(|w| w.err.clone());
    for w in todo {
        let f = &mut p.functions[w.fi];
        f.body = Some(w.body);
        f.locals = w.locals;
    }
    if let Some((what, loc)) = first_err {
        return Err(unsupported(&p, format!("{what} (with --method kiss)"), loc));
    }
    for c in chunks {
        rw.asserts.extend(c.asserts);
        rw.regions.extend(c.regions);
        rw.race = c.race;
    }
    p.functions.push(make_step(&p, &g, sched_f));
    p.functions.push(make_schedule(&p, &g, max, run_f));
    let at = main_place(&p, user_main);
    p.functions.push(make_run(&p, &g, &site_list, dtors, at));
    if g.held.is_some() {
        // The end check `make_run` makes.
        rw.asserts
            .push((Loc::NONE, AssertKind::Lock(LockRule::ExitHolding)));
    }
    if rw.race.is_some() {
        p.functions.push(make_pick(&p, &g));
    }
    if dtors.is_some() {
        let raised = |l: Loc| {
            let r = cmp(BinOp::Ne, glob(&p, g.raise, l), int(0, Ty::INT, l), l);
            vec![if_(r, vec![st(StmtKind::Return(None), l)], vec![], l)]
        };
        let f = threads::make_dtor_runner(&p, &rw.book(), rw.dtor_passes, None, raised);
        debug_assert_eq!(Some(FuncId(p.functions.len() as u32)), dtors);
        p.functions.push(f);
    }
    if let Some(w) = g.wait {
        let f = threads::make_wait_pick(&p, &rw.book(), None);
        debug_assert_eq!(FuncId(p.functions.len() as u32), w.pick);
        p.functions.push(f);
    }
    if let Some(RaceMode {
        target: Some(t), ..
    }) = &rw.race
        && !rw.regions.contains(t)
    {
        let known: Vec<&str> = rw.regions.iter().map(String::as_str).collect();
        return Err(Diagnostic::input(format!(
            "--property race={t}: no shared access of the program is to region '{t}' (its regions: {})",
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        )));
    }
    p.functions[user_main.index()].name = "__seqc_main".into();
    p.functions[user_main.index()].is_static = true;
    let l = Loc::NONE;
    let mut at_end: Vec<Stmt> = Vec::new();
    if let (Some(h), Some(flag)) = (g.held, g.exit_held)
        && let Some(c) = threads::exit_check(&mut rw, &p, int(0, Ty::UINT, l), l)
    {
        // Main's return (exit) with a lock it took: after a stop, no.
        let at = main_place(&p, user_main);
        let mut end = vec![flag_if_held(&p, h, flag, int(0, Ty::UINT, l), at)];
        end.extend(c);
        at_end.push(if_(not(rw.raised(&p, l), l), end, vec![], l));
    }
    if rw.atomic_code {
        let alive = Some(not(rw.raised(&p, l), l));
        at_end.push(threads::end_inside_atomic(&p, &rw.book(), alive, l));
    }
    let mut last = Vec::new();
    if let Some(w) = g.wait {
        // Main returned (its `pthread_exit` sets this too): the program
        // ended, no deadlock.
        // 2: main's return is exit, which no join passes; after
        // `pthread_exit` it stays 1.
        let done0 = index(glob(&p, g.done, l), int(0, Ty::UINT, l), l);
        let returned = bin(
            BinOp::LogAnd,
            not(rw.raised(&p, l), l),
            cmp(BinOp::Eq, done0.clone(), int(0, Ty::INT, l), l),
            Ty::INT,
            l,
        );
        at_end.push(if_(
            returned,
            vec![assign(done0, int(2, Ty::INT, l), l)],
            vec![],
            l,
        ));
        let made = |s: i128| cmp(BinOp::Gt, glob(&p, g.nthr, l), int(s, Ty::UINT, l), l);
        // At main's place, not a generated one: traces show the verdict.
        let at = Loc {
            generated: false,
            ..p.func(user_main).loc
        };
        last.extend(threads::deadlock_check(&p, &rw.book(), &made, at));
        last.push(st(
            StmtKind::Assert(
                cmp(BinOp::Eq, glob(&p, w.dead, at), int(0, Ty::INT, at), at),
                AssertKind::Deadlock,
            ),
            at,
        ));
    }
    make_driver(&mut p, &g, user_main, sched_f, at_end, last);
    p.thread_id = Some(g.tid);
    p.kept_frames = true;
    // Each thread but main runs at most once, so at most that many runs nest.
    if max > 0 || !site_list.is_empty() {
        p.frame_limits = vec![(run_f, (nslots - 1).max(1) as u32)];
    }
    Ok((
        p,
        KissInfo {
            asserts: rw.asserts,
            race_sites: rw.race.map(|r| r.sites),
            slots: nslots as u32,
        },
    ))
}

fn unsupported(p: &Program, what: String, loc: Loc) -> Diagnostic {
    let mut d = Diagnostic::unsupported(what);
    if loc != Loc::NONE {
        d.pos = Some((p.file_name(loc.file).to_string(), loc.line, loc.col));
    }
    d
}

fn void_sig(params: Vec<Ty>) -> FnSig {
    FnSig {
        ret: Ty::Void,
        params,
        variadic: false,
        unprototyped: false,
    }
}

fn call(f: FuncId, sig: FnSig, args: Vec<Expr>, dest: Option<Expr>, loc: Loc) -> Stmt {
    st(
        StmtKind::Call {
            dest,
            callee: Expr::new(ExprKind::Func(f), Ty::Func(Box::new(sig)), loc),
            args,
        },
        loc,
    )
}

fn nondet(ty: Ty, loc: Loc) -> Expr {
    Expr::new(ExprKind::Nondet, ty, loc)
}

fn func(
    name: &str,
    sig: FnSig,
    params: Vec<LocalId>,
    locals: Vec<Local>,
    body: Vec<Stmt>,
) -> Function {
    Function {
        name: name.into(),
        sig,
        params,
        locals,
        body: Some(Block(body)),
        is_static: true,
        atomic: false,
        loc: Loc::NONE,
        labels: vec![],
    }
}

fn local(name: &str, ty: Ty) -> Local {
    Local {
        name: name.into(),
        ty,
        loc: Loc::NONE,
        temp: true,
    }
}

/// One function's body on its way through the rewriter.
struct FnWork {
    fi: usize,
    body: Block,
    locals: Vec<Local>,
    err: Option<(String, Loc)>,
}

#[derive(Clone)]
struct Rewriter {
    g: Globals,
    race: Option<RaceMode>,
    /// Race mode: the regions of the instrumented accesses.
    regions: std::collections::BTreeSet<String>,
    cur_fn: FuncId,
    /// Top-level statements of the body still to come that run while
    /// main is the only thread (`ir::prefix`); `block` takes it.
    prefix_stmts: usize,
    /// The statement being rewritten runs in the sequential prefix: no
    /// schedule point (no thread is pending there).
    in_prefix: bool,
    cur_name: String,
    step_f: FuncId,
    run_f: FuncId,
    max: u32,
    /// Threads each site may make.
    caps: Vec<u32>,
    /// Sites that run at most once (never past their bound).
    once: Vec<bool>,
    nslots: u64,
    sites: Vec<Site>,
    /// Per input global: shared between threads.
    shared: Vec<bool>,
    /// What no thread writes (reads of it need no schedule point).
    readonly: std::sync::Arc<crate::ir::readonly::ReadOnly>,
    tls: HashSet<GlobalId>,
    asserts: Vec<(Loc, AssertKind)>,
    err: Option<(String, Loc)>,
    // Per function.
    locals: Vec<Local>,
    escaping: HashSet<LocalId>,
    ret_ty: Ty,
    atomic_fn: bool,
    atomic_fns: Vec<bool>,
    has_body: Vec<bool>,
    /// The destructor runner, the mutex model and whether the program
    /// has atomic code (`threads::Book`).
    dtors: Option<FuncId>,
    mutex_kinds: bool,
    atomic_code: bool,
    dtor_passes: u32,
    locks: threads::LockChecks,
}

impl Rewriter {}

impl threads::Method for Rewriter {
    fn book(&self) -> Book {
        let g = self.g;
        Book {
            tid: g.tid,
            atomic: g.atomic,
            done: g.done,
            ret: g.ret,
            key_n: g.key_n,
            keys: g.keys,
            nslots: self.nslots,
            detached: g.detached,
            key_dtor: g.key_dtor,
            dtors: self.dtors,
            mutex_kinds: self.mutex_kinds,
            wait: g.wait,
            locks: self.locks,
            held: g.held,
        }
    }

    fn alive(&self, _p: &Program, _loc: Loc) -> Option<Expr> {
        // A stopped thread has returned: no code of it runs on.
        None
    }

    fn temp(&mut self, name: &str, ty: Ty) -> LocalId {
        Rewriter::temp(self, name, ty)
    }

    fn fail(&mut self, what: String, loc: Loc) {
        Rewriter::fail(self, what, loc)
    }

    fn stop_if(&mut self, p: &Program, c: Expr, loc: Loc) -> Stmt {
        self.raise_if(p, c, loc)
    }

    fn unless(&mut self, p: &Program, conds: Vec<Expr>, ok: Vec<Stmt>, loc: Loc) -> Vec<Stmt> {
        // RAISE returns: the rest needs no else.
        let mut v: Vec<Stmt> = conds
            .into_iter()
            .map(|c| self.raise_if(p, c, loc))
            .collect();
        v.extend(ok);
        v
    }

    fn stop_and_leave(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        self.raise(p, loc)
    }

    fn end_and_leave(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        self.raise_with(p, loc, false)
    }

    fn switch_point(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        self.step(p, loc)
    }

    fn after_call(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        vec![self.propagate(p, loc)]
    }

    fn check(&mut self, _p: &Program, ok: Expr, kind: AssertKind, loc: Loc) -> Vec<Stmt> {
        self.asserts.push((loc, kind));
        vec![st(StmtKind::Assert(ok, kind), loc)]
    }
}
