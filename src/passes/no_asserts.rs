//! `--property deadlock` alone: the user's assertions are not checked.
//! A failing assertion ends the run as the `abort` behind it would, so
//! the failing thread stops there (DESIGN.md §3 rule 4), which is what
//! `assume` means; a stopped thread is never part of a deadlock.
//!
//! Pre: lowered IR. Post: no `Assert` statement; each is an `Assume` of
//! its condition. The oracle runs this output too, so both read the
//! property the same way.

use crate::ir::*;

pub fn no_asserts(mut p: Program) -> Program {
    for f in &mut p.functions {
        if let Some(b) = &mut f.body {
            block(b);
        }
    }
    p
}

fn block(b: &mut Block) {
    for s in &mut b.0 {
        match &mut s.kind {
            StmtKind::Assert(c, _) => s.kind = StmtKind::Assume(c.clone()),
            StmtKind::If(_, a, e) => {
                block(a);
                block(e);
            }
            StmtKind::Loop { body, latch, .. } => {
                block(body);
                block(latch);
            }
            StmtKind::Switch(_, b) | StmtKind::Block(b) => block(b),
            _ => {}
        }
    }
}
