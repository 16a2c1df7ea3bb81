"""Large but ordinary kernels compile in time linear in their size.

Each shape once cost quadratic time somewhere in the compiler (set-based dominators,
per-node subtree walks in lowering and in the unrolling rule). Each compiles to the
RDNA2 listing, and compiles and runs on the host JIT, in a child process with a fresh
cache and a 60 s timeout: a guard against a hang, not a benchmark.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

HEAD = """RWStructuredBuffer<uint> o : register(u0);
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
"""


def switch_source(n: int) -> str:
    cases = "".join(f"    case {i}: o[1] = {i * 3}; break;\n" for i in range(n))
    return HEAD + f"  switch (o[0]) {{\n{cases}    default: o[1] = 7; break;\n  }}\n}}\n"


def ternary_source(n: int) -> str:
    chain = "".join(f"a > {i} ? {i} : " for i in range(n)) + "12345"
    return HEAD + f"  uint a = o[0];\n  o[1] = {chain};\n}}\n"


def nested_for_source(n: int) -> str:
    loops = "".join(f"  for (uint i{i} = 0; i{i} < 1; i{i}++)\n" for i in range(n))
    return HEAD + "  uint a = o[0];\n" + loops + "    o[1] = a + 5;\n}\n"


def if_chain_source(n: int) -> str:
    chain = "  else ".join(f"if (a == {i}) o[1] = {i * 2};\n" for i in range(n))
    return HEAD + "  uint a = o[0];\n  " + chain + "  else o[1] = 9;\n}\n"


# LLVM's limits at the default level are what these kernels test (the suite runs at SHC_OPT=0).
pytestmark = pytest.mark.usefixtures("default_opt")

# (source for the listing, source for the JIT, [(o[0], expected o[1]), ...])
CASES = {
    "switch": (switch_source(1500), switch_source(1500), [(0, 0), (1, 3), (1499, 4497), (1500, 7)]),
    "ternary": (ternary_source(1000), ternary_source(1000), [(0, 12345), (1, 0), (500, 0), (2000, 0)]),
    # 127 loops and the statement inside: the deepest nesting the front end accepts (128).
    "nested_for": (nested_for_source(127), nested_for_source(127), [(0, 5), (10, 15)]),
    # LLVM's SimplifyCFG aborted the process (an assertion after 1,000 rounds) on an else-if
    # chain of ~500 links at O2: deeply nested kernels take jit.optimize's short pipeline.
    "if_chain": (if_chain_source(1000), if_chain_source(1000), [(0, 0), (7, 14), (999, 1998), (1000, 9)]),
}

CHILD = textwrap.dedent("""
    import sys
    import numpy as np
    import shc
    source, inputs = sys.stdin.read(), eval(sys.argv[1])
    kernel = shc.compile(source)
    for value in inputs:
        data = np.array([value, 0xDEAD], dtype=np.uint32)
        kernel.dispatch((1, 1, 1), o=data)
        print(int(data[1]))
""")


@pytest.mark.parametrize("shape", list(CASES))
def test_large_kernel_compiles_to_rdna2(shape, tmp_path):
    source = tmp_path / f"{shape}.hlsl"
    source.write_text(CASES[shape][0])
    shc = Path(sys.executable).parent / "shc"
    result = subprocess.run([str(shc), "compile", str(source), "--target", "rdna2"], text=True,
                            capture_output=True, timeout=60, env={**os.environ, "SHC_CACHE_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "s_endpgm" in result.stdout


@pytest.mark.parametrize("shape", list(CASES))
def test_large_kernel_compiles_and_runs(shape, tmp_path):
    _, source, checks = CASES[shape]
    inputs = [value for value, _ in checks]
    result = subprocess.run([sys.executable, "-c", CHILD, repr(inputs)], input=source, text=True,
                            capture_output=True, timeout=60, env={**os.environ, "SHC_CACHE_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert [int(line) for line in result.stdout.split()] == [expected for _, expected in checks]


# The sizes the reliability review reported (a 3,000-case switch took 17 s and 1.2 GB,
# 2,000 nested ?: 17.6 s; a 2,000-link else-if chain reached LLVM's SimplifyCFG abort):
# each compiles and runs right through the host JIT, in a child with a 120 s guard.
REPORTED = {
    "switch_3000": (switch_source(3000), [(0, 0), (2999, 8997), (3000, 7)]),
    "ternary_2000": (ternary_source(2000), [(0, 12345), (1, 0), (1999, 0)]),
    "if_chain_2000": (if_chain_source(2000), [(0, 0), (1999, 3998), (2000, 9)]),
}


@pytest.mark.parametrize("shape", list(REPORTED))
def test_the_reported_sizes_compile_and_run(shape, tmp_path):
    source, checks = REPORTED[shape]
    inputs = [value for value, _ in checks]
    result = subprocess.run([sys.executable, "-c", CHILD, repr(inputs)], input=source, text=True,
                            capture_output=True, timeout=120, env={**os.environ, "SHC_CACHE_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert [int(line) for line in result.stdout.split()] == [expected for _, expected in checks]


def test_deep_kernels_take_the_short_llvm_pipeline_and_shallow_ones_o2():
    """The nesting the host JIT measures decides its LLVM pipeline (jit.optimize)."""
    import sys as _sys

    from shc.compiler.backend.host.jit import MAX_O2_NESTING
    from shc.compiler.diagnostics import Diagnostics
    from shc.compiler.ir.structure import nesting_depth
    from shc.compiler.pipeline import Options, compile_source

    limit = _sys.getrecursionlimit()
    _sys.setrecursionlimit(10_000)
    try:
        deep = compile_source(if_chain_source(600), "chain.hlsl", Options(), Diagnostics())
        nested = compile_source(nested_for_source(5), "loops.hlsl", Options(), Diagnostics())
        flat = compile_source(switch_source(50), "switch.hlsl", Options(), Diagnostics())
    finally:
        _sys.setrecursionlimit(limit)
    assert nesting_depth(deep.function) >= 600 > MAX_O2_NESTING
    assert nesting_depth(nested.function) == 5
    assert nesting_depth(flat.function) == 1
