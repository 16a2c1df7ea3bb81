"""The IR interpreter, control flow: divergent if/else under partial exec masks, loops that
reconverge, switches, early returns, continue from a switch in a loop, and the errors."""

import os
import sys

import numpy as np
import pytest

from shc.compiler.ir.interpret.run import InterpretError

sys.path.insert(0, os.path.dirname(__file__))
from interpret_helpers import WAVE_SIZES, run, without  # noqa: E402


# --------------------------------------------------------------------------------------
# Control flow
# --------------------------------------------------------------------------------------

IF_ELSE = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=10}
  %2 = lt bool %0, %1
  selection ^end
  cond_br %2, ^then, ^else
^then:
  %3 = const bool {value=true}
  %4 = wave_count_bits uint %3
  br ^end
^else:
  %5 = const uint {value=1000}
  %6 = add uint %0, %5
  br ^end
^end:
  %7 = phi uint [%4, ^then], [%6, ^else]
  buffer_store %0, %7 {resource="out"}
  ret
}
"""


def test_divergent_if_else_with_a_phi_under_a_partial_exec_mask():
    exec_mask = without(32, 3, 20)
    state = run(IF_ELSE, exec_mask=exec_mask, buffers={"out": np.zeros(32, np.uint32)})
    lanes = np.arange(32)
    expected = np.where(lanes < 10, 9, lanes + 1000)  # 9 active lanes below 10 (lane 3 is off)
    expected[~exec_mask] = 0
    assert state.buffers["out"].tolist() == expected.tolist()
    # both sides ran, each under its own lanes
    assert state.stats.counts["wave"] == 1


def test_a_side_with_no_lanes_is_skipped():
    state = run(IF_ELSE, exec_mask=np.arange(32) >= 10, buffers={"out": np.zeros(32, np.uint32)})
    assert "wave" not in state.stats.counts


LOOP = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=0}
  %2 = const uint {value=1}
  %3 = const uint {value=8}
  %4 = and uint %0, %3
  br ^head
^head:
  %5 = phi uint [%1, ^entry], [%8, ^cont]
  %6 = phi uint [%1, ^entry], [%10, ^cont]
  %7 = lt bool %5, %0
  loop ^end ^cont
  cond_br %7, ^body, ^end
^body:
  %8 = add uint %5, %2
  %9 = const bool {value=true}
  %10 = wave_count_bits uint %9
  %11 = eq bool %8, %3
  selection ^join
  cond_br %11, ^end, ^join
^join:
  br ^cont
^cont:
  br ^head
^end:
  %12 = phi uint [%5, ^head], [%8, ^body]
  %13 = phi uint [%6, ^head], [%10, ^body]
  %14 = const uint {value=65536}
  %15 = mul uint %13, %14
  %16 = add uint %12, %15
  buffer_store %0, %16 {resource="out"}
  ret
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_loop_with_per_lane_trip_counts_reconverges(wave_size):
    """Lane i runs min(i, 8) iterations (breaking at 8); the last iteration it runs sees how
    many lanes were still in the loop."""
    state = run(LOOP, wave_size, buffers={"out": np.zeros(wave_size, np.uint32)})
    lanes = np.arange(wave_size)
    trips = np.minimum(lanes, 8)
    active_in_last = np.array([np.count_nonzero(lanes >= t) if t else 0 for t in trips])
    assert (state.buffers["out"] & 0xFFFF).tolist() == trips.tolist()
    assert (state.buffers["out"] >> 16).tolist() == active_in_last.tolist()
    assert state.stats.counts["wave"] == 8  # one wave op per iteration, 8 iterations


SWITCH = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=4}
  %2 = rem uint %0, %1
  %3 = const uint {value=0}
  switch_merge ^end
  switch %2, ^default, ^case0, ^case1 {cases=[0, 1]}
^case0:
  %4 = const uint {value=100}
  br ^case1
^case1:
  %5 = phi uint [%4, ^case0], [%3, ^entry]
  %6 = const bool {value=true}
  %7 = wave_count_bits uint %6
  %8 = add uint %5, %7
  br ^end
^default:
  %9 = const uint {value=7}
  br ^end
^end:
  %10 = phi uint [%8, ^case1], [%9, ^default]
  buffer_store %0, %10 {resource="out"}
  ret
}
"""


def test_switch_falls_through_and_runs_each_case_once():
    state = run(SWITCH, buffers={"out": np.zeros(32, np.uint32)})
    selector = np.arange(32) % 4
    # case 0 falls into case 1: both groups run case 1 together (16 lanes)
    expected = np.select([selector == 0, selector == 1], [116, 16], 7)
    assert state.buffers["out"].tolist() == expected.tolist()
    assert state.stats.counts["wave"] == 1


EARLY_RETURN = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(64, 1, 1) wave64 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=5}
  %2 = rem uint %0, %1
  %3 = const uint {value=0}
  %4 = eq bool %2, %3
  selection ^end
  cond_br %4, ^leave, ^end
^leave:
  %5 = const uint {value=99}
  buffer_store %0, %5 {resource="out"}
  ret
^end:
  %6 = wave_active uint %0 {fn="sum"}
  buffer_store %0, %6 {resource="out"}
  ret
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_lanes_that_return_stay_off(wave_size):
    state = run(EARLY_RETURN, wave_size, buffers={"out": np.zeros(wave_size, np.uint32)})
    lanes = np.arange(wave_size)
    stays = lanes % 5 != 0
    expected = np.where(stays, lanes[stays].sum(), 99)
    assert state.buffers["out"].tolist() == expected.tolist()
    assert state.retired.all()


RUNAWAY = """
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = const bool {value=true}
  br ^head
^head:
  loop ^end ^head
  cond_br %0, ^head, ^end
^end:
  ret
}
"""


def test_runaway_loop_is_an_error():
    with pytest.raises(InterpretError, match="runaway"):
        run(RUNAWAY, max_steps=1000)


def test_unstructured_branch_is_an_error():
    with pytest.raises(InterpretError, match="unstructured"):
        run("""
            func @main numthreads(32, 1, 1) wave32 {
            ^entry:
              %0 = thread_input uint {which="group_index"}
              %1 = const uint {value=3}
              %2 = lt bool %0, %1
              cond_br %2, ^a, ^b
            ^a:
              br ^b
            ^b:
              ret
            }
        """)


SWITCH_IN_LOOP = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=0}
  %2 = const uint {value=1}
  %3 = const uint {value=3}
  br ^head
^head:
  %4 = phi uint [%1, ^entry], [%12, ^cont]
  %5 = phi uint [%1, ^entry], [%11, ^cont]
  %6 = lt bool %4, %0
  loop ^end ^cont
  cond_br %6, ^body, ^end
^body:
  %7 = rem uint %4, %3
  switch_merge ^sw.end
  switch %7, ^sw.end, ^skip, ^count {cases=[0, 1]}
^skip:
  br ^cont
^count:
  %8 = const uint {value=100}
  %9 = add uint %5, %8
  br ^sw.end
^sw.end:
  %10 = phi uint [%5, ^body], [%9, ^count]
  br ^cont
^cont:
  %11 = phi uint [%5, ^skip], [%10, ^sw.end]
  %12 = add uint %4, %2
  %13 = const bool {value=true}
  %14 = wave_count_bits uint %13
  br ^head
^end:
  buffer_store %0, %5 {resource="out"}
  ret
}
"""


def test_continue_from_a_switch_inside_a_loop():
    """Lanes that continue from one case and lanes that finish the switch run ^cont together."""
    state = run(SWITCH_IN_LOOP, buffers={"out": np.zeros(32, np.uint32)})
    expected = [100 * sum(1 for k in range(i) if k % 3 == 1) for i in range(32)]
    assert state.buffers["out"].tolist() == expected
    assert state.stats.counts["wave"] == 31  # ^cont ran once per iteration (lane 31 runs 31)
