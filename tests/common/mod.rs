//! Helpers the end-to-end test files share.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The binary under test, with the IR verifier after every pass (release
/// builds skip it unless asked).
pub fn seqc() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("seqc").unwrap();
    c.env("SEQC_VERIFY_IR", "1");
    c
}

/// The solver the generated-program tests run. Measured on the 150
/// programs of generated_programs_against_the_oracle at Lal-Reps K = 3
/// (30 s each): z3 4.x took 627 s on the first 107 with 14 timeouts
/// (recursive mutexes, the mutex word's owner/count/kind bits), bitwuzla
/// 120 s with none. The hand programs run z3 and CBMC.
pub const GEN_SOLVER: &str = "bitwuzla";

/// Is the checker installed (by scripts/install-checkers)?
pub fn have(tool: &str) -> bool {
    seqc::check::find_tool(tool).is_some()
}

/// `f` on every item, on two workers (the machines have two cores and
/// each item runs checkers as child processes); results in item order.
pub fn parallel<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = std::thread::scope(|sc| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                sc.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::SeqCst);
                        let Some(it) = items.get(i) else { break };
                        done.push((i, f(it)));
                    }
                    done
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

/// The `.c` files of a directory, sorted.
pub fn c_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

/// The number of programs a generated-program test runs: the environment
/// variable, or the test's default (300 for the two differential tests of
/// the methods, whose programs carry the pthread features; 150 for race
/// mode and slicing). scripts/lal-reps-diff, kiss-diff and refine-diff run
/// the large samples.
pub fn sample_size(var: &str, default: usize) -> usize {
    std::env::var(var)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// Writes the first `n` generated programs (seeds from 1) that `keep`
/// accepts into `dir`; returns their paths.
pub fn generated(dir: &Path, n: usize, keep: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    generated_by(seqc::generate::generate, dir, n, keep)
}

/// `generated` with another generator (`generate_nested`).
pub fn generated_by(
    gen_fn: fn(u64) -> seqc::generate::Generated,
    dir: &Path,
    n: usize,
    keep: impl Fn(&str) -> bool,
) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut seed = 1;
    while out.len() < n {
        let g = gen_fn(seed);
        if keep(&g.text) {
            let path = dir.join(format!("gen_{seed}.c"));
            std::fs::write(&path, &g.text).unwrap();
            out.push(path);
        }
        seed += 1;
    }
    out
}

/// Main and one thread: the programs the KISS coverage claims are about
/// (the generator never puts a create in a loop).
pub fn two_threads(text: &str) -> bool {
    text.matches("pthread_create(").count() == 1
}

/// The oracle's fewest rounds of any failure of the program at `path`.
pub fn rounds_measure(path: &Path) -> Option<u32> {
    use seqc::oracle::{self, Bounds};
    let cfg = seqc::config::Config::default();
    let prog = seqc::driver::load(path.to_str().unwrap(), &cfg).unwrap();
    let prep = oracle::prepare(&prog).unwrap();
    let x = prep
        .explore(&Bounds::default(), Some(Default::default()))
        .unwrap();
    x.failures.iter().filter_map(|f| f.rounds).min()
}

/// The checks of a property's hand programs: each program through
/// Lal-Reps K=2 via z3 (bitwuzla for memory safety) and via CBMC and KISS ts=1 via CBMC, and KISS via
/// z3 where it creates one thread (KISS's SMT encoding grows exponentially
/// with the threads: issue 28).
pub fn property_jobs(files: &[PathBuf]) -> Vec<(PathBuf, Vec<&'static str>)> {
    let lr = |b: &'static str| vec!["--method", "lal-reps", "--rounds", "2", "--backend", b];
    let kiss = |b: &'static str| vec!["--method", "kiss", "--ts", "1", "--backend", b];
    let mut configs = Vec::new();
    if have("z3") {
        configs.push(lr("z3"));
    }
    if have("cbmc") {
        configs.push(lr("cbmc"));
        configs.push(kiss("cbmc"));
    }
    assert!(
        !configs.is_empty(),
        "no checker: run scripts/install-checkers"
    );
    let mut jobs = Vec::new();
    for f in files {
        for c in &configs {
            // Memory safety's SMT queries take z3 a minute or more where
            // bitwuzla needs seconds (stores_after_free.c: 46-71 s against
            // 3 s, over the 120 s timeout on a loaded CI machine); the
            // other properties keep z3.
            let memsafety = f.components().any(|x| x.as_os_str() == "memsafety");
            let c = match c.last() {
                Some(&"z3") if memsafety && have("bitwuzla") => {
                    let mut c = c.clone();
                    *c.last_mut().unwrap() = "bitwuzla";
                    c
                }
                _ => c.clone(),
            };
            jobs.push((f.clone(), c));
        }
        let one_thread = std::fs::read_to_string(f)
            .unwrap()
            .matches("pthread_create(&")
            .count()
            == 1;
        if have("z3") && one_thread {
            jobs.push((f.clone(), kiss("z3")));
        }
    }
    jobs
}

/// The SMT solver the hand-program tests use for `p`: z3, but bitwuzla
/// where the program computes with floating point (z3 needs minutes on
/// the FloatingPoint queries bitwuzla answers in seconds) or parses
/// strings.
pub fn smt_solver_for(p: &Path) -> &'static str {
    let text = std::fs::read_to_string(p).unwrap_or_default();
    // And where it parses strings (the models' character loops): z3 took
    // 146-252 s on sscanf_exact.c and strtol_parse.c at K = 1 and 2, most
    // of the Lal-Reps hand-program test's time; bitwuzla 36-71 s at K = 3.
    let slow = text
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .any(|w| ["double", "float", "sscanf", "strtol", "strtoul", "atoi"].contains(&w));
    if slow { "bitwuzla" } else { "z3" }
}
