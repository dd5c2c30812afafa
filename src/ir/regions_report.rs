//! `seqc translate --emit regions`: the memory regions of a program
//! (DESIGN.md §1: one per struct field, one per pointer target type, one
//! per shared object) with how often the threads' code reads and writes
//! each, and the regions the program lets alias (merged for the SMT
//! memory model). The names are the ones `--track` and `--property
//! race=REGION` take.
//!
//! Pre: normalised IR (one visible access per statement).

use crate::ir::access::Shared;
use crate::ir::access::escaping_locals;
use crate::ir::regions::{Regions, key_name, lvalue_key};
use crate::ir::*;
use std::collections::BTreeMap;

#[derive(Default, Clone, Copy)]
struct Count {
    reads: u32,
    writes: u32,
}

pub fn report(p: &Program) -> String {
    let counts = counts(p);
    // Alias classes, as the SMT memory model merges them.
    let mut class_of: BTreeMap<String, String> = BTreeMap::new();
    if let Ok(mut r) = Regions::analyse(p) {
        for (class, members) in r.classes(p) {
            if members.len() > 1 {
                for m in members {
                    class_of.insert(m, class.clone());
                }
            }
        }
    }
    let w = counts.keys().map(|k| k.len()).max().unwrap_or(0).max(6);
    let mut s = format!(
        "{:<w$}  {:>6}  {:>6}  aliases\n",
        "region", "reads", "writes"
    );
    for (name, c) in &counts {
        let alias = class_of
            .get(name)
            .filter(|cl| *cl != name)
            .map(|cl| format!("with {cl}"))
            .unwrap_or_default();
        let line = format!("{name:<w$}  {:>6}  {:>6}  {alias}", c.reads, c.writes);
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

/// `--track R1,...`: every name must be a region of the program (an
/// unknown one is an error that lists the known ones).
pub fn check_track(p: &Program, track: &[String]) -> crate::diag::Result<()> {
    let known = counts(p);
    if let Some(bad) = track.iter().find(|r| !known.contains_key(*r)) {
        let names: Vec<&str> = known.keys().map(String::as_str).collect();
        return Err(crate::diag::Diagnostic::input(format!(
            "--track: the program has no region '{bad}' (its regions: {})",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        )));
    }
    Ok(())
}

/// The regions `--track` names, as `counts` spells them (for `refine`).
pub fn names(p: &Program) -> Vec<String> {
    counts(p).into_keys().collect()
}

fn counts(p: &Program) -> BTreeMap<String, Count> {
    let globals: Vec<bool> = p.globals.iter().map(|g| !g.thread_local).collect();
    let mut counts: BTreeMap<String, Count> = BTreeMap::new();
    for (fi, f) in p.functions.iter().enumerate() {
        let Some(body) = &f.body else { continue };
        let escaping = escaping_locals(f);
        let sh = Shared {
            globals: &globals,
            escaping: &escaping,
        };
        let mut visit = |s: &Stmt| {
            for (lv, write) in sh.stmt(p, s) {
                let Some(k) = lvalue_key(p, FuncId(fi as u32), &lv) else {
                    continue;
                };
                let c = counts.entry(key_name(p, &k)).or_default();
                if write {
                    c.writes += 1;
                } else {
                    c.reads += 1;
                }
            }
        };
        walk(body, &mut visit);
    }
    counts
}

fn walk(b: &Block, f: &mut impl FnMut(&Stmt)) {
    for s in &b.0 {
        f(s);
        match &s.kind {
            StmtKind::If(_, a, c) => {
                walk(a, f);
                walk(c, f);
            }
            StmtKind::Loop { body, latch, .. } => {
                walk(body, f);
                walk(latch, f);
            }
            StmtKind::Switch(_, b) | StmtKind::Block(b) => walk(b, f),
            _ => {}
        }
    }
}
