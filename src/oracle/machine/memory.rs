//! Memory: objects of cells, reads and writes that check types and
//! bounds, spans of zero or indeterminate bytes; and how a place and a
//! value are described in traces.

use super::*;

impl<'p> Machine<'p> {
    // ----- memory -----

    pub(super) fn object<'s>(
        &self,
        st: &'s State,
        p: Value,
        loc: Loc,
    ) -> R<(&'s Object, u32, u64)> {
        match p {
            Value::Ptr(0, 0) if self.b.memsafety => {
                self.bad_access("a dereference of a null pointer", loc)
            }
            Value::Ptr(0, _) => self.bad_access("a dereference of a null or integer pointer", loc),
            Value::Ptr(o, off) => match st.objects.get(&o) {
                Some(obj) if !obj.alive && self.b.memsafety => {
                    self.bad_access("an access to freed memory", loc)
                }
                Some(obj) if off >= 0 => Ok((obj, o, off as u64)),
                Some(_) => self.bad_access("an access before the start of an object", loc),
                None => self.bad_access("an access to an object whose lifetime ended", loc),
            },
            _ => unsup("a dereference of a non-pointer", loc),
        }
    }

    /// An access C forbids: a violation under `--property memsafety`,
    /// otherwise a run the oracle does not follow.
    pub(super) fn bad_access<T>(&self, what: &str, loc: Loc) -> R<T> {
        self.memory_error(what, AssertKind::InvalidDeref, loc)
    }

    pub(super) fn memory_error<T>(&self, what: &str, kind: AssertKind, loc: Loc) -> R<T> {
        if !self.b.memsafety {
            return unsup(what, loc);
        }
        if self.trace {
            *self.said.lock().unwrap() = Some(format!("{}: {what}", kind.word().unwrap_or("")));
        }
        Err(Fail(StepEnd::Failed(loc, kind)))
    }

    pub(super) fn read(
        &self,
        st: &mut State,
        p: Value,
        ty: &Ty,
        loc: Loc,
        ch: &mut Chooser,
    ) -> R<RVal> {
        let ty = ty.unqual();
        let size = self.p.size_of(ty).unwrap_or(0);
        if matches!(ty, Ty::Comp(_) | Ty::Array(..)) {
            let cells = self.read_cells(st, p, size, loc)?;
            return Ok(RVal::Agg(cells));
        }
        let (obj, o, off) = self.object(st, p, loc)?;
        if off + size > obj.size {
            return self.bad_access("an access out of the object's bounds", loc);
        }
        let (start, cell) = match obj.cells.range(..=off).next_back() {
            Some((s, c)) if s + c.len > off => (*s, c.clone()),
            _ => return unsup("oracle: a read of a byte that has no cell", loc),
        };
        if start == off
            && cell.len == size
            && let CellV::Val(v) = cell.v
            && same_kind(v, ty)
        {
            if matches!(ty, Ty::Bool) && !matches!(v, Value::Int(0 | 1)) {
                return unsup("a _Bool whose byte is neither 0 nor 1", loc);
            }
            return Ok(RVal::S(self.reinterpret(v, ty)));
        }
        if start + cell.len < off + size || matches!(cell.v, CellV::Val(_)) {
            // Type punning: the value the bytes spell in this type.
            let bytes = self.bytes_at(obj, off, size, loc)?;
            let Some(bytes) = bytes.into_iter().collect::<Option<Vec<u8>>>() else {
                let bits = self.bits_at(obj, off, size, loc)?;
                return self.read_partly(st, p, ty, bits, loc, ch);
            };
            return Ok(RVal::S(self.value_from_bytes(&bytes, ty, loc)?));
        }
        match cell.v {
            CellV::Zero => Ok(RVal::S(match ty {
                Ty::Ptr(_) => Value::Ptr(0, 0),
                Ty::Float(_) => Value::Float(0f64.to_bits()),
                _ => Value::Int(0),
            })),
            CellV::Undef => {
                // Indeterminate: pick a value and remember it.
                let v = self.nondet(ty, ch, loc)?;
                self.write(st, p, ty, v.clone(), loc)?;
                let _ = o;
                Ok(v)
            }
            CellV::Val(_) => unreachable!("stored values are read above"),
            CellV::Bits(v, m) => self.read_partly(st, p, ty, vec![(v, m)], loc, ch),
        }
    }

    /// A read of bytes some of whose bits are indeterminate (`bits`: per
    /// byte its value and the mask of its determinate bits, the neighbours
    /// of a bit-field written alone, say): those bits take a drawn value,
    /// and keep it, as an indeterminate scalar does.
    fn read_partly(
        &self,
        st: &mut State,
        p: Value,
        ty: &Ty,
        bits: Vec<(u8, u8)>,
        loc: Loc,
        ch: &mut Chooser,
    ) -> R<RVal> {
        let fill_ty = match bits.len() {
            1 => Ty::Int(IntKind::UChar),
            2 => Ty::Int(IntKind::UShort),
            4 => Ty::Int(IntKind::UInt),
            8 => Ty::Int(IntKind::ULongLong),
            _ => return unsup("a read of partly indeterminate bytes", loc),
        };
        let RVal::S(Value::Int(fill)) = self.nondet(&fill_ty, ch, loc)? else {
            return unsup("a read of partly indeterminate bytes", loc);
        };
        let fill = fill.to_le_bytes();
        let bytes: Vec<u8> = bits
            .iter()
            .zip(fill)
            .map(|(&(v, m), f)| (v & m) | (f & !m))
            .collect();
        let v = RVal::S(self.value_from_bytes(&bytes, ty, loc)?);
        self.write(st, p, ty, v.clone(), loc)?;
        Ok(v)
    }

    /// The bits of `[off, off+n)` of `obj`: per byte its value and the
    /// mask of its determinate bits.
    fn bits_at(&self, obj: &Object, off: u64, n: u64, loc: Loc) -> R<Vec<(u8, u8)>> {
        let mut out = Vec::with_capacity(n as usize);
        for (s, cs, ce, c) in overlapping(obj, off, n) {
            if cs != off + out.len() as u64 {
                return unsup("oracle: a read of a byte that has no cell", loc);
            }
            match c.v {
                CellV::Zero => out.extend((cs..ce).map(|_| (0, 0xff))),
                CellV::Undef => out.extend((cs..ce).map(|_| (0, 0))),
                CellV::Bits(v, m) => out.push((v, m)),
                CellV::Val(v) => {
                    let b = self.value_bytes(v, c.len, loc)?;
                    out.extend(
                        b[(cs - s) as usize..(ce - s) as usize]
                            .iter()
                            .map(|x| (*x, 0xff)),
                    );
                }
            }
        }
        if out.len() as u64 != n {
            return unsup("oracle: a read of a byte that has no cell", loc);
        }
        Ok(out)
    }

    /// The bytes a bit-field spans, from its first byte `p`.
    fn bit_span(&self, st: &State, p: Value, bf: &BitField, loc: Loc) -> R<(u64, Vec<(u8, u8)>)> {
        let n = (bf.shift + bf.width).div_ceil(8) as u64;
        let (obj, _, off) = self.object(st, p, loc)?;
        if off + n > obj.size {
            return self.bad_access("an access out of the object's bounds", loc);
        }
        Ok((n, self.bits_at(obj, off, n, loc)?))
    }

    /// A field of `width` bits as a value of its declared type `ty`: a
    /// signed type's top bit is its sign (gcc's reading of plain `int`).
    fn bits_value(raw: u128, width: u32, ty: &Ty) -> i128 {
        let raw = raw as i128;
        if ty.is_signed() && !matches!(ty.unqual(), Ty::Bool) && raw >> (width - 1) & 1 == 1 {
            raw - (1i128 << width)
        } else {
            raw
        }
    }

    /// Reads bit-field `bf` whose first byte is at `p`. An indeterminate
    /// field is given a value and keeps it, as an indeterminate scalar is.
    pub(super) fn read_bits(
        &self,
        st: &mut State,
        p: Value,
        bf: &BitField,
        ty: &Ty,
        loc: Loc,
        ch: &mut Chooser,
    ) -> R<i128> {
        let (_, bytes) = self.bit_span(st, p, bf, loc)?;
        let (val, mask) = bytes.iter().rev().fold((0u128, 0u128), |(v, m), (b, k)| {
            ((v << 8) | *b as u128, (m << 8) | *k as u128)
        });
        let field = ((1u128 << bf.width) - 1) << bf.shift;
        if mask & field != field {
            let v = self.nondet(ty, ch, loc)?.scalar(loc)?;
            return self.write_bits(st, p, bf, ty, v, loc);
        }
        Ok(Self::bits_value((val & field) >> bf.shift, bf.width, ty))
    }

    /// Writes `v` (converted to the field's type) into bit-field `bf`
    /// whose first byte is at `p`, cut to its width as gcc does; the
    /// other bits of its bytes keep their values. Returns the value the
    /// field then holds.
    pub(super) fn write_bits(
        &self,
        st: &mut State,
        p: Value,
        bf: &BitField,
        ty: &Ty,
        v: Value,
        loc: Loc,
    ) -> R<i128> {
        let Value::Int(i) = v else {
            return unsup("a bit-field given a value that is not an integer", loc);
        };
        let i = if matches!(ty.unqual(), Ty::Bool) {
            (i != 0) as i128
        } else {
            i
        };
        let (n, bytes) = self.bit_span(st, p, bf, loc)?;
        let field = ((1u128 << bf.width) - 1) << bf.shift;
        let raw = (i as u128) & ((1u128 << bf.width) - 1);
        let cells = bytes
            .iter()
            .enumerate()
            .map(|(k, (b, m))| {
                let f = (field >> (8 * k)) as u8;
                let b = (b & !f) | ((raw << bf.shift) >> (8 * k)) as u8;
                let m = m | f;
                let v = if m == 0xff {
                    CellV::Val(Value::Int(b as i128))
                } else {
                    CellV::Bits(b & m, m)
                };
                (k as u64, Cell { len: 1, v })
            })
            .collect();
        self.write_cells(st, p, n, cells, loc)?;
        Ok(Self::bits_value(raw, bf.width, ty))
    }

    /// The bytes of `[off, off+n)` of `obj`, least significant first
    /// within each stored value; `None` for an indeterminate byte.
    pub(super) fn bytes_at(&self, obj: &Object, off: u64, n: u64, loc: Loc) -> R<Vec<Option<u8>>> {
        let mut out = Vec::with_capacity(n as usize);
        for (s, cs, ce, c) in overlapping(obj, off, n) {
            if cs != off + out.len() as u64 {
                return unsup("oracle: a read of a byte that has no cell", loc);
            }
            match c.v {
                CellV::Zero => out.extend((cs..ce).map(|_| Some(0))),
                CellV::Undef => out.extend((cs..ce).map(|_| None)),
                CellV::Bits(v, m) => out.push((m == 0xff).then_some(v)),
                CellV::Val(v) => {
                    let b = self.value_bytes(v, c.len, loc)?;
                    out.extend(
                        b[(cs - s) as usize..(ce - s) as usize]
                            .iter()
                            .map(|x| Some(*x)),
                    );
                }
            }
        }
        if out.len() as u64 != n {
            return unsup("oracle: a read of a byte that has no cell", loc);
        }
        Ok(out)
    }

    /// The bytes of a stored value of `len` bytes, least significant
    /// first (the x86 order; CBMC and the SMT route use it too). A NaN's
    /// bits are left alone: C does not fix which NaN an operation makes.
    pub(super) fn value_bytes(&self, v: Value, len: u64, loc: Loc) -> R<Vec<u8>> {
        let bits: i128 = match v {
            Value::Int(i) => i,
            Value::Ptr(o, off) => self.addr_of(o, off, loc)?,
            Value::Float(b) if f64::from_bits(b).is_nan() => {
                return unsup("the bytes of a NaN", loc);
            }
            Value::Float(b) if len == 8 => b as i128,
            Value::Float(b) if len == 4 => (f64::from_bits(b) as f32).to_bits() as i128,
            _ => return unsup("the bytes of this value (type punning)", loc),
        };
        if len > 16 {
            return unsup("the bytes of a value wider than 128 bits", loc);
        }
        Ok((0..len).map(|k| (bits >> (8 * k)) as u8).collect())
    }

    /// The value of type `ty` that `b` (least significant first) spells.
    pub(super) fn value_from_bytes(&self, b: &[u8], ty: &Ty, loc: Loc) -> R<Value> {
        let u = b.iter().rev().fold(0u128, |a, x| (a << 8) | *x as u128);
        Ok(match ty.unqual() {
            Ty::Float(FloatKind::Float) if b.len() == 4 => {
                let f = f32::from_bits(u as u32);
                if f.is_nan() {
                    return unsup("a NaN made of bytes", loc);
                }
                Value::Float((f as f64).to_bits())
            }
            Ty::Float(FloatKind::Double) if b.len() == 8 => {
                if f64::from_bits(u as u64).is_nan() {
                    return unsup("a NaN made of bytes", loc);
                }
                Value::Float(u as u64)
            }
            Ty::Ptr(_) => self.ptr_of(u as i128),
            Ty::Bool if u > 1 => {
                return unsup("a _Bool whose byte is neither 0 nor 1", loc);
            }
            Ty::Bool | Ty::Int(_) | Ty::Pthread(PthreadTy::Thread) => {
                Value::Int(self.wrap(u as i128, ty))
            }
            _ => return unsup("a value of this type made of bytes", loc),
        })
    }

    /// The cells of `[from, to)` of a stored value at `s`: its own bytes.
    fn byte_cells(
        &self,
        s: u64,
        v: Value,
        len: u64,
        from: u64,
        to: u64,
        loc: Loc,
    ) -> R<Vec<(u64, Cell)>> {
        let b = self.value_bytes(v, len, loc)?;
        Ok((from..to)
            .map(|a| {
                (
                    a,
                    Cell {
                        len: 1,
                        v: CellV::Val(Value::Int(b[(a - s) as usize] as i128)),
                    },
                )
            })
            .collect())
    }

    pub(super) fn reinterpret(&self, v: Value, ty: &Ty) -> Value {
        match (v, ty) {
            (Value::Int(i), Ty::Int(_) | Ty::Bool | Ty::Pthread(_)) => Value::Int(self.wrap(i, ty)),
            (Value::Int(i), Ty::Ptr(_)) => self.ptr_of(i),
            (Value::Ptr(o, off), Ty::Int(_)) => match self.addr_of(o, off, Loc::NONE) {
                Ok(a) => Value::Int(self.wrap(a, ty)),
                Err(_) => v,
            },
            _ => v,
        }
    }

    pub(super) fn write(&self, st: &mut State, p: Value, ty: &Ty, v: RVal, loc: Loc) -> R<()> {
        let ty = ty.unqual();
        let size = self.p.size_of(ty).unwrap_or(0);
        match v {
            RVal::Agg(cells) => self.write_cells(st, p, size, cells, loc),
            RVal::S(x) => {
                let x = match x {
                    Value::Int(i) if matches!(ty, Ty::Int(_) | Ty::Bool) => {
                        Value::Int(self.wrap(i, ty))
                    }
                    _ => x,
                };
                self.write_cells(
                    st,
                    p,
                    size,
                    vec![(
                        0,
                        Cell {
                            len: size,
                            v: CellV::Val(x),
                        },
                    )],
                    loc,
                )
            }
        }
    }

    pub(super) fn fill(&self, st: &mut State, p: Value, n: u64, v: CellV, loc: Loc) -> R<()> {
        self.write_cells(st, p, n, vec![(0, Cell { len: n, v })], loc)
    }

    /// The cells of `[p, p+n)`, offsets relative to `p`; spans are cut at
    /// the ends, scalars must not straddle them.
    pub(super) fn read_cells(&self, st: &State, p: Value, n: u64, loc: Loc) -> R<Vec<(u64, Cell)>> {
        let (obj, _, off) = self.object(st, p, loc)?;
        if off + n > obj.size {
            return self.bad_access("a copy out of the object's bounds", loc);
        }
        let mut out = Vec::new();
        for (s, cs, ce, c) in overlapping(obj, off, n) {
            if (cs, ce) != (s, s + c.len)
                && let CellV::Val(v) = c.v
            {
                // A copy that cuts a stored value copies its bytes.
                for (a, b) in self.byte_cells(s, v, c.len, cs, ce, loc)? {
                    out.push((a - off, b));
                }
                continue;
            }
            out.push((
                cs - off,
                Cell {
                    len: ce - cs,
                    v: c.v,
                },
            ));
        }
        Ok(out)
    }

    pub(super) fn write_cells(
        &self,
        st: &mut State,
        p: Value,
        n: u64,
        cells: Vec<(u64, Cell)>,
        loc: Loc,
    ) -> R<()> {
        let (obj, o, off) = self.object(st, p, loc)?;
        if off + n > obj.size {
            return self.bad_access("a write out of the object's bounds", loc);
        }
        if n == 0 {
            return Ok(());
        }
        // Cut existing cells at the ends of the range.
        let end = off + n;
        let over: Vec<(u64, Cell)> = overlapping(obj, off, n)
            .map(|(s, _, _, c)| (s, c.clone()))
            .collect();
        // What is left of them outside the range; a stored value that is
        // partly overwritten leaves its other bytes (type punning).
        let mut rest = Vec::new();
        for (s, c) in &over {
            let e = s + c.len;
            for (from, to) in [(*s, off), (end, e)] {
                if from >= to {
                    continue;
                }
                match c.v {
                    CellV::Val(v) => rest.extend(self.byte_cells(*s, v, c.len, from, to, loc)?),
                    v => rest.push((from, Cell { len: to - from, v })),
                }
            }
        }
        let obj = st.objects.get_mut(&o).unwrap().make_mut();
        for (s, _) in &over {
            obj.cells.remove(s);
        }
        obj.cells.extend(rest);
        for (rel, c) in cells {
            obj.cells.insert(off + rel, c);
        }
        Ok(())
    }

    // ----- descriptions for traces -----

    pub fn describe(&self, st: &State, p: Value, ty: &Ty) -> String {
        let Value::Ptr(o, off) = p else {
            return "?".into();
        };
        let Some(obj) = st.objects.get(&o) else {
            return format!("<dead object>+{off}");
        };
        let (base, bty) = match obj.kind {
            ObjKind::Global(g) | ObjKind::Tls(g, _) => (
                self.p.global(g).name.clone(),
                Some(self.p.global(g).ty.clone()),
            ),
            ObjKind::Local(f, l) => {
                let func = self.p.func(f);
                (func.local(l).name.clone(), Some(func.local(l).ty.clone()))
            }
            ObjKind::Heap(l) => (format!("malloc@{}", l.line), None),
            ObjKind::Str => ("\"...\"".into(), None),
        };
        match bty {
            Some(bt) => self.path(base, &bt, off as u64, ty),
            None if off == 0 => format!("*{base}"),
            None => format!("{base}[+{off}]"),
        }
    }

    /// A bit-field's place for traces, from its first byte `p`.
    pub(super) fn describe_bits(&self, st: &State, p: Value, b: &Bits) -> String {
        let name = &self.p.comp(b.comp).fields[b.field as usize].name;
        let Value::Ptr(o, off) = p else {
            return "?".into();
        };
        let base = Value::Ptr(o, off - b.at.byte as i64);
        format!("{}.{name}", self.describe(st, base, &Ty::Comp(b.comp)))
    }

    pub(super) fn path(&self, mut s: String, t: &Ty, off: u64, want: &Ty) -> String {
        if off == 0
            && (t.unqual() == want.unqual() || self.p.size_of(t) == self.p.size_of(want))
            && (!matches!(t.unqual(), Ty::Comp(_) | Ty::Array(..)) || t.unqual() == want.unqual())
        {
            return s;
        }
        match t.unqual() {
            Ty::Array(e, _) => {
                let es = self.p.size_of(e).unwrap_or(1).max(1);
                s.push_str(&format!("[{}]", off / es));
                self.path(s, e, off % es, want)
            }
            Ty::Comp(c) => {
                let def = self.p.comp(*c);
                if let Some((offs, _, _)) = self.p.comp_layout(*c) {
                    for (i, f) in def.fields.iter().enumerate().rev() {
                        if offs[i] <= off {
                            s.push('.');
                            s.push_str(&f.name);
                            return self.path(s, &f.ty, off - offs[i], want);
                        }
                    }
                }
                format!("{s}+{off}")
            }
            _ if off == 0 => s,
            _ => format!("{s}+{off}"),
        }
    }

    pub fn show(&self, st: &State, v: &RVal) -> String {
        match v {
            RVal::S(Value::Int(i)) => i.to_string(),
            RVal::S(Value::Float(b)) => format!("{}", f64::from_bits(*b)),
            RVal::S(Value::Ptr(0, 0)) => "NULL".into(),
            RVal::S(Value::Ptr(0, off)) => format!("(void*){off}"),
            RVal::S(p @ Value::Ptr(..)) => format!("&{}", self.describe(st, *p, &Ty::Void)),
            RVal::S(Value::Func(f)) => format!("&{}", self.p.functions[*f as usize].name),
            RVal::Agg(_) => "{...}".into(),
        }
    }

    /// Makes sure thread `t` has its own copy of each thread-local global.
    pub(super) fn init_tls(&self, st: &mut State, t: u32) -> R<()> {
        for (i, g) in self.p.globals.iter().enumerate() {
            if !g.thread_local || st.threads[t as usize].tls.contains_key(&(i as u32)) {
                continue;
            }
            let size = self.p.size_of(&g.ty).unwrap_or(0);
            let id = self.new_obj(
                st,
                t,
                Object {
                    kind: ObjKind::Tls(GlobalId(i as u32), t),
                    size,
                    shared: false,
                    alive: true,
                    cells: span(size, CellV::Zero),
                },
            );
            st.threads[t as usize].make_mut().tls.insert(i as u32, id);
            if let Some(init) = &g.init {
                let mut ch = Chooser::new(&[]);
                self.store_init(st, t, Value::Ptr(id, 0), &g.ty, init, g.loc, &mut ch)?;
            }
        }
        Ok(())
    }
}

/// The cells of `obj` that overlap `[off, off+n)`: each one's start, the
/// part of it inside the range, and the cell.
fn overlapping(obj: &Object, off: u64, n: u64) -> impl Iterator<Item = (u64, u64, u64, &Cell)> {
    let first = obj
        .cells
        .range(..=off)
        .next_back()
        .map(|(s, _)| *s)
        .unwrap_or(0);
    obj.cells
        .range(first..off + n)
        .filter(move |(s, c)| **s + c.len > off)
        .map(move |(s, c)| (*s, (*s).max(off), (*s + c.len).min(off + n), c))
}

/// Can a stored value be read whole as `ty`? A float's bits read as an
/// integer (or the other way) go through its bytes instead.
fn same_kind(v: Value, ty: &Ty) -> bool {
    matches!(v, Value::Float(_)) == matches!(ty, Ty::Float(_))
}
