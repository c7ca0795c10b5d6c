//! `:commands`: one table (name, arguments, help, action) drives dispatch, `:help` and the
//! REPL's completion. Every command is also valid as a script line.

use crate::device::Device;
use crate::error::{command_error, Result};

use super::{Interpreter, Placement, Request};

pub struct Command {
    pub name: &'static str,
    /// The arguments as `:help` shows them, e.g. `[on|off]`.
    pub args: &'static str,
    pub help: &'static str,
    /// True when the argument is a file path (the REPL completes paths after it).
    pub takes_path: bool,
    run: fn(&mut Interpreter, &str) -> Result<Request>,
}

pub fn all() -> &'static [Command] {
    COMMANDS
}

pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

pub fn run(interp: &mut Interpreter, name: &str, args: &str) -> Result<Request> {
    let command = find(name).ok_or_else(|| {
        command_error(format!(
            "unknown command :{name} (commands: {})",
            COMMANDS
                .iter()
                .map(|c| format!(":{}", c.name))
                .collect::<Vec<_>>()
                .join(" ")
        ))
    })?;
    let args = args.trim();
    if command.args.is_empty() && !args.is_empty() {
        return Err(command_error(format!(
            ":{name} takes no argument, not `{args}`"
        )));
    }
    (command.run)(interp, args)
}

fn done(_: ()) -> Request {
    Request::Continue
}

static COMMANDS: &[Command] = &[
    Command {
        name: "help",
        args: "[name]",
        help: "the commands; or a built-in's signature, doc and example",
        takes_path: false,
        run: |i, a| super::report_commands::help(i, a).map(done),
    },
    Command {
        name: "time",
        args: "[on|off]",
        help: "after each statement, one line: wall time (device synchronized), time to return, device time, transfers, kernels, allocations",
        takes_path: false,
        run: |i, a| super::report_commands::time(i, a).map(done),
    },
    Command {
        name: "device",
        args: "[cpu|gpu|auto]",
        help: "no argument: the devices, the placement model and the session's transfer totals; with one: where new arrays are made (auto: where the cost model says, and why)",
        takes_path: false,
        run: device,
    },
    Command {
        name: "calibrate",
        args: "",
        help: "measures this machine for device=auto (each class of work on each device, copies both ways; about a second) and shows the model and its crossovers",
        takes_path: false,
        run: |i, _| super::report_commands::calibrate(i).map(done),
    },
    Command {
        name: "threads",
        args: "[N|all]",
        help: "no argument: the cpu's worker threads; with one: use N of them (all: one a core)",
        takes_path: false,
        run: threads,
    },
    Command {
        name: "fuse",
        args: "[on|off]",
        help: "fusion of elementwise work into one pass (on by default); off runs each operation alone, as it is made",
        takes_path: false,
        run: |i, a| super::report_commands::fuse(i, a).map(done),
    },
    Command {
        name: "explain",
        args: "[--source] STMT",
        help: "runs STMT and shows each pass it ran: the fused operations and their dtypes, what it read and wrote; --source adds the generated CUDA C",
        takes_path: false,
        run: |i, a| super::report_commands::explain(i, a).map(done),
    },
    Command {
        name: "vars",
        args: "",
        help: "a table of variables: name, kind, dtype, shape, device, bytes",
        takes_path: false,
        run: |i, _| super::report_commands::vars(i).map(done),
    },
    Command {
        name: "scalar",
        args: "allow|warn|error",
        help: "the scalar guard: what happens when a gpu array is read one element at a time",
        takes_path: false,
        run: |i, a| super::report_commands::scalar(i, a).map(done),
    },
    Command {
        name: "bench",
        args: "STMT",
        help: "runs STMT repeatedly on the default device: min, median, mean ± sd, max, a histogram, transfers per run",
        takes_path: false,
        run: |i, a| super::report_commands::bench(i, a).map(done),
    },
    Command {
        name: "sweep",
        args: "for n in SIZES { BODY } [file=PATH]",
        help: "runs BODY for each n on cpu and on gpu, timed as :bench does: a table, the crossover size and a chart (file=\"NAME.svg\" or .png also saves the chart); under device=auto it refines the model for the class of work BODY stands for",
        takes_path: false,
        run: |i, a| super::sweep::sweep(i, a).map(done),
    },
    Command {
        name: "profile",
        args: "FILE",
        help: "runs a script and prints the per-line table (each statement synchronized)",
        takes_path: true,
        run: |i, a| super::report_commands::profile(i, a).map(done),
    },
    Command {
        name: "load",
        args: "FILE",
        help: "runs a script in this session",
        takes_path: true,
        run: load,
    },
    Command {
        name: "reset",
        args: "",
        help: "forgets all variables and zeroes the counters",
        takes_path: false,
        run: |i, _| {
            i.reset();
            crate::stats::reset();
            Ok(Request::Continue)
        },
    },
    Command {
        name: "quit",
        args: "",
        help: "leaves arrsh (also Ctrl-D)",
        takes_path: false,
        run: |_, _| Ok(Request::Quit),
    },
];

fn load(interp: &mut Interpreter, args: &str) -> Result<Request> {
    if args.is_empty() {
        return Err(command_error(":load needs a script file"));
    }
    let text = super::read_script(args)?;
    interp.run_source(args, &text, false)?;
    Ok(Request::Continue)
}

fn threads(interp: &mut Interpreter, args: &str) -> Result<Request> {
    use crate::device::cpu::threads;
    let count = match args {
        "" => {
            let cores = threads::cores();
            interp.write_err(&format!(
                "cpu worker threads: {} ({cores} cores)\n",
                threads::in_use()
            ));
            return Ok(Request::Continue);
        }
        "all" => None,
        n => match n.parse::<usize>() {
            Ok(n) if n >= 1 => Some(n),
            _ => {
                return Err(command_error(format!(
                    ":threads takes a count of at least 1 or all, not `{n}`"
                )))
            }
        },
    };
    crate::plan::flush()?;
    threads::set(count).map_err(command_error)?;
    Ok(Request::Continue)
}

fn device(interp: &mut Interpreter, args: &str) -> Result<Request> {
    match args {
        "" => super::report_commands::devices(interp)?,
        "cpu" => interp.set_placement(Placement::Fixed(Device::Cpu))?,
        "gpu" => interp.set_placement(Placement::Fixed(Device::Gpu))?,
        "auto" => interp.set_auto(),
        other => {
            return Err(command_error(format!(
                ":device takes cpu, gpu or auto, not `{other}`"
            )))
        }
    }
    Ok(Request::Continue)
}
