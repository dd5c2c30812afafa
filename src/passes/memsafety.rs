//! `--property memsafety`: a check before every access that may be
//! invalid and before every `free` (SV-COMP's valid-deref and
//! valid-free; valid-memtrack is not checked).
//!
//! Pre: normalised IR (outside atomic code a statement makes at most one
//! visible access, and the pointer an access goes through is read from
//! locals). Post: the same program with
//! - a table of the heap objects made so far (`__seqcm_heap*`, not `__seqc_`-named bookkeeping: start,
//!   size in bytes, live flag, count; shared memory like any global, so
//!   the sequentializations give it round copies), filled by every
//!   `malloc`/`calloc` in the same atomic step as the allocation;
//! - before each access `*a` of `s` bytes, `Assert(.., InvalidDeref)`
//!   saying: the pointer the access goes through is not null, and if `a`
//!   lies in `[start - GAP, start + size]` of a table entry, that entry is
//!   live and `start <= a` and `a + s <= start + size`; for an access into a named array
//!   object (`g[i]`, `l[i][j]`, a string literal), that the offset lies
//!   inside the object;
//! - before each `free(p)`, `Assert(.., InvalidFree)` saying `p` is null
//!   or the start of a live table entry, and the entry dies with it.
//!
//! Checks stand at the place the oracle reports the access: a read at the
//! lvalue it reads, a write at its statement. Outside atomic code a
//! statement with a check becomes an atomic section holding its checks
//! and itself, so a check sees the memory its access sees; an expression
//! of a statement with blocks of its own (`if`, `return`, `assume`) is
//! computed into a temporary first. In a function that may run inside
//! atomic code, the checks stand before the statement as plain
//! statements: a failing check is still a
//! real violation, because nothing makes a dead object live again or a
//! null pointer valid, and the access is the thread's next step.
//!
//! Why a failed check is a real violation (rule 1): a pointer into an
//! entry's range `[start - GAP, start + size]` is one made from that
//! object, because every heap object has `GAP` bytes before it and after
//! it that no other object uses (`Program::heap_gap`: Lal–Reps pads the
//! slots of its pools; the SMT route leaves 16 bytes between objects of
//! its own, and CBMC's integer image of a pointer keeps the object in
//! its high bits), and no address is used twice. Addresses are compared
//! as integers (`(unsigned long)p`), which every back end gives one
//! consistent value per object and offset.
//!
//! What it does not see (hides only; the README says so): accesses
//! through pointers to globals, locals or string literals that leave
//! their object, uses of a local after its scope ended, a pointer made
//! from an integer, accesses inside an inner array of a struct (C11
//! calls them invalid too, the oracle does not), the operations of
//! pthreads on objects through pointers, and every heap object past the
//! first `HEAP_TABLE` of a run, or past one per allocation statement,
//! loop iteration and thread (the allocation stops its thread).

use crate::diag::{Diagnostic, Result};
use crate::ir::build::*;
use crate::ir::*;
use std::collections::HashSet;

/// At most this many heap objects in a run's table.
pub const HEAP_TABLE: u32 = 16;

/// Bytes before and after every heap object that no other object uses
/// (`Program::heap_gap`): an access that starts up to this far before an
/// object is seen as before its start.
pub const GAP: u64 = 16;

/// The names of the table's globals.
const HEAP: &str = "__seqcm_heap";
const HEAP_SIZE: &str = "__seqcm_heap_size";
const HEAP_LIVE: &str = "__seqcm_heap_live";
const HEAP_COUNT: &str = "__seqcm_heap_n";

/// The table's globals.
#[derive(Clone, Copy)]
pub(super) struct Table {
    pub(super) start: GlobalId,
    pub(super) size: GlobalId,
    pub(super) live: GlobalId,
    pub(super) count: GlobalId,
    pub(super) n: u32,
}

impl Table {
    /// The table this pass added to `p`, if it added one
    /// (`passes::memtrack` reads it).
    pub(super) fn find(p: &Program) -> Option<Table> {
        let id = |name: &str| {
            p.globals
                .iter()
                .position(|g| g.name == name)
                .map(|i| GlobalId(i as u32))
        };
        let start = id(HEAP)?;
        let n = match &p.global(start).ty {
            Ty::Array(_, Some(n)) => u32::try_from(*n).ok()?,
            _ => return None,
        };
        Some(Table {
            start,
            size: id(HEAP_SIZE)?,
            live: id(HEAP_LIVE)?,
            count: id(HEAP_COUNT)?,
            n,
        })
    }
}

/// `threads` and `unwind` are the run's bounds: the table holds an
/// object for every allocation statement run once per loop iteration in
/// each thread a site may make (at most `HEAP_TABLE`); an allocation past
/// them stops its thread (a bound cut, like the others).
///
/// `on`: make the checks; without, only the table (`passes::memtrack`
/// reads it).
pub fn memsafety(mut p: Program, threads: u32, unwind: u32, on: bool) -> Result<Program> {
    let mut sites = 0u32;
    for f in &p.functions {
        if let Some(b) = &f.body {
            b.walk(&mut |s| {
                sites += matches!(
                    s.kind,
                    StmtKind::Op {
                        op: Op::Malloc | Op::Calloc,
                        ..
                    }
                ) as u32
            });
        }
    }
    let n = sites
        .saturating_mul(threads.max(1))
        .saturating_mul(unwind.max(1))
        .min(HEAP_TABLE);
    let table = (sites > 0).then(|| add_table(&mut p, n));
    p.heap_gap = GAP;
    let (maybe_atomic, plain) = contexts(&p);
    // Sections that do not begin and end in one block (a helper that only
    // begins one, a `break` or `return` out of one) defeat the call scan:
    // then any code may run atomically.
    let structured = structured(&p);
    let mut funcs = std::mem::take(&mut p.functions);
    let mut err = None;
    for (i, f) in funcs.iter_mut().enumerate() {
        let Some(body) = f.body.take() else { continue };
        let fid = FuncId(i as u32);
        let inside = f.atomic || maybe_atomic.contains(&fid) || !structured;
        let both = !structured || plain.contains(&fid);
        if inside && !f.atomic && both && allocates(&body) {
            let mut d = Diagnostic::unsupported(if structured {
                "malloc, calloc or free in a function called both inside and outside atomic code, with --property memsafety"
            } else {
                "malloc, calloc or free in a program whose atomic sections do not begin and end in one block, with --property memsafety"
            });
            d.pos = Some((p.file_name(f.loc.file).to_string(), f.loc.line, f.loc.col));
            err.get_or_insert(d);
        }
        let mut cx = Cx {
            p: &p,
            table,
            locals: &mut f.locals,
            may_wrap: !inside,
            on,
        };
        f.body = Some(cx.block(body, f.atomic));
    }
    p.functions = funcs;
    match err {
        Some(e) => Err(e),
        None => Ok(p),
    }
}

/// Every atomic section of the program begins and ends in one block
/// (`sections_nest`).
pub(super) fn structured(p: &Program) -> bool {
    p.functions.iter().all(|f| {
        f.body
            .as_ref()
            .is_none_or(|b| sections_nest(b, false, false))
    })
}

fn allocates(b: &Block) -> bool {
    let mut any = false;
    b.walk(&mut |s| {
        any |= matches!(
            s.kind,
            StmtKind::Op {
                op: Op::Malloc | Op::Calloc | Op::Free,
                ..
            }
        )
    });
    any
}

fn add_table(p: &mut Program, n: u32) -> Table {
    let mut add = |name: &str, ty: Ty| {
        p.globals.push(Global {
            name: name.into(),
            ty,
            init: None,
            storage: Storage::Static,
            thread_local: false,
            loc: Loc::NONE,
        });
        GlobalId(p.globals.len() as u32 - 1)
    };
    let arr = |t: Ty| Ty::Array(Box::new(t), Some(n as u64));
    Table {
        start: add(HEAP, arr(Ty::Void.ptr())),
        size: add(HEAP_SIZE, arr(Ty::ULONG)),
        live: add(HEAP_LIVE, arr(Ty::Int(IntKind::UChar))),
        count: add(HEAP_COUNT, Ty::UINT),
        n,
    }
}

/// The functions that may run inside atomic code (atomic functions and
/// everything they or an atomic section call), and those that may run
/// outside it.
fn contexts(p: &Program) -> (HashSet<FuncId>, HashSet<FuncId>) {
    // Every function used as a value (a start routine, a pointer stored
    // anywhere): a call through a pointer may reach any of them.
    let taken: Vec<FuncId> = {
        let mut t = HashSet::new();
        for f in &p.functions {
            if let Some(b) = &f.body {
                b.walk(&mut |s| {
                    let mut see = |e: &Expr| {
                        e.walk(&mut |x| {
                            if let ExprKind::Func(g) = x.kind {
                                t.insert(g);
                            }
                        })
                    };
                    match &s.kind {
                        // A direct call's callee is no value.
                        StmtKind::Call { dest, callee, args } => {
                            if !matches!(strip_cast(callee).kind, ExprKind::Func(_)) {
                                see(callee);
                            }
                            dest.iter().chain(args).for_each(&mut see);
                        }
                        _ => s.each_expr(&mut see),
                    }
                });
            }
        }
        for g in &p.globals {
            if let Some(i) = &g.init {
                i.each_expr(&mut |e| {
                    e.walk(&mut |x| {
                        if let ExprKind::Func(f) = x.kind {
                            t.insert(f);
                        }
                    })
                });
            }
        }
        let mut v: Vec<FuncId> = t.into_iter().collect();
        v.sort();
        v
    };
    // Calls a block makes, split by whether they run inside atomic code.
    let calls = |b: &Block, start_atomic: bool| {
        let (mut inside, mut outside) = (Vec::new(), Vec::new());
        scan(b, start_atomic, &taken, &mut inside, &mut outside);
        (inside, outside)
    };
    let mut maybe = HashSet::new();
    let mut plain = HashSet::new();
    let mut work: Vec<(FuncId, bool)> = Vec::new();
    for (i, f) in p.functions.iter().enumerate() {
        let fid = FuncId(i as u32);
        if f.atomic {
            work.push((fid, true));
        }
        if f.name == "main" || taken.contains(&fid) {
            work.push((fid, f.atomic));
        }
    }
    while let Some((f, atomic)) = work.pop() {
        let set = if atomic { &mut maybe } else { &mut plain };
        if !set.insert(f) {
            continue;
        }
        let func = &p.functions[f.index()];
        let Some(b) = &func.body else { continue };
        let (inside, outside) = calls(b, atomic || func.atomic);
        work.extend(inside.into_iter().map(|g| (g, true)));
        work.extend(outside.into_iter().map(|g| (g, false)));
    }
    (maybe, plain)
}

fn scan(
    b: &Block,
    mut atomic: bool,
    taken: &[FuncId],
    inside: &mut Vec<FuncId>,
    outside: &mut Vec<FuncId>,
) {
    let outer = atomic;
    let mut depth = 0u32;
    for s in &b.0 {
        step_depth(s, &mut depth);
        atomic = outer || depth > 0;
        let to = if atomic { &mut *inside } else { &mut *outside };
        match &s.kind {
            StmtKind::Call { callee, .. } => match strip_cast(callee).kind {
                ExprKind::Func(g) => to.push(g),
                // Through a pointer: any function whose address is taken.
                _ => to.extend(taken.iter().copied()),
            },
            // An operation may run a function it is given where it stands
            // (`pthread_once`'s routine).
            StmtKind::Op { args, .. } => {
                for a in args {
                    if let ExprKind::Func(g) = strip_cast(a).kind {
                        to.push(g);
                    }
                }
            }
            _ => {}
        }
        each_block(s, &mut |blk| scan(blk, atomic, taken, inside, outside));
    }
}

/// Whether every atomic section in `b` begins and ends in one block and
/// is left only at its end: no `return`, `goto` or label inside one, and
/// no `break` or `continue` out of a loop the section began in. `inside`:
/// a section is open around `b`; `at_loop`: one was open where the
/// innermost loop around `b` began.
fn sections_nest(b: &Block, inside: bool, at_loop: bool) -> bool {
    let mut depth = 0u32;
    for s in &b.0 {
        if matches!(
            s.kind,
            StmtKind::Op {
                op: Op::AtomicEnd,
                ..
            }
        ) && depth == 0
        {
            return false;
        }
        step_depth(s, &mut depth);
        let open = inside || depth > 0;
        let leaves = match s.kind {
            StmtKind::Return(_) | StmtKind::Goto(_) | StmtKind::Label(_) => open,
            StmtKind::Break | StmtKind::Continue => open && !at_loop,
            _ => false,
        };
        if leaves {
            return false;
        }
        let nested_ok = match &s.kind {
            StmtKind::Loop { body, latch, .. } => {
                sections_nest(body, open, open) && sections_nest(latch, open, open)
            }
            StmtKind::If(_, x, y) => {
                sections_nest(x, open, at_loop) && sections_nest(y, open, at_loop)
            }
            // A `break` leaves a switch, a `continue` its loop.
            StmtKind::Switch(_, x) => sections_nest(x, open, open && at_loop),
            StmtKind::Block(x) => sections_nest(x, open, at_loop),
            _ => true,
        };
        if !nested_ok {
            return false;
        }
    }
    depth == 0
}

/// The depth of the atomic sections a block opens, over statement `s`
/// (`__VERIFIER_atomic_begin` is inside its section, `_end` outside).
fn step_depth(s: &Stmt, depth: &mut u32) {
    match &s.kind {
        StmtKind::Op {
            op: Op::AtomicBegin,
            ..
        } => *depth += 1,
        StmtKind::Op {
            op: Op::AtomicEnd, ..
        } => *depth = depth.saturating_sub(1),
        _ => {}
    }
}

fn each_block(s: &Stmt, f: &mut impl FnMut(&Block)) {
    match &s.kind {
        StmtKind::If(_, a, b) => {
            f(a);
            f(b);
        }
        StmtKind::Loop { body, latch, .. } => {
            f(body);
            f(latch);
        }
        StmtKind::Switch(_, b) | StmtKind::Block(b) => f(b),
        _ => {}
    }
}

struct Cx<'a> {
    p: &'a Program,
    table: Option<Table>,
    locals: &'a mut Vec<Local>,
    /// The function never runs inside atomic code: a statement may become
    /// an atomic section of its own.
    may_wrap: bool,
    /// Checks are made (not only the table).
    on: bool,
}

/// One access a statement makes: the lvalue, where the oracle reports
/// it, and the condition under which it is made (inside `&&`, `||`,
/// `?:`).
struct Access {
    lv: Expr,
    loc: Loc,
    guard: Option<Expr>,
}

impl Cx<'_> {
    fn block(&mut self, b: Block, atomic: bool) -> Block {
        let mut out = Vec::new();
        let mut depth = 0u32;
        for s in b.0 {
            step_depth(&s, &mut depth);
            let inside = atomic || depth > 0;
            self.stmt(s, inside, &mut out);
        }
        Block(out)
    }

    /// A temporary declared (without a value) at the end of `out`.
    fn declared(&mut self, ty: &Ty, loc: Loc, out: &mut Vec<Stmt>) -> Expr {
        let t = self.temp(ty, loc);
        if let ExprKind::Local(v) = t.kind {
            out.push(st(StmtKind::Decl(v, None), loc.generated()));
        }
        t
    }

    fn temp(&mut self, ty: &Ty, loc: Loc) -> Expr {
        let name = format!("__seqc_m{}", self.locals.len());
        let ty = ty.unqual().clone();
        self.locals.push(Local {
            name,
            ty: ty.clone(),
            loc: loc.generated(),
            temp: true,
        });
        let v = LocalId(self.locals.len() as u32 - 1);
        Expr::new(ExprKind::Local(v), ty, loc.generated())
    }

    fn stmt(&mut self, mut s: Stmt, inside: bool, out: &mut Vec<Stmt>) {
        let loc = s.loc;
        // Nested blocks first, with the atomic context they run in.
        match &mut s.kind {
            StmtKind::If(_, a, b) => {
                *a = self.block(std::mem::take(a), inside);
                *b = self.block(std::mem::take(b), inside);
            }
            StmtKind::Loop { body, latch, .. } => {
                *body = self.block(std::mem::take(body), inside);
                *latch = self.block(std::mem::take(latch), inside);
            }
            StmtKind::Switch(_, b) | StmtKind::Block(b) => {
                *b = self.block(std::mem::take(b), inside);
            }
            _ => {}
        }
        let wrap = self.may_wrap && !inside;
        match s.kind {
            // Statements whose own expressions are all evaluated before
            // their blocks run: compute the expression into a temporary
            // when it makes an access.
            StmtKind::If(c, a, b) => {
                let c = self.hoisted(c, wrap, out);
                out.push(st(StmtKind::If(c, a, b), loc));
            }
            StmtKind::Switch(c, b) => {
                let c = self.hoisted(c, wrap, out);
                out.push(st(StmtKind::Switch(c, b), loc));
            }
            StmtKind::Return(Some(e)) => {
                let e = self.hoisted(e, wrap, out);
                out.push(st(StmtKind::Return(Some(e)), loc));
            }
            StmtKind::Assert(e, k) => {
                let e = self.hoisted(e, wrap, out);
                out.push(st(StmtKind::Assert(e, k), loc));
            }
            StmtKind::Assume(e) => {
                let e = self.hoisted(e, wrap, out);
                out.push(st(StmtKind::Assume(e), loc));
            }
            StmtKind::Call { dest, callee, args } => {
                let callee = self.hoisted(callee, wrap, out);
                let args = args
                    .into_iter()
                    .map(|a| self.hoisted(a, wrap, out))
                    .collect();
                // The result is stored after the call returns.
                match dest {
                    Some(d) if self.access_ok(&d, loc).is_some() => {
                        let t = self.declared(&d.ty, loc, out);
                        out.push(st(
                            StmtKind::Call {
                                dest: Some(t.clone()),
                                callee,
                                args,
                            },
                            loc,
                        ));
                        self.stmt(st(StmtKind::Assign(d, t), loc), inside, out);
                    }
                    dest => out.push(st(StmtKind::Call { dest, callee, args }, loc)),
                }
            }
            StmtKind::Op { dest, op, args } => self.op(dest, op, args, loc, inside, out),
            kind @ (StmtKind::Assign(..) | StmtKind::Decl(..)) => {
                let s = st(kind, loc);
                let mut acc = Vec::new();
                match &s.kind {
                    StmtKind::Assign(l, r) => {
                        addr_reads(l, None, &mut acc);
                        reads(r, None, &mut acc);
                        acc.extend(self.accesses_of_write(l, loc));
                    }
                    StmtKind::Decl(_, Some(init)) => init_reads(init, &mut acc),
                    _ => {}
                }
                let checks = self.checks(&acc);
                self.emit(checks, vec![s], wrap, out);
            }
            kind => out.push(st(kind, loc)),
        }
    }

    /// The write to lvalue `l` at statement place `loc`, if it is one
    /// that is checked.
    fn accesses_of_write(&self, l: &Expr, loc: Loc) -> Vec<Access> {
        match path(self.p, l) {
            Some(_) => vec![Access {
                lv: l.clone(),
                loc,
                guard: None,
            }],
            None => vec![],
        }
    }

    /// `e`, or a temporary computed from it (with its checks, in one
    /// step) when `e` makes a checked access.
    fn hoisted(&mut self, e: Expr, wrap: bool, out: &mut Vec<Stmt>) -> Expr {
        let mut acc = Vec::new();
        reads(&e, None, &mut acc);
        let checks = self.checks(&acc);
        if checks.is_empty() {
            return e;
        }
        let loc = e.loc;
        let t = self.temp(&e.ty, loc);
        let ExprKind::Local(v) = t.kind else {
            unreachable!()
        };
        let decl = st(StmtKind::Decl(v, Some(Init::Expr(e))), loc);
        self.emit(checks, vec![decl], wrap, out);
        t
    }

    /// `checks` then `body`, as one atomic section when `wrap`.
    fn emit(&self, checks: Vec<Stmt>, body: Vec<Stmt>, wrap: bool, out: &mut Vec<Stmt>) {
        self.section(checks, body, wrap, false, out);
    }

    /// `emit`, as one atomic section even without checks.
    fn emit_forced(&self, checks: Vec<Stmt>, body: Vec<Stmt>, wrap: bool, out: &mut Vec<Stmt>) {
        self.section(checks, body, wrap, true, out);
    }

    fn section(
        &self,
        checks: Vec<Stmt>,
        body: Vec<Stmt>,
        wrap: bool,
        force: bool,
        out: &mut Vec<Stmt>,
    ) {
        let checks: Vec<Stmt> = match self.on {
            true => checks,
            false => checks
                .into_iter()
                .filter(|s| !matches!(s.kind, StmtKind::Assert(..)))
                .collect(),
        };
        if checks.is_empty() && !force {
            out.extend(body);
            return;
        }
        let loc = body.first().map_or(Loc::NONE, |s| s.loc);
        let op = |op| bare_op(op, loc);
        if wrap {
            out.push(op(Op::AtomicBegin));
        }
        out.extend(checks);
        out.extend(body);
        if wrap {
            out.push(op(Op::AtomicEnd));
        }
    }

    fn op(
        &mut self,
        dest: Option<Expr>,
        op: Op,
        args: Vec<Expr>,
        loc: Loc,
        inside: bool,
        out: &mut Vec<Stmt>,
    ) {
        let wrap = self.may_wrap && !inside;
        let mut acc = Vec::new();
        for a in &args {
            reads(a, None, &mut acc);
        }
        let mut checks = self.checks(&acc);
        let mut after = Vec::new();
        let ul = |e: &Expr| cast(e.clone(), Ty::ULONG, loc);
        match op {
            Op::Malloc | Op::Calloc => {
                if let Some(t) = self.table {
                    let ty = dest.as_ref().map_or(Ty::Void.ptr(), |d| d.ty.clone());
                    // The result goes through a temporary when the program
                    // drops it or stores it through a pointer (a write
                    // with a check of its own, after the allocation).
                    let (d, store) = match &dest {
                        Some(d) if self.access_ok(d, loc).is_none() => (d.clone(), None),
                        Some(d) => {
                            let tmp = self.declared(&ty, loc, out);
                            (tmp.clone(), Some(st(StmtKind::Assign(d.clone(), tmp), loc)))
                        }
                        None => (self.declared(&ty, loc, out), None),
                    };
                    let size = match op {
                        Op::Malloc => ul(&args[0]),
                        _ => bin(BinOp::Mul, ul(&args[0]), ul(&args[1]), Ty::ULONG, loc),
                    };
                    let n = glob(self.p, t.count, loc);
                    // A full table stops the thread before it allocates.
                    checks.push(st(
                        StmtKind::Assume(cmp(
                            BinOp::Lt,
                            n.clone(),
                            int(t.n as i128, Ty::UINT, loc),
                            loc,
                        )),
                        loc,
                    ));
                    let at = |g: GlobalId| index(glob(self.p, g, loc), n.clone(), loc);
                    after.push(assign(
                        at(t.start),
                        cast(d.clone(), Ty::Void.ptr(), loc),
                        loc,
                    ));
                    after.push(assign(at(t.size), size, loc));
                    after.push(assign(
                        at(t.live),
                        int(1, Ty::Int(IntKind::UChar), loc),
                        loc,
                    ));
                    after.push(assign(
                        n.clone(),
                        bin(BinOp::Add, n, int(1, Ty::UINT, loc), Ty::UINT, loc),
                        loc,
                    ));
                    let body = st(
                        StmtKind::Op {
                            dest: Some(d),
                            op,
                            args,
                        },
                        loc,
                    );
                    let mut all = vec![body];
                    all.extend(after);
                    // Always one step with the allocation, checks or not.
                    self.emit_forced(checks, all, wrap, out);
                    if let Some(s) = store {
                        self.stmt(s, inside, out);
                    }
                    return;
                }
            }
            Op::Free => {
                let ptr = ul(&args[0]);
                let zero = int(0, Ty::ULONG, loc);
                let mut ok = cmp(BinOp::Eq, ptr.clone(), zero, loc);
                if let Some(t) = self.table {
                    for i in 0..t.n {
                        let at = |g: GlobalId| {
                            index(glob(self.p, g, loc), int(i as i128, Ty::UINT, loc), loc)
                        };
                        let here = and(
                            cmp(
                                BinOp::Lt,
                                int(i as i128, Ty::UINT, loc),
                                glob(self.p, t.count, loc),
                                loc,
                            ),
                            cmp(BinOp::Eq, ul(&at(t.start)), ptr.clone(), loc),
                            loc,
                        );
                        let live = cmp(
                            BinOp::Ne,
                            at(t.live),
                            int(0, Ty::Int(IntKind::UChar), loc),
                            loc,
                        );
                        ok = or(ok, and(here.clone(), live, loc), loc);
                        after.push(if_(
                            here,
                            vec![assign(
                                at(t.live),
                                int(0, Ty::Int(IntKind::UChar), loc),
                                loc,
                            )],
                            vec![],
                            loc,
                        ));
                    }
                }
                if !has_nondet(&args[0]) {
                    checks.push(st(StmtKind::Assert(ok, AssertKind::InvalidFree), loc));
                }
                let mut all = after;
                all.push(st(
                    StmtKind::Op {
                        dest: dest.clone(),
                        op,
                        args,
                    },
                    loc,
                ));
                self.emit_forced(checks, all, wrap, out);
                return;
            }
            Op::Memset | Op::Memcpy => {
                // memcpy reads its source, then writes; memset writes.
                let n = ul(&args[2]);
                let mut ranges = Vec::new();
                if op == Op::Memcpy {
                    ranges.push(&args[1]);
                }
                ranges.push(&args[0]);
                for p in ranges {
                    if let Some(c) = self.range_ok(p, &n, loc) {
                        let none = cmp(BinOp::Eq, n.clone(), int(0, Ty::ULONG, loc), loc);
                        checks.push(st(
                            StmtKind::Assert(or(none, c, loc), AssertKind::InvalidDeref),
                            loc,
                        ));
                    }
                }
            }
            _ if op.is_atomic_step() => {
                // The object the operation reads and writes.
                if let Some(a) = args.first()
                    && let Some(ty) = a.ty.pointee()
                    && let Some(sz) = self.p.size_of(ty)
                    && let Some(c) = self.range_ok(a, &int(sz as i128, Ty::ULONG, loc), loc)
                {
                    checks.push(st(StmtKind::Assert(c, AssertKind::InvalidDeref), loc));
                }
            }
            _ => {}
        }
        // The result is stored after the operation.
        let (dest, tail) = match dest {
            Some(d) if self.access_ok(&d, loc).is_some() => {
                let t = self.declared(&d.ty, loc, out);
                (Some(t.clone()), Some(st(StmtKind::Assign(d, t), loc)))
            }
            d => (d, None),
        };
        let body = st(StmtKind::Op { dest, op, args }, loc);
        // Blocking operations are never made atomic: their checks go
        // before them as a step of their own.
        let blocking = !matches!(op, Op::Memset | Op::Memcpy) && !op.is_atomic_step();
        if blocking && !checks.is_empty() {
            self.emit(checks, vec![], wrap, out);
            out.push(body);
        } else {
            self.emit(checks, vec![body], wrap, out);
        }
        if let Some(t) = tail {
            self.stmt(t, inside, out);
        }
    }

    /// The checks of `acc`, in order.
    fn checks(&self, acc: &[Access]) -> Vec<Stmt> {
        let mut out = Vec::new();
        if !self.on {
            return out;
        }
        for a in acc {
            let Some(c) = self.access_ok(&a.lv, a.loc) else {
                continue;
            };
            if has_nondet(&c) || a.guard.as_ref().is_some_and(has_nondet) {
                continue;
            }
            let c = match &a.guard {
                None => c,
                Some(g) => or(not(g.clone(), a.loc), c, a.loc),
            };
            out.push(st(StmtKind::Assert(c, AssertKind::InvalidDeref), a.loc));
        }
        out
    }

    /// "The access to lvalue `lv` is valid", or None when nothing about
    /// it is checked.
    fn access_ok(&self, lv: &Expr, loc: Loc) -> Option<Expr> {
        if matches!(lv.ty.unqual(), Ty::Func(_)) {
            return None;
        }
        let s = self.p.size_of(&lv.ty)?;
        let (root, parts) = path(self.p, lv)?;
        let l = loc.generated();
        let ll = Ty::Int(IntKind::LongLong);
        // The offset from the root, as a signed 64-bit sum.
        let mut off: Option<Expr> = None;
        let mut indexed = false;
        for part in &parts {
            let term = match part {
                Part::Const(0) => continue,
                Part::Const(c) => int(*c as i128, ll.clone(), l),
                Part::Index(i, stride) => {
                    indexed = true;
                    bin(
                        BinOp::Mul,
                        cast((*i).clone(), ll.clone(), l),
                        int(*stride as i128, ll.clone(), l),
                        ll.clone(),
                        l,
                    )
                }
            };
            off = Some(match off {
                None => term,
                Some(o) => bin(BinOp::Add, o, term, ll.clone(), l),
            });
        }
        match root {
            Root::Object(size) => {
                if !indexed {
                    return None;
                }
                let off = off?;
                if size < s {
                    return Some(int(0, Ty::INT, l));
                }
                Some(and(
                    cmp(BinOp::Ge, off.clone(), int(0, ll.clone(), l), l),
                    cmp(BinOp::Le, off, int((size - s) as i128, ll, l), l),
                    l,
                ))
            }
            Root::Pointer(ptr) => {
                let base = null_root(ptr);
                let mut conds = Vec::new();
                if could_be_null(base) {
                    conds.push(cmp(
                        BinOp::Ne,
                        cast(base.clone(), Ty::ULONG, l),
                        int(0, Ty::ULONG, l),
                        l,
                    ));
                }
                let a = match off {
                    None => cast(ptr.clone(), Ty::ULONG, l),
                    Some(o) => bin(
                        BinOp::Add,
                        cast(ptr.clone(), Ty::ULONG, l),
                        cast(o, Ty::ULONG, l),
                        Ty::ULONG,
                        l,
                    ),
                };
                if let Some(c) = self.in_heap(&a, &int(s as i128, Ty::ULONG, l), l) {
                    conds.push(c);
                }
                conds.into_iter().reduce(|a, b| and(a, b, l))
            }
        }
    }

    /// "`n` bytes from pointer `p` are valid", for memset, memcpy and
    /// atomic operations.
    fn range_ok(&self, p: &Expr, n: &Expr, loc: Loc) -> Option<Expr> {
        let l = loc.generated();
        let base = null_root(p);
        let mut conds = Vec::new();
        if could_be_null(base) {
            conds.push(cmp(
                BinOp::Ne,
                cast(base.clone(), Ty::ULONG, l),
                int(0, Ty::ULONG, l),
                l,
            ));
        }
        if let Some(c) = self.in_heap(&cast(p.clone(), Ty::ULONG, l), n, l) {
            conds.push(c);
        }
        conds.into_iter().reduce(|a, b| and(a, b, l))
    }

    /// For every table entry whose range `[start - GAP, start + size]`
    /// holds address `a`: the entry is live, `a` is not before its start
    /// and `n` bytes from `a` fit. In unsigned arithmetic, with
    /// `e = a - start + GAP`: inside is `e <= size + GAP`, not before the
    /// start is `e >= GAP`, and then the room left is `size + GAP - e`.
    fn in_heap(&self, a: &Expr, n: &Expr, l: Loc) -> Option<Expr> {
        let t = self.table?;
        let ul = |v: u64| int(v as i128, Ty::ULONG, l);
        let mut all = None;
        for i in 0..t.n {
            let at = |g: GlobalId| index(glob(self.p, g, l), int(i as i128, Ty::UINT, l), l);
            let e = bin(
                BinOp::Sub,
                bin(BinOp::Add, a.clone(), ul(GAP), Ty::ULONG, l),
                cast(at(t.start), Ty::ULONG, l),
                Ty::ULONG,
                l,
            );
            let end = bin(BinOp::Add, at(t.size), ul(GAP), Ty::ULONG, l);
            let made = cmp(
                BinOp::Lt,
                int(i as i128, Ty::UINT, l),
                glob(self.p, t.count, l),
                l,
            );
            let inside = and(made, cmp(BinOp::Le, e.clone(), end.clone(), l), l);
            let fits = and(
                and(
                    cmp(BinOp::Ne, at(t.live), int(0, Ty::Int(IntKind::UChar), l), l),
                    cmp(BinOp::Ge, e.clone(), ul(GAP), l),
                    l,
                ),
                cmp(
                    BinOp::Le,
                    n.clone(),
                    bin(BinOp::Sub, end, e, Ty::ULONG, l),
                    l,
                ),
                l,
            );
            let c = or(not(inside, l), fits, l);
            all = Some(match all {
                None => c,
                Some(x) => and(x, c, l),
            });
        }
        all
    }
}

/// Where an lvalue's address starts: a pointer it goes through, or a
/// named object of this many bytes.
enum Root<'e> {
    Pointer(&'e Expr),
    Object(u64),
}

enum Part<'e> {
    Const(u64),
    Index(&'e Expr, u64),
}

/// The lvalue as its root and the offsets added to it, innermost first;
/// None for an lvalue this pass does not follow.
fn path<'e>(p: &Program, lv: &'e Expr) -> Option<(Root<'e>, Vec<Part<'e>>)> {
    let mut parts = Vec::new();
    let r = root_of(p, lv, &mut parts)?;
    Some((r, parts))
}

fn root_of<'e>(p: &Program, e: &'e Expr, parts: &mut Vec<Part<'e>>) -> Option<Root<'e>> {
    match &e.kind {
        ExprKind::Deref(ptr) => Some(Root::Pointer(ptr)),
        ExprKind::Global(_) | ExprKind::Local(_) => Some(Root::Object(p.size_of(&e.ty)?)),
        ExprKind::Str(bytes) => Some(Root::Object(bytes.len() as u64)),
        ExprKind::Member(b, i) => {
            let r = root_of(p, b, parts)?;
            let Ty::Comp(c) = b.ty.unqual() else {
                return None;
            };
            if p.comp(*c).fields[*i as usize].bit_width.is_some() {
                return None;
            }
            parts.push(Part::Const(p.comp_layout(*c)?.0[*i as usize]));
            Some(r)
        }
        ExprKind::Index(a, i) => {
            let r = root_of(p, a, parts)?;
            parts.push(Part::Index(i, p.size_of(&e.ty)?));
            Some(r)
        }
        _ => None,
    }
}

/// The pointer whose nullness decides an access through `p`: `p` with
/// pointer arithmetic and casts taken off (`(q + i)->f` is through `q`).
fn null_root(p: &Expr) -> &Expr {
    match &p.kind {
        ExprKind::Cast(a) if a.ty.is_pointer() => null_root(a),
        ExprKind::Binary(BinOp::PtrAdd | BinOp::PtrSub, a, _) => null_root(a),
        _ => p,
    }
}

/// An address of a named object or an array is never null.
fn could_be_null(p: &Expr) -> bool {
    !matches!(
        p.kind,
        ExprKind::AddrOf(_) | ExprKind::Decay(_) | ExprKind::Str(_) | ExprKind::Func(_)
    )
}

/// The reads evaluating `e` makes, in the oracle's order.
fn reads(e: &Expr, guard: Option<&Expr>, out: &mut Vec<Access>) {
    let l = e.loc.generated();
    match &e.kind {
        ExprKind::Local(_)
        | ExprKind::Global(_)
        | ExprKind::Deref(_)
        | ExprKind::Member(..)
        | ExprKind::Index(..) => {
            addr_reads(e, guard, out);
            if !matches!(e.ty.unqual(), Ty::Func(_)) {
                out.push(Access {
                    lv: e.clone(),
                    loc: e.loc,
                    guard: guard.cloned(),
                });
            }
        }
        ExprKind::Str(_) | ExprKind::AddrOf(_) | ExprKind::Decay(_) => match &e.kind {
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => addr_reads(a, guard, out),
            _ => {}
        },
        ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) => {
            reads(a, guard, out);
            let t = truth(a);
            let t = if *op == BinOp::LogAnd { t } else { not(t, l) };
            let g = and_opt(guard, t, l);
            reads(b, Some(&g), out);
        }
        ExprKind::Cond(c, x, y) => {
            reads(c, guard, out);
            let gx = and_opt(guard, truth(c), l);
            reads(x, Some(&gx), out);
            let gy = and_opt(guard, not(truth(c), l), l);
            reads(y, Some(&gy), out);
        }
        ExprKind::Binary(_, a, b) => {
            reads(a, guard, out);
            reads(b, guard, out);
        }
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => reads(a, guard, out),
        _ => {}
    }
}

/// The reads computing the address of lvalue `e` makes.
fn addr_reads(e: &Expr, guard: Option<&Expr>, out: &mut Vec<Access>) {
    match &e.kind {
        ExprKind::Deref(p) => reads(p, guard, out),
        ExprKind::Member(b, _) => addr_reads(b, guard, out),
        ExprKind::Index(a, i) => {
            addr_reads(a, guard, out);
            reads(i, guard, out);
        }
        _ => {}
    }
}

fn init_reads(init: &Init, out: &mut Vec<Access>) {
    match init {
        Init::Expr(e) => reads(e, None, out),
        Init::Array(items) => items.iter().for_each(|(_, i)| init_reads(i, out)),
        Init::Comp(items) => items.iter().for_each(|(_, i)| init_reads(i, out)),
        Init::Str(_) => {}
    }
}

fn truth(e: &Expr) -> Expr {
    crate::passes::normalize::truth(e.clone(), &e.ty, e.loc.generated())
}

fn and_opt(g: Option<&Expr>, c: Expr, l: Loc) -> Expr {
    match g {
        None => c,
        Some(g) => and(g.clone(), c, l),
    }
}

fn and(a: Expr, b: Expr, l: Loc) -> Expr {
    bin(BinOp::LogAnd, a, b, Ty::INT, l)
}

fn or(a: Expr, b: Expr, l: Loc) -> Expr {
    bin(BinOp::LogOr, a, b, Ty::INT, l)
}

fn has_nondet(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x.kind, ExprKind::Nondet));
    found
}
