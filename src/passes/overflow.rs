//! `--property overflow`: an assertion before each statement for every
//! signed integer operation it evaluates (SV-COMP's no-overflow).
//!
//! Checked: `+`, `-`, `*`, unary `-`, `/` and `%` (`MIN / -1`) and `<<`
//! (a result that is not representable, for counts in `0..width`) whose
//! type is a signed integer type after the usual conversions (C11 6.5p5,
//! 6.5.5p6, 6.5.7p4), and conversions of a floating value to an integer
//! type that cannot hold its integral part (6.3.1.4p1; NaN included; the
//! check compares in `double`, where `float` values are exact and so are
//! the limits used). Not checked, as C defines them: unsigned
//! arithmetic, conversions to a narrower signed type (gcc wraps; C calls
//! it implementation-defined), `char` and `short` arithmetic (done in
//! `int`), the atomic fetch-ops (they wrap, C11 7.17.7.5p3; a signed
//! `x += v` on an `_Atomic` object is an atomic section, checked).
//! Division by zero and out-of-range shift counts keep their pinned
//! meaning (DESIGN.md §2): they are not overflow.
//!
//! Pre: normalised IR made with `normalize(.., overflow = true)`, so
//! that outside atomic code an expression holding a checked operation
//! makes no shared read and draws no nondeterministic value (both were
//! hoisted into temporaries, in evaluation order): the checks may
//! evaluate the operands again and see the same values, and they add no
//! visible step. Post: before each statement, one `Assert(.., Overflow)`
//! per checked operation, in evaluation order, each saying the operation
//! does not overflow; an operation evaluated only sometimes (under `&&`,
//! `||` or `?:`) is checked under the same condition. Each check stands
//! at the place of its operation, as the oracle reports an overflow. The
//! conditions themselves never overflow: they compare against the type's
//! limits before computing.
//!
//! Inside atomic code nothing was hoisted: reads may be evaluated twice
//! there (nothing runs in between), but a nondeterministic draw may not,
//! so an operation whose check would draw again is not checked (this can
//! only hide an overflow; the README says so).

use crate::ir::*;

/// The checks for the expressions statement `s` evaluates itself (not
/// those of nested blocks).
pub fn checks_of(s: &Stmt, dm: DataModel, out: &mut Vec<Stmt>) {
    s.each_expr(&mut |e| {
        let mut conds = Vec::new();
        walk(e, None, dm, &mut conds);
        out.extend(conds.into_iter().map(|(c, loc)| Stmt {
            kind: StmtKind::Assert(c, AssertKind::Overflow),
            loc,
        }));
    });
}

/// `b` with the checks of every statement, nested blocks included (the
/// statements a normaliser made of one input statement, or atomic code
/// it left whole).
pub fn instrument(b: Vec<Stmt>, dm: DataModel) -> Vec<Stmt> {
    let mut out = Vec::new();
    for mut s in b {
        checks_of(&s, dm, &mut out);
        each_block(&mut s, &mut |b| {
            b.0 = instrument(std::mem::take(&mut b.0), dm);
        });
        out.push(s);
    }
    out
}

fn each_block(s: &mut Stmt, f: &mut impl FnMut(&mut Block)) {
    match &mut s.kind {
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

/// Whether `e` holds an operation this pass checks.
pub fn has_checked(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= checked(x));
    found
}

fn checked(e: &Expr) -> bool {
    if let ExprKind::Cast(a) = &e.kind {
        return matches!(a.ty.unqual(), Ty::Float(_)) && matches!(e.ty.unqual(), Ty::Int(_));
    }
    let signed = matches!(e.ty.unqual(), Ty::Int(k) if k.signed());
    signed
        && matches!(
            e.kind,
            ExprKind::Unary(UnOp::Neg, _)
                | ExprKind::Binary(
                    BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::Shl,
                    ..
                )
        )
}

fn has_nondet(e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |x| found |= matches!(x.kind, ExprKind::Nondet));
    found
}

/// Pushes, in evaluation order, "no overflow" for each checked operation
/// of `e`, under `guard` (the condition under which `e` is evaluated).
fn walk(e: &Expr, guard: Option<&Expr>, dm: DataModel, out: &mut Vec<(Expr, Loc)>) {
    let l = e.loc.generated();
    match &e.kind {
        ExprKind::Binary(op @ (BinOp::LogAnd | BinOp::LogOr), a, b) => {
            walk(a, guard, dm, out);
            let a = truth(a);
            let a = if *op == BinOp::LogAnd { a } else { not(a) };
            let g = and_opt(guard, a, l);
            walk(b, Some(&g), dm, out);
        }
        ExprKind::Cond(c, x, y) => {
            walk(c, guard, dm, out);
            let gx = and_opt(guard, truth(c), l);
            walk(x, Some(&gx), dm, out);
            let gy = and_opt(guard, not(truth(c)), l);
            walk(y, Some(&gy), dm, out);
        }
        ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
            walk(a, guard, dm, out);
            walk(b, guard, dm, out);
        }
        ExprKind::Unary(_, a)
        | ExprKind::Cast(a)
        | ExprKind::Deref(a)
        | ExprKind::AddrOf(a)
        | ExprKind::Member(a, _)
        | ExprKind::Decay(a) => walk(a, guard, dm, out),
        _ => {}
    }
    if !checked(e) || has_nondet(e) || guard.is_some_and(has_nondet) {
        return;
    }
    let ok = not(overflows(e, dm));
    let c = match guard {
        None => ok,
        Some(g) => bin(BinOp::LogOr, not(g.clone()), ok, Ty::INT, l),
    };
    out.push((c, e.loc));
}

/// The condition under which checked operation `e` overflows, computed
/// without overflowing.
fn overflows(e: &Expr, dm: DataModel) -> Expr {
    let l = e.loc.generated();
    let ty = e.ty.unqual().clone();
    let w = ty.int_bits(dm).unwrap_or(32);
    let max = || Expr::int((1i128 << (w - 1)) - 1, ty.clone(), l);
    let min = || Expr::int(-(1i128 << (w - 1)), ty.clone(), l);
    let zero = || Expr::int(0, ty.clone(), l);
    let arith = |op, a: Expr, b: Expr| bin(op, a, b, ty.clone(), l);
    let cmp = |op, a: Expr, b: Expr| bin(op, a, b, Ty::INT, l);
    let and = |a, b| bin(BinOp::LogAnd, a, b, Ty::INT, l);
    let or = |a, b| bin(BinOp::LogOr, a, b, Ty::INT, l);
    let as_ty = |x: &Expr| cast(x.clone(), &ty);
    match &e.kind {
        ExprKind::Cast(a) => {
            // In range iff lo < a < hi, with lo = MIN - 1 and hi = MAX + 1
            // (a power of two); when MIN - 1 is no double, no double lies
            // between it and MIN, so lo <= a with lo = MIN.
            let d = Ty::Float(FloatKind::Double);
            let signed = ty.is_signed();
            let lit = |v: i128| {
                let x = Expr::new(ExprKind::Float(format!("{}.0", v.abs())), d.clone(), l);
                if v < 0 {
                    Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(x)), d.clone(), l)
                } else {
                    x
                }
            };
            let (min, hi) = if signed {
                (-(1i128 << (w - 1)), 1i128 << (w - 1))
            } else {
                (0, 1i128 << w)
            };
            let a = cast(a.as_ref().clone(), &d);
            let low = if (min - 1).abs() <= 1i128 << 53 {
                cmp(BinOp::Gt, a.clone(), lit(min - 1))
            } else {
                cmp(BinOp::Ge, a.clone(), lit(min))
            };
            not(and(low, cmp(BinOp::Lt, a, lit(hi))))
        }
        ExprKind::Unary(UnOp::Neg, a) => cmp(BinOp::Eq, as_ty(a), min()),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (as_ty(a), b.as_ref().clone());
            match op {
                BinOp::Add | BinOp::Sub => {
                    let b = cast(b, &ty);
                    // a + b > MAX  <=>  a > MAX - b when b > 0, etc.
                    let (up, down) = if *op == BinOp::Add {
                        (BinOp::Gt, BinOp::Lt)
                    } else {
                        (BinOp::Lt, BinOp::Gt)
                    };
                    let back = if *op == BinOp::Add {
                        BinOp::Sub
                    } else {
                        BinOp::Add
                    };
                    or(
                        and(
                            cmp(up, b.clone(), zero()),
                            cmp(BinOp::Gt, a.clone(), arith(back, max(), b.clone())),
                        ),
                        and(
                            cmp(down, b.clone(), zero()),
                            cmp(BinOp::Lt, a, arith(back, min(), b)),
                        ),
                    )
                }
                BinOp::Mul if w < 64 => {
                    let ll = Ty::Int(IntKind::LongLong);
                    let p = bin(
                        BinOp::Mul,
                        cast(a, &ll),
                        cast(cast(b, &ty), &ll),
                        ll.clone(),
                        l,
                    );
                    let lim = |v: i128| Expr::int(v, ll.clone(), l);
                    or(
                        cmp(BinOp::Gt, p.clone(), lim((1i128 << (w - 1)) - 1)),
                        cmp(BinOp::Lt, p, lim(-(1i128 << (w - 1)))),
                    )
                }
                BinOp::Mul => {
                    // Each division is by a nonzero value of the right sign:
                    // none overflows.
                    let b = cast(b, &ty);
                    let pos = |x: &Expr| cmp(BinOp::Gt, x.clone(), zero());
                    let cond = |c, x, y| {
                        Expr::new(
                            ExprKind::Cond(Box::new(c), Box::new(x), Box::new(y)),
                            Ty::INT,
                            l,
                        )
                    };
                    let div = |x, y| arith(BinOp::Div, x, y);
                    cond(
                        pos(&a),
                        cond(
                            pos(&b),
                            cmp(BinOp::Gt, a.clone(), div(max(), b.clone())),
                            cmp(BinOp::Lt, b.clone(), div(min(), a.clone())),
                        ),
                        cond(
                            pos(&b),
                            cmp(BinOp::Lt, a.clone(), div(min(), b.clone())),
                            and(
                                cmp(BinOp::Ne, a.clone(), zero()),
                                cmp(BinOp::Lt, b, div(max(), a)),
                            ),
                        ),
                    )
                }
                BinOp::Div | BinOp::Rem => {
                    let b = cast(b, &ty);
                    and(
                        cmp(BinOp::Eq, a, min()),
                        cmp(BinOp::Eq, b, Expr::int(-1, ty.clone(), l)),
                    )
                }
                BinOp::Shl => {
                    // For 0 <= b < w: a << b fits iff
                    // -(MAX >> b) - 1 <= a <= MAX >> b.
                    let bt = b.ty.unqual().clone();
                    let in_range = and(
                        cmp(BinOp::Ge, b.clone(), Expr::int(0, bt.clone(), l)),
                        cmp(BinOp::Lt, b.clone(), Expr::int(w as i128, bt.clone(), l)),
                    );
                    let hi = bin(BinOp::Shr, max(), b, ty.clone(), l);
                    let lo = arith(
                        BinOp::Sub,
                        Expr::new(
                            ExprKind::Unary(UnOp::Neg, Box::new(hi.clone())),
                            ty.clone(),
                            l,
                        ),
                        Expr::int(1, ty.clone(), l),
                    );
                    and(
                        in_range,
                        or(cmp(BinOp::Gt, a.clone(), hi), cmp(BinOp::Lt, a, lo)),
                    )
                }
                _ => unreachable!("not a checked operation"),
            }
        }
        _ => unreachable!("not a checked operation"),
    }
}

fn bin(op: BinOp, a: Expr, b: Expr, ty: Ty, l: Loc) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, l)
}

fn cast(e: Expr, ty: &Ty) -> Expr {
    if e.ty.unqual() == ty {
        return e;
    }
    let l = e.loc;
    Expr::new(ExprKind::Cast(Box::new(e)), ty.clone(), l)
}

fn not(e: Expr) -> Expr {
    let l = e.loc;
    Expr::new(ExprKind::Unary(UnOp::LogNot, Box::new(e)), Ty::INT, l)
}

/// `e != 0`, as an int.
fn truth(e: &Expr) -> Expr {
    crate::passes::normalize::truth(e.clone(), &e.ty, e.loc.generated())
}

fn and_opt(g: Option<&Expr>, c: Expr, l: Loc) -> Expr {
    match g {
        None => c,
        Some(g) => bin(BinOp::LogAnd, g.clone(), c, Ty::INT, l),
    }
}
