//! seqc's IR: a typed, C-shaped statement language. Every node carries a
//! `Loc`; nodes made by seqc rather than read from the input say so
//! (`Loc::generated`). Expressions are side-effect free: calls, assignments
//! and the concurrency operations are statements, so that a pass can count
//! the visible steps of a statement by looking at it alone.
//!
//! Architecture invariant: nothing here knows about lang-c, and nothing here
//! does I/O.
//!
//! Over 800 lines on purpose: this file is the language (its data types and
//! their one-line accessors), read whole by whoever writes a pass; the
//! analyses over it live in the sibling files.

pub mod access;
pub mod build;
pub mod layout;
pub use layout::BitField;
pub mod loops;
pub mod prefix;
pub mod readonly;
pub mod regions;
pub mod regions_report;
pub mod sites;
pub mod trace;
pub mod types;
pub mod verify;

/// The marker that replaces `$` inside identifiers: the front end writes
/// it, the C printer turns it back into `$`.
pub const DOLLAR: &str = "__dollar__";

/// A path as the body of a C string literal, the way line markers and
/// `#line` hold it (the front end writes it for gcc, the C printer for the
/// output): C's escapes for `\\`, `"`, a newline and `?` (trigraphs), octal
/// for other control characters; an ordinary path is unchanged.
pub fn path_literal(p: &str) -> String {
    let mut s = String::with_capacity(p.len());
    for c in p.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '"' => s.push_str("\\\""),
            '\n' => s.push_str("\\n"),
            '?' => s.push_str("\\?"),
            c if c.is_ascii_control() => s.push_str(&format!("\\{:03o}", c as u8)),
            c => s.push(c),
        }
    }
    s
}

pub use types::{
    CompId, DataModel, FloatKind, FnSig, IntKind, PthreadTy, Ty, pthread_retype_in, pthread_retyped,
};

use std::fmt;

macro_rules! entity {
    ($name:ident, $prefix:literal) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

entity!(FileId, "file");
entity!(GlobalId, "g");
entity!(FuncId, "f");
entity!(LocalId, "v");
entity!(LabelId, "L");

/// A source position: file, line and column of the user's input (after
/// mapping back through the preprocessor's line markers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
    /// Made by seqc (for the source construct at `line:col`).
    pub generated: bool,
}

impl Loc {
    pub const NONE: Loc = Loc {
        file: FileId(0),
        line: 0,
        col: 0,
        generated: true,
    };

    pub fn generated(self) -> Loc {
        Loc {
            generated: true,
            ..self
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CompKind {
    Struct,
    Union,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: String,
    pub ty: Ty,
    pub bit_width: Option<u32>,
    /// `__attribute__((packed))` / `aligned(N)` on the field (0: none).
    pub packed: bool,
    pub align: u64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompDef {
    pub kind: CompKind,
    /// The tag, or a name made up from the first typedef / position.
    pub name: String,
    pub fields: Vec<Field>,
    pub complete: bool,
    pub loc: Loc,
    /// `__attribute__((packed))` / `aligned(N)` on the type (0: none).
    pub packed: bool,
    pub align: u64,
}

/// Object initialisers, sparse: missing elements and fields are zero.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Expr(Expr),
    /// `(index, init)` pairs in increasing index order.
    Array(Vec<(u64, Init)>),
    /// `(field index, init)` pairs in field order (one for a union).
    Comp(Vec<(u32, Init)>),
    /// A string literal filling a char array.
    Str(Vec<u8>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    /// Defined here, visible outside.
    Public,
    /// `static`.
    Static,
    /// `extern`: declared, defined elsewhere.
    Extern,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub ty: Ty,
    pub init: Option<Init>,
    pub storage: Storage,
    /// `_Thread_local` / `__thread`: one copy per thread.
    pub thread_local: bool,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    pub name: String,
    pub ty: Ty,
    pub loc: Loc,
    /// Made by seqc (a temporary).
    pub temp: bool,
}

/// Functions with a fixed meaning for seqc. Their calls are `Op`s.
#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub sig: FnSig,
    pub params: Vec<LocalId>,
    pub locals: Vec<Local>,
    /// `None`: declared only (an external function).
    pub body: Option<Block>,
    pub is_static: bool,
    /// `__VERIFIER_atomic_*`: the whole body is one atomic step.
    pub atomic: bool,
    pub loc: Loc,
    pub labels: Vec<String>,
}

impl Function {
    pub fn local(&self, v: LocalId) -> &Local {
        &self.locals[v.index()]
    }
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Block(pub Vec<Stmt>);

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub loc: Loc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseLabel {
    Value(i128),
    Range(i128, i128),
    Default,
}

/// Why an assertion exists: the user's words, kept for traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssertKind {
    /// `assert(e)`, `__VERIFIER_assert(e)`.
    Assert,
    /// `reach_error()`, `__VERIFIER_error()`, `__assert_fail`, `ERROR:`.
    ReachError,
    /// Made by a sequentialization under `--property deadlock`: every
    /// unfinished thread waits on an operation that cannot go on.
    Deadlock,
    /// Made by the thread model under `--property locks` or `locks-exit`:
    /// a rule of lock discipline is broken.
    Lock(LockRule),
    /// Made under `--property overflow` (`passes::overflow`): a signed
    /// integer operation whose result its type cannot hold.
    Overflow,
    /// Made under `--property memsafety` (`passes::memsafety`): an access
    /// through a null pointer, to freed heap memory or outside a heap
    /// object or an array object (SV-COMP's valid-deref).
    InvalidDeref,
    /// Made under `--property memsafety`: `free` of a pointer that is
    /// not the start of a live heap object (valid-free).
    InvalidFree,
    /// Made under `--property memtrack` (`passes::memtrack`): where main
    /// returns, a live heap object no global reaches through pointers
    /// (valid-memtrack).
    MemTrack,
}

impl AssertKind {
    /// What failed, in the words of traces and verdicts.
    pub fn what(self) -> String {
        match self {
            AssertKind::Assert => "assertion fails".into(),
            AssertKind::ReachError => "error location reached".into(),
            AssertKind::Deadlock => "deadlock".into(),
            AssertKind::Lock(r) => format!("{}: {}", r.property(), r.text()),
            AssertKind::Overflow => format!("overflow: {OVERFLOW_TEXT}"),
            AssertKind::InvalidDeref => "valid-deref: an invalid dereference".into(),
            AssertKind::InvalidFree => "valid-free: an invalid free".into(),
            AssertKind::MemTrack => "valid-memtrack: heap memory is unreachable".into(),
        }
    }

    /// The word the oracle's own text of such a failure starts with
    /// (`overflow: 2147483647 + 1 is ...`), for the kinds whose oracle
    /// says what happened.
    pub fn word(self) -> Option<&'static str> {
        match self {
            AssertKind::Lock(r) => Some(r.property()),
            AssertKind::Overflow => Some("overflow"),
            AssertKind::InvalidDeref => Some("valid-deref"),
            AssertKind::InvalidFree => Some("valid-free"),
            AssertKind::MemTrack => Some("valid-memtrack"),
            _ => None,
        }
    }

    /// A check made where no statement of the input is (a deadlock, a
    /// thread's end): a replay looks for its kind anywhere.
    pub fn at_no_place(self) -> bool {
        matches!(
            self,
            AssertKind::Deadlock | AssertKind::Lock(LockRule::ExitHolding) | AssertKind::MemTrack
        )
    }
}

/// What `--property overflow` finds.
pub const OVERFLOW_TEXT: &str = "signed integer overflow";

/// The rules of lock discipline seqc checks (Saturn's and SLAM's locking
/// rules, for POSIX mutexes, spinlocks and read-write locks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LockRule {
    /// Unlock of a lock the thread does not hold.
    UnlockNotHeld,
    /// A lock taken again by its holder (not a recursive mutex).
    Relock,
    /// Destroy of a held lock.
    DestroyHeld,
    /// Lock, unlock, wait on or destroy of a destroyed lock.
    UseDestroyed,
    /// A condition wait with a mutex the thread does not hold.
    WaitNotHeld,
    /// `locks-exit`: a thread ends (returns, `pthread_exit`, main's
    /// return or `exit`) holding a lock it took.
    ExitHolding,
}

impl LockRule {
    /// What was done wrong, for verdicts and traces.
    pub fn text(self) -> &'static str {
        match self {
            LockRule::UnlockNotHeld => "unlock of a lock this thread does not hold",
            LockRule::Relock => "lock of a lock this thread already holds",
            LockRule::DestroyHeld => "destroy of a held lock",
            LockRule::UseDestroyed => "use of a destroyed lock",
            LockRule::WaitNotHeld => "condition wait with a mutex this thread does not hold",
            LockRule::ExitHolding => "the thread ends holding a lock",
        }
    }

    /// The property that checks the rule.
    pub fn property(self) -> &'static str {
        match self {
            LockRule::ExitHolding => "locks-exit",
            _ => "locks",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// Start of a local's scope; without init its value is nondeterministic.
    Decl(LocalId, Option<Init>),
    Assign(Expr, Expr),
    Call {
        dest: Option<Expr>,
        callee: Expr,
        args: Vec<Expr>,
    },
    Op {
        dest: Option<Expr>,
        op: Op,
        args: Vec<Expr>,
    },
    If(Expr, Block, Block),
    /// Repeat `body` then `latch`. `continue` in `body` goes to `latch`;
    /// `break` in either leaves the loop.
    Loop {
        body: Block,
        latch: Block,
        /// Set on a counted loop that creates threads (`ir::loops`): it
        /// runs at most this many times, and `--unwind` does not cut it
        /// before that.
        trips: Option<u32>,
    },
    Break,
    Continue,
    /// `case`/`default` labels are `Case` statements directly in `body`
    /// (or nested in its blocks, as C allows).
    Switch(Expr, Block),
    Case(CaseLabel),
    Label(LabelId),
    Goto(LabelId),
    Return(Option<Expr>),
    Block(Block),
    Assert(Expr, AssertKind),
    Assume(Expr),
}

/// The operations the concurrency and verification semantics hang on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    // Threads. Arguments as in pthreads.
    ThreadCreate,
    ThreadJoin,
    /// `pthread_detach(t)`: a later join of `t` fails with EINVAL.
    ThreadDetach,
    ThreadExit,
    ThreadSelf,
    ThreadEqual,
    MutexInit,
    MutexDestroy,
    MutexLock,
    MutexUnlock,
    MutexTryLock,
    /// `(m, abstime, valid)`: `pthread_mutex_timedlock`; `valid` says
    /// whether `abstime->tv_nsec` is in 0..1e9 (the front end reads it).
    MutexTimedLock,
    CondInit,
    CondDestroy,
    CondWait,
    /// `(c, m, abstime, valid)`: `pthread_cond_timedwait`, `valid` as for
    /// `MutexTimedLock`.
    CondTimedWait,
    CondSignal,
    CondBroadcast,
    Once,
    KeyCreate,
    KeyDelete,
    GetSpecific,
    SetSpecific,
    /// `pthread_attr_*`, `pthread_mutexattr_*`, ...: no effect, returns 0.
    AttrNoop(&'static str),
    AtomicBegin,
    AtomicEnd,
    /// One atomic step: `dest = *p`.
    AtomicLoad,
    /// `*p = v`.
    AtomicStore,
    /// `dest = *p; *p = v`.
    AtomicExchange,
    /// `dest = *p; *p = *p OP v`.
    AtomicFetch(AtomicRmw),
    /// `*p = *p OP v; dest = *p` (GCC `__sync_op_and_fetch`, `++` on `_Atomic`).
    AtomicFetchThen(AtomicRmw),
    /// `(p, expected_ptr, desired)`: C11 form, writes the old value to
    /// `*expected` on failure; dest = success.
    AtomicCompareExchange,
    /// `(p, old, new)` GCC `__sync_bool_compare_and_swap`: dest = success.
    AtomicCasBool,
    /// `(p, old, new)` GCC `__sync_val_compare_and_swap`: dest = old value.
    AtomicCasVal,
    Fence,
    // Memory.
    Malloc,
    Calloc,
    Free,
    Memset,
    Memcpy,
    // Lal-Reps rounds (only in the output of that pass).
    /// Copies 1..K-1 of shared memory take fresh values (the guesses).
    RoundInit,
    /// Assume that the final copy of each round equals the next guess.
    RoundCheck,
    // Ends of the run.
    Abort,
    Exit,
    /// Library calls modelled as "no effect on the program's state, any
    /// result" (`printf`, `usleep`, ...).
    LibNoop(&'static str),
    /// Semaphores, read-write locks and spinlocks: each object is one
    /// word (`WordOp` says what it holds).
    Word(WordOp),
}

/// The operations on one-word synchronisation objects. A semaphore's
/// word is its count; a read-write lock's is -1 (held for writing), 0
/// (free) or the number of readers; a spinlock's is 0 (free) or 1; a
/// barrier's packs its count, the threads arrived in this cycle and the
/// cycle number (`passes::threads`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WordOp {
    /// `(s, pshared, value)`.
    SemInit,
    SemWait,
    SemTryWait,
    SemPost,
    /// `(s, int *value)`.
    SemGetValue,
    SemDestroy,
    /// `(rw, attr)`.
    RwInit,
    RwRdLock,
    RwWrLock,
    RwTryRdLock,
    RwTryWrLock,
    RwUnlock,
    RwDestroy,
    /// `(s, pshared)`.
    SpinInit,
    SpinLock,
    SpinTryLock,
    SpinUnlock,
    SpinDestroy,
    /// `(b, attr, count)`.
    BarrierInit,
    /// Arrive, then wait for the cycle to complete: one step each.
    BarrierWait,
    BarrierDestroy,
}

impl WordOp {
    pub fn c_name(self) -> &'static str {
        use WordOp::*;
        match self {
            SemInit => "sem_init",
            SemWait => "sem_wait",
            SemTryWait => "sem_trywait",
            SemPost => "sem_post",
            SemGetValue => "sem_getvalue",
            SemDestroy => "sem_destroy",
            RwInit => "pthread_rwlock_init",
            RwRdLock => "pthread_rwlock_rdlock",
            RwWrLock => "pthread_rwlock_wrlock",
            RwTryRdLock => "pthread_rwlock_tryrdlock",
            RwTryWrLock => "pthread_rwlock_trywrlock",
            RwUnlock => "pthread_rwlock_unlock",
            RwDestroy => "pthread_rwlock_destroy",
            SpinInit => "pthread_spin_init",
            SpinLock => "pthread_spin_lock",
            SpinTryLock => "pthread_spin_trylock",
            SpinUnlock => "pthread_spin_unlock",
            SpinDestroy => "pthread_spin_destroy",
            BarrierInit => "pthread_barrier_init",
            BarrierWait => "pthread_barrier_wait",
            BarrierDestroy => "pthread_barrier_destroy",
        }
    }

    /// Every operation of the model, for the front end's table.
    pub const ALL: [WordOp; 21] = [
        WordOp::SemInit,
        WordOp::SemWait,
        WordOp::SemTryWait,
        WordOp::SemPost,
        WordOp::SemGetValue,
        WordOp::SemDestroy,
        WordOp::RwInit,
        WordOp::RwRdLock,
        WordOp::RwWrLock,
        WordOp::RwTryRdLock,
        WordOp::RwTryWrLock,
        WordOp::RwUnlock,
        WordOp::RwDestroy,
        WordOp::SpinInit,
        WordOp::SpinLock,
        WordOp::SpinTryLock,
        WordOp::SpinUnlock,
        WordOp::SpinDestroy,
        WordOp::BarrierInit,
        WordOp::BarrierWait,
        WordOp::BarrierDestroy,
    ];

    /// The object's type.
    pub fn object(self) -> PthreadTy {
        use WordOp::*;
        match self {
            SemInit | SemWait | SemTryWait | SemPost | SemGetValue | SemDestroy => PthreadTy::Sem,
            RwInit | RwRdLock | RwWrLock | RwTryRdLock | RwTryWrLock | RwUnlock | RwDestroy => {
                PthreadTy::Rwlock
            }
            BarrierInit | BarrierWait | BarrierDestroy => PthreadTy::Barrier,
            _ => PthreadTy::Spin,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicRmw {
    Add,
    Sub,
    And,
    Or,
    Xor,
}

impl Op {
    /// The C function the identity output calls for this operation.
    pub fn c_name(self) -> &'static str {
        use Op::*;
        match self {
            ThreadCreate => "pthread_create",
            ThreadJoin => "pthread_join",
            ThreadDetach => "pthread_detach",
            ThreadExit => "pthread_exit",
            ThreadSelf => "pthread_self",
            ThreadEqual => "pthread_equal",
            MutexInit => "pthread_mutex_init",
            MutexDestroy => "pthread_mutex_destroy",
            MutexLock => "pthread_mutex_lock",
            MutexUnlock => "pthread_mutex_unlock",
            MutexTryLock => "pthread_mutex_trylock",
            MutexTimedLock => "pthread_mutex_timedlock",
            CondInit => "pthread_cond_init",
            CondDestroy => "pthread_cond_destroy",
            CondWait => "pthread_cond_wait",
            CondTimedWait => "pthread_cond_timedwait",
            CondSignal => "pthread_cond_signal",
            CondBroadcast => "pthread_cond_broadcast",
            Once => "pthread_once",
            KeyCreate => "pthread_key_create",
            KeyDelete => "pthread_key_delete",
            GetSpecific => "pthread_getspecific",
            SetSpecific => "pthread_setspecific",
            AttrNoop(n) => n,
            AtomicBegin => "__VERIFIER_atomic_begin",
            AtomicEnd => "__VERIFIER_atomic_end",
            AtomicLoad => "__atomic_load_n",
            AtomicStore => "__atomic_store_n",
            AtomicExchange => "__atomic_exchange_n",
            AtomicFetch(AtomicRmw::Add) => "__atomic_fetch_add",
            AtomicFetch(AtomicRmw::Sub) => "__atomic_fetch_sub",
            AtomicFetch(AtomicRmw::And) => "__atomic_fetch_and",
            AtomicFetch(AtomicRmw::Or) => "__atomic_fetch_or",
            AtomicFetch(AtomicRmw::Xor) => "__atomic_fetch_xor",
            AtomicFetchThen(AtomicRmw::Add) => "__atomic_add_fetch",
            AtomicFetchThen(AtomicRmw::Sub) => "__atomic_sub_fetch",
            AtomicFetchThen(AtomicRmw::And) => "__atomic_and_fetch",
            AtomicFetchThen(AtomicRmw::Or) => "__atomic_or_fetch",
            AtomicFetchThen(AtomicRmw::Xor) => "__atomic_xor_fetch",
            AtomicCompareExchange => "__atomic_compare_exchange_n",
            AtomicCasBool => "__sync_bool_compare_and_swap",
            AtomicCasVal => "__sync_val_compare_and_swap",
            Fence => "__atomic_thread_fence",
            Malloc => "malloc",
            Calloc => "calloc",
            Free => "free",
            Memset => "memset",
            Memcpy => "memcpy",
            RoundInit => "__seqc_round_init",
            RoundCheck => "__seqc_round_check",
            Abort => "abort",
            Exit => "exit",
            LibNoop(n) => n,
            Word(w) => w.c_name(),
        }
    }

    /// One indivisible visible step whatever its arguments read.
    pub fn is_atomic_step(self) -> bool {
        use Op::*;
        matches!(
            self,
            AtomicLoad
                | AtomicStore
                | AtomicExchange
                | AtomicFetch(_)
                | AtomicFetchThen(_)
                | AtomicCompareExchange
                | AtomicCasBool
                | AtomicCasVal
        )
    }

    /// Operations that synchronise or touch thread state: always visible.
    pub fn is_visible(self) -> bool {
        use Op::*;
        !matches!(
            self,
            AttrNoop(_)
                | LibNoop(_)
                | Fence
                | Abort
                | Exit
                | ThreadSelf
                | ThreadEqual
                | RoundInit
                | RoundCheck
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Ty,
    pub loc: Loc,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    BitNot,
    LogNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogAnd,
    LogOr,
    /// pointer + integer (scaled by the pointee size).
    PtrAdd,
    /// pointer - integer.
    PtrSub,
    /// pointer - pointer, in elements.
    PtrDiff,
}

impl BinOp {
    pub fn c_op(self) -> &'static str {
        use BinOp::*;
        match self {
            Add | PtrAdd => "+",
            Sub | PtrSub | PtrDiff => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            LogAnd => "&&",
            LogOr => "||",
        }
    }

    pub fn is_comparison(self) -> bool {
        use BinOp::*;
        matches!(self, Eq | Ne | Lt | Le | Gt | Ge)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i128),
    /// The literal as written.
    Float(String),
    /// A string literal: an array lvalue of `char`, NUL included.
    Str(Vec<u8>),
    Local(LocalId),
    Global(GlobalId),
    /// A function designator (its type is the function type).
    Func(FuncId),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Conversion to `self.ty`.
    Cast(Box<Expr>),
    Deref(Box<Expr>),
    AddrOf(Box<Expr>),
    /// Field of a struct/union lvalue.
    Member(Box<Expr>, u32),
    /// Element of an array lvalue.
    Index(Box<Expr>, Box<Expr>),
    /// Array lvalue to pointer to its first element.
    Decay(Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// A fresh value of `self.ty` at each evaluation.
    Nondet,
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Ty, loc: Loc) -> Expr {
        Expr { kind, ty, loc }
    }

    pub fn int(v: i128, ty: Ty, loc: Loc) -> Expr {
        Expr::new(ExprKind::Int(v), ty, loc)
    }

    pub fn is_lvalue(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Local(_)
                | ExprKind::Global(_)
                | ExprKind::Deref(_)
                | ExprKind::Member(..)
                | ExprKind::Index(..)
                | ExprKind::Str(_)
        )
    }

    /// Calls `f` on this expression and every sub-expression, parents first.
    pub fn walk(&self, f: &mut impl FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Unary(_, a)
            | ExprKind::Cast(a)
            | ExprKind::Deref(a)
            | ExprKind::AddrOf(a)
            | ExprKind::Member(a, _)
            | ExprKind::Decay(a) => a.walk(f),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            ExprKind::Cond(a, b, c) => {
                a.walk(f);
                b.walk(f);
                c.walk(f);
            }
            _ => {}
        }
    }
}

impl Block {
    /// Calls `f` on every statement, nested ones included, parents first.
    pub fn walk(&self, f: &mut impl FnMut(&Stmt)) {
        for s in &self.0 {
            s.walk(f);
        }
    }
}

impl Stmt {
    pub fn walk(&self, f: &mut impl FnMut(&Stmt)) {
        f(self);
        match &self.kind {
            StmtKind::If(_, a, b) => {
                a.walk(f);
                b.walk(f);
            }
            StmtKind::Loop { body, latch, .. } => {
                body.walk(f);
                latch.walk(f);
            }
            StmtKind::Switch(_, b) | StmtKind::Block(b) => b.walk(f),
            _ => {}
        }
    }

    /// `each_expr`, mutably.
    pub fn each_expr_mut<'a>(&'a mut self, f: &mut impl FnMut(&'a mut Expr)) {
        match &mut self.kind {
            StmtKind::Decl(_, Some(init)) => init.walk_exprs_mut(f),
            StmtKind::Assign(a, b) => {
                f(a);
                f(b);
            }
            StmtKind::Call { dest, callee, args } => {
                dest.iter_mut().for_each(&mut *f);
                f(callee);
                args.iter_mut().for_each(f);
            }
            StmtKind::Op { dest, args, .. } => {
                dest.iter_mut().for_each(&mut *f);
                args.iter_mut().for_each(f);
            }
            StmtKind::If(c, ..)
            | StmtKind::Switch(c, _)
            | StmtKind::Assert(c, _)
            | StmtKind::Assume(c) => f(c),
            StmtKind::Return(Some(e)) => f(e),
            _ => {}
        }
    }

    /// `exprs`, mutably.
    pub fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        let mut v = Vec::new();
        self.each_expr_mut(&mut |e| v.push(e));
        v
    }

    /// Calls `f` on each expression `exprs` returns, without building the
    /// list: whole-program walks made one allocation per statement.
    pub fn each_expr<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        match &self.kind {
            StmtKind::Decl(_, Some(init)) => init.each_expr(f),
            StmtKind::Assign(a, b) => {
                f(a);
                f(b);
            }
            StmtKind::Call { dest, callee, args } => {
                dest.iter().for_each(&mut *f);
                f(callee);
                args.iter().for_each(f);
            }
            StmtKind::Op { dest, args, .. } => {
                dest.iter().for_each(&mut *f);
                args.iter().for_each(f);
            }
            StmtKind::If(c, ..)
            | StmtKind::Switch(c, _)
            | StmtKind::Assert(c, _)
            | StmtKind::Assume(c) => f(c),
            StmtKind::Return(Some(e)) => f(e),
            _ => {}
        }
    }

    /// The expressions this statement evaluates (not those of nested blocks).
    pub fn exprs(&self) -> Vec<&Expr> {
        let mut v = Vec::new();
        self.each_expr(&mut |e| v.push(e));
        v
    }
}

impl Init {
    /// Calls `f` on each expression of the initialiser, in order.
    pub fn each_expr<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        match self {
            Init::Expr(e) => f(e),
            Init::Array(items) => items.iter().for_each(|(_, i)| i.each_expr(&mut *f)),
            Init::Comp(items) => items.iter().for_each(|(_, i)| i.each_expr(&mut *f)),
            Init::Str(_) => {}
        }
    }

    pub fn exprs<'a>(&'a self, out: &mut Vec<&'a Expr>) {
        self.each_expr(&mut |e| out.push(e));
    }
}

/// The index of a loop body's exit test, the point where `--unwind`
/// cuts a loop that has run U times (oracle and BMC share this definition) (`if (..) break;`) when only
/// straight-line code (the condition's evaluation) comes before it.
pub fn top_exit_test(body: &Block) -> Option<usize> {
    for (i, s) in body.0.iter().enumerate() {
        match &s.kind {
            StmtKind::If(_, t, e)
                if e.0.is_empty() && t.0.len() == 1 && matches!(t.0[0].kind, StmtKind::Break) =>
            {
                return Some(i);
            }
            StmtKind::Assign(..)
            | StmtKind::Decl(..)
            | StmtKind::Call { .. }
            | StmtKind::Op { .. } => {}
            _ => return None,
        }
    }
    None
}

/// A whole program: the input after lowering, or the output of a pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub data_model: DataModel,
    /// Paths as given (the input and the headers it included).
    pub files: Vec<String>,
    /// Which of `files` are system headers (gcc's marker flag 3).
    pub system_files: Vec<bool>,
    pub comps: Vec<CompDef>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    /// Set by the Lal-Reps pass: shared memory has round copies.
    pub rounds: Option<Rounds>,
    /// Set by a sequentialization: the global that holds the running
    /// thread's id, so traces can say which thread made each step.
    pub thread_id: Option<GlobalId>,
    /// pthread features the lowering saw whose model costs the checker,
    /// so that the passes build it only when the program needs it.
    pub pthread: PthreadUse,
    /// Set by a sequentialization: at most this many active frames of a
    /// function on any path, because the transformed program cannot nest
    /// it deeper (KISS: one `__seqc_run` per thread on the stack). A
    /// checker's own recursion bound would otherwise inline every level.
    pub frame_limits: Vec<(FuncId, u32)>,
    /// Set by `passes::memsafety`: every heap object must have this many
    /// bytes before it and after it that no other object uses, so that an
    /// address a little before its start or one past its end is no other
    /// object's (Lal–Reps' pools pad their slots).
    pub heap_gap: u64,
    /// Set by `passes::memtrack` when its check sees only some leaks (or
    /// none): why. A safe answer then claims nothing about valid-memtrack.
    pub memtrack_partial: Option<String>,
    /// Set by KISS: a thread that stops leaves its frames, yet it is only
    /// blocked, so another thread may still use a local whose address
    /// escaped. Such an object must outlive its frame: the SMT route's
    /// objects do; the C back end puts these locals on the heap.
    pub kept_frames: bool,
    /// Constants the front end folded from the layout of a type holding a
    /// pthread object by value (`sizeof`, `offsetof`, `_Alignof`): glibc's
    /// value and the value once pthread objects are integers
    /// (`passes::retype`). The sequentializations refuse a difference,
    /// but in a size handed to an allocator (`alloc`).
    pub pthread_layout: Vec<LayoutUse>,
}

/// One constant folded from a layout `passes::retype` changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutUse {
    pub loc: Loc,
    /// `sizeof`, `offsetof` or `_Alignof`.
    pub what: &'static str,
    pub glibc: u64,
    pub retyped: u64,
    /// Harmless: inside the arguments of a call of an allocator (a callee
    /// whose name has `alloc` in it; a larger object than needed changes
    /// nothing), or one side of a quotient of two sizes that both layouts
    /// give alike (`sizeof a / sizeof a[0]`).
    pub harmless: bool,
}

/// glibc's error numbers the pthread model returns.
pub mod errno {
    pub const EPERM: i128 = 1;
    pub const ESRCH: i128 = 3;
    pub const EAGAIN: i128 = 11;
    pub const EBUSY: i128 = 16;
    pub const EINVAL: i128 = 22;
    pub const EDEADLK: i128 = 35;
    pub const ENOTSUP: i128 = 95;
    pub const ETIMEDOUT: i128 = 110;
}

/// Which costly parts of the pthread model a program needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PthreadUse {
    /// Mutexes of a kind other than normal: `pthread_mutexattr_settype`
    /// with recursive or error-checking, or a `_NP` kind initialiser.
    pub mutex_kinds: bool,
    /// Detached threads: `pthread_detach`, or a detach state set in an
    /// attribute object.
    pub detach: bool,
    /// `pthread_key_create` with a destructor.
    pub key_dtors: bool,
}

/// Shared memory in K round copies (plus a sink copy K that a stopped
/// thread writes to). Every access to memory that is not a local's and
/// not a global outside `copied` uses the copy of the current round,
/// the value of the global `round`; pointers hold addresses in copy 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Rounds {
    pub round: GlobalId,
    pub k: u32,
    /// Per global: has round copies.
    pub copied: Vec<bool>,
}

impl Program {
    pub fn new(data_model: DataModel) -> Program {
        Program {
            data_model,
            files: Vec::new(),
            system_files: Vec::new(),
            comps: Vec::new(),
            globals: Vec::new(),
            functions: Vec::new(),
            rounds: None,
            thread_id: None,
            pthread: PthreadUse::default(),
            frame_limits: Vec::new(),
            heap_gap: 0,
            memtrack_partial: None,
            kept_frames: false,
            pthread_layout: Vec::new(),
        }
    }

    pub fn comp(&self, c: CompId) -> &CompDef {
        &self.comps[c.0 as usize]
    }

    pub fn global(&self, g: GlobalId) -> &Global {
        &self.globals[g.index()]
    }

    pub fn func(&self, f: FuncId) -> &Function {
        &self.functions[f.index()]
    }

    pub fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }

    pub fn is_system(&self, f: FileId) -> bool {
        self.system_files.get(f.index()).copied().unwrap_or(false)
    }

    pub fn file_name(&self, f: FileId) -> &str {
        self.files
            .get(f.index())
            .map(String::as_str)
            .unwrap_or("<seqc>")
    }

    /// `file:line:col` of a location, for traces and diagnostics.
    pub fn describe(&self, loc: Loc) -> String {
        format!("{}:{}:{}", self.file_name(loc.file), loc.line, loc.col)
    }

    /// Calls `f` on every expression of the program and its
    /// sub-expressions: global initialisers, then function bodies
    /// (declaration initialisers included), in order.
    pub fn walk_exprs(&self, f: &mut impl FnMut(&Expr)) {
        for g in &self.globals {
            if let Some(i) = &g.init {
                let mut es = Vec::new();
                i.exprs(&mut es);
                es.iter().for_each(|e| e.walk(f));
            }
        }
        for fun in &self.functions {
            if let Some(b) = &fun.body {
                b.walk(&mut |s| s.each_expr(&mut |e| e.walk(f)));
            }
        }
    }

    /// Functions whose address is taken (the targets of indirect calls),
    /// in index order.
    pub fn address_taken_functions(&self) -> Vec<FuncId> {
        let taken = |e: &Expr, v: &mut Vec<FuncId>| {
            if let ExprKind::AddrOf(x) = &e.kind
                && let ExprKind::Func(f) = x.kind
            {
                v.push(f);
            }
        };
        let mut v = Vec::new();
        for g in &self.globals {
            if let Some(i) = &g.init {
                i.each_expr(&mut |e| e.walk(&mut |x| taken(x, &mut v)));
            }
        }
        let per_fn = crate::par::map(&self.functions, |_, fun| {
            let mut v = Vec::new();
            if let Some(b) = &fun.body {
                b.walk(&mut |s| s.each_expr(&mut |e| e.walk(&mut |x| taken(x, &mut v))));
            }
            v
        });
        v.extend(per_fn.into_iter().flatten());
        v.sort();
        v.dedup();
        v
    }
}

impl Expr {
    /// Calls `f` on every sub-expression, children first.
    pub fn walk_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        match &mut self.kind {
            ExprKind::Unary(_, a)
            | ExprKind::Cast(a)
            | ExprKind::Deref(a)
            | ExprKind::AddrOf(a)
            | ExprKind::Member(a, _)
            | ExprKind::Decay(a) => a.walk_mut(f),
            ExprKind::Binary(_, a, b) | ExprKind::Index(a, b) => {
                a.walk_mut(f);
                b.walk_mut(f);
            }
            ExprKind::Cond(a, b, c) => {
                a.walk_mut(f);
                b.walk_mut(f);
                c.walk_mut(f);
            }
            _ => {}
        }
        f(self);
    }
}

impl Init {
    /// Calls `f` on each expression of the initialiser, in order.
    pub fn walk_exprs_mut<'a>(&'a mut self, f: &mut impl FnMut(&'a mut Expr)) {
        match self {
            Init::Expr(e) => f(e),
            Init::Array(items) => items
                .iter_mut()
                .for_each(|(_, i)| i.walk_exprs_mut(&mut *f)),
            Init::Comp(items) => items
                .iter_mut()
                .for_each(|(_, i)| i.walk_exprs_mut(&mut *f)),
            Init::Str(_) => {}
        }
    }
}

impl Block {
    /// Calls `f` on every top-level expression of every statement, nested
    /// blocks included.
    pub fn walk_exprs_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        for s in &mut self.0 {
            s.walk_exprs_mut(f);
        }
    }
}

impl Stmt {
    pub fn walk_exprs_mut(&mut self, f: &mut impl FnMut(&mut Expr)) {
        match &mut self.kind {
            StmtKind::Decl(_, Some(init)) => init.walk_exprs_mut(f),
            StmtKind::Decl(_, None) => {}
            StmtKind::Assign(a, b) => {
                f(a);
                f(b);
            }
            StmtKind::Call { dest, callee, args } => {
                dest.iter_mut().for_each(&mut *f);
                f(callee);
                args.iter_mut().for_each(f);
            }
            StmtKind::Op { dest, args, .. } => {
                dest.iter_mut().for_each(&mut *f);
                args.iter_mut().for_each(f);
            }
            StmtKind::If(c, a, b) => {
                f(c);
                a.walk_exprs_mut(f);
                b.walk_exprs_mut(f);
            }
            StmtKind::Loop { body, latch, .. } => {
                body.walk_exprs_mut(f);
                latch.walk_exprs_mut(f);
            }
            StmtKind::Switch(c, b) => {
                f(c);
                b.walk_exprs_mut(f);
            }
            StmtKind::Block(b) => b.walk_exprs_mut(f),
            StmtKind::Assert(c, _) | StmtKind::Assume(c) => f(c),
            StmtKind::Return(Some(e)) => f(e),
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Case(_)
            | StmtKind::Label(_)
            | StmtKind::Goto(_) => {}
        }
    }
}

/// The expressions of an initialiser, mutably.
pub(crate) fn init_exprs_mut<'a>(i: &'a mut Init, v: &mut Vec<&'a mut Expr>) {
    i.walk_exprs_mut(&mut |e| v.push(e));
}

/// The first operation of the thread API in the program: a sequential
/// checker must not see one (CBMC would run threads with its own
/// concurrency; the SMT route has no meaning for them).
pub fn thread_op(p: &Program) -> Option<(Op, Loc)> {
    let mut found = None;
    for f in &p.functions {
        let Some(b) = &f.body else { continue };
        b.walk(&mut |s| {
            if let StmtKind::Op { op, .. } = &s.kind
                && is_thread_op(*op)
                && found.is_none()
            {
                found = Some((*op, s.loc));
            }
        });
        if found.is_some() {
            break;
        }
    }
    found
}

pub fn is_thread_op(op: Op) -> bool {
    matches!(
        op,
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
            | Op::SetSpecific
            | Op::Word(_)
            | Op::MutexTimedLock
            | Op::CondTimedWait
    )
}
