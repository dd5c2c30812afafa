//! Arithmetic: C's conversions (integer promotion, the usual arithmetic
//! conversions) and the binary operators on lowered rvalues, with pointer
//! arithmetic and the checks C asks of each operand type.

use super::Lowerer;
use super::expr::Want;
use crate::diag::Result;
use crate::ir::*;
use lang_c::ast;
use lang_c::span::Node;

/// Integer promotion (C11 6.3.1.1): everything narrower than int is int.
pub(crate) fn promote(t: &Ty) -> Ty {
    match t.unqual() {
        Ty::Bool => Ty::INT,
        Ty::Int(k) if k.rank() < IntKind::Int.rank() => Ty::INT,
        t => t.clone(),
    }
}

/// The usual arithmetic conversions (C11 6.3.1.8).
pub(crate) fn usual(a: &Ty, b: &Ty, dm: DataModel) -> Ty {
    if let (Ty::Float(x), Ty::Float(y)) = (a.unqual(), b.unqual()) {
        return Ty::Float((*x).max(*y));
    }
    if let Ty::Float(x) = a.unqual() {
        return Ty::Float(*x);
    }
    if let Ty::Float(y) = b.unqual() {
        return Ty::Float(*y);
    }
    let (Some(x), Some(y)) = (promote(a).int_kind(), promote(b).int_kind()) else {
        return promote(a);
    };
    if x == y {
        return Ty::Int(x);
    }
    if x.signed() == y.signed() {
        return Ty::Int(if x.rank() >= y.rank() { x } else { y });
    }
    let (s, u) = if x.signed() { (x, y) } else { (y, x) };
    if u.rank() >= s.rank() {
        Ty::Int(u)
    } else if s.bits(dm) > u.bits(dm) {
        Ty::Int(s)
    } else {
        Ty::Int(s.to_unsigned())
    }
}

impl<'a> Lowerer<'a> {
    /// `a op b` for already lowered rvalues, with C's conversions.
    pub(super) fn arith_on(
        &mut self,
        op: BinOp,
        a: Expr,
        b: Expr,
        loc: Loc,
        e: &Node<ast::Expression>,
    ) -> Result<Expr> {
        use BinOp::*;
        let dm = self.prog.data_model;
        // glibc's pthread_t is unsigned long and pthread_key_t unsigned
        // int: programs compare them with == (POSIX: pthread_equal).
        let ids = |me: &mut Self, x: Expr| match x.ty.unqual() {
            Ty::Pthread(PthreadTy::Thread) => me.convert(x, &Ty::ULONG),
            Ty::Pthread(PthreadTy::Key) => me.convert(x, &Ty::UINT),
            _ => x,
        };
        let a = self.value(a);
        let a = ids(self, a);
        let b = self.value(b);
        let b = ids(self, b);
        let (ap, bp) = (a.ty.is_pointer(), b.ty.is_pointer());
        match op {
            Add | Sub if ap || bp => {
                if op == Sub && ap && bp {
                    let pd = if dm == DataModel::Lp64 {
                        Ty::LONG
                    } else {
                        Ty::INT
                    };
                    return Ok(Expr::new(
                        ExprKind::Binary(PtrDiff, Box::new(a), Box::new(b)),
                        pd,
                        loc,
                    ));
                }
                let (p, i) = if ap { (a, b) } else { (b, a) };
                if !i.ty.is_integer() || (op == Sub && !ap) {
                    return self.error(e.span, "invalid operands to pointer arithmetic");
                }
                if p.ty.pointee().is_some_and(|t| t.is_void()) {
                    // gcc's void* arithmetic counts bytes; keep it as char*.
                    let cp = self.convert(p, &Ty::CHAR.ptr());
                    let t = promote(&i.ty);
                    let i = self.convert(i, &t);
                    let r = self.ptr_arith(if op == Add { PtrAdd } else { PtrSub }, cp, i, loc);
                    return Ok(self.convert(r, &Ty::Void.ptr()));
                }
                let t = promote(&i.ty);
                let i = self.convert(i, &t);
                Ok(self.ptr_arith(if op == Add { PtrAdd } else { PtrSub }, p, i, loc))
            }
            Eq | Ne | Lt | Le | Gt | Ge if ap || bp => {
                // Pointer comparisons; a null constant takes the other's type.
                let (a, b) = if ap && !bp {
                    let t = a.ty.clone();
                    (a, self.convert(b, &t))
                } else if bp && !ap {
                    let t = b.ty.clone();
                    (self.convert(a, &t), b)
                } else if a.ty.unqual() != b.ty.unqual() {
                    let t = Ty::Void.ptr();
                    (self.convert(a, &t), self.convert(b, &t))
                } else {
                    (a, b)
                };
                Ok(Expr::new(
                    ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    Ty::INT,
                    loc,
                ))
            }
            LogAnd | LogOr => Ok(self.fold(Expr::new(
                ExprKind::Binary(op, Box::new(a), Box::new(b)),
                Ty::INT,
                loc,
            ))),
            Shl | Shr => {
                if !a.ty.is_integer() || !b.ty.is_integer() {
                    return self.error(e.span, "shift operands must be integers");
                }
                let ta = promote(&a.ty);
                let tb = promote(&b.ty);
                let a = self.convert(a, &ta);
                let b = self.convert(b, &tb);
                Ok(self.fold(Expr::new(
                    ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    ta,
                    loc,
                )))
            }
            _ => {
                if !a.ty.is_arith() || !b.ty.is_arith() {
                    return self.error(
                        e.span,
                        format!("invalid operands to binary '{}'", op.c_op()),
                    );
                }
                if matches!(op, Rem | BitAnd | BitOr | BitXor)
                    && (!a.ty.is_integer() || !b.ty.is_integer())
                {
                    return self.error(
                        e.span,
                        format!("invalid operands to binary '{}'", op.c_op()),
                    );
                }
                let t = usual(&a.ty, &b.ty, dm);
                let a = self.convert(a, &t);
                let b = self.convert(b, &t);
                let rt = if op.is_comparison() { Ty::INT } else { t };
                Ok(self.fold(Expr::new(
                    ExprKind::Binary(op, Box::new(a), Box::new(b)),
                    rt,
                    loc,
                )))
            }
        }
    }

    /// `sizeof a / sizeof a[0]` over a type holding pthread objects: the
    /// element count is the same under both layouts, so neither size is a
    /// difference the output could see (`Program::pthread_layout`). The
    /// layout uses made by the two sides start at `n0` and `n1`.
    fn same_ratio(&mut self, n0: usize, n1: usize) {
        let uses = &mut self.prog.pthread_layout;
        if n1 != n0 + 1 || uses.len() != n1 + 1 {
            return;
        }
        let (a, b) = (&uses[n0], &uses[n1]);
        let alike = a.what == "sizeof"
            && b.what == "sizeof"
            && b.glibc != 0
            && b.retyped != 0
            && a.glibc % b.glibc == 0
            && a.retyped % b.retyped == 0
            && a.glibc / b.glibc == a.retyped / b.retyped;
        if alike {
            uses[n0].harmless = true;
            uses[n1].harmless = true;
        }
    }

    pub(super) fn binary(
        &mut self,
        b: &'a Node<ast::BinaryOperatorExpression>,
        e: &'a Node<ast::Expression>,
        want: Want,
    ) -> Result<Expr> {
        use ast::BinaryOperator as B;
        let loc = self.loc(e.span);
        let simple = |o: &B| -> Option<BinOp> {
            Some(match o {
                B::Multiply => BinOp::Mul,
                B::Divide => BinOp::Div,
                B::Modulo => BinOp::Rem,
                B::Plus => BinOp::Add,
                B::Minus => BinOp::Sub,
                B::ShiftLeft => BinOp::Shl,
                B::ShiftRight => BinOp::Shr,
                B::Less => BinOp::Lt,
                B::Greater => BinOp::Gt,
                B::LessOrEqual => BinOp::Le,
                B::GreaterOrEqual => BinOp::Ge,
                B::Equals => BinOp::Eq,
                B::NotEquals => BinOp::Ne,
                B::BitwiseAnd => BinOp::BitAnd,
                B::BitwiseXor => BinOp::BitXor,
                B::BitwiseOr => BinOp::BitOr,
                _ => return None,
            })
        };
        let compound = |o: &B| -> Option<BinOp> {
            Some(match o {
                B::AssignMultiply => BinOp::Mul,
                B::AssignDivide => BinOp::Div,
                B::AssignModulo => BinOp::Rem,
                B::AssignPlus => BinOp::Add,
                B::AssignMinus => BinOp::Sub,
                B::AssignShiftLeft => BinOp::Shl,
                B::AssignShiftRight => BinOp::Shr,
                B::AssignBitwiseAnd => BinOp::BitAnd,
                B::AssignBitwiseXor => BinOp::BitXor,
                B::AssignBitwiseOr => BinOp::BitOr,
                _ => return None,
            })
        };
        let o = &b.node.operator.node;
        if *o == B::Index {
            return self.index(&b.node.lhs, &b.node.rhs, e);
        }
        if let Some(op) = simple(o) {
            let n0 = self.prog.pthread_layout.len();
            let x = self.rvalue(&b.node.lhs)?;
            let n1 = self.prog.pthread_layout.len();
            let y = self.rvalue(&b.node.rhs)?;
            if op == BinOp::Div {
                self.same_ratio(n0, n1);
            }
            return self.arith_on(op, x, y, loc, e);
        }
        match o {
            B::LogicalAnd | B::LogicalOr => {
                let and = *o == B::LogicalAnd;
                let x = self.cond_expr(&b.node.lhs)?;
                let (rb, y) = self.collect(|s| s.cond_expr(&b.node.rhs))?;
                if rb.0.is_empty() {
                    let op = if and { BinOp::LogAnd } else { BinOp::LogOr };
                    return self.arith_on(op, x, y, loc, e);
                }
                // The right side has effects: only evaluate it when C does.
                let t = self.temp(Ty::INT, loc);
                let mut then_b = rb;
                let y_is = Expr::new(
                    ExprKind::Binary(
                        BinOp::Ne,
                        Box::new(y.clone()),
                        Box::new(self.convert(Expr::int(0, Ty::INT, loc), &y.ty)),
                    ),
                    Ty::INT,
                    loc,
                );
                then_b.0.push(Stmt {
                    kind: StmtKind::Assign(t.clone(), y_is),
                    loc: loc.generated(),
                });
                let other = Block(vec![Stmt {
                    kind: StmtKind::Assign(
                        t.clone(),
                        Expr::int(if and { 0 } else { 1 }, Ty::INT, loc),
                    ),
                    loc: loc.generated(),
                }]);
                let (tb, eb) = if and {
                    (then_b, other)
                } else {
                    (other, then_b)
                };
                self.emit(StmtKind::If(x, tb, eb), loc.generated());
                Ok(t)
            }
            B::Assign => {
                let lv = self.expr(&b.node.lhs, Want::Value)?;
                if !lv.is_lvalue() || matches!(lv.ty, Ty::Array(..) | Ty::Func(_)) {
                    return self.error(
                        e.span,
                        "assignment to something that is not a modifiable lvalue",
                    );
                }
                let rv = self.rvalue(&b.node.rhs)?;
                let rv = self.assign_convert(rv, &lv.ty, e)?;
                self.assign_result(lv, rv, want, loc)
            }
            _ => {
                let op = compound(o).unwrap();
                let lv = self.expr(&b.node.lhs, Want::Value)?;
                if !lv.is_lvalue() {
                    return self.error(
                        e.span,
                        "compound assignment to something that is not an lvalue",
                    );
                }
                let lv = if lv.ty.is_atomic() {
                    lv
                } else {
                    self.lvalue_once(lv)
                };
                let rv = self.rvalue(&b.node.rhs)?;
                if lv.ty.is_atomic() {
                    return self.atomic_rmw(lv, op, rv, false, want, loc, e);
                }
                let new = self.arith_on(op, lv.clone(), rv, loc, e)?;
                let new = self.convert(new, &lv.ty);
                self.assign_result(lv, new, want, loc)
            }
        }
    }
}
