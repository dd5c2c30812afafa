//! The oracle's own compilation of lowered (un-normalised) IR into flat
//! micro-code: every read or write of memory is its own `Load`/`Store`, so
//! the interpreter can switch threads between any two memory accesses, and
//! `&&`, `||`, `?:`, loops, `switch` and `goto` become jumps.
//!
//! Independent of `passes`: the oracle must not share their mistakes. The
//! evaluation order is the one C programs are usually read in and the one
//! normalisation uses: left to right, an assignment's address before its
//! value, the store last, a call's destination after the call.

use crate::ir::*;
use std::collections::HashMap;

pub type Reg = u32;

/// Pure expressions over registers; memory reads were taken out as `Load`s.
#[derive(Clone, Debug)]
pub enum E {
    Int(i128),
    Float(f64),
    Reg(Reg),
    Nondet(Ty),
    AddrGlobal(GlobalId),
    AddrLocal(LocalId),
    AddrStr(u32),
    Func(FuncId),
    /// `(op, operand, operand type, result type)`
    Un(UnOp, Box<E>, Ty, Ty),
    /// `(op, a, b, type of a, type of b, result type)`
    Bin(BinOp, Box<E>, Box<E>, Ty, Ty, Ty),
    Cast(Box<E>, Ty, Ty),
    /// Pointer plus a constant byte offset (a field).
    Offset(Box<E>, i64),
    /// Pointer plus index times element size (an array element).
    Index(Box<E>, Box<E>, Ty, u64),
    /// An operation of the program (`Bin` or `Un`) written at `.1`: where
    /// `--property overflow` reports it (other failures keep the place of
    /// the action that evaluates it).
    At(Box<E>, Loc),
}

#[derive(Clone, Debug)]
pub enum Mop {
    Set(Reg, E),
    Load(Reg, E, Ty),
    Store(E, E, Ty),
    /// A bit-field's value (of its declared type) from the bytes at the
    /// address (the field's first byte).
    LoadBits(Reg, E, Bits),
    /// A value into a bit-field, cut to its width; the other bits of its
    /// bytes are kept.
    StoreBits(E, E, Bits),
    /// Zero `len` bytes at an address (sparse initialisers start from zero).
    Zero(E, u64),
    /// A local's lifetime (re)starts: its value is indeterminate again.
    Decl(LocalId),
    Jump(u32),
    Branch(E, u32, u32),
    LoopEnter(u32),
    /// Take the back edge of loop `.0` to `.1`. A loop without an exit
    /// test at the top of its body is cut here after U iterations.
    BackEdge(u32, u32, bool),
    /// Just past a top exit test: cut the thread if the loop has already
    /// run U iterations (so a body runs at most U times and a loop of
    /// exactly U iterations still exits normally). A counted loop that
    /// creates threads (`ir::loops`) runs its trip count.
    LoopGuard(u32, Option<u32>),
    Call(Option<Reg>, E, Vec<E>, Vec<Ty>),
    Ret(Option<E>),
    Op(Option<Reg>, Op, Vec<E>, Vec<Ty>),
    /// The second half of `pthread_cond_wait` (a step of its own: POSIX
    /// allows spurious wake-ups): take the mutex at `.1` again, as the
    /// first half (an `Op::CondWait` that wrote register `.2`) left it.
    Relock(Option<Reg>, E, Reg),
    /// The second half of `pthread_barrier_wait` (a step of its own): pass
    /// the barrier at `.1` once the cycle the arrival wrote to `.2` is over.
    BarrierPass(Option<Reg>, E, Reg),
    Assert(E, AssertKind),
    Assume(E),
}

/// A bit-field access: where the field lies, its declared type, and the
/// field (for traces).
#[derive(Clone, Debug)]
pub struct Bits {
    pub at: BitField,
    pub ty: Ty,
    pub comp: CompId,
    pub field: u32,
}

pub struct FnCode {
    pub ops: Vec<(Mop, Loc)>,
    /// Per op: the registers `[lo, hi)` that may be live before it (those
    /// of the statement it belongs to, defined so far); the others are
    /// dead and cleared at step boundaries, so that states compare equal.
    pub live: Vec<(u32, u32)>,
    pub nregs: u32,
    pub nloops: u32,
    /// Locals whose address is taken: their accesses are shared steps.
    pub addr_taken: Vec<bool>,
}

pub struct Code {
    pub funcs: Vec<Option<FnCode>>,
    pub strings: Vec<Vec<u8>>,
    /// Each `pthread_create` site's position (from 1) in creation-site
    /// order (`ir::sites`), which orders threads in a round.
    pub site_pos: HashMap<Loc, u32>,
}

#[derive(Debug)]
pub struct Unsupported {
    pub what: String,
    pub loc: Loc,
}

type R<T> = Result<T, Unsupported>;

pub fn compile(p: &Program) -> R<Code> {
    let mut strings = Vec::new();
    let mut funcs = Vec::new();
    for f in &p.functions {
        funcs.push(match &f.body {
            Some(b) => Some(FnCompiler::run(p, f, b, &mut strings)?),
            None => None,
        });
    }
    // String literals in global initialisers (`.name = "nvram"`) need an
    // object too; the machine finds them by their bytes.
    for g in &p.globals {
        let Some(i) = &g.init else { continue };
        let mut es = Vec::new();
        i.exprs(&mut es);
        for e in es {
            e.walk(&mut |x| {
                if let ExprKind::Str(b) = &x.kind
                    && !strings.contains(b)
                {
                    strings.push(b.clone());
                }
            });
        }
    }
    // Without an order (threads that create each other in a cycle, which
    // Lal-Reps refuses) every site is position 0: creators' order.
    let site_pos = crate::ir::sites::thread_sites(p)
        .map(|s| {
            s.iter()
                .enumerate()
                .map(|(i, s)| (s.loc, i as u32 + 1))
                .collect()
        })
        .unwrap_or_default();
    Ok(Code {
        funcs,
        strings,
        site_pos,
    })
}

struct FnCompiler<'a> {
    p: &'a Program,
    f: &'a Function,
    ops: Vec<(Mop, Loc)>,
    live: Vec<(u32, u32)>,
    /// First register of the statement being compiled.
    cur_lo: u32,
    nregs: u32,
    nloops: u32,
    /// Jump targets to patch: (op index, label).
    label_pc: HashMap<LabelId, u32>,
    gotos: Vec<(usize, LabelId)>,
    /// (break targets, continue targets) of the enclosing loops/switches.
    breaks: Vec<Vec<usize>>,
    continues: Vec<Vec<usize>>,
    strings: &'a mut Vec<Vec<u8>>,
    /// Case labels found in the switch being compiled: (pc, label).
    cases: Vec<Vec<(u32, CaseLabel)>>,
}

pub fn addr_taken(f: &Function) -> Vec<bool> {
    let mut v = vec![false; f.locals.len()];
    fn base(e: &Expr) -> Option<LocalId> {
        match &e.kind {
            ExprKind::Local(l) => Some(*l),
            ExprKind::Member(b, _) | ExprKind::Index(b, _) => base(b),
            _ => None,
        }
    }
    let mut mark = |e: &Expr| {
        if let ExprKind::AddrOf(x) | ExprKind::Decay(x) = &e.kind
            && let Some(l) = base(x)
        {
            v[l.index()] = true;
        }
    };
    if let Some(b) = &f.body {
        b.walk(&mut |s| {
            for e in s.exprs() {
                e.walk(&mut mark);
            }
            if let StmtKind::Decl(_, Some(init)) = &s.kind {
                let mut es = Vec::new();
                init.exprs(&mut es);
                for e in es {
                    e.walk(&mut mark);
                }
            }
        });
    }
    v
}

impl<'a> FnCompiler<'a> {
    fn run(
        p: &'a Program,
        f: &'a Function,
        body: &Block,
        strings: &'a mut Vec<Vec<u8>>,
    ) -> R<FnCode> {
        let mut c = FnCompiler {
            p,
            f,
            ops: Vec::new(),
            live: Vec::new(),
            cur_lo: 0,
            nregs: 0,
            nloops: 0,
            label_pc: HashMap::new(),
            gotos: Vec::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            strings,
            cases: Vec::new(),
        };
        c.block(body)?;
        c.emit(Mop::Ret(None), f.loc.generated());
        for (at, l) in std::mem::take(&mut c.gotos) {
            let Some(&pc) = c.label_pc.get(&l) else {
                return Err(Unsupported {
                    what: "goto to a label outside the function body".into(),
                    loc: c.ops[at].1,
                });
            };
            // A backward goto closes a loop: count it like a back edge.
            if (pc as usize) <= at {
                let id = c.nloops;
                c.nloops += 1;
                c.ops[at].0 = Mop::BackEdge(id, pc, false);
            } else {
                c.ops[at].0 = Mop::Jump(pc);
            }
        }
        Ok(FnCode {
            ops: c.ops,
            live: c.live,
            nregs: c.nregs,
            nloops: c.nloops,
            addr_taken: addr_taken(f),
        })
    }

    fn emit(&mut self, m: Mop, loc: Loc) -> usize {
        self.ops.push((m, loc));
        self.live.push((self.cur_lo, self.nregs));
        self.ops.len() - 1
    }

    fn pc(&self) -> u32 {
        self.ops.len() as u32
    }

    fn reg(&mut self) -> Reg {
        self.nregs += 1;
        self.nregs - 1
    }

    fn patch(&mut self, at: usize, target: u32) {
        match &mut self.ops[at].0 {
            Mop::Jump(t) => *t = target,
            Mop::Branch(_, t, e) => {
                if *t == u32::MAX {
                    *t = target
                }
                if *e == u32::MAX {
                    *e = target
                }
            }
            _ => unreachable!("patching a non-jump"),
        }
    }

    fn block(&mut self, b: &Block) -> R<()> {
        for s in &b.0 {
            self.stmt(s)?;
        }
        Ok(())
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        let loc = s.loc;
        self.cur_lo = self.nregs;
        match &s.kind {
            StmtKind::Decl(v, init) => {
                self.emit(Mop::Decl(*v), loc);
                if let Some(init) = init {
                    let ty = self.p_local_ty(*v);
                    self.init(E::AddrLocal(*v), &ty, init, loc, true)?;
                }
            }
            StmtKind::Assign(l, r) => {
                if self.bit_member(l).is_some() {
                    let v = self.rv(r)?;
                    self.store(l, v, loc)?;
                } else {
                    let a = self.addr(l)?;
                    let v = self.rv(r)?;
                    self.emit(Mop::Store(a, v, l.ty.clone()), loc);
                }
            }
            StmtKind::Call { dest, callee, args } => {
                let c = self.rv(callee)?;
                let mut a = Vec::new();
                for x in args {
                    a.push(self.rv(x)?);
                }
                let tys = args.iter().map(|x| x.ty.clone()).collect();
                let r = dest.as_ref().map(|_| self.reg());
                self.emit(Mop::Call(r, c, a, tys), loc);
                if let (Some(d), Some(r)) = (dest, r) {
                    self.store(d, E::Reg(r), loc)?;
                }
            }
            StmtKind::Op { dest, op, args } => {
                let mut a = Vec::new();
                for x in args {
                    a.push(self.rv(x)?);
                }
                let tys: Vec<Ty> = args.iter().map(|x| x.ty.clone()).collect();
                let r = dest.as_ref().map(|_| self.reg());
                if matches!(*op, Op::CondWait | Op::CondTimedWait) {
                    // POSIX allows spurious wake-ups: wait = release, then
                    // a separate step that takes the lock again.
                    let state = self.reg();
                    let m = a[1].clone();
                    self.emit(Mop::Op(Some(state), *op, a, tys), loc);
                    self.emit(Mop::Relock(r, m, state), loc);
                } else if *op == Op::Word(WordOp::BarrierWait) {
                    let cycle = self.reg();
                    let b = a[0].clone();
                    self.emit(Mop::Op(Some(cycle), *op, a, tys), loc);
                    self.emit(Mop::BarrierPass(r, b, cycle), loc);
                } else {
                    self.emit(Mop::Op(r, *op, a, tys), loc);
                }
                if let (Some(d), Some(r)) = (dest, r) {
                    self.store(d, E::Reg(r), loc)?;
                }
            }
            StmtKind::If(c, t, e) => {
                let c = self.rv(c)?;
                let br = self.emit(Mop::Branch(c, u32::MAX, u32::MAX), loc);
                let then_pc = self.pc();
                if let Mop::Branch(_, t, _) = &mut self.ops[br].0 {
                    *t = then_pc;
                }
                self.block(t)?;
                if e.0.is_empty() {
                    let end = self.pc();
                    self.patch(br, end);
                } else {
                    let j = self.emit(Mop::Jump(u32::MAX), loc.generated());
                    let else_pc = self.pc();
                    self.patch(br, else_pc);
                    self.block(e)?;
                    let end = self.pc();
                    self.patch(j, end);
                }
            }
            StmtKind::Loop { body, latch, trips } => {
                let id = self.nloops;
                self.nloops += 1;
                self.emit(Mop::LoopEnter(id), loc);
                let head = self.pc();
                self.breaks.push(Vec::new());
                self.continues.push(Vec::new());
                let test = crate::ir::top_exit_test(body);
                for (i, s) in body.0.iter().enumerate() {
                    self.stmt(s)?;
                    if Some(i) == test {
                        self.emit(Mop::LoopGuard(id, *trips), s.loc);
                    }
                }
                let latch_pc = self.pc();
                for at in self.continues.pop().unwrap() {
                    self.patch(at, latch_pc);
                }
                // `break` in the latch leaves the loop too.
                self.continues.push(Vec::new());
                self.block(latch)?;
                let stray = self.continues.pop().unwrap();
                self.emit(Mop::BackEdge(id, head, test.is_some()), loc);
                let end = self.pc();
                for at in stray {
                    self.patch(at, latch_pc);
                }
                for at in self.breaks.pop().unwrap() {
                    self.patch(at, end);
                }
            }
            StmtKind::Break => {
                let at = self.emit(Mop::Jump(u32::MAX), loc);
                match self.breaks.last_mut() {
                    Some(v) => v.push(at),
                    None => return self.unsup("break outside a loop or switch", loc),
                }
            }
            StmtKind::Continue => {
                let at = self.emit(Mop::Jump(u32::MAX), loc);
                match self.continues.last_mut() {
                    Some(v) => v.push(at),
                    None => return self.unsup("continue outside a loop", loc),
                }
            }
            StmtKind::Switch(x, body) => {
                let xv = self.rv(x)?;
                let r = self.reg();
                self.emit(Mop::Set(r, xv), loc);
                let dispatch = self.emit(Mop::Jump(u32::MAX), loc);
                self.breaks.push(Vec::new());
                self.cases.push(Vec::new());
                self.block(body)?;
                let j_end = self.emit(Mop::Jump(u32::MAX), loc.generated());
                let cases = self.cases.pop().unwrap();
                // The dispatch chain: compare in order, default last.
                self.cur_lo = r;
                let chain = self.pc();
                self.patch(dispatch, chain);
                let mut default = None;
                // A case constant is converted to the controlling type
                // (C11 6.8.4.2p5): `case -1` on an unsigned value is
                // UINT_MAX.
                let bits = x.ty.int_bits(self.p.data_model).unwrap_or(64).min(127);
                let conv = |v: i128| {
                    let m = v & ((1i128 << bits) - 1);
                    if x.ty.is_signed() && m >> (bits - 1) & 1 == 1 {
                        m - (1i128 << bits)
                    } else {
                        m
                    }
                };
                for (pc, lab) in &cases {
                    let cond = match *lab {
                        CaseLabel::Default => {
                            default = Some(*pc);
                            continue;
                        }
                        CaseLabel::Value(v) => E::Bin(
                            BinOp::Eq,
                            Box::new(E::Reg(r)),
                            Box::new(E::Int(conv(v))),
                            x.ty.clone(),
                            x.ty.clone(),
                            Ty::INT,
                        ),
                        CaseLabel::Range(a, b) => E::Bin(
                            BinOp::LogAnd,
                            Box::new(E::Bin(
                                BinOp::Ge,
                                Box::new(E::Reg(r)),
                                Box::new(E::Int(conv(a))),
                                x.ty.clone(),
                                x.ty.clone(),
                                Ty::INT,
                            )),
                            Box::new(E::Bin(
                                BinOp::Le,
                                Box::new(E::Reg(r)),
                                Box::new(E::Int(conv(b))),
                                x.ty.clone(),
                                x.ty.clone(),
                                Ty::INT,
                            )),
                            Ty::INT,
                            Ty::INT,
                            Ty::INT,
                        ),
                    };
                    let next = self.pc() + 1;
                    self.emit(Mop::Branch(cond, *pc, next), loc.generated());
                }
                let j = self.emit(Mop::Jump(u32::MAX), loc.generated());
                let end = self.pc();
                self.patch(j, default.unwrap_or(end));
                self.patch(j_end, end);
                for at in self.breaks.pop().unwrap() {
                    self.patch(at, end);
                }
            }
            StmtKind::Case(lab) => {
                let pc = self.pc();
                match self.cases.last_mut() {
                    Some(v) => v.push((pc, *lab)),
                    None => return self.unsup("case label outside a switch", loc),
                }
            }
            StmtKind::Label(l) => {
                let pc = self.pc();
                self.label_pc.insert(*l, pc);
            }
            StmtKind::Goto(l) => {
                let at = self.emit(Mop::Jump(u32::MAX), loc);
                self.gotos.push((at, *l));
            }
            StmtKind::Return(e) => {
                let v = match e {
                    Some(e) => Some(self.rv(e)?),
                    None => None,
                };
                self.emit(Mop::Ret(v), loc);
            }
            StmtKind::Block(b) => self.block(b)?,
            StmtKind::Assert(c, k) => {
                let c = self.rv(c)?;
                self.emit(Mop::Assert(c, *k), loc);
            }
            StmtKind::Assume(c) => {
                let c = self.rv(c)?;
                self.emit(Mop::Assume(c), loc);
            }
        }
        Ok(())
    }

    fn p_local_ty(&self, v: LocalId) -> Ty {
        self.f.local(v).ty.clone()
    }

    fn unsup<T>(&self, what: &str, loc: Loc) -> R<T> {
        Err(Unsupported {
            what: what.to_string(),
            loc,
        })
    }

    /// Stores an initialiser at `at` (an address of an object of type `ty`).
    fn init(&mut self, at: E, ty: &Ty, init: &Init, loc: Loc, top: bool) -> R<()> {
        // A key is a value (`pthread_key_t k = b;` copies b's number).
        let key_value =
            matches!(init, Init::Expr(_)) && *ty.unqual() == Ty::Pthread(PthreadTy::Key);
        if let Ty::Pthread(p) = ty.unqual()
            && *p != PthreadTy::Thread
            && !key_value
        {
            // PTHREAD_*_INITIALIZER: the zero state; a mutex's kind.
            let n = self.size(ty, loc)?;
            self.emit(Mop::Zero(at.clone(), n), loc);
            if let Init::Expr(e) = init
                && let Some(k) = crate::ir::build::const_of(e)
            {
                let kind = E::Offset(Box::new(at), super::machine::MX_KIND);
                self.emit(Mop::Store(kind, E::Int(k), Ty::INT), loc);
            }
            return Ok(());
        }
        match init {
            Init::Expr(e) => {
                let v = self.rv(e)?;
                self.emit(Mop::Store(at, v, ty.clone()), loc);
            }
            Init::Str(bytes) => {
                let n = self.p.size_of(ty).unwrap_or(bytes.len() as u64);
                if top {
                    self.emit(Mop::Zero(at.clone(), n), loc);
                }
                for (i, b) in bytes.iter().enumerate() {
                    if (i as u64) < n && *b != 0 {
                        self.emit(
                            Mop::Store(
                                E::Offset(Box::new(at.clone()), i as i64),
                                E::Int(*b as i8 as i128),
                                Ty::CHAR,
                            ),
                            loc,
                        );
                    }
                }
            }
            Init::Array(items) => {
                let Ty::Array(elem, _) = ty.unqual() else {
                    return self.unsup("array initialiser for a non-array", loc);
                };
                if top {
                    let n = self.size(ty, loc)?;
                    self.emit(Mop::Zero(at.clone(), n), loc);
                }
                let es = self.size(elem, loc)?;
                for (i, it) in items {
                    let a = E::Offset(Box::new(at.clone()), (*i * es) as i64);
                    self.init(a, elem, it, loc, false)?;
                }
            }
            Init::Comp(items) => {
                let Ty::Comp(c) = ty.unqual() else {
                    return self.unsup("struct initialiser for a non-struct", loc);
                };
                if top {
                    let n = self.size(ty, loc)?;
                    self.emit(Mop::Zero(at.clone(), n), loc);
                }
                let (offs, _, _) = self.p.comp_layout(*c).ok_or(Unsupported {
                    what: "initialiser of an incomplete struct".into(),
                    loc,
                })?;
                let def = self.p.comp(*c);
                for (fi, it) in items {
                    let f = &def.fields[*fi as usize];
                    if let Some(bf) = self.p.bit_field(*c, *fi) {
                        let Init::Expr(e) = it else {
                            return self.unsup("a bit-field's braced initialiser", loc);
                        };
                        let a = E::Offset(Box::new(at.clone()), bf.byte as i64);
                        let bits = Bits {
                            at: bf,
                            ty: f.ty.clone(),
                            comp: *c,
                            field: *fi,
                        };
                        let v = self.rv(e)?;
                        self.emit(Mop::StoreBits(a, v, bits), loc);
                        continue;
                    }
                    if f.bit_width.is_some() {
                        // A zero-width bit-field has no value.
                        continue;
                    }
                    let a = E::Offset(Box::new(at.clone()), offs[*fi as usize] as i64);
                    let fty = f.ty.clone();
                    self.init(a, &fty, it, loc, false)?;
                }
            }
        }
        Ok(())
    }

    fn size(&self, t: &Ty, loc: Loc) -> R<u64> {
        self.p.size_of(t).ok_or(Unsupported {
            what: "an object of incomplete type".into(),
            loc,
        })
    }

    /// The place of `e` if it is a bit-field member.
    fn bit_member(&self, e: &Expr) -> Option<Bits> {
        let ExprKind::Member(b, i) = &e.kind else {
            return None;
        };
        let Ty::Comp(c) = b.ty.unqual() else {
            return None;
        };
        Some(Bits {
            at: self.p.bit_field(*c, *i)?,
            ty: e.ty.clone(),
            comp: *c,
            field: *i,
        })
    }

    /// `l = v` for an lvalue `l`, a bit-field included.
    fn store(&mut self, l: &Expr, v: E, loc: Loc) -> R<()> {
        if let (Some(bf), ExprKind::Member(b, _)) = (self.bit_member(l), &l.kind) {
            let base = self.addr(b)?;
            let a = E::Offset(Box::new(base), bf.at.byte as i64);
            self.emit(Mop::StoreBits(a, v, bf), loc);
        } else {
            let a = self.addr(l)?;
            self.emit(Mop::Store(a, v, l.ty.clone()), loc);
        }
        Ok(())
    }

    /// The address of an lvalue; reads on the way become `Load`s.
    fn addr(&mut self, e: &Expr) -> R<E> {
        Ok(match &e.kind {
            ExprKind::Local(v) => E::AddrLocal(*v),
            ExprKind::Global(g) => E::AddrGlobal(*g),
            ExprKind::Deref(p) => self.rv(p)?,
            ExprKind::Member(b, i) => {
                let base = self.addr(b)?;
                let Ty::Comp(c) = b.ty.unqual() else {
                    return self.unsup("member of a non-struct", e.loc);
                };
                let def = self.p.comp(*c);
                if def.fields[*i as usize].bit_width.is_some() {
                    return self.unsup("bit-fields", e.loc);
                }
                let (offs, _, _) = self.p.comp_layout(*c).ok_or(Unsupported {
                    what: "member of an incomplete struct".into(),
                    loc: e.loc,
                })?;
                E::Offset(Box::new(base), offs[*i as usize] as i64)
            }
            ExprKind::Index(a, i) => {
                let base = self.addr(a)?;
                let iv = self.rv(i)?;
                let es = self.size(&e.ty, e.loc)?;
                E::Index(Box::new(base), Box::new(iv), i.ty.clone(), es)
            }
            ExprKind::Str(bytes) => {
                self.strings.push(bytes.clone());
                E::AddrStr(self.strings.len() as u32 - 1)
            }
            ExprKind::Func(f) => E::Func(*f),
            _ => return self.unsup("address of a non-lvalue", e.loc),
        })
    }

    /// The value of an expression.
    fn rv(&mut self, e: &Expr) -> R<E> {
        let loc = e.loc;
        Ok(match &e.kind {
            ExprKind::Int(v) => E::Int(*v),
            ExprKind::Float(s) => match float_constant(s, &e.ty) {
                Some(v) => E::Float(v),
                None => return self.unsup("this floating constant", loc),
            },
            ExprKind::Func(f) => E::Func(*f),
            ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..) => {
                if matches!(e.ty.unqual(), Ty::Func(_)) {
                    return self.addr(e);
                }
                if let (Some(bf), ExprKind::Member(b, _)) = (self.bit_member(e), &e.kind) {
                    let base = self.addr(b)?;
                    let a = E::Offset(Box::new(base), bf.at.byte as i64);
                    let r = self.reg();
                    self.emit(Mop::LoadBits(r, a, bf), loc);
                    return Ok(E::Reg(r));
                }
                let a = self.addr(e)?;
                let r = self.reg();
                self.emit(Mop::Load(r, a, e.ty.clone()), loc);
                E::Reg(r)
            }
            ExprKind::Str(_) => self.addr(e)?,
            ExprKind::Unary(op, a) => {
                let x = self.rv(a)?;
                let u = E::Un(*op, Box::new(x), a.ty.clone(), e.ty.clone());
                if *op == UnOp::Neg {
                    E::At(Box::new(u), loc)
                } else {
                    u
                }
            }
            ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) => {
                let r = self.reg();
                let x = self.rv(a)?;
                let short = if *op == BinOp::LogAnd { 0 } else { 1 };
                let br = self.emit(Mop::Branch(x, u32::MAX, u32::MAX), loc);
                // true branch of && / false branch of || evaluates b.
                let eval_b = self.pc();
                let y = self.rv(b)?;
                let yb = E::Un(
                    UnOp::LogNot,
                    Box::new(E::Un(UnOp::LogNot, Box::new(y), b.ty.clone(), Ty::INT)),
                    Ty::INT,
                    Ty::INT,
                );
                self.emit(Mop::Set(r, yb), loc);
                let j = self.emit(Mop::Jump(u32::MAX), loc);
                let short_pc = self.pc();
                self.emit(Mop::Set(r, E::Int(short)), loc);
                let end = self.pc();
                self.patch(j, end);
                if let Mop::Branch(_, t, f) = &mut self.ops[br].0 {
                    if *op == BinOp::LogAnd {
                        *t = eval_b;
                        *f = short_pc;
                    } else {
                        *t = short_pc;
                        *f = eval_b;
                    }
                }
                E::Reg(r)
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.rv(a)?;
                let y = self.rv(b)?;
                let v = E::Bin(
                    *op,
                    Box::new(x),
                    Box::new(y),
                    a.ty.clone(),
                    b.ty.clone(),
                    e.ty.clone(),
                );
                // An arithmetic operation may overflow: where it is written.
                use BinOp::*;
                if matches!(op, Add | Sub | Mul | Div | Rem | Shl) {
                    E::At(Box::new(v), loc)
                } else {
                    v
                }
            }
            ExprKind::Cast(a) => {
                let x = self.rv(a)?;
                let c = E::Cast(Box::new(x), a.ty.clone(), e.ty.clone());
                // A floating value made an integer may not fit.
                if matches!(a.ty.unqual(), Ty::Float(_)) {
                    E::At(Box::new(c), loc)
                } else {
                    c
                }
            }
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => self.addr(a)?,
            ExprKind::Cond(c, a, b) => {
                let r = self.reg();
                let cv = self.rv(c)?;
                let br = self.emit(Mop::Branch(cv, u32::MAX, u32::MAX), loc);
                let t_pc = self.pc();
                let x = self.rv(a)?;
                self.emit(
                    Mop::Set(r, E::Cast(Box::new(x), a.ty.clone(), e.ty.clone())),
                    loc,
                );
                let j = self.emit(Mop::Jump(u32::MAX), loc);
                let f_pc = self.pc();
                let y = self.rv(b)?;
                self.emit(
                    Mop::Set(r, E::Cast(Box::new(y), b.ty.clone(), e.ty.clone())),
                    loc,
                );
                let end = self.pc();
                self.patch(j, end);
                if let Mop::Branch(_, t, f) = &mut self.ops[br].0 {
                    *t = t_pc;
                    *f = f_pc;
                }
                E::Reg(r)
            }
            ExprKind::Nondet => E::Nondet(e.ty.clone()),
        })
    }
}

/// A floating constant's value: the decimal rounded once to its type (a
/// `float` constant rounded through `double` is off by one place on
/// some decimals, 7.038531e-26f say).
pub(super) fn float_constant(text: &str, ty: &Ty) -> Option<f64> {
    let t = text.trim_end_matches(['f', 'F', 'l', 'L']);
    if matches!(ty.unqual(), Ty::Float(FloatKind::Float)) {
        t.parse::<f32>().ok().map(f64::from)
    } else {
        t.parse::<f64>().ok()
    }
}
