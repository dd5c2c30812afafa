//! The C route: CBMC on the C output, its JSON trace read back through
//! the `#line` directives.

use super::*;

pub(super) fn check_cbmc(
    b: &Built,
    cfg: &Config,
    opts: &CheckOptions,
    cancel: &crate::deadline::Cancel,
) -> Result<(Outcome, Vec<Step>)> {
    let p = &b.prog;
    let exe = tool("cbmc")?;
    let cuts: &[passes::bound::Cut] = if opts.unwinding_assertions {
        &[passes::bound::Cut::Assume, passes::bound::Cut::Assert]
    } else {
        &[passes::bound::Cut::Assume]
    };
    let sequentialized = p.thread_id.is_some();
    let cuts = if sequentialized {
        &[passes::bound::Cut::Stop][..]
    } else {
        cuts
    };
    let names = cbmc_names(&p.files);
    for &cut in cuts {
        // A sequentialization's output is bounded already (cuts stop
        // threads); the driver bounds the input.
        let mut q = crate::driver::for_cbmc(b, cfg, cut);
        q.files.clone_from(&names);
        let c = cback::emit(
            &q,
            &COptions {
                dialect: cfg.dialect,
                options_text: cfg.options_text(),
                version: env!("CARGO_PKG_VERSION").to_string(),
                ir_mode: false,
            },
        );
        let (dir, f) = process::scratch_file("seqc_out.c", &c)?;
        // seqc bounds every loop itself; CBMC's own bound only has to be
        // above it.
        let unwind = b.cbmc_unwind.to_string();
        let mut args = vec![
            f.as_str(),
            "--no-malloc-may-fail",
            "--no-standard-checks",
            "--unwind",
            &unwind,
            "--no-unwinding-assertions",
            "--json-ui",
            "--trace",
        ];
        if p.data_model == DataModel::Ilp32 {
            args.push("--32");
        }
        // CBMC counts recursion past the first frame: N active frames
        // are allowed by a limit of N - 1.
        let mut limits: Vec<String> = p
            .frame_limits
            .iter()
            .map(|&(f, n)| {
                let name = cback::sequential_fn_name(&p.func(f).name);
                format!("{name}:{}", n.saturating_sub(1))
            })
            .collect();
        // A counted loop that creates threads runs its trip count.
        let counted = crate::ir::loops::labels(&q);
        limits.extend(counted.iter().map(|(f, l, n)| {
            let name = cback::sequential_fn_name(&q.func(*f).name);
            format!("{name}.{l}:{}", (n + 2).max(b.cbmc_unwind))
        }));
        let limits = limits.join(",");
        // The id array a creation loop fills is written at constant
        // indices: field sensitivity makes each cell a variable of its own,
        // where CBMC's array theory runs out of memory on thousands of
        // writes. Arrays up to the longest trip count get it.
        let longest = counted.iter().map(|c| c.2).max().unwrap_or(0);
        let fields = longest.to_string();
        if longest > 64 {
            args.extend(["--max-field-sensitivity-array-size", fields.as_str()]);
        }
        if !limits.is_empty() {
            args.extend(["--unwindset", limits.as_str()]);
        }
        if p.rounds.is_some() {
            // The sequentialized program's only property is main's check
            // of __seqc_error. CBMC adds function-pointer checks even with
            // --no-standard-checks, and a stopped thread may call through
            // a pointer read from the sink round's unconstrained copy.
            args.extend(["--property", "main.assertion.1"]);
        }
        let mut out = run(&exe, &args, &dir, opts.timeout, cancel)?;
        // CBMC numbers objects in the top 8 bits of a pointer by default;
        // past 256 objects it gives up. With 64-bit pointers 16 bits leave
        // every object 48 bits of offsets; with 32-bit ones fewer offset
        // bits could wrap a large object's pointers, so the failure stands.
        if p.data_model == DataModel::Lp64
            && !out.timed_out
            && !out.cancelled
            && out.stdout.contains("too many addressed objects")
        {
            args.extend(["--object-bits", "16"]);
            out = run(&exe, &args, &dir, opts.timeout, cancel)?;
        }
        if out.cancelled {
            return Ok((
                Outcome::Unknown("cbmc stopped: another back end answered first".into()),
                Vec::new(),
            ));
        }
        if out.timed_out {
            return Ok((
                Outcome::Unknown(format!(
                    "cbmc timed out after {}",
                    timeout_text(opts.timeout)
                )),
                Vec::new(),
            ));
        }
        if let Some(why) = out.killed("cbmc") {
            return Ok((Outcome::Unknown(why), Vec::new()));
        }
        if out
            .stdout
            .contains("provided with unwindset does not match any loop")
        {
            // CBMC would cut that loop at --unwind: a silent bound.
            return Err(Diagnostic::internal(
                "cbmc did not find a counted loop's label; its --unwindset would not apply",
            ));
        }
        let site_n = match &b.method {
            MethodInfo::LalReps(i) => Some(i.site_n.as_str()),
            _ => None,
        };
        match read_cbmc(p, &names, site_n, &out.stdout) {
            Ok(None) => continue,
            Ok(Some(mut trace)) => {
                let o = match cut {
                    passes::bound::Cut::Assume | passes::bound::Cut::Stop => Outcome::Violation,
                    passes::bound::Cut::Assert => {
                        // The failing check is seqc's own bound.
                        if let Some(last) = trace.last_mut() {
                            last.what = TraceWhat::Cut;
                        }
                        Outcome::BoundTooSmall
                    }
                };
                return Ok((o, trace));
            }
            Err(why) => {
                let why = if why.is_empty() {
                    first_line(&out.stderr)
                } else {
                    why
                };
                return Ok((Outcome::Unknown(format!("cbmc failed: {why}")), Vec::new()));
            }
        }
    }
    Ok((Outcome::Safe, Vec::new()))
}

/// The file names the C output gives CBMC: each path as it is when it is
/// plain, or `seqc_file_N.c` when it holds a quote, a backslash, a
/// control character or `??` (a trigraph) (CBMC 6.6 aborts on a `#line` whose path holds `"`);
/// the trace maps them back.
pub(super) fn cbmc_names(files: &[String]) -> Vec<String> {
    files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if f.contains("??") || f.chars().any(|c| c == '"' || c == '\\' || c.is_control()) {
                format!("seqc_file_{i}.c")
            } else {
                f.clone()
            }
        })
        .collect()
}

/// The kind of the program's assertions at a place (`col` 0: anywhere on
/// the line) when they all have one (an overflow check, a lock rule);
/// else a user assertion.
fn kind_at(p: &Program, file: crate::ir::FileId, line: u32, col: u32) -> AssertKind {
    let mut kinds = Vec::new();
    for f in &p.functions {
        if let Some(b) = &f.body {
            b.walk(&mut |s| {
                if let crate::ir::StmtKind::Assert(_, k) = &s.kind
                    && s.loc.file == file
                    && s.loc.line == line
                    && (col == 0 || s.loc.col == col)
                {
                    kinds.push(*k);
                }
            });
        }
    }
    match kinds.split_first() {
        Some((k, rest)) if rest.iter().all(|r| r == k) => *k,
        _ => AssertKind::Assert,
    }
}

/// CBMC's JSON answer: `Ok(None)` safe, `Ok(Some(trace))` a failure.
/// `names`: the file names CBMC saw (`cbmc_names`), one per `p.files`.
pub(super) fn read_cbmc(
    p: &Program,
    names: &[String],
    site_n: Option<&str>,
    out: &str,
) -> std::result::Result<Option<Vec<Step>>, String> {
    use crate::passes::{kiss, lal_reps};
    // Writes of the per-site thread counters (`name[site]`).
    let counter =
        |lhs: &str| site_n.is_some_and(|n| lhs.strip_prefix(n).is_some_and(|r| r.starts_with('[')));
    let v: serde_json::Value =
        serde_json::from_str(out).map_err(|e| format!("unreadable output ({e})"))?;
    let msgs = v.as_array().ok_or("unexpected output")?;
    let mut status = None;
    let mut errors = Vec::new();
    for m in msgs {
        if let Some(s) = m.get("cProverStatus").and_then(|s| s.as_str()) {
            status = Some(s.to_string());
        }
        if m.get("messageType").and_then(|t| t.as_str()) == Some("ERROR") {
            errors.push(m["messageText"].as_str().unwrap_or("").to_string());
        }
    }
    match status.as_deref() {
        Some("success") => return Ok(None),
        Some("failure") => {}
        _ => return Err(errors.join("; ")),
    }
    for m in msgs {
        let Some(results) = m.get("result").and_then(|r| r.as_array()) else {
            continue;
        };
        for r in results {
            if r.get("status").and_then(|s| s.as_str()) != Some("FAILURE") {
                continue;
            }
            let mut out = Vec::new();
            let mut depth = 0u32;
            // Lal-Reps: the round and slot in force, and the functions
            // on the stack (seqc's own code draws values too).
            let lr = p.thread_id.is_some();
            let mut ctx = (0u32, 0u32);
            let mut stack: Vec<String> = Vec::new();
            for s in r
                .get("trace")
                .and_then(|t| t.as_array())
                .into_iter()
                .flatten()
            {
                let loc = &s["sourceLocation"];
                let seen = loc["file"].as_str().unwrap_or("");
                let known = names.iter().position(|n| n == seen);
                let file = known.map_or(seen, |i| p.files[i].as_str());
                let line: u32 = loc["line"]
                    .as_str()
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(0);
                let col: u32 = loc["column"]
                    .as_str()
                    .and_then(|l| l.parse().ok())
                    .unwrap_or(0);
                let ours = known.is_some();
                let d = depth;
                let c = lr.then_some(ctx);
                let step = |what| Step {
                    file: file.to_string(),
                    line,
                    col,
                    depth: d,
                    what,
                    ctx: c,
                };
                match s["stepType"].as_str().unwrap_or("") {
                    "function-call" => {
                        let name = s["function"]["displayName"].as_str().unwrap_or("");
                        let name = &*cback::input_fn_name(name);
                        stack.push(name.to_string());
                        if p.func_by_name(name)
                            .is_some_and(|f| p.func(f).body.is_some())
                        {
                            out.push(step(TraceWhat::Call(name.to_string())));
                            depth += 1;
                        }
                    }
                    "function-return" => {
                        let name = s["function"]["displayName"].as_str().unwrap_or("");
                        let name = &*cback::input_fn_name(name);
                        stack.pop();
                        if p.func_by_name(name)
                            .is_some_and(|f| p.func(f).body.is_some())
                        {
                            depth = depth.saturating_sub(1);
                            out.push(Step {
                                depth,
                                ..step(TraceWhat::Return(name.to_string(), None))
                            });
                        }
                    }
                    "assignment" => {
                        let lhs = s["lhs"].as_str().unwrap_or("");
                        let hidden = s["hidden"].as_bool().unwrap_or(false)
                            || s["internal"].as_bool().unwrap_or(false);
                        let val = cbmc_value(&s["value"]);
                        if !lr
                            && !hidden
                            && lhs.starts_with("return_value___VERIFIER_nondet_")
                            && !stack
                                .last()
                                .is_some_and(|f| f.starts_with("__seqc_") && !ub_helper(f))
                        {
                            // `--method none`: the input's draws, for the
                            // replay on the oracle.
                            if let Some(v) = val.int {
                                out.push(step(TraceWhat::Nondet(v)));
                            }
                        }
                        if lr && !hidden {
                            let n = val.int;
                            let seqc_code = stack.last().is_some_and(|f| {
                                f == "main"
                                    || (f.starts_with("__seqc_")
                                        && f != "__seqc_main"
                                        && !ub_helper(f))
                            });
                            match lhs {
                                lal_reps::ROUND => ctx.0 = n.unwrap_or(0) as u32,
                                lal_reps::TID => ctx.1 = n.unwrap_or(0) as u32,
                                _ if lhs.starts_with("return_value___VERIFIER_nondet_")
                                    && !seqc_code =>
                                {
                                    if let Some(v) = n {
                                        out.push(step(TraceWhat::Nondet(v)));
                                    }
                                }
                                _ if lhs == lal_reps::ERROR
                                    || lhs == kiss::RACE_SITE
                                    || lhs == kiss::DEADLOCK
                                    || lhs == crate::passes::threads::EXIT_HELD
                                    || counter(lhs) =>
                                {
                                    out.push(step(TraceWhat::Assign(lhs.to_string(), val.clone())));
                                }
                                _ => {}
                            }
                        }
                        if !ours
                            || hidden
                            || lhs.starts_with("__")
                            || lhs.contains('$')
                            || lhs.starts_with("return_value")
                        {
                            continue;
                        }
                        out.push(step(TraceWhat::Assign(lhs.to_string(), val)));
                    }
                    "failure" => {
                        let kind = known.map_or(AssertKind::Assert, |f| {
                            kind_at(p, crate::ir::FileId(f as u32), line, col)
                        });
                        out.push(step(TraceWhat::Fail(kind)));
                        break;
                    }
                    _ => {}
                }
            }
            return Ok(Some(out));
        }
    }
    Err("cbmc reported a failure without a failing property".into())
}

/// A value of CBMC's JSON trace: its text, and its integer read from the
/// bits CBMC gives with their type's signedness (the text only when there
/// are no bits: `TRUE`, `NULL`, a decimal or hex literal with a suffix).
pub(super) fn cbmc_value(v: &serde_json::Value) -> crate::ir::trace::TraceValue {
    let shown = v["data"].as_str().unwrap_or("?").to_string();
    let ty = v["type"].as_str().unwrap_or("");
    let from_bits = v["binary"].as_str().and_then(|b| {
        let w = b.len() as u32;
        if w == 0 || w > 128 {
            return None;
        }
        let x = u128::from_str_radix(b, 2).ok()?;
        let signed = v["name"].as_str() == Some("integer")
            && !ty.contains("unsigned")
            && !ty.starts_with("_Bool")
            && !ty.contains('*');
        Some(if signed && w < 128 {
            let sh = 128 - w;
            ((x << sh) as i128) >> sh
        } else {
            x as i128
        })
    });
    let int = from_bits.or_else(|| text_int(&shown));
    crate::ir::trace::TraceValue { shown, int }
}

/// The integer a literal as CBMC prints it stands for: `7`, `-1l`, `7u`,
/// `0x10`, `TRUE`, `NULL`.
fn text_int(s: &str) -> Option<i128> {
    let s = s.trim();
    match s {
        "TRUE" | "true" => return Some(1),
        "FALSE" | "false" | "NULL" => return Some(0),
        _ => {}
    }
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let t = t.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i128::from_str_radix(h, 16).ok()?,
        None => t.parse::<i128>().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// The helpers of pinned undefined behaviour (`x / 0`, an out-of-range
/// float conversion): their draws are the input's, where the oracle
/// draws too.
fn ub_helper(f: &str) -> bool {
    ["div", "rem", "shl", "shr", "f2i"]
        .iter()
        .any(|h| f.starts_with(&format!("__seqc_{h}_")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_as_cbmc_prints_them() {
        let v = |j: &str| cbmc_value(&serde_json::from_str(j).unwrap()).int;
        // From the bits, with the type's signedness.
        assert_eq!(
            v(
                r#"{"binary":"11111111111111111111111111111111","data":"-1","name":"integer","type":"int"}"#
            ),
            Some(-1)
        );
        assert_eq!(
            v(r#"{"binary":"11111111","data":"255","name":"integer","type":"unsigned char"}"#),
            Some(255)
        );
        // From the text when there are no bits: hex is read as hex.
        assert_eq!(v(r#"{"data":"0x10"}"#), Some(16));
        assert_eq!(v(r#"{"data":"7u"}"#), Some(7));
        assert_eq!(v(r#"{"data":"-1l"}"#), Some(-1));
        assert_eq!(v(r#"{"data":"TRUE"}"#), Some(1));
        assert_eq!(v(r#"{"data":"?"}"#), None);
    }
}
