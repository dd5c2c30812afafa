//! Runs the system preprocessor (gcc -E) and prepares its output for
//! lang-c: comments left in `.i` files are stripped by gcc itself, `$` in
//! identifiers and `__thread` are rewritten token-wise (lang-c rejects both),
//! and seqc's shim headers (`stdatomic.h`, `assert.h`) come first on the
//! include path. See LANG-C-NOTES.md for why each step exists.

use crate::diag::{Diagnostic, Result};
use crate::ir::DataModel;
use std::path::Path;
use std::process::Command;

/// Inputs larger than this are refused before gcc sees them.
pub const MAX_INPUT_BYTES: u64 = 8 << 20;
/// Preprocessed text larger than this is refused before parsing.
pub const MAX_PREPROCESSED_BYTES: usize = 48 << 20;

/// The marker that replaces `$` inside identifiers (reversed when printing).
pub const DOLLAR: &str = "__dollar__";

#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    pub include_dirs: Vec<String>,
    pub defines: Vec<String>,
    pub data_model: DataModel,
}

const SHIM_STDATOMIC: &str = include_str!("../../templates/shim/stdatomic.h");
const SHIM_ASSERT: &str = include_str!("../../templates/shim/assert.h");

/// Checks the input file before handing it to gcc, so that the common
/// mistakes get seqc's own one-line message.
pub fn check_input(path: &str) -> Result<()> {
    let p = Path::new(path);
    let meta = std::fs::metadata(p)
        .map_err(|e| Diagnostic::input(format!("cannot read '{path}': {}", io_reason(&e))))?;
    if meta.is_dir() {
        return Err(Diagnostic::input(format!(
            "'{path}' is a directory, not a C file"
        )));
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(Diagnostic::input(format!(
            "'{path}' is too large ({:.1} MB; seqc accepts up to {} MB)",
            meta.len() as f64 / 1e6,
            MAX_INPUT_BYTES >> 20
        )));
    }
    let bytes = std::fs::read(p)
        .map_err(|e| Diagnostic::input(format!("cannot read '{path}': {}", io_reason(&e))))?;
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Diagnostic::input(format!(
            "'{path}' is empty: no C declarations to translate"
        )));
    }
    if let Some(pos) = bytes.iter().position(|&b| b == 0) {
        let line = bytes[..pos].iter().filter(|&&b| b == b'\n').count() + 1;
        return Err(Diagnostic::input(format!(
            "'{path}' is not C source text (a NUL byte on line {line})"
        )));
    }
    if std::str::from_utf8(&bytes).is_err()
        && bytes.iter().filter(|b| !b.is_ascii()).count() * 10 > bytes.len()
    {
        return Err(Diagnostic::input(format!(
            "'{path}' is not C source text (binary data)"
        )));
    }
    Ok(())
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}

/// Preprocesses `path` and returns the text lang-c will parse.
pub fn preprocess(path: &str, opts: &PpOptions) -> Result<String> {
    check_input(path)?;
    let shim = tempfile::Builder::new()
        .prefix("seqc-shim")
        .tempdir()
        .map_err(|e| Diagnostic::input(format!("cannot create a temporary directory: {e}")))?;
    std::fs::write(shim.path().join("stdatomic.h"), SHIM_STDATOMIC)
        .and_then(|_| std::fs::write(shim.path().join("assert.h"), SHIM_ASSERT))
        .map_err(|e| Diagnostic::input(format!("cannot write shim headers: {e}")))?;

    let mut cmd = Command::new(std::env::var("SEQC_CPP").unwrap_or_else(|_| "gcc".into()));
    cmd.arg("-E");
    if path.ends_with(".i") {
        // Already preprocessed: only strip comments, keep the line numbering.
        cmd.args(["-x", "c", "-fpreprocessed"]);
    } else {
        cmd.arg("-ftrack-macro-expansion=0");
        if opts.data_model == DataModel::Ilp32 {
            cmd.arg("-m32");
        }
        for d in &opts.include_dirs {
            cmd.arg("-I").arg(d);
        }
        cmd.arg("-I").arg(shim.path());
        for d in &opts.defines {
            cmd.arg(format!("-D{d}"));
        }
    }
    cmd.arg(path);
    let out = cmd
        .output()
        .map_err(|e| Diagnostic::input(format!("cannot run the preprocessor (gcc -E): {e}")))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let shim_dir = shim.path().display().to_string();
        let first = err
            .lines()
            .find(|l| l.contains("error"))
            .or_else(|| err.lines().next())
            .unwrap_or("the preprocessor failed")
            .replace(&shim_dir, "<seqc-shim>");
        return Err(pp_error(&first));
    }
    if out.stdout.len() > MAX_PREPROCESSED_BYTES {
        return Err(Diagnostic::input(format!(
            "'{path}' preprocesses to {} MB; seqc accepts up to {} MB",
            out.stdout.len() >> 20,
            MAX_PREPROCESSED_BYTES >> 20
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    Ok(rewrite_tokens(&text))
}

/// gcc's `file:line:col: error: msg` becomes a diagnostic at that place.
fn pp_error(line: &str) -> Diagnostic {
    let mut parts = line.splitn(4, ':');
    if let (Some(f), Some(l), Some(c), Some(rest)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
        && let (Ok(l), Ok(c)) = (l.trim().parse::<u32>(), c.trim().parse::<u32>())
    {
        let msg = rest
            .trim()
            .trim_start_matches("fatal error:")
            .trim_start_matches("error:")
            .trim();
        return Diagnostic::input(format!("preprocessor: {msg}")).at(f, l, c);
    }
    Diagnostic::input(format!("preprocessor: {}", line.trim()))
}

/// `$` inside identifiers becomes `__dollar__`; `__thread` becomes
/// `_Thread_local`. String and character literals and `#` lines are left
/// alone. Line structure is kept, so locations stay right.
pub fn rewrite_tokens(src: &str) -> String {
    if !src.contains('$') && !src.contains("__thread") {
        return src.to_string();
    }
    let mut out = String::with_capacity(src.len() + 64);
    for line in src.split_inclusive('\n') {
        if line.trim_start().starts_with('#') {
            out.push_str(line);
            continue;
        }
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c == b'"' || c == b'\'' {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != c {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i = (i + 1).min(b.len());
                out.push_str(&line[start..i]);
            } else if c == b'_' || c == b'$' || c.is_ascii_alphabetic() {
                let start = i;
                while i < b.len() && (b[i] == b'_' || b[i] == b'$' || b[i].is_ascii_alphanumeric())
                {
                    i += 1;
                }
                let word = &line[start..i];
                if word == "__thread" {
                    out.push_str("_Thread_local");
                } else {
                    out.push_str(&word.replace('$', DOLLAR));
                }
            } else if c.is_ascii_digit() {
                let start = i;
                while i < b.len() && (b[i] == b'.' || b[i] == b'_' || b[i].is_ascii_alphanumeric())
                {
                    i += 1;
                }
                out.push_str(&line[start..i]);
            } else {
                let ch = line[i..].chars().next().unwrap();
                out.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_dollar_and_thread_outside_literals() {
        let s = "__thread int a$b = 1; char *s = \"a$b __thread\";\n# 1 \"x$y.c\"\n";
        assert_eq!(
            rewrite_tokens(s),
            "_Thread_local int a__dollar__b = 1; char *s = \"a$b __thread\";\n# 1 \"x$y.c\"\n"
        );
    }
}
