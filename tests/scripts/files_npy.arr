# save("x.npy", x) and load("x.npy"): NumPy .npy files, every dtype and shape, in the script's directory.
a = reshape(arange(12) * 1.5, [3, 4])
save("a.npy", a)
b = load("a.npy")
print(b, b.dtype, b.shape, all(a == b))
for t in [f64, f32, i64, bool] {
    x = astype(reshape(arange(6) - 2, [2, 3]), t)
    save("typed.npy", x)
    y = load("typed.npy")
    print(y.dtype, y.shape, all(y == x), y)
}
# views are saved with their own shape and order, not the base buffer
m = reshape(arange(12), [3, 4])
save("t.npy", m.T)
save("s.npy", m[::2, 1:3])
save("r.npy", arange(5)[::-1])
print(load("t.npy"), load("s.npy"), load("r.npy"))
# 0-d, 1-element and 3-d arrays
save("z.npy", reshape([2.5], []))
z = load("z.npy")
print(z, z.shape, z.ndim)
save("c.npy", reshape(arange(24), [2, 3, 4]))
print(load("c.npy")[1, 2], load("c.npy").shape)
# special floats survive
save("special.npy", [1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0, -0.0, 5e-324])
print(load("special.npy"))
# overwrite an existing file
save("a.npy", [true, false])
print(load("a.npy"), load("a.npy", device=cpu).device)
# a loaded array is independent of the saved one
w = ones(3)
save("w.npy", w)
v = load("w.npy")
v[0] = 7
print(w, v)
