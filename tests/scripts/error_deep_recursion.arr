# Runaway recursion stops with an error, not a crash.
fn down(n) { return down(n + 1) }
print("start")
down(0)
