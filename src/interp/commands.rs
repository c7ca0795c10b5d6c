//! `:commands` that may appear as script lines. The interactive shell adds its own on top.

use crate::device::Device;
use crate::error::{command_error, Result};

use super::{Interpreter, Request};

pub fn run(interp: &mut Interpreter, name: &str, args: &str) -> Result<Request> {
    match name {
        "device" => device(interp, args),
        "quit" | "exit" => Ok(Request::Quit),
        "reset" => {
            interp.reset();
            Ok(Request::Continue)
        }
        "load" => {
            let path = args.trim();
            let text = std::fs::read_to_string(path)
                .map_err(|e| crate::error::io_error(format!("cannot read {path}: {e}")))?;
            interp.run_source(path, &text, false)?;
            Ok(Request::Continue)
        }
        other => Err(command_error(format!("unknown command :{other}"))),
    }
}

fn device(interp: &mut Interpreter, args: &str) -> Result<Request> {
    match args.trim() {
        "" => {
            let gpu = crate::device::gpu::describe();
            let text = format!(
                "default device: {}\ncpu: available\ngpu: {gpu}\n",
                interp.default_device
            );
            interp.write_out(&text);
        }
        "cpu" => interp.set_default_device(Device::Cpu)?,
        "gpu" => interp.set_default_device(Device::Gpu)?,
        other => {
            return Err(command_error(format!(
                ":device takes cpu or gpu, not `{other}`"
            )))
        }
    }
    Ok(Request::Continue)
}
