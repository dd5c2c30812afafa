//! Statements: structured control flow onto `Loop`/`If`/`Switch`, labels
//! and gotos kept; `ERROR:` labels are violations (old SV-COMP tasks).

use super::Lowerer;
use super::expr::Want;
use crate::diag::Result;
use crate::ir::*;
use lang_c::ast;
use lang_c::span::Node;

impl<'a> Lowerer<'a> {
    pub(super) fn block_item(&mut self, it: &'a Node<ast::BlockItem>) -> Result<()> {
        match &it.node {
            ast::BlockItem::Declaration(d) => self.declaration(d, false),
            ast::BlockItem::StaticAssert(s) => self.static_assert(s),
            ast::BlockItem::Statement(s) => self.statement(s),
        }
    }

    fn sub_block(&mut self, s: &'a Node<ast::Statement>) -> Result<Block> {
        let (b, ()) = self.collect(|me| {
            me.push_scope();
            let r = me.statement(s);
            me.pop_scope();
            r
        })?;
        // A compound statement as the body already made its own block.
        if b.0.len() == 1
            && let StmtKind::Block(_) = &b.0[0].kind
        {
            let Stmt {
                kind: StmtKind::Block(inner),
                ..
            } = b.0.into_iter().next().unwrap()
            else {
                unreachable!()
            };
            return Ok(inner);
        }
        Ok(b)
    }

    pub(super) fn statement(&mut self, s: &'a Node<ast::Statement>) -> Result<()> {
        let loc = self.loc(s.span);
        match &s.node {
            ast::Statement::Compound(items) => {
                let (b, ()) = self.collect(|me| {
                    me.push_scope();
                    let r = items.iter().try_for_each(|it| me.block_item(it));
                    me.pop_scope();
                    r
                })?;
                self.emit(StmtKind::Block(b), loc);
            }
            ast::Statement::Expression(None) => {}
            ast::Statement::Expression(Some(e)) => self.discard(e)?,
            ast::Statement::If(i) => {
                let c = self.cond_expr(&i.node.condition)?;
                let t = self.sub_block(&i.node.then_statement)?;
                let e = match &i.node.else_statement {
                    Some(es) => self.sub_block(es)?,
                    None => Block::default(),
                };
                self.emit(StmtKind::If(c, t, e), loc);
            }
            ast::Statement::While(w) => {
                let (mut body, c) = self.collect(|me| me.cond_expr(&w.node.expression))?;
                body.0.push(self.exit_unless(c, loc));
                let inner = self.loop_body(&w.node.statement)?;
                body.0.extend(inner.0);
                self.emit(
                    StmtKind::Loop {
                        body,
                        latch: Block::default(),
                        trips: None,
                    },
                    loc,
                );
            }
            ast::Statement::DoWhile(d) => {
                let body = self.loop_body(&d.node.statement)?;
                let (mut latch, c) = self.collect(|me| me.cond_expr(&d.node.expression))?;
                latch.0.push(self.exit_unless(c, loc));
                self.emit(
                    StmtKind::Loop {
                        body,
                        latch,
                        trips: None,
                    },
                    loc,
                );
            }
            ast::Statement::For(f) => {
                let (b, ()) = self.collect(|me| {
                    me.push_scope();
                    let r = me.for_loop(f, loc);
                    me.pop_scope();
                    r
                })?;
                self.emit(StmtKind::Block(b), loc);
            }
            ast::Statement::Switch(sw) => {
                let x = self.rvalue(&sw.node.expression)?;
                if !x.ty.is_integer() {
                    return self.error(
                        sw.node.expression.span,
                        "switch on a value that is not an integer",
                    );
                }
                let t = super::arith::promote(&x.ty);
                let x = self.convert(x, &t);
                self.fs().breakable += 1;
                let body = self.sub_block(&sw.node.statement);
                self.fs().breakable -= 1;
                self.emit(StmtKind::Switch(x, body?), loc);
            }
            ast::Statement::Labeled(l) => {
                match &l.node.label.node {
                    ast::Label::Identifier(id) => {
                        let name = id.node.name.clone();
                        if !self.fs().defined_labels.insert(name.clone()) {
                            return self.error(l.span, format!("label '{name}' is defined twice"));
                        }
                        let lab = self.label(&name);
                        self.emit(StmtKind::Label(lab), loc);
                        if name == "ERROR" {
                            // SV-COMP tasks of 2020 and older: reaching ERROR is the violation.
                            self.emit(
                                StmtKind::Assert(
                                    Expr::int(0, Ty::INT, loc),
                                    AssertKind::ReachError,
                                ),
                                loc,
                            );
                        }
                    }
                    ast::Label::Case(e) => {
                        let v = self.const_expr(e)?;
                        self.emit(StmtKind::Case(CaseLabel::Value(v)), loc);
                    }
                    ast::Label::CaseRange(r) => {
                        let lo = self.const_expr(&r.node.low)?;
                        let hi = self.const_expr(&r.node.high)?;
                        self.emit(StmtKind::Case(CaseLabel::Range(lo, hi)), loc);
                    }
                    ast::Label::Default => self.emit(StmtKind::Case(CaseLabel::Default), loc),
                }
                self.statement(&l.node.statement)?;
            }
            ast::Statement::Goto(id) => {
                let lab = self.label(&id.node.name);
                self.emit(StmtKind::Goto(lab), loc);
            }
            ast::Statement::Continue => {
                if self.fs().loops == 0 {
                    return self.error(s.span, "'continue' outside a loop");
                }
                self.emit(StmtKind::Continue, loc);
            }
            ast::Statement::Break => {
                if self.fs().breakable == 0 {
                    return self.error(s.span, "'break' outside a loop or switch");
                }
                self.emit(StmtKind::Break, loc);
            }
            ast::Statement::Return(e) => {
                let ret = self.fs().ret.clone();
                let v = match e {
                    Some(e) if !ret.is_void() => {
                        let v = self.rvalue(e)?;
                        Some(self.assign_convert(v, &ret, e)?)
                    }
                    Some(e) => {
                        self.discard(e)?;
                        None
                    }
                    None => None,
                };
                self.emit(StmtKind::Return(v), loc);
            }
            ast::Statement::Asm(a) => self.asm(a, loc)?,
        }
        Ok(())
    }

    /// Inline assembly, as far as a sequentially consistent C program can
    /// see it: `ud2` (the kernel's BUG()) stops the thread like abort();
    /// every output operand gets an unknown value; inputs, clobbers and
    /// barriers change nothing else. Kernel drivers use it for port I/O
    /// and fences.
    fn asm(&mut self, a: &'a Node<ast::AsmStatement>, loc: Loc) -> Result<()> {
        let (template, outputs) = match &a.node {
            ast::AsmStatement::GnuBasic(t) => (&t.node, &[][..]),
            ast::AsmStatement::GnuExtended(x) => (&x.template.node, &x.outputs[..]),
        };
        if template.iter().any(|t| t.contains("ud2")) {
            self.emit(
                StmtKind::Op {
                    dest: None,
                    op: Op::Abort,
                    args: vec![],
                },
                loc,
            );
            return Ok(());
        }
        for o in outputs {
            let lv = self.expr(&o.node.variable_name, Want::Value)?;
            let ty = lv.ty.unqual().clone();
            if !(ty.is_integer() || ty.is_pointer()) {
                return self.unsupported(o.span, "inline assembly with a non-scalar output");
            }
            self.emit(
                StmtKind::Assign(lv, Expr::new(ExprKind::Nondet, ty, loc)),
                loc,
            );
        }
        Ok(())
    }

    fn exit_unless(&self, c: Expr, loc: Loc) -> Stmt {
        let nc = self.fold(self.negate(c));
        Stmt {
            kind: StmtKind::If(
                nc,
                Block(vec![Stmt {
                    kind: StmtKind::Break,
                    loc: loc.generated(),
                }]),
                Block::default(),
            ),
            loc: loc.generated(),
        }
    }

    fn loop_body(&mut self, s: &'a Node<ast::Statement>) -> Result<Block> {
        self.fs().loops += 1;
        self.fs().breakable += 1;
        let b = self.sub_block(s);
        self.fs().loops -= 1;
        self.fs().breakable -= 1;
        b
    }

    fn for_loop(&mut self, f: &'a Node<ast::ForStatement>, loc: Loc) -> Result<()> {
        match &f.node.initializer.node {
            ast::ForInitializer::Empty => {}
            ast::ForInitializer::Expression(e) => self.discard(e)?,
            ast::ForInitializer::Declaration(d) => self.declaration(d, false)?,
            ast::ForInitializer::StaticAssert(s) => self.static_assert(s)?,
        }
        let mut body = Block::default();
        if let Some(c) = &f.node.condition {
            let (b, c) = self.collect(|me| me.cond_expr(c))?;
            body = b;
            body.0.push(self.exit_unless(c, loc));
        }
        let inner = self.loop_body(&f.node.statement)?;
        body.0.extend(inner.0);
        let latch = match &f.node.step {
            Some(st) => self.collect(|me| me.discard(st))?.0,
            None => Block::default(),
        };
        self.emit(
            StmtKind::Loop {
                body,
                latch,
                trips: None,
            },
            loc,
        );
        Ok(())
    }
}
