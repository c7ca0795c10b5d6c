//! arrsh as a Jupyter kernel (messaging protocol 5.3): one interpreter session per kernel, fed
//! by the shell channel's requests in order. A cell runs as a shell input does: its
//! expressions' values are shown, an error keeps every variable as it was, Ctrl-C (SIGINT or
//! `interrupt_request`) stops it and the kernel stays.

mod channels;
mod messages;
mod outputs;
pub mod spec;

use std::path::Path;
use std::sync::atomic::Ordering;

use jupyter_protocol::{
    CommClose, CommInfoReply, CompleteReply, CompleteRequest, ErrorOutput, ExecuteInput,
    ExecuteReply, ExecuteRequest, ExecutionCount, HistoryReply, InspectReply, InspectRequest,
    IsCompleteReply, IsCompleteRequest, JupyterMessage, JupyterMessageContent, Media, MediaType,
    Payload, ReplyError, ReplyStatus, ShutdownReply, Status,
};
use rustyline::completion::Completer;
use rustyline::history::DefaultHistory;

use crate::error::Error;
use crate::interp::{Interpreter, Placement};
use crate::repl::helper::ArrHelper;
use channels::{Channels, Outgoing};
use messages::{kernel_info, reply};
use outputs::{Display, Outputs, SharedOutputs, StreamWriter};

/// Serves the kernel whose connection file Jupyter wrote; returns the exit status.
pub fn serve(connection_file: &Path, placement: Placement) -> i32 {
    let info = match std::fs::read_to_string(connection_file)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
    {
        Ok(info) => info,
        Err(e) => {
            eprintln!(
                "arrsh kernel: cannot read the connection file {}: {e}",
                connection_file.display()
            );
            return 1;
        }
    };
    let (outgoing, queue) = tokio::sync::mpsc::unbounded_channel();
    let outputs = Outputs::new(outgoing.clone());
    let mut interp = Interpreter::new(
        Box::new(StreamWriter::new(&outputs, false)),
        Box::new(StreamWriter::new(&outputs, true)),
    );
    let interrupt = interp.interrupt_flag();
    if let Err(e) = ctrlc::set_handler(move || interrupt.store(true, Ordering::Relaxed)) {
        eprintln!("arrsh kernel: SIGINT will end the kernel instead of the running cell: {e}");
    }
    let channels = match channels::start(info, interp.interrupt_flag(), (outgoing, queue)) {
        Ok(channels) => channels,
        Err(e) => {
            eprintln!("arrsh kernel: {e}");
            return 1;
        }
    };
    interp.set_frontend(Box::new(Display {
        outputs: outputs.clone(),
    }));
    outputs::flush_periodically(outputs.clone());
    let device_note = interp
        .set_placement(placement)
        .err()
        .map(|e| format!("arrsh: {}; arrays are made on the cpu\n", e.message));
    let mut kernel = Kernel {
        interp,
        outputs,
        channels,
        execution_count: ExecutionCount::new(0),
        completer: ArrHelper::new(false),
        device_note,
    };
    while let Ok(request) = kernel.channels.requests.recv() {
        kernel.answer(&request);
    }
    0
}

struct Kernel {
    interp: Interpreter,
    outputs: SharedOutputs,
    channels: Channels,
    execution_count: ExecutionCount,
    completer: ArrHelper,
    /// Why the device asked for is not the default, said in the first cell's output.
    device_note: Option<String>,
}

impl Kernel {
    fn answer(&mut self, request: &JupyterMessage) {
        let quiet =
            matches!(&request.content, JupyterMessageContent::ExecuteRequest(e) if e.silent);
        outputs::with_outputs(&self.outputs, |o| {
            o.begin(request, quiet);
            o.publish(Status::busy());
        });
        let content: Option<JupyterMessageContent> = match &request.content {
            JupyterMessageContent::KernelInfoRequest(_) => Some(kernel_info().into()),
            JupyterMessageContent::ExecuteRequest(execute) => Some(self.execute(execute).into()),
            JupyterMessageContent::CompleteRequest(complete) => {
                Some(self.complete(complete).into())
            }
            JupyterMessageContent::InspectRequest(inspect) => Some(inspect_reply(inspect).into()),
            JupyterMessageContent::IsCompleteRequest(code) => Some(is_complete(code).into()),
            JupyterMessageContent::CommInfoRequest(_) => Some(CommInfoReply::default().into()),
            JupyterMessageContent::HistoryRequest(_) => Some(HistoryReply::new(Vec::new()).into()),
            JupyterMessageContent::CommOpen(open) => {
                // No comm targets: close it at once, as the protocol asks.
                let close = CommClose {
                    comm_id: open.comm_id.clone(),
                    ..CommClose::default()
                };
                outputs::with_outputs(&self.outputs, |o| o.publish(close));
                None
            }
            JupyterMessageContent::ShutdownRequest(shutdown) => {
                let reply = ShutdownReply {
                    restart: shutdown.restart,
                    ..ShutdownReply::default()
                };
                self.send_reply(reply.into(), request);
                std::thread::sleep(std::time::Duration::from_millis(50));
                std::process::exit(0);
            }
            other => {
                eprintln!(
                    "arrsh kernel: no answer to `{}` on shell",
                    other.message_type()
                );
                None
            }
        };
        if let Some(content) = content {
            self.send_reply(content, request);
        }
        outputs::with_outputs(&self.outputs, |o| o.publish(Status::idle()));
        if self.interp.quit_requested() {
            // `:quit` in a cell ends the kernel, once its reply has left.
            std::thread::sleep(std::time::Duration::from_millis(50));
            std::process::exit(0);
        }
    }

    fn send_reply(&self, content: JupyterMessageContent, request: &JupyterMessage) {
        let _ = self
            .channels
            .outgoing
            .send(Outgoing::Shell(reply(content, request)));
    }

    fn execute(&mut self, execute: &ExecuteRequest) -> ExecuteReply {
        let counted = !execute.silent && execute.store_history;
        if counted {
            self.execution_count.increment();
        }
        let count = self.execution_count;
        outputs::with_outputs(&self.outputs, |o| {
            o.publish_output(ExecuteInput {
                code: execute.code.clone(),
                execution_count: count,
            })
        });
        if let Some(note) = self.device_note.take() {
            self.interp.write_err(&note);
        }
        let snapshot = self.interp.snapshot();
        self.interp.clear_interrupt();
        let name = format!("<cell {}>", count.value());
        let result = self.interp.run_source(&name, &execute.code, true);
        self.interp.flush();
        let error = result.err().map(|e| {
            self.interp.restore(snapshot);
            self.error_output(&e)
        });
        outputs::with_outputs(&self.outputs, |o| {
            o.finish(count, error.is_some());
            if let Some(error) = &error {
                o.publish_output(ErrorOutput {
                    ename: error.ename.clone(),
                    evalue: error.evalue.clone(),
                    traceback: error.traceback.clone(),
                })
            }
        });
        let payload = match self.interp.quit_requested() {
            true => vec![Payload::AskExit { keepkernel: false }],
            false => Vec::new(),
        };
        ExecuteReply {
            payload,
            status: if error.is_some() {
                ReplyStatus::Error
            } else {
                ReplyStatus::Ok
            },
            execution_count: count,
            error: error.map(Box::new),
            ..ExecuteReply::default()
        }
    }

    /// The error as Jupyter shows it: the traceback is arrsh's own report, with the cell's
    /// line and a caret under the place.
    fn error_output(&self, error: &Error) -> ReplyError {
        let report = self.interp.sources.render(error, false);
        ReplyError {
            ename: error.kind.label().to_string(),
            evalue: error.message.clone(),
            traceback: report.lines().map(str::to_string).collect(),
        }
    }

    fn complete(&mut self, request: &CompleteRequest) -> CompleteReply {
        let code = &request.code;
        let cursor = byte_offset(code, request.cursor_pos);
        let variables = self
            .interp
            .variables()
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        self.completer.set_variables(variables);
        let history = DefaultHistory::new();
        let context = rustyline::Context::new(&history);
        let (start, candidates) = self
            .completer
            .complete(code, cursor, &context)
            .unwrap_or((cursor, Vec::new()));
        CompleteReply {
            matches: candidates.into_iter().map(|c| c.replacement).collect(),
            cursor_start: code[..start].chars().count(),
            cursor_end: request.cursor_pos,
            ..CompleteReply::default()
        }
    }
}

/// Shift-Tab: the `:help` of the name under (or just before) the cursor.
fn inspect_reply(request: &InspectRequest) -> InspectReply {
    let cursor = byte_offset(&request.code, request.cursor_pos);
    let help = name_at(&request.code, cursor).and_then(crate::interp::help_text);
    match help {
        Some(text) => InspectReply {
            found: true,
            data: Media::from(MediaType::Plain(text)),
            ..InspectReply::default()
        },
        None => InspectReply::default(),
    }
}

/// A cell is incomplete while a bracket, brace or string is open.
fn is_complete(request: &IsCompleteRequest) -> IsCompleteReply {
    if crate::syntax::source::is_incomplete(&request.code) {
        IsCompleteReply::incomplete("    ".into())
    } else if crate::syntax::parse(&request.code, 0).is_err() {
        IsCompleteReply::invalid()
    } else {
        IsCompleteReply::complete()
    }
}

/// The name (`sum`, `linalg.inv`, `:time`) around byte `cursor`, or the called one when the
/// cursor is inside a call's brackets right after `(`.
fn name_at(code: &str, cursor: usize) -> Option<&str> {
    let is_name = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == ':';
    let before = code[..cursor].trim_end_matches('(');
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_name(c))
        .last()
        .map_or(before.len(), |(i, _)| i);
    let end = before.len()
        + code[before.len()..]
            .char_indices()
            .find(|&(_, c)| !is_name(c))
            .map_or(code.len() - before.len(), |(i, _)| i);
    let name = code[start..end].trim_matches('.');
    (!name.is_empty()).then_some(name)
}

/// Jupyter counts cursor positions in characters (code points); Rust slices by bytes.
fn byte_offset(text: &str, chars: usize) -> usize {
    text.char_indices()
        .nth(chars)
        .map_or(text.len(), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_under_the_cursor() {
        assert_eq!(name_at("x = linalg.inv(a)", 14), Some("linalg.inv"));
        assert_eq!(name_at("x = linalg.inv(a)", 15), Some("linalg.inv"));
        assert_eq!(name_at("sum(x)", 1), Some("sum"));
        assert_eq!(name_at(":time on", 3), Some(":time"));
        assert_eq!(name_at("1 + ", 4), None);
    }

    #[test]
    fn cursor_positions_are_characters() {
        assert_eq!(byte_offset("é = 1", 1), 2);
        assert_eq!(byte_offset("abc", 9), 3);
    }
}
