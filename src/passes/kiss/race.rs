//! Race mode (KISS §5): at each shared access outside atomic code the
//! thread may record it and stop, or check it against the one recorded.

use super::*;

impl Rewriter {
    /// The data accesses of a visible statement (see `ir::access`). A
    /// read or write of an `_Atomic` object is an atomic access (C11
    /// 5.1.2.4p25: two such never race), as atomic operations are.
    pub(super) fn data_accesses(&self, p: &Program, s: &Stmt) -> Vec<(Expr, bool)> {
        let mut v = Shared {
            globals: &self.shared,
            escaping: &self.escaping,
        }
        .stmt(p, s);
        v.retain(|(lv, _)| !lv.ty.is_atomic());
        v
    }

    pub(super) fn lv_shared(&self, lv: &Expr) -> bool {
        Shared {
            globals: &self.shared,
            escaping: &self.escaping,
        }
        .lvalue(lv)
    }

    /// KISS §5 at one access: the thread may choose to record it (or, once
    /// an access is recorded, check it against that one) and stop.
    /// `check_r`/`check_w` as DESIGN.md §1 writes them, with the target
    /// fixed by the first recorded access (see the module comment).
    pub(super) fn race_choice(&mut self, p: &Program, lv: Expr, write: bool, loc: Loc) -> Stmt {
        // Traces must show the record and the check, even for a step that
        // normalisation made.
        let loc = Loc {
            generated: false,
            ..loc
        };
        // The function being rewritten is out of `p`: its locals are ours.
        let key = match crate::ir::regions::lvalue_key(p, self.cur_fn, &lv) {
            Some(crate::ir::regions::RKey::Local(_, v)) => {
                format!("{}::{}", self.cur_name, self.locals[v.index()].name)
            }
            Some(k) => crate::ir::regions::key_name(p, &k),
            None => String::new(),
        };
        let root = root_global(&lv).map(|g| p.global(g).name.clone());
        if !key.is_empty() {
            self.regions.insert(key.clone());
        }
        if let Some(r) = &root {
            self.regions.insert(r.clone());
        }
        let race = self.race.as_mut().unwrap();
        let on_target = match &race.target {
            None => true,
            Some(t) => *t == key || root.as_ref() == Some(t),
        };
        race.sites.push(RaceSite {
            loc,
            write,
            region: key,
        });
        let site = race.sites.len() as i128;
        let (acc_g, addr_g, site_g, pick) = (race.acc, race.addr, race.site, race.pick);
        let vptr = Ty::Void.ptr();
        let addr = cast(addr_of(lv, loc), vptr, loc);
        let acc = glob(p, acc_g, loc);
        let hit = cmp(BinOp::Eq, addr.clone(), glob(p, addr_g, loc), loc);
        let conflict = if write {
            hit
        } else {
            bin(
                BinOp::LogAnd,
                hit,
                cmp(BinOp::Eq, acc.clone(), int(2, Ty::INT, loc), loc),
                Ty::INT,
                loc,
            )
        };
        let check = st(
            StmtKind::Assert(not(conflict, loc), AssertKind::Assert),
            loc,
        );
        let recorded = cmp(BinOp::Ne, acc.clone(), int(0, Ty::INT, loc), loc);
        let mut then = if on_target {
            vec![if_(
                recorded,
                vec![check],
                vec![
                    assign(glob(p, addr_g, loc), addr, loc),
                    assign(acc, int(1 + write as i128, Ty::INT, loc), loc),
                    assign(glob(p, site_g, loc), int(site, Ty::UINT, loc), loc),
                ],
                loc,
            )]
        } else {
            vec![if_(recorded, vec![check], vec![], loc)]
        };
        then.extend(self.raise(p, loc));
        let l = loc.generated();
        let t = self.temp("__seqc_pick", Ty::INT);
        let pick_call = call(
            pick,
            FnSig {
                ret: Ty::INT,
                params: vec![],
                variadic: false,
                unprototyped: false,
            },
            vec![],
            Some(lv_local(t, Ty::INT, l)),
            l,
        );
        st(
            StmtKind::Block(Block(vec![
                st(StmtKind::Decl(t, None), l),
                pick_call,
                if_(
                    cmp(BinOp::Ne, lv_local(t, Ty::INT, l), int(0, Ty::INT, l), l),
                    then,
                    vec![],
                    l,
                ),
            ])),
            l,
        )
    }
}

/// The global an lvalue path starts from.
pub(super) fn root_global(e: &Expr) -> Option<GlobalId> {
    match &e.kind {
        ExprKind::Global(g) => Some(*g),
        ExprKind::Member(a, _) | ExprKind::Index(a, _) => root_global(a),
        _ => None,
    }
}
