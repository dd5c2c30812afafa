//! Field slicing and `refine` (STORM §3, DESIGN.md §1): a sliced program
//! that is safe means the input is safe within the bounds (checked against
//! the oracle on generated programs), a sliced violation is always a
//! replayed run of the input, and refine finds the fields a property
//! depends on and answers as the unsliced check does.

mod common;

use assert_cmd::Command;
use common::{GEN_SOLVER, generated, have, parallel, sample_size};
use seqc::config::Config;
use std::path::Path;

fn seqc() -> Command {
    common::seqc()
}

/// The oracle's fewest rounds of any failure.
fn measure(path: &Path) -> Option<u32> {
    common::rounds_measure(path)
}

fn regions(path: &Path) -> Vec<String> {
    use seqc::driver::{Until, build};
    let b = build(
        path.to_str().unwrap(),
        &Config::default(),
        Until::Normalized,
        false,
    )
    .unwrap();
    seqc::ir::regions_report::names(&b.prog)
}

/// (exit code, stdout) of a sliced Lal-Reps check at K = 2.
fn sliced_check(path: &Path, track: &[String]) -> (i32, String) {
    let out = seqc()
        .args(["check", "--method", "lal-reps", "--rounds", "2"])
        .args(["--backend", GEN_SOLVER, "--timeout", "120", "--track"])
        .arg(track.join(","))
        .arg(path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn sliced_safe_means_the_input_is_safe() {
    assert!(have(GEN_SOLVER), "run scripts/install-checkers");
    let dir = tempfile::tempdir().unwrap();
    let progs = generated(dir.path(), sample_size("SEQC_SLICE_PROGRAMS", 150), |_| {
        true
    });
    let results = parallel(&progs, |p| {
        let m = measure(p);
        let all = regions(p);
        // Track every other region, starting at a place the seed picks.
        let seed: usize = p.to_string_lossy().bytes().map(usize::from).sum();
        let track: Vec<String> = all
            .iter()
            .enumerate()
            .filter(|(i, _)| (i + seed).is_multiple_of(2))
            .map(|(_, r)| r.clone())
            .collect();
        let (code, text) = sliced_check(p, &track);
        let bug = m.is_some_and(|r| r <= 2);
        let bad = match code {
            0 if bug => Some("sliced SAFE, but the oracle fails within 2 rounds"),
            10 if !bug => Some("a sliced violation the oracle does not have"),
            10 if !text.contains("replayed on the input") => Some("a violation not replayed"),
            20 if !text.contains("spurious") && !text.contains("timed out") => {
                Some("UNKNOWN for no reason given")
            }
            0 | 10 | 20 => None,
            _ => Some("unexpected exit"),
        };
        (
            code,
            bad.map(|b| {
                format!(
                    "{} --track {track:?}: {b} (exit {code})\n{text}",
                    p.display()
                )
            }),
        )
    });
    let count = |c: i32| results.iter().filter(|r| r.0 == c).count();
    let bad: Vec<String> = results.iter().filter_map(|r| r.1.clone()).collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The sample must exercise all three answers.
    assert!(
        count(0) > 0 && count(10) > 0 && count(20) > 0,
        "safe {}, violation {}, spurious {}",
        count(0),
        count(10),
        count(20)
    );
}

fn check_verdict(path: &str, backend: &str) -> i32 {
    seqc()
        .args([
            "check", "--method", "lal-reps", "--rounds", "2", "--unwind", "3",
        ])
        .args(["--backend", backend, "--timeout", "300", path])
        .output()
        .unwrap()
        .status
        .code()
        .unwrap_or(-1)
}

#[test]
fn refine_finds_the_fields_the_property_needs() {
    assert!(have("z3") && have("cbmc"), "run scripts/install-checkers");
    let cases = [
        ("tests/slice/driver_safe.c", 0),
        ("tests/slice/driver_bug.c", 10),
    ];
    for (path, want) in cases {
        // The unsliced answer, from z3 (CBMC needs minutes on the unsliced
        // safe variant: the point of slicing).
        assert_eq!(check_verdict(path, "z3"), want, "{path} unsliced");
        for backend in ["z3", "cbmc"] {
            let out = seqc()
                .args([
                    "refine", "--method", "lal-reps", "--rounds", "2", "--unwind", "3",
                ])
                .args(["--backend", backend, "--timeout", "300", "--json", path])
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(want), "{path} refine {backend}");
            let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let tracked: Vec<&str> = j["tracked"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
            // The property's own field, and for the proof the field the
            // check reads under the lock; never most of the 32 fields.
            assert!(tracked.contains(&"struct request.freed"), "{tracked:?}");
            if want == 0 {
                assert!(tracked.contains(&"struct request.completed"), "{tracked:?}");
            }
            assert!(tracked.len() <= 4, "{path} {backend}: {tracked:?}");
            assert!(j["iterations"].as_u64().unwrap() <= 4);
            assert!(j["seconds"].as_f64().is_some());
            assert_eq!(
                j["verdict"],
                if want == 0 { "SUCCESSFUL" } else { "FAILED" },
                "{path} {backend}"
            );
        }
    }
}

/// `seqc translate --method none --track TRACK PATH`, which must succeed.
fn sliced_c(track: &str, path: &str) -> String {
    let out = seqc()
        .args(["translate", "--method", "none", "--track", track, path])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{path}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn track_slices_what_it_is_told() {
    // With only the asserted field tracked, the noise fields are gone
    // from the output and reads of `completed` are havocs.
    let c = sliced_c("struct request.freed", "tests/slice/driver_safe.c");
    assert!(c.contains("__seqc_havoc_"), "{c}");
    assert!(!c.contains("->retries ="), "{c}");
    assert!(c.contains("->freed = 1;"), "{c}");
    assert!(!c.contains("->completed = 1;"), "{c}");
    // Deterministic.
    let again = sliced_c("struct request.freed", "tests/slice/driver_safe.c");
    assert_eq!(c, again);
    // Race mode needs every access: refused by name.
    let out = seqc()
        .args(["translate", "--method", "kiss", "--property", "race"])
        .args([
            "--track",
            "struct request.freed",
            "tests/slice/driver_safe.c",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not supported yet"));
}

/// (exit code, JSON output) of `seqc ARGS --json`.
fn json_of(args: &[&str]) -> (i32, serde_json::Value) {
    let out = seqc().args(args).arg("--json").output().unwrap();
    let j = serde_json::from_slice(&out.stdout).unwrap();
    (out.status.code().unwrap_or(-1), j)
}

#[test]
fn refine_brings_back_a_summarised_loop() {
    assert!(have("z3"), "run scripts/install-checkers");
    let path = "tests/slice/wait_loop.c";
    // Tracking `data` alone summarises the consumer's spin loop on
    // `ready` (a havoc marks where it was): the sliced counterexample
    // lets the consumer through early and must not be reported.
    let c = sliced_c("struct msg.data", path);
    assert!(!c.contains("while") && !c.contains("for ("), "{c}");
    assert!(c.contains("spins = __seqc_havoc_"), "{c}");
    let (_, j) = json_of(&["check", "--rounds", "2", "--track", "struct msg.data", path]);
    assert_eq!(j["verdict"], "UNKNOWN", "{j}");
    assert_eq!(j["slice"]["loops_summarised"], 1, "{j}");
    // Refine tracks the region the loop read first, the loop comes back,
    // and the answer is the unsliced one.
    assert_eq!(check_verdict(path, "z3"), 0);
    let (code, j) = json_of(&["refine", "--rounds", "2", "--unwind", "3", path]);
    assert_eq!(code, 0);
    assert_eq!(j["verdict"], "SUCCESSFUL");
    let tracked = j["tracked"].as_array().unwrap();
    assert!(tracked.iter().any(|t| t == "struct msg.ready"), "{j}");
    assert!(tracked.iter().all(|t| t != "struct msg.polls"), "{j}");
    let steps = j["steps"].as_array().unwrap();
    assert_eq!(steps[0]["loops_summarised"], 1, "{j}");
    assert_eq!(steps.last().unwrap()["loops_summarised"], 0, "{j}");
}

#[test]
fn attribute_objects_read_by_an_operation_are_kept() {
    assert!(have("z3") && have("cbmc"), "run scripts/install-checkers");
    let path = "tests/slice/recursive_attr.c";
    // The oracle fails; tracking only `g` must still find it on both
    // routes (slicing the attribute made the relock block: a false SAFE).
    for backend in ["z3", "cbmc"] {
        let (code, j) = json_of(&[
            "check",
            "--rounds",
            "2",
            "--track",
            "g",
            "--backend",
            backend,
            path,
        ]);
        assert_eq!(code, 10, "{backend}: {j}");
        assert_eq!(j["verdict"], "FAILED", "{backend}: {j}");
    }
}

#[test]
fn a_loop_with_a_case_label_is_not_summarised() {
    assert!(have("z3"), "run scripts/install-checkers");
    let path = "tests/slice/case_in_loop.c";
    let (_, j) = json_of(&["check", "--unwind", "5", "--track", "struct s.a", path]);
    assert_eq!(j["slice"]["loops_summarised"], 0, "{j}");
    assert_eq!(j["verdict"], "FAILED", "{j}");
}

#[test]
fn a_pointer_made_from_an_integer_slices_nothing() {
    assert!(have("z3") && have("cbmc"), "run scripts/install-checkers");
    let path = "tests/slice/int_pointer.c";
    for b in ["z3", "cbmc"] {
        let (c, j) = json_of(&[
            "check",
            "--rounds",
            "1",
            "--backend",
            b,
            "--track",
            "g",
            path,
        ]);
        assert_eq!(c, 10, "{b}: {j}");
        assert_eq!(
            j["slice"]["sliced"].as_array().map(|a| a.len()),
            Some(0),
            "{j}"
        );
    }
    let (c, j) = json_of(&["refine", "--rounds", "1", path]);
    assert_eq!(c, 10, "{j}");
}

#[test]
fn a_set_rules_a_counterexample_out_when_its_replay_stops_failing() {
    use seqc::check::{Backend, CheckOptions, check, rules_out};
    assert!(have("z3"), "run scripts/install-checkers");
    let input = "tests/slice/wait_loop.c";
    let cfg = Config {
        track: Some(vec!["struct msg.data".into()]),
        ..Config::default()
    };
    let opts = CheckOptions {
        backends: vec![Backend::Z3],
        timeout: Some(std::time::Duration::from_secs(120)),
        unwinding_assertions: false,
    };
    let report = check(input, &cfg, &opts).unwrap();
    assert!(report.spurious.is_some());
    // The abstract counterexample replays on its own slicing; tracking
    // the flag the summarised loop read rules it out.
    assert_eq!(rules_out(input, &cfg, &report, &[]).unwrap(), Some(false));
    let ready = ["struct msg.ready".to_string()];
    assert_eq!(rules_out(input, &cfg, &report, &ready).unwrap(), Some(true));
}
