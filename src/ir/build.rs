//! Small constructors of IR nodes for the passes: each builds one node
//! with the type C gives it, so that a pass reads as the code it makes.

use super::*;

pub fn st(kind: StmtKind, loc: Loc) -> Stmt {
    Stmt { kind, loc }
}

/// An operation with no operands and no result (`abort`, the bounds of
/// an atomic section).
pub fn bare_op(op: Op, loc: Loc) -> Stmt {
    st(
        StmtKind::Op {
            dest: None,
            op,
            args: vec![],
        },
        loc,
    )
}

pub fn int(v: i128, ty: Ty, loc: Loc) -> Expr {
    Expr::int(v, ty, loc)
}

pub fn glob(p: &Program, g: GlobalId, loc: Loc) -> Expr {
    Expr::new(ExprKind::Global(g), p.global(g).ty.clone(), loc)
}

pub fn lv_local(v: LocalId, ty: Ty, loc: Loc) -> Expr {
    Expr::new(ExprKind::Local(v), ty, loc)
}

pub fn deref(e: Expr, loc: Loc) -> Expr {
    let ty = e.ty.pointee().cloned().unwrap_or(Ty::Void);
    Expr::new(ExprKind::Deref(Box::new(e)), ty, loc)
}

pub fn index(a: Expr, i: Expr, loc: Loc) -> Expr {
    let ty = match a.ty.unqual() {
        Ty::Array(t, _) => (**t).clone(),
        _ => Ty::INT,
    };
    Expr::new(ExprKind::Index(Box::new(a), Box::new(i)), ty, loc)
}

pub fn bin(op: BinOp, a: Expr, b: Expr, ty: Ty, loc: Loc) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, loc)
}

pub fn cmp(op: BinOp, a: Expr, b: Expr, loc: Loc) -> Expr {
    bin(op, a, b, Ty::INT, loc)
}

pub fn not(a: Expr, loc: Loc) -> Expr {
    Expr::new(ExprKind::Unary(UnOp::LogNot, Box::new(a)), Ty::INT, loc)
}

pub fn cast(e: Expr, ty: Ty, loc: Loc) -> Expr {
    if e.ty == ty {
        return e;
    }
    Expr::new(ExprKind::Cast(Box::new(e)), ty, loc)
}

pub fn assign(a: Expr, b: Expr, loc: Loc) -> Stmt {
    let b = cast(b, a.ty.clone(), loc);
    st(StmtKind::Assign(a, b), loc)
}

pub fn if_(c: Expr, a: Vec<Stmt>, b: Vec<Stmt>, loc: Loc) -> Stmt {
    st(StmtKind::If(c, Block(a), Block(b)), loc)
}

pub fn addr_of(e: Expr, loc: Loc) -> Expr {
    let ty = e.ty.clone().ptr();
    Expr::new(ExprKind::AddrOf(Box::new(e)), ty, loc)
}

/// `then` under `p != 0`: nothing for a null constant, no test for an
/// address (`&x`, an array), the test otherwise.
pub fn if_nonnull(p: &Expr, then: Vec<Stmt>, loc: Loc) -> Vec<Stmt> {
    match &strip_cast(p).kind {
        ExprKind::Int(0) => vec![],
        ExprKind::AddrOf(_) | ExprKind::Decay(_) => then,
        _ => vec![if_(
            cmp(BinOp::Ne, p.clone(), int(0, Ty::INT, loc), loc),
            then,
            vec![],
            loc,
        )],
    }
}

pub fn strip_cast(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Cast(a) => strip_cast(a),
        _ => e,
    }
}

pub fn const_of(e: &Expr) -> Option<i128> {
    match &e.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Cast(a) => const_of(a),
        _ => None,
    }
}
