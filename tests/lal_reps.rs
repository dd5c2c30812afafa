//! Lal-Reps end to end (DESIGN.md §3, §6): `seqc check --method lal-reps
//! --rounds K` must report a violation exactly when the oracle's fewest
//! rounds of some failure is at most K — on the hand-analysed programs
//! (z3 and CBMC, so both routes agree) and on generated programs (z3).

mod common;

use common::{GEN_SOLVER, c_files, generated, have, parallel, sample_size};
use std::path::Path;

fn measure(path: &Path) -> Option<u32> {
    common::rounds_measure(path)
}

/// The exit code of `seqc check`; a violation must come with the run of
/// the input it was replayed as.
fn check(path: &Path, k: u32, backend: &str) -> i32 {
    let out = common::seqc()
        .args(["check", "--method", "lal-reps", "--rounds", &k.to_string()])
        .args(["--backend", backend, "--timeout", "300"])
        .arg(path)
        .output()
        .unwrap();
    let code = out.status.code().unwrap_or(-1);
    let text = String::from_utf8_lossy(&out.stdout);
    if code == 10 {
        assert!(
            text.contains("replayed on the input") && text.contains("  round 1\n"),
            "{}: a violation without its concurrent run:\n{text}",
            path.display()
        );
    }
    code
}

/// One check against the oracle's fewest rounds `m`: a violation exactly
/// when `m <= k`.
fn judge(path: &Path, m: Option<u32>, k: u32, backend: &str) -> Option<String> {
    let want = if m.is_some_and(|r| r <= k) { 10 } else { 0 };
    let got = check(path, k, backend);
    (got != want).then(|| {
        format!(
            "{} K={k} {backend}: oracle rounds {m:?}, exit {got}",
            path.display()
        )
    })
}

#[test]
fn hand_programs_both_routes() {
    assert!(have("z3") && have("cbmc"), "run scripts/install-checkers");
    let progs = c_files("tests/oracle");
    assert!(progs.len() >= 10);
    let rounds = parallel(&progs, |p| measure(p));
    // One check per item, the costly ones (CBMC, high K) first: CBMC on
    // heap_var_size alone takes a minute at K = 3, and per-program items
    // left it running by itself at the end.
    let mut runs: Vec<(&Path, Option<u32>, u32, &str)> = Vec::new();
    for k in [3, 2, 1] {
        for b in ["cbmc", "z3"] {
            runs.extend(
                progs
                    .iter()
                    .zip(&rounds)
                    .map(|(p, &m)| (p.as_path(), m, k, b)),
            );
        }
    }
    let bad: Vec<String> = parallel(&runs, |&(p, m, k, b)| judge(p, m, k, b))
        .into_iter()
        .flatten()
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn generated_programs_against_the_oracle() {
    assert!(have(GEN_SOLVER), "run scripts/install-checkers");
    let dir = tempfile::tempdir().unwrap();
    let progs = generated(dir.path(), sample_size("SEQC_LR_PROGRAMS", 300), |_| true);
    // Each program runs the oracle and three checks.
    let results = parallel(&progs, |p| {
        let m = measure(p);
        let bad: Vec<String> = (1..=3).filter_map(|k| judge(p, m, k, GEN_SOLVER)).collect();
        (m.is_some() as u32, bad)
    });
    let bugs: u32 = results.iter().map(|r| r.0).sum();
    let bad: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    assert!(bugs > 0, "the sample has no bug at all");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
