//! Newlines inside `()` and `[]` do not end statements. Rather than thread that rule through the
//! grammar, this pass blanks such newlines (and comments on those lines) to spaces, keeping every
//! byte offset, so spans still point into the original text.

/// What matters for line joining and for "is this input complete?", outside strings and comments.
enum Mark {
    Open(u8),
    Close,
    Newline(usize),
    Comment { start: usize, end: usize },
}

/// The brackets, newlines and comments of `text`, in order; strings are skipped (a string
/// ends at its closing quote or at the end of its line).
fn marks(text: &str) -> impl Iterator<Item = Mark> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let at = i;
            i += 1;
            match bytes[at] {
                b'"' => {
                    while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    i = (i + 1).min(bytes.len());
                }
                b'#' => {
                    while i < bytes.len() && bytes[i] != b'\n' {
                        i += 1;
                    }
                    return Some(Mark::Comment { start: at, end: i });
                }
                b @ (b'(' | b'[' | b'{') => return Some(Mark::Open(b)),
                b')' | b']' | b'}' => return Some(Mark::Close),
                b'\n' => return Some(Mark::Newline(at)),
                _ => {}
            }
        }
        None
    })
}

pub fn join_bracketed_lines(text: &str) -> String {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let mut open: Vec<u8> = Vec::new();
    for mark in marks(text) {
        let inside_brackets = matches!(open.last(), Some(b'(' | b'['));
        match mark {
            Mark::Open(b) => open.push(b),
            Mark::Close => {
                open.pop();
            }
            Mark::Newline(at) if inside_brackets => out[at] = b' ',
            Mark::Comment { start, end } if inside_brackets => out[start..end].fill(b' '),
            _ => {}
        }
    }
    // Only ASCII bytes (newlines and whole comments) became spaces: a comment's multi-byte
    // characters are replaced entirely, so the text is still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// True while the text has a bracket or brace still open: the REPL then asks for more.
pub fn is_incomplete(text: &str) -> bool {
    let depth = marks(text).fold(0i64, |depth, mark| match mark {
        Mark::Open(_) => depth + 1,
        Mark::Close => depth - 1,
        _ => depth,
    });
    depth > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newlines_in_brackets_become_spaces() {
        let text = "f(1,\n 2)\nx = [1, # one\n 2]\n";
        assert_eq!(join_bracketed_lines(text), "f(1,  2)\nx = [1,        2]\n");
    }

    #[test]
    fn newlines_in_blocks_inside_parens_stay() {
        let text = "g(fn(x) {\n x\n})";
        assert_eq!(join_bracketed_lines(text), "g(fn(x) {\n x\n})");
    }

    #[test]
    fn open_brackets_are_incomplete() {
        assert!(is_incomplete("for i in range(3) {"));
        assert!(is_incomplete("x = [1,"));
        assert!(!is_incomplete("x = \"{\""));
        assert!(!is_incomplete("x = 1 # {"));
    }
}
