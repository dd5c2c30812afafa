//! The SMT route: the script of `bmc` to a solver, its answer and model
//! values read back.

use super::*;

pub(super) fn check_smt(
    built: &Built,
    input: &str,
    cfg: &Config,
    opts: &CheckOptions,
    b: Backend,
) -> Result<(Outcome, Vec<Step>)> {
    let p = &built.prog;
    // One budget for encoding and solving together.
    let deadline = opts.timeout.map(|t| std::time::Instant::now() + t);
    let enc = bmc::encode(
        p,
        &bmc::Options {
            deadline,
            unwind: built.smt_unwind,
            unwinding_assertions: opts.unwinding_assertions,
            int: cfg.int,
            source: cfg.source_text(input),
        },
    );
    let enc = match enc {
        Ok(e) => e,
        Err(bmc::EncodeError::GaveUp(why)) => {
            return Ok((Outcome::Unknown(format!("timed out: {why}")), Vec::new()));
        }
        Err(bmc::EncodeError::Refused(d)) => return Err(d),
    };
    let goals: &[Goal] = if opts.unwinding_assertions {
        &[Goal::Violation, Goal::BoundTooSmall]
    } else {
        &[Goal::Violation]
    };
    for &goal in goals {
        let script = enc.script(goal, None, true);
        let left = deadline.map(|d| {
            d.saturating_duration_since(std::time::Instant::now())
                .max(std::time::Duration::from_secs(1))
        });
        match solve(b, &script, left)? {
            Answer::Sat(values) => {
                let trace = enc.trace(p, goal, &values);
                let o = match goal {
                    Goal::Violation => Outcome::Violation,
                    Goal::BoundTooSmall => Outcome::BoundTooSmall,
                };
                return Ok((o, trace));
            }
            Answer::Unsat => continue,
            Answer::Unknown(why) => return Ok((Outcome::Unknown(why), Vec::new())),
        }
    }
    Ok((Outcome::Safe, Vec::new()))
}

pub enum Answer {
    Sat(Vec<String>),
    Unsat,
    Unknown(String),
}

/// Runs a solver on a script (with `(get-value ...)` after `(check-sat)`).
pub fn solve(b: Backend, script: &str, timeout: Option<Duration>) -> Result<Answer> {
    let (_dir, f) = process::scratch_file("query.smt2", script)?;
    let (exe, args): (PathBuf, Vec<&str>) = match b {
        Backend::Z3 => (tool("z3")?, vec!["-smt2", &f]),
        Backend::Cvc5 => (tool("cvc5")?, vec!["--lang", "smt2", &f]),
        Backend::Bitwuzla => (tool("bitwuzla")?, vec![&f]),
        Backend::Cbmc => unreachable!("cbmc is not an SMT solver"),
    };
    let out = run(&exe, &args, timeout)?;
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
