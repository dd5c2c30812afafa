//! Values: evaluation of the compiled expressions, conversions between
//! C's types, integer and pointer arithmetic with C's semantics.

use super::*;

impl<'p> Machine<'p> {
    pub(super) fn nondet(&self, ty: &Ty, ch: &mut Chooser, loc: Loc) -> R<RVal> {
        let ty = ty.unqual();
        ch.taken_at.push(loc);
        Ok(RVal::S(match ty {
            // A forced value (a model's, a witness's) is made one the type
            // holds: a _Bool is 0 or 1, a float a float.
            Ty::Bool => Value::Int((ch.pick_from(&[0, 1]) != 0) as i128),
            Ty::Int(_) | Ty::Pthread(PthreadTy::Thread) => {
                let v = ch.pick_from(&self.b.nondet);
                Value::Int(self.wrap(v, ty))
            }
            Ty::Ptr(_) => Value::Ptr(0, 0),
            Ty::Float(k) => Value::Float(ch.pick_float(&self.b.nondet, *k).to_bits()),
            Ty::Void => Value::Int(0),
            _ => return unsup("a nondeterministic value of this type", loc),
        }))
    }

    pub fn wrap(&self, v: i128, ty: &Ty) -> i128 {
        match ty.unqual() {
            Ty::Bool => (v != 0) as i128,
            t => {
                let bits = t.int_bits(self.dm()).unwrap_or(64);
                let m = v & ((1i128 << bits) - 1);
                if t.is_signed() && m >= (1i128 << (bits - 1)) {
                    m - (1i128 << bits)
                } else {
                    m
                }
            }
        }
    }

    pub(super) fn eval(&self, st: &State, t: u32, e: &E, loc: Loc, ch: &mut Chooser) -> R<RVal> {
        let f = st.threads[t as usize].frames.last().unwrap();
        self.eval_in(st, t, &f.regs, &f.locals, e, loc, ch)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn eval_in(
        &self,
        st: &State,
        t: u32,
        regs: &[Option<RVal>],
        locals: &[u32],
        e: &E,
        loc: Loc,
        ch: &mut Chooser,
    ) -> R<RVal> {
        let s = |v: Value| Ok(RVal::S(v));
        match e {
            E::Int(v) => s(Value::Int(*v)),
            E::Float(f) => s(Value::Float(f.to_bits())),
            E::Reg(r) => match regs.get(*r as usize).and_then(|x| x.clone()) {
                Some(v) => Ok(v),
                None => unsup("oracle: a register read before it was set", loc),
            },
            E::Nondet(ty) => self.nondet(ty, ch, loc),
            E::AddrGlobal(g) => {
                let gl = self.p.global(*g);
                if gl.thread_local {
                    match st.threads[t as usize].tls.get(&g.0) {
                        Some(o) => s(Value::Ptr(*o, 0)),
                        None => unsup("oracle: thread-local object missing", loc),
                    }
                } else {
                    s(Value::Ptr(g.0 + 1, 0))
                }
            }
            E::AddrLocal(v) => s(Value::Ptr(locals[v.index()], 0)),
            E::AddrStr(i) => s(Value::Ptr(self.p.globals.len() as u32 + 1 + i, 0)),
            E::Func(f) => s(Value::Func(f.0)),
            E::Un(op, a, aty, rty) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                s(self.unop(*op, x, aty, rty, loc)?)
            }
            E::Bin(op, a, b, aty, bty, rty) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                let y = self.eval_in(st, t, regs, locals, b, loc, ch)?.scalar(loc)?;
                s(self.binop(*op, x, y, aty, bty, rty, loc, ch)?)
            }
            // The program's own operations (an atomic read-modify-write
            // wraps: C11 7.17.7.5p3).
            E::At(inner, at) => match &**inner {
                E::Bin(op, a, b, aty, bty, rty) => {
                    let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                    let y = self.eval_in(st, t, regs, locals, b, loc, ch)?.scalar(loc)?;
                    if let (Value::Int(i), Value::Int(j)) = (x, y) {
                        self.overflow(*op, i, j, rty, *at)?;
                    }
                    s(self.binop(*op, x, y, aty, bty, rty, loc, ch)?)
                }
                E::Un(op, a, aty, rty) => {
                    let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                    if let (UnOp::Neg, Value::Int(i)) = (op, x) {
                        self.negation_overflow(i, rty, *at)?;
                    }
                    s(self.unop(*op, x, aty, rty, loc)?)
                }
                E::Cast(a, from, to) => {
                    let x = self.eval_in(st, t, regs, locals, a, loc, ch)?;
                    if let (RVal::S(Value::Float(b)), Ty::Int(_)) = (&x, to.unqual()) {
                        self.conversion_overflow(f64::from_bits(*b), to, *at)?;
                    }
                    self.cast(x, from, to, loc, ch)
                }
                e => self.eval_in(st, t, regs, locals, e, loc, ch),
            },
            E::Cast(a, from, to) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?;
                self.cast(x, from, to, loc, ch)
            }
            E::Offset(a, off) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                s(ptr_add(x, *off))
            }
            E::Index(a, i, ity, es) => {
                let x = self.eval_in(st, t, regs, locals, a, loc, ch)?.scalar(loc)?;
                let Value::Int(iv) = self.eval_in(st, t, regs, locals, i, loc, ch)?.scalar(loc)?
                else {
                    return unsup("an array index that is not an integer", loc);
                };
                let _ = ity;
                s(ptr_add(x, (iv as i64).wrapping_mul(*es as i64)))
            }
        }
    }

    /// `convert`, where a floating value whose integral part an integer
    /// type cannot hold (NaN and the infinities included) gives any value
    /// (C leaves it undefined, DESIGN.md §2 pins it so): a draw, as the
    /// back ends make one.
    fn cast(&self, x: RVal, from: &Ty, to: &Ty, loc: Loc, ch: &mut Chooser) -> R<RVal> {
        if let (RVal::S(Value::Float(b)), Ty::Int(_)) = (&x, to.unqual())
            && !self.fits(f64::from_bits(*b), to)
        {
            return self.nondet(to, ch, loc);
        }
        self.convert(x, from.unqual(), to.unqual(), loc)
    }

    /// Whether integer type `to` holds the integral part of `f`.
    fn fits(&self, f: f64, to: &Ty) -> bool {
        let bits = to.int_bits(self.dm()).unwrap_or(32);
        let (lo, hi) = if to.is_signed() {
            (-(2f64.powi(bits as i32 - 1)), 2f64.powi(bits as i32 - 1))
        } else {
            (0.0, 2f64.powi(bits as i32))
        };
        // lo and hi are powers of two (or 0): exact doubles.
        let t = f.trunc();
        t >= lo && t < hi
    }

    pub(super) fn convert(&self, x: RVal, from: &Ty, to: &Ty, loc: Loc) -> R<RVal> {
        let RVal::S(v) = x else {
            return Ok(x);
        };
        let out = match (to, v) {
            (Ty::Void, _) => v,
            (Ty::Bool, _) => Value::Int(truth(v) as i128),
            (
                Ty::Int(_) | Ty::Pthread(PthreadTy::Thread | PthreadTy::Key | PthreadTy::Once),
                Value::Int(i),
            ) => Value::Int(self.wrap(i, to)),
            (Ty::Int(_) | Ty::Pthread(PthreadTy::Thread), Value::Ptr(o, off)) => {
                Value::Int(self.wrap(self.addr_of(o, off, loc)?, to))
            }
            (Ty::Int(_), Value::Func(f)) => Value::Int(self.wrap(((f as i128) + 1) << 40, to)),
            (Ty::Int(_), Value::Float(b)) => {
                let f = f64::from_bits(b);
                Value::Int(self.wrap(f.trunc() as i128, to))
            }
            // Rounded once, straight to the type: through `double` a
            // 64-bit integer may round twice (2^60 + 2^36 + 1).
            (Ty::Float(FloatKind::Float), Value::Int(i)) => {
                Value::Float(f64::from(i as f32).to_bits())
            }
            (Ty::Float(_), Value::Int(i)) => Value::Float((i as f64).to_bits()),
            (Ty::Float(k), Value::Float(b)) => {
                Value::Float(round_float(*k, f64::from_bits(b)).to_bits())
            }
            (Ty::Ptr(_), Value::Int(i)) => self.ptr_of(i),
            (Ty::Ptr(_), Value::Ptr(..) | Value::Func(_)) => v,
            _ if from == to => v,
            _ => return unsup("this conversion", loc),
        };
        Ok(RVal::S(out))
    }

    pub(super) fn addr_of(&self, o: u32, off: i64, loc: Loc) -> R<i128> {
        if o == 0 {
            return Ok(off as i128);
        }
        if !(0..1 << OBJ_SHIFT).contains(&off) {
            return unsup(
                "a pointer-to-integer cast of a pointer far into an object",
                loc,
            );
        }
        Ok(((o as i128) << OBJ_SHIFT) + off as i128)
    }

    pub(super) fn ptr_of(&self, i: i128) -> Value {
        let pb = self.dm().pointer_bits();
        let i = i & ((1i128 << pb) - 1);
        let o = (i >> OBJ_SHIFT) as u32;
        if o != 0 && i >> OBJ_SHIFT < (1 << 24) {
            // Decodes an address made by `addr_of`.
            return Value::Ptr(o, (i & ((1 << OBJ_SHIFT) - 1)) as i64);
        }
        Value::Ptr(0, i as i64)
    }

    pub(super) fn unop(&self, op: UnOp, x: Value, aty: &Ty, rty: &Ty, loc: Loc) -> R<Value> {
        let _ = aty;
        Ok(match (op, x) {
            (UnOp::LogNot, v) => Value::Int((!truth(v)) as i128),
            (UnOp::Neg, Value::Int(i)) => Value::Int(self.wrap(-i, rty)),
            (UnOp::Neg, Value::Float(b)) => Value::Float((-f64::from_bits(b)).to_bits()),
            (UnOp::BitNot, Value::Int(i)) => Value::Int(self.wrap(!i, rty)),
            _ => return unsup("this unary operation", loc),
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn binop(
        &self,
        op: BinOp,
        x: Value,
        y: Value,
        aty: &Ty,
        bty: &Ty,
        rty: &Ty,
        loc: Loc,
        ch: &mut Chooser,
    ) -> R<Value> {
        use BinOp::*;
        let _ = bty;
        match (op, x, y) {
            (PtrAdd | PtrSub, Value::Ptr(o, off), Value::Int(i)) => {
                let es = aty.pointee().and_then(|t| self.p.size_of(t)).unwrap_or(1) as i64;
                let d = (i as i64).wrapping_mul(es);
                return Ok(Value::Ptr(
                    o,
                    if op == PtrAdd {
                        off.wrapping_add(d)
                    } else {
                        off.wrapping_sub(d)
                    },
                ));
            }
            (PtrDiff, Value::Ptr(o1, a), Value::Ptr(o2, b)) => {
                if o1 != o2 {
                    return unsup("subtraction of pointers into different objects", loc);
                }
                let es = aty
                    .pointee()
                    .and_then(|t| self.p.size_of(t))
                    .unwrap_or(1)
                    .max(1) as i64;
                return Ok(Value::Int(self.wrap(((a - b) / es) as i128, rty)));
            }
            (Eq | Ne | Lt | Le | Gt | Ge, Value::Ptr(..) | Value::Func(_), _)
            | (Eq | Ne | Lt | Le | Gt | Ge, _, Value::Ptr(..) | Value::Func(_)) => {
                let key = |v: Value| -> R<(i128, i128)> {
                    Ok(match v {
                        Value::Ptr(0, off) => (0, off as i128),
                        Value::Ptr(o, off) => (o as i128, off as i128),
                        Value::Func(f) => (-(f as i128) - 1, 0),
                        Value::Int(i) => match self.ptr_of(i) {
                            Value::Ptr(o, off) => (o as i128, off as i128),
                            _ => (0, i),
                        },
                        Value::Float(_) => {
                            return unsup("comparison of a pointer and a float", loc);
                        }
                    })
                };
                let (a, b) = (key(x)?, key(y)?);
                let r = match op {
                    Eq => a == b,
                    Ne => a != b,
                    Lt => a < b,
                    Le => a <= b,
                    Gt => a > b,
                    _ => a >= b,
                };
                return Ok(Value::Int(r as i128));
            }
            (_, Value::Float(a), Value::Float(b)) => {
                let (a, b) = (f64::from_bits(a), f64::from_bits(b));
                let k = match rty.unqual() {
                    Ty::Float(k) => Some(*k),
                    _ => None,
                };
                let fl =
                    |v: f64| Value::Float(round_float(k.unwrap_or(FloatKind::Double), v).to_bits());
                return Ok(match op {
                    Add => fl(a + b),
                    Sub => fl(a - b),
                    Mul => fl(a * b),
                    Div => fl(a / b),
                    Eq => Value::Int((a == b) as i128),
                    Ne => Value::Int((a != b) as i128),
                    Lt => Value::Int((a < b) as i128),
                    Le => Value::Int((a <= b) as i128),
                    Gt => Value::Int((a > b) as i128),
                    Ge => Value::Int((a >= b) as i128),
                    _ => return unsup("this floating-point operation", loc),
                });
            }
            (_, Value::Int(a), Value::Int(b)) => {
                let w = |v: i128| Ok(Value::Int(self.wrap(v, rty)));
                let bits = rty.int_bits(self.dm()).unwrap_or(32) as i128;
                return match op {
                    Add => w(a.wrapping_add(b)),
                    Sub => w(a.wrapping_sub(b)),
                    Mul => w(a.wrapping_mul(b)),
                    Div | Rem => {
                        if b == 0 {
                            // Pinned: an unconstrained value (DESIGN.md §2).
                            return self.nondet(rty, ch, loc)?.scalar(loc);
                        }
                        w(if op == Div { a / b } else { a % b })
                    }
                    Shl | Shr => {
                        if b < 0 || b >= bits {
                            return self.nondet(rty, ch, loc)?.scalar(loc);
                        }
                        if op == Shl {
                            w(a.wrapping_shl(b as u32))
                        } else {
                            w(a >> b)
                        }
                    }
                    BitAnd => w(a & b),
                    BitOr => w(a | b),
                    BitXor => w(a ^ b),
                    Eq => Ok(Value::Int((a == b) as i128)),
                    Ne => Ok(Value::Int((a != b) as i128)),
                    Lt => Ok(Value::Int((a < b) as i128)),
                    Le => Ok(Value::Int((a <= b) as i128)),
                    Gt => Ok(Value::Int((a > b) as i128)),
                    Ge => Ok(Value::Int((a >= b) as i128)),
                    LogAnd => Ok(Value::Int((a != 0 && b != 0) as i128)),
                    LogOr => Ok(Value::Int((a != 0 || b != 0) as i128)),
                    _ => unsup("this integer operation", loc),
                };
            }
            (LogAnd, a, b) => return Ok(Value::Int((truth(a) && truth(b)) as i128)),
            (LogOr, a, b) => return Ok(Value::Int((truth(a) || truth(b)) as i128)),
            _ => {}
        }
        unsup(format!("operation '{}' on these values", op.c_op()), loc)
    }
}

impl Machine<'_> {
    /// Under `--property overflow`: C leaves a signed operation undefined
    /// when its exact result is outside its type (C11 6.5p5), and so do
    /// `INT_MIN / -1` and `INT_MIN % -1` (6.5.5p6) and a left shift whose
    /// result is not representable (6.5.7p4). The operands are in range,
    /// so the exact result fits an i128. Division by zero and shift
    /// counts out of range are not overflow: they keep their pinned
    /// meaning (DESIGN.md §2).
    fn overflow(&self, op: BinOp, a: i128, b: i128, rty: &Ty, loc: Loc) -> R<()> {
        use BinOp::*;
        let bits = rty.int_bits(self.dm()).unwrap_or(32) as i128;
        let exact = match op {
            Add => a + b,
            Sub => a - b,
            Mul => a * b,
            // `a % b` is undefined exactly when `a / b` is.
            Div | Rem if b != 0 => a / b,
            Shl if (0..bits).contains(&b) => a * (1i128 << b),
            _ => return Ok(()),
        };
        self.out_of_range(exact, rty, loc, || format!("{a} {} {b}", op.c_op()))
    }

    /// `-a`.
    fn negation_overflow(&self, a: i128, rty: &Ty, loc: Loc) -> R<()> {
        self.out_of_range(-a, rty, loc, || format!("-({a})"))
    }

    /// A floating value converted to an integer type: undefined when the
    /// type cannot hold its integral part (C11 6.3.1.4p1), NaN and the
    /// infinities included.
    fn conversion_overflow(&self, f: f64, to: &Ty, loc: Loc) -> R<()> {
        if !self.b.overflow || self.fits(f, to) {
            return Ok(());
        }
        if self.trace {
            // An integral value in full: Rust's shortest form of 2^63 is
            // 9223372036854776000, which is not the value.
            let shown = if f.fract() == 0.0 && f.abs() < 1e38 {
                format!("{}", f as i128)
            } else {
                format!("{f}")
            };
            *self.said.lock().unwrap() = Some(format!(
                "overflow: {shown} converted to {} is out of its range",
                crate::ir::regions::ty_name(self.p, to)
            ));
        }
        Err(Fail(StepEnd::Failed(loc, AssertKind::Overflow)))
    }

    fn out_of_range(
        &self,
        exact: i128,
        rty: &Ty,
        loc: Loc,
        shown: impl FnOnce() -> String,
    ) -> R<()> {
        if !self.b.overflow
            || !matches!(rty.unqual(), Ty::Int(k) if k.signed())
            || exact == self.wrap(exact, rty)
        {
            return Ok(());
        }
        if self.trace {
            *self.said.lock().unwrap() = Some(format!(
                "overflow: {} is {exact}, out of the range of {}",
                shown(),
                crate::ir::regions::ty_name(self.p, rty)
            ));
        }
        Err(Fail(StepEnd::Failed(loc, AssertKind::Overflow)))
    }
}
