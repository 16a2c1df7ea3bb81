"""The host JIT, lanes talking to each other: the lane-exchange primitives (IR text)
under full, partial and random exec masks, and the HLSL wave intrinsics.

The harness (host_helpers.py) runs one group on the JIT; expected results come from the IR
interpreter run wave after wave, or from NumPy where the interpreter does not model it.
"""

from __future__ import annotations

import os
import sys
from textwrap import dedent

import numpy as np
import pytest

pytest.importorskip("llvmlite.binding")

from shc.compiler.backend.host.module import build_host_module  # noqa: E402
from shc.compiler.diagnostics import Diagnostics  # noqa: E402
from shc.compiler.ir.interpret.run import run_wave  # noqa: E402
from shc.compiler.ir.reader import read_module  # noqa: E402
from shc.compiler.pipeline import Options  # noqa: E402
from shc.compiler.machine.abi import Status  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import WAVE_SIZES, Group, assert_same, compile_hlsl, run_both  # noqa: E402


# ---------------------------------------------------------------------------------------
# lane-exchange primitives (IR text), under full, partial and random exec masks
# ---------------------------------------------------------------------------------------


def primitive_kernel(wave_size: int, body: str) -> str:
    """In a selection on ``mask[i] != 0``: %1 = inp[i] (int), %2 = aux[i] (uint), %5 = -1; the
    body defines %9 (int), stored for every lane (wwm) so the whole register is compared."""
    return dedent(f"""
        resource @inp RWStructuredBuffer<int> u0 space0
        resource @aux RWStructuredBuffer<uint> u1 space0
        resource @mask RWStructuredBuffer<uint> u2 space0
        resource @result RWStructuredBuffer<int> u3 space0
        func @main numthreads({wave_size}, 1, 1) wave{wave_size} {{
        ^entry:
          %0 = thread_input uint {{which="group_index"}}
          %1 = buffer_load int %0 {{resource="inp"}}
          %2 = buffer_load uint %0 {{resource="aux"}}
          %3 = buffer_load uint %0 {{resource="mask"}}
          %4 = const uint {{value=0}}
          %5 = const int {{value=-1}}
          %6 = ne bool %3, %4
          selection ^end
          cond_br %6, ^body, ^end
        ^body:
        """) + "".join(f"  {line}\n" for line in body.strip().splitlines()) + dedent("""
          buffer_store %0, %9 {resource="result", wwm=true}
          br ^end
        ^end:
          ret
        }
        """)


def _dpp(ctrl, bound=False, row=15, bank=15, fi=False):
    return (f'%9 = dpp16 int %1, %5 {{bank_mask={bank}, bound_ctrl={str(bound).lower()}, ctrl="{ctrl}", '
            f'row_mask={row}, fetch_inactive={str(fi).lower()}}}')


PRIMITIVES = {
    "quad_perm": _dpp("quad_perm:[1,0,3,2]"),
    "quad_perm bound_ctrl": _dpp("quad_perm:[3,3,3,3]", bound=True),
    "row_shl": _dpp("row_shl:1"),
    "row_shr bank_mask": _dpp("row_shr:3", bank=14),
    "row_ror row_mask": _dpp("row_ror:5", row=5),
    "row_mirror fetch_inactive": _dpp("row_mirror", fi=True),
    "row_half_mirror": _dpp("row_half_mirror", bound=True),
    "row_share": _dpp("row_share:3"),
    "row_xmask": _dpp("row_xmask:5", bound=True),
    "dpp8": "%9 = dpp8 int %1, %5 {selects=[7, 6, 5, 4, 3, 2, 1, 0]}",
    "dpp8 fetch_inactive": "%9 = dpp8 int %1, %5 {selects=[1, 1, 0, 3, 2, 7, 6, 5], fetch_inactive=true}",
    "permlanex16": "%9 = permlanex16 int %1, %5 {selects=[15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]}",
    "permlanex16 fi bound_ctrl": "%9 = permlanex16 int %1, %5 {selects=[3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, "
                                 "9, 7, 9, 3], fetch_inactive=true, bound_ctrl=true}",
    "ds_swizzle quad": "%9 = ds_swizzle int %1, %5 {offset=32795}",  # swizzle(QUAD_PERM, 3, 2, 1, 0)
    "ds_swizzle bitmask": "%9 = ds_swizzle int %1, %5 {offset=1055}",  # and 0x1f, xor 1
    "ds_bpermute": "%7 = const uint {value=2}\n%8 = shl uint %2, %7\n%9 = ds_bpermute int %1, %5, %8",
    "ds_bpermute offset": "%7 = const uint {value=2}\n%8 = shl uint %2, %7\n"
                          "%9 = ds_bpermute int %1, %5, %8 {offset=12}",
    "lds_exchange": "%9 = lds_exchange int %1, %5, %2",
    "readlane": "%7 = const uint {value=5}\n%9 = readlane int %1, %7",
    "readlane divergent lane": "%9 = readlane int %1, %2",
    "readfirstlane": "%9 = readfirstlane int %1",
    "writelane": "%7 = const uint {value=9}\n%8 = const int {value=77}\n%9 = writelane int %1, %8, %7",
    "set_inactive": "%8 = set_inactive int %1, %5\n%9 = add int %8, %8 {wwm=true}",
    "ballot_mask": "%7 = gt bool %1, %5\n%8 = ballot_mask MASK %7\n%10 = const MASK {value=2863311530}\n"
                   "%11 = xor MASK %8, %10\n%12 = convert uint %11\n%9 = bitcast int %12",
    "mbcnt": "%7 = const MASK {value=3735928559}\n%8 = mbcnt uint %7, %2\n%9 = bitcast int %8",
    "mbcnt exec": "%7 = const bool {value=true}\n%10 = ballot_mask MASK %7\n%8 = mbcnt uint %10, %4\n"
                  "%9 = bitcast int %8",
    "bcnt": "%7 = lt bool %2, %3\n%8 = ballot_mask MASK %7\n%10 = bcnt uint %8\n%9 = bitcast int %10",
    "dpp add": '%7 = bitcast int %2\n%9 = add int %1, %7 {dpp="row_shr:1", row_mask=15, bank_mask=15, '
               'bound_ctrl=false}',
    "dpp add row_mask": '%7 = bitcast int %2\n%9 = add int %1, %7 {dpp="quad_perm:[2,3,0,1]", row_mask=6, '
                        'bank_mask=15, bound_ctrl=true}',
    "dpp add wwm": '%7 = bitcast int %2 {wwm=true}\n%9 = add int %1, %7 {dpp="row_mirror", row_mask=15, bank_mask=15, '
                   'bound_ctrl=true, wwm=true}',
}


ACTIVE_LANES_ONLY = {"mbcnt", "mbcnt exec", "dpp add", "dpp add row_mask"}


def exec_masks(wave_size: int):
    lanes = np.arange(wave_size)
    rng = np.random.default_rng(wave_size)
    yield "full", np.ones(wave_size, np.uint32)
    yield "every-third-off", (lanes % 3 != 2).astype(np.uint32)
    yield "random", (rng.random(wave_size) < 0.6).astype(np.uint32)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("primitive", list(PRIMITIVES))
def test_lane_exchange_primitive_matches_interpreter(wave_size, primitive):
    mask_type = "uint" if wave_size == 32 else "uint64_t"
    module = read_module(primitive_kernel(wave_size, PRIMITIVES[primitive].replace("MASK", mask_type)))
    group = Group(build_host_module(module))
    rng = np.random.default_rng(11)
    for name, mask in exec_masks(wave_size):
        inputs = {"inp": rng.integers(-1000, 1000, wave_size).astype(np.int32),
                  "aux": rng.integers(0, wave_size, wave_size).astype(np.uint32), "mask": mask,
                  "result": np.full(wave_size, 12345, np.int32)}
        expected = run_wave(module, wave_size, buffers={k: v.copy() for k, v in inputs.items()}).buffers
        assert group.run(inputs) == Status.DONE
        # a VALU result leaves inactive lanes undefined (the interpreter shows 0): compare the
        # active lanes; lane exchanges define the whole register
        lanes = mask != 0 if primitive in ACTIVE_LANES_ONLY else slice(None)
        np.testing.assert_array_equal(inputs["result"][lanes], expected["result"][lanes],
                                      err_msg=f"{primitive}, {name} mask")


# ---------------------------------------------------------------------------------------
# HLSL wave intrinsics: lowered to primitives (the pipeline) and as written
# ---------------------------------------------------------------------------------------

WAVE_OPS = """
StructuredBuffer<uint> mask : register(t0);
StructuredBuffer<float> values : register(t1);
RWStructuredBuffer<uint4> ints : register(u0);
RWStructuredBuffer<float4> floats : register(u1);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float v = values[i];
    uint u = (uint)(v * 7.0) & 255;
    if (mask[i] != 0) {
        uint4 ballot = WaveActiveBallot(u > 100);
        ints[i] = uint4(WaveActiveSum(u), WavePrefixSum(u), WaveActiveMax(u), WaveActiveBitXor(u));
        ints[i + NT] = uint4(ballot.x ^ ballot.y, WaveActiveCountBits(u > 50), WavePrefixCountBits(u & 1),
                             WaveGetLaneIndex() + (WaveIsFirstLane() ? 1000u : 0u));
        ints[i + 2 * NT] = uint4(WaveReadLaneFirst(u), WaveReadLaneAt(u, 3), WaveActiveMin(u),
                                 (WaveActiveAnyTrue(u == 7) ? 1u : 0u) + (WaveActiveAllTrue(u < 255) ? 2u : 0u));
        floats[i] = float4(WaveActiveSum(v), WavePrefixSum(v), WaveActiveMin(v), WaveActiveProduct(v * 0.01 + 1));
        floats[i + NT] = float4(QuadReadAcrossX(v), QuadReadAcrossY(v), QuadReadAcrossDiagonal(v),
                                QuadReadLaneAt(v, 2));
        floats[i + 2 * NT] = float4(WaveReadLaneAt(v, (WaveGetLaneIndex() & ~3) | 1), WaveReadLaneAt(v, u % 5),
                                    WaveActiveAllEqual(u & 0) ? 1.0 : 0.0, WavePrefixProduct(v * 0.01 + 1));
    }
}
"""


def _wave_inputs(threads: int, rng):
    return {"mask": (rng.random(threads) < 0.7).astype(np.uint32),
            "values": rng.uniform(0, 40, threads).astype(np.float32),
            "ints": np.zeros((3 * threads, 4), np.uint32), "floats": np.zeros((3 * threads, 4), np.float32)}


def compile_unlowered(source: str, wave_size: int):
    """The pipeline without wave-op lowering: the JIT meets the HLSL intrinsics themselves."""
    from shc.compiler.pipeline import check_source, lower_program, run_passes
    from shc.compiler.passes.constant_fold import ConstantFold
    from shc.compiler.passes.dead_code import DeadCode
    from shc.compiler.passes.uniformity import Uniformity
    options, diagnostics = Options(wave_size=wave_size), Diagnostics()
    module = lower_program(check_source(dedent(source), "test.hlsl", options, diagnostics), options, diagnostics)
    return run_passes(module, [ConstantFold(), DeadCode(), Uniformity()], options, diagnostics)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("lowered", [True, False], ids=["lowered", "as-written"])
def test_wave_intrinsics_match_interpreter(wave_size, lowered):
    threads = 2 * wave_size - 8  # a partial last wave too
    source = WAVE_OPS.replace("NT", str(threads))
    module = compile_hlsl(source, wave_size) if lowered else compile_unlowered(source, wave_size)
    inputs = _wave_inputs(threads, np.random.default_rng(wave_size))
    actual, expected, _ = run_both(source, wave_size, inputs, module=module)
    assert_same(actual, expected)


PARTITION_OPS = """
StructuredBuffer<uint> mask : register(t0);
StructuredBuffer<float> values : register(t1);
RWStructuredBuffer<uint4> ints : register(u0);
RWStructuredBuffer<float4> floats : register(u1);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float v = values[i];
    uint u = (uint)(v * 7.0) & 255;
    if (mask[i] != 0) {
        uint4 m = WaveMatch(u % 3);
        uint4 mv = WaveMatch(float2(v > 20.0 ? 0.0 : -0.0, (float)(u & 1)));
        ints[i] = m;
        ints[i + NT] = mv;
        ints[i + 2 * NT] = uint4(WaveMultiPrefixSum(u, m), WaveMultiPrefixCountBits(u > 100, m),
                                 WaveMultiPrefixBitAnd(u | 16, mv) ^ WaveMultiPrefixBitOr(u, m),
                                 WaveMultiPrefixBitXor(u * 77, mv));
        floats[i] = float4(WaveMultiPrefixSum(v, mv), WaveMultiPrefixProduct(v * 0.01 + 1, m),
                           WaveMultiPrefixSum(float2(v, -v), m));
    }
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("lowered", [True, False], ids=["lowered", "as-written"])
def test_partition_intrinsics_match_interpreter(wave_size, lowered):
    """WaveMatch and WaveMultiPrefix*: the JIT (readlanes, or the intrinsics as written) equals
    the interpreter, bit for bit, with a partial last wave and divergent lanes."""
    threads = 2 * wave_size - 8
    source = PARTITION_OPS.replace("NT", str(threads))
    module = compile_hlsl(source, wave_size) if lowered else compile_unlowered(source, wave_size)
    inputs = _wave_inputs(threads, np.random.default_rng(wave_size + 1))
    inputs["ints"] = np.zeros((3 * threads, 4), np.uint32)
    inputs["floats"] = np.zeros((threads, 4), np.float32)
    actual, expected, _ = run_both(source, wave_size, inputs, module=module)
    assert_same(actual, expected)
    assert np.count_nonzero(expected["ints"][:threads]) > threads // 2  # masks were computed


INTEGER_SCANS = """
StructuredBuffer<uint> mask : register(t0);
RWStructuredBuffer<uint64_t> wide : register(u0);
RWStructuredBuffer<int4> ints : register(u1);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    if (mask[i] != 0) {
        uint64_t big = (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull;
        wide[i * 2] = WavePrefixSum(big);                  // the sums wrap
        wide[i * 2 + 1] = WavePrefixProduct(big | 1);
        int s = (int)((i + 1) * 2654435761u);
        ints[i] = int4(WavePrefixSum(s), WavePrefixProduct(s | 1), WaveActiveMin(s), WaveActiveSum(s));
    }
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_integer_scans_and_reductions_skip_the_lane_loop(wave_size):
    """Integer prefixes and reductions give the same bits in any grouping: the JIT scans in
    log2(W) shifted steps and reduces without compressing the active lanes first (floats keep
    the loop and the compression: their sums round)."""
    threads = 2 * wave_size - 8
    source = INTEGER_SCANS.replace("NT", str(threads))
    module = compile_unlowered(source, wave_size)
    inputs = {"mask": (np.random.default_rng(wave_size).random(threads) < 0.7).astype(np.uint32),
              "wide": np.zeros(2 * threads, np.uint64), "ints": np.zeros((threads, 4), np.int32)}
    actual, expected, _ = run_both(source, wave_size, inputs, module=module)
    assert_same(actual, expected)
    on = inputs["mask"][:wave_size] != 0
    big = (np.arange(wave_size, dtype=np.uint64) + 1) * np.uint64(0x9E3779B97F4A7C15)
    sums = np.cumsum(np.where(on, big, 0), dtype=np.uint64) - np.where(on, big, 0)
    assert actual["wide"][0:2 * wave_size:2][on].tolist() == sums[on].tolist()
    llvm_ir = build_host_module(module).llvm_ir
    assert "compressstore" not in llvm_ir and "scan.lane" not in llvm_ir
