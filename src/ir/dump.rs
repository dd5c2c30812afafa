//! The stable text dump of the IR (`--emit ir`, `--dump-ir-after`).
//! It shares the C back end's printer in its IR mode, so the two never
//! disagree about what an expression means.

use super::Program;

pub fn dump(p: &Program) -> String {
    crate::backend::c::dump(p)
}
