"""Shared by the test_interpret_*.py files: read and verify IR text kernels, run them for
one wave, and the execution masks and kernel templates the tests use."""

from textwrap import dedent

import numpy as np

from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.ir.reader import read_module
from shc.compiler.ir.verify import verify

WAVE_SIZES = (32, 64)


def module_of(text: str):
    module = read_module(dedent(text))
    verify(module.function)
    return module


def run(text: str, wave_size: int = 32, **options):
    return run_wave(module_of(text), wave_size=wave_size, **options)


def exec_masks(wave_size: int):
    lanes = np.arange(wave_size)
    rng = np.random.default_rng(wave_size)
    yield "full", np.ones(wave_size, bool)
    yield "every-third-off", lanes % 3 != 2
    yield "random", rng.random(wave_size) < 0.6


def without(wave_size: int, *lanes: int) -> np.ndarray:
    mask = np.ones(wave_size, bool)
    mask[list(lanes)] = False
    return mask


def intrinsic_kernel(wave_size: int, body: str, in_type: str, out_type: str) -> str:
    """``out[i] = <body>`` where %1 is inp[i] and %2 is aux[i]; the body defines %9."""
    return dedent(f"""
        resource @inp RWStructuredBuffer<{in_type}> u0 space0
        resource @aux RWStructuredBuffer<uint> u1 space0
        resource @out RWStructuredBuffer<{out_type}> u2 space0
        func @main numthreads({wave_size}, 1, 1) wave{wave_size} {{
        ^entry:
          %0 = thread_input uint {{which="group_index"}}
          %1 = buffer_load {in_type} %0 {{resource="inp"}}
          %2 = buffer_load uint %0 {{resource="aux"}}
          %3 = const uint {{value=0}}
          %4 = ne bool %1, %3
        """) + f"  {body}\n" + dedent("""
          buffer_store %0, %9 {resource="out"}
          ret
        }
        """)
