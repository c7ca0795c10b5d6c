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
    case(Type, "len(1, 2)", 1, 1, &["takes at most 1"]),
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
    case(Command, ":device tpu", 1, 1, &[":device takes cpu or gpu", "`tpu`"]),
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
    case(Memory, "x = linspace(0, 1, 1e15)", 1, 5, &["cannot allocate"]),
    case(Memory, "x = eye(1e8)", 1, 5, &["cannot allocate"]),

    // ---- commands: arguments ----
    case(Command, ":time maybe", 1, 1, &[":time takes on or off", "`maybe`"]),
    case(Command, ":time on off", 1, 1, &[":time takes on or off", "`on off`"]),
    case(Command, ":scalar foo", 1, 1, &[":scalar takes allow, warn or error", "`foo`"]),
    case(Command, ":device cpu gpu", 1, 1, &[":device takes cpu or gpu"]),
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
    case(Value, "median(zeros(0))", 1, 1, &["empty"]),
    case(Value, "bincount([1, -1])", 1, 1, &["no negative elements"]),
    case(Value, "histogram([1, 2], bins=0)", 1, 1, &["`bins` must be positive"]),
    case(Value, "histogram([1, 2], range=[3, 1])", 1, 1, &["max must be larger than min"]),
    case(Value, "digitize([1, 2], [1, 3, 2])", 1, 1, &["monotonically"]),
    case(Value, "nanargmax([nan, nan])", 1, 1, &["All-NaN slice"]),
    case(Value, "einsum(\"ij,jk\", ones([2, 2]))", 1, 1, &["einsum", "operands"]),
    case(Shape, "einsum(\"ij,jk->ik\", ones([2, 3]), ones([2, 3]))", 1, 1, &["could not be broadcast"]),
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
];

/// Edge cases that are not errors: they must run (exit 0) and print exactly this.
#[rustfmt::skip]
const RUNS: &[(&str, &str)] = &[
    // Python's range has no overflow: the loop simply ends
    ("for i in range(9223372036854775800, 9223372036854775807, 5) { print(i) }", "9223372036854775800\n9223372036854775805\n"),
    ("for i in range(-9223372036854775800, -9223372036854775807 - 1, -5) { print(i) }", "-9223372036854775800\n-9223372036854775805\n"),
    ("print(len(range(0, 9223372036854775807, 4611686018427387904)))", "2\n"),
    // NumPy computes this arange exactly: every element fits in 64 bits
    (
        "print(arange(-9223372036854775807, 9223372036854775807, 4611686018427387904))",
        "[-9223372036854775807 -4611686018427387903                    1\n  4611686018427387905]\n",
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
    case(Type, "k = reduction_kernel(\"T x\", \"T y\", \"x\", \"a + b\", \"y = a\", \"0\")\nk(ones(2, dtype=c128, device=gpu))", 2, 1, &["c128 parameters are not supported"]),
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
    assert!(CASES.len() >= 200, "only {} error cases", CASES.len());
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
