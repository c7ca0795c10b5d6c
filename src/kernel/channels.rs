//! Jupyter's five channels over ZeroMQ, served on a thread of their own so that heartbeats,
//! interrupts and shutdowns are answered while a cell runs. Shell requests go to the
//! interpreter's thread in the order they came; what it sends back goes out in the order sent.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use jupyter_protocol::{
    ConnectionInfo, InterruptReply, JupyterMessage, JupyterMessageContent, ShutdownReply, Status,
};
use jupyter_zmq_client::{self as zmq_client, RuntimeError};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};

use super::messages::{iopub, kernel_info, reply};

/// A message for the client: a reply on the shell channel, or an output on iopub.
pub enum Outgoing {
    Shell(JupyterMessage),
    IoPub(JupyterMessage),
}

pub struct Channels {
    /// Shell requests, each with a valid signature.
    pub requests: mpsc::Receiver<JupyterMessage>,
    pub outgoing: UnboundedSender<Outgoing>,
}

/// Binds the sockets the connection file names (and only those) and starts serving them.
pub fn start(
    info: ConnectionInfo,
    interrupt: Arc<AtomicBool>,
    (outgoing, outgoing_queue): (UnboundedSender<Outgoing>, UnboundedReceiver<Outgoing>),
) -> Result<Channels, String> {
    let (request_sender, requests) = mpsc::channel();
    let (bound_sender, bound) = mpsc::channel();
    let sender = outgoing.clone();
    std::thread::Builder::new()
        .name("jupyter channels".into())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build();
            match runtime {
                Ok(runtime) => runtime.block_on(serve(
                    info,
                    interrupt,
                    request_sender,
                    (sender, outgoing_queue),
                    bound_sender,
                )),
                Err(e) => {
                    let _ = bound_sender.send(Err(format!("cannot start the channels: {e}")));
                }
            }
        })
        .map_err(|e| format!("cannot start the channels' thread: {e}"))?;
    bound
        .recv()
        .map_err(|_| "the channels' thread ended".to_string())??;
    Ok(Channels { requests, outgoing })
}

async fn serve(
    info: ConnectionInfo,
    interrupt: Arc<AtomicBool>,
    requests: mpsc::Sender<JupyterMessage>,
    (outgoing, mut queue): (UnboundedSender<Outgoing>, UnboundedReceiver<Outgoing>),
    bound: mpsc::Sender<Result<(), String>>,
) {
    let session = uuid::Uuid::new_v4().to_string();
    let sockets = async {
        Ok::<_, RuntimeError>((
            zmq_client::create_kernel_shell_connection(&info, &session).await?,
            zmq_client::create_kernel_iopub_connection(&info, &session).await?,
            zmq_client::create_kernel_control_connection(&info, &session).await?,
            zmq_client::create_kernel_stdin_connection(&info, &session).await?,
            zmq_client::create_kernel_heartbeat_connection(&info).await?,
        ))
    }
    .await;
    let (shell, mut iopub_socket, mut control, _stdin, mut heartbeat) = match sockets {
        Ok(sockets) => sockets,
        Err(e) => {
            let _ = bound.send(Err(format!("cannot bind the kernel's sockets: {e}")));
            return;
        }
    };
    let _ = bound.send(Ok(()));
    let (mut shell_sender, mut shell_receiver) = shell.split();
    tokio::spawn(async move { while heartbeat.single_heartbeat().await.is_ok() {} });
    tokio::spawn(async move {
        while let Some(message) = queue.recv().await {
            let sent = match message {
                Outgoing::Shell(m) => shell_sender.send(m).await,
                Outgoing::IoPub(m) => iopub_socket.send(m).await,
            };
            if let Err(e) = sent {
                eprintln!("arrsh kernel: cannot send a message: {e}");
            }
        }
    });
    let control_outgoing = outgoing.clone();
    tokio::spawn(async move {
        loop {
            match control.read().await {
                Ok(request) => {
                    let _ = control_outgoing.send(Outgoing::IoPub(iopub(Status::busy(), &request)));
                    let answer = answer_control(&request, &interrupt);
                    let _ = control_outgoing.send(Outgoing::IoPub(iopub(Status::idle(), &request)));
                    let Some(answer) = answer else {
                        eprintln!(
                            "arrsh kernel: no answer to `{}` on control",
                            request.message_type()
                        );
                        continue;
                    };
                    if let Err(e) = control.send(answer.message).await {
                        eprintln!("arrsh kernel: cannot answer on control: {e}");
                    }
                    if answer.exit {
                        // Let the reply and the last status leave before the process ends.
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        std::process::exit(0);
                    }
                }
                Err(e) if stopped(&e) => break,
                Err(e) => dropped("control", &e),
            }
        }
    });
    loop {
        match shell_receiver.read().await {
            Ok(request) => {
                if requests.send(request).is_err() {
                    break;
                }
            }
            Err(e) if stopped(&e) => break,
            Err(e) => dropped("shell", &e),
        }
    }
}

/// The reply to a control request, and whether the kernel ends after sending it.
struct ControlAnswer {
    message: JupyterMessage,
    exit: bool,
}

/// Interrupts and shutdowns are answered here, never queued behind a running cell.
fn answer_control(request: &JupyterMessage, interrupt: &AtomicBool) -> Option<ControlAnswer> {
    let (content, exit): (JupyterMessageContent, bool) = match &request.content {
        JupyterMessageContent::InterruptRequest(_) => {
            interrupt.store(true, Ordering::Relaxed);
            (InterruptReply::new().into(), false)
        }
        JupyterMessageContent::ShutdownRequest(shutdown) => (
            ShutdownReply {
                restart: shutdown.restart,
                ..ShutdownReply::default()
            }
            .into(),
            true,
        ),
        JupyterMessageContent::KernelInfoRequest(_) => (kernel_info().into(), false),
        _ => return None,
    };
    Some(ControlAnswer {
        message: reply(content, request),
        exit,
    })
}

/// A socket that failed (not a message that did): nothing more will come from it.
fn stopped(error: &RuntimeError) -> bool {
    matches!(error, RuntimeError::ZmqError(_) | RuntimeError::IoError(_))
}

/// A message that is dropped unread: a bad signature never runs.
fn dropped(channel: &str, error: &RuntimeError) {
    match error {
        RuntimeError::VerifyError(_) => {
            eprintln!("arrsh kernel: dropped a message on {channel}: its signature is wrong")
        }
        other => eprintln!("arrsh kernel: dropped a message on {channel}: {other}"),
    }
}
