//! pthread attribute objects and the small pthread calls with a fixed
//! result, lowered to plain C over the object: an attribute object holds
//! one `int` at its start (a thread attribute its detach state, a mutex
//! attribute its kind), so the passes, the back ends and the oracle all
//! read the same meaning from ordinary loads and stores. Results are
//! glibc's: EINVAL for a value outside the documented set, ENOTSUP for
//! process scope, EINVAL for a stack below PTHREAD_STACK_MIN.
//!
//! Calls whose meaning needs more than that (`pthread_attr_getstacksize`,
//! scheduling parameters) are refused by name.

use super::Lowerer;
use super::expr::Want;
use crate::diag::Result;
use crate::ir::build::*;
use crate::ir::errno::{EINVAL, ENOTSUP};
use crate::ir::*;
use lang_c::ast;
use lang_c::span::Node;

/// glibc's PTHREAD_STACK_MIN on x86 (both data models).
const PTHREAD_STACK_MIN: i128 = 16384;

/// Calls refused because their meaning is not modelled.
pub(super) const REFUSED: &[&str] = &[
    "pthread_attr_getstacksize",
    "pthread_attr_setstack",
    "pthread_attr_getstack",
    "pthread_attr_setschedparam",
    "pthread_attr_getschedparam",
    "pthread_attr_setguardsize",
    "pthread_attr_getguardsize",
    "pthread_attr_setaffinity_np",
    "pthread_setschedparam",
    "pthread_getschedparam",
    "pthread_setschedprio",
    "pthread_mutexattr_setrobust",
    "pthread_mutexattr_getrobust",
    "pthread_mutexattr_setprioceiling",
    "pthread_mutexattr_getprioceiling",
    "pthread_mutexattr_getpshared",
    "pthread_mutexattr_getprotocol",
    "pthread_mutex_consistent",
    "pthread_mutex_setprioceiling",
    "pthread_condattr_setclock",
    "pthread_condattr_getclock",
    "pthread_condattr_getpshared",
    "pthread_getattr_np",
    "pthread_setname_np",
    "pthread_getcpuclockid",
    "pthread_atfork",
];

/// Is `v` one of `set`? A constant is decided here, so the output of a
/// call with constant arguments has no test.
enum Test {
    Always,
    Never,
    When(Expr),
}

fn member(v: &Expr, set: &[i128], loc: Loc) -> Test {
    if let Some(c) = const_of(v) {
        return if set.contains(&c) {
            Test::Always
        } else {
            Test::Never
        };
    }
    let t = set
        .iter()
        .map(|&x| cmp(BinOp::Eq, v.clone(), int(x, v.ty.clone(), loc), loc))
        .reduce(|a, b| bin(BinOp::LogOr, a, b, Ty::INT, loc))
        .unwrap_or(int(0, Ty::INT, loc));
    Test::When(t)
}

/// The `int` an attribute object holds.
fn word(attr: &Expr, loc: Loc) -> Expr {
    deref(cast(attr.clone(), Ty::INT.ptr(), loc), loc)
}

impl<'a> Lowerer<'a> {
    /// `Some` when `name` is an attribute call this file models.
    pub(super) fn pthread_attr_call(
        &mut self,
        name: &str,
        c: &'a Node<ast::CallExpression>,
        e: &'a Node<ast::Expression>,
        want: Want,
    ) -> Result<Option<Expr>> {
        let loc = self.loc(e.span);
        let n_args = match name {
            "pthread_attr_init" | "pthread_mutexattr_init" | "pthread_detach" => 1,
            "pthread_setconcurrency" => 1,
            "pthread_attr_setdetachstate"
            | "pthread_attr_getdetachstate"
            | "pthread_mutexattr_settype"
            | "pthread_mutexattr_gettype"
            | "pthread_attr_setstacksize"
            | "pthread_attr_setscope"
            | "pthread_attr_setschedpolicy"
            | "pthread_attr_setinheritsched"
            | "pthread_mutexattr_setpshared"
            | "pthread_mutexattr_setprotocol"
            | "pthread_condattr_setpshared" => 2,
            _ => return Ok(None),
        };
        self.arity(name, c, e, n_args)?;
        let a = self.plain_args(name, c, e)?;
        if name == "pthread_detach" {
            self.prog.pthread.detach = true;
            let t = self.assign_convert(
                a[0].clone(),
                &Ty::Pthread(PthreadTy::Thread),
                &c.node.arguments[0],
            )?;
            return Ok(Some(self.op(
                Op::ThreadDetach,
                vec![t],
                Some(Ty::INT),
                want,
                loc,
            )));
        }
        // The result, for a call whose argument is checked against a set
        // of valid values; `store` runs when it is valid.
        let checked = |me: &mut Self, test: Test, store: Vec<Stmt>, bad: i128| -> Expr {
            match test {
                Test::Always => {
                    for s in store {
                        me.emit(s.kind, s.loc);
                    }
                    int(0, Ty::INT, loc)
                }
                Test::Never => int(bad, Ty::INT, loc),
                Test::When(t) => {
                    if !store.is_empty() {
                        me.emit(StmtKind::If(t.clone(), Block(store), Block::default()), loc);
                    }
                    let r = Expr::new(
                        ExprKind::Cond(
                            Box::new(t),
                            Box::new(int(0, Ty::INT, loc)),
                            Box::new(int(bad, Ty::INT, loc)),
                        ),
                        Ty::INT,
                        loc,
                    );
                    let tmp = me.temp(Ty::INT, loc);
                    me.emit(StmtKind::Assign(tmp.clone(), r), loc);
                    tmp
                }
            }
        };
        let result = match name {
            "pthread_attr_init" | "pthread_mutexattr_init" => {
                // Joinable; a normal mutex.
                self.emit(
                    StmtKind::Assign(word(&a[0], loc), int(0, Ty::INT, loc)),
                    loc,
                );
                int(0, Ty::INT, loc)
            }
            "pthread_attr_setdetachstate" | "pthread_mutexattr_settype" => {
                let valid: &[i128] = if name == "pthread_attr_setdetachstate" {
                    &[0, 1]
                } else {
                    // Normal (timed), recursive, error-checking, adaptive.
                    &[0, 1, 2, 3]
                };
                let v = self.convert(a[1].clone(), &Ty::INT);
                // Kinds 0 and 3 behave alike: the plain model holds.
                let plain: &[i128] = if name == "pthread_attr_setdetachstate" {
                    &[0]
                } else {
                    &[0, 3]
                };
                if !matches!(member(&v, plain, loc), Test::Always) {
                    if name == "pthread_attr_setdetachstate" {
                        self.prog.pthread.detach = true;
                    } else {
                        self.prog.pthread.mutex_kinds = true;
                    }
                }
                let store = vec![assign(word(&a[0], loc), v.clone(), loc)];
                checked(self, member(&v, valid, loc), store, EINVAL)
            }
            "pthread_attr_getdetachstate" | "pthread_mutexattr_gettype" => {
                let out = deref(cast(a[1].clone(), Ty::INT.ptr(), loc), loc);
                self.emit(StmtKind::Assign(out, word(&a[0], loc)), loc);
                int(0, Ty::INT, loc)
            }
            "pthread_attr_setstacksize" => {
                let v = self.convert(a[1].clone(), &Ty::ULONG);
                let small = cmp(BinOp::Lt, v, int(PTHREAD_STACK_MIN, Ty::ULONG, loc), loc);
                let r = Expr::new(
                    ExprKind::Cond(
                        Box::new(small),
                        Box::new(int(EINVAL, Ty::INT, loc)),
                        Box::new(int(0, Ty::INT, loc)),
                    ),
                    Ty::INT,
                    loc,
                );
                let tmp = self.temp(Ty::INT, loc);
                self.emit(StmtKind::Assign(tmp.clone(), r), loc);
                tmp
            }
            "pthread_attr_setscope" => {
                // PTHREAD_SCOPE_SYSTEM only: Linux has no process scope.
                let v = self.convert(a[1].clone(), &Ty::INT);
                match member(&v, &[0], loc) {
                    Test::Always => int(0, Ty::INT, loc),
                    _ => {
                        let is = |x| cmp(BinOp::Eq, v.clone(), int(x, Ty::INT, loc), loc);
                        let r = Expr::new(
                            ExprKind::Cond(
                                Box::new(is(0)),
                                Box::new(int(0, Ty::INT, loc)),
                                Box::new(Expr::new(
                                    ExprKind::Cond(
                                        Box::new(is(1)),
                                        Box::new(int(ENOTSUP, Ty::INT, loc)),
                                        Box::new(int(EINVAL, Ty::INT, loc)),
                                    ),
                                    Ty::INT,
                                    loc,
                                )),
                            ),
                            Ty::INT,
                            loc,
                        );
                        let tmp = self.temp(Ty::INT, loc);
                        self.emit(StmtKind::Assign(tmp.clone(), r), loc);
                        tmp
                    }
                }
            }
            "pthread_attr_setschedpolicy" | "pthread_mutexattr_setprotocol" => {
                // SCHED_OTHER, FIFO, RR; PRIO_NONE, INHERIT, PROTECT.
                let v = self.convert(a[1].clone(), &Ty::INT);
                checked(self, member(&v, &[0, 1, 2], loc), vec![], EINVAL)
            }
            "pthread_attr_setinheritsched"
            | "pthread_mutexattr_setpshared"
            | "pthread_condattr_setpshared" => {
                let v = self.convert(a[1].clone(), &Ty::INT);
                checked(self, member(&v, &[0, 1], loc), vec![], EINVAL)
            }
            "pthread_setconcurrency" => {
                let v = self.convert(a[0].clone(), &Ty::INT);
                if const_of(&v).is_some_and(|c| c >= 0) {
                    int(0, Ty::INT, loc)
                } else {
                    let neg = cmp(BinOp::Lt, v, int(0, Ty::INT, loc), loc);
                    let r = Expr::new(
                        ExprKind::Cond(
                            Box::new(neg),
                            Box::new(int(EINVAL, Ty::INT, loc)),
                            Box::new(int(0, Ty::INT, loc)),
                        ),
                        Ty::INT,
                        loc,
                    );
                    let tmp = self.temp(Ty::INT, loc);
                    self.emit(StmtKind::Assign(tmp.clone(), r), loc);
                    tmp
                }
            }
            _ => unreachable!("{name} is listed above"),
        };
        Ok(Some(match want {
            Want::Value => result,
            Want::Effect => Expr::int(0, Ty::Void, loc),
        }))
    }
}
