//! Text that reaches the output from elsewhere, escaped for where it
//! goes: identifiers, string literals, `#line` paths, the header comment,
//! numbers, and the UB helpers' template text.

use super::*;

/// The text of one UB helper for a type, from the template.
pub(super) fn helper_text(name: &str, ty: &(String, String, u32, bool, String)) -> String {
    let (t, u, bits, signed, nondet) = ty;
    let op = name.split('_').nth(3).unwrap_or("");
    let n = &name[format!("__seqc_{op}_").len()..];
    let section = UB_HELPERS
        .split("//@ ")
        .find(|s| s.starts_with(op))
        .map(|s| s[op.len()..].trim_start_matches('\n'))
        .unwrap_or("");
    let text = section
        .replace("{{T}}", t)
        .replace("{{U}}", u)
        .replace("{{N}}", n)
        .replace("{{BITS}}", &bits.to_string())
        .replace("{{NONDET}}", nondet)
        .replace("{{INRANGE}}", &in_range(*bits, *signed));
    let text: String = text
        .lines()
        .filter_map(|l| match l.strip_prefix("{{SIGNED}}") {
            Some(rest) if *signed => Some(format!("{rest}\n")),
            Some(_) => None,
            None => Some(format!("{l}\n")),
        })
        .collect();
    text
}

/// The test that a double `x`'s integral part fits an integer of `bits`
/// bits: exact doubles only (each bound is a power of two, or one less
/// where that is exact).
fn in_range(bits: u32, signed: bool) -> String {
    let p = |e: u32| format!("{}.0", 2u128.pow(e));
    match (signed, bits) {
        (false, _) => format!("x > -1.0 && x < {}", p(bits)),
        (true, ..=53) => format!("x > -{} - 1.0 && x < {}", p(bits - 1), p(bits - 1)),
        (true, _) => format!("x >= -{} && x < {}", p(bits - 1), p(bits - 1)),
    }
}

/// What an atomic function (`__VERIFIER_atomic_*`) is called in a
/// sequential output. Checkers run such a function as an atomic section
/// (CBMC does), which means nothing with one thread, and CBMC refuses one
/// that a bound cut leaves by a return ("atomic sections differ across
/// branches"). Inputs cannot declare `__seqc` names, so none collides.
const SEQ_ATOMIC: &str = "__seqc_atomic_fn_";
const ATOMIC: &str = "__VERIFIER_atomic_";

/// The name a sequential output gives function `name`.
pub fn sequential_fn_name(name: &str) -> std::borrow::Cow<'_, str> {
    match name.strip_prefix(ATOMIC) {
        Some(rest) => std::borrow::Cow::Owned(format!("{SEQ_ATOMIC}{}", c_ident(rest))),
        None => c_ident(name),
    }
}

/// The input's name of a function a sequential output calls `name`
/// (`sequential_fn_name` undone), for traces.
pub fn input_fn_name(name: &str) -> std::borrow::Cow<'_, str> {
    match name.strip_prefix(SEQ_ATOMIC) {
        Some(rest) => std::borrow::Cow::Owned(format!("{ATOMIC}{rest}")),
        None => std::borrow::Cow::Borrowed(name),
    }
}

/// The name field `i` has in the output. An anonymous struct or union
/// member gets one (`__seqc_anon2`), and its fields are reached through
/// it: a tagged type printed as a member without a name declares no
/// member at all (gcc warns and drops it; CBMC rejects the initialiser).
/// An unnamed bit-field stays unnamed (it is padding).
pub(super) fn field_ident(f: &crate::ir::Field, i: usize) -> std::borrow::Cow<'_, str> {
    if f.name.is_empty() && f.bit_width.is_none() {
        std::borrow::Cow::Owned(format!("__seqc_anon{i}"))
    } else {
        c_ident(&f.name)
    }
}

/// A name as C spells it: the lexer's stand-in for `$` turned back.
/// Names seldom have one, so the common case copies nothing.
pub fn c_ident(name: &str) -> std::borrow::Cow<'_, str> {
    let d = crate::ir::DOLLAR.as_bytes();
    if name.as_bytes().windows(d.len()).any(|w| w == d) {
        std::borrow::Cow::Owned(name.replace(crate::ir::DOLLAR, "$"))
    } else {
        std::borrow::Cow::Borrowed(name)
    }
}

/// `v` in decimal. `i128`'s formatting divides in 128 bits, and integer
/// literals are everywhere in the output.
pub(super) fn push_decimal(out: &mut String, v: u128) {
    let Ok(mut x) = u64::try_from(v) else {
        let _ = write!(out, "{v}");
        return;
    };
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap());
}

/// The mark of a user statement's location, resolved into `#line` later;
/// generated code has none.
pub(super) fn put_mark(out: &mut String, loc: Loc) {
    if !loc.generated && loc.line != 0 {
        let _ = write!(out, "{MARK}{} {}{MARK}", loc.file.0, loc.line);
    }
}

/// User text inside the header's block comment: `*/` would close it and
/// turn the rest of a path into code.
pub(super) fn comment_text(t: &str) -> String {
    t.replace("*/", "*\\/")
}

/// A C string literal for bytes ending in NUL (the NUL is implicit).
pub fn c_string(b: &[u8]) -> String {
    let body = if b.last() == Some(&0) {
        &b[..b.len() - 1]
    } else {
        b
    };
    let mut s = String::from("\"");
    let mut octal = false;
    for &c in body {
        // C ends an octal escape after three digits, but CBMC's parser
        // reads on ("\0132" became 'Z'): a digit after one starts a new
        // literal, which C joins to this one.
        if std::mem::take(&mut octal) && c.is_ascii_digit() {
            s.push_str("\" \"");
        }
        match c {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            b'?' => s.push_str("\\?"),
            0x20..=0x7e => s.push(c as char),
            _ => {
                let _ = write!(s, "\\{:03o}", c);
                octal = true;
            }
        }
    }
    s.push('"');
    s
}

/// How deep a checker must nest the functions the transformation bounds
/// (`Program::frame_limits`), in CBMC's terms: one frame fewer.
pub(super) fn checker_note(p: &Program) -> String {
    p.frame_limits
        .iter()
        .map(|&(f, n)| {
            format!(
                "\n   No path nests {name} more than {n} deep: with CBMC,\n   --unwindset {name}:{m} keeps the unfolding to that.",
                name = sequential_fn_name(&p.func(f).name),
                m = n.saturating_sub(1)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::c_string;

    /// CBMC reads an octal escape on into a following digit: the digit
    /// goes into a literal of its own.
    #[test]
    fn no_digit_follows_an_octal_escape() {
        assert_eq!(c_string(b"1\x0b2\0"), "\"1\\013\" \"2\"");
        assert_eq!(c_string(b"\x0bx\0"), "\"\\013x\"");
        assert_eq!(c_string(b"a\"\\\n\0"), "\"a\\\"\\\\\\n\"");
    }
}
