//! The generated functions: `__seqc_step` (run pending threads, maybe
//! stop), `__seqc_schedule` (take pending threads out of `ts`),
//! `__seqc_run` (run one thread to its end), race mode's choice, and the
//! new `main`.

use super::*;

/// `void __seqc_step(void)`: outside atomic code, run some pending
/// threads, then maybe stop the running thread for good.
pub(super) fn make_step(p: &Program, g: &Globals, sched: FuncId) -> Function {
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
pub(super) fn make_pick(p: &Program, g: &Globals) -> Function {
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

/// The global for field `fld` (0 site, 1 argument, 2 id) of pending slot `k`.
pub(super) fn ts_slot(g: &Globals, k: u32, fld: u32) -> GlobalId {
    GlobalId(g.ts.0 + 3 * k + fld)
}

/// `void __seqc_schedule(void)`: up to `max` times, take any pending
/// thread out of `ts` and run it, or return.
pub(super) fn make_schedule(p: &Program, g: &Globals, max: u32, run: FuncId) -> Function {
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

/// `assume(RAISE != 2)`: where a thread that stopped inside atomic code
/// has left its code, the run ends; nothing ran in between (every caller
/// returns at once).
fn dropped(p: &Program, g: &Globals, loc: Loc) -> Stmt {
    let two = int(2, Ty::INT, loc);
    st(
        StmtKind::Assume(cmp(BinOp::Ne, glob(p, g.raise, loc), two, loc)),
        loc,
    )
}

/// `void __seqc_run(unsigned site, void *arg, unsigned id)`: thread `id`
/// runs the start routine of `site` to its end or until it stops; a
/// normal return is recorded for joins.
pub(super) fn make_run(
    p: &Program,
    g: &Globals,
    sites: &[Site],
    dtors: Option<FuncId>,
    main_at: Loc,
) -> Function {
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
    // One call per start routine, whichever sites share it; `None`: the
    // routine the creator stored, called through its pointer (the back
    // ends dispatch over the functions whose address is taken).
    let mut funcs: Vec<Option<FuncId>> = Vec::new();
    for s in sites {
        if !funcs.contains(&s.start) {
            funcs.push(s.start);
        }
    }
    let mut chain: Vec<Stmt> = Vec::new();
    for &f in funcs.iter().rev() {
        let (callee, sig) = match f {
            Some(f) => {
                let sig = p.func(f).sig.clone();
                (
                    Expr::new(ExprKind::Func(f), Ty::Func(Box::new(sig.clone())), loc),
                    sig,
                )
            }
            None => {
                let g = g.start.expect("a start table for pointer starts");
                (at(g), threads::start_sig())
            }
        };
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
        let call = st(
            StmtKind::Call {
                dest: rv.clone(),
                callee: callee.clone(),
                args,
            },
            loc,
        );
        if f.is_none() {
            // A null start routine (undefined): the thread stops before
            // its first step, instead of the call blocking the whole run.
            let fty = Ty::Func(Box::new(sig.clone())).ptr();
            let null = cmp(BinOp::Eq, callee, int(0, fty, loc), loc);
            then.push(if_(
                null,
                vec![assign(raise.clone(), int(1, Ty::INT, loc), loc)],
                vec![call],
                loc,
            ));
        } else {
            then.push(call);
        }
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
            .filter(|(_, s)| s.start == f)
            .map(|(i, _)| cmp(BinOp::Eq, site.clone(), int(i as i128, u.clone(), loc), loc))
            .reduce(|a, b| bin(BinOp::LogOr, a, b, Ty::INT, loc))
            .unwrap();
        chain = vec![if_(is_f, then, chain, loc)];
    }
    body.extend(chain);
    if g.atomic_code {
        body.push(dropped(p, g, loc));
    }
    if let Some(d) = dtors {
        // The thread returned: its key destructors run first.
        body.push(if_(
            ok(),
            vec![call(d, void_sig(vec![]), vec![], None, loc)],
            vec![],
            loc,
        ));
    }
    let mut end = Vec::new();
    if let (Some(h), Some(flag)) = (g.held, g.exit_held) {
        // locks-exit: the thread ends holding no lock it took.
        end.push(super::flag_if_held(p, h, flag, id.clone(), main_at));
        let free = cmp(BinOp::Eq, at(h), int(0, Ty::INT, loc), loc);
        let rule = AssertKind::Lock(LockRule::ExitHolding);
        end.push(st(StmtKind::Assert(free, rule), loc));
    }
    end.push(assign(at(g.done), int(1, Ty::INT, loc), loc));
    body.push(if_(ok(), end, vec![], loc));
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
pub(super) fn make_driver(
    p: &mut Program,
    g: &Globals,
    user_main: FuncId,
    sched: FuncId,
    at_end: Vec<Stmt>,
    last: Vec<Stmt>,
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
    let mut b = vec![
        assign(glob(p, g.nthr, loc), int(1, Ty::UINT, loc), loc),
        call(user_main, mf.sig.clone(), margs, None, loc),
    ];
    if g.atomic_code {
        b.push(dropped(p, g, loc));
    }
    // Main's return is exit: inside an atomic section the run ends.
    let b: Vec<Stmt> = b
        .into_iter()
        .chain(at_end)
        .chain(vec![
            assign(glob(p, g.raise, loc), zero.clone(), loc),
            assign(glob(p, g.atomic, loc), zero.clone(), loc),
            assign(glob(p, g.tid, loc), int(0, Ty::UINT, loc), loc),
            call(sched, void_sig(vec![]), vec![], None, loc),
        ])
        .chain(last)
        .chain([st(StmtKind::Return(Some(zero)), loc)])
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
