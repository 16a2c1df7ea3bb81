"""The IR interpreter, memory: LDS and its atomics, buffers out of bounds, cbuffers, textures,
resource arrays and byte-address buffers, arrays as values, per-lane scratch."""

import os
import sys

import numpy as np
import pytest

from shc.compiler.ir.interpret.run import InterpretError

sys.path.insert(0, os.path.dirname(__file__))
from interpret_helpers import run, without  # noqa: E402


# --------------------------------------------------------------------------------------
# Memory
# --------------------------------------------------------------------------------------

LDS = """
resource @out RWStructuredBuffer<float> u0 space0
groupshared @tile float[64] offset 0 size 256
func @main numthreads(64, 1, 1) wave64 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=4}
  %2 = mul uint %0, %1
  %3 = convert float %0
  lds_store %2, %3 {var="tile"}
  barrier {scope="group", sync=true}
  %4 = const uint {value=63}
  %5 = sub uint %4, %0
  %6 = mul uint %5, %1
  %7 = lds_load float %6 {var="tile"}
  buffer_store %0, %7 {resource="out"}
  ret
}
"""


def test_lds_store_then_load_reversed():
    state = run(LDS, 64, buffers={"out": np.zeros(64, np.float32)})
    assert state.buffers["out"].tolist() == list(range(63, -1, -1))
    assert state.barriers == 1 and state.stats.counts["lds"] == 2
    assert len(state.lds) == 256  # the groupshared size
    assert state.lds.view(np.float32).tolist() == list(range(64))


def test_lds_atomics_return_the_old_value_in_lane_order():
    state = run("""
        resource @out RWStructuredBuffer<uint> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=0}
          %2 = const uint {value=2}
          %3 = lds_atomic uint %1, %2 {fn="add"}
          %5 = const uint {value=8}
          %4 = lds_atomic uint %5, %0 {fn="max"}
          buffer_store %0, %3 {resource="out"}
          ret
        }
    """, exec_mask=without(32, 0), lds=np.zeros(16, np.uint8), buffers={"out": np.zeros(32, np.uint32)})
    expected = [0] + [2 * k for k in range(31)]
    assert state.buffers["out"].tolist() == expected
    assert state.lds.view(np.uint32).tolist() == [62, 0, 31, 0]


def test_buffer_out_of_bounds_reads_zero_and_drops_writes():
    state = run("""
        resource @src StructuredBuffer<uint> t0 space0
        resource @dst RWStructuredBuffer<uint> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = buffer_load uint %0 {resource="src"}
          %2 = const uint {value=1}
          %3 = add uint %1, %2
          %4 = const uint {value=4}
          %5 = mul uint %0, %4
          buffer_store %5, %3 {resource="dst"}
          ret
        }
    """, buffers={"src": np.arange(10, 26, dtype=np.uint32), "dst": np.zeros(40, np.uint32)})
    dst = state.buffers["dst"]
    assert dst[0:40:4].tolist() == [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]  # lanes 0..9 store in bounds
    assert np.count_nonzero(dst) == 10  # lanes 10+ wrote past the end: dropped


def test_cbuffer_loads_from_a_dict_and_from_bytes():
    text = """
        resource @out RWStructuredBuffer<float> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = cbuffer_load float2 {buffer="cb", offset=16}
          %2 = extract float %1 {index=1}
          buffer_store %0, %2 {resource="out"}
          ret
        }
    """
    from_dict = run(text, cbuffers={"cb": {16: 1.5, 20: 2.5}}, buffers={"out": np.zeros(32, np.float32)})
    from_list = run(text, cbuffers={"cb": {12: [0, 1, 2.5]}}, buffers={"out": np.zeros(32, np.float32)})
    assert (from_list.buffers["out"] == 2.5).all()
    raw = np.zeros(8, np.float32)
    raw[5] = 3.5
    from_bytes = run(text, cbuffers={"cb": raw.tobytes()}, buffers={"out": np.zeros(32, np.float32)})
    assert (from_dict.buffers["out"] == 2.5).all() and (from_bytes.buffers["out"] == 3.5).all()
    assert from_dict.stats.counts["salu"] >= 2  # a cbuffer value at a constant offset is scalar


def test_texture_load_store_mips_and_dimensions():
    state = run("""
        resource @src Texture2DArray<float4> t0 space0
        resource @dst RWTexture2D<float2> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=1}
          %2 = const uint {value=0}
          %3 = construct uint4 %0, %2, %1, %1
          %4 = texture_load float4 %3 {resource="src"}
          %5 = shuffle float2 %4 {lanes=[0, 3]}
          %6 = construct uint2 %0, %1
          texture_store %6, %5 {resource="dst"}
          %7 = resource_info uint4 %1 {fields=["width", "height", "elements", "levels"], resource="src"}
          %8 = extract uint %7 {index=0}
          %9 = convert float %8
          %10 = construct float2 %9, %9
          %11 = construct uint2 %0, %2
          texture_store %11, %10 {resource="dst"}
          ret
        }
    """, buffers={"src": [np.zeros((2, 8, 16, 3), np.float32), np.arange(2 * 4 * 8 * 3, dtype=np.float32)
                          .reshape(2, 4, 8, 3)],
                  "dst": np.zeros((2, 20, 2), np.float32)})
    dst = state.buffers["dst"]
    mip1 = np.arange(2 * 4 * 8 * 3, dtype=np.float32).reshape(2, 4, 8, 3)
    # row 1: slice 1 of mip 1 at (x, 0); x >= 8 is outside that mip: 0, and alpha defaults to 1
    assert dst[1, :8].tolist() == [[mip1[1, 0, x, 0], 1.0] for x in range(8)]
    assert dst[1, 8:].tolist() == [[0.0, 0.0]] * 12
    assert dst[0].tolist() == [[8.0, 8.0]] * 20  # mip 1 is 8 wide; lanes 20+ wrote outside: dropped


SAMPLE = """
    resource @tex Texture2D<float4> t0 space0
    resource @smp SamplerState s0 space0
    resource @out RWStructuredBuffer<float4> u0 space0
    func @main numthreads(32, 1, 1) wave32 {
    ^entry:
      %0 = thread_input uint {which="group_index"}
      %1 = const float2 {value=[0.375, 0.5]}
      %2 = const float {value=0.0}
      %3 = texture_sample float4 %1, %2 {resource="tex", sampler="smp"}
      buffer_store %0, %3 {resource="out"}
      ret
    }
"""


def test_texture_sample_filters_the_decoded_texels():
    """SampleLevel at u = 1.5 / 4, v = 2 / 4 of a 4 x 4 UNORM8 texture: point sampling reads texel
    (1, 2); linear sampling is halfway between rows 1 and 2 of column 1 (x at a texel centre)."""
    texels = np.arange(4 * 4 * 4, dtype=np.uint8).reshape(4, 4, 4) * 3
    point = run(SAMPLE, buffers={"tex": texels, "smp": (0, 0), "out": np.zeros((32, 4), np.float32)})
    assert (point.buffers["out"] == texels[2, 1] / np.float32(255)).all()
    linear = run(SAMPLE, buffers={"tex": texels, "smp": (1, 0), "out": np.zeros((32, 4), np.float32)})
    rows = texels[1:3, 1].astype(np.float32) / np.float32(255)
    assert (linear.buffers["out"] == rows[0] + np.float32(0.5) * (rows[1] - rows[0])).all()


def test_texture_sample_needs_its_sampler():
    with pytest.raises(InterpretError, match="no sampler named 'smp'"):
        run(SAMPLE, buffers={"tex": np.zeros((4, 4, 4), np.float32), "out": np.zeros((32, 4), np.float32)})


def test_resource_arrays_byte_address_buffers_and_resource_info():
    state = run("""
        resource @tables[2] StructuredBuffer<uint2> t0 space0
        resource @raw RWByteAddressBuffer u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=1}
          %2 = and uint %0, %1
          %3 = buffer_load uint %2, %0 {offset=4, resource="tables"}
          %4 = const uint {value=4}
          %5 = mul uint %0, %4
          buffer_store %5, %3 {resource="raw"}
          %6 = resource_info uint2 %2 {fields=["count", "stride"], resource="tables"}
          %7 = extract uint %6 {index=0}
          %8 = const uint {value=0}
          %9 = eq bool %0, %8
          selection ^end
          cond_br %9, ^first, ^end
        ^first:
          %10 = const uint {value=200}
          buffer_store %10, %7 {resource="raw"}
          br ^end
        ^end:
          ret
        }
    """, buffers={"tables": [np.arange(64, dtype=np.uint32).reshape(32, 2), np.full((3, 2), 7, np.uint32)],
                  "raw": np.zeros(51, np.uint32)})
    raw = state.buffers["raw"]
    lanes = np.arange(32)
    # even lanes read the y of element i of table 0; odd lanes table 1, which has 3 elements
    expected = np.where(lanes % 2 == 0, 2 * lanes + 1, np.where(lanes < 3, 7, 0))
    assert raw[:32].tolist() == expected.tolist()
    assert raw[50] == 32  # lane 0 (table 0): count = 32 elements, at byte 200


def test_arrays_are_values_through_phis_extract_and_insert():
    state = run("""
        resource @out RWStructuredBuffer<float> u0 space0
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = convert float %0
          %2 = const float {value=0.5}
          %3 = construct float[2] %1, %2
          %4 = const uint {value=16}
          %5 = lt bool %0, %4
          selection ^end
          cond_br %5, ^then, ^end
        ^then:
          %6 = add float %1, %1
          %7 = insert float[2] %3, %6 {index=1}
          br ^end
        ^end:
          %8 = phi float[2] [%7, ^then], [%3, ^entry]
          %9 = extract float %8 {index=1}
          %10 = const uint {value=2}
          %11 = extract float %8 {index=0}
          %12 = add float %9, %11
          buffer_store %0, %12 {resource="out"}
          ret
        }
    """, buffers={"out": np.zeros(32, np.float32)})
    lanes = np.arange(32)
    assert state.buffers["out"].tolist() == np.where(lanes < 16, 3 * lanes, lanes + 0.5).tolist()


def test_scratch_is_per_lane():
    state = run("""
        resource @out RWStructuredBuffer<uint> u0 space0
        scratch 16
        func @main numthreads(32, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=3}
          %2 = and uint %0, %1
          %3 = const uint {value=4}
          %4 = mul uint %2, %3
          scratch_store %4, %0
          %5 = const uint {value=8}
          %6 = scratch_load uint %5
          buffer_store %0, %6 {resource="out"}
          ret
        }
    """, buffers={"out": np.zeros(32, np.uint32)})
    lanes = np.arange(32)
    assert state.buffers["out"].tolist() == np.where(lanes % 4 == 2, lanes, 0).tolist()
