//! A back end's violation replayed on the oracle's interpreter of the
//! input before it is reported (DESIGN.md §3 rule 1).

use super::*;

/// At most this many values of the backend's trace join the oracle's own
/// draws when the trace's draws do not line up with the oracle's.
const MORE_VALUES: usize = 12;

/// Replays a counterexample of a sequentialization on the oracle's
/// interpreter of the input. A violation that does not replay is seqc's
/// error, never a bug of the input (DESIGN.md §3 rule 1).
pub(super) fn confirm(
    b: &Built,
    cfg: &Config,
    trace: &[Step],
    search: bool,
) -> Result<std::result::Result<Concurrent, String>> {
    // The lowered input the driver kept: the oracle runs the program as
    // written, not as the passes changed it.
    let prog = b.input.as_ref().expect("check keeps the input");
    let info = &b.method;
    // The sink round of the output, and the `--rounds` it came from.
    let sink = b.prog.rounds.as_ref().map_or(0, |r| r.k);
    let k = match info {
        MethodInfo::LalReps(i) => i.rounds,
        _ => 0,
    };
    let made = |guided: bool| {
        match info {
            MethodInfo::LalReps(info) => {
                crate::replay::schedule(trace, info, sink, &prog.files, guided, None)
            }
            MethodInfo::Kiss(info) => crate::replay::kiss_schedule(trace, info, prog),
            MethodInfo::None => crate::replay::sequential_schedule(trace, prog),
        }
        .map_err(|w| Diagnostic::internal(format!("the counterexample makes no schedule: {w}")))
    };
    let (mut sched, loc) = made(true)?;
    let prep = crate::oracle::prepare(prog).map_err(|d| {
        Diagnostic::internal(format!(
            "the counterexample cannot be replayed: the oracle refuses the input ({})",
            d.message
        ))
    })?;
    let mut bounds = crate::oracle::Bounds {
        unwind: cfg.unwind,
        threads: cfg.threads,
        deadlock: cfg.property.deadlock(),
        locks: cfg.property.locks(),
        locks_exit: cfg.property.locks_exit(),
        overflow: cfg.property.overflow(),
        memsafety: cfg.property.memsafety(),
        memtrack: cfg.property.memtrack(),
        ..Default::default()
    };
    if !search {
        // A sliced program's counterexample is often spurious. The guided
        // replay exhausts quickly; the budget is a backstop, past which it
        // counts as spurious (refine then tracks more).
        bounds.max_states = 100_000;
    }
    // A replay the oracle refuses (a construct it cannot run on its way)
    // is one that did not reproduce: the next way of replaying may avoid
    // it. The refusal is the answer only when none reproduces.
    let refused: std::cell::RefCell<Option<Diagnostic>> = Default::default();
    let replay_in = |b: &crate::oracle::Bounds, s: &crate::oracle::Schedule| match prep.replay(b, s)
    {
        Ok(o) => o,
        Err(d) => {
            let why = d.message.clone();
            refused.borrow_mut().get_or_insert(d);
            ReplayOutcome::NotReproduced(why)
        }
    };
    let replay = |s: &crate::oracle::Schedule| replay_in(&bounds, s);
    let mut outcome = replay(&sched);
    if let (ReplayOutcome::NotReproduced(_), true, MethodInfo::LalReps(_)) =
        (&outcome, search, info)
    {
        // The trace's own switch lines did not lead there (a switch line
        // the oracle places differently, say): any segment lengths. A
        // sliced program's trace must replay along its own path (STORM's
        // concretisation), so it gets no second try.
        sched = made(false)?.0;
        outcome = replay(&sched);
    }
    if let ReplayOutcome::NotReproduced(_) = &outcome {
        // The values a backend drew may not line up with the oracle's
        // draws (an uninitialised read, drawn by the oracle where it is
        // first read, by a backend where it is declared): let the replay
        // choose them, from its own values and those the backend's trace
        // shows (the 7 an uninitialised `int u` held, say): its draws
        // first, then the values it assigned, small ones first (a trace
        // also shows seqc's own bookkeeping).
        let mut seen: Vec<i128> = Vec::new();
        let mut assigned: Vec<i128> = Vec::new();
        for s in trace {
            match &s.what {
                crate::ir::trace::TraceWhat::Nondet(v) => seen.push(*v),
                crate::ir::trace::TraceWhat::Assign(_, v) => assigned.extend(v.int),
                _ => {}
            }
        }
        assigned.sort_unstable_by_key(|v| (v.unsigned_abs(), *v));
        seen.extend(assigned);
        let mut seen: Vec<i128> = seen
            .into_iter()
            .filter(|v| !bounds.nondet.contains(v))
            .collect();
        let mut once = std::collections::HashSet::new();
        seen.retain(|v| once.insert(*v));
        if !sched.nondet.is_empty() || !seen.is_empty() {
            sched.nondet.clear();
            let mut wider = bounds.clone();
            wider.nondet.extend(seen.into_iter().take(MORE_VALUES));
            outcome = replay_in(&wider, &sched);
        }
    }
    if let (ReplayOutcome::NotReproduced(_), Some(((ta, la), (tb, lb)))) = (&outcome, sched.race) {
        // The oracle's own search for a race between the same two lines.
        let line = |a: crate::ir::Loc, b: crate::ir::Loc| a.file == b.file && a.line == b.line;
        if let Ok(x) = prep.races(&bounds)
            && let Some(r) = x.races.into_iter().find(|r| {
                (line(r.a.loc, la) && line(r.b.loc, lb)) || (line(r.a.loc, lb) && line(r.b.loc, la))
            })
        {
            let _ = (ta, tb);
            outcome = ReplayOutcome::Confirmed {
                loc: lb,
                trace: r.trace,
                names: x.thread_funcs,
                waits: Vec::new(),
            };
        }
    }
    if let (true, ReplayOutcome::NotReproduced(_), None) = (search, &outcome, sched.race) {
        // The schedule read off the trace did not reproduce the failure.
        // The oracle's own search for it, within K rounds (KISS: any
        // number), is still an independent confirmation that the bug is
        // real.
        let caps = crate::oracle::MeasureCaps {
            rounds: if k == 0 { 64 } else { k },
            switches: 12,
        };
        if let Ok(x) = prep.explore(&bounds, Some(caps))
            && let Some(f) = x.failures.into_iter().find(|f| {
                (f.loc == loc || sched.expect.is_none() && sched.kind.is_some())
                    && (f.kind == crate::ir::AssertKind::Deadlock) == sched.deadlock
                    && sched
                        .kind
                        .is_none_or(|k| crate::oracle::same_kind(k, f.kind))
                    && (k == 0 || f.rounds.is_some_and(|r| r <= k))
            })
        {
            outcome = ReplayOutcome::Confirmed {
                loc: f.loc,
                trace: f.trace,
                names: x.thread_funcs,
                waits: f.waits,
            };
        }
    }
    let mut other = false;
    if let (ReplayOutcome::NotReproduced(_), None, false) = (&outcome, sched.race, sched.deadlock) {
        // The last resort: the replay stopped at a failure of another
        // check asked for (an overflow before the assertion the backend
        // reported, say). That failure is real, so it is the answer.
        let mut again = made(true)?.0;
        again.any_failure = true;
        if let x @ ReplayOutcome::Confirmed { .. } = replay(&again) {
            other = true;
            outcome = x;
        }
    }
    match outcome {
        ReplayOutcome::Confirmed {
            loc: at,
            trace,
            names,
            waits,
        } => {
            let thread = trace.last().map_or(0, |s| s.thread);
            let text = crate::oracle::render_trace(prog, &trace, &names);
            let json = serde_json::json!(
                trace
                    .iter()
                    .map(|s| serde_json::json!({
                        "thread": s.thread,
                        "round": s.round,
                        "events": s.events.iter().map(|e| serde_json::json!({
                            "file": prog.file_name(e.loc.file),
                            "line": e.loc.line,
                            "what": e.what,
                        })).collect::<Vec<_>>(),
                    }))
                    .collect::<Vec<_>>()
            );
            let race = sched.race.map(|((ta, la), (tb, lb))| {
                let sites = match info {
                    MethodInfo::Kiss(k) => k.race_sites.clone().unwrap_or_default(),
                    MethodInfo::LalReps(_) | MethodInfo::None => Vec::new(),
                };
                let side = |t: u32, l: crate::ir::Loc| RaceAccess {
                    thread: t,
                    thread_func: names.get(&t).cloned().unwrap_or_default(),
                    at: prog.describe(l),
                    write: sites.iter().any(|s| s.loc == l && s.write),
                    source_line: read_line(prog.file_name(l.file), l.line),
                };
                [side(ta, la), side(tb, lb)]
            });
            let thread = race.as_ref().map_or(thread, |r| r[1].thread);
            // A broken rule of lock discipline, an overflow: what the
            // oracle says of it.
            let said = match sched.kind {
                Some(k) if k.word().is_some() && !other => {
                    let prop = k.word().unwrap_or_default();
                    let said = trace
                        .iter()
                        .flat_map(|s| &s.events)
                        .rev()
                        .find(|e| e.what.starts_with(prop))
                        .map(|e| e.what.clone());
                    Some(said.unwrap_or_else(|| k.what()))
                }
                // Checks of several kinds at the failing place, or another
                // check's failure: the kind the oracle's run ended with.
                _ if sched.kind.is_none() || other => trace
                    .last()
                    .and_then(|s| s.events.last())
                    .filter(|e| {
                        [
                            "overflow:",
                            "locks:",
                            "locks-exit:",
                            "valid-deref:",
                            "valid-free:",
                            "valid-memtrack:",
                        ]
                        .iter()
                        .any(|p| e.what.starts_with(p))
                    })
                    .map(|e| e.what.clone()),
                _ => None,
            };
            Ok(Ok(Concurrent {
                said,
                race,
                deadlock: sched.deadlock.then_some(waits),
                at: format!("{}:{}:{}", prog.file_name(at.file), at.line, at.col),
                source_line: read_line(prog.file_name(at.file), at.line),
                thread,
                thread_func: names.get(&thread).cloned().unwrap_or_default(),
                text,
                json,
                steps: trace,
                names,
            }))
        }
        ReplayOutcome::NotReproduced(why) => match refused.into_inner() {
            // The backend's run goes through what the oracle refuses (an
            // access out of bounds the input makes, C's undefined
            // behaviour): no verdict can be confirmed, so it is a
            // refusal by name at that place (exit 2), not seqc's error.
            Some(d) if d.kind == crate::diag::DiagKind::Unsupported => Err(Diagnostic {
                message: format!(
                    "unsupported: no verdict: the violation's run goes through {}, which the oracle cannot run",
                    d.message
                        .trim_start_matches("unsupported: ")
                        .trim_start_matches("the oracle cannot run this: ")
                ),
                ..d
            }),
            Some(d) => Err(Diagnostic::internal(format!(
                "the counterexample cannot be replayed: {}",
                d.message
            ))),
            None => Ok(Err(format!("{}: {why}", prog.describe(loc)))),
        },
    }
}

pub(super) fn read_line(file: &str, line: u32) -> Option<String> {
    // The text seqc read, not the file again (a pipe reads once).
    let text = crate::frontend::preprocess::source_text(file)?;
    text.lines()
        .nth(line.checked_sub(1)? as usize)
        .map(|l| l.trim().to_string())
}
