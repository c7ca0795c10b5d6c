//! What a cell prints and shows, as iopub messages in the order it happened: stdout and stderr
//! as `stream` messages (batched, and sent at least every 100 ms while a cell runs), pictures
//! and tables as `display_data`, and the value of the cell's last expression as its
//! `execute_result` (a value that something else followed is shown where it was, as data).

use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use jupyter_protocol::{
    DisplayData, ExecuteResult, ExecutionCount, JupyterMessage, JupyterMessageContent, Stdio,
    StreamContent,
};
use tokio::sync::mpsc::UnboundedSender;

use super::channels::Outgoing;
use super::messages::{iopub, media};
use crate::interp::display::{Frontend, Rich, Shown};

/// Text waits at most this long before it is sent.
pub const STREAM_INTERVAL: Duration = Duration::from_millis(100);
/// A stream message carries at most about this much text.
const STREAM_BYTES: usize = 64 << 10;

pub struct Outputs {
    outgoing: UnboundedSender<Outgoing>,
    /// The request whose outputs these are.
    request: Option<JupyterMessage>,
    /// Text not sent yet, and whether it is stderr's.
    text: String,
    text_is_err: bool,
    /// The latest value a top-level expression gave, while nothing followed it.
    value: Option<Rich>,
    /// A `silent` execute: it publishes no outputs, only its status.
    quiet: bool,
    sent_at: Instant,
}

pub type SharedOutputs = Arc<Mutex<Outputs>>;

impl Outputs {
    pub fn new(outgoing: UnboundedSender<Outgoing>) -> SharedOutputs {
        Arc::new(Mutex::new(Outputs {
            outgoing,
            request: None,
            text: String::new(),
            text_is_err: false,
            value: None,
            quiet: false,
            sent_at: Instant::now(),
        }))
    }

    /// Outputs from now on belong to `request`; a `quiet` one's are not published.
    pub fn begin(&mut self, request: &JupyterMessage, quiet: bool) {
        self.request = Some(request.clone());
        self.value = None;
        self.quiet = quiet;
    }

    /// Sends what is pending, then the cell's value as its `execute_result` (a failed cell has
    /// none: a value it showed stays where it was).
    pub fn finish(&mut self, count: ExecutionCount, failed: bool) {
        self.send_text();
        if failed {
            self.settle_value();
        } else if let Some(rich) = self.value.take() {
            self.publish_output(ExecuteResult::new(count, media(rich)));
        }
        self.quiet = false;
    }

    /// A message about the request (its status) even when it is quiet.
    pub fn publish(&mut self, content: impl Into<JupyterMessageContent>) {
        if let Some(request) = &self.request {
            let _ = self.outgoing.send(Outgoing::IoPub(iopub(content, request)));
        }
    }

    /// What the request printed or showed.
    pub fn publish_output(&mut self, content: impl Into<JupyterMessageContent>) {
        if !self.quiet {
            self.publish(content);
        }
    }

    fn write(&mut self, is_err: bool, text: &str) {
        self.settle_value();
        if is_err != self.text_is_err {
            self.send_text();
            self.text_is_err = is_err;
        }
        self.text.push_str(text);
        if self.text.len() >= STREAM_BYTES || self.sent_at.elapsed() >= STREAM_INTERVAL {
            self.send_text();
        }
    }

    /// Sends the pending text if it has waited long enough (the periodic flush).
    pub fn send_stale_text(&mut self) {
        if self.sent_at.elapsed() >= STREAM_INTERVAL {
            self.send_text();
        }
    }

    fn send_text(&mut self) {
        self.sent_at = Instant::now();
        if self.text.is_empty() {
            return;
        }
        let name = if self.text_is_err {
            Stdio::Stderr
        } else {
            Stdio::Stdout
        };
        let text = std::mem::take(&mut self.text);
        self.publish_output(StreamContent { name, text });
    }

    /// A value that something follows is shown where it was, not as the cell's result.
    fn settle_value(&mut self) {
        if let Some(rich) = self.value.take() {
            self.publish_output(DisplayData::new(media(rich)));
        }
    }

    fn show(&mut self, why: Shown, rich: Rich) {
        self.send_text();
        self.settle_value();
        match why {
            Shown::Value => self.value = Some(rich),
            Shown::Output | Shown::Report => self.publish_output(DisplayData::new(media(rich))),
        }
    }
}

fn lock(outputs: &SharedOutputs) -> MutexGuard<'_, Outputs> {
    // A panic elsewhere while holding the lock leaves text that can still be sent.
    outputs
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The interpreter's stdout or stderr.
pub struct StreamWriter {
    outputs: SharedOutputs,
    is_err: bool,
}

impl StreamWriter {
    pub fn new(outputs: &SharedOutputs, is_err: bool) -> StreamWriter {
        StreamWriter {
            outputs: outputs.clone(),
            is_err,
        }
    }
}

impl Write for StreamWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        lock(&self.outputs).write(self.is_err, &String::from_utf8_lossy(bytes));
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        lock(&self.outputs).send_text();
        Ok(())
    }
}

/// The interpreter's front end: pictures, tables and values as MIME bundles.
pub struct Display {
    pub outputs: SharedOutputs,
}

impl Frontend for Display {
    fn show(&mut self, why: Shown, rich: Rich) {
        lock(&self.outputs).show(why, rich);
    }
}

/// Sends text that waited too long while a cell runs without printing more.
pub fn flush_periodically(outputs: SharedOutputs) {
    let _ = std::thread::Builder::new()
        .name("jupyter stream flush".into())
        .spawn(move || loop {
            std::thread::sleep(STREAM_INTERVAL);
            lock(&outputs).send_stale_text();
        });
}

pub fn with_outputs<R>(outputs: &SharedOutputs, f: impl FnOnce(&mut Outputs) -> R) -> R {
    f(&mut lock(outputs))
}
