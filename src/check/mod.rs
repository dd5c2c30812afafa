//! `seqc check`: builds the sequential program (`driver::build`), runs a
//! back end on it — an SMT solver on the script of `bmc`, or CBMC on the
//! C output — as a child process under a time limit, reads its answer and
//! trace back in terms of the input, and replays a violation on the oracle
//! before it is reported. Nothing here prints; `render` makes text.

use crate::backend::c::{self as cback, COptions};
use crate::bmc::{self, Goal};
use crate::config::{Config, Method, Property};
pub use crate::deadline::Cancel;
use crate::diag::{Diagnostic, Result};
use crate::driver::{Built, MethodInfo, Until};
use crate::ir::trace::{Step, TraceWhat};
use crate::ir::{AssertKind, DataModel, Program};
use crate::oracle::ReplayOutcome;
use crate::passes;
use crate::passes::lal_reps::LrInfo;
use crate::passes::slice::SliceInfo;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod cbmc;
mod confirm;
mod process;
mod render;
mod search;
mod smt;

use cbmc::check_cbmc;
use confirm::{confirm, read_line};
pub use process::find_tool;
use process::{first_line, run, timeout_text, tool};
pub use render::{render, render_json, report_json, verdict_line, verdict_word};
pub use search::{AUTO_BUDGET, Bounds, Grow, SearchStep, check_auto};
use smt::check_smt;
pub use smt::{Answer, solve};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Z3,
    Cvc5,
    Bitwuzla,
    Cbmc,
}

impl Backend {
    pub const ALL: [Backend; 4] = [Backend::Z3, Backend::Cvc5, Backend::Bitwuzla, Backend::Cbmc];

    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    /// `--backend auto`: the installed checkers in the order they answer
    /// most tasks soonest (scripts/results/bench-quick-solvers.md), as many
    /// as `jobs`. `int`: only those with SMT integers.
    pub fn portfolio(jobs: usize, int: bool) -> Result<Vec<Backend>> {
        let best = [Backend::Bitwuzla, Backend::Cbmc, Backend::Z3, Backend::Cvc5];
        let usable: Vec<Backend> = best
            .into_iter()
            .filter(|b| !int || matches!(b, Backend::Z3 | Backend::Cvc5))
            .filter(|b| find_tool(b.name()).is_some())
            .take(jobs.max(1))
            .collect();
        if usable.is_empty() {
            return Err(Diagnostic::input(
                "no checker found (run scripts/install-checkers, or put z3, cvc5, bitwuzla or cbmc on PATH)",
            ));
        }
        Ok(usable)
    }

    pub fn name(self) -> &'static str {
        match self {
            Backend::Z3 => "z3",
            Backend::Cvc5 => "cvc5",
            Backend::Bitwuzla => "bitwuzla",
            Backend::Cbmc => "cbmc",
        }
    }
}

#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Run at once on each query (a portfolio): the first definite answer
    /// wins and stops the others. Never empty.
    pub backends: Vec<Backend>,
    pub timeout: Option<Duration>,
    pub unwinding_assertions: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    Safe,
    Violation,
    Unknown(String),
    BoundTooSmall,
}

impl Outcome {
    /// An answer a portfolio can stop on.
    pub fn is_definite(&self) -> bool {
        !matches!(self, Outcome::Unknown(_))
    }

    pub fn exit_code(&self) -> u8 {
        match self {
            Outcome::Safe => 0,
            Outcome::Violation => 10,
            Outcome::Unknown(_) => 20,
            Outcome::BoundTooSmall => 30,
        }
    }
}

/// A violation as a run of the input, confirmed by the oracle.
pub struct Concurrent {
    /// Where the assertion fails: `file:line:col`.
    pub at: String,
    /// The failing assertion's source line, when readable.
    pub source_line: Option<String>,
    pub thread: u32,
    pub thread_func: String,
    /// The (round, thread) segments, as text and as JSON.
    pub text: String,
    pub json: serde_json::Value,
    /// Race mode: the two conflicting accesses, first recorded first.
    pub race: Option<[RaceAccess; 2]>,
    /// A deadlock: each waiting thread, where and on what.
    pub deadlock: Option<Vec<String>>,
    /// A violation other than an assertion or a deadlock, as the oracle
    /// words it, its property first (`locks: unlock of m, which is not
    /// locked`, `overflow: 2147483647 + 1 is 2147483648, ...`).
    pub said: Option<String>,
    /// The confirmed run, step by step, and each thread's start routine
    /// (for witnesses).
    pub steps: Vec<crate::oracle::Step>,
    pub names: std::collections::BTreeMap<u32, String>,
}

#[derive(Clone, Debug)]
pub struct RaceAccess {
    pub thread: u32,
    pub thread_func: String,
    /// `file:line:col`.
    pub at: String,
    pub write: bool,
    pub source_line: Option<String>,
}

pub struct Report {
    pub outcome: Outcome,
    pub backend: Backend,
    pub trace: Vec<Step>,
    /// The bounds of the answer: those checked, or with `--bounds auto`
    /// the largest proven safe (or where the violation was found).
    pub bounds: Bounds,
    /// `--bounds auto`: every step of the search, in order.
    pub steps: Vec<SearchStep>,
    pub seconds: f64,
    /// The source line of the failing assertion (or cut), when readable.
    pub source_line: Option<String>,
    /// Lal-Reps: the run of the input the violation stands for.
    pub concurrent: Option<Concurrent>,
    /// `--method none`: where the oracle's replay failed (`file:line:col`)
    /// and, for a property other than assertions, what it said.
    pub failed_at: Option<(String, Option<String>)>,
    /// `--track`: what slicing did.
    pub slice: Option<SliceInfo>,
    /// Lal-Reps: the context-switch points of the sequential program.
    pub switch_points: Option<usize>,
    /// `--track`: the counterexample did not replay on the input; the
    /// sliced classes its havocs read, nearest to the failure first, each
    /// with whether its value could decide something.
    pub spurious: Option<Vec<(String, bool)>>,
    /// With `spurious` (Lal-Reps): the pass's facts, to replay the
    /// counterexample on other slicings (`rules_out`).
    pub lr: Option<LrInfo>,
}

/// What a back end can check: `--method none` hands the input itself to
/// a sequential checker, which must not see threads (CBMC would run them
/// with its own concurrency model, which is not what `none` means) or
/// mutex kinds (CBMC's model has none).
fn suits_sequential_checker(p: &Program) -> Result<()> {
    if let Some((op, loc)) = bmc::thread_op(p) {
        let mut d = Diagnostic::unsupported(format!(
            "{} in a sequential program (use --method lal-reps or --method kiss for threads)",
            op.c_name()
        ));
        d.pos = Some((p.file_name(loc.file).to_string(), loc.line, loc.col));
        return Err(d);
    }
    if p.pthread.mutex_kinds {
        return Err(Diagnostic::unsupported(
            "recursive or error-checking mutexes in a sequential program (use --method lal-reps or --method kiss)",
        ));
    }
    Ok(())
}

/// The configuration `--unwinding-assertions` runs with. The
/// sequentializations stop a thread at a bound and no query asks whether
/// one did, so a safe answer would claim a proof it does not have: they
/// are refused by name. A program that uses no thread operation and asks
/// nothing only they check is the input itself, checked as `--method
/// none` does.
pub(super) fn unwinding_config(input: &str, cfg: &Config, opts: &CheckOptions) -> Result<Config> {
    if !opts.unwinding_assertions || cfg.method == Method::None {
        return Ok(cfg.clone());
    }
    let p = crate::driver::load(input, cfg)?;
    let threads = crate::ir::sites::thread_sites(&p).map_or(true, |s| !s.is_empty());
    let sequential = !threads
        && crate::ir::thread_op(&p).is_none()
        && !p.pthread.mutex_kinds
        && !matches!(cfg.property, Property::Race(_))
        && !cfg.property.deadlock()
        && !cfg.property.locks()
        && !cfg.property.locks_exit();
    if !sequential {
        let m = match cfg.method {
            Method::Kiss => "kiss",
            _ => "lal-reps",
        };
        return Err(Diagnostic::unsupported(format!(
            "--unwinding-assertions with --method {m}: the sequentialization stops a thread at a bound, and no query asks whether a bound cut a run, so no answer could be a proof (drop --unwinding-assertions for bounded answers; without threads, --method none checks it)"
        )));
    }
    Ok(Config {
        method: Method::None,
        ..cfg.clone()
    })
}

pub fn check(input: &str, cfg: &Config, opts: &CheckOptions) -> Result<Report> {
    check_with(input, cfg, opts, &Cancel::default())
}

/// `check`, stopped early (an unknown) when `cancel` is.
pub fn check_with(
    input: &str,
    cfg: &Config,
    opts: &CheckOptions,
    cancel: &Cancel,
) -> Result<Report> {
    assert!(!opts.backends.is_empty(), "a portfolio has a member");
    let cfg = &unwinding_config(input, cfg, opts)?;
    if cfg.int {
        for b in &opts.backends {
            match b {
                Backend::Bitwuzla => {
                    return Err(Diagnostic::input(
                        "bitwuzla has no integer arithmetic: --int needs z3 or cvc5 (or drop --int)",
                    ));
                }
                Backend::Cbmc => {
                    return Err(Diagnostic::input(
                        "--int chooses the SMT encoding; the cbmc backend checks the C output (drop --int)",
                    ));
                }
                _ => {}
            }
        }
    }
    let b = crate::driver::build(input, cfg, Until::Sequential, true)?;
    if cfg.method == Method::None {
        suits_sequential_checker(&b.prog)?;
    }
    let t0 = Instant::now();
    let (mut outcome, mut trace, backend) = run_portfolio(&b, input, cfg, opts, cancel)?;
    let sliced = b.slice.clone();
    let mut spurious = None;
    let (mut failed_at, mut source_line) = (None, None);
    let concurrent = match (&outcome, &b.method) {
        (Outcome::Violation, MethodInfo::LalReps(_) | MethodInfo::Kiss(_)) => {
            match confirm(&b, cfg, &trace, sliced.is_none())? {
                Ok(c) => Some(c),
                Err(why) if sliced.is_some() => {
                    // Concretisation failed: the havocs chose values the
                    // input cannot produce on this schedule.
                    let sl = sliced.as_ref().unwrap();
                    // Nearest to the failure first: the havocs before it
                    // backwards, then those after it (Lal-Reps runs later
                    // threads after the failing one).
                    let at = trace
                        .iter()
                        .position(|s| match &s.what {
                            TraceWhat::Fail(_) => true,
                            TraceWhat::Assign(l, v) => {
                                l == passes::lal_reps::ERROR && v.int.is_some_and(|x| x > 0)
                            }
                            _ => false,
                        })
                        .unwrap_or(trace.len());
                    let havoc = |s: &Step| match &s.what {
                        TraceWhat::Call(f) => sl
                            .class_of_havoc(f)
                            .map(|c| (c.to_string(), sl.relevant.contains(f))),
                        _ => None,
                    };
                    let havocs: Vec<(String, bool)> = trace[..at]
                        .iter()
                        .rev()
                        .chain(&trace[at..])
                        .filter_map(havoc)
                        .collect();
                    outcome = Outcome::Unknown(format!(
                        "the counterexample of the sliced program does not replay on the input ({why}): spurious; track more regions or use `seqc refine`"
                    ));
                    spurious = Some(havocs);
                    None
                }
                Err(why) => {
                    return Err(Diagnostic::internal(format!(
                        "the backend's counterexample does not replay on the input: {why}"
                    )));
                }
            }
        }
        (Outcome::Violation, MethodInfo::None) => {
            // The sequential program's run on the oracle: the trace the
            // backend gave stays the one shown.
            match confirm(&b, cfg, &trace, true)? {
                Ok(c) => {
                    failed_at = Some((c.at, c.said));
                    source_line = c.source_line;
                }
                Err(why) => {
                    return Err(Diagnostic::internal(format!(
                        "the backend's counterexample does not replay on the input: {why}"
                    )));
                }
            }
            // Its assignments show the values (seqc's own bookkeeping, such
            // as memsafety's heap table, is not the input's); the draws
            // were for the replay.
            trace.retain(|s| match &s.what {
                TraceWhat::Nondet(_) => false,
                TraceWhat::Assign(l, _) => !l.starts_with("__seqc"),
                _ => true,
            });
            None
        }
        _ => None,
    };
    // A memtrack check that sees only some leaks proves nothing.
    if outcome == Outcome::Safe
        && let Some(why) = &b.prog.memtrack_partial
    {
        outcome = Outcome::Unknown(why.clone());
    }
    let source_line = match &concurrent {
        Some(c) => c.source_line.clone(),
        None if failed_at.is_some() => source_line,
        None => trace.last().and_then(|s| read_line(&s.file, s.line)),
    };
    Ok(Report {
        outcome,
        backend,
        trace,
        bounds: Bounds::of(cfg),
        steps: Vec::new(),
        seconds: t0.elapsed().as_secs_f64(),
        source_line,
        concurrent,
        failed_at,
        switch_points: match &b.method {
            MethodInfo::LalReps(i) => Some(i.switch_points),
            _ => None,
        },
        lr: match (&spurious, &b.method) {
            (Some(_), MethodInfo::LalReps(i)) => Some(i.clone()),
            _ => None,
        },
        slice: sliced,
        spurious,
    })
}

/// An answer, its trace and the back end that gave it.
type Answered = (Outcome, Vec<Step>, Backend);

/// Every back end of `opts.backends` at once on `b`: the SMT solvers on
/// one encoding, CBMC on the C output. The first definite answer wins and
/// stops the others. With none: an unknown naming every member's reason,
/// or the first error when no member ran.
fn run_portfolio(
    b: &Built,
    input: &str,
    cfg: &Config,
    opts: &CheckOptions,
    cancel: &Cancel,
) -> Result<Answered> {
    let smt: Vec<Backend> = opts
        .backends
        .iter()
        .copied()
        .filter(|&b| b != Backend::Cbmc)
        .collect();
    let cbmc = opts.backends.contains(&Backend::Cbmc);
    let via_cbmc = |c: &Cancel| check_cbmc(b, cfg, opts, c).map(|(o, t)| (o, t, Backend::Cbmc));
    if smt.is_empty() {
        return via_cbmc(cancel);
    }
    if !cbmc {
        return check_smt(b, input, cfg, opts, &smt, cancel);
    }
    let mine = cancel.child();
    let (m1, m2) = (mine.clone(), mine.clone());
    let smt = &smt;
    let tasks: Vec<crate::par::Task<'_, Result<Answered>>> = vec![
        Box::new(move || check_smt(b, input, cfg, opts, smt, &m1)),
        Box::new(move || via_cbmc(&m2)),
    ];
    let (results, winner) = crate::par::race(
        tasks,
        |r| matches!(r, Ok((o, _, _)) if o.is_definite()),
        || mine.cancel(),
    );
    if let Some(i) = winner {
        return results.into_iter().nth(i).unwrap();
    }
    if results.iter().all(Result::is_err) {
        return results.into_iter().next().unwrap();
    }
    let why: Vec<String> = results
        .iter()
        .map(|r| match r {
            Ok((Outcome::Unknown(w), _, _)) => w.clone(),
            Ok(_) => unreachable!("a definite answer wins"),
            Err(d) => d.message.clone(),
        })
        .collect();
    let first = results.iter().find_map(|r| r.as_ref().ok().map(|x| x.2));
    Ok((
        Outcome::Unknown(why.join("; ")),
        Vec::new(),
        first.unwrap_or(opts.backends[0]),
    ))
}

/// Would tracking `more` as well rule out a spurious counterexample of
/// `cfg.track` (STORM's test of a candidate set)? Replays it, guided, on
/// the program sliced for `cfg.track` plus `more`, with the havocs of
/// classes still sliced returning what the trace gave: if the failure no
/// longer happens, the set rules it out. `None`: cannot tell (KISS, or a
/// trace without havoc values, as CBMC's).
pub fn rules_out(
    input: &str,
    cfg: &Config,
    report: &Report,
    more: &[String],
) -> Result<Option<bool>> {
    let (Some(lr), Some(sl)) = (&report.lr, &report.slice) else {
        return Ok(None);
    };
    let mut track = cfg.track.clone().unwrap_or_default();
    track.extend(more.iter().cloned());
    let c = Config {
        track: Some(track),
        ..cfg.clone()
    };
    let b = crate::driver::build(input, &c, Until::Sliced, false)?;
    let (p, Some(sl2)) = (b.prog, b.slice) else {
        return Ok(None);
    };
    let still: std::collections::BTreeSet<&str> = sl2.sliced.iter().map(String::as_str).collect();
    let keep = |f: &str| sl.class_of_havoc(f).is_some_and(|c| still.contains(c));
    // The output's sink round: K rounds and main's final context below it.
    let sink = lr.rounds + 1;
    let made = crate::replay::schedule(&report.trace, lr, sink, &p.files, true, Some(&keep));
    let (Ok((sched, _)), Ok(prep)) = (made, crate::oracle::prepare(&p)) else {
        return Ok(None);
    };
    let bounds = crate::oracle::Bounds {
        unwind: cfg.unwind,
        threads: cfg.threads,
        max_states: 100_000,
        ..Default::default()
    };
    Ok(match prep.replay(&bounds, &sched) {
        Ok(ReplayOutcome::Confirmed { .. }) => Some(false),
        Ok(ReplayOutcome::NotReproduced(_)) => Some(true),
        Err(_) => None,
    })
}
