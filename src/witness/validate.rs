//! `seqc validate`: a violation witness replayed on the oracle.

use super::xml::{self, Elem};
use super::{REQUIRED, program_hash};
use crate::ir::{FloatKind, Program};
use crate::oracle::{Bounds, ReplayOutcome, Schedule, Segment};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Validation {
    /// The run the witness describes reaches the violation: where.
    Confirmed(String),
    /// Why not.
    NotConfirmed(String),
}

/// One transition of a path-shaped witness.
#[derive(Clone, Debug, Default)]
struct Edge {
    thread: String,
    line: Option<u32>,
    creates: Vec<String>,
    values: Option<Vec<i128>>,
}

fn data(e: &Elem) -> BTreeMap<String, Vec<String>> {
    let mut m: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for d in e.all("data") {
        if let Some(k) = d.attr("key") {
            m.entry(k.to_string())
                .or_default()
                .push(d.text.trim().to_string());
        }
    }
    m
}

/// The values of an edge: our own key, else `\result == v;`.
fn values(d: &BTreeMap<String, Vec<String>>, n: usize) -> Result<Option<Vec<i128>>, String> {
    if let Some(v) = d.get("seqc-values").and_then(|v| v.first()) {
        return v
            .split(',')
            .map(|x| x.trim().parse::<i128>())
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
            .map_err(|_| format!("edge {n}: seqc-values '{v}' is not a list of integers"));
    }
    let Some(a) = d.get("assumption").and_then(|v| v.first()) else {
        return Ok(None);
    };
    // A floating draw is given as its value; the oracle takes its bits.
    let float = d
        .get("assumption.resultfunction")
        .and_then(|v| v.first())
        .and_then(|f| super::float_draw(f));
    let parse = |s: &str| -> Option<i128> {
        let s = s.trim().trim_end_matches(';').trim();
        let r = s
            .strip_prefix("\\result")?
            .trim_start()
            .strip_prefix("==")?;
        let r = r.trim().trim_start_matches('(').trim_end_matches(')');
        match float {
            Some(FloatKind::Float) => {
                let r = r.trim_end_matches(['f', 'F']);
                Some(r.parse::<f32>().ok()?.to_bits() as i128)
            }
            Some(_) => Some(r.parse::<f64>().ok()?.to_bits() as i128),
            None => r.trim_end_matches(['u', 'U', 'l', 'L']).parse().ok(),
        }
    };
    Ok(parse(a).map(|v| vec![v]))
}

/// GraphML's own rule, which the witness format builds on: every `data`
/// names a `key` declared for its kind of element (`graph`, `node`,
/// `edge`, or `all`), and its value fits the key's `attr.type`.
fn declared(root: &Elem, graph: &Elem) -> Result<(), String> {
    let mut keys: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
    for k in root.all("key") {
        let id = k.attr("id").ok_or("a <key> without an id")?;
        keys.insert(
            id,
            (
                k.attr("for").unwrap_or("all"),
                k.attr("attr.type").unwrap_or("string"),
            ),
        );
    }
    let check = |e: &Elem, kind: &str| -> Result<(), String> {
        for d in e.all("data") {
            let k = d.attr("key").ok_or("a <data> without a key")?;
            let Some((f, ty)) = keys.get(k) else {
                return Err(format!("<{kind}> has data '{k}', which no <key> declares"));
            };
            if *f != kind && *f != "all" {
                return Err(format!("key '{k}' is declared for <{f}>, used on <{kind}>"));
            }
            let v = d.text.trim();
            let fits = match *ty {
                "int" | "long" => v.parse::<i64>().is_ok(),
                "boolean" => v == "true" || v == "false",
                "float" | "double" => v.parse::<f64>().is_ok(),
                _ => true,
            };
            if !fits {
                return Err(format!("key '{k}' is of type {ty}, its value is '{v}'"));
            }
        }
        Ok(())
    };
    check(graph, "graph")?;
    for n in graph.all("node") {
        check(n, "node")?;
    }
    for e in graph.all("edge") {
        check(e, "edge")?;
    }
    Ok(())
}

/// Checks a witness against the program it claims to be for. `bytes` is
/// the program as given (for its hash); `prog` the input as the oracle
/// runs it.
pub fn validate(
    prog: &Program,
    bytes: &[u8],
    witness: &str,
    unwind: u32,
    threads: u32,
) -> Result<Validation, String> {
    use Validation::NotConfirmed as No;
    let root = xml::parse(witness).map_err(|e| format!("the witness is not XML: {e}"))?;
    if xml::local(&root.name) != "graphml" {
        return Err(format!("the witness is <{}>, not <graphml>", root.name));
    }
    let graph = root
        .all("graph")
        .next()
        .ok_or("the witness has no <graph>")?;
    declared(&root, graph)?;
    let g = data(graph);
    for k in REQUIRED {
        if !g.contains_key(*k) {
            return Err(format!("the witness lacks the graph key '{k}'"));
        }
    }
    let one = |k: &str| {
        g.get(k)
            .and_then(|v| v.first())
            .cloned()
            .unwrap_or_default()
    };
    if one("witness-type") != "violation_witness" {
        return Err(format!(
            "witness-type is '{}': only violation witnesses are checked",
            one("witness-type")
        ));
    }
    let hash = program_hash(bytes);
    if !one("programhash").eq_ignore_ascii_case(&hash) {
        return Ok(No(format!(
            "the witness is for another program (programhash {}, this program's SHA-256 {hash})",
            one("programhash")
        )));
    }
    let num = |k: &str, d: u32| one(k).parse::<u32>().unwrap_or(d);
    let (unwind, threads) = (num("seqc-unwind", unwind), num("seqc-threads", threads));
    // The path from the entry node.
    let nodes: BTreeMap<String, BTreeMap<String, Vec<String>>> = graph
        .all("node")
        .filter_map(|n| Some((n.attr("id")?.to_string(), data(n))))
        .collect();
    let flag = |id: &str, k: &str| {
        nodes
            .get(id)
            .and_then(|d| d.get(k))
            .and_then(|v| v.first())
            .is_some_and(|v| v == "true")
    };
    let entries: Vec<&String> = nodes.keys().filter(|id| flag(id, "entry")).collect();
    let [entry] = entries.as_slice() else {
        return Err(format!(
            "the witness has {} entry nodes (exactly one expected)",
            entries.len()
        ));
    };
    let mut out: BTreeMap<&str, Vec<&Elem>> = BTreeMap::new();
    for e in graph.all("edge") {
        let s = e.attr("source").ok_or("an edge without a source")?;
        out.entry(s).or_default().push(e);
    }
    let mut edges = Vec::new();
    let mut at: &str = entry;
    let mut seen = std::collections::BTreeSet::new();
    while let Some(es) = out.get(at) {
        if !seen.insert(at) {
            return Err("the witness has a cycle: only path-shaped witnesses are checked".into());
        }
        let [e] = es.as_slice() else {
            return Err(format!(
                "node {at} has {} outgoing edges: only path-shaped witnesses are checked",
                es.len()
            ));
        };
        let d = data(e);
        let n = edges.len() + 1;
        let thread = d
            .get("threadId")
            .and_then(|v| v.first())
            .cloned()
            .ok_or_else(|| format!("edge {n} has no threadId"))?;
        let line = match d.get("startline").and_then(|v| v.first()) {
            Some(l) => Some(
                l.parse::<u32>()
                    .map_err(|_| format!("edge {n}: startline '{l}' is not a line number"))?,
            ),
            None => None,
        };
        edges.push(Edge {
            thread,
            line,
            creates: d.get("createThread").cloned().unwrap_or_default(),
            values: values(&d, n)?,
        });
        at = e.attr("target").ok_or("an edge without a target")?;
    }
    if !flag(at, "violation") {
        return Ok(No(format!(
            "the path from the entry node ends in node {at}, which is not a violation node"
        )));
    }
    // Witness thread names to oracle ids: the first edge's thread is
    // main (0); the rest are numbered as their creates come.
    let mut ids: BTreeMap<String, u32> = BTreeMap::new();
    if let Some(e) = edges.first() {
        ids.insert(e.thread.clone(), 0);
    }
    let mut next = 1;
    let mut assigned: Vec<Vec<u32>> = Vec::new();
    let mut sched = Schedule::default();
    for (n, e) in edges.iter().enumerate() {
        let Some(&t) = ids.get(&e.thread) else {
            return Ok(No(format!(
                "edge {}: thread '{}' runs before any edge creates it",
                n + 1,
                e.thread
            )));
        };
        let mut made = Vec::new();
        for c in &e.creates {
            ids.insert(c.clone(), next);
            made.push(next);
            next += 1;
        }
        assigned.push(made);
        match sched.segments.last_mut() {
            Some(s) if s.thread == t => s.steps = s.steps.map(|k| k + 1),
            _ => sched.segments.push(Segment {
                thread: t,
                round: None,
                steps: Some(1),
                until: None,
            }),
        }
        sched
            .nondet
            .entry(t)
            .or_default()
            .extend(e.values.iter().flatten());
    }
    let prep = crate::oracle::prepare(prog).map_err(|d| d.message)?;
    let b = Bounds {
        unwind,
        threads,
        ..Default::default()
    };
    let r = prep.replay(&b, &sched).map_err(|d| d.message)?;
    let (loc, trace) = match r {
        ReplayOutcome::Confirmed { loc, trace, .. } => (loc, trace),
        ReplayOutcome::NotReproduced(why) => {
            return Ok(No(format!("the run does not reach a violation: {why}")));
        }
    };
    // The run must be the witness's, step for step.
    let main_file = prog.files.first().map(String::as_str);
    for (n, (s, e)) in trace.iter().zip(&edges).enumerate() {
        if let Some(l) = e.line
            && Some(prog.file_name(s.loc.file)) == main_file
            && s.loc.line != l
        {
            return Ok(No(format!(
                "edge {}: thread '{}' is at line {}, the witness says line {l}",
                n + 1,
                e.thread,
                s.loc.line
            )));
        }
        if s.created != assigned[n] {
            return Ok(No(format!(
                "edge {}: thread '{}' creates {} thread(s) there, the witness says {}",
                n + 1,
                e.thread,
                s.created.len(),
                e.creates.len()
            )));
        }
    }
    if trace.len() < edges.len() {
        // The violation came earlier than the witness says: still the
        // witness's run (its prefix matched), still a violation.
        return Ok(Validation::Confirmed(format!(
            "{} (after {} of the witness's {} steps)",
            prog.describe(loc),
            trace.len(),
            edges.len()
        )));
    }
    Ok(Validation::Confirmed(prog.describe(loc)))
}
