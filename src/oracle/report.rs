//! The oracle's reports: the text `seqc explore` prints (the verdict line
//! first, then each failure's run by round and thread), the race report,
//! and the same as JSON, with the verdict words every report uses.

use super::*;

/// Text report for `seqc explore`: the verdict line first.
pub fn render(prog: &Program, x: &Exploration) -> String {
    let b = &x.bounds;
    let mut s = String::new();
    let bounds = format!(
        "unwind {}, threads per site {}, nondet values {}..{}",
        b.unwind,
        b.threads,
        b.nondet.iter().min().copied().unwrap_or(0),
        b.nondet.iter().max().copied().unwrap_or(0)
    );
    match &x.verdict {
        Verdict::Safe => s.push_str(&format!(
            "VERIFICATION SUCCESSFUL (every interleaving explored: {} states; {bounds})\n",
            x.states
        )),
        Verdict::Unsafe => s.push_str("VERIFICATION FAILED\n"),
        Verdict::Unknown(w) => s.push_str(&format!("VERIFICATION UNKNOWN: {w}\n")),
    }
    for f in &x.failures {
        if f.kind == AssertKind::Deadlock {
            s.push_str(&format!("\ndeadlock: {}\n", f.waits.join("; ")));
            let m = |v: Option<u32>| v.map_or("more than the cap".to_string(), |v| v.to_string());
            s.push_str(&format!(
                "fewest rounds: {}; fewest context switches: {}\n",
                m(f.rounds),
                m(f.switches)
            ));
            s.push_str(&render_trace(prog, &f.trace, &x.thread_funcs));
            continue;
        }
        // An overflow: the operation's own words (its values).
        let said = f.trace.last().and_then(|s| s.events.last()).filter(|e| {
            !matches!(f.kind, AssertKind::Lock(_))
                && f.kind
                    .word()
                    .is_some_and(|w| e.what.starts_with(&format!("{w}:")))
        });
        let what = said.map_or_else(|| f.kind.what(), |e| e.what.clone());
        s.push_str(&format!(
            "\n{}: {what} in thread {} ({})\n",
            prog.describe(f.loc),
            f.thread,
            x.thread_funcs
                .get(&f.thread)
                .map(String::as_str)
                .unwrap_or("?")
        ));
        let m = |v: Option<u32>, cap: &str| {
            v.map(|v| v.to_string())
                .unwrap_or(format!("more than {cap}"))
        };
        s.push_str(&format!(
            "fewest rounds: {}; fewest context switches: {}\n",
            m(f.rounds, "the cap"),
            m(f.switches, "the cap")
        ));
        s.push_str(&render_trace(prog, &f.trace, &x.thread_funcs));
    }
    if !x.cuts.is_empty() {
        s.push_str("\nthreads were cut by: ");
        s.push_str(&x.cuts.iter().cloned().collect::<Vec<_>>().join("; "));
        s.push('\n');
    }
    s
}

/// `explore --property race`: every race found, with the run to it.
pub fn render_races(prog: &Program, x: &RaceExploration, json: bool) -> String {
    let side = |s: &RaceSide| {
        format!(
            "thread {} ({}) {} at {}",
            s.thread,
            x.thread_funcs.get(&s.thread).map_or("?", |n| n.as_str()),
            if s.write { "writes" } else { "reads" },
            prog.describe(s.loc)
        )
    };
    if json {
        let j = |s: &RaceSide| {
            serde_json::json!({
                "thread": s.thread,
                "file": prog.file_name(s.loc.file),
                "line": s.loc.line,
                "col": s.loc.col,
                "write": s.write,
            })
        };
        let v = serde_json::json!({
            "verdict": if !x.races.is_empty() {
                verdict::FAILED
            } else if x.complete {
                verdict::SUCCESSFUL
            } else {
                verdict::UNKNOWN
            },
            "states": x.states,
            "races": x.races.iter().map(|r| serde_json::json!({"a": j(&r.a), "b": j(&r.b)})).collect::<Vec<_>>(),
        });
        return format!("{v}\n");
    }
    let mut s = String::new();
    for r in &x.races {
        s.push_str(&format!(
            "DATA RACE: {}\n       and {}\n",
            side(&r.a),
            side(&r.b)
        ));
        s.push_str(&render_trace(prog, &r.trace, &x.thread_funcs));
    }
    s.push_str(&if !x.races.is_empty() {
        format!(
            "VERIFICATION FAILED ({} data race(s); {} states)\n",
            x.races.len(),
            x.states
        )
    } else if x.complete {
        format!(
            "VERIFICATION SUCCESSFUL (no data race in any interleaving: {} states)\n",
            x.states
        )
    } else {
        format!(
            "VERIFICATION UNKNOWN (the state budget ran out after {} states)\n",
            x.states
        )
    });
    s
}

pub fn render_trace(prog: &Program, trace: &[Step], names: &BTreeMap<u32, String>) -> String {
    let mut s = String::new();
    let mut last: Option<(u32, u32)> = None;
    // A run of threads created past the bound at one place, shown as one
    // line: (where, first id, last id, the rest of the text).
    let mut run: Option<(String, u64, u64, String)> = None;
    let flush = |s: &mut String, run: &mut Option<(String, u64, u64, String)>| {
        if let Some((at, a, b, rest)) = run.take() {
            let what = if a == b {
                format!("create thread {a}{rest}")
            } else {
                format!("create threads {a} to {b}{rest}")
            };
            s.push_str(&format!("      {at:<24} {what}\n"));
        }
    };
    for st in trace {
        if last != Some((st.round, st.thread)) {
            flush(&mut s, &mut run);
        }
        if last.map(|l| l.0) != Some(st.round) {
            s.push_str(&format!("  round {}\n", st.round));
        }
        if last != Some((st.round, st.thread)) {
            s.push_str(&format!(
                "    thread {} ({})\n",
                st.thread,
                names.get(&st.thread).map(String::as_str).unwrap_or("?")
            ));
        }
        last = Some((st.round, st.thread));
        for e in &st.events {
            let at = if e.loc == Loc::NONE {
                String::from("-")
            } else {
                format!("{}:{}", prog.file_name(e.loc.file), e.loc.line)
            };
            let unscheduled = e
                .what
                .strip_prefix("create thread ")
                .and_then(|r| r.split_once(", never scheduled"))
                .and_then(|(id, rest)| Some((id.parse::<u64>().ok()?, rest)));
            match (unscheduled, &mut run) {
                (Some((id, rest)), Some((a, _, b, r)))
                    if *a == at
                        && *b + 1 == id
                        && r.strip_prefix(", never scheduled") == Some(rest) =>
                {
                    *b = id
                }
                (Some((id, rest)), _) => {
                    flush(&mut s, &mut run);
                    run = Some((at, id, id, format!(", never scheduled{rest}")));
                }
                (None, _) => {
                    flush(&mut s, &mut run);
                    s.push_str(&format!("      {at:<24} {}\n", e.what));
                }
            }
        }
    }
    flush(&mut s, &mut run);
    s
}

/// The same report as one JSON object.
pub fn render_json(prog: &Program, x: &Exploration) -> String {
    use serde_json::json;
    let word = match &x.verdict {
        Verdict::Safe => verdict::SUCCESSFUL,
        Verdict::Unsafe => verdict::FAILED,
        Verdict::Unknown(_) => verdict::UNKNOWN,
    };
    let failures: Vec<serde_json::Value> = x
        .failures
        .iter()
        .map(|f| {
            let trace: Vec<serde_json::Value> = f
                .trace
                .iter()
                .map(|s| {
                    let events: Vec<serde_json::Value> = s
                        .events
                        .iter()
                        .map(|e| {
                            json!({
                                "file": prog.file_name(e.loc.file),
                                "line": e.loc.line,
                                "what": e.what,
                            })
                        })
                        .collect();
                    json!({"thread": s.thread, "round": s.round, "events": events})
                })
                .collect();
            let mut o = json!({
                "file": prog.file_name(f.loc.file),
                "line": f.loc.line,
                "column": f.loc.col,
                "thread": f.thread,
                "rounds": f.rounds,
                "context_switches": f.switches,
                "trace": trace,
            });
            if f.kind == AssertKind::Deadlock {
                o["kind"] = json!("deadlock");
                o["deadlock"] = json!(f.waits);
            }
            if let AssertKind::Lock(r) = f.kind {
                o["kind"] = json!(r.property());
                o["rule"] = json!(r.text());
            }
            if let k @ (AssertKind::Overflow
            | AssertKind::InvalidDeref
            | AssertKind::InvalidFree
            | AssertKind::MemTrack) = f.kind
            {
                o["kind"] = json!(k.word());
            }
            o
        })
        .collect();
    let reason = match &x.verdict {
        Verdict::Unknown(w) => Some(w.as_str()),
        _ => None,
    };
    let v = json!({
        "verdict": word,
        "reason": reason,
        "states": x.states,
        "unwind": x.bounds.unwind,
        "threads": x.bounds.threads,
        "failures": failures,
    });
    format!("{v}\n")
}
