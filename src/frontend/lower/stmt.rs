//! Statements: structured control flow onto `Loop`/`If`/`Switch`, labels
//! and gotos kept; `ERROR:` labels are violations (old SV-COMP tasks).

use super::Lowerer;
use super::expr::Want;
use crate::diag::{Diagnostic, Result};
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
    /// see it, for the instructions whose meaning seqc gives exactly:
    /// `ud2` (the kernel's BUG()) stops the thread like abort(); port
    /// input (`in*`) gives its outputs unknown values (a device's); port
    /// output, fences, `nop`/`pause`, `cli`/`sti` change nothing seqc
    /// models; `xchg` with two read-write operands swaps them in one step;
    /// a `mov` between a register and a memory operand of one scalar
    /// width (the suffix's, when it has one) reads or writes it;
    /// an empty template leaves a `+` operand as it is and gives a `=`
    /// operand the input tied to it. Anything else is refused by name: an
    /// unknown value for its outputs could make up a bug.
    fn asm(&mut self, a: &'a Node<ast::AsmStatement>, loc: Loc) -> Result<()> {
        let (template, outputs, inputs) = match &a.node {
            ast::AsmStatement::GnuBasic(t) => (&t.node, &[][..], &[][..]),
            ast::AsmStatement::GnuExtended(x) => (&x.template.node, &x.outputs[..], &x.inputs[..]),
        };
        let text = asm_text(template);
        let insns = asm_instructions(&text);
        let mnemonic = |i: &str| {
            i.split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_lowercase()
        };
        let quiet = |m: &str| {
            matches!(
                m,
                "nop" | "pause" | "sfence" | "lfence" | "mfence" | "cli" | "sti" | "rep"
            ) || m.starts_with("out")
        };
        let port_in = |m: &str| matches!(m, "in" | "inb" | "inw" | "inl");
        let constraint = |o: &Node<ast::GnuAsmOperand>| asm_text(&o.node.constraints.node);
        let refuse = |me: &mut Self| {
            let shown: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
            me.unsupported(
                a.span,
                format!(
                    "inline assembly \"{shown}\" (seqc models port I/O, fences, xchg, mov and ud2)"
                ),
            )
        };
        // `rep` only as the prefix of a `nop` (`rep; nop`), never of a
        // string instruction on the same line.
        let ms: Vec<String> = insns
            .iter()
            .map(|i| match mnemonic(i) {
                m if m == "rep" && i.trim() != "rep" => "rep-op".to_string(),
                m => m,
            })
            .collect();
        if ms.iter().all(|m| quiet(m)) && !ms.is_empty() && outputs.is_empty() {
            return Ok(());
        }
        // The kernel's BUG(): `ud2` alone (its bug-table entry is in a
        // pushed section) traps, so the thread stops as at abort().
        if ms.iter().any(|m| m == "ud2") && ms.iter().all(|m| m == "ud2" || quiet(m)) {
            self.emit_op0(Op::Abort, loc);
            return Ok(());
        }
        // An instruction's operands without spaces and without operand
        // modifiers (`%q0` names operand 0 as a 64-bit register; the
        // suffix rules check widths).
        let operands = |i: &str| -> String {
            let text: String = i.split_whitespace().skip(1).collect::<Vec<_>>().join("");
            let mut out = String::new();
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                out.push(c);
                if c == '%'
                    && let Some(&m) = chars.peek()
                    && matches!(m, 'b' | 'w' | 'k' | 'q' | 'h')
                {
                    chars.next();
                }
            }
            out
        };
        if ms.iter().any(|m| port_in(m)) && ms.iter().all(|m| quiet(m) || port_in(m)) {
            for o in outputs {
                if constraint(o).contains('+') || constraint(o).contains('m') {
                    return refuse(self);
                }
                let lv = self.expr(&o.node.variable_name, Want::Value)?;
                let ty = lv.ty.unqual().clone();
                if !ty.is_integer() {
                    return self.unsupported(o.span, "inline assembly with a non-integer output");
                }
                self.emit(
                    StmtKind::Assign(lv, Expr::new(ExprKind::Nondet, ty, loc)),
                    loc,
                );
            }
            return Ok(());
        }
        if ms.len() == 1
            && ms[0].starts_with("xchg")
            && matches!(operands(&insns[0]).as_str(), "%0,%1" | "%1,%0")
            && outputs.len() == 2
            && inputs.is_empty()
        {
            if !outputs.iter().all(|o| constraint(o).starts_with('+')) {
                return refuse(self);
            }
            let x = self.lvalue_addr_once(&outputs[0].node.variable_name)?;
            let y = self.lvalue_addr_once(&outputs[1].node.variable_name)?;
            let width = |me: &Self, t: &Ty| me.prog.size_of(t);
            if x.ty.unqual() != y.ty.unqual()
                || !(x.ty.is_integer() || x.ty.is_pointer())
                || !suffix_fits(&ms[0], "xchg", width(self, &x.ty))
            {
                return refuse(self);
            }
            let ty = x.ty.unqual().clone();
            self.emit_op0(Op::AtomicBegin, loc);
            let t = self.temp(ty, loc);
            self.emit(StmtKind::Assign(t.clone(), x.clone()), loc);
            self.emit(StmtKind::Assign(x, y.clone()), loc);
            self.emit(StmtKind::Assign(y, t), loc);
            self.emit_op0(Op::AtomicEnd, loc);
            return Ok(());
        }
        // The kernel's paravirt call (`call *%c2` through an operations
        // table the program only declares): a call through a pointer to a
        // function without a definition, which returns any value and has
        // no other effect (README, as for any such call).
        if let [call] = &insns[..]
            && let Some(k) = call
                .strip_prefix("call")
                .map(|r| r.trim())
                .and_then(|r| r.strip_prefix("*%c"))
                .and_then(|k| k.parse::<usize>().ok())
            && k >= outputs.len()
            && let Some(op) = inputs.get(k - outputs.len())
            && constraint(op) == "i"
        {
            let target = self.rvalue(&op.node.variable_name)?;
            let mut base = None;
            target.walk(&mut |x| {
                if let ExprKind::Global(g) = x.kind {
                    base.get_or_insert(g);
                }
            });
            let Some(g) = base else {
                return refuse(self);
            };
            let d = Diagnostic::unsupported(format!(
                "inline assembly \"{}\" calling through '{}', which the program defines or writes (seqc would not run the callee)",
                insns[0],
                self.prog.globals[g.index()].name
            ));
            let d = self.err(a.span, d);
            self.asm_calls.push((g, d));
            for o in outputs {
                let c = constraint(o);
                if c.contains('+') || c.contains('m') {
                    return refuse(self);
                }
                let lv = self.expr(&o.node.variable_name, Want::Value)?;
                let ty = lv.ty.unqual().clone();
                if !(ty.is_integer() || ty.is_pointer()) {
                    return refuse(self);
                }
                self.emit(
                    StmtKind::Assign(lv, Expr::new(ExprKind::Nondet, ty, loc)),
                    loc,
                );
            }
            return Ok(());
        }
        // A plain move between a register operand and a memory one (the
        // kernel's readl/writel): a read or a write of that memory.
        if ms.len() == 1 && ms[0].starts_with("mov") && ms[0].len() <= 4 {
            let ops = operands(&insns[0]);
            let mem = |o: &Node<ast::GnuAsmOperand>| constraint(o) == "m";
            let reg = |o: &Node<ast::GnuAsmOperand>| {
                let c = constraint(o);
                !c.contains('m') && !c.contains('+') && !c.is_empty()
            };
            let (to, from) = match (ops.as_str(), outputs, inputs) {
                ("%1,%0", [o], [i]) if reg(o) && mem(i) => (o, i),
                ("%0,%1", [], [i, o]) if reg(i) && mem(o) => (o, i),
                _ => return refuse(self),
            };
            // Both operands scalars of the width the suffix names: the
            // move copies bytes, which is then C's assignment.
            let src_ty = self.type_of_expr(&from.node.variable_name)?;
            let dst_ty = self.type_of_expr(&to.node.variable_name)?;
            let scalar = |t: &Ty| t.is_integer() || t.is_pointer();
            let (ws, wd) = (self.prog.size_of(&src_ty), self.prog.size_of(&dst_ty));
            if !scalar(&src_ty) || !scalar(&dst_ty) || ws != wd || !suffix_fits(&ms[0], "mov", ws) {
                return refuse(self);
            }
            let v = self.rvalue(&from.node.variable_name)?;
            let lv = self.expr(&to.node.variable_name, Want::Value)?;
            let v = self.assign_convert(v, &lv.ty.unqual().clone(), &from.node.variable_name)?;
            self.emit(StmtKind::Assign(lv, v), loc);
            return Ok(());
        }
        if insns.is_empty() {
            // Operands only: `+` ones keep their value, a `=` one takes
            // the input tied to it by number ("0").
            let mut moves = Vec::new();
            for (k, o) in outputs.iter().enumerate() {
                let c = constraint(o);
                if c.starts_with('+') {
                    continue;
                }
                let tied = inputs.iter().find(|i| constraint(i) == k.to_string());
                let Some(i) = tied else {
                    return refuse(self);
                };
                moves.push((o, i));
            }
            for (o, i) in moves {
                let v = self.rvalue(&i.node.variable_name)?;
                let lv = self.expr(&o.node.variable_name, Want::Value)?;
                let v = self.assign_convert(v, &lv.ty.unqual().clone(), &i.node.variable_name)?;
                self.emit(StmtKind::Assign(lv, v), loc);
            }
            return Ok(());
        }
        refuse(self)
    }

    /// An asm operand's lvalue, its address computed once (`*p` stays
    /// `*p` only when p is a plain variable).
    fn lvalue_addr_once(&mut self, e: &'a Node<ast::Expression>) -> Result<Expr> {
        let lv = self.expr(e, Want::Value)?;
        Ok(match lv.kind {
            ExprKind::Global(_) | ExprKind::Local(_) => lv,
            _ => {
                let loc = lv.loc;
                let pt = lv.ty.clone().ptr();
                let a = self.temp(pt.clone(), loc);
                let addr = Expr::new(ExprKind::AddrOf(Box::new(lv.clone())), pt, loc);
                self.emit(StmtKind::Assign(a.clone(), addr), loc);
                Expr::new(ExprKind::Deref(Box::new(a)), lv.ty.clone(), loc)
            }
        })
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

/// An asm template's text: its string pieces joined, with C's escapes for
/// new lines and tabs read.
fn asm_text(t: &[String]) -> String {
    let mut out = String::new();
    for piece in t {
        let body = piece
            .strip_prefix('"')
            .and_then(|p| p.strip_suffix('"'))
            .unwrap_or(piece);
        out.push_str(&body.replace("\\n", "\n").replace("\\t", "\t"));
    }
    out
}

/// Whether a mnemonic's size suffix (`movl`, `xchgq`) agrees with an
/// operand of `bytes` bytes; no suffix agrees with any.
fn suffix_fits(mnemonic: &str, base: &str, bytes: Option<u64>) -> bool {
    let want = match mnemonic.strip_prefix(base) {
        Some("") => return true,
        Some("b") => 1,
        Some("w") => 2,
        Some("l") => 4,
        Some("q") => 8,
        _ => return false,
    };
    bytes == Some(want)
}

/// The instructions of an asm template: split at new lines and `;`,
/// without labels (`1:`) and without what a pushed section holds (the
/// kernel's bug and lock tables: data, never run here). Alignment
/// directives are dropped; any other directive is kept as an
/// instruction, which no rule accepts (`.byte` may encode any
/// instruction).
fn asm_instructions(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut pushed = 0u32;
    for line in text.split(['\n', ';']) {
        let mut i = line.trim();
        while let Some((label, rest)) = i.split_once(':') {
            if label.is_empty() || !label.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                break;
            }
            i = rest.trim();
        }
        if i.is_empty() {
            continue;
        }
        let word = i.split_whitespace().next().unwrap_or("");
        match word {
            ".pushsection" => pushed += 1,
            ".popsection" => pushed = pushed.saturating_sub(1),
            _ if pushed > 0 => {}
            ".balign" | ".align" | ".p2align" => {}
            _ => out.push(i.to_string()),
        }
    }
    out
}
