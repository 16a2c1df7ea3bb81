"""Golden IR tests for the scalar passes: IR text in, IR text out."""

from textwrap import dedent

import pytest

from shc.compiler.ir.printer import print_module
from shc.compiler.ir.reader import ReadError, read_module
from shc.compiler.ir.verify import VerifyError, verify
from shc.compiler.passes.constant_fold import ConstantFold
from shc.compiler.passes.cse import CommonSubexpressions
from shc.compiler.passes.dead_code import DeadCode
from shc.compiler.passes.simplify import Simplify


def run(passes, text):
    module = read_module(dedent(text))
    verify(module.function)
    for each in passes:
        each.run(module)
        verify(module.function)
    return print_module(module, show_coords=False).strip()


def golden(text):
    return dedent(text).strip()


ARITH = """
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = const uint {value=6}
  %1 = const uint {value=7}
  %2 = mul uint %0, %1
  %3 = thread_input uint {which="group_index"}
  %4 = add uint %3, %2
  %5 = const uint {value=0}
  %6 = add uint %4, %5
  %7 = const uint {value=4294967295}
  %8 = add uint %7, %1
  buffer_store %6, %8 {resource="out"}
  ret
}
"""


def test_round_trip_is_identity():
    assert run([], ARITH) == golden(ARITH)


def test_constant_fold_wraps_like_32_bit_hardware():
    assert run([ConstantFold(), DeadCode()], ARITH) == golden("""
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = const uint {value=42}
          %1 = thread_input uint {which="group_index"}
          %2 = add uint %1, %0
          %3 = const uint {value=0}
          %4 = add uint %2, %3
          %5 = const uint {value=6}
          buffer_store %4, %5 {resource="out"}
          ret
        }
    """)


def test_simplify_removes_add_zero():
    text = run([Simplify(), DeadCode()], ARITH)
    module = read_module(text)
    store = [i for i in module.function.instructions() if i.op.value == "buffer_store"][0]
    address = store.operands[0]
    assert address.op.value == "add"
    assert address.operands[0].op.value == "thread_input"  # group_index + 6*7; the + 0 is gone
    assert address.operands[1].op.value == "mul"


def test_float_division_by_zero_folds_to_inf_but_integer_does_not():
    text = run([ConstantFold()], """
        func @main numthreads(1, 1, 1) wave32 {
        ^entry:
          %0 = const float {value=1.0}
          %1 = const float {value=0.0}
          %2 = div float %0, %1
          %3 = const int {value=1}
          %4 = const int {value=0}
          %5 = div int %3, %4
          buffer_store %5, %2 {resource="out"}
          ret
        }
    """)
    assert "%2 = const float {value=inf}" in text
    assert "%5 = div int %3, %4" in text


def test_vector_fold_and_shuffle():
    text = run([ConstantFold(), DeadCode()], """
        func @main numthreads(1, 1, 1) wave32 {
        ^entry:
          %0 = const float4 {value=[1.0, 2.0, 3.0, 4.0]}
          %1 = const float {value=0.5}
          %2 = construct float4 %1, %1, %1, %1
          %3 = mul float4 %0, %2
          %4 = shuffle float2 %3 {lanes=[3, 0]}
          %5 = const uint {value=0}
          buffer_store %5, %4 {resource="out"}
          ret
        }
    """)
    assert "%0 = const float2 {value=[2.0, 0.5]}" in text


CSE = """
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=3}
  %2 = mul uint %0, %1
  %3 = mul uint %1, %0
  %4 = lt bool %0, %1
  selection ^end
  cond_br %4, ^then, ^end
^then:
  %5 = mul uint %0, %1
  buffer_store %0, %5 {resource="out"}
  br ^end
^end:
  %6 = add uint %2, %3
  buffer_store %0, %6 {resource="out"}
  ret
}
"""


def test_cse_merges_commutative_and_dominated_copies():
    text = run([CommonSubexpressions(), DeadCode()], CSE)
    assert text.count("= mul uint") == 1
    assert "add uint %2, %2" in text


def test_cse_does_not_merge_wave_ops():
    text = run([CommonSubexpressions()], """
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = wave_active uint %0 {fn="sum"}
          %2 = wave_active uint %0 {fn="sum"}
          %3 = add uint %1, %2
          buffer_store %0, %3 {resource="out"}
          ret
        }
    """)
    assert text.count("wave_active") == 2


BRANCH = """
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const bool {value=false}
  selection ^end
  cond_br %1, ^then, ^end
^then:
  %2 = const uint {value=1}
  br ^end
^end:
  %3 = phi uint [%2, ^then], [%0, ^entry]
  buffer_store %0, %3 {resource="out"}
  ret
}
"""


def test_branch_on_constant_becomes_plain_branch():
    text = run([Simplify()], BRANCH)
    assert "cond_br" not in text and "selection" not in text
    assert "  br ^end\n^then:" in text
    # ^then is no longer reached, but it is still a predecessor of ^end in the CFG
    assert "phi uint [%2, ^then], [%0, ^entry]" in text


def test_dce_removes_dead_phi_cycles_but_keeps_stores():
    text = run([DeadCode()], """
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = const uint {value=0}
          br ^head
        ^head:
          %1 = phi uint [%0, ^entry], [%2, ^cont]
          %3 = lt bool %0, %0
          loop ^end ^cont
          cond_br %3, ^cont, ^end
        ^cont:
          %2 = add uint %1, %0
          br ^head
        ^end:
          ret
        }
    """)
    assert "phi" not in text and "add" not in text
    assert "lt bool" in text  # the branch still needs its condition


def test_verifier_rejects_use_before_definition():
    module = read_module(dedent("""
        func @main numthreads(1, 1, 1) wave32 {
        ^entry:
          %1 = add uint %0, %0
          %0 = const uint {value=1}
          ret
        }
    """))
    with pytest.raises(VerifyError, match="defined after it"):
        verify(module.function)


def test_verifier_rejects_missing_terminator_and_bad_phi():
    module = read_module(dedent("""
        func @main numthreads(1, 1, 1) wave32 {
        ^entry:
          %0 = const uint {value=1}
          br ^next
        ^next:
          %1 = phi uint [%0, ^entry], [%0, ^next]
          %2 = add uint %1, %1
        }
    """))
    with pytest.raises(VerifyError) as failure:
        verify(module.function)
    text = str(failure.value)
    assert "does not end in a terminator" in text
    assert "phi incoming blocks do not match" in text


def test_reader_reports_undefined_values_and_blocks():
    with pytest.raises(ReadError, match="undefined value %7"):
        read_module("func @main numthreads(1, 1, 1) wave32 {\n^entry:\n  %0 = add uint %7, %7\n  ret\n}\n")
    with pytest.raises(ReadError, match="undefined block"):
        read_module("func @main numthreads(1, 1, 1) wave32 {\n^entry:\n  br ^nowhere\n}\n")


def test_non_finite_constants_round_trip():
    text = """
        func @main numthreads(1, 1, 1) wave32 {
        ^entry:
          %0 = const float {value=inf}
          %1 = const float {value=-inf}
          %2 = const float2 {value=[nan, 1.0]}
          %3 = const uint {value=0}
          buffer_store %3, %0 {resource="out"}
          ret
        }
    """
    assert run([], text) == golden(text)


def test_every_sample_round_trips_through_the_text_form():
    """Structs, $Globals, resource arrays, phis and loops: print, read back, print again."""
    from pathlib import Path

    from shc.compiler.diagnostics import Diagnostics
    from shc.compiler.pipeline import Options, compile_file

    for path in sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.hlsl")):
        module = compile_file(str(path), Options(verify=True), Diagnostics())
        text = print_module(module)
        again = read_module(text)
        verify(again.function)
        assert print_module(again) == text, path.name


def test_cse_collapses_chains_of_equal_values_in_one_run():
    text = run([CommonSubexpressions(), DeadCode()], """
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint3 {which="group_thread_id"}
          %1 = const uint {value=1}
          %2 = extract uint %0 {index=0}
          %3 = sub uint %2, %1
          %4 = extract uint %0 {index=0}
          %5 = sub uint %4, %1
          %6 = add uint %3, %5
          buffer_store %2, %6 {resource="out"}
          ret
        }
    """)
    assert text.count("= extract") == 1 and text.count("= sub") == 1
    assert "add uint %3, %3" in text


def test_cse_merges_constant_buffer_reads_and_resource_sizes_but_not_buffer_loads():
    text = run([CommonSubexpressions(), DeadCode()], """
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = cbuffer_load uint {buffer="cb", offset=4}
          %2 = cbuffer_load uint {buffer="cb", offset=4}
          %3 = resource_info uint2 {fields=["width", "height"], resource="tex"}
          %4 = resource_info uint2 {fields=["width", "height"], resource="tex"}
          %5 = buffer_load uint %0 {resource="out"}
          %6 = buffer_load uint %0 {resource="out"}
          %7 = add uint %1, %2
          %8 = add uint %5, %6
          %9 = add uint %7, %8
          %10 = shuffle uint %3 {lanes=[0]}
          %11 = shuffle uint %4 {lanes=[1]}
          %12 = add uint %10, %11
          %13 = add uint %9, %12
          buffer_store %0, %13 {resource="out"}
          ret
        }
    """)
    assert text.count("cbuffer_load") == 1 and text.count("resource_info") == 1
    assert text.count("= buffer_load uint") == 2  # a UAV may have changed between the two reads
