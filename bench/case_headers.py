"""The benchmark cases: each case's header ('# key: value' lines at the top of its .arr file, or of
its baseline for a reference case) read into a Case, as it runs on one device. bench/README.md
describes the keys; run.py measures the cases.
"""

import ast
import re
from dataclasses import dataclass, replace
from pathlib import Path

CASES_DIR = Path(__file__).resolve().parent / "cases"
DEFAULT_REPS = 7
BASELINE_SUFFIX = {"cpu": ".py", "gpu": ".cupy.py"}
DEVICES = tuple(BASELINE_SUFFIX)
HEADER_LINE = re.compile(r"#\s*([\w-]+):\s*(.*?)\s*$")
YES_NO = {"yes": True, "no": False}


@dataclass(frozen=True)
class Variant:
    label: str  # as written in the case header, e.g. "n=1e7"
    params: dict[str, int]

    def prelude(self, reps: int) -> str:
        """One line, valid in arr and in Python, that binds the size parameters and reps."""
        bindings = [f"{name} = {value}" for name, value in self.params.items() if name != "reps"]
        return "; ".join(bindings + [f"reps = {reps}"]) + "\n"


@dataclass(frozen=True)
class Case:
    """A case as it runs on one device (its header's DEVICE-key lines applied)."""
    name: str
    title: str
    variants: tuple[Variant, ...]
    quick_variant: Variant
    reps: int
    rounds: int  # arrsh and baseline processes run this many times each, alternating
    max_ratio: float | None  # target: arrsh time / baseline time must be at most this; None: no ratio target
    arr_path: Path | None  # None: a reference case, measured by its baseline only
    devices: frozenset[str] = frozenset(DEVICES)  # where the case runs
    bytes_moved: str | None = None  # expression in the size parameters: bytes read + written per repetition
    bandwidth_of: str | None = None  # the case whose baseline bandwidth is this case's reference
    bandwidth_target: float | None = None  # smallest acceptable arrsh bandwidth / reference bandwidth
    max_seconds: float | None = None  # target-seconds: arrsh's median must be at most this
    fresh_cache: bool = False  # every process starts with empty kernel caches (KERNEL_CACHE_VARIABLES)

    def baseline_path(self, device: str) -> Path:
        return CASES_DIR / f"{self.name}{BASELINE_SUFFIX[device]}"

    def bytes_for(self, variant: Variant) -> float | None:
        return None if self.bytes_moved is None else evaluate_size_expression(self.bytes_moved, variant.params)


def read_header(path: Path) -> dict[str, str]:
    """The '# key: value' lines at the top of a case file."""
    header = {}
    for line in path.read_text().splitlines():
        if not line.startswith("#"):
            break
        match = HEADER_LINE.match(line)
        if match:
            header[match[1]] = match[2]
    return header


def parse_whole_number(text: str) -> int:
    number = float(text.replace("_", ""))
    if not number.is_integer():
        raise ValueError(f"{text!r} is not a whole number")
    return int(number)


def parse_variant(text: str) -> Variant:
    """'n=1e7 m=3' -> Variant('n=1e7 m=3', {'n': 10000000, 'm': 3})."""
    pairs = (item.split("=", 1) for item in text.split())
    return Variant(text, {name: parse_whole_number(value) for name, value in pairs})


_SIZE_OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
                   ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Pow: lambda a, b: a ** b}


def evaluate_size_expression(text: str, params: dict[str, int]) -> float:
    """'3*16*n' with n from params: numbers, size parameters, + - * / // ** and brackets only."""
    def value(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.Name) and node.id in params:
            return params[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _SIZE_OPERATORS:
            return _SIZE_OPERATORS[type(node.op)](value(node.left), value(node.right))
        raise ValueError(f"{text!r}: only numbers, the size parameters ({', '.join(params)}) "
                         "and + - * / // ** may appear")
    return float(value(ast.parse(text.replace("_", ""), mode="eval").body))


def for_device(header: dict[str, str], key: str, device: str) -> str | None:
    """A header value as seen on device: 'gpu-sizes' on gpu overrides 'sizes'."""
    return header.get(f"{device}-{key}", header.get(key))


def load_case(header_path: Path, device: str, arr_path: Path | None) -> Case:
    """The case whose header is in header_path (its .arr file, or its baseline for a reference case)."""
    header = read_header(header_path)
    value = {key: for_device(header, key, device) for key in
             ("title", "sizes", "quick", "target", "target-seconds", "reps", "rounds", "bytes", "bandwidth-of",
              "bandwidth-target", "fresh-cache")}
    required = {"title", "sizes", "quick"}
    missing = {key for key in required if value[key] is None}
    if arr_path and value["target"] is None and value["target-seconds"] is None:
        missing.add("target (or target-seconds)")
    if missing:
        raise ValueError(f"{header_path}: header lacks {', '.join(sorted(missing))}"
                         f"{'' if device == 'cpu' else f' (or {device}-…)'}")
    if (value["fresh-cache"] or "no") not in YES_NO:
        raise ValueError(f"{header_path}: fresh-cache must be yes or no, not {value['fresh-cache']!r}")
    devices = frozenset(header.get("devices", " ".join(DEVICES)).replace(",", " ").split())
    if not devices or devices - set(DEVICES):
        raise ValueError(f"{header_path}: devices must name some of {', '.join(DEVICES)}")
    if value["bandwidth-of"] and not value["bytes"]:
        raise ValueError(f"{header_path}: bandwidth-of needs bytes")
    case = Case(
        name=arr_path.stem if arr_path else header_path.name.split(".", 1)[0],
        title=value["title"],
        variants=tuple(parse_variant(text.strip()) for text in value["sizes"].split("|")),
        quick_variant=parse_variant(value["quick"]),
        reps=int(value["reps"] or DEFAULT_REPS),
        rounds=int(value["rounds"] or 1),
        max_ratio=float(value["target"]) if arr_path and value["target"] else None,
        arr_path=arr_path,
        devices=devices,
        bytes_moved=value["bytes"],
        bandwidth_of=value["bandwidth-of"],
        bandwidth_target=float(value["bandwidth-target"] or 1) if value["bandwidth-of"] else None,
        max_seconds=float(value["target-seconds"]) if arr_path and value["target-seconds"] else None,
        fresh_cache=YES_NO[value["fresh-cache"] or "no"],
    )
    for variant in (*case.variants, case.quick_variant):
        case.bytes_for(variant)  # a bad expression is an error now, not after the runs
    return case


def case_files() -> list[tuple[Path, Path | None]]:
    """(header file, .arr file or None) of every case: each NAME.arr, and each reference case, a
    baseline file (NAME.py, NAME.cupy.py) without a NAME.arr beside it."""
    files = {path.stem: (path, path) for path in sorted(CASES_DIR.glob("*.arr"))}
    for suffix in BASELINE_SUFFIX.values():
        for path in sorted(CASES_DIR.glob(f"*{suffix}")):
            name = path.name[:-len(suffix)]
            if "." not in name and name not in files:
                files[name] = (path, None)
    return [files[name] for name in sorted(files)]


def discover_cases(device: str) -> list[Case]:
    """Every case, as it runs on device (whether or not it runs there: see Case.devices)."""
    cases = [load_case(header_path, device, arr_path) for header_path, arr_path in case_files()]
    # A reference case runs only where it has a baseline file.
    cases = [case if case.arr_path else
             replace(case, devices=frozenset(d for d in case.devices if case.baseline_path(d).exists()))
             for case in cases]
    runs_here = {case.name: case for case in cases if device in case.devices}
    for case in runs_here.values():
        reference = runs_here.get(case.bandwidth_of)
        if case.bandwidth_of and (reference is None or reference.bytes_moved is None):
            raise ValueError(f"{case.name}: bandwidth-of names {case.bandwidth_of!r}, which is not a case "
                             f"with a bytes line that runs on {device}")
    return cases
