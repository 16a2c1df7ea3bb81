"""SM 6.6 dynamic resources: ``ResourceDescriptorHeap[i]`` and ``SamplerDescriptorHeap[i]``
take their type from the local variable they initialise (descriptor_heaps.py)."""

import os
import sys

import pytest
from shc.compiler.diagnostics import CompileError, Diagnostics, Unsupported
from shc.compiler.frontend import ast
from shc.compiler.pipeline import Options, compile_source

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import errors, kernel, valid


def test_a_heap_element_becomes_an_unbounded_array_of_the_variable_type():
    program = valid(kernel("RWStructuredBuffer<uint> b = ResourceDescriptorHeap[id.x];\n"
                           "RWStructuredBuffer<uint> c = ResourceDescriptorHeap[NonUniformResourceIndex(id.y)];\n"
                           "c[0] = b[1];"))
    heap = [decl for decl in program.resources if decl.name == "ResourceDescriptorHeap"]
    assert len(heap) == 1
    assert str(heap[0].type) == "RWStructuredBuffer<uint>[]"
    assert any(isinstance(decl, ast.DeclStmt) and heap[0] in decl.decls for decl in program.unit.decls)


def test_sampler_heap_initializes_a_sampler():
    program = valid(kernel("SamplerState s = SamplerDescriptorHeap[2];"))
    assert [str(decl.type) for decl in program.resources] == ["SamplerState[]"]


def test_heaps_need_shader_model_6_6():
    text = kernel("Texture2D<float4> t = ResourceDescriptorHeap[0];")
    assert errors(text, shader_model=(6, 5)) == [
        (4, 27, "'ResourceDescriptorHeap' requires shader model 6.6 or later (-T cs_6_5 was given)"),
    ]


@pytest.mark.parametrize("body, col, message", [
    ("uint x = ResourceDescriptorHeap[0];", 14,
     "an element of 'ResourceDescriptorHeap' initializes a resource (not a sampler) variable, not 'uint'"),
    ("SamplerState s = ResourceDescriptorHeap[0];", 22,
     "an element of 'ResourceDescriptorHeap' initializes a resource (not a sampler) variable, not 'SamplerState'"),
    ("Texture2D t = SamplerDescriptorHeap[0];", 19,
     "an element of 'SamplerDescriptorHeap' initializes a sampler variable, not 'Texture2D<float4>'"),
])
def test_the_destination_must_be_a_resource_of_the_heap_kind(body, col, message):
    assert errors(kernel(body)) == [(4, col, message)]


@pytest.mark.parametrize("body, col", [
    ("uint n = ResourceDescriptorHeap[0][1];", 14),
    ("float4 v = ResourceDescriptorHeap[0].Load(int3(0, 0, 0));", 16),
])
def test_a_heap_element_without_a_typed_destination_is_refused(body, col):
    assert errors(kernel(body)) == [
        (4, col, ("'ResourceDescriptorHeap[i]' must initialize a local resource variable, which gives it its type "
                  "('RWStructuredBuffer<uint> b = ResourceDescriptorHeap[i];')")),
    ]


def test_a_heap_read_as_two_types_is_unsupported_at_the_second():
    text = kernel("RWStructuredBuffer<uint> b = ResourceDescriptorHeap[0];\n"
                  "Texture2D<float4> t = ResourceDescriptorHeap[1];")
    with pytest.raises(Unsupported, match="'ResourceDescriptorHeap' is read as 'RWStructuredBuffer<uint>' and as "
                                          "'Texture2D<float4>'") as raised:
        errors(text)
    assert (raised.value.coord.line, raised.value.coord.col) == (5, 27)


def test_a_heap_beside_another_unbounded_array_is_unsupported():
    text = kernel("SamplerState s = SamplerDescriptorHeap[0];",
                  before="Texture2D<float4> textures[] : register(t0, space1);\n")
    with pytest.raises(Unsupported, match="beside the unbounded resource array 'textures'"):
        errors(text)


ROOT_SIGNATURE = """
[RootSignature("FLAGS UAV(u0)")]
[numthreads(8, 1, 1)]
void main(uint i : SV_DispatchThreadID)
{
    RWStructuredBuffer<uint> b = ResourceDescriptorHeap[i];
    b[0] = 1;
}
"""


@pytest.mark.parametrize("flags, expected", [
    ("", [(5, 34, "'ResourceDescriptorHeap' needs RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED) in the root signature")]),
    ("RootFlags(CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED), ", []),
])
def test_a_root_signature_must_let_the_shader_index_the_heap(flags, expected):
    text = ROOT_SIGNATURE.replace("FLAGS ", flags)
    diagnostics = Diagnostics()
    try:
        compile_source(text.lstrip("\n"), "t.hlsl", Options(), diagnostics)
    except CompileError:
        pass
    assert [(d.coord.line, d.coord.col, d.message) for d in diagnostics.items if d.severity == "error"] == expected
