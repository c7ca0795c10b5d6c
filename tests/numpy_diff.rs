//! Differential tests against NumPy: the same computation in arr (through the real `arrsh` binary)
//! and in Python/NumPy must give the same dtype, the same shape and the same values (exact for
//! integers and bools, within 1e-12 relative for f64 and 1e-6 for f32).
//!
//! Inputs are written by NumPy (seeded), read by arrsh with `load`, and arrsh's results come back
//! through `save`, so nothing here depends on how either side prints numbers. Other tests check the
//! `.npy` round trip in both directions and that arrsh prints what NumPy prints.
//!
//! Without python3 and NumPy the tests print "skipped: numpy not installed" and pass (CI has NumPy).

#[path = "numpy_diff/cases.rs"]
mod cases;
mod common;

use std::path::Path;
use std::process::Output;

use cases::DIFFS;
use common::{numpy_available, parallel, python};

fn work_dir(test: &str) -> std::path::PathBuf {
    common::work_dir("numpy", test)
}

fn arrsh(dir: &Path, code: &str) -> Output {
    common::run_code(code, dir)
}

/// arrsh reading a session from stdin (the REPL's echo shows each expression's repr).
fn arrsh_echo(dir: &Path, lines: &str) -> Output {
    common::run_stdin(&[], dir, lines)
}

fn describe_failure(out: &Output) -> String {
    format!(
        "arrsh exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
    )
}

// ---------------------------------------------------------------------------------------------
// Shared Python: arr's names for dtypes and a comparison with the tolerances above.

const PY_COMMON: &str = r#"
import numpy as np, sys
ARR = {np.dtype('float64'): 'f64', np.dtype('float32'): 'f32', np.dtype('int64'): 'i64', np.dtype('bool'): 'bool'}

def compare(got, want):
    want = np.asarray(want)
    if got.dtype != want.dtype:
        return 'dtype %s, NumPy %s' % (got.dtype, want.dtype)
    if got.shape != want.shape:
        return 'shape %s, NumPy %s' % (got.shape, want.shape)
    if want.dtype.kind in 'bi':
        if want.ndim == 0 and got != want:
            return 'value %s, NumPy %s' % (got, want)
        if not np.array_equal(got, want):
            bad = np.argwhere(got != want)[:3].tolist()
            return 'values differ at %s: %s vs NumPy %s' % (bad, got[tuple(np.array(bad).T)].tolist(), want[tuple(np.array(bad).T)].tolist())
        return None
    tol = 1e-12 if want.dtype == np.float64 else 1e-6
    g = got.astype(np.float64).ravel(); w = want.astype(np.float64).ravel()
    if not np.array_equal(np.isnan(g), np.isnan(w)):
        return 'NaN in different places: %s vs NumPy %s' % (g[:8].tolist(), w[:8].tolist())
    inf = np.isinf(w)
    if not np.array_equal(g[inf], w[inf]) or np.isinf(g[~inf]).any():
        return 'infinities differ: %s vs NumPy %s' % (g[:8].tolist(), w[:8].tolist())
    fin = np.isfinite(w)
    scale = np.abs(w[fin]).max() if fin.any() else 0.0
    err = np.abs(g[fin] - w[fin])
    limit = tol * np.maximum(np.abs(w[fin]), 1e-3 * scale)
    if (err > limit).any():
        k = int(np.argmax(err - limit))
        return 'values differ beyond %g relative: %r vs NumPy %r' % (tol, float(g[fin][k]), float(w[fin][k]))
    return None
"#;

/// Inputs, written by NumPy with a fixed seed.
const PY_INPUTS: &str = r#"
rng = np.random.default_rng(20240611)
inputs = dict(
    a=rng.standard_normal((3, 4)) * 10,
    b=rng.standard_normal(4),
    c=rng.standard_normal((4, 3)),
    i=rng.integers(-20, 20, (3, 4)),
    j=rng.integers(1, 9, 4),
    k=np.array([-7, -3, 0, 3, 7, 10]),
    f=rng.standard_normal((3, 4)).astype(np.float32),
    m=rng.random((3, 4)) > 0.5,
    n=np.array([1.0, np.nan, 3.0, np.nan, -2.0, 0.5]),
    t=np.array([1.0, 5.0, 5.0, 2.0, 5.0, 0.0, 0.0, 1.0]),
    h=np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 0.49999999999999994, -0.49999999999999994]),
    img=rng.random((7, 9)),
    ker=rng.standard_normal((3, 3)),
    ker53=rng.standard_normal((5, 3)),
    ker22=rng.standard_normal((2, 2)),
    big=rng.standard_normal(1000) * 1000,
    pos=rng.random(5) + 0.1,
)
for name, value in inputs.items():
    np.save('in_%s.npy' % name, value)
"#;

const INPUT_NAMES: &[&str] = &[
    "a", "b", "c", "i", "j", "k", "f", "m", "n", "t", "h", "img", "ker", "ker53", "ker22", "big",
    "pos",
];

/// NumPy reference for conv2d: "same" correlation with zero padding, the kernel's anchor at
/// ((kh - 1) // 2, (kw - 1) // 2) as in scipy.signal.correlate2d(mode="same").
const PY_CONV2D: &str = r#"
def conv2d(img, ker):
    img = np.asarray(img); ker = np.asarray(ker)
    H, W = img.shape; kh, kw = ker.shape
    top, left = (kh - 1) // 2, (kw - 1) // 2
    padded = np.zeros((H + kh - 1, W + kw - 1), dtype=np.result_type(img, ker))
    padded[top:top + H, left:left + W] = img
    out = np.zeros((H, W), dtype=np.result_type(img, ker))
    for u in range(kh):
        for v in range(kw):
            out += ker[u, v] * padded[u:u + H, v:v + W]
    return out
"#;

#[test]
fn results_match_numpy() {
    if numpy_available() {
        diffs_on("cpu");
    }
}

#[test]
fn results_match_numpy_on_the_gpu() {
    if numpy_available() && common::gpu_or_skip("results_match_numpy_on_the_gpu") {
        diffs_on("gpu");
    }
}

/// Every case of `DIFFS` with its inputs and new arrays on `device`.
fn diffs_on(device: &str) {
    let dir = work_dir(&format!("diff-{device}"));
    python(&dir, &format!("{PY_COMMON}{PY_INPUTS}"));
    let preamble: String = std::iter::once(format!(":device {device}\n"))
        .chain(
            INPUT_NAMES
                .iter()
                .map(|n| format!("{n} = to(load(\"in_{n}.npy\"), {device})\n")),
        )
        .collect();
    let runs = parallel(DIFFS, |index, (arr, _)| {
        let out = arrsh(&dir, &format!("{preamble}save(\"out_{index}.npy\", {arr})"));
        // On the gpu, a case that reads one element (`b[0]`) is warned about once: expected.
        let stderr = String::from_utf8_lossy(&out.stderr);
        let quiet = stderr
            .lines()
            .all(|l| l.contains("reads one element of a gpu array"));
        (out.status.success() && quiet)
            .then_some(())
            .ok_or_else(|| describe_failure(&out))
    });
    let mut checker = format!("{PY_COMMON}{PY_CONV2D}\n");
    for n in INPUT_NAMES {
        checker.push_str(&format!("{n} = np.load('in_{n}.npy')\n"));
    }
    checker.push_str("import warnings\nwarnings.simplefilter('ignore')\n");
    for (index, (_, numpy)) in DIFFS.iter().enumerate() {
        if runs[index].is_ok() {
            checker.push_str(&format!(
                "print({index}, compare(np.load('out_{index}.npy'), np.asarray({numpy})) or 'ok')\n"
            ));
        }
    }
    let verdicts = python(&dir, &checker);
    let mut failures = Vec::new();
    for (index, run) in runs.iter().enumerate() {
        if let Err(e) = run {
            failures.push(format!("{:<40} {e}", DIFFS[index].0));
        }
    }
    for line in verdicts.lines() {
        let (index, verdict) = line.split_once(' ').unwrap();
        if verdict != "ok" {
            failures.push(format!(
                "{:<40} {verdict}",
                DIFFS[index.parse::<usize>().unwrap()].0
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "numpy diff on the {device}: {} of {} agree",
        DIFFS.len() - failures.len(),
        DIFFS.len()
    );
    assert!(
        failures.is_empty(),
        "on the {device}, {} of {} differ from NumPy:\n{}",
        failures.len(),
        DIFFS.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// NumPy writes, arrsh reads and prints.

/// Arrays NumPy saves (Python expressions), for arrsh to load.
#[rustfmt::skip]
const NUMPY_WRITES: &[(&str, &str)] = &[
    ("f64_c", "np.arange(12.0).reshape(3, 4) / 8"),
    ("f64_fortran", "np.asfortranarray(np.arange(12.0).reshape(3, 4) - 5)"),
    ("f32_3d_fortran", "np.asfortranarray((np.arange(24).reshape(2, 3, 4) / 7).astype(np.float32))"),
    ("f32_special", "np.array([np.nan, np.inf, -np.inf, -0.0, 1e-45, 3.4028235e38], dtype=np.float32)"),
    ("f64_special", "np.array([np.nan, np.inf, -np.inf, -0.0, 5e-324, 1.7976931348623157e308, 0.1])"),
    ("i64", "np.array([-9223372036854775808, -1, 0, 1, 9223372036854775807])"),
    ("i64_fortran", "np.asfortranarray(np.arange(6).reshape(2, 3) * -3)"),
    ("bool", "np.array([[True, False, True], [False, False, True]])"),
    ("bool_fortran", "np.asfortranarray(np.array([[True, False, True], [False, False, True]]))"),
    ("f64_big_endian", "np.arange(5.0).astype('>f8') * 1.5"),
    ("i64_big_endian", "np.arange(-2, 3).astype('>i8')"),
    ("f32_big_endian", "np.arange(3).astype('>f4') / 4"),
    ("zero_d_f64", "np.array(2.5)"),
    ("zero_d_i64", "np.array(-7)"),
    ("zero_d_bool", "np.array(True)"),
    ("zero_d_f32", "np.array(0.1, dtype=np.float32)"),
    ("empty_f64", "np.zeros(0)"),
    ("empty_i64_0x3", "np.zeros((0, 3), dtype=np.int64)"),
    ("empty_bool_2x0", "np.zeros((2, 0), dtype=bool)"),
    ("one_element", "np.array([[42.0]])"),
    ("long", "np.arange(1500) * 0.5"),
    ("version_2_header", "('v2', np.arange(4.0))"),
    ("version_3_header", "('v3', np.arange(4))"),
];

#[test]
fn arrsh_loads_what_numpy_saves() {
    if !numpy_available() {
        return;
    }
    let dir = work_dir("load");
    let mut writer = format!("{PY_COMMON}\n");
    for (name, expr) in NUMPY_WRITES {
        // NumPy saves the file and writes what arrsh must print for it: dtype, shape, str.
        writer.push_str(&format!(
            "x = {expr}\n\
             if isinstance(x, tuple):\n\
             \x20   with open('{name}.npy', 'wb') as fh: np.lib.format.write_array(fh, x[1], version=(2, 0) if x[0] == 'v2' else (3, 0))\n\
             \x20   x = x[1]\n\
             else:\n\
             \x20   np.save('{name}.npy', x)\n\
             nat = x.astype(x.dtype.newbyteorder('='))\n\
             shape = '(' + ', '.join(str(d) for d in nat.shape) + (',)' if nat.ndim == 1 else ')')\n\
             open('{name}.expected', 'w').write(ARR[nat.dtype] + ' ' + shape + '\\n' + str(nat) + '\\n')\n"
        ));
    }
    python(&dir, &writer);
    let failures: Vec<String> = parallel(NUMPY_WRITES, |_, (name, _)| {
        let want = std::fs::read_to_string(dir.join(format!("{name}.expected"))).unwrap();
        let out = arrsh(
            &dir,
            &format!("x = load(\"{name}.npy\")\nprint(x.dtype, x.shape)\nprint(x)"),
        );
        let got = String::from_utf8_lossy(&out.stdout);
        if out.status.success() && got == want && out.stderr.is_empty() {
            None
        } else if !out.status.success() {
            Some(format!("{name}: {}", describe_failure(&out)))
        } else {
            Some(format!("{name}: printed\n{got}NumPy prints\n{want}"))
        }
    })
    .into_iter()
    .flatten()
    .collect();
    let _ = std::fs::remove_dir_all(&dir);
    let total = NUMPY_WRITES.len();
    println!(
        "numpy→arrsh: {} of {total} files load and print as NumPy",
        total - failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// arrsh writes, NumPy reads.

/// Arrays arrsh saves (arr source) and what `numpy.load` must find in them (Python).
#[rustfmt::skip]
const ARRSH_WRITES: &[(&str, &str)] = &[
    ("reshape(arange(12) * 1.5, [3, 4])", "(np.arange(12) * 1.5).reshape(3, 4)"),
    ("astype(reshape(arange(6), [2, 3]) / 7, f32)", "(np.arange(6).reshape(2, 3) / 7).astype(np.float32)"),
    ("reshape(arange(6), [2, 3]) - 4", "np.arange(6).reshape(2, 3) - 4"),
    ("[9223372036854775807, -9223372036854775807 - 1, 0]", "np.array([9223372036854775807, -9223372036854775808, 0])"),
    ("reshape(arange(6), [2, 3]) % 2 == 0", "np.arange(6).reshape(2, 3) % 2 == 0"),
    ("reshape(arange(12), [3, 4]).T", "np.arange(12).reshape(3, 4).T"),
    ("reshape(arange(12.0), [3, 4])[::2, 1:]", "np.arange(12.0).reshape(3, 4)[::2, 1:]"),
    ("arange(5)[::-1]", "np.arange(5)[::-1]"),
    ("reshape(arange(24), [2, 3, 4])[:, 1]", "np.arange(24).reshape(2, 3, 4)[:, 1]"),
    ("reshape([2.5], [])", "np.array(2.5)"),
    ("7", "np.array(7)"),
    ("0.1", "np.array(0.1)"),
    ("true", "np.array(True)"),
    ("astype(reshape([0.1], []), f32)", "np.array(0.1, dtype=np.float32)"),
    ("zeros(0)", "np.zeros(0)"),
    ("zeros(0, dtype=bool)", "np.zeros(0, dtype=bool)"),
    ("zeros([0, 3], dtype=i64)", "np.zeros((0, 3), dtype=np.int64)"),
    ("[1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, -0.0, 5e-324]", "np.array([np.inf, -np.inf, np.nan, -0.0, 5e-324])"),
    ("astype([1.0 / 0.0, 0.0 / 0.0, 1e-45], f32)", "np.array([np.inf, np.nan, 1e-45], dtype=np.float32)"),
    ("arange(1500) * 0.5", "np.arange(1500) * 0.5"),
    ("eye(3, dtype=bool)", "np.eye(3, dtype=bool)"),
];

#[test]
fn numpy_loads_what_arrsh_saves() {
    if !numpy_available() {
        return;
    }
    let dir = work_dir("save");
    let runs = parallel(ARRSH_WRITES, |index, (arr, _)| {
        let out = arrsh(&dir, &format!("save(\"saved_{index}.npy\", {arr})"));
        (out.status.success() && out.stderr.is_empty())
            .then_some(())
            .ok_or_else(|| describe_failure(&out))
    });
    let mut checker = format!("{PY_COMMON}\n");
    for (index, (_, numpy)) in ARRSH_WRITES.iter().enumerate() {
        if runs[index].is_ok() {
            checker.push_str(&format!(
                "try:\n    got = np.load('saved_{index}.npy', allow_pickle=False)\n    v = compare(got, {numpy})\n\
                 except Exception as e:\n    v = 'numpy.load failed: %s' % e\n\
                 if v is None and np.asarray({numpy}).dtype.kind == 'f' and not np.array_equal(np.signbit(got[got == 0]), np.signbit(np.asarray({numpy})[got == 0])):\n    v = 'signs of zeros differ'\n\
                 print({index}, v or 'ok')\n"
            ));
        }
    }
    let verdicts = python(&dir, &checker);
    let mut failures = Vec::new();
    for (index, run) in runs.iter().enumerate() {
        if let Err(e) = run {
            failures.push(format!("{:<45} {e}", ARRSH_WRITES[index].0));
        }
    }
    for line in verdicts.lines() {
        let (index, verdict) = line.split_once(' ').unwrap();
        if verdict != "ok" {
            failures.push(format!(
                "{:<45} {verdict}",
                ARRSH_WRITES[index.parse::<usize>().unwrap()].0
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "arrsh→numpy: {} of {} files read back equal",
        ARRSH_WRITES.len() - failures.len(),
        ARRSH_WRITES.len()
    );
    assert!(
        failures.is_empty(),
        "{} saved files differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// Printing: NumPy's repr (the echo of an expression) and str (print).

/// arr expression and the NumPy array it must print like.
#[rustfmt::skip]
const PRINTS: &[(&str, &str)] = &[
    ("arange(5)", "np.arange(5)"),
    ("arange(5) * 1.5", "np.arange(5) * 1.5"),
    ("[1.0, 2.0, 3.0]", "np.array([1.0, 2.0, 3.0])"),
    ("[-1, 20, -300]", "np.array([-1, 20, -300])"),
    ("reshape(arange(6), [2, 3])", "np.arange(6).reshape(2, 3)"),
    ("reshape(arange(24.0), [2, 3, 4]) / 7", "np.arange(24.0).reshape(2, 3, 4) / 7"),
    ("astype([0.1, 0.2], f32)", "np.array([0.1, 0.2], dtype=np.float32)"),
    ("astype(reshape(arange(6), [2, 3]), f32) / 3", "np.arange(6).reshape(2, 3).astype(np.float32) / 3"),
    ("arange(4) > 1", "np.arange(4) > 1"),
    ("reshape(arange(4) > 1, [2, 2])", "(np.arange(4) > 1).reshape(2, 2)"),
    ("zeros(0)", "np.zeros(0)"),
    ("zeros(0, dtype=i64)", "np.zeros(0, dtype=np.int64)"),
    ("zeros(0, dtype=f32)", "np.zeros(0, dtype=np.float32)"),
    ("zeros([0, 3])", "np.zeros((0, 3))"),
    ("zeros([2, 0], dtype=bool)", "np.zeros((2, 0), dtype=bool)"),
    ("reshape([2.5], [])", "np.array(2.5)"),
    ("reshape([-7], [])", "np.array(-7)"),
    ("astype(reshape([7], []), f32)", "np.array(7, dtype=np.float32)"),
    ("reshape([true], [])", "np.array(True)"),
    ("arange(2000)", "np.arange(2000)"),
    ("reshape(arange(2000), [2, 1000]) * 0.5", "np.arange(2000).reshape(2, 1000) * 0.5"),
    ("astype(linspace(0, 1, 1001), f32)", "np.linspace(0, 1, 1001).astype(np.float32)"),
    ("arange(30) * 100000", "np.arange(30) * 100000"),
    ("arange(12) * 0.1", "np.arange(12) * 0.1"),
    ("[1e-7, 1.0]", "np.array([1e-7, 1.0])"),
    ("[1e16, 1.0]", "np.array([1e16, 1.0])"),
    ("[1.0 / 0.0, 0.0 / 0.0, -1.0 / 0.0, 2.0]", "np.array([np.inf, np.nan, -np.inf, 2.0])"),
    ("linspace(0, 1, 7)", "np.linspace(0, 1, 7)"),
    ("eye(3, dtype=i64) * -1", "np.eye(3, dtype=np.int64) * -1"),
    ("reshape(arange(8), [2, 2, 2]) * 1000", "np.arange(8).reshape(2, 2, 2) * 1000"),
];

#[test]
fn printing_matches_numpy_repr_and_str() {
    if !numpy_available() {
        return;
    }
    let dir = work_dir("print");
    let mut program = String::from("import numpy as np\n");
    for (index, (_, numpy)) in PRINTS.iter().enumerate() {
        program.push_str(&format!(
            "x = {numpy}\nopen('p{index}.repr', 'w').write(repr(x))\nopen('p{index}.str', 'w').write(str(x))\n"
        ));
    }
    python(&dir, &program);
    let read = |index: usize, ext: &str| {
        std::fs::read_to_string(dir.join(format!("p{index}.{ext}"))).unwrap()
    };
    let expected: Vec<(String, String)> = (0..PRINTS.len())
        .map(|i| (read(i, "repr"), read(i, "str")))
        .collect();
    let failures: Vec<String> = parallel(PRINTS, |index, (arr, _)| {
        let (want_repr, want_str) = &expected[index];
        let mut problems = Vec::new();
        let echo = arrsh_echo(&dir, &format!("{arr}\n"));
        let got = String::from_utf8_lossy(&echo.stdout);
        if got.trim_end_matches('\n') != want_repr || !echo.stderr.is_empty() {
            problems.push(format!(
                "echo (repr) of {arr}:\n{got}{}NumPy:\n{want_repr}",
                String::from_utf8_lossy(&echo.stderr)
            ));
        }
        let printed = arrsh(&dir, &format!("x = {arr}\nprint(x)"));
        let got = String::from_utf8_lossy(&printed.stdout);
        if got.trim_end_matches('\n') != want_str || !printed.stderr.is_empty() {
            problems.push(format!(
                "print (str) of {arr}:\n{got}{}NumPy:\n{want_str}",
                String::from_utf8_lossy(&printed.stderr)
            ));
        }
        problems
    })
    .into_iter()
    .flatten()
    .collect();
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "printing: {} of {} checks match NumPy",
        2 * PRINTS.len() - failures.len(),
        2 * PRINTS.len()
    );
    assert!(
        failures.is_empty(),
        "{} printouts differ:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// Random arrays of every dtype, shape and magnitude (NaN, infinities, signed zeros, wide ints):
/// `print` must show NumPy's str and the echo NumPy's repr, character for character.
const PY_FUZZ: &str = r#"
rng = np.random.default_rng(5)
for t in range(300):
    kind = rng.integers(0, 8)
    shape = tuple(int(d) for d in rng.integers(1, 5, rng.integers(1, 4)))
    if kind == 0: x = rng.standard_normal(shape) * 10.0 ** rng.integers(-12, 12)
    elif kind == 1: x = np.round(rng.standard_normal(shape) * 100, int(rng.integers(0, 4)))
    elif kind == 2: x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-8, 8)).astype(np.float32)
    elif kind == 3: x = rng.integers(-10 ** int(rng.integers(1, 18)), 10 ** int(rng.integers(1, 18)), shape)
    elif kind == 4:
        x = rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 5)
        x.ravel()[rng.integers(0, x.size)] = rng.choice([np.nan, np.inf, -np.inf, 0.0, -0.0])
    elif kind == 5: x = rng.random(shape) > 0.5
    elif kind == 6: x = rng.integers(0, 3, shape) * 10.0 ** rng.integers(-6, 17)
    else: x = (rng.random(shape) * 10.0 ** rng.integers(-5, 9)).astype(np.float32) * rng.choice([1, -1])
    np.save('x%d.npy' % t, x)
    open('x%d.str' % t, 'w').write(str(x) + '\n')
    open('x%d.repr' % t, 'w').write(repr(x) + '\n')
"#;

#[test]
fn printing_of_random_arrays_matches_numpy() {
    if !numpy_available() {
        return;
    }
    let dir = work_dir("fuzz");
    python(&dir, &format!("{PY_COMMON}{PY_FUZZ}"));
    let count = 300;
    let script: String = (0..count)
        .map(|t| format!("print(load(\"x{t}.npy\"))\n"))
        .collect();
    let printed = arrsh(&dir, &script);
    let session: String = (0..count)
        .map(|t| format!("load(\"x{t}.npy\")\n"))
        .collect();
    let echoed = arrsh_echo(&dir, &session);
    let mut failures = Vec::new();
    for (what, out, ext) in [("print", &printed, "str"), ("echo", &echoed, "repr")] {
        if !out.status.success() || !out.stderr.is_empty() {
            failures.push(format!("{what}: {}", describe_failure(out)));
            continue;
        }
        let mut got = String::from_utf8_lossy(&out.stdout).into_owned();
        for t in 0..count {
            let want = std::fs::read_to_string(dir.join(format!("x{t}.{ext}"))).unwrap();
            // each printout is as many lines as NumPy's
            let lines = want.lines().count();
            let split = got
                .match_indices('\n')
                .nth(lines - 1)
                .map_or(got.len(), |(i, _)| i + 1);
            let rest = got.split_off(split);
            if got != want {
                failures.push(format!("{what} of x{t}.npy:\n{got}NumPy:\n{want}"));
            }
            got = rest;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "printing fuzz: {} of {} printouts match NumPy",
        2 * count - failures.len(),
        2 * count
    );
    assert!(
        failures.is_empty(),
        "{} printouts differ:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_tables_are_large_enough() {
    assert!(
        DIFFS.len() >= 60,
        "only {} differential expressions",
        DIFFS.len()
    );
    assert!(NUMPY_WRITES.len() >= 20 && ARRSH_WRITES.len() >= 20 && PRINTS.len() >= 25);
}
