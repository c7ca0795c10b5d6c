//! Reductions and scans on the gpu: a plan's value handed to `kernels/reduce.cuh`'s block
//! reductions (over everything, or along an axis) or to its running sums and products.

use super::*;

fn reduce_code(r: Reduction) -> u32 {
    r as u32
}

/// The reduction's store: how its value (or index) is written to the 0-d output.
fn store_struct(out: DType, acc: DType) -> String {
    format!(
        "struct Out {{ {}* p; long long k; __device__ void value({} v) {{ p[k] = {}; }} __device__ void index(long long i) {{ p[k] = {}; }} }};\n",
        storage(out),
        register(acc),
        store(out, &convert(acc, out, "v")),
        store(out, &convert(DType::I64, out, "i")),
    )
}

pub(super) fn reduction_text(plan: &Plan, r: Reduction, out: DType) -> String {
    let acc = plan.nodes.last().expect("plans have nodes").dtype();
    let root = plan.nodes.len() - 1;
    let a = register(acc);
    let code = reduce_code(r);
    let (mut src, index) = header(plan, "partial", &format!("Acc<{a}>* partials"));
    for l in 0..4 {
        src.line(format!("Acc<{a}> a{l} = identity<{code}, {a}>();"));
    }
    src.line("for (; i + 3 * stride < n; i += 4 * stride) {");
    emit_values(plan, &mut src, 4, index, "i");
    for l in 0..4 {
        src.line(format!(
            "a{l} = combine<{code}, {a}>(a{l}, lift<{code}, {a}>(v{root}_{l}, idx_{l}));"
        ));
    }
    src.line("}");
    src.line("for (; i < n; i += stride) {");
    emit_values(plan, &mut src, 1, index, "i");
    src.line(format!(
        "a0 = combine<{code}, {a}>(a0, lift<{code}, {a}>(v{root}_0, idx_0));"
    ));
    src.line("}");
    src.line(format!(
        "Acc<{a}> acc = combine<{code}, {a}>(combine<{code}, {a}>(a0, a1), combine<{code}, {a}>(a2, a3));"
    ));
    src.line(format!("acc = block_reduce<{code}, {a}>(acc);"));
    src.line("if (threadIdx.x == 0) partials[blockIdx.x] = acc;");
    src.text.push_str("}\n");
    let _ = writeln!(
        src.text,
        "{}extern \"C\" __global__ void finish(const Acc<{a}>* partials, long long count, {}* out, double divisor) {{\n    Out o; o.p = out; o.k = 0;\n    finish_reduction<{code}, {a}, Out>(partials, count, o, divisor);\n}}",
        store_struct(out, acc),
        storage(out),
    );
    format!("{PRELUDE}\n{REDUCE}\n{}", src.text)
}

/// The generated CUDA C of a full reduction (`:explain --source`).
pub fn reduction_source(r: Reduction, expr: &Expr, shape: &[usize]) -> String {
    let value = expr.clone().cast(r.accumulator(expr.dtype()));
    let plan = Plan::new(shape, &[&value], &[], None);
    reduction_text(&plan, r, r.result_dtype(expr.dtype()))
}

/// Bytes of one partial result (`Acc<A>`: a value and an index, aligned to 8).
fn partial_bytes(acc: DType) -> usize {
    acc.size().next_multiple_of(8) + 8
}

/// A full reduction on the gpu into a new 0-d buffer: the partial pass (the plan's values
/// computed inside it) and one block that finishes.
pub fn reduce_all(
    r: Reduction,
    expr: &Expr,
    shape: &[usize],
    divide_by: Option<f64>,
    out: DType,
) -> Result<Buffer> {
    let value = expr.clone().cast(r.accumulator(expr.dtype()));
    let plan = Plan::new(shape, &[&value], &[], None);
    let g = gpu()?;
    let key = {
        let mut k = plan.key(1 + reduce_code(r));
        k.push(out as u32);
        k
    };
    let found = kernels(
        g,
        key,
        "reduce",
        || reduction_text(&plan, r, out),
        &["partial", "finish"],
    )?;
    let (partial, finish) = (found[0], found[1]);
    let n = plan.size();
    let blocks = g.grid_for(n.div_ceil(4)).min(1024);
    let acc = value.dtype();
    let partials = g.alloc(blocks as usize * partial_bytes(acc), DType::U8)?;
    let result = Buffer::alloc(Device::Gpu, 1, out)?;
    let mut args = arguments(&plan);
    args.push(Param::Pointer(partials.device_pointer()));
    let name = format!("{}_partial", r.name());
    launch(g, partial, &name, n, blocks, BLOCK, &args)?;
    let finish_args = [
        Param::Pointer(partials.device_pointer()),
        Param::Index(blocks as i64),
        Param::Pointer(result.gpu().expect("gpu").device_pointer()),
        double_param(divide_by.unwrap_or(0.0)),
    ];
    launch(
        g,
        finish,
        &format!("{}_finish", r.name()),
        blocks as usize,
        1,
        1024,
        &finish_args,
    )?;
    Ok(result)
}

/// Lanes shorter than this are reduced one per thread; longer ones one per block.
const THREAD_LANES_BELOW: usize = 1024;

pub(super) fn axis_text(plan: &Plan, r: Reduction, out: DType) -> String {
    let acc = plan.nodes.last().expect("plans have nodes").dtype();
    let root = plan.nodes.len() - 1;
    let a = register(acc);
    let code = reduce_code(r);
    let out_param = format!("{}* out, double divisor", storage(out));
    let mut text = format!("{PRELUDE}\n{REDUCE}\n{}", store_struct(out, acc));
    // One thread per output: `n` counts outputs here, `d_last` is the lane length.
    let lane = format!("d{}", plan.dims.len() - 1);
    let (mut src, index) = header(plan, "axis_threads", &out_param);
    src.line("for (; i < n; i += stride) {");
    src.line(format!("Acc<{a}> acc = identity<{code}, {a}>();"));
    src.line(format!("for ({index} j = 0; j < {lane}; ++j) {{"));
    emit_values(plan, &mut src, 1, index, &format!("i * {lane} + j"));
    src.line(format!(
        "acc = combine<{code}, {a}>(acc, lift<{code}, {a}>(v{root}_0, j));"
    ));
    src.line("}");
    src.line("Out o; o.p = out; o.k = i;");
    src.line(format!(
        "if ({code} == R_ARGMIN || {code} == R_ARGMAX) o.index(acc.i < 0 ? 0 : acc.i); else o.value(divided(acc.v, divisor));"
    ));
    src.line("}");
    src.text.push_str("}\n");
    text.push_str(&src.text);
    // One block per output.
    let (mut src, index) = header(plan, "axis_blocks", &out_param);
    src.line(format!("{index} k = blockIdx.x;"));
    src.line(format!("Acc<{a}> acc = identity<{code}, {a}>();"));
    src.line(format!(
        "for ({index} j = threadIdx.x; j < {lane}; j += blockDim.x) {{"
    ));
    emit_values(plan, &mut src, 1, index, &format!("k * {lane} + j"));
    src.line(format!(
        "acc = combine<{code}, {a}>(acc, lift<{code}, {a}>(v{root}_0, j));"
    ));
    src.line("}");
    src.line(format!("acc = block_reduce<{code}, {a}>(acc);"));
    src.line("if (threadIdx.x == 0) {");
    src.line("Out o; o.p = out; o.k = k;");
    src.line(format!(
        "if ({code} == R_ARGMIN || {code} == R_ARGMAX) o.index(acc.i < 0 ? 0 : acc.i); else o.value(divided(acc.v, divisor));"
    ));
    src.line("}");
    src.text.push_str("}\n");
    text.push_str(&src.text);
    text
}

/// The axes of `shape` in order, with `axis` moved last.
pub(super) fn axis_last(ndim: usize, axis: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ndim).filter(|&a| a != axis).collect();
    order.push(axis);
    order
}

/// A reduction along `axis` on the gpu into a new C-ordered buffer (the axis removed).
pub fn reduce_axis(
    r: Reduction,
    expr: &Expr,
    shape: &[usize],
    axis: usize,
    divide_by: Option<f64>,
    out: DType,
) -> Result<Buffer> {
    let value = expr.clone().cast(r.accumulator(expr.dtype()));
    let order = axis_last(shape.len(), axis);
    let plan = Plan::new(shape, &[&value], &[], Some(&order));
    let lane = shape[axis];
    let outputs = shape.iter().product::<usize>() / lane.max(1);
    let result = Buffer::alloc(Device::Gpu, outputs, out)?;
    if outputs == 0 {
        return Ok(result);
    }
    let g = gpu()?;
    let mut key = plan.key(20 + reduce_code(r));
    key.push(out as u32);
    let found = kernels(
        g,
        key,
        "reduce_axis",
        || axis_text(&plan, r, out),
        &["axis_threads", "axis_blocks"],
    )?;
    let mut args = arguments(&plan);
    // `n` of these kernels counts outputs.
    args[0] = Param::Index(outputs as i64);
    args.push(Param::Pointer(result.gpu().expect("gpu").device_pointer()));
    args.push(double_param(divide_by.unwrap_or(0.0)));
    let name = format!("{}_axis", r.name());
    if lane < THREAD_LANES_BELOW || outputs >= g.multiprocessors as usize * 64 {
        launch(
            g,
            found[0],
            &name,
            plan.size(),
            g.grid_for(outputs),
            BLOCK,
            &args,
        )?;
    } else {
        launch(
            g,
            found[1],
            &name,
            plan.size(),
            outputs as u32,
            BLOCK,
            &args,
        )?;
    }
    Ok(result)
}

fn double_param(v: f64) -> Param {
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&v.to_le_bytes());
    Param::Value(bytes)
}

/// Elements of a flat running sum each block scans (three launches: block totals, a scan of
/// the totals, each block's scan from the total before it).
const SCAN_CHUNK: usize = 2048;
/// Elements each thread of a flat scan's last pass holds (1024 threads cover a chunk). Measured
/// on an H200 (1e8 and 1e9 f64): 2 items, 0.88× CuPy's time; 4 items, 1.2×; 8, 1.4× — a
/// thread's consecutive items are strided loads across its warp, so fewer is faster, down to
/// 1, where the block scans' cost wins (1.12×).
const SCAN_ITEMS: usize = 2;

pub(super) fn scan_text(plan: &Plan, out: DType, flat: bool, product: bool) -> String {
    let acc = plan.nodes.last().expect("plans have nodes").dtype();
    let root = plan.nodes.len() - 1;
    let a = register(acc);
    // The running operation and its identity (named `zero` for the sum).
    let (combine, zero) = match product {
        false => ("op_add", format!("cvt<{a}>(false)")),
        true => ("op_multiply", format!("cvt<{a}>(true)")),
    };
    let mut text = format!("{PRELUDE}\n");
    let out_ty = storage(out);
    let put = |v: &str| store(out, &convert(acc, out, v));
    if !flat {
        // One thread walks each line; `n` counts lines and the last dim is the scanned axis.
        let lane = format!("d{}", plan.dims.len() - 1);
        let (mut src, index) = header(plan, "scan_lines", &format!("{out_ty}* out"));
        src.line("for (; i < n; i += stride) {");
        src.line(format!("{a} running = {zero};"));
        src.line(format!("for ({index} j = 0; j < {lane}; ++j) {{"));
        emit_values(plan, &mut src, 1, index, &format!("i * {lane} + j"));
        src.line(format!("running = {combine}(running, v{root}_0);"));
        src.line(format!("out[i * {lane} + j] = {};", put("running")));
        src.line("}");
        src.line("}");
        src.text.push_str("}\n");
        text.push_str(&src.text);
        return text;
    }
    let _ = writeln!(
        text,
        "// The inclusive scan of x over the block (all threads call it; blockDim a multiple of 32),
// left in shared[threadIdx.x] too: warp shuffles, then a scan of the warps' totals.
__device__ {a} block_inclusive_scan({a} x, {a} *shared) {{
    static_assert(sizeof({a}) % 4 == 0, \"shuffled as 32-bit words\");
    __shared__ {a} warps[32];
    int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    {a} v = x;
    for (int d = 1; d < 32; d <<= 1) {{
        {a} up = v;
        unsigned int *w = reinterpret_cast<unsigned int *>(&up);
        for (int k = 0; k < (int)(sizeof({a}) / 4); ++k) w[k] = __shfl_up_sync(0xffffffffu, w[k], d);
        if (lane >= d) v = {combine}(up, v);
    }}
    if (lane == 31) warps[warp] = v;
    __syncthreads();
    if (warp == 0) {{
        int count = blockDim.x >> 5;
        {a} s = lane < count ? warps[lane] : {zero};
        for (int d = 1; d < 32; d <<= 1) {{
            {a} up = s;
            unsigned int *w = reinterpret_cast<unsigned int *>(&up);
            for (int k = 0; k < (int)(sizeof({a}) / 4); ++k) w[k] = __shfl_up_sync(0xffffffffu, w[k], d);
            if (lane >= d) s = {combine}(up, s);
        }}
        if (lane < count) warps[lane] = s;
    }}
    __syncthreads();
    if (warp > 0) v = {combine}(warps[warp - 1], v);
    shared[t] = v;
    __syncthreads();
    return v;
}}"
    );
    let (mut src, index) = header(plan, "scan_totals", &format!("{a}* totals"));
    src.line(format!("__shared__ {a} shared[1024];"));
    src.line(format!(
        "{index} start = ({index})blockIdx.x * {SCAN_CHUNK};"
    ));
    src.line(format!(
        "{index} end = start + {SCAN_CHUNK} < n ? start + {SCAN_CHUNK} : n;"
    ));
    src.line(format!("{a} sum = {zero};"));
    src.line(format!(
        "for ({index} j = start + threadIdx.x; j < end; j += blockDim.x) {{"
    ));
    emit_values(plan, &mut src, 1, index, "j");
    src.line(format!("sum = {combine}(sum, v{root}_0);"));
    src.line("}");
    src.line("shared[threadIdx.x] = sum;");
    src.line("__syncthreads();");
    // A tree over the block's partial sums (in order, so that only association changes).
    src.line("for (int half = blockDim.x / 2; half > 0; half >>= 1) {");
    src.line(format!(
        "if (threadIdx.x < half) shared[threadIdx.x] = {combine}(shared[threadIdx.x], shared[threadIdx.x + half]);"
    ));
    src.line("__syncthreads();");
    src.line("}");
    src.line("if (threadIdx.x == 0) totals[blockIdx.x] = shared[0];");
    src.text.push_str("}\n");
    text.push_str(&src.text);
    let _ = writeln!(
        text,
        "extern \"C\" __global__ void scan_offsets({a}* totals, long long count) {{
    __shared__ {a} shared[1024];
    __shared__ {a} last;
    {a} carry = {zero};
    for (long long base = 0; base < count; base += blockDim.x) {{
        long long k = base + threadIdx.x;
        {a} x = k < count ? totals[k] : {zero};
        {a} inclusive = block_inclusive_scan(x, shared);
        {a} before = threadIdx.x > 0 ? shared[threadIdx.x - 1] : {zero};
        __syncthreads();
        if (k < count) totals[k] = {combine}(carry, before);
        if (threadIdx.x == blockDim.x - 1) last = inclusive;
        __syncthreads();
        carry = {combine}(carry, last);
        __syncthreads();
    }}
}}"
    );
    let (mut src, index) = header(
        plan,
        "scan_apply",
        &format!("const {a}* offsets, {out_ty}* out"),
    );
    // Each thread scans SCAN_ITEMS consecutive elements in registers; one block scan of the
    // threads' totals then places them.
    src.line(format!("__shared__ {a} shared[1024];"));
    src.line(format!(
        "{index} start = ({index})blockIdx.x * {SCAN_CHUNK};"
    ));
    src.line(format!(
        "{index} end = start + {SCAN_CHUNK} < n ? start + {SCAN_CHUNK} : n;"
    ));
    src.line(format!(
        "{index} first = start + ({index})threadIdx.x * {SCAN_ITEMS};"
    ));
    src.line(format!("{a} items[{SCAN_ITEMS}];"));
    src.line(format!("{a} running = {zero};"));
    src.line(format!("for (int r = 0; r < {SCAN_ITEMS}; ++r) {{"));
    src.line(format!("{index} j = first + r;"));
    src.line(format!("{a} x = {zero};"));
    src.line("if (j < end) {");
    emit_values(plan, &mut src, 1, index, "j");
    src.line(format!("x = v{root}_0;"));
    src.line("}");
    src.line(format!("running = {combine}(running, x);"));
    src.line("items[r] = running;");
    src.line("}");
    src.line("block_inclusive_scan(running, shared);");
    src.line(format!(
        "{a} before = {combine}(offsets[blockIdx.x], threadIdx.x > 0 ? shared[threadIdx.x - 1] : {zero});"
    ));
    src.line(format!("for (int r = 0; r < {SCAN_ITEMS}; ++r) {{"));
    src.line(format!("{index} j = first + r;"));
    src.line(format!(
        "if (j < end) out[j] = {};",
        put(&format!("{combine}(before, items[r])"))
    ));
    src.line("}");
    src.text.push_str("}\n");
    text.push_str(&src.text);
    text
}

/// A running sum (or, with `product`, product) along `axis` (of a plan of `shape`) on the gpu,
/// into a new C-ordered buffer of `out`; `accumulate` is the dtype it computes in.
pub fn scan(
    expr: &Expr,
    shape: &[usize],
    axis: usize,
    accumulate: DType,
    out: DType,
    product: bool,
) -> Result<Buffer> {
    let value = expr.clone().cast(accumulate);
    let size: usize = shape.iter().product();
    let result = Buffer::alloc(Device::Gpu, size, out)?;
    if size == 0 {
        return Ok(result);
    }
    let g = gpu()?;
    let out_pointer = result.gpu().expect("gpu").device_pointer();
    if shape.len() == 1 {
        let plan = Plan::new(shape, &[&value], &[], None);
        let mut key = plan.key(40);
        key.extend([out as u32, product as u32]);
        let found = kernels(
            g,
            key,
            "scan",
            || scan_text(&plan, out, true, product),
            &["scan_totals", "scan_offsets", "scan_apply"],
        )?;
        let chunks = size.div_ceil(SCAN_CHUNK);
        let totals = g.alloc(chunks, accumulate)?;
        let mut args = arguments(&plan);
        args.push(Param::Pointer(totals.device_pointer()));
        launch(
            g,
            found[0],
            "scan_totals",
            size,
            chunks as u32,
            BLOCK,
            &args,
        )?;
        let offsets_args = [
            Param::Pointer(totals.device_pointer()),
            Param::Index(chunks as i64),
        ];
        launch(g, found[1], "scan_offsets", chunks, 1, 1024, &offsets_args)?;
        let mut args = arguments(&plan);
        args.push(Param::Pointer(totals.device_pointer()));
        args.push(Param::Pointer(out_pointer));
        return launch(g, found[2], "scan_apply", size, chunks as u32, 1024, &args).map(|_| result);
    }
    // Along an axis of a larger array: the result is written in the permuted (axis-last) order
    // and viewed back through the original axes by the caller.
    let order = axis_last(shape.len(), axis);
    let plan = Plan::new(shape, &[&value], &[], Some(&order));
    let mut key = plan.key(41);
    key.extend([out as u32, product as u32]);
    let found = kernels(
        g,
        key,
        "scan",
        || scan_text(&plan, out, false, product),
        &["scan_lines"],
    )?;
    let lines = size / shape[axis];
    let mut args = arguments(&plan);
    args[0] = Param::Index(lines as i64);
    args.push(Param::Pointer(out_pointer));
    launch(
        g,
        found[0],
        "scan_lines",
        size,
        g.grid_for(lines),
        BLOCK,
        &args,
    )?;
    Ok(result)
}
