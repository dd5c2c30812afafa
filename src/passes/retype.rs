//! pthread types become integers (a mutex, condition, key or once
//! control is an `int`; a `pthread_t` an `unsigned long`), and their
//! initialisers (`PTHREAD_MUTEX_INITIALIZER`) the zero state.
//!
//! Pre: lowered IR. Post: no `Ty::Pthread` anywhere in the program. Both
//! sequentializations start with it, so that their thread model works on
//! plain integers the back ends know.

use crate::ir::build::const_of;
use crate::ir::*;

/// The sequentializations' models of pthread objects are integers, which
/// glibc's are not (a mutex is 40 bytes on LP64): a constant folded from
/// a layout that holds one would point elsewhere in the output (a
/// `container_of` past a mutex, a `memset` of `sizeof` a struct that
/// holds one). Refused by name where the values differ, but for a size
/// handed to an allocator (more room than needed changes nothing).
pub fn check_layouts(p: &Program) -> crate::diag::Result<()> {
    match p
        .pthread_layout
        .iter()
        .find(|u| u.glibc != u.retyped && !u.harmless)
    {
        Some(u) => Err(crate::diag::Diagnostic::unsupported(format!(
            "{} of a type that holds a pthread object, outside an allocation: glibc's layout gives {}, seqc's model of the object {} (the sequentialized program would address other bytes)",
            u.what, u.glibc, u.retyped
        ))
        .at(p.file_name(u.loc.file), u.loc.line, u.loc.col)),
        None => Ok(()),
    }
}

fn has_pthread(t: &Ty) -> bool {
    match t {
        // A pthread_t holds a value; the others have initialiser macros.
        Ty::Pthread(PthreadTy::Thread) => false,
        Ty::Pthread(_) => true,
        Ty::Array(a, _) | Ty::Atomic(a) => has_pthread(a),
        _ => false,
    }
}

/// Does an initialiser give a mutex a kind (see `threads`)?
fn has_kind(init: &Init, ty: &Ty, comps: &[CompDef]) -> bool {
    match (init, ty.unqual()) {
        (Init::Expr(e), Ty::Pthread(PthreadTy::Mutex)) => const_of(e).is_some_and(|k| k != 0),
        (Init::Array(items), Ty::Array(et, _)) => items.iter().any(|(_, i)| has_kind(i, et, comps)),
        (Init::Comp(items), Ty::Comp(c)) => items
            .iter()
            .any(|(fi, i)| has_kind(i, &comps[c.0 as usize].fields[*fi as usize].ty, comps)),
        _ => false,
    }
}

/// Initialisers at pthread-typed positions (`PTHREAD_MUTEX_INITIALIZER`)
/// become 0: an unlocked mutex; a mutex of another kind gets its kind.
fn fix_init(comps: &[CompDef], init: &mut Init, ty: &Ty) {
    if let Ty::Pthread(p) = ty.unqual()
        && let Init::Expr(e) = init
    {
        match const_of(e) {
            // A mutex's kind (see `threads`).
            Some(k) if *p == PthreadTy::Mutex => {
                let w = k << crate::passes::threads::KIND_SHIFT;
                *init = Init::Expr(Expr::int(w, Ty::INT, Loc::NONE));
            }
            Some(_) => *init = Init::Expr(Expr::int(0, pthread_retyped(ty), Loc::NONE)),
            // A value: a key read into a temporary, a thread id.
            None => {}
        }
        return;
    }
    if has_pthread(ty) && !has_kind(init, ty, comps) {
        *init = match ty.unqual() {
            Ty::Array(..) => Init::Array(vec![]),
            _ => Init::Expr(Expr::int(0, pthread_retyped(ty), Loc::NONE)),
        };
        return;
    }
    match (init, ty.unqual()) {
        (Init::Array(items), Ty::Array(et, _)) => {
            for (_, it) in items {
                fix_init(comps, it, et);
            }
        }
        (Init::Comp(items), Ty::Comp(c)) => {
            for (fi, it) in items {
                fix_init(comps, it, &comps[c.0 as usize].fields[*fi as usize].ty);
            }
        }
        _ => {}
    }
}

/// pthread types become integers: initialisers first (they read the
/// original types), then every type. Functions are independent, so they
/// are done on threads.
pub fn retype_program(p: &mut Program) {
    for g in &mut p.globals {
        if let Some(init) = &mut g.init {
            fix_init(&p.comps, init, &g.ty);
        }
    }
    let comps = &p.comps;
    crate::par::each_mut(&mut p.functions, |f| {
        if let Some(b) = &mut f.body {
            fix_decl_inits(comps, b, &f.locals);
            b.walk_exprs_mut(&mut |e| e.walk_mut(&mut |x| pthread_retype_in(&mut x.ty)));
        }
        pthread_retype_in(&mut f.sig.ret);
        f.sig.params.iter_mut().for_each(pthread_retype_in);
        for l in &mut f.locals {
            pthread_retype_in(&mut l.ty);
        }
    });
    for c in &mut p.comps {
        for f in &mut c.fields {
            pthread_retype_in(&mut f.ty);
        }
    }
    for g in &mut p.globals {
        pthread_retype_in(&mut g.ty);
        if let Some(i) = &mut g.init {
            i.walk_exprs_mut(&mut |e| e.walk_mut(&mut |x| pthread_retype_in(&mut x.ty)));
        }
    }
}

fn fix_decl_inits(comps: &[CompDef], b: &mut Block, locals: &[Local]) {
    for s in &mut b.0 {
        match &mut s.kind {
            StmtKind::Decl(v, Some(init)) => fix_init(comps, init, &locals[v.index()].ty),
            StmtKind::If(_, a, c) => {
                fix_decl_inits(comps, a, locals);
                fix_decl_inits(comps, c, locals);
            }
            StmtKind::Loop { body, latch, .. } => {
                fix_decl_inits(comps, body, locals);
                fix_decl_inits(comps, latch, locals);
            }
            StmtKind::Switch(_, c) | StmtKind::Block(c) => fix_decl_inits(comps, c, locals),
            _ => {}
        }
    }
}
