//! Tests of the oracle itself (the interleaving explorer of DESIGN.md §6).
//!
//! `tests/oracle/*.c` are hand-analysed programs: the first line says the
//! verdict and, for a failure, the assertion's line and the fewest rounds
//! and context switches, and the comment under it says why. The oracle
//! must agree exactly. Then: every failure's schedule replays; a wrong
//! schedule does not, and says why; generated programs explore without
//! errors and their failures replay; the CLI's verdict lines and exit codes.

use assert_cmd::Command;
use seqc::config::Config;
use seqc::oracle::{self, Bounds, ReplayOutcome, Schedule, Segment, Verdict};
use std::path::Path;

fn load(path: &Path) -> seqc::ir::Program {
    seqc::driver::load(path.to_str().unwrap(), &Config::default())
        .unwrap_or_else(|d| panic!("{}: {d}", path.display()))
}

struct Expect {
    failed: Option<(u32, u32, u32)>,
}

fn expectation(text: &str) -> Expect {
    let first = text.lines().next().unwrap();
    let rest = first
        .strip_prefix("// expect: ")
        .expect("first line: // expect: ...");
    if rest.trim() == "successful" {
        return Expect { failed: None };
    }
    let w: Vec<&str> = rest.split_whitespace().collect();
    assert_eq!(w[0], "failed");
    let num = |s: &str, k: &str| s.strip_prefix(k).unwrap().parse::<u32>().unwrap();
    Expect {
        failed: Some((
            w[1].parse().unwrap(),
            num(w[2], "rounds="),
            num(w[3], "switches="),
        )),
    }
}

/// `tests/oracle`, and `tests/bitfield` (bit-field programs: the SMT
/// route refuses them, so `tests/lal_reps.rs` and `tests/kiss.rs` check
/// them via CBMC only).
fn hand_programs() -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = ["tests/oracle", "tests/bitfield"]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

#[test]
fn hand_analysed_programs() {
    let progs = hand_programs();
    assert!(progs.len() >= 10);
    for path in progs {
        let text = std::fs::read_to_string(&path).unwrap();
        let want = expectation(&text);
        let prog = load(&path);
        let prep = oracle::prepare(&prog).unwrap();
        let x = prep
            .explore(&Bounds::default(), Some(Default::default()))
            .unwrap();
        match want.failed {
            None => assert_eq!(x.verdict, Verdict::Safe, "{}", path.display()),
            Some((line, rounds, switches)) => {
                assert_eq!(x.verdict, Verdict::Unsafe, "{}", path.display());
                assert_eq!(x.failures.len(), 1, "{}", path.display());
                let f = &x.failures[0];
                assert_eq!(f.loc.line, line, "{}", path.display());
                assert_eq!(f.rounds, Some(rounds), "rounds of {}", path.display());
                assert_eq!(f.switches, Some(switches), "switches of {}", path.display());
                // The trace ends at the failing assertion.
                let last = f.trace.last().unwrap().events.last().unwrap();
                assert_eq!(last.loc.line, line);
                assert_eq!(last.what, "assertion fails");
                // Its rounds are the measure; a failure in main's final
                // context shows in a round of its own, one past K.
                let last = f.trace.last().unwrap();
                let fin = last.thread == 0
                    && last.round > 1
                    && f.trace
                        .iter()
                        .all(|s| s.round < last.round || s.thread == 0);
                assert_eq!(last.round, rounds + fin as u32, "{}", path.display());
                // And it replays.
                match prep.replay(&Bounds::default(), &f.schedule).unwrap() {
                    ReplayOutcome::Confirmed { loc, .. } => assert_eq!(loc, f.loc),
                    ReplayOutcome::NotReproduced(why) => {
                        panic!("{}: own schedule does not replay: {why}", path.display())
                    }
                }
            }
        }
    }
}

#[test]
fn replay_checks_the_schedule() {
    let prog = load(Path::new("tests/oracle/lost_update.c"));
    let prep = oracle::prepare(&prog).unwrap();
    let b = Bounds::default();
    let seg = |thread, steps| Segment {
        thread,
        round: None,
        steps,
        until: None,
    };
    // main alone: the threads never run, so the assertion waits on joins.
    let only_main = Schedule {
        segments: vec![seg(0, None)],
        ..Default::default()
    };
    match prep.replay(&b, &only_main).unwrap() {
        ReplayOutcome::NotReproduced(why) => {
            assert!(why.contains("blocked"), "{why}")
        }
        ReplayOutcome::Confirmed { .. } => panic!("main alone cannot fail"),
    }
    // Each thread to completion in turn: no lost update.
    let serial = Schedule {
        segments: vec![seg(0, Some(2)), seg(1, None), seg(2, None), seg(0, None)],
        ..Default::default()
    };
    assert!(matches!(
        prep.replay(&b, &serial).unwrap(),
        ReplayOutcome::NotReproduced(_)
    ));
    // The lost update, with the segment lengths left to the replay.
    let lost = Schedule {
        segments: vec![
            seg(0, None),
            seg(1, None),
            seg(2, None),
            seg(1, None),
            seg(0, None),
        ],
        ..Default::default()
    };
    match prep.replay(&b, &lost).unwrap() {
        ReplayOutcome::Confirmed { loc, trace, .. } => {
            assert_eq!(loc.line, 22);
            assert_eq!(trace.last().map(|s| s.round), Some(3));
        }
        ReplayOutcome::NotReproduced(why) => panic!("{why}"),
    }
    // Another place was expected (an assertion the lost update stops the
    // thread before): not reproduced, unless any failure will do, and then
    // it is the one met on the way.
    let ReplayOutcome::Confirmed { loc, .. } = prep.replay(&b, &lost).unwrap() else {
        unreachable!()
    };
    let elsewhere = Schedule {
        expect: Some(seqc::ir::Loc { line: 99, ..loc }),
        ..lost.clone()
    };
    assert!(matches!(
        prep.replay(&b, &elsewhere).unwrap(),
        ReplayOutcome::NotReproduced(_)
    ));
    let any = Schedule {
        any_failure: true,
        ..elsewhere
    };
    match prep.replay(&b, &any).unwrap() {
        ReplayOutcome::Confirmed { loc, .. } => assert_eq!(loc.line, 22),
        ReplayOutcome::NotReproduced(why) => panic!("{why}"),
    }
}

#[test]
fn replay_uses_given_nondet_values() {
    let prog = load(Path::new("tests/oracle/nondet_assume.c"));
    let prep = oracle::prepare(&prog).unwrap();
    let b = Bounds::default();
    let with = |v: i128| Schedule {
        segments: vec![Segment {
            round: None,
            thread: 0,
            steps: None,
            until: None,
        }],
        nondet: [(0, vec![v])].into_iter().collect(),
        expect: None,
        race: None,
        deadlock: false,
        kind: None,
        any_failure: false,
    };
    assert!(matches!(
        prep.replay(&b, &with(2)).unwrap(),
        ReplayOutcome::Confirmed { .. }
    ));
    // v = 1 violates the assume: the thread stops, nothing fails.
    assert!(matches!(
        prep.replay(&b, &with(1)).unwrap(),
        ReplayOutcome::NotReproduced(_)
    ));
}

#[test]
fn generator_is_reproducible() {
    let a = seqc::generate::generate(42);
    let b = seqc::generate::generate(42);
    let c = seqc::generate::generate(43);
    assert_eq!(a.text, b.text);
    assert_ne!(a.text, c.text);
}

#[test]
fn generated_programs_explore_and_failures_replay() {
    let dir = tempfile::tempdir().unwrap();
    let b = Bounds::default();
    let (mut failed, mut safe, mut replayed) = (0, 0, 0);
    for seed in 1..=120u64 {
        let g = seqc::generate::generate(seed);
        let path = dir.path().join(format!("gen_{seed}.c"));
        std::fs::write(&path, &g.text).unwrap();
        let prog = load(&path);
        let prep = oracle::prepare(&prog).unwrap_or_else(|d| panic!("seed {seed}: {d}"));
        let x = prep
            .explore(&b, Some(Default::default()))
            .unwrap_or_else(|d| panic!("seed {seed}: {d}"));
        match x.verdict {
            Verdict::Unsafe => failed += 1,
            Verdict::Safe => safe += 1,
            Verdict::Unknown(w) => panic!("seed {seed}: {w}"),
        }
        for f in &x.failures {
            assert!(f.rounds.is_some() && f.switches.is_some(), "seed {seed}");
            match prep.replay(&b, &f.schedule).unwrap() {
                ReplayOutcome::Confirmed { loc, .. } => {
                    assert_eq!(loc, f.loc);
                    replayed += 1;
                }
                ReplayOutcome::NotReproduced(w) => panic!("seed {seed}: {w}"),
            }
        }
    }
    assert!(failed >= 20 && safe >= 20, "failed {failed}, safe {safe}");
    assert!(replayed >= failed);
}

#[test]
fn explore_command_verdicts_and_exit_codes() {
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("seqc")
            .unwrap()
            .env("SEQC_VERIFY_IR", "1")
            .arg("explore")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (code, out) = run(&["tests/oracle/lost_update.c"]);
    assert_eq!(code, 10);
    assert!(out.starts_with("VERIFICATION FAILED\n"), "{out}");
    assert!(out.contains("fewest rounds: 2; fewest context switches: 4"));
    let (code, out) = run(&["tests/oracle/locked_increment.c"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("VERIFICATION SUCCESSFUL"), "{out}");
    // Over the state budget: UNKNOWN, never SAFE.
    let (code, out) = run(&["--max-states", "5", "tests/oracle/locked_increment.c"]);
    assert_eq!(code, 20);
    assert!(out.starts_with("VERIFICATION UNKNOWN: "), "{out}");
    let (code, out) = run(&["--json", "tests/oracle/sibling_join.c"]);
    assert_eq!(code, 10);
    assert!(out.contains("\"verdict\":\"FAILED\""), "{out}");
    assert!(out.contains("\"rounds\":1"), "{out}");
}

/// glibc's `pthread_mutex_destroy` returns EBUSY while another thread
/// waits on the mutex in a condition wait (the waiter keeps a use of it).
/// The oracle models it; the sequentializations return 0 there (a
/// counterexample that needs the 0 does not replay: README).
#[test]
fn mutex_destroy_sees_condition_waiters() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("destroy_waiter.c");
    let text = "#include <pthread.h>\n#include <assert.h>\n#include <errno.h>\n\
        pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n\
        pthread_cond_t c = PTHREAD_COND_INITIALIZER;\nint flag, go;\n\
        void *f(void *a) { pthread_mutex_lock(&m); flag = 1;\n\
        while (!go) pthread_cond_wait(&c, &m);\n\
        pthread_mutex_unlock(&m); return 0; }\n\
        int main(void) { pthread_t t; pthread_create(&t, 0, f, 0);\n\
        if (flag) assert(pthread_mutex_destroy(&m) == EBUSY);\n\
        return 0; }\n";
    std::fs::write(&p, text).unwrap();
    let prog = load(&p);
    let x = oracle::prepare(&prog)
        .unwrap()
        .explore(&Bounds::default(), None)
        .unwrap();
    assert_eq!(
        x.verdict,
        Verdict::Safe,
        "{:?}",
        x.failures.first().map(|f| f.loc)
    );
    // And so a program that expects 0 there fails.
    let q = dir.path().join("destroy_zero.c");
    std::fs::write(&q, text.replace("== EBUSY", "== 0")).unwrap();
    let prog = load(&q);
    let x = oracle::prepare(&prog)
        .unwrap()
        .explore(&Bounds::default(), None)
        .unwrap();
    assert_eq!(x.verdict, Verdict::Unsafe);
}
