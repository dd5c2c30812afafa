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
            Ty::Atomic(t) => self.size_align(t)?,
        })
    }

    /// Byte offsets of the fields, total size and alignment. Bit-fields are
    /// packed into units of their declared type, as gcc does. A packed
    /// type or field has alignment 1 (and a packed bit-field may straddle
    /// units); `aligned(N)` raises a field's or the type's alignment.
    pub fn comp_layout(&self, c: super::CompId) -> Option<(Vec<u64>, u64, u64)> {
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
                            offs.push(bit_pos / 8);
                            continue;
                        }
                        if unit > 0 && !def.packed && (bit_pos % unit) + w as u64 > unit {
                            bit_pos = bit_pos.div_ceil(unit) * unit;
                        }
                        offs.push(bit_pos / 8);
                        bit_pos += w as u64;
                        size = bit_pos.div_ceil(8);
                    } else {
                        let start = size.max(bit_pos.div_ceil(8)).div_ceil(fa) * fa;
                        offs.push(start);
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
