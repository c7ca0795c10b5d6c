//! The session on a terminal: a rustyline editor with history kept across sessions, `...> `
//! continuation lines, Tab completion, colouring and hints; Ctrl-C interrupts a running statement.

use std::io;
use std::path::PathBuf;
use std::sync::atomic::Ordering;

use colored::Colorize;
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{ColorMode, CompletionType, Config, Editor};

use super::helper::ArrHelper;
use crate::interp::Interpreter;
use crate::syntax::source::is_incomplete;

type ArrEditor = Editor<ArrHelper, DefaultHistory>;

/// Each prompt as typed (`raw`) and as shown when colour is allowed (`styled`).
type Prompt = (String, String);

const HISTORY_ENTRIES: usize = 10_000;

pub fn run(interp: &mut Interpreter) -> i32 {
    let mut editor = match new_editor(interp.color) {
        Ok(editor) => editor,
        Err(e) => {
            eprintln!("arrsh: no line editing ({e}); reading plain lines");
            return super::run_lines(interp);
        }
    };
    interrupt_on_ctrl_c(interp);
    let mut history = HistoryFile::open(&mut editor);
    let prompts = [prompt("arr> "), prompt("...> ")];
    let mut inputs = 0;
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.set_variables(interp.variables().into_iter().map(|(n, _)| n).collect());
        }
        match read_input(&mut editor, &prompts) {
            Ok(text) if text.trim().is_empty() => {}
            Ok(text) => {
                history.add(&mut editor, &text);
                inputs += 1;
                super::run_input(interp, inputs, &text);
                if interp.quit_requested() {
                    break;
                }
            }
            Err(ReadlineError::Interrupted) => {}
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                interp.flush();
                eprintln!("arrsh: cannot read the terminal: {e}");
                return 1;
            }
        }
    }
    interp.flush();
    0
}

fn new_editor(color: bool) -> rustyline::Result<ArrEditor> {
    let config = Config::builder()
        .max_history_size(HISTORY_ENTRIES)?
        .history_ignore_dups(true)?
        .completion_type(CompletionType::List)
        .color_mode(if color {
            ColorMode::Enabled
        } else {
            ColorMode::Disabled
        })
        .build();
    let mut editor = ArrEditor::with_config(config)?;
    editor.set_helper(Some(ArrHelper::new(color)));
    Ok(editor)
}

fn prompt(text: &str) -> Prompt {
    (text.to_string(), text.green().bold().to_string())
}

/// One complete input: the first line, then continuation lines while something is still open.
fn read_input(editor: &mut ArrEditor, [first, more]: &[Prompt; 2]) -> rustyline::Result<String> {
    let mut text = editor.readline(first)?;
    while is_incomplete(&text) {
        let line = editor.readline(more)?;
        text.push('\n');
        text.push_str(&line);
    }
    Ok(text)
}

/// While a statement runs the terminal is not in raw mode, so Ctrl-C is a signal: it sets the
/// flag the interpreter checks in every loop iteration. At the prompt rustyline reads it as a key.
fn interrupt_on_ctrl_c(interp: &Interpreter) {
    let flag = interp.interrupt_flag();
    if let Err(e) = ctrlc::set_handler(move || flag.store(true, Ordering::Relaxed)) {
        eprintln!("arrsh: Ctrl-C will end arrsh instead of the running statement: {e}");
    }
}

/// `$ARRSH_HISTORY`, else `<data dir>/arrsh/history`; an empty `ARRSH_HISTORY` keeps no history.
fn history_path() -> Option<PathBuf> {
    match std::env::var_os("ARRSH_HISTORY") {
        Some(path) => Some(PathBuf::from(path)).filter(|p| !p.as_os_str().is_empty()),
        None => dirs::data_dir().map(|dir| dir.join("arrsh").join("history")),
    }
}

/// The history file; each input is appended as it is entered, so other sessions keep theirs.
struct HistoryFile {
    path: Option<PathBuf>,
}

impl HistoryFile {
    fn open(editor: &mut ArrEditor) -> HistoryFile {
        let path = history_path();
        if let Some(path) = &path {
            match editor.load_history(path) {
                Err(ReadlineError::Io(e)) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => eprintln!("arrsh: cannot read history {}: {e}", path.display()),
                Ok(()) => {}
            }
        }
        HistoryFile { path }
    }

    /// Adds one input (all its lines, as one entry); after a failed save, stops saving.
    fn add(&mut self, editor: &mut ArrEditor, text: &str) {
        // A file history never fails to add; a repeat of the last entry is just not kept.
        let _ = editor.add_history_entry(text);
        let Some(path) = &self.path else { return };
        let saved = match path.parent() {
            Some(dir) => std::fs::create_dir_all(dir).map_err(ReadlineError::from),
            None => Ok(()),
        }
        .and_then(|()| editor.append_history(path));
        if let Err(e) = saved {
            eprintln!("arrsh: cannot save history to {}: {e}", path.display());
            self.path = None;
        }
    }
}
