//! The front end: preprocess, parse with lang-c, lower to the IR.
//!
//! Architecture invariant: this module is the only one that imports
//! `lang_c`. Everything after it sees `ir::Program`.

pub mod limits;
mod lower;
pub mod preprocess;
pub mod source_map;

use crate::diag::{Diagnostic, Result};
use crate::ir::{DataModel, Loc, Program};
pub use preprocess::PpOptions;
use source_map::SourceMap;
use std::time::{Duration, Instant};

/// Options of the front end.
#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    pub pp: PpOptions,
    /// `--property overflow` will be checked: a signed `+=` on an
    /// `_Atomic` object is lowered to an atomic section the overflow
    /// pass can check, not to a fetch-op (which wraps).
    pub overflow: bool,
}

/// Preprocesses, parses and lowers `path` (`-`: standard input, shown as
/// `<stdin>`). The path is kept as given, so locations print relative
/// when the user typed a relative path.
pub fn load(path: &str, opts: &FrontendOptions) -> Result<Program> {
    load_timed(path, opts).map(|(p, _)| p)
}

/// `load`, with the time of each stage (preprocess, parse, lower).
pub fn load_timed(path: &str, opts: &FrontendOptions) -> Result<(Program, Timings)> {
    let t = Instant::now();
    let text = preprocess::preprocess(path, &opts.pp)?;
    let pp = t.elapsed();
    let shown = preprocess::display_name(path);
    let (p, mut times) = load_preprocessed_timed(shown, text, opts.pp.data_model, opts.overflow)?;
    times.insert(0, ("preprocess".to_string(), pp));
    Ok((p, times))
}

pub type Timings = Vec<(String, Duration)>;

/// Parses and lowers already preprocessed text.
pub fn load_preprocessed(path: &str, text: String, dm: DataModel) -> Result<Program> {
    load_preprocessed_timed(path, text, dm, false).map(|(p, _)| p)
}

fn load_preprocessed_timed(
    path: &str,
    text: String,
    dm: DataModel,
    overflow: bool,
) -> Result<(Program, Timings)> {
    crate::par::deep(|| parse_and_lower(path, text, dm, overflow))
}

/// The library models (templates/models.c), one per `/* model: NAME */`.
const MODELS: &str = include_str!("../../templates/models.c");

/// Appends, as a system header, the model of every library function the
/// text calls by name (a word followed by `(`); the lowering drops a
/// model the input defines itself, and lowers the rest only when used.
fn with_models(mut text: String, dm: DataModel) -> String {
    let size_t = match dm {
        DataModel::Ilp32 => "unsigned int",
        _ => "unsigned long",
    };
    let called = |name: &str| {
        let b = text.as_bytes();
        text.match_indices(name).any(|(i, _)| {
            let before = i.checked_sub(1).map(|j| b[j]);
            let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
            !before.is_some_and(ident) && text[i + name.len()..].trim_start().starts_with('(')
        })
    };
    let mut add = String::new();
    for m in MODELS.split("/* model: ").skip(1) {
        let Some((name, body)) = m.split_once(" */") else {
            continue;
        };
        if called(name) {
            add.push_str(&body.replace("SIZE_T", size_t));
        }
    }
    if !add.is_empty() {
        text.push_str("\n# 1 \"<seqc library models>\" 3\n");
        text.push_str(
            "int __VERIFIER_nondet_int(void); long __VERIFIER_nondet_long(void); \
             void __VERIFIER_assume(int);",
        );
        text.push_str(&add);
    }
    text
}

/// The passes name what they add `__seqc...`: an input that declares
/// such a name would collide with them (a global declared twice, a
/// table read as the program's own variable).
fn reserved_names(p: &Program) -> Result<()> {
    let mut named: Vec<(&str, Loc)> = Vec::new();
    named.extend(p.globals.iter().map(|g| (g.name.as_str(), g.loc)));
    named.extend(p.comps.iter().map(|c| (c.name.as_str(), c.loc)));
    for f in &p.functions {
        named.push((f.name.as_str(), f.loc));
        named.extend(
            f.locals
                .iter()
                .filter(|l| !l.temp)
                .map(|l| (l.name.as_str(), l.loc)),
        );
    }
    match named
        .into_iter()
        .find(|(n, l)| n.starts_with("__seqc") && l.line > 0 && !p.is_system(l.file))
    {
        Some((n, l)) => Err(Diagnostic::unsupported(format!(
            "'{n}': names starting with __seqc are seqc's own (the output declares them)"
        ))
        .at(p.file_name(l.file), l.line, l.col)),
        None => Ok(()),
    }
}

fn parse_and_lower(
    path: &str,
    text: String,
    dm: DataModel,
    overflow: bool,
) -> Result<(Program, Timings)> {
    let t = Instant::now();
    let text = with_models(text, dm);
    let map = SourceMap::new(&text, path);
    limits::check(&text, &map)?;
    let mut cfg = lang_c::driver::Config::with_gcc();
    cfg.cpp_options.clear();
    let parse = match lang_c::driver::parse_preprocessed(&cfg, text) {
        Ok(p) => p,
        Err(e) => {
            let (file, line, col, src) = map.position(e.offset);
            let mut expected: Vec<&str> = e.expected.iter().copied().collect();
            expected.sort_unstable();
            let shown: Vec<&str> = expected.iter().copied().take(6).collect();
            let more = if expected.len() > 6 { ", ..." } else { "" };
            return Err(Diagnostic::input(format!(
                "syntax error: expected one of {}{more}",
                shown.join(" ")
            ))
            .at(file, line, col)
            .with_source_line(src));
        }
    };
    let parsed = t.elapsed();
    let t = Instant::now();
    let mut p = lower::lower(&parse.unit, &parse.source, map, dm, overflow)?;
    reserved_names(&p)?;
    crate::ir::loops::mark(&mut p);
    let lowered = t.elapsed();
    crate::par::drop_later(parse);
    Ok((
        p,
        vec![
            ("parse".to_string(), parsed),
            ("lower".to_string(), lowered),
        ],
    ))
}
