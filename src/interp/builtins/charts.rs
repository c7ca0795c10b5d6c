//! Pictures, with matplotlib's names and rules: `plot`, `scatter`, `hist`, `bar`, `imshow`.
//! Their arrays are read to the host once; the chart (`crate::picture`) goes to `file=` (SVG or
//! PNG), else to the front end as an image, else to the terminal as a text chart.

use std::path::PathBuf;

use super::{array_arg_on, builtin, flag_arg, Args, Builtin};
use crate::array::{histogram, Array};
use crate::base::layout::shape_text;
use crate::device::Device;
use crate::error::{type_error, value_error, Result};
use crate::interp::display::{self, Shown};
use crate::interp::value::Value;
use crate::interp::Interpreter;
use crate::picture::{self, Axis, Chart, Image, Marks, Series};

pub fn builtins() -> Vec<Builtin> {
    vec![
        builtin!(
            "plot",
            ["x", "y=", "label=", "title=", "logx=", "logy=", "file="],
            "Lines through the points (x, y); plot(y) draws y against 0, 1, 2 …, a 2-d y one line per column (label= a str, or a list with one per line). A text chart in a terminal, an image in a notebook; file=\"NAME.svg\" or \"NAME.png\" saves it instead.",
            "plot(linspace(0, 1, 20) ** 2, title=\"squares\")",
            plot
        ),
        builtin!(
            "scatter",
            ["x", "y", "label=", "title=", "logx=", "logy=", "file="],
            "A mark at each point (x, y) of two arrays of one size; shown or saved as plot's.",
            "scatter([1, 2, 3, 4], [1, 4, 9, 16], logy=true)",
            scatter
        ),
        builtin!(
            "hist",
            ["x", "bins=", "range=", "title=", "file="],
            "A histogram of x's values with histogram's bins (10 equal ones over the data's range by default, a count, or edges); shown or saved as plot's.",
            "hist(randn(1000), bins=20)",
            hist
        ),
        builtin!(
            "bar",
            ["heights", "labels=", "title=", "file="],
            "One bar per height, named by labels (0, 1, 2 … by default); shown or saved as plot's.",
            "bar([3, 5, 2], labels=[\"cpu\", \"gpu\", \"disk\"])",
            bar
        ),
        builtin!(
            "imshow",
            ["img", "title=", "file="],
            "An image: a 2-d array as grey levels (its smallest value black, its largest white, NaN white), an (H, W, 3) array as colours (floats in [0, 1], integers in [0, 255]; (H, W, 4) over white); shown or saved as plot's.",
            "imshow(outer(arange(16), arange(16)), title=\"products\")",
            imshow
        ),
    ]
}

fn plot(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let file = file_arg(&args, 6)?;
    let first = host_array(interp, args.required(0))?;
    let (x, y) = match args.get(1) {
        Some(y) => (Some(first), host_array(interp, y)?),
        None => (None, first),
    };
    let mut series = columns(x.as_ref(), &y)?;
    let labels = labels_arg(&args, 2, series.len())?;
    for (s, label) in series.iter_mut().zip(labels) {
        s.label = label;
    }
    let chart = xy_chart(&args, series, true)?;
    show(interp, &chart, file)
}

fn scatter(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let file = file_arg(&args, 6)?;
    let x = host_array(interp, args.required(0))?;
    let y = host_array(interp, args.required(1))?;
    if x.size() != y.size() {
        return Err(value_error("x and y must be the same size"));
    }
    let series = Series {
        label: labels_arg(&args, 2, 1)?.pop().flatten(),
        x: x.to_vec::<f64>()?,
        y: y.to_vec::<f64>()?,
    };
    let chart = xy_chart(&args, vec![series], false)?;
    show(interp, &chart, file)
}

/// Lines (`plot`) or points (`scatter`) of `series`, with the `title=`, `logx=` and `logy=`
/// both take in the same places.
fn xy_chart(args: &Args, series: Vec<Series>, lines: bool) -> Result<Chart> {
    Ok(Chart {
        title: text_arg(args, 3)?,
        x: Axis::log(flag_arg(args, 4, false)?),
        y: Axis::log(flag_arg(args, 5, false)?),
        marks: Marks::Xy {
            series,
            lines,
            points: !lines,
        },
    })
}

fn hist(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let file = file_arg(&args, 4)?;
    let x = host_array(interp, args.required(0))?;
    let bins = match super::statistics::bins_arg(interp, &args)? {
        histogram::Bins::Edges(edges) => histogram::Bins::Edges(edges.to_device(Device::Cpu)?),
        count => count,
    };
    let (counts, edges) = histogram::histogram(&x, &bins, None, false)?;
    let chart = Chart {
        title: text_arg(&args, 3)?,
        x: Axis::default(),
        y: Axis {
            name: Some("count".to_string()),
            ..Axis::default()
        },
        marks: Marks::Bins {
            edges: edges.to_vec::<f64>()?,
            counts: counts.to_vec::<f64>()?,
        },
    };
    show(interp, &chart, file)
}

fn bar(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let file = file_arg(&args, 3)?;
    let heights = host_array(interp, args.required(0))?;
    if heights.ndim() > 1 {
        return Err(value_error(format!(
            "bar takes a 1-d array of heights, not one of shape {}",
            shape_text(heights.shape())
        )));
    }
    let heights = heights.to_vec::<f64>()?;
    let names = match args.get(1) {
        None => (0..heights.len()).map(|i| i.to_string()).collect(),
        Some(Value::List(items) | Value::Tuple(items)) => items
            .iter()
            .map(Value::to_display)
            .collect::<Result<Vec<_>>>()?,
        Some(other) => {
            return Err(type_error(format!(
                "labels must be a list, not {}",
                other.a_kind()
            )))
        }
    };
    if names.len() != heights.len() {
        return Err(value_error(format!(
            "bar has {} heights but {} labels",
            heights.len(),
            names.len()
        )));
    }
    let chart = Chart {
        title: text_arg(&args, 2)?,
        x: Axis::categories(names),
        y: Axis::default(),
        marks: Marks::Bars { heights },
    };
    show(interp, &chart, file)
}

fn imshow(interp: &mut Interpreter, args: Args) -> Result<Value> {
    let file = file_arg(&args, 2)?;
    let img = host_array(interp, args.required(0))?;
    let chart = Chart {
        title: text_arg(&args, 1)?,
        x: Axis::default(),
        y: Axis::default(),
        marks: Marks::Image(image(&img)?),
    };
    show(interp, &chart, file)
}

/// The pixels of an image array, as matplotlib reads one.
fn image(img: &Array) -> Result<Image> {
    let (height, width, channels) = match *img.shape() {
        [h, w] => (h, w, 1),
        [h, w, c @ (3 | 4)] => (h, w, c),
        _ => {
            return Err(value_error(format!(
                "Invalid shape {} for image data",
                shape_text(img.shape())
            )))
        }
    };
    if img.size() == 0 {
        return Err(value_error(format!(
            "an image needs at least one pixel, not shape {}",
            shape_text(img.shape())
        )));
    }
    let values = img.to_vec::<f64>()?;
    let rgb = match channels {
        1 => grey_levels(&values),
        _ => {
            // Floats (and bools) are fractions of full intensity, integers are 0 … 255.
            let full = if img.dtype().is_integer() { 255.0 } else { 1.0 };
            let level = |v: f64| (v / full).clamp(0.0, 1.0);
            values
                .chunks(channels)
                .flat_map(|p| {
                    let alpha = p.get(3).map_or(1.0, |&a| level(a));
                    let over_white = move |c: f64| level(c) * alpha + (1.0 - alpha);
                    [p[0], p[1], p[2]].map(|c| (over_white(c) * 255.0).round() as u8)
                })
                .collect()
        }
    };
    Ok(Image { width, height, rgb })
}

/// Values from black (the smallest) to white (the largest); NaN white, as matplotlib shows a
/// missing value over a white figure.
fn grey_levels(values: &[f64]) -> Vec<u8> {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let (low, high) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let span = high - low;
    values
        .iter()
        .flat_map(|&v| {
            let level = if v.is_nan() {
                1.0
            } else if span > 0.0 {
                ((v - low) / span).clamp(0.0, 1.0)
            } else {
                0.0
            };
            [(level * 255.0).round() as u8; 3]
        })
        .collect()
}

/// The series of `plot`: matplotlib's pairs of columns of x and y (1-d arrays are one column;
/// without x, y is drawn against 0, 1, 2 …).
fn columns(x: Option<&Array>, y: &Array) -> Result<Vec<Series>> {
    let shape = |a: &Array| match a.shape() {
        [] => vec![1],
        s => s.to_vec(),
    };
    let y_shape = shape(y);
    let x_shape = x.map_or_else(|| vec![y_shape[0]], shape);
    let both = || format!("{} and {}", shape_text(&x_shape), shape_text(&y_shape));
    if x_shape[0] != y_shape[0] {
        return Err(value_error(format!(
            "x and y must have same first dimension, but have shapes {}",
            both()
        )));
    }
    if x_shape.len() > 2 || y_shape.len() > 2 {
        return Err(value_error(format!(
            "x and y can be no greater than 2D, but have shapes {}",
            both()
        )));
    }
    let (rows, x_columns, y_columns) = (y_shape[0], x_shape.get(1), y_shape.get(1));
    let (x_columns, y_columns) = (*x_columns.unwrap_or(&1), *y_columns.unwrap_or(&1));
    if x_columns != y_columns && x_columns != 1 && y_columns != 1 {
        return Err(value_error(format!(
            "x has {x_columns} columns but y has {y_columns} columns"
        )));
    }
    let x_values = match x {
        Some(x) => x.to_vec::<f64>()?,
        None => (0..rows).map(|i| i as f64).collect(),
    };
    let y_values = y.to_vec::<f64>()?;
    let column = |values: &[f64], columns: usize, k: usize| -> Vec<f64> {
        let k = if columns == 1 { 0 } else { k };
        (0..rows).map(|r| values[r * columns + k]).collect()
    };
    // No series at all when either has no columns.
    let series = match x_columns.min(y_columns) {
        0 => 0,
        _ => x_columns.max(y_columns),
    };
    Ok((0..series)
        .map(|k| Series {
            label: None,
            x: column(&x_values, x_columns, k),
            y: column(&y_values, y_columns, k),
        })
        .collect())
}

/// A chart's input on the host (a gpu array is read back once, a counted transfer); complex
/// values are refused rather than drawn by their real part.
fn host_array(interp: &mut Interpreter, v: &Value) -> Result<Array> {
    let a = array_arg_on(interp, v, false)?.to_device(Device::Cpu)?;
    if a.dtype().is_complex() {
        return Err(type_error(format!(
            "cannot draw {} values: take .real, .imag or abs() first",
            a.dtype()
        )));
    }
    Ok(a)
}

/// `label=`: a str (every series's) or a list with one per series.
fn labels_arg(args: &Args, i: usize, series: usize) -> Result<Vec<Option<String>>> {
    match args.get(i) {
        None => Ok(vec![None; series]),
        Some(Value::List(items) | Value::Tuple(items)) => {
            if items.len() != series {
                return Err(value_error(format!(
                    "label must be scalar or have the same length as the input data, but found {} for {series} datasets.",
                    items.len()
                )));
            }
            items.iter().map(|v| v.to_display().map(Some)).collect()
        }
        Some(one) => Ok(vec![Some(one.to_display()?); series]),
    }
}

/// A text keyword (`title=`), any value written as `print` writes it.
fn text_arg(args: &Args, i: usize) -> Result<Option<String>> {
    args.get(i).map(Value::to_display).transpose()
}

/// `file=`: a path whose extension names a format picture can save (checked before any work).
fn file_arg(args: &Args, i: usize) -> Result<Option<PathBuf>> {
    let Some(v) = args.get(i) else {
        return Ok(None);
    };
    let path = super::host::path_arg(v)?;
    picture::Format::of_path(&path)?;
    Ok(Some(path))
}

/// Where a chart goes: its file, else the front end (with its pictures), else the terminal.
fn show(interp: &mut Interpreter, chart: &Chart, file: Option<PathBuf>) -> Result<Value> {
    match file {
        Some(path) => picture::save(chart, &path)?,
        None => {
            let text = picture::text::chart(chart);
            let rich = display::with_pictures(text, Some(chart), interp.has_frontend())?;
            interp.show(Shown::Output, rich);
        }
    }
    Ok(Value::None)
}
