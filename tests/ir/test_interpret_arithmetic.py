"""The IR interpreter, arithmetic: wrap-around, division by zero, conversions, shifts, half
precision, agreement with the constant folder; thread inputs derived from the group index."""

import os
import sys

import numpy as np


sys.path.insert(0, os.path.dirname(__file__))
from interpret_helpers import module_of, run  # noqa: E402


# --------------------------------------------------------------------------------------
# Arithmetic
# --------------------------------------------------------------------------------------


ARITHMETIC = """
resource @out RWStructuredBuffer<uint> u0 space0
func @main numthreads(32, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=4294967295}
  %2 = add uint %0, %1
  %3 = const uint {value=0}
  %4 = div uint %0, %3
  %5 = const int {value=-7}
  %6 = bitcast int %0
  %7 = const int {value=2}
  %8 = div int %5, %7
  %9 = rem int %5, %7
  %10 = const int {value=2147483647}
  %11 = mul int %10, %7
  %12 = const float {value=-3.75}
  %13 = convert int %12
  %14 = const float {value=1e10}
  %15 = convert uint %14
  %16 = const float {value=-1.0}
  %17 = convert uint %16
  %18 = const uint {value=33}
  %19 = shl uint %0, %18
  %20 = shr int %5, %0
  %21 = construct uint4 %2, %4, %0, %0
  %22 = bitcast uint %8
  %23 = bitcast uint %9
  %24 = bitcast uint %11
  %25 = bitcast uint %13
  %26 = bitcast uint %20
  %27 = construct uint4 %22, %23, %24, %25
  %28 = construct uint4 %15, %17, %19, %26
  %29 = const uint {value=3}
  %30 = mul uint %0, %29
  buffer_store %30, %2 {resource="out"}
  %31 = const uint {value=1}
  %32 = add uint %30, %31
  buffer_store %32, %4 {resource="out"}
  %33 = add uint %32, %31
  buffer_store %33, %19 {resource="out"}
  %34 = const uint {value=100}
  buffer_store %34, %27 {resource="vec"}
  %35 = const uint {value=0}
  buffer_store %35, %28 {resource="vec"}
  ret
}
"""


def test_integer_arithmetic_wraps_and_division_by_zero_gives_all_ones():
    out = np.zeros(96, np.uint32)
    vec = np.zeros((4, 4), np.uint32)
    state = run(ARITHMETIC, buffers={"out": out, "vec": vec})
    lanes = np.arange(32, dtype=np.uint32)
    got = state.buffers["out"].reshape(32, 3)
    assert got[0, 0] == 0xFFFFFFFF and (got[1:, 0] == lanes[1:] - 1).all()  # wrap-around
    assert (got[:, 1] == 0xFFFFFFFF).all()  # uint division by zero
    assert (got[:, 2] == lanes << 1).all()  # shift amounts use their low 5 bits
    # vec[100] is out of bounds: dropped. vec[0]: the last lane's store wins.
    as_int = state.buffers["vec"].view(np.int32)
    assert state.buffers["vec"][0].tolist() == [4294967295, 0, 31 << 1, np.uint32(-1 & 0xFFFFFFFF)]
    assert (as_int[1:] == 0).all()


def test_signed_division_conversions_and_arithmetic_shift():
    state = run(ARITHMETIC, buffers={"out": np.zeros(96, np.uint32), "vec": np.zeros((101, 4), np.uint32)})
    words = state.buffers["vec"][100].view(np.int32)
    assert words.tolist() == [-3, -1, -2, -3]  # trunc toward zero; INT_MAX*2 wraps; float->int truncates
    first = state.buffers["vec"][0]
    assert first[0] == 0xFFFFFFFF and first[1] == 0  # float->uint saturates (1e10, -1.0)


CONSTANTS = """
resource @out RWStructuredBuffer<float> u0 space0
func @main numthreads(1, 1, 1) wave32 {
^entry:
  %0 = const float {value=1.5}
  %1 = const float {value=-2.25}
  %2 = mul float %0, %1
  %3 = const int {value=-17}
  %4 = const int {value=5}
  %5 = rem int %3, %4
  %6 = convert float %5
  %7 = add float %2, %6
  %8 = const half {value=0.1}
  %9 = convert float %8
  %10 = add float %7, %9
  %11 = const uint {value=3}
  %12 = shr uint %11, %4
  %13 = convert float %12
  %14 = sub float %10, %13
  %15 = const float4 {value=[1.0, 2.0, 3.0, 4.0]}
  %16 = shuffle float2 %15 {lanes=[3, 1]}
  %17 = extract float %16 {index=0}
  %18 = max float %14, %17
  %19 = min float %14, %17
  %20 = add float %18, %19
  %21 = const uint {value=0}
  buffer_store %21, %20 {resource="out"}
  ret
}
"""


def test_interpreter_agrees_with_the_constant_folder():
    from shc.compiler.passes.constant_fold import ConstantFold

    expected = run(CONSTANTS, buffers={"out": np.zeros(1, np.float32)}).buffers["out"][0]
    module = module_of(CONSTANTS)
    ConstantFold().run(module)
    store = [inst for inst in module.function.instructions() if inst.op.value == "buffer_store"][0]
    assert store.operands[1].op.value == "const"
    assert np.float32(store.operands[1].attrs["value"]) == expected


def test_half_precision_and_f16_bits():
    state = run("""
        resource @out RWStructuredBuffer<uint> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = const float {value=0.1}
          %1 = f32tof16 uint %0
          %2 = f16tof32 float %1
          %3 = convert half %0
          %4 = add half %3, %3
          %5 = convert float %4
          %6 = bitcast uint %2
          %7 = bitcast uint %5
          %8 = construct uint3 %1, %6, %7
          %9 = const uint {value=0}
          buffer_store %9, %8 {resource="out"}
          ret
        }
    """, buffers={"out": np.zeros(3, np.uint32)})
    bits, back, doubled = state.buffers["out"]
    assert bits == np.float16(0.1).view(np.uint16)
    assert np.uint32(back).view(np.float32) == np.float32(np.float16(0.1))
    assert np.uint32(doubled).view(np.float32) == np.float32(np.float16(0.1) + np.float16(0.1))


def test_fp32_denormals_flush_in_arithmetic_but_not_in_moves_negation_or_halves():
    state = run("""
        resource @out RWStructuredBuffer<uint> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=2147483649}
          %2 = or uint %0, %1
          %3 = bitcast float %2
          %4 = const float {value=1.0}
          %5 = mul float %3, %4
          %6 = neg float %3
          %7 = const float {value=0.0}
          %8 = eq float %3, %7
          %9 = convert uint %8
          %10 = bitcast uint %5
          %11 = bitcast uint %6
          %12 = const uint16_t {value=1}
          %13 = bitcast half %12
          %14 = add half %13, %13
          %15 = convert float %14
          %16 = bitcast uint %15
          %17 = construct uint4 %10, %11, %9, %16
          %18 = const uint {value=0}
          buffer_store %18, %17 {resource="out"}
          ret
        }
    """, buffers={"out": np.zeros(4, np.uint32)})
    product, negated, equals_zero, half_sum = state.buffers["out"]
    assert product == 0x80000000  # -denormal * 1.0 is -0.0
    assert negated == 31  # lane 31 stores last; negation is a modifier: its bits, sign flipped
    assert equals_zero == 1  # a comparison sees the denormal as zero
    assert np.uint32(half_sum).view(np.float32) == np.float32(2 * 2.0 ** -24)  # half denormals stay


# --------------------------------------------------------------------------------------
# Thread inputs
# --------------------------------------------------------------------------------------


def test_thread_inputs_follow_from_group_index_numthreads_and_group_id():
    state = run("""
        resource @out RWStructuredBuffer<uint4> u0 space0
        func @main numthreads(8, 8, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = thread_input uint3 {which="group_thread_id"}
          %2 = thread_input uint3 {which="dispatch_thread_id"}
          %3 = thread_input uint3 {which="group_id"}
          %4 = const uint {value=32}
          %5 = sub uint %0, %4
          %6 = extract uint %1 {index=1}
          %7 = shuffle uint2 %2 {lanes=[0, 1]}
          %8 = extract uint %3 {index=0}
          %9 = construct uint4 %6, %7, %8
          buffer_store %5, %9 {resource="out"}
          ret
        }
    """, lane_inputs={"group_index": np.arange(32, 64), "group_id": (2, 1, 0)},
        buffers={"out": np.zeros((32, 4), np.uint32)})
    index = np.arange(32, 64)
    expected = np.stack([index // 8, 2 * 8 + index % 8, 1 * 8 + index // 8, np.full(32, 2)], axis=1)
    assert state.buffers["out"].tolist() == expected.tolist()
