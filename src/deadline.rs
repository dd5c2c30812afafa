//! `--timeout` bounds the whole command: one deadline for the process,
//! set once by `main`, that every child's time limit and the in-process
//! stages' watchdog read.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

static DEADLINE: OnceLock<(Instant, Duration)> = OnceLock::new();

/// Starts the clock: the command must end within `total` from now.
pub fn set(total: Duration) {
    let _ = DEADLINE.set((Instant::now() + total, total));
}

/// The deadline and the `--timeout` it came from, when one is set.
pub fn get() -> Option<(Instant, Duration)> {
    DEADLINE.get().copied()
}

/// The time left, when a deadline is set.
pub fn remaining() -> Option<Duration> {
    get().map(|(d, _)| d.saturating_duration_since(Instant::now()))
}

/// Whether the deadline has passed.
pub fn passed() -> bool {
    remaining().is_some_and(|r| r.is_zero())
}

/// `limit`, or less when the deadline comes sooner.
pub fn cap(limit: Option<Duration>) -> Option<Duration> {
    match (limit, remaining()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Stops work a portfolio no longer needs: once one member has answered,
/// the others' children are killed and their encodings give up. A token
/// made with `child` is cancelled with any of its ancestors too.
#[derive(Clone, Debug)]
pub struct Cancel {
    /// Its own flag first, then its ancestors'.
    flags: Vec<Arc<AtomicBool>>,
}

impl Default for Cancel {
    fn default() -> Cancel {
        Cancel {
            flags: vec![Arc::new(AtomicBool::new(false))],
        }
    }
}

impl Cancel {
    pub fn child(&self) -> Cancel {
        let mut flags = vec![Arc::new(AtomicBool::new(false))];
        flags.extend(self.flags.iter().cloned());
        Cancel { flags }
    }

    pub fn cancel(&self) {
        self.flags[0].store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.flags.iter().any(|f| f.load(Ordering::SeqCst))
    }
}
