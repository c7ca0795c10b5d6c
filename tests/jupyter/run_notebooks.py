"""Executes every notebook in notebooks/ with an arrsh kernel, as `jupyter nbconvert --execute` does,
and fails on any error output.

    python3 run_notebooks.py KERNEL_NAME ci            # sizes from each `# ci: SMALL` line (fast)
    python3 run_notebooks.py KERNEL_NAME full SUFFIX   # the notebooks' own sizes; executed copies are
                                                       # written beside them as NAME.SUFFIX.ipynb
"""

import pathlib
import re
import sys
import time

import nbformat
from nbclient import NotebookClient

KERNEL, MODE = sys.argv[1], sys.argv[2]
SUFFIX = sys.argv[3] if len(sys.argv) > 3 else None
NOTEBOOKS = pathlib.Path(__file__).resolve().parents[2] / "notebooks"
CI_SIZE = re.compile(r"^(\s*\w+\s*=\s*)(.+?)\s*#\s*ci:\s*(.+)$", re.M)


def small(source):
    return CI_SIZE.sub(lambda m: m.group(1) + m.group(3).strip(), source)


failures = []
for path in sorted(NOTEBOOKS.glob("*.ipynb")):
    if path.stem.count("."):
        continue  # an executed copy
    notebook = nbformat.read(path, as_version=4)
    if MODE == "ci":
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.source = small(cell.source)
    started = time.perf_counter()
    client = NotebookClient(notebook, kernel_name=KERNEL, timeout=900, allow_errors=True,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    seconds = time.perf_counter() - started
    errors = [(i, out) for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"
              for out in cell.get("outputs", []) if out.output_type == "error"]
    for i, out in errors:
        failures.append(f"{path.name}, cell {i}: {out.ename}: {out.evalue}\n" + "\n".join(out.traceback))
    shown = sum(1 for cell in notebook.cells if cell.cell_type == "code" for out in cell.get("outputs", [])
                if out.output_type in ("display_data", "execute_result"))
    print(f"{path.name}: {len(errors)} errors, {shown} rich outputs, {seconds:.1f} s")
    if SUFFIX:
        notebook.metadata["kernelspec"] = {"name": KERNEL, "display_name": KERNEL, "language": "arrsh"}
        nbformat.write(notebook, path.with_name(f"{path.stem}.{SUFFIX}.ipynb"))

if failures:
    print("\n\n".join(failures))
    sys.exit(1)
