//! Newlines inside `()` and `[]` do not end statements. Rather than thread that rule through the
//! grammar, this pass blanks such newlines (and comments on those lines) to spaces, keeping every
//! byte offset, so spans still point into the original text.

pub fn join_bracketed_lines(text: &str) -> String {
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    let mut open: Vec<u8> = Vec::new();
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'#' => {
                let inside_brackets = matches!(open.last(), Some(b'(' | b'['));
                while i < bytes.len() && bytes[i] != b'\n' {
                    if inside_brackets {
                        out[i] = b' ';
                    }
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => open.push(bytes[i]),
            b')' | b']' | b'}' => {
                open.pop();
            }
            b'\n' if matches!(open.last(), Some(b'(' | b'[')) => out[i] = b' ',
            _ => {}
        }
        i += 1;
    }
    // Only ASCII bytes were replaced by ASCII spaces, so the text is still UTF-8.
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// True while the text has a bracket, brace or string still open: the REPL then asks for more.
pub fn is_incomplete(text: &str) -> bool {
    let mut depth: i64 = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
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
