"""Fuzzing every stage: mutated samples through the front end, lowering, the middle end, the
RDNA2 listing and the host JIT's LLVM IR, in a child process.

A run fails on any exception other than a diagnostic, on an internal compiler error, on a
crash of the child (a signal), and on an input that takes over 10 s. The inputs are seeded,
so a failure names an input that replays (``python tests/reliability/fuzz_worker.py N SEED``
runs the first N). ``SHC_FUZZ_INPUTS`` sets how many (default 400, about 30 s of one core while
the other runs other tests); CI runs the default, a deeper run sets thousands.
"""

import os
import subprocess
import sys
from pathlib import Path

WORKER = Path(__file__).with_name("fuzz_worker.py")
INPUTS = int(os.environ.get("SHC_FUZZ_INPUTS", "400"))
SEED = int(os.environ.get("SHC_FUZZ_SEED", "20261125"))
PER_INPUT_SECONDS = 10


def test_mutated_samples_through_every_stage():
    budget = 60 + INPUTS * PER_INPUT_SECONDS
    result = subprocess.run([sys.executable, str(WORKER), str(INPUTS), str(SEED)], capture_output=True,
                            text=True, timeout=budget)
    lines = result.stdout.splitlines()
    started = [line for line in lines if line.startswith("start ")]
    finished = [line.split(" ", 3) for line in lines if line.startswith("done ")]
    last = started[-1] if started else "nothing"
    assert result.returncode == 0, f"the worker died ({result.returncode}) during {last}: {result.stderr[-2000:]}"
    assert len(finished) == INPUTS
    failures = [f"input {n}: {rest}" for _, n, rest in ((d[0], d[1], d[2] + " " + d[3]) for d in finished)
                if rest.startswith("FAIL")]
    slow = [f"input {d[1]}: {d[3]} s" for d in finished if float(d[3].split()[-1]) > PER_INPUT_SECONDS]
    assert failures == [] and slow == [], f"seed {SEED}: " + "; ".join(failures + slow)
    outcomes = {d[2].split()[0] for d in finished}
    assert {"ok", "diagnostic"} <= outcomes  # the mutations reach the back ends and the diagnostics
