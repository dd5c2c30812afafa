//! `-o FILE`: the whole new file or the old one, never a prefix. The text
//! goes to a temporary file beside the target (same file system, so the
//! rename is atomic), is flushed to disk, and replaces the target only
//! when all of it was written; a signal removes the temporary file
//! (`cleanup`), and a full disk leaves the old file as it was. A device
//! or a pipe is written into as it is.

use crate::diag::{Diagnostic, Result};
use std::io::Write;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

/// Whether `out` names the same file as `input` (an existing file only).
pub fn same_file(out: &str, input: &str) -> bool {
    match (std::fs::metadata(out), std::fs::metadata(input)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Writes `bytes` to `path` atomically. A symbolic link is followed, so
/// the file it names is replaced and the link stays.
pub fn write_atomic(path: &str, bytes: &[u8]) -> Result<()> {
    let fail = |e: std::io::Error| Diagnostic::input(format!("cannot write '{path}': {e}"));
    let target = resolve_link(Path::new(path));
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let base = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".into());
    let old = std::fs::metadata(&target).ok();
    if old.as_ref().is_some_and(|m| m.is_dir()) {
        return Err(Diagnostic::input(format!(
            "cannot write '{path}': a directory"
        )));
    }
    if old.as_ref().is_some_and(|m| !m.is_file()) {
        // A device or a pipe (`-o /dev/null`) is written into: renaming
        // over it would replace the device with a file.
        return std::fs::OpenOptions::new()
            .write(true)
            .open(&target)
            .and_then(|mut f| f.write_all(bytes).and_then(|_| f.flush()))
            .map_err(fail);
    }
    let (tmp, mut f) = (0..100)
        .find_map(|n| {
            let tmp = dir.join(format!(".{base}.seqc-{}-{n}.tmp", std::process::id()));
            // Registered before it exists, so a signal never misses it.
            let guard = crate::cleanup::PathGuard::new(&tmp);
            let f = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(old.as_ref().map_or(0o666, |m| m.mode() & 0o7777))
                .open(&tmp);
            match f {
                Ok(f) => Some(Ok(((tmp, guard), f))),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => None,
                Err(e) => Some(Err(e)),
            }
        })
        .unwrap_or_else(|| Err(std::io::Error::other("no free temporary name")))
        .map_err(fail)?;
    let written = f
        .write_all(bytes)
        .and_then(|_| f.sync_all())
        .and_then(|_| std::fs::rename(&tmp.0, &target));
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp.0);
        return Err(fail(e));
    }
    Ok(())
}

/// The file a chain of symbolic links ends at (the path itself if none).
fn resolve_link(p: &Path) -> PathBuf {
    let mut p = p.to_path_buf();
    for _ in 0..40 {
        match std::fs::read_link(&p) {
            Ok(t) => {
                p = match p.parent() {
                    Some(d) if t.is_relative() => d.join(t),
                    _ => t,
                }
            }
            Err(_) => break,
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_whole_file_and_leaves_no_temporary() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("out.c");
        std::fs::write(&p, "old").unwrap();
        write_atomic(p.to_str().unwrap(), b"new text").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new text");
        assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 1);
    }
}
