# Lesson — the cpu's matrix product already uses every core.
#
# Source: the second article. To see whether NumPy "uses the machine's resources as best it can", it
# made five 3000×3000 random matrices and squared each: one after another in one Python thread, then
# in five Python threads at once, then in five processes at once. One after another took about 2.1 s
# for all five (0.36 s the first); five threads took 19 s; five processes 4.7 s. Threads and processes
# made it slower: each product was already spread over every core by NumPy's BLAS, so running five at
# once only made them fight over the same cores (and the threads also over Python's lock).
#
# This script makes the same five products one after another on the cpu, first with the cpu's worker
# threads set to 1, then 2, 4, 8 and all of them (`:threads N`, or `--threads N` for a whole session),
# and prints the time of the five and the speed-up over one thread:
#
#     arrsh scripts/threads.arr
#
# What to see: the time falls as threads are added up to the number of cores, and no further (a count
# above the cores only shares them out again, as the article's threads did). With all threads, one
# product is a whole machine's work, so there is nothing left for a second thread or process to add.

n = 3000   # ci: 96
products = 5

# A time in seconds as text with a unit (2 decimals), and a ratio to one decimal, for printing.
fn fmt(t) {
    if t >= 1 { return str(round(t * 100) / 100) + " s" }
    return str(round(t * 1e5) / 100) + " ms"
}
fn times(r) { return str(round(r * 10) / 10) + "×" }

# The article's work: `products` times, a fresh n×n random matrix squared; the seconds it took.
fn five_products() {
    t = clock()
    for i in range(products) {
        x = rand([n, n], device=cpu)
        x = x @ x
    }
    sync()
    return clock() - t
}

warm_up = five_products()

:threads 1
one = five_products()
print("1 thread:    ", products, "products of", n, "×", n, "in", fmt(one))

:threads 2
two = five_products()
print("2 threads:   ", products, "products in", fmt(two), "·", times(one / two), "the speed of 1")

:threads 4
four = five_products()
print("4 threads:   ", products, "products in", fmt(four), "·", times(one / four), "the speed of 1")

:threads 8
eight = five_products()
print("8 threads:   ", products, "products in", fmt(eight), "·", times(one / eight), "the speed of 1")

:threads all
every = five_products()
print("all threads: ", products, "products in", fmt(every), "·", times(one / every), "the speed of 1")
