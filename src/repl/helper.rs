//! The line editor's helper: Tab completion, syntax colouring and signature hints.

use std::borrow::Cow;
use std::rc::Rc;

use colored::Colorize;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hint, Hinter};
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

use super::tokens::{tokenize, Kind, KEYWORDS};
use crate::interp::builtins::{self, Builtin};
use crate::interp::commands::{self, Command};

pub struct ArrHelper {
    /// Hints are shown dimmed, so only when colour is allowed.
    color: bool,
    variables: Vec<Rc<str>>,
    paths: FilenameCompleter,
}

impl ArrHelper {
    pub fn new(color: bool) -> ArrHelper {
        ArrHelper {
            color,
            variables: Vec::new(),
            paths: FilenameCompleter::new(),
        }
    }

    /// The session's variable names, for completion (refreshed before each prompt).
    pub fn set_variables(&mut self, names: Vec<Rc<str>>) {
        self.variables = names;
    }

    fn is_variable(&self, name: &str) -> bool {
        self.variables.iter().any(|v| &**v == name)
    }

    /// Variables, built-ins and constants starting with `prefix`, sorted, each once.
    fn names_starting(&self, prefix: &str) -> Vec<&str> {
        let variables = self.variables.iter().map(|v| &**v);
        let functions = builtins::all().iter().map(|b| b.name);
        let constants = builtins::CONSTANTS
            .iter()
            .copied()
            .chain(builtins::NAMESPACES.iter().map(|ns| ns.name));
        let mut names: Vec<&str> = variables
            .chain(functions)
            .chain(constants)
            .filter(|n| n.starts_with(prefix))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The built-in a name refers to, unless a variable shadows it.
    fn builtin(&self, name: &str) -> Option<&'static Builtin> {
        builtins::find(name).filter(|_| !self.is_variable(name))
    }

    /// The rest of the one name `prefix` can complete to, with the built-in's parameters; none
    /// after a whole keyword (`in` is not the start of `int`).
    fn name_hint(&self, prefix: &str) -> Option<SignatureHint> {
        if KEYWORDS.contains(&prefix) {
            return None;
        }
        let builtin = match self.names_starting(prefix)[..] {
            [only] => self.builtin(only)?,
            _ => self.builtin(prefix)?,
        };
        Some(SignatureHint::new(
            &builtin.signature(),
            prefix.len(),
            builtin.name.len(),
        ))
    }

    /// The signature of the built-in whose call the cursor is inside.
    fn call_hint(&self, line: &str) -> Option<SignatureHint> {
        let builtin = self.builtin(innermost_call(line)?)?;
        Some(SignatureHint::whole(format!("  {}", builtin.signature())))
    }
}

fn pair(text: String) -> Pair {
    Pair {
        display: text.clone(),
        replacement: text,
    }
}

/// What Tab completes at the end of `before` (the text up to the cursor).
enum Completing<'a> {
    /// `:pro`: the prefix after the colon, which is at byte `colon`.
    Command {
        colon: usize,
        prefix: &'a str,
    },
    /// The argument of a command that takes a file, or an open string.
    Path,
    /// A name that starts at byte `start`.
    Name {
        start: usize,
    },
    Nothing,
}

fn completing(before: &str) -> Completing<'_> {
    command_line(before).unwrap_or_else(|| match tokenize(before).last() {
        Some(t) if t.kind == (Kind::String { closed: false }) => Completing::Path,
        Some(t) if is_word(t.kind) => match before[..t.range.start].strip_suffix('.') {
            None => Completing::Name {
                start: t.range.start,
            },
            // `linalg.in`: the namespace's members, by their full names.
            Some(head) => match namespace_at_end(head) {
                Some(start) => Completing::Name { start },
                None => Completing::Nothing,
            },
        },
        // `linalg.`: every member.
        Some(t) if t.kind == Kind::Punct && &before[t.range.clone()] == "." => {
            match namespace_at_end(&before[..t.range.start]) {
                Some(start) => Completing::Name { start },
                None => Completing::Nothing,
            }
        }
        _ => Completing::Nothing,
    })
}

/// On a `:command` line: its name while it is typed, then a path if the command takes one
/// (other commands take code, completed as usual).
fn command_line(before: &str) -> Option<Completing<'_>> {
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    let command = line.trim_start().strip_prefix(':')?;
    match command.split_once(char::is_whitespace) {
        None => Some(Completing::Command {
            colon: before.len() - command.len() - 1,
            prefix: command,
        }),
        Some((name, _)) => find_command(name)
            .filter(|c| c.takes_path)
            .map(|_| Completing::Path),
    }
}

/// Where the namespace name that `text` ends with starts (`x = linalg` → 4).
fn namespace_at_end(text: &str) -> Option<usize> {
    let last = tokenize(text).into_iter().last()?;
    let word = &text[last.range.clone()];
    (last.kind == Kind::Name && builtins::Namespace::find(word).is_some())
        .then_some(last.range.start)
}

/// A name or a keyword: either may be the start of a longer name.
fn is_word(kind: Kind) -> bool {
    matches!(kind, Kind::Name | Kind::Keyword)
}

fn find_command(name: &str) -> Option<&'static Command> {
    commands::all().iter().find(|c| c.name == name)
}

fn commands_starting(prefix: &str) -> impl Iterator<Item = &'static Command> + '_ {
    commands::all()
        .iter()
        .filter(move |c| c.name.starts_with(prefix))
}

/// The name called by the innermost bracket still open in `text`, when that bracket is a call.
fn innermost_call(text: &str) -> Option<&str> {
    let mut open: Vec<Option<&str>> = Vec::new();
    let mut callee = None;
    for token in tokenize(text) {
        let piece = &text[token.range.clone()];
        match (token.kind, piece) {
            (Kind::Punct, "(") => open.push(callee),
            (Kind::Punct, "[" | "{") => open.push(None),
            (Kind::Punct, ")" | "]" | "}") => {
                open.pop();
            }
            _ => {}
        }
        if token.kind != Kind::Space {
            // `linalg.inv(`: a namespace's member is called by its full name.
            let member = callee
                .and_then(|c: &str| c.strip_suffix('.'))
                .filter(|ns| builtins::Namespace::find(ns).is_some());
            let start = token.range.start;
            callee = match (token.kind, piece, member) {
                (Kind::Name, _, Some(ns)) => Some(&text[start - ns.len() - 1..token.range.end]),
                (Kind::Name, _, None) => Some(piece),
                (Kind::Punct, ".", None) => callee
                    .filter(|c| builtins::Namespace::find(c).is_some())
                    .map(|c| &text[start - c.len()..token.range.end]),
                _ => None,
            };
        }
    }
    open.pop().flatten()
}

impl Completer for ArrHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        match completing(before) {
            Completing::Command { colon, prefix } => {
                let names = commands_starting(prefix).map(|c| pair(format!(":{}", c.name)));
                Ok((colon, names.collect()))
            }
            Completing::Path => self.paths.complete_path(line, pos),
            Completing::Name { start } => {
                let names = self.names_starting(&before[start..]).into_iter();
                Ok((start, names.map(|n| pair(n.to_string())).collect()))
            }
            Completing::Nothing => Ok((pos, Vec::new())),
        }
    }
}

/// A dimmed hint after the cursor; Right-arrow accepts the part that completes a name.
pub struct SignatureHint {
    text: String,
    completes: usize,
}

impl SignatureHint {
    /// The part of `full` after the `typed` bytes; the first `name_len` bytes of `full` are a name.
    fn new(full: &str, typed: usize, name_len: usize) -> SignatureHint {
        SignatureHint {
            text: full[typed..].to_string(),
            completes: name_len - typed,
        }
    }

    fn whole(text: String) -> SignatureHint {
        SignatureHint { text, completes: 0 }
    }
}

impl Hint for SignatureHint {
    fn display(&self) -> &str {
        &self.text
    }

    fn completion(&self) -> Option<&str> {
        (self.completes > 0).then(|| &self.text[..self.completes])
    }
}

impl Hinter for ArrHelper {
    type Hint = SignatureHint;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<SignatureHint> {
        if !self.color || pos < line.len() {
            return None;
        }
        let hint = match completing(line) {
            Completing::Command { prefix, .. } => command_hint(prefix),
            Completing::Name { start } => self.name_hint(&line[start..]),
            Completing::Path | Completing::Nothing => None,
        };
        hint.or_else(|| self.call_hint(line))
    }
}

/// `:pro` → `file FILE`, when only one command starts so.
fn command_hint(prefix: &str) -> Option<SignatureHint> {
    let mut matches = commands_starting(prefix);
    let command = matches.next().filter(|_| matches.next().is_none())?;
    let full = format!("{} {}", command.name, command.args);
    let hint = SignatureHint::new(full.trim_end(), prefix.len(), command.name.len());
    Some(hint).filter(|h| !h.text.is_empty())
}

fn paint(kind: Kind, text: &str) -> String {
    match kind {
        Kind::Keyword => text.magenta().to_string(),
        Kind::Number => text.cyan().to_string(),
        Kind::String { .. } => text.green().to_string(),
        Kind::Comment => text.bright_black().to_string(),
        Kind::Command => text.blue().bold().to_string(),
        Kind::Name | Kind::Space | Kind::Punct => text.to_string(),
    }
}

/// Only called by the editor when colour is allowed.
impl Highlighter for ArrHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        let tokens = tokenize(line);
        Cow::Owned(
            tokens
                .into_iter()
                .map(|t| paint(t.kind, &line[t.range]))
                .collect(),
        )
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        Cow::Owned(hint.dimmed().to_string())
    }

    /// Any edit may change colours (`fo` → `for`), so repaint the line; moving the cursor does not.
    fn highlight_char(&self, _line: &str, _pos: usize, kind: CmdKind) -> bool {
        kind == CmdKind::Other
    }
}

/// Enter always accepts the line: the session asks for `...> ` continuation lines itself while
/// a bracket, brace or string is open, since rustyline cannot prompt inside one buffer.
impl Validator for ArrHelper {}

impl Helper for ArrHelper {}

#[cfg(test)]
mod tests {
    use super::*;
    use rustyline::history::DefaultHistory;

    fn helper() -> ArrHelper {
        let mut helper = ArrHelper::new(true);
        helper.set_variables(vec!["my_long_variable".into(), "sum".into()]);
        helper
    }

    fn complete(line: &str) -> (usize, Vec<String>) {
        let history = DefaultHistory::new();
        let (start, pairs) = helper()
            .complete(line, line.len(), &Context::new(&history))
            .unwrap();
        (start, pairs.into_iter().map(|p| p.replacement).collect())
    }

    fn hint(line: &str) -> Option<(String, Option<String>)> {
        let history = DefaultHistory::new();
        let hint = helper().hint(line, line.len(), &Context::new(&history))?;
        Some((
            hint.display().to_string(),
            hint.completion().map(String::from),
        ))
    }

    #[test]
    fn completes_variables_builtins_constants_and_commands() {
        assert_eq!(complete("x = my_lo"), (4, vec!["my_long_variable".into()]));
        assert_eq!(complete("y = lins"), (4, vec!["linspace".into()]));
        assert_eq!(complete("f3"), (0, vec!["f32".into()]));
        assert_eq!(complete("  :pro"), (2, vec![":profile".into()]));
        assert_eq!(complete("x.sh"), (4, vec![]));
        assert_eq!(complete("y = random.se"), (4, vec!["random.seed".into()]));
        assert!(complete("random.")
            .1
            .contains(&"random.randint".to_string()));
        assert_eq!(complete("y = x.ran").1, Vec::<String>::new());
        assert_eq!(complete("x = 1 "), (6, vec![]));
    }

    #[test]
    fn completes_paths_after_file_commands_and_in_strings() {
        let (start, paths) = complete(":load src/repl/hel");
        assert_eq!((start, paths), (6, vec!["src/repl/helper.rs".into()]));
        assert_eq!(complete("x = load(\"Cargo.to").1, vec!["Cargo.toml"]);
        assert_eq!(complete(":help lins").1, vec!["linspace"]);
    }

    #[test]
    fn hints_signatures_of_builtins() {
        let (text, completion) = hint("lins").unwrap();
        assert!(text.starts_with("pace("), "{text}");
        assert_eq!(completion.as_deref(), Some("pace"));
        let (text, completion) = hint("linspace(0, ").unwrap();
        assert!(text.starts_with("  linspace("), "{text}");
        assert_eq!(completion, None);
        assert_eq!(
            hint(":prof").unwrap(),
            ("ile FILE".into(), Some("ile".into()))
        );
        assert_eq!(hint("sum(x, "), None, "a variable shadows the built-in");
        assert_eq!(hint("f(lins(0)"), None);
        assert_eq!(hint("for i in"), None);
    }

    #[test]
    fn innermost_open_call() {
        assert_eq!(innermost_call("linspace(0, len(x"), Some("len"));
        assert_eq!(innermost_call("linspace(0, len(x), "), Some("linspace"));
        assert_eq!(innermost_call("x[len("), Some("len"));
        assert_eq!(innermost_call("(1 + "), None);
        assert_eq!(innermost_call("random.seed(x"), Some("random.seed"));
        assert_eq!(innermost_call("print(\"(\", "), Some("print"));
    }
}
