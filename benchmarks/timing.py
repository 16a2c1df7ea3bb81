"""Timing shared by the benchmarks (run as scripts: ``python benchmarks/X.py`` puts this folder on the path)."""

from __future__ import annotations

import statistics
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


def rounds(contestants: dict, repeat: int) -> dict[str, list[float]]:
    """Each contestant timed once per round, round after round (after one warm-up round), so
    that load from elsewhere on the machine hits all of them alike."""
    times: dict[str, list[float]] = {name: [] for name in contestants}
    for round_index in range(repeat + 1):
        for name, function in contestants.items():
            start = time.perf_counter()
            function()
            if round_index:
                times[name].append(time.perf_counter() - start)
    return times


def median_ratio(over: list[float], under: list[float]) -> float:
    """The median over rounds of the ratio within a round (``over[i] / under[i]``)."""
    return statistics.median(a / b for a, b in zip(over, under))
