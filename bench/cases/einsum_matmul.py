# baseline: arrsh's own a @ b (the figure: einsum within 1.1x of @)
import os
import subprocess

script = f"""
a = rand([{n}, {n}])
b = rand([{n}, {n}])
c = a @ b
for r in range({reps}) {{
    t = clock()
    c = a @ b
    sync()
    print("@time", clock() - t)
}}
"""
device = "cpu"
out = subprocess.run([os.environ["ARRSH_BIN"], "--device", device, "-"], input=script, text=True,
                     capture_output=True, check=True)
print(out.stdout, end="")
