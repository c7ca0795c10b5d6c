//! CUDA C compiled by NVRTC for this device's architecture: the hand-written modules of
//! `kernels/*.cu` (each compiled the first time one of its kernels is needed) and the kernels
//! that plans generate. Compiled images are cached on disk (keyed by source hash, architecture
//! and NVRTC version) and loaded once per process. No FMA contraction and no fast math: a fused
//! kernel rounds exactly as the unfused ones do.

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::path::PathBuf;

use cudarc::driver::{result as cu, sys};
use cudarc::nvrtc::sys as nvrtc;

use super::driver::{driver_error, Gpu};
use crate::error::{device_error, Result};

/// The hand-written modules: name and CUDA source.
const SOURCES: [(&str, &str); 7] = [
    ("index", include_str!("../../../kernels/index.cu")),
    ("conv", include_str!("../../../kernels/conv.cu")),
    ("fault", include_str!("../../../kernels/fault.cu")),
    ("sort", include_str!("../../../kernels/sort.cu")),
    ("histogram", include_str!("../../../kernels/histogram.cu")),
    ("linalg", include_str!("../../../kernels/linalg.cu")),
    ("random", include_str!("../../../kernels/random.cu")),
];

#[derive(Default)]
pub struct Modules {
    functions: HashMap<(String, String), sys::CUfunction>,
    loaded: HashMap<String, sys::CUmodule>,
}

/// A kernel ready to launch (its module stays loaded as long as its context lives).
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    function: sys::CUfunction,
    generation: u32,
}

impl Kernel {
    /// True when the kernel was loaded into `gpu`'s context (not one lost before it), so caches
    /// of kernels know when to load them again.
    pub fn belongs_to(&self, gpu: &Gpu) -> bool {
        self.generation == gpu.generation
    }
}

/// Block size of every grid-stride kernel.
pub const BLOCK: u32 = 256;

/// The options every compilation uses besides the architecture.
const OPTIONS: [&str; 2] = ["--std=c++17", "--fmad=false"];

impl Gpu {
    /// A kernel of a hand-written module, compiling (or loading) the module on first use.
    fn function(&self, module: &str, name: &str) -> Result<sys::CUfunction> {
        let mut modules = self.modules.borrow_mut();
        let modules = modules.get_or_insert_with(Modules::default);
        let key = (module.to_string(), name.to_string());
        if let Some(&f) = modules.functions.get(&key) {
            return Ok(f);
        }
        let loaded = match modules.loaded.get(module) {
            Some(&m) => m,
            None => {
                let (_, source) = SOURCES
                    .iter()
                    .find(|(n, _)| *n == module)
                    .ok_or_else(|| device_error(format!("no gpu kernel module {module}")))?;
                let m = self.load_source(module, source)?;
                modules.loaded.insert(module.to_string(), m);
                m
            }
        };
        let f = function_of(loaded, name)?;
        modules.functions.insert(key, f);
        Ok(f)
    }

    /// Loads a small module and runs a kernel that does nothing, to see that a fresh context can.
    pub(super) fn probe_kernels(&self) -> Result<()> {
        self.launch("fault", "fault_probe", 0, (1, 1, 1), (1, 1, 1), &mut [])
    }

    /// Compiles (or finds in the disk cache) and loads generated CUDA C, and returns its
    /// kernels named `entries`.
    pub fn generated(&self, label: &str, source: &str, entries: &[&str]) -> Result<Vec<Kernel>> {
        let module = self.load_source(label, source)?;
        entries.iter().map(|e| self.kernel_of(module, e)).collect()
    }

    /// Compiles (or finds in the disk cache) and loads CUDA C the user wrote, and returns its
    /// kernels named `entries`; when NVRTC rejects the code, the inner error is its log.
    pub fn user_module(
        &self,
        label: &str,
        source: &str,
        entries: &[&str],
    ) -> Result<std::result::Result<Vec<Kernel>, String>> {
        let module = match self.load_compiled(label, source)? {
            Ok(m) => m,
            Err(log) => return Ok(Err(log)),
        };
        entries
            .iter()
            .map(|e| self.kernel_of(module, e))
            .collect::<Result<Vec<_>>>()
            .map(Ok)
    }

    fn kernel_of(&self, module: sys::CUmodule, name: &str) -> Result<Kernel> {
        Ok(Kernel {
            function: function_of(module, name)?,
            generation: self.generation,
        })
    }

    fn load_source(&self, label: &str, source: &str) -> Result<sys::CUmodule> {
        self.load_compiled(label, source)?
            .map_err(|log| device_error(format!("cannot compile the gpu kernel {label}: {log}")))
    }

    fn load_compiled(
        &self,
        label: &str,
        source: &str,
    ) -> Result<std::result::Result<sys::CUmodule, String>> {
        let start = std::time::Instant::now();
        let arch = self.arch();
        let (major, minor) = nvrtc_version();
        let file = cache_dir().map(|d| {
            d.join(format!(
                "{label}-{:016x}-{arch}-nvrtc{major}.{minor}.cubin",
                source_hash(source)
            ))
        });
        let image = match file.as_ref().and_then(|f| std::fs::read(f).ok()) {
            Some(bytes) => bytes,
            None => {
                let image = match nvrtc_compile(label, source, &arch)? {
                    Ok(image) => image,
                    Err(log) => return Ok(Err(log)),
                };
                if let Some(f) = &file {
                    write_atomically(f, &image);
                }
                image
            }
        };
        // SAFETY: a cubin image produced by NVRTC for this device.
        let module = unsafe { cu::module::load_data(image.as_ptr() as *const c_void) }
            .map_err(|e| driver_error("cannot load the gpu kernels", e))?;
        crate::stats::record_setup(start.elapsed().as_secs_f64());
        Ok(Ok(module))
    }

    /// Grid size for a grid-stride kernel over `n` elements whose blocks all fit on the device
    /// at once (reductions, whose blocks each leave a partial result).
    pub fn grid_for(&self, n: usize) -> u32 {
        let wanted = n.div_ceil(BLOCK as usize).max(1);
        wanted.min(self.multiprocessors as usize * 16) as u32
    }

    /// Grid size for a kernel over `n` threads of work: a block for every `BLOCK` of them, however
    /// many (on the H200 this streams `x + y` 5% faster than a grid capped at what fits at once).
    pub fn whole_grid(n: usize) -> u32 {
        n.div_ceil(BLOCK as usize).clamp(1, i32::MAX as usize) as u32
    }

    /// Launches kernel `name` of a hand-written module over `elements` elements with `args`
    /// (pointers to each argument, in order). Counted as one kernel.
    pub fn launch(
        &self,
        module: &str,
        name: &str,
        elements: usize,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        args: &mut [*mut c_void],
    ) -> Result<()> {
        let kernel = Kernel {
            function: self.function(module, name)?,
            generation: self.generation,
        };
        self.launch_kernel(kernel, name, elements, grid, block, args)
    }

    /// Launches a kernel: `name` is what faults are injected by and errors say.
    pub fn launch_kernel(
        &self,
        kernel: Kernel,
        name: &str,
        elements: usize,
        grid: (u32, u32, u32),
        block: (u32, u32, u32),
        args: &mut [*mut c_void],
    ) -> Result<()> {
        self.launch_user_kernel(kernel, name, elements, grid, block, 0, args)
    }

    /// Launches a kernel with `shared_bytes` of dynamic shared memory (a `raw_kernel`'s
    /// `shared_mem=`); the grid and block are the caller's, checked by the driver.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_user_kernel(
        &self,
        kernel: Kernel,
        name: &str,
        elements: usize,
        mut grid: (u32, u32, u32),
        mut block: (u32, u32, u32),
        mut shared_bytes: u32,
        mut args: &mut [*mut c_void],
    ) -> Result<()> {
        if !kernel.belongs_to(self) {
            return Err(device_error(format!(
                "the gpu kernel {name} was loaded before the gpu's state was lost"
            )));
        }
        let mut f = kernel.function;
        match injected_fault(name) {
            None => {}
            Some(Fault::Launch) => block = (2 * MAX_THREADS_PER_BLOCK, 1, 1),
            Some(Fault::Trap) => {
                (f, grid, block, shared_bytes, args) = (
                    self.function("fault", "fault_trap")?,
                    (1, 1, 1),
                    (1, 1, 1),
                    0,
                    &mut [],
                )
            }
        }
        self.note_launch(elements);
        // SAFETY: the caller passes one pointer per kernel parameter, to values of the kernel's
        // parameter types, alive for this call.
        let launched =
            unsafe { cu::launch_kernel(f, grid, block, shared_bytes, self.stream, args) };
        self.check(&format!("gpu kernel {name} failed to launch"), launched)
    }

    /// Launches a grid-stride kernel of a hand-written module over `n` elements.
    pub fn launch_over(
        &self,
        module: &str,
        name: &str,
        n: usize,
        args: &mut [*mut c_void],
    ) -> Result<()> {
        self.launch(
            module,
            name,
            n,
            (self.grid_for(n), 1, 1),
            (BLOCK, 1, 1),
            args,
        )
    }
}

fn function_of(module: sys::CUmodule, name: &str) -> Result<sys::CUfunction> {
    let c_name = CString::new(name).expect("kernel names have no NUL");
    // SAFETY: modules stay loaded for the life of the process.
    unsafe { cu::module::get_function(module, c_name) }
        .map_err(|_| device_error(format!("no gpu kernel named {name}")))
}

/// CUDA's limit on a block, on every architecture arrsh runs on.
const MAX_THREADS_PER_BLOCK: u32 = 1024;

#[derive(Clone, Copy)]
enum Fault {
    /// The driver refuses the launch (a block over the limit): an error, the context stays usable.
    Launch,
    /// A kernel that traps runs instead: the device faults, and the context is lost.
    Trap,
}

/// `ARRSH_GPU_FAULT=NAME:launch` or `NAME:trap` makes every launch of a kernel whose name
/// contains NAME fail that way: real driver errors, for the tests of fault handling.
fn injected_fault(kernel: &str) -> Option<Fault> {
    static FAULT: std::sync::OnceLock<Option<(String, Fault)>> = std::sync::OnceLock::new();
    let (pattern, fault) = FAULT
        .get_or_init(|| {
            let setting = std::env::var("ARRSH_GPU_FAULT").ok()?;
            let (pattern, how) = setting.rsplit_once(':')?;
            let fault = match how {
                "launch" => Fault::Launch,
                "trap" => Fault::Trap,
                _ => return None,
            };
            Some((pattern.to_string(), fault))
        })
        .as_ref()?;
    kernel.contains(pattern.as_str()).then_some(*fault)
}

/// Pointers to kernel arguments, in order, for `Gpu::launch`.
#[macro_export]
macro_rules! kernel_args {
    ($($arg:expr),* $(,)?) => {
        [$(&$arg as *const _ as *mut ::std::ffi::c_void),*]
    };
}

pub fn nvrtc_version() -> (i32, i32) {
    let (mut major, mut minor) = (0, 0);
    // SAFETY: writes two ints.
    unsafe { nvrtc::nvrtcVersion(&mut major, &mut minor) };
    (major, minor)
}

/// FNV-1a: a stable hash of the source text, for cache file names.
fn source_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// Where compiled kernels (and the placement model) are kept between sessions.
pub fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ARRSH_KERNEL_CACHE") {
        return Some(PathBuf::from(dir));
    }
    dirs::cache_dir().map(|d| d.join("arrsh").join("kernels"))
}

/// A cache write that a concurrent process never sees half-done; failures only cost a recompile.
pub fn write_atomically(file: &std::path::Path, bytes: &[u8]) {
    let Some(dir) = file.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let temporary = file.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&temporary, bytes).is_ok() && std::fs::rename(&temporary, file).is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
}

/// For tests that compile with NVRTC (no gpu needed): whether its library is here; when not,
/// says so and the test skips.
#[cfg(test)]
pub fn nvrtc_or_skip() -> bool {
    // SAFETY: only tries to open the library.
    let present = unsafe { cudarc::nvrtc::sys::is_culib_present() };
    if !present {
        println!("skipped: no NVRTC library");
    }
    present
}

/// Compiles CUDA C to a cubin for `arch`; `label` names the source in errors.
pub fn compile(label: &str, text: &str, arch: &str) -> Result<Vec<u8>> {
    nvrtc_compile(label, text, arch)?
        .map_err(|log| device_error(format!("cannot compile the gpu kernel {label}: {log}")))
}

/// Compiles CUDA C to a cubin for `arch`: the image, or NVRTC's log when the code is rejected.
fn nvrtc_compile(
    label: &str,
    text: &str,
    arch: &str,
) -> Result<std::result::Result<Vec<u8>, String>> {
    let fail = |what: &str| device_error(format!("cannot compile the gpu kernel {label}: {what}"));
    let source = CString::new(text).map_err(|_| fail("NUL in source"))?;
    let file_name = CString::new(format!("{label}.cu")).expect("no NUL");
    let options: Vec<CString> = std::iter::once(format!("--gpu-architecture={arch}"))
        .chain(OPTIONS.iter().map(|o| o.to_string()))
        .map(|o| CString::new(o).expect("no NUL"))
        .collect();
    let pointers: Vec<*const std::ffi::c_char> = options.iter().map(|o| o.as_ptr()).collect();
    // SAFETY: NVRTC's C API with valid C strings; the program is destroyed on every path.
    unsafe {
        let mut program = std::ptr::null_mut();
        let created = nvrtc::nvrtcCreateProgram(
            &mut program,
            source.as_ptr(),
            file_name.as_ptr(),
            0,
            std::ptr::null(),
            std::ptr::null(),
        );
        if created != nvrtc::nvrtcResult::NVRTC_SUCCESS {
            return Err(fail(&format!("{created:?}")));
        }
        let compiled =
            nvrtc::nvrtcCompileProgram(program, pointers.len() as i32, pointers.as_ptr());
        let result = if compiled == nvrtc::nvrtcResult::NVRTC_SUCCESS {
            let mut size = 0usize;
            nvrtc::nvrtcGetCUBINSize(program, &mut size);
            let mut image = vec![0u8; size];
            nvrtc::nvrtcGetCUBIN(program, image.as_mut_ptr() as *mut std::ffi::c_char);
            Ok(Ok(image))
        } else {
            let mut size = 0usize;
            nvrtc::nvrtcGetProgramLogSize(program, &mut size);
            let mut log = vec![0u8; size];
            nvrtc::nvrtcGetProgramLog(program, log.as_mut_ptr() as *mut std::ffi::c_char);
            Ok(Err(String::from_utf8_lossy(&log)
                .trim_end_matches('\0')
                .to_string()))
        };
        nvrtc::nvrtcDestroyProgram(&mut program);
        result
    }
}

/// The hand-written modules, for the test that compiles each (it needs NVRTC, not a gpu).
pub fn hand_written() -> &'static [(&'static str, &'static str)] {
    &SOURCES
}
