//! The kernel's messages: replies to a request, outputs for iopub, and what `kernel_info` says.

use bytes::Bytes;
use jupyter_protocol::{
    CodeMirrorMode, JupyterMessage, JupyterMessageContent, KernelInfoReply, LanguageInfo, Media,
    MediaType, ReplyStatus,
};

use crate::interp::display::Rich;

pub const PROTOCOL_VERSION: &str = "5.3";

/// A reply to `request`, routed back to the client that sent it.
pub fn reply(
    content: impl Into<JupyterMessageContent>,
    request: &JupyterMessage,
) -> JupyterMessage {
    signed_by_arrsh(JupyterMessage::new(content, Some(request)))
}

/// An iopub message about `request`; its first frame is the topic, as ipykernel's.
pub fn iopub(
    content: impl Into<JupyterMessageContent>,
    request: &JupyterMessage,
) -> JupyterMessage {
    let message = JupyterMessage::new(content, Some(request));
    let topic = Bytes::from(format!("kernel.{}", message.message_type()));
    signed_by_arrsh(message.with_zmq_identities(vec![topic]))
}

fn signed_by_arrsh(mut message: JupyterMessage) -> JupyterMessage {
    message.header.username = "arrsh".into();
    message
}

pub fn kernel_info() -> KernelInfoReply {
    let version = env!("CARGO_PKG_VERSION").to_string();
    KernelInfoReply {
        status: ReplyStatus::Ok,
        protocol_version: PROTOCOL_VERSION.into(),
        implementation: "arrsh".into(),
        implementation_version: version.clone(),
        language_info: LanguageInfo {
            name: "arrsh".into(),
            version,
            mimetype: Some("text/x-arrsh".into()),
            file_extension: Some(".arr".into()),
            // arr's tokens are Python's plus braces: the closest highlighting there is.
            pygments_lexer: Some("python".into()),
            codemirror_mode: Some(CodeMirrorMode::Simple("python".into())),
            nbconvert_exporter: None,
        },
        banner: format!(
            "arrsh {} — arrays on the cpu and the gpu; :help lists the commands",
            env!("CARGO_PKG_VERSION")
        ),
        help_links: Vec::new(),
        debugger: false,
        error: None,
    }
}

/// Every form of `rich` as a MIME bundle (`text/plain` always).
pub fn media(rich: Rich) -> Media {
    let mut forms = vec![MediaType::Plain(rich.text)];
    if let Some(html) = rich.html {
        forms.push(MediaType::Html(html));
    }
    if let Some(svg) = rich.svg {
        forms.push(MediaType::Svg(svg));
    }
    if let Some(png) = rich.png {
        forms.push(MediaType::Png(data_encoding::BASE64.encode(&png)));
    }
    Media::from(forms)
}
