//! What seqc leaves behind when it is stopped: child processes and
//! temporary files. Every child runs in a process group of its own (a
//! checker's own children go with it), with the parent-death signal set
//! (an orphan dies even when seqc is killed by SIGKILL) and its own
//! limits; every temporary path is registered while it exists. On
//! SIGINT, SIGTERM or SIGHUP, `install_signal_handlers`' thread kills the
//! groups, removes the paths and ends seqc by the same signal.
//!
//! The registry lock is held while a child is started, and the signal
//! thread keeps it to the end, so no child starts after the sweep.

use std::io;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

#[derive(Default)]
struct Registry {
    /// Process groups of running children (each child leads its own).
    groups: Vec<i32>,
    /// Temporary files and directories, removed on a signal.
    paths: Vec<PathBuf>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: Vec::new(),
    paths: Vec::new(),
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Limits a child gets for itself, so that it ends even if seqc cannot
/// end it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    /// CPU seconds (SIGXCPU, then SIGKILL a second later).
    pub cpu_seconds: Option<u64>,
    /// Bytes of address space.
    pub memory_bytes: Option<u64>,
}

/// A running child; dropping it kills its process group.
pub struct Running {
    pub child: Child,
    group: i32,
}

impl Running {
    /// Kills the child and everything it started.
    pub fn kill_group(&mut self) {
        kill_group(self.group);
        let _ = self.child.kill();
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // A reaped leader's number may be another process's by now.
        if matches!(self.child.try_wait(), Ok(None)) {
            self.kill_group();
            let _ = self.child.wait();
        }
        registry().groups.retain(|&g| g != self.group);
    }
}

fn kill_group(group: i32) {
    if group > 0 {
        // SAFETY: kill(2) with a negative pid signals a process group.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
}

/// Starts `cmd` in a new process group with the parent-death signal and
/// `limits`, and registers the group until the returned value drops.
pub fn spawn(cmd: &mut Command, limits: Limits) -> io::Result<Running> {
    use std::os::unix::process::CommandExt;
    // SAFETY: getpid(2) has no preconditions.
    let parent = unsafe { libc::getpid() };
    cmd.process_group(0);
    // SAFETY: the closure runs between fork and exec and only makes
    // async-signal-safe system calls.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            // seqc died before the signal was armed.
            if libc::getppid() != parent {
                return Err(io::Error::other("parent exited"));
            }
            if let Some(s) = limits.cpu_seconds {
                let r = libc::rlimit {
                    rlim_cur: s,
                    rlim_max: s + 1,
                };
                libc::setrlimit(libc::RLIMIT_CPU, &r);
            }
            if let Some(b) = limits.memory_bytes {
                let r = libc::rlimit {
                    rlim_cur: b,
                    rlim_max: b,
                };
                libc::setrlimit(libc::RLIMIT_AS, &r);
            }
            Ok(())
        });
    }
    let mut reg = registry();
    let child = cmd.spawn()?;
    let group = child.id() as i32;
    reg.groups.push(group);
    Ok(Running { child, group })
}

/// A temporary directory that a signal removes too.
pub struct TempDir {
    dir: Option<tempfile::TempDir>,
}

impl TempDir {
    pub fn new(prefix: &str) -> io::Result<TempDir> {
        let mut reg = registry();
        let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
        reg.paths.push(dir.path().to_path_buf());
        Ok(TempDir { dir: Some(dir) })
    }

    pub fn path(&self) -> &Path {
        self.dir.as_ref().unwrap().path()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let dir = self.dir.take().unwrap();
        let p = dir.path().to_path_buf();
        drop(dir);
        registry().paths.retain(|x| *x != p);
    }
}

/// A path (a file being written) that a signal removes until `release`.
pub struct PathGuard(PathBuf);

impl PathGuard {
    pub fn new(p: &Path) -> PathGuard {
        registry().paths.push(p.to_path_buf());
        PathGuard(p.to_path_buf())
    }
}

impl Drop for PathGuard {
    fn drop(&mut self) {
        registry().paths.retain(|x| *x != self.0);
    }
}

/// Kills every registered child group (a deadline passed).
pub fn kill_children() {
    let reg = registry();
    for &g in &reg.groups {
        kill_group(g);
    }
}

/// Kills the children, removes the temporary paths and ends the process
/// with `code`, never returning: the registry stays locked, so nothing
/// starts after the sweep.
pub fn exit_now(code: i32) -> ! {
    let reg = registry();
    sweep(&reg);
    std::process::exit(code)
}

fn sweep(reg: &Registry) {
    for &g in &reg.groups {
        kill_group(g);
    }
    for p in &reg.paths {
        if p.is_dir() {
            let _ = std::fs::remove_dir_all(p);
        } else {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Blocks SIGINT, SIGTERM and SIGHUP in this thread (and so in every
/// thread it starts later) and starts a thread that waits for them. Call
/// it first in `main`, before any other thread exists.
pub fn install_signal_handlers() {
    // SAFETY: plain sigset manipulation on a local set.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, s);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        set
    };
    let started = std::thread::Builder::new()
        .name("seqc-signals".into())
        .spawn(move || {
            let mut sig = 0;
            // SAFETY: `set` is a valid signal set; sigwait writes `sig`.
            while unsafe { libc::sigwait(&set, &mut sig) } != 0 {}
            let reg = registry();
            sweep(&reg);
            // End by the signal itself, so the caller sees how seqc died.
            // SAFETY: restoring the default action and unblocking in this
            // thread, then raising the signal here.
            unsafe {
                libc::signal(sig, libc::SIG_DFL);
                let mut one: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut one);
                libc::sigaddset(&mut one, sig);
                libc::pthread_sigmask(libc::SIG_UNBLOCK, &one, std::ptr::null_mut());
                libc::raise(sig);
            }
            std::thread::sleep(Duration::from_millis(100));
            std::process::exit(128 + sig);
        });
    if started.is_err() {
        // No thread, no handler: let the signals act as before.
        // SAFETY: as above.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::sigaddset(&mut set, s);
            }
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}

/// A path as a child's argument: a relative one (from a relative
/// TMPDIR, say) gets `./`, so that no tool reads it as an option.
pub fn arg_path(p: &Path) -> String {
    let s = p.to_string_lossy().into_owned();
    if p.is_absolute() { s } else { format!("./{s}") }
}
