//! Differential tests against NumPy: the same computation in arr (through the real `arrsh` binary)
//! and in Python/NumPy must give the same dtype, the same shape and the same values (exact for
//! integers and bools, within 1e-12 relative for f64 and 1e-6 for f32).
//!
//! Inputs are written by NumPy (seeded), read by arrsh with `load`, and arrsh's results come back
//! through `save`, so nothing here depends on how either side prints numbers. Other tests check the
//! `.npy` round trip in both directions and that arrsh prints what NumPy prints.
//!
//! Without python3 and NumPy the tests print "skipped: numpy not installed" and pass (CI has NumPy).

mod common;

use std::path::Path;
use std::process::Output;

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

/// One computation: arr source and its NumPy twin. Host scalars from arr are saved as 0-d arrays,
/// so the NumPy side wraps its scalars the same way. Where the spec's reduced promotion chain
/// (bool < i64 < f32 < f64) differs from NumPy's, the NumPy side casts to the spec's dtype.
#[rustfmt::skip]
const DIFFS: &[(&str, &str)] = &[
    // elementwise arithmetic and promotion
    ("a + b", "a + b"),
    ("a * 2.5 - 1", "a * 2.5 - 1"),
    ("a / b", "a / b"),
    ("a ** 2", "a ** 2"),
    ("a ** 3 / 7", "a ** 3 / 7"),
    ("pos ** b[0]", "pos ** b[0]"),
    ("-a + c.T", "-a + c.T"),
    ("i + j", "i + j"),
    ("i * j - 3", "i * j - 3"),
    ("i / j", "i / j"),
    ("i * 2.5", "i * 2.5"),
    ("i % j", "i % j"),
    ("k % 3", "k % 3"),
    ("k % -4", "k % -4"),
    ("a % 3.0", "a % 3.0"),
    ("(-a) % -2.5", "(-a) % -2.5"),
    ("k ** 2", "k ** 2"),
    ("2 ** j + j ** 3", "2 ** j + j ** 3"),
    ("f * 2.5", "f * np.float32(2.5)"),
    ("f + 1", "f + 1"),
    ("f / 3", "f / 3"),
    ("f + a", "f + a"),
    ("f + i", "f + i"),
    ("m + m", "m + m"),
    ("m * i", "m * i"),
    ("m + 0.5", "m + 0.5"),
    ("a / 0.0", "a / 0.0"),
    ("n * 2", "n * 2"),
    // elementwise functions
    ("abs(a)", "np.abs(a)"),
    ("abs(k)", "np.abs(k)"),
    ("sqrt(abs(a))", "np.sqrt(np.abs(a))"),
    ("exp(a / 10)", "np.exp(a / 10)"),
    ("exp(big)", "np.exp(big)"),
    ("log(pos)", "np.log(pos)"),
    ("log2(pos) + log10(pos)", "np.log2(pos) + np.log10(pos)"),
    ("sin(a)", "np.sin(a)"),
    ("cos(a)", "np.cos(a)"),
    ("tan(b)", "np.tan(b)"),
    ("tanh(a / 5)", "np.tanh(a / 5)"),
    ("sqrt(f * f)", "np.sqrt(f * f)"),
    ("floor(a)", "np.floor(a)"),
    ("ceil(a)", "np.ceil(a)"),
    ("round(h)", "np.round(h)"),
    ("round(a * 10)", "np.round(a * 10)"),
    ("sign(a)", "np.sign(a)"),
    ("sign(k)", "np.sign(k)"),
    ("isnan(n)", "np.isnan(n)"),
    ("isinf(a / 0.0)", "np.isinf(a / 0.0)"),
    ("where(a > 0, a, 0)", "np.where(a > 0, a, 0)"),
    ("where(m, i, -i)", "np.where(m, i, -i)"),
    ("clip(a, -3, 4.5)", "np.clip(a, -3, 4.5)"),
    ("clip(i, -5, 5)", "np.clip(i, -5, 5)"),
    ("maximum(a, c.T)", "np.maximum(a, c.T)"),
    ("minimum(i, 0)", "np.minimum(i, 0)"),
    ("maximum(n, 1.0)", "np.maximum(n, 1.0)"),
    ("minimum(n, t[0:6])", "np.minimum(n, t[0:6])"),
    // comparisons
    ("a == c.T", "a == c.T"),
    ("a < 0", "a < 0"),
    ("i != j", "i != j"),
    ("n == n", "n == n"),
    ("n != n", "n != n"),
    ("i >= a", "i >= a"),
    // reductions
    ("sum(a)", "np.sum(a)"),
    ("sum(a, axis=0)", "np.sum(a, axis=0)"),
    ("sum(a, axis=1)", "np.sum(a, axis=1)"),
    ("sum(i, axis=-1)", "np.sum(i, axis=-1)"),
    ("sum(big)", "np.sum(big)"),
    ("sum(m)", "np.sum(m)"),
    ("sum(m, axis=0)", "np.sum(m, axis=0)"),
    ("prod(i[0])", "np.prod(i[0])"),
    ("prod(a, axis=1)", "np.prod(a, axis=1)"),
    ("mean(a)", "np.mean(a)"),
    ("mean(a, axis=0)", "np.mean(a, axis=0)"),
    ("mean(i, axis=1)", "np.mean(i, axis=1)"),
    ("mean(big)", "np.mean(big)"),
    ("mean(m)", "np.mean(m)"),
    ("std(a)", "np.std(a)"),
    ("std(a, axis=1)", "np.std(a, axis=1)"),
    ("std(big)", "np.std(big)"),
    ("var(a)", "np.var(a)"),
    ("var(i, axis=0)", "np.var(i, axis=0)"),
    ("var(pos * 1e8 + 1e9)", "np.var(pos * 1e8 + 1e9)"),
    ("min(a, axis=0)", "np.min(a, axis=0)"),
    ("max(i)", "np.max(i)"),
    ("max(n)", "np.max(n)"),
    ("min(reshape(n, [2, 3]), axis=1)", "np.min(n.reshape(2, 3), axis=1)"),
    ("argmin(a)", "np.argmin(a)"),
    ("argmax(a, axis=1)", "np.argmax(a, axis=1)"),
    ("argmax(t)", "np.argmax(t)"),
    ("argmin(t)", "np.argmin(t)"),
    ("argmax(reshape(t, [2, 4]), axis=1)", "np.argmax(t.reshape(2, 4), axis=1)"),
    ("argmax(n)", "np.argmax(n)"),
    ("argmin(n)", "np.argmin(n)"),
    ("any(m, axis=0)", "np.any(m, axis=0)"),
    ("all(m, axis=1)", "np.all(m, axis=1)"),
    ("any(i > 15)", "np.any(i > 15)"),
    ("all(j > 0)", "np.all(j > 0)"),
    ("cumsum(a)", "np.cumsum(a)"),
    ("cumsum(a, axis=0)", "np.cumsum(a, axis=0)"),
    ("cumsum(i, axis=1)", "np.cumsum(i, axis=1)"),
    ("cumsum(m)", "np.cumsum(m)"),
    ("cumsum(big)", "np.cumsum(big)"),
    // linear algebra and the image filter
    ("a @ c", "a @ c"),
    ("c @ a", "c @ a"),
    ("a @ b", "a @ b"),
    ("b @ b", "b @ b"),
    ("dot(i, j)", "np.dot(i, j)"),
    ("matmul(i, i.T)", "np.matmul(i, i.T)"),
    ("outer(b, j)", "np.outer(b, j)"),
    ("f @ f.T", "f @ f.T"),
    ("conv2d(img, ker)", "conv2d(img, ker)"),
    ("conv2d(img, ker53)", "conv2d(img, ker53)"),
    ("conv2d(img, ker22)", "conv2d(img, ker22)"),
    ("conv2d(img.T, ker)", "conv2d(img.T, ker)"),
    // constructors
    ("linspace(0, 1, 11)", "np.linspace(0, 1, 11)"),
    ("linspace(-3.5, 7, 50)", "np.linspace(-3.5, 7, 50)"),
    ("linspace(1, 0, 7)", "np.linspace(1, 0, 7)"),
    ("arange(0.1, 2.3, 0.3)", "np.arange(0.1, 2.3, 0.3)"),
    ("arange(-5, 17, 3)", "np.arange(-5, 17, 3)"),
    ("arange(10, 0, -3)", "np.arange(10, 0, -3)"),
    ("arange(0, 1, 0.1)", "np.arange(0, 1, 0.1)"),
    ("eye(4)", "np.eye(4)"),
    ("full([2, 3], -1.5)", "np.full((2, 3), -1.5)"),
    // types
    ("astype(a, i64)", "a.astype(np.int64)"),
    ("astype(h, i64)", "h.astype(np.int64)"),
    ("astype(a, f32)", "a.astype(np.float32)"),
    ("astype(i, bool)", "i.astype(bool)"),
    ("astype(m, f64)", "m.astype(np.float64)"),
    ("astype(f, f64)", "f.astype(np.float64)"),
    ("astype(astype(a, f32), i64)", "a.astype(np.float32).astype(np.int64)"),
    // indexing and shapes
    ("a[m]", "a[m]"),
    ("i[i > 0]", "i[i > 0]"),
    ("b[[3, 0, 0, -1]]", "b[[3, 0, 0, -1]]"),
    ("a[1:, ::2]", "a[1:, ::2]"),
    ("a[::-1, 1]", "a[::-1, 1]"),
    ("a.T", "a.T"),
    ("reshape(a, [2, 6])", "a.reshape(2, 6)"),
    ("ravel(a.T)", "np.ravel(a.T)"),
    ("concatenate([a, c.T], axis=1)", "np.concatenate([a, c.T], axis=1)"),
    ("stack([b, b * 2], axis=1)", "np.stack([b, b * 2], axis=1)"),
    ("transpose(reshape(big[0:24], [2, 3, 4]))", "np.transpose(big[0:24].reshape(2, 3, 4))"),
    // f32 stays f32 (weak host scalars), in reductions too
    ("sum(f, axis=0)", "np.sum(f, axis=0)"),
    ("mean(f, axis=1)", "np.mean(f, axis=1)"),
    ("std(f, axis=0)", "np.std(f, axis=0)"),
    ("cumsum(f, axis=1)", "np.cumsum(f, axis=1)"),
    ("max(f, axis=1)", "np.max(f, axis=1)"),
    ("exp(f)", "np.exp(f)"),
    ("-f", "-f"),
    ("minimum(f, 0.5)", "np.minimum(f, 0.5)"),
    ("where(m, f, 2.5)", "np.where(m, f, np.float32(2.5))"),
    ("f @ astype(c, f32)", "f @ c.astype(np.float32)"),
    ("linspace(0, 1, 5, dtype=f32)", "np.linspace(0, 1, 5, dtype=np.float32)"),
    ("arange(0, 1, 0.125, dtype=f32)", "np.arange(0, 1, 0.125, dtype=np.float32)"),
    ("eye(3, dtype=f32)", "np.eye(3, dtype=np.float32)"),
    // i64 arrays wrap on overflow as NumPy's do
    ("i * 922337203685477580", "i * 922337203685477580"),
    ("prod(arange(1, 30))", "np.prod(np.arange(1, 30))"),
    ("arange(3) ** 100", "np.arange(3) ** 100"),
    // bools mixed with numbers
    ("1 - m", "1 - m"),
    ("m * 2.5", "m * 2.5"),
    ("maximum(m, i)", "np.maximum(m, i)"),
    ("where(m, 1, 0)", "np.where(m, 1, 0)"),
    ("sum(i > 0, axis=1)", "np.sum(i > 0, axis=1)"),
    ("cumsum(m, axis=0)", "np.cumsum(m, axis=0)"),
    ("var(m)", "np.var(m)"),
    ("full(3, true)", "np.full(3, True)"),
    // NaN and infinities
    ("where(n > 0, n, -1.0)", "np.where(n > 0, n, -1.0)"),
    ("clip(n, 0, 2)", "np.clip(n, 0, 2)"),
    ("argmax(reshape(n, [2, 3]), axis=1)", "np.argmax(n.reshape(2, 3), axis=1)"),
    ("astype(n, bool)", "n.astype(bool)"),
    ("sign(n)", "np.sign(n)"),
    ("sqrt(a)", "np.sqrt(a)"),
    ("log(pos * 0)", "np.log(pos * 0)"),
    ("floor(-h) + h % 1.0", "np.floor(-h) + h % 1.0"),
    ("mean(i)", "np.mean(i)"),
    ("std(i)", "np.std(i)"),
    ("astype(a * 1e17, i64)", "(a * 1e17).astype(np.int64)"),
    ("c @ a @ b", "c @ a @ b"),
    ("reshape(a, [4, 3]) @ a", "a.reshape(4, 3) @ a"),
    // indexing as NumPy's (issue: NumPy's array functions)
    ("a[none]", "a[None]"),
    ("a[..., 1]", "a[..., 1]"),
    ("a[:, none, 2]", "a[:, None, 2]"),
    ("a[[0, 2], [1, 3]]", "a[[0, 2], [1, 3]]"),
    ("a[:, [0, 3]]", "a[:, [0, 3]]"),
    ("a[[[0], [2]], [1, 3]]", "a[[[0], [2]], [1, 3]]"),
    ("a[1:, [3, 0, -1]]", "a[1:, [3, 0, -1]]"),
    ("reshape(arange(24), [2, 3, 4])[0, :, [1, 3]]", "np.arange(24).reshape(2, 3, 4)[0, :, [1, 3]]"),
    ("reshape(arange(24), [2, 3, 4])[[1, 0], :, [3, 2]]", "np.arange(24).reshape(2, 3, 4)[[1, 0], :, [3, 2]]"),
    ("a[m]", "a[m]"),
    ("a[m[:, 0]]", "a[m[:, 0]]"),
    ("a[sum(a, axis=1) > 0]", "a[np.sum(a, axis=1) > 0]"),
    ("a[:, m[0]]", "a[:, m[0]]"),
    ("a[true].shape[0] + a[false].shape[0]", "np.array(a[True].shape[0] + a[False].shape[0])"),
    ("a[::-1, [1, 2]]", "a[::-1, [1, 2]]"),
    ("f[[0, 0, 2]]", "f[[0, 0, 2]]"),
    ("take(a, [1, 5, -1])", "np.take(a, [1, 5, -1])"),
    ("take(a, [2, 0], axis=1)", "np.take(a, [2, 0], axis=1)"),
    ("take_along_axis(a, argsort(a, axis=1), 1)", "np.take_along_axis(a, np.argsort(a, axis=1, kind='stable'), 1)"),
    // manipulation
    ("transpose(reshape(arange(24.0), [2, 3, 4]), [1, 0, 2])", "np.transpose(np.arange(24.0).reshape(2, 3, 4), [1, 0, 2])"),
    ("moveaxis(reshape(arange(24), [2, 3, 4]), [0, 1], [-1, -2])", "np.moveaxis(np.arange(24).reshape(2, 3, 4), [0, 1], [-1, -2])"),
    ("swapaxes(a, 0, 1)", "np.swapaxes(a, 0, 1)"),
    ("expand_dims(b, [0, 2])", "np.expand_dims(b, (0, 2))"),
    ("squeeze(a[none, :, none, 1])", "np.squeeze(a[None, :, None, 1])"),
    ("flip(a)", "np.flip(a)"),
    ("flip(a, axis=1)", "np.flip(a, axis=1)"),
    ("fliplr(i) + flipud(i)", "np.fliplr(i) + np.flipud(i)"),
    ("broadcast_to(b, [3, 4]) * 1", "np.broadcast_to(b, (3, 4)) * 1"),
    ("broadcast_arrays(b, c[:, :1])[1] * 1", "np.broadcast_arrays(b, c[:, :1])[1] * 1"),
    ("atleast_3d(b)", "np.atleast_3d(b)"),
    ("concatenate([a, a], axis=none)", "np.concatenate([a, a], axis=None)"),
    ("concatenate([a, i], axis=1)", "np.concatenate([a, i], axis=1)"),
    ("hstack([b, j])", "np.hstack([b, j])"),
    ("vstack([b, j])", "np.vstack([b, j])"),
    ("dstack([a, a])", "np.dstack([a, a])"),
    ("column_stack([b, j])", "np.column_stack([b, j])"),
    ("stack([a, a], axis=-1)", "np.stack([a, a], axis=-1)"),
    ("tile(b, [2, 2])", "np.tile(b, (2, 2))"),
    ("repeat(a, 2, axis=1)", "np.repeat(a, 2, axis=1)"),
    ("repeat(j, [1, 0, 2, 1])", "np.repeat(j, [1, 0, 2, 1])"),
    ("roll(a, 2)", "np.roll(a, 2)"),
    ("roll(a, [1, -1], axis=[0, 1])", "np.roll(a, [1, -1], axis=[0, 1])"),
    ("pad(a, 1)", "np.pad(a, 1)"),
    ("pad(a, [[1, 2], [0, 1]], mode=\"edge\")", "np.pad(a, [[1, 2], [0, 1]], mode='edge')"),
    ("pad(a, 2, mode=\"reflect\")", "np.pad(a, 2, mode='reflect')"),
    ("pad(b, [3, 1], mode=\"wrap\")", "np.pad(b, [3, 1], mode='wrap')"),
    ("split(b, 2)[1]", "np.split(b, 2)[1]"),
    ("array_split(big, 3)[2]", "np.array_split(big, 3)[2]"),
    ("split(a, [1, 3], axis=1)[1]", "np.split(a, [1, 3], axis=1)[1]"),
    ("unstack(a, axis=1)[2]", "np.unstack(a, axis=1)[2]"),
    ("reshape(a, [4, 3], order=\"F\")", "np.reshape(a, (4, 3), order='F')"),
    ("a.mT", "a.mT"),
    // sorting, searching, sets
    ("sort(big)", "np.sort(big)"),
    ("sort(n)", "np.sort(n)"),
    ("sort(a, axis=0)", "np.sort(a, axis=0)"),
    ("sort(i, axis=none)", "np.sort(i, axis=None)"),
    ("sort(f)", "np.sort(f)"),
    ("sort(t, descending=true)", "-np.sort(-t)"),
    ("argsort(t)", "np.argsort(t, kind='stable')"),
    ("argsort(big)", "np.argsort(big, kind='stable')"),
    ("argsort(i, axis=0)", "np.argsort(i, axis=0, kind='stable')"),
    ("argsort(n)", "np.argsort(n, kind='stable')"),
    ("sort(m, axis=1)", "np.sort(m, axis=1)"),
    ("lexsort([j, i[0]])", "np.lexsort([j, i[0]])"),
    ("partition(big, 10)[10]", "np.partition(big, 10)[10]"),
    ("argmax(a, axis=1, keepdims=true)", "np.argmax(a, axis=1, keepdims=True)"),
    ("argmin(i, axis=0)", "np.argmin(i, axis=0)"),
    ("nonzero(i > 5)[1]", "np.nonzero(i > 5)[1]"),
    ("argwhere(m)", "np.argwhere(m)"),
    ("flatnonzero(i > 0)", "np.flatnonzero(i > 0)"),
    ("where(m)[0]", "np.where(m)[0]"),
    ("count_nonzero(i, axis=1)", "np.count_nonzero(i, axis=1)"),
    ("count_nonzero(m)", "np.array(np.count_nonzero(m))"),
    ("searchsorted(sort(big), big[:20])", "np.searchsorted(np.sort(big), big[:20])"),
    ("searchsorted(t[[5, 0, 3, 1]], [0, 1, 1.5, 5], side=\"right\")", "np.searchsorted(t[[5, 0, 3, 1]], [0, 1, 1.5, 5], side='right')"),
    ("unique(t)", "np.unique(t)"),
    ("unique(i, return_counts=true)[1]", "np.unique(i, return_counts=True)[1]"),
    ("unique(t, return_index=true)[1]", "np.unique(t, return_index=True)[1]"),
    ("unique(i, return_inverse=true)[1]", "np.unique(i, return_inverse=True)[1]"),
    ("unique(n)", "np.unique(n)"),
    ("unique_values(n)", "np.unique_values(n)"),
    ("unique(reshape(t, [4, 2]), axis=0)", "np.unique(t.reshape(4, 2), axis=0)"),
    ("isin(i, j)", "np.isin(i, j)"),
    ("intersect1d(i, j)", "np.intersect1d(i, j)"),
    ("union1d(j, k)", "np.union1d(j, k)"),
    ("setdiff1d(i, j)", "np.setdiff1d(i, j)"),
    // statistics
    ("sum(a, axis=[0, 1])", "np.sum(a, axis=(0, 1))"),
    ("mean(reshape(arange(24.0), [2, 3, 4]), axis=[0, 2])", "np.mean(np.arange(24.0).reshape(2, 3, 4), axis=(0, 2))"),
    ("sum(a, axis=1, keepdims=true)", "np.sum(a, axis=1, keepdims=True)"),
    ("max(i, axis=[1, 0])", "np.array(np.max(i, axis=(1, 0)))"),
    ("std(a, axis=0, correction=1)", "np.std(a, axis=0, ddof=1)"),
    ("var(a, keepdims=true)", "np.var(a, keepdims=True)"),
    ("sum(i, axis=0, dtype=f32)", "np.sum(i, axis=0, dtype=np.float32)"),
    ("sum(i, dtype=f32)", "np.float64(np.sum(i, dtype=np.float32))"),
    ("mean(f, axis=1, dtype=f64)", "np.mean(f, axis=1, dtype=np.float64)"),
    ("cumprod(j)", "np.cumprod(j)"),
    ("cumprod(a, axis=0)", "np.cumprod(a, axis=0)"),
    ("cumulative_sum(j, include_initial=true)", "np.cumulative_sum(j, include_initial=True)"),
    ("median(big)", "np.median(big)"),
    ("median(a, axis=1)", "np.median(a, axis=1)"),
    ("median(i)", "np.median(i)"),
    ("median(n)", "np.median(n)"),
    ("quantile(big, [0.1, 0.5, 0.9])", "np.quantile(big, [0.1, 0.5, 0.9])"),
    ("percentile(a, 30, axis=0)", "np.percentile(a, 30, axis=0)"),
    ("quantile(i, 0.25, axis=1, keepdims=true)", "np.quantile(i, 0.25, axis=1, keepdims=True)"),
    ("nanmedian(n)", "np.nanmedian(n)"),
    ("nansum(n)", "np.nansum(n)"),
    ("nanmean(n)", "np.nanmean(n)"),
    ("nanmax(n)", "np.nanmax(n)"),
    ("nanmin(reshape(n, [2, 3]), axis=1)", "np.nanmin(n.reshape(2, 3), axis=1)"),
    ("nanargmax(n)", "np.array(np.nanargmax(n))"),
    ("nanvar(n, ddof=1)", "np.nanvar(n, ddof=1)"),
    ("nanstd(reshape(n, [3, 2]), axis=0)", "np.nanstd(n.reshape(3, 2), axis=0)"),
    ("average(a, axis=1, weights=j)", "np.average(a, axis=1, weights=j)"),
    ("average(i)", "np.average(i)"),
    ("ptp(a, axis=0)", "np.ptp(a, axis=0)"),
    ("bincount(j)", "np.bincount(j)"),
    ("bincount(j, weights=b, minlength=12)", "np.bincount(j, weights=b, minlength=12)"),
    ("histogram(big)[0]", "np.histogram(big)[0]"),
    ("histogram(big, bins=7)[1]", "np.histogram(big, bins=7)[1]"),
    ("histogram(big, bins=[-500, 0, 10, 2000])[0]", "np.histogram(big, bins=[-500, 0, 10, 2000])[0]"),
    ("histogram(a, bins=4, range=[-5, 5], density=true)[0]", "np.histogram(a, bins=4, range=(-5, 5), density=True)[0]"),
    ("histogram_bin_edges(f, bins=3)", "np.histogram_bin_edges(f, bins=3)"),
    ("histogram(f, bins=5)[0]", "np.histogram(f, bins=5)[0]"),
    ("histogram(concatenate([big, big * 3, -big]), bins=50)[0]", "np.histogram(np.concatenate([big, big * 3, -big]), bins=50)[0]"),
    ("histogram_bin_edges(concatenate([big, big * 3, -big]), bins=50)", "np.histogram_bin_edges(np.concatenate([big, big * 3, -big]), bins=50)"),
    ("digitize(a, [-10, 0, 10])", "np.digitize(a, [-10, 0, 10])"),
    ("digitize(b, [1, 0, -1], right=true)", "np.digitize(b, [1, 0, -1], right=True)"),
    ("diff(a)", "np.diff(a)"),
    ("diff(i, n=2, axis=0)", "np.diff(i, n=2, axis=0)"),
    ("diff(m, axis=1)", "np.diff(m, axis=1)"),
    ("diff(j, prepend=0, append=9)", "np.diff(j, prepend=0, append=9)"),
    ("ediff1d(j, to_begin=-1)", "np.ediff1d(j, to_begin=-1)"),
    ("gradient(b)", "np.gradient(b)"),
    ("gradient(a, 0.5, axis=1)", "np.gradient(a, 0.5, axis=1)"),
    ("cov(a)", "np.cov(a)"),
    ("cov(a, rowvar=false, bias=true)", "np.cov(a, rowvar=False, bias=True)"),
    ("corrcoef(a)", "np.corrcoef(a)"),
    ("corrcoef(b, j)", "np.corrcoef(b, j)"),
    ("trapezoid(a)", "np.trapezoid(a)"),
    ("trapezoid(b, x=j)", "np.trapezoid(b, x=j)"),
    ("convolve(b, j)", "np.convolve(b, j)"),
    ("convolve(big, b, mode=\"same\")", "np.convolve(big, b, mode='same')"),
    ("convolve(b, big, mode=\"valid\")", "np.convolve(b, big, mode='valid')"),
    // creation, data types, contractions
    ("eye(3, 4, k=1)", "np.eye(3, 4, k=1)"),
    ("eye(4, 3, k=-2, dtype=i32)", "np.eye(4, 3, k=-2, dtype=np.int32)"),
    ("identity(3)", "np.identity(3)"),
    ("linspace(0, 1, 7, endpoint=false)", "np.linspace(0, 1, 7, endpoint=False)"),
    ("linspace(-3, 5, 9)", "np.linspace(-3, 5, 9)"),
    ("logspace(0, 2, 5)", "np.logspace(0, 2, 5)"),
    ("logspace(1, 3, 3, base=2.0)", "np.logspace(1, 3, 3, base=2.0)"),
    ("meshgrid(b, j)[0]", "np.meshgrid(b, j)[0]"),
    ("meshgrid(b, j, indexing=\"ij\")[1]", "np.meshgrid(b, j, indexing='ij')[1]"),
    ("meshgrid(b, j, k)[2]", "np.meshgrid(b, j, k)[2]"),
    ("tril(a)", "np.tril(a)"),
    ("triu(a, k=-1)", "np.triu(a, k=-1)"),
    ("tril(reshape(arange(24), [2, 3, 4]), k=1)", "np.tril(np.arange(24).reshape(2, 3, 4), k=1)"),
    ("diag(b, k=1)", "np.diag(b, k=1)"),
    ("diag(a, k=-1)", "np.diag(a, k=-1)"),
    ("diagflat(i[:2, :2])", "np.diagflat(i[:2, :2])"),
    ("full_like(a, 2.5)", "np.full_like(a, 2.5)"),
    ("zeros_like(i) + empty_like(i) * 0", "np.zeros_like(i)"),
    ("asarray(j, dtype=f32)", "np.asarray(j, dtype=np.float32)"),
    ("copy(a[:, 1])", "np.copy(a[:, 1])"),
    ("full([2], finfo(f32).eps)", "np.full(2, np.finfo(np.float32).eps)"),
    ("full([2], iinfo(i16).min)", "np.full(2, np.iinfo(np.int16).min)"),
    ("einsum(\"ij,jk->ik\", a, c)", "np.einsum('ij,jk->ik', a, c)"),
    ("einsum(\"ij,ij->j\", a, i)", "np.einsum('ij,ij->j', a, i)"),
    ("einsum(\"ji\", a)", "np.einsum('ji', a)"),
    ("einsum(\"ii->i\", a[:, :3])", "np.einsum('ii->i', a[:, :3])"),
    ("einsum(\"i,i\", b, b)", "np.array(np.einsum('i,i', b, b))"),
    ("einsum(\"...i,i->...\", a, b)", "np.einsum('...i,i->...', a, b)"),
    ("einsum(\"bij,bjk->bik\", reshape(big[:24], [2, 3, 4]), reshape(big[24:56], [2, 4, 4]))", "np.einsum('bij,bjk->bik', big[:24].reshape(2, 3, 4), big[24:56].reshape(2, 4, 4))"),
    ("einsum(\"ij,jk,kl->il\", a, c, a)", "np.einsum('ij,jk,kl->il', a, c, a)"),
    ("tensordot(reshape(big[:24], [2, 3, 4]), reshape(big[:60], [3, 4, 5]))", "np.tensordot(big[:24].reshape(2, 3, 4), big[:60].reshape(3, 4, 5))"),
    ("tensordot(a, c, axes=[[0], [1]])", "np.tensordot(a, c, axes=([0], [1]))"),
    ("inner(a, i)", "np.inner(a, i)"),
    ("vecdot(a, b)", "np.vecdot(a, b)"),
    ("kron(a[:2, :2], i[:2, :3])", "np.kron(a[:2, :2], i[:2, :3])"),
    ("kron(b, j)", "np.kron(b, j)"),
    ("trace(a)", "np.array(np.trace(a))"),
    ("trace(reshape(arange(24), [2, 3, 4]), offset=1, axis1=1, axis2=2)", "np.trace(np.arange(24).reshape(2, 3, 4), offset=1, axis1=1, axis2=2)"),
    // logic
    ("all(m, axis=0)", "np.all(m, axis=0)"),
    ("any(m, axis=1, keepdims=true)", "np.any(m, axis=1, keepdims=True)"),
    ("allclose(a, a + 1e-9)", "np.array(np.allclose(a, a + 1e-9))"),
    ("array_equal(n, n, equal_nan=true)", "np.array(np.array_equal(n, n, equal_nan=True))"),
    ("array_equiv(b, broadcast_to(b, [2, 4]))", "np.array(np.array_equiv(b, np.broadcast_to(b, (2, 4))))"),
];

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
