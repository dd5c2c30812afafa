//! The SMT route: the script of `bmc` to one solver or several at once
//! (the first to answer sat or unsat wins), its answer and model values
//! read back.

use super::*;
use crate::deadline::Cancel;

/// Encodes once and runs `solvers` on each goal's script; the answer,
/// its trace and the solver that gave it.
pub(super) fn check_smt(
    built: &Built,
    input: &str,
    cfg: &Config,
    opts: &CheckOptions,
    solvers: &[Backend],
    cancel: &Cancel,
) -> Result<(Outcome, Vec<Step>, Backend)> {
    let p = &built.prog;
    let first = solvers[0];
    // One budget for encoding and solving together.
    let deadline = opts.timeout.map(|t| std::time::Instant::now() + t);
    let enc = bmc::encode(
        p,
        &bmc::Options {
            deadline,
            cancel: Some(cancel.clone()),
            unwind: built.smt_unwind,
            unwinding_assertions: opts.unwinding_assertions,
            int: cfg.int,
            source: cfg.source_text(input),
        },
    );
    let enc = match enc {
        Ok(e) => e,
        Err(bmc::EncodeError::GaveUp(why)) => {
            return Ok((
                Outcome::Unknown(format!("timed out: {why}")),
                Vec::new(),
                first,
            ));
        }
        Err(bmc::EncodeError::Refused(d)) => return Err(d),
    };
    let goals: &[Goal] = if opts.unwinding_assertions {
        &[Goal::Violation, Goal::BoundTooSmall]
    } else {
        &[Goal::Violation]
    };
    let mut by = first;
    for &goal in goals {
        let script = enc.script(goal, None, true);
        let left = deadline.map(|d| {
            d.saturating_duration_since(std::time::Instant::now())
                .max(std::time::Duration::from_secs(1))
        });
        let (answer, b) = solve_first(solvers, &script, left, cancel)?;
        by = b;
        match answer {
            Answer::Sat(values) => {
                let trace = enc.trace(p, goal, &values);
                let o = match goal {
                    Goal::Violation => Outcome::Violation,
                    Goal::BoundTooSmall => Outcome::BoundTooSmall,
                };
                return Ok((o, trace, b));
            }
            Answer::Unsat => continue,
            Answer::Unknown(why) => return Ok((Outcome::Unknown(why), Vec::new(), b)),
        }
    }
    Ok((Outcome::Safe, Vec::new(), by))
}

/// Runs the solvers at once on `script`; the first sat or unsat wins and
/// stops the others. With none: the first solver's unknown, or the first
/// error when every solver failed to run.
fn solve_first(
    solvers: &[Backend],
    script: &str,
    timeout: Option<Duration>,
    cancel: &Cancel,
) -> Result<(Answer, Backend)> {
    if let [b] = solvers {
        return solve(*b, script, timeout, cancel).map(|a| (a, *b));
    }
    let mine = cancel.child();
    let tasks: Vec<crate::par::Task<'_, Result<Answer>>> = solvers
        .iter()
        .map(|&b| {
            let mine = mine.clone();
            Box::new(move || solve(b, script, timeout, &mine)) as crate::par::Task<'_, _>
        })
        .collect();
    let (answers, winner) = crate::par::race(
        tasks,
        |a| matches!(a, Ok(Answer::Sat(_) | Answer::Unsat)),
        || mine.cancel(),
    );
    if let Some(i) = winner {
        let a = answers.into_iter().nth(i).unwrap();
        return a.map(|a| (a, solvers[i]));
    }
    let unknowns: Vec<String> = answers
        .iter()
        .zip(solvers)
        .filter_map(|(a, b)| match a {
            Ok(Answer::Unknown(w)) => Some(w.clone()),
            Err(d) => Some(format!("{}: {}", b.name(), d.message)),
            _ => None,
        })
        .collect();
    if answers.iter().all(Result::is_err) {
        let first = answers.into_iter().next().unwrap();
        return first.map(|a| (a, solvers[0]));
    }
    Ok((Answer::Unknown(unknowns.join("; ")), solvers[0]))
}

pub enum Answer {
    Sat(Vec<String>),
    Unsat,
    Unknown(String),
}

/// Runs a solver on a script (with `(get-value ...)` after `(check-sat)`).
pub fn solve(
    b: Backend,
    script: &str,
    timeout: Option<Duration>,
    cancel: &Cancel,
) -> Result<Answer> {
    let (dir, f) = process::scratch_file("query.smt2", script)?;
    let (exe, args): (PathBuf, Vec<&str>) = match b {
        // z3 picks a bit-blasting tactic for QF_ABV by itself; its
        // general SMT core answered the Lal-Reps scripts 1.5-6.5x faster
        // (48_ticket_lock 35 s -> 5.4 s, stack_longest-1 11.6 s -> 3.4 s).
        Backend::Z3 => (tool("z3")?, vec!["-smt2", "tactic.default_tactic=smt", &f]),
        Backend::Cvc5 => (tool("cvc5")?, vec!["--lang", "smt2", &f]),
        Backend::Bitwuzla => (tool("bitwuzla")?, vec![&f]),
        Backend::Cbmc => unreachable!("cbmc is not an SMT solver"),
    };
    let out = run(&exe, &args, &dir, timeout, cancel)?;
    if out.cancelled {
        return Ok(Answer::Unknown(format!(
            "{} stopped: another back end answered first",
            b.name()
        )));
    }
    if out.timed_out {
        return Ok(Answer::Unknown(format!(
            "{} timed out after {}",
            b.name(),
            timeout_text(timeout)
        )));
    }
    if let Some(why) = out.killed(b.name()) {
        return Ok(Answer::Unknown(why));
    }
    let mut lines = out.stdout.lines().filter(|l| !l.trim().is_empty());
    match lines.next().map(str::trim) {
        Some("sat") => {
            let rest: String = out
                .stdout
                .split_once("sat")
                .map(|x| x.1)
                .unwrap_or("")
                .to_string();
            match parse_values(&rest) {
                Some(v) => Ok(Answer::Sat(v)),
                None => Ok(Answer::Unknown(format!(
                    "{} answered sat but its model could not be read: {}",
                    b.name(),
                    first_line(&rest)
                ))),
            }
        }
        Some("unsat") => Ok(Answer::Unsat),
        Some("unknown") => Ok(Answer::Unknown(format!("{} answered unknown", b.name()))),
        other => Ok(Answer::Unknown(format!(
            "{} failed: {}",
            b.name(),
            first_line(other.unwrap_or(out.stderr.trim()))
        ))),
    }
}

pub(super) enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

impl Sx {
    pub(super) fn text(&self) -> String {
        match self {
            Sx::Atom(a) => a.clone(),
            Sx::List(v) => format!("({})", v.iter().map(Sx::text).collect::<Vec<_>>().join(" ")),
        }
    }
}

pub(super) fn parse_sx(s: &str) -> Option<Vec<Sx>> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut stack: Vec<Vec<Sx>> = vec![Vec::new()];
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' => {
                stack.push(Vec::new());
                i += 1;
            }
            b')' => {
                let l = stack.pop()?;
                stack.last_mut()?.push(Sx::List(l));
                i += 1;
            }
            c if c.is_ascii_whitespace() => i += 1,
            b'|' => {
                let j = s[i + 1..].find('|')? + i + 1;
                stack.last_mut()?.push(Sx::Atom(s[i..=j].to_string()));
                i = j + 1;
            }
            b'"' => {
                let j = s[i + 1..].find('"')? + i + 1;
                stack.last_mut()?.push(Sx::Atom(s[i..=j].to_string()));
                i = j + 1;
            }
            _ => {
                let j = s[i..]
                    .find(|ch: char| ch.is_ascii_whitespace() || ch == '(' || ch == ')')
                    .map(|k| k + i)
                    .unwrap_or(b.len());
                stack.last_mut()?.push(Sx::Atom(s[i..j].to_string()));
                i = j;
            }
        }
    }
    if stack.len() != 1 {
        return None;
    }
    stack.pop()
}

/// The values of a `(get-value ...)` answer, in order.
pub(super) fn parse_values(s: &str) -> Option<Vec<String>> {
    let top = parse_sx(s)?;
    let Some(Sx::List(pairs)) = top.into_iter().next() else {
        // No get-value (nothing to ask): an empty model.
        return Some(Vec::new());
    };
    pairs
        .iter()
        .map(|p| match p {
            Sx::List(v) if v.len() == 2 => Some(v[1].text()),
            _ => None,
        })
        .collect()
}
