//! The error corpus: bad programs from every area of LANGUAGE.md sections 1–6, each run through the
//! real `arrsh -e SNIPPET`. Every one must fail the way the spec promises: exit status 1, exactly one
//! `<-e>:LINE:COL: error: ` header at the right place, a message that names the problem, and never a
//! panic. A second table holds edge cases that are *not* errors (they must run and print the right
//! thing), and a third holds inputs whose only promise is "no crash".
//!
//! The snippets run in parallel threads, each in a directory that holds a few fixture files.

mod common;

use std::path::{Path, PathBuf};

use arrsh::error::ErrorKind::{self, *};
use arrsh::interp::Interpreter;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// One bad snippet: its error's kind, where it must point and words its message must contain.
struct Case {
    kind: ErrorKind,
    code: &'static str,
    line: usize,
    col: usize,
    words: &'static [&'static str],
}

const fn case(
    kind: ErrorKind,
    code: &'static str,
    line: usize,
    col: usize,
    words: &'static [&'static str],
) -> Case {
    Case {
        kind,
        code,
        line,
        col,
        words,
    }
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    // ---- found by the corpus's growth: NumPy's errors that were silent answers ----
    case(Value, "fft.fft([1, 2], n=-1)", 1, 1, &["Invalid number of FFT data points (-1)"]),
    case(Value, "fft.rfft([1, 2], n=-1)", 1, 1, &["Invalid number of FFT data points (-1)"]),
    case(Value, "fft.ihfft([1, 2], n=-1)", 1, 1, &["Invalid number of FFT data points (-1)"]),
    case(Value, "histogram([1, 2], bins=[3, 1, 2])", 1, 1, &["`bins` must increase monotonically"]),
    case(Value, "hist([1, 2], bins=[3, 1])", 1, 1, &["`bins` must increase monotonically"]),
    case(Value, "average([1, 2], weights=[0, 0])", 1, 1, &["Weights sum to zero"]),
    case(Value, "average(ones([2, 2]), axis=0, weights=[1, -1])", 1, 1, &["Weights sum to zero"]),
    // ---- syntax ----
    case(Syntax, "x = (1 + 2", 1, 11, &["unexpected end of input", "still open"]),
    case(Syntax, "x = [1, 2", 1, 10, &["unexpected end of input", "still open"]),
    case(Syntax, "x = 1\ny = (2 +\n\nprint(x)", 4, 9, &["still open"]),
    case(Syntax, "print(\"abc", 1, 7, &["string"]),
    case(Syntax, "x = 1 +", 1, 8, &["unexpected end of line"]),
    case(Syntax, "x = 1\ny = 2\nz = x +\n", 3, 8, &["unexpected end of line"]),
    case(Syntax, "if { }", 1, 4, &["unexpected `{`", "expected an expression"]),
    case(Syntax, "if true { } else if { }", 1, 21, &["unexpected `{`", "expected an expression"]),
    case(Syntax, "x = * 3", 1, 5, &["unexpected `*`"]),
    case(Syntax, "y = 2 +* 2", 1, 8, &["unexpected `*`"]),
    case(Syntax, "x = 3 3", 1, 7, &["unexpected `3`"]),
    case(Syntax, "print(1,, 2)", 1, 9, &["unexpected `,`"]),
    case(Syntax, "for in range(3) { }", 1, 5, &["expected a name"]),
    case(Syntax, "while true print(1)", 1, 12, &["unexpected `p`", "block"]),
    case(Syntax, "fn f(a { }", 1, 5, &["parameter list"]),
    case(Syntax, "fn f(a, a) { return a }", 1, 9, &["duplicate parameter `a`"]),
    case(Syntax, "fn f(a=1, b) { }", 1, 11, &["without a default"]),
    case(Syntax, "fn f(a, b) { }\nf(a=1, 2)", 2, 8, &["positional argument", "keyword argument"]),
    case(Syntax, "}", 1, 1, &["unexpected `}`"]),
    case(Syntax, "else { }", 1, 1, &["unexpected `e`"]),
    case(Syntax, "@x", 1, 1, &["unexpected `@`"]),
    case(Syntax, "1 = 2", 1, 1, &["cannot assign to `1`"]),
    case(Syntax, "x = 1\n  y = = 2", 2, 7, &["unexpected `=`", "expected an expression"]),
    case(Syntax, "x = arange(5); x[1:2:3:4]", 1, 23, &["unexpected `:`"]),
    case(Syntax, "x = [1, 2]; x.shape = 3", 1, 13, &["cannot assign to the attribute `.shape`"]),
    case(Syntax, "x = 1_", 1, 5, &["unexpected"]),
    case(Syntax, "x = 1__0", 1, 5, &["unexpected"]),
    case(Syntax, "x = 1e", 1, 5, &["unexpected"]),
    case(Syntax, "x = 0x10", 1, 5, &["unexpected"]),
    case(Syntax, "x = \"\\q\"", 1, 6, &["unknown escape `\\q`"]),
    case(Overflow, "x = 9223372036854775808", 1, 5, &["does not fit in 64 bits"]),
    case(Syntax, "print(7 %% 2)", 1, 10, &["unexpected `%`"]),
    case(Syntax, "print(1) print(2)", 1, 10, &["unexpected `p`"]),
    case(Syntax, "x = 1 y = 2", 1, 7, &["unexpected `y`"]),
    case(Syntax, ":", 1, 2, &["command name"]),
    case(Syntax, "break", 1, 1, &["`break` or `continue` outside a loop"]),
    case(Syntax, "continue", 1, 1, &["`break` or `continue` outside a loop"]),
    case(Syntax, "return 1", 1, 1, &["`return` outside a function"]),
    case(Syntax, "fn f() { break }\nf()", 1, 10, &["outside a loop"]),
    case(Syntax, "for i in range(3) { }\nfn g() { continue }\ng()", 2, 10, &["outside a loop"]),
    // `-e` code may start with a minus sign like any expression
    case(Name, "-x", 1, 2, &["name `x` is not defined"]),

    // ---- names and scoping ----
    case(Name, "foo(1)", 1, 1, &["name `foo` is not defined"]),
    case(Name, "y = x + 1", 1, 5, &["name `x` is not defined"]),
    case(Name, "print(1)\nprint(undefined)", 2, 7, &["name `undefined` is not defined"]),
    case(Name, "fn f() { return zz }\nf()", 1, 17, &["name `zz` is not defined"]),
    case(Name, "fn f() { yy = 1 }\nf()\nprint(yy)", 3, 7, &["name `yy` is not defined"]),
    case(Name, "fn f() { hidden = 1 }\nhidden", 2, 1, &["name `hidden` is not defined"]),
    case(Name, "fn outer() { fn helper() { return 1 } return helper() }\nouter()\nhelper()", 3, 1, &["name `helper` is not defined"]),
    case(Name, "x = 1\nfn g() { x = x + 1 }\ng()", 2, 14, &["local variable `x`", "before it is assigned"]),
    case(Name, "fn f() { if false { v = 1 } return v }\nf()", 1, 36, &["local variable `v`", "before it is assigned"]),
    case(Name, "x = infinity + 1", 1, 5, &["name `infinity` is not defined"]),
    case(Name, "print(infinity)", 1, 7, &["name `infinity` is not defined"]),
    case(Name, "print(repr(1))", 1, 7, &["name `repr` is not defined"]),

    // ---- arity and keyword arguments ----
    case(Type, "fn f(a) { return a }\nf(1, 2)", 2, 1, &["f()", "takes 1", "2 were given"]),
    case(Type, "fn f() { return }\nf(1)", 2, 1, &["f()", "takes 0", "1 were given"]),
    case(Type, "fn f(a) { return a }\nf()", 2, 1, &["f()", "missing", "`a`"]),
    case(Type, "fn f(a, b=1) { }\nf(b=2)", 2, 1, &["f()", "missing", "`a`"]),
    case(Type, "fn f(a) { return a }\nf(b=1)", 2, 1, &["f()", "unexpected keyword argument `b`"]),
    case(Type, "fn f(a) { return a }\nf(1, a=2)", 2, 1, &["f()", "multiple values", "`a`"]),
    case(Type, "f = fn(a, b=2) { a }\nf(1, 2, 3)", 2, 1, &["takes 2", "3 were given"]),
    case(Type, "zeros()", 1, 1, &["zeros(shape, dtype=, device=)", "missing", "`shape`"]),
    case(Type, "zeros(3, foo=1)", 1, 1, &["unexpected keyword argument `foo`"]),
    case(Type, "print(ones(2, device=cpu, dtpye=f32))", 1, 7, &["unexpected keyword argument `dtpye`"]),
    case(Type, "zeros(3, 4, 5, 6)", 1, 1, &["takes at most 3"]),
    case(Type, "ones(2, dtype=f32, dtype=f64)", 1, 1, &["multiple values", "`dtype`"]),
    case(Type, "print(sum())", 1, 7, &["missing", "`x`"]),
    case(Type, "print(sync(1))", 1, 7, &["sync()", "takes at most 0"]),
    case(Type, "t = clock(1)", 1, 5, &["clock()", "takes at most 0"]),
    case(Type, "range()", 1, 1, &["missing", "`start`"]),
    case(Type, "len(1, 2)", 1, 1, &["takes at most 1 positional argument (2 given)"]),
    case(Type, "where([true], 1)", 1, 1, &["missing", "`y`"]),
    case(Type, "assert()", 1, 1, &["missing", "`cond`"]),
    case(Type, "x = linspace(0)", 1, 5, &["missing", "`stop`"]),
    case(Type, "x = full([2, 2])", 1, 5, &["missing", "`fill_value`"]),

    // ---- types ----
    case(Type, "\"a\" + 1", 1, 1, &["unsupported operand types for +", "str", "int"]),
    case(Type, "\"a\" - \"b\"", 1, 1, &["unsupported operand types for -"]),
    case(Type, "ones(2) + \"a\"", 1, 1, &["unsupported operand types for +", "array", "str"]),
    case(Type, "none + 1", 1, 1, &["unsupported operand types for +", "none"]),
    case(Type, "cpu + 1", 1, 1, &["unsupported operand types for +", "device"]),
    case(Type, "1 @ 2", 1, 1, &["matmul"]),
    case(Type, "ones([2, 2]) @ 3", 1, 1, &["matmul", "use *"]),
    case(Type, "x = 1; x()", 1, 8, &["not callable"]),
    case(Type, "print(1)(2)", 1, 1, &["not callable"]),
    case(Type, "print(-\"a\")", 1, 7, &["bad operand type for unary -: str"]),
    case(Type, "sqrt(\"a\")", 1, 1, &["expected a number", "str"]),
    case(Type, "outer(\"a\", [1])", 1, 1, &["expected an array", "str"]),
    case(Value, "int(\"abc\")", 1, 1, &["invalid literal for int()", "\"abc\""]),
    case(Value, "float(\"x\")", 1, 1, &["could not convert string to float", "\"x\""]),
    case(Type, "zeros(\"3\")", 1, 1, &["shape must be an integer"]),
    case(Type, "zeros(2.5)", 1, 1, &["shape must be an integer", "2.5"]),
    case(Type, "ones([2, 1.5])", 1, 1, &["dimension must be an integer", "1.5"]),
    case(Type, "reshape(arange(6), [2, 3.5])", 1, 1, &["dimension must be an integer", "3.5"]),
    case(Type, "reshape(arange(6), \"a\")", 1, 1, &["shape must be an integer"]),
    case(Type, "range(1.5)", 1, 1, &["must be an integer", "1.5"]),
    case(Type, "seed(\"a\")", 1, 1, &["seed must be an integer"]),
    case(Type, "for x in 5 { }", 1, 10, &["cannot be iterated"]),
    case(Type, "for v in reshape([1], []) { }", 1, 10, &["iteration over a 0-d array"]),
    case(Type, "len(5)", 1, 1, &["has no len()"]),
    case(Type, "len(none)", 1, 1, &["has no len()"]),
    case(Type, "len(reshape([1], []))", 1, 1, &["len() of a 0-d array"]),
    case(Type, "astype(arange(3), \"f8\")", 1, 1, &["unknown dtype \"f8\""]),
    case(Type, "zeros(3, dtype=cpu)", 1, 1, &["expected a dtype", "device"]),
    case(Type, "to(ones(2), f32)", 1, 1, &["expected a device (cpu or gpu)", "f32"]),
    case(Type, "concatenate(5)", 1, 1, &["expected a list of arrays"]),
    case(Type, "\"abc\"[1.5]", 1, 7, &["indices must be integers", "float"]),
    case(Type, "arange(3)[1.5]", 1, 11, &["indices must be integers", "float"]),
    case(Type, "arange(3)[\"a\"]", 1, 11, &["indices must be integers", "str"]),
    case(Type, "ones(2)[0][0]", 1, 1, &["cannot be indexed"]),
    case(Type, "5[0]", 1, 1, &["cannot be indexed"]),
    case(Type, "x = 1; x[0] = 2", 1, 8, &["does not support item assignment"]),
    case(Type, "s = \"abc\"; s[0] = \"x\"", 1, 12, &["does not support item assignment"]),
    case(Type, "x = arange(3); x[1] = \"a\"", 1, 16, &["expected a number or an array", "str"]),
    case(Type, "none.shape", 1, 1, &["has no attribute `shape`"]),
    case(Type, "x = ones(2); x.foo", 1, 14, &["has no attribute `foo`"]),
    case(Type, "fn f() { }\nf.shape", 2, 1, &["has no attribute `shape`"]),
    case(Type, "arange(3).foo()", 1, 1, &["has no method `foo`"]),
    case(Type, "x = 3; x.foo()", 1, 8, &["has no method `foo`"]),
    case(Value, "if arange(3) { print(1) }", 1, 4, &["truth value", "ambiguous", "any() or all()"]),
    case(Value, "while ones(2) { }", 1, 7, &["truth value", "ambiguous", "any() or all()"]),
    case(Value, "x = arange(3)\nwhile x > 1 { }", 2, 7, &["truth value", "ambiguous"]),
    case(Value, "if arange(2) > 0 { }", 1, 4, &["truth value", "ambiguous"]),
    case(Value, "assert(ones(2) == 1)", 1, 1, &["truth value", "ambiguous"]),
    case(Value, "x = not ones(3)", 1, 9, &["truth value", "ambiguous"]),
    case(Value, "if arange(3) and true { }", 1, 4, &["truth value", "ambiguous"]),
    case(Value, "x = false or arange(2)", 1, 14, &["truth value", "ambiguous"]),

    // ---- shapes and broadcasting ----
    case(Shape, "[1, 2] + [1, 2, 3]", 1, 1, &["could not be broadcast", "(2,)", "(3,)"]),
    case(Shape, "eye(2) + ones([3, 3])", 1, 1, &["could not be broadcast", "(2, 2)", "(3, 3)"]),
    case(Shape, "a = ones([2, 3])\nb = a * ones([3, 2])", 2, 5, &["could not be broadcast", "(2, 3)", "(3, 2)"]),
    case(Shape, "maximum(ones(2), ones(3))", 1, 1, &["could not be broadcast"]),
    case(Shape, "clip(ones(2), ones(3), 1)", 1, 1, &["could not be broadcast"]),
    case(Shape, "where([true, false], [1, 2, 3], 0)", 1, 1, &["could not be broadcast"]),
    case(Shape, "ones([2, 3]) @ ones([2, 3])", 1, 1, &["matmul", "(2, 3)", "not aligned"]),
    case(Shape, "ones(3) @ ones(4)", 1, 1, &["matmul", "(3,)", "(4,)"]),
    case(Shape, "dot(ones([2, 3]), ones(2))", 1, 1, &["matmul", "not aligned"]),
    case(Shape, "reshape(arange(6), [4, 2])", 1, 1, &["cannot reshape array of size 6 into shape (4, 2)"]),
    case(Shape, "reshape(arange(6), [4, -1])", 1, 1, &["cannot reshape array of size 6"]),
    case(Value, "reshape(arange(6), [-1, -1])", 1, 1, &["only specify one unknown dimension"]),
    case(Shape, "concatenate([ones(2), ones([2, 2])])", 1, 1, &["dimensions", "must match"]),
    case(Shape, "concatenate([ones([2, 2]), ones([3, 3])], axis=1)", 1, 1, &["must match", "(2, 2)", "(3, 3)"]),
    case(Index, "concatenate([ones(2), ones(2)], axis=1)", 1, 1, &["axis 1 is out of bounds"]),
    case(Value, "concatenate([])", 1, 1, &["need at least one array"]),
    case(Shape, "stack([ones(2), ones(3)])", 1, 1, &["same shape", "(2,)", "(3,)"]),
    case(Index, "stack([ones(2), ones(2)], axis=3)", 1, 1, &["axis 3 is out of bounds"]),
    case(Shape, "conv2d(ones(3), ones([3, 3]))", 1, 1, &["conv2d", "2-d"]),
    case(Shape, "x = ones(3); x += ones(4)", 1, 19, &["(4,)", "(3,)"]),
    case(Shape, "x = ones(3); x += ones([2, 3])", 1, 19, &["(2, 3)", "(3,)"]),
    case(Shape, "x = ones(3); x[0:2] = [1, 2, 3]", 1, 14, &["could not broadcast", "(3,)", "(2,)"]),
    case(Shape, "x = ones([2, 2]); x[0] = ones(3)", 1, 19, &["could not broadcast", "(3,)", "(2,)"]),
    case(Shape, "x = arange(3)\nx[1] = x", 2, 1, &["could not broadcast"]),
    case(Shape, "x = [[1, 2], [3]]", 1, 5, &["(2,)", "(1,)"]),
    case(Index, "sum(ones([2, 2]), axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Index, "cumsum(ones([2, 2]), axis=-3)", 1, 1, &["axis -3 is out of bounds"]),
    case(Value, "max(zeros(0))", 1, 1, &["zero-size array", "no identity"]),
    case(Value, "argmax(zeros(0))", 1, 1, &["empty"]),
    case(Value, "min(zeros([0, 3]), axis=0)", 1, 1, &["zero-size array"]),

    // ---- indices out of range ----
    case(Index, "x = arange(3); x[3]", 1, 16, &["index 3 is out of bounds for axis 0 with size 3"]),
    case(Index, "x = arange(3); x[-4]", 1, 16, &["index -4 is out of bounds for axis 0 with size 3"]),
    case(Index, "x = ones([2, 2]); x[0, 5]", 1, 19, &["index 5 is out of bounds for axis 1 with size 2"]),
    case(Index, "x = reshape(arange(4), [2, 2]); x[2, 0]", 1, 33, &["index 2 is out of bounds for axis 0"]),
    case(Index, "x = reshape(arange(4), [2, 2]); x[:, 2]", 1, 33, &["index 2 is out of bounds for axis 1"]),
    case(Index, "x = ones([2, 2]); x[0, 0, 0]", 1, 19, &["too many indices"]),
    case(Index, "print(arange(5)[1:3, 0])", 1, 7, &["too many indices"]),
    case(Index, "reshape([1], [])[0]", 1, 1, &["too many indices", "0-dimensional"]),
    case(Index, "print(zeros(0)[0])", 1, 7, &["index 0 is out of bounds for axis 0 with size 0"]),
    case(Index, "x = arange(3); x[[0, 5]]", 1, 16, &["index 5 is out of bounds"]),
    case(Index, "x = arange(3); x[[true, false]]", 1, 16, &["boolean index did not match"]),
    case(Index, "x = arange(3); x[3] = 1", 1, 16, &["index 3 is out of bounds"]),
    case(Index, "x = arange(3); x[[0, 3]] = 1", 1, 16, &["index 3 is out of bounds"]),
    case(Value, "x = arange(5); print(x[::0])", 1, 22, &["slice step cannot be zero"]),
    case(Index, "fn f(x) {\n    return x[10]\n}\nf(arange(3))", 2, 12, &["index 10 is out of bounds"]),
    case(Index, "\"abc\"[5]", 1, 1, &["str index 5 is out of range"]),
    case(Index, "\"abc\"[-4]", 1, 1, &["str index -4 is out of range"]),
    case(Index, "devices()[5]", 1, 1, &["index 5 is out of range"]),
    case(Index, "x = ones(2).shape; x[3]", 1, 20, &["index 3 is out of range"]),
    case(Index, "range(3)[5]", 1, 1, &["index 5 is out of range"]),

    // ---- dtypes and promotion misuse ----
    case(Type, "x = arange(3); x *= 2.5", 1, 21, &["in place", "f64", "i64"]),
    case(Type, "x = arange(3); x /= 2", 1, 21, &["in place", "f64", "i64"]),
    case(Type, "x = arange(3); x += [0.5]", 1, 21, &["in place", "f64", "i64"]),
    case(Type, "b = [true, false]; b += 1", 1, 25, &["in place", "i64", "bool"]),
    case(Value, "print(arange(3) ** -1)", 1, 7, &["negative integer powers"]),
    case(Type, "print(-[true, false])", 1, 7, &["not supported", "bool"]),
    case(Type, "print([true] - [false])", 1, 7, &["not supported", "bool"]),

    // ---- devices (the cases that need a gpu to be absent, or present, are in NO_GPU_CASES and GPU_CASES) ----
    case(Type, "to(ones(2), \"tpu\")", 1, 1, &["expected a device (cpu or gpu)", "\"tpu\""]),
    case(Type, "zeros(2, device=3)", 1, 1, &["expected a device (cpu or gpu)"]),
    case(Command, ":device tpu", 1, 1, &[":device takes cpu, gpu or auto", "`tpu`"]),
    case(Command, ":frobnicate", 1, 1, &["unknown command :frobnicate"]),

    // ---- files ----
    case(Io, "load(\"missing.npy\")", 1, 1, &["missing.npy", "no such file"]),
    case(Io, "x = load(\"bad.npy\")", 1, 5, &["bad.npy", "not a .npy file"]),
    case(Io, "load(\"f128.npy\")", 1, 1, &["f128.npy", "float128"]),
    case(Io, "load(\"trunc.npy\")", 1, 1, &["trunc.npy", "truncated"]),
    case(Io, "load(\"adir\")", 1, 1, &["adir"]),
    case(Io, "save(\"nodir/x.npy\", ones(2))", 1, 1, &["cannot save", "nodir/x.npy"]),
    case(Type, "save(3, ones(2))", 1, 1, &["file name must be a str"]),
    case(Type, "load(5)", 1, 1, &["file name must be a str"]),
    case(Type, "save(\"x.npy\", \"abc\")", 1, 1, &["expected an array", "str"]),
    case(Io, ":load missing.arr", 1, 1, &["missing.arr"]),

    // ---- recursion depth ----
    case(Recursion, "fn f(n) { return f(n + 1) }\nf(0)", 1, 18, &["maximum recursion depth", "f()"]),
    case(Recursion, "fn a(n) { return b(n) }\nfn b(n) { return a(n) }\na(1)", 2, 18, &["maximum recursion depth"]),
    case(Recursion, "g = fn(n) { g(n + 1) }\ng(0)", 1, 13, &["maximum recursion depth"]),

    // ---- integer overflow of host ints ----
    case(Overflow, "9223372036854775807 + 1", 1, 1, &["integer overflow", "9223372036854775807 + 1"]),
    case(Overflow, "print(-9223372036854775807 - 2)", 1, 7, &["integer overflow"]),
    case(Overflow, "print(2 ** 63)", 1, 7, &["integer overflow", "2 ** 63"]),
    case(Overflow, "print(10 ** 19)", 1, 7, &["integer overflow"]),
    case(Overflow, "print(3037000500 * 3037000500)", 1, 7, &["integer overflow"]),
    case(Overflow, "x = 9223372036854775807; x += 1", 1, 31, &["integer overflow"]),
    case(Overflow, "x = 2 ** 62; y = x * 4", 1, 18, &["integer overflow"]),
    case(Overflow, "fn grow(n) { return n * 2 }\ngrow(2 ** 62)", 1, 21, &["integer overflow"]),
    case(Overflow, "print(-(-9223372036854775807 - 1))", 1, 7, &["overflow", "negation"]),
    case(Overflow, "print(abs(-9223372036854775807 - 1))", 1, 7, &["overflow"]),
    case(Overflow, "print(int(1e300))", 1, 7, &["cannot convert", "int"]),
    case(Overflow, "print(int(float(\"inf\")))", 1, 7, &["cannot convert inf"]),
    case(Overflow, "print(int(float(\"nan\")))", 1, 7, &["cannot convert nan"]),
    case(Overflow, "print(len(range(-9223372036854775807 - 1, 9223372036854775807)))", 1, 7, &["overflow"]),

    // ---- division by zero ----
    case(ZeroDivision, "1 / 0", 1, 1, &["integer division by zero"]),
    case(ZeroDivision, "print(0 / 0)", 1, 7, &["integer division by zero"]),
    case(ZeroDivision, "n = 0\nprint(10 / n)", 2, 7, &["integer division by zero"]),
    case(ZeroDivision, "print(10 / false)", 1, 7, &["division by zero"]),
    case(ZeroDivision, "5 % 0", 1, 1, &["modulo by zero"]),
    case(ZeroDivision, "print(ones(2, dtype=i64) / 0)", 1, 7, &["integer division by zero"]),
    case(ZeroDivision, "print(arange(3) % 0)", 1, 7, &["by zero"]),

    // ---- assertions ----
    case(Assertion, "assert(1 == 2, \"math is broken\")", 1, 1, &["math is broken"]),
    case(Assertion, "assert(false)", 1, 1, &["assertion failed"]),
    case(Assertion, "assert(0)", 1, 1, &["assertion failed"]),
    case(Assertion, "assert(all(ones(2) == 0), \"not zeros\")", 1, 1, &["not zeros"]),
    case(Assertion, "x = 1\nassert(x > 1, \"x is \" + str(x))", 2, 1, &["x is 1"]),

    // ---- bad shapes and sizes ----
    case(Value, "zeros(-1)", 1, 1, &["negative dimensions are not allowed"]),
    case(Value, "ones([2, -3])", 1, 1, &["negative dimensions are not allowed"]),
    case(Value, "full(-2, 1)", 1, 1, &["negative dimensions are not allowed"]),
    case(Value, "empty(-5)", 1, 1, &["negative dimensions are not allowed"]),
    case(Value, "rand(-1)", 1, 1, &["negative dimensions are not allowed"]),
    case(Value, "print(randint(0, 10, [2, -1]))", 1, 7, &["negative dimensions are not allowed"]),
    case(Value, "eye(-1)", 1, 1, &["negative dimensions"]),
    case(Value, "linspace(0, 1, -1)", 1, 1, &["non-negative"]),
    case(Value, "arange(0, 10, 0)", 1, 1, &["step cannot be zero"]),
    case(Value, "range(0, 10, 0)", 1, 1, &["step must not be zero"]),
    case(Value, "randint(5, 5, 3)", 1, 1, &["low >= high"]),
    case(Memory, "zeros(1e300)", 1, 1, &["shape 1e+300 is too large"]),
    case(Memory, "ones(1e15)", 1, 1, &["cannot allocate"]),
    case(Memory, "zeros([100000, 100000, 100000])", 1, 1, &["cannot allocate"]),
    case(Memory, "x = arange(1e20)", 1, 5, &["cannot allocate"]),
    case(Memory, "x = arange(0, 1, 1e-300)", 1, 5, &["cannot allocate"]),
    case(Memory, "array_split(arange(6.0), 2**62)", 1, 1, &["cannot allocate", "sub-arrays"]),
    case(Memory, "histogram(arange(6.0), 2**62)", 1, 1, &["cannot allocate"]),
    case(Memory, "fft.fftfreq(2**62)", 1, 1, &["cannot allocate"]),
    case(Memory, "fft.rfftfreq(2**62)", 1, 1, &["cannot allocate"]),
    case(Memory, "random.permutation(2**62)", 1, 1, &["cannot allocate"]),
    case(Memory, "x = linspace(0, 1, 1e15)", 1, 5, &["cannot allocate"]),
    case(Memory, "x = eye(1e8)", 1, 5, &["cannot allocate"]),

    // ---- commands: arguments ----
    case(Command, ":time maybe", 1, 1, &[":time takes on or off", "`maybe`"]),
    case(Command, ":time on off", 1, 1, &[":time takes on or off", "`on off`"]),
    case(Command, ":scalar foo", 1, 1, &[":scalar takes allow, warn or error", "`foo`"]),
    case(Command, ":device cpu gpu", 1, 1, &[":device takes cpu, gpu or auto"]),
    case(Command, ":bench", 1, 1, &[":bench needs a statement"]),
    case(Command, ":sweep", 1, 1, &[":sweep needs `for n in SIZES { BODY }`"]),
    case(Command, ":sweep n in [1] { x = 1 }", 1, 1, &[":sweep needs `for n in SIZES { BODY }`"]),
    case(Command, ":sweep for n in [1, 2] x = 1", 1, 1, &[":sweep needs `for n in SIZES { BODY }`"]),
    case(Command, ":sweep for n in \"abc\" { x = 1 }", 1, 1, &["sizes must be a list"]),
    case(Command, ":sweep for n in [] { x = 1 }", 1, 1, &["at least one size"]),
    case(Command, ":sweep for n in [-1] { x = ones(n) }", 1, 1, &["whole non-negative numbers", "-1"]),
    case(Command, ":sweep for n in [1.5] { x = ones(n) }", 1, 1, &["whole non-negative numbers", "1.5"]),
    case(Command, ":help nosuch", 1, 1, &["no built-in or command named `nosuch`"]),
    case(Command, ":load", 1, 1, &[":load needs a script file"]),
    case(Command, ":profile", 1, 1, &[":profile needs a script file"]),
    case(Command, ":vars extra", 1, 1, &[":vars takes no argument", "`extra`"]),
    case(Command, ":reset all", 1, 1, &[":reset takes no argument"]),
    case(Command, ":quit now", 1, 1, &[":quit takes no argument"]),
    case(Command, "x = 1\n:Time on", 2, 1, &["unknown command :Time"]),
    case(Syntax, ": time", 1, 2, &["command name"]),

    // ---- commands: errors in the code they run point into the command's line ----
    case(Syntax, ":bench x = (", 1, 13, &["still open"]),
    case(Name, ":bench undefined_name", 1, 8, &["name `undefined_name` is not defined"]),
    case(ZeroDivision, ":bench 1 / 0", 1, 8, &["integer division by zero"]),
    case(Index, "x = arange(3)\n:bench   y = x[5]", 2, 14, &["index 5 is out of bounds"]),
    case(Name, ":sweep for n in [1, zz] { y = 1 }", 1, 21, &["name `zz` is not defined"]),
    case(Name, ":sweep for n in [1, 2] { y = undefined }", 1, 30, &["name `undefined` is not defined"]),
    case(Syntax, ":sweep for n in [1, 2] { y = ) }", 1, 30, &["unexpected `)`"]),
    case(Memory, ":sweep for n in [1e15] { x = ones(n) }", 1, 30, &["cannot allocate"]),

    // ---- files: scripts ----
    case(Io, ":load adir", 1, 1, &["adir is a directory, not a script"]),
    case(Io, ":profile adir", 1, 1, &["adir is a directory, not a script"]),
    case(Io, ":load ok.npy", 1, 1, &["ok.npy is not a text script", "invalid UTF-8 at byte 0"]),
    case(Io, ":profile missing.arr", 1, 1, &["cannot read missing.arr"]),
    case(Io, ":load /proc/self/mem", 1, 1, &["cannot read /proc/self/mem"]),

    // ---- files: arrays ----
    case(Io, "load(\"\")", 1, 1, &["cannot load ''", "no such file"]),
    case(Io, "x = load(\"nodir/x.npy\")", 1, 5, &["nodir/x.npy", "no such file"]),
    case(Io, "save(\"adir\", ones(2))", 1, 1, &["cannot save 'adir'", "directory"]),
    case(Io, "save(\"\", ones(2))", 1, 1, &["cannot save ''"]),
    case(Io, "x = ones(3)\nsave(\"/proc/version\", x)", 2, 1, &["cannot save '/proc/version'"]),
    case(Io, "fn keep(x) { save(\"nodir/k.npy\", x) }\nkeep(ones(2))", 1, 14, &["cannot save"]),

    // ---- assignment targets ----
    case(Syntax, "f(x) = 3", 1, 1, &["cannot assign to `f(x)`"]),
    case(Syntax, "x = 1\nx + 1 = 2", 2, 1, &["cannot assign to `x + 1`"]),
    case(Syntax, "-x = 1", 1, 1, &["cannot assign to `-x`"]),
    case(Syntax, "(x) = 1", 1, 1, &["cannot assign to `(x)`"]),
    case(Syntax, "x = [1]; x[0]() = 2", 1, 10, &["cannot assign to `x[0]()`"]),
    case(Syntax, "a.b.c = 1", 1, 1, &["cannot assign to the attribute `.c`"]),

    // ---- sizes that memory cannot hold, dimensions NumPy does not allow ----
    case(Memory, "x = \"ab\" * 1000000000000", 1, 5, &["cannot allocate", "for a string"]),
    case(Memory, "s = \"abcdefgh\" * 100000\ns = s * 100000000", 2, 5, &["cannot allocate", "for a string"]),
    case(Memory, "reshape(arange(0), [4611686018427387904, 4])", 1, 1, &["too big"]),
    case(Memory, "zeros([4294967296, 4294967296])", 1, 1, &["too big"]),
    case(Memory, "zeros([0, 4611686018427387904, 4])", 1, 1, &["too big"]),
    case(Shape, "x = ones([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1])", 1, 5, &["at most 64 dimensions", "65"]),
    case(Shape, "x = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", 1, 5, &["at most 64 dimensions"]),
    // ---- NumPy's array functions: the errors NumPy raises, at the call ----
    case(Index, "x = ones([2, 3])\ny = x[0, 0, 0]", 2, 5, &["too many indices"]),
    case(Index, "x = ones([2, 3])\ny = x[..., 0, ...]", 2, 5, &["single ellipsis"]),
    case(Index, "x = ones([2, 3])\ny = x[[true, false, true]]", 2, 5, &["boolean index did not match", "axis 0"]),
    case(Index, "x = ones([2, 3])\ny = x[:, [0, 5]]", 2, 5, &["index 5 is out of bounds", "axis 1"]),
    case(Index, "x = ones([2, 3])\ny = x[[1.5]]", 2, 5, &["integer or bool"]),
    case(Shape, "x = ones([2, 3])\nx[[0, 1]] = ones([3, 3])", 2, 1, &["could not broadcast", "(3, 3)", "(2, 3)"]),
    case(Shape, "x = ones([2, 3])\ny = x[[0, 1], [0, 1, 2]]", 2, 5, &["broadcast"]),
    case(Value, "a, b = [1, 2, 3]", 1, 8, &["too many values to unpack", "expected 2"]),
    case(Value, "a, b, c = [1, 2]", 1, 11, &["not enough values to unpack"]),
    case(Type, "a, b = 5", 1, 8, &["cannot unpack"]),
    case(Index, "moveaxis(ones([2, 3]), 0, 5)", 1, 1, &["axis 5 is out of bounds"]),
    case(Value, "transpose(ones([2, 3]), [0, 0])", 1, 1, &["repeated axis"]),
    case(Value, "squeeze(ones([2, 3]), axis=0)", 1, 1, &["cannot select an axis to squeeze"]),
    case(Shape, "broadcast_to(ones(3), [2, 4])", 1, 1, &["cannot broadcast"]),
    case(Value, "split(arange(5), 2)", 1, 1, &["does not result in an equal division"]),
    case(Value, "pad([1, 2], 1, mode=\"mirror\")", 1, 1, &["mode", "not supported"]),
    case(Value, "pad([1, 2], 3, mode=\"reflect\")", 1, 1, &["wider than the axis"]),
    case(Type, "stack([ones(2), ones(2)], axis=none)", 1, 1, &["integer axis"]),
    case(Type, "concatenate([ones(2), ones(2)], axis=none, bogus=1)", 1, 1, &["unexpected keyword argument `bogus`"]),
    case(Shape, "vstack([ones(2), ones(3)])", 1, 1, &["dimensions except for the concatenation axis"]),
    case(Value, "sort([3, 1], kind=\"bogo\")", 1, 1, &["sort kind"]),
    case(Value, "partition([3, 1, 2], 5)", 1, 1, &["kth(=5) out of bounds"]),
    case(Value, "searchsorted(ones([2, 2]), 1)", 1, 1, &["1-d"]),
    case(Value, "searchsorted([1, 2], 1, side=\"middle\")", 1, 1, &["side"]),
    case(Value, "quantile([1, 2, 3], 1.5)", 1, 1, &["range [0, 1]"]),
    case(Value, "percentile(zeros(0), 50)", 1, 1, &["empty"]),
    case(Value, "bincount([1, -1])", 1, 1, &["no negative elements"]),
    case(Value, "histogram([1, 2], bins=0)", 1, 1, &["`bins` must be positive"]),
    case(Value, "histogram([1, 2], range=[3, 1])", 1, 1, &["max must be larger than min"]),
    case(Value, "digitize([1, 2], [1, 3, 2])", 1, 1, &["monotonically"]),
    case(Value, "nanargmax([nan, nan])", 1, 1, &["All-NaN slice"]),
    case(Value, "einsum(\"ij,jk\", ones([2, 2]))", 1, 1, &["einsum", "operands"]),
    case(Shape, "einsum(\"ij,jk->ik\", ones([2, 3]), ones([2, 3]))", 1, 1, &["einsum: subscript 'j' has size 3 in operand 0 and 2 in operand 1"]),
    case(Shape, "einsum(\"ij,jk\", ones([2, 3]), ones([4, 2]))", 1, 1, &["einsum: subscript 'j' has size 3 in operand 0 and 4 in operand 1"]),
    case(Value, "einsum(\"ij->k\", ones([2, 3]))", 1, 1, &["output subscript 'k'"]),
    case(Value, "tensordot(ones(3), ones(3), axes=2)", 1, 1, &["axes exceeds"]),
    case(Value, "finfo(i32)", 1, 1, &["not inexact"]),
    case(Value, "iinfo(f64)", 1, 1, &["Invalid integer data type"]),
    case(Value, "isdtype(f32, \"floating\")", 1, 1, &["kind argument"]),
    case(Value, "can_cast(f32, f64, casting=\"lenient\")", 1, 1, &["casting must be one of"]),
    case(Type, "finfo(f32).bogus", 1, 1, &["finfo has no attribute `bogus`"]),
    case(Value, "meshgrid([1], indexing=\"yx\")", 1, 1, &["indexing"]),
    case(Value, "tril(ones(3))", 1, 1, &["at least 2 dimensions"]),
    case(Value, "diag(ones([2, 2, 2]))", 1, 1, &["1- or 2-d"]),
    case(Index, "unique([1, 2], axis=3)", 1, 1, &["axis 3 is out of bounds"]),
    case(Type, "cumulative_sum(ones([2, 2]), include_initial=true)", 1, 1, &["axis="]),
    case(Type, "std([1, 2], ddof=1, correction=1)", 1, 1, &["ddof and correction"]),
    case(Type, "argmax(ones([2, 2]), axis=[0, 1])", 1, 1, &["must be an integer"]),
    // ---- pictures: matplotlib's errors at the call; file= takes .svg or .png ----
    case(Value, "plot(ones([2, 2, 2]))", 1, 1, &["no greater than 2D", "(2,) and (2, 2, 2)"]),
    case(Value, "x = 1\nplot([1, 2, 3], [1, 2])", 2, 1, &["same first dimension", "(3,) and (2,)"]),
    case(Value, "plot(ones([3, 2]), ones([3, 3]))", 1, 1, &["x has 2 columns but y has 3 columns"]),
    case(Value, "plot([1, 2], [[1, 2], [3, 4]], label=[\"a\"])", 1, 1, &["found 1 for 2 datasets"]),
    case(Value, "scatter([1, 2], [1, 2, 3])", 1, 1, &["x and y must be the same size"]),
    case(Value, "y = 2; hist([1, 2], bins=0)", 1, 8, &["`bins` must be positive"]),
    case(Value, "plot([1, 2], file=\"out.jpg\")", 1, 1, &[".svg or .png", "out.jpg"]),
    case(Value, "hist([1, 2], file=\"out\")", 1, 1, &[".svg or .png", "'out'"]),
    case(Value, "imshow(ones([2, 2, 5]))", 1, 1, &["Invalid shape (2, 2, 5) for image data"]),
    case(Value, "imshow(ones([0, 3]))", 1, 1, &["at least one pixel", "(0, 3)"]),
    case(Value, "bar(ones([2, 2]))", 1, 1, &["1-d array of heights", "(2, 2)"]),
    case(Value, "bar([1, 2], labels=[\"a\"])", 1, 1, &["2 heights but 1 labels"]),
    case(Type, "plot([1j, 2])", 1, 1, &["cannot draw c128 values"]),
    case(Type, "bar([1, 2], labels=\"ab\")", 1, 1, &["labels must be a list"]),
    case(Io, "plot([1, 2], file=\"no/such/dir/a.svg\")", 1, 1, &["cannot save", "no/such/dir/a.svg"]),
    case(Value, ":sweep for n in [1, 2] { x = ones(n) } file=\"a.jpg\"", 1, 1, &[".svg or .png", "a.jpg"]),
    case(Command, ":sweep for n in [1, 2] { x = ones(n) } fil=\"a.svg\"", 1, 1, &["takes only file=", "fil="]),
    case(Command, ":sweep for n in [1, 2] { x = ones(n) } file=3", 1, 1, &["file= must be a str"]),
    case(Name, ":sweep for n in [1, 2] { x = ones(n) } file=nowhere", 1, 45, &["name `nowhere` is not defined"]),
    // ---- user kernels (made anywhere; run on the gpu only) ----
    case(Value, "k = elementwise_kernel(\"T x, T\", \"T z\", \"z = x\")", 1, 5, &["`T` is not a parameter", "TYPE NAME"]),
    case(Value, "k = elementwise_kernel(\"T x, T x\", \"T z\", \"z = x\")", 1, 5, &["`x` is declared twice"]),
    case(Value, "k = elementwise_kernel(\"T x\", \"\", \"z = x\")", 1, 5, &["declares no output"]),
    case(Value, "k = elementwise_kernel(\"T x\", \"T x\", \"x = 1\")", 1, 5, &["`x` is both an input and an output parameter"]),
    case(Value, "k = reduction_kernel(\"T x\", \"T x\", \"x\", \"a + b\", \"x = a\", \"0\")", 1, 5, &["reduction_kernel: `x` is both an input and an output parameter"]),
    case(Type, "k = elementwise_kernel(1, \"T z\", \"z = 1\")", 1, 5, &["in_params is a string", "int"]),
    case(Value, "k = raw_kernel(\"int x;\", \"a b\")", 1, 5, &["`a b` is not a C identifier"]),
    case(Value, "k = reduction_kernel(\"T x\", \"T y, T w\", \"x\", \"a + b\", \"y = a\", \"0\")", 1, 5, &["exactly one output"]),
    case(Type, "f = fuse(3)", 1, 5, &["fuse takes a function", "int"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\")\nk(ones(2, device=cpu))", 2, 1, &["needs the gpu", "fuse(f)"]),
    case(Type, "k = raw_kernel(\"\", \"k\")\nk(1, 1, [ones(2, device=cpu)])", 2, 1, &["needs the gpu"]),
    case(Type, "k = reduction_kernel(\"T x\", \"T y\", \"x\", \"a + b\", \"y = a\", \"0\")\nk(ones(2, device=cpu))", 2, 1, &["needs the gpu"]),
    // ---- linalg: NumPy's LinAlgError and its other errors, at the call ----
    case(LinAlg, "linalg.inv(zeros([2, 2]))", 1, 1, &["LinAlgError: Singular matrix"]),
    case(LinAlg, "a = [[1.0, 2.0], [2.0, 4.0]]\nx = linalg.solve(a, [1.0, 1.0])", 2, 5, &["LinAlgError: Singular matrix"]),
    case(LinAlg, "linalg.cholesky(-eye(3))", 1, 1, &["LinAlgError: Matrix is not positive definite"]),
    case(LinAlg, "linalg.det(ones([2, 3]))", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(LinAlg, "linalg.eigvalsh(ones(4))", 1, 1, &["LinAlgError", "1-dimensional array given"]),
    case(LinAlg, "linalg.svd(full([3, 3], nan))", 1, 1, &["LinAlgError: SVD did not converge"]),
    case(LinAlg, "linalg.lstsq(ones([3, 2]), ones(2))", 1, 1, &["LinAlgError: Incompatible dimensions"]),
    case(Type, "linalg.inv(astype(eye(2), f16))", 1, 1, &["float16 is unsupported in linalg"]),
    case(Value, "linalg.qr(eye(2), mode=\"full\")", 1, 1, &["Unrecognized mode 'full'"]),
    case(Value, "linalg.norm(eye(2), ord=\"max\")", 1, 1, &["Invalid norm order"]),
    case(Value, "cross(ones(5), ones(3))", 1, 1, &["3-dimensional vectors, but they are 5 and 3"]),
    case(Shape, "linalg.solve(eye(2), ones(3))", 1, 1, &["do not match"]),
    case(Type, "linalg.matrix_power(eye(2), 0.5)", 1, 1, &["exponent must be an integer"]),
    // ---- linalg: shapes, dtypes, ord=, mode=, UPLO= and keywords ----
    case(LinAlg, "linalg.inv([1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(LinAlg, "y = linalg.inv(ones([2, 3]))", 1, 5, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(LinAlg, "linalg.inv(3)", 1, 1, &["LinAlgError: 0-dimensional array given. Array must be at least two-dimensional"]),
    case(Type, "linalg.inv(\"a\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "linalg.inv(ones([2, 2]), foo=1)", 1, 1, &["linalg.inv(", "unexpected keyword argument `foo`"]),
    case(Type, "linalg.inv()", 1, 1, &["linalg.inv(", "missing", "`a`"]),
    case(Type, "linalg.inv(eye(2), eye(2))", 1, 1, &["linalg.inv(", "takes at most 1"]),
    case(Type, "linalg.inv([[1, 2], [3, 4]], a=1)", 1, 1, &["linalg.inv(", "multiple values", "`a`"]),
    case(LinAlg, "linalg.inv(astype(eye(2), i64) * 0)", 1, 1, &["LinAlgError: Singular matrix"]),
    case(LinAlg, "x = ones([2, 2])\ny = linalg.inv(x[0])", 2, 5, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(Type, "linalg.solve(eye(2))", 1, 1, &["linalg.solve(", "missing", "`b`"]),
    case(LinAlg, "linalg.solve(ones([2, 3]), ones(2))", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(Shape, "linalg.solve(eye(3), ones([2, 2]))", 1, 1, &["(3, 3)", "(2, 2)", "do not match", "b needs 3 rows"]),
    case(Type, "linalg.solve(astype(eye(2), f16), ones(2))", 1, 1, &["array type float16 is unsupported in linalg"]),
    case(LinAlg, "linalg.solve([1, 2], [1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(LinAlg, "linalg.solve(zeros([3, 3]), ones(3))", 1, 1, &["LinAlgError: Singular matrix"]),
    case(Shape, "linalg.solve(ones([2, 2, 2]), ones([3, 2]))", 1, 1, &["(2, 2, 2)", "(3, 2)", "do not match", "b needs 2 rows"]),
    case(Type, "linalg.solve(a=eye(2), b=ones(2), a=eye(2))", 1, 1, &["linalg.solve(", "multiple values", "`a`"]),
    case(Type, "linalg.solve(eye(2), ones(2), assume_a=\"sym\")", 1, 1, &["linalg.solve(", "unexpected keyword argument `assume_a`"]),
    case(LinAlg, "linalg.det([1, 2, 3])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(LinAlg, "linalg.det(5)", 1, 1, &["LinAlgError: 0-dimensional array given. Array must be at least two-dimensional"]),
    case(Type, "linalg.det(astype(eye(2), f16))", 1, 1, &["array type float16 is unsupported in linalg"]),
    case(LinAlg, "linalg.det(ones([3, 2, 4]))", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(Type, "linalg.det(eye(2), axis=0)", 1, 1, &["linalg.det(", "unexpected keyword argument `axis`"]),
    case(LinAlg, "fn f(a) {\n    return linalg.det(a)\n}\nf(ones(3))", 2, 12, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(LinAlg, "linalg.cholesky(ones([2, 3]))", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(LinAlg, "linalg.cholesky([1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(LinAlg, "linalg.cholesky([[1, 2], [3, -4]])", 1, 1, &["LinAlgError: Matrix is not positive definite"]),
    case(LinAlg, "linalg.cholesky([[1, 0], [0, 0]])", 1, 1, &["LinAlgError: Matrix is not positive definite"]),
    case(Type, "linalg.cholesky(astype(eye(2), f16))", 1, 1, &["array type float16 is unsupported in linalg"]),
    case(Type, "linalg.cholesky(eye(2), lower=true)", 1, 1, &["linalg.cholesky(", "unexpected keyword argument `lower`"]),
    case(LinAlg, "linalg.qr([1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(Value, "linalg.qr(eye(2), mode=\"economic\")", 1, 1, &["Unrecognized mode 'economic' (qr takes \"reduced\", \"complete\" or \"r\")"]),
    case(Type, "linalg.qr(eye(2), mode=1)", 1, 1, &["qr's mode is a string, not 1"]),
    case(Type, "linalg.qr(eye(2), mode=\"r\", mode=\"complete\")", 1, 1, &["linalg.qr(", "multiple values", "`mode`"]),
    case(LinAlg, "linalg.svd([1, 2, 3])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(Type, "linalg.svd(astype(eye(2), f16))", 1, 1, &["array type float16 is unsupported in linalg"]),
    case(LinAlg, "linalg.svd(5)", 1, 1, &["LinAlgError: 0-dimensional array given. Array must be at least two-dimensional"]),
    case(Type, "linalg.svd(eye(2), full_matrices=true, full_matrices=false)", 1, 1, &["linalg.svd(", "multiple values", "`full_matrices`"]),
    case(Type, "linalg.svd(eye(2), full=true)", 1, 1, &["linalg.svd(", "unexpected keyword argument `full`"]),
    case(LinAlg, "linalg.svdvals([1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(LinAlg, "linalg.eigh(ones([2, 3]))", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(Value, "linalg.eigh(eye(2), UPLO=\"X\")", 1, 1, &["UPLO argument must be 'L' or 'U', not \"X\""]),
    case(Value, "linalg.eigh(eye(2), UPLO=\"lower\")", 1, 1, &["UPLO argument must be 'L' or 'U', not \"lower\""]),
    case(Value, "linalg.eigh(eye(2), UPLO=1)", 1, 1, &["UPLO argument must be 'L' or 'U', not 1"]),
    case(LinAlg, "linalg.eigh([1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(Type, "linalg.eigh(eye(2), uplo=\"L\")", 1, 1, &["linalg.eigh(", "unexpected keyword argument `uplo`"]),
    case(Value, "linalg.eigvalsh(eye(2), UPLO=\"Q\")", 1, 1, &["UPLO argument must be 'L' or 'U', not \"Q\""]),
    case(LinAlg, "linalg.eig(ones([2, 3]))", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(LinAlg, "linalg.eig([1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(Type, "linalg.eig(astype(eye(2), f16))", 1, 1, &["array type float16 is unsupported in linalg"]),
    case(LinAlg, "linalg.eig(full([2, 2], nan))", 1, 1, &["LinAlgError: Eigenvalues did not converge"]),
    case(LinAlg, "linalg.eigvals(ones([3, 2]))", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(LinAlg, "linalg.lstsq([1, 2], [1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be two-dimensional"]),
    case(LinAlg, "linalg.lstsq(ones([3, 2]), ones([2, 2]))", 1, 1, &["LinAlgError: Incompatible dimensions: a is (3, 2) and b (2, 2)"]),
    case(Type, "linalg.lstsq(ones([3, 2]), ones(3), rcond=\"x\")", 1, 1, &["rcond must be a real number, not \"x\""]),
    case(LinAlg, "linalg.lstsq(ones([3, 2, 2]), ones(3))", 1, 1, &["LinAlgError: 3-dimensional array given. Array must be two-dimensional"]),
    case(Type, "linalg.lstsq(eye(2), ones(2), rcond=none, rcond=1)", 1, 1, &["linalg.lstsq(", "multiple values", "`rcond`"]),
    case(LinAlg, "linalg.pinv([1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(Type, "linalg.pinv(eye(2), rcond=\"a\")", 1, 1, &["rcond must be a real number, not \"a\""]),
    case(Value, "linalg.pinv(eye(2), rcond=0.1, rtol=0.1)", 1, 1, &["`rtol` and `rcond` can't be both set"]),
    case(Type, "linalg.pinv(astype(eye(2), f16))", 1, 1, &["array type float16 is unsupported in linalg"]),
    case(Type, "linalg.pinv(eye(2), tol=0.1)", 1, 1, &["linalg.pinv(", "unexpected keyword argument `tol`"]),
    case(Value, "linalg.norm(ones(3), ord=\"fro\")", 1, 1, &["Invalid norm order 'fro' for vectors"]),
    case(Value, "linalg.norm(ones(3), ord=\"nuc\")", 1, 1, &["Invalid norm order 'nuc' for vectors"]),
    case(Value, "linalg.norm(eye(2), ord=3)", 1, 1, &["Invalid norm order for matrices"]),
    case(Value, "linalg.norm(ones([2, 2, 2]), ord=2)", 1, 1, &["Improper number of dimensions to norm"]),
    case(Index, "linalg.norm(ones(3), axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "linalg.norm(ones([2, 2]), axis=[0, 0])", 1, 1, &["Duplicate axes given"]),
    case(Value, "linalg.norm(ones([2, 2]), axis=[0, 1, 2])", 1, 1, &["Improper number of dimensions to norm"]),
    case(Type, "linalg.norm(ones([2, 2]), axis=1.5)", 1, 1, &["axis must be an integer, not 1.5"]),
    case(Type, "linalg.norm(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "linalg.norm(ones(3), ord=[1])", 1, 1, &["ord must be a real number, not array([1])"]),
    case(Type, "linalg.norm(ones(3), order=2)", 1, 1, &["linalg.norm(", "unexpected keyword argument `order`"]),
    case(Type, "linalg.norm(ones(3), ord=2, ord=1)", 1, 1, &["linalg.norm(", "multiple values", "`ord`"]),
    case(LinAlg, "linalg.matrix_norm(ones(3))", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(Value, "linalg.matrix_norm(eye(2), ord=3)", 1, 1, &["Invalid norm order for matrices"]),
    case(Value, "linalg.vector_norm(ones(3), ord=\"fro\")", 1, 1, &["vector_norm's ord is a number (or inf, -inf)"]),
    case(Index, "linalg.vector_norm(ones(3), axis=3)", 1, 1, &["axis 3 is out of bounds for array of dimension 1"]),
    case(LinAlg, "linalg.matrix_power([1, 2], 2)", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(LinAlg, "linalg.matrix_power(ones([2, 3]), 2)", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(LinAlg, "linalg.matrix_power(zeros([2, 2]), -1)", 1, 1, &["LinAlgError: Singular matrix"]),
    case(Type, "linalg.matrix_power(eye(2), \"2\")", 1, 1, &["exponent must be an integer, not \"2\""]),
    case(Type, "linalg.matrix_power(eye(2))", 1, 1, &["linalg.matrix_power(", "missing", "`n`"]),
    case(Value, "linalg.multi_dot([ones([2, 3])])", 1, 1, &["Expecting at least two arrays"]),
    case(Shape, "linalg.multi_dot([ones([2, 3]), ones([2, 3])])", 1, 1, &["matmul: shapes (2, 3) and (2, 3) are not aligned"]),
    case(LinAlg, "linalg.multi_dot([ones([2, 2]), ones([2, 2, 2])])", 1, 1, &["LinAlgError: 3-dimensional array given. Array must be two-dimensional"]),
    case(Value, "linalg.multi_dot([])", 1, 1, &["Expecting at least two arrays"]),
    case(LinAlg, "linalg.cond([1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(Value, "linalg.cond(eye(2), p=\"x\")", 1, 1, &["Invalid norm order 'x'"]),
    case(Value, "linalg.cond(eye(2), p=3)", 1, 1, &["Invalid norm order for matrices"]),
    case(LinAlg, "linalg.cond(ones([2, 3]), p=1)", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(LinAlg, "linalg.slogdet([1, 2])", 1, 1, &["LinAlgError: 1-dimensional array given. Array must be at least two-dimensional"]),
    case(LinAlg, "linalg.slogdet(ones([2, 3]))", 1, 1, &["LinAlgError: Last 2 dimensions of the array must be square"]),
    case(Type, "linalg.matrix_rank(ones([2, 2]), tol=\"a\")", 1, 1, &["tol must be a real number, not \"a\""]),
    case(Type, "linalg.bogus(eye(2))", 1, 1, &["linalg has no member `bogus` (:help linalg lists them)"]),
    case(Type, "linalg.tensorinv(eye(2))", 1, 1, &["linalg has no member `tensorinv` (:help linalg lists them)"]),
    case(Value, "cross(ones(2), ones(2))", 1, 1, &["Both input arrays must be (arrays of) 3-dimensional vectors", "they are 2 and 2 dimensional instead"]),
    case(Index, "cross(ones(3), ones(3), axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 1"]),
    case(Type, "cross(ones(3), \"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Index, "cross(ones(3), ones(3), axisa=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 1"]),
    case(Index, "cross(ones([3, 3]), ones([3, 3]), axisb=5)", 1, 1, &["axis 5 is out of bounds for array of dimension 2"]),
    case(Type, "cross(ones(3))", 1, 1, &["cross(", "missing", "`b`"]),
    // ---- fft: n=, axis=, axes=, s=, norm= and keywords ----
    case(Value, "fft.fft([1, 2], n=0)", 1, 1, &["Invalid number of FFT data points (0) specified"]),
    case(Type, "fft.fft([1, 2], n=1.5)", 1, 1, &["n must be an integer, not 1.5"]),
    case(Type, "fft.fft([1, 2], n=\"4\")", 1, 1, &["n must be an integer, not \"4\""]),
    case(Index, "fft.fft([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Index, "fft.fft([1, 2], axis=-2)", 1, 1, &["axis -2 is out of bounds for array of dimension 1"]),
    case(Type, "fft.fft([1, 2], axis=1.5)", 1, 1, &["axis must be an integer, not 1.5"]),
    case(Type, "fft.fft(ones([2, 2]), axis=[0, 1])", 1, 1, &["axis must be an integer, not array([0, 1])"]),
    case(Value, "fft.fft([1, 2], norm=\"bogus\")", 1, 1, &["Invalid norm value bogus; should be \"backward\",\"ortho\" or \"forward\""]),
    case(Type, "fft.fft([1, 2], norm=1)", 1, 1, &["norm must be \"backward\", \"ortho\" or \"forward\", not 1"]),
    case(Value, "fft.fft([1, 2], norm=\"Ortho\")", 1, 1, &["Invalid norm value Ortho; should be \"backward\",\"ortho\" or \"forward\""]),
    case(Type, "fft.fft(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Index, "fft.fft(3)", 1, 1, &["axis -1 is out of bounds for array of dimension 0"]),
    case(Value, "x = zeros(0)\nX = fft.fft(x)", 2, 5, &["Invalid number of FFT data points (0) specified"]),
    case(Type, "fft.fft([1, 2], bogus=1)", 1, 1, &["fft.fft(", "unexpected keyword argument `bogus`"]),
    case(Type, "fft.fft([1, 2], axes=[0])", 1, 1, &["fft.fft(", "unexpected keyword argument `axes`"]),
    case(Type, "fft.fft([1, 2], n=2, n=3)", 1, 1, &["fft.fft(", "multiple values", "`n`"]),
    case(Type, "fft.fft()", 1, 1, &["fft.fft(", "missing", "`a`"]),
    case(Type, "fft.fft([1, 2], 2, 0, \"ortho\", 1)", 1, 1, &["fft.fft(", "takes at most 4"]),
    case(Value, "fft.ifft([1, 2], n=0)", 1, 1, &["Invalid number of FFT data points (0) specified"]),
    case(Value, "fft.ifft([1, 2], norm=\"backwards\")", 1, 1, &["Invalid norm value backwards; should be \"backward\",\"ortho\" or \"forward\""]),
    case(Index, "fft.ifft([1, 2], axis=3)", 1, 1, &["axis 3 is out of bounds for array of dimension 1"]),
    case(Type, "fft.rfft([1j, 2])", 1, 1, &["a real transform takes real input, not c128"]),
    case(Value, "fft.rfft([1, 2], n=0)", 1, 1, &["Invalid number of FFT data points (0) specified"]),
    case(Index, "fft.rfft([1, 2], axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 1"]),
    case(Type, "fft.rfft([1, 2], s=[2])", 1, 1, &["fft.rfft(", "unexpected keyword argument `s`"]),
    case(Value, "fft.irfft([1], n=-2)", 1, 1, &["Invalid number of FFT data points (-2) specified"]),
    case(Value, "fft.irfft([1])", 1, 1, &["Invalid number of FFT data points (0) specified"]),
    case(Value, "fft.irfft([1, 2], norm=\"fwd\")", 1, 1, &["Invalid norm value fwd; should be \"backward\",\"ortho\" or \"forward\""]),
    case(Value, "fft.hfft([1])", 1, 1, &["Invalid number of FFT data points (0) specified"]),
    case(Type, "fft.ihfft([1j, 2])", 1, 1, &["a real transform takes real input, not c128"]),
    case(Index, "fft.fft2([1, 2, 3])", 1, 1, &["axis -2 is out of bounds for array of dimension 1"]),
    case(Index, "fft.fft2(ones([2, 2]), axes=[0, 2])", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Value, "fft.fft2(ones([2, 2]), s=[2])", 1, 1, &["Shape and axes have different lengths"]),
    case(Value, "fft.fft2(ones([2, 2]), s=[0, 2])", 1, 1, &["Invalid number of FFT data points (0) specified"]),
    case(Type, "fft.fft2(ones([2, 2]), s=[2.5, 2])", 1, 1, &["a length must be an integer, not 2.5"]),
    case(Value, "fft.fft2(ones([2, 2]), axes=[0, 1], s=[2, 2, 2])", 1, 1, &["Shape and axes have different lengths"]),
    case(Type, "fft.fft2(ones([2, 2]), axis=0)", 1, 1, &["fft.fft2(", "unexpected keyword argument `axis`"]),
    case(Type, "fft.fft2(ones([2, 2]), n=2)", 1, 1, &["fft.fft2(", "unexpected keyword argument `n`"]),
    case(Index, "fft.ifft2(ones(3))", 1, 1, &["axis -2 is out of bounds for array of dimension 1"]),
    case(Index, "fft.fftn(ones([2, 2]), axes=[0, 5])", 1, 1, &["axis 5 is out of bounds for array of dimension 2"]),
    case(Index, "fft.fftn(ones([2, 2]), s=[2, 2, 2])", 1, 1, &["axis -3 is out of bounds for array of dimension 2"]),
    case(Value, "fft.fftn(ones([2, 2]), s=[-2, 2])", 1, 1, &["Invalid number of FFT data points (-2) specified"]),
    case(Value, "fft.fftn(ones([2, 2]), axes=[0, 1], s=[2])", 1, 1, &["Shape and axes have different lengths"]),
    case(Type, "fft.fftn(ones([2, 2]), axes=\"a\")", 1, 1, &["an axis must be an integer, not \"a\""]),
    case(Type, "fft.fftn(ones([2, 2]), norm=\"ortho\", norm=\"forward\")", 1, 1, &["fft.fftn(", "multiple values", "`norm`"]),
    case(Index, "fft.ifftn(ones([2, 2]), axes=[-3])", 1, 1, &["axis -3 is out of bounds for array of dimension 2"]),
    case(Type, "fft.rfft2(ones([2, 2]) * 1j)", 1, 1, &["a real transform takes real input, not c128"]),
    case(Value, "fft.rfftn(ones([2, 2]), s=[0, 2])", 1, 1, &["Invalid number of FFT data points (0) specified"]),
    case(Index, "fft.irfft2(ones(3))", 1, 1, &["axis -2 is out of bounds for array of dimension 1"]),
    case(Value, "fft.irfftn(ones([2, 1]))", 1, 1, &["Invalid number of FFT data points (0) specified"]),
    case(ZeroDivision, "fft.fftfreq(0)", 1, 1, &["float division by zero"]),
    case(Value, "fft.fftfreq(-3)", 1, 1, &["negative dimensions are not allowed"]),
    case(Type, "fft.fftfreq(2.5)", 1, 1, &["n must be an integer, not 2.5"]),
    case(Type, "fft.fftfreq(\"8\")", 1, 1, &["n must be an integer, not \"8\""]),
    case(ZeroDivision, "fft.fftfreq(8, d=0)", 1, 1, &["float division by zero"]),
    case(Type, "fft.fftfreq(8, d=\"a\")", 1, 1, &["d must be a real number, not \"a\""]),
    case(Type, "fft.fftfreq(8, d=[1, 2])", 1, 1, &["d must be a real number, not array([1, 2])"]),
    case(Type, "fft.fftfreq(4, spacing=0.1)", 1, 1, &["fft.fftfreq(", "unexpected keyword argument `spacing`"]),
    case(Type, "fft.fftfreq(8, 0.1, cpu, 1)", 1, 1, &["fft.fftfreq(", "takes at most 3"]),
    case(Value, "fft.rfftfreq(-1)", 1, 1, &["negative dimensions are not allowed"]),
    case(ZeroDivision, "fft.rfftfreq(4, d=0)", 1, 1, &["float division by zero"]),
    case(Index, "fft.fftshift(ones(3), axes=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "fft.fftshift(ones(3), axes=1.5)", 1, 1, &["an axis must be an integer, not 1.5"]),
    case(Type, "fft.fftshift(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "fft.fftshift(ones(3), axis=0)", 1, 1, &["fft.fftshift(", "unexpected keyword argument `axis`"]),
    case(Type, "fft.fftshift(ones(3), axes=0, axes=0)", 1, 1, &["fft.fftshift(", "multiple values", "`axes`"]),
    case(Index, "fft.ifftshift(ones([2, 2]), axes=[2])", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Type, "fft.bogus([1, 2])", 1, 1, &["fft has no member `bogus` (:help fft lists them)"]),
    // ---- random: parameters out of range, sizes, dtypes and keywords ----
    case(Value, "random.normal(scale=-1)", 1, 1, &["scale < 0"]),
    case(Value, "x = random.normal(0, -1, 3)", 1, 5, &["scale < 0"]),
    case(Value, "random.normal(size=-1)", 1, 1, &["negative dimensions are not allowed"]),
    case(Value, "random.normal(size=[2, -1])", 1, 1, &["negative dimensions are not allowed"]),
    case(Type, "random.normal(loc=\"a\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "random.normal(size=2.5)", 1, 1, &["a shape must be an integer, not 2.5"]),
    case(Value, "random.normal(scale=[1, -1])", 1, 1, &["scale < 0"]),
    case(Value, "random.normal(size=3, scale=ones(2))", 1, 1, &["Output size (3,) is not compatible with broadcast dimensions of inputs (2,)"]),
    case(Type, "random.normal(0, 1, 3, cpu, 5)", 1, 1, &["random.normal(", "takes at most 4"]),
    case(Type, "random.normal(sigma=1)", 1, 1, &["random.normal(", "unexpected keyword argument `sigma`"]),
    case(Type, "random.normal(mean=0)", 1, 1, &["random.normal(", "unexpected keyword argument `mean`"]),
    case(Type, "random.normal(size=3, size=4)", 1, 1, &["random.normal(", "multiple values", "`size`"]),
    case(Value, "random.uniform(size=-2)", 1, 1, &["negative dimensions are not allowed"]),
    case(Type, "random.uniform(low=\"a\")", 1, 1, &["expected an array, got a str"]),
    case(Value, "random.uniform(high=[1, 2], size=3)", 1, 1, &["Output size (3,) is not compatible with broadcast dimensions of inputs (2,)"]),
    case(Type, "random.uniform(1, 0, size=\"3\")", 1, 1, &["a shape must be an integer, not \"3\""]),
    case(Type, "random.uniform(0, 1, dtype=f32)", 1, 1, &["random.uniform(", "unexpected keyword argument `dtype`"]),
    case(Type, "random.standard_normal(dtype=i64)", 1, 1, &["Unsupported dtype i64 for standard_normal"]),
    case(Type, "random.standard_normal(dtype=\"f8\")", 1, 1, &["unknown dtype \"f8\""]),
    case(Type, "random.random(dtype=i32)", 1, 1, &["Unsupported dtype i32 for random"]),
    case(Type, "random.random(dtype=bool)", 1, 1, &["Unsupported dtype bool for random"]),
    case(Type, "random.random(size=[2.5])", 1, 1, &["a dimension must be an integer, not 2.5"]),
    case(Type, "random.random(3, 4)", 1, 1, &["expected a dtype", "got an int"]),
    case(Value, "random.integers(5, 5)", 1, 1, &["low >= high"]),
    case(Value, "random.integers(5, 2)", 1, 1, &["low >= high"]),
    case(Value, "random.integers(10, size=-3)", 1, 1, &["negative dimensions are not allowed"]),
    case(Type, "random.integers(0, 10, dtype=f64)", 1, 1, &["Unsupported dtype f64 for integers"]),
    case(Value, "random.integers(0, 300, dtype=u8)", 1, 1, &["high is out of bounds for uint8"]),
    case(Value, "random.integers(-1, 10, dtype=u8)", 1, 1, &["low is out of bounds for uint8"]),
    case(Type, "random.integers(\"a\", 3)", 1, 1, &["expected an array, got a str"]),
    case(Value, "random.integers(0)", 1, 1, &["high <= 0"]),
    case(Value, "random.integers(3, 2, endpoint=true)", 1, 1, &["low > high"]),
    case(Type, "random.integers()", 1, 1, &["random.integers(", "missing", "`low`"]),
    case(Type, "random.integers(0, 5, shape=3)", 1, 1, &["random.integers(", "unexpected keyword argument `shape`"]),
    case(Value, "random.exponential(scale=-1)", 1, 1, &["scale < 0"]),
    case(Value, "random.exponential(scale=[1, -2])", 1, 1, &["scale < 0"]),
    case(Type, "random.exponential(rate=1)", 1, 1, &["random.exponential(", "unexpected keyword argument `rate`"]),
    case(Value, "random.poisson(lam=-1)", 1, 1, &["lam < 0 or lam is NaN"]),
    case(Value, "random.poisson(lam=[1, -1])", 1, 1, &["lam < 0 or lam contains NaNs"]),
    case(Value, "random.poisson(lam=1e20)", 1, 1, &["lam value too large"]),
    case(Value, "random.poisson(lam=nan)", 1, 1, &["lam < 0 or lam is NaN"]),
    case(Type, "random.poisson(lam=1, lam=2)", 1, 1, &["random.poisson(", "multiple values", "`lam`"]),
    case(Value, "random.binomial(10, 1.5)", 1, 1, &["p < 0, p > 1 or p is NaN"]),
    case(Value, "random.binomial(10, -0.1)", 1, 1, &["p < 0, p > 1 or p is NaN"]),
    case(Value, "random.binomial(-1, 0.5)", 1, 1, &["n < 0"]),
    case(Value, "random.binomial(10, [0.5, 2])", 1, 1, &["p < 0, p > 1 or p contains NaNs"]),
    case(Type, "random.binomial(10)", 1, 1, &["random.binomial(", "missing", "`p`"]),
    case(Type, "random.binomial(10, 0.5, shape=3)", 1, 1, &["random.binomial(", "unexpected keyword argument `shape`"]),
    case(Value, "random.choice(5, p=[0.5, 0.5])", 1, 1, &["a and p must have same size"]),
    case(Value, "random.choice(3, p=[0.5, 0.6, 0.1])", 1, 1, &["Probabilities do not sum to 1", "See Notes section of docstring for more information"]),
    case(Value, "random.choice(3, p=[0.5, -0.5, 1.0])", 1, 1, &["Probabilities are not non-negative"]),
    case(Value, "random.choice(3, p=[[0.5, 0.5, 0]])", 1, 1, &["p must be 1-dimensional"]),
    case(Value, "random.choice(3, p=[nan, 0.5, 0.5])", 1, 1, &["Probabilities contain NaN"]),
    case(Value, "random.choice(3, size=5, replace=false)", 1, 1, &["Cannot take a larger sample than population when replace is False"]),
    case(Value, "random.choice([1, 2], size=3, replace=false)", 1, 1, &["Cannot take a larger sample than population when replace is False"]),
    case(Value, "random.choice(3, size=2, replace=false, p=[1, 0, 0])", 1, 1, &["Fewer non-zero entries in p than size"]),
    case(Value, "random.choice(0)", 1, 1, &["a must be a positive integer unless no samples are taken"]),
    case(Value, "random.choice(-2)", 1, 1, &["a must be a positive integer unless no samples are taken"]),
    case(Value, "random.choice([])", 1, 1, &["a cannot be empty unless no samples are taken"]),
    case(Type, "random.choice(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Value, "random.choice(2.5)", 1, 1, &["a must be 1-dimensional or an integer"]),
    case(Value, "random.choice(3, size=-1)", 1, 1, &["negative dimensions are not allowed"]),
    case(Type, "random.choice(3, weights=[1, 1, 1])", 1, 1, &["random.choice(", "unexpected keyword argument `weights`"]),
    case(Type, "random.choice(3, replace=false, replace=true)", 1, 1, &["random.choice(", "multiple values", "`replace`"]),
    case(Index, "random.permutation(reshape([1], []))", 1, 1, &["axis 0 is out of bounds for array of dimension 0"]),
    case(Type, "random.permutation(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "random.permutation(ones([2, 2]), axis=1)", 1, 1, &["random.permutation(", "unexpected keyword argument `axis`"]),
    case(Type, "random.shuffle(3)", 1, 1, &["shuffle needs an array, not an int"]),
    case(Type, "random.shuffle([1, 2, 3])", 1, 1, &["shuffle needs an array, not a list"]),
    case(Type, "random.shuffle(\"abc\")", 1, 1, &["shuffle needs an array, not a str"]),
    case(Index, "random.shuffle(reshape([1], []))", 1, 1, &["axis 0 is out of bounds for array of dimension 0"]),
    case(Type, "random.shuffle(arange(3), axis=0)", 1, 1, &["random.shuffle(", "unexpected keyword argument `axis`"]),
    case(Type, "random.seed(\"a\")", 1, 1, &["seed must be an integer, not \"a\""]),
    case(Type, "random.bogus(3)", 1, 1, &["random has no member `bogus` (:help random lists them)"]),
    // ---- sets, sorting and searching: axes, kth, side=, sorter= and keywords ----
    case(Index, "unique(ones([2, 2]), axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Index, "unique(ones([2, 2]), axis=-3)", 1, 1, &["axis -3 is out of bounds for array of dimension 2"]),
    case(Type, "unique(ones([2, 2]), axis=1.5)", 1, 1, &["axis must be an integer, not 1.5"]),
    case(Index, "unique(reshape([1], []), axis=0)", 1, 1, &["axis 0 is out of bounds for array of dimension 0"]),
    case(Type, "unique(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "unique([1, 2], axis=[0])", 1, 1, &["axis must be an integer, not array([0])"]),
    case(Type, "unique([1, 2], sorted=true)", 1, 1, &["unique(", "unexpected keyword argument `sorted`"]),
    case(Type, "unique([1, 2], return_counts=true, return_counts=false)", 1, 1, &["unique(", "multiple values", "`return_counts`"]),
    case(Type, "isin([1, 2], \"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "isin([1, 2])", 1, 1, &["isin(", "missing", "`test_elements`"]),
    case(Type, "isin([1], [1], assume_unique=true)", 1, 1, &["isin(", "unexpected keyword argument `assume_unique`"]),
    case(Type, "intersect1d([1, 2])", 1, 1, &["intersect1d(", "missing", "`ar2`"]),
    case(Type, "union1d([1], \"ab\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "setdiff1d([1], 5, 3)", 1, 1, &["setdiff1d(", "takes at most 2"]),
    case(Index, "sort([3, 1], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Index, "sort(ones([2, 2]), axis=-3)", 1, 1, &["axis -3 is out of bounds for array of dimension 2"]),
    case(Type, "sort(reshape([1], []))", 1, 1, &["sort of a 0-d array needs axis=none"]),
    case(Type, "sort([3, 1], axis=1.5)", 1, 1, &["axis must be an integer, not 1.5"]),
    case(Value, "sort([3, 1], kind=1)", 1, 1, &["sort kind must be one of 'quicksort', 'heapsort', 'stable', 'mergesort', not 1"]),
    case(Type, "sort(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "sort([3, 1], order=\"x\")", 1, 1, &["sort(", "unexpected keyword argument `order`"]),
    case(Type, "sort([3, 1], reverse=true)", 1, 1, &["sort(", "unexpected keyword argument `reverse`"]),
    case(Type, "sort([3, 1], axis=0, axis=0)", 1, 1, &["sort(", "multiple values", "`axis`"]),
    case(Index, "argsort([3, 1], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "argsort([3, 1], kind=\"bubble\")", 1, 1, &["sort kind must be one of 'quicksort', 'heapsort', 'stable', 'mergesort', not \"bubble\""]),
    case(Type, "argsort(5)", 1, 1, &["sort of a 0-d array needs axis=none"]),
    case(Type, "argsort([3, 1], order=none)", 1, 1, &["argsort(", "unexpected keyword argument `order`"]),
    case(Value, "partition([3, 1, 2], -4)", 1, 1, &["kth(=-4) out of bounds (3)"]),
    case(Value, "partition([3, 1, 2], 3)", 1, 1, &["kth(=3) out of bounds (3)"]),
    case(Type, "partition([3, 1, 2], 1.5)", 1, 1, &["kth must be an integer, not 1.5"]),
    case(Value, "partition([3, 1, 2], [0, 5])", 1, 1, &["kth(=5) out of bounds (3)"]),
    case(Index, "partition([3, 1, 2], 1, axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Index, "partition(reshape([1], []), 0)", 1, 1, &["axis -1 is out of bounds for array of dimension 0"]),
    case(Type, "partition([3, 1, 2])", 1, 1, &["partition(", "missing", "`kth`"]),
    case(Type, "partition([3, 1, 2], 1, kind=\"introselect\")", 1, 1, &["partition(", "unexpected keyword argument `kind`"]),
    case(Value, "argpartition([3, 1, 2], 3)", 1, 1, &["kth(=3) out of bounds (3)"]),
    case(Index, "argpartition([3, 1, 2], 1, axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 1"]),
    case(Type, "argpartition([3, 1, 2], [1.5])", 1, 1, &["kth must be an integer, not 1.5"]),
    case(Type, "lexsort([])", 1, 1, &["need at least one key to sort by"]),
    case(Value, "lexsort([arange(3), arange(4)])", 1, 1, &["all keys need to be the same shape"]),
    case(Type, "lexsort(5)", 1, 1, &["expected a list of arrays, got an int"]),
    case(Index, "lexsort([[1, 2], [3, 4]], axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 1"]),
    case(Type, "lexsort([[1, 2]], axis=0, axis=0)", 1, 1, &["lexsort(", "multiple values", "`axis`"]),
    case(Value, "searchsorted([1, 2], 1, side=\"lft\")", 1, 1, &["side must be \"left\" or \"right\", not \"lft\""]),
    case(Value, "searchsorted([1, 2], 1, side=0)", 1, 1, &["side must be \"left\" or \"right\", not 0"]),
    case(Index, "searchsorted([1, 2], 1, sorter=[0, 5])", 1, 1, &["index 5 is out of bounds for axis 0 with size 2"]),
    case(Value, "searchsorted([1, 2, 4], [2, 3], sorter=[0, 1])", 1, 1, &["sorter must be a 1-d array of a's size (3), not of shape [2]"]),
    case(Index, "searchsorted([1, 2], 1, sorter=[0.5, 1])", 1, 1, &["arrays used as indices must be of integer or bool type, not f64"]),
    case(Value, "searchsorted(reshape([1], []), 1)", 1, 1, &["searchsorted needs a 1-d array to search"]),
    case(Type, "searchsorted([1, 2], \"a\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "searchsorted([1, 2])", 1, 1, &["searchsorted(", "missing", "`v`"]),
    case(Type, "searchsorted([1, 2], 1, side=\"left\", side=\"right\")", 1, 1, &["searchsorted(", "multiple values", "`side`"]),
    case(Index, "argmax([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "argmin(zeros(0))", 1, 1, &["attempt to get argmin of an empty sequence"]),
    case(Index, "argmin(ones([2, 2]), axis=-3)", 1, 1, &["axis -3 is out of bounds for array of dimension 2"]),
    case(Index, "count_nonzero([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "nanargmin([nan])", 1, 1, &["All-NaN slice encountered"]),
    case(Value, "nanargmax(ones([2, 2]) * nan, axis=0)", 1, 1, &["All-NaN slice encountered"]),
    // ---- statistics: q out of range, bins, weights, ddof and keywords ----
    case(Value, "quantile([1, 2, 3], -0.1)", 1, 1, &["quantiles must be in the range [0, 1], not -0.1"]),
    case(Value, "quantile([1, 2, 3], [0.5, 2])", 1, 1, &["quantiles must be in the range [0, 1], not 2"]),
    case(Value, "quantile([1, 2, 3], 0.5, method=\"bogus\")", 1, 1, &["method \"bogus\" is not supported (linear)"]),
    case(Index, "quantile([1, 2, 3], 0.5, axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "quantile([1, 2, 3], \"a\")", 1, 1, &["expected an array, got a str"]),
    case(Value, "quantile([1, 2, 3], nan)", 1, 1, &["quantiles must be in the range [0, 1], not NaN"]),
    case(Value, "quantile(zeros(0), 0.5)", 1, 1, &["cannot take a quantile of an empty array"]),
    case(Type, "quantile([1, 2, 3])", 1, 1, &["quantile(", "missing", "`q`"]),
    case(Type, "quantile([1, 2], 0.5, interpolation=\"linear\")", 1, 1, &["quantile(", "unexpected keyword argument `interpolation`"]),
    case(Value, "percentile([1, 2, 3], 101)", 1, 1, &["quantiles must be in the range [0, 1], not 1.01"]),
    case(Value, "percentile([1, 2, 3], -1)", 1, 1, &["quantiles must be in the range [0, 1], not -0.01"]),
    case(Value, "percentile([1, 2, 3], [50, 150])", 1, 1, &["quantiles must be in the range [0, 1], not 1.5"]),
    case(Value, "percentile([1, 2, 3], 50, method=\"middle\")", 1, 1, &["method \"middle\" is not supported (linear)"]),
    case(Index, "percentile([1, 2, 3], 50, axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 1"]),
    case(Type, "percentile([1, 2, 3], 0.5, q=2)", 1, 1, &["percentile(", "multiple values", "`q`"]),
    case(Index, "median([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Index, "median(ones([2, 2]), axis=-3)", 1, 1, &["axis -3 is out of bounds for array of dimension 2"]),
    case(Type, "median([1, 2], axis=1.5)", 1, 1, &["axis must be an integer, not 1.5"]),
    case(Type, "median(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "median([1, 2], axis=0, axis=0)", 1, 1, &["median(", "multiple values", "`axis`"]),
    case(Index, "nanmedian([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "histogram([1, 2], bins=-1)", 1, 1, &["`bins` must be positive, when an integer"]),
    case(Type, "histogram([1, 2], bins=2.5)", 1, 1, &["bins must be an integer, not 2.5"]),
    case(Type, "histogram([1, 2], bins=\"auto\")", 1, 1, &["bins must be an integer, not \"auto\""]),
    case(Value, "histogram([1, 2], bins=[[1, 2]])", 1, 1, &["`bins` must be 1d, when an array, with at least two edges"]),
    case(Value, "histogram([1, 2], range=[1])", 1, 1, &["range must be [low, high]"]),
    case(Value, "histogram([1, 2], weights=[1])", 1, 1, &["The weights and list don't have the same length"]),
    case(Value, "histogram([1, nan])", 1, 1, &["autodetected range of [NaN, NaN] is not finite"]),
    case(Value, "histogram([1, inf])", 1, 1, &["autodetected range of [1, inf] is not finite"]),
    case(Type, "histogram(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "histogram([1, 2], bins=2, bins=3)", 1, 1, &["histogram(", "multiple values", "`bins`"]),
    case(Type, "histogram([1, 2], normed=true)", 1, 1, &["histogram(", "unexpected keyword argument `normed`"]),
    case(Value, "histogram_bin_edges([1, 2], bins=0)", 1, 1, &["`bins` must be positive, when an integer"]),
    case(Value, "histogram_bin_edges([1, 2], range=[2, 1])", 1, 1, &["max must be larger than min in range parameter"]),
    case(Value, "histogram_bin_edges([1, 2], bins=[1])", 1, 1, &["`bins` must be 1d, when an array, with at least two edges"]),
    case(Type, "bincount([1.5, 2])", 1, 1, &["Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'"]),
    case(Value, "bincount(ones([2, 2], dtype=i64))", 1, 1, &["object too deep for desired array: bincount needs a 1-d array"]),
    case(Value, "bincount([1, 2], weights=[1])", 1, 1, &["The weights and list don't have the same length"]),
    case(Value, "bincount([1, 2], minlength=-1)", 1, 1, &["'minlength' must not be negative"]),
    case(Type, "bincount([1, 2], minlength=1.5)", 1, 1, &["minlength must be an integer, not 1.5"]),
    case(Value, "bincount([-3])", 1, 1, &["'list' argument must have no negative elements"]),
    case(Type, "bincount(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "bincount([1, 2], minlength=1, minlength=2)", 1, 1, &["bincount(", "multiple values", "`minlength`"]),
    case(Value, "digitize([1, 2], [[1, 2]])", 1, 1, &["bins must be a 1-d array"]),
    case(Value, "digitize([1, 2], 5)", 1, 1, &["bins must be a 1-d array"]),
    case(Value, "digitize([1, 2], [nan, 1])", 1, 1, &["bins must be monotonically increasing or decreasing"]),
    case(Type, "digitize([1j], [1, 2])", 1, 1, &["searching complex arrays is not supported"]),
    case(Value, "cov(ones([2, 2, 2]))", 1, 1, &["m has more than 2 dimensions"]),
    case(Shape, "cov([1, 2], y=[1, 2, 3])", 1, 1, &["all the input array dimensions except for the concatenation axis must match exactly", "(1, 2) and (1, 3) differ"]),
    case(Type, "cov(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "cov([1, 2], aweights=[1, 2])", 1, 1, &["cov(", "unexpected keyword argument `aweights`"]),
    case(Value, "corrcoef(ones([2, 2, 2]))", 1, 1, &["m has more than 2 dimensions"]),
    case(Shape, "average([1, 2], weights=[1, 2, 3])", 1, 1, &["cannot broadcast shape (3,) to (2,)"]),
    case(Shape, "average(ones([2, 3]), weights=[1, 2])", 1, 1, &["cannot broadcast shape (2,) to (2, 3)"]),
    case(Shape, "average(ones([2, 3]), axis=1, weights=[1, 2])", 1, 1, &["cannot broadcast shape (1, 2) to (2, 3)"]),
    case(Index, "average([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "average([1, 2], weights=\"ab\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "average([1, 2], returned=true)", 1, 1, &["average(", "unexpected keyword argument `returned`"]),
    case(Type, "std([1, 2], ddof=\"a\")", 1, 1, &["ddof must be a real number, not \"a\""]),
    case(Index, "std([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "std([1, 2], ddof=1, ddof=0)", 1, 1, &["std(", "multiple values", "`ddof`"]),
    case(Type, "var([1, 2], correction=1, ddof=1)", 1, 1, &["ddof and correction mean the same: give one"]),
    case(Type, "std([1, 2], correction=\"a\")", 1, 1, &["correction must be a real number, not \"a\""]),
    case(Type, "var([1, 2], ddof=\"a\")", 1, 1, &["ddof must be a real number, not \"a\""]),
    case(Value, "var([1, 2], axis=[0, 0])", 1, 1, &["repeated axis"]),
    case(Type, "nanstd([1, 2], ddof=\"x\")", 1, 1, &["ddof must be a real number, not \"x\""]),
    case(Index, "nanvar([1, 2], axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 1"]),
    case(Index, "mean([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "mean([1, 2], dtype=\"f\")", 1, 1, &["unknown dtype \"f\""]),
    case(Type, "mean([1, 2], out=none)", 1, 1, &["mean(", "unexpected keyword argument `out`"]),
    case(Index, "sum([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "sum(ones([2, 2]), axis=[0, 0])", 1, 1, &["repeated axis"]),
    case(Index, "prod([1, 2], axis=-2)", 1, 1, &["axis -2 is out of bounds for array of dimension 1"]),
    case(Value, "min(zeros(0))", 1, 1, &["zero-size array to reduction operation minimum which has no identity"]),
    case(Value, "max(zeros([0, 2]), axis=0)", 1, 1, &["zero-size array to reduction operation maximum which has no identity"]),
    case(Index, "cumsum([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "cumsum(ones([2, 2]), axis=[0, 1])", 1, 1, &["axis must be an integer, not array([0, 1])"]),
    case(Type, "cumprod([1, 2], dtype=cpu)", 1, 1, &["expected a dtype", "got a device"]),
    case(Index, "cumulative_sum([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "ptp(zeros(0))", 1, 1, &["zero-size array to reduction operation maximum which has no identity"]),
    case(Value, "diff([1, 2], n=-1)", 1, 1, &["order must be non-negative but got -1"]),
    case(Index, "diff([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Index, "diff(reshape([1], []))", 1, 1, &["axis -1 is out of bounds for array of dimension 0"]),
    case(Type, "diff([1, 2], n=1.5)", 1, 1, &["n must be an integer, not 1.5"]),
    case(Shape, "diff([1, 2], prepend=ones([2, 2]))", 1, 1, &["all the input array dimensions except for the concatenation axis must match exactly", "(2, 2) and (2,) differ"]),
    case(Type, "ediff1d([1, 2], to_end=\"a\")", 1, 1, &["expected an array, got a str"]),
    case(Value, "gradient([1])", 1, 1, &["too small to calculate a numerical gradient", "(edge_order + 1) elements are required"]),
    case(Index, "gradient([1, 2, 3], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "gradient([1, 2, 3], spacing=[1, 2])", 1, 1, &["spacing must be a real number, not array([1, 2])"]),
    case(Index, "trapezoid([1, 2], axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "trapezoid([1, 2], dx=\"a\")", 1, 1, &["dx must be a real number, not \"a\""]),
    case(Value, "convolve([1, 2], [1], mode=\"bogus\")", 1, 1, &["mode must be \"full\", \"same\" or \"valid\", not \"bogus\""]),
    case(Value, "convolve([], [1])", 1, 1, &["v cannot be empty"]),
    case(Value, "convolve(ones([2, 2]), ones(2))", 1, 1, &["convolve takes 1-d arrays: object too deep for desired array"]),
    case(Value, "convolve(ones(2), ones([2, 1]))", 1, 1, &["convolve takes 1-d arrays"]),
    case(Type, "convolve([1, 2], [1], mode=1)", 1, 1, &["mode must be a string, not 1"]),
    // ---- manipulation and indexing: axes, shapes, widths, indices and masks ----
    case(Index, "moveaxis(ones([2, 3]), 2, 0)", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Value, "moveaxis(ones([2, 3]), [0, 1], [1])", 1, 1, &["`source` and `destination` arguments must have the same number of elements"]),
    case(Value, "moveaxis(ones([2, 3]), [0, 0], [0, 1])", 1, 1, &["repeated axis"]),
    case(Type, "moveaxis(ones([2, 3]), 0.5, 1)", 1, 1, &["an axis must be an integer, not 0.5"]),
    case(Index, "moveaxis(ones([2, 3]), 0, -3)", 1, 1, &["axis -3 is out of bounds for array of dimension 2"]),
    case(Type, "moveaxis(ones([2, 3]), 0)", 1, 1, &["moveaxis(", "missing", "`destination`"]),
    case(Type, "moveaxis(ones([2, 3]), source=0, destination=1, source=1)", 1, 1, &["moveaxis(", "multiple values", "`source`"]),
    case(Index, "swapaxes(ones([2, 3]), 0, 2)", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Type, "swapaxes(ones([2, 3]), 0, 1.5)", 1, 1, &["axis2 must be an integer, not 1.5"]),
    case(Index, "expand_dims(ones(3), 2)", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Value, "expand_dims(ones(3), [0, 0])", 1, 1, &["repeated axis"]),
    case(Type, "expand_dims(ones(3), \"a\")", 1, 1, &["an axis must be an integer, not \"a\""]),
    case(Value, "squeeze(ones([2, 1]), axis=0)", 1, 1, &["cannot select an axis to squeeze out which has size not equal to one", "axis 0 has size 2"]),
    case(Index, "squeeze(ones([2, 1]), axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Value, "squeeze(ones([1, 1]), axis=[0, 0])", 1, 1, &["repeated axis"]),
    case(Type, "squeeze(ones([1, 2]), axis=1.5)", 1, 1, &["an axis must be an integer, not 1.5"]),
    case(Type, "squeeze(ones([1, 2]), axes=0)", 1, 1, &["squeeze(", "unexpected keyword argument `axes`"]),
    case(Index, "flip(ones(3), axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "flip(ones(3), axis=[0, 0])", 1, 1, &["repeated axis"]),
    case(Value, "transpose(ones([2, 3]), [0])", 1, 1, &["axes don't match array"]),
    case(Index, "transpose(ones([2, 3]), [0, 2])", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Type, "transpose(ones([2, 3]), 1.5)", 1, 1, &["an axis must be an integer, not 1.5"]),
    case(Value, "permute_dims(ones([2, 3]), [1])", 1, 1, &["axes don't match array"]),
    case(Type, "permute_dims(ones([2, 3]))", 1, 1, &["permute_dims(", "missing", "`axes`"]),
    case(Value, "permute_dims(ones([2, 3]), [1, 1])", 1, 1, &["repeated axis"]),
    case(Shape, "broadcast_to(ones([2, 3]), [3])", 1, 1, &["cannot broadcast shape (2, 3) to (3,)"]),
    case(Value, "broadcast_to(ones(3), [-1, 3])", 1, 1, &["negative dimensions are not allowed"]),
    case(Type, "broadcast_to(ones(3), [2.5, 3])", 1, 1, &["a dimension must be an integer, not 2.5"]),
    case(Type, "broadcast_to(ones(3), \"a\")", 1, 1, &["a shape must be an integer, not \"a\""]),
    case(Shape, "broadcast_to(ones([3, 1]), [3, 2, 1])", 1, 1, &["cannot broadcast shape (3, 1) to (3, 2, 1)"]),
    case(Shape, "broadcast_arrays(ones(2), ones(3))", 1, 1, &["operands could not be broadcast together with shapes (2,) (3,)"]),
    case(Value, "reshape(ones(6), [2, 3], order=\"X\")", 1, 1, &["order must be \"C\" or \"F\", not \"X\""]),
    case(Value, "ravel(ones(6), order=\"Z\")", 1, 1, &["order must be \"C\" or \"F\", not \"Z\""]),
    case(Shape, "concatenate([ones([2, 2]), ones([2, 3])])", 1, 1, &["all the input array dimensions except for the concatenation axis must match exactly", "(2, 2) and (2, 3) differ"]),
    case(Shape, "concatenate([ones([2, 2]), ones(2)], axis=0)", 1, 1, &["all the input array dimensions except for the concatenation axis must match exactly", "(2, 2) and (2,) differ"]),
    case(Type, "concatenate([ones(2), \"a\"])", 1, 1, &["expected an array, got a str"]),
    case(Index, "concatenate([ones(2), ones(2)], axis=-2)", 1, 1, &["axis -2 is out of bounds for array of dimension 1"]),
    case(Type, "concatenate([ones(2), ones(2)], axis=1.5)", 1, 1, &["axis must be an integer, not 1.5"]),
    case(Value, "concatenate(ones(2), axis=0)", 1, 1, &["zero-dimensional arrays cannot be concatenated"]),
    case(Type, "concatenate([ones(2)], axis=0, axis=0)", 1, 1, &["concatenate(", "multiple values", "`axis`"]),
    case(Shape, "concat([ones(2), ones([2, 2])])", 1, 1, &["all the input array dimensions except for the concatenation axis must match exactly", "(2,) and (2, 2) differ"]),
    case(Shape, "stack([ones([2, 2]), ones([2, 3])])", 1, 1, &["all input arrays must have the same shape, but (2, 2) and (2, 3) differ"]),
    case(Value, "stack([])", 1, 1, &["need at least one array to concatenate"]),
    case(Index, "stack([ones(2), ones(2)], axis=-3)", 1, 1, &["axis -3 is out of bounds for array of dimension 2"]),
    case(Shape, "stack([ones(2), 5])", 1, 1, &["all input arrays must have the same shape, but (2,) and () differ"]),
    case(Type, "stack(5)", 1, 1, &["expected a list of arrays, got an int"]),
    case(Shape, "hstack([ones([2, 2]), ones([3, 2])])", 1, 1, &["all the input array dimensions except for the concatenation axis must match exactly", "(2, 2) and (3, 2) differ"]),
    case(Value, "hstack([])", 1, 1, &["need at least one array to concatenate"]),
    case(Shape, "dstack([ones([2, 2]), ones([3, 2])])", 1, 1, &["all the input array dimensions except for the concatenation axis must match exactly", "(2, 2, 1) and (3, 2, 1) differ"]),
    case(Shape, "column_stack([ones(2), ones(3)])", 1, 1, &["all the input array dimensions except for the concatenation axis must match exactly", "(2, 1) and (3, 1) differ"]),
    case(Value, "split(arange(6), 4)", 1, 1, &["array split does not result in an equal division"]),
    case(Value, "split(arange(6), 0)", 1, 1, &["number sections must be larger than 0"]),
    case(Value, "split(arange(6), -1)", 1, 1, &["number sections must be larger than 0"]),
    case(Index, "split(arange(6), 2, axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "split(arange(6), 2.5)", 1, 1, &["sections must be an integer, not 2.5"]),
    case(Type, "split(arange(6), [1, 5.5])", 1, 1, &["a position must be an integer, not 5.5"]),
    case(Value, "split(reshape([1], []), 1)", 1, 1, &["the array has too few dimensions to split"]),
    case(Value, "array_split(arange(6), 0)", 1, 1, &["number sections must be larger than 0"]),
    case(Index, "array_split(arange(6), 2, axis=3)", 1, 1, &["axis 3 is out of bounds for array of dimension 1"]),
    case(Value, "hsplit(arange(6), 4)", 1, 1, &["array split does not result in an equal division"]),
    case(Value, "vsplit(arange(6), 2)", 1, 1, &["the array has too few dimensions to split"]),
    case(Value, "vsplit(ones([4, 2]), 3)", 1, 1, &["array split does not result in an equal division"]),
    case(Index, "unstack(ones([2, 2]), axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Value, "pad([1, 2], -1)", 1, 1, &["index can't contain negative values"]),
    case(Type, "pad([1, 2], 1.5)", 1, 1, &["`pad_width` must be of integral type"]),
    case(Type, "pad([1, 2], [1, 0.5])", 1, 1, &["`pad_width` must be of integral type"]),
    case(Value, "pad([1, 2], 1, mode=\"wrap\", constant_values=3)", 1, 1, &["unsupported keyword arguments for mode 'wrap': constant_values"]),
    case(Value, "pad([1, 2], 1, \"edge\", 0)", 1, 1, &["unsupported keyword arguments for mode 'edge': constant_values"]),
    case(Value, "pad([1, 2], [1, -1])", 1, 1, &["index can't contain negative values"]),
    case(Value, "pad([1, 2], [[1, 2], [3, 4]])", 1, 1, &["pad_width of shape (2, 2) does not fit an array of 1 axes"]),
    case(Type, "pad([1, 2], \"a\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "pad([1, 2], 1, mode=3)", 1, 1, &["mode must be a string, not 3"]),
    case(Type, "pad([1, 2], 1, mode=\"constant\", constant_values=\"a\")", 1, 1, &["expected a number, got a str"]),
    case(Value, "pad(zeros(0), 1, mode=\"edge\")", 1, 1, &["can't extend an empty axis unless mode is constant"]),
    case(Value, "pad(zeros(0), 1, mode=\"reflect\")", 1, 1, &["can't extend an empty axis unless mode is constant"]),
    case(Value, "pad(ones([2, 2]), [[1, 1], [1, 1], [1, 1]])", 1, 1, &["pad_width of shape (3, 2) does not fit an array of 2 axes"]),
    case(Type, "pad([1, 2], 1, constant_value=1)", 1, 1, &["pad(", "unexpected keyword argument `constant_value`"]),
    case(Value, "tile([1, 2], -1)", 1, 1, &["negative dimensions are not allowed"]),
    case(Value, "tile([1, 2], [2, -1])", 1, 1, &["negative dimensions are not allowed"]),
    case(Type, "tile([1, 2], 1.5)", 1, 1, &["a shape must be an integer, not 1.5"]),
    case(Type, "tile([1, 2], [[1, 2]])", 1, 1, &["a dimension must be an integer, not an array of shape (2,)"]),
    case(Type, "tile([1, 2], reps=2, reps=3)", 1, 1, &["tile(", "multiple values", "`reps`"]),
    case(Value, "repeat([1, 2], -1)", 1, 1, &["repeats may not contain negative values"]),
    case(Value, "repeat([1, 2], [1, 2, 3])", 1, 1, &["operands could not be broadcast together with shape (2,) (repeats has 3)"]),
    case(Type, "repeat([1, 2], 1.5)", 1, 1, &["repeats must be an integer, not 1.5"]),
    case(Index, "repeat([1, 2], 2, axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "repeat(ones([2, 2]), [1, 2])", 1, 1, &["operands could not be broadcast together with shape (4,) (repeats has 2)"]),
    case(Type, "repeat([1, 2], 2, axes=0)", 1, 1, &["repeat(", "unexpected keyword argument `axes`"]),
    case(Index, "roll([1, 2], 1, axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Type, "roll([1, 2], 1.5)", 1, 1, &["a shift must be an integer, not 1.5"]),
    case(Value, "roll(ones([2, 2]), [1, 2], axis=[0, 1, 0])", 1, 1, &["'shift' and 'axis' should be scalars or 1D sequences of the same length"]),
    case(Index, "take([1, 2], [5])", 1, 1, &["index 5 is out of bounds for axis 0 with size 2"]),
    case(Index, "take([1, 2], -3)", 1, 1, &["index -3 is out of bounds for axis 0 with size 2"]),
    case(Index, "take([1, 2], [1.5])", 1, 1, &["arrays used as indices must be of integer or bool type, not f64"]),
    case(Index, "take([1, 2], 0, axis=1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Index, "take(ones([2, 2]), [3], axis=0)", 1, 1, &["index 3 is out of bounds for axis 0 with size 2"]),
    case(Type, "take([1, 2], [0], mode=\"clip\")", 1, 1, &["take(", "unexpected keyword argument `mode`"]),
    case(Index, "take_along_axis([1, 2], [5], 0)", 1, 1, &["index 5 is out of bounds for axis 0 with size 2"]),
    case(Index, "take_along_axis([1, 2], [0], 1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "take_along_axis(ones([2, 2]), [0, 1], 0)", 1, 1, &["`indices` and `arr` must have the same number of dimensions (1 and 2)"]),
    case(Index, "take_along_axis([1, 2], [0.5], 0)", 1, 1, &["arrays used as indices must be of integer or bool type, not f64"]),
    case(Type, "take_along_axis([1, 2], [0])", 1, 1, &["take_along_axis(", "missing", "`axis`"]),
    case(Index, "put_along_axis(ones(3), [5], 1, 0)", 1, 1, &["index 5 is out of bounds for axis 0 with size 3"]),
    case(Index, "put_along_axis(ones(3), [0], 1, 1)", 1, 1, &["axis 1 is out of bounds for array of dimension 1"]),
    case(Value, "put_along_axis(ones([2, 2]), [0, 1], 1, 0)", 1, 1, &["`indices` and `arr` must have the same number of dimensions (1 and 2)"]),
    case(Index, "put_along_axis(ones(3), [0.5], 1, 0)", 1, 1, &["arrays used as indices must be of integer or bool type, not f64"]),
    case(Type, "put_along_axis(ones(3), [0], \"a\", 0)", 1, 1, &["expected a number or an array, got a str"]),
    case(Index, "put(ones(3), [5], 1)", 1, 1, &["index 5 is out of bounds for axis 0 with size 3"]),
    case(Type, "x = 5\nput(x, [0], 1)", 2, 1, &["put needs an array, not an int: it changes one in place"]),
    case(Type, "put([1, 2], [0], 1)", 1, 1, &["put needs an array, not a list"]),
    case(Type, "put_along_axis([[1, 2]], [[0]], 1, 1)", 1, 1, &["put_along_axis needs an array, not a list"]),
    case(Index, "put(ones(3), [0.5], 1)", 1, 1, &["indices must be integers, not f64"]),
    case(Index, "put(ones(3), [-4], 1)", 1, 1, &["index -4 is out of bounds for axis 0 with size 3"]),
    case(Index, "x = ones([2, 3]); x[..., ..., 0]", 1, 19, &["an index can only have a single ellipsis (`...`)"]),
    case(Index, "x = ones([2, 3]); x[0, 0, 0, 0]", 1, 19, &["too many indices for array: array is 2-dimensional, but 4 were indexed"]),
    case(Index, "x = ones([2, 3]); x[..., 0, 0, 0]", 1, 19, &["too many indices for array: array is 2-dimensional, but 3 were indexed"]),
    case(Index, "x = ones(3); y = x[[true, false]]", 1, 18, &["boolean index did not match indexed array along axis 0", "size of axis is 3 but size of corresponding boolean axis is"]),
    case(Index, "x = ones([2, 3]); x[[true, false, true, false]]", 1, 19, &["boolean index did not match indexed array along axis 0", "size of axis is 2 but size of corresponding boolean axis is"]),
    case(Index, "x = ones([2, 3]); x[:, [true]]", 1, 19, &["boolean index did not match indexed array along axis 1", "size of axis is 3 but size of corresponding boolean axis is"]),
    case(Index, "x = ones(3); x[[true, false]] = 1", 1, 14, &["boolean index did not match indexed array along axis 0", "size of axis is 3 but size of corresponding boolean axis is"]),
    case(Index, "x = ones(3); x[ones([2, 2]) > 0]", 1, 14, &["too many indices for array: array is 1-dimensional, but 2 were indexed"]),
    case(Index, "x = ones(3); x[none, none, 5]", 1, 14, &["index 5 is out of bounds for axis 0 with size 3"]),
    case(Index, "x = ones(3); x[..., 3]", 1, 14, &["index 3 is out of bounds for axis 0 with size 3"]),
    case(Shape, "x = ones([2, 3]); x[[0, 1], [0, 1, 2]] = 1", 1, 19, &["operands could not be broadcast together with shapes (2,) (3,)"]),
    case(Shape, "x = ones(3); x[[0, 1]] = [1, 2, 3]", 1, 14, &["could not broadcast input array from shape (3,) into shape (2,)"]),
    case(Shape, "x = ones(3)\nx[1:] = [1, 2, 3]", 2, 1, &["could not broadcast input array from shape (3,) into shape (2,)"]),
    case(Index, "x = ones(3); x[[[0, 4]]]", 1, 14, &["index 4 is out of bounds for axis 0 with size 3"]),
    case(Index, "x = ones([2, 3]); x[1, [0, -4]]", 1, 19, &["index -4 is out of bounds for axis 1 with size 3"]),
    case(Type, "x = ones(3); x[\"a\":2]", 1, 16, &["indices must be integers, not a str"]),
    case(Type, "x = ones(3); x[0:1.5]", 1, 18, &["indices must be integers, not a float"]),
    // ---- dtypes: finfo, iinfo, can_cast, isdtype, astype ----
    case(Value, "finfo(i64)", 1, 1, &["data type i64 not inexact"]),
    case(Value, "finfo(bool)", 1, 1, &["data type bool not inexact"]),
    case(Type, "finfo(5)", 1, 1, &["expected a dtype", "got an int"]),
    case(Value, "finfo(ones(2, dtype=i32))", 1, 1, &["data type i32 not inexact"]),
    case(Type, "finfo(f32, f64)", 1, 1, &["finfo(", "takes at most 1"]),
    case(Value, "iinfo(f32)", 1, 1, &["Invalid integer data type 'f'"]),
    case(Value, "iinfo(bool)", 1, 1, &["Invalid integer data type '?'"]),
    case(Value, "iinfo(c128)", 1, 1, &["Invalid integer data type 'D'"]),
    case(Type, "iinfo(3.5)", 1, 1, &["expected a dtype", "got a float"]),
    case(Type, "iinfo(dtype=i32, dtype=i64)", 1, 1, &["iinfo(", "multiple values", "`dtype`"]),
    case(Type, "finfo(f32).tiny2", 1, 1, &["finfo has no attribute `tiny2`", "attributes: bits eps max min tiny smallest_normal"]),
    case(Type, "iinfo(i32).eps", 1, 1, &["iinfo has no attribute `eps` (attributes: bits min max dtype)"]),
    case(Type, "can_cast(1, f64)", 1, 1, &["expected a dtype", "got an int"]),
    case(Type, "can_cast(f32, f64, casting=1)", 1, 1, &["casting must be a string, not 1"]),
    case(Type, "can_cast(f32)", 1, 1, &["can_cast(", "missing", "`to`"]),
    case(Type, "can_cast(f32, f64, casting=\"safe\", casting=\"no\")", 1, 1, &["can_cast(", "multiple values", "`casting`"]),
    case(Type, "isdtype(f32, 5)", 1, 1, &["kind must be a dtype, a string or a list of them, not 5"]),
    case(Type, "isdtype(5, \"real floating\")", 1, 1, &["expected a dtype", "got an int"]),
    case(Value, "isdtype(f32, [\"bogus\"])", 1, 1, &["kind argument must be a dtype or one of 'bool', 'signed integer', 'unsigned integer', 'integral', 'real floating', 'complex floating', 'numeric', not 'bogus'"]),
    case(Value, "result_type()", 1, 1, &["at least one array or dtype is required"]),
    case(Type, "result_type(\"a\")", 1, 1, &["result_type takes arrays, dtypes and numbers, not a str"]),
    case(Type, "astype(ones(2), \"bogus\")", 1, 1, &["unknown dtype \"bogus\""]),
    case(Type, "astype(ones(2), 5)", 1, 1, &["expected a dtype", "got an int"]),
    case(Type, "astype(ones(2), none)", 1, 1, &["expected a dtype", "got a none"]),
    case(Type, "astype(ones(2))", 1, 1, &["astype(", "missing", "`dtype`"]),
    case(Type, "ones(2).astype(\"f9\")", 1, 1, &["unknown dtype \"f9\""]),
    case(Type, "ones(2).astype(cpu)", 1, 1, &["expected a dtype", "got a device"]),
    case(Type, "astype(\"abc\", f32)", 1, 1, &["expected an array, got a str"]),
    case(Type, "arange(3, dtype=\"i4\")", 1, 1, &["unknown dtype \"i4\""]),
    case(Type, "ones(2, dtype=i64).astype(int)", 1, 1, &["expected a dtype", "got a function"]),
    // ---- contractions: einsum, tensordot, vecdot, kron, trace, diagonal ----
    case(Value, "einsum(\"ij,jk->ik\", ones([2, 2]))", 1, 1, &["einsum: 1 operands for 2 subscripts"]),
    case(Value, "einsum(\"ij,jk->ik\", ones([2, 2]), ones([2, 2]), ones([2, 2]))", 1, 1, &["einsum: 3 operands for 2 subscripts"]),
    case(Value, "einsum(\"ij->ij\", ones(3))", 1, 1, &["einsum: operand has 1 axes but its subscripts name 2"]),
    case(Value, "einsum(\"ijk->ij\", ones([2, 2]))", 1, 1, &["einsum: operand has 2 axes but its subscripts name 3"]),
    case(Value, "einsum(\"i1->i\", ones(3))", 1, 1, &["einsum: invalid subscript '1' (use a-z)"]),
    case(Type, "einsum(\"i->i\", \"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "einsum(5, ones(2))", 1, 1, &["einsum's first argument is the subscripts string"]),
    case(Shape, "einsum(\"ii\", ones([2, 3]))", 1, 1, &["einsum: axes of 'i' differ in length"]),
    case(Value, "einsum(\"i,j->\", ones(2))", 1, 1, &["einsum: 1 operands for 2 subscripts"]),
    case(Value, "einsum(\"i..j\", ones(3))", 1, 1, &["einsum: invalid subscript '.' (use a-z)"]),
    case(Value, "einsum(\"ij,jk->iK\", ones([2, 2]), ones([2, 2]))", 1, 1, &["einsum: output subscript 'K' is not among the inputs"]),
    case(Type, "einsum()", 1, 1, &["einsum(", "missing", "`subscripts`"]),
    case(Type, "einsum(\"i->i\", ones(2), optimize=true)", 1, 1, &["einsum(", "unexpected keyword argument `optimize`"]),
    case(Shape, "tensordot(ones([2, 3]), ones([2, 3]), axes=1)", 1, 1, &["shape-mismatch for sum: axis 1 of a has 3 elements, axis 0 of b 2"]),
    case(Shape, "tensordot(ones([2, 3]), ones([2, 3]), axes=[[0], [1]])", 1, 1, &["shape-mismatch for sum: axis 0 of a has 2 elements, axis 1 of b 3"]),
    case(Value, "tensordot(ones([2, 3]), ones([2, 3]), axes=[[0, 1], [0]])", 1, 1, &["shape-mismatch for sum: the axis lists differ in length"]),
    case(Type, "tensordot(ones([2, 3]), ones([2, 3]), axes=\"a\")", 1, 1, &["tensordot's axes is a count or [[a's axes], [b's axes]], not \"a\""]),
    case(Type, "tensordot(ones([2, 3]), ones([2, 3]), axes=1.5)", 1, 1, &["axes must be an integer, not 1.5"]),
    case(Index, "tensordot(ones([2, 3]), ones([2, 3]), axes=[[0], [5]])", 1, 1, &["axis 5 is out of bounds for array of dimension 2"]),
    case(Type, "tensordot(\"a\", ones(3))", 1, 1, &["expected an array, got a str"]),
    case(Type, "tensordot(ones(2), ones(2), axes=0, axes=1)", 1, 1, &["tensordot(", "multiple values", "`axes`"]),
    case(Shape, "vecdot(ones(3), ones(4))", 1, 1, &["operands could not be broadcast together with shapes (3,) (4,)"]),
    case(Index, "vecdot(ones([2, 3]), ones([2, 3]), axis=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Shape, "vecdot(ones([2, 3]), ones([3, 3]))", 1, 1, &["operands could not be broadcast together with shapes (2, 3) (3, 3)"]),
    case(Type, "vecdot(ones(3), ones(3), axis=1.5)", 1, 1, &["axis must be an integer, not 1.5"]),
    case(Index, "vecdot(reshape([1], []), reshape([1], []))", 1, 1, &["axis -1 is out of bounds for array of dimension 0"]),
    case(Shape, "inner(ones(3), ones(4))", 1, 1, &["shape-mismatch for sum: axis 0 of a has 3 elements, axis 0 of b 4"]),
    case(Type, "kron(ones(2), \"a\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "kron(ones(2))", 1, 1, &["kron(", "missing", "`b`"]),
    case(Type, "kron(ones(2), ones(2), axis=0)", 1, 1, &["kron(", "unexpected keyword argument `axis`"]),
    case(Value, "trace(ones(3))", 1, 1, &["diag requires an array of at least two dimensions"]),
    case(Value, "trace(reshape([1], []))", 1, 1, &["diag requires an array of at least two dimensions"]),
    case(Value, "trace(ones([2, 2]), axis1=0, axis2=0)", 1, 1, &["axis1 and axis2 cannot be the same"]),
    case(Index, "trace(ones([2, 2]), axis1=2)", 1, 1, &["axis 2 is out of bounds for array of dimension 2"]),
    case(Type, "trace(ones([2, 2]), offset=0, offset=1)", 1, 1, &["trace(", "multiple values", "`offset`"]),
    case(Type, "trace(ones([2, 2]), offset=1.5)", 1, 1, &["offset must be an integer, not 1.5"]),
    case(Type, "diagonal(ones([2, 2]), offset=\"a\")", 1, 1, &["offset must be an integer"]),
    case(Type, "trace(ones([2, 2]), axis1=0.5)", 1, 1, &["an axis must be an integer"]),
    case(Value, "diagonal(ones(3))", 1, 1, &["diag requires an array of at least two dimensions"]),
    case(Value, "diagonal(ones([2, 2]), axis1=1, axis2=1)", 1, 1, &["axis1 and axis2 cannot be the same"]),
    case(Index, "diagonal(ones([2, 2]), axis2=3)", 1, 1, &["axis 3 is out of bounds for array of dimension 2"]),
    case(Shape, "matmul(ones([2, 3]), ones([2, 3]))", 1, 1, &["matmul: shapes (2, 3) and (2, 3) are not aligned"]),
    case(Shape, "dot(ones(3), ones(4))", 1, 1, &["matmul: shapes (3,) and (4,) are not aligned"]),
    case(Shape, "conv2d(ones([3, 3]), ones(3))", 1, 1, &["conv2d takes a 2-d image and a 2-d kernel, not (3, 3) and (3,)"]),
    // ---- user kernels: bad parameter lists and arguments (cpu arrays: needs the gpu) ----
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", 5)", 1, 5, &["elementwise_kernel: operation is a string, not an int"]),
    case(Type, "k = elementwise_kernel(\"T x\", 5, \"z = x\")", 1, 5, &["elementwise_kernel: out_params is a string, not an int"]),
    case(Value, "k = elementwise_kernel(\"x\", \"T z\", \"z = 1\")", 1, 5, &["elementwise_kernel: `x` is not a parameter", "write `TYPE NAME` or `raw TYPE NAME`"]),
    case(Value, "k = elementwise_kernel(\"T x y\", \"T z\", \"z = x\")", 1, 5, &["elementwise_kernel: `T x y` is not a parameter", "write `TYPE NAME` or `raw TYPE NAME`"]),
    case(Value, "k = elementwise_kernel(\"T 1x\", \"T z\", \"z = 1\")", 1, 5, &["elementwise_kernel: `T 1x`: types and names are C identifiers"]),
    case(Value, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\", name=\"a b\")", 1, 5, &["a kernel: the name `a b` is not a C identifier"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\", name=5)", 1, 5, &["a kernel: name is a string, not an int"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\", preamble=5)", 1, 5, &["elementwise_kernel: preamble is a string, not an int"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\")", 1, 5, &["elementwise_kernel(", "missing", "`operation`"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\", bogus=1)", 1, 5, &["elementwise_kernel(", "unexpected keyword argument `bogus`"]),
    case(Value, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\", name=\"\")", 1, 5, &["a kernel: the name `` is not a C identifier"]),
    case(Type, "elementwise_kernel(\"T x\", \"T z\", \"z = x\", name=\"a\", name=\"b\")", 1, 1, &["elementwise_kernel(", "multiple values", "`name`"]),
    case(Type, "k = raw_kernel(5, \"k\")", 1, 5, &["raw_kernel: code is a string, not an int"]),
    case(Type, "k = raw_kernel(\"\", 5)", 1, 5, &["raw_kernel: name is a string, not an int"]),
    case(Value, "k = raw_kernel(\"\", \"\")", 1, 5, &["raw_kernel: the name `` is not a C identifier"]),
    case(Value, "k = raw_kernel(\"\", \"1k\")", 1, 5, &["raw_kernel: the name `1k` is not a C identifier"]),
    case(Type, "k = raw_kernel(\"\")", 1, 5, &["raw_kernel(", "missing", "`name`"]),
    case(Type, "k = raw_kernel(\"\", \"k\", bogus=1)", 1, 5, &["raw_kernel(", "unexpected keyword argument `bogus`"]),
    case(Type, "raw_kernel(\"\", \"k\", name=\"k\")", 1, 1, &["raw_kernel(", "multiple values", "`name`"]),
    case(Type, "k = raw_kernel(\"\", \"k\")\nk(1, 1)", 2, 1, &["<raw_kernel k> is called as k(grid, block, [args...], shared_mem=)"]),
    case(Type, "k = reduction_kernel(\"T x\", \"T y\", \"x\", \"a + b\", \"y = a\")", 1, 5, &["reduction_kernel(", "missing", "`identity`"]),
    case(Value, "k = reduction_kernel(\"T x\", \"\", \"x\", \"a + b\", \"y = a\", \"0\")", 1, 5, &["reduction_kernel: out_params declares no output"]),
    case(Type, "k = reduction_kernel(\"T x\", \"T y\", 5, \"a + b\", \"y = a\", \"0\")", 1, 5, &["reduction_kernel: map_expr is a string, not an int"]),
    case(Type, "k = reduction_kernel(\"T x\", \"T y\", \"x\", \"a + b\", \"y = a\", 0)", 1, 5, &["reduction_kernel: identity is a string, not an int"]),
    case(Type, "k = reduction_kernel(\"T x\", \"T y\", \"x\", \"a + b\", \"y = a\", \"0\", reduce_type=5)", 1, 5, &["reduction_kernel: reduce_type is a string, not an int"]),
    case(Value, "k = reduction_kernel(\"T x\", \"T y\", \"x\", \"a + b\", \"y = a\", \"0\", name=\"x y\")", 1, 5, &["a kernel: the name `x y` is not a C identifier"]),
    case(Value, "k = reduction_kernel(\"T x, T x\", \"T y\", \"x\", \"a + b\", \"y = a\", \"0\")", 1, 5, &["reduction_kernel: the parameter `x` is declared twice"]),
    case(Value, "k = reduction_kernel(\"T\", \"T y\", \"x\", \"a + b\", \"y = a\", \"0\")", 1, 5, &["reduction_kernel: `T` is not a parameter (write `TYPE NAME` or `raw TYPE NAME`)"]),
    case(Type, "k = reduction_kernel(\"T x\", \"T y\", \"x\", \"a + b\", \"y = a\", \"0\", bogus=1)", 1, 5, &["reduction_kernel(", "unexpected keyword argument `bogus`"]),
    case(Type, "f = fuse(\"abc\")", 1, 5, &["fuse takes a function, not a str"]),
    case(Type, "f = fuse(none)", 1, 5, &["fuse takes a function, not a none"]),
    case(Type, "f = fuse()", 1, 5, &["fuse(", "missing", "`f`"]),
    case(Type, "f = fuse(fn(x) { x }, 2)", 1, 5, &["fuse(", "takes at most 1"]),
    case(Type, "f = fuse(ones(2))", 1, 5, &["fuse takes a function, not an array"]),
    case(Type, "f = fuse(fn(x) { x })\nf(1, 2)", 2, 1, &["<lambda>() takes 1 arguments but 2 were given"]),
    case(Type, "fuse(fn(x) { x }, kernel_name=\"f\")", 1, 1, &["fuse(", "unexpected keyword argument `kernel_name`"]),
    case(Type, "f = fuse(fn(x) { return \"a\" + 1 })\nf(ones(2))", 1, 25, &["unsupported operand types for +: str and int"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\")\nk(\"a\")", 2, 1, &["expected an array, got a str"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\")\nk()", 2, 1, &["takes 1 inputs", "got 0 arguments"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\")\nk(ones(2), ones(2), ones(2))", 2, 1, &["takes 1 inputs", "got 3 arguments"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\")\nk(ones(2), bogus=1)", 2, 1, &["<elementwise_kernel kernel>", "unexpected keyword argument `bogus`"]),
    // ---- charts: mismatched data, bins, image shapes, file= and keywords ----
    case(Value, "plot([1, 2], [1, 2, 3, 4])", 1, 1, &["x and y must have same first dimension, but have shapes (2,) and (4,)"]),
    case(Value, "plot(ones([2, 2]), [1, 2, 3])", 1, 1, &["x and y must have same first dimension, but have shapes (2, 2) and (3,)"]),
    case(Type, "plot([1, 2], \"ab\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "plot()", 1, 1, &["plot(", "missing", "`x`"]),
    case(Type, "plot([1, 2], file=5)", 1, 1, &["a file name must be a str, not an int"]),
    case(Value, "plot([1, 2], file=\"a.pdf\")", 1, 1, &["a picture is saved as .svg or .png, not 'a.pdf'"]),
    case(Type, "plot([1, 2], color=\"red\")", 1, 1, &["plot(", "unexpected keyword argument `color`"]),
    case(Type, "plot([1, 2], title=\"a\", title=\"b\")", 1, 1, &["plot(", "multiple values", "`title`"]),
    case(Value, "plot([1, 2], label=[\"a\", \"b\"])", 1, 1, &["label must be scalar or have the same length as the input data", "found 2 for 1 datasets"]),
    case(Type, "scatter([1, 2])", 1, 1, &["scatter(", "missing", "`y`"]),
    case(Type, "scatter([1, 2], \"ab\")", 1, 1, &["expected an array, got a str"]),
    case(Value, "scatter(ones([2, 2]), ones([3, 3]))", 1, 1, &["x and y must be the same size"]),
    case(Value, "scatter([1, 2], [1, 2], file=\"a.gif\")", 1, 1, &["a picture is saved as .svg or .png, not 'a.gif'"]),
    case(Type, "scatter([1, 2], [1, 2], size=3)", 1, 1, &["scatter(", "unexpected keyword argument `size`"]),
    case(Type, "scatter([1j], [1])", 1, 1, &["cannot draw c128 values: take .real, .imag or abs() first"]),
    case(Value, "hist([1, 2], bins=-1)", 1, 1, &["`bins` must be positive, when an integer"]),
    case(Type, "hist([1, 2], bins=1.5)", 1, 1, &["bins must be an integer, not 1.5"]),
    case(Type, "hist([1, 2], bins=\"auto\")", 1, 1, &["bins must be an integer, not \"auto\""]),
    case(Value, "hist([1, 2], range=[2, 1])", 1, 1, &["max must be larger than min in range parameter"]),
    case(Value, "hist([1, 2], range=[1])", 1, 1, &["range must be [low, high]"]),
    case(Value, "hist([1, 2], file=\"a.jpeg\")", 1, 1, &["a picture is saved as .svg or .png, not 'a.jpeg'"]),
    case(Type, "hist([1, 2], file=1)", 1, 1, &["a file name must be a str, not an int"]),
    case(Type, "hist(\"abc\")", 1, 1, &["expected an array, got a str"]),
    case(Type, "hist([1, 2], density=true)", 1, 1, &["hist(", "unexpected keyword argument `density`"]),
    case(Type, "hist([1j, 2])", 1, 1, &["cannot draw c128 values: take .real, .imag or abs() first"]),
    case(Type, "hist([1, 2], bins=2, bins=3)", 1, 1, &["hist(", "multiple values", "`bins`"]),
    case(Value, "imshow([1, 2, 3])", 1, 1, &["Invalid shape (3,) for image data"]),
    case(Value, "imshow(reshape([1], []))", 1, 1, &["Invalid shape () for image data"]),
    case(Value, "imshow(ones([2, 2, 2, 2]))", 1, 1, &["Invalid shape (2, 2, 2, 2) for image data"]),
    case(Value, "imshow(ones([2, 2, 2]))", 1, 1, &["Invalid shape (2, 2, 2) for image data"]),
    case(Value, "imshow(ones([2, 2]), file=\"a.bmp\")", 1, 1, &["a picture is saved as .svg or .png, not 'a.bmp'"]),
    case(Type, "imshow(ones([2, 2]), cmap=\"gray\")", 1, 1, &["imshow(", "unexpected keyword argument `cmap`"]),
    case(Type, "imshow(ones([2, 2]) * 1j)", 1, 1, &["cannot draw c128 values: take .real, .imag or abs() first"]),
    case(Value, "bar([1, 2], labels=[\"a\", \"b\", \"c\"])", 1, 1, &["bar has 2 heights but 3 labels"]),
    case(Type, "bar(\"ab\")", 1, 1, &["expected an array, got a str"]),
    case(Value, "bar([1, 2], file=\"a.txt\")", 1, 1, &["a picture is saved as .svg or .png, not 'a.txt'"]),
    case(Type, "bar([1j])", 1, 1, &["cannot draw c128 values: take .real, .imag or abs() first"]),
    case(Type, "bar([1, 2], width=1)", 1, 1, &["bar(", "unexpected keyword argument `width`"]),
    case(Type, "bar([1, 2], labels=[\"a\", \"b\"], labels=[\"c\", \"d\"])", 1, 1, &["bar(", "multiple values", "`labels`"]),
];

/// Edge cases that are not errors: they must run (exit 0) and print exactly this.
#[rustfmt::skip]
const RUNS: &[(&str, &str)] = &[
    // NumPy differences an empty axis for all `n` orders; the result is that empty axis
    ("print(diff(arange(6.0), 2**62).shape, diff(arange(6) > 2, 100).dtype)", "(0,) bool\n"),
    // Python's range has no overflow: the loop simply ends
    ("for i in range(9223372036854775800, 9223372036854775807, 5) { print(i) }", "9223372036854775800\n9223372036854775805\n"),
    ("for i in range(-9223372036854775800, -9223372036854775807 - 1, -5) { print(i) }", "-9223372036854775800\n-9223372036854775805\n"),
    ("print(len(range(0, 9223372036854775807, 4611686018427387904)))", "2\n"),
    // NumPy computes this arange exactly: every element fits in 64 bits
    (
        "print(arange(-9223372036854775807, 9223372036854775807, 4611686018427387904))",
        "[-9223372036854775807 -4611686018427387903                    1\n  4611686018427387905]\n",
    ),
    // NumPy: the median of nothing is NaN (with a warning)
    (
        "print(median(zeros(0)), nanmedian(zeros(0)), median(zeros([2, 0]), axis=1), nanmedian(zeros([0, 2], dtype=f32), axis=0).dtype)",
        "nan nan [nan nan] f32\n",
    ),
    // NumPy: an empty inner dimension multiplies to zeros
    ("print(matmul(zeros([2, 0]), zeros([0, 2])))", "[[0. 0.]\n [0. 0.]]\n"),
    ("print(zeros([0, 3]) @ ones(3))", "[]\n"),
    ("print(sum(zeros([0, 3]), axis=0), sum(zeros([0, 3]), axis=1))", "[0. 0. 0.] []\n"),
    ("print(cumsum(zeros([0, 2]), axis=0).shape)", "(0, 2)\n"),
    ("print(zeros([2, 0]).T.shape, ravel(zeros([2, 0])).shape)", "(0, 2) (0,)\n"),
    ("print(concatenate([zeros([0, 2]), ones([1, 2])]))", "[[1. 1.]]\n"),
    ("x = zeros([0, 3]); print(x, x.shape)", "[] (0, 3)\n"),
    ("x = arange(3); print(x[5:2], x[5:2].shape)", "[] (0,)\n"),
    ("print(mean(zeros(0)), std(zeros(0)))", "nan nan\n"),
    // in-place never needs a new buffer, even when the operand overlaps the target
    ("x = arange(5); x[1:] += x[:-1]; print(x)", "[0 1 3 5 7]\n"),
    ("m = reshape(arange(9), [3, 3]); m[:] = m.T; print(m)", "[[0 3 6]\n [1 4 7]\n [2 5 8]]\n"),
    // stores through a chained index or an attribute write into the original, as in NumPy
    (
        "x = reshape(arange(6), [2, 3]); x[0][1] = 99; print(x)",
        "[[ 0 99  2]\n [ 3  4  5]]\n",
    ),
    ("x = reshape(arange(6), [2, 3]); x.T[0] = -1; print(x)", "[[-1  1  2]\n [-1  4  5]]\n"),
    // NumPy's same_kind casting: an f64 operand may update an f32 array in place
    ("x = ones(3, dtype=f32); x += ones(3); print(x, x.dtype)", "[2. 2. 2.] f32\n"),
    ("x = ones(2, dtype=f32); x *= [0.5, 4.0]; print(x, x.dtype)", "[0.5 4. ] f32\n"),
];

/// Inputs whose only promise here is "a clean result or a clean error, never a crash".
#[rustfmt::skip]
const NO_CRASH: &[&str] = &[
    "print(conv2d(ones([2, 2]), zeros([0, 3])))",
    "print(conv2d(zeros([0, 0]), ones([1, 1])))",
    "print(reshape(zeros(0), [0, -1]))",
    "print(min(zeros([0, 3]), axis=1))",
    "print(argmax(zeros([0, 3]), axis=0))",
    "print(stack([zeros([0, 2]), zeros([0, 2])]))",
    "x = zeros([0, 2]); x[:, 0] = 1; print(x)",
    "x = zeros([3, 0]); print(x[1], x[x > 0])",
    "print(outer(zeros(0), ones(3)))",
    "print(ones([2, 0]) @ ones([0, 3]))",
    "print(randint(-9223372036854775807 - 1, 9223372036854775807, 3).shape)",
    "print(linspace(0, 1e308, 3), linspace(-1e308, 1e308, 3))",
    "print(arange(1e18, 1e18 + 3))",
    "print(astype([1e300, -1e300, 0.0 / 0.0], i64))",
    "x = arange(3); x[0] = 1e300; print(x)",
    "print(eye(0), eye(0).shape)",
    "print(full([2, 0], 7), zeros_like(zeros([0, 4])))",
    "print(str(zeros([0, 3])), [zeros([2, 0])])",
    "save(\"e.npy\", zeros([0, 3])); print(load(\"e.npy\").shape)",
    "plot(ones([3, 0])); plot(ones([0, 3]), file=\"e.svg\"); plot([]); bar([]); hist([], file=\"e.png\")",
    "plot([-1e308, 1e308], file=\"big.svg\"); plot([1e300, 1e300]); plot([5e-324, 1.7e308], logy=true, file=\"l.png\")",
    "imshow(ones([1, 100000]), file=\"wide.png\"); imshow(ones([100000, 1]), file=\"tall.svg\"); imshow([[nan, inf]])",
    "scatter([nan, inf, -inf], [1, 2, 3], logx=true, logy=true, file=\"s.png\"); plot([0, -1], logy=true)",
];

/// Errors where no gpu is usable (CI): anything that needs the gpu says why, cleanly.
#[rustfmt::skip]
const NO_GPU_CASES: &[Case] = &[
    case(Device, "to(ones(2), gpu)", 1, 1, &["no gpu"]),
    case(Device, "x = ones(2).to(gpu)", 1, 5, &["no gpu"]),
    case(Device, "zeros(3, device=gpu)", 1, 1, &["no gpu"]),
    case(Device, "x = 1\ny = ones([2, 2], device=gpu)", 2, 5, &["no gpu"]),
    case(Device, "arange(3, device=gpu)", 1, 1, &["no gpu"]),
    case(Device, "linspace(0, 1, 3, device=gpu)", 1, 1, &["no gpu"]),
    case(Device, "eye(2, device=gpu)", 1, 1, &["no gpu"]),
    case(Device, "full(2, 1, device=gpu)", 1, 1, &["no gpu"]),
    case(Device, "rand(3, device=gpu)", 1, 1, &["no gpu"]),
    case(Device, "randint(0, 5, 3, device=gpu)", 1, 1, &["no gpu"]),
    case(Device, "zeros_like(ones(2), device=gpu)", 1, 1, &["no gpu"]),
    case(Device, "load(\"ok.npy\", device=gpu)", 1, 1, &["no gpu"]),
    case(Device, ":device gpu", 1, 1, &["no gpu"]),
];

/// Errors that need a gpu: mixed devices, the scalar guard's error mode, gpu memory exhausted.
#[rustfmt::skip]
const GPU_CASES: &[Case] = &[
    case(Device, "x = ones(2, device=gpu)\ny = x + ones(2, device=cpu)", 2, 5, &["different devices", "to(x, gpu)", "host→device"]),
    case(Device, "x = ones(2, device=gpu)\ny = maximum(ones(2, device=cpu), x)", 2, 5, &["different devices"]),
    case(Device, "x = ones(2, device=gpu)\nx += ones(2, device=cpu)", 2, 6, &["different devices"]),
    case(Device, "x = ones(3, device=gpu)\nx[0:2] = ones(2, device=cpu)", 2, 1, &["different devices"]),
    case(Device, "x = ones(2, device=gpu)\ny = x @ ones(2, device=cpu)", 2, 5, &["different devices"]),
    case(Device, ":scalar error\nx = ones(3, device=gpu)\ny = x[1]", 3, 5, &["scalar indexing", ":scalar error", "to(x, cpu)"]),
    case(Device, ":scalar error\nx = ones([2, 2], device=gpu)\nx[1, 1] = 3", 3, 1, &["scalar indexing"]),
    case(Memory, "x = ones(1e15, device=gpu)", 1, 5, &["cannot allocate", "gpu"]),
    case(Memory, "x = ones(2, device=gpu)\ny = zeros(2e13, device=gpu)", 2, 5, &["cannot allocate", "gpu"]),
    case(ZeroDivision, "x = arange(4, device=gpu) % 0", 1, 5, &["modulo by zero"]),
    case(Index, "x = arange(4, device=gpu)\ny = x[ones(3, device=gpu) > 0]", 2, 5, &["boolean index did not match"]),
    case(Shape, "x = ones([2, 3], device=gpu)\ny = x @ ones([2, 3], device=gpu)", 2, 5, &["not aligned"]),
    case(Value, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x * q\", \"bad\")\nk(ones(2, device=gpu))", 2, 1, &["elementwise_kernel bad: its CUDA code does not compile"]),
    case(Type, "k = elementwise_kernel(\"T x, T y\", \"T z\", \"z = x + y\")\nk(ones(2, device=gpu))", 2, 1, &["takes 2 inputs"]),
    case(Type, "k = elementwise_kernel(\"T x, T y\", \"T z\", \"z = x + y\")\nk(ones(2, device=gpu), ones(2, dtype=f32, device=gpu))", 2, 1, &["type T is f64", "`y` is f32"]),
    case(Shape, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\")\nk(ones(2, device=gpu), ones(3, device=gpu))", 2, 1, &["output `z` has shape (3,)", "(2,)"]),
    case(Type, "k = elementwise_kernel(\"T x\", \"T z\", \"z = x\")\nk(ones(2, device=gpu), ones(2, dtype=f32, device=gpu))", 2, 1, &["type T is f64", "`z` is f32"]),
    case(Value, "k = elementwise_kernel(\"\", \"int64 z\", \"z = i\")\nk()", 2, 1, &["give size="]),
    case(Type, "k = reduction_kernel(\"T x, float64 s\", \"T y\", \"x * s\", \"a + b\", \"y = a\", \"0\")\nk(ones(2, device=gpu), 1 + 2j)", 2, 1, &["`s` is", "cannot take a complex value"]),
    case(Value, "k = raw_kernel(\"extern \\\"C\\\" __global__ void other() {}\", \"absent\")\nk(1, 1, [])", 2, 1, &["no kernel named `absent`"]),
    case(Value, "k = raw_kernel(\"extern \\\"C\\\" __global__ void f(double* x) {}\", \"f\")\nk(1, 1, [ones([2, 2], device=gpu)[:, 1]])", 2, 1, &["argument 0 is not contiguous"]),
    case(Value, "k = raw_kernel(\"extern \\\"C\\\" __global__ void f() {}\", \"f\")\nk(0, 1, [])", 2, 1, &["grid sizes are positive"]),
    case(LinAlg, "x = linalg.inv(zeros([2, 2], device=gpu))", 1, 5, &["LinAlgError: Singular matrix"]),
    case(LinAlg, "x = linalg.cholesky(-eye(3, device=gpu))", 1, 5, &["LinAlgError: Matrix is not positive definite"]),
    case(Device, "x = linalg.solve(eye(2, device=gpu), ones(2))", 1, 5, &["different devices"]),
];

fn arrsh() -> &'static str {
    env!("CARGO_BIN_EXE_arrsh")
}

/// A fresh directory (one per table, since the tables run at the same time) with the files some
/// snippets read.
fn fixture_dir() -> PathBuf {
    static TABLES: AtomicUsize = AtomicUsize::new(0);
    let table = TABLES.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("arrsh-errors-{}-{table}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("adir")).unwrap();
    std::fs::write(dir.join("bad.npy"), b"this is not a npy file\n").unwrap();
    std::fs::write(dir.join("f128.npy"), npy("<f16", "(3,)", &[0; 48])).unwrap();
    let doubles: Vec<u8> = [1.0f64, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    let ok = npy("<f8", "(2,)", &doubles);
    std::fs::write(dir.join("ok.npy"), &ok).unwrap();
    std::fs::write(dir.join("trunc.npy"), &ok[..40]).unwrap();
    dir
}

/// A version 1.0 `.npy` file: magic, header dict padded to 64 bytes, then the data.
fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

fn run(code: &str, dir: &Path) -> Output {
    common::run_code(code, dir)
}

fn panic_text(stderr: &str) -> bool {
    stderr.contains("panicked")
        || stderr.contains("RUST_BACKTRACE")
        || stderr.contains("memory allocation of")
}

fn show(code: &str, out: &Output) -> String {
    format!(
        "  code:   {code:?}\n  exit:   {:?}\n  stdout: {:?}\n  stderr: {}\n",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr).replace('\n', "\n          ")
    )
}

/// Checks one error case; `None` when it behaves as promised.
fn check_case(c: &Case, dir: &Path) -> Option<String> {
    let out = run(c.code, dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut problems = Vec::new();
    if panic_text(&stderr) {
        problems.push("it panicked".to_string());
    }
    if out.status.code() != Some(1) {
        problems.push(format!("exit status {:?}, expected 1", out.status.code()));
    }
    let headers: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("<-e>:") && l.contains(": error: "))
        .collect();
    if headers.len() != 1 {
        problems.push(format!(
            "{} `<-e>:LINE:COL: error:` headers, expected exactly one",
            headers.len()
        ));
    }
    if let Some(header) = headers.first() {
        let want = format!("<-e>:{}:{}: error: ", c.line, c.col);
        if !header.starts_with(&want) {
            problems.push(format!("header {header:?} does not start with {want:?}"));
        }
        let lower = header.to_lowercase();
        for word in c.words {
            if !lower.contains(&word.to_lowercase()) {
                problems.push(format!("message lacks {word:?}"));
            }
        }
    }
    if problems.is_empty() {
        None
    } else {
        Some(format!("{}\n{}", problems.join("; "), show(c.code, &out)))
    }
}

fn check_run(code: &str, expected: &str, dir: &Path) -> Option<String> {
    let out = run(code, dir);
    let stdout = String::from_utf8_lossy(&out.stdout);
    if out.status.code() == Some(0) && stdout == expected && out.stderr.is_empty() {
        return None;
    }
    Some(format!(
        "expected exit 0 and stdout {expected:?}\n{}",
        show(code, &out)
    ))
}

fn check_no_crash(code: &str, dir: &Path) -> Option<String> {
    let out = run(code, dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let clean_error = out.status.code() == Some(1)
        && stderr
            .lines()
            .filter(|l| l.starts_with("<-e>:") && l.contains(": error: "))
            .count()
            == 1;
    if !panic_text(&stderr) && (out.status.code() == Some(0) || clean_error) {
        return None;
    }
    Some(format!(
        "expected a result or a clean error, not a crash\n{}",
        show(code, &out)
    ))
}

/// Runs `check` over `items` on all cores; returns the failure reports in table order.
fn parallel<T: Sync>(
    items: &[T],
    check: impl Fn(&T, &Path) -> Option<String> + Sync,
) -> Vec<(usize, String)> {
    let base = fixture_dir();
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism()
        .map_or(4, |n| n.get())
        .min(16);
    let mut failures: Vec<(usize, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (next, base, check) = (&next, &base, &check);
                s.spawn(move || {
                    // One working directory per thread: snippets that save files cannot collide.
                    let dir = base.join(format!("t{t}"));
                    std::fs::create_dir_all(&dir).unwrap();
                    for entry in std::fs::read_dir(base).unwrap() {
                        let path = entry.unwrap().path();
                        if path.is_file() {
                            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
                        }
                    }
                    std::fs::create_dir_all(dir.join("adir")).unwrap();
                    let mut found = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        if let Some(report) = check(item, &dir) {
                            found.push((i, report));
                        }
                    }
                    found
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    let _ = std::fs::remove_dir_all(&base);
    failures.sort_by_key(|(i, _)| *i);
    failures
}

fn report(what: &str, total: usize, failures: &[(usize, String)]) {
    println!("{what}: {} of {total} as promised", total - failures.len());
    assert!(
        failures.is_empty(),
        "{} of {total} {what} misbehave:\n\n{}",
        failures.len(),
        failures
            .iter()
            .map(|(i, r)| format!("#{i}: {r}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_corpus_is_large_and_distinct() {
    assert!(CASES.len() >= 600, "only {} error cases", CASES.len());
    let mut codes: Vec<&str> = CASES.iter().map(|c| c.code).collect();
    codes.sort();
    let before = codes.len();
    codes.dedup();
    assert_eq!(before, codes.len(), "a snippet appears twice in the corpus");
    assert!(CASES
        .iter()
        .all(|c| !c.words.is_empty() && c.line >= 1 && c.col >= 1));
}

#[test]
fn every_bad_snippet_fails_cleanly_at_its_position() {
    let failures = parallel(CASES, check_case);
    report("error cases", CASES.len(), &failures);
}

fn gpu_present() -> bool {
    run("assert(len(devices()) == 2)", &std::env::temp_dir())
        .status
        .success()
}

#[test]
fn device_errors_match_the_machine() {
    let require_gpu = std::env::var_os("ARRSH_REQUIRE_GPU").is_some();
    if gpu_present() {
        let failures = parallel(GPU_CASES, check_case);
        report("gpu error cases", GPU_CASES.len(), &failures);
    } else {
        assert!(
            !require_gpu,
            "the gpu error cases need a gpu and ARRSH_REQUIRE_GPU is set"
        );
        println!("skipped: no gpu: {} gpu error cases", GPU_CASES.len());
        let failures = parallel(NO_GPU_CASES, check_case);
        report("no-gpu error cases", NO_GPU_CASES.len(), &failures);
    }
}

#[test]
fn edge_cases_that_are_not_errors_run() {
    let failures = parallel(RUNS, |(code, expected), dir| check_run(code, expected, dir));
    report("edge cases", RUNS.len(), &failures);
}

#[test]
fn extreme_inputs_never_crash() {
    let failures = parallel(NO_CRASH, |code, dir| check_no_crash(code, dir));
    report("extreme inputs", NO_CRASH.len(), &failures);
}

#[test]
fn an_error_keeps_the_output_printed_before_it() {
    let out = run(
        "print(\"first\")\nprint(\"second\")\nx = arange(2)[7]\nprint(\"never\")",
        &std::env::temp_dir(),
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "first\nsecond\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "<-e>:3:5: error: index 7 is out of bounds for axis 0 with size 2\n3 | x = arange(2)[7]\n        ^^^^^^^^^^^^\n"
    );
}

#[test]
fn a_script_from_stdin_reports_errors_as_stdin() {
    let mut child = Command::new(arrsh())
        .arg("-")
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("arrsh runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"print(1)\nx = y + 1\nprint(2)\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "1\n");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "<stdin>:2:5: error: name `y` is not defined\n2 | x = y + 1\n        ^\n"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// Runs each snippet in this process, in a fixture directory, on a thread with the binary's
/// stack, and reports those whose error has another kind (the rendered text does not show kinds).
fn kind_mismatches(cases: &'static [Case]) -> Vec<(usize, String)> {
    let dir = fixture_dir();
    std::env::set_current_dir(&dir).unwrap();
    let found = std::thread::Builder::new()
        .stack_size(arrsh::interp::INTERPRETER_STACK_BYTES)
        .spawn(move || {
            let mut found = Vec::new();
            for (i, c) in cases.iter().enumerate() {
                let mut interp =
                    Interpreter::new(Box::new(std::io::sink()), Box::new(std::io::sink()));
                let kind = interp
                    .run_source("<-e>", c.code, false)
                    .err()
                    .map(|e| e.kind);
                if kind != Some(c.kind) {
                    found.push((
                        i,
                        format!("{:?}: kind {kind:?}, expected {:?}", c.code, c.kind),
                    ));
                }
            }
            found
        })
        .unwrap()
        .join()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    found
}

/// The only test that changes this process's working directory (the others give each child
/// its own), so the kinds of all tables are checked here, one after the other.
#[test]
fn every_error_has_its_kind() {
    let failures = kind_mismatches(CASES);
    report("error kinds", CASES.len(), &failures);
    let device_cases = if gpu_present() {
        GPU_CASES
    } else {
        NO_GPU_CASES
    };
    let failures = kind_mismatches(device_cases);
    report("device error kinds", device_cases.len(), &failures);
}

/// `arrsh FILE` with a file it cannot run: one `error:` line naming the file and why, exit 1.
#[test]
fn script_files_that_cannot_run_are_clean_errors() {
    let dir = fixture_dir();
    std::fs::write(
        dir.join("binary.arr"),
        [0x7fu8, b'E', b'L', b'F', 0, 0, 0xff, 0x01],
    )
    .unwrap();
    std::fs::write(dir.join("latin1.arr"), b"print(1)\nname = \"caf\xe9\"\n").unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("missing.arr", &["cannot read missing.arr", "No such file"]),
        ("adir", &["adir is a directory, not a script"]),
        (
            "binary.arr",
            &["binary.arr is not a text script", "invalid UTF-8 at byte 6"],
        ),
        (
            "latin1.arr",
            &[
                "latin1.arr is not a text script",
                "invalid UTF-8 at byte 20",
            ],
        ),
    ];
    for (file, words) in cases {
        let out = Command::new(arrsh())
            .arg(file)
            .current_dir(&dir)
            .env("NO_COLOR", "1")
            .env_remove("RUST_BACKTRACE")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert!(out.stdout.is_empty(), "{file}: nothing runs");
        assert_eq!(stderr.lines().count(), 1, "{file}: {stderr}");
        assert!(stderr.starts_with("error: "), "{file}: {stderr}");
        for word in *words {
            assert!(stderr.contains(word), "{file}: {word:?} not in {stderr:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad command-line use exits 2, with clap's message and no panic.
#[test]
fn bad_command_lines_exit_2() {
    let cases: &[&[&str]] = &[
        &["--bogus"],
        &["-e"],
        &["a.arr", "b.arr"],
        &["--device", "tpu", "-e", "1"],
        &["--scalar", "sometimes", "-e", "1"],
    ];
    for args in cases {
        let out = Command::new(arrsh()).args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error:") && !panic_text(&stderr),
            "{args:?}: {stderr}"
        );
    }
}
