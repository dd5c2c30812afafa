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
    /// The options as the user gave them, for headers of outputs.
    pub options_text: String,
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
            options_text: String::new(),
            unwinding_assertions: false,
            int: false,
            property: Property::Assert,
            track: None,
        }
    }
}
