//! Initialisers: designators and brace elision resolved into sparse
//! `Init` trees (C11 6.7.9).

use super::Lowerer;
use crate::diag::Result;
use crate::ir::*;
use lang_c::ast;
use lang_c::span::{Node, Span};
use std::collections::BTreeMap;

/// An initialiser under construction.
enum Part {
    Leaf(Init),
    Agg(BTreeMap<u64, Part>),
}

impl Part {
    fn finish(self, ty: &Ty, prog: &Program) -> Init {
        match self {
            Part::Leaf(i) => i,
            Part::Agg(m) => match ty.unqual() {
                Ty::Array(elem, _) => Init::Array(
                    m.into_iter()
                        .map(|(k, p)| (k, p.finish(elem, prog)))
                        .collect(),
                ),
                Ty::Comp(c) => {
                    let def = prog.comp(*c);
                    Init::Comp(
                        m.into_iter()
                            .map(|(k, p)| (k as u32, p.finish(&def.fields[k as usize].ty, prog)))
                            .collect(),
                    )
                }
                _ => unreachable!("aggregate part for a scalar"),
            },
        }
    }
}

impl<'a> Lowerer<'a> {
    /// Returns the initialiser and the type completed by it
    /// (`int a[] = {1, 2}` has type `int[2]`).
    pub(super) fn initializer(
        &mut self,
        ty: &Ty,
        i: &'a Node<ast::Initializer>,
        is_static: bool,
    ) -> Result<(Init, Ty)> {
        let outer = self.static_init;
        self.static_init |= is_static;
        let r = self.initializer_in(ty, i, is_static);
        self.static_init = outer;
        r
    }

    fn initializer_in(
        &mut self,
        ty: &Ty,
        i: &'a Node<ast::Initializer>,
        is_static: bool,
    ) -> Result<(Init, Ty)> {
        // PTHREAD_MUTEX_INITIALIZER and friends.
        if let Ty::Pthread(p) = ty.unqual()
            && *p != PthreadTy::Thread
        {
            return Ok((self.pthread_initializer(*p, i, is_static)?, ty.clone()));
        }
        match &i.node {
            ast::Initializer::Expression(e) => {
                if let (Ty::Array(elem, n), ast::Expression::StringLiteral(s)) =
                    (ty.unqual(), &e.node)
                    && elem.is_integer()
                    && elem.int_bits(self.prog.data_model) == Some(8)
                {
                    let lit = self.string_literal(s)?;
                    let ExprKind::Str(mut bytes) = lit.kind else {
                        unreachable!()
                    };
                    let len = n.unwrap_or(bytes.len() as u64);
                    if bytes.len() as u64 > len + 1 {
                        return self.error(e.span, "initializer-string is too long for the array");
                    }
                    bytes.truncate(len as usize);
                    return Ok((Init::Str(bytes), Ty::Array(elem.clone(), Some(len))));
                }
                let x = if is_static {
                    self.pure_expr(e)?
                } else {
                    self.rvalue(e)?
                };
                if !ty.is_scalar() && x.ty.unqual() != ty.unqual() {
                    return self.error(e.span, "an aggregate needs a braced initializer");
                }
                let x = self.assign_convert(x, ty, e)?;
                Ok((Init::Expr(x), ty.clone()))
            }
            ast::Initializer::List(items) => self.init_top_list(ty, items, i.span, is_static),
        }
    }

    /// The initialiser of a mutex, condition, key or once control: the
    /// zero state (`PTHREAD_MUTEX_INITIALIZER`), or for a mutex one of
    /// glibc's `_NP` kind initialisers, whose only non-zero word is the
    /// kind (the fifth int on x86-64, the fourth on i386). A mutex of
    /// another kind is `Init::Expr` of the kind; anything else is refused.
    fn pthread_initializer(
        &mut self,
        p: PthreadTy,
        i: &'a Node<ast::Initializer>,
        is_static: bool,
    ) -> Result<Init> {
        // A key is a value: it may be copied.
        if p == PthreadTy::Key
            && !is_static
            && let ast::Initializer::Expression(e) = &i.node
        {
            let x = self.rvalue(e)?;
            if x.ty.unqual() == &Ty::Pthread(PthreadTy::Key) {
                return Ok(Init::Expr(x));
            }
        }
        let mut leaves = Vec::new();
        let mut designated = false;
        self.init_leaves(i, &mut leaves, &mut designated)?;
        let nonzero: Vec<(usize, Option<i128>)> = leaves
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, v)| *v != Some(0))
            .collect();
        if nonzero.is_empty() {
            return Ok(Init::Array(Vec::new()));
        }
        let kind_at = match self.prog.data_model {
            DataModel::Lp64 => 4,
            DataModel::Ilp32 => 3,
        };
        if p == PthreadTy::Mutex
            && !designated
            && let [(at, Some(kind))] = nonzero[..]
            && at == kind_at
            && (1..=3).contains(&kind)
        {
            // Adaptive (3) behaves as a normal mutex.
            if kind == 3 {
                return Ok(Init::Array(Vec::new()));
            }
            self.prog.pthread.mutex_kinds = true;
            return Ok(Init::Expr(Expr::int(kind, Ty::INT, self.loc(i.span))));
        }
        self.unsupported(
            i.span,
            format!(
                "a {} initialiser other than the zero state{}",
                p.c_name(),
                if p == PthreadTy::Mutex {
                    " or a PTHREAD_{RECURSIVE,ERRORCHECK,ADAPTIVE}_MUTEX_INITIALIZER_NP"
                } else {
                    ""
                }
            ),
        )
    }

    /// The scalar leaves of an initialiser in order (`None`: not a
    /// constant).
    fn init_leaves(
        &mut self,
        i: &'a Node<ast::Initializer>,
        out: &mut Vec<Option<i128>>,
        designated: &mut bool,
    ) -> Result<()> {
        match &i.node {
            ast::Initializer::Expression(e) => {
                let x = self.pure_expr(e)?;
                out.push(crate::ir::build::const_of(&x));
            }
            ast::Initializer::List(items) => {
                for it in items {
                    *designated |= !it.node.designation.is_empty();
                    self.init_leaves(&it.node.initializer, out, designated)?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn init_top_list(
        &mut self,
        ty: &Ty,
        items: &'a [Node<ast::InitializerListItem>],
        span: Span,
        is_static: bool,
    ) -> Result<(Init, Ty)> {
        if ty.is_scalar() {
            // `int x = { 1 };`
            return match items.first() {
                Some(it) if it.node.designation.is_empty() => {
                    self.initializer(ty, &it.node.initializer, is_static)
                }
                Some(_) => self.error(span, "designator in a scalar initializer"),
                None => Ok((
                    Init::Expr(self.convert(Expr::int(0, Ty::INT, self.loc(span)), ty)),
                    ty.clone(),
                )),
            };
        }
        // `char s[4] = { "ab" };`: the literal may stand in braces
        // (C11 6.7.9p14).
        if let (Ty::Array(elem, _), [it]) = (ty.unqual(), items)
            && it.node.designation.is_empty()
            && elem.is_integer()
            && elem.int_bits(self.prog.data_model) == Some(8)
            && let ast::Initializer::Expression(e) = &it.node.initializer.node
            && matches!(e.node, ast::Expression::StringLiteral(_))
        {
            return self.initializer(ty, &it.node.initializer, is_static);
        }
        if let Ty::Comp(c) = ty.unqual()
            && !self.prog.comp(*c).complete
        {
            return self.error(
                span,
                format!(
                    "initializer for '{}', which is incomplete",
                    self.prog.comp(*c).name
                ),
            );
        }
        let mut pos = 0;
        let mut max_index = 0u64;
        let part = self.init_agg(ty, items, &mut pos, true, is_static, &mut max_index)?;
        if pos < items.len() {
            return self.error(items[pos].span, "excess elements in initializer");
        }
        let ty = match ty.unqual() {
            Ty::Array(e, None) => Ty::Array(e.clone(), Some(max_index)),
            _ => ty.clone(),
        };
        Ok((part.finish(&ty, &self.prog), ty))
    }

    fn member_count(&self, ty: &Ty) -> Option<u64> {
        match ty.unqual() {
            Ty::Array(_, n) => *n,
            Ty::Comp(c) => {
                let d = self.prog.comp(*c);
                Some(if d.kind == CompKind::Union {
                    d.fields.len().min(1) as u64
                } else {
                    d.fields.len() as u64
                })
            }
            _ => Some(0),
        }
    }

    fn member_type(&self, ty: &Ty, k: u64) -> Ty {
        match ty.unqual() {
            Ty::Array(e, _) => (**e).clone(),
            Ty::Comp(c) => self.prog.comp(*c).fields[k as usize].ty.clone(),
            _ => unreachable!(),
        }
    }

    /// Fills one aggregate from `items[*pos..]`. At the top of a brace list
    /// (`top`) it takes everything; a brace-elided sub-aggregate takes only
    /// as many items as it has members.
    fn init_agg(
        &mut self,
        ty: &Ty,
        items: &'a [Node<ast::InitializerListItem>],
        pos: &mut usize,
        top: bool,
        is_static: bool,
        max_index: &mut u64,
    ) -> Result<Part> {
        let mut m: BTreeMap<u64, Part> = BTreeMap::new();
        self.fill(ty, &mut m, 0, items, pos, top, is_static, max_index, false)?;
        Ok(Part::Agg(m))
    }

    /// Fills the members of aggregate `ty` from member `cur` on with
    /// `items[*pos..]` into `m` (see `init_agg`).
    #[allow(clippy::too_many_arguments)]
    fn fill(
        &mut self,
        ty: &Ty,
        m: &mut BTreeMap<u64, Part>,
        mut cur: u64,
        items: &'a [Node<ast::InitializerListItem>],
        pos: &mut usize,
        top: bool,
        is_static: bool,
        max_index: &mut u64,
        first_designated: bool,
    ) -> Result<()> {
        let count = self.member_count(ty);
        // The first item's designation named this aggregate itself (brace
        // elision after a designator): it fills the first member.
        let mut designated_here = first_designated;
        let is_union =
            matches!(ty.unqual(), Ty::Comp(c) if self.prog.comp(*c).kind == CompKind::Union);
        while *pos < items.len() {
            let it = &items[*pos];
            if !it.node.designation.is_empty() && !std::mem::take(&mut designated_here) {
                if !top {
                    break;
                }
                let (k, sub_ty) = self.designator(ty, &it.node.designation[0])?;
                if is_union {
                    // A union holds one member: naming another drops the
                    // one before, naming a part of the same one keeps it.
                    m.retain(|&j, _| j == k);
                }
                let rest = &it.node.designation[1..];
                let entry = m.remove(&k);
                let part = self.designated(&sub_ty, entry, rest, items, pos, is_static)?;
                m.insert(k, part);
                cur = k + 1;
                *max_index = (*max_index).max(cur);
                continue;
            }
            if let Some(n) = count
                && (cur >= n || (is_union && cur >= 1))
            {
                if top {
                    return self.error(it.span, "excess elements in initializer");
                }
                break;
            }
            if is_union {
                // A value for the first member drops what a designator
                // gave another (`.u[1].b = 5, .u[0].a = 1, 2`: u[1].a is
                // 2, b is gone), as in the designated path above.
                m.retain(|&j, _| j == cur);
            }
            let mty = self.member_type(ty, cur);
            let pthread = matches!(mty.unqual(), Ty::Pthread(t) if *t != PthreadTy::Thread);
            let part = match &it.node.initializer.node {
                // A mutex (cond, ...) member's PTHREAD_*_INITIALIZER.
                ast::Initializer::List(_) if pthread => {
                    *pos += 1;
                    Part::Leaf(self.initializer(&mty, &it.node.initializer, is_static)?.0)
                }
                ast::Initializer::List(sub) => {
                    *pos += 1;
                    let (init, _) = self.init_top_list(&mty, sub, it.span, is_static)?;
                    Part::Leaf(init)
                }
                ast::Initializer::Expression(e) => {
                    let is_str = matches!(e.node, ast::Expression::StringLiteral(_));
                    let char_array = matches!(mty.unqual(), Ty::Array(el, _) if el.int_bits(self.prog.data_model) == Some(8) && el.is_integer());
                    if mty.is_scalar() || (is_str && char_array) {
                        *pos += 1;
                        Part::Leaf(self.initializer(&mty, &it.node.initializer, is_static)?.0)
                    } else {
                        // Same-typed struct value, or brace elision.
                        let x_ty = self.type_of_expr(e)?;
                        if x_ty.unqual() == mty.unqual() {
                            *pos += 1;
                            Part::Leaf(self.initializer(&mty, &it.node.initializer, is_static)?.0)
                        } else {
                            // Brace elision: the values fill the member's
                            // first parts and keep what a designator gave
                            // the rest (`.p[1].y = 5, .p[0].x = 1, 2, 3`
                            // gives p[1] {3, 5}; gcc and CBMC agree).
                            let mut sub = self.parts_of(&mty, m.remove(&cur), it.span);
                            let mut dummy = 0;
                            self.fill(
                                &mty, &mut sub, 0, items, pos, false, is_static, &mut dummy, false,
                            )?;
                            Part::Agg(sub)
                        }
                    }
                }
            };
            m.insert(cur, part);
            cur += 1;
            *max_index = (*max_index).max(cur);
        }
        Ok(())
    }

    fn designator(&mut self, ty: &Ty, d: &'a Node<ast::Designator>) -> Result<(u64, Ty)> {
        match (&d.node, ty.unqual()) {
            (ast::Designator::Index(e), Ty::Array(elem, n)) => {
                let k = self.const_expr(e)?;
                if k < 0 || n.is_some_and(|n| k as u64 >= n) {
                    return self.error(e.span, "array index in initializer is out of bounds");
                }
                Ok((k as u64, (**elem).clone()))
            }
            (ast::Designator::Member(id), Ty::Comp(c)) => {
                let Some(chain) = self.find_field(*c, &id.node.name) else {
                    return self.error(id.span, format!("no member named '{}'", id.node.name));
                };
                if chain.len() > 1 {
                    return self.unsupported(
                        id.span,
                        "designated initialiser of a member of an anonymous struct",
                    );
                }
                let (cc, k) = chain[0];
                Ok((k as u64, self.prog.comp(cc).fields[k as usize].ty.clone()))
            }
            (ast::Designator::Range(_), _) => self.unsupported(d.span, "range designators"),
            _ => self.error(d.span, "designator does not match the type"),
        }
    }

    /// The members an earlier initialiser gave aggregate `ty`, one part
    /// each, so that a later one can override some of them.
    fn parts_of(&mut self, ty: &Ty, existing: Option<Part>, span: Span) -> BTreeMap<u64, Part> {
        match existing {
            Some(Part::Agg(m)) => m,
            // A whole initialiser given before (`.a = {1, 2}, .a.x = 5`):
            // the designation overrides only its part (gcc; DR 413).
            Some(Part::Leaf(Init::Array(items))) => {
                items.into_iter().map(|(k, i)| (k, Part::Leaf(i))).collect()
            }
            Some(Part::Leaf(Init::Comp(items))) => items
                .into_iter()
                .map(|(k, i)| (k as u64, Part::Leaf(i)))
                .collect(),
            Some(Part::Leaf(Init::Str(bytes))) => {
                let elem = match ty.unqual() {
                    Ty::Array(e, _) => (**e).clone(),
                    _ => Ty::CHAR,
                };
                let loc = self.loc(span);
                bytes
                    .iter()
                    .enumerate()
                    .map(|(k, &b)| {
                        let v = self.convert(Expr::int(b as i128, Ty::INT, loc), &elem);
                        (k as u64, Part::Leaf(Init::Expr(v)))
                    })
                    .collect()
            }
            _ => BTreeMap::new(),
        }
    }

    /// The part of `ty` that the designation `rest` (what is left of the
    /// one of `items[*pos]`) and its initialiser give, merged into what
    /// `existing` had. Items without a designation that follow go on from
    /// the member after the one designated, innermost level first (C11
    /// 6.7.9p17: `{ .in.a = {5}, 6 }` gives 6 to `in.b`).
    fn designated(
        &mut self,
        ty: &Ty,
        existing: Option<Part>,
        rest: &'a [Node<ast::Designator>],
        items: &'a [Node<ast::InitializerListItem>],
        pos: &mut usize,
        is_static: bool,
    ) -> Result<Part> {
        // What earlier designators gave this object: a later one
        // overrides only its own part (C11 6.7.9p19).
        let mut m = self.parts_of(ty, existing, items[*pos].span);
        if rest.is_empty() {
            let init = &items[*pos].node.initializer;
            // `.in[0] = 7, 8` with `in` an array of structs: the value is
            // the first scalar of the designated aggregate, the items after
            // it fill the rest (brace elision, C11 6.7.9p20).
            let elided = match &init.node {
                ast::Initializer::Expression(e) if !ty.is_scalar() => {
                    let char_array = matches!(ty.unqual(), Ty::Array(el, _) if el.is_integer() && el.int_bits(self.prog.data_model) == Some(8));
                    let is_str = matches!(e.node, ast::Expression::StringLiteral(_));
                    let pthread = matches!(ty.unqual(), Ty::Pthread(_));
                    !(pthread || (is_str && char_array))
                        && self.type_of_expr(e)?.unqual() != ty.unqual()
                }
                _ => false,
            };
            if elided {
                // `.s.hi = 2, .s = 1`: the 1 fills `.s.lo` alone.
                let mut dummy = 0;
                self.fill(
                    ty, &mut m, 0, items, pos, false, is_static, &mut dummy, true,
                )?;
                return Ok(Part::Agg(m));
            }
            let (i, _) = self.initializer(ty, init, is_static)?;
            *pos += 1;
            return Ok(Part::Leaf(i));
        }
        let (k, sub_ty) = self.designator(ty, &rest[0])?;
        let is_union =
            matches!(ty.unqual(), Ty::Comp(c) if self.prog.comp(*c).kind == CompKind::Union);
        if is_union {
            m.retain(|&j, _| j == k);
        }
        let entry = m.remove(&k);
        let p = self.designated(&sub_ty, entry, &rest[1..], items, pos, is_static)?;
        m.insert(k, p);
        let mut dummy = 0;
        self.fill(
            ty,
            &mut m,
            k + 1,
            items,
            pos,
            false,
            is_static,
            &mut dummy,
            false,
        )?;
        Ok(Part::Agg(m))
    }
}
