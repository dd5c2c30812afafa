//! The architecture invariants of the README, checked on the source: each
//! top-level module may name (`crate::X` or `use crate::X`) only the
//! modules below it. A failure names the file and the module it reached.

use std::collections::BTreeMap;
use std::path::Path;

/// Each module and the modules it may use. Utilities (`par`, `diag`,
/// `cleanup`, `deadline`, `out_file`) are below everything; the IR is below every stage; the stages (front end,
/// passes, back ends, oracle) do not know each other; the driver chains
/// them; `check`, `replay` and `refine` run checkers on what it builds.
fn allowed() -> BTreeMap<&'static str, &'static [&'static str]> {
    let mut m: BTreeMap<&'static str, &'static [&'static str]> = BTreeMap::new();
    m.insert("par", &[]);
    m.insert("diag", &[]);
    m.insert("cleanup", &[]);
    m.insert("deadline", &[]);
    m.insert("out_file", &["diag", "cleanup"]);
    m.insert("generate", &[]);
    m.insert("ir", &["par", "diag"]);
    m.insert("frontend", &["ir", "par", "diag", "cleanup", "deadline"]);
    m.insert("passes", &["ir", "par", "diag"]);
    m.insert("bmc", &["ir", "par", "diag", "deadline"]);
    m.insert("backend", &["ir", "par", "diag"]);
    m.insert("oracle", &["ir", "par", "diag"]);
    m.insert("config", &["ir", "backend", "diag"]);
    m.insert(
        "driver",
        &[
            "config", "frontend", "ir", "passes", "backend", "bmc", "par", "diag",
        ],
    );
    m.insert("trace", &["ir", "diag", "config"]);
    m.insert(
        "replay",
        &[
            "trace", "driver", "ir", "oracle", "passes", "diag", "config",
        ],
    );
    m.insert("report", &["trace", "ir", "diag", "config", "oracle"]);
    m.insert(
        "check",
        &[
            "driver", "config", "replay", "trace", "report", "oracle", "bmc", "backend", "passes",
            "ir", "diag", "par", "frontend", "cleanup", "deadline",
        ],
    );
    m.insert("task", &["ir", "diag"]);
    m.insert(
        "witness",
        &[
            "check", "driver", "frontend", "oracle", "ir", "diag", "config",
        ],
    );
    m.insert(
        "refine",
        &[
            "check", "driver", "config", "replay", "trace", "report", "oracle", "ir", "diag",
            "passes",
        ],
    );
    m
}

fn files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn lower_layers_do_not_import_higher_ones() {
    let allowed = allowed();
    let mut all = Vec::new();
    files(Path::new("src"), &mut all);
    let mut bad = Vec::new();
    for f in all {
        let rel = f.strip_prefix("src").unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "main" || module == "lib" {
            continue;
        }
        let Some(ok) = allowed.get(module.as_str()) else {
            bad.push(format!(
                "{}: module '{module}' has no place in the layers (tests/layers.rs)",
                f.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&f).unwrap();
        // Comments out, lines kept, so that a `use crate::{..}` group may
        // span lines and a finding still has its line.
        let code: String = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let mut from = 0;
        while let Some(i) = code[from..].find("crate::") {
            let at = from + i + 7;
            let line = code[..at].matches('\n').count() + 1;
            for name in used(&code[at..]) {
                if name != module && !ok.contains(&name.as_str()) {
                    bad.push(format!(
                        "{}:{line}: {module} uses crate::{name}",
                        f.display()
                    ));
                }
            }
            from = at;
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The top-level modules named right after a `crate::`: one name, or the
/// first name of each item of a `{a, b::c}` group.
fn used(rest: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let Some(group) = rest.strip_prefix('{') else {
        return vec![ident(rest)];
    };
    let mut names = Vec::new();
    let mut depth = 0;
    let mut start = true;
    for (i, c) in group.char_indices() {
        if start && depth == 0 {
            let n = ident(&group[i..]);
            if !n.is_empty() {
                names.push(n);
            }
            start = false;
        }
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => start = true,
            _ => {}
        }
    }
    names
}

#[test]
fn groups_name_each_top_level_module() {
    assert_eq!(used("ir::Ty;"), ["ir"]);
    assert_eq!(
        used("{ir::{Ty, Expr}, diag,\n  par::run}"),
        ["ir", "diag", "par"]
    );
}
