//! C types as the IR sees them: integer kinds keep their C names (so the C
//! back end prints what the user wrote) and get their widths from the data
//! model; typedefs are resolved away; pthread's opaque types are their own
//! kinds so that passes recognise mutexes and thread ids without layouts.

use std::fmt;

/// Sizes of `long` and pointers (SV-COMP `.i` files are ILP32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DataModel {
    Ilp32,
    #[default]
    Lp64,
}

impl DataModel {
    pub fn pointer_bits(self) -> u32 {
        match self {
            DataModel::Ilp32 => 32,
            DataModel::Lp64 => 64,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IntKind {
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
}

impl IntKind {
    pub fn bits(self, dm: DataModel) -> u32 {
        use IntKind::*;
        match self {
            Char | SChar | UChar => 8,
            Short | UShort => 16,
            Int | UInt => 32,
            Long | ULong => match dm {
                DataModel::Ilp32 => 32,
                DataModel::Lp64 => 64,
            },
            LongLong | ULongLong => 64,
        }
    }

    /// Plain `char` is signed, as on x86 with gcc.
    pub fn signed(self) -> bool {
        use IntKind::*;
        matches!(self, Char | SChar | Short | Int | Long | LongLong)
    }

    /// Integer conversion rank (C11 6.3.1.1).
    pub fn rank(self) -> u32 {
        use IntKind::*;
        match self {
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            LongLong | ULongLong => 5,
        }
    }

    pub fn to_unsigned(self) -> IntKind {
        use IntKind::*;
        match self {
            Char | SChar | UChar => UChar,
            Short | UShort => UShort,
            Int | UInt => UInt,
            Long | ULong => ULong,
            LongLong | ULongLong => ULongLong,
        }
    }

    pub fn c_name(self) -> &'static str {
        use IntKind::*;
        match self {
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
        }
    }

    /// The suffix of `__VERIFIER_nondet_<suffix>`.
    pub fn nondet_suffix(self) -> &'static str {
        use IntKind::*;
        match self {
            Char | SChar => "char",
            UChar => "uchar",
            Short => "short",
            UShort => "ushort",
            Int => "int",
            UInt => "uint",
            Long => "long",
            ULong => "ulong",
            LongLong => "longlong",
            ULongLong => "ulonglong",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FloatKind {
    Float,
    Double,
    LongDouble,
}

impl FloatKind {
    pub fn c_name(self) -> &'static str {
        match self {
            FloatKind::Float => "float",
            FloatKind::Double => "double",
            FloatKind::LongDouble => "long double",
        }
    }
}

/// pthread's opaque types. Their layout is never looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PthreadTy {
    Thread,
    Mutex,
    Cond,
    Attr,
    MutexAttr,
    CondAttr,
    Key,
    Once,
    Rwlock,
    RwlockAttr,
    Sem,
    Spin,
    Barrier,
    BarrierAttr,
}

impl PthreadTy {
    pub fn c_name(self) -> &'static str {
        match self {
            PthreadTy::Thread => "pthread_t",
            PthreadTy::Mutex => "pthread_mutex_t",
            PthreadTy::Cond => "pthread_cond_t",
            PthreadTy::Attr => "pthread_attr_t",
            PthreadTy::MutexAttr => "pthread_mutexattr_t",
            PthreadTy::CondAttr => "pthread_condattr_t",
            PthreadTy::Key => "pthread_key_t",
            PthreadTy::Once => "pthread_once_t",
            PthreadTy::Rwlock => "pthread_rwlock_t",
            PthreadTy::RwlockAttr => "pthread_rwlockattr_t",
            PthreadTy::Sem => "sem_t",
            PthreadTy::Spin => "pthread_spinlock_t",
            PthreadTy::Barrier => "pthread_barrier_t",
            PthreadTy::BarrierAttr => "pthread_barrierattr_t",
        }
    }

    /// Declared by glibc only for POSIX 2001 and later (not strict C11).
    pub fn posix_2001(self) -> bool {
        matches!(
            self,
            PthreadTy::Rwlock
                | PthreadTy::RwlockAttr
                | PthreadTy::Spin
                | PthreadTy::Barrier
                | PthreadTy::BarrierAttr
        )
    }

    pub fn from_typedef(name: &str) -> Option<PthreadTy> {
        Some(match name {
            "pthread_t" => PthreadTy::Thread,
            "pthread_mutex_t" => PthreadTy::Mutex,
            "pthread_cond_t" => PthreadTy::Cond,
            "pthread_attr_t" => PthreadTy::Attr,
            "pthread_mutexattr_t" => PthreadTy::MutexAttr,
            "pthread_condattr_t" => PthreadTy::CondAttr,
            "pthread_key_t" => PthreadTy::Key,
            "pthread_once_t" => PthreadTy::Once,
            "pthread_rwlock_t" => PthreadTy::Rwlock,
            "pthread_rwlockattr_t" => PthreadTy::RwlockAttr,
            "sem_t" => PthreadTy::Sem,
            "pthread_spinlock_t" => PthreadTy::Spin,
            "pthread_barrier_t" => PthreadTy::Barrier,
            "pthread_barrierattr_t" => PthreadTy::BarrierAttr,
            _ => return None,
        })
    }

    /// glibc's sizes, so that `sizeof` means what it meant in the input.
    pub fn size(self, dm: DataModel) -> u64 {
        let lp64 = dm == DataModel::Lp64;
        match self {
            PthreadTy::Thread => dm.pointer_bits() as u64 / 8,
            PthreadTy::Mutex => {
                if lp64 {
                    40
                } else {
                    24
                }
            }
            PthreadTy::Cond => 48,
            PthreadTy::Attr => {
                if lp64 {
                    56
                } else {
                    36
                }
            }
            PthreadTy::MutexAttr | PthreadTy::CondAttr | PthreadTy::Key | PthreadTy::Once => 4,
            PthreadTy::Rwlock => {
                if lp64 {
                    56
                } else {
                    32
                }
            }
            PthreadTy::RwlockAttr => 8,
            PthreadTy::Sem => {
                if lp64 {
                    32
                } else {
                    16
                }
            }
            PthreadTy::Spin | PthreadTy::BarrierAttr => 4,
            PthreadTy::Barrier => {
                if lp64 {
                    32
                } else {
                    20
                }
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CompId(pub u32);

impl fmt::Display for CompId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "c{}", self.0)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnSig {
    pub ret: Ty,
    pub params: Vec<Ty>,
    pub variadic: bool,
    /// `f()` in C: parameters unknown.
    pub unprototyped: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Void,
    Bool,
    Int(IntKind),
    Float(FloatKind),
    Ptr(Box<Ty>),
    /// `None` length: `extern int a[];` or a parameter.
    Array(Box<Ty>, Option<u64>),
    Comp(CompId),
    Func(Box<FnSig>),
    Pthread(PthreadTy),
    /// C11 `_Atomic T`: every access is one atomic step.
    Atomic(Box<Ty>),
}

impl Ty {
    pub const INT: Ty = Ty::Int(IntKind::Int);
    pub const UINT: Ty = Ty::Int(IntKind::UInt);
    pub const CHAR: Ty = Ty::Int(IntKind::Char);
    pub const ULONG: Ty = Ty::Int(IntKind::ULong);
    pub const LONG: Ty = Ty::Int(IntKind::Long);

    pub fn ptr(self) -> Ty {
        Ty::Ptr(Box::new(self))
    }

    /// The type without `_Atomic`.
    pub fn unqual(&self) -> &Ty {
        match self {
            Ty::Atomic(t) => t.unqual(),
            t => t,
        }
    }

    pub fn is_atomic(&self) -> bool {
        matches!(self, Ty::Atomic(_))
    }

    pub fn is_integer(&self) -> bool {
        matches!(self.unqual(), Ty::Int(_) | Ty::Bool)
    }

    pub fn is_arith(&self) -> bool {
        matches!(self.unqual(), Ty::Int(_) | Ty::Bool | Ty::Float(_))
    }

    pub fn is_pointer(&self) -> bool {
        matches!(self.unqual(), Ty::Ptr(_))
    }

    pub fn is_scalar(&self) -> bool {
        self.is_arith()
            || self.is_pointer()
            || matches!(self.unqual(), Ty::Pthread(PthreadTy::Thread))
    }

    pub fn is_void(&self) -> bool {
        matches!(self.unqual(), Ty::Void)
    }

    pub fn pointee(&self) -> Option<&Ty> {
        match self.unqual() {
            Ty::Ptr(t) => Some(t),
            _ => None,
        }
    }

    pub fn int_kind(&self) -> Option<IntKind> {
        match self.unqual() {
            Ty::Int(k) => Some(*k),
            _ => None,
        }
    }

    /// Width in bits of an integer-like scalar (`_Bool` is 8 bits in memory,
    /// 1 bit of value).
    pub fn int_bits(&self, dm: DataModel) -> Option<u32> {
        match self.unqual() {
            Ty::Int(k) => Some(k.bits(dm)),
            Ty::Bool => Some(8),
            Ty::Ptr(_) => Some(dm.pointer_bits()),
            Ty::Pthread(PthreadTy::Thread) => Some(dm.pointer_bits()),
            // glibc: unsigned int and int.
            Ty::Pthread(PthreadTy::Key | PthreadTy::Once) => Some(32),
            _ => None,
        }
    }

    pub fn is_signed(&self) -> bool {
        match self.unqual() {
            Ty::Int(k) => k.signed(),
            Ty::Float(_) => true,
            _ => false,
        }
    }
}

/// `t` with its pthread objects as the sequentializations model them
/// (`passes::retype`): a mutex, condition, key or once control is an
/// `int`, a `pthread_t` an `unsigned long`.
pub fn pthread_retyped(t: &Ty) -> Ty {
    let mut t = t.clone();
    pthread_retype_in(&mut t);
    t
}

/// `pthread_retyped` in place: most types hold no pthread type, and
/// rebuilding each one allocated for every expression of the program.
pub fn pthread_retype_in(t: &mut Ty) {
    match t {
        Ty::Pthread(PthreadTy::Thread) => *t = Ty::ULONG,
        Ty::Pthread(_) => *t = Ty::INT,
        Ty::Ptr(a) | Ty::Array(a, _) | Ty::Atomic(a) => pthread_retype_in(a),
        Ty::Func(s) => {
            pthread_retype_in(&mut s.ret);
            s.params.iter_mut().for_each(pthread_retype_in);
        }
        _ => {}
    }
}

impl super::Program {
    /// Does `t` hold a pthread object by value?
    pub fn holds_pthread(&self, t: &Ty) -> bool {
        match t.unqual() {
            Ty::Pthread(_) => true,
            Ty::Array(a, _) | Ty::Atomic(a) => self.holds_pthread(a),
            Ty::Comp(c) => self
                .comp(*c)
                .fields
                .iter()
                .any(|f| self.holds_pthread(&f.ty)),
            _ => false,
        }
    }
}
