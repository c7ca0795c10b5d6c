//! User kernels generated and compiled with NVRTC (no gpu needed): every parameter kind and
//! layout, reductions, and the complex and float16 types of `kernels/user.cuh`.

use super::*;
use crate::device::Device;

fn element(dtype: DType, layout: Layout) -> Bound {
    Bound::Element(ArrayArg {
        buffer: Buffer::alloc(Device::Cpu, 64, dtype).unwrap(),
        layout,
        dtype,
    })
}

fn compiles(name: &str, source: &str) {
    crate::device::gpu::modules::compile(name, source, "sm_90")
        .unwrap_or_else(|e| panic!("{}\n{source}", e.message));
}

#[test]
fn parameter_lists_parse_as_cupy_writes_them() {
    let params = parse_params("T x, raw float32 y,int64 n", "k").unwrap();
    assert_eq!(params.len(), 3);
    assert_eq!(params[0].ty, ParamType::Placeholder("T".into()));
    assert!(params[1].raw && params[1].ty == ParamType::Fixed(DType::F32));
    assert_eq!(params[2].ty, ParamType::Fixed(DType::I64));
    assert!(parse_params("T", "k").is_err());
    assert!(parse_params("T x, T x", "k").is_err());
    assert!(parse_params("T 1x", "k").is_err());
}

/// A loop indexes with `int` while its count and every element's offset fit one, as CuPy's
/// arrays do.
#[test]
fn small_loops_index_with_int() {
    let flat = |n: usize| Layout::contiguous(&[n]);
    assert!(fits_narrow(&[1000], &[flat(1000)]));
    assert!(!fits_narrow(&[1 << 30], &[flat(1 << 30)]));
    let mut spread = flat(1000);
    spread.strides[0] = 1 << 22;
    assert!(!fits_narrow(&[1000], &[spread.clone()]));
    spread.strides[0] = -(1 << 21);
    spread.offset = 999 << 21;
    assert!(fits_narrow(&[1000], &[spread.clone()]));
    spread.strides[0] = -(1 << 22);
    assert!(!fits_narrow(&[1000], &[spread]));
}

/// Contiguous, strided and broadcast element arguments, raw arrays and scalars, and a
/// reduction: generated and compiled with NVRTC (no gpu needed).
#[test]
fn generated_user_kernels_compile() {
    if !crate::device::gpu::modules::nvrtc_or_skip() {
        return;
    }
    let shape = [4, 8];
    let flat = Layout::contiguous(&shape);
    let column = Layout::contiguous(&[4, 1]).broadcast_to(&shape).unwrap();
    let params = parse_params("T x, T y, raw int32 r, T s", "k").unwrap();
    let outs = parse_params("T z", "k").unwrap();
    let inputs = vec![
        (params[0].clone(), element(DType::F32, flat.clone())),
        (params[1].clone(), element(DType::F64, column.clone())),
        (
            params[2].clone(),
            Bound::Raw(ArrayArg {
                buffer: Buffer::alloc(Device::Cpu, 4, DType::I32).unwrap(),
                layout: Layout::contiguous(&[4]),
                dtype: DType::I32,
            }),
        ),
        (
            params[3].clone(),
            Bound::Scalar(Scalar::Float(2.0), DType::F64),
        ),
    ];
    let outputs = vec![(
        outs[0].clone(),
        element(DType::F64, flat.transposed().transposed()),
    )];
    let placeholders = vec![("T".to_string(), DType::F64)];
    let call = ElementwiseCall {
        name: "mix",
        operation: "z = x * y + r[i % 4] + s * _ind.size()",
        preamble: "",
        placeholders: &placeholders,
        inputs: &inputs,
        outputs: &outputs,
        shape: &shape,
    };
    let mut collapsed = call.collapse();
    let generated = call.source(&collapsed);
    for part in [
        "for (int arrsh_i = ",
        "const long long i = arrsh_i;",
        "k0 * (int)arrsh_y_s0",
        "arrsh_x[arrsh_i]",
    ] {
        assert!(generated.source.contains(part), "{}", generated.source);
    }
    compiles("mix", &generated.text());
    collapsed.narrow = false;
    let wide = call.source(&collapsed);
    for part in ["for (long long arrsh_i = ", "k0 * arrsh_y_s0"] {
        assert!(wide.source.contains(part), "{}", wide.source);
    }
    compiles("mix", &wide.text());
    let out = Buffer::alloc(Device::Cpu, 4, DType::F64).unwrap();
    let reduce_inputs = vec![
        (params[0].clone(), element(DType::F64, column)),
        (params[1].clone(), element(DType::F64, flat)),
    ];
    let reduction = ReductionCall {
        name: "l2",
        map: "x * x",
        reduce: "a + b",
        post_map: "z = sqrt(a)",
        identity: "0",
        preamble: "",
        reduce_type: DType::F64,
        placeholders: &placeholders,
        inputs: &reduce_inputs,
        output: (&outs[0], &out, DType::F64),
        shape: &shape,
        rows: 4,
    };
    compiles("l2", &reduction.source().text());
}

/// Complex and float16 parameters, host scalars of both, and reductions that accumulate
/// them: the classes of `kernels/user.cuh` compile with their operators and functions.
#[test]
fn complex_and_float16_user_kernels_compile() {
    if !crate::device::gpu::modules::nvrtc_or_skip() {
        return;
    }
    let shape = [8];
    let flat = Layout::contiguous(&shape);
    let params = parse_params("T x, complex128 y, float16 h, T s, float16 t", "k").unwrap();
    let outs = parse_params("T z, float16 w, float64 r", "k").unwrap();
    for t in [DType::C64, DType::C128] {
        let inputs = vec![
            (params[0].clone(), element(t, flat.clone())),
            (params[1].clone(), element(DType::F64, flat.clone())),
            (params[2].clone(), element(DType::F16, flat.clone())),
            (
                params[3].clone(),
                Bound::Scalar(Scalar::Complex(1.0, 2.0), t),
            ),
            (
                params[4].clone(),
                Bound::Scalar(Scalar::Float(0.5), DType::F16),
            ),
        ];
        let outputs = vec![
            (outs[0].clone(), element(t, flat.clone())),
            (outs[1].clone(), element(DType::F16, flat.clone())),
            (outs[2].clone(), element(DType::F64, flat.clone())),
        ];
        let placeholders = vec![("T".to_string(), t)];
        let call = ElementwiseCall {
            name: "mixed_types",
            operation: "z = x * T(y) + s * 2 - conj(x) / (x + 1.0);\n\
                        z += pow(exp(log(sqrt(z))), 2) + T(polar(y, 0.5)) * sin(x) / abs(x);\n\
                        z += tan(cos(x)) + tanh(sinh(cosh(x))) + asin(acos(atan(x))) + log10(x);\n\
                        z += asinh(acosh(atanh(z))) + x / abs(x) + x / 2 + x / 2.0 + x / h;\n\
                        w = h * t + h * 2.0 + 1; w -= -h; w = w > 3 ? float(w) : sqrt(w);\n\
                        r = abs(z) + arg(z) + norm(z) + imag(z) + float(w) + (z == x) + (h != t)",
            preamble: "",
            placeholders: &placeholders,
            inputs: &inputs,
            outputs: &outputs,
            shape: &shape,
        };
        compiles("mixed_types", &call.source(&call.collapse()).text());
    }
    for (acc, map, identity) in [
        (DType::C128, "x * conj(x) + 1", "0"),
        (DType::F16, "x > 1 ? x : x * 2", "-65504"),
    ] {
        let out = Buffer::alloc(Device::Cpu, 1, acc).unwrap();
        let placeholders = vec![("T".to_string(), acc)];
        let inputs = vec![(params[0].clone(), element(acc, flat.clone()))];
        let reduction = ReductionCall {
            name: "total",
            map,
            reduce: if acc == DType::F16 {
                "a > b ? a : b"
            } else {
                "a + b"
            },
            post_map: "z = a",
            identity,
            preamble: "",
            reduce_type: acc,
            placeholders: &placeholders,
            inputs: &inputs,
            output: (&outs[0], &out, acc),
            shape: &shape,
            rows: 1,
        };
        compiles("total", &reduction.source().text());
    }
}
