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
//! full. Every blocking statement (assume, a held lock, a join of a thread
//! that has not returned, a bound cut, exit, abort, a create past the
//! thread bound) stops the running thread in the same way, never the run
//! (rule 4). After main, the pending threads may still run.
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
//! Memory needs no copies: globals, heap and locals are the input's own.
//! A local whose address escapes stays in its frame; when its thread
//! stops, the frame is left but its object keeps its last value in both
//! back ends, as the blocked thread's stack would.

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

pub struct KissOptions {
    /// Bound on pending (created, not yet started) threads.
    pub ts: u32,
    /// Threads per creation site.
    pub threads: u32,
    /// Race mode: look for data races (on one region, if named) instead
    /// of failing assertions.
    pub race: Option<Option<String>>,
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
}

pub const RAISE: &str = "__seqc_raise";
pub const TID: &str = "__seqc_tid";

#[derive(Clone, Copy)]
struct Globals {
    raise: GlobalId,
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
    for s in &site_list {
        if s.start.is_none() {
            return Err(unsupported(
                &p,
                "pthread_create with a start routine that is not a function name".into(),
                s.loc,
            ));
        }
    }
    let threads = o.threads.max(1);
    // A site that runs at most once needs one slot, which keeps the
    // nesting a checker must inline small.
    let caps = sites::slot_caps(&p, &site_list, threads);
    let nslots = 1 + caps.iter().map(|&c| c as u64).sum::<u64>();
    if nslots > 4096 {
        return Err(unsupported(&p, format!("{nslots} thread slots"), Loc::NONE));
    }
    // More pending slots than threads besides main are never used.
    let max = o.ts.min((nslots - 1) as u32);
    retype_program(&mut p);
    let nglobals_in = p.globals.len();
    let shared: Vec<bool> = p
        .globals
        .iter()
        .map(|g| !g.thread_local && !g.name.starts_with("__seqc_"))
        .collect();
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
        g,
        step_f,
        run_f,
        max,
        caps,
        nslots,
        sites: site_list.clone(),
        shared,
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
    p.functions.push(make_run(&p, &g, &site_list, dtors));
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
    let at_end = rw.atomic_code.then(|| {
        threads::end_inside_atomic(
            &p,
            &rw.book(),
            Some(not(rw.raised(&p, Loc::NONE), Loc::NONE)),
            Loc::NONE,
        )
    });
    make_driver(&mut p, &g, user_main, sched_f, at_end);
    p.thread_id = Some(g.tid);
    // Each thread but main runs at most once, so at most that many runs nest.
    if max > 0 || !site_list.is_empty() {
        p.frame_limits = vec![(run_f, (nslots - 1).max(1) as u32)];
    }
    Ok((
        p,
        KissInfo {
            asserts: rw.asserts,
            race_sites: rw.race.map(|r| r.sites),
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

/// `void __seqc_step(void)`: outside atomic code, run some pending
/// threads, then maybe stop the running thread for good.
fn make_step(p: &Program, g: &Globals, sched: FuncId) -> Function {
    let loc = Loc::NONE;
    let zero = int(0, Ty::INT, loc);
    let body = vec![
        if_(
            cmp(BinOp::Ne, glob(p, g.atomic, loc), zero.clone(), loc),
            vec![st(StmtKind::Return(None), loc)],
            vec![],
            loc,
        ),
        call(sched, void_sig(vec![]), vec![], None, loc),
        if_(
            cmp(BinOp::Ne, nondet(Ty::INT, loc), zero, loc),
            vec![assign(glob(p, g.raise, loc), int(1, Ty::INT, loc), loc)],
            vec![],
            loc,
        ),
    ];
    func("__seqc_step", void_sig(vec![]), vec![], vec![], body)
}

/// `int __seqc_race_pick(void)`: race mode's choice at an access, never
/// inside atomic code (atomic accesses do not race).
fn make_pick(p: &Program, g: &Globals) -> Function {
    let loc = Loc::NONE;
    let zero = int(0, Ty::INT, loc);
    let body = vec![
        if_(
            cmp(BinOp::Ne, glob(p, g.atomic, loc), zero.clone(), loc),
            vec![st(StmtKind::Return(Some(zero.clone())), loc)],
            vec![],
            loc,
        ),
        st(
            StmtKind::Return(Some(cmp(BinOp::Ne, nondet(Ty::INT, loc), zero, loc))),
            loc,
        ),
    ];
    let sig = FnSig {
        ret: Ty::INT,
        params: vec![],
        variadic: false,
        unprototyped: false,
    };
    func("__seqc_race_pick", sig, vec![], vec![], body)
}

/// `void __seqc_schedule(void)`: up to `max` times, take any pending
/// thread out of `ts` and run it, or return.
/// The global for field `fld` (0 site, 1 argument, 2 id) of pending slot `k`.
fn ts_slot(g: &Globals, k: u32, fld: u32) -> GlobalId {
    GlobalId(g.ts.0 + 3 * k + fld)
}

fn make_schedule(p: &Program, g: &Globals, max: u32, run: FuncId) -> Function {
    let loc = Loc::NONE;
    let u = Ty::UINT;
    let vptr = Ty::Void.ptr();
    let locals = vec![
        local("j", u.clone()),
        local("s", u.clone()),
        local("a", vptr.clone()),
        local("id", u.clone()),
    ];
    let (j, s, a, id) = (
        lv_local(LocalId(0), u.clone(), loc),
        lv_local(LocalId(1), u.clone(), loc),
        lv_local(LocalId(2), vptr.clone(), loc),
        lv_local(LocalId(3), u.clone(), loc),
    );
    let mut body: Vec<Stmt> = (0..4)
        .map(|i| st(StmtKind::Decl(LocalId(i), None), loc))
        .collect();
    let n = glob(p, g.ts_n, loc);
    let one = int(1, u.clone(), loc);
    for _ in 0..max {
        // Nothing pending; or every thread made so far is on the stack
        // already (a test that is often constant, which keeps the
        // unfolded program small).
        let none = bin(
            BinOp::LogOr,
            cmp(BinOp::Eq, n.clone(), int(0, u.clone(), loc), loc),
            cmp(
                BinOp::Ge,
                bin(
                    BinOp::Add,
                    glob(p, g.depth, loc),
                    one.clone(),
                    u.clone(),
                    loc,
                ),
                glob(p, g.nthr, loc),
                loc,
            ),
            Ty::INT,
            loc,
        );
        let stop = bin(
            BinOp::LogOr,
            none,
            cmp(BinOp::Eq, nondet(Ty::INT, loc), int(0, Ty::INT, loc), loc),
            Ty::INT,
            loc,
        );
        body.push(if_(
            stop,
            vec![st(StmtKind::Return(None), loc)],
            vec![],
            loc,
        ));
        // j picks a pending slot; the slot's entry is taken out and the
        // later ones move down one (constant slot numbers only).
        body.push(assign(j.clone(), nondet(u.clone(), loc), loc));
        body.push(assign(s.clone(), glob(p, ts_slot(g, 0, 0), loc), loc));
        body.push(assign(a.clone(), glob(p, ts_slot(g, 0, 1), loc), loc));
        body.push(assign(id.clone(), glob(p, ts_slot(g, 0, 2), loc), loc));
        for k in 1..max {
            let pick = bin(
                BinOp::LogAnd,
                cmp(BinOp::Eq, j.clone(), int(k as i128, u.clone(), loc), loc),
                cmp(BinOp::Gt, n.clone(), int(k as i128, u.clone(), loc), loc),
                Ty::INT,
                loc,
            );
            let take = vec![
                assign(s.clone(), glob(p, ts_slot(g, k, 0), loc), loc),
                assign(a.clone(), glob(p, ts_slot(g, k, 1), loc), loc),
                assign(id.clone(), glob(p, ts_slot(g, k, 2), loc), loc),
            ];
            body.push(if_(pick, take, vec![], loc));
            // Slots j..n-2 take their successor's entry. A j past the
            // pending count picked slot 0.
            let shift = bin(
                BinOp::LogOr,
                cmp(BinOp::Ge, j.clone(), n.clone(), loc),
                cmp(
                    BinOp::Le,
                    j.clone(),
                    int((k - 1) as i128, u.clone(), loc),
                    loc,
                ),
                Ty::INT,
                loc,
            );
            let moves = (0..3)
                .map(|fld| {
                    assign(
                        glob(p, ts_slot(g, k - 1, fld), loc),
                        glob(p, ts_slot(g, k, fld), loc),
                        loc,
                    )
                })
                .collect();
            body.push(if_(shift, moves, vec![], loc));
        }
        body.push(assign(
            n.clone(),
            bin(BinOp::Sub, n.clone(), one.clone(), u.clone(), loc),
            loc,
        ));
        body.push(call(
            run,
            void_sig(vec![u.clone(), vptr.clone(), u.clone()]),
            vec![s.clone(), a.clone(), id.clone()],
            None,
            loc,
        ));
    }
    func("__seqc_schedule", void_sig(vec![]), vec![], locals, body)
}

/// `void __seqc_run(unsigned site, void *arg, unsigned id)`: thread `id`
/// runs the start routine of `site` to its end or until it stops; a
/// normal return is recorded for joins.
fn make_run(p: &Program, g: &Globals, sites: &[Site], dtors: Option<FuncId>) -> Function {
    let loc = Loc::NONE;
    let u = Ty::UINT;
    let vptr = Ty::Void.ptr();
    let mut locals = vec![
        local("site", u.clone()),
        local("arg", vptr.clone()),
        local("id", u.clone()),
        local("saved", u.clone()),
    ];
    let site = lv_local(LocalId(0), u.clone(), loc);
    let arg = lv_local(LocalId(1), vptr.clone(), loc);
    let id = lv_local(LocalId(2), u.clone(), loc);
    let saved = lv_local(LocalId(3), u.clone(), loc);
    let tid = glob(p, g.tid, loc);
    let depth = glob(p, g.depth, loc);
    let raise = glob(p, g.raise, loc);
    let zero = int(0, Ty::INT, loc);
    let ok = || cmp(BinOp::Eq, glob(p, g.raise, loc), int(0, Ty::INT, loc), loc);
    let at = |a: GlobalId| index(glob(p, a, loc), id.clone(), loc);
    let mut body = vec![
        st(StmtKind::Decl(LocalId(3), None), loc),
        assign(saved.clone(), tid.clone(), loc),
        assign(tid.clone(), id.clone(), loc),
        assign(
            depth.clone(),
            bin(
                BinOp::Add,
                depth.clone(),
                int(1, u.clone(), loc),
                u.clone(),
                loc,
            ),
            loc,
        ),
    ];
    // One call per start routine, whichever sites share it.
    let mut funcs: Vec<FuncId> = Vec::new();
    for s in sites {
        let f = s.start.unwrap();
        if !funcs.contains(&f) {
            funcs.push(f);
        }
    }
    let mut chain: Vec<Stmt> = Vec::new();
    for &f in funcs.iter().rev() {
        let sig = p.func(f).sig.clone();
        let args: Vec<Expr> = sig
            .params
            .iter()
            .take(1)
            .map(|t| cast(arg.clone(), t.clone(), loc))
            .collect();
        let mut then = Vec::new();
        let rv = if sig.ret.is_pointer() || sig.ret.is_integer() {
            locals.push(local(&format!("rv{}", locals.len()), sig.ret.clone()));
            let v = LocalId(locals.len() as u32 - 1);
            then.push(st(StmtKind::Decl(v, None), loc));
            Some(lv_local(v, sig.ret.clone(), loc))
        } else {
            None
        };
        then.push(call(f, sig.clone(), args, rv.clone(), loc));
        if let Some(v) = rv {
            then.push(if_(
                ok(),
                vec![assign(at(g.ret), cast(v, vptr.clone(), loc), loc)],
                vec![],
                loc,
            ));
        }
        let is_f = sites
            .iter()
            .enumerate()
            .filter(|(_, s)| s.start == Some(f))
            .map(|(i, _)| cmp(BinOp::Eq, site.clone(), int(i as i128, u.clone(), loc), loc))
            .reduce(|a, b| bin(BinOp::LogOr, a, b, Ty::INT, loc))
            .unwrap();
        chain = vec![if_(is_f, then, chain, loc)];
    }
    body.extend(chain);
    if let Some(d) = dtors {
        // The thread returned: its key destructors run first.
        body.push(if_(
            ok(),
            vec![call(d, void_sig(vec![]), vec![], None, loc)],
            vec![],
            loc,
        ));
    }
    body.push(if_(
        ok(),
        vec![assign(at(g.done), int(1, Ty::INT, loc), loc)],
        vec![],
        loc,
    ));
    body.push(assign(raise, zero.clone(), loc));
    body.push(assign(glob(p, g.atomic, loc), zero, loc));
    body.push(assign(
        depth.clone(),
        bin(BinOp::Sub, depth, int(1, u.clone(), loc), u.clone(), loc),
        loc,
    ));
    body.push(assign(tid, saved, loc));
    func(
        "__seqc_run",
        void_sig(vec![u.clone(), vptr, u]),
        vec![LocalId(0), LocalId(1), LocalId(2)],
        locals,
        body,
    )
}

/// The new `main`: thread 0, then whatever is still pending.
fn make_driver(
    p: &mut Program,
    g: &Globals,
    user_main: FuncId,
    sched: FuncId,
    at_end: Option<Stmt>,
) {
    let loc = Loc::NONE;
    let zero = int(0, Ty::INT, loc);
    let mf = p.func(user_main).clone();
    let margs: Vec<Expr> = mf
        .params
        .iter()
        .zip(mf.sig.params.iter())
        .map(|(v, t)| {
            let ty = mf.local(*v).ty.clone();
            let e = if ty.is_pointer() {
                int(0, Ty::INT, loc)
            } else {
                nondet(ty, loc)
            };
            cast(e, t.clone(), loc)
        })
        .collect();
    let b = vec![
        assign(glob(p, g.nthr, loc), int(1, Ty::UINT, loc), loc),
        call(user_main, mf.sig.clone(), margs, None, loc),
    ];
    // Main's return is exit: inside an atomic section the run ends.
    let b: Vec<Stmt> = b
        .into_iter()
        .chain(at_end)
        .chain(vec![
            assign(glob(p, g.raise, loc), zero.clone(), loc),
            assign(glob(p, g.atomic, loc), zero.clone(), loc),
            assign(glob(p, g.tid, loc), int(0, Ty::UINT, loc), loc),
            call(sched, void_sig(vec![]), vec![], None, loc),
            st(StmtKind::Return(Some(zero)), loc),
        ])
        .collect();
    p.functions.push(Function {
        is_static: false,
        ..func(
            "main",
            FnSig {
                ret: Ty::INT,
                params: vec![],
                variadic: false,
                unprototyped: false,
            },
            vec![],
            vec![],
            b,
        )
    });
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
    cur_name: String,
    step_f: FuncId,
    run_f: FuncId,
    max: u32,
    /// Threads each site may make.
    caps: Vec<u32>,
    nslots: u64,
    sites: Vec<Site>,
    /// Per input global: shared between threads.
    shared: Vec<bool>,
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
}

impl Rewriter {
    fn fail(&mut self, what: impl Into<String>, loc: Loc) {
        if self.err.is_none() {
            self.err = Some((what.into(), loc));
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
        LocalId(n as u32)
    }

    fn raised(&self, p: &Program, loc: Loc) -> Expr {
        cmp(
            BinOp::Ne,
            glob(p, self.g.raise, loc),
            int(0, Ty::INT, loc),
            loc,
        )
    }

    /// Leave the function (the thread has stopped; the value is unused).
    fn leave(&mut self, loc: Loc) -> Vec<Stmt> {
        if self.ret_ty.is_void() {
            return vec![st(StmtKind::Return(None), loc)];
        }
        let ty = self.ret_ty.clone();
        return_any(ty, loc, |t| self.temp("__seqc_any", t))
    }

    /// RAISE: the running thread stops for good.
    fn raise(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        let mut v = vec![assign(
            glob(p, self.g.raise, loc),
            int(1, Ty::INT, loc),
            loc,
        )];
        v.extend(self.leave(loc));
        v
    }

    /// `if (c) RAISE;`
    fn raise_if(&mut self, p: &Program, c: Expr, loc: Loc) -> Stmt {
        let r = self.raise(p, loc);
        if_(c, r, vec![], loc)
    }

    /// After a call that may run a thread's code: leave if it stopped.
    fn propagate(&mut self, p: &Program, loc: Loc) -> Stmt {
        let l = self.leave(loc);
        if_(self.raised(p, loc), l, vec![], loc)
    }

    fn step(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        let l = loc.generated();
        vec![
            call(self.step_f, void_sig(vec![]), vec![], None, l),
            self.propagate(p, l),
        ]
    }

    fn expr(&mut self, p: &Program, e: &mut Expr) {
        let tls = &self.tls;
        let tid = self.g.tid;
        let mut bad: Option<Loc> = None;
        e.walk_mut(&mut |x: &mut Expr| {
            if let ExprKind::AddrOf(a) | ExprKind::Decay(a) = &x.kind
                && matches!(a.kind, ExprKind::Global(g) if tls.contains(&g))
            {
                bad = Some(x.loc);
            }
        });
        if let Some(l) = bad {
            self.fail("the address of a thread-local variable", l);
            return;
        }
        e.walk_mut(&mut |x: &mut Expr| {
            if let ExprKind::Global(g) = x.kind
                && tls.contains(&g)
            {
                let loc = x.loc;
                let ty = x.ty.clone();
                let base = Expr::new(ExprKind::Global(g), p.global(g).ty.clone(), loc);
                *x = Expr::new(
                    ExprKind::Index(Box::new(base), Box::new(glob(p, tid, loc))),
                    ty,
                    loc,
                );
            }
        });
    }

    /// Does `e` read or write memory another thread can see?
    fn accesses(&self, e: &Expr, addr: bool) -> bool {
        let acc = |e: &Expr| self.accesses(e, false);
        match &e.kind {
            ExprKind::Global(g) => !addr && self.shared.get(g.index()).copied().unwrap_or(false),
            ExprKind::Local(v) => !addr && self.escaping.contains(v),
            ExprKind::Deref(x) => !addr || acc(x),
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => self.accesses(a, true),
            ExprKind::Member(a, _) => self.accesses(a, addr),
            ExprKind::Index(a, i) => self.accesses(a, addr) || acc(i),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => acc(a),
            ExprKind::Binary(_, a, b) => acc(a) || acc(b),
            ExprKind::Cond(a, b, c) => acc(a) || acc(b) || acc(c),
            _ => false,
        }
    }

    fn visible(&self, s: &Stmt) -> bool {
        if self.atomic_fn {
            return false;
        }
        match &s.kind {
            StmtKind::Op { op, .. } if op.is_visible() => return true,
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
        s.each_expr(&mut |e| any = any || self.accesses(e, false));
        any
    }

    /// The data accesses of a visible statement (see `ir::access`).
    fn data_accesses(&self, p: &Program, s: &Stmt) -> Vec<(Expr, bool)> {
        Shared {
            globals: &self.shared,
            escaping: &self.escaping,
        }
        .stmt(p, s)
    }

    fn lv_shared(&self, lv: &Expr) -> bool {
        Shared {
            globals: &self.shared,
            escaping: &self.escaping,
        }
        .lvalue(lv)
    }

    /// KISS §5 at one access: the thread may choose to record it (or, once
    /// an access is recorded, check it against that one) and stop.
    /// `check_r`/`check_w` as DESIGN.md §1 writes them, with the target
    /// fixed by the first recorded access (see the module comment).
    fn race_choice(&mut self, p: &Program, lv: Expr, write: bool, loc: Loc) -> Stmt {
        // Traces must show the record and the check, even for a step that
        // normalisation made.
        let loc = Loc {
            generated: false,
            ..loc
        };
        // The function being rewritten is out of `p`: its locals are ours.
        let key = match crate::ir::regions::lvalue_key(p, self.cur_fn, &lv) {
            Some(crate::ir::regions::RKey::Local(_, v)) => {
                format!("{}::{}", self.cur_name, self.locals[v.index()].name)
            }
            Some(k) => crate::ir::regions::key_name(p, &k),
            None => String::new(),
        };
        let root = root_global(&lv).map(|g| p.global(g).name.clone());
        if !key.is_empty() {
            self.regions.insert(key.clone());
        }
        if let Some(r) = &root {
            self.regions.insert(r.clone());
        }
        let race = self.race.as_mut().unwrap();
        let on_target = match &race.target {
            None => true,
            Some(t) => *t == key || root.as_ref() == Some(t),
        };
        race.sites.push(RaceSite {
            loc,
            write,
            region: key,
        });
        let site = race.sites.len() as i128;
        let (acc_g, addr_g, site_g, pick) = (race.acc, race.addr, race.site, race.pick);
        let vptr = Ty::Void.ptr();
        let addr = cast(addr_of(lv, loc), vptr, loc);
        let acc = glob(p, acc_g, loc);
        let hit = cmp(BinOp::Eq, addr.clone(), glob(p, addr_g, loc), loc);
        let conflict = if write {
            hit
        } else {
            bin(
                BinOp::LogAnd,
                hit,
                cmp(BinOp::Eq, acc.clone(), int(2, Ty::INT, loc), loc),
                Ty::INT,
                loc,
            )
        };
        let check = st(
            StmtKind::Assert(not(conflict, loc), AssertKind::Assert),
            loc,
        );
        let recorded = cmp(BinOp::Ne, acc.clone(), int(0, Ty::INT, loc), loc);
        let mut then = if on_target {
            vec![if_(
                recorded,
                vec![check],
                vec![
                    assign(glob(p, addr_g, loc), addr, loc),
                    assign(acc, int(1 + write as i128, Ty::INT, loc), loc),
                    assign(glob(p, site_g, loc), int(site, Ty::UINT, loc), loc),
                ],
                loc,
            )]
        } else {
            vec![if_(recorded, vec![check], vec![], loc)]
        };
        then.extend(self.raise(p, loc));
        let l = loc.generated();
        let t = self.temp("__seqc_pick", Ty::INT);
        let pick_call = call(
            pick,
            FnSig {
                ret: Ty::INT,
                params: vec![],
                variadic: false,
                unprototyped: false,
            },
            vec![],
            Some(lv_local(t, Ty::INT, l)),
            l,
        );
        st(
            StmtKind::Block(Block(vec![
                st(StmtKind::Decl(t, None), l),
                pick_call,
                if_(
                    cmp(BinOp::Ne, lv_local(t, Ty::INT, l), int(0, Ty::INT, l), l),
                    then,
                    vec![],
                    l,
                ),
            ])),
            l,
        )
    }

    fn block(&mut self, p: &Program, b: Block) -> Block {
        let mut out = Vec::new();
        for s in b.0 {
            self.stmt(p, s, &mut out);
        }
        Block(out)
    }

    fn stmt(&mut self, p: &Program, mut s: Stmt, out: &mut Vec<Stmt>) {
        let loc = s.loc;
        s.each_expr_mut(&mut |e| self.expr(p, e));
        // `x = f()` with `x` shared: the write is a step of its own after
        // the call's steps, not part of the step before the call.
        if let StmtKind::Call { dest: Some(d), .. } = &s.kind
            && !self.atomic_fn
            && self.lv_shared(d)
        {
            let d = d.clone();
            let t = self.temp("__seqc_res", d.ty.clone());
            out.push(st(StmtKind::Decl(t, None), loc.generated()));
            if let StmtKind::Call { dest, .. } = &mut s.kind {
                *dest = Some(lv_local(t, d.ty.clone(), loc));
            }
            self.stmt(p, s, out);
            let ty = d.ty.clone();
            self.stmt(p, assign(d, lv_local(t, ty, loc), loc), out);
            return;
        }
        if self.visible(&s) {
            out.extend(self.step(p, loc));
            if self.race.is_some() {
                for (lv, write) in self.data_accesses(p, &s) {
                    let r = self.race_choice(p, lv, write, loc);
                    out.push(r);
                }
            }
        }
        match s.kind {
            StmtKind::If(c, a, b) => {
                let a = self.block(p, a);
                let b = self.block(p, b);
                out.push(st(StmtKind::If(c, a, b), loc));
            }
            StmtKind::Loop { body, latch } => {
                let body = self.block(p, body);
                let latch = self.block(p, latch);
                out.push(st(StmtKind::Loop { body, latch }, loc));
            }
            StmtKind::Switch(c, b) => {
                let b = self.block(p, b);
                out.push(st(StmtKind::Switch(c, b), loc));
            }
            StmtKind::Block(b) => {
                let b = self.block(p, b);
                out.push(st(StmtKind::Block(b), loc));
            }
            StmtKind::Assert(c, _) if self.race.is_some() => {
                // Race mode: a failing assertion aborts the run, and a
                // thread may always stop before it.
                let s = self.raise_if(p, not(c, loc), loc);
                out.push(s);
            }
            StmtKind::Assert(c, kind) => {
                self.asserts.push((loc, kind));
                out.push(st(StmtKind::Assert(c, kind), loc));
            }
            StmtKind::Assume(c) => {
                let s = self.raise_if(p, not(c, loc), loc);
                out.push(s);
            }
            StmtKind::Call { dest, callee, args } => {
                // A call of code that may take steps may come back with
                // the thread stopped.
                let may_stop = match sites::strip(&callee) {
                    Some(f) => self.has_body[f.index()],
                    None => true,
                };
                let call = st(StmtKind::Call { dest, callee, args }, loc);
                let (save, restore) = if !self.atomic_fn && calls_atomic(&call, &self.atomic_fns) {
                    let t = self.temp("__seqc_was_atomic", Ty::INT);
                    atomic_call(p, self.g.atomic, t, loc)
                } else {
                    (vec![], vec![])
                };
                out.extend(save);
                out.push(call);
                out.extend(restore);
                if may_stop {
                    let s = self.propagate(p, loc.generated());
                    out.push(s);
                }
            }
            StmtKind::Op { dest, op, args } => self.op(p, dest, op, args, loc, out),
            kind => out.push(st(kind, loc)),
        }
    }

    fn op(
        &mut self,
        p: &Program,
        dest: Option<Expr>,
        op: Op,
        args: Vec<Expr>,
        loc: Loc,
        out: &mut Vec<Stmt>,
    ) {
        let set_dest = |out: &mut Vec<Stmt>, v: Expr| {
            if let Some(d) = &dest {
                out.push(assign(d.clone(), v, loc));
            }
        };
        let zero = int(0, Ty::INT, loc);
        if threads::expand(self, p, &dest, op, &args, loc, out) {
            return;
        }
        let u = Ty::UINT;
        let arg = |i: usize| args.get(i).cloned().unwrap_or(int(0, Ty::INT, loc));
        let g = self.g;
        match op {
            Op::ThreadCreate => {
                let Some(si) = self.sites.iter().position(|s| s.loc == loc) else {
                    self.fail("a pthread_create seqc did not see", loc);
                    return;
                };
                let n = index(glob(p, g.site_n, loc), int(si as i128, Ty::INT, loc), loc);
                // Past the thread bound the creator stops (a bound cut).
                let full = cmp(
                    BinOp::Ge,
                    n.clone(),
                    int(self.caps[si] as i128, u.clone(), loc),
                    loc,
                );
                out.push(self.raise_if(p, full, loc));
                let t = self.temp("__seqc_t", u.clone());
                let tv = lv_local(t, u.clone(), loc);
                let nthr = glob(p, g.nthr, loc);
                out.push(st(StmtKind::Decl(t, None), loc));
                out.push(assign(tv.clone(), nthr.clone(), loc));
                out.push(assign(
                    nthr.clone(),
                    bin(BinOp::Add, nthr, int(1, u.clone(), loc), u.clone(), loc),
                    loc,
                ));
                out.push(assign(
                    n.clone(),
                    bin(BinOp::Add, n, int(1, u.clone(), loc), u.clone(), loc),
                    loc,
                ));
                let book = threads::Method::book(self);
                out.extend(threads::on_create(p, &book, &tv, &arg(1), loc));
                let pt = arg(0);
                let ptd = cast(tv.clone(), Ty::ULONG, loc);
                out.extend(if_nonnull(
                    &pt,
                    vec![assign(deref(pt.clone(), loc), ptd, loc)],
                    loc,
                ));
                let tsn = glob(p, g.ts_n, loc);
                let mut pend = Vec::new();
                for k in 0..self.max {
                    let here = cmp(BinOp::Eq, tsn.clone(), int(k as i128, u.clone(), loc), loc);
                    let fill = vec![
                        assign(
                            glob(p, ts_slot(&g, k, 0), loc),
                            int(si as i128, u.clone(), loc),
                            loc,
                        ),
                        assign(
                            glob(p, ts_slot(&g, k, 1), loc),
                            cast(arg(3), Ty::Void.ptr(), loc),
                            loc,
                        ),
                        assign(glob(p, ts_slot(&g, k, 2), loc), tv.clone(), loc),
                    ];
                    pend.push(if_(here, fill, vec![], loc));
                }
                pend.push(assign(
                    tsn.clone(),
                    bin(
                        BinOp::Add,
                        tsn.clone(),
                        int(1, u.clone(), loc),
                        u.clone(),
                        loc,
                    ),
                    loc,
                ));
                // ts is full: the thread runs now, unless the creator is
                // inside an atomic section (then the creator stops: the
                // thread cannot run inside that section).
                let now = vec![
                    self.raise_if(
                        p,
                        cmp(BinOp::Ne, glob(p, g.atomic, loc), zero.clone(), loc),
                        loc,
                    ),
                    call(
                        self.run_f,
                        void_sig(vec![u.clone(), Ty::Void.ptr(), u.clone()]),
                        vec![
                            int(si as i128, u.clone(), loc),
                            cast(arg(3), Ty::Void.ptr(), loc),
                            tv,
                        ],
                        None,
                        loc.generated(),
                    ),
                ];
                out.push(if_(
                    cmp(
                        BinOp::Lt,
                        tsn.clone(),
                        int(self.max as i128, u.clone(), loc),
                        loc,
                    ),
                    pend,
                    now,
                    loc,
                ));
                set_dest(out, zero);
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
            Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicFetch(_)
            | Op::AtomicFetchThen(_)
            | Op::AtomicCasVal
            | Op::AtomicCasBool
            | Op::AtomicCompareExchange
            | Op::Fence
            | Op::AttrNoop(_)
            | Op::LibNoop(_)
            | Op::Malloc
            | Op::Calloc
            | Op::Free
            | Op::Memset
            | Op::Memcpy => out.push(st(StmtKind::Op { dest, op, args }, loc)),
            Op::RoundInit | Op::RoundCheck => {}
        }
    }
}

/// The global an lvalue path starts from.
fn root_global(e: &Expr) -> Option<GlobalId> {
    match &e.kind {
        ExprKind::Global(g) => Some(*g),
        ExprKind::Member(a, _) | ExprKind::Index(a, _) => root_global(a),
        _ => None,
    }
}

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
            atomic_code: self.atomic_code,
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

    fn switch_point(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        self.step(p, loc)
    }

    fn after_call(&mut self, p: &Program, loc: Loc) -> Vec<Stmt> {
        vec![self.propagate(p, loc)]
    }
}
