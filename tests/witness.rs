//! Violation witnesses: `check --witness` writes one for each violation
//! (both methods, z3 and CBMC), `validate` confirms it, and witnesses
//! edited to switch threads elsewhere, to name another line or to assume
//! another value are not confirmed.

mod common;
use common::{have, seqc};
use std::path::Path;

const LOST_UPDATE: &str = r#"#include <pthread.h>
#include <assert.h>
int x = 0;
void *inc(void *arg) { x++; return 0; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, inc, 0);
  pthread_create(&b, 0, inc, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(x == 2);
  return 0;
}
"#;

/// The bug needs the thread to draw 5.
const DRAW: &str = r#"#include <pthread.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int x;
void *t(void *a) {
  int v = __VERIFIER_nondet_int();
  if (v == 5)
    x = 1;
  return 0;
}
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  pthread_join(a, 0);
  assert(x == 0);
  return 0;
}
"#;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// `check --witness`; the witness's text.
fn witness(input: &str, args: &[&str], out: &str) -> String {
    let o = seqc()
        .arg("check")
        .args(args)
        .args(["--witness", out, input])
        .env("SOURCE_DATE_EPOCH", "0")
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(10),
        "{input} {args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read_to_string(out).unwrap()
}

/// `validate`: (exit code, stdout + stderr).
fn validate(input: &str, w: &str) -> (i32, String) {
    let o = seqc().args(["validate", input, w]).output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!text.contains("panicked"), "{text}");
    (o.status.code().unwrap(), text)
}

/// Each edge of a witness, as text.
fn edges(w: &str) -> Vec<String> {
    w.split("<edge ")
        .skip(1)
        .map(|e| e.split("</edge>").next().unwrap().to_string())
        .collect()
}

#[test]
fn witnesses_are_written_and_confirmed() {
    assert!(have("z3") && have("cbmc"), "run scripts/install-checkers");
    let dir = tempfile::tempdir().unwrap();
    let lost = write(dir.path(), "lost.c", LOST_UPDATE);
    let draw = write(dir.path(), "draw.c", DRAW);
    let runs: &[(&str, &[&str])] = &[
        (
            &lost,
            &["--rounds", "3", "--unwind", "2", "--backend", "z3"],
        ),
        (
            &lost,
            &["--rounds", "3", "--unwind", "2", "--backend", "cbmc"],
        ),
        (
            &lost,
            &[
                "--method",
                "kiss",
                "--ts",
                "1",
                "--unwind",
                "2",
                "--backend",
                "z3",
            ],
        ),
        (
            &draw,
            &["--rounds", "2", "--unwind", "2", "--backend", "z3"],
        ),
        (
            &draw,
            &[
                "--method",
                "kiss",
                "--ts",
                "1",
                "--unwind",
                "2",
                "--backend",
                "cbmc",
            ],
        ),
    ];
    for (i, (input, args)) in runs.iter().enumerate() {
        let out = dir.path().join(format!("w{i}.graphml"));
        let out = out.to_str().unwrap();
        let w = witness(input, args, out);
        for key in [
            "witness-type\">violation_witness",
            "sourcecodelang\">C",
            "producer\">seqc ",
            "specification\">CHECK( init(main()), LTL(G ! call(reach_error())) )",
            "programhash\">",
            "architecture\">64bit",
            "creationtime\">1970-01-01T00:00:00Z",
            "key=\"entry\">true",
            "key=\"violation\">true",
            "key=\"createThread\">1",
        ] {
            assert!(w.contains(key), "{input} {args:?}: no {key} in\n{w}");
        }
        let hash = w.split("programhash\">").nth(1).unwrap();
        assert_eq!(
            &hash[..64],
            seqc::witness::program_hash(&std::fs::read(input).unwrap())
        );
        let (code, text) = validate(input, out);
        assert_eq!(code, 10, "{input} {args:?}: {text}");
        assert!(text.contains("WITNESS CONFIRMED"), "{text}");
    }
}

#[test]
fn edited_witnesses_are_not_confirmed() {
    assert!(have("z3"), "run scripts/install-checkers");
    let dir = tempfile::tempdir().unwrap();
    let lost = write(dir.path(), "lost.c", LOST_UPDATE);
    let out = dir.path().join("w.graphml");
    let out = out.to_str().unwrap();
    let w = witness(
        &lost,
        &["--rounds", "3", "--unwind", "2", "--backend", "z3"],
        out,
    );
    let not = |name: &str, text: &str, expect: &str| {
        let p = write(dir.path(), name, text);
        let (code, msg) = validate(&lost, &p);
        assert_eq!(code, 0, "{name}: {msg}");
        assert!(msg.contains("WITNESS NOT CONFIRMED"), "{name}: {msg}");
        assert!(msg.contains(expect), "{name}: {msg}");
    };
    // A step on another line.
    let es = edges(&w);
    let first_line = es
        .iter()
        .find_map(|e| e.split("startline\">").nth(1))
        .map(|r| r.split('<').next().unwrap().to_string())
        .unwrap();
    not(
        "line.graphml",
        &w.replacen(
            &format!("startline\">{first_line}<"),
            &format!("startline\">{}<", first_line.parse::<u32>().unwrap() + 1),
            1,
        ),
        "the witness says line",
    );
    // The thread switch moved: the last edge of the run's first thread
    // other than main is given to main instead, so main runs one step
    // early and the thread one step short.
    let t1 = es
        .iter()
        .rposition(|e| e.contains("threadId\">1<"))
        .unwrap();
    let moved = es[t1].replace("threadId\">1<", "threadId\">0<");
    not("switch.graphml", &w.replacen(&es[t1], &moved, 1), "");
    // Another program.
    let other = write(
        dir.path(),
        "other.c",
        &LOST_UPDATE.replace("x == 2", "x == 2 "),
    );
    let (code, msg) = validate(&other, out);
    assert_eq!(code, 0, "{msg}");
    assert!(msg.contains("another program"), "{msg}");
    // GraphML's rule: data of a key no <key> declares, or of the wrong type.
    let undeclared = w.replacen("<data key=\"threadId\">", "<data key=\"thread\">", 1);
    let p = write(dir.path(), "undeclared.graphml", &undeclared);
    let (code, msg) = validate(&lost, &p);
    assert_eq!(code, 1, "{msg}");
    assert!(msg.contains("no <key> declares"), "{msg}");
    let typed = w.replacen("<data key=\"startline\">", "<data key=\"startline\">x", 1);
    let p = write(dir.path(), "typed.graphml", &typed);
    let (code, msg) = validate(&lost, &p);
    assert_eq!(code, 1, "{msg}");
    assert!(msg.contains("of type int"), "{msg}");
    // Not a witness at all: an error with the reason.
    let bad = write(dir.path(), "bad.graphml", "<graphml><graph>");
    let (code, msg) = validate(&lost, &bad);
    assert_eq!(code, 1, "{msg}");
    assert!(msg.contains("not closed"), "{msg}");
}

#[test]
fn a_witness_with_another_value_is_not_confirmed() {
    assert!(have("z3"), "run scripts/install-checkers");
    let dir = tempfile::tempdir().unwrap();
    let draw = write(dir.path(), "draw.c", DRAW);
    let out = dir.path().join("w.graphml");
    let out = out.to_str().unwrap();
    let w = witness(
        &draw,
        &[
            "--method",
            "kiss",
            "--ts",
            "1",
            "--unwind",
            "2",
            "--backend",
            "z3",
        ],
        out,
    );
    assert!(w.contains("seqc-values\">5<"), "{w}");
    assert!(w.contains("\\result == 5;"), "{w}");
    assert!(w.contains("resultfunction\">__VERIFIER_nondet_int<"), "{w}");
    let p = write(
        dir.path(),
        "four.graphml",
        &w.replace("seqc-values\">5<", "seqc-values\">4<")
            .replace("\\result == 5;", "\\result == 4;"),
    );
    let (code, msg) = validate(&draw, &p);
    assert_eq!(code, 0, "{msg}");
    assert!(msg.contains("does not reach a violation"), "{msg}");
    // Our own key gone, the standard assumption still says 5: confirmed.
    let std_only: String = w
        .lines()
        .filter(|l| !l.contains("<data key=\"seqc-values\""))
        .collect::<Vec<_>>()
        .join("\n");
    let p = write(dir.path(), "std.graphml", &std_only);
    let (code, msg) = validate(&draw, &p);
    assert_eq!(code, 10, "{msg}");
}

#[test]
fn witnesses_are_refused_where_they_cannot_be_made() {
    let dir = tempfile::tempdir().unwrap();
    let lost = write(dir.path(), "lost.c", LOST_UPDATE);
    for args in [
        &["--method", "none"][..],
        &["--method", "kiss", "--property", "race"][..],
    ] {
        let o = seqc()
            .arg("check")
            .args(args)
            .args(["--witness", "/dev/null", &lost])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("--witness"));
    }
}

const RACY: &str = r#"#include <pthread.h>
int x;
void *t(void *a) { x = 1; return 0; }
int main(void) {
  pthread_t a;
  pthread_create(&a, 0, t, 0);
  x = 2;
  pthread_join(a, 0);
  return 0;
}
"#;

/// A task directory: the program, the property files, the task.
fn task(dir: &Path, prog: &str, yml: &str) -> String {
    let props = dir.join("properties");
    std::fs::create_dir_all(&props).unwrap();
    std::fs::write(
        props.join("unreach-call.prp"),
        "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    )
    .unwrap();
    std::fs::write(
        props.join("no-data-race.prp"),
        "CHECK( init(main()), LTL(G ! data-race) )\n",
    )
    .unwrap();
    std::fs::write(
        props.join("termination.prp"),
        "CHECK( init(main()), LTL(F end) )\n",
    )
    .unwrap();
    let t = dir.join("t");
    std::fs::create_dir_all(&t).unwrap();
    std::fs::write(t.join("prog.c"), prog).unwrap();
    let y = t.join("task.yml");
    std::fs::write(&y, yml).unwrap();
    y.to_string_lossy().into_owned()
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = seqc().args(args).output().unwrap();
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    );
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code().unwrap(), out, err)
}

#[test]
fn tasks_are_checked_property_by_property() {
    assert!(have("z3"), "run scripts/install-checkers");
    let dir = tempfile::tempdir().unwrap();
    // The task names a .i that is missing: its .c is read, and said.
    let y = task(
        dir.path(),
        LOST_UPDATE,
        "format_version: '2.0'\ninput_files: 'prog.i'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n  - property_file: ../properties/termination.prp\n    expected_verdict: true\noptions:\n  language: C\n  data_model: ILP32\n",
    );
    let w = dir.path().join("w.graphml");
    let w = w.to_str().unwrap();
    let (code, out, err) = run(&[
        "check",
        &y,
        "--rounds",
        "3",
        "--unwind",
        "2",
        "--backend",
        "z3",
        "--witness",
        w,
    ]);
    assert_eq!(code, 10, "{out}{err}");
    assert!(
        out.contains("property unreach-call (expected verdict: false)\n"),
        "{out}"
    );
    assert!(out.contains("VERIFICATION FAILED"), "{out}");
    assert!(out.contains("its .c is read instead"), "{out}");
    assert!(
        out.contains("property termination (expected verdict: true)\nNOT CHECKED"),
        "{out}"
    );
    // The witness: the task's data model and the property file's text.
    let text = std::fs::read_to_string(w).unwrap();
    assert!(text.contains("architecture\">32bit"), "{text}");
    let prog = dir.path().join("t/prog.c");
    let (code, out, _) = run(&[
        "validate",
        prog.to_str().unwrap(),
        w,
        "--data-model",
        "ILP32",
    ]);
    assert_eq!(code, 10, "{out}");
    // --json: one object per property, the expected verdict beside it.
    let (_, out, _) = run(&[
        "check",
        &y,
        "--rounds",
        "3",
        "--unwind",
        "2",
        "--backend",
        "z3",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let ps = v["properties"].as_array().unwrap();
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[0]["expected_verdict"], false);
    assert_eq!(ps[0]["report"]["verdict"], "FAILED", "{out}");
    assert_eq!(ps[1]["checked"], false);
    // explore and refine take the task's program, data model and property.
    let (code, out, err) = run(&["explore", &y]);
    assert_eq!(code, 10, "{out}{err}");
    assert!(out.contains("assertion fails"), "{out}");
    let (code, out, err) = run(&[
        "refine",
        &y,
        "--rounds",
        "3",
        "--unwind",
        "2",
        "--backend",
        "z3",
    ]);
    assert_eq!(code, 10, "{out}{err}");
}

#[test]
fn a_race_task_uses_kiss_race_mode() {
    assert!(have("z3"), "run scripts/install-checkers");
    let dir = tempfile::tempdir().unwrap();
    let y = task(
        dir.path(),
        RACY,
        "format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n  - property_file: ../properties/no-data-race.prp\n    expected_verdict: false\n",
    );
    let (code, out, err) = run(&["check", &y, "--ts", "1", "--unwind", "2", "--backend", "z3"]);
    assert_eq!(code, 10, "{out}{err}");
    assert!(
        out.contains("property no-data-race (expected verdict: false)"),
        "{out}"
    );
    assert!(out.contains("data race:"), "{out}");
    // --property names one the task does not list: checked, expected unknown.
    let (code, out, err) = run(&[
        "check",
        &y,
        "--property",
        "unreach-call",
        "--rounds",
        "2",
        "--unwind",
        "2",
        "--backend",
        "z3",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("property unreach-call (expected verdict: unknown)"),
        "{out}"
    );
    // Safe, and a property not checked: unknown overall.
    let dir2 = tempfile::tempdir().unwrap();
    let y = task(
        dir2.path(),
        RACY,
        "input_files: 'prog.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: true\n  - property_file: ../properties/termination.prp\n    expected_verdict: true\n",
    );
    let (code, out, err) = run(&[
        "check",
        &y,
        "--rounds",
        "2",
        "--unwind",
        "2",
        "--backend",
        "z3",
    ]);
    assert_eq!(code, 20, "{out}{err}");
    assert!(out.contains("VERIFICATION SUCCESSFUL"), "{out}");
}

#[test]
fn bad_tasks_get_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "input_files: 'prog.c'\nproperties: []\ncolour: blue\n",
            1,
            "unknown key 'colour'",
        ),
        (
            "input_files: ['prog.c', 'b.c']\nproperties: []\n",
            2,
            "2 input files",
        ),
        ("properties: []\n", 1, "no input_files"),
        (
            "input_files: 'prog.c'\nproperties:\n  - property_file: x.prp\n    expected_verdict: maybe\n",
            1,
            "not true or false",
        ),
        ("input_files: ['prog.c'\n", 1, "not YAML"),
        (
            "input_files: 'prog.c'\nproperties: []\noptions:\n  data_model: ILP16\n",
            1,
            "ILP16",
        ),
    ];
    for (i, (yml, code, msg)) in cases.iter().enumerate() {
        let d = dir.path().join(format!("c{i}"));
        std::fs::create_dir_all(&d).unwrap();
        let y = task(&d, RACY, yml);
        let (c, out, err) = run(&["check", &y]);
        assert_eq!(c, *code, "{yml}: {out}{err}");
        assert!(err.contains(msg), "{yml}: {err}");
    }
}
