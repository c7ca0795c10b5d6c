//! The `linalg` namespace against NumPy, through the real binary, on the cpu and (when there is
//! one) the gpu: inputs written by NumPy (seeded), `load`ed by arrsh, results `save`d and checked
//! in Python. Values that NumPy defines uniquely are compared with NumPy's (the dtype exactly, the
//! shape, the values within 1e-10 of the result's size for f64 and c128, 1e-4 for f32 and c64);
//! decompositions whose signs or phases are free are checked by rebuilding the input (Q @ R,
//! U @ diag(S) @ Vh, A @ V = V diag(w)) and by orthogonality, with NumPy's shapes, dtypes and
//! values (S, w). Stacks exercise the batched paths (on the gpu, cuBLAS's and cuSOLVER's batched
//! routines for stacks of small matrices, one call per matrix for larger ones). Error cases
//! check NumPy's messages on both devices; an exact count checks `linalg.solve` on the gpu.
//!
//! Without python3 and NumPy the comparisons print "skipped: numpy not installed" and pass.

mod common;

use std::path::Path;

use common::{numpy_available, parallel, python};

const PY_COMMON: &str = r#"
import numpy as np

def tolerance(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10

def scale(x):
    x = np.asarray(x)
    return max(float(np.abs(x).max()), 1e-300) if x.size else 1.0

def close(got, want, tol, what='values', size=None):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return '%s: shape %s, expected %s' % (what, got.shape, want.shape)
    if got.size == 0:
        return None
    g, w = got.astype(np.complex128), want.astype(np.complex128)
    finite = np.isfinite(w)
    if not np.array_equal(np.isfinite(g), finite) or not np.array_equal(g[~finite], w[~finite]):
        return '%s: infinities or NaNs differ: %s vs %s' % (what, g.ravel()[:6], w.ravel()[:6])
    err = float(np.abs(g[finite] - w[finite]).max()) if finite.any() else 0.0
    if err > tol * (size if size is not None else scale(w[finite] if finite.any() else w)):
        return '%s differ by %.3g (relative %.3g, allowed %g)' % (what, err, err / (size or scale(w)), tol)
    return None

def same(got, want, tol=None):
    want = np.asarray(want)
    if got.dtype != want.dtype:
        return 'dtype %s, NumPy %s' % (got.dtype, want.dtype)
    if want.dtype.kind in 'biu':
        return None if np.array_equal(got, want) and got.shape == want.shape else 'values %s, NumPy %s' % (got, want)
    return close(got, want, tol if tol is not None else tolerance(want.dtype))

def eye_like(x, n):
    return np.broadcast_to(np.eye(n), x.shape[:-2] + (n, n))

def adjoint(x):
    return np.conj(np.swapaxes(x, -1, -2))

def orthonormal(q, tol, what):
    k = q.shape[-1]
    return close(adjoint(q) @ q, eye_like(q, k), tol, what + ' not orthonormal', 1.0)

def first(*checks):
    return next((c for c in checks if c), None)

def qr(got, a, mode):
    q, r = got
    wq, wr = np.linalg.qr(a, mode=mode)
    tol = tolerance(wq.dtype)
    if q.dtype != wq.dtype or r.dtype != wr.dtype:
        return 'dtypes %s %s, NumPy %s %s' % (q.dtype, r.dtype, wq.dtype, wr.dtype)
    if q.shape != wq.shape or r.shape != wr.shape:
        return 'shapes %s %s, NumPy %s %s' % (q.shape, r.shape, wq.shape, wr.shape)
    lower = np.tril(np.ones(r.shape[-2:]), -1).astype(bool)
    return first(close(q @ r, a, tol, 'Q @ R vs a', scale(a)), orthonormal(q, tol, 'Q'),
                 close(r[..., lower], 0 * r[..., lower], tol, 'R below the diagonal', scale(a)))

def svd(got, a, full):
    u, s, vh = got
    wu, ws, wvh = np.linalg.svd(a, full_matrices=full)
    tol = tolerance(wu.dtype)
    if (u.dtype, s.dtype, vh.dtype) != (wu.dtype, ws.dtype, wvh.dtype):
        return 'dtypes %s %s %s, NumPy %s %s %s' % (u.dtype, s.dtype, vh.dtype, wu.dtype, ws.dtype, wvh.dtype)
    if (u.shape, s.shape, vh.shape) != (wu.shape, ws.shape, wvh.shape):
        return 'shapes %s %s %s, NumPy %s %s %s' % (u.shape, s.shape, vh.shape, wu.shape, ws.shape, wvh.shape)
    k = s.shape[-1]
    rebuilt = (u[..., :k] * s[..., None, :]) @ vh[..., :k, :]
    return first(close(s, ws, tol, 'S', scale(a)), close(rebuilt, a, tol, 'U S Vh vs a', scale(a)),
                 orthonormal(u, tol, 'U'), orthonormal(adjoint(vh), tol, 'Vh'))

def hermitian_of(a, uplo):
    t = np.tril(a) if uplo == 'L' else np.triu(a)
    d = np.real(np.diagonal(a, axis1=-2, axis2=-1))
    h = t + adjoint(t)
    idx = np.arange(a.shape[-1])
    h[..., idx, idx] = d
    return h

def eigh(got, a, uplo='L'):
    w, v = got
    ww, wv = np.linalg.eigh(a, UPLO=uplo)
    tol = tolerance(wv.dtype)
    if (w.dtype, v.dtype) != (ww.dtype, wv.dtype) or (w.shape, v.shape) != (ww.shape, wv.shape):
        return 'w, v: %s %s %s %s, NumPy %s %s %s %s' % (w.dtype, v.dtype, w.shape, v.shape, ww.dtype, wv.dtype, ww.shape, wv.shape)
    h = hermitian_of(a, uplo)
    return first(close(w, ww, tol, 'w', scale(a)), close(h @ v, v * w[..., None, :], tol, 'A V vs V w', scale(a)),
                 orthonormal(v, tol, 'V'))

def always_complex(w, a):
    """NumPy 2.5's eigvals: complex even when every eigenvalue is real (2.4 gave real ones)."""
    return np.asarray(w).astype(np.result_type(a.dtype, np.complex64))

def eig(got, a):
    w, v = got
    ww = always_complex(np.linalg.eigvals(a), a)
    tol = tolerance(a.dtype) * 10
    if w.dtype != ww.dtype or v.dtype != ww.dtype:
        return 'dtypes %s %s, NumPy %s' % (w.dtype, v.dtype, ww.dtype)
    if w.shape != ww.shape or v.shape != a.shape:
        return 'shapes %s %s, NumPy %s %s' % (w.shape, v.shape, ww.shape, a.shape)
    norms = np.linalg.norm(v, axis=-2)
    return first(close(np.sort_complex(w.reshape(-1, w.shape[-1])), np.sort_complex(ww.reshape(-1, ww.shape[-1])), tol, 'w', scale(a)),
                 close(a @ v, v * w[..., None, :], tol, 'A V vs V w', scale(a)),
                 close(norms, np.ones_like(norms), tol, 'column norms', 1.0))

def lstsq_results(results):
    x, residuals, rank, s = results
    return [x, residuals, np.asarray(int(rank)), s]

def sorted_values(got, want):
    if got.dtype != np.asarray(want).dtype:
        return 'dtype %s, NumPy %s' % (got.dtype, np.asarray(want).dtype)
    return close(np.sort_complex(got.ravel()), np.sort_complex(np.asarray(want).ravel()), tolerance(got.dtype) * 10)
"#;

/// Inputs: square, symmetric, positive-definite, rectangular and singular matrices of each
/// dtype, stacks of small ones (the gpu's batched routines) and of larger ones.
const PY_INPUTS: &str = r#"
rng = np.random.default_rng(20260101)
def normal(*shape):
    return rng.standard_normal(shape)
def cnormal(*shape):
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
def spd(x):
    return x @ adjoint(x) + x.shape[-1] * np.eye(x.shape[-1])
inputs = dict(
    sq=normal(4, 4) + 4 * np.eye(4),
    sqf=(normal(4, 4) + 4 * np.eye(4)).astype(np.float32),
    sqc=cnormal(4, 4) + 4 * np.eye(4),
    sqcf=(cnormal(4, 4) + 4 * np.eye(4)).astype(np.complex64),
    big=normal(40, 40) + 40 * np.eye(40),
    stack=normal(2, 3, 4, 4) + 4 * np.eye(4),
    small=normal(50, 3, 3) + 3 * np.eye(3),
    larges=normal(3, 40, 40) + 40 * np.eye(40),
    ints=np.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]]),
    sing=np.array([[1.0, 2.0], [2.0, 4.0]]),
    pd=spd(normal(4, 4)),
    pdf=spd(normal(4, 4)).astype(np.float32),
    pdc=spd(cnormal(4, 4)),
    pds=spd(normal(50, 3, 3)),
    pdl=spd(normal(2, 40, 40)),
    sym=normal(5, 5),
    herm=cnormal(5, 5),
    syms=normal(50, 4, 4),
    symf=normal(5, 5).astype(np.float32),
    syml=normal(2, 40, 40),
    symh=normal(300, 300),
    symhf=normal(300, 300).astype(np.float32),
    flat=np.ones((200, 200)),
    tall=normal(6, 4),
    wide=normal(3, 5),
    tallc=cnormal(6, 4),
    widec=cnormal(3, 5),
    tallf=normal(6, 4).astype(np.float32),
    rects=normal(2, 5, 3),
    rsmall=normal(30, 6, 4),
    wsmall=normal(30, 4, 6),
    rlarge=normal(2, 50, 40),
    vec=normal(4),
    vecf=normal(4).astype(np.float32),
    vecc=cnormal(4),
    vec6=normal(6),
    vec3=normal(3),
    rhs=normal(4, 2),
    rhs6=normal(6, 2),
    rhss=normal(2, 3, 4, 2),
    rsm=normal(50, 3, 2),
    rhl=normal(3, 40, 1),
    gen=normal(5, 5),
    genc=cnormal(4, 4),
    gens=normal(20, 3, 3),
    upper=np.triu(normal(4, 4)) + np.diag([1.0, 2.0, 3.0, 4.0]),
    m54=normal(5, 4),
    m43=normal(4, 3),
    m36=normal(3, 6),
    v3=normal(5, 3),
    w3=normal(5, 3),
    v2=normal(4, 2),
    w2=normal(4, 2),
)
for name, value in inputs.items():
    np.save('in_%s.npy' % name, value)
"#;

const INPUTS: &[&str] = &[
    "sq", "sqf", "sqc", "sqcf", "big", "stack", "small", "larges", "ints", "sing", "pd", "pdf",
    "pdc", "pds", "pdl", "sym", "herm", "syms", "symf", "syml", "symh", "symhf", "flat", "tall",
    "wide", "tallc", "widec", "tallf", "rects", "rsmall", "wsmall", "rlarge", "vec", "vecf",
    "vecc", "vec6", "vec3", "rhs", "rhs6", "rhss", "rsm", "rhl", "gen", "genc", "gens", "upper",
    "m54", "m43", "m36", "v3", "w3", "v2", "w2",
];

/// One case: arr's expression, how many results it returns (0: one value, k: a tuple of k) and
/// the Python check of `got` (the value, or the list of the tuple's values): None when right.
#[rustfmt::skip]
const CASES: &[(&str, usize, &str)] = &[
    // inv, on every dtype, stacks of small matrices (batched) and of larger ones
    ("linalg.inv(sq)", 0, "same(got, np.linalg.inv(sq))"),
    ("linalg.inv(sqf)", 0, "same(got, np.linalg.inv(sqf))"),
    ("linalg.inv(sqc)", 0, "same(got, np.linalg.inv(sqc))"),
    ("linalg.inv(sqcf)", 0, "same(got, np.linalg.inv(sqcf))"),
    ("linalg.inv(big)", 0, "same(got, np.linalg.inv(big))"),
    ("linalg.inv(stack)", 0, "same(got, np.linalg.inv(stack))"),
    ("linalg.inv(small)", 0, "same(got, np.linalg.inv(small))"),
    ("linalg.inv(larges)", 0, "same(got, np.linalg.inv(larges))"),
    ("linalg.inv(ints)", 0, "same(got, np.linalg.inv(ints))"),
    ("linalg.inv(sq.T)", 0, "same(got, np.linalg.inv(sq.T))"),
    ("linalg.inv(zeros([0, 0]))", 0, "same(got, np.linalg.inv(np.zeros((0, 0))))"),
    // solve: a vector for every matrix (NumPy 2), stacks of right-hand sides, broadcasting
    ("linalg.solve(sq, vec)", 0, "same(got, np.linalg.solve(sq, vec))"),
    ("linalg.solve(sq, rhs)", 0, "same(got, np.linalg.solve(sq, rhs))"),
    ("linalg.solve(sqf, vecf)", 0, "same(got, np.linalg.solve(sqf, vecf))"),
    ("linalg.solve(sqc, vecc)", 0, "same(got, np.linalg.solve(sqc, vecc))"),
    ("linalg.solve(sqcf, vec)", 0, "same(got, np.linalg.solve(sqcf, vec))"),
    ("linalg.solve(sq, vecc)", 0, "same(got, np.linalg.solve(sq, vecc))"),
    ("linalg.solve(stack, vec)", 0, "same(got, np.linalg.solve(stack, vec))"),
    ("linalg.solve(stack, rhss)", 0, "same(got, np.linalg.solve(stack, rhss))"),
    ("linalg.solve(stack, rhs)", 0, "same(got, np.linalg.solve(stack, rhs))"),
    ("linalg.solve(small, rsm)", 0, "same(got, np.linalg.solve(small, rsm))"),
    ("linalg.solve(larges, rhl)", 0, "same(got, np.linalg.solve(larges, rhl))"),
    ("linalg.solve(big, ones(40))", 0, "same(got, np.linalg.solve(big, np.ones(40)))"),
    ("linalg.solve(ints, [1, 2, 3])", 0, "same(got, np.linalg.solve(ints, [1, 2, 3]))"),
    ("linalg.solve(sq.T, rhs[::-1])", 0, "same(got, np.linalg.solve(sq.T, rhs[::-1]))"),
    // det and slogdet
    ("linalg.det(sq)", 0, "same(got, np.asarray(np.linalg.det(sq)))"),
    ("linalg.det(sqf)", 0, "same(got, np.asarray(np.linalg.det(sqf), dtype=np.float64), 1e-4)"),
    ("linalg.det(sqc)", 0, "same(got, np.asarray(np.linalg.det(sqc)))"),
    ("linalg.det(stack)", 0, "same(got, np.linalg.det(stack))"),
    ("linalg.det(small)", 0, "same(got, np.linalg.det(small))"),
    ("linalg.det(larges)", 0, "same(got, np.linalg.det(larges))"),
    ("linalg.det(ints)", 0, "same(got, np.asarray(np.linalg.det(ints)))"),
    ("linalg.det(sing)", 0, "same(got, np.asarray(np.linalg.det(sing)))"),
    ("linalg.slogdet(sq)", 2, "first(same(got[0], np.asarray(np.linalg.slogdet(sq)[0])), same(got[1], np.asarray(np.linalg.slogdet(sq)[1])))"),
    ("linalg.slogdet(sqc)", 2, "first(same(got[0], np.asarray(np.linalg.slogdet(sqc)[0])), same(got[1], np.asarray(np.linalg.slogdet(sqc)[1])))"),
    ("linalg.slogdet(larges)", 2, "first(same(got[0], np.linalg.slogdet(larges)[0]), same(got[1], np.linalg.slogdet(larges)[1]))"),
    ("linalg.slogdet(small)", 2, "first(same(got[0], np.linalg.slogdet(small)[0]), same(got[1], np.linalg.slogdet(small)[1]))"),
    ("linalg.slogdet(sing)", 2, "first(same(got[0], np.asarray(0.0)), same(got[1], np.asarray(-np.inf)))"),
    // cholesky (unique): lower and upper, every dtype, stacks
    ("linalg.cholesky(pd)", 0, "same(got, np.linalg.cholesky(pd))"),
    ("linalg.cholesky(pd, upper=true)", 0, "same(got, np.linalg.cholesky(pd, upper=True))"),
    ("linalg.cholesky(pdf)", 0, "same(got, np.linalg.cholesky(pdf))"),
    ("linalg.cholesky(pdc)", 0, "same(got, np.linalg.cholesky(pdc))"),
    ("linalg.cholesky(pdc, upper=true)", 0, "same(got, np.linalg.cholesky(pdc, upper=True))"),
    ("linalg.cholesky(pds)", 0, "same(got, np.linalg.cholesky(pds))"),
    ("linalg.cholesky(pds, upper=true)", 0, "same(got, np.linalg.cholesky(pds, upper=True))"),
    ("linalg.cholesky(pdl)", 0, "same(got, np.linalg.cholesky(pdl))"),
    ("linalg.cholesky(tril(pd))", 0, "same(got, np.linalg.cholesky(np.tril(pd)))"),
    // qr: every mode, tall, wide, complex, stacks
    ("linalg.qr(sq)", 2, "qr(got, sq, 'reduced')"),
    ("linalg.qr(tall)", 2, "qr(got, tall, 'reduced')"),
    ("linalg.qr(tall, mode=\"complete\")", 2, "qr(got, tall, 'complete')"),
    ("linalg.qr(wide)", 2, "qr(got, wide, 'reduced')"),
    ("linalg.qr(wide, mode=\"complete\")", 2, "qr(got, wide, 'complete')"),
    ("linalg.qr(tallc)", 2, "qr(got, tallc, 'reduced')"),
    ("linalg.qr(tallc, mode=\"complete\")", 2, "qr(got, tallc, 'complete')"),
    ("linalg.qr(tallf)", 2, "qr(got, tallf, 'reduced')"),
    ("linalg.qr(rects)", 2, "qr(got, rects, 'reduced')"),
    ("linalg.qr(rsmall, mode=\"complete\")", 2, "qr(got, rsmall, 'complete')"),
    ("linalg.qr(tall, mode=\"r\")", 0, "close(np.abs(got), np.abs(np.linalg.qr(tall, mode='r')), 1e-10) or (None if got.shape == (4, 4) else 'shape')"),
    // svd and svdvals
    ("linalg.svd(sq)", 3, "svd(got, sq, True)"),
    ("linalg.svd(tall)", 3, "svd(got, tall, True)"),
    ("linalg.svd(tall, full_matrices=false)", 3, "svd(got, tall, False)"),
    ("linalg.svd(wide)", 3, "svd(got, wide, True)"),
    ("linalg.svd(wide, full_matrices=false)", 3, "svd(got, wide, False)"),
    ("linalg.svd(tallc)", 3, "svd(got, tallc, True)"),
    ("linalg.svd(widec, full_matrices=false)", 3, "svd(got, widec, False)"),
    ("linalg.svd(tallf)", 3, "svd(got, tallf, True)"),
    ("linalg.svd(stack)", 3, "svd(got, stack, True)"),
    ("linalg.svd(rsmall)", 3, "svd(got, rsmall, True)"),
    ("linalg.svd(wsmall, full_matrices=false)", 3, "svd(got, wsmall, False)"),
    ("linalg.svd(rlarge, full_matrices=false)", 3, "svd(got, rlarge, False)"),
    ("linalg.svd(tall, compute_uv=false)", 0, "same(got, np.linalg.svd(tall, compute_uv=False))"),
    ("linalg.svdvals(wide)", 0, "same(got, np.linalg.svdvals(wide))"),
    ("linalg.svdvals(rects)", 0, "same(got, np.linalg.svdvals(rects))"),
    ("linalg.svdvals(tallc)", 0, "same(got, np.linalg.svdvals(tallc))"),
    ("linalg.svdvals(rsmall)", 0, "same(got, np.linalg.svdvals(rsmall))"),
    // eigh and eigvalsh: lower and upper triangles, complex, stacks (batched Jacobi on the gpu)
    ("linalg.eigh(sym)", 2, "eigh(got, sym)"),
    ("linalg.eigh(sym, UPLO=\"U\")", 2, "eigh(got, sym, 'U')"),
    ("linalg.eigh(herm)", 2, "eigh(got, herm)"),
    ("linalg.eigh(herm, UPLO=\"U\")", 2, "eigh(got, herm, 'U')"),
    ("linalg.eigh(syms)", 2, "eigh(got, syms)"),
    ("linalg.eigh(syml)", 2, "eigh(got, syml)"),
    ("linalg.eigh(symf)", 2, "eigh(got, symf)"),
    // large enough for the divide and conquer's merges (blocks of at most 64 rows are leaves)
    ("linalg.eigh(symh)", 2, "eigh(got, symh)"),
    ("linalg.eigh(symhf)", 2, "eigh(got, symhf)"),
    ("linalg.eigh(flat)", 2, "eigh(got, flat)"),
    ("linalg.eigvalsh(sym)", 0, "same(got, np.linalg.eigvalsh(sym))"),
    ("linalg.eigvalsh(sym, UPLO=\"U\")", 0, "same(got, np.linalg.eigvalsh(sym, UPLO='U'))"),
    ("linalg.eigvalsh(herm)", 0, "same(got, np.linalg.eigvalsh(herm))"),
    ("linalg.eigvalsh(syms)", 0, "same(got, np.linalg.eigvalsh(syms))"),
    ("linalg.eigvalsh(ints)", 0, "same(got, np.linalg.eigvalsh(ints))"),
    // eig and eigvals: complex pairs, real spectra (real results, as NumPy's), complex input
    ("linalg.eig(gen)", 2, "eig(got, gen)"),
    ("linalg.eig(upper)", 2, "eig(got, upper)"),
    ("linalg.eig(genc)", 2, "eig(got, genc)"),
    ("linalg.eig(gens)", 2, "eig(got, gens)"),
    ("linalg.eigvals(gen)", 0, "sorted_values(got, always_complex(np.linalg.eigvals(gen), gen))"),
    ("linalg.eigvals(upper)", 0, "sorted_values(got, always_complex(np.linalg.eigvals(upper), upper))"),
    ("linalg.eigvals(genc)", 0, "sorted_values(got, np.linalg.eigvals(genc))"),
    // norms
    ("linalg.norm(sq)", 0, "same(got, np.asarray(np.linalg.norm(sq)))"),
    ("linalg.norm(stack)", 0, "same(got, np.asarray(np.linalg.norm(stack)))"),
    ("linalg.norm(sqc)", 0, "same(got, np.asarray(np.linalg.norm(sqc)))"),
    ("linalg.norm(ints)", 0, "same(got, np.asarray(np.linalg.norm(ints)))"),
    ("linalg.norm(sq, ord=1)", 0, "same(got, np.asarray(np.linalg.norm(sq, ord=1)))"),
    ("linalg.norm(sq, ord=-1)", 0, "same(got, np.asarray(np.linalg.norm(sq, ord=-1)))"),
    ("linalg.norm(sq, ord=2)", 0, "same(got, np.asarray(np.linalg.norm(sq, ord=2)))"),
    ("linalg.norm(sq, ord=-2)", 0, "same(got, np.asarray(np.linalg.norm(sq, ord=-2)))"),
    ("linalg.norm(sq, ord=inf)", 0, "same(got, np.asarray(np.linalg.norm(sq, ord=np.inf)))"),
    ("linalg.norm(sq, ord=-inf)", 0, "same(got, np.asarray(np.linalg.norm(sq, ord=-np.inf)))"),
    ("linalg.norm(sq, ord=\"fro\")", 0, "same(got, np.asarray(np.linalg.norm(sq, ord='fro')))"),
    ("linalg.norm(sq, ord=\"nuc\")", 0, "same(got, np.asarray(np.linalg.norm(sq, ord='nuc')))"),
    ("linalg.norm(sqc, ord=\"nuc\")", 0, "same(got, np.asarray(np.linalg.norm(sqc, ord='nuc')))"),
    ("linalg.norm(vec, ord=1)", 0, "same(got, np.asarray(np.linalg.norm(vec, ord=1)))"),
    ("linalg.norm(vec, ord=0)", 0, "same(got, np.asarray(np.linalg.norm(vec, ord=0)))"),
    ("linalg.norm(vec, ord=inf)", 0, "same(got, np.asarray(np.linalg.norm(vec, ord=np.inf)))"),
    ("linalg.norm(vec, ord=3.5)", 0, "same(got, np.asarray(np.linalg.norm(vec, ord=3.5)))"),
    ("linalg.norm(vecc, ord=-2)", 0, "same(got, np.asarray(np.linalg.norm(vecc, ord=-2)))"),
    ("linalg.norm(vecf)", 0, "same(got, np.asarray(np.linalg.norm(vecf), dtype=np.float64), 1e-4)"),
    ("linalg.norm(stack, axis=1)", 0, "same(got, np.linalg.norm(stack, axis=1))"),
    ("linalg.norm(stack, axis=[1, 3])", 0, "same(got, np.linalg.norm(stack, axis=(1, 3)))"),
    ("linalg.norm(stack, ord=2, axis=[2, 3])", 0, "same(got, np.linalg.norm(stack, ord=2, axis=(2, 3)))"),
    ("linalg.norm(stack, ord=1, axis=[3, 2])", 0, "same(got, np.linalg.norm(stack, ord=1, axis=(3, 2)))"),
    ("linalg.norm(stack, ord=inf, axis=[0, 2], keepdims=true)", 0, "same(got, np.linalg.norm(stack, ord=np.inf, axis=(0, 2), keepdims=True))"),
    ("linalg.norm(sq, keepdims=true)", 0, "same(got, np.linalg.norm(sq, keepdims=True))"),
    ("linalg.vector_norm(stack)", 0, "same(got, np.asarray(np.linalg.vector_norm(stack)))"),
    ("linalg.vector_norm(stack, axis=[0, 2])", 0, "same(got, np.linalg.vector_norm(stack, axis=(0, 2)))"),
    ("linalg.vector_norm(sq, axis=0, ord=1)", 0, "same(got, np.linalg.vector_norm(sq, axis=0, ord=1))"),
    ("linalg.vector_norm(vec, ord=-inf)", 0, "same(got, np.asarray(np.linalg.vector_norm(vec, ord=-np.inf)))"),
    ("linalg.vector_norm(stack, axis=-1, keepdims=true, ord=3)", 0, "same(got, np.linalg.vector_norm(stack, axis=-1, keepdims=True, ord=3))"),
    ("linalg.vector_norm(sqc, axis=1)", 0, "same(got, np.linalg.vector_norm(sqc, axis=1))"),
    ("linalg.matrix_norm(stack)", 0, "same(got, np.linalg.matrix_norm(stack))"),
    ("linalg.matrix_norm(stack, ord=1)", 0, "same(got, np.linalg.matrix_norm(stack, ord=1))"),
    ("linalg.matrix_norm(stack, ord=2, keepdims=true)", 0, "same(got, np.linalg.matrix_norm(stack, ord=2, keepdims=True))"),
    ("linalg.matrix_norm(small, ord=\"nuc\")", 0, "same(got, np.linalg.matrix_norm(small, ord='nuc'))"),
    ("linalg.matrix_norm(sq, ord=-inf)", 0, "same(got, np.asarray(np.linalg.matrix_norm(sq, ord=-np.inf)))"),
    // matrix_power, multi_dot
    ("linalg.matrix_power(sq, 3)", 0, "same(got, np.linalg.matrix_power(sq, 3))"),
    ("linalg.matrix_power(sq, 0)", 0, "same(got, np.linalg.matrix_power(sq, 0))"),
    ("linalg.matrix_power(sq, 1)", 0, "same(got, np.linalg.matrix_power(sq, 1))"),
    ("linalg.matrix_power(sq, -2)", 0, "same(got, np.linalg.matrix_power(sq, -2))"),
    ("linalg.matrix_power(ints, 5)", 0, "same(got, np.linalg.matrix_power(ints, 5))"),
    ("linalg.matrix_power(stack, 2)", 0, "same(got, np.linalg.matrix_power(stack, 2))"),
    ("linalg.matrix_power(small, 7)", 0, "same(got, np.linalg.matrix_power(small, 7))"),
    ("linalg.multi_dot([m54, m43, m36])", 0, "same(got, np.linalg.multi_dot([m54, m43, m36]))"),
    ("linalg.multi_dot([vec6, tall, m43, vec3])", 0, "same(got, np.asarray(np.linalg.multi_dot([vec6, tall, m43, vec3])))"),
    ("linalg.multi_dot([vec6, tall])", 0, "same(got, np.linalg.multi_dot([vec6, tall]))"),
    ("linalg.multi_dot([m54, m43, vec3])", 0, "same(got, np.linalg.multi_dot([m54, m43, vec3]))"),
    // cross and diagonal
    ("cross(v3, w3)", 0, "same(got, np.cross(v3, w3))"),
    ("linalg.cross(v3, w3)", 0, "same(got, np.linalg.cross(v3, w3))"),
    ("cross(v3[0], w3)", 0, "same(got, np.cross(v3[0], w3))"),
    ("cross(v3.T, w3.T, axis=0)", 0, "same(got, np.cross(v3.T, w3.T, axis=0))"),
    ("cross(v3, w3.T, axisb=0, axisc=0)", 0, "same(got, np.cross(v3, w3.T, axisb=0, axisc=0))"),
    ("cross([1, 2, 3], [4, 5, 6])", 0, "same(got, np.cross([1, 2, 3], [4, 5, 6]))"),
    ("diagonal(stack)", 0, "same(got, np.diagonal(stack))"),
    ("diagonal(stack, offset=1, axis1=1, axis2=3)", 0, "same(got, np.diagonal(stack, offset=1, axis1=1, axis2=3))"),
    ("diagonal(tall, -2)", 0, "same(got, np.diagonal(tall, -2))"),
    ("linalg.diagonal(stack)", 0, "same(got, np.linalg.diagonal(stack))"),
    ("linalg.diagonal(wide, offset=1)", 0, "same(got, np.linalg.diagonal(wide, offset=1))"),
    ("linalg.diagonal(rects, offset=-1)", 0, "same(got, np.linalg.diagonal(rects, offset=-1))"),
    ("linalg.trace(stack)", 0, "same(got, np.linalg.trace(stack))"),
    ("linalg.trace(rects, offset=1)", 0, "same(got, np.linalg.trace(rects, offset=1))"),
    // pinv, matrix_rank, cond
    ("linalg.pinv(tall)", 0, "same(got, np.linalg.pinv(tall))"),
    ("linalg.pinv(wide)", 0, "same(got, np.linalg.pinv(wide))"),
    ("linalg.pinv(sing)", 0, "same(got, np.linalg.pinv(sing))"),
    ("linalg.pinv(tallc)", 0, "same(got, np.linalg.pinv(tallc))"),
    ("linalg.pinv(stack)", 0, "same(got, np.linalg.pinv(stack))"),
    ("linalg.pinv(rsmall, rcond=0.3)", 0, "same(got, np.linalg.pinv(rsmall, rcond=0.3))"),
    ("linalg.pinv(tall, rtol=0.5)", 0, "same(got, np.linalg.pinv(tall, rtol=0.5))"),
    ("linalg.matrix_rank(sq)", 0, "same(got, np.asarray(np.linalg.matrix_rank(sq)))"),
    ("linalg.matrix_rank(sing)", 0, "same(got, np.asarray(np.linalg.matrix_rank(sing)))"),
    ("linalg.matrix_rank(stack)", 0, "same(got, np.linalg.matrix_rank(stack))"),
    ("linalg.matrix_rank(vec)", 0, "same(got, np.asarray(np.linalg.matrix_rank(vec)))"),
    ("linalg.matrix_rank(zeros(3))", 0, "same(got, np.asarray(np.linalg.matrix_rank(np.zeros(3))))"),
    ("linalg.matrix_rank(tall, tol=2.0)", 0, "same(got, np.asarray(np.linalg.matrix_rank(tall, tol=2.0)))"),
    ("linalg.matrix_rank(tall, rtol=0.5)", 0, "same(got, np.asarray(np.linalg.matrix_rank(tall, rtol=0.5)))"),
    ("linalg.cond(sq)", 0, "same(got, np.asarray(np.linalg.cond(sq)))"),
    ("linalg.cond(tall)", 0, "same(got, np.asarray(np.linalg.cond(tall)))"),
    ("linalg.cond(sq, -2)", 0, "same(got, np.asarray(np.linalg.cond(sq, -2)))"),
    ("linalg.cond(sq, 1)", 0, "same(got, np.asarray(np.linalg.cond(sq, 1)))"),
    ("linalg.cond(sq, \"fro\")", 0, "same(got, np.asarray(np.linalg.cond(sq, 'fro')))"),
    ("linalg.cond(stack, inf)", 0, "same(got, np.linalg.cond(stack, np.inf))"),
    ("linalg.cond(sqc, \"nuc\")", 0, "same(got, np.asarray(np.linalg.cond(sqc, 'nuc')))"),
    ("linalg.cond(sing, 1)", 0, "same(got, np.asarray(np.linalg.cond(sing, 1)))"),
    // lstsq: overdetermined (residuals), underdetermined (least norm), rank deficient
    ("linalg.lstsq(tall, vec6)", 4, "first(*(same(g, w) for g, w in zip(got, lstsq_results(np.linalg.lstsq(tall, vec6)))))"),
    ("linalg.lstsq(tall, rhs6)", 4, "first(*(same(g, w) for g, w in zip(got, lstsq_results(np.linalg.lstsq(tall, rhs6)))))"),
    ("linalg.lstsq(wide, vec3)", 4, "first(*(same(g, w) for g, w in zip(got, lstsq_results(np.linalg.lstsq(wide, vec3)))))"),
    ("linalg.lstsq(sing, [1.0, 1.0])", 4, "first(*(same(g, w) for g, w in zip(got, lstsq_results(np.linalg.lstsq(sing, [1.0, 1.0])))))"),
    ("linalg.lstsq(tallc, vec6)", 4, "first(*(same(g, w) for g, w in zip(got, lstsq_results(np.linalg.lstsq(tallc, vec6)))))"),
    ("linalg.lstsq(tall, vec6, rcond=0.5)", 4, "first(*(same(g, w) for g, w in zip(got, lstsq_results(np.linalg.lstsq(tall, vec6, rcond=0.5)))))"),
    // the shared members
    ("linalg.matmul(sq, rhs)", 0, "same(got, np.linalg.matmul(sq, rhs))"),
    ("linalg.matrix_transpose(stack)", 0, "same(got, np.linalg.matrix_transpose(stack))"),
];

fn arrsh(dir: &Path, code: &str) -> std::process::Output {
    common::run_code(code, dir)
}

fn first_error_line(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_string()
}

/// Every case of `CASES` on `device`, checked in one Python run.
fn cases_on(device: &str) {
    let dir = common::work_dir("linalg", device);
    python(&dir, &format!("{PY_COMMON}{PY_INPUTS}"));
    let preamble: String = std::iter::once(format!(":device {device}\n"))
        .chain(
            INPUTS
                .iter()
                .map(|n| format!("{n} = to(load(\"in_{n}.npy\"), {device})\n")),
        )
        .collect();
    let runs = parallel(CASES, |index, (expr, outputs, _)| {
        let saves: String = match outputs {
            0 => format!("save(\"out_{index}.npy\", r)\n"),
            k => (0..*k)
                .map(|j| format!("save(\"out_{index}_{j}.npy\", r[{j}])\n"))
                .collect(),
        };
        let out = arrsh(&dir, &format!("{preamble}r = {expr}\n{saves}"));
        if out.status.success() {
            Ok(())
        } else {
            Err(first_error_line(&out))
        }
    });
    let mut checker = format!("{PY_COMMON}\n");
    for n in INPUTS {
        checker.push_str(&format!("{n} = np.load('in_{n}.npy')\n"));
    }
    checker.push_str("import warnings\nwarnings.simplefilter('ignore')\n");
    for (index, (_, outputs, check)) in CASES.iter().enumerate() {
        if runs[index].is_err() {
            continue;
        }
        let got = match outputs {
            0 => format!("np.load('out_{index}.npy')"),
            k => format!(
                "[{}]",
                (0..*k)
                    .map(|j| format!("np.load('out_{index}_{j}.npy')"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        checker.push_str(&format!(
            "got = {got}\ntry:\n    verdict = ({check}) or 'ok'\nexcept Exception as e:\n    verdict = 'check failed: %r' % e\nprint({index}, verdict)\n"
        ));
    }
    let verdicts = python(&dir, &checker);
    let mut failures: Vec<String> = runs
        .iter()
        .enumerate()
        .filter_map(|(i, r)| r.as_ref().err().map(|e| format!("{:<45} {e}", CASES[i].0)))
        .collect();
    for line in verdicts.lines() {
        let (index, verdict) = line.split_once(' ').unwrap();
        if verdict != "ok" {
            let case = CASES[index.parse::<usize>().unwrap()].0;
            failures.push(format!("{case:<45} {verdict}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "linalg on the {device}: {} of {} agree with NumPy",
        CASES.len() - failures.len(),
        CASES.len()
    );
    assert!(
        failures.is_empty(),
        "on the {device}, {} of {} differ from NumPy:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn linalg_matches_numpy() {
    if numpy_available() {
        cases_on("cpu");
    }
}

#[test]
fn linalg_matches_numpy_on_the_gpu() {
    if numpy_available() && common::gpu_or_skip("linalg_matches_numpy_on_the_gpu") {
        cases_on("gpu");
    }
}

/// Bad inputs and the errors NumPy gives for them (its LinAlgError's wording).
#[rustfmt::skip]
const ERRORS: &[(&str, &str)] = &[
    ("linalg.inv(zeros([3, 3]))", "LinAlgError: Singular matrix"),
    ("linalg.inv([[1.0, 2.0], [2.0, 4.0]])", "LinAlgError: Singular matrix"),
    ("linalg.inv(stack([eye(3), zeros([3, 3])]))", "LinAlgError: Singular matrix"),
    ("linalg.inv(stack([eye(40), zeros([40, 40])]))", "LinAlgError: Singular matrix"),
    ("linalg.solve([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0])", "LinAlgError: Singular matrix"),
    ("linalg.solve(stack([eye(2), zeros([2, 2])]), ones(2))", "LinAlgError: Singular matrix"),
    ("linalg.cholesky([[1.0, 2.0], [2.0, 1.0]])", "LinAlgError: Matrix is not positive definite"),
    ("linalg.cholesky(stack([eye(2), -eye(2)]))", "LinAlgError: Matrix is not positive definite"),
    ("linalg.cholesky([[1.0, 0.0], [0.0, -1.0]], upper=true)", "LinAlgError: Matrix is not positive definite"),
    ("linalg.inv(ones([2, 3]))", "LinAlgError: Last 2 dimensions of the array must be square"),
    ("linalg.det(ones([2, 3, 4]))", "LinAlgError: Last 2 dimensions of the array must be square"),
    ("linalg.eigh(ones([3, 2]))", "LinAlgError: Last 2 dimensions of the array must be square"),
    ("linalg.eig(ones([1, 2]))", "LinAlgError: Last 2 dimensions of the array must be square"),
    ("linalg.cholesky(ones([2, 3]))", "LinAlgError: Last 2 dimensions of the array must be square"),
    ("linalg.matrix_power(ones([2, 3]), 2)", "LinAlgError: Last 2 dimensions of the array must be square"),
    ("linalg.det(ones(3))", "LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"),
    ("linalg.svd(ones(3))", "LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"),
    ("linalg.qr(3.0)", "LinAlgError: 0-dimensional array given. Array must be at least two-dimensional"),
    ("linalg.inv(astype(eye(2), f16))", "array type float16 is unsupported in linalg"),
    ("linalg.solve(eye(3), ones(2))", "do not match"),
    ("linalg.solve(eye(3), ones([2, 2]))", "do not match"),
    ("linalg.qr(eye(2), mode=\"raw\")", "Unrecognized mode 'raw'"),
    ("linalg.eigh(eye(2), UPLO=\"X\")", "UPLO argument must be 'L' or 'U'"),
    ("linalg.norm(ones([2, 2]), ord=3)", "Invalid norm order for matrices."),
    ("linalg.norm(ones(3), ord=\"fro\")", "Invalid norm order 'fro' for vectors"),
    ("linalg.norm(ones([2, 2, 2]), ord=1)", "Improper number of dimensions to norm."),
    ("cross(ones(4), ones(4))", "Both input arrays must be (arrays of) 3-dimensional vectors, but they are 4 and 4"),
    ("cross(ones(2), ones(3))", "Both input arrays must be (arrays of) 3-dimensional vectors, but they are 2 and 3"),
    ("linalg.multi_dot([ones(2)])", "Expecting at least two arrays."),
    ("linalg.matrix_power(eye(2), 1.5)", "exponent must be an integer"),
    ("linalg.lstsq(ones([3, 2]), ones(4))", "LinAlgError: Incompatible dimensions"),
    ("linalg.lstsq(ones([2, 3, 2]), ones(2))", "LinAlgError: 3-dimensional array given. Array must be two-dimensional"),
    ("linalg.cond(zeros([0, 0]))", "LinAlgError: cond is not defined on empty arrays"),
    ("linalg.matrix_rank(eye(2), tol=1.0, rtol=1.0)", "`tol` and `rtol` can't be both set."),
];

fn errors_on(device: &str) {
    let dir = common::work_dir("linalg-errors", device);
    let failures: Vec<String> = parallel(ERRORS, |_, (code, message)| {
        let out = arrsh(&dir, &format!(":device {device}\nx = {code}"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        let clean = out.status.code() == Some(1)
            && !stderr.contains("panicked")
            && stderr
                .lines()
                .any(|l| l.contains(": error: ") && l.contains(message));
        (!clean).then(|| {
            format!(
                "{code}: expected an error with {message:?}, got exit {:?}: {}",
                out.status.code(),
                first_error_line(&out)
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
fn bad_inputs_raise_numpys_errors() {
    errors_on("cpu");
}

#[test]
fn bad_inputs_raise_numpys_errors_on_the_gpu() {
    if common::gpu_or_skip("bad_inputs_raise_numpys_errors_on_the_gpu") {
        errors_on("gpu");
    }
}

/// `linalg.solve` of one matrix on the gpu: copies of a and b (two kernels), cuSOLVER's getrf
/// and getrs (one each), allocations for the two copies, the pivots, the status words and
/// getrf's workspace, and the status words read back in one 8-byte copy. Nothing goes to the
/// device.
#[test]
fn solve_on_the_gpu_moves_only_its_status_words() {
    if !common::gpu_or_skip("solve_on_the_gpu_moves_only_its_status_words") {
        return;
    }
    let code = "a = rand([64, 64], device=gpu) + eye(64, device=gpu) * 64\n\
                b = rand(64, device=gpu)\n\
                x = linalg.solve(a, b)\n\
                sync()\n\
                :time on\n\
                x = linalg.solve(a, b)\n\
                :time off\n\
                print(allclose(a @ x, b))";
    let out = arrsh(&std::env::temp_dir(), code);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "true");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("time "))
        .unwrap_or_else(|| panic!("no :time line in {stderr}"));
    for part in ["H→D 0", "D→H 1 (8 B)", "kernels 4", "allocs 5"] {
        assert!(line.contains(part), "`{line}` lacks `{part}`");
    }
}
