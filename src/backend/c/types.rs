//! Names and types as C spells them: composite tags (with the `__seqc_`
//! prefix for those of system headers), declarators, base names.

use super::*;

impl<'p> Emitter<'p> {
    // ---- names and types ----

    pub(super) fn comp_name(&self, c: CompId) -> String {
        let d = self.p.comp(c);
        let kw = match d.kind {
            CompKind::Struct => "struct",
            CompKind::Union => "union",
        };
        if (self.p.is_system(d.loc.file) || reserved_tag(&d.name)) && !d.name.starts_with("__anon")
        {
            format!("{kw} __seqc_{}", d.name)
        } else if self.p.comps[..c.0 as usize]
            .iter()
            .any(|e| e.name == d.name)
        {
            // A tag declared again in an inner scope: the output declares
            // every composite at file scope, where one tag names one type.
            format!("{kw} {}__seqc{}", c_ident(&d.name), c.0)
        } else {
            format!("{kw} {}", c_ident(&d.name))
        }
    }

    /// `ty name` in C declarator syntax.
    pub(super) fn declare(&mut self, ty: &Ty, name: &str) -> String {
        match ty {
            Ty::Ptr(t) => {
                let inner = format!("*{name}");
                match &**t {
                    Ty::Array(..) | Ty::Func(_) => self.declare(t, &format!("({inner})")),
                    _ => self.declare(t, &inner),
                }
            }
            Ty::Array(t, n) => {
                let n = n.map(|n| n.to_string()).unwrap_or_default();
                self.declare(t, &format!("{name}[{n}]"))
            }
            Ty::Func(sig) => {
                let mut ps: Vec<String> = sig.params.iter().map(|p| self.declare(p, "")).collect();
                if sig.variadic {
                    ps.push("...".into());
                }
                let params = if ps.is_empty() && !sig.unprototyped {
                    "void".to_string()
                } else {
                    ps.join(", ")
                };
                self.declare(&sig.ret, &format!("{name}({params})"))
            }
            Ty::Atomic(t) => match &**t {
                Ty::Ptr(_) => self.declare(t, &format!("_Atomic {name}")),
                _ => format!("_Atomic {}", self.declare(t, name)),
            },
            base => {
                let b = self.base_name(base);
                if name.is_empty() {
                    b
                } else {
                    format!("{b} {name}")
                }
            }
        }
    }

    pub(super) fn base_name(&mut self, t: &Ty) -> String {
        match t {
            Ty::Void => "void".into(),
            Ty::Bool => "_Bool".into(),
            Ty::Int(k) => k.c_name().into(),
            Ty::Float(k) => k.c_name().into(),
            Ty::Comp(c) => self.comp_name(*c),
            Ty::Pthread(p) => {
                self.includes.insert(if *p == PthreadTy::Sem {
                    "semaphore.h"
                } else {
                    "pthread.h"
                });
                if p.posix_2001() {
                    self.includes.insert(POSIX_SOURCE);
                }
                p.c_name().into()
            }
            _ => unreachable!("not a base type"),
        }
    }

    pub(super) fn type_name(&mut self, t: &Ty) -> String {
        // Casts name integer types and pointers to them all the time.
        match t {
            Ty::Int(k) => k.c_name().to_string(),
            Ty::Ptr(b) if matches!(**b, Ty::Int(_) | Ty::Void | Ty::Bool) => {
                let mut s = self.base_name(b);
                s.push_str(" *");
                s
            }
            _ => self.declare(t, ""),
        }
    }
}

/// Tags the headers the output includes may define: reserved identifiers
/// and the public structs of pthread.h, stdlib.h and string.h.
pub(super) fn reserved_tag(t: &str) -> bool {
    let b = t.as_bytes();
    (b.len() > 1 && b[0] == b'_' && (b[1] == b'_' || b[1].is_ascii_uppercase()))
        || matches!(
            t,
            "timespec"
                | "timeval"
                | "tm"
                | "itimerspec"
                | "sigevent"
                | "sched_param"
                | "random_data"
                | "drand48_data"
        )
}
