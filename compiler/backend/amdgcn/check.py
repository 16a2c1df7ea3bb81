"""The LLVM cross-check: compile the kernel with LLVM's AMDGPU backend, in a subprocess.

    result = cross_check(module)                  # LlvmFigures | LlvmFailure, never raises
    if result.ok:
        result.vgprs, result.sgprs, result.occupancy, result.lds, result.scratch, result.isa
    else:
        result.message                            # what went wrong, with LLVM's stderr tail

The LLVM that llvmlite ships is built with assertions: invalid IR or an intrinsic
argument it does not like aborts the whole process. So the compile runs in a child
Python (``python -m shc.compiler.backend.amdgcn.check --wave 32``, LLVM IR on stdin,
the assembly on stdout), and an abort, a timeout, a verifier error or figures that
cannot be read all come back as an ``LlvmFailure``. A successful compile's assembly is
kept on disk (``check_cache.py``), keyed by the IR text, the wave size, the O2 flag,
llvmlite's version and this file's source: the same IR again reads it back
(``LlvmFigures.cached``) instead of starting a child.

The child runs gfx1030 code generation at ``-O2`` (LLVM's codegen IR passes, the
machine scheduler, register allocation) with the wave size as a target feature;
scratch arrays are never promoted into LDS (that would change the LDS figure). By
default that is all: shc's middle end has already optimized the IR, and LLVM's own
middle end would change the program being counted rather than check the counting (it
unrolls loops shc keeps and scalar-replaces their scratch arrays, runtime-unrolls LDS
loops, and GVN's equality propagation hands a waterfall loop the divergent index back,
so LLVM builds a second waterfall around a per-lane descriptor load). ``optimize=True`` runs LLVM's ``O2`` module pipeline first: what an LLVM-based
driver would make of the kernel.

The figures come from the verbose assembly: ``; NumVgprs`` (``.amdhsa_next_free_vgpr``
if absent), ``; TotalNumSgprs`` (``; NumSgprs`` in older LLVMs), ``; Occupancy`` (waves
per SIMD), ``.amdhsa_group_segment_fixed_size`` (LDS bytes), ``; ScratchSize`` (bytes
per lane) and the metadata's spill counts. ``tight=True`` adds the fewest VGPRs LLVM
can fit the kernel in without spilling (``tight_vgprs``): LLVM's scheduler spends
registers freely up to the occupancy it already has, so its default count can sit
well above the kernel's demand.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

from .check_cache import assembly_key, load_assembly, store_assembly

DEFAULT_TIMEOUT = 120.0
_STDERR_TAIL = 2000


@dataclass(frozen=True)
class LlvmFigures:
    wave_size: int
    vgprs: int
    sgprs: int
    occupancy: int
    lds: int
    scratch: int
    vgpr_spills: int
    sgpr_spills: int
    isa: str
    llvm_ir: str
    seconds: float  # the child's wall time, start to exit (a cache hit: the time to read it back)
    optimized: bool = False  # LLVM's O2 module pipeline ran before codegen
    # The fewest VGPRs LLVM fits the kernel in without spilling (``tight=True``), else None
    tight_vgprs: int | None = None
    cached: bool = False  # the assembly came from the disk cache (check_cache.py), no child ran

    ok = True


@dataclass(frozen=True)
class LlvmFailure:
    message: str
    llvm_ir: str = ""
    stderr: str = ""

    ok = False

    def __str__(self) -> str:
        return self.message


def cross_check(module, wave_size: int | None = None, timeout: float = DEFAULT_TIMEOUT,
                optimize: bool = False, tight: bool = False) -> LlvmFigures | LlvmFailure:
    """LLVM's figures for ``module`` (lowered by shc's middle end), or why there are none.

    ``wave_size`` defaults to the module's; the module's wave ops were lowered for its own
    wave size, so asking for the other one is a failure, not a silent mismatch.
    ``tight`` also searches the fewest VGPRs LLVM needs (``tight_vgprs``, below).
    """
    from .module import to_llvm_ir  # the IR packages are not needed by the child process

    module_wave = module.function.wave_size
    if wave_size is not None and wave_size != module_wave:
        return LlvmFailure(f"the module was compiled for wave{module_wave} (its wave ops are lowered for it); "
                           f"compile it again for wave{wave_size}")
    try:
        text = to_llvm_ir(module)
    except Exception as failure:  # a lowering gap must not take the caller down
        return LlvmFailure(f"cannot write the kernel as LLVM IR: {type(failure).__name__}: {failure}")
    figures = compile_llvm_ir(text, module_wave, timeout, optimize)
    if tight and figures.ok:
        figures = replace(figures, tight_vgprs=tight_vgprs(figures, timeout, optimize))
    return figures


# The budget LLVM's scheduler aims at is the occupancy it can reach, not the fewest
# registers: below 64 VGPRs (wave32) or 32 (wave64) a kernel already runs 16 waves per
# SIMD, so the scheduler spends registers up to there on latency (loads hoisted and
# clustered). Capping the budget with "amdgpu-num-vgpr" makes it schedule for pressure
# instead; the smallest cap that needs no VGPR spill is LLVM's own register demand.
_ATTRIBUTES = re.compile(r"^(attributes #0 = \{ )", re.MULTILINE)


def tight_vgprs(figures: LlvmFigures, timeout: float = DEFAULT_TIMEOUT, optimize: bool = False,
                probes: int = 3) -> int | None:
    """The fewest VGPRs LLVM compiles ``figures.llvm_ir`` into without spilling VGPRs.

    A search over ``"amdgpu-num-vgpr"`` caps, ``probes`` compiles at a time (each in its
    own child: a cap too small for one instruction may abort LLVM, which just means it
    does not fit). None when the uncapped compile already spills or the IR text has no
    ``attributes #0`` group to add the cap to.
    """
    if figures.vgpr_spills or not _ATTRIBUTES.search(figures.llvm_ir):
        return None
    best = figures.vgprs
    low, high = 0, figures.vgprs  # low does not fit (or is 0), high fits

    def fits(cap: int) -> int | None:
        capped = _ATTRIBUTES.sub(rf'\1"amdgpu-num-vgpr"="{cap}" ', figures.llvm_ir, count=1)
        result = compile_llvm_ir(capped, figures.wave_size, timeout, optimize)
        return result.vgprs if result.ok and result.vgpr_spills == 0 else None

    with ThreadPoolExecutor(max_workers=probes) as pool:
        while high - low > 1:
            step = max(1, (high - low) // (probes + 1))
            caps = sorted({min(high - 1, low + step * (index + 1)) for index in range(probes)})
            for cap, used in zip(caps, pool.map(fits, caps)):
                if used is not None:
                    best = min(best, used)
                    high = min(high, cap)
                    break
                low = max(low, cap)
    return best


def compile_llvm_ir(text: str, wave_size: int, timeout: float = DEFAULT_TIMEOUT,
                    optimize: bool = False) -> LlvmFigures | LlvmFailure:
    """Compile LLVM IR ``text`` for gfx1030 in a child process (or read the assembly a compile of
    the same text stored, ``check_cache.py``) and read LLVM's figures."""
    if wave_size not in (32, 64):
        return LlvmFailure(f"RDNA2 waves have 32 or 64 lanes, not {wave_size}", text)
    start = time.perf_counter()
    key = assembly_key(text, wave_size, optimize, Path(__file__))
    stored = load_assembly(key)
    if stored is not None:
        try:
            figures = parse_figures(stored)
        except ValueError:
            pass  # not an assembly shc stored: compile again below
        else:
            return LlvmFigures(wave_size=wave_size, isa=stored, llvm_ir=text, seconds=time.perf_counter() - start,
                               optimized=optimize, cached=True, **figures)
    command = [sys.executable, "-m", __name__, "--wave", str(wave_size)]
    if optimize:
        command.append("--opt")
    start = time.perf_counter()
    try:
        child = subprocess.run(command, input=text, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as expired:
        return LlvmFailure(f"LLVM did not finish within {timeout:g} s", text, _tail(expired.stderr))
    except OSError as failure:
        return LlvmFailure(f"cannot start the LLVM child process: {failure}", text)
    seconds = time.perf_counter() - start
    stderr = _tail(child.stderr)
    if child.returncode != 0:
        return LlvmFailure(_exit_message(child.returncode, stderr), text, stderr)
    try:
        figures = parse_figures(child.stdout)
    except ValueError as failure:
        return LlvmFailure(f"cannot read LLVM's figures: {failure}", text, stderr)
    store_assembly(key, child.stdout)
    return LlvmFigures(wave_size=wave_size, isa=child.stdout, llvm_ir=text, seconds=seconds, optimized=optimize,
                       **figures)


def _tail(stderr) -> str:
    if isinstance(stderr, bytes):
        stderr = stderr.decode("utf-8", "replace")
    return (stderr or "").strip()[-_STDERR_TAIL:]


def _exit_message(returncode: int, stderr: str) -> str:
    last = stderr.splitlines()[-1] if stderr else ""
    if returncode < 0:
        reason = f"LLVM aborted (signal {-returncode})"
    elif returncode == 2:
        reason = "LLVM rejected the kernel"
    else:
        reason = f"the LLVM child process failed (exit status {returncode})"
    return f"{reason}: {last}" if last else reason


_PATTERNS = {
    "vgprs": (r"^; NumVgprs: (\d+)", r"\.amdhsa_next_free_vgpr (\d+)"),
    "sgprs": (r"^; TotalNumSgprs: (\d+)", r"^; NumSgprs: (\d+)"),
    "occupancy": (r"^; Occupancy: (\d+)",),
    "lds": (r"\.amdhsa_group_segment_fixed_size (\d+)",),
    "scratch": (r"^; ScratchSize: (\d+)",),
}
_OPTIONAL = {
    "vgpr_spills": r"\.vgpr_spill_count:\s+(\d+)",
    "sgpr_spills": r"\.sgpr_spill_count:\s+(\d+)",
}


def parse_figures(isa: str) -> dict[str, int]:
    """The register, occupancy, LDS and scratch figures of LLVM's verbose assembly."""
    figures = {}
    for name, patterns in _PATTERNS.items():
        for pattern in patterns:
            match = re.search(pattern, isa, re.MULTILINE)
            if match:
                figures[name] = int(match.group(1))
                break
        else:
            raise ValueError(f"no {name} figure in the assembly")
    for name, pattern in _OPTIONAL.items():
        match = re.search(pattern, isa, re.MULTILINE)
        figures[name] = int(match.group(1)) if match else 0
    return figures


# ---------------------------------------------------------------------------------------
# the child process
# ---------------------------------------------------------------------------------------


def _compile_in_this_process(text: str, wave_size: int, optimize: bool) -> str:
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    # AMDGPUPromoteAlloca may move a scratch array into spare LDS; keep scratch in scratch
    # (promotion into VGPRs stays on), so the LDS figure and occupancy stay the kernel's.
    llvm.set_option("shc", "-disable-promote-alloca-to-lds")
    target = llvm.Target.from_triple("amdgcn-amd-amdhsa")
    machine = target.create_target_machine(cpu="gfx1030", features=f"+wavefrontsize{wave_size}", opt=2)
    machine.set_asm_verbosity(True)
    module = llvm.parse_assembly(text)
    module.verify()
    if optimize:
        tuning = llvm.create_pipeline_tuning_options(speed_level=2)
        builder = llvm.create_pass_builder(machine, tuning)
        builder.getModulePassManager().run(module, builder)
    return machine.emit_assembly(module)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="compile LLVM IR (stdin) for gfx1030, print the assembly")
    parser.add_argument("--wave", type=int, choices=(32, 64), default=32)
    parser.add_argument("--opt", action="store_true", help="run LLVM's O2 module pipeline before codegen")
    options = parser.parse_args(argv)
    text = sys.stdin.read()
    try:
        sys.stdout.write(_compile_in_this_process(text, options.wave, options.opt))
    except RuntimeError as failure:  # llvmlite's parse / verify errors
        print(f"error: {str(failure).strip()}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
