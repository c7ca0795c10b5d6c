//! Charts as text for a terminal: points on a grid of characters (the extreme values on the
//! left, the x axis's ticks below), horizontal bars, an image in shades of grey, and the
//! one-line histogram of `:bench`.

use super::{equal_bins, number, Axis, Chart, Image, Marks, Series};

/// Rows of a points chart's grid.
const ROWS: usize = 8;
/// Columns of a numeric x axis.
const COLUMNS: usize = 64;
/// Columns of each category on a categorical x axis.
const CATEGORY: usize = 8;
/// The narrowest column of y labels.
const LABELS: usize = 9;
/// Characters of the longest bar.
const BAR: usize = 40;
/// What marks a cell where several series meet.
const SEVERAL: char = '*';
/// Marks of series that cannot be told apart by their labels' initials.
const MARKS: [char; 8] = ['o', '+', 'x', '#', '%', '@', '&', '='];

/// The chart as lines of text, each ended by a newline.
pub fn chart(chart: &Chart) -> String {
    let title = chart.title.as_deref();
    match &chart.marks {
        Marks::Xy {
            series,
            lines,
            points,
        } => xy(chart, series, *lines && !*points),
        Marks::Bins { edges, counts } => {
            let last = counts.len().saturating_sub(1);
            let names = (0..counts.len())
                .map(|i| {
                    let close = if i == last { ']' } else { ')' };
                    let (lo, hi) = (chart.x.text(edges[i]), chart.x.text(edges[i + 1]));
                    format!("[{lo}, {hi}{close}")
                })
                .collect();
            bars(title, names, counts)
        }
        Marks::Bars { heights } => {
            let names = chart.x.categories.clone().unwrap_or_default();
            bars(title, names, heights)
        }
        Marks::Image(image) => shades(title, image),
    }
}

/// The first line: the title and the legend, when there are any.
fn heading(title: Option<&str>, legend: Option<String>) -> String {
    match (title, legend) {
        (Some(title), Some(legend)) => format!("{title}: {legend}\n"),
        (Some(text), None) => format!("{text}\n"),
        (None, Some(text)) => format!("{text}\n"),
        (None, None) => String::new(),
    }
}

/// Each series' mark: the initials of their labels when those tell them apart, else symbols.
fn marks(series: &[Series]) -> Vec<char> {
    let initials: Vec<Option<char>> = series
        .iter()
        .map(|s| s.label.as_deref().and_then(|l| l.chars().next()))
        .filter(|c| c.is_some_and(|c| c.is_alphanumeric()))
        .collect();
    let distinct = initials
        .iter()
        .enumerate()
        .all(|(i, c)| !initials[..i].contains(c));
    if initials.len() == series.len() && distinct {
        initials.into_iter().flatten().collect()
    } else if series.len() == 1 {
        vec![SEVERAL]
    } else {
        (0..series.len()).map(|k| MARKS[k % MARKS.len()]).collect()
    }
}

/// `c cpu, g gpu, * both`: what each mark means, when there is more than one unnamed series.
fn legend(series: &[Series], marks: &[char]) -> Option<String> {
    if series.len() < 2 && series.iter().all(|s| s.label.is_none()) {
        return None;
    }
    let mut entries: Vec<String> = series
        .iter()
        .zip(marks)
        .enumerate()
        .map(|(k, (s, mark))| match &s.label {
            Some(label) => format!("{mark} {label}"),
            None => format!("{mark} column {k}"),
        })
        .collect();
    match series.len() {
        0 | 1 => {}
        2 => entries.push(format!("{SEVERAL} both")),
        _ => entries.push(format!("{SEVERAL} several")),
    }
    Some(entries.join(", "))
}

/// Points of each series on a grid; `joined`: the cells between consecutive points of a series
/// marked too (a line chart without markers).
fn xy(chart: &Chart, series: &[Series], joined: bool) -> String {
    let marks = marks(series);
    let mut out = heading(chart.title.as_deref(), legend(series, &marks));
    // Each point where the axes can show it, `None` where a line breaks.
    let positions: Vec<Vec<Option<(f64, f64)>>> = series
        .iter()
        .map(|s| {
            s.x.iter()
                .zip(&s.y)
                .map(|(&x, &y)| chart.x.position(x).zip(chart.y.position(y)))
                .collect()
        })
        .collect();
    let drawn = || positions.iter().flatten().flatten();
    let Some((low, high)) = extremes(drawn().map(|p| p.1)) else {
        out.push_str("(no finite values to draw)\n");
        return out;
    };
    let (x_low, x_high) = extremes(drawn().map(|p| p.0)).unwrap_or((0.0, 0.0));
    let span = (high - low).max(1e-9);
    let level = |y: f64| (((y - low) / span) * (ROWS - 1) as f64).round() as usize;
    let width = match &chart.x.categories {
        Some(names) => names.len() * CATEGORY,
        None => COLUMNS,
    };
    let column = |x: f64| match &chart.x.categories {
        Some(_) => x as usize * CATEGORY + CATEGORY / 2,
        None => {
            (((x - x_low) / (x_high - x_low).max(1e-300)) * (COLUMNS - 1) as f64).round() as usize
        }
    };
    let mut grid = vec![vec![' '; width]; ROWS];
    for (points, &mark) in positions.iter().zip(&marks) {
        let mut put = |x: usize, y: usize| {
            if let Some(cell) = grid.get_mut(y).and_then(|row| row.get_mut(x)) {
                *cell = if *cell == ' ' || *cell == mark {
                    mark
                } else {
                    SEVERAL
                };
            }
        };
        for &(x, y) in points.iter().flatten() {
            put(column(x), level(y));
        }
        if !joined {
            continue;
        }
        for pair in points.windows(2) {
            let [Some(a), Some(b)] = pair else { continue };
            let (from, to) = (column(a.0), column(b.0));
            for c in from.min(to) + 1..from.max(to) {
                let t = (c as f64 - from as f64) / (to as f64 - from as f64);
                put(c, level(a.1 + t * (b.1 - a.1)));
            }
        }
    }
    let top = chart.y.text(unposition(&chart.y, high));
    let bottom = chart.y.text(unposition(&chart.y, low));
    let label_width = LABELS.max(top.chars().count()).max(bottom.chars().count());
    for (k, line) in grid.iter().enumerate().rev() {
        let label = match k {
            k if k == ROWS - 1 => top.as_str(),
            0 => bottom.as_str(),
            _ => "",
        };
        let line: String = line.iter().collect();
        out.push_str(&format!("{label:>label_width$} │{}\n", line.trim_end()));
    }
    let pad = " ".repeat(label_width);
    out.push_str(&format!("{pad} └{}\n", "─".repeat(width)));
    let ticks = match &chart.x.categories {
        Some(names) => names.iter().map(|n| format!("{n:^CATEGORY$}")).collect(),
        None => {
            let left = chart.x.text(unposition(&chart.x, x_low));
            let right = chart.x.text(unposition(&chart.x, x_high));
            let gap = width.saturating_sub(left.chars().count() + right.chars().count());
            format!("{left}{}{right}", " ".repeat(gap.max(1)))
        }
    };
    out.push_str(&format!("{pad}  {ticks}\n"));
    out
}

/// The smallest and largest of some numbers; `None` when there are none.
fn extremes(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |range, v| match range {
        None => Some((v, v)),
        Some((lo, hi)) => Some((v.min(lo), v.max(hi))),
    })
}

/// The value at a position of the axis (undoes its logarithm).
fn unposition(axis: &Axis, position: f64) -> f64 {
    if axis.log {
        10f64.powf(position)
    } else {
        position
    }
}

/// One horizontal bar per name, the longest `BAR` characters, with its value after it.
fn bars(title: Option<&str>, names: Vec<String>, heights: &[f64]) -> String {
    const EIGHTHS: [char; 8] = [' ', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];
    let mut out = heading(title, None);
    let most = heights
        .iter()
        .map(|h| h.abs())
        .filter(|h| h.is_finite())
        .fold(0.0, f64::max);
    let name_width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    for (name, &height) in names.iter().zip(heights) {
        let eighths = match most > 0.0 && height.is_finite() {
            true => (height.abs() / most * (BAR * 8) as f64).round() as usize,
            false => 0,
        };
        let mut bar = "█".repeat(eighths / 8);
        if eighths % 8 > 0 {
            bar.push(EIGHTHS[eighths % 8]);
        }
        out.push_str(&format!("{name:>name_width$} │{bar} {}\n", number(height)));
    }
    out
}

/// The image in shades from black (a space) to white (`@`), at most `COLUMNS` wide; a
/// character is about twice as tall as it is wide, so each stands for two pixels' height.
fn shades(title: Option<&str>, image: &Image) -> String {
    const RAMP: &[u8] = b" .:-=+*#%@";
    let mut out = heading(title, None);
    let columns = image.width.min(COLUMNS);
    let scale = image.width as f64 / columns as f64;
    let rows = ((image.height as f64 / scale / 2.0).round() as usize).max(1);
    let luminance = |x: usize, y: usize| {
        let p = &image.rgb[3 * (y * image.width + x)..][..3];
        (0.299 * p[0] as f64 + 0.587 * p[1] as f64 + 0.114 * p[2] as f64) / 255.0
    };
    let block = |i: usize, n: usize, size: usize| {
        let start = i * size / n;
        start..((i + 1) * size / n).max(start + 1)
    };
    for r in 0..rows {
        let ys = block(r, rows, image.height);
        let line: String = (0..columns)
            .map(|c| {
                let xs = block(c, columns, image.width);
                let cells = (ys.len() * xs.len()) as f64;
                let sum: f64 = ys
                    .clone()
                    .flat_map(|y| xs.clone().map(move |x| (x, y)))
                    .map(|(x, y)| luminance(x, y))
                    .sum();
                let shade = ((sum / cells) * (RAMP.len() - 1) as f64).round() as usize;
                RAMP[shade.min(RAMP.len() - 1)] as char
            })
            .collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A one-line histogram of `samples` in eight heights (`:bench`'s).
pub fn histogram_line(samples: &[f64], bins: usize) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let (lo, hi) = extremes(samples.iter().copied()).unwrap_or((0.0, 0.0));
    if hi <= lo {
        return BARS[7].to_string();
    }
    let (_, counts) = equal_bins(samples, bins);
    let most = counts.iter().copied().max().unwrap_or(1).max(1);
    counts
        .iter()
        .map(|&c| match c {
            0 => ' ',
            c => BARS[((c * 7) / most).min(7)],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(label: Option<&str>, y: &[f64]) -> Series {
        Series {
            label: label.map(str::to_string),
            x: (0..y.len()).map(|i| i as f64).collect(),
            y: y.to_vec(),
        }
    }

    #[test]
    fn a_line_is_joined_between_its_points() {
        let c = Chart {
            title: Some("rise".into()),
            x: Axis::default(),
            y: Axis::default(),
            marks: Marks::Xy {
                series: vec![series(None, &[0.0, 7.0])],
                lines: true,
                points: false,
            },
        };
        let text = chart(&c);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "rise");
        // Each of the 8 levels holds the columns whose value rounds to it.
        assert_eq!(lines[1], format!("        7 │{}*****", " ".repeat(59)));
        assert_eq!(lines[8], "        0 │*****");
        assert_eq!(lines.len(), 11);
        assert!(lines[10].trim_start().starts_with('0') && lines[10].ends_with('1'));
        // Every column has its mark.
        assert_eq!(text.matches('*').count(), COLUMNS);
    }

    #[test]
    fn series_are_told_apart_by_their_initials() {
        let two = [series(Some("cpu"), &[1.0]), series(Some("gpu"), &[2.0])];
        assert_eq!(marks(&two), vec!['c', 'g']);
        assert_eq!(
            legend(&two, &marks(&two)).as_deref(),
            Some("c cpu, g gpu, * both")
        );
        let same = [series(Some("a"), &[1.0]), series(Some("ab"), &[2.0])];
        assert_eq!(marks(&same), vec!['o', '+']);
        let unnamed = [series(None, &[1.0])];
        assert_eq!(marks(&unnamed), vec!['*']);
        assert_eq!(legend(&unnamed, &['*']), None);
    }

    #[test]
    fn bars_and_bins_scale_to_the_longest() {
        let c = Chart {
            title: None,
            x: Axis::default(),
            y: Axis::default(),
            marks: Marks::Bins {
                edges: vec![0.0, 0.5, 1.0],
                counts: vec![4.0, 1.0],
            },
        };
        assert_eq!(
            chart(&c),
            format!(
                "[0, 0.5) │{} 4\n[0.5, 1] │{} 1\n",
                "█".repeat(40),
                "█".repeat(10)
            )
        );
    }

    #[test]
    fn images_shade_from_black_to_white() {
        let image = Image {
            width: 2,
            height: 2,
            rgb: vec![0, 0, 0, 255, 255, 255, 0, 0, 0, 255, 255, 255],
        };
        assert_eq!(shades(None, &image), " @\n");
    }

    #[test]
    fn the_histogram_line_has_eight_heights() {
        assert_eq!(histogram_line(&[1.0, 1.0, 1.0, 2.0], 2), "█▃");
        assert_eq!(histogram_line(&[], 4), "█");
        assert_eq!(histogram_line(&[2.0, 2.0], 4), "█");
    }
}
