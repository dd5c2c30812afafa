//! SV-COMP task definitions (`.yml`, format 1.0 and 2.0): the program,
//! its data model and its properties with their expected verdicts.
//!
//! A task names one input file (several are refused by name), relative to
//! the task file. A task whose `.i` is missing but whose `.c` lies beside
//! it (a benchmark set stored without its preprocessed files) is read from
//! the `.c`, and the task says so in `note`. Properties are recognised by
//! the text of their `.prp` file (or, if it cannot be read, by its name):
//! `unreach-call` is seqc's assertion checking, `no-data-race` its race
//! mode, `no-overflow` its `--property overflow`; others are listed with
//! the reason seqc does not check them.

use crate::diag::{Diagnostic, Result};
use crate::ir::DataModel;
use yaml_rust2::{Yaml, YamlLoader};

#[derive(Clone, Debug)]
pub struct Task {
    /// The program file to check.
    pub input: String,
    /// Said to the user about the input (the `.c` read for a missing `.i`).
    pub note: Option<String>,
    pub data_model: Option<DataModel>,
    pub properties: Vec<TaskProperty>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Checkable {
    /// unreach-call: no assertion fails.
    Assert,
    /// no-data-race.
    Race,
    /// no-overflow: signed integer overflow.
    Overflow,
    /// valid-memsafety: valid-deref, valid-free and valid-memtrack.
    MemSafety,
}

impl Checkable {
    /// seqc's own name for it (`--property`).
    pub fn seqc_name(&self) -> &'static str {
        match self {
            Checkable::Assert => "assert",
            Checkable::Race => "race",
            Checkable::Overflow => "overflow",
            Checkable::MemSafety => "memsafety,memtrack",
        }
    }
}

#[derive(Clone, Debug)]
pub struct TaskProperty {
    /// The property's name (`unreach-call`, `no-data-race`, ...).
    pub name: String,
    /// The property file as the task names it.
    pub file: String,
    /// The text of the property file, when readable.
    pub text: Option<String>,
    pub expected: Option<bool>,
    /// What seqc checks for it, or why it does not.
    pub check: std::result::Result<Checkable, String>,
}

/// The property a `.prp` file (its text, else its name) stands for.
pub fn property_of(
    file: &str,
    text: Option<&str>,
) -> (String, std::result::Result<Checkable, String>) {
    let stem = std::path::Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
    let t: String = text
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let by_text = if t.is_empty() {
        None
    } else if t.contains("G!call(reach_error())") || t.contains("G!call(__VERIFIER_error())") {
        Some(("unreach-call", Ok(Checkable::Assert)))
    } else if t.contains("G!data-race") {
        Some(("no-data-race", Ok(Checkable::Race)))
    } else if t.contains("Gvalid-memcleanup") {
        Some(("valid-memcleanup", Err(MEMCLEANUP.to_string())))
    } else if t.contains("Gvalid-") {
        Some(("valid-memsafety", Ok(Checkable::MemSafety)))
    } else if t.contains("G!overflow") {
        Some(("no-overflow", Ok(Checkable::Overflow)))
    } else if t.contains("Fend") {
        Some(("termination", Err("termination is not checked".to_string())))
    } else {
        None
    };
    if let Some((n, c)) = by_text {
        return (n.to_string(), c);
    }
    let c = match stem.as_str() {
        "unreach-call" => Ok(Checkable::Assert),
        "no-data-race" => Ok(Checkable::Race),
        "valid-memsafety" => Ok(Checkable::MemSafety),
        "valid-memcleanup" => Err(MEMCLEANUP.into()),
        "no-overflow" => Ok(Checkable::Overflow),
        "termination" => Err("termination is not checked".into()),
        _ => Err(format!("'{file}' is a property seqc does not know")),
    };
    (stem, c)
}

/// Why a memcleanup task is not answered.
const MEMCLEANUP: &str = "valid-memcleanup (all memory freed at the end) is not checked \
                          (--property memsafety,memtrack checks valid-deref, valid-free and valid-memtrack)";

fn bad(path: &str, what: String) -> Diagnostic {
    Diagnostic::input(format!("{path}: {what}"))
}

fn keys(path: &str, h: &Yaml, allowed: &[&str], what: &str) -> Result<()> {
    let Yaml::Hash(m) = h else {
        return Err(bad(path, format!("{what} is not a mapping")));
    };
    for k in m.keys() {
        let name = k.as_str().unwrap_or("?");
        if !allowed.contains(&name) {
            return Err(bad(
                path,
                format!(
                    "unknown key '{name}' in {what} (expected {})",
                    allowed.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// Reads a task file.
pub fn read(path: &str) -> Result<Task> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Diagnostic::input(format!("cannot read '{path}': {e}")))?;
    let docs = YamlLoader::load_from_str(&text).map_err(|e| bad(path, format!("not YAML: {e}")))?;
    let [doc] = docs.as_slice() else {
        return Err(bad(
            path,
            format!("{} YAML documents (one expected)", docs.len()),
        ));
    };
    keys(
        path,
        doc,
        &["format_version", "input_files", "properties", "options"],
        "the task",
    )?;
    let dir = std::path::Path::new(path)
        .parent()
        .unwrap_or(std::path::Path::new(""));
    let files: Vec<String> = match &doc["input_files"] {
        Yaml::String(s) => vec![s.clone()],
        Yaml::Array(a) => a
            .iter()
            .map(|f| f.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| {
                bad(
                    path,
                    "input_files holds something other than file names".into(),
                )
            })?,
        Yaml::BadValue => return Err(bad(path, "the task names no input_files".into())),
        _ => {
            return Err(bad(
                path,
                "input_files is not a file name or a list of them".into(),
            ));
        }
    };
    let [file] = files.as_slice() else {
        return Err(Diagnostic::unsupported(format!(
            "{path}: a task of {} input files (seqc checks one program file)",
            files.len()
        )));
    };
    let named = dir.join(file);
    let mut input = named.to_string_lossy().into_owned();
    let mut note = None;
    if !named.exists()
        && let Some(stem) = input.strip_suffix(".i")
        && std::path::Path::new(&format!("{stem}.c")).exists()
    {
        note = Some(format!(
            "the task names {input}, which is missing: its .c is read instead"
        ));
        input = format!("{stem}.c");
    }
    let data_model = match &doc["options"] {
        Yaml::BadValue => None,
        o => {
            keys(path, o, &["language", "data_model"], "options")?;
            if let Some(l) = o["language"].as_str()
                && l != "C"
            {
                return Err(Diagnostic::unsupported(format!(
                    "{path}: a task in language {l} (seqc reads C)"
                )));
            }
            match o["data_model"].as_str() {
                None => None,
                Some("ILP32") => Some(DataModel::Ilp32),
                Some("LP64") => Some(DataModel::Lp64),
                Some(m) => {
                    return Err(bad(
                        path,
                        format!("data_model '{m}' (expected ILP32 or LP64)"),
                    ));
                }
            }
        }
    };
    let Yaml::Array(props) = &doc["properties"] else {
        return Err(bad(path, "the task has no list of properties".into()));
    };
    let mut properties = Vec::new();
    for p in props {
        keys(
            path,
            p,
            &["property_file", "expected_verdict", "subproperty"],
            "a property",
        )?;
        let Some(file) = p["property_file"].as_str() else {
            return Err(bad(path, "a property without a property_file".into()));
        };
        let expected = match &p["expected_verdict"] {
            Yaml::Boolean(b) => Some(*b),
            Yaml::BadValue => None,
            v => {
                return Err(bad(
                    path,
                    format!("expected_verdict of {file} is {v:?}, not true or false"),
                ));
            }
        };
        let text = std::fs::read_to_string(dir.join(file)).ok();
        let (name, check) = property_of(file, text.as_deref());
        properties.push(TaskProperty {
            name,
            file: file.to_string(),
            text,
            expected,
            check,
        });
    }
    Ok(Task {
        input,
        note,
        data_model,
        properties,
    })
}

/// The properties to check: the one `property` names (SV-COMP's name,
/// seqc's `assert` or `race`, or a `.prp` file; checked even if the task
/// does not list it, then with no expected verdict), else every one the
/// task lists.
pub fn select(task: &Task, property: Option<&str>) -> Vec<TaskProperty> {
    let Some(p) = property else {
        return task.properties.clone();
    };
    let (name, check, text) = if p.ends_with(".prp") {
        let text = std::fs::read_to_string(p).ok();
        let (n, c) = property_of(p, text.as_deref());
        (n, c, text)
    } else {
        let (n, c) = match p {
            "assert" => ("unreach-call".to_string(), Ok(Checkable::Assert)),
            "race" => ("no-data-race".to_string(), Ok(Checkable::Race)),
            _ => property_of(&format!("{p}.prp"), None),
        };
        (n, c, None)
    };
    let listed: Vec<TaskProperty> = task
        .properties
        .iter()
        .filter(|t| t.name == name)
        .cloned()
        .collect();
    if listed.is_empty() {
        vec![TaskProperty {
            name,
            file: p.to_string(),
            text,
            expected: None,
            check,
        }]
    } else {
        listed
    }
}

/// Is this argument a task file rather than a program?
pub fn is_task(input: &str) -> bool {
    input.ends_with(".yml") || input.ends_with(".yaml")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn property_files_are_recognised_by_their_text() {
        let (n, c) = property_of(
            "x/unreach-call.prp",
            Some("CHECK( init(main()), LTL(G ! call(reach_error())) )\n"),
        );
        assert_eq!((n.as_str(), c), ("unreach-call", Ok(Checkable::Assert)));
        let (n, c) = property_of("p.prp", Some("CHECK( init(main()), LTL(G ! data-race) )"));
        assert_eq!((n.as_str(), c), ("no-data-race", Ok(Checkable::Race)));
        let (n, c) = property_of("termination.prp", None);
        assert_eq!(n, "termination");
        assert!(c.is_err());
    }
}
