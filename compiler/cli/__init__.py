"""The ``shc`` command line.

Commands import the compiler lazily, so ``shc --help`` starts fast. Each command
lives in its own module; :mod:`.common` holds what they share.
"""

from __future__ import annotations

import os
import sys

from . import compile, regs, run  # noqa: F401  (each module registers its commands)
from .common import app

__all__ = ["app", "main"]


def main() -> None:
    try:
        app()
    except BrokenPipeError:  # `shc ... | head`: the reader left; say nothing more
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        sys.exit(1)

