//! Expressions: values of C's types as bit-vectors (or integers),
//! comparisons, conversions, arithmetic with C's promotions, nondet.

use super::*;

impl<'p> Symex<'p> {
    pub fn nondet(&mut self, ty: &Ty, loc: Loc) -> R<Val> {
        if regions::is_leaf(ty) {
            let Some(w) = regions::leaf_width(self.p.data_model, ty) else {
                return Err(("long double".into(), loc));
            };
            if matches!(ty.unqual(), Ty::Float(_)) {
                self.float_width(ty, loc)?;
            }
            let base = self.hint.take().unwrap_or_else(|| "nondet".into());
            let t = self.fresh(&base, loc.line, Sort::Bv(w));
            if matches!(ty.unqual(), Ty::Bool) {
                // `_Bool` holds 0 or 1.
                let b = term::from_bool(&term::nonzero(&t), 8);
                return Ok(Val::S(b));
            }
            return Ok(Val::S(t));
        }
        let mut v = Vec::new();
        for (_, lt, _) in self.leaf_list(ty, None) {
            v.push(self.nondet(&lt, loc)?.s());
        }
        Ok(Val::A(v))
    }

    /// An expression in a Boolean context: comparisons and logical
    /// operators become Boolean terms directly, without a detour
    /// through `int`.
    pub(super) fn cond(&mut self, st: &State, fr: &Frame, e: &Expr) -> R<T> {
        match &e.kind {
            ExprKind::Unary(UnOp::LogNot, x) => Ok(term::not(&self.cond(st, fr, x)?)),
            ExprKind::Binary(BinOp::LogAnd, a, b) => {
                let x = self.cond(st, fr, a)?;
                let y = self.cond(st, fr, b)?;
                Ok(term::and(&x, &y))
            }
            ExprKind::Binary(BinOp::LogOr, a, b) => {
                let x = self.cond(st, fr, a)?;
                let y = self.cond(st, fr, b)?;
                Ok(term::or(&x, &y))
            }
            ExprKind::Binary(op, a, b) if op.is_comparison() => self.compare(st, fr, *op, a, b),
            ExprKind::Cast(x)
                if e.ty.is_integer()
                    && x.ty.is_scalar()
                    && !matches!(x.ty.unqual(), Ty::Float(_)) =>
            {
                // A cast to a wider or equal integer keeps zero-ness.
                let ew = regions::leaf_width(self.p.data_model, &e.ty).unwrap_or(0);
                let xw = regions::leaf_width(self.p.data_model, &x.ty).unwrap_or(u32::MAX);
                if matches!(e.ty.unqual(), Ty::Bool) || ew >= xw {
                    self.cond(st, fr, x)
                } else {
                    let v = self.rvalue(st, fr, e)?.s();
                    Ok(term::nonzero(&v))
                }
            }
            _ if matches!(e.ty.unqual(), Ty::Float(_)) => {
                let v = self.rvalue(st, fr, e)?.s();
                Ok(self.float_truth(&v))
            }
            _ => {
                let v = self.rvalue(st, fr, e)?.s();
                Ok(term::nonzero(&v))
            }
        }
    }

    pub(super) fn compare(
        &mut self,
        st: &State,
        fr: &Frame,
        op: BinOp,
        a: &Expr,
        b: &Expr,
    ) -> R<T> {
        use BinOp::*;
        let av = self.rvalue(st, fr, a)?.s();
        let bv = self.rvalue(st, fr, b)?.s();
        if matches!(a.ty.unqual(), Ty::Float(_)) || matches!(b.ty.unqual(), Ty::Float(_)) {
            // The usual conversions gave both the same floating type.
            let y = self.float_convert(bv, &b.ty, &a.ty, b.loc)?;
            return Ok(self.float_compare(op, &av, &y));
        }
        // Operands have their common type (pointers compare as unsigned
        // addresses).
        let ptr = a.ty.is_pointer() || b.ty.is_pointer();
        let (x, y) = if ptr {
            (
                term::resize(&av, self.pw, false),
                term::resize(&bv, self.pw, false),
            )
        } else {
            let y = self.convert_s(bv, &b.ty, &a.ty);
            (av, y)
        };
        let s = !ptr && a.ty.is_signed();
        let (lt, le) = if s {
            ("bvslt", "bvsle")
        } else {
            ("bvult", "bvule")
        };
        Ok(match op {
            Eq => term::eq(&x, &y),
            Ne => term::not(&term::eq(&x, &y)),
            Lt => term::cmp(lt, &x, &y),
            Le => term::cmp(le, &x, &y),
            Gt => term::cmp(lt, &y, &x),
            _ => term::cmp(le, &y, &x),
        })
    }

    pub(super) fn rvalue(&mut self, st: &State, fr: &Frame, e: &Expr) -> R<Val> {
        let p = self.p;
        let dm = p.data_model;
        let w_of = |t: &Ty| regions::leaf_width(dm, t);
        Ok(match &e.kind {
            ExprKind::Int(v) => {
                let Some(w) = w_of(&e.ty) else {
                    return Err(("a constant of this type".into(), e.loc));
                };
                Val::S(term::bv(*v, w))
            }
            ExprKind::Float(text) => Val::S(self.float_literal(text, &e.ty, e.loc)?),
            ExprKind::Local(_)
            | ExprKind::Global(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..)
            | ExprKind::Str(_) => {
                if matches!(e.ty.unqual(), Ty::Float(_)) {
                    self.float_width(&e.ty, e.loc)?;
                }
                let place = self.place(st, fr, e)?;
                self.read(st, &place, &e.ty, e.loc.line)?
            }
            ExprKind::Func(f) => Val::S(self.func_addr(*f, e.loc)?),
            ExprKind::AddrOf(x) | ExprKind::Decay(x) => {
                if let ExprKind::Func(f) = x.kind {
                    return Ok(Val::S(self.func_addr(f, e.loc)?));
                }
                match self.place(st, fr, x)? {
                    Place::Mem(a, _) => Val::S(a),
                    Place::Var(_) => {
                        return Err(("the address of a register variable".into(), e.loc));
                    }
                }
            }
            ExprKind::Unary(UnOp::LogNot, _) => {
                let c = self.cond(st, fr, e)?;
                Val::S(term::from_bool(&c, w_of(&e.ty).unwrap_or(32)))
            }
            ExprKind::Unary(UnOp::Neg, x) if matches!(e.ty.unqual(), Ty::Float(_)) => {
                let v = self.rvalue(st, fr, x)?.s();
                let v = self.float_convert(v, &x.ty, &e.ty, e.loc)?;
                Val::S(self.float_neg(&v))
            }
            ExprKind::Unary(op, x) => {
                let v = self.rvalue(st, fr, x)?.s();
                let v = self.convert_s(v, &x.ty, &e.ty);
                match op {
                    UnOp::Neg => Val::S(term::un("bvneg", &v)),
                    UnOp::BitNot => Val::S(term::un("bvnot", &v)),
                    UnOp::LogNot => unreachable!("handled above"),
                }
            }
            ExprKind::Binary(op, a, b) => Val::S(self.binary(st, fr, *op, a, b, e)?),
            ExprKind::Cast(x)
                if matches!(e.ty.unqual(), Ty::Float(_))
                    || matches!(x.ty.unqual(), Ty::Float(_)) =>
            {
                let v = self.rvalue(st, fr, x)?.s();
                if e.ty.is_void() {
                    return Ok(Val::S(term::bv(0, 8)));
                }
                let r = self.float_convert(v.clone(), &x.ty, &e.ty, e.loc)?;
                if !(matches!(e.ty.unqual(), Ty::Int(_)) && matches!(x.ty.unqual(), Ty::Float(_))) {
                    return Ok(Val::S(r));
                }
                // An integral part the type cannot hold (NaN too): any
                // value (DESIGN.md §2), which the oracle draws as well.
                let fits = self.float_fits(&v, &e.ty);
                if fits.is_true() {
                    return Ok(Val::S(r));
                }
                let any = self.fresh("f2i", e.loc.line, r.sort());
                self.nondet_event_when(st, &term::not(&fits), e.loc, &any);
                Val::S(term::ite(&fits, &r, &any))
            }
            ExprKind::Cast(x) => {
                let v = self.rvalue(st, fr, x)?;
                if e.ty.is_void() {
                    return Ok(Val::S(term::bv(0, 8)));
                }
                self.convert(v, &x.ty, &e.ty)
            }
            ExprKind::Cond(c, a, b) => {
                let cv = self.cond(st, fr, c)?;
                let av = self.rvalue(st, fr, a)?;
                let av = self.convert(av, &a.ty, &e.ty);
                let bv = self.rvalue(st, fr, b)?;
                let bv = self.convert(bv, &b.ty, &e.ty);
                match (av, bv) {
                    (Val::S(x), Val::S(y)) => Val::S(term::ite(&cv, &x, &y)),
                    (Val::A(xs), Val::A(ys)) => Val::A(
                        xs.iter()
                            .zip(&ys)
                            .map(|(x, y)| term::ite(&cv, x, y))
                            .collect(),
                    ),
                    _ => return Err(("a conditional of mixed kinds".into(), e.loc)),
                }
            }
            ExprKind::Nondet => {
                let v = self.nondet(&e.ty, e.loc)?;
                if let Val::S(t) = &v
                    && !e.ty.is_pointer()
                {
                    self.nondet_event(st, e.loc, t);
                }
                v
            }
        })
    }

    pub(super) fn func_addr(&mut self, f: FuncId, loc: Loc) -> R<T> {
        match self.fn_addr.get(&f) {
            Some(a) => Ok(term::bv(*a as i128, self.pw)),
            None => Err(("a function designator outside a call".into(), loc)),
        }
    }

    /// C's conversion of a value between scalar types (6.3).
    pub fn convert(&mut self, v: Val, from: &Ty, to: &Ty) -> Val {
        match v {
            Val::S(t) => Val::S(self.convert_s(t, from, to)),
            a => a,
        }
    }

    pub fn convert_s(&mut self, t: T, from: &Ty, to: &Ty) -> T {
        let dm = self.p.data_model;
        let float = |t: &Ty| matches!(t.unqual(), Ty::Float(_));
        if (float(from) || float(to)) && from.unqual() != to.unqual() {
            // The IR makes conversions explicit; one met here is encoded
            // all the same, or refused when the run ends.
            let loc = self.cur_loc;
            return match self.float_convert(t.clone(), from, to, loc) {
                Ok(v) => v,
                Err(e) => {
                    self.refused.get_or_insert(e);
                    t
                }
            };
        }
        if matches!(to.unqual(), Ty::Bool) {
            return term::from_bool(&term::nonzero(&t), 8);
        }
        let Some(w) = regions::leaf_width(dm, to) else {
            return t;
        };
        if matches!(t, T::B(_)) {
            return term::from_bool(&t, w);
        }
        term::resize(&t, w, from.is_signed())
    }

    pub(super) fn binary(
        &mut self,
        st: &State,
        fr: &Frame,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        e: &Expr,
    ) -> R<T> {
        use BinOp::*;
        let p = self.p;
        let dm = p.data_model;
        let rw = regions::leaf_width(dm, &e.ty).unwrap_or(32);
        if op.is_comparison() || matches!(op, LogAnd | LogOr) {
            let c = self.cond(st, fr, e)?;
            return Ok(term::from_bool(&c, rw));
        }
        let av = self.rvalue(st, fr, a)?.s();
        let bv = self.rvalue(st, fr, b)?.s();
        if matches!(e.ty.unqual(), Ty::Float(_)) {
            let x = self.float_convert(av, &a.ty, &e.ty, e.loc)?;
            let y = self.float_convert(bv, &b.ty, &e.ty, e.loc)?;
            return self
                .float_arith(op, &x, &y, e.loc.line)
                .map_err(|(m, _)| (m, e.loc));
        }
        Ok(match op {
            Add | Sub | Mul | Div | Rem | BitAnd | BitOr | BitXor => {
                let x = self.convert_s(av, &a.ty, &e.ty);
                let y = self.convert_s(bv, &b.ty, &e.ty);
                let signed = e.ty.is_signed();
                match op {
                    Add => term::bin("bvadd", &x, &y),
                    Sub => term::bin("bvsub", &x, &y),
                    Mul => term::bin("bvmul", &x, &y),
                    BitAnd => term::bin("bvand", &x, &y),
                    BitOr => term::bin("bvor", &x, &y),
                    BitXor => term::bin("bvxor", &x, &y),
                    _ => {
                        // x / 0 and x % 0: any value (DESIGN.md §2).
                        let name = match (op, signed) {
                            (Div, true) => "bvsdiv",
                            (Div, false) => "bvudiv",
                            (_, true) => "bvsrem",
                            (_, false) => "bvurem",
                        };
                        let zero = term::eq(&y, &term::bv(0, rw));
                        if zero.is_false() {
                            term::bin(name, &x, &y)
                        } else {
                            let any = self.fresh("div0", e.loc.line, Sort::Bv(rw));
                            // The oracle draws this value: the replay needs it.
                            self.nondet_event_when(st, &zero, e.loc, &any);
                            term::ite(&zero, &any, &term::bin(name, &x, &y))
                        }
                    }
                }
            }
            Shl | Shr => {
                let x = self.convert_s(av, &a.ty, &e.ty);
                // The amount in range [0, width) or any result.
                let bw = bv.width();
                let amt_ok = if b.ty.is_signed() {
                    term::and(
                        &term::cmp("bvsle", &term::bv(0, bw), &bv),
                        &term::cmp("bvslt", &bv, &term::bv(rw as i128, bw)),
                    )
                } else {
                    term::cmp("bvult", &bv, &term::bv(rw as i128, bw.max(8)))
                };
                let amt_ok = if !b.ty.is_signed() && bw < 8 {
                    T::B(true)
                } else {
                    amt_ok
                };
                let n = term::resize(&bv, rw, false);
                let name = match op {
                    Shl => "bvshl",
                    _ if e.ty.is_signed() => "bvashr",
                    _ => "bvlshr",
                };
                let r = term::bin(name, &x, &n);
                if amt_ok.is_true() {
                    r
                } else {
                    let any = self.fresh("shift", e.loc.line, Sort::Bv(rw));
                    self.nondet_event_when(st, &term::not(&amt_ok), e.loc, &any);
                    term::ite(&amt_ok, &r, &any)
                }
            }
            Eq | Ne | Lt | Le | Gt | Ge | LogAnd | LogOr => unreachable!("handled above"),
            PtrAdd | PtrSub => {
                let sz = p
                    .size_of(e.ty.pointee().unwrap_or(&Ty::CHAR))
                    .unwrap_or(1)
                    .max(1);
                let i = term::resize(&bv, self.pw, b.ty.is_signed());
                let off = term::bin("bvmul", &i, &term::bv(sz as i128, self.pw));
                term::bin(if op == PtrAdd { "bvadd" } else { "bvsub" }, &av, &off)
            }
            PtrDiff => {
                let sz = p
                    .size_of(a.ty.pointee().unwrap_or(&Ty::CHAR))
                    .unwrap_or(1)
                    .max(1);
                let d = term::bin("bvsub", &av, &bv);
                let q = term::bin("bvsdiv", &d, &term::bv(sz as i128, self.pw));
                term::resize(&q, rw, true)
            }
        })
    }
}
