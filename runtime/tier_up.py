"""A large kernel's first compile in two tiers: quick code now, O2 code for the cache later.

    plan = code_plan(host)
    if worth_tiering(host.llvm_ir, plan):
        tier_up = TierUp.start(cache, key, dependencies, info, host.llvm_ir, plan)
        obj = compile_object(host.llvm_ir, info.wave_entry, FIRST_TIER)   # run this meanwhile
    ...
    if tier_up.finished():
        entry = tier_up.cached(KernelInfo.from_dict)                      # the O2 object, or None

LLVM's O2 pipeline and code generation take most of a cold kernel's time (SPD: about
1.3 of 2.0 CPU seconds, mostly X86 instruction selection splitting each 32-lane
operation into AVX2's 8-lane ones). A kernel whose host module is long enough
(``TIER_UP_LINES``) is compiled twice: in this process with the short pipeline and
LLVM's fast code generator (``FIRST_TIER``: half the time, the same results bit for
bit, slower code), which the first dispatch runs; and at the plan's level (O2) by a
child process started just before, on the other core at a lower priority, which
stores its object in the kernel cache under the kernel's usual key. The quick object is
never stored: the cache holds only what the key says. A later dispatch in this process
takes the O2 object from the cache once the child has finished (checked like any
cache hit: dependencies re-hashed, sha256 of the object); a later process finds it
there. Nothing waits for the child: a process that exits first leaves it to finish
alone (it is in its own session, its output goes nowhere), and a child that fails
(or a cache that cannot be written) only means the next process compiles again.

The child (``main``, run with this process's ``sys.path``) reads one request on its standard input:
a line of JSON (the cache directory, the key, the plan, the dependencies, the kernel's
description, the IR's length in bytes), then the IR text. A request cut short (the
parent died while writing it) is refused without compiling.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import jit

# Host modules at least this long are compiled in two tiers: SPD's are 11-18k lines (O2 on the
# 11k of the default variant takes about 1.3 s), the other kernels shc ships at most 3.8k
# (benchmarks/kernels/scan.hlsl's scan_tile), which O2 compiles in about 0.4 s.
TIER_UP_LINES = 6000
# The first tier: the short pipeline and the fast code generator (the level is not used).
FIRST_TIER = (2, True)


# ``SHC_TIER_UP=0`` turns the child off (no process is started: the O2 object is compiled in
# this process, as for a short module); ``1`` or unset leaves it on.
TIER_UP_VARIABLE = "SHC_TIER_UP"


def tier_up_allowed() -> bool:
    """Whether ``SHC_TIER_UP`` lets a cold kernel start a child; anything but 0 or 1 is a ValueError."""
    text = os.environ.get(TIER_UP_VARIABLE, "").strip()
    if text not in ("", "0", "1"):
        raise ValueError(f"{TIER_UP_VARIABLE} must be 0 or 1, not {text!r}")
    return text != "0"


def worth_tiering(llvm_ir: str, plan: tuple[int, bool]) -> bool:
    """Whether a kernel with this host module and code plan is compiled in two tiers: only at
    O2 (levels 0 and 1, and kernels too large for O2, get one compile as before) and only when
    ``SHC_TIER_UP`` allows it."""
    return plan == (2, False) and llvm_ir.count("\n") >= TIER_UP_LINES and tier_up_allowed()


class TierUp:
    """The child process compiling a kernel at its plan's level into the kernel cache."""

    def __init__(self, process: subprocess.Popen, directory: Path, key: str):
        self.process, self.directory, self.key = process, directory, key

    @classmethod
    def start(cls, cache: jit.KernelCache, key: str, dependencies: list, info: Any, llvm_ir: str,
              plan: tuple[int, bool]) -> TierUp | None:
        """Start the child (None when the cache cannot be written or no process can be
        started: then the caller compiles at the plan's level itself)."""
        if not sys.executable or not cache.usable(create=True):  # (an embedded Python has no executable)
            return None
        text = llvm_ir.encode("utf-8")
        request = {"directory": str(cache.directory), "key": key, "plan": list(plan),
                   "dependencies": [list(dependency) for dependency in dependencies],
                   "kernel": info.to_dict(), "ir_bytes": len(text)}
        # The child searches this process's sys.path and nothing else, so it imports the same shc
        # (``-m`` or ``-c`` alone would put its working directory first: an ``shc`` folder there,
        # another checkout, would compile this kernel's key with other code).
        try:
            process = subprocess.Popen([sys.executable, "-c", _CHILD, json.dumps(sys.path)], stdin=subprocess.PIPE,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       start_new_session=True)
        except OSError:
            return None
        payload = json.dumps(request).encode("utf-8") + b"\n" + text
        # The pipe holds 64 KiB: a thread feeds it while this process compiles the first tier.
        threading.Thread(target=_feed, args=(process.stdin, payload), daemon=True).start()
        return cls(process, cache.directory, key)

    def finished(self) -> bool:
        return self.process.poll() is not None

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the child; whether it succeeded."""
        return self.process.wait(timeout) == 0

    def cached(self, decode: Callable[[dict], Any]) -> jit.CacheEntry | None:
        """The child's entry from the cache (checked as any lookup is), once it has succeeded."""
        if self.process.poll() != 0:
            return None
        return jit.KernelCache(self.directory).lookup(self.key, decode)


_CHILD = f"import json, sys; sys.path[:] = json.loads(sys.argv[1]); from {__name__} import main; sys.exit(main())"


def _feed(pipe, payload: bytes) -> None:
    try:
        pipe.write(payload)
        pipe.close()
    except OSError:  # the child is gone: it stores nothing
        pass


def main() -> int:
    """The child: read the request, compile at its plan's level, store the object."""
    try:
        os.nice(10)  # the parent's first dispatch goes first
    except (AttributeError, OSError):
        pass
    header, newline, text = sys.stdin.buffer.read().partition(b"\n")
    try:
        request = json.loads(header)
        complete = newline and len(text) == request["ir_bytes"]
    except (ValueError, KeyError, TypeError):
        complete = False
    if not complete:
        return 2
    from .kernel import KernelInfo

    info = KernelInfo.from_dict(request["kernel"])
    level, short = request["plan"]
    obj = jit.compile_object(text.decode("utf-8"), info.wave_entry, (int(level), bool(short)))
    dependencies = [(str(path), str(sha)) for path, sha in request["dependencies"]]
    jit.KernelCache(Path(request["directory"])).store(request["key"], jit.CacheEntry(dependencies, obj, info))
    return 0


if __name__ == "__main__":
    sys.exit(main())
