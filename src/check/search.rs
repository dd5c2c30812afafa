//! `check --bounds auto`: bounds that grow by themselves. The search
//! checks the input at a sequence of bounds, each step at least as large
//! as the one before in every bound (`plan`), and stops at the first
//! violation (replayed, as every violation `check` reports), at the end of
//! the time budget, or at the end of the plan.
//!
//! Why the answer stays exact: every bound only ever cuts executions
//! (a round, a pending-thread slot, a loop iteration or a thread slot
//! more lets more runs of the input through, never fewer), so "no
//! violation" at a step implies it at every smaller step, and the answer
//! after a timeout is the last step proven safe, named in the verdict. A
//! violation at any step is a run of the input whatever the bounds.
//!
//! The order of the plan comes from measurements on the quick index
//! (scripts/results/bench-auto.md): most bugs there need two or three
//! rounds and few loop iterations, and a larger unwind costs more than a
//! round more, so rounds grow first and unwind follows. Each step is a
//! fresh query: no solver state is kept between steps (the encodings of
//! two steps differ throughout, since rounds change every shared copy).

use super::*;

/// The budget `--bounds auto` spends when no `--timeout` is given.
pub const AUTO_BUDGET: Duration = Duration::from_secs(60);

/// No step starts with less time left than this: it could not finish.
const LEAST_STEP: Duration = Duration::from_millis(300);

/// Which bounds grow (those the user did not give).
#[derive(Clone, Copy, Debug, Default)]
pub struct Grow {
    pub rounds: bool,
    pub ts: bool,
    pub unwind: bool,
    pub threads: bool,
}

/// The bounds one answer holds for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub method: Method,
    pub rounds: u32,
    pub ts: u32,
    pub unwind: u32,
    pub threads: u32,
}

impl Bounds {
    pub fn of(cfg: &Config) -> Bounds {
        Bounds {
            method: cfg.method,
            rounds: cfg.rounds,
            ts: cfg.ts,
            unwind: cfg.unwind,
            threads: cfg.threads,
        }
    }

    fn apply(&self, cfg: &Config) -> Config {
        Config {
            rounds: self.rounds,
            ts: self.ts,
            unwind: self.unwind,
            threads: self.threads,
            ..cfg.clone()
        }
    }

    /// The bounds that mean something for the method, as the verdict
    /// names them: `rounds 3, unwind 5, threads 3`.
    pub fn text(&self) -> String {
        match self.method {
            Method::None => format!("unwind {}", self.unwind),
            Method::LalReps => format!(
                "rounds {}, unwind {}, threads {}",
                self.rounds, self.unwind, self.threads
            ),
            Method::Kiss => format!(
                "ts {}, unwind {}, threads {}",
                self.ts, self.unwind, self.threads
            ),
        }
    }

    pub fn json(&self) -> serde_json::Value {
        let mut o = serde_json::json!({"unwind": self.unwind});
        match self.method {
            Method::None => {}
            Method::LalReps => {
                o["rounds"] = self.rounds.into();
                o["threads"] = self.threads.into();
            }
            Method::Kiss => {
                o["ts"] = self.ts.into();
                o["threads"] = self.threads.into();
            }
        }
        o
    }
}

/// One step of the search: the bounds, the answer and its time.
#[derive(Clone, Debug)]
pub struct SearchStep {
    pub bounds: Bounds,
    pub outcome: Outcome,
    pub backend: Backend,
    pub seconds: f64,
}

/// Rounds (or ts), unwind and threads per site, step by step; past the
/// table, each grows by its last increment.
const LAL_REPS: [(u32, u32, u32); 7] = [
    (1, 2, 2),
    (2, 2, 2),
    (3, 3, 2),
    (3, 5, 3),
    (4, 8, 3),
    (5, 12, 4),
    (6, 16, 4),
];
const KISS: [(u32, u32, u32); 6] = [
    (0, 2, 2),
    (1, 2, 2),
    (1, 3, 3),
    (2, 5, 3),
    (2, 8, 4),
    (3, 12, 4),
];
/// How many steps a plan has: far past any budget seqc is given.
const STEPS: usize = 24;

/// The bounds of each step; those not grown are `cfg`'s throughout. A
/// step equal to the one before (every grown bound at its cap) is left
/// out, so the plan may end early.
pub fn plan(cfg: &Config, grow: &Grow, threads_created: bool) -> Vec<Bounds> {
    let table: &[(u32, u32, u32)] = match cfg.method {
        Method::Kiss => &KISS,
        _ => &LAL_REPS,
    };
    let at = |i: usize| -> (u32, u32, u32) {
        if i < table.len() {
            return table[i];
        }
        let (a, b) = (table[table.len() - 2], table[table.len() - 1]);
        let k = (i - table.len() + 1) as u32;
        (
            b.0 + k * (b.0 - a.0).max(1),
            b.1 + k * (b.1 - a.1).max(1),
            b.2 + k * (b.2 - a.2),
        )
    };
    let mut out: Vec<Bounds> = Vec::new();
    for i in 0..STEPS {
        let (r, u, t) = at(i);
        let mut b = Bounds::of(cfg);
        // Without threads only loops can hide a bug.
        let concurrent = threads_created && cfg.method != Method::None;
        if grow.unwind {
            b.unwind = u.min(100_000);
        }
        if concurrent && grow.rounds && cfg.method == Method::LalReps {
            b.rounds = r.min(64);
        }
        if concurrent && grow.ts && cfg.method == Method::Kiss {
            b.ts = r.min(64);
        }
        if concurrent && grow.threads {
            b.threads = t.min(1024);
        }
        if out.last() != Some(&b) {
            out.push(b);
        }
    }
    out
}

/// `check` at growing bounds (see the module comment). The report is the
/// violation's, or the last step proven safe (its bounds in the verdict),
/// or the first step's unknown; `steps` lists every step.
pub fn check_auto(input: &str, cfg: &Config, opts: &CheckOptions, grow: &Grow) -> Result<Report> {
    let t0 = Instant::now();
    let deadline = opts.timeout.map(|t| t0 + t);
    let cfg = &unwinding_config(input, cfg, opts)?;
    let creates = creates_threads(input, cfg)?;
    let mut steps: Vec<SearchStep> = Vec::new();
    let mut answer: Option<Report> = None;
    let finish = |mut r: Report, steps: Vec<SearchStep>| {
        r.steps = steps;
        r.seconds = t0.elapsed().as_secs_f64();
        Ok(r)
    };
    for b in plan(cfg, grow, creates) {
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if left.is_some_and(|l| l < LEAST_STEP) && answer.is_some() {
            break;
        }
        let o = CheckOptions {
            timeout: left,
            ..opts.clone()
        };
        let r = match check(input, &b.apply(cfg), &o) {
            Ok(r) => r,
            // A larger step the encoding refuses (more slots than it
            // takes, say) ends the search at what was proven; seqc's own
            // errors never end quietly.
            Err(d) if answer.is_some() && d.kind != crate::diag::DiagKind::Internal => {
                steps.push(SearchStep {
                    bounds: b,
                    outcome: Outcome::Unknown(d.message.clone()),
                    backend: opts.backends[0],
                    seconds: 0.0,
                });
                break;
            }
            Err(d) => return Err(d),
        };
        steps.push(SearchStep {
            bounds: b,
            outcome: r.outcome.clone(),
            backend: r.backend,
            seconds: r.seconds,
        });
        match &r.outcome {
            Outcome::Violation => return finish(r, steps),
            // With unwinding assertions a safe step cut no path: a proof
            // for this many rounds (or pending threads) and threads.
            Outcome::Safe if opts.unwinding_assertions => return finish(r, steps),
            Outcome::Safe | Outcome::BoundTooSmall => answer = Some(r),
            // The budget is spent, or a solver gave up: a larger step
            // would fare no better.
            Outcome::Unknown(_) => {
                if answer.is_none() {
                    answer = Some(r);
                }
                break;
            }
        }
    }
    let r = answer.expect("a plan has a step");
    finish(r, steps)
}

/// Whether the input has a `pthread_create` (else only unwind grows).
fn creates_threads(input: &str, cfg: &Config) -> Result<bool> {
    let p = crate::driver::load(input, cfg)?;
    // The sites Lal-Reps gives slots to; when they cannot be listed, the
    // passes will say why, and every bound grows meanwhile.
    Ok(crate::ir::sites::thread_sites(&p).map_or(true, |s| !s.is_empty()))
}
