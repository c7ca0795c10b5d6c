"""Print, as JSON, the GPU and CuPy that the gpu benchmark's CuPy processes use.

run.py runs this (with --device gpu) in the same environment as the CuPy case scripts. It exits
non-zero, with the reason as the last line of stderr, when CuPy cannot run here (not installed,
no GPU, a driver error): run.py then reports every CuPy cell as unavailable.
"""
import json

import cupy

runtime = cupy.cuda.runtime
count = runtime.getDeviceCount()
properties = runtime.getDeviceProperties(0)
name = properties["name"]
info = {
    "count": count,
    "name": name.decode() if isinstance(name, bytes) else str(name),
    "compute_capability": f"{properties['major']}.{properties['minor']}",
    "memory_gib": properties["totalGlobalMem"] / 2**30,
    "cupy_version": cupy.__version__,
    "runtime_version": runtime.runtimeGetVersion(),
    "driver_version": runtime.driverGetVersion(),
}
# Theoretical peak: double data rate × memory clock (kHz) × bus width (bits) / 8. Newer CUDA
# versions no longer report the clock; the line is then left out.
clock_khz, bus_bits = properties.get("memoryClockRate"), properties.get("memoryBusWidth")
if clock_khz and bus_bits:
    info["peak_bandwidth_gbs"] = 2 * clock_khz * 1e3 * bus_bits / 8 / 1e9
print(json.dumps(info))
