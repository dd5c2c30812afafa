//! Literals and integer constant expressions.

use super::Lowerer;
use crate::diag::Result;
use crate::ir::*;
use lang_c::ast;
use lang_c::span::Node;

/// Truncates `v` to the width and signedness of `ty` (two's complement).
pub(crate) fn wrap(v: i128, ty: &Ty, dm: DataModel) -> i128 {
    match ty.unqual() {
        Ty::Bool => (v != 0) as i128,
        t => match t.int_bits(dm) {
            Some(bits) => {
                let m = (1i128 << bits) - 1;
                let u = v & m;
                if t.is_signed() && u >> (bits - 1) & 1 == 1 {
                    u - (1i128 << bits)
                } else {
                    u
                }
            }
            None => v,
        },
    }
}

/// Folds a side-effect-free integer expression.
pub(crate) fn eval(e: &Expr, dm: DataModel) -> Option<i128> {
    use BinOp::*;
    Some(match &e.kind {
        ExprKind::Int(v) => *v,
        ExprKind::Cast(a) => {
            if !e.ty.is_integer() && !e.ty.is_pointer() {
                return None;
            }
            wrap(eval(a, dm)?, &e.ty, dm)
        }
        ExprKind::Unary(op, a) => {
            let a = eval(a, dm)?;
            match op {
                UnOp::Neg => wrap(-a, &e.ty, dm),
                UnOp::BitNot => wrap(!a, &e.ty, dm),
                UnOp::LogNot => (a == 0) as i128,
            }
        }
        ExprKind::Binary(op, a, b) => {
            let x = eval(a, dm)?;
            let y = eval(b, dm)?;
            let r = match op {
                Add => x.checked_add(y)?,
                Sub => x.checked_sub(y)?,
                // Modulo 2^128, which `wrap` cuts to the type: two
                // unsigned long long operands may pass 2^127.
                Mul => x.wrapping_mul(y),
                Div => x.checked_div(y)?,
                Rem => x.checked_rem(y)?,
                Shl => x.checked_shl(u32::try_from(y).ok().filter(|&s| s < 64)?)?,
                Shr => x >> u32::try_from(y).ok().filter(|&s| s < 64)?,
                BitAnd => x & y,
                BitOr => x | y,
                BitXor => x ^ y,
                Eq => (x == y) as i128,
                Ne => (x != y) as i128,
                Lt => (x < y) as i128,
                Le => (x <= y) as i128,
                Gt => (x > y) as i128,
                Ge => (x >= y) as i128,
                LogAnd => (x != 0 && y != 0) as i128,
                LogOr => (x != 0 || y != 0) as i128,
                PtrAdd | PtrSub | PtrDiff => return None,
            };
            wrap(r, &e.ty, dm)
        }
        ExprKind::Cond(c, a, b) => {
            if eval(c, dm)? != 0 {
                eval(a, dm)?
            } else {
                eval(b, dm)?
            }
        }
        _ => return None,
    })
}

/// Whether a constant sub-tree has a signed operation whose exact result
/// its type cannot hold (undefined: `1 << 31`, `INT_MAX + 1`,
/// `INT_MIN / -1`). Such a tree is not folded, so that `--property
/// overflow` checks it where it is evaluated; its wrapped value is the
/// one the fold would have given.
pub(crate) fn overflows(e: &Expr, dm: DataModel) -> bool {
    use BinOp::*;
    let signed = e.ty.is_integer() && e.ty.is_signed();
    match &e.kind {
        ExprKind::Cast(a) => overflows(a, dm),
        ExprKind::Unary(op, a) => {
            overflows(a, dm)
                || (signed
                    && *op == UnOp::Neg
                    && eval(a, dm).is_some_and(|x| wrap(-x, &e.ty, dm) != -x))
        }
        ExprKind::Binary(op, a, b) => {
            if overflows(a, dm) || overflows(b, dm) {
                return true;
            }
            let (Some(x), Some(y)) = (eval(a, dm), eval(b, dm)) else {
                return false;
            };
            let exact = match op {
                Add => x.checked_add(y),
                Sub => x.checked_sub(y),
                Mul => x.checked_mul(y),
                Div => x.checked_div(y),
                Rem => x.checked_rem(y),
                Shl => u32::try_from(y)
                    .ok()
                    .filter(|&s| s < 64)
                    .and_then(|s| x.checked_shl(s)),
                _ => return false,
            };
            // INT_MIN % -1 is undefined too (C11 6.5.5p6), though its
            // value, 0, fits.
            let min_rem = *op == Rem && y == -1 && wrap(-x, &e.ty, dm) != -x;
            signed && (exact.is_some_and(|r| wrap(r, &e.ty, dm) != r) || min_rem)
        }
        ExprKind::Cond(c, a, b) => match eval(c, dm) {
            Some(0) => overflows(b, dm),
            Some(_) => overflows(a, dm),
            None => false,
        },
        _ => false,
    }
}

/// The type C gives an integer literal (C11 6.4.4.1).
fn literal_type(
    v: u128,
    decimal: bool,
    size: ast::IntegerSize,
    unsigned: bool,
    dm: DataModel,
) -> Option<IntKind> {
    use IntKind::*;
    let cands: &[IntKind] = match (size, unsigned, decimal) {
        (ast::IntegerSize::Int, false, true) => &[Int, Long, LongLong],
        (ast::IntegerSize::Int, false, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
        (ast::IntegerSize::Int, true, _) => &[UInt, ULong, ULongLong],
        (ast::IntegerSize::Long, false, true) => &[Long, LongLong],
        (ast::IntegerSize::Long, false, false) => &[Long, ULong, LongLong, ULongLong],
        (ast::IntegerSize::Long, true, _) => &[ULong, ULongLong],
        (ast::IntegerSize::LongLong, false, true) => &[LongLong],
        (ast::IntegerSize::LongLong, false, false) => &[LongLong, ULongLong],
        (ast::IntegerSize::LongLong, true, _) => &[ULongLong],
    };
    cands.iter().copied().find(|k| {
        let bits = k.bits(dm);
        let max: u128 = if k.signed() {
            (1u128 << (bits - 1)) - 1
        } else {
            (1u128 << bits) - 1
        };
        v <= max
    })
}

/// Decodes the escapes of a character or string literal body.
pub(crate) fn unescape(body: &str) -> Option<Vec<u8>> {
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = *b.get(i)?;
        i += 1;
        let v = match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'0'..=b'7' => {
                let mut v: u32 = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                v as u8
            }
            b'x' => {
                let mut v: u32 = 0;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    v = v.wrapping_mul(16) + (b[i] as char).to_digit(16).unwrap();
                    i += 1;
                }
                v as u8
            }
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'e' => 27,
            b'\\' | b'\'' | b'"' | b'?' => c,
            _ => return None,
        };
        out.push(v);
    }
    Some(out)
}

impl<'a> Lowerer<'a> {
    pub(super) fn constant(&mut self, c: &Node<ast::Constant>) -> Result<Expr> {
        let loc = self.loc(c.span);
        let dm = self.prog.data_model;
        match &c.node {
            ast::Constant::Integer(i) => {
                if i.suffix.imaginary {
                    return self.unsupported(c.span, "imaginary constants");
                }
                let (radix, digits) = match i.base {
                    ast::IntegerBase::Decimal => (10, &*i.number),
                    ast::IntegerBase::Octal => (8, &*i.number),
                    ast::IntegerBase::Hexadecimal => (16, &*i.number),
                    ast::IntegerBase::Binary => (2, &*i.number),
                };
                let digits = digits.trim_start_matches("0x").trim_start_matches("0X");
                let digits = if digits.is_empty() { "0" } else { digits };
                let Ok(v) = u128::from_str_radix(digits, radix) else {
                    return self.error(
                        c.span,
                        format!("integer constant '{}' is malformed or too large", i.number),
                    );
                };
                let decimal = matches!(i.base, ast::IntegerBase::Decimal);
                let Some(k) = literal_type(v, decimal, i.suffix.size, i.suffix.unsigned, dm) else {
                    return self.error(
                        c.span,
                        format!("integer constant '{}' is too large for any type", i.number),
                    );
                };
                Ok(Expr::int(v as i128, Ty::Int(k), loc))
            }
            ast::Constant::Float(f) => {
                if f.suffix.imaginary {
                    return self.unsupported(c.span, "imaginary constants");
                }
                let kind = match f.suffix.format {
                    ast::FloatFormat::Float => FloatKind::Float,
                    ast::FloatFormat::Double => FloatKind::Double,
                    ast::FloatFormat::LongDouble => {
                        return self.unsupported(c.span, "long double constants");
                    }
                    ast::FloatFormat::TS18661Format(_) => {
                        return self.unsupported(c.span, "_FloatN constants");
                    }
                };
                let text = self.src[c.span.start..c.span.end].to_string();
                Ok(Expr::new(ExprKind::Float(text), Ty::Float(kind), loc))
            }
            ast::Constant::Character(s) => {
                if !s.starts_with('\'') {
                    return self.unsupported(c.span, "wide character constants");
                }
                let body = &s[1..s.len() - 1];
                let Some(bytes) = unescape(body) else {
                    return self.error(c.span, "malformed character constant");
                };
                // Multi-character constants, as gcc computes them.
                let mut v: i128 = 0;
                for b in &bytes {
                    v = (v << 8) | *b as i128;
                }
                let v = if bytes.len() == 1 {
                    bytes[0] as i8 as i128
                } else {
                    wrap(v, &Ty::INT, dm)
                };
                Ok(Expr::int(v, Ty::INT, loc))
            }
        }
    }

    pub(super) fn string_literal(&mut self, s: &Node<Vec<String>>) -> Result<Expr> {
        let mut bytes = Vec::new();
        for piece in &s.node {
            if !piece.starts_with('"') {
                return self.unsupported(s.span, "wide or unicode string literals");
            }
            let Some(b) = unescape(&piece[1..piece.len() - 1]) else {
                return self.error(s.span, "malformed string literal");
            };
            bytes.extend(b);
        }
        bytes.push(0);
        let n = bytes.len() as u64;
        Ok(Expr::new(
            ExprKind::Str(bytes),
            Ty::Array(Box::new(Ty::CHAR), Some(n)),
            self.loc(s.span),
        ))
    }

    /// An integer constant expression (array sizes, enumerators, cases).
    pub(super) fn const_expr(&mut self, e: &'a Node<ast::Expression>) -> Result<i128> {
        match self.try_const_expr(e)? {
            Some(v) => Ok(v),
            None => self.error(e.span, "expected an integer constant expression"),
        }
    }

    /// `None` for an expression that is no integer constant, one with side
    /// effects included (`int a[k++]` is a variable-length array).
    pub(super) fn try_const_expr(&mut self, e: &'a Node<ast::Expression>) -> Result<Option<i128>> {
        Ok(self
            .effect_free_expr(e)?
            .and_then(|x| eval(&x, self.prog.data_model)))
    }
}
