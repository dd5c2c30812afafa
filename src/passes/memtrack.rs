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
//! - *exact through the heap* where every pointer stored in a heap
//!   object lies at a fixed place from the object's start (`heap_types`:
//!   stores `e->f = v` or `*e = v` only, and no pointer to the inside of
//!   an object that may hold pointers): each live entry's slots of every
//!   such type are read too (each only where it lies inside the object),
//!   and an entry is reached when a global points into it or a reached
//!   entry does, followed as many times as there are entries (a list, a
//!   tree, a cycle; a freed object holds nothing that counts);
//! - otherwise only the case where no live entry has such a slot (then
//!   none is reachable, since a path to the heap starts at a global).
//!   An object reached only through another is not checked: *hides*,
//!   and `Program::memtrack_partial` says so.
//!
//! Why a failed check is a real leak (rule 1): a pointer into an entry's
//! padded range is one made from that entry (objects are `3 * GAP`
//! apart here: `Program::heap_gap`), so a live entry with no slot in its range has no global
//! pointing at it; the check and main's return are both main's steps, and
//! a run may return right after the check. Through the heap: a pointer a
//! heap object holds was stored by one of the stores above, so it lies in
//! a slot the check reads; reading a slot of another type than the one
//! stored there gives a value no store made (an unconstrained one on the
//! SMT route, whose regions are typed), which can only add reached
//! entries, never remove one. No check is made (and
//! `memtrack_partial` says why) where a global could hold a pointer the
//! slots do not show: a union or an array of unknown length holding
//! pointers, a thread-local pointer, more than `MAX_SLOTS` slots, memory
//! holding pointers read as another type (a struct copy, `memcpy`, a
//! union holding a pointer) or pointers written into memory of another
//! type, a function pointer made from a data pointer, thread-specific
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

/// At most this many pointer slots in the globals are read at main's
/// return; past it the check is not made.
pub const MAX_SLOTS: usize = 64;

/// At most this many pointer slots in all table entries together are
/// read (entries times the slots of the heap types); past it the check
/// is the partial one.
pub const MAX_HEAP_SLOTS: usize = 128;

/// What the check will read, decided on the program before
/// `passes::memsafety` adds its own pointer casts.
pub struct Plan {
    /// The slots, or why no check is made.
    slots: Result<Slots, String>,
    heap: Heap,
}

/// Where heap objects may hold pointers.
enum Heap {
    /// Nowhere: no pointer is ever stored through a pointer.
    Empty,
    /// Only at the start of an object, in the pointer slots of one of
    /// these types (`heap_types`): the check reads them in every live
    /// entry and follows them.
    Typed(Vec<Ty>),
    /// Anywhere: only the partial check is made.
    Untyped,
}

/// The slots, and whether integers made from pointers may hold the only
/// reference (`Kinds::ints`).
type Slots = (Vec<Expr>, bool);

pub fn plan(p: &Program) -> Plan {
    let slots = match hidden_pointers(p) {
        Some(why) => Err(why),
        None => slots_of(p),
    };
    let heap = if !stores_pointers_through_pointers(p) {
        Heap::Empty
    } else {
        match heap_types(p) {
            Some(ts) => Heap::Typed(ts),
            None => Heap::Untyped,
        }
    };
    Plan { slots, heap }
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
    // The heap types whose slots the check follows (`Cx::check`).
    let empty = matches!(plan.heap, Heap::Empty);
    let heap = match plan.heap {
        Heap::Typed(ts) if !ints => {
            let per: usize = ts
                .iter()
                .map(|t| heap_slots(&p, t, int(0, Ty::ULONG, Loc::NONE)).map_or(0, |s| s.len()))
                .sum();
            (per * table.n as usize <= MAX_HEAP_SLOTS).then_some(ts)
        }
        _ => None,
    };
    let exact = empty || heap.is_some();
    if !exact {
        p.memtrack_partial = Some(
            "valid-memtrack is checked only where no global points into any live heap object (the program stores pointers in heap objects at places the check cannot name, so a heap object reached only from another one is not checked)"
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
        exact,
        heap: heap.unwrap_or_default(),
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
    /// The heap types whose slots are followed (`Heap::Typed`).
    heap: Vec<Ty>,
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

    /// A temporary local of main's.
    fn temp(&mut self, ty: Ty, g: Loc) -> Expr {
        let v = LocalId(self.locals.len() as u32);
        self.locals.push(Local {
            name: format!("__seqc_k{}", v.0),
            ty: ty.clone(),
            loc: g,
            temp: true,
        });
        lv_local(v, ty, g)
    }

    /// The atomic step that reads the slots and asserts the check, at
    /// `loc` (main's return there).
    fn check(&mut self, loc: Loc) -> Vec<Stmt> {
        let g = loc.generated();
        let t = self.table;
        let p = self.p;
        let ul = |e: Expr| cast(e, Ty::ULONG, g);
        let op = |op| bare_op(op, g);
        let decl = |v: &Expr, e: Expr| {
            let ExprKind::Local(id) = v.kind else {
                unreachable!("a temporary is a local")
            };
            st(StmtKind::Decl(id, Some(Init::Expr(e))), g)
        };
        let mut out = vec![op(Op::AtomicBegin)];
        // Each slot read once.
        let mut vals = Vec::new();
        for s in self.slots {
            let v = self.temp(Ty::ULONG, g);
            out.push(decl(&v, ul(s.clone())));
            vals.push(v);
        }
        let n = u64::from(t.n);
        let at = |x: GlobalId, i: u64| index(glob(p, x, g), int(i as i128, Ty::UINT, g), g);
        // Each entry's start, size and liveness read once.
        let mut base = Vec::new();
        let mut start = Vec::new();
        let mut size = Vec::new();
        let mut live = Vec::new();
        for i in 0..n {
            let b = self.temp(Ty::Void.ptr(), g);
            out.push(decl(&b, at(t.start, i)));
            let s0 = self.temp(Ty::ULONG, g);
            out.push(decl(&s0, ul(b.clone())));
            let z = self.temp(Ty::ULONG, g);
            out.push(decl(&z, at(t.size, i)));
            let here = and(
                cmp(
                    BinOp::Lt,
                    int(i as i128, Ty::UINT, g),
                    glob(p, t.count, g),
                    g,
                ),
                cmp(
                    BinOp::Ne,
                    at(t.live, i),
                    int(0, Ty::Int(IntKind::UChar), g),
                    g,
                ),
                g,
            );
            let h = self.temp(Ty::INT, g);
            out.push(decl(&h, here));
            base.push(b);
            start.push(s0);
            size.push(z);
            live.push(h);
        }
        let here = |i: u64| live[i as usize].clone();
        // `v` lies in `[start - GAP, start + size]` of entry `i`:
        // `v - start <= size || start - v - 1 < GAP`, unsigned, which no
        // wrap breaks (a huge size only widens it: hides).
        let points = |v: &Expr, i: u64| {
            let start = &start[i as usize];
            let sub = |a: &Expr, b: &Expr| bin(BinOp::Sub, a.clone(), b.clone(), Ty::ULONG, g);
            let inside = cmp(BinOp::Le, sub(v, start), size[i as usize].clone(), g);
            let before = cmp(
                BinOp::Lt,
                sub(&sub(start, v), &int(1, Ty::ULONG, g)),
                int(GAP as i128, Ty::ULONG, g),
                g,
            );
            or(inside, before, g)
        };
        let any_of = |vs: &[Expr], i: u64| {
            vs.iter()
                .map(|v| points(v, i))
                .reduce(|a, b| or(a, b, g))
                .unwrap_or_else(|| int(0, Ty::INT, g))
        };
        // The pointers each live entry holds: the slots of every heap
        // type read at the entry's start, each only where it lies inside
        // the object (0 elsewhere, and in entries not live).
        let mut held: Vec<Vec<Expr>> = Vec::new();
        for j in 0..n {
            let mut vs = Vec::new();
            for ty in self.heap.clone() {
                for lv in heap_slots(p, &ty, base[j as usize].clone()).unwrap_or_default() {
                    let v = self.temp(Ty::ULONG, g);
                    out.push(decl(&v, int(0, Ty::ULONG, g)));
                    // The slot's end, from the object's start: a constant.
                    let width = p.size_of(&lv.ty).unwrap_or(8);
                    let end = match offset_in(p, &lv) {
                        Some(off) => int((off + width) as i128, Ty::ULONG, g),
                        None => bin(
                            BinOp::Add,
                            bin(
                                BinOp::Sub,
                                ul(addr_of(lv.clone(), g)),
                                start[j as usize].clone(),
                                Ty::ULONG,
                                g,
                            ),
                            int(width as i128, Ty::ULONG, g),
                            Ty::ULONG,
                            g,
                        ),
                    };
                    let inside = and(here(j), cmp(BinOp::Le, end, size[j as usize].clone(), g), g);
                    out.push(if_(inside, vec![assign(v.clone(), ul(lv), g)], vec![], g));
                    vs.push(v);
                }
            }
            held.push(vs);
        }
        // `r[i]`: a global reaches entry `i`; then, as often as there are
        // entries, whatever a reached entry points into is reached (a path
        // visits each entry at most once).
        let mut r = Vec::new();
        for i in 0..n {
            let v = self.temp(Ty::INT, g);
            out.push(decl(&v, any_of(&vals, i)));
            r.push(v);
        }
        if !self.heap.is_empty() {
            let mut edge = vec![vec![None; n as usize]; n as usize];
            for j in 0..n {
                for i in 0..n {
                    if i != j && !held[j as usize].is_empty() {
                        let v = self.temp(Ty::INT, g);
                        out.push(decl(&v, any_of(&held[j as usize], i)));
                        edge[j as usize][i as usize] = Some(v);
                    }
                }
            }
            for _ in 1..n {
                for i in 0..n as usize {
                    let from = (0..n as usize)
                        .filter_map(|j| {
                            edge[j][i].as_ref().map(|e| and(r[j].clone(), e.clone(), g))
                        })
                        .reduce(|a, b| or(a, b, g));
                    if let Some(f) = from {
                        out.push(assign(r[i].clone(), or(r[i].clone(), f, g), g));
                    }
                }
            }
        }
        let mut all_reached: Option<Expr> = None;
        let mut none_live: Option<Expr> = None;
        let mut one_reached: Option<Expr> = None;
        for i in 0..n {
            let pointed = r[i as usize].clone();
            let ok_i = or(not(here(i), g), pointed.clone(), g);
            all_reached = Some(fold(all_reached, ok_i, and, g));
            none_live = Some(fold(none_live, not(here(i), g), and, g));
            one_reached = Some(fold(one_reached, and(here(i), pointed, g), or, g));
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

/// The offset of a slot (`heap_slots`) from the object's start.
fn offset_in(p: &Program, lv: &Expr) -> Option<u64> {
    match &lv.kind {
        ExprKind::Deref(_) => Some(0),
        ExprKind::Member(a, k) => match a.ty.unqual() {
            Ty::Comp(c) => Some(p.comp_layout(*c)?.0.get(*k as usize)? + offset_in(p, a)?),
            _ => None,
        },
        ExprKind::Index(a, i) => {
            let i = u64::try_from(const_of(i)?).ok()?;
            Some(i * p.size_of(&lv.ty)? + offset_in(p, a)?)
        }
        _ => None,
    }
}

/// The pointer slots of a `ty` at address `start` (`*(ty *)start`), or
/// `None` where they cannot all be named (a union, an array of unknown
/// length, too many).
fn heap_slots(p: &Program, ty: &Ty, start: Expr) -> Option<Vec<Expr>> {
    let l = start.loc;
    let obj = deref(cast(start, ty.clone().ptr(), l), l);
    let mut out = Vec::new();
    Kinds {
        ints: false,
        ptr_size: 0,
    }
    .slots(p, obj, "a heap object", &mut out)
    .ok()?;
    Some(out)
}

/// The types through whose pointers the program stores pointers, when
/// every such store writes at the start of a heap object in the slots of
/// that type (`Heap::Typed`): each store is `e->f.g = v` or `*e = v`
/// (members only), and no pointer into the inside of an object that may
/// hold pointers is ever made — no pointer arithmetic or address of an
/// inner lvalue of a type that may reach such an object (one that holds
/// pointers, `void`, or whose pointers the program makes `void *` other
/// than to give them to `free`, `memset` or `memcpy`), and no operation
/// that writes pointers through one of its arguments. So a pointer in a
/// heap object lies at the object's start plus the offset of a slot of
/// one of the types, where the check reads it.
fn heap_types(p: &Program) -> Option<Vec<Ty>> {
    // Pointee types the program makes `void *`, outside the memory
    // operations that only read or write bytes.
    let mut given: Vec<*const Expr> = Vec::new();
    for f in &p.functions {
        let Some(b) = &f.body else { continue };
        b.walk(&mut |s| {
            if let StmtKind::Op {
                op: Op::Free | Op::Memset | Op::Memcpy,
                args,
                ..
            } = &s.kind
            {
                given.extend(args.iter().map(|a| a as *const Expr));
            }
        });
    }
    let mut to_void: Vec<Ty> = Vec::new();
    p.walk_exprs(&mut |e| {
        if let ExprKind::Cast(a) = &e.kind
            && matches!(e.ty.pointee().map(Ty::unqual), Some(Ty::Void))
            && !given.contains(&(e as *const Expr))
            && let Some(x) = a.ty.pointee()
            && !to_void.contains(x.unqual())
        {
            to_void.push(x.unqual().clone());
        }
    });
    // A pointer of pointee `x` may come to point inside an object that
    // holds pointers.
    let risky = |x: &Ty| {
        matches!(x.unqual(), Ty::Void) || holds_pointer(p, x) || to_void.contains(x.unqual())
    };
    let mut ok = true;
    p.walk_exprs(&mut |e| match &e.kind {
        ExprKind::Binary(BinOp::PtrAdd | BinOp::PtrSub, a, _) => {
            ok &= a.ty.pointee().is_some_and(|x| !risky(x));
        }
        ExprKind::AddrOf(lv) if through_pointer(lv) && !matches!(lv.kind, ExprKind::Deref(_)) => {
            ok &= !risky(&lv.ty);
        }
        ExprKind::Decay(lv) if through_pointer(lv) => {
            ok &= match lv.ty.unqual() {
                Ty::Array(x, _) => !risky(x),
                _ => false,
            };
        }
        _ => {}
    });
    if !ok {
        return None;
    }
    let mut types: Vec<Ty> = Vec::new();
    for f in &p.functions {
        let Some(b) = &f.body else { continue };
        b.walk(&mut |s| {
            let dest = match &s.kind {
                StmtKind::Assign(l, _) => Some(l),
                StmtKind::Op { op, args, dest }
                    if !matches!(op, Op::Malloc | Op::Calloc | Op::Free) =>
                {
                    ok &= !args.iter().any(|a| {
                        a.ty.pointee().is_some_and(|t| holds_pointer(p, t))
                            && const_of(a) != Some(0)
                            && !matches!(&strip_cast(a).kind, ExprKind::AddrOf(lv) if !through_pointer(lv))
                    });
                    dest.as_ref()
                }
                StmtKind::Op { dest, .. } | StmtKind::Call { dest, .. } => dest.as_ref(),
                _ => None,
            };
            let Some(d) = dest else { return };
            if !(through_pointer(d) && holds_pointer(p, &d.ty)) {
                return;
            }
            let mut lv = d;
            while let ExprKind::Member(a, _) = &lv.kind {
                lv = a;
            }
            match &lv.kind {
                ExprKind::Deref(e) => match e.ty.pointee() {
                    Some(t) if !types.contains(t.unqual()) => types.push(t.unqual().clone()),
                    Some(_) => {}
                    None => ok = false,
                },
                _ => ok = false,
            }
        });
    }
    let nameable = types
        .iter()
        .all(|t| heap_slots(p, t, int(0, Ty::ULONG, Loc::NONE)).is_some());
    (ok && nameable).then_some(types)
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

fn through_pointer(lv: &Expr) -> bool {
    match &lv.kind {
        ExprKind::Deref(_) => true,
        ExprKind::Member(a, _) | ExprKind::Index(a, _) => through_pointer(a),
        _ => false,
    }
}
