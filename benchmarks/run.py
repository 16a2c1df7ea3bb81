"""Every benchmark goal (issue #15) in one run: a table of medians and ratios, and the same as JSON.

Run: python benchmarks/run.py [--quick] [--json out.json] [--markdown out.md] [--repeat N]

Each ratio is shc's time over a baseline's measured in the same run, the contestants taking
turns round after round (``timing.rounds``): a ratio is the median over rounds of the ratio
within a round, a time the median of its rounds. The sections:

- SPD (``spd.measure_spd``): an RGBA32F source at 4096², 2048² and 1920x1080 to its full mip
  chain, against the bandwidth bound (``numpy.copyto`` speed over the bytes SPD must move),
  NumPy's slice-adds, and shc itself on one thread (the scaling over the cores).
- the common kernels (``common_kernels.py``, HLSL in ``kernels/``): a 256-bin histogram and an
  exclusive scan of 4M uint32 against ``numpy.bincount`` and ``numpy.cumsum``, a transpose of
  a 2048² float32 matrix against ``numpy.copyto(out, a.T)``.
- start-up, each a new process: the first SPD result (256²) with an empty cache, with the
  parser tables but not the kernel cached, with both; ``shc regs samples/spd.hlsl`` and
  ``shc compile samples/spd.hlsl --target rdna2``, against ``python -c pass``.
- memory: the peak RSS of a process computing SPD at 4096² against the source plus the chain
  plus 64 MiB.
- lavapipe, an optional peer (``lavapipe.py``): the same HLSL kernels through glslangValidator
  and Vulkan when those are installed, else a row saying what is missing.

Every result is checked: SPD bit-exact against the NumPy box chain, the kernels equal to
NumPy's. ``--quick`` runs everything at a quarter of the sizes (a smoke test; the goals are
for the full sizes).
"""

from __future__ import annotations

import argparse
import datetime
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import compile_time
import lavapipe
import numpy as np
from common_kernels import (
    CommonKernels,
    numpy_exclusive_scan,
    numpy_histogram,
    numpy_transpose,
)
from timing import median_ratio, rounds

import spd as spd_bench

ROOT = Path(__file__).resolve().parent.parent
MIB = 2 ** 20


@dataclass(frozen=True)
class Plan:
    """The sizes and repeats of one run."""

    spd_sizes: tuple[tuple[int, int], ...]  # (height, width)
    words: int  # histogram and scan
    matrix: int  # transpose: matrix x matrix
    rss_size: int
    repeat: int
    startup_repeat: int


FULL = Plan(((4096, 4096), (2048, 2048), (1080, 1920)), 4 * MIB, 2048, 4096, 7, 5)
QUICK = Plan(((1024, 1024), (512, 512), (270, 480)), MIB, 512, 1024, 3, 1)


@dataclass
class Row:
    """One line of the table: shc's figure, the baseline's, shc / baseline, and the goal (an upper
    bound on the ratio) if the issue sets one."""

    section: str
    name: str
    shc: float | None  # None: not measured
    baseline_name: str = ""
    baseline: float | None = None
    ratio: float | None = None
    goal: float | None = None
    unit: str = "s"
    exact: bool | None = None
    note: str = ""

    @property
    def holds(self) -> bool | None:
        return None if self.goal is None or self.ratio is None else self.ratio <= self.goal


def spd_rows(plan: Plan) -> list[Row]:
    rows = []
    cores = os.cpu_count() or 1
    for height, width in plan.spd_sizes:
        measured = spd_bench.measure_spd(height, width, plan.repeat)
        times, exact, cores_used = measured["times"], measured["exact"], measured["cores"]
        name = f"SPD {width}x{height}, {measured['mips']} mips"
        shc = statistics.median(times["shc"])
        rows += [
            Row("SPD", name, shc, f"bandwidth bound ({measured['bytes'] / MIB:.0f} MiB at copyto speed)",
                statistics.median(times["bound"]), median_ratio(times["shc"], times["bound"]), 2.0, exact=exact),
            Row("SPD", f"{name} vs NumPy", shc, "NumPy slice-adds", statistics.median(times["numpy"]),
                median_ratio(times["shc"], times["numpy"]), exact=exact),
            Row("SPD", f"{name}, {cores} threads vs 1", shc, "shc on 1 thread",
                statistics.median(times["shc_1_thread"]), median_ratio(times["shc"], times["shc_1_thread"]),
                1 / 1.8, exact=exact,
                note=f"speed-up {median_ratio(times['shc_1_thread'], times['shc']):.2f}x (goal >= 1.8x); "
                     f"shc's runs got {cores_used['shc']:.2f} cores on {cores} threads and "
                     f"{cores_used['shc_1_thread']:.2f} on 1"),
        ]
    return rows


def kernel_inputs(plan: Plan) -> tuple[np.ndarray, np.ndarray]:
    """The words the histogram and the scan take, and the matrix to transpose (the same every run)."""
    rng = np.random.default_rng(15)
    return (rng.integers(0, 2 ** 32, plan.words, dtype=np.uint32),
            rng.random((plan.matrix, plan.matrix), dtype=np.float32))


def kernel_rows(plan: Plan) -> list[Row]:
    kernels = CommonKernels()
    words, matrix = kernel_inputs(plan)
    bins, scanned, transposed = np.zeros(256, np.uint32), np.empty_like(words), np.empty_like(matrix)
    numpy_scanned, numpy_transposed = np.empty_like(words), np.empty_like(matrix)
    times = rounds({
        "histogram": lambda: kernels.histogram(words, out=bins),
        "bincount": lambda: numpy_histogram(words),
        "scan": lambda: kernels.exclusive_scan(words, out=scanned),
        "cumsum": lambda: numpy_exclusive_scan(words, out=numpy_scanned),
        "transpose": lambda: kernels.transpose(matrix, out=transposed),
        "copyto": lambda: numpy_transpose(matrix, out=numpy_transposed),
    }, plan.repeat)
    exact = {"histogram": np.array_equal(bins, numpy_histogram(words)),
             "scan": np.array_equal(scanned, numpy_scanned),
             "transpose": np.array_equal(transposed, numpy_transposed)}
    count = f"{plan.words // MIB}M uint32"

    def row(name: str, ours: str, theirs: str, baseline_name: str, goal: float) -> Row:
        return Row("kernels", name, statistics.median(times[ours]), baseline_name, statistics.median(times[theirs]),
                   median_ratio(times[ours], times[theirs]), goal, exact=exact[ours])

    return [row(f"histogram, 256 bins, {count}", "histogram", "bincount", "numpy.bincount", 1.0),
            row(f"exclusive scan, {count}", "scan", "cumsum", "numpy.cumsum", 1.0),
            row(f"transpose {plan.matrix}² float32", "transpose", "copyto", "numpy.copyto(out, a.T)", 0.5)]


def startup_rows(plan: Plan) -> list[Row]:
    shc = [sys.executable, "-m", "shc.compiler.cli"]
    with tempfile.TemporaryDirectory(prefix="shc-bench-") as scratch:
        pycache, primer, warm = (os.path.join(scratch, name) for name in ("pyc", "primer", "warm"))
        spd_bench.first_result(primer, pycache)  # Python's bytecode cached, as in an installed package
        spd_bench.wait_for_tier_up(primer)
        os.makedirs(warm)
        for table in glob.glob(os.path.join(primer, "parsetab-*.json")):
            shutil.copy(table, warm)

        def first(cache: str) -> tuple[float, dict]:
            start = time.perf_counter()
            figures = spd_bench.first_result(cache, pycache)
            return time.perf_counter() - start, figures

        empty = first(os.path.join(scratch, "empty"))
        spd_bench.wait_for_tier_up(os.path.join(scratch, "empty"))
        cold = first(warm)  # the parser tables there, the kernel not yet: this fills the kernel cache
        spd_bench.wait_for_tier_up(warm)  # (its O2 object, stored by runtime/tier_up.py's child)
        env = dict(os.environ, SHC_CACHE_DIR=warm, PYTHONPYCACHEPREFIX=pycache)
        # each command twice: compiling (--no-cache) and replayed from shc's output cache
        listing = ["compile", "samples/spd.hlsl", "--target", "rdna2"]
        commands = {"python -c pass": [sys.executable, "-c", "pass"],
                    "shc regs samples/spd.hlsl --no-cache": shc + ["regs", "samples/spd.hlsl", "--no-cache"],
                    "shc compile samples/spd.hlsl --target rdna2 --no-cache": shc + listing + ["--no-cache"],
                    "shc regs samples/spd.hlsl (output cached)": shc + ["regs", "samples/spd.hlsl"],
                    "shc compile samples/spd.hlsl --target rdna2 (output cached)": shc + listing}
        warm_runs = []
        contestants = {name: (lambda command=command: compile_time.timed(command, env))
                       for name, command in commands.items()}
        contestants["warm"] = lambda: warm_runs.append(first(warm))
        times = rounds(contestants, plan.startup_repeat)
        warm_runs = warm_runs[1:]  # the warm-up round's is not counted
    python = times["python -c pass"]
    base = statistics.median(python)
    # A warm start that missed the cache did so because the compiler's sources changed during the
    # run (the cache key includes them): such rounds are left out, and counted in the note.
    paired = list(zip(warm_runs, python))
    counted = [pair for pair in paired if pair[0][1]["from_cache"]] or paired
    misses = sum(not figures["from_cache"] for _, figures in warm_runs)
    missed = f"; {misses} of {len(warm_runs)} warm starts missed the cache, not counted" if misses else ""
    hits, hit_python = [seconds for (seconds, _), _ in counted], [under for _, under in counted]
    loads = [figures["compile"] for (_, figures), _ in counted]

    def breakdown(figures: dict) -> str:
        cache = "hit" if figures["from_cache"] else "miss"
        return (f"import {figures['import']:.2f} s, kernel {figures['compile']:.2f} s ({cache}), "
                f"dispatch {figures['dispatch']:.3f} s")

    rows = [Row("start-up", "first SPD result (256²), empty cache: tables + kernel built", empty[0],
                "python -c pass", base, empty[0] / base, note=breakdown(empty[1])),
            Row("start-up", "first SPD result (256²), parser tables cached, kernel not", cold[0],
                "python -c pass", base, cold[0] / base, note=breakdown(cold[1])),
            Row("start-up", "first SPD result (256²), warm kernel cache", statistics.median(hits), "python -c pass",
                base, median_ratio(hits, hit_python), note=breakdown(counted[-1][0][1]) + missed),
            Row("start-up", "loading the SPD kernel from a warm cache (in the process)",
                statistics.median(loads), note=missed.strip("; "))]
    for name in list(commands)[1:]:
        rows.append(Row("start-up", f"{name} (whole process)", statistics.median(times[name]), "python -c pass", base,
                        median_ratio(times[name], python)))
    return rows


PEAK_RSS = """
import json, resource, sys
import numpy as np
import shc.spd


def high_water():  # this process's own peak RSS in bytes: VmHWM, which a new program starts afresh
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


size = int(sys.argv[1])
spd = shc.spd.Downsampler()
loaded = high_water()
image = np.random.default_rng(0).random((size, size, 4), dtype=np.float32)
result = spd.run(image)
print(json.dumps({"loaded": loaded, "peak": high_water(), "source": image.nbytes,
                  "chain": sum(level.nbytes for level in result.storage),
                  "ru_maxrss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def memory_rows(plan: Plan) -> list[Row]:
    """The peak RSS of a new process (warm kernel cache: the compiler's memory is not counted).
    The peak is /proc/self/status's VmHWM: ``getrusage``'s ``ru_maxrss`` would do on its own, but
    Linux carries the high-water mark of the process that forked the child across the exec,
    so in a child of this (large) process it reports this process's size."""
    subprocess.run([sys.executable, "-c", PEAK_RSS, "64"], check=True, cwd=ROOT, capture_output=True)
    done = subprocess.run([sys.executable, "-c", PEAK_RSS, str(plan.rss_size)], check=True, cwd=ROOT,
                          capture_output=True, text=True)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    budget = figures["source"] + figures["chain"] + 64 * MIB
    return [Row("memory", f"peak RSS, SPD {plan.rss_size}²", figures["peak"] / MIB,
                "source + chain + 64 MiB", budget / MIB, figures["peak"] / budget, 1.0, unit="MiB",
                note=f"source {figures['source'] / MIB:.0f} MiB, chain {figures['chain'] / MIB:.0f} MiB; "
                     f"the process before the image (Python, NumPy, shc, the kernel loaded): "
                     f"{figures['loaded'] / MIB:.0f} MiB")]


def lavapipe_rows(plan: Plan, kernels: list[Row]) -> list[Row]:
    """The common kernels on lavapipe when it is installed (``lavapipe.py``), next to shc's times from
    the kernels section (lavapipe runs in its own process, so not in the same rounds)."""
    missing = lavapipe.missing()
    if missing:
        return [Row("lavapipe", "the common kernels on lavapipe", None,
                    note=f"lavapipe: not installed ({missing} missing)")]
    words, matrix = kernel_inputs(plan)
    with tempfile.TemporaryDirectory(prefix="shc-lavapipe-") as scratch:
        try:
            results = lavapipe.run_kernels(words, matrix, plan.repeat, os.cpu_count() or 1, Path(scratch))
        except subprocess.CalledProcessError as failure:  # a tool that is there but fails: say so, go on
            said = (failure.stderr or "").strip().splitlines()
            return [Row("lavapipe", "the common kernels on lavapipe", None,
                        note=f"lavapipe: {Path(failure.cmd[0]).name} failed: {said[-1] if said else failure}")]
    expected = {"histogram": numpy_histogram(words), "scan": numpy_exclusive_scan(words), "transpose": matrix.T}
    rows = []
    for (name, (times, result)), ours in zip(results.items(), kernels):
        theirs = statistics.median(times)
        rows.append(Row("lavapipe", f"{ours.name} vs lavapipe", ours.shc, "lavapipe (glslangValidator -D, vkrun)",
                        theirs, ours.shc / theirs, exact=bool(np.array_equal(result, expected[name])),
                        note="medians of separate runs"))
    return rows


def machine() -> dict:
    import llvmlite
    import llvmlite.binding
    import shc

    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor())
    return {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), "cpu": cpu,
            "cores": os.cpu_count(), "load_average_at_start": os.getloadavg(),
            "versions": {"shc": shc.__version__, "python": platform.python_version(), "numpy": np.__version__,
                         "llvmlite": llvmlite.__version__,
                         "llvm": ".".join(map(str, llvmlite.binding.llvm_version_info))}}


def render(rows: list[Row], header: dict) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"shc benchmarks, {header['date']}, {header['cpu']}, {header['cores']} cores "
                        f"(load average at start {header['load_average_at_start'][0]:.1f})")
    for column, justify in (("", "left"), ("shc", "right"), ("baseline", "left"), ("", "right"),
                            ("shc / baseline", "right"), ("goal", "right"), ("holds", "center"),
                            ("exact", "center"), ("note", "left")):
        table.add_column(column, justify=justify)
    section = None
    for row in rows:
        if section is not None and row.section != section:
            table.add_section()
        section = row.section
        mark = {True: "yes", False: "NO", None: ""}
        table.add_row(row.name, _amount(row.shc, row.unit), row.baseline_name, _amount(row.baseline, row.unit),
                      "" if row.ratio is None else f"{row.ratio:.2f}x",
                      "" if row.goal is None else f"<= {row.goal:.2f}x", mark[row.holds], mark[row.exact], row.note)
    Console(width=250).print(table)


def markdown(rows: list[Row], header: dict) -> str:
    """The table as Markdown, for the README."""
    mark = {True: "yes", False: "**no**", None: ""}
    machine = (f"{header['date'][:10]}, {header['cpu']}, {header['cores']} cores, load average "
               f"{header['load_average_at_start'][0]:.1f} at the start and {header['load_average_at_end'][0]:.1f} "
               f"at the end; Python {header['versions']['python']}, NumPy {header['versions']['numpy']}, "
               f"LLVM {header['versions']['llvm']}.")
    lines = [machine, "", "| | shc | baseline | | shc / baseline | goal | holds | exact | note |",
             "|---|--:|---|--:|--:|--:|:-:|:-:|---|"]
    for row in rows:
        lines.append(" | ".join(["", row.name, _amount(row.shc, row.unit), row.baseline_name,
                                 _amount(row.baseline, row.unit), "" if row.ratio is None else f"{row.ratio:.2f}x",
                                 "" if row.goal is None else f"<= {row.goal:.2f}x", mark[row.holds],
                                 mark[row.exact], row.note, ""]).strip())
    return "\n".join(lines) + "\n"


def _amount(value: float | None, unit: str) -> str:
    if value is None:
        return ""
    if unit == "MiB":
        return f"{value:.0f} MiB"
    return f"{value * 1e3:.1f} ms" if value < 1 else f"{value:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of the sizes, 3 rounds (a smoke test)")
    parser.add_argument("--json", type=Path, help="also write the rows and the machine to this file")
    parser.add_argument("--repeat", type=int, help="rounds of each measurement (default 7, quick 3)")
    parser.add_argument("--markdown", type=Path, help="also write the table as Markdown to this file")
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    if args.repeat:
        plan = Plan(plan.spd_sizes, plan.words, plan.matrix, plan.rss_size, args.repeat, plan.startup_repeat)
    header = machine()
    kernels = kernel_rows(plan)
    rows = spd_rows(plan) + kernels + startup_rows(plan) + memory_rows(plan) + lavapipe_rows(plan, kernels)
    header["load_average_at_end"] = os.getloadavg()
    render(rows, header)
    if args.json:
        report = dict(header, quick=args.quick, repeat=plan.repeat,
                      rows=[dict(asdict(row), holds=row.holds) for row in rows])
        args.json.write_text(json.dumps(report, indent=2, allow_nan=False) + "\n")
    if args.markdown:
        args.markdown.write_text(markdown(rows, header))
    if not all(row.exact is not False for row in rows):
        sys.exit("a result differs from NumPy's (the 'exact' column)")


if __name__ == "__main__":
    main()
