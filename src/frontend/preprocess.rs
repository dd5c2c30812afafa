//! Runs the system preprocessor (gcc -E) and prepares its output for
//! lang-c: comments left in `.i` files are stripped by gcc itself, `$` in
//! identifiers and `__thread` are rewritten token-wise (lang-c rejects both),
//! and seqc's shim headers (`stdatomic.h`, `assert.h`) come first on the
//! include path. See LANG-C-NOTES.md for why each step exists.
//!
//! The input is read once, with a cap on the bytes actually read (a
//! device has no size), and kept: every later load of the same path (a
//! replay, refine's iterations, a diagnostic's source line) sees the same
//! bytes, and a pipe or standard input (`-`) can be read only once. gcc
//! gets a private copy under a plain name that starts with a line marker
//! naming the input as given, so no path is ever an argument gcc could
//! read as an option (`-v`, `@file`), `#line` and `__FILE__` still show
//! the user's path, and `#include "x.h"` still looks beside the input
//! (`-iquote`). gcc's output is read as it comes and capped, under a time
//! and a memory limit (a 1 KB macro bomb expands for minutes otherwise).

use crate::cleanup::{self, Limits};
use crate::diag::{Diagnostic, Result};
use crate::ir::DataModel;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Inputs larger than this are refused before gcc sees them.
pub const MAX_INPUT_BYTES: u64 = 8 << 20;
/// Preprocessed text larger than this is refused before parsing.
pub const MAX_PREPROCESSED_BYTES: usize = 48 << 20;
/// The preprocessor's time (wall clock and CPU), unless `--timeout`
/// leaves less.
pub const PREPROCESS_SECONDS: u64 = 8;
/// The preprocessor's address space.
pub const PREPROCESS_MEMORY: u64 = 1 << 30;

use crate::ir::DOLLAR;

#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    pub include_dirs: Vec<String>,
    pub defines: Vec<String>,
    pub data_model: DataModel,
}

const SHIM_STDATOMIC: &str = include_str!("../../templates/shim/stdatomic.h");
const SHIM_ASSERT: &str = include_str!("../../templates/shim/assert.h");

/// The input's name in locations and output: as given, and `<stdin>`
/// for `-`.
pub fn display_name(path: &str) -> &str {
    if path == "-" { "<stdin>" } else { path }
}

/// The inputs read so far, by display name.
static INPUTS: Mutex<Vec<(String, Arc<[u8]>)>> = Mutex::new(Vec::new());

fn cached(name: &str) -> Option<Arc<[u8]>> {
    let inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    inputs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, b)| b.clone())
}

/// The input's bytes, read once (later calls return the same bytes), and
/// checked so that the common mistakes get seqc's own one-line message.
pub fn read_input(path: &str) -> Result<Arc<[u8]>> {
    let name = display_name(path);
    if let Some(b) = cached(name) {
        return Ok(b);
    }
    let bytes: Arc<[u8]> = read_capped(path)?.into();
    check_bytes(path, &bytes)?;
    let mut inputs = INPUTS.lock().unwrap_or_else(|e| e.into_inner());
    inputs.push((name.to_string(), bytes.clone()));
    Ok(bytes)
}

/// Checks the input before handing it to gcc.
pub fn check_input(path: &str) -> Result<()> {
    read_input(path).map(|_| ())
}

fn read_capped(path: &str) -> Result<Vec<u8>> {
    let cannot =
        |e: std::io::Error| Diagnostic::input(format!("cannot read '{path}': {}", io_reason(&e)));
    let too_large = |what: String| {
        Diagnostic::input(format!(
            "'{path}' is too large ({what}; seqc accepts up to {} MB)",
            MAX_INPUT_BYTES >> 20
        ))
    };
    let mut bytes = Vec::new();
    if path == "-" {
        // Read once: a command that builds the program more than once
        // (growing bounds, refine) sees the same text each time.
        static STDIN: std::sync::OnceLock<std::result::Result<Vec<u8>, String>> =
            std::sync::OnceLock::new();
        let read = STDIN.get_or_init(|| {
            let mut b = Vec::new();
            std::io::stdin()
                .lock()
                .take(MAX_INPUT_BYTES + 1)
                .read_to_end(&mut b)
                .map(|_| b)
                .map_err(|e| io_reason(&e))
        });
        match read {
            Ok(b) => bytes.clone_from(b),
            Err(why) => {
                return Err(Diagnostic::input(format!("cannot read '{path}': {why}")));
            }
        }
    } else {
        let meta = std::fs::metadata(path).map_err(cannot)?;
        if meta.is_dir() {
            return Err(Diagnostic::input(format!(
                "'{path}' is a directory, not a C file"
            )));
        }
        if meta.len() > MAX_INPUT_BYTES {
            return Err(too_large(format!("{:.1} MB", meta.len() as f64 / 1e6)));
        }
        // The size a device or pipe reports is 0: count what is read.
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes))
            .map_err(cannot)?;
    }
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large(format!(
            "more than {} MB read",
            MAX_INPUT_BYTES >> 20
        )));
    }
    Ok(bytes)
}

fn check_bytes(path: &str, bytes: &[u8]) -> Result<()> {
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
    if std::str::from_utf8(bytes).is_err()
        && bytes.iter().filter(|b| !b.is_ascii()).count() * 10 > bytes.len()
    {
        return Err(Diagnostic::input(format!(
            "'{path}' is not C source text (binary data)"
        )));
    }
    Ok(())
}

/// The text of a source file for showing a line of it: the input as it
/// was read, or a regular file (a header) of at most the input's size.
pub fn source_text(name: &str) -> Option<String> {
    if let Some(b) = cached(name) {
        return Some(String::from_utf8_lossy(&b).into_owned());
    }
    let meta = std::fs::metadata(name).ok()?;
    if !meta.is_file() || meta.len() > MAX_INPUT_BYTES {
        return None;
    }
    std::fs::read_to_string(name).ok()
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
    let bytes = read_input(path)?;
    let name = display_name(path);
    let shim = cleanup::TempDir::new("seqc-shim")
        .map_err(|e| Diagnostic::input(format!("cannot create a temporary directory: {e}")))?;
    // The copy sits alone in its directory, so that `#include "x.h"`
    // finds nothing there before the input's own directory.
    let copy_dir = shim.path().join("in");
    let preprocessed = path.ends_with(".i");
    let copy = copy_dir.join(if preprocessed { "input.i" } else { "input.c" });
    let marker = format!("# 1 \"{}\"\n", crate::ir::path_literal(name));
    std::fs::write(shim.path().join("stdatomic.h"), SHIM_STDATOMIC)
        .and_then(|_| std::fs::write(shim.path().join("assert.h"), SHIM_ASSERT))
        .and_then(|_| std::fs::create_dir(&copy_dir))
        .and_then(|_| {
            let mut text = Vec::with_capacity(marker.len() + bytes.len());
            text.extend_from_slice(marker.as_bytes());
            text.extend_from_slice(&bytes);
            std::fs::write(&copy, text)
        })
        .map_err(|e| Diagnostic::input(format!("cannot write shim headers: {e}")))?;

    let mut cmd = Command::new(std::env::var("SEQC_CPP").unwrap_or_else(|_| "gcc".into()));
    cmd.arg("-E").args(["-x", "c"]);
    if preprocessed {
        // Already preprocessed: only strip comments, keep the line numbering.
        cmd.arg("-fpreprocessed");
    } else {
        cmd.arg("-ftrack-macro-expansion=0");
        if opts.data_model == DataModel::Ilp32 {
            cmd.arg("-m32");
            // i386's <stddef.h> puts a `__float128` member in max_align_t,
            // a type the parser does not know; long double stands for it
            // (refused by name wherever a program uses one).
            cmd.arg("-D__float128=long double");
        }
        // Joined forms only: a value never becomes an argument of its own
        // (`-I @file` would read a response file).
        let dir = match Path::new(path).parent() {
            Some(d) if path != "-" && !d.as_os_str().is_empty() => d.to_string_lossy(),
            _ => ".".into(),
        };
        cmd.arg(format!("-iquote{dir}"));
        for d in &opts.include_dirs {
            if d.is_empty() {
                return Err(Diagnostic::input("-I needs a directory"));
            }
            cmd.arg(format!("-I{d}"));
        }
        cmd.arg(format!("-I{}", shim.path().display()));
        for d in &opts.defines {
            if d.is_empty() {
                return Err(Diagnostic::input("-D needs a macro name"));
            }
            cmd.arg(format!("-D{d}"));
        }
    }
    cmd.arg(&copy);
    let (out, err, status) = run_capped(&mut cmd, name)?;
    let copy_shown = copy.display().to_string();
    if !status.success() {
        let shim_dir = shim.path().display().to_string();
        let err = String::from_utf8_lossy(&err)
            .replace(&copy_shown, name)
            .replace(&shim_dir, "<seqc-shim>");
        return Err(pp_error(&err, name));
    }
    let text = String::from_utf8_lossy(&out);
    Ok(rewrite_tokens(&rename_copy(
        &text,
        &crate::ir::path_literal(&copy_shown),
        &crate::ir::path_literal(name),
    )))
}

/// gcc's line markers name the private copy before the input's own
/// marker takes over: they name the input instead, and a marker that
/// repeats the one before it goes.
fn rename_copy(text: &str, copy: &str, name: &str) -> String {
    let quoted = format!("\"{copy}\"");
    if !text.contains(&quoted) {
        return text.to_string();
    }
    let with = format!("\"{name}\"");
    let mut out = String::with_capacity(text.len());
    let mut last_marker = String::new();
    for line in text.split_inclusive('\n') {
        if !line.starts_with('#') {
            last_marker.clear();
            out.push_str(line);
            continue;
        }
        let line = line.replace(&quoted, &with);
        if line != last_marker {
            out.push_str(&line);
        }
        last_marker = line;
    }
    out
}

/// Runs the preprocessor with its limits; its output is read as it
/// comes and refused past `MAX_PREPROCESSED_BYTES`.
fn run_capped(
    cmd: &mut Command,
    name: &str,
) -> Result<(Vec<u8>, Vec<u8>, std::process::ExitStatus)> {
    let limit =
        crate::deadline::cap(Some(Duration::from_secs(PREPROCESS_SECONDS))).unwrap_or_default();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let limits = Limits {
        cpu_seconds: Some(PREPROCESS_SECONDS),
        memory_bytes: Some(PREPROCESS_MEMORY),
    };
    let mut running = cleanup::spawn(cmd, limits)
        .map_err(|e| Diagnostic::input(format!("cannot run the preprocessor (gcc -E): {e}")))?;
    let mut out = running.child.stdout.take().unwrap();
    let mut err = running.child.stderr.take().unwrap();
    let over = Arc::new(AtomicBool::new(false));
    let over2 = over.clone();
    let ho = std::thread::spawn(move || {
        let mut v = Vec::new();
        let mut buf = vec![0u8; 1 << 16];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            if v.len() + n > MAX_PREPROCESSED_BYTES {
                over2.store(true, Ordering::Relaxed);
                break;
            }
            v.extend_from_slice(&buf[..n]);
        }
        v
    });
    let he = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = (&mut err).take(1 << 20).read_to_end(&mut v);
        // Drain the rest so that gcc never blocks on a full pipe.
        let _ = std::io::copy(&mut err, &mut std::io::sink());
        v
    });
    let start = Instant::now();
    let status = loop {
        match running.child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) => {}
            Err(e) => {
                return Err(Diagnostic::input(format!(
                    "waiting for the preprocessor: {e}"
                )));
            }
        }
        if over.load(Ordering::Relaxed) || start.elapsed() > limit {
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    drop(running);
    let out = ho.join().unwrap_or_default();
    let err = he.join().unwrap_or_default();
    if over.load(Ordering::Relaxed) {
        return Err(Diagnostic::input(format!(
            "'{name}' preprocesses to more than {} MB; seqc accepts up to {} MB (a macro that expands without bound?)",
            MAX_PREPROCESSED_BYTES >> 20,
            MAX_PREPROCESSED_BYTES >> 20
        )));
    }
    let timed_out = |secs: f64| {
        Diagnostic::input(format!(
            "the preprocessor did not finish '{name}' within {secs:.0} s (a macro that expands without bound?)"
        ))
    };
    let Some(status) = status else {
        return Err(timed_out(limit.as_secs_f64()));
    };
    use std::os::unix::process::ExitStatusExt;
    match status.signal() {
        Some(libc::SIGXCPU) => Err(timed_out(PREPROCESS_SECONDS as f64)),
        Some(sig) => Err(Diagnostic::input(format!(
            "the preprocessor was killed by signal {sig} on '{name}' (out of memory or time: a macro that expands without bound?)"
        ))),
        None => Ok((out, err, status)),
    }
}

/// gcc's `file:line:col: error: msg` becomes a diagnostic at that place;
/// `name` (the input, which may hold `:` or a newline) is looked for
/// first.
fn pp_error(err: &str, name: &str) -> Diagnostic {
    let pat = format!("{name}:");
    for (i, _) in err.match_indices(&pat) {
        let rest = &err[i + pat.len()..];
        let line = rest.lines().next().unwrap_or("");
        if line.contains("error")
            && let Some(d) = located(name, line)
        {
            return d;
        }
    }
    let first = err
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| err.lines().next())
        .unwrap_or("the preprocessor failed");
    let mut parts = first.splitn(2, ':');
    if let (Some(f), Some(rest)) = (parts.next(), parts.next())
        && let Some(d) = located(f, rest)
    {
        return d;
    }
    Diagnostic::input(format!("preprocessor: {}", first.trim()))
}

/// `line:col: error: msg` after a file name.
fn located(file: &str, rest: &str) -> Option<Diagnostic> {
    let mut parts = rest.splitn(3, ':');
    let (l, c, msg) = (parts.next()?, parts.next()?, parts.next()?);
    let (l, c) = (l.trim().parse::<u32>().ok()?, c.trim().parse::<u32>().ok()?);
    let msg = msg
        .trim()
        .trim_start_matches("fatal error:")
        .trim_start_matches("error:")
        .trim();
    Some(Diagnostic::input(format!("preprocessor: {msg}")).at(file, l, c))
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
