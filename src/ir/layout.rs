//! Sizes, alignments and field offsets, as gcc lays objects out on x86 for
//! the chosen data model. Used for `sizeof`, `offsetof` and (later) the
//! memory model.

use super::{CompKind, DataModel, Program, PthreadTy, Ty};

impl Program {
    /// `sizeof(t)`; `None` for incomplete types and functions.
    pub fn size_of(&self, t: &Ty) -> Option<u64> {
        self.size_align(t).map(|(s, _)| s)
    }

    pub fn align_of(&self, t: &Ty) -> Option<u64> {
        self.size_align(t).map(|(_, a)| a)
    }

    /// GNU C's `__alignof__(t)`: the alignment gcc prefers for an object
    /// of type `t`, which on i386 is 8 for `double` and `long long` (and
    /// arrays of them) where `_Alignof` and struct members use 4.
    pub fn preferred_align_of(&self, t: &Ty) -> Option<u64> {
        use super::{FloatKind, IntKind};
        match t {
            Ty::Array(e, _) => self.preferred_align_of(e),
            Ty::Int(IntKind::LongLong | IntKind::ULongLong) | Ty::Float(FloatKind::Double)
                if self.data_model == DataModel::Ilp32 =>
            {
                Some(8)
            }
            _ => self.align_of(t),
        }
    }

    fn size_align(&self, t: &Ty) -> Option<(u64, u64)> {
        let dm = self.data_model;
        Some(match t {
            Ty::Void => (1, 1),
            Ty::Bool => (1, 1),
            Ty::Int(k) => {
                let s = (k.bits(dm) / 8) as u64;
                // long long is 4-aligned inside structs on i386.
                let a = if dm == DataModel::Ilp32 { s.min(4) } else { s };
                (s, a)
            }
            Ty::Float(k) => match (k, dm) {
                (super::FloatKind::Float, _) => (4, 4),
                (super::FloatKind::Double, DataModel::Ilp32) => (8, 4),
                (super::FloatKind::Double, DataModel::Lp64) => (8, 8),
                (super::FloatKind::LongDouble, DataModel::Ilp32) => (12, 4),
                (super::FloatKind::LongDouble, DataModel::Lp64) => (16, 16),
            },
            Ty::Ptr(_) => {
                let s = dm.pointer_bits() as u64 / 8;
                (s, s)
            }
            Ty::Array(e, n) => {
                let (s, a) = self.size_align(e)?;
                (s * (*n)?, a)
            }
            Ty::Comp(c) => {
                let def = self.comp(*c);
                if !def.complete {
                    return None;
                }
                let (offs, size, align) = self.comp_layout(*c)?;
                let _ = offs;
                (size, align)
            }
            Ty::Func(_) => return None,
            Ty::Pthread(p) => {
                let s = p.size(dm);
                let a = match p {
                    PthreadTy::Thread => s,
                    PthreadTy::MutexAttr
                    | PthreadTy::CondAttr
                    | PthreadTy::Key
                    | PthreadTy::Once
                    | PthreadTy::Spin
                    | PthreadTy::BarrierAttr => 4,
                    PthreadTy::RwlockAttr => 4,
                    _ => dm.pointer_bits() as u64 / 8,
                };
                (s, a)
            }
            Ty::Atomic(t) => {
                // gcc aligns an atomic type of a power-of-two size up to
                // 16 to its size (`_Atomic long long` on i386: 8, not 4).
                let (s, a) = self.size_align(t)?;
                (
                    s,
                    if matches!(s, 1 | 2 | 4 | 8 | 16) {
                        a.max(s)
                    } else {
                        a
                    },
                )
            }
        })
    }

    /// Adds the composites type `t` reaches (members first) to `order`,
    /// skipping those already `seen`.
    pub fn visit_comps(&self, t: &Ty, seen: &mut [bool], order: &mut Vec<super::CompId>) {
        match t {
            Ty::Ptr(t) | Ty::Array(t, _) | Ty::Atomic(t) => self.visit_comps(t, seen, order),
            Ty::Func(s) => {
                self.visit_comps(&s.ret, seen, order);
                s.params
                    .iter()
                    .for_each(|x| self.visit_comps(x, seen, order));
            }
            Ty::Comp(c) if !seen[c.0 as usize] => {
                seen[c.0 as usize] = true;
                for f in &self.comp(*c).fields {
                    self.visit_comps(&f.ty, seen, order);
                }
                order.push(*c);
            }
            _ => {}
        }
    }

    /// The composites a function's signature, locals and expressions
    /// reach, in first-use order, skipping those already `seen`.
    pub fn comps_of(&self, f: &super::Function, seen: &mut [bool], order: &mut Vec<super::CompId>) {
        self.visit_comps(&f.sig.ret, seen, order);
        f.sig
            .params
            .iter()
            .for_each(|x| self.visit_comps(x, seen, order));
        for l in &f.locals {
            self.visit_comps(&l.ty, seen, order);
        }
        if let Some(b) = &f.body {
            b.walk(&mut |s| {
                s.each_expr(&mut |e| e.walk(&mut |x| self.visit_comps(&x.ty, seen, order)));
            });
        }
    }

    /// Byte offsets of the fields, total size and alignment. Bit-fields are
    /// packed into units of their declared type, as gcc does. A packed
    /// type or field has alignment 1 (and a packed bit-field may straddle
    /// units); `aligned(N)` raises a field's or the type's alignment.
    pub fn comp_layout(&self, c: super::CompId) -> Option<(Vec<u64>, u64, u64)> {
        let (bits, size, align) = self.comp_bit_layout(c)?;
        Some((bits.into_iter().map(|b| b / 8).collect(), size, align))
    }

    /// Where bit-field `i` of `c` lies (`None` for a plain field).
    pub fn bit_field(&self, c: super::CompId, i: u32) -> Option<BitField> {
        let def = self.comp(c);
        let width = def.fields.get(i as usize)?.bit_width?;
        let (bits, _, _) = self.comp_bit_layout(c)?;
        let at = bits[i as usize];
        // The memory location: the run of adjacent bit-fields of nonzero
        // width around `i` (C11 3.14), in whole bytes.
        let in_run = |k: usize| def.fields[k].bit_width.is_some_and(|w| w > 0);
        let first = (0..=i as usize).rev().take_while(|&k| in_run(k)).last()?;
        let last = (i as usize..def.fields.len())
            .take_while(|&k| in_run(k))
            .last()?;
        let run_end = bits[last] + def.fields[last].bit_width? as u64;
        let run_start = match def.kind {
            CompKind::Union => at / 8,
            CompKind::Struct => bits[first] / 8,
        };
        let run_end = match def.kind {
            CompKind::Union => (at + width as u64).div_ceil(8),
            CompKind::Struct => run_end.div_ceil(8),
        };
        Some(BitField {
            byte: at / 8,
            shift: (at % 8) as u32,
            width,
            location: (run_start, run_end - run_start),
        })
    }

    /// Whether every route lays out `c`'s bit-fields alike. CBMC packs
    /// bit-fields one after another, where gcc (the oracle, `sizeof`)
    /// starts a field that would straddle a unit of its type in the next
    /// one: the C output names those gaps (`backend::c`). An unnamed or
    /// zero-width bit-field, or a `packed` one in a struct that is not,
    /// CBMC places otherwise again: refused.
    pub fn bit_fields_exact(&self, c: super::CompId) -> Result<(), String> {
        let def = self.comp(c);
        let name = &def.name;
        for f in &def.fields {
            if f.bit_width.is_some() && f.name.is_empty() {
                return Err(format!(
                    "an unnamed or zero-width bit-field (in '{name}'; CBMC lays it out otherwise than gcc)"
                ));
            }
            // gcc computes with such a field in a type of its own width
            // (`u + 1` wraps at 2^40 for a 40-bit field), CBMC and the
            // oracle in its declared type.
            if f.bit_width.is_some_and(|w| {
                w > 32 && self.size_of(&f.ty).is_some_and(|s| w as u64 * 8 < s * 64)
            }) {
                return Err(format!(
                    "bit-field '{}' of '{name}' wider than int and narrower than its type (gcc computes in a {}-bit type)",
                    f.name,
                    f.bit_width.unwrap_or(0)
                ));
            }
            if f.bit_width.is_some() && f.packed && !def.packed {
                return Err(format!(
                    "a packed bit-field in '{name}', a struct that is not packed"
                ));
            }
        }
        Ok(())
    }

    /// The gaps gcc leaves before bit-fields of `c` (a struct): for each
    /// field, the bits between the end of the field before and its start.
    pub fn bit_field_gaps(&self, c: super::CompId) -> Vec<(u64, u64)> {
        let def = self.comp(c);
        let Some((bits, _, _)) = self.comp_bit_layout(c) else {
            return vec![];
        };
        let mut end = 0u64;
        let mut out = Vec::with_capacity(def.fields.len());
        for (i, f) in def.fields.iter().enumerate() {
            let width = match f.bit_width {
                Some(w) => w as u64,
                None => self.size_of(&f.ty).unwrap_or(0) * 8,
            };
            let gap = if f.bit_width.is_some() && bits[i] > end {
                (end, bits[i])
            } else {
                (0, 0)
            };
            out.push(gap);
            end = bits[i] + width;
        }
        out
    }

    /// `comp_layout` with offsets in bits (a bit-field's own first bit).
    fn comp_bit_layout(&self, c: super::CompId) -> Option<(Vec<u64>, u64, u64)> {
        let def = self.comp(c);
        let mut offs = Vec::with_capacity(def.fields.len());
        let mut size = 0u64;
        let mut align = 1u64;
        let mut bit_pos = 0u64; // bit offset within the struct, for bit-fields
        for f in &def.fields {
            let (fs, fa) = self.size_align(&f.ty).unwrap_or((0, 1));
            let fa = if def.packed || f.packed { 1 } else { fa }.max(f.align);
            align = align.max(fa);
            match def.kind {
                CompKind::Union => {
                    offs.push(0);
                    size = size.max(fs);
                }
                CompKind::Struct => {
                    if let Some(w) = f.bit_width {
                        let unit = fs * 8;
                        if w == 0 {
                            bit_pos = bit_pos.div_ceil(unit.max(1)) * unit;
                            offs.push(bit_pos);
                            continue;
                        }
                        if unit > 0 && !def.packed && (bit_pos % unit) + w as u64 > unit {
                            bit_pos = bit_pos.div_ceil(unit) * unit;
                        }
                        offs.push(bit_pos);
                        bit_pos += w as u64;
                        size = bit_pos.div_ceil(8);
                    } else {
                        let start = size.max(bit_pos.div_ceil(8)).div_ceil(fa) * fa;
                        offs.push(start * 8);
                        size = start + fs;
                        bit_pos = size * 8;
                    }
                }
            }
        }
        let align = align.max(def.align);
        let size = size.div_ceil(align) * align;
        Some((offs, size, align))
    }
}

/// A bit-field's place: `width` bits from bit `shift` of byte `byte`
/// (least significant bit first, as gcc lays them out on x86), and its
/// memory location `(start, len)` in bytes, which two threads touching
/// any bit-field of it share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BitField {
    pub byte: u64,
    pub shift: u32,
    pub width: u32,
    pub location: (u64, u64),
}

impl BitField {
    /// From the field's first byte to its memory location's.
    pub fn location_shift(&self) -> i64 {
        self.location.0 as i64 - self.byte as i64
    }
}
