//! Expressions and initialisers: one precedence table, signed arithmetic
//! done in the unsigned type (DESIGN.md §2), the UB helpers for `/ % << >>`.

use super::*;

/// Precedence levels, higher binds tighter.
pub(super) const P_ASSIGN: u8 = 1;
pub(super) const P_COND: u8 = 2;
pub(super) const P_PRIMARY: u8 = 16;
pub(super) const P_POSTFIX: u8 = 15;
pub(super) const P_UNARY: u8 = 14;
pub(super) const P_CAST: u8 = 13;

pub(super) fn bin_prec(op: BinOp) -> u8 {
    use BinOp::*;
    match op {
        Mul | Div | Rem => 12,
        Add | Sub | PtrAdd | PtrSub | PtrDiff => 11,
        Shl | Shr => 10,
        Lt | Le | Gt | Ge => 9,
        Eq | Ne => 8,
        BitAnd => 7,
        BitXor => 6,
        BitOr => 5,
        LogAnd => 4,
        LogOr => 3,
    }
}

impl<'p> Emitter<'p> {
    // ---- expressions ----

    pub(super) fn nondet(&mut self, ty: &Ty) -> String {
        if self.opts.ir_mode {
            return format!("nondet<{}>()", self.type_name(ty));
        }
        let (cty, suffix) = match ty.unqual() {
            Ty::Int(k) => (k.c_name().to_string(), k.nondet_suffix().to_string()),
            Ty::Bool => ("_Bool".into(), "bool".into()),
            Ty::Ptr(_) => ("void *".into(), "pointer".into()),
            Ty::Float(FloatKind::Float) => ("float".into(), "float".into()),
            Ty::Float(_) => ("double".into(), "double".into()),
            Ty::Pthread(_) => ("unsigned long".into(), "ulong".into()),
            _ => ("int".into(), "int".into()),
        };
        self.nondets.insert((cty.clone(), suffix.clone()));
        // Always under a cast: CBMC then keeps the draw in its trace as
        // `return_value___VERIFIER_nondet_*`, which the replay reads. A
        // plain `x = __VERIFIER_nondet_int();` it assigns straight to x,
        // and the draw was lost (the replay had to guess it: exit 3 for
        // any value outside the oracle's own range).
        format!(
            "({})__VERIFIER_nondet_{suffix}()",
            self.type_name(ty.unqual())
        )
    }

    pub(super) fn int_lit(&self, v: i128, ty: &Ty) -> String {
        let dm = self.p.data_model;
        let k = ty.int_kind().unwrap_or(IntKind::Int);
        let suffix = match k {
            IntKind::UInt => "u",
            IntKind::Long => "l",
            IntKind::ULong => "ul",
            IntKind::LongLong => "ll",
            IntKind::ULongLong => "ull",
            _ => "",
        };
        let bits = k.bits(dm).max(32);
        if v < 0 && -v == 1i128 << (bits - 1) {
            let s = if suffix.is_empty() { "" } else { suffix };
            return format!("(-{}{s} - 1)", (1i128 << (bits - 1)) - 1);
        }
        let mut s = String::with_capacity(24);
        if v < 0 {
            s.push('-');
        }
        push_decimal(&mut s, v.unsigned_abs());
        s.push_str(suffix);
        s
    }

    /// Whether `g` lives in the round-copied struct (Lal-Reps output).
    pub(super) fn copied(&self, g: GlobalId) -> bool {
        !self.opts.ir_mode && self.p.rounds.as_ref().is_some_and(|r| r.copied[g.index()])
    }

    /// `(text, precedence)` of an expression.
    pub(super) fn expr(&mut self, e: &Expr) -> (String, u8) {
        let saved = std::mem::take(&mut self.out);
        let p = self.ew(e);
        (std::mem::replace(&mut self.out, saved), p)
    }

    /// An operand printed at least at precedence `min`.
    pub(super) fn sub(&mut self, e: &Expr, min: u8) -> String {
        let saved = std::mem::take(&mut self.out);
        self.sw(e, min);
        std::mem::replace(&mut self.out, saved)
    }

    pub(super) fn top(&mut self, e: &Expr) -> String {
        self.expr(e).0
    }

    /// Writes an operand at least at precedence `min`: the parentheses
    /// go around what it wrote, which is known only afterwards.
    pub(super) fn sw(&mut self, e: &Expr, min: u8) {
        let start = self.out.len();
        if self.ew(e) < min {
            self.out.insert(start, '(');
            self.out.push(')');
        }
    }

    /// Writes an expression; returns its precedence. Expressions are
    /// written in place: a string per node was most of the printer's time.
    pub(super) fn ew(&mut self, e: &Expr) -> u8 {
        use ExprKind::*;
        let addr = self.addr_mode;
        let rounds = self.p.rounds.is_some() && !self.opts.ir_mode;
        if rounds {
            let p = self.p;
            match &e.kind {
                Global(g) if self.copied(*g) => {
                    let named = !self.addressed[g.index()];
                    if addr {
                        assert!(!named, "address of a global addressed_globals missed");
                        self.put("__seqc_mem0.");
                    } else {
                        self.put(if named { "__seqc_nmem[" } else { "__seqc_mem[" });
                        self.put(ROUND_VAR);
                        self.put("]->");
                    }
                    self.put(&c_ident(&p.global(*g).name));
                    return P_POSTFIX;
                }
                AddrOf(x) | Decay(x) if !matches!(x.kind, Func(_)) => {
                    self.addr_mode = true;
                    if matches!(e.kind, AddrOf(_)) {
                        self.put("&");
                    }
                    self.sw(x, P_UNARY);
                    self.addr_mode = addr;
                    return P_UNARY;
                }
                Deref(x) if !matches!(e.ty.unqual(), Ty::Func(_)) => {
                    if addr {
                        self.addr_mode = false;
                        self.put("*");
                        self.sw(x, P_CAST);
                        self.addr_mode = addr;
                        return P_UNARY;
                    }
                    let t = self.type_name(&e.ty.clone().ptr());
                    self.put("(*(");
                    self.put(&t);
                    self.put(")((char *)__seqc_mem[");
                    self.put(ROUND_VAR);
                    self.put("] + ((char *)");
                    self.addr_mode = false;
                    self.sw(x, P_CAST);
                    self.addr_mode = addr;
                    self.put(" - (char *)&__seqc_mem0)))");
                    return P_PRIMARY;
                }
                Member(x, i) => {
                    let Ty::Comp(c) = x.ty.unqual() else {
                        unreachable!("member of a non-struct")
                    };
                    let name = field_ident(&p.comp(*c).fields[*i as usize], *i as usize);
                    self.sw(x, P_POSTFIX);
                    self.put(".");
                    self.put(&name);
                    return P_POSTFIX;
                }
                Index(a, i) => {
                    self.sw(a, P_POSTFIX);
                    self.put("[");
                    self.addr_mode = false;
                    self.ew(i);
                    self.addr_mode = addr;
                    self.put("]");
                    return P_POSTFIX;
                }
                Local(_) | Global(_) | Func(_) | Int(_) | Str(_) | Float(_) | Nondet => {}
                _ => {
                    self.addr_mode = false;
                    let r = self.ew_plain(e);
                    self.addr_mode = addr;
                    return r;
                }
            }
        }
        self.ew_plain(e)
    }

    pub(super) fn ew_plain(&mut self, e: &Expr) -> u8 {
        use ExprKind::*;
        let p = self.p;
        match &e.kind {
            Int(v) => {
                if e.ty.is_pointer() {
                    let t = self.type_name(&e.ty);
                    let _ = write!(self.out, "({t}){v}");
                    return P_CAST;
                }
                let s = self.int_lit(*v, &e.ty);
                self.put(&s);
                if s.starts_with('-') {
                    P_UNARY
                } else {
                    P_PRIMARY
                }
            }
            Float(t) => {
                self.put(t);
                P_PRIMARY
            }
            Str(b) => {
                self.put(&c_string(b));
                P_PRIMARY
            }
            Local(v) if self.cells.contains(v) => {
                let n = c_ident(&self.func.unwrap().local(*v).name);
                self.put(&format!("(*__seqc_c_{n})"));
                P_PRIMARY
            }
            Local(v) => {
                self.put(&c_ident(&self.func.unwrap().local(*v).name));
                P_PRIMARY
            }
            Global(g) => {
                self.put(&c_ident(&p.global(*g).name));
                P_PRIMARY
            }
            Func(f) => {
                let n = self.fn_name(p.func(*f));
                self.put(&n);
                P_PRIMARY
            }
            Nondet => {
                let s = self.nondet(&e.ty);
                self.put(&s);
                if self.opts.ir_mode { P_POSTFIX } else { P_CAST }
            }
            Unary(op, a) => {
                if !self.opts.ir_mode && *op == UnOp::Neg && e.ty.is_signed() && e.ty.is_integer() {
                    let u = self.type_name(&Ty::Int(e.ty.int_kind().unwrap().to_unsigned()));
                    let t = self.type_name(&e.ty);
                    let _ = write!(self.out, "({t})-({u})");
                    self.sw(a, P_CAST);
                    return P_CAST;
                }
                self.put(match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::LogNot => "!",
                });
                let start = self.out.len();
                self.sw(a, P_UNARY);
                // `-(-u)` must not read as the decrement `--u`.
                if *op == UnOp::Neg && self.out[start..].starts_with('-') {
                    self.out.insert(start, '(');
                    self.out.push(')');
                }
                P_UNARY
            }
            Binary(op, a, b) => self.binary(*op, a, b, &e.ty),
            Cast(a)
                if !self.opts.ir_mode
                    && matches!(a.ty.unqual(), Ty::Float(_))
                    && e.ty.int_kind().is_some_and(|k| k.bits(p.data_model) <= 64) =>
            {
                // Out of range, C leaves the value undefined: any value
                // (DESIGN.md §2), as the SMT route and the oracle give it.
                let k = e.ty.int_kind().unwrap();
                let name = self.helper("f2i", k);
                self.put(&name);
                self.put("(");
                self.ew(a);
                self.put(")");
                P_POSTFIX
            }
            Cast(a) => {
                let t = self.type_name(&e.ty);
                self.put("(");
                self.put(&t);
                self.put(")");
                self.sw(a, P_CAST);
                P_CAST
            }
            Deref(x) => {
                if let Binary(BinOp::PtrAdd, base, i) = &x.kind {
                    self.sw(base, P_POSTFIX);
                    self.put("[");
                    self.ew(i);
                    self.put("]");
                    return P_POSTFIX;
                }
                self.put("*");
                self.sw(x, P_UNARY);
                P_UNARY
            }
            AddrOf(x) => {
                if let Func(_) = x.kind {
                    return self.ew(x);
                }
                self.put("&");
                self.sw(x, P_UNARY);
                P_UNARY
            }
            Member(x, i) => {
                let Ty::Comp(c) = x.ty.unqual() else {
                    unreachable!("member of a non-struct")
                };
                let name = field_ident(&p.comp(*c).fields[*i as usize], *i as usize);
                if let Deref(q) = &x.kind
                    && !matches!(q.kind, Binary(BinOp::PtrAdd, ..))
                {
                    self.sw(q, P_POSTFIX);
                    self.put("->");
                } else {
                    self.sw(x, P_POSTFIX);
                    self.put(".");
                }
                self.put(&name);
                P_POSTFIX
            }
            Index(a, i) => {
                self.sw(a, P_POSTFIX);
                self.put("[");
                self.ew(i);
                self.put("]");
                P_POSTFIX
            }
            Decay(a) => self.ew(a),
            Cond(c, a, b) => {
                self.sw(c, P_COND + 1);
                self.put(" ? ");
                self.ew(a);
                self.put(" : ");
                self.sw(b, P_COND);
                P_COND
            }
        }
    }

    pub(super) fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, ty: &Ty) -> u8 {
        use BinOp::*;
        let dm = self.p.data_model;
        let int_k = ty
            .int_kind()
            .filter(|_| !op.is_comparison() && !self.opts.ir_mode);
        if let Some(k) = int_k {
            let signed = k.signed();
            let bits = k.bits(dm);
            let const_b = match b.kind {
                ExprKind::Int(v) => Some(v),
                _ => None,
            };
            match op {
                Add | Sub | Mul if signed => {
                    let ut = Ty::Int(k.to_unsigned());
                    let u = self.type_name(&ut);
                    let t = self.type_name(ty);
                    let as_unsigned = |me: &mut Self, x: &Expr| match x.kind {
                        ExprKind::Int(v) if v >= 0 => {
                            let s = me.int_lit(v, &ut);
                            me.put(&s);
                        }
                        _ => {
                            me.put("(");
                            me.put(&u);
                            me.put(")");
                            me.sw(x, P_CAST);
                        }
                    };
                    self.put("(");
                    self.put(&t);
                    self.put(")(");
                    as_unsigned(self, a);
                    self.put(" ");
                    self.put(op.c_op());
                    self.put(" ");
                    as_unsigned(self, b);
                    self.put(")");
                    return P_CAST;
                }
                Div | Rem => {
                    let safe = const_b.is_some_and(|v| v != 0 && !(signed && v == -1));
                    if !safe {
                        let name = self.helper(if op == Div { "div" } else { "rem" }, k);
                        self.helper_call(&name, a, b);
                        return P_POSTFIX;
                    }
                }
                Shl | Shr => {
                    let safe = const_b.is_some_and(|v| v >= 0 && v < bits as i128);
                    if !safe {
                        let name = self.helper(if op == Shl { "shl" } else { "shr" }, k);
                        self.helper_call(&name, a, b);
                        return P_POSTFIX;
                    }
                    if op == Shl && signed {
                        let u = self.type_name(&Ty::Int(k.to_unsigned()));
                        let t = self.type_name(ty);
                        let _ = write!(self.out, "({t})(({u})");
                        self.sw(a, P_CAST);
                        self.put(" << ");
                        self.ew(b);
                        self.put(")");
                        return P_CAST;
                    }
                }
                _ => {}
            }
        }
        let p = bin_prec(op);
        self.sw_quiet(a, p, op);
        self.put(" ");
        self.put(op.c_op());
        self.put(" ");
        self.sw_quiet(b, p + 1, op);
        p
    }

    /// `sw`, with parentheses also where gcc's -Wparentheses asks for them
    /// though precedence does not (`a & b | c`, `a + b << c`, `a && b || c`,
    /// a comparison inside a comparison or a bitwise operator).
    fn sw_quiet(&mut self, e: &Expr, min: u8, outer: BinOp) {
        use BinOp::*;
        let start = self.out.len();
        let inner = self.ew(e);
        let cmp = inner == 8 || inner == 9;
        let noisy = match outer {
            Shl | Shr => inner == 11,
            LogOr => inner == 4,
            BitOr => cmp || matches!(inner, 6 | 7 | 11),
            BitXor => cmp || matches!(inner, 7 | 11),
            BitAnd => cmp || inner == 11,
            Eq | Ne | Lt | Le | Gt | Ge => cmp,
            _ => false,
        };
        if inner < min || noisy {
            self.out.insert(start, '(');
            self.out.push(')');
        }
    }

    /// `name(a, b)`: a UB helper's call.
    pub(super) fn helper_call(&mut self, name: &str, a: &Expr, b: &Expr) {
        self.put(name);
        self.put("(");
        self.ew(a);
        self.put(", ");
        self.ew(b);
        self.put(")");
    }

    pub(super) fn helper(&mut self, op: &str, k: IntKind) -> String {
        let dm = self.p.data_model;
        let n = k.c_name().replace(' ', "");
        let name = format!("__seqc_{op}_{n}");
        let nondet = self.nondet(&Ty::Int(k));
        self.helpers.entry(name.clone()).or_insert((
            k.c_name().to_string(),
            k.to_unsigned().c_name().to_string(),
            k.bits(dm),
            k.signed(),
            nondet,
        ));
        name
    }

    // ---- initialisers ----

    pub(super) fn init(&mut self, i: &Init, ty: &Ty) -> String {
        if let Ty::Pthread(p) = ty.unqual() {
            self.includes.insert("pthread.h");
            match p {
                PthreadTy::Mutex => {
                    // glibc's kind initialisers (the lowering keeps the kind).
                    let kind = match i {
                        Init::Expr(e) => crate::ir::build::const_of(e),
                        _ => None,
                    };
                    return match kind {
                        Some(1) => "PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP",
                        Some(2) => "PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP",
                        _ => "PTHREAD_MUTEX_INITIALIZER",
                    }
                    .into();
                }
                PthreadTy::Cond => return "PTHREAD_COND_INITIALIZER".into(),
                PthreadTy::Once => return "PTHREAD_ONCE_INIT".into(),
                PthreadTy::Rwlock => return "PTHREAD_RWLOCK_INITIALIZER".into(),
                PthreadTy::Thread => {}
                _ => return "{ 0 }".into(),
            }
        }
        match i {
            Init::Expr(e) => self.sub(e, P_ASSIGN),
            Init::Str(b) => {
                let mut b = b.clone();
                // The array may be exactly as long as the string without NUL.
                if b.last() == Some(&0) {
                    b.pop();
                }
                b.push(0);
                c_string(&b)
            }
            Init::Array(items) => {
                let Ty::Array(elem, _) = ty.unqual() else {
                    return "{ 0 }".into();
                };
                let dense = items.iter().enumerate().all(|(i, (k, _))| *k == i as u64);
                let parts: Vec<String> = items
                    .iter()
                    .map(|(k, x)| {
                        let v = self.init(x, elem);
                        if dense { v } else { format!("[{k}] = {v}") }
                    })
                    .collect();
                if parts.is_empty() {
                    "{ 0 }".into()
                } else {
                    format!("{{ {} }}", parts.join(", "))
                }
            }
            Init::Comp(items) => {
                let Ty::Comp(c) = ty.unqual() else {
                    return "{ 0 }".into();
                };
                let def = self.p.comp(*c).clone();
                let dense = items.iter().enumerate().all(|(i, (k, _))| *k == i as u32);
                let parts: Vec<String> = items
                    .iter()
                    .map(|(k, x)| {
                        let f = &def.fields[*k as usize];
                        let v = self.init(x, &f.ty);
                        if dense {
                            v
                        } else {
                            format!(".{} = {v}", field_ident(f, *k as usize))
                        }
                    })
                    .collect();
                if parts.is_empty() {
                    "{ 0 }".into()
                } else {
                    format!("{{ {} }}", parts.join(", "))
                }
            }
        }
    }
}
