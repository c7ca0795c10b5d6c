//! Charts drawn by plotters: one drawing on the SVG backend (text) and on the bitmap backend
//! (pixels, encoded as PNG). Scales and ticks are chosen here (linear ticks at 1, 2 or 5 times
//! a power of ten, log axes in whole decades); images are put by hand into the plotting area
//! plotters leaves — embedded as a PNG in the SVG, copied into the bitmap's pixels.

use std::error::Error;
use std::ops::Range;
use std::sync::OnceLock;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{number, Axis, Chart, Image, Marks, Series, HEIGHT, WIDTH};
use crate::error::{value_error, Result};

const FONT: &str = "sans-serif";
/// matplotlib's ten colours (`tab10`), one per series.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
    RGBColor(0xe3, 0x77, 0xc2),
    RGBColor(0x7f, 0x7f, 0x7f),
    RGBColor(0xbc, 0xbd, 0x22),
    RGBColor(0x17, 0xbe, 0xcf),
];
const MARGIN: u32 = 16;
/// The heights of the x axis's tick labels and the widths of the y axis's, in pixels.
const X_LABELS: u32 = 30;
const Y_LABELS: u32 = 56;
/// Room for an axis's name beside its tick labels.
const AXIS_NAME: u32 = 22;
/// At most this many ticks on an axis.
const TICKS: usize = 12;

pub fn svg(chart: &Chart) -> Result<String> {
    let frame = Frame::of(chart);
    let margins = image_margins(chart, &frame)?;
    let mut text = String::new();
    let area = paint(
        chart,
        &frame,
        &SVGBackend::with_string(&mut text, (WIDTH, HEIGHT)).into_drawing_area(),
        margins,
    )
    .map_err(failed)?;
    if let Marks::Image(image) = &chart.marks {
        let (width, height) = (area.0.len().max(1), area.1.len().max(1));
        let embedded = match image.width > width || image.height > height {
            true => encode(&resampled(image, width, height))?,
            false => encode(image)?,
        };
        let element = format!(
            "<image x=\"{}\" y=\"{}\" width=\"{width}\" height=\"{height}\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" href=\"data:image/png;base64,{}\"/>\n",
            area.0.start,
            area.1.start,
            data_encoding::BASE64.encode(&embedded)
        );
        let end = text.rfind("</svg>").unwrap_or(text.len());
        text.insert_str(end, &element);
    }
    Ok(text)
}

pub fn png(chart: &Chart) -> Result<Vec<u8>> {
    let frame = Frame::of(chart);
    let margins = image_margins(chart, &frame)?;
    let (width, height) = (WIDTH as usize, HEIGHT as usize);
    let mut rgb = vec![0u8; width * height * 3];
    let area = paint(
        chart,
        &frame,
        &BitMapBackend::with_buffer(&mut rgb, (WIDTH, HEIGHT)).into_drawing_area(),
        margins,
    )
    .map_err(failed)?;
    if let Marks::Image(image) = &chart.marks {
        let (left, top) = (area.0.start.max(0) as usize, area.1.start.max(0) as usize);
        let w = area.0.len().min(width.saturating_sub(left));
        let h = area.1.len().min(height.saturating_sub(top));
        if w > 0 && h > 0 {
            let scaled = resampled(image, w, h);
            for (row, pixels) in scaled.rgb.chunks(3 * w).enumerate() {
                let start = 3 * ((top + row) * width + left);
                rgb[start..start + pixels.len()].copy_from_slice(pixels);
            }
        }
    }
    encode(&Image { width, height, rgb })
}

fn failed(e: Box<dyn Error>) -> crate::error::Error {
    value_error(format!("cannot draw the chart: {e}"))
}

/// Room around the plotting area, beyond the fixed margins, in pixels.
#[derive(Clone, Copy, Default)]
struct Margins {
    left: u32,
    right: u32,
    top: u32,
    bottom: u32,
}

/// An image keeps its pixels square: the margins that shrink the plotting area to its shape
/// (found by drawing the frame once without them).
fn image_margins(chart: &Chart, frame: &Frame) -> Result<Margins> {
    let Marks::Image(image) = &chart.marks else {
        return Ok(Margins::default());
    };
    let mut scratch = String::new();
    let (xs, ys) = paint(
        chart,
        frame,
        &SVGBackend::with_string(&mut scratch, (WIDTH, HEIGHT)).into_drawing_area(),
        Margins::default(),
    )
    .map_err(failed)?;
    let (w, h) = (xs.len() as f64, ys.len() as f64);
    let scale = (w / image.width as f64).min(h / image.height as f64);
    // At least one pixel of each side stays (an image a pixel high and thousands wide).
    let spare =
        |room: f64, used: f64| ((room - used).max(0.0) as u32).min((room as u32).saturating_sub(1));
    let spare_x = spare(w, image.width as f64 * scale);
    let spare_y = spare(h, image.height as f64 * scale);
    Ok(Margins {
        left: spare_x / 2,
        right: spare_x - spare_x / 2,
        top: spare_y / 2,
        bottom: spare_y - spare_y / 2,
    })
}

fn register_font() -> std::result::Result<(), Box<dyn Error>> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let registered = REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok()
    });
    match registered {
        true => Ok(()),
        false => Err("the embedded font (DejaVu Sans) cannot be read".into()),
    }
}

/// Draws the chart (all but an image's pixels) and returns the plotting area's pixels.
fn paint<DB: DrawingBackend>(
    chart: &Chart,
    frame: &Frame,
    root: &DrawingArea<DB, Shift>,
    margins: Margins,
) -> std::result::Result<(Range<i32>, Range<i32>), Box<dyn Error>>
where
    DB::ErrorType: 'static,
{
    register_font()?;
    root.fill(&WHITE)?;
    let mut builder = ChartBuilder::on(root);
    builder
        .margin_left(MARGIN + margins.left)
        .margin_right(MARGIN + margins.right)
        .margin_top(MARGIN + margins.top)
        .margin_bottom(MARGIN + margins.bottom)
        .x_label_area_size(X_LABELS + chart.x.name.as_ref().map_or(0, |_| AXIS_NAME))
        .y_label_area_size(Y_LABELS + chart.y.name.as_ref().map_or(0, |_| AXIS_NAME));
    if let Some(title) = &chart.title {
        builder.caption(title, (FONT, 22));
    }
    let mut plot = builder.build_cartesian_2d(frame.x.clone(), frame.y.clone())?;
    let x_label = |v: &f64| frame.x.label(*v);
    let y_label = |v: &f64| frame.y.label(*v);
    let mut mesh = plot.configure_mesh();
    mesh.x_label_formatter(&x_label)
        .y_label_formatter(&y_label)
        .x_labels(TICKS)
        .y_labels(TICKS)
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 16))
        .bold_line_style(BLACK.mix(0.08))
        .light_line_style(TRANSPARENT)
        .axis_style(BLACK.mix(0.8));
    if let Some(name) = &chart.x.name {
        mesh.x_desc(name);
    }
    if let Some(name) = &chart.y.name {
        mesh.y_desc(name);
    }
    if matches!(chart.marks, Marks::Image(_)) {
        mesh.disable_mesh();
    }
    mesh.draw()?;
    match &chart.marks {
        Marks::Xy {
            series,
            lines,
            points,
        } => {
            let mut legend = false;
            let corner = legend_corner(series.iter().flat_map(|s| runs(chart, s)).flatten());
            for (k, s) in series.iter().enumerate() {
                let color = PALETTE[k % PALETTE.len()];
                let runs = runs(chart, s);
                let label = s.label.clone().unwrap_or_default();
                // A series with nothing to draw (`:sweep` without a gpu) stays out of the legend.
                let labelled = s.label.is_some() && runs.iter().any(|r| !r.is_empty());
                legend |= labelled;
                if *lines {
                    let line =
                        |points: Vec<(f64, f64)>| PathElement::new(points, color.stroke_width(2));
                    let drawn = plot.draw_series(
                        runs.iter().filter(|r| r.len() > 1).map(|r| line(r.clone())),
                    )?;
                    if labelled {
                        drawn.label(label.clone()).legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                        });
                    }
                }
                if *points {
                    let drawn = plot.draw_series(
                        runs.iter()
                            .flatten()
                            .map(|&p| Circle::new(p, 3, color.filled())),
                    )?;
                    if labelled && !*lines {
                        drawn
                            .label(label)
                            .legend(move |(x, y)| Circle::new((x + 10, y), 3, color.filled()));
                    }
                }
            }
            if legend {
                plot.configure_series_labels()
                    .position(corner)
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK.mix(0.3))
                    .label_font((FONT, 15))
                    .draw()?;
            }
        }
        Marks::Bins { edges, counts } => {
            let bar = |(i, &count): (usize, &f64)| {
                Rectangle::new(
                    [(edges[i], 0.0), (edges[i + 1], count)],
                    PALETTE[0].filled(),
                )
            };
            plot.draw_series(counts.iter().enumerate().map(bar))?;
        }
        Marks::Bars { heights } => {
            let bar = |(i, &height): (usize, &f64)| {
                let x = i as f64;
                Rectangle::new([(x - 0.4, 0.0), (x + 0.4, height)], PALETTE[0].filled())
            };
            plot.draw_series(heights.iter().enumerate().map(bar))?;
        }
        Marks::Image(_) => {}
    }
    let area = plot.plotting_area().get_pixel_range();
    root.present()?;
    Ok(area)
}

/// A series' points where the axes can show them, in runs between the points they cannot.
fn runs(chart: &Chart, series: &Series) -> Vec<Vec<(f64, f64)>> {
    let mut runs = vec![Vec::new()];
    for (&x, &y) in series.x.iter().zip(&series.y) {
        match chart.x.position(x).zip(chart.y.position(y)) {
            Some(p) => runs.last_mut().expect("one run at least").push(p),
            None if runs.last().is_some_and(|r| !r.is_empty()) => runs.push(Vec::new()),
            None => {}
        }
    }
    runs
}

/// The two scales of a chart.
struct Frame {
    x: Scale,
    y: Scale,
}

/// How a scale's range covers its data.
#[derive(Clone, Copy, PartialEq)]
enum Cover {
    /// 5% more on each side (matplotlib's margins).
    Padded,
    /// From zero (bars), 5% more on the other side.
    FromZero,
    /// Just the data.
    Exact,
    /// An image's pixels: just them, whole numbers as ticks.
    Pixels,
}

impl Frame {
    fn of(chart: &Chart) -> Frame {
        match &chart.marks {
            Marks::Xy { series, .. } => {
                let on = |axis: &Axis, values: &dyn Fn(&Series) -> &[f64]| {
                    let all = series.iter().flat_map(|s| values(s).iter());
                    extremes(all.filter_map(|&v| axis.position(v)))
                };
                Frame {
                    x: Scale::of(&chart.x, on(&chart.x, &|s| &s.x), Cover::Padded),
                    y: Scale::of(&chart.y, on(&chart.y, &|s| &s.y), Cover::Padded),
                }
            }
            Marks::Bins { edges, counts } => Frame {
                x: Scale::of(&chart.x, extremes(edges.iter().copied()), Cover::Exact),
                y: Scale::of(&chart.y, extremes(counts.iter().copied()), Cover::FromZero),
            },
            Marks::Bars { heights } => Frame {
                x: Scale::of(&chart.x, None, Cover::Exact),
                y: Scale::of(&chart.y, extremes(heights.iter().copied()), Cover::FromZero),
            },
            Marks::Image(image) => {
                let pixels = |n: usize| Some((-0.5, n as f64 - 0.5));
                let mut y = Scale::of(&chart.y, pixels(image.height), Cover::Pixels);
                y.reversed = true;
                Frame {
                    x: Scale::of(&chart.x, pixels(image.width), Cover::Pixels),
                    y,
                }
            }
        }
    }
}

fn extremes(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values
        .filter(|v| v.is_finite())
        .fold(None, |range, v| match range {
            None => Some((v, v)),
            Some((lo, hi)) => Some((v.min(lo), v.max(hi))),
        })
}

/// A linear map of positions to pixels with the ticks chosen here (plotters' own scales
/// choose theirs); a log axis's positions are the values' logarithms.
#[derive(Clone)]
struct Scale {
    low: f64,
    high: f64,
    /// Values grow downwards (an image's rows).
    reversed: bool,
    ticks: Vec<f64>,
    labels: Labels,
}

#[derive(Clone)]
enum Labels {
    Categories(Vec<String>),
    /// Powers of ten, `10⁻³` unless the axis has its format.
    Powers(Option<fn(f64) -> String>),
    /// Numbers with as many decimals as the ticks' step needs.
    Numbers {
        decimals: Option<usize>,
        format: Option<fn(f64) -> String>,
    },
}

impl Scale {
    fn of(axis: &Axis, data: Option<(f64, f64)>, cover: Cover) -> Scale {
        if let Some(names) = &axis.categories {
            let every = names.len().div_ceil(TICKS).max(1);
            return Scale {
                low: -0.5,
                high: names.len().max(1) as f64 - 0.5,
                reversed: false,
                ticks: (0..names.len()).step_by(every).map(|i| i as f64).collect(),
                labels: Labels::Categories(names.clone()),
            };
        }
        let (mut low, mut high) = data.unwrap_or((0.0, 1.0));
        if axis.log {
            let (mut low, mut high) = (low.floor(), high.ceil());
            if low == high {
                low -= 1.0;
                high += 1.0;
            }
            let every = ((high - low) as usize).div_ceil(TICKS - 2).max(1);
            return Scale {
                low,
                high,
                reversed: false,
                ticks: (low as i64..=high as i64)
                    .step_by(every)
                    .map(|k| k as f64)
                    .collect(),
                labels: Labels::Powers(axis.format),
            };
        }
        if cover == Cover::FromZero {
            (low, high) = (low.min(0.0), high.max(0.0));
        }
        if low == high {
            let half = (0.05 * low.abs()).max(0.5);
            (low, high) = (low - half, high + half);
        }
        let pad = 0.05 * (high - low);
        match cover {
            Cover::Padded => (low, high) = (low - pad, high + pad),
            Cover::FromZero => {
                low -= if low < 0.0 { pad } else { 0.0 };
                high += if high > 0.0 { pad } else { 0.0 };
            }
            Cover::Exact | Cover::Pixels => {}
        }
        let step = match cover {
            Cover::Pixels => nice_step((high - low) / 6.0).max(1.0),
            _ => nice_step((high - low) / 6.0),
        };
        // About six ticks; none where the range is beyond what f64 steps can count.
        let ticks = match (high - low) / step {
            count if count.is_finite() && count < (4 * TICKS) as f64 => ((low / step).ceil() as i64
                ..=(high / step).floor() as i64)
                .map(|k| k as f64 * step)
                .collect(),
            _ => Vec::new(),
        };
        let decimals = (1e-4..1e5)
            .contains(&step)
            .then(|| (-step.log10().floor()).max(0.0) as usize);
        Scale {
            low,
            high,
            reversed: false,
            ticks,
            labels: Labels::Numbers {
                decimals,
                format: axis.format,
            },
        }
    }

    fn label(&self, position: f64) -> String {
        match &self.labels {
            Labels::Categories(names) => names
                .get(position.round().max(0.0) as usize)
                .cloned()
                .unwrap_or_default(),
            Labels::Powers(Some(format)) => format(10f64.powf(position)),
            Labels::Powers(None) => format!("10{}", superscript(position.round() as i64)),
            Labels::Numbers {
                format: Some(format),
                ..
            } => format(position),
            Labels::Numbers {
                decimals: Some(decimals),
                ..
            } => format!("{position:.decimals$}"),
            Labels::Numbers { decimals: None, .. } => number(position),
        }
    }
}

impl Ranged for Scale {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let mut t = (value - self.low) / (self.high - self.low);
        if self.reversed {
            t = 1.0 - t;
        }
        limit.0 + (t * (limit.1 - limit.0) as f64).round() as i32
    }

    fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        match hint.weight().allow_light_points() {
            true => Vec::new(),
            false => self.ticks.clone(),
        }
    }

    fn range(&self) -> Range<f64> {
        self.low..self.high
    }
}

/// 1, 2 or 5 times a power of ten, near `rough`.
fn nice_step(rough: f64) -> f64 {
    let power = 10f64.powf(rough.log10().floor());
    let nice = match rough / power {
        f if f < 1.5 => 1.0,
        f if f < 3.0 => 2.0,
        f if f < 7.0 => 5.0,
        _ => 10.0,
    };
    nice * power
}

/// `-3` as `⁻³`.
fn superscript(n: i64) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string()
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) => DIGITS[d as usize],
            None => '⁻',
        })
        .collect()
}

/// The image resized to `width` × `height` pixels, each taken from the nearest source pixel.
fn resampled(image: &Image, width: usize, height: usize) -> Image {
    let mut rgb = Vec::with_capacity(width * height * 3);
    for y in 0..height {
        let source_y = y * image.height / height.max(1);
        for x in 0..width {
            let source_x = x * image.width / width.max(1);
            let at = 3 * (source_y * image.width + source_x);
            rgb.extend_from_slice(&image.rgb[at..at + 3]);
        }
    }
    Image { width, height, rgb }
}

/// An image as PNG bytes.
pub fn encode(image: &Image) -> Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let fail = |e: png::EncodingError| value_error(format!("cannot encode the PNG: {e}"));
    let mut encoder = png::Encoder::new(&mut bytes, image.width as u32, image.height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(&image.rgb).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(bytes)
}

/// The upper corner with fewer points under it (rising curves leave the upper left free).
fn legend_corner(points: impl Iterator<Item = (f64, f64)>) -> SeriesLabelPosition {
    let points: Vec<(f64, f64)> = points.collect();
    let middle = |values: Vec<f64>| {
        let (low, high) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &v| {
                (l.min(v), h.max(v))
            });
        (low + high) / 2.0
    };
    let mid_x = middle(points.iter().map(|p| p.0).collect());
    let mid_y = middle(points.iter().map(|p| p.1).collect());
    let upper = |right: bool| {
        points
            .iter()
            .filter(|&&(x, y)| y > mid_y && (x > mid_x) == right)
            .count()
    };
    if upper(true) > upper(false) {
        SeriesLabelPosition::UpperLeft
    } else {
        SeriesLabelPosition::UpperRight
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_numbers() {
        assert_eq!(nice_step(0.17), 0.2);
        assert_eq!(nice_step(4.0), 5.0);
        assert_eq!(nice_step(80.0), 100.0);
        let scale = Scale::of(&Axis::default(), Some((0.0, 1.0)), Cover::Padded);
        let labels: Vec<String> = scale.ticks.iter().map(|&t| scale.label(t)).collect();
        assert_eq!(labels, ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"]);
        let log = Scale::of(&Axis::log(true), Some((-2.5, 1.2)), Cover::Padded);
        let labels: Vec<String> = log.ticks.iter().map(|&t| log.label(t)).collect();
        assert_eq!(labels, ["10⁻³", "10⁻²", "10⁻¹", "10⁰", "10¹", "10²"]);
    }
}
