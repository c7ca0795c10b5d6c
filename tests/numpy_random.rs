//! The `random` namespace and the flat `rand randn randint` against NumPy's numpy.random, through
//! the real binary, on the cpu and on the gpu (skipped without one): each function's result kind
//! (a host number or an array), dtype and shape as NumPy's; large samples (1e6) whose range,
//! moments and frequencies are checked in Python against the distributions' formulas (within 5
//! standard errors); permutations and shuffles that keep their elements; reproducibility per seed
//! and device; and NumPy's errors with its messages. The numbers themselves are not NumPy's
//! streams, so they are never compared with NumPy's.
//!
//! Without python3 and NumPy the tests that need them print "skipped: numpy not installed".

mod common;

use std::path::Path;
use std::process::{Command, Output};

use arrsh::error::ErrorKind::{self, *};
use arrsh::interp::Interpreter;
use common::{gpu_or_skip, numpy_available, python};

const DEVICES: [&str; 2] = ["cpu", "gpu"];

/// Whether the tests should run on `device` (the gpu only when there is one).
fn device_available(device: &str, test: &str) -> bool {
    device == "cpu" || gpu_or_skip(test)
}

/// `arrsh --device DEVICE -` running `script` in `dir`.
fn arrsh_script(device: &str, dir: &Path, script: &str) -> Output {
    common::run_stdin(&["--device", device, "-"], dir, script)
}

fn assert_ran(out: &Output, what: &str) {
    assert!(
        out.status.success(),
        "{what}: arrsh exit {:?}\nstdout: {}\nstderr: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

// ---------------------------------------------------------------------------------------------
// Kinds, dtypes and shapes: each arr call beside the NumPy call it stands for (`g` is a
// `default_rng()`, `r` is `np.random`).

const SHAPES: &[(&str, &str)] = &[
    ("rand(3, 4)", "r.rand(3, 4)"),
    ("rand([3, 4])", "r.rand(3, 4)"),
    ("rand()", "r.rand()"),
    ("rand(2, dtype=f32)", "g.random(2, dtype=np.float32)"),
    ("randn(2, 3)", "r.randn(2, 3)"),
    ("randn()", "r.randn()"),
    ("random.rand(3, 4)", "r.rand(3, 4)"),
    ("random.randn(2, 3)", "r.randn(2, 3)"),
    ("randint(5, size=10)", "r.randint(5, size=10)"),
    ("randint(0, 62, 100)", "r.randint(0, 62, 100)"),
    ("randint(3)", "r.randint(3)"),
    (
        "random.randint(0, 5, [2, 3], dtype=i32)",
        "r.randint(0, 5, (2, 3), dtype=np.int32)",
    ),
    ("random.random()", "g.random()"),
    ("random.random([2, 3])", "g.random((2, 3))"),
    (
        "random.random(5, dtype=f32)",
        "g.random(5, dtype=np.float32)",
    ),
    ("random.random(size=[])", "g.random(size=())"),
    ("random.integers(10)", "g.integers(10)"),
    ("random.integers(0, 10, 5)", "g.integers(0, 10, 5)"),
    (
        "random.integers(0, 10, [2, 2], dtype=u8, endpoint=true)",
        "g.integers(0, 10, (2, 2), dtype=np.uint8, endpoint=True)",
    ),
    (
        "random.integers([0, 10], [5, 20])",
        "g.integers([0, 10], [5, 20])",
    ),
    (
        "random.integers(0, [5, 20], [3, 2], dtype=i16)",
        "g.integers(0, [5, 20], (3, 2), dtype=np.int16)",
    ),
    (
        "random.integers(0, 2, 4, dtype=bool)",
        "g.integers(0, 2, 4, dtype=bool)",
    ),
    ("random.uniform()", "g.uniform()"),
    ("random.uniform(-1, 1, 4)", "g.uniform(-1, 1, 4)"),
    ("random.uniform([0, 1], 2)", "g.uniform([0, 1], 2)"),
    ("random.normal()", "g.normal()"),
    ("random.normal(10, 2, [2, 2])", "g.normal(10, 2, (2, 2))"),
    ("random.normal([0, 1, 2], 1)", "g.normal([0, 1, 2], 1)"),
    (
        "random.normal(0, [1, 2], [3, 2])",
        "g.normal(0, [1, 2], (3, 2))",
    ),
    ("random.normal(zeros([]))", "g.normal(np.zeros(()))"),
    ("random.standard_normal()", "g.standard_normal()"),
    (
        "random.standard_normal(3, dtype=f32)",
        "g.standard_normal(3, dtype=np.float32)",
    ),
    ("random.exponential()", "g.exponential()"),
    ("random.exponential(2.0, 3)", "g.exponential(2.0, 3)"),
    ("random.exponential([1, 2])", "g.exponential([1, 2])"),
    ("random.poisson()", "g.poisson()"),
    ("random.poisson(4.5, 5)", "g.poisson(4.5, 5)"),
    ("random.poisson([1, 100])", "g.poisson([1, 100])"),
    ("random.binomial(10, 0.3)", "g.binomial(10, 0.3)"),
    ("random.binomial(10, 0.3, 5)", "g.binomial(10, 0.3, 5)"),
    (
        "random.binomial([10, 20], 0.5)",
        "g.binomial([10, 20], 0.5)",
    ),
    (
        "random.binomial(10, [0.1, 0.9], [3, 2])",
        "g.binomial(10, [0.1, 0.9], (3, 2))",
    ),
    ("random.choice(5)", "g.choice(5)"),
    ("random.choice(5, 3)", "g.choice(5, 3)"),
    (
        "random.choice(5, 3, replace=false)",
        "g.choice(5, 3, replace=False)",
    ),
    (
        "random.choice(5, [2, 2], p=[0.1, 0.2, 0.3, 0.4, 0])",
        "g.choice(5, (2, 2), p=[0.1, 0.2, 0.3, 0.4, 0])",
    ),
    (
        "random.choice([1.5, 2.5, 3.5], 2)",
        "g.choice([1.5, 2.5, 3.5], 2)",
    ),
    (
        "random.choice([1.5, 2.5, 3.5])",
        "g.choice([1.5, 2.5, 3.5])",
    ),
    (
        "random.choice([[1, 2], [3, 4], [5, 6]])",
        "g.choice([[1, 2], [3, 4], [5, 6]])",
    ),
    (
        "random.choice([[1, 2], [3, 4], [5, 6]], 2, replace=false)",
        "g.choice([[1, 2], [3, 4], [5, 6]], 2, replace=False)",
    ),
    (
        "random.choice(astype(arange(4), f32), 3, p=[0.25, 0.25, 0.25, 0.25])",
        "g.choice(np.arange(4).astype(np.float32), 3, p=[0.25] * 4)",
    ),
    ("random.permutation(5)", "g.permutation(5)"),
    (
        "random.permutation([[1, 2], [3, 4]])",
        "g.permutation([[1, 2], [3, 4]])",
    ),
    (
        "random.permutation(arange(6.0))",
        "g.permutation(np.arange(6.0))",
    ),
];

#[test]
fn kinds_dtypes_and_shapes_are_numpys() {
    if !numpy_available() {
        return;
    }
    for device in DEVICES {
        if !device_available(device, "kinds_dtypes_and_shapes_are_numpys") {
            continue;
        }
        let dir = common::work_dir("random", &format!("shapes-{device}"));
        // A piped session echoes each expression's repr (`array(...)` for arrays).
        let mut session = String::from("seed(1)\n");
        for (k, (arr, _)) in SHAPES.iter().enumerate() {
            session.push_str(&format!("r = {arr}\nsave(\"c{k}.npy\", r)\nr\n"));
        }
        let out = common::run_stdin(&["--device", device], &dir, &session);
        assert_ran(&out, "the shapes session");
        let echoed = String::from_utf8_lossy(&out.stdout).to_string();
        std::fs::write(dir.join("echo.txt"), &echoed).unwrap();
        let cases: Vec<String> = SHAPES
            .iter()
            .map(|(arr, numpy)| format!("({arr:?}, {numpy:?})"))
            .collect();
        let report = python(
            &dir,
            &format!(
                r#"
import numpy as np
r = np.random; g = np.random.default_rng(0)
cases = [{}]
# Each echo is one line, or several for an array's rows: a new echo starts where no bracket is open.
lines, depth = [], 0
for line in open('echo.txt').read().splitlines():
    if depth == 0:
        lines.append(line)
    else:
        lines[-1] += line
    depth += line.count('(') + line.count('[') - line.count(')') - line.count(']')
assert len(lines) == len(cases), (len(lines), len(cases), lines)
bad = []
for k, ((arr, numpy), echo) in enumerate(zip(cases, lines)):
    got = np.load('c%d.npy' % k)
    want = eval(numpy)
    got_array, want_array = echo.startswith('array('), isinstance(want, np.ndarray)
    if got_array != want_array:
        bad.append('%s: %s, NumPy %s' % (arr, 'an array' if got_array else 'a host number', 'an array' if want_array else 'a number'))
        continue
    want = np.asarray(want)
    if want_array and (got.dtype != want.dtype or got.shape != want.shape):
        bad.append('%s: %s %s, NumPy %s %s' % (arr, got.dtype, got.shape, want.dtype, want.shape))
    if not want_array and got.dtype.kind != ('f' if want.dtype.kind == 'f' else 'i'):
        bad.append('%s: a host %s, NumPy a %s' % (arr, got.dtype, want.dtype))
print('\n'.join(bad))
"#,
                cases.join(", ")
            ),
        );
        assert!(report.trim().is_empty(), "on {device}:\n{report}");
    }
}

// ---------------------------------------------------------------------------------------------
// Large samples against the distributions' formulas.

const SAMPLES: &str = r#"
seed(11)
n = 1000000
save("random.npy", random.random(n))
save("random32.npy", random.random(n, dtype=f32))
save("rand.npy", rand(1000, 1000))
save("std.npy", random.standard_normal(n))
save("std32.npy", random.standard_normal(n, dtype=f32))
save("randn.npy", randn(n))
save("normal.npy", random.normal(3, 2, n))
save("normal_cols.npy", random.normal([0, 10], [1, 3], [n / 2, 2]))
save("uniform.npy", random.uniform(-2, 3, n))
save("uniform_cols.npy", random.uniform([0, -1], [1, 1], [n / 2, 2]))
save("exponential.npy", random.exponential(2, n))
save("exponential_cols.npy", random.exponential([1, 5], [n / 2, 2]))
save("poisson.npy", random.poisson(4.5, n))
save("poisson50.npy", random.poisson(50, n))
save("poisson0.npy", random.poisson(0, 1000))
save("poisson_cols.npy", random.poisson([1, 1000], [n / 2, 2]))
save("binomial.npy", random.binomial(10, 0.3, n))
save("binomial_btrs.npy", random.binomial(1000, 0.4, n))
save("binomial_flip.npy", random.binomial(100, 0.95, n))
save("binomial_edges.npy", random.binomial([0, 5, 7], [0.5, 1.0, 0.0], [1000, 3]))
save("binomial_cols.npy", random.binomial([20, 5000], [0.5, 0.01], [n / 2, 2]))
save("integers.npy", random.integers(-3, 4, n))
save("integers_closed.npy", random.integers(0, 5, n, endpoint=true))
save("integers_wide.npy", random.integers(0, 3 * 2 ** 61, n))
save("integers_full.npy", random.integers(-9223372036854775807 - 1, 9223372036854775807, n, endpoint=true))
save("integers_u8.npy", random.integers(0, 255, n, dtype=u8, endpoint=true))
save("integers_cols.npy", random.integers([0, 100], [2, 110], [n / 2, 2]))
save("randint.npy", randint(10, size=n))
save("choice_p.npy", random.choice(5, n, p=[0.1, 0, 0.2, 0.3, 0.4]))
save("choice.npy", random.choice(6, n))
save("choice_rows.npy", random.choice([[1, 2], [3, 4], [5, 6]], n))
save("choice_noreplace.npy", random.choice(10, 10, replace=false))
save("choice_noreplace_p.npy", random.choice(1000, 500, replace=false, p=astype(arange(1000) % 2, f64) / 500))
picks = zeros([20000, 2], dtype=i64)
for k in range(20000) {
    picks[k] = random.choice(3, 2, replace=false, p=[0.5, 0.3, 0.2])
}
save("choice_first_two.npy", picks)
save("permutation.npy", random.permutation(n))
save("permutation_rows.npy", random.permutation(reshape(arange(2000), [1000, 2])))
x = arange(n) * 2
random.shuffle(x)
save("shuffled.npy", x)
y = reshape(arange(3000), [1000, 3])
random.shuffle(y)
save("shuffled_rows.npy", y)
z = arange(10)
random.shuffle(z[2:8])
save("shuffled_view.npy", z)
"#;

const CHECKS: &str = r#"
import numpy as np, math
bad = []
def load(name):
    return np.load(name + '.npy')
def check(what, ok):
    if not ok:
        bad.append(what)
def near(what, got, want, se):
    check('%s: %r, expected %r (standard error %.3g)' % (what, got, want, se), abs(got - want) <= 5 * se)
def moments(what, x, mean, var):
    x = np.asarray(x, dtype=np.float64).ravel()
    n = x.size
    m = x.mean()
    near(what + ' mean', m, mean, math.sqrt(var / n))
    d = x - m
    v = (d * d).mean()
    near(what + ' variance', v, var, math.sqrt(max((d ** 4).mean() - v * v, 1e-300) / n))
def frequencies(what, x, probabilities):
    n = x.size
    for value, p in probabilities.items():
        count = int((x == value).sum())
        near('%s frequency of %r' % (what, value), count / n, p, math.sqrt(max(p * (1 - p), 1e-12) / n))
def dtype(what, x, want):
    check('%s: dtype %s, expected %s' % (what, x.dtype, want), x.dtype == np.dtype(want))

for name, d in [('random', 'float64'), ('random32', 'float32'), ('rand', 'float64')]:
    x = load(name); dtype(name, x, d)
    check(name + ' in [0, 1)', x.min() >= 0 and x.max() < 1)
    moments(name, x, 0.5, 1 / 12)
for name, d in [('std', 'float64'), ('std32', 'float32'), ('randn', 'float64')]:
    x = load(name); dtype(name, x, d)
    moments(name, x, 0, 1)
    frequencies(name + ' |z| < 1', np.abs(x) < 1, {True: 0.682689492137086})
x = load('normal'); moments('normal(3, 2)', x, 3, 4)
x = load('normal_cols'); check('normal columns shape', x.shape == (500000, 2))
moments('normal column 0', x[:, 0], 0, 1); moments('normal column 1', x[:, 1], 10, 9)
x = load('uniform'); check('uniform in [-2, 3)', x.min() >= -2 and x.max() < 3); moments('uniform(-2, 3)', x, 0.5, 25 / 12)
x = load('uniform_cols'); moments('uniform column 0', x[:, 0], 0.5, 1 / 12); moments('uniform column 1', x[:, 1], 0, 4 / 12)
check('uniform column 1 in [-1, 1)', x[:, 1].min() >= -1 and x[:, 1].max() < 1)
x = load('exponential'); check('exponential >= 0', x.min() >= 0); moments('exponential(2)', x, 2, 4)
x = load('exponential_cols'); moments('exponential column 0', x[:, 0], 1, 1); moments('exponential column 1', x[:, 1], 5, 25)
for name, lam in [('poisson', 4.5), ('poisson50', 50)]:
    x = load(name); dtype(name, x, 'int64'); check(name + ' >= 0', x.min() >= 0)
    moments(name, x, lam, lam)
check('poisson(0) is 0', (load('poisson0') == 0).all())
x = load('poisson_cols'); moments('poisson column 0', x[:, 0], 1, 1); moments('poisson column 1', x[:, 1], 1000, 1000)
frequencies('poisson(4.5)', load('poisson'), {k: math.exp(-4.5) * 4.5 ** k / math.factorial(k) for k in range(10)})
for name, n, p in [('binomial', 10, 0.3), ('binomial_btrs', 1000, 0.4), ('binomial_flip', 100, 0.95)]:
    x = load(name); dtype(name, x, 'int64'); check(name + ' in [0, n]', x.min() >= 0 and x.max() <= n)
    moments(name, x, n * p, n * p * (1 - p))
frequencies('binomial(10, 0.3)', load('binomial'), {k: math.comb(10, k) * 0.3 ** k * 0.7 ** (10 - k) for k in range(11)})
x = load('binomial_edges'); check('binomial edges', (x == [0, 5, 0]).all())
x = load('binomial_cols'); moments('binomial column 0', x[:, 0], 10, 5); moments('binomial column 1', x[:, 1], 50, 49.5)
x = load('integers'); dtype('integers', x, 'int64'); check('integers in [-3, 4)', x.min() >= -3 and x.max() < 4)
frequencies('integers(-3, 4)', x, {k: 1 / 7 for k in range(-3, 4)})
x = load('integers_closed'); frequencies('integers(0, 5, endpoint=true)', x, {k: 1 / 6 for k in range(6)})
check('integers(0, 5, endpoint=true) in [0, 5]', x.min() >= 0 and x.max() <= 5)
x = load('integers_wide'); check('integers(0, 3 * 2**61) in range', x.min() >= 0 and (x < 3 * 2 ** 61).all())
frequencies('integers(0, 3 * 2**61) below 2**61', x < 2 ** 61, {True: 1 / 3})
x = load('integers_full'); frequencies('full-range integers negative', x < 0, {True: 0.5})
frequencies('full-range integers odd', x % 2 == 1, {True: 0.5})
x = load('integers_u8'); dtype('integers u8', x, 'uint8'); frequencies('integers u8', x, {0: 1 / 256, 255: 1 / 256, 128: 1 / 256})
x = load('integers_cols'); frequencies('integers column 0', x[:, 0], {0: 0.5, 1: 0.5})
check('integers column 1 in [100, 110)', x[:, 1].min() >= 100 and x[:, 1].max() < 110)
x = load('randint'); check('randint(10) in [0, 10)', x.min() >= 0 and x.max() < 10); frequencies('randint(10)', x, {k: 0.1 for k in range(10)})
x = load('choice_p'); dtype('choice', x, 'int64'); frequencies('choice with p', x, {0: 0.1, 1: 0, 2: 0.2, 3: 0.3, 4: 0.4})
x = load('choice'); frequencies('choice(6)', x, {k: 1 / 6 for k in range(6)})
x = load('choice_rows'); check('choice of rows', x.shape == (1000000, 2) and (x[:, 1] == x[:, 0] + 1).all())
frequencies('choice of rows', x[:, 0], {1: 1 / 3, 3: 1 / 3, 5: 1 / 3})
x = load('choice_noreplace'); check('choice(10, 10, replace=false) is a permutation', sorted(x.tolist()) == list(range(10)))
x = load('choice_noreplace_p'); check('choice without replacement, with p: distinct picks of odd numbers', len(set(x.tolist())) == 500 and (x % 2 == 1).all())
x = load('choice_first_two')
p = [0.5, 0.3, 0.2]
frequencies('first pick without replacement', x[:, 0], {i: p[i] for i in range(3)})
second = {j: sum(p[i] * p[j] / (1 - p[i]) for i in range(3) if i != j) for j in range(3)}
frequencies('second pick without replacement', x[:, 1], second)
check('picks without replacement differ', (x[:, 0] != x[:, 1]).all())
x = load('permutation'); check('permutation(n) is a permutation', (np.sort(x) == np.arange(1000000)).all() and (x != np.arange(1000000)).any())
frequencies('permutation(n) fixed points', x == np.arange(1000000), {True: 1e-6})
x = load('permutation_rows'); check('permutation of rows', sorted(x[:, 0].tolist()) == list(range(0, 2000, 2)) and (x[:, 1] == x[:, 0] + 1).all())
x = load('shuffled'); check('shuffle keeps the elements', (np.sort(x) == np.arange(1000000) * 2).all() and (x != np.arange(1000000) * 2).any())
x = load('shuffled_rows'); check('shuffle keeps the rows', sorted(x[:, 0].tolist()) == list(range(0, 3000, 3)) and (x[:, 1] == x[:, 0] + 1).all() and (x[:, 2] == x[:, 0] + 2).all())
x = load('shuffled_view'); check('shuffle of a view moves only its elements', x[:2].tolist() == [0, 1] and x[8:].tolist() == [8, 9] and sorted(x[2:8].tolist()) == list(range(2, 8)))
print('\n'.join(bad))
"#;

#[test]
fn samples_follow_their_distributions() {
    if !numpy_available() {
        return;
    }
    for device in DEVICES {
        if !device_available(device, "samples_follow_their_distributions") {
            continue;
        }
        let dir = common::work_dir("random", &format!("samples-{device}"));
        assert_ran(&arrsh_script(device, &dir, SAMPLES), "the samples script");
        let report = python(&dir, CHECKS);
        assert!(report.trim().is_empty(), "on {device}:\n{report}");
    }
}

// ---------------------------------------------------------------------------------------------
// Seeds.

/// Draws whose repetition under one seed, and change under another, the script asserts.
const DRAWS: &[&str] = &[
    "rand(1000)",
    "randn(10, 100)",
    "randint(0, 1000, 1000)",
    "random.random(1000, dtype=f32)",
    "random.standard_normal(1001)",
    "random.normal(5, 2, 1000)",
    "random.normal([0, 1], 2, [500, 2])",
    "random.uniform(-1, 1, 1000)",
    "random.exponential(3, 1000)",
    "random.poisson(7, 1000)",
    "random.poisson([3, 300], [500, 2])",
    "random.binomial(100, 0.3, 1000)",
    "random.binomial([10, 100], [0.5, 0.6], [500, 2])",
    "random.integers(0, 1000000, 1000)",
    "random.integers([0, 5], 1000000, [500, 2], endpoint=true)",
    "random.choice(1000, 1000)",
    "random.choice(1000, 500, replace=false)",
    "random.choice(10, 1000, p=ones(10) / 10)",
    "random.choice(1000, 100, replace=false, p=ones(1000) / 1000)",
    "random.permutation(1000)",
    "random.normal()",
];

fn seeds_script() -> String {
    let mut script = String::new();
    for (k, draw) in DRAWS.iter().enumerate() {
        script.push_str(&format!(
            "seed(5)\na{k} = {draw}\nseed(5)\nb{k} = {draw}\nc{k} = {draw}\nseed(6)\nd{k} = {draw}\n\
             assert(all(a{k} == b{k}), \"{draw}: the same seed gives the same numbers\")\n\
             assert(any(a{k} != c{k}), \"{draw}: the stream moves on\")\n\
             assert(any(a{k} != d{k}), \"{draw}: another seed gives other numbers\")\n"
        ));
    }
    script.push_str(
        "seed(5)\nx = arange(1000)\nrandom.shuffle(x)\nseed(5)\ny = arange(1000)\nrandom.shuffle(y)\n\
         assert(all(x == y), \"shuffle repeats\")\n\
         seed(9)\nu = rand(100)\nseed(9)\nassert(all(random.rand(100) == u), \"random.rand is rand\")\n\
         print(\"ok\")\n",
    );
    script
}

#[test]
fn same_seed_same_numbers_per_device() {
    let script = seeds_script();
    for device in DEVICES {
        if !device_available(device, "same_seed_same_numbers_per_device") {
            continue;
        }
        let dir = common::work_dir("random", &format!("seeds-{device}"));
        let out = arrsh_script(device, &dir, &script);
        assert_ran(&out, &format!("the seeds script on {device}"));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "ok\n");
    }
}

#[test]
fn cpu_numbers_do_not_depend_on_the_thread_count() {
    let script = "seed(3)\nsave(\"x.npy\", concatenate([random.normal(0, 1, 300001), astype(random.poisson([2, 40], [100000, 2]), f64)[:, 0], astype(random.integers(0, 7, 200000), f64), astype(random.permutation(100000), f64)]))\n";
    let run = |threads: &str| {
        let dir = common::work_dir("random", &format!("threads-{threads}"));
        let out = Command::new(env!("CARGO_BIN_EXE_arrsh"))
            .args(["--device", "cpu", "-e", script])
            .current_dir(&dir)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .expect("arrsh runs");
        assert_ran(&out, "the threads script");
        std::fs::read(dir.join("x.npy")).unwrap()
    };
    assert!(run("1") == run("3"), "other numbers on 1 and 3 threads");
}

// ---------------------------------------------------------------------------------------------
// Errors: NumPy's messages, at the call.

struct Case {
    kind: ErrorKind,
    code: &'static str,
    words: &'static [&'static str],
}

const fn case(kind: ErrorKind, code: &'static str, words: &'static [&'static str]) -> Case {
    Case { kind, code, words }
}

#[rustfmt::skip]
const ERRORS: &[Case] = &[
    case(Value, "random.normal(0, -1)", &["scale < 0"]),
    case(Value, "random.normal([0, 1], [1, -1])", &["scale < 0"]),
    case(Value, "random.normal(0, -0.0)", &["scale < 0"]),
    case(Value, "random.exponential(-1)", &["scale < 0"]),
    case(Value, "random.exponential([1, -1], [3, 2])", &["scale < 0"]),
    case(Value, "random.poisson(-1)", &["lam < 0 or lam is NaN"]),
    case(Value, "random.poisson(nan)", &["lam < 0 or lam is NaN"]),
    case(Value, "random.poisson([1, nan])", &["lam < 0 or lam contains NaNs"]),
    case(Value, "random.poisson(1e20)", &["lam value too large"]),
    case(Value, "random.binomial(-1, 0.5)", &["n < 0"]),
    case(Value, "random.binomial([5, -1], 0.5)", &["n < 0"]),
    case(Value, "random.binomial(5, 1.5)", &["p < 0, p > 1 or p is NaN"]),
    case(Value, "random.binomial(5, [0.5, -0.1])", &["p < 0, p > 1 or p contains NaNs"]),
    case(Value, "random.choice(5, 6, replace=false)", &["Cannot take a larger sample than population when replace is False"]),
    case(Value, "random.choice([1, 2], 3, replace=false)", &["Cannot take a larger sample than population when replace is False"]),
    case(Value, "random.choice(5, 3, p=[0.5, 0.5, 0, 0, 0.1])", &["Probabilities do not sum to 1"]),
    case(Value, "random.choice(5, 3, p=[0.5, 0.5])", &["a and p must have same size"]),
    case(Value, "random.choice(5, 3, p=[1.5, -0.5, 0, 0, 0])", &["Probabilities are not non-negative"]),
    case(Value, "random.choice(2, 3, p=[nan, 1])", &["Probabilities contain NaN"]),
    case(Value, "random.choice(5, 3, p=[[0.2, 0.2, 0.2, 0.2, 0.2]])", &["p must be 1-dimensional"]),
    case(Value, "random.choice(5, 2, replace=false, p=[1, 0, 0, 0, 0])", &["Fewer non-zero entries in p than size"]),
    case(Value, "random.choice(0)", &["a must be a positive integer unless no samples are taken"]),
    case(Value, "random.choice([], 2)", &["a cannot be empty unless no samples are taken"]),
    case(Value, "random.integers(5, 5)", &["low >= high"]),
    case(Value, "random.integers(5, 4, endpoint=true)", &["low > high"]),
    case(Value, "random.integers(0)", &["high <= 0"]),
    case(Value, "random.integers([0, 5], [3, 5])", &["low >= high"]),
    case(Value, "random.integers(0, 300, dtype=i8)", &["high is out of bounds for int8"]),
    case(Value, "random.integers(-1, 3, dtype=u8)", &["low is out of bounds for uint8"]),
    case(Type, "random.integers(0, 5, dtype=f64)", &["Unsupported dtype f64"]),
    case(Value, "randint(5, 5, 3)", &["low >= high"]),
    case(Value, "randint(0)", &["high <= 0"]),
    case(Value, "random.uniform(1, 0)", &["high - low < 0"]),
    case(Overflow, "random.uniform(0, inf)", &["high - low range exceeds valid bounds"]),
    case(Type, "random.random(dtype=i32)", &["Unsupported dtype i32 for random"]),
    case(Type, "random.standard_normal(dtype=f16)", &["Unsupported dtype f16 for standard_normal"]),
    case(Type, "rand(2, dtype=i64)", &["Unsupported dtype i64 for random"]),
    case(Value, "random.random(-1)", &["negative dimensions are not allowed"]),
    case(Value, "rand(2, -1)", &["negative dimensions are not allowed"]),
    case(Type, "rand(2, f32)", &["a dimension must be an integer"]),
    case(Value, "random.normal([0, 1], 1, size=3)", &["Output size (3,) is not compatible with broadcast dimensions of inputs (2,)"]),
    case(Type, "random.normal(1j)", &["loc must be real"]),
    case(Index, "random.permutation(3.0)", &["axis 0 is out of bounds for array of dimension 0"]),
    case(Type, "random.shuffle(3)", &["shuffle needs an array"]),
    case(Index, "random.shuffle(zeros([]))", &["axis 0 is out of bounds for array of dimension 0"]),
    case(Type, "random.binomial(10)", &["missing", "`p`"]),
    case(Type, "random.normal(0, 1, 3, foo=1)", &["unexpected keyword argument `foo`"]),
];

#[test]
fn errors_have_numpys_messages() {
    for device in DEVICES {
        if !device_available(device, "errors_have_numpys_messages") {
            continue;
        }
        let dir = common::work_dir("random", &format!("errors-{device}"));
        let mut problems = Vec::new();
        for c in ERRORS {
            let code = format!(":device {device}\nprint({})", c.code);
            let out = common::run_code(&code, &dir);
            let stderr = String::from_utf8_lossy(&out.stderr);
            let header = stderr
                .lines()
                .find(|l| l.starts_with("<-e>:2:7: error: "))
                .unwrap_or("");
            let missing: Vec<&&str> = c.words.iter().filter(|w| !header.contains(**w)).collect();
            if out.status.code() != Some(1) || stderr.contains("panicked") || !missing.is_empty() {
                problems.push(format!(
                    "{}: exit {:?}, stderr {stderr}",
                    c.code,
                    out.status.code()
                ));
            }
            if device == "cpu" {
                let mut interp =
                    Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
                let kind = interp
                    .run_source("<-e>", c.code, false)
                    .err()
                    .map(|e| e.kind);
                if kind != Some(c.kind) {
                    problems.push(format!("{}: kind {kind:?}, expected {:?}", c.code, c.kind));
                }
            }
        }
        assert!(problems.is_empty(), "on {device}:\n{}", problems.join("\n"));
    }
}

#[test]
fn a_parameter_on_another_device_is_an_error() {
    if !gpu_or_skip("a_parameter_on_another_device_is_an_error") {
        return;
    }
    let dir = common::work_dir("random", "devices");
    for code in [
        "random.normal(zeros(3, device=cpu), device=gpu)",
        "random.poisson(ones(3, device=gpu), device=cpu)",
        "random.choice(3, 2, p=ones(3, device=gpu) / 3, device=cpu)",
        "random.permutation(arange(3, device=cpu), device=gpu)",
    ] {
        let out = common::run_code(&format!("print({code})"), &dir);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.code() == Some(1) && stderr.contains("move it with to("),
            "{code}: {stderr}"
        );
    }
}
