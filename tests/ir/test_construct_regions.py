"""ConstructRegions (bit masks, inner regions reused) equals the plain walk it replaced: the
blocks reachable from a header's successors without passing its merge or the header."""

import textwrap
from pathlib import Path

import pytest

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.structure import ConstructRegions, nesting_depth
from shc.compiler.pipeline import Options, compile_file, compile_source

ROOT = Path(__file__).resolve().parents[2]

BREAKS_AND_CONTINUES = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(64, 1, 1)]
void main(uint tid : SV_GroupIndex) {
    uint s = 0;
    [loop] for (uint i = 0; i < o[0]; i++) {
        if (tid & 1) { if (i == 3) break; s += i; }
        else if (tid & 2) { [loop] for (uint j = 0; j < i; j++) { if (j == tid) continue; s += j; } }
        else { switch (i & 3) { case 0: s += 1; break; case 1: if (tid == 4) return; s += 2;
                                   default: s += 3; break; } }
        if (s > 100) { [loop] while (s > 50) { s -= 7; if (s == 60) break; } }
    }
    o[tid] = s;
}
"""


def naive_region(header):
    seen, stack = set(), list(header.successors)
    while stack:
        block = stack.pop()
        if block is header.merge or block in seen or block is header:
            continue
        seen.add(block)
        stack.extend(block.successors)
    return seen


def modules():
    yield "breaks", compile_source(BREAKS_AND_CONTINUES, "k.hlsl", Options(), Diagnostics())
    for path in sorted((ROOT / "samples").glob("*.hlsl")):
        yield path.name, compile_file(str(path), Options(), Diagnostics())
    chain = "  else ".join(f"if (a == {i}) o[1] = {i};\n" for i in range(300))
    source = "RWStructuredBuffer<uint> o;\n[numthreads(1, 1, 1)] void main() {\n uint a = o[0];\n " + chain + "}\n"
    yield "chain", compile_source(source, "chain.hlsl", Options(), Diagnostics())


@pytest.mark.parametrize("name, module", list(modules()), ids=lambda value: value if isinstance(value, str) else "")
def test_regions_equal_the_plain_walk(name, module):
    regions = ConstructRegions(module.function)
    headers = [b for b in module.function.blocks if b.kind is not None and b.merge is not None]
    assert headers
    for header in headers:
        assert regions.members(header) == naive_region(header), (name, header)
        assert regions.mask(header).bit_count() == len(naive_region(header))


def test_nesting_depth_counts_open_constructs():
    module = compile_source(textwrap.dedent(BREAKS_AND_CONTINUES), "k.hlsl", Options(), Diagnostics())
    assert nesting_depth(module.function) == 5  # loop > if > else-if > inner loop > if
