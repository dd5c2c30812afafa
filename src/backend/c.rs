//! The C back end: IR → C text that gcc compiles and CBMC checks.
//!
//! Statements are written straight into one string, one per line and
//! nested two spaces a block (a layout with no line breaking needs no
//! document tree: building one cost more than the text at 100k lines);
//! expressions are printed with one precedence table. Signed `+ - *` and unary `-` are done in the unsigned
//! type and converted back (two's complement wrap, DESIGN.md §2); `/ % << >>`
//! with a count or divisor that can be bad go through `__seqc_` helpers
//! whose text lives in `templates/ub_helpers.c`. `#line` directives map
//! every user statement back to the input.
//!
//! Composite types declared in system headers print with a `__seqc_` tag
//! prefix, so that the headers the output includes (pthread.h, stdlib.h,
//! string.h, assert.h) never clash with them.

use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

const PRELUDE: &str = include_str!("../../templates/prelude.c");
const UB_HELPERS: &str = include_str!("../../templates/ub_helpers.c");

/// Which checker's spelling of assume and atomic sections to use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Dialect {
    /// `__VERIFIER_assume`, `__VERIFIER_atomic_begin` (SV-COMP).
    #[default]
    Svcomp,
    /// `__CPROVER_assume`, `__CPROVER_atomic_begin` (CBMC builtins).
    Cbmc,
}

#[derive(Clone, Debug, Default)]
pub struct COptions {
    pub dialect: Dialect,
    /// Describes the options in the header comment.
    pub options_text: String,
    /// Text for `{{VERSION}}`.
    pub version: String,
    /// Print the IR itself (`--emit ir`): no UB helpers, explicit ops and
    /// loops, a location on every statement.
    pub ir_mode: bool,
}

/// The round of the running thread in Lal-Reps output.
const ROUND_VAR: &str = "__seqc_r";
/// Marks the start of a user statement; resolved into `#line` afterwards.
const MARK: char = '\u{1}';

/// Prints a whole program.
pub fn emit(p: &Program, opts: &COptions) -> String {
    let mut e = Emitter::new(p, opts);
    let (before, defs) = e.program();
    let mut decls = String::new();
    for n in &e.nondets {
        let (ty, suffix) = n;
        let _ = writeln!(decls, "extern {ty} __VERIFIER_nondet_{suffix}(void);");
    }
    match opts.dialect {
        Dialect::Svcomp => {
            let _ = writeln!(decls, "extern void __VERIFIER_assume(int);");
            if e.uses_atomic_begin {
                let _ = writeln!(decls, "extern void __VERIFIER_atomic_begin(void);");
                let _ = writeln!(decls, "extern void __VERIFIER_atomic_end(void);");
            }
        }
        Dialect::Cbmc => {}
    }
    for (name, ty) in &e.helpers {
        decls.push_str(&helper_text(name, ty));
    }
    let includes: String = e
        .includes
        .iter()
        .map(|h| match *h {
            "memset" => "void *memset(void *, int, __SIZE_TYPE__);\n".to_string(),
            "memcpy" => "void *memcpy(void *, const void *, __SIZE_TYPE__);\n".to_string(),
            h => format!("#include <{h}>\n"),
        })
        .collect();
    let head = PRELUDE
        .replace("{{VERSION}}", &opts.version)
        .replace(
            "{{INPUT}}",
            &comment_text(p.files.first().map(String::as_str).unwrap_or("-")),
        )
        .replace("{{OPTIONS}}", &comment_text(&opts.options_text))
        .replace("{{CHECKER_NOTE}}", &checker_note(p))
        .replace("{{INCLUDES}}", includes.trim_end())
        .replace("{{DECLARATIONS}}", decls.trim_end());
    let mut out = String::new();
    let defs_len: usize = defs.iter().map(|(t, _)| t.len()).sum();
    out.reserve(head.len() + before.len() + defs_len + 2);
    out.push_str(head.trim_end());
    out.push_str("\n\n");
    let mut cur = None;
    e.resolve_lines(&before, &mut out, &mut cur);
    // Each definition was resolved as if nothing came before it: its
    // first directive goes when the text before already maps there.
    for (text, pieces) in &defs {
        for d in pieces {
            match &d.lead {
                Some(l) => {
                    let mut at = cur;
                    advance(&mut at, l.lines_before);
                    if at == Some(l.to) {
                        out.push_str(&text[d.text.start..l.directive.start]);
                        out.push_str(&text[l.directive.end..d.text.end]);
                    } else {
                        out.push_str(&text[d.text.clone()]);
                    }
                    cur = d.end;
                }
                None => {
                    out.push_str(&text[d.text.clone()]);
                    advance(&mut cur, d.lines);
                }
            }
        }
    }
    let empty = before.is_empty() && defs_len == 0;
    if !(empty || out.ends_with('\n')) {
        out.push('\n');
    }
    out
}

/// Where the next output line maps to: (file, line), or None when the
/// compiler's own count is right.
type LineAt = Option<(u32, u32)>;

fn advance(cur: &mut LineAt, lines: usize) {
    if let Some((_, n)) = cur {
        *n += lines as u32;
    }
}

/// One function definition in a thread's text, its marks resolved.
struct Def {
    /// Its bytes in the thread's text.
    text: std::ops::Range<usize>,
    /// The first directive, when there are marks.
    lead: Option<Lead>,
    /// With marks: where the line after the definition maps to.
    end: LineAt,
    /// Without: how many lines it has.
    lines: usize,
}

/// The first `#line` directive of a definition resolved on its own.
struct Lead {
    /// Lines of the definition before it.
    lines_before: usize,
    /// Where it maps the next line to.
    to: (u32, u32),
    /// Its bytes in the thread's text.
    directive: std::ops::Range<usize>,
}

/// The text of one UB helper for a type, from the template.
fn helper_text(name: &str, ty: &(String, String, u32, bool, String)) -> String {
    let (t, u, bits, signed, nondet) = ty;
    let op = name.split('_').nth(3).unwrap_or("");
    let n = &name[format!("__seqc_{op}_").len()..];
    let section = UB_HELPERS
        .split("//@ ")
        .find(|s| s.starts_with(op))
        .map(|s| s[op.len()..].trim_start_matches('\n'))
        .unwrap_or("");
    let text = section
        .replace("{{T}}", t)
        .replace("{{U}}", u)
        .replace("{{N}}", n)
        .replace("{{BITS}}", &bits.to_string())
        .replace("{{NONDET}}", nondet);
    let text: String = text
        .lines()
        .filter_map(|l| match l.strip_prefix("{{SIGNED}}") {
            Some(rest) if *signed => Some(format!("{rest}\n")),
            Some(_) => None,
            None => Some(format!("{l}\n")),
        })
        .collect();
    text
}

/// Precedence levels, higher binds tighter.
const P_ASSIGN: u8 = 2;
const P_COND: u8 = 3;
const P_PRIMARY: u8 = 16;
const P_POSTFIX: u8 = 15;
const P_UNARY: u8 = 14;
const P_CAST: u8 = 13;

fn bin_prec(op: BinOp) -> u8 {
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

/// A name as C spells it: the lexer's stand-in for `$` turned back.
/// Names seldom have one, so the common case copies nothing.
pub fn c_ident(name: &str) -> std::borrow::Cow<'_, str> {
    let d = crate::ir::DOLLAR.as_bytes();
    if name.as_bytes().windows(d.len()).any(|w| w == d) {
        std::borrow::Cow::Owned(name.replace(crate::ir::DOLLAR, "$"))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

struct Emitter<'p> {
    p: &'p Program,
    opts: &'p COptions,
    /// helper name → (type, unsigned type, bits, signed, nondet call).
    helpers: BTreeMap<String, (String, String, u32, bool, String)>,
    nondets: BTreeSet<(String, String)>,
    includes: BTreeSet<&'static str>,
    uses_atomic_begin: bool,
    /// For each enclosing loop: the label `continue` must jump to, if any.
    cont_labels: Vec<Option<String>>,
    cont_count: u32,
    func: Option<&'p Function>,
    /// Printing an lvalue whose address is taken (Lal-Reps: copy 0).
    addr_mode: bool,
    /// The statement text being written, and its indentation.
    out: String,
    indent: usize,
}

/// Adds the composites type `t` reaches (members first) to `order`.
fn visit_comps(p: &Program, t: &Ty, seen: &mut [bool], order: &mut Vec<CompId>) {
    match t {
        Ty::Ptr(t) | Ty::Array(t, _) | Ty::Atomic(t) => visit_comps(p, t, seen, order),
        Ty::Func(s) => {
            visit_comps(p, &s.ret, seen, order);
            s.params.iter().for_each(|x| visit_comps(p, x, seen, order));
        }
        Ty::Comp(c) if !seen[c.0 as usize] => {
            seen[c.0 as usize] = true;
            for f in &p.comp(*c).fields {
                visit_comps(p, &f.ty, seen, order);
            }
            order.push(*c);
        }
        _ => {}
    }
}

impl<'p> Emitter<'p> {
    fn new(p: &'p Program, opts: &'p COptions) -> Emitter<'p> {
        Emitter {
            p,
            opts,
            helpers: BTreeMap::new(),
            nondets: BTreeSet::new(),
            includes: BTreeSet::new(),
            uses_atomic_begin: false,
            cont_labels: Vec::new(),
            cont_count: 0,
            func: None,
            addr_mode: false,
            out: String::new(),
            indent: 0,
        }
    }
}

/// The IR as text: C-like, with every statement's location, explicit
/// loops and operations, and no C-level rewriting.
pub fn dump(p: &Program) -> String {
    let opts = COptions {
        ir_mode: true,
        ..COptions::default()
    };
    let mut e = Emitter::new(p, &opts);
    let (before, defs) = e.program();
    let mut out = format!("// seqc IR, data model {:?}\n{before}", p.data_model);
    // The IR has no marks: each thread's text is the definitions as printed.
    defs.iter().for_each(|(t, _)| out.push_str(t));
    out
}

impl<'p> Emitter<'p> {
    // ---- names and types ----

    fn comp_name(&self, c: CompId) -> String {
        let d = self.p.comp(c);
        let kw = match d.kind {
            CompKind::Struct => "struct",
            CompKind::Union => "union",
        };
        if (self.p.is_system(d.loc.file) || reserved_tag(&d.name)) && !d.name.starts_with("__anon")
        {
            format!("{kw} __seqc_{}", d.name)
        } else {
            format!("{kw} {}", c_ident(&d.name))
        }
    }

    /// `ty name` in C declarator syntax.
    fn declare(&mut self, ty: &Ty, name: &str) -> String {
        match ty {
            Ty::Ptr(t) => {
                let inner = format!("*{name}");
                match &**t {
                    Ty::Array(..) | Ty::Func(_) => self.declare(t, &format!("({inner})")),
                    _ => self.declare(t, &inner),
                }
            }
            Ty::Array(t, n) => {
                let n = n.map(|n| n.to_string()).unwrap_or_default();
                self.declare(t, &format!("{name}[{n}]"))
            }
            Ty::Func(sig) => {
                let mut ps: Vec<String> = sig.params.iter().map(|p| self.declare(p, "")).collect();
                if sig.variadic {
                    ps.push("...".into());
                }
                let params = if ps.is_empty() && !sig.unprototyped {
                    "void".to_string()
                } else {
                    ps.join(", ")
                };
                self.declare(&sig.ret, &format!("{name}({params})"))
            }
            Ty::Atomic(t) => match &**t {
                Ty::Ptr(_) => self.declare(t, &format!("_Atomic {name}")),
                _ => format!("_Atomic {}", self.declare(t, name)),
            },
            base => {
                let b = self.base_name(base);
                if name.is_empty() {
                    b
                } else {
                    format!("{b} {name}")
                }
            }
        }
    }

    fn base_name(&mut self, t: &Ty) -> String {
        match t {
            Ty::Void => "void".into(),
            Ty::Bool => "_Bool".into(),
            Ty::Int(k) => k.c_name().into(),
            Ty::Float(k) => k.c_name().into(),
            Ty::Comp(c) => self.comp_name(*c),
            Ty::Pthread(p) => {
                self.includes.insert("pthread.h");
                p.c_name().into()
            }
            _ => unreachable!("not a base type"),
        }
    }

    fn type_name(&mut self, t: &Ty) -> String {
        // Casts name integer types and pointers to them all the time.
        match t {
            Ty::Int(k) => k.c_name().to_string(),
            Ty::Ptr(b) if matches!(**b, Ty::Int(_) | Ty::Void | Ty::Bool) => {
                let mut s = self.base_name(b);
                s.push_str(" *");
                s
            }
            _ => self.declare(t, ""),
        }
    }

    // ---- expressions ----

    fn nondet(&mut self, ty: &Ty) -> String {
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
        let call = format!("__VERIFIER_nondet_{suffix}()");
        let natural = matches!(ty.unqual(), Ty::Int(_) | Ty::Bool | Ty::Float(_));
        if natural || ty.unqual() == &Ty::Void.ptr() {
            call
        } else {
            format!("({}){call}", self.type_name(ty.unqual()))
        }
    }

    fn int_lit(&self, v: i128, ty: &Ty) -> String {
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
    fn copied(&self, g: GlobalId) -> bool {
        !self.opts.ir_mode && self.p.rounds.as_ref().is_some_and(|r| r.copied[g.index()])
    }

    /// `(text, precedence)` of an expression.
    fn expr(&mut self, e: &Expr) -> (String, u8) {
        let saved = std::mem::take(&mut self.out);
        let p = self.ew(e);
        (std::mem::replace(&mut self.out, saved), p)
    }

    /// An operand printed at least at precedence `min`.
    fn sub(&mut self, e: &Expr, min: u8) -> String {
        let saved = std::mem::take(&mut self.out);
        self.sw(e, min);
        std::mem::replace(&mut self.out, saved)
    }

    fn top(&mut self, e: &Expr) -> String {
        self.expr(e).0
    }

    /// Writes an operand at least at precedence `min`: the parentheses
    /// go around what it wrote, which is known only afterwards.
    fn sw(&mut self, e: &Expr, min: u8) {
        let start = self.out.len();
        if self.ew(e) < min {
            self.out.insert(start, '(');
            self.out.push(')');
        }
    }

    /// Writes an expression; returns its precedence. Expressions are
    /// written in place: a string per node was most of the printer's time.
    fn ew(&mut self, e: &Expr) -> u8 {
        use ExprKind::*;
        let addr = self.addr_mode;
        let rounds = self.p.rounds.is_some() && !self.opts.ir_mode;
        if rounds {
            let p = self.p;
            match &e.kind {
                Global(g) if self.copied(*g) => {
                    if addr {
                        self.put("__seqc_mem0.");
                    } else {
                        self.put("__seqc_mem[");
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
                    let name = &p.comp(*c).fields[*i as usize].name;
                    if name.is_empty() {
                        return self.ew(x);
                    }
                    self.sw(x, P_POSTFIX);
                    self.put(".");
                    self.put(&c_ident(name));
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

    fn ew_plain(&mut self, e: &Expr) -> u8 {
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
            Local(v) => {
                self.put(&c_ident(&self.func.unwrap().local(*v).name));
                P_PRIMARY
            }
            Global(g) => {
                self.put(&c_ident(&p.global(*g).name));
                P_PRIMARY
            }
            Func(f) => {
                self.put(&c_ident(&p.func(*f).name));
                P_PRIMARY
            }
            Nondet => {
                let s = self.nondet(&e.ty);
                self.put(&s);
                P_POSTFIX
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
                self.sw(a, P_UNARY);
                P_UNARY
            }
            Binary(op, a, b) => self.binary(*op, a, b, &e.ty),
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
                let name = &p.comp(*c).fields[*i as usize].name;
                if name.is_empty() {
                    // An anonymous member: its fields are reached directly.
                    return self.ew(x);
                }
                if let Deref(q) = &x.kind
                    && !matches!(q.kind, Binary(BinOp::PtrAdd, ..))
                {
                    self.sw(q, P_POSTFIX);
                    self.put("->");
                } else {
                    self.sw(x, P_POSTFIX);
                    self.put(".");
                }
                self.put(&c_ident(name));
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

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, ty: &Ty) -> u8 {
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
        self.sw(a, p);
        self.put(" ");
        self.put(op.c_op());
        self.put(" ");
        self.sw(b, p + 1);
        p
    }

    /// `name(a, b)`: a UB helper's call.
    fn helper_call(&mut self, name: &str, a: &Expr, b: &Expr) {
        self.put(name);
        self.put("(");
        self.ew(a);
        self.put(", ");
        self.ew(b);
        self.put(")");
    }

    fn helper(&mut self, op: &str, k: IntKind) -> String {
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

    fn init(&mut self, i: &Init, ty: &Ty) -> String {
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
                        if dense || f.name.is_empty() {
                            v
                        } else {
                            format!(".{} = {v}", c_ident(&f.name))
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

    // ---- statements ----

    fn mark(&self, loc: Loc) -> String {
        let mut m = String::new();
        if !self.opts.ir_mode {
            put_mark(&mut m, loc);
        }
        m
    }

    fn put(&mut self, t: &str) {
        self.out.push_str(t);
    }

    /// A line break; the next line starts at the current indentation,
    /// up to 256 columns: deeper blocks start there too, since the text
    /// grows with the square of the nesting (50,000 nested `if`s printed
    /// 5 GB of spaces).
    fn newline(&mut self) {
        self.out.push('\n');
        const SPACES: &str = "                                                                ";
        let mut n = self.indent.min(256);
        while n > 0 {
            let k = n.min(SPACES.len());
            self.out.push_str(&SPACES[..k]);
            n -= k;
        }
    }

    fn block(&mut self, b: &Block) {
        self.stmts(&b.0)
    }

    fn stmts(&mut self, ss: &[Stmt]) {
        for (i, s) in ss.iter().enumerate() {
            if i > 0 {
                self.newline();
            }
            self.stmt(s);
        }
    }

    fn braced(&mut self, b: &Block) {
        self.braced_stmts(&b.0)
    }

    fn braced_stmts(&mut self, ss: &[Stmt]) {
        if ss.is_empty() {
            return self.put("{ }");
        }
        self.nested(|e| e.stmts(ss));
    }

    /// `{`, what `inner` writes two spaces further in, `}`.
    fn nested(&mut self, inner: impl FnOnce(&mut Self)) {
        self.put("{");
        self.indent += 2;
        self.newline();
        inner(self);
        self.indent -= 2;
        self.newline();
        self.put("}");
    }

    /// Writes one statement's text with its location.
    fn line(&mut self, loc: Loc, s: &str) {
        self.line_start(loc);
        self.put(s);
        self.line_end(loc);
    }

    /// Before a statement's text: its mark (C output).
    fn line_start(&mut self, loc: Loc) {
        if !self.opts.ir_mode {
            put_mark(&mut self.out, loc);
        }
    }

    /// After a statement's text: its location (IR output).
    fn line_end(&mut self, loc: Loc) {
        if self.opts.ir_mode {
            let g = if loc.generated { "gen " } else { "" };
            let _ = write!(self.out, " /* {g}@{}:{} */", loc.line, loc.col);
        }
    }

    fn call_text(&mut self, name: &str, args: &[Expr]) -> String {
        let a: Vec<String> = args.iter().map(|x| self.sub(x, P_ASSIGN)).collect();
        format!("{name}({})", a.join(", "))
    }

    fn with_dest(&mut self, dest: &Option<Expr>, call: String) -> String {
        match dest {
            Some(d) => {
                let d = self.top(d);
                format!("{d} = {call};")
            }
            None => format!("{call};"),
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        let loc = s.loc;
        match &s.kind {
            StmtKind::Decl(v, init) => {
                let local = self.func.unwrap().local(*v);
                let d = self.declare(&local.ty, &c_ident(&local.name));
                match init {
                    Some(i) => {
                        let i = self.init(i, &local.ty);
                        self.line(loc, &format!("{d} = {i};"))
                    }
                    None => self.line(loc, &format!("{d};")),
                }
            }
            StmtKind::Assign(a, b) => {
                self.line_start(loc);
                self.ew(a);
                self.put(" = ");
                self.sw(b, P_ASSIGN);
                self.put(";");
                self.line_end(loc);
            }
            StmtKind::Call { dest, callee, args } => {
                self.line_start(loc);
                if let Some(d) = dest {
                    self.ew(d);
                    self.put(" = ");
                }
                self.sw(callee, P_POSTFIX);
                self.put("(");
                for (i, x) in args.iter().enumerate() {
                    if i > 0 {
                        self.put(", ");
                    }
                    self.sw(x, P_ASSIGN);
                }
                self.put(");");
                self.line_end(loc);
            }
            StmtKind::Op { dest, op, args } => {
                let t = self.op(*op, dest, args);
                self.line(loc, &t)
            }
            StmtKind::If(c, t, e) => {
                self.line_start(loc);
                self.put("if (");
                self.ew(c);
                self.put(") ");
                self.line_end(loc);
                self.braced(t);
                if !e.0.is_empty() {
                    self.put(" else ");
                    if e.0.len() == 1 && matches!(e.0[0].kind, StmtKind::If(..)) {
                        self.stmt(&e.0[0]);
                    } else {
                        self.braced(e);
                    }
                }
            }
            StmtKind::Loop { body, latch } => self.loop_stmt(loc, body, latch),
            StmtKind::Break => self.line(loc, "break;"),
            StmtKind::Continue => match self.cont_labels.last().cloned().flatten() {
                Some(l) => self.line(loc, &format!("goto {l};")),
                None => self.line(loc, "continue;"),
            },
            StmtKind::Switch(c, b) => {
                let c = self.top(c);
                // `continue` inside a switch still belongs to the loop.
                self.line(loc, &format!("switch ({c}) "));
                self.braced(b)
            }
            StmtKind::Case(CaseLabel::Value(v)) => self.line(loc, &format!("case {v}:;")),
            StmtKind::Case(CaseLabel::Range(a, b)) => {
                self.line(loc, &format!("case {a} ... {b}:;"))
            }
            StmtKind::Case(CaseLabel::Default) => self.line(loc, "default:;"),
            StmtKind::Label(l) => {
                let n = c_ident(&self.func.unwrap().labels[l.index()]);
                self.line(loc, &format!("{n}:;"))
            }
            StmtKind::Goto(l) => {
                let n = c_ident(&self.func.unwrap().labels[l.index()]);
                self.line(loc, &format!("goto {n};"))
            }
            StmtKind::Return(None) => self.line(loc, "return;"),
            StmtKind::Return(Some(e)) => {
                self.line_start(loc);
                self.put("return ");
                self.ew(e);
                self.put(";");
                self.line_end(loc);
            }
            StmtKind::Block(b) => {
                self.line(loc, "");
                self.braced(b)
            }
            StmtKind::Assert(c, kind) => {
                self.includes.insert("assert.h");
                match kind {
                    AssertKind::ReachError if self.opts.ir_mode => self.line(loc, "reach_error();"),
                    AssertKind::ReachError => self.line(loc, "assert(0); /* reach_error */"),
                    AssertKind::Assert => {
                        let c = self.top(c);
                        self.line(loc, &format!("assert({c});"))
                    }
                }
            }
            StmtKind::Assume(c) => {
                let c = self.top(c);
                let f = match self.opts.dialect {
                    _ if self.opts.ir_mode => "assume",
                    Dialect::Svcomp => "__VERIFIER_assume",
                    Dialect::Cbmc => "__CPROVER_assume",
                };
                self.line(loc, &format!("{f}({c});"))
            }
        }
    }

    /// `__seqc_consistent(i)`: copy i at the end equals guess i+1, leaf by
    /// leaf (unions by their first member).
    fn consistency_fn(&mut self) -> String {
        let p = self.p;
        let mut body = String::new();
        fn leaves(p: &Program, ty: &Ty, path: String, out: &mut Vec<String>) {
            match ty.unqual() {
                Ty::Array(t, Some(n)) => {
                    for i in 0..*n {
                        leaves(p, t, format!("{path}[{i}]"), out);
                    }
                }
                Ty::Comp(c) => {
                    let d = p.comp(*c);
                    for f in &d.fields {
                        if f.name.is_empty() {
                            continue;
                        }
                        leaves(p, &f.ty, format!("{path}.{}", c_ident(&f.name)), out);
                        if d.kind == CompKind::Union {
                            break;
                        }
                    }
                }
                _ => out.push(path),
            }
        }
        let mut ls = Vec::new();
        for (gi, g) in p.globals.iter().enumerate() {
            if p.rounds.as_ref().is_some_and(|r| r.copied[gi]) {
                leaves(p, &g.ty, format!(".{}", c_ident(&g.name)), &mut ls);
            }
        }
        for l in ls {
            let _ = writeln!(
                body,
                "  if (!(__seqc_mem[i]->{} == __seqc_guess[i + 1].{})) return 0;",
                &l[1..],
                &l[1..]
            );
        }
        format!("static int __seqc_consistent(unsigned i)\n{{\n{body}  return 1;\n}}\n")
    }

    fn op(&mut self, op: Op, dest: &Option<Expr>, args: &[Expr]) -> String {
        const SC: &str = "__ATOMIC_SEQ_CST";
        if self.opts.ir_mode {
            let c = self.call_text(&format!("op.{}", op.c_name()), args);
            return self.with_dest(dest, c);
        }
        let k = self.p.rounds.as_ref().map(|r| r.k).unwrap_or(1);
        let assume = match self.opts.dialect {
            Dialect::Svcomp => "__VERIFIER_assume",
            Dialect::Cbmc => "__CPROVER_assume",
        };
        match op {
            Op::RoundInit => {
                return format!(
                    "for (unsigned __seqc_i = 1; __seqc_i <= {k}; __seqc_i++) \
                     *__seqc_mem[__seqc_i] = __seqc_nondet_shared(); \
                     for (unsigned __seqc_i = 0; __seqc_i <= {k}; __seqc_i++) \
                     __seqc_guess[__seqc_i] = *__seqc_mem[__seqc_i];"
                );
            }
            Op::RoundCheck => {
                return format!(
                    "for (unsigned __seqc_i = 0; __seqc_i + 1 < {k}; __seqc_i++) \
                     {assume}(__seqc_consistent(__seqc_i));"
                );
            }
            _ => {}
        }
        match op {
            Op::AtomicBegin | Op::AtomicEnd => {
                self.uses_atomic_begin = true;
                let n = match (self.opts.dialect, op) {
                    (Dialect::Svcomp, Op::AtomicBegin) => "__VERIFIER_atomic_begin",
                    (Dialect::Svcomp, _) => "__VERIFIER_atomic_end",
                    (Dialect::Cbmc, Op::AtomicBegin) => "__CPROVER_atomic_begin",
                    (Dialect::Cbmc, _) => "__CPROVER_atomic_end",
                };
                format!("{n}();")
            }
            Op::LibNoop(n) => match dest {
                Some(d) => {
                    let d = self.top(d);
                    let v = self.nondet(&Ty::INT);
                    format!("{d} = {v}; /* {n}: no effect on the program's state */")
                }
                None => format!("/* {n}: no effect on the program's state */"),
            },
            Op::Fence => format!("__atomic_thread_fence({SC});"),
            Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicFetch(_)
            | Op::AtomicFetchThen(_) => {
                let mut a: Vec<String> = args.iter().map(|x| self.sub(x, P_ASSIGN)).collect();
                a.push(SC.into());
                self.with_dest(dest, format!("{}({})", op.c_name(), a.join(", ")))
            }
            Op::AtomicCompareExchange => {
                let mut a: Vec<String> = args.iter().map(|x| self.sub(x, P_ASSIGN)).collect();
                a.extend(["0".to_string(), SC.into(), SC.into()]);
                self.with_dest(dest, format!("{}({})", op.c_name(), a.join(", ")))
            }
            Op::Malloc | Op::Calloc | Op::Free | Op::Abort | Op::Exit => {
                self.includes.insert("stdlib.h");
                let c = self.call_text(op.c_name(), args);
                self.with_dest(dest, c)
            }
            Op::Memset | Op::Memcpy => {
                // A declaration, not string.h: the library models appended
                // to the output define strlen and friends themselves.
                self.includes
                    .insert(if op == Op::Memset { "memset" } else { "memcpy" });
                let c = self.call_text(op.c_name(), args);
                self.with_dest(dest, c)
            }
            _ => {
                self.includes.insert("pthread.h");
                let c = self.call_text(op.c_name(), args);
                self.with_dest(dest, c)
            }
        }
    }

    /// `if (!c) break;` at the head of a loop body: returns `c`.
    fn head_test(&mut self, body: &Block) -> Option<String> {
        let first = body.0.first()?;
        let StmtKind::If(nc, t, e) = &first.kind else {
            return None;
        };
        if !e.0.is_empty() || t.0.len() != 1 || t.0[0].kind != StmtKind::Break {
            return None;
        }
        Some(match &nc.kind {
            ExprKind::Unary(UnOp::LogNot, c) => self.top(c),
            _ => format!("!{}", self.sub(nc, P_UNARY)),
        })
    }

    fn loop_stmt(&mut self, loc: Loc, body: &Block, latch: &Block) {
        if self.opts.ir_mode {
            self.cont_labels.push(None);
            self.line(loc, "loop ");
            self.braced(body);
            self.cont_labels.pop();
            self.put(" latch ");
            return self.braced(latch);
        }
        let test = self.head_test(body);
        // The body without its exit test (borrowed: nested loops would
        // copy their bodies once per level).
        let rest = &body.0[test.is_some() as usize..];
        if latch.0.is_empty() {
            self.cont_labels.push(None);
            let head = match &test {
                Some(c) => format!("while ({c}) "),
                None => "while (1) ".into(),
            };
            self.line(loc, &head);
            self.braced_stmts(rest);
            self.cont_labels.pop();
            return;
        }
        if test.is_none()
            && let Some(c) = self.head_test(latch).filter(|_| latch.0.len() == 1)
        {
            self.cont_labels.push(None);
            self.line(loc, "do ");
            self.braced(body);
            let _ = write!(self.out, " while ({c});");
            self.cont_labels.pop();
            return;
        }
        let exprs: Option<Vec<String>> = latch
            .0
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Assign(a, b) => {
                    let a = self.top(a);
                    let b = self.sub(b, P_ASSIGN);
                    Some(format!("{a} = {b}"))
                }
                _ => None,
            })
            .collect();
        if let Some(exprs) = exprs {
            self.cont_labels.push(None);
            let c = test.clone().unwrap_or_default();
            let head = format!("for (; {c}; {}) ", exprs.join(", "));
            self.line(loc, &head.replace("for (; ;", "for (;;"));
            self.braced_stmts(rest);
            self.cont_labels.pop();
            return;
        }
        // General form: `continue` jumps to the latch through a label.
        let label = has_own_continue(body).then(|| {
            self.cont_count += 1;
            format!("__seqc_continue_{}", self.cont_count)
        });
        self.line(loc, "for (;;) ");
        self.nested(|e| {
            // The exit test stays in the body: this form has no loop head.
            e.cont_labels.push(label.clone());
            e.block(body);
            e.cont_labels.pop();
            e.newline();
            if let Some(l) = &label {
                let _ = write!(e.out, "{l}:;");
                e.newline();
            }
            e.block(latch);
        });
    }

    // ---- the program ----

    /// The composites a function's signature, locals and expressions
    /// reach, in first-use order, skipping those already `seen`.
    fn comps_of(p: &Program, f: &Function, seen: &mut [bool], order: &mut Vec<CompId>) {
        visit_comps(p, &f.sig.ret, seen, order);
        f.sig
            .params
            .iter()
            .for_each(|x| visit_comps(p, x, seen, order));
        for l in &f.locals {
            visit_comps(p, &l.ty, seen, order);
        }
        if let Some(b) = &f.body {
            b.walk(&mut |s| {
                s.each_expr(&mut |e| e.walk(&mut |x| visit_comps(p, &x.ty, seen, order)));
            });
        }
    }

    /// Struct definitions in an order where by-value members come first.
    fn comp_defs(&mut self, used: &[CompId]) -> String {
        let mut out = String::new();
        for c in used {
            let n = self.comp_name(*c);
            let _ = writeln!(out, "{n};");
        }
        let mut done = BTreeSet::new();
        fn by_value(t: &Ty, out: &mut Vec<CompId>) {
            match t {
                Ty::Array(t, _) | Ty::Atomic(t) => by_value(t, out),
                Ty::Comp(c) => out.push(*c),
                _ => {}
            }
        }
        fn emit_def(e: &mut Emitter, c: CompId, done: &mut BTreeSet<CompId>, out: &mut String) {
            if !done.insert(c) {
                return;
            }
            let def = e.p.comp(c).clone();
            let mut deps = Vec::new();
            for f in &def.fields {
                by_value(&f.ty, &mut deps);
            }
            for d in deps {
                emit_def(e, d, done, out);
            }
            if !def.complete {
                return;
            }
            let n = e.comp_name(c);
            let _ = writeln!(out, "{n} {{");
            // The layout attributes seqc models, so a checker lays the
            // type out as seqc does.
            let attrs = |packed: bool, align: u64| {
                let mut a = Vec::new();
                if packed {
                    a.push("packed".to_string());
                }
                if align > 0 {
                    a.push(format!("aligned({align})"));
                }
                if a.is_empty() {
                    String::new()
                } else {
                    format!(" __attribute__(({}))", a.join(", "))
                }
            };
            for f in &def.fields {
                let mut d = e.declare(&f.ty, &c_ident(&f.name));
                if let Some(w) = f.bit_width {
                    d = format!("{d} : {w}");
                }
                d.push_str(&attrs(f.packed, f.align));
                let _ = writeln!(out, "  {d};");
            }
            let _ = writeln!(out, "}}{};", attrs(def.packed, def.align));
        }
        for &c in used {
            emit_def(self, c, &mut done, &mut out);
        }
        out
    }

    /// Everything before the function definitions (marks unresolved),
    /// and the definitions as each thread printed them.
    fn program(&mut self) -> (String, Vec<(String, Vec<Def>)>) {
        let p = self.p;
        // Function bodies first: they also find the composites in use.
        let (bodies, body_comps) = self.bodies();
        let mut seen = vec![false; p.comps.len()];
        let mut used = Vec::new();
        for g in &p.globals {
            visit_comps(p, &g.ty, &mut seen, &mut used);
        }
        let mut from_bodies = body_comps.into_iter();
        for f in &p.functions {
            if f.body.is_some() {
                // Per function, in program order: the same first-use order
                // as one walk over everything.
                for c in from_bodies.next().unwrap_or_default() {
                    if !seen[c.0 as usize] {
                        seen[c.0 as usize] = true;
                        used.push(c);
                    }
                }
            } else {
                Self::comps_of(p, f, &mut seen, &mut used);
            }
        }
        let mut out = String::new();
        let comps = self.comp_defs(&used);
        if !comps.is_empty() {
            out.push_str(&comps);
            out.push('\n');
        }
        // Prototypes first, so initialisers and definitions may refer to
        // functions in any order.
        for f in &p.functions {
            let s = if f.is_static { "static " } else { "" };
            let d = self.declare(&Ty::Func(Box::new(f.sig.clone())), &c_ident(&f.name));
            let _ = writeln!(out, "{s}{d};");
        }
        if !p.functions.is_empty() {
            out.push('\n');
        }
        let copied =
            |gi: usize| !self.opts.ir_mode && p.rounds.as_ref().is_some_and(|r| r.copied[gi]);
        if let Some(r) = p.rounds.as_ref().filter(|_| !self.opts.ir_mode) {
            // Shared state: one struct, K round copies and a sink copy, each
            // its own object so that a wild index in one round (from a
            // guessed value) cannot write into another round's copy.
            let mut members = String::new();
            let mut inits = Vec::new();
            for (gi, g) in p.globals.iter().enumerate() {
                if !copied(gi) {
                    continue;
                }
                let n = c_ident(&g.name);
                let _ = writeln!(members, "  {};", self.declare(&g.ty, &n));
                if let Some(i) = &g.init {
                    let i = self.init(i, &g.ty);
                    inits.push(format!(".{n} = {i}"));
                }
            }
            let k = r.k;
            let _ = writeln!(out, "struct __seqc_shared {{\n{members}}};");
            let _ = writeln!(
                out,
                "static struct __seqc_shared __seqc_mem0 = {{ {} }};",
                inits.join(", ")
            );
            let mut table = vec!["&__seqc_mem0".to_string()];
            for i in 1..=k {
                let _ = writeln!(out, "static struct __seqc_shared __seqc_mem{i};");
                table.push(format!("&__seqc_mem{i}"));
            }
            // CBMC's resolution of calls through constant data follows a
            // const table into the round structs and finds no target for a
            // function pointer stored there (the call becomes assume(false)
            // and hides every run through it), so the table is const only
            // when no function's address is taken.
            let qual = if self.p.address_taken_functions().is_empty() {
                "const "
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "static struct __seqc_shared *{qual}__seqc_mem[{}] = {{ {} }};",
                k + 1,
                table.join(", ")
            );
            let _ = writeln!(out, "static struct __seqc_shared __seqc_guess[{}];", k + 1);
            let _ = writeln!(
                out,
                "extern struct __seqc_shared __seqc_nondet_shared(void);"
            );
            out.push_str(&self.consistency_fn());
        }
        for (gi, g) in p.globals.iter().enumerate() {
            if copied(gi) {
                continue;
            }
            let mut d = String::new();
            if g.storage == Storage::Extern {
                d.push_str("extern ");
            } else if g.storage == Storage::Static {
                d.push_str("static ");
            }
            if g.thread_local {
                d.push_str("_Thread_local ");
            }
            d.push_str(&self.declare(&g.ty, &c_ident(&g.name)));
            if let Some(i) = &g.init {
                let i = self.init(i, &g.ty);
                let _ = write!(d, " = {i}");
            }
            let _ = writeln!(out, "{}{d};", self.mark(g.loc));
        }
        if !p.globals.is_empty() {
            out.push('\n');
        }
        (out, bodies)
    }

    /// The text of every function definition, and per defined function
    /// the composites it uses. Function bodies are independent: large
    /// programs print them on several threads, each with its own emitter,
    /// and merge what the emitters collected (sorted sets, so the bytes
    /// do not change). Each thread also turns its marks into directives,
    /// per definition, as if nothing came before it (`emit` fixes the
    /// first directive of each).
    #[allow(clippy::type_complexity)]
    fn bodies(&mut self) -> (Vec<(String, Vec<Def>)>, Vec<Vec<CompId>>) {
        let p = self.p;
        let opts = self.opts;
        let mut defined: Vec<&'p Function> =
            p.functions.iter().filter(|f| f.body.is_some()).collect();
        // Per chunk: its emitter, text, definitions, composites seen and
        // their order, and a buffer for one unresolved definition.
        let parts = crate::par::each_with(
            &mut defined,
            usize::MAX,
            || {
                let seen = vec![false; p.comps.len()];
                let e = Emitter::new(p, opts);
                (
                    e,
                    String::new(),
                    Vec::new(),
                    seen,
                    Vec::new(),
                    String::new(),
                )
            },
            |(e, out, defs, seen, comps, one), f| {
                let start = out.len();
                one.clear();
                e.function(f, one);
                let mut cur = None;
                let lead = e.resolve_lines(one, out, &mut cur);
                let lines = match lead {
                    Some(_) => 0,
                    None => out[start..].bytes().filter(|&c| c == b'\n').count(),
                };
                defs.push(Def {
                    text: start..out.len(),
                    lead,
                    end: cur,
                    lines,
                });
                let mut order = Vec::new();
                Self::comps_of(p, f, seen, &mut order);
                comps.push(order);
            },
        );
        let mut out = Vec::new();
        let mut comps = Vec::new();
        for (e, text, defs, _, c, _) in parts {
            out.push((text, defs));
            comps.extend(c);
            self.helpers.extend(e.helpers);
            self.nondets.extend(e.nondets);
            self.includes.extend(e.includes);
            self.uses_atomic_begin |= e.uses_atomic_begin;
        }
        (out, comps)
    }

    /// One function definition.
    fn function(&mut self, f: &'p Function, out: &mut String) {
        let Some(body) = &f.body else { return };
        self.func = Some(f);
        self.cont_count = 0;
        let s = if f.is_static { "static " } else { "" };
        let params: Vec<String> = f
            .params
            .iter()
            .map(|v| {
                let l = f.local(*v);
                self.declare(&l.ty, &c_ident(&l.name))
            })
            .collect();
        let mut sig = f.sig.clone();
        sig.params.clear();
        let ps = if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        };
        let ps = if f.sig.variadic {
            format!("{ps}, ...")
        } else {
            ps
        };
        let head = self.declare(&sig.ret, &format!("{}({ps})", c_ident(&f.name)));
        let _ = write!(out, "\n{}{s}{head}\n", self.mark(f.loc));
        // Write the body straight into `out`.
        std::mem::swap(&mut self.out, out);
        self.indent = 0;
        self.braced(body);
        std::mem::swap(&mut self.out, out);
        out.push('\n');
    }

    /// Appends `s` to `out` with its marks turned into `#line`
    /// directives, one where the mapped line would otherwise be wrong;
    /// `cur` is where the next line maps to, before and after. Marked
    /// lines are a minority: the lines between two marks are copied in
    /// one piece and only counted. Returns the first directive written
    /// when `s` starts unmapped and has marks.
    fn resolve_lines(&self, s: &str, out: &mut String, cur: &mut LineAt) -> Option<Lead> {
        let mut lead = None;
        let mut lines = 0;
        // Each file's quoted path, made once: a file has many marks.
        let mut paths: Vec<Option<String>> = vec![None; self.p.files.len()];
        let mut pos = 0;
        while pos < s.len() {
            let Some(i) = s[pos..].find(MARK) else {
                let rest = &s[pos..];
                out.push_str(rest);
                advance(cur, rest.bytes().filter(|&c| c == b'\n').count());
                return lead;
            };
            let m = pos + i;
            let start = s[pos..m].rfind('\n').map_or(pos, |j| pos + j + 1);
            let end = s[m..].find('\n').map_or(s.len(), |j| m + j);
            let before = &s[pos..start];
            out.push_str(before);
            let n_before = before.bytes().filter(|&c| c == b'\n').count();
            advance(cur, n_before);
            lines += n_before;
            let line = &s[start..end];
            let a = m - start;
            match line[a + 1..].find(MARK) {
                Some(b) => {
                    let mk = &line[a + 1..a + 1 + b];
                    let (f, n) = mk.split_once(' ').unwrap();
                    let (f, n): (u32, u32) = (f.parse().unwrap(), n.parse().unwrap());
                    if *cur != Some((f, n)) {
                        let at = out.len();
                        out.push_str("#line ");
                        push_decimal(out, n as u128);
                        out.push(' ');
                        match paths.get_mut(f as usize) {
                            Some(q) => out.push_str(q.get_or_insert_with(|| {
                                format!("\"{}\"", escape_path(self.p.file_name(FileId(f))))
                            })),
                            None => {
                                let path = escape_path(self.p.file_name(FileId(f)));
                                let _ = write!(out, "\"{path}\"");
                            }
                        }
                        out.push('\n');
                        if lead.is_none() && cur.is_none() {
                            lead = Some(Lead {
                                lines_before: lines,
                                to: (f, n),
                                directive: at..out.len(),
                            });
                        }
                    }
                    *cur = Some((f, n));
                    out.push_str(&line[..a]);
                    // A line holds one directive: later marks on it (an
                    // `else if` after an empty block) are dropped.
                    let rest = &line[a + 2 + b..];
                    if rest.contains(MARK) {
                        let mut parts = rest.split(MARK);
                        out.push_str(parts.next().unwrap_or(""));
                        for (i, piece) in parts.enumerate() {
                            if i % 2 == 1 {
                                out.push_str(piece);
                            }
                        }
                    } else {
                        out.push_str(rest);
                    }
                }
                None => out.push_str(line),
            }
            out.push('\n');
            advance(cur, 1);
            lines += 1;
            pos = end + 1;
        }
        lead
    }
}

/// `v` in decimal. `i128`'s formatting divides in 128 bits, and integer
/// literals are everywhere in the output.
fn push_decimal(out: &mut String, v: u128) {
    let Ok(mut x) = u64::try_from(v) else {
        let _ = write!(out, "{v}");
        return;
    };
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap());
}

/// The mark of a user statement's location, resolved into `#line` later;
/// generated code has none.
fn put_mark(out: &mut String, loc: Loc) {
    if !loc.generated && loc.line != 0 {
        let _ = write!(out, "{MARK}{} {}{MARK}", loc.file.0, loc.line);
    }
}

/// Tags the headers the output includes may define: reserved identifiers
/// and the public structs of pthread.h, stdlib.h and string.h.
fn reserved_tag(t: &str) -> bool {
    let b = t.as_bytes();
    (b.len() > 1 && b[0] == b'_' && (b[1] == b'_' || b[1].is_ascii_uppercase()))
        || matches!(
            t,
            "timespec"
                | "timeval"
                | "tm"
                | "itimerspec"
                | "sigevent"
                | "sched_param"
                | "random_data"
                | "drand48_data"
        )
}

/// Whether a loop body has a `continue` of its own (not of a nested loop).
fn has_own_continue(b: &Block) -> bool {
    b.0.iter().any(|s| match &s.kind {
        StmtKind::Continue => true,
        StmtKind::If(_, x, y) => has_own_continue(x) || has_own_continue(y),
        StmtKind::Switch(_, x) | StmtKind::Block(x) => has_own_continue(x),
        _ => false,
    })
}

/// A path inside a `#line` string literal: C's escapes for `\\`, `"`,
/// a newline (gcc and seqc's source map read `\\n` back as one) and `?`
/// (trigraphs), octal for other control characters; other text as is,
/// so an ordinary path is unchanged.
fn escape_path(p: &str) -> String {
    let mut s = String::with_capacity(p.len());
    for c in p.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '"' => s.push_str("\\\""),
            '\n' => s.push_str("\\n"),
            '?' => s.push_str("\\?"),
            c if c.is_ascii_control() => {
                let _ = write!(s, "\\{:03o}", c as u8);
            }
            c => s.push(c),
        }
    }
    s
}

/// User text inside the header's block comment: `*/` would close it and
/// turn the rest of a path into code.
fn comment_text(t: &str) -> String {
    t.replace("*/", "*\\/")
}

/// A C string literal for bytes ending in NUL (the NUL is implicit).
pub fn c_string(b: &[u8]) -> String {
    let body = if b.last() == Some(&0) {
        &b[..b.len() - 1]
    } else {
        b
    };
    let mut s = String::from("\"");
    for &c in body {
        match c {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            b'?' => s.push_str("\\?"),
            // Octal escapes are at most three digits, so any character may follow.
            0x20..=0x7e => s.push(c as char),
            _ => {
                let _ = write!(s, "\\{:03o}", c);
            }
        }
    }
    s.push('"');
    s
}

/// How deep a checker must nest the functions the transformation bounds
/// (`Program::frame_limits`), in CBMC's terms: one frame fewer.
fn checker_note(p: &Program) -> String {
    p.frame_limits
        .iter()
        .map(|&(f, n)| {
            format!(
                "\n   No path nests {name} more than {n} deep: with CBMC,\n   --unwindset {name}:{m} keeps the unfolding to that.",
                name = p.func(f).name,
                m = n.saturating_sub(1)
            )
        })
        .collect()
}
