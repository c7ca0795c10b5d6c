//! The `fft` namespace against NumPy's numpy.fft: every function with its main keywords (points
//! above and below the axis's length, axes in any order and repeated, the three norms, odd, even
//! and prime lengths, real and complex inputs of several dtypes, strided views), through the real
//! binary. Inputs are written by NumPy, results saved by arrsh and compared in NumPy: the dtype
//! and shape exactly, values to 1e-5 (f32, c64) or 1e-13 · log2(size) (f64, c128) of the largest
//! magnitude. Each case is one expression, the same text in arr and in Python (where `fft` is
//! `np.fft`). The cases run on the cpu and, when there is one, on the gpu; bad arguments give
//! NumPy's errors; on the gpu, the exact cost of a transform under `:time`.
//!
//! Without python3 and NumPy the comparisons print "skipped: numpy not installed" (CI has NumPy).

mod common;

use common::{numpy_available, python};

const PY_INPUTS: &str = r#"
import numpy as np
rng = np.random.default_rng(20261201)
def complex_of(*shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
inputs = dict(
    c1=complex_of(1), c7=complex_of(7), c16=complex_of(16), c1000=complex_of(1000),
    r1=rng.standard_normal(1), r7=rng.standard_normal(7), r16=rng.standard_normal(16),
    r1000=rng.standard_normal(1000) * 100,
    i9=rng.integers(-50, 50, 9), b4=np.array([True, False, True, True]),
    f12=rng.standard_normal(12).astype(np.float32), z12=complex_of(12).astype(np.complex64),
    h8=rng.standard_normal(8).astype(np.float16),
    m=complex_of(6, 10), mr=rng.standard_normal((5, 8)), mf=rng.standard_normal((8, 6)).astype(np.float32),
    t3=rng.standard_normal((4, 5, 6)), tc=complex_of(3, 4, 5),
)
for name, value in inputs.items():
    np.save('in_%s.npy' % name, value)
print(' '.join(inputs))
"#;

/// Each case, the same expression in arr and in Python.
#[rustfmt::skip]
const CASES: &[&str] = &[
    // one axis: lengths, dtypes, n=, axis=, norm=
    "fft.fft(c1)", "fft.fft(c7)", "fft.fft(c16)", "fft.fft(c1000)", "fft.fft(r7)", "fft.fft(i9)",
    "fft.fft(b4)", "fft.fft(f12)", "fft.fft(z12)", "fft.fft(h8)",
    "fft.fft(c16, n=20)", "fft.fft(c16, n=5)", "fft.fft(c1000, n=1024)", "fft.fft(r7, n=1)",
    "fft.fft(m)", "fft.fft(m, axis=0)", "fft.fft(m, axis=-2, n=9)", "fft.fft(m.T)", "fft.fft(m[:, ::3])",
    "fft.fft(t3, axis=1)", "fft.fft(tc, axis=0, n=2)", "fft.fft(z12, n=7)",
    "fft.fft(c1000, norm=\"ortho\")", "fft.fft(c1000, norm=\"forward\")", "fft.fft(c1000, norm=\"backward\")",
    "fft.ifft(c7)", "fft.ifft(c1000)", "fft.ifft(c1000, norm=\"ortho\")", "fft.ifft(c1000, norm=\"forward\")",
    "fft.ifft(m, axis=0, n=7)", "fft.ifft(f12)",
    "fft.fft(reshape(c1000, [10, 10, 10]), axis=1)", "fft.fft(reshape(c1000, [5, 20, 10]), axis=1)",
    // two and n axes
    "fft.fft2(m)", "fft.ifft2(m)", "fft.fft2(m, s=[4, 12])", "fft.fft2(m, axes=[1, 0])", "fft.fft2(t3)",
    "fft.fft2(t3, axes=[0, 2])", "fft.fft2(mf)", "fft.ifft2(m, norm=\"ortho\")", "fft.fft2(m.T, s=[3, 3])",
    "fft.fftn(tc)", "fft.ifftn(tc)", "fft.fftn(tc, s=[2, 6])", "fft.fftn(tc, axes=[0, 2])",
    "fft.fftn(tc, axes=[2, 0, 1], s=[3, 3, 8])", "fft.fftn(t3, axes=[0, 0])", "fft.fftn(tc, s=[-1, 3])",
    "fft.fftn(m, norm=\"forward\")", "fft.ifftn(tc, axes=[1], norm=\"forward\")", "fft.fftn(tc, axes=[-1, -3])",
    "fft.fftn(reshape(r1000[0:720], [2, 3, 4, 30]))", "fft.fftn(reshape(c1000[0:960], [2, 2, 3, 4, 20]), axes=[1, 2, 3, 4])",
    "fft.fftn(reshape(c1000[0:480], [12, 2, 2, 10]), axes=[1, 2])",
    // real input
    "fft.rfft(r1)", "fft.rfft(r7)", "fft.rfft(r16)", "fft.rfft(r1000)", "fft.rfft(i9)", "fft.rfft(f12)", "fft.rfft(h8)",
    "fft.rfft(r16, n=9)", "fft.rfft(r16, n=30)", "fft.rfft(mr)", "fft.rfft(mr, axis=0)", "fft.rfft(t3, axis=1)",
    "fft.rfft(r1000, norm=\"ortho\")", "fft.rfft(r1000, norm=\"forward\")", "fft.rfft(mr.T)", "fft.rfft(b4)",
    "fft.irfft(c7)", "fft.irfft(c16)", "fft.irfft(c16, n=30)", "fft.irfft(c16, n=7)", "fft.irfft(c1000)",
    "fft.irfft(c7, n=1)", "fft.irfft(m, axis=0)", "fft.irfft(z12)", "fft.irfft(r7)", "fft.irfft(c1000, norm=\"ortho\")",
    "fft.irfft(c1000, norm=\"forward\")", "fft.irfft(tc, axis=1, n=6)", "fft.irfft(m.T, n=11)",
    "fft.rfft2(mr)", "fft.rfft2(mf)", "fft.rfft2(t3)", "fft.rfft2(mr, s=[7, 9])", "fft.rfft2(mr, axes=[1, 0])",
    "fft.irfft2(m)", "fft.irfft2(m, s=[6, 18])", "fft.irfft2(m, axes=[1, 0])", "fft.irfft2(fft.rfft2(mr), s=mr.shape)",
    "fft.irfft2(m, norm=\"ortho\")",
    "fft.rfftn(t3)", "fft.rfftn(t3, axes=[0, 2])", "fft.rfftn(t3, s=[3, 4, 10])", "fft.rfftn(t3, axes=[2, 0])",
    "fft.rfftn(t3, axes=[1, 1])", "fft.rfftn(mf, norm=\"forward\")",
    "fft.irfftn(tc)", "fft.irfftn(tc, axes=[0, 1])", "fft.irfftn(tc, s=[3, 5, 9])", "fft.irfftn(tc, axes=[2, 0])",
    "fft.irfftn(tc, axes=[0, 0])",
    // Hermitian signals
    "fft.hfft(c7)", "fft.hfft(c16, n=20)", "fft.hfft(r7)", "fft.hfft(m, axis=0)", "fft.hfft(z12, norm=\"ortho\")",
    "fft.ihfft(r7)", "fft.ihfft(r16)", "fft.ihfft(r16, n=11, norm=\"ortho\")", "fft.ihfft(mr, axis=0)", "fft.ihfft(f12)",
    // frequencies and shifts
    "fft.fftfreq(8)", "fft.fftfreq(7, 0.1)", "fft.fftfreq(1)", "fft.rfftfreq(8)", "fft.rfftfreq(9, d=2.5)",
    "fft.fftfreq(1000, d=1e-3)", "fft.rfftfreq(1)",
    "fft.fftshift(r7)", "fft.fftshift(m)", "fft.fftshift(m, axes=0)", "fft.fftshift(t3, axes=[0, 2])",
    "fft.ifftshift(r16)", "fft.ifftshift(m)", "fft.ifftshift(fft.fftshift(t3))", "fft.fftshift(fft.fftfreq(10))",
    "fft.fftshift(i9)",
];

const PY_COMPARE: &str = r#"
import numpy as np, os, math
def verdict(index, code, env):
    path = 'out_%d.npy' % index
    try:
        want = np.asarray(eval(code, env))
    except Exception as e:
        return 'NumPy refuses it (%s: %s)' % (type(e).__name__, e)
    if not os.path.exists(path):
        return 'arrsh refused it; NumPy gives %s %s' % (want.dtype, want.shape)
    got = np.load(path)
    if got.dtype != want.dtype:
        return 'dtype %s, NumPy %s' % (got.dtype, want.dtype)
    if got.shape != want.shape:
        return 'shape %s, NumPy %s' % (got.shape, want.shape)
    if want.size == 0:
        return None
    if want.dtype.kind in 'iub':
        return None if np.array_equal(got, want) else 'values %s, NumPy %s' % (got.tolist(), want.tolist())
    single = want.dtype in (np.float32, np.complex64)
    tol = 1e-5 if single else 1e-13 * max(1.0, math.log2(want.size))
    scale = max(float(np.abs(want.astype(np.complex128)).max()), 1e-300)
    err = float(np.abs(got.astype(np.complex128) - want.astype(np.complex128)).max())
    if not err <= tol * scale:
        k = int(np.argmax(np.abs(got.astype(np.complex128) - want.astype(np.complex128))))
        return 'differs by %.3g of the largest magnitude (tolerance %.3g): %r vs NumPy %r' % (
            err / scale, tol, got.ravel()[k], want.ravel()[k])
    return None
"#;

fn check(device: &str) {
    let dir = common::work_dir("fft", device);
    let names = python(&dir, PY_INPUTS);
    let names: Vec<&str> = names.split_whitespace().collect();
    let mut script: String = names
        .iter()
        .map(|n| format!("{n} = load(\"in_{n}.npy\")\n"))
        .collect();
    let first_case_line = names.len() + 1;
    for (index, case) in CASES.iter().enumerate() {
        script.push_str(&format!("save(\"out_{index}.npy\", {case})\n"));
    }
    // As a piped session: a failed line leaves the others running, and its error names the line.
    let out = common::run_stdin(&["--device", device], &dir, &script);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    let mut refusals = vec![String::new(); CASES.len()];
    for line in stderr.lines() {
        if let Some(rest) = line.strip_prefix("<input ") {
            let number: usize = rest.split('>').next().unwrap().parse().unwrap();
            refusals[number - first_case_line] = line.to_string();
        }
    }
    let mut checker =
        format!("{PY_COMPARE}\nenv = {{'np': np, 'fft': np.fft, 'reshape': np.reshape}}\n");
    for n in &names {
        checker.push_str(&format!("env['{n}'] = np.load('in_{n}.npy')\n"));
    }
    for (index, case) in CASES.iter().enumerate() {
        checker.push_str(&format!(
            "print({index}, verdict({index}, {case:?}, env) or 'ok')\n"
        ));
    }
    let verdicts = python(&dir, &checker);
    let failures: Vec<String> = verdicts
        .lines()
        .filter_map(|line| {
            let (index, verdict) = line.split_once(' ').unwrap();
            let index: usize = index.parse().unwrap();
            (verdict != "ok").then(|| format!("{:<48} {verdict} {}", CASES[index], refusals[index]))
        })
        .collect();
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "{device}: {} of {} cases agree with NumPy",
        CASES.len() - failures.len(),
        CASES.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from NumPy on the {device}:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn every_function_matches_numpy_on_the_cpu() {
    if numpy_available() {
        check("cpu");
    }
}

#[test]
fn every_function_matches_numpy_on_the_gpu() {
    if numpy_available() && common::gpu_or_skip("the gpu fft cases") {
        check("gpu");
    }
}

/// Bad points, axes and norms: NumPy's errors, at the call.
const ERRORS: &[(&str, &str)] = &[
    (
        "fft.fft(x, n=0)",
        "Invalid number of FFT data points (0) specified.",
    ),
    (
        "fft.fft(x, n=-2)",
        "Invalid number of FFT data points (-2) specified.",
    ),
    ("fft.ifft(x, n=2.5)", "n must be an integer"),
    (
        "fft.irfft([1])",
        "Invalid number of FFT data points (0) specified.",
    ),
    (
        "fft.hfft(ones(1))",
        "Invalid number of FFT data points (0) specified.",
    ),
    (
        "fft.fftn(x, s=[0])",
        "Invalid number of FFT data points (0) specified.",
    ),
    (
        "fft.rfft(zeros(0))",
        "Invalid number of FFT data points (0) specified.",
    ),
    (
        "fft.fft(x, axis=1)",
        "axis 1 is out of bounds for array of dimension 1",
    ),
    (
        "fft.rfft(x, axis=-2)",
        "axis -2 is out of bounds for array of dimension 1",
    ),
    (
        "fft.fft2(x)",
        "axis -2 is out of bounds for array of dimension 1",
    ),
    (
        "fft.fftn(x, s=[2, 3])",
        "axis -2 is out of bounds for array of dimension 1",
    ),
    (
        "fft.fft(3.0)",
        "axis -1 is out of bounds for array of dimension 0",
    ),
    (
        "fft.fftn(reshape(x, [2, 4]), s=[2, 3], axes=[0])",
        "Shape and axes have different lengths.",
    ),
    (
        "fft.fft(x, norm=\"bad\")",
        "Invalid norm value bad; should be \"backward\",\"ortho\" or \"forward\".",
    ),
    (
        "fft.rfft2(reshape(x, [2, 4]), norm=1)",
        "norm must be \"backward\", \"ortho\" or \"forward\"",
    ),
    (
        "fft.rfft(x * 1j)",
        "a real transform takes real input, not c128",
    ),
    (
        "fft.rfftn(reshape(x, [2, 4]), axes=[])",
        "a real transform needs at least one axis",
    ),
    ("fft.fftfreq(0)", "float division by zero"),
    ("fft.rfftfreq(4, d=0)", "float division by zero"),
    ("fft.fftfreq(-3)", "negative dimensions are not allowed"),
    ("fft.fftfreq(4.5)", "n must be an integer"),
    (
        "fft.fftshift(x, axes=3)",
        "axis 3 is out of bounds for array of dimension 1",
    ),
    ("fft.fft(x, bogus=1)", "unexpected keyword argument `bogus`"),
];

fn check_errors(device: &str) {
    let dir = common::work_dir("fft-errors", device);
    let failures: Vec<String> = common::parallel(ERRORS, |_, (code, words)| {
        let program = format!("x = arange(8.0, device={device})\ny = {code}");
        let out = common::run_code(&program, &dir);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let first = stderr.lines().next().unwrap_or("");
        let fine = out.status.code() == Some(1)
            && first.starts_with("<-e>:2:")
            && first.contains(words)
            && !stderr.contains("panicked");
        (!fine).then(|| {
            format!(
                "{code}: exit {:?}, {first:?} lacks {words:?}",
                out.status.code()
            )
        })
    })
    .into_iter()
    .flatten()
    .collect();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "on the {device}:\n{}",
        failures.join("\n")
    );
}

#[test]
fn bad_points_axes_and_norms_are_numpys_errors() {
    check_errors("cpu");
}

#[test]
fn bad_points_axes_and_norms_are_numpys_errors_on_the_gpu() {
    if common::gpu_or_skip("the gpu fft errors") {
        check_errors("gpu");
    }
}

/// The `:time` line of the statement on line `line` of `code` run on the gpu.
fn gpu_time_line(code: &str, line: usize) -> String {
    let out = common::run_code(code, &std::env::temp_dir());
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let times: Vec<&str> = stderr.lines().filter(|l| l.starts_with("time ")).collect();
    let timed_from = code.lines().position(|l| l == ":time on").unwrap() + 2;
    times[line - timed_from].to_string()
}

/// A transform of a contiguous gpu array is one cuFFT execution (counted as one kernel) and no
/// copy between host and device: `fft.fft` of a c128 vector, and `rfft2` of an f32 image, which
/// is one 2-d real-to-complex plan.
#[test]
fn a_gpu_transform_is_one_kernel_and_no_transfer() {
    if !common::gpu_or_skip("the gpu fft counts") {
        return;
    }
    let code = "x = randn(1 << 20, device=gpu) + randn(1 << 20, device=gpu) * 1j\n\
                img = randn([512, 512], dtype=f32, device=gpu)\n\
                y = fft.fft(x)\n\
                z = fft.rfft2(img)\n\
                sync()\n\
                :time on\n\
                y = fft.fft(x)\n\
                z = fft.rfft2(img)\n\
                sync()\n\
                :time off\n\
                assert(y.dtype == c128 and z.dtype == c64 and z.shape[0] == 512 and z.shape[1] == 257)";
    for line in [7, 8] {
        let time = gpu_time_line(code, line);
        for part in ["H→D 0", "D→H 0", "kernels 1 ", "allocs 1"] {
            assert!(time.contains(part), "line {line}: {part:?} not in {time:?}");
        }
    }
}
