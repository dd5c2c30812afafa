//! The ground-truth oracle (DESIGN.md §6): an interpreter of the lowered,
//! *un-normalised* program that runs it under every interleaving
//! (sequential consistency), independent of seqc's passes.
//!
//! - `explore`: the verdict, and for each failing assertion a schedule and
//!   two measures: the fewest round-robin rounds (main first in every round,
//!   threads in creation order, stuttering allowed, and main's final
//!   context after the last round free, as in Lal–Reps) and the fewest
//!   context switches that reach it.
//! - `replay`: run one schedule (segments of thread steps, nondet values
//!   from a solver's model) and confirm the failure or say why not.
//!
//! Nondeterministic values are *enumerated* over a small domain
//! (`Bounds::nondet`, by default −1..3, wrapped to the type; `_Bool` takes
//! both values); a SAFE answer is "safe for those values" and says so.
//! Thread ids are creation order in the run (main is 0). Bounds of its own:
//! loop back edges (`--unwind` U: the back edge is taken at most U−1 times,
//! as CBMC's `--unwind U` does; a counted loop that creates threads,
//! `ir::loops`, runs its trip count), active frames of one function per
//! thread (U), `pthread_create` executions per site (`--threads`: later
//! ones make a thread that exists but is never scheduled, with an id from
//! `UNSCHEDULED` up, and are no scheduling point), visible steps per
//! thread, and states (`--max-states`). A cut stops that thread, never
//! the run; over the state budget the answer is UNKNOWN, never SAFE.

mod compile;
pub mod machine;
mod report;
mod search;

pub use machine::{Bounds, Event, StepEnd};
pub use report::{render, render_json, render_races, render_trace};
pub use search::rounds_of;

use crate::diag::Diagnostic;
use crate::ir::trace::verdict;
use crate::ir::{AssertKind, FileId, Loc, LockRule, Program};
use machine::{Chooser, Machine, State, Status};
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Safe,
    Unsafe,
    Unknown(String),
}

#[derive(Clone, Debug)]
pub struct Step {
    pub thread: u32,
    /// The round this step falls in when the schedule is read round-robin.
    pub round: u32,
    pub events: Vec<Event>,
    /// Where the thread was before the step (its visible action).
    pub loc: Loc,
    /// The nondeterministic values the step drew, in order, and where.
    pub draws: Vec<i128>,
    pub draw_locs: Vec<Loc>,
    /// The threads the step created (their ids).
    pub created: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Failure {
    pub loc: Loc,
    pub kind: AssertKind,
    pub thread: u32,
    /// Fewest rounds (from 1); `None` if not found within the cap.
    pub rounds: Option<u32>,
    /// Fewest context switches; `None` if not found within the cap.
    pub switches: Option<u32>,
    /// A schedule with the fewest rounds (or the first found).
    pub trace: Vec<Step>,
    /// The same schedule in the form `replay` takes.
    pub schedule: Schedule,
    /// A deadlock: each thread, where it waits and on what.
    pub waits: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct Exploration {
    pub verdict: Verdict,
    pub failures: Vec<Failure>,
    pub states: u64,
    /// Names of the threads, by id, as far as the traces show them.
    pub thread_funcs: BTreeMap<u32, String>,
    /// Why threads were stopped somewhere in the state space.
    pub cuts: BTreeSet<String>,
    pub bounds: Bounds,
}

/// One side of a data race.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RaceSide {
    pub thread: u32,
    pub loc: Loc,
    pub write: bool,
}

#[derive(Clone, Debug)]
pub struct Race {
    pub a: RaceSide,
    pub b: RaceSide,
    /// A run to the state where both accesses are next.
    pub trace: Vec<Step>,
}

#[derive(Clone, Debug)]
pub struct RaceExploration {
    pub races: Vec<Race>,
    pub states: u64,
    /// False when the state budget stopped the search.
    pub complete: bool,
    pub thread_funcs: BTreeMap<u32, String>,
}

/// How far the measure searches look.
#[derive(Clone, Copy, Debug)]
pub struct MeasureCaps {
    pub rounds: u32,
    pub switches: u32,
}

impl Default for MeasureCaps {
    fn default() -> Self {
        MeasureCaps {
            rounds: 8,
            switches: 12,
        }
    }
}

pub struct Prepared<'p> {
    prog: &'p Program,
    code: compile::Code,
}

/// Compiles the program for the interpreter.
pub fn prepare(prog: &Program) -> Result<Prepared<'_>, Diagnostic> {
    let code = compile::compile(prog).map_err(|u| unsupported(prog, &u.what, u.loc))?;
    Ok(Prepared { prog, code })
}

fn unsupported(prog: &Program, what: &str, loc: Loc) -> Diagnostic {
    let mut d = Diagnostic::unsupported(format!("the oracle cannot run this: {what}"));
    if loc != Loc::NONE {
        d.pos = Some((prog.file_name(loc.file).to_string(), loc.line, loc.col));
    }
    d
}

impl<'p> Prepared<'p> {
    fn machine<'a>(&'a self, b: &'a Bounds, trace: bool) -> Machine<'a> {
        Machine {
            p: self.prog,
            code: &self.code,
            b,
            trace,
            said: Default::default(),
        }
    }

    fn initial(&self, m: &Machine) -> Result<State, Diagnostic> {
        if self.prog.func_by_name("main").is_none() {
            let file = self.prog.file_name(crate::ir::FileId(0)).to_string();
            return Err(Diagnostic::input(format!(
                "'{file}' has no main function: nothing to explore"
            )));
        }
        m.initial().map_err(|(w, l)| unsupported(self.prog, &w, l))
    }

    /// Every interleaving; measures for each failure when `caps` is given.
    pub fn explore(
        &self,
        b: &Bounds,
        caps: Option<MeasureCaps>,
    ) -> Result<Exploration, Diagnostic> {
        let m = self.machine(b, false);
        let mt = self.machine(b, true);
        let init = self.initial(&m)?;
        let plain = search::search(&m, init.clone(), search::Cost::Plain, 0, None);
        if let Some((w, l)) = plain.unsupported {
            return Err(unsupported(self.prog, &w, l));
        }
        let mut failures = Vec::new();
        let targets: HashSet<Loc> = plain.found.keys().copied().collect();
        let (rounds, switches) = match (caps, targets.is_empty()) {
            (Some(c), false) => {
                // One layer more than the cap: main's final context after
                // round K is reached there (`search`).
                let mut r = search::search(
                    &m,
                    init.clone(),
                    search::Cost::Rounds,
                    c.rounds,
                    Some(&targets),
                );
                r.found.retain(|_, f| f.cost < c.rounds);
                let s = search::search(
                    &m,
                    init.clone(),
                    search::Cost::Switches,
                    c.switches,
                    Some(&targets),
                );
                (Some(r), Some(s))
            }
            _ => (None, None),
        };
        let mut thread_funcs = BTreeMap::new();
        for (loc, f) in &plain.found {
            let r = rounds.as_ref().and_then(|r| r.found.get(loc));
            let s = switches.as_ref().and_then(|s| s.found.get(loc));
            let path = r.map(|r| &r.path).unwrap_or(&f.path);
            let (trace, schedule) = self.trace(&mt, &init, path, &mut thread_funcs);
            let dead = f.kind == AssertKind::Deadlock;
            let waits = if dead {
                self.waits(&m, &self.final_state(&m, &init, path))
            } else {
                Vec::new()
            };
            failures.push(Failure {
                schedule: Schedule {
                    expect: (!f.kind.at_no_place()).then_some(*loc),
                    deadlock: dead,
                    kind: Some(f.kind),
                    ..schedule
                },
                waits,
                loc: *loc,
                kind: f.kind,
                thread: r.map(|r| r.thread).unwrap_or(f.thread),
                rounds: r.map(|r| r.cost + 1),
                switches: s.map(|s| s.cost),
                trace,
            });
        }
        let verdict = if !failures.is_empty() {
            Verdict::Unsafe
        } else if !plain.complete {
            Verdict::Unknown(format!(
                "the state budget of {} states is used up",
                b.max_states
            ))
        } else {
            Verdict::Safe
        };
        Ok(Exploration {
            verdict,
            failures,
            states: plain.states,
            thread_funcs,
            cuts: plain.cuts,
            bounds: b.clone(),
        })
    }

    /// Every data race within the bounds: pairs of threads whose next
    /// actions are conflicting accesses to shared memory outside atomic
    /// code, one per pair of source locations, with a run to that state.
    pub fn races(&self, b: &Bounds) -> Result<RaceExploration, Diagnostic> {
        let m = self.machine(b, false);
        let mt = self.machine(b, true);
        let init = self.initial(&m)?;
        let r = search::races(&m, init.clone());
        if let Some((w, l)) = r.unsupported {
            return Err(unsupported(self.prog, &w, l));
        }
        let mut thread_funcs = BTreeMap::new();
        let races = r
            .races
            .into_values()
            .map(|f| {
                let (trace, _) = self.trace(&mt, &init, &f.path, &mut thread_funcs);
                let side = |(t, a): (u32, machine::Access)| RaceSide {
                    thread: t,
                    loc: a.loc,
                    write: a.write,
                };
                Race {
                    a: side(f.a),
                    b: side(f.b),
                    trace,
                }
            })
            .collect();
        Ok(RaceExploration {
            races,
            states: r.states,
            complete: r.complete,
            thread_funcs,
        })
    }

    /// The state after `path`.
    fn final_state(&self, m: &Machine, init: &State, path: &[(u32, Vec<u32>)]) -> State {
        let mut st = init.clone();
        for (t, script) in path {
            let mut ch = Chooser::new(script);
            let _ = m.step(&mut st, *t, &mut ch, &mut Vec::new());
        }
        st
    }

    /// A deadlocked state's waits, as text: thread, function, place, why.
    fn waits(&self, m: &Machine, st: &State) -> Vec<String> {
        search::deadlocked(m, st)
            .unwrap_or_default()
            .into_iter()
            .map(|(t, why)| {
                let th = &st.threads[t as usize];
                format!(
                    "thread {t} ({}) at {}: {why}",
                    self.prog.func(th.func).name,
                    self.prog.describe(m.cur_loc(st, t))
                )
            })
            .collect()
    }

    fn trace(
        &self,
        m: &Machine,
        init: &State,
        path: &[(u32, Vec<u32>)],
        names: &mut BTreeMap<u32, String>,
    ) -> (Vec<Step>, Schedule) {
        let steps = search::replay_path(m, init, path);
        let mut sched = Schedule::default();
        for x in &steps {
            let (t, vals) = (&x.thread, &x.draws);
            match sched.segments.last_mut() {
                Some(s) if s.thread == *t => s.steps = s.steps.map(|k| k + 1),
                _ => sched.segments.push(Segment {
                    thread: *t,
                    round: None,
                    steps: Some(1),
                    until: None,
                }),
            }
            sched.nondet.entry(*t).or_default().extend(vals);
        }
        // Thread names and turn order: replay once more to the last state.
        let mut st = init.clone();
        for (t, script) in path {
            let mut ch = Chooser::new(script);
            let _ = m.step(&mut st, *t, &mut ch, &mut Vec::new());
        }
        let threads: Vec<u32> = steps.iter().map(|s| s.thread).collect();
        let rounds = rounds_of(&threads, &st);
        for (i, th) in st.threads.iter().enumerate() {
            names.insert(i as u32, self.prog.func(th.func).name.clone());
        }
        let trace = steps
            .into_iter()
            .zip(rounds)
            .map(|(x, round)| Step {
                thread: x.thread,
                round,
                events: x.events,
                loc: x.loc,
                draws: x.draws,
                draw_locs: x.draw_locs,
                created: x.created,
            })
            .collect();
        (trace, sched)
    }

    /// Runs one schedule. Segments run in order; a segment with a step
    /// count runs exactly that many steps of its thread, one without runs
    /// any number (the replay searches). Nondet values are consumed per
    /// thread in order; when they run out the domain is enumerated.
    pub fn replay(&self, b: &Bounds, sched: &Schedule) -> Result<ReplayOutcome, Diagnostic> {
        let m = self.machine(b, false);
        let mt = self.machine(b, true);
        let init = self.initial(&m)?;
        let nthreads_hint = sched.segments.iter().map(|s| s.thread).max().unwrap_or(0) as usize + 1;
        type Path = Vec<(u32, Vec<u32>, Vec<i128>, usize)>;
        struct RNode {
            st: State,
            seg: usize,
            done: u32,
            cursors: Vec<usize>,
            path: Path,
        }
        let mut stack = vec![RNode {
            st: init.clone(),
            seg: 0,
            done: 0,
            cursors: vec![0; nthreads_hint.max(1)],
            path: Vec::new(),
        }];
        let mut visited = HashSet::new();
        let mut deepest: (usize, u32, String) = (0, 0, String::new());
        let mut ran_out = false;
        let mut explored = 0u64;
        // The first failure of another check met on the way: a real
        // violation of a property asked for, reported when the expected
        // one cannot be reached (it would come after it, say).
        let mut other: Option<(Loc, Path)> = None;
        // The first construct the oracle refused on some branch.
        let mut refused: Option<Diagnostic> = None;
        // A failure at `loc` after `path`, rerun with the values actually
        // taken, for the trace.
        let failed_at = |loc: Loc, path: &Path| {
            let (trace, names) = self.replay_trace(&mt, &init, path, sched);
            ReplayOutcome::Confirmed {
                loc,
                trace,
                names,
                waits: Vec::new(),
            }
        };
        while let Some(n) = stack.pop() {
            explored += 1;
            if explored > b.max_states {
                return Ok(ReplayOutcome::NotReproduced(
                    "the replay search used up the state budget".into(),
                ));
            }
            let key = (
                search::fingerprint(&n.st, n.seg as u32),
                n.done,
                n.cursors.clone(),
            );
            if !visited.insert(key) {
                continue;
            }
            if let Some(((ta, la), (tb, lb))) = sched.race {
                let at = |t: u32, l: Loc| -> Vec<machine::Access> {
                    m.next_accesses(&n.st, t)
                        .into_iter()
                        .filter(|a| a.loc.file == l.file && a.loc.line == l.line)
                        .collect()
                };
                let (xa, xb) = (at(ta, la), at(tb, lb));
                if let Some(b) = xb
                    .iter()
                    .find(|b| ta != tb && xa.iter().any(|a| a.conflicts(b)))
                {
                    let (trace, names) = self.replay_trace(&mt, &init, &n.path, sched);
                    return Ok(ReplayOutcome::Confirmed {
                        loc: b.loc,
                        trace,
                        names,
                        waits: Vec::new(),
                    });
                }
            }
            if sched.deadlock && search::deadlocked(&m, &n.st).is_some() {
                let (trace, names) = self.replay_trace(&mt, &init, &n.path, sched);
                return Ok(ReplayOutcome::Confirmed {
                    loc: Loc::NONE,
                    trace,
                    names,
                    waits: self.waits(&m, &n.st),
                });
            }
            let Some(seg) = sched.segments.get(n.seg) else {
                ran_out = true;
                continue;
            };
            let t = seg.thread;
            let mut note = |seg: usize, done: u32, why: String| {
                if (seg, done) >= (deepest.0, deepest.1) {
                    deepest = (seg, done, why);
                }
            };
            // Move on to the next segment.
            let may_leave = match (seg.steps, seg.until) {
                (Some(k), _) => n.done == k,
                (None, None) => true,
                (None, Some(at)) => may_switch(&m, &n.st, t, at),
            };
            // The same state, in the next segment.
            let leave = |n: &RNode| RNode {
                st: n.st.clone(),
                seg: n.seg + 1,
                done: 0,
                cursors: n.cursors.clone(),
                path: n.path.clone(),
            };
            if may_leave {
                stack.push(leave(&n));
            }
            if seg.steps.is_some_and(|k| n.done >= k) {
                continue;
            }
            let Some(th) = n.st.threads.get(t as usize) else {
                note(
                    n.seg,
                    n.done,
                    format!("segment {}: thread {t} does not exist", n.seg + 1),
                );
                continue;
            };
            if th.status != Status::Running {
                note(
                    n.seg,
                    n.done,
                    format!(
                        "segment {}: thread {t} cannot run ({})",
                        n.seg + 1,
                        status_text(&th.status)
                    ),
                );
                continue;
            }
            let given: Vec<i128> = sched.nondet.get(&t).cloned().unwrap_or_default();
            let cur = n.cursors.get(t as usize).copied().unwrap_or(0);
            let mut script: Vec<u32> = Vec::new();
            loop {
                let mut st = n.st.clone();
                let mut forced: VecDeque<i128> = given.iter().skip(cur).copied().collect();
                let before = forced.len();
                let mut ch = Chooser::new(&script);
                ch.forced = Some(&mut forced);
                let mut ev = Vec::new();
                let end = m.step(&mut st, t, &mut ch, &mut ev);
                let arities = ch.arities.clone();
                let taken = ch.taken.clone();
                drop(ch);
                let consumed = before - forced.len();
                let used: Vec<u32> = (0..arities.len())
                    .map(|i| script.get(i).copied().unwrap_or(0))
                    .collect();
                match end {
                    StepEnd::Blocked(why) => {
                        // Where the sequential program stopped a blocked
                        // thread, the run just does not schedule it.
                        if !may_leave && seg.until.is_some() {
                            stack.push(leave(&n));
                        }
                        note(
                            n.seg,
                            n.done,
                            format!("segment {}: thread {t} is blocked: {why}", n.seg + 1),
                        )
                    }
                    StepEnd::Unsupported(w, l) => {
                        // Only this branch is lost: a failure reached on
                        // another is still a run the oracle ran in full
                        // (a NaN made of bytes on a path the trace does
                        // not take, say). Without one, the refusal stands.
                        note(n.seg, n.done, format!("segment {}: {w}", n.seg + 1));
                        refused.get_or_insert_with(|| unsupported(self.prog, &w, l));
                    }
                    StepEnd::Failed(loc, kind) => {
                        if sched.race.is_none()
                            && !sched.deadlock
                            && sched.expect.is_none_or(|e| e == loc)
                            && sched.kind.is_none_or(|k| same_kind(k, kind))
                        {
                            let mut path = n.path.clone();
                            path.push((t, used.clone(), taken, n.seg));
                            return Ok(failed_at(loc, &path));
                        }
                        if sched.any_failure
                            && other.is_none()
                            && sched.race.is_none()
                            && !sched.deadlock
                        {
                            let mut path = n.path.clone();
                            path.push((t, used.clone(), taken, n.seg));
                            other = Some((loc, path));
                        }
                        note(
                            n.seg,
                            n.done,
                            format!(
                                "segment {}: a different assertion fails ({})",
                                n.seg + 1,
                                self.prog.describe(loc)
                            ),
                        );
                    }
                    StepEnd::Ran => {
                        let mut cursors = n.cursors.clone();
                        if cursors.len() <= t as usize {
                            cursors.resize(t as usize + 1, 0);
                        }
                        cursors[t as usize] += consumed;
                        let mut path = n.path.clone();
                        path.push((t, used.clone(), taken, n.seg));
                        stack.push(RNode {
                            st,
                            seg: n.seg,
                            done: n.done + 1,
                            cursors,
                            path,
                        });
                    }
                }
                // Enumerate the choices that were not forced. Each one
                // past the first counts against the budget: a step may
                // draw many values (a havocked struct of a sliced
                // program), and the stack would otherwise hold the whole
                // product of their domains. The search goes on with what
                // is on the stack; the next pop ends it.
                match search::next_script(used, &arities) {
                    Some(_) if explored >= b.max_states => break,
                    Some(next) => {
                        explored += 1;
                        script = next;
                    }
                    None => break,
                }
            }
        }
        if let Some((loc, path)) = other {
            return Ok(failed_at(loc, &path));
        }
        if let Some(d) = refused {
            return Err(d);
        }
        let why = match (ran_out, deepest.2.is_empty()) {
            (_, true) => "every segment ran and no assertion failed".to_string(),
            (true, false) => format!(
                "every segment ran and no assertion failed; the furthest point: {}",
                deepest.2
            ),
            (false, false) => deepest.2,
        };
        Ok(ReplayOutcome::NotReproduced(why))
    }

    fn replay_trace(
        &self,
        m: &Machine,
        init: &State,
        path: &[(u32, Vec<u32>, Vec<i128>, usize)],
        sched: &Schedule,
    ) -> (Vec<Step>, BTreeMap<u32, String>) {
        let mut st = init.clone();
        let mut out = Vec::new();
        // Rounds come from the turn order of the last state (below).
        for (t, _, vals, seg) in path.iter() {
            let round = sched.segments.get(*seg).and_then(|s| s.round);
            let mut forced: VecDeque<i128> = vals.iter().copied().collect();
            let mut ch = Chooser::new(&[]);
            ch.forced = Some(&mut forced);
            let mut ev = Vec::new();
            let at = m.cur_loc(&st, *t);
            let before = st.threads.len() as u32;
            let _ = m.step(&mut st, *t, &mut ch, &mut ev);
            let created = (before..st.threads.len() as u32).collect();
            if !vals.is_empty() {
                ev.insert(
                    0,
                    Event {
                        loc: ev.first().map(|e| e.loc).unwrap_or(Loc::NONE),
                        what: format!("nondet {}", search::draws_text(&ch.taken, &ch.taken_float)),
                    },
                );
            }
            out.push(Step {
                thread: *t,
                round: round.unwrap_or(0),
                loc: search::action_loc(&ev, at),
                events: ev,
                draws: vals.clone(),
                draw_locs: ch.taken_at.clone(),
                created,
            });
        }
        let threads: Vec<u32> = out.iter().map(|s| s.thread).collect();
        for (s, r) in out.iter_mut().zip(rounds_of(&threads, &st)) {
            if s.round == 0 {
                s.round = r;
            }
        }
        // Rounds in which nothing ran are not shown: the rest are
        // numbered from 1 in order (a trace whose threads all waited for
        // round 3 shows its steps in round 1).
        let used: BTreeSet<u32> = out.iter().map(|s| s.round).collect();
        for s in &mut out {
            s.round = used.range(..s.round).count() as u32 + 1;
        }
        let names = st
            .threads
            .iter()
            .enumerate()
            .map(|(i, th)| (i as u32, self.prog.func(th.func).name.clone()))
            .collect();
        (out, names)
    }
}

/// May the thread's segment end here (see `Until`)? More
/// end points than needed cost search, never soundness: whatever the
/// replay reaches is a run of the input.
fn may_switch(m: &Machine, st: &State, t: u32, u: Until) -> bool {
    let Some(th) = st.threads.get(t as usize) else {
        return true;
    };
    if th.status != Status::Running {
        return true;
    }
    if th.frames.len() == 1 && th.frames[0].pc == 0 {
        return u.at_start;
    }
    let l = m.cur_loc(st, t);
    u.line != 0 && l.file == u.file && l.line == u.line
}

fn status_text(s: &Status) -> String {
    match s {
        Status::Running => "running".into(),
        Status::Finished(_) => "it has returned".into(),
        Status::Stopped(w) => format!("it stopped: {w}"),
    }
}

/// A schedule to replay: thread segments in order, nondet values per
/// thread in the order the thread draws them.
#[derive(Clone, Debug, Default)]
pub struct Schedule {
    pub segments: Vec<Segment>,
    pub nondet: BTreeMap<u32, Vec<i128>>,
    /// The assertion that must fail (any, if `None`).
    pub expect: Option<Loc>,
    /// Instead of a failing assertion: a state where these two threads'
    /// next actions are conflicting accesses at these source lines (a
    /// data race).
    pub race: Option<((u32, Loc), (u32, Loc))>,
    /// Instead of a failing assertion: a deadlocked state.
    pub deadlock: bool,
    /// The kind of the failure (any, if `None`; see `same_kind`).
    pub kind: Option<AssertKind>,
    /// If the expected failure is not reached, the first failure of
    /// another check met on the way is reported instead: it is a real
    /// violation of a property asked for (the last resort of `check`).
    pub any_failure: bool,
}

/// A failure of kind `found` stands for one reported as `want`: both
/// rules of lock discipline at an operation (an operation's checks come
/// in one order in the passes and in the oracle, and a C checker's trace
/// does not say which of them failed), both a thread's end check, both
/// overflows, or both user assertions of either spelling.
pub fn same_kind(want: AssertKind, found: AssertKind) -> bool {
    let at_end = |r: LockRule| r == LockRule::ExitHolding;
    match (want, found) {
        (AssertKind::Lock(a), AssertKind::Lock(b)) => at_end(a) == at_end(b),
        (AssertKind::Lock(_), _) | (_, AssertKind::Lock(_)) => false,
        (AssertKind::Deadlock, f) | (f, AssertKind::Deadlock) => f == AssertKind::Deadlock,
        (AssertKind::Overflow, f) | (f, AssertKind::Overflow) => f == AssertKind::Overflow,
        (AssertKind::InvalidDeref, f) | (f, AssertKind::InvalidDeref) => {
            f == AssertKind::InvalidDeref
        }
        (AssertKind::InvalidFree, f) | (f, AssertKind::InvalidFree) => f == AssertKind::InvalidFree,
        (AssertKind::MemTrack, f) | (f, AssertKind::MemTrack) => f == AssertKind::MemTrack,
        _ => true,
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Segment {
    pub thread: u32,
    /// The round to show for this segment's steps (`None`: the oracle's
    /// round-robin count).
    pub round: Option<u32>,
    /// Visible steps in this segment; `None`: any number.
    pub steps: Option<u32>,
    /// Where the segment may end (with `steps: None`); `None`: anywhere.
    pub until: Option<Until>,
}

/// Where a guided segment may end: before a visible action on `line` of
/// `file` (line 0: nowhere), before the thread's first step if
/// `at_start`, and whenever the thread no longer runs or is blocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Until {
    pub file: FileId,
    pub line: u32,
    pub at_start: bool,
}

#[derive(Clone, Debug)]
pub enum ReplayOutcome {
    Confirmed {
        loc: Loc,
        trace: Vec<Step>,
        /// The start routine of each thread id.
        names: BTreeMap<u32, String>,
        /// A deadlock's waits (`Failure::waits`).
        waits: Vec<String>,
    },
    NotReproduced(String),
}
