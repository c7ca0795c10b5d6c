//! The `arrsh` command line: run a script file, `-e` code or stdin, or read lines interactively.

use std::io::{self, IsTerminal, Read, Write};
use std::path::PathBuf;

use clap::Parser;

use crate::device::Device;
use crate::error::Error;
use crate::interp::{Interpreter, Placement};
use crate::kernel::spec::{self, Place};

#[derive(Parser, Debug)]
#[command(
    name = "arrsh",
    version,
    about = "An array shell that shows where the time goes, on the cpu and the gpu",
    args_conflicts_with_subcommands = true
)]
pub struct Options {
    #[command(subcommand)]
    pub command: Option<Command>,
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
    /// After each top-level statement, a line on stderr: time (device synchronized), transfers, kernels.
    #[arg(long)]
    pub time: bool,
    /// At exit, a per-line table of where the time went (each statement synchronized).
    #[arg(long)]
    pub profile: bool,
    /// Run every elementwise operation on its own, as it is made (no deferral, no fusion).
    #[arg(long)]
    pub no_fuse: bool,
    /// What an element-by-element read of a gpu array does.
    #[arg(long, value_name = "MODE", value_parser = ["allow", "warn", "error"], default_value = "warn")]
    pub scalar: String,
    /// The cpu's worker threads (default: one a core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceChoice {
    Cpu,
    Gpu,
    /// The cost model places each new array and operation (and says why).
    Auto,
}

impl DeviceChoice {
    fn placement(self) -> Placement {
        match self {
            DeviceChoice::Cpu => Placement::Fixed(Device::Cpu),
            DeviceChoice::Gpu => Placement::Fixed(Device::Gpu),
            DeviceChoice::Auto => Placement::Auto,
        }
    }

    fn name(self) -> &'static str {
        match self {
            DeviceChoice::Cpu => "cpu",
            DeviceChoice::Gpu => "gpu",
            DeviceChoice::Auto => "auto",
        }
    }
}

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// arrsh as a Jupyter kernel: `install` or `remove` its kernelspec; with
    /// `--connection-file`, serve a kernel (what Jupyter starts)
    Kernel(KernelOptions),
}

#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct KernelOptions {
    #[command(subcommand)]
    pub action: Option<KernelAction>,
    /// The connection file Jupyter wrote (the kernelspec passes it).
    #[arg(long, value_name = "FILE")]
    pub connection_file: Option<PathBuf>,
    /// Default device for new arrays.
    #[arg(long, value_enum, default_value = "cpu")]
    pub device: DeviceChoice,
}

#[derive(clap::Subcommand, Debug)]
pub enum KernelAction {
    /// Writes the kernelspec (kernel.json and logos) that starts this arrsh.
    Install {
        #[command(flatten)]
        place: PlaceOptions,
        /// The kernelspec's name (Jupyter lists it under this name).
        #[arg(long, default_value = "arrsh")]
        name: String,
        /// Default device of the kernel's sessions.
        #[arg(long, value_enum, default_value = "cpu")]
        device: DeviceChoice,
    },
    /// Removes the kernelspec.
    Remove {
        #[command(flatten)]
        place: PlaceOptions,
        /// The kernelspec's name.
        #[arg(long, default_value = "arrsh")]
        name: String,
    },
}

/// Jupyter's user data directory (`--user`), `DIR/share/jupyter` (`--prefix DIR`), or the
/// system's.
#[derive(clap::Args, Debug)]
pub struct PlaceOptions {
    /// In Jupyter's user data directory ($JUPYTER_DATA_DIR, else ~/.local/share/jupyter).
    #[arg(long, conflicts_with = "prefix")]
    user: bool,
    /// In DIR/share/jupyter (a virtual environment's prefix); neither flag: the system's.
    #[arg(long, value_name = "DIR")]
    prefix: Option<PathBuf>,
}

impl PlaceOptions {
    fn place(&self) -> Place {
        match (&self.prefix, self.user) {
            (Some(prefix), _) => Place::Prefix(prefix.clone()),
            (None, true) => Place::User,
            (None, false) => Place::System,
        }
    }
}

fn run_kernel(options: &KernelOptions) -> i32 {
    let done = match (&options.action, &options.connection_file) {
        (
            Some(KernelAction::Install {
                place,
                name,
                device,
            }),
            _,
        ) => spec::install(&place.place(), name, device.name())
            .map(|dir| format!("installed the kernelspec `{name}` in {}", dir.display())),
        (Some(KernelAction::Remove { place, name }), _) => spec::remove(&place.place(), name)
            .map(|dir| format!("removed the kernelspec `{name}` from {}", dir.display())),
        (None, Some(file)) => return crate::kernel::serve(file, options.device.placement()),
        (None, None) => {
            eprintln!(
                "arrsh kernel: give `--connection-file FILE` (as Jupyter does), or `install` / `remove`"
            );
            return 2;
        }
    };
    match done {
        Ok(text) => {
            println!("{text}");
            0
        }
        Err(e) => {
            eprintln!("arrsh kernel: {e}");
            1
        }
    }
}

/// Exit status: 0 success, 1 an error in the program, 2 bad command-line use (clap's own).
pub fn run(options: Options) -> i32 {
    crate::device::cpu::threads::join_global_pool_from_this_thread();
    crate::interp::builtins::start_clock();
    if let Some(Command::Kernel(kernel)) = &options.command {
        return run_kernel(kernel);
    }
    let color =
        !options.no_color && std::env::var_os("NO_COLOR").is_none() && io::stderr().is_terminal();
    colored::control::set_override(color);
    let stdout: Box<dyn Write> = if io::stdout().is_terminal() {
        Box::new(io::LineWriter::new(io::stdout()))
    } else {
        Box::new(io::BufWriter::with_capacity(1 << 16, io::stdout()))
    };
    let mut interp = Interpreter::new(stdout, Box::new(io::stderr()));
    interp.color = color;
    interp.timing = options.time;
    if let Some(count) = options.threads {
        if let Err(e) = crate::device::cpu::threads::set_with_this_thread(count.into()) {
            return report(&mut interp, &crate::error::command_error(e));
        }
    }
    if options.no_fuse {
        // Nothing is deferred yet, so this cannot fail.
        let _ = crate::plan::set_fusion(false);
    }
    interp.scalar_mode = crate::interp::ScalarMode::parse(&options.scalar)
        .unwrap_or(crate::interp::ScalarMode::Warn);
    if let Err(e) = interp.set_placement(options.device.placement()) {
        return report(&mut interp, &e);
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
        (None, Some(path)) => match crate::interp::read_script(&path.display().to_string()) {
            Ok(text) => (path.display().to_string(), text),
            Err(e) => return report(&mut interp, &e),
        },
        (None, None) => return crate::repl::run(&mut interp),
    };
    let result = if options.profile {
        let width = comfy_table::Table::new()
            .use_stderr()
            .width()
            .unwrap_or(100);
        interp
            .profile_source(&name, &text, width)
            .map(|report| interp.write_err(&report.text))
    } else {
        interp.run_source(&name, &text, false)
    };
    // Work still queued on the gpu is part of the script: a fault in it fails the script.
    let result = result.and_then(|()| crate::device::synchronize());
    if let Some(summary) = interp.placement_summary() {
        interp.write_err(&summary);
    }
    match result {
        Ok(()) => 0,
        Err(e) => report(&mut interp, &e),
    }
}

pub fn report(interp: &mut Interpreter, error: &Error) -> i32 {
    interp.flush();
    eprintln!("{}", interp.sources.render(error, interp.color));
    1
}
