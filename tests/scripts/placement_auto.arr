# needs: gpu
# env: ARRSH_PLACEMENT_MODEL=placement.model
# device=auto with a fixed cost model (placement.model beside this script), so that every
# decision is the same on every gpu machine (without a gpu, see golden.rs's auto test).
:device auto
:device auto
# (devices() starts the gpu, as --device gpu does: what it costs to start it is in the unit tests.)
print(len(devices()), "devices")
small = rand(5000)
big = rand(100000)
print(small.device, big.device, zeros(3, device=auto).device)

# Elementwise work and reductions run where their inputs are, and :time says why.
:time on
y = big * 2 + 1
s = sum(small)
:time off
print(y.device, s > 0)

# A product of two large cpu matrices moves them to the gpu, once; their variables follow.
:device cpu
a = rand([1000, 1000])
b = rand([1000, 1000])
h = arange(100000.0)
:device auto
:time on
c = a @ b
:time off
print(a.device, b.device, c.device, c.shape)

# Arrays the user placed stay: the same product with device=cpu runs on the cpu.
p = rand([1000, 1000], device=cpu)
q = p @ p
print(p.device, q.device)

# A large gpu array meets a cpu one: the cheaper move is made, and :explain says so.
:explain w = big + h
print(w.device, h.device, abs(sum(w - big - h)) < 1e-9)

# Element reads of a gpu array: after as many as moving it once costs, it moves to the cpu.
total = 0.0
:time on
for i in range(20) { total += big[i] }
:time off
print(big.device, total > 0)

# An in-place update whose other side the user placed runs where that array is: the target
# moves to it, since nothing else sees its elements.
g = ones(100000)
g += ones(100000, device=cpu)
print(g.device, sum(g))

# An in-place update moves its target too when nothing else sees its elements and the other
# device is clearly faster with the copies counted; a target that a view shares stays, and the
# other side follows it.
:device cpu
t = rand([1000, 1000])
u = rand([1000, 1000])
row = u[0]
:device auto
t += c
u += c
print(t.device, u.device, row.device)

# auto is not a device where one is needed.
to(small, auto)
