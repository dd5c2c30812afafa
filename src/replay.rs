//! From a Lal-Reps or KISS counterexample to a run of the input, confirmed on the
//! oracle's interpreter before anyone is told of a bug.
//!
//! Pre: the sequential trace a backend gave (`check::Step`s whose `ctx`
//! is the round and thread slot of each step, with the input's own
//! nondeterministic draws), and the pass's `LrInfo`. Post: a `Schedule`
//! for `oracle::Prepared::replay`, or why none can be made.
//!
//! The sequential program runs slot after slot, each through its rounds;
//! the run it stands for visits (round, slot) pairs in round-robin order,
//! stopping in the pair where the recorded assertion failed. Each pair
//! becomes one segment. The oracle's steps need not match seqc's switch
//! points one for one, so the replay searches segment lengths; guided, a
//! segment may end only before a visible action on the line of the
//! pair's last switch point (where the round moved), which keeps the
//! replay on the trace's own path and makes a failed replay cheap.
//! Unguided, a segment may end anywhere. Steps in the sink round K belong to stopped threads and are
//! not part of the run. The oracle numbers threads in creation order, so
//! slots are renumbered in the order their creates happen in that run.

use crate::ir::trace::Step;
use crate::ir::trace::TraceWhat;
use crate::ir::{AssertKind, FileId, Loc, LockRule, Program};
use crate::oracle::{Schedule, Segment, Until};
use crate::passes::kiss::KissInfo;
use crate::passes::lal_reps::{CS, ERROR, LrInfo};
use std::collections::{BTreeMap, BTreeSet};

/// The schedule a Lal-Reps trace stands for, and the failing assertion.
/// `guided`: each segment may end only where the trace switched (the
/// line of its last switch point), so the replay follows the trace's own
/// path instead of searching every segment length; `files` are the
/// input's file names, for those lines. `havocs`: the havoc functions
/// whose returned values join the draws (to replay on a sliced program).
pub fn schedule(
    steps: &[Step],
    info: &LrInfo,
    k: u32,
    files: &[String],
    guided: bool,
    havocs: Option<&dyn Fn(&str) -> bool>,
) -> Result<(Schedule, Loc), String> {
    // The failing assertion: the one write of a nonzero error id.
    let fail = steps.iter().find_map(|s| match (&s.what, s.ctx) {
        (TraceWhat::Assign(l, v), Some(ctx)) if l == ERROR => {
            v.int.filter(|&id| id > 0).map(|id| (id, ctx))
        }
        _ => None,
    });
    let Some((id, fail_ctx)) = fail else {
        return Err("the trace records no failing assertion".into());
    };
    let Some(&(loc, kind)) = info.asserts.get(id as usize - 1) else {
        return Err(format!(
            "the trace names assertion {id}, which does not exist"
        ));
    };
    let live = |ctx: (u32, u32)| ctx.0 < k && ctx <= fail_ctx;
    // Creates, in the order the round-robin run makes them.
    let mut creates = Vec::new();
    for (i, s) in steps.iter().enumerate() {
        let (TraceWhat::Assign(l, v), Some(ctx)) = (&s.what, s.ctx) else {
            continue;
        };
        // `__seqc_site_n[i]`: the index is the creation site.
        let Some(site) = l
            .strip_prefix(info.site_n.as_str())
            .and_then(|r| r.strip_prefix('['))
            .and_then(|r| {
                // CBMC writes the index with a suffix (`1l`).
                let digits: String = r.chars().take_while(char::is_ascii_digit).collect();
                digits.parse::<i128>().ok()
            })
        else {
            continue;
        };
        if !live(ctx) {
            continue;
        }
        let n = v
            .int
            .ok_or_else(|| format!("unreadable thread count '{}'", v.shown))?;
        let Some(&base) = info.site_slots.get(site as usize) else {
            return Err(format!(
                "the trace names creation site {site}, which does not exist"
            ));
        };
        let slot = base + (n as u32).saturating_sub(1);
        creates.push((ctx, i, slot));
    }
    creates.sort();
    let mut ids: BTreeMap<u32, u32> = BTreeMap::from([(0, 0)]);
    for (_, _, slot) in creates {
        let next = ids.len() as u32;
        ids.entry(slot).or_insert(next);
    }
    let mut pairs = BTreeSet::new();
    let mut nondet: BTreeMap<u32, Vec<i128>> = BTreeMap::new();
    for s in steps {
        let Some(ctx) = s.ctx.filter(|&c| live(c)) else {
            continue;
        };
        // A slot that was never created here has no steps in the run.
        let Some(&t) = ids.get(&ctx.1) else {
            continue;
        };
        pairs.insert(ctx);
        match &s.what {
            TraceWhat::Nondet(v) => nondet.entry(t).or_default().push(*v),
            TraceWhat::Return(f, v) if havocs.is_some_and(|h| h(f)) => {
                let v = v
                    .as_ref()
                    .and_then(|v| v.int)
                    .ok_or_else(|| format!("the trace gives no value for {f}"))?;
                nondet.entry(t).or_default().push(v);
            }
            _ => {}
        }
    }
    pairs.insert(fail_ctx);
    if !ids.contains_key(&fail_ctx.1) {
        return Err(format!(
            "the assertion fails in slot {}, which no create of the run starts",
            fail_ctx.1
        ));
    }
    // Where each (round, slot) ended: the last switch point it passed
    // (the round moves only there, to a later round or to K, which
    // stops the thread for good).
    let mut last_cs: BTreeMap<(u32, u32), (String, u32)> = BTreeMap::new();
    let mut passed: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for s in steps {
        if let (TraceWhat::Call(f), Some(ctx)) = (&s.what, s.ctx)
            && f == CS
            && live(ctx)
            // seqc's own switch point before a thread starts runs with
            // the previous thread's context.
            && s.line != 0
        {
            last_cs.insert(ctx, (s.file.clone(), s.line));
            *passed.entry(ctx).or_insert(0) += 1;
        }
    }
    let file_id = |name: &str| {
        files
            .iter()
            .position(|f| f == name)
            .map(|i| FileId(i as u32))
    };
    let segments = pairs
        .iter()
        .filter_map(|&(r, slot)| {
            // A context that passed no switch point ran its thread to the
            // end (or stopped it): line 0. One that switched at the first
            // switch point of its thread did nothing visible: it may end
            // before the thread's first step.
            let first = !pairs.iter().any(|&(r2, s2)| s2 == slot && r2 < r);
            let until = match last_cs.get(&(r, slot)) {
                _ if !guided => None,
                Some((file, line)) => file_id(file).map(|file| Until {
                    file,
                    line: *line,
                    at_start: first && passed.get(&(r, slot)) == Some(&1),
                }),
                None => Some(Until {
                    file: FileId(0),
                    line: 0,
                    at_start: false,
                }),
            };
            ids.get(&slot).map(|&t| Segment {
                thread: t,
                // Rounds count from 1 in traces, as the oracle's do.
                round: Some(r + 1),
                steps: None,
                until,
            })
        })
        .collect();
    Ok((
        Schedule {
            segments,
            nondet,
            expect: (!kind.at_no_place()).then_some(loc),
            race: None,
            deadlock: kind == AssertKind::Deadlock,
            kind: Some(kind),
            any_failure: false,
        },
        loc,
    ))
}

/// The schedule a KISS trace stands for, and the failing assertion.
///
/// The sequential program runs the input's steps in the order of a real
/// run, each under the id of the thread that makes it (`ctx.1`); ids are
/// creation order, as the oracle's. Each maximal stretch of one thread's
/// steps is a segment of any length.
pub fn kiss_schedule(
    steps: &[Step],
    info: &KissInfo,
    p: &Program,
) -> Result<(Schedule, Loc), String> {
    let Some(last) = steps
        .last()
        .filter(|s| matches!(s.what, TraceWhat::Fail(_)))
    else {
        return Err("the trace ends at no failing assertion".into());
    };
    let same = |l: &Loc| {
        p.file_name(l.file) == last.file
            && l.line == last.line
            && (last.col == 0 || l.col == last.col)
    };
    let mut race = None;
    // The deadlock check failed: it set its verdict first.
    let deadlock = steps.iter().any(|s| {
        matches!(&s.what, TraceWhat::Assign(l, v)
            if l == crate::passes::kiss::DEADLOCK && v.int.is_some_and(|x| x != 0))
    }) || matches!(last.what, TraceWhat::Fail(AssertKind::Deadlock));
    // A thread's end check (locks-exit) failed: it set its flag first.
    let exit_held = steps.iter().any(|s| {
        matches!(&s.what, TraceWhat::Assign(l, v)
            if l == crate::passes::threads::EXIT_HELD && v.int.is_some_and(|x| x != 0))
    }) || matches!(
        last.what,
        TraceWhat::Fail(AssertKind::Lock(LockRule::ExitHolding))
    );
    let mut kind = None;
    let expect = if deadlock {
        kind = Some(AssertKind::Deadlock);
        None
    } else if exit_held {
        kind = Some(AssertKind::Lock(LockRule::ExitHolding));
        None
    } else if let Some(sites) = &info.race_sites {
        // Race mode: the failing check is the second access; the first is
        // the site the trace last recorded, in the thread that recorded it.
        let Some((id, ctx)) = steps.iter().rev().find_map(|s| match (&s.what, s.ctx) {
            (TraceWhat::Assign(l, v), Some(ctx)) if l == crate::passes::kiss::RACE_SITE => {
                v.int.filter(|&id| id > 0).map(|id| (id, ctx))
            }
            _ => None,
        }) else {
            return Err("the trace records no first access of the race".into());
        };
        let Some(first) = sites.get(id as usize - 1) else {
            return Err(format!(
                "the trace names race site {id}, which does not exist"
            ));
        };
        let Some(second) = sites.iter().find(|s| same(&s.loc)) else {
            return Err("the race check that fails is at no instrumented access".into());
        };
        let Some((_, tb)) = last.ctx else {
            return Err("the trace does not say which thread made the second access".into());
        };
        race = Some(((ctx.1, first.loc), (tb, second.loc)));
        None
    } else {
        let mut at: Vec<Loc> = info
            .asserts
            .iter()
            .map(|(l, _)| *l)
            .filter(|l| same(l))
            .collect();
        // An operation's lock checks share its place.
        at.sort_by_key(|l| (l.file.0, l.line, l.col));
        at.dedup();
        match at.as_slice() {
            [l] => {
                // Checks of different kinds at one place (a user assertion
                // and its overflow check): the oracle says which failed.
                let mut kinds = info.asserts.iter().filter(|(a, _)| a == l).map(|(_, k)| *k);
                let first = kinds.next();
                kind = first.filter(|&f| kinds.all(|k| crate::oracle::same_kind(f, k)));
                Some(*l)
            }
            _ => None,
        }
    };
    let mut segments: Vec<Segment> = Vec::new();
    let mut nondet: BTreeMap<u32, Vec<i128>> = BTreeMap::new();
    for s in steps {
        let Some((_, t)) = s.ctx else { continue };
        if segments.last().is_none_or(|g| g.thread != t) {
            segments.push(Segment {
                thread: t,
                round: None,
                steps: None,
                until: None,
            });
        }
        if let TraceWhat::Nondet(v) = s.what {
            nondet.entry(t).or_default().push(v);
        }
    }
    if segments.is_empty() {
        segments.push(Segment {
            thread: 0,
            round: None,
            steps: None,
            until: None,
        });
    }
    // A thread's end check: where the thread ends is the oracle's to say.
    let expect = expect.filter(|_| !kind.is_some_and(AssertKind::at_no_place));
    let loc = expect.or(race.map(|r| r.1.1)).unwrap_or(Loc::NONE);
    Ok((
        Schedule {
            segments,
            nondet,
            expect,
            race,
            deadlock,
            kind,
            any_failure: false,
        },
        loc,
    ))
}

/// The schedule of a sequential program's counterexample (`--method
/// none`): main alone, with the values the trace drew, failing at the
/// assertion the trace ends at.
pub fn sequential_schedule(steps: &[Step], p: &Program) -> Result<(Schedule, Loc), String> {
    let Some(last) = steps
        .last()
        .filter(|s| matches!(s.what, TraceWhat::Fail(_)))
    else {
        return Err("the trace ends at no failing assertion".into());
    };
    let TraceWhat::Fail(kind) = last.what else {
        unreachable!()
    };
    let mut at = Vec::new();
    for f in &p.functions {
        if let Some(b) = &f.body {
            b.walk(&mut |s| {
                if let crate::ir::StmtKind::Assert(..) = s.kind
                    && p.file_name(s.loc.file) == last.file
                    && s.loc.line == last.line
                    && (last.col == 0 || s.loc.col == last.col)
                {
                    at.push(s.loc);
                }
            });
        }
    }
    at.sort_by_key(|l| (l.file.0, l.line, l.col));
    at.dedup();
    let expect = match at.as_slice() {
        [l] if !kind.at_no_place() => Some(*l),
        _ => None,
    };
    let nondet: Vec<i128> = steps
        .iter()
        .filter_map(|s| match s.what {
            TraceWhat::Nondet(v) => Some(v),
            _ => None,
        })
        .collect();
    Ok((
        Schedule {
            segments: vec![Segment {
                thread: 0,
                round: None,
                steps: None,
                until: None,
            }],
            nondet: if nondet.is_empty() {
                BTreeMap::new()
            } else {
                BTreeMap::from([(0, nondet)])
            },
            expect,
            race: None,
            deadlock: false,
            kind: Some(kind),
            any_failure: false,
        },
        expect.unwrap_or(Loc::NONE),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::trace::TraceValue;
    use crate::ir::{AssertKind, FileId};

    fn step(what: TraceWhat, round: u32, slot: u32) -> Step {
        Step {
            file: "t.c".into(),
            line: 1,
            col: 1,
            depth: 1,
            what,
            ctx: Some((round, slot)),
        }
    }

    fn assign(l: &str, v: i128) -> TraceWhat {
        TraceWhat::Assign(l.into(), TraceValue::int(v))
    }

    /// One assertion (at 9:3 of file 0), `threads` slots per site.
    fn one_assert(threads: u32) -> (Loc, LrInfo) {
        let loc = Loc {
            file: FileId(0),
            line: 9,
            col: 3,
            generated: false,
        };
        let info = LrInfo {
            asserts: vec![(loc, AssertKind::Assert)],
            slot_funcs: vec![],
            site_slots: (0..4).map(|s| 1 + s * threads).collect(),
            switch_points: 0,
            site_n: "__seqc_site_n".into(),
            rounds: 2,
        };
        (loc, info)
    }

    #[test]
    fn round_robin_order_creation_ids_and_the_failing_pair() {
        let (loc, info) = one_assert(2);
        // Site 0 holds slots 1 and 2, site 1 holds 3 and 4. Main creates
        // slot 3 in round 0 and slot 1 in round 1; slot 3 draws a value,
        // slot 1 fails in round 1; main's round 2 and the sink do not count.
        let steps = vec![
            step(assign("__seqc_site_n[1l]", 1), 0, 0),
            step(assign("__seqc_site_n[0]", 1), 1, 0),
            step(assign("x", 1), 2, 0),
            step(TraceWhat::Nondet(7), 0, 3),
            step(TraceWhat::Nondet(8), 3, 3),
            step(assign("y", 1), 1, 3),
            step(assign(ERROR, 1), 1, 1),
        ];
        let (s, at) = schedule(&steps, &info, 3, &[], false, None).unwrap();
        assert_eq!(at, loc);
        let segs: Vec<(u32, Option<u32>)> =
            s.segments.iter().map(|g| (g.thread, g.round)).collect();
        // Slot 3 is thread 1 (created first), slot 1 is thread 2.
        assert_eq!(
            segs,
            vec![(0, Some(1)), (1, Some(1)), (0, Some(2)), (2, Some(2))]
        );
        assert_eq!(s.nondet.get(&1), Some(&vec![7]));
        assert_eq!(s.expect, Some(loc));
    }

    #[test]
    fn no_error_write_is_no_schedule() {
        let info = LrInfo::default();
        let steps = vec![step(assign("x", 1), 0, 0)];
        assert!(schedule(&steps, &info, 2, &[], true, None).is_err());
    }

    #[test]
    fn guided_segments_end_where_the_round_moved() {
        let (_, info) = one_assert(1);
        let cs = |line: u32, round: u32, slot: u32| Step {
            line,
            ..step(TraceWhat::Call(CS.into()), round, slot)
        };
        // Main switches at line 4 (its second switch point), creates slot
        // 1 first; slot 1 passes line 7 and then runs to its failure
        // without a switch point; seqc's own switch point before a thread
        // starts (line 0) is no end.
        let steps = vec![
            cs(3, 0, 0),
            step(assign("__seqc_site_n[0]", 1), 0, 0),
            cs(4, 0, 0),
            cs(0, 1, 0),
            cs(7, 0, 1),
            step(assign("y", 1), 1, 1),
            step(assign(ERROR, 1), 1, 1),
        ];
        let files = vec!["t.c".to_string()];
        let (s, _) = schedule(&steps, &info, 2, &files, true, None).unwrap();
        let segs: Vec<_> = s
            .segments
            .iter()
            .map(|g| g.until.map(|u| (g.thread, u.file, u.line, u.at_start)))
            .collect();
        let f = FileId(0);
        // Slot 1 switched at its first switch point: it may also end
        // before its first step.
        assert_eq!(
            segs,
            vec![
                Some((0, f, 4, false)),
                Some((1, f, 7, true)),
                Some((0, f, 0, false)),
                Some((1, f, 0, false)),
            ]
        );
        let (s, _) = schedule(&steps, &info, 2, &files, false, None).unwrap();
        assert!(s.segments.iter().all(|g| g.until.is_none()));
    }
}
