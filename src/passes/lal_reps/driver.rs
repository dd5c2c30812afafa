//! The generated functions: the switch point `__seqc_cs` and the new
//! `main`, which runs thread 0 and then every slot, and ends with the
//! consistency assumptions and the deferred assertion.

use super::*;

/// `void __seqc_cs(void)`: outside atomic code, the round may move
/// forward to any value up to `k` (the sink: the thread stops for good);
/// round `k - 1`, main's final context, is main's alone.
pub(super) fn make_cs(p: &mut Program, g: &Globals, k: u32) -> FuncId {
    let loc = Loc::NONE;
    let t = LocalId(0);
    let r = glob(p, g.round, loc);
    let tv = lv_local(t, Ty::UINT, loc);
    let not_main_final = bin(
        BinOp::LogAnd,
        cmp(BinOp::Eq, r.clone(), int(k as i128 - 1, Ty::UINT, loc), loc),
        cmp(BinOp::Ne, glob(p, g.tid, loc), int(0, Ty::UINT, loc), loc),
        Ty::INT,
        loc,
    );
    // Without a thread to switch to (k = 1: no creation site), a switch
    // could only stop main for good, which shows no run that main's own
    // steps do not: no switch at all, and the checker folds the round
    // away (a sequential program costs about what `--method none` does).
    let body = if k == 1 {
        vec![]
    } else {
        vec![if_(
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
                    vec![assign(r.clone(), tv, loc)],
                    vec![],
                    loc,
                ),
                if_(
                    not_main_final,
                    vec![assign(r, int(k as i128, Ty::UINT, loc), loc)],
                    vec![],
                    loc,
                ),
            ],
            vec![],
            loc,
        )]
    };
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

/// The ids (`__seqc_error` values) of the checks the driver makes: a
/// thread that ends holding a lock, a deadlock (0: not checked).
#[derive(Clone, Copy, Default)]
pub(super) struct EndIds {
    pub exit: i128,
    pub deadlock: i128,
}

/// The new `main`: thread 0, then every slot in order, then the
/// consistency assumptions and the deferred assertion.
pub(super) fn make_driver(p: &mut Program, rw: &Ctx, user_main: FuncId, nslots: u64, ends: EndIds) {
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
    let opst = |op: Op| bare_op(op, loc);
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
    // locks-exit: a live thread that ends must hold no lock it took.
    let end_check = |b: &mut Vec<Stmt>, slot: i128| {
        let Some(h) = g.held.filter(|_| ends.exit > 0) else {
            return;
        };
        let holds = cmp(BinOp::Ne, at(h, slot), int(0, Ty::INT, loc), loc);
        let first = cmp(BinOp::Eq, glob(p, g.error, loc), int(0, Ty::INT, loc), loc);
        let bad = bin(
            BinOp::LogAnd,
            bin(BinOp::LogAnd, rw.alive(p, loc), holds, Ty::INT, loc),
            first,
            Ty::INT,
            loc,
        );
        // At main's place, not a generated one: traces show the write.
        let at_main = Loc {
            generated: false,
            ..p.func(user_main).loc
        };
        let set = assign(
            glob(p, g.error, at_main),
            int(ends.exit, Ty::INT, at_main),
            at_main,
        );
        b.push(if_(bad, vec![set], vec![], loc));
    };
    let finish = |b: &mut Vec<Stmt>, slot: i128, rv: Option<Expr>| {
        b.push(rw.cs_call(loc));
        // Main's return is exit: 2, which no join passes
        // (`threads::op`, ThreadJoin).
        let done = if slot == 0 { 2 } else { 1 };
        b.push(assign(at(g.done, slot), int(done, Ty::INT, loc), loc));
        if let Some(v) = rv {
            b.push(assign(at(g.ret, slot), v, loc));
        }
    };
    end_check(&mut b, 0);
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
        // A start routine through a pointer is called through the one the
        // creator stored: the back ends dispatch such a call over the
        // functions whose address is taken and whose type fits.
        let (callee, sig) = match rw.sites[si].start {
            Some(f) => {
                let sig = p.func(f).sig.clone();
                (
                    Expr::new(ExprKind::Func(f), Ty::Func(Box::new(sig.clone())), loc),
                    sig,
                )
            }
            None => {
                let sig = threads::start_sig();
                let g = rw.g.start.expect("a slot table for pointer starts");
                (at(g, slot), sig)
            }
        };
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
        // Past the threads' last round (main's final context included):
        // the thread does not run.
        body.push(if_(
            cmp(BinOp::Ge, sv.clone(), int(k - 1, Ty::UINT, loc), loc),
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
        let call = st(
            StmtKind::Call {
                dest: rv.clone(),
                callee: callee.clone(),
                args,
            },
            loc,
        );
        if rw.sites[si].start.is_none() {
            // A null start routine (undefined): the thread stops before
            // its first step, instead of the call blocking the whole run.
            let null = cmp(BinOp::Eq, callee, int(0, callee_ty(&sig), loc), loc);
            body.push(if_(
                null,
                vec![assign(r.clone(), int(k, Ty::UINT, loc), loc)],
                vec![call],
                loc,
            ));
        } else {
            body.push(call);
        }
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
        end_check(&mut body, slot);
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
    if let Some(w) = rw.g.wait {
        // The final state is the end of main's final context: read there,
        // as thread 0, before the guesses are checked (the check covers
        // the cells read so far, these included).
        b.push(assign(glob(p, g.tid, loc), int(0, Ty::UINT, loc), loc));
        b.push(assign(r.clone(), int(k - 1, Ty::UINT, loc), loc));
        let created = |s: i128| cmp(BinOp::Ne, at(g.created, s), int(0, Ty::INT, loc), loc);
        // At main's place, not a generated one: traces show the write.
        let at_main = Loc {
            generated: false,
            ..p.func(user_main).loc
        };
        b.extend(threads::deadlock_check(p, &book(rw), &created, at_main));
        let dead = cmp(BinOp::Ne, glob(p, w.dead, loc), int(0, Ty::INT, loc), loc);
        let first = cmp(BinOp::Eq, glob(p, g.error, loc), int(0, Ty::INT, loc), loc);
        b.push(if_(
            bin(BinOp::LogAnd, first, dead, Ty::INT, loc),
            vec![assign(
                glob(p, g.error, at_main),
                int(ends.deadlock, Ty::INT, at_main),
                at_main,
            )],
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

/// The type of a pointer to a function of `sig`.
fn callee_ty(sig: &FnSig) -> Ty {
    Ty::Func(Box::new(sig.clone())).ptr()
}
