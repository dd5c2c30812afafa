//! GCC attributes. Each one either means nothing for the program's runs
//! in seqc's model (a hint to the compiler: `noreturn`, `nonnull`,
//! `format`, ...), changes something seqc models and is applied (`packed`
//! and `aligned` on types and fields change layouts, `mode` changes an
//! integer's width), or is refused by name. An attribute seqc does not
//! know is refused: dropping one silently could change what the program
//! does.

use super::Lowerer;
use crate::diag::Result;
use crate::ir::*;
use lang_c::ast;
use lang_c::span::Node;

/// Attributes that do not change a run: optimisation and warning hints,
/// symbol visibility and placement, calling conventions, and what glibc's
/// headers declare about library functions.
const NO_EFFECT: &[&str] = &[
    "nothrow",
    "leaf",
    "nonnull",
    "always_inline",
    "noinline",
    "gnu_inline",
    "artificial",
    "const",
    "pure",
    "noreturn",
    "regparm",
    "stdcall",
    "cdecl",
    "fastcall",
    "format",
    "format_arg",
    "deprecated",
    "unavailable",
    "malloc",
    "alloc_size",
    "alloc_align",
    "assume_aligned",
    "warn_unused_result",
    "unused",
    "used",
    "maybe_unused",
    "visibility",
    "cold",
    "hot",
    "sentinel",
    "returns_nonnull",
    "returns_twice",
    "access",
    "nonstring",
    "may_alias",
    "noclone",
    "noipa",
    "no_instrument_function",
    "no_reorder",
    "no_icf",
    "no_split_stack",
    "no_stack_protector",
    "no_sanitize",
    "no_sanitize_address",
    "no_sanitize_thread",
    "no_sanitize_undefined",
    "optimize",
    "target",
    "section",
    "externally_visible",
    "flatten",
    "tls_model",
    "copy",
    "error",
    "warning",
    "fd_arg",
    "fd_arg_read",
    "fd_arg_write",
    "null_terminated_string_arg",
    "nocommon",
    "common",
    "weak",
    "transparent_union",
    "designated_init",
    "warn_if_not_aligned",
    "aligned_ok",
];

/// Attributes refused, with what they would mean.
const REFUSED: &[(&str, &str)] = &[
    (
        "cleanup",
        "a function called when the variable leaves its scope",
    ),
    ("constructor", "a function run before main"),
    ("destructor", "a function run after main"),
    ("vector_size", "vector types"),
    ("alias", "a second name for another symbol"),
    ("weakref", "a weak reference to another symbol"),
    ("ifunc", "a function chosen at load time"),
    ("scalar_storage_order", "a struct's byte order"),
    ("interrupt", "interrupt handlers"),
    ("naked", "functions without prologue"),
];

/// What the attributes at one place change.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Attrs {
    pub packed: bool,
    /// `aligned(N)` (0: none).
    pub align: u64,
    /// `mode(...)`: the integer's width in bits, or 0 for the machine word.
    pub mode: Option<u32>,
}

/// Where attributes stand: the same name can mean different things.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum AttrSite {
    /// In declaration specifiers or after a declarator.
    Decl,
    /// On a struct or union member.
    Field,
    /// Anywhere else (parameters, pointers, enumerators, type names).
    Other,
}

impl Attrs {
    pub fn add(&mut self, o: Attrs) {
        self.packed |= o.packed;
        self.align = self.align.max(o.align);
        if o.mode.is_some() {
            self.mode = o.mode;
        }
    }

    /// The integer type `mode` makes of `ty` (its signedness kept).
    pub fn apply_mode(&self, ty: Ty, dm: DataModel) -> Ty {
        let Some(bits) = self.mode else { return ty };
        let Ty::Int(k) = ty.unqual() else { return ty };
        let bits = if bits == 0 { dm.pointer_bits() } else { bits };
        let signed = k.signed();
        let kind = match (bits, signed) {
            (8, true) => IntKind::SChar,
            (8, false) => IntKind::UChar,
            (16, true) => IntKind::Short,
            (16, false) => IntKind::UShort,
            (32, true) => IntKind::Int,
            (32, false) => IntKind::UInt,
            (_, true) => IntKind::LongLong,
            (_, false) => IntKind::ULongLong,
        };
        Ty::Int(kind)
    }
}

impl<'a> Lowerer<'a> {
    /// Classifies attributes; refuses what seqc cannot give its meaning.
    pub(super) fn attrs(
        &mut self,
        exts: &'a [Node<ast::Extension>],
        site: AttrSite,
    ) -> Result<Attrs> {
        let mut out = Attrs::default();
        for x in exts {
            let ast::Extension::Attribute(a) = &x.node else {
                // An assembler name or clang's availability: no effect.
                continue;
            };
            let raw = a.name.node.as_str();
            let name = bare_name(raw);
            if NO_EFFECT.contains(&name) {
                continue;
            }
            if let Some((_, what)) = REFUSED.iter().find(|(n, _)| *n == name) {
                return self.unsupported(a.name.span, format!("__attribute__(({raw})): {what}"));
            }
            match name {
                "packed" => out.packed = true,
                "aligned" => {
                    // Without an argument: the largest alignment on x86.
                    let n = match a.arguments.first() {
                        Some(e) => self.const_expr(e)?,
                        None => 16,
                    };
                    if n <= 0 || (n & (n - 1)) != 0 {
                        return self.error(a.name.span, "requested alignment is not a power of 2");
                    }
                    out.align = out.align.max(n as u64);
                }
                "mode" if site != AttrSite::Other => {
                    let m = a.arguments.first().and_then(|e| match &e.node {
                        ast::Expression::Identifier(i) => Some(i.node.name.clone()),
                        _ => None,
                    });
                    let m = m.unwrap_or_default();
                    out.mode = Some(match bare_name(&m) {
                        "QI" | "byte" => 8,
                        "HI" => 16,
                        "SI" => 32,
                        "DI" => 64,
                        "word" | "pointer" => 0,
                        _ => {
                            return self
                                .unsupported(a.name.span, format!("__attribute__(({raw}({m})))"));
                        }
                    });
                }
                _ => {
                    return self.unsupported(
                        a.name.span,
                        format!("__attribute__(({raw})) (an attribute seqc does not know)"),
                    );
                }
            }
        }
        Ok(out)
    }
}

/// An attribute's or mode's name without GNU C's optional `__` on both
/// sides (`__packed__` is `packed`).
pub(super) fn bare_name(raw: &str) -> &str {
    raw.strip_prefix("__")
        .and_then(|n| n.strip_suffix("__"))
        .unwrap_or(raw)
}
