"""SM 6.6 dynamic resources from Python: ``ResourceDescriptorHeap`` and ``SamplerDescriptorHeap``
are bound as lists; each entry is checked against the type the kernel reads it as. The IR
interpreter (the reference) and the host JIT compute the same buffers; the RDNA2 listing loads
each descriptor from the heap, through a waterfall for a divergent index."""

from __future__ import annotations

import numpy as np
import pytest
import shc
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

BUFFERS = """
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    RWStructuredBuffer<uint> src = ResourceDescriptorHeap[i / 8];            // uniform per 8 lanes
    RWStructuredBuffer<uint> dst = ResourceDescriptorHeap[NonUniformResourceIndex(i % 4)];
    dst[i + 64] = src[i] * 3 + 1;
}
"""


def _heap():
    return [np.arange(128, dtype=np.uint32) * (k + 1) for k in range(3)]


def _expected(wave: int) -> list[np.ndarray]:
    """By hand: heap index 3 is past the three-entry list, so it reads 0 and its writes are dropped."""
    heap = _heap()
    for i in range(wave):
        source = heap[i // 8][i] if i // 8 < 3 else 0
        if i % 4 < 3:
            heap[i % 4][i + 64] = source * 3 + 1
    return heap


@pytest.mark.parametrize("wave", [32, 64])
def test_interpreter_and_jit_agree_with_numpy(wave):
    source = BUFFERS.replace("NT", str(wave))
    module = compile_source(source, "heap.hlsl", Options(wave_size=wave), Diagnostics())
    reference = run_wave(module, buffers={"ResourceDescriptorHeap": _heap()}).buffers["ResourceDescriptorHeap"]
    heap = _heap()
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), {"ResourceDescriptorHeap": heap})
    for interpreted, jitted, expected in zip(reference, heap, _expected(wave)):
        assert np.array_equal(interpreted, expected)
        assert np.array_equal(jitted, expected)


def test_sampler_heap_feeds_sample_level():
    k = shc.compile("""
        Texture2D<float4> tex;
        RWStructuredBuffer<float4> result;
        [numthreads(1, 1, 1)]
        void main(uint i : SV_GroupID) {
            SamplerState s = SamplerDescriptorHeap[i];              // one sampler per group
            result[i] = tex.SampleLevel(s, float2(1.25, 0.5), 0);   // u past the edge
        }""")
    tex = np.array([[[0.0], [1.0]]], np.float32).repeat(4, axis=-1)  # (1, 2, 4): black, white
    result = np.zeros((2, 4), np.float32)
    samplers = [shc.Sampler(filter="point", address="clamp"), shc.Sampler(filter="point", address="wrap")]
    k.dispatch((2, 1, 1), {"SamplerDescriptorHeap": samplers}, tex=tex, result=result)
    assert result[:, 0].tolist() == [1.0, 0.0]  # clamp keeps the last texel; wrap reads 0.25 -> the first


def test_listing_loads_descriptors_from_the_heap():
    listing = shc.compile(BUFFERS.replace("NT", "32"), wave_size=32).listing
    assert "RWStructuredBuffer<uint>[]     ResourceDescriptorHeap loaded per access" in listing
    assert "; u0 ResourceDescriptorHeap[i]" in listing and "waterfall" in listing


@pytest.mark.parametrize("heap, message", [
    ([np.zeros(4, np.float32)], (r"'ResourceDescriptorHeap\[0\]' \(RWStructuredBuffer<uint>\[\] at u0\): "
                                 r"expected uint32 elements, got float32")),
    ([np.zeros(4, np.uint32), shc.Sampler()], r"'ResourceDescriptorHeap\[1\]' .*expected a NumPy array, got Sampler"),
    (np.zeros(4, np.uint32), r"'ResourceDescriptorHeap' is a resource array .*: pass a list"),
])
def test_an_entry_of_the_wrong_type_is_a_binding_error(heap, message):
    k = shc.compile(BUFFERS.replace("NT", "32"), wave_size=32)
    with pytest.raises(shc.BindingError, match=message):
        k.dispatch((1, 1, 1), {"ResourceDescriptorHeap": heap})


def test_a_missing_heap_is_a_binding_error():
    k = shc.compile(BUFFERS.replace("NT", "32"), wave_size=32)
    with pytest.raises(shc.BindingError, match=r"missing resource 'ResourceDescriptorHeap' .*a list of N"):
        k.dispatch((1, 1, 1))
