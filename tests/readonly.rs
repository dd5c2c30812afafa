//! `ir::readonly` on hand-made programs: `tests/readonly/*.c` list the
//! globals no run writes (`// constant:`), those some run writes through
//! a channel a points-to analysis could miss (`// written:`), and whether
//! string literals stay constant (`// strings:`). A global called
//! constant that some run writes would lose switch points before its
//! reads, and so hide bugs.

use seqc::config::Config;
use seqc::ir::readonly::ReadOnly;

fn names<'a>(text: &'a str, key: &str) -> Vec<&'a str> {
    text.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no `{key}` line"))
        .split_whitespace()
        .collect()
}

#[test]
fn constant_and_written_globals() {
    let mut files: Vec<_> = std::fs::read_dir("tests/readonly")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let p = seqc::driver::load(path.to_str().unwrap(), &Config::default())
            .unwrap_or_else(|d| panic!("{}: {d}", path.display()));
        let ro = ReadOnly::analyse(&p);
        let id = |n: &str| {
            let i = p
                .globals
                .iter()
                .position(|g| g.name == n)
                .unwrap_or_else(|| panic!("{}: no global {n}", path.display()));
            seqc::ir::GlobalId(i as u32)
        };
        for n in names(&text, "// constant:") {
            assert!(
                ro.constant_global(id(n)),
                "{}: {n} should be constant",
                path.display()
            );
        }
        for n in names(&text, "// written:") {
            assert!(
                !ro.constant_global(id(n)),
                "{}: {n} is written",
                path.display()
            );
        }
        // Optional: main's locals (`// main-locals: constant a b; written c`).
        if let Some(line) = text.lines().find_map(|l| l.strip_prefix("// main-locals:")) {
            let main = p.func_by_name("main").unwrap();
            let f = p.func(main);
            for part in line.split(';') {
                let mut w = part.split_whitespace();
                let want = match w.next() {
                    Some("constant") => true,
                    Some("written") => false,
                    other => panic!("{}: main-locals: {other:?}", path.display()),
                };
                for n in w {
                    let v = f
                        .locals
                        .iter()
                        .position(|l| l.name == n)
                        .unwrap_or_else(|| panic!("{}: no local {n}", path.display()));
                    assert_eq!(
                        ro.constant_local(main, seqc::ir::LocalId(v as u32)),
                        want,
                        "{}: main's local {n}",
                        path.display()
                    );
                }
            }
        }
        let strings = names(&text, "// strings:") == ["constant"];
        assert_eq!(
            ro.constant_strings(),
            strings,
            "{}: strings",
            path.display()
        );
    }
}
