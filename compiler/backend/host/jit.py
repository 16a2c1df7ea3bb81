"""Machine code for a ``HostKernel`` on this host: llvmlite's MCJIT and the new pass manager.

    from shc.compiler.backend.host.jit import jit
    compiled = jit(build_host_module(module))
    status = compiled.function(ctypes.addressof(context), frame.ctypes.data)   # compiler/machine/abi.py

The pipeline is LLVM's O2 through ``PassBuilder`` with loop and SLP vectorisation
off: the kernel is vector code already (one ``<W x T>`` per value), and the
vectorisers only cost compile time on it. ``compiled.seconds`` is the wall time
of parse + optimise + code generation (SPD: about 0.6 s of CPU for wave32 and 1 s
for wave64 on the reference machine).

``SHC_OPT`` (like numba's ``NUMBA_OPT``) picks the level for every kernel a process
compiles: 2, the default, is the above; 1 is LLVM's O1 pipeline and code generator;
0 is the short pipeline below with the fast code generator, about half the compile
time of a small kernel for code several times slower (a test suite, quick edits).
Every level computes the same results bit for bit: none allows reassociation or
contraction.
"""

from __future__ import annotations

import ctypes
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from .options import opt_level

if TYPE_CHECKING:
    from .module import HostKernel

WAVE_FUNCTION = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p)
_INITIALISED = False


def _llvm():
    global _INITIALISED
    import llvmlite.binding as llvm
    if not _INITIALISED:
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        _INITIALISED = True
    return llvm


def target_machine(opt: int = 2):
    """A machine for this host's CPU and features (MCJIT takes ownership of the one it gets)."""
    llvm = _llvm()
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(), opt=opt)


@dataclass
class CompiledKernel:
    kernel: HostKernel
    engine: Any  # the ExecutionEngine: keep it alive as long as ``function`` is called
    address: int
    function: Callable[[int, int], int]
    seconds: float
    machine_code: str = field(default="", repr=False)


# LLVM's SimplifyCFG simplifies to a fixed point and gives up after 1,000 rounds with an
# assertion, which in llvmlite's LLVM aborts the whole process; a construct nested in
# another can cost it two rounds (an else-if chain of ~500 links was enough). And O2 is
# superlinear on very large kernels: 35 s for a 3,000-case switch, 45 s for 200 nested
# loops. Kernels past either limit get a short pipeline and the fast code generator.
MAX_O2_NESTING = 128
MAX_O2_BLOCKS = 1500


def short_pipeline(kernel: HostKernel) -> bool:
    """Whether ``kernel`` is too deep or too large for O2 (see above)."""
    return kernel.nesting > MAX_O2_NESTING or kernel.blocks > MAX_O2_BLOCKS


def code_plan(kernel: HostKernel) -> tuple[int, bool]:
    """``(level, short)`` for ``kernel``: the ``SHC_OPT`` level, and whether it gets the short
    pipeline and the fast code generator (level 0, or a kernel past the limits above)."""
    level = opt_level()
    return level, level == 0 or short_pipeline(kernel)


def optimize(module, machine, speed_level: int = 2, short: bool = False) -> None:
    """O2 with the vectorisers off; with ``short``, promotion to registers and a few local
    clean-ups instead (no SimplifyCFG)."""
    llvm = _llvm()
    tuning = llvm.create_pipeline_tuning_options(speed_level=speed_level)
    tuning.loop_vectorization = False
    tuning.slp_vectorization = False
    builder = llvm.create_pass_builder(machine, tuning)
    if not short:
        builder.getModulePassManager().run(module, builder)
        return
    passes = llvm.create_new_module_pass_manager()
    passes.add_sroa_pass()
    passes.add_instruction_combine_pass()
    passes.add_sccp_pass()
    passes.add_aggressive_dce_pass()
    passes.run(module, builder)


def jit(kernel: HostKernel, keep_assembly: bool = False) -> CompiledKernel:
    """Parse, verify, optimise (``code_plan``) and compile ``kernel.llvm_ir``; returns the
    callable ``shc_wave``."""
    llvm = _llvm()
    start = time.perf_counter()
    level, short = code_plan(kernel)
    machine = target_machine(0 if short else level)
    module = llvm.parse_assembly(kernel.llvm_ir)
    module.triple = llvm.get_process_triple()
    module.data_layout = str(machine.target_data)
    module.verify()
    optimize(module, machine, max(level, 1), short)
    assembly = machine.emit_assembly(module) if keep_assembly else ""
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()
    address = engine.get_function_address(kernel.entry)
    return CompiledKernel(kernel, engine, address, WAVE_FUNCTION(address), time.perf_counter() - start, assembly)
