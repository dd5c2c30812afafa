//! The `seqc` command: parses options into a `Config`, calls the library,
//! prints, and maps results to exit codes.

use clap::{Args, Parser, Subcommand, ValueEnum};
use seqc::backend::c::Dialect;
use seqc::config::{Config, Emit, Method, Property};
use seqc::diag::Diagnostic;
use seqc::ir::DataModel;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

// The front end allocates many small nodes; glibc's malloc was a quarter
// of the time on 100k-line inputs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "seqc",
    version,
    about = "Sequentialize concurrent C (pthreads) into sequential C or SMT-LIB2"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Print the transformed program (C, SMT-LIB2 or the IR).
    Translate(TranslateArgs),
    /// Run a backend and report a verdict (exit 0 safe, 10 violation, 20 unknown, 30 bound too small).
    Check(CheckArgs),
    /// Field-slicing CEGAR (STORM §3).
    Refine(RefineArgs),
    /// Exhaustive interleaving exploration of small programs.
    Explore(ExploreArgs),
    /// Write random concurrent C programs (for testing checkers against the oracle).
    Gen(GenArgs),
    /// Replay a violation witness (SV-COMP GraphML) on the oracle: confirmed (exit 10) or not (exit 0).
    Validate(ValidateArgs),
}

#[derive(Args, Clone)]
struct ValidateArgs {
    #[command(flatten)]
    io: Io,
    /// The witness file (GraphML, as `check --witness` writes it).
    witness: String,
}

/// The input, the preprocessor and where the answer goes: every command
/// but gen takes these.
#[derive(Args, Clone)]
struct Io {
    /// The C file (`.c`, or preprocessed `.i`); `-` reads standard input.
    input: String,
    /// Sizes of long and pointers (SV-COMP .i files are ILP32).
    #[arg(long, value_enum, default_value = "LP64")]
    data_model: DataModelArg,
    /// Add a directory to the preprocessor's include path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<String>,
    /// Define a macro for the preprocessor.
    #[arg(short = 'D', value_name = "MACRO[=V]")]
    define: Vec<String>,
    /// Write the output (translate) or the report (check, refine,
    /// explore) here instead of stdout, whole or not at all; `-` is stdout.
    #[arg(short = 'o', value_name = "FILE")]
    output: Option<String>,
    /// Seconds for the whole command (front end, encoding and every
    /// backend run); past it, check answers UNKNOWN (exit 20).
    #[arg(long)]
    timeout: Option<u64>,
}

/// How the program is sequentialized and bounded.
#[derive(Args, Clone)]
struct Seq {
    /// Sequentialization: none (identity), kiss, lal-reps [default:
    /// lal-reps; kiss for --property race and a task's no-data-race property].
    #[arg(long, value_enum)]
    method: Option<MethodArg>,
    /// Lal-Reps contexts (rounds) per thread [default: 2].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    rounds: Option<u32>,
    /// KISS bound on pending (forked, unstarted) threads [default: 1].
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=64))]
    ts: Option<u32>,
    /// A loop body runs at most U times (and recursion is cut at depth U)
    /// [default: 2]. Not CBMC's convention: CBMC's --unwind N runs a body
    /// N-1 times.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=100000))]
    unwind: Option<u32>,
    /// Threads per creation site inside a loop [default: 3].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// What is checked: assert (assertions, the default), race[=REGION]
    /// (data races, with --method kiss), or a comma-separated set of
    /// assert, deadlock, locks (lock discipline) and locks-exit (a thread
    /// that ends holding a lock).
    #[arg(long)]
    property: Option<String>,
    /// Spelling of assume and atomic sections in C output.
    #[arg(long, value_enum, default_value = "svcomp")]
    dialect: DialectArg,
    /// SMT integers (QF_AUFLIA) instead of bit-vectors; C's wrap-around is
    /// kept (mod 2^N), so verdicts do not change. z3 and cvc5 only.
    #[arg(long)]
    int: bool,
}

/// How a checker is run.
#[derive(Args, Clone)]
struct Run {
    /// What runs the query: z3, cvc5, bitwuzla, cbmc, several of them
    /// comma-separated (run at once; the first definite answer wins), or
    /// auto: the installed ones, fastest first, as many as --jobs.
    #[arg(long, default_value = "auto")]
    backend: String,
    /// How many checkers --backend auto runs at once [default: the
    /// machine's cores].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    jobs: Option<u32>,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
    /// A path that needs more loop iterations than --unwind is reported as "bound too small".
    #[arg(long)]
    unwinding_assertions: bool,
}

#[derive(Args, Clone)]
struct TranslateArgs {
    #[command(flatten)]
    io: Io,
    #[command(flatten)]
    seq: Seq,
    /// What to print.
    #[arg(long, value_enum, default_value = "c")]
    emit: EmitArg,
    /// Tracked memory regions for field slicing (comma-separated, or `all`).
    #[arg(long)]
    track: Option<String>,
    /// Print the IR after this pass to stderr (lower, normalize, slice,
    /// bound, lal-reps, kiss).
    #[arg(long, value_name = "PASS")]
    dump_ir_after: Option<String>,
    /// Print the time each stage takes (stderr).
    #[arg(long)]
    time_passes: bool,
}

#[derive(Args, Clone)]
struct CheckArgs {
    #[command(flatten)]
    io: Io,
    #[command(flatten)]
    seq: Seq,
    #[command(flatten)]
    run: Run,
    /// auto: start with small bounds and grow those not given on the
    /// command line until a violation or the end of --timeout (default
    /// 60 s); fixed: the bounds given, defaults for the rest. Without
    /// this option: auto when no bound is given, else fixed.
    #[arg(long, value_enum)]
    bounds: Option<BoundsArg>,
    /// Tracked memory regions for field slicing (comma-separated, or `all`).
    #[arg(long)]
    track: Option<String>,
    /// For a violation: write a violation witness (SV-COMP GraphML) here,
    /// after `validate` confirmed it.
    #[arg(long, value_name = "FILE")]
    witness: Option<String>,
}

#[derive(Args, Clone)]
struct RefineArgs {
    #[command(flatten)]
    io: Io,
    #[command(flatten)]
    seq: Seq,
    #[command(flatten)]
    run: Run,
}

#[derive(Args, Clone)]
struct ExploreArgs {
    #[command(flatten)]
    io: Io,
    /// A loop body runs at most U times (and recursion is cut at depth U).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=100000))]
    unwind: u32,
    /// Threads per creation site.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// assert (failing assertions, the default), race (data races), or a
    /// set of assert, deadlock, locks and locks-exit.
    #[arg(long)]
    property: Option<String>,
    /// Give up (UNKNOWN) after this many states.
    #[arg(long, value_name = "S", default_value_t = 2_000_000)]
    max_states: u64,
    /// The values a nondeterministic integer takes, LO..HI.
    #[arg(long, value_name = "LO..HI", default_value = "-1..3")]
    nondet_range: String,
    /// Machine-readable output.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Clone)]
struct GenArgs {
    /// The first seed; program i uses seed + i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many programs.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Directory for gen_<seed>.c and features.csv (stdout for one program without it).
    #[arg(long)]
    out: Option<String>,
    /// Also take two locks one inside the other (deadlocks) in some programs.
    #[arg(long)]
    nest_locks: bool,
    /// Also break the rules of lock discipline in some programs.
    #[arg(long, conflicts_with = "nest_locks")]
    misuse_locks: bool,
    /// Also create threads through a table of start routines in some programs.
    #[arg(long, conflicts_with_all = ["nest_locks", "misuse_locks"])]
    pointer_starts: bool,
    /// Also take timed locks and make timed condition waits in some programs.
    #[arg(long, conflicts_with_all = ["nest_locks", "misuse_locks", "pointer_starts"])]
    timed_waits: bool,
    /// Also do arithmetic that may overflow in some programs.
    #[arg(long, conflicts_with_all = ["nest_locks", "misuse_locks", "pointer_starts", "timed_waits"])]
    overflow: bool,
    /// Also compute with shared doubles and a float in some programs.
    #[arg(long, conflicts_with_all = ["nest_locks", "misuse_locks", "pointer_starts", "timed_waits", "overflow"])]
    floats: bool,
    /// Also misuse heap memory and null pointers in some programs.
    #[arg(long, conflicts_with_all = ["nest_locks", "misuse_locks", "pointer_starts", "timed_waits", "overflow", "floats"])]
    heap_misuse: bool,
    /// Timed waits, floats, punning and start routines through a table at
    /// once.
    #[arg(long, conflicts_with_all = ["nest_locks", "misuse_locks", "pointer_starts", "timed_waits", "overflow", "floats", "heap_misuse"])]
    mixed: bool,
    /// Also read and write memory at two widths (a union, a char pointer
    /// over an int) in some programs.
    #[arg(long, conflicts_with_all = ["nest_locks", "misuse_locks", "pointer_starts", "timed_waits", "overflow", "floats", "heap_misuse", "mixed"])]
    punning: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum MethodArg {
    None,
    Kiss,
    LalReps,
}

#[derive(Clone, Copy, ValueEnum)]
enum EmitArg {
    C,
    Smt,
    Ir,
    Regions,
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum BoundsArg {
    Auto,
    Fixed,
}

#[derive(Clone, Copy, ValueEnum)]
enum DialectArg {
    Svcomp,
    Cbmc,
}

#[derive(Clone, Copy, ValueEnum)]
enum DataModelArg {
    #[value(name = "ILP32", alias = "ilp32")]
    Ilp32,
    #[value(name = "LP64", alias = "lp64")]
    Lp64,
}

/// Every option of every command in one place, with the defaults of those
/// a command does not take: each command's arguments fill it in.
#[derive(Clone)]
struct Common {
    input: String,
    method: MethodArg,
    rounds: Option<u32>,
    ts: Option<u32>,
    unwind: Option<u32>,
    threads: Option<u32>,
    emit: EmitArg,
    backend: String,
    jobs: Option<u32>,
    bounds: Option<BoundsArg>,
    timeout: Option<u64>,
    json: bool,
    track: Option<String>,
    property: Option<String>,
    unwinding_assertions: bool,
    int: bool,
    dialect: DialectArg,
    time_passes: bool,
    data_model: DataModelArg,
    include: Vec<String>,
    define: Vec<String>,
    output: Option<String>,
    dump_ir_after: Option<String>,
    max_states: u64,
    nondet_range: String,
    witness: Option<String>,
    /// `--method` was given (a task's race property picks KISS otherwise).
    method_given: bool,
}

impl Common {
    fn new(io: Io) -> Common {
        Common {
            input: io.input,
            method: MethodArg::LalReps,
            rounds: None,
            ts: None,
            unwind: None,
            threads: None,
            emit: EmitArg::C,
            backend: "auto".into(),
            jobs: None,
            bounds: None,
            timeout: io.timeout,
            json: false,
            track: None,
            property: None,
            unwinding_assertions: false,
            int: false,
            dialect: DialectArg::Svcomp,
            time_passes: false,
            data_model: io.data_model,
            include: io.include,
            define: io.define,
            output: io.output,
            dump_ir_after: None,
            max_states: 2_000_000,
            nondet_range: "-1..3".into(),
            witness: None,
            method_given: false,
        }
    }

    fn with_seq(mut self, q: Seq) -> Common {
        self.method = q.method.unwrap_or(MethodArg::LalReps);
        self.method_given = q.method.is_some();
        self.rounds = q.rounds;
        self.ts = q.ts;
        self.unwind = q.unwind;
        self.threads = q.threads;
        self.property = q.property;
        self.dialect = q.dialect;
        self.int = q.int;
        self
    }

    fn with_run(mut self, r: Run) -> Common {
        self.backend = r.backend;
        self.jobs = r.jobs;
        self.json = r.json;
        self.unwinding_assertions = r.unwinding_assertions;
        self
    }
}

impl From<TranslateArgs> for Common {
    fn from(a: TranslateArgs) -> Common {
        let mut c = Common::new(a.io).with_seq(a.seq);
        c.emit = a.emit;
        c.track = a.track;
        c.dump_ir_after = a.dump_ir_after;
        c.time_passes = a.time_passes;
        c
    }
}

impl From<CheckArgs> for Common {
    fn from(a: CheckArgs) -> Common {
        let mut c = Common::new(a.io).with_seq(a.seq).with_run(a.run);
        c.track = a.track;
        c.bounds = a.bounds;
        c.witness = a.witness;
        c
    }
}

impl From<RefineArgs> for Common {
    fn from(a: RefineArgs) -> Common {
        Common::new(a.io).with_seq(a.seq).with_run(a.run)
    }
}

impl From<ExploreArgs> for Common {
    fn from(a: ExploreArgs) -> Common {
        let mut c = Common::new(a.io);
        c.unwind = Some(a.unwind);
        c.threads = Some(a.threads);
        c.property = a.property;
        c.max_states = a.max_states;
        c.nondet_range = a.nondet_range;
        c.json = a.json;
        c
    }
}

impl Common {
    fn config(&self) -> Result<Config, Diagnostic> {
        // An SV-COMP property file stands for seqc's name of it.
        let named = match self.property.as_deref() {
            Some(p) if p.ends_with(".prp") => Some(prp_property(p)?),
            Some(p) => Some(p.to_string()),
            None => None,
        };
        // A comma-separated set; race stands alone (KISS's race mode).
        let set: Vec<&str> = named
            .as_deref()
            .map(|p| p.split(',').map(str::trim).collect())
            .unwrap_or_default();
        for p in &set {
            let known = *p == "assert"
                || *p == "race"
                || p.starts_with("race=")
                || *p == "locks"
                || *p == "locks-exit"
                || *p == "deadlock"
                || *p == "overflow"
                || *p == "memsafety"
                || *p == "memtrack";
            if !known {
                return Err(Diagnostic::input(format!(
                    "unknown property '{p}' (expected assert, deadlock, locks, locks-exit, overflow, memsafety, memtrack, race or race=REGION)"
                )));
            }
        }
        if set.len() > 1 && set.iter().any(|p| p.starts_with("race")) {
            return Err(Diagnostic::not_yet(
                "--property race together with other properties (race mode checks races alone)",
            ));
        }
        let property = match named.as_deref() {
            _ if set.iter().any(|p| {
                [
                    "deadlock",
                    "locks",
                    "locks-exit",
                    "overflow",
                    "memsafety",
                    "memtrack",
                ]
                .contains(p)
            }) =>
            {
                Property::Set(seqc::config::Checks {
                    assert: set.contains(&"assert"),
                    deadlock: set.contains(&"deadlock"),
                    locks: set.contains(&"locks"),
                    locks_exit: set.contains(&"locks-exit"),
                    overflow: set.contains(&"overflow"),
                    memsafety: set.contains(&"memsafety"),
                    memtrack: set.contains(&"memtrack"),
                })
            }
            Some("race") => Property::Race(None),
            Some(p) if p.starts_with("race=") => {
                let r = p["race=".len()..].trim();
                if r.is_empty() {
                    return Err(Diagnostic::input(
                        "--property race=LOC needs a location (a global, `struct s.f` or `*T`)",
                    ));
                }
                Property::Race(Some(r.to_string()))
            }
            _ => Property::Assert,
        };
        // `all` (the default) tracks every region: no slicing.
        let track: Option<Vec<String>> = match self.track.as_deref().map(str::trim) {
            None | Some("all") => None,
            Some(t) => Some(
                t.split(',')
                    .map(|r| r.trim().to_string())
                    .filter(|r| !r.is_empty())
                    .collect(),
            ),
        };
        let method = match self.method {
            MethodArg::None => Method::None,
            MethodArg::Kiss => Method::Kiss,
            MethodArg::LalReps => Method::LalReps,
        };
        let data_model = match self.data_model {
            DataModelArg::Ilp32 => DataModel::Ilp32,
            DataModelArg::Lp64 => DataModel::Lp64,
        };
        let dialect = match self.dialect {
            DialectArg::Svcomp => Dialect::Svcomp,
            DialectArg::Cbmc => Dialect::Cbmc,
        };
        let d = Config::default();
        Ok(Config {
            method,
            rounds: self.rounds.unwrap_or(d.rounds),
            ts: self.ts.unwrap_or(d.ts),
            unwind: self.unwind.unwrap_or(d.unwind),
            threads: self.threads.unwrap_or(d.threads),
            emit: match self.emit {
                EmitArg::C => Emit::C,
                EmitArg::Smt => Emit::Smt,
                EmitArg::Ir => Emit::Ir,
                EmitArg::Regions => Emit::Regions,
            },
            dialect,
            data_model,
            include_dirs: self.include.clone(),
            defines: self.define.clone(),
            dump_ir_after: self.dump_ir_after.clone(),
            unwinding_assertions: self.unwinding_assertions,
            int: self.int,
            property,
            track,
        })
    }
}

fn fail(d: &Diagnostic) -> ExitCode {
    // Errors found after the front end carry a position but no text.
    let mut d = d.clone();
    if let (Some((file, line, _)), None) = (&d.pos, &d.source_line) {
        d.source_line = seqc::frontend::preprocess::source_text(file).and_then(|t| {
            t.lines()
                .nth((*line as usize).saturating_sub(1))
                .map(String::from)
        });
    }
    eprintln!("{d}");
    ExitCode::from(d.exit_code() as u8)
}

fn main() -> ExitCode {
    // First, before any thread: the others inherit the blocked signals.
    seqc::cleanup::install_signal_handlers();
    // The passes and back ends recurse as deeply as the input nests.
    seqc::par::deep(run)
}

/// Set by whoever gives the command's answer: the command itself, or the
/// watchdog when `--timeout` passed while seqc was still computing.
static ANSWERED: AtomicBool = AtomicBool::new(false);

/// Claims the right to answer; a command that lost it to the watchdog
/// waits for the watchdog to end the process.
fn claim_answer() {
    if ANSWERED.swap(true, Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
}

/// Writes a command's text to `-o FILE` (whole or not at all) or stdout.
fn put(c: &Common, text: &str) -> Result<(), Diagnostic> {
    match c.output.as_deref() {
        Some(path) if path != "-" => seqc::out_file::write_atomic(path, text.as_bytes()),
        _ => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                // A reader that stopped early (`| head`) is no error to report.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(1),
                r => r.map_err(|e| Diagnostic::input(format!("cannot write the output: {e}"))),
            }
        }
    }
}

/// `--timeout` starts the clock for the whole command. Stages that run
/// children stop at the deadline themselves; for the work seqc does
/// itself (parsing, encoding, a replay), a watchdog answers a second
/// later if the command has not.
fn start_clock(c: &Common, translate: bool) {
    let Some(t) = c.timeout else { return };
    seqc::deadline::set(Duration::from_secs(t));
    let c = c.clone();
    let _ = std::thread::Builder::new()
        .name("seqc-timeout".into())
        .spawn(move || {
            std::thread::sleep(Duration::from_secs(t) + Duration::from_secs(1));
            if ANSWERED.swap(true, Ordering::SeqCst) {
                return;
            }
            let code = if translate {
                eprintln!(
                    "seqc: error: timed out after {t} s (--timeout bounds the whole command)"
                );
                1
            } else {
                let _ = put(&c, &timeout_answer(&c, t));
                20
            };
            seqc::cleanup::exit_now(code)
        });
}

/// check's answer when `--timeout` passed before any backend answered.
fn timeout_answer(c: &Common, t: u64) -> String {
    let why = format!("timed out after {t} s (--timeout bounds the whole command)");
    if c.json {
        format!(
            "{}\n",
            serde_json::json!({
                "verdict": "UNKNOWN",
                "summary": format!("VERIFICATION UNKNOWN: {why}"),
                "reason": why,
            })
        )
    } else {
        format!("VERIFICATION UNKNOWN: {why}\n")
    }
}

/// An error of a command that answers with a verdict: past the deadline
/// it is the timeout's UNKNOWN (exit 20), not the stage's complaint.
fn fail_verdict(c: &Common, d: &Diagnostic) -> ExitCode {
    if let (Some(t), true) = (c.timeout, seqc::deadline::passed()) {
        claim_answer();
        if let Err(d) = put(c, &timeout_answer(c, t)) {
            return fail(&d);
        }
        return ExitCode::from(20);
    }
    claim_answer();
    fail(d)
}

/// Refuses `-o` naming the input: the output would destroy it.
fn check_output(c: &Common) -> Result<(), Diagnostic> {
    match c.output.as_deref() {
        Some(o) if o != "-" && c.input != "-" && seqc::out_file::same_file(o, &c.input) => Err(
            Diagnostic::input(format!("-o '{o}' names the input: choose another file")),
        ),
        _ => Ok(()),
    }
}

fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = match e.kind() {
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => 0,
                _ => 1,
            };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.cmd {
        Cmd::Translate(a) => {
            let c = Common::from(a);
            let cfg = match c.config().and_then(|cfg| check_output(&c).map(|_| cfg)) {
                Ok(cfg) => cfg,
                Err(d) => return fail(&d),
            };
            start_clock(&c, true);
            let tr = seqc::driver::translate(&c.input, &cfg);
            claim_answer();
            let tr = match tr {
                Ok(t) => t,
                Err(d) => return fail(&d),
            };
            for (pass, dump) in &tr.dumps {
                eprintln!("// IR after {pass}\n{dump}");
            }
            if c.time_passes {
                for (stage, d) in &tr.timings {
                    eprintln!("{stage:>12}: {:8.3} ms", d.as_secs_f64() * 1e3);
                }
            }
            match put(&c, &tr.text) {
                Ok(()) => ExitCode::SUCCESS,
                Err(d) => fail(&d),
            }
        }
        Cmd::Explore(a) => {
            let mut c = Common::from(a);
            match resolve_task(&mut c, &["assert", "race"]) {
                Ok(()) => explore(&c),
                Err(d) => fail(&d),
            }
        }
        Cmd::Gen(g) => gen_programs(&g),
        Cmd::Check(a) => check(&Common::from(a)),
        Cmd::Refine(a) => {
            let mut c = Common::from(a);
            match resolve_task(&mut c, &["assert"]) {
                Ok(()) => refine(&c),
                Err(d) => fail(&d),
            }
        }
        Cmd::Validate(a) => validate(&a),
    }
}

fn validate(a: &ValidateArgs) -> ExitCode {
    let witness = a.witness.clone();
    let c = Common::new(a.io.clone());
    let cfg = match c.config().and_then(|cfg| check_output(&c).map(|_| cfg)) {
        Ok(cfg) => cfg,
        Err(d) => return fail(&d),
    };
    let text = match std::fs::read_to_string(&witness) {
        Ok(t) => t,
        Err(e) => return fail(&Diagnostic::input(format!("cannot read '{witness}': {e}"))),
    };
    let run = || -> Result<seqc::witness::Validation, Diagnostic> {
        let bytes = seqc::frontend::preprocess::read_input(&c.input)?;
        let prog = seqc::driver::load(&c.input, &cfg)?;
        seqc::witness::validate(&prog, &bytes, &text, cfg.unwind, cfg.threads)
            .map_err(|w| Diagnostic::input(format!("{witness}: {w}")))
    };
    let (line, code) = match run() {
        Ok(seqc::witness::Validation::Confirmed(at)) => (
            format!("WITNESS CONFIRMED: the violation is reached at {at}\n"),
            10,
        ),
        Ok(seqc::witness::Validation::NotConfirmed(why)) => {
            (format!("WITNESS NOT CONFIRMED: {why}\n"), 0)
        }
        Err(d) => return fail(&d),
    };
    claim_answer();
    match put(&c, &line) {
        Ok(()) => ExitCode::from(code),
        Err(d) => fail(&d),
    }
}

fn check_options(c: &Common) -> Result<seqc::check::CheckOptions, Diagnostic> {
    use seqc::check::Backend;
    let backends = if c.backend.trim() == "auto" {
        let jobs = c.jobs.map_or_else(
            || std::thread::available_parallelism().map_or(1, |n| n.get()),
            |j| j as usize,
        );
        Backend::portfolio(jobs, c.int)?
    } else {
        let mut v = Vec::new();
        for name in c.backend.split(',').map(str::trim) {
            let b = Backend::from_name(name).ok_or_else(|| {
                Diagnostic::input(format!(
                    "unknown backend '{name}' (expected z3, cvc5, bitwuzla, cbmc or auto)"
                ))
            })?;
            if !v.contains(&b) {
                v.push(b);
            }
        }
        v
    };
    Ok(seqc::check::CheckOptions {
        backends,
        timeout: c.timeout.map(std::time::Duration::from_secs),
        unwinding_assertions: c.unwinding_assertions,
    })
}

/// Which bounds `--bounds auto` grows: those not given.
fn growth(c: &Common) -> Option<seqc::check::Grow> {
    let given = [c.rounds, c.ts, c.unwind, c.threads];
    let auto = match c.bounds {
        Some(b) => b == BoundsArg::Auto,
        None => given.iter().all(Option::is_none),
    };
    auto.then_some(seqc::check::Grow {
        rounds: c.rounds.is_none(),
        ts: c.ts.is_none(),
        unwind: c.unwind.is_none(),
        threads: c.threads.is_none(),
    })
}

/// What an SV-COMP property file asks, as `--property` spells it; a
/// property seqc does not check is refused by name.
fn prp_property(file: &str) -> Result<String, Diagnostic> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Diagnostic::input(format!("cannot read '{file}': {e}")))?;
    match seqc::task::property_of(file, Some(&text)) {
        (_, Ok(k)) => Ok(k.seqc_name().to_string()),
        (name, Err(why)) => Err(Diagnostic::unsupported(format!("{file} ({name}): {why}"))),
    }
}

fn check(c: &Common) -> ExitCode {
    if seqc::task::is_task(&c.input) {
        return check_task(c);
    }
    // Termination is answered unknown, as a task's would be.
    if let Some(p) = c.property.as_deref().filter(|p| p.ends_with(".prp"))
        && let Ok(text) = std::fs::read_to_string(p)
        && let (name, Err(why)) = seqc::task::property_of(p, Some(&text))
        && name == "termination"
    {
        claim_answer();
        let _ = put(c, &format!("VERIFICATION UNKNOWN: {why}\n"));
        return ExitCode::from(20);
    }
    // Race mode is KISS's: `--property race` (or a race property file)
    // without a method picks it.
    let mut c = c.clone();
    if !c.method_given
        && let Some(p) = c.property.as_deref()
        && (p == "race"
            || p.starts_with("race=")
            || (p.ends_with(".prp") && prp_property(p).is_ok_and(|k| k == "race")))
    {
        c.method = MethodArg::Kiss;
    }
    let c = &c;
    let cfg = match c.config().and_then(|cfg| check_output(c).map(|_| cfg)) {
        Ok(cfg) => cfg,
        Err(d) => return fail(&d),
    };
    let grow = growth(c);
    // Growing bounds spend a budget: --timeout, or a minute.
    let mut c = c.clone();
    if grow.is_some() && c.timeout.is_none() {
        c.timeout = Some(seqc::check::AUTO_BUDGET.as_secs());
    }
    let c = &c;
    let opts = match check_options(c) {
        Ok(o) => o,
        Err(d) => return fail(&d),
    };
    if c.witness.is_some() {
        // Said before any work, not after a violation that then has no
        // witness.
        let why = if cfg.method == seqc::config::Method::None {
            Some(
                "--witness with --method none (a witness is a run the oracle replayed: use lal-reps or kiss)",
            )
        } else if matches!(cfg.property, seqc::config::Property::Race(_)) {
            Some("--witness for a data race (witnesses describe assertion violations)")
        } else if cfg.property.needs_threads()
            || cfg.property.overflow()
            || cfg.property.heap_table()
        {
            Some(
                "--witness with --property deadlock, locks, locks-exit, overflow, memsafety or memtrack (witnesses describe assertion violations)",
            )
        } else {
            None
        };
        if let Some(w) = why {
            return fail(&Diagnostic::unsupported(w));
        }
    }
    start_clock(c, false);
    let r = match &grow {
        Some(g) => seqc::check::check_auto(&c.input, &cfg, &opts, g),
        None => seqc::check::check(&c.input, &cfg, &opts),
    };
    let r = match r {
        Ok(r) => r,
        Err(d) => return fail_verdict(c, &d),
    };
    if let Err(d) = write_witness(c, &cfg, &r, None) {
        return fail_verdict(c, &d);
    }
    let text = if c.json {
        seqc::check::render_json(&r)
    } else {
        seqc::check::render(&r)
    };
    claim_answer();
    if let Err(d) = put(c, &text) {
        return fail(&d);
    }
    ExitCode::from(r.outcome.exit_code())
}

/// `--witness`: for a violation, the witness (validated first: a verdict
/// whose witness cannot be written is reported as the error it is).
fn write_witness(
    c: &Common,
    cfg: &Config,
    r: &seqc::check::Report,
    spec: Option<&str>,
) -> Result<(), Diagnostic> {
    let (Some(w), Some(_)) = (&c.witness, &r.concurrent) else {
        return Ok(());
    };
    let cfg = cfg_at(cfg, &r.bounds);
    let text = seqc::witness::for_report(r, &c.input, &cfg, spec)?;
    seqc::out_file::write_atomic(w, text.as_bytes())
}

/// `refine`/`explore` on a task: its program and data model, and one
/// property (`--property`, else the task's first one the command checks:
/// `kinds` are seqc's names for them).
fn resolve_task(c: &mut Common, kinds: &[&str]) -> Result<(), Diagnostic> {
    use seqc::task::Checkable;
    if !seqc::task::is_task(&c.input) {
        return Ok(());
    }
    let task = seqc::task::read(&c.input)?;
    let chosen = seqc::task::select(&task, c.property.as_deref());
    let prop = chosen
        .iter()
        .filter_map(|p| p.check.as_ref().ok())
        .map(Checkable::seqc_name)
        .find(|k| kinds.contains(k))
        .ok_or_else(|| {
            let names: Vec<&str> = chosen.iter().map(|p| p.name.as_str()).collect();
            Diagnostic::unsupported(format!(
                "{}: this command checks none of the properties {}",
                c.input,
                names.join(", ")
            ))
        })?
        .to_string();
    c.property = Some(prop);
    take_task(c, &task);
    Ok(())
}

/// The task's program and data model in place of the task file.
fn take_task(c: &mut Common, task: &seqc::task::Task) {
    c.input = task.input.clone();
    if let Some(dm) = task.data_model {
        c.data_model = match dm {
            seqc::ir::DataModel::Ilp32 => DataModelArg::Ilp32,
            seqc::ir::DataModel::Lp64 => DataModelArg::Lp64,
        };
    }
}

/// `check TASK.yml`: each property the task has (or the one `--property`
/// names), one verdict each with the expected verdict beside it. The
/// exit code is 10 if any property is violated, else 20 or 30 if any is
/// unknown or not checked (termination, say), else 1 or 2 if one could
/// not be checked for an error or an unsupported construct, else 0.
fn check_task(c: &Common) -> ExitCode {
    use seqc::task::Checkable;
    let task = match seqc::task::read(&c.input) {
        Ok(t) => t,
        Err(d) => return fail(&d),
    };
    let chosen = seqc::task::select(&task, c.property.as_deref());
    // One budget for the whole command, shared by the properties checked.
    let checkable = chosen.iter().filter(|p| p.check.is_ok()).count().max(1) as u64;
    // Growing bounds spend a budget (--timeout, or a minute); fixed bounds
    // without --timeout have none.
    let total = c
        .timeout
        .or_else(|| growth(c).map(|_| seqc::check::AUTO_BUDGET.as_secs()));
    start_clock(c, false);
    let t0 = std::time::Instant::now();
    let mut text = String::new();
    let mut json = Vec::new();
    let mut codes = Vec::new();
    let mut left = checkable;
    for p in &chosen {
        let expected = p.expected.map_or("unknown".to_string(), |e| e.to_string());
        let head = format!("property {} (expected verdict: {expected})\n", p.name);
        let kind = match &p.check {
            Ok(k) => k.clone(),
            Err(why) => {
                text.push_str(&head);
                text.push_str(&format!("NOT CHECKED: {why}\n\n"));
                json.push(serde_json::json!({
                    "property": p.name, "expected_verdict": p.expected, "checked": false, "reason": why,
                }));
                // Not checked is not known: SV-COMP's unknown.
                codes.push(20u8);
                continue;
            }
        };
        let mut pc = c.clone();
        take_task(&mut pc, &task);
        pc.property = Some(kind.seqc_name().into());
        if kind == Checkable::Race && !c.method_given {
            pc.method = MethodArg::Kiss;
        }
        let spent = t0.elapsed().as_secs();
        pc.timeout = total.map(|t| (t.saturating_sub(spent) / left).max(1));
        left = left.saturating_sub(1).max(1);
        // Witnesses describe assertion violations.
        if kind != Checkable::Assert {
            pc.witness = None;
        }
        let res = (|| -> Result<(seqc::check::Report, Config), Diagnostic> {
            let cfg = pc.config()?;
            let opts = check_options(&pc)?;
            let r = match growth(&pc) {
                Some(g) => seqc::check::check_auto(&pc.input, &cfg, &opts, &g)?,
                None => seqc::check::check(&pc.input, &cfg, &opts)?,
            };
            Ok((r, cfg))
        })();
        text.push_str(&head);
        if let Some(n) = &task.note {
            text.push_str(&format!("note: {n}\n"));
        }
        match res {
            Ok((r, cfg)) => {
                if let Err(d) = write_witness(&pc, &cfg, &r, p.text.as_deref().map(str::trim)) {
                    return fail(&d);
                }
                text.push_str(&seqc::check::render(&r));
                text.push('\n');
                json.push(serde_json::json!({
                    "property": p.name,
                    "expected_verdict": p.expected,
                    "checked": true,
                    "report": seqc::check::report_json(&r),
                }));
                codes.push(r.outcome.exit_code());
            }
            Err(d) => {
                text.push_str(&format!("{d}\n\n"));
                json.push(serde_json::json!({
                    "property": p.name, "expected_verdict": p.expected, "checked": false, "reason": d.message,
                }));
                codes.push(d.exit_code() as u8);
            }
        }
    }
    let code = [10u8, 20, 30, 1, 2]
        .into_iter()
        .find(|k| codes.contains(k))
        .unwrap_or(0);
    let out = if c.json {
        serde_json::to_string_pretty(&serde_json::json!({
            "task": c.input, "input": task.input, "properties": json,
        }))
        .unwrap()
            + "\n"
    } else {
        text
    };
    claim_answer();
    if let Err(d) = put(c, &out) {
        return fail(&d);
    }
    ExitCode::from(code)
}

/// The configuration at the bounds an answer was found with.
fn cfg_at(cfg: &Config, b: &seqc::check::Bounds) -> Config {
    let mut cfg = cfg.clone();
    cfg.unwind = b.unwind;
    cfg.threads = b.threads;
    cfg
}

fn refine(c: &Common) -> ExitCode {
    let cfg = match c.config().and_then(|cfg| check_output(c).map(|_| cfg)) {
        Ok(cfg) => cfg,
        Err(d) => return fail(&d),
    };
    let opts = match check_options(c) {
        Ok(o) => o,
        Err(d) => return fail(&d),
    };
    start_clock(c, false);
    let json = c.json;
    // Iterations show as they end on stdout; a file gets them with the
    // rest, at the end.
    let to_file = c.output.as_deref().is_some_and(|o| o != "-");
    let mut text = String::new();
    let names = |t: &Option<Vec<String>>| match t {
        Some(t) => format!("{{{}}}", t.join(", ")),
        None => "all regions (no slicing)".to_string(),
    };
    let mut show = |it: &seqc::refine::Iteration| {
        if !json {
            let line = format!(
                "refine: iteration {}: tracking {}: {} ({:.2} s; {} reads havocked, {} writes dropped, {} loops summarised)\n",
                it.number,
                names(&it.tracked),
                it.answer,
                it.seconds,
                it.havocked,
                it.dropped,
                it.summarised
            );
            if to_file {
                text.push_str(&line);
            } else if !ANSWERED.load(Ordering::SeqCst) {
                print!("{line}");
                let _ = std::io::stdout().flush();
            }
        }
    };
    let r = seqc::refine::refine(&c.input, &cfg, &opts, &mut show);
    let r = match r {
        Ok(r) => r,
        Err(d) => return fail_verdict(c, &d),
    };
    if json {
        text.push_str(&format!("{}\n", seqc::refine::render_json(&r)));
    } else {
        text.push_str(&format!("\n{}", seqc::check::render(&r.report)));
        text.push_str(&format!(
            "\nrefine: {} after {} iteration{}, {:.2} s; tracked: {}\n",
            seqc::check::verdict_line(&r.report),
            r.iterations.len(),
            if r.iterations.len() == 1 { "" } else { "s" },
            r.seconds,
            names(&r.tracked)
        ));
    }
    claim_answer();
    if let Err(d) = put(c, &text) {
        return fail(&d);
    }
    ExitCode::from(r.report.outcome.exit_code())
}

fn explore(c: &Common) -> ExitCode {
    let cfg = match c.config().and_then(|cfg| check_output(c).map(|_| cfg)) {
        Ok(cfg) => cfg,
        Err(d) => return fail(&d),
    };
    start_clock(c, false);
    let prog = match seqc::driver::load(&c.input, &cfg) {
        Ok(p) if cfg.property.strips_asserts() => seqc::passes::no_asserts::no_asserts(p),
        Ok(p) => p,
        Err(d) => return fail_verdict(c, &d),
    };
    let prepared = match seqc::oracle::prepare(&prog) {
        Ok(p) => p,
        Err(d) => return fail_verdict(c, &d),
    };
    let range = c
        .nondet_range
        .split_once("..")
        .and_then(|(a, b)| Some((a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?)));
    let nondet: Vec<i128> = match range {
        Some((a, b)) if a <= b && b - a <= 1000 => (a as i128..=b as i128).collect(),
        _ => {
            return fail(&Diagnostic::input(format!(
                "--nondet-range '{}': expected LO..HI with at most 1001 values",
                c.nondet_range
            )));
        }
    };
    let bounds = seqc::oracle::Bounds {
        unwind: cfg.unwind,
        threads: cfg.threads,
        max_states: c.max_states,
        nondet,
        deadlock: cfg.property.deadlock(),
        locks: cfg.property.locks(),
        locks_exit: cfg.property.locks_exit(),
        overflow: cfg.property.overflow(),
        memsafety: cfg.property.memsafety(),
        memtrack: cfg.property.memtrack(),
    };
    if matches!(cfg.property, Property::Race(_)) {
        let x = match prepared.races(&bounds) {
            Ok(x) => x,
            Err(d) => return fail_verdict(c, &d),
        };
        claim_answer();
        if let Err(d) = put(c, &seqc::oracle::render_races(&prog, &x, c.json)) {
            return fail(&d);
        }
        return ExitCode::from(if !x.races.is_empty() {
            10
        } else if x.complete {
            0
        } else {
            20
        });
    }
    let x = match prepared.explore(&bounds, Some(Default::default())) {
        Ok(x) => x,
        Err(d) => return fail_verdict(c, &d),
    };
    let text = if c.json {
        seqc::oracle::render_json(&prog, &x)
    } else {
        seqc::oracle::render(&prog, &x)
    };
    claim_answer();
    if let Err(d) = put(c, &text) {
        return fail(&d);
    }
    ExitCode::from(match x.verdict {
        seqc::oracle::Verdict::Safe => 0,
        seqc::oracle::Verdict::Unsafe => 10,
        seqc::oracle::Verdict::Unknown(_) => 20,
    })
}

fn gen_one(g: &GenArgs, seed: u64) -> seqc::generate::Generated {
    if g.nest_locks {
        seqc::generate::generate_nested(seed)
    } else if g.misuse_locks {
        seqc::generate::generate_misuse(seed)
    } else if g.pointer_starts {
        seqc::generate::generate_starts(seed)
    } else if g.timed_waits {
        seqc::generate::generate_timed(seed)
    } else if g.overflow {
        seqc::generate::generate_overflow(seed)
    } else if g.floats {
        seqc::generate::generate_float(seed)
    } else if g.heap_misuse {
        seqc::generate::generate_memory(seed)
    } else if g.mixed {
        seqc::generate::generate_mixed(seed)
    } else if g.punning {
        seqc::generate::generate_punning(seed)
    } else {
        seqc::generate::generate(seed)
    }
}

fn gen_programs(g: &GenArgs) -> ExitCode {
    let Some(dir) = &g.out else {
        for i in 0..g.count {
            print!("{}", gen_one(g, g.seed + i).text);
        }
        return ExitCode::SUCCESS;
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        return fail(&Diagnostic::input(format!("cannot create '{dir}': {e}")));
    }
    let mut all = Vec::new();
    let mut csv = String::from("file");
    for f in seqc::generate::FEATURES {
        csv.push(',');
        csv.push_str(f);
    }
    csv.push('\n');
    for i in 0..g.count {
        let seed = g.seed + i;
        let p = gen_one(g, seed);
        let name = format!("gen_{seed}.c");
        if let Err(e) = std::fs::write(format!("{dir}/{name}"), &p.text) {
            return fail(&Diagnostic::input(format!("cannot write in '{dir}': {e}")));
        }
        csv.push_str(&name);
        for f in seqc::generate::FEATURES {
            csv.push_str(if p.features[f] { ",1" } else { ",0" });
        }
        csv.push('\n');
        all.push(p.features);
    }
    if let Err(e) = std::fs::write(format!("{dir}/features.csv"), csv) {
        return fail(&Diagnostic::input(format!("cannot write in '{dir}': {e}")));
    }
    print!("{}", seqc::generate::report(&all));
    ExitCode::SUCCESS
}
