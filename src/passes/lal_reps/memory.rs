//! Lal-Reps' memory: heap objects and escaping locals in per-site pools
//! of round-copied globals, memset and memcpy as element-wise stores,
//! initialisers as stores.

use super::*;

impl Rewriter<'_> {
    /// Slots for an allocation site: every run of it within the bounds,
    /// unwind^depth per thread (its loops in its function; at least one
    /// loop's worth) for each thread that may run its function, and never
    /// fewer than unwind × threads-per-site (room for a function called a
    /// few times). Calls made more often than that by the callers (in
    /// straight-line code or in their loops) are not counted (README:
    /// *hides*). Capped at 2^16 slots (deeply nested loops).
    fn pool_slots(&self) -> u64 {
        let per_thread =
            (0..self.loop_depth.max(1)).fold(1u64, |n, _| n.saturating_mul(self.unwind));
        let runners = self.runners.get(self.fi).copied().unwrap_or(self.nslots);
        per_thread
            .saturating_mul(runners)
            .max(self.unwind.saturating_mul(self.threads))
            .min(1 << 16)
    }

    /// `pv = &pool[next]` for a fresh object of `count` × `ty`.
    pub(super) fn alloc_stmts(
        &mut self,
        p: &Program,
        ty: &Ty,
        count: u64,
        pv: LocalId,
        loc: Loc,
    ) -> Vec<Stmt> {
        // One slot per run where the runs are counted and fewer: main's
        // escaping locals need one, not unwind × threads.
        let most = self.pool_slots();
        let slots = self.times.map_or(most, |n| n.clamp(1, most));
        // The pool and its counter get their numbers after the rewrite
        // (`Job::number_pools`).
        let named_by = self.pools.len() as u32;
        // Room before and after each object, when an address near it must
        // be no other object's (`Program::heap_gap`): `pad` elements
        // before every slot and after the last.
        let esz = p.size_of(ty).unwrap_or(1).max(1);
        let pad = p.heap_gap.div_ceil(esz);
        let stride = count + pad;
        let pool_ty = Ty::Array(Box::new(ty.clone()), Some(stride * slots + pad));
        let pool = Expr::new(
            ExprKind::Global(pending(self.pools.len())),
            pool_ty.clone(),
            loc,
        );
        self.pools.push(Pool {
            ty: pool_ty,
            counter: false,
            named_by,
        });
        let c = Expr::new(ExprKind::Global(pending(self.pools.len())), Ty::UINT, loc);
        self.pools.push(Pool {
            ty: Ty::UINT,
            counter: true,
            named_by,
        });
        let pty = self.locals[pv.index()].ty.clone();
        let at = |i: Expr| {
            let e = index(pool.clone(), i, loc);
            cast(addr_of(e, loc), pty.clone(), loc)
        };
        let pvx = lv_local(pv, pty.clone(), loc);
        vec![if_(
            cmp(BinOp::Ge, c.clone(), int(slots as i128, Ty::UINT, loc), loc),
            vec![
                self.stop(p, loc),
                assign(pvx.clone(), at(int(0, Ty::UINT, loc)), loc),
            ],
            vec![
                assign(
                    pvx,
                    at({
                        let first = bin(
                            BinOp::Mul,
                            c.clone(),
                            int(stride as i128, Ty::UINT, loc),
                            Ty::UINT,
                            loc,
                        );
                        match pad {
                            0 => first,
                            _ => bin(
                                BinOp::Add,
                                first,
                                int(pad as i128, Ty::UINT, loc),
                                Ty::UINT,
                                loc,
                            ),
                        }
                    }),
                    loc,
                ),
                assign(
                    c.clone(),
                    bin(BinOp::Add, c, int(1, Ty::UINT, loc), Ty::UINT, loc),
                    loc,
                ),
            ],
            loc,
        )]
    }

    /// memset / memcpy as element-wise stores through the pointer, typed
    /// by what the pointer pointed to before its cast to `void *`, so each
    /// store goes to the current round's copy like any other. One visible
    /// step, as the oracle runs it. A size known only at run time is
    /// handled up to HEAP_CAP elements; beyond that, or for part of an
    /// element, the thread stops (a bound cut).
    pub(super) fn mem_op(
        &mut self,
        p: &Program,
        op: Op,
        args: &[Expr],
        loc: Loc,
    ) -> std::result::Result<Vec<Stmt>, String> {
        let name = op.c_name();
        let pointee = |e: &Expr| {
            strip_cast(e)
                .ty
                .pointee()
                .filter(|t| !t.is_void() && !matches!(t.unqual(), Ty::Func(_)))
                .cloned()
        };
        let mut ety = pointee(&args[0]);
        if op == Op::Memcpy && ety.is_none() {
            ety = pointee(&args[1]);
        }
        let ety = ety.unwrap_or(Ty::Int(IntKind::UChar));
        let esz = p
            .size_of(&ety)
            .filter(|s| *s > 0)
            .ok_or_else(|| format!("{name} of an incomplete type"))?;
        let n = &args[2];
        let ul = Ty::ULONG;
        let (count, guard) = match const_of(n) {
            Some(n) if !(n as u64).is_multiple_of(esz) => {
                return Err(format!("{name} of part of an element"));
            }
            Some(n) => (n as u64 / esz, false),
            None => (HEAP_CAP, true),
        };
        if count > 4096 {
            return Err(format!("{name} of {count} elements"));
        }
        let tp = ety.clone().ptr();
        let base = |e: &Expr| cast(strip_cast(e).clone(), tp.clone(), loc);
        let (dp, sp) = (base(&args[0]), base(&args[1]));
        let at = |b: &Expr, i: u64| {
            deref(
                bin(
                    BinOp::PtrAdd,
                    b.clone(),
                    int(i as i128, Ty::LONG, loc),
                    tp.clone(),
                    loc,
                ),
                loc,
            )
        };
        let byte = match op {
            Op::Memset => Some(
                const_of(&args[1])
                    .ok_or_else(|| "memset with a byte that is not a constant".to_string())?
                    & 0xff,
            ),
            _ => None,
        };
        let mut out = Vec::new();
        let nw = cast(n.clone(), ul.clone(), loc);
        if guard {
            let big = cmp(
                BinOp::Gt,
                nw.clone(),
                int((count * esz) as i128, ul.clone(), loc),
                loc,
            );
            let part = cmp(
                BinOp::Ne,
                bin(
                    BinOp::Rem,
                    nw.clone(),
                    int(esz as i128, ul.clone(), loc),
                    ul.clone(),
                    loc,
                ),
                int(0, ul.clone(), loc),
                loc,
            );
            let c = bin(BinOp::LogOr, big, part, Ty::INT, loc);
            out.push(if_(c, vec![self.stop(p, loc)], vec![], loc));
        }
        let mut budget = 4096usize;
        // memmove's meaning, which memcpy's allows: every element is read
        // before any is written, so ranges that overlap copy right.
        let held: Vec<LocalId> = match byte {
            None if count > 1 => (0..count)
                .map(|_| self.temp("__seqc_mv", ety.clone()))
                .collect(),
            _ => Vec::new(),
        };
        let inside = |i: u64| {
            cmp(
                BinOp::Lt,
                int((i * esz) as i128, ul.clone(), loc),
                nw.clone(),
                loc,
            )
        };
        out.extend(held.iter().map(|&t| st(StmtKind::Decl(t, None), loc)));
        for (i, &t) in held.iter().enumerate() {
            let mut v = vec![assign(
                lv_local(t, ety.clone(), loc),
                at(&sp, i as u64),
                loc,
            )];
            if guard {
                v = vec![if_(inside(i as u64), v, vec![], loc)];
            }
            out.extend(v);
        }
        for i in 0..count {
            let mut v = match (byte, held.get(i as usize)) {
                (Some(b), _) => fill(p, at(&dp, i), b, &mut budget, loc)?,
                (None, Some(&t)) => vec![assign(at(&dp, i), lv_local(t, ety.clone(), loc), loc)],
                (None, None) => vec![assign(at(&dp, i), at(&sp, i), loc)],
            };
            if guard {
                v = vec![if_(inside(i), v, vec![], loc)];
            }
            out.extend(v);
        }
        Ok(out)
    }
}

/// Stores that give every leaf of `lv` the bytes `b` (memset).
pub(super) fn fill(
    p: &Program,
    lv: Expr,
    b: i128,
    budget: &mut usize,
    loc: Loc,
) -> std::result::Result<Vec<Stmt>, String> {
    let ty = lv.ty.unqual().clone();
    match ty {
        Ty::Array(t, Some(n)) => {
            let mut v = Vec::new();
            for j in 0..n {
                let e = Expr::new(
                    ExprKind::Index(
                        Box::new(lv.clone()),
                        Box::new(int(j as i128, Ty::LONG, loc)),
                    ),
                    (*t).clone(),
                    loc,
                );
                v.extend(fill(p, e, b, budget, loc)?);
            }
            Ok(v)
        }
        Ty::Comp(c) => {
            let d = p.comp(c);
            let mut v = Vec::new();
            for (fi, f) in d.fields.iter().enumerate() {
                if f.name.is_empty() && f.bit_width.is_some() {
                    continue;
                }
                let e = Expr::new(
                    ExprKind::Member(Box::new(lv.clone()), fi as u32),
                    f.ty.clone(),
                    loc,
                );
                v.extend(fill(p, e, b, budget, loc)?);
                if d.kind == CompKind::Union {
                    break;
                }
            }
            Ok(v)
        }
        Ty::Int(_) | Ty::Bool | Ty::Ptr(_) | Ty::Float(_) | Ty::Pthread(_) => {
            if *budget == 0 {
                return Err("memset of more than 4096 leaves".into());
            }
            *budget -= 1;
            let w = p.size_of(&ty).unwrap_or(1);
            let bits = match ty {
                Ty::Bool if b > 1 => {
                    return Err("memset of a _Bool with a byte other than 0 or 1".into());
                }
                Ty::Ptr(_) | Ty::Float(_) | Ty::Pthread(_) if b != 0 => {
                    return Err("memset of a pointer or floating value with a non-zero byte".into());
                }
                _ => (0..w.min(8)).fold(0i128, |x, _| (x << 8) | b),
            };
            Ok(vec![assign(
                lv,
                int(bits, Ty::Int(IntKind::ULongLong), loc),
                loc,
            )])
        }
        _ => Err("memset of a value of this type".into()),
    }
}

/// At most this many scalars of an uninitialised object get a value of
/// their own (`havoc_writes`); the rest keep the pool's zero (*hides*).
const HAVOC_LEAVES: usize = 64;

/// Writes of any value into each arithmetic scalar of `slot` (an
/// uninitialised local moved to a pool, which would otherwise read as the
/// pool's zero). Pointers, pthread objects and unions keep zero, one of
/// their possible contents (*hides*: a read of them is rarely defined).
pub(super) fn havoc_writes(p: &Program, slot: Expr, ty: &Ty, loc: Loc, out: &mut Vec<Stmt>) {
    if out.len() >= HAVOC_LEAVES {
        return;
    }
    match ty.unqual() {
        t if t.is_arith() => {
            let v = Expr::new(ExprKind::Nondet, t.clone(), loc);
            out.push(assign(slot, v, loc));
        }
        Ty::Array(el, Some(n)) => {
            for i in 0..*n {
                if out.len() >= HAVOC_LEAVES {
                    return;
                }
                let e = index(slot.clone(), int(i as i128, Ty::ULONG, loc), loc);
                havoc_writes(p, e, el, loc, out);
            }
        }
        Ty::Comp(c) if p.comp(*c).kind == CompKind::Struct => {
            for (fi, fd) in p.comp(*c).fields.iter().enumerate() {
                let e = Expr::new(
                    ExprKind::Member(Box::new(slot.clone()), fi as u32),
                    fd.ty.clone(),
                    loc,
                );
                havoc_writes(p, e, &fd.ty, loc, out);
            }
        }
        _ => {}
    }
}

/// Writes of an initialiser into `slot` (missing parts are zero, which a
/// fresh pool slot already is).
pub(super) fn init_writes(
    p: &Program,
    slot: Expr,
    ty: &Ty,
    init: &Init,
    loc: Loc,
    out: &mut Vec<Stmt>,
) {
    match init {
        Init::Expr(e) => out.push(assign(slot, e.clone(), loc)),
        Init::Array(items) => {
            for (i, it) in items {
                let el = index(slot.clone(), int(*i as i128, Ty::ULONG, loc), loc);
                let et = el.ty.clone();
                init_writes(p, el, &et, it, loc, out);
            }
        }
        Init::Comp(items) => {
            if let Ty::Comp(c) = ty.unqual() {
                for (fi, it) in items {
                    let fty = p.comp(*c).fields[*fi as usize].ty.clone();
                    let el = Expr::new(
                        ExprKind::Member(Box::new(slot.clone()), *fi),
                        fty.clone(),
                        loc,
                    );
                    init_writes(p, el, &fty, it, loc, out);
                }
            }
        }
        Init::Str(b) => {
            for (i, c) in b.iter().enumerate() {
                let el = index(slot.clone(), int(i as i128, Ty::ULONG, loc), loc);
                out.push(assign(el, int(*c as i8 as i128, Ty::CHAR, loc), loc));
            }
        }
    }
}
