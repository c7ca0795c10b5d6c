//! The kernels of `kernels/*.cu`: compiled by NVRTC for this device's architecture the first time
//! a kernel is needed, cached on disk (keyed by source hash, architecture and NVRTC version), and
//! loaded once per process. Uncached modules compile in parallel.

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::path::PathBuf;

use cudarc::driver::{result as cu, sys};
use cudarc::nvrtc::sys as nvrtc;

use super::driver::{driver_error, Gpu};
use crate::error::{device_error, Result};

const COMMON: &str = include_str!("../../../kernels/common.cuh");

/// The kernel modules: name and CUDA source.
const SOURCES: [(&str, &str); 5] = [
    (
        "elementwise",
        include_str!("../../../kernels/elementwise.cu"),
    ),
    ("reduce", include_str!("../../../kernels/reduce.cu")),
    ("index", include_str!("../../../kernels/index.cu")),
    ("conv", include_str!("../../../kernels/conv.cu")),
    ("fault", include_str!("../../../kernels/fault.cu")),
];

pub struct Modules {
    functions: HashMap<String, sys::CUfunction>,
    loaded: Vec<sys::CUmodule>,
}

/// Block size of every grid-stride kernel.
pub const BLOCK: u32 = 256;

impl Gpu {
    /// A kernel by name, loading (and if needed compiling) the modules on first use.
    fn function(&self, name: &str) -> Result<sys::CUfunction> {
        let mut modules = self.modules.borrow_mut();
        if modules.is_none() {
            let start = std::time::Instant::now();
            *modules = Some(load_all(self)?);
            crate::stats::record_setup(start.elapsed().as_secs_f64());
        }
        let modules = modules.as_mut().expect("loaded above");
        if let Some(&f) = modules.functions.get(name) {
            return Ok(f);
        }
        let c_name = CString::new(name).expect("kernel names have no NUL");
        for &module in &modules.loaded {
            // SAFETY: modules stay loaded for the life of the process.
            if let Ok(f) = unsafe { cu::module::get_function(module, c_name.clone()) } {
                modules.functions.insert(name.to_string(), f);
                return Ok(f);
            }
        }
        Err(device_error(format!("no gpu kernel named {name}")))
    }

    /// Grid size for a grid-stride kernel over `n` elements.
    pub fn grid_for(&self, n: usize) -> u32 {
        let wanted = n.div_ceil(BLOCK as usize).max(1);
        wanted.min(self.multiprocessors as usize * 16) as u32
    }

    /// Launches `name` over `elements` elements with `args` (pointers to each argument, in
    /// order). Counted as one kernel.
    pub fn launch(
        &self,
        name: &str,
        elements: usize,
        mut grid: (u32, u32, u32),
        mut block: (u32, u32, u32),
        mut args: &mut [*mut c_void],
    ) -> Result<()> {
        let mut f = self.function(name)?;
        match injected_fault(name) {
            None => {}
            Some(Fault::Launch) => block = (2 * MAX_THREADS_PER_BLOCK, 1, 1),
            Some(Fault::Trap) => {
                (f, grid, block, args) =
                    (self.function("fault_trap")?, (1, 1, 1), (1, 1, 1), &mut [])
            }
        }
        self.note_launch(elements);
        // SAFETY: the caller passes one pointer per kernel parameter, to values of the kernel's
        // parameter types (`abi.rs` mirrors the CUDA structs), alive for this call.
        let launched = unsafe { cu::launch_kernel(f, grid, block, 0, self.stream, args) };
        self.check(&format!("gpu kernel {name} failed to launch"), launched)
    }

    /// Launches a grid-stride kernel over `n` elements.
    pub fn launch_over(&self, name: &str, n: usize, args: &mut [*mut c_void]) -> Result<()> {
        self.launch(name, n, (self.grid_for(n), 1, 1), (BLOCK, 1, 1), args)
    }
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

fn cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("ARRSH_KERNEL_CACHE") {
        return Some(PathBuf::from(dir));
    }
    dirs::cache_dir().map(|d| d.join("arrsh").join("kernels"))
}

fn load_all(gpu: &Gpu) -> Result<Modules> {
    let arch = gpu.arch();
    let (major, minor) = nvrtc_version();
    let dir = cache_dir();
    let images: Vec<Result<Vec<u8>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = SOURCES
            .iter()
            .map(|&(name, source)| {
                let (arch, dir) = (&arch, &dir);
                scope.spawn(move || {
                    let text = format!("{COMMON}\n{source}");
                    let file = dir.as_ref().map(|d| {
                        d.join(format!(
                            "{name}-{:016x}-{arch}-nvrtc{major}.{minor}.cubin",
                            source_hash(&text)
                        ))
                    });
                    if let Some(bytes) = file.as_ref().and_then(|f| std::fs::read(f).ok()) {
                        return Ok(bytes);
                    }
                    let image = compile(name, &text, arch)?;
                    if let Some(f) = file {
                        write_atomically(&f, &image);
                    }
                    Ok(image)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(device_error("kernel compilation failed")))
            })
            .collect()
    });
    let mut loaded = Vec::with_capacity(images.len());
    for image in images {
        let image = image?;
        // SAFETY: a cubin image produced by NVRTC for this device.
        let module = unsafe { cu::module::load_data(image.as_ptr() as *const c_void) }
            .map_err(|e| driver_error("cannot load the gpu kernels", e))?;
        loaded.push(module);
    }
    Ok(Modules {
        functions: HashMap::new(),
        loaded,
    })
}

/// A cache write that a concurrent process never sees half-done; failures only cost a recompile.
fn write_atomically(file: &std::path::Path, bytes: &[u8]) {
    let Some(dir) = file.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let temporary = file.with_extension(format!("tmp{}", std::process::id()));
    if std::fs::write(&temporary, bytes).is_ok() && std::fs::rename(&temporary, file).is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
}

/// Compiles one module to a cubin for `arch`.
pub fn compile(name: &str, text: &str, arch: &str) -> Result<Vec<u8>> {
    let fail = |what: &str| {
        device_error(format!(
            "cannot compile the gpu kernels ({name}.cu): {what}"
        ))
    };
    let source = CString::new(text).map_err(|_| fail("NUL in source"))?;
    let file_name = CString::new(format!("{name}.cu")).expect("no NUL");
    let options = [
        format!("--gpu-architecture={arch}"),
        "--std=c++17".to_string(),
    ];
    let options: Vec<CString> = options
        .iter()
        .map(|o| CString::new(o.as_str()).expect("no NUL"))
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
            Ok(image)
        } else {
            let mut size = 0usize;
            nvrtc::nvrtcGetProgramLogSize(program, &mut size);
            let mut log = vec![0u8; size];
            nvrtc::nvrtcGetProgramLog(program, log.as_mut_ptr() as *mut std::ffi::c_char);
            Err(fail(String::from_utf8_lossy(&log).trim_end_matches('\0')))
        };
        nvrtc::nvrtcDestroyProgram(&mut program);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compiles every module with NVRTC when the library is there (it needs no GPU).
    #[test]
    fn every_kernel_module_compiles() {
        // SAFETY: only tries to open the library.
        if !unsafe { nvrtc::is_culib_present() } {
            eprintln!("skipped: no NVRTC library");
            return;
        }
        for (name, source) in SOURCES {
            let image = compile(name, &format!("{COMMON}\n{source}"), "sm_90")
                .unwrap_or_else(|e| panic!("{}", e.message));
            assert!(image.len() > 1000, "{name}: {} bytes", image.len());
        }
    }
}
