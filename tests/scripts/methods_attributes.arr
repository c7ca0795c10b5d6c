# Method calls are sugar (x.f(a, k=v) is f(x, a, k=v)); attributes .shape .dtype .device .ndim .size .nbytes .T
x = reshape(arange(6), [2, 3])
print(x.shape, x.dtype, x.device, x.ndim, x.size, x.nbytes)
print(x.T, x.T.shape)
print(x.sum(), x.sum(axis=0), x.sum(1), x.max(), x.mean(axis=1))
print(x.reshape([3, 2]), x.reshape(6), x.reshape([-1, 2]).shape)
print(x.ravel(), x.transpose().shape, x.astype(f32).dtype, x.astype(f32).nbytes)
print(x.cumsum(axis=1), x.argmax(), x.argmin(axis=0))
print(x.to(cpu).device, len(x), x.T.T.shape)
print(x.std(), x.var(axis=0), x.any(), x.all(), x.prod(axis=1))
print(x.clip(1, 4), x.maximum(2), abs(x - 3), (x - 3).abs().sign())
v = ones(4, dtype=f32)
print(v.shape, v.dtype, v.ndim, v.size, v.nbytes, v.T.shape)
b = arange(4) > 1
print(b.dtype, b.nbytes, b.sum(), b.any(), b.all())
z = reshape([3.5], [])
print(z.shape, z.ndim, z.size, z.nbytes, z.T)
c = reshape(arange(24), [2, 3, 4])
print(c.T.shape, c.T[3, 2, 1], c[1, 2, 3], c.T.nbytes, c.sum(axis=2).shape)
# methods chain, and user functions are methods too
fn double(a) { return a * 2 }
fn scaled(a, by=10) { return a * by }
print(x.double(), x[0].scaled(), x[1].scaled(by=-1), arange(3).double().sum())
print("abc".len(), 2.0.sqrt(), (-3).abs())
