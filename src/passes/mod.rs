//! IR → IR passes, one per file, each with its contract in its module
//! comment. The IR verifier runs after every pass in debug builds and tests.

pub mod bound;
pub mod kiss;
pub mod lal_reps;
pub mod memsafety;
pub mod memtrack;
pub mod no_asserts;
pub mod normalize;
pub mod overflow;
pub mod retype;
pub mod slice;
pub mod threads;

/// Pass names accepted by `--dump-ir-after`, in pipeline order.
pub const PASSES: &[&str] = &[
    "lower",
    "normalize",
    "memsafety",
    "memtrack",
    "slice",
    "bound",
    "lal-reps",
    "kiss",
];
