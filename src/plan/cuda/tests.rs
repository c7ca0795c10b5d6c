use super::reduction::{axis_last, axis_text, reduction_text, scan_text};
use super::*;
use crate::base::dtype::ALL;
use crate::plan::resolve::{self, loops};
use crate::plan::table::OPS;

/// A generated kernel renamed so that many can share one compilation.
fn renamed(text: &str, k: usize) -> String {
    let body = text
        .strip_prefix(PRELUDE)
        .unwrap_or(text)
        .trim_start_matches('\n');
    let body = body.strip_prefix(REDUCE).unwrap_or(body);
    let mut out = body.to_string();
    for name in [
        "elementwise(",
        "partial(",
        "finish(",
        "axis_threads(",
        "axis_blocks(",
        "scan_totals(",
        "scan_offsets(",
        "scan_apply(",
        "scan_lines(",
    ] {
        out = out.replace(&format!("void {name}"), &format!("void k{k}_{name}"));
    }
    out.replace("struct Out ", &format!("struct Out{k} "))
        .replace("Out o;", &format!("Out{k} o;"))
        .replace(", Out>(", &format!(", Out{k}>("))
        .replace("block_inclusive_scan", &format!("block_inclusive_scan{k}"))
}

fn leaf(dtype: DType, layout: Layout) -> Expr {
    let size = layout.shape.iter().product::<usize>().max(64);
    Expr::leaf(Buffer::alloc(Device::Cpu, size, dtype).unwrap(), layout)
}

fn elementwise_case(shape: &[usize], expr: &Expr, out_layout: Layout) -> String {
    let out = Buffer::alloc(Device::Cpu, 64, expr.dtype()).unwrap();
    elementwise_text(&Plan::new(shape, &[expr], &[(out, out_layout)], None))
}

/// Every row and loop of the table, every cast, every reduction and scan accumulator, and
/// each kind of operand access, generated and compiled with NVRTC (no gpu needed).
#[test]
fn generated_kernels_compile() {
    if !crate::device::gpu::modules::nvrtc_or_skip() {
        return;
    }
    let shape = [8];
    let flat = Layout::contiguous(&shape);
    let mut texts = Vec::new();
    for row in OPS {
        let signatures: Vec<resolve::Signature> = match row.op {
            table::Op::Where | table::Op::Clip => ALL
                .iter()
                .map(|&d| resolve::Signature {
                    inputs: if row.op == table::Op::Where {
                        [DType::Bool, d, d].into_iter().collect()
                    } else {
                        [d, d, d].into_iter().collect()
                    },
                    output: d,
                })
                .collect(),
            _ => loops(row).collect(),
        };
        for sig in signatures {
            let args: Vec<Expr> = sig.inputs.iter().map(|&d| leaf(d, flat.clone())).collect();
            let expr = Expr::apply(row.op, args, sig.output);
            texts.push(elementwise_case(&shape, &expr, flat.clone()));
        }
    }
    for &from in &ALL {
        for &to in &ALL {
            let expr = leaf(from, flat.clone()).cast(to);
            texts.push(elementwise_case(&shape, &expr, flat.clone()));
        }
    }
    // Strided, broadcast and scalar operands, a strided output, float16 and complex scalars.
    let matrix = [4, 6];
    let strided = Layout {
        shape: smallvec::smallvec![4, 6],
        strides: smallvec::smallvec![12, 2],
        offset: 1,
    };
    let row_broadcast = Layout {
        shape: smallvec::smallvec![4, 6],
        strides: smallvec::smallvec![0, 1],
        offset: 0,
    };
    let uniform = Layout {
        shape: smallvec::smallvec![4, 6],
        strides: smallvec::smallvec![0, 0],
        offset: 3,
    };
    for dtype in [DType::F64, DType::F16, DType::C64, DType::U8] {
        let sum = Expr::apply(
            table::Op::Add,
            vec![
                leaf(dtype, strided.clone()),
                Expr::apply(
                    table::Op::Multiply,
                    vec![
                        leaf(dtype, row_broadcast.clone()),
                        leaf(dtype, uniform.clone()),
                    ],
                    dtype,
                ),
            ],
            dtype,
        );
        let scaled = Expr::apply(
            table::Op::Multiply,
            vec![sum, Expr::scalar(Scalar::Int(2), dtype)],
            dtype,
        );
        texts.push(elementwise_case(&matrix, &scaled, strided.clone()));
    }
    for r in [
        Reduction::Sum,
        Reduction::Prod,
        Reduction::Min,
        Reduction::Max,
        Reduction::ArgMin,
        Reduction::ArgMax,
        Reduction::Any,
        Reduction::All,
    ] {
        for &dtype in &ALL {
            let x = leaf(dtype, Layout::contiguous(&matrix));
            let out = r.result_dtype(dtype);
            let value = x.clone().cast(r.accumulator(dtype));
            let plan = Plan::new(&matrix, &[&value], &[], None);
            texts.push(reduction_text(&plan, r, out));
            let axis = Plan::new(&matrix, &[&value], &[], Some(&axis_last(2, 0)));
            texts.push(axis_text(&axis, r, out));
        }
    }
    for &dtype in &ALL {
        let accumulate = Reduction::Sum.accumulator(dtype);
        let out = Reduction::Sum.result_dtype(dtype);
        for product in [false, true] {
            let value = leaf(dtype, Layout::contiguous(&[24])).cast(accumulate);
            let flat = Plan::new(&[24], &[&value], &[], None);
            texts.push(scan_text(&flat, out, true, product));
            let value = leaf(dtype, Layout::contiguous(&matrix)).cast(accumulate);
            let lines = Plan::new(&matrix, &[&value], &[], Some(&axis_last(2, 1)));
            texts.push(scan_text(&lines, out, false, product));
        }
    }
    let mut source = format!("{PRELUDE}\n{REDUCE}\n");
    for (k, text) in texts.iter().enumerate() {
        source.push_str(&renamed(text, k));
    }
    let image = crate::device::gpu::modules::compile("generated", &source, "sm_90")
        .unwrap_or_else(|e| panic!("{}", e.message));
    assert!(image.len() > 10_000);
}

/// A statement's kernel, once compiled, is found again in at most 5 µs: the plan made, its
/// key computed and looked up in the cache (what every gpu statement pays before its launch).
#[test]
fn a_cached_kernel_is_found_within_5_microseconds() {
    let Ok(g) = gpu() else {
        assert!(
            std::env::var_os("ARRSH_REQUIRE_GPU").is_none(),
            "needs a gpu and ARRSH_REQUIRE_GPU is set"
        );
        println!("skipped: no gpu");
        return;
    };
    let shape = [1000];
    let layout = Layout::contiguous(&shape);
    let x = Expr::leaf(
        Buffer::alloc(Device::Gpu, 1000, DType::F64).unwrap(),
        layout.clone(),
    );
    let y = Expr::apply(
        table::Op::Add,
        [
            Expr::apply(
                table::Op::Multiply,
                [x, Expr::scalar(Scalar::Int(5), DType::F64)],
                DType::F64,
            ),
            Expr::scalar(Scalar::Int(1), DType::F64),
        ],
        DType::F64,
    );
    let out = Buffer::alloc(Device::Gpu, 1000, DType::F64).unwrap();
    let find = || {
        let plan = Plan::new(&shape, &[&y], &[(out.clone(), layout.clone())], None);
        kernels(
            g,
            plan.key(0),
            "elementwise",
            || elementwise_text(&plan),
            &["elementwise"],
        )
        .unwrap()
    };
    find();
    let lookups = 10_000;
    let start = std::time::Instant::now();
    for _ in 0..lookups {
        std::hint::black_box(find());
    }
    let each = start.elapsed().as_secs_f64() / lookups as f64;
    println!("a cached kernel found in {:.2} µs", each * 1e6);
    assert!(each <= 5e-6, "{each} s");
}

#[test]
fn hand_written_modules_compile() {
    if !crate::device::gpu::modules::nvrtc_or_skip() {
        return;
    }
    for (name, source) in crate::device::gpu::modules::hand_written() {
        let image = crate::device::gpu::modules::compile(name, source, "sm_90")
            .unwrap_or_else(|e| panic!("{}", e.message));
        assert!(image.len() > 1000, "{name}: {} bytes", image.len());
    }
}
