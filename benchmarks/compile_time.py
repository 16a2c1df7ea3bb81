"""Wall time of `shc check`, `shc compile --target rdna2` and `shc regs --no-llvm` on the
largest sample (samples/spd.hlsl), next to `python -c pass` measured in the same run.

Run: python benchmarks/compile_time.py [--repeat N]
Prints the median of N runs of each command and the ratio to the Python start-up
baseline, so the figure means the same on a slow and a fast machine. The first
`shc check` run builds the parser tables; it is reported separately as "cold".
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(command: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    largest = ROOT / "samples" / "spd.hlsl"  # the flagship, and the largest once its headers are included
    shc = [sys.executable, "-m", "shc.compiler.cli"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, SHC_CACHE_DIR=cache)
        cold = timed(shc + ["check", str(largest)], env)
        rows = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "shc --help": shc + ["--help"],
            f"shc check {largest.relative_to(ROOT)}": shc + ["check", str(largest)],
            f"shc compile {largest.relative_to(ROOT)} --target rdna2": shc + ["compile", str(largest), "--target", "rdna2"],
            f"shc regs {largest.relative_to(ROOT)} --no-llvm": shc + ["regs", str(largest), "--no-llvm"],
        }
        results = {name: statistics.median(timed(cmd, env) for _ in range(args.repeat)) for name, cmd in rows.items()}
    baseline = results["python -c pass"]
    print(f"{'command':56} {'median s':>9} {'x python':>9}")
    for name, seconds in results.items():
        print(f"{name:56} {seconds:9.3f} {seconds / baseline:9.1f}")
    print(f"{'(cold: first check, builds parser tables)':56} {cold:9.3f} {cold / baseline:9.1f}")


if __name__ == "__main__":
    main()
