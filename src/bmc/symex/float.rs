//! Floating point: a `float` or `double` value is its IEEE 754 bit
//! pattern (a 32- or 64-bit vector), in registers and in memory, so that
//! memory, merges and traces treat it as any other scalar. Each operation
//! reads the patterns as SMT-LIB FloatingPoint terms (`(_ to_fp e s)`),
//! computes with C's rounding (round to nearest, ties to even; a
//! conversion to an integer truncates, RTZ) and names its result's
//! pattern: a fresh bit-vector whose reading equals the result. A NaN
//! result has many patterns and the solver may pick any (C leaves the
//! payload unspecified; comparisons cannot tell them apart).
//!
//! Exact (IEEE 754 as C uses it): `+ - * /`, unary minus (the sign bit),
//! comparisons (NaN unordered), truth (nonzero, NaN true), conversions
//! between `float` and `double`, from and to every integer type and to
//! `_Bool`. A conversion to an integer type that cannot hold the value's
//! integral part (and of NaN) is undefined in C; here it gives the
//! solver's unspecified value, which `--property overflow` reports first.
//! `long double` is refused by name. Operations on constants fold in
//! Rust, whose `f32`/`f64` arithmetic is the same IEEE arithmetic.

use super::*;

/// Exponent and significand widths of a float of `w` bits.
fn es(w: u32) -> (u32, u32) {
    if w == 32 { (8, 24) } else { (11, 53) }
}

/// The FloatingPoint reading of a pattern.
fn fp(t: &T) -> String {
    let (e, s) = es(t.width());
    format!("((_ to_fp {e} {s}) {})", t.text())
}

fn value(t: &T) -> Option<f64> {
    match t {
        T::V(v, 32) => Some(f32::from_bits(*v as u32) as f64),
        T::V(v, 64) => Some(f64::from_bits(*v as u64)),
        _ => None,
    }
}

/// The pattern of `v` rounded to a float of `w` bits.
fn pattern(v: f64, w: u32) -> T {
    if w == 32 {
        T::V((v as f32).to_bits() as u128, 32)
    } else {
        T::V(v.to_bits() as u128, 64)
    }
}

/// The integral parts an integer of `w` bits holds: `[lo, hi)`, both
/// powers of two (or 0), so exact in either floating width.
fn int_bounds(w: u32, signed: bool) -> (f64, f64) {
    if signed {
        (-(2f64.powi(w as i32 - 1)), 2f64.powi(w as i32 - 1))
    } else {
        (0.0, 2f64.powi(w as i32))
    }
}

/// The width of a floating type (`long double` is refused).
pub(super) fn width(ty: &Ty) -> Option<u32> {
    match ty.unqual() {
        Ty::Float(FloatKind::Float) => Some(32),
        Ty::Float(FloatKind::Double) => Some(64),
        _ => None,
    }
}

impl Symex<'_> {
    /// Names the pattern of FloatingPoint term `f` (a float of `w` bits).
    fn pattern_of(&mut self, f: &str, w: u32, line: u32) -> T {
        self.uses_fp = true;
        let b = self.fresh("fp", line, Sort::Bv(w));
        let (e, s) = es(w);
        let _ = writeln!(
            self.out,
            "(assert (= ((_ to_fp {e} {s}) {}) {f}))",
            b.text()
        );
        // IEEE 754 operations make quiet NaNs (the significand's top bit
        // set); the rest of a NaN's bits C leaves open.
        let _ = writeln!(
            self.out,
            "(assert (=> (fp.isNaN {f}) (= ((_ extract {q} {q}) {}) #b1)))",
            b.text(),
            q = s - 2
        );
        b
    }

    /// A floating literal of type `ty`, as C reads it (correctly rounded
    /// to the type).
    pub(super) fn float_literal(&mut self, text: &str, ty: &Ty, loc: Loc) -> R<T> {
        let w = self.float_width(ty, loc)?;
        let t = text.trim_end_matches(['f', 'F', 'l', 'L']);
        let ok = if w == 32 {
            t.parse::<f32>().map(|v| T::V(v.to_bits() as u128, 32)).ok()
        } else {
            t.parse::<f64>().map(|v| T::V(v.to_bits() as u128, 64)).ok()
        };
        ok.ok_or_else(|| (format!("the floating constant '{text}'"), loc))
    }

    pub(super) fn float_width(&mut self, ty: &Ty, loc: Loc) -> R<u32> {
        if term::int_mode() {
            return Err(("floating point in integer mode (--int)".into(), loc));
        }
        width(ty).ok_or_else(|| ("long double".into(), loc))
    }

    /// `a op b` for `+ - * /` on floats of `w` bits.
    pub(super) fn float_arith(&mut self, op: BinOp, a: &T, b: &T, line: u32) -> R<T> {
        let w = a.width();
        let name = match op {
            BinOp::Add => "fp.add",
            BinOp::Sub => "fp.sub",
            BinOp::Mul => "fp.mul",
            BinOp::Div => "fp.div",
            _ => return Err((format!("'{}' on floating values", op.c_op()), Loc::NONE)),
        };
        if let (Some(x), Some(y)) = (value(a), value(b)) {
            let v = if w == 32 {
                let (x, y) = (x as f32, y as f32);
                (match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    _ => x / y,
                }) as f64
            } else {
                match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    _ => x / y,
                }
            };
            return Ok(pattern(v, w));
        }
        let f = format!("({name} RNE {} {})", fp(a), fp(b));
        Ok(self.pattern_of(&f, w, line))
    }

    /// `-a`: the sign bit flipped (IEEE negation, NaN included).
    pub(super) fn float_neg(&self, a: &T) -> T {
        let w = a.width();
        term::bin("bvxor", a, &T::V(1u128 << (w - 1), w))
    }

    /// A comparison of two floats of the same width.
    pub(super) fn float_compare(&mut self, op: BinOp, a: &T, b: &T) -> T {
        self.uses_fp = true;
        if let (Some(x), Some(y)) = (value(a), value(b)) {
            return T::B(match op {
                BinOp::Eq => x == y,
                BinOp::Ne => x != y,
                BinOp::Lt => x < y,
                BinOp::Le => x <= y,
                BinOp::Gt => x > y,
                _ => x >= y,
            });
        }
        let (x, y) = (fp(a), fp(b));
        let c = |n: &str| T::E(format!("({n} {x} {y})").into(), Sort::Bool);
        match op {
            BinOp::Eq => c("fp.eq"),
            BinOp::Ne => term::not(&c("fp.eq")),
            BinOp::Lt => c("fp.lt"),
            BinOp::Le => c("fp.leq"),
            BinOp::Gt => c("fp.gt"),
            _ => c("fp.geq"),
        }
    }

    /// Whether integer type `to` holds the integral part of float `t`
    /// (NaN never: its comparisons are false).
    pub(super) fn float_fits(&mut self, t: &T, to: &Ty) -> T {
        let dm = self.p.data_model;
        let Some(w) = regions::leaf_width(dm, to) else {
            return T::B(false);
        };
        let (lo, hi) = int_bounds(w, to.is_signed());
        if let Some(x) = value(t) {
            return T::B(x.trunc() >= lo && x.trunc() < hi);
        }
        self.uses_fp = true;
        let fw = t.width();
        let x = format!("(fp.roundToIntegral RTZ {})", fp(t));
        let (l, h) = (fp(&pattern(lo, fw)), fp(&pattern(hi, fw)));
        T::E(
            format!("(and (fp.geq {x} {l}) (fp.lt {x} {h}))").into(),
            Sort::Bool,
        )
    }

    /// A float in a Boolean context: not zero (NaN is true).
    pub(super) fn float_truth(&mut self, a: &T) -> T {
        if let Some(x) = value(a) {
            return T::B(x != 0.0);
        }
        self.uses_fp = true;
        term::not(&T::E(format!("(fp.isZero {})", fp(a)).into(), Sort::Bool))
    }

    /// A conversion where `from` or `to` is a floating type.
    pub(super) fn float_convert(&mut self, t: T, from: &Ty, to: &Ty, loc: Loc) -> R<T> {
        let line = loc.line;
        let dm = self.p.data_model;
        match (width(from), to.unqual()) {
            (Some(_), Ty::Bool) => Ok(term::from_bool(&self.float_truth(&t), 8)),
            (Some(fw), Ty::Float(_)) => {
                let tw = self.float_width(to, loc)?;
                if fw == tw {
                    return Ok(t);
                }
                if let Some(x) = value(&t) {
                    return Ok(pattern(x, tw));
                }
                let (e, s) = es(tw);
                let f = format!("((_ to_fp {e} {s}) RNE {})", fp(&t));
                Ok(self.pattern_of(&f, tw, line))
            }
            (Some(_), Ty::Int(_) | Ty::Pthread(_)) => {
                let Some(w) = regions::leaf_width(dm, to) else {
                    return Err(("this conversion of a floating value".into(), loc));
                };
                let signed = to.is_signed();
                if let Some(x) = value(&t) {
                    let (lo, hi) = int_bounds(w, signed);
                    let tr = x.trunc();
                    if tr >= lo && tr < hi {
                        return Ok(term::bv(tr as i128, w));
                    }
                }
                self.uses_fp = true;
                let name = if signed { "fp.to_sbv" } else { "fp.to_ubv" };
                Ok(T::E(
                    format!("((_ {name} {w}) RTZ {})", fp(&t)).into(),
                    Sort::Bv(w),
                ))
            }
            (None, Ty::Float(_)) => {
                let tw = self.float_width(to, loc)?;
                if !from.is_integer() {
                    return Err(("this conversion to a floating type".into(), loc));
                }
                let signed = from.is_signed() && !matches!(from.unqual(), Ty::Bool);
                if let T::V(v, w) = &t {
                    let x = if signed {
                        term::signed(*v, *w) as f64
                    } else {
                        *v as f64
                    };
                    // i128 -> f64 rounds once, to nearest; a float rounds
                    // the exact integer, not the double: go through f32
                    // only from an exact double (at most 2^53).
                    if tw == 64 || x.abs() <= 9007199254740992.0 {
                        return Ok(pattern(x, tw));
                    }
                }
                let t = if matches!(t, T::B(_)) {
                    term::from_bool(&t, 8)
                } else {
                    t
                };
                let (e, s) = es(tw);
                let conv = if signed { "to_fp" } else { "to_fp_unsigned" };
                let f = format!("((_ {conv} {e} {s}) RNE {})", t.text());
                Ok(self.pattern_of(&f, tw, line))
            }
            _ => Err(("this conversion of a floating value".into(), loc)),
        }
    }
}
