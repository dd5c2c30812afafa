//! Pass: a function body becomes a goto program, the form symbolic
//! execution walks in one forward sweep.
//!
//! Contract: control flow is explicit (`Goto`, `GotoIf`, `Switch`,
//! `Return` to the end); every jump goes forward except a loop's
//! `BackEdge` and a backward `goto`, which becomes a `BackEdge` of a loop
//! of its own. `--unwind` is counted as the oracle counts it: a loop body
//! runs at most U times, the cut sits just past the top exit test
//! (`LoopGuard`) or, for a loop without one, at the back edge. Expressions
//! stay IR expressions (with their types and locations).

use crate::ir::*;
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub enum Ins {
    Decl(LocalId, Option<Init>),
    Assign(Expr, Expr),
    Call {
        dest: Option<Expr>,
        callee: Expr,
        args: Vec<Expr>,
    },
    Op {
        dest: Option<Expr>,
        op: Op,
        args: Vec<Expr>,
    },
    Goto(usize),
    /// Jump when the condition is non-zero.
    GotoIf(Expr, usize),
    /// Jump to the first matching case, else to `default`.
    Switch(Expr, Vec<(CaseLabel, usize)>, usize),
    LoopEnter(u32),
    /// Cut the path when the loop has already run U iterations.
    LoopGuard(u32, Option<u32>),
    /// Count an iteration and jump back; cut here after U iterations when
    /// the loop has no top exit test (`guarded` false).
    BackEdge(u32, usize, bool),
    Assume(Expr),
    Assert(Expr, AssertKind),
    Return(Option<Expr>),
}

pub struct GotoFn {
    pub code: Vec<(Ins, Loc)>,
    pub nloops: u32,
}

const HOLE: usize = usize::MAX;

struct Cx {
    code: Vec<(Ins, Loc)>,
    nloops: u32,
    labels: HashMap<LabelId, usize>,
    gotos: Vec<(usize, LabelId)>,
    breaks: Vec<Vec<usize>>,
    continues: Vec<Vec<usize>>,
    cases: Vec<Vec<(CaseLabel, usize)>>,
}

/// Compiles a body; `Err` names a construct with no meaning here.
pub fn compile(body: &Block) -> Result<GotoFn, (String, Loc)> {
    let mut c = Cx {
        code: Vec::new(),
        nloops: 0,
        labels: HashMap::new(),
        gotos: Vec::new(),
        breaks: Vec::new(),
        continues: Vec::new(),
        cases: Vec::new(),
    };
    c.block(body)?;
    for (at, l) in std::mem::take(&mut c.gotos) {
        let Some(&pc) = c.labels.get(&l) else {
            return Err(("goto to a missing label".into(), c.code[at].1));
        };
        if pc <= at {
            let id = c.nloops;
            c.nloops += 1;
            c.code[at].0 = Ins::BackEdge(id, pc, false);
        } else {
            c.code[at].0 = Ins::Goto(pc);
        }
    }
    Ok(GotoFn {
        code: c.code,
        nloops: c.nloops,
    })
}

impl Cx {
    fn emit(&mut self, i: Ins, loc: Loc) -> usize {
        self.code.push((i, loc));
        self.code.len() - 1
    }

    fn pc(&self) -> usize {
        self.code.len()
    }

    fn patch(&mut self, at: usize, to: usize) {
        match &mut self.code[at].0 {
            Ins::Goto(t) | Ins::GotoIf(_, t) => *t = to,
            _ => unreachable!("patching a non-jump"),
        }
    }

    fn block(&mut self, b: &Block) -> Result<(), (String, Loc)> {
        for s in &b.0 {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), (String, Loc)> {
        let loc = s.loc;
        match &s.kind {
            StmtKind::Decl(v, init) => {
                self.emit(Ins::Decl(*v, init.clone()), loc);
            }
            StmtKind::Assign(l, r) => {
                self.emit(Ins::Assign(l.clone(), r.clone()), loc);
            }
            StmtKind::Call { dest, callee, args } => {
                self.emit(
                    Ins::Call {
                        dest: dest.clone(),
                        callee: callee.clone(),
                        args: args.clone(),
                    },
                    loc,
                );
            }
            StmtKind::Op { dest, op, args } => {
                self.emit(
                    Ins::Op {
                        dest: dest.clone(),
                        op: *op,
                        args: args.clone(),
                    },
                    loc,
                );
            }
            StmtKind::If(c, t, e) => {
                // Jump over the then-branch when the condition is zero.
                let neg = Expr::new(
                    ExprKind::Unary(UnOp::LogNot, Box::new(c.clone())),
                    Ty::INT,
                    c.loc,
                );
                let skip = self.emit(Ins::GotoIf(neg, HOLE), loc);
                self.block(t)?;
                if e.0.is_empty() {
                    let end = self.pc();
                    self.patch(skip, end);
                } else {
                    let j = self.emit(Ins::Goto(HOLE), loc.generated());
                    let else_pc = self.pc();
                    self.patch(skip, else_pc);
                    self.block(e)?;
                    let end = self.pc();
                    self.patch(j, end);
                }
            }
            StmtKind::Loop { body, latch, trips } => {
                let id = self.nloops;
                self.nloops += 1;
                self.emit(Ins::LoopEnter(id), loc);
                let head = self.pc();
                self.breaks.push(Vec::new());
                self.continues.push(Vec::new());
                let test = top_exit_test(body);
                for (i, s) in body.0.iter().enumerate() {
                    self.stmt(s)?;
                    if Some(i) == test {
                        self.emit(Ins::LoopGuard(id, *trips), s.loc);
                    }
                }
                let latch_pc = self.pc();
                for at in self.continues.pop().unwrap() {
                    self.patch(at, latch_pc);
                }
                // `continue` is not allowed in the latch; a `break` there
                // leaves the loop like one in the body.
                self.continues.push(Vec::new());
                self.block(latch)?;
                let stray = self.continues.pop().unwrap();
                self.emit(Ins::BackEdge(id, head, test.is_some()), loc);
                let end = self.pc();
                for at in stray {
                    self.patch(at, latch_pc);
                }
                for at in self.breaks.pop().unwrap() {
                    self.patch(at, end);
                }
            }
            StmtKind::Break => {
                let at = self.emit(Ins::Goto(HOLE), loc);
                match self.breaks.last_mut() {
                    Some(v) => v.push(at),
                    None => return Err(("break outside a loop or switch".into(), loc)),
                }
            }
            StmtKind::Continue => {
                let at = self.emit(Ins::Goto(HOLE), loc);
                match self.continues.last_mut() {
                    Some(v) => v.push(at),
                    None => return Err(("continue outside a loop".into(), loc)),
                }
            }
            StmtKind::Switch(x, body) => {
                let at = self.emit(Ins::Switch(x.clone(), Vec::new(), HOLE), loc);
                self.breaks.push(Vec::new());
                self.cases.push(Vec::new());
                // A `continue` inside a switch belongs to the enclosing loop.
                self.block(body)?;
                let end = self.pc();
                let cases = self.cases.pop().unwrap();
                let mut default = end;
                let mut arms = Vec::new();
                for (lab, pc) in cases {
                    match lab {
                        CaseLabel::Default => default = pc,
                        _ => arms.push((lab, pc)),
                    }
                }
                self.code[at].0 = Ins::Switch(x.clone(), arms, default);
                for b in self.breaks.pop().unwrap() {
                    self.patch(b, end);
                }
            }
            StmtKind::Case(lab) => {
                let pc = self.pc();
                match self.cases.last_mut() {
                    Some(v) => v.push((*lab, pc)),
                    None => return Err(("case label outside a switch".into(), loc)),
                }
            }
            StmtKind::Label(l) => {
                let pc = self.pc();
                self.labels.insert(*l, pc);
            }
            StmtKind::Goto(l) => {
                let at = self.emit(Ins::Goto(HOLE), loc);
                self.gotos.push((at, *l));
            }
            StmtKind::Return(e) => {
                self.emit(Ins::Return(e.clone()), loc);
            }
            StmtKind::Block(b) => self.block(b)?,
            StmtKind::Assert(c, k) => {
                self.emit(Ins::Assert(c.clone(), *k), loc);
            }
            StmtKind::Assume(c) => {
                self.emit(Ins::Assume(c.clone()), loc);
            }
        }
        Ok(())
    }
}
