//! Declaration specifiers and declarators to IR types.

use super::attrs::{AttrSite, Attrs};
use super::{Lowerer, Sym, Tag, VlaCtx};
use crate::diag::Result;
use crate::ir::*;
use lang_c::ast;
use lang_c::span::{Node, Span};

/// What the specifiers of a declaration say.
pub(super) struct Specs {
    pub ty: Ty,
    /// `aligned(N)` in the specifiers that no struct defined there took.
    pub align: u64,
    pub typedef: bool,
    pub is_static: bool,
    pub is_extern: bool,
    pub thread_local: bool,
}

pub(super) struct Param {
    pub name: Option<String>,
    pub ty: Ty,
    pub loc: Loc,
}

pub(super) struct Declared {
    pub name: Option<String>,
    pub ty: Ty,
    /// Parameters of the outermost function declarator (for definitions).
    pub params: Option<Vec<Param>>,
    /// `aligned(N)` after the declarator that no struct took (0: none).
    pub align: u64,
}

pub(super) fn declarator_name(d: &ast::Declarator) -> Option<String> {
    match &d.kind.node {
        ast::DeclaratorKind::Identifier(i) => Some(i.node.name.clone()),
        ast::DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        ast::DeclaratorKind::Abstract => None,
    }
}

#[derive(Default)]
struct Words {
    void: u32,
    char: u32,
    short: u32,
    int: u32,
    long: u32,
    float: u32,
    double: u32,
    signed: u32,
    unsigned: u32,
    bool: u32,
    complex: u32,
}

impl<'a> Lowerer<'a> {
    pub(super) fn decl_specs(
        &mut self,
        specs: &'a [Node<ast::DeclarationSpecifier>],
        span: Span,
    ) -> Result<Specs> {
        let mut ts = Vec::new();
        let mut atomic = false;
        // Attributes before the type specifier are the declared objects'
        // (gcc): they never change a struct defined after them, so
        // `packed` there does nothing and `aligned` aligns the object.
        let mut before = Attrs::default();
        let mut attrs = Attrs::default();
        let mut out = Specs {
            ty: Ty::Void,
            align: 0,
            typedef: false,
            is_static: false,
            is_extern: false,
            thread_local: false,
        };
        for s in specs {
            match &s.node {
                ast::DeclarationSpecifier::StorageClass(sc) => match sc.node {
                    ast::StorageClassSpecifier::Typedef => out.typedef = true,
                    ast::StorageClassSpecifier::Extern => out.is_extern = true,
                    ast::StorageClassSpecifier::Static => out.is_static = true,
                    ast::StorageClassSpecifier::ThreadLocal => out.thread_local = true,
                    ast::StorageClassSpecifier::Auto | ast::StorageClassSpecifier::Register => {}
                },
                ast::DeclarationSpecifier::TypeSpecifier(t) => ts.push(t),
                ast::DeclarationSpecifier::TypeQualifier(q) => {
                    if q.node == ast::TypeQualifier::Atomic {
                        atomic = true;
                    }
                }
                ast::DeclarationSpecifier::Function(_) => {}
                ast::DeclarationSpecifier::Extension(e) if ts.is_empty() => {
                    before.add(self.attrs(e, AttrSite::Decl)?);
                }
                ast::DeclarationSpecifier::Extension(e) => {
                    attrs.add(self.attrs(e, AttrSite::Decl)?);
                }
                // `_Alignas` on an object: its address's alignment, which
                // seqc does not model (no member has one: lang-c does not
                // parse it there).
                ast::DeclarationSpecifier::Alignment(_) => {}
            }
        }
        out.ty = self.type_from_specifiers(&ts, span)?;
        out.ty = before.apply_mode(out.ty, self.prog.data_model);
        out.ty = attrs.apply_mode(out.ty, self.prog.data_model);
        out.align = self.type_attrs(&out.ty, &ts, attrs)?.max(before.align);
        if atomic {
            out.ty = Ty::Atomic(Box::new(out.ty));
        }
        Ok(out)
    }

    pub(super) fn spec_quals(
        &mut self,
        specs: &'a [Node<ast::SpecifierQualifier>],
        span: Span,
    ) -> Result<Ty> {
        let mut ts = Vec::new();
        let mut atomic = false;
        // Before the type specifier they are the member's (gcc), read by
        // `struct_fields`; `mode` applies wherever it stands.
        let mut before = Attrs::default();
        let mut attrs = Attrs::default();
        for s in specs {
            match &s.node {
                ast::SpecifierQualifier::TypeSpecifier(t) => ts.push(t),
                ast::SpecifierQualifier::TypeQualifier(q) => {
                    if q.node == ast::TypeQualifier::Atomic {
                        atomic = true;
                    }
                }
                ast::SpecifierQualifier::Extension(e) if ts.is_empty() => {
                    before.add(self.attrs(e, AttrSite::Field)?);
                }
                ast::SpecifierQualifier::Extension(e) => {
                    attrs.add(self.attrs(e, AttrSite::Field)?);
                }
            }
        }
        let t = self.type_from_specifiers(&ts, span)?;
        let t = before.apply_mode(t, self.prog.data_model);
        let t = attrs.apply_mode(t, self.prog.data_model);
        // On a struct defined here they are the struct's (a member's
        // own are read by `struct_type`).
        self.type_attrs(&t, &ts, attrs)?;
        Ok(if atomic { Ty::Atomic(Box::new(t)) } else { t })
    }

    pub(super) fn type_name(&mut self, tn: &'a Node<ast::TypeName>) -> Result<Ty> {
        let base = self.spec_quals(&tn.node.specifiers, tn.span)?;
        match &tn.node.declarator {
            Some(d) => Ok(self.declarator(base, d)?.ty),
            None => Ok(base),
        }
    }

    fn type_from_specifiers(
        &mut self,
        ts: &[&'a Node<ast::TypeSpecifier>],
        span: Span,
    ) -> Result<Ty> {
        let mut w = Words::default();
        let mut named: Option<Ty> = None;
        for t in ts {
            match &t.node {
                ast::TypeSpecifier::Void => w.void += 1,
                ast::TypeSpecifier::Char => w.char += 1,
                ast::TypeSpecifier::Short => w.short += 1,
                ast::TypeSpecifier::Int => w.int += 1,
                ast::TypeSpecifier::Long => w.long += 1,
                ast::TypeSpecifier::Float => w.float += 1,
                ast::TypeSpecifier::Double => w.double += 1,
                ast::TypeSpecifier::Signed => w.signed += 1,
                ast::TypeSpecifier::Unsigned => w.unsigned += 1,
                ast::TypeSpecifier::Bool => w.bool += 1,
                ast::TypeSpecifier::Complex => w.complex += 1,
                ast::TypeSpecifier::Atomic(tn) => {
                    let inner = self.type_name(tn)?;
                    named = Some(Ty::Atomic(Box::new(inner)));
                }
                ast::TypeSpecifier::Struct(st) => named = Some(self.struct_type(st)?),
                ast::TypeSpecifier::Enum(et) => named = Some(self.enum_type(et)?),
                ast::TypeSpecifier::TypedefName(id) => {
                    let name = &id.node.name;
                    if let Some(p) = PthreadTy::from_typedef(name) {
                        named = Some(Ty::Pthread(p));
                        continue;
                    }
                    match self.lookup(name).cloned() {
                        Some(Sym::Typedef(t)) => named = Some(t),
                        Some(Sym::Poisoned(d)) if d.pos.is_some() => return Err(d),
                        Some(Sym::Poisoned(d)) => return Err(self.err(id.span, d)),
                        _ if name == "__builtin_va_list" => {
                            return self.unsupported(id.span, "variadic argument lists (va_list)");
                        }
                        _ => return self.error(id.span, format!("unknown type name '{name}'")),
                    }
                }
                ast::TypeSpecifier::TypeOf(to) => {
                    named = Some(match &to.node {
                        ast::TypeOf::Type(tn) => self.type_name(tn)?,
                        ast::TypeOf::Expression(e) => self.type_of_expr(e)?,
                    })
                }
                ast::TypeSpecifier::TS18661Float(_) => {
                    return self.unsupported(t.span, "_FloatN types");
                }
            }
        }
        if let Some(t) = named {
            return Ok(t);
        }
        if w.complex > 0 {
            return self.unsupported(span, "_Complex types");
        }
        if w.void > 0 {
            return Ok(Ty::Void);
        }
        if w.bool > 0 {
            return Ok(Ty::Bool);
        }
        if w.float > 0 {
            return Ok(Ty::Float(FloatKind::Float));
        }
        if w.double > 0 && w.long > 0 {
            // x86's 80-bit format: CBMC computes in it, the SMT route and
            // the oracle could not, and a value rounded to double on its
            // way to a check gave a false overflow.
            return self.unsupported(span, "long double");
        }
        if w.double > 0 {
            return Ok(Ty::Float(FloatKind::Double));
        }
        let u = w.unsigned > 0;
        let k = if w.char > 0 {
            if u {
                IntKind::UChar
            } else if w.signed > 0 {
                IntKind::SChar
            } else {
                IntKind::Char
            }
        } else if w.short > 0 {
            if u { IntKind::UShort } else { IntKind::Short }
        } else if w.long >= 2 {
            if u {
                IntKind::ULongLong
            } else {
                IntKind::LongLong
            }
        } else if w.long == 1 {
            if u { IntKind::ULong } else { IntKind::Long }
        } else if w.int > 0 || w.signed > 0 || u {
            if u { IntKind::UInt } else { IntKind::Int }
        } else {
            return self.unsupported(span, "a declaration without a type (implicit int)");
        };
        Ok(Ty::Int(k))
    }

    fn struct_type(&mut self, st: &'a Node<ast::StructType>) -> Result<Ty> {
        let kind = match st.node.kind.node {
            ast::StructKind::Struct => CompKind::Struct,
            ast::StructKind::Union => CompKind::Union,
        };
        let loc = self.loc(st.span);
        let tag = st.node.identifier.as_ref().map(|i| i.node.name.clone());
        let id = match (&tag, &st.node.declarations) {
            // `struct s` without a body: the visible tag, or a new incomplete one.
            (Some(t), None) => match self.tags.iter().rev().find_map(|m| m.get(t)) {
                Some(Tag::Comp(c)) => *c,
                _ => self.new_comp(kind, t.clone(), loc, Some(true)),
            },
            // A definition: a new type in this scope, unless it completes a
            // forward declaration of the same scope.
            (Some(t), Some(_)) => match self.tags.last().unwrap().get(t) {
                Some(Tag::Comp(c)) if !self.prog.comp(*c).complete => *c,
                _ => self.new_comp(kind, t.clone(), loc, Some(false)),
            },
            (None, _) => {
                let name = format!("__anon{}", self.prog.comps.len());
                self.new_comp(kind, name, loc, None)
            }
        };
        if let Some(decls) = &st.node.declarations {
            let fields = match self.struct_fields(decls) {
                Ok(f) => f,
                Err(e) => {
                    self.comp_errors.insert(id, e.clone());
                    return Err(e);
                }
            };
            let c = &mut self.prog.comps[id.0 as usize];
            c.fields = fields;
            c.complete = true;
            c.loc = loc;
        }
        Ok(Ty::Comp(id))
    }

    /// The members of a struct or union body.
    fn struct_fields(&mut self, decls: &'a [Node<ast::StructDeclaration>]) -> Result<Vec<Field>> {
        let mut fields = Vec::new();
        for d in decls {
            let ast::StructDeclaration::Field(f) = &d.node else {
                continue;
            };
            let base = self.spec_quals(&f.node.specifiers, f.span)?;
            // After a struct defined in the member's specifiers they
            // belong to that struct (`spec_quals` gave them); before its
            // type specifier they are the member's.
            let inner = f.node.specifiers.iter().any(|sq| {
                matches!(&sq.node, ast::SpecifierQualifier::TypeSpecifier(t)
                    if matches!(&t.node, ast::TypeSpecifier::Struct(st) if st.node.declarations.is_some()))
            });
            let mut field_attrs = Attrs::default();
            let mut seen_type = false;
            for sq in &f.node.specifiers {
                match &sq.node {
                    ast::SpecifierQualifier::TypeSpecifier(_) => seen_type = true,
                    ast::SpecifierQualifier::Extension(e) if !(inner && seen_type) => {
                        field_attrs.add(self.attrs(e, AttrSite::Field)?);
                    }
                    _ => {}
                }
            }
            if f.node.declarators.is_empty() {
                // An anonymous struct/union member (C11).
                fields.push(Field {
                    name: String::new(),
                    ty: base,
                    bit_width: None,
                    packed: field_attrs.packed,
                    align: field_attrs.align,
                });
                continue;
            }
            for sd in &f.node.declarators {
                let (name, ty) = match &sd.node.declarator {
                    Some(dd) => {
                        let decl = self.declarator(base.clone(), dd)?;
                        (decl.name.unwrap_or_default(), decl.ty)
                    }
                    None => (String::new(), base.clone()),
                };
                let bit_width = match &sd.node.bit_width {
                    // C leaves atomic bit-fields to the implementation;
                    // gcc rejects them, and no access to one could be a
                    // single atomic step here.
                    Some(_) if ty.is_atomic() => {
                        return self.error(sd.span, format!("bit-field '{name}' has atomic type"));
                    }
                    Some(e) => Some(self.const_expr(e)? as u32),
                    None => None,
                };
                if matches!(ty, Ty::Array(_, None)) {
                    return self.unsupported(sd.span, "flexible array members");
                }
                // A member of a struct type with no body (C11 6.7.2.1p3);
                // one whose body was refused says why.
                if let Ty::Comp(c) = crate::ir::regions::elem_scalar(&ty)
                    && !self.prog.comp(*c).complete
                {
                    return self.incomplete(
                        sd.span,
                        &ty,
                        format!("field '{name}' has an incomplete type"),
                    );
                }
                let mut a = field_attrs;
                if let Some(dd) = &sd.node.declarator {
                    a.add(self.attrs(&dd.node.extensions, AttrSite::Field)?);
                }
                fields.push(Field {
                    name,
                    ty: a.apply_mode(ty, self.prog.data_model),
                    bit_width,
                    packed: a.packed,
                    align: a.align,
                });
            }
        }
        Ok(fields)
    }

    /// Gives `packed`/`aligned` to a struct or union the specifiers define;
    /// returns an alignment nothing took (for the declarator's object).
    fn type_attrs(
        &mut self,
        ty: &Ty,
        ts: &[&'a Node<ast::TypeSpecifier>],
        a: Attrs,
    ) -> Result<u64> {
        // A packed enum is the smallest integer type that holds its
        // values (gcc), which seqc's enum types do not follow.
        if a.packed
            && let Some(t) = ts
                .iter()
                .find(|t| matches!(&t.node, ast::TypeSpecifier::Enum(_)))
        {
            return self.unsupported(t.span, "__attribute__((packed)) on an enum (its size)");
        }
        let defines = ts.iter().any(
            |t| matches!(&t.node, ast::TypeSpecifier::Struct(st) if st.node.declarations.is_some()),
        );
        match ty.unqual() {
            Ty::Comp(c) if defines && (a.packed || a.align > 0) => {
                let def = &mut self.prog.comps[c.0 as usize];
                def.packed |= a.packed;
                def.align = def.align.max(a.align);
                Ok(0)
            }
            _ => Ok(a.align),
        }
    }

    /// A new struct/union; `forward` is None for an anonymous one (no tag
    /// to bind: CIL's own tags such as `__anonstruct_atomic_t_6` are real).
    fn new_comp(
        &mut self,
        kind: CompKind,
        name: String,
        loc: Loc,
        forward: Option<bool>,
    ) -> CompId {
        let id = CompId(self.prog.comps.len() as u32);
        self.prog.comps.push(CompDef {
            kind,
            name: name.clone(),
            fields: Vec::new(),
            complete: false,
            loc,
            packed: false,
            align: 0,
        });
        if let Some(forward) = forward {
            // A tag first met in a use (`struct s *p`) belongs to file scope
            // (gcc warns for parameter lists; CIL output relies on it).
            let scope = if forward { 0 } else { self.tags.len() - 1 };
            self.tags[scope].insert(name, Tag::Comp(id));
        }
        id
    }

    /// An enumeration's objects have the type gcc gives them: `unsigned
    /// int` when no enumerator is negative, else `int` (C11 6.7.2.2p4
    /// leaves the choice to the implementation). `enum E e = A; e - 1` is
    /// then unsigned arithmetic, as gcc computes it. The enumeration
    /// constants themselves are `int` (6.7.2.2p3); one outside the range
    /// of `int` (a GNU extension that changes their type) is refused.
    fn enum_type(&mut self, et: &'a Node<ast::EnumType>) -> Result<Ty> {
        let name = et.node.identifier.as_ref().map(|t| t.node.name.clone());
        if et.node.enumerators.is_empty() {
            // `enum E` without a body: the visible definition's type. One
            // not defined yet (a GNU extension) is refused: its type is
            // known only at the definition (unsigned int without negative
            // constants), and what was typed before it would stay int.
            if let Some(n) = &name {
                if let Some(Tag::Enum(t)) = self.tags.iter().rev().find_map(|m| m.get(n)) {
                    return Ok(t.clone());
                }
                return self.unsupported(et.span, format!("enum '{n}' used before its definition"));
            }
            return Ok(Ty::INT);
        }
        let mut next: i128 = 0;
        let mut negative = false;
        for e in &et.node.enumerators {
            if let Some(v) = &e.node.expression {
                next = self.const_expr(v)?;
            }
            if !(i32::MIN as i128..=i32::MAX as i128).contains(&next) {
                let d = self.err(
                    e.span,
                    crate::diag::Diagnostic::unsupported(format!(
                        "enumerator '{}' = {next} is outside the range of int (GNU gives such an enumeration another type)",
                        e.node.identifier.node.name
                    )),
                );
                // A use of any of its constants says why, not "not declared".
                for e in &et.node.enumerators {
                    self.bind(
                        e.node.identifier.node.name.clone(),
                        Sym::Poisoned(d.clone()),
                    );
                }
                return Err(d);
            }
            negative |= next < 0;
            self.bind(e.node.identifier.node.name.clone(), Sym::EnumConst(next));
            next += 1;
        }
        let ty = if negative { Ty::INT } else { Ty::UINT };
        if let Some(n) = name {
            self.tags
                .last_mut()
                .unwrap()
                .insert(n, Tag::Enum(ty.clone()));
        }
        Ok(ty)
    }

    pub(super) fn declarator(
        &mut self,
        base: Ty,
        d: &'a Node<ast::Declarator>,
    ) -> Result<Declared> {
        // Taken first, so that no early return leaves it for another
        // declarator: only the declared object's own outermost dimension
        // may be variable; nested declarators and inner dimensions may not.
        let vla_ctx = std::mem::replace(&mut self.vla_ctx, VlaCtx::No);
        // Attributes after the declarator: `mode` makes the base integer
        // type; `aligned` goes to an anonymous struct declared here
        // (glibc's `typedef struct {...} T __attribute__((aligned))`);
        // another alignment is the declared object's (see `Declared`).
        // `packed` there is the declared name's, which gcc ignores for a
        // variable or a typedef (it warns): it never changes a layout.
        let a = self.attrs(&d.node.extensions, AttrSite::Decl)?;
        let base = a.apply_mode(base, self.prog.data_model);
        let mut align = a.align;
        if let Ty::Comp(c) = base.unqual()
            && a.align > 0
            && self.prog.comp(*c).name.starts_with("__anon")
        {
            let def = &mut self.prog.comps[c.0 as usize];
            def.align = def.align.max(a.align);
            align = 0;
        }
        let mut ty = base;
        let mut params = None;
        let direct = matches!(
            d.node.kind.node,
            ast::DeclaratorKind::Identifier(_) | ast::DeclaratorKind::Abstract
        );
        // Prefix pointers bind first, then postfix array/function
        // declarators from the inside out.
        let derived = &d.node.derived;
        for dd in derived {
            if let ast::DerivedDeclarator::Pointer(q) = &dd.node {
                let atomic = q.iter().any(|q| {
                    matches!(&q.node, ast::PointerQualifier::TypeQualifier(t) if t.node == ast::TypeQualifier::Atomic)
                });
                ty = ty.ptr();
                if atomic {
                    ty = Ty::Atomic(Box::new(ty));
                }
            }
        }
        for dd in derived.iter().rev() {
            match &dd.node {
                ast::DerivedDeclarator::Pointer(_) => {}
                ast::DerivedDeclarator::Array(a) => {
                    if matches!(ty, Ty::Func(_)) {
                        return self.error(dd.span, "array of functions");
                    }
                    // The first array declarator is the outermost
                    // dimension (`int *a[n]`: pointers come first).
                    let first = derived
                        .iter()
                        .find(|x| matches!(x.node, ast::DerivedDeclarator::Array(_)));
                    let outer = direct && first.is_some_and(|x| std::ptr::eq(x, dd));
                    let n = match &a.node.size {
                        ast::ArraySize::Unknown => None,
                        ast::ArraySize::VariableUnknown if outer && vla_ctx == VlaCtx::Param => {
                            None
                        }
                        ast::ArraySize::VariableUnknown => {
                            return self.unsupported(dd.span, "variable-length array");
                        }
                        // `int a[n]` as a parameter is `int *a`; C
                        // evaluates `n` on entry, which is no effect when
                        // `n` has none.
                        ast::ArraySize::VariableExpression(e)
                        | ast::ArraySize::StaticExpression(e)
                            if outer && vla_ctx == VlaCtx::Param =>
                        {
                            if !pure_size(&e.node) {
                                return self.unsupported(
                                    e.span,
                                    "a variable-length array parameter whose size has side effects",
                                );
                            }
                            None
                        }
                        ast::ArraySize::VariableExpression(e)
                        | ast::ArraySize::StaticExpression(e) => match self.try_const_expr(e)? {
                            Some(n) if n >= 0 => Some(n as u64),
                            Some(_) => return self.error(e.span, "array size is negative"),
                            None if outer && vla_ctx == VlaCtx::Object => {
                                self.vla_size = Some(e);
                                None
                            }
                            None if vla_ctx == VlaCtx::No => {
                                return self.unsupported(
                                    e.span,
                                    "a variable-length array type here (only a block-scope array or a parameter may have a run-time size)",
                                );
                            }
                            None if direct => {
                                return self.unsupported(
                                    e.span,
                                    "a variable-length array with a run-time inner dimension",
                                );
                            }
                            None => {
                                return self.unsupported(
                                    e.span,
                                    "a variable-length array type in a nested declarator (a pointer to one)",
                                );
                            }
                        },
                    };
                    ty = Ty::Array(Box::new(ty), n);
                }
                ast::DerivedDeclarator::Function(fdecl) => {
                    let mut ps = Vec::new();
                    self.push_scope();
                    for p in &fdecl.node.parameters {
                        let pspecs = self.decl_specs(&p.node.specifiers, p.span);
                        let pspecs = match pspecs {
                            Ok(s) => s,
                            Err(e) => {
                                self.pop_scope();
                                return Err(e);
                            }
                        };
                        let (name, pty) = match &p.node.declarator {
                            Some(pd) => {
                                self.vla_ctx = VlaCtx::Param;
                                let r = self.declarator(pspecs.ty, pd);
                                let r = match r {
                                    Ok(r) => r,
                                    Err(e) => {
                                        self.pop_scope();
                                        return Err(e);
                                    }
                                };
                                (r.name, r.ty)
                            }
                            None => (None, pspecs.ty),
                        };
                        // A later parameter's type may name this one
                        // (`int n, int a[][n]`): a run-time dimension,
                        // refused by name where it is used.
                        if let Some(n) = &name {
                            self.bind(
                                n.clone(),
                                Sym::Poisoned(crate::diag::Diagnostic::unsupported(
                                    "a parameter's type that depends on another parameter (a variable-length array parameter)",
                                )),
                            );
                        }
                        // Parameters of array or function type are pointers.
                        let pty = match pty {
                            Ty::Array(e, _) => Ty::Ptr(e),
                            Ty::Func(f) => Ty::Ptr(Box::new(Ty::Func(f))),
                            t => t,
                        };
                        ps.push(Param {
                            name,
                            ty: pty,
                            loc: self.loc(p.span),
                        });
                    }
                    self.pop_scope();
                    if ps.len() == 1 && ps[0].ty == Ty::Void && ps[0].name.is_none() {
                        ps.clear();
                    }
                    let sig = FnSig {
                        ret: ty,
                        params: ps.iter().map(|p| p.ty.clone()).collect(),
                        variadic: matches!(fdecl.node.ellipsis, ast::Ellipsis::Some),
                        unprototyped: false,
                    };
                    params = Some(ps);
                    ty = Ty::Func(Box::new(sig));
                }
                ast::DerivedDeclarator::KRFunction(ids) => {
                    if !ids.is_empty() {
                        return self.unsupported(dd.span, "K&R-style parameter lists");
                    }
                    params = Some(Vec::new());
                    ty = Ty::Func(Box::new(FnSig {
                        ret: ty,
                        params: Vec::new(),
                        variadic: false,
                        unprototyped: true,
                    }));
                }
                ast::DerivedDeclarator::Block(_) => return self.unsupported(dd.span, "blocks (^)"),
            }
        }
        match &d.node.kind.node {
            ast::DeclaratorKind::Identifier(i) => Ok(Declared {
                name: Some(i.node.name.clone()),
                ty,
                params,
                align,
            }),
            ast::DeclaratorKind::Abstract => Ok(Declared {
                name: None,
                ty,
                params,
                align,
            }),
            ast::DeclaratorKind::Declarator(inner) => {
                let mut r = self.declarator(ty, inner)?;
                // `int (f)(int)`: parameters come from the outer level.
                if r.params.is_none() {
                    r.params = params;
                }
                r.align = r.align.max(align);
                Ok(r)
            }
        }
    }
}

/// Whether evaluating an array size has no effect (so a parameter's
/// size may go unevaluated).
fn pure_size(e: &ast::Expression) -> bool {
    match e {
        ast::Expression::Identifier(_)
        | ast::Expression::Constant(_)
        | ast::Expression::SizeOfTy(_)
        | ast::Expression::SizeOfVal(_)
        | ast::Expression::AlignOf(_) => true,
        ast::Expression::Member(m) => pure_size(&m.node.expression.node),
        ast::Expression::Cast(c) => pure_size(&c.node.expression.node),
        ast::Expression::UnaryOperator(u) => {
            !matches!(
                u.node.operator.node,
                ast::UnaryOperator::PreIncrement
                    | ast::UnaryOperator::PreDecrement
                    | ast::UnaryOperator::PostIncrement
                    | ast::UnaryOperator::PostDecrement
            ) && pure_size(&u.node.operand.node)
        }
        ast::Expression::BinaryOperator(b) => {
            use ast::BinaryOperator as B;
            !matches!(
                b.node.operator.node,
                B::Assign
                    | B::AssignMultiply
                    | B::AssignDivide
                    | B::AssignModulo
                    | B::AssignPlus
                    | B::AssignMinus
                    | B::AssignShiftLeft
                    | B::AssignShiftRight
                    | B::AssignBitwiseAnd
                    | B::AssignBitwiseXor
                    | B::AssignBitwiseOr
            ) && pure_size(&b.node.lhs.node)
                && pure_size(&b.node.rhs.node)
        }
        ast::Expression::Conditional(c) => {
            pure_size(&c.node.condition.node)
                && pure_size(&c.node.then_expression.node)
                && pure_size(&c.node.else_expression.node)
        }
        _ => false,
    }
}

/// Whether a declarator has a qualifier behind a pointer (`int *const`,
/// `const int **` has its own in the specifiers), at any depth.
pub(super) fn qualified_declarator(d: &ast::Declarator) -> bool {
    let here = d.derived.iter().any(|x| match &x.node {
        ast::DerivedDeclarator::Pointer(q) => q
            .iter()
            .any(|q| matches!(q.node, ast::PointerQualifier::TypeQualifier(_))),
        _ => false,
    });
    here || match &d.kind.node {
        ast::DeclaratorKind::Declarator(inner) => qualified_declarator(&inner.node),
        _ => false,
    }
}

impl<'a> Lowerer<'a> {
    /// Whether a type specifier may carry a qualifier seqc's types drop:
    /// a typedef with one inside, `typeof` (it keeps its operand's
    /// qualifiers) or `_Atomic(T)`.
    pub(super) fn qualified_spec(&self, t: &ast::TypeSpecifier) -> bool {
        match t {
            ast::TypeSpecifier::TypedefName(id) => self.qualified_typedefs.contains(&id.node.name),
            ast::TypeSpecifier::TypeOf(_) | ast::TypeSpecifier::Atomic(_) => true,
            _ => false,
        }
    }

    /// Whether a type name has a qualifier anywhere seqc's types drop.
    pub(super) fn qualified_type_name(&self, tn: &ast::TypeName) -> bool {
        tn.specifiers.iter().any(|s| match &s.node {
            ast::SpecifierQualifier::TypeQualifier(_) => true,
            ast::SpecifierQualifier::TypeSpecifier(t) => self.qualified_spec(&t.node),
            _ => false,
        }) || tn
            .declarator
            .as_ref()
            .is_some_and(|d| qualified_declarator(&d.node))
    }
}
