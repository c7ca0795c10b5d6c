//! The random programs of the fusion test and the `fuse` fuzz target: elementwise statements
//! over every dtype, with broadcasting, views, host scalars, in-place updates and reductions, and
//! how two runs' results are compared.

use std::path::Path;
use std::time::Duration;

use arrsh::base::dtype::ALL;
use arrsh::base::{DType, Scalar};
use arrsh::interp::bounded::run_bounded_capturing;
use arrsh::plan::resolve::{resolve, Arg};
use arrsh::plan::table;

/// Where the generator's choices come from: a seeded generator in the test, the fuzzer's bytes in
/// the fuzz target.
pub trait Choices {
    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize;

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A small deterministic generator (xorshift64*), so that a failure names a reproducible seed.
pub struct Random(u64);

impl Random {
    pub fn new(seed: u64) -> Random {
        Random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
}

impl Choices for Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n as u64) as usize
    }
}

/// The fuzzer's input read as choices, a byte each; once it runs out every choice is 0, which
/// ends every expression at a leaf, so a program is always finite.
pub struct Bytes<'a>(pub &'a [u8]);

impl Choices for Bytes<'_> {
    fn below(&mut self, n: usize) -> usize {
        match self.0.split_first() {
            Some((&byte, rest)) => {
                self.0 = rest;
                byte as usize % n
            }
            None => 0,
        }
    }
}

/// A generated expression: its arr text and its dtype (found by the engine's own resolution,
/// so every operation the generator writes has a loop).
struct Generated {
    text: String,
    dtype: DType,
}

/// The arrays every program starts with: name, dtype, and the arr that makes them (all
/// broadcast to (6, 5)).
fn inputs() -> Vec<(String, DType, String)> {
    let mut out = Vec::new();
    for (k, &dtype) in ALL.iter().enumerate() {
        let shape = match k % 4 {
            0 => "[6, 5]",
            1 => "[5]",
            2 => "[6, 1]",
            _ => "[12, 5]",
        };
        let make = match dtype {
            DType::Bool => format!("rand({shape}) > 0.5"),
            d if d.is_complex() => {
                format!(
                    "astype(randn({shape}) * 3 + 1j * randn({shape}), {})",
                    d.name()
                )
            }
            d if d.is_integer() => format!("astype(randn({shape}) * 9, {})", d.name()),
            d => format!("astype(randn({shape}) * 3, {})", d.name()),
        };
        let name = format!("v{}", dtype.name());
        // The (12, 5) arrays are read through a strided view, the others also reversed.
        let view = match k % 4 {
            3 => format!("{name}[::2]"),
            0 => format!("{name}[::-1]"),
            _ => name.clone(),
        };
        out.push((view, dtype, make));
    }
    out
}

const UNARY: &[&str] = &[
    "negative",
    "absolute",
    "sqrt",
    "sin",
    "exp",
    "square",
    "sign",
    "floor",
    "isnan",
    "logical_not",
    "invert",
    "conj",
    "rint",
    "log1p",
    "tanh",
];
const BINARY: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
    "maximum",
    "minimum",
    "fmax",
    "less",
    "equal",
    "bitwise_and",
    "logical_xor",
    "arctan2",
    "hypot",
];

fn scalar(r: &mut impl Choices) -> (String, Scalar) {
    match r.below(4) {
        0 => ("2".into(), Scalar::Int(2)),
        1 => ("0.5".into(), Scalar::Float(0.5)),
        2 => ("true".into(), Scalar::Bool(true)),
        _ => ("3".into(), Scalar::Int(3)),
    }
}

fn arg_of(g: &Generated) -> Arg {
    Arg::Array(g.dtype)
}

/// A random expression of at most `depth` levels; `None` when the row picked has no loop for
/// the operands (the caller tries again).
fn expression(
    r: &mut impl Choices,
    leaves: &[(String, DType, String)],
    depth: usize,
) -> Option<Generated> {
    if depth == 0 || r.below(4) == 0 {
        let (text, dtype, _) = r.pick(leaves);
        return Some(Generated {
            text: text.clone(),
            dtype: *dtype,
        });
    }
    match r.below(5) {
        0 | 1 => {
            let name = r.pick::<&str>(UNARY);
            let row = table::find(name).expect("a row");
            let x = expression(r, leaves, depth - 1)?;
            let sig = resolve(row, &[arg_of(&x)]).ok()?;
            Some(Generated {
                text: format!("{}({})", row.name, x.text),
                dtype: sig.output,
            })
        }
        2 => {
            let name = r.pick::<&str>(BINARY);
            let row = table::find(name).expect("a row");
            let x = expression(r, leaves, depth - 1)?;
            let (text, s) = scalar(r);
            let sig = resolve(row, &[arg_of(&x), Arg::Weak(s)]).ok()?;
            Some(Generated {
                text: format!("{}({}, {text})", row.name, x.text),
                dtype: sig.output,
            })
        }
        3 => {
            let c = expression(r, leaves, depth - 1)?;
            let (x, y) = (
                expression(r, leaves, depth - 1)?,
                expression(r, leaves, depth - 1)?,
            );
            let row = table::find("where").expect("where");
            let sig = resolve(row, &[arg_of(&c), arg_of(&x), arg_of(&y)]).ok()?;
            Some(Generated {
                text: format!("where({}, {}, {})", c.text, x.text, y.text),
                dtype: sig.output,
            })
        }
        _ => {
            let name = r.pick::<&str>(BINARY);
            let row = table::find(name).expect("a row");
            let (x, y) = (
                expression(r, leaves, depth - 1)?,
                expression(r, leaves, depth - 1)?,
            );
            let sig = resolve(row, &[arg_of(&x), arg_of(&y)]).ok()?;
            Some(Generated {
                text: format!("{}({}, {})", row.name, x.text, y.text),
                dtype: sig.output,
            })
        }
    }
}

fn retrying(r: &mut impl Choices, leaves: &[(String, DType, String)], depth: usize) -> Generated {
    loop {
        if let Some(g) = expression(r, leaves, depth) {
            return g;
        }
    }
}

/// A program of `statements` statements: new arrays, in-place updates (whole arrays and views),
/// reductions; every result saved, as a file whose name starts with `save_to`.
pub fn program(r: &mut impl Choices, statements: usize, save_to: &str) -> String {
    let r = &mut *r;
    let mut leaves = inputs();
    let mut text = String::from("seed(7)\n");
    for (view, _, make) in &leaves {
        let name = view.split('[').next().expect("a name");
        text.push_str(&format!("{name} = {make}\n"));
    }
    text.push_str("acc = zeros([6, 5], dtype=c128)\n");
    let mut unsaved = Vec::new();
    for k in 0..statements {
        let g = retrying(r, &leaves, 4);
        match r.below(5) {
            0 => text.push_str(&format!("acc += {}\n", g.text)),
            1 => text.push_str(&format!(
                "acc[1:, ::2] -= {}[1:, ::2]\n",
                broadcast(&g.text)
            )),
            2 => {
                let reduction = r.pick(&["sum", "max", "min", "any", "argmax"]);
                let value = match (*reduction, g.dtype.is_complex()) {
                    ("max" | "min" | "argmax", true) => format!("real({})", g.text),
                    _ => g.text.clone(),
                };
                text.push_str(&format!("s{k} = {reduction}({value})\nprint(s{k})\n"));
            }
            _ => {
                text.push_str(&format!("t{k} = {}\n", g.text));
                // Half are saved at once; the rest stay deferred until the end.
                if r.below(2) == 0 {
                    text.push_str(&format!("save(\"{save_to}t{k}.npy\", t{k})\n"));
                } else {
                    unsaved.push(k);
                }
                // Later statements read it: deferred values feed deferred values.
                leaves.push((format!("t{k}"), g.dtype, String::new()));
            }
        }
    }
    for k in unsaved {
        text.push_str(&format!("save(\"{save_to}t{k}.npy\", t{k})\n"));
    }
    text.push_str(&format!("save(\"{save_to}acc.npy\", acc)\n"));
    text
}

/// An expression broadcast to (6, 5), so that a slice of it can be taken.
fn broadcast(text: &str) -> String {
    format!("({text} + zeros([6, 5], dtype=bool))")
}

/// Two saved files (name and bytes) are the same file with the same contents, a NaN matching
/// any NaN in a float or complex `.npy`.
pub fn same_npy(a: &(String, Vec<u8>), b: &(String, Vec<u8>)) -> bool {
    if a.0 != b.0 || a.1.len() != b.1.len() {
        return false;
    }
    if a.1 == b.1 {
        return true;
    }
    let header = |bytes: &[u8]| -> Option<(usize, String)> {
        let len = u16::from_le_bytes([*bytes.get(8)?, *bytes.get(9)?]) as usize;
        let text = String::from_utf8_lossy(bytes.get(10..10 + len)?).into_owned();
        Some((10 + len, text))
    };
    let (Some((start, text)), Some((_, other))) = (header(&a.1), header(&b.1)) else {
        return false;
    };
    let width = [
        ("'<f2'", 2),
        ("'<f4'", 4),
        ("'<f8'", 8),
        ("'<c8'", 4),
        ("'<c16'", 8),
    ]
    .iter()
    .find(|(descr, _)| text.contains(descr))
    .map(|&(_, w)| w);
    let Some(width) = width else { return false };
    let is_nan = |v: &[u8]| match width {
        2 => {
            let bits = u16::from_le_bytes([v[0], v[1]]);
            bits & 0x7c00 == 0x7c00 && bits & 0x03ff != 0
        }
        4 => f32::from_le_bytes(v.try_into().unwrap()).is_nan(),
        _ => f64::from_le_bytes(v.try_into().unwrap()).is_nan(),
    };
    text == other
        && a.1[..start] == b.1[..start]
        && a.1[start..]
            .chunks(width)
            .zip(b.1[start..].chunks(width))
            .all(|(x, y)| x == y || (is_nan(x) && is_nan(y)))
}

/// The program the fuzzer's `data` stands for (1 to 16 statements), saving into `dir`.
pub fn from_bytes(data: &[u8], dir: &Path) -> String {
    let mut choices = Bytes(data);
    let statements = 1 + choices.below(16);
    program(&mut choices, statements, &format!("{}/", dir.display()))
}

/// Runs `code` (saving into `dir`, emptied after each run) in this process, fused (`twice`) and
/// then unfused; why their outcomes differ, if they do. `None` too when either run took so long
/// that it was interrupted.
pub fn fused_against_unfused(code: &str, dir: &Path) -> Option<String> {
    let mut outcomes = Vec::new();
    for (fusion, text) in [(true, twice(code)), (false, code.to_string())] {
        let (result, printed, interrupted) =
            run_bounded_capturing(&text, Duration::from_secs(20), fusion);
        let files = saved_files(dir);
        for (name, _) in &files {
            let _ = std::fs::remove_file(dir.join(name));
        }
        if interrupted {
            return None;
        }
        outcomes.push(((printed, files), result.is_err()));
    }
    let (plain, failed) = &outcomes[1];
    difference(&outcomes[0].0, &expected_of_twice(plain, *failed))
}

/// `code` run twice in one interpreter, as the fused runs are: the second time every statement
/// meets what its first run kept (cpu programs, dtype resolutions, scalar nodes) and runs over
/// new buffers, and must print and save the same again.
pub fn twice(code: &str) -> String {
    format!("{code}\n{code}")
}

/// What a fused run of `twice(code)` must leave, from an unfused run of `code`: the same printed
/// twice, or once when the program stopped at an error, and the same arrays saved.
pub fn expected_of_twice(plain: &Outcome, failed: bool) -> Outcome {
    let printed = if failed {
        plain.0.clone()
    } else {
        plain.0.repeat(2)
    };
    (printed, plain.1.clone())
}

/// What a run left: everything printed, and each saved file (name and bytes, sorted by name).
pub type Outcome = (String, Vec<(String, Vec<u8>)>);

/// Why a fused run's outcome is not the unfused one's, if it is not.
pub fn difference(fused: &Outcome, plain: &Outcome) -> Option<String> {
    if fused.0 != plain.0 {
        let lines = plain.0.lines().count().max(fused.0.lines().count());
        let missing = std::iter::repeat("(nothing)");
        let first = plain
            .0
            .lines()
            .chain(missing.clone())
            .zip(fused.0.lines().chain(missing))
            .take(lines)
            .enumerate()
            .find(|(_, (a, b))| a != b);
        return Some(match first {
            Some((line, (unfused, fused))) => format!(
                "printed line {} differs\n  unfused: {unfused}\n  fused:   {fused}",
                line + 1
            ),
            None => "printed output differs in its line ends".to_string(),
        });
    }
    let differing: Vec<&str> = fused
        .1
        .iter()
        .zip(&plain.1)
        .filter(|(a, b)| !same_npy(a, b))
        .map(|(a, _)| a.0.as_str())
        .collect();
    if fused.1.len() != plain.1.len() || !differing.is_empty() {
        return Some(format!("saved arrays differ: {differing:?}"));
    }
    None
}

/// The files in `dir`, sorted by name.
pub fn saved_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&path).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}
