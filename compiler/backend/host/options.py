"""``SHC_OPT``, the optimisation level of every kernel a process compiles (``jit.py`` says what
each level does). A module of its own: a kernel-cache hit puts the level in its key without
importing the code generator (``runtime/kernel.py``), and so does the CLI's check of the variable."""

from __future__ import annotations

import os

OPT_LEVELS = (0, 1, 2)
OPT_VARIABLE = "SHC_OPT"


def opt_level() -> int:
    """The optimisation level ``SHC_OPT`` asks for (2 when unset); anything else is a ValueError."""
    text = os.environ.get(OPT_VARIABLE, "").strip()
    if not text:
        return 2
    if text not in {str(level) for level in OPT_LEVELS}:
        raise ValueError(f"{OPT_VARIABLE} must be one of {', '.join(map(str, OPT_LEVELS))}, not {text!r}")
    return int(text)
