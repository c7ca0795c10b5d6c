//! What the session shows beyond plain text: a front end (the Jupyter kernel) that can render
//! richer forms receives them here; without one, everything falls back to the text streams.

use std::fmt::Write as _;

use super::value::Value;
use crate::array::format::{self, Formattable};
use crate::error::Result;
use crate::picture::{self, Chart};
use crate::with_dtype;

/// One thing to show, in every form its maker could give; `text` is always there.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rich {
    pub text: String,
    pub html: Option<String>,
    pub svg: Option<String>,
    pub png: Option<Vec<u8>>,
}

impl Rich {
    pub fn text(text: impl Into<String>) -> Rich {
        Rich {
            text: text.into(),
            ..Rich::default()
        }
    }
}

/// Why something is shown: it decides where the text goes without a front end, and lets a
/// front end keep a statement's value apart (Jupyter's `execute_result`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// The value of a top-level expression (the shell's echo): stdout.
    Value,
    /// What the program asked to show (a chart): stdout.
    Output,
    /// A command's report (a table, a chart of `:sweep`): stderr, as every report.
    Report,
}

/// A front end that renders rich output; the interpreter hands it everything it shows.
pub trait Frontend {
    fn show(&mut self, why: Shown, rich: Rich);
}

/// `text` with a newline at its end (a stream shows it as a line of its own).
pub fn line_ended(mut text: String) -> String {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// What shows a chart: `text` (a text chart, or a report that holds one) and, when a front end
/// renders pictures, the chart as SVG and PNG (only then are they drawn).
pub fn with_pictures(text: String, chart: Option<&Chart>, frontend: bool) -> Result<Rich> {
    match (chart, frontend) {
        (Some(chart), true) => Ok(Rich {
            text,
            svg: Some(picture::svg(chart)?),
            png: Some(picture::png(chart)?),
            html: None,
        }),
        _ => Ok(Rich::text(text)),
    }
}

/// The largest 2-d array shown as an HTML table; larger ones are shown as text only.
const HTML_ROWS: usize = 100;
const HTML_COLUMNS: usize = 40;

/// An HTML table of a 2-d array of modest size (its dtype, shape and device in the caption);
/// `None` for any other value.
pub fn value_html(value: &Value) -> Result<Option<String>> {
    let Value::Array(a) = value else {
        return Ok(None);
    };
    let &[rows, columns] = a.shape() else {
        return Ok(None);
    };
    if rows == 0 || columns == 0 || rows > HTML_ROWS || columns > HTML_COLUMNS {
        return Ok(None);
    }
    let texts = with_dtype!(a.dtype(), T => a.with_view::<T, _>(|v| {
        format::element_texts(&T::format_data(v))
    }))?;
    let mut html = format!(
        "<table class=\"arrsh-array\"><caption>{rows}×{columns} {} on {}</caption>",
        a.dtype().numpy_name(),
        a.device()
    );
    for row in texts.chunks(columns) {
        html.push_str("<tr>");
        for text in row {
            let _ = write!(html, "<td>{}</td>", escape(text));
        }
        html.push_str("</tr>");
    }
    html.push_str("</table>");
    Ok(Some(html))
}

/// `text` safe inside HTML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// A report's tables as HTML (each table's header and rows), then its closing `note` lines.
pub fn report_html(tables: &[&comfy_table::Table], note: &str) -> String {
    let mut html = String::new();
    for table in tables {
        html.push_str("<table class=\"arrsh-report\">");
        if let Some(header) = table.header() {
            html.push_str("<tr>");
            for cell in header.cell_iter() {
                let _ = write!(html, "<th>{}</th>", escape(&cell.content()));
            }
            html.push_str("</tr>");
        }
        for row in table.row_iter() {
            html.push_str("<tr>");
            for cell in row.cell_iter() {
                let _ = write!(html, "<td>{}</td>", escape(&cell.content()));
            }
            html.push_str("</tr>");
        }
        html.push_str("</table>");
    }
    for line in note.lines().filter(|l| !l.trim().is_empty()) {
        let _ = write!(html, "<p>{}</p>", escape(line));
    }
    html
}
