"""Unrolling during AST lowering (compiler/ir/lower_unroll.py): golden IR of unrolled loops whose
arrays stay in SSA values, the rule for what unrolls, the values unrolled loops compute on the
IR interpreter, and the occupancy pair's register report."""

from pathlib import Path
from textwrap import dedent

import numpy as np
import pytest

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.lower.from_ast import lower
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.ir.printer import print_module
from shc.compiler.pipeline import Options, check_source, compile_file
from shc.compiler.report import build_report

ROOT = Path(__file__).resolve().parents[2]


def lower_with_warnings(source: str, wave_size: int = 32):
    diagnostics = Diagnostics()
    program = check_source(dedent(source), "kernel.hlsl", Options(), diagnostics)
    module = lower(program, wave_size, diagnostics)
    assert diagnostics.error_count == 0, diagnostics.render()
    warnings = [item.message for item in diagnostics.items if item.severity == "warning"]
    return module, warnings


def loops(module) -> int:
    return sum(block.kind == "loop" for block in module.function.blocks)


UNROLLED = """
RWStructuredBuffer<float> result;
static const float kTable[4] = { 1, 2, 4, 8 };
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float acc[4];
    for (int k = 0; k < 4; ++k)         // no attribute, but it indexes a local array: unrolled
        acc[k] = result[i + k] * kTable[k];
    float total = 0;
    [unroll] for (uint j = 3; j < 4; j--)   // 3, 2, 1, 0, then uint wraps around
        total += acc[j];
    result[i] = total;
}
"""


def test_unrolled_loops_keep_the_array_in_ssa_values_and_fold_the_table():
    module, warnings = lower_with_warnings(UNROLLED)
    assert warnings == [] and module.scratch_bytes == 0
    assert print_module(module, show_coords=False).strip() == dedent("""
        resource @result RWStructuredBuffer<float> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const float {value=1.0}
          %2 = const float {value=2.0}
          %3 = const float {value=4.0}
          %4 = const float {value=8.0}
          %5 = const float {value=0.0}
          %6 = const uint {value=0}
          %7 = const uint {value=1}
          %8 = const uint {value=2}
          %9 = const uint {value=3}
          %10 = add uint %0, %6
          %11 = buffer_load float %10 {resource="result"}
          %12 = mul float %11, %1
          %13 = add uint %0, %7
          %14 = buffer_load float %13 {resource="result"}
          %15 = mul float %14, %2
          %16 = add uint %0, %8
          %17 = buffer_load float %16 {resource="result"}
          %18 = mul float %17, %3
          %19 = add uint %0, %9
          %20 = buffer_load float %19 {resource="result"}
          %21 = mul float %20, %4
          %22 = add float %5, %21
          %23 = add float %22, %18
          %24 = add float %23, %15
          %25 = add float %24, %12
          buffer_store %0, %25 {resource="result"}
          ret
        }
    """).strip()


def kernel(loop: str, declarations: str = "float table[64];") -> str:
    return f"""
    RWStructuredBuffer<float> result;
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {{
        {declarations}
        float total = 0;
        {loop}
        result[i] = total;
    }}
    """


@pytest.mark.parametrize("loop, unrolled, warning", [
    ("[unroll] for (int k = 0; k < 4; ++k) total += result[k];", True, None),
    ("for (int k = 0; k < 4; ++k) total += result[k];", False, None),  # no array: left alone
    ("for (int k = 0; k < 8; ++k) { table[k] = k; total += table[k]; }", True, None),
    ("for (int k = 0; k < 64; ++k) { table[k] = k; total += table[k]; }", False, None),  # > 32 trips
    ("[loop] for (int k = 0; k < 8; ++k) { table[k] = k; total += table[k]; }", False, None),
    ("[unroll(4)] for (int k = 0; k < 4; ++k) total += result[k];", True, None),
    ("[unroll(2)] for (int k = 0; k < 4; ++k) total += result[k];", False, "more than 2 iterations"),
    ("[unroll] for (int k = 0; k < 300; ++k) total += result[k];", False, "more than 256 iterations"),
    ("[unroll] for (int k = 0; k < 4; ++k) { if (total > 3) break; total += result[k]; }", False,
     "the body returns, or breaks or continues the loop"),
    ("[unroll] for (int k = 0; k < 4; ++k) { switch (k) { case 1: break; default: total += 1; } }", True,
     None),  # that break leaves the switch
    ("[unroll] for (int k = 0; k < 4; ++k) { k += 1; total += k; }", False, "the body writes the counter"),
    ("[unroll] for (int k = 0; k < i; ++k) total += result[k];", False,
     "the condition is not a constant expression of the counter"),
    ("[unroll] for (int k = 0; k < 4; k += int(i)) total += result[k];", False,
     "the step is not a constant update of the counter"),
    ("[unroll] for (float f = 0; f < 4; f += 1) total += f;", False,
     "the loop does not declare one integer counter in its init"),
    ("[unroll] while (total < 4) total += 1;", False, "shc unrolls only counted for loops"),
])
def test_what_unrolls(loop, unrolled, warning):
    module, warnings = lower_with_warnings(kernel(loop))
    assert (loops(module) == 0) == unrolled
    assert warnings == ([f"loop marked [unroll] is not unrolled: {warning}"] if warning else [])
    if "table[k]" in loop:
        assert (module.scratch_bytes == 0) == unrolled  # the array goes to scratch only if it stays a loop


def test_the_unrolled_size_is_capped_counting_nested_loops_unrolled():
    inner = "[unroll] for (int b = 0; b < 200; ++b) total += result[a + b] * result[b] + result[a] * 2;"
    module, warnings = lower_with_warnings(kernel(f"[unroll] for (int a = 0; a < 200; ++a) {{ {inner} }}"))
    assert loops(module) == 1  # the inner loop unrolls; 200 copies of it would be too many
    assert warnings == ["loop marked [unroll] is not unrolled: the unrolled body would have more than "
                        "16384 AST nodes"]


COUNTERS = """
RWStructuredBuffer<uint> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    uint total = 0;
    uint squares[8];
    for (uint k = 1; k <= 8; k <<= 1)           // 1, 2, 4, 8
        squares[k - 1] = k * k;
    for (int a = 0; a < 4; a++)                 // a triangle: the inner bound is the outer counter
        for (int b = a; b < 4; b += 2)
            total += squares[b + a] * (uint)(10 * a + b + 1) + i;
    [unroll] for (int d = 6; d > -6; d -= 5)    // 6, 1, -4
        total = total * 3 + (uint)(d + 7);
    const int last = 7;
    [unroll(8)] for (int e = last; e >= 0; --e)
        total ^= (i << e);
    result[i] = total;
}
"""


@pytest.mark.parametrize("wave_size", [32, 64])
def test_unrolled_counters_take_the_values_the_loops_would(wave_size):
    def expected(i):
        squares = [0] * 8
        k = 1
        while k <= 8:
            squares[k - 1] = k * k
            k <<= 1
        total = 0
        for a in range(4):
            for b in range(a, 4, 2):
                total += squares[b + a] * (10 * a + b + 1) + i
        for d in (6, 1, -4):
            total = total * 3 + d + 7
        for e in range(7, -1, -1):
            total ^= i << e
        return total & 0xFFFFFFFF

    module, warnings = lower_with_warnings(COUNTERS, wave_size)
    assert warnings == [] and loops(module) == 0 and module.scratch_bytes == 0
    result = run_wave(module, buffers={"result": np.zeros(wave_size, np.uint32)}).buffers["result"]
    assert result.tolist() == [expected(i) for i in range(wave_size)]


def test_a_counter_read_after_the_loop_has_its_final_value():
    source = """
    RWStructuredBuffer<int> result;
    [numthreads(1, 1, 1)]
    void main()
    {
        int total = 0;
        int k = 100;
        [unroll] for (k = 0; k < 3; ++k)    // not a declaration: left a loop, and warned about
            total += k;
        [unroll] for (int j = 0; j < 5; j += 2)
            total += j * 10;
        result[0] = total + k;
    }
    """
    module, warnings = lower_with_warnings(source)
    assert loops(module) == 1 and len(warnings) == 1
    assert run_wave(module, buffers={"result": np.zeros(1, np.int32)}).buffers["result"][0] == 3 + 60 + 3


# ------------------------------------------------------------ the occupancy pair

PAIR = [ROOT / "samples" / "occupancy_heavy.hlsl", ROOT / "samples" / "occupancy_light.hlsl"]


def test_the_occupancy_pair_reports_the_step():
    """Unrolled, the heavy kernel keeps its 16 float4 taps in VGPRs (no scratch). In wave32
    the scheduler interleaves the blur and the min/max with the loads until it fits the 64
    VGPRs of 16 waves; in wave64 that step (32 VGPRs) is out of reach, the next one (8 waves,
    64 VGPRs) is too, and it gets 7. The light kernel runs 16 waves per SIMD in both."""
    heavy, light = (build_report(path.read_text(), str(path), Options(), Diagnostics(), llvm=False)
                    for path in PAIR)
    for size in (32, 64):
        h, l = heavy.waves[size].listing, light.waves[size].listing
        assert h.scratch_bytes == l.scratch_bytes == 0
        assert h.vgprs > 48 > 32 >= l.vgprs
        assert l.occupancy == 16
    assert heavy.waves[32].listing.occupancy == 16 and heavy.waves[32].listing.vgprs <= 64
    h64 = heavy.waves[64].listing
    assert h64.limiter == "vgprs" and h64.occupancy == 512 // h64.vgprs_allocated == 7


@pytest.mark.parametrize("wave_size", [32, 64])
def test_the_occupancy_pair_computes_the_same_bits(wave_size):
    rng = np.random.default_rng(5)
    data = rng.standard_normal((48, 4)).astype(np.float32)
    outputs = []
    for path in PAIR:
        module = compile_file(str(path), Options(wave_size=wave_size, verify=True), Diagnostics())
        count, sharpness = 40, 0.75
        cbuffer = np.array([count], np.uint32).tobytes() + np.array([sharpness], np.float32).tobytes()
        state = run_wave(module, wave_size, buffers={"input": data, "output": np.zeros((48, 4), np.float32)},
                         cbuffers={"filterConstants": cbuffer})
        outputs.append(state.buffers["output"])
    heavy, light = outputs
    assert np.array_equal(heavy.view(np.uint32), light.view(np.uint32))
    lanes = min(wave_size, 40)
    assert np.any(heavy[:lanes] != 0) and np.all(heavy[lanes:] == 0)
