//! Lowering: lang-c's AST to `ir::Program`.
//!
//! Types are resolved (typedefs gone, integer promotions and the usual
//! arithmetic conversions made explicit as casts), expressions are made
//! side-effect free by moving calls, assignments and `++` into statements
//! (in C's evaluation order where C fixes one: `&&`, `||`, `?:`, `,`), and
//! calls of the functions with a meaning for seqc (pthreads, atomics,
//! `__VERIFIER_*`, assert, malloc, ...) become `Op`/`Assert`/`Assume`
//! statements. Declarations from system headers are kept only when the
//! program uses them; function bodies from headers are lowered only then.

mod arith;
mod attrs;
mod calls;
mod consts;
mod expr;
mod init;
mod pthread_attr;
mod stmt;
mod types;

use super::source_map::SourceMap;
use crate::diag::{Diagnostic, Result};
use crate::ir::build::{addr_of, assign, bin, cast, cmp, if_, index};
use crate::ir::*;
use lang_c::ast;
use lang_c::span::{Node, Span};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

#[derive(Clone, Debug)]
enum Sym {
    Global(GlobalId),
    Local(LocalId),
    Func(FuncId),
    EnumConst(i128),
    Typedef(Ty),
    /// A declaration seqc could not lower; an error only if it is used.
    Poisoned(Diagnostic),
    /// A variable-length array: `ptr` points to its heap object of
    /// `count` elements of `elem` (`local_vla`).
    Vla {
        ptr: LocalId,
        count: LocalId,
        elem: Ty,
    },
}

/// Where a declarator may have an array size that is not a constant.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum VlaCtx {
    No,
    /// A parameter: its array type becomes a pointer, the size goes.
    Param,
    /// A block-scope object without storage class: the size is kept in
    /// `Lowerer::vla_size`.
    Object,
}

#[derive(Clone, Debug)]
enum Tag {
    Comp(CompId),
    /// An enumeration and the integer type gcc gives its objects.
    Enum(Ty),
}

/// State while lowering one function body.
pub(super) struct FnState {
    func: FuncId,
    ret: Ty,
    locals: Vec<Local>,
    names: HashSet<String>,
    /// Per name: the suffix to try first when it is taken again (every
    /// smaller one is taken already: names are never freed), so a
    /// function with many `for (int j ...)` loops renames in linear time.
    suffix: HashMap<String, u32>,
    labels: HashMap<String, LabelId>,
    label_names: Vec<String>,
    defined_labels: HashSet<String>,
    /// Statements of the blocks being built, innermost last.
    blocks: Vec<Vec<Stmt>>,
    temps: u32,
    /// Inside a loop or switch (for `break`), inside a loop (`continue`).
    breakable: u32,
    loops: u32,
}

impl FnState {
    fn new(func: FuncId, ret: Ty) -> FnState {
        FnState {
            func,
            ret,
            locals: Vec::new(),
            names: HashSet::default(),
            suffix: HashMap::default(),
            labels: HashMap::default(),
            label_names: Vec::new(),
            defined_labels: HashSet::default(),
            blocks: vec![Vec::new()],
            temps: 0,
            breakable: 0,
            loops: 0,
        }
    }

    /// For expressions outside any function (file-scope initialisers,
    /// array sizes): temporaries made there are thrown away.
    pub(super) fn scratch() -> FnState {
        FnState::new(FuncId(u32::MAX), Ty::Void)
    }
}

pub(super) struct Lowerer<'a> {
    src: &'a str,
    map: SourceMap,
    prog: Program,
    scopes: Vec<HashMap<String, Sym>>,
    /// The scopes that bind a name, innermost last: most block scopes bind
    /// none, and a lookup that went through every scope took time
    /// quadratic in the nesting.
    named: Vec<usize>,
    tags: Vec<HashMap<String, Tag>>,
    /// Why a struct or union has no body: its members were refused (a
    /// flexible array member, say). A use of the type says so.
    comp_errors: HashMap<CompId, Diagnostic>,
    /// Function definitions not lowered yet (system headers: lowered on use).
    pending: HashMap<FuncId, &'a Node<ast::FunctionDefinition>>,
    queue: Vec<FuncId>,
    fs: Option<FnState>,
    /// Lowering a static object's initialiser: a constant the compiler
    /// computes, folded whole (`expr::fold`).
    static_init: bool,
    /// Names of functions seen defined, to refuse a second body.
    defined: HashSet<String>,
    /// Calls of functions not defined when the call was seen.
    extern_calls: Vec<(FuncId, Diagnostic)>,
    /// Functions used (called or their address taken) before their
    /// definition was read: lowered once every definition is known.
    used_early: Vec<FuncId>,
    /// Names of the functions the input itself defines, anywhere in it
    /// (a call before the body is still a call of the input's function,
    /// not of a model with the same name: `nondet_pick`).
    input_defs: HashSet<String>,
    /// Globals and functions by name (a linear search per new local made
    /// lowering quadratic in the number of functions).
    global_index: HashMap<String, GlobalId>,
    func_index: HashMap<String, FuncId>,
    /// What the next `declarator` call may do with a run-time array size.
    vla_ctx: VlaCtx,
    /// The run-time size of the object `declarator` just read.
    vla_size: Option<&'a Node<ast::Expression>>,
    /// Types whose layout a constant was folded from (`sizeof`,
    /// `_Alignof`, `offsetof`): they count as used even when no object
    /// of theirs is left.
    folded: Vec<Ty>,
    /// Lowering the arguments of an allocator's call (`LayoutUse::alloc`).
    alloc_args: u32,
    /// Lowering the identifier a call names as its callee (`identifier`
    /// refuses other uses of functions seqc models by name).
    direct_callee: bool,
    /// The comps as `passes::retype` leaves them, for `LayoutUse`: made
    /// when first needed, again when comps were defined or completed.
    retyped: Option<Program>,
    /// A signed `+=` or `-=` on an `_Atomic` object is an atomic section
    /// (`--property overflow` checks it), not a fetch-op.
    checked_sums: bool,
    /// Globals seqc named (block-scope statics, file-scope compound
    /// literals): kept out of `global_index`, so that a later file-scope
    /// `int f__x;` is not taken for f's `static int x`, and renamed at the
    /// end where their name is the input's too (`unique_made_names`).
    made_globals: Vec<GlobalId>,
    /// Typedef names whose type has a qualifier seqc's types do not keep
    /// (`const`, `volatile`, `restrict`, `_Atomic`), at any level:
    /// `_Generic` cannot choose exactly on them.
    qualified_typedefs: HashSet<String>,
    /// Functions declared `weak` and, where so declared, not defined:
    /// their address is null, which seqc does not model (a call is
    /// refused anyway, as for any function without a body).
    weak_undefined: HashSet<String>,
    /// Inline assembly calls through a table each of these globals holds:
    /// an error if the program defines the global after all.
    asm_calls: Vec<(GlobalId, Diagnostic)>,
}

/// Whether any statement writes an object within global `g` or takes an
/// address within it (after which a write could go anywhere).
fn stored_or_taken(p: &Program, g: GlobalId) -> bool {
    fn root(e: &Expr) -> Option<GlobalId> {
        match &e.kind {
            ExprKind::Global(g) => Some(*g),
            ExprKind::Member(x, _) | ExprKind::Index(x, _) => root(x),
            _ => None,
        }
    }
    let mut hit = false;
    for f in &p.functions {
        let Some(b) = &f.body else { continue };
        b.walk(&mut |s| {
            let dest = match &s.kind {
                StmtKind::Assign(l, _) => Some(l),
                StmtKind::Call { dest, .. } | StmtKind::Op { dest, .. } => dest.as_ref(),
                _ => None,
            };
            hit |= dest.and_then(root) == Some(g);
            s.each_expr(&mut |e| {
                e.walk(&mut |x| {
                    if let ExprKind::AddrOf(inner) = &x.kind {
                        hit |= root(inner) == Some(g);
                    }
                })
            });
        });
    }
    hit
}

pub(super) fn lower(
    unit: &ast::TranslationUnit,
    src: &str,
    map: SourceMap,
    dm: DataModel,
    checked_sums: bool,
) -> Result<Program> {
    let mut prog = Program::new(dm);
    prog.files = map.files.clone();
    prog.system_files = map.system.clone();
    let mut l = Lowerer {
        src,
        map,
        prog,
        scopes: vec![HashMap::default()],
        named: Vec::new(),
        comp_errors: HashMap::default(),
        tags: vec![HashMap::default()],
        pending: HashMap::default(),
        queue: Vec::new(),
        fs: None,
        static_init: false,
        defined: HashSet::default(),
        extern_calls: Vec::new(),
        used_early: Vec::new(),
        input_defs: HashSet::default(),
        global_index: HashMap::default(),
        func_index: HashMap::default(),
        vla_ctx: VlaCtx::No,
        vla_size: None,
        folded: Vec::new(),
        alloc_args: 0,
        direct_callee: false,
        retyped: None,
        checked_sums,
        made_globals: Vec::new(),
        qualified_typedefs: HashSet::default(),
        weak_undefined: HashSet::default(),
        asm_calls: Vec::new(),
    };
    for ext in &unit.0 {
        if let ast::ExternalDeclaration::FunctionDefinition(fd) = &ext.node
            && !l.in_system(fd.span)
            && let Some(n) = types::declarator_name(&fd.node.declarator.node)
        {
            l.input_defs.insert(n);
        }
    }
    for ext in &unit.0 {
        l.external(ext)?;
    }
    // Calls and addresses seen before a definition that is lowered on
    // use (a static function defined below, the library models after the
    // input).
    let mut early: Vec<FuncId> = l.extern_calls.iter().map(|(f, _)| *f).collect();
    early.append(&mut l.used_early);
    for f in early {
        l.use_function(f);
    }
    while let Some(f) = l.queue.pop() {
        if let Some(def) = l.pending.remove(&f) {
            l.function_body(f, def)?;
        }
    }
    for (f, d) in std::mem::take(&mut l.extern_calls) {
        if l.prog.func(f).body.is_none() {
            return Err(d);
        }
    }
    for (g, d) in std::mem::take(&mut l.asm_calls) {
        let gl = l.prog.global(g);
        if gl.storage != Storage::Extern || gl.init.is_some() || stored_or_taken(&l.prog, g) {
            return Err(d);
        }
    }
    l.unique_made_names();
    l.finish()
}

impl<'a> Lowerer<'a> {
    fn loc(&self, span: Span) -> Loc {
        self.map.loc(span.start)
    }

    fn in_system(&self, span: Span) -> bool {
        self.map.is_system(self.loc(span).file)
    }

    /// An error at `span`, with the source line for the caret.
    fn err(&self, span: Span, d: Diagnostic) -> Diagnostic {
        let (f, l, c, src) = self.map.position(span.start);
        d.at(f, l, c).with_source_line(src)
    }

    fn unsupported<T>(&self, span: Span, what: impl Into<String>) -> Result<T> {
        Err(self.err(span, Diagnostic::unsupported(what)))
    }

    fn error<T>(&self, span: Span, msg: impl Into<String>) -> Result<T> {
        Err(self.err(span, Diagnostic::input(msg)))
    }

    /// The error for a use of `ty` where it is incomplete: the refusal of
    /// its struct's members when that is why (exit 2 with the member's
    /// place), else `msg`.
    fn incomplete<T>(&self, span: Span, ty: &Ty, msg: impl Into<String>) -> Result<T> {
        match crate::ir::regions::elem_scalar(ty) {
            Ty::Comp(c) => match self.comp_errors.get(c) {
                Some(d) if d.pos.is_some() => Err(d.clone()),
                Some(d) => Err(self.err(span, d.clone())),
                None => self.error(span, msg),
            },
            _ => self.error(span, msg),
        }
    }

    fn lookup(&self, name: &str) -> Option<&Sym> {
        self.named
            .iter()
            .rev()
            .find_map(|&i| self.scopes[i].get(name))
    }

    fn bind(&mut self, name: String, sym: Sym) {
        let i = self.scopes.len() - 1;
        if self.named.last() != Some(&i) {
            self.named.push(i);
        }
        self.scopes[i].insert(name, sym);
    }

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::default());
        self.tags.push(HashMap::default());
    }

    fn pop_scope(&mut self) {
        self.scopes.pop();
        if self.named.last() == Some(&self.scopes.len()) {
            self.named.pop();
        }
        self.tags.pop();
    }

    // ---- file scope ----

    fn external(&mut self, ext: &'a Node<ast::ExternalDeclaration>) -> Result<()> {
        match &ext.node {
            ast::ExternalDeclaration::Declaration(d) => self.declaration(d, true),
            ast::ExternalDeclaration::StaticAssert(s) => self.static_assert(s),
            ast::ExternalDeclaration::FunctionDefinition(fd) => self.function_definition(fd),
        }
    }

    fn static_assert(&mut self, s: &'a Node<ast::StaticAssert>) -> Result<()> {
        let e = self.const_expr(&s.node.expression)?;
        if e == 0 {
            return self.error(s.span, "static assertion failed");
        }
        Ok(())
    }

    /// A declaration at file scope (`file_scope`) or in a block.
    fn declaration(&mut self, d: &'a Node<ast::Declaration>, file_scope: bool) -> Result<()> {
        let system = self.in_system(d.span);
        if !system {
            self.attrs_acting_alone(d)?;
        }
        let typedef = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, ast::DeclarationSpecifier::StorageClass(c)
                if c.node == ast::StorageClassSpecifier::Typedef)
        });
        if typedef {
            let in_specs = d.node.specifiers.iter().any(|s| match &s.node {
                ast::DeclarationSpecifier::TypeQualifier(_) => true,
                ast::DeclarationSpecifier::TypeSpecifier(t) => self.qualified_spec(&t.node),
                _ => false,
            });
            for id in &d.node.declarators {
                let dd = &id.node.declarator.node;
                if (in_specs || types::qualified_declarator(dd))
                    && let Some(n) = types::declarator_name(dd)
                {
                    self.qualified_typedefs.insert(n);
                }
            }
        }
        let specs = match self.decl_specs(&d.node.specifiers, d.span) {
            Ok(s) => s,
            Err(mut e) if system || file_scope => {
                // A declaration seqc cannot read: poison its names, so that
                // only a use of them is an error: at the use for a system
                // header's, at the declaration for the input's own.
                if system {
                    e.pos = None;
                    e.source_line = None;
                }
                for id in &d.node.declarators {
                    if let Some(n) = types::declarator_name(&id.node.declarator.node) {
                        self.bind(n, Sym::Poisoned(e.clone()));
                    }
                }
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        for id in &d.node.declarators {
            let r = self.init_declarator(&specs, id, file_scope);
            match r {
                Ok(()) => {}
                Err(mut e) if file_scope => {
                    if system {
                        e.pos = None;
                        e.source_line = None;
                    }
                    if let Some(n) = types::declarator_name(&id.node.declarator.node) {
                        self.bind(n, Sym::Poisoned(e));
                    }
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Refuses, at the declaration, the attributes that act without any
    /// use of the name (a refusal found while reading a declaration is
    /// otherwise kept for a use of the name): a `constructor` or
    /// `destructor` runs the function around main, and a packed enum's
    /// later uses name it by its tag alone. A `weak` function never
    /// defined is noted: its address is refused where taken.
    fn attrs_acting_alone(&mut self, d: &'a Node<ast::Declaration>) -> Result<()> {
        let mut enum_at = None;
        for s in &d.node.specifiers {
            match &s.node {
                ast::DeclarationSpecifier::TypeSpecifier(t)
                    if matches!(t.node, ast::TypeSpecifier::Enum(_)) =>
                {
                    enum_at = Some(t.span);
                }
                ast::DeclarationSpecifier::Extension(e) if enum_at.is_some() => {
                    let packed = e.iter().any(|x| {
                        matches!(&x.node, ast::Extension::Attribute(a)
                            if matches!(a.name.node.as_str(), "packed" | "__packed__"))
                    });
                    if packed {
                        return self.unsupported(
                            enum_at.unwrap(),
                            "__attribute__((packed)) on an enum (its size)",
                        );
                    }
                }
                _ => {}
            }
        }
        let mut exts: Vec<(&'a Node<ast::Extension>, Option<String>)> = Vec::new();
        // The names a declaration may leave undefined: a function the
        // input never defines, or an `extern` object (whose definition
        // seqc would have to find elsewhere).
        let is_extern = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, ast::DeclarationSpecifier::StorageClass(c)
                if c.node == ast::StorageClassSpecifier::Extern)
        });
        let mut funcs = HashSet::default();
        let names: Vec<Option<String>> = d
            .node
            .declarators
            .iter()
            .map(|id| {
                let n = types::declarator_name(&id.node.declarator.node)?;
                let func = id.node.declarator.node.derived.iter().any(|x| {
                    matches!(
                        x.node,
                        ast::DerivedDeclarator::Function(_) | ast::DerivedDeclarator::KRFunction(_)
                    )
                });
                if func {
                    funcs.insert(n.clone());
                }
                let undefined = if func {
                    !self.input_defs.contains(&n)
                } else {
                    is_extern && id.node.initializer.is_none()
                };
                undefined.then_some(n)
            })
            .collect();
        for s in &d.node.specifiers {
            if let ast::DeclarationSpecifier::Extension(e) = &s.node {
                for n in &names {
                    exts.extend(e.iter().map(|x| (x, n.clone())));
                }
            }
        }
        for (id, n) in d.node.declarators.iter().zip(&names) {
            let ext = &id.node.declarator.node.extensions;
            exts.extend(ext.iter().map(|x| (x, n.clone())));
        }
        for (x, name) in exts {
            let ast::Extension::Attribute(a) = &x.node else {
                continue;
            };
            let raw = a.name.node.as_str();
            let bare = attrs::bare_name(raw);
            match bare {
                "constructor" | "destructor" => {
                    let when = if bare == "constructor" {
                        "before"
                    } else {
                        "after"
                    };
                    return self.unsupported(
                        a.name.span,
                        format!("__attribute__(({raw})): a function run {when} main"),
                    );
                }
                "weak" if name.as_ref().is_some_and(|n| funcs.contains(n)) => {
                    let n = name.unwrap_or_default();
                    self.weak_undefined.insert(n);
                }
                "weak" if let Some(n) = name => {
                    return self.unsupported(
                        a.name.span,
                        format!("__attribute__(({raw})) on '{n}', which may be left undefined (its address would be null)"),
                    );
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn init_declarator(
        &mut self,
        specs: &types::Specs,
        id: &'a Node<ast::InitDeclarator>,
        file_scope: bool,
    ) -> Result<()> {
        let object = !(file_scope || specs.is_static || specs.is_extern || specs.typedef);
        if object {
            self.vla_ctx = VlaCtx::Object;
        }
        self.vla_size = None;
        let decl = self.declarator(specs.ty.clone(), &id.node.declarator)?;
        let vla = self.vla_size.take();
        let span = id.node.declarator.span;
        let Some(name) = decl.name.clone() else {
            return Ok(());
        };
        let loc = self.loc(span);
        if specs.typedef {
            // A typedef's alignment changes the layout of what holds it,
            // which seqc's types cannot say (a struct's own can).
            let align = decl.align.max(specs.align);
            if align > self.prog.align_of(&decl.ty).unwrap_or(1) {
                return self.unsupported(
                    span,
                    format!("__attribute__((aligned({align}))) on the typedef '{name}'"),
                );
            }
            self.bind(name, Sym::Typedef(decl.ty));
            return Ok(());
        }
        // An object's alignment is its address's, which seqc does not
        // model (its addresses are abstract).
        if let Ty::Func(sig) = &decl.ty {
            if id.node.initializer.is_some() {
                return self.error(
                    span,
                    format!("function '{name}' is initialised like a variable"),
                );
            }
            let f = self.declare_function(&name, (**sig).clone(), specs.is_static, loc);
            self.bind(name, Sym::Func(f));
            return Ok(());
        }
        if file_scope || specs.is_static || specs.is_extern {
            return self.global_declaration(name, decl.ty, specs, id, file_scope, loc);
        }
        if specs.thread_local {
            return self.error(
                id.span,
                "a block-scope _Thread_local variable must be static or extern",
            );
        }
        if let Some(size) = vla {
            return self.local_vla(name, decl.ty, id, size, loc);
        }
        self.local_declaration(name, decl.ty, id, loc)
    }

    fn global_declaration(
        &mut self,
        name: String,
        mut ty: Ty,
        specs: &types::Specs,
        id: &'a Node<ast::InitDeclarator>,
        file_scope: bool,
        loc: Loc,
    ) -> Result<()> {
        let span = id.node.declarator.span;
        if !file_scope && specs.is_extern && id.node.initializer.is_some() {
            return self.error(
                span,
                format!("'{name}' has both 'extern' and an initialiser"),
            );
        }
        // A block-scope static gets a global of its own, named after the function.
        let gname = if file_scope || specs.is_extern {
            name.clone()
        } else {
            let fname = self.prog.func(self.fs.as_ref().unwrap().func).name.clone();
            self.fresh_global_name(&format!("{fname}__{name}"))
        };
        let named_here = file_scope || specs.is_extern;
        let existing = if named_here {
            self.global_index.get(&gname).map(|g| g.index())
        } else {
            None
        };
        // The name is in scope from the end of its declarator (C11 6.2.1p7):
        // its own initialiser may take its address (`struct list l = { &l,
        // &l };`). A new global is made first, without its initialiser.
        let fresh = existing.is_none();
        let g = match existing {
            Some(i) => GlobalId(i as u32),
            None => {
                let g = GlobalId(self.prog.globals.len() as u32);
                if named_here {
                    self.global_index.insert(gname.clone(), g);
                } else {
                    self.made_globals.push(g);
                }
                self.prog.globals.push(Global {
                    name: gname,
                    ty: ty.clone(),
                    init: None,
                    storage: Storage::Extern,
                    thread_local: specs.thread_local,
                    loc,
                });
                g
            }
        };
        self.bind(name.clone(), Sym::Global(g));
        let init = match &id.node.initializer {
            Some(i) => {
                let (init, fixed) = self.initializer(&ty, i, true)?;
                ty = fixed;
                Some(init)
            }
            None => None,
        };
        // An object with static storage cannot be initialised from a local
        // (C11 6.7.9p4): `static int *p = &x;` with a block-scope x.
        if let Some(i) = &init {
            let mut es = Vec::new();
            i.exprs(&mut es);
            let mut local = None;
            for e in es {
                e.walk(&mut |x| {
                    if let ExprKind::Local(v) = x.kind
                        && local.is_none()
                    {
                        local = Some(v);
                    }
                });
            }
            if let Some(v) = local {
                let lname = self
                    .fs
                    .as_ref()
                    .and_then(|fs| fs.locals.get(v.index()).map(|l| l.name.clone()))
                    .unwrap_or_default();
                return self.error(
                    span,
                    format!("the initialiser of static '{name}' is not constant (it uses the local '{lname}')"),
                );
            }
        }
        let storage = if specs.is_extern && init.is_none() {
            Storage::Extern
        } else if specs.is_static {
            Storage::Static
        } else {
            Storage::Public
        };
        let gl = &mut self.prog.globals[g.index()];
        if fresh {
            gl.ty = ty;
            gl.init = init;
            gl.storage = storage;
        } else {
            // Merge `extern int a[]; int a[3] = {..};` and tentative definitions.
            if let (Ty::Array(_, None), Ty::Array(_, Some(_))) = (&gl.ty, &ty) {
                gl.ty = ty.clone();
            }
            if init.is_some() {
                if gl.init.is_some() {
                    return self.error(span, format!("'{name}' is defined twice"));
                }
                gl.init = init;
                gl.loc = loc;
            }
            if gl.storage == Storage::Extern && storage != Storage::Extern {
                gl.storage = storage;
                gl.loc = loc;
            }
        }
        Ok(())
    }

    /// Gives each global seqc named a name no other global, function or
    /// local has (C output and traces name objects by it; a local of the
    /// same name would hide it in the output).
    fn unique_made_names(&mut self) {
        if self.made_globals.is_empty() {
            return;
        }
        let made: HashSet<GlobalId> = self.made_globals.iter().copied().collect();
        let mut taken: HashSet<String> = HashSet::default();
        for (i, g) in self.prog.globals.iter().enumerate() {
            if !made.contains(&GlobalId(i as u32)) {
                taken.insert(g.name.clone());
            }
        }
        for f in &self.prog.functions {
            taken.insert(f.name.clone());
            taken.extend(f.locals.iter().map(|l| l.name.clone()));
        }
        for &g in &self.made_globals {
            let base = self.prog.globals[g.index()].name.clone();
            let mut n = base.clone();
            let mut i = 1;
            while taken.contains(&n) {
                n = format!("{base}_{i}");
                i += 1;
            }
            taken.insert(n.clone());
            self.prog.globals[g.index()].name = n;
        }
    }

    fn fresh_global_name(&self, base: &str) -> String {
        let mut n = base.to_string();
        let mut i = 1;
        while self.global_index.contains_key(&n) || self.func_index.contains_key(&n) {
            n = format!("{base}_{i}");
            i += 1;
        }
        n
    }

    pub(super) fn declare_function(
        &mut self,
        name: &str,
        sig: FnSig,
        is_static: bool,
        loc: Loc,
    ) -> FuncId {
        if let Some(&f) = self.func_index.get(name) {
            let func = &mut self.prog.functions[f.index()];
            // A prototype refines an unprototyped declaration.
            if func.sig.unprototyped && !sig.unprototyped {
                func.sig = sig;
            }
            return f;
        }
        self.func_index
            .insert(name.to_string(), FuncId(self.prog.functions.len() as u32));
        self.prog.functions.push(Function {
            name: name.to_string(),
            sig,
            params: Vec::new(),
            locals: Vec::new(),
            body: None,
            is_static,
            atomic: name.starts_with("__VERIFIER_atomic_")
                && name != "__VERIFIER_atomic_begin"
                && name != "__VERIFIER_atomic_end",
            loc,
            labels: Vec::new(),
        });
        FuncId(self.prog.functions.len() as u32 - 1)
    }

    fn function_definition(&mut self, fd: &'a Node<ast::FunctionDefinition>) -> Result<()> {
        let system = self.in_system(fd.span);
        let specs = self.decl_specs(&fd.node.specifiers, fd.span)?;
        let decl = self.declarator(specs.ty.clone(), &fd.node.declarator)?;
        let name = decl.name.clone().unwrap_or_default();
        let Ty::Func(sig) = &decl.ty else {
            let tagless = fd.node.specifiers.iter().any(|s| {
                matches!(&s.node, ast::DeclarationSpecifier::TypeSpecifier(t)
                    if matches!(&t.node, ast::TypeSpecifier::Struct(st)
                        if st.node.identifier.is_none() && st.node.declarations.is_none()))
            });
            if tagless {
                // lang-c reads `struct __attribute__((packed)) P { ... };`
                // as a function `P` returning a tagless struct.
                return self.unsupported(
                    fd.span,
                    "an attribute between 'struct' or 'union' and its tag (write it after the closing brace)",
                );
            }
            return self.error(
                fd.span,
                format!("'{name}' is defined with a body but is not a function"),
            );
        };
        if !fd.node.declarations.is_empty() {
            return self.unsupported(fd.span, "K&R-style function definition");
        }
        if system && self.defined.contains(&name) {
            // A library model (or a header body) after the input's own
            // definition: the input's wins.
            return Ok(());
        }
        let loc = self.loc(fd.node.declarator.span);
        let f = self.declare_function(&name, (**sig).clone(), specs.is_static, loc);
        self.prog.functions[f.index()].loc = loc;
        self.prog.functions[f.index()].sig = (**sig).clone();
        self.bind(name.clone(), Sym::Func(f));
        if !self.defined.insert(name.clone()) {
            return self.error(fd.span, format!("function '{name}' is defined twice"));
        }
        if calls::intercepted(&name) {
            // Calls of these never reach the definition (reach_error, ...).
            return Ok(());
        }
        // Static and inline functions (and everything from system headers;
        // SV-COMP .i files have no markers, so their header functions are
        // static inline ones) are lowered only when the program uses them.
        let inline = fd
            .node
            .specifiers
            .iter()
            .any(|s| matches!(s.node, ast::DeclarationSpecifier::Function(_)));
        if system || specs.is_static || inline {
            self.pending.insert(f, fd);
            return Ok(());
        }
        self.function_body(f, fd)
    }

    /// Marks a function as used; a header definition gets lowered.
    fn use_function(&mut self, f: FuncId) {
        if self.pending.contains_key(&f) && !self.queue.contains(&f) {
            self.queue.push(f);
        } else if self.prog.func(f).body.is_none() {
            self.used_early.push(f);
        }
    }

    fn function_body(&mut self, f: FuncId, fd: &'a Node<ast::FunctionDefinition>) -> Result<()> {
        let specs = self.decl_specs(&fd.node.specifiers, fd.span)?;
        let decl = self.declarator(specs.ty, &fd.node.declarator)?;
        let Ty::Func(sig) = decl.ty else {
            unreachable!()
        };
        let saved_fs = self.fs.take();
        self.fs = Some(FnState::new(f, sig.ret.clone()));
        // Function scope sees only file scope.
        let saved_scopes: Vec<_> = self.scopes.drain(1..).collect();
        let saved_named = self.named.split_off(self.named.partition_point(|&i| i < 1));
        let saved_tags: Vec<_> = self.tags.drain(1..).collect();
        self.push_scope();
        let mut params = Vec::new();
        for (i, p) in decl.params.unwrap_or_default().into_iter().enumerate() {
            let name = p.name.unwrap_or_else(|| format!("__p{i}"));
            let v = self.new_local(&name, p.ty, p.loc, false);
            self.bind(name, Sym::Local(v));
            params.push(v);
        }
        let mut body = self.lower_fn_body(&fd.node.statement);
        if let Ok(b) = &mut body
            && self.prog.func(f).name == "main"
        {
            let pro = self.main_prologue(&params, b, self.loc(fd.span));
            b.0.splice(0..0, pro);
        }
        self.pop_scope();
        self.scopes.extend(saved_scopes);
        self.named.extend(saved_named);
        self.tags.extend(saved_tags);
        let fs = std::mem::replace(&mut self.fs, saved_fs).unwrap();
        let body = body?;
        for (name, _) in fs.labels.iter() {
            if !fs.defined_labels.contains(name) {
                return self.error(fd.span, format!("label '{name}' is used but not defined"));
            }
        }
        let func = &mut self.prog.functions[f.index()];
        func.params = params;
        func.locals = fs.locals;
        func.labels = fs.label_names;
        func.body = Some(body);
        Ok(())
    }

    /// What C promises about main's parameters (C11 5.2.2.1.2): the back
    /// ends and the oracle call main with any `argc` and a null `argv`,
    /// and this prologue makes them a run's: `1 <= argc <= ARGS` (more
    /// arguments, or none at all, are runs seqc does not look at, which
    /// can only hide a bug), and, where main reads `argv`, `argv[i]`
    /// points to a string of up to ARG_LEN - 1 arbitrary bytes for
    /// `i < argc` and `argv[argc]` is null; `envp`, where read, is empty.
    fn main_prologue(&mut self, params: &[LocalId], body: &Block, loc: Loc) -> Vec<Stmt> {
        const ARGS: i128 = 3;
        const ARG_LEN: u64 = 2;
        // The draws keep main's own place, so that a trace shows them
        // (and a replay takes their values); the rest is generated.
        let draw = loc;
        let loc = loc.generated();
        let ty = |s: &Self, v: LocalId| s.fs.as_ref().unwrap().locals[v.index()].ty.clone();
        let used = |v: LocalId| {
            let mut hit = false;
            body.walk(&mut |s| {
                s.each_expr(&mut |e| {
                    e.walk(&mut |x| hit |= matches!(x.kind, ExprKind::Local(l) if l == v))
                })
            });
            hit
        };
        let mut out = Vec::new();
        let Some(&argc) = params.first().filter(|&&v| ty(self, v).is_integer()) else {
            return out;
        };
        let ct = ty(self, argc);
        let c = Expr::new(ExprKind::Local(argc), ct.clone(), loc);
        // Drawn here, where every route and the oracle see the same draw
        // (into a declaration, where CBMC's trace shows the draw).
        let d = self.new_local("__seqc_argc", ct.clone(), loc, true);
        let dv = Expr::new(ExprKind::Local(d), ct.clone(), loc);
        out.push(Stmt {
            kind: StmtKind::Decl(
                d,
                Some(Init::Expr(Expr::new(ExprKind::Nondet, ct.clone(), draw))),
            ),
            loc: draw,
        });
        out.push(assign(c.clone(), dv, loc));
        let range = bin(
            BinOp::LogAnd,
            cmp(BinOp::Ge, c.clone(), Expr::int(1, ct.clone(), loc), loc),
            cmp(BinOp::Le, c.clone(), Expr::int(ARGS, ct.clone(), loc), loc),
            Ty::INT,
            loc,
        );
        out.push(Stmt {
            kind: StmtKind::Assume(range),
            loc,
        });
        let vector = |s: &mut Self, out: &mut Vec<Stmt>, name: &str, n: u64| {
            let cp = Ty::CHAR.ptr();
            let v = s.new_local(name, Ty::Array(Box::new(cp.clone()), Some(n)), loc, true);
            out.push(Stmt {
                kind: StmtKind::Decl(v, None),
                loc,
            });
            Expr::new(ExprKind::Local(v), Ty::Array(Box::new(cp), Some(n)), loc)
        };
        let at = |a: &Expr, i: i128| index(a.clone(), Expr::int(i, Ty::INT, loc), loc);
        let first = |a: &Expr| cast(addr_of(at(a, 0), loc), Ty::CHAR.ptr().ptr(), loc);
        if let Some(&argv) = params
            .get(1)
            .filter(|&&v| ty(self, v).is_pointer() && used(v))
        {
            let row = Ty::Array(Box::new(Ty::CHAR), Some(ARG_LEN));
            let all = Ty::Array(Box::new(row.clone()), Some(ARGS as u64));
            let sv = self.new_local("__seqc_args", all.clone(), loc, true);
            out.push(Stmt {
                kind: StmtKind::Decl(sv, None),
                loc,
            });
            let strs = Expr::new(ExprKind::Local(sv), all, loc);
            let vec = vector(self, &mut out, "__seqc_argv", ARGS as u64 + 1);
            for i in 0..ARGS {
                let s = index(strs.clone(), Expr::int(i, Ty::INT, loc), loc);
                for j in 0..ARG_LEN as i128 {
                    let ch = index(s.clone(), Expr::int(j, Ty::INT, loc), loc);
                    out.push(if j + 1 < ARG_LEN as i128 {
                        assign(ch, Expr::new(ExprKind::Nondet, Ty::CHAR, draw), draw)
                    } else {
                        assign(ch, Expr::int(0, Ty::CHAR, loc), loc)
                    });
                }
                let p = cast(
                    addr_of(index(s, Expr::int(0, Ty::INT, loc), loc), loc),
                    Ty::CHAR.ptr(),
                    loc,
                );
                out.push(if_(
                    cmp(BinOp::Gt, c.clone(), Expr::int(i, ct.clone(), loc), loc),
                    vec![assign(at(&vec, i), p, loc)],
                    vec![assign(at(&vec, i), Expr::int(0, Ty::CHAR.ptr(), loc), loc)],
                    loc,
                ));
            }
            out.push(assign(
                at(&vec, ARGS),
                Expr::int(0, Ty::CHAR.ptr(), loc),
                loc,
            ));
            let at_ty = ty(self, argv);
            let lhs = Expr::new(ExprKind::Local(argv), at_ty.clone(), loc);
            out.push(assign(lhs, cast(first(&vec), at_ty, loc), loc));
        }
        if let Some(&envp) = params
            .get(2)
            .filter(|&&v| ty(self, v).is_pointer() && used(v))
        {
            let vec = vector(self, &mut out, "__seqc_envp", 1);
            out.push(assign(at(&vec, 0), Expr::int(0, Ty::CHAR.ptr(), loc), loc));
            let et = ty(self, envp);
            let lhs = Expr::new(ExprKind::Local(envp), et.clone(), loc);
            out.push(assign(lhs, cast(first(&vec), et, loc), loc));
        }
        out
    }

    fn lower_fn_body(&mut self, s: &'a Node<ast::Statement>) -> Result<Block> {
        match &s.node {
            ast::Statement::Compound(items) => {
                for it in items {
                    self.block_item(it)?;
                }
            }
            _ => self.statement(s)?,
        }
        let fs = self.fs.as_mut().unwrap();
        Ok(Block(fs.blocks.pop().unwrap()))
    }

    // ---- function-body helpers ----

    fn fs(&mut self) -> &mut FnState {
        self.fs.as_mut().expect("inside a function body")
    }

    /// A new local; its name is made unique within the function and
    /// distinct from every global and function name.
    fn new_local(&mut self, name: &str, ty: Ty, loc: Loc, temp: bool) -> LocalId {
        let taken = |s: &Self, n: &str| {
            s.fs.as_ref().unwrap().names.contains(n)
                || s.global_index.contains_key(n)
                || s.func_index.contains_key(n)
        };
        let mut n = name.to_string();
        if taken(self, &n) {
            let mut i = self
                .fs
                .as_ref()
                .unwrap()
                .suffix
                .get(name)
                .copied()
                .unwrap_or(1);
            loop {
                n = format!("{name}_{i}");
                i += 1;
                if !taken(self, &n) {
                    break;
                }
            }
            self.fs().suffix.insert(name.to_string(), i);
        }
        let fs = self.fs();
        fs.names.insert(n.clone());
        fs.locals.push(Local {
            name: n,
            ty,
            loc,
            temp,
        });
        LocalId(fs.locals.len() as u32 - 1)
    }

    /// A temporary holding a value of `ty`, declared at the current point.
    fn temp(&mut self, ty: Ty, loc: Loc) -> Expr {
        let fs = self.fs();
        fs.temps += 1;
        let n = format!("__t{}", fs.temps);
        let ty = ty.unqual().clone();
        let v = self.new_local(&n, ty.clone(), loc.generated(), true);
        self.emit(StmtKind::Decl(v, None), loc.generated());
        Expr::new(ExprKind::Local(v), ty, loc.generated())
    }

    fn emit(&mut self, kind: StmtKind, loc: Loc) {
        self.fs()
            .blocks
            .last_mut()
            .unwrap()
            .push(Stmt { kind, loc });
    }

    /// An operation with no operands and no result (an atomic section's
    /// begin or end, an abort).
    fn emit_op0(&mut self, op: Op, loc: Loc) {
        let args = vec![];
        self.emit(
            StmtKind::Op {
                dest: None,
                op,
                args,
            },
            loc,
        );
    }

    /// Runs `f` collecting the statements it emits into a block of their own.
    fn collect<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<(Block, T)> {
        self.fs().blocks.push(Vec::new());
        let r = f(self);
        let b = Block(self.fs().blocks.pop().unwrap());
        Ok((b, r?))
    }

    fn label(&mut self, name: &str) -> LabelId {
        let fs = self.fs();
        if let Some(l) = fs.labels.get(name) {
            return *l;
        }
        let id = LabelId(fs.label_names.len() as u32);
        fs.label_names.push(name.to_string());
        fs.labels.insert(name.to_string(), id);
        id
    }

    fn local_declaration(
        &mut self,
        name: String,
        mut ty: Ty,
        id: &'a Node<ast::InitDeclarator>,
        loc: Loc,
    ) -> Result<()> {
        if let Ty::Array(_, None) = ty
            && id.node.initializer.is_none()
        {
            return self.error(id.span, format!("array '{name}' has no size"));
        }
        // The name is in scope in its own initialiser (C11 6.2.1p7:
        // `struct node *n = malloc(sizeof *n);`) unless the initialiser
        // completes the type (`int a[] = {...}`).
        let early = if self.prog.size_of(&ty).is_some() {
            let v = self.new_local(&name, ty.clone(), loc, false);
            self.bind(name.clone(), Sym::Local(v));
            Some(v)
        } else {
            None
        };
        let init = match &id.node.initializer {
            Some(i) => {
                let (init, fixed) = self.initializer(&ty, i, false)?;
                ty = fixed;
                Some(init)
            }
            None => None,
        };
        if self.prog.size_of(&ty).is_none() {
            return self.incomplete(
                id.span,
                &ty,
                format!("variable '{name}' has an incomplete type"),
            );
        }
        // An uninitialised `_Bool` holds 0 or 1 (any value of its type,
        // DESIGN.md §2); the backends would start it at any byte.
        let init = match init {
            None if *ty.unqual() == Ty::Bool => {
                Some(Init::Expr(Expr::new(ExprKind::Nondet, Ty::Bool, loc)))
            }
            i => i,
        };
        let v = match early {
            Some(v) => v,
            None => {
                let v = self.new_local(&name, ty, loc, false);
                self.bind(name, Sym::Local(v));
                v
            }
        };
        self.emit(StmtKind::Decl(v, init), loc);
        Ok(())
    }

    /// `T a[e];` in a block: `e` is evaluated, and `a` points to a fresh
    /// heap object of that many elements, as `T *a = malloc(e * sizeof(T))`
    /// would (C11 6.7.6.2p5: the size is evaluated each time the
    /// declaration is reached). `sizeof a` is the run-time size. A size
    /// that is not positive is undefined, and one above 1 MiB would
    /// overflow a real stack: such a run stops the thread there (an
    /// approximation that can only hide a bug). The object outlives its
    /// block, which an assertion cannot tell apart.
    fn local_vla(
        &mut self,
        name: String,
        ty: Ty,
        id: &'a Node<ast::InitDeclarator>,
        size: &'a Node<ast::Expression>,
        loc: Loc,
    ) -> Result<()> {
        if id.node.initializer.is_some() {
            return self.error(
                id.span,
                format!("the variable-length array '{name}' cannot be initialised"),
            );
        }
        let Ty::Array(elem, None) = ty else {
            unreachable!("declarator keeps a run-time size only for an array")
        };
        let elem = *elem;
        let Some(esz) = self.prog.size_of(&elem).filter(|&n| n > 0) else {
            return self.error(
                id.span,
                format!("array '{name}' has an incomplete element type"),
            );
        };
        let n = self.rvalue(size)?;
        if !n.ty.is_integer() {
            return self.error(size.span, "the array size is not an integer");
        }
        let gl = loc.generated();
        let t = self.temp(n.ty.clone(), loc);
        self.emit(StmtKind::Assign(t.clone(), n), gl);
        let ul = Ty::ULONG;
        let limit = ((1u64 << 20) / esz).max(1);
        let pos = cmp(BinOp::Gt, t.clone(), Expr::int(0, t.ty.clone(), gl), gl);
        // Compared at 64 bits, so no size wider than size_t wraps into range.
        let ull = Ty::Int(IntKind::ULongLong);
        let small = cmp(
            BinOp::Le,
            cast(t.clone(), ull.clone(), gl),
            Expr::int(limit as i128, ull, gl),
            gl,
        );
        self.emit(
            StmtKind::Assume(bin(BinOp::LogAnd, pos, small, Ty::INT, gl)),
            gl,
        );
        let count = self.temp(ul.clone(), loc);
        self.emit(StmtKind::Assign(count.clone(), cast(t, ul.clone(), gl)), gl);
        let bytes = bin(
            BinOp::Mul,
            count.clone(),
            Expr::int(esz as i128, ul.clone(), gl),
            ul.clone(),
            gl,
        );
        let m = self.op(
            Op::Malloc,
            vec![bytes],
            Some(Ty::Void.ptr()),
            expr::Want::Value,
            loc,
        );
        let pty = elem.clone().ptr();
        let init = self.convert(m, &pty);
        let v = self.new_local(&name, pty, loc, false);
        self.emit(StmtKind::Decl(v, Some(Init::Expr(init))), loc);
        let ExprKind::Local(count) = count.kind else {
            unreachable!("a temporary is a local")
        };
        self.bind(
            name,
            Sym::Vla {
                ptr: v,
                count,
                elem,
            },
        );
        Ok(())
    }

    /// The variable-length array `e` names, if it is one: its element
    /// count and element type.
    fn vla_named(&self, e: &ast::Expression) -> Option<(LocalId, Ty)> {
        let ast::Expression::Identifier(id) = e else {
            return None;
        };
        match self.lookup(&id.node.name) {
            Some(Sym::Vla { count, elem, .. }) => Some((*count, elem.clone())),
            _ => None,
        }
    }

    // ---- the end: keep what is used ----

    /// Drops header declarations the program never uses and renumbers.
    fn finish(self) -> Result<Program> {
        let Lowerer {
            mut prog,
            map,
            folded,
            ..
        } = self;
        let mut keep_f = vec![false; prog.functions.len()];
        let mut keep_g = vec![false; prog.globals.len()];
        let mut work_f: Vec<usize> = Vec::new();
        let mut work_g: Vec<usize> = Vec::new();
        for (i, f) in prog.functions.iter().enumerate() {
            if f.body.is_some() && !map.is_system(f.loc.file) {
                keep_f[i] = true;
                work_f.push(i);
            }
        }
        for (i, g) in prog.globals.iter().enumerate() {
            if !map.is_system(g.loc.file) && g.storage != Storage::Extern {
                keep_g[i] = true;
                work_g.push(i);
            }
        }
        let refs = |e: &Expr, fs: &mut Vec<usize>, gs: &mut Vec<usize>| {
            e.walk(&mut |x| match x.kind {
                ExprKind::Func(f) => fs.push(f.index()),
                ExprKind::Global(g) => gs.push(g.index()),
                _ => {}
            })
        };
        while !work_f.is_empty() || !work_g.is_empty() {
            let mut nf = Vec::new();
            let mut ng = Vec::new();
            for i in work_f.drain(..) {
                if let Some(b) = &prog.functions[i].body {
                    b.walk(&mut |s| s.each_expr(&mut |e| refs(e, &mut nf, &mut ng)));
                }
            }
            for i in work_g.drain(..) {
                if let Some(init) = &prog.globals[i].init {
                    let mut es = Vec::new();
                    init.exprs(&mut es);
                    for e in es {
                        refs(e, &mut nf, &mut ng);
                    }
                }
            }
            for f in nf {
                if !keep_f[f] {
                    keep_f[f] = true;
                    work_f.push(f);
                }
            }
            for g in ng {
                if !keep_g[g] {
                    keep_g[g] = true;
                    work_g.push(g);
                }
            }
        }
        // New ids by old index (u32::MAX: dropped, never referenced by
        // what is kept).
        let mut fmap = vec![u32::MAX; keep_f.len()];
        let mut gmap = vec![u32::MAX; keep_g.len()];
        let mut out = Program::new(prog.data_model);
        out.files = std::mem::take(&mut prog.files);
        out.system_files = std::mem::take(&mut prog.system_files);
        out.pthread = prog.pthread;
        out.pthread_layout = std::mem::take(&mut prog.pthread_layout);
        // Moved, not cloned: a copy of every body doubled the memory lowering
        // touches.
        for (i, f) in std::mem::take(&mut prog.functions).into_iter().enumerate() {
            if keep_f[i] {
                fmap[i] = out.functions.len() as u32;
                out.functions.push(f);
            }
        }
        for (i, g) in std::mem::take(&mut prog.globals).into_iter().enumerate() {
            if keep_g[i] {
                gmap[i] = out.globals.len() as u32;
                out.globals.push(g);
            }
        }
        let remap = |e: &mut Expr| match &mut e.kind {
            ExprKind::Func(f) => *f = FuncId(fmap[f.index()]),
            ExprKind::Global(g) => *g = GlobalId(gmap[g.index()]),
            _ => {}
        };
        crate::par::each_mut(&mut out.functions, |f| {
            if let Some(b) = &mut f.body {
                b.walk_exprs_mut(&mut |e| e.walk_mut(&mut |x| remap(x)));
            }
        });
        for g in &mut out.globals {
            if let Some(init) = &mut g.init {
                init.walk_exprs_mut(&mut |e| e.walk_mut(&mut |x| remap(x)));
            }
        }
        // Keep composite types as they are (ids stable); the back ends print
        // only those the program reaches.
        out.comps = prog.comps;
        // A layout no route can follow is refused where the program uses
        // the type: old glibc's `union wait` (an unnamed bit-field) sits in
        // many preprocessed tasks that never use it.
        let mut seen = vec![false; out.comps.len()];
        let mut used = Vec::new();
        for t in out.globals.iter().map(|g| &g.ty).chain(&folded) {
            out.visit_comps(t, &mut seen, &mut used);
        }
        for f in &out.functions {
            out.comps_of(f, &mut seen, &mut used);
        }
        used.sort();
        for c in used {
            let loc = out.comp(c).loc;
            if map.is_system(loc.file) {
                continue;
            }
            if let Err(why) = out.bit_fields_exact(c) {
                let (f, l, col) = map.loc_position(loc);
                return Err(Diagnostic::unsupported(why).at(f, l, col));
            }
        }
        Ok(out)
    }
}
