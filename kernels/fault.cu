// A kernel that always faults, launched in place of a real one only when ARRSH_GPU_FAULT asks
// for it: tests use it to check that a sticky device error leaves the session usable. And one
// that does nothing, launched on a context made after a fault to see that kernels run there.
extern "C" __global__ void fault_trap() { __trap(); }
extern "C" __global__ void fault_probe() {}
