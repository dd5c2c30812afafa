//! Byte offsets of the preprocessed text back to the user's files and lines,
//! through the `# N "file" flags` markers gcc writes. Built once; each lookup
//! is a binary search (lang-c's own lookup rescans from the start).

use crate::ir::{FileId, Loc};

pub struct SourceMap {
    /// Byte offset where each preprocessed line starts.
    line_starts: Vec<usize>,
    /// For each preprocessed line: (file, line in that file); line 0 for
    /// marker lines.
    origin: Vec<(u32, u32)>,
    pub files: Vec<String>,
    /// Flag 3 on a marker: the file is a system header.
    pub system: Vec<bool>,
    /// The original lines of the files, when readable, for carets.
    text: String,
    /// The line of the last lookup: lowering asks in source order, so the
    /// answer is mostly that line or the next, and a binary search over
    /// 100k lines missed the cache on every expression.
    hint: std::cell::Cell<usize>,
}

impl SourceMap {
    pub fn new(text: &str, main_path: &str) -> SourceMap {
        let mut files: Vec<String> = vec![main_path.to_string()];
        let mut system = vec![false];
        let mut line_starts = Vec::new();
        let mut origin = Vec::new();
        let mut cur_file = 0u32;
        let mut cur_line = 1u32;
        let mut off = 0usize;
        for line in text.split_inclusive('\n') {
            line_starts.push(off);
            off += line.len();
            if let Some((n, f, flags)) = parse_marker(line) {
                let id = match files.iter().position(|x| *x == f) {
                    Some(i) => i,
                    None => {
                        files.push(f.clone());
                        system.push(false);
                        files.len() - 1
                    }
                };
                if flags.contains(&3) {
                    system[id] = true;
                }
                cur_file = id as u32;
                cur_line = n;
                origin.push((cur_file, 0));
                continue;
            }
            origin.push((cur_file, cur_line));
            cur_line += 1;
        }
        SourceMap {
            line_starts,
            origin,
            files,
            system,
            text: text.to_string(),
            hint: std::cell::Cell::new(0),
        }
    }

    fn line_index(&self, offset: usize) -> usize {
        let on = |i: usize| {
            self.line_starts.get(i).is_some_and(|&s| s <= offset)
                && self.line_starts.get(i + 1).is_none_or(|&e| offset < e)
        };
        let h = self.hint.get();
        if on(h) {
            return h;
        }
        if on(h + 1) {
            self.hint.set(h + 1);
            return h + 1;
        }
        let i = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        self.hint.set(i);
        i
    }

    pub fn loc(&self, offset: usize) -> Loc {
        if self.line_starts.is_empty() {
            return Loc::NONE;
        }
        let i = self.line_index(offset);
        let (f, l) = self.origin[i];
        Loc {
            file: FileId(f),
            line: l,
            col: (offset - self.line_starts[i]) as u32 + 1,
            generated: false,
        }
    }

    pub fn is_system(&self, f: FileId) -> bool {
        self.system.get(f.index()).copied().unwrap_or(false)
    }

    /// `(path, line, col, source line)` of an offset, for diagnostics.
    pub fn position(&self, offset: usize) -> (String, u32, u32, Option<String>) {
        let loc = self.loc(offset);
        (
            self.files[loc.file.index()].clone(),
            loc.line,
            loc.col,
            self.line_text(offset),
        )
    }

    pub fn loc_position(&self, loc: Loc) -> (String, u32, u32) {
        (
            self.files
                .get(loc.file.index())
                .cloned()
                .unwrap_or_default(),
            loc.line,
            loc.col,
        )
    }

    /// The preprocessed line holding `offset` (same as the source line
    /// unless macros were expanded on it).
    pub fn line_text(&self, offset: usize) -> Option<String> {
        if self.line_starts.is_empty() {
            return None;
        }
        let i = self.line_index(offset);
        let start = self.line_starts[i];
        let end = self
            .line_starts
            .get(i + 1)
            .copied()
            .unwrap_or(self.text.len());
        Some(self.text[start..end].trim_end().to_string())
    }
}

/// `# 12 "foo.c" 1 3` → (12, "foo.c", [1, 3]).
fn parse_marker(line: &str) -> Option<(u32, String, Vec<u32>)> {
    let rest = line.strip_prefix('#')?;
    let rest = rest.trim_start();
    let rest = rest
        .strip_prefix("line")
        .map(str::trim_start)
        .unwrap_or(rest);
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let n: u32 = digits.parse().ok()?;
    let rest = rest[digits.len()..].trim_start();
    let rest = rest.strip_prefix('"')?;
    let (name, end) = unescape(rest);
    let flags = rest[end..]
        .split_whitespace()
        .filter_map(|t| t.parse().ok())
        .collect();
    Some((n, name, flags))
}

/// The name of a marker's string up to its closing quote, with C's
/// escapes read back (gcc writes `\\`, `\"` and `\n`; `#line` may hold
/// any), and the byte offset after the quote.
fn unescape(s: &str) -> (String, usize) {
    let b = s.as_bytes();
    let mut name = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => return (String::from_utf8_lossy(&name).into_owned(), i + 1),
            b'\\' if i + 1 < b.len() => {
                i += 1;
                let c = b[i];
                match c {
                    b'0'..=b'7' => {
                        let mut v = 0u32;
                        let mut n = 0;
                        while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                            v = v * 8 + (b[i] - b'0') as u32;
                            i += 1;
                            n += 1;
                        }
                        name.push(v as u8);
                        continue;
                    }
                    b'n' => name.push(b'\n'),
                    b't' => name.push(b'\t'),
                    b'r' => name.push(b'\r'),
                    b'a' => name.push(7),
                    b'b' => name.push(8),
                    b'f' => name.push(12),
                    b'v' => name.push(11),
                    c => name.push(c),
                }
                i += 1;
            }
            c => {
                name.push(c);
                i += 1;
            }
        }
    }
    (String::from_utf8_lossy(&name).into_owned(), b.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_names_read_escapes_back() {
        let (n, f, flags) = parse_marker("# 3 \"a\\\\b\\\"c\\nd\\001e\\?.c\" 1\n").unwrap();
        assert_eq!((n, f.as_str(), flags), (3, "a\\b\"c\nd\u{1}e?.c", vec![1]));
    }

    #[test]
    fn markers_map_lines_back() {
        let text = "# 1 \"a.c\"\n# 1 \"/usr/include/x.h\" 1 3 4\nint x;\n# 3 \"a.c\" 2\nint y;\n";
        let m = SourceMap::new(text, "a.c");
        let off = text.find("int y").unwrap() + 4;
        let loc = m.loc(off);
        assert_eq!(
            (m.files[loc.file.index()].as_str(), loc.line, loc.col),
            ("a.c", 3, 5)
        );
        let hx = m.loc(text.find("int x").unwrap());
        assert!(m.is_system(hx.file));
    }

    #[test]
    fn lookups_in_any_order_agree_with_a_search() {
        let text: String = (0..200)
            .map(|i| format!("line {i}{}\n", "x".repeat(i % 7)))
            .collect();
        let m = SourceMap::new(&text, "a.c");
        let search = |off: usize| match m.line_starts.binary_search(&off) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        // Forward (the hint's case), backward and jumping.
        let mut offs: Vec<usize> = (0..text.len()).collect();
        offs.extend((0..text.len()).rev());
        offs.extend((0..text.len()).map(|i| (i * 7919) % text.len()));
        for off in offs {
            assert_eq!(m.line_index(off), search(off), "offset {off}");
        }
    }
}
