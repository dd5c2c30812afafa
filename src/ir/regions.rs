//! Memory regions (DESIGN.md §1, STORM's split): one per struct field
//! (`struct dev.flags`), one per pointer target type for memory reached
//! through pointers that are not fields (`*int`), one per object whose
//! address is taken (`count`). Each region is one SMT array from
//! addresses to values.
//!
//! Regions that the program lets alias are merged, flow-insensitively:
//! `&x` or an array decay joins the object's region with the target
//! region of the resulting pointer type; a cast between pointers to two
//! different scalar types joins their target regions; all fields of a
//! union share one region. Memory is assumed to be accessed through
//! lvalues of its effective type (C11 6.5p7): a round trip through
//! `void *` keeps the type, so it joins nothing, except that a character
//! pointer made from a `void *` may reach the bytes of every type that
//! became one (C lets a character type read any object), and an integer
//! pointer made from one may reach the signed or unsigned variant of its
//! type, or the first member of a struct that became one.
//!
//! Type punning. A class accessed at two widths is kept as bytes: the
//! encoder finds it at the second width (`wants_bytes`) and encodes the
//! program again with the class in `byte_classes`. A class is bytes from
//! the start (`must_bytes`) where two values of one width may overlap
//! without being the same value, which arrays of whole values cannot
//! hold: a cast between pointers to two widths (arithmetic in the
//! narrower steps), an integer made a pointer, GNU C's steps on a
//! `void *`, and union or struct-cast members off each other's
//! boundaries. A cast between two struct pointer types puts both
//! structs' fields in one class; a scalar pointer that reaches a struct
//! gets the struct's fields merged into its class when an access through
//! it needs them (`wants_merge`, then encoded again).

use crate::ir::*;
use std::collections::{BTreeMap, HashMap};

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RKey {
    Deref(String),
    Field(CompId, u32),
    Global(GlobalId),
    Local(FuncId, LocalId),
}

pub struct Region {
    pub name: String,
    /// The width of the values the region's array holds: 8 for a byte
    /// region.
    pub width: u32,
    /// Accessed at several widths (type punning): an array of bytes,
    /// each access its bytes, least significant first.
    pub bytes: bool,
}

pub struct Regions {
    keys: Vec<RKey>,
    index: HashMap<RKey, usize>,
    parent: Vec<usize>,
    width: Vec<u32>,
    /// Final numbering of classes (in order of first use by the encoder).
    class_id: HashMap<usize, u32>,
    pub regions: Vec<Region>,
    /// Objects that live in memory (address taken, or aggregates).
    pub mem_globals: Vec<bool>,
    pub mem_locals: HashMap<(FuncId, LocalId), ()>,
    /// Scalar target regions that a struct pointer was cast to or from:
    /// (the struct, where).
    poisoned: HashMap<RKey, (String, Loc)>,
    /// The structs behind each poisoned key.
    poison_comps: HashMap<RKey, Vec<CompId>>,
    /// Poisoned keys whose structs were merged into their class: its
    /// accesses are exact (as bytes where widths differ).
    merged: std::collections::BTreeSet<RKey>,
    /// A poisoned key an access reached, not yet merged: encoding again
    /// with it merged encodes the access.
    pub wants_merge: Option<RKey>,
    /// Casts between pointers to two struct types: their fields share one
    /// class (the slicer slices nothing then).
    struct_casts: Vec<(String, Loc)>,
    /// Keys whose classes must be bytes whatever widths their accesses
    /// have: the program can reach a value of theirs at an address where
    /// another value of the same width overlaps it (`char *` arithmetic
    /// cast back to a wider pointer, an integer made a pointer, a packed
    /// member over another), which arrays of whole values cannot hold.
    must_bytes: Vec<RKey>,
    /// Element types of pointers converted to `void *`, and of pointers
    /// converted from it; and whether the program steps a `void *`
    /// (GNU C: by bytes).
    to_void: Vec<Ty>,
    from_void: Vec<Ty>,
    void_steps: bool,
    /// Classes (by their naming key) to keep as bytes.
    pub byte_classes: std::collections::BTreeSet<RKey>,
    /// The class whose accesses first disagreed on a width, when it is
    /// not yet a byte class: encoding it again as bytes encodes them.
    pub wants_bytes: Option<RKey>,
}

pub type Punning = (String, Loc);

/// A name for a scalar type, as region names print it.
pub fn ty_name(p: &Program, t: &Ty) -> String {
    match t.unqual() {
        Ty::Void => "void".into(),
        Ty::Bool => "_Bool".into(),
        Ty::Int(k) => k.c_name().into(),
        Ty::Float(k) => k.c_name().into(),
        Ty::Ptr(t) => format!("{}*", ty_name(p, t)),
        Ty::Array(t, _) => format!("{}[]", ty_name(p, t)),
        Ty::Comp(c) => {
            let d = p.comp(*c);
            let kw = if d.kind == CompKind::Union {
                "union"
            } else {
                "struct"
            };
            format!("{kw} {}", d.name)
        }
        Ty::Func(_) => "fn".into(),
        Ty::Pthread(k) => k.c_name().into(),
        Ty::Atomic(t) => ty_name(p, t),
    }
}

/// The element type under any array layers.
pub fn elem_scalar(t: &Ty) -> &Ty {
    match t.unqual() {
        Ty::Array(e, _) => elem_scalar(e),
        t => t,
    }
}

/// Width in bits of a scalar as memory holds it; `None` for what the SMT
/// route cannot hold (floating point, functions, aggregates).
pub fn leaf_width(dm: DataModel, t: &Ty) -> Option<u32> {
    match t.unqual() {
        Ty::Pthread(PthreadTy::Thread) => Some(dm.pointer_bits()),
        Ty::Pthread(_) => Some(32),
        // The bit pattern of a float (the SMT route's `bmc/symex/float.rs`).
        Ty::Float(FloatKind::Float) => Some(32),
        Ty::Float(FloatKind::Double) => Some(64),
        Ty::Float(FloatKind::LongDouble) => None,
        t => t.int_bits(dm),
    }
}

/// The scalar at offset 0 of struct `t` and its region: the first
/// member, descending into nested structs and arrays (`leaves` would list
/// every element of a large array on the way).
fn first_member(p: &Program, t: &Ty) -> Option<(Ty, RKey)> {
    let Ty::Comp(c) = t.unqual() else {
        return None;
    };
    let f = p.comp(*c).fields.first()?;
    if f.bit_width.is_some() {
        return None;
    }
    let e = elem_scalar(&f.ty).unqual();
    match e {
        Ty::Comp(_) => first_member(p, e),
        e if is_leaf(e) => Some((e.clone(), RKey::Field(*c, 0))),
        _ => None,
    }
}

pub fn is_leaf(t: &Ty) -> bool {
    matches!(
        t.unqual(),
        Ty::Bool | Ty::Int(_) | Ty::Ptr(_) | Ty::Pthread(_) | Ty::Float(_)
    )
}

pub fn deref_key(p: &Program, pointee: &Ty) -> RKey {
    RKey::Deref(format!("*{}", ty_name(p, elem_scalar(pointee))))
}

/// The region of a scalar (or array-of-scalar) lvalue.
pub fn lvalue_key(p: &Program, f: FuncId, e: &Expr) -> Option<RKey> {
    match &e.kind {
        ExprKind::Local(v) => Some(RKey::Local(f, *v)),
        ExprKind::Global(g) => Some(RKey::Global(*g)),
        ExprKind::Member(b, i) => match b.ty.unqual() {
            Ty::Comp(c) => Some(RKey::Field(*c, *i)),
            _ => None,
        },
        ExprKind::Index(a, _) => lvalue_key(p, f, a),
        ExprKind::Deref(_) => Some(deref_key(p, &e.ty)),
        ExprKind::Str(_) => Some(deref_key(p, &Ty::CHAR)),
        _ => None,
    }
}

/// The object an lvalue path starts from, if it is a named one.
fn root(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Local(_) | ExprKind::Global(_) => Some(e),
        ExprKind::Member(b, _) | ExprKind::Index(b, _) => root(b),
        _ => None,
    }
}

/// `(offset, leaf type, region key)` of every scalar inside an object of
/// type `t` whose own scalars (if `t` is scalar or an array of scalars)
/// are in region `key`. Bit-fields are refused by the caller.
pub fn leaves(p: &Program, t: &Ty, key: Option<&RKey>, out: &mut Vec<(u64, Ty, RKey)>, base: u64) {
    match t.unqual() {
        Ty::Array(e, n) => {
            let n = n.unwrap_or(0);
            let sz = p.size_of(e).unwrap_or(0);
            for i in 0..n {
                leaves(p, e, key, out, base + i * sz);
            }
        }
        Ty::Comp(c) => {
            let Some((offs, _, _)) = p.comp_layout(*c) else {
                return;
            };
            for (i, fd) in p.comp(*c).fields.iter().enumerate() {
                if fd.bit_width == Some(0) {
                    continue;
                }
                let k = RKey::Field(*c, i as u32);
                let scalar_like = is_leaf(elem_scalar(&fd.ty));
                leaves(
                    p,
                    &fd.ty,
                    if scalar_like { Some(&k) } else { None },
                    out,
                    base + offs[i],
                );
            }
        }
        t => {
            if let Some(k) = key {
                out.push((base, t.clone(), k.clone()));
            }
        }
    }
}

/// C paths (`.f`, `[2].g`) of the scalars `leaves` lists, in its order.
pub fn leaf_paths(p: &Program, t: &Ty, prefix: &str, out: &mut Vec<String>) {
    match t.unqual() {
        Ty::Array(e, n) => {
            for i in 0..n.unwrap_or(0) {
                leaf_paths(p, e, &format!("{prefix}[{i}]"), out);
            }
        }
        Ty::Comp(c) => {
            if p.comp_layout(*c).is_none() {
                return;
            }
            for fd in &p.comp(*c).fields {
                if fd.bit_width != Some(0) {
                    leaf_paths(p, &fd.ty, &format!("{prefix}.{}", fd.name), out);
                }
            }
        }
        _ => out.push(prefix.to_string()),
    }
}

impl Regions {
    pub fn analyse(p: &Program) -> Result<Regions, Punning> {
        let mut r = Regions {
            keys: Vec::new(),
            index: HashMap::new(),
            parent: Vec::new(),
            width: Vec::new(),
            class_id: HashMap::new(),
            regions: Vec::new(),
            mem_globals: vec![false; p.globals.len()],
            mem_locals: HashMap::new(),
            poisoned: HashMap::new(),
            poison_comps: HashMap::new(),
            merged: Default::default(),
            wants_merge: None,
            struct_casts: Vec::new(),
            must_bytes: Vec::new(),
            to_void: Vec::new(),
            from_void: Vec::new(),
            void_steps: false,
            byte_classes: Default::default(),
            wants_bytes: None,
        };
        let dm = p.data_model;
        for (gi, g) in p.globals.iter().enumerate() {
            if !is_leaf(&g.ty) {
                r.mem_globals[gi] = true;
            }
            if let Some(i) = &g.init {
                let mut es = Vec::new();
                i.exprs(&mut es);
                for e in es {
                    r.expr(p, FuncId(u32::MAX), e)?;
                }
            }
        }
        for (fi, f) in p.functions.iter().enumerate() {
            let fid = FuncId(fi as u32);
            let Some(body) = &f.body else { continue };
            for (li, l) in f.locals.iter().enumerate() {
                if !is_leaf(&l.ty) {
                    r.mem_locals.insert((fid, LocalId(li as u32)), ());
                }
            }
            let mut err = None;
            body.walk(&mut |s| {
                if err.is_some() {
                    return;
                }
                let mut es = s.exprs();
                if let StmtKind::Decl(_, Some(init)) = &s.kind {
                    es.clear();
                    init.exprs(&mut es);
                }
                // `free`, `memset` and `memcpy` take a `void *` and give
                // no pointer back: their arguments reach no char pointer.
                let n = r.to_void.len();
                for e in es {
                    if let Err(x) = r.expr(p, fid, e) {
                        err = Some(x);
                        return;
                    }
                }
                if let StmtKind::Op {
                    op: Op::Free | Op::Memset | Op::Memcpy,
                    ..
                } = s.kind
                {
                    r.to_void.truncate(n);
                }
            });
            if let Some(e) = err {
                return Err(e);
            }
        }
        r.through_void(p, dm)?;
        // All leaves of a union overlap: one region.
        for (ci, c) in p.comps.iter().enumerate() {
            if c.kind != CompKind::Union || !c.complete {
                continue;
            }
            let mut ls = Vec::new();
            leaves(p, &Ty::Comp(CompId(ci as u32)), None, &mut ls, 0);
            for w in ls.windows(2) {
                let (a, b) = (&w[0], &w[1]);
                let wa = leaf_width(dm, &a.1).unwrap_or(0);
                let wb = leaf_width(dm, &b.1).unwrap_or(0);
                r.union(a.2.clone(), wa, b.2.clone(), wb, c.loc, p)?;
            }
            if !congruent(dm, &ls, 0) {
                r.must_bytes.push(ls[0].2.clone());
            }
        }
        Ok(r)
    }

    fn expr(&mut self, p: &Program, f: FuncId, e: &Expr) -> Result<(), Punning> {
        let dm = p.data_model;
        let mut res = Ok(());
        e.walk(&mut |x| {
            if res.is_err() {
                return;
            }
            match &x.kind {
                ExprKind::AddrOf(lv) | ExprKind::Decay(lv) => {
                    if let Some(r) = root(lv) {
                        match r.kind {
                            ExprKind::Local(v) => {
                                self.mem_locals.insert((f, v), ());
                            }
                            ExprKind::Global(g) => self.mem_globals[g.index()] = true,
                            _ => {}
                        }
                    }
                    let el = elem_scalar(&lv.ty);
                    if is_leaf(el)
                        && let Some(k) = lvalue_key(p, f, lv)
                    {
                        let w = leaf_width(dm, el).unwrap_or(0);
                        res = self.union(k, w, deref_key(p, el), w, x.loc, p);
                    }
                }
                ExprKind::Binary(BinOp::PtrAdd | BinOp::PtrSub, a, _)
                    if a.ty
                        .pointee()
                        .is_some_and(|t| matches!(t.unqual(), Ty::Void)) =>
                {
                    self.void_steps = true;
                }
                ExprKind::Cast(inner) => {
                    if let (Some(a), Some(b)) = (inner.ty.pointee(), x.ty.pointee()) {
                        let (a, b) = (elem_scalar(a).unqual(), elem_scalar(b).unqual());
                        let typed = |t: &Ty| !matches!(t, Ty::Void | Ty::Func(_));
                        if typed(a) && matches!(b, Ty::Void) && !self.to_void.contains(a) {
                            self.to_void.push(a.clone());
                        }
                        if typed(b) && matches!(a, Ty::Void) && !self.from_void.contains(b) {
                            self.from_void.push(b.clone());
                        }
                    }
                    // An integer made a pointer may point between the
                    // values of the target's region (unless it is a
                    // constant on their boundaries, such as null).
                    if inner.ty.pointee().is_none()
                        && let Some(t) = x.ty.pointee()
                        && is_leaf(elem_scalar(t))
                    {
                        let t = elem_scalar(t);
                        let w = u64::from(leaf_width(dm, t).unwrap_or(8) / 8).max(1);
                        let aligned =
                            matches!(inner.kind, ExprKind::Int(v) if (v as u64).is_multiple_of(w));
                        if w > 1 && !aligned {
                            self.must_bytes.push(deref_key(p, t));
                        }
                        return;
                    }
                    let (Some(a), Some(b)) = (inner.ty.pointee(), x.ty.pointee()) else {
                        return;
                    };
                    let (a, b) = (elem_scalar(a).unqual(), elem_scalar(b).unqual());
                    let opaque = |t: &Ty| matches!(t, Ty::Void | Ty::Func(_));
                    if a == b || opaque(a) || opaque(b) {
                        return;
                    }
                    if !is_leaf(a) || !is_leaf(b) {
                        // A struct seen through a scalar pointer (often a
                        // `char *` that only carries an allocation): an
                        // error only if memory is accessed that way.
                        let (s, o) = if is_leaf(a) { (b, a) } else { (a, b) };
                        if is_leaf(o) {
                            self.poison(p, deref_key(p, o), s, x.loc);
                        } else if matches!((a, b), (Ty::Comp(_), Ty::Comp(_))) {
                            // One struct's memory read as another's: all
                            // their fields in one class, so overlapping
                            // bytes are one memory (bytes if widths differ).
                            self.struct_casts.push((
                                format!("a cast from '{}*' to '{}*'", ty_name(p, a), ty_name(p, b)),
                                x.loc,
                            ));
                            let mut ls = Vec::new();
                            leaves(p, a, None, &mut ls, 0);
                            leaves(p, b, None, &mut ls, 0);
                            for w in ls.windows(2) {
                                res = self.union(w[0].2.clone(), 0, w[1].2.clone(), 0, x.loc, p);
                            }
                            if !congruent(dm, &ls, 0) {
                                self.must_bytes.push(ls[0].2.clone());
                            }
                        } else {
                            res = Err((
                                format!(
                                    "type punning: a cast from '{}*' to '{}*'",
                                    ty_name(p, a),
                                    ty_name(p, b)
                                ),
                                x.loc,
                            ));
                        }
                        return;
                    }
                    let (wa, wb) = (
                        leaf_width(dm, a).unwrap_or(0),
                        leaf_width(dm, b).unwrap_or(0),
                    );
                    res = self.union(deref_key(p, a), wa, deref_key(p, b), wb, x.loc, p);
                    if wa != wb {
                        // Arithmetic in the narrower type's steps can
                        // leave the wider one's boundaries.
                        self.must_bytes.push(deref_key(p, a));
                    }
                }
                _ => {}
            }
        });
        res
    }

    /// A `void *` carries no type, but C lets a character pointer made
    /// from it reach any object's bytes (C11 6.5p7): each character type
    /// a `void *` becomes joins the class of every type that became a
    /// `void *` (a struct lazily, as a scalar pointer cast does). Other
    /// types keep C's effective-type rule. Stepping a `void *` by bytes
    /// may leave a wider value's boundaries: the wider types made from a
    /// `void *` are kept as bytes then.
    fn through_void(&mut self, p: &Program, dm: DataModel) -> Result<(), Punning> {
        let chars: Vec<Ty> = self
            .from_void
            .iter()
            .filter(|t| matches!(t, Ty::Int(k) if k.c_name().ends_with("char")))
            .cloned()
            .collect();
        for c in &chars {
            let ck = deref_key(p, c);
            for t in self.to_void.clone() {
                if is_leaf(&t) {
                    let w = leaf_width(dm, &t).unwrap_or(0);
                    self.union(ck.clone(), 8, deref_key(p, &t), w, Loc::NONE, p)?;
                    if w != 8 {
                        self.must_bytes.push(ck.clone());
                    }
                } else if matches!(t, Ty::Comp(_)) {
                    self.poison(p, ck.clone(), &t, Loc::NONE);
                }
            }
        }
        // C also lets an object be reached through the signed or unsigned
        // variant of its type, and a struct through a pointer to its first
        // member (C11 6.5p7, 6.7.2.1p15): a `void *` thread argument read
        // as `int *` for an `unsigned` counter, a struct handed over as
        // `void *` and written as `int *`.
        for u in self.from_void.clone() {
            let u = elem_scalar(&u).unqual().clone();
            let Ty::Int(uk) = u else { continue };
            let w = leaf_width(dm, &u);
            if uk.c_name().ends_with("char") || w.is_none() {
                continue;
            }
            // The same type, or its signed or unsigned variant.
            let fits = |t: &Ty| matches!(t.unqual(), Ty::Int(_)) && leaf_width(dm, t) == w;
            for t in self.to_void.clone() {
                let t = elem_scalar(&t).unqual().clone();
                let key = match t {
                    Ty::Int(tk) if tk != uk && fits(&t) => deref_key(p, &t),
                    // Only the first member is at the struct's address.
                    Ty::Comp(_) => match first_member(p, &t) {
                        Some((lt, k)) if fits(&lt) => k,
                        _ => continue,
                    },
                    _ => continue,
                };
                let w = w.unwrap_or(0);
                self.union(key, w, deref_key(p, &u), w, Loc::NONE, p)?;
            }
        }
        if self.void_steps {
            for t in self.from_void.clone() {
                if is_leaf(&t) && leaf_width(dm, &t).unwrap_or(8) > 8 {
                    self.must_bytes.push(deref_key(p, &t));
                }
            }
        }
        Ok(())
    }

    /// Scalar pointer region `k` reaches the memory of struct `s` (seen
    /// at `loc`): merged into `k`'s class only if an access needs it.
    fn poison(&mut self, p: &Program, k: RKey, s: &Ty, loc: Loc) {
        self.poisoned
            .entry(k.clone())
            .or_insert_with(|| (ty_name(p, s), loc));
        if let Ty::Comp(c) = s {
            let cs = self.poison_comps.entry(k).or_default();
            if !cs.contains(c) {
                cs.push(*c);
            }
        }
    }

    fn intern(&mut self, k: RKey, w: u32) -> usize {
        if let Some(&i) = self.index.get(&k) {
            return i;
        }
        let i = self.keys.len();
        self.keys.push(k.clone());
        self.index.insert(k, i);
        self.parent.push(i);
        self.width.push(w);
        i
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn union(
        &mut self,
        a: RKey,
        wa: u32,
        b: RKey,
        wb: u32,
        loc: Loc,
        p: &Program,
    ) -> Result<(), Punning> {
        let ia = self.intern(a, wa);
        let ib = self.intern(b, wb);
        let (ra, rb) = (self.find(ia), self.find(ib));
        if ra == rb {
            return Ok(());
        }
        let _ = (wa, wb, loc, p);
        // The smaller key names the class, so names do not depend on order.
        let (lo, hi) = if self.keys[ra] <= self.keys[rb] {
            (ra, rb)
        } else {
            (rb, ra)
        };
        self.parent[hi] = lo;
        // Widths are checked where memory is accessed (`id`): a pointer
        // cast that is never dereferenced puns nothing.
        self.width[lo] = 0;
        Ok(())
    }

    /// The region of a key, made on first use. `width` is the value width
    /// the access needs; a mismatch is type punning.
    pub fn id(&mut self, p: &Program, k: RKey, width: u32) -> Result<u32, String> {
        let i = self.intern(k.clone(), width);
        let r = self.find(i);
        if !self.class_id.contains_key(&r) {
            let mut keys: Vec<RKey> = self.poisoned.keys().cloned().collect();
            keys.sort();
            for pk in keys {
                if !self.merged.contains(&pk)
                    && let Some(&pi) = self.index.get(&pk)
                    && self.find(pi) == r
                {
                    self.wants_merge = Some(pk.clone());
                    let (s, _) = &self.poisoned[&pk];
                    return Err(format!(
                        "type punning: memory of '{s}' is accessed as '{}' (after a pointer cast)",
                        key_name(p, &pk)
                    ));
                }
            }
        }
        let mut bytes = self.byte_classes.contains(&self.keys[r]);
        for k in self.must_bytes.clone() {
            if let Some(&i) = self.index.get(&k)
                && self.find(i) == r
            {
                bytes = true;
            }
        }
        if bytes && width.is_multiple_of(8) {
            self.width[r] = 8;
        }
        if self.width[r] == 0 {
            self.width[r] = width;
        }
        if self.width[r] != width && !(bytes && width.is_multiple_of(8)) {
            if !bytes {
                self.wants_bytes = Some(self.keys[r].clone());
            }
            return Err(format!(
                "type punning: '{}' holds {}-bit values and is accessed with {} bits",
                key_name(p, &k),
                self.width[r],
                width
            ));
        }
        if let Some(&c) = self.class_id.get(&r) {
            return Ok(c);
        }
        let c = self.regions.len() as u32;
        self.class_id.insert(r, c);
        self.regions.push(Region {
            name: key_name(p, &self.keys[r]),
            width: self.width[r],
            bytes,
        });
        Ok(c)
    }

    /// The root key of class `c` (stable across encodings of one
    /// program: the key that names its `byte_classes` entry too).
    pub fn class_key(&self, c: u32) -> Option<RKey> {
        self.class_id
            .iter()
            .find(|&(_, &x)| x == c)
            .map(|(&k, _)| self.keys[k].clone())
    }

    /// The global region `r` holds alone, if its class is one scalar
    /// global and nothing else (no pointer reaches it, as taking its
    /// address joins it with the pointer's target region): every access
    /// of the region is at that global's address.
    pub fn lone_global(&mut self, p: &Program, r: u32) -> Option<GlobalId> {
        let root = self
            .class_id
            .iter()
            .find(|&(_, &c)| c == r)
            .map(|(&k, _)| k)?;
        let mut found = None;
        for i in 0..self.keys.len() {
            if self.find(i) == root {
                match (&self.keys[i], found) {
                    (RKey::Global(g), None) => found = Some(*g),
                    _ => return None,
                }
            }
        }
        found.filter(|g| is_leaf(&p.global(*g).ty))
    }

    pub fn in_mem_local(&self, f: FuncId, v: LocalId) -> bool {
        self.mem_locals.contains_key(&(f, v))
    }

    /// A struct whose memory is also reached through a scalar pointer
    /// (after a cast), or through a pointer to another struct, if any:
    /// such memory has no separate regions.
    pub fn punned(&self) -> Option<&(String, Loc)> {
        self.poisoned
            .values()
            .chain(&self.struct_casts)
            .min_by_key(|(n, l)| (n.clone(), l.line, l.col))
    }

    /// Puts the structs behind each poisoned key of `keys` into that
    /// key's class: the scalar pointer and the struct's fields then reach
    /// one memory (as bytes where widths differ).
    pub fn merge_poisoned(&mut self, p: &Program, keys: &std::collections::BTreeSet<RKey>) {
        for k in keys {
            let Some(cs) = self.poison_comps.get(k).cloned() else {
                continue;
            };
            let RKey::Deref(name) = k else { continue };
            for c in cs {
                let mut ls = Vec::new();
                leaves(p, &Ty::Comp(c), None, &mut ls, 0);
                // The scalar pointer steps by its own width from the
                // struct's start.
                let mut all = ls.clone();
                if let Some(t) = ls
                    .iter()
                    .map(|l| &l.1)
                    .find(|t| format!("*{}", ty_name(p, t)) == *name)
                {
                    all.push((0, t.clone(), k.clone()));
                }
                if !congruent(p.data_model, &all, 0) {
                    self.must_bytes.push(k.clone());
                }
                for (_, _, lk) in ls {
                    let _ = self.union(k.clone(), 0, lk, 0, Loc::NONE, p);
                }
            }
            self.merged.insert(k.clone());
        }
    }

    /// The name of the class `k` belongs to (its own name if no access
    /// joined it with another region).
    pub fn class_name(&mut self, p: &Program, k: &RKey) -> String {
        match self.index.get(k).copied() {
            Some(i) => {
                let r = self.find(i);
                key_name(p, &self.keys[r])
            }
            None => key_name(p, k),
        }
    }

    /// Every key of each class, for `--emit regions` and tests.
    pub fn classes(&mut self, p: &Program) -> BTreeMap<String, Vec<String>> {
        let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for i in 0..self.keys.len() {
            let r = self.find(i);
            m.entry(key_name(p, &self.keys[r]))
                .or_default()
                .push(key_name(p, &self.keys[i]));
        }
        m
    }
}

/// Do values of one width in `ls` (offsets from a common start `base`)
/// always sit on that width's boundaries relative to each other, so that
/// two of them either are the same value or do not overlap?
fn congruent(dm: DataModel, ls: &[(u64, Ty, RKey)], base: u64) -> bool {
    let mut first: BTreeMap<u32, u64> = BTreeMap::new();
    ls.iter().all(|(off, t, _)| {
        let w = u64::from(leaf_width(dm, t).unwrap_or(8) / 8).max(1);
        let r = (off + base) % w;
        *first.entry(w as u32).or_insert(r) == r
    })
}

pub fn key_name(p: &Program, k: &RKey) -> String {
    match k {
        RKey::Deref(n) => n.clone(),
        RKey::Field(c, i) => {
            let d = p.comp(*c);
            let kw = if d.kind == CompKind::Union {
                "union"
            } else {
                "struct"
            };
            format!("{kw} {}.{}", d.name, d.fields[*i as usize].name)
        }
        RKey::Global(g) => p.global(*g).name.clone(),
        RKey::Local(f, v) => {
            let f = p.func(*f);
            format!("{}::{}", f.name, f.local(*v).name)
        }
    }
}
