"""The IR interpreter, lane-exchange primitives (DPP, permlane, ds_swizzle, ds_bpermute,
readlane/writelane, WWM) against the NumPy models of compiler/machine/wavemodel.py."""

import os
import sys

import numpy as np
import pytest

from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.machine import wavemodel as wm

sys.path.insert(0, os.path.dirname(__file__))
from interpret_helpers import WAVE_SIZES, exec_masks, intrinsic_kernel, module_of, without  # noqa: E402


# --------------------------------------------------------------------------------------
# Primitives
# --------------------------------------------------------------------------------------


def primitive_kernel(wave_size: int, body: str) -> str:
    """%1 = inp[i] (int), %5 = a marker -1 as the old value; the body defines %9."""
    return intrinsic_kernel(wave_size, "%5 = const int {value=-1}\n  " + body, "int", "int")


def run_primitive(body, wave_size, exec_mask, aux=None):
    module = module_of(primitive_kernel(wave_size, body))
    values = np.arange(100, 100 + wave_size, dtype=np.int32)
    aux = np.zeros(wave_size, np.uint32) if aux is None else aux.astype(np.uint32)
    state = run_wave(module, wave_size, exec_mask, buffers={"inp": values, "aux": aux,
                                                            "out": np.zeros(wave_size, np.int32)})
    return state, values, state.value(module.function.blocks[0].insts[-3])


@pytest.mark.parametrize("bound_ctrl", [False, True])
def test_dpp16_quad_perm_with_and_without_bound_ctrl(bound_ctrl):
    exec_mask = without(32, 1, 6)
    body = (f'%9 = dpp16 int %1, %5 {{bank_mask=15, bound_ctrl={str(bound_ctrl).lower()}, '
            f'ctrl="quad_perm:[1,0,3,2]", row_mask=15}}')
    state, values, register = run_primitive(body, 32, exec_mask)
    expected = wm.dpp16(values, np.full(32, -1, np.int32), exec_mask, wm.quad_perm(1, 0, 3, 2),
                        bound_ctrl=bound_ctrl)
    assert register.tolist() == expected.tolist()
    assert register[0] == (0 if bound_ctrl else -1)  # lane 0 reads inactive lane 1
    assert register[1] == -1  # an inactive lane keeps old


def test_ds_bpermute_does_not_cross_halves_in_wave64():
    exec_mask = without(64, 5)
    sources = (np.arange(64) + 40) % 64  # lanes 0..23 ask for lanes 40..63
    state, values, register = run_primitive("%9 = ds_bpermute int %1, %5, %2", 64, exec_mask, sources * 4)
    lanes = np.arange(64)
    expected = wm.ds_bpermute_b32(values, np.full(64, -1, np.int32), exec_mask, sources * 4)
    assert register.tolist() == expected.tolist()
    reached = lanes - lanes % 32 + sources % 32
    assert register[0] == values[reached[0]] == values[8]  # stays in the lower half
    assert register[29] == 0  # lane 29 asks for lane 5 (inactive): 0


OLD = np.int32(-1)
# (IR body, the model on (values, old, exec, aux)); %1 is inp[i], %5 the old register (-1), %2 aux[i]
PRIMITIVES = {
    "dpp16 row_shr bank_mask": ('%9 = dpp16 int %1, %5 {bank_mask=14, bound_ctrl=false, ctrl="row_shr:4", '
                                'row_mask=15}',
                                lambda v, o, e, a: wm.dpp16(v, o, e, wm.row_shr(4), bank_mask=0xE)),
    "dpp16 row_share": ('%9 = dpp16 int %1, %5 {bound_ctrl=true, ctrl="row_share:3"}',
                        lambda v, o, e, a: wm.dpp16(v, o, e, wm.row_share(3), bound_ctrl=True)),
    "dpp8": ("%9 = dpp8 int %1, %5 {selects=[7, 6, 5, 4, 3, 2, 1, 0]}",
             lambda v, o, e, a: wm.dpp8(v, o, e, (7, 6, 5, 4, 3, 2, 1, 0))),
    "dpp8 fi": ("%9 = dpp8 int %1, %5 {fetch_inactive=true, selects=[1, 1, 1, 1, 1, 1, 1, 1]}",
                lambda v, o, e, a: wm.dpp8(v, o, e, (1,) * 8, fetch_inactive=True)),
    "permlanex16": ("%9 = permlanex16 int %1, %5 {selects=[15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]}",
                    lambda v, o, e, a: wm.v_permlanex16_b32(v, o, e, tuple(range(15, -1, -1)))),
    "ds_swizzle": (f"%9 = ds_swizzle int %1, %5 {{offset={wm.swizzle_bitmask_offset(0x1F, 0, 0x3)}}}",
                   lambda v, o, e, a: wm.ds_swizzle_b32(v, o, e, wm.swizzle_bitmask_offset(0x1F, 0, 0x3))),
    "lds_exchange": ("%9 = lds_exchange int %1, %5, %2",
                     lambda v, o, e, a: wm.lds_round_trip(v, o, e, a)),
    "writelane": ("%6 = const uint {value=9}\n  %7 = const int {value=77}\n  %9 = writelane int %1, %7, %6",
                  lambda v, o, e, a: wm.v_writelane_b32(v, 77, 9)),
    "set_inactive": ("%7 = const int {value=55}\n  %9 = set_inactive int %1, %7",
                     lambda v, o, e, a: np.where(e, v, 55)),
    "mbcnt of a ballot": ("%6 = ballot_mask MASK %4\n  %7 = const uint {value=1000}\n"
                          "  %8 = mbcnt uint %6, %7\n  %9 = bitcast int %8",
                          lambda v, o, e, a: np.where(e, 1000 + np.array(
                              [np.count_nonzero((v[:i] != 0) & e[:i]) for i in range(len(v))]), 0)),
    "bcnt of a ballot": ("%6 = ballot_mask MASK %4\n  %7 = bcnt uint %6\n  %9 = bitcast int %7",
                         lambda v, o, e, a: np.full(len(v), np.count_nonzero((v != 0) & e))),
}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("primitive", PRIMITIVES)
def test_primitive_matches_the_model(wave_size, primitive):
    body, model = PRIMITIVES[primitive]
    body = body.replace("MASK", "uint" if wave_size == 32 else "uint64_t")
    module = module_of(primitive_kernel(wave_size, body))
    result = next(inst for inst in module.function.instructions() if inst.op.value == "buffer_store").operands[-1]
    rng = np.random.default_rng(4)
    for name, exec_mask in exec_masks(wave_size):
        values = rng.integers(-50, 50, wave_size).astype(np.int32)
        aux = rng.integers(0, wave_size, wave_size).astype(np.uint32)
        state = run_wave(module, wave_size, exec_mask, buffers={"inp": values, "aux": aux,
                                                                "out": np.zeros(wave_size, np.int32)})
        old = np.full(wave_size, OLD, np.int32)
        # the whole register, inactive lanes included (their input is 0: they never loaded it)
        loaded = np.where(exec_mask, values, 0)
        expected = model(loaded, old, exec_mask, aux)
        assert state.value(result).tolist() == np.asarray(expected).astype(np.int32).tolist(), name


def test_readlane_is_uniform_even_on_inactive_lanes():
    exec_mask = without(32, 0, 1)
    state, values, register = run_primitive("%6 = const uint {value=1}\n  %9 = readlane int %1, %6", 32, exec_mask)
    assert (register == 0).all()  # lane 1 was never written: the register held 0 there
    state, values, register = run_primitive("%6 = const uint {value=7}\n  %9 = readlane int %1, %6", 32, exec_mask)
    assert (register == values[7]).all()


# The reduction ladder of machine.ladders.reduce_via_dpp (wave32), written as lowered IR.
REDUCE_LADDER = """
  %5 = const int {value=0}
  %10 = set_inactive int %1, %5 {wwm=true}
  %11 = dpp16 int %10, %10 {bank_mask=15, bound_ctrl=false, ctrl="quad_perm:[1,0,3,2]", row_mask=15, wwm=true}
  %12 = add int %10, %11 {wwm=true}
  %13 = add int %12, %12 {bank_mask=15, bound_ctrl=false, dpp="quad_perm:[2,3,0,1]", row_mask=15, wwm=true}
  %14 = dpp16 int %13, %13 {bank_mask=15, bound_ctrl=false, ctrl="row_half_mirror", row_mask=15, wwm=true}
  %15 = add int %13, %14 {wwm=true}
  %16 = dpp16 int %15, %15 {bank_mask=15, bound_ctrl=false, ctrl="row_mirror", row_mask=15, wwm=true}
  %17 = add int %15, %16 {wwm=true}
  %18 = permlanex16 int %17, %17 {wwm=true}
  %19 = add int %17, %18 {wwm=true}
  %20 = const uint {value=0}
  %9 = readlane int %19, %20
"""


def test_a_wwm_reduction_ladder_equals_wave_active_sum():
    module = module_of(intrinsic_kernel(32, REDUCE_LADDER.strip(), "int", "int"))
    rng = np.random.default_rng(11)
    for name, exec_mask in exec_masks(32):
        values = rng.integers(-1000, 1000, 32).astype(np.int32)
        state = run_wave(module, 32, exec_mask, buffers={"inp": values, "aux": np.zeros(32, np.uint32),
                                                         "out": np.zeros(32, np.int32)})
        expected = wm.wave_active("sum", values, exec_mask)
        assert len(wm.mismatched_lanes(state.buffers["out"], expected)) == 0, name
    assert state.stats.dpp_combined == 1 and state.stats.counts["lane_exchange"] == 6
