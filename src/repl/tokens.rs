//! A forgiving lexer for the line editor: enough to colour a line, find the word being typed and
//! the call the cursor is in. It never fails, and every byte belongs to exactly one token.

use std::ops::Range;

pub const KEYWORDS: &[&str] = &[
    "fn", "return", "for", "in", "while", "if", "else", "break", "continue", "and", "or", "not",
    "true", "false", "none",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Keyword,
    Name,
    Number,
    /// `closed` is false while the closing quote is still to be typed.
    String {
        closed: bool,
    },
    Comment,
    /// `:name` at the start of a statement.
    Command,
    Space,
    /// Any other character: operators, brackets, separators.
    Punct,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub range: Range<usize>,
}

pub fn tokenize(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut start = 0;
    let mut statement_start = true;
    while start < text.len() {
        let (kind, end) = next_token(text, start, statement_start);
        statement_start = match kind {
            Kind::Space => statement_start || text[start..end].contains('\n'),
            Kind::Comment => statement_start,
            Kind::Punct => matches!(text.as_bytes()[start], b';' | b'{' | b'}'),
            _ => false,
        };
        tokens.push(Token {
            kind,
            range: start..end,
        });
        start = end;
    }
    tokens
}

pub fn is_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The kind of the token that starts at byte `i`, and where it ends.
fn next_token(text: &str, i: usize, statement_start: bool) -> (Kind, usize) {
    let bytes = text.as_bytes();
    let run = |from: usize, keep: fn(u8) -> bool| {
        from + bytes[from..].iter().take_while(|&&b| keep(b)).count()
    };
    let next_is = |test: fn(&u8) -> bool| bytes.get(i + 1).is_some_and(test);
    match bytes[i] {
        b'#' => (Kind::Comment, run(i, |b| b != b'\n')),
        b'"' => string(bytes, i),
        b':' if statement_start && next_is(u8::is_ascii_alphabetic) => {
            (Kind::Command, run(i + 1, |b| b.is_ascii_alphabetic()))
        }
        b'0'..=b'9' => (Kind::Number, number_end(bytes, i)),
        b'.' if next_is(u8::is_ascii_digit) => (Kind::Number, number_end(bytes, i)),
        b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
            let end = run(i, is_name_char);
            let kind = if KEYWORDS.contains(&&text[i..end]) {
                Kind::Keyword
            } else {
                Kind::Name
            };
            (kind, end)
        }
        b if b.is_ascii_whitespace() => (Kind::Space, run(i, |b| b.is_ascii_whitespace())),
        _ => (
            Kind::Punct,
            i + text[i..].chars().next().map_or(1, char::len_utf8),
        ),
    }
}

/// Digits, `_`, `.`, letters (exponents, and the error a stray letter makes) and an exponent's sign.
fn number_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        let b = bytes[i];
        let exponent_sign = matches!(b, b'+' | b'-') && matches!(bytes[i - 1], b'e' | b'E');
        if !(is_name_char(b) || b == b'.' || exponent_sign) {
            break;
        }
        i += 1;
    }
    i
}

/// A string runs to its closing quote, or stays open up to the end of the line.
fn string(bytes: &[u8], start: usize) -> (Kind, usize) {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return (Kind::String { closed: true }, i + 1),
            b'\n' => break,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    (Kind::String { closed: false }, i.min(bytes.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, &str)> {
        tokenize(text)
            .into_iter()
            .filter(|t| t.kind != Kind::Space)
            .map(|t| (t.kind, &text[t.range]))
            .collect()
    }

    #[test]
    fn keywords_names_numbers_strings_and_comments() {
        use Kind::*;
        assert_eq!(
            kinds("for i in range(1e-3) { s = \"a\\\"b\" } # done"),
            vec![
                (Keyword, "for"),
                (Name, "i"),
                (Keyword, "in"),
                (Name, "range"),
                (Punct, "("),
                (Number, "1e-3"),
                (Punct, ")"),
                (Punct, "{"),
                (Name, "s"),
                (Punct, "="),
                (String { closed: true }, "\"a\\\"b\""),
                (Punct, "}"),
                (Comment, "# done"),
            ]
        );
        assert_eq!(
            kinds("x-1 .5 fortune"),
            vec![
                (Name, "x"),
                (Punct, "-"),
                (Number, "1"),
                (Number, ".5"),
                (Name, "fortune"),
            ]
        );
    }

    #[test]
    fn commands_only_start_statements() {
        assert_eq!(kinds(":load x")[0], (Kind::Command, ":load"));
        assert_eq!(kinds("x = 1; :time on")[4], (Kind::Command, ":time"));
        assert!(!kinds("a[1:n]").iter().any(|(k, _)| *k == Kind::Command));
    }

    #[test]
    fn open_strings_and_every_byte_covered() {
        let text = "print(\"héllo\n→ \"x";
        let tokens = tokenize(text);
        assert_eq!(tokens[2].kind, Kind::String { closed: false });
        assert_eq!(tokens.last().unwrap().kind, Kind::String { closed: false });
        let joined: String = tokens.iter().map(|t| &text[t.range.clone()]).collect();
        assert_eq!(joined, text);
    }
}
