//! The interactive shell: a line editor on a terminal (`editor.rs`), plain line reading when
//! stdin is a pipe or a file. Either way each complete input is run and its value echoed, and
//! a failed input leaves every variable as it was.

mod editor;
pub(crate) mod helper;
mod tokens;

use std::io::{self, BufRead, IsTerminal};

use crate::interp::Interpreter;
use crate::syntax::source::is_incomplete;

pub fn run(interp: &mut Interpreter) -> i32 {
    if io::stdin().is_terminal() {
        editor::run(interp)
    } else {
        run_lines(interp)
    }
}

/// Reads stdin line by line, joining lines while a bracket, brace or string is open.
fn run_lines(interp: &mut Interpreter) -> i32 {
    let stdin = io::stdin();
    let mut pending = String::new();
    let mut inputs = 0;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        pending.push_str(&line);
        pending.push('\n');
        if is_incomplete(&pending) {
            continue;
        }
        inputs += 1;
        run_input(interp, inputs, &pending);
        pending.clear();
        if interp.quit_requested() {
            break;
        }
    }
    interp.flush();
    0
}

/// Runs input number `number`; on an error, restores the variables and reports it on stderr.
fn run_input(interp: &mut Interpreter, number: usize, text: &str) {
    let snapshot = interp.snapshot();
    interp.clear_interrupt();
    if let Err(e) = interp.run_source(&format!("<input {number}>"), text, true) {
        interp.restore(snapshot);
        crate::cli::report(interp, &e);
    }
}
