//! The report as text and as JSON (`--json`).

use super::*;
use crate::ir::trace::verdict;

/// The verdict word every JSON report uses (`check`, `refine` and
/// `explore` alike; scripts and the BenchExec module read it).
pub fn verdict_word(o: &Outcome) -> &'static str {
    match o {
        Outcome::Safe => verdict::SUCCESSFUL,
        Outcome::Violation => verdict::FAILED,
        Outcome::Unknown(_) => verdict::UNKNOWN,
        Outcome::BoundTooSmall => verdict::INCONCLUSIVE,
    }
}

pub fn verdict_line(r: &Report) -> String {
    match &r.outcome {
        Outcome::Safe => format!(
            "VERIFICATION SUCCESSFUL (no violation with {})",
            r.bounds.text()
        ),
        Outcome::Violation => "VERIFICATION FAILED".into(),
        Outcome::Unknown(w) => format!("VERIFICATION UNKNOWN: {w}"),
        Outcome::BoundTooSmall => "VERIFICATION INCONCLUSIVE: bound too small".into(),
    }
}

pub(super) fn step_text(s: &Step) -> String {
    match &s.what {
        TraceWhat::Assign(l, v) => format!("{l} = {}", v.shown),
        TraceWhat::Call(f) => format!("call {f}"),
        TraceWhat::Return(f, Some(v)) => format!("return {} from {f}", v.shown),
        TraceWhat::Return(f, None) => format!("return from {f}"),
        TraceWhat::Fail(AssertKind::Assert) => "assertion fails".into(),
        TraceWhat::Fail(AssertKind::ReachError) => "error reached".into(),
        TraceWhat::Fail(AssertKind::Deadlock) => "deadlock".into(),
        TraceWhat::Fail(
            k @ (AssertKind::Lock(_)
            | AssertKind::Overflow
            | AssertKind::InvalidDeref
            | AssertKind::InvalidFree
            | AssertKind::MemTrack),
        ) => k.what(),
        TraceWhat::Cut => "the unwinding bound cuts this path".to_string(),
        TraceWhat::Nondet(v) => format!("nondet value {v}"),
    }
}

pub fn render(r: &Report) -> String {
    let mut s = render_main(r);
    if !r.steps.is_empty() {
        s.push_str(&format!(
            "\nBounds searched (--bounds auto, {:.2} s):\n",
            r.seconds
        ));
        for st in &r.steps {
            let what = match &st.outcome {
                Outcome::Safe => "no violation".to_string(),
                Outcome::Violation => "violation".to_string(),
                Outcome::BoundTooSmall => "bound too small".to_string(),
                Outcome::Unknown(w) => format!("unknown: {w}"),
            };
            s.push_str(&format!(
                "  {}: {what} ({}, {:.2} s)\n",
                st.bounds.text(),
                st.backend.name(),
                st.seconds
            ));
        }
    }
    s
}

fn render_main(r: &Report) -> String {
    let mut s = verdict_line(r);
    s.push('\n');
    if let Some(c) = &r.concurrent {
        if let Some(race) = &c.race {
            s.push_str("\ndata race:\n");
            for a in race {
                s.push_str(&format!(
                    "  {}: thread {} ({}) {}\n",
                    a.at,
                    a.thread,
                    a.thread_func,
                    if a.write { "writes" } else { "reads" }
                ));
                if let Some(src) = &a.source_line {
                    s.push_str(&format!("    {src}\n"));
                }
            }
        } else if let Some(waits) = &c.deadlock {
            s.push_str(&format!("\ndeadlock: {}\n", waits.join("; ")));
        } else if let Some(what) = &c.said {
            s.push_str(&format!(
                "\n{}: {what} (thread {}, {})\n",
                c.at, c.thread, c.thread_func
            ));
            if let Some(src) = &r.source_line {
                s.push_str(&format!("  {src}\n"));
            }
        } else {
            s.push_str(&format!(
                "\n{}: assertion fails in thread {} ({})\n",
                c.at, c.thread, c.thread_func
            ));
            if let Some(src) = &r.source_line {
                s.push_str(&format!("  {src}\n"));
            }
        }
        s.push_str(&format!(
            "Concurrent trace ({}, replayed on the input):\n",
            r.backend.name()
        ));
        s.push_str(&c.text);
        return s;
    }
    if let Some((at, said)) = &r.failed_at {
        let what = said.as_deref().unwrap_or("assertion fails");
        s.push_str(&format!("\n{at}: {what}\n"));
        if let Some(src) = &r.source_line {
            s.push_str(&format!("  {src}\n"));
        }
    }
    if r.trace.is_empty() {
        return s;
    }
    s.push_str(&format!("\nTrace ({}):\n", r.backend.name()));
    let w = r
        .trace
        .iter()
        .map(|t| format!("{}:{}", t.file, t.line).len())
        .max()
        .unwrap_or(0);
    for (i, t) in r.trace.iter().enumerate() {
        let at = format!("{}:{}", t.file, t.line);
        let indent = "  ".repeat(t.depth.saturating_sub(1) as usize);
        let mut line = format!("  {at:<w$}  {indent}{}", step_text(t));
        if i + 1 == r.trace.len()
            && r.failed_at.is_none()
            && let Some(src) = &r.source_line
        {
            line.push_str(&format!(": {src}"));
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

pub fn render_json(r: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&report_json(r)).unwrap();
    s.push('\n');
    s
}

/// The report as one JSON value (`refine` embeds it as is).
pub fn report_json(r: &Report) -> serde_json::Value {
    use serde_json::json;
    let trace: Vec<serde_json::Value> = r
        .trace
        .iter()
        .map(|t| {
            let mut o = json!({"file": t.file, "line": t.line, "col": t.col, "depth": t.depth});
            let m = o.as_object_mut().unwrap();
            match &t.what {
                TraceWhat::Assign(l, v) => {
                    m.insert("kind".into(), json!("assign"));
                    m.insert("lhs".into(), json!(l));
                    m.insert("value".into(), json!(v.shown));
                }
                TraceWhat::Call(f) => {
                    m.insert("kind".into(), json!("call"));
                    m.insert("function".into(), json!(f));
                }
                TraceWhat::Return(f, v) => {
                    m.insert("kind".into(), json!("return"));
                    m.insert("function".into(), json!(f));
                    if let Some(v) = v {
                        m.insert("value".into(), json!(v.shown));
                    }
                }
                TraceWhat::Fail(_) => {
                    m.insert("kind".into(), json!("failure"));
                }
                TraceWhat::Cut => {
                    m.insert("kind".into(), json!("cut"));
                }
                TraceWhat::Nondet(v) => {
                    m.insert("kind".into(), json!("nondet"));
                    m.insert("value".into(), json!(v.to_string()));
                }
            }
            o
        })
        .collect();
    let verdict = verdict_word(&r.outcome);
    let mut o = json!({
        "verdict": verdict,
        "summary": verdict_line(r),
        "backend": r.backend.name(),
        "bounds": r.bounds.json(),
        "seconds": (r.seconds * 1000.0).round() / 1000.0,
        "trace": trace,
    });
    if let Outcome::Unknown(w) = &r.outcome {
        o["reason"] = json!(w);
    }
    if !r.steps.is_empty() {
        o["steps"] = r
            .steps
            .iter()
            .map(|st| {
                let mut j = json!({
                    "bounds": st.bounds.json(),
                    "verdict": verdict_word(&st.outcome),
                    "backend": st.backend.name(),
                    "seconds": (st.seconds * 1000.0).round() / 1000.0,
                });
                if let Outcome::Unknown(w) = &st.outcome {
                    j["reason"] = json!(w);
                }
                j
            })
            .collect();
    }
    if let Some(n) = r.switch_points {
        o["switch_points"] = json!(n);
    }
    if let Some(s) = &r.slice {
        o["slice"] = json!({
            "tracked": s.tracked,
            "sliced": s.sliced,
            "reads_havocked": s.reads_havocked,
            "writes_dropped": s.writes_dropped,
            "loops_summarised": s.loops_summarised,
            "kept_whatever_tracked": s.pinned,
        });
    }
    if let Some(h) = &r.spurious {
        o["spurious"] = json!(true);
        o["havocked_near_failure"] = json!(h.iter().map(|(c, _)| c).collect::<Vec<_>>());
    }
    if let Some((at, said)) = &r.failed_at {
        o["at"] = json!(at);
        if let Some(w) = said {
            o["kind"] = json!(w.split(':').next().unwrap_or_default());
            o["message"] = json!(w);
        }
    }
    if let Some(c) = &r.concurrent {
        o["concurrent"] = json!({
            "at": c.at,
            "thread": c.thread,
            "function": c.thread_func,
            "replayed": true,
            "trace": c.json,
        });
        if let Some(w) = &c.deadlock {
            o["kind"] = json!("deadlock");
            o["deadlock"] = json!(w);
        }
        if let Some(w) = &c.said {
            let kind = w.split(':').next().unwrap_or_default();
            o["kind"] = json!(kind);
            o[match kind {
                "overflow" => "overflow",
                "valid-deref" | "valid-free" => "memory",
                _ => "lock",
            }] = json!(w);
        }
        if let Some(race) = &c.race {
            o["race"] = json!(
                race.iter()
                    .map(|a| json!({
                        "at": a.at,
                        "thread": a.thread,
                        "function": a.thread_func,
                        "access": if a.write { "write" } else { "read" },
                    }))
                    .collect::<Vec<_>>()
            );
        }
    }
    o
}
