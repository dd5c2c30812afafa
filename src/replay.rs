//! From a Lal-Reps counterexample to a run of the input, confirmed on the
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
//! becomes one segment of any length (the oracle's steps need not match
//! seqc's switch points one for one; the replay searches within a
//! segment). Steps in the sink round K belong to stopped threads and are
//! not part of the run. The oracle numbers threads in creation order, so
//! slots are renumbered in the order their creates happen in that run.

use crate::bmc::TraceWhat;
use crate::check::Step;
use crate::ir::Loc;
use crate::oracle::{Schedule, Segment};
use crate::passes::lal_reps::{ERROR, LrInfo};
use std::collections::{BTreeMap, BTreeSet};

/// The leading integer of a value as a backend prints it (`7`, `7u`,
/// `-1l`, `TRUE`).
pub fn int_value(s: &str) -> Option<i128> {
    let s = s.trim();
    match s {
        "TRUE" | "true" => return Some(1),
        "FALSE" | "false" => return Some(0),
        _ => {}
    }
    let end = s
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
        .map_or(s.len(), |(i, _)| i);
    s[..end].parse().ok()
}

/// The schedule a Lal-Reps trace stands for, and the failing assertion.
pub fn schedule(steps: &[Step], info: &LrInfo, k: u32) -> Result<(Schedule, Loc), String> {
    // The failing assertion: the one write of a nonzero error id.
    let fail = steps.iter().find_map(|s| match (&s.what, s.ctx) {
        (TraceWhat::Assign(l, v), Some(ctx)) if l == ERROR => {
            int_value(v).filter(|&id| id > 0).map(|id| (id, ctx))
        }
        _ => None,
    });
    let Some((id, fail_ctx)) = fail else {
        return Err("the trace records no failing assertion".into());
    };
    let Some(&(loc, _)) = info.asserts.get(id as usize - 1) else {
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
        let Some(site) = l
            .strip_prefix("__seqc_site_n[")
            .and_then(|r| int_value(r.trim_end_matches(']')))
        else {
            continue;
        };
        if !live(ctx) {
            continue;
        }
        let n = int_value(v).ok_or_else(|| format!("unreadable thread count '{v}'"))?;
        let slot = 1 + site as u32 * info.threads + (n as u32).saturating_sub(1);
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
        if let TraceWhat::Nondet(v) = s.what {
            nondet.entry(t).or_default().push(v);
        }
    }
    pairs.insert(fail_ctx);
    if !ids.contains_key(&fail_ctx.1) {
        return Err(format!(
            "the assertion fails in slot {}, which no create of the run starts",
            fail_ctx.1
        ));
    }
    let segments = pairs
        .into_iter()
        .filter_map(|(r, slot)| {
            ids.get(&slot).map(|&t| Segment {
                thread: t,
                // Rounds count from 1 in traces, as the oracle's do.
                round: Some(r + 1),
                steps: None,
            })
        })
        .collect();
    Ok((
        Schedule {
            segments,
            nondet,
            expect: Some(loc),
        },
        loc,
    ))
}
