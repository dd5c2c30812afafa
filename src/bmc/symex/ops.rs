//! The operations of a sequential program (`Op`): memory functions,
//! atomics, mutexes of one thread, library models without effect; and
//! what traces record of an assignment.

use super::*;
use crate::ir::errno::EBUSY;

impl<'p> Symex<'p> {
    pub(super) fn op(
        &mut self,
        mut st: State,
        fr: &Frame,
        dest: Option<&Expr>,
        op: Op,
        args: &[Expr],
        loc: Loc,
    ) -> R<Option<State>> {
        let p = self.p;
        let line = loc.line;
        let pw = self.pw;
        let mut result: Option<(Val, Ty)> = None;
        let arg = |this: &mut Self, st: &State, i: usize| -> R<T> {
            match args.get(i) {
                Some(a) => Ok(this.rvalue(st, fr, a)?.s()),
                None => Err((format!("{} with too few arguments", op.c_name()), loc)),
            }
        };
        // The object an argument points to, looking through `(void *)`.
        let target = |i: usize| -> Ty {
            let mut a = &args[i];
            while let ExprKind::Cast(x) = &a.kind {
                if x.ty.is_pointer() {
                    a = x;
                } else {
                    break;
                }
            }
            a.ty.pointee().cloned().unwrap_or(Ty::CHAR)
        };
        match op {
            Op::Word(w) => {
                // `thread_op` refuses these in a sequential program first.
                return Err((format!("{} in a sequential program", w.c_name()), loc));
            }
            Op::MutexTimedLock | Op::CondTimedWait => {
                return Err((format!("{} in a sequential program", op.c_name()), loc));
            }
            Op::Malloc | Op::Calloc => {
                let n = arg(self, &st, 0)?;
                let n = term::resize(&n, pw, false);
                let n = if op == Op::Calloc {
                    let m = arg(self, &st, 1)?;
                    term::bin("bvmul", &n, &term::resize(&m, pw, false))
                } else {
                    n
                };
                let size = match n {
                    T::V(v, _) if (v as u64) < SLOT => v as u64,
                    _ => {
                        // A symbolic size gets a slot of its own and must fit.
                        let fits = term::cmp("bvule", &n, &term::bv(SLOT as i128, pw));
                        self.assume(&st, &fits, line);
                        SLOT
                    }
                };
                let a = self.alloc(size);
                if op == Op::Malloc {
                    self.havoc_heap(&mut st, fr, a, size, line)?;
                }
                result = Some((Val::S(term::bv(a as i128, pw)), Ty::Void.ptr()));
            }
            Op::RoundInit => {}
            Op::RoundCheck => self.round_check(&st, line),
            Op::Free | Op::Fence | Op::AtomicBegin | Op::AtomicEnd | Op::CondDestroy => {
                if op == Op::CondDestroy {
                    result = Some((Val::S(term::bv(0, 32)), Ty::INT));
                }
            }
            Op::Memset | Op::Memcpy => {
                let ty = target(0).unqual().clone();
                // The copy is typed by the pointers it is given; a `void *`
                // gives no type to write or read by.
                let src_void = op == Op::Memcpy && matches!(target(1).unqual(), Ty::Void);
                if matches!(ty, Ty::Void) || src_void {
                    return Err((
                        format!(
                            "{} through a 'void *' (the memory's type is unknown)",
                            op.c_name()
                        ),
                        loc,
                    ));
                }
                if op == Op::Memcpy {
                    // The copy is typed by its destination; a source of
                    // another type lives in another region.
                    let src = target(1);
                    let (a, b) = (regions::elem_scalar(&ty), regions::elem_scalar(&src));
                    if a.unqual() != b.unqual() {
                        return Err((
                            format!(
                                "memcpy from '{}' memory into '{}' memory",
                                regions::ty_name(p, b),
                                regions::ty_name(p, a)
                            ),
                            loc,
                        ));
                    }
                }
                let d = arg(self, &st, 0)?;
                let n = arg(self, &st, 2)?;
                let T::V(n, _) = n else {
                    return Err((format!("{} of a non-constant size", op.c_name()), loc));
                };
                let esz = p.size_of(&ty).unwrap_or(1).max(1);
                if !(n as u64).is_multiple_of(esz) {
                    return Err((
                        format!(
                            "{} of part of a '{}'",
                            op.c_name(),
                            regions::ty_name(p, &ty)
                        ),
                        loc,
                    ));
                }
                let count = n as u64 / esz;
                if count > 1 << 14 {
                    return Err((format!("{} of {count} elements", op.c_name()), loc));
                }
                let key = regions::is_leaf(&ty).then(|| regions::deref_key(p, &ty));
                // What each element gets. memmove's meaning, which memcpy's
                // allows: every element is read before any is written, so
                // ranges that overlap copy right.
                let mut values = Vec::new();
                let mut byte = None;
                if count > 0 && op == Op::Memset {
                    let T::V(c, _) = arg(self, &st, 1)? else {
                        return Err(("memset with a non-constant byte".into(), loc));
                    };
                    let b = (c & 0xff) as i128;
                    let mut vals = Vec::new();
                    for (_, lt, _) in self.leaf_list(&ty, key.as_ref()) {
                        let w = regions::leaf_width(p.data_model, &lt).unwrap_or(8);
                        let mut x: i128 = 0;
                        for _ in 0..w / 8 {
                            x = (x << 8) | b;
                        }
                        if matches!(lt.unqual(), Ty::Bool) && b > 1 {
                            return Err((
                                "memset of a _Bool with a byte other than 0 or 1".into(),
                                loc,
                            ));
                        }
                        vals.push(term::bv(x, w));
                    }
                    let v = if regions::is_leaf(&ty) {
                        Val::S(vals.pop().unwrap())
                    } else {
                        Val::A(vals)
                    };
                    values = vec![v; count as usize];
                    byte = Some(b);
                } else if op == Op::Memcpy {
                    let s = arg(self, &st, 1)?;
                    for i in 0..count {
                        let sa = self.offset(&s, i * esz);
                        values.push(self.read(&st, &Place::Mem(sa, key.clone()), &ty, line)?);
                    }
                }
                for (i, v) in values.into_iter().enumerate() {
                    let da = self.offset(&d, i as u64 * esz);
                    let place = Place::Mem(da.clone(), key.clone());
                    self.write(&mut st, fr, &place, &ty, v, line)?;
                    if let Some(b) = byte {
                        self.memset_padding(&mut st, fr, &ty, &da, b, line)?;
                    }
                }
                result = Some((Val::S(d), Ty::Void.ptr()));
            }
            Op::Abort | Op::Exit => {
                // The run ends here: no assertion after it on this path.
                self.assume(&st, &T::B(false), line);
                return Ok(None);
            }
            Op::LibNoop(_) => {
                if let Some(d) = dest {
                    result = Some((self.nondet(&d.ty, loc)?, d.ty.clone()));
                }
            }
            Op::MutexInit
            | Op::MutexLock
            | Op::MutexUnlock
            | Op::MutexTryLock
            | Op::CondWait
            | Op::MutexDestroy
                if p.pthread.mutex_kinds =>
            {
                // A sequentialization expands kinds; this model has none.
                return Err((
                    "recursive or error-checking mutexes in a sequential program (use --method lal-reps or --method kiss)".into(),
                    loc,
                ));
            }
            Op::AttrNoop(_) | Op::MutexInit | Op::CondInit | Op::CondSignal | Op::CondBroadcast => {
                if op == Op::MutexInit {
                    let m = arg(self, &st, 0)?;
                    let k = regions::deref_key(p, &Ty::Pthread(PthreadTy::Mutex));
                    self.store(
                        &mut st,
                        fr,
                        &m,
                        &Ty::Pthread(PthreadTy::Mutex),
                        k,
                        term::bv(0, 32),
                        line,
                    )?;
                }
                result = Some((Val::S(term::bv(0, 32)), Ty::INT));
            }
            Op::MutexLock
            | Op::MutexUnlock
            | Op::MutexTryLock
            | Op::CondWait
            | Op::MutexDestroy => {
                // A mutex holds 0 (free) or 1 (held); one thread only here.
                let mi = if op == Op::CondWait { 1 } else { 0 };
                let m = arg(self, &st, mi)?;
                let mt = Ty::Pthread(PthreadTy::Mutex);
                let k = regions::deref_key(p, &mt);
                let cur = self.load(&st, &m, &mt, k.clone(), line)?;
                let free = term::eq(&cur, &term::bv(0, 32));
                match op {
                    Op::MutexLock => {
                        self.assume(&st, &free, line);
                        self.store(&mut st, fr, &m, &mt, k, term::bv(1, 32), line)?;
                        result = Some((Val::S(term::bv(0, 32)), Ty::INT));
                    }
                    Op::MutexTryLock => {
                        let nv = term::ite(&free, &term::bv(1, 32), &cur);
                        self.store(&mut st, fr, &m, &mt, k, nv, line)?;
                        let r = term::ite(&free, &term::bv(0, 32), &term::bv(EBUSY, 32));
                        result = Some((Val::S(r), Ty::INT));
                    }
                    // glibc: EBUSY for a held mutex, which stays held.
                    Op::MutexDestroy => {
                        let r = term::ite(&free, &term::bv(0, 32), &term::bv(EBUSY, 32));
                        result = Some((Val::S(r), Ty::INT));
                    }
                    // Unlock; a wait releases and takes the lock again.
                    Op::MutexUnlock => {
                        self.store(&mut st, fr, &m, &mt, k, term::bv(0, 32), line)?;
                        result = Some((Val::S(term::bv(0, 32)), Ty::INT));
                    }
                    _ => {
                        self.store(&mut st, fr, &m, &mt, k, term::bv(1, 32), line)?;
                        result = Some((Val::S(term::bv(0, 32)), Ty::INT));
                    }
                }
            }
            Op::AtomicLoad
            | Op::AtomicStore
            | Op::AtomicExchange
            | Op::AtomicFetch(_)
            | Op::AtomicFetchThen(_)
            | Op::AtomicCasBool
            | Op::AtomicCasVal
            | Op::AtomicCompareExchange => {
                let ty = target(0).unqual().clone();
                let pa = arg(self, &st, 0)?;
                let place = Place::Mem(
                    pa.clone(),
                    regions::is_leaf(&ty).then(|| regions::deref_key(p, &ty)),
                );
                let old = self.read(&st, &place, &ty, line)?.s();
                let val = |this: &mut Self, st: &State, i: usize| -> R<T> {
                    let v = arg(this, st, i)?;
                    Ok(this.convert_s(v, &args[i].ty, &ty))
                };
                let (new, r) = match op {
                    Op::AtomicLoad => (None, old.clone()),
                    Op::AtomicStore => (Some(val(self, &st, 1)?), term::bv(0, 8)),
                    Op::AtomicExchange => (Some(val(self, &st, 1)?), old.clone()),
                    Op::AtomicFetch(rmw) | Op::AtomicFetchThen(rmw) => {
                        let v = if ty.is_pointer() {
                            let sz = p.size_of(ty.pointee().unwrap()).unwrap_or(1);
                            let v = term::resize(&arg(self, &st, 1)?, pw, args[1].ty.is_signed());
                            term::bin("bvmul", &v, &term::bv(sz as i128, pw))
                        } else {
                            val(self, &st, 1)?
                        };
                        let name = match rmw {
                            AtomicRmw::Add => "bvadd",
                            AtomicRmw::Sub => "bvsub",
                            AtomicRmw::And => "bvand",
                            AtomicRmw::Or => "bvor",
                            AtomicRmw::Xor => "bvxor",
                        };
                        let n = term::bin(name, &old, &v);
                        let r = if matches!(op, Op::AtomicFetch(_)) {
                            old.clone()
                        } else {
                            n.clone()
                        };
                        (Some(n), r)
                    }
                    Op::AtomicCasBool | Op::AtomicCasVal => {
                        let o = val(self, &st, 1)?;
                        let n = val(self, &st, 2)?;
                        let ok = term::eq(&old, &o);
                        let r = if op == Op::AtomicCasBool {
                            term::from_bool(&ok, 8)
                        } else {
                            old.clone()
                        };
                        (Some(term::ite(&ok, &n, &old)), r)
                    }
                    _ => {
                        let ep = arg(self, &st, 1)?;
                        let eplace = Place::Mem(
                            ep,
                            regions::is_leaf(&ty).then(|| regions::deref_key(p, &ty)),
                        );
                        let exp = self.read(&st, &eplace, &ty, line)?.s();
                        let n = val(self, &st, 2)?;
                        let ok = term::eq(&old, &exp);
                        let exp2 = term::ite(&ok, &exp, &old);
                        self.write(&mut st, fr, &eplace, &ty, Val::S(exp2), line)?;
                        (Some(term::ite(&ok, &n, &old)), term::from_bool(&ok, 8))
                    }
                };
                if let Some(n) = new {
                    self.write(&mut st, fr, &place, &ty, Val::S(n), line)?;
                }
                let rty = match op {
                    Op::AtomicCasBool | Op::AtomicCompareExchange | Op::AtomicStore => Ty::Bool,
                    _ => ty.clone(),
                };
                result = Some((Val::S(r), rty));
            }
            Op::ThreadCreate
            | Op::ThreadJoin
            | Op::ThreadDetach
            | Op::ThreadExit
            | Op::ThreadSelf
            | Op::ThreadEqual
            | Op::Once
            | Op::KeyCreate
            | Op::KeyDelete
            | Op::GetSpecific
            | Op::SetSpecific => {
                return Err((
                    format!(
                        "{} in a sequential program (use --method lal-reps or --method kiss for threads)",
                        op.c_name()
                    ),
                    loc,
                ));
            }
        }
        if let (Some(d), Some((v, from))) = (dest, result) {
            let v = self.convert(v, &from, &d.ty);
            let place = self.place(&st, fr, d)?;
            self.write(&mut st, fr, &place, &d.ty, v.clone(), line)?;
            let name = self.lv_text(fr, d);
            self.record_assign(&st, fr, loc, name, &d.ty, &v);
        }
        Ok(Some(st))
    }

    /// memset's bytes in the padding of a struct at `da`, where the
    /// program reads the struct's bytes through a character pointer (the
    /// character region and the struct's fields are one byte class):
    /// a read of a padding byte must see them. Elsewhere padding is read
    /// by nothing, and no region is made for it.
    fn memset_padding(
        &mut self,
        st: &mut State,
        fr: &Frame,
        ty: &Ty,
        da: &T,
        byte: i128,
        line: u32,
    ) -> R<()> {
        let p = self.p;
        if !matches!(ty.unqual(), Ty::Comp(_)) {
            return Ok(());
        }
        let size = p.size_of(ty).unwrap_or(0);
        let leaves = self.leaf_list(ty, None);
        let Some((_, _, first)) = leaves.first() else {
            return Ok(());
        };
        let mut covered = vec![false; size as usize];
        for (off, lt, _) in &leaves {
            let w = regions::leaf_width(p.data_model, lt).unwrap_or(8) as u64 / 8;
            for b in *off..(*off + w).min(size) {
                covered[b as usize] = true;
            }
        }
        let class = self.regions.class_name(p, first);
        for ct in [IntKind::Char, IntKind::UChar, IntKind::SChar] {
            let cty = Ty::Int(ct);
            let k = regions::deref_key(p, &cty);
            if self.regions.class_name(p, &k) != class {
                continue;
            }
            for (b, _) in covered.iter().enumerate().filter(|(_, c)| !**c) {
                let a = self.offset(da, b as u64);
                let v = Val::S(term::bv(byte, 8));
                self.write(st, fr, &Place::Mem(a, Some(k.clone())), &cty, v, line)?;
            }
            break;
        }
        Ok(())
    }

    pub(super) fn record_assign(
        &mut self,
        st: &State,
        fr: &Frame,
        loc: Loc,
        lhs: String,
        ty: &Ty,
        v: &Val,
    ) {
        let temp = self
            .p
            .functions
            .get(fr.func.index())
            .is_some_and(|f| f.locals.iter().any(|l| l.temp && l.name == lhs));
        if loc.generated || temp {
            // seqc's own temporaries say nothing the user wrote.
            return;
        }
        match v {
            Val::S(t) => self.event(st, loc, EventKind::Assign(lhs, ty.clone(), t.clone())),
            Val::A(ts) => {
                // A struct or array copy: its first scalars, by name.
                let mut paths = Vec::new();
                regions::leaf_paths(self.p, ty, &lhs, &mut paths);
                let leaves = self.leaf_list(ty, None);
                for ((path, (_, lt, _)), t) in paths.into_iter().zip(leaves).zip(ts).take(16) {
                    self.event(st, loc, EventKind::Assign(path, lt, t.clone()));
                }
            }
        }
    }

    /// The C text of an lvalue, for traces.
    pub(super) fn lv_text(&self, fr: &Frame, e: &Expr) -> String {
        crate::bmc::expr_text(self.p, fr.func, e)
    }
}
