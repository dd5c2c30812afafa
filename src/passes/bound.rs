//! Bounds loops and recursion in the program itself, so that a checker's
//! own unwinding convention does not matter (DESIGN.md §4).
//!
//! Pre: any IR. Post: every loop carries a counter of completed
//! iterations, checked where `--unwind U` cuts (as `ir::top_exit_test`
//! defines, the same place the oracle and the SMT route cut): just past
//! a top exit test, or after the latch for a loop without one. A
//! backward `goto` counts its own jumps the same way. A recursive
//! function counts its active frames in a global and is not entered a
//! (max(U,1)+1)-th time. The check is `assume(c)` (a cut blocks the path) or,
//! with `Cut::Assert`, `assert(c)` (a reachable cut is a failure: the
//! caller reports "bound too small"), or with `Cut::Stop` an `abort()`
//! that the Lal-Reps pass turns into "this thread stops here". A checker given an unwinding bound
//! above U then never cuts before seqc does.

use crate::ir::*;
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    Assume,
    Assert,
    /// `if (!c) abort();`: the Lal-Reps pass makes `abort` stop the
    /// thread and leave the function (DESIGN.md §3 rule 4).
    Stop,
}

pub fn bound(mut p: Program, unwind: u32, cut: Cut) -> Program {
    let recursive = recursive_functions(&p);
    // The depth globals first, in function order; then the functions,
    // which are independent of each other (on threads when many).
    let mut depths = vec![None; p.functions.len()];
    for (fi, f) in p.functions.iter().enumerate() {
        if f.body.is_some() && recursive.contains(&FuncId(fi as u32)) {
            p.globals.push(Global {
                name: format!("__seqc_depth_{}", f.name),
                ty: Ty::UINT,
                init: None,
                storage: Storage::Static,
                thread_local: false,
                loc: f.loc.generated(),
            });
            depths[fi] = Some(GlobalId(p.globals.len() as u32 - 1));
        }
    }
    let mut items: Vec<(&mut Function, Option<GlobalId>)> =
        p.functions.iter_mut().zip(depths).collect();
    crate::par::each_mut(&mut items, |(f, depth)| function(f, *depth, unwind, cut));
    p
}

fn function(f: &mut Function, depth: Option<GlobalId>, unwind: u32, cut: Cut) {
    let Some(body) = f.body.take() else { return };
    let positions = label_positions(&body);
    let mut b = Bounder {
        locals: &mut f.locals,
        unwind,
        cut,
        positions,
        seen: 0,
        goto_counters: HashMap::new(),
        depth,
    };
    let mut stmts = b.block(body).0;
    let mut pre: Vec<Stmt> = Vec::new();
    let counters: Vec<LocalId> = {
        let mut v: Vec<_> = b.goto_counters.values().copied().collect();
        v.sort();
        v
    };
    let loc = f.loc.generated();
    for v in counters {
        pre.push(Stmt {
            kind: StmtKind::Decl(v, Some(Init::Expr(Expr::int(0, Ty::UINT, loc)))),
            loc,
        });
    }
    if let Some(g) = depth {
        let d = Expr::new(ExprKind::Global(g), Ty::UINT, loc);
        pre.push(check(cut, lt(d.clone(), unwind.max(1), loc), loc));
        pre.push(add(d.clone(), 1, loc));
        stmts.push(add(d, -1, loc));
    }
    pre.extend(stmts);
    f.body = Some(Block(pre));
}

fn lt(e: Expr, u: u32, loc: Loc) -> Expr {
    Expr::new(
        ExprKind::Binary(
            BinOp::Lt,
            Box::new(e),
            Box::new(Expr::int(u as i128, Ty::UINT, loc)),
        ),
        Ty::INT,
        loc,
    )
}

fn add(e: Expr, k: i128, loc: Loc) -> Stmt {
    let op = if k < 0 { BinOp::Sub } else { BinOp::Add };
    let sum = Expr::new(
        ExprKind::Binary(
            op,
            Box::new(e.clone()),
            Box::new(Expr::int(k.abs(), Ty::UINT, loc)),
        ),
        Ty::UINT,
        loc,
    );
    Stmt {
        kind: StmtKind::Assign(e, sum),
        loc,
    }
}

fn check(cut: Cut, c: Expr, loc: Loc) -> Stmt {
    Stmt {
        kind: match cut {
            Cut::Assume => StmtKind::Assume(c),
            Cut::Assert => StmtKind::Assert(c, AssertKind::Assert),
            Cut::Stop => {
                let ty = c.ty.clone();
                let not = Expr::new(ExprKind::Unary(UnOp::LogNot, Box::new(c)), ty, loc);
                let abort = crate::ir::build::bare_op(Op::Abort, loc);
                StmtKind::If(not, Block(vec![abort]), Block::default())
            }
        },
        loc,
    }
}

struct Bounder<'a> {
    locals: &'a mut Vec<Local>,
    unwind: u32,
    cut: Cut,
    /// Pre-order position of each label, to tell backward gotos.
    positions: HashMap<LabelId, usize>,
    seen: usize,
    goto_counters: HashMap<LabelId, LocalId>,
    depth: Option<GlobalId>,
}

fn label_positions(b: &Block) -> HashMap<LabelId, usize> {
    let mut m = HashMap::new();
    let mut i = 0;
    b.walk(&mut |s| {
        if let StmtKind::Label(l) = s.kind {
            m.insert(l, i);
        }
        i += 1;
    });
    m
}

impl Bounder<'_> {
    fn counter(&mut self, loc: Loc) -> LocalId {
        let n = self.locals.len();
        self.locals.push(Local {
            name: format!("__seqc_iter{n}"),
            ty: Ty::UINT,
            loc: loc.generated(),
            temp: true,
        });
        LocalId(n as u32)
    }

    fn block(&mut self, b: Block) -> Block {
        let mut out = Vec::new();
        for s in b.0 {
            self.stmt(s, &mut out);
        }
        Block(out)
    }

    fn stmt(&mut self, s: Stmt, out: &mut Vec<Stmt>) {
        let here = self.seen;
        self.seen += 1;
        let loc = s.loc.generated();
        match s.kind {
            StmtKind::Loop { body, latch, trips } => {
                let test = top_exit_test(&body);
                let limit = crate::ir::loops::limit(trips, self.unwind);
                let v = self.counter(loc);
                let cnt = Expr::new(ExprKind::Local(v), Ty::UINT, loc);
                let mut nb = Vec::new();
                for (i, st) in body.0.into_iter().enumerate() {
                    self.stmt(st, &mut nb);
                    if Some(i) == test {
                        // The loop's own line, so that a checker's trace of a
                        // cut leads back to the loop.
                        nb.push(check(self.cut, lt(cnt.clone(), limit, loc), s.loc));
                    }
                }
                let mut nl = self.block(latch).0;
                nl.push(add(cnt.clone(), 1, loc));
                if test.is_none() {
                    nl.push(check(self.cut, lt(cnt.clone(), limit, loc), s.loc));
                }
                let decl = Stmt {
                    kind: StmtKind::Decl(v, Some(Init::Expr(Expr::int(0, Ty::UINT, loc)))),
                    loc,
                };
                let lp = Stmt {
                    kind: StmtKind::Loop {
                        body: Block(nb),
                        latch: Block(nl),
                        trips,
                    },
                    loc: s.loc,
                };
                out.push(Stmt {
                    kind: StmtKind::Block(Block(vec![decl, lp])),
                    loc,
                });
            }
            StmtKind::Goto(l) if self.positions.get(&l).is_some_and(|&p| p <= here) => {
                let v = match self.goto_counters.get(&l) {
                    Some(v) => *v,
                    None => {
                        let v = self.counter(loc);
                        self.goto_counters.insert(l, v);
                        v
                    }
                };
                let cnt = Expr::new(ExprKind::Local(v), Ty::UINT, loc);
                out.push(add(cnt.clone(), 1, loc));
                out.push(check(self.cut, lt(cnt, self.unwind, loc), s.loc));
                out.push(Stmt {
                    kind: StmtKind::Goto(l),
                    loc: s.loc,
                });
            }
            StmtKind::Return(e) => {
                if let Some(g) = self.depth {
                    out.push(add(Expr::new(ExprKind::Global(g), Ty::UINT, loc), -1, loc));
                }
                out.push(Stmt {
                    kind: StmtKind::Return(e),
                    loc: s.loc,
                });
            }
            StmtKind::If(c, a, b) => {
                let a = self.block(a);
                let b = self.block(b);
                out.push(Stmt {
                    kind: StmtKind::If(c, a, b),
                    loc: s.loc,
                });
            }
            StmtKind::Switch(c, b) => {
                let b = self.block(b);
                out.push(Stmt {
                    kind: StmtKind::Switch(c, b),
                    loc: s.loc,
                });
            }
            StmtKind::Block(b) => {
                let b = self.block(b);
                out.push(Stmt {
                    kind: StmtKind::Block(b),
                    loc: s.loc,
                });
            }
            kind => out.push(Stmt { kind, loc: s.loc }),
        }
    }
}

/// Functions that can reach themselves through calls (an indirect call
/// may reach any function whose address is taken).
fn recursive_functions(p: &Program) -> HashSet<FuncId> {
    let taken = p.address_taken_functions();
    let mut calls: Vec<HashSet<FuncId>> = vec![HashSet::new(); p.functions.len()];
    for (fi, f) in p.functions.iter().enumerate() {
        let Some(b) = &f.body else { continue };
        b.walk(&mut |s| {
            if let StmtKind::Call { callee, .. } = &s.kind {
                match &callee.kind {
                    ExprKind::Func(g) => {
                        calls[fi].insert(*g);
                    }
                    ExprKind::AddrOf(x) if matches!(x.kind, ExprKind::Func(_)) => {
                        if let ExprKind::Func(g) = x.kind {
                            calls[fi].insert(g);
                        }
                    }
                    _ => calls[fi].extend(taken.iter().copied()),
                }
            }
        });
    }
    let mut rec = HashSet::new();
    for start in 0..p.functions.len() {
        let mut stack: Vec<FuncId> = calls[start].iter().copied().collect();
        let mut seen = HashSet::new();
        while let Some(g) = stack.pop() {
            if g.index() == start {
                rec.insert(FuncId(start as u32));
                break;
            }
            if seen.insert(g) {
                stack.extend(calls[g.index()].iter().copied());
            }
        }
    }
    rec
}
