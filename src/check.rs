//! `seqc check`: runs a backend on the sequential program — an SMT solver
//! on the script of `bmc`, or CBMC on the C output — as a child process
//! under a time limit, and reads its answer and trace back in terms of
//! the input. Nothing here prints; `render` and `render_json` make text.

use crate::backend::c::{self as cback, COptions};
use crate::bmc::{self, Goal, TraceWhat};
use crate::config::{Config, Method};
use crate::diag::{Diagnostic, Result};
use crate::ir::{AssertKind, DataModel, Program};
use crate::oracle::ReplayOutcome;
use crate::passes;
use crate::passes::kiss::KissInfo;
use crate::passes::lal_reps::LrInfo;
use crate::passes::slice::SliceInfo;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Z3,
    Cvc5,
    Bitwuzla,
    Cbmc,
}

impl Backend {
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
    pub backend: Backend,
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
    pub fn exit_code(&self) -> u8 {
        match self {
            Outcome::Safe => 0,
            Outcome::Violation => 10,
            Outcome::Unknown(_) => 20,
            Outcome::BoundTooSmall => 30,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub depth: u32,
    pub what: TraceWhat,
    /// Lal-Reps: (round, thread slot) of the step.
    pub ctx: Option<(u32, u32)>,
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
    pub unwind: u32,
    pub seconds: f64,
    /// The source line of the failing assertion (or cut), when readable.
    pub source_line: Option<String>,
    /// Lal-Reps: the run of the input the violation stands for.
    pub concurrent: Option<Concurrent>,
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

/// What a sequentialization tells the replay about its output.
pub enum SeqInfo {
    LalReps(LrInfo),
    Kiss(KissInfo),
}

/// Loads the input and makes the sequential program a backend checks
/// (with the pass's facts for the replay).
pub fn sequential(input: &str, cfg: &Config) -> Result<(Program, Option<SeqInfo>)> {
    sequential_sliced(input, cfg).map(|(p, i, _)| (p, i))
}

/// `sequential`, with what field slicing did (`--track`).
pub fn sequential_sliced(
    input: &str,
    cfg: &Config,
) -> Result<(Program, Option<SeqInfo>, Option<SliceInfo>)> {
    crate::driver::race_needs_kiss(cfg)?;
    if cfg.method == Method::None {
        let p = crate::driver::load(input, cfg)?;
        // A sequential checker must not see threads: CBMC would run them
        // with its own concurrency model, which is not what `none` means.
        if let Some((op, loc)) = bmc::thread_op(&p) {
            let mut d = Diagnostic::unsupported(format!(
                "{} in a sequential program (use --method lal-reps or --method kiss for threads)",
                op.c_name()
            ));
            d.pos = Some((p.file_name(loc.file).to_string(), loc.line, loc.col));
            return Err(d);
        }
        if p.pthread.mutex_kinds {
            // CBMC's own mutex model has no kinds either.
            return Err(Diagnostic::unsupported(
                "recursive or error-checking mutexes in a sequential program (use --method lal-reps or --method kiss)",
            ));
        }
    }
    let (p, sl) = crate::driver::front(input, cfg)?;
    match cfg.method {
        Method::None => Ok((p, None, sl)),
        Method::Kiss => {
            let p = passes::bound::bound(p, cfg.unwind, passes::bound::Cut::Stop);
            let (p, info) = crate::driver::kiss(p, cfg)?;
            Ok((p, Some(SeqInfo::Kiss(info)), sl))
        }
        Method::LalReps => {
            let p = passes::bound::bound(p, cfg.unwind, passes::bound::Cut::Stop);
            let (p, info) = crate::driver::lal_reps(p, cfg)?;
            Ok((p, Some(SeqInfo::LalReps(info)), sl))
        }
    }
}

/// The `(set-info :source ...)` text: input and options.
pub fn source_info(input: &str, cfg: &Config) -> String {
    format!(
        "seqc {}: {input} {} --unwind {}{}",
        env!("CARGO_PKG_VERSION"),
        cfg.options_text,
        cfg.unwind,
        if cfg.int { " --int" } else { "" }
    )
}

pub fn check(input: &str, cfg: &Config, opts: &CheckOptions) -> Result<Report> {
    if cfg.int {
        match opts.backend {
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
    let (p, info, sliced) = sequential_sliced(input, cfg)?;
    let t0 = Instant::now();
    let (mut outcome, trace) = match opts.backend {
        Backend::Cbmc => check_cbmc(&p, cfg, opts)?,
        b => check_smt(&p, input, cfg, opts, b)?,
    };
    let k = p.rounds.as_ref().map_or(0, |r| r.k);
    let mut spurious = None;
    let concurrent = match (&outcome, &info) {
        (Outcome::Violation, Some(info)) => {
            match confirm(input, cfg, &trace, info, k, sliced.is_none())? {
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
                                l == passes::lal_reps::ERROR
                                    && crate::replay::int_value(v).is_some_and(|x| x > 0)
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
        _ => None,
    };
    let source_line = match &concurrent {
        Some(c) => c.source_line.clone(),
        None => trace.last().and_then(|s| read_line(&s.file, s.line)),
    };
    Ok(Report {
        outcome,
        backend: opts.backend,
        trace,
        unwind: cfg.unwind,
        seconds: t0.elapsed().as_secs_f64(),
        source_line,
        concurrent,
        switch_points: match &info {
            Some(SeqInfo::LalReps(i)) => Some(i.switch_points),
            _ => None,
        },
        lr: match (&spurious, &info) {
            (Some(_), Some(SeqInfo::LalReps(i))) => Some(i.clone()),
            _ => None,
        },
        slice: sliced,
        spurious,
    })
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
    let (p, sl2) = crate::driver::front(input, &c)?;
    let Some(sl2) = sl2 else { return Ok(None) };
    let still: std::collections::BTreeSet<&str> = sl2.sliced.iter().map(String::as_str).collect();
    let keep = |f: &str| sl.class_of_havoc(f).is_some_and(|c| still.contains(c));
    let k = cfg.rounds.max(1);
    let made = crate::replay::schedule(&report.trace, lr, k, &p.files, true, Some(&keep));
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

/// Replays a counterexample of a sequentialization on the oracle's
/// interpreter of the input. A violation that does not replay is seqc's
/// error, never a bug of the input (DESIGN.md §3 rule 1).
fn confirm(
    input: &str,
    cfg: &Config,
    trace: &[Step],
    info: &SeqInfo,
    k: u32,
    search: bool,
) -> Result<std::result::Result<Concurrent, String>> {
    let prog = crate::driver::load(input, cfg)?;
    let made = |guided: bool| {
        match info {
            SeqInfo::LalReps(info) => {
                crate::replay::schedule(trace, info, k, &prog.files, guided, None)
            }
            SeqInfo::Kiss(info) => crate::replay::kiss_schedule(trace, info, &prog),
        }
        .map_err(|w| Diagnostic::internal(format!("the counterexample makes no schedule: {w}")))
    };
    let (mut sched, loc) = made(true)?;
    let prep = crate::oracle::prepare(&prog).map_err(|d| {
        Diagnostic::internal(format!(
            "the counterexample cannot be replayed: the oracle refuses the input ({})",
            d.message
        ))
    })?;
    let mut bounds = crate::oracle::Bounds {
        unwind: cfg.unwind,
        threads: cfg.threads,
        ..Default::default()
    };
    if !search {
        // A sliced program's counterexample is often spurious. The guided
        // replay exhausts quickly; the budget is a backstop, past which it
        // counts as spurious (refine then tracks more).
        bounds.max_states = 100_000;
    }
    let replay = |s: &crate::oracle::Schedule| {
        prep.replay(&bounds, s).map_err(|d| {
            Diagnostic::internal(format!(
                "the counterexample cannot be replayed: {}",
                d.message
            ))
        })
    };
    let mut outcome = replay(&sched)?;
    if let (ReplayOutcome::NotReproduced(_), true, SeqInfo::LalReps(_)) = (&outcome, search, info) {
        // The trace's own switch lines did not lead there (a switch line
        // the oracle places differently, say): any segment lengths. A
        // sliced program's trace must replay along its own path (STORM's
        // concretisation), so it gets no second try.
        sched = made(false)?.0;
        outcome = replay(&sched)?;
    }
    if let (ReplayOutcome::NotReproduced(_), false) = (&outcome, sched.nondet.is_empty()) {
        // The values a backend drew may not line up with the oracle's
        // draws (an uninitialised read, say): let the replay choose them.
        sched.nondet.clear();
        outcome = replay(&sched)?;
    }
    if let (ReplayOutcome::NotReproduced(_), Some(((ta, la), (tb, lb)))) = (&outcome, sched.race) {
        // The oracle's own search for a race between the same two lines.
        let line = |a: crate::ir::Loc, b: crate::ir::Loc| a.file == b.file && a.line == b.line;
        if let Ok(x) = prep.races(&bounds)
            && let Some(r) = x.races.into_iter().find(|r| {
                (line(r.a.loc, la) && line(r.b.loc, lb)) || (line(r.a.loc, lb) && line(r.b.loc, la))
            })
        {
            let _ = (ta, tb);
            outcome = ReplayOutcome::Confirmed {
                loc: lb,
                trace: r.trace,
                names: x.thread_funcs,
            };
        }
    }
    if let (true, ReplayOutcome::NotReproduced(_), None) = (search, &outcome, sched.race) {
        // The schedule read off the trace did not reproduce the failure.
        // The oracle's own search for it, within K rounds (KISS: any
        // number), is still an independent confirmation that the bug is
        // real.
        let caps = crate::oracle::MeasureCaps {
            rounds: if k == 0 { 64 } else { k },
            switches: 12,
        };
        if let Ok(x) = prep.explore(&bounds, Some(caps))
            && let Some(f) = x
                .failures
                .into_iter()
                .find(|f| f.loc == loc && (k == 0 || f.rounds.is_some_and(|r| r <= k)))
        {
            outcome = ReplayOutcome::Confirmed {
                loc: f.loc,
                trace: f.trace,
                names: x.thread_funcs,
            };
        }
    }
    match outcome {
        ReplayOutcome::Confirmed {
            loc: at,
            trace,
            names,
        } => {
            let thread = trace.last().map_or(0, |s| s.thread);
            let text = crate::oracle::render_trace(&prog, &trace, &names);
            let json = serde_json::json!(
                trace
                    .iter()
                    .map(|s| serde_json::json!({
                        "thread": s.thread,
                        "round": s.round,
                        "events": s.events.iter().map(|e| serde_json::json!({
                            "file": prog.file_name(e.loc.file),
                            "line": e.loc.line,
                            "what": e.what,
                        })).collect::<Vec<_>>(),
                    }))
                    .collect::<Vec<_>>()
            );
            let race = sched.race.map(|((ta, la), (tb, lb))| {
                let sites = match info {
                    SeqInfo::Kiss(k) => k.race_sites.clone().unwrap_or_default(),
                    SeqInfo::LalReps(_) => Vec::new(),
                };
                let side = |t: u32, l: crate::ir::Loc| RaceAccess {
                    thread: t,
                    thread_func: names.get(&t).cloned().unwrap_or_default(),
                    at: prog.describe(l),
                    write: sites.iter().any(|s| s.loc == l && s.write),
                    source_line: read_line(prog.file_name(l.file), l.line),
                };
                [side(ta, la), side(tb, lb)]
            });
            let thread = race.as_ref().map_or(thread, |r| r[1].thread);
            Ok(Ok(Concurrent {
                race,
                at: format!("{}:{}:{}", prog.file_name(at.file), at.line, at.col),
                source_line: read_line(prog.file_name(at.file), at.line),
                thread,
                thread_func: names.get(&thread).cloned().unwrap_or_default(),
                text,
                json,
            }))
        }
        ReplayOutcome::NotReproduced(why) => Ok(Err(format!("{}: {why}", prog.describe(loc)))),
    }
}

fn read_line(file: &str, line: u32) -> Option<String> {
    // The text seqc read, not the file again (a pipe reads once).
    let text = crate::frontend::preprocess::source_text(file)?;
    text.lines()
        .nth(line.checked_sub(1)? as usize)
        .map(|l| l.trim().to_string())
}

fn steps(p: &Program, t: Vec<bmc::TraceStep>) -> Vec<Step> {
    t.into_iter()
        .map(|s| Step {
            file: p.file_name(s.loc.file).to_string(),
            line: s.loc.line,
            col: s.loc.col,
            depth: s.depth,
            what: s.what,
            ctx: s.ctx,
        })
        .collect()
}

fn check_smt(
    p: &Program,
    input: &str,
    cfg: &Config,
    opts: &CheckOptions,
    b: Backend,
) -> Result<(Outcome, Vec<Step>)> {
    // One budget for encoding and solving together.
    let deadline = opts.timeout.map(|t| std::time::Instant::now() + t);
    let enc = bmc::encode(
        p,
        &bmc::Options {
            deadline,
            // A sequentialization's output bounds its loops itself.
            unwind: if p.rounds.is_some() {
                cfg.unwind + 2
            } else if p.thread_id.is_some() {
                crate::driver::kiss_unwind(p, cfg)
            } else {
                cfg.unwind
            },
            unwinding_assertions: opts.unwinding_assertions,
            int: cfg.int,
            source: source_info(input, cfg),
        },
    );
    let enc = match enc {
        Err(d) if d.message.starts_with(bmc::GAVE_UP) => {
            return Ok((
                Outcome::Unknown(format!("timed out: {}", d.message)),
                Vec::new(),
            ));
        }
        e => e?,
    };
    let goals: &[Goal] = if opts.unwinding_assertions {
        &[Goal::Violation, Goal::BoundTooSmall]
    } else {
        &[Goal::Violation]
    };
    for &goal in goals {
        let script = enc.script(goal, None, true);
        let left = deadline.map(|d| {
            d.saturating_duration_since(std::time::Instant::now())
                .max(std::time::Duration::from_secs(1))
        });
        match solve(b, &script, left)? {
            Answer::Sat(values) => {
                let trace = steps(p, enc.trace(p, goal, &values));
                let o = match goal {
                    Goal::Violation => Outcome::Violation,
                    Goal::BoundTooSmall => Outcome::BoundTooSmall,
                };
                return Ok((o, trace));
            }
            Answer::Unsat => continue,
            Answer::Unknown(why) => return Ok((Outcome::Unknown(why), Vec::new())),
        }
    }
    Ok((Outcome::Safe, Vec::new()))
}

pub enum Answer {
    Sat(Vec<String>),
    Unsat,
    Unknown(String),
}

/// Where the external tools are: `$SEQC_TOOLS/bin`, then
/// `~/.local/seqc-tools/bin` (what scripts/install-checkers fills), then PATH.
pub fn find_tool(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(t) = std::env::var_os("SEQC_TOOLS") {
        dirs.push(Path::new(&t).join("bin"));
    }
    if let Some(h) = std::env::var_os("HOME") {
        dirs.push(Path::new(&h).join(".local/seqc-tools/bin"));
    }
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter().map(|d| d.join(name)).find(|c| c.is_file())
}

fn tool(name: &str) -> Result<PathBuf> {
    find_tool(name).ok_or_else(|| {
        Diagnostic::input(format!(
            "'{name}' not found (run scripts/install-checkers, or put it on PATH)"
        ))
    })
}

struct RunOut {
    stdout: String,
    stderr: String,
    timed_out: bool,
    /// The signal that ended the tool, if one did (and not our timeout).
    signal: Option<i32>,
}

impl RunOut {
    /// Why the tool gave no answer when a signal ended it: its output is
    /// cut short then, and reading it would blame the output instead.
    fn killed(&self, name: &str) -> Option<String> {
        let sig = self.signal?;
        let why = match sig {
            9 => " (SIGKILL: usually the kernel's out-of-memory killer)",
            6 => " (SIGABRT)",
            11 => " (SIGSEGV)",
            _ => "",
        };
        Some(format!("{name} was killed by signal {sig}{why}"))
    }
}

/// Runs a tool in a process group of its own (see `cleanup`) under
/// `timeout`, cut to what is left of `--timeout`; a timeout kills the
/// whole group, the tool's own children with it.
fn run(cmd: &Path, args: &[&str], timeout: Option<Duration>) -> Result<RunOut> {
    let timeout = crate::deadline::cap(timeout);
    let mut command = Command::new(cmd);
    command
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // An orphan still ends: a few seconds of CPU past the time limit.
    let limits = crate::cleanup::Limits {
        cpu_seconds: timeout.map(|t| t.as_secs() + 5),
        memory_bytes: None,
    };
    let mut running = crate::cleanup::spawn(&mut command, limits)
        .map_err(|e| Diagnostic::input(format!("cannot run '{}': {e}", cmd.display())))?;
    let child = &mut running.child;
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let ho = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let he = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let mut signal = None;
    loop {
        match running.child.try_wait() {
            Ok(Some(st)) => {
                signal = exit_signal(&st);
                // The CPU limit is a time limit too.
                if signal == Some(libc::SIGXCPU) {
                    timed_out = true;
                    signal = None;
                }
                break;
            }
            Ok(None) => {}
            Err(e) => {
                return Err(Diagnostic::input(format!(
                    "waiting for '{}': {e}",
                    cmd.display()
                )));
            }
        }
        if timeout.is_some_and(|t| start.elapsed() > t) {
            running.kill_group();
            let _ = running.child.wait();
            timed_out = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // Whatever the tool started and left behind goes with its group.
    drop(running);
    Ok(RunOut {
        stdout: ho.join().unwrap_or_default(),
        stderr: he.join().unwrap_or_default(),
        timed_out,
        signal,
    })
}

#[cfg(unix)]
fn exit_signal(st: &std::process::ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(st)
}

#[cfg(not(unix))]
fn exit_signal(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

/// How long a run was allowed: `--timeout` when it bounds the command,
/// else the run's own limit.
fn timeout_text(t: Option<Duration>) -> String {
    match crate::deadline::get() {
        Some((_, total)) => format!("{} s (--timeout bounds the whole command)", total.as_secs()),
        None => format!("{} s", t.map(|t| t.as_secs_f64()).unwrap_or(0.0)),
    }
}

/// Runs a solver on a script (with `(get-value ...)` after `(check-sat)`).
pub fn solve(b: Backend, script: &str, timeout: Option<Duration>) -> Result<Answer> {
    let dir = crate::cleanup::TempDir::new(".seqc")
        .map_err(|e| Diagnostic::input(format!("temporary directory: {e}")))?;
    let file = dir.path().join("query.smt2");
    std::fs::write(&file, script)
        .map_err(|e| Diagnostic::input(format!("writing the query: {e}")))?;
    let f = crate::cleanup::arg_path(&file);
    let (exe, args): (PathBuf, Vec<&str>) = match b {
        Backend::Z3 => (tool("z3")?, vec!["-smt2", &f]),
        Backend::Cvc5 => (tool("cvc5")?, vec!["--lang", "smt2", &f]),
        Backend::Bitwuzla => (tool("bitwuzla")?, vec![&f]),
        Backend::Cbmc => unreachable!("cbmc is not an SMT solver"),
    };
    let out = run(&exe, &args, timeout)?;
    if out.timed_out {
        return Ok(Answer::Unknown(format!(
            "{} timed out after {}",
            b.name(),
            timeout_text(timeout)
        )));
    }
    if let Some(why) = out.killed(b.name()) {
        return Ok(Answer::Unknown(why));
    }
    let mut lines = out.stdout.lines().filter(|l| !l.trim().is_empty());
    match lines.next().map(str::trim) {
        Some("sat") => {
            let rest: String = out
                .stdout
                .split_once("sat")
                .map(|x| x.1)
                .unwrap_or("")
                .to_string();
            match parse_values(&rest) {
                Some(v) => Ok(Answer::Sat(v)),
                None => Ok(Answer::Unknown(format!(
                    "{} answered sat but its model could not be read: {}",
                    b.name(),
                    first_line(&rest)
                ))),
            }
        }
        Some("unsat") => Ok(Answer::Unsat),
        Some("unknown") => Ok(Answer::Unknown(format!("{} answered unknown", b.name()))),
        other => Ok(Answer::Unknown(format!(
            "{} failed: {}",
            b.name(),
            first_line(other.unwrap_or(out.stderr.trim()))
        ))),
    }
}

fn first_line(s: &str) -> String {
    s.trim()
        .lines()
        .next()
        .unwrap_or("no output")
        .chars()
        .take(200)
        .collect()
}

enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

impl Sx {
    fn text(&self) -> String {
        match self {
            Sx::Atom(a) => a.clone(),
            Sx::List(v) => format!("({})", v.iter().map(Sx::text).collect::<Vec<_>>().join(" ")),
        }
    }
}

fn parse_sx(s: &str) -> Option<Vec<Sx>> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut stack: Vec<Vec<Sx>> = vec![Vec::new()];
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' => {
                stack.push(Vec::new());
                i += 1;
            }
            b')' => {
                let l = stack.pop()?;
                stack.last_mut()?.push(Sx::List(l));
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            b'|' => {
                let j = s[i + 1..].find('|')? + i + 1;
                stack.last_mut()?.push(Sx::Atom(s[i..=j].to_string()));
                i = j + 1;
            }
            b'"' => {
                let j = s[i + 1..].find('"')? + i + 1;
                stack.last_mut()?.push(Sx::Atom(s[i..=j].to_string()));
                i = j + 1;
            }
            _ => {
                let j = s[i..]
                    .find(|ch: char| ch.is_ascii_whitespace() || ch == '(' || ch == ')')
                    .map(|k| k + i)
                    .unwrap_or(b.len());
                stack.last_mut()?.push(Sx::Atom(s[i..j].to_string()));
                i = j;
            }
        }
    }
    if stack.len() != 1 {
        return None;
    }
    stack.pop()
}

/// The values of a `(get-value ...)` answer, in order.
fn parse_values(s: &str) -> Option<Vec<String>> {
    let top = parse_sx(s)?;
    let Some(Sx::List(pairs)) = top.into_iter().next() else {
        // No get-value (nothing to ask): an empty model.
        return Some(Vec::new());
    };
    pairs
        .iter()
        .map(|p| match p {
            Sx::List(v) if v.len() == 2 => Some(v[1].text()),
            _ => None,
        })
        .collect()
}

// ---- the C route -----------------------------------------------------

fn check_cbmc(p: &Program, cfg: &Config, opts: &CheckOptions) -> Result<(Outcome, Vec<Step>)> {
    let exe = tool("cbmc")?;
    let cuts: &[passes::bound::Cut] = if opts.unwinding_assertions {
        &[passes::bound::Cut::Assume, passes::bound::Cut::Assert]
    } else {
        &[passes::bound::Cut::Assume]
    };
    let sequentialized = p.thread_id.is_some();
    let cuts = if sequentialized {
        &[passes::bound::Cut::Stop][..]
    } else {
        cuts
    };
    let names = cbmc_names(&p.files);
    for &cut in cuts {
        // The Lal-Reps output is bounded already (cuts stop threads).
        let mut q = if sequentialized {
            p.clone()
        } else {
            passes::bound::bound(p.clone(), cfg.unwind, cut)
        };
        q.files.clone_from(&names);
        let c = cback::emit(
            &q,
            &COptions {
                dialect: cfg.dialect,
                options_text: cfg.options_text.clone(),
                version: env!("CARGO_PKG_VERSION").to_string(),
                ir_mode: false,
            },
        );
        let dir = crate::cleanup::TempDir::new(".seqc")
            .map_err(|e| Diagnostic::input(format!("temporary directory: {e}")))?;
        let file = dir.path().join("seqc_out.c");
        std::fs::write(&file, c)
            .map_err(|e| Diagnostic::input(format!("writing the C output: {e}")))?;
        let f = crate::cleanup::arg_path(&file);
        // seqc bounds every loop itself; CBMC's own bound only has to be
        // above it.
        let k = p.rounds.as_ref().map(|r| r.k).unwrap_or(0);
        let mut unwind = (cfg.unwind + 2).max(k + 3);
        if p.rounds.is_none() && p.thread_id.is_some() {
            unwind = crate::driver::kiss_unwind(p, cfg);
        }
        let unwind = unwind.to_string();
        let mut args = vec![
            f.as_str(),
            "--no-malloc-may-fail",
            "--no-standard-checks",
            "--unwind",
            &unwind,
            "--no-unwinding-assertions",
            "--json-ui",
            "--trace",
        ];
        if p.data_model == DataModel::Ilp32 {
            args.push("--32");
        }
        // CBMC counts recursion past the first frame: N active frames
        // are allowed by a limit of N - 1.
        let limits: Vec<String> = p
            .frame_limits
            .iter()
            .map(|&(f, n)| format!("{}:{}", p.func(f).name, n.saturating_sub(1)))
            .collect();
        let limits = limits.join(",");
        if !limits.is_empty() {
            args.extend(["--unwindset", limits.as_str()]);
        }
        if p.rounds.is_some() {
            // The sequentialized program's only property is main's check
            // of __seqc_error. CBMC adds function-pointer checks even with
            // --no-standard-checks, and a stopped thread may call through
            // a pointer read from the sink round's unconstrained copy.
            args.extend(["--property", "main.assertion.1"]);
        }
        let out = run(&exe, &args, opts.timeout)?;
        if out.timed_out {
            return Ok((
                Outcome::Unknown(format!(
                    "cbmc timed out after {}",
                    timeout_text(opts.timeout)
                )),
                Vec::new(),
            ));
        }
        if let Some(why) = out.killed("cbmc") {
            return Ok((Outcome::Unknown(why), Vec::new()));
        }
        match read_cbmc(p, &names, &out.stdout) {
            Ok(None) => continue,
            Ok(Some(mut trace)) => {
                let o = match cut {
                    passes::bound::Cut::Assume | passes::bound::Cut::Stop => Outcome::Violation,
                    passes::bound::Cut::Assert => {
                        // The failing check is seqc's own bound.
                        if let Some(last) = trace.last_mut() {
                            last.what = TraceWhat::Cut;
                        }
                        Outcome::BoundTooSmall
                    }
                };
                return Ok((o, trace));
            }
            Err(why) => {
                let why = if why.is_empty() {
                    first_line(&out.stderr)
                } else {
                    why
                };
                return Ok((Outcome::Unknown(format!("cbmc failed: {why}")), Vec::new()));
            }
        }
    }
    Ok((Outcome::Safe, Vec::new()))
}

/// The file names the C output gives CBMC: each path as it is when it is
/// plain, or `seqc_file_N.c` when it holds a quote, a backslash, a
/// control character or `??` (a trigraph) (CBMC 6.6 aborts on a `#line` whose path holds `"`);
/// the trace maps them back.
fn cbmc_names(files: &[String]) -> Vec<String> {
    files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if f.contains("??") || f.chars().any(|c| c == '"' || c == '\\' || c.is_control()) {
                format!("seqc_file_{i}.c")
            } else {
                f.clone()
            }
        })
        .collect()
}

/// CBMC's JSON answer: `Ok(None)` safe, `Ok(Some(trace))` a failure.
/// `names`: the file names CBMC saw (`cbmc_names`), one per `p.files`.
fn read_cbmc(
    p: &Program,
    names: &[String],
    out: &str,
) -> std::result::Result<Option<Vec<Step>>, String> {
    let v: serde_json::Value =
        serde_json::from_str(out).map_err(|e| format!("unreadable output ({e})"))?;
    let msgs = v.as_array().ok_or("unexpected output")?;
    let mut status = None;
    let mut errors = Vec::new();
    for m in msgs {
        if let Some(s) = m.get("cProverStatus").and_then(|s| s.as_str()) {
            status = Some(s.to_string());
        }
        if m.get("messageType").and_then(|t| t.as_str()) == Some("ERROR") {
            errors.push(m["messageText"].as_str().unwrap_or("").to_string());
        }
    }
    match status.as_deref() {
        Some("success") => return Ok(None),
        Some("failure") => {}
        _ => return Err(errors.join("; ")),
    }
    for m in msgs {
        let Some(results) = m.get("result").and_then(|r| r.as_array()) else {
            continue;
        };
        for r in results {
            if r.get("status").and_then(|s| s.as_str()) != Some("FAILURE") {
                continue;
            }
            let mut out = Vec::new();
            let mut depth = 0u32;
            // Lal-Reps: the round and slot in force, and the functions
            // on the stack (seqc's own code draws values too).
            let lr = p.thread_id.is_some();
            let mut ctx = (0u32, 0u32);
            let mut stack: Vec<String> = Vec::new();
            for s in r
                .get("trace")
                .and_then(|t| t.as_array())
                .into_iter()
                .flatten()
            {
                let loc = &s["sourceLocation"];
                let seen = loc["file"].as_str().unwrap_or("");
                let known = names.iter().position(|n| n == seen);
                let file = known.map_or(seen, |i| p.files[i].as_str());
                let line: u32 = loc["line"]
                    .as_str()
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(0);
                let col: u32 = loc["column"]
                    .as_str()
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(0);
                let ours = known.is_some();
                let d = depth;
                let c = lr.then_some(ctx);
                let step = |what| Step {
                    file: file.to_string(),
                    line,
                    col,
                    depth: d,
                    what,
                    ctx: c,
                };
                match s["stepType"].as_str().unwrap_or("") {
                    "function-call" => {
                        let name = s["function"]["displayName"].as_str().unwrap_or("");
                        stack.push(name.to_string());
                        if p.func_by_name(name)
                            .is_some_and(|f| p.func(f).body.is_some())
                        {
                            out.push(step(TraceWhat::Call(name.to_string())));
                            depth += 1;
                        }
                    }
                    "function-return" => {
                        let name = s["function"]["displayName"].as_str().unwrap_or("");
                        stack.pop();
                        if p.func_by_name(name)
                            .is_some_and(|f| p.func(f).body.is_some())
                        {
                            depth = depth.saturating_sub(1);
                            out.push(Step {
                                depth,
                                ..step(TraceWhat::Return(name.to_string(), None))
                            });
                        }
                    }
                    "assignment" => {
                        let lhs = s["lhs"].as_str().unwrap_or("");
                        let hidden = s["hidden"].as_bool().unwrap_or(false)
                            || s["internal"].as_bool().unwrap_or(false);
                        let val = s["value"]["data"].as_str().unwrap_or("?");
                        if lr && !hidden {
                            let n = crate::replay::int_value(val);
                            let seqc_code = stack.last().is_some_and(|f| {
                                f == "main" || (f.starts_with("__seqc_") && f != "__seqc_main")
                            });
                            match lhs {
                                "__seqc_r" => ctx.0 = n.unwrap_or(0) as u32,
                                "__seqc_tid" => ctx.1 = n.unwrap_or(0) as u32,
                                _ if lhs.starts_with("return_value___VERIFIER_nondet_")
                                    && !seqc_code =>
                                {
                                    if let Some(v) = n {
                                        out.push(step(TraceWhat::Nondet(v)));
                                    }
                                }
                                _ if lhs == crate::passes::lal_reps::ERROR
                                    || lhs == crate::passes::kiss::RACE_SITE
                                    || lhs.starts_with("__seqc_site_n[") =>
                                {
                                    out.push(step(TraceWhat::Assign(
                                        lhs.to_string(),
                                        val.to_string(),
                                    )));
                                }
                                _ => {}
                            }
                        }
                        if !ours
                            || hidden
                            || lhs.starts_with("__")
                            || lhs.contains('$')
                            || lhs.starts_with("return_value")
                        {
                            continue;
                        }
                        let val = s["value"]["data"].as_str().unwrap_or("?").to_string();
                        out.push(step(TraceWhat::Assign(lhs.to_string(), val)));
                    }
                    "failure" => {
                        out.push(step(TraceWhat::Fail(AssertKind::Assert)));
                        break;
                    }
                    _ => {}
                }
            }
            return Ok(Some(out));
        }
    }
    Err("cbmc reported a failure without a failing property".into())
}

// ---- output ----------------------------------------------------------

pub fn verdict_line(r: &Report) -> String {
    match &r.outcome {
        Outcome::Safe => format!(
            "VERIFICATION SUCCESSFUL (no violation within the bounds: unwind {})",
            r.unwind
        ),
        Outcome::Violation => "VERIFICATION FAILED".into(),
        Outcome::Unknown(w) => format!("VERIFICATION UNKNOWN: {w}"),
        Outcome::BoundTooSmall => "VERIFICATION INCONCLUSIVE: bound too small".into(),
    }
}

fn step_text(s: &Step) -> String {
    match &s.what {
        TraceWhat::Assign(l, v) => format!("{l} = {v}"),
        TraceWhat::Call(f) => format!("call {f}"),
        TraceWhat::Return(f, Some(v)) => format!("return {v} from {f}"),
        TraceWhat::Return(f, None) => format!("return from {f}"),
        TraceWhat::Fail(AssertKind::Assert) => "assertion fails".into(),
        TraceWhat::Fail(AssertKind::ReachError) => "error reached".into(),
        TraceWhat::Cut => "the unwinding bound cuts this path".to_string(),
        TraceWhat::Nondet(v) => format!("nondet value {v}"),
    }
}

pub fn render(r: &Report) -> String {
    let mut s = verdict_line(r);
    s.push('\n');
    if let Some(c) = &r.concurrent {
        if let Some(race) = &c.race {
            s.push_str("\ndata race:\n");
            for a in race {
                s.push_str(&format!(
                    "  {}: thread {} ({}) {}\n",
                    a.at,
                    a.thread,
                    a.thread_func,
                    if a.write { "writes" } else { "reads" }
                ));
                if let Some(src) = &a.source_line {
                    s.push_str(&format!("    {src}\n"));
                }
            }
        } else {
            s.push_str(&format!(
                "\n{}: assertion fails in thread {} ({})\n",
                c.at, c.thread, c.thread_func
            ));
            if let Some(src) = &r.source_line {
                s.push_str(&format!("  {src}\n"));
            }
        }
        s.push_str(&format!(
            "Concurrent trace ({}, replayed on the input):\n",
            r.backend.name()
        ));
        s.push_str(&c.text);
        return s;
    }
    if r.trace.is_empty() {
        return s;
    }
    s.push_str(&format!("\nTrace ({}):\n", r.backend.name()));
    let w = r
        .trace
        .iter()
        .map(|t| format!("{}:{}", t.file, t.line).len())
        .max()
        .unwrap_or(0);
    for (i, t) in r.trace.iter().enumerate() {
        let at = format!("{}:{}", t.file, t.line);
        let indent = "  ".repeat(t.depth.saturating_sub(1) as usize);
        let mut line = format!("  {at:<w$}  {indent}{}", step_text(t));
        if i + 1 == r.trace.len()
            && let Some(src) = &r.source_line
        {
            line.push_str(&format!(": {src}"));
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

pub fn render_json(r: &Report) -> String {
    use serde_json::json;
    let trace: Vec<serde_json::Value> = r
        .trace
        .iter()
        .map(|t| {
            let mut o = json!({"file": t.file, "line": t.line, "col": t.col, "depth": t.depth});
            let m = o.as_object_mut().unwrap();
            match &t.what {
                TraceWhat::Assign(l, v) => {
                    m.insert("kind".into(), json!("assign"));
                    m.insert("lhs".into(), json!(l));
                    m.insert("value".into(), json!(v));
                }
                TraceWhat::Call(f) => {
                    m.insert("kind".into(), json!("call"));
                    m.insert("function".into(), json!(f));
                }
                TraceWhat::Return(f, v) => {
                    m.insert("kind".into(), json!("return"));
                    m.insert("function".into(), json!(f));
                    if let Some(v) = v {
                        m.insert("value".into(), json!(v));
                    }
                }
                TraceWhat::Fail(_) => {
                    m.insert("kind".into(), json!("failure"));
                }
                TraceWhat::Cut => {
                    m.insert("kind".into(), json!("cut"));
                }
                TraceWhat::Nondet(v) => {
                    m.insert("kind".into(), json!("nondet"));
                    m.insert("value".into(), json!(v.to_string()));
                }
            }
            o
        })
        .collect();
    let verdict = match &r.outcome {
        Outcome::Safe => "SUCCESSFUL",
        Outcome::Violation => "FAILED",
        Outcome::Unknown(_) => "UNKNOWN",
        Outcome::BoundTooSmall => "INCONCLUSIVE",
    };
    let mut o = json!({
        "verdict": verdict,
        "summary": verdict_line(r),
        "backend": r.backend.name(),
        "bounds": {"unwind": r.unwind},
        "seconds": (r.seconds * 1000.0).round() / 1000.0,
        "trace": trace,
    });
    if let Outcome::Unknown(w) = &r.outcome {
        o["reason"] = json!(w);
    }
    if let Some(n) = r.switch_points {
        o["switch_points"] = json!(n);
    }
    if let Some(s) = &r.slice {
        o["slice"] = json!({
            "tracked": s.tracked,
            "sliced": s.sliced,
            "reads_havocked": s.reads_havocked,
            "writes_dropped": s.writes_dropped,
            "loops_summarised": s.loops_summarised,
            "kept_whatever_tracked": s.pinned,
        });
    }
    if let Some(h) = &r.spurious {
        o["spurious"] = json!(true);
        o["havocked_near_failure"] = json!(h.iter().map(|(c, _)| c).collect::<Vec<_>>());
    }
    if let Some(c) = &r.concurrent {
        o["concurrent"] = json!({
            "at": c.at,
            "thread": c.thread,
            "function": c.thread_func,
            "replayed": true,
            "trace": c.json,
        });
        if let Some(race) = &c.race {
            o["race"] = json!(
                race.iter()
                    .map(|a| json!({
                        "at": a.at,
                        "thread": a.thread,
                        "function": a.thread_func,
                        "access": if a.write { "write" } else { "read" },
                    }))
                    .collect::<Vec<_>>()
            );
        }
    }
    let mut s = serde_json::to_string_pretty(&o).unwrap();
    s.push('\n');
    s
}
