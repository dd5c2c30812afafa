//! The IR verifier: structural invariants every pass must keep. A failure
//! is a bug in seqc, never in the input, so it is a `String` for a panic.

use super::*;

pub fn verify(p: &Program) -> std::result::Result<(), String> {
    for (gi, g) in p.globals.iter().enumerate() {
        if let Some(i) = &g.init {
            let mut es = Vec::new();
            i.exprs(&mut es);
            for e in es {
                check_expr(p, None, e).map_err(|m| format!("global g{gi} '{}': {m}", g.name))?;
            }
        }
    }
    for f in &p.functions {
        let Some(body) = &f.body else { continue };
        for v in &f.params {
            if v.index() >= f.locals.len() {
                return Err(format!("{}: parameter {v} out of range", f.name));
            }
        }
        let mut cx = Cx {
            p,
            f,
            loops: 0,
            switches: 0,
        };
        cx.block(body).map_err(|m| format!("in {}: {m}", f.name))?;
    }
    Ok(())
}

/// The normaliser's postcondition (DESIGN.md §2): outside atomic code,
/// every statement makes at most one visible access (`ir::access`).
pub fn verify_normalized(p: &Program) -> std::result::Result<(), String> {
    let globals: Vec<bool> = p.globals.iter().map(|g| !g.thread_local).collect();
    for f in &p.functions {
        let (Some(body), false) = (&f.body, f.atomic) else {
            continue;
        };
        let escaping = super::access::escaping_locals(f);
        let sh = super::access::Shared {
            globals: &globals,
            escaping: &escaping,
        };
        normalized_block(p, &sh, body).map_err(|m| format!("in {}: {m}", f.name))?;
    }
    Ok(())
}

fn normalized_block(
    p: &Program,
    sh: &super::access::Shared,
    b: &Block,
) -> std::result::Result<(), String> {
    // An atomic section is one step: what is inside is not split.
    let mut atomic = 0u32;
    for s in &b.0 {
        match s.kind {
            StmtKind::Op {
                op: Op::AtomicBegin,
                ..
            } => atomic += 1,
            StmtKind::Op {
                op: Op::AtomicEnd, ..
            } => atomic = atomic.saturating_sub(1),
            _ => {}
        }
        if atomic > 0 {
            continue;
        }
        if let Some(why) = sh.normalized(s) {
            return Err(format!("{why} at {}", p.describe(s.loc)));
        }
        match &s.kind {
            StmtKind::If(_, a, b) => {
                normalized_block(p, sh, a)?;
                normalized_block(p, sh, b)?;
            }
            StmtKind::Loop { body, latch, .. } => {
                normalized_block(p, sh, body)?;
                normalized_block(p, sh, latch)?;
            }
            StmtKind::Switch(_, b) | StmtKind::Block(b) => normalized_block(p, sh, b)?,
            _ => {}
        }
    }
    Ok(())
}

struct Cx<'a> {
    p: &'a Program,
    f: &'a Function,
    loops: u32,
    switches: u32,
}

impl Cx<'_> {
    fn block(&mut self, b: &Block) -> std::result::Result<(), String> {
        b.0.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &Stmt) -> std::result::Result<(), String> {
        let at = |m: String| format!("{} (line {})", m, s.loc.line);
        for e in s.exprs() {
            check_expr(self.p, Some(self.f), e).map_err(at)?;
        }
        match &s.kind {
            StmtKind::Decl(v, _) if v.index() >= self.f.locals.len() => {
                return Err(at(format!("local {v} out of range")));
            }
            StmtKind::Assign(a, _) if !a.is_lvalue() => {
                return Err(at("assignment to a non-lvalue".into()));
            }
            StmtKind::Call { dest: Some(d), .. } | StmtKind::Op { dest: Some(d), .. }
                if !d.is_lvalue() =>
            {
                return Err(at("call result into a non-lvalue".into()));
            }
            StmtKind::If(_, a, b) => {
                self.block(a)?;
                self.block(b)?;
            }
            StmtKind::Loop { body, latch, .. } => {
                self.loops += 1;
                self.block(body)?;
                self.block(latch)?;
                self.loops -= 1;
            }
            StmtKind::Switch(_, b) => {
                self.switches += 1;
                self.block(b)?;
                self.switches -= 1;
            }
            StmtKind::Block(b) => self.block(b)?,
            StmtKind::Break if self.loops + self.switches == 0 => {
                return Err(at("break outside loop/switch".into()));
            }
            StmtKind::Continue if self.loops == 0 => {
                return Err(at("continue outside a loop".into()));
            }
            StmtKind::Case(_) if self.switches == 0 => {
                return Err(at("case outside a switch".into()));
            }
            StmtKind::Label(l) | StmtKind::Goto(l) if l.index() >= self.f.labels.len() => {
                return Err(at(format!("label {l} out of range")));
            }
            _ => {}
        }
        Ok(())
    }
}

fn check_expr(p: &Program, f: Option<&Function>, e: &Expr) -> std::result::Result<(), String> {
    let mut err = None;
    e.walk(&mut |x| {
        if err.is_some() {
            return;
        }
        match &x.kind {
            ExprKind::Local(v) => match f {
                Some(f) if v.index() < f.locals.len() => {}
                _ => err = Some(format!("local {v} out of range")),
            },
            ExprKind::Global(g) if g.index() >= p.globals.len() => {
                err = Some(format!("global {g} out of range"))
            }
            ExprKind::Func(fi) if fi.index() >= p.functions.len() => {
                err = Some(format!("function {fi} out of range"))
            }
            ExprKind::Member(b, i) => match b.ty.unqual() {
                Ty::Comp(c) if (*i as usize) < p.comp(*c).fields.len() => {}
                _ => err = Some("member of a non-struct or index out of range".into()),
            },
            ExprKind::Deref(q) if !q.ty.is_pointer() => {
                err = Some("dereference of a non-pointer".into())
            }
            ExprKind::AddrOf(q) if !q.is_lvalue() && !matches!(q.kind, ExprKind::Func(_)) => {
                err = Some("address of a non-lvalue".into())
            }
            ExprKind::Binary(op, a, b) => {
                use BinOp::*;
                match op {
                    PtrAdd | PtrSub => {
                        if !a.ty.is_pointer() || !b.ty.is_integer() {
                            err = Some("pointer arithmetic on wrong types".into())
                        }
                    }
                    PtrDiff | LogAnd | LogOr | Shl | Shr => {}
                    _ if a.ty.is_pointer() || b.ty.is_pointer() => {}
                    _ => {
                        if a.ty.unqual() != b.ty.unqual() {
                            err = Some(format!(
                                "operands of {} differ in type: {:?} vs {:?}",
                                op.c_op(),
                                a.ty,
                                b.ty
                            ))
                        }
                    }
                }
            }
            _ => {}
        }
    });
    err.map_or(Ok(()), Err)
}
