//! SMT-LIB terms as the encoder builds them: constants stay constants (so
//! that dead paths fold to `false` and loops with known counters stop
//! early), everything else is text over named symbols. Every builder
//! checks nothing about sorts beyond what folding needs; the encoder is
//! typed by the IR.
//!
//! Integer mode (`--int`): a `w`-bit value is an SMT `Int` in [0, 2^w),
//! the same unsigned reading a bit-vector has, and every operation is the
//! bit-vector operation written in integer arithmetic (`bvadd` is
//! `(mod (+ a b) 2^w)`, signed comparisons compare the two's-complement
//! readings, ...). So both modes mean the same C, and a verdict never
//! depends on the mode. Multiplication or division of two variables makes
//! the script non-linear (QF_AUFNIA); bitwise operations on two variables
//! have no integer form and are refused. The mode is per encoding, set
//! with `IntMode` for the duration of one `encode`.

use std::fmt::Write;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sort {
    Bool,
    Bv(u32),
    /// Memory: bit-vector addresses of the given width to values.
    Array(u32, u32),
}

impl Sort {
    pub fn text(&self) -> String {
        match self {
            Sort::Bool => "Bool".into(),
            Sort::Bv(_) if int_mode() => "Int".into(),
            Sort::Array(..) if int_mode() => "(Array Int Int)".into(),
            Sort::Bv(w) => format!("(_ BitVec {w})"),
            Sort::Array(a, v) => format!("(Array (_ BitVec {a}) (_ BitVec {v}))"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum T {
    B(bool),
    /// A bit-vector constant: value masked to `width` bits.
    V(u128, u32),
    /// Any other term: its text and sort.
    E(Rc<str>, Sort),
}

thread_local! {
    static INT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static NONLINEAR: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static REFUSED: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Integer mode for the terms built while this value lives.
pub struct IntMode(bool);

impl IntMode {
    pub fn set(on: bool) -> IntMode {
        let old = INT.with(|c| c.replace(on));
        NONLINEAR.with(|c| c.set(false));
        REFUSED.with(|c| c.borrow_mut().take());
        IntMode(old)
    }

    /// Did a term need non-linear integer arithmetic?
    pub fn nonlinear(&self) -> bool {
        NONLINEAR.with(|c| c.get())
    }

    /// The first operation integer mode could not express.
    pub fn refused(&self) -> Option<String> {
        REFUSED.with(|c| c.borrow().clone())
    }
}

impl Drop for IntMode {
    fn drop(&mut self) {
        INT.with(|c| c.set(self.0));
    }
}

pub fn int_mode() -> bool {
    INT.with(|c| c.get())
}

fn refuse(what: &str) {
    REFUSED.with(|c| {
        let mut r = c.borrow_mut();
        if r.is_none() {
            *r = Some(what.to_string());
        }
    });
}

fn pow2(w: u32) -> String {
    (1u128 << w).to_string()
}

/// `(mod x 2^w)`: back into the unsigned range.
fn wrap(x: String, w: u32) -> String {
    format!("(mod {x} {})", pow2(w))
}

/// The two's-complement reading of an unsigned-range integer.
fn sread(t: &T, w: u32) -> String {
    match t {
        T::V(v, _) => {
            let s = signed(*v, w);
            if s < 0 {
                format!("(- {})", -s)
            } else {
                s.to_string()
            }
        }
        _ => {
            let x = t.text();
            format!("(ite (>= {x} {}) (- {x} {}) {x})", pow2(w - 1), pow2(w))
        }
    }
}

pub fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

pub fn bv(v: i128, w: u32) -> T {
    T::V((v as u128) & mask(w), w)
}

pub fn signed(v: u128, w: u32) -> i128 {
    if w == 0 {
        return 0;
    }
    let sh = 128 - w;
    ((v << sh) as i128) >> sh
}

impl T {
    pub fn sort(&self) -> Sort {
        match self {
            T::B(_) => Sort::Bool,
            T::V(_, w) => Sort::Bv(*w),
            T::E(_, s) => s.clone(),
        }
    }

    pub fn width(&self) -> u32 {
        match self.sort() {
            Sort::Bv(w) => w,
            s => panic!("width of a {s:?} term"),
        }
    }

    pub fn text(&self) -> String {
        match self {
            T::B(b) => b.to_string(),
            T::V(v, w) => bv_text(*v, *w),
            T::E(t, _) => t.to_string(),
        }
    }

    pub fn is_false(&self) -> bool {
        *self == T::B(false)
    }

    pub fn is_true(&self) -> bool {
        *self == T::B(true)
    }

    pub fn is_const(&self) -> bool {
        !matches!(self, T::E(..))
    }

    fn e(text: String, s: Sort) -> T {
        T::E(text.into(), s)
    }
}

pub fn bv_text(v: u128, w: u32) -> String {
    if int_mode() {
        return v.to_string();
    }
    if w.is_multiple_of(4) {
        let mut s = String::from("#x");
        let digits = (w / 4) as usize;
        let _ = write!(s, "{v:0digits$x}");
        s
    } else {
        let mut s = String::from("#b");
        let digits = w as usize;
        let _ = write!(s, "{v:0digits$b}");
        s
    }
}

pub fn not(a: &T) -> T {
    match a {
        T::B(b) => T::B(!b),
        // A term's text is one S-expression, so `(not X)` negates to `X`.
        T::E(t, _) if t.starts_with("(not ") => T::e(t[5..t.len() - 1].to_string(), Sort::Bool),
        _ => T::e(format!("(not {})", a.text()), Sort::Bool),
    }
}

pub fn and(a: &T, b: &T) -> T {
    match (a, b) {
        (T::B(false), _) | (_, T::B(false)) => T::B(false),
        (T::B(true), x) | (x, T::B(true)) => x.clone(),
        _ if a == b => a.clone(),
        _ => T::e(format!("(and {} {})", a.text(), b.text()), Sort::Bool),
    }
}

pub fn or(a: &T, b: &T) -> T {
    match (a, b) {
        (T::B(true), _) | (_, T::B(true)) => T::B(true),
        (T::B(false), x) | (x, T::B(false)) => x.clone(),
        _ if a == b => a.clone(),
        _ => T::e(format!("(or {} {})", a.text(), b.text()), Sort::Bool),
    }
}

pub fn implies(a: &T, b: &T) -> T {
    or(&not(a), b)
}

pub fn ite(c: &T, a: &T, b: &T) -> T {
    match c {
        T::B(true) => a.clone(),
        T::B(false) => b.clone(),
        _ if a == b => a.clone(),
        _ => {
            if let (T::B(x), T::B(y)) = (a, b) {
                // Bool constants in the arms: the condition itself.
                return if *x && !*y { c.clone() } else { not(c) };
            }
            T::e(
                format!("(ite {} {} {})", c.text(), a.text(), b.text()),
                a.sort(),
            )
        }
    }
}

pub fn eq(a: &T, b: &T) -> T {
    match (a, b) {
        (T::V(x, _), T::V(y, _)) => T::B(x == y),
        (T::B(x), T::B(y)) => T::B(x == y),
        _ if a == b => T::B(true),
        _ => T::e(format!("(= {} {})", a.text(), b.text()), Sort::Bool),
    }
}

/// A binary bit-vector operation, folded on constants.
pub fn bin(op: &str, a: &T, b: &T) -> T {
    let w = a.width();
    if let (T::V(x, _), T::V(y, _)) = (a, b) {
        let (x, y) = (*x, *y);
        let m = mask(w);
        let r = match op {
            "bvadd" => Some(x.wrapping_add(y)),
            "bvsub" => Some(x.wrapping_sub(y)),
            "bvmul" => Some(x.wrapping_mul(y)),
            "bvand" => Some(x & y),
            "bvor" => Some(x | y),
            "bvxor" => Some(x ^ y),
            "bvudiv" if y != 0 => Some(x / y),
            "bvurem" if y != 0 => Some(x % y),
            "bvsdiv" if y != 0 => Some(signed(x, w).wrapping_div(signed(y, w)) as u128),
            "bvsrem" if y != 0 => Some(signed(x, w).wrapping_rem(signed(y, w)) as u128),
            "bvshl" if y < w as u128 => Some(x << y),
            "bvlshr" if y < w as u128 => Some(x >> y),
            "bvashr" if y < w as u128 => Some((signed(x, w) >> y) as u128),
            _ => None,
        };
        if let Some(r) = r {
            return T::V(r & m, w);
        }
    }
    // Identities that keep guards and addresses small.
    match (op, a, b) {
        ("bvadd" | "bvsub" | "bvor" | "bvxor", x, T::V(0, _)) => return x.clone(),
        ("bvadd" | "bvor" | "bvxor", T::V(0, _), x) => return x.clone(),
        ("bvmul", x, T::V(1, _)) => return x.clone(),
        ("bvmul", T::V(1, _), x) => return x.clone(),
        _ => {}
    }
    if int_mode() {
        return T::e(int_bin(op, a, b, w), Sort::Bv(w));
    }
    T::e(format!("({op} {} {})", a.text(), b.text()), Sort::Bv(w))
}

fn int_bin(op: &str, a: &T, b: &T, w: u32) -> String {
    let (x, y) = (a.text(), b.text());
    let konst = |t: &T| match t {
        T::V(v, _) => Some(*v),
        _ => None,
    };
    match op {
        "bvadd" => wrap(format!("(+ {x} {y})"), w),
        "bvsub" => wrap(format!("(- {x} {y})"), w),
        "bvmul" => {
            if !a.is_const() && !b.is_const() {
                NONLINEAR.with(|c| c.set(true));
            }
            wrap(format!("(* {x} {y})"), w)
        }
        "bvudiv" | "bvurem" | "bvsdiv" | "bvsrem" => {
            if !b.is_const() {
                NONLINEAR.with(|c| c.set(true));
            }
            match op {
                "bvudiv" => format!("(div {x} {y})"),
                "bvurem" => format!("(mod {x} {y})"),
                _ => {
                    // C division truncates toward zero; SMT's div is
                    // Euclidean: divide the magnitudes and fix the sign.
                    let (sx, sy) = (sread(a, w), sread(b, w));
                    // A constant divisor's magnitude is a numeral, so the
                    // division stays linear.
                    let ay = match b {
                        T::V(v, _) => signed(*v, w).unsigned_abs().to_string(),
                        _ => format!("(abs {sy})"),
                    };
                    let q = format!("(div (abs {sx}) {ay})");
                    let r = format!("(mod (abs {sx}) {ay})");
                    if op == "bvsdiv" {
                        wrap(format!("(ite (= (>= {sx} 0) (>= {sy} 0)) {q} (- {q}))"), w)
                    } else {
                        wrap(format!("(ite (>= {sx} 0) {r} (- {r}))"), w)
                    }
                }
            }
        }
        "bvshl" | "bvlshr" | "bvashr" => match konst(b) {
            Some(k) if k < w as u128 => {
                let p = pow2(k as u32);
                match op {
                    "bvshl" => wrap(format!("(* {x} {p})"), w),
                    "bvlshr" => format!("(div {x} {p})"),
                    _ => wrap(format!("(div {} {p})", sread(a, w)), w),
                }
            }
            _ => {
                refuse("a shift by a variable amount");
                "0".into()
            }
        },
        "bvand" | "bvor" | "bvxor" => {
            // x & (2^k - 1) is x mod 2^k; others have no integer form.
            let m = konst(b).or(konst(a));
            let other = if konst(b).is_some() { &x } else { &y };
            match (op, m) {
                ("bvand", Some(m)) if (m + 1).is_power_of_two() => {
                    format!("(mod {other} {})", m + 1)
                }
                _ => {
                    refuse(&format!("bitwise '{}' of two variables", &op[2..]));
                    "0".into()
                }
            }
        }
        _ => unreachable!("integer form of {op}"),
    }
}

pub fn un(op: &str, a: &T) -> T {
    let w = a.width();
    if let T::V(x, _) = a {
        let r = match op {
            "bvneg" => x.wrapping_neg(),
            "bvnot" => !x,
            _ => unreachable!("unary {op}"),
        };
        return T::V(r & mask(w), w);
    }
    if int_mode() {
        let x = a.text();
        let t = match op {
            "bvneg" => wrap(format!("(- {x})"), w),
            _ => format!("(- {} {x})", mask(w)),
        };
        return T::e(t, Sort::Bv(w));
    }
    T::e(format!("({op} {})", a.text()), Sort::Bv(w))
}

/// `bvult`, `bvule`, `bvslt`, `bvsle` (the integer mode knows only
/// these: a `bvuge` once became `<=` there).
pub fn cmp(op: &str, a: &T, b: &T) -> T {
    assert!(
        matches!(op, "bvult" | "bvule" | "bvslt" | "bvsle"),
        "comparison {op}"
    );
    if let (T::V(x, w), T::V(y, _)) = (a, b) {
        let (sx, sy) = (signed(*x, *w), signed(*y, *w));
        return T::B(match op {
            "bvult" => x < y,
            "bvule" => x <= y,
            "bvslt" => sx < sy,
            "bvsle" => sx <= sy,
            _ => unreachable!("comparison {op}"),
        });
    }
    if a == b {
        return T::B(op.ends_with("le"));
    }
    if int_mode() {
        let w = a.width();
        let rel = if op.ends_with("lt") { "<" } else { "<=" };
        let (x, y) = if op.starts_with("bvs") {
            (sread(a, w), sread(b, w))
        } else {
            (a.text(), b.text())
        };
        return T::e(format!("({rel} {x} {y})"), Sort::Bool);
    }
    T::e(format!("({op} {} {})", a.text(), b.text()), Sort::Bool)
}

/// Width change: truncation, or zero / sign extension.
pub fn resize(a: &T, to: u32, signed_src: bool) -> T {
    let w = a.width();
    if w == to {
        return a.clone();
    }
    if let T::V(x, _) = a {
        let v = if signed_src {
            signed(*x, w) as u128
        } else {
            *x
        };
        return T::V(v & mask(to), to);
    }
    if int_mode() {
        let x = a.text();
        let t = if to < w {
            wrap(x, to)
        } else if signed_src {
            format!(
                "(ite (>= {x} {}) (+ {x} {}) {x})",
                pow2(w - 1),
                (1u128 << to) - (1u128 << w)
            )
        } else {
            x
        };
        return T::e(t, Sort::Bv(to));
    }
    if to < w {
        T::e(
            format!("((_ extract {} 0) {})", to - 1, a.text()),
            Sort::Bv(to),
        )
    } else {
        let ext = if signed_src {
            "sign_extend"
        } else {
            "zero_extend"
        };
        T::e(format!("((_ {ext} {}) {})", to - w, a.text()), Sort::Bv(to))
    }
}

/// Bits `hi..=lo` of `a`.
pub fn extract(a: &T, hi: u32, lo: u32) -> T {
    let w = hi - lo + 1;
    if let T::V(x, _) = a {
        return T::V((x >> lo) & mask(w), w);
    }
    if int_mode() {
        refuse("type punning");
        return T::e("0".into(), Sort::Bv(w));
    }
    T::e(format!("((_ extract {hi} {lo}) {})", a.text()), Sort::Bv(w))
}

/// `hi` above `lo`.
pub fn concat(hi: &T, lo: &T) -> T {
    let (wh, wl) = (hi.width(), lo.width());
    if let (T::V(h, _), T::V(l, _)) = (hi, lo) {
        return T::V((h << wl) | l, wh + wl);
    }
    if int_mode() {
        refuse("type punning");
        return T::e("0".into(), Sort::Bv(wh + wl));
    }
    T::e(
        format!("(concat {} {})", hi.text(), lo.text()),
        Sort::Bv(wh + wl),
    )
}

/// A bit-vector from a Boolean: 1 or 0.
pub fn from_bool(c: &T, w: u32) -> T {
    ite(c, &bv(1, w), &bv(0, w))
}

pub fn nonzero(a: &T) -> T {
    match a {
        T::B(_) => a.clone(),
        _ => not(&eq(a, &bv(0, a.width()))),
    }
}

pub fn select(arr: &T, idx: &T) -> T {
    let Sort::Array(_, v) = arr.sort() else {
        panic!("select on a non-array")
    };
    T::e(
        format!("(select {} {})", arr.text(), idx.text()),
        Sort::Bv(v),
    )
}

pub fn store(arr: &T, idx: &T, val: &T) -> T {
    T::e(
        format!("(store {} {} {})", arr.text(), idx.text(), val.text()),
        arr.sort(),
    )
}

/// A symbol as SMT-LIB spells it: simple when it can be, else `|quoted|`.
pub fn symbol(name: &str) -> String {
    let simple = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "~!@$%^&*_-+=<>.?/".contains(c));
    if simple {
        name.to_string()
    } else {
        let clean: String = name
            .chars()
            .map(|c| if c == '|' || c == '\\' { '_' } else { c })
            .collect();
        format!("|{clean}|")
    }
}

pub fn sym(name: &str, s: Sort) -> T {
    T::E(symbol(name).into(), s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folding_follows_c_semantics_of_bit_vectors() {
        assert_eq!(bin("bvsdiv", &bv(-7, 32), &bv(2, 32)), bv(-3, 32));
        assert_eq!(bin("bvsrem", &bv(-7, 32), &bv(2, 32)), bv(-1, 32));
        assert_eq!(
            bin("bvadd", &bv(i32::MAX as i128, 32), &bv(1, 32)),
            bv(i32::MIN as i128, 32)
        );
        assert_eq!(resize(&bv(-1, 8), 32, true), bv(-1, 32));
        assert_eq!(resize(&bv(-1, 8), 32, false), bv(255, 32));
        assert_eq!(cmp("bvslt", &bv(-1, 32), &bv(0, 32)), T::B(true));
        assert_eq!(cmp("bvult", &bv(-1, 32), &bv(0, 32)), T::B(false));
        assert_eq!(bv_text(5, 32), "#x00000005");
        assert_eq!(bv_text(1, 1), "#b1");
        assert_eq!(symbol("x@12.3"), "x@12.3");
        assert_eq!(symbol("struct dev.flags@1"), "|struct dev.flags@1|");
    }
}
