//! KISS end to end (DESIGN.md §1, §3, §6), against the oracle:
//! - every violation `seqc check --method kiss` reports is a failure of
//!   the input (the oracle has one, and the reported run replayed on it);
//! - with two threads (main and one single-shot child), every failure the
//!   oracle reaches with at most 2 context switches is found with ts >= 1
//!   (the KISS paper's coverage claim).
//!
//! The hand-analysed programs run through z3 and CBMC; generated
//! two-thread programs through z3.

mod common;

use common::{GEN_SOLVER, c_files, generated, have, parallel, sample_size, two_threads};
use seqc::config::Config;
use seqc::oracle::{self, Bounds, MeasureCaps};
use std::path::Path;

struct Truth {
    fails: bool,
    /// Fewest context switches of any failure.
    switches: Option<u32>,
    /// main and exactly one thread, created once.
    two_threads: bool,
}

fn truth(path: &Path) -> Truth {
    let prog = seqc::driver::load(path.to_str().unwrap(), &Config::default()).unwrap();
    let sites = seqc::ir::sites::thread_sites(&prog).unwrap();
    let two_threads = sites.len() == 1 && seqc::ir::sites::single_shot(&prog, &sites)[0];
    let prep = oracle::prepare(&prog).unwrap();
    let x = prep
        .explore(&Bounds::default(), Some(MeasureCaps::default()))
        .unwrap();
    Truth {
        fails: !x.failures.is_empty(),
        switches: x.failures.iter().filter_map(|f| f.switches).min(),
        two_threads,
    }
}

/// The exit code of `seqc check --method kiss` and its output.
fn check(path: &Path, ts: u32, backend: &str) -> (i32, String) {
    let out = common::seqc()
        .args(["check", "--method", "kiss", "--ts", &ts.to_string()])
        .args(["--backend", backend, "--timeout", "10"])
        .arg(path)
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).to_string();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

#[derive(Default)]
struct Tally {
    runs: u32,
    violations: u32,
    unknown: u32,
    unsupported: u32,
    bad: Vec<String>,
}

impl Tally {
    fn sum(ts: Vec<Tally>) -> Tally {
        let mut all = Tally::default();
        for t in ts {
            all.runs += t.runs;
            all.violations += t.violations;
            all.unknown += t.unknown;
            all.unsupported += t.unsupported;
            all.bad.extend(t.bad);
        }
        all
    }
}

fn judge(path: &Path, t: &Truth, tss: &[u32], backends: &[&str], tally: &mut Tally) {
    // Each backend's last answer. With one thread besides main the pass
    // caps ts at 1, so ts = 2 is the same program and gets the same
    // answer; a larger ts only adds runs to an encoding that timed out
    // already, so it is counted unknown without its 10 s.
    let mut last: Vec<(&str, u32, i32, String)> = Vec::new();
    for &ts in tss {
        for b in backends {
            let b = match *b {
                "z3" => common::smt_solver_for(path),
                b => b,
            };
            let before = last.iter().position(|l| l.0 == b);
            let (code, text) = match before.map(|i| &last[i]) {
                Some((_, 1, c, x)) if ts > 1 && t.two_threads => (*c, x.clone()),
                Some((_, _, 20, x)) if x.contains("timed out") => (20, x.clone()),
                _ => check(path, ts, b),
            };
            if let Some(i) = before {
                last.remove(i);
            }
            last.push((b, ts, code, text.clone()));
            tally.runs += 1;
            let what = format!("{} ts={ts} {b}", path.display());
            match code {
                10 => {
                    tally.violations += 1;
                    if !t.fails {
                        tally
                            .bad
                            .push(format!("{what}: a violation the oracle does not have"));
                    } else if !text.contains("replayed on the input") {
                        tally
                            .bad
                            .push(format!("{what}: a violation without its run:\n{text}"));
                    }
                }
                0 => {
                    let owed = ts >= 1 && t.two_threads && t.switches.is_some_and(|s| s <= 2);
                    if owed {
                        tally.bad.push(format!(
                            "{what}: missed a failure with {:?} switches in a two-thread program",
                            t.switches
                        ));
                    }
                }
                // A backend that timed out says so; it reports nothing.
                20 if text.contains("timed out") => tally.unknown += 1,
                // The SMT route names what it cannot encode.
                2 if b != "cbmc" && text.contains("unsupported") => tally.unsupported += 1,
                _ => tally.bad.push(format!("{what}: exit {code}:\n{text}")),
            }
        }
    }
}

#[test]
fn hand_programs_both_routes() {
    assert!(have("z3") && have("cbmc"), "run scripts/install-checkers");
    let progs = c_files("tests/oracle");
    assert!(progs.len() >= 10);
    // Two workers: a run that times out holds one for 10 s.
    let tally = Tally::sum(parallel(&progs, |p| {
        let mut t = Tally::default();
        judge(p, &truth(p), &[0, 1, 2], &["z3", "cbmc"], &mut t);
        t
    }));
    assert!(tally.bad.is_empty(), "{}", tally.bad.join("\n"));
    assert!(tally.violations > 0);
    // Only the larger programs may time out, and never most runs.
    assert!(
        tally.unknown * 10 < tally.runs,
        "{} of {} runs timed out",
        tally.unknown,
        tally.runs
    );
    eprintln!(
        "kiss hand programs: {} runs, {} violations (all real), {} timed out, {} unsupported on SMT",
        tally.runs, tally.violations, tally.unknown, tally.unsupported
    );
}

/// Bit-field programs (`tests/bitfield`) via CBMC (the SMT route refuses
/// bit-fields).
#[test]
fn bit_field_programs_via_cbmc() {
    assert!(have("cbmc"), "run scripts/install-checkers");
    let progs = c_files("tests/bitfield");
    let tally = Tally::sum(parallel(&progs, |p| {
        let mut t = Tally::default();
        judge(p, &truth(p), &[0, 1], &["cbmc"], &mut t);
        t
    }));
    assert!(tally.bad.is_empty(), "{}", tally.bad.join("\n"));
    assert!(tally.violations > 0);
}

#[test]
fn generated_programs_against_the_oracle() {
    assert!(have(GEN_SOLVER), "run scripts/install-checkers");
    let n = sample_size("SEQC_KISS_PROGRAMS", 300);
    let dir = tempfile::tempdir().unwrap();
    // Two-thread programs only: with more threads the nesting KISS
    // inlines makes most runs time out (scripts/kiss-diff measures those).
    let progs = generated(dir.path(), n, two_threads);
    let results = parallel(&progs, |p| {
        let t = truth(p);
        let mut tally = Tally::default();
        // With one thread besides main, ts is capped at 1: ts = 2 is the
        // same program.
        judge(p, &t, &[0, 1], &[GEN_SOLVER], &mut tally);
        let owed = t.two_threads && t.switches.is_some_and(|s| s <= 2);
        (tally, t.two_threads as u32, owed as u32)
    });
    let two: u32 = results.iter().map(|r| r.1).sum();
    let owed: u32 = results.iter().map(|r| r.2).sum();
    let tally = Tally::sum(results.into_iter().map(|r| r.0).collect());
    let (bad, violations, unknown) = (tally.bad, tally.violations, tally.unknown);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(violations > 0 && owed > 0, "the sample exercises nothing");
    eprintln!(
        "kiss generated: {n} two-thread programs ({two} checked), {violations} violations (all real), {owed} with a failure within 2 switches (all found), {unknown} timed out"
    );
}

// ---- race mode (KISS §5) ----

/// The oracle's races of a program: pairs of (file line, file line).
fn oracle_races(path: &Path) -> Vec<(u32, u32)> {
    let prog = seqc::driver::load(path.to_str().unwrap(), &Config::default()).unwrap();
    let prep = oracle::prepare(&prog).unwrap();
    let x = prep.races(&Bounds::default()).unwrap();
    assert!(
        x.complete,
        "{}: the race search ran out of states",
        path.display()
    );
    x.races
        .iter()
        .map(|r| (r.a.loc.line, r.b.loc.line))
        .collect()
}

fn check_race(path: &Path, ts: u32, backend: &str, region: Option<&str>) -> (i32, String) {
    let prop = match region {
        Some(r) => format!("race={r}"),
        None => "race".into(),
    };
    let out = common::seqc()
        .args(["check", "--method", "kiss", "--ts", &ts.to_string()])
        .args(["--property", &prop, "--backend", backend, "--timeout", "30"])
        .arg(path)
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).to_string();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

/// The two source lines a race report names.
fn reported_lines(text: &str) -> Vec<u32> {
    text.lines()
        .skip_while(|l| *l != "data race:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("    "))
        .filter_map(|l| l.trim().split(':').nth(1)?.parse().ok())
        .collect()
}

/// A race report must name two accesses the oracle has as a race, and
/// say it replayed.
fn judge_race(what: &str, text: &str, truth: &[(u32, u32)]) -> Option<String> {
    if !text.contains("replayed on the input") {
        return Some(format!("{what}: a race without its run:\n{text}"));
    }
    match reported_lines(text).as_slice() {
        [a, b] if truth.contains(&(*a, *b)) || truth.contains(&(*b, *a)) => None,
        lines => Some(format!(
            "{what}: reports lines {lines:?}, the oracle's races are {truth:?}:\n{text}"
        )),
    }
}

#[test]
fn race_hand_programs_both_routes() {
    assert!(have("z3") && have("cbmc"), "run scripts/install-checkers");
    let progs = c_files("tests/race");
    assert!(progs.len() >= 8);
    let mut bad = Vec::new();
    let (mut runs, mut found) = (0, 0);
    for p in &progs {
        let text = std::fs::read_to_string(p).unwrap();
        let head = text.lines().next().unwrap_or("");
        let expect = head.strip_prefix("// expect: ").expect("an expect line");
        let region = expect.strip_prefix("race ").map(str::trim);
        let truth = oracle_races(p);
        if (expect == "no-race") != truth.is_empty() {
            bad.push(format!("{}: the oracle finds {truth:?}", p.display()));
            continue;
        }
        // Every program here is main and one thread: ts >= 1 must find
        // every race (the racing pair is next in a run where the thread
        // runs inside main).
        for ts in 0..=2 {
            for b in ["z3", "cbmc"] {
                let (code, out) = check_race(p, ts, b, None);
                runs += 1;
                let what = format!("{} ts={ts} {b}", p.display());
                match code {
                    10 => {
                        found += 1;
                        bad.extend(judge_race(&what, &out, &truth));
                    }
                    0 if truth.is_empty() || ts == 0 => {}
                    _ => bad.push(format!("{what}: exit {code}:\n{out}")),
                }
            }
        }
        // The named region: found there; no other region is racy here.
        if let Some(r) = region {
            let (code, out) = check_race(p, 1, "z3", Some(r));
            if code != 10 {
                bad.push(format!("{} race={r}: exit {code}:\n{out}", p.display()));
            }
        }
    }
    // A region without a race, and one the program does not have.
    let hf = Path::new("tests/race/heap_field.c");
    let (code, out) = check_race(hf, 2, "cbmc", Some("struct pair.a"));
    if code != 0 {
        bad.push(format!(
            "heap_field race=struct pair.a: exit {code}:\n{out}"
        ));
    }
    let (code, out) = check_race(hf, 1, "z3", Some("struct nope.x"));
    if code != 1 || !out.contains("its regions: ") || !out.contains("struct pair.b") {
        bad.push(format!(
            "an unknown region must be an error listing the known ones: exit {code}:\n{out}"
        ));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    eprintln!(
        "kiss race hand programs: {runs} runs, {found} races (all oracle races, all replayed)"
    );
}

#[test]
fn race_generated_programs_against_the_oracle() {
    assert!(have(GEN_SOLVER), "run scripts/install-checkers");
    let n = sample_size("SEQC_KISS_RACE_PROGRAMS", 150);
    let dir = tempfile::tempdir().unwrap();
    // Two threads: see generated_programs_against_the_oracle.
    let progs = generated(dir.path(), n, two_threads);
    // Per program: (problems, racy, races reported, found with ts 1).
    let results = parallel(&progs, |p| {
        let truth = oracle_races(p);
        let (mut bad, mut reported, mut found1) = (Vec::new(), 0, 0);
        for ts in [0, 1] {
            let (code, out) = check_race(p, ts, GEN_SOLVER, None);
            let what = format!("{} ts={ts}", p.display());
            match code {
                10 => {
                    reported += 1;
                    found1 += (ts == 1) as u32;
                    bad.extend(judge_race(&what, &out, &truth));
                }
                0 => {}
                20 if out.contains("timed out") => {}
                _ => bad.push(format!("{what}: exit {code}:\n{out}")),
            }
        }
        (bad, !truth.is_empty() as u32, reported, found1)
    });
    let racy: u32 = results.iter().map(|r| r.1).sum();
    let reported: u32 = results.iter().map(|r| r.2).sum();
    let found1: u32 = results.iter().map(|r| r.3).sum();
    let bad: Vec<String> = results.into_iter().flat_map(|r| r.0).collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(racy > 0 && reported > 0, "the sample exercises nothing");
    eprintln!(
        "kiss race generated: {n} two-thread programs, {racy} with a race (oracle), {reported} races reported (all real, all replayed), {found1} found with ts 1"
    );
}

/// The per-site thread counts of a `main` whose body, after `pthread_t h;
/// int i = 0, k = 0;`, is `body` (`ir::sites::site_counts`).
fn site_counts_of(body: &str) -> Vec<Option<u64>> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.c");
    let text = format!(
        "#include <pthread.h>\nvoid *t(void *a) {{ return 0; }}\n\
         int main(void) {{ pthread_t h; int i = 0, k = 0; {body} return 0; }}\n"
    );
    std::fs::write(&path, text).unwrap();
    let prog = seqc::driver::load(path.to_str().unwrap(), &Config::default()).unwrap();
    let sites = seqc::ir::sites::thread_sites(&prog).unwrap();
    let counts = seqc::ir::sites::site_counts(&prog, &sites);
    let once = seqc::ir::sites::single_shot(&prog, &sites);
    assert_eq!(
        once,
        counts.iter().map(|c| *c == Some(1)).collect::<Vec<_>>()
    );
    counts
}

/// A create site after a label is single-shot when every goto to the
/// label comes before it (SV-COMP's `goto ERROR`), and not when a goto
/// comes back to it: one slot, or `--threads` of them.
#[test]
fn single_shot_sites_and_gotos() {
    let shots =
        |body: &str| -> Vec<bool> { site_counts_of(body).iter().map(|c| *c == Some(1)).collect() };
    let create = "pthread_create(&h, 0, t, 0);";
    assert_eq!(shots(&format!("if (i) goto E; {create} E: i = 1;")), [true]);
    assert_eq!(shots(&format!("{create} goto E; E: i = 1;")), [true]);
    assert_eq!(
        shots(&format!("A: {create} i++; if (i < 2) goto A;")),
        [false]
    );
    assert_eq!(
        shots(&format!("{create} A: i++; if (i < 2) goto A;")),
        [false],
        "a backward goto anywhere in the function counts"
    );
    assert_eq!(
        shots(&format!("while (i < 2) {{ {create} i++; }}")),
        [false]
    );
}

/// A site in counted loops makes at most the product of their trip
/// counts; a goto into such a loop skips its counter's start, and an
/// uncounted loop has no bound.
#[test]
fn site_counts_follow_counted_loops() {
    let counts = site_counts_of;
    let create = "pthread_create(&h, 0, t, 0);";
    assert_eq!(counts(create), [Some(1)]);
    assert_eq!(
        counts(&format!("for (int i = 0; i < 2; i++) {create}")),
        [Some(2)]
    );
    assert_eq!(
        counts(&format!(
            "for (int i = 0; i < 2; i++) for (int j = 0; j <= 2; j++) {create}"
        )),
        [Some(6)]
    );
    assert_eq!(
        counts(&format!("while (k < 2) {{ {create} k++; }}")),
        [None]
    );
    assert_eq!(
        counts(&format!(
            "i = 5; if (k) goto L; for (i = 0; i < 1; i++) {{ L: {create} }}"
        )),
        [None],
        "a goto into a counted loop skips its start"
    );
    assert_eq!(
        counts(&format!("if (k) goto E; {create} {create} E: k = 1;")),
        [Some(1), Some(1)]
    );
}

/// KISS's C output on `tests/kiss_c`: escaping locals live in heap
/// cells, and a jump past a declaration still finds one (memsafety via
/// CBMC: no violation, as the oracle says).
#[test]
fn heap_cells_survive_a_goto_past_the_declaration() {
    assert!(have("cbmc"), "run scripts/install-checkers");
    let f = "tests/kiss_c/goto_past_local.c";
    for ts in ["1", "2"] {
        let out = common::seqc()
            .args(["check", "--method", "kiss", "--ts", ts, "--backend", "cbmc"])
            .args([
                "--property",
                "memsafety",
                "--bounds",
                "fixed",
                "--timeout",
                "60",
                f,
            ])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "ts {ts}: {text}");
        assert!(text.contains("VERIFICATION SUCCESSFUL"), "{text}");
    }
    let x = common::seqc()
        .args(["explore", "--property", "memsafety", f])
        .output()
        .unwrap();
    assert_eq!(x.status.code(), Some(0));
}
