"""Waterfall insertion for NonUniformResourceIndex, on IR text."""

from textwrap import dedent

from shc.compiler.ir.printer import print_module
from shc.compiler.ir.reader import read_module
from shc.compiler.ir.verify import verify
from shc.compiler.passes.waterfall import Waterfall

KERNEL = """
resource @textures[] Texture2D<float4> t0 space1
resource @out RWStructuredBuffer<float4> u0 space0
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = INDEX
  %2 = non_uniform uint %1
  %3 = const int3 {value=[0, 0, 0]}
  %4 = texture_load float4 %2, %3 {resource="textures"}
  buffer_store %0, %4 {resource="out"}
  ret
}
"""


def lower(text):
    module = read_module(dedent(text))
    Waterfall().run(module)
    verify(module.function)
    return print_module(module, show_coords=False).strip()


def test_divergent_index_gets_a_waterfall_loop():
    text = lower(KERNEL.replace("INDEX", 'buffer_load uint %0 {resource="out"}'))
    assert "non_uniform" not in text
    assert text.split("func", 1)[1] == dedent("""
         @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = buffer_load uint %0 {resource="out"}
          %2 = const int3 {value=[0, 0, 0]}
          br ^wf0.head
        ^wf0.head:
          %3 = readfirstlane uint %1
          %4 = eq bool %1, %3
          loop ^wf0.end ^wf0.cont
          br ^wf0.test
        ^wf0.test:
          %5 = const float4 {value=[0.0, 0.0, 0.0, 0.0]}
          selection ^wf0.join
          cond_br %4, ^wf0.body, ^wf0.join
        ^wf0.body:
          %6 = texture_load float4 %3, %2 {resource="textures"}
          br ^wf0.join
        ^wf0.join:
          %7 = phi float4 [%6, ^wf0.body], [%5, ^wf0.test]
          cond_br %4, ^wf0.end, ^wf0.cont
        ^wf0.cont:
          br ^wf0.head
        ^wf0.end:
          %8 = phi float4 [%7, ^wf0.join]
          buffer_store %0, %8 {resource="out"}
          ret
        }""").strip("\n")


def test_uniform_index_needs_no_loop():
    text = lower(KERNEL.replace("INDEX", 'cbuffer_load uint {buffer="cb", offset=0}'))
    assert "readfirstlane" not in text and "non_uniform" not in text
    assert "texture_load float4 %1, %2" in text
