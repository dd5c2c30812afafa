//! The golden runner: every `golden/<suite>/<name>.c` is translated with the
//! options of its first-line comment (`// seqc: OPTIONS`); the C output is
//! compared with `<name>.<config>.c`, the IR dump with `<name>.<config>.ir`,
//! the SMT-LIB script (where the SMT route takes the program) with
//! `<name>.<config>.smt2`, and a failure (message and exit code) with
//! `<name>.stderr`. `BLESS=1`
//! rewrites the expected files. Every expected C file must compile with gcc,
//! and translating twice must give the same bytes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn seqc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_seqc"));
    // The IR verifier runs after every pass, release build or not.
    c.env("SEQC_VERIFY_IR", "1");
    c
}

fn inputs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for suite in std::fs::read_dir("golden").unwrap() {
        let suite = suite.unwrap().path();
        if !suite.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&suite).unwrap() {
            let p = f.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            // Inputs are `name.c`; expected outputs have a second dot.
            if name.ends_with(".c") && name.matches('.').count() == 1 {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

fn options(input: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(input).unwrap();
    let first = text.lines().next().unwrap_or("");
    let opts = first
        .strip_prefix("// seqc:")
        .unwrap_or_else(|| panic!("{}: no `// seqc:` line", input.display()));
    opts.split_whitespace().map(String::from).collect()
}

/// `none` for `--method none`, `lr2` for `--method lal-reps --rounds 2`, ...
fn config_name(opts: &[String]) -> String {
    let method = opts
        .iter()
        .position(|o| o == "--method")
        .map(|i| opts[i + 1].as_str())
        .unwrap_or("lal-reps");
    let num = |flag: &str, default: &str| {
        opts.iter()
            .position(|o| o == flag)
            .map(|i| opts[i + 1].clone())
            .unwrap_or_else(|| default.to_string())
    };
    let prop = opts
        .iter()
        .position(|o| o == "--property")
        .map(|i| opts[i + 1].as_str());
    let race = prop.is_some_and(|p| p.starts_with("race"));
    let deadlock = prop.is_some_and(|p| p.contains("deadlock"));
    let locks = prop.is_some_and(|p| p.contains("locks"));
    let overflow = prop.is_some_and(|p| p.contains("overflow"));
    let memsafety = prop.is_some_and(|p| p.contains("memsafety"));
    let name = match method {
        "none" => "none".into(),
        "kiss" => format!("kiss{}", num("--ts", "1")),
        _ => format!("lr{}", num("--rounds", "2")),
    };
    if race {
        format!("{name}-race")
    } else if deadlock {
        format!("{name}-deadlock")
    } else if locks {
        format!("{name}-locks")
    } else if overflow {
        format!("{name}-overflow")
    } else if memsafety {
        format!("{name}-memsafety")
    } else {
        name
    }
}

fn check(path: &Path, actual: &str, failures: &mut Vec<String>) {
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return;
    }
    if bless {
        std::fs::write(path, actual).unwrap();
        return;
    }
    let diff = similar::TextDiff::from_lines(&expected, actual);
    let mut text = String::new();
    for change in diff
        .iter_all_changes()
        .filter(|c| c.tag() != similar::ChangeTag::Equal)
        .take(40)
    {
        let sign = match change.tag() {
            similar::ChangeTag::Delete => "-",
            similar::ChangeTag::Insert => "+",
            similar::ChangeTag::Equal => " ",
        };
        text.push_str(&format!("{sign}{change}"));
    }
    failures.push(format!(
        "{} differs (BLESS=1 to accept):\n{text}",
        path.display()
    ));
}

fn run(input: &Path, opts: &[String], extra: &[&str]) -> (i32, String, String) {
    let out = seqc()
        .arg("translate")
        .args(opts)
        .args(extra)
        .arg(input)
        .output()
        .expect("run seqc");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn golden_files() {
    let mut failures = Vec::new();
    let all = inputs();
    assert!(
        all.len() >= 30,
        "expected at least 30 golden inputs, found {}",
        all.len()
    );
    for input in &all {
        let opts = options(input);
        let stem = input.with_extension("");
        let cfg = config_name(&opts);
        let (code, out, err) = run(input, &opts, &[]);
        if code != 0 {
            let text = format!("exit {code}\n{err}");
            check(&stem.with_extension("stderr"), &text, &mut failures);
            continue;
        }
        check(
            &PathBuf::from(format!("{}.{cfg}.c", stem.display())),
            &out,
            &mut failures,
        );
        let (code2, ir, err2) = run(input, &opts, &["--emit", "ir"]);
        assert_eq!(code2, 0, "{}: --emit ir failed: {err2}", input.display());
        check(
            &PathBuf::from(format!("{}.{cfg}.ir", stem.display())),
            &ir,
            &mut failures,
        );
        // The SMT script of the sequential program, where the SMT route
        // takes it (threads need a sequentialization first).
        let smt = PathBuf::from(format!("{}.{cfg}.smt2", stem.display()));
        let (code3, script, err3) = run(input, &opts, &["--emit", "smt"]);
        if code3 == 0 {
            check(&smt, &script, &mut failures);
        } else if smt.exists() {
            failures.push(format!("{}: --emit smt failed: {err3}", input.display()));
        }
        let (_, again, _) = run(input, &opts, &[]);
        if again != out {
            failures.push(format!(
                "{}: two runs gave different bytes",
                input.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn expected_c_compiles_with_gcc() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for input in inputs() {
        let opts = options(&input);
        let cfg = config_name(&opts);
        let expected = PathBuf::from(format!("{}.{cfg}.c", input.with_extension("").display()));
        if !expected.exists() {
            continue;
        }
        let m32 = opts.iter().any(|o| o == "ILP32");
        let out = Command::new("gcc")
            .args(["-std=c11", "-c", "-Wall", "-Wno-unused", "-Werror"])
            .args(if m32 { &["-m32"][..] } else { &[][..] })
            .arg(&expected)
            .arg("-o")
            .arg(dir.path().join("out.o"))
            .output()
            .expect("gcc");
        if !out.status.success() {
            failures.push(format!(
                "{}:\n{}",
                expected.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
