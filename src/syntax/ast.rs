//! The syntax tree. Every node carries the span of source text it came from; names carry the
//! storage slot that `resolve` assigns them.

use std::cell::Cell;
use std::rc::Rc;

use crate::error::Span;

pub type Block = Vec<Stmt>;

#[derive(Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Debug)]
pub enum StmtKind {
    Expr(Expr),
    Assign {
        target: Target,
        op: Option<BinOp>,
        value: Expr,
    },
    If {
        branches: Vec<(Expr, Block)>,
        otherwise: Option<Block>,
    },
    While {
        cond: Expr,
        body: Block,
    },
    For {
        var: Name,
        iter: Expr,
        body: Block,
    },
    FnDef {
        name: Name,
        func: Rc<FnDecl>,
    },
    /// `a, b = value`: each name takes one element of a tuple, list or array.
    Unpack {
        names: Vec<Name>,
        value: Expr,
    },
    Return(Option<Expr>),
    Break,
    Continue,
    Command {
        name: String,
        args: String,
    },
}

/// What an assignment stores into: a name, or elements reached from it (`x[0][1] = v`,
/// `x.T[0] = v`): `path` leads to a view, `index` selects the elements written.
#[derive(Debug)]
pub struct Target {
    pub name: Name,
    pub path: Vec<TargetStep>,
    pub index: Option<Vec<Subscript>>,
    pub span: Span,
}

#[derive(Debug)]
pub enum TargetStep {
    Index(Vec<Subscript>),
    Attr(Rc<str>),
}

#[derive(Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Str(Rc<str>),
    Bool(bool),
    None,
    /// `...` in a subscript.
    Ellipsis,
    Name(Name),
    List(Vec<Expr>),
    /// An imaginary literal (`2j`): its imaginary part.
    Imaginary(f64),
    Lambda(Rc<FnDecl>),
    Unary(UnaryOp, Box<Expr>),
    Not(Box<Expr>),
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `a < b <= c`: Python's chained comparison (`a < b and b <= c`, `b` evaluated once).
    /// A parenthesized comparison is a chain of one, `grouped`, so that `(a < b) < c` compares
    /// the bool.
    Compare {
        first: Box<Expr>,
        rest: Vec<(BinOp, Expr)>,
        grouped: bool,
    },
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Call {
        callee: Box<Expr>,
        args: Vec<Arg>,
    },
    Index {
        target: Box<Expr>,
        subscripts: Vec<Subscript>,
    },
    Attr {
        target: Box<Expr>,
        name: Rc<str>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Pos,
    Invert,
}

impl UnaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Neg => "-",
            UnaryOp::Pos => "+",
            UnaryOp::Invert => "~",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
    Pow,
    MatMul,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::FloorDiv => "//",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
            BinOp::MatMul => "@",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
        }
    }

    /// The operator of an augmented assignment (`+=` is `Add`).
    pub fn from_assignment(text: &str) -> Option<BinOp> {
        let symbol = text.strip_suffix('=')?;
        ALL_BINARY.iter().copied().find(|op| op.symbol() == symbol)
    }

    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// Every binary operator, in declaration order.
pub const ALL_BINARY: [BinOp; 19] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::FloorDiv,
    BinOp::Mod,
    BinOp::Pow,
    BinOp::MatMul,
    BinOp::BitAnd,
    BinOp::BitOr,
    BinOp::BitXor,
    BinOp::Shl,
    BinOp::Shr,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
];

#[derive(Debug)]
pub struct Arg {
    pub name: Option<Rc<str>>,
    pub value: Expr,
}

#[derive(Debug)]
pub enum Subscript {
    Index(Expr),
    Slice {
        start: Option<Expr>,
        stop: Option<Expr>,
        step: Option<Expr>,
    },
}

/// Where a name's value is stored, decided once by `resolve` so that lookups are index operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Unresolved,
    /// The session's global table.
    Global(u32),
    /// A plain local of the running function.
    Local(u32),
    /// A local of the running function that an inner function captures.
    Cell(u32),
    /// A variable of an enclosing function, captured by this closure.
    Free(u32),
}

#[derive(Debug)]
pub struct Name {
    pub text: Rc<str>,
    pub slot: Cell<Slot>,
    pub span: Span,
}

impl Name {
    pub fn new(text: &str, span: Span) -> Name {
        Name {
            text: text.into(),
            slot: Cell::new(Slot::Unresolved),
            span,
        }
    }
}

#[derive(Debug)]
pub struct Param {
    pub name: Name,
    pub default: Option<Expr>,
}

/// Where a closure finds each captured variable when it is created: a cell of the enclosing
/// function, or one of the enclosing closure's own captures.
#[derive(Clone, Copy, Debug)]
pub enum Capture {
    EnclosingCell(u32),
    EnclosingFree(u32),
}

#[derive(Debug)]
pub struct FnDecl {
    pub name: Rc<str>,
    pub params: Vec<Param>,
    pub body: Block,
    /// Anonymous functions return their last expression when they have no `return`.
    pub is_lambda: bool,
    pub span: Span,
    pub frame: Cell<FrameShape>,
    pub captures: std::cell::RefCell<Vec<Capture>>,
}

/// The number of plain locals and cells a call of the function needs.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrameShape {
    pub locals: u32,
    pub cells: u32,
}

#[derive(Debug)]
pub struct Program {
    pub body: Block,
}
