//! Calls: ordinary calls, and the functions with a meaning for seqc
//! (DESIGN.md §2), which become `Op`, `Assert` and `Assume` statements.
//! Everything in the "wanted, not yet" families is refused by name.
//!
//! Just over 800 lines: the table of library calls seqc gives a meaning to
//! is one list, and a call not in it must be seen to be refused here.

use super::arith::promote;
use super::expr::Want;
use super::{Lowerer, Sym};
use crate::diag::Result;
use crate::ir::build::{assign, bin, cmp, if_};
use crate::ir::*;
use lang_c::ast;
use lang_c::span::Node;

/// Functions whose definitions in the input are ignored because their
/// calls are understood directly.
pub(super) fn intercepted(name: &str) -> bool {
    matches!(
        name,
        "reach_error"
            | "__VERIFIER_error"
            | "__VERIFIER_assert"
            | "__VERIFIER_assume"
            | "assume"
            | "__seqc_assert"
            | "__assert_fail"
            | "__VERIFIER_atomic_begin"
            | "__VERIFIER_atomic_end"
    ) || name.starts_with("__VERIFIER_nondet_")
}

const UNSUPPORTED_PREFIXES: &[&str] = &[
    "pthread_barrier_",
    "pthread_rwlock_",
    "pthread_spin_",
    "sem_",
];
const UNSUPPORTED: &[&str] = &[
    "setjmp",
    "longjmp",
    "_setjmp",
    "__sigsetjmp",
    "siglongjmp",
    "alloca",
    "__builtin_alloca",
    "realloc",
    "signal",
    "fork",
    "pthread_cancel",
    "pthread_kill",
    "pthread_setcancelstate",
    "pthread_testcancel",
    "pthread_cleanup_push",
    "pthread_cleanup_pop",
    // rand() is any value in 0..RAND_MAX; a reseed promises a repeated
    // sequence, which that model does not keep.
    "srand",
    "srandom",
    "__builtin_va_start",
    "__builtin_va_end",
    "__builtin_va_arg",
    // GNU C's generic atomics pass values through pointers; the `_n`
    // forms are modelled.
    "__atomic_load",
    "__atomic_store",
    "__atomic_exchange",
    "__atomic_compare_exchange",
];

/// Semaphores, read-write locks and spinlocks (`WordOp`): the operation,
/// its parameters and its result type. Others with their prefixes
/// (`sem_open`, `sem_timedwait`, `pthread_rwlock_timedrdlock`, ...) are
/// refused by name.
fn word_sig(name: &str) -> Option<(Op, Vec<Ty>, Ty)> {
    let w = WordOp::ALL.into_iter().find(|w| w.c_name() == name)?;
    let obj = Ty::Pthread(w.object()).ptr();
    let params = match w {
        WordOp::SemInit => vec![obj, Ty::INT, Ty::UINT],
        WordOp::SemGetValue => vec![obj, Ty::INT.ptr()],
        WordOp::RwInit => vec![obj, Ty::Pthread(PthreadTy::RwlockAttr).ptr()],
        WordOp::SpinInit => vec![obj, Ty::INT],
        WordOp::BarrierInit => vec![obj, Ty::Pthread(PthreadTy::BarrierAttr).ptr(), Ty::UINT],
        _ => vec![obj],
    };
    Some((Op::Word(w), params, Ty::INT))
}

/// pthread calls with no effect on the simulated state: they return 0.
/// (The attribute objects they end hold nothing seqc reads again.)
const ATTR_NOOPS: &[&str] = &[
    "pthread_attr_destroy",
    "pthread_mutexattr_destroy",
    "pthread_condattr_init",
    "pthread_condattr_destroy",
    "pthread_rwlockattr_init",
    "pthread_rwlockattr_destroy",
    "pthread_barrierattr_init",
    "pthread_barrierattr_destroy",
];

/// External functions kept as calls with no effect (void, no pointers).
const NO_EFFECT_EXTERNS: &[&str] = &[
    "cpu_relax",
    "barrier",
    "mb",
    "rmb",
    "wmb",
    "smp_mb",
    "smp_rmb",
    "smp_wmb",
    "might_sleep",
    "udelay",
    "ndelay",
    "mdelay",
    "msleep",
];

/// Library calls with no effect on the program state.
const LIB_NOOPS: &[&str] = &[
    "printf",
    "fprintf",
    "puts",
    "putchar",
    "fputs",
    "fflush",
    "perror",
    "sleep",
    "usleep",
    "nanosleep",
    "sched_yield",
    "pthread_yield",
    "__builtin_prefetch",
];

/// Names whose direct calls `special_call` may give a meaning of its own
/// (an operation, an assertion, a model, a no-op, a refusal). Taking the
/// address of such a function when the input does not define it is
/// refused: a call through the pointer would run an external function
/// (any result, no effect) and drop that meaning (a lock that does not
/// lock is a false bug). It covers more than `special_call` handles (every
/// name of these families), which can only refuse more.
pub(super) fn modelled_by_name(name: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "pthread_",
        "sem_",
        "__VERIFIER_",
        "__CPROVER_",
        "nondet_",
        "atomic_",
        "__atomic_",
        "__c11_atomic_",
        "__sync_",
        "__builtin_",
        "thrd_",
        "mtx_",
        "cnd_",
    ];
    const NAMES: &[&str] = &[
        "assert",
        "__assert",
        "__assert_fail",
        "__assert_perror_fail",
        "assert_perror",
        "assume",
        "reach_error",
        "exit",
        "_exit",
        "_Exit",
        "abort",
        "malloc",
        "calloc",
        "free",
        "memcpy",
        "memmove",
        "memset",
        "rand",
        "random",
        "sscanf",
    ];
    PREFIXES.iter().any(|p| name.starts_with(p))
        || NAMES.contains(&name)
        || intercepted(name)
        || UNSUPPORTED.contains(&name)
        || LIB_NOOPS.contains(&name)
        || ATTR_NOOPS.contains(&name)
        || word_sig(name).is_some()
        || atomic_op(name).is_some()
}

/// The bytes of a string literal argument (through casts and decay).
fn string_of(e: &Expr) -> Option<&[u8]> {
    match &e.kind {
        ExprKind::Cast(a) | ExprKind::Decay(a) => string_of(a),
        ExprKind::Str(b) => Some(b),
        _ => None,
    }
}

/// Does a printf format hold a `%n` conversion?
fn writes_through_n(fmt: &[u8]) -> bool {
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] == b'%' {
            i += 1;
            while i < fmt.len() && b"-+ #0123456789.*'hlLqjzt".contains(&fmt[i]) {
                i += 1;
            }
            if i < fmt.len() && fmt[i] == b'n' {
                return true;
            }
        }
        i += 1;
    }
    false
}

fn stat(list: &'static [&'static str], name: &str) -> Option<&'static str> {
    list.iter().copied().find(|n| *n == name)
}

fn rmw(name: &str) -> Option<AtomicRmw> {
    Some(match name {
        "add" => AtomicRmw::Add,
        "sub" => AtomicRmw::Sub,
        "and" => AtomicRmw::And,
        "or" => AtomicRmw::Or,
        "xor" => AtomicRmw::Xor,
        _ => return None,
    })
}

/// The atomic operation a C11 or GCC builtin name stands for, with the
/// number of value arguments it takes after the pointer.
fn atomic_op(name: &str) -> Option<(Op, usize)> {
    let base = name.strip_suffix("_explicit").unwrap_or(name);
    Some(match base {
        "atomic_load" | "__atomic_load_n" => (Op::AtomicLoad, 0),
        "atomic_store" | "atomic_init" | "__atomic_store_n" => (Op::AtomicStore, 1),
        "atomic_exchange" | "__atomic_exchange_n" | "__sync_lock_test_and_set" => {
            (Op::AtomicExchange, 1)
        }
        "atomic_compare_exchange_strong"
        | "atomic_compare_exchange_weak"
        | "__atomic_compare_exchange_n" => (Op::AtomicCompareExchange, 2),
        "__sync_bool_compare_and_swap" => (Op::AtomicCasBool, 2),
        "__sync_val_compare_and_swap" => (Op::AtomicCasVal, 2),
        "atomic_thread_fence"
        | "atomic_signal_fence"
        | "__atomic_thread_fence"
        | "__atomic_signal_fence"
        | "__sync_synchronize" => (Op::Fence, 0),
        _ => {
            if let Some(op) = base.strip_prefix("atomic_fetch_") {
                (Op::AtomicFetch(rmw(op)?), 1)
            } else if let Some(op) = base.strip_prefix("__atomic_fetch_") {
                (Op::AtomicFetch(rmw(op)?), 1)
            } else if let Some(op) = base.strip_prefix("__sync_fetch_and_") {
                (Op::AtomicFetch(rmw(op)?), 1)
            } else if let Some(op) = base
                .strip_prefix("__atomic_")
                .and_then(|s| s.strip_suffix("_fetch"))
            {
                (Op::AtomicFetchThen(rmw(op)?), 1)
            } else if let Some(op) = base
                .strip_prefix("__sync_")
                .and_then(|s| s.strip_suffix("_and_fetch"))
            {
                (Op::AtomicFetchThen(rmw(op)?), 1)
            } else {
                return None;
            }
        }
    })
}

fn nondet_type(suffix: &str, dm: DataModel) -> Option<Ty> {
    let _ = dm;
    Some(match suffix {
        "int" => Ty::INT,
        "uint" | "unsigned" | "u32" => Ty::UINT,
        "long" => Ty::LONG,
        "ulong" | "size_t" => Ty::ULONG,
        "longlong" => Ty::Int(IntKind::LongLong),
        "ulonglong" => Ty::Int(IntKind::ULongLong),
        "char" => Ty::CHAR,
        "uchar" | "u8" => Ty::Int(IntKind::UChar),
        "short" => Ty::Int(IntKind::Short),
        "ushort" | "u16" => Ty::Int(IntKind::UShort),
        "bool" | "_Bool" => Ty::Bool,
        "pointer" | "ptr" => Ty::Void.ptr(),
        "float" => Ty::Float(FloatKind::Float),
        "double" => Ty::Float(FloatKind::Double),
        _ => return None,
    })
}

impl<'a> Lowerer<'a> {
    /// The input defines function `f` itself (not a system header's
    /// declaration, nor seqc's model): its calls are ordinary calls.
    pub(super) fn user_defined(&self, f: FuncId) -> bool {
        let func = self.prog.func(f);
        let name = func.name.as_str();
        (func.body.is_some() || self.defined.contains(name)) && !self.map.is_system(func.loc.file)
            || self.input_defs.contains(name)
    }

    pub(super) fn call(
        &mut self,
        c: &'a Node<ast::CallExpression>,
        e: &'a Node<ast::Expression>,
        want: Want,
    ) -> Result<Expr> {
        let loc = self.loc(e.span);
        if let ast::Expression::Identifier(id) = &c.node.callee.node {
            let name = id.node.name.as_str();
            let sym = self.lookup(name).cloned();
            let is_var = matches!(
                sym,
                Some(Sym::Local(_)) | Some(Sym::Global(_)) | Some(Sym::Vla { .. })
            );
            let user_defined = match sym {
                Some(Sym::Func(f)) => self.user_defined(f),
                _ => false,
            };
            let alloc = allocator(name) as u32;
            self.alloc_args += alloc;
            let special = if !is_var && (!user_defined || intercepted(name)) {
                self.special_call(name, c, e, want)
            } else {
                Ok(None)
            };
            self.alloc_args -= alloc;
            if let Some(r) = special? {
                return Ok(r);
            }
            if sym.is_none() {
                return self.error(
                    id.span,
                    format!("implicit declaration of function '{name}'"),
                );
            }
        }
        // A function named as the callee is called, not taken by address.
        self.direct_callee = matches!(c.node.callee.node, ast::Expression::Identifier(_));
        let callee = self.rvalue(&c.node.callee);
        self.direct_callee = false;
        let callee = callee?;
        let sig = match callee.ty.pointee() {
            Some(Ty::Func(sig)) => (**sig).clone(),
            _ => return self.error(c.node.callee.span, "called object is not a function"),
        };
        let fname = match &callee.kind {
            ExprKind::AddrOf(f) => match f.kind {
                ExprKind::Func(fid) => Some(fid),
                _ => None,
            },
            _ => None,
        };
        if let Some(f) = fname {
            let func = self.prog.func(f);
            let defined = func.body.is_some()
                || self.defined.contains(&func.name)
                || self.pending.contains_key(&f);
            // An external function without a definition could do anything
            // (write a global, say): it is refused, but for the kernel's
            // barriers and delays, which have no effect on a sequentially
            // consistent run.
            let harmless = func.sig.ret.is_void()
                && !func.sig.variadic
                && func.sig.params.iter().all(|p| !p.is_pointer())
                && NO_EFFECT_EXTERNS.contains(&func.name.as_str());
            if !defined && !harmless {
                // It may still be defined further down the file.
                let n = func.name.clone();
                let d = self.err(
                    c.node.callee.span,
                    crate::diag::Diagnostic::unsupported(format!(
                        "call of external function '{n}' (no definition and no model)"
                    )),
                );
                self.extern_calls.push((f, d));
            }
        }
        let alloc = fname.is_some_and(|f| allocator(&self.prog.func(f).name)) as u32;
        self.alloc_args += alloc;
        let args = self.call_args(&sig, &c.node.arguments, e);
        self.alloc_args -= alloc;
        let args = args?;
        let callee = match callee.kind {
            ExprKind::AddrOf(f) if matches!(f.kind, ExprKind::Func(_)) => *f,
            _ => callee,
        };
        let dest = if want == Want::Value && !sig.ret.is_void() {
            Some(self.temp(sig.ret.clone(), loc))
        } else {
            None
        };
        self.emit(
            StmtKind::Call {
                dest: dest.clone(),
                callee,
                args,
            },
            loc,
        );
        Ok(dest.unwrap_or_else(|| Expr::int(0, Ty::Void, loc)))
    }

    /// `sscanf(s, "literal format", &x, ...)`: each directive in turn,
    /// by the models of `templates/models.c` (`__seqc_scan_*`), until one
    /// fails; the result is the number of values stored, or EOF (-1) when
    /// the string ended before the first conversion (C11 7.21.6.7). The
    /// conversions modelled are `%d` and `%u` (with `h`, `l` or `ll`);
    /// others (`%s`, `%c`, `%x`, widths, `*`, ...) are refused by name.
    fn sscanf(
        &mut self,
        c: &'a Node<ast::CallExpression>,
        e: &'a Node<ast::Expression>,
        want: Want,
    ) -> Result<Expr> {
        enum Dir {
            Ws,
            Lit(u8),
            /// A conversion: the kind of integer its pointer must point to.
            Num(IntKind),
        }
        // C's isspace in the "C" locale (Rust's leaves out '\v').
        let space = |b: u8| b == b' ' || (b'\t'..=b'\r').contains(&b);
        let loc = self.loc(e.span);
        let args = &c.node.arguments;
        if args.len() < 2 {
            return self.error(e.span, "'sscanf' needs a string and a format");
        }
        let s = self.rvalue(&args[0])?;
        let f = self.rvalue(&args[1])?;
        let Some(fmt) = string_of(&f).map(|b| b.to_vec()) else {
            return self.unsupported(
                args[1].span,
                "'sscanf' with a format that is not a string literal",
            );
        };
        let mut dirs = Vec::new();
        let mut i = 0;
        while i < fmt.len() && fmt[i] != 0 {
            let b = fmt[i];
            if space(b) {
                while i < fmt.len() && space(fmt[i]) {
                    i += 1;
                }
                dirs.push(Dir::Ws);
                continue;
            }
            if b != b'%' {
                dirs.push(Dir::Lit(b));
                i += 1;
                continue;
            }
            let mut j = i + 1;
            while j < fmt.len() && matches!(fmt[j], b'h' | b'l') {
                j += 1;
            }
            let spec = &fmt[i..(j + 1).min(fmt.len())];
            let mods = &fmt[i + 1..j];
            if j >= fmt.len()
                || !matches!(fmt[j], b'd' | b'u')
                || !matches!(mods, b"" | b"h" | b"hh" | b"l" | b"ll")
            {
                return self.unsupported(
                    args[1].span,
                    format!(
                        "'sscanf' conversion '{}' (only %d and %u are modelled)",
                        String::from_utf8_lossy(spec)
                    ),
                );
            }
            let signed = fmt[j] == b'd';
            let kind = match (mods, signed) {
                (b"hh", true) => IntKind::SChar,
                (b"hh", false) => IntKind::UChar,
                (b"h", true) => IntKind::Short,
                (b"h", false) => IntKind::UShort,
                (b"l", true) => IntKind::Long,
                (b"l", false) => IntKind::ULong,
                (b"ll", true) => IntKind::LongLong,
                (b"ll", false) => IntKind::ULongLong,
                (_, true) => IntKind::Int,
                (_, false) => IntKind::UInt,
            };
            dirs.push(Dir::Num(kind));
            i = j + 1;
        }
        let convs = dirs.iter().filter(|d| matches!(d, Dir::Num(_))).count();
        if args.len() < 2 + convs {
            return self.error(
                e.span,
                format!("'sscanf' has {convs} conversions but fewer pointers"),
            );
        }
        let cp = Ty::CHAR.ptr();
        let cur = self.temp(cp.clone(), loc);
        self.emit(StmtKind::Assign(cur.clone(), self.convert(s, &cp)), loc);
        // Every argument is evaluated before the call (C11 6.5.2.2p10):
        // `&a[i]` names the element of the `i` before any store.
        let mut outs = Vec::new();
        for a in &args[2..] {
            let v = self.rvalue(a)?;
            let t = self.temp(v.ty.clone(), loc);
            self.emit(StmtKind::Assign(t.clone(), v), loc);
            outs.push((t, a.span));
        }
        let n = self.temp(Ty::INT, loc);
        let state = self.temp(Ty::INT, loc);
        let zero = Expr::int(0, Ty::INT, loc);
        self.emit(StmtKind::Assign(n.clone(), zero.clone()), loc);
        self.emit(StmtKind::Assign(state.clone(), zero.clone()), loc);
        let mut k = 0;
        for d in dirs {
            let (b, ()) = self.collect(|l| {
                let r = match d {
                    Dir::Ws => l.call_model("__seqc_scan_ws", vec![cur.clone()], Ty::INT, loc)?,
                    Dir::Lit(ch) => {
                        let ch = Expr::int(ch as i128, Ty::INT, loc);
                        l.call_model("__seqc_scan_lit", vec![cur.clone(), ch], Ty::INT, loc)?
                    }
                    Dir::Num(_) => l.call_model("__seqc_scan_dec", vec![cur.clone()], Ty::INT, loc)?,
                };
                // A failure ends the scan (state 1: matching, 2: input).
                let fail = vec![assign(
                    state.clone(),
                    bin(
                        BinOp::Sub,
                        Expr::int(0, Ty::INT, loc),
                        r.clone(),
                        Ty::INT,
                        loc,
                    ),
                    loc,
                )];
                let mut ok = Vec::new();
                if let Dir::Num(want) = d {
                    let (p, span) = outs[k].clone();
                    k += 1;
                    // The pointer must be to the conversion's own type
                    // (plain char counts as its signed or unsigned twin).
                    let dm = l.prog.data_model;
                    let wt = Ty::Int(want);
                    let fits = |t: &Ty| match t.unqual() {
                        Ty::Int(have) => {
                            have.bits(dm) == want.bits(dm) && t.is_signed() == wt.is_signed()
                        }
                        _ => false,
                    };
                    let Some(t) = p.ty.pointee().filter(|t| fits(t)).cloned() else {
                        return l.unsupported(
                            span,
                            "'sscanf' stores through a pointer whose type does not match its conversion",
                        );
                    };
                    let ull = Ty::Int(IntKind::ULongLong);
                    let (vb, v) = l.collect(|l| {
                        l.call_model("__seqc_scan_val", vec![cur.clone()], ull, loc)
                    })?;
                    ok.extend(vb.0);
                    let v = l.convert(v, t.unqual());
                    ok.push(assign(
                        Expr::new(ExprKind::Deref(Box::new(p)), t, loc),
                        v,
                        loc,
                    ));
                    ok.push(assign(
                        n.clone(),
                        bin(
                            BinOp::Add,
                            n.clone(),
                            Expr::int(1, Ty::INT, loc),
                            Ty::INT,
                            loc,
                        ),
                        loc,
                    ));
                }
                ok.push(assign(
                    cur.clone(),
                    l.ptr_arith(BinOp::PtrAdd, cur.clone(), r.clone(), loc),
                    loc,
                ));
                l.emit(
                    if_(cmp(BinOp::Lt, r, zero.clone(), loc), fail, ok, loc).kind,
                    loc,
                );
                Ok(())
            })?;
            let run = cmp(BinOp::Eq, state.clone(), zero.clone(), loc);
            self.emit(StmtKind::If(run, b, Block(vec![])), loc);
        }
        // EOF when the input ended before the first value was stored.
        let eof = bin(
            BinOp::LogAnd,
            cmp(BinOp::Eq, state.clone(), Expr::int(2, Ty::INT, loc), loc),
            cmp(BinOp::Eq, n.clone(), zero.clone(), loc),
            Ty::INT,
            loc,
        );
        let res = self.temp(Ty::INT, loc);
        self.emit(
            StmtKind::If(
                eof,
                Block(vec![assign(res.clone(), Expr::int(-1, Ty::INT, loc), loc)]),
                Block(vec![assign(res.clone(), n, loc)]),
            ),
            loc,
        );
        Ok(if want == Want::Value {
            res
        } else {
            Expr::int(0, Ty::Void, loc)
        })
    }

    /// A call of one of seqc's library models by name.
    fn call_model(&mut self, name: &str, args: Vec<Expr>, ret: Ty, loc: Loc) -> Result<Expr> {
        // The models come after the input: declared here, unprototyped,
        // their definition's prototype completes the declaration.
        let f = match self.lookup(name).cloned() {
            Some(Sym::Func(f)) => f,
            _ => {
                let sig = FnSig {
                    ret: ret.clone(),
                    params: Vec::new(),
                    variadic: false,
                    unprototyped: true,
                };
                self.declare_function(name, sig, false, Loc::NONE)
            }
        };
        if self.prog.func(f).body.is_none() {
            // Lowered once its definition is read (and an error if none).
            let d = crate::diag::Diagnostic::internal(format!("the model '{name}' is missing"));
            self.extern_calls.push((f, d));
        }
        self.use_function(f);
        let sig = self.prog.func(f).sig.clone();
        let dest = self.temp(ret, loc);
        self.emit(
            StmtKind::Call {
                dest: Some(dest.clone()),
                callee: Expr::new(ExprKind::Func(f), Ty::Func(Box::new(sig)), loc),
                args,
            },
            loc,
        );
        Ok(dest)
    }

    fn call_args(
        &mut self,
        sig: &FnSig,
        args: &'a [Node<ast::Expression>],
        e: &'a Node<ast::Expression>,
    ) -> Result<Vec<Expr>> {
        if !sig.unprototyped
            && (args.len() < sig.params.len() || (!sig.variadic && args.len() > sig.params.len()))
        {
            return self.error(
                e.span,
                format!(
                    "call with {} arguments, the function takes {}",
                    args.len(),
                    sig.params.len()
                ),
            );
        }
        let mut out = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let x = self.rvalue(a)?;
            let x = match sig.params.get(i) {
                Some(p) => self.assign_convert(x, p, a)?,
                None => self.default_promote(x),
            };
            out.push(x);
        }
        Ok(out)
    }

    fn default_promote(&self, x: Expr) -> Expr {
        match x.ty.unqual() {
            Ty::Float(FloatKind::Float) => self.convert(x, &Ty::Float(FloatKind::Double)),
            t if t.is_integer() => {
                let p = promote(t);
                self.convert(x, &p)
            }
            _ => x,
        }
    }

    /// Arguments as rvalues, converted to the declared prototype when the
    /// input declares one, else by the default argument promotions.
    pub(super) fn plain_args(
        &mut self,
        name: &str,
        c: &'a Node<ast::CallExpression>,
        e: &'a Node<ast::Expression>,
    ) -> Result<Vec<Expr>> {
        if let Some(Sym::Func(f)) = self.lookup(name).cloned() {
            let sig = self.prog.func(f).sig.clone();
            if !sig.unprototyped {
                return self.call_args(&sig, &c.node.arguments, e);
            }
        }
        let mut out = Vec::new();
        for a in &c.node.arguments {
            let x = self.rvalue(a)?;
            out.push(self.default_promote(x));
        }
        Ok(out)
    }

    fn declared_ret(&self, name: &str) -> Option<Ty> {
        match self.lookup(name) {
            Some(Sym::Func(f)) => {
                let s = &self.prog.func(*f).sig;
                if s.unprototyped {
                    None
                } else {
                    Some(s.ret.clone())
                }
            }
            _ => None,
        }
    }

    /// The last argument of a timed wait, `abstime`, in a temporary, and
    /// whether its `tv_nsec` is in 0..1e9 (POSIX's EINVAL otherwise, where
    /// the call would block), read once here.
    fn abstime(&mut self, a: &mut Vec<Expr>, x: &Node<ast::Expression>, loc: Loc) -> Result<()> {
        let t = a.pop().unwrap();
        if !matches!(t.ty.pointee().map(Ty::unqual), Some(Ty::Comp(_))) {
            return self.error(
                x.span,
                "the time of a timed wait is not a pointer to a struct timespec",
            );
        }
        let tmp = self.temp(t.ty.clone(), loc);
        self.emit(StmtKind::Assign(tmp.clone(), t), loc);
        let pointee = tmp.ty.pointee().unwrap().clone();
        let d = Expr::new(ExprKind::Deref(Box::new(tmp.clone())), pointee, loc);
        let ns = self.member(d, "tv_nsec", x)?;
        let nt = ns.ty.unqual().clone();
        if !nt.is_integer() {
            return self.error(x.span, "tv_nsec of a timed wait's time is not an integer");
        }
        let lo = crate::ir::build::cmp(BinOp::Ge, ns.clone(), Expr::int(0, nt.clone(), loc), loc);
        let hi = crate::ir::build::cmp(BinOp::Lt, ns, Expr::int(1_000_000_000, nt, loc), loc);
        let ok = crate::ir::build::bin(BinOp::LogAnd, lo, hi, Ty::INT, loc);
        let v = self.temp(Ty::INT, loc);
        self.emit(StmtKind::Assign(v.clone(), ok), loc);
        a.push(tmp);
        a.push(v);
        Ok(())
    }

    pub(super) fn arity(
        &self,
        name: &str,
        c: &Node<ast::CallExpression>,
        e: &Node<ast::Expression>,
        n: usize,
    ) -> Result<()> {
        if c.node.arguments.len() != n {
            return self.error(
                e.span,
                format!(
                    "'{name}' takes {n} argument(s), {} given",
                    c.node.arguments.len()
                ),
            );
        }
        Ok(())
    }

    pub(super) fn op(
        &mut self,
        op: Op,
        args: Vec<Expr>,
        ret: Option<Ty>,
        want: Want,
        loc: Loc,
    ) -> Expr {
        let dest = match ret {
            Some(t) if want == Want::Value && !t.is_void() => Some(self.temp(t, loc)),
            _ => None,
        };
        self.emit(
            StmtKind::Op {
                dest: dest.clone(),
                op,
                args,
            },
            loc,
        );
        dest.unwrap_or_else(|| Expr::int(0, Ty::Void, loc))
    }

    /// `Some` when `name` has a meaning for seqc.
    fn special_call(
        &mut self,
        name: &str,
        c: &'a Node<ast::CallExpression>,
        e: &'a Node<ast::Expression>,
        want: Want,
    ) -> Result<Option<Expr>> {
        let loc = self.loc(e.span);
        let void = Expr::int(0, Ty::Void, loc);
        let args = &c.node.arguments;
        if UNSUPPORTED.contains(&name)
            || (UNSUPPORTED_PREFIXES.iter().any(|p| name.starts_with(p))
                && word_sig(name).is_none())
            || super::pthread_attr::REFUSED.contains(&name)
            // GCC's checked arithmetic (`__builtin_add_overflow`,
            // `__builtin_smull_overflow`, ...): not modelled.
            || (name.starts_with("__builtin_")
                && (name.ends_with("_overflow") || name.ends_with("_overflow_p")))
        {
            return self.unsupported(c.node.callee.span, name);
        }
        match name {
            "__VERIFIER_assert" | "__seqc_assert" | "assert" => {
                self.arity(name, c, e, 1)?;
                let x = self.cond_expr(&args[0])?;
                self.emit(StmtKind::Assert(x, AssertKind::Assert), loc);
                return Ok(Some(void));
            }
            "reach_error"
            | "__VERIFIER_error"
            | "__assert_fail"
            | "__assert_perror_fail"
            | "__assert" => {
                self.emit(
                    StmtKind::Assert(Expr::int(0, Ty::INT, loc), AssertKind::ReachError),
                    loc,
                );
                return Ok(Some(void));
            }
            "__VERIFIER_assume" | "assume" | "__CPROVER_assume" => {
                self.arity(name, c, e, 1)?;
                let x = self.cond_expr(&args[0])?;
                self.emit(StmtKind::Assume(x), loc);
                return Ok(Some(void));
            }
            "__builtin_unreachable" => {
                self.emit(StmtKind::Assume(Expr::int(0, Ty::INT, loc)), loc);
                return Ok(Some(void));
            }
            "__builtin_expect" => {
                self.arity(name, c, e, 2)?;
                // `long __builtin_expect(long, long)`: the value is
                // the first argument converted to long.
                let x = self.rvalue(&args[0])?;
                let x = self.convert(x, &Ty::LONG);
                self.discard(&args[1])?;
                return Ok(Some(x));
            }
            "__VERIFIER_atomic_begin" => {
                return Ok(Some(self.op(Op::AtomicBegin, vec![], None, want, loc)));
            }
            "__VERIFIER_atomic_end" => {
                return Ok(Some(self.op(Op::AtomicEnd, vec![], None, want, loc)));
            }
            "abort" | "_Exit" => return Ok(Some(self.op(Op::Abort, vec![], None, want, loc))),
            "exit" | "_exit" | "pthread_exit" => {
                self.arity(name, c, e, 1)?;
                let a = self.rvalue(&args[0])?;
                let (op, a) = if name == "pthread_exit" {
                    (
                        Op::ThreadExit,
                        self.assign_convert(a, &Ty::Void.ptr(), &args[0])?,
                    )
                } else {
                    (Op::Exit, self.assign_convert(a, &Ty::INT, &args[0])?)
                };
                return Ok(Some(self.op(op, vec![a], None, want, loc)));
            }
            "rand" | "random" => {
                let t = self.temp(Ty::INT, loc);
                self.emit(
                    StmtKind::Assign(t.clone(), Expr::new(ExprKind::Nondet, Ty::INT, loc)),
                    loc,
                );
                let ge = Expr::new(
                    ExprKind::Binary(
                        BinOp::Ge,
                        Box::new(t.clone()),
                        Box::new(Expr::int(0, Ty::INT, loc)),
                    ),
                    Ty::INT,
                    loc,
                );
                self.emit(StmtKind::Assume(ge), loc.generated());
                return Ok(Some(t));
            }
            _ => {}
        }
        let nondet = name
            .strip_prefix("__VERIFIER_nondet_")
            .or_else(|| name.strip_prefix("nondet_"));
        if let Some(suffix) = nondet {
            let ty =
                match self
                    .declared_ret(name)
                    .or_else(|| nondet_type(suffix, self.prog.data_model))
                {
                    Some(t) => t,
                    None => return self.error(
                        e.span,
                        format!(
                            "'{name}' is not declared, and its type cannot be told from its name"
                        ),
                    ),
                };
            if !args.is_empty() {
                return self.error(e.span, format!("'{name}' takes no arguments"));
            }
            return Ok(Some(Expr::new(ExprKind::Nondet, ty.unqual().clone(), loc)));
        }
        if matches!(name, "free" | "__builtin_free")
            && let Some(a) = args.first()
            && self.vla_named(strip_ast_casts(&a.node)).is_some()
        {
            return self.unsupported(a.span, "free of a variable-length array (undefined)");
        }
        if name == "sscanf" {
            return self.sscanf(c, e, want).map(Some);
        }
        if let Some(r) = self.pthread_attr_call(name, c, e, want)? {
            return Ok(Some(r));
        }
        if let Some(n) = stat(ATTR_NOOPS, name) {
            let a = self.plain_args(name, c, e)?;
            return Ok(Some(self.op(Op::AttrNoop(n), a, Some(Ty::INT), want, loc)));
        }
        if let Some(n) = stat(LIB_NOOPS, name) {
            let a = self.plain_args(name, c, e)?;
            let ret = self.declared_ret(name).unwrap_or(Ty::INT);
            let fmt = match n {
                "printf" => Some(0),
                "fprintf" => Some(1),
                _ => None,
            };
            if let Some(i) = fmt
                && let Some(f) = a.get(i)
            {
                match string_of(f) {
                    Some(b) if writes_through_n(b) => {
                        return self.unsupported(
                            c.node.arguments[i].span,
                            format!("'{n}' with %n in its format (a write through a pointer)"),
                        );
                    }
                    Some(_) => {}
                    None => {
                        return self.unsupported(
                            c.node.arguments[i].span,
                            format!(
                                "'{n}' with a format that is not a string literal (it may write through %n)"
                            ),
                        );
                    }
                }
            }
            // No signals reach the program, so a sleep is never cut
            // short: these return 0. The output functions' results (a
            // count of characters, or an error) are not modelled.
            let zero = matches!(
                n,
                "sleep" | "usleep" | "nanosleep" | "sched_yield" | "pthread_yield"
            );
            if want == Want::Value && !ret.is_void() && !zero {
                return self.unsupported(
                    c.node.callee.span,
                    format!("the result of '{n}' (seqc does not model what it returns)"),
                );
            }
            self.op(Op::LibNoop(n), a, None, Want::Effect, loc);
            return Ok(Some(if want == Want::Value && !ret.is_void() {
                Expr::int(0, ret, loc)
            } else {
                Expr::int(0, Ty::Void, loc)
            }));
        }
        let thread =
            |s: &str| Ty::Pthread(PthreadTy::Thread).ptr().clone().eq(&Ty::Void) || s.is_empty();
        let _ = thread;
        let pth = |p: PthreadTy| Ty::Pthread(p).ptr();
        let vp = Ty::Void.ptr();
        let sig: Option<(Op, Vec<Ty>, Ty)> = match name {
            "pthread_create" => Some((
                Op::ThreadCreate,
                vec![
                    pth(PthreadTy::Thread),
                    pth(PthreadTy::Attr),
                    Ty::Func(Box::new(FnSig {
                        ret: vp.clone(),
                        params: vec![vp.clone()],
                        variadic: false,
                        unprototyped: false,
                    }))
                    .ptr(),
                    vp.clone(),
                ],
                Ty::INT,
            )),
            "pthread_join" => Some((
                Op::ThreadJoin,
                vec![Ty::Pthread(PthreadTy::Thread), vp.clone().ptr()],
                Ty::INT,
            )),
            "pthread_self" => Some((Op::ThreadSelf, vec![], Ty::Pthread(PthreadTy::Thread))),
            "pthread_equal" => Some((
                Op::ThreadEqual,
                vec![
                    Ty::Pthread(PthreadTy::Thread),
                    Ty::Pthread(PthreadTy::Thread),
                ],
                Ty::INT,
            )),
            "pthread_mutex_init" => Some((
                Op::MutexInit,
                vec![pth(PthreadTy::Mutex), pth(PthreadTy::MutexAttr)],
                Ty::INT,
            )),
            "pthread_mutex_destroy" => {
                Some((Op::MutexDestroy, vec![pth(PthreadTy::Mutex)], Ty::INT))
            }
            "pthread_mutex_lock" => Some((Op::MutexLock, vec![pth(PthreadTy::Mutex)], Ty::INT)),
            "pthread_mutex_unlock" => Some((Op::MutexUnlock, vec![pth(PthreadTy::Mutex)], Ty::INT)),
            "pthread_mutex_trylock" => {
                Some((Op::MutexTryLock, vec![pth(PthreadTy::Mutex)], Ty::INT))
            }
            "pthread_cond_init" => Some((
                Op::CondInit,
                vec![pth(PthreadTy::Cond), pth(PthreadTy::CondAttr)],
                Ty::INT,
            )),
            "pthread_cond_destroy" => Some((Op::CondDestroy, vec![pth(PthreadTy::Cond)], Ty::INT)),
            "pthread_cond_wait" => Some((
                Op::CondWait,
                vec![pth(PthreadTy::Cond), pth(PthreadTy::Mutex)],
                Ty::INT,
            )),
            "pthread_mutex_timedlock" => Some((
                Op::MutexTimedLock,
                vec![pth(PthreadTy::Mutex), vp.clone()],
                Ty::INT,
            )),
            "pthread_cond_timedwait" => Some((
                Op::CondTimedWait,
                vec![pth(PthreadTy::Cond), pth(PthreadTy::Mutex), vp.clone()],
                Ty::INT,
            )),
            "pthread_cond_signal" => Some((Op::CondSignal, vec![pth(PthreadTy::Cond)], Ty::INT)),
            "pthread_cond_broadcast" => {
                Some((Op::CondBroadcast, vec![pth(PthreadTy::Cond)], Ty::INT))
            }
            "pthread_once" => Some((
                Op::Once,
                vec![
                    pth(PthreadTy::Once),
                    Ty::Func(Box::new(FnSig {
                        ret: Ty::Void,
                        params: vec![],
                        variadic: false,
                        unprototyped: false,
                    }))
                    .ptr(),
                ],
                Ty::INT,
            )),
            "pthread_key_create" => Some((
                Op::KeyCreate,
                vec![
                    pth(PthreadTy::Key),
                    Ty::Func(Box::new(FnSig {
                        ret: Ty::Void,
                        params: vec![vp.clone()],
                        variadic: false,
                        unprototyped: false,
                    }))
                    .ptr(),
                ],
                Ty::INT,
            )),
            "pthread_key_delete" => {
                Some((Op::KeyDelete, vec![Ty::Pthread(PthreadTy::Key)], Ty::INT))
            }
            "pthread_getspecific" => Some((
                Op::GetSpecific,
                vec![Ty::Pthread(PthreadTy::Key)],
                vp.clone(),
            )),
            "pthread_setspecific" => Some((
                Op::SetSpecific,
                vec![Ty::Pthread(PthreadTy::Key), vp.clone()],
                Ty::INT,
            )),
            "malloc" | "__builtin_malloc" => Some((Op::Malloc, vec![Ty::ULONG], vp.clone())),
            "calloc" | "__builtin_calloc" => {
                Some((Op::Calloc, vec![Ty::ULONG, Ty::ULONG], vp.clone()))
            }
            "free" | "__builtin_free" => Some((Op::Free, vec![vp.clone()], Ty::Void)),
            "memset" | "__builtin_memset" => {
                Some((Op::Memset, vec![vp.clone(), Ty::INT, Ty::ULONG], vp.clone()))
            }
            "memcpy" | "memmove" | "__builtin_memcpy" | "__builtin_memmove" => Some((
                Op::Memcpy,
                vec![vp.clone(), vp.clone(), Ty::ULONG],
                vp.clone(),
            )),
            _ => word_sig(name),
        };
        if let Some((op, params, ret)) = sig {
            self.arity(name, c, e, params.len())?;
            let mut a = Vec::new();
            for (x, p) in args.iter().zip(&params) {
                let v = self.rvalue(x)?;
                // Mutexes and conds are passed as pointers of any spelling;
                // keep the argument's own pointer type where it is one.
                let v = if p.is_pointer() && v.ty.is_pointer() {
                    v
                } else {
                    self.assign_convert(v, p, x)?
                };
                a.push(v);
            }
            if matches!(op, Op::MutexTimedLock | Op::CondTimedWait) {
                self.abstime(&mut a, args.last().unwrap(), loc)?;
            }
            if op == Op::KeyCreate && a.get(1).and_then(crate::ir::build::const_of) != Some(0) {
                self.prog.pthread.key_dtors = true;
            }
            if op == Op::ThreadCreate
                && let Some(f) = a.get(2)
                && !matches!(f.ty.pointee(), Some(Ty::Func(_)))
            {
                return self.error(
                    args[2].span,
                    "pthread_create: the start routine is not a function",
                );
            }
            return Ok(Some(self.op(op, a, Some(ret), want, loc)));
        }
        if let Some((op, nvals)) = atomic_op(name) {
            if op == Op::Fence {
                for a in args {
                    self.discard(a)?;
                }
                return Ok(Some(self.op(op, vec![], None, want, loc)));
            }
            if args.is_empty() {
                return self.error(e.span, format!("'{name}' needs a pointer argument"));
            }
            let mut p = self.rvalue(&args[0])?;
            let Some(mut vt) = p.ty.pointee().map(|t| t.unqual().clone()) else {
                return self.error(
                    args[0].span,
                    format!("'{name}': the first argument is not a pointer"),
                );
            };
            // atomic_flag: operate on its one field.
            if let Ty::Comp(cid) = vt {
                let def = self.prog.comp(cid);
                if def.fields.len() == 1 && def.fields[0].ty.is_integer() {
                    let ft = def.fields[0].ty.clone();
                    let d = Expr::new(ExprKind::Deref(Box::new(p)), Ty::Comp(cid), loc);
                    let m = Expr::new(ExprKind::Member(Box::new(d), 0), ft.clone(), loc);
                    p = Expr::new(ExprKind::AddrOf(Box::new(m)), ft.clone().ptr(), loc);
                    vt = ft.unqual().clone();
                }
            }
            if args.len() < 1 + nvals {
                return self.error(
                    e.span,
                    format!("'{name}' takes {} value argument(s)", nvals),
                );
            }
            // GCC's builtins add bytes to a pointer, C11's elements, and
            // the oracle has no such step: refused rather than guessed.
            if matches!(op, Op::AtomicFetch(_) | Op::AtomicFetchThen(_)) && vt.is_pointer() {
                return self.unsupported(
                    e.span,
                    format!("'{name}' on a pointer (atomic pointer arithmetic)"),
                );
            }
            let mut a = vec![p];
            for (i, x) in args[1..1 + nvals].iter().enumerate() {
                let v = self.rvalue(x)?;
                let v = if op == Op::AtomicCompareExchange && i == 0 {
                    v // the pointer to the expected value
                } else {
                    self.assign_convert(v, &vt, x)?
                };
                a.push(v);
            }
            // Memory orders and the weak flag: evaluated, then ignored (SC).
            for x in &args[1 + nvals..] {
                self.discard(x)?;
            }
            let ret = match op {
                Op::AtomicStore => None,
                Op::AtomicCompareExchange | Op::AtomicCasBool => Some(Ty::Bool),
                _ => Some(vt),
            };
            return Ok(Some(self.op(op, a, ret, want, loc)));
        }
        if name == "__sync_lock_release"
            || name == "atomic_flag_clear"
            || name == "atomic_flag_clear_explicit"
        {
            let p = self.rvalue(&args[0])?;
            let vt = p.ty.pointee().cloned().unwrap_or(Ty::INT);
            let (p, vt) = self.flag_field(p, vt, loc);
            let zero = self.convert(Expr::int(0, Ty::INT, loc), &vt);
            return Ok(Some(self.op(
                Op::AtomicStore,
                vec![p, zero],
                None,
                want,
                loc,
            )));
        }
        if name == "atomic_flag_test_and_set" || name == "atomic_flag_test_and_set_explicit" {
            let p = self.rvalue(&args[0])?;
            let vt = p.ty.pointee().cloned().unwrap_or(Ty::INT);
            let (p, vt) = self.flag_field(p, vt, loc);
            let one = self.convert(Expr::int(1, Ty::INT, loc), &vt);
            return Ok(Some(self.op(
                Op::AtomicExchange,
                vec![p, one],
                Some(vt),
                want,
                loc,
            )));
        }
        Ok(None)
    }

    fn flag_field(&self, p: Expr, vt: Ty, loc: Loc) -> (Expr, Ty) {
        if let Ty::Comp(cid) = vt.unqual() {
            let def = self.prog.comp(*cid);
            if let Some(f) = def.fields.first() {
                let ft = f.ty.clone();
                let d = Expr::new(ExprKind::Deref(Box::new(p)), vt.clone(), loc);
                let m = Expr::new(ExprKind::Member(Box::new(d), 0), ft.clone(), loc);
                return (
                    Expr::new(ExprKind::AddrOf(Box::new(m)), ft.clone().ptr(), loc),
                    ft.unqual().clone(),
                );
            }
        }
        (p, vt.unqual().clone())
    }
}

/// An expression under its casts (`free((void *)a)`).
fn strip_ast_casts(e: &ast::Expression) -> &ast::Expression {
    match e {
        ast::Expression::Cast(c) => strip_ast_casts(&c.node.expression.node),
        _ => e,
    }
}

/// A callee whose arguments are allocation sizes (`LayoutUse::harmless`).
fn allocator(name: &str) -> bool {
    name.contains("alloc")
}
