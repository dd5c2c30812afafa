//! Checkers as child processes: where the tools are, running one under
//! a time limit in its own process group (seqc's signal handling sweeps
//! it), and how it ended.

use super::*;
use crate::deadline::Cancel;

/// Where the external tools are: `$SEQC_TOOLS/bin`, then
/// `~/.local/seqc-tools/bin` (what scripts/install-checkers fills), then PATH.
pub fn find_tool(name: &str) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(t) = std::env::var_os("SEQC_TOOLS") {
        dirs.push(Path::new(&t).join("bin"));
    }
    if let Some(h) = std::env::var_os("HOME") {
        dirs.push(Path::new(&h).join(".local/seqc-tools/bin"));
    }
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter().map(|d| d.join(name)).find(|c| c.is_file())
}

pub(super) fn tool(name: &str) -> Result<PathBuf> {
    find_tool(name).ok_or_else(|| {
        Diagnostic::input(format!(
            "'{name}' not found (run scripts/install-checkers, or put it on PATH)"
        ))
    })
}

pub(super) struct RunOut {
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
    /// Stopped because another member of the portfolio answered.
    pub cancelled: bool,
    /// The signal that ended the tool, if one did (and not our timeout).
    signal: Option<i32>,
}

impl RunOut {
    /// Why the tool gave no answer when a signal ended it: its output is
    /// cut short then, and reading it would blame the output instead.
    pub(super) fn killed(&self, name: &str) -> Option<String> {
        let sig = self.signal?;
        let why = match sig {
            9 => " (SIGKILL: usually the kernel's out-of-memory killer)",
            6 => " (SIGABRT)",
            11 => " (SIGSEGV)",
            _ => "",
        };
        Some(format!("{name} was killed by signal {sig}{why}"))
    }
}

/// `text` written to `name` in a fresh temporary directory (removed when
/// the guard drops, or by the signal sweep), and the path as an argument.
pub(super) fn scratch_file(name: &str, text: &str) -> Result<(crate::cleanup::TempDir, String)> {
    let dir = crate::cleanup::TempDir::new(".seqc")
        .map_err(|e| Diagnostic::input(format!("temporary directory: {e}")))?;
    let file = dir.path().join(name);
    std::fs::write(&file, text).map_err(|e| Diagnostic::input(format!("writing {name}: {e}")))?;
    let f = crate::cleanup::arg_path(&file);
    Ok((dir, f))
}

/// Runs a tool in a process group of its own (see `cleanup`) under
/// `timeout`, cut to what is left of `--timeout`; a timeout kills the
/// whole group, the tool's own children with it. The tool's TMPDIR is
/// `scratch`: CBMC's preprocessor files stay in /tmp when it is killed.
pub(super) fn run(
    cmd: &Path,
    args: &[&str],
    scratch: &crate::cleanup::TempDir,
    timeout: Option<Duration>,
    cancel: &Cancel,
) -> Result<RunOut> {
    let timeout = crate::deadline::cap(timeout);
    let mut command = Command::new(cmd);
    command
        .args(args)
        .env("TMPDIR", scratch.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // An orphan still ends: a few seconds of CPU past the time limit.
    let limits = crate::cleanup::Limits {
        cpu_seconds: timeout.map(|t| t.as_secs() + 5),
        memory_bytes: None,
    };
    let mut running = crate::cleanup::spawn(&mut command, limits)
        .map_err(|e| Diagnostic::input(format!("cannot run '{}': {e}", cmd.display())))?;
    let child = &mut running.child;
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let ho = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let he = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let mut cancelled = false;
    let mut signal = None;
    loop {
        match running.child.try_wait() {
            Ok(Some(st)) => {
                signal = exit_signal(&st);
                // The CPU limit is a time limit too.
                if signal == Some(libc::SIGXCPU) {
                    timed_out = true;
                    signal = None;
                }
                break;
            }
            Ok(None) => {}
            Err(e) => {
                return Err(Diagnostic::input(format!(
                    "waiting for '{}': {e}",
                    cmd.display()
                )));
            }
        }
        if timeout.is_some_and(|t| start.elapsed() > t) {
            running.kill_group();
            let _ = running.child.wait();
            timed_out = true;
            break;
        }
        if cancel.is_cancelled() {
            running.kill_group();
            let _ = running.child.wait();
            cancelled = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    // Whatever the tool started and left behind goes with its group.
    drop(running);
    Ok(RunOut {
        stdout: ho.join().unwrap_or_default(),
        stderr: he.join().unwrap_or_default(),
        timed_out,
        cancelled,
        signal,
    })
}

#[cfg(unix)]
pub(super) fn exit_signal(st: &std::process::ExitStatus) -> Option<i32> {
    std::os::unix::process::ExitStatusExt::signal(st)
}

#[cfg(not(unix))]
pub(super) fn exit_signal(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

/// How long a run was allowed: `--timeout` when it bounds the command,
/// else the run's own limit.
pub(super) fn timeout_text(t: Option<Duration>) -> String {
    match crate::deadline::get() {
        Some((_, total)) => format!("{} s (--timeout bounds the whole command)", total.as_secs()),
        None => format!("{} s", t.map(|t| t.as_secs_f64()).unwrap_or(0.0)),
    }
}

pub(super) fn first_line(s: &str) -> String {
    s.trim()
        .lines()
        .next()
        .unwrap_or("no output")
        .chars()
        .take(200)
        .collect()
}
