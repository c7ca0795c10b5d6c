//! Every row of the table of elementwise operations, on every dtype, against NumPy: the same
//! inputs (written by NumPy), run through the real binary (a few processes, each case a line of
//! input), each result saved as `.npy` and compared in NumPy — the dtype exactly, integers and
//! bools exactly, floats and complex numbers within a tolerance of their precision. A case NumPy
//! refuses must be refused by arrsh too. Mixed dtypes and weak host scalars check NumPy 2's
//! promotion. The cases run on the cpu and, when there is one, on the gpu, where the documented
//! CuPy-like differences (negative integer powers) are left out.
//!
//! Without python3 and NumPy the test prints "skipped: numpy not installed" (CI has NumPy).

mod common;

use arrsh::base::dtype::ALL;
use arrsh::base::DType;
use arrsh::plan::table::{self, Op};
use common::{numpy_available, python};

/// Inputs for each dtype: `x` with zeros, negatives, extremes (and NaN/inf for floats), `y`
/// without zeros, `b` a bool mask.
const PY_INPUTS: &str = r#"
import numpy as np, warnings
warnings.simplefilter('ignore')
names = 'bool int8 uint8 int16 uint16 int32 uint32 int64 uint64 float16 float32 float64 complex64 complex128'.split()
arr = 'bool i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64 c64 c128'.split()
for numpy_name, name in zip(names, arr):
    t = np.dtype(numpy_name)
    if t.kind == 'b':
        x = np.array([True, False, True, True, False, False, True, False, True, True, False, True])
        y = np.array([True, True, False, True, True, False, True, True, True, False, True, True])
    elif t.kind in 'iu':
        info = np.iinfo(t)
        base = [0, 1, 2, 3, 7, 100, info.max, info.min, 5, 9, 4, 6]
        if t.kind == 'i':
            base[8:11] = [-1, -7, -100]
        x = np.array(base, dtype=t)
        y = np.array([1, 2, 3, 5, 7, 3, 2, 1, 4, 6, 3, 2], dtype=t)
        if t.kind == 'i':
            y[4:6] = [-3, -2]
    elif t.kind == 'f':
        x = np.array([0.0, -0.0, 1.5, -2.25, 0.5, 3.0, np.nan, np.inf, -np.inf, 1e-3, 7.0, -0.75], dtype=t)
        y = np.array([2.0, -1.5, 0.25, 3.0, -0.5, 1.0, 2.0, 0.5, -4.0, 1.25, 0.125, 6.0], dtype=t)
    else:
        # Complex functions of infinite arguments follow the textbook formulas, not C99's
        # special values (documented): the inputs are finite, or NaN.
        x = np.array([0, 1 + 2j, -1.5 + 0.5j, 2j, -3, 0.5 - 0.25j, complex(np.nan, 1), 4 - 3j, 1e-3j, 7 + 1j, -0.75j, 2.5], dtype=t)
        y = np.array([1 + 1j, 2, -0.5j, 3 - 1j, 0.25, 1j, 2 + 2j, 0.5, -4j, 1.25, 1 - 1j, 6j], dtype=t)
    np.save('x_%s.npy' % name, x)
    np.save('y_%s.npy' % name, y)
np.save('b.npy', np.array([True, False] * 6))
"#;

/// How a row is called in a case: its operands, in arr and in NumPy.
fn call(row: &table::ElementwiseOp, x: &str, y: &str) -> (String, String) {
    let name = row.name;
    match (row.op, row.nin) {
        (Op::Where, _) => (
            format!("where(b, {x}, {y})"),
            format!("np.where(b, {x}, {y})"),
        ),
        (Op::Clip, _) => (
            format!("clip({x}, {y}, {y} + {y})"),
            format!("np.clip({x}, {y}, {y} + {y})"),
        ),
        // NumPy's integer reciprocal of 0 is whatever the division instruction gives; arrsh
        // gives 0 (documented), so it is compared on inputs without zeros.
        (Op::Reciprocal, _) => (format!("{name}({y})"), format!("np.{name}({y})")),
        (_, 1) => (format!("{name}({x})"), format!("np.{name}({x})")),
        _ => (format!("{name}({x}, {y})"), format!("np.{name}({x}, {y})")),
    }
}

struct Case {
    arr: String,
    numpy: String,
    /// Left out on the gpu: a documented difference from NumPy there.
    cpu_only: bool,
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    for row in table::OPS {
        for &dtype in &ALL {
            let (x, y) = (format!("x_{}", dtype.name()), format!("y_{}", dtype.name()));
            let (arr, numpy) = call(row, &x, &y);
            out.push(Case {
                arr,
                numpy,
                cpu_only: row.op == Op::Power && dtype.is_signed(),
            });
        }
    }
    let pairs = [
        (DType::I8, DType::U8),
        (DType::I64, DType::U64),
        (DType::I16, DType::F16),
        (DType::F32, DType::C64),
        (DType::Bool, DType::F32),
        (DType::U32, DType::I8),
        (DType::F16, DType::F64),
        (DType::I32, DType::C64),
    ];
    for name in [
        "add",
        "multiply",
        "less",
        "maximum",
        "divide",
        "floor_divide",
        "equal",
    ] {
        let row = table::find(name).expect("a row");
        for (a, b) in pairs {
            let (x, y) = (format!("x_{}", a.name()), format!("y_{}", b.name()));
            let (arr, numpy) = call(row, &x, &y);
            out.push(Case {
                arr,
                numpy,
                cpu_only: false,
            });
        }
    }
    // Weak host scalars (NEP 50): the array's dtype wins within its kind.
    for (dtype, scalar) in [
        (DType::U8, "3"),
        (DType::F32, "2.5"),
        (DType::I8, "1.5"),
        (DType::F16, "1j"),
        (DType::I16, "true"),
        (DType::U64, "2"),
        (DType::C64, "0.5"),
    ] {
        let x = format!("x_{}", dtype.name());
        let py_scalar = match scalar {
            "true" => "True",
            other => other,
        };
        for op in ["+", "*", "-", "<"] {
            out.push(Case {
                arr: format!("{x} {op} {scalar}"),
                numpy: format!("{x} {op} {py_scalar}"),
                cpu_only: false,
            });
        }
    }
    out
}

const PY_COMPARE: &str = r#"
import numpy as np, warnings, os
warnings.simplefilter('ignore')
TOL = {'e': 2e-3, 'f': 2e-6, 'd': 1e-12, 'F': 2e-6, 'D': 1e-12}

def close(g, w, tol):
    g = g.astype(np.float64).ravel(); w = w.astype(np.float64).ravel()
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return 'NaN in different places: %s vs NumPy %s' % (g.tolist(), w.tolist())
    inf = np.isinf(w)
    if not np.array_equal(g[inf], w[inf]) or np.isinf(g[~inf]).any():
        return 'infinities differ: %s vs NumPy %s' % (g.tolist(), w.tolist())
    fin = np.isfinite(w)
    err = np.abs(g[fin] - w[fin])
    limit = tol * np.maximum(np.abs(w[fin]), 1.0)
    if (err > limit).any():
        k = int(np.argmax(err - limit))
        return 'values differ beyond %g: %r vs NumPy %r' % (tol, float(g[fin][k]), float(w[fin][k]))
    return None

def verdict(index, numpy_code, env):
    path = 'out_%d.npy' % index
    try:
        want = np.asarray(eval(numpy_code, env))
    except Exception as e:
        return None if not os.path.exists(path) else 'NumPy refuses (%s) but arrsh gave a result' % type(e).__name__
    if not os.path.exists(path):
        return 'arrsh refused it; NumPy gives %s' % want.dtype
    got = np.load(path)
    if got.dtype != want.dtype:
        return 'dtype %s, NumPy %s' % (got.dtype, want.dtype)
    if got.shape != want.shape:
        return 'shape %s, NumPy %s' % (got.shape, want.shape)
    kind = want.dtype.char
    if kind not in TOL:
        if not np.array_equal(got, want):
            return 'values %s, NumPy %s' % (got.tolist(), want.tolist())
        return None
    if want.dtype.kind == 'c':
        return close(got.real, want.real, TOL[kind]) or close(got.imag, want.imag, TOL[kind])
    return close(got, want, TOL[kind])
"#;

/// Processes the cases are shared among.
const GROUPS: usize = 8;

fn check(device: &str) {
    let dir = common::work_dir("ufuncs", device);
    python(&dir, PY_INPUTS);
    let cases: Vec<Case> = cases()
        .into_iter()
        .filter(|c| device == "cpu" || !c.cpu_only)
        .collect();
    // One arrsh process per group of cases, fed on stdin as a REPL session is: a failed line (a
    // case arrsh refuses) leaves the session as it was, and its error names the line.
    let mut header = String::from("b = load(\"b.npy\")\n");
    for dtype in ALL {
        for side in ["x", "y"] {
            let name = format!("{side}_{}", dtype.name());
            header.push_str(&format!("{name} = load(\"{name}.npy\")\n"));
        }
    }
    let first_case_line = header.lines().count() + 1;
    let groups: Vec<Vec<usize>> = (0..GROUPS)
        .map(|g| (g..cases.len()).step_by(GROUPS).collect())
        .collect();
    let errors = common::parallel(&groups, |_, group| {
        let mut script = header.clone();
        for &index in group {
            script.push_str(&format!(
                "save(\"out_{index}.npy\", {})\n",
                cases[index].arr
            ));
        }
        let out = common::run_stdin(&["--device", device], &dir, &script);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        let mut errors = Vec::new();
        for line in stderr.lines() {
            let Some(rest) = line.strip_prefix("<input ") else {
                continue;
            };
            let number: usize = rest.split('>').next().unwrap().parse().unwrap();
            errors.push((group[number - first_case_line], line.to_string()));
        }
        errors
    });
    let mut runs = vec![String::new(); cases.len()];
    for (index, error) in errors.into_iter().flatten() {
        runs[index] = error;
    }
    let mut checker = format!("{PY_COMPARE}\nenv = {{'np': np, 'b': np.load('b.npy')}}\n");
    checker
        .push_str("import glob\nfor f in glob.glob('[xy]_*.npy'):\n    env[f[:-4]] = np.load(f)\n");
    for (index, case) in cases.iter().enumerate() {
        checker.push_str(&format!(
            "print({index}, verdict({index}, {:?}, env) or 'ok')\n",
            case.numpy
        ));
    }
    let verdicts = python(&dir, &checker);
    let mut failures = Vec::new();
    for line in verdicts.lines() {
        let (index, verdict) = line.split_once(' ').unwrap();
        if verdict != "ok" {
            let index: usize = index.parse().unwrap();
            let why = &runs[index];
            failures.push(format!("{:<44} {verdict} {why}", cases[index].arr));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{device}: {} of {} cases agree with NumPy",
        cases.len() - failures.len(),
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from NumPy on the {device}:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn every_operation_and_dtype_matches_numpy_on_the_cpu() {
    if numpy_available() {
        check("cpu");
    }
}

#[test]
fn every_operation_and_dtype_matches_numpy_on_the_gpu() {
    if !numpy_available() {
        return;
    }
    if !common::gpu_or_skip("the gpu case") {
        return;
    }
    check("gpu");
}
