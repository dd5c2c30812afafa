//! The pipeline as one call: front end, passes, back end. Returns text and
//! timings; printing is the binary's job.

use crate::backend::c::{self, COptions};
use crate::config::{Config, Emit, Method};
use crate::diag::{Diagnostic, Result};
use crate::frontend::{self, FrontendOptions, PpOptions};
use crate::ir::{self, Program};
use crate::passes;
use std::time::{Duration, Instant};

pub struct Translation {
    pub text: String,
    /// IR dumps requested with `--dump-ir-after`, as (pass, text).
    pub dumps: Vec<(String, String)>,
    pub timings: Vec<(String, Duration)>,
}

/// Reads and lowers an input file.
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
    };
    frontend::load_timed(input, &opts)
}

/// Loads, normalises and (with `--track`) slices the input: the program
/// the sequentializations start from.
pub fn front(input: &str, cfg: &Config) -> Result<(Program, Option<passes::slice::SliceInfo>)> {
    let p = passes::normalize::normalize(load(input, cfg)?);
    match &cfg.track {
        Some(t) => {
            ir::regions_report::check_track(&p, t)?;
            if matches!(cfg.property, crate::config::Property::Race(_)) {
                return Err(Diagnostic::not_yet(
                    "--track with --property race (slicing would drop the accesses that race)",
                ));
            }
            let (p, info) = passes::slice::slice(p, t)?;
            let verify = cfg!(debug_assertions) || std::env::var_os("SEQC_VERIFY_IR").is_some();
            if verify && let Err(e) = ir::verify::verify(&p) {
                panic!("IR verifier failed after slice: {e}");
            }
            Ok((p, Some(info)))
        }
        None => Ok((p, None)),
    }
}

/// Race checking is KISS's (§5): the other methods check assertions.
pub fn race_needs_kiss(cfg: &Config) -> Result<()> {
    if matches!(cfg.property, crate::config::Property::Race(_)) && cfg.method != Method::Kiss {
        return Err(Diagnostic::not_yet(format!(
            "--property race with --method {} (race checking is built on KISS: use --method kiss)",
            if cfg.method == Method::None {
                "none"
            } else {
                "lal-reps"
            }
        )));
    }
    Ok(())
}

/// `seqc translate`.
pub fn translate(input: &str, cfg: &Config) -> Result<Translation> {
    race_needs_kiss(cfg)?;
    if let Some(p) = &cfg.dump_ir_after
        && !passes::PASSES.contains(&p.as_str())
    {
        return Err(Diagnostic::input(format!(
            "unknown pass '{p}' for --dump-ir-after (passes: {})",
            passes::PASSES.join(", ")
        )));
    }
    let mut timings = Vec::new();
    let mut dumps = Vec::new();
    let (mut prog, front) = load_timed(input, cfg)?;
    timings.extend(front);
    let after = |name: &str, prog: &Program, dumps: &mut Vec<(String, String)>| {
        let verify = cfg!(debug_assertions) || std::env::var_os("SEQC_VERIFY_IR").is_some();
        if verify && let Err(e) = ir::verify::verify(prog) {
            panic!("IR verifier failed after {name}: {e}");
        }
        if cfg.dump_ir_after.as_deref() == Some(name) {
            dumps.push((name.to_string(), crate::backend::c::dump(prog)));
        }
    };
    after("lower", &prog, &mut dumps);
    let t = Instant::now();
    prog = passes::normalize::normalize(prog);
    timings.push(("normalize".to_string(), t.elapsed()));
    after("normalize", &prog, &mut dumps);
    if let Some(t) = &cfg.track {
        ir::regions_report::check_track(&prog, t)?;
    }
    if cfg.emit == Emit::Regions {
        // The input's regions, before any sequentialization adds its own.
        return Ok(Translation {
            text: ir::regions_report::report(&prog),
            dumps,
            timings,
        });
    }
    if let Some(t) = &cfg.track {
        if matches!(cfg.property, crate::config::Property::Race(_)) {
            return Err(Diagnostic::not_yet(
                "--track with --property race (slicing would drop the accesses that race)",
            ));
        }
        let t0 = Instant::now();
        prog = passes::slice::slice(prog, t)?.0;
        timings.push(("slice".to_string(), t0.elapsed()));
        after("slice", &prog, &mut dumps);
    }
    let mut smt_unwind = cfg.unwind;
    if cfg.method == Method::LalReps {
        let t = Instant::now();
        prog = passes::bound::bound(prog, cfg.unwind, passes::bound::Cut::Stop);
        after("bound", &prog, &mut dumps);
        prog = lal_reps(prog, cfg)?.0;
        timings.push(("lal-reps".to_string(), t.elapsed()));
        after("lal-reps", &prog, &mut dumps);
        smt_unwind = cfg.unwind + 2;
    }
    if cfg.method == Method::Kiss {
        let t = Instant::now();
        prog = passes::bound::bound(prog, cfg.unwind, passes::bound::Cut::Stop);
        after("bound", &prog, &mut dumps);
        prog = kiss(prog, cfg)?.0;
        timings.push(("kiss".to_string(), t.elapsed()));
        after("kiss", &prog, &mut dumps);
        smt_unwind = kiss_unwind(&prog, cfg);
    }
    let t = Instant::now();
    let text = match cfg.emit {
        Emit::Ir | Emit::Regions => crate::backend::c::dump(&prog),
        Emit::C => c::emit(
            &prog,
            &COptions {
                dialect: cfg.dialect,
                options_text: cfg.options_text.clone(),
                version: env!("CARGO_PKG_VERSION").to_string(),
                ir_mode: false,
            },
        ),
        Emit::Smt => {
            let enc = crate::bmc::encode(
                &prog,
                &crate::bmc::Options {
                    deadline: None,
                    unwind: smt_unwind,
                    unwinding_assertions: false,
                    int: cfg.int,
                    source: crate::check::source_info(input, cfg),
                },
            )?;
            enc.script(crate::bmc::Goal::Violation, None, false)
        }
    };
    timings.push(("emit".to_string(), t.elapsed()));
    crate::par::drop_later(prog);
    Ok(Translation {
        text,
        dumps,
        timings,
    })
}

/// The Lal-Reps pass with the configuration's bounds (on a normalised,
/// bounded program).
pub fn lal_reps(prog: Program, cfg: &Config) -> Result<(Program, passes::lal_reps::LrInfo)> {
    passes::lal_reps::lal_reps(
        prog,
        &passes::lal_reps::LrOptions {
            rounds: cfg.rounds,
            threads: cfg.threads,
            unwind: cfg.unwind,
        },
    )
}

/// The KISS pass with the configuration's bounds (on a normalised,
/// bounded program).
pub fn kiss(prog: Program, cfg: &Config) -> Result<(Program, passes::kiss::KissInfo)> {
    passes::kiss::kiss(
        prog,
        &passes::kiss::KissOptions {
            ts: cfg.ts,
            threads: cfg.threads,
            race: match &cfg.property {
                crate::config::Property::Race(t) => Some(t.clone()),
                crate::config::Property::Assert => None,
            },
        },
    )
}

/// The SMT route's unwinding of a KISS output: seqc bounds the input's
/// loops itself (U + 2 never cuts first), and threads nest on the one
/// stack, at most one level per thread id.
pub fn kiss_unwind(p: &Program, cfg: &Config) -> u32 {
    let slots = p
        .globals
        .iter()
        .find(|g| g.name == "__seqc_done")
        .and_then(|g| match g.ty {
            ir::Ty::Array(_, Some(n)) => Some(n as u32),
            _ => None,
        })
        .unwrap_or(1);
    (cfg.unwind + 2).max(slots + 1)
}
