//! For single-threaded programs, `--method none` must mean the same as the
//! input: CBMC's verdict on seqc's output equals its verdict on the input.
//! Inputs: the single-threaded golden programs. Needs CBMC
//! (`scripts/install-checkers`); the test fails, not skips, without it.

use std::path::PathBuf;
use std::process::Command;

pub fn tool(name: &str) -> PathBuf {
    seqc::check::find_tool(name).unwrap_or_else(|| PathBuf::from(name))
}

/// CBMC's verdict: true = VERIFICATION SUCCESSFUL, false = FAILED.
fn cbmc(path: &std::path::Path, m32: bool) -> bool {
    // `ERROR:` labels are violations in seqc's input language (old SV-COMP).
    let out = Command::new(tool("cbmc"))
        .args(["--error-label", "ERROR"])
        .args([
            "--no-malloc-may-fail",
            "--no-standard-checks",
            "--unwind",
            "8",
            "--no-unwinding-assertions",
        ])
        .args(if m32 { &["--32"][..] } else { &[][..] })
        .arg(path)
        .output()
        .expect("cbmc not found: run scripts/install-checkers");
    let text = String::from_utf8_lossy(&out.stdout);
    if text.contains("VERIFICATION SUCCESSFUL") {
        true
    } else if text.contains("VERIFICATION FAILED") {
        false
    } else {
        panic!(
            "cbmc gave no verdict on {}:\n{}\n{}",
            path.display(),
            text,
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn cbmc_agrees_on_input_and_output() {
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    let mut failed_inputs = 0;
    let mut files: Vec<PathBuf> = std::fs::read_dir("golden/none")
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for input in files {
        let name = input.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".c") || name.matches('.').count() != 1 {
            continue;
        }
        let text = std::fs::read_to_string(&input).unwrap();
        let expected = input.with_extension("none.c");
        if text.contains("pthread_create") || !expected.exists() {
            continue;
        }
        let m32 = text.lines().next().unwrap_or("").contains("ILP32");
        let out = dir.path().join(&name);
        let st = Command::new(env!("CARGO_BIN_EXE_seqc"))
            .env("SEQC_VERIFY_IR", "1")
            .args(["translate", "--method", "none"])
            .args(if m32 {
                &["--data-model", "ILP32"][..]
            } else {
                &[][..]
            })
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .status()
            .unwrap();
        assert!(st.success(), "{}", input.display());
        let a = cbmc(&input, m32);
        let b = cbmc(&out, m32);
        assert_eq!(
            a, b,
            "{}: CBMC says {} on the input and {} on seqc's output",
            name, a, b
        );
        checked += 1;
        failed_inputs += (!a) as u32;
    }
    assert!(checked >= 20, "only {checked} programs checked");
    assert!(
        failed_inputs >= 1,
        "no program with a violation among the {checked}"
    );
}
