//! Diagnostics for users: `file:line:col: error: message`, the source line
//! and a caret. Every error seqc reports to a user is one of these; internal
//! invariant breaks are panics instead.

use std::fmt;

/// What went wrong, which decides the exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagKind {
    /// Bad options, unreadable files, malformed C: exit 1.
    Input,
    /// C that seqc does not handle, rejected by name: exit 2.
    Unsupported,
    /// A feature of a later milestone: exit 1.
    NotYet,
    /// seqc contradicted itself (a counterexample that does not replay):
    /// exit 3. Never reported as a verdict.
    Internal,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: DiagKind,
    pub message: String,
    /// `(path, line, col)` when the error is in the input.
    pub pos: Option<(String, u32, u32)>,
    /// The offending source line, for the caret.
    pub source_line: Option<String>,
}

impl Diagnostic {
    pub fn input(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind: DiagKind::Input,
            message: message.into(),
            pos: None,
            source_line: None,
        }
    }

    pub fn unsupported(what: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind: DiagKind::Unsupported,
            message: format!("unsupported: {}", what.into()),
            pos: None,
            source_line: None,
        }
    }

    pub fn not_yet(what: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind: DiagKind::NotYet,
            message: format!("{} is not supported yet", what.into()),
            pos: None,
            source_line: None,
        }
    }

    pub fn internal(what: impl Into<String>) -> Diagnostic {
        Diagnostic {
            kind: DiagKind::Internal,
            message: format!("internal error: {}", what.into()),
            pos: None,
            source_line: None,
        }
    }

    pub fn at(mut self, path: impl Into<String>, line: u32, col: u32) -> Diagnostic {
        self.pos = Some((path.into(), line, col));
        self
    }

    pub fn with_source_line(mut self, line: Option<String>) -> Diagnostic {
        self.source_line = line;
        self
    }

    pub fn exit_code(&self) -> i32 {
        match self.kind {
            DiagKind::Input | DiagKind::NotYet => 1,
            DiagKind::Unsupported => 2,
            DiagKind::Internal => 3,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.pos {
            Some((p, l, c)) => write!(f, "{p}:{l}:{c}: error: {}", self.message)?,
            None => write!(f, "seqc: error: {}", self.message)?,
        }
        if let (Some(src), Some((_, _, col))) = (&self.source_line, &self.pos) {
            let src: String = src.chars().take(200).collect();
            let pad: String = src
                .chars()
                .take((*col as usize).saturating_sub(1))
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            write!(f, "\n  {src}\n  {pad}^")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

pub type Result<T> = std::result::Result<T, Diagnostic>;
