//! State-space search over interleavings, with state hashing.
//!
//! One engine, three cost models. `Plain`: every schedule, cost 0 (the
//! verdict). `Rounds`: round-robin with stuttering, main first in every
//! round, threads in creation-site order (`Thread::rank`, the order of
//! Lal-Reps' slots); the search state carries the position
//! `p` in the round, and the cost is the number of times the round wrapped
//! (rounds − 1), where main's turn at the start of a round, before any
//! other thread runs in it, counts as a final context of the round before
//! (a failure there costs one less): K rounds are (t0 t1 .. tn)^K t0, as
//! Lal–Reps gives main a final context. A search with cap C therefore
//! reports failures of cost up to C, whose rounds are C + 1 or fewer. `Switches`: the state carries the thread that ran last; the
//! cost is the number of changes of running thread. The search goes layer
//! by layer in cost (a 0-1 breadth-first search), depth-first inside a
//! layer, so the first time a state (with its extra component) is seen it
//! is seen at its least cost, and each failure's least cost is exact.

use super::machine::{Access, Chooser, Event, Machine, State, Status, StepEnd};
use crate::ir::{AssertKind, Loc};
use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cost {
    Plain,
    Rounds,
    Switches,
}

pub struct Found {
    pub kind: AssertKind,
    pub thread: u32,
    pub cost: u32,
    /// The schedule: (thread, nondet script) per step.
    pub path: Vec<(u32, Vec<u32>)>,
}

pub struct SearchResult {
    pub found: BTreeMap<Loc, Found>,
    pub states: u64,
    /// False when the state budget or the cost cap stopped the search early.
    pub complete: bool,
    pub unsupported: Option<(String, Loc)>,
    /// Why threads stopped (bound cuts and the like), to report.
    pub cuts: std::collections::BTreeSet<String>,
}

struct Node {
    st: Rc<State>,
    aux: u32,
    path: u32,
    /// `fingerprint(st, aux)`, taken once when the node is made.
    fp: u128,
}

impl Node {
    fn new(st: Rc<State>, aux: u32, path: u32) -> Node {
        let fp = fingerprint(&st, aux);
        Node { st, aux, path, fp }
    }
}

/// A fast 128-bit state hash: two independent multiply-rotate lanes.
/// Not keyed (no adversary here); a collision would merge two states, so
/// the lanes are mixed differently to make that vanishingly unlikely.
struct Fp {
    a: u64,
    b: u64,
}

impl Fp {
    #[inline]
    fn word(&mut self, w: u64) {
        self.a = (self.a.rotate_left(5) ^ w).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        self.b = (self.b ^ w.rotate_left(29))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(23);
    }
}

impl Hasher for Fp {
    fn finish(&self) -> u64 {
        self.a ^ self.b
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().unwrap()));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut buf = [0u8; 8];
            buf[..rest.len()].copy_from_slice(rest);
            self.word(u64::from_le_bytes(buf) ^ ((rest.len() as u64) << 59));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.word(i as u64 | 0x100);
    }
    fn write_u16(&mut self, i: u16) {
        self.word(i as u64 | 0x1_0000_0000);
    }
    fn write_u32(&mut self, i: u32) {
        self.word(i as u64 | 0x2_0000_0000);
    }
    fn write_u64(&mut self, i: u64) {
        self.word(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.word(i as u64);
    }
}

pub fn fingerprint(st: &State, aux: u32) -> u128 {
    digest(&(aux, st))
}

/// `x`'s 128-bit hash (both lanes avalanched). Objects keep theirs
/// (`machine::ObjRef`), so a state's fingerprint rehashes only the
/// objects a step changed.
pub fn digest<T: Hash + ?Sized>(x: &T) -> u128 {
    let mut h = Fp {
        a: 0x243F_6A88_85A3_08D3,
        b: 0x1319_8A2E_0370_7344,
    };
    x.hash(&mut h);
    // Final avalanche of each lane.
    let fin = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    ((fin(h.a) as u128) << 64) | fin(h.b) as u128
}

/// The most outcomes of one step `successors` gives: a step that draws
/// many values (a havocked struct of a sliced program) would otherwise
/// hold the whole product of their domains in memory.
pub const MAX_OUTCOMES: usize = 1 << 16;

/// Every outcome of one step of thread `t` from `st`, one per choice of
/// nondeterministic values, and whether that is all of them (at most
/// `MAX_OUTCOMES`).
pub fn successors(m: &Machine, st: &State, t: u32) -> (Vec<(State, Vec<u32>, StepEnd)>, bool) {
    let mut out = Vec::new();
    let mut script: Vec<u32> = Vec::new();
    loop {
        let mut s2 = st.clone();
        let mut ch = Chooser::new(&script);
        let mut ev = Vec::new();
        let end = m.step(&mut s2, t, &mut ch, &mut ev);
        let arities = ch.arities.clone();
        let used: Vec<u32> = (0..arities.len())
            .map(|i| script.get(i).copied().unwrap_or(0))
            .collect();
        out.push((s2, used.clone(), end));
        match next_script(used, &arities) {
            Some(_) if out.len() >= MAX_OUTCOMES => return (out, false),
            Some(s) => script = s,
            None => return (out, true),
        }
    }
}

/// A deadlock (POSIX: no thread can go on and one has not finished):
/// some thread is still running, every running thread's next step can
/// end blocked, and main has not finished (its return is `exit`; after
/// its `pthread_exit` this hides a deadlock). A step blocks only at its
/// visible action, after actions on the thread's own locals: the values
/// it draws before are a choice the thread may already have made, so
/// one blocked outcome is enough. A join of the thread itself is no
/// wait (glibc returns EDEADLK; POSIX leaves it undefined).
/// A state with a stopped thread (a bound cut, an assume, `exit`) or a
/// thread made past the thread bound is none: that thread might go on.
/// Gives each waiting thread and why it waits.
pub fn deadlocked(m: &Machine, st: &State) -> Option<Vec<(u32, String)>> {
    if st.unscheduled > 0
        || st.threads[0].status != Status::Running
        || st
            .threads
            .iter()
            .any(|t| matches!(t.status, Status::Stopped(_)))
    {
        return None;
    }
    let mut waits = Vec::new();
    for (t, th) in st.threads.iter().enumerate() {
        if th.status != Status::Running {
            continue;
        }
        let own_join = format!("pthread_join: thread {t} has not returned");
        // Past `MAX_OUTCOMES` a blocked outcome may be missed: that can
        // only hide a deadlock.
        let why = successors(m, st, t as u32)
            .0
            .into_iter()
            .find_map(|(_, _, end)| match end {
                StepEnd::Blocked(w) if w != own_join => Some(w),
                _ => None,
            });
        waits.push((t as u32, why?));
    }
    Some(waits)
}

/// The next choice vector after `used`, an odometer over the arities the
/// step met; `None` when every combination has been run.
pub fn next_script(mut used: Vec<u32>, arities: &[u32]) -> Option<Vec<u32>> {
    let mut i = used.len();
    while i > 0 {
        i -= 1;
        if used[i] + 1 < arities[i] {
            used[i] += 1;
            used.truncate(i + 1);
            return Some(used);
        }
    }
    None
}

pub fn search(
    m: &Machine,
    init: State,
    cost: Cost,
    cap: u32,
    targets: Option<&HashSet<Loc>>,
) -> SearchResult {
    let mut res = SearchResult {
        found: BTreeMap::new(),
        states: 0,
        complete: true,
        unsupported: None,
        cuts: Default::default(),
    };
    let mut paths: Vec<(u32, u32, Vec<u32>)> = Vec::new();
    let mut visited: HashSet<u128> = HashSet::new();
    let mut layer: Vec<Node> = vec![Node::new(Rc::new(init), 0, u32::MAX)];
    let mut next: Vec<Node> = Vec::new();
    let mut c = 0u32;
    let path_of = |paths: &Vec<(u32, u32, Vec<u32>)>, mut i: u32| {
        let mut v = Vec::new();
        while i != u32::MAX {
            let (p, t, s) = &paths[i as usize];
            v.push((*t, s.clone()));
            i = *p;
        }
        v.reverse();
        v
    };
    'layers: loop {
        while let Some(n) = layer.pop() {
            if !visited.insert(n.fp) {
                continue;
            }
            res.states += 1;
            if res.states > m.b.max_states {
                res.complete = false;
                break 'layers;
            }
            // A deadlock is a state: its key is no place in the program.
            // Reached at main's turn of a round in which no other thread
            // has run yet, it is in main's final context after the round
            // before, as a failure by main is.
            let dc = match cost {
                Cost::Rounds if n.aux == 0 && c > 0 => c - 1,
                _ => c,
            };
            if m.b.deadlock
                && res.found.get(&Loc::NONE).is_none_or(|f| f.cost > dc)
                && deadlocked(m, &n.st).is_some()
            {
                res.found.insert(
                    Loc::NONE,
                    Found {
                        kind: AssertKind::Deadlock,
                        thread: 0,
                        cost: dc,
                        path: path_of(&paths, n.path),
                    },
                );
            }
            let nthreads = n.st.threads.len() as u32;
            let runnable: Vec<u32> = match cost {
                // `aux` is the turn's position in creation-site order.
                Cost::Rounds => {
                    let t = turn_at(&n.st, n.aux);
                    if n.st.threads[t as usize].status == Status::Running {
                        vec![t]
                    } else {
                        vec![]
                    }
                }
                _ => (0..nthreads)
                    .filter(|t| n.st.threads[*t as usize].status == Status::Running)
                    .collect(),
            };
            for t in runnable {
                let step_cost = match cost {
                    Cost::Switches => (t != n.aux) as u32,
                    _ => 0,
                };
                let (outs, all) = successors(m, &n.st, t);
                res.complete &= all;
                for (s2, script, end) in outs {
                    match end {
                        StepEnd::Blocked(_) => {}
                        StepEnd::Unsupported(w, l) => {
                            res.unsupported = Some((w, l));
                            res.complete = false;
                            break 'layers;
                        }
                        StepEnd::Failed(loc, kind) => {
                            // Main failing at its turn of a round in which
                            // no other thread has run yet is in main's
                            // final context after the round before.
                            let last = cost == Cost::Rounds && t == 0 && c > 0;
                            let fc = c + step_cost - last as u32;
                            let better = res.found.get(&loc).is_none_or(|f| fc < f.cost);
                            if better {
                                let mut path = path_of(&paths, n.path);
                                path.push((t, script));
                                res.found.insert(
                                    loc,
                                    Found {
                                        kind,
                                        thread: t,
                                        cost: fc,
                                        path,
                                    },
                                );
                            }
                        }
                        StepEnd::Ran => {
                            if let Status::Stopped(why) = &s2.threads[t as usize].status
                                && n.st.threads[t as usize].status == Status::Running
                            {
                                res.cuts.insert(why.clone());
                            }
                            if step_cost != 0 && c >= cap {
                                res.complete = false;
                                continue;
                            }
                            // A state expanded already was expanded at
                            // a cost no higher: it would be dropped when
                            // popped, so it is not kept (memory: the
                            // layers held millions of such states).
                            // A thread made in the step ranks after its
                            // creator: the turn's position stays.
                            let aux = match cost {
                                Cost::Plain => 0,
                                Cost::Rounds => n.aux,
                                Cost::Switches => t,
                            };
                            let fp = fingerprint(&s2, aux);
                            if visited.contains(&fp) {
                                continue;
                            }
                            paths.push((n.path, t, script));
                            let node = Node {
                                st: Rc::new(s2),
                                aux,
                                path: paths.len() as u32 - 1,
                                fp,
                            };
                            if step_cost == 0 {
                                layer.push(node);
                            } else {
                                next.push(node);
                            }
                        }
                    }
                }
            }
            if cost == Cost::Rounds {
                // Hand the turn to the next thread, or start a new round.
                if n.aux + 1 < nthreads {
                    layer.push(Node::new(n.st.clone(), n.aux + 1, n.path));
                } else if c < cap {
                    next.push(Node::new(n.st.clone(), 0, n.path));
                } else if n.st.threads.iter().any(|t| t.status == Status::Running) {
                    res.complete = false;
                }
            }
        }
        if next.is_empty() {
            break;
        }
        if let Some(ts) = targets
            && ts
                .iter()
                .all(|l| res.found.get(l).is_some_and(|f| f.cost <= c))
        {
            break;
        }
        c += 1;
        layer = std::mem::take(&mut next);
    }
    if !next.is_empty() && targets.is_none() {
        res.complete = false;
    }
    res
}

/// Where a step's action is: its first event's place, else where the
/// thread stood before it (`at`).
pub fn action_loc(ev: &[Event], at: Loc) -> Loc {
    ev.iter()
        .map(|e| e.loc)
        .find(|l| *l != Loc::NONE)
        .unwrap_or(at)
}

/// One step of a recorded schedule, run again.
pub struct Replayed {
    pub thread: u32,
    pub events: Vec<Event>,
    /// The values drawn, and where.
    pub draws: Vec<i128>,
    pub draw_locs: Vec<Loc>,
    /// Where the thread was before the step.
    pub loc: Loc,
    /// The threads the step created.
    pub created: Vec<u32>,
}

/// Runs a recorded schedule again, collecting the events of each step.
pub fn replay_path(m: &Machine, init: &State, path: &[(u32, Vec<u32>)]) -> Vec<Replayed> {
    let mut st = init.clone();
    let mut out = Vec::new();
    for (t, script) in path {
        let mut ch = Chooser::new(script);
        let mut ev = Vec::new();
        let at = m.cur_loc(&st, *t);
        let before = st.threads.len() as u32;
        let _ = m.step(&mut st, *t, &mut ch, &mut ev);
        if !ch.taken.is_empty() {
            ev.insert(
                0,
                Event {
                    loc: ev.first().map(|e| e.loc).unwrap_or(Loc::NONE),
                    what: format!("nondet {}", draws_text(&ch.taken, &ch.taken_float)),
                },
            );
        }
        out.push(Replayed {
            thread: *t,
            loc: action_loc(&ev, at),
            events: ev,
            draws: ch.taken.clone(),
            draw_locs: ch.taken_at.clone(),
            created: (before..st.threads.len() as u32).collect(),
        });
    }
    out
}

/// The threads in the order they take turns in a round: creation-site
/// order (`Thread::rank`), main first.
pub fn turn_order(st: &State) -> Vec<u32> {
    let mut v: Vec<u32> = (0..st.threads.len() as u32).collect();
    v.sort_by(|a, b| {
        st.threads[*a as usize]
            .rank
            .cmp(&st.threads[*b as usize].rank)
    });
    v
}

/// The thread whose turn is at position `pos` of `turn_order`, without
/// sorting when the threads were made in that order (most programs).
fn turn_at(st: &State, pos: u32) -> u32 {
    if st.threads.windows(2).all(|w| w[0].rank <= w[1].rank) {
        pos
    } else {
        turn_order(st)[pos as usize]
    }
}

/// Round numbers (from 1) of a schedule read as round-robin with
/// stuttering: a step by a thread before the previous one in `turn_order`
/// of the schedule's last state (`st`) starts a round.
pub fn rounds_of(threads: &[u32], st: &State) -> Vec<u32> {
    let mut at = vec![0usize; st.threads.len()];
    for (i, t) in turn_order(st).into_iter().enumerate() {
        at[t as usize] = i;
    }
    let pos = |t: u32| at.get(t as usize).copied().unwrap_or(t as usize);
    let mut r = 1;
    let mut p = 0;
    threads
        .iter()
        .map(|&t| {
            if pos(t) < p {
                r += 1;
            }
            p = pos(t);
            r
        })
        .collect()
}

/// A data race the search found: two threads whose next actions are
/// conflicting accesses to the same bytes, and the schedule to that state.
pub struct RaceFound {
    pub a: (u32, Access),
    pub b: (u32, Access),
    pub path: Vec<(u32, Vec<u32>)>,
}

pub struct RaceSearch {
    /// One race per pair of source locations (the first found).
    pub races: BTreeMap<(Loc, Loc), RaceFound>,
    pub states: u64,
    pub complete: bool,
    pub unsupported: Option<(String, Loc)>,
}

/// The conflicting pairs of next accesses in `st`, lower thread first.
pub fn races_in(m: &Machine, st: &State) -> Vec<((u32, Access), (u32, Access))> {
    let acc: Vec<(u32, Access)> = (0..st.threads.len() as u32)
        .flat_map(|t| m.next_accesses(st, t).into_iter().map(move |a| (t, a)))
        .collect();
    let mut out = Vec::new();
    for (i, x) in acc.iter().enumerate() {
        for y in &acc[i + 1..] {
            if x.0 != y.0 && x.1.conflicts(&y.1) {
                out.push((*x, *y));
            }
        }
    }
    out
}

/// Every reachable state, depth first, looking for data races.
pub fn races(m: &Machine, init: State) -> RaceSearch {
    let mut res = RaceSearch {
        races: BTreeMap::new(),
        states: 0,
        complete: true,
        unsupported: None,
    };
    let mut paths: Vec<(u32, u32, Vec<u32>)> = Vec::new();
    let mut visited: HashSet<u128> = HashSet::new();
    let fp = fingerprint(&init, 0);
    let mut stack = vec![(Rc::new(init), u32::MAX, fp)];
    while let Some((st, at, fp)) = stack.pop() {
        if !visited.insert(fp) {
            continue;
        }
        res.states += 1;
        if res.states > m.b.max_states {
            res.complete = false;
            break;
        }
        for (a, b) in races_in(m, &st) {
            let key = (a.1.loc.min(b.1.loc), a.1.loc.max(b.1.loc));
            res.races.entry(key).or_insert_with(|| {
                let mut path = Vec::new();
                let mut i = at;
                while i != u32::MAX {
                    let (p, t, s) = &paths[i as usize];
                    path.push((*t, s.clone()));
                    i = *p;
                }
                path.reverse();
                RaceFound { a, b, path }
            });
        }
        for t in 0..st.threads.len() as u32 {
            if st.threads[t as usize].status != Status::Running {
                continue;
            }
            let (outs, all) = successors(m, &st, t);
            res.complete &= all;
            for (s2, script, end) in outs {
                match end {
                    StepEnd::Unsupported(w, l) => {
                        res.unsupported = Some((w, l));
                        res.complete = false;
                        return res;
                    }
                    // A failed assertion ends the run (abort).
                    StepEnd::Blocked(_) | StepEnd::Failed(..) => {}
                    StepEnd::Ran => {
                        // Expanded already: it would be dropped when popped.
                        let fp = fingerprint(&s2, 0);
                        if visited.contains(&fp) {
                            continue;
                        }
                        paths.push((at, t, script));
                        stack.push((Rc::new(s2), paths.len() as u32 - 1, fp));
                    }
                }
            }
        }
    }
    res
}

/// Drawn values as a trace shows them: a floating one by its value, not
/// its bits.
pub fn draws_text(vals: &[i128], floats: &[Option<crate::ir::FloatKind>]) -> String {
    vals.iter()
        .enumerate()
        .map(|(i, &v)| match floats.get(i).copied().flatten() {
            Some(crate::ir::FloatKind::Float) => {
                crate::ir::trace::float_text(f32::from_bits(v as u32))
            }
            Some(_) => crate::ir::trace::float_text(f64::from_bits(v as u64)),
            None => v.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}
