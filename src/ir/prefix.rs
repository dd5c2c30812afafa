//! The sequential prefix: the statements that run while main is the only
//! thread.
//!
//! Main's first statements, up to the first one that may start a thread,
//! run before any other thread exists; so do the functions that only
//! such statements call. A context switch there has nothing to switch to
//! (Lal–Reps would only burn rounds of main's, KISS has no pending
//! thread to run), so the sequentializations put no switch point in the
//! prefix, and its writes precede every step of every other thread
//! (`ir::readonly` does not count them): a program that is sequential up
//! to its first `pthread_create` pays for that part what `--method none`
//! pays.
//!
//! A top-level statement of main may start a thread when it holds a
//! `pthread_create`, a `pthread_once` or a call that may reach one
//! (through calls, a call through a pointer reaching any function whose
//! address is taken), or a label: a `goto` from later code could jump
//! back into the prefix once threads exist. When main is named anywhere
//! (a recursive call, its address taken) there is no prefix. A function
//! is in the prefix when its address is never taken and every call of it
//! is in the prefix; main is not.

use super::sites::strip;
use super::*;

#[derive(Clone, Debug, Default)]
pub struct Prefix {
    main: Option<FuncId>,
    /// How many of main's top-level statements are in the prefix.
    main_len: usize,
    /// Per function: all of its body runs in the prefix.
    funcs: Vec<bool>,
}

impl Prefix {
    pub fn analyse(p: &Program) -> Prefix {
        let Some(main) = p.func_by_name("main").filter(|m| p.func(*m).body.is_some()) else {
            return Prefix::default();
        };
        let nf = p.functions.len();
        let addressed = p.address_taken_functions();
        // Functions named other than as a direct callee (start routines,
        // `pthread_once` routines, destructors, addresses taken).
        let mut named = vec![false; nf];
        let mark = |e: &Expr, named: &mut Vec<bool>| {
            e.walk(&mut |x| {
                if let ExprKind::Func(f) = x.kind {
                    named[f.index()] = true;
                }
            })
        };
        for g in &p.globals {
            if let Some(i) = &g.init {
                i.each_expr(&mut |e| mark(e, &mut named));
            }
        }
        for f in &p.functions {
            let Some(b) = &f.body else { continue };
            b.walk(&mut |s| match &s.kind {
                StmtKind::Call { dest, callee, args } => {
                    match strip(callee) {
                        // A call of main runs its first statements again.
                        Some(g) if g == main => named[g.index()] = true,
                        Some(_) => {}
                        None => mark(callee, &mut named),
                    }
                    dest.iter().chain(args).for_each(|e| mark(e, &mut named));
                }
                _ => s.each_expr(&mut |e| mark(e, &mut named)),
            });
        }
        if named[main.index()] {
            return Prefix::default();
        }
        // Which functions may start a thread, through any calls.
        let mut starts: Vec<bool> = p
            .functions
            .iter()
            .map(|f| f.body.as_ref().is_some_and(|b| any_stmt(b, &creates)))
            .collect();
        loop {
            let indirect = addressed.iter().any(|f| starts[f.index()]);
            let mut changed = false;
            for (fi, f) in p.functions.iter().enumerate() {
                if starts[fi] {
                    continue;
                }
                let Some(b) = &f.body else { continue };
                if any_stmt(b, &|s| calls_starter(s, &starts, indirect)) {
                    starts[fi] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let indirect = addressed.iter().any(|f| starts[f.index()]);
        let body = p.func(main).body.as_ref().expect("main has a body");
        let main_len = body
            .0
            .iter()
            .position(|s| {
                let mut stop = false;
                s.walk(&mut |x| {
                    stop |= creates(x)
                        || calls_starter(x, &starts, indirect)
                        || matches!(x.kind, StmtKind::Label(_))
                });
                stop
            })
            .unwrap_or(body.0.len());
        // Functions all of whose calls are in the prefix: start from every
        // candidate and drop those called from elsewhere, until none is.
        let mut funcs: Vec<bool> = (0..nf)
            .map(|fi| fi != main.index() && !named[fi] && p.functions[fi].body.is_some())
            .collect();
        loop {
            let mut changed = false;
            for (fi, f) in p.functions.iter().enumerate() {
                let Some(b) = &f.body else { continue };
                let mut drop = |s: &Stmt, funcs: &mut Vec<bool>| {
                    s.walk(&mut |x| {
                        if let StmtKind::Call { callee, .. } = &x.kind
                            && let Some(g) = strip(callee)
                            && funcs[g.index()]
                        {
                            funcs[g.index()] = false;
                            changed = true;
                        }
                    })
                };
                if fi == main.index() {
                    for s in &b.0[main_len..] {
                        drop(s, &mut funcs);
                    }
                } else if !funcs[fi] {
                    for s in &b.0 {
                        drop(s, &mut funcs);
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Prefix {
            main: Some(main),
            main_len,
            funcs,
        }
    }

    /// Main's locals declared by a top-level statement of the prefix:
    /// the declaration (with its initialiser) runs before any other
    /// thread exists, and they live until the run ends — unless main may
    /// leave by `pthread_exit` (any function may call it), which ends
    /// their lifetime while other threads run: then none.
    pub fn lasting_locals(&self, p: &Program) -> Vec<(FuncId, LocalId)> {
        let Some(m) = self.main else { return vec![] };
        let Some(b) = &p.func(m).body else {
            return vec![];
        };
        let exits = p.functions.iter().any(|f| {
            f.body.as_ref().is_some_and(|b| {
                any_stmt(b, &|s| {
                    matches!(
                        s.kind,
                        StmtKind::Op {
                            op: Op::ThreadExit,
                            ..
                        }
                    )
                })
            })
        });
        if exits {
            return vec![];
        }
        b.0.iter()
            .take(self.main_len)
            .filter_map(|s| match s.kind {
                StmtKind::Decl(v, _) => Some((m, v)),
                _ => None,
            })
            .collect()
    }

    /// Does all of function `f` run in the prefix?
    pub fn whole(&self, f: FuncId) -> bool {
        self.funcs.get(f.index()).copied().unwrap_or(false)
    }

    /// How many of `f`'s top-level statements run in the prefix (all of
    /// them for a function `whole` says is in it).
    pub fn top_level(&self, f: FuncId, body: &Block) -> usize {
        if self.whole(f) {
            body.0.len()
        } else if self.main == Some(f) {
            self.main_len.min(body.0.len())
        } else {
            0
        }
    }
}

fn any_stmt(b: &Block, f: &impl Fn(&Stmt) -> bool) -> bool {
    let mut any = false;
    b.walk(&mut |s| any |= f(s));
    any
}

/// `pthread_create`, or `pthread_once` (its routine is counted as a call).
fn creates(s: &Stmt) -> bool {
    matches!(
        s.kind,
        StmtKind::Op {
            op: Op::ThreadCreate | Op::Once,
            ..
        }
    )
}

/// A call that may reach a function that starts a thread (`indirect`:
/// some function whose address is taken does).
fn calls_starter(s: &Stmt, starts: &[bool], indirect: bool) -> bool {
    match &s.kind {
        StmtKind::Call { callee, .. } => match strip(callee) {
            Some(g) => starts[g.index()],
            None => indirect,
        },
        _ => false,
    }
}
