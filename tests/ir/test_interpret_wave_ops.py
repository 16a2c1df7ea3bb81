"""The IR interpreter, wave intrinsics against the NumPy intrinsic model (wave32 and wave64),
also after LowerWaveOps / DppCombine, and waterfall loops."""

import os
import sys

import numpy as np
import pytest

from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.ir.verify import verify
from shc.compiler.machine import wavemodel as wm

sys.path.insert(0, os.path.dirname(__file__))
from interpret_helpers import WAVE_SIZES, exec_masks, intrinsic_kernel, module_of  # noqa: E402


# --------------------------------------------------------------------------------------
# Wave intrinsics against the intrinsic model
# --------------------------------------------------------------------------------------


def _inputs(in_type, wave_size, rng, small=False):
    if in_type == "float":
        return rng.uniform(0.9, 1.1, wave_size).astype(np.float32) if small else \
            rng.uniform(-100, 100, wave_size).astype(np.float32)
    if in_type == "bits":
        return (rng.random(wave_size) < 0.5).astype(np.uint32)
    high = 4 if small else 1 << 20
    return rng.integers(-high if in_type == "int" else 0, high, wave_size).astype(np.int32 if in_type == "int"
                                                                                   else np.uint32)


# (IR body, input type, output type, model(values, exec, aux))
INTRINSICS = {
    "WaveActiveSum": ('%9 = wave_active int %1 {fn="sum"}', "int", "int", lambda v, e, a: wm.wave_active("sum", v, e)),
    "WaveActiveProduct": ('%9 = wave_active int %1 {fn="product"}', "small", "int",
                          lambda v, e, a: wm.wave_active("product", v, e)),
    "WaveActiveMinFloat": ('%9 = wave_active float %1 {fn="min"}', "float", "float",
                           lambda v, e, a: wm.wave_active("min", v, e)),
    "WaveActiveMax": ('%9 = wave_active uint %1 {fn="max"}', "uint", "uint", lambda v, e, a: wm.wave_active("max", v, e)),
    "WaveActiveBitAnd": ('%9 = wave_active uint %1 {fn="and"}', "uint", "uint",
                         lambda v, e, a: wm.wave_active("and", v, e)),
    "WaveActiveBitOr": ('%9 = wave_active uint %1 {fn="or"}', "uint", "uint", lambda v, e, a: wm.wave_active("or", v, e)),
    "WaveActiveBitXor": ('%9 = wave_active uint %1 {fn="xor"}', "uint", "uint",
                         lambda v, e, a: wm.wave_active("xor", v, e)),
    "WavePrefixSum": ('%9 = wave_prefix float %1 {fn="sum"}', "float", "float",
                      lambda v, e, a: wm.wave_prefix("sum", v, e)),
    "WavePrefixProduct": ('%9 = wave_prefix int %1 {fn="product"}', "small", "int",
                          lambda v, e, a: wm.wave_prefix("product", v, e)),
    "WaveActiveBallot": ("%9 = wave_ballot uint4 %4", "bits", "uint4", lambda v, e, a: wm.wave_active_ballot(v != 0, e)),
    "WaveActiveCountBits": ("%9 = wave_count_bits uint %4", "bits", "uint",
                            lambda v, e, a: wm.wave_active_count_bits(v != 0, e)),
    "WavePrefixCountBits": ("%9 = wave_prefix_count_bits uint %4", "bits", "uint",
                            lambda v, e, a: wm.wave_prefix_count_bits(v != 0, e)),
    "WaveActiveAnyTrue": ("%9 = wave_any_true bool %4", "bits", "bool", lambda v, e, a: wm.wave_active_any_true(v != 0, e)),
    "WaveActiveAllTrue": ("%9 = wave_all_true bool %4", "bits", "bool", lambda v, e, a: wm.wave_active_all_true(v != 0, e)),
    "WaveActiveAllEqual": ("%9 = wave_all_equal bool %1", "bits", "bool",
                           lambda v, e, a: wm.wave_active_all_equal(v, e)),
    "WaveReadLaneAt": ("%9 = wave_read_lane_at float %1, %2", "float", "float",
                       lambda v, e, a: wm.wave_read_lane_at(v, e, a)),
    "WaveReadLaneFirst": ("%9 = wave_read_first int %1", "int", "int", lambda v, e, a: wm.wave_read_lane_first(v, e)),
    "WaveGetLaneIndex": ("%9 = wave_lane_index uint", "uint", "uint", lambda v, e, a: wm.wave_get_lane_index(e)),
    "WaveGetLaneCount": ("%9 = wave_lane_count uint", "uint", "uint", lambda v, e, a: wm.wave_get_lane_count(e)),
    "WaveIsFirstLane": ("%9 = wave_is_first_lane bool", "uint", "bool", lambda v, e, a: wm.wave_is_first_lane(e)),
    "QuadReadAcrossX": ("%9 = quad_read uint %1 {lanes=[1, 0, 3, 2]}", "uint", "uint",
                        lambda v, e, a: wm.quad_read_across_x(v, e)),
    "QuadReadAcrossY": ("%9 = quad_read int %1 {lanes=[2, 3, 0, 1]}", "int", "int",
                        lambda v, e, a: wm.quad_read_across_y(v, e)),
    "WaveActiveMinInt": ('%9 = wave_active int %1 {fn="min"}', "int", "int", lambda v, e, a: wm.wave_active("min", v, e)),
    "WaveReadLaneAtUniform": ("%8 = const uint {value=6}\n  %9 = wave_read_lane_at int %1, %8", "int", "int",
                              lambda v, e, a: wm.wave_read_lane_at(v, e, 6)),
    "QuadReadAcrossDiagonal": ("%9 = quad_read float %1 {lanes=[3, 2, 1, 0]}", "float", "float",
                               lambda v, e, a: wm.quad_read_across_diagonal(v, e)),
    "QuadReadLaneAt": ("%8 = const uint {value=2}\n  %9 = quad_read_lane_at int %1, %8", "int", "int",
                       lambda v, e, a: wm.quad_read_lane_at(v, e, 2)),
    "WaveShuffleXor": ("%8 = const uint {value=5}\n  %9 = wave_shuffle_xor uint %1, %8", "uint", "uint",
                       lambda v, e, a: wm.wave_shuffle_xor(v, e, 5)),
}
# bool is a 32-bit word in a buffer (D3D), so a bool buffer is a uint32 array
NUMPY_TYPES = {"int": np.int32, "uint": np.uint32, "float": np.float32, "bool": np.uint32, "uint4": np.uint32}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("intrinsic", INTRINSICS)
def test_wave_intrinsic_matches_the_model(wave_size, intrinsic):
    body, in_kind, out_type, model = INTRINSICS[intrinsic]
    in_type = {"small": "int", "bits": "uint"}.get(in_kind, in_kind)
    module = module_of(intrinsic_kernel(wave_size, body, in_type, out_type))
    rng = np.random.default_rng(7)
    for name, exec_mask in exec_masks(wave_size):
        values = _inputs(in_kind if in_kind != "small" else "int", wave_size, rng, small=in_kind == "small")
        values = values.astype(NUMPY_TYPES[in_type])
        aux = rng.integers(0, wave_size, wave_size).astype(np.uint32)
        out = np.zeros((wave_size, 4) if out_type == "uint4" else wave_size, NUMPY_TYPES[out_type])
        state = run_wave(module, wave_size, exec_mask, buffers={"inp": values, "aux": aux, "out": out})
        expected = model(values, exec_mask, aux)
        tolerance = {"rtol": 1e-6} if out_type == "float" else {}
        bad = wm.mismatched_lanes(state.buffers["out"], expected, **tolerance)
        assert len(bad) == 0, f"wave{wave_size} {name}: lanes {bad.tolist()}"
        assert (state.buffers["out"][~exec_mask] == 0).all()  # inactive lanes stored nothing


def test_vector_wave_op_runs_per_component():
    module = module_of(intrinsic_kernel(32, '%9 = wave_active float2 %5 {fn="max"}', "float2", "float2")
                       .replace("%4 = ne bool %1, %3", "%5 = shuffle float2 %1 {lanes=[1, 0]}"))
    rng = np.random.default_rng(3)
    values = rng.uniform(-5, 5, (32, 2)).astype(np.float32)
    exec_mask = rng.random(32) < 0.5
    state = run_wave(module, 32, exec_mask, buffers={"inp": values, "aux": np.zeros(32, np.uint32),
                                                     "out": np.zeros((32, 2), np.float32)})
    assert state.buffers["out"][exec_mask].tolist() == [[values[exec_mask, 1].max(), values[exec_mask, 0].max()]] \
        * int(exec_mask.sum())


# --------------------------------------------------------------------------------------
# The passes' output runs here too: wave-op lowering and waterfall loops
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("combine", [False, True])
def test_lowered_wave_ops_match_the_intrinsic_model(wave_size, combine):
    """Every intrinsic of INTRINSICS after LowerWaveOps (and DppCombine): the interpreter runs
    the primitive sequences and gets what the intrinsic model says."""
    from shc.compiler.passes.dead_code import DeadCode
    from shc.compiler.passes.dpp_combine import DppCombine
    from shc.compiler.passes.lower_wave_ops import LowerWaveOps

    rng = np.random.default_rng(5)
    for intrinsic, (body, in_kind, out_type, model) in INTRINSICS.items():
        in_type = {"small": "int", "bits": "uint"}.get(in_kind, in_kind)
        module = module_of(intrinsic_kernel(wave_size, body, in_type, out_type))
        LowerWaveOps(wave_size).run(module)
        if combine:
            DppCombine().run(module)
            DeadCode().run(module)
        verify(module.function)
        for name, exec_mask in exec_masks(wave_size):
            values = _inputs(in_kind if in_kind != "small" else "int", wave_size, rng, small=in_kind == "small")
            values = values.astype(NUMPY_TYPES[in_type])
            aux = rng.integers(0, wave_size, wave_size).astype(np.uint32)
            out = np.zeros((wave_size, 4) if out_type == "uint4" else wave_size, NUMPY_TYPES[out_type])
            state = run_wave(module, wave_size, exec_mask, buffers={"inp": values, "aux": aux, "out": out})
            tolerance = {"rtol": 1e-4, "atol": 1e-3} if out_type == "float" else {}
            bad = wm.mismatched_lanes(state.buffers["out"], model(values, exec_mask, aux), **tolerance)
            assert len(bad) == 0, f"{intrinsic} wave{wave_size} {name}: lanes {bad.tolist()}"


NON_UNIFORM = """
resource @tables[4] StructuredBuffer<uint> t0 space1
resource @pick RWStructuredBuffer<uint> u1 space0
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = buffer_load uint %0 {resource="pick"}
  %2 = non_uniform uint %1
  %3 = buffer_load uint %2, %0 {resource="tables"}
  %4 = const bool {value=true}
  %5 = wave_count_bits uint %4
  %6 = const uint {value=1000}
  %7 = mul uint %5, %6
  %8 = add uint %3, %7
  buffer_store %0, %8 {resource="out"}
  ret
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_waterfall_loop_gives_the_same_result_with_one_access_per_distinct_index(wave_size):
    from shc.compiler.passes.waterfall import Waterfall

    rng = np.random.default_rng(9)
    tables = [np.arange(64, dtype=np.uint32) + 100 * k for k in range(4)]
    pick = rng.integers(0, 3, wave_size).astype(np.uint32)  # tables 0..2 of 4
    exec_mask = rng.random(wave_size) < 0.7
    buffers = {"tables": tables, "pick": pick, "out": np.zeros(wave_size, np.uint32)}
    plain = run_wave(module_of(NON_UNIFORM), wave_size, exec_mask, buffers=buffers)
    module = module_of(NON_UNIFORM)
    Waterfall().run(module)
    verify(module.function)
    looped = run_wave(module, wave_size, exec_mask, buffers=buffers)
    assert looped.buffers["out"].tolist() == plain.buffers["out"].tolist()
    lanes = np.arange(wave_size)
    expected = np.where(exec_mask, pick * 100 + lanes + 1000 * exec_mask.sum(), 0)
    assert plain.buffers["out"].tolist() == expected.tolist()  # after the loop the wave has reconverged
    assert looped.stats.counts["vmem"] - plain.stats.counts["vmem"] == len(set(pick[exec_mask])) - 1
