//! `seqc refine`: counterexample-guided growth of the tracked regions
//! (STORM Fig. 3). Start from the regions the assertions read; check the
//! sliced program (`check --track F`); a safe answer is final (slicing
//! over-approximates: `passes::slice`); a counterexample that replays on
//! the input is a real bug (the replay is the concretisation: the same
//! schedule and input draws, with every sliced access restored); one that
//! does not replay is spurious, and F grows by a greedily minimal set of
//! the classes its trace havocked (`minimal_set`): candidates are taken
//! nearest to the failure first, those whose value decides something
//! (`SliceInfo::relevant`) before the rest; a set rules the
//! counterexample out when its replay on the program sliced for F plus
//! the set, with the other havocs returning the trace's values, no longer
//! fails. When a spurious trace names no new region, F becomes every
//! region (no slicing), which is the unsliced check. Nothing here prints:
//! each iteration is handed to a callback as it ends.

use crate::check::{self, CheckOptions, Outcome, Report};
use crate::config::Config;
use crate::diag::Result;
use crate::ir::access::Shared;
use crate::ir::*;
use std::collections::BTreeSet;
use std::time::Instant;

pub struct Iteration {
    pub number: usize,
    /// The tracked regions (`None`: all, no slicing).
    pub tracked: Option<Vec<String>>,
    /// "safe", "violation", "spurious", "unknown", "bound too small".
    pub answer: String,
    pub seconds: f64,
    /// What slicing did: reads havocked, writes dropped, loops
    /// summarised.
    pub havocked: usize,
    pub dropped: usize,
    pub summarised: usize,
}

pub struct Refined {
    /// The last check's report: its verdict is the answer.
    pub report: Report,
    /// The tracked regions at the end (`None`: all, no slicing).
    pub tracked: Option<Vec<String>>,
    /// Every region of the input.
    pub all: Vec<String>,
    pub iterations: Vec<Iteration>,
    pub seconds: f64,
}

/// The regions the assertions of the input read (before normalisation,
/// so that `assert(d->state == 0)` names `struct dev.state`).
pub fn property_regions(input: &str, cfg: &Config) -> Result<Vec<String>> {
    let p = crate::driver::load(input, cfg)?;
    let globals: Vec<bool> = p.globals.iter().map(|g| !g.thread_local).collect();
    let mut out = BTreeSet::new();
    for (fi, f) in p.functions.iter().enumerate() {
        let Some(body) = &f.body else { continue };
        let escaping = crate::ir::access::escaping_locals(f);
        let sh = Shared {
            globals: &globals,
            escaping: &escaping,
        };
        let mut reads = Vec::new();
        body.walk(&mut |s| {
            if let StmtKind::Assert(c, _) = &s.kind {
                sh.reads(c, &mut reads);
            }
        });
        for (lv, _) in reads {
            if let Some(k) = crate::ir::regions::lvalue_key(&p, FuncId(fi as u32), &lv) {
                out.insert(crate::ir::regions::key_name(&p, &k));
            }
        }
    }
    Ok(out.into_iter().collect())
}

pub fn refine(
    input: &str,
    cfg: &Config,
    opts: &CheckOptions,
    on_iteration: &mut dyn FnMut(&Iteration),
) -> Result<Refined> {
    let t0 = Instant::now();
    let all: BTreeSet<String> = {
        let b = crate::driver::build(
            input,
            &Config {
                track: None,
                ..cfg.clone()
            },
            crate::driver::Until::Normalized,
            false,
        )?;
        crate::ir::regions_report::names(&b.prog)
            .into_iter()
            .collect()
    };
    let mut tracked: BTreeSet<String> = property_regions(input, cfg)?
        .into_iter()
        .filter(|r| all.contains(r))
        .collect();
    let mut iterations = Vec::new();
    loop {
        let full = tracked.len() >= all.len();
        let track = (!full).then(|| tracked.iter().cloned().collect::<Vec<_>>());
        let c = Config {
            track: track.clone(),
            ..cfg.clone()
        };
        let t = Instant::now();
        let report = check::check(input, &c, opts)?;
        let answer = match (&report.outcome, &report.spurious) {
            (_, Some(_)) => "spurious",
            (Outcome::Safe, _) => "safe",
            (Outcome::Violation, _) => "violation",
            (Outcome::BoundTooSmall, _) => "bound too small",
            (Outcome::Unknown(_), _) => "unknown",
        };
        let it = Iteration {
            number: iterations.len() + 1,
            tracked: track.clone(),
            answer: answer.to_string(),
            seconds: t.elapsed().as_secs_f64(),
            havocked: report.slice.as_ref().map_or(0, |s| s.reads_havocked),
            dropped: report.slice.as_ref().map_or(0, |s| s.writes_dropped),
            summarised: report.slice.as_ref().map_or(0, |s| s.loops_summarised),
        };
        on_iteration(&it);
        iterations.push(it);
        let Some(havocs) = &report.spurious else {
            return Ok(Refined {
                report,
                tracked: track,
                all: all.iter().cloned().collect(),
                iterations,
                seconds: t0.elapsed().as_secs_f64(),
            });
        };
        // The class havocked nearest before the failure that is not
        // tracked yet; all its member regions join F.
        let members = |class: &str| -> Vec<String> {
            report
                .slice
                .as_ref()
                .and_then(|s| s.members.get(class).cloned())
                .unwrap_or_else(|| vec![class.to_string()])
        };
        let new = |m: &Vec<String>| m.iter().any(|r| all.contains(r) && !tracked.contains(r));
        let relevant = havocs.iter().filter(|(_, rel)| *rel);
        let mut cands: Vec<Vec<String>> = Vec::new();
        for m in relevant.chain(havocs.iter()).map(|(c, _)| members(c)) {
            if new(&m) && !cands.contains(&m) {
                cands.push(m.into_iter().filter(|r| all.contains(r)).collect());
            }
        }
        if cands.is_empty() {
            tracked = all.clone();
            continue;
        }
        for i in minimal_set(input, &c, &report, &cands)? {
            tracked.extend(cands[i].iter().cloned());
        }
    }
}

/// Candidate classes tried for one counterexample.
const MAX_CANDIDATES: usize = 6;

/// STORM's greedy choice of what to track next: the shortest prefix of
/// the candidates (nearest and deciding first) whose tracking rules the
/// spurious counterexample out (`check::rules_out`), then without each
/// member the rest rule it out without. When the replay cannot tell, or
/// no prefix rules it out, the first candidate alone.
fn minimal_set(
    input: &str,
    cfg: &Config,
    report: &Report,
    cands: &[Vec<String>],
) -> Result<Vec<usize>> {
    let test = |set: &[usize]| {
        let more: Vec<String> = set.iter().flat_map(|&i| cands[i].iter().cloned()).collect();
        check::rules_out(input, cfg, report, &more)
    };
    // The counterexample must replay on its own slicing, or the test
    // says nothing.
    if test(&[])? != Some(false) {
        return Ok(vec![0]);
    }
    let mut set = Vec::new();
    let mut found = false;
    for i in 0..cands.len().min(MAX_CANDIDATES) {
        set.push(i);
        match test(&set)? {
            Some(true) => {
                found = true;
                break;
            }
            Some(false) => {}
            None => return Ok(vec![0]),
        }
    }
    if !found {
        return Ok(vec![0]);
    }
    for j in (0..set.len() - 1).rev() {
        let mut t = set.clone();
        t.remove(j);
        if test(&t)? == Some(true) {
            set = t;
        }
    }
    Ok(set)
}

/// One JSON object: `verdict`, `tracked` (the final region names; every
/// region when slicing ended up off), `iterations`, `seconds`, each
/// iteration's figures in `steps`, and the final check's report.
pub fn render_json(r: &Refined) -> String {
    use serde_json::json;
    let verdict = check::verdict_word(&r.report.outcome);
    let report = check::report_json(&r.report);
    let tracked = json!(r.tracked.as_ref().unwrap_or(&r.all));
    let steps: Vec<serde_json::Value> = r
        .iterations
        .iter()
        .map(|i| {
            json!({
                "iteration": i.number,
                "tracked": i.tracked,
                "answer": i.answer,
                "seconds": i.seconds,
                "reads_havocked": i.havocked,
                "writes_dropped": i.dropped,
                "loops_summarised": i.summarised,
            })
        })
        .collect();
    json!({
        "verdict": verdict,
        "tracked": tracked,
        "all_tracked": r.tracked.is_none(),
        "iterations": r.iterations.len(),
        "seconds": r.seconds,
        "steps": steps,
        "check": report,
    })
    .to_string()
}
