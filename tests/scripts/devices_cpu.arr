# Devices on a machine without a gpu: cpu is the default, to(x, cpu) works, sync() and clock() run.
:device cpu
x = arange(4) * 1.5
print(x.device, x.device == cpu, ones(2, device=cpu).device, zeros(2, device="cpu").device)
y = to(x, cpu)
z = x.to(cpu)
print(y, y.device, z.dtype, z.shape)
print(devices()[0], len(devices()) >= 1, devices()[0] == cpu)
r = sync()
print(r)
t0 = clock()
s = 0
for i in range(1000) { s += i }
t1 = clock()
print(s, t1 >= t0, t1 - t0 >= 0.0, str(t0 * 0))   # clock() is a float; its value itself is not printed
d = x.device
w = ones(3, device=d)
print(w.device, to(w, d).device)
