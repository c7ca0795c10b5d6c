# title: z = abs(x), one dtype per row (d: f64 f32 f16 i32 u8 c128; c128 gives f64)
# sizes: n=1e7 d=0 | n=1e7 d=1 | n=1e7 d=2 | n=1e7 d=3 | n=1e7 d=4 | n=1e7 d=5
# quick: n=1e5 d=0
# reps: 7
# target: 1.0
# gpu-sizes: n=1e8 d=0 | n=1e8 d=1 | n=1e8 d=2 | n=1e8 d=3 | n=1e8 d=4 | n=1e8 d=5
# gpu-quick: n=1e6 d=0
# gpu-target: 1.0
dtypes = [f64, f32, f16, i32, u8, c128]
x = astype(rand(n) * 100, dtypes[d])
sync()
for r in range(reps) {
    t = clock()
    z = abs(x)
    sync()
    print("@time", clock() - t)
}
