//! Pictures of data: one chart model, drawn as SVG text and PNG bytes (plotters, with DejaVu Sans
//! embedded so that nothing depends on the machine's fonts) or as a text chart for a terminal.
//! The interpreter's charts, `:sweep`'s chart and `:bench`'s histogram are all drawn here.

mod draw;
pub mod text;

use std::path::Path;

use crate::error::{io_error, value_error, Result};

/// Every picture's size in pixels, SVG and PNG alike.
pub const WIDTH: u32 = 640;
pub const HEIGHT: u32 = 400;

/// What to draw: marks on two axes, with a title.
#[derive(Clone, Debug)]
pub struct Chart {
    pub title: Option<String>,
    pub x: Axis,
    pub y: Axis,
    pub marks: Marks,
}

#[derive(Clone, Debug, Default)]
pub struct Axis {
    /// What the axis measures, written along it in pictures.
    pub name: Option<String>,
    pub log: bool,
    /// How its numbers are written (`report::seconds` for times); numbers as they are by default.
    pub format: Option<fn(f64) -> String>,
    /// Named positions 0, 1, 2 … (bars, `:sweep`'s sizes) instead of a numeric scale.
    pub categories: Option<Vec<String>>,
}

#[derive(Clone, Debug)]
pub enum Marks {
    /// Series of points, joined by lines, marked, or both.
    Xy {
        series: Vec<Series>,
        lines: bool,
        points: bool,
    },
    /// A histogram: `counts[i]` over `[edges[i], edges[i + 1])`.
    Bins {
        edges: Vec<f64>,
        counts: Vec<f64>,
    },
    /// One bar per category of the x axis.
    Bars {
        heights: Vec<f64>,
    },
    Image(Image),
}

#[derive(Clone, Debug, Default)]
pub struct Series {
    pub label: Option<String>,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

/// Pixels in rows from the top, three bytes (red, green, blue) each.
#[derive(Clone, Debug)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub rgb: Vec<u8>,
}

impl Axis {
    pub fn log(log: bool) -> Axis {
        Axis {
            log,
            ..Axis::default()
        }
    }

    pub fn categories(names: Vec<String>) -> Axis {
        Axis {
            categories: Some(names),
            ..Axis::default()
        }
    }

    /// A value as this axis writes it.
    fn text(&self, value: f64) -> String {
        match self.format {
            Some(format) => format(value),
            None => number(value),
        }
    }

    /// Where a value lies on the axis: its logarithm on a log axis; `None` for what a log axis
    /// cannot show (zero, negative values) and for NaN and infinities.
    fn position(&self, value: f64) -> Option<f64> {
        let p = if self.log { value.log10() } else { value };
        p.is_finite().then_some(p)
    }
}

/// The file formats a picture is saved in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    /// The format a file name asks for by its extension.
    pub fn of_path(path: &Path) -> Result<Format> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match extension.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(value_error(format!(
                "a picture is saved as .svg or .png, not '{}'",
                path.display()
            ))),
        }
    }
}

/// The chart as an SVG document.
pub fn svg(chart: &Chart) -> Result<String> {
    draw::svg(chart)
}

/// The chart as a PNG file's bytes.
pub fn png(chart: &Chart) -> Result<Vec<u8>> {
    draw::png(chart)
}

/// An image as a PNG file's bytes.
pub fn image_png(image: &Image) -> Result<Vec<u8>> {
    draw::encode(image)
}

/// Writes the chart to `path`, as SVG or PNG by its extension.
pub fn save(chart: &Chart, path: &Path) -> Result<()> {
    let bytes = match Format::of_path(path)? {
        Format::Svg => svg(chart)?.into_bytes(),
        Format::Png => png(chart)?,
    };
    std::fs::write(path, bytes)
        .map_err(|e| io_error(format!("cannot save '{}': {e}", path.display())))
}

/// A number in at most three significant digits, as a label: `0.5`, `6.28`, `1200`, `1.5e-05`.
pub fn number(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return format!("{}", if value == 0.0 { 0.0 } else { value });
    }
    let exponent = value.abs().log10().floor() as i32;
    if !(-4..6).contains(&exponent) {
        let text = format!("{value:.2e}");
        let (mantissa, power) = text.split_once('e').unwrap_or((&text, "0"));
        let mantissa = trim_zeros(mantissa);
        let power: i32 = power.parse().unwrap_or(0);
        let sign = if power < 0 { "-" } else { "+" };
        return format!("{mantissa}e{sign}{:02}", power.abs());
    }
    let decimals = (2 - exponent).max(0) as usize;
    trim_zeros(&format!("{value:.decimals$}")).to_string()
}

fn trim_zeros(text: &str) -> &str {
    match text.contains('.') {
        true => text.trim_end_matches('0').trim_end_matches('.'),
        false => text,
    }
}

/// Equal bins over the samples' range, as `:bench`'s histogram counts them: the edges and the
/// count of each bin (the largest sample in the last).
pub fn equal_bins(samples: &[f64], bins: usize) -> (Vec<f64>, Vec<usize>) {
    let (lo, hi) = samples
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        });
    let (lo, hi) = match () {
        _ if samples.is_empty() => (0.0, 1.0),
        // Equal samples: one narrow bin from their value.
        _ if hi <= lo => (lo, lo + lo.abs().max(1e-9) * 1e-3),
        _ => (lo, hi),
    };
    let mut counts = vec![0usize; bins];
    for &x in samples {
        let bin = (((x - lo) / (hi - lo)) * bins as f64) as usize;
        counts[bin.min(bins - 1)] += 1;
    }
    let edges = (0..=bins)
        .map(|i| lo + (hi - lo) * i as f64 / bins as f64)
        .collect();
    (edges, counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(4.5678), "4.57");
        assert_eq!(number(1200.0), "1200");
        assert_eq!(number(-3.0), "-3");
        assert_eq!(number(1.5e-5), "1.5e-05");
        assert_eq!(number(2.5e7), "2.5e+07");
        assert_eq!(number(f64::NAN), "NaN");
    }

    #[test]
    fn formats_come_from_the_extension() {
        assert_eq!(Format::of_path(Path::new("a.svg")).ok(), Some(Format::Svg));
        assert_eq!(
            Format::of_path(Path::new("dir/A.PNG")).ok(),
            Some(Format::Png)
        );
        let e = Format::of_path(Path::new("a.jpg")).unwrap_err();
        assert!(e.message.contains(".svg or .png"), "{}", e.message);
        assert!(Format::of_path(Path::new("svg")).is_err());
    }

    #[test]
    fn equal_bins_put_the_largest_sample_in_the_last_bin() {
        let (edges, counts) = equal_bins(&[1.0, 1.0, 1.0, 2.0], 2);
        assert_eq!(edges, vec![1.0, 1.5, 2.0]);
        assert_eq!(counts, vec![3, 1]);
        let (edges, counts) = equal_bins(&[3.0, 3.0], 4);
        assert_eq!(counts, vec![2, 0, 0, 0]);
        assert!(edges.windows(2).all(|w| w[0] < w[1]));
    }
}
