//! A small XML reader for witness files: elements, attributes, text,
//! the five named entities and character references; comments,
//! processing instructions and a DOCTYPE are skipped. Enough for GraphML;
//! errors name the line.

#[derive(Clone, Debug, Default)]
pub struct Elem {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub children: Vec<Elem>,
    /// The element's own text (its text children, joined).
    pub text: String,
}

impl Elem {
    pub fn attr(&self, k: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    }

    pub fn all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Elem> + 'a {
        self.children.iter().filter(move |c| local(&c.name) == name)
    }
}

/// The name without its namespace prefix.
pub fn local(n: &str) -> &str {
    n.rsplit(':').next().unwrap_or(n)
}

struct P<'a> {
    s: &'a [u8],
    i: usize,
    /// Elements open now: a hostile file cannot nest past `MAX_DEPTH`.
    depth: usize,
}

/// Deeper than any GraphML file is.
const MAX_DEPTH: usize = 64;

impl P<'_> {
    fn err(&self, what: &str) -> String {
        let line = self.s[..self.i.min(self.s.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        format!("line {line}: {what}")
    }

    fn starts(&self, t: &str) -> bool {
        self.s[self.i..].starts_with(t.as_bytes())
    }

    fn skip_past(&mut self, t: &str) -> Result<(), String> {
        match self.s[self.i..]
            .windows(t.len())
            .position(|w| w == t.as_bytes())
        {
            Some(k) => {
                self.i += k + t.len();
                Ok(())
            }
            None => Err(self.err(&format!("'{t}' missing"))),
        }
    }

    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn name(&mut self) -> Result<String, String> {
        let st = self.i;
        while self.i < self.s.len() {
            let c = self.s[self.i];
            if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':') || c >= 0x80 {
                self.i += 1;
            } else {
                break;
            }
        }
        if st == self.i {
            return Err(self.err("a name expected"));
        }
        Ok(String::from_utf8_lossy(&self.s[st..self.i]).into_owned())
    }

    /// Skips what is not content: comments, PIs, DOCTYPE.
    fn misc(&mut self) -> Result<bool, String> {
        if self.starts("<!--") {
            self.skip_past("-->")?;
        } else if self.starts("<?") {
            self.skip_past("?>")?;
        } else if self.starts("<!DOCTYPE") {
            self.skip_past(">")?;
        } else {
            return Ok(false);
        }
        Ok(true)
    }

    fn elem(&mut self) -> Result<Elem, String> {
        if !self.starts("<") {
            return Err(self.err("'<' expected"));
        }
        self.i += 1;
        let mut e = Elem {
            name: self.name()?,
            ..Default::default()
        };
        loop {
            self.ws();
            if self.starts("/>") {
                self.i += 2;
                return Ok(e);
            }
            if self.starts(">") {
                self.i += 1;
                break;
            }
            let k = self.name()?;
            self.ws();
            if !self.starts("=") {
                return Err(self.err("'=' expected after an attribute name"));
            }
            self.i += 1;
            self.ws();
            let q = *self
                .s
                .get(self.i)
                .ok_or_else(|| self.err("an attribute value expected"))?;
            if q != b'"' && q != b'\'' {
                return Err(self.err("a quoted attribute value expected"));
            }
            self.i += 1;
            let st = self.i;
            while self.i < self.s.len() && self.s[self.i] != q {
                self.i += 1;
            }
            if self.i >= self.s.len() {
                return Err(self.err("an attribute value is not closed"));
            }
            let v = self.unescape(st, self.i)?;
            self.i += 1;
            e.attrs.push((k, v));
        }
        loop {
            if self.i >= self.s.len() {
                return Err(self.err(&format!("<{}> is not closed", e.name)));
            }
            if self.starts("</") {
                self.i += 2;
                let n = self.name()?;
                if n != e.name {
                    return Err(self.err(&format!("</{n}> closes <{}>", e.name)));
                }
                self.ws();
                if !self.starts(">") {
                    return Err(self.err("'>' expected"));
                }
                self.i += 1;
                return Ok(e);
            }
            if self.starts("<![CDATA[") {
                self.i += 9;
                let st = self.i;
                self.skip_past("]]>")?;
                e.text
                    .push_str(&String::from_utf8_lossy(&self.s[st..self.i - 3]));
                continue;
            }
            if self.misc()? {
                continue;
            }
            if self.starts("<") {
                if self.depth >= MAX_DEPTH {
                    return Err(self.err("elements nested too deeply"));
                }
                self.depth += 1;
                let c = self.elem()?;
                self.depth -= 1;
                e.children.push(c);
                continue;
            }
            let st = self.i;
            while self.i < self.s.len() && self.s[self.i] != b'<' {
                self.i += 1;
            }
            let t = self.unescape(st, self.i)?;
            e.text.push_str(&t);
        }
    }

    fn unescape(&self, a: usize, b: usize) -> Result<String, String> {
        let raw = String::from_utf8_lossy(&self.s[a..b]);
        let mut o = String::with_capacity(raw.len());
        let mut rest: &str = &raw;
        while let Some(k) = rest.find('&') {
            o.push_str(&rest[..k]);
            let after = &rest[k + 1..];
            let Some(end) = after.find(';') else {
                return Err(self.err("an entity is not closed with ';'"));
            };
            let ent = &after[..end];
            let c = match ent {
                "lt" => '<',
                "gt" => '>',
                "amp" => '&',
                "quot" => '"',
                "apos" => '\'',
                _ => {
                    let n = if let Some(h) = ent.strip_prefix("#x") {
                        u32::from_str_radix(h, 16).ok()
                    } else if let Some(d) = ent.strip_prefix('#') {
                        d.parse().ok()
                    } else {
                        None
                    };
                    n.and_then(char::from_u32)
                        .ok_or_else(|| self.err(&format!("unknown entity '&{ent};'")))?
                }
            };
            o.push(c);
            rest = &after[end + 1..];
        }
        o.push_str(rest);
        Ok(o)
    }
}

/// The document's root element.
pub fn parse(text: &str) -> Result<Elem, String> {
    let mut p = P {
        s: text.as_bytes(),
        i: 0,
        depth: 0,
    };
    loop {
        p.ws();
        if !p.misc()? {
            break;
        }
    }
    let root = p.elem()?;
    loop {
        p.ws();
        if !p.misc()? {
            break;
        }
    }
    if p.i < p.s.len() {
        return Err(p.err("text after the root element"));
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_elements_attributes_and_entities() {
        let d = parse(
            "<?xml version=\"1.0\"?>\n<!-- c --><g a='1' b=\"x&amp;y\"><d k=\"v\">&lt;t&#62;</d><e/></g>",
        )
        .unwrap();
        assert_eq!(d.name, "g");
        assert_eq!(d.attr("b"), Some("x&y"));
        assert_eq!(d.children.len(), 2);
        assert_eq!(d.children[0].text, "<t>");
        assert!(parse("<g><d></g>").unwrap_err().contains("closes"));
        assert!(parse("<g>").unwrap_err().contains("not closed"));
        let deep = "<a>".repeat(100_000);
        assert!(parse(&deep).unwrap_err().contains("too deeply"));
    }
}
