"""DPP combine on IR text: what folds into the consumer, and what must stay a move."""

from textwrap import dedent

import numpy as np
import pytest

from shc.compiler.ir.printer import print_module
from shc.compiler.ir.reader import read_module
from shc.compiler.ir.verify import verify
from shc.compiler.passes.dead_code import DeadCode
from shc.compiler.passes.dpp_combine import DppCombine
from shc.compiler.passes.lower_wave_ops import LowerWaveOps
from shc.compiler.machine import wavemodel as wm


def run(text, passes=(DppCombine(), DeadCode())):
    module = read_module(dedent(text))
    verify(module.function)
    for each in passes:
        each.run(module)
        verify(module.function)
    return print_module(module, show_coords=False).strip()


def golden(text):
    return dedent(text).strip()


QUAD_SUM = """
resource @inp RWStructuredBuffer<float> u0 space0
resource @out RWStructuredBuffer<float> u1 space0
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = buffer_load float %0 {resource="inp"}
  %2 = quad_read float %1 {lanes=[1, 0, 3, 2]}
  %3 = add float %1, %2                                  ; spd.hlsl:12:20
  buffer_store %0, %3 {resource="out"}
  ret
}
"""


def test_golden_quad_read_across_x_plus_add_is_one_dpp_add():
    """``v + QuadReadAcrossX(v)``: the DPP move is operand 1 of a commutative add, so the
    operands swap and the add reads it through quad_perm (``v_add_f32_dpp``)."""
    text = run(QUAD_SUM, [LowerWaveOps(32), DppCombine(), DeadCode()])
    assert text == golden("""
        resource @inp RWStructuredBuffer<float> u0 space0
        resource @out RWStructuredBuffer<float> u1 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = buffer_load float %0 {resource="inp"}
          %2 = add float %1, %1 {bank_mask=15, bound_ctrl=true, dpp="quad_perm:[1,0,3,2]", row_mask=15}
          buffer_store %0, %2 {resource="out"}
          ret
        }
    """)


def test_combined_op_keeps_its_source_location():
    module = read_module(QUAD_SUM)
    for each in (LowerWaveOps(32), DppCombine(), DeadCode()):
        each.run(module)
    add = next(inst for inst in module.function.instructions() if "dpp" in inst.attrs)
    assert (add.coord.line, add.coord.col) == (12, 20)


MOVE = """
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = buffer_load float %0 {resource="inp"}
  %2 = const float {value=OLD}
  %3 = dpp16 float %1, %2 {bank_mask=BANK, bound_ctrl=BOUND, ctrl="row_shr:1", row_mask=ROW}
  %4 = CONSUMER
  buffer_store %0, %4 {resource="out"}
  ret
}
"""


def move(consumer="add float %3, %1", old="0.0", bound="false", row="15", bank="15"):
    return (MOVE.replace("CONSUMER", consumer).replace("OLD", old).replace("BOUND", bound)
            .replace("ROW", row).replace("BANK", bank))


def combined(text):
    return "dpp16" not in text and 'dpp="row_shr:1"' in text


def test_zero_old_without_bound_ctrl_combines_with_bound_ctrl():
    """An invalid source reads the zero ``old`` through the move, or 0 through bound_ctrl."""
    text = run(move())
    assert "%2 = add float %1, %1 {bank_mask=15, bound_ctrl=true, dpp=\"row_shr:1\", row_mask=15}" in text


@pytest.mark.parametrize("op", ["add", "mul", "min", "max", "sub", "fma"])
def test_operand_zero_folds_for_every_valu_op(op):
    consumer = f"{op} float %3, %1, %1" if op == "fma" else f"{op} float %3, %1"
    assert combined(run(move(consumer, bound="true")))


@pytest.mark.parametrize("op", ["add", "mul", "min", "max", "and", "or", "xor"])
def test_operand_one_of_a_commutative_op_swaps(op):
    type_ = "uint" if op in ("and", "or", "xor") else "float"
    text = MOVE.replace("float", type_).replace("OLD", "0" if type_ == "uint" else "0.0")
    text = (text.replace("CONSUMER", f"{op} {type_} %1, %3").replace("BOUND", "true")
            .replace("ROW", "15").replace("BANK", "15"))
    result = run(text)
    assert f'%2 = {op} {type_} %1, %1 {{bank_mask=15, bound_ctrl=true, dpp="row_shr:1", row_mask=15}}' in result


def test_fma_swaps_its_first_two_operands():
    result = run(move("fma float %1, %3, %2", bound="true"))
    assert "fma float %1, %1, %2 {bank_mask=15, bound_ctrl=true" in result


UNCOMBINED = {
    "partial row mask": dict(row="5", bound="true"),
    "partial bank mask": dict(bank="14", bound="true"),
    "no bound_ctrl, non-identity old": dict(old="2.5"),
    "no bound_ctrl, identity old that is not 0": dict(consumer="mul float %3, %1", old="1.0"),
    "operand 1 of sub": dict(consumer="sub float %1, %3", bound="true"),
    "used twice by one op": dict(consumer="add float %3, %3", bound="true"),
    "not a VALU op": dict(consumer="convert int %3", bound="true"),
    "a compare": dict(consumer="lt bool %3, %1", bound="true"),
}


@pytest.mark.parametrize("case", UNCOMBINED)
def test_unsafe_moves_stay(case):
    text = move(**UNCOMBINED[case])
    assert run(text, [DppCombine()]) == golden(text)


def test_old_that_is_not_a_constant_stays_without_bound_ctrl():
    text = move().replace("%3 = dpp16 float %1, %2", "%3 = dpp16 float %1, %1")
    assert run(text, [DppCombine()]) == golden(text)


def test_a_move_with_one_unfoldable_user_stays_for_all():
    text = move(bound="true").replace("buffer_store %0, %4", "buffer_store %0, %3")
    assert run(text, [DppCombine()]) == golden(text)


def test_a_move_with_several_foldable_users_folds_into_each():
    text = move(bound="true").replace("  buffer_store", "  %5 = mul float %1, %3\n  %6 = add float %4, %5\n  buffer_store")
    text = text.replace("buffer_store %0, %4", "buffer_store %0, %6")
    result = run(text)
    assert "dpp16" not in result and result.count('dpp="row_shr:1"') == 2


def test_whole_wave_mismatch_stays():
    text = move(bound="true").replace('row_mask=15}', 'row_mask=15, wwm=true}', 1)
    assert run(text, [DppCombine()]) == golden(text)


def test_consumer_in_another_block_stays():
    text = """
    func @main numthreads(32, 1, 1) wave32 {
    ^entry:
      %0 = thread_input uint {which="group_index"}
      %1 = buffer_load float %0 {resource="inp"}
      %2 = const float {value=0.0}
      %3 = dpp16 float %1, %2 {bank_mask=15, bound_ctrl=true, ctrl="row_shr:1", row_mask=15}
      %4 = lt bool %1, %2
      selection ^merge
      cond_br %4, ^then, ^merge
    ^then:
      %5 = add float %3, %1
      buffer_store %0, %5 {resource="out"}
      br ^merge
    ^merge:
      ret
    }
    """
    assert run(text, [DppCombine()]) == golden(text)


def test_already_combined_consumer_stays():
    text = move(bound="true").replace("%4 = add float %3, %1",
                                      '%4 = add float %3, %1 {bank_mask=15, bound_ctrl=true, dpp="row_mirror", row_mask=15}')
    assert run(text, [DppCombine()]) == golden(text)


# The rules, checked against the model: folding where they forbid it changes lanes that
# the program reads, and folding where they allow it changes none.


def _mov_then_add(src, other, old, exec_lanes, ctrl, row_mask, bound_ctrl):
    moved = wm.dpp16(src, old, exec_lanes, ctrl, row_mask=row_mask, bound_ctrl=bound_ctrl)
    return wm.valu(np.add, moved, other, np.zeros_like(src), exec_lanes)


def _folded_add(src, other, exec_lanes, ctrl, row_mask, bound_ctrl):
    return wm.dpp16_valu(np.add, src, other, np.zeros_like(src), exec_lanes, ctrl, row_mask=row_mask,
                         bound_ctrl=bound_ctrl)


@pytest.mark.parametrize("wave_size", wm.WAVE_SIZES)
def test_the_rules_against_the_model(wave_size):
    rng = np.random.default_rng(7)
    src = rng.uniform(1, 2, wave_size).astype(np.float32)
    other = rng.uniform(1, 2, wave_size).astype(np.float32)
    exec_lanes = rng.random(wave_size) < 0.7
    zero = np.zeros(wave_size, np.float32)
    nonzero = np.full(wave_size, 2.5, np.float32)
    same = lambda a, b: np.array_equal(a[exec_lanes], b[exec_lanes])
    # allowed: full masks and bound_ctrl, or full masks and a zero old (folded with bound_ctrl)
    assert same(_mov_then_add(src, other, nonzero, exec_lanes, "row_shr:1", 0xF, True),
                _folded_add(src, other, exec_lanes, "row_shr:1", 0xF, True))
    assert same(_mov_then_add(src, other, zero, exec_lanes, "row_shr:1", 0xF, False),
                _folded_add(src, other, exec_lanes, "row_shr:1", 0xF, True))
    # forbidden: a partial row mask, or no bound_ctrl with a non-zero old
    assert not same(_mov_then_add(src, other, zero, exec_lanes, "quad_perm:[1,0,3,2]", 0x5, True),
                    _folded_add(src, other, exec_lanes, "quad_perm:[1,0,3,2]", 0x5, True))
    assert not same(_mov_then_add(src, other, nonzero, exec_lanes, "row_shr:1", 0xF, False),
                    _folded_add(src, other, exec_lanes, "row_shr:1", 0xF, True))
