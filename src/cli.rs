//! The `arrsh` command line: run a script file, `-e` code or stdin, or read lines interactively.

use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::PathBuf;

use clap::Parser;

use crate::device::Device;
use crate::error::Error;
use crate::interp::Interpreter;
use crate::syntax::source::is_incomplete;

#[derive(Parser, Debug)]
#[command(
    name = "arrsh",
    version,
    about = "An array shell that shows where the time goes, on the cpu and the gpu"
)]
pub struct Options {
    /// Script to run (`-` reads the script from stdin). Without one, arrsh is interactive.
    pub file: Option<PathBuf>,
    /// Run this code instead of a file.
    #[arg(
        short = 'e',
        value_name = "CODE",
        conflicts_with = "file",
        allow_hyphen_values = true
    )]
    pub code: Option<String>,
    /// Default device for new arrays.
    #[arg(long, value_enum, default_value = "cpu")]
    pub device: DeviceChoice,
    /// Never colour the output (also: the NO_COLOR environment variable).
    #[arg(long)]
    pub no_color: bool,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum DeviceChoice {
    Cpu,
    Gpu,
}

/// Exit status: 0 success, 1 an error in the program, 2 bad command-line use (clap's own).
pub fn run(options: Options) -> i32 {
    crate::interp::builtins::start_clock();
    let color =
        !options.no_color && std::env::var_os("NO_COLOR").is_none() && io::stderr().is_terminal();
    colored::control::set_override(color);
    let stdout: Box<dyn Write> = if io::stdout().is_terminal() {
        Box::new(io::LineWriter::new(io::stdout()))
    } else {
        Box::new(io::BufWriter::with_capacity(1 << 16, io::stdout()))
    };
    let mut interp = Interpreter::new(stdout);
    interp.color = color;
    if let DeviceChoice::Gpu = options.device {
        if let Err(e) = interp.set_default_device(Device::Gpu) {
            return report(&mut interp, &e);
        }
    }
    let (name, text) = match (&options.code, &options.file) {
        (Some(code), _) => ("<-e>".to_string(), code.clone()),
        (None, Some(path)) if path.as_os_str() == "-" => {
            let mut text = String::new();
            if let Err(e) = io::stdin().read_to_string(&mut text) {
                return report(
                    &mut interp,
                    &crate::error::io_error(format!("cannot read stdin: {e}")),
                );
            }
            ("<stdin>".to_string(), text)
        }
        (None, Some(path)) => match read_script(path) {
            Ok(text) => (path.display().to_string(), text),
            Err(e) => return report(&mut interp, &e),
        },
        (None, None) => return interactive(&mut interp),
    };
    match interp.run_source(&name, &text, false) {
        Ok(()) => 0,
        Err(e) => report(&mut interp, &e),
    }
}

fn read_script(path: &PathBuf) -> Result<String, Error> {
    let shown = path.display();
    if path.is_dir() {
        return Err(crate::error::io_error(format!(
            "{shown} is a directory, not a script"
        )));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| crate::error::io_error(format!("cannot read {shown}: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        crate::error::io_error(format!(
            "{shown} is not a text script: invalid UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn report(interp: &mut Interpreter, error: &Error) -> i32 {
    interp.flush();
    eprintln!("{}", interp.sources.render(error, interp.color));
    1
}

/// Line-by-line session: each complete input is run, its value echoed; a failed input leaves
/// every variable as it was.
fn interactive(interp: &mut Interpreter) -> i32 {
    let stdin = io::stdin();
    let mut pending = String::new();
    let mut line_number = 0;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        pending.push_str(&line);
        pending.push('\n');
        if is_incomplete(&pending) {
            continue;
        }
        line_number += 1;
        let snapshot = interp.snapshot();
        if let Err(e) = interp.run_source(&format!("<input {line_number}>"), &pending, true) {
            interp.restore(snapshot);
            report(interp, &e);
        }
        pending.clear();
        if interp.quit_requested() {
            break;
        }
    }
    interp.flush();
    0
}
