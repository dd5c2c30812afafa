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
//!
//! The printer's jobs, one file each: `types.rs` (names, declarators,
//! composite tags), `expr.rs` (expressions with the precedence table, the
//! UB helpers' use, initialisers), `stmt.rs` (statements, loops, the
//! concurrency API's spellings) and `text.rs` (escaping of literals, paths
//! and comments). This file assembles the program and resolves the
//! statement marks into `#line` directives.

mod expr;
mod stmt;
mod text;
mod types;

use expr::*;
use text::*;
pub use text::{c_ident, c_string, input_fn_name, sequential_fn_name};

use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

const PRELUDE: &str = include_str!("../../../templates/prelude.c");
const UB_HELPERS: &str = include_str!("../../../templates/ub_helpers.c");

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
/// An "include" that defines _POSIX_C_SOURCE first (it sorts before the
/// headers): read-write locks, spinlocks and barriers are POSIX 2001, which
/// glibc hides from strict C11 without it.
pub(super) const POSIX_SOURCE: &str = "_POSIX_C_SOURCE";

pub fn emit(p: &Program, opts: &COptions) -> String {
    // Under Lal-Reps only globals whose address is taken need the
    // byte-addressed shared struct, where a pointer moves to another
    // round by its byte offset; the rest are read and written by name in
    // a struct of their own. CBMC flattens a load at a symbolic byte
    // offset into a choice over every byte of the struct (its cost grows
    // linearly with the struct), while a field read by name is one
    // choice among the round copies.
    let addressed = if p.rounds.is_some() {
        crate::ir::access::addressed_globals(p)
    } else {
        vec![false; p.globals.len()]
    };
    let mut e = Emitter::new(p, opts, &addressed);
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
            "memmove" => "void *memmove(void *, const void *, __SIZE_TYPE__);\n".to_string(),
            POSIX_SOURCE => "#define _POSIX_C_SOURCE 200809L\n".to_string(),
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

struct Emitter<'p> {
    p: &'p Program,
    opts: &'p COptions,
    /// helper name → (type, unsigned type, bits, signed, nondet call).
    helpers: BTreeMap<String, (String, String, u32, bool, String)>,
    nondets: BTreeSet<(String, String)>,
    includes: BTreeSet<&'static str>,
    uses_atomic_begin: bool,
    /// The program runs one thread (no thread operation is left): atomic
    /// functions are renamed and atomic sections dropped, as they mean
    /// nothing to a sequential checker (`sequential_fn_name`).
    sequential: bool,
    /// For each enclosing loop: the label `continue` must jump to, if any.
    cont_labels: Vec<Option<String>>,
    cont_count: u32,
    /// Counted loops labelled so far in this function (`ir::loops`).
    counted: u32,
    func: Option<&'p Function>,
    /// Printing an lvalue whose address is taken (Lal-Reps: copy 0).
    addr_mode: bool,
    /// Per global: its address is taken somewhere (`ir::access`).
    addressed: &'p [bool],
    /// The current function's locals that live on the heap
    /// (`Program::kept_frames`): each name stands for `*__seqc_c_NAME`.
    cells: std::collections::HashSet<LocalId>,
    /// The statement text being written, and its indentation.
    out: String,
    indent: usize,
}

impl<'p> Emitter<'p> {
    /// How function `f` is called in the output.
    fn fn_name(&self, f: &'p Function) -> std::borrow::Cow<'p, str> {
        if self.sequential {
            sequential_fn_name(&f.name)
        } else {
            c_ident(&f.name)
        }
    }

    fn new(p: &'p Program, opts: &'p COptions, addressed: &'p [bool]) -> Emitter<'p> {
        Emitter {
            addressed,
            p,
            opts,
            helpers: BTreeMap::new(),
            nondets: BTreeSet::new(),
            includes: BTreeSet::new(),
            uses_atomic_begin: false,
            sequential: !opts.ir_mode && crate::ir::thread_op(p).is_none(),
            cont_labels: Vec::new(),
            cont_count: 0,
            counted: 0,
            func: None,
            addr_mode: false,
            cells: Default::default(),
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
    let mut e = Emitter::new(p, &opts, &[]);
    let (before, defs) = e.program();
    let mut out = format!("// seqc IR, data model {:?}\n{before}", p.data_model);
    // The IR has no marks: each thread's text is the definitions as printed.
    defs.iter().for_each(|(t, _)| out.push_str(t));
    out
}

impl<'p> Emitter<'p> {
    // ---- the program ----

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
            // i386 puts `long long` and `double` members on 4-byte
            // boundaries (as seqc's layout does); CBMC's --32 puts them on
            // 8: the member says 4.
            let ilp32 = e.p.data_model == DataModel::Ilp32;
            let bit_fields =
                def.kind == CompKind::Struct && def.fields.iter().any(|f| f.bit_width.is_some());
            let gaps = if bit_fields && !def.packed {
                e.p.bit_field_gaps(c)
            } else {
                vec![]
            };
            for (i, f) in def.fields.iter().enumerate() {
                // gcc starts a bit-field that would straddle a unit of its
                // type in the next unit; CBMC packs it right after the
                // field before. Unnamed bytes fill such a gap, in pieces
                // that straddle no byte, so both place the field alike.
                if let Some(&(from, to)) = gaps.get(i) {
                    let mut at = from;
                    while at < to {
                        let w = (8 - at % 8).min(to - at);
                        let _ = writeln!(out, "  unsigned char : {w};");
                        at += w;
                    }
                }
                let mut d = e.declare(&f.ty, &field_ident(f, i));
                if let Some(w) = f.bit_width {
                    d = format!("{d} : {w}");
                }
                let eight = matches!(
                    crate::ir::regions::elem_scalar(&f.ty).unqual(),
                    Ty::Int(IntKind::LongLong | IntKind::ULongLong) | Ty::Float(FloatKind::Double)
                );
                // An atomic one is 8-aligned in both (gcc aligns atomics
                // to their size).
                if ilp32
                    && eight
                    && e.p.align_of(&f.ty) == Some(4)
                    && f.bit_width.is_none()
                    && !f.packed
                    && !def.packed
                    && f.align < 8
                {
                    d.push_str(&attrs(true, f.align.max(4)));
                } else {
                    d.push_str(&attrs(f.packed, f.align));
                }
                let _ = writeln!(out, "  {d};");
            }
            let _ = writeln!(out, "}}{};", attrs(def.packed, def.align));
            if bit_fields && let Some(size) = e.p.size_of(&Ty::Comp(c)) {
                // A checker that lays the bits out otherwise stops here.
                let _ = writeln!(
                    out,
                    "_Static_assert(sizeof({n}) == {size}, \"gcc's layout of {n}\");"
                );
            }
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
            p.visit_comps(&g.ty, &mut seen, &mut used);
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
                p.comps_of(f, &mut seen, &mut used);
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
            let d = self.declare(&Ty::Func(Box::new(f.sig.clone())), &self.fn_name(f));
            let _ = writeln!(out, "{s}{d};");
        }
        if !p.functions.is_empty() {
            out.push('\n');
        }
        let copied =
            |gi: usize| !self.opts.ir_mode && p.rounds.as_ref().is_some_and(|r| r.copied[gi]);
        // A global that an initialiser printed before its definition names
        // is declared first: a file-scope compound literal is made after
        // the object whose initialiser takes its address, and the round
        // structs come before every global left out of them.
        let mut ahead = vec![false; p.globals.len()];
        for (gi, g) in p.globals.iter().enumerate() {
            let Some(init) = &g.init else { continue };
            init.each_expr(&mut |e| {
                e.walk(&mut |x| {
                    if let ExprKind::Global(h) = x.kind
                        && !copied(h.index())
                        && (h.index() > gi || copied(gi))
                    {
                        ahead[h.index()] = true;
                    }
                })
            });
        }
        for (gi, g) in p.globals.iter().enumerate() {
            if ahead[gi] {
                let _ = writeln!(out, "{};", self.global_head(g));
            }
        }
        if let Some(r) = p.rounds.as_ref().filter(|_| !self.opts.ir_mode) {
            // Shared state: two structs, each with K round copies and a
            // sink copy, each copy its own object so that a wild index in
            // one round (from a guessed value) cannot write into another
            // round's copy. Globals whose address is taken live in
            // `__seqc_shared` (pointers into copy 0, moved to the running
            // round by their byte offset); the rest in `__seqc_named`.
            let k = r.k;
            // CBMC's resolution of calls through constant data follows a
            // const table into the round structs and finds no target for a
            // function pointer stored there (the call becomes assume(false)
            // and hides every run through it), so the tables are const only
            // when no function's address is taken.
            let qual = if self.p.address_taken_functions().is_empty() {
                "const "
            } else {
                ""
            };
            for (tag, mem, guess, nondet, want) in [
                ("shared", "mem", "guess", "shared", true),
                ("named", "nmem", "nguess", "named", false),
            ] {
                let mut members = String::new();
                let mut inits = Vec::new();
                for (gi, g) in p.globals.iter().enumerate() {
                    if !copied(gi) || self.addressed[gi] != want {
                        continue;
                    }
                    let n = c_ident(&g.name);
                    let _ = writeln!(members, "  {};", self.declare(&g.ty, &n));
                    if let Some(i) = &g.init {
                        let i = self.init(i, &g.ty);
                        inits.push(format!(".{n} = {i}"));
                    }
                }
                if members.is_empty() {
                    // C has no empty struct.
                    members.push_str("  char __seqc_unused;\n");
                }
                let _ = writeln!(out, "struct __seqc_{tag} {{\n{members}}};");
                let _ = writeln!(
                    out,
                    "static struct __seqc_{tag} __seqc_{mem}0 = {{ {} }};",
                    inits.join(", ")
                );
                let mut table = vec![format!("&__seqc_{mem}0")];
                for i in 1..=k {
                    let _ = writeln!(out, "static struct __seqc_{tag} __seqc_{mem}{i};");
                    table.push(format!("&__seqc_{mem}{i}"));
                }
                let _ = writeln!(
                    out,
                    "static struct __seqc_{tag} *{qual}__seqc_{mem}[{}] = {{ {} }};",
                    k + 1,
                    table.join(", ")
                );
                let _ = writeln!(out, "static struct __seqc_{tag} __seqc_{guess}[{}];", k + 1);
                let _ = writeln!(
                    out,
                    "extern struct __seqc_{tag} __seqc_nondet_{nondet}(void);"
                );
            }
            out.push_str(&self.consistency_fn());
        }
        for (gi, g) in p.globals.iter().enumerate() {
            if copied(gi) {
                continue;
            }
            let mut d = self.global_head(g);
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

    /// A global's declaration without its initialiser (storage, type, name).
    fn global_head(&mut self, g: &Global) -> String {
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
        d
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
                let e = Emitter::new(p, opts, self.addressed);
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
                p.comps_of(f, seen, &mut order);
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
        self.counted = 0;
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
        let head = self.declare(&sig.ret, &format!("{}({ps})", self.fn_name(f)));
        let _ = write!(out, "\n{}{s}{head}\n", self.mark(f.loc));
        self.cells = if self.p.kept_frames && !self.opts.ir_mode {
            crate::ir::access::escaping_in(body)
        } else {
            Default::default()
        };
        // Write the body straight into `out`: first the heap cells, in
        // local order: a parameter's holds its value, another local's is
        // the one a `goto` past its declaration finds. Then the body.
        let mut cells: Vec<LocalId> = self.cells.iter().copied().collect();
        cells.sort();
        std::mem::swap(&mut self.out, out);
        self.indent = 0;
        if cells.is_empty() {
            self.braced(body);
        } else {
            self.nested(|e| {
                for v in cells {
                    let t = e.cell_copy(v, f.params.contains(&v), true);
                    e.line(f.loc, &t);
                    e.newline();
                }
                e.stmts(&body.0);
            });
        }
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
                                format!(
                                    "\"{}\"",
                                    crate::ir::path_literal(self.p.file_name(FileId(f)))
                                )
                            })),
                            None => {
                                let path = crate::ir::path_literal(self.p.file_name(FileId(f)));
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
