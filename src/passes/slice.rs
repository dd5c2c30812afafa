//! Field slicing, Abstract(P, F) (STORM §3; DESIGN.md §1).
//!
//! Pre: normalised IR (at most one visible access per statement outside
//! atomic code), before bounding and sequentialization. Post: every read of
//! a *sliced* region is a call of a havoc function (`__seqc_havoc_N`, one
//! per region and type, returning a fresh value) into a new temporary, and
//! every write of one is gone (a call keeps its call and loses its
//! destination; an operation writes a temporary instead). Nothing else
//! changes. The passes after this one put a switch point (Lal-Reps) or a
//! schedule point (KISS) only before statements that still touch shared
//! memory, so the points that existed only for a sliced access disappear
//! by themselves.
//!
//! Loops. A loop that touched a sliced region is *summarised* when, once
//! sliced, it meets DESIGN.md's conditions: it touches no shared memory
//! (so no tracked region), draws no input, has no assertion, assume,
//! operation (threads, locks, atomics, memory, exit), call other than a
//! havoc, return or goto, and writes only plain scalar locals. The loop is
//! replaced by a marker call of a havoc function (the class it read first)
//! and one havoc per local it writes that outlives it: zero iterations, no
//! unwinding. Tracking the class brings the loop back, so `refine` can
//! undo a summary that made a counterexample spurious.
//!
//! Which regions are sliced. Regions are DESIGN.md's (the SMT memory
//! model's): `count`, `struct dev.flags`, `*int`, `main::v`. Aliasing is
//! decided by the memory model's own analysis (`Regions::analyse`): a
//! tracked region drags in its whole alias class. A class is sliced when no
//! member is tracked and every access to it is a plain load or store of an
//! integer, `_Bool` or floating value. A class is *pinned* (kept, whatever
//! `--track` says) when the program reaches it in any other way: through a
//! pointer- or struct-typed access (a pointer read from a sliced region
//! would point nowhere the original can point), a bit-field, an `_Atomic`
//! object, or the memory an operation reads through its arguments (atomic
//! operations, memset, memcpy, pthread_join, and the pthread objects and
//! attribute objects of the thread operations: `reads_through`). A program whose regions the
//! memory model cannot separate (type punning) is refused by name; one
//! where struct memory is also reached through a scalar pointer after a
//! cast is not sliced at all.
//!
//! Why "sliced program safe ⇒ original safe within the bound". Let R be
//! the sliced classes. No access the sliced program keeps reads memory of
//! R: plain reads of R are havocs, and every other way to read R pinned it.
//! Take any run of the original (within the bounds). Run the sliced program
//! with the same schedule and the same input draws, and let each havoc
//! return the value the original read there. By induction over the run,
//! both programs agree on every local and on all memory outside R: a
//! dropped write changes only R (aliases of R are in R's class, and no
//! other class overlaps it); a havoc returns what the original read; every
//! other statement is the same and reads nothing of R. A summarised loop
//! that the original left (within the bounds; a loop the bound cuts blocks
//! the original, which only removes runs) changed nothing but R and the
//! locals it writes, since it touches no other memory, draws nothing and
//! calls nothing: let its havocs return those locals' values after the
//! loop (the marker's value is never read). Switch points:
//! a statement that lost its shared access touches only the thread's own
//! locals, so it commutes with every other thread's steps and may run in
//! the same context as the next visible step without changing any value
//! any thread reads; within the same bounds (rounds, unwinding, threads)
//! the run is still one the sequentialization covers. So every assertion
//! that fails in the original fails in the sliced program: if the sliced
//! program is safe within the bounds, so is the original. The converse
//! does not hold (a havoc may take a value the original never reads), which
//! is why `check` replays every sliced counterexample on the original and
//! calls it spurious when it does not replay, and `refine` grows F.
//!
//! Over 800 lines on purpose: the soundness argument above and the pinning
//! rules it relies on are one job, and stay in one file to be read together.

use crate::diag::{Diagnostic, Result};
use crate::ir::access::Shared;
use crate::ir::access::escaping_locals;
use crate::ir::regions::{Regions, deref_key, is_leaf, leaves, lvalue_key};
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// What slicing did, for `check`, `refine` and the benchmark.
#[derive(Clone, Debug, Default)]
pub struct SliceInfo {
    /// The alias classes kept because `--track` names one of their members.
    pub tracked: Vec<String>,
    /// The alias classes the program accesses that were sliced away.
    pub sliced: Vec<String>,
    /// Classes kept whatever `--track` says, with the reason.
    pub pinned: BTreeMap<String, String>,
    /// Havoc function name → the class its value stands for.
    pub havoc: BTreeMap<String, String>,
    /// Havoc functions whose value can decide something (a branch, an
    /// assertion, an address, a call argument, a kept write): `refine`
    /// tries their regions first.
    pub relevant: BTreeSet<String>,
    /// Class → the region names (as `--track` takes them) in it.
    pub members: BTreeMap<String, Vec<String>>,
    pub reads_havocked: usize,
    pub writes_dropped: usize,
    /// Loops replaced by their summary.
    pub loops_summarised: usize,
}

impl SliceInfo {
    /// The class a havoc function's value stands for.
    pub fn class_of_havoc(&self, func: &str) -> Option<&str> {
        self.havoc.get(func).map(String::as_str)
    }
}

/// The type of a plain access that slicing may drop or havoc.
fn sliceable_ty(t: &Ty) -> bool {
    matches!(t, Ty::Int(_) | Ty::Bool | Ty::Float(_))
}

/// Is `lv` a bit-field member?
fn bit_field(p: &Program, lv: &Expr) -> bool {
    match &lv.kind {
        ExprKind::Member(a, i) => match a.ty.unqual() {
            Ty::Comp(c) => p.comp(*c).fields[*i as usize].bit_width.is_some(),
            _ => false,
        },
        _ => false,
    }
}

/// Strips pointer casts, to the most precise pointer type an operation
/// argument had (`memset((void *)&s, ...)` reaches `struct S`).
fn strip_casts(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(a) if a.ty.is_pointer() || matches!(a.ty.unqual(), Ty::Array(..)) => {
            strip_casts(a)
        }
        _ => e,
    }
}

struct Classes<'p> {
    p: &'p Program,
    rg: Regions,
    pinned: BTreeMap<String, String>,
    /// Nothing may be sliced (an operation reads memory of unknown type).
    all_pinned: Option<String>,
    accessed: BTreeSet<String>,
}

impl Classes<'_> {
    fn class(&mut self, f: FuncId, lv: &Expr) -> Option<String> {
        let k = lvalue_key(self.p, f, lv)?;
        Some(self.rg.class_name(self.p, &k))
    }

    fn pin(&mut self, class: String, why: &str) {
        self.pinned.entry(class).or_insert_with(|| why.to_string());
    }

    /// Pins every region an object of type `t` holds (its own region if a
    /// scalar, `key`; each field's if a struct).
    fn pin_object(&mut self, t: &Ty, key: Option<crate::ir::regions::RKey>, why: &str) {
        let mut ls = Vec::new();
        leaves(self.p, t, key.as_ref(), &mut ls, 0);
        for (_, _, k) in ls {
            let c = self.rg.class_name(self.p, &k);
            self.pin(c, why);
        }
    }

    /// Records one access (`lv` read or written) of function `f`.
    fn access(&mut self, f: FuncId, lv: &Expr) {
        let Some(class) = self.class(f, lv) else {
            return;
        };
        self.accessed.insert(class.clone());
        let t = lv.ty.unqual();
        if lv.ty.is_atomic() {
            self.pin(class, "an _Atomic object");
        } else if bit_field(self.p, lv) {
            self.pin(class, "a bit-field");
        } else if !sliceable_ty(t) {
            let why = if t.is_pointer() {
                "holds pointers"
            } else {
                "accessed as a whole struct or array"
            };
            let key = lvalue_key(self.p, f, lv);
            if is_leaf(t) {
                self.pin(class, why);
            } else {
                self.pin(class, why);
                self.pin_object(t, key, why);
            }
        }
    }

    /// Pins what an operation reads or writes through its pointer
    /// arguments.
    fn op_args(&mut self, op: Op, args: &[Expr]) {
        for (i, a) in args.iter().enumerate() {
            if !reads_through(op, i) {
                continue;
            }
            let a = strip_casts(a);
            let Some(t) = a.ty.pointee() else { continue };
            let t = t.unqual();
            if t.is_void() && op == Op::ThreadJoin {
                // It stores a `void *`: pointers are never sliced.
                continue;
            }
            if t.is_void() {
                self.all_pinned
                    .get_or_insert_with(|| format!("{} through a 'void *'", op.c_name()));
                continue;
            }
            let why = "read or written by an atomic or memory operation";
            if is_leaf(crate::ir::regions::elem_scalar(t)) && !matches!(t, Ty::Comp(_)) {
                let k = deref_key(self.p, t);
                let c = self.rg.class_name(self.p, &k);
                self.pin(c, why);
            } else {
                self.pin_object(t, None, why);
            }
        }
    }
}

/// Does operation `op` read (or write) memory through its argument `i`?
/// Its reads must see the original memory, so the class is pinned: an
/// attribute object read by `pthread_mutex_init` or `pthread_create` (an
/// `int` once lowered) whose `settype` store was sliced away would make a
/// recursive mutex a normal one and hide every run past its relock.
/// Arguments passed on as values (`pthread_create`'s `arg`, routines) are
/// not.
fn reads_through(op: Op, i: usize) -> bool {
    use Op::*;
    match op {
        _ if op.is_atomic_step() => true,
        Memset | Memcpy => true,
        ThreadJoin => i == 1,
        ThreadCreate | MutexInit | CondInit => i <= 1,
        CondWait | CondTimedWait => i <= 1,
        Word(WordOp::SemGetValue) => i <= 1,
        Word(_) => i == 0,
        MutexLock | MutexUnlock | MutexTryLock | MutexTimedLock | MutexDestroy | CondSignal
        | CondBroadcast | CondDestroy | Once | KeyCreate => i == 0,
        _ => false,
    }
}

/// The shared lvalues a statement reads or writes (Shared's view, plus
/// initialiser lists and the operations' value arguments).
fn stmt_accesses(sh: &Shared, s: &Stmt, out: &mut Vec<(Expr, bool)>) {
    let write = |d: &Expr, out: &mut Vec<(Expr, bool)>| {
        sh.addr_reads(d, out);
        if sh.lvalue(d) {
            out.push((d.clone(), true));
        }
    };
    match &s.kind {
        StmtKind::Assign(l, r) => {
            sh.reads(r, out);
            write(l, out);
        }
        StmtKind::Decl(_, Some(init)) => {
            let mut es = Vec::new();
            init.exprs(&mut es);
            for e in es {
                sh.reads(e, out);
            }
        }
        StmtKind::Call { dest, callee, args } => {
            sh.reads(callee, out);
            for a in args {
                sh.reads(a, out);
            }
            if let Some(d) = dest {
                write(d, out);
            }
        }
        StmtKind::Op { dest, args, .. } => {
            for a in args {
                sh.reads(a, out);
            }
            if let Some(d) = dest {
                write(d, out);
            }
        }
        StmtKind::If(c, ..)
        | StmtKind::Switch(c, _)
        | StmtKind::Assert(c, _)
        | StmtKind::Assume(c)
        | StmtKind::Return(Some(c)) => sh.reads(c, out),
        _ => {}
    }
}

/// Abstract(P, F): slices `p` keeping the regions named in `track` (and
/// everything aliased with them). Names must be regions of `p` (checked by
/// the caller with `regions_report::check_track`).
pub fn slice(mut p: Program, track: &[String]) -> Result<(Program, SliceInfo)> {
    let rg = Regions::analyse(&p).map_err(|(msg, loc)| {
        let mut d = Diagnostic::unsupported(format!(
            "field slicing (--track) of a program whose memory regions cannot be separated: {msg}"
        ));
        d.pos = Some((p.file_name(loc.file).to_string(), loc.line, loc.col));
        d
    })?;
    // Struct memory also seen through a scalar pointer: a dropped write
    // through that pointer could change a tracked field, so nothing is
    // sliced.
    let punned = rg.punned().map(|(s, loc)| {
        format!(
            "memory of '{s}' is also reached through a scalar pointer ({}:{})",
            p.file_name(loc.file),
            loc.line
        )
    });
    // A pointer made from an integer: the integer may come from a sliced
    // class, and a havoc cannot return the address the original stored
    // there (the back ends' pointers are not integers), so nothing is
    // sliced (a reviewer's ip_seq.c was a false proof).
    let punned = punned.or_else(|| {
        int_made_pointer(&p).map(|loc| {
            format!(
                "a pointer is made from an integer ({}:{})",
                p.file_name(loc.file),
                loc.line
            )
        })
    });
    let globals: Vec<bool> = p.globals.iter().map(|g| !g.thread_local).collect();
    let escaping: Vec<_> = p.functions.iter().map(escaping_locals).collect();
    let mut cl = Classes {
        p: &p,
        rg,
        pinned: BTreeMap::new(),
        all_pinned: punned,
        accessed: BTreeSet::new(),
    };
    // Which classes the program reaches other than by plain scalar
    // access, and the class of every region name (for `track`).
    let mut names: HashMap<String, String> = HashMap::new();
    for (fi, f) in p.functions.iter().enumerate() {
        let Some(body) = &f.body else { continue };
        let fid = FuncId(fi as u32);
        let sh = Shared {
            globals: &globals,
            escaping: &escaping[fi],
        };
        let mut accs = Vec::new();
        let mut ops = Vec::new();
        body.walk(&mut |s| {
            stmt_accesses(&sh, s, &mut accs);
            if let StmtKind::Op { op, args, .. } = &s.kind {
                ops.push((*op, args.clone()));
            }
        });
        for (lv, _) in accs {
            if let Some(k) = lvalue_key(&p, fid, &lv) {
                let n = crate::ir::regions::key_name(&p, &k);
                if let std::collections::hash_map::Entry::Vacant(e) = names.entry(n) {
                    e.insert(cl.rg.class_name(&p, &k));
                }
            }
            cl.access(fid, &lv);
        }
        for (op, args) in ops {
            cl.op_args(op, &args);
        }
    }
    // Tracked classes: the class of every region `track` names.
    let mut tracked: BTreeSet<String> = BTreeSet::new();
    for t in track {
        tracked.insert(names.get(t).cloned().unwrap_or_else(|| t.clone()));
    }
    let sliced: BTreeSet<String> = match &cl.all_pinned {
        Some(_) => BTreeSet::new(),
        None => cl
            .accessed
            .iter()
            .filter(|c| !tracked.contains(*c) && !cl.pinned.contains_key(*c))
            .cloned()
            .collect(),
    };
    let mut info = SliceInfo {
        tracked: tracked.iter().cloned().collect(),
        sliced: sliced.iter().cloned().collect(),
        pinned: cl.pinned.clone(),
        ..Default::default()
    };
    for (n, c) in &names {
        info.members.entry(c.clone()).or_default().push(n.clone());
    }
    for m in info.members.values_mut() {
        m.sort();
    }
    if let Some(why) = &cl.all_pinned {
        info.pinned.insert("(all)".into(), why.clone());
    }
    let Classes { rg, .. } = cl;
    let mut rw = Rewriter {
        rg,
        sliced,
        havoc_fns: BTreeMap::new(),
        new_fns: Vec::new(),
        first_new: p.functions.len(),
        reads: 0,
        writes: 0,
        touched: Vec::new(),
        summarised: 0,
    };
    for (fi, esc) in escaping.iter().enumerate() {
        if p.functions[fi].body.is_none() {
            continue;
        }
        let mut f = std::mem::replace(
            &mut p.functions[fi],
            crate::passes::normalize::placeholder(),
        );
        let body = f.body.take().unwrap();
        let sh = Shared {
            globals: &globals,
            escaping: esc,
        };
        let mut cx = FnCx {
            p: &p,
            fid: FuncId(fi as u32),
            sh: &sh,
            locals: &mut f.locals,
        };
        let mut body = rw.block(&mut cx, body);
        let keep = relevant_locals(&body, &sh);
        rw.retarget(&mut body, &keep);
        f.body = Some(body);
        p.functions[fi] = f;
    }
    info.reads_havocked = rw.reads;
    info.writes_dropped = rw.writes;
    info.loops_summarised = rw.summarised;
    for (name, class, ty, relevant) in rw.new_fns {
        info.havoc.insert(name.clone(), class);
        if relevant {
            info.relevant.insert(name.clone());
        }
        p.functions.push(Function {
            name,
            sig: FnSig {
                ret: ty.clone(),
                params: vec![],
                variadic: false,
                unprototyped: false,
            },
            params: vec![],
            locals: vec![],
            body: Some(Block(vec![Stmt {
                kind: StmtKind::Return(Some(Expr::new(
                    ExprKind::Nondet,
                    ty,
                    Loc::NONE.generated(),
                ))),
                loc: Loc::NONE.generated(),
            }])),
            is_static: true,
            atomic: false,
            loc: Loc::NONE.generated(),
            labels: vec![],
        });
    }
    Ok((p, info))
}

struct FnCx<'a, 'p> {
    p: &'p Program,
    fid: FuncId,
    sh: &'a Shared<'a>,
    locals: &'a mut Vec<Local>,
}

impl FnCx<'_, '_> {
    fn temp(&mut self, ty: &Ty, loc: Loc) -> Expr {
        let n = self.locals.len();
        self.locals.push(Local {
            name: format!("__h{n}"),
            ty: ty.clone(),
            loc: loc.generated(),
            temp: true,
        });
        Expr::new(
            ExprKind::Local(LocalId(n as u32)),
            ty.clone(),
            loc.generated(),
        )
    }
}

struct Rewriter {
    rg: Regions,
    sliced: BTreeSet<String>,
    /// (class, type, relevant) → havoc function.
    havoc_fns: BTreeMap<(String, String, bool), FuncId>,
    new_fns: Vec<(String, String, Ty, bool)>,
    first_new: usize,
    reads: usize,
    writes: usize,
    /// The sliced classes accessed since the innermost loop began, in
    /// order, each with whether it was read.
    touched: Vec<(String, bool)>,
    summarised: usize,
}

impl Rewriter {
    /// The sliced class of a plain scalar access to `lv`, if any.
    fn sliced_class(&mut self, cx: &FnCx, lv: &Expr) -> Option<String> {
        if !cx.sh.lvalue(lv) || lv.ty.is_atomic() || !sliceable_ty(lv.ty.unqual()) {
            return None;
        }
        if bit_field(cx.p, lv) {
            return None;
        }
        let k = lvalue_key(cx.p, cx.fid, lv)?;
        let c = self.rg.class_name(cx.p, &k);
        self.sliced.contains(&c).then_some(c)
    }

    /// Is a write to `lv` dropped (a sliced region)? Counts it.
    fn drops(&mut self, cx: &FnCx, lv: &Expr) -> bool {
        let Some(c) = self.sliced_class(cx, lv) else {
            return false;
        };
        self.touched.push((c, false));
        self.writes += 1;
        true
    }

    fn havoc_fn(&mut self, class: &str, ty: &Ty, relevant: bool) -> FuncId {
        let key = (class.to_string(), format!("{ty:?}"), relevant);
        if let Some(&f) = self.havoc_fns.get(&key) {
            return f;
        }
        let f = FuncId((self.first_new + self.new_fns.len()) as u32);
        let name = format!("__seqc_havoc_{}", self.new_fns.len());
        self.new_fns
            .push((name, class.to_string(), ty.clone(), relevant));
        self.havoc_fns.insert(key, f);
        f
    }

    /// Points the havoc calls whose value decides nothing at the
    /// irrelevant twin of their havoc function.
    fn retarget(&mut self, b: &mut Block, keep: &HashSet<LocalId>) {
        for s in &mut b.0 {
            match &mut s.kind {
                StmtKind::Call {
                    dest: Some(d),
                    callee,
                    ..
                } => {
                    if let (ExprKind::Local(t), ExprKind::Func(h)) = (&d.kind, &mut callee.kind)
                        && h.index() >= self.first_new
                        && !keep.contains(t)
                    {
                        let (_, class, ty, _) = self.new_fns[h.index() - self.first_new].clone();
                        *h = self.havoc_fn(&class, &ty, false);
                    }
                }
                StmtKind::If(_, a, c) => {
                    self.retarget(a, keep);
                    self.retarget(c, keep);
                }
                StmtKind::Loop { body, latch, .. } => {
                    self.retarget(body, keep);
                    self.retarget(latch, keep);
                }
                StmtKind::Switch(_, b) | StmtKind::Block(b) => self.retarget(b, keep),
                _ => {}
            }
        }
    }

    /// Replaces the reads of sliced regions in `e` by fresh temporaries,
    /// each filled by a havoc call pushed onto `pre`.
    fn reads(&mut self, cx: &mut FnCx, e: &mut Expr, pre: &mut Vec<Stmt>) {
        match &mut e.kind {
            ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..) => {
                if let Some(c) = self.sliced_class(cx, e) {
                    self.touched.push((c.clone(), true));
                    let ty = e.ty.unqual().clone();
                    let loc = e.loc;
                    let t = cx.temp(&ty, loc);
                    let ExprKind::Local(v) = t.kind else {
                        unreachable!()
                    };
                    let f = self.havoc_fn(&c, &ty, true);
                    pre.push(Stmt {
                        kind: StmtKind::Decl(v, None),
                        loc: loc.generated(),
                    });
                    pre.push(havoc_call(f, Some(t.clone()), ty, loc));
                    self.reads += 1;
                    *e = t;
                    return;
                }
                self.addr(cx, e, pre);
            }
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => self.addr(cx, a, pre),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.reads(cx, a, pre),
            ExprKind::Binary(_, a, b) => {
                self.reads(cx, a, pre);
                self.reads(cx, b, pre);
            }
            ExprKind::Cond(a, b, c) => {
                self.reads(cx, a, pre);
                self.reads(cx, b, pre);
                self.reads(cx, c, pre);
            }
            _ => {}
        }
    }

    /// The reads made to compute the address of lvalue `lv`.
    fn addr(&mut self, cx: &mut FnCx, lv: &mut Expr, pre: &mut Vec<Stmt>) {
        match &mut lv.kind {
            ExprKind::Deref(x) => self.reads(cx, x, pre),
            ExprKind::Member(a, _) => self.addr(cx, a, pre),
            ExprKind::Index(a, i) => {
                self.addr(cx, a, pre);
                self.reads(cx, i, pre);
            }
            _ => {}
        }
    }

    fn block(&mut self, cx: &mut FnCx, b: Block) -> Block {
        let mut out = Vec::with_capacity(b.0.len());
        for s in b.0 {
            self.stmt(cx, s, &mut out);
        }
        Block(out)
    }

    fn stmt(&mut self, cx: &mut FnCx, mut s: Stmt, out: &mut Vec<Stmt>) {
        let loc = s.loc;
        let mut pre = Vec::new();
        match &mut s.kind {
            StmtKind::Assign(l, r) => {
                if self.drops(cx, l) {
                    // The value written is never read: drop the store.
                    return;
                }
                self.reads(cx, r, &mut pre);
                self.addr(cx, l, &mut pre);
            }
            StmtKind::Decl(_, Some(init)) => {
                let mut es = Vec::new();
                crate::ir::init_exprs_mut(init, &mut es);
                for e in es {
                    self.reads(cx, e, &mut pre);
                }
            }
            StmtKind::Call { dest, callee, args } => {
                self.reads(cx, callee, &mut pre);
                for a in args.iter_mut() {
                    self.reads(cx, a, &mut pre);
                }
                if let Some(d) = dest {
                    if self.drops(cx, d) {
                        *dest = None;
                    } else {
                        self.addr(cx, d, &mut pre);
                    }
                }
            }
            StmtKind::Op { dest, args, .. } => {
                for a in args.iter_mut() {
                    self.reads(cx, a, &mut pre);
                }
                if let Some(d) = dest {
                    if self.drops(cx, d) {
                        let t = cx.temp(&d.ty.unqual().clone(), loc);
                        let ExprKind::Local(v) = t.kind else {
                            unreachable!()
                        };
                        pre.push(Stmt {
                            kind: StmtKind::Decl(v, None),
                            loc: loc.generated(),
                        });
                        *d = t;
                    } else {
                        self.addr(cx, d, &mut pre);
                    }
                }
            }
            StmtKind::If(c, a, b) => {
                self.reads(cx, c, &mut pre);
                *a = self.block(cx, std::mem::take(a));
                *b = self.block(cx, std::mem::take(b));
            }
            StmtKind::Switch(c, b) => {
                self.reads(cx, c, &mut pre);
                *b = self.block(cx, std::mem::take(b));
            }
            StmtKind::Assert(c, _) | StmtKind::Assume(c) | StmtKind::Return(Some(c)) => {
                self.reads(cx, c, &mut pre)
            }
            StmtKind::Loop { body, latch, .. } => {
                let outer = std::mem::take(&mut self.touched);
                *body = self.block(cx, std::mem::take(body));
                *latch = self.block(cx, std::mem::take(latch));
                let mut inner = std::mem::replace(&mut self.touched, outer);
                self.touched.extend(inner.iter().cloned());
                // Only a loop that touched a sliced region: tracking that
                // region brings the loop back (refine can undo a summary).
                // The first region it read is the likeliest to decide how
                // it ends.
                inner.sort_by_key(|(_, read)| !read);
                if let Some((class, _)) = inner.first()
                    && let Some(mods) = self.summary(cx, body, latch)
                {
                    self.summarised += 1;
                    // The marker: the trace shows where the loop was, and
                    // refine which class to track when it made a
                    // counterexample spurious.
                    let f = self.havoc_fn(class, &Ty::INT, true);
                    out.push(havoc_call(f, None, Ty::INT, loc));
                    for (v, ty) in mods {
                        let f = self.havoc_fn(class, &ty, true);
                        let dest = Expr::new(ExprKind::Local(v), ty.clone(), loc.generated());
                        out.push(havoc_call(f, Some(dest), ty, loc));
                    }
                    return;
                }
            }
            StmtKind::Block(b) => *b = self.block(cx, std::mem::take(b)),
            _ => {}
        }
        out.extend(pre);
        out.push(s);
    }

    /// The locals a loop (already sliced) modifies, if DESIGN.md lets it
    /// be summarised: it touches no shared memory any more (so no tracked
    /// region), draws no input, has no assertion, assume, operation
    /// (threads, locks, atomics, memory, exit), call other than a havoc,
    /// return, goto, label or case label, and writes only plain scalar
    /// locals. Locals declared
    /// inside it are dead after it and need no havoc.
    fn summary(&self, cx: &FnCx, body: &Block, latch: &Block) -> Option<Vec<(LocalId, Ty)>> {
        let mut ok = true;
        let mut inner: BTreeSet<LocalId> = BTreeSet::new();
        let mut mods: BTreeSet<LocalId> = BTreeSet::new();
        let plain = |e: &Expr| {
            let mut fine = true;
            e.walk(&mut |x| match &x.kind {
                ExprKind::Global(_) | ExprKind::Deref(_) | ExprKind::AddrOf(_) => fine = false,
                ExprKind::Nondet => fine = false,
                ExprKind::Local(v) if cx.sh.escaping.contains(v) => fine = false,
                _ => {}
            });
            fine
        };
        let mut visit = |s: &Stmt| {
            if !ok {
                return;
            }
            match &s.kind {
                StmtKind::Assert(..)
                | StmtKind::Assume(_)
                | StmtKind::Op { .. }
                | StmtKind::Return(_)
                | StmtKind::Goto(_)
                | StmtKind::Label(_)
                // A case label may belong to a switch around the loop
                // (a jump into it).
                | StmtKind::Case(_) => ok = false,
                StmtKind::Call { callee, .. } if !matches!(callee.kind, ExprKind::Func(h) if h.index() >= self.first_new) => {
                    ok = false
                }
                StmtKind::Decl(v, _) => {
                    inner.insert(*v);
                }
                _ => {}
            }
            let dest = match &s.kind {
                StmtKind::Assign(l, _) => Some(l),
                StmtKind::Call { dest, .. } => dest.as_ref(),
                _ => None,
            };
            if let Some(d) = dest {
                match d.kind {
                    ExprKind::Local(v) if sliceable_ty(d.ty.unqual()) => {
                        mods.insert(v);
                    }
                    _ => ok = false,
                }
            }
            ok &= s.exprs().into_iter().all(plain);
        };
        body.walk(&mut visit);
        latch.walk(&mut visit);
        if !ok {
            return None;
        }
        Some(
            mods.into_iter()
                .filter(|v| !inner.contains(v))
                .map(|v| (v, cx.locals[v.index()].ty.unqual().clone()))
                .collect(),
        )
    }
}

/// `dest = havoc()` (or the bare call), at a generated location.
fn havoc_call(f: FuncId, dest: Option<Expr>, ty: Ty, loc: Loc) -> Stmt {
    Stmt {
        kind: StmtKind::Call {
            dest,
            callee: Expr::new(
                ExprKind::Func(f),
                Ty::Func(Box::new(FnSig {
                    ret: ty,
                    params: vec![],
                    variadic: false,
                    unprototyped: false,
                })),
                loc.generated(),
            ),
            args: vec![],
        },
        loc: loc.generated(),
    }
}

fn locals_of(e: &Expr, out: &mut Vec<LocalId>) {
    e.walk(&mut |x| {
        if let ExprKind::Local(v) = x.kind {
            out.push(v);
        }
    });
}

/// The locals whose value can decide something: used in a condition, an
/// address, a call or operation, a return value or a store to memory, or
/// copied into such a local (a backwards fixpoint over plain copies).
fn relevant_locals(b: &Block, sh: &Shared) -> HashSet<LocalId> {
    let mut keep: Vec<LocalId> = Vec::new();
    let mut flows: Vec<(LocalId, Vec<LocalId>)> = Vec::new();
    b.walk(&mut |s| match &s.kind {
        StmtKind::Assign(l, r) => {
            let mut ys = Vec::new();
            locals_of(r, &mut ys);
            match l.kind {
                ExprKind::Local(x) if !sh.lvalue(l) => flows.push((x, ys)),
                _ => {
                    keep.extend(ys);
                    locals_of(l, &mut keep);
                }
            }
        }
        StmtKind::Decl(x, Some(init)) => {
            let mut es = Vec::new();
            init.exprs(&mut es);
            let mut ys = Vec::new();
            for e in es {
                locals_of(e, &mut ys);
            }
            if sh.escaping.contains(x) {
                keep.extend(ys);
            } else {
                flows.push((*x, ys));
            }
        }
        StmtKind::Call { dest, callee, args } => {
            locals_of(callee, &mut keep);
            for a in args {
                locals_of(a, &mut keep);
            }
            // A call's result stored in a plain local decides nothing yet.
            if let Some(d) = dest
                && (!matches!(d.kind, ExprKind::Local(_)) || sh.lvalue(d))
            {
                locals_of(d, &mut keep);
            }
        }
        _ => {
            for e in s.exprs() {
                locals_of(e, &mut keep);
            }
        }
    });
    let mut keep: HashSet<LocalId> = keep.into_iter().collect();
    loop {
        let mut changed = false;
        for (x, ys) in &flows {
            if keep.contains(x) {
                for y in ys {
                    changed |= keep.insert(*y);
                }
            }
        }
        if !changed {
            return keep;
        }
    }
}

/// Where the program first converts a non-constant integer that could
/// hold an address to a pointer. An integer narrower than a pointer
/// before its conversion (`(void *)(long)i` for an `int i` under LP64)
/// holds none.
fn int_made_pointer(p: &Program) -> Option<Loc> {
    let bits = p.data_model.pointer_bits();
    let mut at = None;
    let mut look = |e: &Expr| {
        e.walk(&mut |x| {
            let ExprKind::Cast(inner) = &x.kind else {
                return;
            };
            if at.is_some() || x.ty.pointee().is_none() || !inner.ty.is_integer() {
                return;
            }
            let mut src: &Expr = inner;
            while let ExprKind::Cast(i) = &src.kind
                && i.ty.is_integer()
            {
                src = i;
            }
            let wide = src.ty.int_bits(p.data_model).is_none_or(|b| b >= bits);
            if wide && crate::ir::build::const_of(src).is_none() {
                at = Some(x.loc);
            }
        })
    };
    for f in &p.functions {
        if let Some(b) = &f.body {
            b.walk(&mut |s| s.each_expr(&mut look));
        }
    }
    at
}
