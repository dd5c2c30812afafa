//! The static order of `pthread_create` sites, shared by the Lal-Reps pass
//! (which gives each site a fixed range of thread slots) and the oracle
//! (whose round measure must read threads in the same order).
//!
//! A site comes after every site whose thread can reach it through calls,
//! so a parent's slot is below its children's; ties go by source position.
//! Within one site, instances are ordered by their creator's order, then
//! by the order one creator makes them.

use super::*;
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Debug)]
pub struct Site {
    pub loc: Loc,
    /// The function holding the `pthread_create`.
    pub in_func: FuncId,
    /// The start routine, when it is a function name.
    pub start: Option<FuncId>,
}

/// The sites in slot order, or why no such order exists.
pub fn thread_sites(p: &Program) -> std::result::Result<Vec<Site>, (String, Loc)> {
    let indirect = p.address_taken_functions();
    let (calls, sites) = calls_and_sites(p, &indirect);
    let reach = |from: FuncId| reach_from(&calls, from);
    order_sites(sites, &indirect, reach)
}

/// Per function, how many threads may run it, main's included: the thread
/// slots (`caps`, by site in slot order) of every site whose start routine
/// reaches it through calls, plus one when main reaches it. A function
/// reached by neither (a key's destructor, say) counts every slot.
pub fn runners(p: &Program, sites: &[Site], caps: &[u32], main: FuncId) -> Vec<u64> {
    let indirect = p.address_taken_functions();
    let (calls, _) = calls_and_sites(p, &indirect);
    let all = 1 + caps.iter().map(|&c| c as u64).sum::<u64>();
    let mut n = vec![0u64; p.functions.len()];
    for f in reach_from(&calls, main) {
        n[f.index()] += 1;
    }
    for (s, &c) in sites.iter().zip(caps) {
        let starts = match s.start {
            Some(f) => vec![f],
            None => indirect.clone(),
        };
        let mut seen = BTreeSet::new();
        for st in starts {
            seen.extend(reach_from(&calls, st));
        }
        for f in seen {
            n[f.index()] += c as u64;
        }
    }
    n.iter()
        .map(|&k| if k == 0 { all } else { k.min(all) })
        .collect()
}

/// Every function reached from `from` through calls, `from` included.
fn reach_from(calls: &[BTreeSet<FuncId>], from: FuncId) -> BTreeSet<FuncId> {
    let mut seen = BTreeSet::from([from]);
    let mut todo = vec![from];
    while let Some(f) = todo.pop() {
        for &g in &calls[f.index()] {
            if seen.insert(g) {
                todo.push(g);
            }
        }
    }
    seen
}

/// Per function, whom it calls (through a pointer: every address-taken
/// function of a matching type), and every thread-creation site.
fn calls_and_sites(p: &Program, indirect: &[FuncId]) -> (Vec<BTreeSet<FuncId>>, Vec<Site>) {
    // Per function (on threads when many): whom it calls, and its sites.
    let per_fn = crate::par::map(&p.functions, |fi, f| {
        let mut calls = BTreeSet::new();
        let mut sites = Vec::new();
        let Some(b) = &f.body else {
            return (calls, sites);
        };
        b.walk(&mut |s| match &s.kind {
            StmtKind::Call { callee, .. } => match strip(callee) {
                Some(g) => {
                    calls.insert(g);
                }
                // A call through a pointer may reach any address-taken
                // function of a matching type (return type and arity):
                // with every one, a driver's callback table would make
                // each thread "create" every other and no order exists.
                None => {
                    let sig = match callee.ty.pointee().or(Some(&callee.ty)) {
                        Some(Ty::Func(sig)) => Some(sig),
                        _ => None,
                    };
                    calls.extend(indirect.iter().copied().filter(|g| {
                        let gs = &p.func(*g).sig;
                        sig.is_none_or(|s| {
                            s.unprototyped
                                || gs.unprototyped
                                || s.variadic
                                || gs.variadic
                                || (s.ret == gs.ret && s.params.len() == gs.params.len())
                        })
                    }))
                }
            },
            StmtKind::Op {
                op: Op::ThreadCreate,
                args,
                ..
            } => {
                sites.push(Site {
                    loc: s.loc,
                    in_func: FuncId(fi as u32),
                    start: args.get(2).and_then(strip),
                });
            }
            StmtKind::Op {
                op: Op::Once, args, ..
            } => {
                if let Some(g) = args.get(1).and_then(strip) {
                    calls.insert(g);
                }
            }
            _ => {}
        });
        (calls, sites)
    });
    let mut sites = Vec::new();
    let mut calls: Vec<BTreeSet<FuncId>> = Vec::with_capacity(per_fn.len());
    for (c, s) in per_fn {
        calls.push(c);
        sites.extend(s);
    }
    (calls, sites)
}

/// `sites` in slot order: a site after every site whose thread reaches it.
fn order_sites(
    sites: Vec<Site>,
    indirect: &[FuncId],
    reach: impl Fn(FuncId) -> BTreeSet<FuncId>,
) -> std::result::Result<Vec<Site>, (String, Loc)> {
    let mut reach_cache: HashMap<Option<FuncId>, BTreeSet<FuncId>> = HashMap::new();
    let mut reaches = |start: Option<FuncId>| -> BTreeSet<FuncId> {
        reach_cache
            .entry(start)
            .or_insert_with(|| match start {
                Some(f) => reach(f),
                // An unknown start routine may be any address-taken function.
                None => indirect.iter().flat_map(|&f| reach(f)).collect(),
            })
            .clone()
    };
    let n = sites.len();
    let reach_of: Vec<BTreeSet<FuncId>> = sites.iter().map(|s| reaches(s.start)).collect();
    // Site i precedes site j when i's thread reaches j's function. Edges
    // come from each site's reach, so a program of many sites is not
    // quadratic.
    let mut sites_in: HashMap<FuncId, Vec<usize>> = HashMap::new();
    for (j, s) in sites.iter().enumerate() {
        sites_in.entry(s.in_func).or_default().push(j);
    }
    let succ: Vec<Vec<usize>> = reach_of
        .iter()
        .enumerate()
        .map(|(i, r)| {
            r.iter()
                .flat_map(|f| sites_in.get(f).into_iter().flatten().copied())
                .filter(|&j| j != i)
                .collect()
        })
        .collect();
    let mut level = vec![0u32; n];
    for round in 0..=n {
        let mut changed = false;
        for (i, js) in succ.iter().enumerate() {
            for &j in js {
                if level[j] < level[i] + 1 {
                    level[j] = level[i] + 1;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
        if round == n {
            let l = sites[0].loc;
            return Err(("threads that create each other in a cycle".into(), l));
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (level[i], sites[i].loc));
    Ok(order.into_iter().map(|i| sites[i].clone()).collect())
}

/// The function an expression names, through casts and `&`.
pub fn strip(e: &Expr) -> Option<FuncId> {
    match &e.kind {
        ExprKind::Func(f) => Some(*f),
        ExprKind::Cast(a) | ExprKind::AddrOf(a) | ExprKind::Decay(a) => strip(a),
        _ => None,
    }
}

/// Per site, in the order given: true when the site can make at most one
/// thread in any execution (`site_counts`).
pub fn single_shot(p: &Program, sites: &[Site]) -> Vec<bool> {
    site_counts(p, sites)
        .into_iter()
        .map(|n| n == Some(1))
        .collect()
}

/// Per site, in the order given: the most threads it can make in any
/// execution (`None`: no bound known). A site needs that many thread
/// slots when they are fewer than `--threads`; KISS's nesting bound (and
/// with it the size of what a bounded model checker inlines) follows the
/// slot count. A site makes one thread per run of its create statement
/// (`run_counts`).
pub fn site_counts(p: &Program, sites: &[Site]) -> Vec<Option<u64>> {
    let once = runs_once(p);
    // Per function: its create sites with the threads each makes per run
    // of the function.
    let per_fn = crate::par::map(&p.functions, |fi, f| {
        let mut pos: HashMap<Loc, Option<u64>> = HashMap::new();
        if let (true, Some(b)) = (once[fi], &f.body) {
            scan(b, Some(1), false, &mut |s, times, _| {
                if let StmtKind::Op {
                    op: Op::ThreadCreate,
                    ..
                } = &s.kind
                {
                    let e = pos.entry(s.loc).or_insert(Some(0));
                    *e = e.zip(times).map(|(a, b)| a.saturating_add(b));
                }
            });
        }
        pos
    });
    sites
        .iter()
        .map(|s| per_fn[s.in_func.index()].get(&s.loc).copied().flatten())
        .collect()
}

/// Per function: true when it runs at most once in any execution and its
/// statements run as often as `run_counts` says: `main` (when nothing
/// calls it), or a function whose only mention in the program is one
/// direct call or one start-routine argument outside loops of such a
/// function. The analysis is a least fixpoint, so functions on a call
/// cycle never run at most once. A statement runs once per run of its
/// function, times the trip count of each counted loop around it
/// (`ir::loops`: `for (i = 0; i < 2; i++)`); any other loop leaves it
/// unbounded. A backward `goto` may loop, and a goto into a loop skips
/// its counter's start, so a function with either is not counted; a
/// forward goto (SV-COMP's `goto ERROR`) changes no count.
pub fn runs_once(p: &Program) -> Vec<bool> {
    let nf = p.functions.len();
    // Every mention of a function: a direct call, a start routine, or any
    // other use (a pointer that may be called any number of times).
    let mut mentions = vec![0u32; nf];
    let mention = |e: &Expr, m: &mut Vec<FuncId>| {
        if let ExprKind::Func(f) = e.kind {
            m.push(f);
        }
    };
    let mut global_mentions = Vec::new();
    for g in &p.globals {
        if let Some(i) = &g.init {
            i.each_expr(&mut |e| e.walk(&mut |x| mention(x, &mut global_mentions)));
        }
    }
    // Per function (on threads when many): the functions it mentions,
    // (used function, inside a loop) per direct use, and whether its gotos
    // may loop.
    let per_fn = crate::par::map(&p.functions, |_, f| {
        let mut named = Vec::new();
        let mut used: Vec<(FuncId, bool)> = Vec::new();
        let Some(b) = &f.body else {
            return (named, used, false);
        };
        b.walk(&mut |s| s.each_expr(&mut |e| e.walk(&mut |x| mention(x, &mut named))));
        // Statements in source order: a goto to a label at or before it
        // may loop; a forward one cannot, unless it enters a loop.
        let mut at = 0usize;
        let mut labels: HashMap<LabelId, usize> = HashMap::new();
        let mut gotos: Vec<(LabelId, usize)> = Vec::new();
        let mut label_in_loop = false;
        scan(b, Some(1), false, &mut |s, times, in_loop| match &s.kind {
            StmtKind::Label(l) => {
                at += 1;
                labels.insert(*l, at);
                label_in_loop |= in_loop;
            }
            StmtKind::Goto(l) => {
                at += 1;
                gotos.push((*l, at));
            }
            StmtKind::Call { callee, .. } => {
                if let ExprKind::Func(g) = callee.kind {
                    used.push((g, times != Some(1)));
                }
            }
            StmtKind::Op {
                op: op @ (Op::ThreadCreate | Op::Once),
                args,
                ..
            } => {
                let create = *op == Op::ThreadCreate;
                let start = args.get(if create { 2 } else { 1 });
                if let Some(g) = start.and_then(strip) {
                    used.push((g, times != Some(1)));
                }
            }
            _ => {}
        });
        let messy = label_in_loop
            || gotos
                .iter()
                .any(|(l, g)| labels.get(l).is_none_or(|at| at < g));
        (named, used, messy)
    });
    // (position's function, inside a loop) per direct use of a function.
    let mut uses: Vec<Vec<(FuncId, bool)>> = vec![Vec::new(); nf];
    let mut messy = vec![false; nf];
    for f in global_mentions {
        mentions[f.index()] += 1;
    }
    for (fi, (named, used, m)) in per_fn.into_iter().enumerate() {
        let me = FuncId(fi as u32);
        for f in named {
            mentions[f.index()] += 1;
        }
        for (g, in_loop) in used {
            uses[g.index()].push((me, in_loop));
        }
        messy[fi] = m;
    }
    let mut once = vec![false; nf];
    if let Some(m) = p.func_by_name("main") {
        once[m.index()] = mentions[m.index()] == 0;
    }
    loop {
        let mut changed = false;
        for g in 0..nf {
            if once[g] || uses[g].len() != 1 || mentions[g] != 1 {
                continue;
            }
            let (caller, in_loop) = uses[g][0];
            if !in_loop && once[caller.index()] && !messy[caller.index()] {
                once[g] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    once.iter().zip(&messy).map(|(o, m)| *o && !m).collect()
}

/// How many times a statement inside a loop with trip count `trips` runs,
/// when the loop itself runs `times` times (`None`: unbounded).
pub fn run_counts(times: Option<u64>, trips: Option<u32>) -> Option<u64> {
    times.zip(trips).map(|(t, n)| t.saturating_mul(n as u64))
}

/// Thread slots per site, in the order given: as many as the site can
/// make (`site_counts`), at most `threads`.
pub fn slot_caps(p: &Program, sites: &[Site], threads: u32) -> Vec<u32> {
    site_counts(p, sites)
        .into_iter()
        .map(|n| n.map_or(threads, |n| n.min(threads as u64) as u32))
        .collect()
}

/// Calls `f` on every statement with how many times it runs per run of
/// its function (the trip counts of the counted loops around it
/// multiplied, `None` inside any other loop) and whether it sits inside
/// a loop.
fn scan(
    b: &Block,
    times: Option<u64>,
    in_loop: bool,
    f: &mut impl FnMut(&Stmt, Option<u64>, bool),
) {
    for s in &b.0 {
        f(s, times, in_loop);
        match &s.kind {
            StmtKind::If(_, a, c) => {
                scan(a, times, in_loop, f);
                scan(c, times, in_loop, f);
            }
            StmtKind::Loop {
                body, latch, trips, ..
            } => {
                let inner = run_counts(times, *trips);
                scan(body, inner, true, f);
                scan(latch, inner, true, f);
            }
            StmtKind::Switch(_, a) | StmtKind::Block(a) => scan(a, times, in_loop, f),
            _ => {}
        }
    }
}
