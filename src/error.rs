//! Errors are values: a kind, a message and, when the error comes from source text, a span.
//! `render` turns one into `file:line:col: error: message`, the source line and a caret.

use std::fmt;
use std::rc::Rc;

use colored::Colorize;

/// A byte range in one of the session's sources.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub source: u32,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(source: u32, start: usize, end: usize) -> Span {
        Span {
            source,
            start: start as u32,
            end: end as u32,
        }
    }

    pub fn to(self, other: Span) -> Span {
        Span {
            source: self.source,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Syntax,
    Name,
    Type,
    Value,
    Shape,
    Index,
    Device,
    ZeroDivision,
    Overflow,
    Memory,
    Recursion,
    Io,
    Assertion,
    Command,
    Interrupted,
    /// NumPy's `LinAlgError`: a singular matrix, one that is not positive definite, a
    /// decomposition that did not converge, a matrix that is not square.
    LinAlg,
}

impl ErrorKind {
    pub fn label(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax error",
            ErrorKind::Name => "name error",
            ErrorKind::Type => "type error",
            ErrorKind::Value => "value error",
            ErrorKind::Shape => "shape error",
            ErrorKind::Index => "index error",
            ErrorKind::Device => "device error",
            ErrorKind::ZeroDivision => "division by zero",
            ErrorKind::Overflow => "overflow",
            ErrorKind::Memory => "out of memory",
            ErrorKind::Recursion => "recursion error",
            ErrorKind::Io => "file error",
            ErrorKind::Assertion => "assertion failed",
            ErrorKind::Command => "command error",
            ErrorKind::Interrupted => "interrupted",
            ErrorKind::LinAlg => "LinAlgError",
        }
    }
}

/// An error. Boxed, so that `Result<Value>` stays small on the interpreter's hot path.
#[derive(Clone, Debug)]
pub struct Error(Box<ErrorData>);

#[derive(Clone, Debug)]
pub struct ErrorData {
    pub kind: ErrorKind,
    pub message: String,
    pub span: Option<Span>,
}

impl std::ops::Deref for Error {
    type Target = ErrorData;
    fn deref(&self) -> &ErrorData {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorData {
        &mut self.0
    }
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error(Box::new(ErrorData {
            kind,
            message: message.into(),
            span: None,
        }))
    }

    /// Attaches a position unless a more precise one is already there.
    pub fn at(mut self, span: Span) -> Error {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

macro_rules! error_constructors {
    ($($fn_name:ident => $kind:ident),* $(,)?) => {
        $(
            pub fn $fn_name(message: impl Into<String>) -> Error {
                Error::new(ErrorKind::$kind, message)
            }
        )*
    };
}

error_constructors! {
    type_error => Type,
    value_error => Value,
    shape_error => Shape,
    index_error => Index,
    device_error => Device,
    name_error => Name,
    io_error => Io,
    command_error => Command,
    overflow_error => Overflow,
    memory_error => Memory,
}

/// NumPy's `LinAlgError`, worded as NumPy renders it: `LinAlgError: Singular matrix`.
pub fn linalg_error(message: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::LinAlg, format!("LinAlgError: {message}"))
}

/// One piece of source text the session has seen: a file, `-e` code, stdin or a REPL line.
#[derive(Debug)]
pub struct Source {
    pub name: String,
    pub text: Rc<str>,
    /// Byte offset where each line starts, for quick line lookups (the profiler's).
    line_starts: Vec<usize>,
}

/// The sources by id. Ids are never reused, so a forgotten source's spans find nothing.
#[derive(Debug, Default)]
pub struct SourceMap {
    sources: std::collections::BTreeMap<u32, Source>,
    next_id: u32,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, text: &str) -> u32 {
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let id = self.next_id;
        self.next_id += 1;
        self.sources.insert(
            id,
            Source {
                name: name.into(),
                text: text.into(),
                line_starts,
            },
        );
        id
    }

    pub fn get(&self, id: u32) -> Option<&Source> {
        self.sources.get(&id)
    }

    /// Forgets every source that `keep` refuses.
    pub fn retain(&mut self, keep: impl Fn(u32) -> bool) {
        self.sources.retain(|&id, _| keep(id));
    }

    /// How many sources are kept.
    pub fn len(&self) -> usize {
        self.sources.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sources.is_empty()
    }

    /// 1-based line number where a span starts.
    pub fn line_of(&self, span: Span) -> usize {
        self.get(span.source).map_or(0, |s| {
            s.line_starts
                .partition_point(|&start| start <= span.start as usize)
        })
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, span: Span) -> Option<(usize, usize)> {
        let source = self.get(span.source)?;
        let start = (span.start as usize).min(source.text.len());
        let before = &source.text[..floor_char_boundary(&source.text, start)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before[line_start..].chars().count() + 1;
        Some((line, col))
    }

    /// The source text a span covers (used by reports that quote a line).
    pub fn line_text(&self, source: u32, line: usize) -> Option<&str> {
        self.get(source)?.text.lines().nth(line.checked_sub(1)?)
    }

    pub fn render(&self, error: &Error, color: bool) -> String {
        let heading = |s: &str| {
            if color {
                s.red().bold().to_string()
            } else {
                s.to_string()
            }
        };
        let label = format!("error: {}", error.message);
        let Some(span) = error.span else {
            return heading(&label);
        };
        let (Some(source), Some((line, col))) = (self.get(span.source), self.line_col(span)) else {
            return heading(&label);
        };
        let line_text = source.text.lines().nth(line - 1).unwrap_or("");
        let line_chars = line_text.chars().count();
        let span_chars = source
            .text
            .get(span.start as usize..span.end as usize)
            .map_or(1, |s| s.lines().next().unwrap_or("").chars().count())
            .clamp(1, (line_chars + 1).saturating_sub(col - 1).max(1));
        let gutter = format!("{line} | ");
        let caret = format!(
            "{}{}",
            " ".repeat(gutter.len() + col - 1),
            "^".repeat(span_chars)
        );
        format!(
            "{}: {}\n{}{}\n{}",
            format_args!("{}:{}:{}", source.name, line, col),
            heading(&label),
            gutter,
            line_text,
            if color {
                caret.red().bold().to_string()
            } else {
                caret
            }
        )
    }
}

fn floor_char_boundary(s: &str, mut index: usize) -> usize {
    while index > 0 && !s.is_char_boundary(index) {
        index -= 1;
    }
    index
}
