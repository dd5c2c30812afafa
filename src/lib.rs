//! seqc: sequentialization of concurrent C (pthreads, atomic sections) into
//! sequential C or SMT-LIB2.
//!
//! The pipeline: `frontend` (gcc -E, lang-c, lowering) → `ir` → `passes`
//! → `backend`. The library never prints; `main.rs` does.

pub mod backend;
pub mod bmc;
pub mod check;
pub mod cleanup;
pub mod config;
pub mod deadline;
pub mod diag;
pub mod driver;
pub mod frontend;
pub mod generate;
pub mod ir;
pub mod oracle;
pub mod out_file;
pub mod par;
pub mod passes;
pub mod refine;
pub mod replay;
pub mod task;
pub mod witness;
