//! `--property memtrack`: where main returns, every live heap object is
//! reached from a global through pointers (SV-COMP's valid-memtrack:
//! main's return ends every thread, so the globals are all that is left).
//!
//! Pre: the heap table of `passes::memsafety` (`__seqcm_heap*`), and a
//! `Plan` made from the program before that pass added its own casts.
//! Post: before each `return` of main, and where main's body ends, one
//! atomic step reads every pointer held in a global (the *slots*: scalar
//! pointers, and those inside structs and arrays) and asserts
//! `AssertKind::MemTrack`:
//! - *exact* (no pointer is ever stored through a pointer, so no heap
//!   object holds one): every live table entry has a slot pointing into
//!   `[start - GAP, start + size]`;
//! - otherwise only the case where no live entry has such a slot (then
//!   none is reachable, since a path to the heap starts at a global).
//!   An object reached only through another is not checked: *hides*,
//!   and `Program::memtrack_partial` says so.
//!
//! Why a failed check is a real leak (rule 1): a pointer into an entry's
//! padded range is one made from that entry (objects are `3 * GAP`
//! apart here: `Program::heap_gap`), so a live entry with no slot in its range has no global
//! pointing at it; the check and main's return are both main's steps, and
//! a run may return right after the check. No check is made (and
//! `memtrack_partial` says why) where a global could hold a pointer the
//! slots do not show: a union or an array of unknown length holding
//! pointers, a thread-local pointer, more than `MAX_SLOTS` slots, memory
//! holding pointers read as another type (a struct copy, `memcpy`, a
//! union holding a pointer) or pointers written into memory of another
//! type (directly or through `void *`), a function pointer made from a data pointer, thread-specific
//! data (where the program makes an integer from a pointer, integers as
//! wide as a pointer count as slots too, and a safe answer is unknown:
//! the oracle gives such an integer no object); or where main's return is not
//! one place: main called by the program, atomic sections that do not
//! begin and end in one block. A pointer that leaves its object by more
//! than `GAP` bytes is not seen as pointing into it (the oracle, which
//! follows provenance, then disagrees: the replay refuses the report).

use super::memsafety::{GAP, Table, structured};
use crate::ir::build::*;
use crate::ir::*;
use std::collections::HashSet;

/// At most this many pointer slots in the globals are read at main's
/// return; past it the check is not made.
pub const MAX_SLOTS: usize = 64;

/// What the check will read, decided on the program before
/// `passes::memsafety` adds its own pointer casts.
pub struct Plan {
    /// The slots, or why no check is made.
    slots: Result<Slots, String>,
    /// No heap object ever holds a pointer.
    exact: bool,
}

/// The slots, and whether integers made from pointers may hold the only
/// reference (`Kinds::ints`).
type Slots = (Vec<Expr>, bool);

pub fn plan(p: &Program) -> Plan {
    let slots = match hidden_pointers(p) {
        Some(why) => Err(why),
        None => slots_of(p),
    };
    Plan {
        exact: !stores_pointers_through_pointers(p),
        slots,
    }
}

pub fn memtrack(mut p: Program, plan: Plan) -> Program {
    let Some(main) = p
        .functions
        .iter()
        .position(|f| f.name == "main" && f.body.is_some())
    else {
        return p;
    };
    let (slots, ints) = match plan.slots {
        Ok(s) => s,
        Err(why) => {
            p.memtrack_partial = Some(format!("valid-memtrack is not checked: {why}"));
            return p;
        }
    };
    let Some(table) = Table::find(&p) else {
        // No allocation: no heap object can leak.
        return p;
    };
    if let Some(why) = main_is_not_one_end(&p, FuncId(main as u32)) {
        p.memtrack_partial = Some(format!("valid-memtrack is not checked: {why}"));
        return p;
    }
    if ints {
        p.memtrack_partial = Some(
            "valid-memtrack is checked with integers as wide as a pointer counted as pointers, and a pointer made from an integer counts as one (the program makes integers from pointers), which may hide a leak"
                .into(),
        );
    }
    if !plan.exact {
        p.memtrack_partial = Some(
            "valid-memtrack is checked only where no global points into any live heap object (the program stores pointers through pointers, so a heap object reached only from another one is not checked)"
                .into(),
        );
    }
    // Objects `3 * GAP` apart: a pointer up to `GAP` outside one (its end,
    // say) is never within `GAP` of another.
    p.heap_gap = p.heap_gap.max(3 * GAP);
    let mut funcs = std::mem::take(&mut p.functions);
    let f = &mut funcs[main];
    let end = f.loc.generated();
    let mut cx = Cx {
        p: &p,
        table,
        slots: &slots,
        exact: plan.exact,
        locals: &mut f.locals,
    };
    let mut body = cx.block(f.body.take().unwrap());
    body.0.extend(cx.check(end));
    f.body = Some(body);
    p.functions = funcs;
    p
}

struct Cx<'a> {
    p: &'a Program,
    table: Table,
    slots: &'a [Expr],
    exact: bool,
    locals: &'a mut Vec<Local>,
}

impl Cx<'_> {
    fn block(&mut self, b: Block) -> Block {
        let mut out = Vec::new();
        for mut s in b.0 {
            match &mut s.kind {
                StmtKind::If(_, a, b) => {
                    *a = self.block(std::mem::take(a));
                    *b = self.block(std::mem::take(b));
                }
                StmtKind::Loop { body, latch, .. } => {
                    *body = self.block(std::mem::take(body));
                    *latch = self.block(std::mem::take(latch));
                }
                StmtKind::Switch(_, b) | StmtKind::Block(b) => {
                    *b = self.block(std::mem::take(b));
                }
                StmtKind::Return(_) => out.extend(self.check(s.loc)),
                _ => {}
            }
            out.push(s);
        }
        Block(out)
    }

    /// The atomic step that reads the slots and asserts the check, at
    /// `loc` (main's return there).
    fn check(&mut self, loc: Loc) -> Vec<Stmt> {
        let g = loc.generated();
        let t = &self.table;
        let ul = |e: Expr| cast(e, Ty::ULONG, g);
        let op = |op| bare_op(op, g);
        let mut out = vec![op(Op::AtomicBegin)];
        // Each slot read once.
        let mut vals = Vec::new();
        for s in self.slots {
            let v = LocalId(self.locals.len() as u32);
            self.locals.push(Local {
                name: format!("__seqc_k{}", v.0),
                ty: Ty::ULONG,
                loc: g,
                temp: true,
            });
            out.push(st(StmtKind::Decl(v, Some(Init::Expr(ul(s.clone())))), g));
            vals.push(lv_local(v, Ty::ULONG, g));
        }
        let gap = || int(GAP as i128, Ty::ULONG, g);
        let mut all_reached: Option<Expr> = None;
        let mut none_live: Option<Expr> = None;
        let mut one_reached: Option<Expr> = None;
        for i in 0..u64::from(t.n) {
            let at = |x: GlobalId| index(glob(self.p, x, g), int(i as i128, Ty::UINT, g), g);
            let here = and(
                cmp(
                    BinOp::Lt,
                    int(i as i128, Ty::UINT, g),
                    glob(self.p, t.count, g),
                    g,
                ),
                cmp(BinOp::Ne, at(t.live), int(0, Ty::Int(IntKind::UChar), g), g),
                g,
            );
            // `v` lies in `[start - GAP, start + size]`:
            // `v - start <= size || start - v - 1 < GAP`, unsigned, which
            // no wrap breaks (a huge size only widens it: hides).
            let start = ul(at(t.start));
            let pointed = vals
                .iter()
                .map(|v| {
                    let sub =
                        |a: &Expr, b: &Expr| bin(BinOp::Sub, a.clone(), b.clone(), Ty::ULONG, g);
                    let inside = cmp(BinOp::Le, sub(v, &start), at(t.size), g);
                    let before = cmp(
                        BinOp::Lt,
                        sub(&sub(&start, v), &int(1, Ty::ULONG, g)),
                        gap(),
                        g,
                    );
                    or(inside, before, g)
                })
                .reduce(|a, b| or(a, b, g))
                .unwrap_or_else(|| int(0, Ty::INT, g));
            let ok_i = or(not(here.clone(), g), pointed.clone(), g);
            all_reached = Some(fold(all_reached, ok_i, and, g));
            none_live = Some(fold(none_live, not(here.clone(), g), and, g));
            one_reached = Some(fold(one_reached, and(here, pointed, g), or, g));
        }
        let ok = if self.exact {
            all_reached
        } else {
            none_live.map(|n| or(n, one_reached.unwrap(), g))
        };
        if let Some(ok) = ok {
            out.push(st(StmtKind::Assert(ok, AssertKind::MemTrack), loc));
        }
        out.push(op(Op::AtomicEnd));
        out
    }
}

fn fold(acc: Option<Expr>, x: Expr, f: fn(Expr, Expr, Loc) -> Expr, l: Loc) -> Expr {
    match acc {
        None => x,
        Some(a) => f(a, x, l),
    }
}

fn and(a: Expr, b: Expr, l: Loc) -> Expr {
    bin(BinOp::LogAnd, a, b, Ty::INT, l)
}

fn or(a: Expr, b: Expr, l: Loc) -> Expr {
    bin(BinOp::LogOr, a, b, Ty::INT, l)
}

/// Why main's return is not the one place the check stands, if it is
/// not.
fn main_is_not_one_end(p: &Program, main: FuncId) -> Option<&'static str> {
    let mut used = false;
    p.walk_exprs(&mut |e| used |= matches!(e.kind, ExprKind::Func(f) if f == main));
    if used {
        return Some("main is called or its address taken");
    }
    if !structured(p) {
        return Some("atomic sections that do not begin and end in one block");
    }
    None
}

/// The pointers the globals hold, as lvalues read at main's return.
fn slots_of(p: &Program) -> Result<Slots, String> {
    // Where the program makes an integer from a pointer, an integer as
    // wide as a pointer may hold one too: it is read as one (the oracle
    // gives such an integer no object, so this only hides).
    // `(int)(long)arg`: an integer narrower than a pointer made at once
    // from the pointer's integer holds no pointer.
    let ptr_size = p.size_of(&Ty::Void.ptr()).unwrap_or(8);
    let narrow = |t: &Ty| t.unqual().is_integer() && p.size_of(t).unwrap_or(0) < ptr_size;
    let from_ptr = |e: &Expr| matches!(&e.kind, ExprKind::Cast(a) if data_pointer(&a.ty));
    let mut truncated: Vec<*const Expr> = Vec::new();
    p.walk_exprs(&mut |e| {
        if let ExprKind::Cast(a) = &e.kind
            && narrow(&e.ty)
            && from_ptr(a)
        {
            truncated.push(&**a as *const Expr);
        }
    });
    let mut made_int = false;
    p.walk_exprs(&mut |e| {
        made_int |=
            from_ptr(e) && e.ty.unqual().is_integer() && !truncated.contains(&(e as *const Expr));
    });
    let k = Kinds {
        ints: made_int,
        ptr_size,
    };
    let mut out = Vec::new();
    for (i, g) in p.globals.iter().enumerate() {
        if g.name.starts_with("__seqc") || !k.holds(p, &g.ty) {
            continue;
        }
        if g.thread_local {
            return Err(format!("the thread-local '{}' may hold a pointer", g.name));
        }
        let base = glob(p, GlobalId(i as u32), g.loc.generated());
        k.slots(p, base, &g.name, &mut out)?;
    }
    Ok((out, made_int))
}

/// Which values count as pointers in the globals.
struct Kinds {
    /// Integers as wide as a pointer do.
    ints: bool,
    ptr_size: u64,
}

impl Kinds {
    fn slot(&self, p: &Program, t: &Ty) -> bool {
        data_pointer(t)
            || self.ints && t.unqual().is_integer() && p.size_of(t).unwrap_or(0) >= self.ptr_size
    }

    fn holds(&self, p: &Program, t: &Ty) -> bool {
        match t.unqual() {
            t if self.slot(p, t) => true,
            Ty::Array(x, _) => self.holds(p, x),
            Ty::Comp(c) => p.comp(*c).fields.iter().any(|f| self.holds(p, &f.ty)),
            _ => false,
        }
    }

    fn slots(&self, p: &Program, lv: Expr, name: &str, out: &mut Vec<Expr>) -> Result<(), String> {
        let l = lv.loc;
        match lv.ty.unqual().clone() {
            t if self.slot(p, &t) => {
                if out.len() == MAX_SLOTS {
                    return Err(format!("the globals hold more than {MAX_SLOTS} pointers"));
                }
                out.push(lv);
            }
            Ty::Array(t, Some(n)) if self.holds(p, &t) => {
                for i in 0..n {
                    let e = index(lv.clone(), int(i as i128, Ty::ULONG, l), l);
                    self.slots(p, e, name, out)?;
                }
            }
            Ty::Array(t, None) if self.holds(p, &t) => {
                return Err(format!(
                    "'{name}' is an array of unknown length holding pointers"
                ));
            }
            Ty::Comp(c) if self.holds(p, &lv.ty) => {
                let def = p.comp(c);
                if def.kind == CompKind::Union {
                    return Err(format!("'{name}' has a union that holds a pointer"));
                }
                for (k, f) in def.fields.iter().enumerate() {
                    if self.holds(p, &f.ty) && f.bit_width.is_none() {
                        let m = Expr::new(
                            ExprKind::Member(Box::new(lv.clone()), k as u32),
                            f.ty.clone(),
                            l,
                        );
                        self.slots(p, m, name, out)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// A pointer to data (a function pointer never reaches the heap).
fn data_pointer(t: &Ty) -> bool {
    matches!(t.unqual(), Ty::Ptr(x) if !matches!(x.unqual(), Ty::Func(_)))
}

/// `t` holds a data pointer somewhere.
fn holds_pointer(p: &Program, t: &Ty) -> bool {
    Kinds {
        ints: false,
        ptr_size: 0,
    }
    .holds(p, t)
}

/// Whether some write through a pointer stores a pointer (then a heap
/// object may hold one), or memory is copied wholesale.
fn stores_pointers_through_pointers(p: &Program) -> bool {
    let mut any = false;
    for f in &p.functions {
        let Some(b) = &f.body else { continue };
        b.walk(&mut |s| {
            let dest = match &s.kind {
                StmtKind::Assign(l, _) => Some(l),
                // An operation given memory that holds pointers may write
                // one there (`pthread_join`'s result, an atomic
                // exchange), unless it is a named object's (not heap).
                StmtKind::Op { op, args, dest }
                    if !matches!(op, Op::Malloc | Op::Calloc | Op::Free) =>
                {
                    any |= args.iter().any(|a| {
                        a.ty.pointee().is_some_and(|t| holds_pointer(p, t))
                            && const_of(a) != Some(0)
                            && !matches!(&strip_cast(a).kind, ExprKind::AddrOf(lv) if !through_pointer(lv))
                    });
                    dest.as_ref()
                }
                StmtKind::Op { dest, .. } | StmtKind::Call { dest, .. } => dest.as_ref(),
                _ => None,
            };
            if let Some(d) = dest {
                any |= through_pointer(d) && holds_pointer(p, &d.ty);
            }
        });
    }
    any
}

/// Why a pointer may sit where no slot and no pointer-typed store shows
/// it, if it may: memory that holds pointers read as another type (a
/// struct copy or `memcpy` moves the pointer itself, which the oracle
/// follows), a data pointer made a function pointer, thread-specific
/// data.
fn hidden_pointers(p: &Program) -> Option<String> {
    let mut why = None;
    let char_like = |t: &Ty| {
        matches!(
            t.unqual(),
            Ty::Void | Ty::Int(IntKind::Char | IntKind::SChar | IntKind::UChar)
        )
    };
    // A union the program uses whose members hold a pointer.
    let punning_union = |t: &Ty| {
        matches!(t.unqual(), Ty::Comp(c)
            if p.comp(*c).kind == CompKind::Union
                && p.comp(*c).fields.iter().any(|f| holds_pointer(p, &f.ty)))
    };
    p.walk_exprs(&mut |e| {
        if why.is_some() {
            return;
        }
        if punning_union(&e.ty) {
            why = Some("a union holds a pointer (its bytes may be read as another type)");
            return;
        }
        let ExprKind::Cast(a) = &e.kind else { return };
        let (Some(from), Some(to)) = (a.ty.pointee(), e.ty.pointee()) else {
            return;
        };
        let (hf, ht) = (holds_pointer(p, from), holds_pointer(p, to));
        if hf && !ht && !matches!(to.unqual(), Ty::Void) {
            why = Some("the program reads memory that holds a pointer as another type");
        } else if ht && !hf && !matches!(from.unqual(), Ty::Void) {
            why = Some("the program writes pointers into memory of another type");
        } else if matches!(to.unqual(), Ty::Func(_)) && !matches!(from.unqual(), Ty::Func(_)) {
            why = Some("the program makes a function pointer from a data pointer");
        }
    });
    if why.is_none() {
        why = void_laundering(p);
    }
    for f in &p.functions {
        let Some(b) = &f.body else { continue };
        b.walk(&mut |s| {
            if let StmtKind::Op { op, args, .. } = &s.kind {
                match op {
                    Op::Memcpy
                        if args.get(1).is_some_and(|a| {
                            strip_cast(a)
                                .ty
                                .pointee()
                                .is_none_or(|t| holds_pointer(p, t) || char_like(t))
                        }) =>
                    {
                        why.get_or_insert("the program copies memory that may hold pointers with memcpy");
                    }
                    Op::SetSpecific => {
                        why.get_or_insert("the program keeps values in thread-specific data (pthread_setspecific)");
                    }
                    _ => {}
                }
            }
        });
    }
    why.map(str::to_string)
}

/// `hidden_pointers`' cast rules through `void *`, whatever the flow:
/// the pointee types converted to `void *` (sources) against those
/// converted from it (sinks). `free` and `memset` pass no pointer on, and
/// a fresh `malloc`/`calloc` result has no type yet, so neither counts.
fn void_laundering(p: &Program) -> Option<&'static str> {
    let (mut sources, mut sinks): (Vec<Ty>, Vec<Ty>) = (Vec::new(), Vec::new());
    let mut cast = |e: &Expr, consumed: &HashSet<*const Expr>, fresh: &HashSet<LocalId>| {
        let ExprKind::Cast(a) = &e.kind else { return };
        let (Some(from), Some(to)) = (a.ty.pointee(), e.ty.pointee()) else {
            return;
        };
        let void = |t: &Ty| matches!(t.unqual(), Ty::Void);
        if void(to) && !void(from) && !consumed.contains(&(e as *const Expr)) {
            sources.push(from.clone());
        } else if void(from)
            && !void(to)
            && !matches!(&a.kind, ExprKind::Local(l) if fresh.contains(l))
        {
            sinks.push(to.clone());
        }
    };
    let none = HashSet::new();
    for g in &p.globals {
        if let Some(i) = &g.init {
            i.each_expr(&mut |e| e.walk(&mut |x| cast(x, &none, &HashSet::new())));
        }
    }
    for f in &p.functions {
        let Some(b) = &f.body else { continue };
        let mut consumed: HashSet<*const Expr> = HashSet::new();
        let (mut fresh, mut other) = (HashSet::new(), HashSet::new());
        b.walk(&mut |s| {
            let local = |e: &Expr| match e.kind {
                ExprKind::Local(l) => Some(l),
                _ => None,
            };
            match &s.kind {
                StmtKind::Op { op, args, dest } => {
                    if matches!(op, Op::Free | Op::Memset)
                        && let Some(a) = args.first()
                    {
                        consumed.insert(a as *const Expr);
                    }
                    if let Some(l) = dest.as_ref().and_then(local) {
                        if matches!(op, Op::Malloc | Op::Calloc) {
                            fresh.insert(l);
                        } else {
                            other.insert(l);
                        }
                    }
                }
                StmtKind::Assign(d, _) | StmtKind::Call { dest: Some(d), .. } => {
                    other.extend(local(d));
                }
                StmtKind::Decl(l, Some(_)) => {
                    other.insert(*l);
                }
                _ => {}
            }
            s.each_expr(&mut |e| {
                e.walk(&mut |x| {
                    if let ExprKind::AddrOf(a) = &x.kind {
                        other.extend(local(a));
                    }
                })
            });
        });
        let fresh: HashSet<LocalId> = fresh.difference(&other).copied().collect();
        b.walk(&mut |s| s.each_expr(&mut |e| e.walk(&mut |x| cast(x, &consumed, &fresh))));
    }
    let any = |ts: &[Ty], holds: bool| ts.iter().any(|t| holds_pointer(p, t) == holds);
    // A scalar read of pointer memory gives an integer, which the oracle
    // gives no object either: bytes and aggregates may carry the pointer.
    let carrier = |t: &Ty| {
        !holds_pointer(p, t)
            && matches!(
                t.unqual(),
                Ty::Int(IntKind::Char | IntKind::SChar | IntKind::UChar)
                    | Ty::Comp(_)
                    | Ty::Array(..)
            )
    };
    if any(&sources, true) && sinks.iter().any(carrier) {
        Some("the program reads memory that holds a pointer as another type (through void *)")
    } else if any(&sinks, true) && any(&sources, false) {
        Some("the program writes pointers into memory of another type (through void *)")
    } else {
        None
    }
}

fn through_pointer(lv: &Expr) -> bool {
    match &lv.kind {
        ExprKind::Deref(_) => true,
        ExprKind::Member(a, _) | ExprKind::Index(a, _) => through_pointer(a),
        _ => false,
    }
}
