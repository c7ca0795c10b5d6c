//! arrsh: an array shell that shows where array code spends its time on the cpu and the gpu.
//!
//! Data flows one way, and each folder has one job:
//!
//! | module     | job |
//! |------------|-----|
//! | `syntax`   | text → tree: `grammar/arr.pest` through pest, operators by PrattParser, names resolved to slots |
//! | `interp`   | runs the tree: statements, scopes, calls, built-ins (`interp/builtins.rs` is the one table), commands |
//! | `array`    | NumPy's rules: dtypes and promotion, layouts (views, broadcasting), indexing, reductions, printing |
//! | `device`   | where elements live and are computed: `cpu` (ndarray + rayon, BLAS-class matmul, .npy, random) and `gpu` (CUDA driver, NVRTC kernels from `kernels/`, cuBLAS, cuRAND) |
//! | `picture`  | charts: one model drawn as SVG, PNG (plotters, an embedded font) or text for a terminal |
//! | `error`    | errors as values with a source span, rendered once as `file:line:col: error: …` |
//! | `cli`      | the `arrsh` command line: scripts, `-e`, stdin, `arrsh kernel` |
//! | `kernel`   | arrsh as a Jupyter kernel: the channels over ZeroMQ, a cell's outputs as messages, kernelspecs |

pub mod array;
pub mod base;
pub mod cli;
pub mod device;
pub mod error;
pub mod interp;
pub mod kernel;
pub mod picture;
pub mod plan;
pub mod repl;
pub mod report;
pub mod stats;
pub mod syntax;
