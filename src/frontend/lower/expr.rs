//! Expressions: typing, conversions, and moving side effects into
//! statements.

use super::arith::{promote, usual};
use super::consts::eval;
use super::{FnState, Lowerer, Sym};
use crate::diag::Result;
use crate::ir::*;
use lang_c::ast;
use lang_c::span::Node;

/// Whether a value is wanted from an expression, or only its effects.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    Value,
    Effect,
}

impl<'a> Lowerer<'a> {
    /// Lowers `e` where no statement may be emitted (file-scope
    /// initialisers, array sizes): a constant or address expression.
    pub(super) fn pure_expr(&mut self, e: &'a Node<ast::Expression>) -> Result<Expr> {
        match self.effect_free_expr(e)? {
            Some(x) => Ok(x),
            None => self.error(
                e.span,
                "expected a constant expression (this one has side effects)",
            ),
        }
    }

    /// `e` lowered where no statement may be emitted, or `None` when it
    /// has side effects.
    pub(super) fn effect_free_expr(
        &mut self,
        e: &'a Node<ast::Expression>,
    ) -> Result<Option<Expr>> {
        let (b, x) = self.in_scratch(|s| s.collect(|s| s.rvalue(e)))?;
        Ok(b.0.is_empty().then_some(x))
    }

    /// The type of an expression, without evaluating it (`sizeof`, `typeof`).
    pub(super) fn type_of_expr(&mut self, e: &'a Node<ast::Expression>) -> Result<Ty> {
        if self.vla_named(&e.node).is_some() {
            return self.unsupported(e.span, "the type of a variable-length array");
        }
        let (_, x) = self.in_scratch(|s| s.collect(|s| s.expr(e, Want::Value)))?;
        Ok(x.ty)
    }

    /// Runs `f` inside the current function, or outside any function in a
    /// scratch state whose temporaries are dropped.
    fn in_scratch<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.fs.is_some() {
            return f(self);
        }
        self.fs = Some(FnState::scratch());
        let r = f(self);
        self.fs = None;
        r
    }

    /// An rvalue: arrays decay, functions become pointers.
    pub(super) fn rvalue(&mut self, e: &'a Node<ast::Expression>) -> Result<Expr> {
        let x = self.expr(e, Want::Value)?;
        Ok(self.value(x))
    }

    /// Value conversion of an lowered expression (C11 6.3.2.1).
    pub(super) fn value(&mut self, x: Expr) -> Expr {
        match x.ty.unqual().clone() {
            Ty::Array(elem, _) => {
                let loc = x.loc;
                Expr::new(ExprKind::Decay(Box::new(x)), Ty::Ptr(elem), loc)
            }
            Ty::Func(sig) => {
                let loc = x.loc;
                Expr::new(ExprKind::AddrOf(Box::new(x)), Ty::Func(sig).ptr(), loc)
            }
            _ => {
                let dm = self.prog.data_model;
                let int_bits = Ty::INT.int_bits(dm).unwrap_or(32);
                match self.bit_field_width(&x) {
                    // A bit-field narrower than int is read as an int (C11
                    // 6.3.1.1p2, gcc for every integer type): `u:31` + 1 is
                    // int arithmetic, and may overflow.
                    Some(w) if w < int_bits => self.convert(x, &Ty::INT),
                    // As wide as int in a wider type (`unsigned long u :
                    // 32`): gcc computes in int or unsigned int, whichever
                    // holds every value (`u - 1` wraps at 2^32).
                    Some(w) if w == int_bits && x.ty.int_bits(dm).is_some_and(|b| b > int_bits) => {
                        let t = if x.ty.is_signed() { Ty::INT } else { Ty::UINT };
                        self.convert(x, &t)
                    }
                    _ => x,
                }
            }
        }
    }

    /// The width of the bit-field `x` names, if it names one.
    fn bit_field_width(&self, x: &Expr) -> Option<u32> {
        let ExprKind::Member(a, fi) = &x.kind else {
            return None;
        };
        let Ty::Comp(c) = a.ty.unqual() else {
            return None;
        };
        self.prog.comp(*c).fields.get(*fi as usize)?.bit_width
    }

    /// Converts to `to` (a cast node when the types differ).
    pub(super) fn convert(&self, x: Expr, to: &Ty) -> Expr {
        let to = to.unqual();
        if x.ty.unqual() == to {
            return x;
        }
        let loc = x.loc;
        // Constants fold right away, so the output reads `1L`-free.
        if let ExprKind::Int(v) = x.kind
            && to.is_integer()
        {
            return Expr::int(
                super::consts::wrap(v, to, self.prog.data_model),
                to.clone(),
                loc,
            );
        }
        Expr::new(ExprKind::Cast(Box::new(x)), to.clone(), loc)
    }

    /// A scalar used as a condition.
    pub(super) fn cond_expr(&mut self, e: &'a Node<ast::Expression>) -> Result<Expr> {
        let x = self.rvalue(e)?;
        if !x.ty.is_scalar() {
            return self.error(e.span, "a condition must have scalar type");
        }
        Ok(x)
    }

    fn bool_not(&self, x: Expr) -> Expr {
        let loc = x.loc;
        Expr::new(ExprKind::Unary(UnOp::LogNot, Box::new(x)), Ty::INT, loc)
    }

    pub(super) fn negate(&self, x: Expr) -> Expr {
        self.bool_not(x)
    }

    /// Lowers an expression; side effects are emitted as statements before
    /// the returned expression is evaluated.
    pub(super) fn expr(&mut self, e: &'a Node<ast::Expression>, want: Want) -> Result<Expr> {
        let loc = self.loc(e.span);
        match &e.node {
            ast::Expression::Identifier(id) => self.identifier(id),
            ast::Expression::Constant(c) => self.constant(c),
            ast::Expression::StringLiteral(s) => self.string_literal(s),
            ast::Expression::Member(m) => {
                let base = match m.node.operator.node {
                    ast::MemberOperator::Direct => {
                        let b = self.expr(&m.node.expression, Want::Value)?;
                        if b.is_lvalue() {
                            b
                        } else {
                            // `f().x`: materialise the struct.
                            let t = self.temp(b.ty.clone(), loc);
                            self.emit(StmtKind::Assign(t.clone(), b), loc);
                            t
                        }
                    }
                    ast::MemberOperator::Indirect => {
                        let p = self.rvalue(&m.node.expression)?;
                        self.deref(p, e)?
                    }
                };
                self.member(base, &m.node.identifier.node.name, e)
            }
            ast::Expression::Call(c) => self.call(c, e, want),
            ast::Expression::CompoundLiteral(cl) => {
                let ty = self.type_name(&cl.node.type_name)?;
                // At file scope it is an object of static storage (C11
                // 6.5.2.5p5), initialised by constants as any such object.
                if self.fs().func == FuncId(u32::MAX) {
                    return self.static_literal(ty, cl, loc);
                }
                let (init, ty) =
                    self.init_top_list(&ty, &cl.node.initializer_list, cl.span, false)?;
                let t = self.temp(ty, loc);
                let ExprKind::Local(v) = t.kind else {
                    unreachable!()
                };
                // Replace the bare declaration by one with the initialiser.
                let fs = self.fs();
                let last = fs.blocks.last_mut().unwrap();
                last.pop();
                last.push(Stmt {
                    kind: StmtKind::Decl(v, Some(init)),
                    loc: loc.generated(),
                });
                Ok(t)
            }
            ast::Expression::SizeOfTy(s) => {
                let ty = self.type_name(&s.node.0)?;
                self.sizeof(&ty, e)
            }
            ast::Expression::SizeOfVal(s) => {
                if let Some((count, elem)) = self.vla_named(&s.node.0.node) {
                    let esz = self.prog.size_of(&elem).unwrap_or(1);
                    let n = Expr::new(ExprKind::Local(count), Ty::ULONG, loc);
                    let w = Expr::int(esz as i128, Ty::ULONG, loc);
                    return Ok(crate::ir::build::bin(BinOp::Mul, n, w, Ty::ULONG, loc));
                }
                let ty = self.type_of_expr(&s.node.0)?;
                self.sizeof(&ty, e)
            }
            ast::Expression::AlignOf(a) => {
                let ty = self.type_name(&a.node.0)?;
                self.folded.push(ty.clone());
                // `__alignof__` (GNU) asks for the preferred alignment,
                // `_Alignof` for the one the ABI requires.
                let gnu = self.src[e.span.start..].starts_with("__alignof");
                let align = if gnu {
                    self.prog.preferred_align_of(&ty)
                } else {
                    self.prog.align_of(&ty)
                };
                match align {
                    Some(n) => {
                        self.note_layout(&ty, "_Alignof", n, loc, |q, t| {
                            if gnu {
                                q.preferred_align_of(t)
                            } else {
                                q.align_of(t)
                            }
                        });
                        Ok(Expr::int(n as i128, Ty::ULONG, loc))
                    }
                    None => self.error(e.span, "_Alignof of an incomplete type"),
                }
            }
            ast::Expression::UnaryOperator(u) => self.unary(u, e, want),
            ast::Expression::Cast(c) => {
                let ty = self.type_name(&c.node.type_name)?;
                if ty.is_void() {
                    self.discard(&c.node.expression)?;
                    return Ok(Expr::int(0, Ty::Void, loc));
                }
                let x = self.rvalue(&c.node.expression)?;
                if !ty.is_scalar() && ty.unqual() != x.ty.unqual() {
                    return self.unsupported(e.span, "cast to a non-scalar type");
                }
                let mut r = self.convert(x, &ty);
                r.loc = loc;
                Ok(r)
            }
            ast::Expression::BinaryOperator(b) => self.binary(b, e, want),
            ast::Expression::Conditional(c) => self.conditional(c, e, want),
            ast::Expression::Comma(items) => {
                let n = items.len();
                for it in &items[..n - 1] {
                    self.discard(it)?;
                }
                // The result is a value: `sizeof (0, a)` is a pointer's.
                // Only arrays and functions convert: a bit-field keeps
                // its type (`sizeof (0, s.bf)` is its declared type's).
                let x = self.expr(&items[n - 1], want)?;
                Ok(match x.ty.unqual() {
                    Ty::Array(..) | Ty::Func(_) if want == Want::Value => self.value(x),
                    _ => x,
                })
            }
            ast::Expression::OffsetOf(o) => {
                let ty = self.type_name(&o.node.type_name)?;
                self.folded.push(ty.clone());
                let mut off = 0u64;
                let mut steps: Vec<(CompId, u32)> = Vec::new();
                let whole = ty.clone();
                let mut cur = ty;
                let mut path = vec![&o.node.designator.node.base.node.name];
                for m in &o.node.designator.node.members {
                    match &m.node {
                        ast::OffsetMember::Member(i) => path.push(&i.node.name),
                        _ => return self.unsupported(m.span, "offsetof with array indices"),
                    }
                }
                for name in path {
                    let Ty::Comp(c) = cur.unqual().clone() else {
                        return self.error(e.span, "offsetof of a non-struct type");
                    };
                    let Some(chain) = self.find_field(c, name) else {
                        return self.error(e.span, format!("no field '{name}'"));
                    };
                    for (cc, idx) in chain {
                        let (offs, _, _) = self.prog.comp_layout(cc).unwrap();
                        off += offs[idx as usize];
                        cur = self.prog.comp(cc).fields[idx as usize].ty.clone();
                        steps.push((cc, idx));
                    }
                }
                self.note_layout(&whole, "offsetof", off, loc, |q, _| {
                    steps
                        .iter()
                        .map(|&(cc, idx)| q.comp_layout(cc).map(|l| l.0[idx as usize]))
                        .sum()
                });
                Ok(Expr::int(off as i128, Ty::ULONG, loc))
            }
            ast::Expression::VaArg(_) => self.unsupported(e.span, "va_arg"),
            ast::Expression::GenericSelection(g) => {
                let t = self.type_of_expr(&g.node.expression)?;
                let t = self.value(Expr::int(0, t, loc)).ty.unqual().clone();
                // seqc's types keep no `const`/`volatile`, on which C's
                // choice depends (`const int *` is not `int *`, and no
                // qualified type matches the converted operand).
                let has_ptr = |t: &Ty| {
                    let mut t = t;
                    loop {
                        match t.unqual() {
                            Ty::Ptr(_) => return true,
                            Ty::Array(e, _) => t = e,
                            _ => return false,
                        }
                    }
                };
                for a in &g.node.associations {
                    if let ast::GenericAssociation::Type(ta) = &a.node {
                        let tn = &ta.node.type_name;
                        let at = self.type_name(tn)?;
                        if self.qualified_type_name(&tn.node) || (has_ptr(&t) && has_ptr(&at)) {
                            return self.unsupported(
                                tn.span,
                                "_Generic with qualified or pointer types (seqc's types keep no const or volatile, which the choice depends on)",
                            );
                        }
                    }
                }
                let mut default = None;
                for a in &g.node.associations {
                    match &a.node {
                        ast::GenericAssociation::Type(ta) => {
                            let at = self.type_name(&ta.node.type_name)?;
                            if at.unqual() == &t {
                                return self.expr(&ta.node.expression, want);
                            }
                        }
                        ast::GenericAssociation::Default(d) => default = Some(d),
                    }
                }
                match default {
                    Some(d) => self.expr(d, want),
                    None => self.error(e.span, "no _Generic association matches"),
                }
            }
            ast::Expression::Statement(s) => self.statement_expr(s, loc, want),
        }
        .map(|mut x| {
            if x.loc == Loc::NONE {
                x.loc = loc;
            }
            x
        })
    }

    fn sizeof(&mut self, ty: &Ty, e: &Node<ast::Expression>) -> Result<Expr> {
        self.folded.push(ty.clone());
        match self.prog.size_of(ty) {
            Some(n) if !matches!(ty, Ty::Void) => {
                let loc = self.loc(e.span);
                self.note_layout(ty, "sizeof", n, loc, |q, t| q.size_of(t));
                Ok(Expr::int(n as i128, Ty::ULONG, loc))
            }
            _ => self.incomplete(e.span, ty, "sizeof of an incomplete type"),
        }
    }

    /// Records a constant folded from the layout of `ty` when that holds
    /// a pthread object (`Program::pthread_layout`); `value` computes it
    /// on the retyped comps.
    pub(super) fn note_layout(
        &mut self,
        ty: &Ty,
        what: &'static str,
        glibc: u64,
        loc: Loc,
        value: impl Fn(&Program, &Ty) -> Option<u64>,
    ) {
        if !self.prog.holds_pthread(ty) {
            return;
        }
        // A comp may also have been completed since.
        let shape = |p: &Program| (p.comps.len(), p.comps.iter().filter(|c| c.complete).count());
        let now = shape(&self.prog);
        if self.retyped.as_ref().is_none_or(|q| shape(q) != now) {
            let mut q = Program::new(self.prog.data_model);
            q.comps = self.prog.comps.clone();
            for c in &mut q.comps {
                for f in &mut c.fields {
                    f.ty = crate::ir::pthread_retyped(&f.ty);
                }
            }
            self.retyped = Some(q);
        }
        let q = self.retyped.as_ref().unwrap();
        let retyped = value(q, &crate::ir::pthread_retyped(ty)).unwrap_or(glibc);
        self.prog.pthread_layout.push(crate::ir::LayoutUse {
            loc,
            what,
            glibc,
            retyped,
            harmless: self.alloc_args > 0,
        });
    }

    fn identifier(&mut self, id: &Node<ast::Identifier>) -> Result<Expr> {
        let loc = self.loc(id.span);
        let name = &id.node.name;
        match self.lookup(name).cloned() {
            Some(Sym::Local(v)) => {
                let ty = self.fs.as_ref().unwrap().locals[v.index()].ty.clone();
                Ok(Expr::new(ExprKind::Local(v), ty, loc))
            }
            Some(Sym::Global(g)) => {
                let ty = self.prog.global(g).ty.clone();
                Ok(Expr::new(ExprKind::Global(g), ty, loc))
            }
            Some(Sym::Func(f)) => {
                let func = self.prog.func(f);
                if func.name == "main" && !func.sig.params.is_empty() {
                    // main's prologue draws the program's arguments on
                    // every entry (`main_prologue`).
                    return self.unsupported(
                        id.span,
                        "main used by the program itself (a call of main with arguments)",
                    );
                }
                if !self.direct_callee
                    && !self.user_defined(f)
                    && super::calls::modelled_by_name(name)
                {
                    return self.unsupported(
                        id.span,
                        format!(
                            "the address of '{name}' (seqc gives meaning to its calls by name; a call through a pointer would lose it)"
                        ),
                    );
                }
                if !self.direct_callee
                    && !self.input_defs.contains(name)
                    && self.weak_undefined.contains(name)
                {
                    return self.unsupported(
                        id.span,
                        format!(
                            "the address of '{name}', declared weak and not defined (its address would be null)"
                        ),
                    );
                }
                self.use_function(f);
                let sig = self.prog.func(f).sig.clone();
                Ok(Expr::new(ExprKind::Func(f), Ty::Func(Box::new(sig)), loc))
            }
            Some(Sym::Vla { ptr, elem, .. }) => {
                Ok(Expr::new(ExprKind::Local(ptr), elem.ptr(), loc))
            }
            Some(Sym::EnumConst(v)) => Ok(Expr::int(v, Ty::INT, loc)),
            Some(Sym::Typedef(_)) => {
                self.error(id.span, format!("'{name}' is a type, not a value"))
            }
            // The declaration's own error, where it is (a use only
            // brings it out).
            Some(Sym::Poisoned(d)) if d.pos.is_some() => Err(d),
            Some(Sym::Poisoned(d)) => Err(self.err(id.span, d)),
            None => {
                if name == "__func__" || name == "__FUNCTION__" || name == "__PRETTY_FUNCTION__" {
                    let fname = self
                        .fs
                        .as_ref()
                        .and_then(|fs| self.prog.functions.get(fs.func.index()))
                        .map(|f| f.name.clone())
                        .unwrap_or_default();
                    let mut bytes = fname.into_bytes();
                    bytes.push(0);
                    let n = bytes.len() as u64;
                    return Ok(Expr::new(
                        ExprKind::Str(bytes),
                        Ty::Array(Box::new(Ty::CHAR), Some(n)),
                        loc,
                    ));
                }
                self.error(id.span, format!("'{name}' is not declared"))
            }
        }
    }

    /// `*p` as an lvalue. A function pointer dereferences to itself.
    pub(super) fn deref(&mut self, p: Expr, e: &Node<ast::Expression>) -> Result<Expr> {
        let loc = self.loc(e.span);
        match p.ty.unqual().clone() {
            Ty::Ptr(t) => {
                if let Ty::Func(_) = *t {
                    return Ok(p);
                }
                if t.is_void() {
                    return self.error(e.span, "dereferencing a 'void *' pointer");
                }
                Ok(Expr::new(ExprKind::Deref(Box::new(p)), *t, loc))
            }
            _ => self.error(e.span, "dereferencing a value that is not a pointer"),
        }
    }

    /// The chain of (struct, field index) reaching `name`, through
    /// anonymous members.
    pub(super) fn find_field(&self, c: CompId, name: &str) -> Option<Vec<(CompId, u32)>> {
        let def = self.prog.comp(c);
        for (i, f) in def.fields.iter().enumerate() {
            if f.name == name {
                return Some(vec![(c, i as u32)]);
            }
        }
        for (i, f) in def.fields.iter().enumerate() {
            if f.name.is_empty()
                && let Ty::Comp(inner) = f.ty.unqual()
                && let Some(mut rest) = self.find_field(*inner, name)
            {
                rest.insert(0, (c, i as u32));
                return Some(rest);
            }
        }
        None
    }

    pub(super) fn member(
        &mut self,
        base: Expr,
        name: &str,
        e: &Node<ast::Expression>,
    ) -> Result<Expr> {
        let loc = self.loc(e.span);
        let Ty::Comp(c) = base.ty.unqual().clone() else {
            return self.error(
                e.span,
                format!("request for member '{name}' in something that is not a struct or union"),
            );
        };
        if !self.prog.comp(c).complete {
            return self.incomplete(
                e.span,
                &Ty::Comp(c),
                format!("'{}' is incomplete", self.prog.comp(c).name),
            );
        }
        let Some(chain) = self.find_field(c, name) else {
            return self.error(
                e.span,
                format!("'{}' has no member named '{name}'", self.prog.comp(c).name),
            );
        };
        let mut x = base;
        for (cc, idx) in chain {
            let ty = self.prog.comp(cc).fields[idx as usize].ty.clone();
            x = Expr::new(ExprKind::Member(Box::new(x), idx), ty, loc);
        }
        Ok(x)
    }

    /// `a[i]` for an array lvalue or a pointer.
    pub(super) fn index(
        &mut self,
        a: &'a Node<ast::Expression>,
        i: &'a Node<ast::Expression>,
        e: &Node<ast::Expression>,
    ) -> Result<Expr> {
        let loc = self.loc(e.span);
        let mut base = self.expr(a, Want::Value)?;
        let mut idx = self.rvalue(i)?;
        if base.ty.is_integer() {
            // `i[a]`
            std::mem::swap(&mut base, &mut idx);
        }
        if !idx.ty.is_integer() {
            return self.error(e.span, "array subscript is not an integer");
        }
        let idx_ty = promote(&idx.ty);
        let idx = self.convert(idx, &idx_ty);
        match base.ty.unqual().clone() {
            Ty::Array(elem, _) if base.is_lvalue() => Ok(Expr::new(
                ExprKind::Index(Box::new(base), Box::new(idx)),
                *elem,
                loc,
            )),
            _ => {
                let p = self.value(base);
                if !p.ty.is_pointer() {
                    return self.error(e.span, "subscripted value is neither array nor pointer");
                }
                let sum = self.ptr_arith(BinOp::PtrAdd, p, idx, loc);
                self.deref(sum, e)
            }
        }
    }

    pub(super) fn ptr_arith(&self, op: BinOp, p: Expr, i: Expr, loc: Loc) -> Expr {
        let ty = p.ty.unqual().clone();
        Expr::new(ExprKind::Binary(op, Box::new(p), Box::new(i)), ty, loc)
    }

    fn unary(
        &mut self,
        u: &'a Node<ast::UnaryOperatorExpression>,
        e: &'a Node<ast::Expression>,
        want: Want,
    ) -> Result<Expr> {
        let loc = self.loc(e.span);
        let op = &u.node.operand;
        match u.node.operator.node {
            ast::UnaryOperator::Address => {
                if self.vla_named(&op.node).is_some() {
                    return self.unsupported(e.span, "the address of a variable-length array");
                }
                let x = self.expr(op, Want::Value)?;
                if let ExprKind::Deref(p) = x.kind {
                    return Ok(*p);
                }
                if let Ty::Func(_) = x.ty {
                    return Ok(self.value(x));
                }
                if !x.is_lvalue() {
                    return self.error(e.span, "cannot take the address of an rvalue");
                }
                let ty = x.ty.clone().ptr();
                Ok(Expr::new(ExprKind::AddrOf(Box::new(x)), ty, loc))
            }
            ast::UnaryOperator::Indirection => {
                let p = self.rvalue(op)?;
                self.deref(p, e)
            }
            ast::UnaryOperator::Plus => {
                let x = self.rvalue(op)?;
                let t = promote(&x.ty);
                Ok(self.convert(x, &t))
            }
            ast::UnaryOperator::Minus | ast::UnaryOperator::Complement => {
                let x = self.rvalue(op)?;
                if !x.ty.is_arith() {
                    return self.error(e.span, "operand must have arithmetic type");
                }
                let t = promote(&x.ty);
                let x = self.convert(x, &t);
                let o = if u.node.operator.node == ast::UnaryOperator::Minus {
                    UnOp::Neg
                } else {
                    UnOp::BitNot
                };
                Ok(self.fold(Expr::new(ExprKind::Unary(o, Box::new(x)), t, loc)))
            }
            ast::UnaryOperator::Negate => {
                let x = self.rvalue(op)?;
                if !x.ty.is_scalar() {
                    return self.error(e.span, "operand of '!' must have scalar type");
                }
                // `!!(a == b)` (assert's shim) is just `a == b`.
                if let ExprKind::Unary(UnOp::LogNot, inner) = &x.kind {
                    let boolean = matches!(&inner.kind, ExprKind::Binary(o, ..) if o.is_comparison() || matches!(o, BinOp::LogAnd | BinOp::LogOr))
                        || matches!(inner.kind, ExprKind::Unary(UnOp::LogNot, _));
                    if boolean {
                        return Ok(*inner.clone());
                    }
                }
                Ok(self.fold(self.bool_not(x)))
            }
            ast::UnaryOperator::PreIncrement
            | ast::UnaryOperator::PreDecrement
            | ast::UnaryOperator::PostIncrement
            | ast::UnaryOperator::PostDecrement => {
                let inc = matches!(
                    u.node.operator.node,
                    ast::UnaryOperator::PreIncrement | ast::UnaryOperator::PostIncrement
                );
                let post = matches!(
                    u.node.operator.node,
                    ast::UnaryOperator::PostIncrement | ast::UnaryOperator::PostDecrement
                );
                let lv = self.expr(op, Want::Value)?;
                if !lv.is_lvalue() {
                    return self.error(e.span, "increment of something that is not an lvalue");
                }
                let lv = if lv.ty.is_atomic() {
                    lv
                } else {
                    self.lvalue_once(lv)
                };
                let one = Expr::int(1, Ty::INT, loc);
                let bop = if inc { BinOp::Add } else { BinOp::Sub };
                if lv.ty.is_atomic() {
                    return self.atomic_rmw(lv, bop, one, post, want, loc, e);
                }
                if want == Want::Effect {
                    let new = self.arith_on(bop, lv.clone(), one, loc, e)?;
                    let new = self.convert(new, &lv.ty);
                    self.emit(StmtKind::Assign(lv, new), loc);
                    return Ok(Expr::int(0, Ty::Void, loc));
                }
                // Read once, so that a shared variable is one read and one
                // write; a narrow bit-field as the int it promotes to.
                let cur = self.value(lv.clone());
                let old = self.temp(cur.ty.clone(), loc);
                self.emit(StmtKind::Assign(old.clone(), cur), loc);
                let new = self.arith_on(bop, old.clone(), one, loc, e)?;
                let new = self.convert(new, &lv.ty);
                if post {
                    self.emit(StmtKind::Assign(lv, new), loc);
                    Ok(old)
                } else {
                    let t = self.temp(lv.ty.clone(), loc);
                    self.emit(StmtKind::Assign(t.clone(), new), loc);
                    let stored = self.as_stored(&lv, t.clone());
                    self.emit(StmtKind::Assign(lv, t), loc);
                    Ok(stored)
                }
            }
        }
    }

    /// `lv` with every value its address depends on (a pointer, an
    /// index) computed once, before: `*p += 1` and `a[g]++` read and
    /// write the object, and C computes its address once (C11 6.5.16.2p3),
    /// while a shared `p` or `g` read twice could change in between.
    pub(super) fn lvalue_once(&mut self, lv: Expr) -> Expr {
        let Expr { kind, ty, loc } = lv;
        let kind = match kind {
            ExprKind::Deref(p) => ExprKind::Deref(Box::new(self.value_once(*p))),
            ExprKind::Index(b, i) => {
                let b = self.lvalue_once(*b);
                ExprKind::Index(Box::new(b), Box::new(self.value_once(*i)))
            }
            ExprKind::Member(b, f) => ExprKind::Member(Box::new(self.lvalue_once(*b)), f),
            k => k,
        };
        Expr::new(kind, ty, loc)
    }

    /// `e`, or a temporary holding it when evaluating it reads memory.
    fn value_once(&mut self, e: Expr) -> Expr {
        if reads_nothing(&e) {
            return e;
        }
        let loc = e.loc;
        let t = self.temp(e.ty.unqual().clone(), loc);
        self.emit(StmtKind::Assign(t.clone(), e), loc);
        t
    }

    /// The value `v` has once stored in `lv`: cut to the width of a
    /// bit-field (C11 6.5.16p3: an assignment's value is the left
    /// operand's after it; `k = ++s.v` is 0 for an 8-bit `v` at 255).
    fn as_stored(&self, lv: &Expr, v: Expr) -> Expr {
        let dm = self.prog.data_model;
        let Some(w) = self.bit_field_width(lv) else {
            return v;
        };
        let ty = lv.ty.unqual().clone();
        let Some(bits) = ty.int_bits(dm) else {
            return v;
        };
        if w == 0 || w >= bits {
            return v;
        }
        let loc = v.loc;
        let k = |n: i128| Expr::int(n, ty.clone(), loc);
        let bin = |op, a: Expr, b: Expr| {
            Expr::new(
                ExprKind::Binary(op, Box::new(a), Box::new(b)),
                ty.clone(),
                loc,
            )
        };
        let low = bin(BinOp::BitAnd, v, k((1i128 << w) - 1));
        if !ty.is_signed() {
            return self.fold(low);
        }
        // Sign-extend: (low ^ 2^(w-1)) - 2^(w-1), which never overflows.
        let sign = 1i128 << (w - 1);
        self.fold(bin(BinOp::Sub, bin(BinOp::BitXor, low, k(sign)), k(sign)))
    }

    /// `x++`, `x += v` on an `_Atomic` object: one atomic step (C11
    /// 6.5.2.4p2, 6.5.16.2p3). On an integer other than `_Bool`, with an
    /// integer operand and + - & | ^, the hardware's fetch-op gives the
    /// same bits as C's `x = (T)(x op v)` (both are modulo 2^N), so it is
    /// one atomic operation. Anything else (a floating or `_Bool` object,
    /// a floating operand, a pointer, * / % << >>) is that read, the
    /// arithmetic and the conversion back in an atomic section: the
    /// operand and the object's address are computed before it. Under
    /// `--property overflow`, so is a + or - done in a signed type:
    /// unlike `atomic_fetch_add`, which wraps (7.17.7.5p3), C's `x + v`
    /// may overflow (6.5.16.2 note 113), and the overflow pass checks
    /// operations in atomic sections. Both forms have the same meaning
    /// otherwise; the fetch-op is one step in the sequentializations.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn atomic_rmw(
        &mut self,
        lv: Expr,
        op: BinOp,
        v: Expr,
        post: bool,
        want: Want,
        loc: Loc,
        e: &Node<ast::Expression>,
    ) -> Result<Expr> {
        let rmw = match op {
            BinOp::Add => Some(AtomicRmw::Add),
            BinOp::Sub => Some(AtomicRmw::Sub),
            BinOp::BitAnd => Some(AtomicRmw::And),
            BinOp::BitOr => Some(AtomicRmw::Or),
            BinOp::BitXor => Some(AtomicRmw::Xor),
            _ => None,
        };
        let vt = lv.ty.unqual().clone();
        let signed_sum = self.checked_sums
            && matches!(rmw, Some(AtomicRmw::Add | AtomicRmw::Sub))
            && super::arith::usual(&vt, &v.ty, self.prog.data_model)
                .int_kind()
                .is_some_and(|k| k.signed());
        let fetch = matches!(vt, Ty::Int(_)) && v.ty.is_integer() && !signed_sum;
        let Some(rmw) = rmw.filter(|_| fetch) else {
            return self.atomic_section_rmw(lv, op, v, post, want, loc, e);
        };
        let v = self.convert(v, &vt);
        let addr = Expr::new(
            ExprKind::AddrOf(Box::new(lv.clone())),
            lv.ty.clone().ptr(),
            loc,
        );
        let dest = if want == Want::Value {
            Some(self.temp(vt.clone(), loc))
        } else {
            None
        };
        let op = if post {
            Op::AtomicFetch(rmw)
        } else {
            Op::AtomicFetchThen(rmw)
        };
        self.emit(
            StmtKind::Op {
                dest: dest.clone(),
                op,
                args: vec![addr, v],
            },
            loc,
        );
        Ok(dest.unwrap_or_else(|| Expr::int(0, Ty::Void, loc)))
    }

    /// `atomic_rmw` where no fetch-op computes C's value: read, compute
    /// and store back inside an atomic section.
    #[allow(clippy::too_many_arguments)]
    fn atomic_section_rmw(
        &mut self,
        lv: Expr,
        op: BinOp,
        v: Expr,
        post: bool,
        want: Want,
        loc: Loc,
        e: &Node<ast::Expression>,
    ) -> Result<Expr> {
        let v = if matches!(v.kind, ExprKind::Int(_) | ExprKind::Float(_)) {
            v
        } else {
            let t = self.temp(v.ty.unqual().clone(), loc);
            self.emit(StmtKind::Assign(t.clone(), v), loc);
            t
        };
        let obj = match lv.kind {
            ExprKind::Global(_) | ExprKind::Local(_) => lv,
            _ => {
                let pt = lv.ty.clone().ptr();
                let a = self.temp(pt.clone(), loc);
                let addr = Expr::new(ExprKind::AddrOf(Box::new(lv.clone())), pt, loc);
                self.emit(StmtKind::Assign(a.clone(), addr), loc);
                Expr::new(ExprKind::Deref(Box::new(a)), lv.ty.clone(), loc)
            }
        };
        let vt = obj.ty.unqual().clone();
        self.emit_op0(Op::AtomicBegin, loc);
        let old = self.temp(vt.clone(), loc);
        self.emit(StmtKind::Assign(old.clone(), obj.clone()), loc);
        let new = self.arith_on(op, old.clone(), v, loc, e)?;
        let new = self.convert(new, &vt);
        let t = self.temp(vt, loc);
        self.emit(StmtKind::Assign(t.clone(), new), loc);
        self.emit(StmtKind::Assign(obj, t.clone()), loc);
        self.emit_op0(Op::AtomicEnd, loc);
        Ok(match want {
            Want::Value if post => old,
            Want::Value => t,
            _ => Expr::int(0, Ty::Void, loc),
        })
    }

    /// A compound literal outside any function: an unnamed object of
    /// static storage (C11 6.5.2.5p5), made a global of its own whose
    /// initialiser is constant (6.7.9p4), as a named one's would be.
    fn static_literal(
        &mut self,
        ty: Ty,
        cl: &'a Node<ast::CompoundLiteral>,
        loc: Loc,
    ) -> Result<Expr> {
        let outer = self.static_init;
        self.static_init = true;
        let made = self.init_top_list(&ty, &cl.node.initializer_list, cl.span, true);
        self.static_init = outer;
        let (init, ty) = made?;
        let g = GlobalId(self.prog.globals.len() as u32);
        self.made_globals.push(g);
        self.prog.globals.push(Global {
            name: "compound_literal".to_string(),
            ty: ty.clone(),
            init: Some(init),
            storage: Storage::Static,
            thread_local: false,
            loc,
        });
        Ok(Expr::new(ExprKind::Global(g), ty, loc))
    }

    /// Folds constant sub-trees so the output keeps `-1` rather than `-(1)`;
    /// in code, never one with a signed overflow (`consts::overflows`),
    /// which runs where the program evaluates it. A static initialiser is
    /// the compiler's to compute (a constraint of C11 6.6p4, not a run-time
    /// overflow), and C output must keep it constant.
    pub(super) fn fold(&self, x: Expr) -> Expr {
        let dm = self.prog.data_model;
        if x.ty.is_integer()
            && let Some(v) = eval(&x, dm)
            && (self.fs.is_none() || self.static_init || !super::consts::overflows(&x, dm))
        {
            return Expr::int(v, x.ty.clone(), x.loc);
        }
        x
    }

    /// An expression whose value is not used (a statement, a comma's left
    /// operand, a cast to void): C still evaluates it (C11 6.8.3p2).
    pub(super) fn discard(&mut self, e: &'a Node<ast::Expression>) -> Result<()> {
        let v = self.expr(e, Want::Effect)?;
        self.evaluate_discarded(v, self.loc(e.span));
        Ok(())
    }

    /// Keeps the evaluation of a value no one reads when it may be
    /// undefined (signed arithmetic, a division, a shift, a float made an
    /// integer), so that `--property overflow` checks it: `x * 2;` was
    /// dropped with its overflow. Memory reads are not kept (`*p;`:
    /// *hides*, README).
    pub(super) fn evaluate_discarded(&mut self, v: Expr, loc: Loc) {
        if v.ty.is_scalar() && !v.ty.is_void() && computes(&v) {
            let t = self.temp(v.ty.clone(), loc);
            self.emit(StmtKind::Assign(t, v), loc);
        }
    }

    /// `lv = rv` as a statement; as a value, the assigned value (kept in a
    /// temporary, so the lvalue is not read again).
    pub(super) fn assign_result(
        &mut self,
        lv: Expr,
        rv: Expr,
        want: Want,
        loc: Loc,
    ) -> Result<Expr> {
        if want == Want::Effect || is_simple(&rv) {
            let stored = self.as_stored(&lv, rv.clone());
            self.emit(StmtKind::Assign(lv, rv), loc);
            return Ok(if want == Want::Effect {
                Expr::int(0, Ty::Void, loc)
            } else {
                stored
            });
        }
        let t = self.temp(lv.ty.clone(), loc);
        self.emit(StmtKind::Assign(t.clone(), rv), loc);
        let stored = self.as_stored(&lv, t.clone());
        self.emit(StmtKind::Assign(lv, t), loc);
        Ok(stored)
    }

    /// Conversion as by assignment (C11 6.5.16.1), with its checks.
    pub(super) fn assign_convert(
        &mut self,
        rv: Expr,
        to: &Ty,
        e: &Node<ast::Expression>,
    ) -> Result<Expr> {
        let to_u = to.unqual();
        let from = rv.ty.unqual();
        let ok = match (to_u, from) {
            (t, f) if t == f => true,
            (t, f) if t.is_arith() && f.is_arith() => true,
            (Ty::Ptr(_), Ty::Ptr(_)) => true,
            (Ty::Ptr(_), f) if f.is_integer() => true,
            (t, Ty::Ptr(_)) if t.is_integer() => true,
            // pthread_t, pthread_key_t and pthread_once_t are integers.
            (Ty::Pthread(PthreadTy::Thread | PthreadTy::Key | PthreadTy::Once), f)
                if f.is_integer() =>
            {
                true
            }
            (t, Ty::Pthread(PthreadTy::Thread | PthreadTy::Key | PthreadTy::Once))
                if t.is_integer() =>
            {
                true
            }
            _ => false,
        };
        if !ok {
            return self.error(e.span, "incompatible types in assignment");
        }
        Ok(self.convert(rv, to))
    }

    fn conditional(
        &mut self,
        c: &'a Node<ast::ConditionalExpression>,
        e: &'a Node<ast::Expression>,
        want: Want,
    ) -> Result<Expr> {
        let loc = self.loc(e.span);
        let dm = self.prog.data_model;
        let cond = self.cond_expr(&c.node.condition)?;
        let (tb, x) = self.collect(|s| s.rvalue(&c.node.then_expression))?;
        let (eb, y) = self.collect(|s| s.rvalue(&c.node.else_expression))?;
        let ty = if x.ty.is_void() || y.ty.is_void() {
            Ty::Void
        } else if x.ty.is_arith() && y.ty.is_arith() {
            usual(&x.ty, &y.ty, dm)
        } else if x.ty.is_pointer() && y.ty.is_pointer() {
            // C11 6.5.15p6: a null pointer constant takes the other
            // arm's type; otherwise a `void *` arm makes the result
            // `void *` (`c ? ip : vp` steps by bytes).
            let void = |e: &Expr| e.ty.pointee().is_some_and(|t| t.unqual().is_void());
            let null_x = is_null_constant(&x) && ast_null_cast(&c.node.then_expression.node);
            let null_y = is_null_constant(&y) && ast_null_cast(&c.node.else_expression.node);
            if null_x {
                y.ty.unqual().clone()
            } else if null_y || !void(&y) {
                x.ty.unqual().clone()
            } else {
                y.ty.unqual().clone()
            }
        } else if x.ty.is_pointer() {
            x.ty.unqual().clone()
        } else if y.ty.is_pointer() {
            y.ty.unqual().clone()
        } else {
            x.ty.unqual().clone()
        };
        if tb.0.is_empty() && eb.0.is_empty() && !ty.is_void() {
            let x = self.convert(x, &ty);
            let y = self.convert(y, &ty);
            return Ok(self.fold(Expr::new(
                ExprKind::Cond(Box::new(cond), Box::new(x), Box::new(y)),
                ty,
                loc,
            )));
        }
        if ty.is_void() || want == Want::Effect {
            // The arm taken is evaluated even when its value is not used.
            let mut tb = tb;
            let mut eb = eb;
            let kept = |me: &mut Self, v: Expr| {
                me.evaluate_discarded(v, loc);
                Ok(())
            };
            tb.0.extend(self.collect(|me| kept(me, x))?.0.0);
            eb.0.extend(self.collect(|me| kept(me, y))?.0.0);
            self.emit(StmtKind::If(cond, tb, eb), loc.generated());
            return Ok(Expr::int(0, Ty::Void, loc));
        }
        let t = self.temp(ty.clone(), loc);
        let mut tb = tb;
        let mut eb = eb;
        let x = self.convert(x, &ty);
        let y = self.convert(y, &ty);
        tb.0.push(Stmt {
            kind: StmtKind::Assign(t.clone(), x),
            loc: loc.generated(),
        });
        eb.0.push(Stmt {
            kind: StmtKind::Assign(t.clone(), y),
            loc: loc.generated(),
        });
        self.emit(StmtKind::If(cond, tb, eb), loc.generated());
        Ok(t)
    }

    fn statement_expr(
        &mut self,
        s: &'a Node<ast::Statement>,
        loc: Loc,
        want: Want,
    ) -> Result<Expr> {
        let ast::Statement::Compound(items) = &s.node else {
            return self.error(s.span, "malformed statement expression");
        };
        // The value is the last expression statement; it is copied out
        // before the block's locals go out of scope.
        let last_expr = match items.last().map(|i| &i.node) {
            Some(ast::BlockItem::Statement(st)) => match &st.node {
                ast::Statement::Expression(Some(e)) if want == Want::Value => Some(&**e),
                _ => None,
            },
            _ => None,
        };
        let mut result: Option<Expr> = None;
        let n = items.len();
        let (block, ()) = self.collect(|me| {
            me.push_scope();
            let r = (|| {
                for (i, it) in items.iter().enumerate() {
                    if i + 1 == n
                        && let Some(e) = last_expr
                    {
                        let v = me.rvalue(e)?;
                        if !v.ty.is_void() {
                            result = Some(v);
                        }
                        continue;
                    }
                    me.block_item(it)?;
                }
                Ok(())
            })();
            me.pop_scope();
            r
        })?;
        match result {
            Some(v) => {
                let t = self.temp(v.ty.clone(), loc);
                let mut block = block;
                block.0.push(Stmt {
                    kind: StmtKind::Assign(t.clone(), v),
                    loc: loc.generated(),
                });
                self.emit(StmtKind::Block(block), loc.generated());
                Ok(t)
            }
            None => {
                self.emit(StmtKind::Block(block), loc.generated());
                Ok(Expr::int(0, Ty::Void, loc))
            }
        }
    }
}

/// Values that can be used twice without re-reading memory.
fn is_simple(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Int(_) | ExprKind::Float(_))
}

/// Whether evaluating `e` does arithmetic C may leave undefined (see
/// `evaluate_discarded`).
fn computes(e: &Expr) -> bool {
    let mut any = false;
    e.walk(&mut |x| {
        any |= match &x.kind {
            ExprKind::Binary(op, ..) => !matches!(
                op,
                BinOp::BitAnd
                    | BinOp::BitOr
                    | BinOp::BitXor
                    | BinOp::Eq
                    | BinOp::Ne
                    | BinOp::Lt
                    | BinOp::Le
                    | BinOp::Gt
                    | BinOp::Ge
                    | BinOp::LogAnd
                    | BinOp::LogOr
            ),
            ExprKind::Unary(UnOp::Neg, _) => true,
            ExprKind::Cast(a) => matches!(a.ty.unqual(), Ty::Float(_)) && x.ty.is_integer(),
            _ => false,
        };
    });
    any
}

/// Evaluating `e` reads no object: constants, and addresses whose
/// computation reads none.
fn reads_nothing(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Func(_) => true,
        ExprKind::AddrOf(a) | ExprKind::Decay(a) => address_reads_nothing(a),
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => reads_nothing(a),
        ExprKind::Binary(_, a, b) => reads_nothing(a) && reads_nothing(b),
        ExprKind::Cond(a, b, c) => reads_nothing(a) && reads_nothing(b) && reads_nothing(c),
        _ => false,
    }
}

fn address_reads_nothing(lv: &Expr) -> bool {
    match &lv.kind {
        ExprKind::Global(_) | ExprKind::Local(_) | ExprKind::Str(_) | ExprKind::Func(_) => true,
        ExprKind::Member(b, _) => address_reads_nothing(b),
        ExprKind::Index(b, i) => address_reads_nothing(b) && reads_nothing(i),
        ExprKind::Deref(p) => reads_nothing(p),
        _ => false,
    }
}

/// An integer constant 0, or one cast to `void *` (C11 6.3.2.3p3).
fn is_null_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(0) => true,
        ExprKind::Cast(a) => {
            e.ty.pointee().is_some_and(|t| t.unqual().is_void())
                && matches!(a.kind, ExprKind::Int(0))
                && a.ty.is_integer()
        }
        _ => false,
    }
}

/// What the lowered form no longer shows: a pointer-typed null pointer
/// constant is a cast to plain `void *` (no qualifier: `(const void *)0`
/// is none) of an integer constant, not of another cast (`(void *)NULL`).
fn ast_null_cast(e: &ast::Expression) -> bool {
    let ast::Expression::Cast(c) = e else {
        return true;
    };
    let tn = &c.node.type_name.node;
    let plain_void = tn.specifiers.iter().all(|s| {
        matches!(&s.node, ast::SpecifierQualifier::TypeSpecifier(t) if matches!(t.node, ast::TypeSpecifier::Void))
    });
    let one_plain_pointer = tn.declarator.as_ref().is_some_and(|d| {
        matches!(&d.node.derived[..], [p] if matches!(&p.node, ast::DerivedDeclarator::Pointer(q) if q.is_empty()))
    });
    plain_void && one_plain_pointer && !matches!(c.node.expression.node, ast::Expression::Cast(_))
}
