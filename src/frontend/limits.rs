//! Bounds on how deeply the preprocessed text nests, checked in one linear
//! scan before lang-c sees it. Three things grow badly with nesting:
//! the stack (lang-c's parser, the lowering and the passes recurse once
//! per level: 300,000 nested parentheses overflowed even the 512 MB
//! stack), lang-c's parser (it re-reads what a parenthesis or bracket
//! holds once per enclosing one: `f(f(...f(0)...))` 4,000 deep took
//! 13.5 s and 1.3 GB), and the lowering's constant folding (it walks an
//! operator chain once per operator: 64k `x + x + ...` took 34 s). Real
//! programs stay far below every limit here.
//!
//! The scan estimates the syntax tree's depth from tokens: every open
//! bracket is a level, and within a level every operator, closed group
//! (a cast, a call's arguments) since the last `;` or `,`, and every
//! statement keyword since the last `;` not followed by `else`, nests one
//! deeper. The estimate is never below the real depth.

use super::source_map::SourceMap;
use crate::diag::{Diagnostic, Result};

/// `(` and `[` nested deeper than this are refused (lang-c's time).
pub const MAX_PAREN_DEPTH: usize = 1000;
/// Operators chained in one expression at one level (the lowering's time).
pub const MAX_CHAIN: usize = 4096;
/// The estimated depth of the syntax tree (the stack).
pub const MAX_DEPTH: usize = 100_000;
/// Tokens weighted by how far inside parentheses past the first 32 they
/// sit: lang-c's parsing work beyond the linear (about 0.15 µs a unit).
pub const MAX_PAREN_WORK: u64 = 8_000_000;
/// Operators weighted by their place in their chain past the 64th: the
/// lowering's folding work beyond the linear.
pub const MAX_CHAIN_WORK: u64 = 64_000_000;

struct Level {
    /// `(` or `[`, or `{`.
    paren: bool,
    /// Operators and closed groups since the last reset.
    ops: usize,
    /// Statement keywords and labels since the last reset.
    stmts: usize,
    /// The condition of an `if`, `while`, `for` or `switch`: a child of
    /// the statement, not a level of the chain it heads.
    control: bool,
}

/// Refuses text that nests past the limits, naming where it does.
pub fn check(text: &str, map: &SourceMap) -> Result<()> {
    let b = text.as_bytes();
    let mut levels = vec![Level {
        paren: false,
        ops: 0,
        stmts: 0,
        control: false,
    }];
    let mut after_control = false;
    let mut parens = 0usize;
    // Σ over levels of (1 + ops + stmts), kept as the levels change.
    let mut depth = 1usize;
    let mut paren_work = 0u64;
    let mut chain_work = 0u64;
    let refuse = |at: usize, what: String| {
        let (file, line, col, src) = map.position(at);
        Err(Diagnostic::input(what)
            .at(file, line, col)
            .with_source_line(src))
    };
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // Line markers and pragmas. The parser never sees a pragma,
            // so one that changes the program (`pack`, `weak`,
            // `scalar_storage_order`, ...) is refused, not dropped: only
            // diagnostics and hints pass.
            let at = i;
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            let words: Vec<String> = b[at + 1..i]
                .split(|c| c.is_ascii_whitespace() || *c == b'(')
                .filter(|w| !w.is_empty())
                .take(3)
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect();
            let w = |k: usize| words.get(k).map(String::as_str).unwrap_or("");
            if w(0) == "pragma" && !harmless_pragma(w(1), w(2)) {
                let (file, line, col, src) = map.position(at);
                let shown = if w(1) == "GCC" {
                    format!("GCC {}", w(2))
                } else {
                    w(1).to_string()
                };
                return Err(Diagnostic::unsupported(format!(
                    "#pragma {shown} (seqc keeps only diagnostic and optimisation pragmas)"
                ))
                .at(file, line, col)
                .with_source_line(src));
            }
            continue;
        }
        line_start = false;
        let start = i;
        paren_work += parens.saturating_sub(32) as u64;
        if paren_work > MAX_PAREN_WORK {
            return refuse(
                start,
                format!(
                    "the parentheses nest too deeply around too much text (seqc's parser would take minutes; a limit of {MAX_PAREN_WORK} tokens-times-depth past depth 32)"
                ),
            );
        }
        let top = levels.last_mut().unwrap();
        let control = std::mem::take(&mut after_control);
        if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            continue;
        }
        if c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80 {
            while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric() || b[i] >= 0x80) {
                i += 1;
            }
            let word = &text[start..i];
            if matches!(
                word,
                "if" | "else" | "while" | "for" | "do" | "switch" | "case" | "default"
            ) {
                top.stmts += 1;
                depth += 1;
                after_control = matches!(word, "if" | "while" | "for" | "switch");
            } else if matches!(word, "sizeof" | "_Alignof" | "__alignof__" | "__alignof") {
                top.ops += 1;
                depth += 1;
            }
        } else {
            let n = punct_len(&b[i..]);
            i += n;
            match c {
                b'(' | b'[' | b'{' => {
                    let paren = c != b'{';
                    if paren {
                        parens += 1;
                        if parens > MAX_PAREN_DEPTH {
                            return refuse(
                                start,
                                format!(
                                    "parentheses and brackets nest more than {MAX_PAREN_DEPTH} deep"
                                ),
                            );
                        }
                    }
                    levels.push(Level {
                        paren,
                        ops: 0,
                        stmts: 0,
                        control: control && c == b'(',
                    });
                    depth += 1;
                }
                b')' | b']' | b'}' => {
                    let mut closed_control = false;
                    if levels.len() > 1 {
                        let l = levels.pop().unwrap();
                        depth -= 1 + l.ops + l.stmts;
                        if l.paren {
                            parens -= 1;
                        }
                        closed_control = l.control;
                    }
                    let top = levels.last_mut().unwrap();
                    if c == b'}' && ends_statement(&b[i..]) {
                        depth -= top.ops + top.stmts;
                        top.ops = 0;
                        top.stmts = 0;
                    } else if !closed_control {
                        // A closed group nests what follows it (a cast).
                        top.ops += 1;
                        depth += 1;
                    }
                }
                b';' | b',' => {
                    // An expression ends; a statement chain goes on
                    // through `else`.
                    depth -= top.ops;
                    top.ops = 0;
                    if !next_word_is(&b[i..], "else") {
                        depth -= top.stmts;
                        top.stmts = 0;
                    }
                }
                _ => {
                    top.ops += 1;
                    depth += 1;
                }
            }
        }
        let top = levels.last().unwrap();
        if top.ops > MAX_CHAIN {
            return refuse(
                start,
                format!("an expression chains more than {MAX_CHAIN} operators (or labels)"),
            );
        }
        chain_work += top.ops.saturating_sub(64) as u64;
        if chain_work > MAX_CHAIN_WORK {
            return refuse(
                start,
                format!(
                    "too many long operator chains (a limit of {MAX_CHAIN_WORK} operators-times-place past the 64th in a chain)"
                ),
            );
        }
        if depth > MAX_DEPTH {
            return refuse(
                start,
                format!(
                    "the program nests more than {MAX_DEPTH} deep (statements, blocks and operators)"
                ),
            );
        }
    }
    Ok(())
}

/// The length of the punctuator at the start of `b` (longest match).
fn punct_len(b: &[u8]) -> usize {
    const THREE: [&[u8]; 3] = [b"<<=", b">>=", b"..."];
    const TWO: [&[u8]; 19] = [
        b"->", b"++", b"--", b"<<", b">>", b"<=", b">=", b"==", b"!=", b"&&", b"||", b"*=", b"/=",
        b"%=", b"+=", b"-=", b"&=", b"^=", b"|=",
    ];
    if THREE.iter().any(|p| b.starts_with(p)) {
        3
    } else if TWO.iter().any(|p| b.starts_with(p)) {
        2
    } else {
        // One byte, or one whole character outside ASCII.
        let c = b[0];
        if c < 0x80 {
            1
        } else {
            c.leading_ones().max(1) as usize
        }
    }
}

/// Whether the text after `b` starts with the word `w`.
fn next_word_is(b: &[u8], w: &str) -> bool {
    let rest = trim_start(b);
    rest.starts_with(w.as_bytes())
        && !rest
            .get(w.len())
            .is_some_and(|&c| c == b'_' || c.is_ascii_alphanumeric())
}

/// After a `}`: a statement or definition ended there unless an operator,
/// a bracket or `else` follows (a compound literal or statement
/// expression inside an expression, or an `if`'s branch).
fn ends_statement(b: &[u8]) -> bool {
    let rest = trim_start(b);
    match rest.first() {
        None => true,
        Some(&c) if c == b'_' || c.is_ascii_alphabetic() => !next_word_is(rest, "else"),
        Some(&c) => matches!(c, b'{' | b'}' | b';' | b'#'),
    }
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

/// Pragmas that change nothing a run can see: diagnostics, messages,
/// optimisation and loop hints, and OpenMP (off without -fopenmp).
fn harmless_pragma(first: &str, second: &str) -> bool {
    match first {
        "once" | "message" | "ident" | "STDC" | "omp" | "clang" | "unroll" | "nounroll"
        | "region" | "endregion" => true,
        "GCC" => matches!(
            second,
            "diagnostic"
                | "visibility"
                | "system_header"
                | "push_options"
                | "pop_options"
                | "optimize"
                | "target"
                | "poison"
                | "dependency"
                | "warning"
                | "error"
                | "unroll"
                | "ivdep"
                | "novector"
        ),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Result<()> {
        check(text, &SourceMap::new(text, "t.c"))
    }

    #[test]
    fn ordinary_code_passes() {
        let t = "int f(int a[], int n) {\n  if (n > 0) { a[0] = (int)(a[1] + 2) * 3; } else if (n) return 1; else { while (n--) a[n] = 0; }\n  return a[0] ? 1 : 0;\n}\nint t[] = {1, 2, 3};\n";
        run(t).unwrap();
        // Many statements and definitions in a row are not a chain.
        run(&"int x; void g(void) { x = x + 1; }\n".repeat(50_000)).unwrap();
        run(&format!(
            "int main(void) {{ {} }}",
            "x = x + 1;".repeat(50_000)
        ))
        .unwrap();
    }

    #[test]
    fn each_shape_is_refused_with_its_reason() {
        let deep = format!("int x = {}0{};", "(".repeat(1001), ")".repeat(1001));
        assert!(
            run(&deep)
                .unwrap_err()
                .message
                .contains("more than 1000 deep")
        );
        let chain = format!("int x = {}1;", "- ".repeat(5000));
        assert!(
            run(&chain)
                .unwrap_err()
                .message
                .contains("chains more than")
        );
        let ifs = format!("void f(void) {{ {} ; }}", "if (1) ".repeat(120_000));
        assert!(run(&ifs).unwrap_err().message.contains("nests more than"));
        let blocks = format!("void f(void) {{ {} }}", "{".repeat(100_001));
        assert!(
            run(&blocks)
                .unwrap_err()
                .message
                .contains("nests more than")
        );
        let wide = format!(
            "int x = {}{}{};",
            "f(".repeat(300),
            "0,".repeat(40_000),
            ")".repeat(300)
        );
        assert!(
            run(&wide)
                .unwrap_err()
                .message
                .contains("around too much text")
        );
    }

    #[test]
    fn a_compound_literal_does_not_end_a_chain() {
        let t = format!("int x = {}1;", "(int){1} + ".repeat(5000));
        assert!(run(&t).unwrap_err().message.contains("chains more than"));
    }
}
