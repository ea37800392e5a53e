//! Move expressions for KEGE heap games: a small parser and evaluator.
//!
//! A move is an integer expression in `x` (the size of the heap it applies to)
//! with an optional guard:
//!
//! ```text
//! move  := expr [ 'if' cond ]
//! cond  := and ( 'or' and )*
//! and   := not ( 'and' not )*
//! not   := 'not' not | cmp
//! cmp   := sum [ ('=='|'!='|'<'|'<='|'>'|'>=') sum ]
//! sum   := term ( ('+'|'-') term )*
//! term  := unary ( ('*'|'/'|'%') unary )*
//! unary := '-' unary | INT | 'x' | '(' cond ')'
//! ```
//!
//! Whitespace is insignificant. `/` and `%` are floor division and floor modulo
//! (Python semantics: `-7/2 == -4`, `-7%2 == 1`). Arithmetic is `i64`; overflow
//! and division by zero are evaluation errors.
//!
//! `not` binds looser than a comparison and tighter than `and`, which binds
//! tighter than `or` (as in Python): `not x==3 and x>1` is `(not (x==3)) and (x>1)`.
//! Comparisons do not chain: `1<x<3` is a parse error.
//!
//! Numbers and conditions share one precedence ladder, so parentheses can wrap
//! either; each node is checked to be a number or a condition where it is used,
//! which gives precise "a condition used as a value" errors.
//!
//! Parsing and evaluation recurse, so the parser bounds how deep they go: at most
//! [`MAX_NESTING`] levels of parentheses, unary `-` and `not` inside one another, and
//! expression trees at most [`MAX_DEPTH`] operations deep (a chain `x+1+1+...` is as deep
//! as it is long). Deeper text is a parse error naming the column, never a stack overflow.

use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// Most parentheses, unary `-` and `not` a move may nest inside one another.
pub const MAX_NESTING: usize = 64;

/// Most operations deep a move's expression tree may be (each operator, unary `-` and `not`
/// adds one level over its deepest operand; parentheses add none).
pub const MAX_DEPTH: usize = 256;

/// Longest source text a parse error quotes in full; longer moves are quoted around the
/// error's column.
const QUOTED_CHARS: usize = 60;

/// Arithmetic operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Floor division.
    Div,
    /// Floor modulo (sign follows the divisor).
    Mod,
}

/// Comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Integer expression in `x`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Num(i64),
    X,
    Neg(Box<Expr>),
    Bin(BinOp, Box<Expr>, Box<Expr>),
}

/// Guard condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cond {
    Cmp(CmpOp, Expr, Expr),
    Not(Box<Cond>),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

/// A parsed move: `value` applied to `x` when `guard` (if any) holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveExpr {
    source: String,
    value: Expr,
    guard: Option<Cond>,
}

/// Why a move text does not parse. `offset` is the 0-based column, counted in
/// chars, into `source` (the trimmed move text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    pub offset: usize,
    pub message: String,
    pub source: String,
}

/// Why a move could not be applied to a given `x`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EvalError {
    #[error("division or modulo by zero in move `{expr}` at x = {x}")]
    DivisionByZero { expr: String, x: i64 },
    #[error("arithmetic overflow (beyond 64-bit signed integers) in move `{expr}` at x = {x}")]
    Overflow { expr: String, x: i64 },
}

// ---------------------------------------------------------------- public API

impl MoveExpr {
    /// Parses a move such as `x+x/2 if x%2==0`. Surrounding whitespace is ignored.
    pub fn parse(src: &str) -> Result<MoveExpr, ParseError> {
        let source = src.trim();
        let chars: Vec<char> = source.chars().collect();
        let toks = tokenize(source, &chars)?;
        Parser {
            source,
            chars: &chars,
            toks,
            pos: 0,
            nesting: 0,
        }
        .parse_move()
    }

    /// The move text as given, trimmed.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The expression computing the new heap size.
    pub fn value(&self) -> &Expr {
        &self.value
    }

    /// The guard, if the move has an `if`.
    pub fn guard(&self) -> Option<&Cond> {
        self.guard.as_ref()
    }

    /// Ok(None) when the guard is false; Ok(Some(v)) otherwise; Err on division/modulo
    /// by zero or overflow. The guard is evaluated first, so a false guard protects
    /// the value (`x/(x-3) if x!=3` gives Ok(None) at x = 3).
    pub fn apply(&self, x: i64) -> Result<Option<i64>, EvalError> {
        let err = |f: Fault| match f {
            Fault::DivByZero => EvalError::DivisionByZero {
                expr: self.source.clone(),
                x,
            },
            Fault::Overflow => EvalError::Overflow {
                expr: self.source.clone(),
                x,
            },
        };
        if let Some(guard) = &self.guard {
            if !guard.eval(x).map_err(err)? {
                return Ok(None);
            }
        }
        self.value.eval(x).map(Some).map_err(err)
    }

    /// True when the move never changes x: for every x in `range` where the guard
    /// holds, the result equals x (e.g. `x*1`, `x/1`, `x+0`, `x+1-1`). Used to refuse
    /// pointless moves. Checks every x in `range`, so keep the range small.
    ///
    /// An x where evaluation fails counts as a change (the move is broken, not
    /// pointless), so `x/0` is not an identity. A move whose guard holds nowhere
    /// in `range` is vacuously an identity: it can never change x there.
    pub fn is_identity_on(&self, range: RangeInclusive<i64>) -> bool {
        range.into_iter().all(|x| match self.apply(x) {
            Ok(None) => true,
            Ok(Some(v)) => v == x,
            Err(_) => false,
        })
    }
}

impl fmt::Display for MoveExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

impl FromStr for MoveExpr {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, ParseError> {
        MoveExpr::parse(s)
    }
}

/// Serialized as its source text.
impl serde::Serialize for MoveExpr {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.source)
    }
}

/// Deserialized from move text, which must parse.
impl<'de> serde::Deserialize<'de> for MoveExpr {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        MoveExpr::parse(&text).map_err(serde::de::Error::custom)
    }
}

impl ParseError {
    fn new(source: &str, offset: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            offset,
            message: message.into(),
            source: source.to_string(),
        }
    }
}

/// `message at column N in move `src``, then the source and a caret under column N. A move
/// longer than [`QUOTED_CHARS`] is quoted around the column, with `...` marking the cuts.
impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flat = |c: char| {
            if c.is_whitespace() && c != '\t' {
                ' '
            } else {
                c
            }
        };
        let chars: Vec<char> = self.source.chars().collect();
        let (from, to) = if chars.len() <= QUOTED_CHARS {
            (0, chars.len())
        } else {
            let from = self.offset.saturating_sub(QUOTED_CHARS / 2);
            let to = (from + QUOTED_CHARS).min(chars.len());
            (to.saturating_sub(QUOTED_CHARS), to)
        };
        let head = if from > 0 { "..." } else { "" };
        let tail = if to < chars.len() { "..." } else { "" };
        let quoted: String = chars[from..to].iter().collect();
        let line: String = chars[from..to].iter().copied().map(flat).collect();
        let pad: String = head
            .chars()
            .map(|_| ' ')
            .chain(chars[from..self.offset.clamp(from, to)].iter().map(|&c| {
                if c == '\t' {
                    '\t'
                } else {
                    ' '
                }
            }))
            .collect();
        write!(
            f,
            "{} at column {} in move `{head}{quoted}{tail}`\n  {head}{line}{tail}\n  {pad}^",
            self.message,
            self.offset + 1,
        )
    }
}

// `source` is the move text, not an underlying error, so this is written by hand:
// thiserror would take a field named `source` as the error's cause.
impl std::error::Error for ParseError {}

// ---------------------------------------------------------------- evaluation

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    DivByZero,
    Overflow,
}

impl Expr {
    fn eval(&self, x: i64) -> Result<i64, Fault> {
        match self {
            Expr::Num(n) => Ok(*n),
            Expr::X => Ok(x),
            Expr::Neg(e) => e.eval(x)?.checked_neg().ok_or(Fault::Overflow),
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(x)?, b.eval(x)?);
                match op {
                    BinOp::Add => a.checked_add(b).ok_or(Fault::Overflow),
                    BinOp::Sub => a.checked_sub(b).ok_or(Fault::Overflow),
                    BinOp::Mul => a.checked_mul(b).ok_or(Fault::Overflow),
                    BinOp::Div => floor_div(a, b),
                    BinOp::Mod => floor_mod(a, b),
                }
            }
        }
    }
}

fn floor_div(a: i64, b: i64) -> Result<i64, Fault> {
    if b == 0 {
        return Err(Fault::DivByZero);
    }
    let q = a.checked_div(b).ok_or(Fault::Overflow)?; // i64::MIN / -1
    Ok(if a % b != 0 && (a < 0) != (b < 0) {
        q - 1
    } else {
        q
    })
}

fn floor_mod(a: i64, b: i64) -> Result<i64, Fault> {
    match b {
        0 => Err(Fault::DivByZero),
        -1 => Ok(0), // `i64::MIN % -1` would overflow in Rust; the true result is 0
        _ => {
            let r = a % b;
            Ok(if r != 0 && (r < 0) != (b < 0) {
                r + b
            } else {
                r
            })
        }
    }
}

impl Cond {
    fn eval(&self, x: i64) -> Result<bool, Fault> {
        Ok(match self {
            Cond::Cmp(op, a, b) => {
                let (a, b) = (a.eval(x)?, b.eval(x)?);
                match op {
                    CmpOp::Eq => a == b,
                    CmpOp::Ne => a != b,
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Gt => a > b,
                    CmpOp::Ge => a >= b,
                }
            }
            Cond::Not(c) => !c.eval(x)?,
            Cond::And(a, b) => a.eval(x)? && b.eval(x)?,
            Cond::Or(a, b) => a.eval(x)? || b.eval(x)?,
        })
    }
}

// ---------------------------------------------------------------- tokenizer

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Num(i64),
    X,
    If,
    And,
    Or,
    Not,
    Op(BinOp),
    Cmp(CmpOp),
    LParen,
    RParen,
    Eof,
}

/// A token and its char span `[start, end)` in the trimmed source.
#[derive(Clone, Copy, Debug)]
struct Token {
    tok: Tok,
    start: usize,
    end: usize,
}

fn tokenize(source: &str, chars: &[char]) -> Result<Vec<Token>, ParseError> {
    let err = |at: usize, msg: String| ParseError::new(source, at, msg);
    let mut toks = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (start, c) = (i, chars[i]);
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let tok = if c.is_ascii_digit() {
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            let n = text.parse().map_err(|_| {
                err(
                    start,
                    format!("number {text} is too large (the largest is {})", i64::MAX),
                )
            })?;
            Tok::Num(n)
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            match word.as_str() {
                "x" => Tok::X,
                "if" => Tok::If,
                "and" => Tok::And,
                "or" => Tok::Or,
                "not" => Tok::Not,
                _ => {
                    return Err(err(
                        start,
                        format!("unknown name `{word}`: a move can only use `x`"),
                    ))
                }
            }
        } else {
            let next = chars.get(i + 1).copied();
            let (tok, len) = match (c, next) {
                ('=', Some('=')) => (Tok::Cmp(CmpOp::Eq), 2),
                ('!', Some('=')) => (Tok::Cmp(CmpOp::Ne), 2),
                ('<', Some('=')) => (Tok::Cmp(CmpOp::Le), 2),
                ('>', Some('=')) => (Tok::Cmp(CmpOp::Ge), 2),
                ('<', _) => (Tok::Cmp(CmpOp::Lt), 1),
                ('>', _) => (Tok::Cmp(CmpOp::Gt), 1),
                ('/', Some('/')) => {
                    let msg = "unexpected '//': `/` already is floor division";
                    return Err(err(start, msg.into()));
                }
                ('+', _) => (Tok::Op(BinOp::Add), 1),
                ('-', _) => (Tok::Op(BinOp::Sub), 1),
                ('*', _) => (Tok::Op(BinOp::Mul), 1),
                ('/', _) => (Tok::Op(BinOp::Div), 1),
                ('%', _) => (Tok::Op(BinOp::Mod), 1),
                ('(', _) => (Tok::LParen, 1),
                (')', _) => (Tok::RParen, 1),
                _ => {
                    let hint = match c {
                        '=' => ": use '==' to compare",
                        '&' => ": use `and` to combine conditions",
                        '|' => ": use `or` to combine conditions",
                        '!' => ": use `not` to negate a condition",
                        _ => "",
                    };
                    return Err(err(start, format!("unexpected character '{c}'{hint}")));
                }
            };
            i += len;
            tok
        };
        toks.push(Token { tok, start, end: i });
    }
    toks.push(Token {
        tok: Tok::Eof,
        start: chars.len(),
        end: chars.len(),
    });
    Ok(toks)
}

// ---------------------------------------------------------------- parser

/// A parsed subterm that is either a number or a condition, with its char span.
struct Node {
    kind: Kind,
    start: usize,
    end: usize,
    /// Operations deep (a leaf is 1); see [`MAX_DEPTH`].
    depth: usize,
}

enum Kind {
    Value(Expr),
    Cond(Cond),
}

struct Parser<'a> {
    source: &'a str,
    chars: &'a [char],
    toks: Vec<Token>,
    pos: usize,
    /// Parentheses, unary `-` and `not` open around the current token; see [`MAX_NESTING`].
    nesting: usize,
}

type PResult<T> = Result<T, ParseError>;

impl Parser<'_> {
    fn peek(&self) -> Token {
        self.toks[self.pos]
    }

    fn bump(&mut self) -> Token {
        let t = self.peek();
        if t.tok != Tok::Eof {
            self.pos += 1;
        }
        t
    }

    fn err(&self, at: usize, message: impl Into<String>) -> ParseError {
        ParseError::new(self.source, at, message)
    }

    fn text(&self, start: usize, end: usize) -> String {
        self.chars[start..end].iter().collect()
    }

    fn describe(&self, t: Token) -> String {
        match t.tok {
            Tok::Eof => "end of input".to_string(),
            _ => format!("'{}'", self.text(t.start, t.end)),
        }
    }

    fn value(&self, n: Node) -> PResult<Expr> {
        match n.kind {
            Kind::Value(e) => Ok(e),
            Kind::Cond(_) => {
                let t = self.text(n.start, n.end);
                let msg = format!(
                    "a condition used as a value: `{t}` is true or false, \
                     but a number is needed here"
                );
                Err(self.err(n.start, msg))
            }
        }
    }

    fn cond(&self, n: Node) -> PResult<Cond> {
        match n.kind {
            Kind::Cond(c) => Ok(c),
            Kind::Value(_) => {
                let t = self.text(n.start, n.end);
                let msg = format!(
                    "a value used as a condition: `{t}` is a number; compare it, e.g. `{t} > 0`"
                );
                Err(self.err(n.start, msg))
            }
        }
    }

    fn parse_move(mut self) -> PResult<MoveExpr> {
        if self.peek().tok == Tok::Eof {
            return Err(self.err(0, "empty move: expected an expression in `x`, e.g. `x+1`"));
        }
        let node = self.or()?;
        let value = self.value(node)?;
        let mut guard = None;
        if self.peek().tok == Tok::If {
            let kw = self.bump();
            if self.peek().tok == Tok::Eof {
                let msg = "`if` with no condition: write one after it, e.g. `x+1 if x%2==0`";
                return Err(self.err(kw.start, msg));
            }
            let node = self.or()?;
            guard = Some(self.cond(node)?);
        }
        let t = self.peek();
        let expected = if guard.is_some() {
            "`and`, `or`"
        } else {
            "an operator, `if`"
        };
        match t.tok {
            Tok::Eof => Ok(MoveExpr {
                source: self.source.to_string(),
                value,
                guard,
            }),
            Tok::RParen => Err(self.err(t.start, "unexpected ')'")),
            _ => {
                let msg = format!(
                    "unexpected {}: expected {expected} or end of input",
                    self.describe(t)
                );
                Err(self.err(t.start, msg))
            }
        }
    }

    fn or(&mut self) -> PResult<Node> {
        let mut lhs = self.and()?;
        while self.peek().tok == Tok::Or {
            let op = self.bump();
            let rhs = self.and()?;
            lhs = self.logic(op, lhs, rhs, Cond::Or)?;
        }
        Ok(lhs)
    }

    fn and(&mut self) -> PResult<Node> {
        let mut lhs = self.not()?;
        while self.peek().tok == Tok::And {
            let op = self.bump();
            let rhs = self.not()?;
            lhs = self.logic(op, lhs, rhs, Cond::And)?;
        }
        Ok(lhs)
    }

    fn logic(
        &self,
        op: Token,
        lhs: Node,
        rhs: Node,
        f: fn(Box<Cond>, Box<Cond>) -> Cond,
    ) -> PResult<Node> {
        let (start, end) = (lhs.start, rhs.end);
        let depth = self.deeper(op, lhs.depth.max(rhs.depth))?;
        let (a, b) = (self.cond(lhs)?, self.cond(rhs)?);
        Ok(Node {
            kind: Kind::Cond(f(Box::new(a), Box::new(b))),
            start,
            end,
            depth,
        })
    }

    /// The depth of a node one operation (`op`) above operands at most `below` deep, or the
    /// error at `op` when that passes [`MAX_DEPTH`].
    fn deeper(&self, op: Token, below: usize) -> PResult<usize> {
        if below >= MAX_DEPTH {
            let msg = format!(
                "the move is too deep: more than {MAX_DEPTH} operations stacked on one another \
                 (long chains like `x+1+1+...` count one per operator); simplify the move"
            );
            return Err(self.err(op.start, msg));
        }
        Ok(below + 1)
    }

    /// Enters a parenthesis, unary `-` or `not` opened by `t`, or refuses it past
    /// [`MAX_NESTING`]. The caller calls [`Parser::close`] when the inner part is parsed.
    fn open(&mut self, t: Token) -> PResult<()> {
        if self.nesting >= MAX_NESTING {
            let msg = format!(
                "nested too deeply: more than {MAX_NESTING} parentheses, unary `-` and `not` \
                 inside one another; simplify the move"
            );
            return Err(self.err(t.start, msg));
        }
        self.nesting += 1;
        Ok(())
    }

    fn close(&mut self) {
        self.nesting -= 1;
    }

    fn not(&mut self) -> PResult<Node> {
        if self.peek().tok != Tok::Not {
            return self.cmp();
        }
        let kw = self.bump();
        self.open(kw)?;
        let inner = self.not()?;
        self.close();
        let (end, depth) = (inner.end, self.deeper(kw, inner.depth)?);
        let c = self.cond(inner)?;
        Ok(Node {
            kind: Kind::Cond(Cond::Not(Box::new(c))),
            start: kw.start,
            end,
            depth,
        })
    }

    fn cmp(&mut self) -> PResult<Node> {
        let lhs = self.sum()?;
        let Tok::Cmp(op) = self.peek().tok else {
            return Ok(lhs);
        };
        let op_token = self.bump();
        let rhs = self.sum()?;
        if let Tok::Cmp(_) = self.peek().tok {
            let msg = "comparisons can't be chained: join them with `and`, e.g. `0<x and x<10`";
            return Err(self.err(self.peek().start, msg));
        }
        let (start, end) = (lhs.start, rhs.end);
        let depth = self.deeper(op_token, lhs.depth.max(rhs.depth))?;
        let (a, b) = (self.value(lhs)?, self.value(rhs)?);
        Ok(Node {
            kind: Kind::Cond(Cond::Cmp(op, a, b)),
            start,
            end,
            depth,
        })
    }

    fn sum(&mut self) -> PResult<Node> {
        self.binary(&[BinOp::Add, BinOp::Sub], Self::term)
    }

    fn term(&mut self) -> PResult<Node> {
        self.binary(&[BinOp::Mul, BinOp::Div, BinOp::Mod], Self::unary)
    }

    /// Left-associative chain of `ops` over operands parsed by `next`.
    fn binary(&mut self, ops: &[BinOp], next: fn(&mut Self) -> PResult<Node>) -> PResult<Node> {
        let mut lhs = next(self)?;
        while let Tok::Op(op) = self.peek().tok {
            if !ops.contains(&op) {
                break;
            }
            let op_token = self.bump();
            let rhs = next(self)?;
            let (start, end) = (lhs.start, rhs.end);
            let depth = self.deeper(op_token, lhs.depth.max(rhs.depth))?;
            let (a, b) = (self.value(lhs)?, self.value(rhs)?);
            lhs = Node {
                kind: Kind::Value(Expr::Bin(op, Box::new(a), Box::new(b))),
                start,
                end,
                depth,
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Node> {
        let prev = self.pos.checked_sub(1).map(|i| self.toks[i]);
        let t = self.bump();
        let leaf = |e| {
            Ok(Node {
                kind: Kind::Value(e),
                start: t.start,
                end: t.end,
                depth: 1,
            })
        };
        match t.tok {
            Tok::Num(n) => leaf(Expr::Num(n)),
            Tok::X => leaf(Expr::X),
            Tok::Op(BinOp::Sub) => {
                self.open(t)?;
                let inner = self.unary()?;
                self.close();
                let (end, depth) = (inner.end, self.deeper(t, inner.depth)?);
                let e = self.value(inner)?;
                Ok(Node {
                    kind: Kind::Value(Expr::Neg(Box::new(e))),
                    start: t.start,
                    end,
                    depth,
                })
            }
            Tok::LParen => {
                if self.peek().tok == Tok::RParen {
                    return Err(self.err(t.start, "empty parentheses '()'"));
                }
                self.open(t)?;
                let inner = self.or()?;
                self.close();
                let close = self.peek();
                match close.tok {
                    Tok::RParen => {
                        self.bump();
                        Ok(Node {
                            kind: inner.kind,
                            start: t.start,
                            end: close.end,
                            depth: inner.depth,
                        })
                    }
                    Tok::Eof => Err(self.err(t.start, "unclosed '(': no matching ')'")),
                    _ => {
                        let msg = format!(
                            "expected ')' to close the '(' at column {}, found {}",
                            t.start + 1,
                            self.describe(close)
                        );
                        Err(self.err(close.start, msg))
                    }
                }
            }
            _ => {
                let found = self.describe(t);
                let msg = match prev {
                    Some(prev) => format!(
                        "missing operand after {}: expected a number, 'x' or '(', found {found}",
                        self.describe(prev)
                    ),
                    None => format!("unexpected {found}: expected a number, 'x' or '('"),
                };
                Err(self.err(t.start, msg))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn m(s: &str) -> MoveExpr {
        MoveExpr::parse(s).unwrap_or_else(|e| panic!("{e}"))
    }

    fn ap(s: &str, x: i64) -> Option<i64> {
        m(s).apply(x).unwrap_or_else(|e| panic!("{e}"))
    }

    fn perr(s: &str) -> ParseError {
        MoveExpr::parse(s).expect_err(s)
    }

    /// Asserts the error's 0-based offset and that its message contains `needle`.
    fn assert_perr(s: &str, offset: usize, needle: &str) {
        let e = perr(s);
        assert_eq!(e.offset, offset, "offset for {s:?}: {e}");
        assert!(
            e.message.contains(needle),
            "message for {s:?} lacks {needle:?}: {e}"
        );
        assert!(
            e.to_string().contains(&format!("at column {}", offset + 1)),
            "{e}"
        );
    }

    fn n(v: i64) -> Box<Expr> {
        Box::new(Expr::Num(v))
    }

    // ------------------------------------------------------------ evaluation

    #[test]
    fn brief_examples() {
        type Case = (&'static str, &'static [(i64, Option<i64>)]);
        let cases: &[Case] = &[
            ("x+1", &[(0, Some(1)), (5, Some(6)), (-3, Some(-2))]),
            ("x*4", &[(3, Some(12)), (-2, Some(-8)), (0, Some(0))]),
            ("x*3-2", &[(5, Some(13)), (0, Some(-2))]),
            (
                "x+x/2 if x%2==0",
                &[
                    (10, Some(15)),
                    (4, Some(6)),
                    (7, None),
                    (-4, Some(-6)),
                    (-3, None),
                ],
            ),
            (
                "x/3 if x%3==0",
                &[
                    (9, Some(3)),
                    (10, None),
                    (11, None),
                    (-9, Some(-3)),
                    (0, Some(0)),
                ],
            ),
            ("x-5", &[(12, Some(7)), (3, Some(-2))]),
            ("2*x+1", &[(5, Some(11)), (-5, Some(-9))]),
            ("(x+1)*2", &[(5, Some(12)), (-1, Some(0))]),
        ];
        for (src, pairs) in cases {
            let mv = m(src);
            for &(x, want) in *pairs {
                assert_eq!(mv.apply(x), Ok(want), "{src} at x={x}");
            }
        }
    }

    #[test]
    fn floor_division_and_modulo_follow_python() {
        // (a, b, a // b, a % b) as Python computes them.
        let table = [
            (7, 2, 3, 1),
            (-7, 2, -4, 1),
            (7, -2, -4, -1),
            (-7, -2, 3, -1),
            (-6, 2, -3, 0),
            (-1, 3, -1, 2),
            (1, -3, -1, -2),
            (0, -5, 0, 0),
        ];
        for (a, b, q, r) in table {
            // `x/-2`: a negative divisor is written with unary minus.
            assert_eq!(ap(&format!("x/{b}"), a), Some(q), "{a}/{b}");
            assert_eq!(ap(&format!("x%({b})"), a), Some(r), "{a}%{b}");
            assert_eq!(ap(&format!("({a})/({b})"), 0), Some(q));
        }
        // Unary minus binds tighter than `/`, as in Python: -7/2 is (-7)/2.
        assert_eq!(ap("-7/2", 0), Some(-4));
        assert_eq!(ap("-7%2", 0), Some(1));
        assert_eq!(ap("-(7/2)", 0), Some(-3));
        assert_eq!(ap("-x/2", 7), Some(-4));
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(ap("2+3*4", 0), Some(14));
        assert_eq!(ap("10-4-3", 0), Some(3));
        assert_eq!(ap("100/10/5", 0), Some(2));
        assert_eq!(ap("7%3*2", 0), Some(2));
        assert_eq!(ap("2*-3", 0), Some(-6));
        assert_eq!(ap("x--3", 1), Some(4));
        assert_eq!(ap("--x", 5), Some(5));
        assert_eq!(ap("-(x+1)", 5), Some(-6));
        assert_eq!(ap("((x))", 5), Some(5));
        assert_eq!(
            m("1-2-3").value(),
            &Expr::Bin(
                BinOp::Sub,
                Box::new(Expr::Bin(BinOp::Sub, n(1), n(2))),
                n(3)
            )
        );
        assert_eq!(
            m("x+2*3").value(),
            &Expr::Bin(
                BinOp::Add,
                Box::new(Expr::X),
                Box::new(Expr::Bin(BinOp::Mul, n(2), n(3)))
            )
        );
        assert_eq!(
            m("-x%3").value(),
            &Expr::Bin(BinOp::Mod, Box::new(Expr::Neg(Box::new(Expr::X))), n(3))
        );
    }

    #[test]
    fn comparisons() {
        let cases = [
            ("==", [false, true, false]),
            ("!=", [true, false, true]),
            ("<", [true, false, false]),
        ];
        let more = [
            ("<=", [true, true, false]),
            (">", [false, false, true]),
            (">=", [false, true, true]),
        ];
        for (op, want) in cases.into_iter().chain(more) {
            for (x, w) in [4, 5, 6].into_iter().zip(want) {
                assert_eq!(
                    ap(&format!("x if x{op}5"), x),
                    w.then_some(x),
                    "x{op}5 at {x}"
                );
            }
        }
        assert_eq!(ap("x if x*2 == x+3", 3), Some(3));
    }

    #[test]
    fn guards_with_and_or_not() {
        let mv = m("x+1 if (x%2==0 or x>10) and not x==3");
        for (x, want) in [
            (2, Some(3)),
            (3, None),
            (4, Some(5)),
            (5, None),
            (11, Some(12)),
            (12, Some(13)),
        ] {
            assert_eq!(mv.apply(x), Ok(want), "x={x}");
        }
        // `not` binds looser than a comparison ...
        assert_eq!(ap("x if not x==3", 3), None);
        assert_eq!(ap("x if not x==3", 4), Some(4));
        // ... and tighter than `and`: (not x>1) and x>0.
        let mv = m("x if not x>1 and x>0");
        assert_eq!(
            (mv.apply(1), mv.apply(5), mv.apply(0)),
            (Ok(Some(1)), Ok(None), Ok(None))
        );
        // `and` binds tighter than `or`: x==1 or (x==2 and x==3).
        let mv = m("x if x==1 or x==2 and x==3");
        assert_eq!((mv.apply(1), mv.apply(2)), (Ok(Some(1)), Ok(None)));
        assert_eq!(ap("x if (x==1 or x==2) and x==2", 2), Some(2));
        assert_eq!(ap("x if not not x==2", 2), Some(2));
        assert_eq!(ap("x if not (x==2 or x==3)", 3), None);
        assert!(
            matches!(m("x if not x==3 and x>1").guard(), Some(Cond::And(a, _)) if matches!(**a, Cond::Not(_)))
        );
        assert_eq!(m("x+1").guard(), None);
    }

    #[test]
    fn guard_is_checked_first_and_short_circuits() {
        assert_eq!(ap("x/(x-3) if x!=3", 3), None);
        assert_eq!(ap("x if x==3 or 1/(x-3)==0", 3), Some(3));
        assert_eq!(ap("x if x!=3 and 1/(x-3)==1", 3), None);
        assert_eq!(ap("x if x!=3 and 1/(x-3)==1", 4), Some(4));
    }

    #[test]
    fn whitespace_is_insignificant_and_source_is_trimmed() {
        let mv = m("  x  +  x / 2   if   x % 2 == 0 \n");
        assert_eq!(mv.source(), "x  +  x / 2   if   x % 2 == 0");
        assert_eq!(mv.to_string(), mv.source());
        assert_eq!(mv.apply(10), Ok(Some(15)));
        assert_eq!(ap("x\n+1\tif\nx>0", 1), Some(2));
        assert_eq!(ap("x+1 if(x>0)", 1), Some(2));
        assert_eq!(ap("(x)if(x>0)", 1), Some(1));
        // Same AST regardless of spacing; the source text still differs.
        assert_eq!(m("x + 1").value(), m("x+1").value());
        assert_ne!(m("x + 1"), m("x+1"));
    }

    #[test]
    fn division_by_zero_is_an_eval_error() {
        let e = m("x/0").apply(5).unwrap_err();
        assert_eq!(
            e,
            EvalError::DivisionByZero {
                expr: "x/0".into(),
                x: 5
            }
        );
        assert_eq!(
            e.to_string(),
            "division or modulo by zero in move `x/0` at x = 5"
        );
        assert!(matches!(
            m("x%0").apply(1),
            Err(EvalError::DivisionByZero { .. })
        ));
        let mv = m("x/(x-3)");
        assert_eq!(
            mv.apply(3),
            Err(EvalError::DivisionByZero {
                expr: "x/(x-3)".into(),
                x: 3
            })
        );
        assert_eq!(mv.apply(4), Ok(Some(4)));
        assert_eq!(mv.apply(5), Ok(Some(2)));
        // An error inside the guard is reported too.
        assert_eq!(
            m("x if x/0==1").apply(1),
            Err(EvalError::DivisionByZero {
                expr: "x if x/0==1".into(),
                x: 1
            })
        );
    }

    #[test]
    fn overflow_is_an_eval_error() {
        let (max, min) = (i64::MAX, i64::MIN);
        let e = m("x*4").apply(max).unwrap_err();
        assert_eq!(
            e,
            EvalError::Overflow {
                expr: "x*4".into(),
                x: max
            }
        );
        let text = e.to_string();
        assert!(
            text.contains("overflow")
                && text.contains("`x*4`")
                && text.contains("x = 9223372036854775807"),
            "{text}"
        );
        for (src, x) in [
            ("x+1", max),
            ("x-1", min),
            ("-x", min),
            ("x/-1", min),
            ("x*x", 3037000500),
            ("9223372036854775807+1", 0),
        ] {
            assert!(
                matches!(m(src).apply(x), Err(EvalError::Overflow { .. })),
                "{src} at {x}"
            );
        }
        assert!(matches!(
            m("x if x+1>0").apply(max),
            Err(EvalError::Overflow { .. })
        ));
        assert_eq!(ap("x%-1", min), Some(0));
        assert_eq!(ap("x%7", min), Some(min.rem_euclid(7)));
        assert_eq!(ap("x*x", 3037000499), Some(3037000499 * 3037000499));
        assert_eq!(ap("-9223372036854775807-1", 0), Some(min));
        assert_eq!(ap("x+9223372036854775807", -1), Some(max - 1));
    }

    #[test]
    fn identity_detection() {
        for src in [
            "x*1",
            "x/1",
            "x+0",
            "x+1-1",
            "x-0",
            "--x",
            "(x*2)/2",
            "x if x>5",
            "x*1 if x%2==0",
        ] {
            assert!(
                m(src).is_identity_on(0..=100),
                "{src} should be an identity"
            );
        }
        for src in [
            "x+1",
            "x*4",
            "x/3 if x%3==0",
            "x/0",
            "x*0",
            "x-1 if x==50",
            "x/(x-7)",
        ] {
            assert!(
                !m(src).is_identity_on(0..=100),
                "{src} should not be an identity"
            );
        }
        // The answer depends on the range.
        assert!(m("x%1000").is_identity_on(0..=100));
        assert!(!m("x%1000").is_identity_on(-5..=5));
        assert!(m("x*0").is_identity_on(0..=0));
        // A guard that never holds in the range makes the move vacuously an identity.
        assert!(m("x+1 if x<0").is_identity_on(0..=10));
        let (lo, hi) = (1, 0);
        assert!(m("x+1").is_identity_on(lo..=hi)); // empty range
    }

    // ------------------------------------------------------------ parse errors

    #[test]
    fn empty_input() {
        assert_perr("", 0, "empty move");
        assert_perr("  \t\n ", 0, "empty move");
        assert_eq!(perr("   ").source, "");
    }

    #[test]
    fn unknown_identifiers() {
        let e = perr("y+1");
        assert_eq!(
            (e.offset, e.message.as_str()),
            (0, "unknown name `y`: a move can only use `x`")
        );
        assert_perr("x+foo", 2, "unknown name `foo`");
        assert_perr("X+1", 0, "unknown name `X`");
        assert_perr("x+1 ifx>0", 4, "unknown name `ifx`");
        assert_perr("x+1 if x>0 AND x<5", 11, "unknown name `AND`");
    }

    #[test]
    fn caret_diagram() {
        let e = perr("x*4)");
        assert_eq!(
            (e.offset, e.message.as_str(), e.source.as_str()),
            (3, "unexpected ')'", "x*4)")
        );
        assert_eq!(
            e.to_string(),
            "unexpected ')' at column 4 in move `x*4)`\n  x*4)\n     ^"
        );
        // At end of input the caret sits just past the text.
        assert!(perr("  x+ ").to_string().ends_with("\n  x+\n    ^"));
        // Tabs are kept in the padding so the caret lines up.
        assert!(perr("x\t+)").to_string().ends_with("\n  x\t+)\n   \t ^"));
        // Other whitespace (newlines) is flattened in the diagram.
        assert!(perr("x\n+)").to_string().ends_with("\n  x +)\n     ^"));
    }

    #[test]
    fn unexpected_tokens_and_missing_operands() {
        assert_perr(
            "x+",
            2,
            "missing operand after '+': expected a number, 'x' or '(', found end of input",
        );
        assert_perr(
            "x+*2",
            2,
            "missing operand after '+': expected a number, 'x' or '(', found '*'",
        );
        assert_perr("x*4+)", 4, "missing operand after '+'");
        assert_perr("*x", 0, "unexpected '*': expected a number, 'x' or '('");
        assert_perr("+x", 0, "unexpected '+'");
        assert_perr("if x>1", 0, "unexpected 'if'");
        assert_perr("x if x>", 7, "missing operand after '>'");
        assert_perr("x if x>1 and", 12, "missing operand after 'and'");
        assert_perr("x if not", 8, "missing operand after 'not'");
        assert_perr(
            "x+1 2",
            4,
            "unexpected '2': expected an operator, `if` or end of input",
        );
        assert_perr("2x", 1, "unexpected 'x'");
        assert_perr(
            "x if x>1 x",
            9,
            "unexpected 'x': expected `and`, `or` or end of input",
        );
        assert_perr("x if x>1 if x<5", 9, "unexpected 'if'");
        assert_perr("x $ 1", 2, "unexpected character '$'");
        assert_perr("x if x=1", 6, "unexpected character '=': use '=='");
        assert_perr("x if x>1 && x<5", 9, "use `and`");
        assert_perr("x if x>1 || x<5", 9, "use `or`");
        assert_perr("x if !(x>1)", 5, "use `not`");
        assert_perr("x//2", 1, "'//'");
        // Columns count chars, not bytes (U+00A0 is two bytes in UTF-8).
        assert_perr("x\u{a0}+\u{a0}y", 4, "unknown name `y`");
        assert_perr("é+x", 0, "unknown name `é`");
    }

    #[test]
    fn unbalanced_parentheses() {
        assert_perr("(x+1", 0, "unclosed '(': no matching ')'");
        assert_perr("2*((x+1)", 2, "unclosed '('");
        assert_perr(
            "(x+1 x",
            5,
            "expected ')' to close the '(' at column 1, found 'x'",
        );
        assert_perr("x if (x>1", 5, "unclosed '('");
        assert_perr("()", 0, "empty parentheses");
        assert_perr(")x", 0, "unexpected ')'");
        assert_perr("(x+1))", 5, "unexpected ')'");
        assert_perr("x if (x>1))", 10, "unexpected ')'");
    }

    #[test]
    fn nesting_is_limited_with_the_column_of_the_first_level_too_many() {
        let ok = format!("{}x{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert_eq!(ap(&ok, 5), Some(5));
        let deep = format!("{}x{}", "(".repeat(5000), ")".repeat(5000));
        assert_perr(&deep, MAX_NESTING, "nested too deeply");
        assert_eq!(ap(&format!("{}x", "-".repeat(MAX_NESTING)), 5), Some(5));
        assert_perr(&"-".repeat(20000), MAX_NESTING, "nested too deeply");
        assert_perr(
            &format!("{}x", "-".repeat(20000)),
            MAX_NESTING,
            "more than 64 parentheses, unary `-` and `not`",
        );
        let nots = format!("x if {}x>1", "not ".repeat(1000));
        assert_perr(&nots, 5 + 4 * MAX_NESTING, "nested too deeply");
        // Mixed: each '(' and '-' counts once.
        let mixed = format!("{}x{}", "(-".repeat(40), ")".repeat(40));
        assert_perr(&mixed, MAX_NESTING, "nested too deeply");
    }

    #[test]
    fn long_operator_chains_are_limited_too() {
        let ok = format!("x{}", "+1".repeat(MAX_DEPTH - 1));
        assert_eq!(ap(&ok, 0), Some(MAX_DEPTH as i64 - 1));
        let long = format!("x{}", "+1".repeat(100_000));
        // The operator that makes the tree MAX_DEPTH + 1 deep: the MAX_DEPTH-th '+'.
        assert_perr(&long, 2 * (MAX_DEPTH - 1) + 1, "the move is too deep");
        let guard = format!("x if x>0{}", " and x>0".repeat(1000));
        assert_perr(&guard, 9 + 8 * (MAX_DEPTH - 2), "the move is too deep");
    }

    #[test]
    fn long_moves_are_quoted_around_the_error() {
        let long = format!("{}x+{}", "(".repeat(20), "1+".repeat(5000));
        let e = perr(&long);
        let shown = e.to_string();
        assert!(shown.len() < 400, "{shown}");
        assert!(
            shown.contains("in move `...") || shown.contains("in move `("),
            "{shown}"
        );
        // The caret still sits under the offending column of the quoted excerpt.
        let lines: Vec<&str> = shown.lines().collect();
        let caret = lines[2].find('^').unwrap();
        let text = lines[1];
        assert_eq!(&text[caret..caret + 1], "+", "{shown}");
        let e = perr(&format!("{}$", "x+".repeat(100)));
        let shown = e.to_string();
        assert!(shown.ends_with("^"), "{shown}");
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(&lines[1][lines[2].find('^').unwrap()..], "$", "{shown}");
    }

    #[test]
    fn numbers_too_large() {
        assert_perr(
            "99999999999999999999+x",
            0,
            "number 99999999999999999999 is too large",
        );
        assert_perr(
            "x+9223372036854775808",
            2,
            "too large (the largest is 9223372036854775807)",
        );
        assert_eq!(ap("x*0+9223372036854775807", 1), Some(i64::MAX));
        assert_eq!(ap("007", 1), Some(7));
    }

    #[test]
    fn if_without_condition() {
        assert_perr("x+1 if", 4, "`if` with no condition");
        assert_perr("  x+1 if   ", 4, "`if` with no condition");
        assert_perr("x+1 if )", 7, "missing operand after 'if'");
    }

    #[test]
    fn condition_as_value_and_value_as_condition() {
        assert_perr("x>1", 0, "a condition used as a value: `x>1`");
        assert_perr("x+(x>1)", 2, "a condition used as a value: `(x>1)`");
        assert_perr("-(x>1)", 1, "a condition used as a value");
        assert_perr("not x==1", 0, "a condition used as a value: `not x==1`");
        assert_perr(
            "x if (x>1)==(x>2)",
            5,
            "a condition used as a value: `(x>1)`",
        );
        assert_perr(
            "x if x",
            5,
            "a value used as a condition: `x` is a number; compare it, e.g. `x > 0`",
        );
        assert_perr("x if x>1 and x+1", 13, "a value used as a condition: `x+1`");
        assert_perr("x if x+1 or x>1", 5, "a value used as a condition: `x+1`");
        assert_perr("x if not x", 9, "a value used as a condition: `x`");
        assert_perr("x if (x)", 5, "a value used as a condition: `(x)`");
        assert_perr("x if 1<x<3", 8, "comparisons can't be chained");
    }

    // ------------------------------------------------------------ traits

    #[test]
    fn traits_and_serde() {
        let mv: MoveExpr = " x*3-2 ".parse().unwrap();
        assert_eq!(mv.source(), "x*3-2");
        assert!(" y ".parse::<MoveExpr>().is_err());
        assert_eq!(serde_json::to_string(&m("x + 1")).unwrap(), "\"x + 1\"");
        let back: MoveExpr = serde_json::from_str("\"x+x/2 if x%2==0\"").unwrap();
        assert_eq!(back, m("x+x/2 if x%2==0"));
        let err = serde_json::from_str::<MoveExpr>("\"y+1\"")
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown name `y`"), "{err}");
        let boxed: Box<dyn std::error::Error> = Box::new(perr("y"));
        assert!(boxed.source().is_none());
        let boxed: Box<dyn std::error::Error> = Box::new(m("x/0").apply(1).unwrap_err());
        assert!(boxed.to_string().contains("`x/0`"));
    }

    // ------------------------------------------------------------ property tests

    /// Test-side expression tree with its own printer and i128 evaluator.
    #[derive(Clone, Debug)]
    enum TE {
        Num(i64),
        X,
        Neg(Box<TE>),
        Paren(Box<TE>),
        Bin(char, Box<TE>, Box<TE>),
    }

    #[derive(Clone, Debug)]
    enum TC {
        Cmp(&'static str, TE, TE),
        Not(Box<TC>),
        Paren(Box<TC>),
        And(Box<TC>, Box<TC>),
        Or(Box<TC>, Box<TC>),
    }

    #[derive(Debug, PartialEq)]
    enum MErr {
        Div0,
        Ovf,
    }

    fn fit(v: i128) -> Result<i128, MErr> {
        if (i64::MIN as i128..=i64::MAX as i128).contains(&v) {
            Ok(v)
        } else {
            Err(MErr::Ovf)
        }
    }

    fn model_e(e: &TE, x: i128) -> Result<i128, MErr> {
        match e {
            TE::Num(v) => Ok(*v as i128),
            TE::X => Ok(x),
            TE::Paren(a) => model_e(a, x),
            TE::Neg(a) => fit(-model_e(a, x)?),
            TE::Bin(op, a, b) => {
                let (a, b) = (model_e(a, x)?, model_e(b, x)?);
                match op {
                    '+' => fit(a + b),
                    '-' => fit(a - b),
                    '*' => fit(a * b),
                    _ if b == 0 => Err(MErr::Div0),
                    _ => {
                        // floor(a/b) via Euclidean division on a positive divisor.
                        let q = if b > 0 {
                            a.div_euclid(b)
                        } else {
                            (-a).div_euclid(-b)
                        };
                        fit(if *op == '/' { q } else { a - b * q })
                    }
                }
            }
        }
    }

    fn model_c(c: &TC, x: i128) -> Result<bool, MErr> {
        Ok(match c {
            TC::Cmp(op, a, b) => {
                let (a, b) = (model_e(a, x)?, model_e(b, x)?);
                match *op {
                    "==" => a == b,
                    "!=" => a != b,
                    "<" => a < b,
                    "<=" => a <= b,
                    ">" => a > b,
                    _ => a >= b,
                }
            }
            TC::Not(a) => !model_c(a, x)?,
            TC::Paren(a) => model_c(a, x)?,
            TC::And(a, b) => model_c(a, x)? && model_c(b, x)?,
            TC::Or(a, b) => model_c(a, x)? || model_c(b, x)?,
        })
    }

    fn wrap((s, p): (String, u8), min: u8) -> String {
        if p < min {
            format!("({s})")
        } else {
            s
        }
    }

    /// Prints with the fewest parentheses the precedence allows (plus the tree's
    /// explicit `Paren` nodes), so parsing it back exercises precedence.
    /// Precedences: or 1, and 2, not 3, comparison 4, + - 5, * / % 6, unary 7, atom 8.
    fn show_e(e: &TE, sp: bool) -> (String, u8) {
        match e {
            TE::Num(v) => (v.to_string(), 8),
            TE::X => ("x".into(), 8),
            TE::Paren(a) => (format!("({})", show_e(a, sp).0), 8),
            TE::Neg(a) => (format!("-{}", wrap(show_e(a, sp), 7)), 7),
            TE::Bin(op, a, b) => {
                let p = if matches!(op, '+' | '-') { 5 } else { 6 };
                let gap = if sp { " " } else { "" };
                (
                    format!(
                        "{}{gap}{op}{gap}{}",
                        wrap(show_e(a, sp), p),
                        wrap(show_e(b, sp), p + 1)
                    ),
                    p,
                )
            }
        }
    }

    fn show_c(c: &TC, sp: bool) -> (String, u8) {
        match c {
            TC::Cmp(op, a, b) => {
                let gap = if sp { " " } else { "" };
                (
                    format!(
                        "{}{gap}{op}{gap}{}",
                        wrap(show_e(a, sp), 5),
                        wrap(show_e(b, sp), 5)
                    ),
                    4,
                )
            }
            TC::Not(a) => (format!("not {}", wrap(show_c(a, sp), 3)), 3),
            TC::Paren(a) => (format!("({})", show_c(a, sp).0), 8),
            TC::And(a, b) => (
                format!("{} and {}", wrap(show_c(a, sp), 2), wrap(show_c(b, sp), 3)),
                2,
            ),
            TC::Or(a, b) => (
                format!("{} or {}", wrap(show_c(a, sp), 1), wrap(show_c(b, sp), 2)),
                1,
            ),
        }
    }

    /// The AST the parser should build for a test tree.
    fn to_ast(e: &TE) -> Expr {
        match e {
            TE::Num(v) => Expr::Num(*v),
            TE::X => Expr::X,
            TE::Paren(a) => to_ast(a),
            TE::Neg(a) => Expr::Neg(Box::new(to_ast(a))),
            TE::Bin(op, a, b) => {
                let op = match op {
                    '+' => BinOp::Add,
                    '-' => BinOp::Sub,
                    '*' => BinOp::Mul,
                    '/' => BinOp::Div,
                    _ => BinOp::Mod,
                };
                Expr::Bin(op, Box::new(to_ast(a)), Box::new(to_ast(b)))
            }
        }
    }

    fn arb_expr() -> impl Strategy<Value = TE> {
        let leaf = prop_oneof![
            3 => (0i64..20).prop_map(TE::Num),
            1 => (0i64..=i64::MAX).prop_map(TE::Num),
            4 => Just(TE::X),
        ];
        leaf.prop_recursive(4, 24, 2, |inner| {
            prop_oneof![
                1 => inner.clone().prop_map(|e| TE::Neg(Box::new(e))),
                1 => inner.clone().prop_map(|e| TE::Paren(Box::new(e))),
                6 => (prop::sample::select(vec!['+', '-', '*', '/', '%']), inner.clone(), inner)
                    .prop_map(|(op, a, b)| TE::Bin(op, Box::new(a), Box::new(b))),
            ]
        })
    }

    fn arb_cond() -> impl Strategy<Value = TC> {
        let ops = vec!["==", "!=", "<", "<=", ">", ">="];
        let leaf = (prop::sample::select(ops), arb_expr(), arb_expr())
            .prop_map(|(op, a, b)| TC::Cmp(op, a, b));
        leaf.prop_recursive(3, 8, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(|c| TC::Not(Box::new(c))),
                inner.clone().prop_map(|c| TC::Paren(Box::new(c))),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| TC::And(Box::new(a), Box::new(b))),
                (inner.clone(), inner).prop_map(|(a, b)| TC::Or(Box::new(a), Box::new(b))),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn printed_trees_parse_back_and_agree_with_the_model(
            e in arb_expr(),
            g in prop::option::of(arb_cond()),
            spaced in any::<bool>(),
            x in prop_oneof![3 => -40i64..40, 1 => any::<i64>()],
        ) {
            let mut text = show_e(&e, spaced).0;
            if let Some(g) = &g {
                text = format!("{text} if {}", show_c(g, spaced).0);
            }
            let mv = MoveExpr::parse(&text).map_err(|err| TestCaseError::fail(err.to_string()))?;
            prop_assert_eq!(mv.source(), text.as_str());
            prop_assert_eq!(mv.value(), &to_ast(&e));
            let want = match &g {
                Some(g) => match model_c(g, x as i128) {
                    Ok(false) => Ok(None),
                    Ok(true) => model_e(&e, x as i128).map(Some),
                    Err(err) => Err(err),
                },
                None => model_e(&e, x as i128).map(Some),
            };
            match (want, mv.apply(x)) {
                (Ok(w), Ok(got)) => prop_assert_eq!(w.map(|v| v as i64), got, "{} at x={}", text, x),
                (Err(MErr::Div0), Err(EvalError::DivisionByZero { .. })) => {}
                (Err(MErr::Ovf), Err(EvalError::Overflow { .. })) => {}
                (w, got) => prop_assert!(false, "{} at x={}: model {:?}, parsed {:?}", text, x, w, got),
            }
        }

        /// Deep nesting, long unary chains, long operator chains and random bytes: the parser
        /// answers (a move or an error pointing inside the text, quoted briefly), and a parsed
        /// move evaluates, without overflowing the stack.
        #[test]
        fn deep_long_and_random_text_never_crashes(
            (text, x) in (prop_oneof![
                (1usize..3000, 0usize..3000).prop_map(|(o, c)| format!("{}x{}", "(".repeat(o), ")".repeat(c))),
                (1usize..30000).prop_map(|n| format!("{}x", "-".repeat(n))),
                (1usize..3000).prop_map(|n| format!("x if {}x>1", "not ".repeat(n))),
                (1usize..3000, prop::sample::select(vec!["+1", "*x", "-(x)", "%3", " and x>1", " or -x<2"]))
                    .prop_map(|(n, op)| format!("x{}", op.repeat(n))),
                prop::collection::vec(prop::sample::select(vec!["(", ")", "-", "x", "1", "+", "*", "not ", " if ", "<", "==", " and "]), 0..4000)
                    .prop_map(|parts| parts.concat()),
                prop::collection::vec(any::<u8>(), 0..2000)
                    .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
            ], any::<i64>()),
        ) {
            match MoveExpr::parse(&text) {
                Ok(mv) => {
                    let _ = mv.apply(x);
                    let _ = mv.is_identity_on(-3..=3);
                    let copy = mv.clone();
                    prop_assert_eq!(copy, mv);
                }
                Err(e) => {
                    prop_assert!(e.offset <= e.source.chars().count(), "{}", e);
                    let shown = e.to_string();
                    prop_assert!(shown.chars().count() < e.message.chars().count() + 3 * QUOTED_CHARS + 60, "{}", shown);
                }
            }
        }

        #[test]
        fn parse_never_panics_and_errors_point_inside_the_text(s in "[ x0-9+*/%()<>=!a-z-]{0,24}") {
            if let Err(e) = MoveExpr::parse(&s) {
                prop_assert!(e.offset <= e.source.chars().count(), "{}", e);
                prop_assert_eq!(e.source.as_str(), s.trim());
                let _ = e.to_string();
            }
        }
    }
}
