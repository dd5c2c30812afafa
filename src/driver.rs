//! The pipeline, in one place: the front end, then each pass through one
//! step that times it, dumps it (`--dump-ir-after`) and verifies it
//! (`verify_enabled`), up to the program a back end checks. `translate`,
//! `check`, `refine` and refine's test of a candidate set all build here;
//! nothing else chains passes. Returns text and facts; printing is the
//! binary's job.

use crate::backend::c::{self, COptions};
use crate::config::{Config, Emit, Method, Property};
use crate::diag::{Diagnostic, Result};
use crate::frontend::{self, FrontendOptions, PpOptions};
use crate::ir::{self, Program};
use crate::passes;
use crate::passes::bound::Cut;
use crate::passes::kiss::KissInfo;
use crate::passes::lal_reps::LrInfo;
use crate::passes::slice::SliceInfo;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static VERIFY: AtomicBool = AtomicBool::new(false);

/// Runs the IR verifier after every pass from now on (tests call this;
/// `SEQC_VERIFY_IR` does the same for a process, debug builds always).
pub fn set_verify(on: bool) {
    VERIFY.store(on, Ordering::Relaxed);
}

pub fn verify_enabled() -> bool {
    cfg!(debug_assertions)
        || VERIFY.load(Ordering::Relaxed)
        || std::env::var_os("SEQC_VERIFY_IR").is_some()
}

/// How far `build` goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Until {
    /// Lowered and normalised (`--emit regions` reports on this).
    Normalized,
    /// Sliced with `--track` (the program the methods start from).
    Sliced,
    /// The sequential program a back end checks.
    Sequential,
}

/// What a sequentialization tells the back ends and the replay.
#[derive(Clone, Debug)]
pub enum MethodInfo {
    None,
    LalReps(LrInfo),
    Kiss(KissInfo),
}

/// What `build` made.
pub struct Built {
    pub prog: Program,
    /// The lowered input before any pass (with `keep_input`): the oracle
    /// replays counterexamples on it.
    pub input: Option<Program>,
    pub method: MethodInfo,
    pub slice: Option<SliceInfo>,
    /// The loop bound the SMT encoding uses: a sequentialization bounds
    /// the input's loops itself, so its own bound only has to be above.
    pub smt_unwind: u32,
    /// CBMC's `--unwind` for the program.
    pub cbmc_unwind: u32,
    /// IR dumps asked for with `--dump-ir-after`, as (pass, text).
    pub dumps: Vec<(String, String)>,
    pub timings: Vec<(String, Duration)>,
}

/// Reads and lowers an input file (the front end alone: the oracle runs
/// on this).
pub fn load(input: &str, cfg: &Config) -> Result<Program> {
    load_timed(input, cfg).map(|(p, _)| p)
}

/// `load` with the time of each front-end stage.
pub fn load_timed(input: &str, cfg: &Config) -> Result<(Program, frontend::Timings)> {
    let opts = FrontendOptions {
        pp: PpOptions {
            include_dirs: cfg.include_dirs.clone(),
            defines: cfg.defines.clone(),
            data_model: cfg.data_model,
        },
        overflow: cfg.property.overflow(),
    };
    frontend::load_timed(input, &opts)
}

/// The thread-model properties asked for, as `--property` spells them.
fn property_names(p: &Property) -> String {
    match p {
        Property::Set(c) => c.names(false).join(","),
        _ => String::new(),
    }
}

/// The checks of the options that no pass can make alone.
fn check_options(cfg: &Config) -> Result<()> {
    if matches!(cfg.property, Property::Race(_)) && cfg.method != Method::Kiss {
        return Err(Diagnostic::not_yet(format!(
            "--property race with --method {} (race checking is built on KISS: use --method kiss)",
            cfg.method.name()
        )));
    }
    let named = property_names(&cfg.property);
    if cfg.property.needs_threads() && cfg.method == Method::None {
        return Err(Diagnostic::not_yet(format!(
            "--property {named} with --method none (a sequentialization checks it: use --method lal-reps or kiss)"
        )));
    }
    if cfg.track.is_some() && cfg.property.needs_threads() {
        return Err(Diagnostic::not_yet(format!(
            "--track with --property {named} (slicing keeps no mutex or thread state for the check)"
        )));
    }
    if cfg.track.is_some() && cfg.property.overflow() {
        return Err(Diagnostic::not_yet(
            "--track with --property overflow (slicing havocs the values an operation's check reads)",
        ));
    }
    if cfg.track.is_some() && cfg.property.heap_table() {
        return Err(Diagnostic::not_yet(
            "--track with --property memsafety or memtrack (slicing havocs the pointers and the heap table the checks read)",
        ));
    }
    if cfg.track.is_some() && matches!(cfg.property, Property::Race(_)) {
        return Err(Diagnostic::not_yet(
            "--track with --property race (slicing would drop the accesses that race)",
        ));
    }
    if let Some(p) = &cfg.dump_ir_after
        && !passes::PASSES.contains(&p.as_str())
    {
        return Err(Diagnostic::input(format!(
            "unknown pass '{p}' for --dump-ir-after (passes: {})",
            passes::PASSES.join(", ")
        )));
    }
    Ok(())
}

/// The IR verifier on the output of pass `name`: a failure is seqc's own
/// bug, reported as an internal error that names the pass.
fn checked(name: &str, p: &Program) -> Result<()> {
    ir::verify::verify(p)
        .map_err(|e| Diagnostic::internal(format!("IR verifier failed after {name}: {e}")))
}

/// One pass of the pipeline at a time: timed, dumped, verified.
struct Steps<'c> {
    cfg: &'c Config,
    dumps: Vec<(String, String)>,
    timings: Vec<(String, Duration)>,
}

impl Steps<'_> {
    fn after(&mut self, name: &str, p: &Program) -> Result<()> {
        if verify_enabled() {
            checked(name, p)?;
        }
        if self.cfg.dump_ir_after.as_deref() == Some(name) {
            self.dumps.push((name.to_string(), c::dump(p)));
        }
        Ok(())
    }

    fn run<T>(
        &mut self,
        name: &str,
        f: impl FnOnce() -> Result<(Program, T)>,
    ) -> Result<(Program, T)> {
        let t = Instant::now();
        let (p, x) = f()?;
        self.timings.push((name.to_string(), t.elapsed()));
        self.after(name, &p)?;
        Ok((p, x))
    }
}

/// The pipeline, up to `until`; `keep_input` keeps the lowered input.
pub fn build(input: &str, cfg: &Config, until: Until, keep_input: bool) -> Result<Built> {
    check_options(cfg)?;
    let mut s = Steps {
        cfg,
        dumps: Vec::new(),
        timings: Vec::new(),
    };
    let (prog, front) = load_timed(input, cfg)?;
    s.timings.extend(front);
    s.after("lower", &prog)?;
    let mut prog = if cfg.property.strips_asserts() {
        passes::no_asserts::no_asserts(prog)
    } else {
        prog
    };
    if cfg.property.locks() || cfg.property.locks_exit() {
        // Lock discipline needs each mutex's owner.
        prog.pthread.mutex_kinds = true;
    }
    let kept = keep_input.then(|| prog.clone());
    let (prog, ()) = s.run("normalize", || {
        Ok((
            passes::normalize::normalize(prog, cfg.property.overflow()),
            (),
        ))
    })?;
    // memtrack's plan is made before memsafety adds its pointer casts.
    let plan = cfg
        .property
        .memtrack()
        .then(|| passes::memtrack::plan(&prog));
    let prog = if cfg.property.heap_table() {
        s.run("memsafety", || {
            Ok((
                passes::memsafety::memsafety(
                    prog,
                    cfg.threads,
                    cfg.unwind,
                    cfg.property.memsafety(),
                )?,
                (),
            ))
        })?
        .0
    } else {
        prog
    };
    let prog = match plan {
        Some(plan) => {
            s.run("memtrack", || {
                Ok((passes::memtrack::memtrack(prog, plan), ()))
            })?
            .0
        }
        None => prog,
    };
    if verify_enabled() {
        ir::verify::verify_normalized(&prog).map_err(|e| {
            Diagnostic::internal(format!("the normaliser's postcondition fails: {e}"))
        })?;
    }
    if let Some(t) = &cfg.track {
        ir::regions_report::check_track(&prog, t)?;
    }
    let mut built = Built {
        prog,
        input: kept,
        method: MethodInfo::None,
        slice: None,
        smt_unwind: cfg.unwind,
        cbmc_unwind: cfg.unwind + 2,
        dumps: Vec::new(),
        timings: Vec::new(),
    };
    if until != Until::Normalized {
        if let Some(t) = &cfg.track {
            let p = std::mem::replace(&mut built.prog, Program::new(cfg.data_model));
            let (p, info) = s.run("slice", || passes::slice::slice(p, t))?;
            built.prog = p;
            built.slice = Some(info);
        }
        if until == Until::Sequential && cfg.method != Method::None {
            let p = std::mem::replace(&mut built.prog, Program::new(cfg.data_model));
            let (p, ()) = s.run("bound", || {
                Ok((passes::bound::bound(p, cfg.unwind, Cut::Stop), ()))
            })?;
            let (p, info) = match cfg.method {
                Method::LalReps => {
                    let (p, i) = s.run("lal-reps", || lal_reps(p, cfg))?;
                    (p, MethodInfo::LalReps(i))
                }
                _ => {
                    let (p, i) = s.run("kiss", || kiss(p, cfg))?;
                    (p, MethodInfo::Kiss(i))
                }
            };
            built.prog = p;
            built.method = info;
        }
    }
    // Loop bounds for the back ends, by method.
    let u = cfg.unwind;
    (built.smt_unwind, built.cbmc_unwind) = match &built.method {
        MethodInfo::None => (u, (u + 2).max(3)),
        MethodInfo::LalReps(_) => (u + 2, (u + 2).max(cfg.rounds.max(1) + 3)),
        MethodInfo::Kiss(i) => {
            let k = (u + 2).max(i.slots + 1);
            (k, k)
        }
    };
    built.dumps = s.dumps;
    built.timings = s.timings;
    Ok(built)
}

/// The program CBMC checks: a sequentialization's output bounds its loops
/// itself; the input (`--method none`) is bounded here, with unwinding
/// assumptions or assertions.
pub fn for_cbmc(b: &Built, cfg: &Config, cut: Cut) -> Program {
    match b.method {
        MethodInfo::None => passes::bound::bound(b.prog.clone(), cfg.unwind, cut),
        _ => b.prog.clone(),
    }
}

pub struct Translation {
    pub text: String,
    /// IR dumps requested with `--dump-ir-after`, as (pass, text).
    pub dumps: Vec<(String, String)>,
    pub timings: Vec<(String, Duration)>,
}

/// `seqc translate`.
pub fn translate(input: &str, cfg: &Config) -> Result<Translation> {
    let until = if cfg.emit == Emit::Regions {
        Until::Normalized
    } else {
        Until::Sequential
    };
    let b = build(input, cfg, until, false)?;
    let mut timings = b.timings;
    let t = Instant::now();
    let text = match cfg.emit {
        // The input's regions, before any sequentialization adds its own.
        Emit::Regions => ir::regions_report::report(&b.prog),
        Emit::Ir => c::dump(&b.prog),
        Emit::C => c::emit(
            &b.prog,
            &COptions {
                dialect: cfg.dialect,
                options_text: cfg.options_text(),
                version: env!("CARGO_PKG_VERSION").to_string(),
                ir_mode: false,
            },
        ),
        Emit::Smt => {
            let enc = crate::bmc::encode(
                &b.prog,
                &crate::bmc::Options {
                    deadline: None,
                    cancel: None,
                    unwind: b.smt_unwind,
                    unwinding_assertions: false,
                    int: cfg.int,
                    source: cfg.source_text(input),
                },
            )
            .map_err(|e| e.into_diagnostic())?;
            enc.script(crate::bmc::Goal::Violation, None, false)
        }
    };
    timings.push(("emit".to_string(), t.elapsed()));
    crate::par::drop_later(b.prog);
    Ok(Translation {
        text,
        dumps: b.dumps,
        timings,
    })
}

/// The Lal-Reps pass with the configuration's bounds.
fn lal_reps(prog: Program, cfg: &Config) -> Result<(Program, LrInfo)> {
    passes::lal_reps::lal_reps(
        prog,
        &passes::lal_reps::LrOptions {
            rounds: cfg.rounds,
            threads: cfg.threads,
            unwind: cfg.unwind,
            deadlock: cfg.property.deadlock(),
            locks: lock_checks(cfg),
        },
    )
}

/// What `--property locks` / `locks-exit` ask of the thread model.
fn lock_checks(cfg: &Config) -> passes::threads::LockChecks {
    passes::threads::LockChecks {
        rules: cfg.property.locks(),
        exit: cfg.property.locks_exit(),
    }
}

/// The KISS pass with the configuration's bounds.
fn kiss(prog: Program, cfg: &Config) -> Result<(Program, KissInfo)> {
    passes::kiss::kiss(
        prog,
        &passes::kiss::KissOptions {
            ts: cfg.ts,
            threads: cfg.threads,
            race: match &cfg.property {
                Property::Race(t) => Some(t.clone()),
                Property::Assert | Property::Set(_) => None,
            },
            deadlock: cfg.property.deadlock(),
            locks: lock_checks(cfg),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass whose output uses a local it never declared is stopped at
    /// that pass, by name, as an internal error (not a panic).
    #[test]
    fn a_broken_pass_output_is_caught_and_named() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("t.c");
        std::fs::write(&f, "int g; int main(void) { g = 1; return 0; }\n").unwrap();
        let cfg = Config::default();
        let good = load(f.to_str().unwrap(), &cfg).unwrap();
        let mut bad = good.clone();
        let main = bad.functions.iter_mut().find(|f| f.name == "main").unwrap();
        main.params.push(ir::LocalId(main.locals.len() as u32 + 5));
        set_verify(true);
        let mut s = Steps {
            cfg: &cfg,
            dumps: Vec::new(),
            timings: Vec::new(),
        };
        assert!(s.run("fine", || Ok((good, ()))).is_ok());
        let e = s.run("broken", || Ok((bad, ()))).unwrap_err();
        assert_eq!(e.kind, crate::diag::DiagKind::Internal);
        assert!(e.message.contains("after broken"), "{}", e.message);
    }
}
