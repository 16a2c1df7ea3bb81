"""Uniformity analysis on IR text: sources, merges after divergent branches, loops, barriers."""

from textwrap import dedent

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.printer import Printer
from shc.compiler.ir.reader import read_module
from shc.compiler.passes.uniformity import GROUP, LANE, WAVE, Uniformity


def levels(text, diagnostics=None):
    module = read_module(dedent(text))
    Uniformity(diagnostics).run(module)
    info = module.analyses["uniformity"]
    printer = Printer(module.function)
    return {printer.value(inst): info.level(inst) for inst in module.function.instructions()
            if inst.type.__class__.__name__ != "VoidType"}


def test_sources_and_propagation():
    result = levels("""
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint3 {which="group_id"}
          %1 = thread_input uint {which="group_index"}
          %2 = cbuffer_load uint {buffer="cb", offset=0}
          %3 = extract uint %0 {index=0}
          %4 = add uint %3, %2
          %5 = add uint %4, %1
          %6 = wave_active uint %5 {fn="sum"}
          %7 = wave_prefix uint %4 {fn="sum"}
          %8 = wave_read_lane_at uint %5, %2
          %9 = wave_read_lane_at uint %5, %1
          %10 = lds_load uint %4 {var="x"}
          %11 = lds_load uint %5 {var="x"}
          ret
        }
    """)
    assert result == {"%0": GROUP, "%1": LANE, "%2": GROUP, "%3": GROUP, "%4": GROUP, "%5": LANE,
                      "%6": WAVE, "%7": LANE, "%8": WAVE, "%9": LANE, "%10": GROUP, "%11": LANE}


BRANCH = """
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = cbuffer_load uint {buffer="cb", offset=0}
  %2 = const uint {value=1}
  %3 = const uint {value=2}
  %4 = lt bool COND, %1
  selection ^end
  cond_br %4, ^then, ^end
^then:
  br ^end
^end:
  %5 = phi uint [%2, ^then], [%3, ^entry]
  barrier {scope="group", sync=true}
  ret
}
"""


def test_phi_after_divergent_branch_is_divergent_and_barrier_is_an_error():
    diagnostics = Diagnostics()
    result = levels(BRANCH.replace("COND", "%0"), diagnostics)
    assert result["%5"] == LANE  # constants merged under a divergent condition
    assert diagnostics.error_count == 0  # the barrier is after the merge: everyone reaches it


def test_phi_after_uniform_branch_stays_uniform():
    result = levels(BRANCH.replace("COND", "%1"))
    assert result["%5"] == GROUP


def test_barrier_inside_divergent_if_is_an_error_and_inside_wave_uniform_if_a_warning():
    text = """
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=4}
          %2 = COND
          %3 = lt bool %2, %1
          selection ^end
          cond_br %3, ^then, ^end
        ^then:
          barrier {scope="group", sync=true}
          br ^end
        ^end:
          ret
        }
    """
    divergent = Diagnostics()
    levels(text.replace("COND", "add uint %0, %1"), divergent)
    assert [(d.severity, d.message.split(":")[0]) for d in divergent.items] == [
        ("error", "barrier in divergent control flow")]
    per_wave = Diagnostics()
    levels(text.replace("COND", 'wave_active uint %0 {fn="max"}'), per_wave)
    assert [d.severity for d in per_wave.items] == ["warning"]
    uniform = Diagnostics()
    levels(text.replace("COND", "add uint %1, %1"), uniform)
    assert uniform.items == []


def test_loop_with_divergent_exit_makes_values_used_after_it_divergent():
    result = levels("""
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=0}
          %2 = const uint {value=1}
          br ^head
        ^head:
          %3 = phi uint [%1, ^entry], [%4, ^cont]
          %5 = lt bool %3, %0
          loop ^end ^cont
          cond_br %5, ^cont, ^end
        ^cont:
          %4 = add uint %3, %2
          br ^head
        ^end:
          %6 = add uint %3, %2
          ret
        }
    """)
    # the counter starts and steps uniformly, but lanes leave at different iterations
    assert result["%3"] == LANE
    assert result["%6"] == LANE


def test_loop_with_uniform_exit_keeps_its_counter_uniform():
    result = levels("""
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = cbuffer_load uint {buffer="cb", offset=0}
          %1 = const uint {value=0}
          %2 = const uint {value=1}
          br ^head
        ^head:
          %3 = phi uint [%1, ^entry], [%4, ^cont]
          %5 = lt bool %3, %0
          loop ^end ^cont
          cond_br %5, ^cont, ^end
        ^cont:
          %4 = add uint %3, %2
          br ^head
        ^end:
          ret
        }
    """)
    assert result["%3"] == GROUP and result["%4"] == GROUP


def test_a_dpp_combined_op_is_divergent_even_on_uniform_operands():
    result = levels("""
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = cbuffer_load uint {buffer="cb", offset=0}
          %1 = add uint %0, %0 {bank_mask=15, bound_ctrl=true, dpp="row_shr:1", row_mask=15}
          ret
        }
    """)
    assert result == {"%0": GROUP, "%1": LANE}  # row_shr:1 gives lane 0 of each row a zero


def test_a_divergent_break_controls_the_rest_of_the_loop_but_not_what_follows_it():
    diagnostics = Diagnostics()
    levels("""
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=0}
          %2 = const uint {value=1}
          br ^head
        ^head:
          %3 = phi uint [%1, ^entry], [%4, ^cont]
          %5 = lt bool %3, %2
          loop ^end ^cont
          cond_br %5, ^body, ^end
        ^body:
          %6 = eq bool %0, %3
          selection ^join
          cond_br %6, ^brk, ^join
        ^brk:
          br ^end
        ^join:
          barrier {scope="group", sync=true} ; k.hlsl:20:5
          br ^cont
        ^cont:
          %4 = add uint %3, %2
          br ^head
        ^end:
          barrier {scope="group", sync=true} ; k.hlsl:30:5
          ret
        }
    """, diagnostics)
    # the barrier inside the loop runs only for lanes that did not break: an error;
    # the one after the loop is reached by every thread
    errors = [str(d.coord) for d in diagnostics.items if d.severity == "error"]
    assert errors == ["k.hlsl:20:5"]


def test_break_under_a_divergent_if_makes_the_loop_merge_phi_divergent():
    result = levels("""
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=0}
          %2 = const uint {value=1}
          %3 = const uint {value=8}
          br ^head
        ^head:
          %4 = phi uint [%1, ^entry], [%5, ^cont]
          %6 = lt bool %4, %3
          loop ^end ^cont
          cond_br %6, ^body, ^end
        ^body:
          %7 = eq bool %0, %4
          selection ^join
          cond_br %7, ^brk, ^join
        ^brk:
          br ^end
        ^join:
          br ^cont
        ^cont:
          %5 = add uint %4, %2
          br ^head
        ^end:
          %8 = phi uint [%1, ^head], [%2, ^brk]
          ret
        }
    """)
    # every lane sees the same counter while it is in the loop ...
    assert result["%4"] == GROUP
    # ... but lanes leave by different edges: which constant they see afterwards varies
    assert result["%8"] == LANE


def test_switch_fall_through_and_continue_joins_are_divergent_joins():
    result = levels("""
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=1}
          %2 = const uint {value=2}
          switch_merge ^end
          switch %0, ^end, ^case0, ^case1 {cases=[0, 1]}
        ^case0:
          br ^case1
        ^case1:
          %3 = phi uint [%1, ^case0], [%2, ^entry]
          br ^end
        ^end:
          ret
        }
    """)
    assert result["%3"] == LANE  # lane 0 falls through from case 0, lane 1 jumps in
