//! pest pairs → syntax tree: one `parse_<rule>` function per grammar rule, operators by PrattParser.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::LazyLock;

use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;
use pest_derive::Parser;

use super::ast::*;
use crate::error::{Error, ErrorKind, Result, Span};

#[derive(Parser)]
#[grammar = "../grammar/arr.pest"]
struct ArrParser;

static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::or, Assoc::Left))
        .op(Op::infix(Rule::and, Assoc::Left))
        .op(Op::prefix(Rule::not))
        .op(Op::infix(Rule::eq, Assoc::Left)
            | Op::infix(Rule::ne, Assoc::Left)
            | Op::infix(Rule::lt, Assoc::Left)
            | Op::infix(Rule::le, Assoc::Left)
            | Op::infix(Rule::gt, Assoc::Left)
            | Op::infix(Rule::ge, Assoc::Left))
        .op(Op::infix(Rule::bitor, Assoc::Left))
        .op(Op::infix(Rule::bitxor, Assoc::Left))
        .op(Op::infix(Rule::bitand, Assoc::Left))
        .op(Op::infix(Rule::shl, Assoc::Left) | Op::infix(Rule::shr, Assoc::Left))
        .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
        .op(Op::infix(Rule::mul, Assoc::Left)
            | Op::infix(Rule::div, Assoc::Left)
            | Op::infix(Rule::floordiv, Assoc::Left)
            | Op::infix(Rule::modulo, Assoc::Left)
            | Op::infix(Rule::matmul, Assoc::Left))
        .op(Op::prefix(Rule::neg) | Op::prefix(Rule::pos) | Op::prefix(Rule::invert))
        .op(Op::infix(Rule::pow, Assoc::Right))
        .op(Op::postfix(Rule::call) | Op::postfix(Rule::index) | Op::postfix(Rule::attr))
});

/// Parses one source (already registered in the session's source map as `source_id`).
pub fn parse(text: &str, source_id: u32) -> Result<Program> {
    let prepared = super::source::join_bracketed_lines(text);
    let mut pairs = ArrParser::parse(Rule::program, &prepared)
        .map_err(|e| syntax_error_from_pest(e, source_id, &prepared))?;
    let parser = AstBuilder { source_id };
    let program = pairs
        .next()
        .expect("the program rule always yields one pair");
    Ok(Program {
        body: parser.statements(program.into_inner())?,
    })
}

fn syntax_error_from_pest(error: pest::error::Error<Rule>, source_id: u32, text: &str) -> Error {
    let (start, end) = match error.location {
        pest::error::InputLocation::Pos(p) => (p, p + 1),
        pest::error::InputLocation::Span((s, e)) => (s, e.max(s + 1)),
    };
    if let Some(quote) = unterminated_string(text, start) {
        return Error::new(
            ErrorKind::Syntax,
            "unterminated string: this `\"` is never closed on its line",
        )
        .at(Span::new(source_id, quote, quote + 1));
    }
    let at_end = text[start.min(text.len())..].trim().is_empty();
    let message = if at_end && super::source::is_incomplete(text) {
        "unexpected end of input: a bracket, brace or string is still open".to_string()
    } else {
        match &error.variant {
            pest::error::ErrorVariant::ParsingError { positives, .. } if !positives.is_empty() => {
                let mut wanted: Vec<&str> =
                    positives.iter().map(|r| rule_description(*r)).collect();
                wanted.sort();
                wanted.dedup();
                let found = text[start.min(text.len())..]
                    .chars()
                    .next()
                    .filter(|c| !c.is_whitespace())
                    .map_or("end of line".to_string(), |c| format!("`{c}`"));
                format!(
                    "unexpected {found}: expected {}",
                    join_alternatives(&wanted)
                )
            }
            pest::error::ErrorVariant::ParsingError { .. } => "unexpected input".to_string(),
            pest::error::ErrorVariant::CustomError { message } => message.clone(),
        }
    };
    Error::new(ErrorKind::Syntax, message).at(Span::new(source_id, start, end))
}

/// The opening quote of a string left open on the line holding `position`, if there is one.
fn unterminated_string(text: &str, position: usize) -> Option<usize> {
    let position = position.min(text.len());
    let line_start = text[..position].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[position..]
        .find('\n')
        .map_or(text.len(), |i| position + i);
    let mut open: Option<usize> = None;
    let mut escaped = false;
    for (i, c) in text[line_start..line_end].char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if open.is_some() => escaped = true,
            '"' => {
                open = if open.is_some() {
                    None
                } else {
                    Some(line_start + i)
                }
            }
            '#' if open.is_none() => break,
            _ => {}
        }
    }
    open
}

fn join_alternatives(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

fn rule_description(rule: Rule) -> &'static str {
    match rule {
        Rule::EOI => "the end of the statement",
        Rule::expr | Rule::primary | Rule::expr_stmt => "an expression",
        Rule::ident => "a name",
        Rule::block => "a block `{ ... }`",
        Rule::params => "a parameter list `(...)`",
        Rule::int | Rule::float | Rule::imaginary => "a number",
        Rule::string => "a string",
        Rule::assign_op => "`=`",
        Rule::call | Rule::index | Rule::attr | Rule::or | Rule::and => "an operator",
        Rule::eq
        | Rule::ne
        | Rule::lt
        | Rule::le
        | Rule::gt
        | Rule::ge
        | Rule::add
        | Rule::sub
        | Rule::mul
        | Rule::div
        | Rule::modulo
        | Rule::matmul
        | Rule::floordiv
        | Rule::bitand
        | Rule::bitor
        | Rule::bitxor
        | Rule::shl
        | Rule::shr
        | Rule::pow => "an operator",
        Rule::subscript | Rule::slice_rest | Rule::slice_part => "an index",
        Rule::arg => "an argument",
        Rule::param => "a parameter",
        Rule::else_if | Rule::else_block => "`else`",
        Rule::command_name => "a command name",
        _ => "a statement",
    }
}

struct AstBuilder {
    source_id: u32,
}

impl AstBuilder {
    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.source_id, s.start(), s.end())
    }

    fn statements(&self, pairs: Pairs<Rule>) -> Result<Block> {
        pairs
            .filter(|p| p.as_rule() != Rule::EOI)
            .map(|p| self.statement(p))
            .collect()
    }

    fn statement(&self, pair: Pair<Rule>) -> Result<Stmt> {
        let span = self.span(&pair);
        let rule = pair.as_rule();
        let mut inner = without_keywords(pair);
        let kind = match rule {
            Rule::expr_stmt => {
                let first = inner.next().unwrap();
                match inner.next() {
                    None => StmtKind::Expr(self.expr(first)?),
                    Some(op) => {
                        let target = self.target(first)?;
                        let op = BinOp::from_assignment(op.as_str());
                        let value = self.expr(inner.next().unwrap())?;
                        StmtKind::Assign { target, op, value }
                    }
                }
            }
            Rule::unpack_stmt => {
                let mut parts: Vec<Pair<Rule>> = inner.collect();
                let value = self.expr(parts.pop().unwrap())?;
                let names = parts.into_iter().map(|p| self.name(p)).collect();
                StmtKind::Unpack { names, value }
            }
            Rule::if_stmt => {
                let cond = self.expr(inner.next().unwrap())?;
                let body = self.block(inner.next().unwrap())?;
                let mut branches = vec![(cond, body)];
                let mut otherwise = None;
                for part in inner {
                    match part.as_rule() {
                        Rule::else_if => {
                            let mut p = without_keywords(part);
                            let cond = self.expr(p.next().unwrap())?;
                            branches.push((cond, self.block(p.next().unwrap())?));
                        }
                        _ => otherwise = Some(self.block(without_keywords(part).next().unwrap())?),
                    }
                }
                StmtKind::If {
                    branches,
                    otherwise,
                }
            }
            Rule::while_stmt => StmtKind::While {
                cond: self.expr(inner.next().unwrap())?,
                body: self.block(inner.next().unwrap())?,
            },
            Rule::for_stmt => {
                let var = self.name(inner.next().unwrap());
                StmtKind::For {
                    var,
                    iter: self.expr(inner.next().unwrap())?,
                    body: self.block(inner.next().unwrap())?,
                }
            }
            Rule::fn_def => {
                let name = self.name(inner.next().unwrap());
                let params = self.params(inner.next().unwrap())?;
                let body = self.block(inner.next().unwrap())?;
                let func = Rc::new(new_fn_decl(name.text.clone(), params, body, false, span));
                StmtKind::FnDef { name, func }
            }
            Rule::return_stmt => StmtKind::Return(inner.next().map(|e| self.expr(e)).transpose()?),
            Rule::break_stmt => StmtKind::Break,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::command => StmtKind::Command {
                name: inner.next().unwrap().as_str().to_string(),
                args: inner
                    .next()
                    .map(|a| without_comment(a.as_str()).trim().to_string())
                    .unwrap_or_default(),
            },
            other => unreachable!("not a statement rule: {other:?}"),
        };
        Ok(Stmt { kind, span })
    }

    fn block(&self, pair: Pair<Rule>) -> Result<Block> {
        self.statements(pair.into_inner())
    }

    fn name(&self, pair: Pair<Rule>) -> Name {
        Name::new(pair.as_str(), self.span(&pair))
    }

    /// The left side of `=`: an expression that must be a name followed by indices.
    fn target(&self, pair: Pair<Rule>) -> Result<Target> {
        let start = pair.as_span().start();
        let span = Span::new(
            self.source_id,
            start,
            start + pair.as_str().trim_end().len(),
        );
        let not_assignable = || {
            Error::new(
                ErrorKind::Syntax,
                format!(
                    "cannot assign to `{}`: only a name or its elements `x[...]` can be assigned",
                    pair.as_str().trim()
                ),
            )
            .at(span)
        };
        let mut inner = pair.clone().into_inner();
        let name = match inner.next() {
            Some(ident) if ident.as_rule() == Rule::ident => self.name(ident),
            _ => return Err(not_assignable()),
        };
        let mut path = Vec::new();
        for step in inner {
            path.push(match step.as_rule() {
                Rule::index => TargetStep::Index(self.subscripts(step)?),
                Rule::attr => TargetStep::Attr(step.into_inner().next().unwrap().as_str().into()),
                _ => return Err(not_assignable()),
            });
        }
        let index = match path.pop() {
            None => None,
            Some(TargetStep::Index(subscripts)) => Some(subscripts),
            Some(TargetStep::Attr(attr)) => {
                return Err(Error::new(
                    ErrorKind::Syntax,
                    format!(
                        "cannot assign to the attribute `.{attr}`; assign to elements with [...]"
                    ),
                )
                .at(span))
            }
        };
        Ok(Target {
            name,
            path,
            index,
            span,
        })
    }

    fn params(&self, pair: Pair<Rule>) -> Result<Vec<Param>> {
        let mut params: Vec<Param> = Vec::new();
        for p in pair.into_inner() {
            let span = self.span(&p);
            let mut inner = p.into_inner();
            let name = self.name(inner.next().unwrap());
            let default = inner.next().map(|e| self.expr(e)).transpose()?;
            if params.iter().any(|q| q.name.text == name.text) {
                return Err(Error::new(
                    ErrorKind::Syntax,
                    format!("duplicate parameter `{}`", name.text),
                )
                .at(span));
            }
            if default.is_none() && params.iter().any(|q| q.default.is_some()) {
                return Err(Error::new(
                    ErrorKind::Syntax,
                    "a parameter without a default cannot follow one with a default",
                )
                .at(span));
            }
            params.push(Param { name, default });
        }
        Ok(params)
    }

    fn subscripts(&self, pair: Pair<Rule>) -> Result<Vec<Subscript>> {
        pair.into_inner().map(|sub| self.subscript(sub)).collect()
    }

    fn subscript(&self, pair: Pair<Rule>) -> Result<Subscript> {
        let mut start = None;
        for part in pair.into_inner() {
            if part.as_rule() != Rule::slice_rest {
                start = Some(self.expr(part)?);
                continue;
            }
            let mut bounds = part
                .into_inner()
                .map(|bound| bound.into_inner().next().map(|e| self.expr(e)).transpose());
            return Ok(Subscript::Slice {
                start,
                stop: bounds.next().transpose()?.flatten(),
                step: bounds.next().transpose()?.flatten(),
            });
        }
        Ok(Subscript::Index(
            start.expect("a subscript without a slice is an expression"),
        ))
    }

    fn expr(&self, pair: Pair<Rule>) -> Result<Expr> {
        PRATT
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, operand| {
                let operand = operand?;
                let span = self.span(&op).to(operand.span);
                let kind = match op.as_rule() {
                    Rule::neg => ExprKind::Unary(UnaryOp::Neg, Box::new(operand)),
                    Rule::pos => ExprKind::Unary(UnaryOp::Pos, Box::new(operand)),
                    Rule::invert => ExprKind::Unary(UnaryOp::Invert, Box::new(operand)),
                    _ => ExprKind::Not(Box::new(operand)),
                };
                Ok(Expr { kind, span })
            })
            .map_postfix(|target, op| self.postfix(target?, op))
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (Box::new(lhs?), Box::new(rhs?));
                let span = lhs.span.to(rhs.span);
                let op = match op.as_rule() {
                    Rule::or => {
                        return Ok(Expr {
                            kind: ExprKind::Or(lhs, rhs),
                            span,
                        })
                    }
                    Rule::and => {
                        return Ok(Expr {
                            kind: ExprKind::And(lhs, rhs),
                            span,
                        })
                    }
                    Rule::eq => BinOp::Eq,
                    Rule::ne => BinOp::Ne,
                    Rule::lt => BinOp::Lt,
                    Rule::le => BinOp::Le,
                    Rule::gt => BinOp::Gt,
                    Rule::ge => BinOp::Ge,
                    Rule::add => BinOp::Add,
                    Rule::sub => BinOp::Sub,
                    Rule::mul => BinOp::Mul,
                    Rule::div => BinOp::Div,
                    Rule::floordiv => BinOp::FloorDiv,
                    Rule::modulo => BinOp::Mod,
                    Rule::matmul => BinOp::MatMul,
                    Rule::pow => BinOp::Pow,
                    Rule::bitand => BinOp::BitAnd,
                    Rule::bitor => BinOp::BitOr,
                    Rule::bitxor => BinOp::BitXor,
                    Rule::shl => BinOp::Shl,
                    Rule::shr => BinOp::Shr,
                    other => unreachable!("not an operator: {other:?}"),
                };
                Ok(Expr {
                    kind: chain(op, lhs, rhs),
                    span,
                })
            })
            .parse(pair.into_inner())
    }

    fn postfix(&self, target: Expr, op: Pair<Rule>) -> Result<Expr> {
        let span = target.span.to(self.span(&op));
        let target = Box::new(target);
        let kind = match op.as_rule() {
            Rule::call => {
                let args = op
                    .into_inner()
                    .map(|arg| {
                        let mut inner = arg.into_inner();
                        let first = inner.next().unwrap();
                        Ok(match inner.next() {
                            Some(value) => Arg {
                                name: Some(first.as_str().into()),
                                value: self.expr(value)?,
                            },
                            None => Arg {
                                name: None,
                                value: self.expr(first)?,
                            },
                        })
                    })
                    .collect::<Result<Vec<_>>>()?;
                let mut seen_keyword = false;
                for arg in &args {
                    if arg.name.is_some() {
                        seen_keyword = true;
                    } else if seen_keyword {
                        return Err(Error::new(
                            ErrorKind::Syntax,
                            "a positional argument cannot follow a keyword argument",
                        )
                        .at(arg.value.span));
                    }
                }
                ExprKind::Call {
                    callee: target,
                    args,
                }
            }
            Rule::index => ExprKind::Index {
                target,
                subscripts: self.subscripts(op)?,
            },
            _ => ExprKind::Attr {
                target,
                name: op.into_inner().next().unwrap().as_str().into(),
            },
        };
        Ok(Expr { kind, span })
    }

    fn primary(&self, pair: Pair<Rule>) -> Result<Expr> {
        let span = self.span(&pair);
        let kind = match pair.as_rule() {
            Rule::int => {
                let digits = pair.as_str().replace('_', "");
                ExprKind::Int(digits.parse().map_err(|_| {
                    Error::new(
                        ErrorKind::Overflow,
                        format!("integer literal {} does not fit in 64 bits", pair.as_str()),
                    )
                    .at(span)
                })?)
            }
            Rule::imaginary => ExprKind::Imaginary(
                pair.as_str()[..pair.as_str().len() - 1]
                    .replace('_', "")
                    .parse()
                    .map_err(|_| Error::new(ErrorKind::Syntax, "malformed number").at(span))?,
            ),
            Rule::float => ExprKind::Float(
                pair.as_str()
                    .replace('_', "")
                    .parse()
                    .map_err(|_| Error::new(ErrorKind::Syntax, "malformed number").at(span))?,
            ),
            Rule::string => {
                ExprKind::Str(unescape(pair.into_inner().next().unwrap(), self)?.into())
            }
            Rule::true_lit => ExprKind::Bool(true),
            Rule::false_lit => ExprKind::Bool(false),
            Rule::none_lit => ExprKind::None,
            Rule::ellipsis => ExprKind::Ellipsis,
            Rule::ident => ExprKind::Name(self.name(pair)),
            Rule::list => ExprKind::List(
                pair.into_inner()
                    .map(|e| self.expr(e))
                    .collect::<Result<_>>()?,
            ),
            Rule::lambda => {
                let mut inner = without_keywords(pair);
                let params = self.params(inner.next().unwrap())?;
                let body = self.block(inner.next().unwrap())?;
                ExprKind::Lambda(Rc::new(new_fn_decl(
                    "<lambda>".into(),
                    params,
                    body,
                    true,
                    span,
                )))
            }
            Rule::expr => return Ok(grouped(self.expr(pair)?)),
            other => unreachable!("not a primary rule: {other:?}"),
        };
        Ok(Expr { kind, span })
    }
}

/// `lhs op rhs`, extending a chain of comparisons as Python does (`a < b < c`).
fn chain(op: BinOp, lhs: Box<Expr>, rhs: Box<Expr>) -> ExprKind {
    if !op.is_comparison() {
        return ExprKind::Binary { op, lhs, rhs };
    }
    match *lhs {
        Expr {
            kind:
                ExprKind::Binary {
                    op: first_op,
                    lhs: first,
                    rhs: middle,
                },
            ..
        } if first_op.is_comparison() => ExprKind::Compare {
            first,
            rest: vec![(first_op, *middle), (op, *rhs)],
            grouped: false,
        },
        Expr {
            kind:
                ExprKind::Compare {
                    first,
                    mut rest,
                    grouped: false,
                },
            ..
        } => {
            rest.push((op, *rhs));
            ExprKind::Compare {
                first,
                rest,
                grouped: false,
            }
        }
        lhs => ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs,
        },
    }
}

/// A parenthesized expression: a comparison inside stays one comparison, `(a < b) < c`.
fn grouped(e: Expr) -> Expr {
    match e.kind {
        ExprKind::Binary { op, lhs, rhs } if op.is_comparison() => Expr {
            kind: ExprKind::Compare {
                first: lhs,
                rest: vec![(op, *rhs)],
                grouped: true,
            },
            span: e.span,
        },
        ExprKind::Compare { first, rest, .. } => Expr {
            kind: ExprKind::Compare {
                first,
                rest,
                grouped: true,
            },
            span: e.span,
        },
        kind => Expr { kind, span: e.span },
    }
}

/// A command's arguments up to a `#` comment (one outside a string).
fn without_comment(args: &str) -> &str {
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in args.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            '#' if !in_string => return &args[..i],
            _ => {}
        }
    }
    args
}

/// The children of a rule without its keyword tokens (`if`, `fn`, `return` ...).
fn without_keywords(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner().filter(|p| {
        !matches!(
            p.as_rule(),
            Rule::kw_fn
                | Rule::kw_if
                | Rule::kw_else
                | Rule::kw_while
                | Rule::kw_for
                | Rule::kw_in
                | Rule::kw_return
                | Rule::kw_break
                | Rule::kw_continue
        )
    })
}

fn new_fn_decl(
    name: Rc<str>,
    params: Vec<Param>,
    body: Block,
    is_lambda: bool,
    span: Span,
) -> FnDecl {
    FnDecl {
        name,
        params,
        body,
        is_lambda,
        span,
        frame: Cell::new(FrameShape::default()),
        captures: RefCell::new(Vec::new()),
    }
}

fn unescape(pair: Pair<Rule>, builder: &AstBuilder) -> Result<String> {
    let raw = pair.as_str();
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices();
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next().map(|(_, c)| c) {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            other => {
                let start = pair.as_span().start() + i;
                return Err(Error::new(
                    ErrorKind::Syntax,
                    format!(
                        "unknown escape `\\{}` (known: \\n \\t \\\" \\\\)",
                        other.map(String::from).unwrap_or_default()
                    ),
                )
                .at(Span::new(builder.source_id, start, start + 2)));
            }
        }
    }
    Ok(out)
}
