//! Options of a seqc run, as one struct (no boolean parameters in the
//! library's signatures).

use crate::backend::c::Dialect;
use crate::ir::DataModel;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    None,
    Kiss,
    #[default]
    LalReps,
}

impl Method {
    /// The name `--method` takes.
    pub fn name(self) -> &'static str {
        match self {
            Method::None => "none",
            Method::Kiss => "kiss",
            Method::LalReps => "lal-reps",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Emit {
    #[default]
    C,
    Smt,
    Ir,
    /// The program's memory regions and their accesses.
    Regions,
}

/// What `check` looks for.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Property {
    /// Assertions and `reach_error()`.
    #[default]
    Assert,
    /// Data races: on any shared location (`None`), or on one region
    /// (`count`, `struct s.f`, `*int`).
    Race(Option<String>),
    /// A set of the properties a sequentialization checks in one run
    /// (at least one of them other than `assert`).
    Set(Checks),
}

/// `--property assert,deadlock,locks,locks-exit,overflow`, any of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Checks {
    /// Failing assertions; without, a failing assertion ends the run as
    /// `abort` would.
    pub assert: bool,
    /// Deadlocks: a reachable state where some thread has not finished
    /// and every unfinished thread waits on an operation that cannot go
    /// on.
    pub deadlock: bool,
    /// Lock discipline (`ir::LockRule`, all but `ExitHolding`).
    pub locks: bool,
    /// A thread that ends holding a lock it took.
    pub locks_exit: bool,
    /// Signed integer overflow (`passes::overflow`).
    pub overflow: bool,
    /// Invalid dereferences and frees (`passes::memsafety`).
    pub memsafety: bool,
    /// Heap memory unreachable where main returns (`passes::memtrack`).
    pub memtrack: bool,
}

impl Checks {
    /// The checks asked for, as `--property` spells them (`assert` too, if
    /// `with_assert`).
    pub fn names(&self, with_assert: bool) -> Vec<&'static str> {
        [
            (self.assert && with_assert, "assert"),
            (self.deadlock, "deadlock"),
            (self.locks, "locks"),
            (self.locks_exit, "locks-exit"),
            (self.overflow, "overflow"),
            (self.memsafety, "memsafety"),
            (self.memtrack, "memtrack"),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| n)
        .collect()
    }
}

impl Property {
    /// User assertions are checked.
    pub fn asserts(&self) -> bool {
        match self {
            Property::Assert => true,
            Property::Race(_) => false,
            Property::Set(c) => c.assert,
        }
    }

    pub fn deadlock(&self) -> bool {
        matches!(self, Property::Set(c) if c.deadlock)
    }

    pub fn locks(&self) -> bool {
        matches!(self, Property::Set(c) if c.locks)
    }

    pub fn locks_exit(&self) -> bool {
        matches!(self, Property::Set(c) if c.locks_exit)
    }

    pub fn overflow(&self) -> bool {
        matches!(self, Property::Set(c) if c.overflow)
    }

    pub fn memsafety(&self) -> bool {
        matches!(self, Property::Set(c) if c.memsafety)
    }

    pub fn memtrack(&self) -> bool {
        matches!(self, Property::Set(c) if c.memtrack)
    }

    /// The heap table of `passes::memsafety` is needed.
    pub fn heap_table(&self) -> bool {
        self.memsafety() || self.memtrack()
    }

    /// A property the thread model checks (a sequentialization is needed).
    pub fn needs_threads(&self) -> bool {
        self.deadlock() || self.locks() || self.locks_exit()
    }

    /// Only properties other than `assert` are asked for: the input's
    /// assertions end the run as `abort` would (`passes::no_asserts`).
    pub fn strips_asserts(&self) -> bool {
        matches!(self, Property::Set(c) if !c.assert)
    }
}

#[derive(Clone, Debug)]
pub struct Config {
    pub method: Method,
    pub rounds: u32,
    pub ts: u32,
    pub unwind: u32,
    pub threads: u32,
    pub emit: Emit,
    pub dialect: Dialect,
    pub data_model: DataModel,
    pub include_dirs: Vec<String>,
    pub defines: Vec<String>,
    /// `--dump-ir-after PASS`.
    pub dump_ir_after: Option<String>,
    /// A path cut by `--unwind` is reported as "bound too small".
    pub unwinding_assertions: bool,
    /// `--int`: SMT integers instead of bit-vectors.
    pub int: bool,
    pub property: Property,
    /// `--track R1,R2,...`: the regions field slicing keeps (`None`: all).
    pub track: Option<Vec<String>>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            method: Method::LalReps,
            rounds: 2,
            ts: 1,
            unwind: 2,
            threads: 3,
            emit: Emit::C,
            dialect: Dialect::Svcomp,
            data_model: DataModel::Lp64,
            include_dirs: Vec::new(),
            defines: Vec::new(),
            dump_ir_after: None,
            unwinding_assertions: false,
            int: false,
            property: Property::Assert,
            track: None,
        }
    }
}

impl Config {
    /// Every option that changes an output, as the command line spells
    /// it: the C output's header and the SMT script's `:source` carry it,
    /// so an output says how to make it again (tests/cli.rs checks the
    /// round trip).
    pub fn options_text(&self) -> String {
        let mut o = vec![format!("--method {}", self.method.name())];
        match self.method {
            Method::LalReps => {
                o.push(format!("--rounds {}", self.rounds));
                o.push(format!("--threads {}", self.threads));
            }
            Method::Kiss => {
                o.push(format!("--ts {}", self.ts));
                o.push(format!("--threads {}", self.threads));
            }
            Method::None => {}
        }
        o.push(format!("--unwind {}", self.unwind));
        if let Some(t) = &self.track {
            o.push(format!("--track '{}'", t.join(",")));
        }
        match &self.property {
            Property::Assert => {}
            Property::Race(None) => o.push("--property race".into()),
            Property::Race(Some(r)) => o.push(format!("--property 'race={r}'")),
            Property::Set(c) => o.push(format!("--property {}", c.names(true).join(","))),
        }
        if self.data_model == DataModel::Ilp32 {
            o.push("--data-model ILP32".into());
        }
        if self.dialect == Dialect::Cbmc {
            o.push("--dialect cbmc".into());
        }
        if self.int {
            o.push("--int".into());
        }
        o.join(" ")
    }

    /// The `(set-info :source ...)` text: seqc, the input and the options.
    pub fn source_text(&self, input: &str) -> String {
        format!(
            "seqc {}: {input} {}",
            env!("CARGO_PKG_VERSION"),
            self.options_text()
        )
    }
}
