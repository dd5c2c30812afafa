//! Memory: declarations and initialisers, objects and their addresses,
//! loads and stores by region, and Lal-Reps' round copies (the round of
//! an address, the shifted copies, the final consistency check). A
//! region whose round-copied accesses all have constant addresses keeps
//! its round copies as plain values per address (`cell_of`), every other
//! region as arrays.

use super::*;

/// The most addresses of one region whose round copies are cells.
const CELL_ADDRS: usize = 64;

impl<'p> Symex<'p> {
    pub(super) fn alloc(&mut self, size: u64) -> u64 {
        let a = self.next_addr;
        self.next_addr += self.span(size);
        a
    }

    /// The addresses an object of `size` bytes takes up with the gap
    /// after it: 16-aligned starts, and at least 16 bytes (or the
    /// program's `heap_gap`) that no object uses.
    pub(super) fn span(&self, size: u64) -> u64 {
        size.div_ceil(16) * 16 + self.p.heap_gap.max(16).next_multiple_of(16)
    }

    pub(super) fn local_place(&self, fr: &Frame, v: LocalId) -> Place {
        match fr.objs.get(&v) {
            Some(a) => Place::Mem(term::bv(*a as i128, self.pw), Some(RKey::Local(fr.func, v))),
            None => Place::Var(Var::Local(fr.id, v)),
        }
    }

    pub(super) fn decl(
        &mut self,
        st: &mut State,
        fr: &Frame,
        v: LocalId,
        init: Option<&Init>,
        loc: Loc,
    ) -> R<()> {
        let l = self.p.func(fr.func).local(v);
        let ty = l.ty.clone();
        let name = l.name.clone();
        match (self.local_place(fr, v), init) {
            (Place::Var(var), None) => {
                let Some(w) = regions::leaf_width(self.p.data_model, &ty) else {
                    return Err((
                        format!("a local of type '{}'", regions::ty_name(self.p, &ty)),
                        loc,
                    ));
                };
                let t = self.fresh(&name, loc.line, Sort::Bv(w));
                st.vars.insert(var, t.clone());
                // The value it starts with, in the trace: the oracle draws
                // an indeterminate value where it is first read, and the
                // replay may take it from here.
                self.record_assign(st, fr, loc, name, &ty, &Val::S(t));
            }
            (Place::Var(var), Some(Init::Expr(e))) => {
                self.hint = is_nondet(e).then(|| name.clone());
                let x = self.rvalue(st, fr, e)?;
                self.hint = None;
                let x = self.convert(x, &e.ty, &ty);
                let t = self.set(st, var, x.clone().s(), loc.line, Some(fr));
                self.record_assign(st, fr, loc, name, &ty, &Val::S(t));
            }
            (Place::Var(var), Some(i)) => {
                let x = match scalar_init(i) {
                    Some(e) => {
                        let x = self.rvalue(st, fr, e)?;
                        self.convert(x, &e.ty, &ty).s()
                    }
                    None => term::bv(0, regions::leaf_width(self.p.data_model, &ty).unwrap_or(32)),
                };
                self.set(st, var, x, loc.line, Some(fr));
            }
            (Place::Mem(addr, key), init) => {
                let leaves = self.leaf_list(&ty, key.as_ref());
                match init {
                    None => {
                        // A fresh, indeterminate object (big ones read as
                        // zero: an under-approximation).
                        if leaves.len() <= 256 {
                            for (off, lt, k) in leaves {
                                let w = regions::leaf_width(self.p.data_model, &lt).unwrap_or(8);
                                let t = self.fresh(&name, loc.line, Sort::Bv(w));
                                let a = self.offset(&addr, off);
                                self.store(st, fr, &a, &lt, k, t, loc.line)?;
                            }
                        }
                    }
                    Some(init) => {
                        if leaves.len() > 1 << 16 {
                            return Err((
                                format!("an initialised local of {} scalars", leaves.len()),
                                loc,
                            ));
                        }
                        for (off, lt, k) in leaves {
                            let w = regions::leaf_width(self.p.data_model, &lt).unwrap_or(8);
                            let a = self.offset(&addr, off);
                            self.store(st, fr, &a, &lt, k, term::bv(0, w), loc.line)?;
                        }
                        self.init_mem(st, fr, addr.clone(), &ty, key.as_ref(), init, loc)?;
                        // The initialised object, for traces (small ones).
                        if self.leaf_list(&ty, key.as_ref()).len() <= 16 {
                            let v = self.read(st, &Place::Mem(addr, key), &ty, loc.line)?;
                            self.record_assign(st, fr, loc, name, &ty, &v);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn init_mem(
        &mut self,
        st: &mut State,
        fr: &Frame,
        addr: T,
        ty: &Ty,
        key: Option<&RKey>,
        init: &Init,
        loc: Loc,
    ) -> R<()> {
        let p = self.p;
        if let Ty::Pthread(k) = ty.unqual()
            && *k != PthreadTy::Thread
        {
            // PTHREAD_*_INITIALIZER: the zero state.
            let k = key.cloned().unwrap_or_else(|| regions::deref_key(p, ty));
            return self.store(st, fr, &addr, ty, k, term::bv(0, 32), loc.line);
        }
        match init {
            Init::Expr(e) => {
                let v = self.rvalue(st, fr, e)?;
                let v = self.convert(v, &e.ty, ty);
                let place = Place::Mem(addr, key.cloned());
                self.write(st, fr, &place, ty, v, loc.line)?;
            }
            Init::Array(items) => {
                let Ty::Array(el, _) = ty.unqual() else {
                    return Err(("an array initialiser for a non-array".into(), loc));
                };
                let sz = p.size_of(el).unwrap_or(0);
                for (i, sub) in items {
                    let a = self.offset(&addr, i * sz);
                    self.init_mem(st, fr, a, el, key, sub, loc)?;
                }
            }
            Init::Comp(items) => {
                let Ty::Comp(c) = ty.unqual() else {
                    return Err(("a struct initialiser for a non-struct".into(), loc));
                };
                let (offs, _, _) = p.comp_layout(*c).unwrap_or_default();
                for (i, sub) in items {
                    let fd = &p.comp(*c).fields[*i as usize];
                    if fd.bit_width.is_some() {
                        return Err(("bit-fields".into(), fd_loc(p, *c)));
                    }
                    let k = RKey::Field(*c, *i);
                    let a = self.offset(&addr, offs[*i as usize]);
                    let scalar_like = regions::is_leaf(regions::elem_scalar(&fd.ty));
                    self.init_mem(
                        st,
                        fr,
                        a,
                        &fd.ty.clone(),
                        if scalar_like { Some(&k) } else { None },
                        sub,
                        loc,
                    )?;
                }
            }
            Init::Str(bytes) => {
                let Ty::Array(el, n) = ty.unqual() else {
                    return Err(("a string initialiser for a non-array".into(), loc));
                };
                let n = n.unwrap_or(bytes.len() as u64) as usize;
                for (i, b) in bytes.iter().take(n).enumerate() {
                    let a = self.offset(&addr, i as u64);
                    let k = key.cloned().unwrap_or(regions::deref_key(p, el));
                    self.store(st, fr, &a, el, k, term::bv(*b as i128, 8), loc.line)?;
                }
            }
        }
        Ok(())
    }

    pub fn leaf_list(&self, ty: &Ty, key: Option<&RKey>) -> Vec<(u64, Ty, RKey)> {
        let mut v = Vec::new();
        regions::leaves(self.p, ty, key, &mut v, 0);
        v
    }

    pub(super) fn offset(&self, a: &T, off: u64) -> T {
        term::bin("bvadd", a, &term::bv(off as i128, self.pw))
    }

    pub(super) fn region(&mut self, k: RKey, ty: &Ty, _line: u32) -> R<u32> {
        let Some(w) = regions::leaf_width(self.p.data_model, ty) else {
            return Err((
                format!("memory of type '{}'", regions::ty_name(self.p, ty)),
                self.cur_loc,
            ));
        };
        self.uses_arrays = true;
        self.regions.id(self.p, k, w).map_err(|m| (m, self.cur_loc))
    }

    /// The cell a round-copied access at `addr` in region `r` uses, if
    /// the region's round copies are plain values: K + 2 bit-vectors per
    /// address chosen by the round, instead of an array at a symbolic
    /// (round, address) key, which solvers handle far worse (a mutex
    /// word, at the constant `&m`, took z3 30 s as an array). A region
    /// keeps cells while every round-copied access to it has a constant
    /// address (at most `CELL_ADDRS` of them); one computed address
    /// makes it arrays from then on, and if it already had cells this
    /// encoding is void (`wants_arrays`): the next one starts it as
    /// arrays. A region that is one scalar global alone is always cells
    /// (only the global's name reaches it).
    pub(super) fn cell_of(&mut self, r: u32, addr: &T) -> Option<u64> {
        self.rounds?;
        if self.regions.regions[r as usize].bytes {
            return None;
        }
        let local = 1u64 << (self.pw - 1);
        if let T::V(a, _) = addr
            && *a as u64 >= local
        {
            // A local or sequential object: never round-copied.
            return None;
        }
        if self.cells.get(&r) == Some(&false) {
            return None;
        }
        let (lone, key) = match self.cell_info.get(&r) {
            Some(x) => x.clone(),
            None => {
                let p = self.p;
                let lone = self
                    .regions
                    .lone_global(p, r)
                    .filter(|g| p.rounds.as_ref().is_some_and(|x| x.copied[g.index()]))
                    .and_then(|g| self.global_addr[g.index()]);
                let key = self
                    .regions
                    .class_key(r)
                    .expect("internal error: a region without a class");
                self.cell_info.insert(r, (lone, key.clone()));
                (lone, key)
            }
        };
        if let Some(c) = lone {
            // Only the global's own name reaches its region.
            assert!(
                matches!(addr, T::V(a, _) if *a as u64 == c),
                "internal error: region {} of one global accessed at another address",
                self.regions.regions[r as usize].name
            );
            self.cells.insert(r, true);
            return Some(c);
        }
        let forced = self.array_regions.contains(&key);
        let fits = |s: &Self, a: u64| {
            s.cell_addrs
                .get(&r)
                .is_none_or(|x| x.contains(&a) || x.len() < CELL_ADDRS)
        };
        match addr {
            T::V(a, _) if !forced && fits(self, *a as u64) => {
                self.cells.insert(r, true);
                self.cell_addrs.entry(r).or_default().insert(*a as u64);
                Some(*a as u64)
            }
            _ => {
                if self.cells.insert(r, false) == Some(true) {
                    self.wants_arrays.insert(key);
                }
                None
            }
        }
    }

    /// Stops an encoding that `cell_of` made void at once: the rest of
    /// it would be thrown away (running it to the end doubled the
    /// encoding time of goblint's thread-array tasks).
    fn cells_void(&self) -> R<()> {
        match self.wants_arrays.is_empty() {
            true => Ok(()),
            false => Err((
                "round copies to encode again as arrays".into(),
                self.cur_loc,
            )),
        }
    }

    pub(super) fn load(&mut self, st: &State, addr: &T, ty: &Ty, k: RKey, line: u32) -> R<T> {
        let v = self.load_value(st, addr, ty, k, line)?;
        if matches!(ty.unqual(), Ty::Bool) && v != term::bv(0, 8) && v != term::bv(1, 8) {
            // A _Bool whose byte is neither 0 nor 1 (written as a char, or
            // never written) has no value C gives: the path stops there.
            let ok = term::cmp("bvule", &v, &term::bv(1, v.width()));
            self.assume(st, &ok, line);
        }
        Ok(v)
    }

    fn load_value(&mut self, st: &State, addr: &T, ty: &Ty, k: RKey, line: u32) -> R<T> {
        let r = self.region(k, ty, line)?;
        let w = regions::leaf_width(self.p.data_model, ty).unwrap_or(8);
        if self.regions.regions[r as usize].bytes && w != 8 {
            // A byte region: the value's bytes, least significant first.
            let mut acc = self.load_in(st, r, addr)?;
            for i in 1..w / 8 {
                let a = self.offset(addr, i as u64);
                let b = self.load_in(st, r, &a)?;
                acc = term::concat(&b, &acc);
            }
            return Ok(acc);
        }
        self.load_in(st, r, addr)
    }

    /// A load of one value of region `r`'s array.
    fn load_in(&mut self, st: &State, r: u32, addr: &T) -> R<T> {
        let cell = self.cell_of(r, addr);
        self.cells_void()?;
        if let Some(a) = cell {
            let (g, k) = self.rounds.expect("cells only with rounds");
            let round = self.get(st, Var::Global(g));
            if self.round_read_set.insert((r, addr.clone())) {
                self.round_reads.push((r, addr.clone()));
            }
            if let T::V(i, _) = round {
                return Ok(self.get(st, Var::Cell(r, a, i as u32)));
            }
            let mut acc = self.get(st, Var::Cell(r, a, k));
            for i in (0..k).rev() {
                let c = self.get(st, Var::Cell(r, a, i));
                acc = term::ite(&term::eq(&round, &term::bv(i as i128, 32)), &c, &acc);
            }
            return Ok(acc);
        }
        let m = self.get(st, Var::Mem(r));
        let Some(round) = self.round_of(st, addr) else {
            return Ok(self.select(&m, addr, 0));
        };
        if self.round_read_set.insert((r, addr.clone())) {
            self.round_reads.push((r, addr.clone()));
        }
        let first = self.select(&m, addr, 0);
        if round == term::bv(0, 32) {
            return Ok(first);
        }
        let g = self.get(st, Var::MemG(r));
        let later = self.select(&g, &self.shifted(addr, &round), 0);
        if round.is_const() {
            return Ok(later);
        }
        Ok(term::ite(
            &term::eq(&round, &term::bv(0, 32)),
            &first,
            &later,
        ))
    }

    /// The round a memory access at `addr` uses: `None` when rounds are
    /// off or the address is a local's (locals are never shifted).
    pub(super) fn round_of(&mut self, st: &State, addr: &T) -> Option<T> {
        let (g, k) = self.rounds?;
        let local = 1u64 << (self.pw - 1);
        if let T::V(a, _) = addr {
            if *a as u64 >= local {
                return None;
            }
            return Some(self.get(st, Var::Global(g)));
        }
        // A symbolic address (a local array at a computed index) is
        // thread-local memory when it lies in the locals' half: round 0,
        // the unshifted copy, whatever the round. Giving it round copies
        // made a thread's own array read back a guessed value. A stopped
        // thread (the sink, round K) keeps its own copy: its wild writes,
        // never checked, must not reach another thread's locals.
        let r = self.get(st, Var::Global(g));
        let is_local = term::and(
            &term::cmp("bvule", &term::bv(local as i128, self.pw), addr),
            &term::not(&term::eq(&r, &term::bv(k as i128, 32))),
        );
        Some(term::ite(&is_local, &term::bv(0, 32), &r))
    }

    /// Bits that hold a round number 0..=K.
    pub(super) fn round_bits(&self) -> u32 {
        let k = self.rounds.map_or(0, |(_, k)| k);
        (32 - k.leading_zeros()).max(1)
    }

    /// `addr` in round copy `round`: the round number above the address
    /// bits, so no address (however wild a guessed value makes it) can
    /// reach another round's copy. An address stride would let a garbage
    /// index in one round write into another and justify its own guess.
    pub(super) fn shifted(&self, addr: &T, round: &T) -> T {
        let w = self.pw + self.round_bits();
        let r = term::resize(round, w, false);
        let hi = term::bin("bvmul", &r, &term::bv(1i128 << self.pw, w));
        term::bin("bvadd", &term::resize(addr, w, false), &hi)
    }

    /// The consistency of rounds (Lal-Reps): for every address read from
    /// shared memory, the final value in round i is the guess of round
    /// i+1. Cells nobody reads need no constraint: their guesses can be
    /// chosen consistent without changing any value read.
    pub(super) fn round_check(&mut self, st: &State, line: u32) {
        let Some((_, k)) = self.rounds else { return };
        let reads = self.round_reads.clone();
        let mut all = T::B(true);
        for (r, a) in reads {
            if self.cells.get(&r) == Some(&true) {
                let T::V(a, _) = a else {
                    unreachable!("a cell at a computed address")
                };
                let a = a as u64;
                for i in 0..k.saturating_sub(1) {
                    let fin = self.get(st, Var::Cell(r, a, i));
                    let next = self.default_of(Var::Cell(r, a, i + 1));
                    all = term::and(&all, &term::eq(&fin, &next));
                }
                continue;
            }
            let m = self.get(st, Var::Mem(r));
            let g = self.get(st, Var::MemG(r));
            let Some(init) = self.guess.get(&r).cloned() else {
                continue;
            };
            for i in 0..k.saturating_sub(1) {
                let fin = if i == 0 {
                    self.select(&m, &a, 0)
                } else {
                    self.select(&g, &self.shifted(&a, &term::bv(i as i128, 32)), 0)
                };
                let next = term::select(&init, &self.shifted(&a, &term::bv(i as i128 + 1, 32)));
                all = term::and(&all, &term::eq(&fin, &next));
            }
        }
        self.assume(st, &all, line);
    }

    /// `select(m, addr)`, folded through stores at other constant
    /// addresses and small merges.
    pub(super) fn select(&self, m: &T, addr: &T, depth: u32) -> T {
        let mut cur = m.clone();
        for _ in 0..4096 {
            let T::E(text, Sort::Array(_, w)) = &cur else {
                break;
            };
            if text.starts_with("((as const") {
                return term::bv(0, *w);
            }
            match self.arr_defs.get(text) {
                Some(ArrDef::Store(parent, a, v)) => {
                    if a == addr {
                        return v.clone();
                    }
                    if a.is_const() && addr.is_const() {
                        cur = parent.clone();
                        continue;
                    }
                    break;
                }
                Some(ArrDef::Phi(arms, default)) if depth < 4 && arms.len() <= 4 => {
                    let mut acc = self.select(default, addr, depth + 1);
                    for (g, a) in arms.iter().rev() {
                        let x = self.select(a, addr, depth + 1);
                        acc = term::ite(g, &x, &acc);
                    }
                    return acc;
                }
                _ => break,
            }
        }
        term::select(&cur, addr)
    }

    pub(super) fn store(
        &mut self,
        st: &mut State,
        fr: &Frame,
        addr: &T,
        ty: &Ty,
        k: RKey,
        v: T,
        line: u32,
    ) -> R<()> {
        let r = self.region(k, ty, line)?;
        let w = regions::leaf_width(self.p.data_model, ty).unwrap_or(8);
        if self.regions.regions[r as usize].bytes && w != 8 {
            let v = self.def("stored", line, v);
            for i in 0..w / 8 {
                let a = self.offset(addr, i as u64);
                let b = term::extract(&v, 8 * i + 7, 8 * i);
                self.store_in(st, fr, r, &a, b, line)?;
            }
            return Ok(());
        }
        self.store_in(st, fr, r, addr, v, line)
    }

    /// A store of one value into region `r`'s array.
    fn store_in(&mut self, st: &mut State, fr: &Frame, r: u32, addr: &T, v: T, line: u32) -> R<()> {
        let cell = self.cell_of(r, addr);
        self.cells_void()?;
        if let Some(a) = cell {
            let (g, k) = self.rounds.expect("cells only with rounds");
            let round = self.get(st, Var::Global(g));
            if let T::V(i, _) = round {
                self.set(st, Var::Cell(r, a, i as u32), v, line, Some(fr));
                return Ok(());
            }
            let v = self.def("stored", line, v);
            for i in 0..=k {
                let old = self.get(st, Var::Cell(r, a, i));
                let hit = term::eq(&round, &term::bv(i as i128, 32));
                self.set(
                    st,
                    Var::Cell(r, a, i),
                    term::ite(&hit, &v, &old),
                    line,
                    Some(fr),
                );
            }
            return Ok(());
        }
        let m = self.get(st, Var::Mem(r));
        // A stored value is named once: a later select folded through this
        // store returns it, and inlining its text each time grows the
        // script exponentially (a 355 MB script on pthread/queue).
        let v = self.def("stored", line, v);
        let round = self.round_of(st, addr);
        let zero = term::bv(0, 32);
        if let Some(round) = &round
            && *round != zero
        {
            let g = self.get(st, Var::MemG(r));
            let sa = self.shifted(addr, round);
            let g2 = term::store(&g, &sa, &v);
            let t = self.set(st, Var::MemG(r), g2, line, Some(fr));
            if let T::E(name, _) = t {
                self.arr_defs.insert(name, ArrDef::Store(g, sa, v.clone()));
            }
            if round.is_const() {
                return Ok(());
            }
        }
        let v = match &round {
            Some(round) if *round != zero => {
                let old = self.select(&m, addr, 0);
                let v = term::ite(&term::eq(round, &zero), &v, &old);
                self.def("stored", line, v)
            }
            _ => v,
        };
        let m2 = term::store(&m, addr, &v);
        let t = self.set(st, Var::Mem(r), m2, line, Some(fr));
        if let T::E(name, _) = t {
            self.arr_defs
                .insert(name, ArrDef::Store(m, addr.clone(), v));
        }
        Ok(())
    }

    pub(super) fn read(&mut self, st: &State, place: &Place, ty: &Ty, line: u32) -> R<Val> {
        match place {
            Place::Var(v) => {
                let t = self.get(st, *v);
                if t == T::B(false) {
                    // Read before any definition on this path: any value.
                    let w = regions::leaf_width(self.p.data_model, ty).unwrap_or(32);
                    let t = self.fresh("undef", line, Sort::Bv(w));
                    if !ty.is_pointer() {
                        self.nondet_event(st, self.cur_loc, &t);
                    }
                    return Ok(Val::S(t));
                }
                Ok(Val::S(t))
            }
            Place::Mem(addr, key) => {
                if regions::is_leaf(ty) {
                    let k = key
                        .clone()
                        .unwrap_or_else(|| regions::deref_key(self.p, ty));
                    return Ok(Val::S(self.load(st, addr, ty, k, line)?));
                }
                let mut out = Vec::new();
                for (off, lt, k) in self.leaf_list(ty, key.as_ref()) {
                    let a = self.offset(addr, off);
                    out.push(self.load(st, &a, &lt, k, line)?);
                }
                Ok(Val::A(out))
            }
        }
    }

    pub(super) fn write(
        &mut self,
        st: &mut State,
        fr: &Frame,
        place: &Place,
        ty: &Ty,
        v: Val,
        line: u32,
    ) -> R<()> {
        match place {
            Place::Var(var) => {
                self.set(st, *var, v.s(), line, Some(fr));
            }
            Place::Mem(addr, key) => match v {
                Val::S(t) => {
                    let k = key
                        .clone()
                        .unwrap_or_else(|| regions::deref_key(self.p, ty));
                    self.store(st, fr, addr, ty, k, t, line)?;
                }
                Val::A(ts) => {
                    let leaves = self.leaf_list(ty, key.as_ref());
                    for ((off, lt, k), t) in leaves.into_iter().zip(ts) {
                        let a = self.offset(addr, off);
                        self.store(st, fr, &a, &lt, k, t, line)?;
                    }
                }
            },
        }
        Ok(())
    }

    pub(super) fn place(&mut self, st: &State, fr: &Frame, e: &Expr) -> R<Place> {
        let p = self.p;
        Ok(match &e.kind {
            ExprKind::Local(v) => self.local_place(fr, *v),
            ExprKind::Global(g) => match self.global_addr[g.index()] {
                Some(a) => Place::Mem(term::bv(a as i128, self.pw), Some(RKey::Global(*g))),
                None => Place::Var(Var::Global(*g)),
            },
            ExprKind::Deref(x) => {
                let a = self.rvalue(st, fr, x)?.s();
                let key = if regions::is_leaf(regions::elem_scalar(&e.ty)) {
                    Some(regions::deref_key(p, &e.ty))
                } else {
                    None
                };
                Place::Mem(a, key)
            }
            ExprKind::Member(b, i) => {
                let Ty::Comp(c) = b.ty.unqual() else {
                    return Err(("a member of a non-struct".into(), e.loc));
                };
                let fd = &p.comp(*c).fields[*i as usize];
                if fd.bit_width.is_some() {
                    return Err(("bit-fields".into(), e.loc));
                }
                let Place::Mem(a, _) = self.place(st, fr, b)? else {
                    return Err(("a struct outside memory".into(), e.loc));
                };
                let (offs, _, _) = p.comp_layout(*c).unwrap_or_default();
                let key = if regions::is_leaf(regions::elem_scalar(&fd.ty)) {
                    Some(RKey::Field(*c, *i))
                } else {
                    None
                };
                Place::Mem(self.offset(&a, offs[*i as usize]), key)
            }
            ExprKind::Index(a, i) => {
                let Place::Mem(base, key) = self.place(st, fr, a)? else {
                    return Err(("an array outside memory".into(), e.loc));
                };
                let iv = self.rvalue(st, fr, i)?.s();
                let sz = p.size_of(&e.ty).unwrap_or(1);
                let iv = term::resize(&iv, self.pw, i.ty.is_signed());
                let off = term::bin("bvmul", &iv, &term::bv(sz as i128, self.pw));
                let key = if regions::is_leaf(regions::elem_scalar(&e.ty)) {
                    key
                } else {
                    None
                };
                Place::Mem(term::bin("bvadd", &base, &off), key)
            }
            ExprKind::Str(bytes) => {
                let a = self.string(st, fr, bytes)?;
                Place::Mem(
                    term::bv(a as i128, self.pw),
                    Some(regions::deref_key(p, &Ty::CHAR)),
                )
            }
            _ => return Err(("this expression as an lvalue".into(), e.loc)),
        })
    }

    /// String literals are constant objects whose contents live in
    /// `*char`, written before `main` runs.
    pub(super) fn string(&mut self, _st: &State, _fr: &Frame, bytes: &[u8]) -> R<u64> {
        match self.strings.get(bytes) {
            Some(a) => Ok(*a),
            None => Err((
                "a string literal seqc did not see before the run".into(),
                Loc::NONE,
            )),
        }
    }

    /// malloc's memory is indeterminate: when the object's type is known
    /// (`malloc_elem`) and it is small, every scalar of it starts at a
    /// fresh value. Otherwise it reads as zero, one of its possible
    /// contents (an under-approximation, never a false bug).
    pub(super) fn havoc_heap(
        &mut self,
        st: &mut State,
        fr: &Frame,
        a: u64,
        size: u64,
        line: u32,
    ) -> R<()> {
        let Some(t) = self.malloc_elem.take() else {
            return Ok(());
        };
        let esz = match self.p.size_of(&t) {
            Some(z) if z > 0 && size.is_multiple_of(z) => z,
            _ => return Ok(()),
        };
        let key = regions::is_leaf(&t).then(|| regions::deref_key(self.p, &t));
        let leaves = self.leaf_list(&t, key.as_ref());
        let count = size / esz;
        if leaves.is_empty() || count * leaves.len() as u64 > 256 {
            return Ok(());
        }
        for i in 0..count {
            for (off, lt, k) in &leaves {
                let Some(w) = regions::leaf_width(self.p.data_model, lt) else {
                    continue;
                };
                let v = if matches!(lt.unqual(), Ty::Bool) {
                    self.nondet(lt, self.cur_loc)?.s()
                } else {
                    self.fresh("heap", line, Sort::Bv(w))
                };
                let at = term::bv((a + i * esz + off) as i128, self.pw);
                self.store(st, fr, &at, lt, k.clone(), v, line)?;
            }
        }
        Ok(())
    }
}
