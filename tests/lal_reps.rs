//! Lal-Reps end to end (DESIGN.md §3, §6): `seqc check --method lal-reps
//! --rounds K` must report a violation exactly when the oracle's fewest
//! rounds of some failure is at most K — on the hand-analysed programs
//! (z3 and CBMC, so both routes agree) and on generated programs (z3).

use assert_cmd::Command;
use seqc::config::Config;
use seqc::oracle::{self, Bounds};
use std::path::{Path, PathBuf};

fn measure(path: &Path) -> Option<u32> {
    let prog = seqc::driver::load(path.to_str().unwrap(), &Config::default()).unwrap();
    let prep = oracle::prepare(&prog).unwrap();
    let x = prep
        .explore(&Bounds::default(), Some(Default::default()))
        .unwrap();
    x.failures.iter().filter_map(|f| f.rounds).min()
}

/// The exit code of `seqc check`; a violation must come with the run of
/// the input it was replayed as.
fn check(path: &Path, k: u32, backend: &str) -> i32 {
    let out = Command::cargo_bin("seqc")
        .unwrap()
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

fn agree(path: &Path, backends: &[&str]) -> Vec<String> {
    let m = measure(path);
    let mut bad = Vec::new();
    for k in 1..=3 {
        let want = if m.is_some_and(|r| r <= k) { 10 } else { 0 };
        for b in backends {
            let got = check(path, k, b);
            if got != want {
                bad.push(format!(
                    "{} K={k} {b}: oracle rounds {m:?}, exit {got}",
                    path.display()
                ));
            }
        }
    }
    bad
}

fn have(tool: &str) -> bool {
    seqc::check::find_tool(tool).is_some()
}

#[test]
fn hand_programs_both_routes() {
    assert!(have("z3") && have("cbmc"), "run scripts/install-checkers");
    let mut progs: Vec<PathBuf> = std::fs::read_dir("tests/oracle")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    progs.sort();
    assert!(progs.len() >= 10);
    // Two workers: CBMC on heap_var_size alone takes a minute at K = 3.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let bad: Vec<String> = std::thread::scope(|sc| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                sc.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        let Some(p) = progs.get(i) else { break };
                        out.extend(agree(p, &["z3", "cbmc"]));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn generated_programs_against_the_oracle() {
    assert!(have("z3"), "run scripts/install-checkers");
    let n: u64 = std::env::var("SEQC_LR_PROGRAMS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(300);
    let dir = tempfile::tempdir().unwrap();
    // Two workers: each program runs the oracle and three checks.
    let next = std::sync::atomic::AtomicU64::new(1);
    let results: Vec<(u32, Vec<String>)> = std::thread::scope(|sc| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                sc.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let seed = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        if seed > n {
                            break;
                        }
                        let g = seqc::generate::generate(seed);
                        let path = dir.path().join(format!("gen_{seed}.c"));
                        std::fs::write(&path, &g.text).unwrap();
                        let bug = measure(&path).is_some() as u32;
                        out.push((bug, agree(&path, &["z3"])));
                    }
                    out
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    });
    let bugs: u32 = results.iter().map(|r| r.0).sum();
    let bad: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    assert!(bugs > 0, "the sample has no bug at all");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
