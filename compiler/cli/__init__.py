"""The ``shc`` command line.

Commands import the compiler lazily, so ``shc --help`` starts fast. Each command
lives in its own module; :mod:`.common` holds what they share.
"""

from __future__ import annotations

import gc
import os
import sys

from . import compile, regs, run  # noqa: F401  (each module registers its commands)
from .common import app

__all__ = ["app", "main"]

# A command builds over a hundred thousand objects that live until it exits (the AST, the IR,
# the machine code), and almost none of them is garbage in a cycle. With Python's default
# threshold (700) the collector ran 155 times while `shc compile` compiled SPD and spent
# 0.06 s of the 0.78 s of CPU scanning the same young objects over and over. Every 200 000
# allocations it still runs, so a long sweep frees its cycles (README, "Compiling SPD in a
# new process").
YOUNG_COLLECTION_THRESHOLD = 200_000


def main() -> None:
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
    try:
        app()
    except BrokenPipeError:  # `shc ... | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)

