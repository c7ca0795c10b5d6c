//! Charts through the real binary: the structure of the SVGs that `file=` writes (a white
//! background, axes with ticks and labels, one mark per series or bar, the title, the legend,
//! powers of ten on log axes, an image's square pixels and colours), PNGs of the picture's size,
//! `:sweep`'s saved chart, gpu arrays read back once, and — in process — what a front end
//! receives. The terminal's text charts are the golden script `tests/scripts/charts_text.arr`;
//! the error cases are rows of `tests/errors.rs`.

mod common;

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use arrsh::interp::display::{Frontend, Rich, Shown};
use arrsh::interp::Interpreter;

/// matplotlib's first three colours, as the SVG writes them.
const BLUE: &str = "#1F77B4";
const ORANGE: &str = "#FF7F0E";
const GREEN: &str = "#2CA02C";

/// Runs `code` in a fresh directory of its own (named after `test`), which it returns.
fn run(test: &str, code: &str) -> std::path::PathBuf {
    let dir = common::work_dir("charts", test);
    let out = common::run_code(code, &dir);
    assert!(
        out.status.success(),
        "{code}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty(), "file= prints nothing");
    dir
}

/// An SVG, read by string search.
struct Svg(String);

impl Svg {
    fn read(path: &Path) -> Svg {
        Svg(std::fs::read_to_string(path).unwrap())
    }

    /// The tags (`<polyline … />`) of one element, attributes and all.
    fn tags(&self, element: &str) -> Vec<&str> {
        let open = format!("<{element} ");
        self.0
            .match_indices(&open)
            .map(|(at, _)| {
                let tag = &self.0[at..];
                &tag[..tag.find('>').unwrap() + 1]
            })
            .collect()
    }

    /// How many of an element's tags have `attribute` (`fill="#1F77B4"`).
    fn count(&self, element: &str, attribute: &str) -> usize {
        self.tags(element)
            .iter()
            .filter(|t| t.contains(attribute))
            .count()
    }

    /// The text of every `<text>` element, in order.
    fn texts(&self) -> Vec<&str> {
        self.0
            .split("<text ")
            .skip(1)
            .map(|t| {
                let body = &t[t.find('>').unwrap() + 1..];
                body[..body.find("</text>").unwrap()].trim()
            })
            .collect()
    }

    /// An attribute's value in a tag.
    fn attribute<'a>(tag: &'a str, name: &str) -> &'a str {
        let start = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        &tag[start..start + tag[start..].find('"').unwrap()]
    }

    /// The black polylines that run the length of the plot: the y axis and the x axis.
    fn axes(&self) -> (usize, usize) {
        let mut vertical = 0;
        let mut horizontal = 0;
        for tag in self.tags("polyline") {
            if !tag.contains("stroke=\"#000000\"") {
                continue;
            }
            let points: Vec<(i32, i32)> = Svg::attribute(tag, "points")
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect();
            let [(x0, y0), (x1, y1)] = points[..] else {
                continue;
            };
            if x0 == x1 && (y1 - y0).abs() > 150 {
                vertical += 1;
            }
            if y0 == y1 && (x1 - x0).abs() > 300 {
                horizontal += 1;
            }
        }
        (vertical, horizontal)
    }

    /// The picture's frame: `<svg width="640" height="400"` on a white background.
    fn assert_frame(&self) {
        assert!(
            self.0.starts_with("<svg width=\"640\" height=\"400\""),
            "{}",
            &self.0[..80]
        );
        let background = self.tags("rect")[0];
        for part in ["width=\"640\"", "height=\"400\"", "fill=\"#FFFFFF\""] {
            assert!(background.contains(part), "{background}");
        }
        assert_eq!(self.axes(), (1, 1), "one y axis and one x axis");
    }
}

/// A PNG's width and height, decoded.
fn png_size(path: &Path) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let reader = decoder.read_info().unwrap();
    let info = reader.info();
    (info.width, info.height)
}

/// A PNG's pixels (8-bit RGB) and width.
fn png_pixels(path: &Path) -> (Vec<u8>, usize) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    assert_eq!(frame.color_type, png::ColorType::Rgb);
    (pixels, frame.width as usize)
}

#[test]
fn plot_draws_a_line_per_column_with_title_legend_and_ticks() {
    let dir = run(
        "lines",
        "x = linspace(0, 2 * pi, 50)\n\
         plot(x, stack([sin(x), cos(x), -sin(x)], axis=1), label=[\"sin\", \"cos\", \"minus sin\"], title=\"waves\", file=\"waves.svg\")",
    );
    let svg = Svg::read(&dir.join("waves.svg"));
    svg.assert_frame();
    // Each series is a line of its colour, and again a short one in the legend.
    for colour in [BLUE, ORANGE, GREEN] {
        assert_eq!(
            svg.count("polyline", &format!("stroke=\"{colour}\"")),
            2,
            "{colour}"
        );
    }
    let texts = svg.texts();
    for text in [
        "waves",
        "sin",
        "cos",
        "minus sin",
        "0",
        "6",
        "-1.0",
        "0.0",
        "1.0",
    ] {
        assert!(texts.contains(&text), "{text:?} not in {texts:?}");
    }
}

#[test]
fn plot_of_one_array_draws_it_against_its_positions_without_a_legend() {
    let dir = run("one", "plot([1, 4, 9, 16], file=\"one.svg\")");
    let svg = Svg::read(&dir.join("one.svg"));
    svg.assert_frame();
    let line = svg.tags("polyline");
    let line: Vec<&&str> = line.iter().filter(|t| t.contains(BLUE)).collect();
    assert_eq!(line.len(), 1);
    assert_eq!(
        Svg::attribute(line[0], "points").split_whitespace().count(),
        4
    );
    // The background only: no legend box.
    assert_eq!(svg.tags("rect").len(), 1);
    let texts = svg.texts();
    for tick in ["0.0", "1.0", "3.0", "2", "16"] {
        assert!(texts.contains(&tick), "{tick:?} not in {texts:?}");
    }
}

#[test]
fn log_axes_are_labelled_in_powers_of_ten() {
    let dir = run(
        "log",
        "x = logspace(0, 4, 9)\nplot(x, x ** 2, logx=true, logy=true, title=\"square\", file=\"log.svg\")",
    );
    let svg = Svg::read(&dir.join("log.svg"));
    svg.assert_frame();
    let ticks: Vec<&str> = svg.texts().into_iter().filter(|t| *t != "square").collect();
    let superscripts = |t: &str| {
        t.strip_prefix("10")
            .is_some_and(|e| !e.is_empty() && e.chars().all(|c| "⁻⁰¹²³⁴⁵⁶⁷⁸⁹".contains(c)))
    };
    assert!(
        ticks.iter().all(|t| superscripts(t)),
        "not powers of ten: {ticks:?}"
    );
    for tick in ["10⁰", "10⁴", "10⁸"] {
        assert!(ticks.contains(&tick), "{tick:?} not in {ticks:?}");
    }
}

#[test]
fn scatter_marks_each_point() {
    let dir = run(
        "scatter",
        "scatter(arange(7), arange(7) ** 2, label=\"squares\", file=\"points.svg\")",
    );
    let svg = Svg::read(&dir.join("points.svg"));
    svg.assert_frame();
    // Seven points and the legend's mark.
    assert_eq!(svg.count("circle", &format!("fill=\"{BLUE}\"")), 8);
    assert!(svg.texts().contains(&"squares"));
}

#[test]
fn hist_and_bar_draw_a_bar_per_bin_and_height() {
    let dir = run(
        "bars",
        "hist([1, 2, 2, 3, 3, 3, 4, 5], bins=5, title=\"counts\", file=\"hist.svg\")\n\
         bar([3, 5, 2], labels=[\"cpu\", \"gpu\", \"disk\"], file=\"bar.svg\")",
    );
    let hist = Svg::read(&dir.join("hist.svg"));
    hist.assert_frame();
    assert_eq!(hist.count("rect", &format!("fill=\"{BLUE}\"")), 5);
    for text in ["counts", "count"] {
        assert!(hist.texts().contains(&text), "{text:?}");
    }
    let bar = Svg::read(&dir.join("bar.svg"));
    bar.assert_frame();
    assert_eq!(bar.count("rect", &format!("fill=\"{BLUE}\"")), 3);
    for label in ["cpu", "gpu", "disk"] {
        assert!(bar.texts().contains(&label), "{label:?}");
    }
}

#[test]
fn imshow_keeps_pixels_square_and_maps_values_as_matplotlib() {
    let dir = run(
        "image",
        "imshow(reshape(arange(16 * 8), [8, 16]), title=\"wide\", file=\"wide.svg\")\n\
         grey = [[0, 1], [2, 3]]\n\
         imshow(grey, file=\"grey.svg\")\n\
         imshow(grey, file=\"grey.png\")\n\
         colours = array([[[1.0, 0, 0], [0, 1, 0]], [[0, 0, 1], [1, 1, 1]]])\n\
         imshow(colours, file=\"floats.png\")\n\
         imshow(u8(colours * 255), file=\"integers.png\")",
    );
    let wide = Svg::read(&dir.join("wide.svg"));
    let image = wide.tags("image");
    assert_eq!(image.len(), 1);
    let size = |name| Svg::attribute(image[0], name).parse::<f64>().unwrap();
    let ratio = size("width") / size("height");
    assert!((ratio - 2.0).abs() < 0.02, "{ratio}");
    assert!(Svg::attribute(image[0], "href").starts_with("data:image/png;base64,"));
    assert!(wide.texts().contains(&"wide"));

    // The PNG's plotting area is where the SVG puts the image: sample each pixel's middle.
    let grey = Svg::read(&dir.join("grey.svg"));
    let tag = grey.tags("image")[0];
    let at = |name| Svg::attribute(tag, name).parse::<usize>().unwrap();
    let (x, y, w, h) = (at("x"), at("y"), at("width"), at("height"));
    let middle = |path: &str, column: usize, row: usize| {
        let (pixels, width) = png_pixels(&dir.join(path));
        let (px, py) = (x + (2 * column + 1) * w / 4, y + (2 * row + 1) * h / 4);
        let i = 3 * (py * width + px);
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    assert_eq!(middle("grey.png", 0, 0), [0, 0, 0]);
    assert_eq!(middle("grey.png", 1, 0), [85, 85, 85]);
    assert_eq!(middle("grey.png", 0, 1), [170, 170, 170]);
    assert_eq!(middle("grey.png", 1, 1), [255, 255, 255]);
    for file in ["floats.png", "integers.png"] {
        assert_eq!(middle(file, 0, 0), [255, 0, 0], "{file}");
        assert_eq!(middle(file, 1, 0), [0, 255, 0], "{file}");
        assert_eq!(middle(file, 0, 1), [0, 0, 255], "{file}");
        assert_eq!(middle(file, 1, 1), [255, 255, 255], "{file}");
    }
}

#[test]
fn pngs_are_the_pictures_size() {
    let dir = run(
        "png",
        "plot([1, 3, 2], label=\"a\", title=\"t\", file=\"plot.png\")\n\
         scatter([1, 2], [3, 4], file=\"scatter.PNG\")\n\
         hist(arange(100), file=\"hist.png\")\n\
         bar([1, 2], file=\"bar.png\")\n\
         imshow(ones([300, 20]), file=\"tall.png\")",
    );
    for file in ["plot.png", "scatter.PNG", "hist.png", "bar.png", "tall.png"] {
        assert_eq!(png_size(&dir.join(file)), (640, 400), "{file}");
    }
}

#[test]
fn a_bad_extension_writes_no_file() {
    let dir = common::work_dir("charts", "extension");
    let out = common::run_code("plot([1, 2], file=\"chart.jpg\")", &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(!dir.join("chart.jpg").exists());
}

#[test]
fn sweep_saves_its_chart_and_reports_as_before() {
    let dir = common::work_dir("charts", "sweep");
    let out = common::run_code(
        ":sweep for n in [10, 100] { x = ones(n) } file=\"sweep.svg\"",
        &dir,
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("time (log) against n (log): c cpu, g gpu, * both\n"),
        "{stderr}"
    );
    let svg = Svg::read(&dir.join("sweep.svg"));
    svg.assert_frame();
    let texts = svg.texts();
    for text in [
        "time (log) against n (log)",
        "10",
        "100",
        "n",
        "time",
        "cpu",
    ] {
        assert!(texts.contains(&text), "{text:?} not in {texts:?}");
    }
    // The time axis is in decades, written as durations.
    assert!(
        texts
            .iter()
            .any(|t| t.ends_with(" ns") || t.ends_with(" µs") || t.ends_with(" ms")),
        "{texts:?}"
    );
    assert!(svg.count("circle", &format!("fill=\"{BLUE}\"")) >= 2);
}

/// The `:time` line of each statement after `:time on`.
fn time_lines(code: &str) -> Vec<String> {
    let dir = common::work_dir("charts", "gpu");
    let out = common::run_code(code, &dir);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    stderr
        .lines()
        .filter(|l| l.starts_with("time "))
        .map(str::to_string)
        .collect()
}

#[test]
fn gpu_arrays_are_read_to_the_host_once_each() {
    if !common::gpu_or_skip("charts of gpu arrays") {
        return;
    }
    let lines = time_lines(
        "x = arange(100.0, device=gpu)\n\
         y = x * x\n\
         img = ones([4, 4], dtype=f32, device=gpu)\n\
         sync()\n\
         :time on\n\
         plot(x, y, file=\"xy.svg\")\n\
         hist(x, file=\"hist.png\")\n\
         imshow(img, file=\"img.svg\")\n\
         :time off",
    );
    let expected = ["D→H 2 (1.6 KB)", "D→H 1 (800 B)", "D→H 1 (64 B)"];
    assert_eq!(lines.len(), expected.len(), "{lines:?}");
    for (line, part) in lines.iter().zip(expected) {
        assert!(line.contains(part), "{part:?} not in {line:?}");
        assert!(line.contains("H→D 0"), "{line}");
    }
}

/// A front end that keeps what it is shown.
struct Recorder(Rc<RefCell<Vec<(Shown, Rich)>>>);

impl Frontend for Recorder {
    fn show(&mut self, why: Shown, rich: Rich) {
        self.0.borrow_mut().push((why, rich));
    }
}

/// What a front end receives while `code` runs in process.
fn front_end_shown(code: &str) -> Vec<(Shown, Rich)> {
    let shown = Rc::new(RefCell::new(Vec::new()));
    let mut interp = Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
    interp.set_frontend(Box::new(Recorder(shown.clone())));
    interp.run_source("<test>", code, false).unwrap();
    let shown = shown.borrow().clone();
    shown
}

fn assert_pictures(rich: &Rich) {
    let svg = rich.svg.as_deref().expect("an SVG");
    assert!(svg.starts_with("<svg width=\"640\" height=\"400\""));
    let png = rich.png.as_deref().expect("a PNG");
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: the width and height, big-endian, after the signature and the chunk's header.
    assert_eq!(&png[16..24], &[0, 0, 2, 128, 0, 0, 1, 144]);
}

#[test]
fn a_front_end_is_shown_the_chart_as_text_svg_and_png() {
    let shown = front_end_shown("plot([1, 3, 2], title=\"rise and fall\")");
    let [(why, rich)] = &shown[..] else {
        panic!("{shown:?}")
    };
    assert_eq!(*why, Shown::Output);
    assert!(rich.text.starts_with("rise and fall\n"), "{}", rich.text);
    assert!(rich.svg.as_deref().unwrap().contains("rise and fall"));
    assert_pictures(rich);
    // A chart saved to a file is not shown.
    let file = common::work_dir("charts", "front-end").join("saved.svg");
    let code = format!("plot([1, 2], file=\"{}\")", file.display());
    assert!(front_end_shown(&code).is_empty());
    assert!(file.exists());
}

#[test]
fn a_front_end_is_shown_bench_and_sweep_charts_as_pictures_too() {
    let shown = front_end_shown(":bench x = ones(10)\n:sweep for n in [10, 100] { x = ones(n) }");
    let reports: Vec<&Rich> = shown
        .iter()
        .filter(|(why, _)| *why == Shown::Report)
        .map(|(_, rich)| rich)
        .collect();
    // :bench's histogram; :sweep's table (HTML) and then its chart.
    assert_eq!(reports.len(), 3, "{shown:?}");
    assert!(
        reports[0].text.contains("new arrays on cpu"),
        "{}",
        reports[0].text
    );
    assert!(reports[0]
        .svg
        .as_deref()
        .unwrap()
        .contains(":bench x = ones(10)"));
    let table = reports[1].html.as_deref().expect("an HTML table");
    assert!(
        table.contains("<th>n</th><th>cpu</th><th>gpu</th>"),
        "{table}"
    );
    assert!(table.contains("<td>100</td>"), "{table}");
    assert!(reports[2].text.contains("time (log) against n (log)"));
    for rich in [reports[0], reports[2]] {
        assert_pictures(rich);
    }
}
