//! Statements, one per line with their `#line` marks: loops with their
//! latches, `continue` labels, and the concurrency API in the chosen dialect.

use super::*;
use crate::ir::errno::EBUSY;

impl<'p> Emitter<'p> {
    // ---- statements ----

    pub(super) fn mark(&self, loc: Loc) -> String {
        let mut m = String::new();
        if !self.opts.ir_mode {
            put_mark(&mut m, loc);
        }
        m
    }

    pub(super) fn put(&mut self, t: &str) {
        self.out.push_str(t);
    }

    /// A line break; the next line starts at the current indentation,
    /// up to 256 columns: deeper blocks start there too, since the text
    /// grows with the square of the nesting (50,000 nested `if`s printed
    /// 5 GB of spaces).
    pub(super) fn newline(&mut self) {
        self.out.push('\n');
        const SPACES: &str = "                                                                ";
        let mut n = self.indent.min(256);
        while n > 0 {
            let k = n.min(SPACES.len());
            self.out.push_str(&SPACES[..k]);
            n -= k;
        }
    }

    pub(super) fn block(&mut self, b: &Block) {
        self.stmts(&b.0)
    }

    pub(super) fn stmts(&mut self, ss: &[Stmt]) {
        for (i, s) in ss.iter().enumerate() {
            if i > 0 {
                self.newline();
            }
            self.stmt(s);
        }
    }

    pub(super) fn braced(&mut self, b: &Block) {
        self.braced_stmts(&b.0)
    }

    pub(super) fn braced_stmts(&mut self, ss: &[Stmt]) {
        if ss.is_empty() {
            return self.put("{ }");
        }
        self.nested(|e| e.stmts(ss));
    }

    /// `{`, what `inner` writes two spaces further in, `}`.
    pub(super) fn nested(&mut self, inner: impl FnOnce(&mut Self)) {
        self.put("{");
        self.indent += 2;
        self.newline();
        inner(self);
        self.indent -= 2;
        self.newline();
        self.put("}");
    }

    /// Writes one statement's text with its location.
    pub(super) fn line(&mut self, loc: Loc, s: &str) {
        self.line_start(loc);
        self.put(s);
        self.line_end(loc);
    }

    /// Before a statement's text: its mark (C output).
    pub(super) fn line_start(&mut self, loc: Loc) {
        if !self.opts.ir_mode {
            put_mark(&mut self.out, loc);
        }
    }

    /// After a statement's text: its location (IR output).
    pub(super) fn line_end(&mut self, loc: Loc) {
        if self.opts.ir_mode {
            let g = if loc.generated { "gen " } else { "" };
            let _ = write!(self.out, " /* {g}@{}:{} */", loc.line, loc.col);
        }
    }

    pub(super) fn call_text(&mut self, name: &str, args: &[Expr]) -> String {
        let a: Vec<String> = args.iter().map(|x| self.sub(x, P_ASSIGN)).collect();
        format!("{name}({})", a.join(", "))
    }

    pub(super) fn with_dest(&mut self, dest: &Option<Expr>, call: String) -> String {
        match dest {
            Some(d) => {
                let d = self.top(d);
                format!("{d} = {call};")
            }
            None => format!("{call};"),
        }
    }

    /// A new heap cell for local `v` (`Program::kept_frames`), holding
    /// the value of the plain `v` (when it has one; a new heap object
    /// holds any value, as an uninitialised local does): a fresh object
    /// per declaration, as C makes one per entry into its block. `declare`:
    /// the cell pointer is declared here (a parameter's, or each local's
    /// first cell at the function's entry, which a `goto` past the
    /// declaration finds); else it is assigned.
    pub(super) fn cell_copy(&mut self, v: LocalId, has_value: bool, declare: bool) -> String {
        let local = self.func.unwrap().local(v);
        let name = c_ident(&local.name);
        let ty = local.ty.clone();
        let ptr = Ty::Ptr(Box::new(ty.clone()));
        let cell = if declare {
            self.declare(&ptr, &format!("__seqc_c_{name}"))
        } else {
            format!("__seqc_c_{name}")
        };
        let cast = self.type_name(&ptr);
        let size = self.type_name(&ty);
        self.includes.insert("stdlib.h");
        let copy = if !has_value {
            String::new()
        } else if matches!(ty, Ty::Array(..)) {
            self.includes.insert("memmove");
            format!("memmove(__seqc_c_{name}, {name}, sizeof({size}));")
        } else {
            format!("*__seqc_c_{name} = {name};")
        };
        let alloc = format!("{cell} = ({cast})malloc(sizeof({size}));");
        if copy.is_empty() {
            alloc
        } else {
            format!("{alloc} {copy}")
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt) {
        let loc = s.loc;
        match &s.kind {
            StmtKind::Decl(v, init) => {
                let local = self.func.unwrap().local(*v);
                let d = self.declare(&local.ty, &c_ident(&local.name));
                let mut t = match init {
                    Some(i) => {
                        let i = self.init(i, &local.ty);
                        format!("{d} = {i};")
                    }
                    None => format!("{d};"),
                };
                if self.cells.contains(v) {
                    t.push(' ');
                    t.push_str(&self.cell_copy(*v, init.is_some(), false));
                }
                self.line(loc, &t)
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
            StmtKind::Loop { body, latch, trips } => {
                if let Some(n) = trips {
                    // A checker's unwinding bound for this loop must be
                    // its trip count: the label names it for CBMC's
                    // `--unwindset F.label:N` (`crate::ir::loops::labels`).
                    let l = crate::ir::loops::label(self.counted, *n);
                    self.counted += 1;
                    self.line(loc, &format!("{l}:"));
                }
                self.loop_stmt(loc, body, latch)
            }
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
                    AssertKind::Deadlock => {
                        let c = self.top(c);
                        self.line(loc, &format!("assert({c}); /* no deadlock */"))
                    }
                    k @ (AssertKind::Lock(_)
                    | AssertKind::Overflow
                    | AssertKind::InvalidDeref
                    | AssertKind::InvalidFree
                    | AssertKind::MemTrack) => {
                        let c = self.top(c);
                        self.line(loc, &format!("assert({c}); /* {} */", k.what()))
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

    /// `__seqc_consistent(i)`: assumes copy i at the end equals guess
    /// i+1, leaf by leaf. Straight-line assumptions, not an early return
    /// per leaf: CBMC merges the states of every return at the function's
    /// end, which cost it 126k steps and a minute of symbolic execution on
    /// a 1700-leaf state. A floating-point leaf and a union are compared
    /// byte by byte: `==` holds for no NaN and for +0.0 against -0.0, so
    /// it cut every run with a NaN at a round's end (a false SAFE) and let
    /// a -0.0 continue as +0.0; a union's first member may not cover it.
    /// The guess is free, so equal bytes cut no run.
    pub(super) fn consistency_fn(&mut self) -> String {
        let p = self.p;
        let mut body = String::new();
        /// How a leaf is compared: by `==`, as a float's bits, or bytes.
        enum Cmp {
            Value,
            Float(&'static str, &'static str),
            Bytes(u64),
        }
        fn leaves(p: &Program, ty: &Ty, path: String, out: &mut Vec<(String, Cmp)>) {
            match ty.unqual() {
                Ty::Array(t, Some(n)) => {
                    for i in 0..*n {
                        leaves(p, t, format!("{path}[{i}]"), out);
                    }
                }
                // A union by its bytes; a struct with bit-fields too: the
                // bits between them (the C output names them, unnamed)
                // are read through a `char *` as the oracle keeps them.
                Ty::Comp(c)
                    if p.comp(*c).kind == CompKind::Union
                        || p.comp(*c).fields.iter().any(|f| f.bit_width.is_some()) =>
                {
                    let n = p.size_of(ty).expect("a global's union has a size");
                    out.push((path, Cmp::Bytes(n)));
                }
                Ty::Comp(c) => {
                    for (i, f) in p.comp(*c).fields.iter().enumerate() {
                        if f.name.is_empty() && f.bit_width.is_some() {
                            continue;
                        }
                        leaves(p, &f.ty, format!("{path}.{}", field_ident(f, i)), out);
                    }
                }
                // The bits are read through a union (gcc defines such
                // punning; a cast pointer would break strict aliasing).
                Ty::Float(FloatKind::Float) => {
                    out.push((path, Cmp::Float("float", "unsigned int")))
                }
                Ty::Float(_) => out.push((path, Cmp::Float("double", "unsigned long long"))),
                _ => out.push((path, Cmp::Value)),
            }
        }
        let assume = self.assume_name();
        for (gi, g) in p.globals.iter().enumerate() {
            if !p.rounds.as_ref().is_some_and(|r| r.copied[gi]) {
                continue;
            }
            let (mem, guess) = if self.addressed[gi] {
                ("mem", "guess")
            } else {
                ("nmem", "nguess")
            };
            let mut ls = Vec::new();
            leaves(p, &g.ty, c_ident(&g.name).into_owned(), &mut ls);
            for (l, how) in ls {
                let (x, y) = (
                    format!("__seqc_{mem}[i]->{l}"),
                    format!("__seqc_{guess}[i + 1].{l}"),
                );
                match how {
                    Cmp::Value => {
                        let _ = writeln!(body, "  {assume}({x} == {y});");
                    }
                    Cmp::Float(f, w) => {
                        let bits =
                            |v: &str| format!("((union {{ {f} f; {w} w; }}){{ .f = {v} }}).w");
                        let _ = writeln!(body, "  {assume}({} == {});", bits(&x), bits(&y));
                    }
                    Cmp::Bytes(n) => {
                        for b in 0..n {
                            let _ = writeln!(
                                body,
                                "  {assume}(((unsigned char *)&{x})[{b}] == ((unsigned char *)&{y})[{b}]);"
                            );
                        }
                    }
                }
            }
        }
        format!("static void __seqc_consistent(unsigned i)\n{{\n{body}}}\n")
    }

    fn assume_name(&self) -> &'static str {
        match self.opts.dialect {
            Dialect::Svcomp => "__VERIFIER_assume",
            Dialect::Cbmc => "__CPROVER_assume",
        }
    }

    pub(super) fn op(&mut self, op: Op, dest: &Option<Expr>, args: &[Expr]) -> String {
        const SC: &str = "__ATOMIC_SEQ_CST";
        if self.opts.ir_mode {
            let c = self.call_text(&format!("op.{}", op.c_name()), args);
            return self.with_dest(dest, c);
        }
        let k = self.p.rounds.as_ref().map(|r| r.k).unwrap_or(1);
        match op {
            Op::RoundInit => {
                return format!(
                    "for (unsigned __seqc_i = 1; __seqc_i <= {k}; __seqc_i++) {{ \
                     *__seqc_mem[__seqc_i] = __seqc_nondet_shared(); \
                     *__seqc_nmem[__seqc_i] = __seqc_nondet_named(); }} \
                     for (unsigned __seqc_i = 0; __seqc_i <= {k}; __seqc_i++) {{ \
                     __seqc_guess[__seqc_i] = *__seqc_mem[__seqc_i]; \
                     __seqc_nguess[__seqc_i] = *__seqc_nmem[__seqc_i]; }}"
                );
            }
            Op::RoundCheck => {
                return format!(
                    "for (unsigned __seqc_i = 0; __seqc_i + 1 < {k}; __seqc_i++) \
                     __seqc_consistent(__seqc_i);"
                );
            }
            _ => {}
        }
        match op {
            Op::AtomicBegin | Op::AtomicEnd if self.sequential => {
                "/* one thread: no atomic section */".to_string()
            }
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
            // The attribute calls seqc models return 0 and change nothing
            // it models; a checker without a body for them (CBMC has none
            // for the barrier, rwlock and cond attributes) would make up a
            // result the oracle never gives.
            Op::AttrNoop(n) => match dest {
                Some(d) => {
                    let d = self.top(d);
                    format!("{d} = 0; /* {n} */")
                }
                None => format!("/* {n} */"),
            },
            // Only `--method none` gets here (the thread model expands it
            // elsewhere). glibc returns EBUSY for a held mutex, where
            // CBMC's own model fails an assertion of its library.
            Op::MutexDestroy => {
                let m = self.sub(&args[0], P_ASSIGN);
                match dest {
                    Some(d) => {
                        let d = self.top(d);
                        format!(
                            "{d} = pthread_mutex_trylock({m}) ? {EBUSY} : (pthread_mutex_unlock({m}), 0); /* pthread_mutex_destroy */"
                        )
                    }
                    None => "/* pthread_mutex_destroy */".into(),
                }
            }
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
                // to the output define strlen and friends themselves. A
                // copy is memmove, whose meaning memcpy's allows: the input
                // may have said either, and ranges that overlap copy right.
                let name = if op == Op::Memset {
                    "memset"
                } else {
                    "memmove"
                };
                self.includes.insert(name);
                let c = self.call_text(name, args);
                self.with_dest(dest, c)
            }
            _ => {
                self.includes.insert(match op {
                    Op::Word(w) if w.object() == PthreadTy::Sem => "semaphore.h",
                    _ => "pthread.h",
                });
                if let Op::Word(w) = op
                    && w.object().posix_2001()
                {
                    self.includes.insert(super::POSIX_SOURCE);
                }
                let c = self.call_text(op.c_name(), args);
                self.with_dest(dest, c)
            }
        }
    }

    /// `if (!c) break;` at the head of a loop body: returns `c`.
    pub(super) fn head_test(&mut self, body: &Block) -> Option<String> {
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

    pub(super) fn loop_stmt(&mut self, loc: Loc, body: &Block, latch: &Block) {
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
        // The exit test is the loop's head, as in the forms above: CBMC
        // finds a counted loop's label (`--unwindset`) only on a loop
        // whose first instruction is its head.
        let head = match &test {
            Some(c) => format!("for (; {c}; ) "),
            None => "for (;;) ".into(),
        };
        self.line(loc, &head);
        self.nested(|e| {
            e.cont_labels.push(label.clone());
            e.stmts(rest);
            e.cont_labels.pop();
            if !rest.is_empty() {
                e.newline();
            }
            if let Some(l) = &label {
                let _ = write!(e.out, "{l}:;");
                e.newline();
            }
            e.block(latch);
        });
    }
}

/// Whether a loop body has a `continue` of its own (not of a nested loop).
pub(super) fn has_own_continue(b: &Block) -> bool {
    b.0.iter().any(|s| match &s.kind {
        StmtKind::Continue => true,
        StmtKind::If(_, x, y) => has_own_continue(x) || has_own_continue(y),
        StmtKind::Switch(_, x) | StmtKind::Block(x) => has_own_continue(x),
        _ => false,
    })
}
