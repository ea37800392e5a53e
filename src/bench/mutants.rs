//! Mutants of a Verilog design, to measure the bench by the faults it catches
//! (`verify <design> --mutants N [--seed S]`).
//!
//! [`sites`] lists every place one of the [`Operator`]s applies in the design's statements
//! (declarations, comments and the module headers are left alone); [`mutants`] shuffles them
//! with a seeded [`SplitMix64`] and makes one mutant per site for the first `n`, so the same
//! seed gives the same mutants. Each mutant is then benched through the `--dut` path by the
//! caller; a mutant the bench does not kill is *equivalent* when a proof shows it equal to the
//! original (the solver's table for the combinational strategies), else it *survived*.

use std::fmt;

use super::sequential::SplitMix64;

/// A kind of fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operator {
    /// A binary `&` becomes `|`.
    AndToOr,
    /// A binary `|` becomes `&`.
    OrToAnd,
    /// One bit of a sized constant (`5'b10010`, `3'd6`, `4'he`) flips.
    FlipConstantBit,
    /// `if (c)` becomes `if (!(c))`.
    InvertCondition,
    /// One product term of a sum of products is dropped.
    DropProductTerm,
    /// A comparison `<=` becomes `<`.
    LessEqualToLess,
    /// One bit of a register is stuck at 0 or 1.
    StickRegisterBit,
}

impl Operator {
    /// Every operator.
    pub const ALL: [Operator; 7] = [
        Operator::AndToOr,
        Operator::OrToAnd,
        Operator::FlipConstantBit,
        Operator::InvertCondition,
        Operator::DropProductTerm,
        Operator::LessEqualToLess,
        Operator::StickRegisterBit,
    ];

    /// A short name.
    pub fn name(self) -> &'static str {
        match self {
            Operator::AndToOr => "& -> |",
            Operator::OrToAnd => "| -> &",
            Operator::FlipConstantBit => "flip a constant bit",
            Operator::InvertCondition => "invert a condition",
            Operator::DropProductTerm => "drop a product term",
            Operator::LessEqualToLess => "<= -> <",
            Operator::StickRegisterBit => "stick a register bit",
        }
    }
}

impl fmt::Display for Operator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One place a mutation applies: a line, a byte range in it and its replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    /// The operator.
    pub operator: Operator,
    /// The line (0-based).
    pub line: usize,
    /// Byte range of the line replaced.
    pub range: std::ops::Range<usize>,
    /// What replaces it.
    pub replacement: String,
}

/// A mutant: the site and the whole mutated text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mutant {
    /// 1-based number in the chosen order.
    pub number: usize,
    /// What was changed.
    pub site: Site,
    /// `line 12: "x = (a) | (b & c);" -> "x = (a) | (b | c);"`.
    pub description: String,
    /// The mutated Verilog.
    pub verilog: String,
}

/// Whether a line is a statement we may mutate (not a declaration, comment, header or
/// directive).
fn mutable_line(line: &str) -> bool {
    let t = line.trim_start();
    if t.is_empty() || t.starts_with("//") || t.starts_with('`') || t.starts_with("/*") {
        return false;
    }
    let first = t
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    !matches!(
        first,
        "module" | "endmodule" | "input" | "output" | "inout" | "wire" | "reg" | "integer"
    )
}

/// Byte offsets of `pat` in `s`.
fn find_all(s: &str, pat: &str) -> Vec<usize> {
    s.match_indices(pat).map(|(i, _)| i).collect()
}

/// Sized constants `<width>'<base><digits>` in `line`: (byte range, width, base, value).
fn constants(line: &str) -> Vec<(std::ops::Range<usize>, u32, char, u64)> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\'' && i > 0 && bytes[i - 1].is_ascii_digit() {
            let mut start = i;
            while start > 0 && bytes[start - 1].is_ascii_digit() {
                start -= 1;
            }
            // Not part of an identifier (e.g. `x1'...` cannot occur, but be safe).
            let ident_before = start > 0
                && (bytes[start - 1].is_ascii_alphanumeric()
                    || bytes[start - 1] == b'_'
                    || bytes[start - 1] == b'$');
            let base = bytes.get(i + 1).map(|b| b.to_ascii_lowercase() as char);
            let radix = match base {
                Some('b') => 2,
                Some('d') => 10,
                Some('h') => 16,
                _ => 0,
            };
            if radix == 0 || ident_before {
                i += 1;
                continue;
            }
            let mut end = i + 2;
            while end < bytes.len() && (bytes[end] as char).is_ascii_alphanumeric() {
                end += 1;
            }
            let width: Option<u32> = line[start..i].parse().ok();
            let value = u64::from_str_radix(&line[i + 2..end], radix).ok();
            if let (Some(w), Some(v)) = (width, value) {
                if (1..=64).contains(&w) {
                    out.push((start..end, w, base.unwrap_or('b'), v));
                }
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

fn format_constant(width: u32, base: char, value: u64) -> String {
    match base {
        'b' => format!("{width}'b{value:0w$b}", w = width as usize),
        'h' => format!("{width}'h{value:x}"),
        _ => format!("{width}'d{value}"),
    }
}

/// The registers of each module: `output reg [n:0] name;` driven by a `name <= ...;`
/// nonblocking assignment, as (line of the assignment, its indentation, name, width).
fn registers(lines: &[&str]) -> Vec<(usize, String, String, usize)> {
    let mut widths: Vec<(String, usize)> = Vec::new();
    let mut out = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.starts_with("module ") {
            widths.clear();
        }
        if let Some(rest) = t.strip_prefix("output reg") {
            let rest = rest.trim().trim_end_matches(';');
            let (width, name) = match rest.strip_prefix('[') {
                Some(r) => {
                    let (range, name) = r.split_once(']').unwrap_or(("0:0", r));
                    let msb: usize = range
                        .split(':')
                        .next()
                        .and_then(|m| m.trim().parse().ok())
                        .unwrap_or(0);
                    (msb + 1, name.trim())
                }
                None => (1, rest.trim()),
            };
            widths.push((name.to_owned(), width));
        }
        if let Some((lhs, _)) = t.split_once(" <= ") {
            if let Some((_, w)) = widths.iter().find(|(name, _)| name == lhs.trim()) {
                let indent: String = line.chars().take_while(|c| c.is_whitespace()).collect();
                out.push((n, indent, lhs.trim().to_owned(), *w));
            }
        }
    }
    out
}

/// Every mutation site of `verilog`, in text order.
pub fn sites(verilog: &str) -> Vec<Site> {
    let lines: Vec<&str> = verilog.lines().collect();
    let mut out = Vec::new();
    let nonblocking: Vec<usize> = registers(&lines).iter().map(|r| r.0).collect();
    for (n, line) in lines.iter().enumerate() {
        if !mutable_line(line) {
            continue;
        }
        for at in find_all(line, " & ") {
            out.push(Site {
                operator: Operator::AndToOr,
                line: n,
                range: at..at + 3,
                replacement: " | ".into(),
            });
        }
        for at in find_all(line, " | ") {
            out.push(Site {
                operator: Operator::OrToAnd,
                line: n,
                range: at..at + 3,
                replacement: " & ".into(),
            });
        }
        for (range, width, base, value) in constants(line) {
            for bit in 0..width {
                out.push(Site {
                    operator: Operator::FlipConstantBit,
                    line: n,
                    range: range.clone(),
                    replacement: format_constant(width, base, value ^ (1 << bit)),
                });
            }
        }
        let t = line.trim_start();
        let indent = line.len() - t.len();
        for prefix in ["if (", "else if ("] {
            if let Some(rest) = t.strip_prefix(prefix) {
                if let Some(close) = rest.rfind(')') {
                    let start = indent + prefix.len() - 1;
                    let end = indent + prefix.len() + close + 1;
                    out.push(Site {
                        operator: Operator::InvertCondition,
                        line: n,
                        range: start..end,
                        replacement: format!("(!({}))", &rest[..close]),
                    });
                }
                break;
            }
        }
        // A sum of products: `lhs = (t1) | (t2) | ...;` with at least two terms.
        if let Some((lhs, rhs)) = t.split_once(" = ") {
            if rhs.starts_with('(') && rhs.ends_with(");") && !lhs.contains('(') {
                let body = &rhs[..rhs.len() - 1];
                let terms: Vec<&str> = body.split(" | ").collect();
                let balanced = terms
                    .iter()
                    .all(|t| t.starts_with('(') && t.ends_with(')') && !t[1..].contains('('));
                if terms.len() >= 2 && balanced {
                    let rhs_start = line.len() - rhs.len();
                    for k in 0..terms.len() {
                        let kept: Vec<&str> = terms
                            .iter()
                            .enumerate()
                            .filter(|&(i, _)| i != k)
                            .map(|(_, t)| *t)
                            .collect();
                        out.push(Site {
                            operator: Operator::DropProductTerm,
                            line: n,
                            range: rhs_start..line.len(),
                            replacement: format!("{};", kept.join(" | ")),
                        });
                    }
                }
            }
        }
        if !nonblocking.contains(&n) {
            for at in find_all(line, " <= ") {
                out.push(Site {
                    operator: Operator::LessEqualToLess,
                    line: n,
                    range: at..at + 4,
                    replacement: " < ".into(),
                });
            }
        }
    }
    for (n, indent, name, width) in registers(&lines) {
        let line = lines[n];
        for bit in 0..width {
            for value in [0u8, 1] {
                let target = if width == 1 {
                    name.clone()
                } else {
                    format!("{name}[{bit}]")
                };
                out.push(Site {
                    operator: Operator::StickRegisterBit,
                    line: n,
                    range: line.len()..line.len(),
                    replacement: format!("\n{indent}{target} <= 1'b{value}; // stuck"),
                });
            }
        }
    }
    out
}

/// `verilog` with `site` applied.
pub fn apply(verilog: &str, site: &Site) -> String {
    let mut out = String::with_capacity(verilog.len() + 16);
    for (n, line) in verilog.split_inclusive('\n').enumerate() {
        if n == site.line {
            let (body, newline) = match line.strip_suffix('\n') {
                Some(b) => (b, "\n"),
                None => (line, ""),
            };
            out.push_str(&body[..site.range.start]);
            out.push_str(&site.replacement);
            out.push_str(&body[site.range.end..]);
            out.push_str(newline);
        } else {
            out.push_str(line);
        }
    }
    out
}

/// Up to `n` mutants of `verilog` at distinct sites, chosen by a shuffle seeded with `seed`.
pub fn mutants(verilog: &str, n: usize, seed: u64) -> Vec<Mutant> {
    let mut all = sites(verilog);
    let mut rng = SplitMix64::new(seed);
    // Fisher-Yates from the end.
    for i in (1..all.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        all.swap(i, j);
    }
    let lines: Vec<&str> = verilog.lines().collect();
    all.into_iter()
        .take(n)
        .enumerate()
        .map(|(k, site)| {
            let verilog = apply(verilog, &site);
            let before = lines[site.line].trim();
            let after_lines: Vec<&str> = verilog.lines().collect();
            let after = if site.operator == Operator::StickRegisterBit {
                after_lines[site.line + 1].trim()
            } else {
                after_lines[site.line].trim()
            };
            let description = if site.operator == Operator::StickRegisterBit {
                format!("line {}: after \"{before}\" add \"{after}\"", site.line + 1)
            } else {
                format!("line {}: \"{before}\" -> \"{after}\"", site.line + 1)
            };
            Mutant {
                number: k + 1,
                site,
                description,
                verilog,
            }
        })
        .collect()
}

/// What became of a mutant on the bench.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fate {
    /// A level failed: the first one that did, and its first mismatch.
    Killed {
        /// The level (or engine) that killed it.
        by: String,
        /// Its first mismatch, in a line.
        detail: String,
    },
    /// Every level passed and a proof shows it equal to the reference.
    Equivalent {
        /// The proof.
        proof: String,
    },
    /// Every level passed but it is not (proven) equal to the reference.
    Survived {
        /// Why it is not counted as equivalent.
        reason: String,
    },
    /// The tools refused it (does not compile or synthesise): not counted.
    Stillborn {
        /// The tool's complaint.
        error: String,
    },
}

/// Counts of each fate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Killed by some level.
    pub killed: usize,
    /// Not killed and proven equivalent.
    pub equivalent: usize,
    /// Not killed and not equivalent.
    pub survived: usize,
    /// Not compiled.
    pub stillborn: usize,
}

impl Score {
    /// Adds one fate.
    pub fn add(&mut self, fate: &Fate) {
        match fate {
            Fate::Killed { .. } => self.killed += 1,
            Fate::Equivalent { .. } => self.equivalent += 1,
            Fate::Survived { .. } => self.survived += 1,
            Fate::Stillborn { .. } => self.stillborn += 1,
        }
    }

    /// Killed out of the non-equivalent mutants, as a percentage (100 when there are none).
    pub fn percent(&self) -> f64 {
        let n = self.killed + self.survived;
        if n == 0 {
            100.0
        } else {
            100.0 * self.killed as f64 / n as f64
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} killed, {} survived, {} equivalent, {} did not build; mutation score {:.1}% \
             (killed / (killed + survived))",
            self.killed,
            self.survived,
            self.equivalent,
            self.stillborn,
            self.percent()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JR01: &str = "module jr01_strategy(a,b,c,x,y,z);
    input wire  a;
    output reg  x;
    localparam  count = 5'b10010;
    always @(*) begin
        x = (a) | (b & c);
        if (reset | new_game) begin
            q = 3'd6;
        end
        legal = ({3'd0, take} <= remaining);
    end
endmodule
module r(d,q,clock);
    input wire  [1:0] d;
    output reg  [1:0] q;
    always @(posedge clock) begin
       q <= d;
    end
endmodule
";

    fn of(op: Operator) -> Vec<String> {
        sites(JR01)
            .iter()
            .filter(|s| s.operator == op)
            .map(|s| {
                apply(JR01, s)
                    .lines()
                    .nth(s.line)
                    .unwrap()
                    .trim()
                    .to_owned()
            })
            .collect()
    }

    #[test]
    fn every_operator_finds_its_sites() {
        assert_eq!(of(Operator::AndToOr), vec!["x = (a) | (b | c);"]);
        assert_eq!(
            of(Operator::OrToAnd),
            vec!["x = (a) & (b & c);", "if (reset & new_game) begin"]
        );
        assert_eq!(
            of(Operator::DropProductTerm),
            vec!["x = (b & c);", "x = (a);"]
        );
        assert_eq!(
            of(Operator::InvertCondition),
            vec!["if (!(reset | new_game)) begin"]
        );
        assert_eq!(
            of(Operator::LessEqualToLess),
            vec!["legal = ({3'd0, take} < remaining);"]
        );
        let flips = of(Operator::FlipConstantBit);
        // 5 bits of the localparam, 3 of 3'd6, 3 of 3'd0.
        assert_eq!(flips.len(), 11, "{flips:?}");
        assert!(flips.contains(&"localparam  count = 5'b10011;".to_owned()));
        assert!(flips.contains(&"q = 3'd2;".to_owned()));
        let stuck: Vec<Site> = sites(JR01)
            .into_iter()
            .filter(|s| s.operator == Operator::StickRegisterBit)
            .collect();
        assert_eq!(stuck.len(), 4);
        assert!(apply(JR01, &stuck[3]).contains("q <= d;\n       q[1] <= 1'b1; // stuck\n"));
        // Declarations are never touched: `input wire` has no site.
        assert!(sites(JR01).iter().all(|s| s.line != 1 && s.line != 2));
    }

    #[test]
    fn the_same_seed_gives_the_same_mutants() {
        let a = mutants(JR01, 5, 7);
        let b = mutants(JR01, 5, 7);
        let c = mutants(JR01, 5, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(a.len(), 5);
        assert!(a.iter().all(|m| m.verilog != JR01));
        // More than there are sites: every site once.
        let all = mutants(JR01, 1000, 1);
        assert_eq!(all.len(), sites(JR01).len());
    }

    #[test]
    fn the_score_counts_killed_out_of_non_equivalent() {
        let mut s = Score::default();
        s.add(&Fate::Killed {
            by: "icarus".into(),
            detail: String::new(),
        });
        s.add(&Fate::Equivalent {
            proof: "sat".into(),
        });
        assert_eq!(s.percent(), 100.0);
        s.add(&Fate::Survived {
            reason: String::new(),
        });
        assert_eq!(s.percent(), 50.0);
    }
}
