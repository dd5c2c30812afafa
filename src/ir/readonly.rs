//! Memory no thread ever writes: which reads of shared memory need no
//! switch point.
//!
//! A read of an object that no statement of the program writes commutes
//! with every step of every other thread: moving a context switch from
//! before such a read to the thread's next visible step (or its end)
//! reaches the same states, in the same number of rounds. The
//! sequentializations therefore put no switch point before a statement
//! whose only shared accesses are such reads (`Lal–Reps` and KISS ask
//! `ReadOnly::only_constant_reads`). Typical cases: a string literal
//! parsed through a `const char *`, a table of constants, a global that
//! only its initialiser or main's sequential prefix sets.
//!
//! Writes made in the sequential prefix (`ir::prefix`: main's statements
//! before it may start a thread, and what only they call) do not count:
//! they all come before any other thread's first step, so from then on
//! the object holds one value. Switch points in the prefix are left out
//! anyway, so which of its own reads are called constant does not matter.
//!
//! The analysis is a flow-insensitive, field-insensitive points-to
//! analysis by unification (Steensgaard's), blind to types: every value
//! may carry an address (integers made from pointers, bytes copied one
//! by one), so no cast or type pun hides a flow of values from it.
//! Abstract objects are globals, string literals (one object), the heap
//! (one object) and locals; each class of objects has one class its
//! contents point to. A write through an lvalue marks what it may
//! designate: the object itself for a named lvalue, the whole class for
//! one reached through a pointer. Heap memory and locals count as written
//! (an allocation, a declaration, a free or a frame's end change what a
//! read of them can see), so only globals and string literals are ever
//! constant by name; main's locals declared at its top level in the
//! sequential prefix are the exception (their frame lasts as long as the
//! run), and reads of them through pointers can be constant too.
//! Operations write every object their pointer arguments may reach, but
//! for `memcpy`'s source and the thread operations whose flows are
//! spelled out below.
//!
//! Addresses that leave the flow of values. An address held as an integer
//! can come back as a pointer by ways no flow shows: a table lookup
//! indexed by its bits, bit tests, a union or `memcpy` of integer data.
//! So an object in the class of any integer-typed value counts as written
//! as soon as the program writes through any pointer. A pointer of
//! unknown origin (a nondeterministic pointer, the result of an external
//! function) may point anywhere: a write through it writes everything.
//! Comparisons give no address, nor do a pointer's offset and a distance
//! between two pointers (a distance between two objects is undefined,
//! C11 6.5.6p9). A read through a pointer that points at no known object
//! is not called constant.
//!
//! Soundness does not rest on the analysis: leaving out a switch point
//! only removes interleavings, so an analysis that missed a write could
//! hide a bug but never make one up. It is exact in the sense that
//! matters: an object it calls constant is written by no run of the
//! program as seqc models it. Anything it cannot follow (an id it did not
//! see, made by a pass after it ran) counts as written.

use crate::ir::access::Shared;
use crate::ir::prefix::Prefix;
use crate::ir::*;

/// The result: which objects are constant, and enough of the
/// points-to graph to place the lvalues of a statement.
pub struct ReadOnly {
    prefix: Prefix,
    parent: Vec<usize>,
    /// Per class root: the class its contents point to.
    pts: Vec<Option<usize>>,
    /// Per class root: written through a pointer.
    written: Vec<bool>,
    /// Per node: written by name (or by its nature: heap, locals).
    direct: Vec<bool>,
    /// Per class root, after the analysis: some member is not constant.
    tainted: Vec<bool>,
    /// Per class root, after the analysis: it holds a global, a string,
    /// a local or the heap (a pointer into it points somewhere known).
    has_object: Vec<bool>,
    nglobals: usize,
    /// Per function: `__VERIFIER_atomic_*`.
    atomic: Vec<bool>,
    /// First node of each function's locals, and how many it had.
    local_base: Vec<(usize, usize)>,
    str_node: usize,
}

/// Where an lvalue is: a named object, or any object of a class.
#[derive(Clone, Copy)]
enum Place {
    Named(usize),
    Class(usize),
}

impl Place {
    fn node(self) -> usize {
        match self {
            Place::Named(n) | Place::Class(n) => n,
        }
    }
}

struct Builder<'p> {
    p: &'p Program,
    ro: ReadOnly,
    heap: usize,
    code: usize,
    thread_ret: usize,
    key_val: usize,
    /// Per function: the node its return values flow into.
    ret: Vec<usize>,
    /// Functions whose address is taken (callees of indirect calls).
    addressed: Vec<FuncId>,
    /// A pointer of unknown origin (a nondeterministic pointer, an
    /// external function's result): it may point to any object.
    wild: usize,
    /// The values of integer-typed expressions: an object in one of their
    /// classes has its address held as an integer.
    int_values: Vec<usize>,
    /// Some write goes through a pointer.
    indirect_write: bool,
    /// Walking the sequential prefix: its writes precede every other
    /// thread, so they do not count (its flows of values do).
    quiet: bool,
}

impl ReadOnly {
    pub fn analyse(p: &Program) -> ReadOnly {
        let mut ro = ReadOnly {
            prefix: Prefix::analyse(p),
            parent: Vec::new(),
            pts: Vec::new(),
            written: Vec::new(),
            direct: Vec::new(),
            tainted: Vec::new(),
            has_object: Vec::new(),
            nglobals: p.globals.len(),
            atomic: p.functions.iter().map(|f| f.atomic).collect(),
            local_base: Vec::new(),
            str_node: 0,
        };
        for _ in &p.globals {
            ro.node();
        }
        // Main's locals declared at its top level in the prefix live as
        // long as the run and get their value there: only later writes
        // count for them.
        let lasting = ro.prefix.lasting_locals(p);
        for (fi, f) in p.functions.iter().enumerate() {
            let base = ro.parent.len();
            for (vi, _) in f.locals.iter().enumerate() {
                let n = ro.node();
                ro.direct[n] = !lasting.contains(&(FuncId(fi as u32), LocalId(vi as u32)));
            }
            ro.local_base.push((base, f.locals.len()));
        }
        ro.str_node = ro.node();
        let heap = ro.node();
        ro.direct[heap] = true;
        let code = ro.node();
        let thread_ret = ro.node();
        let key_val = ro.node();
        let ret = p.functions.iter().map(|_| ro.node()).collect();
        let wild = ro.node();
        let mut b = Builder {
            p,
            ro,
            heap,
            code,
            thread_ret,
            key_val,
            ret,
            addressed: p.address_taken_functions(),
            wild,
            int_values: Vec::new(),
            indirect_write: false,
            quiet: false,
        };
        b.run();
        let (int_values, indirect_write) = (std::mem::take(&mut b.int_values), b.indirect_write);
        let mut ro = b.ro;
        let objects = ro.nglobals + ro.local_base.iter().map(|&(_, n)| n).sum::<usize>() + 2;
        let mut has_object = vec![false; ro.parent.len()];
        for n in 0..objects {
            has_object[ro.find(n)] = true;
        }
        // An address held as an integer can come back as a pointer by
        // ways no flow shows (a table lookup, bit tests, a union or a
        // memcpy of integer data): with any write through a pointer in
        // the program, such an object counts as written.
        if indirect_write {
            let mut exposed = vec![false; ro.parent.len()];
            for v in int_values {
                exposed[ro.find(v)] = true;
            }
            for n in 0..objects {
                if exposed[ro.find(n)] {
                    ro.direct[n] = true;
                }
            }
        }
        // A write through a pointer that may point anywhere.
        if ro.written[ro.find(wild)] {
            for n in 0..objects {
                ro.direct[n] = true;
            }
        }
        ro.has_object = has_object;
        ro.tainted = vec![false; ro.parent.len()];
        for n in 0..ro.parent.len() {
            let r = ro.find(n);
            if ro.direct[n] || ro.written[r] {
                ro.tainted[r] = true;
            }
        }
        ro
    }

    fn node(&mut self) -> usize {
        let n = self.parent.len();
        self.parent.push(n);
        self.pts.push(None);
        self.written.push(false);
        self.direct.push(false);
        n
    }

    fn find(&self, mut n: usize) -> usize {
        while self.parent[n] != n {
            n = self.parent[n];
        }
        n
    }

    fn find_mut(&mut self, n: usize) -> usize {
        let r = self.find(n);
        let mut m = n;
        while self.parent[m] != r {
            let next = self.parent[m];
            self.parent[m] = r;
            m = next;
        }
        r
    }

    /// Merges two classes, and (recursively) what their contents point to.
    fn unify(&mut self, a: usize, b: usize) -> usize {
        let mut work = vec![(a, b)];
        while let Some((x, y)) = work.pop() {
            let (x, y) = (self.find_mut(x), self.find_mut(y));
            if x == y {
                continue;
            }
            self.parent[y] = x;
            self.written[x] |= self.written[y];
            match (self.pts[x], self.pts[y]) {
                (Some(px), Some(py)) => work.push((px, py)),
                (None, Some(py)) => self.pts[x] = Some(py),
                _ => {}
            }
        }
        self.find_mut(a)
    }

    /// The class that the contents of class `n` point to.
    fn pts_of(&mut self, n: usize) -> usize {
        let r = self.find_mut(n);
        match self.pts[r] {
            Some(t) => self.find_mut(t),
            None => {
                let t = self.node();
                self.pts[r] = Some(t);
                t
            }
        }
    }

    fn atomic_fn(&self, f: FuncId) -> bool {
        self.atomic.get(f.index()).copied().unwrap_or(true)
    }

    fn global(&self, g: GlobalId) -> Option<usize> {
        (g.index() < self.nglobals).then_some(g.index())
    }

    fn local(&self, f: FuncId, v: LocalId) -> Option<usize> {
        let &(base, n) = self.local_base.get(f.index())?;
        (v.index() < n).then_some(base + v.index())
    }

    /// Is the statement `s` of function `f` (before a pass rewrote it),
    /// outside the sequential prefix, one whose shared accesses, as `sh`
    /// sees them, are all reads of memory constant after the prefix?
    /// False for operations and for any statement the analysis cannot
    /// place; a statement with no shared access at all is true.
    pub fn only_constant_reads(&self, sh: &Shared, f: FuncId, s: &Stmt) -> bool {
        // A global or local made after the analysis (by the pass that
        // asks): unknown, so the statement keeps its switch point.
        let mut unknown = false;
        s.each_expr(&mut |e| {
            e.walk(&mut |x| match x.kind {
                ExprKind::Global(g) => unknown |= self.global(g).is_none(),
                ExprKind::Local(v) => unknown |= self.local(f, v).is_none(),
                _ => {}
            })
        });
        if let StmtKind::Decl(v, _) = &s.kind {
            unknown |= self.local(f, *v).is_none();
        }
        if unknown {
            return false;
        }
        let mut reads: Vec<&Expr> = Vec::new();
        match &s.kind {
            StmtKind::Op { .. } => return false,
            StmtKind::Decl(v, init) => {
                if sh.escaping.contains(v) {
                    return false;
                }
                if let Some(i) = init {
                    i.each_expr(&mut |e| reads.push(e));
                }
            }
            StmtKind::Assign(l, r) => {
                if sh.visible_lvalue(l) || !self.address_reads_constant(sh, f, l) {
                    return false;
                }
                reads.push(r);
            }
            StmtKind::Call { dest, callee, args } => {
                // A call of an atomic function is one visible step
                // whatever it reads.
                if crate::ir::sites::strip(callee).is_some_and(|g| self.atomic_fn(g)) {
                    return false;
                }
                if let Some(d) = dest
                    && (sh.visible_lvalue(d) || !self.address_reads_constant(sh, f, d))
                {
                    return false;
                }
                reads.push(callee);
                reads.extend(args);
            }
            _ => s.each_expr(&mut |e| reads.push(e)),
        }
        reads.iter().all(|e| self.value_reads_constant(sh, f, e))
    }

    /// Every shared read made to evaluate `e` is of constant memory.
    fn value_reads_constant(&self, sh: &Shared, f: FuncId, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..)
            | ExprKind::Str(_) => {
                let shared = sh.visible_lvalue(e) || on_string(e);
                // A function reached through a pointer is code, not data.
                let code = matches!(e.ty.unqual(), Ty::Func(_));
                self.address_reads_constant(sh, f, e)
                    && (!shared || code || self.constant_place(f, e))
            }
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => self.address_reads_constant(sh, f, a),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.value_reads_constant(sh, f, a),
            ExprKind::Binary(_, a, b) => {
                self.value_reads_constant(sh, f, a) && self.value_reads_constant(sh, f, b)
            }
            ExprKind::Cond(a, b, c) => {
                self.value_reads_constant(sh, f, a)
                    && self.value_reads_constant(sh, f, b)
                    && self.value_reads_constant(sh, f, c)
            }
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Func(_) | ExprKind::Nondet => true,
        }
    }

    /// Every shared read made to compute the address of `lv` is of
    /// constant memory.
    fn address_reads_constant(&self, sh: &Shared, f: FuncId, lv: &Expr) -> bool {
        match &lv.kind {
            ExprKind::Deref(p) => self.value_reads_constant(sh, f, p),
            ExprKind::Member(a, _) => self.address_reads_constant(sh, f, a),
            ExprKind::Index(a, i) => {
                self.address_reads_constant(sh, f, a) && self.value_reads_constant(sh, f, i)
            }
            _ => true,
        }
    }

    /// Is every object the lvalue `lv` may designate constant?
    fn constant_place(&self, f: FuncId, lv: &Expr) -> bool {
        let Some(places) = self.place(f, lv) else {
            return false;
        };
        places.iter().all(|pl| match *pl {
            // Only globals and string literals can be constant; a write
            // through a pointer into its class may hit it too.
            Place::Named(n) => (n < self.nglobals || n == self.str_node) && self.unwritten(n),
            // A pointer that points nowhere known: not known constant.
            Place::Class(c) => {
                let r = self.find(c);
                self.has_object[r] && !self.tainted[r]
            }
        })
    }

    /// Where `lv` is, without changing the graph (`None`: unknown).
    fn place(&self, f: FuncId, lv: &Expr) -> Option<Vec<Place>> {
        match &lv.kind {
            ExprKind::Global(g) => Some(vec![Place::Named(self.global(*g)?)]),
            ExprKind::Local(v) => Some(vec![Place::Named(self.local(f, *v)?)]),
            ExprKind::Str(_) => Some(vec![Place::Named(self.str_node)]),
            ExprKind::Deref(p) => {
                let v = self.value(f, p)?;
                Some(v.into_iter().map(Place::Class).collect())
            }
            ExprKind::Member(a, _) | ExprKind::Index(a, _) => self.place(f, a),
            _ => None,
        }
    }

    /// The classes the value of `e` may point into, without changing the
    /// graph (`None`: unknown).
    fn value(&self, f: FuncId, e: &Expr) -> Option<Vec<usize>> {
        Some(match &e.kind {
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Nondet => vec![],
            ExprKind::Func(_) => vec![],
            ExprKind::Str(_) => vec![self.find(self.str_node)],
            ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..) => self
                .place(f, e)?
                .into_iter()
                .filter_map(|pl| self.pts[self.find(pl.node())].map(|t| self.find(t)))
                .collect(),
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => self
                .place(f, a)?
                .into_iter()
                .map(|pl| self.find(pl.node()))
                .collect(),
            ExprKind::Unary(UnOp::LogNot, _) => vec![],
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.value(f, a)?,
            ExprKind::Binary(op, a, b) => {
                if yields_no_address(*op) {
                    vec![]
                } else if matches!(op, BinOp::PtrAdd | BinOp::PtrSub) {
                    self.value(f, a)?
                } else {
                    let mut v = self.value(f, a)?;
                    v.extend(self.value(f, b)?);
                    v
                }
            }
            ExprKind::Cond(_, a, b) => {
                let mut v = self.value(f, a)?;
                v.extend(self.value(f, b)?);
                v
            }
        })
    }
}

/// Comparisons and logical operators give 0 or 1, never an address; a
/// difference of two pointers is a distance, not an address (adding it
/// back to the first gives the second, which the first already reaches).
fn yields_no_address(op: BinOp) -> bool {
    use BinOp::*;
    matches!(op, Eq | Ne | Lt | Le | Gt | Ge | LogAnd | LogOr | PtrDiff)
}

/// A string literal, or a part of one.
fn on_string(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Str(_) => true,
        ExprKind::Member(a, _) | ExprKind::Index(a, _) => on_string(a),
        _ => false,
    }
}

impl Builder<'_> {
    fn run(&mut self) {
        let p = self.p;
        for (gi, g) in p.globals.iter().enumerate() {
            if let Some(init) = &g.init {
                let mut es = Vec::new();
                init.exprs(&mut es);
                for e in es {
                    // Global initialisers name no locals: any function
                    // id will do for the lookup.
                    let v = self.val(FuncId(0), e);
                    let t = self.ro.pts_of(gi);
                    self.ro.unify(t, v);
                }
            }
        }
        for (fi, f) in p.functions.iter().enumerate() {
            let fid = FuncId(fi as u32);
            if let Some(b) = &f.body {
                let n = self.ro.prefix.top_level(fid, b);
                for (i, s) in b.0.iter().enumerate() {
                    self.quiet = i < n;
                    s.walk(&mut |s| self.stmt(fid, s));
                }
                self.quiet = false;
            }
        }
    }

    fn fresh(&mut self) -> usize {
        self.ro.node()
    }

    fn place(&mut self, f: FuncId, lv: &Expr) -> Place {
        match &lv.kind {
            ExprKind::Global(g) => match self.ro.global(*g) {
                Some(n) => Place::Named(n),
                None => self.unknown(),
            },
            ExprKind::Local(v) => match self.ro.local(f, *v) {
                Some(n) => Place::Named(n),
                None => self.unknown(),
            },
            ExprKind::Str(_) => Place::Named(self.ro.str_node),
            ExprKind::Deref(p) => Place::Class(self.val(f, p)),
            ExprKind::Member(a, _) | ExprKind::Index(a, _) => {
                if let ExprKind::Index(_, i) = &lv.kind {
                    self.val(f, i);
                }
                self.place(f, a)
            }
            _ => {
                // A value used as an lvalue (a struct returned by value,
                // say): a place of its own.
                self.val(f, lv);
                Place::Class(self.fresh())
            }
        }
    }

    /// An id the analysis never saw: a place that is written.
    fn unknown(&mut self) -> Place {
        let n = self.fresh();
        self.ro.direct[n] = true;
        Place::Named(n)
    }

    fn val(&mut self, f: FuncId, e: &Expr) -> usize {
        let v = self.val_of(f, e);
        let ty = match e.ty.unqual() {
            Ty::Atomic(t) => t.as_ref(),
            t => t,
        };
        if ty.is_integer() && !matches!(e.kind, ExprKind::Int(_)) {
            self.int_values.push(v);
        }
        v
    }

    fn val_of(&mut self, f: FuncId, e: &Expr) -> usize {
        match &e.kind {
            ExprKind::Nondet if e.ty.is_pointer() => self.wild,
            ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Nondet => self.fresh(),
            ExprKind::Func(_) => self.code,
            ExprKind::Str(_) => self.ro.str_node,
            ExprKind::Global(_)
            | ExprKind::Local(_)
            | ExprKind::Deref(_)
            | ExprKind::Member(..)
            | ExprKind::Index(..) => {
                let pl = self.place(f, e);
                self.ro.pts_of(pl.node())
            }
            ExprKind::AddrOf(a) | ExprKind::Decay(a) => self.place(f, a).node(),
            ExprKind::Unary(UnOp::LogNot, a) => {
                self.val(f, a);
                self.fresh()
            }
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => self.val(f, a),
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.val(f, a), self.val(f, b));
                if yields_no_address(*op) {
                    self.fresh()
                } else if matches!(op, BinOp::PtrAdd | BinOp::PtrSub) {
                    // The offset is a number: an address it held was
                    // exposed as an integer (`ReadOnly::analyse`).
                    x
                } else {
                    self.ro.unify(x, y)
                }
            }
            ExprKind::Cond(c, a, b) => {
                self.val(f, c);
                let (x, y) = (self.val(f, a), self.val(f, b));
                self.ro.unify(x, y)
            }
        }
    }

    fn write(&mut self, pl: Place) {
        if self.quiet {
            return;
        }
        match pl {
            Place::Named(n) => self.ro.direct[n] = true,
            Place::Class(c) => {
                let r = self.ro.find_mut(c);
                self.ro.written[r] = true;
                self.indirect_write = true;
            }
        }
    }

    /// `lv = (a value pointing into class v)`.
    fn store(&mut self, f: FuncId, lv: &Expr, v: usize) {
        let pl = self.place(f, lv);
        let t = self.ro.pts_of(pl.node());
        self.ro.unify(t, v);
        self.write(pl);
    }

    /// The functions a call of `callee` may run.
    fn callees(&self, callee: &Expr) -> Vec<FuncId> {
        match crate::ir::sites::strip(callee) {
            Some(f) => vec![f],
            None => self.addressed.clone(),
        }
    }

    /// A call of `callee` with arguments of classes `args`, whose result
    /// goes into class `into` (when kept).
    fn call(&mut self, callee: &Expr, args: &[usize], into: Option<usize>) {
        let callees = self.callees(callee);
        // An external function (no body) returns anything.
        if let Some(i) = into
            && (callees.is_empty() || callees.iter().any(|t| self.p.func(*t).body.is_none()))
        {
            let w = self.wild;
            self.ro.unify(i, w);
        }
        for t in callees {
            let params = self.p.func(t).params.clone();
            for (pv, &a) in params.iter().zip(args) {
                let n = self.ro.local(t, *pv).expect("a parameter is a local");
                let pt = self.ro.pts_of(n);
                self.ro.unify(pt, a);
            }
            if let Some(i) = into {
                let r = self.ret[t.index()];
                self.ro.unify(r, i);
            }
        }
    }

    fn stmt(&mut self, f: FuncId, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl(v, Some(init)) => {
                let mut es = Vec::new();
                init.exprs(&mut es);
                let lv = Expr::new(ExprKind::Local(*v), Ty::Void, s.loc);
                for e in es {
                    let x = self.val(f, e);
                    self.store(f, &lv, x);
                }
            }
            StmtKind::Assign(l, r) => {
                let x = self.val(f, r);
                self.store(f, l, x);
            }
            StmtKind::Call { dest, callee, args } => {
                self.val(f, callee);
                let a: Vec<usize> = args.iter().map(|e| self.val(f, e)).collect();
                let into = self.fresh();
                self.call(callee, &a, Some(into));
                if let Some(d) = dest {
                    self.store(f, d, into);
                }
            }
            StmtKind::Op { dest, op, args } => self.op(f, dest.as_ref(), *op, args),
            StmtKind::Return(Some(e)) => {
                let x = self.val(f, e);
                let r = self.ret[f.index()];
                self.ro.unify(r, x);
            }
            _ => s.each_expr(&mut |e| {
                self.val(f, e);
            }),
        }
    }

    fn op(&mut self, f: FuncId, dest: Option<&Expr>, op: Op, args: &[Expr]) {
        let a: Vec<usize> = args.iter().map(|e| self.val(f, e)).collect();
        let result = match op {
            Op::LibNoop(_)
            | Op::Fence
            | Op::Abort
            | Op::Exit
            | Op::ThreadSelf
            | Op::ThreadEqual
            | Op::RoundInit
            | Op::RoundCheck
            | Op::AtomicBegin
            | Op::AtomicEnd => self.fresh(),
            Op::Malloc | Op::Calloc => self.heap,
            Op::Free => {
                if let Some(&p) = a.first() {
                    self.write(Place::Class(p));
                }
                self.fresh()
            }
            Op::Memcpy if a.len() >= 2 => {
                let (d, s) = (a[0], a[1]);
                let (td, ts) = (self.ro.pts_of(d), self.ro.pts_of(s));
                self.ro.unify(td, ts);
                self.write(Place::Class(d));
                d
            }
            Op::ThreadCreate if args.len() == 4 => {
                self.write(Place::Class(a[0]));
                let into = self.thread_ret;
                self.call(&args[2], &a[3..], Some(into));
                self.fresh()
            }
            Op::ThreadExit => {
                if let Some(&v) = a.first() {
                    let r = self.thread_ret;
                    self.ro.unify(r, v);
                }
                self.fresh()
            }
            Op::ThreadJoin if a.len() == 2 => {
                let t = self.ro.pts_of(a[1]);
                let r = self.thread_ret;
                self.ro.unify(t, r);
                self.write(Place::Class(a[1]));
                self.fresh()
            }
            Op::KeyCreate if a.len() == 2 => {
                self.write(Place::Class(a[0]));
                let kv = self.key_val;
                self.call(&args[1], &[kv], None);
                self.fresh()
            }
            Op::SetSpecific if a.len() == 2 => {
                let kv = self.key_val;
                self.ro.unify(kv, a[1]);
                self.fresh()
            }
            Op::GetSpecific => self.key_val,
            Op::Once if a.len() == 2 => {
                self.write(Place::Class(a[0]));
                self.call(&args[1], &[], None);
                self.fresh()
            }
            _ => {
                // Any other operation may write and swap whatever its
                // arguments reach: one class for all of it.
                let mut all = self.fresh();
                for &x in &a {
                    let t = self.ro.pts_of(x);
                    all = self.ro.unify(all, x);
                    all = self.ro.unify(all, t);
                }
                self.write(Place::Class(all));
                all
            }
        };
        if let Some(d) = dest {
            self.store(f, d, result);
        }
    }
}

impl ReadOnly {
    /// The sequential prefix the analysis left out (`ir::prefix`).
    pub fn prefix(&self) -> &Prefix {
        &self.prefix
    }

    /// Is global `g` (an id the analysis saw) written by no run?
    pub fn constant_global(&self, g: GlobalId) -> bool {
        self.global(g).is_some_and(|n| self.unwritten(n))
    }

    /// Is local `v` of `f` written by no run (after the prefix)?
    pub fn constant_local(&self, f: FuncId, v: LocalId) -> bool {
        self.local(f, v).is_some_and(|n| self.unwritten(n))
    }

    /// Are string literals written by no run?
    pub fn constant_strings(&self) -> bool {
        self.unwritten(self.str_node)
    }

    /// Object node `n` is written neither by name nor through a pointer.
    fn unwritten(&self, n: usize) -> bool {
        !self.direct[n] && !self.written[self.find(n)]
    }
}
