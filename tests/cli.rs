//! The command line: bad input of every kind gives one clear message, the
//! contract's exit code, and no panic.

use assert_cmd::Command;
use std::io::Write;

fn seqc() -> Command {
    Command::cargo_bin("seqc").unwrap()
}

/// Runs `seqc translate --method none FILE` and returns (exit code, stderr).
fn translate(path: &str) -> (i32, String) {
    let out = seqc()
        .args(["translate", "--method", "none", path])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!err.contains("panicked"), "panic on {path}: {err}");
    (out.status.code().unwrap(), err)
}

fn temp_file(name: &str, bytes: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(name);
    std::fs::File::create(&p).unwrap().write_all(bytes).unwrap();
    let s = p.to_string_lossy().into_owned();
    (dir, s)
}

#[test]
fn missing_file() {
    let (code, err) = translate("no/such/file.c");
    assert_eq!(code, 1);
    insta::assert_snapshot!(err.trim(), @"seqc: error: cannot read 'no/such/file.c': no such file");
}

#[test]
fn directory() {
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = translate(dir.path().to_str().unwrap());
    assert_eq!(code, 1);
    assert!(err.contains("is a directory"), "{err}");
    assert_eq!(err.trim().lines().count(), 1);
}

#[test]
fn empty_file() {
    let (_d, p) = temp_file("empty.c", b"");
    let (code, err) = translate(&p);
    assert_eq!(code, 1);
    assert!(err.contains("is empty"), "{err}");
}

#[test]
fn binary_garbage() {
    let bytes: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let (_d, p) = temp_file("garbage.c", &bytes);
    let (code, err) = translate(&p);
    assert_eq!(code, 1);
    assert!(err.contains("not C source text"), "{err}");
}

#[test]
fn malformed_c() {
    let (_d, p) = temp_file("bad.c", b"int main(void) {\n  return 1 +;\n}\n");
    let (code, err) = translate(&p);
    assert_eq!(code, 1);
    assert!(
        err.contains("bad.c:2:") && err.contains("syntax error"),
        "{err}"
    );
}

#[test]
fn huge_input() {
    let mut text = String::from("int main(void) { return 0; }\n");
    while text.len() < 10 << 20 {
        text.push_str("/* padding padding padding padding padding padding padding */\n");
    }
    let (_d, p) = temp_file("huge.c", text.as_bytes());
    let (code, err) = translate(&p);
    assert_eq!(code, 1);
    assert!(err.contains("too large"), "{err}");
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut e = String::new();
    for _ in 0..3000 {
        e.push('(');
    }
    e.push('1');
    for _ in 0..3000 {
        e.push(')');
    }
    let (_d, p) = temp_file(
        "deep.c",
        format!("int main(void) {{ return {e}; }}\n").as_bytes(),
    );
    let (code, err) = translate(&p);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn deeply_nested_statements_do_not_overflow() {
    // Enough thread functions for the passes to run on worker threads,
    // one of which nests 3,000 `if`s: workers with the default stack
    // overflowed on it, and the main thread on 10,000.
    let mut text = String::from("#include <pthread.h>\nint g;\n");
    for i in 0..70 {
        text.push_str(&format!("void *t{i}(void *a) {{\n"));
        if i == 5 {
            text.push_str(&"if (g) {".repeat(3000));
            text.push_str("g = 1;");
            text.push_str(&"}".repeat(3000));
        }
        text.push_str("  g = g + 1;\n  return 0;\n}\n");
    }
    text.push_str("int main(void) {\n  pthread_t t;\n");
    for i in 0..70 {
        text.push_str(&format!("  pthread_create(&t, 0, t{i}, 0);\n"));
    }
    text.push_str("  return 0;\n}\n");
    let (_d, p) = temp_file("nested.c", text.as_bytes());
    for args in [
        &["--method", "none"][..],
        &["--method", "kiss"],
        &["--method", "lal-reps"],
        &["--method", "lal-reps", "--emit", "smt"],
    ] {
        let out = seqc().arg("translate").args(args).arg(&p).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
        assert!(!out.stdout.is_empty(), "{args:?}");
        // Indentation stops at 256 columns: the text would otherwise
        // grow with the square of the nesting.
        let widest = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| l.len() - l.trim_start_matches(' ').len())
            .max();
        assert!(widest <= Some(256), "{args:?}: {widest:?}");
    }
}

#[test]
fn long_functions_do_not_overflow() {
    // Enough functions for the threaded printer, and one of 60,000
    // statements: its printed form used to be nested once per statement.
    let mut text = String::from("int x;\n");
    for i in 0..70 {
        text.push_str(&format!("void f{i}(void) {{ x = x + {i}; }}\n"));
    }
    text.push_str("int main(void) {\n");
    for _ in 0..60_000 {
        text.push_str("  x = x + 1;\n");
    }
    text.push_str("  return 0;\n}\n");
    let (_d, p) = temp_file("long.c", text.as_bytes());
    for method in ["none", "kiss"] {
        let out = seqc()
            .args(["translate", "--method", method, &p])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{method}: {err}");
        let c = String::from_utf8_lossy(&out.stdout);
        assert!(c.matches(" + 1u);").count() >= 60_000, "{method}");
    }
}

#[test]
fn unknown_option_and_value() {
    let out = seqc()
        .args(["translate", "--frobnicate", "x.c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = seqc()
        .args(["translate", "--method", "magic", "x.c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = seqc()
        .args(["translate", "--rounds", "0", "x.c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn later_features_say_not_supported_yet() {
    let (_d, p) = temp_file("ok.c", b"int main(void) { return 0; }\n");
    for args in [
        vec!["translate", "--method", "lal-reps", "--property", "race"],
        vec!["translate", "--method", "none", "--property", "deadlock"],
    ] {
        let out = seqc().args(&args).arg(&p).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("not supported yet"),
            "{args:?}"
        );
    }
}

#[test]
fn emit_regions_lists_regions_and_accesses() {
    let out = seqc()
        .args(["translate", "--emit", "regions", "tests/race/heap_field.c"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "region          reads  writes  aliases\n\
         main::h             1       0  with *pthread_t\n\
         struct pair.a       0       3\n\
         struct pair.b       1       2\n"
    );
}

#[test]
fn track_names_known_regions() {
    let out = seqc()
        .args([
            "translate",
            "--track",
            "struct pair.b,nope",
            "tests/race/heap_field.c",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no region 'nope'") && err.contains("struct pair.a, struct pair.b"),
        "{err}"
    );
}

#[test]
fn race_needs_a_region_it_can_find() {
    let (_d, p) = temp_file("ok.c", b"int g; int main(void) { g = 1; return g; }\n");
    for (prop, says) in [
        ("race=", "needs a location"),
        ("race=nope", "its regions: "),
        ("races", "unknown property"),
    ] {
        let out = seqc()
            .args(["translate", "--method", "kiss", "--property", prop])
            .arg(&p)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{prop}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{prop}: {err}");
    }
}

#[test]
fn output_file_and_determinism() {
    let (d, p) = temp_file("ok.c", b"int g; int main(void) { g = g + 1; return g; }\n");
    let o = d.path().join("out.c");
    seqc()
        .args(["translate", "--method", "none", &p, "-o"])
        .arg(&o)
        .assert()
        .success();
    let a = std::fs::read(&o).unwrap();
    let b = seqc()
        .args(["translate", "--method", "none", &p])
        .output()
        .unwrap()
        .stdout;
    assert_eq!(a, b);
}

#[test]
fn check_exit_codes_and_refusals() {
    let (_d, safe) = temp_file(
        "safe.c",
        b"void __VERIFIER_assert(int);\nint main(void) { int x = 1; __VERIFIER_assert(x == 1); return 0; }\n",
    );
    let (_e, bad) = temp_file(
        "bad.c",
        b"void __VERIFIER_assert(int);\nint __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assert(x != 7); return 0; }\n",
    );
    let (_f, lp) = temp_file(
        "loop.c",
        b"int __VERIFIER_nondet_int(void);\nint main(void) { int n = __VERIFIER_nondet_int(); while (n > 0) n--; return 0; }\n",
    );
    let code = |args: &[&str], f: &str| {
        let out = seqc().args(args).arg(f).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (c, o, _) = code(&["check", "--method", "none"], &safe);
    assert_eq!(c, Some(0));
    assert!(
        o.starts_with("VERIFICATION SUCCESSFUL (no violation within the bounds: unwind 2)"),
        "{o}"
    );
    let (c, o, _) = code(&["check", "--method", "none"], &bad);
    assert_eq!(c, Some(10));
    assert!(o.starts_with("VERIFICATION FAILED\n"), "{o}");
    assert!(
        o.contains("x = 7"),
        "the trace shows the value that fails: {o}"
    );
    let (c, o, _) = code(&["check", "--method", "none", "--json"], &bad);
    assert_eq!(c, Some(10));
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["verdict"], "FAILED");
    assert_eq!(
        v["trace"].as_array().unwrap().last().unwrap()["kind"],
        "failure"
    );
    // A loop cut by the bound: no violation, or with unwinding
    // assertions "bound too small" (exit 30), on both routes.
    for b in ["z3", "cbmc"] {
        let (c, _, _) = code(&["check", "--method", "none", "--backend", b], &lp);
        assert_eq!(c, Some(0), "{b}");
        let (c, o, _) = code(
            &[
                "check",
                "--method",
                "none",
                "--backend",
                b,
                "--unwinding-assertions",
            ],
            &lp,
        );
        assert_eq!(c, Some(30), "{b}: {o}");
        assert!(
            o.starts_with("VERIFICATION INCONCLUSIVE: bound too small"),
            "{o}"
        );
    }
    let (c, _, e) = code(
        &[
            "check",
            "--method",
            "none",
            "--int",
            "--backend",
            "bitwuzla",
        ],
        &safe,
    );
    assert_eq!(c, Some(1));
    assert!(e.contains("bitwuzla has no integer arithmetic"), "{e}");
    let (c, _, e) = code(&["check", "--method", "none"], "examples/lost_update.c");
    assert_eq!(c, Some(2));
    assert!(
        e.contains("unsupported: pthread_create in a sequential program"),
        "{e}"
    );
    // A timeout is an unknown answer, never a verdict.
    let (c, o, _) = code(&["check", "--method", "none", "--timeout", "0"], &bad);
    assert!(c == Some(20) || c == Some(10), "{o}");
}

/// A checker that dies by a signal (the out-of-memory killer sends
/// SIGKILL) leaves its output cut short: the answer is unknown and names
/// the signal, instead of blaming the output it never finished.
#[cfg(unix)]
#[test]
fn a_checker_killed_by_a_signal_is_reported_as_such() {
    use std::os::unix::fs::PermissionsExt;
    let tools = tempfile::tempdir().unwrap();
    let bin = tools.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    // Half an answer, then death, as when the kernel ends the process.
    for (name, partial) in [("cbmc", "[ { \"program\": \"CBMC\" },"), ("z3", "")] {
        let p = bin.join(name);
        std::fs::write(&p, format!("#!/bin/sh\necho '{partial}'\nkill -9 $$\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (_d, prog) = temp_file(
        "p.c",
        b"void __VERIFIER_assert(int);\nint main(void) { int x = 1; __VERIFIER_assert(x == 1); return 0; }\n",
    );
    for b in ["cbmc", "z3"] {
        let out = seqc()
            .env("SEQC_TOOLS", tools.path())
            .args(["check", "--method", "none", "--backend", b, &prog])
            .output()
            .unwrap();
        let o = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(20), "{b}: {o}");
        assert!(
            o.starts_with(&format!(
                "VERIFICATION UNKNOWN: {b} was killed by signal 9 (SIGKILL"
            )),
            "{b}: {o}"
        );
    }
}
