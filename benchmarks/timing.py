"""Timing shared by the benchmarks (run as scripts: ``python benchmarks/X.py`` puts this folder on the path)."""

from __future__ import annotations

import time


def best(function, repeat: int) -> float:
    """The fastest of ``repeat`` calls of ``function``, after one warm-up call, in seconds."""
    function()  # warm-up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)
