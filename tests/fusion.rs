//! Fused against unfused: random programs of elementwise statements — expression trees over all
//! dtypes, broadcasting, strided and reversed views, host scalars, in-place updates through
//! views, reductions of expressions — run through the real binary with fusion on and with
//! `--no-fuse`. Every result is saved as `.npy` and the files must be identical byte for byte
//! (floats too: kernels are compiled without FMA contraction), and so must everything printed —
//! except that a NaN matches any NaN: IEEE 754 leaves the sign and payload of a NaN an operation
//! makes unspecified (the gpu's and the cpu's differ, and so may two kernels'), and NumPy's
//! `array_equal(equal_nan=True)` does not look at them either.
//! The programs run on the cpu and, when there is one, on the gpu (`ARRSH_REQUIRE_GPU=1` makes a
//! missing gpu a failure).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use arrsh::base::dtype::ALL;
use arrsh::base::{DType, Scalar};
use arrsh::plan::resolve::{resolve, Arg};
use arrsh::plan::table;

/// A small deterministic generator (xorshift64*), so that a failure names a reproducible seed.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
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

fn scalar(r: &mut Random) -> (String, Scalar) {
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
    r: &mut Random,
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

fn retrying(r: &mut Random, leaves: &[(String, DType, String)], depth: usize) -> Generated {
    loop {
        if let Some(g) = expression(r, leaves, depth) {
            return g;
        }
    }
}

/// A program of `statements` statements: new arrays, in-place updates (whole arrays and views),
/// reductions; every result saved.
fn program(seed: u64, statements: usize) -> String {
    let mut r = Random(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut leaves = inputs();
    let mut text = String::from("seed(7)\n");
    for (view, _, make) in &leaves {
        let name = view.split('[').next().expect("a name");
        text.push_str(&format!("{name} = {make}\n"));
    }
    text.push_str("acc = zeros([6, 5], dtype=c128)\n");
    let mut unsaved = Vec::new();
    for k in 0..statements {
        let g = retrying(&mut r, &leaves, 4);
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
                    text.push_str(&format!("save(\"t{k}.npy\", t{k})\n"));
                } else {
                    unsaved.push(k);
                }
                // Later statements read it: deferred values feed deferred values.
                leaves.push((format!("t{k}"), g.dtype, String::new()));
            }
        }
    }
    for k in unsaved {
        text.push_str(&format!("save(\"t{k}.npy\", t{k})\n"));
    }
    text.push_str("save(\"acc.npy\", acc)\n");
    text
}

/// An expression broadcast to (6, 5), so that a slice of it can be taken.
fn broadcast(text: &str) -> String {
    format!("({text} + zeros([6, 5], dtype=bool))")
}

fn run(dir: &Path, code: &str, device: &str, fuse: bool) -> (String, Vec<(String, Vec<u8>)>) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_arrsh"));
    command.args(["--device", device, "--scalar", "allow"]);
    if !fuse {
        command.arg("--no-fuse");
    }
    let output = command
        .arg("-e")
        .arg(code)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("arrsh runs");
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
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
    (printed, files)
}

/// Two saved files (name and bytes) are the same file with the same contents, a NaN matching
/// any NaN in a float or complex `.npy`.
fn same_npy(a: &(String, Vec<u8>), b: &(String, Vec<u8>)) -> bool {
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

fn work_dir(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("arrsh-fusion-{}-{name}", std::process::id()))
}

/// Each seed's program run fused and unfused (seeds share out among threads: on the gpu most of
/// the time is compiling kernels).
fn check_device(device: &str, programs: usize) {
    let seeds: Vec<u64> = (0..programs as u64).collect();
    let verdicts = common::parallel(&seeds, |_, &seed| {
        let code = program(seed, 12);
        let (fused_dir, plain_dir) = (
            work_dir(&format!("{device}-{seed}-fused")),
            work_dir(&format!("{device}-{seed}-plain")),
        );
        let fused = run(&fused_dir, &code, device, true);
        let plain = run(&plain_dir, &code, device, false);
        let _ = (
            std::fs::remove_dir_all(&fused_dir),
            std::fs::remove_dir_all(&plain_dir),
        );
        assert!(!fused.0.contains("panicked"), "seed {seed}: {}", fused.0);
        if fused.0 != plain.0 {
            return Some(format!(
                "seed {seed} on {device}: printed output differs\n{}\n--- program ---\n{code}",
                common::line_diff(&plain.0, &fused.0)
            ));
        }
        if fused.1.len() != plain.1.len()
            || fused.1.iter().zip(&plain.1).any(|(a, b)| !same_npy(a, b))
        {
            let names: Vec<&str> = fused
                .1
                .iter()
                .zip(&plain.1)
                .filter(|(a, b)| !same_npy(a, b))
                .map(|(a, _)| a.0.as_str())
                .collect();
            return Some(format!(
                "seed {seed} on {device}: saved arrays differ: {names:?}\n--- program ---\n{code}"
            ));
        }
        None
    });
    let failures: Vec<String> = verdicts.into_iter().flatten().collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn fused_and_unfused_programs_agree_bit_for_bit_on_the_cpu() {
    check_device("cpu", 40);
}

#[test]
fn fused_and_unfused_programs_agree_bit_for_bit_on_the_gpu() {
    if !common::gpu_or_skip("the gpu fusion test") {
        return;
    }
    check_device("gpu", 40);
}

#[test]
fn generated_programs_run_and_save_their_results() {
    let code = program(3, 12);
    let dir = work_dir("smoke");
    let (printed, files) = run(&dir, &code, "cpu", true);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!printed.contains("error"), "{printed}\n{code}");
    assert!(files.iter().any(|(n, _)| n == "acc.npy"), "{printed}");
}
