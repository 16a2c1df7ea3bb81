"""fp32 denormal flushing in the listing simulator, as the kernel's MODE register sets it.

D3D12 runs RDNA2 kernels with MODE.FP_DENORM flushing fp32 denormals (and keeping fp16/fp64
ones; the listing header says so): a VALU float instruction with f32 sources reads a
denormal source as a zero of its sign, and one with an f32 result writes a denormal as a
zero of its sign. Moves, ``cndmask``, lane reads and writes and the conversions
(``cvt_*``) keep the bits. ``v_ldexp_f32`` and ``v_cmp_class_f32`` flush their first source
only (the second is an integer).
"""

from __future__ import annotations

import re

import numpy as np

FLT_MIN_BITS = 0x00800000
_TYPE = re.compile(r"[fiub]\d+")
_FIRST_SOURCE_ONLY = ("ldexp", "cmp_class", "cmpx_class")


def roles(mnemonic: str, sources: list) -> tuple[list, bool]:
    """The source operands of ``mnemonic`` read as fp32 (flushed), and whether its result is fp32."""
    name = mnemonic[2:].removesuffix("_dpp").removesuffix("_e32").removesuffix("_e64")
    tokens = name.split("_")
    types = [token for token in tokens if _TYPE.fullmatch(token)]
    if not types or types[-1] != "f32" or tokens[0] == "cvt":
        return [], False
    flushed = sources[:1] if name.startswith(_FIRST_SOURCE_ONLY) else list(sources)
    return flushed, types[0] == "f32" and not tokens[0].startswith("cmp")


def flush(words: np.ndarray) -> np.ndarray:
    """fp32 bit patterns with each denormal replaced by the zero of its sign."""
    words = np.asarray(words, dtype=np.uint32)
    tiny = (words & np.uint32(0x7F800000)) == 0
    return np.where(tiny, words & np.uint32(0x80000000), words).astype(np.uint32)


def flushing(execute):
    """``execute(machine, inst)`` for a VALU instruction with the machine's ``vector`` flushing its
    fp32 sources and its ``write_v`` the fp32 result, as ``roles`` gives them."""

    def run(machine, inst) -> None:
        machine.flushed_sources, machine.flushed_result = roles(inst.mnemonic, inst.uses)
        try:
            execute(machine, inst)
        finally:
            machine.flushed_sources, machine.flushed_result = [], False

    return run
