//! Violation witnesses in SV-COMP's GraphML format (sv-witnesses, format
//! 1.0), written from a run the oracle confirmed, and read back to check.
//!
//! Pre: a confirmed run of the input (`oracle::Step`s: thread, location,
//! values drawn, threads created). Post: a path-shaped witness automaton
//! with one edge per visible step of the run, in order: `threadId`, the
//! `startline` of the step's action (when it is in the program file
//! itself), `createThread` when the step made a thread, `enterFunction`
//! on the first step of each thread, and the values the step drew.
//! Values are written twice: as the standard `assumption` (`\result == v;`)
//! when the step drew exactly one, and always in our own key
//! `seqc-values` (a step may draw several, which one `\result` cannot
//! say). The last edge leads to the violation node.
//!
//! `validate` replays such a witness on the oracle (`oracle::Prepared::
//! replay`): each thread segment runs exactly its number of edges, with the
//! values given, and every step must be on the line and in the thread the
//! witness names, and make the threads it says it makes. Witnesses of
//! other shapes (several edges per step, branching automata) are not
//! understood: `validate` says so instead of guessing.

mod validate;
mod xml;

pub use validate::{Validation, validate};

use crate::ir::{Loc, Program};
use crate::oracle::Step;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The graph data of a witness.
#[derive(Clone, Debug)]
pub struct Meta {
    pub producer: String,
    pub specification: String,
    pub programfile: String,
    pub programhash: String,
    /// `32bit` or `64bit`.
    pub architecture: String,
    pub creationtime: String,
    /// The bounds the run was found with (the replay uses them again:
    /// they decide which creates make threads that run).
    pub unwind: u32,
    pub threads: u32,
}

/// SV-COMP's text of the reachability property.
pub const UNREACH_CALL: &str = "CHECK( init(main()), LTL(G ! call(reach_error())) )";

/// The keys every witness declares (id, for, type).
const KEYS: &[(&str, &str, &str)] = &[
    ("witness-type", "graph", "string"),
    ("sourcecodelang", "graph", "string"),
    ("producer", "graph", "string"),
    ("specification", "graph", "string"),
    ("programfile", "graph", "string"),
    ("programhash", "graph", "string"),
    ("architecture", "graph", "string"),
    ("creationtime", "graph", "string"),
    ("seqc-unwind", "graph", "int"),
    ("seqc-threads", "graph", "int"),
    ("entry", "node", "boolean"),
    ("violation", "node", "boolean"),
    ("threadId", "edge", "string"),
    ("createThread", "edge", "string"),
    ("enterFunction", "edge", "string"),
    ("startline", "edge", "int"),
    ("assumption", "edge", "string"),
    ("assumption.resultfunction", "edge", "string"),
    ("seqc-values", "edge", "string"),
];

/// The graph keys a violation witness must have.
pub const REQUIRED: &[&str] = &[
    "witness-type",
    "sourcecodelang",
    "producer",
    "specification",
    "programfile",
    "programhash",
    "architecture",
    "creationtime",
];

/// SHA-256 of the program as given, in lower-case hex.
pub fn program_hash(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Now in ISO 8601 (UTC), or `SOURCE_DATE_EPOCH` when set, so that a
/// build can pin the bytes.
pub fn creation_time() -> String {
    let secs = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs() as i64)
        });
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + (m <= 2) as i64;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    )
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            c => o.push(c),
        }
    }
    o
}

/// The name of the nondeterministic function on a source line, when the
/// line calls exactly one (the `assumption.resultfunction` of a draw).
fn nondet_function(line: &str) -> Option<String> {
    let mut found: Option<String> = None;
    let mut rest = line;
    while let Some(i) = rest.find("__VERIFIER_nondet_") {
        let name: String = rest[i..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        match &found {
            Some(f) if *f != name => return None,
            _ => found = Some(name.clone()),
        }
        rest = &rest[i + name.len()..];
    }
    found
}

/// The floating type a `__VERIFIER_nondet_` function draws, if it draws
/// one (the oracle records such a draw as its IEEE bits).
pub(crate) fn float_draw(func: &str) -> Option<crate::ir::FloatKind> {
    match func {
        "__VERIFIER_nondet_float" => Some(crate::ir::FloatKind::Float),
        "__VERIFIER_nondet_double" => Some(crate::ir::FloatKind::Double),
        _ => None,
    }
}

/// A draw as C writes the value in `\result == v`: a floating one from
/// its bits, and none for a NaN or an infinity (C has no literal).
fn draw_text(func: &str, v: i128) -> Option<String> {
    // `{:e}` is the shortest text that reads back to the same value.
    match float_draw(func) {
        None => Some(v.to_string()),
        Some(crate::ir::FloatKind::Float) => {
            let x = f32::from_bits(v as u32);
            x.is_finite().then(|| format!("{x:e}f"))
        }
        Some(_) => {
            let x = f64::from_bits(v as u64);
            x.is_finite().then(|| format!("{x:e}"))
        }
    }
}

/// The witness of a confirmed run. `prog` is the input as the oracle ran
/// it (its file table names the program file first).
pub fn graphml(m: &Meta, prog: &Program, steps: &[Step], names: &BTreeMap<u32, String>) -> String {
    let mut o = String::new();
    o.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n");
    o.push_str("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    for (id, f, ty) in KEYS {
        let _ = write!(
            o,
            " <key id=\"{id}\" attr.name=\"{id}\" attr.type=\"{ty}\" for=\"{f}\""
        );
        if *ty == "boolean" {
            o.push_str("><default>false</default></key>\n");
        } else {
            o.push_str("/>\n");
        }
    }
    o.push_str(" <graph edgedefault=\"directed\">\n");
    let graph = [
        ("witness-type", "violation_witness".to_string()),
        ("sourcecodelang", "C".to_string()),
        ("producer", m.producer.clone()),
        ("specification", m.specification.clone()),
        ("programfile", m.programfile.clone()),
        ("programhash", m.programhash.clone()),
        ("architecture", m.architecture.clone()),
        ("creationtime", m.creationtime.clone()),
        ("seqc-unwind", m.unwind.to_string()),
        ("seqc-threads", m.threads.to_string()),
    ];
    for (k, v) in graph {
        let _ = writeln!(o, "  <data key=\"{k}\">{}</data>", esc(&v));
    }
    o.push_str("  <node id=\"N0\"><data key=\"entry\">true</data></node>\n");
    let main_file = prog.files.first().map(String::as_str);
    let mut started = std::collections::BTreeSet::new();
    for (i, s) in steps.iter().enumerate() {
        let last = i + 1 == steps.len();
        if last {
            let _ = writeln!(
                o,
                "  <node id=\"N{}\"><data key=\"violation\">true</data></node>",
                i + 1
            );
        } else {
            let _ = writeln!(o, "  <node id=\"N{}\"/>", i + 1);
        }
        let _ = writeln!(o, "  <edge source=\"N{i}\" target=\"N{}\">", i + 1);
        let _ = writeln!(o, "   <data key=\"threadId\">{}</data>", s.thread);
        if started.insert(s.thread)
            && let Some(f) = names.get(&s.thread)
        {
            let _ = writeln!(o, "   <data key=\"enterFunction\">{}</data>", esc(f));
        }
        let in_program = s.loc.line > 0 && Some(prog.file_name(s.loc.file)) == main_file;
        if in_program {
            let _ = writeln!(o, "   <data key=\"startline\">{}</data>", s.loc.line);
        }
        for c in &s.created {
            let _ = writeln!(o, "   <data key=\"createThread\">{c}</data>");
        }
        if !s.draws.is_empty() {
            let vals: Vec<String> = s.draws.iter().map(|v| v.to_string()).collect();
            let _ = writeln!(o, "   <data key=\"seqc-values\">{}</data>", vals.join(","));
            // The function of a single draw, read off the line it was
            // drawn on (the step's visible action may be later).
            let func = |at: Loc| {
                (at.line > 0 && Some(prog.file_name(at.file)) == main_file)
                    .then(|| crate::frontend::preprocess::source_text(prog.file_name(at.file)))
                    .flatten()
                    .and_then(|t| {
                        t.lines()
                            .nth(at.line as usize - 1)
                            .and_then(nondet_function)
                    })
            };
            if let ([v], [at]) = (s.draws.as_slice(), s.draw_locs.as_slice())
                && let Some(f) = func(*at)
                && let Some(v) = draw_text(&f, *v)
            {
                let _ = writeln!(
                    o,
                    "   <data key=\"assumption\">\\result == {v};</data>\n   <data key=\"assumption.resultfunction\">{f}</data>"
                );
            }
        }
        o.push_str("  </edge>\n");
    }
    o.push_str(" </graph>\n</graphml>\n");
    o
}

/// The witness of a check's violation, checked by `validate` before it is
/// returned (a witness seqc cannot confirm itself is never written).
pub fn for_report(
    r: &crate::check::Report,
    input: &str,
    cfg: &crate::config::Config,
    spec: Option<&str>,
) -> crate::diag::Result<String> {
    use crate::diag::Diagnostic;
    let Some(c) = &r.concurrent else {
        return Err(Diagnostic::input(
            "no witness: the answer is not a violation replayed on the input",
        ));
    };
    if c.race.is_some() {
        return Err(Diagnostic::unsupported(
            "a witness for a data race (witnesses describe assertion violations)",
        ));
    }
    let bytes = crate::frontend::preprocess::read_input(input)?;
    let prog = crate::driver::load(input, cfg)?;
    let m = Meta {
        producer: format!("seqc {}", env!("CARGO_PKG_VERSION")),
        specification: spec.unwrap_or(UNREACH_CALL).to_string(),
        programfile: input.to_string(),
        programhash: program_hash(&bytes),
        architecture: match cfg.data_model {
            crate::ir::DataModel::Ilp32 => "32bit",
            crate::ir::DataModel::Lp64 => "64bit",
        }
        .to_string(),
        creationtime: creation_time(),
        unwind: r.bounds.unwind,
        threads: r.bounds.threads,
    };
    let text = graphml(&m, &prog, &c.steps, &c.names);
    match validate(&prog, &bytes, &text, m.unwind, m.threads) {
        Ok(Validation::Confirmed(_)) => Ok(text),
        Ok(Validation::NotConfirmed(why)) | Err(why) => Err(Diagnostic::internal(format!(
            "the witness of the confirmed run does not validate: {why}"
        ))),
    }
}
